"""MoorDyn's lumped-mass lines (issue 38): the ``mooring_lumped`` load, its MoorDyn file reader
and the ref10 regression.

Analytic: the discrete lines at rest converge to floatwind's elastic catenary with seabed contact
as the segments are refined (observed order 2). Invariants: energy is conserved with drag and
damping off; a line defined in both directions gives the same tensions; a batch member equals
its run alone to the bit; the compiled kernel equals its Python form. Bad input: one line
naming the file and the line. Regression: ref10 (OpenFAST v5 + MoorDyn v2.3.8) over 20 s.
"""

from __future__ import annotations

import math
import pathlib
import shutil
from types import SimpleNamespace

import numpy as np
import pytest

from floatwind._kernels.contract import body_kinematics
from floatwind.errors import CaseError, SimulationError
from floatwind.loads.moordyn import LumpedMassMooring
from floatwind.records import Kinematics

ROOT = pathlib.Path(__file__).resolve().parents[1]
REF10 = ROOT.parent / "shared" / "reference" / "openfast" / "ref10_moordyn_decay"
DATA = ROOT / "tests" / "data" / "mooring"
needs_ref10 = pytest.mark.skipif(not REF10.is_dir(), reason="reference ref10 not available")

ENV = SimpleNamespace(rho_water=1025.0, gravity=9.80665, water_depth=320.0)
OC3 = {"main": dict(diameter=0.09, mass_per_length=77.7066, ea=384.243e6, ba=-0.8, cdn=1.6,
                    can=1.0, cdt=0.1, cat=0.0)}  # fmt: skip
WET = (77.7066 - 1025.0 * math.pi / 4 * 0.09**2) * 9.80665


def kin_at(r=(0.0, 0.0, 0.0), B=1, v=(0.0, 0.0, 0.0)):
    """One body with its CM at its reference point, at ``r`` (B members), not rotated."""
    r_G = np.tile(np.asarray(r, float), (B, 1))[:, None].copy()
    return Kinematics(0.0, r_G, np.tile(np.eye(3), (B, 1, 1, 1)), np.tile(np.asarray(v, float),
                      (B, 1))[:, None].copy(), np.zeros((B, 1, 3)), np.zeros((1, 3)))  # fmt: skip


def oc3_line(n=20, reverse=False, **kw):
    pts = [dict(name="a", kind="fixed", position=[853.87, 0, -320]),
           dict(name="f", kind="coupled", position=[5.2, 0, -70])]  # fmt: skip
    ends = ("f", "a") if reverse else ("a", "f")
    line = dict(type="main", end_a=ends[0], end_b=ends[1], length=902.2, segments=n)
    return LumpedMassMooring(body=0, line_types=kw.pop("types", OC3), points=pts, lines=[line],
                             **kw)  # fmt: skip


# ---------------------------------------------------------------------------------- analytic


def test_lines_at_rest_converge_to_the_elastic_catenary_with_seabed_contact():
    """The fairlead force of the discrete line at rest tends to the continuous elastic catenary
    with seabed contact (floatwind.mooring.catenary, Jonkman 2007 eqs. 2-58..2-61) at the
    lumped-mass model's order 2 (a stiff seabed, kbot = 3e9 Pa/m, so that the resting part lies
    on z = -depth as the catenary's does)."""
    from floatwind.mooring.catenary import solve_lines

    sol = solve_lines(853.87 - 5.2, 250.0, 902.2, WET, 384.243e6, 0.0, True)
    H, V = float(sol["H"]), float(sol["V"])
    errs = []
    for n in (10, 20, 40, 80):
        ld = oc3_line(n, kbot=3.0e9, cbot=0.0)
        w, _ = ld.wrench_state(0.0, kin_at(), ENV, ld.static_states(kin_at(), ENV), None)
        fx, fz = float(w.channels["POINT2FX"][0]), float(w.channels["POINT2FZ"][0])
        errs.append(math.hypot(fx - H, fz + V) / math.hypot(H, V))
    order = [math.log2(a / b) for a, b in zip(errs, errs[1:])]
    assert errs[-1] < 2e-3, errs
    assert all(1.8 < o < 2.2 for o in order), order  # observed 1.87, 2.10, 2.03, 2.01 (5..80)


# -------------------------------------------------------------------------------- invariants


def _rk4(ld, kin, s, dt, n):
    """n RK4 steps of the line states alone (body held by ``kin``), kernel rates."""
    from floatwind._kernels import lumped as kl
    from floatwind._kernels.contract import body_kinematics

    p = ld._params(ENV, s.shape[0])
    bk = body_kinematics(kin)
    N = kin.n_bodies
    f, m, a = (
        np.zeros((s.shape[0], N, 3)),
        np.zeros((s.shape[0], N, 3)),
        np.zeros((s.shape[0], N, 6, 6)),
    )

    def rate(y):
        dy = np.zeros_like(y)
        kl.lumped_kernel(p, 0.0, bk, y, dy, f, m, a)
        return dy

    y = s.copy()
    for _ in range(n):
        k1 = rate(y)
        k2 = rate(y + 0.5 * dt * k1)
        k3 = rate(y + 0.5 * dt * k2)
        k4 = rate(y + dt * k3)
        y = y + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
    return y


