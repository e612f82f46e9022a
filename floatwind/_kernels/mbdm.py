"""Compiled dynamic analysis of the constrained (MBDM) formulation, Leble (seed 001) sec. 2-6.

One call advances every member of a batch over a whole run (batch axis first; the members go
through the same operations in the same order, so a member alone and in a batch gives the same
bits). Per member and per RK4 stage:

* body states: A(p) (eq. 2, p normalised first as ``rotation.matrix_from_quaternion`` does), G(p)
  (eq. 36), omega' = 2 G pdot and omega = 2 E pdot (eq. 40);
* the constraint rows of the joints, written as basic constraints (Table 1): ``DOT_DD`` = d1
  (eq. 7), ``DOT_AD`` = d2 (eq. 8; extra & 1: the vector in the global frame, a component of
  d_ij: the spherical rows (10) and eq. 15a; extra & 2: the same two points as the row before,
  d_ij reused), ``SS`` (eq. 11), ``EP`` (eq. 15b, one Euler parameter) and ``RDRV`` (eqs.
  22-27). Each gives Phi, the rate Phi_q qdot, nu = -Phi_t (34), gamma (35) and the Jacobian
  with respect to (r, pi') of its (at most two) bodies: for a body-fixed vector a = A a',
  delta a = A delta pi' x a, so d(s . a)/d pi' = |p|^2 A^T (a x s) (eq. 39, Phi_pi' =
  1/2 Phi_p G^T of eq. 67 with G G^T = |p|^2 I). A body held at rest by a G joint is the
  ground in another frame (``fixed``: its vectors were written in global axes by the caller);
* the applied loads: gravity, spring-damper lines (eqs. 80-88), constant body forces/moments and
  the coordinate force elements (``forces.CoordinateForce``: a law f(x, v, p) on one body
  coordinate, e.g. the slider-crank's gas force (94) of ``validation/mbdm/forces.py``);
* the accelerations from eq. (67) (Baumgarte: gamma - 2 alpha (Phi_q qdot - nu) - beta^2 Phi):
  M is block diagonal (m I, J'), so lambda solves the Schur complement
  (Phi_x M^-1 Phi_x^T) lambda = Phi_x M^-1 f - gamma (entries summed only over the bodies two
  rows share; Cholesky on its envelope, which has no fill: a chain of joints gives a band),
  omegadot' = M^-1 (f - Phi_x^T lambda), pddot by eq. (40);
* RK4 with the steps split where a switch of a coordinate force changes sign (regula falsi,
  Illinois variant), the same algorithm as the stepping driver's ``events``
  (``floatwind.integrate.base.FixedStepIntegrator._crossing``).

The coordinate force elements bring their own numba functions; the kernels reach them through
three globals, ``_coord_forces``, ``_coord_switches`` and ``_N_SWITCHES``. Here they stand for
"no elements"; for a combination of force laws, ``floatwind.multibody.mbdm.compiled`` writes a
small module (cached on disk, as ``floatwind.simulate.generate`` does for the loads) that defines
them over the laws and compiles in it the functions of :data:`TEMPLATES` (their source, written
once here), so nothing is compiled again per process and a law is called, inlined, as a global.

The stepping functions allocate nothing and are compiled without the numba runtime's reference
counting (``_nrt=False``): with it, every array argument of a call cost an atomic increment and
decrement (about 9 ns each here), which made the stepping five times slower.

The NumPy code of :mod:`floatwind.multibody.mbdm` stays the reference; tests hold the two to
1e-9 (relative) over whole runs. Status per member: 0 fine, 1 non-finite state, 2 singular
equations of motion, 3 a line of zero length.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from floatwind.jit import njit

#: row types
DOT_DD, DOT_AD, SS, EP, RDRV = 0, 1, 2, 3, 4

#: columns of a row's float table ``rf`` (m, 16): three definition vectors (3 each) and two
#: scalars. DOT_DD: a_i (VEC1), a_j (VEC2); DOT_AD: a (VEC1), s'_i (VEC2), s'_j (VEC3); SS: s'_i
#: (VEC2), s'_j (VEC3); RDRV: f_i (VEC1), g_i (VEC2), f_j (VEC3). CONST is subtracted from the
#: row's value (dist, dist^2, e0_k, the driver's C0); RATE is the driver's rate (C = C0 + RATE t)
RF_VEC1, RF_VEC2, RF_VEC3, RF_CONST, RF_RATE, RF_WIDTH = 0, 3, 6, 12, 13, 16
#: columns of a line's ``lpar`` (nl, 9): anchor (global), fairlead (body frame), l0, k, b (eq. 84)
LP_ANCHOR, LP_FAIRLEAD, LP_L0, LP_K, LP_B, LP_WIDTH = 0, 3, 6, 7, 8, 9
#: columns of a constant body load's ``cpar`` (nc, 6): global force, global moment
CP_FORCE, CP_MOMENT, CP_WIDTH = 0, 3, 6
#: rows of the RK4 scratch ``rk`` (7, 14 nb): the four slopes k1..k4 (0-3), the stage state, the
#: state of a trial step in the switch search and the end-of-step state
RK_STAGE, RK_TRIAL, RK_END, RK_ROWS = 4, 5, 6, 7
#: rows of the switch scratch ``sw`` (3, n_switches): at the step's start, its end, a trial point
SW_START, SW_END, SW_TRIAL, SW_ROWS = 0, 1, 2, 3


class Structure(NamedTuple):
    """The joint rows of a system, shared by the members of a batch."""

    rint: np.ndarray  # (m, 4) int: type, body i, body j (-1: ground), extra
    rf: np.ndarray  # (m, RF_WIDTH) definition vectors and scalars (the RF_* columns)
    rb: np.ndarray  # (m, 2) int: the body of each Jacobian slot (-1: none)
    pairs: np.ndarray  # (P, 4) int: rows a >= b sharing a body, with their slots
    fixed: np.ndarray  # (nb,) int: 1 for a body held at rest by a G joint
    first: np.ndarray  # (m,) int: envelope of the Schur complement (first column of each row)


class Member(NamedTuple):
    """The numbers of one member."""

    mass: np.ndarray  # (nb,) kg
    Jin: np.ndarray  # (nb, 3, 3) J' about the CM, body axes
    Jinv: np.ndarray  # (nb, 3, 3) its inverse
    grav: np.ndarray  # (3,) m/s^2, global
    lbody: np.ndarray  # (nl,) int: body of each line
    lpar: np.ndarray  # (nl, LP_WIDTH): the LP_* columns
    cbody: np.ndarray  # (nc,) int: body of each constant load
    cpar: np.ndarray  # (nc, CP_WIDTH): the CP_* columns
    cf: np.ndarray  # (ne, 2) int: body and axis of each coordinate force element
    cfp: np.ndarray  # (ne, P) the parameters of each coordinate force element


class Workspace(NamedTuple):
    """Scratch arrays of one member's evaluation (allocated once per member, :func:`_workspace`)."""

    A: np.ndarray  # (nb, 3, 3) A(p), eq. (2)
    G: np.ndarray  # (nb, 3, 4) G(p), eq. (36)
    wg: np.ndarray  # (nb, 3) omega = 2 E pdot, global (eq. 40)
    wb: np.ndarray  # (nb, 3) omega' = 2 G pdot, body frame (eq. 40)
    pn: np.ndarray  # (nb,) p^T p
    phi: np.ndarray  # (m,) Phi of the joint rows
    nu: np.ndarray  # (m,) nu = -Phi_t (eq. 34)
    gam: np.ndarray  # (m,) gamma (eq. 35)
    rate: np.ndarray  # (m,) Phi_q qdot
    Jb: np.ndarray  # (m, 2, 6) Jacobian blocks with respect to (r, pi') of the two body slots
    Jt: np.ndarray  # (2, 2, 6) the two d1 rows of an RDRV row
    f: np.ndarray  # (nb, 6) [F^A global, n'^A body frame]
    x0: np.ndarray  # (nb, 6) M^-1 (f - Phi_x^T lambda): [rddot, omegadot']
    W: np.ndarray  # (m, 2, 6) M^-1 Phi_x^T per row and body slot
    S: np.ndarray  # (m, m) Schur complement Phi_x M^-1 Phi_x^T (its lower envelope)
    lam: np.ndarray  # (m,) right-hand side, then lambda


