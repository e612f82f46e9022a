"""The flexible tower's output rows in one compiled pass (issues 37 and 41): the coupled
solve, the tower nodes' kinematics and ElastoDyn's tower channels of every output row of a
block, from the stepping's own flexible state.

``floatwind.simulate.system.System.evaluate_many`` takes the rows' flexible state and the
bodies' absolute kinematics from :func:`floatwind._kernels.flex.flex_state` (what the stepping
computes at every stage: the deflected tree, the bodies' mass distribution about G_s of
bodies + nodes and their partial velocities, mean removed), evaluates the loads on those
kinematics, then calls :func:`out_rows` once per block: :func:`floatwind._kernels.flex.
flex_dynamics` (the base, joint and modal accelerations), the node pass :func:`node_rows`
(the deflection, velocity, acceleration at q'' = 0 and partials of every tower node and of
the top, ElastoDyn ``CalculatePositions`` rZT, ``PLinVelET``, ``LinAccETt``; the top frame
``SetCoordSy``/``SmllRotTrans``; docs/multibody.md "Flexible tower", Kinematics), then the
accelerations and channels of :func:`floatwind._kernels.flex_chan.flex_channels`.

``flex_state`` does not form the nodes (its node sums come from modal tensors), so the node
pass forms them here from the same modal shapes (``phin``, ``axn``, ``node0n`` of
:func:`floatwind._kernels.flex.pack`); G_s, its derivatives and the partials' mass-weighted
mean are read back from the state row: the base body sits at G_1 and has no partial velocity,
so its row holds rho_1 = -r_s, drho_1 = -dr_s, ddrho_1 = -ddr_s and L_1 = -mean(L).

The NumPy path (``FlexTower.relative``, ``mass_distribution``, ``forward_dynamics``,
``channels``) is the reference; the two agree to rounding (tests/test_flex_tower.py). Every row
goes through the same operations whatever the block (bit-identical alone and in a batch).
"""

from __future__ import annotations

import numpy as np

from floatwind._kernels import flex as kfx
from floatwind._kernels.flex import _top_frame
from floatwind._kernels.flex_chan import flex_channels
from floatwind._kernels.flex_nodes import xlay
from floatwind.jit import njit

__all__ = ["node_rows", "out_rows"]

# ip indices of fp's arrays read here (floatwind._kernels.flex._FP_FIELDS order, pack)
_PHIT, _AXT, _E, _SLOPE, _TOP0, _NODE0N, _PHIN, _AXN = 6, 7, 8, 9, 14, 17, 18, 19
_IS_FA = 27


@njit(cache=True, fastmath=False, inline="always")
def _point(fp, ophi, oax, oe, n, q, qd, axq, p, v, a, Lp):
    """A tower point of shape ``phi`` (n,) and axial reduction ``ax`` (n, n) at ``ophi``,
    ``oax`` in ``fp``: deflection p = sum phi_k q_k e_k - 1/2 sum ax_kl q_k q_l z, partials
    Lp[c, k] = phi_k e_k - sum_l ax_kl q_l z, velocity v = Lp q', acceleration at q'' = 0
    a = -q'^T ax q' z (``FlexTower._points``)."""
    for k in range(n):
        s = 0.0
        for m in range(n):
            s += q[m] * fp[oax + k * n + m]
        axq[k] = s
    for c in range(3):
        s = 0.0
        for k in range(n):
            s += q[k] * fp[ophi + k] * fp[oe + 3 * k + c]
        p[c] = s
    s = 0.0
    for k in range(n):
        s += axq[k] * q[k]
    p[2] -= 0.5 * s
    for k in range(n):
        for c in range(3):
            Lp[c, k] = fp[ophi + k] * fp[oe + 3 * k + c]
        Lp[2, k] -= axq[k]
    for c in range(3):
        s = 0.0
        for k in range(n):
            s += Lp[c, k] * qd[k]
        v[c] = s
    s = 0.0
    for k in range(n):
        for m in range(n):
            s += qd[k] * fp[oax + k * n + m] * qd[m]
    a[0] = 0.0
    a[1] = 0.0
    a[2] = -s


