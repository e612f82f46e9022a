"""Compiled full-field wind sampling for :class:`floatwind.environment.wind.FullFieldWind`.

Linear in time, bilinear in (y, z) on the uniform TurbSim grid, Taylor's frozen turbulence, the
same index arithmetic and the same order of the eight weighted terms as the NumPy reference;
one loop over batch members and points (bit-identical alone and inside a batch). Points below
the grid of a file with a tower line, and times outside a non-periodic file, are left to the
NumPy code (``status`` flags).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from floatwind._kernels.status import WIND_EDGE, WIND_OUTSIDE
from floatwind.jit import njit

__all__ = [
    "FullField",
    "direction_change",
    "full_field_velocity",
    "operating_gust",
    "wind_velocity",
]


@njit(cache=True, fastmath=False)
def _axis(c0, d, n, v):
    s = (v - c0) / d
    s = min(max(s, 0.0), n - 1.0)
    i0 = min(int(math.floor(s)), n - 2)
    return i0, s - i0


class FullField(NamedTuple):
    """A TurbSim full field as :func:`full_field_velocity` reads it (the same names as the
    full-field fields of ``floatwind.environment.compiled.WindParams``, which it also reads)."""

    grid: np.ndarray  # (R, T, Ny, Nz, 3)
    y: np.ndarray  # (Ny,) grid coordinates
    z: np.ndarray  # (Nz,)
    cos: float  # heading
    sin: float
    x_offset: float
    uhub: float  # Taylor's frozen turbulence: tau = t + (x_offset - x) / uhub
    dt: float
    periodic: bool
    has_tower: bool


@njit(cache=True, fastmath=False)
def full_field_velocity(t, points, f):
    """Wind velocity (B, P, 3) of the full field ``f`` (a :class:`FullField` or a ``WindParams``)
    and status (``floatwind._kernels.status``): 0 ok, ``WIND_EDGE`` a point outside the grid
    (edge value), ``WIND_OUTSIDE`` a point below the grid with a tower line or a time outside the
    file (use NumPy)."""
    grid, y, z, ch, sh = f.grid, f.y, f.z, f.cos, f.sin
    x_offset, uhub, dt, periodic, has_tower = f.x_offset, f.uhub, f.dt, f.periodic, f.has_tower
    B, P = points.shape[0], points.shape[1]
    R, nt, ny, nz = grid.shape[0], grid.shape[1], grid.shape[2], grid.shape[3]
    vel = np.empty((B, P, 3))
    status = 0
    y0, dy = y[0], y[1] - y[0]
    z0, dz = z[0], z[1] - z[0]
    v = np.empty(3)
    for b in range(B):
        r = 0 if R == 1 else b
        for p in range(P):
            px, py, pz = points[b, p, 0], points[b, p, 1], points[b, p, 2]
            xw = px * ch + py * sh
            yw = -px * sh + py * ch
            tau = t + (x_offset - xw) / uhub
            s = tau / dt
            if periodic:
                fl = math.floor(s)
                i0 = int(fl)
                ft = s - fl
                it0 = i0 % nt
                it1 = (i0 + 1) % nt
            else:
                if s < -1e-9 or s > nt - 1 + 1e-9:
                    status |= WIND_OUTSIDE
                s = min(max(s, 0.0), nt - 1.0)
                it0 = min(int(math.floor(s)), nt - 2)
                it1 = it0 + 1
                ft = s - it0
            if yw < y[0] or yw > y[ny - 1] or pz > z[nz - 1]:
                status |= WIND_EDGE
            if pz < z[0]:
                status |= WIND_OUTSIDE if has_tower else WIND_EDGE
            iy, fy = _axis(y0, dy, ny, yw)
            iz, fz = _axis(z0, dz, nz, pz)
            v[0] = 0.0
            v[1] = 0.0
            v[2] = 0.0
            for a in range(2):
                it = it0 if a == 0 else it1
                wt = 1.0 - ft if a == 0 else ft
                for c in range(2):
                    jy = iy + c
                    wy = 1.0 - fy if c == 0 else fy
                    for e in range(2):
                        jz = iz + e
                        wz = 1.0 - fz if e == 0 else fz
                        wgt = wt * wy * wz
                        for k in range(3):
                            v[k] += wgt * np.float64(grid[r, it, jy, jz, k])
            vel[b, p, 0] = v[0] * ch - v[1] * sh
            vel[b, p, 1] = v[0] * sh + v[1] * ch
            vel[b, p, 2] = v[2]
    return vel, status


# --- the compiled form of every wind field: one table (environment.compiled.WindParams) ---

#: WindParams.kind
NO_WIND, STEADY_POWER, STEADY_LOG, FULL_FIELD = 0, 1, 2, 3


@njit(cache=True, fastmath=False)
def direction_change(kind, start, amplitude, duration, t):
    """``RampedDirection`` (floatwind.environment.wind): kind 1 the shift of ``direction_shift``,
    2 the IEC EDC of ``iec_edc``, 0 none; the same formulas and comparisons."""
    if kind == 1:
        if t < start:
            return 0.0
        if duration <= 0 or t >= start + duration:
            return amplitude
        return 0.5 * amplitude * (1.0 - math.cos(math.pi * (t - start) / duration))
    if kind == 2:
        s = t - start
        if s <= 0:
            return 0.0
        if s >= duration:
            return amplitude
        return 0.5 * amplitude * (1.0 - math.cos(math.pi * s / duration))
    return 0.0


@njit(cache=True, fastmath=False)
def operating_gust(start, vgust, period, t):
    """``OperatingGust`` (IEC EOG) speed change above the SWL at time t."""
    s = t - start
    if s <= 0 or s >= period:
        return 0.0
    return (
        -0.37
        * vgust
        * math.sin(3 * math.pi * s / period)
        * (1.0 - math.cos(2 * math.pi * s / period))
    )


@njit(cache=True, fastmath=False)
def _transient(p, t, points, vel):
    """``TransientWind.velocity`` on the base velocity ``vel`` (in place): rotation by the
    direction change about z, then the gust along the rotated base heading."""
    B, P = points.shape[0], points.shape[1]
    dth = direction_change(p.dir_kind, p.dir_start, p.dir_amplitude, p.dir_duration, t)
    if dth != 0.0:
        c = math.cos(dth)
        s = math.sin(dth)
        for b in range(B):
            for k in range(P):
                vx = vel[b, k, 0]
                vy = vel[b, k, 1]
                vel[b, k, 0] = vx * c + vy * -s
                vel[b, k, 1] = vx * s + vy * c
    if p.gust_kind != 0:
        g = operating_gust(p.gust_start, p.gust_amplitude, p.gust_period, t)
        h = p.base_heading + dth
        ch = math.cos(h)
        sh = math.sin(h)
        for b in range(B):
            for k in range(P):
                gz = g if points[b, k, 2] > 0 else 0.0
                vel[b, k, 0] += gz * ch
                vel[b, k, 1] += gz * sh


@njit(cache=True, fastmath=False)
def wind_velocity(p, t, points):
    """Wind velocity (B, P, 3) at ``points`` (B, P, 3) and a status (``WIND_OUTSIDE``: the NumPy
    code must answer: a point below the grid of a file with a tower line, a time outside the file).
    Steady: the power or log law of ``SteadyWind.profile`` (zero at and below the SWL); an IEC
    transient (``p.dir_kind``, ``p.gust_kind``) on top of the base field (``TransientWind``)."""
    B, P = points.shape[0], points.shape[1]
    if p.kind == FULL_FIELD:
        vel, st = full_field_velocity(t, points, p)
        status = st & WIND_OUTSIDE
    else:
        status = 0
        vel = np.zeros((B, P, 3))
        if p.kind != NO_WIND:
            for b in range(B):
                for k in range(P):
                    z = points[b, k, 2]
                    if z <= 0.0:
                        u = 0.0
                    elif p.kind == STEADY_POWER:
                        u = p.speed * (max(z, 1e-9) / p.ref_height) ** p.alpha
                    else:
                        zl = max(max(z, 1e-9), p.roughness)
                        u = (
                            p.speed
                            * math.log(zl / p.roughness)
                            / math.log(p.ref_height / p.roughness)
                        )
                    vel[b, k, 0] = u * p.cos
                    vel[b, k, 1] = u * p.sin
    if status == 0 and (p.dir_kind != 0 or p.gust_kind != 0):
        _transient(p, t, points, vel)
    return vel, status
