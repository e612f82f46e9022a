"""MBDM loads through floatwind's Load contract and the 3-body turbine cross-check (issue 19,
items 6-7; Leble seed 001 eqs. 67, 69): Kinematics records built from MBDM body states, Load
wrenches entering F^A and n'^A, and the turbine built from the joint library (R + RDRV per
joint) against the momentum cloud core (Wang ch. V) — instantaneous accelerations and a short
trajectory (the full 60 s: validation/mbdm/turbine_crosscheck.py); the same with the yaw a joint
degree of freedom on a spring-damper drive (R without its driver + RotationalSpringDamper)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from floatwind.errors import CaseError
from floatwind.loads.simple import ConstantForce, Gravity
from floatwind.multibody.drives import SpringDamperDrive
from floatwind.multibody.mbdm import (
    A_matrix,
    DynamicSystem,
    G_matrix,
    Joint,
    RotationalSpringDamper,
    SpringDamper,
    System,
    accelerations,
    dynamic_analysis,
    load_kinematics,
    omega_global,
    pdot_from_omega,
)
from floatwind.multibody.motion import Ramp
from floatwind.records import Wrench
from validation.mbdm.turbine_crosscheck import build, crosscheck

ENV = SimpleNamespace(gravity=9.81)


def _random_state(rng, nb):
    p = rng.normal(size=(nb, 4))
    p /= np.linalg.norm(p, axis=1, keepdims=True)
    q = np.concatenate([rng.normal(size=(nb, 3)), p], 1)
    qd = np.concatenate([rng.normal(size=(nb, 3)), pdot_from_omega(p, rng.normal(size=(nb, 3)))], 1)
    return q, qd


def test_load_kinematics_record():
    """r (CM), A(p) (eq. 2), rdot, omega = 2 E pdot (eq. 40); points of the load's frame sit at
    r + A (p_b - cm_b) and move with rdot + omega x A (p_b - cm_b)."""
    rng = np.random.default_rng(5)
    q, qd = _random_state(rng, 2)
    cm = rng.normal(size=(2, 3))
    kin = load_kinematics(0.3, q, qd, cm)
    assert kin.batch == 1 and kin.n_bodies == 2 and kin.t == 0.3
    np.testing.assert_array_equal(kin.R_b2g[0], A_matrix(q[:, 3:]))
    np.testing.assert_array_equal(kin.w_b_g[0], omega_global(q[:, 3:], qd[:, 3:]))
    pb = rng.normal(size=(1, 3))
    pos, vel = kin.points(1, pb)
    arm = A_matrix(q[1, 3:]) @ (pb[0] - cm[1])
    np.testing.assert_allclose(pos[0, 0], q[1, :3] + arm, atol=1e-14)
    # the velocity of the point by finite differences of the motion
    h = 1e-6

    def point(s):
        qq = q[1] + s * qd[1]
        return qq[:3] + A_matrix(qq[3:]) @ (pb[0] - cm[1])

    np.testing.assert_allclose(vel[0, 0], (point(h) - point(-h)) / (2 * h), atol=1e-8)


def _spring(**kw):
    line = SpringDamper(0, anchor=(0.0, 0.0, 2.0), fairlead=(0.3, -0.2, 0.5), l0=1.5, k=1e4)
    J = np.array([[10.0, 1.0, 0.5], [1.0, 14.0, -0.8], [0.5, -0.8, 8.0]])
    return DynamicSystem(System(("body",), ()), [60.0], [J], lines=(line,), **kw)


def test_contract_loads_enter_the_generalized_forces():
    """Gravity as a Load equals the gravity field; a ConstantForce at an offset point gives the
    force at the CM and the moment arm x F, turned to n' = A^T n (eqs. 67, 69)."""
    rng = np.random.default_rng(6)
    q, qd = _random_state(rng, 1)
    a = _spring(gravity=(0.0, 0.0, -9.81))
    b = _spring(gravity=(0.0, 0.0, 0.0), floatwind_loads=(Gravity(masses=[60.0]),), env=ENV)
    Fa, na = a.loads(0.0, q, qd)
    Fb, nb_ = b.loads(0.0, q, qd)
    np.testing.assert_allclose(Fb, Fa, rtol=1e-15)
    np.testing.assert_array_equal(nb_, na)
    f = np.array([100.0, -50.0, 20.0])
    pb = np.array([0.4, 0.1, -0.3])
    cm = np.array([[0.1, 0.0, 0.2]])
    c = _spring(gravity=(0.0, 0.0, 0.0), cm_b=cm, env=ENV,
                floatwind_loads=(ConstantForce(body=0, point_b=pb, force=f),))  # fmt: skip
    Fc, nc = c.loads(0.0, q, qd)
    d = _spring(gravity=(0.0, 0.0, 0.0))
    Fd, nd = d.loads(0.0, q, qd)
    A = A_matrix(q[0, 3:])
    np.testing.assert_allclose(Fc - Fd, f[None], atol=1e-12)
    np.testing.assert_allclose(nc - nd, (A.T @ np.cross(A @ (pb - cm[0]), f))[None], atol=1e-12)
    # a whole run: gravity through the contract = the gravity field (NumPy path)
    ra = dynamic_analysis(a, q, qd, 0.05, 1e-3, method="baumgarte")
    rb = dynamic_analysis(b, q, qd, 0.05, 1e-3, method="baumgarte")
    assert np.max(np.abs(ra.q - rb.q)) < 1e-13


