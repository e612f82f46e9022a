"""Fused compiled RK4 stepping (floatwind.simulate.fused, floatwind._kernels.fused).

The fused loop must give the numbers of the Python-driven RHS (same kernels; only the order of the
per-load sums may differ), keep a member alone and inside a batch bit-identical, hand steps it
cannot do back to Python (and still get the same answer), and keep the error semantics.
"""

from __future__ import annotations

import pathlib

import numpy as np
import pytest
from conftest import fused_and_python

pytest.importorskip("numba")

from floatwind import _kernels  # noqa: E402
from floatwind.errors import SimulationError  # noqa: E402
from floatwind.simulate import fused as fz  # noqa: E402
from floatwind.simulate import simulate  # noqa: E402
from floatwind.simulate.system import System  # noqa: E402

CASE = pathlib.Path(__file__).resolve().parents[1] / "cases" / "oc3_hywind.yaml"


@pytest.fixture(autouse=True)
def _jit_on(compiled_on):
    """Every test here runs with the compiled kernels and the fused stepping on."""


def _study(n, *, duration=4.0, variants=None, mooring=None):
    from floatwind.studies import study_from_dict

    raw = {
        "name": "fused",
        "designs": [{"name": "d", "case": str(CASE)}],
        "conditions": [{"name": "U17", "wind_speed": 17.0, "hs": 5.0, "tp": 12.0}],
        "variants": variants or [{"name": "v", "loads": {"morison": {"strip_length": 4.0}}}],
        "realizations": n,
        "duration": duration,
        "simulation": {"dt": 0.05, "dt_out": 0.25},
        "waves": {"kind": "jonswap", "hs": 5.0, "tp": 12.0},
        "wind": {"kind": "kaimal", "speed": 17.0, "hub_height": 87.6, "ny": 5, "nz": 5},
    }
    return study_from_dict(raw, base_dir=CASE.parent)


def _model(study, runs):
    from floatwind.studies import build_batch_model

    return build_batch_model(study, runs)


def _both(study, runs, y0=None):
    """(fused Dataset, Python-path Dataset) for the same runs."""
    return fused_and_python(lambda: _model(study, runs), y0=y0)


def _assert_close(a, b, rtol=1e-9):
    for name in a.data_vars:
        x, y = a[name].values, b[name].values
        scale = max(np.nanmax(np.abs(y)), 1.0)
        err = np.nanmax(np.abs(x - y)) if x.size else 0.0
        assert err <= rtol * scale, f"{name}: {err:.3g} (scale {scale:.3g})"


def test_fused_equals_python_path():
    """Waves (expansion table), Kaimal full-field wind, variable C_T, 3 bodies, B = 2."""
    study = _study(2)
    a, b = _both(study, study.runs())
    assert a.sizes["time"] == b.sizes["time"] == 17
    _assert_close(a, b)
    assert float(np.abs(a["PtfmPitch"]).max()) > 1e-3  # the run does move


def test_fused_member_alone_equals_member_in_batch():
    study = _study(3)
    runs = study.runs()
    batch = simulate(_model(study, runs), progress=False)
    alone = simulate(_model(study, runs[1:2]), progress=False)
    for name in ("PtfmPitch", "PtfmSurge", "RtAeroFxh", "YawBrFxp"):
        assert np.array_equal(batch[name].values[1], alone[name].values), name


def test_fused_thrust_variants_in_one_batch():
    """A study's fixed / variable C_T variants (a per-member SelectLoad) in the fused loop."""
    study = _study(
        1,
        variants=[
            {"name": "fixed", "ct_mode": "fixed"},
            {"name": "variable", "ct_mode": "variable"},
        ],
    )
    a, b = _both(study, study.runs())
    _assert_close(a, b)
    ct = a["RtAeroCt"].values
    assert not np.allclose(ct[0], ct[1])  # the two members did use different C_T


def test_pierced_taper_in_the_fused_loop_gives_the_same_answer():
    """Raised 7 m, the spar's taper pierces the still-water plane: the hydrostatics need the
    slice integration, compiled inside the fused loop (it used to hand those steps back to
    Python); the same run with the Python-driven RHS agrees."""
    study = _study(1, duration=2.0)
    runs = study.runs()
    y0 = System(_model(study, runs)).initial_state()
    y0[:, 2] += 7.0
    a, b = _both(study, runs, y0=y0)
    _assert_close(a, b)


