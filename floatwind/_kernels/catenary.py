"""Compiled kernel of :class:`floatwind.loads.catenary.CatenaryMooring` (quasi-static catenary
lines, :mod:`floatwind.mooring.catenary`), with free connect nodes.

Per batch member: the fairlead positions from the body pose; when the mooring has connect
nodes (multi-segment lines, clump weights, buoys, bridles: MAP++ ``connect`` nodes, MoorDyn free
points), their positions are solved for static equilibrium (Newton's method on the nodes' force
balance with the lines' analytic 3x3 end stiffnesses, MAP++'s outer loop); then every line is
solved by :func:`floatwind.mooring.catenary.solve_line` in the vertical plane of its two ends and
the pull of the lines that end on the body is added to the body's force and moment (MAP++
``map.f90``: the load on the vessel is minus the line's fairlead force, at the displaced
fairlead). Each solve starts from the same initial guess at every call (no state): the same
operations whatever B.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from floatwind._kernels.loads import _add_point_force, _point
from floatwind._kernels.status import CATENARY_NOT_CONVERGED
from floatwind.jit import njit
from floatwind.mooring.catenary import SOLVED, _residual, solve_line, solve_line_from

__all__ = ["LineWork", "catenary_kernel", "line_ends", "solve_nodes"]

#: output columns of ``ch`` (B, L, 5)
CHANNELS = ("FAIRTEN", "ANCHTEN", "FAIRH", "FAIRV", "LAYLEN")

_NODE_MAX_ITER = 100
_NODE_FTOL = 1e-10  # node force residual, relative to the mooring's force scale
_NODE_XTOL = 1e-10  # Newton step (m), relative to the longest line


class LineWork(NamedTuple):
    """Work arrays of :func:`line_ends`: the forces on the line's ends, its end stiffness and the
    solution of :func:`floatwind.mooring.catenary.solve_line`."""

    fa: np.ndarray  # (3,) force of the line on end A
    fb: np.ndarray  # (3,) force on end B
    K: np.ndarray  # (3, 3) end stiffness dF_B/dp_B
    sol: np.ndarray  # (6,) H, V, Ha, Va, laid length, Newton iterations (solve_line)


@njit(cache=True, fastmath=False)
def _line_work():
    return LineWork(np.empty(3), np.empty(3), np.empty((3, 3)), np.empty(6))


@njit(cache=True, fastmath=False)
def line_ends(pa, pb, L, w, inv_ea, cb, contact, want_k, guess, ch, work):
    """Forces of one line (unstretched length ``L``, wet weight ``w``, ``1/EA``, seabed friction
    ``cb``; scalars, not the mooring's record: a record passed to this per-line function would cost
    the reference counting of all its arrays at every call) on its ends A (``pa``, the anchor end)
    and B (``pb``, the fairlead end), whichever of the two is higher.

    ``work.fa``, ``work.fb`` (3,) receive the forces the line exerts on its ends (inertial
    axes), ``ch`` (5,) FAIRTEN, ANCHTEN, FAIRH, FAIRV, LAYLEN of end B / end A, and, when
    ``want_k``, ``work.K``
    (3, 3) the end stiffness dF_B/dp_B (= dF_A/dp_A = -dF_B/dp_A = -dF_A/dp_B when the line is
    not on the seabed) from the inverse of the catenary Jacobian d(l, h)/d(H, V) (Jonkman 2007
    eqs. 2-58..2-61) and the rotation of the line's vertical plane. Seabed contact only where
    ``contact`` (end A is an anchor on the seabed) and end A is the lower end. ``guess`` (3,)
    holds the upper end's (H, V) and the orientation (+1: B upper, -1: A upper) of an earlier
    solve of this line, used as Newton's start when the orientation is the same (H = 0: none;
    the Peyrot-Goulois start when it does not converge from there), and receives this solve's. Returns the status of :func:`solve_line`."""
    fa, fb, K, sol = work.fa, work.fb, work.K, work.sol
    dx = pb[0] - pa[0]
    dy = pb[1] - pa[1]
    dz = pb[2] - pa[2]
    lh = math.sqrt(dx * dx + dy * dy)
    if lh > 0.0:
        ux, uy = dx / lh, dy / lh  # horizontal unit vector, A -> B
    else:
        ux, uy = 0.0, 0.0
    if dz >= 0.0:  # B is the upper end
        s = 1.0
        hh = dz
        use_contact = contact
    else:  # A is the upper end: no seabed contact
        s = -1.0
        hh = -dz
        use_contact = False
    st = 1
    if guess[2] == s:
        st = solve_line_from(lh, hh, L, w, inv_ea, cb, use_contact, guess[0], guess[1], sol)
    if st != SOLVED:  # no earlier solve, or it led Newton astray
        st = solve_line(lh, hh, L, w, inv_ea, cb, use_contact, sol)
    if st != SOLVED:
        return st
    H, V, Ha, Va = sol[0], sol[1], sol[2], sol[3]
    guess[0], guess[1], guess[2] = H, V, s
    if s > 0.0:  # the line pulls B towards A and down, A towards B and up
        fb[0], fb[1], fb[2] = -H * ux, -H * uy, -V
        fa[0], fa[1], fa[2] = Ha * ux, Ha * uy, Va
        ch[0] = math.sqrt(H * H + V * V)
        ch[1] = math.sqrt(Ha * Ha + Va * Va)
        ch[2] = H
        ch[3] = V
        ch[4] = sol[4]
    else:  # B is the lower end: pulled towards A by Ha, upwards by Va
        fb[0], fb[1], fb[2] = -Ha * ux, -Ha * uy, Va
        fa[0], fa[1], fa[2] = H * ux, H * uy, -V
        ch[0] = math.sqrt(Ha * Ha + Va * Va)
        ch[1] = math.sqrt(H * H + V * V)
        ch[2] = Ha
        ch[3] = -Va
        ch[4] = 0.0
    if not want_k:
        return SOLVED
    # d(H, V)/d(l, h) = [d(l, h)/d(H, V)]^-1 at the solution
    if H > 0.0:
        r = np.empty(6)
        _residual(H, V, lh, hh, L, w, inv_ea, cb, use_contact, r)
        det = r[2] * r[5] - r[3] * r[4]
        Hl, Hh = r[5] / det, -r[3] / det
        Vl, Vh = -r[4] / det, r[2] / det
        g = H / lh
    else:  # closed forms (vertical or slack line): V from h by a difference, pendulum sideways
        d = 1e-6 * max(hh, 1.0)
        sol2 = np.empty(6)
        solve_line(lh, hh + d, L, w, inv_ea, cb, use_contact, sol2)
        Hl, Hh, Vl = 0.0, 0.0, 0.0
        Vh = (sol2[1] - V) / d
        g = V / max(hh, 1e-3 * L)
        Hl = g
    # F_B = (-H u, -V) for s = +1 and (-H u, V - w L) for s = -1, u = (dx, dy)/lh, h = s dz
    K[0, 0] = -(Hl * ux * ux + g * (1.0 - ux * ux))
    K[0, 1] = -(Hl * ux * uy - g * ux * uy)
    K[1, 0] = K[0, 1]
    K[1, 1] = -(Hl * uy * uy + g * (1.0 - uy * uy))
    K[0, 2] = -s * Hh * ux
    K[1, 2] = -s * Hh * uy
    K[2, 0] = -s * Vl * ux
    K[2, 1] = -s * Vl * uy
    K[2, 2] = -Vh
    return SOLVED