def _energy(ld, kin, s):
    """Kinetic + elastic + gravity-buoyancy potential energy of the lines (no added mass)."""
    w, _ = ld.wrench_state(0.0, kin, ENV, s, None)
    L = ld.lines[0]["length"] / ld.lines[0]["segments"]
    t = ld.types[ld.lines[0]["type"]]
    n = ld.lines[0]["segments"]
    nodes = s[0].reshape(-1, 6)
    ends = [np.array([w.channels[f"L1N{i}P{a}"][0] for a in "XYZ"]) for i in (0, n)]
    r = np.vstack([ends[0], nodes[:, :3], ends[1]])
    ke = 0.5 * t["mass_per_length"] * L * np.sum(nodes[:, 3:] ** 2)
    stretch = np.maximum(np.linalg.norm(np.diff(r, axis=0), axis=1) - L, 0.0)
    pe = 0.5 * t["ea"] / L * np.sum(stretch**2)
    wet = (t["mass_per_length"] - ENV.rho_water * math.pi / 4 * t["diameter"] ** 2) * ENV.gravity
    pe += wet * L * np.sum(r[1:-1, 2])
    return ke + pe, ke


def test_energy_is_conserved_without_drag_and_damping():
    """A hanging line (no seabed contact, BA = Cd = Ca = 0) released from a displaced shape
    keeps its energy to RK4's accuracy while it swings: the drift over 5 s falls with the step at
    RK4's order or better (measured 32x per halving) and is below 1e-9 of the kinetic energy at
    dt = 1 ms. (The segments stay taut: the slack switch of the tension would cost orders.)"""
    types = {"main": dict(diameter=0.09, mass_per_length=77.7066, ea=384.243e6 / 100)}
    pts = [dict(name="a", kind="fixed", position=[0.0, 0, -100]),
           dict(name="b", kind="fixed", position=[300.0, 0, -100])]  # fmt: skip
    ld = LumpedMassMooring(body=0, line_types=types, points=pts,
                           lines=[dict(type="main", end_a="a", end_b="b", length=320.0,
                                       segments=10)])  # fmt: skip
    kin = kin_at()
    s = ld.static_states(kin, ENV)
    s[0, 6 * 4 : 6 * 4 + 3] += [0.3, 0.2, 0.4]  # push node 5 aside
    e0, _ = _energy(ld, kin, s)
    drift = []
    for dt in (2e-3, 1e-3):
        e1, ke = _energy(ld, kin, _rk4(ld, kin, s, dt, int(round(5.0 / dt))))
        drift.append(abs(e1 - e0))
    assert ke > 1e3  # it moves
    assert drift[1] < 1e-9 * ke and drift[0] / drift[1] > 16.0, (drift, ke)


def test_a_line_defined_in_both_directions_gives_the_same_tensions():
    """The OC3 line from anchor to fairlead and from fairlead to anchor: the same tensions at
    rest and after 2 s of motion of the fairlead (end A of one is end B of the other)."""
    kin = kin_at((3.0, 0.0, 0.5), v=(0.4, 0.0, 0.2))
    out = []
    for rev in (False, True):
        ld = oc3_line(20, reverse=rev)
        s = ld.static_states(kin, ENV)
        y = _rk4(ld, kin, s, 2.5e-3, 800)
        w, _ = ld.wrench_state(0.0, kin, ENV, y, None)
        out.append((w.channels["FAIRTEN1"][0], w.channels["ANCHTEN1"][0],
                    w.channels["POINT2FX"][0], w.channels["POINT2FZ"][0]))  # fmt: skip
    (fa, aa, fx, fz), (fb, ab, gx, gz) = out
    assert fa == pytest.approx(ab, rel=1e-9) and aa == pytest.approx(fb, rel=1e-9)
    assert fx == pytest.approx(gx, rel=1e-9) and fz == pytest.approx(gz, rel=1e-9)
    assert fa > 6e5  # the pull of a 15 m surge


def test_newton_rest_equals_levenberg_marquardt_and_moordyn_end_channels():
    """The lines at rest by Newton with the grouped finite-difference Jacobian (the fast path for
    lines between fixed and coupled points) equal MINPACK's Levenberg-Marquardt solve to 1e-6 m;
    MoorDyn's L#TenA/L#TenB are ANCHTEN#/FAIRTEN#."""
    kin = kin_at((3.0, 0.0, 0.5))
    ld = oc3_line(20)
    taken = []
    newton = ld._newton_rest

    def spy(*a, **k):
        x = newton(*a, **k)
        taken.append(x is not None)
        return x

    ld._newton_rest = spy
    s1 = ld.static_states(kin, ENV)
    ld._newton_rest = lambda *a, **k: None
    s2 = ld.static_states(kin, ENV)
    assert taken == [True]
    np.testing.assert_allclose(s1, s2, rtol=0.0, atol=1e-6)
    w, _ = ld.wrench_state(0.0, kin, ENV, s1, None)
    assert w.channels["L1TENB"][0] == w.channels["FAIRTEN1"][0] > 6e5
    assert w.channels["L1TENA"][0] == w.channels["ANCHTEN1"][0] > 0.0
    assert {"L1TENA", "L1TENB"} <= set(ld.channel_info())


