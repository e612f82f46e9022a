"""MBDM loads through floatwind's Load contract and the 3-body turbine cross-check (issue 19,
items 6-7; Leble seed 001 eqs. 67, 69): Kinematics records built from MBDM body states, Load
wrenches entering F^A and n'^A, and the turbine built from the joint library (R + RDRV per
joint) against the momentum cloud core (Wang ch. V) — instantaneous accelerations and a short
trajectory (the full 60 s: validation/mbdm/turbine_crosscheck.py)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from floatwind.errors import CaseError
from floatwind.loads.simple import ConstantForce, Gravity
from floatwind.multibody.mbdm import (
    A_matrix,
    DynamicSystem,
    G_matrix,
    SpringDamper,
    System,
    accelerations,
    dynamic_analysis,
    load_kinematics,
    omega_global,
    pdot_from_omega,
)
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
