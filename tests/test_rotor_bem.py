"""The blade-element momentum rotor load (issue 35): invariants, the compiled path, bad input.

The element solve itself is checked in tests/test_bemt.py (analytic momentum relations, the
independent C_P/C_T check); the comparison with OpenFAST's ref09 run is
tests/test_rotor_ref09.py.
"""

from __future__ import annotations

import dataclasses
import math
import pathlib

import numpy as np
import pytest

from floatwind._kernels import bemt as kb
from floatwind._kernels import rotor as kr
from floatwind._kernels.contract import body_kinematics
from floatwind.environment import Environment
from floatwind.environment.wind import SteadyWind
from floatwind.errors import CaseError
from floatwind.loads.base import Kinematics
from floatwind.loads.rotor_bem import NODE_CHANNELS, BemRotor

REF09 = (
    pathlib.Path(__file__).resolve().parents[2]
    / "shared"
    / "reference"
    / "openfast"
    / ("ref09_aero_fixed_speed")
)
AIRFOILS = ["Cylinder1", "Cylinder2", "DU40_A17", "DU35_A17", "DU30_A17", "DU25_A17", "DU21_A17",
            "NACA64_A17"]  # fmt: skip
OMEGA = 9.0 * 2.0 * math.pi / 60.0
TILT = math.radians(-5.0)
C1 = np.array([math.cos(TILT), 0.0, math.sin(TILT)])  # OC3 shaft: downwind end tilted down
C2 = np.array([-math.sin(TILT), 0.0, math.cos(TILT)])

pytestmark = pytest.mark.skipif(not REF09.is_dir(), reason="needs ../shared/reference/openfast")


def rotor_cfg(**kw) -> dict:
    cfg = {
        "type": "bem_rotor",
        "body": "rotor",
        "apex": [0.0, 0.0, 0.0],
        "shaft_axis": [float(v) for v in C1],
        "blade1_axis": [float(v) for v in C2],
        "hub_radius": 1.5,
        "precone_deg": -2.5,
        "blade_file": str(REF09 / "AeroDyn_blade.dat"),
        "airfoils": [str(REF09 / "Airfoils" / f"{a}.dat") for a in AIRFOILS],
        "air_density": 1.225,
        "kin_visc": 1.464e-5,
        "output_nodes": [2, 4, 6, 8, 10, 12, 14, 16, 18],
    }
    cfg.update(kw)
    return cfg


def make_rotor(**kw) -> BemRotor:
    return BemRotor.from_config(rotor_cfg(**kw), body_index={"rotor": 0}, field="loads[0]")


def spin_kin(azimuth, *, omega=OMEGA, apex=(-5.0, 0.0, 90.0), v=(0.0, 0.0, 0.0), yaw=0.0):
    """One rotor body (origin = CM = apex) turned by ``azimuth`` about the shaft and ``yaw``
    about z, spinning at ``omega``; batch over ``azimuth``."""
    az = np.atleast_1d(np.asarray(azimuth, float))
    B = az.size
    cy, sy = math.cos(yaw), math.sin(yaw)
    Ry = np.array([[cy, -sy, 0.0], [sy, cy, 0.0], [0.0, 0.0, 1.0]])
    R = np.empty((B, 1, 3, 3))
    for b, a in enumerate(az):
        K = np.array([[0, -C1[2], C1[1]], [C1[2], 0, -C1[0]], [-C1[1], C1[0], 0]])
        Ra = np.eye(3) + math.sin(a) * K + (1 - math.cos(a)) * (K @ K)
        R[b, 0] = Ry @ Ra
    w = np.broadcast_to(omega * (Ry @ C1), (B, 1, 3)).copy()
    r = np.broadcast_to(np.asarray(apex, float), (B, 1, 3)).copy()
    vv = np.broadcast_to(np.asarray(v, float), (B, 1, 3)).copy()
    return Kinematics(0.0, r, R, vv, w, np.zeros((1, 3)))


def env(speed=8.0, heading=0.0, alpha=0.0):
    e = Environment()
    e.wind = SteadyWind(speed=speed, heading=heading, ref_height=90.0, alpha=alpha)
    return e


def test_no_wind_no_rotation_no_load():
    rot = make_rotor()
    kin = spin_kin([0.0, 0.7], omega=0.0)
    w = rot.wrench(0.0, kin, env(speed=0.0))
    assert np.all(w.force == 0.0) and np.all(w.moment == 0.0)
    assert np.all(w.channels["RtAeroFxh"] == 0.0)


