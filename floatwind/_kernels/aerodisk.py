"""Compiled kernels of the AeroDisk actuator disc (:class:`floatwind.loads.aerodisk.AeroDisk`).

The steps of OpenFAST AeroDisk's ``ADsk_CalcOutput`` (modules/aerodisk/src/AeroDisk.f90), for
each batch member, in double precision (AeroDisk computes in single precision):

1. the hub (rotor centre) position and velocity, the disc normal ``x_hat`` (the shaft axis,
   downwind) and the wind sample points of the disc: ``ADsk_NumPtsDiskAvg`` = 144 points on the
   circle of 70 % of the rotor radius in the hub's y-z plane, at azimuths pi + 2 pi i / 144
   (``SetDiskAvgPoints``), carried by the rotor body (:func:`aerodisk_points`);
2. (the caller) the wind at the points, from any floatwind wind;
3. the disc-averaged wind ``DiskAvgVel`` (mean of the 144), the relative wind ``V = DiskAvgVel -
   v_hub``, ``VRel = |V|``, ``VRel_xd = |V . x_hat|``, the tip-speed ratio ``lambda = Omega R /
   VRel_xd`` (0 when VRel_xd = 0), the skew ``chi = acos(VRel_xd / VRel)``; the disc frame
   ``x_hat``, ``y_hat = ((V . x) x - V) / |.|`` (against the in-plane wind), ``z_hat = V x x_hat /
   |.|`` (or, for a wind along the normal, ``y = Z x x_hat`` horizontal and ``z = x_hat x y``);
   the coefficients interpolated in the table (``ADskTableInterp``: multilinear with
   AeroDisk's isoparametric weights, over TSR, Pitch, Skew, or RtSpd, VRel, Pitch, Skew; a value
   beyond a table end by more than 1e-4 stops AeroDisk, here code 1-5), times cos^2(chi) when the
   table has no Skew column; ``F = 0.5 rho A VRel_xd^2 C_F``, ``M = 0.5 rho A VRel_xd^2 R C_M``
   in the disc frame, applied at the hub (:func:`aerodisk_loads`).

Where AeroDisk (the version read) does something we take to be a slip, we do the intended thing
and say so here: ``z_hat`` of the wind-along-the-normal case is normalised (AeroDisk's is not
when the shaft is tilted); ``ADVWind*``/``ADSTV*`` are the components along the disc axes
(AeroDisk multiplies by the matrix of the axes instead of its transpose, marked FIXME there);
``ADMxi..ADMzi`` is the moment (AeroDisk writes the force there); ``ADYawErr`` is computed
(AeroDisk lists it but leaves it 0); a value a hair below a table's first entry (within the
tolerance) takes the first entry (AeroDisk's search gives index 0 there). The disc normal is the
shaft axis of the rotor body in the inertial frame (AeroDisk reads the first column of the hub
mesh's orientation matrix).

One loop over batch members with the same operations for every member: a member alone and in a
batch give the same bits.
"""

from __future__ import annotations

import math

import numpy as np

from floatwind._kernels import wind as kwi
from floatwind._kernels.loads import _accumulate, _add_point_force, _point
from floatwind._kernels.status import AERODISK_OUTSIDE
from floatwind.jit import njit

__all__ = ["N_CHANNELS", "N_POINTS", "aerodisk_kernel", "aerodisk_loads", "aerodisk_points"]

#: AeroDisk's ADsk_NumPtsDiskAvg (AeroDisk_Registry.txt)
N_POINTS = 144
#: the output channels, in AeroDisk_Output_Params.f90's order (ADSpeed = 1 ... ADPower = 34)
N_CHANNELS = 34
#: AeroDisk's table tolerance (ADskTableInterp ``Tol``) and EqualRealNos in single precision
_TOL = 1.0e-4
_EPS = 1.1920929e-07


