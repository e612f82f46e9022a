"""``floatwind bem --drift`` (floatwind.bem.drift, issue 39): Capytaine's far-field mean drift of a
restrained bottom-mounted vertical cylinder against the closed form (MacCamy-Fuchs diffraction,
Maruo's far-field formula) within 2 %, the cos/sin law of the headings, the written WAMIT .8
read back by the drift load's reader, and the closed form's short-wave limit 2/3."""

from __future__ import annotations

import math

import numpy as np
import pytest

from floatwind.bem.drift import cylinder_mean_drift, fixed_body_mean_drift, write_mean_drift
from floatwind.bem.hull import hull_from_profile
from floatwind.loads.drift import interpolate, read_mean_drift

capytaine = pytest.importorskip("capytaine")
RHO, G = 1025.0, 9.80665


def test_closed_form_short_wave_limit():
    """Total reflection by a circle: F / (rho g A^2 a) -> 2/3 as ka -> inf (deep water); the
    finite-depth factor 1 + 2kh / sinh 2kh is 2 in shallow water."""
    assert cylinder_mean_drift([60.0])[0] == pytest.approx(2.0 / 3.0, rel=5e-3)
    deep, shallow = cylinder_mean_drift([1.0, 1.0], kh=[math.inf, 1e-4])
    assert shallow / deep == pytest.approx(2.0, rel=1e-6)


def test_bottom_mounted_cylinder_mean_drift(tmp_path):
    a, h = 2.0, 10.0
    hull = hull_from_profile([(a, -h), (a, 0.0)], panels=1600, lid=True, name="cylinder")
    ka = np.array([0.5, 1.0, 2.0])
    k = ka / a
    w = np.sqrt(G * k * np.tanh(k * h))
    d = fixed_body_mean_drift(hull, omega=w, headings_deg=[0.0, 30.0], water_depth=h)
    ref = cylinder_mean_drift(ka, kh=k * h)
    fx0 = d["drift_force_surge"].values[:, 0, 0].real / (RHO * G * a)
    assert np.allclose(fx0, ref, rtol=0.02), fx0 / ref - 1.0
    fx30 = d["drift_force_surge"].values[:, 1, 1].real / (RHO * G * a)
    fy30 = d["drift_force_sway"].values[:, 1, 1].real / (RHO * G * a)
    assert np.allclose(fx30, ref * math.cos(math.radians(30)), rtol=0.02)
    assert np.allclose(fy30, ref * math.sin(math.radians(30)), rtol=0.02)
    path = write_mean_drift(d, tmp_path / "cylinder", rho=RHO, g=G)
    back = read_mean_drift(path)
    assert list(back.modes) == [True, True, False, False, False, True]
    assert back.beta1.size == back.beta2.size == 2
    for f in range(w.size):
        got = interpolate(back, float(w[f]), 0.0)[0] * RHO * G
        assert got == pytest.approx(float(d["drift_force_surge"].values[f, 0, 0].real), rel=1e-6)