def test_operating_point_and_channels():
    """Rotor at 9 rpm in 8 m/s with the OC3 tilt: thrust and power near OpenFAST's ref09 mean
    (375.7 kN, 1.847 MW at 2.55 deg platform pitch; here the platform is level)."""
    rot = make_rotor()
    w = rot.wrench(0.0, spin_kin([0.0, 0.4, 1.3]), env())
    fx = w.channels["RtAeroFxh"]
    assert np.all((fx > 3.4e5) & (fx < 4.1e5))
    assert np.all(w.channels["RtAeroPwr"] > 1.6e6)
    # the force on the body is the hub force (the body's CM is the apex): its shaft component
    np.testing.assert_allclose(w.force[:, 0] @ C1, fx, rtol=1e-12)
    # power = torque x spin rate; C_P, C_T with the largest in-plane radius
    np.testing.assert_allclose(w.channels["RtAeroPwr"], w.channels["RtAeroMxh"] * OMEGA, rtol=1e-12)
    rmax = rot.geometry.r_max
    assert rmax == pytest.approx(63.0 * math.cos(math.radians(2.5)), abs=0.02)
    v = w.channels["RtVAvgxh"]
    np.testing.assert_allclose(w.channels["RtTSR"], OMEGA * rmax / v, rtol=1e-12)
    q = 0.5 * 1.225 * math.pi * rmax**2
    np.testing.assert_allclose(w.channels["RtAeroCt"], fx / (q * v**2), rtol=1e-12)
    # skew = the 5 deg tilt (level platform, horizontal wind)
    np.testing.assert_allclose(w.channels["RtSkew"], 5.0 * math.pi / 180, atol=2e-3)


def test_element_loads_integrate_to_rotor_loads():
    """An unconed rotor without aerodynamic-centre offsets: the thrust is the trapezoidal
    integral of every blade's Fx along the span (the Line2 carriage of the loads)."""
    rot = make_rotor(precone_deg=0.0, output_nodes=list(range(1, 20)), output_blades=3)
    bl = rot.blade
    rot.blade = dataclasses.replace(bl, crv_ac=0.0 * bl.crv_ac, swp_ac=0.0 * bl.swp_ac)
    rot._geometry = rot._build_geometry()
    w = rot.wrench(0.0, spin_kin([0.3]), env())
    span = rot.blade.span
    total = 0.0
    torque = 0.0
    for k in range(3):
        fx = np.array([w.channels[f"B{k + 1}N{i}Fx"][0] for i in range(1, 20)])
        fy = np.array([w.channels[f"B{k + 1}N{i}Fy"][0] for i in range(1, 20)])
        total += np.trapezoid(fx, span) if hasattr(np, "trapezoid") else np.trapz(fx, span)
        r = 1.5 + span
        # torque of the in-plane loads: integral of r Fy with Fy linear between the nodes
        seg = np.diff(span)
        torque += np.sum(seg / 6 * ((2 * r[:-1] + r[1:]) * fy[:-1] + (r[:-1] + 2 * r[1:]) * fy[1:]))
    assert w.channels["RtAeroFxh"][0] == pytest.approx(total, rel=1e-12)
    # Cm moments about the pitch axes add nothing about the shaft; the torque is r x Fy
    assert w.channels["RtAeroMxh"][0] == pytest.approx(torque, rel=1e-9)


def test_yaw_symmetry():
    """Without tilt, shear or platform motion, turning the picture by 180 deg about the shaft
    maps yaw +g at azimuth psi onto yaw -g at azimuth psi + 180 deg: the hub-frame loads (which
    turn with the rotor) are equal."""
    rot = make_rotor(shaft_axis=[1.0, 0.0, 0.0], blade1_axis=[0.0, 0.0, 1.0])
    global C1
    c1_old = C1
    C1 = np.array([1.0, 0.0, 0.0])
    try:
        g = math.radians(15.0)
        a = np.array([0.2, 1.1])
        w_p = rot.wrench(0.0, spin_kin(a + math.pi, apex=(0.0, 0.0, 90.0)), env(heading=g))
        w_m = rot.wrench(0.0, spin_kin(a, apex=(0.0, 0.0, 90.0)), env(heading=-g))
    finally:
        C1 = c1_old
    for name in ("RtAeroFxh", "RtAeroFyh", "RtAeroFzh", "RtAeroMxh", "RtAeroMyh", "RtAeroMzh"):
        scale = np.abs(w_p.channels[name]).max() + 1.0
        np.testing.assert_allclose(w_p.channels[name], w_m.channels[name], atol=1e-9 * scale)
    assert np.all(w_p.channels["RtSkew"] > 0.2)


