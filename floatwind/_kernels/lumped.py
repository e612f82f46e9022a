"""Lumped-mass mooring lines as MoorDyn v2 computes them (numba kernels).

The physics follow MoorDyn-F, the Fortran MoorDyn v2 inside OpenFAST v5 (``modules/moordyn/src``),
and Hall & Goupee (2015), "Validation of a lumped-mass mooring line model with DeepCwind
semisubmersible model test data", Ocean Engineering 104, 590-603. Our own implementation; the
routines named in the comments are where each formula is read.

A line of unstretched length ``L`` has ``N`` segments of length ``l = L/N`` (SetupLine) between
nodes ``0..N``; node 0 is end A, node N end B. With ``r_i``, ``v_i`` the node positions and
velocities (Line_GetStateDeriv):

* segment ``i`` (nodes ``i-1``, ``i``): stretched length ``lstr``, unit vector ``qs``, rate
  ``lstrd = (r_i - r_{i-1}).(v_i - v_{i-1}) / lstr``; tension ``T = EA (lstr/l - 1) qs`` when
  stretched, else 0 (a cable cannot push); internal damping ``Td = BA lstrd / l qs``; a negative
  BA input is a damping ratio ``zeta``: ``BA = zeta l sqrt(EA w)`` (SetupLine);
* node ``i``: tangent ``q`` = unit(r_{i+1} - r_{i-1}) (ends: their segment); mass matrix
  ``M = m_i I + rho V_i (Can (I - q q^T) + Cat q q^T)`` (inverted in closed form) with ``m_i``, ``V_i`` half of each
  adjacent segment's mass and volume (``w l``, ``pi/4 d^2 l``); wet weight
  ``W_z = -(w - rho pi d^2/4) g l_i`` (``l_i`` = half the adjacent unstretched lengths);
  drag on the relative flow ``u - v`` split into normal ``vp`` and tangential ``vq`` parts:
  ``Dp = rho/2 Cdn d l_i |vp| vp``, ``Dq = rho/2 Cdt pi d l_i |vq| vq``;
  seabed below ``z = -depth``: ``B_z = ((-depth - z) kbot - v_z cbot) d l_i``;
  bending (EI > 0, pinned ends): the curvature of MoorDyn's GetCurvature,
  ``kappa = 4/(lstr_i + lstr_{i+1}) sqrt((1 - qs_i.qs_{i+1})/2)``, gives forces of size
  ``kappa EI / lstr`` on the two neighbours, normal to their segments in the bending plane,
  and their opposite on the node;
* net force ``Fnet_i = T_{i+1} - T_i + Td_{i+1} - Td_i + W + Dp + Dq + B + Bs``; interior nodes
  accelerate as ``M^-1 Fnet`` (the 3x3 inverse, Inverse3by3).

Points (MoorDyn_Point.f90, Point_GetNetForceAndMass / Point_DoRHS): fixed (anchor), coupled
(a point of the body, MoorDyn's ``Vessel``/``Coupled``) or free; a point's net force is the
sum of its line ends' ``Fnet`` plus its own weight ``-(m - rho V) g`` and drag
``-rho/2 CdA |v| v``, its mass matrix ``(m + rho V Ca) I`` plus the end nodes' ``M``. A free
point accelerates as ``M^-1 F``; a coupled point passes ``F`` to the body and the body carries
``M`` as an added mass (MoorDyn-F's Point_GetCoupledForce subtracts ``M a`` of the point; here
the acceleration-dependent part goes to the inertia side, contract rule 3).

States per batch member: for each line its interior nodes 1..N-1 (position, then velocity, 6
numbers per node), then each free point (position, velocity). The kernels loop over the batch
with the same operations for every member (a member alone and in a batch give the same bits).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from floatwind._kernels.loads import _point
from floatwind._kernels.lumped_line import _line_eval, _line_whole
from floatwind._kernels.status import NOT_FINITE
from floatwind.jit import njit

#: point kinds
FIXED = 0
COUPLED = 1
FREE = 2


class Nodes(NamedTuple):
    """The node and point arrays of one batch member the kernels fill (``p.scratch_*[b]`` for
    a member of the run, :func:`member_nodes`): all nodes line after line (first node
    ``p.lint[:, 1]``), all segments line after line (first segment ``p.lint[:, 2]``), then the
    points."""

    r: np.ndarray  # (nodes, 3) positions
    v: np.ndarray  # (nodes, 3) velocities
    fnet: np.ndarray  # (nodes, 3) net forces
    mass: np.ndarray  # (nodes, 3, 3) mass matrices (the end nodes'; interior: p.work_line)
    seg: np.ndarray  # (segments, 2) stretched length, |T + Td|
    pf: np.ndarray  # (P, 3) point net forces
    pm: np.ndarray  # (P, 3, 3) point mass matrices


class RowsOut(NamedTuple):
    """What :func:`line_rows` writes for each row ``b`` of many line states (B rows)."""

    r: np.ndarray  # (B, nodes, 3) node positions
    fnet: np.ndarray  # (B, nodes, 3) node net forces
    seg: np.ndarray  # (B, segments, 2) stretched length, |T + Td|
    pf: np.ndarray  # (B, P, 3) point net forces
    rp: np.ndarray  # (B, P, 3) point positions


class Water(NamedTuple):
    """The sea and seabed numbers the line kernels read (a record of floats: passed by value)."""

    rho: float  # water density (kg/m^3)
    gravity: float  # (m/s^2)
    depth: float  # water depth (m), the flat seabed at z = -depth
    kbot: float  # seabed stiffness (Pa/m)
    cbot: float  # seabed damping (Pa s/m)


class Tables(NamedTuple):
    """The lines' and points' tables and work arrays of a params record, taken out once per
    kernel call for the inner loops (numba reference-counts every array of a record passed to
    a function it does not inline on each call: a few arrays here, not the whole record)."""

    lint: np.ndarray  # (L, 6) segments, first node, first segment, first state column, ends
    lflt: np.ndarray  # (L, 10) segment length, diameter, mass/length, EA, BA, EI, Ca/Cd n, t
    pint: np.ndarray  # (P, 2) point kind, first state column
    pflt: np.ndarray  # (P, 4) point mass, volume, CdA, Ca
    wk: np.ndarray  # (13, Nmax + 1) a line's work rows (_line_eval, _line_whole)
    S: np.ndarray  # (3, 3) a free point's inverse mass matrix


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def water_of(p):
    """The :class:`Water` of a params record."""
    return Water(p.rho, p.gravity, p.depth, p.kbot, p.cbot)


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def tables_of(p):
    """The :class:`Tables` of a params record."""
    return Tables(p.lint, p.lflt, p.pint, p.pflt, p.work_line, p.work_S)


class Relaxation(NamedTuple):
    """The settings of MoorDyn's dynamic relaxation (MD_Init; :func:`relax`)."""

    dt: float  # RK2 step (s)
    n_check: int  # steps between two checks of the end-B tensions (dtIC/10)
    n_max: int  # checks at most (TmaxIC)
    thresh: float  # threshIC (relative)
    cd_scale: float  # CdScaleIC: the drag coefficients' factor


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def member_nodes(p, b):
    """The :class:`Nodes` of member ``b`` of the load's record (its ``scratch_*`` rows)."""
    return Nodes(p.scratch_r[b], p.scratch_v[b], p.scratch_f[b], p.scratch_m[b],
                 p.scratch_seg[b], p.scratch_pf[b], p.scratch_pm[b])  # fmt: skip


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def point_own(pflt, k, vp, pf, pm, cd_scale, rho, g):
    """Point ``k``'s own loads: net force ``pf[k]`` = weight less buoyancy and its drag
    (``cd_scale`` x the drag area; 1.0 multiplies exactly), mass ``pm[k]`` = its mass plus the
    added mass of its volume (MoorDyn v2, Point); ``pflt`` the points' (mass, volume, CdA, Ca)."""
    m = pflt[k, 0]
    vol = pflt[k, 1]
    for c in range(3):
        pf[k, c] = 0.0
        for e in range(3):
            pm[k, c, e] = 0.0
        pm[k, c, c] = m + rho * vol * pflt[k, 3]
    pf[k, 2] -= (m - rho * vol) * g
    sp = math.sqrt(vp[k, 0] ** 2 + vp[k, 1] ** 2 + vp[k, 2] ** 2)
    for c in range(3):
        pf[k, c] -= 0.5 * rho * pflt[k, 2] * cd_scale * sp * vp[k, c]


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def _gather(r, v, y, b, so, rp, vp, lint, j, lo, hi):
    """Nodes ``lo .. hi`` of line ``j`` (its row of ``lint``) in the node arrays ``r``, ``v``
    (a member's :class:`Nodes` ``r``, ``v``: plain arrays, not the record, which numba would
    reference-count array by array at each call): its end nodes at their points of ``rp``,
    ``vp``, its interior nodes from the states ``y[b]`` (the line's columns from ``so``)."""
    n = lint[j, 0]
    o = lint[j, 1]
    ka = lint[j, 4]
    kb = lint[j, 5]
    if lo == 0:
        for c in range(3):
            r[o, c] = rp[ka, c]
            v[o, c] = vp[ka, c]
    if hi == n:
        for c in range(3):
            r[o + n, c] = rp[kb, c]
            v[o + n, c] = vp[kb, c]
    for i in range(max(1, lo), min(n - 1, hi) + 1):
        col = so + 6 * (i - 1)
        r[o + i, 0] = y[b, col]
        r[o + i, 1] = y[b, col + 1]
        r[o + i, 2] = y[b, col + 2]
        v[o + i, 0] = y[b, col + 3]
        v[o + i, 1] = y[b, col + 4]
        v[o + i, 2] = y[b, col + 5]


