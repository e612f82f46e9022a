"""Translational spring-damper lines of the MBDM formulation, Leble (seed 001) sec. 6.

One end (the anchor, r_i) is fixed in the global frame, the other (the fairlead, s'^P in the
body frame) moves with body j:

    d = r_j + A_j s'^P - r_i  (eq. 80),   l^2 = d^T d  (eq. 81),
    ldot = (d / l)^T (rdot_j - A_j ~s'^P omega'_j)  (eq. 83),
    f = k (l - l0) + b ldot  (eq. 84),
    F^A = -f/l d,   n'^A = -f/l ~s'^P A_j^T d  (eq. 88a, 88b).

As in the note the line pushes as well as pulls (f < 0 for l < l0 is kept).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from floatwind.errors import CaseError
from floatwind.multibody.mbdm.coordinates import A_matrix, omega_body

__all__ = ["SpringDamper", "line_loads"]


@dataclass(frozen=True)
class SpringDamper:
    """A line from a fixed ``anchor`` (global) to a ``fairlead`` on ``body`` (its frame, about
    the centre of mass), unstretched length ``l0`` (m), stiffness ``k`` (N/m), damping ``b``
    (N s/m): the mbdm.expert.mooring fields of Table 23."""

    body: int
    anchor: tuple
    fairlead: tuple
    l0: float
    k: float
    b: float = 0.0
    name: str = ""

    def __post_init__(self):
        name = self.name or f"line to body {self.body}"
        if self.l0 < 0 or self.k < 0 or self.b < 0:
            raise CaseError("length, stiffness and damping must be >= 0", field=name)


def line_loads(lines, q, qdot) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Forces F^A (nb, 3, global) and moments n'^A (nb, 3, body frames) of the lines (eq. 88),
    and the line tensions f (n_lines,) of eq. (84). q, qdot: (nb, 7)."""
    q = np.asarray(q, dtype=float)
    qdot = np.asarray(qdot, dtype=float)
    F = np.zeros((q.shape[0], 3))
    n = np.zeros((q.shape[0], 3))
    tension = np.zeros(len(lines))
    for k, ln in enumerate(lines):
        b = ln.body
        A = A_matrix(q[b, 3:])
        s = np.asarray(ln.fairlead, dtype=float)
        d = q[b, :3] + A @ s - np.asarray(ln.anchor, dtype=float)  # eq. (80)
        length = float(np.sqrt(d @ d))  # eq. (81)
        if not length > 0:
            raise CaseError("line length is zero: its direction is undefined (eq. 83)",
                            field=ln.name or f"line to body {b}")  # fmt: skip
        w = omega_body(q[b, 3:], qdot[b, 3:])
        ldot = d @ (qdot[b, :3] + A @ np.cross(w, s)) / length  # eq. (83): -A ~s' w = A (w x s')
        f = ln.k * (length - ln.l0) + ln.b * ldot  # eq. (84)
        F[b] += -f / length * d  # eq. (88a)
        n[b] += -f / length * np.cross(s, A.T @ d)  # eq. (88b)
        tension[k] = f
    return F, n, tension