def test_batch_bit_identity_and_compiled_equals_python():
    from floatwind.environment.compiled import wind_params

    rot = make_rotor()
    e = env(alpha=0.14)
    kin = spin_kin([0.0, 0.5, 2.0, 4.0], v=(0.3, -0.2, 0.1))
    cl = rot.compiled(e, 4)
    B, N = 4, 1
    f = np.zeros((B, N, 3))
    m = np.zeros((B, N, 3))
    st = cl.kernel(cl.params, 0.0, body_kinematics(kin), np.empty((B, 0)), np.empty((B, 0)), f, m,
                   np.zeros((B, N, 0, 0)))  # fmt: skip
    assert st == 0
    w = rot.wrench(0.0, kin, e)
    # the Python form to round-off, not bit for bit: NumPy's power (the sheared wind) runs its
    # own SIMD code on AVX-512 hosts, an ulp from the C library's pow numba calls (seen on a
    # Zen 5 host: 2 of 12 forces 1 ulp apart); the batch members below are compared bit for bit
    np.testing.assert_allclose(f, w.force, rtol=1e-14, atol=0.0)
    np.testing.assert_allclose(m, w.moment, rtol=1e-14, atol=1e-14 * np.abs(m).max())
    for b in range(B):
        one = Kinematics(0.0, kin.r_G_g[b : b + 1], kin.R_b2g[b : b + 1], kin.v_G_g[b : b + 1],
                         kin.w_b_g[b : b + 1], kin.cm_b)  # fmt: skip
        p1 = rot.compiled(e, 1).params._replace(wind=wind_params(e.wind, 1))
        f1 = np.zeros((1, N, 3))
        m1 = np.zeros((1, N, 3))
        cl.kernel(p1, 0.0, body_kinematics(one), np.empty((1, 0)), np.empty((1, 0)), f1, m1,
                  np.zeros((1, N, 0, 0)))  # fmt: skip
        np.testing.assert_array_equal(f1[0], f[b])
        np.testing.assert_array_equal(m1[0], m[b])
    py = kr.rotor_solve.py_func
    g = rot.geometry
    bk = body_kinematics(kin)
    pos, vel, apex = kr.rotor_points.py_func(g, bk)
    wind = e.wind.velocity(0.0, pos)
    y0 = np.empty((4, 0))
    at = kr.BladeNodes(pos=pos, vel=vel, apex=apex, wind=wind, dpitch=np.zeros((4, 3)))
    fp, mp, _h, _e, _s = py(g, rot._options(e), rot.airfoils, bk, at, N,
                            kb.bemt_state(3, 19, batch=4), kr.InflowStates(rot._dbemt(), y0, y0, 0))  # fmt: skip
    np.testing.assert_allclose(fp, f, rtol=1e-12, atol=1e-6)
    np.testing.assert_allclose(mp, m, rtol=1e-12, atol=1e-5)