@njit(cache=True, fastmath=False)
def node_rows(fp, ip, X, y, pts, mats, thxy):
    """The arrays of :func:`floatwind._kernels.flex_chan.flex_channels` of every row b from
    its flexible state ``X`` (flat, ``B * size``, :func:`floatwind._kernels.flex.flex_state`)
    and its state ``y`` (B, n_y). Out: ``pts`` = (rho, drho, ddrho (B, P, 3) over bodies +
    nodes + top (P = N + J + 1) about G_s, dP (B, J + 1, 3) the nodes' and the top's
    deflections, wN, dwN (B, N, 3), Pm (B, 3, 3), Qv, r_s (B, 3), RF (B, 3, 3) the top frame),
    ``mats`` = (E (B, N, 3, nf), L (B, P, 3, nf) mean removed, RN (B, N, 3, 3)), ``thxy``
    (B, 2) the top's (th_x, th_y)."""
    rho, drho, ddrho, dP, wN, dwN, Pm, Qv, rs, RF = pts
    E, L, RN = mats
    B = y.shape[0]
    N, nj, n, nf, J = ip[kfx.IP_N], ip[kfx.IP_NJ], ip[kfx.IP_NM], ip[kfx.IP_NF], ip[kfx.IP_J]
    lay = xlay(N, nf)
    oRho, oDrho, oDdrho, oR, oW, oDw, oP = lay[0], lay[1], lay[2], lay[3], lay[4], lay[5], lay[6]
    oQ, oE, oL, S = lay[8], lay[10], lay[11], lay[19]
    o_phit, o_axt, o_e, o_sl = ip[_PHIT], ip[_AXT], ip[_E], ip[_SLOPE]
    o_top0, o_n0, o_phin, o_axn, i_fa = ip[_TOP0], ip[_NODE0N], ip[_PHIN], ip[_AXN], ip[_IS_FA]
    q = np.empty(n)
    qd = np.empty(n)
    axq = np.empty(n)
    p = np.empty(3)
    v = np.empty(3)
    a = np.empty(3)
    Lp = np.empty((3, n))
    Lb = np.empty((3, nf))
    d1 = np.empty(3)
    d2 = np.empty(3)
    RFl = np.empty(9)
    for b in range(B):
        x = b * S
        # the base body's row: rho_1 = -r_s (G_1 is the origin), L_1 = -mean(L)
        for c in range(3):
            rs[b, c] = -X[x + oRho + c]
            d1[c] = -X[x + oDrho + c]
            d2[c] = -X[x + oDdrho + c]
            for k in range(nf):
                Lb[c, k] = -X[x + oL + c * nf + k]
        for i in range(N):
            for c in range(3):
                rho[b, i, c] = X[x + oRho + 3 * i + c]
                drho[b, i, c] = X[x + oDrho + 3 * i + c]
                ddrho[b, i, c] = X[x + oDdrho + 3 * i + c]
                wN[b, i, c] = X[x + oW + 3 * i + c]
                dwN[b, i, c] = X[x + oDw + 3 * i + c]
                for k in range(3):
                    RN[b, i, c, k] = X[x + oR + 9 * i + 3 * c + k]
                for k in range(nf):
                    E[b, i, c, k] = X[x + oE + (3 * i + c) * nf + k]
                    L[b, i, c, k] = X[x + oL + (3 * i + c) * nf + k]
        for c in range(3):
            Qv[b, c] = X[x + oQ + c]
            for k in range(3):
                Pm[b, c, k] = X[x + oP + 3 * c + k]
        thx = 0.0
        thy = 0.0
        for k in range(n):
            q[k] = y[b, 12 + nj + k]
            qd[k] = y[b, 12 + nf + nj + k]
            if ip[i_fa + k] == 1:
                thy += fp[o_sl + k] * q[k]
            else:
                thx -= fp[o_sl + k] * q[k]
        thxy[b, 0] = thx
        thxy[b, 1] = thy
        _top_frame(thx, -thy, RFl, 0)
        for c in range(3):
            for k in range(3):
                RF[b, c, k] = RFl[3 * c + k]
        # the nodes, then the top (a massless point: its acceleration for the outputs)
        for j in range(J + 1):
            if j < J:
                _point(fp, o_phin + j * n, o_axn + j * n * n, o_e, n, q, qd, axq, p, v, a, Lp)
            else:
                _point(fp, o_phit, o_axt, o_e, n, q, qd, axq, p, v, a, Lp)
            pj = N + j
            for c in range(3):
                r0 = fp[o_n0 + 3 * j + c] if j < J else fp[o_top0 + c]
                dP[b, j, c] = p[c]
                rho[b, pj, c] = r0 + p[c] - rs[b, c]
                drho[b, pj, c] = v[c] - d1[c]
                ddrho[b, pj, c] = a[c] - d2[c]
                for k in range(nj):
                    L[b, pj, c, k] = 0.0 - Lb[c, k]
                for k in range(n):
                    L[b, pj, c, nj + k] = Lp[c, k] - Lb[c, nj + k]


