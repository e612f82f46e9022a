"""The ``mean`` operating point with second-order wave drift (issue 40 item 1: "static
equilibrium, with mean wind thrust and mean drift where present"): ref12 (OC3 spar, WAMIT
potential flow, HydroDyn MnDrift = 8 in a 6 m, 8 s regular wave) linearised about the mean
drift. NumPy right-hand side, kernels the potential-flow tests already compile."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest
import xarray as xr

from floatwind.linear.matrices import linearize

ROOT = pathlib.Path(__file__).resolve().parents[1]
REF12 = ROOT / "../shared/reference/openfast/ref12_mean_drift_regular"
DECK = REF12 / "ref12_mean_drift_regular.fst"

pytestmark = pytest.mark.skipif(not REF12.is_dir(), reason="OpenFAST reference decks not available")


def test_mean_operating_point_carries_the_mean_drift(tmp_path, capsys):
    """Regression + analytic: the mean drift in the ``mean`` operating point is HydroDyn's
    (B1WvsF2xi = 5,176.4683 N in ref12's .out, the reference README: rho g A^2 Q(0.785 rad/s));
    the operating point moves from the still-water equilibrium by dx with K dx = F_drift, K the
    secant stiffness (the mean of the two linearizations' K): every row to 1e-6 of its largest
    term K_ij dx_j (measured 7e-11 in surge, 3e-8 in pitch); ``equilibrium`` (still water)
    carries no drift. The command prints the drift and writes it to the netCDF."""
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
    out = tmp_path / "m.nc"
    assert main(["linearize", str(DECK), "--at", "mean", "-o", str(out)]) == 0
    assert "mean wave drift in the operating point: force (5176.47" in capsys.readouterr().out
    with xr.open_dataset(out) as ds:
        np.testing.assert_allclose(ds["mean_drift"].values, f, rtol=1e-12)
        assert ds.attrs["operating_point"] == "mean"