@njit(cache=True, fastmath=False, error_model="numpy")
def _inv3(M, S):
    """S = M^-1 for a 3x3 matrix (cofactors; MoorDyn's Inverse3by3)."""
    a, b, c = M[0, 0], M[0, 1], M[0, 2]
    d, e, f = M[1, 0], M[1, 1], M[1, 2]
    g, h, k = M[2, 0], M[2, 1], M[2, 2]
    A = e * k - f * h
    Bc = -(d * k - f * g)
    C = d * h - e * g
    det = a * A + b * Bc + c * C
    inv = 1.0 / det
    S[0, 0] = A * inv
    S[1, 0] = Bc * inv
    S[2, 0] = C * inv
    S[0, 1] = -(b * k - c * h) * inv
    S[1, 1] = (a * k - c * g) * inv
    S[2, 1] = -(a * h - b * g) * inv
    S[0, 2] = (b * f - c * e) * inv
    S[1, 2] = -(a * f - c * d) * inv
    S[2, 2] = (a * e - b * d) * inv


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def point_state(p, b, y, s0, kin_r, kin_R, kin_v, kin_w, cm, rp, vp):
    """Positions ``rp`` and velocities ``vp`` (P, 3) of all points of member ``b``: fixed ones
    where they are, coupled ones carried by the body, free ones from the states."""
    pos = p.work_v[0]
    vel = p.work_v[1]
    for k in range(p.pint.shape[0]):
        kind = p.pint[k, 0]
        if kind == FIXED:
            for c in range(3):
                rp[k, c] = p.pt_pos[k, c]
                vp[k, c] = 0.0
        elif kind == COUPLED:
            _point(kin_r, kin_R, kin_v, kin_w, cm, p.pt_pos[k], pos, vel)
            for c in range(3):
                rp[k, c] = pos[c]
                vp[k, c] = vel[c]
        else:
            o = s0 + p.pint[k, 1]
            for c in range(3):
                rp[k, c] = y[b, o + c]
                vp[k, c] = y[b, o + 3 + c]


