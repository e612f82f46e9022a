"""First-order (Airy) irregular seas: realizations, elevation and wave kinematics.

A sea is a sum of N linear wave components shared by R realizations,

    eta(x, y, t) = Re sum_n A_rn exp(i (k_n (x cos th_rn + y sin th_rn) - omega_n t)),

with complex amplitudes ``A_rn`` (random phase, optionally random amplitude), wave numbers from
the finite-depth dispersion relation ``omega^2 = g k tanh(k h)`` and headings ``th`` measured from
+x towards +y (the propagation direction, DESIGN.md). Velocity and acceleration follow linear
(Airy) theory in finite depth (DNV-RP-C205 table 3-1; the dissertation's Morison loads, eq. 3.22,
use them):

    u_h = Re sum A w C(z) e^{i psi} (cos th, sin th),  w = Re sum -i A w S(z) e^{i psi},
    C = cosh k(z+h) / sinh kh,  S = sinh k(z+h) / sinh kh,  a = d/dt (local acceleration).

Frequencies (documented choice): the components sit on the Fourier grid of a repeat period
``T_rep >= duration`` (``omega_n = 2 pi m_n / T_rep``, integer ``m_n``), so a realization does not
repeat within the run, and kinematics at fixed points can be synthesised by an inverse FFT
(:meth:`LinearSea.precompute`). Each realization draws its phases (and amplitudes, headings) from
its own ``numpy.random.Generator`` seeded by its own ``SeedSequence``: a realization generated
alone equals the same realization inside a batch bit for bit.

Stretching above the still-water level (recorded in outputs as ``stretching``):

* ``"wheeler"`` (default): a point at ``z <= eta`` takes the kinematics of
  ``z' = h (z - eta) / (h + eta)`` (Wheeler 1970); zero above the surface.
* ``"vertical"``: kinematics of ``min(z, 0)`` for ``z <= eta``; zero above the surface.
* ``"none"``: linear kinematics up to the still-water level, zero for ``z > 0`` (OpenFAST
  HydroDyn ``WaveStMod = 0``).
"""

from __future__ import annotations

import logging
import math
import os
from pathlib import Path

import numpy as np

from floatwind.environment.base import DEFAULT_GRAVITY, DEFAULT_WATER_DEPTH
from floatwind.environment.dispersion import _depth_factors, wavenumber
from floatwind.environment.fourier import irfft, next_fast_len
from floatwind.errors import CaseError

logger = logging.getLogger(__name__)

STRETCHING = ("wheeler", "vertical", "none")
KINEMATICS = ("auto", "direct", "gridded")
_CHUNK = 256  # components per summation chunk; fixed so that results do not depend on B


def _broadcast_batch(name: str, arr: np.ndarray, r: int) -> int:
    b = arr.shape[0]
    if r != 1 and b != r:
        raise ValueError(
            f"{name}: points have batch {b} but the sea carries {r} realizations "
            "(a sea answers for B = R, or broadcasts when R = 1)"
        )
    return b


