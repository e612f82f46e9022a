"""Rotation vector psi = u phi: exponential and logarithmic maps and the tangent operator.

Giusti, *Spatial formulation for the dynamics of floating rigid bodies* (seed 000), sec. 2,
footnote 9: R = exp(~psi), log map, and tangent operator T(psi) with its series expansion for
small phi. The increments are related by theta_S = T(psi)^T dpsi (spatial, right translation,
footnote 12) and theta_M = T(psi) dpsi (material).

All functions are batched over leading axes.
"""

from __future__ import annotations

import numpy as np

_SMALL = 1e-4  # below this angle the closed forms lose digits: use the series


def skew(v) -> np.ndarray:
    """Skew-symmetric matrix ~v with ~v w = v x w, shape ``v.shape[:-1] + (3, 3)``."""
    v = np.asarray(v, dtype=float)
    S = np.zeros(v.shape[:-1] + (3, 3))
    S[..., 0, 1] = -v[..., 2]
    S[..., 0, 2] = v[..., 1]
    S[..., 1, 0] = v[..., 2]
    S[..., 1, 2] = -v[..., 0]
    S[..., 2, 0] = -v[..., 1]
    S[..., 2, 1] = v[..., 0]
    return S


def unskew(S) -> np.ndarray:
    """Axial vector of the skew part of ``S``."""
    S = np.asarray(S, dtype=float)
    return 0.5 * np.stack(
        [S[..., 2, 1] - S[..., 1, 2], S[..., 0, 2] - S[..., 2, 0], S[..., 1, 0] - S[..., 0, 1]],
        axis=-1,
    )


def _coefficients(phi: np.ndarray):
    """sin(phi)/phi, (1-cos phi)/phi^2, (phi - sin phi)/phi^3 with series near 0."""
    small = phi < _SMALL
    p = np.where(small, 1.0, phi)
    p2 = p * p
    a = np.where(small, 1.0 - phi**2 / 6.0 + phi**4 / 120.0, np.sin(p) / p)
    b = np.where(small, 0.5 - phi**2 / 24.0 + phi**4 / 720.0, (1.0 - np.cos(p)) / p2)
    c = np.where(small, 1.0 / 6.0 - phi**2 / 120.0 + phi**4 / 5040.0, (p - np.sin(p)) / (p2 * p))
    return a, b, c


def exp_so3(psi) -> np.ndarray:
    """Rotation matrix R = exp(~psi) (Rodrigues; Giusti footnote 9)."""
    psi = np.asarray(psi, dtype=float)
    phi = np.linalg.norm(psi, axis=-1)
    a, b, _ = _coefficients(phi)
    S = skew(psi)
    eye = np.broadcast_to(np.eye(3), S.shape)
    return eye + a[..., None, None] * S + b[..., None, None] * (S @ S)


def axis_angle_matrix(axis, angle) -> np.ndarray:
    """Rotation by ``angle`` (rad, shape (...)) about the unit ``axis`` (shape (..., 3))."""
    axis = np.asarray(axis, dtype=float)
    angle = np.asarray(angle, dtype=float)
    return exp_so3(axis * angle[..., None])