@njit(cache=True, fastmath=False)
def _end_pos(k, node, fixed, x, out):
    if node[k] >= 0:
        j = node[k]
        out[0], out[1], out[2] = x[j, 0], x[j, 1], x[j, 2]
    else:
        out[0], out[1], out[2] = fixed[k, 0], fixed[k, 1], fixed[k, 2]


@njit(cache=True, fastmath=False)
def _node_residual(p, pb_fixed, x, R, J, want_j, guess):
    """Force balance ``R`` (3K,) of the connect nodes at ``x`` (sum of the line end forces and
    ``p.node_force``) and, when ``want_j``, its Jacobian ``J`` (3K, 3K) assembled from the lines'
    end stiffnesses; ``guess`` (L, 3): the lines' last solutions (:func:`line_ends`);
    ``pb_fixed`` (L, 3) the displaced fairleads. Returns the status of the line solves."""
    a_node, b_node, node_f = p.a_node, p.b_node, p.node_force
    nk = x.shape[0]
    pa = np.empty(3)
    pb = np.empty(3)
    ch = np.empty(5)
    work = _line_work()
    fa, fb, K = work.fa, work.fb, work.K
    for k in range(nk):
        for c in range(3):
            R[3 * k + c] = node_f[k, c]
    if want_j:
        J[:, :] = 0.0
    for i in range(p.length.shape[0]):
        ia, ib = a_node[i], b_node[i]
        if ia < 0 and ib < 0:
            continue
        _end_pos(i, a_node, p.anchor_g, x, pa)
        _end_pos(i, b_node, pb_fixed, x, pb)
        st = line_ends(pa, pb, p.length[i], p.weight[i], p.inv_ea[i], p.friction[i],
                       p.contact[i] and ia < 0, want_j, guess[i], ch, work)  # fmt: skip
        if st != SOLVED:
            return st
        for r in range(3):
            if ia >= 0:
                R[3 * ia + r] += fa[r]
            if ib >= 0:
                R[3 * ib + r] += fb[r]
            if not want_j:
                continue
            for c in range(3):
                kv = K[r, c]
                if ia >= 0:
                    J[3 * ia + r, 3 * ia + c] += kv
                if ib >= 0:
                    J[3 * ib + r, 3 * ib + c] += kv
                if ia >= 0 and ib >= 0:
                    J[3 * ia + r, 3 * ib + c] -= kv
                    J[3 * ib + r, 3 * ia + c] -= kv
    return SOLVED


