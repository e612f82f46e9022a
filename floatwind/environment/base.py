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


class StillWater:
    """Calm sea: zero elevation and zero kinematics."""

    n_realizations = 1
    stretching = "none"

    def elevation(self, t: float, xy: np.ndarray) -> np.ndarray:
        return np.zeros(np.shape(xy)[:-1])

    def kinematics(self, t: float, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        z = np.zeros(np.shape(points))
        return z, z.copy()

    def describe(self) -> str:
        return "still water"


class NoWind:
    """No wind."""

    n_realizations = 1

    def velocity(self, t: float, points: np.ndarray) -> np.ndarray:
        return np.zeros(np.shape(points))

    def describe(self) -> str:
        return "no wind"


@dataclass
class Environment:
    """Physical constants (SI) plus a sea state and a wind field."""

    gravity: float = 9.80665
    rho_water: float = 1025.0
    rho_air: float = 1.225
    water_depth: float = 320.0
    sea: object = field(default_factory=StillWater)
    wind: object = field(default_factory=NoWind)