def test_divergence_raises_like_the_python_path():
    """A state beyond the bound mid-chunk: same error, time and partial record as the Python
    path (the chunk stops, Python redoes that step and raises)."""
    study = _study(1, duration=4.0)
    errs = []
    for flag in (True, False):
        fz.use_fused(flag)
        m = _model(study, study.runs())
        y0 = System(m).initial_state()
        m.settings.bound = float(np.abs(y0).max()) + 2e-4  # passed after some steps
        with pytest.raises(SimulationError) as err:
            simulate(m, progress=False)
        errs.append(err.value)
    fz.use_fused(True)
    a, b = errs
    assert "bound" in str(a) and str(a) == str(b)
    assert a.time == b.time and 0.0 < a.time < 4.0
    assert a.partial.n == b.partial.n > 1
    np.testing.assert_allclose(a.partial.y, b.partial.y, rtol=1e-9, atol=1e-12)


def test_unsupported_parts_are_named():
    from floatwind.loads.base import Load, Wrench

    class Custom(Load):
        name = "my_custom_load"

        def wrench(self, t, kin, env):
            return Wrench.zeros(kin.batch, kin.n_bodies)

    study = _study(1)
    m = _model(study, study.runs())
    m.loads = list(m.loads) + [Custom()]
    fused, why = fz.fuse(System(m))
    assert fused is None
    assert "my_custom_load" in why
    # ... and the run still goes through the Python right-hand side
    m.settings.t_max = 0.5
    ds = simulate(m, progress=False)
    assert ds.sizes["time"] == 3


def test_kernels_off_means_no_fusing():
    study = _study(1)
    m = _model(study, study.runs())
    _kernels.use_jit(False)
    fused, why = fz.fuse(System(m))
    assert fused is None and "kernels" in why


def test_outputs_in_blocks_equal_time_by_time(monkeypatch):
    """to_dataset stacks blocks of output times along the batch axis: same bits as one by one."""
    import floatwind.simulate.outputs as outputs_mod

    study = _study(2, duration=2.0)
    a = simulate(_model(study, study.runs()), progress=False)
    monkeypatch.setattr(outputs_mod, "OUTPUT_BLOCK", 1)
    b = simulate(_model(study, study.runs()), progress=False)
    assert set(a.data_vars) == set(b.data_vars)
    for name in a.data_vars:
        assert np.array_equal(a[name].values, b[name].values, equal_nan=True), name
        assert a[name].values.flags.c_contiguous, name


def test_simd_lanes_give_the_bits_of_the_scalar_wave_kernels():
    """From B = LANES_MIN the fused loop runs the wave kernels with the members in SIMD lanes:
    the same operations per member, so a member alone (scalar kernels) and inside a batch of 8
    (lane kernels) stay bit-identical; and the lane kernels equal the scalar ones directly."""
    from floatwind._kernels import fused as kf
    from floatwind._kernels import waves as kw

    n = kf.LANES_MIN
    study = _study(n, duration=1.0)
    runs = study.runs()
    batch = simulate(_model(study, runs), progress=False)
    alone = simulate(_model(study, runs[n - 1 : n]), progress=False)
    for name in (
        "PtfmPitch",
        "PtfmHeave",
        "RtAeroFxh",
        "FAIRTEN1" if "FAIRTEN1" in alone else "X1",
    ):
        assert np.array_equal(batch[name].values[n - 1], alone[name].values), name

    m = _model(study, runs)
    mor = next(ld for ld in m.loads if type(ld).__name__ == "MorisonMembers")
    sea = mor._sea(m.env, "strips", mor.strip_centre_b)
    c = sea._jit_consts()
    rng = np.random.default_rng(5)
    pts = np.ascontiguousarray(
        np.broadcast_to(sea.points_ref, (n, sea.n_points, 3))
        + rng.normal(0.0, 4.0, (n, sea.n_points, 3))
    )
    z = sea._series(13.37)
    zr, zi = kw.series_lanes(z)
    eruns = kw.node_runs(c["k_eta"], 0, len(c["k_eta"]))
    pruns = kw.point_runs(c["k_q"], c["starts"], c["orders"])
    h = sea._h or 0.0
    hw = sea._h or 1e6
    xy = np.ascontiguousarray(pts[..., :2])
    e1 = kw.expansion_eta(z, xy, sea.cos, sea.sin, c["s_eta_p"], c["grp"], c["k_eta"])
    e2 = kw.expansion_eta_lanes(
        zr, zi, xy, sea.cos, sea.sin, c["s_eta_p"], c["grp"], eruns, len(c["k_eta"])
    )
    assert np.array_equal(e1, e2)
    eta_in = np.where(rng.random(e1.shape) < 0.5, e1, np.nan)
    nodes = kw.Expansion(cos=sea.cos, sin=sea.sin, mode=c["mode"], h=h, hw=hw,
                         s_eta_p=c["s_eta_p"], grp=c["grp"], k_eta=c["k_eta"], q_eta=sea._q_eta,
                         starts=c["starts"], orders=c["orders"], k_q=c["k_q"],
                         sref_q=c["sref_q"], w_q=c["w_q"], eta_runs=eruns,
                         point_runs=pruns)  # fmt: skip
    v1, a1 = kw.expansion_kinematics_eta(z, pts, eta_in, nodes)
    v2, a2 = kw.expansion_kinematics_lanes(zr, zi, pts, eta_in, nodes)
    assert np.array_equal(v1, v2) and np.array_equal(a1, a2)
    assert np.abs(v1).max() > 0.1  # the points are in moving water


