"""Second-order wave drift (floatwind.loads.drift, issue 39) and the irregular sea driven by a
recorded SeaState elevation: the WAMIT .8 reader, the mean drift against its closed form
(rho g A^2 Fbar at the wave frequency), Newman's approximation (its average is the mean drift,
a member alone and in a batch give the same bits), the HydroDyn import and its refusals, short
windows of ref12 (MnDrift = 8) and ref13 (irregular sea) against OpenFAST, one-line errors."""

from __future__ import annotations

import math
import pathlib
import types

import numpy as np
import pytest
from conftest import deck_copy, set_deck_value

from floatwind._kernels.contract import BodyKinematics, python_form
from floatwind.environment.waves import LinearSea, sea_from_elevation
from floatwind.errors import CaseError
from floatwind.loads.drift import drift_coefficients, interpolate, read_mean_drift
from floatwind.loads.potential import PotentialExcitation

ROOT = pathlib.Path(__file__).resolve().parents[1]
REF = ROOT.parent / "shared" / "reference" / "openfast"
REF12 = REF / "ref12_mean_drift_regular"
REF13 = REF / "ref13_potential_irregular"
needs_refs = pytest.mark.skipif(not REF12.is_dir() or not REF13.is_dir(),
                                reason="references ref12/ref13 not available")  # fmt: skip
SPAR = REF12 / "HydroData" / "spar"
RHO, G = 1025.0, 9.80665


def _env(sea):
    return types.SimpleNamespace(sea=sea, rho_water=RHO, gravity=G)


def _regular(amp, omega, heading=0.0):
    return LinearSea(omega=np.array([omega]), amplitude=np.array([[complex(amp)]]),
                     heading=np.full((1, 1), heading), depth=320.0, gravity=G)  # fmt: skip


@needs_refs
def test_reader_and_mean_drift_closed_form():
    """spar.8: 117 frequencies, 13 x 13 headings, modes 1, 2, 6; a regular wave A = 3 m at
    0.785398 rad/s gives rho g A^2 Fbar(omega) (Fbar linear between 0.78 and 0.80 rad/s:
    0.0557462 and 0.0612060) = 5,176.47 N, the B1WvsF2xi of ref12's README."""
    d = read_mean_drift(SPAR.with_suffix(".8"))
    assert d.omega.size == 117 and d.beta1.size == 13 and d.beta2.size == 13
    assert list(d.modes) == [True, True, False, False, False, True]
    w = 2 * math.pi / 8.0
    fbar = interpolate(d, w, 0.0)[0]
    w1, w2 = 2 * math.pi / 8.0553658, 2 * math.pi / 7.8539816
    expect = 0.0557462 + (w - w1) / (w2 - w1) * (0.0612060 - 0.0557462)
    assert fbar == pytest.approx(expect, rel=1e-5)
    Q = drift_coefficients(d, [w], [[3.0]], [[0.0]], rho_g=RHO * G, ulen=1.0)
    assert 9.0 * Q[0, 0, 0] == pytest.approx(5176.47, rel=2e-6)


@needs_refs
@pytest.mark.parametrize("method", ["mean_drift", "newman"])
def test_regular_wave_drift_is_the_mean_drift(method):
    """One component: Newman's |a sqrt(Q) e^{i w t}|^2 = |a|^2 Q, constant = the mean drift;
    heading 30 deg (a grid heading): Fx, Fy ~ F(0) (cos 30, sin 30) to 0.5 % (axisymmetric
    hull; the README measures 0.2 % over the file, 0.31 % here)."""
    w = 2 * math.pi / 8.0
    ld = PotentialExcitation(body=0, wamit=SPAR, second_order=method, qtf=SPAR.with_suffix(".8"))
    env = _env(_regular(3.0, w))
    ch = [ld._channels(t, env, 1)["B1WvsF2xi"][0] for t in (0.0, 1.3, 5.7)]
    assert ch == pytest.approx([5176.47] * 3, rel=2e-6)
    env30 = _env(_regular(3.0, w, math.radians(30)))
    c = ld._channels(2.0, env30, 1)
    assert c["B1WvsF2xi"][0] == pytest.approx(5176.47 * math.cos(math.radians(30)), rel=5e-3)
    assert c["B1WvsF2yi"][0] == pytest.approx(5176.47 * math.sin(math.radians(30)), rel=5e-3)