_TWO_PI = 2.0 * math.pi


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _states(q, qd, nb, A, G, wg, wb, pn):
    """A(p) (eq. 2, normalised p), G(p) (eq. 36), omega = 2 E pdot, omega' = 2 G pdot (eq. 40),
    pn = p^T p."""
    for k in range(nb):
        e0, e1, e2, e3 = q[7 * k + 3], q[7 * k + 4], q[7 * k + 5], q[7 * k + 6]
        d0, d1, d2, d3 = qd[7 * k + 3], qd[7 * k + 4], qd[7 * k + 5], qd[7 * k + 6]
        pn[k] = e0 * e0 + e1 * e1 + e2 * e2 + e3 * e3
        nrm = math.sqrt(pn[k])
        a0, a1, a2, a3 = e0 / nrm, e1 / nrm, e2 / nrm, e3 / nrm
        c = 2.0 * a0 * a0 - 1.0
        A[k, 0, 0] = c + 2.0 * a1 * a1
        A[k, 0, 1] = 2.0 * a1 * a2 - 2.0 * a0 * a3
        A[k, 0, 2] = 2.0 * a1 * a3 + 2.0 * a0 * a2
        A[k, 1, 0] = 2.0 * a2 * a1 + 2.0 * a0 * a3
        A[k, 1, 1] = c + 2.0 * a2 * a2
        A[k, 1, 2] = 2.0 * a2 * a3 - 2.0 * a0 * a1
        A[k, 2, 0] = 2.0 * a3 * a1 - 2.0 * a0 * a2
        A[k, 2, 1] = 2.0 * a3 * a2 + 2.0 * a0 * a1
        A[k, 2, 2] = c + 2.0 * a3 * a3
        G[k, 0, 0], G[k, 0, 1], G[k, 0, 2], G[k, 0, 3] = -e1, e0, e3, -e2
        G[k, 1, 0], G[k, 1, 1], G[k, 1, 2], G[k, 1, 3] = -e2, -e3, e0, e1
        G[k, 2, 0], G[k, 2, 1], G[k, 2, 2], G[k, 2, 3] = -e3, e2, -e1, e0
        for i in range(3):
            wb[k, i] = 2.0 * (G[k, i, 0] * d0 + G[k, i, 1] * d1 + G[k, i, 2] * d2
                              + G[k, i, 3] * d3)  # fmt: skip
        # E of eq. (37)
        wg[k, 0] = 2.0 * (-e1 * d0 + e0 * d1 - e3 * d2 + e2 * d3)
        wg[k, 1] = 2.0 * (-e2 * d0 + e3 * d1 + e0 * d2 - e1 * d3)
        wg[k, 2] = 2.0 * (-e3 * d0 - e2 * d1 + e1 * d2 + e0 * d3)


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _cross(a0, a1, a2, b0, b1, b2):
    return a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _bv(k, a0, a1, a2, A, wg):
    """Body-fixed vector a = A a' (ground: k < 0), adot = w x a and the zero-acceleration
    second derivative w x (w x a), as one 9-tuple."""
    if k < 0:
        return a0, a1, a2, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    v0 = A[k, 0, 0] * a0 + A[k, 0, 1] * a1 + A[k, 0, 2] * a2
    v1 = A[k, 1, 0] * a0 + A[k, 1, 1] * a1 + A[k, 1, 2] * a2
    v2 = A[k, 2, 0] * a0 + A[k, 2, 1] * a1 + A[k, 2, 2] * a2
    w0, w1, w2 = wg[k, 0], wg[k, 1], wg[k, 2]
    d0, d1, d2 = _cross(w0, w1, w2, v0, v1, v2)
    c0, c1, c2 = _cross(w0, w1, w2, d0, d1, d2)
    return v0, v1, v2, d0, d1, d2, c0, c1, c2


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _add_rot(J, r, slot, k, A, pn, x, s, scale):
    """J[r, slot, 3:6] += scale |p_k|^2 A_k^T (x cross s) (``x``, ``s`` 3-tuples): d(s . x)/d pi'
    for x = A x' fixed in body k (eq. 39; the |p|^2 is G G^T of Phi_pi' = 1/2 Phi_p G^T, eq. 67,
    at unnormalised p)."""
    x0, x1, x2 = x
    s0, s1, s2 = s
    c0, c1, c2 = _cross(x0, x1, x2, s0, s1, s2)
    f = scale * pn[k]
    J[r, slot, 3] += f * (A[k, 0, 0] * c0 + A[k, 1, 0] * c1 + A[k, 2, 0] * c2)
    J[r, slot, 4] += f * (A[k, 0, 1] * c0 + A[k, 1, 1] * c1 + A[k, 2, 1] * c2)
    J[r, slot, 5] += f * (A[k, 0, 2] * c0 + A[k, 1, 2] * c1 + A[k, 2, 2] * c2)


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _d1(bi, p, o1, bj, o2, A, wg, pn, J, r):
    """d1(a_i, a_j) = a_i . a_j (eq. 7), a_i = p[o1:o1+3] on bi, a_j = p[o2:o2+3] on bj: value,
    rate and gamma; the Jacobian into J[r] (slots i, j)."""
    u0, u1, u2, ud0, ud1, ud2, ua0, ua1, ua2 = _bv(bi, p[o1], p[o1 + 1], p[o1 + 2], A, wg)
    v0, v1, v2, vd0, vd1, vd2, va0, va1, va2 = _bv(bj, p[o2], p[o2 + 1], p[o2 + 2], A, wg)
    if bi >= 0:
        _add_rot(J, r, 0, bi, A, pn, (u0, u1, u2), (v0, v1, v2), 1.0)
    if bj >= 0:
        _add_rot(J, r, 1, bj, A, pn, (v0, v1, v2), (u0, u1, u2), 1.0)
    val = u0 * v0 + u1 * v1 + u2 * v2
    rate = ud0 * v0 + ud1 * v1 + ud2 * v2 + u0 * vd0 + u1 * vd1 + u2 * vd2
    gam = -(ua0 * v0 + ua1 * v1 + ua2 * v2 + 2.0 * (ud0 * vd0 + ud1 * vd1 + ud2 * vd2)
            + u0 * va0 + u1 * va1 + u2 * va2)  # fmt: skip
    return val, rate, gam


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def rows(rint, rf, q, qd, t, ws):
    """Phi, nu, gamma (for eq. 67), Phi_q qdot and the (r, pi') Jacobian blocks Jb (m, 2, 6) of
    the joint rows into the :class:`Workspace` ``ws`` (its A, G, omega and p^T p of the state
    read); slot 0 is body rint[r, 1], slot 1 body rint[r, 2] (-1: the ground)."""
    A, G, wg, wb, pn = ws.A, ws.G, ws.wg, ws.wb, ws.pn
    phi, nu, gam, rate, Jb, Jt = ws.phi, ws.nu, ws.gam, ws.rate, ws.Jb, ws.Jt
    m = rint.shape[0]
    # d_ij of the previous row (reused by rows flagged ex & 2: the same two points)
    i0 = i1 = i2 = j0 = j1 = j2 = 0.0
    d0 = d1 = d2 = dd0 = dd1 = dd2 = da0 = da1 = da2 = 0.0
    for r in range(m):
        typ, bi, bj, ex = rint[r, 0], rint[r, 1], rint[r, 2], rint[r, 3]
        p = rf[r]
        for s in range(2):
            for c in range(6):
                Jb[r, s, c] = 0.0
        nu[r] = 0.0
        # the d1 products of a DOT_DD row (one, into Jb[r]) and an RDRV row (two: f_i . f_j and
        # g_i . f_j, into Jt[0] and Jt[1]) through one call site of _d1: numba type-infers and
        # lowers each inlined site again, and three sites were a third of the kernel's compile
        cv = cd = cg = sv = sd = sg = 0.0
        if typ == DOT_DD or typ == RDRV:
            if typ == RDRV:
                for s in range(2):
                    for c in range(6):
                        Jt[0, s, c] = 0.0
                        Jt[1, s, c] = 0.0
            for kd in range(1 if typ == DOT_DD else 2):
                o2 = RF_VEC2 if typ == DOT_DD else RF_VEC3
                J = Jb if typ == DOT_DD else Jt
                jr = r if typ == DOT_DD else kd
                val, rt, g = _d1(bi, p, RF_VEC1 if kd == 0 else RF_VEC2, bj, o2, A, wg, pn, J, jr)
                if kd == 0:
                    cv, cd, cg = val, rt, g
                else:
                    sv, sd, sg = val, rt, g
        if typ == DOT_DD:  # eq. (7)
            phi[r], rate[r], gam[r] = cv - p[RF_CONST], cd, cg
        elif typ == DOT_AD or typ == SS:  # eq. (8) / (10) / (15a), eq. (11)
            if (ex & 2) == 0:
                # d_ij = r_j + A_j s_j' - r_i - A_i s_i' (eq. 9): value, rate, zero-acceleration
                # second derivative; the arms A s' of both points
                i0, i1, i2, id0, id1, id2, ia0, ia1, ia2 = _bv(bi, p[RF_VEC2], p[RF_VEC2 + 1], p[RF_VEC2 + 2], A, wg)
                j0, j1, j2, jd0, jd1, jd2, ja0, ja1, ja2 = _bv(bj, p[RF_VEC3], p[RF_VEC3 + 1], p[RF_VEC3 + 2], A, wg)
                d0, d1, d2 = j0 - i0, j1 - i1, j2 - i2
                dd0, dd1, dd2 = jd0 - id0, jd1 - id1, jd2 - id2
                if bj >= 0:
                    d0 += q[7 * bj]
                    d1 += q[7 * bj + 1]
                    d2 += q[7 * bj + 2]
                    dd0 += qd[7 * bj]
                    dd1 += qd[7 * bj + 1]
                    dd2 += qd[7 * bj + 2]
                if bi >= 0:
                    d0 -= q[7 * bi]
                    d1 -= q[7 * bi + 1]
                    d2 -= q[7 * bi + 2]
                    dd0 -= qd[7 * bi]
                    dd1 -= qd[7 * bi + 1]
                    dd2 -= qd[7 * bi + 2]
                da0, da1, da2 = ja0 - ia0, ja1 - ia1, ja2 - ia2
            if typ == SS:
                val = d0 * d0 + d1 * d1 + d2 * d2
                rt = 2.0 * (d0 * dd0 + d1 * dd1 + d2 * dd2)
                g = -2.0 * (da0 * d0 + da1 * d1 + da2 * d2 + dd0 * dd0 + dd1 * dd1 + dd2 * dd2)
                if bj >= 0:
                    Jb[r, 1, 0], Jb[r, 1, 1], Jb[r, 1, 2] = 2.0 * d0, 2.0 * d1, 2.0 * d2
                    _add_rot(Jb, r, 1, bj, A, pn, (j0, j1, j2), (d0, d1, d2), 2.0)
                if bi >= 0:
                    Jb[r, 0, 0], Jb[r, 0, 1], Jb[r, 0, 2] = -2.0 * d0, -2.0 * d1, -2.0 * d2
                    _add_rot(Jb, r, 0, bi, A, pn, (i0, i1, i2), (d0, d1, d2), -2.0)
            else:
                a0, a1, a2, ad0, ad1, ad2, aa0, aa1, aa2 = _bv(bi if (ex & 1) == 0 else -1,
                                                               p[RF_VEC1], p[RF_VEC1 + 1],
                                                               p[RF_VEC1 + 2], A, wg)  # fmt: skip
                val = a0 * d0 + a1 * d1 + a2 * d2
                rt = ad0 * d0 + ad1 * d1 + ad2 * d2 + a0 * dd0 + a1 * dd1 + a2 * dd2
                g = -(aa0 * d0 + aa1 * d1 + aa2 * d2 + 2.0 * (ad0 * dd0 + ad1 * dd1 + ad2 * dd2)
                      + a0 * da0 + a1 * da1 + a2 * da2)  # fmt: skip
                if bj >= 0:
                    Jb[r, 1, 0], Jb[r, 1, 1], Jb[r, 1, 2] = a0, a1, a2
                    _add_rot(Jb, r, 1, bj, A, pn, (j0, j1, j2), (a0, a1, a2), 1.0)
                if bi >= 0:
                    Jb[r, 0, 0], Jb[r, 0, 1], Jb[r, 0, 2] = -a0, -a1, -a2
                    _add_rot(Jb, r, 0, bi, A, pn, (i0, i1, i2), (a0, a1, a2), -1.0)
                    if (ex & 1) == 0:
                        _add_rot(Jb, r, 0, bi, A, pn, (a0, a1, a2), (d0, d1, d2), 1.0)
            phi[r], rate[r], gam[r] = val - p[RF_CONST], rt, g
        elif typ == EP:  # eq. (15b): e_k - e0_k; Phi_pi' = 1/2 (G^T)_k, gamma + 1/4 |w'|^2 p_k
            c = 7 * bi + 3 + ex
            phi[r] = q[c] - p[RF_CONST]
            rate[r] = qd[c]
            ww = wb[bi, 0] * wb[bi, 0] + wb[bi, 1] * wb[bi, 1] + wb[bi, 2] * wb[bi, 2]
            gam[r] = 0.25 * ww * q[c]
            for i in range(3):
                Jb[r, 0, 3 + i] = 0.5 * G[bi, i, ex]
        else:  # RDRV, eqs. (22)-(27): theta = atan2(g_i . f_j, f_i . f_j) (cv, sv: above)
            rho2 = cv * cv + sv * sv
            theta = math.atan2(sv, cv)
            C = p[RF_CONST] + p[RF_RATE] * t
            x = theta - C + math.pi
            phi[r] = x - _TWO_PI * math.floor(x / _TWO_PI) - math.pi  # the 2 n pi of eq. (27)
            thd = (cv * sd - sv * cd) / rho2
            for s in range(2):
                for c in range(6):
                    Jb[r, s, c] = (cv * Jt[1, s, c] - sv * Jt[0, s, c]) / rho2
            nu[r] = p[RF_RATE]
            rate[r] = thd
            gam[r] = (cv * sg - sv * cg) / rho2 + 2.0 * thd * (cv * cd + sv * sd) / rho2


