"""Compiled Morison strip kernels for :class:`floatwind.loads.morison.MorisonMembers`.

Three stages around the two sea queries (elevation at the strip centres, kinematics at the load
points), so any sea object can be used: :func:`strip_geometry` (displaced strip ends, axes, wetting
points), :func:`strip_points` (wetted interval, load and kinematics points) and
:func:`strip_loads` (relative velocity, drag, inertia, centripetal added-mass term, force, moment
about the CM, 6x6 added mass); the member ends likewise in two stages, :func:`end_points` and
:func:`end_sums`. One loop over batch members and strips, the same operations for every member.

These stages are the load's one implementation: the contract kernels :func:`morison_kernel` and
:func:`morison_ends_kernel` (the compiled stepping) query the sea's compiled table between them,
``MorisonMembers.wrench`` queries the sea object (any sea), with the compiled stages or, with
``FLOATWIND_NO_JIT=1``, their Python forms (``py_func``, the tests' reference).

Physics: Morison on a leaning cylinder, Wang (3.22)-(3.26) and (4.18)-(4.19): drag on the relative
normal velocity, C_m on the normal wave acceleration, C_a on the normal structural acceleration
(returned as the added-mass matrix, Wang (5.26) extended).
"""

from __future__ import annotations

import math

import numpy as np

from floatwind._kernels import waves as kwv
from floatwind.jit import njit

__all__ = [
    "end_points",
    "end_sums",
    "morison_ends_kernel",
    "morison_kernel",
    "strip_geometry",
    "strip_loads",
    "strip_points",
]

_TINY = 1e-9


@njit(cache=True, fastmath=False)
def strip_geometry(st, R, r_G, cm, inst):
    """Strip ends p1, p2 (B, S, 3), axes e (B, S, 3), wetting centres (B, S, 2), wetting z (B, S, 2)
    of the strips ``st`` (``MorisonMembers.Strips``).

    ``inst``: instantaneous axis (wetting from the displaced strips) or undisplaced (body frame
    on the inertial frame for the axis and the wetting).
    """
    a_b, b_b, axis_b = st.a_b, st.b_b, st.axis_b
    n_b = R.shape[0]
    n_s = a_b.shape[0]
    p1 = np.empty((n_b, n_s, 3))
    p2 = np.empty((n_b, n_s, 3))
    e = np.empty((n_b, n_s, 3))
    cxy = np.empty((n_b, n_s, 2))
    zz = np.empty((n_b, n_s, 2))
    for b in range(n_b):
        for s in range(n_s):
            for i in range(3):
                da0 = a_b[s, 0] - cm[0]
                da1 = a_b[s, 1] - cm[1]
                da2 = a_b[s, 2] - cm[2]
                db0 = b_b[s, 0] - cm[0]
                db1 = b_b[s, 1] - cm[1]
                db2 = b_b[s, 2] - cm[2]
                ra = da0 * R[b, i, 0] + da1 * R[b, i, 1] + da2 * R[b, i, 2]
                rb = db0 * R[b, i, 0] + db1 * R[b, i, 1] + db2 * R[b, i, 2]
                p1[b, s, i] = r_G[b, i] + ra
                p2[b, s, i] = r_G[b, i] + rb
                if inst:
                    e[b, s, i] = (
                        axis_b[s, 0] * R[b, i, 0]
                        + axis_b[s, 1] * R[b, i, 1]
                        + axis_b[s, 2] * R[b, i, 2]
                    )
                else:
                    e[b, s, i] = axis_b[s, i]
            if inst:
                cxy[b, s, 0] = 0.5 * (p1[b, s, 0] + p2[b, s, 0])
                cxy[b, s, 1] = 0.5 * (p1[b, s, 1] + p2[b, s, 1])
                zz[b, s, 0] = p1[b, s, 2]
                zz[b, s, 1] = p2[b, s, 2]
            else:
                cxy[b, s, 0] = 0.5 * (a_b[s, 0] + b_b[s, 0])
                cxy[b, s, 1] = 0.5 * (a_b[s, 1] + b_b[s, 1])
                zz[b, s, 0] = a_b[s, 2]
                zz[b, s, 1] = b_b[s, 2]
    return p1, p2, e, cxy, zz


