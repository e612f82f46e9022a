"""Applied-force elements of the MBDM formulation that have a compiled form, and the bridge to
floatwind's Load contract, Leble (seed 001) sec. 4, 6 and 10.3.

* :class:`BodyLoad`: a constant force at a body's centre of mass and a constant moment, both in
  global axes (the constant crank torque of sec. 10.3); enters F^A and n'^A = A^T n of eq. (67)
  and, through 2 G^T n'^A, eq. (69).
* :class:`GasForce94`: the gas force of eq. (94) on a body's coordinate ``axis``, applied as
  Listing 5 does (``FA[...] += F``: resisting while the body moves along +axis, nothing on the
  intake stroke). Its ``switches`` (the velocity and x - 5 m) tell the integrator where the
  force jumps or kinks, so RK4 keeps its fourth order.
* :func:`load_kinematics` / :func:`contract_loads`: floatwind ``Load`` objects
  (``wrench(t, kin, env)``, :mod:`floatwind.records`) evaluated on MBDM body states: the
  Kinematics record is built from r (the centre of mass), A(p) (eq. 2), rdot and the global
  angular velocity omega = 2 E pdot (eq. 40); the Wrench (global force at the CM, global moment
  about it) gives F^A and n'^A = A^T n (eqs. 67, 69). NumPy path only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from floatwind.errors import CaseError
from floatwind.multibody.mbdm.coordinates import A_matrix, omega_global
from floatwind.records import Kinematics

__all__ = ["BodyLoad", "GasForce94", "contract_loads", "gas_force_94", "load_kinematics"]


@dataclass(frozen=True)
class BodyLoad:
    """Constant global ``force`` (N) at the centre of mass of ``body`` and global ``moment`` (N m)."""

    body: int
    force: tuple = (0.0, 0.0, 0.0)
    moment: tuple = (0.0, 0.0, 0.0)
    name: str = ""

    def __post_init__(self):
        for what in ("force", "moment"):
            v = np.asarray(getattr(self, what), dtype=float)
            if v.shape != (3,) or not np.all(np.isfinite(v)):
                raise CaseError(f"{what} must be 3 finite numbers", field=self.name or what)
            object.__setattr__(self, what, tuple(float(x) for x in v))

    def evaluate(self, t, q, qdot) -> tuple[np.ndarray, np.ndarray]:
        """Global forces and global moments (nb, 3)."""
        F = np.zeros((q.shape[0], 3))
        n = np.zeros((q.shape[0], 3))
        F[self.body] = self.force
        n[self.body] = self.moment
        return F, n

    def switches(self, t, q, qdot) -> list:
        return []


def gas_force_94(x: float, v: float) -> float:
    """Eq. (94) with Listing 5's sign: -282857/(6 - x) + 62857 for 1.5 <= x <= 5,
    -110000 [1 - sin(2 pi (x - 5.25))] for 5 < x <= 5.5, while v > 0; else 0."""
    if v <= 0.0:
        return 0.0
    if 1.5 <= x <= 5.0:
        return -282857.0 / (6.0 - x) + 62857.0
    if 5.0 < x <= 5.5:
        return -110000.0 * (1.0 - np.sin(2.0 * np.pi * (x - 5.25)))
    return 0.0


@dataclass(frozen=True)
class GasForce94:
    """The gas force (94) on ``body`` along global ``axis`` (0, 1, 2), as Listing 5 applies it."""

    body: int
    axis: int = 0
    name: str = ""

    def __post_init__(self):
        if self.axis not in (0, 1, 2):
            raise CaseError("axis must be 0, 1 or 2", field=self.name or "axis")

    def evaluate(self, t, q, qdot) -> tuple[np.ndarray, np.ndarray]:
        F = np.zeros((q.shape[0], 3))
        F[self.body, self.axis] = gas_force_94(q[self.body, self.axis], qdot[self.body, self.axis])
        return F, np.zeros((q.shape[0], 3))

    def switches(self, t, q, qdot) -> list:
        """Where (94) is not smooth: the velocity (on/off) and x = 5 m (slope jump)."""
        return [qdot[self.body, self.axis], q[self.body, self.axis] - 5.0]


def load_kinematics(t: float, q, qdot, cm_b=None) -> Kinematics:
    """The Load contract's Kinematics (B = 1) of MBDM body states q, qdot (nb, 7): CM positions r,
    A(p) (eq. 2), CM velocities rdot and global angular velocities 2 E pdot (eq. 40). ``cm_b``
    (nb, 3): where the CM sits in the frame in which the loads give their points (default 0)."""
    q = np.asarray(q, dtype=float)
    qdot = np.asarray(qdot, dtype=float)
    nb = q.shape[0]
    cm = np.zeros((nb, 3)) if cm_b is None else np.asarray(cm_b, dtype=float).reshape(nb, 3)
    return Kinematics(t=t, r_G_g=q[None, :, :3].copy(), R_b2g=A_matrix(q[:, 3:])[None],
                      v_G_g=qdot[None, :, :3].copy(),
                      w_b_g=omega_global(q[:, 3:], qdot[:, 3:])[None], cm_b=cm)  # fmt: skip


def contract_loads(loads, env, t: float, q, qdot, cm_b=None) -> tuple[np.ndarray, np.ndarray]:
    """Sum of ``load.wrench(t, kin, env)`` over floatwind Load objects: global forces at the CMs
    and global moments about them, (nb, 3) each."""
    kin = load_kinematics(t, q, qdot, cm_b)
    F = np.zeros((kin.n_bodies, 3))
    n = np.zeros((kin.n_bodies, 3))
    for ld in loads:
        w = ld.wrench(t, kin, env)
        if getattr(w, "added_mass", None) is not None:
            raise CaseError(f"load '{getattr(ld, 'name', ld)}' returns an added-mass matrix, which "
                            "the MBDM equations (67)/(69) do not take yet", field="loads")  # fmt: skip
        F += np.asarray(w.force, dtype=float)[0]
        n += np.asarray(w.moment, dtype=float)[0]
    return F, n
