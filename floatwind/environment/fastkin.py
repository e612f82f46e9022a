"""Fast, accurate wave kinematics at displaced points: precomputed frequency-interpolation channels.

Problem. A Morison load needs the Airy kinematics at P strips every right-hand-side call. The direct
sum costs O(P N) complex exponentials (N ~ 4000 components for a 3-hour sea); a time grid at the
undisplaced strips (:class:`~floatwind.environment.waves.GriddedSea`) is cheap but a first-order
Taylor correction fails once ``k |d| ~ 1`` (a spar sits ~8 m downwind and moves several metres).

Method (exact in the limit, error measured and bounded at set-up). For a long-crested sea with
heading th, any channel at a point displaced from its reference ``p_ref`` by ``s`` along th
(cross-wave offsets change nothing) and evaluated at depth ``z`` is

    ch(t) = Re sum_n a_n g(omega_n) e^{-i omega_n t},   a_n = A_n e^{i k_n s_ref} w(omega_n),
    g(omega) = e^{i k(omega) s} F_ch(omega, z) / w(omega),

with ``w = omega C(z_ref)`` (C, S the finite-depth factors of waves.py) and ``F = omega C``,
``-i omega S``, ``-i omega^2 C``, ``-omega^2 S`` for u_h, u_z, a_h, a_z. ``g`` is a smooth function
of omega. Interpolating it by a polynomial in omega of degree J-1 at J nodes ``omega_i`` of the
strip's band, ``g(omega) ~ sum_i g(omega_i) l_i(omega)`` (Lagrange basis l_i), gives

    ch(t) ~ Re sum_i g(omega_i) Z_i(t),   Z_i(t) = sum_n a_n l_i(omega_n) e^{-i omega_n t},

so J complex series ``Z_i`` per strip are synthesised once by FFT on the sea's Fourier grid, and a
call costs J multiply-adds per point and channel, for any offset. The elevation uses the same
construction with ``w = 1`` at each distinct horizontal reference position.

Nodes in runs of quadratic wavenumber (what makes a call cheap). A call needs ``e^{i k_i s}``,
``e^{k_i z}`` and ``e^{-k_i (z + 2h)}`` at every node. The nodes are placed so that their
wavenumbers form one or two runs ``k_j = k_0 + j d_1 + j (j - 1) / 2 d_2``; along a run these
factors follow two-term recurrences (``p_{j+1} = p_j r_j``, ``r_{j+1} = r_j q``, all of modulus
<= 1), so the kernels evaluate 3 sin/cos pairs and 3 or 6 exponentials per run instead of 3-4
transcendental calls per node. One run through ``k(lo)``, ``k(mid)``, ``k(hi)`` is exactly
equispaced in omega in deep water (k = omega^2 / g) and nearly so in finite depth; two runs, each
through three Chebyshev nodes of its half band and clustered at its end, behave like Chebyshev
nodes (smaller Lebesgue constant) for the high orders. Nodes equispaced in k itself would make the
recurrence a plain power, but ``a_h, a_z`` interpolate ``omega(k) g``, which has the singularity of
``sqrt(k)`` (finite depth: of ``tanh``) just below the band where the energy sits: its polynomial
interpolation in k converges only algebraically (0.3 % at order 19 on a JONSWAP Tp 12 s sea).

Error control (set-up, per strip): components whose acceleration at the highest depth reached
(``z_ref + dz_up``) carries less than ``(tol/2)^2`` of the energy are left out of the band; then J is
the smallest order (one run tried before two at each order) whose interpolation error, weighted by
the strip's actual component energies, plus a bound on the complex64 rounding of the table
amplified by the interpolation (``2^-24 sum_i |g_i| |Z_i|_rms / |ch|_rms``), is below ``tol/2``
(relative rms) for horizontal offsets ``|s| <= max_offset`` and vertical offsets in
``[-dz_down, dz_up]``, for velocity and acceleration, horizontal (``C(z) / C(z_ref)``) and
vertical (``S(z) / C(z_ref)``) channels. Where no order up to ``max_order`` does (a broad band:
a recorded or imported spectrum with its tail, over which ``e^{i k s}`` turns by tens of radians),
the band is split into sub-bands halved in wavenumber, each with its own nodes and series
(:meth:`ExpansionSea._search_bands`); ExpansionAccuracyError if that fails too. Time is interpolated by 4-point cubic Lagrange
on a step of 12 samples per shortest period (error <= 0.0234 (omega dt)^4, 0.18 % at the top
frequency, much less for the energetic part). Measured figures: ``benchmarks/bench_environment.py``
and ``docs/environment.md``.

Limits: long-crested seas only (with cos-2s spreading the phase ``k_n . d`` is not a function of
omega alone); memory ``8 M R Q`` bytes (M time steps, R realizations, Q = sum of orders over the
points and elevation positions, ~10 per strip).
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import threading
from collections import OrderedDict

import numpy as np

from floatwind import _kernels
from floatwind.environment.base import time_runs
from floatwind.environment.dispersion import _depth_factors, wavenumber
from floatwind.environment.fourier import fft, next_fast_len

logger = logging.getLogger(__name__)


_NO_ETA = np.zeros((0, 0))


class ExpansionAccuracyError(ValueError):
    """The expansion cannot reach its accuracy target for this sea and these points."""


class ExpansionMemoryError(ValueError):
    """The table the expansion needs exceeds the memory it was given (``max_bytes``)."""


def _default_budget() -> int:
    """2 GiB, or 30 % of the physical memory where that is more (two study workers with a table
    each then leave 40 % for everything else; the table size used for the decision,
    ``LinearSea.expansion_table_bytes``, is an upper bound: ~12 channels per point where the
    expansion usually needs ~9-10)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        total = 0
    return int(max(2 * 1024**3, 0.3 * total))


