"""Wind fields: steady with shear, IEC 61400-1 transients, full-field turbulence (TurbSim).

All fields follow the WindField contract (base.py): ``velocity(t, points (B, P, 3)) -> (B, P, 3)``
in inertial axes (m/s), heights z measured up from the still-water level (offshore, the ground of
a TurbSim grid is the SWL, as in OpenFAST). Headings are propagation directions from +x towards +y
(the dissertation's wind along -Y is heading -90 deg).

IEC transients follow IEC 61400-1 ed. 3 section 6.3.2: extreme operating gust (EOG, eq. 16-17),
extreme direction change (EDC, eq. 21-22), with NTM sigma_1 (eq. 11) and Lambda_1 (eq. 5). The
dissertation's case (seed 004, ch. II and IV) superposes a sudden 45 deg shift at 100 s on a
TurbSim field: :class:`DirectionChange` with ``ramp=0`` on a :class:`FullFieldWind`.
"""

from __future__ import annotations

import logging
import math
from typing import TYPE_CHECKING

import numpy as np

from floatwind import _kernels
from floatwind._kernels.status import Status
from floatwind.environment.base import time_runs
from turbsim_io import iec_length_scale, ntm_sigma1

if TYPE_CHECKING:
    import xarray as xr

logger = logging.getLogger(__name__)

#: IEC 61400-1 reference wind speed V_ref (m/s) by turbine class (ed. 3, table 1)
VREF = {"I": 50.0, "II": 42.5, "III": 37.5}


def _rot_z(angle: np.ndarray) -> np.ndarray:
    """Rotation matrices about z, angle (...,) -> (..., 3, 3)."""
    c, s = np.cos(angle), np.sin(angle)
    o, i = np.zeros_like(c), np.ones_like(c)
    return np.stack(
        [np.stack([c, -s, o], -1), np.stack([s, c, o], -1), np.stack([o, o, i], -1)], -2
    )


class SteadyWind:
    """Steady wind with a power-law or logarithmic shear profile.

    Parameters
    ----------
    speed : mean speed at ``ref_height`` (m/s)
    heading : propagation direction (rad), from +x towards +y
    ref_height : reference height above the SWL (m)
    shear : "power" (``U (z/z_ref)^alpha``) or "log" (``U ln(z/z0) / ln(z_ref/z0)``)
    alpha : power-law exponent (IEC 61400-3 offshore NTM: 0.14)
    roughness : z0 (m) for the log law
    """

    n_realizations = 1
    accepts_time_array = True  # steady: t is not used

    def __init__(
        self,
        *,
        speed: float,
        heading: float = 0.0,
        ref_height: float = 90.0,
        shear: str = "power",
        alpha: float = 0.14,
        roughness: float = 0.0002,
    ):
        if shear not in ("power", "log"):
            raise ValueError(f"shear '{shear}' unknown; use 'power' or 'log'")
        if ref_height <= 0 or (shear == "log" and roughness <= 0):
            raise ValueError("ref_height and roughness must be positive")
        self.speed, self.heading, self.ref_height = float(speed), float(heading), float(ref_height)
        self.shear, self.alpha, self.roughness = shear, float(alpha), float(roughness)

    def profile(self, z: np.ndarray) -> np.ndarray:
        """Mean speed (m/s) at heights z (m); zero at and below the SWL."""
        z = np.asarray(z, dtype=float)
        zp = np.maximum(z, 1e-9)
        if self.shear == "power":
            u = self.speed * (zp / self.ref_height) ** self.alpha
        else:
            zl = np.maximum(zp, self.roughness)
            u = (
                self.speed
                * np.log(zl / self.roughness)
                / math.log(self.ref_height / self.roughness)
            )
        return np.where(z > 0, u, 0.0)

    def velocity(self, t: float, points: np.ndarray) -> np.ndarray:
        """Wind velocity (B, P, 3) (m/s) at ``points`` (B, P, 3) (m)."""
        points = np.asarray(points, dtype=float)
        u = self.profile(points[..., 2])
        return np.stack(
            [u * math.cos(self.heading), u * math.sin(self.heading), np.zeros_like(u)], -1
        )

    def describe(self) -> str:
        law = (
            f"power law alpha={self.alpha:g}"
            if self.shear == "power"
            else (f"log law z0={self.roughness:g} m")
        )
        return (
            f"steady {self.speed:g} m/s at {self.ref_height:g} m, heading "
            f"{math.degrees(self.heading):g} deg, {law}"
        )

    def attrs(self) -> dict:
        return {
            "wind_speed_ref_m_s": self.speed,
            "wind_ref_height_m": self.ref_height,
            "wind_heading_deg": math.degrees(self.heading),
            "wind_shear": self.shear,
        }