@njit(cache=True, fastmath=False, error_model="numpy")
def member_rhs(p, b, y, s0, rp, vp, dy, cd_scale, nd):
    """All lines and points of member ``b`` into the :class:`Nodes` ``nd``: node
    positions/velocities, forces, masses (all nodes, line after line), segment data, point net
    forces ``nd.pf`` (P, 3) and masses ``nd.pm`` (P, 3, 3); writes the state rates into
    ``dy[b]`` (columns from ``s0``) when ``dy`` has columns (:func:`_rhs`)."""
    _rhs(y, b, s0, rp, vp, dy, cd_scale, tables_of(p), nd, water_of(p))


@njit(cache=True, fastmath=False, error_model="numpy")
def _rhs(y, b, s0, rp, vp, dy, cd_scale, tab, nd, e):
    """:func:`member_rhs` on plain arrays (the sub-steps and the relaxation call it in their
    loops with the arrays taken out of the record once: a record passed to a function that is
    not inlined is reference-counted array by array on every call). ``tab`` the
    :class:`Tables`, ``nd`` the member's :class:`Nodes`, ``e`` the :class:`Water`."""
    lint, lflt, pint, pflt, wk, S = tab.lint, tab.lflt, tab.pint, tab.pflt, tab.wk, tab.S
    r, v, fnet, mass, seg, pf, pm = nd.r, nd.v, nd.fnet, nd.mass, nd.seg, nd.pf, nd.pm
    rho, g = e.rho, e.gravity
    write = dy.shape[1] > 0
    for k in range(pf.shape[0]):
        point_own(pflt, k, vp, pf, pm, cd_scale, rho, g)
    for j in range(lint.shape[0]):
        n = lint[j, 0]
        o = lint[j, 1]
        so = s0 + lint[j, 3]
        ka = lint[j, 4]
        kb = lint[j, 5]
        _gather(r, v, y, b, so, rp, vp, lint, j, 0, n)
        if lflt[j, 5] > 0.0:  # bending
            _line_eval(r, v, fnet, mass, seg, wk, lint, lflt, (j, 0, n), cd_scale, e)
        else:
            _line_whole(r, v, fnet, mass, seg, wk, lint, lflt, j, cd_scale, e)
        for c in range(3):
            pf[ka, c] += fnet[o, c]
            pf[kb, c] += fnet[o + n, c]
            for q in range(3):
                pm[ka, c, q] += mass[o, c, q]
                pm[kb, c, q] += mass[o + n, c, q]
        if write and n > 1:
            # (al I + be q q^T)^-1 F = (F - be/(al + be) (q.F) q) / al (Sherman-Morrison); al
            # and be are the same for every interior node of a line (a whole segment each)
            ial = 1.0 / wk[5, 1]
            ksm = wk[6, 1] / (wk[5, 1] + wk[6, 1])
            for i in range(1, n):
                col = so + 6 * (i - 1)
                f0 = fnet[o + i, 0]
                f1 = fnet[o + i, 1]
                f2 = fnet[o + i, 2]
                n0 = wk[7, i]
                n1 = wk[8, i]
                n2 = wk[9, i]
                k = ksm * (n0 * f0 + n1 * f1 + n2 * f2)
                dy[b, col] = v[o + i, 0]
                dy[b, col + 1] = v[o + i, 1]
                dy[b, col + 2] = v[o + i, 2]
                dy[b, col + 3] = (f0 - k * n0) * ial
                dy[b, col + 4] = (f1 - k * n1) * ial
                dy[b, col + 5] = (f2 - k * n2) * ial
    if write:
        for k in range(pf.shape[0]):
            if pint[k, 0] == FREE:
                col = s0 + pint[k, 1]
                _inv3(pm[k], S)
                for c in range(3):
                    dy[b, col + c] = vp[k, c]
                    dy[b, col + 3 + c] = (
                        S[c, 0] * pf[k, 0] + S[c, 1] * pf[k, 1] + S[c, 2] * pf[k, 2]
                    )


