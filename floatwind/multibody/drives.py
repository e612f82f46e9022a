"""Drives of joints with their own degree of freedom (issue 17; docs/multibody.md, "Joint DOFs").

A joint of the tree is *prescribed* (its angle is a :class:`~floatwind.multibody.motion.Motion`
of time, Wang's momentum cloud method) or *free*: its angle theta is a state of the run and its
acceleration an unknown of the forward dynamics, and a drive gives the torque tau that the
parent exerts on the child about the joint axis:

* :class:`FreeDrive`: tau = 0 (a free bearing);
* :class:`SpringDamperDrive`: tau = -K (theta - theta_c(t)) - C (theta' - theta_c'(t)), pulled
  toward a commanded motion theta_c (OpenFAST's yaw drive: ElastoDyn ``YawDOF`` with ServoDyn's
  ``YawSpr``, ``YawDamp`` and the neutral yaw ``YawNeut`` or an override maneuver);
* :class:`TorqueDrive`: tau = tau_0 + tau_tab(theta') (a constant torque, and/or a table of torque
  versus the joint rate, linear between points and held beyond the ends: a generator torque
  curve seen on the low-speed shaft).

A joint may also *follow* a free joint through a gear: theta_j = ratio * theta_k + offset (the
generator of a rotor with a gearbox, spinning ``GBRatio`` times the rotor speed); it adds no
unknown, its inertia enters the free joint's equation through the ratio.

The drives are frozen data; :func:`drive_arrays` packs them for the compiled kernels
(``floatwind._kernels.joints``), and :meth:`Drive.torque` is the NumPy form of the same law.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from floatwind.multibody.motion import Locked, Motion


class Drive:
    """Base class of joint drives: ``torque(theta, rate, command)`` -> tau (B,)."""

    #: stiffness (N m/rad), damping (N m s/rad), constant torque (N m)
    stiffness: float = 0.0
    damping: float = 0.0
    torque0: float = 0.0

    def table(self) -> tuple[np.ndarray, np.ndarray]:
        """(rates (n,), torques (n,)) of a torque-versus-rate table; empty without one."""
        return np.zeros(0), np.zeros(0)

    def torque(self, theta, rate, command) -> np.ndarray:
        """tau (B,) for the joint angle ``theta`` and rate ``rate`` (B,) and the commanded
        (angle, rate) ``command`` at the same time (two floats or (B,) arrays)."""
        th_c, thd_c = command
        tau = -self.stiffness * (theta - th_c) - self.damping * (rate - thd_c) + self.torque0
        x, y = self.table()
        if len(x):
            tau = tau + np.interp(rate, x, y)
        return tau

    def describe(self) -> str:
        return type(self).__name__


@dataclass(frozen=True)
class FreeDrive(Drive):
    """No torque: the joint turns freely."""

    #: (angle rad, rate rad/s) at t = 0; None: the joint's ``rotation`` motion at 0
    initial: tuple | None = None

    def describe(self) -> str:
        return "free"


@dataclass(frozen=True)
class SpringDamperDrive(Drive):
    """tau = -K (theta - theta_c) - C (theta' - theta_c'): a spring and a damper toward the
    command; the command is the joint's ``rotation`` motion (OpenFAST: YawSpr, YawDamp and the
    neutral yaw / yaw maneuver of ServoDyn)."""

    stiffness: float = 0.0
    damping: float = 0.0
    #: (angle rad, rate rad/s) at t = 0; None: the command at 0 (OpenFAST: NacYaw, rate 0)
    initial: tuple | None = None

    def __post_init__(self):
        for name in ("stiffness", "damping"):
            v = getattr(self, name)
            if not (np.isfinite(v) and v >= 0.0):
                raise ValueError(f"spring-damper drive: {name} must be >= 0, got {v!r}")
        if self.stiffness == 0.0 and self.damping == 0.0:
            raise ValueError("spring-damper drive: stiffness and damping are both zero (use free)")

    def describe(self) -> str:
        return f"spring-damper K = {self.stiffness:.4g} N m/rad, C = {self.damping:.4g} N m s/rad"


@dataclass(frozen=True)
class TorqueDrive(Drive):
    """tau = torque0 + table(theta'): a constant torque and/or a torque-versus-rate table
    (``rates`` strictly increasing, rad/s; ``torques`` N m, on the joint's own axis)."""

    torque0: float = 0.0
    rates: tuple = field(default_factory=tuple)
    torques: tuple = field(default_factory=tuple)
    #: (angle rad, rate rad/s) at t = 0; None: the joint's ``rotation`` motion at 0
    initial: tuple | None = None

    def __post_init__(self):
        x = np.asarray(self.rates, dtype=float).reshape(-1)
        y = np.asarray(self.torques, dtype=float).reshape(-1)
        if x.shape != y.shape:
            raise ValueError(
                f"torque drive: rates and torques need the same length, got {x.size} and {y.size}"
            )
        if x.size == 1 or (x.size and np.any(np.diff(x) <= 0)):
            raise ValueError("torque drive: rates must be strictly increasing (2 points or more)")
        if not (np.all(np.isfinite(x)) and np.all(np.isfinite(y)) and np.isfinite(self.torque0)):
            raise ValueError("torque drive: torques and rates must be finite")
        object.__setattr__(self, "rates", tuple(float(v) for v in x))
        object.__setattr__(self, "torques", tuple(float(v) for v in y))

    def table(self):
        return np.asarray(self.rates, dtype=float), np.asarray(self.torques, dtype=float)

    def describe(self) -> str:
        parts = [f"{self.torque0:.4g} N m"] if self.torque0 or not self.rates else []
        if self.rates:
            parts.append(f"table of {len(self.rates)} points vs rate")
        return "torque " + " + ".join(parts)


@dataclass(frozen=True)
class Gear:
    """theta = ratio * theta_k + offset of the free joint named ``leader`` (a geared follower)."""

    leader: str
    ratio: float
    offset: float = 0.0

    def __post_init__(self):
        if not (np.isfinite(self.ratio) and self.ratio != 0.0):
            raise ValueError(f"gear: ratio must be finite and non-zero, got {self.ratio!r}")


def initial_state(drive: Drive, rotation: Motion) -> tuple[float, float]:
    """The free joint's angle and rate at t = 0: the drive's ``initial`` when given, else its
    ``rotation`` motion at 0."""
    init = getattr(drive, "initial", None)
    if init is not None:
        return float(init[0]), float(init[1])
    th, thd, _ = (rotation or Locked()).evaluate(0.0)
    return float(th), float(thd)


@dataclass(frozen=True)
class DriveArrays:
    """The drives of a tree's free joints packed for the kernels (one row per DOF)."""

    stiffness: np.ndarray  # (nf,)
    damping: np.ndarray
    torque0: np.ndarray
    table_n: np.ndarray  # (nf,) int64 points of each table
    table_x: np.ndarray  # (nf, n_max) rates
    table_y: np.ndarray  # (nf, n_max) torques


def drive_arrays(drives: list[Drive]) -> DriveArrays:
    """Pack ``drives`` (one per DOF, in DOF order) for the compiled kernels."""
    nf = len(drives)
    tabs = [d.table() for d in drives]
    n_max = max([1] + [len(x) for x, _ in tabs])
    tx = np.zeros((nf, n_max))
    ty = np.zeros((nf, n_max))
    tn = np.zeros(nf, dtype=np.int64)
    for k, (x, y) in enumerate(tabs):
        tn[k] = len(x)
        tx[k, : len(x)] = x
        ty[k, : len(y)] = y
    return DriveArrays(
        np.array([float(d.stiffness) for d in drives], dtype=float).reshape(nf),
        np.array([float(d.damping) for d in drives], dtype=float).reshape(nf),
        np.array([float(d.torque0) for d in drives], dtype=float).reshape(nf),
        tn,
        tx,
        ty,
    )