@needs_refs
def test_newman_average_is_the_mean_drift_and_batch_is_bitwise():
    """An irregular sea on a 200 s Fourier grid: the average of Newman's force over the period
    equals the mean drift sum |a|^2 Q (to 1e-9), its slow part is not zero; the compiled kernel
    gives member 1 of a 2-member batch bit for bit as alone, and equals its Python form."""
    rng = np.random.default_rng(3)
    T = 200.0
    m = np.arange(20, 60)
    omega = 2 * math.pi * m / T
    amp = 0.3 * np.exp(2j * math.pi * rng.random((2, m.size)))
    sea = LinearSea(omega=omega, amplitude=amp, heading=np.zeros((1, m.size)), depth=320.0,
                    gravity=G, period=T)  # fmt: skip
    env = _env(sea)
    newman = PotentialExcitation(body=0, wamit=SPAR, second_order="newman",
                                 qtf=SPAR.with_suffix(".8"))  # fmt: skip
    mean = PotentialExcitation(body=0, wamit=SPAR, second_order="mean_drift",
                               qtf=SPAR.with_suffix(".8"))  # fmt: skip
    ts = np.arange(0.0, T, 0.5)
    fx = np.array([newman._channels(t, env, 2)["B1WvsF2xi"] for t in ts])
    f0 = mean._channels(0.0, env, 2)["B1WvsF2xi"]
    assert np.allclose(fx.mean(axis=0), f0, rtol=1e-9)
    assert np.ptp(fx[:, 0]) > 0.5 * abs(f0[0])

    p = newman._params(env)
    kern = newman._kernel()

    def run(batch, params, fn):
        kin = BodyKinematics(r_G=np.zeros((batch, 1, 3)), R_b2g=np.tile(np.eye(3), (batch, 1, 1, 1)),
                             v_G=np.zeros((batch, 1, 3)), w_b=np.zeros((batch, 1, 3)),
                             cm_b=np.zeros((1, 3)))  # fmt: skip
        force, moment = np.zeros((batch, 1, 3)), np.zeros((batch, 1, 3))
        fn(params, 37.3, kin, np.empty((batch, 0)), np.empty((batch, 0)), force, moment,
           np.zeros((batch, 1, 6, 6)))  # fmt: skip
        return force, moment

    both = run(2, p, kern)
    alone = run(1, p._replace(c_re=p.c_re[1:], c_im=p.c_im[1:], mean=p.mean[1:],
                               n1_re=p.n1_re[1:], n1_im=p.n1_im[1:], n2_re=p.n2_re[1:],
                               n2_im=p.n2_im[1:]), kern)  # fmt: skip
    assert np.array_equal(both[0][1], alone[0][0]) and np.array_equal(both[1][1], alone[1][0])
    py = run(2, p, python_form(kern))
    assert np.allclose(py[0], both[0], rtol=1e-12, atol=1e-6)


def _write_rows(path, rows):
    path.write_text("".join(" ".join(f"{v:.7e}" for v in r) + "\n" for r in rows))


@needs_refs
def test_fast_reader_is_the_line_by_line_reader(tmp_path, monkeypatch):
    """The whole-file NumPy reader gives the same bits as the line-by-line reader (both round
    each number correctly) on the first three periods of spar.8; a file it cannot take whole
    (a Fortran D exponent, a short row) goes to the line-by-line reader."""
    import floatwind.loads.drift as drift

    lines = SPAR.with_suffix(".8").read_text().splitlines()
    pers = sorted({ln.split()[0] for ln in lines})[:3]
    part = tmp_path / "part.8"
    part.write_text("\n".join(ln for ln in lines if ln.split()[0] in pers) + "\n")
    assert drift._fast_read(part) is not None
    fast = read_mean_drift(part)
    monkeypatch.setattr(drift, "_fast_read", lambda path: None)
    slow = read_mean_drift(part)
    monkeypatch.undo()
    for name in ("omega", "beta1", "beta2", "re", "modes"):
        assert np.array_equal(getattr(fast, name), getattr(slow, name)), name
    fortran = tmp_path / "fortran.8"
    fortran.write_text(part.read_text().replace("e+00", "D+00", 1))
    assert drift._fast_read(fortran) is None
    assert np.array_equal(read_mean_drift(fortran).re, slow.re)
    short = tmp_path / "short.8"
    short.write_text(part.read_text() + "1.0 0.0 0.0 1 1.0 0.0 1.0\n")
    assert drift._fast_read(short) is None
    with pytest.raises(CaseError, match="expected at least 8 columns"):
        read_mean_drift(short)