def iec_turbulence(
    uhub: float, zhub: float, turbine_class: str, turbulence_class: str | float
) -> tuple[float, float, float]:
    """(sigma_1 (m/s), Lambda_1 (m), V_ref (m/s)) for IEC 61400-1 ed. 3 transients."""
    key = str(turbine_class).upper()
    if key not in VREF:
        raise ValueError(f"turbine class '{turbine_class}' unknown; use one of {sorted(VREF)}")
    return ntm_sigma1(uhub, turbulence_class), iec_length_scale(zhub), VREF[key]


class TransientWind:
    """Base-field wind with a time-dependent direction change and/or gust (IEC 61400-1).

    ``velocity = Rz(dtheta(t)) base.velocity + gust(t, z) * e(t)``, with ``e`` the rotated mean
    direction; the base field is rotated as a whole (the superposition IECwind/TurbSim users do).
    """

    def __init__(self, base, *, direction=None, gust=None, label: str = "transient"):
        self.base = base
        self._direction = direction
        self._gust = gust
        self.label = label
        self.n_realizations = getattr(base, "n_realizations", 1)

    def direction_change(self, t: float) -> float:
        """Direction change (rad) at time t, positive from +x towards +y."""
        return 0.0 if self._direction is None else float(self._direction(t))

    def velocity(self, t: float, points: np.ndarray) -> np.ndarray:
        """Wind velocity (B, P, 3) (m/s) at ``points`` (B, P, 3)."""
        v = self.base.velocity(t, points)
        dth = self.direction_change(t)
        if dth != 0.0:
            v = v @ _rot_z(np.array(dth)).T
        if self._gust is not None:
            g = self._gust(t, np.asarray(points, dtype=float)[..., 2])
            h = getattr(self.base, "heading", 0.0) + dth
            v = v + g[..., None] * np.array([math.cos(h), math.sin(h), 0.0])
        return v

    def describe(self) -> str:
        return f"{self.label} on {self.base.describe()}"

    def attrs(self) -> dict:
        out = dict(self.base.attrs()) if hasattr(self.base, "attrs") else {}
        out["wind_transient"] = self.label
        return out


class RampedDirection:
    """A direction change ``theta(t)`` (rad) described by plain numbers, so that it has a compiled
    form (``floatwind.environment.compiled.WindParams``, evaluated the same way in
    ``floatwind._kernels.wind.direction_change``).

    ``kind`` "shift" (:func:`direction_shift`): 0 before ``start``, then a half-cosine ramp of
    ``duration`` s (a step for ``duration <= 0``) to ``amplitude``; "edc" (:func:`iec_edc`,
    IEC 61400-1 eq. 22): ``0.5 amplitude (1 - cos(pi s / duration))`` for
    ``0 < s = t - start < duration``, 0 before, ``amplitude`` after.
    """

    KINDS = {"shift": 1, "edc": 2}  # codes of WindParams.dir_kind

    def __init__(self, kind: str, *, start: float, amplitude: float, duration: float):
        if kind not in self.KINDS:
            raise ValueError(
                f"direction change kind '{kind}' unknown; use one of {list(self.KINDS)}"
            )
        self.kind = kind
        self.start, self.amplitude, self.duration = float(start), float(amplitude), float(duration)

    def __call__(self, t: float) -> float:
        a, start, dur = self.amplitude, self.start, self.duration
        if self.kind == "shift":
            if t < start:
                return 0.0
            if dur <= 0 or t >= start + dur:
                return a
            return 0.5 * a * (1.0 - math.cos(math.pi * (t - start) / dur))
        s = t - start
        if s <= 0:
            return 0.0
        if s >= dur:
            return a
        return 0.5 * a * (1.0 - math.cos(math.pi * s / dur))

    def spec(self) -> tuple[int, float, float, float]:
        """(kind code, start, amplitude, duration) for the compiled form."""
        return self.KINDS[self.kind], self.start, self.amplitude, self.duration


