"""Morison on leaning cylinders (Wang 3.22-3.26, 4.18-4.19) with the added-mass matrix."""

from __future__ import annotations

import numpy as np
import pytest

from floatwind.environment import Environment
from floatwind.errors import CaseError
from floatwind.loads.base import Kinematics
from floatwind.loads.morison import AxialEnd, MorisonMember, MorisonMembers
from floatwind.rotation import euler123_matrix

RHO = 1025.0
CM_B = np.array([0.0, 0.0, -89.9155])


class UniformCurrent:
    """Fake sea: flat surface and a uniform current."""

    n_realizations = 1

    def __init__(self, u):
        self.u = np.asarray(u, float)

    def elevation(self, t, xy):
        return np.zeros(np.shape(xy)[:-1])

    def kinematics(self, t, points):
        vel = np.broadcast_to(self.u, np.shape(points)).copy()
        vel[np.asarray(points)[..., 2] > 0.0] = 0.0
        return vel, np.zeros(np.shape(points))


class AiryWave:
    """Fake sea: one deep-water Airy wave along +x, kinematics extrapolated with exp(kz)."""

    n_realizations = 1

    def __init__(self, amplitude, period, g=9.80665):
        self.a = amplitude
        self.w = 2 * np.pi / period
        self.k = self.w**2 / g

    def elevation(self, t, xy):
        return self.a * np.cos(self.k * xy[..., 0] - self.w * t)

    def kinematics(self, t, p):
        ph = self.k * p[..., 0] - self.w * t
        ez = np.exp(self.k * p[..., 2]) * self.a * self.w
        zero = np.zeros_like(ph)
        vel = np.stack([ez * np.cos(ph), zero, ez * np.sin(ph)], axis=-1)
        acc = np.stack([ez * self.w * np.sin(ph), zero, -ez * self.w * np.cos(ph)], axis=-1)
        above = p[..., 2] > self.elevation(t, p[..., :2])
        vel[above] = 0.0
        acc[above] = 0.0
        return vel, acc


def env_with(sea):
    return Environment(rho_water=RHO, sea=sea)


def make_kin(R, origin, cm_b=CM_B, v_G=None, w=None):
    R = np.asarray(R, float).reshape(-1, 3, 3)
    B = R.shape[0]
    origin = np.broadcast_to(np.asarray(origin, float), (B, 3))
    r_G = origin + np.einsum("bij,j->bi", R, cm_b)
    v_G = np.zeros((B, 3)) if v_G is None else np.broadcast_to(np.asarray(v_G, float), (B, 3))
    w = np.zeros((B, 3)) if w is None else np.broadcast_to(np.asarray(w, float), (B, 3))
    return Kinematics(0.0, r_G[:, None], R[:, None], v_G[:, None], w[:, None], cm_b[None])


def oc3_members(ca=1.0, cd=0.6, strip=1.0):
    def mem(za, zb, da, db):
        n = int(round(abs(zb - za) / strip))
        return MorisonMember(
            end_a=np.array([0, 0, za]),
            end_b=np.array([0, 0, zb]),
            diameter_a=da,
            diameter_b=db,
            cd=cd,
            ca=ca,
            n_strips=n,
        )

    return [mem(-120, -12, 9.4, 9.4), mem(-12, -4, 9.4, 6.5), mem(-4, 10, 6.5, 6.5)]


def test_oc3_added_mass_matches_analytic_integral():
    """A = rho C_a pi D^2/4 integrated over the wetted hull (normal directions only)."""
    load = MorisonMembers(body=0, members=oc3_members())
    w = load.wrench(0.0, make_kin(np.eye(3), np.zeros(3)), env_with(UniformCurrent([0, 0, 0])))
    A = w.added_mass[0, 0]
    zG = CM_B[2]

    def poly_integral(z0, z1, d0, d1, power):
        # int rho pi/4 D(z)^2 (z - zG)^power dz, D linear: exact with numpy polynomials
        D = np.polynomial.Polynomial([d0 - (d1 - d0) * z0 / (z1 - z0), (d1 - d0) / (z1 - z0)])
        arm = np.polynomial.Polynomial([-zG, 1.0]) ** power
        integrand = (RHO * np.pi / 4) * D * D * arm
        prim = integrand.integ()
        return prim(z1) - prim(z0)

    pieces = [(-120, -12, 9.4, 9.4), (-12, -4, 9.4, 6.5), (-4, 0, 6.5, 6.5)]
    m0 = sum(poly_integral(*p, 0) for p in pieces)
    m1 = sum(poly_integral(*p, 1) for p in pieces)
    m2 = sum(poly_integral(*p, 2) for p in pieces)
    assert A[0, 0] == pytest.approx(m0, rel=1e-12)
    assert A[1, 1] == pytest.approx(m0, rel=1e-12)
    assert A[2, 2] == pytest.approx(0.0, abs=1e-12 * m0)  # no axial added mass on the strips
    assert A[0, 4] == pytest.approx(m1, rel=1e-3)  # surge-pitch coupling about the CM
    assert A[1, 3] == pytest.approx(-m1, rel=1e-3)
    assert A[4, 4] == pytest.approx(m2, rel=1e-3)  # midpoint rule on 1 m strips
    assert A[3, 3] == pytest.approx(m2, rel=1e-3)
    assert A[5, 5] == pytest.approx(0.0, abs=1e-12 * m2)
    assert np.allclose(A, A.T, rtol=1e-12, atol=1e-6)
    assert np.all(np.linalg.eigvalsh(A) > -1e-6 * m2)
    # OC3 total (surge) added mass ~ rho V_wet for C_a = 1
    assert m0 == pytest.approx(RHO * 8029.21 - RHO * np.pi / 4 * 6.5**2 * 0.0, rel=1e-4)