@needs_refs
def test_bad_drift_files_are_one_line(tmp_path):
    """A mode 7 row (a file of several bodies), a repeated row, an incomplete heading grid,
    a heading outside the file, a sea outside its frequencies, Newman without the cut-offs."""
    good = [[8.0, 0.0, 0.0, 1, 1, 0, 0.05, 0], [8.0, 0.0, 0.0, 2, 1, 0, 0.0, 0],
            [6.0, 0.0, 0.0, 1, 1, 0, 0.06, 0], [6.0, 0.0, 0.0, 2, 1, 0, 0.0, 0]]  # fmt: skip
    cases = {
        "body.8": (good + [[8.0, 0.0, 0.0, 7, 1, 0, 0.1, 0]], "mode I = 7"),
        "twice.8": (good + [good[0]], "repeats line 1"),
        "grid.8": (good + [[8.0, 15.0, 15.0, 1, 1, 0, 0.1, 0]], "no row for PER"),
    }
    for name, (rows, text) in cases.items():
        _write_rows(tmp_path / name, rows)
        with pytest.raises(CaseError, match=text) as e:
            read_mean_drift(tmp_path / name)
        assert "\n" not in str(e.value) and "line" in str(e.value) or "no row" in str(e.value)
    d = read_mean_drift(SPAR.with_suffix(".8"))
    w = np.array([2 * math.pi / 8.0])
    with pytest.raises(CaseError, match="heading -10 deg lies outside the BETA1 headings"):
        drift_coefficients(d, w, [[1.0]], [[math.radians(-10)]], rho_g=RHO * G, ulen=1.0)
    _write_rows(tmp_path / "narrow.8", good)  # 0.785..1.047 rad/s
    with pytest.raises(CaseError, match="variance lies outside the frequencies"):
        drift_coefficients(read_mean_drift(tmp_path / "narrow.8"), [0.5, 0.9], [[1.0, 1.0]],
                           [[0.0, 0.0]], rho_g=RHO * G, ulen=1.0)  # fmt: skip
    with pytest.raises(CaseError, match="span the wave cut-offs 0..500"):
        PotentialExcitation(body=0, wamit=SPAR, second_order="newman", qtf=d,
                            qtf_cutoffs=(0.0, 500.0))  # fmt: skip


@needs_refs
@pytest.mark.parametrize(
    ("key", "value", "match"),
    [("PotMod", "0", "MnDrift = 8 needs PotMod = 1|MnDrift = 0, 7, 8 or 9 with PotMod = 1"),
     ("SumQTF", "10", "SumQTF"), ("DiffQTF", "10", "DiffQTF"), ("MnDrift", "10", "MnDrift")],
)  # fmt: skip
def test_hydrodyn_drift_settings_refused_in_one_line(tmp_path, key, value, match):
    from floatwind.case.openfast import import_openfast

    fst = deck_copy(REF12, tmp_path)
    set_deck_value(fst.parent / "HydroDyn.dat", key, value)
    with pytest.raises(CaseError, match=match) as e:
        import_openfast(fst)
    assert str(e.value).count("\n") <= 1


@needs_refs
def test_ref12_against_openfast():
    """ref12 (MnDrift = 8, 300 s): motions within 1e-4 of their range (the issue asks 1e-3), the
    mean surge of the last 100 s within 0.1 % of OpenFAST's (the issue asks 1 %; measured
    +0.011 %), B1WvsF2xi = 5,176.47 N at every step."""
    from validation.openfast.compare import compare_case

    res = compare_case(REF12)
    nr = {c.channel: c.nrmse for c in res.channels}
    for ch in ("PtfmSurge", "PtfmHeave", "PtfmPitch"):
        assert nr[ch] <= 1e-4, (ch, nr[ch])
    ref, sim = res.series["PtfmSurge"]
    last = res.time >= res.time[-1] - 100.0
    assert np.mean(sim[last]) == pytest.approx(np.mean(ref[last]), rel=1e-3)
    from floatwind.case.openfast import model_from_deck

    model = model_from_deck(REF12 / "ref12_mean_drift_regular.fst")
    (exc,) = [ld for ld in model.loads if ld.name == "hydrodyn_wamit_excitation"]
    for t in (0.0, 3.3, 299.0):
        f2 = exc._channels(t, model.env, 1)["B1WvsF2xi"][0]
        assert f2 == pytest.approx(5176.4683, rel=2e-7)


