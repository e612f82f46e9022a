"""Momentum cloud method (MCM) forward dynamics for a tree with prescribed joints, Wang ch. V.

State of the base body: q = [X1, X2, X3 (system CM G_s, inertial), X4, X5, X6 (1-2-3 Euler angles
of the base body)], qd its rate; batch axis first, (B, 6).

The algorithm is a set of free functions of the frozen :class:`~floatwind.multibody.tree.Tree`
and the time/state (Pinocchio style):

1. :func:`relative_kinematics`: every body relative to the base body, in the base frame C_1,
   from the prescribed joint motions: the cascade of transformation matrices (5.14)-(5.15) and
   their derivatives (5.21), positions of the CMs (5.16) and their local derivatives (5.23).
2. :func:`mass_distribution`: system CM G_s in C_1 (5.16), P = P1 + P2, Q = Q1 + Q2 (5.18) and
   their local derivatives (5.20), (5.22).
3. :func:`body_kinematics`: absolute kinematics of every body (5.10) for the loads.
4. :func:`forward_dynamics`: the six basic EOMs (5.26), with the added-mass coupling of
   acceleration-dependent loads moved to the inertia side (one coupled 6x6 solve) when present
   and the decoupled 3x3 + 3x3 solve otherwise.

C_s is parallel to C_1 (the base frame), so omega_Cs = omega_B1 (Wang sec. V.B).
Arrays that depend only on time carry a leading axis of length 1 that broadcasts against B.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from floatwind import _kernels
from floatwind.multibody.tree import Tree
from floatwind.records import Kinematics, Wrench
from floatwind.rotation import (
    EULER_SINGULARITY_TOL,
    euler123_matrix,
    omega_from_euler_rates,
    re_vector,
    skew,
    t_omega,
)
from floatwind.rotation.rotvec import axis_angle_matrix
from floatwind.rotation.vec import cross, matvec

_mv = matvec


@dataclass
class RelativeKinematics:
    """Bodies relative to the base body, base frame C_1. Shapes (1, N, ...).

    R_c2s: T_{C_i -> C_1} (5.15); dR_c2s, ddR_c2s: its first and second local derivatives (5.21).
    r_G: rho_{G_i/G_1} (5.16); dr_G, ddr_G: local derivatives (5.23).
    w_rel: angular velocity of body i relative to the base, C_1 axes; dw_rel: its local derivative.
    """

    R_c2s: np.ndarray
    dR_c2s: np.ndarray
    ddR_c2s: np.ndarray
    r_G: np.ndarray
    dr_G: np.ndarray
    ddr_G: np.ndarray
    w_rel: np.ndarray
    dw_rel: np.ndarray
    joint_q: dict

    def take(self, k: int) -> RelativeKinematics:
        """Entry ``k`` of a block computed at many times, with leading axis 1."""
        sl = slice(k, k + 1)
        return RelativeKinematics(
            self.R_c2s[sl],
            self.dR_c2s[sl],
            self.ddR_c2s[sl],
            self.r_G[sl],
            self.dr_G[sl],
            self.ddr_G[sl],
            self.w_rel[sl],
            self.dw_rel[sl],
            {name: tuple(float(v[k]) for v in q) for name, q in self.joint_q.items()},
        )


def relative_kinematics_many(tree: Tree, times, dofs=None) -> RelativeKinematics:
    """Prescribed relative kinematics at many times at once (leading axis T = len(times)),
    along every kinematic chain (Wang 5.14-5.16, 5.21, 5.23).

    Prescribed joint motions depend on time only, so a fixed-step run can compute them for a
    whole block of future step and stage times in one vectorised pass. A tree with joint
    degrees of freedom (``tree.n_dofs``) takes their angles and rates from ``dofs`` = (theta,
    rate), each (T, n_dofs) (one row per entry of ``times``, e.g. per batch member), with zero
    joint acceleration: the acceleration-free part of (5.21), (5.23); the joint accelerations
    are unknowns of :func:`forward_dynamics_dofs`.
    """
    times = np.atleast_1d(np.asarray(times, dtype=float))
    if tree.n_dofs and dofs is None:
        raise ValueError("a tree with joint degrees of freedom needs their states (dofs=...)")
    T, n = len(times), tree.n_bodies
    R = np.zeros((T, n, 3, 3))
    dR = np.zeros((T, n, 3, 3))
    ddR = np.zeros((T, n, 3, 3))
    r = np.zeros((T, n, 3))
    dr = np.zeros((T, n, 3))
    ddr = np.zeros((T, n, 3))
    w = np.zeros((T, n, 3))
    dw = np.zeros((T, n, 3))
    R[:, 0] = np.eye(3)
    joint_q = {}
    for i in tree.order[1:]:
        j = tree.joint_of[i]
        p = j.parent
        k = int(tree.dof_of[i])
        if k >= 0:  # a joint DOF (or a geared follower of one): angle and rate from the state
            ratio = tree.dof_ratio[i]
            th = ratio * dofs[0][:, k] + tree.dof_offset[i]
            thd = ratio * dofs[1][:, k]
            thdd = np.zeros_like(thd)
        else:
            th, thd, thdd = j.rotation.evaluate_many(times)
        s, sd, sdd = j.slide.evaluate_many(times)
        joint_q[j.name] = (th, thd, thdd, s, sd, sdd)
        a = j.axis
        A = skew(a)
        thd_, thdd_ = thd[:, None, None], thdd[:, None, None]
        # T_{C_i -> C_{i-1}} = T_{C_i^0 -> C_{i-1}} T_{C_i -> C_i^0}              Wang (5.14)
        Rip = j.R0_c2p @ axis_angle_matrix(np.broadcast_to(a, (T, 3)), th)
        dRip = Rip @ A * thd_
        ddRip = Rip @ (A @ A * thd_**2 + A * thdd_)
        # cascade along the chain                                                  Wang (5.15), (5.21)
        Rp, dRp, ddRp = R[:, p], dR[:, p], ddR[:, p]
        R[:, i] = Rp @ Rip
        dR[:, i] = dRp @ Rip + Rp @ dRip
        ddR[:, i] = ddRp @ Rip + 2.0 * dRp @ dRip + Rp @ ddRip
        # CM positions: rho_{G_i/G_1} = rho_{G_p/G_1} + R_p rho_{J/G_p} + R_i rho_{G_i/J}     Wang (5.16)
        rJp = j.r_J_p - tree.cm_b[p]
        u = tree.cm_b[i] - j.r_J_c + s[:, None] * a  # slide added to rho_{G_i/J} (Wang V.C.4)
        du = sd[:, None] * a
        ddu = sdd[:, None] * a
        Ri, dRi, ddRi = R[:, i], dR[:, i], ddR[:, i]
        r[:, i] = r[:, p] + Rp @ rJp + matvec(Ri, u)
        dr[:, i] = dr[:, p] + dRp @ rJp + matvec(dRi, u) + matvec(Ri, du)  # Wang (5.23)
        ddr[:, i] = (
            ddr[:, p] + ddRp @ rJp + matvec(ddRi, u) + 2.0 * matvec(dRi, du) + matvec(Ri, ddu)
        )
        # relative angular velocity (Wang 5.14, projected on C_1) and its local derivative
        Ria = Ri @ a
        w[:, i] = w[:, p] + Ria * thd[:, None]
        dw[:, i] = dw[:, p] + (dRi @ a) * thd[:, None] + Ria * thdd[:, None]
    return RelativeKinematics(R, dR, ddR, r, dr, ddr, w, dw, joint_q)


def relative_kinematics(tree: Tree, t: float, dofs=None) -> RelativeKinematics:
    """Prescribed relative kinematics at time ``t`` (leading axis 1), see
    :func:`relative_kinematics_many`; with joint DOFs, ``dofs`` = (theta, rate) (B, n_dofs)
    gives one entry per member (leading axis B)."""
    if tree.n_dofs:
        if dofs is None:  # the joints' initial states (t = 0)
            dofs = dof_initial_state(tree)
        th = np.atleast_2d(np.asarray(dofs[0], dtype=float))
        return relative_kinematics_many(tree, np.full(th.shape[0], float(t)), (th, np.atleast_2d(dofs[1])))
    return relative_kinematics_many(tree, [t]).take(0)


def dof_initial_state(tree: Tree) -> tuple[np.ndarray, np.ndarray]:
    """(theta, rate) (1, n_dofs) of the free joints at t = 0 (``drives.initial_state``)."""
    from floatwind.multibody.drives import initial_state

    vals = [initial_state(tree.joint_of[c].drive, tree.joint_of[c].rotation) for c in tree.dofs]
    th = np.array([[v[0] for v in vals]], dtype=float).reshape(1, len(vals))
    thd = np.array([[v[1] for v in vals]], dtype=float).reshape(1, len(vals))
    return th, thd


def rho_bar(rho: np.ndarray) -> np.ndarray:
    """Symmetric matrix of Wang (4.12): rho x (w x rho) = rho_bar w."""
    rr = np.einsum("...i,...i->...", rho, rho)
    return rr[..., None, None] * np.eye(3) - rho[..., :, None] * rho[..., None, :]


def rho_bar_dot(rho: np.ndarray, drho: np.ndarray) -> np.ndarray:
    """Local derivative of :func:`rho_bar`, Wang (5.22)."""
    rd = np.einsum("...i,...i->...", rho, drho)
    return (
        2.0 * rd[..., None, None] * np.eye(3)
        - drho[..., :, None] * rho[..., None, :]
        - rho[..., :, None] * drho[..., None, :]
    )


@dataclass
class MassDistribution:
    """Mass distribution about G_s in C_s (parallel to C_1). Shapes (1, ...).

    rho, drho, ddrho: rho_{G_i/G_s} (N, 3) and local derivatives (5.16), (5.23);
    r_s: rho_{G_s/G_1}; P = P1 + P2, Q = Q1 + Q2 (5.18) and local derivatives dP, dQ (5.20).
    J: inertia of each body about its CM in C_s axes (N, 3, 3).
    """

    rho: np.ndarray
    drho: np.ndarray
    ddrho: np.ndarray
    r_s: np.ndarray
    P: np.ndarray
    dP: np.ndarray
    Q: np.ndarray
    dQ: np.ndarray
    J: np.ndarray
    P1: np.ndarray
    P2: np.ndarray

    def take(self, k: int) -> MassDistribution:
        """Entry ``k`` of a block computed at many times, with leading axis 1."""
        sl = slice(k, k + 1)
        return MassDistribution(*(getattr(self, f)[sl] for f in self.__dataclass_fields__))


def mass_distribution(tree: Tree, rel: RelativeKinematics) -> MassDistribution:
    """System CM and the momentum coefficients P, Q of Wang (5.16)-(5.18), (5.20), (5.22)."""
    m = tree.mass[None, :, None]
    M = tree.total_mass
    r_s = (m * rel.r_G).sum(axis=1) / M  # Wang (5.16), third line
    dr_s = (m * rel.dr_G).sum(axis=1) / M
    ddr_s = (m * rel.ddr_G).sum(axis=1) / M
    rho = rel.r_G - r_s[:, None]  # Wang (5.16), fourth line
    drho = rel.dr_G - dr_s[:, None]  # Wang (5.23)
    ddrho = rel.ddr_G - ddr_s[:, None]
    I = tree.inertia_b[None]
    R = rel.R_c2s
    Rt = np.swapaxes(R, -1, -2)
    J = R @ I @ Rt  # T_{C_i->C_s} I_i T_{C_1->C_i}
    dJ = rel.dR_c2s @ I @ Rt + R @ I @ np.swapaxes(rel.dR_c2s, -1, -2)
    P1 = J.sum(axis=1)  # Wang (5.18)
    P2 = (m[..., None] * rho_bar(rho)).sum(axis=1)
    Q1 = _mv(J, rel.w_rel).sum(axis=1)
    Q2 = (m * cross(rho, drho)).sum(axis=1)
    dP1 = dJ.sum(axis=1)  # Wang (5.20)
    dP2 = (m[..., None] * rho_bar_dot(rho, drho)).sum(axis=1)  # Wang (5.22)
    dQ1 = (_mv(dJ, rel.w_rel) + _mv(J, rel.dw_rel)).sum(axis=1)
    dQ2 = (m * cross(rho, ddrho)).sum(axis=1)
    return MassDistribution(
        rho, drho, ddrho, r_s, P1 + P2, dP1 + dP2, Q1 + Q2, dQ1 + dQ2, J, P1, P2
    )


def body_kinematics(
    tree: Tree,
    t: float,
    rel: RelativeKinematics,
    md: MassDistribution,
    q: np.ndarray,
    qd: np.ndarray,
) -> Kinematics:
    """Absolute kinematics of every body (Wang 5.10 and its derivative)."""
    if _kernels.enabled():
        from floatwind._kernels import mcm as km

        r_G, R_b2g, v_G, w_g = km.body_kinematics(
            _f64(q), _f64(qd), _f64(md.rho), _f64(md.drho), _f64(rel.R_c2s), _f64(rel.w_rel)
        )
        return Kinematics(t=t, r_G_g=r_G, R_b2g=R_b2g, v_G_g=v_G, w_b_g=w_g, cm_b=tree.cm_b)
    R_s2g = euler123_matrix(q[:, 3:6])  # Wang (3.13)
    w_s = omega_from_euler_rates(q[:, 3:6], qd[:, 3:6])  # Wang (3.7), C_s axes
    rho_g = _mv(R_s2g[:, None], md.rho)
    r_G = q[:, None, 0:3] + rho_g  # Wang (5.10)
    v_rel = md.drho + cross(w_s[:, None], md.rho)  # Wang (5.16), fifth line
    v_G = qd[:, None, 0:3] + _mv(R_s2g[:, None], v_rel)
    R_b2g = R_s2g[:, None] @ rel.R_c2s
    w_g = _mv(R_s2g[:, None], w_s[:, None] + rel.w_rel)
    return Kinematics(t=t, r_G_g=r_G, R_b2g=R_b2g, v_G_g=v_G, w_b_g=w_g, cm_b=tree.cm_b)


@dataclass
class Accelerations:
    """Result of the forward dynamics: qdd (B, 6) and the body accelerations (B, N, 3)."""

    qdd: np.ndarray
    a_G_g: np.ndarray
    dw_b_g: np.ndarray
    angular_momentum_s: np.ndarray  # H about G_s, C_s axes (B, 3)
    #: joint accelerations of the free joints (B, n_dofs); None for a tree without joint DOFs
    qdd_dof: np.ndarray | None = None


def check_singularity(t: float, q: np.ndarray) -> None:
    """Stop with a clear error near X5 = +-pi/2, where the Euler-rate map is singular."""
    c5 = np.abs(np.cos(q[:, 4]))
    if np.any(c5 < EULER_SINGULARITY_TOL):
        from floatwind.errors import SimulationError

        bad = np.nonzero(c5 < EULER_SINGULARITY_TOL)[0].tolist()
        raise SimulationError(
            "base pitch X5 reached +-pi/2: the 1-2-3 Euler-angle rates are singular "
            "(use the Lie-group integrator for such motions)",
            time=t,
            state=q,
            members=bad,
        )


def forward_dynamics(
    tree: Tree,
    rel: RelativeKinematics,
    md: MassDistribution,
    q: np.ndarray,
    qd: np.ndarray,
    wrench: Wrench,
) -> Accelerations:
    """Solve the six basic EOMs of Wang (5.26) for qdd (B, 6).

    External loads enter per body (force, inertial; moment about the body CM, inertial) and are
    transferred to G_s and into C_s here. With ``wrench.added_mass`` the acceleration-dependent
    loads are moved to the inertia side and one coupled 6x6 system is solved per member.
    """
    if _kernels.enabled():
        return _forward_dynamics_jit(tree, rel, md, q, qd, wrench)
    B = q.shape[0]
    R_s2g = euler123_matrix(q[:, 3:6])
    R_g2s = np.swapaxes(R_s2g, -1, -2)
    ang, rates = q[:, 3:6], qd[:, 3:6]
    Tw = t_omega(ang)  # Wang (5.25) (see the erratum in floatwind.rotation.euler)
    RE = re_vector(ang, rates)
    w = _mv(Tw, rates)  # omega_B1 = omega_Cs, C_s axes (3.7)
    P, dP, Q, dQ = md.P, md.dP, md.Q, md.dQ
    H = _mv(P, w) + Q  # Wang (5.17)
    rho_g = _mv(R_s2g[:, None], md.rho)  # (B, N, 3)
    F_tot = wrench.force.sum(axis=1)
    M_Gs_g = (wrench.moment + cross(rho_g, wrench.force)).sum(axis=1)
    M_Gs_s = _mv(R_g2s, M_Gs_g)
    # Wang (5.26): rotational right-hand side
    rhs_rot = M_Gs_s - _mv(dP, w) - dQ - _mv(P, RE) - cross(w, H)
    M_rot = P @ Tw
    # velocity-dependent body accelerations (bias), used for outputs and the added-mass coupling
    c_a_s = (
        md.ddrho + 2.0 * cross(w[:, None], md.drho) + cross(w[:, None], cross(w[:, None], md.rho))
    )
    c_al_s = rel.dw_rel + cross(w[:, None], rel.w_rel)
    if wrench.added_mass is None:
        qdd_t = F_tot / tree.total_mass
        qdd_r = np.linalg.solve(M_rot, rhs_rot[..., None])[..., 0]
    else:
        A = wrench.added_mass  # (B, N, 6, 6)
        N = tree.n_bodies
        # body accelerations: [a_G; alpha] = Jb u + cb, u = [X1..3'', X4..6'']
        Jb = np.zeros((B, N, 6, 6))
        Jb[..., 0:3, 0:3] = np.eye(3)
        RTw = R_s2g @ Tw
        Jb[..., 0:3, 3:6] = -(R_s2g[:, None] @ skew(md.rho)) @ Tw[:, None]
        Jb[..., 3:6, 3:6] = RTw[:, None]
        cb = np.zeros((B, N, 6))
        cb[..., 0:3] = _mv(R_s2g[:, None], c_a_s + cross(RE[:, None], md.rho))
        cb[..., 3:6] = _mv(R_s2g[:, None], RE[:, None] + c_al_s)
        # generalized forces of a body wrench: [sum F; R^T (M + rho_g x F)]
        G = np.zeros((B, N, 6, 6))
        G[..., 0:3, 0:3] = np.eye(3)
        G[..., 3:6, 0:3] = R_g2s[:, None] @ skew(rho_g)
        G[..., 3:6, 3:6] = R_g2s[:, None]
        GA = G @ A
        Mfull = np.zeros((B, 6, 6))
        Mfull[:, 0:3, 0:3] = tree.total_mass * np.eye(3)
        Mfull[:, 3:6, 3:6] = M_rot
        Mfull = Mfull + (GA @ Jb).sum(axis=1)
        rhs = np.concatenate([F_tot, rhs_rot], axis=1) - _mv(GA, cb).sum(axis=1)
        u = np.linalg.solve(Mfull, rhs[..., None])[..., 0]
        qdd_t, qdd_r = u[:, 0:3], u[:, 3:6]
    dw = _mv(Tw, qdd_r) + RE  # Wang (5.24)
    a_s = c_a_s + cross(dw[:, None], md.rho)
    a_G = qdd_t[:, None] + _mv(R_s2g[:, None], a_s)
    dw_b = _mv(R_s2g[:, None], dw[:, None] + c_al_s)
    return Accelerations(np.concatenate([qdd_t, qdd_r], axis=1), a_G, dw_b, H)


def dof_columns(tree: Tree, rel: RelativeKinematics, md: MassDistribution):
    """Partial velocities of the joint DOFs (C_s axes), per member: E (B, N, 3, nf), the
    angular velocity of body i per unit rate of DOF k, and L (B, N, 3, nf), the local velocity
    of rho_{G_i/G_s} per unit rate of DOF k.

    A free joint c turning about e_c = T_{C_c->C_1} a_c through its point J_c
    (rho_J = rho_p + T_p (r_J_p - cm_p), Wang 5.16) moves every body i outboard of it with
    angular velocity e_c and CM velocity e_c x (rho_i - rho_J); a geared follower adds the same
    with its ratio; G_s moves by the mass-weighted mean, which is subtracted (the base
    coordinates are those of G_s, Wang 5.16)."""
    B, N = md.rho.shape[0], tree.n_bodies
    nf = tree.n_dofs
    E = np.zeros((B, N, 3, nf))
    L = np.zeros((B, N, 3, nf))
    for c in tree.order[1:]:
        k = int(tree.dof_of[c])
        if k < 0:
            continue
        j = tree.joint_of[c]
        p = j.parent
        e = _mv(rel.R_c2s[:, c], j.axis) * tree.dof_ratio[c]  # (B, 3)
        rho_J = md.rho[:, p] + _mv(rel.R_c2s[:, p], j.r_J_p - tree.cm_b[p])
        for i in tree.subtree(c):
            E[:, i, :, k] += e
            L[:, i, :, k] += cross(e, md.rho[:, i] - rho_J)
    m = tree.mass[None, :, None, None]
    L = L - (m * L).sum(axis=1, keepdims=True) / tree.total_mass
    return E, L


def forward_dynamics_dofs(
    tree: Tree,
    rel: RelativeKinematics,
    md: MassDistribution,
    q: np.ndarray,
    qd: np.ndarray,
    wrench: Wrench,
    tau: np.ndarray,
) -> Accelerations:
    """Forward dynamics of a tree with joint degrees of freedom (docs/multibody.md, "Joint
    DOFs"): the unknowns are the six base accelerations and the n_dofs joint accelerations,
    solved together per member.

    * Base rows: the six EOMs of Wang (5.26) (translation of G_s, moment of momentum about G_s
      in C_s), where the local derivative of Q (5.20) now holds the unknown joint accelerations:
      dQ = dQ|_{theta''=0} + sum_k D_k theta_k'' with D_k = sum_i (J_i E_ik + m_i rho_i x L_ik)
      (5.18), (5.22); the translation row has no such term (sum_i m_i L_ik = 0).
    * Joint rows: the moment of momentum (5.28) of the subtree outboard of the joint about the
      joint point, projected on its axis, equals the drive torque tau_k; written with the
      partial velocities of :func:`dof_columns` as sum_i [v_ik . (m_i a_i - F_i) + w_ik .
      (dH_i/dt - M_i)] = tau_k (the same equation, summed over geared followers).
    * Acceleration-dependent loads (``wrench.added_mass``) join both, as in :func:`forward_dynamics`.

    ``tau`` (B, n_dofs) the drive torques. ``rel``/``md`` carry one entry per member (leading
    B), computed with the joint states and zero joint accelerations. Returns
    :class:`Accelerations` with ``qdd_dof``.
    """
    B, N, nf = q.shape[0], tree.n_bodies, tree.n_dofs
    n = 6 + nf
    R_s2g = euler123_matrix(q[:, 3:6])
    R_g2s = np.swapaxes(R_s2g, -1, -2)
    ang, rates = q[:, 3:6], qd[:, 3:6]
    Tw = t_omega(ang)  # Wang (5.25)
    RE = re_vector(ang, rates)
    w = _mv(Tw, rates)  # Wang (3.7)
    P, dP, Q, dQ = md.P, md.dP, md.Q, md.dQ
    H = _mv(P, w) + Q  # Wang (5.17)
    rho_g = _mv(R_s2g[:, None], md.rho)
    F_tot = wrench.force.sum(axis=1)
    M_Gs_s = _mv(R_g2s, (wrench.moment + cross(rho_g, wrench.force)).sum(axis=1))
    rhs_rot = M_Gs_s - _mv(dP, w) - dQ - _mv(P, RE) - cross(w, H)  # Wang (5.26)
    c_a_s = (
        md.ddrho + 2.0 * cross(w[:, None], md.drho) + cross(w[:, None], cross(w[:, None], md.rho))
    )
    c_al_s = rel.dw_rel + cross(w[:, None], rel.w_rel)
    E, L = dof_columns(tree, rel, md)
    # body accelerations (inertial) [a_G; alpha] = Jb u + cb, u = [X1..3'', X4..6'', theta'']
    Jb = np.zeros((B, N, 6, n))
    Jb[..., 0:3, 0:3] = np.eye(3)
    Jb[..., 0:3, 3:6] = -(R_s2g[:, None] @ skew(md.rho)) @ Tw[:, None]
    Jb[..., 3:6, 3:6] = (R_s2g @ Tw)[:, None]
    Jb[..., 0:3, 6:] = R_s2g[:, None] @ L
    Jb[..., 3:6, 6:] = R_s2g[:, None] @ E
    cb = np.zeros((B, N, 6))
    cb[..., 0:3] = _mv(R_s2g[:, None], c_a_s + cross(RE[:, None], md.rho))
    cb[..., 3:6] = _mv(R_s2g[:, None], RE[:, None] + c_al_s)
    K = np.zeros((B, n, n))
    r = np.zeros((B, n))
    K[:, 0:3, 0:3] = tree.total_mass * np.eye(3)
    K[:, 3:6, 3:6] = P @ Tw
    m = tree.mass[None, :, None]
    # D_k: theta_k'' in dQ (Wang 5.20, 5.22)
    D = (md.J @ E).sum(axis=1) + (m[..., None] * np.cross(md.rho[..., None], L, axis=-2)).sum(axis=1)
    K[:, 3:6, 6:] = D
    r[:, 0:3] = F_tot
    r[:, 3:6] = rhs_rot
    # rigid inertia per body (inertial axes) and gyroscopic terms, for the joint rows
    R_b = R_s2g[:, None] @ rel.R_c2s
    I_g = R_b @ tree.inertia_b[None] @ np.swapaxes(R_b, -1, -2)
    w_b = _mv(R_s2g[:, None], w[:, None] + rel.w_rel)
    Mi = np.zeros((B, N, 6, 6))
    Mi[..., 0:3, 0:3] = tree.mass[None, :, None, None] * np.eye(3)
    Mi[..., 3:6, 3:6] = I_g
    gyro = np.zeros((B, N, 6))
    gyro[..., 3:6] = cross(w_b, _mv(I_g, w_b))
    W = np.concatenate([wrench.force, wrench.moment], axis=-1)
    A = wrench.added_mass
    if A is not None:
        A = np.broadcast_to(A, (B, N, 6, 6))
        G = np.zeros((B, N, 6, 6))
        G[..., 0:3, 0:3] = np.eye(3)
        G[..., 3:6, 0:3] = R_g2s[:, None] @ skew(rho_g)
        G[..., 3:6, 3:6] = R_g2s[:, None]
        GA = G @ A
        K[:, 0:6, :] += (GA @ Jb).sum(axis=1)
        r[:, 0:6] -= _mv(GA, cb).sum(axis=1)
        Mi = Mi + A
    Jd = np.swapaxes(Jb[..., 6:], -1, -2)  # (B, N, nf, 6): partial velocities of the DOFs
    K[:, 6:, :] = (Jd @ Mi @ Jb).sum(axis=1)  # Wang (5.28) about the joint point, on its axis
    r[:, 6:] = tau + _mv(Jd, W - gyro - _mv(Mi, cb)).sum(axis=1)
    u = np.linalg.solve(K, r[..., None])[..., 0]
    acc6 = _mv(Jb, u[:, None]) + cb
    return Accelerations(u[:, 0:6], acc6[..., 0:3], acc6[..., 3:6], H, u[:, 6:])


def _f64(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=float)


def _forward_dynamics_jit(tree, rel, md, q, qd, wrench) -> Accelerations:
    """:func:`forward_dynamics` with the compiled kernel (floatwind._kernels.mcm)."""
    from floatwind._kernels import mcm as km

    B, N = q.shape[0], tree.n_bodies
    A = wrench.added_mass
    coupled = A is not None
    if coupled:
        A = _f64(np.broadcast_to(A, (B, N, 6, 6)))
    else:
        A = np.zeros((1, 1, 6, 6))
    m = km.Momentum(
        rho=_f64(md.rho),
        drho=_f64(md.drho),
        ddrho=_f64(md.ddrho),
        w_rel=_f64(rel.w_rel),
        dw_rel=_f64(rel.dw_rel),
        P=_f64(md.P),
        dP=_f64(md.dP),
        Q=_f64(md.Q),
        dQ=_f64(md.dQ),
        total_mass=float(tree.total_mass),
    )
    qdd, a_G, dw_b, H = km.forward_dynamics(
        _f64(q),
        _f64(qd),
        m,
        _f64(np.broadcast_to(wrench.force, (B, N, 3))),
        _f64(np.broadcast_to(wrench.moment, (B, N, 3))),
        A,
        coupled,
    )
    return Accelerations(qdd, a_G, dw_b, H)


def system_state_from_base(
    tree: Tree,
    t: float,
    r_G1_g: np.ndarray,
    angles: np.ndarray,
    v_G1_g: np.ndarray,
    rates: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Pre-processing of Wang (5.10): system CM state from the base body CM state.

    Parameters: base CM position/velocity (B, 3) inertial, Euler angles/rates (B, 3).
    Returns q, qd (B, 6).
    """
    rel = relative_kinematics(tree, t)
    md = mass_distribution(tree, rel)
    R = euler123_matrix(angles)
    w = omega_from_euler_rates(angles, rates)
    rho1 = md.rho[:, 0]
    X = r_G1_g - _mv(R, rho1)
    Xd = v_G1_g - _mv(R, md.drho[:, 0] + cross(w, rho1))
    return np.concatenate([X, angles], axis=1), np.concatenate([Xd, rates], axis=1)