@njit(cache=True, fastmath=False)
def strip_points(st, p1, p2, zz, eta, r_G, inst):
    """Wetted fraction (B, S), load points x_g, arms from the CM and kinematics points (B, S, 3)
    of the strips ``st`` (``MorisonMembers.Strips``) for the free-surface height ``eta`` (B, S)."""
    a_b, b_b = st.a_b, st.b_b
    n_b, n_s = p1.shape[0], p1.shape[1]
    frac = np.empty((n_b, n_s))
    x_g = np.empty((n_b, n_s, 3))
    arm = np.empty((n_b, n_s, 3))
    x_k = np.empty((n_b, n_s, 3))
    for b in range(n_b):
        for s in range(n_s):
            z1 = zz[b, s, 0]
            z2 = zz[b, s, 1]
            et = eta[b, s]
            dz = z2 - z1
            if abs(dz) < _TINY:
                lo = 0.0
                hi = 1.0 if 0.5 * (z1 + z2) < et else 0.0
            else:
                cr = (et - z1) / dz
                cr = min(max(cr, 0.0), 1.0)
                if dz > 0.0:
                    lo = 0.0
                    hi = cr
                else:
                    lo = cr
                    hi = 1.0
            frac[b, s] = hi - lo
            sm = 0.5 * (lo + hi)
            for i in range(3):
                xg = p1[b, s, i] + sm * (p2[b, s, i] - p1[b, s, i])
                x_g[b, s, i] = xg
                arm[b, s, i] = xg - r_G[b, i]
                if inst:
                    x_k[b, s, i] = xg
                else:
                    x_k[b, s, i] = a_b[s, i] + sm * (b_b[s, i] - a_b[s, i])
    return frac, x_g, arm, x_k


