"""Compiled wave-kinematics kernels for :class:`floatwind.environment.fastkin.ExpansionSea`.

Same formulas and operation order per point as the NumPy reference in ``fastkin.py`` (sums over the
interpolation nodes run sequentially); batch member ``b`` reads realization row ``0`` when the sea
has one realization, else row ``b``.

The series are the linear (Airy) wave kinematics of the sea, expanded in frequency around each
strip's reference point (docs/environment.md, "fast kinematics"); the stretching options follow
the NumPy sea (Wheeler, vertical, none).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["expansion_eta", "expansion_kinematics", "expansion_series"]


@njit(cache=True, fastmath=False)
def expansion_series(table, j0, w0, w1, w2, w3):
    """Cubic Lagrange in time of the stored series: rows j0..j0+3 (mod m) -> (R, C) complex128."""
    m, n_r, n_c = table.shape
    i0 = j0 % m
    i1 = (j0 + 1) % m
    i2 = (j0 + 2) % m
    i3 = (j0 + 3) % m
    out = np.empty((n_r, n_c), dtype=np.complex128)
    for r in range(n_r):
        for c in range(n_c):
            a = table[i0, r, c]
            b = table[i1, r, c]
            d = table[i2, r, c]
            e = table[i3, r, c]
            re = w0 * np.float64(a.real) + w1 * np.float64(b.real)
            re = re + w2 * np.float64(d.real)
            re = re + w3 * np.float64(e.real)
            im = w0 * np.float64(a.imag) + w1 * np.float64(b.imag)
            im = im + w2 * np.float64(d.imag)
            im = im + w3 * np.float64(e.imag)
            out[r, c] = complex(re, im)
    return out


@njit(cache=True, fastmath=False)
def _eta_point(z, r, x, y, cos, sin, s_eta, base, k_eta, n_eta):
    s = x * cos + y * sin - s_eta
    acc = 0.0
    for j in range(n_eta):
        ph = s * k_eta[j]
        zz = z[r, base + j]
        acc += zz.real * math.cos(ph) - zz.imag * math.sin(ph)
    return acc


@njit(cache=True, fastmath=False)
def expansion_eta(z, xy, cos, sin, s_eta_p, grp, k_eta):
    """Elevation (B, P) at horizontal positions ``xy`` (B, P, 2) from the series ``z`` (R, C)."""
    n_b, n_p = xy.shape[0], xy.shape[1]
    n_eta = k_eta.shape[0]
    out = np.empty((n_b, n_p))
    for b in range(n_b):
        r = 0 if z.shape[0] == 1 else b
        for p in range(n_p):
            out[b, p] = _eta_point(
                z, r, xy[b, p, 0], xy[b, p, 1], cos, sin, s_eta_p[p], grp[p] * n_eta, k_eta, n_eta
            )
    return out


@njit(cache=True, fastmath=False)
def expansion_kinematics(
    z,
    points,
    cos,
    sin,
    mode,
    h,
    h_wheeler,
    s_eta_p,
    grp,
    k_eta,
    q_eta,
    starts,
    orders,
    k_q,
    sref_q,
    w_q,
):
    """Velocity and acceleration (B, P, 3) at ``points`` (B, P, 3).

    ``mode``: 0 no stretching, 1 vertical, 2 Wheeler; ``h`` the depth (<= 0: deep water, no image
    term), ``h_wheeler`` the depth used by Wheeler's stretching.
    """
    n_b, n_p = points.shape[0], points.shape[1]
    n_eta = k_eta.shape[0]
    vel = np.empty((n_b, n_p, 3))
    acc = np.empty((n_b, n_p, 3))
    finite = h > 0.0
    for b in range(n_b):
        r = 0 if z.shape[0] == 1 else b
        for p in range(n_p):
            x = points[b, p, 0]
            y = points[b, p, 1]
            zc = points[b, p, 2]
            if mode == 0:
                zev = min(zc, 0.0)
                wet = zc <= 0.0
            else:
                eta = _eta_point(z, r, x, y, cos, sin, s_eta_p[p], grp[p] * n_eta, k_eta, n_eta)
                wet = zc <= eta
                if mode == 1:
                    zev = min(zc, 0.0)
                else:
                    zev = min(h_wheeler * (zc - eta) / (h_wheeler + eta), 0.0)
            if not wet:
                for i in range(3):
                    vel[b, p, i] = 0.0
                    acc[b, p, i] = 0.0
                continue
            s = x * cos + y * sin
            u_re = 0.0
            uw_im = 0.0
            v_im = 0.0
            vw_re = 0.0
            for q in range(starts[p], starts[p] + orders[p]):
                kq = k_q[q]
                ph = kq * (s - sref_q[q])
                zz = z[r, q_eta + q]
                c = math.cos(ph)
                sn = math.sin(ph)
                zr = zz.real * c - zz.imag * sn
                zi = zz.real * sn + zz.imag * c
                ekz = math.exp(kq * zev)
                if finite:
                    emz = math.exp(-kq * (zev + 2.0 * h))
                    fa = ekz + emz
                    fd = ekz - emz
                else:
                    fa = ekz
                    fd = ekz
                wq = w_q[q]
                u_re += zr * fa
                uw_im += (zi * fa) * wq
                v_im += zi * fd
                vw_re += (zr * fd) * wq
            vel[b, p, 0] = u_re * cos
            vel[b, p, 1] = u_re * sin
            vel[b, p, 2] = v_im
            acc[b, p, 0] = uw_im * cos
            acc[b, p, 1] = uw_im * sin
            acc[b, p, 2] = -vw_re
    return vel, acc