def test_added_mass_rotates_with_fully_submerged_member():
    member = MorisonMember(
        end_a=np.array([2.0, -1.0, -100.0]),
        end_b=np.array([1.0, 3.0, -40.0]),
        diameter_a=8.0,
        diameter_b=5.0,
        n_strips=30,
        axial_b=AxialEnd(cd=4.0, ca=0.8, diameter=12.0),
    )
    load = MorisonMembers(body=0, members=[member])
    env = env_with(UniformCurrent([0, 0, 0]))
    A0 = load.wrench(0.0, make_kin(np.eye(3), np.zeros(3)), env).added_mass[0, 0]
    R = euler123_matrix(np.array([0.4, -0.3, 1.1]))
    A1 = load.wrench(0.0, make_kin(R, [3.0, 1.0, -2.0]), env).added_mass[0, 0]
    T = np.zeros((6, 6))
    T[:3, :3] = T[3:, 3:] = R
    assert np.allclose(A1, T @ A0 @ T.T, rtol=1e-10, atol=1e-6 * np.abs(A0).max())


def test_added_mass_plus_centripetal_equals_full_strip_acceleration():
    """force - A [a_G; dw] = -sum m P (a_G + dw x r + w x (w x r)) (Wang 3.22, 4.19)."""
    load = MorisonMembers(body=0, members=oc3_members(cd=0.0))
    env = env_with(UniformCurrent([0, 0, 0]))
    R = euler123_matrix(np.array([0.2, 0.35, 0.1]))
    w_g = np.array([0.05, -0.08, 0.02])
    kin = make_kin(R, [1.0, 0.0, -0.5], w=w_g)
    out = load.wrench(0.0, kin, env)
    a_G = np.array([0.3, -0.1, 0.2])
    dw = np.array([0.01, 0.02, -0.03])
    total = (
        np.concatenate([out.force[0, 0], out.moment[0, 0]]) - out.added_mass[0, 0] @ np.r_[a_G, dw]
    )
    # independent: fine strips with explicit wetted length (surface at z = 0)
    s = np.linspace(-120, 10, 130001)
    zc = 0.5 * (s[1:] + s[:-1])
    ds = np.diff(s)
    D = np.interp(zc, [-120, -12, -4, 10], [9.4, 9.4, 6.5, 6.5])
    pts = kin.r_G_g[0, 0] + (R @ (np.column_stack([0 * zc, 0 * zc, zc]) - CM_B).T).T
    wet = pts[:, 2] < 0
    r = pts - kin.r_G_g[0, 0]
    a_s = a_G + np.cross(dw, r) + np.cross(w_g, np.cross(w_g, r))
    e = R[:, 2]
    a_n = a_s - (a_s @ e)[:, None] * e
    f = -(RHO * np.pi / 4 * D**2 * ds * wet)[:, None] * a_n
    ref = np.concatenate([f.sum(0), np.cross(r, f).sum(0)])
    assert np.allclose(total[:3], ref[:3], rtol=2e-3)
    assert np.allclose(total[3:], ref[3:], rtol=2e-3)


def test_drag_in_uniform_current_on_leaning_cylinder_and_galilean_invariance():
    U = np.array([1.5, 0.4, 0.0])
    member = MorisonMember(
        end_a=np.array([0, 0, -50.0]),
        end_b=np.array([0, 0, -10.0]),
        diameter_a=6.0,
        diameter_b=6.0,
        cd=0.8,
        ca=1.0,
        n_strips=8,
    )
    load = MorisonMembers(body=0, members=[member])
    env = env_with(UniformCurrent(U))
    R = euler123_matrix(np.array([0.0, 0.4, 0.0]))
    kin = make_kin(R, np.zeros(3), cm_b=np.zeros(3))
    out = load.wrench(0.0, kin, env)
    e = R[:, 2]
    vn = U - (U @ e) * e
    expected = 0.5 * RHO * 0.8 * 6.0 * 40.0 * np.linalg.norm(vn) * vn
    assert np.allclose(out.force[0, 0], expected, rtol=1e-12)
    assert np.linalg.norm(out.force[0, 0]) < 0.5 * RHO * 0.8 * 6.0 * 40.0 * U @ U  # projection
    # a body drifting with the current feels no drag
    kin = make_kin(R, np.zeros(3), cm_b=np.zeros(3), v_G=U)
    assert np.allclose(load.wrench(0.0, kin, env).force, 0.0, atol=1e-9)