@needs_refs
def test_ref13_short_window_against_openfast():
    """ref13 driven by its Wave1Elev (heading 10 deg) over 0-60 s: motions within 1e-4 of their
    range; before the repeated-sample fix the start-up alone was 1e-3..5e-3 off."""
    from validation.openfast.compare import compare_case

    res = compare_case(REF13, t_end=60.0)
    nr = {c.channel: c.nrmse for c in res.channels}
    for ch in ("PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmRoll", "PtfmPitch"):
        assert nr[ch] <= 1e-4, (ch, nr[ch])


def test_elevation_record_with_repeated_last_sample():
    """A WaveTMax-periodic record with its first sample appended (SeaState): 'auto' drops it
    (period = n - 1 steps, frequencies 2 pi m / T exactly); an explicit period does the same;
    a period that is not whole steps is refused; None keeps the n samples."""
    T, dt = 100.0, 0.5
    t = np.arange(0.0, T + dt / 2, dt)
    eta = 0.7 * np.cos(2 * math.pi * 7 * t / T) + 0.2 * np.sin(2 * math.pi * 13 * t / T)
    eta[-1] = eta[0]  # SeaState copies the first sample (Waves.f90)
    for period in ("auto", T):
        sea = sea_from_elevation(t, eta, period=period)
        assert sea.period == pytest.approx(T)
        big = np.argsort(np.abs(sea.amplitude[0]))[-2:]
        assert sorted(np.round(sea.omega[big] * T / (2 * math.pi), 9)) == [7.0, 13.0]
        assert np.abs(sea.amplitude[0, big]) == pytest.approx([0.2, 0.7], rel=1e-9) or np.abs(
            sea.amplitude[0, big[::-1]]) == pytest.approx([0.2, 0.7], rel=1e-9)  # fmt: skip
    assert sea_from_elevation(t, eta, period=None).period == pytest.approx(T + dt)
    with pytest.raises(ValueError, match="not a whole number"):
        sea_from_elevation(t, eta, period=T + 0.2)


@needs_refs
def test_time_step_table_equals_the_sum_at_its_samples():
    """``time_step`` (HydroDyn's WaveDT series, linear in time): at the samples n dt the table
    equals the exact sums (first order and Newman) to 1e-9 of their range; between them it is the
    linear interpolation; a period that is no whole number of steps is refused in one line."""
    rng = np.random.default_rng(5)
    T, dt = 100.0, 0.05
    m = np.arange(5, 60)
    sea = LinearSea(omega=2 * math.pi * m / T, amplitude=0.2 * np.exp(2j * math.pi * rng.random((1, m.size))),
                    heading=np.zeros((1, m.size)), depth=320.0, gravity=G, period=T)  # fmt: skip
    env = _env(sea)
    kw = {"body": 0, "wamit": SPAR, "second_order": "newman", "qtf": SPAR.with_suffix(".8")}
    exact = PotentialExcitation(**kw)
    table = PotentialExcitation(**kw, time_step=dt)
    for t in (0.0, 7.35, 99.95, 100.0, 250.05):
        a, b = exact._channels(t, env, 1), table._channels(t, env, 1)
        for ch in ("B1WvsF1xi", "B1WvsF2xi", "B1WvsM1yi"):
            assert b[ch][0] == pytest.approx(a[ch][0], abs=1e-9 * 1e6), (t, ch)
    t0, t1, tm = 7.35, 7.40, 7.37
    lo, hi, mid = (table._channels(t, env, 1)["B1WvsF1xi"][0] for t in (t0, t1, tm))
    assert mid == pytest.approx(lo + (tm - t0) / (t1 - t0) * (hi - lo), rel=1e-9)
    with pytest.raises(CaseError, match="not a whole number of time_step"):
        PotentialExcitation(**kw, time_step=0.0123456789)._channels(0.0, env, 1)


