"""Compiled flexible tower (issue 37; docs/multibody.md, "Flexible tower"): the kernels of
:class:`floatwind.multibody.flex_dynamics.FlexTower` (``relative``, ``mass_distribution``,
``partials``, ``forward_dynamics``) for the fused right-hand side
(the flexible form of :func:`floatwind._kernels.fused.system_rhs_dofs`).

The state holds, after the 12 rigid-body columns, the joint angles and the modal coordinates
(``12 .. 12 + nf``, joints first) and their rates (``12 + nf .. 12 + 2 nf``). Per member:

* :func:`flex_state`: the tree's relative kinematics with the joint DOFs
  (``floatwind._kernels.mcm.rel_table`` on one row per member), the tower nodes and the tower
  top from the modal coordinates (ElastoDyn ``CalculatePositions`` rZT, ``SetCoordSy`` /
  ``SmllRotTrans`` for the top frame), the bodies above the top carried by the deflected top,
  the momentum coefficients over bodies + nodes (Wang 5.16-5.22) and the partial velocities of
  the joints and the modes (mass-weighted mean removed: G_s of bodies + nodes);
* :func:`flex_dynamics`: the base rows of Wang (5.26) with the DOF accelerations in dQ and
  Kane's rows of the joints and the modes (docs/multibody.md, "Joint DOFs") over bodies and
  nodes, the nodes' weight included, solved together per member.

The NumPy path (flex_dynamics.py) is the reference; the two agree to rounding. Every member
goes through the same operations in the same order whatever B (bit-identical alone and in a
batch).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from floatwind._kernels import joints as kj
from floatwind._kernels import mcm as km
from floatwind._kernels.joints import DofParams
from floatwind.jit import njit

__all__ = ["FlexParams", "FlexState", "flex_dynamics", "flex_state"]


class FlexParams(NamedTuple):
    """The tree (its joints in ``d``, ``d.n`` of them) and the tower modes of a flexible model."""

    d: DofParams
    n: int  # tower modes
    nf: int  # d.n + n: the DOF columns of the state
    phi: np.ndarray  # (n, J1) mode shapes at the nodes, last = the top (1)
    e: np.ndarray  # (n, 3) mode direction (x fore-aft, y side-side)
    slope: np.ndarray  # (n,) mode slopes at the top
    is_fa: np.ndarray  # (n,) int64: 1 fore-aft
    axred: np.ndarray  # (n, n, J1) ElastoDyn AxRed
    Km: np.ndarray  # (n, n) modal stiffness
    Cm: np.ndarray  # (n, n) modal damping
    node0: np.ndarray  # (J1, 3) undeflected nodes and top rel. the base CM (base frame)
    mass_ext: np.ndarray  # (N + J1,) bodies then nodes (the top point massless)
    inertia_ext: np.ndarray  # (N + J1, 3, 3)
    total_mass: float
    gravity: float
    top0: np.ndarray  # (3,) undeflected tower top rel. the base CM
    pt: np.ndarray  # (N, 3) joint point of a joint on the base rel. the undeflected top
    rider: np.ndarray  # (N,) int64: 1 for the bodies carried by the tower top
    moving: bool  # the prescribed joint motions change in time (else d.motion has one row)


class FlexState(NamedTuple):
    """One row per member: bodies + nodes about G_s of bodies + nodes, and the partials."""

    rho: np.ndarray  # (B, NE, 3)
    drho: np.ndarray
    ddrho: np.ndarray
    R: np.ndarray  # (B, NE, 3, 3) body frames in C_1
    w: np.ndarray  # (B, NE, 3) relative angular velocity (C_1)
    dw: np.ndarray
    P: np.ndarray  # (B, 3, 3)
    dP: np.ndarray
    Q: np.ndarray  # (B, 3)
    dQ: np.ndarray
    E: np.ndarray  # (B, NE, 3, nf) partial angular velocities
    L: np.ndarray  # (B, NE, 3, nf) partial velocities of rho


@njit(cache=True, fastmath=False)
def _top_frame(t1, t3, RF):
    """ElastoDyn ``SmllRotTrans(t1, 0, t3)`` (NWTC_Num.f90, the orthonormalised small-angle
    matrix; b_i = T_ij a_j with a1 = x, a2 = -z... as FlexTower._top_frame_elastodyn) as the
    columns x_top, y_top, z_top of R_F in the base frame."""
    S = t1 * t1 + t3 * t3
    if S == 0.0:
        for i in range(3):
            for j in range(3):
                RF[i, j] = 1.0 if i == j else 0.0
        return
    sq = math.sqrt(1.0 + S)
    D = S * sq
    t13 = t1 * t3 * (sq - 1.0)
    T00 = (t1 * t1 * sq + t3 * t3) / D
    T11 = (t1 * t1 + t3 * t3) / D
    T22 = (t1 * t1 + t3 * t3 * sq) / D
    T01 = t3 * S / D
    T10 = -t3 * S / D
    T02 = t13 / D
    T20 = t13 / D
    T12 = t1 * S / D
    T21 = -t1 * S / D
    # a1 = x, a2 = (0, 0, -1), a3 = (0, 1, 0): b_i = (T_i0, -T_i2, T_i1); R_F = [b0, -b2, b1]
    RF[0, 0], RF[1, 0], RF[2, 0] = T00, -T02, T01
    RF[0, 1], RF[1, 1], RF[2, 1] = -T20, T22, -T21
    RF[0, 2], RF[1, 2], RF[2, 2] = T10, -T12, T11


@njit(cache=True, fastmath=False)
def flex_state(f, g, y):
    """Relative kinematics (one row per member) of the tree bodies for the loads
    (:class:`floatwind._kernels.joints.RelTableB`) and the :class:`FlexState` of bodies + nodes
    at grid index ``g`` (see the module docstring)."""
    d = f.d
    B = y.shape[0]
    N = d.mass.shape[0]
    nj = d.n
    n = f.n
    nf = f.nf
    J1 = f.node0.shape[0]
    NE = N + J1
    t0 = kj.rel_rows(d, kj.member_motion(d, g if f.moving else 0, y, nf))
    st = FlexState(
        np.empty((B, NE, 3)), np.empty((B, NE, 3)), np.empty((B, NE, 3)),
        np.empty((B, NE, 3, 3)), np.empty((B, NE, 3)), np.empty((B, NE, 3)),
        np.empty((B, 3, 3)), np.empty((B, 3, 3)), np.empty((B, 3)), np.empty((B, 3)),
        np.zeros((B, NE, 3, nf)), np.zeros((B, NE, 3, nf)),
    )  # fmt: skip
    r = np.empty((NE, 3))
    dr = np.empty((NE, 3))
    ddr = np.empty((NE, 3))
    dR = np.empty((NE, 3, 3))
    RF = np.empty((3, 3))
    EF = np.zeros((3, n))
    wF = np.zeros(3)
    axq = np.empty(n)
    dP = np.empty((J1, 3))
    vP = np.empty((J1, 3))
    aP = np.empty((J1, 3))
    LP = np.empty((J1, 3, n))
    s = np.empty(3)
    Rs = np.empty(3)
    Rds = np.empty(3)
    Rdds = np.empty(3)
    t1 = np.empty(3)
    t2 = np.empty(3)
    t3 = np.empty(3)
    R0 = np.empty((3, 3))
    dR0 = np.empty((3, 3))
    M3 = np.empty((3, 3))
    J = np.empty((3, 3))
    dJ = np.empty((3, 3))
    RI = np.empty((3, 3))
    rs = np.empty(3)
    drs = np.empty(3)
    ddrs = np.empty(3)
    for b in range(B):
        R = st.R[b]
        w = st.w[b]
        dw = st.dw[b]
        E = st.E[b]
        L = st.L[b]
        # the tree relative to G_1 (rho_i - rho_1; dR = [w] R)
        for i in range(N):
            for k in range(3):
                r[i, k] = t0.rho[b, i, k] - t0.rho[b, 0, k]
                dr[i, k] = t0.drho[b, i, k] - t0.drho[b, 0, k]
                ddr[i, k] = t0.ddrho[b, i, k] - t0.ddrho[b, 0, k]
                w[i, k] = t0.w_rel[b, i, k]
                dw[i, k] = t0.dw_rel[b, i, k]
                for c in range(3):
                    R[i, k, c] = t0.R_c2s[b, i, k, c]
            for c in range(3):
                for k in range(3):
                    t1[k] = R[i, k, c]
                km._cross(w[i], t1, t2)
                for k in range(3):
                    dR[i, k, c] = t2[k]
        # tower top slopes (ElastoDyn SetCoordSy): th_y fore-aft, th_x = -side-side
        thx = 0.0
        thy = 0.0
        thxd = 0.0
        thyd = 0.0
        for k in range(n):
            qk = y[b, 12 + nj + k]
            qdk = y[b, 12 + nf + nj + k]
            if f.is_fa[k] == 1:
                thy += f.slope[k] * qk
                thyd += f.slope[k] * qdk
                EF[1, k] = f.slope[k]
            else:
                thx -= f.slope[k] * qk
                thxd -= f.slope[k] * qdk
                EF[0, k] = -f.slope[k]
        _top_frame(thx, -thy, RF)
        wF[0] = thxd
        wF[1] = thyd
        wF[2] = 0.0
        # nodes and top (ElastoDyn rZT, PLinVelET, LinAccETt; q'' = 0)
        for j in range(J1):
            for k in range(n):
                a = 0.0
                for m in range(n):
                    a += y[b, 12 + nj + m] * f.axred[k, m, j]
                axq[k] = a
            for c in range(3):
                a = 0.0
                for k in range(n):
                    a += y[b, 12 + nj + k] * f.phi[k, j] * f.e[k, c]
                dP[j, c] = a
            a = 0.0
            for k in range(n):
                a += axq[k] * y[b, 12 + nj + k]
            dP[j, 2] -= 0.5 * a
            for k in range(n):
                for c in range(3):
                    LP[j, c, k] = f.phi[k, j] * f.e[k, c]
                LP[j, 2, k] -= axq[k]
            for c in range(3):
                a = 0.0
                for k in range(n):
                    a += LP[j, c, k] * y[b, 12 + nf + nj + k]
                vP[j, c] = a
            a = 0.0
            for k in range(n):
                for m in range(n):
                    a += y[b, 12 + nf + nj + k] * f.axred[k, m, j] * y[b, 12 + nf + nj + m]
            aP[j, 0] = 0.0
            aP[j, 1] = 0.0
            aP[j, 2] = -a
        jt = J1 - 1
        # the bodies on the deflected top: r_T + R_F s, w_F + R_F w, R_F R (dw_F = 0)
        for i in range(N):
            if f.rider[i] == 0:
                continue
            for k in range(3):
                s[k] = r[i, k] - f.top0[k]
            km._mv(RF, s, Rs)
            km._mv(RF, dr[i], Rds)
            km._mv(RF, ddr[i], Rdds)
            km._cross(wF, Rs, t1)
            km._cross(wF, t1, t2)
            km._cross(wF, Rds, t3)
            for k in range(3):
                r[i, k] = f.top0[k] + dP[jt, k] + Rs[k]
                dr[i, k] = vP[jt, k] + t1[k] + Rds[k]
                ddr[i, k] = aP[jt, k] + t2[k] + 2.0 * t3[k] + Rdds[k]
            km._mv(RF, w[i], t1)
            km._mv(RF, dw[i], t2)
            km._cross(wF, t1, t3)
            for k in range(3):
                w[i, k] = wF[k] + t1[k]
                dw[i, k] = t3[k] + t2[k]
            for k in range(3):
                for c in range(3):
                    R0[k, c] = R[i, k, c]
                    dR0[k, c] = dR[i, k, c]
            km._mm(RF, R0, M3)
            for c in range(3):
                for k in range(3):
                    t1[k] = M3[k, c]
                km._cross(wF, t1, t2)
                for k in range(3):
                    R[i, k, c] = M3[k, c]
                    dR[i, k, c] = t2[k]
            km._mm(RF, dR0, M3)
            for k in range(3):
                for c in range(3):
                    dR[i, k, c] += M3[k, c]
            for m in range(n):
                for k in range(3):
                    t1[k] = EF[k, m]
                km._cross(t1, Rs, t2)
                for k in range(3):
                    E[i, k, nj + m] = EF[k, m]
                    L[i, k, nj + m] = LP[jt, k, m] + t2[k]
        for j in range(J1):
            i = N + j
            for k in range(3):
                r[i, k] = f.node0[j, k] + dP[j, k]
                dr[i, k] = vP[j, k]
                ddr[i, k] = aP[j, k]
                w[i, k] = 0.0
                dw[i, k] = 0.0
                for c in range(3):
                    R[i, k, c] = 1.0 if k == c else 0.0
                    dR[i, k, c] = 0.0
                for m in range(n):
                    L[i, k, nj + m] = LP[j, k, m]
        # mass distribution of bodies + nodes about G_s (Wang 5.16-5.22)
        for k in range(3):
            rs[k] = 0.0
            drs[k] = 0.0
            ddrs[k] = 0.0
        for i in range(NE):
            mi = f.mass_ext[i]
            for k in range(3):
                rs[k] += mi * r[i, k]
                drs[k] += mi * dr[i, k]
                ddrs[k] += mi * ddr[i, k]
        for k in range(3):
            rs[k] /= f.total_mass
            drs[k] /= f.total_mass
            ddrs[k] /= f.total_mass
        P = st.P[b]
        dPm = st.dP[b]
        Q = st.Q[b]
        dQ = st.dQ[b]
        for k in range(3):
            for c in range(3):
                P[k, c] = 0.0
                dPm[k, c] = 0.0
            Q[k] = 0.0
            dQ[k] = 0.0
        rho = st.rho[b]
        drho = st.drho[b]
        ddrho = st.ddrho[b]
        for i in range(NE):
            for k in range(3):
                rho[i, k] = r[i, k] - rs[k]
                drho[i, k] = dr[i, k] - drs[k]
                ddrho[i, k] = ddr[i, k] - ddrs[k]
            body = i < N  # a node: a point mass (J = dJ = 0)
            if body:
                km._mm(R[i], f.inertia_ext[i], RI)
                km._mm(dR[i], f.inertia_ext[i], M3)
                for k in range(3):
                    for c in range(3):
                        J[k, c] = (
                            RI[k, 0] * R[i, c, 0] + RI[k, 1] * R[i, c, 1] + RI[k, 2] * R[i, c, 2]
                        )
                        dJ[k, c] = (
                            M3[k, 0] * R[i, c, 0] + M3[k, 1] * R[i, c, 1] + M3[k, 2] * R[i, c, 2]
                            + RI[k, 0] * dR[i, c, 0] + RI[k, 1] * dR[i, c, 1]
                            + RI[k, 2] * dR[i, c, 2]
                        )  # fmt: skip
            rr = rho[i, 0] * rho[i, 0] + rho[i, 1] * rho[i, 1] + rho[i, 2] * rho[i, 2]
            rd = rho[i, 0] * drho[i, 0] + rho[i, 1] * drho[i, 1] + rho[i, 2] * drho[i, 2]
            mi = f.mass_ext[i]
            for k in range(3):
                for c in range(3):
                    eye = 1.0 if k == c else 0.0
                    P2 = rr * eye - rho[i, k] * rho[i, c]  # rho_bar, Wang (4.12)
                    dP2 = 2.0 * rd * eye - drho[i, k] * rho[i, c] - rho[i, k] * drho[i, c]
                    if body:
                        P[k, c] += J[k, c] + mi * P2
                        dPm[k, c] += dJ[k, c] + mi * dP2
                    else:
                        P[k, c] += mi * P2
                        dPm[k, c] += mi * dP2
            if body:
                km._mv(J, w[i], t1)
                km._mv(dJ, w[i], t2)
                km._mv(J, dw[i], t3)
                for k in range(3):
                    Q[k] += t1[k]
                    dQ[k] += t2[k] + t3[k]
            km._cross(rho[i], drho[i], t1)
            km._cross(rho[i], ddrho[i], t2)
            for k in range(3):
                Q[k] += mi * t1[k]
                dQ[k] += mi * t2[k]
        # joint partials (joints.forward_dynamics_dofs; a joint on the base at the deflected top)
        for c in range(N):
            j = d.dof_of[c]
            if j < 0:
                continue
            p = d.parent[c]
            km._mv(R[c], d.axis[c], t1)
            for k in range(3):
                t1[k] *= d.dof_ratio[c]
            if p == 0:
                km._mv(RF, f.pt[c], t2)
                for k in range(3):
                    t2[k] += f.top0[k] + dP[jt, k] - rs[k]
            else:
                km._mv(R[p], d.rJp[c], t2)
                for k in range(3):
                    t2[k] += rho[p, k]
            for i in range(N):
                if d.sub[c, i] == 0:
                    continue
                for k in range(3):
                    t3[k] = rho[i, k] - t2[k]
                km._cross(t1, t3, s)
                for k in range(3):
                    E[i, k, j] += t1[k]
                    L[i, k, j] += s[k]
        for j in range(nf):
            for k in range(3):
                a = 0.0
                for i in range(NE):
                    a += f.mass_ext[i] * L[i, k, j]
                a = a / f.total_mass
                for i in range(NE):
                    L[i, k, j] -= a
    return t0, st


@njit(cache=True, fastmath=False)
def flex_forces(f, g, y):
    """tau (B, nf): the joint drives (``joints.drive_rows``) then -K q - C q' of the modes."""
    nj = f.d.n
    nf = f.nf
    tau = np.empty((y.shape[0], nf))
    kj.drive_rows(f.d, g if f.moving else 0, y, nf, tau)
    for b in range(y.shape[0]):
        for k in range(f.n):
            v = 0.0
            for m in range(f.n):
                v -= f.Km[k, m] * y[b, 12 + nj + m]
            for m in range(f.n):
                v -= f.Cm[k, m] * y[b, 12 + nf + nj + m]
            tau[b, nj + k] = v
    return tau