@njit(cache=True, error_model="numpy", _nrt=False)
def drift(m, q, qd, nb, phi, nu, rate):
    """max |Phi| and max |Phi_q qdot - nu| over the m joint rows (already evaluated at q, qdot)
    and the normalisation rows (eq. 28)."""
    dp = 0.0
    dv = 0.0
    for r in range(m):
        dp = max(dp, abs(phi[r]))
        dv = max(dv, abs(rate[r] - nu[r]))
    for k in range(nb):
        pp = 0.0
        pr = 0.0
        for i in range(4):
            pp += q[7 * k + 3 + i] * q[7 * k + 3 + i]
            pr += q[7 * k + 3 + i] * qd[7 * k + 3 + i]
        dp = max(dp, abs(pp - 1.0))
        dv = max(dv, abs(2.0 * pr))
    return dp, dv


#: the number of switches of the coordinate force elements (a generated module sets its own)
_N_SWITCHES = 0

#: the functions that reach the coordinate force elements (``_coord_forces``,
#: ``_coord_switches``, ``_N_SWITCHES``), compiled again in each generated module from their
#: source here
TEMPLATES = ("loads", "accelerations", "_rk4", "_crossing", "_advance", "run_baumgarte")


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _coord_forces(q, qd, cf, cfp, f):
    """f[k, axis] += law(x, v, p) of each coordinate force element (none here; a generated
    module writes one line per element)."""
    return None