@njit(cache=True, fastmath=False)
def strip_loads(st, u, du, e, arm, frac, v_G, w):
    """Morison force and moment about the CM (B, 3), added mass (B, 6, 6) and per-strip
    drag, wave-inertia force per unit length and structural velocity (B, S, 3) of the strips
    ``st`` (``MorisonMembers.Strips``) for the wave velocity ``u`` and acceleration ``du``."""
    rho, cd_d, cm_a, rca, length = st.rho, st.cd_d, st.cm_a, st.rca, st.length
    n_b, n_s = e.shape[0], e.shape[1]
    force = np.zeros((n_b, 3))
    moment = np.zeros((n_b, 3))
    added = np.zeros((n_b, 6, 6))
    f_drag = np.empty((n_b, n_s, 3))
    f_inert = np.empty((n_b, n_s, 3))
    v_s = np.empty((n_b, n_s, 3))
    ee = np.empty((3, 3))
    ec = np.empty((3, 3))
    cc = np.empty((3, 3))
    rr = np.empty((3, 3))
    mr = np.empty(3)
    half_rho = 0.5 * rho
    for b in range(n_b):
        w0, w1, w2 = w[b, 0], w[b, 1], w[b, 2]
        ee[:] = 0.0
        ec[:] = 0.0
        cc[:] = 0.0
        rr[:] = 0.0
        mr[:] = 0.0
        total = 0.0
        r2 = 0.0
        for s in range(n_s):
            a0, a1, a2 = arm[b, s, 0], arm[b, s, 1], arm[b, s, 2]
            e0, e1, e2 = e[b, s, 0], e[b, s, 1], e[b, s, 2]
            # v_s = v_G + w x r ; centripetal w x (w x r)
            x0 = w1 * a2 - w2 * a1
            x1 = w2 * a0 - w0 * a2
            x2 = w0 * a1 - w1 * a0
            vs0 = v_G[b, 0] + x0
            vs1 = v_G[b, 1] + x1
            vs2 = v_G[b, 2] + x2
            v_s[b, s, 0] = vs0
            v_s[b, s, 1] = vs1
            v_s[b, s, 2] = vs2
            c0 = w1 * x2 - w2 * x1
            c1 = w2 * x0 - w0 * x2
            c2 = w0 * x1 - w1 * x0
            l_wet = frac[b, s] * length[s]
            # normal relative velocity, drag
            r0 = u[b, s, 0] - vs0
            r1 = u[b, s, 1] - vs1
            r2_ = u[b, s, 2] - vs2
            d = r0 * e0 + r1 * e1 + r2_ * e2
            n0 = r0 - d * e0
            n1 = r1 - d * e1
            n2 = r2_ - d * e2
            speed = math.sqrt(n0 * n0 + n1 * n1 + n2 * n2)
            kd = half_rho * cd_d[s] * speed
            fd0 = kd * n0
            fd1 = kd * n1
            fd2 = kd * n2
            # wave inertia
            d = du[b, s, 0] * e0 + du[b, s, 1] * e1 + du[b, s, 2] * e2
            ki = rho * cm_a[s]
            fi0 = ki * (du[b, s, 0] - d * e0)
            fi1 = ki * (du[b, s, 1] - d * e1)
            fi2 = ki * (du[b, s, 2] - d * e2)
            f_drag[b, s, 0] = fd0
            f_drag[b, s, 1] = fd1
            f_drag[b, s, 2] = fd2
            f_inert[b, s, 0] = fi0
            f_inert[b, s, 1] = fi1
            f_inert[b, s, 2] = fi2
            m = rca[s] * l_wet
            d = c0 * e0 + c1 * e1 + c2 * e2
            f0 = (fd0 + fi0) * l_wet - m * (c0 - d * e0)
            f1 = (fd1 + fi1) * l_wet - m * (c1 - d * e1)
            f2 = (fd2 + fi2) * l_wet - m * (c2 - d * e2)
            force[b, 0] += f0
            force[b, 1] += f1
            force[b, 2] += f2
            moment[b, 0] += a1 * f2 - a2 * f1
            moment[b, 1] += a2 * f0 - a0 * f2
            moment[b, 2] += a0 * f1 - a1 * f0
            # added mass accumulators, c = e x r
            q0 = e1 * a2 - e2 * a1
            q1 = e2 * a0 - e0 * a2
            q2 = e0 * a1 - e1 * a0
            ev = (e0, e1, e2)
            qv = (q0, q1, q2)
            av = (a0, a1, a2)
            total += m
            for i in range(3):
                me = m * ev[i]
                mq = m * qv[i]
                mri = m * av[i]
                mr[i] += mri
                r2 += mri * av[i]
                for j in range(3):
                    ee[i, j] += me * ev[j]
                    ec[i, j] += me * qv[j]
                    cc[i, j] += mq * qv[j]
                    rr[i, j] += mri * av[j]
        for i in range(3):
            for j in range(3):
                eye = 1.0 if i == j else 0.0
                added[b, i, j] = total * eye - ee[i, j]
                added[b, 3 + i, 3 + j] = r2 * eye - rr[i, j] - cc[i, j]
        # a12 = ec - [mr]x
        a12 = ec.copy()
        a12[0, 1] += mr[2]
        a12[0, 2] -= mr[1]
        a12[1, 0] -= mr[2]
        a12[1, 2] += mr[0]
        a12[2, 0] += mr[1]
        a12[2, 1] -= mr[0]
        for i in range(3):
            for j in range(3):
                added[b, i, 3 + j] = a12[i, j]
                added[b, 3 + j, i] = a12[i, j]
    return force, moment, added, f_drag, f_inert, v_s


# --- the compiled form of MorisonMembers (floatwind._kernels.contract) ---


@njit(cache=True, fastmath=False)
def _series_weights(n_rows, sea_dt, t):
    """Row and cubic Lagrange weights in time of an expansion table (ExpansionSea._series)."""
    s_all = t / sea_dt
    j = math.floor(s_all)
    s = s_all - j
    w0 = -s * (s - 1) * (s - 2) / 6.0
    w1 = (s + 1) * (s - 1) * (s - 2) / 2.0
    w2 = -(s + 1) * s * (s - 2) / 2.0
    w3 = (s + 1) * s * (s - 1) / 6.0
    j0 = (int(j) - 1) % n_rows
    return j0, w0, w1, w2, w3


