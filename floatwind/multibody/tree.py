"""Model description of a tree of rigid bodies joined by joints with prescribed motion.

Frozen data only (Pinocchio's *Model*): bodies with mass, CM and inertia; joints with fixed
locations in the parent and child frames, a fixed orientation offset, and prescribed relative
rotation about a child-fixed axis and optional prescribed slide along it (the cylindrical-joint
extension of Wang sec. V.C.4). Body 0 is the base body with 6 unknown DOF.

Frames: every body has a *reference frame* in which its geometry is given (for the platform: the
frame whose origin is the SWL reference point when undisplaced); its CM sits at ``cm_b`` in it.
Names: ``r_J_p`` = joint point in the parent's reference frame, ``r_J_c`` = the same point in the
child's reference frame, ``R0_c2p`` = child-to-parent orientation at zero joint angle.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from floatwind.multibody.drives import Drive, Gear
from floatwind.multibody.motion import Locked, Motion


@dataclass(frozen=True)
class Body:
    """A rigid body: ``mass`` (kg), ``cm_b`` (m, in its reference frame), ``inertia_b`` (kg m^2,
    about the CM in body axes, symmetric positive definite)."""

    name: str
    mass: float
    cm_b: np.ndarray
    inertia_b: np.ndarray

    def __post_init__(self):
        object.__setattr__(self, "cm_b", np.asarray(self.cm_b, dtype=float).reshape(3))
        object.__setattr__(self, "inertia_b", np.asarray(self.inertia_b, dtype=float).reshape(3, 3))
        if not self.mass > 0:
            raise ValueError(f"body '{self.name}': mass must be positive, got {self.mass!r}")
        I = self.inertia_b
        if not np.allclose(I, I.T, rtol=1e-10, atol=1e-9 * max(1.0, np.abs(I).max())):
            raise ValueError(f"body '{self.name}': inertia must be symmetric")
        if np.linalg.eigvalsh(I).min() <= 0:
            raise ValueError(f"body '{self.name}': inertia must be positive definite")


@dataclass(frozen=True)
class Joint:
    """Joint from ``parent`` to ``child`` (body indices) with prescribed motion.

    ``axis`` is a unit vector in the child frame (equal to its components in the zero-angle frame
    C_i^0, since the rotation is about it); ``rotation`` prescribes the angle about it and
    ``slide`` the offset along it (both :class:`Motion`).

    With a ``drive`` (:mod:`floatwind.multibody.drives`) the rotation is a degree of freedom of
    its own: ``rotation`` then gives its angle and rate at t = 0 and, for a spring-damper drive,
    the commanded motion. With a ``gear`` the angle follows a free joint (ratio, offset).
    """

    name: str
    parent: int
    child: int
    r_J_p: np.ndarray
    r_J_c: np.ndarray
    axis: np.ndarray = field(default_factory=lambda: np.array([0.0, 0.0, 1.0]))
    R0_c2p: np.ndarray = field(default_factory=lambda: np.eye(3))
    rotation: Motion = field(default_factory=Locked)
    slide: Motion = field(default_factory=Locked)
    drive: Drive | None = None
    gear: Gear | None = None

    @property
    def free(self) -> bool:
        """The rotation is a degree of freedom (a drive gives its torque)."""
        return self.drive is not None

    def __post_init__(self):
        if self.drive is not None and self.gear is not None:
            raise ValueError(f"joint '{self.name}': a joint has a drive or a gear, not both")
        object.__setattr__(self, "r_J_p", np.asarray(self.r_J_p, dtype=float).reshape(3))
        object.__setattr__(self, "r_J_c", np.asarray(self.r_J_c, dtype=float).reshape(3))
        a = np.asarray(self.axis, dtype=float).reshape(3)
        n = np.linalg.norm(a)
        if not n > 0:
            raise ValueError(f"joint '{self.name}': axis must be non-zero")
        object.__setattr__(self, "axis", a / n)
        R0 = np.asarray(self.R0_c2p, dtype=float).reshape(3, 3)
        if not np.allclose(R0 @ R0.T, np.eye(3), atol=1e-9) or np.linalg.det(R0) < 0:
            raise ValueError(f"joint '{self.name}': R0_c2p must be a rotation matrix")
        object.__setattr__(self, "R0_c2p", R0)


class Tree:
    """An open tree of bodies; body 0 is the base. Joints are stored per child in topological order.

    Parameters
    ----------
    bodies : list of Body
    joints : list of Joint, one per non-base body (each body except 0 is the child of exactly one).
    """

    def __init__(self, bodies: list[Body], joints: list[Joint] | None = None):
        joints = list(joints or [])
        self.bodies = list(bodies)
        n = len(self.bodies)
        if n == 0:
            raise ValueError("a model needs at least one body")
        names = [b.name for b in self.bodies]
        if len(set(names)) != n:
            raise ValueError(f"body names must be unique, got {names}")
        parent = [-1] * n
        by_child: dict[int, Joint] = {}
        for j in joints:
            if not (0 <= j.parent < n and 0 < j.child < n) or j.parent == j.child:
                raise ValueError(f"joint '{j.name}': parent/child indices out of range")
            if j.child in by_child:
                raise ValueError(f"body '{names[j.child]}' has two parent joints")
            by_child[j.child] = j
            parent[j.child] = j.parent
        missing = [names[i] for i in range(1, n) if i not in by_child]
        if missing:
            raise ValueError(f"bodies without a joint to the tree: {missing}")
        # topological order from the base (detects cycles)
        order, seen = [0], {0}
        children: dict[int, list[int]] = {i: [] for i in range(n)}
        for c, j in by_child.items():
            children[j.parent].append(c)
        k = 0
        while k < len(order):
            for c in sorted(children[order[k]]):
                if c in seen:
                    raise ValueError("joint graph has a cycle")
                seen.add(c)
                order.append(c)
            k += 1
        if len(order) != n:
            raise ValueError("joint graph is not connected to the base body (cycle?)")
        self.parent = parent
        self.order = order
        self.children = children
        self.joint_of = by_child
        self.mass = np.array([b.mass for b in self.bodies])
        self.total_mass = float(self.mass.sum())
        self.cm_b = np.stack([b.cm_b for b in self.bodies])
        self.inertia_b = np.stack([b.inertia_b for b in self.bodies])
        # joint degrees of freedom (docs/multibody.md, "Joint DOFs"): the free joints in
        # topological order, and per child body the DOF its angle follows (-1: prescribed)
        self.dofs = [c for c in order[1:] if by_child[c].free]
        self.dof_names = [by_child[c].name for c in self.dofs]
        self.dof_of = np.full(n, -1, dtype=np.int64)
        self.dof_ratio = np.zeros(n)
        self.dof_offset = np.zeros(n)
        for k, c in enumerate(self.dofs):
            self.dof_of[c], self.dof_ratio[c] = k, 1.0
        for c in order[1:]:
            g = by_child[c].gear
            if g is None:
                continue
            if g.leader not in self.dof_names:
                raise ValueError(
                    f"joint '{by_child[c].name}': gear leader '{g.leader}' is not a joint with a "
                    f"drive (free joints: {self.dof_names or 'none'})"
                )
            self.dof_of[c] = self.dof_names.index(g.leader)
            self.dof_ratio[c], self.dof_offset[c] = g.ratio, g.offset

    @property
    def n_dofs(self) -> int:
        """Number of joint degrees of freedom (free joints)."""
        return len(self.dofs)

    @property
    def n_bodies(self) -> int:
        return len(self.bodies)

    def index(self, name: str) -> int:
        for i, b in enumerate(self.bodies):
            if b.name == name:
                return i
        raise KeyError(name)

    def subtree(self, body: int) -> list[int]:
        """``body`` and every body outboard of it."""
        out, stack = [], [body]
        while stack:
            b = stack.pop()
            out.append(b)
            stack.extend(self.children[b])
        return sorted(out)

    def chain(self, body: int) -> list[int]:
        """Kinematic chain from the base to ``body`` (inclusive), found from the topology."""
        c = [body]
        while self.parent[c[-1]] >= 0:
            c.append(self.parent[c[-1]])
        return c[::-1]
