"""Compiled kernels for the small loads: linear matrices, constant force, hydrostatics, thrust.

Each load's contract kernel (``*_kernel``) and the stages it is made of take the load's params
record (read by name) and the batched kinematics (``contract.BodyKinematics``) and give the force
and moment about each body CM (B, N, 3, inertial), zeros on the other bodies, plus the quantities
the output channels need. One loop over batch members with the same operations for every member
(bit-identical alone and inside a batch). They are the loads' one implementation: each load's
``wrench`` calls the same kernel or stages (their Python forms, ``py_func``, with
``FLOATWIND_NO_JIT=1``: the tests' reference).
"""

from __future__ import annotations

import math

import numpy as np

from floatwind._kernels import wind as kwi
from floatwind._kernels.status import FAIRLEAD_AT_ANCHOR
from floatwind.jit import njit

__all__ = [
    "hydrostatics_slices",
    "constant_force",
    "hydrostatics_classify",
    "hydrostatics_wrench",
    "linear_matrices",
    "taut_kernel",
    "thrust_loads",
    "thrust_point",
]

_TINY = 1e-12


@njit(cache=True, fastmath=False)
def _point(r_G, R, v_G, w, cm, p, pos, vel):
    """Position and velocity of body point ``p`` (body frame) for one member and body."""
    d0, d1, d2 = p[0] - cm[0], p[1] - cm[1], p[2] - cm[2]
    g0 = R[0, 0] * d0 + R[0, 1] * d1 + R[0, 2] * d2
    g1 = R[1, 0] * d0 + R[1, 1] * d1 + R[1, 2] * d2
    g2 = R[2, 0] * d0 + R[2, 1] * d1 + R[2, 2] * d2
    pos[0] = r_G[0] + g0
    pos[1] = r_G[1] + g1
    pos[2] = r_G[2] + g2
    vel[0] = v_G[0] + (w[1] * g2 - w[2] * g1)
    vel[1] = v_G[1] + (w[2] * g0 - w[0] * g2)
    vel[2] = v_G[2] + (w[0] * g1 - w[1] * g0)


@njit(cache=True, fastmath=False)
def _add_point_force(r_G, pos, f, force, moment):
    """Force ``f`` at ``pos``: add to the body force and to its moment about the CM ``r_G``."""
    a0, a1, a2 = pos[0] - r_G[0], pos[1] - r_G[1], pos[2] - r_G[2]
    force[0] += f[0]
    force[1] += f[1]
    force[2] += f[2]
    moment[0] += a1 * f[2] - a2 * f[1]
    moment[1] += a2 * f[0] - a0 * f[2]
    moment[2] += a0 * f[1] - a1 * f[0]