@njit(cache=True, fastmath=False)
def _sea_at(sea, sc, t, lanes):
    """The expansion series at ``t`` into the load's scratch (computed once per time: the two
    middle RK4 stages share it): ``sc.z`` (R, C) complex, or member-contiguous ``sc.zr``,
    ``sc.zi`` (C, R) for the lane kernels."""
    if t == sc.t[0]:
        return
    j0, w0, w1, w2, w3 = _series_weights(sea.table.shape[0], sea.dt, t)
    if lanes:
        kwv.expansion_series_lanes_into(sea.table, j0, w0, w1, w2, w3, sc.zr, sc.zi)
    else:
        kwv.expansion_series_into(sea.table, j0, w0, w1, w2, w3, sc.z)
    sc.t[0] = t


@njit(cache=True, fastmath=False)
def _sea_kinematics(sea, sc, x_k, eta_k, lanes):
    """Wave velocity and acceleration (B, P, 3) at ``x_k`` from a SeaTable and its scratch
    series (lane kernels from B = LANES_MIN, the same bits as the scalar ones)."""
    if lanes:
        return kwv.expansion_kinematics_lanes(sc.zr, sc.zi, x_k, eta_k, sea)
    return kwv.expansion_kinematics_eta(sc.z, x_k, eta_k, sea)


@njit(cache=True, fastmath=False)
def morison_kernel(p, t, kin, y, dy, force, moment, added):
    """:class:`floatwind.loads.morison.MorisonMembers` strips, Wang (3.22)-(3.26), (4.18)-(4.19),
    waves from the load's expansion table ``p.sea`` (``environment.compiled.SeaTable``) or still
    water. The member ends are the load's second kernel, :func:`morison_ends_kernel`."""
    B = force.shape[0]
    body = p.body
    inst = p.instantaneous
    st = p.strips
    sea = p.sea
    sc = p.scratch
    lanes = B >= kwv.LANES_MIN
    Rb = kin.R_b2g[:, body].copy()
    rGb = kin.r_G[:, body].copy()
    vGb = kin.v_G[:, body].copy()
    wb = kin.w_b[:, body].copy()
    cmb = kin.cm_b[body].copy()
    p1, p2, e, cxy, zz = strip_geometry(st, Rb, rGb, cmb, inst)
    S = p1.shape[1]
    if sea.active:
        _sea_at(sea, sc, t, lanes)
    if p.still_surface or not sea.active:
        eta = np.zeros((B, S))
    else:
        # along the chains of equally spaced strips (straight members); the same bits alone
        # and in a batch
        if lanes:
            eta = kwv.expansion_eta_chains(
                sc.zr, sc.zi, cxy, sea.cos, sea.sin, sea.s_eta_p, sea.grp, sea.eta_runs,
                sea.k_eta.shape[0], p.chain_start, p.chain_count,
            )  # fmt: skip
        else:
            eta = kwv.expansion_eta_chains_scalar(
                sc.z, cxy, sea.cos, sea.sin, sea.s_eta_p, sea.grp, sea.eta_runs,
                sea.k_eta.shape[0], p.chain_start, p.chain_count,
            )  # fmt: skip
    frac, x_g, arm, x_k = strip_points(st, p1, p2, zz, eta, rGb, inst)
    if sea.active:
        # the elevation at a fully wet strip's load point is the wetting elevation at its
        # centre (the same point): reuse it instead of summing the series again
        eta_k = np.full((B, S), np.nan)
        if not p.still_surface:
            for b in range(B):
                for j in range(S):
                    if frac[b, j] == 1.0:
                        eta_k[b, j] = eta[b, j]
        u, du = _sea_kinematics(sea, sc, x_k, eta_k, lanes)
    else:
        u = np.zeros(x_k.shape)
        du = np.zeros(x_k.shape)
    f, m, am, _fd, _fi, _vs = strip_loads(st, u, du, e, arm, frac, vGb, wb)
    for b in range(B):
        for k in range(3):
            force[b, body, k] += f[b, k]
            moment[b, body, k] += m[b, k]
        for r in range(6):
            for c in range(6):
                added[b, body, r, c] += am[b, r, c]
    return 0


