"""Compiled flexible tower (issue 37; docs/multibody.md, "Flexible tower"): the kernels of
:class:`floatwind.multibody.flex_dynamics.FlexTower` (``relative``, ``mass_distribution``,
``partials``, ``forward_dynamics``) for the fused right-hand side
(the flexible form of :func:`floatwind._kernels.fused.system_rhs_dofs`).

The state holds, after the 12 rigid-body columns, the joint angles and the modal coordinates
(``12 .. 12 + nf``, joints first) and their rates (``12 + nf .. 12 + 2 nf``). Per member:

* :func:`flex_state`: the tree's relative kinematics (the run's table without joint DOFs,
  else ``floatwind._kernels.mcm.rel_table`` on one row per member), the tower top from the
  modal coordinates (ElastoDyn ``CalculatePositions`` rZT, ``SetCoordSy`` / ``SmllRotTrans``
  for the top frame), the bodies above the top carried by the deflected top, the momentum
  coefficients over bodies + nodes (Wang 5.16-5.22) and the partial velocities of the joints
  and the modes (mass-weighted mean removed: G_s of bodies + nodes). The tower nodes are not
  points of the solve: G_s and the mean partial take their first moments from modal integrals
  computed once (``FlexParams.Mn, c0, pm, am``), and one scalar pass over the nodes sums what
  the rows need (``FlexState.nm1 .. nLa``; docs/multibody.md, "Flexible tower", Compiled path);
* :func:`flex_dynamics`: the base rows of Wang (5.26) with the DOF accelerations in dQ and
  Kane's rows of the joints and the modes (docs/multibody.md, "Joint DOFs") over the bodies,
  plus the nodes' rows and weight from those sums, solved together per member.

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
    # the nodes node-major (the massive ones; the top point above), and their modal integrals
    # (mass-weighted node sums, computed once: ElastoDyn's node sums of rZT, PLinVelET)
    mn: np.ndarray  # (J,) node masses
    node0n: np.ndarray  # (J, 3)
    phin: np.ndarray  # (J, n) mode shapes at the nodes
    axn: np.ndarray  # (J, n, n) AxRed at the nodes
    phit: np.ndarray  # (n,) mode shapes at the top (1)
    axt: np.ndarray  # (n, n) AxRed at the top
    Mn: float  # sum m_J
    c0: np.ndarray  # (3,) sum m_J node0_J
    pm: np.ndarray  # (n,) sum m_J phi_k(h_J)
    am: np.ndarray  # (n, n) sum m_J AxRed_kl(J)


class FlexState(NamedTuple):
    """One row per member: the bodies about G_s of bodies + nodes, their partials, and the
    nodes' sums the coupled solve needs (rho, L of a node about G_s with the mean removed)."""

    rho: np.ndarray  # (B, N, 3)
    drho: np.ndarray
    ddrho: np.ndarray
    R: np.ndarray  # (B, N, 3, 3) body frames in C_1
    w: np.ndarray  # (B, N, 3) relative angular velocity (C_1)
    dw: np.ndarray
    P: np.ndarray  # (B, 3, 3) of bodies + nodes
    dP: np.ndarray
    Q: np.ndarray  # (B, 3)
    dQ: np.ndarray
    E: np.ndarray  # (B, N, 3, nf) partial angular velocities
    L: np.ndarray  # (B, N, 3, nf) partial velocities of rho
    nm1: np.ndarray  # (B, 3) sum m_J rho_J
    nL: np.ndarray  # (B, 3, nf) sum m_J L_Jj
    nD: np.ndarray  # (B, 3, nf) sum m_J rho_J x L_Jj
    nLL: np.ndarray  # (B, nf, nf) sum m_J L_Jj . L_Jk
    nLr: np.ndarray  # (B, nf, 3, 3) sum m_J L_Jj rho_J^T
    nLv: np.ndarray  # (B, 3, nf) sum m_J rho_J' x L_Jj
    nLa: np.ndarray  # (B, nf) sum m_J L_Jj . rho_J''


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
def flex_state(f, rel, g, y):
    """Relative kinematics (one row per member) of the tree bodies on the deflected tower and
    the :class:`FlexState` of bodies + nodes at grid index ``g`` (see the module docstring).
    ``rel`` the run's table of the tree (``floatwind._kernels.fused.RelTable``, the same kernel
    ``km.rel_table``): used as it is when the tree has no joint DOFs (the same for every
    member), else the tree is computed per member from its joint states."""
    d = f.d
    B = y.shape[0]
    N = d.mass.shape[0]
    nj = d.n
    n = f.n
    nf = f.nf
    mn, node0n, phin, axn, e = f.mn, f.node0n, f.phin, f.axn, f.e
    J = mn.shape[0]
    gm = g if f.moving else 0
    if nj == 0:  # the run's table: one row (or one per grid time) for every member
        trho, tdrho, tddrho = rel.rho, rel.drho, rel.ddrho
        tR, tw, tdw = rel.R_c2s, rel.w_rel, rel.dw_rel
    else:
        t0 = kj.rel_rows(d, kj.member_motion(d, gm, y, nf))
        trho, tdrho, tddrho = t0.rho, t0.drho, t0.ddrho
        tR, tw, tdw = t0.R_c2s, t0.w_rel, t0.dw_rel
    st = FlexState(
        np.empty((B, N, 3)), np.empty((B, N, 3)), np.empty((B, N, 3)),
        np.empty((B, N, 3, 3)), np.empty((B, N, 3)), np.empty((B, N, 3)),
        np.empty((B, 3, 3)), np.empty((B, 3, 3)), np.empty((B, 3)), np.empty((B, 3)),
        np.zeros((B, N, 3, nf)), np.zeros((B, N, 3, nf)),
        np.empty((B, 3)), np.empty((B, 3, nf)), np.empty((B, 3, nf)), np.empty((B, nf, nf)),
        np.empty((B, nf, 3, 3)), np.empty((B, 3, nf)), np.empty((B, nf)),
    )  # fmt: skip
    # the scratch of a member in one allocation (an allocation costs ~40 ns: ~40 of them
    # were a fifth of the stage)
    ws = np.empty(N * 9 + N * 9 + 6 * n + 9 * nf + 3 * n + 17 * 3 + 7 * 9)
    r = ws[0 : 3 * N].reshape((N, 3))
    dr = ws[3 * N : 6 * N].reshape((N, 3))
    ddr = ws[6 * N : 9 * N].reshape((N, 3))
    o = 9 * N
    dR = ws[o : o + 9 * N].reshape((N, 3, 3))
    o += 9 * N
    EF = ws[o : o + 3 * n].reshape((3, n))
    o += 3 * n
    LT = ws[o : o + 3 * n].reshape((3, n))  # the top's mode partials (PLinVelET at the top)
    o += 3 * n
    Lb = ws[o : o + 3 * nf].reshape((3, nf))  # mass-weighted mean of the partials
    o += 3 * nf
    Ln = ws[o : o + 3 * nf].reshape((3, nf))  # a node's partials before the mean is removed
    o += 3 * nf
    Lc = ws[o : o + 3 * nf].reshape((3, nf))  # a node's partials
    o += 3 * nf
    q = ws[o : o + n]
    qd = ws[o + n : o + 2 * n]
    axq = ws[o + 2 * n : o + 3 * n]
    o += 3 * n
    pT = ws[o : o + 3]
    o += 3
    vT = ws[o : o + 3]
    o += 3
    aT = ws[o : o + 3]
    o += 3
    s = ws[o : o + 3]
    o += 3
    Rs = ws[o : o + 3]
    o += 3
    Rds = ws[o : o + 3]
    o += 3
    Rdds = ws[o : o + 3]
    o += 3
    t1 = ws[o : o + 3]
    o += 3
    t2 = ws[o : o + 3]
    o += 3
    t3 = ws[o : o + 3]
    o += 3
    rs = ws[o : o + 3]
    o += 3
    drs = ws[o : o + 3]
    o += 3
    ddrs = ws[o : o + 3]
    o += 3
    rn = ws[o : o + 3]
    o += 3
    vn = ws[o : o + 3]
    o += 3
    an = ws[o : o + 3]
    o += 3
    wF = ws[o : o + 3]
    o += 3
    RF = ws[o : o + 9].reshape((3, 3))
    o += 9
    R0 = ws[o : o + 9].reshape((3, 3))
    o += 9
    dR0 = ws[o : o + 9].reshape((3, 3))
    o += 9
    M3 = ws[o : o + 9].reshape((3, 3))
    o += 9
    Jm = ws[o : o + 9].reshape((3, 3))
    o += 9
    dJ = ws[o : o + 9].reshape((3, 3))
    o += 9
    RI = ws[o : o + 9].reshape((3, 3))
    o += 9
    for k in range(n):
        for c in range(3):
            EF[c, k] = 0.0
    for b in range(B):
        R = st.R[b]
        w = st.w[b]
        dw = st.dw[b]
        E = st.E[b]
        L = st.L[b]
        tb = gm if nj == 0 else b
        # the tree relative to G_1 (rho_i - rho_1; dR = [w] R)
        for i in range(N):
            for k in range(3):
                r[i, k] = trho[tb, i, k] - trho[tb, 0, k]
                dr[i, k] = tdrho[tb, i, k] - tdrho[tb, 0, k]
                ddr[i, k] = tddrho[tb, i, k] - tddrho[tb, 0, k]
                w[i, k] = tw[tb, i, k]
                dw[i, k] = tdw[tb, i, k]
                for c in range(3):
                    R[i, k, c] = tR[tb, i, k, c]
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
            q[k] = y[b, 12 + nj + k]
            qd[k] = y[b, 12 + nf + nj + k]
            if f.is_fa[k] == 1:
                thy += f.slope[k] * q[k]
                thyd += f.slope[k] * qd[k]
                EF[1, k] = f.slope[k]
            else:
                thx -= f.slope[k] * q[k]
                thxd -= f.slope[k] * qd[k]
                EF[0, k] = -f.slope[k]
        _top_frame(thx, -thy, RF)
        wF[0] = thxd
        wF[1] = thyd
        wF[2] = 0.0
        # the tower top (ElastoDyn rZT, PLinVelET, LinAccETt with q'' = 0; docs/multibody.md
        # "Flexible tower", Kinematics): phi_k(L) e_k q_k - 1/2 sum AxRed_kl(L) q_k q_l z
        _deflect(f.phit, f.axt, f.e, q, qd, axq, pT, vT, aT, LT)
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
                r[i, k] = f.top0[k] + pT[k] + Rs[k]
                dr[i, k] = vT[k] + t1[k] + Rds[k]
                ddr[i, k] = aT[k] + t2[k] + 2.0 * t3[k] + Rdds[k]
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
                    L[i, k, nj + m] = LT[k, m] + t2[k]
        # G_s of bodies + nodes: the nodes' first moments from the modal integrals
        # sum m_J r_J = c0 + sum_k (sum m phi_k) q_k e_k - 1/2 z sum_kl (sum m AxRed_kl) q_k q_l
        # (docs/multibody.md "Flexible tower": rZT summed over the nodes; the same sums in
        # another order: equal to round-off)
        _deflect(f.pm, f.am, f.e, q, qd, axq, rn, vn, an, Ln)
        for k in range(3):
            rs[k] = f.c0[k] + rn[k]
            drs[k] = vn[k]
            ddrs[k] = an[k]
        for i in range(N):
            mi = f.mass_ext[i]
            for k in range(3):
                rs[k] += mi * r[i, k]
                drs[k] += mi * dr[i, k]
                ddrs[k] += mi * ddr[i, k]
        for k in range(3):
            rs[k] /= f.total_mass
            drs[k] /= f.total_mass
            ddrs[k] /= f.total_mass
        # (sum over nodes of m L_k before the mean is removed: Ln, from the same integrals)
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
        # mass distribution of the bodies about G_s (Wang 5.16-5.22)
        for i in range(N):
            for k in range(3):
                rho[i, k] = r[i, k] - rs[k]
                drho[i, k] = dr[i, k] - drs[k]
                ddrho[i, k] = ddr[i, k] - ddrs[k]
            km._mm(R[i], f.inertia_ext[i], RI)
            km._mm(dR[i], f.inertia_ext[i], M3)
            for k in range(3):
                for c in range(3):
                    Jm[k, c] = RI[k, 0] * R[i, c, 0] + RI[k, 1] * R[i, c, 1] + RI[k, 2] * R[i, c, 2]
                    dJ[k, c] = (
                        M3[k, 0] * R[i, c, 0] + M3[k, 1] * R[i, c, 1] + M3[k, 2] * R[i, c, 2]
                        + RI[k, 0] * dR[i, c, 0] + RI[k, 1] * dR[i, c, 1]
                        + RI[k, 2] * dR[i, c, 2]
                    )  # fmt: skip
            mi = f.mass_ext[i]
            _point_moments(mi, rho[i], drho[i], ddrho[i], P, dPm, Q, dQ, t1, t2)
            for k in range(3):
                for c in range(3):
                    P[k, c] += Jm[k, c]
                    dPm[k, c] += dJ[k, c]
            km._mv(Jm, w[i], t1)
            km._mv(dJ, w[i], t2)
            km._mv(Jm, dw[i], t3)
            for k in range(3):
                Q[k] += t1[k]
                dQ[k] += t2[k] + t3[k]
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
                    t2[k] += f.top0[k] + pT[k] - rs[k]
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
        # the partials' mass-weighted mean over bodies + nodes (the nodes: Ln, modes only)
        for j in range(nf):
            for k in range(3):
                a = 0.0 if j < nj else Ln[k, j - nj]
                for i in range(N):
                    a += f.mass_ext[i] * L[i, k, j]
                Lb[k, j] = a / f.total_mass
                for i in range(N):
                    L[i, k, j] -= Lb[k, j]
        # the nodes (point masses about G_s, their partials with the mean removed): their
        # part of P, dP, Q, dQ (Wang 5.16-5.22) and the sums the coupled solve needs
        # (flex_dynamics), one pass over the nodes
        nm1 = st.nm1[b]
        nL = st.nL[b]
        nD = st.nD[b]
        nLL = st.nLL[b]
        nLr = st.nLr[b]
        nLv = st.nLv[b]
        nLa = st.nLa[b]
        for k in range(3):
            nm1[k] = 0.0
            for j in range(nf):
                nL[k, j] = 0.0
                nD[k, j] = 0.0
                nLv[k, j] = 0.0
        for j in range(nf):
            nLa[j] = 0.0
            for k in range(nf):
                nLL[j, k] = 0.0
            for k in range(3):
                for c in range(3):
                    nLr[j, k, c] = 0.0
        # scalar code, no array views or calls per node (each costs numba reference counts)
        for jn in range(J):
            mj = mn[jn]
            for k in range(n):
                c = 0.0
                for m in range(n):
                    c += q[m] * axn[jn, k, m]
                axq[k] = c
            # rZT, PLinVelET, LinAccETt at node J (docs/multibody.md "Flexible tower")
            r0 = node0n[jn, 0] - rs[0]
            r1 = node0n[jn, 1] - rs[1]
            r2 = node0n[jn, 2] - rs[2]
            v0 = -drs[0]
            v1 = -drs[1]
            v2 = -drs[2]
            sz = 0.0
            az = 0.0
            for k in range(n):
                ph = phin[jn, k]
                r0 += ph * q[k] * e[k, 0]
                r1 += ph * q[k] * e[k, 1]
                r2 += ph * q[k] * e[k, 2]
                sz += axq[k] * q[k]
                l0 = ph * e[k, 0]
                l1 = ph * e[k, 1]
                l2 = ph * e[k, 2] - axq[k]
                Ln[0, nj + k] = l0
                Ln[1, nj + k] = l1
                Ln[2, nj + k] = l2
                v0 += l0 * qd[k]
                v1 += l1 * qd[k]
                v2 += l2 * qd[k]
                for m in range(n):
                    az += qd[k] * axn[jn, k, m] * qd[m]
            r2 -= 0.5 * sz
            a0 = -ddrs[0]
            a1 = -ddrs[1]
            a2 = -az - ddrs[2]
            # P, dP, Q, dQ of a point mass (Wang 4.12, 5.16-5.22)
            rr = r0 * r0 + r1 * r1 + r2 * r2
            rd = r0 * v0 + r1 * v1 + r2 * v2
            P[0, 0] += mj * (rr - r0 * r0)
            P[1, 1] += mj * (rr - r1 * r1)
            P[2, 2] += mj * (rr - r2 * r2)
            p01 = mj * r0 * r1
            p02 = mj * r0 * r2
            p12 = mj * r1 * r2
            P[0, 1] -= p01
            P[1, 0] -= p01
            P[0, 2] -= p02
            P[2, 0] -= p02
            P[1, 2] -= p12
            P[2, 1] -= p12
            dPm[0, 0] += mj * (2.0 * rd - 2.0 * v0 * r0)
            dPm[1, 1] += mj * (2.0 * rd - 2.0 * v1 * r1)
            dPm[2, 2] += mj * (2.0 * rd - 2.0 * v2 * r2)
            p01 = mj * (v0 * r1 + r0 * v1)
            p02 = mj * (v0 * r2 + r0 * v2)
            p12 = mj * (v1 * r2 + r1 * v2)
            dPm[0, 1] -= p01
            dPm[1, 0] -= p01
            dPm[0, 2] -= p02
            dPm[2, 0] -= p02
            dPm[1, 2] -= p12
            dPm[2, 1] -= p12
            Q[0] += mj * (r1 * v2 - r2 * v1)
            Q[1] += mj * (r2 * v0 - r0 * v2)
            Q[2] += mj * (r0 * v1 - r1 * v0)
            dQ[0] += mj * (r1 * a2 - r2 * a1)
            dQ[1] += mj * (r2 * a0 - r0 * a2)
            dQ[2] += mj * (r0 * a1 - r1 * a0)
            nm1[0] += mj * r0
            nm1[1] += mj * r1
            nm1[2] += mj * r2
            for j in range(nf):
                if j < nj:
                    l0 = -Lb[0, j]
                    l1 = -Lb[1, j]
                    l2 = -Lb[2, j]
                else:
                    l0 = Ln[0, j] - Lb[0, j]
                    l1 = Ln[1, j] - Lb[1, j]
                    l2 = Ln[2, j] - Lb[2, j]
                Lc[0, j] = l0
                Lc[1, j] = l1
                Lc[2, j] = l2
                nL[0, j] += mj * l0
                nL[1, j] += mj * l1
                nL[2, j] += mj * l2
                nD[0, j] += mj * (r1 * l2 - r2 * l1)
                nD[1, j] += mj * (r2 * l0 - r0 * l2)
                nD[2, j] += mj * (r0 * l1 - r1 * l0)
                nLv[0, j] += mj * (v1 * l2 - v2 * l1)
                nLv[1, j] += mj * (v2 * l0 - v0 * l2)
                nLv[2, j] += mj * (v0 * l1 - v1 * l0)
                nLa[j] += mj * (l0 * a0 + l1 * a1 + l2 * a2)
                nLr[j, 0, 0] += mj * l0 * r0
                nLr[j, 0, 1] += mj * l0 * r1
                nLr[j, 0, 2] += mj * l0 * r2
                nLr[j, 1, 0] += mj * l1 * r0
                nLr[j, 1, 1] += mj * l1 * r1
                nLr[j, 1, 2] += mj * l1 * r2
                nLr[j, 2, 0] += mj * l2 * r0
                nLr[j, 2, 1] += mj * l2 * r1
                nLr[j, 2, 2] += mj * l2 * r2
                for k in range(j + 1):
                    nLL[k, j] += mj * (Lc[0, k] * l0 + Lc[1, k] * l1 + Lc[2, k] * l2)
        for j in range(nf):
            for k in range(j):
                nLL[j, k] = nLL[k, j]
    return st


