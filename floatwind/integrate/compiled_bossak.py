"""Compiled Bossak-Newmark stepping of the small-rotation (linear) model over a compiled
right-hand side: the inner loop of :class:`floatwind.integrate.bossak.BossakNewmark` when the
linear model offers it (:meth:`floatwind.simulate.bossak.LinearizedSystem.bossak_chunk`).

:func:`bossak_linear_chunk` is a template compiled, like ``rk4_chunk``
(:mod:`floatwind.integrate.compiled`), in the module that :mod:`floatwind.simulate.generate`
writes for a model's loads, against its ``rhs(params, t, y, g, out)``. Equation numbers: the
seed 002 chapter as numbered in docs/bossak.md.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from floatwind._kernels.contract import BodyKinematics
from floatwind._kernels.status import BOSSAK_NOT_CONVERGED, NOT_FINITE
from floatwind.jit import njit

__all__ = [
    "BodyState",
    "Bodies",
    "Iteration",
    "LinearModel",
    "LinkedRecord",
    "Newmark",
    "Predicted",
    "Record",
    "StepLoads",
    "bossak_linear_chunk",
    "bossak_linked_chunk",
    "exp_so3_into",
    "linked_body_loop",
    "linked_state",
    "make_kin",
]


class Newmark(NamedTuple):
    """The Bossak-Newmark parameters of the steps (docs/bossak.md)."""

    alpha: float
    gamma: float
    beta: float


class LinearModel(NamedTuple):
    """The small-rotation model of (7-1) per member (:func:`bossak_linear_chunk`)."""

    x0: np.ndarray  # (B, 6) the mean position
    S: np.ndarray  # (B, 6, 6) (1 - alpha) I + beta h^2 K~ + Gamma h C~
    K: np.ndarray  # (B, 6, 6) K~
    C: np.ndarray  # (B, 6, 6) C~


class Record(NamedTuple):
    """What a chunk writes per step (row k + 1 for the step from grid index k)."""

    Y: np.ndarray  # (n + 1, B, n_y) states
    F: np.ndarray  # (n + 1, B, n_y) their rates
    A: np.ndarray  # (n + 1, B, n_a) algorithmic accelerations


def bossak_linear_chunk(ts, y0, f0, a0, p, lin, nm, out):
    """Up to ``len(ts) - 1`` Bossak-Newmark steps of x'' = F~(t) - K~ (x - x0) - C~ x' (the
    model ``lin`` a :class:`LinearModel`, the parameters ``nm`` a :class:`Newmark`).

    F~(t) is the right-hand side's acceleration at the mean position at rest, (x0, 0), at the
    step's end time (grid index k + 1 of ``p.rel``); S = (1 - alpha) I + beta h^2 K~ + Gamma h C~
    per member (B, 6, 6). Writes ``out`` (a :class:`Record`): Y[k+1] (state), F[k+1] (its rate)
    and A[k+1] (the algorithmic acceleration) and returns (steps done, status): it stops before
    a step whose forcing the right-hand side declines (its status) or whose new state is not
    finite (``NOT_FINITE``). One member after the other: a member of a batch gives the same bits
    as the same run alone.
    """
    x0, S, K, C = lin.x0, lin.S, lin.K, lin.C
    alpha, gamma, beta = nm.alpha, nm.gamma, nm.beta
    Y, F, A = out.Y, out.F, out.A
    n = ts.shape[0] - 1
    B = y0.shape[0]
    m = y0.shape[1] // 2
    Y[0] = y0
    F[0] = f0
    A[0] = a0
    ybar = np.zeros((B, 2 * m))
    for b in range(B):
        for i in range(m):
            ybar[b, i] = x0[b, i]
    g = np.empty((B, 2 * m))
    xp = np.empty(m)
    vp = np.empty(m)
    r = np.empty(m)
    for k in range(n):
        t1 = ts[k + 1]
        h = t1 - ts[k]
        st = rhs(p, t1, ybar, k + 1, g)  # noqa: F821  F~(t_{n+1}): loads at the mean position
        if st != 0:
            return k, st
        for b in range(B):
            for i in range(m):
                an = A[k, b, i]
                # Newmark predictors (7-3), (7-4) / (7-11)
                xp[i] = Y[k, b, i] + h * Y[k, b, m + i] + (h * h * (0.5 - beta)) * an
                vp[i] = Y[k, b, m + i] + (h * (1.0 - gamma)) * an
            for i in range(m):
                s = g[b, m + i] - alpha * A[k, b, i]
                for j in range(m):
                    s -= K[b, i, j] * (xp[j] - x0[b, j]) + C[b, i, j] * vp[j]
                r[i] = s
            a = np.linalg.solve(S[b], r)  # (7-2) solved for a_{n+1}
            for i in range(m):
                x1 = xp[i] + (beta * h * h) * a[i]
                v1 = vp[i] + (gamma * h) * a[i]
                if not (math.isfinite(x1) and math.isfinite(v1)):
                    return k, NOT_FINITE
                Y[k + 1, b, i] = x1
                Y[k + 1, b, m + i] = v1
                F[k + 1, b, i] = v1
                F[k + 1, b, m + i] = (1.0 - alpha) * a[i] + alpha * A[k, b, i]
                A[k + 1, b, i] = a[i]
    return n, 0


# ---------------------------------------------------------------- linked bodies, large rotations
# numba helpers of bossak_linked_chunk (a template compiled in the generated module, which
# imports these); the same formulas and order of operations as floatwind.multibody.links.

_SMALL = 1e-4  # floatwind.rotation.rotvec._SMALL


class Predicted(NamedTuple):
    """The Newmark predictors (7-11) of every member's bodies, and their rotations at the
    step's start."""

    r: np.ndarray  # (B, N, 3) positions
    th: np.ndarray  # (B, N, 3) rotation increments
    v: np.ndarray  # (B, N, 3) velocities
    w: np.ndarray  # (B, N, 3) angular velocities
    R_n: np.ndarray  # (B, N, 3, 3) rotations at t_n