@njit(cache=True, fastmath=False)
def morison_ends_kernel(p, t, kin, y, dy, force, moment, added):
    """The member-end (axial) loads of :class:`floatwind.loads.morison.MorisonMembers` on the
    load's ``Ends`` record (:func:`end_points`, the sea from the ends' own expansion table
    ``p.sea`` or still water, :func:`end_sums`)."""
    body = p.body
    Rb = kin.R_b2g[:, body].copy()
    rGb = kin.r_G[:, body].copy()
    vGb = kin.v_G[:, body].copy()
    wb = kin.w_b[:, body].copy()
    cmb = kin.cm_b[body].copy()
    ends = p.ends
    B = Rb.shape[0]
    E = ends.pos_b.shape[0]
    sea = p.sea
    sc = p.scratch
    lanes = B >= kwv.LANES_MIN
    x_g, x_k, e = end_points(ends, Rb, rGb, cmb, p.instantaneous)
    eta = np.zeros((B, E))
    eta_k = np.full((B, E), np.nan)
    if sea.active:
        _sea_at(sea, sc, t, lanes)
        if not p.still_surface:
            xy = np.empty((B, E, 2))
            for b in range(B):
                for j in range(E):
                    xy[b, j, 0] = x_k[b, j, 0]
                    xy[b, j, 1] = x_k[b, j, 1]
            if lanes:
                eta = kwv.expansion_eta_lanes(
                    sc.zr, sc.zi, xy, sea.cos, sea.sin, sea.s_eta_p, sea.grp, sea.eta_runs,
                    sea.k_eta.shape[0],
                )  # fmt: skip
            else:
                eta = kwv.expansion_eta(sc.z, xy, sea.cos, sea.sin, sea.s_eta_p, sea.grp, sea.k_eta)
            eta_k[:, :] = eta  # the kinematics point is the wetting point
        u, du = _sea_kinematics(sea, sc, x_k, eta_k, lanes)
    else:
        u = np.zeros((B, E, 3))
        du = np.zeros((B, E, 3))
    fe, me, ae = end_sums(ends, x_g, x_k, e, eta, u, du, rGb, vGb, wb)
    for b in range(force.shape[0]):
        for k in range(3):
            force[b, body, k] += fe[b, k]
            moment[b, body, k] += me[b, k]
        for r in range(6):
            for c in range(6):
                added[b, body, r, c] += ae[b, r, c]
    return 0


@njit(cache=True, fastmath=False)
def end_points(ends, Rb, rGb, cmb, inst):
    """Load points x_g, kinematics (and wetting) points x_k and axes e (B, E, 3) of the member
    ends ``ends`` (``MorisonMembers.EndSet``); ``inst`` as in :func:`strip_geometry`."""
    B = Rb.shape[0]
    E = ends.pos_b.shape[0]
    x_g = np.empty((B, E, 3))
    x_k = np.empty((B, E, 3))
    e = np.empty((B, E, 3))
    for b in range(B):
        for j in range(E):
            d0 = ends.pos_b[j, 0] - cmb[0]
            d1 = ends.pos_b[j, 1] - cmb[1]
            d2 = ends.pos_b[j, 2] - cmb[2]
            for i in range(3):
                x_g[b, j, i] = rGb[b, i] + (d0 * Rb[b, i, 0] + d1 * Rb[b, i, 1] + d2 * Rb[b, i, 2])
                if inst:
                    e[b, j, i] = (
                        ends.axis_b[j, 0] * Rb[b, i, 0]
                        + ends.axis_b[j, 1] * Rb[b, i, 1]
                        + ends.axis_b[j, 2] * Rb[b, i, 2]
                    )
                    x_k[b, j, i] = x_g[b, j, i]
                else:
                    e[b, j, i] = ends.axis_b[j, i]
                    x_k[b, j, i] = ends.pos_b[j, i]
    return x_g, x_k, e