def test_added_mass_is_refused():
    class Added:
        name = "added"

        def wrench(self, t, kin, env):
            w = Wrench.zeros(1, kin.n_bodies)
            w.added_mass = np.zeros((1, kin.n_bodies, 6, 6))
            return w

    q, qd = _random_state(np.random.default_rng(1), 1)
    with pytest.raises(CaseError, match="added-mass"):
        _spring(floatwind_loads=(Added(),)).loads(0.0, q, qd)


def test_turbine_accelerations_equal_the_momentum_cloud_core():
    """At the cross-check's initial state and a later time, the MBDM turbine (joint library,
    eq. 67 and eq. 69) gives every body's CM and angular accelerations of Wang (5.26)."""
    from floatwind.multibody.mbdm.tree_model import initial_state, system_from_tree
    from floatwind.multibody.mcm import (
        body_kinematics,
        forward_dynamics,
        mass_distribution,
        relative_kinematics,
    )

    tree, loads, env, q0, qd0 = build()
    dsys = system_from_tree(tree, loads, env)
    for t in (0.0, 3.7):
        rel = relative_kinematics(tree, t)
        md = mass_distribution(tree, rel)
        kin = body_kinematics(tree, t, rel, md, q0[None], qd0[None])
        w = Wrench.zeros(1, tree.n_bodies)
        for ld in loads:
            w += ld.wrench(t, kin, env)
        acc = forward_dynamics(tree, rel, md, q0[None], qd0[None], w)
        q, qd = initial_state(dsys, tree, t, q0, qd0)
        np.testing.assert_allclose(q[:, :3], kin.r_G_g[0], atol=1e-9)
        # measured: eq. (67) 1e-15 and 5e-14; eq. (69) 2e-11 and 8e-9 (its augmented matrix
        # mixes masses of 1e5-1e7 kg with inertias up to 1e10 kg m^2 and the normalisation rows)
        for form, tol in (("omega", 1e-12), ("p", 1e-7)):
            qdd = accelerations(dsys, q, qd, t, form=form)[0]
            a_ref = acc.a_G_g[0]
            assert np.max(np.abs(qdd[:, :3] - a_ref)) < tol * np.max(np.abs(a_ref))
            # omegadot = A omegadot' = 2 A G pddot (G(pdot) pdot = 0)
            dw = np.einsum("kij,kj->ki", A_matrix(q[:, 3:]),
                           2.0 * np.einsum("kij,kj->ki", G_matrix(q[:, 3:]), qdd[:, 3:]))  # fmt: skip
            assert np.max(np.abs(dw - acc.dw_b_g[0])) < tol * np.max(np.abs(acc.dw_b_g[0]))


def test_turbine_base_motion_matches_the_momentum_cloud_core():
    """3 s of the 3-body turbine (yawing, spinning, thrust, restoring spring-damper, gravity):
    base CM and rotation agree to 1e-6 (measured 2e-10 m over 2 s; 60 s in the validation)."""
    c = crosscheck(3.0, dt=0.01, save_every=10)
    assert c["range_position"] > 0.5  # the base moves
    assert c["err_position"] < 1e-6, c["err_position"]
    assert c["err_rotation"] < 1e-6, c["err_rotation"]


