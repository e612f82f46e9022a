"""Seas of any origin on the fast kinematics (issue 16, item 5).

A sea rebuilt from a recorded elevation keeps the whole spectrum up to its cut-off (600 components
to 1 Hz for OpenFAST's ref05): its tail makes ``e^{i k s}`` turn by ~60 rad over the band at 15 m
offsets, which one polynomial in frequency cannot follow. ExpansionSea then splits the band into
sub-bands (``fastkin.ExpansionSea._search_bands``); these tests hold the result to direct summation
at displaced points, to the fused loop, and check that the output attributes say which method was
used and its accuracy target, and that a fall-back to direct summation is not silent.
"""

from __future__ import annotations

import logging
import math
import pathlib

import numpy as np
import pytest

from floatwind.environment import fastkin, waves
from floatwind.environment.spectra import JonswapSpectrum

REF05 = pathlib.Path(
    "/work/shared/reference/openfast/ref05_morison_jonswap/ref05_morison_jonswap.outb"
)
CASE = pathlib.Path(__file__).resolve().parents[1] / "cases" / "oc3_hywind.yaml"


def _broad_sea(stretching="none"):
    """A recorded-like sea: JONSWAP Hs 5 m, Tp 10 s, gamma 3.3 with Rayleigh amplitudes on the
    600-s Fourier grid up to 1 Hz (600 components, the spectrum's tail kept as a record keeps it)."""
    return waves.sea_from_spectrum(
        JonswapSpectrum(hs=5.0, tp=10.0, gamma=3.3),
        duration=600.0,
        seeds=waves.seeds_for(123, 1),
        random_amplitude=True,
        band=(0.01, 2.0 * math.pi),
        stretching=stretching,
    )


def _strips(z):
    z = np.asarray(z, dtype=float)
    return np.stack([np.zeros_like(z), np.zeros_like(z), z], axis=1)


def _relative_rms_errors(es, sea, pts, offsets, times):
    """Worst relative rms error (over times) of the elevation and of each velocity/acceleration
    channel at each displaced point: {offset: (eta error, kinematics error)}."""
    assert pts.shape[0] == es.n_points  # else the expansion hands the call to the direct sum
    out = {}
    for off in offsets:
        p = pts + np.asarray(off)[None, :]
        e_fast, e_ref, v_fast, v_ref, a_fast, a_ref = [], [], [], [], [], []
        for t in times:
            e_fast.append(es.elevation(t, p[None, :, :2])[0])
            e_ref.append(sea.elevation(t, p[None, :, :2])[0])
            vf, af = es.kinematics(t, p[None])
            vr, ar = sea.kinematics(t, p[None])
            v_fast.append(vf[0])
            v_ref.append(vr[0])
            a_fast.append(af[0])
            a_ref.append(ar[0])
        e_fast, e_ref = np.array(e_fast), np.array(e_ref)
        err_eta = np.sqrt(np.mean((e_fast - e_ref) ** 2, 0) / np.mean(e_ref**2, 0)).max()
        worst = 0.0
        for f, r in ((v_fast, v_ref), (a_fast, a_ref)):
            f, r = np.array(f), np.array(r)  # (T, P, 3)
            rms = np.sqrt(np.mean(r**2, 0))
            err = np.sqrt(np.mean((f - r) ** 2, 0))
            live = rms > 1e-6 * rms.max()
            worst = max(worst, float((err[live] / rms[live]).max()))
        out[tuple(off)] = (float(err_eta), worst)
    return out


def test_broad_recorded_like_sea_gets_the_expansion_within_its_tolerance():
    sea = _broad_sea()
    assert sea.n_components == 600
    pts = _strips(np.concatenate([np.arange(-59.0, -10.0, 6.0), np.arange(-9.5, 0.0, 1.0)]))
    es = fastkin.ExpansionSea(sea, pts)  # raised ExpansionAccuracyError before the sub-bands
    assert es.max_bands > 1
    assert es.eta_error <= 0.5 * es.tol and es.kin_error.max() <= 0.5 * es.tol
    times = np.linspace(3.0, 597.0, 160)
    offsets = [(15.0, 0.0, 2.0), (-15.0, 0.0, -2.0), (8.0, 5.0, 0.5), (0.0, 0.0, 0.0)]
    errs = _relative_rms_errors(es, sea, pts, offsets, times)
    for off, (e_eta, e_kin) in errs.items():
        print(f"offset {off}: elevation {e_eta:.2e}, kinematics {e_kin:.2e} (tol {es.tol:g})")
        assert e_eta <= es.tol, (off, e_eta)
        assert e_kin <= es.tol, (off, e_kin)