class LinearSea:
    """First-order irregular sea, batched over realizations (SeaState contract, see base.py).

    Parameters
    ----------
    omega : (N,) angular frequencies (rad/s), > 0
    amplitude : (R, N) complex amplitudes A (m): ``eta = Re sum A e^{i(k.x - omega t)}``
    heading : (R, N) or (1, N) component headings (rad), from +x towards +y
    depth : water depth (m)
    gravity : (m/s^2)
    stretching : "wheeler" | "vertical" | "none"
    period : repeat period T_rep (s) when ``omega`` lies on its Fourier grid, else None
    info : dict of attributes to record in outputs (spectrum, seeds, ...)
    """

    def __init__(
        self,
        *,
        omega: np.ndarray,
        amplitude: np.ndarray,
        heading: np.ndarray,
        depth: float,
        gravity: float = DEFAULT_GRAVITY,
        stretching: str = "wheeler",
        period: float | None = None,
        info: dict | None = None,
    ):
        if stretching not in STRETCHING:
            raise ValueError(f"stretching '{stretching}' unknown; use one of {STRETCHING}")
        self.omega = np.asarray(omega, dtype=float)
        self.amplitude = np.atleast_2d(np.asarray(amplitude, dtype=complex))
        heading = np.atleast_2d(np.asarray(heading, dtype=float))
        self.depth = float(depth)
        self.gravity = float(gravity)
        self.stretching = stretching
        self.period = period
        self.info = dict(info or {})
        self.k = wavenumber(self.omega, self.depth, self.gravity)
        self.cos_th = np.cos(heading)
        self.sin_th = np.sin(heading)
        self.kinematics_mode = "direct"  # auto | direct | gridded, see evaluator()
        self._used: list[str] = []
        self._methods: list[tuple[str, float]] = []  # (method, tolerance) of each evaluator
        self.harmonic = None
        if period is not None:
            m = self.omega * period / (2.0 * math.pi)
            if np.allclose(m, np.rint(m), atol=1e-6):
                self.harmonic = np.rint(m).astype(np.int64)

    @property
    def n_realizations(self) -> int:
        return self.amplitude.shape[0]

    @property
    def n_components(self) -> int:
        return self.omega.size

    # ------------------------------------------------------------------ direct evaluation
    def _rows(self, b: int):
        """Per-batch-row views of amplitude and heading cosines (broadcast when R = 1)."""
        return self.amplitude, self.cos_th, self.sin_th

    def _surface_terms(self, t: float, x: np.ndarray, y: np.ndarray, sl: slice) -> np.ndarray:
        """E = A e^{i psi} for components ``sl``: (B, P, n)."""
        amp, ct, st = self._rows(x.shape[0])
        kx = self.k[sl] * ct[:, sl]
        ky = self.k[sl] * st[:, sl]
        psi = x[..., None] * kx[:, None, :] + y[..., None] * ky[:, None, :] - self.omega[sl] * t
        return amp[:, None, sl] * np.exp(1j * psi)

    def elevation(self, t: float, xy: np.ndarray) -> np.ndarray:
        """Free-surface elevation (m).

        Parameters
        ----------
        t : float, time (s)
        xy : (B, P, 2) horizontal positions (m), inertial frame

        Returns
        -------
        (B, P) elevation above the still-water level (m)
        """
        xy = np.asarray(xy, dtype=float)
        _broadcast_batch("elevation", xy, self.n_realizations)
        x, y = xy[..., 0], xy[..., 1]
        eta = np.zeros(x.shape)
        for i0 in range(0, self.n_components, _CHUNK):
            sl = slice(i0, i0 + _CHUNK)
            eta = eta + self._surface_terms(t, x, y, sl).real.sum(axis=-1)
        return eta

    def _eval_depth(self, z: np.ndarray, eta: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """Depth at which kinematics are evaluated and the wet mask, per stretching rule."""
        if self.stretching == "none":
            return np.minimum(z, 0.0), z <= 0.0
        wet = z <= eta
        if self.stretching == "vertical":
            return np.minimum(z, 0.0), wet
        h = self.depth if np.isfinite(self.depth) else 1e6
        zs = h * (z - eta) / (h + eta)
        return np.minimum(zs, 0.0), wet

    def kinematics(self, t: float, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Water particle velocity and local acceleration (inertial axes).

        Parameters
        ----------
        t : float, time (s)
        points : (B, P, 3) positions (m), inertial frame (z up from the still-water level)

        Returns
        -------
        velocity, acceleration : (B, P, 3) (m/s, m/s^2), zero out of the water
        """
        points = np.asarray(points, dtype=float)
        _broadcast_batch("kinematics", points, self.n_realizations)
        x, y, z = points[..., 0], points[..., 1], points[..., 2]
        eta = None if self.stretching == "none" else self.elevation(t, points[..., :2])
        zev, wet = self._eval_depth(z, eta)
        vel = np.zeros(points.shape)
        acc = np.zeros(points.shape)
        _, ct, st = self._rows(points.shape[0])
        for i0 in range(0, self.n_components, _CHUNK):
            sl = slice(i0, i0 + _CHUNK)
            e = self._surface_terms(t, x, y, sl)
            w = self.omega[sl]
            cz, sz = _depth_factors(self.k[sl], zev[..., None], self.depth)
            q = e * (w * cz)  # horizontal speed phasor (B, P, n)
            r = e * (w * sz)
            c_, s_ = ct[:, None, sl], st[:, None, sl]
            qr, qi = q.real, q.imag
            vel[..., 0] += (qr * c_).sum(axis=-1)
            vel[..., 1] += (qr * s_).sum(axis=-1)
            vel[..., 2] += r.imag.sum(axis=-1)
            acc[..., 0] += (qi * (w * c_)).sum(axis=-1)
            acc[..., 1] += (qi * (w * s_)).sum(axis=-1)
            acc[..., 2] -= (r.real * w).sum(axis=-1)
        vel[~wet] = 0.0
        acc[~wet] = 0.0
        return vel, acc

    # ------------------------------------------------------------------ precomputation
    def precompute(
        self,
        points_ref: np.ndarray,
        *,
        duration: float,
        dt: float | None = None,
        correction: str = "taylor",
    ) -> GriddedSea:
        """Synthesize kinematics at fixed reference points on a time grid (inverse FFT).

        Parameters
        ----------
        points_ref : (R or 1, P, 3) undisplaced positions (m), e.g. Morison strip centres
        duration : run length (s) (only used to check the repeat period)
        dt : storage step (s); default ``min(pi / (6 omega_max), 0.25)``: 12 samples per shortest
            component period, for cubic interpolation (error <= 0.0234 (omega dt)^4 of a
            component amplitude, 0.18 % at the shortest period)
        correction : "taylor" (first-order correction for displaced positions, with the stored
            spatial gradients) or "none" (values at the reference points whatever the position)

        Returns
        -------
        GriddedSea
            Answers ``elevation`` / ``kinematics`` for P points of the same order as
            ``points_ref`` (any other P falls back to this sea's direct evaluation).
        """
        return GriddedSea(self, points_ref, duration=duration, dt=dt, correction=correction)

    def expansion_table_bytes(self, n_points: int) -> int:
        """Memory (bytes) of the fast-kinematics table for one realization at ``n_points``
        reference points (the ``auto`` mode falls back to direct summation above
        ``fastkin.AUTO_MEMORY_BUDGET`` for the whole batch)."""
        wmax = float(self.omega.max())
        m = self.period / min(math.pi / (6.0 * wmax), 0.25)
        return int(8.0 * m * (12 * n_points + 16))

    def evaluator(self, points_ref: np.ndarray):
        """Sea-state object for repeated calls near fixed reference points (e.g. Morison strips).

        Follows ``kinematics_mode``: ``"direct"`` returns this sea (exact, O(P N) per call);
        ``"gridded"`` an :class:`~floatwind.environment.fastkin.ExpansionSea` (long-crested seas;
        a :class:`GriddedSea` with the Taylor correction, and a warning, for spread seas);
        ``"auto"`` the expansion when the sea is long-crested on a Fourier grid and its table fits
        in ``fastkin.AUTO_MEMORY_BUDGET`` bytes, else this sea. The choice is recorded in
        :meth:`attrs` (``wave_kinematics``).

        Parameters
        ----------
        points_ref : (P, 3) or (1, P, 3) undisplaced points (m), inertial frame
        """
        from floatwind.environment import fastkin

        mode = self.kinematics_mode
        pts = np.asarray(points_ref, dtype=float).reshape(-1, 3)
        long_crested = np.ptp(self.cos_th) <= 1e-12 and np.ptp(self.sin_th) <= 1e-12
        if mode == "direct" or self.harmonic is None or pts.shape[0] == 0:
            out = self
        elif long_crested:
            estimate = self.n_realizations * self.expansion_table_bytes(pts.shape[0])
            if mode == "auto" and estimate > fastkin.AUTO_MEMORY_BUDGET:
                logger.warning(
                    "wave kinematics: the expansion table would take ~%.1f GB (budget %.1f GB); "
                    "summing the %d components directly at %d points (exact, slow)",
                    estimate / 1e9,
                    fastkin.AUTO_MEMORY_BUDGET / 1e9,
                    self.n_components,
                    pts.shape[0],
                )
                out = self
            else:
                budget = fastkin.AUTO_MEMORY_BUDGET if mode == "auto" else None
                try:
                    out = fastkin.ExpansionSea(self, pts, max_bytes=budget)
                except (fastkin.ExpansionAccuracyError, fastkin.ExpansionMemoryError) as exc:
                    if mode != "auto":
                        raise CaseError(str(exc), field="environment.waves.kinematics") from None
                    logger.warning(
                        "wave kinematics: %s; summing the %d components directly at %d points "
                        "(exact, slow)",
                        exc,
                        self.n_components,
                        pts.shape[0],
                    )
                    out = self
        elif mode == "gridded":
            logger.warning(
                "gridded kinematics with directional spreading: first-order Taylor correction "
                "(accurate only for offsets of a metre or two, see docs/environment.md)"
            )
            out = GriddedSea(self, pts[None], duration=self.period, correction="taylor")
        else:
            out = self
        note = "direct" if out is self else out.attrs()["wave_kinematics"]
        if note not in self._used:
            self._used.append(note)
        method = self.kinematics_method() if out is self else out.kinematics_method()
        if method not in self._methods:
            self._methods.append(method)
        return out

    def kinematics_method(self) -> tuple[str, float]:
        """(method, relative rms accuracy target) of this sea's own kinematics: the direct sum
        is exact (target 0)."""
        return ("direct summation", 0.0)

    def describe(self) -> str:
        d = self.info.get("description", "linear sea")
        return f"{d}; {self.n_components} components; stretching {self.stretching}"

    def attrs(self) -> dict:
        out = {"wave_stretching": self.stretching, "wave_components": int(self.n_components)}
        out["wave_kinematics_mode"] = self.kinematics_mode
        out["wave_kinematics"] = "; ".join(self._used) if self._used else "direct"
        out.update(_method_attrs(self._methods or [self.kinematics_method()]))
        if self.period is not None:
            out["wave_repeat_period_s"] = float(self.period)
        for key, val in self.info.items():
            out[f"wave_{key}"] = val
        return out

    # channel coefficient table used by GriddedSea
    def _channel_coefficients(self, r: int, pts: np.ndarray, taylor: bool) -> dict:
        """Complex coefficients c (P, N) of every stored channel: s(t) = Re sum c e^{-i w t}."""
        rr = 0 if self.n_realizations == 1 else r
        amp = self.amplitude[rr]
        ct, st = (
            self.cos_th[min(rr, self.cos_th.shape[0] - 1)],
            self.sin_th[min(rr, self.sin_th.shape[0] - 1)],
        )
        kx, ky = self.k * ct, self.k * st
        x, y, z = pts[:, 0:1], pts[:, 1:2], np.minimum(pts[:, 2:3], 0.0)
        e = amp * np.exp(1j * (x * kx + y * ky))
        cz, sz = _depth_factors(self.k, z, self.depth)
        w = self.omega
        c = {"eta": e}
        uh = e * w * cz
        c["ux"], c["uy"], c["uz"] = uh * ct, uh * st, -1j * e * w * sz
        for comp in ("ux", "uy", "uz"):
            c["a" + comp[1]] = -1j * w * c[comp]
        if taylor:
            c["eta_x"], c["eta_y"] = 1j * kx * e, 1j * ky * e
            for comp in ("ux", "uy", "uz"):
                c[comp + "_x"] = 1j * kx * c[comp]
                c[comp + "_y"] = 1j * ky * c[comp]
            duh = e * w * self.k * sz
            c["ux_z"], c["uy_z"] = duh * ct, duh * st
            c["uz_z"] = -1j * e * w * self.k * cz
        return c


class GriddedSea:
    """Kinematics precomputed at reference points on a time grid, cubic interpolation in time.

    The series are synthesized by inverse FFT on the sea's Fourier grid (``T_rep / M`` step), so
    their cost is ``O(P M log M)`` per channel and realization, once. At run time a call costs a
    4-point interpolation per point and channel, independent of the number of components.

    Displaced points (``correction="taylor"``): with ``d = p - p_ref``,
    ``u(p) ~ u(p_ref) + grad u . d`` and ``eta(p) ~ eta + grad_h eta . d_h``; the acceleration
    correction is the time derivative of the interpolated ``grad u . d``. The neglected term is
    bounded per component by ``(k |d|)^2 / 2`` of its amplitude (a 2 m offset in a 10 s sea,
    k = 0.04 rad/m: 0.3 %). Stretching uses the stored surface elevation and the vertical
    gradient. Storage: float32, 18 channels (taylor) or 7 (none) x P x M per realization.
    """

    _BASE = ("eta", "ux", "uy", "uz", "ax", "ay", "az")
    _TAYLOR = (
        "eta_x",
        "eta_y",
        "ux_x",
        "ux_y",
        "ux_z",
        "uy_x",
        "uy_y",
        "uy_z",
        "uz_x",
        "uz_y",
        "uz_z",
    )

    def __init__(
        self,
        sea: LinearSea,
        points_ref: np.ndarray,
        *,
        duration: float,
        dt: float | None = None,
        correction: str = "taylor",
    ):
        if correction not in ("taylor", "none"):
            raise ValueError(f"correction '{correction}' unknown; use 'taylor' or 'none'")
        if sea.harmonic is None:
            raise ValueError("precompute needs a sea whose frequencies lie on a Fourier grid")
        if sea.period < duration - 1e-9:
            logger.warning(
                "wave repeat period %.6g s is shorter than the run (%.6g s)", sea.period, duration
            )
        pts = np.asarray(points_ref, dtype=float)
        if pts.ndim == 2:
            pts = pts[None]
        self.sea = sea
        self.points_ref = pts
        self.stretching = sea.stretching
        self.correction = correction
        self.n_realizations = sea.n_realizations
        wmax = float(sea.omega.max())
        dt = min(math.pi / (6.0 * wmax), 0.25) if dt is None else float(dt)
        m_min = int(2 * sea.harmonic.max() + 2)
        m = max(next_fast_len(int(math.ceil(sea.period / dt))), m_min)
        if m % 2:
            m = next_fast_len(m + 1)
        self.n_steps = m
        self.dt = sea.period / m
        self.names = self._BASE + (self._TAYLOR if correction == "taylor" else ())
        r_count = sea.n_realizations
        self.table = np.empty((r_count, m, pts.shape[1], len(self.names)), dtype=np.float32)
        for r in range(r_count):  # set-up, not the time loop: one realization at a time
            p_r = pts[min(r, pts.shape[0] - 1)]
            coeff = sea._channel_coefficients(r, p_r, correction == "taylor")
            for j, name in enumerate(self.names):
                spec = np.zeros((p_r.shape[0], m // 2 + 1), dtype=complex)
                spec[:, sea.harmonic] = np.conj(coeff[name]) * (m / 2.0)
                self.table[r, :, :, j] = irfft(spec, n=m, axis=-1).T
        self._index = {n: i for i, n in enumerate(self.names)}
        logger.debug(
            "precomputed %d channels x %d points x %d steps (dt %.4g s) for %d realizations",
            len(self.names),
            pts.shape[1],
            m,
            self.dt,
            r_count,
        )

    @property
    def nbytes(self) -> int:
        return int(self.table.nbytes)

    def _interp(self, t: float, deriv: bool = False):
        """Channel values (R, P, C) at time t by 4-point Lagrange interpolation (periodic)."""
        s_all = t / self.dt
        j = math.floor(s_all)
        s = s_all - j
        idx = np.array([j - 1, j, j + 1, j + 2]) % self.n_steps
        w = np.array(
            [
                -s * (s - 1) * (s - 2) / 6.0,
                (s + 1) * (s - 1) * (s - 2) / 2.0,
                -(s + 1) * s * (s - 2) / 2.0,
                (s + 1) * s * (s - 1) / 6.0,
            ]
        )
        blk = self.table[:, idx]  # (R, 4, P, C) float32
        val = np.tensordot(w, blk, axes=([0], [1]))  # (R, P, C) float64
        if not deriv:
            return val, None
        dw = (
            np.array(
                [
                    -(3 * s * s - 6 * s + 2) / 6.0,
                    (3 * s * s - 4 * s - 1) / 2.0,
                    -(3 * s * s - 2 * s - 2) / 2.0,
                    (3 * s * s - 1) / 6.0,
                ]
            )
            / self.dt
        )
        return val, np.tensordot(dw, blk, axes=([0], [1]))

    def _matches(self, pts: np.ndarray) -> bool:
        return pts.shape[1] == self.points_ref.shape[1]

    def elevation(self, t: float, xy: np.ndarray) -> np.ndarray:
        """Free-surface elevation (m) at the reference points' neighbours; (B, P, 2) -> (B, P)."""
        xy = np.asarray(xy, dtype=float)
        if not self._matches(xy):
            return self.sea.elevation(t, xy)
        b = _broadcast_batch("elevation", xy, self.n_realizations)
        val, _ = self._interp(t)
        val = np.broadcast_to(val, (b,) + val.shape[1:])
        eta = val[..., self._index["eta"]]
        if self.correction == "taylor":
            d = xy - self.points_ref[..., :2]
            eta = eta + val[..., self._index["eta_x"]] * d[..., 0]
            eta = eta + val[..., self._index["eta_y"]] * d[..., 1]
        return eta

    def kinematics(self, t: float, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Velocity and acceleration (B, P, 3) at points near the reference points (see class)."""
        points = np.asarray(points, dtype=float)
        if not self._matches(points):
            return self.sea.kinematics(t, points)
        b = _broadcast_batch("kinematics", points, self.n_realizations)
        taylor = self.correction == "taylor"
        val, dval = self._interp(t, deriv=taylor)
        shape = (b,) + val.shape[1:]
        val = np.broadcast_to(val, shape)
        ix = self._index
        vel = np.stack([val[..., ix[c]] for c in ("ux", "uy", "uz")], axis=-1)
        acc = np.stack([val[..., ix[c]] for c in ("ax", "ay", "az")], axis=-1)
        eta = val[..., ix["eta"]]
        z = points[..., 2]
        d = points - self.points_ref
        if taylor:
            dval = np.broadcast_to(dval, shape)
            eta = eta + val[..., ix["eta_x"]] * d[..., 0] + val[..., ix["eta_y"]] * d[..., 1]
        if self.stretching != "none":
            zev, wet = self.sea._eval_depth(z, eta)
        else:
            zev, wet = np.minimum(z, 0.0), z <= 0.0
        if taylor:
            dz = zev - np.minimum(self.points_ref[..., 2], 0.0)
            for i, c in enumerate(("ux", "uy", "uz")):
                g = (ix[c + "_x"], ix[c + "_y"], ix[c + "_z"])
                vel[..., i] += val[..., g[0]] * d[..., 0] + val[..., g[1]] * d[..., 1]
                vel[..., i] += val[..., g[2]] * dz
                acc[..., i] += dval[..., g[0]] * d[..., 0] + dval[..., g[1]] * d[..., 1]
                acc[..., i] += dval[..., g[2]] * dz
        vel[~wet] = 0.0
        acc[~wet] = 0.0
        return vel, acc

    def describe(self) -> str:
        return (
            f"{self.sea.describe()}; precomputed at {self.points_ref.shape[1]} points, "
            f"dt {self.dt:.4g} s, correction {self.correction}"
        )

    def attrs(self) -> dict:
        out = self.sea.attrs()
        out["wave_kinematics"] = f"precomputed (dt {self.dt:.6g} s, correction {self.correction})"
        out.update(_method_attrs([self.kinematics_method()]))
        return out

    def kinematics_method(self) -> tuple[str, float]:
        """(method, accuracy target): no error bound for the grid (NaN)."""
        if self.correction == "none":
            return ("time grid", math.nan)
        return (f"time grid, {self.correction} correction", math.nan)


def _method_attrs(methods: list[tuple[str, float]]) -> dict:
    """``wave_kinematics_method`` (the methods of the evaluators built, "; "-joined) and
    ``wave_kinematics_tolerance`` (the largest relative rms accuracy target among them; 0 for
    exact summation, NaN where a method has no bound)."""
    tols = [t for _, t in methods]
    tol = math.nan if any(math.isnan(t) for t in tols) else max(tols)
    return {
        "wave_kinematics_method": "; ".join(m for m, _ in methods),
        "wave_kinematics_tolerance": float(tol),
    }


# ---------------------------------------------------------------------- constructors
def _child(seed: np.random.SeedSequence, key: int) -> np.random.SeedSequence:
    """Deterministic child of ``seed`` that does not advance its spawn counter."""
    return np.random.SeedSequence(entropy=seed.entropy, spawn_key=tuple(seed.spawn_key) + (key,))


def seeds_for(master: int | None, n: int) -> list[np.random.SeedSequence]:
    """Per-realization seeds: ``SeedSequence(master).spawn(n)`` (DESIGN.md, randomness)."""
    return np.random.SeedSequence(master).spawn(n)


def fourier_grid(period: float, band: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """Harmonic indices and angular frequencies of the grid ``2 pi m / period`` inside ``band``."""
    dw = 2.0 * math.pi / period
    m0 = max(1, int(math.ceil(band[0] / dw)))
    m1 = int(math.floor(band[1] / dw))
    if m1 < m0:
        raise ValueError(f"no Fourier frequency of period {period:g} s in band {band}")
    m = np.arange(m0, m1 + 1)
    return m, m * dw


def sea_from_spectrum(
    spectrum,
    *,
    duration: float,
    seeds: list[np.random.SeedSequence],
    heading: float = 0.0,
    spreading_s: float | None = None,
    random_amplitude: bool = False,
    band: tuple[float, float] | None = None,
    period: float | None = None,
    depth: float = DEFAULT_WATER_DEPTH,
    gravity: float = DEFAULT_GRAVITY,
    stretching: str = "wheeler",
) -> LinearSea:
    """Random-phase realizations of a wave spectrum, one per seed.

    Parameters
    ----------
    spectrum : callable ``S(omega)`` (m^2 s/rad), e.g. :class:`~.spectra.JonswapSpectrum`
    duration : run length (s); the repeat period is ``max(duration, 600 s)`` unless ``period``
    seeds : one ``SeedSequence`` per realization (R = len(seeds))
    heading : mean propagation direction (rad), from +x towards +y
    spreading_s : cos-2s spreading exponent; None = long-crested. Each component gets one
        heading drawn from the spreading distribution (single-summation model, no phase locking)
    random_amplitude : Rayleigh amplitudes (``A = sqrt(S dw) (g1 + i g2)``) instead of
        deterministic ``sqrt(2 S dw)`` with uniform phase
    band : (omega_min, omega_max) rad/s; default where ``S >= 1e-3 S_peak``
    period : repeat period (s); frequencies ``2 pi m / period``

    Returns
    -------
    LinearSea with R realizations
    """
    if period is None:
        period = max(float(duration), 600.0)
    if band is None:
        band = spectrum.band(1e-3) if hasattr(spectrum, "band") else (0.1, 4.0)
    harmonic, omega = fourier_grid(period, band)
    dw = 2.0 * math.pi / period
    s = spectrum(omega)
    amps, heads = [], []
    for seed in seeds:
        rng = np.random.default_rng(_child(seed, 0))
        if random_amplitude:
            g = rng.standard_normal((omega.size, 2))
            a = np.sqrt(s * dw) * (g[:, 0] + 1j * g[:, 1])
        else:
            phase = rng.uniform(0.0, 2.0 * math.pi, omega.size)
            a = np.sqrt(2.0 * s * dw) * np.exp(1j * phase)
        amps.append(a)
        if spreading_s is not None:
            from floatwind.environment.spectra import sample_cos2s

            heads.append(sample_cos2s(rng, spreading_s, omega.size, heading))
    heading_arr = np.array(heads) if heads else np.full((1, omega.size), heading)
    desc = spectrum.describe() if hasattr(spectrum, "describe") else "spectrum"
    info = {
        "description": desc,
        "heading_deg": math.degrees(heading),
        "random_amplitude": int(random_amplitude),
        "band_rad_s": f"{band[0]:.4g}-{band[1]:.4g}",
        "seeds": ";".join(f"{sq.entropy}:{'/'.join(map(str, sq.spawn_key))}" for sq in seeds),
    }
    if spreading_s is not None:
        info["spreading_s"] = float(spreading_s)
    if type(spectrum).__name__ == "JonswapSpectrum":  # its parameters, read by name (rao)
        info.update(jonswap_hs=spectrum.hs, jonswap_tp=spectrum.tp, jonswap_gamma=spectrum.gamma)
    return LinearSea(
        omega=omega,
        amplitude=np.array(amps),
        heading=heading_arr,
        depth=depth,
        gravity=gravity,
        stretching=stretching,
        period=period,
        info=info,
    )


def sea_from_elevation(
    time: np.ndarray,
    eta: np.ndarray,
    *,
    heading: float = 0.0,
    location: tuple[float, float] = (0.0, 0.0),
    f_max: float | None = None,
    depth: float = DEFAULT_WATER_DEPTH,
    gravity: float = DEFAULT_GRAVITY,
    stretching: str = "wheeler",
    source: str = "",
    period: float | str | None = "auto",
) -> LinearSea:
    """Long-crested sea that reproduces a measured/simulated elevation series at one point.

    The series (uniform step, length n) is taken as one period of a periodic signal; its FFT gives
    the complex amplitudes at ``2 pi m / (n dt)``, which are moved from ``location`` to the
    origin with the dispersion relation, so ``elevation`` at ``location`` returns the series at
    its sample times and kinematics follow from linear theory. The mean is removed.

    The repeat period: OpenFAST's SeaState synthesises its sea by an inverse FFT over
    ``WaveTMax`` and appends the first sample as the last (SeaState Waves.f90, "Append first
    datpoint as the last as aid for repeated wave data"), so a ``Wave1Elev`` record of a run with
    ``TMax = WaveTMax`` holds ``n = WaveTMax / WaveDT + 1`` samples whose last repeats the first.
    Taking all n as one period would stretch every frequency by ``n / (n - 1)`` (for ref13:
    1 part in 12,000, enough to move the lightly damped resonances and leave motions 3e-3..5e-3
    off HydroDyn's). ``period="auto"`` (default) drops the last sample when it equals the first
    in every realization (the record then spans whole periods); a number (s) keeps the samples
    with ``t < t0 + period`` and requires them to span it; None takes the n samples as they are.

    Parameters
    ----------
    time : (n,) sample times (s), uniform
    eta : (n,) elevation (m), or (R, n) for R realizations
    heading : propagation direction (rad), from +x towards +y
    location : (x, y) where the series was recorded (m)
    f_max : drop components above this frequency (Hz), e.g. to match another code's cut-off
    """
    time = np.asarray(time, dtype=float)
    eta = np.atleast_2d(np.asarray(eta, dtype=float))
    n = time.size
    if n < 8 or eta.shape[-1] != n:
        raise ValueError("elevation series needs at least 8 samples and matching time/eta")
    dts = np.diff(time)
    dt = float(np.mean(dts))
    if not np.allclose(dts, dt, rtol=1e-4, atol=1e-6) or dt <= 0:
        raise ValueError("elevation series must have a uniform, increasing time step")
    if not np.all(np.isfinite(eta)):
        raise ValueError("elevation series contains non-finite values")
    if isinstance(period, str):
        if period != "auto":
            raise ValueError(f"period must be a number of seconds or 'auto', not {period!r}")
        if n > 8 and np.array_equal(eta[:, -1], eta[:, 0]):
            time, eta, n = time[:-1], eta[:, :-1], n - 1
    elif period is not None:
        keep_n = int(round(float(period) / dt))
        if abs(keep_n * dt - float(period)) > 1e-6 * float(period) or not 8 <= keep_n <= n:
            raise ValueError(
                f"period {float(period):g} s is not a whole number of the series' steps "
                f"({dt:g} s) within its {n} samples"
            )
        time, eta, n = time[:keep_n], eta[:, :keep_n], keep_n
    period = n * dt
    spec = np.fft.rfft(eta, axis=-1)
    m = np.arange(spec.shape[-1])
    omega = 2.0 * math.pi * m / period
    amp = 2.0 * np.conj(spec) / n
    if n % 2 == 0:
        amp[:, -1] /= 2.0
    keep = m >= 1
    if f_max is not None:
        keep &= omega <= 2.0 * math.pi * f_max
    # series at t0 = time[0]: shift so that Re sum A e^{-i w (t - t0)} reproduces it
    amp = amp * np.exp(1j * omega * time[0])
    omega, amp = omega[keep], amp[:, keep]
    k = wavenumber(omega, depth, gravity)
    kx, ky = k * math.cos(heading), k * math.sin(heading)
    amp = amp * np.exp(-1j * (kx * location[0] + ky * location[1]))
    info = {
        "description": f"elevation series {source}".strip(),
        "heading_deg": math.degrees(heading),
        "location_m": f"{location[0]:g},{location[1]:g}",
    }
    return LinearSea(
        omega=omega,
        amplitude=amp,
        heading=np.full((1, omega.size), heading),
        depth=depth,
        gravity=gravity,
        stretching=stretching,
        period=period,
        info=info,
    )


def read_elevation_file(
    path: str | os.PathLike, channel: str | int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Read a wave-elevation time series from a text file.

    Accepted: an OpenFAST binary output (``.outb``, read with
    :func:`floatwind.io.openfast.read_outb`; ``channel`` a name, default ``"Wave1Elev"``), an
    OpenFAST text output (``.out``: header lines, a channel-name row starting with
    ``Time``, a units row, then data; ``channel`` e.g. ``"Wave1Elev"``, the default), a CSV with a
    header row (``channel`` a column name or index; default the second column) or plain
    whitespace/comma-separated numbers (time in column 0, elevation in column 1 by default).

    Returns
    -------
    time (n,) s, eta (n,) m

    Raises
    ------
    ValueError naming the file and what is wrong.
    """
    path = Path(path)
    if path.suffix.lower() == ".outb":
        return _read_outb_channel(path, channel)
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError as exc:
        raise ValueError(f"{path}: cannot read elevation file ({exc.strerror})") from exc
    names = None
    start = 0
    for i, line in enumerate(lines[:200]):
        toks = line.replace(",", " ").split()
        if toks and toks[0].lower() == "time":
            names = toks
            start = i + 1
            if start < len(lines):
                nxt = lines[start].replace(",", " ").split()
                if nxt and nxt[0].startswith("("):
                    start += 1  # OpenFAST units row
            break
    rows = []
    for line in lines[start:]:
        toks = line.replace(",", " ").split()
        if not toks:
            continue
        try:
            rows.append([float(v) for v in toks])
        except ValueError:
            if rows:
                raise ValueError(f"{path}: non-numeric data row: {line[:60]!r}") from None
    if not rows:
        raise ValueError(f"{path}: no numeric data found")
    width = min(len(r) for r in rows)
    data = np.array([r[:width] for r in rows])
    if channel is None:
        if names is not None and "Wave1Elev" in names:
            col = names.index("Wave1Elev")
        else:
            col = 1
    elif isinstance(channel, int):
        col = channel
    else:
        if names is None:
            raise ValueError(f"{path}: channel '{channel}' asked for but the file has no header")
        if channel not in names:
            raise ValueError(f"{path}: no channel '{channel}' (channels: {', '.join(names)})")
        col = names.index(channel)
    if col >= width:
        raise ValueError(f"{path}: column {col} missing (rows have {width} columns)")
    return data[:, 0], data[:, col]


def _read_outb_channel(path: Path, channel: str | int | None) -> tuple[np.ndarray, np.ndarray]:
    """Time and one channel of an OpenFAST ``.outb`` file (see :func:`read_elevation_file`)."""
    from floatwind.io.openfast import read_outb

    try:
        ds = read_outb(path)
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: cannot read OpenFAST binary output ({exc})") from exc
    names = [str(v) for v in ds.data_vars]
    if channel is None:
        channel = "Wave1Elev"
    if isinstance(channel, int):
        if not 1 <= channel <= len(names):
            raise ValueError(f"{path}: column {channel} missing ({len(names)} channels + time)")
        channel = names[channel - 1]
    if channel not in ds.data_vars:
        raise ValueError(f"{path}: no channel '{channel}' (channels: {', '.join(names)})")
    time_name = "time" if "time" in ds.coords else next(iter(ds.coords))
    return np.asarray(ds[time_name].values, dtype=float), np.asarray(
        ds[channel].values, dtype=float
    )