@njit(cache=True, error_model="numpy", _nrt=False)
def _coord_switches(x, nb, cf, cfp, out):
    """The switches s(x, v, p) of each coordinate force element into ``out`` (none here)."""
    return None


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def loads(q, qd, nb, mp, A, wb, f):
    """f (nb, 6) = [F^A (global), n'^A (body frame)] of gravity, the lines (eqs. 80-88), constant
    body loads (global force at the CM, global moment) and the coordinate force elements of the
    member ``mp`` (a :class:`Member`). Returns a status."""
    mass, grav, lbody, lpar = mp.mass, mp.grav, mp.lbody, mp.lpar
    cbody, cpar, cf, cfp = mp.cbody, mp.cpar, mp.cf, mp.cfp
    for k in range(nb):
        for i in range(3):
            f[k, i] = mass[k] * grav[i]
            f[k, 3 + i] = 0.0
    for n in range(lbody.shape[0]):
        k = lbody[n]
        p = lpar[n]  # the LP_* columns
        s0, s1, s2 = p[LP_FAIRLEAD], p[LP_FAIRLEAD + 1], p[LP_FAIRLEAD + 2]
        a0, a1, a2 = p[LP_ANCHOR], p[LP_ANCHOR + 1], p[LP_ANCHOR + 2]
        d0 = q[7 * k] + A[k, 0, 0] * s0 + A[k, 0, 1] * s1 + A[k, 0, 2] * s2 - a0  # eq. (80)
        d1 = q[7 * k + 1] + A[k, 1, 0] * s0 + A[k, 1, 1] * s1 + A[k, 1, 2] * s2 - a1
        d2 = q[7 * k + 2] + A[k, 2, 0] * s0 + A[k, 2, 1] * s1 + A[k, 2, 2] * s2 - a2
        length = math.sqrt(d0 * d0 + d1 * d1 + d2 * d2)  # eq. (81)
        if not length > 0.0:
            return 3
        c0, c1, c2 = _cross(wb[k, 0], wb[k, 1], wb[k, 2], s0, s1, s2)
        ldot = (d0 * (qd[7 * k] + A[k, 0, 0] * c0 + A[k, 0, 1] * c1 + A[k, 0, 2] * c2)
                + d1 * (qd[7 * k + 1] + A[k, 1, 0] * c0 + A[k, 1, 1] * c1 + A[k, 1, 2] * c2)
                + d2 * (qd[7 * k + 2] + A[k, 2, 0] * c0 + A[k, 2, 1] * c1 + A[k, 2, 2] * c2)
                ) / length  # eq. (83)  # fmt: skip
        fl = p[LP_K] * (length - p[LP_L0]) + p[LP_B] * ldot  # eq. (84)
        f[k, 0] += -fl / length * d0  # eq. (88a)
        f[k, 1] += -fl / length * d1
        f[k, 2] += -fl / length * d2
        b0 = A[k, 0, 0] * d0 + A[k, 1, 0] * d1 + A[k, 2, 0] * d2
        b1 = A[k, 0, 1] * d0 + A[k, 1, 1] * d1 + A[k, 2, 1] * d2
        b2 = A[k, 0, 2] * d0 + A[k, 1, 2] * d1 + A[k, 2, 2] * d2
        n0, n1, n2 = _cross(s0, s1, s2, b0, b1, b2)
        f[k, 3] += -fl / length * n0  # eq. (88b)
        f[k, 4] += -fl / length * n1
        f[k, 5] += -fl / length * n2
    for n in range(cbody.shape[0]):
        k = cbody[n]
        p = cpar[n]  # the CP_* columns: global force, global moment
        m0, m1, m2 = p[CP_MOMENT], p[CP_MOMENT + 1], p[CP_MOMENT + 2]
        for i in range(3):
            f[k, i] += p[CP_FORCE + i]
            f[k, 3 + i] += A[k, 0, i] * m0 + A[k, 1, i] * m1 + A[k, 2, i] * m2  # A^T n
    _coord_forces(q, qd, cf, cfp, f)
    return 0


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _cholesky_solve(S, b, m, first):
    """S x = b for the SPD m x m matrix S given in its lower envelope (row i from column
    first[i]; the Cholesky factor has no fill outside it), overwritten by the factor; False if
    singular."""
    for i in range(m):
        fi = first[i]
        for j in range(fi, i + 1):
            k0 = max(fi, first[j])
            s = S[i, j]
            for k in range(k0, j):
                s -= S[i, k] * S[j, k]
            if j == i:
                if not s > 0.0:
                    return False
                S[i, i] = math.sqrt(s)
            else:
                S[i, j] = s / S[j, j]
    for i in range(m):
        s = b[i]
        for k in range(first[i], i):
            s -= S[i, k] * b[k]
        b[i] = s / S[i, i]
    for i in range(m - 1, -1, -1):
        s = b[i]
        for k in range(i + 1, m):
            if first[k] <= i:
                s -= S[k, i] * b[k]
        b[i] = s / S[i, i]
    return True