def test_relaxation_from_rest_stops_at_moordyns_first_possible_check():
    """MoorDyn-F v2's MD_Init: tensions stored every dtIC/10, compared from the tenth check on
    (the store starts at 1..10, so nothing converges before): lines at rest stop there, at
    t = dtIC, unchanged; lines off rest do not stop at the first check."""
    from floatwind._kernels import lumped as kl

    kin = kin_at((3.0, 0.0, 0.5))
    ld = oc3_line(10)
    p = ld._params(ENV, 1)
    rp, vp = np.array([[853.87, 0, -320], [8.2, 0, -69.5]]), np.zeros((2, 3))

    def relax(y, n_max):
        ic = kl.Relaxation(dt=1e-3, n_check=100, n_max=n_max, thresh=1e-5, cd_scale=4.0)
        return kl.relax(p, 0, y, 0, rp, vp, ic, kl.member_nodes.py_func(p, 0), np.zeros((1, 10)))

    rest = ld.static_states(kin, ENV)
    y = rest.copy()
    assert relax(y, 50) == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(y, rest, rtol=0.0, atol=1e-6)
    y = rest.copy()
    y[0, 0] += 0.5  # node 1 off rest by 0.5 m
    assert relax(y, 10) == pytest.approx(-1.0, abs=1e-12)  # not converged at t = 1 s


def test_relaxation_at_the_stable_step_follows_moordyns_at_dtm():
    """``initial.step: stable`` (the default) relaxes with MoorDyn's RK2 at 0.8 of its stable
    step for the lines' fastest mode (the seabed damper: 0.005 s, 5x fewer steps than dtM =
    0.001 s), ``dt_m`` at MoorDyn-F's dtM: after 20 s from the catenary both are ~1000 N and
    3 cm from rest and within 0.8 N and 1.1e-5 m of each other (measured); an unknown step is
    refused naming the field."""
    kw = dict(dt_m=0.001, ic_tmax=20.0, ic_threshold=1e-5, ic_cd_scale=4.0, ic_dt=1.0)
    out = {}
    for step in ("dt_m", "stable"):
        ld = oc3_line(20, ic_step=step, **kw)
        h, n = ld.relax_step(ENV)
        assert (h, n) == ((0.001, 100) if step == "dt_m" else (0.005, 20))
        y = ld.initial_states_at(0.0, kin_at(), ENV)
        w, _ = ld.wrench_state(0.0, kin_at(), ENV, y, None)
        out[step] = (y, float(w.channels["FAIRTEN1"][0]))
    rest = oc3_line(20).static_states(kin_at(), ENV)
    w, _ = oc3_line(20).wrench_state(0.0, kin_at(), ENV, rest, None)
    f_rest = float(w.channels["FAIRTEN1"][0])
    (ya, fa), (yb, fb) = out["dt_m"], out["stable"]
    assert abs(fa - f_rest) > 500.0 and np.abs(ya - rest).max() > 0.01  # not at rest yet
    assert abs(fb - fa) < 5.0 and np.abs(yb - ya).max() < 1e-4
    with pytest.raises(CaseError, match="initial.step"):
        oc3_line(5, ic_step="rk4", field="loads[2]")


def test_batch_member_equals_its_run_alone_and_kernel_equals_python_form():
    """Three members at different poses and line states: each member's rates, forces and added
    mass equal those of its call alone to the bit; the compiled kernel equals its Python form."""
    from floatwind._kernels import lumped as kl
    from floatwind._kernels.contract import body_kinematics

    ld = oc3_line(12)
    poses = [(0.0, 0.0, 0.0), (10.0, -2.0, 0.3), (-6.0, 4.0, -0.2)]
    kins = [kin_at(r, v=(0.1 * i, -0.2, 0.05)) for i, r in enumerate(poses)]
    rng = np.random.default_rng(1)
    states = [ld.static_states(k, ENV) + rng.normal(0, 0.05, (1, ld.n_states)) for k in kins]

    def call(kin, s, fn=kl.lumped_kernel):
        B = s.shape[0]
        p = ld._params(ENV, B)
        f, m, a = np.zeros((B, 1, 3)), np.zeros((B, 1, 3)), np.zeros((B, 1, 6, 6))
        dy = np.zeros_like(s)
        fn(p, 0.0, body_kinematics(kin), s, dy, f, m, a)
        return dy, f, m, a

    batch = Kinematics(0.0, np.concatenate([k.r_G_g for k in kins]),
                       np.concatenate([k.R_b2g for k in kins]),
                       np.concatenate([k.v_G_g for k in kins]),
                       np.concatenate([k.w_b_g for k in kins]), kins[0].cm_b)  # fmt: skip
    together = call(batch, np.concatenate(states))
    for b, (k, s) in enumerate(zip(kins, states)):
        alone = call(k, s)
        for x, y in zip(together, alone):
            assert np.array_equal(x[b : b + 1], y)
        py = call(k, s, kl.lumped_kernel.py_func)
        for x, y in zip(alone, py):
            np.testing.assert_allclose(x, y, rtol=1e-12, atol=1e-9)


