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
  and the modes (mass-weighted mean removed: G_s of bodies + nodes), then the bodies' absolute
  kinematics (Wang 5.10, as ``floatwind._kernels.mcm.body_kinematics``). The tower nodes are
  not points of the solve: G_s and the mean partial take their first moments from modal
  integrals computed once (``pm``, ``am``, ``c0`` of the layout), and the second moments the
  rows need (``nm1 .. nLa`` of the state row) are contractions of modal tensors computed once
  (:func:`floatwind._kernels.flex_nodes.node_sums`; docs/multibody.md, "Flexible tower", *The
  nodes enter through modal tensors*);
* :func:`flex_dynamics`: the modal forces -K q - C q', the base rows of Wang (5.26) with the DOF
  accelerations in dQ and Kane's rows of the joints and the modes (docs/multibody.md, "Joint
  DOFs") over the bodies, plus the nodes' rows and weight from those sums, solved together per
  member (the joint-DOF solve's pieces of ``floatwind._kernels.joints``, written here on flat
  arrays).

Plain arrays only (docs/performance.md, "Flexible tower"): numba reference-counts every array
of a record (named tuple) each time a function binds it, and the records of this stage (the
parameters' 43 arrays, the state's 19, the solve's scratch 26) made ~45 % of a step. The
parameters are two flat arrays built once (``fp`` float64, ``ip`` int64, :func:`pack`; ``ip``
holds the sizes and the offsets into both), the per-member state one flat float64 array of
``B * size`` (``_xlay``), the scratch one flat array per call; the
kernels index them with offsets and never make a view.

The NumPy path (flex_dynamics.py) is the reference; the two agree to rounding. Every member
goes through the same operations in the same order whatever B (bit-identical alone and in a
batch).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from floatwind._kernels import mcm as km
from floatwind._kernels.flex_nodes import FP_TENSORS, IP_TENSORS, node_sums, nsum_size
from floatwind._kernels.flex_nodes import xlay as _xlay
from floatwind._kernels.joints import DofParams
from floatwind.jit import njit

__all__ = ["FlexParams", "flex_dynamics", "flex_state", "pack"]


class FlexParams(NamedTuple):
    """A flexible model: the tower and the tree in two flat arrays (:func:`pack`), the tree's
    joint DOFs and drives (``d``, read only by a model with joint DOFs: their relative
    kinematics and drive torques) and the sizes the glue needs."""

    fp: np.ndarray  # float64: the layout's float arrays and scalars
    ip: np.ndarray  # int64: sizes, offsets (IP_*), then the int arrays
    d: DofParams
    cm_b: np.ndarray  # (N, 3) the bodies' CM in their frames (BodyKinematics)
    n: int  # tower modes
    nj: int  # joint DOFs (d.n)
    nf: int  # nj + n: the DOF columns of the state
    moving: bool  # the prescribed joint motions change in time (else d.motion has one row)


# ip header: sizes, then the offsets of the arrays in fp, then of the int arrays in ip
IP_N, IP_NJ, IP_NM, IP_NF, IP_J, IP_MOVING = 0, 1, 2, 3, 4, 5
_FP_FIELDS = (
    "phit", "axt", "e", "slope", "Km", "Cm", "mass", "inertia", "top0", "pt", "mn", "node0n",
    "phin", "axn", "pm", "am", "c0", "axis", "ratio", "rJp", "scal",
)  # fmt: skip
_IP_FIELDS = ("is_fa", "rider", "dof_of", "parent", "sub")
# then the offsets of the nodes' modal tensors (floatwind._kernels.flex_nodes.FP_TENSORS)
IP_HEAD = 6 + len(_FP_FIELDS) + len(_IP_FIELDS) + len(FP_TENSORS)
assert IP_TENSORS == 6 + len(_FP_FIELDS) + len(_IP_FIELDS)


def pack(fl: dict, it: dict, sizes: tuple) -> tuple[np.ndarray, np.ndarray]:
    """``fp``, ``ip`` from the float arrays ``fl`` (names of ``_FP_FIELDS`` and
    ``flex_nodes.FP_TENSORS``; ``scal`` = [total_mass, gravity, M_n]) and the int arrays ``it``
    (``_IP_FIELDS``), ``sizes`` = (N, nj, n, nf, J, moving)."""
    ip = [int(v) for v in sizes] + [0] * (IP_HEAD - 6)
    parts, o = [], 0
    slots = [6 + k for k in range(len(_FP_FIELDS))]
    slots += [IP_TENSORS + k for k in range(len(FP_TENSORS))]
    for slot, name in zip(slots, _FP_FIELDS + FP_TENSORS, strict=True):
        a = np.ascontiguousarray(fl[name], dtype=np.float64).ravel()
        ip[slot] = o
        parts.append(a)
        o += a.size
    ints, o = [], IP_HEAD
    for k, name in enumerate(_IP_FIELDS):
        a = np.ascontiguousarray(it[name], dtype=np.int64).ravel()
        ip[6 + len(_FP_FIELDS) + k] = o
        ints.append(a)
        o += a.size
    fp = np.concatenate(parts) if parts else np.zeros(0)
    ipa = np.concatenate([np.asarray(ip, dtype=np.int64)] + ints)
    return np.ascontiguousarray(fp), np.ascontiguousarray(ipa)


# small vector algebra on flat arrays at offsets (the same operations in the same order as
# floatwind._kernels.mcm._mv, _mm, _cross)
@njit(cache=True, fastmath=False, inline="always")
def _m3(M, o):
    """The 3x3 block M[o:o+9] as a tuple (read at once: the stores that follow cannot make
    LLVM read it again, whatever array they go to)."""
    return (M[o], M[o + 1], M[o + 2], M[o + 3], M[o + 4], M[o + 5], M[o + 6], M[o + 7],
            M[o + 8])  # fmt: skip


@njit(cache=True, fastmath=False, inline="always")
def _mv(M, om, V, ov, O, oo):
    """O[oo:oo+3] = M V (M 3x3 row-major at om)."""
    v0, v1, v2 = V[ov], V[ov + 1], V[ov + 2]
    for i in range(3):
        O[oo + i] = M[om + 3 * i] * v0 + M[om + 3 * i + 1] * v1 + M[om + 3 * i + 2] * v2


@njit(cache=True, fastmath=False, inline="always")
def _mtv(M, om, V, ov, O, oo):
    """O = M^T V."""
    v0, v1, v2 = V[ov], V[ov + 1], V[ov + 2]
    for i in range(3):
        O[oo + i] = M[om + i] * v0 + M[om + 3 + i] * v1 + M[om + 6 + i] * v2


@njit(cache=True, fastmath=False, inline="always")
def _mm(A, oa, Bm, ob, O, oo):
    """O = A B (3x3 row-major)."""
    for i in range(3):
        for j in range(3):
            O[oo + 3 * i + j] = (
                A[oa + 3 * i] * Bm[ob + j]
                + A[oa + 3 * i + 1] * Bm[ob + 3 + j]
                + A[oa + 3 * i + 2] * Bm[ob + 6 + j]
            )


@njit(cache=True, fastmath=False, inline="always")
def _cross(A, oa, Bv, ob, O, oo):
    """O = A x B."""
    a0, a1, a2 = A[oa], A[oa + 1], A[oa + 2]
    b0, b1, b2 = Bv[ob], Bv[ob + 1], Bv[ob + 2]
    x = a1 * b2 - a2 * b1
    y = a2 * b0 - a0 * b2
    z = a0 * b1 - a1 * b0
    O[oo] = x
    O[oo + 1] = y
    O[oo + 2] = z


@njit(cache=True, fastmath=False, inline="always")
def _rot_inertia(R, orr, I, oi, O, oo):
    """O = R I R^T (``floatwind._kernels.joints._rot_inertia``; R and I read first, so that
    the stores to O cannot make them be read again)."""
    Rt = _m3(R, orr)
    It = _m3(I, oi)
    for a in range(3):
        for c in range(3):
            s = 0.0
            for k in range(3):
                for m in range(3):
                    s += Rt[3 * a + k] * It[3 * k + m] * Rt[3 * c + m]
            O[oo + 3 * a + c] = s


@njit(cache=True, fastmath=False, inline="always")
def _top_frame(t1, t3, RF, o):
    """ElastoDyn ``SmllRotTrans(t1, 0, t3)`` (NWTC_Num.f90, the orthonormalised small-angle
    matrix; b_i = T_ij a_j with a1 = x, a2 = -z... as FlexTower._top_frame_elastodyn) as the
    columns x_top, y_top, z_top of R_F in the base frame (row-major at ``o``)."""
    S = t1 * t1 + t3 * t3
    if S == 0.0:
        for i in range(3):
            for j in range(3):
                RF[o + 3 * i + j] = 1.0 if i == j else 0.0
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
    RF[o], RF[o + 3], RF[o + 6] = T00, -T02, T01
    RF[o + 1], RF[o + 4], RF[o + 7] = -T20, T22, -T21
    RF[o + 2], RF[o + 5], RF[o + 8] = T10, -T12, T11


@njit(cache=True, fastmath=False, inline="always")
def _deflect(fp, ophi, oax, oe, n, ws, oq, op, oL):
    """A point of the tower at shape ``phi`` (n,) and axial reduction ``ax`` (n, n) (or their
    mass-weighted node sums, the modal integrals): deflection p = sum phi_k q_k e_k - 1/2 sum
    ax_kl q_k q_l z, partials Lp[:, k] = phi_k e_k - sum_l ax_kl q_l z (3, n) at ``oL``,
    velocity v = Lp q', acceleration at q'' = 0 a = -sum ax_kl q'_k q'_l z (ElastoDyn rZT,
    PLinVelET, LinAccETt; docs/multibody.md "Flexible tower", Kinematics). Parameters in
    ``fp`` at ``ophi``, ``oax``, ``oe``; in ``ws`` q, q' and the scratch sum_l ax_kl q_l (n each)
    from ``oq``, p, v, a (3 each) from ``op``, Lp at ``oL``."""
    oqd = oq + n
    oaxq = oq + 2 * n
    ov = op + 3
    oa = op + 6
    for k in range(n):
        c = 0.0
        for m in range(n):
            c += ws[oq + m] * fp[oax + k * n + m]
        ws[oaxq + k] = c
    for c in range(3):
        s = 0.0
        for k in range(n):
            s += ws[oq + k] * fp[ophi + k] * fp[oe + 3 * k + c]
        ws[op + c] = s
    s = 0.0
    for k in range(n):
        s += ws[oaxq + k] * ws[oq + k]
    ws[op + 2] -= 0.5 * s
    for k in range(n):
        for c in range(3):
            ws[oL + c * n + k] = fp[ophi + k] * fp[oe + 3 * k + c]
        ws[oL + 2 * n + k] -= ws[oaxq + k]
    for c in range(3):
        s = 0.0
        for k in range(n):
            s += ws[oL + c * n + k] * ws[oqd + k]
        ws[ov + c] = s
    s = 0.0
    for k in range(n):
        for m in range(n):
            s += ws[oqd + k] * fp[oax + k * n + m] * ws[oqd + m]
    ws[oa] = 0.0
    ws[oa + 1] = 0.0
    ws[oa + 2] = -s


@njit(cache=True, fastmath=False)
def flex_state(fp, ip, trho, tdrho, tddrho, tR, tw, tdw, per_member, gm, y):
    """The flexible state of every member (flat, ``B * size``, ``_xlay``) and the
    bodies' absolute kinematics r_G, R_b2g, v_G, w_g (B, N, ...; Wang 5.10) at (``gm``, y).

    ``trho .. tdw`` the relative kinematics of the tree (``floatwind._kernels.fused.RelTable``
    fields): row ``gm`` for every member (the run's table, a tree without joint DOFs), or with
    ``per_member`` row b for member b (the joint DOFs' table of the members,
    ``floatwind._kernels.joints.rel_rows``)."""
    B = y.shape[0]
    N, nf, n = ip[IP_N], ip[IP_NF], ip[IP_NM]
    X = np.empty(B * _xlay(N, nf)[-1])
    r_G = np.empty((B, N, 3))
    R_b2g = np.empty((B, N, 3, 3))
    v_G = np.empty((B, N, 3))
    w_g = np.empty((B, N, 3))
    ws = np.empty(state_ws_size(N, n, nf))
    flex_state_into(fp, ip, (trho, tdrho, tddrho, tR, tw, tdw), per_member, gm, y,
                    (X, r_G, R_b2g, v_G, w_g, ws))  # fmt: skip
    return X, r_G, R_b2g, v_G, w_g


@njit(cache=True, fastmath=False, inline="always")
def state_ws_size(N, n, nf):
    """The length of :func:`flex_state_into`'s scratch ``ws`` (its offsets, in their order)."""
    return 18 * N + 12 * n + 3 * nf + 141 + nsum_size(n)


@njit(cache=True, fastmath=False, _nrt=False)
def flex_state_into(fp, ip, tab, per_member, gm, y, out):
    """:func:`flex_state` of the table ``tab`` = (trho, tdrho, tddrho, tR, tw, tdw) into the
    run's arrays ``out`` = (X (B * size), r_G, R_b2g, v_G, w_g, ws: the scratch,
    :func:`state_ws_size`): it allocates nothing and returns nothing (compiled without
    reference counting; every region is written before it is read)."""
    trho, tdrho, tddrho, tR, tw, tdw = tab
    X, r_G, R_b2g, v_G, w_g, ws = out
    B = y.shape[0]
    N, nj, n, nf = ip[IP_N], ip[IP_NJ], ip[IP_NM], ip[IP_NF]
    o_phit, o_axt, o_e, o_slope = ip[6], ip[7], ip[8], ip[9]
    o_mass, o_in, o_top0, o_pt = ip[12], ip[13], ip[14], ip[15]
    o_pm, o_am, o_c0, o_axis, o_ratio, o_rJp, o_sc = (ip[20], ip[21], ip[22], ip[23], ip[24],
                                                      ip[25], ip[26])  # fmt: skip
    i_fa, i_rider, i_dof, i_par, i_sub = ip[27], ip[28], ip[29], ip[30], ip[31]
    total_mass = fp[o_sc]
    (oRho, oDrho, oDdrho, oR, oW, oDw, oP, odP, oQ, odQ, oE, oL, onm1, onL, onD, onLL, onLr,
     onLv, onLa, S) = _xlay(N, nf)  # fmt: skip
    # the scratch of a member, one allocation: offsets
    wr = 0
    wdr = 3 * N
    wddr = 6 * N
    wdR = 9 * N
    wEF = 18 * N
    wLT = wEF + 3 * n  # the top's mode partials (PLinVelET at the top), (3, n)
    wLs = wLT + 3 * n  # the node sums' mode partials (modal integrals), (3, n)
    wLb = wLs + 3 * n  # mass-weighted mean of the partials (3, nf)
    wq = wLb + 3 * nf  # q, q', sum_l AxRed_kl q_l (n each: _deflect)
    wqd = wq + n
    waxq = wqd + n
    # 3-vectors: the top's deflection, velocity, acceleration (_deflect), G_s and its
    # derivatives, the node sums' (_deflect), w_F, then small vectors
    v3 = waxq + n
    wpT, wvT, waT, wrs, wdrs, wddrs = v3, v3 + 3, v3 + 6, v3 + 9, v3 + 12, v3 + 15
    wrn, wvn, wan, wwF, ws_, wRs = v3 + 18, v3 + 21, v3 + 24, v3 + 27, v3 + 30, v3 + 33
    wRds, wRdds, wt1, wt2, wt3 = v3 + 36, v3 + 39, v3 + 42, v3 + 45, v3 + 48
    wws, wv, wo = v3 + 51, v3 + 54, v3 + 57
    # 3x3 blocks: R_F, R0, dR0, products, Jm, dJ, R I, the base frame R and T(omega)
    m9 = v3 + 60
    wRF, wR0, wdR0, wM3, wJm, wdJ = m9, m9 + 9, m9 + 18, m9 + 27, m9 + 36, m9 + 45
    wRI, wRb, wTb = m9 + 54, m9 + 63, m9 + 72
    wns = m9 + 81  # the node sums' scratch (flex_nodes.node_sums)
    for k in range(n):
        for c in range(3):
            ws[wEF + c * n + k] = 0.0
    for b in range(B):
        x = b * S
        tb = b if per_member else gm
        # the tree relative to G_1 (rho_i - rho_1; dR = [w] R)
        for i in range(N):
            for k in range(3):
                ws[wr + 3 * i + k] = trho[tb, i, k] - trho[tb, 0, k]
                ws[wdr + 3 * i + k] = tdrho[tb, i, k] - tdrho[tb, 0, k]
                ws[wddr + 3 * i + k] = tddrho[tb, i, k] - tddrho[tb, 0, k]
                X[x + oW + 3 * i + k] = tw[tb, i, k]
                X[x + oDw + 3 * i + k] = tdw[tb, i, k]
                for c in range(3):
                    X[x + oR + 9 * i + 3 * k + c] = tR[tb, i, k, c]
            for c in range(3):
                for k in range(3):
                    ws[wt1 + k] = X[x + oR + 9 * i + 3 * k + c]
                _cross(X, x + oW + 3 * i, ws, wt1, ws, wt2)
                for k in range(3):
                    ws[wdR + 9 * i + 3 * k + c] = ws[wt2 + k]
        # E, L start at zero (the modes' columns of the riders and the joints' are added)
        for k in range(3 * N * nf):
            X[x + oE + k] = 0.0
            X[x + oL + k] = 0.0
        # tower top slopes (ElastoDyn SetCoordSy): th_y fore-aft, th_x = -side-side
        thx = 0.0
        thy = 0.0
        thxd = 0.0
        thyd = 0.0
        for k in range(n):
            qk = y[b, 12 + nj + k]
            qdk = y[b, 12 + nf + nj + k]
            ws[wq + k] = qk
            ws[wqd + k] = qdk
            sl = fp[o_slope + k]
            if ip[i_fa + k] == 1:
                thy += sl * qk
                thyd += sl * qdk
                ws[wEF + n + k] = sl
            else:
                thx -= sl * qk
                thxd -= sl * qdk
                ws[wEF + k] = -sl
        _top_frame(thx, -thy, ws, wRF)
        ws[wwF] = thxd
        ws[wwF + 1] = thyd
        ws[wwF + 2] = 0.0
        # the tower top (ElastoDyn rZT, PLinVelET, LinAccETt with q'' = 0; docs/multibody.md
        # "Flexible tower", Kinematics): phi_k(L) e_k q_k - 1/2 sum AxRed_kl(L) q_k q_l z
        _deflect(fp, o_phit, o_axt, o_e, n, ws, wq, wpT, wLT)
        # the bodies on the deflected top: r_T + R_F s, w_F + R_F w, R_F R (dw_F = 0)
        for i in range(N):
            if ip[i_rider + i] == 0:
                continue
            for k in range(3):
                ws[ws_ + k] = ws[wr + 3 * i + k] - fp[o_top0 + k]
            _mv(ws, wRF, ws, ws_, ws, wRs)
            _mv(ws, wRF, ws, wdr + 3 * i, ws, wRds)
            _mv(ws, wRF, ws, wddr + 3 * i, ws, wRdds)
            _cross(ws, wwF, ws, wRs, ws, wt1)
            _cross(ws, wwF, ws, wt1, ws, wt2)
            _cross(ws, wwF, ws, wRds, ws, wt3)
            for k in range(3):
                ws[wr + 3 * i + k] = fp[o_top0 + k] + ws[wpT + k] + ws[wRs + k]
                ws[wdr + 3 * i + k] = ws[wvT + k] + ws[wt1 + k] + ws[wRds + k]
                ws[wddr + 3 * i + k] = (
                    ws[waT + k] + ws[wt2 + k] + 2.0 * ws[wt3 + k] + ws[wRdds + k]
                )
            _mv(ws, wRF, X, x + oW + 3 * i, ws, wt1)
            _mv(ws, wRF, X, x + oDw + 3 * i, ws, wt2)
            _cross(ws, wwF, ws, wt1, ws, wt3)
            for k in range(3):
                X[x + oW + 3 * i + k] = ws[wwF + k] + ws[wt1 + k]
                X[x + oDw + 3 * i + k] = ws[wt3 + k] + ws[wt2 + k]
            for k in range(9):
                ws[wR0 + k] = X[x + oR + 9 * i + k]
                ws[wdR0 + k] = ws[wdR + 9 * i + k]
            _mm(ws, wRF, ws, wR0, ws, wM3)
            for c in range(3):
                for k in range(3):
                    ws[wt1 + k] = ws[wM3 + 3 * k + c]
                _cross(ws, wwF, ws, wt1, ws, wt2)
                for k in range(3):
                    X[x + oR + 9 * i + 3 * k + c] = ws[wM3 + 3 * k + c]
                    ws[wdR + 9 * i + 3 * k + c] = ws[wt2 + k]
            _mm(ws, wRF, ws, wdR0, ws, wM3)
            for k in range(9):
                ws[wdR + 9 * i + k] += ws[wM3 + k]
            for m in range(n):
                for k in range(3):
                    ws[wt1 + k] = ws[wEF + k * n + m]
                _cross(ws, wt1, ws, wRs, ws, wt2)
                for k in range(3):
                    X[x + oE + (3 * i + k) * nf + nj + m] = ws[wEF + k * n + m]
                    X[x + oL + (3 * i + k) * nf + nj + m] = ws[wLT + k * n + m] + ws[wt2 + k]
        # G_s of bodies + nodes: the nodes' first moments from the modal integrals
        # sum m_J r_J = c0 + sum_k (sum m phi_k) q_k e_k - 1/2 z sum_kl (sum m AxRed_kl) q_k q_l
        # (docs/multibody.md "Flexible tower": rZT summed over the nodes; the same sums in
        # another order: equal to round-off)
        _deflect(fp, o_pm, o_am, o_e, n, ws, wq, wrn, wLs)
        for k in range(3):
            ws[wrs + k] = fp[o_c0 + k] + ws[wrn + k]
            ws[wdrs + k] = ws[wvn + k]
            ws[wddrs + k] = ws[wan + k]
        for i in range(N):
            mi = fp[o_mass + i]
            for k in range(3):
                ws[wrs + k] += mi * ws[wr + 3 * i + k]
                ws[wdrs + k] += mi * ws[wdr + 3 * i + k]
                ws[wddrs + k] += mi * ws[wddr + 3 * i + k]
        for k in range(3):
            ws[wrs + k] /= total_mass
            ws[wdrs + k] /= total_mass
            ws[wddrs + k] /= total_mass
        for k in range(9):
            X[x + oP + k] = 0.0
            X[x + odP + k] = 0.0
        for k in range(3):
            X[x + oQ + k] = 0.0
            X[x + odQ + k] = 0.0
        # mass distribution of the bodies about G_s (Wang 5.16-5.22)
        for i in range(N):
            for k in range(3):
                X[x + oRho + 3 * i + k] = ws[wr + 3 * i + k] - ws[wrs + k]
                X[x + oDrho + 3 * i + k] = ws[wdr + 3 * i + k] - ws[wdrs + k]
                X[x + oDdrho + 3 * i + k] = ws[wddr + 3 * i + k] - ws[wddrs + k]
            oRi = x + oR + 9 * i
            odRi = wdR + 9 * i
            _mm(X, oRi, fp, o_in + 9 * i, ws, wRI)
            _mm(ws, odRi, fp, o_in + 9 * i, ws, wM3)
            for k in range(3):
                for c in range(3):
                    ws[wJm + 3 * k + c] = (
                        ws[wRI + 3 * k] * X[oRi + 3 * c]
                        + ws[wRI + 3 * k + 1] * X[oRi + 3 * c + 1]
                        + ws[wRI + 3 * k + 2] * X[oRi + 3 * c + 2]
                    )
                    ws[wdJ + 3 * k + c] = (
                        ws[wM3 + 3 * k] * X[oRi + 3 * c]
                        + ws[wM3 + 3 * k + 1] * X[oRi + 3 * c + 1]
                        + ws[wM3 + 3 * k + 2] * X[oRi + 3 * c + 2]
                        + ws[wRI + 3 * k] * ws[odRi + 3 * c]
                        + ws[wRI + 3 * k + 1] * ws[odRi + 3 * c + 1]
                        + ws[wRI + 3 * k + 2] * ws[odRi + 3 * c + 2]
                    )
            mi = fp[o_mass + i]
            # a point mass's part of P, dP, Q, dQ about G_s (Wang 4.12, 5.16-5.22)
            orh = x + oRho + 3 * i
            odr = x + oDrho + 3 * i
            oddr = x + oDdrho + 3 * i
            rr = X[orh] * X[orh] + X[orh + 1] * X[orh + 1] + X[orh + 2] * X[orh + 2]
            rd = X[orh] * X[odr] + X[orh + 1] * X[odr + 1] + X[orh + 2] * X[odr + 2]
            for k in range(3):
                for c in range(3):
                    eye = 1.0 if k == c else 0.0
                    P2 = rr * eye - X[orh + k] * X[orh + c]  # rho_bar, Wang (4.12)
                    dP2 = 2.0 * rd * eye - X[odr + k] * X[orh + c] - X[orh + k] * X[odr + c]
                    X[x + oP + 3 * k + c] += mi * P2
                    X[x + odP + 3 * k + c] += mi * dP2
            _cross(X, orh, X, odr, ws, wt1)
            _cross(X, orh, X, oddr, ws, wt2)
            for k in range(3):
                X[x + oQ + k] += mi * ws[wt1 + k]
                X[x + odQ + k] += mi * ws[wt2 + k]
            for k in range(9):
                X[x + oP + k] += ws[wJm + k]
                X[x + odP + k] += ws[wdJ + k]
            _mv(ws, wJm, X, x + oW + 3 * i, ws, wt1)
            _mv(ws, wdJ, X, x + oW + 3 * i, ws, wt2)
            _mv(ws, wJm, X, x + oDw + 3 * i, ws, wt3)
            for k in range(3):
                X[x + oQ + k] += ws[wt1 + k]
                X[x + odQ + k] += ws[wt2 + k] + ws[wt3 + k]
        # joint partials (joints.forward_dynamics_dofs; a joint on the base at the deflected top)
        for c in range(N):
            j = ip[i_dof + c]
            if j < 0:
                continue
            p = ip[i_par + c]
            _mv(X, x + oR + 9 * c, fp, o_axis + 3 * c, ws, wt1)
            for k in range(3):
                ws[wt1 + k] *= fp[o_ratio + c]
            if p == 0:
                _mv(ws, wRF, fp, o_pt + 3 * c, ws, wt2)
                for k in range(3):
                    ws[wt2 + k] += fp[o_top0 + k] + ws[wpT + k] - ws[wrs + k]
            else:
                _mv(X, x + oR + 9 * p, fp, o_rJp + 3 * c, ws, wt2)
                for k in range(3):
                    ws[wt2 + k] += X[x + oRho + 3 * p + k]
            for i in range(N):
                if ip[i_sub + c * N + i] == 0:
                    continue
                for k in range(3):
                    ws[wt3 + k] = X[x + oRho + 3 * i + k] - ws[wt2 + k]
                _cross(ws, wt1, ws, wt3, ws, ws_)
                for k in range(3):
                    X[x + oE + (3 * i + k) * nf + j] += ws[wt1 + k]
                    X[x + oL + (3 * i + k) * nf + j] += ws[ws_ + k]
        # the partials' mass-weighted mean over bodies + nodes (the nodes: Ls, modes only)
        for j in range(nf):
            for k in range(3):
                a = 0.0 if j < nj else ws[wLs + k * n + j - nj]
                for i in range(N):
                    a += fp[o_mass + i] * X[x + oL + (3 * i + k) * nf + j]
                lb = a / total_mass
                ws[wLb + k * nf + j] = lb
                for i in range(N):
                    X[x + oL + (3 * i + k) * nf + j] -= lb
        # the nodes (point masses about G_s, their partials with the mean removed): their
        # part of P, dP, Q, dQ (Wang 5.16-5.22) and the sums the coupled solve needs
        # (flex_dynamics), from the modal tensors (floatwind._kernels.flex_nodes)
        node_sums(fp, ip, X, x, ws, (wq, wqd, wrs, wdrs, wddrs, wrn, wvn, wan, wLs, wLb, wns))
        # the bodies' absolute kinematics (Wang 5.10; floatwind._kernels.mcm.body_kinematics)
        _euler123(y[b, 3], y[b, 4], y[b, 5], ws, wRb)
        _t_omega(y[b, 4], y[b, 5], ws, wTb)
        _mv(ws, wTb, y[b], 9, ws, wws)
        for i in range(N):
            _mv(ws, wRb, X, x + oRho + 3 * i, ws, wo)
            for k in range(3):
                r_G[b, i, k] = y[b, k] + ws[wo + k]
            _cross(ws, wws, X, x + oRho + 3 * i, ws, wt1)
            for k in range(3):
                ws[wv + k] = X[x + oDrho + 3 * i + k] + ws[wt1 + k]
            _mv(ws, wRb, ws, wv, ws, wo)
            for k in range(3):
                v_G[b, i, k] = y[b, 6 + k] + ws[wo + k]
            oRi = x + oR + 9 * i
            for r in range(3):
                for c in range(3):
                    R_b2g[b, i, r, c] = (
                        ws[wRb + 3 * r] * X[oRi + c]
                        + ws[wRb + 3 * r + 1] * X[oRi + 3 + c]
                        + ws[wRb + 3 * r + 2] * X[oRi + 6 + c]
                    )
            for k in range(3):
                ws[wv + k] = ws[wws + k] + X[x + oW + 3 * i + k]
            _mv(ws, wRb, ws, wv, ws, wo)
            for k in range(3):
                w_g[b, i, k] = ws[wo + k]


@njit(cache=True, fastmath=False, inline="always")
def _euler123(a4, a5, a6, R, o):
    """``floatwind._kernels.mcm._euler123`` into R[o:o+9]."""
    c4, c5, c6 = math.cos(a4), math.cos(a5), math.cos(a6)
    s4, s5, s6 = math.sin(a4), math.sin(a5), math.sin(a6)
    R[o], R[o + 1], R[o + 2] = c5 * c6, -c5 * s6, s5
    R[o + 3] = s4 * s5 * c6 + c4 * s6
    R[o + 4] = -s4 * s5 * s6 + c4 * c6
    R[o + 5] = -s4 * c5
    R[o + 6] = -c4 * s5 * c6 + s4 * s6
    R[o + 7] = c4 * s5 * s6 + s4 * c6
    R[o + 8] = c4 * c5


@njit(cache=True, fastmath=False, inline="always")
def _t_omega(a5, a6, T, o):
    """``floatwind._kernels.mcm._t_omega`` into T[o:o+9]."""
    c5, c6 = math.cos(a5), math.cos(a6)
    s5, s6 = math.sin(a5), math.sin(a6)
    T[o], T[o + 1], T[o + 2] = c5 * c6, s6, 0.0
    T[o + 3], T[o + 4], T[o + 5] = -c5 * s6, c6, 0.0
    T[o + 6], T[o + 7], T[o + 8] = s5, 0.0, 1.0


@njit(cache=True, fastmath=False)
def flex_dynamics(fp, ip, y, X, tau, force, moment, A, coupled, out):
    """dy/dt of every member into ``out`` (FlexTower.forward_dynamics): out[:, :6] = qd,
    out[:, 6:12] = the base accelerations, then the DOF rates and accelerations. ``tau`` (B, nf)
    holds the joint drives' torques in its first nj columns (``joints.drive_rows``); the modes'
    -K q - C q' are written here. Wang 5.26 base rows with the DOFs in dQ, Kane's rows over
    bodies + nodes, assembled as the joint-DOF solve's pieces (``floatwind._kernels.joints``:
    base_frame, base_rows, point_rows, dof_rows, body_rows, solve_rows) for the bodies plus the
    nodes' rows and weight from the node sums of :func:`flex_state`."""
    N, nf = ip[IP_N], ip[IP_NF]
    nn = 6 + nf
    sc = (np.empty((nn, nn)), np.empty(nn), np.empty(nn), np.empty(dyn_ws_size(N, nf)),
          np.empty((6, 6)), np.empty((6, 6)), np.empty((3, 3)))  # fmt: skip
    flex_dynamics_into(fp, ip, y, X, tau, force, moment, A, coupled, out, sc)


@njit(cache=True, fastmath=False, inline="always")
def dyn_ws_size(N, nf):
    """The length of :func:`flex_dynamics_into`'s flat scratch (its offsets, in their order)."""
    nn = 6 + nf
    return 117 + 6 * nn + N * 6 * nn + N * 6 + 3 * N


@njit(cache=True, fastmath=False, _nrt=False)
def flex_dynamics_into(fp, ip, y, X, tau, force, moment, A, coupled, out, sc):
    """:func:`flex_dynamics` with the run's scratch ``sc`` = (K (nn, nn), r (nn,), u (nn,),
    ws (:func:`dyn_ws_size`), G, GA (6, 6), Rm (3, 3)), nn = 6 + nf: it allocates nothing
    (compiled without reference counting; every region is written before it is read)."""
    K, r, u, ws, G, GA, Rm = sc
    B = y.shape[0]
    N, nj, n, nf = ip[IP_N], ip[IP_NJ], ip[IP_NM], ip[IP_NF]
    o_Km, o_Cm, o_mass, o_in = ip[10], ip[11], ip[12], ip[13]
    o_sc = ip[26]
    total_mass, g, Mn = fp[o_sc], fp[o_sc + 1], fp[o_sc + 2]
    (oRho, oDrho, oDdrho, oR, oW, oDw, oP, odP, oQ, odQ, oE, oL, onm1, onL, onD, onLL, onLr,
     onLv, onLa, S) = _xlay(N, nf)  # fmt: skip
    nn = 6 + nf
    # the modal forces (ElastoDyn Coeff: KTFA, CTFA): tau[:, nj + k] = -K q - C q'
    for b in range(B):
        for k in range(n):
            v = 0.0
            for m in range(n):
                v -= fp[o_Km + k * n + m] * y[b, 12 + nj + m]
            for m in range(n):
                v -= fp[o_Cm + k * n + m] * y[b, 12 + nf + nj + m]
            tau[b, nj + k] = v
    # scratch: the base frame and the small vectors, Jb (N, 6, nn), cb (N, 6), rho_g (N, 3)
    sR, sTw, sRE, sw, sh, st1, st2, st3, sx3, sF, sMg = 0, 9, 18, 21, 24, 27, 30, 33, 36, 39, 42
    sJs, sRb, sIg, swb, sMi, sv6, sMJ = 45, 54, 63, 72, 75, 111, 117
    sJb = sMJ + 6 * nn
    scb = sJb + N * 6 * nn
    srg = scb + N * 6
    for b in range(B):
        x = b * S
        # base_frame: R, Tw, RE, w (Wang 5.10) and h = P w + Q
        _euler123(y[b, 3], y[b, 4], y[b, 5], ws, sR)
        _t_omega(y[b, 4], y[b, 5], ws, sTw)
        q4, q5 = y[b, 4], y[b, 5]
        d4, d5, d6 = y[b, 9], y[b, 10], y[b, 11]
        c5, c6 = math.cos(q4), math.cos(q5)
        s5, s6 = math.sin(q4), math.sin(q5)
        ws[sRE] = -d4 * d5 * s5 * c6 - d4 * d6 * c5 * s6 + d5 * d6 * c6
        ws[sRE + 1] = d4 * d5 * s5 * s6 - d4 * d6 * c5 * c6 - d5 * d6 * s6
        ws[sRE + 2] = d4 * d5 * c5
        _mv(ws, sTw, y[b], 9, ws, sw)
        _mv(X, x + oP, ws, sw, ws, st1)
        for k in range(3):
            ws[sh + k] = ws[st1 + k] + X[x + oQ + k]
        # base_rows: the wrench about G_s and the base rows of Wang (5.26), the DOF rows zeroed
        for k in range(3):
            ws[sF + k] = 0.0
            ws[sMg + k] = 0.0
        for i in range(N):
            _mv(ws, sR, X, x + oRho + 3 * i, ws, st1)
            for k in range(3):
                ws[srg + 3 * i + k] = ws[st1 + k]
            t10, t11, t12 = ws[st1], ws[st1 + 1], ws[st1 + 2]
            f0, f1, f2 = force[b, i, 0], force[b, i, 1], force[b, i, 2]
            ws[st2] = t11 * f2 - t12 * f1
            ws[st2 + 1] = t12 * f0 - t10 * f2
            ws[st2 + 2] = t10 * f1 - t11 * f0
            for k in range(3):
                ws[sF + k] += force[b, i, k]
                ws[sMg + k] += moment[b, i, k] + ws[st2 + k]
        _mtv(ws, sR, ws, sMg, ws, st1)
        _mv(X, x + odP, ws, sw, ws, st2)
        _mv(X, x + oP, ws, sRE, ws, st3)
        _cross(ws, sw, ws, sh, ws, sx3)
        for k in range(nn):
            r[k] = 0.0
            for c in range(nn):
                K[k, c] = 0.0
        for k in range(3):
            r[k] = ws[sF + k]
            r[3 + k] = (
                ws[st1 + k] - ws[st2 + k] - X[x + odQ + k] - ws[st3 + k] - ws[sx3 + k]
            )
            K[k, k] = total_mass
            for c in range(3):
                K[3 + k, 3 + c] = (
                    X[x + oP + 3 * k] * ws[sTw + c]
                    + X[x + oP + 3 * k + 1] * ws[sTw + 3 + c]
                    + X[x + oP + 3 * k + 2] * ws[sTw + 6 + c]
                )
        # the nodes' weight -m_J g Z (inertial): force -M_n g Z, moment about G_s
        # sum R rho_J x (-m_J g Z), in C_s axes nm1 x (-g R^T Z) (r[3:6] holds R^T M_G)
        r[2] -= g * Mn
        for k in range(3):
            ws[st1 + k] = -g * ws[sR + 6 + k]
        _cross(X, x + onm1, ws, st1, ws, st2)
        for k in range(3):
            r[3 + k] += ws[st2 + k]
        # point_rows (bodies): Jb (inertial) [a_G; alpha] = Jb u + cb
        for i in range(N):
            oJ = sJb + i * 6 * nn
            for k in range(6 * nn):
                ws[oJ + k] = 0.0
            for c in range(3):
                ws[st1] = ws[sTw + c]
                ws[st1 + 1] = ws[sTw + 3 + c]
                ws[st1 + 2] = ws[sTw + 6 + c]
                _cross(X, x + oRho + 3 * i, ws, st1, ws, st2)
                _mv(ws, sR, ws, st2, ws, st3)
                for rr in range(3):
                    ws[oJ + rr * nn + 3 + c] = -ws[st3 + rr]
                    ws[oJ + (3 + rr) * nn + 3 + c] = (
                        ws[sR + 3 * rr] * ws[sTw + c]
                        + ws[sR + 3 * rr + 1] * ws[sTw + 3 + c]
                        + ws[sR + 3 * rr + 2] * ws[sTw + 6 + c]
                    )
            for rr in range(3):
                ws[oJ + rr * nn + rr] = 1.0
            for j in range(nf):
                for k in range(3):
                    ws[st1 + k] = X[x + oL + (3 * i + k) * nf + j]
                _mv(ws, sR, ws, st1, ws, st3)
                for k in range(3):
                    ws[oJ + k * nn + 6 + j] = ws[st3 + k]
                for k in range(3):
                    ws[st2 + k] = X[x + oE + (3 * i + k) * nf + j]
                _mv(ws, sR, ws, st2, ws, sx3)
                for k in range(3):
                    ws[oJ + (3 + k) * nn + 6 + j] = ws[sx3 + k]
            _cross(ws, sw, X, x + oDrho + 3 * i, ws, st1)
            _cross(ws, sw, X, x + oRho + 3 * i, ws, st2)
            _cross(ws, sw, ws, st2, ws, st3)
            _cross(ws, sRE, X, x + oRho + 3 * i, ws, sx3)
            for k in range(3):
                ws[st2 + k] = (
                    X[x + oDdrho + 3 * i + k] + 2.0 * ws[st1 + k] + ws[st3 + k] + ws[sx3 + k]
                )
            _mv(ws, sR, ws, st2, ws, st3)
            for k in range(3):
                ws[scb + 6 * i + k] = ws[st3 + k]
        for i in range(N):
            _cross(ws, sw, X, x + oW + 3 * i, ws, st1)
            for k in range(3):
                ws[st2 + k] = ws[sRE + k] + X[x + oDw + 3 * i + k] + ws[st1 + k]
            _mv(ws, sR, ws, st2, ws, st3)
            for k in range(3):
                ws[scb + 6 * i + 3 + k] = ws[st3 + k]
        # dof_rows: D_k = sum_i (J_i E_ik + m_i rho_i x L_ik): the DOF accelerations in dQ
        # (5.20); the nodes' part sum m_J rho_J x L_Jk = nD
        for i in range(N):
            _rot_inertia(X, x + oR + 9 * i, fp, o_in + 9 * i, ws, sJs)
            mi = fp[o_mass + i]
            for j in range(nf):
                for k in range(3):
                    ws[st1 + k] = X[x + oL + (3 * i + k) * nf + j]
                _cross(X, x + oRho + 3 * i, ws, st1, ws, st2)
                oEj = x + oE + 3 * i * nf + j
                for k in range(3):
                    a = (
                        ws[sJs + 3 * k] * X[oEj]
                        + ws[sJs + 3 * k + 1] * X[oEj + nf]
                        + ws[sJs + 3 * k + 2] * X[oEj + 2 * nf]
                    )
                    K[3 + k, 6 + j] += a + mi * ws[st2 + k]
        for j in range(nf):
            for k in range(3):
                K[3 + k, 6 + j] += X[x + onD + k * nf + j]
        # the nodes' Kane rows (point masses; docs/multibody.md "Flexible tower", Equations):
        # sum_J m_J (R L_Jj) . (a_J - g) with a_J = Jb_J u + cb_J (joints.point_rows) summed
        # over the nodes: translation columns R sum m L_j, rotation columns Tw^T sum m rho x
        # L_j, DOF columns sum m L_j . L_k; cb_J = R (rho'' + 2 w x rho' + w x (w x rho)
        # + RE x rho) gives sum m L_j . rho'' + 2 w . sum m rho' x L_j + w^T (sum m L_j
        # rho^T) w - |w|^2 tr(sum m L_j rho^T) + RE . sum m rho x L_j
        w0, w1, w2 = ws[sw], ws[sw + 1], ws[sw + 2]
        ww = w0 * w0 + w1 * w1 + w2 * w2
        for j in range(nf):
            nL0 = X[x + onL + j]
            nL1 = X[x + onL + nf + j]
            nL2 = X[x + onL + 2 * nf + j]
            nD0 = X[x + onD + j]
            nD1 = X[x + onD + nf + j]
            nD2 = X[x + onD + 2 * nf + j]
            for c in range(3):
                K[6 + j, c] += ws[sR + 3 * c] * nL0 + ws[sR + 3 * c + 1] * nL1 + ws[
                    sR + 3 * c + 2
                ] * nL2
                K[6 + j, 3 + c] += (
                    ws[sTw + c] * nD0 + ws[sTw + 3 + c] * nD1 + ws[sTw + 6 + c] * nD2
                )
            for c in range(nf):
                K[6 + j, 6 + c] += X[x + onLL + j * nf + c]
            oj = x + onLr + 9 * j
            wLw = 0.0
            for k in range(3):
                wLw += ws[sw + k] * (
                    X[oj + 3 * k] * w0 + X[oj + 3 * k + 1] * w1 + X[oj + 3 * k + 2] * w2
                )
            v = (
                X[x + onLa + j]
                + 2.0 * (w0 * X[x + onLv + j] + w1 * X[x + onLv + nf + j]
                         + w2 * X[x + onLv + 2 * nf + j])
                + wLw - ww * (X[oj] + X[oj + 4] + X[oj + 8])
                + ws[sRE] * nD0 + ws[sRE + 1] * nD1 + ws[sRE + 2] * nD2
            )  # fmt: skip
            gz = ws[sR + 6] * nL0 + ws[sR + 7] * nL1 + ws[sR + 8] * nL2
            r[6 + j] += -g * gz - v
        # body_rows: per body inertia (inertial), gyroscopic term, added mass; Kane's rows
        for i in range(N):
            oRi = x + oR + 9 * i
            _mm(ws, sR, X, oRi, ws, sRb)
            _rot_inertia(ws, sRb, fp, o_in + 9 * i, ws, sIg)
            for k in range(3):
                ws[st1 + k] = ws[sw + k] + X[x + oW + 3 * i + k]
            _mv(ws, sR, ws, st1, ws, swb)
            mi = fp[o_mass + i]
            oJ = sJb + i * 6 * nn
            if coupled:
                for k in range(36):
                    ws[sMi + k] = 0.0
                for rr in range(3):
                    ws[sMi + 7 * rr] = mi
                    for c in range(3):
                        ws[sMi + (3 + rr) * 6 + 3 + c] = ws[sIg + 3 * rr + c]
                for k in range(9):
                    Rm[k // 3, k % 3] = ws[sR + k]
                km.added_mass_rows(Rm, ws[srg + 3 * i : srg + 3 * i + 3], A[b, i], G, GA)
                for rr in range(6):
                    for c in range(nn):
                        a = 0.0
                        for k in range(6):
                            a += GA[rr, k] * ws[oJ + k * nn + c]
                        K[rr, c] += a
                    a = 0.0
                    for k in range(6):
                        a += GA[rr, k] * ws[scb + 6 * i + k]
                    r[rr] -= a
                for rr in range(6):
                    for c in range(6):
                        ws[sMi + 6 * rr + c] += A[b, i, rr, c]
                for rr in range(6):
                    for c in range(nn):
                        a = 0.0
                        for k in range(6):
                            a += ws[sMi + 6 * rr + k] * ws[oJ + k * nn + c]
                        ws[sMJ + rr * nn + c] = a
                    a = 0.0
                    for k in range(6):
                        a += ws[sMi + 6 * rr + k] * ws[scb + 6 * i + k]
                    ws[sv6 + rr] = a
            else:
                # M_i = diag(m_i 1, I_g) (no added mass): M_i Jb and M_i cb without the zero
                # blocks (the same sums: the products of the zero entries add +-0 exactly)
                for rr in range(3):
                    for c in range(nn):
                        ws[sMJ + rr * nn + c] = mi * ws[oJ + rr * nn + c]
                        ws[sMJ + (3 + rr) * nn + c] = (
                            ws[sIg + 3 * rr] * ws[oJ + 3 * nn + c]
                            + ws[sIg + 3 * rr + 1] * ws[oJ + 4 * nn + c]
                            + ws[sIg + 3 * rr + 2] * ws[oJ + 5 * nn + c]
                        )
                    ws[sv6 + rr] = mi * ws[scb + 6 * i + rr]
                    ws[sv6 + 3 + rr] = (
                        ws[sIg + 3 * rr] * ws[scb + 6 * i + 3]
                        + ws[sIg + 3 * rr + 1] * ws[scb + 6 * i + 4]
                        + ws[sIg + 3 * rr + 2] * ws[scb + 6 * i + 5]
                    )
            _mv(ws, sIg, ws, swb, ws, st1)
            _cross(ws, swb, ws, st1, ws, st2)
            for k in range(3):
                ws[sv6 + k] = force[b, i, k] - ws[sv6 + k]
                ws[sv6 + 3 + k] = moment[b, i, k] - ws[st2 + k] - ws[sv6 + 3 + k]
            for j in range(nf):
                for c in range(nn):
                    a = 0.0
                    for k in range(6):
                        a += ws[oJ + k * nn + 6 + j] * ws[sMJ + k * nn + c]
                    K[6 + j, c] += a
                a = 0.0
                for k in range(6):
                    a += ws[oJ + k * nn + 6 + j] * ws[sv6 + k]
                r[6 + j] += a
        # solve_rows: the generalized forces in the DOF rows, K u = r
        for j in range(nf):
            r[6 + j] += tau[b, j]
        km.solve_small(K, r, u)
        for k in range(6):
            out[b, k] = y[b, 6 + k]
            out[b, 6 + k] = u[k]
        for j in range(nf):
            out[b, 12 + j] = y[b, 12 + nf + j]
            out[b, 12 + nf + j] = u[6 + j]