class BodyState(NamedTuple):
    """One member's bodies for an acceleration iterate (:func:`linked_state` writes it)."""

    r: np.ndarray  # (N, 3)
    R: np.ndarray  # (N, 3, 3)
    v: np.ndarray  # (N, 3)
    w: np.ndarray  # (N, 3)


class Bodies(NamedTuple):
    """The free bodies and their rigid links (``floatwind.multibody.links.WeldLink``)."""

    cm_b: np.ndarray  # (N, 3) CM in each body's frame
    mass: np.ndarray  # (N,)
    inertia_b: np.ndarray  # (N, 3, 3) about the CM, body axes
    la: np.ndarray  # (L,) body a of each link
    lb: np.ndarray  # (L,) body b
    pa: np.ndarray  # (L, 3) the link point on a (body axes)
    pb: np.ndarray  # (L, 3) on b
    C0: np.ndarray  # (L, 3, 3) the links' relative rotation at rest


class Iteration(NamedTuple):
    """The loads loop and the body-dynamics loop of :func:`bossak_linked_chunk`."""

    rtol: float
    atol: float
    link_tol: float  # the links' residual
    max_iter: int  # loads-loop iterations
    max_inner: int  # body-loop iterations
    aitken: bool  # Aitken relaxation of the loads loop


class StepLoads(NamedTuple):
    """The loads at an iterate (B, N, ...), held fixed in the body loop."""

    force: np.ndarray
    moment: np.ndarray
    added: np.ndarray  # (B, N, 6, 6)
    has_add: bool


class LinkedRecord(NamedTuple):
    """What :func:`bossak_linked_chunk` writes: a :class:`Record`'s rows and the iterations."""

    Y: np.ndarray
    F: np.ndarray
    A: np.ndarray
    IT: np.ndarray  # (n + 1, B) loads-loop iterations
    ITI: np.ndarray  # (n + 1, B) body-loop iterations