def test_blade_on_its_own_pitched_body_equals_blade_in_hub():
    """Blade 1 on a body of its own whose frame is the pitched root frame (the importer's split
    topology) gives the same loads as blade 1 fixed in the hub body at the same pitch."""
    pitch = math.radians(4.0)
    one = make_rotor(pitch_deg=4.0)
    g = one.geometry
    # body 1 = blade 1: origin at the root, axes (x_p, y_p, z_1) of the hub frame
    z1 = g.frames_b[0, 2]
    x1, y1 = g.frames_b[0, 0], g.frames_b[0, 1]
    xp = math.cos(pitch) * x1 - math.sin(pitch) * y1
    yp = math.sin(pitch) * x1 + math.cos(pitch) * y1
    Rb = np.column_stack([xp, yp, z1])  # blade frame -> hub frame
    root = 1.5 * z1
    two = BemRotor.from_config(
        rotor_cfg(pitch_deg=4.0, blade_bodies=["blade1", "rotor", "rotor"]),
        body_index={"rotor": 0, "blade1": 1},
        field="loads[0]",
    )
    k1 = spin_kin([0.3, 1.7])
    B = 2
    r = np.empty((B, 2, 3))
    R = np.empty((B, 2, 3, 3))
    v = np.empty((B, 2, 3))
    w = np.empty((B, 2, 3))
    for b in range(B):
        Rh = k1.R_b2g[b, 0]
        r[b, 0] = k1.r_G_g[b, 0]
        R[b, 0] = Rh
        r[b, 1] = k1.r_G_g[b, 0] + Rh @ root
        R[b, 1] = Rh @ Rb
        w[b] = k1.w_b_g[b, 0]
        v[b, 0] = k1.v_G_g[b, 0]
        v[b, 1] = k1.v_G_g[b, 0] + np.cross(k1.w_b_g[b, 0], Rh @ root)
    k2 = Kinematics(0.0, r, R, v, w, np.zeros((2, 3)))
    w1 = one.wrench(0.0, k1, env())
    w2 = two.wrench(0.0, k2, env())
    for name in ("RtAeroFxh", "RtAeroMxh", "RtAeroMyh", "B1N5Alpha", "B1N7AxInd"):
        np.testing.assert_allclose(w2.channels[name], w1.channels[name], rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(w2.force.sum(axis=1), w1.force[:, 0], rtol=1e-9, atol=1e-6)


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"output_nodes": [20]}, "loads[0].output_nodes", "outside"),
        ({"output_blades": 4}, "loads[0].output_blades", "expected 0..3"),
        ({"blade_bodies": ["rotor"]}, "loads[0].blade_bodies", "one per blade"),
        ({"blade_bodies": ["rotor", "rotor", "hub"]}, "loads[0].blade_bodies[2]", "unknown body"),
        (
            {"blade1_axis": [1.0, 0.0, 0.0], "shaft_axis": [1.0, 0.0, 0.0]},
            "loads[0].blade1_axis",
            "parallel",
        ),  # fmt: skip
        ({"airfoils": []}, "loads[0].airfoils", "list"),
    ],
)
def test_bad_input_names_the_field(change, field, words):
    with pytest.raises(CaseError) as exc:
        make_rotor(**change)
    assert exc.value.field == field
    assert words in str(exc.value)


def test_airfoil_id_beyond_the_files():
    with pytest.raises(CaseError, match="beyond"):
        make_rotor(airfoils=[str(REF09 / "Airfoils" / f"{a}.dat") for a in AIRFOILS[:5]])


def test_element_columns_exist():
    for _name, (col, _u, _d) in NODE_CHANNELS.items():
        assert hasattr(kr, col) or hasattr(kb, col)


def test_warm_started_solves_stay_on_the_fresh_solution_and_batch_bits():
    """The compiled kernel keeps each member's last inflow angles (AeroDyn's constraint state)
    and starts the next solve there: over a turning rotor its loads stay within the residual
    tolerance of a fresh solve, and a member's sequence is the same bits alone and in a batch."""
    rot = make_rotor()
    e = env(alpha=0.14)
    cl2 = rot.compiled(e, 2)
    one = [rot.compiled(e, 1) for _ in range(2)]
    z0 = np.empty((2, 0))
    z1 = np.empty((1, 0))
    for i in range(30):
        a = 0.3 + 0.0059 * i
        kin = spin_kin([a, a + 1.0], v=(0.1 * math.sin(i), 0.0, 0.0))
        f = np.zeros((2, 1, 3))
        m = np.zeros((2, 1, 3))
        cl2.kernel(cl2.params, 0.0, body_kinematics(kin), z0, z0, f, m, np.zeros((2, 1, 0, 0)))
        fresh = rot.wrench(0.0, kin, e)
        np.testing.assert_allclose(f, fresh.force, rtol=1e-7, atol=1e-3)
        np.testing.assert_allclose(m, fresh.moment, rtol=1e-7, atol=1e-2)
        for b in range(2):
            kb1 = Kinematics(0.0, kin.r_G_g[b : b + 1], kin.R_b2g[b : b + 1], kin.v_G_g[b : b + 1],
                             kin.w_b_g[b : b + 1], kin.cm_b)  # fmt: skip
            f1 = np.zeros((1, 1, 3))
            m1 = np.zeros((1, 1, 3))
            one[b].kernel(one[b].params, 0.0, body_kinematics(kb1), z1, z1, f1, m1,
                          np.zeros((1, 1, 0, 0)))  # fmt: skip
            np.testing.assert_array_equal(f1[0], f[b])
            np.testing.assert_array_equal(m1[0], m[b])
