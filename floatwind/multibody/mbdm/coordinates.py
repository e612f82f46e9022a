"""Body coordinates of the constrained (MBDM) formulation, Leble (seed 001) sec. 2 and 3.

Each body carries q_i = [r_i, p_i] (eq. 29): the origin r (3) of its local frame and the Euler
parameters p = [e0, e1, e2, e3] (eq. 1) of its orientation; the system vector is q = [q_1, ...,
q_nb] (eq. 30), stored here as an array of shape ``(..., nb, 7)``. Everything is batched over
leading axes. A(p) is :func:`floatwind.rotation.matrix_from_quaternion` (eq. 2), reused, not
re-derived.

Naming: the note's G (eq. 36) is the body-frame matrix (omega' = 2 G pdot), which Nikravesh calls
L; the note's E (eq. 37) is the global one (omega = 2 E pdot), Nikravesh's G.
"""

from __future__ import annotations

import numpy as np

from floatwind.rotation import euler123_matrix, matrix_from_quaternion, quaternion_from_matrix

__all__ = [
    "A_matrix",
    "E_matrix",
    "G_matrix",
    "normalisation",
    "omega_body",
    "omega_global",
    "pddot_from_omega",
    "pdot_from_omega",
    "quaternion_from_angles123",
    "split",
]


def split(q) -> tuple[np.ndarray, np.ndarray]:
    """(r, p) of q with shape (..., 7) -> (..., 3), (..., 4) (eq. 29)."""
    q = np.asarray(q, dtype=float)
    return q[..., :3], q[..., 3:7]


def A_matrix(p) -> np.ndarray:
    """Body-to-global rotation A(p), eq. (2) (``p`` normalised first). (..., 4) -> (..., 3, 3)."""
    return matrix_from_quaternion(p)


def G_matrix(p) -> np.ndarray:
    """G(p) of eq. (36), shape (..., 3, 4): omega' = 2 G pdot, G G^T = I, G p = 0."""
    p = np.asarray(p, dtype=float)
    e0, e1, e2, e3 = p[..., 0], p[..., 1], p[..., 2], p[..., 3]
    return np.stack(
        [
            np.stack([-e1, e0, e3, -e2], -1),
            np.stack([-e2, -e3, e0, e1], -1),
            np.stack([-e3, e2, -e1, e0], -1),
        ],
        -2,
    )


def E_matrix(p) -> np.ndarray:
    """E(p) of eq. (37), shape (..., 3, 4): A = E G^T (eq. 38), omega = 2 E pdot."""
    p = np.asarray(p, dtype=float)
    e0, e1, e2, e3 = p[..., 0], p[..., 1], p[..., 2], p[..., 3]
    return np.stack(
        [
            np.stack([-e1, e0, -e3, e2], -1),
            np.stack([-e2, e3, e0, -e1], -1),
            np.stack([-e3, -e2, e1, e0], -1),
        ],
        -2,
    )


def omega_body(p, pdot) -> np.ndarray:
    """Body-frame angular velocity omega' = 2 G pdot (inverse of eq. 40)."""
    return 2.0 * np.einsum("...ij,...j->...i", G_matrix(p), np.asarray(pdot, dtype=float))


def omega_global(p, pdot) -> np.ndarray:
    """Global angular velocity omega = A omega' = 2 E pdot."""
    return 2.0 * np.einsum("...ij,...j->...i", E_matrix(p), np.asarray(pdot, dtype=float))


def pdot_from_omega(p, omega_b) -> np.ndarray:
    """pdot = 1/2 G^T omega' (eq. 40, first relation)."""
    return 0.5 * np.einsum("...ji,...j->...i", G_matrix(p), np.asarray(omega_b, dtype=float))


def pddot_from_omega(p, omega_b, omegadot_b) -> np.ndarray:
    """pddot = 1/2 G^T omegadot' - 1/4 (omega'^T omega') p (eq. 40, second relation)."""
    p = np.asarray(p, dtype=float)
    w = np.asarray(omega_b, dtype=float)
    return pdot_from_omega(p, omegadot_b) - 0.25 * np.sum(w * w, -1)[..., None] * p


def normalisation(p) -> np.ndarray:
    """Euler parameter normalisation constraint Phi^p = p^T p - 1 (eq. 28). (..., 4) -> (...)."""
    p = np.asarray(p, dtype=float)
    return np.sum(p * p, -1) - 1.0


def quaternion_from_angles123(angles) -> np.ndarray:
    """Euler parameters of 1-2-3 angles (the mbdm files' ``angles (1-2-3 notation)``, sec. 7.2)."""
    return quaternion_from_matrix(euler123_matrix(angles))