@njit(cache=True, error_model="numpy", _nrt=False)
def accelerations(t, x, out, nb, alpha, beta, shift, st, mp, ws):
    """out = [qdot, qddot] of x = [q, qdot] (7 nb each) from eq. (67) and eq. (40); with
    ``shift`` the Baumgarte terms -2 alpha (Phi_q qdot - nu) - beta^2 Phi are added to gamma.
    Returns a status (0 fine, 2 singular, 3 zero-length line)."""
    rint, rf, rb, pairs, fixed, first = st.rint, st.rf, st.rb, st.pairs, st.fixed, st.first
    mass, Jin, Jinv = mp.mass, mp.Jin, mp.Jinv
    A, G, wg, wb, pn = ws.A, ws.G, ws.wg, ws.wb, ws.pn
    phi, nu, gam, rate, Jb = ws.phi, ws.nu, ws.gam, ws.rate, ws.Jb
    f, x0, W, S, lam = ws.f, ws.x0, ws.W, ws.S, ws.lam
    n = 7 * nb
    q = x[:n]
    qd = x[n:]
    _states(q, qd, nb, A, G, wg, wb, pn)
    m = rint.shape[0]
    rows(rint, rf, q, qd, t, ws)
    status = loads(q, qd, nb, mp, A, wb, f)
    if status != 0:
        return status
    # x0 = M^-1 [F; n' - w' x J' w'] (eq. 67)
    for k in range(nb):
        w0, w1, w2 = wb[k, 0], wb[k, 1], wb[k, 2]
        h0 = Jin[k, 0, 0] * w0 + Jin[k, 0, 1] * w1 + Jin[k, 0, 2] * w2
        h1 = Jin[k, 1, 0] * w0 + Jin[k, 1, 1] * w1 + Jin[k, 1, 2] * w2
        h2 = Jin[k, 2, 0] * w0 + Jin[k, 2, 1] * w1 + Jin[k, 2, 2] * w2
        c0, c1, c2 = _cross(w0, w1, w2, h0, h1, h2)
        n0, n1, n2 = f[k, 3] - c0, f[k, 4] - c1, f[k, 5] - c2
        for i in range(3):
            x0[k, i] = f[k, i] / mass[k]
            x0[k, 3 + i] = Jinv[k, i, 0] * n0 + Jinv[k, i, 1] * n1 + Jinv[k, i, 2] * n2
    if m > 0:
        # W = M^-1 Phi_x^T per row and body slot; S = Phi_x W summed over shared bodies
        for r in range(m):
            for s in range(2):
                k = rb[r, s]
                if k < 0:
                    continue
                Jr = Jb[r, s]
                for i in range(3):
                    W[r, s, i] = Jr[i] / mass[k]
                    W[r, s, 3 + i] = (Jinv[k, i, 0] * Jr[3] + Jinv[k, i, 1] * Jr[4]
                                      + Jinv[k, i, 2] * Jr[5])  # fmt: skip
        for a in range(m):
            for b in range(first[a], a + 1):
                S[a, b] = 0.0
        for e in range(pairs.shape[0]):
            a, sa, b, sb = pairs[e, 0], pairs[e, 1], pairs[e, 2], pairs[e, 3]
            s = 0.0
            for c in range(6):
                s += Jb[a, sa, c] * W[b, sb, c]
            S[a, b] += s
        for r in range(m):
            g = gam[r]
            if shift:
                g += -2.0 * alpha * (rate[r] - nu[r]) - beta * beta * phi[r]
            s = 0.0
            for sl in range(2):
                k = rb[r, sl]
                if k < 0:
                    continue
                for c in range(6):
                    s += Jb[r, sl, c] * x0[k, c]
            lam[r] = s - g
        if not _cholesky_solve(S, lam, m, first):
            return 2
        for r in range(m):
            for sl in range(2):
                k = rb[r, sl]
                if k < 0:
                    continue
                for c in range(6):
                    x0[k, c] -= W[r, sl, c] * lam[r]
    for k in range(nb):
        for i in range(7):
            out[7 * k + i] = qd[7 * k + i]
        if fixed[k]:  # held by a G joint: the ground in another frame
            for i in range(7):
                out[n + 7 * k + i] = 0.0
            continue
        ww = wb[k, 0] * wb[k, 0] + wb[k, 1] * wb[k, 1] + wb[k, 2] * wb[k, 2]
        for i in range(3):
            out[n + 7 * k + i] = x0[k, i]
        for i in range(4):  # eq. (40): pddot = 1/2 G^T omegadot' - 1/4 |w'|^2 p
            out[n + 7 * k + 3 + i] = (0.5 * (G[k, 0, i] * x0[k, 3] + G[k, 1, i] * x0[k, 4]
                                             + G[k, 2, i] * x0[k, 5])
                                      - 0.25 * ww * q[7 * k + 3 + i])  # fmt: skip
    return 0


