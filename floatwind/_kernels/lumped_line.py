"""One mooring line's net forces and mass matrices at its nodes (MoorDyn v2's
Line_GetStateDeriv; numba kernels of :mod:`floatwind._kernels.lumped`, whose module docstring
gives the physics, Hall & Goupee 2015): :func:`_line_eval` for any range of nodes (the coupled
ends alone, or the whole line with bending), :func:`_line_whole` for the whole of a line
without bending arranged so that its square roots and divisions are vectorized (the same
bits)."""

from __future__ import annotations

import math

from floatwind.jit import njit

__all__ = ["_line_eval", "_line_whole"]


@njit(cache=True, fastmath=False, error_model="numpy")
def _bend_force(a0, a1, a2, p0, p1, p2, size):
    """unit(qseg x pv) * size (MoorDyn's cross_product then ScaleVector) of the segment direction
    ``a`` and the bending plane's normal ``p``, as three numbers."""
    o0 = a1 * p2 - a2 * p1
    o1 = a2 * p0 - a0 * p2
    o2 = a0 * p1 - a1 * p0
    nrm = math.sqrt(o0 * o0 + o1 * o1 + o2 * o2)
    scale = size / nrm if nrm > 0.0 else 0.0
    return o0 * scale, o1 * scale, o2 * scale


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def _end_mass(mass, k, al, be, q0, q1, q2):
    """An end node's mass matrix with added mass, al I + be q q^T, kept whole in ``mass[k]``
    (its points add it up; the node mass of MoorDyn v2, Hall & Goupee 2015)."""
    mass[k, 0, 0] = al + be * q0 * q0
    mass[k, 0, 1] = be * q0 * q1
    mass[k, 0, 2] = be * q0 * q2
    mass[k, 1, 0] = be * q1 * q0
    mass[k, 1, 1] = al + be * q1 * q1
    mass[k, 1, 2] = be * q1 * q2
    mass[k, 2, 0] = be * q2 * q0
    mass[k, 2, 1] = be * q2 * q1
    mass[k, 2, 2] = al + be * q2 * q2


