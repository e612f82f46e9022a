"""floatwind Load objects through the Lie-group integrator (FloatwindLoadsAdapter) vs solve_ivp."""

import types

import numpy as np
from scipy.integrate import solve_ivp

from floatwind.loads.base import Load, Wrench
from floatwind.loads.spatial import NonFollowerForce, SpatialKinematics
from floatwind.rotation import exp_so3, matrix_from_quaternion
from floatwind.simulate.lie import FloatwindLoadsAdapter, simulate_lie_ga

MASS = 5.0e3
J_B = np.array([[4.0e4, 1.0e3, 0.0], [1.0e3, 5.0e4, 0.0], [0.0, 0.0, 3.0e4]])
CM_B = np.array([0.0, 0.0, -2.0])


def Environment():
    """Stand-in for floatwind.environment.Environment: these loads only read ``gravity``."""
    return types.SimpleNamespace(gravity=9.80665)


class SpringDamperAtPoint(Load):
    """Linear spring and damper from a fixed anchor to a body point (floatwind contract)."""

    name = "spring"

    def __init__(self, *, anchor_g, point_b, k, c):
        self.anchor_g = np.asarray(anchor_g, float)
        self.point_b = np.asarray(point_b, float)
        self.k, self.c = float(k), float(c)

    def wrench(self, t, kin, env):
        pos, vel = kin.points(0, self.point_b[None])
        f = -self.k * (pos - self.anchor_g) - self.c * vel
        w = Wrench.zeros(kin.batch, kin.n_bodies)
        w.add_point_force(kin, 0, pos, f)
        return w


class GravityLoad(Load):
    name = "gravity"

    def __init__(self, *, mass):
        self.mass = float(mass)

    def wrench(self, t, kin, env):
        w = Wrench.zeros(kin.batch, kin.n_bodies)
        w.force[:, 0, 2] = -self.mass * env.gravity
        return w


class ConstantForceAtPoint(Load):
    name = "push"

    def __init__(self, *, force_g, point_b):
        self.force_g = np.asarray(force_g, float)
        self.point_b = np.asarray(point_b, float)

    def wrench(self, t, kin, env):
        pos, _ = kin.points(0, self.point_b[None])
        w = Wrench.zeros(kin.batch, kin.n_bodies)
        w.add_point_force(kin, 0, pos, np.broadcast_to(self.force_g, pos.shape))
        return w


class ConstantAddedMass(Load):
    """Acceleration-dependent load -A [a_G; alpha] (contract rule 3), A constant, inertial axes."""

    name = "added_mass"

    def __init__(self, *, A):
        self.A = np.asarray(A, float)

    def wrench(self, t, kin, env):
        w = Wrench.zeros(kin.batch, kin.n_bodies)
        w.added_mass = np.broadcast_to(self.A, (kin.batch, kin.n_bodies, 6, 6)).copy()
        return w


def _loads():
    A = np.diag([2.0e3, 2.0e3, 1.0e3, 1.0e4, 1.0e4, 5.0e3])
    return [
        SpringDamperAtPoint(anchor_g=[12.0, 1.0, -9.0], point_b=[1.0, 0.0, -5.0], k=3.0e3, c=1.0e3),
        SpringDamperAtPoint(
            anchor_g=[-12.0, 2.0, -7.0], point_b=[-1.0, 0.5, -5.0], k=3.0e3, c=1.0e3
        ),
        GravityLoad(mass=MASS),
        ConstantForceAtPoint(force_g=[2.0e3, 1.0e3, MASS * 9.80665], point_b=[0.0, 0.0, 3.0]),
        ConstantAddedMass(A=A),
    ]


