"""The records of the Load contract, shared by every layer (issue 23): the batched body
kinematics a load reads (:class:`Kinematics`) and the wrench it returns (:class:`Wrench`).

They sit below the physics packages (docs/architecture.md, "Layers"): the multibody core builds
and reads them without importing the loads; :mod:`floatwind.loads.base` re-exports them with the
``Load`` contract itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from floatwind.rotation.vec import cross, matvec

__all__ = ["Kinematics", "Wrench"]


@dataclass(frozen=True)
class Kinematics:
    """Batched rigid-body kinematics of all N bodies at one time (inertial frame g).

    Attributes
    ----------
    t : float
        Time (s).
    r_G_g : (B, N, 3) CM positions (m).
    R_b2g : (B, N, 3, 3) body-to-inertial rotation matrices.
    v_G_g : (B, N, 3) CM velocities (m/s).
    w_b_g : (B, N, 3) body angular velocities, inertial axes (rad/s).
    cm_b : (N, 3) CM of each body in that body's reference frame (m): a point given in the body
        reference frame as ``p_b`` sits at ``r_G_g + R_b2g (p_b - cm_b)``.
    a_G_g, dw_b_g : optional (B, N, 3) accelerations, filled only where known (outputs).
    """

    t: float
    r_G_g: np.ndarray
    R_b2g: np.ndarray
    v_G_g: np.ndarray
    w_b_g: np.ndarray
    cm_b: np.ndarray
    a_G_g: np.ndarray | None = None
    dw_b_g: np.ndarray | None = None

    @property
    def batch(self) -> int:
        return self.r_G_g.shape[0]

    @property
    def n_bodies(self) -> int:
        return self.r_G_g.shape[1]

    def points(self, body: int, p_b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Positions and velocities (B, P, 3) of points ``p_b`` (P, 3) fixed in ``body``'s frame."""
        rel_b = np.asarray(p_b, dtype=float) - self.cm_b[body]
        rel_g = matvec(self.R_b2g[:, body, None], rel_b)  # no BLAS on the batch axis
        pos = self.r_G_g[:, body, None, :] + rel_g
        vel = self.v_G_g[:, body, None, :] + cross(self.w_b_g[:, body, None, :], rel_g)
        return pos, vel


@dataclass
class Wrench:
    """Loads on all bodies: force and moment about each body CM, inertial axes.

    ``added_mass`` (optional, (B, N, 6, 6)) is the acceleration-dependent part (contract rule 3);
    ``channels`` holds output channels with leading axis B.
    """

    force: np.ndarray
    moment: np.ndarray
    added_mass: np.ndarray | None = None
    channels: dict[str, np.ndarray] = field(default_factory=dict)

    @classmethod
    def zeros(cls, batch: int, n_bodies: int) -> Wrench:
        return cls(np.zeros((batch, n_bodies, 3)), np.zeros((batch, n_bodies, 3)))

    def add_point_force(self, kin: Kinematics, body: int, r_P_g: np.ndarray, f_g: np.ndarray):
        """Add forces ``f_g`` (B, P, 3) acting at points ``r_P_g`` (B, P, 3) on ``body``."""
        f_g = np.asarray(f_g, dtype=float)
        arm = np.asarray(r_P_g, dtype=float) - kin.r_G_g[:, body, None, :]
        self.force[:, body] += f_g.sum(axis=1)
        self.moment[:, body] += cross(arm, f_g).sum(axis=1)

    def __iadd__(self, other: Wrench) -> Wrench:
        """Accumulate ``other`` in place (``self`` owns its arrays, e.g. from :meth:`zeros`)."""
        np.add(self.force, other.force, out=self.force)
        np.add(self.moment, other.moment, out=self.moment)
        if other.added_mass is not None:
            self.added_mass = (
                other.added_mass if self.added_mass is None else self.added_mass + other.added_mass
            )
        if other.channels:
            self.channels.update(other.channels)
        return self