@njit(cache=True, fastmath=False)
def aerodisk_points(rotor, kin):
    """Hub position and velocity (B, 3), disc normal ``x_hat`` (B, 3), the disc's wind sample
    points (B, P, 3) and the rotor speed (B,) (rad/s: the rotor body's angular velocity relative
    to its parent about the shaft, or the constant ``rotor.rotor_speed``), inertial frame, of the
    rotor ``rotor`` (``AeroDisk.Rotor``) for the kinematics ``kin`` (``BodyKinematics``)."""
    r_G, R_b2g, v_G, w_b, cm_b = kin.r_G, kin.R_b2g, kin.v_G, kin.w_b, kin.cm_b
    body, parent, axis_b, pts_b = rotor.body, rotor.parent, rotor.axis_b, rotor.points_b
    B = r_G.shape[0]
    P = pts_b.shape[0]
    pos = np.empty((B, 3))
    vel = np.empty((B, 3))
    x_g = np.empty((B, 3))
    pts = np.empty((B, P, 3))
    omega = np.empty(B)
    scratch = np.empty(3)
    for b in range(B):
        R = R_b2g[b, body]
        _point(r_G[b, body], R, v_G[b, body], w_b[b, body], cm_b[body], rotor.centre_b, pos[b],
               vel[b])  # fmt: skip
        for k in range(3):
            x_g[b, k] = R[k, 0] * axis_b[0] + R[k, 1] * axis_b[1] + R[k, 2] * axis_b[2]
        for i in range(P):
            _point(r_G[b, body], R, v_G[b, body], w_b[b, body], cm_b[body], pts_b[i], pts[b, i],
                   scratch)  # fmt: skip
        if parent >= 0:
            s = 0.0
            for k in range(3):
                s += (w_b[b, body, k] - w_b[b, parent, k]) * x_g[b, k]
            omega[b] = s
        else:
            omega[b] = rotor.rotor_speed
    return pos, vel, x_g, pts, omega


@njit(cache=True, fastmath=False)
def _locate(grid, q):
    """AeroDisk's LocateStp + CalcIsoparCoords on one table axis: the bounding indices and the
    isoparametric coordinate r in [-1, 1]; an axis of one value (or none) gives (0, 0, 0)."""
    n = grid.shape[0]
    if n <= 1:
        return 0, 0, 0.0
    if q < grid[0]:
        i = 0
    else:
        i = n - 1
        lo, hi = 0, n - 1
        if q < grid[n - 1]:
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if grid[mid] <= q:
                    lo = mid
                else:
                    hi = mid
            i = lo
    j = min(i + 1, n - 1)
    dx = grid[j] - grid[i]
    if dx == 0.0:
        r = 1.0
    else:
        r = (2.0 * q - grid[i] - grid[j]) / dx
        r = min(1.0, max(-1.0, r))
    return i, j, r


@njit(cache=True, fastmath=False)
def _outside(grid, q):
    """True when ``q`` lies beyond the ends of a non-empty table axis by more than the tolerance."""
    n = grid.shape[0]
    return n > 0 and (q < grid[0] - _TOL or q > grid[n - 1] + _TOL)


@njit(cache=True, fastmath=False)
def _coefficients(rotor, lam, omega, vxd, pitch, chi, c):
    """ADskTableInterp: the six coefficients ``c`` (6,) at (lambda, Omega, VRel_xd, pitch, chi);
    returns 0, or 1 TSR, 2 RtSpd, 3 VRel, 4 Pitch, 5 Skew outside the table (AeroDisk stops)."""
    if rotor.use_tsr:
        if _outside(rotor.grid_tsr, lam):
            return 1
    else:
        if _outside(rotor.grid_rtspd, omega):
            return 2
        if _outside(rotor.grid_vrel, vxd):
            return 3
    if _outside(rotor.grid_pitch, pitch):
        return 4
    if _outside(rotor.grid_skew, chi):
        return 5
    i0 = np.zeros(5, np.int64)
    i1 = np.zeros(5, np.int64)
    r = np.zeros(5)
    if rotor.use_tsr:
        i0[0], i1[0], r[0] = _locate(rotor.grid_tsr, lam)
    else:
        i0[1], i1[1], r[1] = _locate(rotor.grid_rtspd, omega)
        i0[2], i1[2], r[2] = _locate(rotor.grid_vrel, vxd)
    i0[3], i1[3], r[3] = _locate(rotor.grid_pitch, pitch)
    i0[4], i1[4], r[4] = _locate(rotor.grid_skew, chi)
    coef = rotor.coef
    for k in range(6):
        c[k] = 0.0
    idx = np.empty(5, np.int64)
    for corner in range(32):  # the 2^5 corners, weights prod (1 -+ r_d) / 2 (getN3D/getN4D)
        w = 1.0
        for d in range(5):
            if (corner >> (4 - d)) & 1:
                w *= 0.5 * (1.0 + r[d])
                idx[d] = i1[d]
            else:
                w *= 0.5 * (1.0 - r[d])
                idx[d] = i0[d]
        if w == 0.0:
            continue
        for k in range(6):
            c[k] += w * coef[k, idx[0], idx[1], idx[2], idx[3], idx[4]]
    return 0