def test_sea_that_met_the_target_with_one_polynomial_is_unchanged():
    # the default JONSWAP band: one polynomial per point, no sub-bands (the same table as before)
    sea = waves.sea_from_spectrum(
        JonswapSpectrum(hs=5.0, tp=10.0, gamma=3.3), duration=600.0, seeds=waves.seeds_for(1, 1)
    )
    es = fastkin.ExpansionSea(sea, _strips([-40.0, -10.0, -2.0]))
    assert es.max_bands == 1 and es.eta_bands == 1
    assert es.kinematics_method() == ("frequency expansion", es.tol)


def test_sub_band_runs_never_straddle_two_sub_bands():
    pytest.importorskip("numba")
    from floatwind._kernels import waves as kw

    sea = _broad_sea()
    es = fastkin.ExpansionSea(sea, _strips([-1.5, -0.5]))
    assert es.kin_bands.max() > 1 and es.eta_bands > 1
    c = es._jit_consts()
    first, length, kd = kw.node_runs(c["k_eta"], 0, len(c["k_eta"]))
    assert np.all(length >= 3)
    first, length, kd, off = kw.point_runs(c["k_q"], c["starts"], c["orders"])
    assert np.all(length >= 3)
    # within a run the wavenumbers are increasing and the curvature small: the depth-factor
    # recurrences e^{d2 z}, e^{-d2 (z + 2h)} stay far from overflow
    assert np.all(kd[:, 1] > 0)
    assert np.all(np.abs(kd[:, 2]) * 2.0 * sea.depth < 700.0)


@pytest.mark.skipif(not REF05.is_file(), reason="OpenFAST reference ref05 not available")
def test_ref05_recorded_elevation_builds_the_fast_kinematics():
    t, eta = waves.read_elevation_file(REF05, "Wave1Elev")
    sea = waves.sea_from_elevation(t, eta, f_max=1.0, stretching="none")  # as compare.py
    sea.kinematics_mode = "auto"
    pts = _strips(np.arange(-119.75, 0.0, 2.0))
    es = sea.evaluator(pts)
    assert isinstance(es, fastkin.ExpansionSea)
    assert es.max_bands > 1
    attrs = sea.attrs()
    assert attrs["wave_kinematics_method"].startswith("frequency expansion (up to")
    assert attrs["wave_kinematics_tolerance"] == pytest.approx(5e-3)
    # (the same P as the expansion: another P would be answered by the direct sum itself)
    errs = _relative_rms_errors(
        es, sea, pts, [(15.0, 0.0, 1.0), (-15.0, 0.0, -2.0)], np.linspace(1.0, 599.0, 80)
    )
    for off, (e_eta, e_kin) in errs.items():
        print(f"ref05 offset {off}: elevation {e_eta:.2e}, kinematics {e_kin:.2e}")
        assert e_eta <= es.tol and e_kin <= es.tol


def test_fall_back_to_direct_summation_is_not_silent(monkeypatch, caplog):
    monkeypatch.setattr(fastkin, "BAND_MAX_ORDER", 3)
    monkeypatch.setattr(fastkin, "BAND_MAX_LEVEL", 0)
    fastkin._CHOICES.clear()
    sea = _broad_sea()
    sea.kinematics_mode = "auto"
    with caplog.at_level(logging.WARNING, logger="floatwind.environment.waves"):
        out = sea.evaluator(_strips([-1.0, -3.0]))
    fastkin._CHOICES.clear()
    assert out is sea
    assert any("summing the 600 components directly" in r.getMessage() for r in caplog.records)
    attrs = sea.attrs()
    assert attrs["wave_kinematics_method"] == "direct summation"
    assert attrs["wave_kinematics_tolerance"] == 0.0


def test_every_sea_writes_its_kinematics_method():
    from floatwind.environment.base import Environment, StillWater

    still = Environment(sea=StillWater()).attrs()
    assert still["wave_kinematics_method"] == "still water"
    assert still["wave_kinematics_tolerance"] == 0.0
    sea = waves.sea_from_spectrum(
        JonswapSpectrum(hs=2.0, tp=8.0), duration=600.0, seeds=waves.seeds_for(3, 1)
    )
    a = Environment(sea=sea).attrs()
    assert a["wave_kinematics_method"] == "direct summation"  # nothing built yet: the sea itself
    grid = sea.precompute(_strips([-5.0])[None], duration=20.0)
    g = grid.attrs()
    assert g["wave_kinematics_method"].startswith("time grid")
    assert math.isnan(g["wave_kinematics_tolerance"])


def _elevation_file(tmp_path) -> pathlib.Path:
    """The broad sea's elevation at the origin, 600 s sampled at 0.5 s (components to 1 Hz)."""
    sea = _broad_sea()
    t = np.arange(1200) * 0.5
    eta = np.real(np.exp(-1j * np.outer(t, sea.omega)) @ sea.amplitude[0])
    path = tmp_path / "eta.csv"
    np.savetxt(path, np.column_stack([t, eta]), delimiter=",", header="time,eta", comments="")
    return path