@njit(cache=True, fastmath=False, inline="always")
def _deflect(phi, ax, e, q, qd, axq, p, v, a, Lp):
    """A point of the tower at shape ``phi`` (n,) and axial reduction ``ax`` (n, n) (or their
    mass-weighted node sums, the modal integrals): deflection p = sum phi_k q_k e_k - 1/2 sum
    ax_kl q_k q_l z, partials Lp[:, k] = phi_k e_k - sum_l ax_kl q_l z, velocity v = Lp q',
    acceleration at q'' = 0 a = -sum ax_kl q'_k q'_l z (ElastoDyn rZT, PLinVelET, LinAccETt;
    docs/multibody.md "Flexible tower", Kinematics)."""
    n = q.shape[0]
    for k in range(n):
        c = 0.0
        for m in range(n):
            c += q[m] * ax[k, m]
        axq[k] = c
    for c in range(3):
        s = 0.0
        for k in range(n):
            s += q[k] * phi[k] * e[k, c]
        p[c] = s
    s = 0.0
    for k in range(n):
        s += axq[k] * q[k]
    p[2] -= 0.5 * s
    for k in range(n):
        for c in range(3):
            Lp[c, k] = phi[k] * e[k, c]
        Lp[2, k] -= axq[k]
    for c in range(3):
        s = 0.0
        for k in range(n):
            s += Lp[c, k] * qd[k]
        v[c] = s
    s = 0.0
    for k in range(n):
        for m in range(n):
            s += qd[k] * ax[k, m] * qd[m]
    a[0] = 0.0
    a[1] = 0.0
    a[2] = -s


