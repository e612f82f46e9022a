"""Fast wave kinematics at displaced points (ExpansionSea), its wiring and elevation inputs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from floatwind.environment import Environment, build_environment
from floatwind.environment.fastkin import ExpansionSea
from floatwind.environment.spectra import JonswapSpectrum
from floatwind.environment.waves import (
    read_elevation_file,
    sea_from_elevation,
    sea_from_spectrum,
    seeds_for,
)
from floatwind.errors import CaseError

OUTB = Path("/work/shared/reference/openfast/ref05_morison_jonswap/ref05_morison_jonswap.outb")


def _sea(n=1, seed=3, duration=600.0, **kw):
    return sea_from_spectrum(
        JonswapSpectrum(5.0, 10.0), duration=duration, seeds=seeds_for(seed, n), depth=320.0, **kw
    )


def _strips():
    pts = np.zeros((10, 3))
    pts[:, 2] = [-110.0, -70.0, -40.0, -20.0, -10.0, -6.0, -4.0, -2.5, -1.5, -0.5]
    return pts


def _rel_errors(sea, fast, disp, times):
    """Relative rms error of velocity and acceleration per point (over times and components)."""
    ev = ea = rv = ra = 0.0
    for t in times:
        v, a = sea.kinematics(t, disp)
        vf, af = fast.kinematics(t, disp)
        ev = ev + ((vf - v) ** 2).sum(-1)
        ea = ea + ((af - a) ** 2).sum(-1)
        rv = rv + (v**2).sum(-1)
        ra = ra + (a**2).sum(-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.sqrt(ev / rv)[0], np.sqrt(ea / ra)[0]


@pytest.mark.parametrize("offset", [(15.0, 0.0, 2.0), (-9.0, 12.0, -2.0)])
def test_expansion_accurate_at_large_offsets(offset):
    sea = _sea(stretching="wheeler")
    pts = _strips()
    fast = ExpansionSea(sea, pts)
    disp = pts[None] + np.array(offset)
    times = np.random.default_rng(1).uniform(0.0, 600.0, 12)
    ev, ea = _rel_errors(sea, fast, disp, times)
    wet = disp[0, :, 2] < -3.0  # always wet in this sea (near-surface points are tested below)
    assert ev[wet].max() < 0.005 and ea[wet].max() < 0.01, (ev, ea)
    # all points, including those crossing the surface: relative to the column's rms
    eta = np.array([sea.elevation(t, disp[..., :2]) for t in times])
    eta_f = np.array([fast.elevation(t, disp[..., :2]) for t in times])
    assert np.sqrt(np.mean((eta_f - eta) ** 2) / np.mean(eta**2)) < 0.003
    # the first-order Taylor grid fails here (this is what the expansion fixes)
    taylor = sea.precompute(pts[None], duration=600.0)
    tv, ta = _rel_errors(sea, taylor, disp, times[:4])
    assert ta[wet].max() > 0.1


def test_expansion_near_surface_and_dry_points():
    sea = _sea(stretching="wheeler")
    pts = _strips()
    fast = ExpansionSea(sea, pts)
    disp = pts[None] + np.array([8.0, 1.0, 0.5])
    errs_v, errs_a, ref_v, ref_a = [], [], [], []
    for t in np.linspace(3.0, 590.0, 25):
        v, a = sea.kinematics(t, disp)
        vf, af = fast.kinematics(t, disp)
        assert np.array_equal(v == 0.0, vf == 0.0) or np.abs(vf - v).max() < 0.05
        errs_v.append(np.abs(vf - v).max(-1))
        errs_a.append(np.abs(af - a).max(-1))
        ref_v.append(np.abs(v).max(-1))
        ref_a.append(np.abs(a).max(-1))
    rv = np.sqrt(np.mean(np.square(ref_v)))
    ra = np.sqrt(np.mean(np.square(ref_a)))
    # wet/dry switching happens at the same eta up to its tiny error: rms over all points
    assert np.sqrt(np.mean(np.square(errs_v))) < 0.02 * rv
    assert np.sqrt(np.mean(np.square(errs_a))) < 0.02 * ra


def test_expansion_batch_seed_and_fallback():
    batch = _sea(n=3, seed=11, stretching="vertical")
    alone = sea_from_spectrum(
        JonswapSpectrum(5.0, 10.0),
        duration=600.0,
        seeds=[seeds_for(11, 3)[1]],
        depth=320.0,
        stretching="vertical",
    )
    pts = _strips()
    fb, fa = ExpansionSea(batch, pts), ExpansionSea(alone, pts)
    again = ExpansionSea(_sea(n=3, seed=11, stretching="vertical"), pts)
    disp = pts[None] + np.random.default_rng(0).uniform(-5, 5, (3, 1, 3))
    vb, ab = fb.kinematics(41.3, disp)
    va, aa = fa.kinematics(41.3, disp[1:2])
    assert np.array_equal(vb[1], va[0]) and np.array_equal(ab[1], aa[0])
    assert np.array_equal(again.kinematics(41.3, disp)[0], vb)  # same seed, bit for bit
    # another number of points: direct evaluation
    assert np.array_equal(fb.kinematics(2.0, disp[:, :3])[0], batch.kinematics(2.0, disp[:, :3])[0])
    with pytest.raises(ValueError, match="long-crested"):
        ExpansionSea(_sea(spreading_s=4.0), pts)


def test_config_switch_and_attrs():
    cfg = {"waves": {"kind": "jonswap", "hs": 4.0, "tp": 9.0, "kinematics": "gridded"}}
    env = build_environment(cfg, duration=600.0)
    assert env.sea.kinematics_mode == "gridded"
    assert env.attrs()["wave_kinematics"] == "direct"  # nothing built yet
    fast = env.sea.evaluator(_strips())
    assert isinstance(fast, ExpansionSea)
    assert env.attrs()["wave_kinematics"].startswith("gridded: Chebyshev")
    env2 = build_environment({"waves": {**cfg["waves"], "kinematics": "direct"}}, duration=60.0)
    assert env2.sea.evaluator(_strips()) is env2.sea
    assert build_environment({"waves": cfg["waves"] | {"kinematics": "auto"}}, duration=60.0)
    with pytest.raises(CaseError, match="did you mean 'gridded'"):
        build_environment({"waves": {**cfg["waves"], "kinematics": "grided"}}, duration=60.0)


def test_morison_uses_fast_path():
    from floatwind.loads.base import Kinematics
    from floatwind.loads.morison import MorisonMember, MorisonMembers

    members = [
        MorisonMember(np.array([0, 0, -120.0]), np.array([0, 0, -12.0]), 9.4, 9.4, n_strips=12),
        MorisonMember(np.array([0, 0, -12.0]), np.array([0, 0, 10.0]), 6.5, 6.5, n_strips=11),
    ]
    load = MorisonMembers(body=0, members=members)
    kin = Kinematics(
        t=123.4,
        r_G_g=np.array([[[9.0, 1.0, -0.5]]]),
        R_b2g=np.eye(3)[None, None],
        v_G_g=np.array([[[0.3, 0.0, 0.1]]]),
        w_b_g=np.zeros((1, 1, 3)),
        cm_b=np.zeros((1, 3)),
    )
    out = {}
    for mode in ("direct", "gridded"):
        sea = _sea(stretching="wheeler")
        sea.kinematics_mode = mode
        env = Environment(sea=sea)
        out[mode] = load.wrench(123.4, kin, env).force[0, 0]
        assert env.attrs()["wave_kinematics"].startswith(mode)
    np.testing.assert_allclose(out["gridded"], out["direct"], rtol=5e-3, atol=1e3)


@pytest.mark.skipif(not OUTB.is_file(), reason="OpenFAST reference not available")
def test_outb_elevation_reconstruction():
    t, eta = read_elevation_file(OUTB)  # Wave1Elev by default
    t2, eta2 = read_elevation_file(OUTB, "Wave1Elev")
    assert np.array_equal(eta, eta2) and t.size > 1000
    sea = sea_from_elevation(t, eta, depth=320.0, source=str(OUTB))
    xy = np.zeros((1, 1, 2))
    back = np.array([sea.elevation(tt, xy)[0, 0] for tt in t[::37]])
    # SeaState's record repeats its first sample at t = WaveTMax: one period is the other 12,000
    # (issue 39), whose mean is removed; the repeated sample is reproduced too (t[-1] = 600 s)
    assert eta[-1] == eta[0] and sea.period == pytest.approx(t[-1] - t[0])
    np.testing.assert_allclose(
        back, eta[::37] - eta[:-1].mean(), atol=1e-9 * max(1.0, np.abs(eta).max())
    )
    with pytest.raises(ValueError, match="no channel 'Nope'"):
        read_elevation_file(OUTB, "Nope")