def test_fused_run_with_a_recorded_sea_equals_the_python_path(tmp_path):
    pytest.importorskip("numba")
    from floatwind import _kernels
    from floatwind.case.loader import load_case
    from floatwind.simulate import fused as fz
    from floatwind.simulate import simulate
    from floatwind.simulate.system import System

    waves_cfg = {
        "kind": "elevation",
        "file": str(_elevation_file(tmp_path)),
        "channel": "eta",
        "stretching": "none",
        "kinematics": "auto",
    }
    over = {"environment.waves": waves_cfg, "simulation.t_max": 3.0, "simulation.dt": 0.05}
    old, old_f = _kernels.use_jit(True), fz.use_fused(True)
    try:
        m = load_case(CASE, over)
        fused, why = fz.fuse(System(m))
        assert fused is not None, why
        a = simulate(m, progress=False)
        fz.use_fused(False)
        b = simulate(load_case(CASE, over), progress=False)
    finally:
        _kernels.use_jit(old)
        fz.use_fused(old_f)
    assert a.attrs["env_wave_kinematics_method"].startswith("frequency expansion (up to")
    assert a.attrs["env_wave_kinematics_tolerance"] == pytest.approx(5e-3)
    for name in a.data_vars:
        x, y = a[name].values, b[name].values
        scale = max(np.nanmax(np.abs(y)), 1.0)
        err = np.nanmax(np.abs(x - y)) if x.size else 0.0
        assert err <= 1e-9 * scale, f"{name}: {err:.3g} (scale {scale:.3g})"


def test_table_over_the_budget_falls_back_with_a_warning(monkeypatch, caplog):
    # sub-bands can need more series than the estimate the auto mode checks first: the actual
    # table is checked against the budget before it is allocated
    sea = _broad_sea()
    sea.kinematics_mode = "auto"
    pts = _strips([-0.5, -1.5])
    estimate = sea.expansion_table_bytes(2)
    monkeypatch.setattr(fastkin, "AUTO_MEMORY_BUDGET", 2 * estimate)
    with caplog.at_level(logging.WARNING, logger="floatwind.environment.waves"):
        out = sea.evaluator(pts)
    assert out is sea
    assert any("GB allowed" in r.getMessage() for r in caplog.records)
    assert sea.attrs()["wave_kinematics_method"] == "direct summation"
    es = fastkin.ExpansionSea(sea, pts)  # without a budget: builds, larger than the estimate
    assert es.nbytes > 2 * estimate


def test_sub_band_kernels_alone_equal_in_simd_lanes():
    pytest.importorskip("numba")
    from floatwind import _kernels
    from floatwind._kernels import waves as kw

    sea = _broad_sea()
    pts = _strips([-9.5, -4.5, -2.5, -1.5, -0.5])
    es = fastkin.ExpansionSea(sea, pts)
    assert es.max_bands > 1
    rng = np.random.default_rng(5)
    batch = pts[None] + rng.uniform(-3.0, 3.0, (kw.LANES_MIN + 1, pts.shape[0], 3))
    old = _kernels.use_jit(True)
    try:
        for t in (1.3, 77.7):
            eta_b = es.elevation(t, batch[..., :2])
            vel_b, acc_b = es.kinematics(t, batch)
            for b in range(batch.shape[0]):
                eta_1 = es.elevation(t, batch[b : b + 1, :, :2])
                vel_1, acc_1 = es.kinematics(t, batch[b : b + 1])
                assert np.array_equal(eta_1[0], eta_b[b])
                assert np.array_equal(vel_1[0], vel_b[b]) and np.array_equal(acc_1[0], acc_b[b])
    finally:
        _kernels.use_jit(old)


def test_sub_band_kernels_match_the_numpy_reference():
    pytest.importorskip("numba")
    from floatwind import _kernels

    sea = _broad_sea(stretching="wheeler")
    pts = _strips([-30.0, -9.5, -4.5, -1.5, -0.5])
    es = fastkin.ExpansionSea(sea, pts)
    assert es.max_bands > 1
    p = pts[None] + np.array([[[7.0, 1.0, 0.5]]])
    out = []
    old = _kernels.enabled()
    try:
        for jit in (True, False):
            _kernels.use_jit(jit)
            es._t_cache = None
            out.append((es.elevation(33.3, p[..., :2]),) + es.kinematics(33.3, p))
    finally:
        _kernels.use_jit(old)
    for a, b in zip(*out):
        assert np.abs(a - b).max() <= 1e-12 * np.abs(b).max()