@needs_refs
@pytest.mark.parametrize("deck", ["ref13_potential_irregular", "ref12_mean_drift_regular"])
def test_outputs_at_many_times_are_the_bits_of_each_time(deck):
    """The potential-flow loads evaluated for a block of output times in one compiled call
    (System.evaluate_many: the excitation's per-member times, the radiation memory read at each
    row's time, the drift channels) give the bits of one System.evaluate per time: ref13 (first
    order, JONSWAP) and ref12 (mean drift channels) after 40 RK4 steps that fill the memory."""
    from floatwind.case.openfast import model_from_deck
    from floatwind.integrate.base import RK4
    from floatwind.simulate.system import System, stack_evaluations

    model = model_from_deck(REF / deck / f"{deck}.fst")
    system = System(model)
    dt, n = 0.0125, 40
    y = system.initial_state()
    system.start_run(0.0, dt, n, batch=y.shape[0])
    # the project's RK4 on the Python path (System.rhs), the memory recording every step
    ys = RK4(dt).run(system.rhs, y, np.arange(n + 1) * dt, after_step=system.after_step).y
    pick = [3, 10, 11, 25, 40]
    times = np.array([k * dt for k in pick])
    stack = np.stack([ys[k] for k in pick])
    kinds = [ld.kind for ld in model.loads]
    assert "potential_radiation" in kinds and "potential_excitation" in kinds
    many = system.evaluate_many(times, stack, keep_loads=True)
    one = stack_evaluations(
        [system.evaluate(float(t), stack[k], keep_loads=True) for k, t in enumerate(times)]
    )
    for i, (a, b) in enumerate(zip(many.per_load, one.per_load)):
        assert np.array_equal(a.force, b.force) and np.array_equal(a.moment, b.moment), kinds[i]
        if a.added_mass is not None or b.added_mass is not None:
            assert np.array_equal(a.added_mass, b.added_mass), kinds[i]
        assert sorted(a.channels) == sorted(b.channels)
        for name, v in a.channels.items():
            assert np.array_equal(np.asarray(v), np.asarray(b.channels[name])), name
    assert np.any(np.concatenate([w.force.ravel() for w in many.per_load]) != 0.0)


def test_convolution_pairs_sharing_a_velocity_row():
    """kp.convolve (two pairs with the same velocity row in one pass, a third alone) against the
    trapezoidal sum written out with NumPy, before and after the window is full (m = k, NK - 1)."""
    from floatwind._kernels.potential import convolve

    rng = np.random.default_rng(3)
    Kp = rng.standard_normal((5, 40))
    pairs = np.array([[0, 0], [4, 0], [2, 0], [1, 1], [3, 4]], dtype=np.int64)
    v = rng.standard_normal((2, 6, 101))
    out = np.empty(6)
    for k in (0, 1, 7, 39, 100):
        for b in (0, 1):
            convolve(Kp, pairs, v, k, b, out)
            m = min(k, Kp.shape[1] - 1)
            want = np.zeros(6)
            for (i, j), kr in zip(pairs, Kp):
                w = np.ones(m + 1)
                w[0] = w[m] = 0.5  # trapezoid; m = 0: K(0) v_k / 2 twice
                s = sum(w[d] * kr[d] * v[b, j, k - d] for d in range(m + 1))
                want[i] -= s if m > 0 else kr[0] * v[b, j, k]
            np.testing.assert_allclose(out, want, rtol=1e-13, atol=1e-13)


@needs_refs
def test_wamit_files_read_once_per_contents(tmp_path):
    """read_wamit returns a copy of its earlier result for the same bytes and scaling (a deck
    reads one body's files three times), with or without the .3 part, and reads a changed file
    afresh."""
    import shutil

    from floatwind.loads import wamit

    for ext in (".1", ".3", ".hst"):
        shutil.copy(SPAR.with_suffix(ext), tmp_path / f"b{ext}")
    root = tmp_path / "b"
    a = wamit.read_wamit(root, rho=RHO, gravity=G)
    b = wamit.read_wamit(root, rho=RHO, gravity=G, excitation=False)
    c = wamit.read_wamit(root, rho=RHO, gravity=G)
    assert b.excitation is None and np.array_equal(c.excitation, a.excitation)
    assert np.array_equal(b.damping, a.damping) and b.damping is not a.damping
    a.damping[:] = 0.0  # a caller's change does not reach the next reader
    assert np.any(wamit.read_wamit(root, rho=RHO, gravity=G).damping)
    hst = (tmp_path / "b.hst").read_text().splitlines()
    r = next(n for n, ln in enumerate(hst) if abs(float(ln.split()[2])) > 1.0)  # e.g. heave
    i, j, v = hst[r].split()[:3]
    hst[r] = f"{i} {j} {2.0 * float(v):.6e}"
    (tmp_path / "b.hst").write_text("\n".join(hst) + "\n")
    d = wamit.read_wamit(root, rho=RHO, gravity=G)
    ii, jj = int(float(i)) - 1, int(float(j)) - 1
    assert c.hydrostatic[ii, jj] != 0.0
    assert d.hydrostatic[ii, jj] == pytest.approx(2.0 * c.hydrostatic[ii, jj], rel=1e-6)
