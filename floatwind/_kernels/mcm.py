"""Compiled MCM kernels for :mod:`floatwind.multibody.mcm`: body kinematics and forward dynamics.

Inputs are the per-time :class:`~floatwind.multibody.mcm.RelativeKinematics` /
:class:`~floatwind.multibody.mcm.MassDistribution` arrays (leading axis 1, shared by all members)
and the batched state. One loop over batch members, the same operations in the same order for
every member (no reduction across members), so a member alone and inside a batch give the same
bits. The small linear systems (3x3 decoupled rotational block, 6x6 coupled added-mass system) are
solved by Gaussian elimination with partial pivoting (the same algorithm as LAPACK ``getrf``).

The small helpers (rotations, 3-vector products, ``solve_small``) allocate nothing and return no
array: they are compiled without the numba runtime's reference counting (``_nrt=False``), so a
call on views (``R[p]``, ``rho[i]``) costs no atomic increment and decrement of each argument.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from floatwind.jit import njit

__all__ = [
    "DynScratch", "Momentum", "RelScratch", "body_kinematics", "dyn_scratch", "forward_dynamics",
    "forward_dynamics_into", "rel_table", "solve_small",
]


@njit(cache=True, fastmath=False, _nrt=False)
def _euler123(a4, a5, a6, R):
    c4, c5, c6 = math.cos(a4), math.cos(a5), math.cos(a6)
    s4, s5, s6 = math.sin(a4), math.sin(a5), math.sin(a6)
    R[0, 0] = c5 * c6
    R[0, 1] = -c5 * s6
    R[0, 2] = s5
    R[1, 0] = s4 * s5 * c6 + c4 * s6
    R[1, 1] = -s4 * s5 * s6 + c4 * c6
    R[1, 2] = -s4 * c5
    R[2, 0] = -c4 * s5 * c6 + s4 * s6
    R[2, 1] = c4 * s5 * s6 + s4 * c6
    R[2, 2] = c4 * c5


@njit(cache=True, fastmath=False, _nrt=False)
def _t_omega(a5, a6, T):
    c5, c6 = math.cos(a5), math.cos(a6)
    s5, s6 = math.sin(a5), math.sin(a6)
    T[0, 0] = c5 * c6
    T[0, 1] = s6
    T[0, 2] = 0.0
    T[1, 0] = -c5 * s6
    T[1, 1] = c6
    T[1, 2] = 0.0
    T[2, 0] = s5
    T[2, 1] = 0.0
    T[2, 2] = 1.0


@njit(cache=True, fastmath=False, _nrt=False)
def _re(a5, a6, d4, d5, d6, out):
    c5, c6 = math.cos(a5), math.cos(a6)
    s5, s6 = math.sin(a5), math.sin(a6)
    out[0] = -d4 * d5 * s5 * c6 - d4 * d6 * c5 * s6 + d5 * d6 * c6
    out[1] = d4 * d5 * s5 * s6 - d4 * d6 * c5 * c6 - d5 * d6 * s6
    out[2] = d4 * d5 * c5


@njit(cache=True, fastmath=False, _nrt=False)
def _mv(M, v, out):
    for i in range(3):
        out[i] = M[i, 0] * v[0] + M[i, 1] * v[1] + M[i, 2] * v[2]


@njit(cache=True, fastmath=False, _nrt=False)
def _mtv(M, v, out):
    for i in range(3):
        out[i] = M[0, i] * v[0] + M[1, i] * v[1] + M[2, i] * v[2]


@njit(cache=True, fastmath=False, _nrt=False)
def _cross(a, b, out):
    x = a[1] * b[2] - a[2] * b[1]
    y = a[2] * b[0] - a[0] * b[2]
    z = a[0] * b[1] - a[1] * b[0]
    out[0] = x
    out[1] = y
    out[2] = z


@njit(cache=True, fastmath=False, _nrt=False)
def solve_small(A, b, x):
    """Solve A x = b (n x n, n small) by Gaussian elimination with partial pivoting.

    ``A`` and ``b`` are overwritten (LU factors, forward-substituted right-hand side)."""
    n = b.shape[0]
    for k in range(n):
        p = k
        big = abs(A[k, k])
        for i in range(k + 1, n):
            if abs(A[i, k]) > big:
                big = abs(A[i, k])
                p = i
        if p != k:
            for j in range(n):
                tmp = A[k, j]
                A[k, j] = A[p, j]
                A[p, j] = tmp
            tmp = b[k]
            b[k] = b[p]
            b[p] = tmp
        piv = A[k, k]
        for i in range(k + 1, n):
            f = A[i, k] / piv
            A[i, k] = f
            for j in range(k + 1, n):
                A[i, j] -= f * A[k, j]
            b[i] -= f * b[k]
    for i in range(n - 1, -1, -1):
        s = b[i]
        for j in range(i + 1, n):
            s -= A[i, j] * x[j]
        x[i] = s / A[i, i]


@njit(cache=True, fastmath=False, _nrt=False)
def added_mass_rows(R, rho_g, A, G, GA):
    """GA = G A: the generalized forces about G_s (C_s axes) of a body's added-mass wrench,
    G = [I 0; R^T skew(rho_g) R^T] ([sum F; R^T (M + rho_g x F)], Wang 5.26); ``A`` (6, 6) of the
    body, ``rho_g`` its CM from G_s (inertial); G and GA are written."""
    for r in range(6):
        for c in range(6):
            G[r, c] = 0.0
    x0, x1, x2 = rho_g[0], rho_g[1], rho_g[2]
    for r in range(3):
        G[r, r] = 1.0
        # (R^T skew(rho_g))[r, :]
        a0, a1, a2 = R[0, r], R[1, r], R[2, r]
        G[3 + r, 0] = a1 * x2 - a2 * x1
        G[3 + r, 1] = -a0 * x2 + a2 * x0
        G[3 + r, 2] = a0 * x1 - a1 * x0
        for c in range(3):
            G[3 + r, 3 + c] = R[c, r]
    for r in range(6):
        for c in range(6):
            s = 0.0
            for k in range(6):
                s += G[r, k] * A[k, c]
            GA[r, c] = s


@njit(cache=True, fastmath=False)
def body_kinematics(q, qd, rho, drho, R_c2s, w_rel):
    """Absolute kinematics (Wang 5.10): r_G, R_b2g, v_G, w_b_g, each (B, N, ...).

    q, qd: (B, 6); rho, drho, w_rel: (1, N, 3); R_c2s: (1, N, 3, 3) (or leading B: one per member,
    for outputs evaluated at several times at once).
    """
    B = q.shape[0]
    N = rho.shape[1]
    r_G = np.empty((B, N, 3))
    R_b2g = np.empty((B, N, 3, 3))
    v_G = np.empty((B, N, 3))
    w_g = np.empty((B, N, 3))
    body_kinematics_into(q, qd, rho, drho, R_c2s, w_rel, (r_G, R_b2g, v_G, w_g),
                         (np.empty((3, 3)), np.empty((3, 3)), np.empty(3), np.empty(3),
                          np.empty(3), np.empty(3)))  # fmt: skip
    return r_G, R_b2g, v_G, w_g


@njit(cache=True, fastmath=False, inline="always")
def body_kinematics_into(q, qd, rho, drho, R_c2s, w_rel, kin, ws):
    """:func:`body_kinematics` into ``kin`` = (r_G, R_b2g, v_G, w_g) (B, N, ...) with the scratch
    ``ws`` = (R, T (3, 3), w_s, tmp, v, out (3,)) (the joint-DOF right-hand side passes its run's
    arrays: no allocation per evaluation)."""
    r_G, R_b2g, v_G, w_g = kin
    R, T, w_s, tmp, v, out = ws
    B = q.shape[0]
    N = rho.shape[1]
    for b in range(B):
        m = 0 if rho.shape[0] == 1 else b  # time-only inputs: shared, or one per member
        _euler123(q[b, 3], q[b, 4], q[b, 5], R)
        _t_omega(q[b, 4], q[b, 5], T)
        _mv(T, qd[b, 3:6], w_s)
        for i in range(N):
            _mv(R, rho[m, i], out)
            for k in range(3):
                r_G[b, i, k] = q[b, k] + out[k]
            _cross(w_s, rho[m, i], tmp)
            for k in range(3):
                v[k] = drho[m, i, k] + tmp[k]
            _mv(R, v, out)
            for k in range(3):
                v_G[b, i, k] = qd[b, k] + out[k]
            for r in range(3):
                for c in range(3):
                    R_b2g[b, i, r, c] = (
                        R[r, 0] * R_c2s[m, i, 0, c]
                        + R[r, 1] * R_c2s[m, i, 1, c]
                        + R[r, 2] * R_c2s[m, i, 2, c]
                    )
            for k in range(3):
                v[k] = w_s[k] + w_rel[m, i, k]
            _mv(R, v, out)
            for k in range(3):
                w_g[b, i, k] = out[k]


class Momentum(NamedTuple):
    """What :func:`forward_dynamics` reads of the relative kinematics and the momentum
    coefficients (Wang 5.14-5.23): leading axis 1 (shared by the members) or B (one row per
    member)."""

    rho: np.ndarray  # (1 | B, N, 3) rho_{G_i/G_s} (C_s axes)
    drho: np.ndarray
    ddrho: np.ndarray
    w_rel: np.ndarray  # (1 | B, N, 3)
    dw_rel: np.ndarray
    P: np.ndarray  # (1 | B, 3, 3)
    dP: np.ndarray
    Q: np.ndarray  # (1 | B, 3)
    dQ: np.ndarray
    total_mass: float


class DynScratch(NamedTuple):
    """Scratch of :func:`forward_dynamics_into` for N bodies (:func:`dyn_scratch`): nothing in
    it is read before it is written."""

    R: np.ndarray  # (3, 3)
    Tw: np.ndarray
    M_rot: np.ndarray
    RS: np.ndarray
    M3: np.ndarray
    RE: np.ndarray  # (3,)
    w: np.ndarray
    h: np.ndarray
    t1: np.ndarray
    t2: np.ndarray
    t3: np.ndarray
    F: np.ndarray
    Mg: np.ndarray
    rhs_rot: np.ndarray
    dw: np.ndarray
    r3: np.ndarray
    x3: np.ndarray
    rho_g: np.ndarray  # (N, 3)
    c_a: np.ndarray
    c_al: np.ndarray
    Mf: np.ndarray  # (6, 6)
    Macc: np.ndarray
    Jb: np.ndarray
    G: np.ndarray
    GA: np.ndarray
    rhs: np.ndarray  # (6,)
    racc: np.ndarray
    u: np.ndarray
    cb: np.ndarray


@njit(cache=True, fastmath=False)
def dyn_scratch(N):
    """A :class:`DynScratch` for ``N`` bodies (compiled: :func:`forward_dynamics` makes one per
    call; the fused right-hand side keeps one per run)."""
    e = np.empty
    return DynScratch(
        e((3, 3)), e((3, 3)), e((3, 3)), e((3, 3)), e((3, 3)), e(3), e(3), e(3), e(3), e(3), e(3),
        e(3), e(3), e(3), e(3), e(3), e(3), e((N, 3)), e((N, 3)), e((N, 3)), e((6, 6)), e((6, 6)),
        e((6, 6)), e((6, 6)), e((6, 6)), e(6), e(6), e(6), e(6),
    )  # fmt: skip


@njit(cache=True, fastmath=False)
def forward_dynamics(q, qd, rel, force, moment, A, coupled):
    """The six basic EOMs of Wang (5.26) per member; see ``floatwind.multibody.mcm``.

    q, qd: (B, 6); ``rel`` a :class:`Momentum`; force, moment: (B, N, 3); A: (B, N, 6, 6) added
    mass (read only when ``coupled``). Returns qdd (B, 6), a_G (B, N, 3), dw_b (B, N, 3), H (B, 3).
    """
    B = q.shape[0]
    N = rel.rho.shape[1]
    qdd = np.empty((B, 6))
    a_G = np.empty((B, N, 3))
    dw_b = np.empty((B, N, 3))
    H = np.empty((B, 3))
    forward_dynamics_into(q, qd, rel, force, moment, A, coupled, (qdd, a_G, dw_b, H),
                          dyn_scratch(N))  # fmt: skip
    return qdd, a_G, dw_b, H


@njit(cache=True, fastmath=False, _nrt=False)
def forward_dynamics_into(q, qd, rel, force, moment, A, coupled, acc, ws):
    """:func:`forward_dynamics` into ``acc`` = (qdd (B, 6), a_G, dw_b (B, N, 3), H (B, 3)) with
    the scratch ``ws`` (a :class:`DynScratch`); allocates nothing (compiled without reference
    counting: the fused right-hand side passes its run's arrays)."""
    qdd, a_G, dw_b, H = acc
    P, dP, Q, dQ = rel.P, rel.dP, rel.Q, rel.dQ
    rho, drho, ddrho, w_rel, dw_rel = rel.rho, rel.drho, rel.ddrho, rel.w_rel, rel.dw_rel
    total_mass = rel.total_mass
    B = q.shape[0]
    N = rho.shape[1]
    R, Tw, M_rot, RS, M3 = ws.R, ws.Tw, ws.M_rot, ws.RS, ws.M3
    RE, w, h, t1, t2, t3, F, Mg = ws.RE, ws.w, ws.h, ws.t1, ws.t2, ws.t3, ws.F, ws.Mg
    rhs_rot, dw, r3, x3 = ws.rhs_rot, ws.dw, ws.r3, ws.x3
    rho_g, c_a, c_al = ws.rho_g, ws.c_a, ws.c_al
    Mf, Macc, Jb, G, GA = ws.Mf, ws.Macc, ws.Jb, ws.G, ws.GA
    rhs, racc, u, cb = ws.rhs, ws.racc, ws.u, ws.cb
    for b in range(B):
        m = 0 if P.shape[0] == 1 else b  # time-only inputs: shared, or one per member
        P0 = P[m]
        dP0 = dP[m]
        _euler123(q[b, 3], q[b, 4], q[b, 5], R)
        _t_omega(q[b, 4], q[b, 5], Tw)
        _re(q[b, 4], q[b, 5], qd[b, 3], qd[b, 4], qd[b, 5], RE)
        _mv(Tw, qd[b, 3:6], w)
        _mv(P0, w, t1)
        for k in range(3):
            h[k] = t1[k] + Q[m, k]
            H[b, k] = h[k]
        # total force and moment about G_s (inertial), then into C_s
        for k in range(3):
            F[k] = 0.0
            Mg[k] = 0.0
        for i in range(N):
            _mv(R, rho[m, i], t1)
            for k in range(3):
                rho_g[i, k] = t1[k]
            _cross(t1, force[b, i], t2)
            for k in range(3):
                F[k] += force[b, i, k]
                Mg[k] += moment[b, i, k] + t2[k]
        _mtv(R, Mg, t1)
        # Wang (5.26): rotational right-hand side
        _mv(dP0, w, t2)
        _mv(P0, RE, t3)
        _cross(w, h, x3)
        for k in range(3):
            rhs_rot[k] = t1[k] - t2[k] - dQ[m, k] - t3[k] - x3[k]
        for r in range(3):
            for c in range(3):
                M_rot[r, c] = P0[r, 0] * Tw[0, c] + P0[r, 1] * Tw[1, c] + P0[r, 2] * Tw[2, c]
        # velocity-dependent body accelerations (C_s axes)
        for i in range(N):
            _cross(w, drho[m, i], t1)
            _cross(w, rho[m, i], t2)
            _cross(w, t2, t3)
            for k in range(3):
                c_a[i, k] = ddrho[m, i, k] + 2.0 * t1[k] + t3[k]
            _cross(w, w_rel[m, i], t1)
            for k in range(3):
                c_al[i, k] = dw_rel[m, i, k] + t1[k]
        if not coupled:
            for k in range(3):
                qdd[b, k] = F[k] / total_mass
                r3[k] = rhs_rot[k]
                for c in range(3):
                    M3[k, c] = M_rot[k, c]
            solve_small(M3, r3, x3)
            for k in range(3):
                qdd[b, 3 + k] = x3[k]
        else:
            for r in range(6):
                racc[r] = 0.0
                for c in range(6):
                    Macc[r, c] = 0.0
            for i in range(N):
                # Jb: body accelerations [a_G; alpha] = Jb u + cb
                # -R skew(rho) Tw = R (Tw columns x rho): column c is R (rho x Tw[:, c]) * -1
                for c in range(3):
                    t1[0] = Tw[0, c]
                    t1[1] = Tw[1, c]
                    t1[2] = Tw[2, c]
                    _cross(rho[m, i], t1, t2)
                    _mv(R, t2, t3)
                    for r in range(3):
                        RS[r, c] = -t3[r]
                for r in range(6):
                    for c in range(6):
                        Jb[r, c] = 0.0
                for r in range(3):
                    Jb[r, r] = 1.0
                    for c in range(3):
                        Jb[r, 3 + c] = RS[r, c]
                        Jb[3 + r, 3 + c] = (
                            R[r, 0] * Tw[0, c] + R[r, 1] * Tw[1, c] + R[r, 2] * Tw[2, c]
                        )
                _cross(RE, rho[m, i], t1)
                for k in range(3):
                    t2[k] = c_a[i, k] + t1[k]
                _mv(R, t2, t3)
                for k in range(3):
                    cb[k] = t3[k]
                    t2[k] = RE[k] + c_al[i, k]
                _mv(R, t2, t3)
                for k in range(3):
                    cb[3 + k] = t3[k]
                added_mass_rows(R, rho_g[i], A[b, i], G, GA)
                for r in range(6):
                    for c in range(6):
                        s = 0.0
                        for k in range(6):
                            s += GA[r, k] * Jb[k, c]
                        Macc[r, c] += s
                    s = 0.0
                    for k in range(6):
                        s += GA[r, k] * cb[k]
                    racc[r] += s
            for r in range(6):
                for c in range(6):
                    Mf[r, c] = 0.0
            for r in range(3):
                Mf[r, r] = total_mass
                for c in range(3):
                    Mf[3 + r, 3 + c] = M_rot[r, c]
            for r in range(6):
                for c in range(6):
                    Mf[r, c] = Mf[r, c] + Macc[r, c]
            for k in range(3):
                rhs[k] = F[k] - racc[k]
                rhs[3 + k] = rhs_rot[k] - racc[3 + k]
            solve_small(Mf, rhs, u)
            for k in range(6):
                qdd[b, k] = u[k]
        # Wang (5.24): angular acceleration, then body accelerations
        for k in range(3):
            t1[k] = qdd[b, 3 + k]
        _mv(Tw, t1, t2)
        for k in range(3):
            dw[k] = t2[k] + RE[k]
        for i in range(N):
            _cross(dw, rho[m, i], t1)
            for k in range(3):
                t2[k] = c_a[i, k] + t1[k]
            _mv(R, t2, t3)
            for k in range(3):
                a_G[b, i, k] = qdd[b, k] + t3[k]
                t2[k] = dw[k] + c_al[i, k]
            _mv(R, t2, t3)
            for k in range(3):
                dw_b[b, i, k] = t3[k]


@njit(cache=True, fastmath=False, inline="always", _nrt=False)
def _mm(A, B, out):
    for i in range(3):
        for j in range(3):
            out[i, j] = A[i, 0] * B[0, j] + A[i, 1] * B[1, j] + A[i, 2] * B[2, j]


class RelScratch(NamedTuple):
    """Scratch of :func:`rel_table_into` for a tree of N bodies (:func:`rel_scratch`): nothing
    in it is read before it is written."""

    R: np.ndarray  # (N, 3, 3) the cascade and its derivatives
    dR: np.ndarray
    ddR: np.ndarray
    r: np.ndarray  # (N, 3)
    dr: np.ndarray
    ddr: np.ndarray
    w: np.ndarray
    dw: np.ndarray
    A: np.ndarray  # (3, 3)
    Rot: np.ndarray
    Rip: np.ndarray
    dRip: np.ndarray
    ddRip: np.ndarray
    AA: np.ndarray
    t1: np.ndarray
    t2: np.ndarray
    J: np.ndarray
    dJ: np.ndarray
    RI: np.ndarray
    v: np.ndarray  # (3,)
    v2: np.ndarray
    u: np.ndarray
    du: np.ndarray
    ddu: np.ndarray
    rs: np.ndarray
    drs: np.ndarray
    ddrs: np.ndarray


def rel_scratch(N: int) -> RelScratch:
    """A :class:`RelScratch` for ``N`` bodies (NumPy; compiled code makes its own in
    :func:`rel_table`)."""
    z = np.zeros
    return RelScratch(*[z((N, 3, 3)) for _ in range(3)], *[z((N, 3)) for _ in range(5)],
                      *[z((3, 3)) for _ in range(11)], *[z(3) for _ in range(8)])  # fmt: skip


@njit(cache=True, fastmath=False)
def rel_table(order, parent, axis, R0_c2p, rJp, uc, mass, inertia_b, total_mass, motion, out):
    """Prescribed relative kinematics and momentum coefficients at T times (the compiled
    :func:`floatwind.multibody.mcm.relative_kinematics_many` followed by ``mass_distribution``),
    written into ``out`` (a ``floatwind._kernels.fused.RelTable`` with leading axis T).

    ``order`` the bodies in topological order (base first), ``parent`` (N,), per child body its
    joint's unit ``axis`` (N, 3), zero-angle ``R0_c2p`` (N, 3, 3), ``rJp`` = r_J_p - cm_b[parent]
    (N, 3), ``uc`` = cm_b[child] - r_J_c (N, 3); ``motion`` (T, N, 6) = (theta, theta', theta'',
    s, s', s'') of each body's joint. Per time:

    * T_{C_i->C_{i-1}} = R0 Rot(a, theta) (Rodrigues) and its derivatives         Wang (5.14)
    * the cascade R_i = R_p R_ip, dR_i, ddR_i                                      Wang (5.15), (5.21)
    * rho_{G_i/G_1} = rho_p + R_p rJp + R_i (uc + s a) and its derivatives         Wang (5.16), (5.23)
    * w_rel, dw_rel (relative angular velocity in C_1 and its local derivative)  Wang (5.14)
    * G_s, rho_{G_i/G_s}, P = P1 + P2, Q = Q1 + Q2 and their local derivatives  Wang (5.16)-(5.22)
    """
    N = mass.shape[0]
    ws = RelScratch(
        np.zeros((N, 3, 3)), np.zeros((N, 3, 3)), np.zeros((N, 3, 3)), np.zeros((N, 3)),
        np.zeros((N, 3)), np.zeros((N, 3)), np.zeros((N, 3)), np.zeros((N, 3)), np.zeros((3, 3)),
        np.zeros((3, 3)), np.zeros((3, 3)), np.zeros((3, 3)), np.zeros((3, 3)), np.zeros((3, 3)),
        np.zeros((3, 3)), np.zeros((3, 3)), np.zeros((3, 3)), np.zeros((3, 3)), np.zeros((3, 3)),
        np.zeros(3), np.zeros(3), np.zeros(3), np.zeros(3), np.zeros(3), np.zeros(3), np.zeros(3),
        np.zeros(3),
    )  # fmt: skip
    tree = TreeArrays(order, parent, axis, R0_c2p, rJp, uc, mass, inertia_b, total_mass)
    rel_table_into(tree, motion, out, ws)


class TreeArrays(NamedTuple):
    """The tree as :func:`rel_table_into` reads it (``floatwind._kernels.joints.DofParams`` has
    these fields too)."""

    order: np.ndarray
    parent: np.ndarray
    axis: np.ndarray
    R0_c2p: np.ndarray
    rJp: np.ndarray
    uc: np.ndarray
    mass: np.ndarray
    inertia_b: np.ndarray
    total_mass: float


@njit(cache=True, fastmath=False, inline="always")
def rel_table_into(tree, motion, out, ws):
    """:func:`rel_table` of ``tree`` (a record with the fields of :class:`TreeArrays`) with the
    scratch ``ws`` (:class:`RelScratch`; the joint-DOF right-hand side passes its run's: no
    allocation per evaluation)."""
    order, parent, axis, R0_c2p, rJp = tree.order, tree.parent, tree.axis, tree.R0_c2p, tree.rJp
    uc, mass, inertia_b, total_mass = tree.uc, tree.mass, tree.inertia_b, tree.total_mass
    T = motion.shape[0]
    N = mass.shape[0]
    R, dR, ddR, r, dr, ddr, w, dw = ws.R, ws.dR, ws.ddR, ws.r, ws.dr, ws.ddr, ws.w, ws.dw
    A, Rot, Rip, dRip, ddRip, AA = ws.A, ws.Rot, ws.Rip, ws.dRip, ws.ddRip, ws.AA
    t1, t2, J, dJ, RI = ws.t1, ws.t2, ws.J, ws.dJ, ws.RI
    v, v2, u, du, ddu, rs, drs, ddrs = ws.v, ws.v2, ws.u, ws.du, ws.ddu, ws.rs, ws.drs, ws.ddrs
    for k in range(T):
        for i in range(3):
            for j in range(3):
                R[0, i, j] = 1.0 if i == j else 0.0
                dR[0, i, j] = 0.0
                ddR[0, i, j] = 0.0
            r[0, i] = 0.0
            dr[0, i] = 0.0
            ddr[0, i] = 0.0
            w[0, i] = 0.0
            dw[0, i] = 0.0
        for n in range(1, N):
            c = order[n]
            p = parent[c]
            th = motion[k, c, 0]
            thd = motion[k, c, 1]
            thdd = motion[k, c, 2]
            s = motion[k, c, 3]
            sd = motion[k, c, 4]
            sdd = motion[k, c, 5]
            a0, a1, a2 = axis[c, 0], axis[c, 1], axis[c, 2]
            A[0, 0], A[0, 1], A[0, 2] = 0.0, -a2, a1
            A[1, 0], A[1, 1], A[1, 2] = a2, 0.0, -a0
            A[2, 0], A[2, 1], A[2, 2] = -a1, a0, 0.0
            _mm(A, A, AA)
            sn, cs = math.sin(th), 1.0 - math.cos(th)
            for i in range(3):
                for j in range(3):
                    Rot[i, j] = (1.0 if i == j else 0.0) + sn * A[i, j] + cs * AA[i, j]
            _mm(R0_c2p[c], Rot, Rip)  # Wang (5.14)
            _mm(Rip, A, t1)  # R A
            _mm(Rip, AA, t2)  # R A A
            for i in range(3):
                for j in range(3):
                    dRip[i, j] = t1[i, j] * thd
                    ddRip[i, j] = t2[i, j] * thd * thd + t1[i, j] * thdd
            # cascade (5.15), (5.21)
            _mm(R[p], Rip, R[c])
            _mm(dR[p], Rip, t1)
            _mm(R[p], dRip, t2)
            for i in range(3):
                for j in range(3):
                    dR[c, i, j] = t1[i, j] + t2[i, j]
            _mm(ddR[p], Rip, t1)
            _mm(dR[p], dRip, t2)
            _mm(R[p], ddRip, J)
            for i in range(3):
                for j in range(3):
                    ddR[c, i, j] = t1[i, j] + 2.0 * t2[i, j] + J[i, j]
            # CM positions (5.16) and local derivatives (5.23)
            for i in range(3):
                u[i] = uc[c, i] + s * axis[c, i]
                du[i] = sd * axis[c, i]
                ddu[i] = sdd * axis[c, i]
            for i in range(3):
                acc_r = r[p, i]
                acc_dr = dr[p, i]
                acc_ddr = ddr[p, i]
                for j in range(3):
                    acc_r += R[p, i, j] * rJp[c, j] + R[c, i, j] * u[j]
                    acc_dr += dR[p, i, j] * rJp[c, j] + dR[c, i, j] * u[j] + R[c, i, j] * du[j]
                    acc_ddr += (
                        ddR[p, i, j] * rJp[c, j] + ddR[c, i, j] * u[j]
                        + 2.0 * dR[c, i, j] * du[j] + R[c, i, j] * ddu[j]
                    )  # fmt: skip
                r[c, i] = acc_r
                dr[c, i] = acc_dr
                ddr[c, i] = acc_ddr
            # relative angular velocity and its local derivative
            for i in range(3):
                Ra = R[c, i, 0] * a0 + R[c, i, 1] * a1 + R[c, i, 2] * a2
                dRa = dR[c, i, 0] * a0 + dR[c, i, 1] * a1 + dR[c, i, 2] * a2
                w[c, i] = w[p, i] + Ra * thd
                dw[c, i] = dw[p, i] + dRa * thd + Ra * thdd
        # mass distribution about G_s (5.16)-(5.22)
        for i in range(3):
            rs[i] = 0.0
            drs[i] = 0.0
            ddrs[i] = 0.0
        for b in range(N):
            for i in range(3):
                rs[i] += mass[b] * r[b, i]
                drs[i] += mass[b] * dr[b, i]
                ddrs[i] += mass[b] * ddr[b, i]
        for i in range(3):
            rs[i] /= total_mass
            drs[i] /= total_mass
            ddrs[i] /= total_mass
        for i in range(3):
            for j in range(3):
                out.P[k, i, j] = 0.0
                out.dP[k, i, j] = 0.0
            out.Q[k, i] = 0.0
            out.dQ[k, i] = 0.0
        for b in range(N):
            for i in range(3):
                out.rho[k, b, i] = r[b, i] - rs[i]
                out.drho[k, b, i] = dr[b, i] - drs[i]
                out.ddrho[k, b, i] = ddr[b, i] - ddrs[i]
                out.w_rel[k, b, i] = w[b, i]
                out.dw_rel[k, b, i] = dw[b, i]
                for j in range(3):
                    out.R_c2s[k, b, i, j] = R[b, i, j]
            # J = R I R^T, dJ = dR I R^T + R I dR^T                         Wang (5.18), (5.20)
            _mm(R[b], inertia_b[b], RI)
            _mm(dR[b], inertia_b[b], t1)
            for i in range(3):
                for j in range(3):
                    J[i, j] = RI[i, 0] * R[b, j, 0] + RI[i, 1] * R[b, j, 1] + RI[i, 2] * R[b, j, 2]
                    dJ[i, j] = (
                        t1[i, 0] * R[b, j, 0] + t1[i, 1] * R[b, j, 1] + t1[i, 2] * R[b, j, 2]
                        + RI[i, 0] * dR[b, j, 0] + RI[i, 1] * dR[b, j, 1] + RI[i, 2] * dR[b, j, 2]
                    )  # fmt: skip
            rho0 = out.rho[k, b, 0]
            rho1 = out.rho[k, b, 1]
            rho2 = out.rho[k, b, 2]
            d0 = out.drho[k, b, 0]
            d1 = out.drho[k, b, 1]
            d2 = out.drho[k, b, 2]
            rr = rho0 * rho0 + rho1 * rho1 + rho2 * rho2
            rd = rho0 * d0 + rho1 * d1 + rho2 * d2
            rv = (rho0, rho1, rho2)
            dv = (d0, d1, d2)
            m = mass[b]
            for i in range(3):
                for j in range(3):
                    eye = 1.0 if i == j else 0.0
                    P2 = rr * eye - rv[i] * rv[j]  # rho_bar, Wang (4.12)
                    dP2 = 2.0 * rd * eye - dv[i] * rv[j] - rv[i] * dv[j]  # Wang (5.22)
                    out.P[k, i, j] += J[i, j] + m * P2
                    out.dP[k, i, j] += dJ[i, j] + m * dP2
            _mv(J, w[b], v)
            _mv(dJ, w[b], v2)
            for i in range(3):
                out.Q[k, i] += v[i]
                out.dQ[k, i] += v2[i]
            _mv(J, dw[b], v)
            for i in range(3):
                out.dQ[k, i] += v[i]
            # Q2 = m rho x drho, dQ2 = m rho x ddrho
            _cross(out.rho[k, b], out.drho[k, b], v)
            _cross(out.rho[k, b], out.ddrho[k, b], v2)
            for i in range(3):
                out.Q[k, i] += m * v[i]
                out.dQ[k, i] += m * v2[i]