# --- free yaw: a joint degree of freedom on a spring-damper drive ------------------------------


def _rotate(q, k, phi):
    """q with body k turned by the small body-frame rotation phi (pi' = phi)."""
    from floatwind.rotation import axis_angle_matrix, quaternion_from_matrix

    out = q.copy()
    a = np.linalg.norm(phi)
    R = A_matrix(q[k, 3:]) @ axis_angle_matrix((phi / a)[None], np.array([a]))[0]
    p = quaternion_from_matrix(R[None])[0]
    out[k, 3:] = p if p @ q[k, 3:] >= 0 else -p
    return out


def test_rotational_spring_damper_element():
    """Two bodies on a common axis h (as a revolute joint R holds them): the element's angle is
    the RDRV angle (eqs. 22-27) of the same vectors, its rate (omega_j - omega_i) . h the RDRV's
    Phi_q qdot, and its generalized moments (67) are the virtual work of V = K/2 (theta -
    theta_c)^2 (central differences in body-frame rotations of either body) plus the damper
    -C (theta' - theta_c') on j and its opposite on i; the compiled path refuses it in one line."""
    from floatwind.multibody.mbdm import body_states
    from floatwind.rotation import axis_angle_matrix, quaternion_from_matrix

    rng = np.random.default_rng(11)
    h, fi = rng.normal(size=(2, 3))
    cmd = Ramp(q0=0.1, rate=0.3, t_start=0.2)
    K, C = 2.0e3, 40.0
    el = RotationalSpringDamper((0, 1), axis=tuple(h), ref_i=tuple(fi), ref_j=tuple(fi),
                                drive=SpringDamperDrive(K, C), command=cmd)  # fmt: skip
    hb = np.asarray(el.axis)
    th0, thd0 = 2.9, -0.7  # body j = body i turned by th0 about h, turning at thd0 relative
    q, qd = _random_state(rng, 2)
    Ai = A_matrix(q[0, 3:])
    Aj = Ai @ axis_angle_matrix(hb[None], np.array([th0]))[0]
    q[1, 3:] = quaternion_from_matrix(Aj[None])[0]
    wi = omega_global(q[:1, 3:], qd[:1, 3:])[0]
    qd[1, 3:] = pdot_from_omega(q[1, 3:], Aj.T @ (wi + thd0 * Ai @ hb))
    assert abs(el.angle(q) - th0) < 1e-12 and abs(el.rate(q, qd) - thd0) < 1e-12
    drv = Joint("RDRV", (0, 1), p1=el.ref_i, q1=el.axis, r1=(0.0, 0.0, 0.0), p2=el.ref_j)
    rows = drv.rows(body_states(q, qd, 2), 0.0)
    assert abs(rows.phi[0] - th0) < 1e-12 and abs(rows.rate[0] - thd0) < 1e-12
    t = 1.1
    th_c, thd_c, _ = cmd.evaluate(t)
    F, n = el.evaluate(t, q, qd)
    assert np.all(F == 0)
    tau = -K * (th0 - th_c) - C * (thd0 - thd_c)
    assert abs(el.torque(t, q, qd) - tau) < 1e-12 * abs(tau)
    A = A_matrix(q[:, 3:])
    n_b = np.einsum("kji,kj->ki", A, n)  # n' = A^T n, as DynamicSystem.loads turns it
    hg = Ai @ hb

    def V(qq):
        dth = (el.angle(qq) - th_c + np.pi) % (2 * np.pi) - np.pi
        return 0.5 * K * dth**2

    for k, sign in ((0, -1.0), (1, 1.0)):
        np.testing.assert_allclose(n[k], sign * tau * hg, rtol=1e-13, atol=1e-13 * abs(tau))
        for ax in range(3):
            d = np.eye(3)[ax] * 1e-6
            dV = (V(_rotate(q, k, d)) - V(_rotate(q, k, -d))) / 2e-6
            damper = sign * (-C * (thd0 - thd_c)) * (A[k].T @ hg)[ax]
            assert abs(n_b[k, ax] - damper + dV) < 1e-6 * K, (k, ax)
    bodies = (("a", "b"), [1.0, 2.0], [np.eye(3), 2 * np.eye(3)])
    dsys = DynamicSystem(System(bodies[0], ()), *bodies[1:], forces=(el,))
    from floatwind import _kernels

    why = "RotationalSpringDamper has no compiled form" if _kernels.enabled() else "kernels are off"
    with pytest.raises(CaseError, match=why):
        dynamic_analysis(dsys, q, qd, 0.01, 0.01, method="baumgarte", form="omega", compiled=True)
    bad = RotationalSpringDamper((0, 2), (0, 0, 1), (1, 0, 0), (1, 0, 0))
    with pytest.raises(CaseError, match="names body 2"):
        DynamicSystem(System(bodies[0], ()), *bodies[1:], forces=(bad,))