@njit(cache=True, error_model="numpy", _nrt=False)
def _rk4(ta, x, h, xb, nb, alpha, beta, st, mp, ws, rk):
    """One classical RK4 step of x' = f(t, x) (Baumgarte, eq. 67) into xb; returns a status."""
    xs = rk[RK_STAGE]
    nx = x.shape[0]
    for i in range(nx):
        xs[i] = x[i]
    for stage in range(4):
        ts = ta if stage == 0 else (ta + h if stage == 3 else ta + h / 2)
        k = rk[stage]
        s = accelerations(ts, xs, k, nb, alpha, beta, True, st, mp, ws)
        if s != 0:
            return s
        if stage < 2:
            for i in range(nx):
                xs[i] = x[i] + h / 2 * k[i]
        elif stage == 2:
            for i in range(nx):
                xs[i] = x[i] + h * k[i]
    k1, k2, k3, k4 = rk[0], rk[1], rk[2], rk[3]
    for i in range(nx):
        xb[i] = x[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i])
    return 0


@njit(cache=True, error_model="numpy", _nrt=False)
def _sign(v):
    return 1.0 if v > 0 else (-1.0 if v < 0 else 0.0)


@njit(cache=True, error_model="numpy", _nrt=False)
def _crossing(ta, x, h, xb, alpha, beta, st, mp, ws, rk, sw):
    """Earliest time in (ta, ta + h) where a switch changes sign, or -1 (regula falsi, Illinois
    variant, on the length of the RK4 step from ta), as FixedStepIntegrator._crossing. Status in [1]."""
    cf, cfp = mp.cf, mp.cfp
    nb = mp.mass.shape[0]
    sa, sb, sm, xm = sw[SW_START], sw[SW_END], sw[SW_TRIAL], rk[RK_TRIAL]
    _coord_switches(x, nb, cf, cfp, sa)
    _coord_switches(xb, nb, cf, cfp, sb)
    best = -1.0
    found = False
    for i in range(sa.shape[0]):
        if not (_sign(sa[i]) != _sign(sb[i]) and sa[i] != 0):
            continue
        lo, hi, flo, fhi = 0.0, h, sa[i], sb[i]
        side = 0
        for _ in range(60):
            mid = lo - flo * (hi - lo) / (fhi - flo) if fhi != flo else 0.5 * (lo + hi)
            if not lo < mid < hi:
                mid = 0.5 * (lo + hi)
            s = _rk4(ta, x, mid, xm, nb, alpha, beta, st, mp, ws, rk)
            if s != 0:
                return -1.0, s
            _coord_switches(xm, nb, cf, cfp, sm)
            fm = sm[i]
            if _sign(fm) == _sign(flo):
                lo, flo = mid, fm
                fhi = fhi / 2 if side == -1 else fhi
                side = -1
            else:
                hi, fhi = mid, fm
                flo = flo / 2 if side == 1 else flo
                side = 1
            if hi - lo < 1e-13 * max(1.0, abs(ta)) or fm == 0:
                break
        tc = ta + hi
        if not found or tc < best:
            best = tc
            found = True
    if found and best - ta > 1e-14 * max(1.0, abs(ta)):
        return best, 0
    return -1.0, 0


