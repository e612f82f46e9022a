"""Compiled kernels of the linear potential-flow loads (:mod:`floatwind.loads.potential`).

* ``radiation_kernel``: the infinite-frequency added mass at the WAMIT reference point, moved to
  the body CM (``added += S^T A_inf S`` with ``[a_ref; alpha] = S [a_G; alpha]``) plus its
  centripetal part ``-A_inf [w x (w x r); 0]`` (HydroDyn's ``-A_inf qdotdot`` takes the point's
  whole acceleration), and the memory force of the last accepted step (``memory.F``), applied at
  the displaced reference point;
* ``radiation_after_step``: records the reference point's velocity at the accepted step and
  evaluates HydroDyn's trapezoidal convolution there (Conv_Radiation: the first and last
  samples of the window halved), once per step and member;
* ``excitation_kernel``: ``Re sum_k c_k e^{i omega_k t}`` (first-order excitation of the sea's
  components), applied at the displaced reference point.

Every member goes through the same operations whatever B.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from floatwind._kernels.loads import _add_point_force, _point
from floatwind.jit import njit

__all__ = [
    "convolve",
    "excitation_drift_kernel",
    "excitation_drift_times",
    "excitation_kernel",
    "excitation_times",
    "excitation_ss_kernel",
    "excitation_table_kernel",
    "radiation_after_step",
    "radiation_kernel",
    "radiation_ss_kernel",
    "radiation_times",
]


@njit(cache=True, fastmath=False)
def _ref_point(kin, b, body, ref_b, pos, vel):
    _point(kin.r_G[b, body], kin.R_b2g[b, body], kin.v_G[b, body], kin.w_b[b, body],
           kin.cm_b[body], ref_b, pos, vel)  # fmt: skip


@njit(cache=True, fastmath=False)
def _add_wrench_at(kin, b, body, pos, f6, force, moment):
    """Force f6[:3] at ``pos`` and moment f6[3:] (inertial axes), added about the body CM."""
    f = np.empty(3)
    for k in range(3):
        f[k] = f6[k]
        moment[b, body, k] += f6[3 + k]
    _add_point_force(kin.r_G[b, body], pos, f, force[b, body], moment[b, body])


@njit(cache=True, fastmath=True)
def _window(kr, vr, k, m):
    """sum_{d=1}^{m-1} kr[d] vr[k-d], vectorised (reassociated: the same order for a member alone
    or in a batch, and on both paths, which call this compiled function)."""
    acc = 0.0
    for d in range(1, m):
        acc += kr[d] * vr[k - d]
    return acc


@njit(cache=True, fastmath=True)
def _window2(k1, k2, vr, k, m):
    """:func:`_window` of two kernel rows against the same velocity row in one pass: the
    velocity window is read once (the convolution is bound by memory traffic: 4,800 samples
    of 9 kernel rows and their velocity rows per step do not fit the core's cache)."""
    a1 = 0.0
    a2 = 0.0
    for d in range(1, m):
        x = vr[k - d]
        a1 += k1[d] * x
        a2 += k2[d] * x
    return a1, a2


@njit(cache=True, fastmath=False)
def convolve(Kp, pairs, v, k, b, out):
    """HydroDyn's radiation memory force at step ``k`` (Conv_Rdtn_CalcOutput) into ``out`` (6,):
    ``-[K(m) v_{k-m}/2 + K(0) v_k/2 + sum_{d=1}^{m-1} K(d) v_{k-d}]`` with ``m = min(k, NK - 1)``,
    without the factor rho dt (the caller's). ``Kp`` (P, NK): the kernel entries (i, j) =
    ``pairs[p]`` that are not zero, each contiguous in time, ordered by ``j`` (two neighbours
    with the same ``j`` share one pass over the velocity row: :func:`_window2`); ``v``
    (B, 6, n + 1) the sampled velocities, contiguous in time (the inner loop is a dot product of
    contiguous rows)."""
    nk = Kp.shape[1]
    m = min(k, nk - 1)
    for i in range(6):
        out[i] = 0.0
    p = 0
    npair = pairs.shape[0]
    while p < npair:
        i, j = pairs[p, 0], pairs[p, 1]
        kr = Kp[p]
        vr = v[b, j]
        if p + 1 < npair and pairs[p + 1, 1] == j:
            i2 = pairs[p + 1, 0]
            k2 = Kp[p + 1]
            a1, a2 = _window2(kr, k2, vr, k, m)
            out[i] -= 0.5 * kr[m] * vr[k - m] + 0.5 * kr[0] * vr[k] + a1
            out[i2] -= 0.5 * k2[m] * vr[k - m] + 0.5 * k2[0] * vr[k] + a2
            p += 2
        else:
            out[i] -= 0.5 * kr[m] * vr[k - m] + 0.5 * kr[0] * vr[k] + _window(kr, vr, k, m)
            p += 1


@njit(cache=True, fastmath=False)
def _centripetal(kin, b, body, pos, A, f6):
    """``f6`` = -A_inf [w x (w x r); 0]: the centripetal part of the reference point's
    acceleration (``r`` = point - CM); the rest, a_G + alpha x r, goes to :func:`_added_mass`."""
    r0 = pos[0] - kin.r_G[b, body, 0]
    r1 = pos[1] - kin.r_G[b, body, 1]
    r2 = pos[2] - kin.r_G[b, body, 2]
    w0, w1, w2 = kin.w_b[b, body, 0], kin.w_b[b, body, 1], kin.w_b[b, body, 2]
    u0, u1, u2 = w1 * r2 - w2 * r1, w2 * r0 - w0 * r2, w0 * r1 - w1 * r0
    c0, c1, c2 = w1 * u2 - w2 * u1, w2 * u0 - w0 * u2, w0 * u1 - w1 * u0
    for k in range(6):
        f6[k] = -(A[k, 0] * c0 + A[k, 1] * c1 + A[k, 2] * c2)


@njit(cache=True, fastmath=False)
def _added_mass(kin, b, body, pos, A, S, AS, added):
    """``added[b, body] += S^T A S``, ``S = [[I, -[r]x], [0, I]]``, ``r`` = point - CM:
    the added mass at the point moved to the body CM (``S``, ``AS`` scratch (6, 6))."""
    r0 = pos[0] - kin.r_G[b, body, 0]
    r1 = pos[1] - kin.r_G[b, body, 1]
    r2 = pos[2] - kin.r_G[b, body, 2]
    S[0, 4], S[0, 5] = r2, -r1
    S[1, 3], S[1, 5] = -r2, r0
    S[2, 3], S[2, 4] = r1, -r0
    for i in range(6):
        for j in range(6):
            acc = 0.0
            for q in range(6):
                acc += A[i, q] * S[q, j]
            AS[i, j] = acc
    for i in range(6):
        for j in range(6):
            acc = 0.0
            for q in range(6):
                acc += S[q, i] * AS[q, j]
            added[b, body, i, j] += acc


@njit(cache=True, fastmath=False)
def _memory_row(m, t):
    """The step whose memory force acts at ``t`` (-1: none yet)."""
    if m.last[0] < 0:
        return -1
    return min(int(math.floor((t - m.t0) / m.dt + 1e-9)), m.last[0])


class _Scratch(NamedTuple):
    """Work arrays of the radiation kernels, reused member after member."""

    pos: np.ndarray  # (3,) reference point
    vel: np.ndarray  # (3,) its velocity
    f6: np.ndarray  # (6,) the wrench at it
    S: np.ndarray  # (6, 6) [[I, -[r]x], [0, I]]: the shift to the body CM (r set per member)
    AS: np.ndarray  # (6, 6)


@njit(cache=True, fastmath=False)
def _scratch():
    return _Scratch(np.empty(3), np.empty(3), np.empty(6), np.eye(6), np.empty((6, 6)))


@njit(cache=True, fastmath=False)
def _radiation_member(p, kin, b, bm, n, sc, force, moment, added):
    """Member ``b`` of ``kin`` (column ``bm`` of the memory) with the memory force of step n
    (``sc``: the :class:`_Scratch` of the call)."""
    pos, vel, f6, S, AS = sc.pos, sc.vel, sc.f6, sc.S, sc.AS
    m = p.memory
    A = p.a_inf
    _ref_point(kin, b, p.body, p.ref_b, pos, vel)
    _centripetal(kin, b, p.body, pos, A, f6)
    for k in range(6):
        f6[k] += m.F[n, bm, k] if n >= 0 else 0.0
    _add_wrench_at(kin, b, p.body, pos, f6, force, moment)
    _added_mass(kin, b, p.body, pos, A, S, AS, added)


@njit(cache=True, fastmath=False)
def radiation_kernel(p, t, kin, y, dy, force, moment, added):
    """:class:`floatwind.loads.potential.PotentialRadiation` (the load contract's signature)."""
    sc = _scratch()
    n = _memory_row(p.memory, t)
    for b in range(force.shape[0]):
        _radiation_member(p, kin, b, b, n, sc, force, moment, added)
    return 0


@njit(cache=True, fastmath=False)
def radiation_times(p, times, batch, kin, force, moment, added):
    """:func:`radiation_kernel` for a stack of (time, member) rows (the outputs evaluated at
    many times at once, ``System.evaluate_many``): row i at ``times[i]``, memory column
    ``i % batch``; the same operations per row as the kernel at that time."""
    sc = _scratch()
    for i in range(force.shape[0]):
        n = _memory_row(p.memory, times[i])
        _radiation_member(p, kin, i, i % batch, n, sc, force, moment, added)
    return 0


@njit(cache=True, fastmath=False)
def radiation_after_step(p, t, kin, y):
    """Records the reference point's velocity at the accepted step and its memory force."""
    m = p.memory
    k = int(round((t - m.t0) / m.dt))
    pos = np.empty(3)
    vel = np.empty(3)
    out = np.empty(6)
    for b in range(y.shape[0]):
        _ref_point(kin, b, p.body, p.ref_b, pos, vel)
        for c in range(3):
            m.v[b, c, k] = vel[c]
            m.v[b, 3 + c, k] = kin.w_b[b, p.body, c]
        convolve(m.K, m.pairs, m.v, k, b, out)
        for c in range(6):
            m.F[k, b, c] = p.rho * m.dt * out[c]
    m.last[0] = k


@njit(cache=True, fastmath=False)
def _phases(p, t):
    """``cos(omega_c t)``, ``sin(omega_c t)`` of the sea's components ``p.omega``, kept for the
    last time asked (``p.ph_t``, ``p.ph_cs``, ``p.ph_sn``): an RK4 step evaluates the loads
    twice at each of its two stage times (t + h/2, t + h), so half the cosines and sines are
    reused, the same numbers (computed once for that exact t)."""
    nc = p.omega.shape[0]
    cs = p.ph_cs
    sn = p.ph_sn
    if p.ph_t[0] == t:
        return cs, sn
    for c in range(nc):
        cs[c] = math.cos(p.omega[c] * t)
        sn[c] = math.sin(p.omega[c] * t)
    p.ph_t[0] = t
    return cs, sn


@njit(cache=True, fastmath=False)
def _first_order(p, b, cs, sn, f6):
    """The first-order excitation ``Re sum_c X_c a_c e^{i omega_c t}`` of member ``b`` into
    ``f6`` (the complex coefficients ``p.c_re``/``p.c_im`` (R|1, C, 6) per realization)."""
    r = b if p.c_re.shape[0] > 1 else 0
    cr = p.c_re[r]
    ci = p.c_im[r]
    # six independent sums, each over the components in order (the bits of one sum per k),
    # reading the contiguous rows cr[c, :] / ci[c, :]
    a0 = a1 = a2 = a3 = a4 = a5 = 0.0
    for c in range(cs.shape[0]):
        x, y = cs[c], sn[c]
        a0 += cr[c, 0] * x - ci[c, 0] * y
        a1 += cr[c, 1] * x - ci[c, 1] * y
        a2 += cr[c, 2] * x - ci[c, 2] * y
        a3 += cr[c, 3] * x - ci[c, 3] * y
        a4 += cr[c, 4] * x - ci[c, 4] * y
        a5 += cr[c, 5] * x - ci[c, 5] * y
    f6[0], f6[1], f6[2], f6[3], f6[4], f6[5] = a0, a1, a2, a3, a4, a5


@njit(cache=True, fastmath=False)
def excitation_kernel(p, t, kin, y, dy, force, moment, added):
    """:class:`floatwind.loads.potential.PotentialExcitation` (the load contract's signature)."""
    pos = np.empty(3)
    vel = np.empty(3)
    f6 = np.empty(6)
    cs, sn = _phases(p, t)
    for b in range(force.shape[0]):
        _first_order(p, b, cs, sn, f6)
        _ref_point(kin, b, p.body, p.ref_b, pos, vel)
        _add_wrench_at(kin, b, p.body, pos, f6, force, moment)
    return 0


@njit(cache=True, fastmath=False)
def excitation_times(p, times, batch, kin, force, moment):
    """:func:`excitation_kernel` for a stack of (time, member) rows (the outputs evaluated at
    many times at once, ``System.evaluate_many``): row i at ``times[i]``, realization
    ``i % batch``; the same operations per row as the kernel at that time."""
    pos = np.empty(3)
    vel = np.empty(3)
    f6 = np.empty(6)
    for i in range(force.shape[0]):
        cs, sn = _phases(p, times[i])
        _first_order(p, i % batch, cs, sn, f6)
        _ref_point(kin, i, p.body, p.ref_b, pos, vel)
        _add_wrench_at(kin, i, p.body, pos, f6, force, moment)
    return 0


@njit(cache=True, fastmath=False)
def _ss_blocks(p, b, u, y, dy, f6):
    """The state-space blocks of member ``b`` (:class:`floatwind.loads.radiation_fit.SSBlocks`
    in ``p``): ``dx_q/dt = a_q x_q + b_q u`` into ``dy``, ``f6 += c_q x_q`` (states
    ``y[b, state0 + offsets[q]:]``; zero columns of ``b`` and rows of ``c`` skipped by
    ``b_used`` / ``c_used``)."""
    for q in range(p.orders.shape[0]):
        off = p.state0 + p.offsets[q]
        n = p.orders[q]
        for r in range(n):
            d = 0.0
            for j in range(u.shape[0]):
                if p.b_used[q, j]:
                    d += p.b[q, r, j] * u[j]
            for k in range(n):
                d += p.a[q, r, k] * y[b, off + k]
            dy[b, off + r] = d
        for i in range(6):
            if p.c_used[q, i]:
                acc = 0.0
                for r in range(n):
                    acc += p.c[q, i, r] * y[b, off + r]
                f6[i] += acc


@njit(cache=True, fastmath=False)
def radiation_ss_kernel(p, t, kin, y, dy, force, moment, added):
    """:class:`floatwind.loads.potential.PotentialRadiationSS`: the infinite-frequency added mass
    and its centripetal part as :func:`radiation_kernel`, and the memory force of the
    state-space blocks (:func:`_ss_blocks` with ``u`` the reference point's six velocities;
    HydroDyn SS_Radiation: ``dxdt = A x + B qdot``, ``y = C x``)."""
    pos = np.empty(3)
    vel = np.empty(3)
    f6 = np.empty(6)
    v6 = np.empty(6)
    S = np.eye(6)
    AS = np.empty((6, 6))
    A = p.a_inf
    for b in range(force.shape[0]):
        _ref_point(kin, b, p.body, p.ref_b, pos, vel)
        _centripetal(kin, b, p.body, pos, A, f6)
        for k in range(3):
            v6[k] = vel[k]
            v6[3 + k] = kin.w_b[b, p.body, k]
        _ss_blocks(p, b, v6, y, dy, f6)
        _add_wrench_at(kin, b, p.body, pos, f6, force, moment)
        _added_mass(kin, b, p.body, pos, A, S, AS, added)
    return 0


@njit(cache=True, fastmath=False)
def excitation_ss_kernel(p, t, kin, y, dy, force, moment, added):
    """:class:`floatwind.loads.potential.PotentialExcitationSS` (HydroDyn SS_Excitation):
    ``dx_q/dt = a_q x_q + b_q eta(0, t + Tc)``, ``F += c_q x_q`` at the reference point, the
    elevation ``sum e_re cos(omega (t + Tc)) - e_im sin(omega (t + Tc))`` of the member's sea."""
    pos = np.empty(3)
    vel = np.empty(3)
    f6 = np.empty(6)
    u = np.empty(1)
    nc = p.omega.shape[0]
    cs = np.empty(nc)
    sn = np.empty(nc)
    for c in range(nc):
        cs[c] = math.cos(p.omega[c] * (t + p.tc))
        sn[c] = math.sin(p.omega[c] * (t + p.tc))
    R = p.e_re.shape[0]
    for b in range(force.shape[0]):
        r = b if R > 1 else 0
        eta = 0.0
        for c in range(nc):
            eta += p.e_re[r, c] * cs[c] - p.e_im[r, c] * sn[c]
        for k in range(6):
            f6[k] = 0.0
        u[0] = eta
        _ss_blocks(p, b, u, y, dy, f6)
        _ref_point(kin, b, p.body, p.ref_b, pos, vel)
        _add_wrench_at(kin, b, p.body, pos, f6, force, moment)
    return 0


@njit(cache=True, fastmath=False)
def excitation_drift_kernel(p, t, kin, y, dy, force, moment, added):
    """:class:`floatwind.loads.potential.PotentialExcitation` with second-order drift
    (:mod:`floatwind.loads.drift`): the first-order sum of :func:`excitation_kernel` plus the
    mean drift ``p.mean`` (HydroDyn MnDrift) or Newman's ``|sum n1 e^{i omega t}|^2 -
    |sum n2 e^{i omega t}|^2`` per mode (HydroDyn NewmanApp_InitCalc), at the reference point
    in earth axes."""
    pos = np.empty(3)
    vel = np.empty(3)
    f6 = np.empty(6)
    cs, sn = _phases(p, t)
    for b in range(force.shape[0]):
        _drift_member(p, b, cs, sn, f6)
        _ref_point(kin, b, p.body, p.ref_b, pos, vel)
        _add_wrench_at(kin, b, p.body, pos, f6, force, moment)
    return 0


@njit(cache=True, fastmath=False)
def _drift_member(p, b, cs, sn, f6):
    """First order + mean drift / Newman of realization ``b`` into ``f6`` (earth axes)."""
    rm = b if p.mean.shape[0] > 1 else 0
    _first_order(p, b, cs, sn, f6)
    for k in range(6):
        f6[k] += p.mean[rm, k]
    if p.newman:
        rn = b if p.n1_re.shape[0] > 1 else 0
        for k in range(6):
            if not p.modes[k]:
                continue
            a1 = 0.0
            b1 = 0.0
            a2 = 0.0
            b2 = 0.0
            for q in range(p.active.shape[0]):  # the components with a drift coefficient
                c = p.active[q]
                a1 += p.n1_re[rn, c, k] * cs[c] - p.n1_im[rn, c, k] * sn[c]
                b1 += p.n1_re[rn, c, k] * sn[c] + p.n1_im[rn, c, k] * cs[c]
                a2 += p.n2_re[rn, c, k] * cs[c] - p.n2_im[rn, c, k] * sn[c]
                b2 += p.n2_re[rn, c, k] * sn[c] + p.n2_im[rn, c, k] * cs[c]
            f6[k] += a1 * a1 + b1 * b1 - (a2 * a2 + b2 * b2)


@njit(cache=True, fastmath=False)
def excitation_drift_times(p, times, batch, kin, force, moment):
    """:func:`excitation_drift_kernel` for a stack of (time, member) rows, as
    :func:`excitation_times`."""
    pos = np.empty(3)
    vel = np.empty(3)
    f6 = np.empty(6)
    for i in range(force.shape[0]):
        cs, sn = _phases(p, times[i])
        _drift_member(p, i % batch, cs, sn, f6)
        _ref_point(kin, i, p.body, p.ref_b, pos, vel)
        _add_wrench_at(kin, i, p.body, pos, f6, force, moment)
    return 0


@njit(cache=True, fastmath=False)
def excitation_table_kernel(p, t, kin, y, dy, force, moment, added):
    """:class:`floatwind.loads.potential.PotentialExcitation` with ``time_step``: the wave force
    tabulated at ``n dt`` over the sea's repeat period (``p.table`` (R, N + 1, 6), the last row
    repeating the first) and interpolated linearly in time, wrapped (HydroDyn WAMIT_CalcOutput:
    ``InterpWrappedStpReal`` of ``WaveExctn``, and WAMIT2's second-order series)."""
    pos = np.empty(3)
    vel = np.empty(3)
    f6 = np.empty(6)
    n = p.table.shape[1] - 1
    x = t / p.dt
    k = math.floor(x)
    w = x - k
    i = k % n
    R = p.table.shape[0]
    for b in range(force.shape[0]):
        r = b if R > 1 else 0
        for c in range(6):
            f6[c] = (1.0 - w) * p.table[r, i, c] + w * p.table[r, i + 1, c]
        _ref_point(kin, b, p.body, p.ref_b, pos, vel)
        _add_wrench_at(kin, b, p.body, pos, f6, force, moment)
    return 0