def test_airy_wave_inertia_and_drag_with_surface_crossing_strip():
    wave = AiryWave(amplitude=2.3, period=10.0)
    k, w, a = wave.k, wave.w, wave.a
    d, D, cm = 100.0, 9.4, 2.0
    member = MorisonMember(
        end_a=np.array([0, 0, -d]),
        end_b=np.array([0, 0, 12.0]),
        diameter_a=D,
        diameter_b=D,
        cd=0.0,
        ca=cm - 1.0,
        n_strips=448,
    )
    load = MorisonMembers(body=0, members=[member])
    kin = make_kin(np.eye(3), np.zeros(3), cm_b=np.zeros(3))
    # node at eta = 0 with maximum acceleration: F = rho Cm A int a_x dz
    t = (np.pi / 2) / w
    fx = load.wrench(t, kin, env_with(wave)).force[0, 0, 0]
    exact = -RHO * cm * np.pi / 4 * D**2 * w**2 * a * (1 - np.exp(-k * d)) / k
    assert fx == pytest.approx(exact, rel=1e-4)
    # crest (eta = a, off the strip grid): drag integrated up to the wave surface
    member_d = MorisonMember(
        end_a=member.end_a,
        end_b=member.end_b,
        diameter_a=D,
        diameter_b=D,
        cd=1.0,
        ca=0.0,
        cm=0.0,
        n_strips=448,
    )
    load_d = MorisonMembers(body=0, members=[member_d], strip_outputs=[(0, 0.5)])
    out = load_d.wrench(0.0, kin, env_with(wave))
    exact_d = 0.5 * RHO * D * (w * a) ** 2 * (np.exp(2 * k * a) - np.exp(-2 * k * d)) / (2 * k)
    assert out.force[0, 0, 0] == pytest.approx(exact_d, rel=1e-4)
    # the same with the strip grid shifted: continuity of the wetted-length treatment
    coarse = MorisonMember(
        end_a=member.end_a,
        end_b=member.end_b,
        diameter_a=D,
        diameter_b=D,
        cd=1.0,
        ca=0.0,
        cm=0.0,
        n_strips=37,
    )
    fc = MorisonMembers(body=0, members=[coarse]).wrench(0.0, kin, env_with(wave)).force
    assert fc[0, 0, 0] == pytest.approx(exact_d, rel=5e-3)  # midpoint rule on 3 m strips
    assert {"M1N1FDxi", "M1N1FIzi", "M1N1Vxi", "M1N1STVyi", "M1N1Wet"} <= set(out.channels)
    assert set(out.channels) == set(load_d.channel_info())


def test_axis_modes_and_axial_heave_plate():
    members = oc3_members()
    bottom = MorisonMember(
        end_a=np.array([0, 0, -121.0]),
        end_b=np.array([0, 0, -120.0]),
        diameter_a=9.4,
        diameter_b=9.4,
        cd=0.0,
        ca=0.0,
        n_strips=1,
        axial_a=AxialEnd(cd=4.8, ca=1.0, diameter=20.0),
    )
    inst = MorisonMembers(body=0, members=members + [bottom])
    undisp = MorisonMembers(body=0, members=members + [bottom], axis="undisplaced")
    env = env_with(UniformCurrent([1.0, 0.0, 0.0]))
    kin0 = make_kin(np.eye(3), np.zeros(3), v_G=[0.0, 0.0, 0.4])
    w_i, w_u = inst.wrench(0.0, kin0, env), undisp.wrench(0.0, kin0, env)
    assert np.allclose(w_i.force, w_u.force) and np.allclose(w_i.added_mass, w_u.added_mass)
    # heave plate: axial drag on the heave velocity and axial added mass
    area = np.pi * 10.0**2
    assert w_i.force[0, 0, 2] == pytest.approx(-0.5 * RHO * 4.8 * area * 0.4**2, rel=1e-12)
    assert w_i.added_mass[0, 0, 2, 2] == pytest.approx(RHO * 2 / 3 * np.pi * 10.0**3, rel=1e-12)
    kin = make_kin(euler123_matrix(np.array([0.0, 0.3, 0.0])), np.zeros(3))
    assert not np.allclose(inst.wrench(0.0, kin, env).force, undisp.wrench(0.0, kin, env).force)


