"""The blades' weight and inertia in the root moments a controller library receives (issue 36;
docs/control.md "The measurements"): :func:`floatwind._kernels.rotor.blade_root_structure`
through its Python form (no compile of a model), against closed forms of ElastoDyn's rigid
blade (a line of point masses on the coned pitch axis) and a brute-force sum over point masses;
``blade_mass`` bad input in one line.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pytest

from floatwind._kernels import rotor as kr
from floatwind._kernels import servo as ksv
from floatwind._kernels.contract import BodyKinematics
from floatwind.errors import CaseError
from floatwind.loads.rotor_bem import _blade_mass

G = 9.80665
HUB_R = 1.5  # m
PRECONE = math.radians(-2.5)
#: one blade of the NREL 5-MW as ElastoDyn lumps it (mass, first and second moment about the root)
MASS = (17740.0, 17740.0 * 20.48, 17740.0 * 20.48**2 * 1.35)


class _Geo(NamedTuple):
    body: int
    apex_b: np.ndarray
    shaft_b: np.ndarray
    frames_b: np.ndarray
    z_hub: np.ndarray


class _Mem(NamedTuple):
    sense: np.ndarray
    dt: float


def _geometry(nb=3, precone=PRECONE):
    """Rotor body frame: x the (downwind) shaft, blade 1 up along z at zero azimuth; the apex at
    the body's origin, the body's CM there (on the shaft)."""
    c1, c2 = np.array([1.0, 0.0, 0.0]), np.array([0.0, 0.0, 1.0])
    c3 = np.cross(c1, c2)
    frames = np.empty((nb, 3, 3))
    for k in range(nb):
        a = 2.0 * math.pi * k / nb
        g = math.cos(a) * c2 + math.sin(a) * c3
        z = math.sin(precone) * c1 + math.cos(precone) * g
        x = math.cos(precone) * c1 - math.sin(precone) * g
        frames[k] = (x, np.cross(z, x), z)
    return _Geo(body=0, apex_b=np.zeros(3), shaft_b=c1, frames_b=frames, z_hub=np.full(nb, HUB_R))


def _rot_x(psi):
    c, s = math.cos(psi), math.sin(psi)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def _kin(R, w, v=(0.0, 0.0, 0.0), cm=(0.0, 0.0, 0.0)):
    return BodyKinematics(r_G=np.zeros((1, 1, 3)), R_b2g=np.asarray(R, float)[None, None],
                v_G=np.asarray(v, float)[None, None], w_b=np.asarray(w, float)[None, None],
                cm_b=np.asarray(cm, float)[None])  # fmt: skip


def _memory(w_prev=None, v_prev=(0.0, 0.0, 0.0), dt=0.01):
    se = np.zeros((1, ksv.N_SENSE))
    if w_prev is not None:
        se[0, ksv.S_WR : ksv.S_WR + 3] = w_prev
        se[0, ksv.S_VR : ksv.S_VR + 3] = v_prev
        se[0, ksv.S_PREV] = 1.0
    return _Mem(sense=se, dt=dt)


def _moments(geo, kin, mem, gravity=G, k_step=1, mass=MASS):
    hub = np.zeros((1, kr.N_HUB))
    nb = geo.frames_b.shape[0]
    masses = np.tile(np.asarray(mass, float), (nb, 1))
    kr.blade_root_structure.py_func(geo, kin, masses, gravity, mem, k_step, hub)
    return hub[0, kr.RMXC : kr.RMXC + 3], hub[0, kr.RMYC : kr.RMYC + 3]


@pytest.mark.parametrize("psi_deg", [0.0, 37.0, 90.0, 200.0])
def test_parked_rotor_carries_the_blade_weight(psi_deg):
    """A parked rotor (shaft level): blade k at azimuth psi_k (about the downwind shaft from
    up) has the in-plane root moment S1 g sin(psi_k) (its weight times its mass-centre arm,
    largest with the blade level) and the out-of-plane S1 g sin(precone) cos(psi_k) (an upwind
    coned blade leans upwind when up)."""
    psi = math.radians(psi_deg)
    geo = _geometry()
    mx, my = _moments(geo, _kin(_rot_x(psi), np.zeros(3)), _memory(np.zeros(3)))
    s1 = MASS[1]
    for k in range(3):
        pk = psi + 2.0 * math.pi * k / 3
        assert mx[k] == pytest.approx(s1 * G * math.sin(pk), abs=1e-9 * s1 * G)
        assert my[k] == pytest.approx(s1 * G * math.sin(PRECONE) * math.cos(pk),
                                      abs=1e-9 * s1 * G)  # fmt: skip
    # blade 1 level (psi = 90 deg): about 3.6 MN m, the 5-MW blade's gravity moment
    if psi_deg == 90.0:
        assert 3.4e6 < mx[0] < 3.8e6


def test_a_spinning_coned_rotor_bends_its_blades_by_the_centrifugal_load():
    """Constant spin W about the shaft, no gravity: in-plane 0, out-of-plane -(S2 + S1 R_h) W^2
    sin(precone) cos(precone) at every azimuth (the centrifugal load pulls an upwind-coned blade
    downwind: positive for negative precone); with an angular acceleration A about the shaft
    the in-plane moment -(S2 + S1 R_h) A cos(precone) resists it."""
    geo = _geometry()
    W, A, dt = 1.2671, 0.35, 0.0125
    J = MASS[2] + MASS[1] * HUB_R
    cp, sp = math.cos(PRECONE), math.sin(PRECONE)
    for psi in (0.0, 1.1, 4.0):
        mx, my = _moments(geo, _kin(_rot_x(psi), (W, 0, 0)), _memory((W, 0, 0), dt=dt), gravity=0.0)
        assert np.allclose(mx, 0.0, atol=1e-6)
        assert np.allclose(my, -J * W * W * sp * cp, rtol=1e-12)
        assert my[0] > 0.0
        mx, my = _moments(geo, _kin(_rot_x(psi), (W, 0, 0)), _memory((W - A * dt, 0, 0), dt=dt),
                          gravity=0.0)  # fmt: skip
        assert np.allclose(mx, -J * A * cp, rtol=1e-9)
        assert np.allclose(my, -J * W * W * sp * cp, rtol=1e-9)
    # the first step (no previous velocities): no accelerations, the centrifugal part only
    mx, my = _moments(geo, _kin(_rot_x(0.3), (W, 0, 0)), _memory(None), gravity=0.0, k_step=0)
    assert np.allclose(mx, 0.0, atol=1e-6) and np.allclose(my, -J * W * W * sp * cp)


def test_the_mass_moments_equal_a_sum_over_point_masses():
    """Any attitude, spin, angular and linear acceleration and CM offset: the (m, S1, S2) form
    equals the d'Alembert sum over 60 point masses on the blade axis, r_i x m_i (g - a_i) with
    a_i the rigid body's acceleration at each point."""
    rng = np.random.default_rng(7)
    q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    R = q * np.sign(np.linalg.det(q))
    w = rng.normal(size=3)
    w_prev = w - rng.normal(size=3) * 0.01
    v, v_prev = rng.normal(size=3), rng.normal(size=3)
    cm = np.array([0.4, -0.2, 0.3])  # the rotor body's CM off the apex (its frame)
    dt = 0.01
    geo = _geometry()
    s = np.linspace(0.5, 61.5, 60)
    m = 300.0 * (1.0 - 0.9 * s / 63.0)
    mass = (m.sum(), m @ s, m @ (s * s))
    mx, my = _moments(geo, _kin(R, w, v, cm), _memory(w_prev, v_prev, dt), mass=mass)
    alpha, aG = (w - w_prev) / dt, (v - v_prev) / dt
    gv = np.array([0.0, 0.0, -G])
    xh = R @ geo.shaft_b
    for k in range(3):
        e = R @ geo.frames_b[k, 2]
        P = R @ (HUB_R * geo.frames_b[k, 2] - cm)  # the root from the CM
        M = np.zeros(3)
        for si, mi in zip(s, m):
            r = P + si * e
            a = aG + np.cross(alpha, r) + np.cross(w, np.cross(w, r))
            M += np.cross(si * e, mi * (gv - a))
        xc = xh - (xh @ e) * e
        xc /= np.linalg.norm(xc)
        yc = np.cross(e, xc)
        scale = np.abs(M).max()
        assert mx[k] == pytest.approx(M @ xc, abs=1e-9 * scale)
        assert my[k] == pytest.approx(M @ yc, abs=1e-9 * scale)


def test_blade_mass_bad_input_is_refused_in_one_line():
    assert np.array_equal(_blade_mass(None, 3, "f"), np.zeros((3, 3)))
    ok = _blade_mass({"mass": 10.0, "first_moment": [20.0, 20.0, 20.0], "second_moment": 50.0},
                     3, "f")  # fmt: skip
    assert ok.shape == (3, 3) and ok[1, 1] == 20.0
    for cfg, key in (({"mass": 1.0, "first_moment": 1.0}, "second_moment"),
                     ({"mass": -1.0, "first_moment": 1.0, "second_moment": 1.0}, "mass"),
                     ({"mass": 1.0, "first_moment": [1.0, 1.0], "second_moment": 1.0},
                      "first_moment"),
                     ({"mass": 1.0, "first_moment": 3.0, "second_moment": 4.0}, "first_moment")):  # fmt: skip
        with pytest.raises(CaseError) as e:
            _blade_mass(cfg, 3, "loads[2].blade_mass")
        assert e.value.field == f"loads[2].blade_mass.{key}"
        assert "\n" not in str(e.value)
