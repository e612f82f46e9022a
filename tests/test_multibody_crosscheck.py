"""MCM forward dynamics vs an independent Newton-Euler recursion and vs Wang's closed-form
2-body equations (ch. III, 3.1-3.12); the all-locked tree vs one rigid body (issue 3)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from floatwind.loads.base import Wrench
from floatwind.multibody import (
    ConstantRate,
    Locked,
    Tree,
    forward_dynamics_ne,
    six_body,
    three_body,
)
from floatwind.multibody.mcm import (
    body_kinematics,
    forward_dynamics,
    mass_distribution,
    relative_kinematics,
)
from floatwind.multibody.topologies import OC3_DEFAULTS, _combine, layout, rotor_geometry
from floatwind.rotation import (
    axis_angle_matrix,
    euler123_matrix,
    re_vector,
    skew,
    t_omega,
)

seeds = st.integers(0, 2**32 - 1)


def _state(rng, B):
    q = np.concatenate([rng.normal(size=(B, 3)) * 5, rng.uniform(-0.6, 0.6, size=(B, 3))], axis=1)
    qd = np.concatenate([rng.normal(size=(B, 3)), rng.normal(size=(B, 3)) * 0.2], axis=1)
    return q, qd


def _mcm(tree, t, q, qd, wrench):
    rel = relative_kinematics(tree, t)
    md = mass_distribution(tree, rel)
    return forward_dynamics(tree, rel, md, q, qd, wrench), body_kinematics(tree, t, rel, md, q, qd)


@settings(max_examples=25, deadline=None)
@given(seed=seeds, added=st.booleans())
def test_six_body_mcm_matches_newton_euler(seed, added):
    """Random states, loads, joint motions (and added mass): base and body accelerations to 1e-8."""
    rng = np.random.default_rng(seed)
    r = rng.uniform(-1, 1, size=7)
    tree = Tree(
        *six_body(
            yaw=ConstantRate(r[0], 0.1 * r[1]),
            spin=ConstantRate(r[2], 1.27 * (1 + r[3])),
            pitch=[ConstantRate(r[4], 0.05), Locked(r[5]), ConstantRate(0.0, 0.02 * r[6])],
        )
    )
    B, N = 3, tree.n_bodies
    q, qd = _state(rng, B)
    F = rng.normal(size=(B, N, 3)) * 1e6
    M = rng.normal(size=(B, N, 3)) * 1e7
    A = None
    if added:
        X = rng.normal(size=(B, N, 6, 6))
        A = (X @ np.swapaxes(X, -1, -2)) * 1e4
        A[:, 0] *= 1e3
    t = float(rng.uniform(0, 100))
    acc, kin = _mcm(tree, t, q, qd, Wrench(F, M, added_mass=A))
    ne = forward_dynamics_ne(tree, t, q, qd, F, M, A)
    sa = max(1.0, np.abs(ne.a_G_g).max())
    assert np.abs(ne.r_G_g - kin.r_G_g).max() < 1e-9 * max(1.0, np.abs(kin.r_G_g).max())
    assert np.abs(ne.v_G_g - kin.v_G_g).max() < 1e-9 * max(1.0, np.abs(kin.v_G_g).max())
    assert np.abs(ne.a_G_g - acc.a_G_g).max() < 1e-8 * sa
    assert np.abs(ne.dw_b_g - acc.dw_b_g).max() < 1e-8 * max(1.0, np.abs(ne.dw_b_g).max())
    assert np.abs(ne.qdd - acc.qdd).max() < 1e-8 * max(1.0, np.abs(ne.qdd).max())


# ------------------------------------------------------------------ 2-body closed form (ch. III)


def _on_axis_params():
    """3-body OC3 RNA with the nacelle CM moved so that the topside CM is on the tower axis."""
    geo = rotor_geometry(OC3_DEFAULTS)
    rc = geo["apex_n"] + geo["R_s2n"] @ geo["rotor_cm_h"]
    mn = OC3_DEFAULTS["nacelle"]["mass"]
    x_n = -geo["rotor_mass"] * rc[0] / mn
    return {"nacelle": {"cm": [x_n, 0.0, 1.75], "inertia": [2.0e6, 3.0e6, 1741490.0]}}


class Wang2Body:
    """Wang (3.1), (3.7), (3.10)-(3.12) for tower + rigid RNA (CM on the tower axis, yaw beta) +
    spin momentum I_sp psi_dot along the shaft, written independently of the tree code."""

    def __init__(self, params, yaw_rate, spin_rate, beta0=0.0):
        bs, js = layout("three_body", params)
        tower, nac, rot = bs
        yaw, spin = js
        self.m_t, self.m = tower.mass, sum(b.mass for b in bs)
        # RNA lumped in nacelle axes about its CM (rotor axisymmetric: spin does not change it)
        R = spin.R0_c2p
        rot_cm = spin.position_parent + R @ rot.cm
        m_R, c_R, I_R = _combine(
            [(nac.mass, nac.cm, nac.inertia), (rot.mass, rot_cm, R @ rot.inertia @ R.T)]
        )
        assert abs(c_R[0]) < 1e-9 and abs(c_R[1]) < 1e-12
        self.m_R, self.I_R, self.I_t = m_R, I_R, tower.inertia
        zR = yaw.position_parent[2] + c_R[2]
        zs = (tower.mass * tower.cm[2] + m_R * zR) / self.m
        self.rho_t = tower.cm - np.array([0, 0, zs])
        self.rho_R = np.array([0.0, 0.0, zR - zs])
        a = R @ spin.axis
        self.h_spin = (
            (spin.axis @ rot.inertia @ spin.axis) * spin_rate * a
        )  # I_sp psi_dot e (nacelle axes)
        self.wy, self.beta0 = yaw_rate, beta0

    @staticmethod
    def _bar(r):
        return r @ r * np.eye(3) - np.outer(r, r)

    def qdd(self, t, q, qd, F_g, M_Gs_g):
        beta = self.beta0 + self.wy * t
        c, s = np.cos(beta), np.sin(beta)
        T = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])  # (3.9)
        S = skew(np.array([0, 0, 1.0]))
        IR = T @ self.I_R @ T.T
        Is = (
            self.I_t + self.m_t * self._bar(self.rho_t) + IR + self.m_R * self._bar(self.rho_R)
        )  # (3.10)
        dIs = self.wy * (S @ IR - IR @ S)
        Hp = IR @ np.array([0, 0, self.wy]) + T @ self.h_spin
        dHp = dIs @ np.array([0, 0, self.wy]) + self.wy * S @ T @ self.h_spin
        ang, rates = q[3:6], qd[3:6]
        Tw = t_omega(ang[None])[0]
        w = Tw @ rates  # (3.7)
        Rs = euler123_matrix(ang[None])[0]
        M = Rs.T @ M_Gs_g
        dw = np.linalg.solve(Is, M - dIs @ w - dHp - np.cross(w, Is @ w + Hp))  # (3.1), (3.11)
        out = np.zeros(6)
        out[0:3] = F_g / self.m  # (3.12)
        out[3:6] = np.linalg.solve(Tw, dw - re_vector(ang[None], rates[None])[0])
        return out


@settings(max_examples=20, deadline=None)
@given(seed=seeds)
def test_three_body_with_cm_on_axis_is_wang_two_body(seed):
    """Sec. IV.D.2: topside CM on the tower axis -> the 3-body MCM equals the 2-body EOMs (1e-9)."""
    rng = np.random.default_rng(seed)
    wy, ws, b0 = rng.uniform(-0.1, 0.1), rng.uniform(0, 2), rng.uniform(-3, 3)
    params = _on_axis_params()
    tree = Tree(*three_body(params, yaw=ConstantRate(b0, wy), spin=ConstantRate(0.3, ws)))
    ref = Wang2Body(params, wy, ws, b0)
    q, qd = _state(rng, 1)
    F = rng.normal(size=(1, 3, 3)) * 1e6
    t = float(rng.uniform(0, 50))
    acc, kin = _mcm(tree, t, q, qd, Wrench(F, np.zeros((1, 3, 3))))
    M_Gs = np.cross(kin.r_G_g[0] - q[0, :3], F[0]).sum(axis=0)
    expected = ref.qdd(t, q[0], qd[0], F[0].sum(axis=0), M_Gs)
    scale = np.abs(expected).max() + 1e-3
    assert np.abs(acc.qdd[0] - expected).max() < 1e-9 * scale


def _rk4(f, y0, dt, n):
    y = y0.copy()
    out = [y.copy()]
    for k in range(n):
        t = k * dt
        k1 = f(t, y)
        k2 = f(t + dt / 2, y + dt / 2 * k1)
        k3 = f(t + dt / 2, y + dt / 2 * k2)
        k4 = f(t + dt, y + dt * k3)
        y = y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        out.append(y.copy())
    return np.array(out)


def test_three_body_trajectory_reproduces_two_body():
    """20 s of a spring-restrained free vibration with yaw + spin: trajectories agree to 1e-9."""
    params = _on_axis_params()
    wy, ws = np.radians(1.2), 12.1 * np.pi / 30
    tree = Tree(*three_body(params, yaw=ConstantRate(0.0, wy), spin=ConstantRate(0.0, ws)))
    ref = Wang2Body(params, wy, ws)
    k_t, k_r = 1e5, np.array([5e9, 5e9, 1e8])

    def loads(q):  # translational spring on the system CM + rotational spring on the Euler angles
        return -k_t * q[0:3], euler123_matrix(q[None, 3:6])[0] @ (-k_r * q[3:6])

    def f_tree(t, y):
        F, M = loads(y[:6])
        Fb = np.zeros((1, 3, 3))
        Mb = np.zeros((1, 3, 3))
        rel = relative_kinematics(tree, t)
        md = mass_distribution(tree, rel)
        # put the force on the bodies in proportion to mass (acts through G_s), moment on the tower
        Fb[0] = tree.mass[:, None] / tree.total_mass * F
        Mb[0, 0] = M
        acc = forward_dynamics(tree, rel, md, y[None, :6], y[None, 6:], Wrench(Fb, Mb))
        return np.concatenate([y[6:], acc.qdd[0]])

    def f_ref(t, y):
        F, M = loads(y[:6])
        return np.concatenate([y[6:], ref.qdd(t, y[:6], y[6:], F, M)])

    y0 = np.zeros(12)
    y0[[0, 3, 4]] = [0.5, 0.1, 0.1]
    a = _rk4(f_tree, y0, 0.05, 400)
    b = _rk4(f_ref, y0, 0.05, 400)
    assert np.abs(a - b).max() < 1e-9 * np.abs(b).max()
    assert np.abs(b[:, 5]).max() > 1e-5  # the gyro moments excite yaw


def test_locked_six_body_is_one_rigid_body_over_100s():
    """A tree whose joints are all locked (odd angles) = the single rigid body of the foundation
    issue with the same mass properties: 100 s of OC3 pitch decay agree to 1e-10."""
    import yaml

    from floatwind.case import model_from_dict
    from floatwind.loads.simple import Gravity
    from floatwind.simulate import simulate

    d = yaml.safe_load(
        open(__import__("pathlib").Path(__file__).parents[1] / "cases" / "oc3_platform_decay.yaml")
    )
    d["simulation"] = {"t_max": 100.0, "dt": 0.1, "dt_out": 1.0}
    d["initial"] = {"angles": [0.05, 0.1, 0.02], "displacement": [1.0, 0.0, 0.2]}
    tree = Tree(
        *six_body(yaw=Locked(0.7), spin=Locked(0.4), pitch=[Locked(0.1), Locked(0.5), Locked(1.2)])
    )
    # composite rigid body at the locked configuration (base frame)
    R = {0: np.eye(3)}
    o = {0: np.zeros(3)}
    for i in tree.order[1:]:
        j = tree.joint_of[i]
        th = j.rotation.evaluate(0.0)[0]
        R[i] = R[j.parent] @ j.R0_c2p @ axis_angle_matrix(j.axis, np.asarray(th))
        o[i] = o[j.parent] + R[j.parent] @ j.r_J_p - R[i] @ j.r_J_c
    parts = [
        (b.mass, o[i] + R[i] @ b.cm_b, R[i] @ b.inertia_b @ R[i].T)
        for i, b in enumerate(tree.bodies)
    ]
    m, c, I = _combine(parts)
    d["bodies"] = [{"name": "platform", "mass": m, "cm": c.tolist(), "inertia": I.tolist()}]
    one = simulate(model_from_dict(d))
    model = model_from_dict(d)
    model.tree = tree
    model.loads[0] = Gravity(masses=tree.mass)
    many = simulate(model)
    for ch in ("PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmRoll", "PtfmPitch", "PtfmYaw"):
        err = np.abs(one[ch].values - many[ch].values).max()
        assert err < 1e-10 * max(1.0, np.abs(one[ch].values).max()), (ch, err)
    assert np.abs(one["PtfmPitch"].values).max() > 0.05