@njit(cache=True, fastmath=False, error_model="numpy")
def lumped_kernel(p, t, kin, y, dy, force, moment, added_mass):
    """The load's contract kernel: the line states' rates, and on the coupled body the net
    force of its coupled points at their displaced positions, moments about the body CM, and
    the points' mass matrices as added mass (``F - M a``, MoorDyn-F Point_GetCoupledForce).
    The last evaluation's node data stay in ``p.scratch_*`` for the output channels."""
    B = y.shape[0]
    body = p.body
    s0 = p.state0
    status = 0
    for b in range(B):
        rp = p.scratch_rp[b]
        vp = p.scratch_vp[b]
        point_state(p, b, y, s0, kin.r_G[b, body], kin.R_b2g[b, body], kin.v_G[b, body],
                    kin.w_b[b, body], kin.cm_b[body], rp, vp)  # fmt: skip
        member_rhs(p, b, y, s0, rp, vp, dy, 1.0, member_nodes(p, b))
        _coupled_wrench(p, b, b, kin, force, moment, added_mass)
        if dy.shape[1] > 0:
            for c in range(p.n_states):
                if not math.isfinite(dy[b, s0 + c]):
                    status = NOT_FINITE
    return status


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def _coupled_wrench(p, s, b, kin, force, moment, added_mass):
    """The coupled points' net forces of member ``b`` (``p.scratch_pf``, masses
    ``p.scratch_pm``, positions ``p.scratch_rp``, all at row ``s``: ``b``, or 0 for
    :func:`line_rows`) on the body: force, moment about its CM and
    the points' mass matrices as added mass (``F - M a``, MoorDyn-F Point_GetCoupledForce).
    The points' added mass is written out in numbers (below; benchmarks/bench_lumped_kernel.py:
    ref10's stage kernel ~2.2 -> ~1.4 us), and the points' rows and the body's kinematics are
    read by their indices, not through views of them (a view made per point is counted by
    numba's reference counting: the stage kernel 1.13 -> 0.88 us)."""
    body = p.body
    rp = p.scratch_rp
    pf = p.scratch_pf
    pm = p.scratch_pm
    pint = p.pint
    rG0, rG1, rG2 = kin.r_G[b, body, 0], kin.r_G[b, body, 1], kin.r_G[b, body, 2]
    w0, w1, w2 = kin.w_b[b, body, 0], kin.w_b[b, body, 1], kin.w_b[b, body, 2]
    mass6 = added_mass.shape[2] == 6
    for k in range(rp.shape[1]):
        if pint[k, 0] != COUPLED:
            continue
        a0 = rp[s, k, 0] - rG0
        a1 = rp[s, k, 1] - rG1
        a2 = rp[s, k, 2] - rG2
        # centripetal acceleration w x (w x a) of the point: its inertia -M (w x (w x a))
        c0 = w1 * a2 - w2 * a1
        c1 = w2 * a0 - w0 * a2
        c2 = w0 * a1 - w1 * a0
        cc0 = w1 * c2 - w2 * c1
        cc1 = w2 * c0 - w0 * c2
        cc2 = w0 * c1 - w1 * c0
        m00, m01, m02 = pm[s, k, 0, 0], pm[s, k, 0, 1], pm[s, k, 0, 2]
        m10, m11, m12 = pm[s, k, 1, 0], pm[s, k, 1, 1], pm[s, k, 1, 2]
        m20, m21, m22 = pm[s, k, 2, 0], pm[s, k, 2, 1], pm[s, k, 2, 2]
        g0 = pf[s, k, 0] - (m00 * cc0 + m01 * cc1 + m02 * cc2)
        g1 = pf[s, k, 1] - (m10 * cc0 + m11 * cc1 + m12 * cc2)
        g2 = pf[s, k, 2] - (m20 * cc0 + m21 * cc1 + m22 * cc2)
        force[b, body, 0] += g0
        force[b, body, 1] += g1
        force[b, body, 2] += g2
        moment[b, body, 0] += a1 * g2 - a2 * g1
        moment[b, body, 1] += a2 * g0 - a0 * g2
        moment[b, body, 2] += a0 * g1 - a1 * g0
        if not mass6:
            continue
        # the 6x6 added mass of the point mass matrix M at arm a from the CM (contract rule 3:
        # force part -M (a_G + alpha x a), moment part a x that): with X = [a]x, M X, X M and
        # X M X written out in numbers (each sum from 0.0 in the order of the three-term loop
        # it replaces, zero terms included: the same bits), into added_mass by its four
        # indices: a view of it (or of a work array) made per point cost 0.28 us each on this
        # machine (reference counting), the loops with their work array 0.26 us per point
        x00, x01, x02 = 0.0, -a2, a1
        x10, x11, x12 = a2, 0.0, -a0
        x20, x21, x22 = -a1, a0, 0.0
        mx00 = 0.0 + m00 * x00 + m01 * x10 + m02 * x20
        mx01 = 0.0 + m00 * x01 + m01 * x11 + m02 * x21
        mx02 = 0.0 + m00 * x02 + m01 * x12 + m02 * x22
        mx10 = 0.0 + m10 * x00 + m11 * x10 + m12 * x20
        mx11 = 0.0 + m10 * x01 + m11 * x11 + m12 * x21
        mx12 = 0.0 + m10 * x02 + m11 * x12 + m12 * x22
        mx20 = 0.0 + m20 * x00 + m21 * x10 + m22 * x20
        mx21 = 0.0 + m20 * x01 + m21 * x11 + m22 * x21
        mx22 = 0.0 + m20 * x02 + m21 * x12 + m22 * x22
        xm00 = 0.0 + x00 * m00 + x01 * m10 + x02 * m20
        xm01 = 0.0 + x00 * m01 + x01 * m11 + x02 * m21
        xm02 = 0.0 + x00 * m02 + x01 * m12 + x02 * m22
        xm10 = 0.0 + x10 * m00 + x11 * m10 + x12 * m20
        xm11 = 0.0 + x10 * m01 + x11 * m11 + x12 * m21
        xm12 = 0.0 + x10 * m02 + x11 * m12 + x12 * m22
        xm20 = 0.0 + x20 * m00 + x21 * m10 + x22 * m20
        xm21 = 0.0 + x20 * m01 + x21 * m11 + x22 * m21
        xm22 = 0.0 + x20 * m02 + x21 * m12 + x22 * m22
        added_mass[b, body, 0, 0] += m00
        added_mass[b, body, 0, 3] -= mx00
        added_mass[b, body, 3, 0] += xm00
        added_mass[b, body, 3, 3] -= 0.0 + xm00 * x00 + xm01 * x10 + xm02 * x20
        added_mass[b, body, 0, 1] += m01
        added_mass[b, body, 0, 4] -= mx01
        added_mass[b, body, 3, 1] += xm01
        added_mass[b, body, 3, 4] -= 0.0 + xm00 * x01 + xm01 * x11 + xm02 * x21
        added_mass[b, body, 0, 2] += m02
        added_mass[b, body, 0, 5] -= mx02
        added_mass[b, body, 3, 2] += xm02
        added_mass[b, body, 3, 5] -= 0.0 + xm00 * x02 + xm01 * x12 + xm02 * x22
        added_mass[b, body, 1, 0] += m10
        added_mass[b, body, 1, 3] -= mx10
        added_mass[b, body, 4, 0] += xm10
        added_mass[b, body, 4, 3] -= 0.0 + xm10 * x00 + xm11 * x10 + xm12 * x20
        added_mass[b, body, 1, 1] += m11
        added_mass[b, body, 1, 4] -= mx11
        added_mass[b, body, 4, 1] += xm11
        added_mass[b, body, 4, 4] -= 0.0 + xm10 * x01 + xm11 * x11 + xm12 * x21
        added_mass[b, body, 1, 2] += m12
        added_mass[b, body, 1, 5] -= mx12
        added_mass[b, body, 4, 2] += xm12
        added_mass[b, body, 4, 5] -= 0.0 + xm10 * x02 + xm11 * x12 + xm12 * x22
        added_mass[b, body, 2, 0] += m20
        added_mass[b, body, 2, 3] -= mx20
        added_mass[b, body, 5, 0] += xm20
        added_mass[b, body, 5, 3] -= 0.0 + xm20 * x00 + xm21 * x10 + xm22 * x20
        added_mass[b, body, 2, 1] += m21
        added_mass[b, body, 2, 4] -= mx21
        added_mass[b, body, 5, 1] += xm21
        added_mass[b, body, 5, 4] -= 0.0 + xm20 * x01 + xm21 * x11 + xm22 * x21
        added_mass[b, body, 2, 2] += m22
        added_mass[b, body, 2, 5] -= mx22
        added_mass[b, body, 5, 2] += xm22
        added_mass[b, body, 5, 5] -= 0.0 + xm20 * x02 + xm21 * x12 + xm22 * x22