def _reference(loads, env, x0, R0, v0, w0, t_out):
    """DOP853 (rtol 1e-10) of the Newton-Euler equations with the same loads, quaternion kinematics."""

    def rhs(t, y):
        r, p, v, w = y[:3], y[3:7], y[7:10], y[10:13]
        p = p / np.linalg.norm(p)
        R = matrix_from_quaternion(p)
        adapter_kin = SpatialKinematics.from_vectors(
            t, r[None], R[None], np.r_[v, w][None], np.zeros((1, 6))
        )
        gen = -FloatwindLoadsAdapter(loads, env, cm_b=CM_B).residual(adapter_kin)[
            0
        ]  # [F; T], acc part out
        A = sum(
            (
                ld.wrench(t, _kin(t, r, R, v, w), env).added_mass
                for ld in loads
                if ld.name == "added_mass"
            ),
            np.zeros((1, 1, 6, 6)),
        )[0, 0]
        Jg = R @ J_B @ R.T
        M = np.zeros((6, 6))
        M[:3, :3] = MASS * np.eye(3)
        M[3:, 3:] = Jg
        acc = np.linalg.solve(M + A, gen - np.r_[np.zeros(3), np.cross(w, Jg @ w)])
        w_b = R.T @ w
        pd = 0.5 * np.r_[-p[1:] @ w_b, p[0] * w_b + np.cross(p[1:], w_b)]
        return np.r_[v, pd, acc]

    from floatwind.rotation import quaternion_from_matrix

    y0 = np.r_[x0, quaternion_from_matrix(R0), v0, w0]
    s = solve_ivp(
        rhs, (t_out[0], t_out[-1]), y0, method="DOP853", rtol=1e-10, atol=1e-10, t_eval=t_out
    )
    return s.y[:3].T, matrix_from_quaternion(s.y[3:7].T), s.y[7:10].T, s.y[10:13].T


def _kin(t, r, R, v, w):
    from floatwind.loads.base import Kinematics

    return Kinematics(t, r[None, None], R[None, None], v[None, None], w[None, None], CM_B[None])


def test_adapter_against_solve_ivp():
    env = Environment()
    loads = _loads()
    x0 = np.array([0.5, -0.2, -1.0])
    R0 = exp_so3(np.array([0.05, -0.1, 0.3]))
    v0 = np.array([0.2, 0.0, -0.1])
    w0 = np.array([0.02, -0.05, 0.1])
    t_out = np.linspace(0.0, 6.0, 25)  # about one period of the moored body (6.8 s)
    ref_r, ref_R, ref_v, ref_w = _reference(loads, env, x0, R0, v0, w0, t_out)
    errs = []
    for dt in (0.05, 0.025):
        out = simulate_lie_ga(MASS, J_B, CM_B, loads, env, x0, R0, v0, w0, t_out, dt, rho_inf=0.9)
        e_r = np.abs(out["r_G_g"][:, 0] - ref_r).max()
        e_R = np.abs(out["R_b2g"][:, 0] - ref_R).max()
        e_v = np.abs(out["v_G_g"][:, 0] - ref_v).max()
        e_w = np.abs(out["w_b_g"][:, 0] - ref_w).max()
        print(
            f"dt={dt}: |dr| {e_r:.2e} m, |dR| {e_R:.2e}, |dv| {e_v:.2e} m/s, |dw| {e_w:.2e} rad/s"
        )
        errs.append(e_r)
        assert e_r < 2e-3 and e_R < 2e-3 and e_v < 3e-3 and e_w < 3e-3
    assert 3.0 < errs[0] / errs[1] < 5.0  # second order


def test_adapter_tangents_match_analytic_load():
    """The adapter's finite-difference K of a force at a point equals Giusti (20)."""
    env = Environment()
    F = np.array([1.0e3, -2.0e3, 5.0e2])
    p_b = np.array([1.0, 2.0, -5.0])
    adapter = FloatwindLoadsAdapter([ConstantForceAtPoint(force_g=F, point_b=p_b)], env, cm_b=CM_B)
    analytic = NonFollowerForce(force=F, point_b=p_b - CM_B)
    rng = np.random.default_rng(3)
    kin = SpatialKinematics.from_vectors(
        0.0,
        rng.normal(size=(2, 3)),
        exp_so3(rng.normal(size=(2, 3))),
        rng.normal(size=(2, 6)),
        np.zeros((2, 6)),
    )
    np.testing.assert_allclose(adapter.residual(kin), analytic.residual(kin), atol=1e-8)
    np.testing.assert_allclose(adapter.tangents(kin).K, analytic.tangents(kin).K, atol=1e-4)