def _mcm_accelerations(tree, loads, env, t, q, qd, th, thd, tau_of):
    """The momentum cloud core at one state: body kinematics and mcm.forward_dynamics_dofs with
    the loads' wrench and the drive torque ``tau_of(th, thd)`` (a joint-DOF tree, one member)."""
    from floatwind.multibody.mcm import (
        body_kinematics,
        forward_dynamics_dofs,
        mass_distribution,
        relative_kinematics,
    )

    rel = relative_kinematics(tree, t, (th[None], thd[None]))
    md = mass_distribution(tree, rel)
    kin = body_kinematics(tree, t, rel, md, q[None], qd[None])
    w = Wrench.zeros(1, tree.n_bodies)
    for ld in loads:
        w += ld.wrench(t, kin, env)
    tau = tau_of(th, thd)[None]
    return kin, tau, forward_dynamics_dofs(tree, rel, md, q[None], qd[None], w, tau)


def _angular_accelerations(Q, qdd):
    """Each body's angular acceleration (global axes) from MBDM's pddot: A (2 G pddot)."""
    return np.einsum("kij,kj->ki", A_matrix(Q[:, 3:]),
                     2.0 * np.einsum("kij,kj->ki", G_matrix(Q[:, 3:]), qdd[:, 3:]))  # fmt: skip


@pytest.mark.parametrize("t", [0.0, 1.7])
def test_free_yaw_accelerations_equal_the_momentum_cloud_core(t):
    """Random base and yaw states (yaw on the ServoDyn spring-damper toward the ramp command):
    eq. (67) gives every body's CM and angular acceleration of mcm.forward_dynamics_dofs, and
    the yaw acceleration d/dt [(omega_c - omega_p) . h_p] its joint acceleration (bound 1e-9
    relative; measured: CM 4e-15, angular 1.4e-14, yaw 5e-15; eq. (69), bound 1e-7: 1e-10,
    8.5e-10, 8.8e-11)."""
    from floatwind.multibody.mbdm.tree_model import initial_state, joint_angles, system_from_tree

    rng = np.random.default_rng(int(10 * t) + 3)
    tree, loads, env, q0, qd0 = build(free_yaw=True)
    dsys = system_from_tree(tree, loads, env)
    assert [j.type for j in dsys.system.joints] == ["R", "R", "RDRV"]  # yaw: no driver
    q = q0 + rng.normal(scale=[1.0, 1.0, 1.0, 0.05, 0.05, 0.3])
    qd = qd0 + rng.normal(scale=[0.1, 0.1, 0.1, 0.01, 0.01, 0.02])
    th, thd = rng.normal(scale=0.5, size=1), rng.normal(scale=0.05, size=1)
    yaw = tree.joint_of[tree.dofs[0]]
    kin, tau, acc = _mcm_accelerations(
        tree, loads, env, t, q, qd, th, thd,
        lambda a, r: yaw.drive.torque(a, r, yaw.rotation.evaluate(t)[:2]),
    )  # fmt: skip
    Q, QD = initial_state(dsys, tree, t, q, qd, (th, thd))
    np.testing.assert_allclose(Q[:, :3], kin.r_G_g[0], atol=1e-9)
    ang, rate = joint_angles(dsys, Q, QD)["yaw"]
    assert abs(ang - th[0]) < 1e-12 and abs(rate - thd[0]) < 1e-12
    assert abs(dsys.forces[0].torque(t, Q, QD) - tau[0, 0]) < 1e-9 * abs(tau[0, 0])
    for form, tol in (("omega", 1e-9), ("p", 1e-7)):
        qdd = accelerations(dsys, Q, QD, t, form=form)[0]
        a_ref = acc.a_G_g[0]
        assert np.max(np.abs(qdd[:, :3] - a_ref)) < tol * np.max(np.abs(a_ref))
        dw = _angular_accelerations(Q, qdd)
        assert np.max(np.abs(dw - acc.dw_b_g[0])) < tol * np.max(np.abs(acc.dw_b_g[0]))
        # theta'' = (alpha_c - alpha_p) . h + (omega_c - omega_p) . (omega_p x h)
        wg = omega_global(Q[:, 3:], QD[:, 3:])
        h = A_matrix(Q[:1, 3:])[0] @ np.asarray(dsys.forces[0].axis)
        thdd = (dw[1] - dw[0]) @ h + (wg[1] - wg[0]) @ np.cross(wg[0], h)
        assert abs(thdd - acc.qdd_dof[0, 0]) < tol * np.max(np.abs(acc.dw_b_g[0]))