@njit(cache=True, fastmath=False)
def exp_so3_into(th0, th1, th2, out):
    """out = exp(~theta) (Rodrigues, series below 1e-4 rad as floatwind.rotation.exp_so3)."""
    phi = math.sqrt(th0 * th0 + th1 * th1 + th2 * th2)
    if phi < _SMALL:
        a = 1.0 - phi**2 / 6.0 + phi**4 / 120.0
        b = 0.5 - phi**2 / 24.0 + phi**4 / 720.0
    else:
        a = math.sin(phi) / phi
        b = (1.0 - math.cos(phi)) / (phi * phi)
    S = np.zeros((3, 3))
    S[0, 1], S[0, 2], S[1, 0] = -th2, th1, th2
    S[1, 2], S[2, 0], S[2, 1] = -th0, -th1, th0
    SS = S @ S
    for i in range(3):
        for j in range(3):
            out[i, j] = (1.0 if i == j else 0.0) + a * S[i, j] + b * SS[i, j]


@njit(cache=True, fastmath=False)
def log_so3_small(E, out):
    """Rotation vector of E away from pi (the links' residual rotation, (7-8))."""
    tr = E[0, 0] + E[1, 1] + E[2, 2]
    c = min(1.0, max(-1.0, 0.5 * (tr - 1.0)))
    w0 = 0.5 * (E[2, 1] - E[1, 2])
    w1 = 0.5 * (E[0, 2] - E[2, 0])
    w2 = 0.5 * (E[1, 0] - E[0, 1])
    s = math.sqrt(w0 * w0 + w1 * w1 + w2 * w2)
    th = math.atan2(s, c)
    scale = 1.0 + th * th / 6.0 if th < _SMALL else th / s
    out[0], out[1], out[2] = scale * w0, scale * w1, scale * w2


@njit(cache=True, fastmath=False)
def linked_state(b, u, pred, bh2, gh, out):
    """Member b's positions and velocities (``out``, a :class:`BodyState`) for the acceleration
    iterate u (N, 6) from the predictors ``pred`` (a :class:`Predicted`) (7-11)."""
    r_p, th_p, v_p, w_p, R_n = pred.r, pred.th, pred.v, pred.w, pred.R_n
    r1, R1, v1, w1 = out.r, out.R, out.v, out.w
    N = r_p.shape[1]
    E = np.empty((3, 3))
    for i in range(N):
        for c in range(3):
            r1[i, c] = r_p[b, i, c] + bh2 * u[i, c]
            v1[i, c] = v_p[b, i, c] + gh * u[i, c]
            w1[i, c] = w_p[b, i, c] + gh * u[i, 3 + c]
        exp_so3_into(
            th_p[b, i, 0] + bh2 * u[i, 3], th_p[b, i, 1] + bh2 * u[i, 4],
            th_p[b, i, 2] + bh2 * u[i, 5], E,
        )  # fmt: skip
        for c in range(3):  # large rotations: inertial increment, R1 = E R_n
            for d in range(3):
                R1[i, c, d] = (
                    E[c, 0] * R_n[b, i, 0, d]
                    + E[c, 1] * R_n[b, i, 1, d]
                    + (E[c, 2] * R_n[b, i, 2, d])
                )


@njit(cache=True, fastmath=False)
def sandwich_into(Ra, X, Rb, T, out):
    """``out = Ra X Rb^T`` (3 x 3) through the scratch ``T``, element by element in a fixed
    order (the same bits in a batch and alone)."""
    for c in range(3):
        for d in range(3):
            T[c, d] = Ra[c, 0] * X[0, d] + Ra[c, 1] * X[1, d] + (Ra[c, 2] * X[2, d])
    for c in range(3):
        for d in range(3):
            out[c, d] = T[c, 0] * Rb[d, 0] + T[c, 1] * Rb[d, 1] + T[c, 2] * Rb[d, 2]