@njit(cache=True, fastmath=False)
def _lu(A, piv):
    """LU factorisation of A (n, n) in place with partial pivoting (``piv`` (n,) row swaps).
    Returns False when a pivot is zero."""
    n = A.shape[0]
    for k in range(n):
        p = k
        for i in range(k + 1, n):
            if abs(A[i, k]) > abs(A[p, k]):
                p = i
        piv[k] = p
        if A[p, k] == 0.0:
            return False
        if p != k:
            for j in range(n):
                A[k, j], A[p, j] = A[p, j], A[k, j]
        for i in range(k + 1, n):
            A[i, k] /= A[k, k]
            f = A[i, k]
            for j in range(k + 1, n):
                A[i, j] -= f * A[k, j]
    return True


@njit(cache=True, fastmath=False)
def _lu_solve(A, piv, b, out):
    """``out`` = A^-1 ``b`` from :func:`_lu`'s factors."""
    n = A.shape[0]
    for i in range(n):
        out[i] = b[i]
    for k in range(n):
        p = piv[k]
        if p != k:
            out[k], out[p] = out[p], out[k]
    for i in range(n):
        for j in range(i):
            out[i] -= A[i, j] * out[j]
    for i in range(n - 1, -1, -1):
        for j in range(i + 1, n):
            out[i] -= A[i, j] * out[j]
        out[i] /= A[i, i]


@njit(cache=True, fastmath=False)
def solve_nodes(p, pb_fixed, x):
    """Static equilibrium of the connect nodes ``x`` (K, 3) of the mooring ``p``
    (``CatenaryMooring.Params``), in place, from the positions it holds: sum of the line end
    forces + ``p.node_force`` (weight, buoyancy, applied force) = 0 at every
    node. Newton's method with the assembled end stiffnesses of :func:`line_ends` (a weak spring
    of 1e-6 force_scale/length_scale on the diagonal: a slack line has ~no stiffness), the step
    of a node limited to a quarter of its shortest line, and halved until Deuflhard's natural
    monotonicity test holds (the Newton correction at the trial point, with the same Jacobian,
    is shorter than the step's: near a taut line the force residual is a poor merit function,
    EA/L dwarfs the rest) or the force residual decreases (what moves a node hanging on slack
    lines, whose Jacobian is nearly singular). Converged (after one more Newton step)
    when the force residual is below ``1e-10 force_scale`` or the Newton step below
    ``1e-10 length_scale`` (EA/L turns round-off of the position into forces above the first).
    ``p.anchor_g`` and ``pb_fixed`` (L, 3) hold the positions of the ends that are not nodes
    (anchors, displaced fairleads). Returns 0 or ``CATENARY_NOT_CONVERGED``."""
    length, a_node, b_node = p.length, p.a_node, p.b_node
    force_scale, length_scale = p.force_scale, p.length_scale
    nk = x.shape[0]
    n3 = 3 * nk
    R = np.empty(n3)
    Rt = np.empty(n3)
    J = np.empty((n3, n3))
    piv = np.empty(n3, dtype=np.int64)
    dxs = np.empty(n3)
    dxt = np.empty(n3)
    xt = np.empty((nk, 3))
    guess = np.zeros((length.shape[0], 3))  # each line's last (H, V), this solve only
    cap = np.full(nk, np.inf)
    for i in range(length.shape[0]):
        for j in (a_node[i], b_node[i]):
            if j >= 0 and 0.25 * length[i] < cap[j]:
                cap[j] = 0.25 * length[i]
    reg = 1e-6 * force_scale / length_scale
    for _ in range(_NODE_MAX_ITER):
        st = _node_residual(p, pb_fixed, x, R, J, True, guess)
        if st != SOLVED:
            return CATENARY_NOT_CONVERGED
        rmax = 0.0
        r0 = 0.0
        for q in range(n3):
            rmax = max(rmax, abs(R[q]))
            r0 += R[q] * R[q]
            J[q, q] -= reg
        if not _lu(J, piv):
            return CATENARY_NOT_CONVERGED
        _lu_solve(J, piv, R, dxs)
        newton = 0.0  # largest node correction
        scale = 1.0  # so that no node moves more than its cap
        nrm0 = 0.0
        for k in range(nk):
            n = 0.0
            for c in range(3):
                dxs[3 * k + c] = -dxs[3 * k + c]
                n += dxs[3 * k + c] ** 2
            nrm0 += n
            n = math.sqrt(n)
            newton = max(newton, n)
            if n > cap[k]:
                scale = min(scale, cap[k] / n)
        if not math.isfinite(newton):
            return CATENARY_NOT_CONVERGED
        if rmax <= _NODE_FTOL * force_scale or newton <= _NODE_XTOL * length_scale:
            # converged: one last (small) Newton step takes the error to its square
            for k in range(nk):
                for c in range(3):
                    x[k, c] += dxs[3 * k + c]
            return 0
        alpha = scale
        for _half in range(40):
            for k in range(nk):
                for c in range(3):
                    xt[k, c] = x[k, c] + alpha * dxs[3 * k + c]
            st = _node_residual(p, pb_fixed, xt, Rt, J, False, guess)
            if st == SOLVED:
                _lu_solve(J, piv, Rt, dxt)
                nrm = 0.0
                rr = 0.0
                for q in range(n3):
                    nrm += dxt[q] * dxt[q]
                    rr += Rt[q] * Rt[q]
                if math.sqrt(nrm) <= (1.0 - 0.25 * alpha) * math.sqrt(nrm0) or rr < r0:
                    break
            alpha *= 0.5
        x[:, :] = xt
    return CATENARY_NOT_CONVERGED