@njit(cache=True, fastmath=False)
def aerodisk_loads(rotor, r_G, n_bodies, pos, vel, x_g, omega, wind):
    """Force and moment about the body CM (B, N, 3), the channels (B, 34) in AeroDisk's order and
    a code per member (B,) (0 ok; 1-5 a table variable outside the table: TSR, RtSpd, VRel,
    Pitch, Skew; 6 the disc-averaged wind vertical; 7 the shaft vertical: AeroDisk stops) of the
    rotor ``rotor`` at the hub ``pos`` moving with ``vel``, disc normal ``x_g``, rotor speed
    ``omega`` (B,), wind ``wind`` (B, P, 3) at the disc's sample points."""
    body, radius, q_a, pitch = rotor.body, rotor.radius, rotor.half_rho_a, rotor.pitch
    B, P = wind.shape[0], wind.shape[1]
    force = np.zeros((B, n_bodies, 3))
    moment = np.zeros((B, n_bodies, 3))
    ch = np.zeros((B, 34))
    code = np.zeros(B, np.int64)
    avg = np.empty(3)
    v = np.empty(3)
    x = np.empty(3)
    y = np.empty(3)
    z = np.empty(3)
    yd = np.empty(3)
    zd = np.empty(3)
    c = np.empty(6)
    fg = np.empty(3)
    mg = np.empty(3)
    for b in range(B):
        for k in range(3):  # DiskAvgVel: the mean of the sample points' wind
            s = 0.0
            for i in range(P):
                s += wind[b, i, k]
            avg[k] = s / P
            x[k] = x_g[b, k]
            v[k] = avg[k] - vel[b, k]  # VRel_vec = DiskAvgVel - hub velocity
        om = omega[b]
        # disc vectors: y_hatDisk = Z x x_hat (horizontal), z_hatDisk = x_hat x y_hatDisk
        h = math.sqrt(x[0] * x[0] + x[1] * x[1])
        if abs(avg[0]) <= _EPS and abs(avg[1]) <= _EPS and abs(avg[2]) > _EPS:
            code[b] = 6
            continue
        if abs(x[0]) <= _EPS and abs(x[1]) <= _EPS:
            code[b] = 7
            continue
        yd[0], yd[1], yd[2] = -x[1] / h, x[0] / h, 0.0
        zd[0] = x[1] * yd[2] - x[2] * yd[1]
        zd[1] = x[2] * yd[0] - x[0] * yd[2]
        zd[2] = x[0] * yd[1] - x[1] * yd[0]
        vrel = math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
        vx = v[0] * x[0] + v[1] * x[1] + v[2] * x[2]
        vxd = abs(vx)
        lam = 0.0 if vxd <= _EPS else om * radius / vxd
        chi = 0.0 if vrel <= _EPS else math.acos(min(vxd / vrel, 1.0))
        t0, t1, t2 = vx * x[0] - v[0], vx * x[1] - v[1], vx * x[2] - v[2]
        tn = math.sqrt(t0 * t0 + t1 * t1 + t2 * t2)
        if tn <= _EPS:
            for k in range(3):
                y[k] = yd[k]
                z[k] = zd[k]
        else:
            y[0], y[1], y[2] = t0 / tn, t1 / tn, t2 / tn
            z[0] = (v[1] * x[2] - v[2] * x[1]) / tn
            z[1] = (v[2] * x[0] - v[0] * x[2]) / tn
            z[2] = (v[0] * x[1] - v[1] * x[0]) / tn
        yaw_err = math.atan2(v[1] * x[0] - v[0] * x[1], v[0] * x[0] + v[1] * x[1])
        st = _coefficients(rotor, lam, om, vxd, pitch, chi, c)
        if st != 0:
            code[b] = st
            continue
        if not rotor.has_skew:  # skew not in the table: (cos chi)^2 on all six
            cc = math.cos(chi) * math.cos(chi)
            for k in range(6):
                c[k] = c[k] * cc
        qv = q_a * vxd * vxd
        f0, f1, f2 = qv * c[0], qv * c[1], qv * c[2]
        m0, m1, m2 = qv * radius * c[3], qv * radius * c[4], qv * radius * c[5]
        for k in range(3):
            fg[k] = f0 * x[k] + f1 * y[k] + f2 * z[k]
            mg[k] = m0 * x[k] + m1 * y[k] + m2 * z[k]
        _add_point_force(r_G[b, body], pos[b], fg, force[b, body], moment[b, body])
        for k in range(3):
            moment[b, body, k] += mg[k]
        # channels (AeroDisk_IO.f90 Calc_WriteOutput), SI
        ch[b, 0] = om
        ch[b, 1] = lam
        ch[b, 2] = pitch
        ch[b, 3] = avg[0] * x[0] + avg[1] * x[1] + avg[2] * x[2]
        ch[b, 4] = avg[0] * y[0] + avg[1] * y[1] + avg[2] * y[2]
        ch[b, 5] = avg[0] * z[0] + avg[1] * z[1] + avg[2] * z[2]
        ch[b, 9] = vel[b, 0] * x[0] + vel[b, 1] * x[1] + vel[b, 2] * x[2]
        ch[b, 10] = vel[b, 0] * y[0] + vel[b, 1] * y[1] + vel[b, 2] * y[2]
        ch[b, 11] = vel[b, 0] * z[0] + vel[b, 1] * z[1] + vel[b, 2] * z[2]
        for k in range(3):
            ch[b, 6 + k] = avg[k]
            ch[b, 12 + k] = vel[b, k]
            ch[b, 24 + k] = fg[k]
            ch[b, 30 + k] = mg[k]
        ch[b, 15] = vrel
        ch[b, 16] = chi
        ch[b, 17] = yaw_err
        ch[b, 18] = 0.0 if vxd <= _EPS else m0 * om / (q_a * vxd * vxd * vxd)
        ch[b, 19] = c[0]
        ch[b, 20] = c[3]
        ch[b, 21], ch[b, 22], ch[b, 23] = f0, f1, f2
        ch[b, 27], ch[b, 28], ch[b, 29] = m0, m1, m2
        ch[b, 33] = m0 * om
    return force, moment, ch, code


@njit(cache=True, fastmath=False)
def aerodisk_kernel(p, t, kin, y, dy, force, moment, added):
    """:class:`floatwind.loads.aerodisk.AeroDisk` (OpenFAST AeroDisk), wind from the field's
    table ``p.wind`` (:func:`floatwind._kernels.wind.wind_velocity`); status ``WIND_OUTSIDE``
    (outside the compiled field) or ``AERODISK_OUTSIDE`` (the NumPy path raises AeroDisk's
    error)."""
    pos, vel, x_g, pts, omega = aerodisk_points(p.rotor, kin)
    wv, st = kwi.wind_velocity(p.wind, t, pts)
    if st != 0:
        return st
    f, m, _ch, code = aerodisk_loads(p.rotor, kin.r_G, force.shape[1], pos, vel, x_g, omega, wv)
    for b in range(code.shape[0]):
        if code[b] != 0:
            return AERODISK_OUTSIDE
    _accumulate(force, moment, f, m)
    return 0
