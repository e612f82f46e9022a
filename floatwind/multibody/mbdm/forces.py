"""Applied-force elements of the MBDM formulation that have a compiled form, and the bridge to
floatwind's Load contract, Leble (seed 001) sec. 4, 6 and 10.3.

* :class:`BodyLoad`: a constant force at a body's centre of mass and a constant moment, both in
  global axes (the constant crank torque of sec. 10.3); enters F^A and n'^A = A^T n of eq. (67)
  and, through 2 G^T n'^A, eq. (69).
* :class:`CoordinateForce`: a force on one body coordinate (body, global axis) given by a
  scalar law f(x, v, p) and switch functions s(x, v, p) (numba functions; a sign change of a
  switch splits the RK4 step, so RK4 keeps its fourth order). Subclasses register the
  forces-file type they provide (:data:`FORCE_KINDS`); other packages provide theirs through the
  entry-point group :data:`GROUP` (the slider-crank's gas force (94) of the technical note lives
  in ``validation/mbdm/forces.py``).
* :class:`RotationalSpringDamper`: a torque between two bodies about a joint axis (a free yaw
  joint on its spring-damper drive, ``floatwind.multibody.drives``): tau = -K (theta -
  theta_c(t)) - C (theta' - theta_c'(t)) (+ a constant torque and a torque-versus-rate table),
  theta the RDRV angle of eqs. (22)-(27), on the second body about the axis, the opposite on the
  first; enters n'^A of eq. (67) (2 G^T n'^A of eq. 69) through its virtual work, as the line of
  eqs. (85)-(88) does. NumPy path only (the compiled path refuses it in one line).
* :func:`load_kinematics` / :func:`contract_loads`: floatwind ``Load`` objects
  (``wrench(t, kin, env)``, :mod:`floatwind.records`) evaluated on MBDM body states: the
  Kinematics record is built from r (the centre of mass), A(p) (eq. 2), rdot and the global
  angular velocity omega = 2 E pdot (eq. 40); the Wrench (global force at the CM, global moment
  about it) gives F^A and n'^A = A^T n (eqs. 67, 69). NumPy path only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from floatwind.errors import CaseError
from floatwind.multibody.drives import Drive, FreeDrive
from floatwind.multibody.mbdm.coordinates import A_matrix, omega_global
from floatwind.records import Kinematics

__all__ = [
    "FORCE_KINDS",
    "GROUP",
    "BodyLoad",
    "CoordinateForce",
    "RotationalSpringDamper",
    "contract_loads",
    "force_kind",
    "load_kinematics",
    "load_plugins",
]


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


#: the entry-point group of force-element plugins (pyproject.toml [project.entry-points]): each
#: entry point names a module whose :class:`CoordinateForce` subclasses register their forces-file
#: types when it is imported (floatwind's own validation package provides ``gas force (94)``)
GROUP = "floatwind.mbdm_forces"

#: forces-file type -> force-element class, filled by the subclasses of :class:`CoordinateForce`
#: as they are defined (``class X(CoordinateForce, kind="...")``)
FORCE_KINDS: dict[str, type] = {}
_PLUGINS_LOADED: list[bool] = []


def _kind_name(text: str) -> str:
    return " ".join(str(text).lower().split())


def load_plugins(entry_points=None) -> list[str]:
    """Import the modules of the installed force-element plugins (entry points of
    :data:`GROUP`), which registers their kinds; returns the entry points that failed, as
    ``"name (value): reason"``. ``entry_points``: the entry points to load (default: the
    installed ones, read once per process)."""
    from importlib import metadata

    if entry_points is None:
        if _PLUGINS_LOADED:
            return []
        _PLUGINS_LOADED.append(True)
        entry_points = metadata.entry_points(group=GROUP)
    failed = []
    for ep in entry_points:
        try:
            ep.load()
        except Exception as exc:  # a broken plugin is reported, not fatal to the others
            failed.append(f"{ep.name} ({ep.value}): {exc}")
    return failed


def force_kind(name: str, entry_points=None) -> type | None:
    """The :class:`CoordinateForce` class registered for forces-file type ``name`` (case and
    spacing ignored), loading the installed plugins (:data:`GROUP`) if it is not known yet;
    None if no plugin provides it."""
    key = _kind_name(name)
    if key not in FORCE_KINDS:
        load_plugins(entry_points)
    return FORCE_KINDS.get(key)


@dataclass(frozen=True)
class CoordinateForce:
    """A force element on one body coordinate: the global force component ``axis`` (0, 1, 2) of
    ``body`` is ``law(x, v, p)``, x and v the body's coordinate and velocity along that axis and
    p the element's ``params`` (a float array); its ``switch_laws`` s(x, v, p) mark where the
    law jumps or kinks (a sign change splits the RK4 step there, so RK4 keeps its order).

    A subclass brings its laws as class attributes, module-level numba functions
    (``@njit``), and may register a type of the forces file:
    ``class GasForce94(CoordinateForce, kind="gas force (94)"): law = gas94; switch_laws =
    (velocity, x_minus_5)``. The NumPy path calls their Python form (``law.py_func``, the
    reference), the compiled path calls the compiled functions from a module generated per
    combination of laws (:mod:`floatwind.multibody.mbdm.compiled`). Elements of other packages
    are found through the entry-point group :data:`GROUP`."""

    body: int
    axis: int = 0
    params: tuple = ()
    name: str = ""

    #: f(x, v, p) -> force (N) along ``axis``; set by subclasses
    law = None
    #: (s(x, v, p) -> float, ...): where the law is not smooth; set by subclasses
    switch_laws = ()
    #: the forces-file type of the subclass ('' : none)
    kind = ""

    def __init_subclass__(cls, kind: str = "", **kw):
        super().__init_subclass__(**kw)
        if kind:
            key = _kind_name(kind)
            if FORCE_KINDS.get(key, cls).__qualname__ != cls.__qualname__:
                raise ValueError(f"force type {kind!r} is registered twice "
                                 f"({FORCE_KINDS[key].__qualname__} and {cls.__qualname__})")
            cls.kind = key
            FORCE_KINDS[key] = cls

    def __post_init__(self):
        if self.axis not in (0, 1, 2):
            raise CaseError("axis must be 0, 1 or 2", field=self.name or "axis")
        if type(self).law is None:
            raise CaseError(f"{type(self).__name__} has no force law", field=self.name or "law")
        p = np.asarray(self.params, dtype=float).reshape(-1)
        if not np.all(np.isfinite(p)):
            raise CaseError("params must be finite numbers", field=self.name or "params")
        object.__setattr__(self, "params", tuple(float(x) for x in p))

    def _p(self) -> np.ndarray:
        return np.asarray(self.params, dtype=float).reshape(-1)

    def evaluate(self, t, q, qdot) -> tuple[np.ndarray, np.ndarray]:
        F = np.zeros((q.shape[0], 3))
        law = getattr(type(self).law, "py_func", type(self).law)
        F[self.body, self.axis] = law(q[self.body, self.axis], qdot[self.body, self.axis], self._p())
        return F, np.zeros((q.shape[0], 3))

    def switches(self, t, q, qdot) -> list:
        x, v, p = q[self.body, self.axis], qdot[self.body, self.axis], self._p()
        return [getattr(s, "py_func", s)(x, v, p) for s in type(self).switch_laws]


def _unit(v, what, name) -> np.ndarray:
    v = np.asarray(v, dtype=float).reshape(-1)
    if v.shape != (3,) or not np.all(np.isfinite(v)) or not np.linalg.norm(v) > 0:
        raise CaseError(f"{what} must be 3 finite numbers, not all zero", field=name or what)
    return v / np.linalg.norm(v)


@dataclass(frozen=True)
class RotationalSpringDamper:
    """A rotational spring-damper between ``bodies`` = (i, j) about a joint axis (a revolute
    joint R, eq. 19, without its driver): the torque on body j about the axis is the ``drive``'s
    (a ``floatwind.multibody.drives.Drive``: free, spring-damper toward ``command``, torque law),

        tau = -K (theta - theta_c(t)) - C (theta' - theta_c'(t)) + tau_0 + table(theta'),

    and -tau on body i. ``axis`` (h_i) and
    ``ref_i`` (f_i) are fixed in body i's frame, ``ref_j`` (f_j) in body j's frame (made normal
    to the axis, as the definition frames of sec. 2.1); theta = atan2(g_i . f_j, f_i . f_j),
    g_i = h_i x f_i, is the angle of the revolute driver RDRV (eqs. 22-27) with the same
    vectors, and theta' = (omega_j - omega_i) . h_i (global angular velocities, eq. 40).
    ``command``: a ``floatwind.multibody.motion.Motion`` theta_c(t) (None: 0); theta - theta_c
    is taken in (-pi, pi] (the atan2 angle is known modulo 2 pi)."""

    bodies: tuple
    axis: tuple
    ref_i: tuple
    ref_j: tuple
    drive: Drive = field(default_factory=FreeDrive)
    command: object = None
    name: str = ""

    def __post_init__(self):
        i, j = (int(b) for b in self.bodies)
        if i == j:
            raise CaseError("a rotational spring-damper needs two different bodies",
                            field=self.name or "bodies")  # fmt: skip
        object.__setattr__(self, "bodies", (i, j))
        h = _unit(self.axis, "axis", self.name)
        refs = []
        for what in ("ref_i", "ref_j"):
            f = _unit(getattr(self, what), what, self.name)
            f = f - (f @ h) * h  # normal to the axis (sec. 2.1: f made normal to h)
            if not np.linalg.norm(f) > 1e-9:
                raise CaseError(f"{what} is parallel to the axis", field=self.name or what)
            refs.append(f / np.linalg.norm(f))
        object.__setattr__(self, "axis", tuple(h))
        object.__setattr__(self, "ref_i", tuple(refs[0]))
        object.__setattr__(self, "ref_j", tuple(refs[1]))
        if not isinstance(self.drive, Drive):
            raise CaseError(f"expected a joint drive, got {self.drive!r}", field=self.name or "drive")

    @property
    def body(self) -> int:
        """The body the torque turns (j); both bodies are in ``bodies``."""
        return self.bodies[1]

    def _frames(self, q):
        i, j = self.bodies
        A = A_matrix(np.asarray(q, dtype=float)[[i, j], 3:])  # eq. (2)
        h = A[0] @ np.asarray(self.axis)
        fi = A[0] @ np.asarray(self.ref_i)
        fj = A[1] @ np.asarray(self.ref_j)
        return h, fi, np.cross(h, fi), fj

    def angle(self, q) -> float:
        """theta = atan2(g_i . f_j, f_i . f_j) (the RDRV angle, eqs. 22-27), in (-pi, pi]."""
        _, fi, gi, fj = self._frames(q)
        return float(np.arctan2(gi @ fj, fi @ fj))

    def rate(self, q, qdot) -> float:
        """theta' = (omega_j - omega_i) . h_i, global angular velocities 2 E pdot (eq. 40)."""
        i, j = self.bodies
        q = np.asarray(q, dtype=float)
        w = omega_global(q[[i, j], 3:], np.asarray(qdot, dtype=float)[[i, j], 3:])
        return float((w[1] - w[0]) @ self._frames(q)[0])

    def torque(self, t, q, qdot) -> float:
        """tau of the drive law (``Drive.torque``) at (t, q, qdot), with the angle taken within
        pi of the command."""
        th_c, thd_c = 0.0, 0.0
        if self.command is not None:
            th_c, thd_c, _ = self.command.evaluate(float(t))
        theta = th_c + (self.angle(q) - th_c + np.pi) % (2.0 * np.pi) - np.pi  # in [-pi, pi)
        return float(self.drive.torque(theta, self.rate(q, qdot), (th_c, thd_c)))

    def evaluate(self, t, q, qdot) -> tuple[np.ndarray, np.ndarray]:
        """Global forces (none) and global moments (nb, 3): tau h on body j, -tau h on body i.

        Virtual work, as for the line of eqs. (85)-(88): with the constraints of the revolute
        joint (h_j parallel to h_i) the variation of the RDRV angle is
        delta theta = h^T (A_j delta pi'_j - A_i delta pi'_i) (the RDRV row of eqs. 22-27 in
        the virtual rotations of eq. 63), so delta W = tau delta theta gives the generalised
        moments n'_j^A = tau A_j^T h and n'_i^A = -tau A_i^T h, which enter n'^A of eq. (67)
        and 2 G^T n'^A of eq. (69); no force F^A (``DynamicSystem.loads`` turns the global
        moments returned here to n' = A^T n)."""
        q = np.asarray(q, dtype=float)
        i, j = self.bodies
        h = self._frames(q)[0]
        tau = self.torque(t, q, qdot)
        F = np.zeros((q.shape[0], 3))
        n = np.zeros((q.shape[0], 3))
        n[j] += tau * h
        n[i] -= tau * h
        return F, n

    def switches(self, t, q, qdot) -> list:
        return []


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