def test_batch_equals_single_and_channels():
    load = MorisonMembers(body=1, members=oc3_members(), strip_outputs=[(2, 0.1), (0, 0.9)])
    wave = AiryWave(amplitude=1.0, period=8.0)
    env = env_with(wave)
    ang = np.array([[0.0, 0.1, 0.0], [0.3, -0.2, 0.5], [0.0, 0.4, 0.0]])
    R = euler123_matrix(ang)
    o = np.array([[0.0, 0, 0], [2.0, -1, 0.5], [-3, 0, -1]])
    v = np.array([[0.1, 0, 0], [0, 0.2, -0.1], [0.3, 0.1, 0]])
    w = np.array([[0, 0.01, 0], [0.02, 0, 0.01], [0, -0.03, 0]])

    def two_body(kin):
        # body 0 is a dummy; Morison acts on body 1
        cat = lambda x: np.concatenate([np.zeros_like(x), x], axis=1)  # noqa: E731
        return Kinematics(
            kin.t,
            cat(kin.r_G_g),
            np.concatenate([kin.R_b2g, kin.R_b2g], 1),
            cat(kin.v_G_g),
            cat(kin.w_b_g),
            np.concatenate([np.zeros((1, 3)), kin.cm_b]),
        )

    wb = load.wrench(3.0, two_body(make_kin(R, o, v_G=v, w=w)), env)
    assert np.all(wb.force[:, 0] == 0.0) and np.all(wb.added_mass[:, 0] == 0.0)
    for b in range(3):
        w1 = load.wrench(3.0, two_body(make_kin(R[b], o[b], v_G=v[b], w=w[b])), env)
        assert np.allclose(wb.force[b], w1.force[0], rtol=1e-12)
        assert np.allclose(wb.moment[b], w1.moment[0], rtol=1e-12)
        assert np.allclose(wb.added_mass[b], w1.added_mass[0], rtol=1e-12)
        for name in w1.channels:
            assert np.allclose(wb.channels[name][b], w1.channels[name][0])
    assert set(wb.channels) == set(load.channel_info())


def test_from_config_and_bad_input():
    cfg = {
        "type": "morison",
        "body": "platform",
        "cd": 0.6,
        "ca": 1.0,
        "strip_length": 0.5,
        "members": [
            {
                "end_a": [0, 0, -120],
                "end_b": [0, 0, -12],
                "diameter": 9.4,
                "axial_a": {"cd": 4.8, "ca": 1.0},
            },
            {"end_a": [0, 0, -12], "end_b": [0, 0, -4], "diameter_a": 9.4, "diameter_b": 6.5},
            {"end_a": [0, 0, -4], "end_b": [0, 0, 10], "diameter": 6.5, "n_strips": 7},
        ],
        "axis": "undisplaced",
        "strip_outputs": [{"member": 0, "location": 0.5}],
    }
    load = MorisonMembers.from_config(cfg, body_index={"platform": 0}, field="loads[0]")
    assert load.n_strips == 216 + 16 + 7 and load.axis == "undisplaced"
    assert load.members[0].cm is None and load.strip_cm[0] == 2.0
    with pytest.raises(CaseError, match="did you mean 'instantaneous'") as err:
        MorisonMembers.from_config(
            dict(cfg, axis="instantanous"), body_index={"platform": 0}, field="loads[0]"
        )
    assert err.value.field == "loads[0].axis"
    bad = dict(cfg, members=[{"end_a": [0, 0, -1], "end_b": [0, 0, -1], "diameter": 1.0}])
    with pytest.raises(CaseError, match="zero-length"):
        MorisonMembers.from_config(bad, body_index={"platform": 0}, field="loads[0]")
    bad = dict(
        cfg, members=[{"end_a": [0, 0, -9], "end_b": [0, 0, -1], "diameter": 1.0, "cd": -0.1}]
    )
    with pytest.raises(CaseError, match=">= 0") as err:
        MorisonMembers.from_config(bad, body_index={"platform": 0}, field="loads[0]")
    assert err.value.field == "loads[0].members[0].cd"
    bad = dict(cfg, members=[{"end_a": [0, 0, -9], "end_b": [0, 0, -1], "diametr": 1.0}])
    with pytest.raises(CaseError, match="did you mean 'diameter'"):
        MorisonMembers.from_config(bad, body_index={"platform": 0}, field="loads[0]")
    with pytest.raises(CaseError, match="member index"):
        MorisonMembers.from_config(
            dict(cfg, strip_outputs=[{"member": 5}]), body_index={"platform": 0}, field="loads[0]"
        )
    with pytest.raises(CaseError, match="integer >= 1"):
        MorisonMembers(
            body=0, members=[MorisonMember(np.zeros(3), np.ones(3), 1.0, 1.0, n_strips=0)]
        )
