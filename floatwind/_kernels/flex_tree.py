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

__all__ = ["node_rows", "node_table", "out_rows"]

# ip indices of fp's arrays read here (floatwind._kernels.flex._FP_FIELDS order, pack)
_SLOPE, _IS_FA = 9, 27


def node_table(flex) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The tower points' shapes for :func:`node_rows`, the point index last (the pass runs
    over the points innermost): ``phe`` (3, n, J + 1) = phi_k(h_j) e_k, ``ax`` (n, n, J + 1)
    AxRed_kl(h_j), ``n0`` (3, J + 1) the undeflected places relative to the base CM, the nodes
    then the top (``FlexTower.phi``, ``axred``, ``node0``: the top's shape 1)."""
    phe = np.einsum("kj,kc->ckj", flex.phi, flex.e)
    c = np.ascontiguousarray
    return c(phe, np.float64), c(flex.axred, np.float64), c(flex.node0.T, np.float64)


@njit(cache=True, fastmath=False)
def node_rows(fp, ip, shapes, X, y, pts, mats, thxy):
    """The arrays of :func:`floatwind._kernels.flex_chan.flex_channels` of every row b from
    its flexible state ``X`` (flat, ``B * size``, :func:`floatwind._kernels.flex.flex_state`)
    and its state ``y`` (B, n_y); ``shapes`` = (phe, ax, n0) of :func:`node_table`. Out:
    ``pts`` = (rho, drho, ddrho (B, P, 3) over bodies + nodes + top (P = N + J + 1) about G_s,
    dP (B, J + 1, 3) the nodes' and the top's deflections, wN, dwN (B, N, 3), Pm (B, 3, 3), Qv,
    r_s (B, 3), RF (B, 3, 3) the top frame), ``mats`` = (E (B, N, 3, nf), L (B, P, 3, nf) mean
    removed, RN (B, N, 3, 3)), ``thxy`` (B, 2) the top's (th_x, th_y).

    Each tower point j (ElastoDyn rZT, PLinVelET, LinAccETt; ``FlexTower._points``): deflection
    p = sum_k phi_k q_k e_k - 1/2 sum_kl AxRed_kl q_k q_l z, partials L_k = phi_k e_k -
    sum_l AxRed_kl q_l z, velocity v = L q', acceleration at q'' = 0 a = -q'^T AxRed q' z."""
    rho, drho, ddrho, dP, wN, dwN, Pm, Qv, rs, RF = pts
    E, L, RN = mats
    phe, ax, n0 = shapes
    B = y.shape[0]
    N, nj, n, nf = ip[kfx.IP_N], ip[kfx.IP_NJ], ip[kfx.IP_NM], ip[kfx.IP_NF]
    P = n0.shape[1]  # the J nodes and the top
    lay = xlay(N, nf)
    oRho, oDrho, oDdrho, oR, oW, oDw, oP = lay[0], lay[1], lay[2], lay[3], lay[4], lay[5], lay[6]
    oQ, oE, oL, S = lay[8], lay[10], lay[11], lay[19]
    o_sl, i_fa = ip[_SLOPE], ip[_IS_FA]
    q = np.empty(n)
    qd = np.empty(n)
    axq = np.empty((n, P))
    pw = np.empty((3, P))
    vw = np.empty((3, P))
    aw = np.empty(P)
    Lw = np.empty((3, n, P))
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
        # the tower points, the point index innermost
        for k in range(n):
            for j in range(P):
                axq[k, j] = 0.0
            for m in range(n):
                for j in range(P):
                    axq[k, j] += q[m] * ax[k, m, j]
        for c in range(3):
            for j in range(P):
                pw[c, j] = 0.0
            for k in range(n):
                for j in range(P):
                    pw[c, j] += q[k] * phe[c, k, j]
        for j in range(P):
            aw[j] = 0.0
        for k in range(n):
            for j in range(P):
                pw[2, j] -= 0.5 * axq[k, j] * q[k]
            for c in range(3):
                for j in range(P):
                    Lw[c, k, j] = phe[c, k, j]
            for j in range(P):
                Lw[2, k, j] -= axq[k, j]
            for m in range(n):
                for j in range(P):
                    aw[j] += qd[k] * ax[k, m, j] * qd[m]
        for c in range(3):
            for j in range(P):
                vw[c, j] = 0.0
            for k in range(n):
                for j in range(P):
                    vw[c, j] += Lw[c, k, j] * qd[k]
        for j in range(P):
            pj = N + j
            for c in range(3):
                dP[b, j, c] = pw[c, j]
                rho[b, pj, c] = n0[c, j] + pw[c, j] - rs[b, c]
                drho[b, pj, c] = vw[c, j] - d1[c]
                ddrho[b, pj, c] = (-aw[j] if c == 2 else 0.0) - d2[c]
                for k in range(nj):
                    L[b, pj, c, k] = 0.0 - Lb[c, k]
                for k in range(n):
                    L[b, pj, c, nj + k] = Lw[c, k, j] - Lb[c, nj + k]


@njit(cache=True, fastmath=False)
def out_rows(fp, ip, y, X, tau, fm, A, par, cv, ch):
    """The accelerations and the tower channels of every output row: (u (B, 6 + nf) the
    base then the joint and modal accelerations, the node pass's arrays ``pts``, ``mats``,
    ``thxy`` of :func:`node_rows`). ``y`` (B, n_y) the rows, ``X`` their flexible state,
    ``tau`` (B, nf) the joint drives' torques in the first nj columns, ``fm`` (2, B, N, 3) the
    bodies' forces and moments (about their CM, inertial), ``A`` (B, N, 6, 6) their added mass
    or (0, N, 6, 6); ``par`` = (consts, ci) of :func:`floatwind._kernels.flex_chan.params`
    then (phe, ax, n0) of :func:`node_table`; out ``cv``, ``ch`` of
    :func:`floatwind._kernels.flex_chan.flex_channels`."""
    consts, ci, phe, ax, n0 = par
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
    node_rows(fp, ip, (phe, ax, n0), X, y, pts, mats, thxy)
    rho, drho, ddrho, dP, wN, dwN, Pm, Qv, rs, RF = pts
    E, L, RN = mats
    q = np.ascontiguousarray(y[:, 0:6])
    qd = np.ascontiguousarray(y[:, 6:12])
    qm = np.ascontiguousarray(y[:, 12 + nf - (ip[kfx.IP_NM]) : 12 + nf])
    flex_channels((q, qd, u, qm, Qv, rs, thxy),
                  (rho, drho, ddrho, dP, wN, dwN, fm[0], fm[1], Pm, RF),
                  (E, L, RN, A), True, consts, ci, cv, ch)  # fmt: skip
    return u