# ------------------------------------------------------------------------------- bad input


def _v2_file(tmp_path, old: str, new: str) -> pathlib.Path:
    src = (REF10 / "MoorDyn.dat").read_text(encoding="latin-1")
    assert old in src, old
    path = tmp_path / "MoorDyn.dat"
    path.write_text(src.replace(old, new, 1), encoding="latin-1")
    return path


def _line_of(path: pathlib.Path, text: str) -> int:
    return next(i for i, ln in enumerate(path.read_text().splitlines(), 1) if text in ln)


@needs_ref10
@pytest.mark.parametrize(
    "old, new, marker, words",
    [
        ("1         main       1         4        902.2",
         "1         main       1         4        600.0", "600.0", "cannot reach its ends"),
        ("2         main       2         5        902.2      20",
         "2         main       2         5        902.2      0 ", "902.2      0 ", "NumSegs"),
        ("3         main       3         6", "3         chain      3         6", "chain",
         "unknown line type 'chain'"),
        ("6      vessel  -2.6000000  -4.5033321", "6      Body2  -2.6000000  -4.5033321",
         "Body2", "does not define"),
        ("0.001    dtM", "0.05     dtM", "dtM", "cannot be stable"),
    ],
)  # fmt: skip
def test_bad_moordyn_files_are_refused_naming_file_and_line(tmp_path, old, new, marker, words):
    from floatwind.case.openfast.moordyn import read_moordyn_lumped

    path = _v2_file(tmp_path, old, new)
    with pytest.raises(CaseError) as err:
        read_moordyn_lumped(path, depth=320.0, rho=1025.0, gravity=9.80665)
    msg = str(err.value)
    assert words in msg and str(path) in msg, msg
    assert f"line {_line_of(path, marker)}" in msg, msg
    assert "\n" not in msg


def test_a_case_file_line_is_checked_too():
    with pytest.raises(CaseError, match="unknown line type 'chian' \\(did you mean 'chain'"):
        LumpedMassMooring(body=0, line_types={"chain": OC3["main"]},
                          points=[dict(name="a", kind="fixed", position=[0, 0, -320]),
                                  dict(name="b", kind="coupled", position=[0, 0, -70])],
                          lines=[dict(type="chian", end_a="a", end_b="b", length=300,
                                      segments=4)], field="loads[3]")  # fmt: skip
    with pytest.raises(CaseError, match="segments"):
        oc3_line(0)


@needs_ref10
def test_v1_and_v2_files_give_the_same_lines():
    from floatwind.case.openfast.moordyn import read_moordyn_lumped

    v1, _ = read_moordyn_lumped(DATA / "oc3_moordyn_v1.dat", depth=320.0, rho=1025.0,
                                gravity=9.80665)  # fmt: skip
    v2, _ = read_moordyn_lumped(REF10 / "MoorDyn.dat", depth=320.0, rho=1025.0, gravity=9.80665)
    assert {**v1["line_types"]["main"], "ei": 0.0} == v2["line_types"]["main"]
    assert (
        [ln["segments"] for ln in v1["lines"]] == [ln["segments"] for ln in v2["lines"]] == [20] * 3
    )
    assert [p["kind"] for p in v1["points"]] == [p["kind"] for p in v2["points"]]
    assert v2["initial"] == {"tmax": 300.0, "threshold": 1e-5, "cd_scale": 4.0, "dt": 1.0}


# ------------------------------------------------------------------------------ regression


@needs_ref10
def test_ref10_quick_against_openfast_and_moordyn(tmp_path):
    """floatwind run of ref10 (OpenFAST v5.0.0 + MoorDyn v2.3.8, surge 15 m / pitch 4 deg
    decay) over 20 s: platform motions within 1e-3 of their range, MoorDyn's fairlead tensions
    within 1e-2 (issue 38; the lines sub-stepped inside DT, the default: measured 1.5e-4 and
    3.3e-4; as states at DT/2: 2e-5 and 1.4e-4)."""
    import sys

    sys.path.insert(0, str(ROOT))
    from validation.openfast.compare import compare_case

    res = compare_case(REF10, t_end=20.0)
    by = {c.channel: c for c in res.channels}
    for ch in ("PtfmSurge", "PtfmHeave", "PtfmPitch"):
        assert by[ch].nrmse <= 1e-3, (ch, by[ch].nrmse)
    for ch in ("FAIRTEN1", "FAIRTEN2", "FAIRTEN3", "ANCHTEN1", "POINT4FX", "POINT5FZ"):
        assert by[ch].nrmse <= 1e-2, (ch, by[ch].nrmse)
    assert res.passed


