"""MBDM dynamic analysis (issue 19, Leble seed 001 sec. 4-6, 10.1, 10.3): equations of motion
(67)/(69), coordinate partitioning (sec. 5) and Baumgarte with RK4, spring-damper lines (84, 88);
body on a spring against (93a-c), order of convergence, slider-crank with the gas force (94)
against a one-degree-of-freedom Lagrangian model, energy balance, constraint drift."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from floatwind.multibody.mbdm import Joint, System, quaternion_from_angles123
from floatwind.multibody.mbdm.coordinates import A_matrix, pdot_from_omega
from floatwind.multibody.mbdm.dynamics import (
    DynamicSystem,
    accelerations,
    assemble,
    dynamic_analysis,
    energy,
    partition,
)
from floatwind.multibody.mbdm.lines import SpringDamper, line_loads

# --- body on a spring, sec. 10.1, Tables 22-23 ---------------------------------------------------

M_BODY, K_SPRING, GRAV = 60.0, 10000.0, 9.81


def _spring_system(fairlead=(0.0, 0.0, 0.5), b=0.0, inertia=None):
    line = SpringDamper(0, anchor=(0.0, 0.0, 2.0), fairlead=fairlead, l0=1.5, k=K_SPRING, b=b)
    J = np.eye(3) * 10.0 if inertia is None else inertia
    return DynamicSystem(System(("body",), ()), [M_BODY], [J], gravity=(0, 0, -GRAV),
                         lines=(line,))  # fmt: skip


Q_REST = np.array([[0.0, 0, 0, 1, 0, 0, 0]])


def _analytic(t):
    """Eq. (93a-c)."""
    w = np.sqrt(K_SPRING / M_BODY)
    a = -M_BODY * GRAV / K_SPRING
    return a * (1 - np.cos(w * t)), a * w * np.sin(w * t), -GRAV * np.cos(w * t)


@pytest.mark.parametrize("method,form", [("partitioning", "p"), ("baumgarte", "omega")])
def test_body_on_spring_matches_eq93(method, form):
    """One whole period (2 pi sqrt(m / k) = 0.487 s) on the NumPy path against (93a-c)."""
    res = dynamic_analysis(_spring_system(), Q_REST, np.zeros((1, 7)), 0.5, 1e-3,
                           method=method, form=form)  # fmt: skip
    z, zd, zdd = _analytic(res.time)
    assert res.time[-1] == pytest.approx(0.5)
    assert np.max(np.abs(res.q[:, 0, 2] - z)) < 1e-6  # measured 1.5e-10 m
    assert np.max(np.abs(res.qdot[:, 0, 2] - zd)) < 1e-6
    assert np.max(np.abs(res.qddot[:, 0, 2] - zdd)) < 1e-6
    assert np.max(np.abs(res.q[:, 0, :2])) < 1e-12  # stays on the axis, unrotated
    assert np.max(np.abs(res.q[:, 0, 3:] - Q_REST[0, 3:])) < 1e-12
    assert np.max(res.drift_position) < 1e-12 and np.max(res.drift_velocity) < 1e-12


def test_rk4_observed_order_body_on_spring():
    errs = []
    dts = (0.02, 0.01, 0.005)
    for dt in dts:
        res = dynamic_analysis(_spring_system(), Q_REST, np.zeros((1, 7)), 1.0, dt)
        errs.append(np.max(np.abs(res.q[:, 0, 2] - _analytic(res.time)[0])))
    order = np.log2(np.array(errs[:-1]) / np.array(errs[1:]))
    assert np.all(np.abs(order - 4.0) < 0.1), (errs, order)  # measured 4.01, 4.01


def test_line_loads_are_the_virtual_work_of_the_spring_eq88():
    """F^A . dr + n'^A . dpi' = -dV for V = k (l - l0)^2 / 2 (eqs. 85-88), at a random pose."""
    rng = np.random.default_rng(3)
    line = SpringDamper(0, (0.3, -0.2, 2.0), (0.2, 0.1, 0.5), l0=1.2, k=500.0)
    p = rng.normal(size=4)
    q = np.concatenate([rng.normal(size=3) * 0.2, p / np.linalg.norm(p)])[None, :]
    F, n, f = line_loads((line,), q, np.zeros((1, 7)))

    def V(r, A):
        d = r + A @ np.array(line.fairlead) - np.array(line.anchor)
        return 0.5 * line.k * (np.linalg.norm(d) - line.l0) ** 2

    r0, A0 = q[0, :3], A_matrix(q[0, 3:])
    h = 1e-6
    for k in range(3):
        e = np.eye(3)[k]
        dV = (V(r0 + h * e, A0) - V(r0 - h * e, A0)) / (2 * h)
        assert F[0, k] == pytest.approx(-dV, rel=1e-7)
        R = A_matrix(np.r_[1.0, 0.5 * h * e])  # body-frame rotation by h about e (eq. 48)
        Rm = A_matrix(np.r_[1.0, -0.5 * h * e])
        dV = (V(r0, A0 @ R) - V(r0, A0 @ Rm)) / (2 * h)
        assert n[0, k] == pytest.approx(-dV, rel=1e-6, abs=1e-6)
    # damping: f = k (l - l0) + b ldot (eq. 84), ldot from eq. (83)
    damped = SpringDamper(0, line.anchor, line.fairlead, line.l0, line.k, b=40.0)
    qd = np.concatenate([rng.normal(size=3), pdot_from_omega(q[0, 3:], rng.normal(size=3))])
    fd = line_loads((damped,), q, qd[None, :])[2][0]

    def length(t):
        qq = q[0] + t * qd
        return np.linalg.norm(qq[:3] + A_matrix(qq[3:]) @ np.array(line.fairlead) - line.anchor)

    ldot = (length(h) - length(-h)) / (2 * h)
    assert fd == pytest.approx(f[0] + 40.0 * ldot, rel=1e-6)


def test_forms_67_and_69_agree_and_energy_is_conserved():
    """An offset fairlead couples rotation; eq. (67) and (69) give the same accelerations, and
    kinetic + gravity + spring energy stays constant (no damping) under both integrators."""
    J = np.array([[10.0, 1.0, 0.5], [1.0, 14.0, -0.8], [0.5, -0.8, 8.0]])
    ds = _spring_system(fairlead=(0.3, -0.2, 0.5), inertia=J)
    rng = np.random.default_rng(7)
    for _ in range(5):
        p = rng.normal(size=4)
        q = np.concatenate([rng.normal(size=3) * 0.1, p / np.linalg.norm(p)])[None, :]
        qd = np.concatenate([rng.normal(size=3), pdot_from_omega(q[0, 3:], rng.normal(size=3) * 3)])
        a_p = accelerations(ds, q, qd[None, :], 0.0, form="p")[0]
        a_w = accelerations(ds, q, qd[None, :], 0.0, form="omega")[0]
        assert np.max(np.abs(a_p - a_w)) < 1e-10 * max(1.0, np.max(np.abs(a_p)))
    q0 = Q_REST.copy()
    qd0 = np.concatenate([[0.1, 0, 0], pdot_from_omega(q0[0, 3:], [1.0, -2.0, 3.0])])[None, :]
    line = ds.lines[0]
    for method in ("partitioning", "baumgarte"):
        res = dynamic_analysis(ds, q0, qd0, 0.5, 1e-3, method=method, save_every=10)
        kin, pot = energy(ds, res.q, res.qdot)
        d = (res.q[:, 0, :3] + np.einsum("tij,j->ti", A_matrix(res.q[:, 0, 3:]), line.fairlead)
             - line.anchor)  # fmt: skip
        spring = 0.5 * line.k * (np.linalg.norm(d, axis=1) - line.l0) ** 2
        total = kin + pot + spring
        assert np.max(np.abs(total - total[0])) < 1e-7 * np.max(kin)  # measured ~1e-10
        assert np.max(res.drift_position) < 1e-9


def test_partitioning_picks_the_angle_of_the_pendulum_sec51():
    """Eq. (75), d = 0.5: already row-reduced, phi is independent (sec. 5.1)."""
    d, phi = 0.5, 0.3
    J = np.array([[1.0, 0.0, -d * np.cos(phi)], [0.0, 1.0, d * np.sin(phi)]])
    u, v = partition(J)
    assert list(u) == [0, 1] and list(v) == [2]
    # full pivoting takes the largest entries: here z is dependent on x
    u, v = partition(np.array([[0.1, 0.0, 2.0]]))
    assert list(u) == [2] and list(v) == [0, 1]


def test_repartitioning_compound_pendulum():
    """A pendulum swinging through pi: the full-pivoting choice of the independent coordinate
    changes during the run (sec. 5), and the angle matches the 1-dof pendulum."""
    m, arm, jz, g = 2.0, 1.0, 0.5, 9.81
    pivot = Joint("R", (0, None), p1=(-arm, 0, 0), q1=(-arm, 0, 1), r1=(0, 0, 0), p2=(0, 0, 0),
                  q2=(0, 0, 1), name="pivot")  # fmt: skip
    ds = DynamicSystem(System(("bob",), (pivot,)), [m], [np.diag([0.3, 0.4, jz])],
                       gravity=(0, -g, 0))  # fmt: skip
    q0 = np.array([[arm, 0, 0, 1, 0, 0, 0.0]])
    # released horizontal, it reaches the far side (-pi) after half its period, 1.32 s
    res = dynamic_analysis(ds, q0, np.zeros((1, 7)), 1.5, 2e-3, save_every=5)
    th = np.unwrap(2 * np.arctan2(res.q[:, 0, 6], res.q[:, 0, 3]))
    sol = solve_ivp(lambda t, y: [y[1], -m * g * arm * np.cos(y[0]) / (jz + m * arm * arm)],
                    (0, 1.5), [0.0, 0.0], method="DOP853", rtol=1e-13, atol=1e-13,
                    t_eval=res.time)  # fmt: skip
    assert np.max(np.abs(th - sol.y[0])) < 1e-8  # measured 1.5e-10 rad
    assert th.min() < -3.1  # swings through pi
    assert len({tuple(v) for v in res.independent}) >= 2  # re-partitioned: x and y
    assert np.max(res.drift_position) < 1e-12


# --- slider-crank dynamic case, sec. 10.3, Tables 27-28, eq. (94) ------------------------------

R_CRANK, L_ROD, TORQUE, G_X = 2.0, 3.5, 41450.0, -9.81  # gravity along x as in Listing 5
MASS = (200.0, 35.0, 25.0, 1.0)
J_ZZ = (450.0, 35.0, 0.02, 1.0)


def gas_force(x3, v3):
    """Eq. (94) as Listing 5 applies it: a resisting (negative x) force while the slider
    compresses (v3 > 0), none on the intake stroke."""
    if v3 <= 0.0:
        return 0.0
    if 1.5 <= x3 <= 5.0:
        return -282857.0 / (6.0 - x3) + 62857.0
    if 5.0 < x3 <= 5.5:
        return -110000.0 * (1.0 - np.sin(2.0 * np.pi * (x3 - 5.25)))
    return 0.0


def gas_work_potential(x):
    """Antiderivative of eq. (94) in x (both branches, continuous at x = 5)."""
    x = np.minimum(x, 5.5)
    xa = np.minimum(x, 5.0)
    a = 282857.0 * np.log(6.0 - xa) + 62857.0 * xa
    c = 1.0 / (2.0 * np.pi)
    b = -110000.0 * ((x - 5.0) + c * (np.cos(2 * np.pi * (x - 5.25)) - np.cos(-0.5 * np.pi)))
    return a + np.where(x > 5.0, b, 0.0)


def _slider_crank():
    # Table 25/26's joints (test_mbdm_kinematics), without the crank driver: the torque drives it
    from tests.test_mbdm_kinematics import _slider_crank_joints

    joints = [j for j in _slider_crank_joints() if j.name != "crank_driver"]

    def applied(t, q, qdot):
        F = np.zeros((4, 3))
        n = np.zeros((4, 3))
        F[2, 0] = gas_force(q[2, 0], qdot[2, 0])  # Listing 5: FA[6] += F
        n[0, 2] = TORQUE
        return F, n

    ds = DynamicSystem(System(("crank", "rod", "slider", "ground"), joints), MASS,
                       [np.eye(3) * j for j in J_ZZ], gravity=(G_X, 0, 0),
                       applied=applied)  # fmt: skip
    # Table 27, the rod's spin 17.1429 written exactly as 60 / 3.5 (crank pin speed / rod length)
    ang = np.array([[0, 0, np.pi], [0, 0, 0], [0, 0, 0], [0, 0, 0]])
    r = np.array([[0, 0, 0], [-0.25, 0, 0], [1.5, 0, 0], [0, 0, 0]])
    q0 = np.concatenate([r, quaternion_from_angles123(ang)], 1)
    w = np.array([[0, 0, 30.0], [0, 0, 60.0 / 3.5], [0, 0, 0], [0, 0, 0]])
    v = np.array([[0, 0, 0], [0, -30.0, 0], [0, 0, 0], [0, 0, 0]])
    qd0 = np.concatenate([v, pdot_from_omega(q0[:, 3:], w)], 1)
    q, qd = assemble(ds.system, q0, qd0)
    assert np.max(np.abs(q - q0)) < 1e-12 and np.max(np.abs(qd - qd0)) < 1e-12
    return ds, q, qd


def lagrangian_crank(t_eval, y0=(np.pi, 30.0)):
    """One degree of freedom, the crank angle phi (crank centre of mass on the bearing):
    slider x = R c + S, S = sqrt(L^2 - R^2 s^2); rod centre (R c + S/2, R s/2), rod angle beta
    with beta' = -R c / S. T = 1/2 M(phi) phidot^2, M = Jc + Jr beta'^2 + mr |G'|^2 + ms x'^2,
    M phiddot + (Jr beta' beta'' + mr G'.G'' + ms x' x'') phidot^2 = Q,
    Q = torque + g_x (mr G_x' + ms x') + F_gas x' ('= d/dphi'). ``y0``: phi, phidot at t_eval[0]."""
    R, L = R_CRANK, L_ROD
    Jc, Jr, mr, ms = J_ZZ[0], J_ZZ[1], MASS[1], MASS[2]

    def rhs(t, y):
        ph, phd = y
        s, c = np.sin(ph), np.cos(ph)
        S = np.sqrt(L * L - R * R * s * s)
        Sp = -R * R * s * c / S
        Spp = -R * R * (c * c - s * s) / S - R**4 * s * s * c * c / S**3
        xp, xpp = -R * s + Sp, -R * c + Spp
        gxp, gxpp, gyp, gypp = -R * s + Sp / 2, -R * c + Spp / 2, R * c / 2, -R * s / 2
        bp = -R * c / S
        bpp = R * s / S - R**3 * s * c * c / S**3
        M = Jc + Jr * bp * bp + mr * (gxp**2 + gyp**2) + ms * xp**2
        C = Jr * bp * bpp + mr * (gxp * gxpp + gyp * gypp) + ms * xp * xpp
        Q = TORQUE + G_X * (mr * gxp + ms * xp) + gas_force(R * c + S, xp * phd) * xp
        return [phd, (Q - C * phd * phd) / M]

    sol = solve_ivp(rhs, (t_eval[0], t_eval[-1]), list(y0), method="DOP853", rtol=1e-13,
                    atol=1e-13, t_eval=t_eval)  # fmt: skip
    return sol.y[0]


def _crank_angle(q):
    p = q[:, 0, 3:]
    return np.unwrap(2.0 * np.arctan2(p[:, 3], p[:, 0]))  # rotation about z


def _check_slider_crank(res, ds, tol_angle, tol_energy):
    phi = _crank_angle(res.q)
    err = np.max(np.abs(phi - lagrangian_crank(res.time)))
    assert err < tol_angle, err
    # energy balance: kinetic + potential change = work of the torque + work of the gas force;
    # the gas work is exact in x: each finished compression stroke does G(5.5) - G(1.5)
    x3, v3 = res.q[:, 2, 0], res.qdot[:, 2, 0]
    strokes = np.cumsum(np.r_[0, (v3[1:] <= 0) & (v3[:-1] > 0)])
    g0, g1 = gas_work_potential(1.5), gas_work_potential(5.5)
    w_gas = strokes * (g1 - g0) + np.where(v3 > 0, gas_work_potential(x3) - g0, 0.0)
    w_torque = TORQUE * (phi - phi[0])
    kin, pot = energy(ds, res.q, res.qdot)
    balance = (kin - kin[0]) + (pot - pot[0]) - w_torque - w_gas
    rel = np.max(np.abs(balance)) / np.max(np.abs(w_torque))
    assert rel < tol_energy, rel
    assert strokes[-1] >= 1  # at least one full compression stroke (x = 5 kink, TDC, BDC)
    return err, rel


def _gas_switches(t, q, qdot):
    """Where (94) is not smooth: the slider velocity (on/off) and x3 = 5 m (slope jump)."""
    return [qdot[2, 0], q[2, 0] - 5.0]


@pytest.mark.slow  # the fast version: tests/test_mbdm_files.py (the same check from the note's file)
def test_slider_crank_baumgarte_against_lagrangian_and_energy():
    """The note's full 1 s (Table 28); steps split at the switches of (94) keep RK4 fourth
    order (without them the slope jump of 282857 N/m at x3 = 5 m leaves an O(dt^2) error:
    3.9e-6 rad at dt = 1e-4 s)."""
    ds, q0, qd0 = _slider_crank()
    errs = []
    for dt in (1e-3, 5e-4):
        res = dynamic_analysis(ds, q0, qd0, 1.0, dt, method="baumgarte",
                               save_every=int(round(1e-3 / dt)), switches=_gas_switches)  # fmt: skip
        errs.append(_check_slider_crank(res, ds, 1e-5, 1e-6)[0])
    assert errs[1] < 1e-6  # measured 2.9e-7 rad, energy balance 6.7e-9
    assert np.log2(errs[0] / errs[1]) > 3.5  # measured 4.0
    assert np.max(res.drift_position) < 1e-7 and np.max(res.drift_velocity) < 1e-6


@pytest.mark.slow  # the fast version: tests/test_mbdm_files.py (table 27 state, partitioning)
def test_slider_crank_partitioning_against_lagrangian_and_energy():
    ds, q0, qd0 = _slider_crank()
    # 0.5 s: two compression strokes; a step costs about 3x a Baumgarte one (Newton on u and
    # the velocity solve in each DIFEQN call); over the full 1 s: 1.3e-5 rad at dt = 1e-3 s,
    # 8.7e-7 rad at dt = 5e-4 s (order 3.9)
    res = dynamic_analysis(ds, q0, qd0, 0.5, 2.5e-4, method="partitioning", save_every=4,
                           switches=_gas_switches)  # fmt: skip
    _check_slider_crank(res, ds, 1e-6, 1e-6)
    assert np.max(res.drift_position) < 1e-11 and np.max(res.drift_velocity) < 1e-10
    assert res.independent.shape[1] == 1  # one degree of freedom


def test_bad_dynamic_inputs():
    from floatwind.errors import CaseError

    with pytest.raises(CaseError, match="masses"):
        DynamicSystem(System(("a",), ()), [1.0, 2.0], [np.eye(3)])
    with pytest.raises(CaseError, match="positive definite"):
        DynamicSystem(System(("a",), ()), [1.0], [-np.eye(3)])
    with pytest.raises(CaseError, match="multiple of dt"):
        dynamic_analysis(_spring_system(), Q_REST, np.zeros((1, 7)), 1.0, 0.3)