@njit(cache=True, fastmath=False)
def solve_in_place(K, x):
    """x <- K^-1 x by Gaussian elimination with partial pivoting (K is overwritten)."""
    n = x.shape[0]
    for col in range(n):
        piv = col
        big = abs(K[col, col])
        for row in range(col + 1, n):
            if abs(K[row, col]) > big:
                big = abs(K[row, col])
                piv = row
        if piv != col:
            for j in range(n):
                K[col, j], K[piv, j] = K[piv, j], K[col, j]
            x[col], x[piv] = x[piv], x[col]
        d = K[col, col]
        for row in range(col + 1, n):
            f = K[row, col] / d
            if f != 0.0:
                for j in range(col, n):
                    K[row, j] -= f * K[col, j]
                x[row] -= f * x[col]
    for row in range(n - 1, -1, -1):
        acc = x[row]
        for j in range(row + 1, n):
            acc -= K[row, j] * x[j]
        x[row] = acc / K[row, row]


@njit(cache=True, fastmath=False)
def linked_body_loop(u0, a_n, loads, pred, b, bodies, nm, it_, h, floor, out_u):
    """The body-dynamics loop of member b with its loads ``loads`` (a :class:`StepLoads`)
    fixed: (7-5), (7-6) with the instantaneous inertia, the links linearised (7-9) and (7-23)
    solved, equilibrated, until the links hold (``bodies`` a :class:`Bodies`, ``nm`` the
    :class:`Newmark` parameters, ``it_`` the :class:`Iteration` tolerances, ``h`` the step,
    ``floor`` member b's floor of the convergence test). Writes the iterate into out_u (N, 6);
    returns the iterations."""
    F, Mo, Aadd, has_add = loads.force, loads.moment, loads.added, loads.has_add
    mass, inertia_b, la, lb = bodies.mass, bodies.inertia_b, bodies.la, bodies.lb
    pa, pb, C0 = bodies.pa, bodies.pb, bodies.C0
    alpha = nm.alpha
    bh2 = nm.beta * h * h
    gh = nm.gamma * h
    atol, rtol, link_tol, max_inner = it_.atol, it_.rtol, it_.link_tol, it_.max_inner
    N = mass.shape[0]
    L = la.shape[0]
    n = 6 * N
    nc = 6 * L
    ui = u0.copy()
    uf = ui.reshape(n)
    anf = np.ascontiguousarray(a_n[b]).reshape(n)
    r1 = np.empty((N, 3))
    R1 = np.empty((N, 3, 3))
    v1 = np.empty((N, 3))
    w1 = np.empty((N, 3))
    one = BodyState(r1, R1, v1, w1)
    M = np.empty((n, n))
    Fg = np.empty(n)
    A = np.empty((nc, n))
    res = np.empty(nc)
    E = np.empty((3, 3))
    T = np.empty((3, 3))
    Ig = np.empty((3, 3))
    lg = np.empty(3)
    ra = np.empty(3)
    rb = np.empty(3)
    dm = np.empty(n)
    sl = np.empty(nc)
    K = np.empty((n + nc, n + nc))
    x = np.empty(n + nc)
    it = 0
    for _j in range(max_inner):
        it += 1
        linked_state(b, ui, pred, bh2, gh, one)
        M[:, :] = 0.0
        for i in range(N):
            sandwich_into(R1[i], inertia_b[i], R1[i], T, Ig)  # I = R I_b R^T (7-6)
            Iw0 = Ig[0, 0] * w1[i, 0] + Ig[0, 1] * w1[i, 1] + Ig[0, 2] * w1[i, 2]
            Iw1 = Ig[1, 0] * w1[i, 0] + Ig[1, 1] * w1[i, 1] + Ig[1, 2] * w1[i, 2]
            Iw2 = Ig[2, 0] * w1[i, 0] + Ig[2, 1] * w1[i, 1] + Ig[2, 2] * w1[i, 2]
            o = 6 * i
            for c in range(3):
                M[o + c, o + c] = mass[i]
                for d in range(3):
                    M[o + 3 + c, o + 3 + d] = Ig[c, d]
            if has_add:
                for c in range(6):
                    for d in range(6):
                        M[o + c, o + d] += Aadd[b, i, c, d]
            Fg[o], Fg[o + 1], Fg[o + 2] = F[b, i, 0], F[b, i, 1], F[b, i, 2]
            Fg[o + 3] = Mo[b, i, 0] - (w1[i, 1] * Iw2 - w1[i, 2] * Iw1)
            Fg[o + 4] = Mo[b, i, 1] - (w1[i, 2] * Iw0 - w1[i, 0] * Iw2)
            Fg[o + 5] = Mo[b, i, 2] - (w1[i, 0] * Iw1 - w1[i, 1] * Iw0)
        # links: Jacobian (7-16) and residual f - b (7-8)
        A[:, :] = 0.0
        for k in range(L):
            ia, ib = la[k], lb[k]
            for c in range(3):
                ra[c] = R1[ia, c, 0] * pa[k, 0] + R1[ia, c, 1] * pa[k, 1] + R1[ia, c, 2] * pa[k, 2]
                rb[c] = R1[ib, c, 0] * pb[k, 0] + R1[ib, c, 1] * pb[k, 1] + R1[ib, c, 2] * pb[k, 2]
            for c in range(3):
                res[6 * k + c] = r1[ia, c] + ra[c] - r1[ib, c] - rb[c]
            sandwich_into(R1[ia], C0[k], R1[ib], T, E)  # E = R_a C0 R_b^T
            log_so3_small(E, lg)
            for c in range(3):
                res[6 * k + 3 + c] = lg[c]
            o, oa, ob = 6 * k, 6 * ia, 6 * ib
            for c in range(3):
                A[o + c, oa + c] = 1.0
                A[o + c, ob + c] = -1.0
                A[o + 3 + c, oa + 3 + c] = 1.0
                A[o + 3 + c, ob + 3 + c] = -1.0
            # -~ra and +~rb
            A[o + 0, oa + 4], A[o + 0, oa + 5] = ra[2], -ra[1]
            A[o + 1, oa + 3], A[o + 1, oa + 5] = -ra[2], ra[0]
            A[o + 2, oa + 3], A[o + 2, oa + 4] = ra[1], -ra[0]
            A[o + 0, ob + 4], A[o + 0, ob + 5] = -rb[2], rb[1]
            A[o + 1, ob + 3], A[o + 1, ob + 5] = rb[2], -rb[0]
            A[o + 2, ob + 3], A[o + 2, ob + 4] = -rb[1], rb[0]
        # (7-23), equilibrated: D = diag(M)^-1/2 on the bodies' rows, 1/|row of A D| on links'
        for q in range(n):
            dm[q] = 1.0 / math.sqrt(M[q, q])
        for q in range(nc):
            acc = 0.0
            for s_ in range(n):
                y_ = A[q, s_] * dm[s_]
                acc += y_ * y_
            sl[q] = 1.0 / math.sqrt(acc)
        for q in range(n):
            ma = 0.0
            for s_ in range(n):
                K[q, s_] = M[q, s_] * dm[q] * dm[s_]
                ma += M[q, s_] * anf[s_]
            x[q] = (Fg[q] - alpha * ma) * dm[q]  # F - alpha M a_n (7-22)
        for q in range(nc):
            cq = 0.0
            for s_ in range(n):
                y_ = A[q, s_] * dm[s_] * sl[q]
                K[n + q, s_] = y_
                K[s_, n + q] = y_
                cq += A[q, s_] * uf[s_]
            for s_ in range(nc):
                K[n + q, n + s_] = 0.0
            cq = -res[q] / bh2 + cq  # (7-18)
            x[n + q] = (1.0 - alpha) * cq * sl[q]
        solve_in_place(K, x)
        du = 0.0
        umax = 0.0
        for q in range(n):
            un = x[q] * dm[q] / (1.0 - alpha)
            du = max(du, abs(un - uf[q]))
            umax = max(umax, abs(un))
            uf[q] = un
        rmax = 0.0
        for q in range(nc):
            rmax = max(rmax, abs(res[q]))
        if du <= atol + floor + rtol * umax and rmax <= link_tol:
            break
    out_u[:, :] = ui
    return it


