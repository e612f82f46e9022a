"""Compiled wave-kinematics kernels for :class:`floatwind.environment.fastkin.ExpansionSea`.

Same formulas and summation order per point as the NumPy reference in ``fastkin.py`` (sums over
the interpolation nodes run sequentially); batch member ``b`` reads realization row ``0`` when the
sea has one realization, else row ``b``, and goes through the same operations whatever the batch.

Recurrences instead of transcendentals: the nodes of one point (and the elevation nodes) have
wavenumbers in a quadratic sequence ``k_j = k_0 + j d_1 + j (j - 1) / 2 d_2`` (``d_2 = 0``: an
arithmetic one), so ``e^{i k_j s}``, ``e^{k_j z}`` and ``e^{-k_j (z + 2h)}`` follow
``p_{j+1} = p_j r_j``, ``r_{j+1} = r_j q`` from ``e^{.. k_0}``, ``e^{.. d_1}``, ``e^{.. d_2}``: 6
(deep water) or 9 transcendental calls per point instead of 3-4 per node. ``k_0, d_1, d_2`` are
read off ``k_q`` (first and second differences); a node off that sequence is evaluated directly,
so any node set gives the reference result. All factors have modulus <= 1 (``-h <= z <= 0``);
rounding grows like ``J^2`` ulps (~1e-13 at J = 28).

The series are the linear (Airy) wave kinematics of the sea, expanded in frequency around each
strip's reference point (docs/environment.md, "fast kinematics"); the stretching options follow
the NumPy sea (Wheeler, vertical, none).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from floatwind.jit import njit

__all__ = [
    "LANES_MIN",
    "Expansion",
    "expansion",
    "expansion_eta",
    "expansion_kinematics",
    "expansion_kinematics_eta",
    "expansion_series",
    "expansion_series_lanes",
]


class Expansion(NamedTuple):
    """The node data of an expansion sea that the kinematics kernels read by name
    (:func:`expansion_kinematics`, :func:`expansion_kinematics_lanes`); the compiled sea table
    (``environment.compiled.SeaTable``) carries the same fields, and the kernels take either."""

    cos: float  # heading
    sin: float
    mode: int  # stretching: 0 none, 1 vertical, 2 Wheeler
    h: float  # depth (<= 0: deep water, no image term)
    hw: float  # the depth Wheeler's stretching uses
    s_eta_p: np.ndarray  # elevation reference offset per point
    grp: np.ndarray  # elevation group per point
    k_eta: np.ndarray  # elevation node wavenumbers
    q_eta: int  # first kinematics column of the series
    starts: np.ndarray  # first node per point
    orders: np.ndarray  # nodes per point
    k_q: np.ndarray  # node wavenumbers
    sref_q: np.ndarray  # node reference offsets
    w_q: np.ndarray  # node weights (frequencies)
    eta_runs: tuple  # node_runs of the elevation nodes (lane kernels)
    point_runs: tuple  # point_runs of the kinematics nodes (lane kernels)


def expansion(*, cos, sin, mode, h, hw, s_eta_p, grp, k_eta, q_eta, starts, orders, k_q, sref_q,
              w_q) -> Expansion:  # fmt: skip
    """An :class:`Expansion` by keyword, with the runs of the lane kernels computed."""
    return Expansion(cos=cos, sin=sin, mode=mode, h=h, hw=hw, s_eta_p=s_eta_p, grp=grp,
                     k_eta=k_eta, q_eta=q_eta, starts=starts, orders=orders, k_q=k_q,
                     sref_q=sref_q, w_q=w_q, eta_runs=node_runs(k_eta, 0, len(k_eta)),
                     point_runs=point_runs(k_q, starts, orders))  # fmt: skip


class _Node(NamedTuple):
    """The running values of one member along a run of nodes (:func:`_kin_node`): the phase
    e^{i k_j s} and its ratio, the depth factors e^{k_j z}, e^{-k_j (z + 2h)} and theirs, and the
    four sums (u_h, a_h, u_z, a_z before the heading factors)."""

    p_c: float
    p_s: float
    r_c: float
    r_s: float
    e_k: float
    e_kr: float
    e_m: float
    e_mr: float
    ur: float
    uw: float
    vi: float
    vw: float


class _Ratios(NamedTuple):
    """The constant second ratios of a run (:func:`_kin_node`)."""

    q_c: float
    q_s: float
    e_kq: float
    e_mq: float


class _Lanes(NamedTuple):
    """Work lanes (B,) of :func:`_eta_lanes`: the run factors and a scratch lane."""

    pc: np.ndarray
    ps: np.ndarray
    rc: np.ndarray
    rs: np.ndarray
    qc: np.ndarray
    qs: np.ndarray
    tmp: np.ndarray


@njit(cache=True, fastmath=False, inline="always")
def _cubic_entry(table, i0, i1, i2, i3, r, c, w0, w1, w2, w3):
    """Cubic Lagrange in time of one stored series entry: (real, imaginary) in float64."""
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
    return re, im


@njit(cache=True, fastmath=False)
def expansion_series_into(table, j0, w0, w1, w2, w3, out):
    """:func:`expansion_series` into ``out`` (R, C) complex (a load's scratch: no allocation)."""
    m, n_r, n_c = table.shape
    i0, i1, i2, i3 = j0 % m, (j0 + 1) % m, (j0 + 2) % m, (j0 + 3) % m
    for r in range(n_r):
        for c in range(n_c):
            re, im = _cubic_entry(table, i0, i1, i2, i3, r, c, w0, w1, w2, w3)
            out[r, c] = complex(re, im)


@njit(cache=True, fastmath=False)
def expansion_series_lanes_into(table, j0, w0, w1, w2, w3, zr, zi):
    """:func:`expansion_series_lanes` into ``zr``, ``zi`` (C, R) (a load's scratch)."""
    m, n_r, n_c = table.shape
    i0, i1, i2, i3 = j0 % m, (j0 + 1) % m, (j0 + 2) % m, (j0 + 3) % m
    for r in range(n_r):
        for c in range(n_c):
            zr[c, r], zi[c, r] = _cubic_entry(table, i0, i1, i2, i3, r, c, w0, w1, w2, w3)


@njit(cache=True, fastmath=False)
def expansion_series(table, j0, w0, w1, w2, w3):
    """Cubic Lagrange in time of the stored series: rows j0..j0+3 (mod m) -> (R, C) complex128."""
    m, n_r, n_c = table.shape
    i0, i1, i2, i3 = j0 % m, (j0 + 1) % m, (j0 + 2) % m, (j0 + 3) % m
    out = np.empty((n_r, n_c), dtype=np.complex128)
    for r in range(n_r):
        for c in range(n_c):
            re, im = _cubic_entry(table, i0, i1, i2, i3, r, c, w0, w1, w2, w3)
            out[r, c] = complex(re, im)
    return out


@njit(cache=True, fastmath=False)
def expansion_series_lanes(table, j0, w0, w1, w2, w3):
    """:func:`expansion_series` straight into the member-contiguous real and imaginary parts
    (C, R) of :func:`series_lanes` (the same arithmetic per entry, so the same bits)."""
    m, n_r, n_c = table.shape
    i0, i1, i2, i3 = j0 % m, (j0 + 1) % m, (j0 + 2) % m, (j0 + 3) % m
    zr = np.empty((n_c, n_r))
    zi = np.empty((n_c, n_r))
    for r in range(n_r):
        for c in range(n_c):
            zr[c, r], zi[c, r] = _cubic_entry(table, i0, i1, i2, i3, r, c, w0, w1, w2, w3)
    return zr, zi


# fdlibm's Cody-Waite split of pi/2 and its kernel polynomials on [-pi/4, pi/4] (|error| < 1 ulp
# there); the reduction is exact to ~1e-16 relative for |x| < 2^20 pi/2 (larger: the libm calls).
_PIO2_1 = 1.57079632673412561417e00
_PIO2_2 = 6.07710050630396597660e-11
_PIO2_3 = 2.02226624871116645580e-21
_PIO2_3T = 8.47842766036889956997e-32
_INV_PIO2 = 6.36619772367581382433e-01
_S1 = -1.66666666666666324348e-01
_S2 = 8.33333333332248946124e-03
_S3 = -1.98412698298579493134e-04
_S4 = 2.75573137070700676789e-06
_S5 = -2.50507602534068634195e-08
_S6 = 1.58969099521155010221e-10
_C1 = 4.16666666666666019037e-02
_C2 = -1.38888888888741095749e-03
_C3 = 2.48015872894767294178e-05
_C4 = -2.75573143513906633035e-07
_C5 = 2.08757232129817482790e-09
_C6 = -1.13596475577881948265e-11


@njit(cache=True, fastmath=False)
def _sincos(x):
    """(cos x, sin x) in one range reduction (~1 ulp; several times cheaper than the two libm
    calls, which it falls back to for |x| > 1.6e6)."""
    if not abs(x) < 1.6e6:
        return math.cos(x), math.sin(x)
    fn = np.floor(x * _INV_PIO2 + 0.5)
    y = ((x - fn * _PIO2_1) - fn * _PIO2_2) - fn * _PIO2_3
    y = y - fn * _PIO2_3T
    z = y * y
    z2 = z * z  # Estrin-style pairs: shorter dependency chains than Horner
    ps = (_S1 + z * _S2) + z2 * ((_S3 + z * _S4) + z2 * (_S5 + z * _S6))
    sn = y + y * z * ps
    hz = 0.5 * z
    w = 1.0 - hz
    pc = (_C1 + z * _C2) + z2 * ((_C3 + z * _C4) + z2 * (_C5 + z * _C6))
    c = w + (((1.0 - w) - hz) + z2 * pc)
    quad = np.int64(fn) & 3  # x = y + quad pi/2 (mod 2 pi); branch-free selection
    swap = float(quad & 1)
    sign_c = float(1 - 2 * (((quad + 1) >> 1) & 1))
    sign_s = float(1 - 2 * ((quad >> 1) & 1))
    return sign_c * (c * (1.0 - swap) + sn * swap), sign_s * (sn * (1.0 - swap) + c * swap)


# fdlibm's e_exp: x = n ln2 + r (ln2 split in a high part with trailing zeros and a low part),
# e^r from its rational (Remez) kernel on |r| <= ln2 / 2 (|error| < 1 ulp), times 2^n built from
# the exponent bits. Used for |x| <= _EXP_FAST (2^n normal); outside it the libm call.
_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10
_INV_LN2 = 1.44269504088896338700e00
_P1 = 1.66666666666666019037e-01
_P2 = -2.77777777770155933842e-03
_P3 = 6.61375632143793436117e-05
_P4 = -1.65339022054652515390e-06
_P5 = 4.13813679705723846039e-08
_EXP_FAST = 700.0
_ROUND = 6755399441055744.0  # 1.5 * 2^52: x + _ROUND rounds x to an integer in the low bits
_ROUND_BITS = 0x4338000000000000  # the bits of _ROUND


@njit(cache=True, fastmath=False, inline="always")
def _exp_kernel(x):
    """(e^r, n + _ROUND) with x = n ln2 + r, n = x / ln2 rounded to nearest (added to _ROUND,
    whose low mantissa bits then hold n), for |x| <= _EXP_FAST."""
    tn = x * _INV_LN2 + _ROUND
    fn = tn - _ROUND
    hi = x - fn * _LN2_HI
    lo = fn * _LN2_LO
    r = hi - lo
    t = r * r
    c = r - t * (_P1 + t * (_P2 + t * (_P3 + t * (_P4 + t * _P5))))
    return 1.0 - ((lo - (r * c) / (2.0 - c)) - hi), tn


@njit(cache=True, fastmath=False)
def _exp(x):
    """e^x (< 1 ulp): the scalar twin of :func:`_exp_lanes` (same bits), the libm call for
    |x| > 700."""
    if not abs(x) <= _EXP_FAST:
        return math.exp(x)
    y, tn = _exp_kernel(x)
    return y * (2.0 ** int(tn - _ROUND))


@njit(cache=True, fastmath=False, error_model="numpy")
def _exp_lanes(x, out, tn):
    """:func:`_exp` of every entry of ``x`` into ``out`` (same bits), in loops that vectorise
    (no float -> int conversion: 2^n is put together from the bits of n + _ROUND; the numpy
    error model: Python's division raises on a zero divisor, a branch that stops the
    vectorisation, and ``2 - c`` is never zero); ``tn`` (float64, same length) is scratch."""
    n = x.shape[0]
    slow = False
    for b in range(n):
        if not abs(x[b]) <= _EXP_FAST:
            slow = True
    if slow:
        for b in range(n):
            out[b] = _exp(x[b])
        return
    for b in range(n):
        out[b], tn[b] = _exp_kernel(x[b])
    bits = tn.view(np.int64)
    for b in range(n):
        bits[b] = (bits[b] - _ROUND_BITS + 1023) << 52  # the bits of 2^n
    scale = tn
    for b in range(n):
        out[b] = out[b] * scale[b]


@njit(cache=True, fastmath=False)
def _run(k, a, end):
    """Run of nodes starting at ``a`` (< ``end``): ``k_0 = k[a]`` and the first and second
    differences ``d_1, d_2`` read off ``k[a : a + 3]`` (0 where the nodes run out)."""
    d1 = k[a + 1] - k[a] if a + 1 < end else 0.0
    d2 = (k[a + 2] - k[a + 1]) - d1 if a + 2 < end else 0.0
    return k[a], d1, d2


@njit(cache=True, fastmath=False)
def _on_run(kp, kq):
    """Whether the run's predicted wavenumber ``kp`` is node ``kq`` (exactly, for the quantized
    nodes ExpansionSea builds; to 1e-13 for any other node set)."""
    return abs(kp - kq) <= 1e-13 * abs(kq)


@njit(cache=True, fastmath=False, inline="always")
def _advance(p_c, p_s, r_c, r_s, q_c, q_s):
    """One step along a run of nodes: e^{i k_{j+1} s} = e^{i k_j s} r_j and r_{j+1} = r_j q
    (complex products written out; (p, r, q) as (cos, sin) pairs)."""
    t = p_c * r_c - p_s * r_s
    p_s = p_c * r_s + p_s * r_c
    p_c = t
    t = r_c * q_c - r_s * q_s
    r_s = r_c * q_s + r_s * q_c
    r_c = t
    return p_c, p_s, r_c, r_s


@njit(cache=True, fastmath=False, inline="always")
def _run_factors(k0, d1, d2, s):
    """Start of a run: e^{i k0 s}, e^{i d1 s}, e^{i d2 s} as (cos, sin) pairs."""
    pc, ps = _sincos(k0 * s)
    rc, rs = _sincos(d1 * s)
    qc, qs = _sincos(d2 * s)
    return pc, ps, rc, rs, qc, qs


@njit(cache=True, fastmath=False, inline="always")
def _run_exps(k0, d1, d2, z):
    """Start of a run of depth factors: e^{k0 z}, e^{d1 z}, e^{d2 z}."""
    return _exp(k0 * z), _exp(d1 * z), _exp(d2 * z)


@njit(cache=True, fastmath=False)
def _eta_point(z, r, x, y, cos, sin, s_eta, base, k_eta, n_eta):
    s = x * cos + y * sin - s_eta
    acc = 0.0
    j = 0
    while j < n_eta:
        k0, d1, d2 = _run(k_eta, j, n_eta)
        # e^{i k_j s} by recurrence: p_{j+1} = p_j r_j, r_{j+1} = r_j q (|p| = |r| = |q| = 1)
        pc, ps, rc, rs, qc, qs = _run_factors(k0, d1, d2, s)
        kp = k0
        dd = d1
        i = 0
        while j < n_eta:
            if i >= 3 and not _on_run(kp, k_eta[j]):
                break  # a new run starts here
            zz = z[r, base + j]
            acc += zz.real * pc - zz.imag * ps
            pc, ps, rc, rs = _advance(pc, ps, rc, rs, qc, qs)
            kp += dd
            dd += d2
            i += 1
            j += 1
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
def expansion_kinematics(z, points, sea):
    """Velocity and acceleration (B, P, 3) at ``points`` (B, P, 3) from the series ``z`` (R, C)
    and the node data ``sea`` (an :class:`Expansion`: stretching ``mode`` 0 none, 1 vertical, 2
    Wheeler; ``h`` the depth (<= 0: deep water, no image term), ``hw`` the depth used by
    Wheeler's stretching)."""
    return expansion_kinematics_eta(z, points, _NO_ETA, sea)


_NO_ETA = np.zeros((0, 0))


@njit(cache=True, fastmath=False, inline="always")
def _kin_node(zre, zim, wq, nd, rt):
    """One interpolation node of the kinematics kernels (scalar and lanes) for one member (its
    running values ``nd`` a :class:`_Node`, the run's ratios ``rt`` a :class:`_Ratios`): the series
    term Z e^{i k s} into the four sums (u_h, a_h, u_z, a_z before the heading factors), then the
    recurrences of the phase and the two depth factors to the next node of the run. Returns the
    next :class:`_Node`."""
    p_c, p_s, r_c, r_s, e_k, e_kr, e_m, e_mr, ur, uw, vi, vw = nd
    q_c, q_s, e_kq, e_mq = rt
    a = zre * p_c - zim * p_s
    c = zre * p_s + zim * p_c
    # deep water: emz = 0 and ekz > 0, so ekz +- 0 is ekz to the bit
    fa = e_k + e_m
    fd = e_k - e_m
    ur += a * fa
    uw += (c * fa) * wq
    vi += c * fd
    vw += (a * fd) * wq
    p_c, p_s, r_c, r_s = _advance(p_c, p_s, r_c, r_s, q_c, q_s)
    e_k *= e_kr
    e_kr *= e_kq
    e_m *= e_mr
    e_mr *= e_mq
    return _Node(p_c, p_s, r_c, r_s, e_k, e_kr, e_m, e_mr, ur, uw, vi, vw)


#: batch size from which the lane kernels are used (same bits as the scalar ones)
LANES_MIN = 8


@njit(cache=True, fastmath=False)
def expansion_kinematics_eta(z, points, eta_in, sea):
    """:func:`expansion_kinematics` with the surface elevation at the points given where it is
    already known: ``eta_in`` (B, P), NaN (or an empty array) where it must be computed. The
    fused loop passes the Morison wetting elevation of fully wet strips, whose load point is the
    strip centre the elevation was computed at."""
    cos, sin, mode, h, h_wheeler = sea.cos, sea.sin, sea.mode, sea.h, sea.hw
    s_eta_p, grp, k_eta, q_eta = sea.s_eta_p, sea.grp, sea.k_eta, sea.q_eta
    starts, orders, k_q, sref_q, w_q = sea.starts, sea.orders, sea.k_q, sea.sref_q, sea.w_q
    n_b, n_p = points.shape[0], points.shape[1]
    given = eta_in.shape[0] > 0
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
                eta = eta_in[b, p] if given else np.nan
                if not math.isfinite(eta):
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
            st = starts[p]
            end = st + orders[p]
            q = st
            while q < end:
                # a run of nodes k_j = k0 + j d1 + j (j - 1) / 2 d2 from node q: e^{i k_j sp},
                # e^{k_j z} and e^{-k_j (z + 2h)} follow p_{j+1} = p_j r_j, r_{j+1} = r_j c
                # (all factors of modulus <= 1 for -h <= z <= 0)
                sp = s - sref_q[q]
                k0, d1, d2 = _run(k_q, q, end)
                pc, ps, rc, rs, qc, qs = _run_factors(k0, d1, d2, sp)
                ekz, ekz_r, ekz_q = _run_exps(k0, d1, d2, zev)
                emz = 0.0
                emz_r = 0.0
                emz_q = 0.0
                if finite:
                    zb = zev + 2.0 * h
                    emz, emz_r, emz_q = _run_exps(-k0, -d1, -d2, zb)
                kp = k0
                dd = d1
                i = 0
                while q < end:
                    if i >= 3 and not _on_run(kp, k_q[q]):
                        break  # a new run starts here
                    zz = z[r, q_eta + q]
                    pc, ps, rc, rs, ekz, ekz_r, emz, emz_r, u_re, uw_im, v_im, vw_re = _kin_node(
                        zz.real, zz.imag, w_q[q],
                        _Node(pc, ps, rc, rs, ekz, ekz_r, emz, emz_r, u_re, uw_im, v_im, vw_re),
                        _Ratios(qc, qs, ekz_q, emz_q),
                    )  # fmt: skip
                    kp += dd
                    dd += d2
                    i += 1
                    q += 1
            vel[b, p, 0] = u_re * cos
            vel[b, p, 1] = u_re * sin
            vel[b, p, 2] = v_im
            acc[b, p, 0] = uw_im * cos
            acc[b, p, 1] = uw_im * sin
            acc[b, p, 2] = -vw_re
    return vel, acc


# --------------------------------------------------------------------------------------------
# Batch-lane versions for the fused loop: the same operations per member as the kernels above,
# in the same order, with the batch members as the innermost loop so that the per-node work
# runs in SIMD lanes (no sums across members: each member's bits are unchanged).


@njit(cache=True, fastmath=False)
def _sincos_lanes(x, c_out, s_out):
    """:func:`_sincos` of every entry of ``x`` (same bits), in a loop that vectorises."""
    n = x.shape[0]
    slow = False
    for b in range(n):
        if not abs(x[b]) < 1.6e6:
            slow = True
    if slow:
        for b in range(n):
            c_out[b], s_out[b] = _sincos(x[b])
        return
    for b in range(n):
        xb = x[b]
        fn = np.floor(xb * _INV_PIO2 + 0.5)
        y = ((xb - fn * _PIO2_1) - fn * _PIO2_2) - fn * _PIO2_3
        y = y - fn * _PIO2_3T
        z = y * y
        z2 = z * z
        ps = (_S1 + z * _S2) + z2 * ((_S3 + z * _S4) + z2 * (_S5 + z * _S6))
        sn = y + y * z * ps
        hz = 0.5 * z
        w = 1.0 - hz
        pc = (_C1 + z * _C2) + z2 * ((_C3 + z * _C4) + z2 * (_C5 + z * _C6))
        c = w + (((1.0 - w) - hz) + z2 * pc)
        quad = fn - 4.0 * np.floor(fn * 0.25)  # fn mod 4, exactly, as a float in {0,1,2,3}
        half = np.floor(quad * 0.5)
        swap = quad - 2.0 * half
        q1 = quad + 1.0
        q1 = q1 - 4.0 * np.floor(q1 * 0.25)
        sign_c = 1.0 - 2.0 * np.floor(q1 * 0.5)
        sign_s = 1.0 - 2.0 * half
        c_out[b] = sign_c * (c * (1.0 - swap) + sn * swap)
        s_out[b] = sign_s * (sn * (1.0 - swap) + c * swap)


@njit(cache=True, fastmath=False)
def node_runs(k, start, end):
    """The runs of :func:`_eta_point` / :func:`expansion_kinematics_eta` over nodes
    ``start .. end - 1``, as the scalar kernels find them: (first node, length) int arrays and
    (k0, d1, d2) float arrays, one entry per run."""
    n = max(end - start, 0)
    first = np.empty(n, dtype=np.int64)
    length = np.empty(n, dtype=np.int64)
    kd = np.empty((n, 3))
    m = 0
    q = start
    while q < end:
        k0, d1, d2 = _run(k, q, end)
        kp = k0
        dd = d1
        i = 0
        q0 = q
        while q < end:
            if i >= 3 and not _on_run(kp, k[q]):
                break
            kp += dd
            dd += d2
            i += 1
            q += 1
        first[m] = q0
        length[m] = q - q0
        kd[m, 0] = k0
        kd[m, 1] = d1
        kd[m, 2] = d2
        m += 1
    return first[:m].copy(), length[:m].copy(), kd[:m].copy()


@njit(cache=True, fastmath=False)
def store_series(table, r, q0, series, scale):
    """``table[:, r, q0 + c] = series[c, :] * scale[c]`` rounded to complex64, in tiles of 64
    time rows (the set-up of ExpansionSea; same bits as the NumPy assignment)."""
    n_q, m = series.shape
    for j0 in range(0, m, 64):
        j1 = min(j0 + 64, m)
        for c in range(n_q):
            sc = scale[c]
            for j in range(j0, j1):
                v = series[c, j]
                table[j, r, q0 + c] = complex(v.real * sc, v.imag * sc)
    return None


@njit(cache=True, fastmath=False)
def series_lanes(z):
    """The series (R, C) complex as real and imaginary parts (C, R): members contiguous."""
    n_r, n_c = z.shape
    zr = np.empty((n_c, n_r))
    zi = np.empty((n_c, n_r))
    for r in range(n_r):
        for c in range(n_c):
            zr[c, r] = z[r, c].real
            zi[c, r] = z[r, c].imag
    return zr, zi


@njit(cache=True, fastmath=False, inline="always")
def _run_factors_lanes(k0, d1, d2, s, tmp, pc, ps, rc, rs, qc, qs):
    """Start of a run for every member: e^{i k0 s}, e^{i d1 s}, e^{i d2 s} as (cos, sin) lanes."""
    for b in range(s.shape[0]):
        tmp[b] = k0 * s[b]
    _sincos_lanes(tmp, pc, ps)
    for b in range(s.shape[0]):
        tmp[b] = d1 * s[b]
    _sincos_lanes(tmp, rc, rs)
    for b in range(s.shape[0]):
        tmp[b] = d2 * s[b]
    _sincos_lanes(tmp, qc, qs)


@njit(cache=True, fastmath=False)
def _eta_lanes(zr, zi, base, s, runs, acc, w):
    """Elevation ``acc`` (B,) at offsets ``s`` (B,) of one point from the series at columns
    base + node (``w``: the work lanes, a :class:`_Lanes`)."""
    pc, ps, rc, rs, qc, qs, tmp = w.pc, w.ps, w.rc, w.rs, w.qc, w.qs, w.tmp
    n_b = s.shape[0]
    per_member = zr.shape[1] > 1
    first, length, kd = runs
    for b in range(n_b):
        acc[b] = 0.0
    for j in range(first.shape[0]):
        _run_factors_lanes(kd[j, 0], kd[j, 1], kd[j, 2], s, tmp, pc, ps, rc, rs, qc, qs)
        for i in range(length[j]):
            col = base + first[j] + i
            # one pass over the members per node: the series term, then the recurrences
            if per_member:
                zrc = zr[col]
                zic = zi[col]
                for b in range(n_b):
                    p_c = pc[b]
                    p_s = ps[b]
                    r_c = rc[b]
                    r_s = rs[b]
                    acc[b] += zrc[b] * p_c - zic[b] * p_s
                    pc[b], ps[b], rc[b], rs[b] = _advance(p_c, p_s, r_c, r_s, qc[b], qs[b])
            else:
                a = zr[col, 0]
                c = zi[col, 0]
                for b in range(n_b):
                    p_c = pc[b]
                    p_s = ps[b]
                    r_c = rc[b]
                    r_s = rs[b]
                    acc[b] += a * p_c - c * p_s
                    pc[b], ps[b], rc[b], rs[b] = _advance(p_c, p_s, r_c, r_s, qc[b], qs[b])


@njit(cache=True, fastmath=False)
def expansion_eta_lanes(zr, zi, xy, cos, sin, s_eta_p, grp, eta_runs, n_eta):
    """:func:`expansion_eta` (same bits) from :func:`series_lanes`; ``eta_runs`` =
    ``node_runs(k_eta, 0, n_eta)``."""
    n_b, n_p = xy.shape[0], xy.shape[1]
    out = np.empty((n_b, n_p))
    s = np.empty(n_b)
    acc = np.empty(n_b)
    pc = np.empty(n_b)
    ps = np.empty(n_b)
    rc = np.empty(n_b)
    rs = np.empty(n_b)
    qc = np.empty(n_b)
    qs = np.empty(n_b)
    tmp = np.empty(n_b)
    w = _Lanes(pc, ps, rc, rs, qc, qs, tmp)
    for p in range(n_p):
        for b in range(n_b):
            s[b] = xy[b, p, 0] * cos + xy[b, p, 1] * sin - s_eta_p[p]
        _eta_lanes(zr, zi, grp[p] * n_eta, s, eta_runs, acc, w)
        for b in range(n_b):
            out[b, p] = acc[b]
    return out


@njit(cache=True, fastmath=False)
def expansion_eta_chains(zr, zi, xy, cos, sin, s_eta_p, grp, eta_runs, n_eta, ch_start, ch_count):
    """:func:`expansion_eta_lanes` for points in chains (any B): chain ``c`` is the points
    ``ch_start[c] ..`` (``ch_count[c]`` of them) of one elevation group whose offsets along the
    heading are equally spaced (the strips of a straight member of a rigid body: ``s_i = s_0 + i
    delta`` in exact arithmetic). Along a chain the node factors follow ``e^{i k s_{i+1}} =
    e^{i k s_i} e^{i k delta}``: the run recurrences (3 sin/cos pairs per run) are done once per
    chain for ``e^{i k s_0}`` and ``e^{i k delta}`` instead of once per point, and a point costs a
    complex product per node. ``delta`` is the mean spacing of the chain's computed end offsets;
    the phase then differs from the point-by-point kernel's by ~n ulps (rounding-level). A chain
    of one point gives the bits of :func:`expansion_eta_lanes`."""
    n_b = xy.shape[0]
    n_p = xy.shape[1]
    per_member = zr.shape[1] > 1
    first, length, kd = eta_runs
    out = np.empty((n_b, n_p))
    lanes = np.empty((16, n_b))  # per-member scratch rows
    s0, dl, tmp, acc = lanes[0], lanes[1], lanes[2], lanes[3]
    pc, ps, rc, rs, qc, qs = lanes[4], lanes[5], lanes[6], lanes[7], lanes[8], lanes[9]
    ec, es, fc, fs, gc, gs = lanes[10], lanes[11], lanes[12], lanes[13], lanes[14], lanes[15]
    phc = np.empty((n_eta, n_b))  # e^{i k_j s} of the current point, node by node
    phs = np.empty((n_eta, n_b))
    stc = np.empty((n_eta, n_b))  # e^{i k_j delta}
    sts = np.empty((n_eta, n_b))
    zrow_r = np.empty(n_b)
    zrow_i = np.empty(n_b)
    for c in range(ch_start.shape[0]):
        p0 = ch_start[c]
        n = ch_count[c]
        base = grp[p0] * n_eta
        for b in range(n_b):
            s0[b] = xy[b, p0, 0] * cos + xy[b, p0, 1] * sin - s_eta_p[p0]
            if n > 1:
                sl = xy[b, p0 + n - 1, 0] * cos + xy[b, p0 + n - 1, 1] * sin - s_eta_p[p0]
                dl[b] = (sl - s0[b]) / (n - 1)
            else:
                dl[b] = 0.0
        for j in range(first.shape[0]):
            _run_factors_lanes(kd[j, 0], kd[j, 1], kd[j, 2], s0, tmp, pc, ps, rc, rs, qc, qs)
            if n > 1:
                _run_factors_lanes(kd[j, 0], kd[j, 1], kd[j, 2], dl, tmp, ec, es, fc, fs, gc, gs)
            for i in range(length[j]):
                node = first[j] + i
                for b in range(n_b):
                    phc[node, b] = pc[b]
                    phs[node, b] = ps[b]
                    pc[b], ps[b], rc[b], rs[b] = _advance(pc[b], ps[b], rc[b], rs[b], qc[b], qs[b])
                if n > 1:
                    for b in range(n_b):
                        stc[node, b] = ec[b]
                        sts[node, b] = es[b]
                        ec[b], es[b], fc[b], fs[b] = _advance(
                            ec[b], es[b], fc[b], fs[b], gc[b], gs[b]
                        )
        for i in range(n):
            for b in range(n_b):
                acc[b] = 0.0
            for node in range(n_eta):
                col = base + node
                if per_member:
                    row_r = zr[col]
                    row_i = zi[col]
                else:
                    row_r = zrow_r
                    row_i = zrow_i
                    for b in range(n_b):
                        row_r[b] = zr[col, 0]
                        row_i[b] = zi[col, 0]
                if i + 1 < n:
                    for b in range(n_b):
                        p_c = phc[node, b]
                        p_s = phs[node, b]
                        acc[b] += row_r[b] * p_c - row_i[b] * p_s
                        phc[node, b] = p_c * stc[node, b] - p_s * sts[node, b]
                        phs[node, b] = p_c * sts[node, b] + p_s * stc[node, b]
                else:
                    for b in range(n_b):
                        acc[b] += row_r[b] * phc[node, b] - row_i[b] * phs[node, b]
            for b in range(n_b):
                out[b, p0 + i] = acc[b]
    return out


@njit(cache=True, fastmath=False)
def expansion_eta_chains_scalar(z, xy, cos, sin, s_eta_p, grp, eta_runs, n_eta, ch_start, ch_count):
    """:func:`expansion_eta_chains` (same bits) from the complex series ``z`` (R, C), member by
    member: the kernel for B < LANES_MIN, where the lane loops cost more than they save."""
    n_b = xy.shape[0]
    n_p = xy.shape[1]
    first, length, kd = eta_runs
    out = np.empty((n_b, n_p))
    phc = np.empty(n_eta)
    phs = np.empty(n_eta)
    stc = np.empty(n_eta)
    sts = np.empty(n_eta)
    for b in range(n_b):
        r = 0 if z.shape[0] == 1 else b
        for c in range(ch_start.shape[0]):
            p0 = ch_start[c]
            n = ch_count[c]
            base = grp[p0] * n_eta
            s0 = xy[b, p0, 0] * cos + xy[b, p0, 1] * sin - s_eta_p[p0]
            if n > 1:
                sl = xy[b, p0 + n - 1, 0] * cos + xy[b, p0 + n - 1, 1] * sin - s_eta_p[p0]
                dl = (sl - s0) / (n - 1)
            else:
                dl = 0.0
            for j in range(first.shape[0]):
                pc, ps, rc, rs, qc, qs = _run_factors(kd[j, 0], kd[j, 1], kd[j, 2], s0)
                ec = es = fc = fs = gc = gs = 0.0
                if n > 1:
                    ec, es, fc, fs, gc, gs = _run_factors(kd[j, 0], kd[j, 1], kd[j, 2], dl)
                for i in range(length[j]):
                    node = first[j] + i
                    phc[node] = pc
                    phs[node] = ps
                    pc, ps, rc, rs = _advance(pc, ps, rc, rs, qc, qs)
                    if n > 1:
                        stc[node] = ec
                        sts[node] = es
                        ec, es, fc, fs = _advance(ec, es, fc, fs, gc, gs)
            for i in range(n):
                acc = 0.0
                for node in range(n_eta):
                    zz = z[r, base + node]
                    p_c = phc[node]
                    p_s = phs[node]
                    acc += zz.real * p_c - zz.imag * p_s
                    if i + 1 < n:
                        phc[node] = p_c * stc[node] - p_s * sts[node]
                        phs[node] = p_c * sts[node] + p_s * stc[node]
                out[b, p0 + i] = acc
    return out


@njit(cache=True, fastmath=False)
def expansion_kinematics_lanes(zr, zi, points, eta_in, sea):
    """:func:`expansion_kinematics_eta` (same bits) from :func:`series_lanes`; ``sea.point_runs``
    = (first, length, kd, offsets): the :func:`node_runs` of every point concatenated, point p's
    runs at offsets[p] .. offsets[p + 1] - 1 (:func:`point_runs`); ``sea.eta_runs`` those of the
    elevation nodes."""
    cos, sin, mode, h, h_wheeler = sea.cos, sea.sin, sea.mode, sea.h, sea.hw
    s_eta_p, grp, eta_runs, n_eta = sea.s_eta_p, sea.grp, sea.eta_runs, sea.k_eta.shape[0]
    q_eta, runs_p, sref_q, w_q = sea.q_eta, sea.point_runs, sea.sref_q, sea.w_q
    n_b, n_p = points.shape[0], points.shape[1]
    per_member = zr.shape[1] > 1
    vel = np.zeros((n_b, n_p, 3))
    acc = np.zeros((n_b, n_p, 3))
    finite = h > 0.0
    s = np.empty(n_b)
    sp = np.empty(n_b)
    se = np.empty(n_b)
    zev = np.empty(n_b)
    wet = np.empty(n_b, dtype=np.bool_)
    eta = np.empty(n_b)
    pc = np.empty(n_b)
    ps = np.empty(n_b)
    rc = np.empty(n_b)
    rs = np.empty(n_b)
    qc = np.empty(n_b)
    qs = np.empty(n_b)
    tmp = np.empty(n_b)
    tn_scratch = np.empty(n_b)
    ekz = np.empty(n_b)
    ekz_r = np.empty(n_b)
    ekz_q = np.empty(n_b)
    emz = np.empty(n_b)
    emz_r = np.empty(n_b)
    emz_q = np.empty(n_b)
    u_re = np.empty(n_b)
    uw_im = np.empty(n_b)
    v_im = np.empty(n_b)
    vw_re = np.empty(n_b)
    zrow_r = np.empty(n_b)
    zrow_i = np.empty(n_b)
    zrow_r2 = np.empty(n_b)
    zrow_i2 = np.empty(n_b)
    ew = _Lanes(pc, ps, rc, rs, qc, qs, u_re)
    for p in range(n_p):
        if mode != 0:
            need = False
            for b in range(n_b):
                eta[b] = eta_in[b, p] if eta_in.shape[0] > 0 else np.nan
                if not math.isfinite(eta[b]):
                    need = True
            if need:
                for b in range(n_b):
                    se[b] = points[b, p, 0] * cos + points[b, p, 1] * sin - s_eta_p[p]
                _eta_lanes(zr, zi, grp[p] * n_eta, se, eta_runs, tmp, ew)
                for b in range(n_b):
                    if not math.isfinite(eta[b]):
                        eta[b] = tmp[b]
        any_wet = False
        for b in range(n_b):
            zc = points[b, p, 2]
            if mode == 0:
                zev[b] = min(zc, 0.0)
                wet[b] = zc <= 0.0
            else:
                wet[b] = zc <= eta[b]
                if mode == 1:
                    zev[b] = min(zc, 0.0)
                else:
                    zev[b] = min(h_wheeler * (zc - eta[b]) / (h_wheeler + eta[b]), 0.0)
            any_wet = any_wet or wet[b]
            s[b] = points[b, p, 0] * cos + points[b, p, 1] * sin
            u_re[b] = 0.0
            uw_im[b] = 0.0
            v_im[b] = 0.0
            vw_re[b] = 0.0
        if not any_wet:
            continue
        r_first, r_len, r_kd, r_off = runs_p
        for j in range(r_off[p], r_off[p + 1]):
            q0 = r_first[j]
            k0, d1, d2 = r_kd[j, 0], r_kd[j, 1], r_kd[j, 2]
            for b in range(n_b):
                sp[b] = s[b] - sref_q[q0]
            _run_factors_lanes(k0, d1, d2, sp, tmp, pc, ps, rc, rs, qc, qs)
            for b in range(n_b):
                tmp[b] = k0 * zev[b]
            _exp_lanes(tmp, ekz, tn_scratch)
            for b in range(n_b):
                tmp[b] = d1 * zev[b]
            _exp_lanes(tmp, ekz_r, tn_scratch)
            for b in range(n_b):
                tmp[b] = d2 * zev[b]
            _exp_lanes(tmp, ekz_q, tn_scratch)
            if finite:
                for b in range(n_b):
                    tmp[b] = -k0 * (zev[b] + 2.0 * h)
                _exp_lanes(tmp, emz, tn_scratch)
                for b in range(n_b):
                    tmp[b] = -d1 * (zev[b] + 2.0 * h)
                _exp_lanes(tmp, emz_r, tn_scratch)
                for b in range(n_b):
                    tmp[b] = -d2 * (zev[b] + 2.0 * h)
                _exp_lanes(tmp, emz_q, tn_scratch)
            else:
                for b in range(n_b):
                    emz[b] = 0.0
                    emz_r[b] = 0.0
                    emz_q[b] = 0.0
            # nodes in pairs: each member's running state stays in registers for two nodes
            # (the same operations in the same order per member as node by node)
            n_run = r_len[j]
            i = 0
            while i < n_run:
                q = q0 + i
                col = q_eta + q
                two = i + 1 < n_run
                wq = w_q[q]
                wq2 = w_q[q + 1] if two else 0.0
                if per_member:
                    row_r = zr[col]
                    row_i = zi[col]
                    row_r2 = zr[col + 1] if two else zr[col]
                    row_i2 = zi[col + 1] if two else zi[col]
                else:
                    row_r = zrow_r
                    row_i = zrow_i
                    row_r2 = zrow_r2
                    row_i2 = zrow_i2
                    for b in range(n_b):
                        row_r[b] = zr[col, 0]
                        row_i[b] = zi[col, 0]
                        row_r2[b] = zr[col + 1, 0] if two else 0.0
                        row_i2[b] = zi[col + 1, 0] if two else 0.0
                for b in range(n_b):
                    p_c, p_s, r_c, r_s = pc[b], ps[b], rc[b], rs[b]
                    e_k, e_kr, e_m, e_mr = ekz[b], ekz_r[b], emz[b], emz_r[b]
                    ur, uw, vi, vw = u_re[b], uw_im[b], v_im[b], vw_re[b]
                    rt = _Ratios(qc[b], qs[b], ekz_q[b], emz_q[b])
                    p_c, p_s, r_c, r_s, e_k, e_kr, e_m, e_mr, ur, uw, vi, vw = _kin_node(
                        row_r[b], row_i[b], wq,
                        _Node(p_c, p_s, r_c, r_s, e_k, e_kr, e_m, e_mr, ur, uw, vi, vw), rt,
                    )  # fmt: skip
                    if two:
                        p_c, p_s, r_c, r_s, e_k, e_kr, e_m, e_mr, ur, uw, vi, vw = _kin_node(
                            row_r2[b], row_i2[b], wq2,
                            _Node(p_c, p_s, r_c, r_s, e_k, e_kr, e_m, e_mr, ur, uw, vi, vw), rt,
                        )  # fmt: skip
                    pc[b], ps[b], rc[b], rs[b] = p_c, p_s, r_c, r_s
                    ekz[b], ekz_r[b], emz[b], emz_r[b] = e_k, e_kr, e_m, e_mr
                    u_re[b], uw_im[b], v_im[b], vw_re[b] = ur, uw, vi, vw
                i += 2
        for b in range(n_b):
            if wet[b]:
                vel[b, p, 0] = u_re[b] * cos
                vel[b, p, 1] = u_re[b] * sin
                vel[b, p, 2] = v_im[b]
                acc[b, p, 0] = uw_im[b] * cos
                acc[b, p, 1] = uw_im[b] * sin
                acc[b, p, 2] = -vw_re[b]
    return vel, acc


@njit(cache=True, fastmath=False)
def point_runs(k_q, starts, orders):
    """:func:`node_runs` of every point, concatenated, with the offsets (P + 1,)."""
    n_p = starts.shape[0]
    off = np.zeros(n_p + 1, dtype=np.int64)
    total = 0
    for p in range(n_p):
        total += orders[p]
    first = np.empty(total, dtype=np.int64)
    length = np.empty(total, dtype=np.int64)
    kd = np.empty((total, 3))
    m = 0
    for p in range(n_p):
        f, ln, k = node_runs(k_q, starts[p], starts[p] + orders[p])
        for j in range(f.shape[0]):
            first[m] = f[j]
            length[m] = ln[j]
            kd[m] = k[j]
            m += 1
        off[p + 1] = m
    return first[:m].copy(), length[:m].copy(), kd[:m].copy(), off