@njit(cache=True, fastmath=False, error_model="numpy")
def _line_eval(r, v, fnet, mass, seg, wk, lint, lflt, at, cd_scale, e):
    """Net force ``fnet`` and mass matrices of the nodes ``lo..hi`` of line ``j`` (``at`` =
    ``(j, lo, hi)``) at positions ``r`` and velocities ``v`` (Line_GetStateDeriv): ``r``,
    ``v``, ``fnet``, ``mass``, ``seg`` a member's :class:`~floatwind._kernels.lumped.Nodes`
    arrays, passed one by one (a record passed to a function numba does not inline is
    reference-counted array by array at each call: ~4 % of ref10's whole-line evaluation);
    line ``j``'s row of ``lint`` gives its ``n`` segments, its nodes from row ``o``, ``0..n``,
    its segments from row ``s0`` of ``seg``, which receives each segment's stretched length and
    the magnitude of ``T + Td`` along it; the segments and bending terms that reach those nodes
    only, with the same operations in the same order for any ``lo..hi`` (so the coupled ends
    alone, node 0 or N, are the whole-line evaluation's bits). The end nodes' mass matrices go
    to ``mass``; ``wk`` (13, >= N+1) are work rows (column ``i`` for segment or node ``i``):
    segment ``i``'s unit vector (rows 0-2), stretched length (3) and ``T + Td`` (4), interior
    node ``i``'s mass matrix ``al I + be q q^T`` as (al, be, q) (5-9; rows 10-12:
    :func:`_line_whole`). The line's constants are row ``j`` of ``lflt``, its drag coefficients
    times ``cd_scale`` (CdScaleIC during the relaxation), ``e`` the
    :class:`~floatwind._kernels.lumped.Water`. Allocates nothing and builds no records (a
    record of views built per line and call cost more than the arithmetic of a line end)."""
    j, lo, hi = at
    n, o, s0 = lint[j, 0], lint[j, 1], lint[j, 2]
    ls, d, w, ea, ba, ei = lflt[j, 0], lflt[j, 1], lflt[j, 2], lflt[j, 3], lflt[j, 4], lflt[j, 5]
    can, cat = lflt[j, 6], lflt[j, 7]
    cdn = lflt[j, 8] * cd_scale
    cdt = lflt[j, 9] * cd_scale
    rho, g, depth, kbot, cbot = e.rho, e.gravity, e.depth, e.kbot, e.cbot
    area = 0.25 * math.pi * d * d
    wet = (w - rho * area) * g  # wet weight per length (MoorDyn: pi/8 d^2 l (rho_line - rhoW) g)
    ils = 1.0 / ls
    kdn = 0.5 * rho * cdn * d  # normal drag per length and |vp| vp
    kdt = 0.5 * rho * cdt * math.pi * d  # tangential drag per length and |vq| vq
    # wk[0:3, i]: segment i (1..N)'s unit vector, wk[3, i] its stretched length, wk[4, i] T + Td
    for i in range(max(1, lo - 1), min(n, hi + 2) + 1):
        d0 = r[o + i, 0] - r[o + i - 1, 0]
        d1 = r[o + i, 1] - r[o + i - 1, 1]
        d2 = r[o + i, 2] - r[o + i - 1, 2]
        ll = math.sqrt(d0 * d0 + d1 * d1 + d2 * d2)
        il = 1.0 / ll
        wk[3, i] = ll
        wk[0, i] = d0 * il
        wk[1, i] = d1 * il
        wk[2, i] = d2 * il
        lsd = (d0 * (v[o + i, 0] - v[o + i - 1, 0]) + d1 * (v[o + i, 1] - v[o + i - 1, 1])
               + d2 * (v[o + i, 2] - v[o + i - 1, 2])) * il  # fmt: skip
        mt = ea * (ll * ils - 1.0) if ll > ls else 0.0  # a cable cannot push
        mtd = ba * lsd * ils
        tm = mt + mtd
        wk[4, i] = tm
        seg[s0 + i - 1, 0] = ll
        seg[s0 + i - 1, 1] = tm
    for i in range(max(0, lo - 2), min(n, hi + 2) + 1):
        fnet[o + i, 0] = 0.0
        fnet[o + i, 1] = 0.0
        fnet[o + i, 2] = 0.0
    # bending (internal nodes, pinned ends: Line_GetStateDeriv's EI > 0 branch)
    if ei > 0.0:
        for i in range(max(1, lo - 1), min(n - 1, hi + 1) + 1):
            dot = wk[0, i] * wk[0, i + 1] + wk[1, i] * wk[1, i + 1] + wk[2, i] * wk[2, i + 1]
            dot = min(dot, 1.0)
            kurv = 4.0 / (wk[3, i] + wk[3, i + 1]) * math.sqrt(0.5 * (1.0 - dot))  # GetCurvature
            p0 = wk[1, i] * wk[2, i + 1] - wk[2, i] * wk[1, i + 1]
            p1 = wk[2, i] * wk[0, i + 1] - wk[0, i] * wk[2, i + 1]
            p2 = wk[0, i] * wk[1, i + 1] - wk[1, i] * wk[0, i + 1]
            fa0, fa1, fa2 = _bend_force(wk[0, i], wk[1, i], wk[2, i], p0, p1, p2,
                                        kurv * ei / wk[3, i])  # fmt: skip
            fb0, fb1, fb2 = _bend_force(wk[0, i + 1], wk[1, i + 1], wk[2, i + 1], p0, p1, p2,
                                        kurv * ei / wk[3, i + 1])  # fmt: skip
            fnet[o + i - 1, 0] += fa0
            fnet[o + i + 1, 0] += fb0
            fnet[o + i, 0] -= fa0 + fb0
            fnet[o + i - 1, 1] += fa1
            fnet[o + i + 1, 1] += fb1
            fnet[o + i, 1] -= fa1 + fb1
            fnet[o + i - 1, 2] += fa2
            fnet[o + i + 1, 2] += fb2
            fnet[o + i, 2] -= fa2 + fb2
    for i in range(lo, hi + 1):
        if i == 0:
            a0, a1 = 0, 1
            li = 0.5 * ls
        elif i == n:
            a0, a1 = n - 1, n
            li = 0.5 * ls
        else:
            a0, a1 = i - 1, i + 1
            li = ls
        q0 = r[o + a1, 0] - r[o + a0, 0]
        q1 = r[o + a1, 1] - r[o + a0, 1]
        q2 = r[o + a1, 2] - r[o + a0, 2]
        iq = 1.0 / math.sqrt(q0 * q0 + q1 * q1 + q2 * q2)
        q0 *= iq
        q1 *= iq
        q2 *= iq
        # mass matrix with added mass (normal Can, tangential Cat): M = al I + be q q^T; the
        # end nodes' is kept whole (their points add it up), the interior ones as (al, be, q)
        mi = w * li
        vi = area * li
        al = mi + rho * vi * can
        be = rho * vi * (cat - can)
        if i == 0 or i == n:
            _end_mass(mass, o + i, al, be, q0, q1, q2)
        else:
            wk[5, i] = al
            wk[6, i] = be
            wk[7, i] = q0
            wk[8, i] = q1
            wk[9, i] = q2
        # segment tensions and damping
        f0, f1, f2 = fnet[o + i, 0], fnet[o + i, 1], fnet[o + i, 2]
        if i > 0:
            f0 -= wk[4, i] * wk[0, i]
            f1 -= wk[4, i] * wk[1, i]
            f2 -= wk[4, i] * wk[2, i]
        if i < n:
            f0 += wk[4, i + 1] * wk[0, i + 1]
            f1 += wk[4, i + 1] * wk[1, i + 1]
            f2 += wk[4, i + 1] * wk[2, i + 1]
        # weight and buoyancy
        f2 -= wet * li
        # drag on the relative flow (still water: -v), tangential part vq = uq q (|vq| = |uq|,
        # q a unit vector), normal part vp
        v0, v1, v2 = v[o + i, 0], v[o + i, 1], v[o + i, 2]
        uq = -(v0 * q0 + v1 * q1 + v2 * q2)
        vq0, vq1, vq2 = uq * q0, uq * q1, uq * q2
        vp0, vp1, vp2 = -v0 - vq0, -v1 - vq1, -v2 - vq2
        kp = kdn * li * math.sqrt(vp0 * vp0 + vp1 * vp1 + vp2 * vp2)
        kq = kdt * li * abs(uq)
        f0 = f0 + kp * vp0 + kq * vq0
        f1 = f1 + kp * vp1 + kq * vq1
        f2 = f2 + kp * vp2 + kq * vq2
        # seabed contact (flat seabed: normal z; kbot, cbot per unit length and diameter)
        z = r[o + i, 2]
        if z < -depth:
            f2 += ((-depth - z) * kbot - v2 * cbot) * d * li
        fnet[o + i, 0] = f0
        fnet[o + i, 1] = f1
        fnet[o + i, 2] = f2


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def _line_whole(r, v, fnet, mass, seg, wk, lint, lflt, j, cd_scale, e):
    """:func:`_line_eval` of all nodes ``0..n`` of line ``j`` without bending (EI = 0), with
    the same operations in the same order for each node and segment (the same bits), arranged
    so that the square roots and divisions (five a node, most of the line's time as scalar
    operations) run as loops over rows of ``wk`` that the compiler vectorizes: the segments'
    vectors and squared lengths, the interior nodes' chords and their squares first; then
    ``sqrt`` and ``1 /`` row by row; then tensions and the nodes' relative flow; then
    ``|vp|`` row by row; then the forces. ``wk`` (13, >= N + 1): rows 0-2 segment ``i``'s
    vector (then unit vector), 3 its squared (then stretched) length, 4 ``T + Td``, 5-9 the
    interior node's (al, be, q) as :func:`_line_eval`, 10 ``1 / lstr``, 11 the node's squared
    chord (then its reciprocal length), 12 ``|vp|^2`` (then ``|vp|``). Inlined into its
    caller (as :func:`floatwind._kernels.lumped._gather`): no call, no reference counts of the
    arrays it is handed (~5 % of a member's evaluation, ``_rhs``)."""
    n, o, s0 = lint[j, 0], lint[j, 1], lint[j, 2]
    ls, d, w, ea, ba = lflt[j, 0], lflt[j, 1], lflt[j, 2], lflt[j, 3], lflt[j, 4]
    can, cat = lflt[j, 6], lflt[j, 7]
    cdn = lflt[j, 8] * cd_scale
    cdt = lflt[j, 9] * cd_scale
    rho, g, depth, kbot, cbot = e.rho, e.gravity, e.depth, e.kbot, e.cbot
    area = 0.25 * math.pi * d * d
    wet = (w - rho * area) * g
    ils = 1.0 / ls
    kdn = 0.5 * rho * cdn * d
    kdt = 0.5 * rho * cdt * math.pi * d
    for i in range(1, n + 1):  # segment i: r_i - r_{i-1}
        d0 = r[o + i, 0] - r[o + i - 1, 0]
        d1 = r[o + i, 1] - r[o + i - 1, 1]
        d2 = r[o + i, 2] - r[o + i - 1, 2]
        wk[0, i] = d0
        wk[1, i] = d1
        wk[2, i] = d2
        wk[3, i] = d0 * d0 + d1 * d1 + d2 * d2
    for i in range(1, n):  # interior node i: the chord r_{i+1} - r_{i-1}
        q0 = r[o + i + 1, 0] - r[o + i - 1, 0]
        q1 = r[o + i + 1, 1] - r[o + i - 1, 1]
        q2 = r[o + i + 1, 2] - r[o + i - 1, 2]
        wk[7, i] = q0
        wk[8, i] = q1
        wk[9, i] = q2
        wk[11, i] = q0 * q0 + q1 * q1 + q2 * q2
    for k in range(n):  # vectorized (from 0: no negative index to wrap)
        wk[3, k + 1] = math.sqrt(wk[3, k + 1])
    for k in range(n):
        wk[10, k + 1] = 1.0 / wk[3, k + 1]
    for k in range(n - 1):
        wk[11, k + 1] = 1.0 / math.sqrt(wk[11, k + 1])
    for i in range(1, n + 1):  # unit vectors, tensions (as _line_eval)
        ll = wk[3, i]
        il = wk[10, i]
        d0 = wk[0, i]
        d1 = wk[1, i]
        d2 = wk[2, i]
        wk[0, i] = d0 * il
        wk[1, i] = d1 * il
        wk[2, i] = d2 * il
        lsd = (d0 * (v[o + i, 0] - v[o + i - 1, 0]) + d1 * (v[o + i, 1] - v[o + i - 1, 1])
               + d2 * (v[o + i, 2] - v[o + i - 1, 2])) * il  # fmt: skip
        mt = ea * (ll * ils - 1.0) if ll > ls else 0.0  # a cable cannot push
        mtd = ba * lsd * ils
        tm = mt + mtd
        wk[4, i] = tm
        seg[s0 + i - 1, 0] = ll
        seg[s0 + i - 1, 1] = tm
    for i in range(n + 1):  # tangents (the end nodes': their segment's unit vector, the same
        # bits as unit(r_1 - r_0)), |vp|^2
        if i == 0 or i == n:
            c = 1 if i == 0 else n
            q0, q1, q2 = wk[0, c], wk[1, c], wk[2, c]
        else:
            iq = wk[11, i]
            q0 = wk[7, i] * iq
            q1 = wk[8, i] * iq
            q2 = wk[9, i] * iq
            wk[7, i] = q0
            wk[8, i] = q1
            wk[9, i] = q2
        v0, v1, v2 = v[o + i, 0], v[o + i, 1], v[o + i, 2]
        uq = -(v0 * q0 + v1 * q1 + v2 * q2)
        vp0, vp1, vp2 = -v0 - uq * q0, -v1 - uq * q1, -v2 - uq * q2
        wk[12, i] = vp0 * vp0 + vp1 * vp1 + vp2 * vp2
    for k in range(n + 1):
        wk[12, k] = math.sqrt(wk[12, k])
    for i in range(n + 1):  # mass, forces (as _line_eval)
        li = 0.5 * ls if i == 0 or i == n else ls
        if i == 0 or i == n:
            c = 1 if i == 0 else n
            q0, q1, q2 = wk[0, c], wk[1, c], wk[2, c]
        else:
            q0, q1, q2 = wk[7, i], wk[8, i], wk[9, i]
        mi = w * li
        vi = area * li
        al = mi + rho * vi * can
        be = rho * vi * (cat - can)
        if i == 0 or i == n:
            _end_mass(mass, o + i, al, be, q0, q1, q2)
        else:
            wk[5, i] = al
            wk[6, i] = be
        f0 = 0.0
        f1 = 0.0
        f2 = 0.0
        if i > 0:
            f0 -= wk[4, i] * wk[0, i]
            f1 -= wk[4, i] * wk[1, i]
            f2 -= wk[4, i] * wk[2, i]
        if i < n:
            f0 += wk[4, i + 1] * wk[0, i + 1]
            f1 += wk[4, i + 1] * wk[1, i + 1]
            f2 += wk[4, i + 1] * wk[2, i + 1]
        f2 -= wet * li
        v0, v1, v2 = v[o + i, 0], v[o + i, 1], v[o + i, 2]
        uq = -(v0 * q0 + v1 * q1 + v2 * q2)
        vq0, vq1, vq2 = uq * q0, uq * q1, uq * q2
        vp0, vp1, vp2 = -v0 - vq0, -v1 - vq1, -v2 - vq2
        kp = kdn * li * wk[12, i]
        kq = kdt * li * abs(uq)
        f0 = f0 + kp * vp0 + kq * vq0
        f1 = f1 + kp * vp1 + kq * vq1
        f2 = f2 + kp * vp2 + kq * vq2
        z = r[o + i, 2]
        if z < -depth:
            f2 += ((-depth - z) * kbot - v2 * cbot) * d * li
        fnet[o + i, 0] = f0
        fnet[o + i, 1] = f1
        fnet[o + i, 2] = f2
