"""Small batched vector helpers that avoid numpy's general (and slow for 3-vectors) routines.

Both are element-wise loops in C with a fixed summation order, so results do not depend on the
batch size (no BLAS kernels over the batch axis): a batch member gives the same bits alone.
"""

from __future__ import annotations

import numpy as np


def cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cross product of 3-vectors along the last axis, with broadcasting (faster than np.cross)."""
    a = np.asarray(a)
    b = np.asarray(b)
    shape = np.broadcast_shapes(a.shape, b.shape)
    out = np.empty(shape, dtype=np.result_type(a, b, float))
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    np.multiply(a1, b2, out=out[..., 0])
    out[..., 0] -= a2 * b1
    np.multiply(a2, b0, out=out[..., 1])
    out[..., 1] -= a0 * b2
    np.multiply(a0, b1, out=out[..., 2])
    out[..., 2] -= a1 * b0
    return out


def matvec(M: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``M @ v`` for stacks of square matrices and vectors, with broadcasting."""
    return np.einsum("...ij,...j->...i", M, v)