class OperatingGust:
    """The IEC extreme operating gust (eq. 17) as plain numbers (compiled form in
    ``floatwind._kernels.wind.operating_gust``): speed change
    ``-0.37 V_gust sin(3 pi s / T) (1 - cos(2 pi s / T))`` for ``0 < s = t - start < T``, zero
    otherwise and at and below the SWL."""

    KIND = 1  # code of WindParams.gust_kind

    def __init__(self, *, start: float, vgust: float, period: float = 10.5):
        self.start, self.vgust, self.period = float(start), float(vgust), float(period)

    def __call__(self, t: float, z: np.ndarray) -> np.ndarray:
        s = t - self.start
        period = self.period
        if s <= 0 or s >= period:
            return np.zeros(np.shape(z))
        val = (
            -0.37
            * self.vgust
            * math.sin(3 * math.pi * s / period)
            * (1.0 - math.cos(2 * math.pi * s / period))
        )
        return np.where(np.asarray(z) > 0, val, 0.0)

    def spec(self) -> tuple[int, float, float, float]:
        """(kind code, start, V_gust, period) for the compiled form."""
        return self.KIND, self.start, self.vgust, self.period


def direction_shift(base, *, shift: float, time: float = 100.0, ramp: float = 0.0) -> TransientWind:
    """The dissertation's sudden wind shift (seed 004, ch. II-IV: 45 deg at 100 s).

    Parameters
    ----------
    base : wind field to rotate (steady or full field)
    shift : direction change (rad), positive from +x towards +y (wind along -Y turning towards
        -X, as in the dissertation, is ``-pi/4`` from a heading of ``-pi/2``)
    time : start of the change (s)
    ramp : duration of a half-cosine ramp (s); 0 for a step
    """

    return TransientWind(
        base,
        direction=RampedDirection("shift", start=time, amplitude=shift, duration=ramp),
        label=f"direction shift {math.degrees(shift):g} deg at {time:g} s (ramp {ramp:g} s)",
    )


def iec_edc(
    base,
    *,
    uhub: float,
    zhub: float,
    rotor_diameter: float,
    turbine_class: str = "I",
    turbulence_class: str | float = "B",
    start: float = 0.0,
    sign: float = 1.0,
) -> TransientWind:
    """Extreme direction change, IEC 61400-1 ed. 3 eq. (21)-(22).

    ``theta_e = 4 arctan(sigma_1 / (V_hub (1 + 0.1 D / Lambda_1)))`` (limited to 180 deg),
    ``theta(t) = 0.5 theta_e (1 - cos(pi t / T))`` for ``0 <= t <= T = 6 s``, then ``theta_e``.
    """
    sigma1, lam1, _ = iec_turbulence(uhub, zhub, turbine_class, turbulence_class)
    theta_e = min(4.0 * math.atan(sigma1 / (uhub * (1.0 + 0.1 * rotor_diameter / lam1))), math.pi)
    theta_e *= 1.0 if sign >= 0 else -1.0
    return TransientWind(
        base,
        direction=RampedDirection("edc", start=start, amplitude=theta_e, duration=6.0),
        label=f"IEC EDC theta_e={math.degrees(theta_e):.4g} deg at {start:g} s",
    )