@njit(cache=True, fastmath=False, inline="always", _nrt=False)
def _linear_member(p, kin, b, pos, vel, qv, qdb, fdb, F):
    """Member ``b`` of :func:`linear_matrices`: its point's position ``pos`` and the force and
    moment about that point ``F`` (6,) (``vel``, ``qv``, ``qdb``, ``fdb``: scratch)."""
    body, C, Bd, f0 = p.body, p.C, p.Bd, p.f0
    R = kin.R_b2g[b, body]
    w = kin.w_b[b, body]
    _point(kin.r_G[b, body], R, kin.v_G[b, body], w, kin.cm_b[body], p.point_b, pos, vel)
    for k in range(3):
        qv[k] = pos[k] - p.point0_g[k]
    s = -R[2, 0]
    s = min(max(s, -1.0), 1.0)
    qv[3] = math.atan2(R[2, 1], R[2, 2])
    qv[4] = math.asin(s)
    qv[5] = math.atan2(R[1, 0], R[0, 0])
    for k in range(3):
        qdb[k] = R[0, k] * vel[0] + R[1, k] * vel[1] + R[2, k] * vel[2]
        qdb[3 + k] = R[0, k] * w[0] + R[1, k] * w[1] + R[2, k] * w[2]
    for r in range(6):
        acc = 0.0
        for c in range(6):
            acc += Bd[r, c] * qdb[c]
        fdb[r] = acc
    for r in range(6):
        acc = 0.0
        for c in range(6):
            acc += C[r, c] * qv[c]
        F[r] = f0[r] - acc
    if p.yawed:  # rotate (f0 - C q) by the yaw about z, forces and moments
        cy, sy = math.cos(qv[5]), math.sin(qv[5])
        for j in (0, 3):
            a, b2 = F[j], F[j + 1]
            F[j] = cy * a - sy * b2
            F[j + 1] = sy * a + cy * b2
    for r in range(6):
        j = 3 * (r // 3)
        k = r - j
        F[r] -= R[k, 0] * fdb[j] + R[k, 1] * fdb[j + 1] + R[k, 2] * fdb[j + 2]


@njit(cache=True, fastmath=False)
def linear_matrices(p, kin):
    """:class:`floatwind.loads.simple.LinearMatrices` (HydroDyn AddCLin/AddBLin/AddF0; with
    ``p.yawed`` the load ``f0 - C q`` acts in the frame yawed by the body's Z-Y-X yaw, as
    HydroDyn v5 applies its WAMIT hydrostatics): force, moment (B, N, 3)."""
    r_G = kin.r_G
    body = p.body
    B, N = r_G.shape[0], r_G.shape[1]
    force = np.zeros((B, N, 3))
    moment = np.zeros((B, N, 3))
    pos = np.empty(3)
    vel = np.empty(3)
    qv = np.empty(6)
    qdb = np.empty(6)
    fdb = np.empty(6)
    F = np.empty(6)
    for b in range(B):
        _linear_member(p, kin, b, pos, vel, qv, qdb, fdb, F)
        _add_point_force(r_G[b, body], pos, F, force[b, body], moment[b, body])
        for k in range(3):
            moment[b, body, k] += F[3 + k]
    return force, moment


@njit(cache=True, fastmath=False)
def constant_force(p, kin):
    """:class:`floatwind.loads.simple.ConstantForce` (fixed inertial force at a body point):
    force, moment (B, N, 3)."""
    r_G, R_b2g, cm_b = kin.r_G, kin.R_b2g, kin.cm_b
    body, point_b, f, m = p.body, p.point_b, p.force, p.moment
    B, N = r_G.shape[0], r_G.shape[1]
    force = np.zeros((B, N, 3))
    moment = np.zeros((B, N, 3))
    pos = np.empty(3)
    vel = np.empty(3)
    zero = np.zeros(3)
    for b in range(B):
        _point(r_G[b, body], R_b2g[b, body], zero, zero, cm_b[body], point_b, pos, vel)
        _add_point_force(r_G[b, body], pos, f, force[b, body], moment[b, body])
        for k in range(3):
            moment[b, body, k] += m[k]
    return force, moment


@njit(cache=True, fastmath=False)
def hydrostatics_slices(p, vol, cen, sliced, c, n, m):
    """Fill ``vol`` / ``cen`` of the entries flagged in ``sliced`` (members cut by the water
    plane that :func:`hydrostatics_classify` cannot close: tapered, or the plane through an end
    cap) by exact slice integration: analytic pieces between the levels where the cut line
    touches the rim, each integrated by a Gauss-Legendre rule in z = mid + half sin(pi s / 2)
    (the (z - z_cut)^(3/2) behaviour at the touching levels becomes analytic in s; nodes
    ``p.slice_x`` = sin(pi x_g / 2), weights ``p.slice_w``: ``hydrostatics._SIN_X``, ``_SIN_W``),
    the area and first moment of the wet disc segment exact at every level. ``p``:
    ``Hydrostatics.Params``; ``c``, ``n``, ``m`` from :func:`hydrostatics_classify`."""
    z0, z1, r0, r1, axis_xy = p.z0, p.z1, p.r0, p.r1, p.axis_xy
    sx, sw = p.slice_x, p.slice_w
    B, M = sliced.shape
    edges = np.empty(4)
    for b in range(B):
        for j in range(M):
            if not sliced[b, j]:
                continue
            cb = c[b, j]
            n3 = n[b, 2]
            mb = m[b]
            za, zb, ra, rb = z0[j], z1[j], r0[j], r1[j]
            k = (rb - ra) / (zb - za)
            edges[0] = za
            edges[3] = zb
            for i in range(2):
                sgn = 1.0 if i == 0 else -1.0
                den = n3 + sgn * mb * k
                num = -cb - sgn * mb * (ra - k * za)
                zc = num / den if abs(den) > _TINY else za
                edges[1 + i] = min(max(zc, za), zb)
            # sort the four levels (insertion)
            for i in range(1, 4):
                v = edges[i]
                q = i - 1
                while q >= 0 and edges[q] > v:
                    edges[q + 1] = edges[q]
                    q -= 1
                edges[q + 1] = v
            vertical = mb <= _TINY
            volume = 0.0
            first_sum = 0.0
            zsum = 0.0
            for piece in range(3):
                lo = edges[piece]
                hi = edges[piece + 1]
                half = 0.5 * (hi - lo)
                mid = 0.5 * (hi + lo)
                for g in range(sx.shape[0]):
                    z = mid + half * sx[g]
                    w = half * sw[g]
                    r = ra + k * (z - za)
                    level = cb + n3 * z
                    if vertical:
                        big = 10.0 * (abs(r) + 1.0)
                        d = big if level < 0.0 else -big
                    else:
                        d = -level / mb
                    dc = min(max(d, -r), r)
                    root = math.sqrt(max(r * r - dc * dc, 0.0))
                    ratio = min(max(dc / (r if r > 0 else 1.0), -1.0), 1.0)
                    area = math.pi * r * r - r * r * math.acos(ratio) + dc * root
                    first = -(2.0 / 3.0) * root**3
                    volume += w * area
                    first_sum += w * first
                    zsum += w * area * z
            safe = volume if volume > 0.0 else 1.0
            xi_c = first_sum / safe
            z_c = zsum / safe
            # the centroid back in body axes: xi along the horizontal projection of the normal
            if mb > _TINY:
                u0 = n[b, 0] / mb
                u1 = n[b, 1] / mb
            else:
                u0 = 0.0
                u1 = 0.0
            vol[b, j] = volume
            cen[b, j, 0] = axis_xy[j, 0] + u0 * xi_c
            cen[b, j, 1] = axis_xy[j, 1] + u1 * xi_c
            cen[b, j, 2] = z_c


@njit(cache=True, fastmath=False)
def hydrostatics_classify(p, kin):
    """Member classification and volumes (Wang 3.9-3.15) of the members of ``p``
    (``Hydrostatics.Params``) at the kinematics ``kin`` (``BodyKinematics``) except the sliced
    members: returns origin (B, 3), vol (B, M), cen (B, M, 3) (body frame), sliced (B, M),
    c (B, M) and n (B, 3), m (B,) for :func:`hydrostatics_slices` of the flagged entries."""
    R_b2g, r_G, cm_b, body = kin.R_b2g, kin.r_G, kin.cm_b, p.body
    z0, z1, r0, r1, axis_xy = p.z0, p.z1, p.r0, p.r1, p.axis_xy
    is_cyl, full_volume, full_centroid = p.is_cylinder, p.full_volume, p.full_centroid
    B = R_b2g.shape[0]
    M = z0.shape[0]
    origin = np.empty((B, 3))
    vol = np.zeros((B, M))
    cen = np.zeros((B, M, 3))
    sliced = np.zeros((B, M), dtype=np.bool_)
    cc = np.empty((B, M))
    nn = np.empty((B, 3))
    mm = np.empty(B)
    cm = cm_b[body]
    for b in range(B):
        R = R_b2g[b, body]
        for k in range(3):
            origin[b, k] = r_G[b, body, k] - (R[k, 0] * cm[0] + R[k, 1] * cm[1] + R[k, 2] * cm[2])
        n0, n1, n3 = R[2, 0], R[2, 1], R[2, 2]
        nn[b, 0], nn[b, 1], nn[b, 2] = n0, n1, n3
        m = math.sqrt(n0 * n0 + n1 * n1)
        mm[b] = m
        for j in range(M):
            c = origin[b, 2] + (n0 * axis_xy[j, 0] + n1 * axis_xy[j, 1])
            cc[b, j] = c
            zc0 = c + n3 * z0[j]
            zc1 = c + n3 * z1[j]
            zmax = max(zc0 + m * r0[j], zc1 + m * r1[j])
            zmin = min(zc0 - m * r0[j], zc1 - m * r1[j])
            if zmax <= 0.0:
                vol[b, j] = full_volume[j]
                for k in range(3):
                    cen[b, j, k] = full_centroid[j, k]
            elif zmin < 0.0:
                if is_cyl[j] and n3 > _TINY and zc0 + m * r0[j] <= 0.0 and zc1 - m * r1[j] >= 0.0:
                    h1 = -c / n3 - z0[j]
                    if not h1 > 0.0:
                        h1 = 1.0
                    r2 = r0[j] * r0[j]
                    vol[b, j] = math.pi * r2 * h1
                    cen[b, j, 0] = axis_xy[j, 0] - n0 * r2 / (4.0 * n3 * h1)
                    cen[b, j, 1] = axis_xy[j, 1] - n1 * r2 / (4.0 * n3 * h1)
                    cen[b, j, 2] = z0[j] + h1 / 2.0 + r2 * m * m / (8.0 * n3 * n3 * h1)
                else:
                    sliced[b, j] = True
    return origin, vol, cen, sliced, cc, nn, mm


@njit(cache=True, fastmath=False)
def hydrostatics_wrench(p, kin, origin, vol, cen):
    """Buoyancy force and moment about the CM (B, N, 3), volume (B,), centre of buoyancy r_B
    (B, 3) and the moment about the body reference point (B, 3), from the members' volumes and
    centroids of :func:`hydrostatics_classify` and :func:`hydrostatics_slices`."""
    R_b2g, r_G, body, rho_g = kin.R_b2g, kin.r_G, p.body, p.rho_g
    n_bodies = r_G.shape[1]
    B, M = vol.shape[0], vol.shape[1]
    force = np.zeros((B, n_bodies, 3))
    moment = np.zeros((B, n_bodies, 3))
    volume = np.empty(B)
    r_B = np.empty((B, 3))
    m_ref = np.empty((B, 3))
    cb = np.empty(3)
    for b in range(B):
        v = 0.0
        for j in range(M):
            v += vol[b, j]
        volume[b] = v
        safe = v if v > 0.0 else 1.0
        for k in range(3):
            s = 0.0
            for j in range(M):
                s += vol[b, j] * cen[b, j, k]
            cb[k] = s / safe
        R = R_b2g[b, body]
        for k in range(3):
            r_B[b, k] = origin[b, k] + (R[k, 0] * cb[0] + R[k, 1] * cb[1] + R[k, 2] * cb[2])
        fz = rho_g * v
        force[b, body, 2] = fz
        a0 = r_B[b, 0] - r_G[b, body, 0]
        a1 = r_B[b, 1] - r_G[b, body, 1]
        moment[b, body, 0] = a1 * fz
        moment[b, body, 1] = -a0 * fz
        moment[b, body, 2] = 0.0
        a0 = r_B[b, 0] - origin[b, 0]
        a1 = r_B[b, 1] - origin[b, 1]
        m_ref[b, 0] = a1 * fz
        m_ref[b, 1] = -a0 * fz
        m_ref[b, 2] = 0.0
    return force, moment, volume, r_B, m_ref


@njit(cache=True, fastmath=False)
def thrust_point(rotor, kin):
    """Rotor centre position and velocity (B, 3) and downwind shaft axis (B, 3), inertial, of the
    rotor ``rotor`` (``RotorThrust.Rotor``) for the kinematics ``kin`` (``BodyKinematics``)."""
    r_G, R_b2g, v_G, w_b, cm_b = kin.r_G, kin.R_b2g, kin.v_G, kin.w_b, kin.cm_b
    body, centre_b, axis_b = rotor.body, rotor.centre_b, rotor.axis_b
    B = r_G.shape[0]
    pos = np.empty((B, 3))
    vel = np.empty((B, 3))
    n_g = np.empty((B, 3))
    for b in range(B):
        R = R_b2g[b, body]
        _point(r_G[b, body], R, v_G[b, body], w_b[b, body], cm_b[body], centre_b, pos[b], vel[b])
        for k in range(3):
            n_g[b, k] = R[k, 0] * axis_b[0] + R[k, 1] * axis_b[1] + R[k, 2] * axis_b[2]
    return pos, vel, n_g


@njit(cache=True, fastmath=False)
def _interp(x, xp, fp):
    n = xp.shape[0]
    if x <= xp[0]:
        return fp[0]
    if x >= xp[n - 1]:
        return fp[n - 1]
    lo, hi = 0, n - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if xp[mid] <= x:
            lo = mid
        else:
            hi = mid
    slope = (fp[lo + 1] - fp[lo]) / (xp[lo + 1] - xp[lo])
    return slope * (x - xp[lo]) + fp[lo]


@njit(cache=True, fastmath=False)
def thrust_loads(rotor, r_G, n_bodies, pos, vel, n_g, wind):
    """Thrust (3.19)-(3.21) and torque about the body CM (B, N, 3) and the channel values
    (B, 10): thrust, power, C_T, C_p, V_w, V_rb, F_x, F_y, F_z (inertial), unused; of the rotor
    ``rotor`` (``RotorThrust.Rotor``) at ``pos`` moving with ``vel``, shaft axis ``n_g`` (B, 3),
    in the wind ``wind`` (B, 3); ``r_G`` (B, N, 3) the body CMs."""
    body, variable, ct_v, ct_c = rotor.body, rotor.variable, rotor.ct_speed, rotor.ct_value
    ct_fixed, q, torque, cp_ct = rotor.ct_fixed, rotor.q_area, rotor.torque, rotor.cp_over_ct
    B = pos.shape[0]
    force = np.zeros((B, n_bodies, 3))
    moment = np.zeros((B, n_bodies, 3))
    ch = np.zeros((B, 10))
    f = np.empty(3)
    for b in range(B):
        v_w = wind[b, 0] * n_g[b, 0] + wind[b, 1] * n_g[b, 1] + wind[b, 2] * n_g[b, 2]
        v_b = vel[b, 0] * n_g[b, 0] + vel[b, 1] * n_g[b, 1] + vel[b, 2] * n_g[b, 2]
        v_rb = v_w - v_b
        if v_rb > 0.0:
            v_pos = v_rb
            ct = _interp(v_pos, ct_v, ct_c) if variable else ct_fixed
        else:
            v_pos = 0.0
            ct = 0.0
        thrust = q * ct * v_pos**2
        for k in range(3):
            f[k] = thrust * n_g[b, k]
        _add_point_force(r_G[b, body], pos[b], f, force[b, body], moment[b, body])
        for k in range(3):
            moment[b, body, k] += torque * n_g[b, k]
        cp = cp_ct * ct
        ch[b, 0] = thrust
        ch[b, 1] = q * cp * v_pos**3
        ch[b, 2] = ct
        ch[b, 3] = cp
        ch[b, 4] = v_w
        ch[b, 5] = v_rb
        ch[b, 6] = f[0]
        ch[b, 7] = f[1]
        ch[b, 8] = f[2]
    return force, moment, ch


# --- the loads' compiled forms (floatwind._kernels.contract: one signature for every load) ---


@njit(cache=True, fastmath=False)
def _accumulate(force, moment, f, m):
    """force += f, moment += m (B, N, 3), member by member."""
    for b in range(force.shape[0]):
        for n in range(force.shape[1]):
            for k in range(3):
                force[b, n, k] += f[b, n, k]
                moment[b, n, k] += m[b, n, k]


@njit(cache=True, fastmath=False, _nrt=False)
def gravity_kernel(p, t, kin, y, dy, force, moment, added):
    """:class:`floatwind.loads.simple.Gravity`: -m_i g e_z at each CM (``p.weights`` = m_i g)."""
    w = p.weights
    for b in range(force.shape[0]):
        for n in range(force.shape[1]):
            force[b, n, 2] += -w[n]
    return 0


@njit(cache=True, fastmath=False)
def constant_force_kernel(p, t, kin, y, dy, force, moment, added):
    """:class:`floatwind.loads.simple.ConstantForce`."""
    f, m = constant_force(p, kin)
    _accumulate(force, moment, f, m)
    return 0


@njit(cache=True, fastmath=False, _nrt=False)
def linear_matrices_kernel(p, t, kin, y, dy, force, moment, added):
    """:class:`floatwind.loads.simple.LinearMatrices` (HydroDyn AddCLin/AddBLin/AddF0): the
    operations of :func:`linear_matrices` then ``_accumulate`` (the member's wrench on zeros,
    then added), on the scratch ``p.work`` (6, 6): allocates nothing (compiled without
    reference counting; docs/performance.md, "The rigid step without glue")."""
    body = p.body
    s = p.work
    pos, vel, F = s[0, 0:3], s[0, 3:6], s[5]
    r_G = kin.r_G
    for b in range(force.shape[0]):
        _linear_member(p, kin, b, pos, vel, s[1], s[2], s[3], F)
        rG = r_G[b, body]
        a0, a1, a2 = pos[0] - rG[0], pos[1] - rG[1], pos[2] - rG[2]
        m0 = 0.0
        m1 = 0.0
        m2 = 0.0
        m0 += a1 * F[2] - a2 * F[1]  # _add_point_force on zeros
        m1 += a2 * F[0] - a0 * F[2]
        m2 += a0 * F[1] - a1 * F[0]
        m0 += F[3]
        m1 += F[4]
        m2 += F[5]
        for k in range(3):
            f = 0.0
            f += F[k]
            force[b, body, k] += f
        moment[b, body, 0] += m0
        moment[b, body, 1] += m1
        moment[b, body, 2] += m2
    return 0


@njit(cache=True, fastmath=False)
def hydrostatics_kernel(p, t, kin, y, dy, force, moment, added):
    """:class:`floatwind.loads.hydrostatics.Hydrostatics` (Wang 3.9-3.12 by members)."""
    origin, vol, cen, sliced, hc, hn, hm = hydrostatics_classify(p, kin)
    hydrostatics_slices(p, vol, cen, sliced, hc, hn, hm)
    f, m, _v, _rb, _mr = hydrostatics_wrench(p, kin, origin, vol, cen)
    _accumulate(force, moment, f, m)
    return 0


@njit(cache=True, fastmath=False)
def taut_kernel(p, t, kin, y, dy, force, moment, added):
    """:class:`floatwind.loads.mooring.TautMooring`, Wang (3.16)-(3.18): adds the line forces at
    the fairleads to ``force``/``moment`` (B, N, 3), writes the line tensions ``p.tension``
    (B, L); returns 8 if a fairlead reached its anchor (the load's ``wrench`` raises the error),
    else 0."""
    r_G, R_b2g, v_G, w_b, cm_b = kin.r_G, kin.R_b2g, kin.v_G, kin.w_b, kin.cm_b
    body, fair_b, anchor, k = p.body, p.fairlead_b, p.anchor_g, p.stiffness
    length, pre, damp, compress = p.length, p.pretension, p.damping, p.allow_compression
    tension = p.tension
    B = r_G.shape[0]
    L = fair_b.shape[0]
    pos = np.empty(3)
    vel = np.empty(3)
    f = np.empty(3)
    for b in range(B):
        for i in range(L):
            _point(
                r_G[b, body],
                R_b2g[b, body],
                v_G[b, body],
                w_b[b, body],
                cm_b[body],
                fair_b[i],
                pos,
                vel,
            )
            c0 = anchor[i, 0] - pos[0]
            c1 = anchor[i, 1] - pos[1]
            c2 = anchor[i, 2] - pos[2]
            ln = math.sqrt(c0 * c0 + c1 * c1 + c2 * c2)
            if ln == 0.0:
                return FAIRLEAD_AT_ANCHOR
            u0, u1, u2 = c0 / ln, c1 / ln, c2 / ln
            rate = -(vel[0] * u0 + vel[1] * u1 + vel[2] * u2)  # d|rho_E/A|/dt
            ten = pre[i] + k[i] * (ln - length[i]) + damp[i] * rate  # (3.16) + axial damping
            if not compress:
                ten = max(ten, 0.0)
            tension[b, i] = ten
            f[0], f[1], f[2] = ten * u0, ten * u1, ten * u2
            _add_point_force(r_G[b, body], pos, f, force[b, body], moment[b, body])
    return 0


@njit(cache=True, fastmath=False)
def thrust_kernel(p, t, kin, y, dy, force, moment, added):
    """:class:`floatwind.loads.thrust.RotorThrust`, Wang (3.19)-(3.21), wind from the field's
    table ``p.wind`` (:func:`floatwind._kernels.wind.wind_velocity`; status ``WIND_OUTSIDE``:
    outside the compiled field)."""
    B = force.shape[0]
    pos, vel, n_g = thrust_point(p.rotor, kin)
    wv, st = kwi.wind_velocity(p.wind, t, pos.reshape((B, 1, 3)))
    if st != 0:
        return st
    f, m, _ch = thrust_loads(p.rotor, kin.r_G, force.shape[1], pos, vel, n_g,
                             wv.reshape((B, 3)).copy())  # fmt: skip
    _accumulate(force, moment, f, m)
    return 0


@njit(cache=True, fastmath=False)
def _point_wrench(kin, body, point_b, v, force, moment):
    """Inertial force v[:3] at body point ``point_b`` and moment v[3:], added for every member."""
    pos = np.empty(3)
    vel = np.empty(3)
    zero = np.zeros(3)
    f = np.empty(3)
    for k in range(3):
        f[k] = v[k]
    for b in range(force.shape[0]):
        _point(kin.r_G[b, body], kin.R_b2g[b, body], zero, zero, kin.cm_b[body], point_b, pos, vel)
        _add_point_force(kin.r_G[b, body], pos, f, force[b, body], moment[b, body])
        for k in range(3):
            moment[b, body, k] += v[3 + k]


@njit(cache=True, fastmath=False)
def time_series_force_kernel(p, t, kin, y, dy, force, moment, added):
    """:class:`floatwind.loads.simple.TimeSeriesForce`: linear interpolation in the table, zero
    outside it unless ``hold``."""
    v = np.zeros(6)
    if p.hold or (t >= p.time[0] and t <= p.time[-1]):
        for k in range(6):
            v[k] = np.interp(t, p.time, p.values[k])
    _point_wrench(kin, p.body, p.point_b, v, force, moment)
    return 0


@njit(cache=True, fastmath=False)
def harmonic_force_kernel(p, t, kin, y, dy, force, moment, added):
    """:class:`floatwind.loads.simple.HarmonicForce`: amplitude sin(omega t + phase)."""
    s = math.sin(p.omega * t + p.phase)
    v = np.empty(6)
    for k in range(6):
        v[k] = p.amplitude[k] * s
    _point_wrench(kin, p.body, p.point_b, v, force, moment)
    return 0