@njit(cache=True, error_model="numpy", _nrt=False)
def _advance(ta, x, t_end, nb, alpha, beta, st, mp, ws, rk, sw):
    """RK4 from ta to t_end in place on x, split where a switch changes sign."""
    xb = rk[RK_END]
    split = _N_SWITCHES > 0
    while ta < t_end - 1e-14 * max(1.0, abs(t_end)):
        s = _rk4(ta, x, t_end - ta, xb, nb, alpha, beta, st, mp, ws, rk)
        if s != 0:
            return s
        tc = -1.0
        if split:
            tc, s = _crossing(ta, x, t_end - ta, xb, alpha, beta, st, mp, ws, rk, sw)
            if s != 0:
                return s
        if tc < 0.0:
            for i in range(x.shape[0]):
                x[i] = xb[i]
            return 0
        s = _rk4(ta, x, tc - ta, xb, nb, alpha, beta, st, mp, ws, rk)
        if s != 0:
            return s
        for i in range(x.shape[0]):
            x[i] = xb[i]
        ta = tc
    return 0


@njit(cache=True, error_model="numpy")
def _workspace(nb, m, n_sw):
    ws = Workspace(np.empty((nb, 3, 3)), np.empty((nb, 3, 4)), np.empty((nb, 3)),
                   np.empty((nb, 3)), np.empty(nb), np.empty(m), np.empty(m), np.empty(m),
                   np.empty(m), np.zeros((m, 2, 6)), np.empty((2, 2, 6)), np.empty((nb, 6)),
                   np.empty((nb, 6)), np.zeros((m, 2, 6)), np.empty((m, m)), np.empty(m))  # fmt: skip
    rk = np.empty((RK_ROWS, 14 * nb))
    sw = np.empty((SW_ROWS, n_sw))
    return ws, rk, sw