def test_quasi_static_choice_and_dynamic_default_notes(tmp_path):
    """The import says in one line which mooring model runs; --mooring picks the other."""
    if not REF10.is_dir():
        pytest.skip("reference ref10 not available")
    from floatwind.case.openfast import import_openfast

    deck = tmp_path / "deck"
    shutil.copytree(REF10, deck, ignore=shutil.ignore_patterns("*.out", "*.outb"))
    fst = deck / "ref10_moordyn_decay.fst"
    dyn = import_openfast(fst)
    qs = import_openfast(fst, mooring="quasi-static")
    kinds = [ld["type"] for ld in dyn["case"]["loads"]]
    assert "mooring_lumped" in kinds and "mooring_catenary" not in kinds
    assert "mooring_catenary" in [ld["type"] for ld in qs["case"]["loads"]]
    assert sum("mooring model: MoorDyn lumped-mass lines" in n for n in dyn["notes"]) == 1
    assert any("node channels written: 0" in n for n in dyn["notes"])
    assert sum("mooring model: quasi-static catenary" in n for n in qs["notes"]) == 1
    # the default sub-steps the lines inside DT; dynamic-states makes them states at DT/2
    lumped = next(ld for ld in dyn["case"]["loads"] if ld["type"] == "mooring_lumped")
    assert lumped["integration"] == "substep" and dyn["case"]["simulation"]["dt"] == 0.0125
    st = import_openfast(fst, mooring="dynamic-states")
    assert st["case"]["simulation"]["dt"] == pytest.approx(0.0125 / 2)
    assert sum("their nodes states of the run" in n for n in st["notes"]) == 1
    with pytest.raises(CaseError, match="unknown mooring model"):
        import_openfast(fst, mooring="static")


# ------------------------------------------------------------------------------- whole runs


def _oc3_lumped_model(disp, t_max=0.1, integration="states", node_channels="all"):
    """cases/oc3_hywind_catenary.yaml with its three lines as 6-segment lumped-mass lines."""
    import dataclasses

    import yaml

    from floatwind.case.loader import model_from_dict

    case = yaml.safe_load((ROOT / "cases" / "oc3_hywind_catenary.yaml").read_text())
    i = next(k for k, ld in enumerate(case["loads"]) if ld["type"] == "mooring_catenary")
    old = case["loads"][i]
    pts, lines = [], []
    for j, ln in enumerate(old["lines"]):
        pts += [{"name": f"a{j}", "kind": "fixed", "position": ln["anchor"]},
                {"name": f"f{j}", "kind": "coupled", "position": ln["fairlead"]}]  # fmt: skip
        lines.append({"type": "main", "end_a": f"a{j}", "end_b": f"f{j}", "length": 902.2,
                      "segments": 6})  # fmt: skip
    case["loads"][i] = {"type": "mooring_lumped", "body": "tower", "line_types": OC3,
                        "points": pts, "lines": lines, "dt_m": 0.002,
                        "initial": {"tmax": 1.0, "threshold": 1e-5, "cd_scale": 4.0,
                                    "start": "static"}, "integration": integration,
                        "node_channels": node_channels}  # fmt: skip
    case["simulation"].update(t_max=t_max, dt=0.005, dt_out=0.05)
    m = model_from_dict(case, base_dir=ROOT / "cases", name="oc3_lumped")
    ic = m.initial
    return dataclasses.replace(m, initial=dataclasses.replace(ic, displacement=np.asarray(disp)))


@pytest.mark.parametrize("integration", ["states", "substep"])
def test_whole_run_batch_member_equals_its_run_alone_and_compiled_equals_python(
    compiled_on, integration
):
    """Two members (surge 0 and 8 m, each relaxed at its own pose) in lockstep: each equals its
    run alone bit for bit; the compiled stepping equals the Python path (1e-9); the lines as
    states and sub-stepped inside the run's steps (integration: substep)."""
    from conftest import fused_and_python

    from floatwind.simulate import simulate

    both = simulate(_oc3_lumped_model([[0.0, 0, 0], [8.0, 0, 0]], integration=integration),
                    progress=False)  # fmt: skip
    alone = simulate(_oc3_lumped_model([[8.0, 0, 0]], integration=integration), progress=False)
    for name in ("PtfmSurge", "PtfmPitch", "FAIRTEN1", "L1N3PX", "L2N5VZ"):
        da = both[name]
        member = [d for d in da.dims if d != "time"][0]
        a = np.asarray(da.isel({member: 1}).transpose("time").values)
        assert np.array_equal(a, np.ravel(alone[name].values)), name
    fused, python = fused_and_python(
        lambda: _oc3_lumped_model([[8.0, 0, 0]], integration=integration)
    )
    for name in ("PtfmSurge", "PtfmHeave", "FAIRTEN2", "L3N2PZ"):
        np.testing.assert_allclose(
            np.ravel(fused[name].values),
            np.ravel(python[name].values),
            rtol=1e-9,
            atol=1e-9 * float(np.ptp(python[name].values) + 1),
        )
    assert float(np.ravel(alone["FAIRTEN1"].values)[0]) > 5e5