@njit(cache=True, fastmath=False, inline="always")
def _point_moments(mi, rho, drho, ddrho, P, dP, Q, dQ, t1, t2):
    """A point mass's part of P, dP, Q, dQ about G_s (Wang 4.12, 5.16-5.22)."""
    rr = rho[0] * rho[0] + rho[1] * rho[1] + rho[2] * rho[2]
    rd = rho[0] * drho[0] + rho[1] * drho[1] + rho[2] * drho[2]
    for k in range(3):
        for c in range(3):
            eye = 1.0 if k == c else 0.0
            P2 = rr * eye - rho[k] * rho[c]  # rho_bar, Wang (4.12)
            dP2 = 2.0 * rd * eye - drho[k] * rho[c] - rho[k] * drho[c]
            P[k, c] += mi * P2
            dP[k, c] += mi * dP2
    km._cross(rho, drho, t1)
    km._cross(rho, ddrho, t2)
    for k in range(3):
        Q[k] += mi * t1[k]
        dQ[k] += mi * t2[k]


@njit(cache=True, fastmath=False, inline="always")
def flex_forces(f, g, y):
    """tau (B, nf): the joint drives (``joints.drive_rows``) then -K q - C q' of the modes.
    (Inlined into the right-hand side, and the drives only called with joints: a compiled call
    taking the parameter records costs ~45 ns per array in them, numba's reference counts.)"""
    nj = f.d.n
    nf = f.nf
    tau = np.empty((y.shape[0], nf))
    if nj > 0:
        kj.drive_rows(f.d, g if f.moving else 0, y, nf, tau)
    Km = f.Km
    Cm = f.Cm
    for b in range(y.shape[0]):
        for k in range(f.n):
            v = 0.0
            for m in range(f.n):
                v -= Km[k, m] * y[b, 12 + nj + m]
            for m in range(f.n):
                v -= Cm[k, m] * y[b, 12 + nf + nj + m]
            tau[b, nj + k] = v
    return tau


