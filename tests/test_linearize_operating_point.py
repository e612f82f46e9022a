"""The operating point against OpenFAST (issue 40 item 1: "static equilibrium, with mean wind
thrust and mean drift where present"): ref09 (OC3 spar, AeroDyn BEM rotor at 9 rpm in a steady
8 m/s wind) about its mean thrust, and ref12 (WAMIT potential flow, HydroDyn MnDrift = 8 in a
6 m, 8 s regular wave) linearised about the mean drift. NumPy right-hand side, kernels the
potential-flow and BEM tests already compile."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest
import xarray as xr

from floatwind.linear.matrices import linearize

ROOT = pathlib.Path(__file__).resolve().parents[1]
REF09 = ROOT / "../shared/reference/openfast/ref09_aero_fixed_speed"
REF12 = ROOT / "../shared/reference/openfast/ref12_mean_drift_regular"
DECK = REF12 / "ref12_mean_drift_regular.fst"

pytestmark = pytest.mark.skipif(not REF12.is_dir(), reason="OpenFAST reference decks not available")


def test_equilibrium_under_mean_thrust_matches_openfast_mean_pose():
    """Regression against OpenFAST: ref09's static equilibrium under the BEM rotor's thrust
    (AeroDyn, 9 rpm, 8 m/s, released from rest) equals the mean pose of OpenFAST's run over
    t >= 200 s: pitch within 1 % (measured 2.5607 vs 2.5528 deg, +0.3 %), heave within 3 %
    (-0.1235 vs -0.1224 m), surge within 3 % (12.119 vs 12.231 m: the run's surge still swings
    +-0.57 m with its 125 s period, so a 100 s mean is biased), roll (rotor torque reaction)
    within 10 % (0.0732 vs 0.0708 deg)."""
    from floatwind.cli._case import load_model
    from floatwind.io.openfast import read_out

    lin = linearize(load_model(str(REF09 / "ref09_aero_fixed_speed.fst")), "equilibrium")
    ds = read_out(REF09 / "ref09_aero_fixed_speed.out")
    late = ds["time"].values >= 200.0
    ref = {c: float(ds[c].values[late].mean()) for c in ("PtfmSurge", "PtfmHeave", "PtfmRoll",
                                                        "PtfmPitch")}  # fmt: skip
    ours = {"PtfmSurge": lin.x0[0], "PtfmHeave": lin.x0[2], "PtfmRoll": np.degrees(lin.x0[3]),
            "PtfmPitch": np.degrees(lin.x0[4])}  # fmt: skip
    for ch, tol in (("PtfmPitch", 0.01), ("PtfmHeave", 0.03), ("PtfmSurge", 0.03),
                    ("PtfmRoll", 0.1)):  # fmt: skip
        assert abs(ours[ch] / ref[ch] - 1) < tol, (ch, ours[ch], ref[ch])


def test_mean_operating_point_carries_the_mean_drift(tmp_path, capsys):
    """Regression + analytic: the mean drift in the ``mean`` operating point is HydroDyn's
    (B1WvsF2xi = 5,176.4683 N in ref12's .out, the reference README: rho g A^2 Q(0.785 rad/s));
    the operating point moves from the still-water equilibrium by dx with K dx = F_drift, K the
    secant stiffness (the mean of the two linearizations' K): every row to 1e-6 of its largest
    term K_ij dx_j (measured 7e-11 in surge, 3e-8 in pitch); ``equilibrium`` (still water)
    carries no drift, and the command says so in a note. The command prints the drift and writes it to the netCDF."""
    from floatwind.cli import main
    from floatwind.cli._case import load_model
    from floatwind.io.openfast import read_out

    model = load_model(str(DECK))
    eq = linearize(model, "equilibrium")
    mean = linearize(model, "mean")
    assert eq.mean_drift is None
    ref = float(read_out(REF12 / "ref12_mean_drift_regular.out")["B1WvsF2xi"].values[-1])
    assert ref == pytest.approx(5176.4683, abs=1e-3)
    f = mean.mean_drift
    assert f[0] == pytest.approx(ref, rel=1e-6)
    assert np.all(np.abs(f[1:]) < 1e-6 * f[0])  # axisymmetric hull, heading 0: surge only
    dx = mean.x0 - eq.x0
    assert 0.10 < dx[0] < 0.2  # ~ F / K11 = 0.126 m, with the mooring's surge-pitch coupling
    Ks = 0.5 * (eq.K + mean.K)  # the secant stiffness (the restoring is not exactly linear)
    terms = np.maximum(np.abs(Ks * dx[None, :]).max(axis=1), f[0])  # each row's largest term
    assert np.all(np.abs(Ks @ dx - f) <= 1e-6 * terms), (Ks @ dx - f) / terms
    assert main(["linearize", str(DECK), "-o", str(tmp_path / "e.nc")]) == 0
    assert "mean wave drift (force 5176.47 N) that this operating point leaves out" in (
        capsys.readouterr().out
    )
    out = tmp_path / "m.nc"
    assert main(["linearize", str(DECK), "--at", "mean", "-o", str(out)]) == 0
    assert "mean wave drift in the operating point: force (5176.47" in capsys.readouterr().out
    with xr.open_dataset(out) as ds:
        np.testing.assert_allclose(ds["mean_drift"].values, f, rtol=1e-12)
        assert ds.attrs["operating_point"] == "mean"