def log_so3(R) -> np.ndarray:
    """Rotation vector of ``R`` with magnitude in [0, pi] (Giusti footnote 9).

    Uses the skew part away from pi and the symmetric part ``(R + R^T)/2 = I + (1-cos)uu^T``
    near pi, where the skew part vanishes.
    """
    R = np.asarray(R, dtype=float)
    tr = np.trace(R, axis1=-2, axis2=-1)
    cos_t = np.clip(0.5 * (tr - 1.0), -1.0, 1.0)
    w = unskew(R)  # = sin(theta) u
    sin_t = np.linalg.norm(w, axis=-1)
    theta = np.arctan2(sin_t, cos_t)  # accurate at both ends, unlike arccos
    small = theta < _SMALL
    near_pi = theta > np.pi - 1e-3
    # regular branch: psi = theta / sin(theta) * w  (series theta/sin = 1 + theta^2/6 near 0)
    scale = np.where(small, 1.0 + theta**2 / 6.0, theta / np.where(small, 1.0, sin_t))
    psi = scale[..., None] * w
    if np.any(near_pi):
        # u u^T = (R_sym - cos I) / (1 - cos); take the largest diagonal for the column
        Rs = 0.5 * (R + np.swapaxes(R, -1, -2))
        one_m_cos = np.maximum(1.0 - cos_t, 1e-300)
        M = (Rs - cos_t[..., None, None] * np.eye(3)) / one_m_cos[..., None, None]
        diag = np.diagonal(M, axis1=-2, axis2=-1)
        k = np.argmax(diag, axis=-1)
        col = np.take_along_axis(M, k[..., None, None].repeat(3, axis=-1), axis=-2)[..., 0, :]
        u = col / np.sqrt(np.maximum(np.take_along_axis(diag, k[..., None], axis=-1), 1e-300))
        # sign from the (small) skew part so that theta slightly below pi keeps its direction
        sgn = np.where(np.sum(u * w, axis=-1) < 0.0, -1.0, 1.0)
        psi_pi = (sgn * theta)[..., None] * u
        psi = np.where(near_pi[..., None], psi_pi, psi)
    return psi


def tangent(psi) -> np.ndarray:
    """Tangent operator T(psi) of Giusti (footnote 9), with the small-angle series.

    T = I + (cos phi - 1)/phi^2 ~psi + (1 - sin phi/phi) ~psi^2 / phi^2, so that
    theta_M = T dpsi and theta_S = T^T dpsi.
    """
    psi = np.asarray(psi, dtype=float)
    phi = np.linalg.norm(psi, axis=-1)
    _, b, c = _coefficients(phi)
    S = skew(psi)
    eye = np.broadcast_to(np.eye(3), S.shape)
    return eye - b[..., None, None] * S + c[..., None, None] * (S @ S)


def tangent_inv(psi) -> np.ndarray:
    """Inverse of :func:`tangent`: I + ~psi/2 + (1 - (phi/2) cot(phi/2)) ~psi^2 / phi^2."""
    psi = np.asarray(psi, dtype=float)
    phi = np.linalg.norm(psi, axis=-1)
    small = phi < _SMALL
    p = np.where(small, 1.0, phi)
    half = 0.5 * p
    d = np.where(small, 1.0 / 12.0 + phi**2 / 720.0, (1.0 - half / np.tan(half)) / (p * p))
    S = skew(psi)
    eye = np.broadcast_to(np.eye(3), S.shape)
    return eye + 0.5 * S + d[..., None, None] * (S @ S)


def unwrap_rotvec(psi_history) -> np.ndarray:
    """Continuous rotation-vector history from log-map samples (Giusti sec. 7.4.1).

    The log map returns |psi| <= pi; when the true rotation passes pi the returned vector flips to
    the antipodal representation. Along the time axis (axis 0, shape (T, ..., 3)) each sample is
    replaced by the equivalent vector psi + 2 k pi u (same rotation) closest to the previous one.
    """
    psi = np.array(psi_history, dtype=float)
    out = psi.copy()
    for n in range(1, psi.shape[0]):
        cur = psi[n]
        phi = np.linalg.norm(cur, axis=-1, keepdims=True)
        u = np.where(phi > 0, cur / np.where(phi > 0, phi, 1.0), 0.0)
        prev = out[n - 1]
        best = cur
        best_d = np.linalg.norm(cur - prev, axis=-1)
        for k in (-2, -1, 1, 2):
            cand = cur + 2.0 * np.pi * k * u
            dist = np.linalg.norm(cand - prev, axis=-1)
            better = dist < best_d
            best = np.where(better[..., None], cand, best)
            best_d = np.where(better, dist, best_d)
        out[n] = best
    return out
