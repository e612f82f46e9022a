"""The whole right-hand side and the RK4 stepping in one compiled loop (docs/performance.md).

:func:`rk4_chunk` advances a batch by ``n`` classical RK4 steps without returning to Python: body
kinematics (Wang 5.10), every supported load, the MCM forward dynamics (Wang 5.26) and the RK4
update, calling the same compiled kernels as the per-load path (``mcm``, ``loads``, ``morison``,
``waves``, ``wind``) with the same arguments, so a step here equals the Python-driven step to
rounding. The Python side (:mod:`floatwind.simulate.fused`) packs the model into the tuples below,
records the outputs, checks the states and handles whatever this loop hands back.

The loop stops *before* a step whose evaluation needs the NumPy path or must raise, and reports
why in ``status`` (bit flags, :data:`NEEDS_PYTHON`): a wind point below the grid of a file with
a tower line or a time outside a non-periodic file, base pitch at the Euler-angle singularity, a
mooring fairlead at its anchor.
The caller does that step with the Python right-hand side (which raises the proper error where
there is one) and resumes.

Every batch member goes through the same operations in the same order whatever B (no sums across
members): a realization alone and inside a batch are bit-identical.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from floatwind._kernels import loads as kl
from floatwind._kernels import mcm as km
from floatwind._kernels import morison as kmor
from floatwind._kernels import waves as kwv
from floatwind._kernels import wind as kwi

__all__ = ["LANES_MIN", "NEEDS_PYTHON", "fused_rhs", "rk4_chunk"]

#: batch size from which the wave kernels run with the members in SIMD lanes (same bits)
LANES_MIN = kwv.LANES_MIN

#: status bits: 2 wind below the grid / time outside the file, 4 Euler-angle singularity,
#: 8 mooring fairlead at its anchor (1, hydrostatic slicing, is compiled now: never set)
NEEDS_PYTHON = {
    2: "wind outside the compiled field",
    4: "Euler-angle singularity",
    8: "mooring fairlead at its anchor",
}


@njit(cache=True, fastmath=False)
def _series_weights(sea, t):
    """Row and cubic Lagrange weights in time of the expansion table (ExpansionSea._series)."""
    table, sea_dt = sea[0], sea[1]
    m = table.shape[0]
    s_all = t / sea_dt
    j = math.floor(s_all)
    s = s_all - j
    w0 = -s * (s - 1) * (s - 2) / 6.0
    w1 = (s + 1) * (s - 1) * (s - 2) / 2.0
    w2 = -(s + 1) * s * (s - 2) / 2.0
    w3 = (s + 1) * s * (s - 1) / 6.0
    j0 = (int(j) - 1) % m
    return j0, w0, w1, w2, w3


@njit(cache=True, fastmath=False)
def _series(sea, t):
    """Cubic Lagrange in time of the expansion table (ExpansionSea._series)."""
    j0, w0, w1, w2, w3 = _series_weights(sea, t)
    return kwv.expansion_series(sea[0], j0, w0, w1, w2, w3)


@njit(cache=True, fastmath=False)
def _wind(wind, t, pos):
    """Wind velocity (B, 1, 3) at the points ``pos`` (B, 1, 3) and a status (2: needs NumPy)."""
    kind = wind[0]
    B = pos.shape[0]
    if kind == 3:
        grid, y, z = wind[7], wind[8], wind[9]
        vel, st = kwi.full_field_velocity(
            t,
            pos,
            grid,
            y,
            z,
            wind[2],
            wind[3],
            wind[10],
            wind[11],
            wind[12],
            wind[13],
            wind[14],
        )
        return vel, 2 if (st & 6) else 0
    vel = np.zeros((B, pos.shape[1], 3))
    if kind == 0:
        return vel, 0
    speed, cth, sth, zref, alpha, z0 = wind[1], wind[2], wind[3], wind[4], wind[5], wind[6]
    for b in range(B):
        for p in range(pos.shape[1]):
            z = pos[b, p, 2]
            if z <= 0.0:
                u = 0.0
            elif kind == 1:  # power law
                u = speed * (max(z, 1e-9) / zref) ** alpha
            else:  # log law
                zl = max(max(z, 1e-9), z0)
                u = speed * math.log(zl / z0) / math.log(zref / z0)
            vel[b, p, 0] = u * cth
            vel[b, p, 1] = u * sth
    return vel, 0


@njit(cache=True, fastmath=False)
def fused_rhs(t, y, irel, rel, sea, zser, zlanes, wind, ld, qdd_out):
    """qdd (B, 6) at (t, y) into ``qdd_out``; returns a status (0: done, else NEEDS_PYTHON bits).

    ``irel`` indexes the stacked prescribed relative kinematics ``rel`` (one entry per stage
    time, or a single entry for a tree without moving joints); ``zlanes`` its real and imaginary
    parts member-contiguous (``waves.series_lanes``) when B >= LANES_MIN; ``zser`` is the
    expansion series at ``t`` (``_series``) when the sea is an expansion, else unused.
    """
    B = y.shape[0]
    rho, drho, ddrho, R_c2s, w_rel, dw_rel, P, dP, Q, dQ, total_mass, cm_b = rel
    i = irel
    q = y[:, 0:6]
    qd = y[:, 6:12]
    for b in range(B):
        if abs(math.cos(q[b, 4])) < 1e-6:  # floatwind.rotation.euler.EULER_SINGULARITY_TOL
            return 4
    r_G, R_b2g, v_G, w_b = km.body_kinematics(
        q, qd, rho[i : i + 1], drho[i : i + 1], R_c2s[i : i + 1], w_rel[i : i + 1]
    )
    N = r_G.shape[1]
    force = np.zeros((B, N, 3))
    moment = np.zeros((B, N, 3))
    A = np.zeros((B, N, 6, 6))
    (grav, hyd, mor, taut, thr, cf, lin) = ld

    # gravity: -m_i g e_z at each CM
    masses_g = grav[0]
    for b in range(B):
        for n in range(N):
            force[b, n, 2] += -masses_g[n]

    # nonlinear hydrostatics (floatwind.loads.hydrostatics)
    if hyd[0] >= 0:
        body = hyd[0]
        origin, vol, cen, sliced, hc, hn, hm = kl.hydrostatics_classify(
            R_b2g,
            r_G,
            cm_b,
            body,
            hyd[1],
            hyd[2],
            hyd[3],
            hyd[4],
            hyd[5],
            hyd[6],
            hyd[7],
            hyd[8],
        )
        kl.hydrostatics_slices(
            vol, cen, sliced, hc, hn, hm, hyd[1], hyd[2], hyd[3], hyd[4], hyd[5], hyd[10], hyd[11]
        )
        f, m, _v, _rb, _mr = kl.hydrostatics_wrench(R_b2g, r_G, body, N, origin, vol, cen, hyd[9])
        force += f
        moment += m

    # Morison strips (floatwind.loads.morison), waves from the expansion series
    if mor[0] >= 0:
        body = mor[0]
        inst = mor[1]
        Rb = R_b2g[:, body].copy()
        rGb = r_G[:, body].copy()
        vGb = v_G[:, body].copy()
        wb = w_b[:, body].copy()
        cmb = cm_b[body].copy()
        p1, p2, e, cxy, zz = kmor.strip_geometry(Rb, rGb, cmb, mor[4], mor[5], mor[6], inst)
        has_sea = sea[2] != 0
        if mor[2] or not has_sea:  # surface: still, or still water
            eta = np.zeros((B, p1.shape[1]))
        else:
            # along the chains of equally spaced strips (straight members); the same bits alone
            # and in a batch
            ea = (cxy, sea[3], sea[4], sea[8], sea[9], sea[17], sea[10].shape[0], mor[11], mor[12])
            if B >= LANES_MIN:
                eta = kwv.expansion_eta_chains(zlanes[0], zlanes[1], *ea)
            else:
                eta = kwv.expansion_eta_chains_scalar(zser, *ea)
        frac, x_g, arm, x_k = kmor.strip_points(p1, p2, zz, eta, rGb, mor[4], mor[5], inst)
        if has_sea:
            # the elevation at a fully wet strip's load point is the wetting elevation at its
            # centre (the same point): reuse it instead of summing the series again
            eta_k = np.full((B, p1.shape[1]), np.nan)
            if not mor[2]:
                for b in range(B):
                    for j in range(p1.shape[1]):
                        if frac[b, j] == 1.0:
                            eta_k[b, j] = eta[b, j]
            if B >= LANES_MIN:
                u, du = kwv.expansion_kinematics_lanes(
                    zlanes[0],
                    zlanes[1],
                    x_k,
                    eta_k,
                    sea[3],
                    sea[4],
                    sea[5],
                    sea[6],
                    sea[7],
                    sea[8],
                    sea[9],
                    sea[17],
                    sea[10].shape[0],
                    sea[11],
                    sea[18],
                    sea[15],
                    sea[16],
                )
            else:
                u, du = kwv.expansion_kinematics_eta(
                    zser,
                    x_k,
                    eta_k,
                    sea[3],
                    sea[4],
                    sea[5],
                    sea[6],
                    sea[7],
                    sea[8],
                    sea[9],
                    sea[10],
                    sea[11],
                    sea[12],
                    sea[13],
                    sea[14],
                    sea[15],
                    sea[16],
                )
        else:
            u = np.zeros(x_k.shape)
            du = np.zeros(x_k.shape)
        f, m, added, _fd, _fi, _vs = kmor.strip_loads(
            u, du, e, arm, frac, vGb, wb, mor[3], mor[7], mor[8], mor[9], mor[10]
        )
        for b in range(B):
            for k in range(3):
                force[b, body, k] += f[b, k]
                moment[b, body, k] += m[b, k]
            for r in range(6):
                for c in range(6):
                    A[b, body, r, c] += added[b, r, c]

    # taut mooring lines
    if taut[0] >= 0:
        st = kl.taut_add(
            r_G,
            R_b2g,
            v_G,
            w_b,
            cm_b,
            taut[0],
            taut[1],
            taut[2],
            taut[3],
            taut[4],
            taut[5],
            taut[6],
            taut[7],
            force,
            moment,
            np.empty((B, taut[1].shape[0])),
        )
        if st != 0:
            return st

    # rotor thrust from C_T (floatwind.loads.thrust), per-member candidate (study variants)
    n_cand = thr[0]
    if n_cand > 0:
        body = thr[1]
        pos, vel, n_g = kl.thrust_point(r_G, R_b2g, v_G, w_b, cm_b, body, thr[2], thr[3])
        wv, st = _wind(wind, t, pos.reshape((B, 1, 3)))
        if st != 0:
            return st
        wv2 = wv.reshape((B, 3)).copy()
        choice = thr[4]
        for c in range(n_cand):
            nk = thr[6][c]
            f, m, _ch = kl.thrust_loads(
                r_G,
                body,
                N,
                pos,
                vel,
                n_g,
                wv2,
                thr[5][c] != 0,
                thr[7][c, :nk],
                thr[8][c, :nk],
                thr[9][c],
                thr[10][c],
                thr[11][c],
                thr[12][c],
            )
            for b in range(B):
                if choice[b] == c:
                    for n in range(N):
                        for k in range(3):
                            force[b, n, k] += f[b, n, k]
                            moment[b, n, k] += m[b, n, k]

    # constant forces (mooring preload, AddF0-like)
    for j in range(cf[0].shape[0]):
        f, m = kl.constant_force(r_G, R_b2g, cm_b, cf[0][j], cf[1][j], cf[2][j], cf[3][j])
        force += f
        moment += m

    # linear stiffness / damping matrices about a point (HydroDyn AddCLin / AddBLin)
    for j in range(lin[0].shape[0]):
        f, m = kl.linear_matrices(
            r_G,
            R_b2g,
            v_G,
            w_b,
            cm_b,
            lin[0][j],
            lin[1][j],
            lin[2][j],
            lin[3][j],
            lin[4][j],
            lin[5][j],
        )
        force += f
        moment += m

    qdd, _aG, _dw, _H = km.forward_dynamics(
        q,
        qd,
        P[i : i + 1],
        dP[i : i + 1],
        Q[i : i + 1],
        dQ[i : i + 1],
        rho[i : i + 1],
        drho[i : i + 1],
        ddrho[i : i + 1],
        w_rel[i : i + 1],
        dw_rel[i : i + 1],
        total_mass,
        force,
        moment,
        A,
        mor[0] >= 0,
    )
    qdd_out[:, :] = qdd
    return 0


@njit(cache=True, fastmath=False)
def _f(t, y, irel, rel, sea, wind, ld, out, cache_t, cache_z, cache_l):
    """dy/dt into ``out`` (B, 12); the expansion series is reused while t repeats."""
    if sea[2] != 0 and t != cache_t[0]:
        if y.shape[0] >= LANES_MIN:  # only the member-contiguous parts are used
            j0, w0, w1, w2, w3 = _series_weights(sea, t)
            zr, zi = kwv.expansion_series_lanes(sea[0], j0, w0, w1, w2, w3)
            cache_l[0] = zr
            cache_l[1] = zi
        else:
            cache_z[0] = _series(sea, t)
        cache_t[0] = t
    qdd = np.empty((y.shape[0], 6))
    st = fused_rhs(t, y, irel, rel, sea, cache_z[0], cache_l, wind, ld, qdd)
    if st != 0:
        return st
    out[:, 0:6] = y[:, 6:12]
    out[:, 6:12] = qdd
    return 0


@njit(cache=True, fastmath=False)
def rk4_chunk(ts, y0, f0, rel_static, rel, sea, wind, ld, Y, F):
    """Up to ``len(ts) - 1`` RK4 steps from (ts[0], y0) with slope f0 (fun(ts[0], y0)).

    Step k goes from ts[k] with h = ts[k+1] - ts[k] through the stage times ts[k], ts[k] + h/2
    (twice), ts[k] + h, as :class:`floatwind.integrate.RK4`; ``rel`` holds the relative
    kinematics at ts[0] + j h/2 (j = 0 .. 2n) unless ``rel_static``. Writes Y[k+1] (state) and
    F[k+1] (slope at the new state) and returns (steps done, status); it stops before a step
    that needs the Python path or whose state is not finite.
    """
    n = ts.shape[0] - 1
    B = y0.shape[0]
    Y[0] = y0
    F[0] = f0
    cache_t = np.array([np.nan])
    z0 = np.zeros((1, 1), dtype=np.complex128)
    cache_z = [z0]
    cache_l = [np.zeros((1, 1)), np.zeros((1, 1))]
    k2 = np.empty((B, 12))
    k3 = np.empty((B, 12))
    k4 = np.empty((B, 12))
    f_new = np.empty((B, 12))
    for k in range(n):
        t = ts[k]
        h = ts[k + 1] - t
        y = Y[k]
        k1 = F[k]
        i1 = 0 if rel_static else 2 * k + 1
        i2 = 0 if rel_static else 2 * k + 2
        st = _f(
            t + 0.5 * h, y + 0.5 * h * k1, i1, rel, sea, wind, ld, k2, cache_t, cache_z, cache_l
        )
        if st != 0:
            return k, st
        st = _f(
            t + 0.5 * h, y + 0.5 * h * k2, i1, rel, sea, wind, ld, k3, cache_t, cache_z, cache_l
        )
        if st != 0:
            return k, st
        st = _f(t + h, y + h * k3, i2, rel, sea, wind, ld, k4, cache_t, cache_z, cache_l)
        if st != 0:
            return k, st
        y_new = y + (h / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
        for b in range(B):
            for c in range(12):
                if not math.isfinite(y_new[b, c]):
                    return k, 16
        st = _f(t + h, y_new, i2, rel, sea, wind, ld, f_new, cache_t, cache_z, cache_l)
        if st != 0:
            return k, st
        Y[k + 1] = y_new
        F[k + 1] = f_new
    return n, 0