def test_free_yaw_motion_matches_the_momentum_cloud_core():
    """2.5 s of the turbine with the yaw free on its spring-damper (OC3 YawSpr, YawDamp) toward
    the yaw ramp from t = 1 s, started 0.02 rad off the command and turning: base motion and
    yaw angle agree to 1e-6 (measured 1.4e-12 m, 1.7e-11 rad, yaw 1.3e-10 rad; 60 s in the
    validation)."""
    c = crosscheck(2.5, dt=0.0025, save_every=40, free_yaw=True, yaw_initial=(0.02, -0.01))
    assert c["range_position"] > 0.5 and c["range_yaw"] > 0.02  # the base moves, the yaw turns
    assert c["err_position"] < 1e-6, c["err_position"]
    assert c["err_rotation"] < 1e-6, c["err_rotation"]
    assert c["err_yaw"] < 1e-6, c["err_yaw"]


@pytest.mark.parametrize("kind", ["free", "torque"])
def test_free_rotor_accelerations_equal_the_momentum_cloud_core(kind):
    """The rotor joint free (no torque) or on a torque drive (constant + a table vs rate), at an
    angle past pi: eq. (67) gives the accelerations of mcm.forward_dynamics_dofs (measured
    1.6e-15 CM, 3.7e-14 angular)."""
    from dataclasses import replace

    from floatwind.multibody import ConstantRate, Tree, three_body
    from floatwind.multibody.drives import FreeDrive, TorqueDrive
    from floatwind.multibody.mbdm.tree_model import initial_state, system_from_tree

    drive = FreeDrive() if kind == "free" else TorqueDrive(torque0=1e5, rates=(-1.0, 1.0),
                                                           torques=(3e6, -3e6))  # fmt: skip
    _, loads, env, q0, qd0 = build()
    bodies, joints = three_body(yaw=ConstantRate(0.0, 0.01), spin=ConstantRate(0.0, 1.2))
    tree = Tree(bodies, [replace(j, drive=drive) if j.name == "spin" else j for j in joints])
    dsys = system_from_tree(tree, loads, env)
    assert [j.type for j in dsys.system.joints] == ["R", "RDRV", "R"]  # spin: no driver
    t, th, thd = 0.7, np.array([3.5]), np.array([1.1])
    _, tau, acc = _mcm_accelerations(tree, loads, env, t, q0, qd0, th, thd,
                                     lambda a, r: drive.torque(a, r, (0.0, 0.0)))  # fmt: skip
    Q, QD = initial_state(dsys, tree, t, q0, qd0, (th, thd))
    assert abs(dsys.forces[0].torque(t, Q, QD) - tau[0, 0]) <= 1e-9 * max(1.0, abs(tau[0, 0]))
    qdd = accelerations(dsys, Q, QD, t, form="omega")[0]
    assert np.max(np.abs(qdd[:, :3] - acc.a_G_g[0])) < 1e-9 * np.max(np.abs(acc.a_G_g[0]))
    dw = _angular_accelerations(Q, qdd)
    assert np.max(np.abs(dw - acc.dw_b_g[0])) < 1e-9 * np.max(np.abs(acc.dw_b_g[0]))