@njit(cache=True, fastmath=False, error_model="numpy")
def line_rows(p, kin, y, force, moment, added_mass, out):
    """:func:`lumped_kernel` without the rates for each row ``b`` of the line states ``y``
    (B, n) and body kinematics ``kin`` (the output channels of many times at once): each row
    evaluated in the record's member 0 (``p`` of batch 1: its node arrays stay in the cache,
    where a record of B members touches ~80 MB for ref10's 6,001 output times) and its node
    data copied to ``out`` (a :class:`RowsOut`). The same operations as ``lumped_kernel`` row
    by row (the same bits). Returns NOT_FINITE where a row's states or net forces are not finite."""
    body = p.body
    rp = p.scratch_rp[0]
    vp = p.scratch_vp[0]
    nd = member_nodes(p, 0)
    none = y[:, :0]
    status = 0
    for b in range(y.shape[0]):
        point_state(p, b, y, 0, kin.r_G[b, body], kin.R_b2g[b, body], kin.v_G[b, body],
                    kin.w_b[b, body], kin.cm_b[body], rp, vp)  # fmt: skip
        member_rhs(p, b, y, 0, rp, vp, none, 1.0, nd)
        _coupled_wrench(p, 0, b, kin, force, moment, added_mass)
        for c in range(y.shape[1]):
            if not math.isfinite(y[b, c]):
                status = NOT_FINITE
        for i in range(nd.r.shape[0]):
            for c in range(3):
                out.r[b, i, c] = nd.r[i, c]
                out.fnet[b, i, c] = nd.fnet[i, c]
                if not math.isfinite(nd.fnet[i, c]):
                    status = NOT_FINITE
        for i in range(nd.seg.shape[0]):
            out.seg[b, i, 0] = nd.seg[i, 0]
            out.seg[b, i, 1] = nd.seg[i, 1]
        for k in range(rp.shape[0]):
            for c in range(3):
                out.pf[b, k, c] = nd.pf[k, c]
                out.rp[b, k, c] = rp[k, c]
    return status


