"""Linear (Airy) wave dispersion and depth factors, shared by the seas (``waves``) and their
gridded kinematics (``fastkin``), which both import them from here (one way: ``waves`` uses
``fastkin``, neither is imported back)."""

from __future__ import annotations

import math

import numpy as np

from floatwind.environment.base import DEFAULT_GRAVITY

__all__ = ["wavenumber"]


def wavenumber(omega: np.ndarray, depth: float, gravity: float = DEFAULT_GRAVITY) -> np.ndarray:
    """Solve the linear dispersion relation ``omega^2 = g k tanh(k h)`` for k (rad/m).

    Parameters
    ----------
    omega : array (rad/s), any shape, >= 0
    depth : float, water depth h (m); ``inf`` for deep water
    gravity : float (m/s^2)
    """
    w = np.asarray(omega, dtype=float)
    k = w**2 / gravity
    if not np.isfinite(depth):
        return k
    if depth <= 0:
        raise ValueError(f"water depth {depth} m must be positive")
    # explicit start (Guo 2002: kh = x^2 (1 - exp(-x^b))^(-1/b), x = w sqrt(h/g)), then Newton
    x = w * math.sqrt(depth / gravity)
    with np.errstate(divide="ignore", invalid="ignore"):
        kh = np.where(x > 0, x**2 * (-np.expm1(-(x**2.4908))) ** (-1 / 2.4908), 0.0)
    k = kh / depth
    for _ in range(30):
        th = np.tanh(k * depth)
        f = gravity * k * th - w**2
        df = gravity * th + gravity * k * depth * (1.0 - th**2)
        with np.errstate(divide="ignore", invalid="ignore"):
            step = np.where(df > 0, f / df, 0.0)
        k = k - step
        if np.all(np.abs(step) <= 1e-14 * np.maximum(k, 1e-12)):
            break
    return k


def _depth_factors(k: np.ndarray, z: np.ndarray, depth: float) -> tuple[np.ndarray, np.ndarray]:
    """C = cosh k(z+h)/sinh kh and S = sinh k(z+h)/sinh kh in overflow-free form (z <= 0)."""
    ekz = np.exp(k * z)
    if not np.isfinite(depth):
        return ekz, ekz
    zc = np.maximum(z, -depth)
    ekz = np.exp(k * zc)
    back = np.exp(-k * (zc + 2.0 * depth))
    den = -np.expm1(-2.0 * k * depth)
    return (ekz + back) / den, (ekz - back) / den