def test_two_lines_through_a_clump_converge_to_the_catenary_connect_node(tmp_path):
    """A line cut by a free point carrying a 5 t clump and a 1 m^3 buoy (MoorDyn v2 file): the
    lumped-mass lines at rest converge, as their segments are refined, to floatwind's
    quasi-static catenary with a connect node (mooring_catenary, MoorPy-checked): the free
    point's position and the fairlead force at order 2 (measured: 0.107, 0.026, 0.0063 m and
    1583, 386, 87 N for 10, 20, 40 segments per line)."""
    from test_catenary_connects import MD_FREE, _kin

    from floatwind.case.openfast.moordyn import read_moordyn_lumped
    from floatwind.case.openfast.mooring import read_moordyn
    from floatwind.loads.catenary import CatenaryMooring

    f = tmp_path / "md.dat"
    f.write_text(MD_FREE, encoding="utf-8")
    lines, connects, _ = read_moordyn(f, depth=320.0)
    cat = CatenaryMooring(body=0, lines=lines, connects=connects)
    w = cat.wrench(0.0, _kin([[0, 0, 0]], [[0, 0, 0]]), ENV)
    node = np.array([float(w.channels[f"Point1P{a}"][0]) for a in "xyz"])
    force = w.force[0, 0]
    errs = []
    for n in (10, 20, 40):
        cfg, _ = read_moordyn_lumped(f, depth=320.0, rho=1025.0, gravity=9.80665)
        for ln in cfg["lines"]:
            ln["segments"] = n
        ld = LumpedMassMooring(body=0, line_types=cfg["line_types"], points=cfg["points"],
                               lines=cfg["lines"], kbot=3.0e6, cbot=0.0)  # fmt: skip
        lw = ld.wrench(0.0, kin_at(), ENV)
        pt = np.array([float(lw.channels[f"POINT2P{a}"][0]) for a in "XYZ"])
        errs.append((np.linalg.norm(pt - node), np.linalg.norm(lw.force[0, 0] - force)))
    (p1, f1), (p2, f2), (p3, f3) = errs
    assert p3 < 0.05 and f3 < 2e-3 * np.linalg.norm(force), errs
    assert p1 / p2 > 3.0 and p2 / p3 > 3.0 and f1 / f2 > 3.0 and f2 / f3 > 3.0, errs


# ------------------------------------------------------------------ sub-stepped lines (substep)


def test_coupled_ends_alone_equal_the_whole_line_evaluation_bit_for_bit():
    """The stage kernel of sub-stepped lines evaluates only the line ends at coupled points
    (_line_eval): their net forces and masses are member_rhs's to the bit, with bending too."""
    from floatwind._kernels import lumped as kl

    types = {"main": dict(OC3["main"], ei=5.0e5)}
    for ld in (oc3_line(8), oc3_line(8, reverse=True), oc3_line(8, types=types)):
        kin = kin_at((3.0, 1.0, 0.5), v=(0.4, -0.2, 0.1))
        s = ld.static_states(kin_at(), ENV)
        s[:, 3::6] += 0.05  # moving nodes: drag and damping at the ends
        bk = body_kinematics(kin)
        p = ld._params(ENV, 1)
        rp, vp = p.scratch_rp[0], p.scratch_vp[0]
        kl.point_state(p, 0, s, 0, bk.r_G[0, 0], bk.R_b2g[0, 0], bk.v_G[0, 0], bk.w_b[0, 0],
                       bk.cm_b[0], rp, vp)  # fmt: skip
        kl.member_rhs(p, 0, s, 0, rp, vp, np.zeros_like(s), 1.0, kl.member_nodes.py_func(p, 0))
        pf, pm = p.scratch_pf[0].copy(), p.scratch_pm[0].copy()
        q = ld._params(ENV, 1)
        kl.coupled_points(q, 0, s, rp, vp, kl.member_nodes.py_func(q, 0))
        k = 1  # the coupled point (end B, or end A of the reversed line)
        assert np.array_equal(q.scratch_pf[0, k], pf[k]) and np.array_equal(
            q.scratch_pm[0, k], pm[k]
        )
        assert np.linalg.norm(pf[k]) > 1e4


def test_whole_line_in_passes_and_outputs_row_by_row_equal_the_node_evaluation_bit_for_bit():
    """_line_whole (a line without bending in vectorized passes) gives _line_eval's bits on
    every node of the line, seabed contact and drag included; the output channels without
    rates (line_rows, one member at a time) are those of lumped_kernel over all rows."""
    from floatwind._kernels import lumped as kl
    from floatwind._kernels import lumped_line as kll

    rng = np.random.default_rng(3)
    for ld in (oc3_line(8), oc3_line(8, reverse=True)):
        s0 = ld.static_states(kin_at(), ENV)
        for cd in (1.0, 3.0):
            s = s0 + rng.normal(0.0, 0.5, s0.shape)  # nodes off the catenary, moving
            z = s[:, 2::6]
            z[z < -310.0] -= 2.0  # the nodes near the anchor into the seabed
            out = []
            for whole in (True, False):
                p = ld._params(ENV, 1)
                nd = kl.member_nodes.py_func(p, 0)
                rp, vp = p.scratch_rp[0], p.scratch_vp[0]
                bk = body_kinematics(kin_at((3.0, 1.0, 0.5), v=(0.4, -0.2, 0.1)))
                kl.point_state(p, 0, s, 0, bk.r_G[0, 0], bk.R_b2g[0, 0], bk.v_G[0, 0],
                               bk.w_b[0, 0], bk.cm_b[0], rp, vp)  # fmt: skip
                kl._gather(nd.r, nd.v, s, 0, 0, rp, vp, p.lint, 0, 0, int(p.lint[0, 0]))
                args = (nd.r, nd.v, nd.fnet, nd.mass, nd.seg, p.work_line, p.lint, p.lflt)
                if whole:
                    kll._line_whole(*args, 0, cd, kl.water_of.py_func(p))
                else:
                    kll._line_eval(*args, (0, 0, int(p.lint[0, 0])), cd, kl.water_of.py_func(p))
                n = int(p.lint[0, 0])
                out.append((nd.fnet.copy(), nd.seg.copy(), nd.mass[[0, n]].copy(),
                            p.work_line[5:10, 1:n].copy()))  # fmt: skip
            assert all(np.array_equal(a, b) for a, b in zip(*out))
            assert np.any(nd.r[:, 2] < -ENV.water_depth)  # seabed contact reached
    ld = oc3_line(8)
    B = 7
    s = ld.static_states(kin_at(), ENV) + rng.normal(0.0, 0.3, (B, ld.n_line))
    kin = kin_at((3.0, 1.0, 0.5), B=B, v=(0.4, -0.2, 0.1))
    rows, none = ld._wrench_of(kin, ENV, s, rates=False)
    full, dy = ld._wrench_of(kin, ENV, s, rates=True)
    assert none is None and dy.shape == s.shape
    assert rows.channels.keys() == full.channels.keys() and len(rows.channels) > 20
    assert all(np.array_equal(rows.channels[k], full.channels[k]) for k in rows.channels)
    for f in ("force", "moment", "added_mass"):
        assert np.array_equal(getattr(rows, f), getattr(full, f))