@njit(cache=True, fastmath=False)
def catenary_kernel(p, t, kin, y, dy, force, moment, added):
    """:class:`floatwind.loads.catenary.CatenaryMooring` (the load contract's signature): adds the
    lines' loads to ``force``/``moment`` (B, N, 3), writes ``p.scratch`` (B, L, 5): tension at
    end B (fairlead) and end A (anchor), horizontal and vertical tension at end B, laid length,
    and ``p.node_scratch`` (B, K, 3) the connect nodes' equilibrium positions. Lines end at a
    body fairlead (``b_node < 0``) or a node (B end), at a fixed anchor (``a_node < 0``) or a
    node (A end). Returns ``CATENARY_NOT_CONVERGED`` if a line or node solve did not converge (the
    load's ``wrench`` raises the error), else 0."""
    r_G, R_b2g, v_G, w_b, cm_b = kin.r_G, kin.R_b2g, kin.v_G, kin.w_b, kin.cm_b
    body, fair_b, node0, node_phi = p.body, p.fairlead_b, p.node0, p.node_phi
    a_node, b_node = p.a_node, p.b_node
    ch, node_x = p.scratch, p.node_scratch
    B = r_G.shape[0]
    nl = fair_b.shape[0]
    nk = node0.shape[0]
    pb_fixed = np.zeros((nl, 3))
    pos = np.empty(3)
    vel = np.empty(3)
    pa = np.empty(3)
    pb = np.empty(3)
    work = _line_work()
    x = np.empty((nk, 3))
    guess = np.zeros(3)
    for b in range(B):
        for i in range(nl):
            if b_node[i] < 0:
                _point(
                    r_G[b, body], R_b2g[b, body], v_G[b, body], w_b[b, body], cm_b[body],
                    fair_b[i], pos, vel,
                )  # fmt: skip
                pb_fixed[i, 0], pb_fixed[i, 1], pb_fixed[i, 2] = pos[0], pos[1], pos[2]
        if nk > 0:
            for k in range(nk):  # start: the rest position carried by the body's motion in part
                _point(
                    r_G[b, body], R_b2g[b, body], v_G[b, body], w_b[b, body], cm_b[body],
                    node0[k], pos, vel,
                )  # fmt: skip
                for c in range(3):
                    x[k, c] = node0[k, c] + node_phi[k] * (pos[c] - node0[k, c])
            st = solve_nodes(p, pb_fixed, x)
            if st:
                return CATENARY_NOT_CONVERGED
            node_x[b, :, :] = x
        for i in range(nl):
            _end_pos(i, a_node, p.anchor_g, x, pa)
            _end_pos(i, b_node, pb_fixed, x, pb)
            guess[2] = 0.0  # from the Peyrot-Goulois guess
            st = line_ends(pa, pb, p.length[i], p.weight[i], p.inv_ea[i], p.friction[i],
                           p.contact[i] and a_node[i] < 0, False, guess, ch[b, i], work)  # fmt: skip
            if st != SOLVED:
                return CATENARY_NOT_CONVERGED
            if b_node[i] < 0:
                _add_point_force(r_G[b, body], pb, work.fb, force[b, body], moment[b, body])
    return 0