class Members(NamedTuple):
    """The :class:`Member` numbers of a batch: batch axis first where members differ."""

    mass: np.ndarray  # (B, nb)
    Jin: np.ndarray  # (B, nb, 3, 3)
    Jinv: np.ndarray  # (B, nb, 3, 3)
    grav: np.ndarray  # (B, 3)
    lbody: np.ndarray  # (nl,) shared
    lpar: np.ndarray  # (B, nl, LP_WIDTH)
    cbody: np.ndarray  # (nc,) shared
    cpar: np.ndarray  # (B, nc, CP_WIDTH)
    cf: np.ndarray  # (ne, 2) shared
    cfp: np.ndarray  # (B, ne, P)


class Steps(NamedTuple):
    """The time grid of :func:`run_baumgarte`."""

    t_start: float
    dt: float
    n_steps: int
    save_every: int  # record every save_every steps (and the last)


class Output(NamedTuple):
    """What :func:`run_baumgarte` records per member (batch axis first)."""

    x: np.ndarray  # (B, nt, 14 nb) [q, qdot]
    a: np.ndarray  # (B, nt, 7 nb) qddot (unstabilised gamma)
    dp: np.ndarray  # (B, nt) drift of the positions
    dv: np.ndarray  # (B, nt) drift of the velocities
    status: np.ndarray  # (B,) int: 0 fine, 1 non-finite, 2 singular, 3 zero-length line
    t_fail: np.ndarray  # (B,) the time of a failure


@njit(cache=True, error_model="numpy")
def run_baumgarte(st, mb, x0, steps, alpha, beta, out):
    """Baumgarte-stabilised RK4 on [q, qdot] for every member b (batch axis first): ``st`` the
    :class:`Structure` (``fixed`` (nb,) 1 for a body held at rest by a G joint, its rows written
    on the ground; ``first`` (m,) the envelope of the Schur complement), ``mb`` the
    :class:`Members`, ``x0`` (B, 14 nb), ``steps`` the :class:`Steps`. Records [q, qdot], qddot
    (unstabilised gamma) and the drift at the start and every ``save_every`` steps (and the
    last) into ``out`` (an :class:`Output`, (B, nt, ...))."""
    t_start, dt, n_steps, save_every = steps.t_start, steps.dt, steps.n_steps, steps.save_every
    out_x, out_a, out_dp, out_dv = out.x, out.a, out.dp, out.dv
    status, t_fail = out.status, out.t_fail
    B = x0.shape[0]
    nb = mb.mass.shape[1]
    m = st.rint.shape[0]
    n = 7 * nb
    for b in range(B):
        mp = Member(mb.mass[b], mb.Jin[b], mb.Jinv[b], mb.grav[b], mb.lbody, mb.lpar[b], mb.cbody,
                    mb.cpar[b], mb.cf, mb.cfp[b])  # fmt: skip
        ws, rk, sw = _workspace(nb, m, _N_SWITCHES)
        x = x0[b].copy()
        acc = np.empty(2 * n)
        status[b] = 0
        rec = 0
        for step in range(n_steps + 1):
            t = t_start + step * dt
            if step > 0:
                t0 = t_start + (step - 1) * dt
                s = _advance(t0, x, t, nb, alpha, beta, st, mp, ws, rk, sw)
                if s == 0:
                    for i in range(2 * n):
                        if not math.isfinite(x[i]):
                            s = 1
                            break
                if s != 0:
                    status[b] = s
                    t_fail[b] = t
                    break
            if step % save_every == 0 or step == n_steps:
                s = accelerations(t, x, acc, nb, alpha, beta, False, st, mp, ws)
                if s != 0:
                    status[b] = s
                    t_fail[b] = t
                    break
                out_x[b, rec] = x
                out_a[b, rec] = acc[n:]
                # the rows of this state, left in the workspace by accelerations()
                out_dp[b, rec], out_dv[b, rec] = drift(m, x[:n], x[n:], nb, ws.phi, ws.nu, ws.rate)
                rec += 1
