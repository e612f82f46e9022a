"""Prescribed relative motions of joints: angle (or offset), rate and acceleration versus time.

A motion answers ``evaluate(t) -> (q, qd, qdd)`` with float values (the same for every batch
member). Variants a case can ask for: locked (constant), constant rate, ramp (start time, rate,
final value, as OpenFAST's ServoDyn override maneuvers and the dissertation's yaw "until aligned")
and table (time series of the value, and optionally of its rate and acceleration).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


class Motion:
    """Base class of prescribed motions."""

    def evaluate(self, t: float) -> tuple[float, float, float]:
        raise NotImplementedError

    def evaluate_many(self, times: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(q, qd, qdd) at every time of ``times`` (T,), as three (T,) arrays."""
        vals = np.array([self.evaluate(float(t)) for t in np.atleast_1d(times)], dtype=float)
        return vals[:, 0], vals[:, 1], vals[:, 2]

    def describe(self, unit: str = "") -> str:
        """One line for summaries; ``unit`` of the joint coordinate ("rad" or "m")."""
        return type(self).__name__

    @property
    def is_constant(self) -> bool:
        """The motion never moves (value constant, rate and acceleration zero at every time): a
        tree whose joints all have such motions has the same relative kinematics at every time
        (computed once, ``System.static``)."""
        return False


@dataclass(frozen=True)
class Locked(Motion):
    """Constant value (a locked joint)."""

    value: float = 0.0

    @property
    def is_constant(self) -> bool:
        return True

    def evaluate(self, t):
        return self.value, 0.0, 0.0

    def evaluate_many(self, times):
        z = np.zeros(np.shape(np.atleast_1d(times)))
        return z + self.value, z, z.copy()

    def describe(self, unit: str = ""):
        return f"locked at {self.value + 0.0:g}{_u(unit)}"


@dataclass(frozen=True)
class ConstantRate(Motion):
    """q = q0 + rate * t."""

    q0: float = 0.0
    rate: float = 0.0

    def evaluate(self, t):
        return self.q0 + self.rate * t, self.rate, 0.0

    def evaluate_many(self, times):
        t = np.atleast_1d(np.asarray(times, dtype=float))
        return self.q0 + self.rate * t, np.full_like(t, self.rate), np.zeros_like(t)

    def describe(self, unit: str = ""):
        rpm = f" ({self.rate * 30.0 / math.pi:.4g} rpm)" if unit == "rad" else ""
        return f"constant rate {self.rate:g}{_u(unit)}/s{rpm} from {self.q0 + 0.0:g}{_u(unit)}"

    @property
    def is_constant(self) -> bool:
        return self.rate == 0.0


@dataclass(frozen=True)
class Ramp(Motion):
    """Hold ``q0`` until ``t_start``, then move at ``rate`` (sign taken towards ``q_final``) until
    ``q_final`` is reached, then hold. ``q_final = None`` keeps moving. The acceleration is zero
    (the corners are velocity jumps, as in ServoDyn's override maneuvers). ``hold_at_start``: at
    t = t_start itself the motion still holds (rate 0), as ServoDyn's maneuver flag, which is set
    only after the start time (reference README of ref03, "Nacelle-yaw drive")."""

    q0: float = 0.0
    rate: float = 0.0
    t_start: float = 0.0
    q_final: float | None = None
    hold_at_start: bool = False

    def evaluate(self, t):
        if t < self.t_start or (self.hold_at_start and t == self.t_start):
            return self.q0, 0.0, 0.0
        if self.q_final is None:
            return self.q0 + self.rate * (t - self.t_start), self.rate, 0.0
        span = self.q_final - self.q0
        speed = abs(self.rate)
        if speed == 0.0 or span == 0.0:
            return self.q0, 0.0, 0.0
        t_end = self.t_start + abs(span) / speed
        if t >= t_end:
            return self.q_final, 0.0, 0.0
        r = np.copysign(speed, span)
        return self.q0 + r * (t - self.t_start), r, 0.0

    def evaluate_many(self, times):
        """:meth:`evaluate` at every time of ``times`` (T,), the same floating-point operations
        on whole arrays (a run with joint DOFs evaluates its drives' commands on every chunk's
        half-step grid: one Python call per time was ~5 % of ref03's run)."""
        t = np.atleast_1d(np.asarray(times, dtype=float))
        q = np.full(t.shape, float(self.q0))
        qd = np.zeros(t.shape)
        moving = ~((t < self.t_start) | (self.hold_at_start & (t == self.t_start)))
        if self.q_final is None:
            q[moving] = self.q0 + self.rate * (t[moving] - self.t_start)
            qd[moving] = self.rate
            return q, qd, np.zeros(t.shape)
        span = self.q_final - self.q0
        speed = abs(self.rate)
        if speed == 0.0 or span == 0.0:
            return q, qd, np.zeros(t.shape)
        t_end = self.t_start + abs(span) / speed
        done = moving & (t >= t_end)
        moving &= ~done
        q[done] = self.q_final
        r = np.copysign(speed, span)
        q[moving] = self.q0 + r * (t[moving] - self.t_start)
        qd[moving] = r
        return q, qd, np.zeros(t.shape)

    def describe(self, unit: str = ""):
        end = "no end" if self.q_final is None else f"{self.q_final:g}{_u(unit)}"
        return f"ramp at {self.rate:g}{_u(unit)}/s from t = {self.t_start:g} s to {end}"

    @property
    def is_constant(self) -> bool:
        return self.rate == 0.0 or (self.q_final is not None and self.q_final == self.q0)


class Table(Motion):
    """Tabulated motion. With only values, a cubic spline gives rate and acceleration; with rates
    (and accelerations) given, each column is interpolated linearly, so a run can be driven by
    exactly what another code wrote (e.g. OpenFAST's NacYaw, NacYawV, NacYawA)."""

    def __init__(self, time, value, rate=None, acc=None):
        from scipy.interpolate import CubicSpline

        self.time = np.asarray(time, dtype=float)
        self.value = np.asarray(value, dtype=float)
        if self.time.ndim != 1 or self.time.shape != self.value.shape or len(self.time) < 2:
            raise ValueError("motion table needs 1-D time and value columns of equal length >= 2")
        if np.any(np.diff(self.time) <= 0):
            raise ValueError("motion table time column must be strictly increasing")
        self.rate = None if rate is None else np.asarray(rate, dtype=float)
        self.acc = None if acc is None else np.asarray(acc, dtype=float)
        self._spline = CubicSpline(self.time, self.value) if self.rate is None else None

    def evaluate(self, t):
        if self._spline is not None:
            tc = np.clip(t, self.time[0], self.time[-1])
            return float(self._spline(tc)), float(self._spline(tc, 1)), float(self._spline(tc, 2))
        q = float(np.interp(t, self.time, self.value))
        qd = float(np.interp(t, self.time, self.rate))
        qdd = 0.0 if self.acc is None else float(np.interp(t, self.time, self.acc))
        return q, qd, qdd

    def describe(self, unit: str = ""):
        return f"table of {len(self.time)} points over [{self.time[0]:g}, {self.time[-1]:g}] s"

    @property
    def is_constant(self) -> bool:
        """All values equal and every given rate and acceleration zero (a recorded yaw that
        stays put); the spline of equal values has exactly zero derivatives."""
        zero = (self.rate is None or not np.any(self.rate)) and (
            self.acc is None or not np.any(self.acc)
        )
        return bool(zero and np.all(self.value == self.value[0]))


def _u(unit: str) -> str:
    return f" {unit}" if unit else ""
