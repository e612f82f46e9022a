"""Compiled forward dynamics of a tree with joint degrees of freedom (docs/multibody.md, "Joint
DOFs"): the kernels of :func:`floatwind.multibody.mcm.forward_dynamics_dofs` and of the per-member
relative kinematics, for the fused right-hand side (:func:`floatwind._kernels.fused.system_rhs`).

The state holds, after the 12 rigid-body columns, the angles (``12 .. 12 + nf``) and rates
(``12 + nf .. 12 + 2 nf``) of the free joints. Per member:

* :func:`member_rel`: the relative kinematics and momentum coefficients (Wang 5.14-5.23) with
  the joint DOFs' angle and rate from the state (zero joint acceleration) and the prescribed
  joints' motions at the grid time (``floatwind._kernels.mcm.rel_table`` on one row per member);
* :func:`drive_torques`: the drives' torques (``floatwind.multibody.drives``);
* :func:`forward_dynamics_dofs`: the base rows of Wang (5.26) with the joint accelerations in
  dQ, and per DOF the axial moment of momentum (5.28) of the outboard subtree about the joint
  point (written with partial velocities), solved together per member.

Every member goes through the same operations in the same order whatever B (bit-identical
alone and in a batch).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from floatwind._kernels import loads as kl
from floatwind._kernels import mcm as km

__all__ = ["DofParams", "drive_torques", "forward_dynamics_dofs", "member_rel"]


class DofParams(NamedTuple):
    """The tree and the drives of a model with joint DOFs (``n`` = 0: none; then the arrays are
    placeholders and never read)."""

    n: int  # number of joint DOFs
    order: np.ndarray  # (N,) int64 topological order
    parent: np.ndarray  # (N,) int64
    axis: np.ndarray  # (N, 3) joint axis (child frame) per child body
    R0_c2p: np.ndarray  # (N, 3, 3)
    rJp: np.ndarray  # (N, 3) r_J_p - cm_b[parent]
    uc: np.ndarray  # (N, 3) cm_b[child] - r_J_c
    mass: np.ndarray  # (N,)
    inertia_b: np.ndarray  # (N, 3, 3)
    total_mass: float
    cm_b: np.ndarray  # (N, 3)
    dof_of: np.ndarray  # (N,) int64: DOF whose angle a joint takes (-1 prescribed)
    dof_ratio: np.ndarray  # (N,) gear ratio (1 for the free joint itself)
    dof_offset: np.ndarray  # (N,) gear offset (rad)
    dof_child: np.ndarray  # (nf,) int64 child body of each free joint
    sub: np.ndarray  # (N, N) int64: 1 where body i is outboard of (or is) child body c: sub[c, i]
    stiffness: np.ndarray  # (nf,)
    damping: np.ndarray  # (nf,)
    torque0: np.ndarray  # (nf,)
    table_n: np.ndarray  # (nf,) int64
    table_x: np.ndarray  # (nf, n_max)
    table_y: np.ndarray  # (nf, n_max)
    motion: np.ndarray  # (T, N, 6) joint motions at the grid times (free joints: the command)


@njit(cache=True, fastmath=False)
def member_rel(d, g, y):
    """The relative kinematics table with one row per member (leading axis B) at grid index
    ``g``: the prescribed motions of ``d.motion[g]``, the joint DOFs from ``y``."""
    B = y.shape[0]
    N = d.mass.shape[0]
    nf = d.n
    motion = np.empty((B, N, 6))
    for b in range(B):
        for c in range(N):
            k = d.dof_of[c]
            for col in range(6):
                motion[b, c, col] = d.motion[g, c, col]
            if k >= 0:
                r = d.dof_ratio[c]
                motion[b, c, 0] = r * y[b, 12 + k] + d.dof_offset[c]
                motion[b, c, 1] = r * y[b, 12 + nf + k]
                motion[b, c, 2] = 0.0
    out = RelTableB(
        np.empty((B, N, 3)), np.empty((B, N, 3)), np.empty((B, N, 3)),
        np.empty((B, N, 3, 3)), np.empty((B, N, 3)), np.empty((B, N, 3)),
        np.empty((B, 3, 3)), np.empty((B, 3, 3)), np.empty((B, 3)), np.empty((B, 3)),
        d.total_mass, d.cm_b,
    )  # fmt: skip
    km.rel_table(
        d.order, d.parent, d.axis, d.R0_c2p, d.rJp, d.uc, d.mass, d.inertia_b, d.total_mass,
        motion, out,
    )  # fmt: skip
    return out


class RelTableB(NamedTuple):
    """Same fields as ``floatwind._kernels.fused.RelTable`` (one row per member)."""

    rho: np.ndarray
    drho: np.ndarray
    ddrho: np.ndarray
    R_c2s: np.ndarray
    w_rel: np.ndarray
    dw_rel: np.ndarray
    P: np.ndarray
    dP: np.ndarray
    Q: np.ndarray
    dQ: np.ndarray
    total_mass: float
    cm_b: np.ndarray


@njit(cache=True, fastmath=False)
def drive_torques(d, g, y):
    """tau (B, nf) = -K (theta - theta_c) - C (theta' - theta_c') + tau0 + table(theta')
    (``floatwind.multibody.drives.Drive.torque``); the command from ``d.motion[g]``."""
    B = y.shape[0]
    nf = d.n
    tau = np.empty((B, nf))
    for b in range(B):
        for k in range(nf):
            c = d.dof_child[k]
            th = y[b, 12 + k]
            thd = y[b, 12 + nf + k]
            v = (
                -d.stiffness[k] * (th - d.motion[g, c, 0])
                - d.damping[k] * (thd - d.motion[g, c, 1])
                + d.torque0[k]
            )
            if d.table_n[k] > 0:
                m = d.table_n[k]
                v += kl._interp(thd, d.table_x[k, :m], d.table_y[k, :m])
            tau[b, k] = v
    return tau


@njit(cache=True, fastmath=False)
def forward_dynamics_dofs(q, qd, rel, d, tau, force, moment, A, coupled):
    """Base and joint accelerations of every member (see the module docstring).

    q, qd (B, 6); ``rel`` one row per member (:func:`member_rel`); ``tau`` (B, nf); force,
    moment (B, N, 3); A (B, N, 6, 6) added mass (read when ``coupled``).
    Returns qdd (B, 6), qdd_dof (B, nf), a_G (B, N, 3), dw_b (B, N, 3), H (B, 3).
    """
    B = q.shape[0]
    N = d.mass.shape[0]
    nf = d.n
    n = 6 + nf
    qdd = np.empty((B, 6))
    qdd_dof = np.empty((B, nf))
    a_G = np.empty((B, N, 3))
    dw_b = np.empty((B, N, 3))
    H = np.empty((B, 3))
    R = np.empty((3, 3))
    Tw = np.empty((3, 3))
    RE = np.empty(3)
    w = np.empty(3)
    h = np.empty(3)
    t1 = np.empty(3)
    t2 = np.empty(3)
    t3 = np.empty(3)
    x3 = np.empty(3)
    rho_g = np.empty((N, 3))
    c_a = np.empty((N, 3))
    c_al = np.empty((N, 3))
    F = np.empty(3)
    Mg = np.empty(3)
    E = np.empty((N, 3, nf))
    L = np.empty((N, 3, nf))
    Jb = np.empty((N, 6, n))
    cb = np.empty((N, 6))
    K = np.empty((n, n))
    r = np.empty(n)
    u = np.empty(n)
    Js = np.empty((3, 3))
    Rb = np.empty((3, 3))
    Ig = np.empty((3, 3))
    Mi = np.empty((6, 6))
    wb = np.empty(3)
    G = np.empty((6, 6))
    GA = np.empty((6, 6))
    MJ = np.empty((6, n))
    v6 = np.empty(6)
    for b in range(B):
        P0 = rel.P[b]
        km._euler123(q[b, 3], q[b, 4], q[b, 5], R)
        km._t_omega(q[b, 4], q[b, 5], Tw)
        km._re(q[b, 4], q[b, 5], qd[b, 3], qd[b, 4], qd[b, 5], RE)
        km._mv(Tw, qd[b, 3:6], w)
        km._mv(P0, w, t1)
        for k in range(3):
            h[k] = t1[k] + rel.Q[b, k]
            H[b, k] = h[k]
        # external wrench about G_s (inertial) and the rotational right-hand side (5.26)
        for k in range(3):
            F[k] = 0.0
            Mg[k] = 0.0
        for i in range(N):
            km._mv(R, rel.rho[b, i], t1)
            for k in range(3):
                rho_g[i, k] = t1[k]
            km._cross(t1, force[b, i], t2)
            for k in range(3):
                F[k] += force[b, i, k]
                Mg[k] += moment[b, i, k] + t2[k]
        km._mtv(R, Mg, t1)
        km._mv(rel.dP[b], w, t2)
        km._mv(P0, RE, t3)
        km._cross(w, h, x3)
        for k in range(n):
            r[k] = 0.0
            for c in range(n):
                K[k, c] = 0.0
        for k in range(3):
            r[k] = F[k]
            r[3 + k] = t1[k] - t2[k] - rel.dQ[b, k] - t3[k] - x3[k]
            K[k, k] = d.total_mass
            for c in range(3):
                K[3 + k, 3 + c] = P0[k, 0] * Tw[0, c] + P0[k, 1] * Tw[1, c] + P0[k, 2] * Tw[2, c]
        # velocity-dependent body accelerations (C_s axes)
        for i in range(N):
            km._cross(w, rel.drho[b, i], t1)
            km._cross(w, rel.rho[b, i], t2)
            km._cross(w, t2, t3)
            for k in range(3):
                c_a[i, k] = rel.ddrho[b, i, k] + 2.0 * t1[k] + t3[k]
            km._cross(w, rel.w_rel[b, i], t1)
            for k in range(3):
                c_al[i, k] = rel.dw_rel[b, i, k] + t1[k]
        # partial velocities of the DOFs (C_s axes): E angular, L of rho_{G_i/G_s}
        for i in range(N):
            for k in range(3):
                for j in range(nf):
                    E[i, k, j] = 0.0
                    L[i, k, j] = 0.0
        for c in range(N):
            j = d.dof_of[c]
            if j < 0:
                continue
            p = d.parent[c]
            km._mv(rel.R_c2s[b, c], d.axis[c], t1)
            for k in range(3):
                t1[k] *= d.dof_ratio[c]
            km._mv(rel.R_c2s[b, p], d.rJp[c], t2)
            for k in range(3):
                t2[k] += rel.rho[b, p, k]  # rho_J
            for i in range(N):
                if d.sub[c, i] == 0:
                    continue
                for k in range(3):
                    t3[k] = rel.rho[b, i, k] - t2[k]
                km._cross(t1, t3, x3)
                for k in range(3):
                    E[i, k, j] += t1[k]
                    L[i, k, j] += x3[k]
        for j in range(nf):
            for k in range(3):
                s = 0.0
                for i in range(N):
                    s += d.mass[i] * L[i, k, j]
                s = s / d.total_mass
                for i in range(N):
                    L[i, k, j] -= s
        # Jb (inertial): [a_G; alpha] = Jb u + cb
        for i in range(N):
            for rr in range(6):
                for c in range(n):
                    Jb[i, rr, c] = 0.0
            for c in range(3):
                t1[0] = Tw[0, c]
                t1[1] = Tw[1, c]
                t1[2] = Tw[2, c]
                km._cross(rel.rho[b, i], t1, t2)
                km._mv(R, t2, t3)
                for rr in range(3):
                    Jb[i, rr, 3 + c] = -t3[rr]
                    Jb[i, 3 + rr, 3 + c] = R[rr, 0] * Tw[0, c] + R[rr, 1] * Tw[1, c] + R[rr, 2] * Tw[2, c]
            for rr in range(3):
                Jb[i, rr, rr] = 1.0
            for j in range(nf):
                for k in range(3):
                    t1[k] = L[i, k, j]
                    t2[k] = E[i, k, j]
                km._mv(R, t1, t3)
                km._mv(R, t2, x3)
                for k in range(3):
                    Jb[i, k, 6 + j] = t3[k]
                    Jb[i, 3 + k, 6 + j] = x3[k]
            km._cross(RE, rel.rho[b, i], t1)
            for k in range(3):
                t2[k] = c_a[i, k] + t1[k]
            km._mv(R, t2, t3)
            for k in range(3):
                cb[i, k] = t3[k]
                t2[k] = RE[k] + c_al[i, k]
            km._mv(R, t2, t3)
            for k in range(3):
                cb[i, 3 + k] = t3[k]
        # D_k = sum_i (J_i E_ik + m_i rho_i x L_ik): the joint accelerations in dQ (5.20)
        for i in range(N):
            _rot_inertia(rel.R_c2s[b, i], d.inertia_b[i], Js)
            for j in range(nf):
                for k in range(3):
                    t1[k] = L[i, k, j]
                km._cross(rel.rho[b, i], t1, t2)
                for k in range(3):
                    s = Js[k, 0] * E[i, 0, j] + Js[k, 1] * E[i, 1, j] + Js[k, 2] * E[i, 2, j]
                    K[3 + k, 6 + j] += s + d.mass[i] * t2[k]
        # per body: rigid inertia (inertial), gyroscopic term, added mass
        for i in range(N):
            for rr in range(3):
                for c in range(3):
                    Rb[rr, c] = (
                        R[rr, 0] * rel.R_c2s[b, i, 0, c]
                        + R[rr, 1] * rel.R_c2s[b, i, 1, c]
                        + R[rr, 2] * rel.R_c2s[b, i, 2, c]
                    )
            _rot_inertia(Rb, d.inertia_b[i], Ig)
            for k in range(3):
                t1[k] = w[k] + rel.w_rel[b, i, k]
            km._mv(R, t1, wb)
            for rr in range(6):
                for c in range(6):
                    Mi[rr, c] = 0.0
            for rr in range(3):
                Mi[rr, rr] = d.mass[i]
                for c in range(3):
                    Mi[3 + rr, 3 + c] = Ig[rr, c]
            if coupled:
                # base rows: generalized forces of the added-mass wrench (as the prescribed core)
                km.added_mass_rows(R, rho_g[i], A[b, i], G, GA)
                for rr in range(6):
                    for c in range(n):
                        s = 0.0
                        for k in range(6):
                            s += GA[rr, k] * Jb[i, k, c]
                        K[rr, c] += s
                    s = 0.0
                    for k in range(6):
                        s += GA[rr, k] * cb[i, k]
                    r[rr] -= s
                for rr in range(6):
                    for c in range(6):
                        Mi[rr, c] += A[b, i, rr, c]
            # joint rows: sum_i Jd_i^T (Mi (Jb u + cb) + gyro - W) = tau   (5.28 on the axis)
            for rr in range(6):
                for c in range(n):
                    s = 0.0
                    for k in range(6):
                        s += Mi[rr, k] * Jb[i, k, c]
                    MJ[rr, c] = s
                s = 0.0
                for k in range(6):
                    s += Mi[rr, k] * cb[i, k]
                v6[rr] = s
            km._mv(Ig, wb, t1)
            km._cross(wb, t1, t2)
            for k in range(3):
                v6[k] = force[b, i, k] - v6[k]
                v6[3 + k] = moment[b, i, k] - t2[k] - v6[3 + k]
            for j in range(nf):
                for c in range(n):
                    s = 0.0
                    for k in range(6):
                        s += Jb[i, k, 6 + j] * MJ[k, c]
                    K[6 + j, c] += s
                s = 0.0
                for k in range(6):
                    s += Jb[i, k, 6 + j] * v6[k]
                r[6 + j] += s
        for j in range(nf):
            r[6 + j] += tau[b, j]
        km.solve_small(K, r, u)
        for k in range(6):
            qdd[b, k] = u[k]
        for j in range(nf):
            qdd_dof[b, j] = u[6 + j]
        for i in range(N):
            for k in range(6):
                s = cb[i, k]
                for c in range(n):
                    s += Jb[i, k, c] * u[c]
                v6[k] = s
            for k in range(3):
                a_G[b, i, k] = v6[k]
                dw_b[b, i, k] = v6[3 + k]
    return qdd, qdd_dof, a_G, dw_b, H


@njit(cache=True, fastmath=False)
def _rot_inertia(R, I, out):
    """out = R I R^T."""
    for a in range(3):
        for c in range(3):
            s = 0.0
            for k in range(3):
                for m in range(3):
                    s += R[a, k] * I[k, m] * R[c, m]
            out[a, c] = s