@njit(cache=True, fastmath=False)
def make_kin(r, R, v, w, cm_b):
    return BodyKinematics(r, R, v, w, cm_b)


def bossak_linked_chunk(ts, y0, f0, a0, p, bodies, nm, it_, out):
    """Up to ``len(ts) - 1`` Bossak-Newmark steps of free bodies with body links (``bodies`` a
    :class:`Bodies`; ``nm`` the :class:`Newmark` parameters, ``it_`` the :class:`Iteration`
    settings), the nested loops of :meth:`floatwind.multibody.links.LinkedBodies.bossak_step`
    compiled: a loads loop (the model's compiled loads ``_loads`` at the iterate, Aitken
    relaxation per member) around :func:`linked_body_loop`. Flat state [r (3N), R (9N), v (3N),
    w (3N)]; writes into ``out`` (a :class:`LinkedRecord`) Y[k+1], F[k+1], A[k+1] (algorithmic
    accelerations (B, 6N)), IT/ITI[k+1] (loads-loop and body-loop iterations) and returns
    (steps done, status): a load's status, ``BOSSAK_NOT_CONVERGED`` (the Python step redoes it
    and raises) or ``NOT_FINITE`` for a non-finite state (``floatwind._kernels.status``) stop
    the chunk before that step."""
    cm_b, mass = bodies.cm_b, bodies.mass
    gamma, beta = nm.gamma, nm.beta
    alpha = nm.alpha
    rtol, atol, max_iter, aitken = it_.rtol, it_.atol, it_.max_iter, it_.aitken
    Y, F, A, IT, ITI = out.Y, out.F, out.A, out.IT, out.ITI
    n = ts.shape[0] - 1
    B = y0.shape[0]
    N = mass.shape[0]
    Y[0] = y0
    F[0] = f0
    A[0] = a0
    ydum = np.zeros((B, 12))
    dydum = np.zeros((B, 12))
    eps16 = 16.0 * 2.220446049250313e-16
    r_p = np.empty((B, N, 3))
    th_p = np.empty((B, N, 3))
    v_p = np.empty((B, N, 3))
    w_p = np.empty((B, N, 3))
    R_n = np.empty((B, N, 3, 3))
    pred = Predicted(r_p, th_p, v_p, w_p, R_n)
    an = np.empty((B, N, 6))
    floor = np.empty(B)
    r1 = np.empty((B, N, 3))
    R1 = np.empty((B, N, 3, 3))
    v1 = np.empty((B, N, 3))
    w1 = np.empty((B, N, 3))
    ui = np.empty((N, 6))
    force = np.zeros((B, N, 3))
    moment = np.zeros((B, N, 3))
    added = np.zeros((B, N, 6, 6))
    rr = np.empty((N, 3))
    RR = np.empty((N, 3, 3))
    vv = np.empty((N, 3))
    ww = np.empty((N, 3))
    accepted = BodyState(rr, RR, vv, ww)
    loads = StepLoads(force, moment, added, p.adds_mass)
    for k in range(n):
        h = ts[k + 1] - ts[k]
        t1 = ts[k + 1]
        bh2 = beta * h * h
        gh = gamma * h
        q0 = 0.5 - beta
        for b in range(B):
            rmax = 0.0
            for i in range(N):
                for c in range(3):
                    r = Y[k, b, 3 * i + c]
                    v = Y[k, b, 12 * N + 3 * i + c]
                    w = Y[k, b, 15 * N + 3 * i + c]
                    a_l = A[k, b, 6 * i + c]
                    a_r = A[k, b, 6 * i + 3 + c]
                    an[b, i, c] = a_l
                    an[b, i, 3 + c] = a_r
                    rmax = max(rmax, abs(r))
                    # Newmark predictors (7-11)
                    r_p[b, i, c] = r + h * v + (h * h * q0) * a_l
                    th_p[b, i, c] = h * w + (h * h * q0) * a_r
                    v_p[b, i, c] = v + (h * (1.0 - gamma)) * a_l
                    w_p[b, i, c] = w + (h * (1.0 - gamma)) * a_r
                    for d in range(3):
                        R_n[b, i, c, d] = Y[k, b, 3 * N + 9 * i + 3 * c + d]
            floor[b] = eps16 * (rmax + 1.0) / bh2
        u = an.copy()
        active = np.ones(B, dtype=np.bool_)
        omega = np.ones(B)
        res_prev = np.zeros((B, N, 6))
        have_prev = np.zeros(B, dtype=np.bool_)
        outer = np.zeros(B, dtype=np.int64)
        inner = np.zeros(B, dtype=np.int64)
        for it in range(max_iter):
            for b in range(B):
                linked_state(b, u[b], pred, bh2, gh, BodyState(r1[b], R1[b], v1[b], w1[b]))
            force[:] = 0.0
            moment[:] = 0.0
            added[:] = 0.0
            kin = make_kin(r1, R1, v1, w1, cm_b)
            st = _loads(p.loads, t1, kin, ydum, dydum, force, moment, added)  # noqa: F821
            if st != 0:
                return k, st
            for b in range(B):
                if not active[b]:
                    continue
                inner[b] += linked_body_loop(u[b], an, loads, pred, b, bodies, nm, it_, h,
                                             floor[b], ui)  # fmt: skip
                outer[b] = it + 1
                dmax = 0.0
                umax = 0.0
                for i in range(N):
                    for c in range(6):
                        dmax = max(dmax, abs(ui[i, c] - u[b, i, c]))
                        umax = max(umax, abs(ui[i, c]))
                if dmax <= atol + floor[b] + rtol * umax:
                    # accept: the state of the body loop's iterate, its rate with the
                    # acceleration (1 - alpha) u + alpha a_n that balances F + R (7-21)
                    linked_state(b, ui, pred, bh2, gh, accepted)
                    for i in range(N):
                        for c in range(3):
                            Y[k + 1, b, 3 * i + c] = rr[i, c]
                            Y[k + 1, b, 12 * N + 3 * i + c] = vv[i, c]
                            Y[k + 1, b, 15 * N + 3 * i + c] = ww[i, c]
                            F[k + 1, b, 3 * i + c] = vv[i, c]
                            F[k + 1, b, 12 * N + 3 * i + c] = (1.0 - alpha) * ui[i, c] + alpha * an[
                                b, i, c
                            ]
                            F[k + 1, b, 15 * N + 3 * i + c] = (1.0 - alpha) * ui[
                                i, 3 + c
                            ] + alpha * an[b, i, 3 + c]
                            A[k + 1, b, 6 * i + c] = ui[i, c]
                            A[k + 1, b, 6 * i + 3 + c] = ui[i, 3 + c]
                            for d in range(3):
                                Y[k + 1, b, 3 * N + 9 * i + 3 * c + d] = RR[i, c, d]
                                # d/dt R = ~w R
                                c1, c2 = (c + 1) % 3, (c + 2) % 3
                                F[k + 1, b, 3 * N + 9 * i + 3 * c + d] = (
                                    ww[i, c1] * RR[i, c2, d] - ww[i, c2] * RR[i, c1, d]
                                )
                    active[b] = False
                    continue
                if aitken and have_prev[b]:
                    dd = 0.0
                    pd = 0.0
                    for i in range(N):
                        for c in range(6):
                            d_ = (ui[i, c] - u[b, i, c]) - res_prev[b, i, c]
                            dd += d_ * d_
                            pd += res_prev[b, i, c] * d_
                    if dd > 0.0:
                        omega[b] = -omega[b] * pd / dd
                for i in range(N):
                    for c in range(6):
                        rk = ui[i, c] - u[b, i, c]
                        res_prev[b, i, c] = rk
                        u[b, i, c] = u[b, i, c] + omega[b] * rk
                have_prev[b] = True
            if not active.any():
                break
        if active.any():
            return k, BOSSAK_NOT_CONVERGED
        for b in range(B):
            for j in range(Y.shape[2]):
                if not math.isfinite(Y[k + 1, b, j]):
                    return k, NOT_FINITE
            IT[k + 1, b] = outer[b]
            ITI[k + 1, b] = inner[b]
    return n, 0