@njit(cache=True, fastmath=False)
def out_rows(fp, ip, y, X, tau, fm, A, consts, ci, cv, ch):
    """The accelerations and the tower channels of every output row: (u (B, 6 + nf) the
    base then the joint and modal accelerations, the node pass's arrays ``pts``, ``mats``,
    ``thxy`` of :func:`node_rows`). ``y`` (B, n_y) the rows, ``X`` their flexible state,
    ``tau`` (B, nf) the joint drives' torques in the first nj columns, ``fm`` (2, B, N, 3) the
    bodies' forces and moments (about their CM, inertial), ``A`` (B, N, 6, 6) their added mass
    or (0, N, 6, 6); ``consts``, ``ci`` of :func:`floatwind._kernels.flex_chan.params`; out
    ``cv``, ``ch`` of :func:`floatwind._kernels.flex_chan.flex_channels`."""
    B = y.shape[0]
    N, nf, J = ip[kfx.IP_N], ip[kfx.IP_NF], ip[kfx.IP_J]
    Pn = N + J + 1
    coupled = A.shape[0] > 0
    out = np.empty_like(y)
    kfx.flex_dynamics(fp, ip, y, X, tau, fm[0], fm[1], A, coupled, out)
    u = np.empty((B, 6 + nf))
    for b in range(B):
        for k in range(6):
            u[b, k] = out[b, 6 + k]
        for k in range(nf):
            u[b, 6 + k] = out[b, 12 + nf + k]
    pts = (np.empty((B, Pn, 3)), np.empty((B, Pn, 3)), np.empty((B, Pn, 3)),
           np.empty((B, J + 1, 3)), np.empty((B, N, 3)), np.empty((B, N, 3)),
           np.empty((B, 3, 3)), np.empty((B, 3)), np.empty((B, 3)), np.empty((B, 3, 3)))  # fmt: skip
    mats = (np.empty((B, N, 3, nf)), np.empty((B, Pn, 3, nf)), np.empty((B, N, 3, 3)))
    thxy = np.empty((B, 2))
    node_rows(fp, ip, X, y, pts, mats, thxy)
    rho, drho, ddrho, dP, wN, dwN, Pm, Qv, rs, RF = pts
    E, L, RN = mats
    q = np.ascontiguousarray(y[:, 0:6])
    qd = np.ascontiguousarray(y[:, 6:12])
    qm = np.ascontiguousarray(y[:, 12 + nf - (ip[kfx.IP_NM]) : 12 + nf])
    flex_channels((q, qd, u, qm, Qv, rs, thxy),
                  (rho, drho, ddrho, dP, wN, dwN, fm[0], fm[1], Pm, RF),
                  (E, L, RN, A), True, consts, ci, cv, ch)  # fmt: skip
    return u
