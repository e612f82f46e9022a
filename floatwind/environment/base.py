"""The environment contract: what loads may ask of the sea and the wind.

``Environment`` bundles physical constants with a sea state and a wind field. Sea states and wind
fields are batched: they answer for arrays of points with a leading batch axis B (one entry per
realization). A sea or wind with a single realization broadcasts against any B.

Sea state contract (``SeaState``):

* ``elevation(t, xy)``: free-surface elevation (m), ``xy`` (B, P, 2) -> (B, P).
* ``kinematics(t, points)``: water particle velocity and acceleration (m/s, m/s^2), inertial axes,
  ``points`` (B, P, 3) -> two arrays (B, P, 3); zero for points above the (stretched) surface.
* ``n_realizations``: number of realizations it carries (1 broadcasts).

Wind field contract (``WindField``):

* ``velocity(t, points)``: wind velocity (m/s), inertial axes, (B, P, 3) -> (B, P, 3).
* ``n_realizations``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


def time_runs(t) -> list[tuple[int, int, float]]:
    """Contiguous runs of equal per-member times: [(first, end, t), ...] for a (M,) array.

    Seas and winds that accept an array ``t`` of per-member times (``accepts_time_array``) answer
    run by run with their scalar-time code, so the numbers are those of one call per time.
    """
    t = np.asarray(t, dtype=float).reshape(-1)
    if t.size == 0:
        return []
    cut = np.flatnonzero(t[1:] != t[:-1]) + 1
    starts = np.concatenate([[0], cut])
    ends = np.concatenate([cut, [t.size]])
    return [(int(a), int(b), float(t[a])) for a, b in zip(starts, ends, strict=True)]


class StillWater:
    """Calm sea: zero elevation and zero kinematics."""

    n_realizations = 1
    stretching = "none"
    accepts_time_array = True  # t is not used

    def elevation(self, t: float, xy: np.ndarray) -> np.ndarray:
        return np.zeros(np.shape(xy)[:-1])

    def kinematics(self, t: float, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        z = np.zeros(np.shape(points))
        return z, z.copy()

    def describe(self) -> str:
        return "still water"

    def attrs(self) -> dict:
        return {
            "wave_stretching": self.stretching,
            "wave_kinematics_method": "still water",
            "wave_kinematics_tolerance": 0.0,
        }


class NoWind:
    """No wind."""

    accepts_time_array = True  # t is not used

    n_realizations = 1

    def velocity(self, t: float, points: np.ndarray) -> np.ndarray:
        return np.zeros(np.shape(points))

    def describe(self) -> str:
        return "no wind"

    def attrs(self) -> dict:
        return {}


#: the default physical constants (SI), defined once here (issue 23 item 5): the environment
#: section of a case (floatwind.environment.config), the Environment below and the wave
#: functions' defaults read them
DEFAULT_GRAVITY = 9.80665  # m/s^2, standard gravity
DEFAULT_RHO_WATER = 1025.0  # kg/m^3, sea water
DEFAULT_RHO_AIR = 1.225  # kg/m^3, ISA sea level
DEFAULT_WATER_DEPTH = 320.0  # m, OC3-Hywind site
CONSTANT_DEFAULTS = {"gravity": DEFAULT_GRAVITY, "rho_water": DEFAULT_RHO_WATER,
                     "rho_air": DEFAULT_RHO_AIR, "water_depth": DEFAULT_WATER_DEPTH}  # fmt: skip


@dataclass
class Environment:
    """Physical constants (SI) plus a sea state and a wind field."""

    gravity: float = DEFAULT_GRAVITY
    rho_water: float = DEFAULT_RHO_WATER
    rho_air: float = DEFAULT_RHO_AIR
    water_depth: float = DEFAULT_WATER_DEPTH
    sea: object = field(default_factory=StillWater)
    wind: object = field(default_factory=NoWind)

    @property
    def stretching(self) -> str:
        """Wave stretching rule of the sea ("wheeler", "vertical" or "none")."""
        return str(getattr(self.sea, "stretching", "none"))

    def describe(self) -> str:
        """One short line per part: constants, sea, wind."""
        return (
            f"g={self.gravity:g} m/s^2, rho_water={self.rho_water:g} kg/m^3, "
            f"rho_air={self.rho_air:g} kg/m^3, depth={self.water_depth:g} m\n"
            f"sea: {_describe(self.sea)}\nwind: {_describe(self.wind)}"
        )

    def attrs(self) -> dict[str, str | float | int]:
        """Flat attributes for netCDF outputs (constants, sea and wind descriptions, seeds)."""
        out: dict[str, str | float | int] = {
            "gravity": float(self.gravity),
            "rho_water": float(self.rho_water),
            "rho_air": float(self.rho_air),
            "water_depth": float(self.water_depth),
            "sea": _describe(self.sea),
            "wind": _describe(self.wind),
            "wave_stretching": self.stretching,
        }
        for part in (self.sea, self.wind):
            extra = part.attrs() if hasattr(part, "attrs") else {}
            for key, val in extra.items():
                if isinstance(val, bool):
                    val = int(val)
                elif not isinstance(val, (str, int, float)):
                    val = str(val)
                out[key] = val
        return out


def _describe(part: object) -> str:
    return part.describe() if hasattr(part, "describe") else type(part).__name__
