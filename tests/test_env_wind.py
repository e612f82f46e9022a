"""Wind fields: shear, IEC transients, full-field sampling with frozen turbulence."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

import turbsim_io
from floatwind.environment.wind import (
    FullFieldWind,
    SteadyWind,
    direction_shift,
    disc_points,
    iec_edc,
    iec_eog,
    rotor_average,
)

REF = Path("/work/shared/reference/turbsim/small.bts")


def test_steady_shear_profiles():
    w = SteadyWind(speed=10.0, heading=math.radians(-90), ref_height=90.0, alpha=0.2)
    p = np.array([[[0.0, 0.0, 90.0], [5.0, 0.0, 45.0], [0.0, 0.0, -3.0]]])
    v = w.velocity(0.0, p)
    np.testing.assert_allclose(v[0, 0], [0.0, -10.0, 0.0], atol=1e-12)
    assert v[0, 1, 1] == pytest.approx(-10.0 * 0.5**0.2)
    assert np.all(v[0, 2] == 0.0)
    log = SteadyWind(speed=10.0, ref_height=90.0, shear="log", roughness=0.0002)
    assert log.velocity(0, p)[0, 1, 0] == pytest.approx(
        10.0 * math.log(45 / 0.0002) / math.log(90 / 0.0002)
    )


def test_iec_edc_and_eog_values():
    base = SteadyWind(speed=18.2, heading=0.0, ref_height=90.0)
    edc = iec_edc(
        base, uhub=18.2, zhub=90.0, rotor_diameter=126.0, turbulence_class="B", start=10.0
    )
    sigma1 = 0.14 * (0.75 * 18.2 + 5.6)
    theta_e = 4 * math.atan(sigma1 / (18.2 * (1 + 0.1 * 126 / 42)))
    hub = np.array([[[0.0, 0.0, 90.0]]])
    assert edc.direction_change(9.0) == 0.0
    assert edc.direction_change(13.0) == pytest.approx(theta_e / 2)
    v = edc.velocity(20.0, hub)[0, 0]
    assert math.atan2(v[1], v[0]) == pytest.approx(theta_e)
    assert np.linalg.norm(v) == pytest.approx(18.2)
    eog = iec_eog(base, uhub=18.2, zhub=90.0, rotor_diameter=126.0, turbulence_class="B")
    vgust = min(1.35 * (0.8 * 1.4 * 50 - 18.2), 3.3 * sigma1 / (1 + 0.1 * 126 / 42))
    t = np.linspace(0, 10.5, 2101)
    u = np.array([eog.velocity(tt, hub)[0, 0, 0] for tt in t])
    # the gust's maximum rise: V - 0.37 Vgust * min(sin(3 pi t/T)(1-cos(2 pi t/T))) at t = T/2
    assert u.max() == pytest.approx(18.2 + 0.37 * vgust * 2, rel=1e-3)
    assert u[0] == pytest.approx(18.2) and u[-1] == pytest.approx(18.2)


def test_dissertation_direction_shift():
    base = SteadyWind(speed=18.2, heading=math.radians(-90))
    wind = direction_shift(base, shift=math.radians(-45), time=100.0)
    hub = np.array([[[0.0, 0.0, 90.0]]])
    before = wind.velocity(99.9, hub)[0, 0]
    after = wind.velocity(100.0, hub)[0, 0]
    np.testing.assert_allclose(before, [0, -18.2, 0], atol=1e-12)
    # wind along -Y turning pi/4 towards -X (seed 004, ch. IV)
    np.testing.assert_allclose(after, 18.2 * np.array([-1, -1, 0]) / math.sqrt(2), atol=1e-12)


@pytest.fixture(scope="module")
def small():
    return turbsim_io.read_bts(REF)


def test_full_field_grid_nodes_and_frozen_turbulence(small):
    w = FullFieldWind([small], heading=0.0)
    assert w.x_offset == pytest.approx(72.5)
    # a point at x = x_offset sees the grid at the simulation time
    p = np.array([[[72.5, 0.0, 90.0], [72.5, 18.125, 53.75]]])
    v = w.velocity(3.0, p)
    np.testing.assert_allclose(
        v[0, 0],
        [float(small[c].sel(time=3.0, y=0.0, z=90.0, method="nearest")) for c in "uvw"],
        atol=1e-5,
    )
    np.testing.assert_allclose(v[0, 1, 0], float(small.u.isel(time=30, y=5, z=2)), atol=1e-5)
    # Taylor: moving 18.2*0.5 m upstream is half a second later
    up = p.copy()
    up[..., 0] -= float(small.attrs["uhub"]) * 0.5
    np.testing.assert_allclose(w.velocity(2.5, up), v, atol=1e-5)
    # heading -90 deg: grid u goes along -Y, grid y (left, downwind) along +X
    w2 = FullFieldWind([small], heading=math.radians(-90))
    q = np.array([[[18.125, -72.5, 90.0]]])
    v2 = w2.velocity(3.0, q)[0, 0]
    node = [float(small[c].isel(time=30, y=5, z=4)) for c in "uvw"]
    np.testing.assert_allclose(v2, [node[1], -node[0], node[2]], atol=1e-5)


def test_full_field_out_of_file_time(small):
    w = FullFieldWind([small])
    with pytest.raises(ValueError, match="outside"):
        w.velocity(80.0, np.array([[[0.0, 0.0, 90.0]]]))


def test_full_field_batched_realizations_and_tower():
    ds = turbsim_io.generate_kaimal(
        uhub=10.0, zhub=60.0, ny=3, nz=3, width=40.0, height=40.0, dt=0.5, nt=64, seed=1
    )
    ds2 = ds.copy(deep=True)
    ds2["u"] = ds2["u"] + 1.0
    zt = np.array([40.0, 30.0, 20.0])
    for d in (ds, ds2):
        d.coords["z_tower"] = zt
        for c in "uvw":
            d[f"{c}_tower"] = (("time", "z_tower"), np.full((64, 3), 3.0 if c == "u" else 0.0))
    w = FullFieldWind([ds, ds2])
    p = np.broadcast_to(np.array([[0.0, 0.0, 60.0], [0.0, 0.0, 25.0]]), (2, 2, 3))
    v = w.velocity(5.0, p)
    assert v[1, 0, 0] - v[0, 0, 0] == pytest.approx(1.0, abs=1e-5)
    assert v[0, 1, 0] == pytest.approx(3.0)
    alone = FullFieldWind([ds2]).velocity(5.0, p[1:])
    assert np.array_equal(alone[0], v[1])


def test_rotor_average():
    pts, wts = disc_points(np.array([[0.0, 0.0, 90.0]]), np.array([[1.0, 0.0, 0.0]]), 63.0)
    assert wts.sum() == pytest.approx(1.0)
    assert (
        np.allclose(pts[0, :, 0], 0.0)
        and np.linalg.norm(pts[0, :, 1:] - [0, 90], axis=-1).max() < 63
    )
    const = SteadyWind(speed=12.0, alpha=0.0)
    np.testing.assert_allclose(
        rotor_average(const, 0.0, np.array([[0, 0, 90.0]]), np.array([[1.0, 0, 0]]), 63.0),
        [[12.0, 0, 0]],
        atol=1e-12,
    )
    # sheared: disc average of z^alpha differs from the hub value by the known integral
    sheared = SteadyWind(speed=12.0, alpha=0.2)
    avg = rotor_average(
        sheared, 0.0, np.array([[0, 0, 90.0]]), np.array([[1.0, 0, 0]]), 63.0, 40, 72
    )[0, 0]
    r = np.linspace(0, 63, 400)
    th = np.linspace(0, 2 * np.pi, 400)
    rr, tt = np.meshgrid(r, th)
    f = 12.0 * ((90 + rr * np.sin(tt)) / 90) ** 0.2 * rr
    exact = np.trapezoid(np.trapezoid(f, r, axis=1), th) / (np.pi * 63**2)
    assert avg == pytest.approx(exact, rel=1e-3)
    assert xr is not None