#: ``kinematics: auto`` builds the fast evaluator only if its table fits in this many bytes
#: (a study's automatic batch size keeps each batch's table within it)
AUTO_MEMORY_BUDGET = _default_budget()


#: recent order choices (:meth:`ExpansionSea._choose`), most recently used last
_CHOICES: OrderedDict = OrderedDict()
_CHOICES_MAX = 128
_CHOICES_LOCK = threading.Lock()


def _bary_weights(x: np.ndarray) -> np.ndarray:
    """Barycentric weights ``1 / prod_{j != i} (x_i - x_j)`` of distinct nodes x (rescaled)."""
    if x.size == 1:
        return np.ones(1)
    d = x[:, None] - x[None, :]
    np.fill_diagonal(d, 1.0)
    d *= 4.0 / (x.max() - x.min())  # capacity scaling: no overflow / underflow of the products
    w = 1.0 / np.prod(d, axis=1)
    return w / np.abs(w).max()


#: Node wavenumbers are rounded to multiples of this (rad/m), so that ``k_j = k_0 + j d_1 +
#: j (j - 1) / 2 d_2`` and its differences are exact in floating point (the kernels' recurrences).
_K_QUANTUM = 2.0**-40


def _quadratic_run(kk: np.ndarray) -> np.ndarray:
    """Increasing quadratic sequence ``k_0 + j d_1 + j (j - 1) / 2 d_2`` (j < m = len(kk)) through
    kk[0], kk[(m - 1) // 2] and kk[-1], its vertex kept at j <= -1/2 (clustered at the start like
    Chebyshev nodes at an end); quantized to ``_K_QUANTUM``."""
    m = kk.size
    if m <= 2:
        return kk.copy()
    jm, j1 = (m - 1) // 2, m - 1
    a, c = np.linalg.solve(
        np.array([[jm, jm**2], [j1, j1**2]], dtype=float), [kk[jm] - kk[0], kk[-1] - kk[0]]
    )
    if a + c <= 0.0 or a + (2 * j1 - 1) * c <= 0.0 or (c > 0.0 and a / c < 1.0):
        c = (kk[-1] - kk[0]) / (j1 * (j1 + 1))  # k_0 + c j (j + 1): vertex at j = -1/2
        a = c
    q = _K_QUANTUM
    k0, d1, d2 = (round(v / q) * q for v in (kk[0], a + c, 2.0 * c))
    j = np.arange(m)
    return k0 + j * d1 + (j * (j - 1) // 2) * d2  # exact: integer multiples of the quantum


def _chirp_nodes(lo: float, hi: float, n: int, depth: float, gravity: float, split: bool):
    """n interpolation nodes on the frequency band [lo, hi] made of runs whose wavenumbers are
    quadratic sequences in the index (the kernels' recurrences). ``split=False``: one run through
    ``k(lo)``, ``k((lo + hi) / 2)``, ``k(hi)`` (deep water: exactly equispaced in omega, as k is
    omega^2 / g; finite depth: nearly so). ``split=True``: two runs, each through three of the
    Chebyshev nodes of its half and clustered at its band end like them (better Lebesgue constant,
    twice the set-up cost per point in the kernels). Returns (k nodes, omega nodes, barycentric
    weights in omega). One node: the band centre."""
    if n == 1:
        k = wavenumber(np.array([0.5 * (lo + hi)]), depth, gravity)
    elif not split:
        k = _quadratic_run(wavenumber(np.array([lo, 0.5 * (lo + hi), hi]), depth, gravity))
        if n != 3:
            k0, km, k1 = k
            m = n - 1  # quadratic in t = j / m through t = 0, 1/2, 1
            b = (-3.0 * k0 + 4.0 * km - k1) / m
            c = (2.0 * k0 - 4.0 * km + 2.0 * k1) / m**2
            if b + c <= 0.0 or b + (2 * m - 1) * c <= 0.0:  # not increasing: arithmetic instead
                b, c = (k1 - k0) / m, 0.0
            q = _K_QUANTUM
            k0, d1, d2 = (round(v / q) * q for v in (k0, b + c, 2.0 * c))
            j = np.arange(n)
            k = k0 + j * d1 + (j * (j - 1) // 2) * d2
    else:
        i = np.arange(n)
        x = np.sort(0.5 * (lo + hi) - 0.5 * (hi - lo) * np.cos((2 * i + 1) * math.pi / (2 * n)))
        kx = wavenumber(x, depth, gravity)
        m1 = (n + 1) // 2
        k = np.concatenate([_quadratic_run(kx[:m1]), -_quadratic_run(-kx[m1:][::-1])[::-1]])
    w = np.sqrt(gravity * k * (np.tanh(k * depth) if np.isfinite(depth) else 1.0))
    return k, w, _bary_weights(w)


#: Sub-bands (:meth:`ExpansionSea._search_bands`): most nodes per sub-band and most halvings
BAND_MAX_ORDER = 16
BAND_MAX_LEVEL = 8

#: Relative rounding of a complex64 entry of the stored table (unit roundoff of float32, 2^-24).
_TABLE_ROUNDING = 2.0**-24


def _store_series(table, r, q0, series, scale) -> None:
    """table[:, r, q0 + c] = series[c] * scale[c] in complex64 (the compiled kernel transposes in
    tiles: the strided NumPy assignment of the transposed block took half the set-up time)."""
    if _kernels.enabled():
        from floatwind._kernels import waves as kw

        kw.store_series(table, r, q0, series, scale)
    else:
        table[:, r, q0 : q0 + series.shape[0]] = (series * scale[:, None]).T


def _lagrange_matrix(xs: np.ndarray, nodes: np.ndarray, bw: np.ndarray) -> np.ndarray:
    """l_i(xs) (len(xs), len(nodes)), barycentric form, exact at the nodes."""
    diff = xs[:, None] - nodes[None, :]
    hit = diff == 0.0
    diff[hit] = 1.0
    q = bw / diff
    out = q / q.sum(axis=1, keepdims=True)
    rows = hit.any(axis=1)
    if rows.any():
        out[rows] = hit[rows].astype(float)
    return out


class ExpansionSea:
    """Kinematics of a long-crested :class:`~floatwind.environment.waves.LinearSea` at points near
    fixed reference points, for large offsets (see the module docstring).

    Parameters
    ----------
    sea : LinearSea, long-crested, frequencies on a Fourier grid (``sea.harmonic``)
    points_ref : (P, 3) or (1, P, 3) reference (undisplaced) points (m), inertial frame
    dt : time step of the stored series (s); default ``min(pi / (6 omega_max), 0.25)``
    max_offset : horizontal offset (m) up to which the error bound holds (any direction)
    max_dz : vertical offset (m) up to which it holds (Wheeler's shift of the evaluation depth,
        ``eta (h + z) / (h + eta)``, is added with eta up to 4 standard deviations)
    tol : relative rms error target per strip and channel (velocity, acceleration)
    max_order : largest number of interpolation nodes per point (the nearly equispaced nodes'
        Lebesgue constant makes the table rounding dominate well before 28)
    max_bytes : raise :class:`ExpansionMemoryError` before allocating a larger table (the
        orders are known only after the search; sub-bands can need more series than the
        estimate ``LinearSea.expansion_table_bytes``)

    The object follows the sea-state contract for ``P`` points in the order of ``points_ref``
    (``elevation``: (B, P, 2); ``kinematics``: (B, P, 3)); another P falls back to the sea's
    direct evaluation.
    """

    def __init__(
        self,
        sea,
        points_ref: np.ndarray,
        *,
        dt: float | None = None,
        max_offset: float = 15.0,
        max_dz: float = 2.0,
        tol: float = 5e-3,
        max_order: int = 28,
        max_bytes: int | None = None,
    ):
        if sea.harmonic is None:
            raise ValueError("ExpansionSea needs a sea whose frequencies lie on a Fourier grid")
        if np.ptp(sea.cos_th) > 1e-12 or np.ptp(sea.sin_th) > 1e-12:
            raise ValueError("ExpansionSea needs a long-crested sea (one heading)")
        pts = np.asarray(points_ref, dtype=float)
        if pts.ndim == 3:
            if pts.shape[0] != 1 and not np.all(pts == pts[:1]):
                raise ValueError("ExpansionSea: one set of reference points for all realizations")
            pts = pts[0]
        if pts.ndim != 2 or pts.shape[1] != 3 or pts.shape[0] < 1:
            raise ValueError("points_ref must be (P, 3)")
        self.sea = sea
        self.points_ref = pts
        self.n_points = pts.shape[0]
        self.stretching = sea.stretching
        self.n_realizations = sea.n_realizations
        self.max_offset, self.max_dz, self.tol = float(max_offset), float(max_dz), float(tol)
        self.cos, self.sin = float(sea.cos_th.flat[0]), float(sea.sin_th.flat[0])
        h = sea.depth
        self._h = h if np.isfinite(h) else None
        omega, k = sea.omega, sea.k
        power = np.mean(np.abs(sea.amplitude) ** 2, axis=0)  # (N,) mean |A|^2 over realizations
        sigma_eta = math.sqrt(0.5 * power.sum())
        wlo, whi = float(omega.min()), float(omega.max())
        s_ref = pts[:, 0] * self.cos + pts[:, 1] * self.sin
        zr = np.minimum(pts[:, 2], 0.0)
        # vertical range of the evaluation depth: offsets plus Wheeler's column shift
        shift = 4.0 * sigma_eta if self.stretching == "wheeler" else 0.0
        dz_up, dz_dn = self.max_dz + shift, self.max_dz + shift

        # ---- elevation: one channel set per distinct horizontal reference position
        xy_key = np.round(pts[:, :2], 6)
        uniq, grp = np.unique(xy_key, axis=0, return_inverse=True)
        self._grp = grp.reshape(-1)
        n_eta, k_eta, _, l_eta, err_eta, nb_eta = self._choose(
            omega, k, power, wlo, whi, lambda w, kk, z: np.ones_like(w), None, max_order
        )
        self.eta_error = err_eta
        self.eta_bands = nb_eta
        self._k_eta = k_eta
        self._s_eta = uniq[:, 0] * self.cos + uniq[:, 1] * self.sin  # (G,)
        self.n_eta = n_eta

        # ---- kinematics: per point band and order
        orders, bands, errs, specs, n_bands = [], [], [], [], []
        cache: dict = {}
        for p in range(self.n_points):
            z_hi = min(zr[p] + dz_up, 0.0)
            z_lo = max(zr[p] - dz_dn, -h) if np.isfinite(h) else zr[p] - dz_dn
            key = (round(float(zr[p]), 9), z_hi, z_lo)
            if key not in cache:
                # band: the horizontal (C) and vertical (S) accelerations at the highest depth
                c_hi, s_hi = _depth_factors(k, np.full_like(k, z_hi), h)
                top_i = -1
                for fac in (c_hi, s_hi):
                    energy = power * omega**4 * fac**2
                    tail = np.cumsum(energy[::-1])[::-1]  # energy at and above each component
                    cut = np.nonzero(tail > (0.5 * self.tol) ** 2 * energy.sum())[0]
                    if cut.size:
                        top_i = max(top_i, int(cut[-1]))
                top = float(omega[top_i]) if top_i >= 0 else whi
                top = max(top, wlo * (1 + 1e-9))
                keep = omega <= top
                c_ref, _ = _depth_factors(k, np.full_like(k, zr[p]), h)
                wgt = omega * c_ref

                def ratio(w, kk, z, zrp=zr[p], vertical=False):
                    cz, sz = _depth_factors(kk, np.full_like(kk, z), h)
                    cr, _ = _depth_factors(kk, np.full_like(kk, zrp), h)
                    return (sz if vertical else cz) / cr

                weight_energy = power * wgt**2
                n_p, kn, wn, lmat, err, nb = self._choose(
                    omega[keep],
                    k[keep],
                    weight_energy[keep],
                    wlo,
                    top,
                    ratio,
                    (z_lo, zr[p], z_hi),
                    max_order,
                )
                cache[key] = (n_p, kn, wn, lmat, err, keep, wgt, nb)
            n_p, kn, wn, lmat, err, keep, wgt, nb = cache[key]
            orders.append(n_p)
            n_bands.append(nb)
            bands.append(float(wn.max()) if n_p else 0.0)
            errs.append(err)
            specs.append((kn, wn, lmat, keep, wgt))
        self.orders = np.array(orders)
        self.kin_error = np.array(errs)
        self.kin_bands = np.array(n_bands)  # sub-bands per point (1: one polynomial)
        self.band_top = np.array(bands)
        self._starts = np.concatenate([[0], np.cumsum(self.orders)[:-1]]).astype(np.intp)
        q_kin = int(self.orders.sum())
        self._pq = np.repeat(np.arange(self.n_points), self.orders)
        # node j of point p: k_q = k0_p + j dk_p (equispaced), w_q = omega(k_q)
        self._k_q = np.concatenate([sp[0] for sp in specs])
        self._w_q = np.concatenate([sp[1] for sp in specs])
        zr_q = zr[self._pq]
        c_ref_q, _ = _depth_factors(self._k_q, zr_q, h)
        if np.isfinite(h):
            den = -np.expm1(-2.0 * self._k_q * h)
        else:
            den = np.ones_like(self._k_q)
        # F/w with C = (e^{kz} + e^{-k(z+2h)}) / den computed at run time without den
        self._inv_w_q = 1.0 / (den * c_ref_q)
        self._sref_q = s_ref[self._pq]

        # ---- synthesis of the series by FFT on the Fourier grid
        wmax = whi
        dt = min(math.pi / (6.0 * wmax), 0.25) if dt is None else float(dt)
        m = max(
            next_fast_len(int(math.ceil(sea.period / dt))),
            int(2 * sea.harmonic.max() + 2),
        )
        self.n_steps = m
        self.dt = sea.period / m
        g_count = uniq.shape[0]
        q_eta = g_count * n_eta
        self.n_channels = q_eta + q_kin
        self._q_eta = q_eta
        need = 8 * m * self.n_realizations * self.n_channels
        if max_bytes is not None and need > max_bytes:
            raise ExpansionMemoryError(
                f"the expansion table would take {need / 1e9:.2f} GB "
                f"({self.n_channels} series x {m} steps x {self.n_realizations} realizations), "
                f"more than the {max_bytes / 1e9:.2f} GB allowed"
            )
        self.table = np.empty((m, self.n_realizations, self.n_channels), dtype=np.complex64)
        # touch the pages in order first: the column-block stores below would fault them in one
        # by one in a strided pattern, which took 4-8 s for a 4 GB table on this machine's VM
        self.table.fill(0)
        harm = sea.harmonic
        # stored series j is Z_j (elevation) or Z_j / (den w) (kinematic channels)
        scale = np.concatenate([np.ones(q_eta), self._inv_w_q])
        chunk = 64
        spec = np.zeros((min(chunk, self.n_channels), m), dtype=complex)  # zero off the harmonics
        for r in range(self.n_realizations):
            amp = sea.amplitude[r]
            coeffs = []  # (channels, N) complex, built in blocks
            for g in range(g_count):
                s0 = uniq[g, 0] * self.cos + uniq[g, 1] * self.sin
                coeffs.append((amp * np.exp(1j * k * s0))[None, :] * l_eta.T)
            for p in range(self.n_points):
                kn, _, lmat, keep, wgt = specs[p]
                a = amp * np.exp(1j * k * s_ref[p]) * wgt
                full = np.zeros((kn.size, omega.size), dtype=complex)
                full[:, keep] = a[keep][None, :] * lmat.T
                coeffs.append(full)
            block = np.concatenate(coeffs, axis=0)  # (Q, N)
            for q0 in range(0, block.shape[0], chunk):
                n_q = min(chunk, block.shape[0] - q0)
                spec[:n_q, harm] = block[q0 : q0 + n_q]
                # Z(t_j) = sum_n c_n e^{-2 pi i h_n j / m}: a forward FFT
                series = fft(spec[:n_q], axis=-1)
                _store_series(self.table, r, q0, series, scale[q0 : q0 + n_q])
        self._t_cache = None
        self._z_cache = None
        logger.debug(
            "ExpansionSea: %d points, orders %d..%d, %d channels x %d steps (dt %.4g s), %.0f MB",
            self.n_points,
            self.orders.min(),
            self.orders.max(),
            self.n_channels,
            m,
            self.dt,
            self.nbytes / 1e6,
        )

    # ------------------------------------------------------------------ set-up helpers
    def _choose(self, omega, k, energy, lo, hi, ratio, zs, max_order):
        """Smallest order meeting ``tol`` for the test offsets, with the nodes of
        :func:`_chirp_nodes` on ``[lo, hi]``; returns (n, k nodes, omega nodes, L, error,
        number of sub-bands). Where no order up to ``max_order`` meets it on the whole band,
        :meth:`_search_bands` splits the band (``L`` then has one block of columns per sub-band).

        The error of a test channel is the energy-weighted relative rms interpolation error plus a
        bound on the complex64 rounding of the stored series amplified by the interpolation,
        ``2^-24 sum_i |g_i| |Z_i|_rms / |ch|_rms`` with ``|Z_i|_rms^2 = sum_n e_n l_i(omega_n)^2``
        (Parseval on the Fourier grid); it grows with the Lebesgue constant of the (nearly)
        equispaced nodes and caps the useful order.
        """
        if omega.size == 0:
            return 0, np.zeros(0), np.zeros(0), np.zeros((0, 0)), 0.0, 0
        # the choice is a function of these inputs alone (``ratio`` is fixed by the depths
        # ``zs`` and the water depth): a study worker's later batches of the same sea state reuse
        # it instead of searching again. The energies enter the key in float32: with
        # deterministic amplitudes a batch's mean |A|^2 differs from another's in the last bits
        # only (the nodes and the matrix depend on the order alone, the error estimate on the
        # energies to that relative 1e-7)
        key = hashlib.sha1(
            np.ascontiguousarray(omega, dtype=float).tobytes()
            + np.ascontiguousarray(k, dtype=float).tobytes()
            + np.ascontiguousarray(energy, dtype=np.float32).tobytes()
            + repr(
                (lo, hi, zs, max_order, self.tol, self.max_offset, self.sea.depth, self.sea.gravity)
            ).encode()
        ).hexdigest()
        with _CHOICES_LOCK:  # (Dask workers may build seas in threads)
            hit = _CHOICES.get(key)
            if hit is not None:
                _CHOICES.move_to_end(key)
                return hit
        try:
            out = self._search(omega, k, energy, lo, hi, ratio, zs, max_order) + (1,)
        except ExpansionAccuracyError as exc:
            # one polynomial over the whole band cannot follow e^{i k s} (a broad recorded or
            # imported spectrum): sub-bands, each with its own nodes and series
            out = self._search_bands(omega, k, energy, ratio, zs, exc)
        with _CHOICES_LOCK:
            _CHOICES[key] = out
            while len(_CHOICES) > _CHOICES_MAX:
                _CHOICES.popitem(last=False)
        return out

    def _search(self, omega, k, energy, lo, hi, ratio, zs, max_order):
        """The order search of :meth:`_choose` (uncached)."""
        if hi <= lo:
            hi = lo * (1 + 1e-6) + 1e-9
        stride = max(1, omega.size // 600)  # g is smooth: a subsample measures the error
        omega_all = omega
        omega, k, energy = omega[::stride], k[::stride], energy[::stride]
        s_tests = (-self.max_offset, self.max_offset)
        z_tests = (None,) if zs is None else zs
        tests = []
        for s in s_tests:
            for z in z_tests:
                tests.append((s, z))
        # the test channels on the components do not depend on the order: computed once
        # (the same arithmetic as per candidate before, so the same choices to the bit)
        true = []
        for s, z in tests:
            # horizontal channels (C(z) / C(z_ref)) and vertical ones (S(z) / C(z_ref)): they
            # differ where the depth is finite for the wave (recorded seas with energy far below
            # the peak: the vertical velocity at depth was 2.3x the horizontal's error)
            for vert in (False,) if z is None else (False, True):
                rz = None if z is None else ratio(omega, k, z, vertical=vert)
                for wpow in (0, 1):  # velocity-like and acceleration-like channels
                    g_true = np.exp(1j * k * s) * (omega**wpow)
                    if rz is not None:
                        g_true = g_true * rz
                    den = np.sum(energy * np.abs(g_true) ** 2)
                    true.append((s, (z, vert), wpow, g_true, den))
        target = 0.5 * self.tol
        best = None
        cands = [(n, split) for n in range(1, max(int(max_order), 1) + 1) for split in (0, 1)]
        for n, split in cands:
            if split and n < 4:
                continue
            kn, wn, bw = _chirp_nodes(lo, hi, n, self.sea.depth, self.sea.gravity, bool(split))
            if n > 1 and not np.all(np.diff(wn) > 0):
                continue
            lmat = _lagrange_matrix(omega, wn, bw)
            z_rms = np.sqrt(energy @ lmat**2)  # (n,) rms of each stored series, common scale
            worst = 0.0
            rz_node = {}
            for s, z, wpow, g_true, den in true:
                g_node = np.exp(1j * kn * s) * (wn**wpow)
                if z[0] is not None:
                    if z not in rz_node:
                        rz_node[z] = ratio(wn, kn, z[0], vertical=z[1])
                    g_node = g_node * rz_node[z]
                err = lmat @ g_node - g_true
                num = np.sum(energy * np.abs(err) ** 2)
                if den > 0:
                    rnd = _TABLE_ROUNDING * np.sum(np.abs(g_node) * z_rms) / math.sqrt(den)
                    worst = max(worst, math.sqrt(num / den) + rnd)
                    if worst > target and best is not None:
                        break  # fails: the rest of the tests cannot change the choice
            if best is None or worst < best[4]:
                best = (n, kn, wn, bw, worst)
            if worst <= target:
                break
        if best[4] > target:
            raise ExpansionAccuracyError(
                f"the frequency expansion of order {best[0]} reaches only {best[4]:.2g} relative "
                f"error (target {self.tol:.2g}); use direct kinematics for this sea"
            )
        n, kn, wn, bw, worst = best
        return n, kn, wn, _lagrange_matrix(omega_all, wn, bw), worst

    def _search_bands(self, omega, k, energy, ratio, zs, whole_band_error):
        """Sub-band expansion (the whole band failed): the band is cut where the energy above
        carries less than ``(tol/4)^2`` of every test channel's energy, then split by halving
        in wavenumber (``e^{i k s}`` turns by the same angle in every half) until each sub-band
        meets ``|err|_rms <= 0.8 tol/2`` relative to its own energy with at most
        ``BAND_MAX_ORDER`` nodes (smallest order first). The errors of disjoint components add
        in energy, so the whole channel meets ``sqrt((tail + sum err_b^2) / E) <= 0.94 tol/2``;
        the complex64 rounding bounds of the sub-bands are added linearly and the total is
        checked against ``tol/2``. Every sub-band has >= 3 nodes per run, so the kernels' runs
        never straddle two sub-bands. Returns the tuple of :meth:`_choose`."""
        target = 0.5 * self.tol
        order = np.argsort(omega, kind="stable")
        om, kk, en = omega[order], k[order], energy[order]
        tests = []  # (ntest, N) |g|^2 of every test channel on the sorted components
        g_true = []
        for s in (-self.max_offset, self.max_offset):
            for z in (None,) if zs is None else zs:
                for vert in (False,) if z is None else (False, True):
                    for wpow in (0, 1):
                        g = np.exp(1j * kk * s) * om**wpow
                        if z is not None:
                            g = g * ratio(om, kk, z, vertical=vert)
                        g_true.append(g)
                        tests.append((s, (z, vert), wpow))
        g_true = np.array(g_true)
        e_t = en[None, :] * np.abs(g_true) ** 2
        den = e_t.sum(axis=1)
        den_safe = np.where(den > 0, den, 1.0)
        # tail cut: components from index n_keep up carry <= (tol/4)^2 of every test's energy
        tail = np.cumsum(e_t[:, ::-1], axis=1)[:, ::-1]
        ok = np.all(tail <= (0.5 * target) ** 2 * den[:, None], axis=0)
        n_keep = int(np.argmax(ok)) if ok.any() else om.size
        n_keep = max(n_keep, 1)
        trunc = tail[:, n_keep] if n_keep < om.size else np.zeros(len(tests))
        pieces = []  # (a, b, kn, wn, bw, num (ntest,), rnd (ntest,))
        gravity, depth = self.sea.gravity, self.sea.depth

        def omega_of(kv):
            t = math.tanh(kv * depth) if np.isfinite(depth) else 1.0
            return math.sqrt(gravity * kv * t)

        def piece(a, b, ka, kb, level):
            """Components a..b-1 (sorted), wavenumber interval [ka, kb]."""
            if b <= a:
                return
            lo, hi = omega_of(ka), omega_of(kb)
            den_b = e_t[:, a:b].sum(axis=1)
            stride = max(1, (b - a) // 400)  # g is smooth: a subsample measures the error
            sl = slice(a, b, stride)
            o_s, e_s = om[sl], en[sl] * stride
            for n in range(3, BAND_MAX_ORDER + 1):
                for split in (0, 1):
                    if split and n < 6:
                        continue
                    kn, wn, bw = _chirp_nodes(lo, hi, n, depth, gravity, bool(split))
                    if not np.all(np.diff(wn) > 0):
                        continue
                    lmat = _lagrange_matrix(o_s, wn, bw)
                    z_rms = np.sqrt(e_s @ lmat**2)
                    num = np.zeros(len(tests))
                    rnd = np.zeros(len(tests))
                    good = True
                    for i, (s, z, wpow) in enumerate(tests):
                        g_node = np.exp(1j * kn * s) * (wn**wpow)
                        if z[0] is not None:
                            g_node = g_node * ratio(wn, kn, z[0], vertical=z[1])
                        err = lmat @ g_node - g_true[i, sl]
                        num[i] = np.sum(e_s * np.abs(err) ** 2)
                        rnd[i] = _TABLE_ROUNDING * np.sum(np.abs(g_node) * z_rms)
                        if num[i] > (0.8 * target) ** 2 * den_b[i]:
                            good = False
                            break
                    if good:
                        pieces.append((a, b, kn, wn, bw, num, rnd))
                        return
            if level >= BAND_MAX_LEVEL or b - a < 2:
                raise ExpansionAccuracyError(
                    f"{whole_band_error}; sub-bands of {BAND_MAX_ORDER} nodes down to "
                    f"{kb - ka:.3g} rad/m do not reach it either"
                )
            km = 0.5 * (ka + kb)
            m = a + int(np.searchsorted(kk[a:b], km))
            piece(a, m, ka, km, level + 1)
            piece(m, b, km, kb, level + 1)

        piece(0, n_keep, float(kk[0]), float(kk[n_keep - 1]), 0)
        pieces.sort(key=lambda pc: pc[0])
        num = trunc + sum(pc[5] for pc in pieces)
        rnd = sum(pc[6] for pc in pieces)
        worst = float(np.max(np.sqrt(num / den_safe) + rnd / np.sqrt(den_safe)))
        if worst > target:
            raise ExpansionAccuracyError(
                f"{whole_band_error}; {len(pieces)} sub-bands reach only {worst:.2g}"
            )
        n_tot = sum(pc[2].size for pc in pieces)
        lmat = np.zeros((omega.size, n_tot))
        c0 = 0
        for a, b, kn, wn, bw, _, _ in pieces:
            lmat[order[a:b], c0 : c0 + kn.size] = _lagrange_matrix(om[a:b], wn, bw)
            c0 += kn.size
        kn = np.concatenate([pc[2] for pc in pieces])
        wn = np.concatenate([pc[3] for pc in pieces])
        return n_tot, kn, wn, lmat, worst, len(pieces)

    # ------------------------------------------------------------------ run time
    @property
    def nbytes(self) -> int:
        return int(self.table.nbytes)

    def _series(self, t: float) -> np.ndarray:
        """All stored series at time t (R, Q) complex, 4-point cubic Lagrange; cached per t."""
        if t == self._t_cache:
            return self._z_cache
        s_all = t / self.dt
        j = math.floor(s_all)
        s = s_all - j
        w = np.array(
            [
                -s * (s - 1) * (s - 2) / 6.0,
                (s + 1) * (s - 1) * (s - 2) / 2.0,
                -(s + 1) * s * (s - 2) / 2.0,
                (s + 1) * s * (s - 1) / 6.0,
            ]
        )
        m = self.n_steps
        j0 = (j - 1) % m
        if _kernels.enabled():
            from floatwind._kernels import waves as kw

            z = kw.expansion_series(self.table, j0, w[0], w[1], w[2], w[3])
            self._t_cache, self._z_cache = t, z
            return z
        if j0 + 4 <= m:
            rows = self.table[j0 : j0 + 4]
        else:
            rows = self.table[np.arange(j0, j0 + 4) % m]
        z = w @ rows.reshape(4, -1)
        z = z.reshape(self.n_realizations, self.n_channels)
        self._t_cache, self._z_cache = t, z
        return z

    def _eta(self, z: np.ndarray, xy: np.ndarray) -> np.ndarray:
        s = xy[..., 0] * self.cos + xy[..., 1] * self.sin - self._s_eta[self._grp]  # (B, P)
        ze = z[:, : self._q_eta].reshape(z.shape[0], -1, self.n_eta)[:, self._grp]  # (R, P, J)
        ph = np.exp(1j * (s[..., None] * self._k_eta))
        return (ze * ph).real.sum(axis=-1)

    #: ``elevation`` / ``kinematics`` take a (B,) array of per-member times too (time by time)
    accepts_time_array = True

    def elevation(self, t: float, xy: np.ndarray) -> np.ndarray:
        """Free-surface elevation (m), ``xy`` (B, P, 2) -> (B, P); ``t`` a time or a (B,)
        array of per-member times."""
        xy = np.asarray(xy, dtype=float)
        if np.ndim(t):
            return np.concatenate(
                [self.elevation(tk, xy[a:b]) for a, b, tk in time_runs(t)], axis=0
            )
        if xy.shape[-2] != self.n_points:
            return self.sea.elevation(t, xy)
        z = self._series(t)
        if self._jit_ok(z, xy):
            from floatwind._kernels import waves as kw

            c = self._jit_consts()
            if xy.shape[0] >= kw.LANES_MIN:  # members in SIMD lanes: the same bits
                zr, zi = self._lanes(t, z)
                return kw.expansion_eta_lanes(
                    zr,
                    zi,
                    np.ascontiguousarray(xy),
                    self.cos,
                    self.sin,
                    c["s_eta_p"],
                    c["grp"],
                    c["eta_runs"],
                    len(c["k_eta"]),
                )
            return kw.expansion_eta(
                z, np.ascontiguousarray(xy), self.cos, self.sin, c["s_eta_p"], c["grp"], c["k_eta"]
            )
        return self._eta(z, xy)

    def _jit_ok(self, z: np.ndarray, pts: np.ndarray) -> bool:
        """Whether the compiled kernels apply: enabled, and one row per batch member or one for
        all (the broadcasting of the NumPy path)."""
        return _kernels.enabled() and pts.ndim == 3 and z.shape[0] in (1, pts.shape[0])

    def _jit_consts(self) -> dict:
        c = self.__dict__.get("_jit_c")
        if c is None:
            c = {
                "s_eta_p": np.ascontiguousarray(self._s_eta[self._grp], dtype=float),
                "grp": np.ascontiguousarray(self._grp, dtype=np.int64),
                "k_eta": np.ascontiguousarray(self._k_eta, dtype=float),
                "starts": np.ascontiguousarray(self._starts, dtype=np.int64),
                "orders": np.ascontiguousarray(self.orders, dtype=np.int64),
                "k_q": np.ascontiguousarray(self._k_q, dtype=float),
                "sref_q": np.ascontiguousarray(self._sref_q, dtype=float),
                "w_q": np.ascontiguousarray(self._w_q, dtype=float),
                "mode": {"none": 0, "vertical": 1}.get(self.stretching, 2),
            }
            from floatwind._kernels import waves as kw

            c["eta_runs"] = kw.node_runs(c["k_eta"], 0, len(c["k_eta"]))
            c["point_runs"] = kw.point_runs(c["k_q"], c["starts"], c["orders"])
            self._jit_c = c
        return c

    def _expansion(self):
        """The node data the compiled kinematics read (``_kernels.waves.Expansion``), once."""
        e = self.__dict__.get("_jit_e")
        if e is None:
            from floatwind._kernels import waves as kw

            c = self._jit_consts()
            e = kw.Expansion(cos=self.cos, sin=self.sin, mode=c["mode"],
                             h=self._h if self._h is not None else 0.0,
                             hw=self._h if self._h is not None else 1e6, s_eta_p=c["s_eta_p"],
                             grp=c["grp"], k_eta=c["k_eta"], q_eta=self._q_eta,
                             starts=c["starts"], orders=c["orders"], k_q=c["k_q"],
                             sref_q=c["sref_q"], w_q=c["w_q"], eta_runs=c["eta_runs"],
                             point_runs=c["point_runs"])  # fmt: skip
            self._jit_e = e
        return e

    def _lanes(self, t: float, z: np.ndarray):
        """The series at t, member-contiguous (``waves.series_lanes``), cached per t."""
        hit = self.__dict__.get("_lanes_cache")
        if hit is not None and hit[0] == t and hit[1] is z:
            return hit[2]
        from floatwind._kernels import waves as kw

        out = kw.series_lanes(z)
        self._lanes_cache = (t, z, out)
        return out

    def kinematics(self, t: float, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Velocity and acceleration (B, P, 3) (m/s, m/s^2), zero out of the water; ``t`` a time
        or a (B,) array of per-member times."""
        points = np.asarray(points, dtype=float)
        if np.ndim(t):
            parts = [self.kinematics(tk, points[a:b]) for a, b, tk in time_runs(t)]
            return (
                np.concatenate([p[0] for p in parts], axis=0),
                np.concatenate([p[1] for p in parts], axis=0),
            )
        if points.shape[-2] != self.n_points:
            return self.sea.kinematics(t, points)
        z = self._series(t)
        if self._jit_ok(z, points) and self.orders.min() > 0:
            from floatwind._kernels import waves as kw

            sea = self._expansion()
            if points.shape[0] >= kw.LANES_MIN:  # members in SIMD lanes: the same bits
                zr, zi = self._lanes(t, z)
                return kw.expansion_kinematics_lanes(
                    zr, zi, np.ascontiguousarray(points), _NO_ETA, sea
                )
            return kw.expansion_kinematics(z, np.ascontiguousarray(points), sea)
        zc = points[..., 2]
        if self.stretching == "none":
            zev, wet = np.minimum(zc, 0.0), zc <= 0.0
        else:
            eta = self._eta(z, points[..., :2])
            wet = zc <= eta
            if self.stretching == "vertical":
                zev = np.minimum(zc, 0.0)
            else:
                h = self._h if self._h is not None else 1e6
                zev = np.minimum(h * (zc - eta) / (h + eta), 0.0)
        s = points[..., 0] * self.cos + points[..., 1] * self.sin  # (B, P)
        kq = self._k_q
        sq = s[:, self._pq] - self._sref_q  # (B, Q)
        zq = zev[:, self._pq]
        # phase e^{i k s} times C, S (each exponential bounded: no overflow at any depth)
        zk = z[:, self._q_eta :] * np.exp(1j * (kq * sq))  # stored divided by the weight
        ekz = np.exp(kq * zq)
        if self._h is not None:
            emz = np.exp(-kq * (zq + 2.0 * self._h))
            u = zk * (ekz + emz)
            v = zk * (ekz - emz)
        else:
            u = v = zk * ekz
        wq = self._w_q
        red = np.add.reduceat(np.stack([u, u * wq, v, v * wq]), self._starts, axis=-1)
        uh, ah = red[0].real, red[1].imag
        uz, az = red[2].imag, -red[3].real
        b = points.shape[0]
        vel = np.empty((b, self.n_points, 3))
        acc = np.empty((b, self.n_points, 3))
        vel[..., 0] = uh * self.cos
        vel[..., 1] = uh * self.sin
        vel[..., 2] = uz
        acc[..., 0] = ah * self.cos
        acc[..., 1] = ah * self.sin
        acc[..., 2] = az
        dry = ~wet
        if dry.any():
            vel[dry] = 0.0
            acc[dry] = 0.0
        return vel, acc

    def describe(self) -> str:
        return (
            f"{self.sea.describe()}; expansion kinematics at {self.n_points} points "
            f"(orders {self.orders.min()}-{self.orders.max()}, dt {self.dt:.4g} s)"
        )

    def attrs(self) -> dict:
        out = self.sea.attrs()
        out["wave_kinematics"] = self.summary()
        name, tol = self.kinematics_method()
        out["wave_kinematics_method"] = name
        out["wave_kinematics_tolerance"] = tol
        return out

    @property
    def max_bands(self) -> int:
        """Most sub-bands of any channel set (1: one polynomial over the band everywhere)."""
        return int(max(self.eta_bands, self.kin_bands.max(initial=1)))

    def kinematics_method(self) -> tuple[str, float]:
        """(method, relative rms accuracy target per channel for the stated offsets)."""
        name = "frequency expansion"
        if self.max_bands > 1:
            name += f" (up to {self.max_bands} sub-bands)"
        return (name, self.tol)

    def summary(self) -> str:
        bands = f", up to {self.max_bands} sub-bands" if self.max_bands > 1 else ""
        return (
            f"gridded: Chebyshev-in-frequency expansion at {self.n_points} reference points, "
            f"tol {self.tol:g} for |d_h| <= {self.max_offset:g} m, |d_z| <= {self.max_dz:g} m, "
            f"dt {self.dt:.5g} s{bands}"
        )