@njit(cache=True, fastmath=False, error_model="numpy")
def relax(p, b, y, s0, rp, vp, ic, nd, fair_hist):
    """MoorDyn's dynamic relaxation of member ``b`` (MD_Init) with the settings ``ic`` (a
    :class:`Relaxation`) in the :class:`Nodes` ``nd``: the points held where ``rp``, ``vp`` put
    them (fixed and coupled; free points move), drag scaled by ``ic.cd_scale`` (CdScaleIC),
    MoorDyn's RK2 (MD_RK2: the midpoint rule) at step ``ic.dt``; every ``ic.n_check`` steps
    (dtIC/10) each line's end-B tension |Fnet_N| (of the last derivative evaluation, the
    midpoint of the last step, as MoorDyn-F's FairTensIC) is stored in ``fair_hist``, and the
    relaxation stops when the latest value differs from each of the previous nine by less than
    ``ic.thresh`` (threshIC, relative), or after ``ic.n_max`` checks (TmaxIC): MoorDyn-F v2
    MD_Init. ``y[b, s0:]`` holds the start and receives the result. Returns the time relaxed
    (s); negative when it did not converge."""
    dt, n_check, n_max, thresh, cd_scale = ic.dt, ic.n_check, ic.n_max, ic.thresh, ic.cd_scale
    fnet = nd.fnet
    ns = p.n_states
    x0 = np.empty(ns)
    k1 = np.zeros((y.shape[0], y.shape[1]))
    L = p.lint.shape[0]
    for i in range(10):
        for j in range(L):
            fair_hist[j, i] = i + 1.0  # start unconverged (as MD_Init)
    t = 0.0
    rp_free = rp.copy()
    vp_free = vp.copy()
    tab = tables_of(p)
    e = water_of(p)
    pint = p.pint
    for it in range(n_max):
        for _ in range(n_check):
            for c in range(ns):
                x0[c] = y[b, s0 + c]
            _free_pts(pint, b, y, s0, rp, vp, rp_free, vp_free)
            _rhs(y, b, s0, rp_free, vp_free, k1, cd_scale, tab, nd, e)
            for c in range(ns):
                y[b, s0 + c] = x0[c] + 0.5 * dt * k1[b, s0 + c]
            _free_pts(pint, b, y, s0, rp, vp, rp_free, vp_free)
            _rhs(y, b, s0, rp_free, vp_free, k1, cd_scale, tab, nd, e)
            for c in range(ns):
                y[b, s0 + c] = x0[c] + dt * k1[b, s0 + c]
            t += dt
        # the end-B tensions as MoorDyn-F stores them (FairTensIC = |Fnet(N)| of each line left
        # by the last derivative evaluation: the midpoint of the last RK2 step)
        for j in range(L):
            for i in range(9, 0, -1):
                fair_hist[j, i] = fair_hist[j, i - 1]
            o = p.lint[j, 1] + p.lint[j, 0]
            fair_hist[j, 0] = math.sqrt(fnet[o, 0] ** 2 + fnet[o, 1] ** 2 + fnet[o, 2] ** 2)
        if it >= 9:
            ok = True
            for j in range(L):
                for i in range(1, 10):
                    # not "<= thresh": a zero tension (0 / 0 = nan under NumPy's error model)
                    # or a non-finite one never counts as converged
                    if not abs(fair_hist[j, 0] / fair_hist[j, i] - 1.0) <= thresh:
                        ok = False
            if ok:
                return t
    return -t