@njit(cache=True, fastmath=False)
def flex_dynamics(q, qd, st, f, tau, force, moment, A, coupled):
    """Base, joint and modal accelerations of every member: FlexTower.forward_dynamics
    (Wang 5.26 base rows with the DOFs in dQ, Kane's rows over bodies + nodes), assembled with
    the joint-DOF solve's pieces (``floatwind._kernels.joints``: base_frame, base_rows,
    point_rows, dof_rows, body_rows, solve_rows) for the bodies plus the nodes' rows from the
    node sums of :func:`flex_state`. Returns qdd (B, 6), qdd_dof (B, nf)."""
    B = q.shape[0]
    N = force.shape[1]
    nf = f.nf
    nn = 6 + nf
    qdd = np.empty((B, 6))
    qdd_dof = np.empty((B, nf))
    s = kj.work(nn, N)
    R, RE, K, r, t1, t2, t3, w = s.R, s.RE, s.K, s.r, s.t1, s.t2, s.t3, s.w
    Tw, cb = s.Tw, s.cb
    g = f.gravity
    for b in range(B):
        rho = st.rho[b]
        E = st.E[b]
        L = st.L[b]
        nm1 = st.nm1[b]
        nL = st.nL[b]
        nD = st.nD[b]
        kj.base_frame(s, q[b], qd[b], st.P[b], st.Q[b])
        kj.base_rows(s, rho, force[b], moment[b], st.dP[b], st.P[b], st.dQ[b], f.total_mass)
        # the nodes' weight -m_J g Z (inertial): force -M_n g Z, moment about G_s
        # sum R rho_J x (-m_J g Z), in C_s axes nm1 x (-g R^T Z) (r[3:6] holds R^T M_G)
        r[2] -= g * f.Mn
        for k in range(3):
            t1[k] = -g * R[2, k]
        km._cross(nm1, t1, t2)
        for k in range(3):
            r[3 + k] += t2[k]
        # Jb (inertial): [a_G; alpha] = Jb u + cb of the bodies
        kj.point_rows(s, rho, st.drho[b], st.ddrho[b], E, L, f.mass_ext, N)
        for i in range(N):
            km._cross(w, st.w[b, i], t1)
            for k in range(3):
                t2[k] = RE[k] + st.dw[b, i, k] + t1[k]
            km._mv(R, t2, t3)
            for k in range(3):
                cb[i, 3 + k] = t3[k]
        # D_k = sum_i (J_i E_ik + m_i rho_i x L_ik): the DOF accelerations in dQ (5.20); the
        # nodes' part sum m_J rho_J x L_Jk = nD
        kj.dof_rows(s, E, L, rho, f.mass_ext, st.R[b], f.inertia_ext, N)
        for j in range(nf):
            for k in range(3):
                K[3 + k, 6 + j] += nD[k, j]
        # the nodes' Kane rows (point masses; docs/multibody.md "Flexible tower", Equations):
        # sum_J m_J (R L_Jj) . (a_J - g) with a_J = Jb_J u + cb_J (joints.point_rows) summed
        # over the nodes: translation columns R sum m L_j, rotation columns Tw^T sum m rho x
        # L_j, DOF columns sum m L_j . L_k; cb_J = R (rho'' + 2 w x rho' + w x (w x rho)
        # + RE x rho) gives sum m L_j . rho'' + 2 w . sum m rho' x L_j + w^T (sum m L_j
        # rho^T) w - |w|^2 tr(sum m L_j rho^T) + RE . sum m rho x L_j
        ww = w[0] * w[0] + w[1] * w[1] + w[2] * w[2]
        nLL = st.nLL[b]
        nLr = st.nLr[b]
        nLv = st.nLv[b]
        nLa = st.nLa[b]
        for j in range(nf):
            for c in range(3):
                K[6 + j, c] += R[c, 0] * nL[0, j] + R[c, 1] * nL[1, j] + R[c, 2] * nL[2, j]
                K[6 + j, 3 + c] += Tw[0, c] * nD[0, j] + Tw[1, c] * nD[1, j] + Tw[2, c] * nD[2, j]
            for c in range(nf):
                K[6 + j, 6 + c] += nLL[j, c]
            wLw = 0.0
            for k in range(3):
                wLw += w[k] * (nLr[j, k, 0] * w[0] + nLr[j, k, 1] * w[1] + nLr[j, k, 2] * w[2])
            v = (
                nLa[j]
                + 2.0 * (w[0] * nLv[0, j] + w[1] * nLv[1, j] + w[2] * nLv[2, j])
                + wLw - ww * (nLr[j, 0, 0] + nLr[j, 1, 1] + nLr[j, 2, 2])
                + RE[0] * nD[0, j] + RE[1] * nD[1, j] + RE[2] * nD[2, j]
            )  # fmt: skip
            gz = R[2, 0] * nL[0, j] + R[2, 1] * nL[1, j] + R[2, 2] * nL[2, j]
            r[6 + j] += -g * gz - v
        # per body: inertia (inertial), gyroscopic term, added mass; Kane's rows
        kj.body_rows(s, st.R[b], f.inertia_ext, f.mass_ext, st.w[b], A[b], force[b], moment[b],
                     coupled)  # fmt: skip
        kj.solve_rows(s, tau[b], qdd[b], qdd_dof[b])
    return qdd, qdd_dof
