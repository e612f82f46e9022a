"""Euler parameters (unit quaternions) p = [e0, e1, e2, e3], Leble (seed 001) eq. (1)-(2).

A = (2 e0^2 - 1) I + 2 (e e^T + e0 ~e)   (body-to-global), with e0^2 + e.e = 1.
"""

from __future__ import annotations

import numpy as np

from floatwind.rotation.rotvec import skew


def matrix_from_quaternion(p) -> np.ndarray:
    """Rotation matrix A(p) of Leble eq. (2); ``p`` is normalised first. Shape (..., 4) -> (..., 3, 3)."""
    p = np.asarray(p, dtype=float)
    p = p / np.linalg.norm(p, axis=-1, keepdims=True)
    e0 = p[..., 0]
    e = p[..., 1:]
    eye = np.broadcast_to(np.eye(3), p.shape[:-1] + (3, 3))
    return (
        (2.0 * e0**2 - 1.0)[..., None, None] * eye
        + 2.0 * (e[..., :, None] * e[..., None, :])
        + 2.0 * e0[..., None, None] * skew(e)
    )


def quaternion_from_matrix(A) -> np.ndarray:
    """Euler parameters of ``A`` with e0 >= 0 (Shepperd's method, robust at every angle)."""
    A = np.asarray(A, dtype=float)
    tr = np.trace(A, axis1=-2, axis2=-1)
    # pick the largest of 4 e0^2 - 1, 4 e1^2 - 1, ... for a well-conditioned division
    k = np.argmax(
        np.stack([tr, 2 * A[..., 0, 0] - tr, 2 * A[..., 1, 1] - tr, 2 * A[..., 2, 2] - tr], -1), -1
    )
    # case e0 largest
    s0 = np.sqrt(np.maximum(1.0 + tr, 0.0)) * 2.0
    s0 = np.where(s0 == 0, 1.0, s0)
    q0 = np.stack(
        [
            0.25 * s0,
            (A[..., 2, 1] - A[..., 1, 2]) / s0,
            (A[..., 0, 2] - A[..., 2, 0]) / s0,
            (A[..., 1, 0] - A[..., 0, 1]) / s0,
        ],
        -1,
    )
    s1 = np.sqrt(np.maximum(1.0 + A[..., 0, 0] - A[..., 1, 1] - A[..., 2, 2], 0.0)) * 2.0
    s1 = np.where(s1 == 0, 1.0, s1)
    q1 = np.stack(
        [
            (A[..., 2, 1] - A[..., 1, 2]) / s1,
            0.25 * s1,
            (A[..., 0, 1] + A[..., 1, 0]) / s1,
            (A[..., 0, 2] + A[..., 2, 0]) / s1,
        ],
        -1,
    )
    s2 = np.sqrt(np.maximum(1.0 + A[..., 1, 1] - A[..., 0, 0] - A[..., 2, 2], 0.0)) * 2.0
    s2 = np.where(s2 == 0, 1.0, s2)
    q2 = np.stack(
        [
            (A[..., 0, 2] - A[..., 2, 0]) / s2,
            (A[..., 0, 1] + A[..., 1, 0]) / s2,
            0.25 * s2,
            (A[..., 1, 2] + A[..., 2, 1]) / s2,
        ],
        -1,
    )
    s3 = np.sqrt(np.maximum(1.0 + A[..., 2, 2] - A[..., 0, 0] - A[..., 1, 1], 0.0)) * 2.0
    s3 = np.where(s3 == 0, 1.0, s3)
    q3 = np.stack(
        [
            (A[..., 1, 0] - A[..., 0, 1]) / s3,
            (A[..., 0, 2] + A[..., 2, 0]) / s3,
            (A[..., 1, 2] + A[..., 2, 1]) / s3,
            0.25 * s3,
        ],
        -1,
    )
    out = np.select([k[..., None] == i for i in range(4)], [q0, q1, q2, q3])
    out = out * np.where(out[..., :1] < 0, -1.0, 1.0)
    return out / np.linalg.norm(out, axis=-1, keepdims=True)