def iec_eog(
    base,
    *,
    uhub: float,
    zhub: float,
    rotor_diameter: float,
    turbine_class: str = "I",
    turbulence_class: str | float = "B",
    start: float = 0.0,
) -> TransientWind:
    """Extreme operating gust, IEC 61400-1 ed. 3 eq. (16)-(17).

    ``V_gust = min(1.35 (V_e1 - V_hub), 3.3 sigma_1 / (1 + 0.1 D / Lambda_1))`` with
    ``V_e1 = 0.8 * 1.4 V_ref`` at hub height; the speed change is
    ``-0.37 V_gust sin(3 pi t / T) (1 - cos(2 pi t / T))`` for ``0 <= t <= T = 10.5 s``.
    """
    sigma1, lam1, vref = iec_turbulence(uhub, zhub, turbine_class, turbulence_class)
    ve1 = 0.8 * 1.4 * vref
    vgust = min(1.35 * (ve1 - uhub), 3.3 * sigma1 / (1.0 + 0.1 * rotor_diameter / lam1))
    return TransientWind(
        base,
        gust=OperatingGust(start=start, vgust=vgust, period=10.5),
        label=f"IEC EOG V_gust={vgust:.4g} m/s at {start:g} s",
    )


class FullFieldWind:
    """Turbulent full-field wind from TurbSim grids, with Taylor's frozen turbulence.

    A point at along-wind distance ``x_w`` (from the inertial origin along the heading) sees at
    time t the grid plane at time ``t + (x_offset - x_w) / uhub`` (InflowWind's convention:
    ``x_offset`` = half the grid width for non-periodic files so the rotor starts inside the
    field, 0 for periodic ones). Grid ``y`` is the lateral coordinate to the left looking
    downwind (``+90 deg`` from the heading), ``z`` the height above the SWL. Interpolation:
    linear in time, bilinear in (y, z); points outside the grid take the nearest edge value
    (logged once); below the grid, the tower line when the file has one.

    Parameters
    ----------
    fields : list of xarray.Dataset (one per realization, :func:`turbsim_io.read_bts` layout),
        all on the same grid
    heading : propagation direction of the grid's x axis (rad)
    x_offset : see above; default from the first field's ``periodic`` attribute
    """

    def __init__(self, fields: list[xr.Dataset], *, heading: float = 0.0, x_offset=None):
        if not fields:
            raise ValueError("FullFieldWind needs at least one field")
        ds0 = fields[0]
        self.heading = float(heading)
        self.uhub = float(ds0.attrs["uhub"])
        self.periodic = bool(int(ds0.attrs.get("periodic", 0)))
        self.time = np.asarray(ds0["time"].values, dtype=float)
        self.y = np.asarray(ds0["y"].values, dtype=float)
        self.z = np.asarray(ds0["z"].values, dtype=float)
        self.dt = float(self.time[1] - self.time[0])
        self.nt = self.time.size
        self.x_offset = (0.0 if self.periodic else -self.y[0]) if x_offset is None else x_offset
        grids = []
        towers = []
        for ds in fields:
            if ds["u"].shape != ds0["u"].shape:
                raise ValueError("all full-field realizations must share one grid")
            grids.append(np.stack([ds[c].transpose("time", "y", "z").values for c in "uvw"], -1))
            if "u_tower" in ds:
                towers.append(np.stack([ds[f"{c}_tower"].values for c in "uvw"], -1))
        self.grid = np.stack(grids).astype(np.float32)  # (R, nt, ny, nz, 3)
        self.z_tower = np.asarray(ds0["z_tower"].values) if towers else None
        self.tower = np.stack(towers).astype(np.float32) if towers else None
        self.n_realizations = len(fields)
        self.description = str(ds0.attrs.get("description", ""))
        self._warned = False
        self.source = ";".join(str(ds.attrs.get("source", "in memory")) for ds in fields)

    @property
    def length(self) -> float:
        """Duration covered by the file (s)."""
        return self.nt * self.dt if self.periodic else (self.nt - 1) * self.dt

    def last_time(self) -> float:
        """Latest simulation time at which a point at the origin stays inside the file (s)."""
        return math.inf if self.periodic else (self.nt - 1) * self.dt - self.x_offset / self.uhub

    def _time_index(self, tau: np.ndarray):
        s = tau / self.dt
        if self.periodic:
            i0 = np.floor(s).astype(np.int64)
            f = s - i0
            return i0 % self.nt, (i0 + 1) % self.nt, f
        if np.any(s < -1e-9) or np.any(s > self.nt - 1 + 1e-9):
            raise ValueError(
                f"full-field wind: time {float(np.max(tau)):.6g} s (shifted for frozen "
                f"turbulence) is outside the non-periodic file (0 to {(self.nt - 1) * self.dt:g} s)"
            )
        s = np.clip(s, 0.0, self.nt - 1)
        i0 = np.minimum(np.floor(s).astype(np.int64), self.nt - 2)
        return i0, i0 + 1, s - i0

    @staticmethod
    def _axis_index(coord: np.ndarray, v: np.ndarray):
        d = coord[1] - coord[0]
        s = np.clip((v - coord[0]) / d, 0.0, coord.size - 1)
        i0 = np.minimum(np.floor(s).astype(np.int64), coord.size - 2)
        return i0, s - i0

    #: ``velocity`` takes a (B,) array of per-member times too (answered time by time)
    accepts_time_array = True

    def velocity(self, t: float, points: np.ndarray) -> np.ndarray:
        """Wind velocity (B, P, 3) (m/s) at ``points`` (B, P, 3) (m), inertial axes; ``t`` a
        time or a (B,) array of per-member times."""
        points = np.asarray(points, dtype=float)
        if np.ndim(t):
            return np.concatenate(
                [self.velocity(tk, points[a:b]) for a, b, tk in time_runs(t)], axis=0
            )
        b = points.shape[0]
        r = self.n_realizations
        if r != 1 and b != r:
            raise ValueError(f"wind has {r} realizations but points have batch {b}")
        if _kernels.enabled() and points.ndim == 3:
            from floatwind._kernels import wind as kw

            field = kw.FullField(
                grid=self.grid,
                y=self.y,
                z=self.z,
                cos=math.cos(self.heading),
                sin=math.sin(self.heading),
                x_offset=float(self.x_offset),
                uhub=self.uhub,
                dt=self.dt,
                periodic=self.periodic,
                has_tower=self.tower is not None,
            )
            vel, status = kw.full_field_velocity(float(t), _kernels.f64(points), field)
            if status & Status.WIND_EDGE and not self._warned:
                logger.warning(
                    "full-field wind: points outside the grid take the nearest edge value"
                )
                self._warned = True
            if not status & Status.WIND_OUTSIDE:
                return vel
        ch, sh = math.cos(self.heading), math.sin(self.heading)
        xw = points[..., 0] * ch + points[..., 1] * sh
        yw = -points[..., 0] * sh + points[..., 1] * ch
        z = points[..., 2]
        tau = t + (self.x_offset - xw) / self.uhub
        it0, it1, ft = self._time_index(tau)
        outside = (yw < self.y[0]) | (yw > self.y[-1]) | (z > self.z[-1])
        below = z < self.z[0]
        if (np.any(outside) or (np.any(below) and self.tower is None)) and not self._warned:
            logger.warning("full-field wind: points outside the grid take the nearest edge value")
            self._warned = True
        iy, fy = self._axis_index(self.y, yw)
        iz, fz = self._axis_index(self.z, z)
        rb = np.zeros(b, dtype=np.int64) if r == 1 else np.arange(b)
        rb = np.broadcast_to(rb[:, None], xw.shape)
        g = self.grid
        vel = np.zeros(points.shape)
        for it, wt in ((it0, 1.0 - ft), (it1, ft)):
            for jy, wy in ((iy, 1.0 - fy), (iy + 1, fy)):
                for jz, wz in ((iz, 1.0 - fz), (iz + 1, fz)):
                    vel += (wt * wy * wz)[..., None] * g[rb, it, jy, jz]
        if self.tower is not None and np.any(below):
            zt = self.z_tower[::-1]  # increasing
            s = np.clip(np.interp(z, zt, np.arange(zt.size)), 0, zt.size - 1)
            k0 = np.minimum(np.floor(s).astype(np.int64), max(zt.size - 2, 0))
            fk = s - k0
            tw = self.tower[:, :, ::-1]
            vt = np.zeros(points.shape)
            for it, wt in ((it0, 1.0 - ft), (it1, ft)):
                for kk, wk in ((k0, 1.0 - fk), (np.minimum(k0 + 1, zt.size - 1), fk)):
                    vt += (wt * wk)[..., None] * tw[rb, it, kk]
            vel = np.where(below[..., None], vt, vel)
        # grid axes (x_w, y_w, z) -> inertial
        return np.stack(
            [vel[..., 0] * ch - vel[..., 1] * sh, vel[..., 0] * sh + vel[..., 1] * ch, vel[..., 2]],
            -1,
        )

    def describe(self) -> str:
        return (
            f"full-field wind ({self.n_realizations} realization(s)) uhub={self.uhub:g} m/s, "
            f"{self.y.size}x{self.z.size} grid, {self.nt} steps of {self.dt:g} s, heading "
            f"{math.degrees(self.heading):g} deg, {'periodic' if self.periodic else 'not periodic'}"
        )

    def attrs(self) -> dict:
        return {
            "wind_uhub_m_s": self.uhub,
            "wind_heading_deg": math.degrees(self.heading),
            "wind_files": self.source,
            "wind_periodic": int(self.periodic),
        }