def test_substeps_follow_the_states_and_refuse_what_they_cannot_give():
    """integration: substep (2 s of the whole-run test's model, compiled as there):
    the body's mooring force and the fairlead tension follow the lines integrated as states
    within 1e-3 of their range; the run step's sub-steps are the smallest even number that
    keeps MoorDyn's RK2 stable; outputs off the step grid and a run without a fixed step are
    refused in one line."""
    from floatwind.loads.moordyn import RK2_BOUND, SubsteppedLumpedMooring, stable_step
    from floatwind.simulate import simulate

    runs = {mode: simulate(_oc3_lumped_model([[6.0, 0, 0]], t_max=2.0, integration=mode),
                           progress=False) for mode in ("states", "substep")}  # fmt: skip
    for ch in ("MoorFxi", "FAIRTEN1", "PtfmSurge", "L1N3PX"):
        a, b = (np.ravel(runs[m][ch].values) for m in ("states", "substep"))
        assert np.sqrt(np.mean((a - b) ** 2)) <= 1e-3 * max(float(np.ptp(a)), 1e-3), ch
    pts = [dict(name="a", kind="fixed", position=[853.87, 0, -320]),
           dict(name="f", kind="coupled", position=[5.2, 0, -70])]  # fmt: skip
    ld = SubsteppedLumpedMooring(body=0, line_types=OC3, points=pts, lines=[dict(
        type="main", end_a="a", end_b="f", length=902.2, segments=6)])  # fmt: skip
    assert ld.n_states == 0 and ld.state_names() == [] and "L1N3VZ" in ld.channel_info()
    n = ld.n_sub(ENV, 0.05)
    h = stable_step(ld.fastest_rate(ENV), RK2_BOUND)
    assert n % 2 == 0 and 0.05 / n <= h and (n == 2 or 0.05 / (n - 2) > h), (n, h)
    mem = ld.memory(1, 0.0, 0.05, 4)
    mem.last[0] = 2
    with pytest.raises(SimulationError, match="step times only"):
        ld._states_at(np.array([0.07]), 1, mem)
    with pytest.raises(SimulationError, match="step times only"):
        ld._states_at(np.array([0.2]), 1, mem)  # beyond the current step
    with pytest.raises(CaseError, match="fixed time step"):
        ld.memory(1, 0.0, 0.0, 4)