@njit(cache=True, fastmath=False)
def end_sums(ends, x_g, x_k, e, eta, u, du, rGb, vGb, wb):
    """Axial loads at member ends (heave plates): axial drag ``0.5 rho C_d,ax A_p |v_ra| v_ra``
    and the axial wave-acceleration force ``rho C_a,ax V_ref a_wave`` minus its centripetal
    structural part, while the end is below the free surface ``eta`` (B, E); force, moment about
    the CM (B, 3) and the axial added mass ``sum m [[e e^T, -e c^T], [-c e^T, c c^T]]``,
    ``c = e x r`` (B, 6, 6). ``u``, ``du`` (B, E, 3): wave velocity and acceleration at ``x_k``."""
    B = x_g.shape[0]
    E = x_g.shape[1]
    rho = ends.rho
    force = np.zeros((B, 3))
    moment = np.zeros((B, 3))
    added = np.zeros((B, 6, 6))
    ee = np.empty((3, 3))
    ec = np.empty((3, 3))
    cc = np.empty((3, 3))
    for b in range(B):
        w0, w1, w2 = wb[b, 0], wb[b, 1], wb[b, 2]
        ee[:] = 0.0
        ec[:] = 0.0
        cc[:] = 0.0
        for j in range(E):
            wet = 1.0 if x_k[b, j, 2] < eta[b, j] else 0.0
            a0 = x_g[b, j, 0] - rGb[b, 0]
            a1 = x_g[b, j, 1] - rGb[b, 1]
            a2 = x_g[b, j, 2] - rGb[b, 2]
            e0, e1, e2 = e[b, j, 0], e[b, j, 1], e[b, j, 2]
            x0 = w1 * a2 - w2 * a1
            x1 = w2 * a0 - w0 * a2
            x2 = w0 * a1 - w1 * a0
            vs0 = vGb[b, 0] + x0
            vs1 = vGb[b, 1] + x1
            vs2 = vGb[b, 2] + x2
            c0 = w1 * x2 - w2 * x1
            c1 = w2 * x0 - w0 * x2
            c2 = w0 * x1 - w1 * x0
            v_ra = (u[b, j, 0] - vs0) * e0 + (u[b, j, 1] - vs1) * e1 + (u[b, j, 2] - vs2) * e2
            a_wave = du[b, j, 0] * e0 + du[b, j, 1] * e1 + du[b, j, 2] * e2
            a_cen = c0 * e0 + c1 * e1 + c2 * e2
            m = rho * ends.ca[j] * ends.vref[j] * wet
            f_ax = wet * 0.5 * rho * ends.cd[j] * ends.area[j] * abs(v_ra) * v_ra
            f_ax = f_ax + m * (a_wave - a_cen)
            f0 = f_ax * e0
            f1 = f_ax * e1
            f2 = f_ax * e2
            force[b, 0] += f0
            force[b, 1] += f1
            force[b, 2] += f2
            moment[b, 0] += a1 * f2 - a2 * f1
            moment[b, 1] += a2 * f0 - a0 * f2
            moment[b, 2] += a0 * f1 - a1 * f0
            q0 = e1 * a2 - e2 * a1
            q1 = e2 * a0 - e0 * a2
            q2 = e0 * a1 - e1 * a0
            ev = (e0, e1, e2)
            qv = (q0, q1, q2)
            for i in range(3):
                me = m * ev[i]
                mq = m * qv[i]
                for k in range(3):
                    ee[i, k] += me * ev[k]
                    ec[i, k] += me * qv[k]
                    cc[i, k] += mq * qv[k]
        for i in range(3):
            for k in range(3):
                added[b, i, k] = ee[i, k]
                added[b, 3 + i, 3 + k] = cc[i, k]
                added[b, i, 3 + k] = -ec[i, k]
                added[b, 3 + k, i] = -ec[i, k]
    return force, moment, added