def disc_points(
    centre: np.ndarray, normal: np.ndarray, radius: float, n_radial: int = 5, n_azimuth: int = 12
) -> tuple[np.ndarray, np.ndarray]:
    """Area-weighted sample points over a rotor disc.

    Parameters
    ----------
    centre : (B, 3) disc centre (m)
    normal : (B, 3) disc normal (any length)
    radius : disc radius (m)

    Returns
    -------
    points (B, n_radial * n_azimuth, 3) (m), weights (n_radial * n_azimuth,) summing to 1
    (midpoint rule in r^2, so each annulus carries equal area)
    """
    centre = np.asarray(centre, dtype=float)
    n = np.asarray(normal, dtype=float)
    n = n / np.linalg.norm(n, axis=-1, keepdims=True)
    ref = np.where(np.abs(n[..., 2:3]) < 0.9, np.array([0.0, 0.0, 1.0]), np.array([0, 1.0, 0]))
    e1 = np.cross(n, ref)
    e1 /= np.linalg.norm(e1, axis=-1, keepdims=True)
    e2 = np.cross(n, e1)
    rr = radius * np.sqrt((np.arange(n_radial) + 0.5) / n_radial)
    th = 2.0 * math.pi * (np.arange(n_azimuth) + 0.5) / n_azimuth
    c = (rr[:, None] * np.cos(th)).ravel()
    s = (rr[:, None] * np.sin(th)).ravel()
    pts = centre[:, None, :] + c[None, :, None] * e1[:, None, :] + s[None, :, None] * e2[:, None, :]
    w = np.full(c.size, 1.0 / c.size)
    return pts, w


def rotor_average(
    wind,
    t: float,
    centre: np.ndarray,
    normal: np.ndarray,
    radius: float,
    n_radial: int = 5,
    n_azimuth: int = 12,
) -> np.ndarray:
    """Rotor-averaged wind velocity (B, 3) (m/s) over the swept disc (see :func:`disc_points`)."""
    pts, w = disc_points(centre, normal, radius, n_radial, n_azimuth)
    return np.einsum("bpi,p->bi", wind.velocity(t, pts), w)