def test_substeps_with_a_clump_follow_the_states_on_a_prescribed_fairlead_path(tmp_path):
    """Two lines through a free point (5 t clump, 1 m^3 buoy; MoorDyn v2 file), the fairlead
    moved along surge 2 (1 - cos(2 pi t/10)) m for 2 s: the sub-stepped lines (after_step and
    the stage kernel, steps of 0.02 s) follow the lines integrated as states by RK4 at 0.005 s,
    the body force within 1e-2 and the free point's position within 1e-3 of their range."""
    from test_catenary_connects import MD_FREE

    from floatwind._kernels import lumped as kl
    from floatwind.case.openfast.moordyn import read_moordyn_lumped
    from floatwind.loads.moordyn import SubsteppedLumpedMooring

    f = tmp_path / "md.dat"
    f.write_text(MD_FREE, encoding="utf-8")
    cfg, _ = read_moordyn_lumped(f, depth=320.0, rho=1025.0, gravity=9.80665)
    kw = dict(body=0, line_types=cfg["line_types"], points=cfg["points"], lines=cfg["lines"],
              ic_tmax=5.0, ic_cd_scale=4.0, ic_step="dt_m")  # fmt: skip
    st, sub = LumpedMassMooring(**kw), SubsteppedLumpedMooring(**kw)
    w = 2 * math.pi / 10.0

    def kin(t):
        return kin_at((2 * (1 - math.cos(w * t)), 0, 0), v=(2 * w * math.sin(w * t), 0, 0))

    y = st.initial_states_at(0.0, kin(0.0), ENV)  # MoorDyn's catenary, relaxed for 5 s
    dt, n = 0.02, 100
    mem = sub.memory(1, 0.0, dt, n)
    mem.hist[0] = y
    mem.n_sub[0] = sub.n_sub(ENV, dt)
    params = {st: st._params(ENV, 1), sub: sub._params(ENV, 1, memory=mem)}

    def wrench(ld, t, y, mem=None):
        force = np.zeros((1, 1, 3))
        dy = np.zeros_like(y)
        fn = kl.lumped_kernel if mem is None else kl.substep_kernel
        z = np.zeros((1, 1, 3))
        bk = body_kinematics(kin(t))
        assert fn(params[ld], t, bk, y, dy, force, z, np.zeros((1, 1, 6, 6))) == 0
        return force[0, 0].copy(), dy, None

    k_free = next(k for k, pt in enumerate(st.points) if pt["kind"] == 2)
    col = int(st.pt_state[k_free])
    a, b = [], []
    h = dt / 4
    for k in range(n):
        t = k * dt
        kl.substep_after_step(params[sub], t, body_kinematics(kin(t)), np.zeros((1, 0)))
        fb, _, _ = wrench(sub, t, np.zeros((1, 0)), mem)
        fa, _, _ = wrench(st, t, y)
        a.append(np.r_[fa, y[0, col : col + 3]])
        b.append(np.r_[fb, mem.hist[k, 0, col : col + 3]])
        for i in range(4):  # RK4 at dt/4 for the states
            s = t + i * h
            k1 = wrench(st, s, y)[1]
            k2 = wrench(st, s + h / 2, y + h / 2 * k1)[1]
            k3 = wrench(st, s + h / 2, y + h / 2 * k2)[1]
            k4 = wrench(st, s + h, y + h * k3)[1]
            y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    a, b = np.array(a), np.array(b)
    err = [np.sqrt(np.mean((a[:, c] - b[:, c]) ** 2)) / max(np.ptp(a[:, c]), 1e-3)
           for c in range(6)]  # fmt: skip
    print("NRMSE force x, y, z, point x, y, z:", ", ".join(f"{e:.1e}" for e in err))
    # the limits: tensions 1e-2, positions 1e-3
    assert max(err[:3]) < 1e-2 and max(err[3:]) < 1e-3, err
    assert np.ptp(a[:, 0]) > 1e4 and np.ptp(a[:, 3]) > 0.1, np.ptp(a, axis=0)


def test_node_channels_choose_the_line_nodes_a_run_writes(tmp_path):
    """node_channels: a run writes only the line nodes' channels listed (MoorDyn's names, its
    S spelling too), the same numbers as with all of them; every other channel stays; a name
    that is no node channel is refused naming the field. A deck writes what its MoorDyn file's
    OUTPUTS and LineOutputs ask for (ref10: none, as OpenFAST + MoorDyn)."""
    from floatwind.case.openfast.moordyn import read_moordyn_lumped
    from floatwind.errors import CaseError
    from floatwind.simulate import simulate

    every = simulate(_oc3_lumped_model([[6.0, 0, 0]], integration="substep"), progress=False)
    some = simulate(_oc3_lumped_model([[6.0, 0, 0]], integration="substep",
                                      node_channels=["L1N3PX", "l2s1t"]), progress=False)  # fmt: skip
    nodes = [n for n in every.data_vars if n.startswith(("L1N", "L2N", "L3N"))]
    assert len(nodes) > 100
    assert sorted(n for n in some.data_vars if n in nodes) == ["L1N3PX", "L2N1T"]
    for name in some.data_vars:
        assert np.array_equal(some[name].values, every[name].values), name
    assert set(every.data_vars) - set(nodes) == set(some.data_vars) - {"L1N3PX", "L2N1T"}
    with pytest.raises(CaseError, match="node_channels"):
        _oc3_lumped_model([[6.0, 0, 0]], node_channels=["FAIRTEN1"])
    if not REF10.is_dir():
        return
    cfg, _ = read_moordyn_lumped(REF10 / "MoorDyn.dat", depth=320.0, rho=1025.0,
                                 gravity=9.80665)  # fmt: skip
    assert cfg["node_channels"] == []
    text = (REF10 / "MoorDyn.dat").read_text()
    text = text.replace("FairTen1\n", "FairTen1\nL1N5PX\nl3s2t\n")
    rows = [ln for ln in text.splitlines() if ln.split()[:2] == ["2", "main"]]
    text = text.replace(rows[0], rows[0].rstrip()[:-1] + "pt")
    (tmp_path / "MoorDyn.dat").write_text(text)
    cfg, _ = read_moordyn_lumped(tmp_path / "MoorDyn.dat", depth=320.0, rho=1025.0,
                                 gravity=9.80665)  # fmt: skip
    line2 = [f"L2N{i}{q}" for i in range(21) for q in ("PX", "PY", "PZ", "T")]
    assert sorted(cfg["node_channels"]) == sorted(["L1N5PX", "L3N2T", *line2])