@njit(cache=True, fastmath=False, error_model="numpy")
def rest_residuals(p, X, ipos, iacc, one, rp, vp, rpf, vpf, dy, out):
    """The lines' static residuals for many guesses in one compiled call (the Newton solve of
    the lines at rest, ``LumpedMassMooring.static_states``: a Jacobian's groups of finite
    differences, a line search): for each row ``r``, the state columns ``ipos`` of ``one``
    (1, n_states) set to ``X[r]``, the free points taken from them (``rp``, ``vp`` the others;
    ``rpf``, ``vpf`` work), the rates of :func:`member_rhs` in ``dy`` and their columns ``iacc``
    (the accelerations) in ``out[r]``. The same operations as one Python call per guess, so the
    same bits; one call instead of two per guess (each call from Python costs its dispatch)."""
    nd = member_nodes(p, 0)
    for r in range(X.shape[0]):
        for c in range(ipos.shape[0]):
            one[0, ipos[c]] = X[r, c]
        _free_pts(p.pint, 0, one, 0, rp, vp, rpf, vpf)
        member_rhs(p, 0, one, 0, rpf, vpf, dy, 1.0, nd)
        for c in range(iacc.shape[0]):
            out[r, c] = dy[0, iacc[c]]


@njit(cache=True, fastmath=False, error_model="numpy")
def _free_points(p, b, y, s0, rp, vp, rp_out, vp_out):
    """``rp``, ``vp`` with the free points taken from the states of member ``b``."""
    _free_pts(p.pint, b, y, s0, rp, vp, rp_out, vp_out)


@njit(cache=True, fastmath=False, error_model="numpy")
def _free_pts(pint, b, y, s0, rp, vp, rp_out, vp_out):
    """:func:`_free_points` with the points' (kind, first state column) ``pint``."""
    for k in range(rp.shape[0]):
        if pint[k, 0] == FREE:
            o = s0 + pint[k, 1]
            for c in range(3):
                rp_out[k, c] = y[b, o + c]
                vp_out[k, c] = y[b, o + 3 + c]
        else:
            for c in range(3):
                rp_out[k, c] = rp[k, c]
                vp_out[k, c] = vp[k, c]


# --------------------------------------------------------------------------------------------
# Sub-stepped lines (``integration: substep``): MoorDyn's loose coupling. The lines are not
# states of the run: after each accepted body step (at t_k) they are advanced over the next step
# [t_k, t_k + dt] by MoorDyn's RK2 (MD_RK2, the midpoint rule) in ``n_sub`` (even) sub-steps,
# the coupled points moved along their path predicted from t_k (second order: position,
# velocity and the backward difference of the velocity, as OpenFAST's glue code extrapolates
# MoorDyn's inputs); the line states at t_k, t_k + dt/2 and t_k + dt (the RK4 stage times) are
# kept in the step memory, and the body's kernel takes the lines at its stage time with the
# fairleads where the body's stage puts them.


@njit(cache=True, fastmath=False, error_model="numpy")
def _predicted_points(pint, tau, rp0, vp0, ap, rp, vp):
    """Fixed points where they are, coupled points at ``rp0 + vp0 tau + ap tau^2/2`` (velocity
    ``vp0 + ap tau``); free points are taken from the states afterwards (_free_pts); ``pint``
    the points' (kind, first state column)."""
    for k in range(rp0.shape[0]):
        coupled = pint[k, 0] == COUPLED
        for c in range(3):
            if coupled:
                rp[k, c] = rp0[k, c] + tau * (vp0[k, c] + 0.5 * tau * ap[k, c])
                vp[k, c] = vp0[k, c] + tau * ap[k, c]
            else:
                rp[k, c] = rp0[k, c]
                vp[k, c] = vp0[k, c]