def test_elevation_along_strip_chains():
    """The fused loop sums the elevation along chains of equally spaced strips (straight members)
    by a recurrence from strip to strip: a chain of one strip is the point-by-point kernel to the
    bit, a whole member agrees with it to rounding, and the chains follow the members."""
    from floatwind._kernels import waves as kw

    n = 9
    study = _study(n, duration=1.0)
    m = _model(study, study.runs())
    mor = next(ld for ld in m.loads if type(ld).__name__ == "MorisonMembers")
    sea = mor._sea(m.env, "strips", mor.strip_centre_b)
    c = sea._jit_consts()
    from floatwind.loads.morison import _strip_chains

    starts, counts = _strip_chains(mor.strip_a_b, mor.strip_b_b, c["grp"])
    assert counts.sum() == mor.n_strips and np.all(np.diff(starts) == counts[:-1])
    # strips of one straight member are one chain: as many chains as members with strips here
    cen = 0.5 * (mor.strip_a_b + mor.strip_b_b)
    for a, k in zip(starts, counts, strict=True):
        d = np.diff(cen[a : a + k], axis=0)
        assert np.allclose(d, d[:1], rtol=0, atol=1e-9)
    assert counts.max() > 5
    # displaced strip centres of rigid members (pitch, surge per member)
    rng = np.random.default_rng(8)
    th = rng.normal(0.0, 0.08, n)
    R = np.zeros((n, 3, 3))
    R[:, 0, 0] = R[:, 2, 2] = np.cos(th)
    R[:, 0, 2] = np.sin(th)
    R[:, 2, 0] = -np.sin(th)
    R[:, 1, 1] = 1.0
    r0 = np.stack([rng.normal(0, 5.0, n), rng.normal(0, 2.0, n), np.zeros(n)], axis=1)
    xy = np.ascontiguousarray((r0[:, None, :] + np.einsum("bij,pj->bpi", R, cen))[..., :2])
    z = sea._series(7.5)
    zr, zi = kw.series_lanes(z)
    eruns = kw.node_runs(c["k_eta"], 0, len(c["k_eta"]))
    args = (zr, zi, xy, sea.cos, sea.sin, c["s_eta_p"], c["grp"], eruns, len(c["k_eta"]))
    ref = kw.expansion_eta_lanes(*args)
    ones = np.arange(mor.n_strips, dtype=np.int64)
    assert np.array_equal(kw.expansion_eta_chains(*args, ones, np.ones_like(ones)), ref)
    got = kw.expansion_eta_chains(*args, starts, counts)
    assert np.abs(ref).max() > 0.5
    assert np.abs(got - ref).max() <= 1e-12 * np.abs(ref).max()
    # one member: same numbers whatever the batch (members in lanes or alone), and the scalar
    # kernel of small batches gives the bits of the lanes
    alone = kw.expansion_eta_chains(
        zr[:, 3:4].copy(), zi[:, 3:4].copy(), xy[3:4].copy(), *args[3:], starts, counts
    )
    assert np.array_equal(alone[0], got[3])
    scalar = kw.expansion_eta_chains_scalar(z, *args[2:], starts, counts)
    assert np.array_equal(scalar, got)