@njit(cache=True, fastmath=False)
def flex_dynamics(q, qd, st, f, tau, force, moment, A, coupled):
    """Base, joint and modal accelerations of every member: FlexTower.forward_dynamics
    (Wang 5.26 base rows with the DOFs in dQ, Kane's rows over bodies + nodes), assembled with
    the joint-DOF solve's pieces (``floatwind._kernels.joints``: base_frame, base_rows,
    point_rows, dof_rows, body_rows, solve_rows) plus the nodes' rows.
    Returns qdd (B, 6), qdd_dof (B, nf)."""
    B = q.shape[0]
    N = force.shape[1]
    NE = f.mass_ext.shape[0]
    nf = f.nf
    nn = 6 + nf
    qdd = np.empty((B, 6))
    qdd_dof = np.empty((B, nf))
    s = kj.work(nn, NE)
    R, RE, K, r, t1, t2, t3, v6, w = s.R, s.RE, s.K, s.r, s.t1, s.t2, s.t3, s.v6, s.w
    Jb, cb = s.Jb, s.cb
    fz = np.zeros((NE, 3))
    mz = np.zeros((NE, 3))
    for b in range(B):
        rho = st.rho[b]
        E = st.E[b]
        L = st.L[b]
        kj.base_frame(s, q[b], qd[b], st.P[b], st.Q[b])
        # the loads on the bodies, the weight of the nodes (inertial z)
        for i in range(NE):
            for k in range(3):
                if i < N:
                    fz[i, k] = force[b, i, k]
                    mz[i, k] = moment[b, i, k]
                else:
                    fz[i, k] = 0.0
                    mz[i, k] = 0.0
            if i >= N:
                fz[i, 2] = -f.gravity * f.mass_ext[i]
        kj.base_rows(s, rho, fz, mz, st.dP[b], st.P[b], st.dQ[b], f.total_mass)
        # Jb (inertial): [a_G; alpha] = Jb u + cb (a node: its translation only; the massless
        # top point: nothing, it adds nothing to the solve)
        kj.point_rows(s, rho, st.drho[b], st.ddrho[b], E, L, f.mass_ext, N)
        for i in range(N):
            km._cross(w, st.w[b, i], t1)
            for k in range(3):
                t2[k] = RE[k] + st.dw[b, i, k] + t1[k]
            km._mv(R, t2, t3)
            for k in range(3):
                cb[i, 3 + k] = t3[k]
        # D_k = sum_i (J_i E_ik + m_i rho_i x L_ik): the DOF accelerations in dQ (5.20)
        kj.dof_rows(s, E, L, rho, f.mass_ext, st.R[b], f.inertia_ext, N)
        # the nodes (point masses, Mi = m 1): sum_i m_i Jd_i^T (Jb_i u + cb_i) - Jd_i^T f_i
        for i in range(N, NE):
            mi = f.mass_ext[i]
            if mi == 0.0:  # the tower-top point
                continue
            for k in range(3):
                v6[k] = fz[i, k] - mi * cb[i, k]
            for j in range(nf):
                for c in range(nn):
                    K[6 + j, c] += mi * (
                        Jb[i, 0, 6 + j] * Jb[i, 0, c]
                        + Jb[i, 1, 6 + j] * Jb[i, 1, c]
                        + Jb[i, 2, 6 + j] * Jb[i, 2, c]
                    )
                r[6 + j] += (
                    Jb[i, 0, 6 + j] * v6[0] + Jb[i, 1, 6 + j] * v6[1] + Jb[i, 2, 6 + j] * v6[2]
                )
        # per body: inertia (inertial), gyroscopic term, added mass; Kane's rows
        kj.body_rows(s, st.R[b], f.inertia_ext, f.mass_ext, st.w[b], A[b], force[b], moment[b],
                     coupled)  # fmt: skip
        kj.solve_rows(s, tau[b], qdd[b], qdd_dof[b])
    return qdd, qdd_dof