@njit(cache=True, fastmath=False, error_model="numpy")
def substep_after_step(p, t, kin, y):
    """Record the accepted step ``t`` = t0 + k dt in ``p.memory`` (the line states at t_k: the
    end of the previous step's sub-steps, or the initial states the load wrote at k = 0) and
    advance the lines over the next step (module comment above). Idempotent per step index."""
    m = p.memory
    k = int(round((t - m.t0) / m.dt))
    B = y.shape[0]
    body = p.body
    ns = p.n_states
    n_sub = m.n_sub[0]
    h = m.dt / n_sub
    half = n_sub // 2
    x = m.work[0]
    xm = m.work[1]
    rate = m.work[2]
    advance = k > 0 and m.last[0] == k - 1
    tab = tables_of(p)
    e = water_of(p)
    pint = p.pint
    for b in range(B):
        if advance:
            for c in range(ns):
                m.hist[k, b, c] = m.stage[2, b, c]
        rp0 = p.scratch_rp[b]
        vp0 = p.scratch_vp[b]
        point_state(p, b, m.hist[k], 0, kin.r_G[b, body], kin.R_b2g[b, body],
                    kin.v_G[b, body], kin.w_b[b, body], kin.cm_b[body], rp0, vp0)  # fmt: skip
        ap = m.pw[b, 0]
        rps = m.pw[b, 1]
        vps = m.pw[b, 2]
        rpf = m.pw[b, 3]
        vpf = m.pw[b, 4]
        for q in range(rp0.shape[0]):
            for c in range(3):
                m.vcp[k, b, q, c] = vp0[q, c]
                ap[q, c] = (vp0[q, c] - m.vcp[k - 1, b, q, c]) / m.dt if k > 0 else 0.0
        for c in range(ns):
            x[b, c] = m.hist[k, b, c]
            m.stage[0, b, c] = x[b, c]
        nd = member_nodes(p, b)
        for i in range(n_sub):
            tau = i * h
            _predicted_points(pint, tau, rp0, vp0, ap, rps, vps)
            _free_pts(pint, b, x, 0, rps, vps, rpf, vpf)
            _rhs(x, b, 0, rpf, vpf, rate, 1.0, tab, nd, e)
            for c in range(ns):
                xm[b, c] = x[b, c] + 0.5 * h * rate[b, c]
            _predicted_points(pint, tau + 0.5 * h, rp0, vp0, ap, rps, vps)
            _free_pts(pint, b, xm, 0, rps, vps, rpf, vpf)
            _rhs(xm, b, 0, rpf, vpf, rate, 1.0, tab, nd, e)
            for c in range(ns):
                x[b, c] = x[b, c] + h * rate[b, c]
            if i + 1 == half:
                for c in range(ns):
                    m.stage[1, b, c] = x[b, c]
        for c in range(ns):
            m.stage[2, b, c] = x[b, c]
    m.last[0] = k


@njit(cache=True, fastmath=False, error_model="numpy")
def substep_kernel(p, t, kin, y, dy, force, moment, added_mass):
    """The contract kernel of sub-stepped lines: the line states at ``t`` from the memory (a
    step time up to the last recorded, or the current step's middle or end), the coupled
    points where the body puts them, their net force on the body as :func:`lumped_kernel`.
    A time the memory does not hold, or a non-finite line state, returns NOT_FINITE (the
    NumPy path then says which)."""
    m = p.memory
    B = y.shape[0]
    last = m.last[0]
    x2 = (t - m.t0) / (0.5 * m.dt)
    i2 = int(round(x2))
    if abs(x2 - i2) > 1e-6:
        return NOT_FINITE
    if i2 == 2 * last + 1:
        src = m.stage[1]
    elif i2 == 2 * last + 2:
        src = m.stage[2]
    elif i2 % 2 == 0 and i2 >= 0 and i2 // 2 <= last:
        src = m.hist[i2 // 2]
    else:
        return NOT_FINITE
    status = 0
    body = p.body
    for b in range(B):
        rp = p.scratch_rp[b]
        vp = p.scratch_vp[b]
        point_state(p, b, src, 0, kin.r_G[b, body], kin.R_b2g[b, body], kin.v_G[b, body],
                    kin.w_b[b, body], kin.cm_b[body], rp, vp)  # fmt: skip
        coupled_points(p, b, src, rp, vp, member_nodes(p, b))
        _coupled_wrench(p, b, b, kin, force, moment, added_mass)
        for c in range(p.n_states):
            if not math.isfinite(src[b, c]):
                status = NOT_FINITE
    return status


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def coupled_points(p, b, y, rp, vp, nd):
    """The net forces ``nd.pf`` and masses ``nd.pm`` of the coupled points of member ``b`` as
    :func:`member_rhs` gives them (the same bits), evaluating only the line ends attached to
    them (:func:`_line_eval` for node 0 or N, from the nodes within two of it); line states
    ``y[b]`` from column 0, no rates."""
    r, v, fnet, mass, seg, pf, pm = nd.r, nd.v, nd.fnet, nd.mass, nd.seg, nd.pf, nd.pm
    lint, lflt, pint, pflt, wk = p.lint, p.lflt, p.pint, p.pflt, p.work_line
    e = water_of(p)
    rho, g = e.rho, e.gravity
    for k in range(pf.shape[0]):
        if pint[k, 0] == COUPLED:
            point_own(pflt, k, vp, pf, pm, 1.0, rho, g)
    for j in range(lint.shape[0]):
        ka = lint[j, 4]
        kb = lint[j, 5]
        ca = pint[ka, 0] == COUPLED
        cb = pint[kb, 0] == COUPLED
        if not (ca or cb):
            continue
        n = lint[j, 0]
        o = lint[j, 1]
        so = lint[j, 3]
        for end in range(2):
            if not (ca if end == 0 else cb):
                continue
            i = 0 if end == 0 else n
            kk = ka if end == 0 else kb
            _gather(r, v, y, b, so, rp, vp, lint, j, max(0, i - 2), min(n, i + 2))
            _line_eval(r, v, fnet, mass, seg, wk, lint, lflt, (j, i, i), 1.0, e)
            for c in range(3):
                pf[kk, c] += fnet[o + i, c]
                for q in range(3):
                    pm[kk, c, q] += mass[o + i, c, q]