def _evaluation_equal(a, b):
    from floatwind.simulate.system import Evaluation  # noqa: F401

    pairs = {
        "q": (a.q, b.q),
        "qdd": (a.acc.qdd, b.acc.qdd),
        "a_G": (a.acc.a_G_g, b.acc.a_G_g),
        "r_G": (a.kin.r_G_g, b.kin.r_G_g),
        "force": (a.wrench.force, b.wrench.force),
        "moment": (a.wrench.moment, b.wrench.moment),
        "added": (a.wrench.added_mass, b.wrench.added_mass),
        "rel.R_c2s": (a.rel.R_c2s, b.rel.R_c2s),
        "md.P": (a.md.P, b.md.P),
    }
    for name, v in a.wrench.channels.items():
        pairs[f"ch.{name}"] = (v, b.wrench.channels[name])
    for i, (la, lb) in enumerate(zip(a.per_load, b.per_load, strict=True)):
        pairs[f"{i}.force"] = (la.force, lb.force)
        for name, v in la.channels.items():
            pairs[f"{i}.{name}"] = (v, lb.channels[name])
    for name, (x, y) in pairs.items():
        assert np.array_equal(np.asarray(x), np.asarray(y), equal_nan=True), name


def test_evaluate_many_equals_evaluations_time_by_time():
    """System.evaluate_many (outputs at a block of times, the times stacked on the batch axis):
    the bits of one System.evaluate per time, with loads taking per-member times (waves, wind)
    and a load that does not (called time by time on its slice)."""
    from floatwind.loads.base import Load, Wrench
    from floatwind.simulate.system import stack_evaluations

    class Pulse(Load):
        name = "pulse"

        def wrench(self, t, kin, env):
            w = Wrench.zeros(kin.batch, kin.n_bodies)
            w.force[:, 0, 0] = 1.0e5 * np.sin(0.7 * float(t))
            w.channels["PulseF"] = w.force[:, 0, 0].copy()
            return w

    study = _study(2, duration=3.0)
    m = _model(study, study.runs())
    m.loads = list(m.loads) + [Pulse()]
    system = System(m)
    system.use_time_grid(0.0, 0.25, 13)
    rng = np.random.default_rng(11)
    y0 = system.initial_state()
    times = np.arange(5) * 0.25 + 0.5
    ys = y0[None] + 1e-2 * rng.standard_normal((5,) + y0.shape)
    assert all(ld.accepts_time_array(m.env) for ld in m.loads[:-1])
    assert not m.loads[-1].accepts_time_array(m.env)
    many = system.evaluate_many(times, ys, keep_loads=True)
    one = stack_evaluations(
        [system.evaluate(float(t), ys[k], keep_loads=True) for k, t in enumerate(times)]
    )
    _evaluation_equal(many, one)


def test_selected_channels_skip_unneeded_loads_with_the_same_numbers():
    """simulate(channels=...): state channels and the loads' own channels (a study's default set)
    are evaluated without the forward dynamics and without the other loads, to the bit of the
    full outputs; a channel that needs the accelerations takes the full evaluation."""
    from floatwind.simulate.outputs import output_plan

    study = _study(2, duration=3.0)
    chans = ["PtfmSurge", "PtfmPitch", "PtfmTVxi", "X5d", "RtAeroFxh", "RtAeroCt", "HstVol"]
    m = _model(study, study.runs())
    plan = output_plan(m, chans)
    assert [m.loads[i].name for i in plan] == ["hydrostatics", "thrust"]  # not Morison, mooring
    assert output_plan(m, chans + ["PtfmTAxi"]) is None  # needs the accelerations
    assert output_plan(m, chans + ["NoSuchChannel"]) is None
    assert output_plan(m, None) is None
    full = simulate(m, progress=False)
    light = simulate(_model(study, study.runs()), progress=False, channels=chans)
    assert list(light.data_vars) == chans
    for c in chans:
        np.testing.assert_array_equal(light[c].values, full[c].values)
    # a channel with the accelerations: the full evaluation, only the asked channels kept
    acc = simulate(_model(study, study.runs()), progress=False, channels=["PtfmTAxi", "PtfmPitch"])
    assert list(acc.data_vars) == ["PtfmTAxi", "PtfmPitch"]
    np.testing.assert_array_equal(acc["PtfmTAxi"].values, full["PtfmTAxi"].values)


@pytest.mark.parametrize("bad", ["PtfmPitch", ["PtfmPitch", 3]])
def test_selected_channels_bad_input_names_the_argument(bad):
    study = _study(1, duration=1.0)
    with pytest.raises(ValueError, match="'channels' must be a list of channel names"):
        simulate(_model(study, study.runs()), progress=False, channels=bad)
