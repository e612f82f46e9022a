"""Loads of the spatial Lie-group formulation with their tangent operators (Giusti, seed 000).

Giusti writes the dynamics of one rigid body in the inertial basis S (sec. 2.2, 2.5) as the residual

    r = [m I, 0; 0, R J_b R^T] vdot + [0; w x R J_b R^T w] - [F(q, v, vdot, t); T_G(q, v, vdot, t)] = 0   # Giusti (1)

with q = [x_G; psi] (CM position and rotation vector), v = [v_G; w] (CM velocity and angular
velocity, both inertial axes) and vdot = [a_G; dw]. Its linearisation defines the tangent
stiffness, damping and mass operators K, C, M (Giusti (2)-(4)). The derivative with respect to
the rotation is taken along the spatial increment theta (R -> exp(~theta) R, right translation),
theta = T(psi)^T dpsi (Giusti footnote 12).

Every load here is a :class:`SpatialLoad`: it returns its *contribution to the residual* (that is,
minus the force and torque it applies; plus the inertia terms for :class:`InertialLoad`) and its
contribution to (K, C, M), so that loads compose by summation (``load_a + load_b``). The sign
convention is Giusti's: the printed operators (14)-(37) are derivatives of the residual.

Quantities that may vary in time (forces, torques) are given either as arrays (3,) or (B, 3), or
as callables ``f(t) -> array`` of those shapes.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np

from floatwind.errors import CaseError
from floatwind.rotation import log_so3, skew, tangent_inv

__all__ = [
    "FollowerForce",
    "FollowerLinear",
    "FollowerTorque",
    "Gravity",
    "InertialLoad",
    "LoadSet",
    "NonFollowerForce",
    "NonFollowerLinear",
    "NonFollowerTorque",
    "SpatialKinematics",
    "SpatialLoad",
    "Tangents",
]

Vector3Spec = np.ndarray | Sequence[float] | Callable[[float], np.ndarray]


@dataclass(frozen=True)
class SpatialKinematics:
    """State of one rigid body in the spatial formulation (all vectors in the inertial basis).

    Attributes
    ----------
    t : float
        Time (s).
    r_G_g : (B, 3) CM position (m).
    R_b2g : (B, 3, 3) body-to-inertial rotation.
    v_G_g : (B, 3) CM velocity (m/s).
    w_b_g : (B, 3) angular velocity, inertial axes (rad/s).
    a_G_g : (B, 3) CM acceleration (m/s^2).
    dw_b_g : (B, 3) angular acceleration, inertial axes (rad/s^2).
    """

    t: float
    r_G_g: np.ndarray
    R_b2g: np.ndarray
    v_G_g: np.ndarray
    w_b_g: np.ndarray
    a_G_g: np.ndarray
    dw_b_g: np.ndarray

    @classmethod
    def from_vectors(cls, t: float, r_G_g, R_b2g, v, vdot) -> SpatialKinematics:
        """Build from the 6-vectors ``v = [v_G; w]`` and ``vdot = [a_G; dw]`` (B, 6)."""
        v = np.asarray(v, dtype=float)
        vdot = np.asarray(vdot, dtype=float)
        return cls(
            t,
            np.asarray(r_G_g, float),
            np.asarray(R_b2g, float),
            v[:, :3],
            v[:, 3:],
            vdot[:, :3],
            vdot[:, 3:],
        )

    @property
    def batch(self) -> int:
        return self.r_G_g.shape[0]

    @cached_property
    def psi(self) -> np.ndarray:
        """Rotation vector (B, 3) with |psi| in [0, pi] (log map, Giusti footnote 9)."""
        return log_so3(self.R_b2g)

    @property
    def q(self) -> np.ndarray:
        """Position state [x_G; psi] (B, 6), Giusti sec. 2.5."""
        return np.concatenate([self.r_G_g, self.psi], axis=-1)

    @property
    def v(self) -> np.ndarray:
        return np.concatenate([self.v_G_g, self.w_b_g], axis=-1)

    @property
    def vdot(self) -> np.ndarray:
        return np.concatenate([self.a_G_g, self.dw_b_g], axis=-1)


class Tangents(NamedTuple):
    """Tangent stiffness K (along [dx; theta]), damping C and mass M, each (B, 6, 6)."""

    K: np.ndarray
    C: np.ndarray
    M: np.ndarray

    @classmethod
    def zeros(cls, batch: int) -> Tangents:
        return cls(np.zeros((batch, 6, 6)), np.zeros((batch, 6, 6)), np.zeros((batch, 6, 6)))

    def __add__(self, other: Tangents) -> Tangents:  # type: ignore[override]
        return Tangents(self.K + other.K, self.C + other.C, self.M + other.M)


def _value(spec, t: float, batch: int) -> np.ndarray:
    """Evaluate a constant or time-dependent 3-vector as (B, 3)."""
    val = spec(t) if callable(spec) else spec
    return np.broadcast_to(np.asarray(val, dtype=float), (batch, 3))


def _vector_spec(spec, name: str):
    if callable(spec):
        return spec
    arr = np.asarray(spec, dtype=float)
    if arr.shape[-1:] != (3,) or arr.ndim > 2:
        raise CaseError(f"expected a 3-vector or (B, 3) array, got shape {arr.shape}", field=name)
    return arr


def _matrix6(mat, name: str) -> np.ndarray | None:
    if mat is None:
        return None
    arr = np.asarray(mat, dtype=float)
    if arr.shape[-2:] != (6, 6) or arr.ndim > 3:
        raise CaseError(f"expected a 6x6 (or (B, 6, 6)) matrix, got shape {arr.shape}", field=name)
    return arr


def _mv(A: np.ndarray, x: np.ndarray) -> np.ndarray:
    return np.einsum("...ij,...j->...i", A, x)


class SpatialLoad(abc.ABC):
    """Base class: a load's residual contribution and tangent operators (Giusti (1)-(4))."""

    @abc.abstractmethod
    def residual(self, kin: SpatialKinematics) -> np.ndarray:
        """Contribution (B, 6) to the residual r of Giusti (1): minus [force; torque about G]."""

    @abc.abstractmethod
    def tangents(self, kin: SpatialKinematics) -> Tangents:
        """Contributions (K, C, M), each (B, 6, 6), to Giusti's tangent operators (2)-(4)."""

    def __add__(self, other: SpatialLoad) -> LoadSet:
        return LoadSet([self, other])


class LoadSet(SpatialLoad):
    """Sum of loads: residuals and tangent operators add (the assembly of Algorithm 1, lines 11-18)."""

    def __init__(self, loads: Sequence[SpatialLoad]):
        flat: list[SpatialLoad] = []
        for load in loads:
            flat.extend(load.loads if isinstance(load, LoadSet) else [load])
        self.loads = tuple(flat)

    def residual(self, kin: SpatialKinematics) -> np.ndarray:
        out = np.zeros((kin.batch, 6))
        for load in self.loads:
            out = out + load.residual(kin)
        return out

    def tangents(self, kin: SpatialKinematics) -> Tangents:
        out = Tangents.zeros(kin.batch)
        for load in self.loads:
            out = out + load.tangents(kin)
        return out

    def __add__(self, other: SpatialLoad) -> LoadSet:
        return LoadSet([*self.loads, other])


class InertialLoad(SpatialLoad):
    """Inertial (D'Alembert) loads of the rigid body, Giusti (12)-(17).

    Parameters
    ----------
    mass : float
        Mass m (kg).
    J_b : (3, 3) array_like
        Inertia tensor about the CM in body axes, J^{B,M} (kg m^2).
    """

    def __init__(self, *, mass: float, J_b):
        self.mass = float(mass)
        self.J_b = np.asarray(J_b, dtype=float)
        if not self.mass > 0.0:
            raise CaseError(f"mass must be positive, got {mass}", field="mass")
        if self.J_b.shape != (3, 3) or not np.allclose(self.J_b, self.J_b.T):
            raise CaseError("J_b must be a symmetric 3x3 matrix", field="J_b")
        if np.min(np.linalg.eigvalsh(self.J_b)) <= 0.0:
            raise CaseError(f"J_b must be positive definite, got {self.J_b.tolist()}", field="J_b")

    def J_g(self, R_b2g: np.ndarray) -> np.ndarray:
        """J^{B,S} = R J^{B,M} R^T (B, 3, 3)."""
        return R_b2g @ self.J_b @ np.swapaxes(R_b2g, -1, -2)

    def residual(self, kin: SpatialKinematics) -> np.ndarray:
        J = self.J_g(kin.R_b2g)
        Jw = _mv(J, kin.w_b_g)
        f = self.mass * kin.a_G_g  # -(12)
        t = _mv(J, kin.dw_b_g) + np.cross(kin.w_b_g, Jw)  # -(13)
        return np.concatenate([f, t], axis=-1)

    def tangents(self, kin: SpatialKinematics) -> Tangents:
        B = kin.batch
        out = Tangents.zeros(B)
        J = self.J_g(kin.R_b2g)
        w_t = skew(kin.w_b_g)
        Jw_t = skew(_mv(J, kin.w_b_g))
        Jdw_t = skew(_mv(J, kin.dw_b_g))
        out.M[:, :3, :3] = self.mass * np.eye(3)  # Giusti (14)
        out.M[:, 3:, 3:] = J  # Giusti (15)
        out.C[:, 3:, 3:] = w_t @ J - Jw_t  # Giusti (16)
        # Giusti (17), the hat on v in its first two terms is the acceleration vdot
        out.K[:, 3:, 3:] = -Jdw_t + J @ skew(kin.dw_b_g) - w_t @ Jw_t + w_t @ J @ w_t
        return out


class NonFollowerForce(SpatialLoad):
    """Force fixed in the inertial basis acting at a body point, Giusti (18)-(20).

    Parameters
    ----------
    force : (3,) or (B, 3) array or callable t -> array
        F_P^nf, inertial axes (N).
    point_b : (3,) array_like, optional
        x_P^{B,M}: the point of application from the CM, body axes (m). Default: the CM.
    """

    def __init__(self, *, force: Vector3Spec, point_b=(0.0, 0.0, 0.0)):
        self.force = _vector_spec(force, "force")
        self.point_b = np.asarray(point_b, dtype=float).reshape(3)

    def residual(self, kin: SpatialKinematics) -> np.ndarray:
        F = _value(self.force, kin.t, kin.batch)
        arm = _mv(kin.R_b2g, self.point_b)  # x_P^{B,S} = R x_P^{B,M}
        return -np.concatenate([F, np.cross(arm, F)], axis=-1)  # Giusti (18)-(19)

    def tangents(self, kin: SpatialKinematics) -> Tangents:
        out = Tangents.zeros(kin.batch)
        F = _value(self.force, kin.t, kin.batch)
        arm = _mv(kin.R_b2g, self.point_b)
        out.K[:, 3:, 3:] = skew(np.cross(arm, F)) - skew(arm) @ skew(F)  # Giusti (20)
        return out


class Gravity(NonFollowerForce):
    """Weight of a body: non-follower force m g at the CM (no tangent contribution).

    Parameters
    ----------
    mass : float
        Mass (kg).
    g : float
        Gravity acceleration (m/s^2), acting along -z.
    """

    def __init__(self, *, mass: float, g: float = 9.81):
        super().__init__(force=np.array([0.0, 0.0, -float(mass) * float(g)]))


class NonFollowerTorque(SpatialLoad):
    """Torque fixed in the inertial basis, Giusti (21)-(22); no tangent contribution.

    Parameters
    ----------
    torque : (3,) or (B, 3) array or callable t -> array
        T^nf, inertial axes (N m).
    """

    def __init__(self, *, torque: Vector3Spec):
        self.torque = _vector_spec(torque, "torque")

    def residual(self, kin: SpatialKinematics) -> np.ndarray:
        T = _value(self.torque, kin.t, kin.batch)
        return -np.concatenate([np.zeros_like(T), T], axis=-1)  # Giusti (21)-(22)

    def tangents(self, kin: SpatialKinematics) -> Tangents:
        return Tangents.zeros(kin.batch)


class FollowerForce(SpatialLoad):
    """Force fixed in the body basis acting at a body point, Giusti (26)-(29).

    Parameters
    ----------
    force : (3,) or (B, 3) array or callable t -> array
        F_P^f, body axes (N).
    point_b : (3,) array_like, optional
        x_P^{B,M}: point of application from the CM, body axes (m). Default: the CM.
    """

    def __init__(self, *, force: Vector3Spec, point_b=(0.0, 0.0, 0.0)):
        self.force = _vector_spec(force, "force")
        self.point_b = np.asarray(point_b, dtype=float).reshape(3)

    def residual(self, kin: SpatialKinematics) -> np.ndarray:
        Ff = _value(self.force, kin.t, kin.batch)
        F = _mv(kin.R_b2g, Ff)  # Giusti (26)
        T = _mv(kin.R_b2g, np.cross(self.point_b, Ff))  # Giusti (27)
        return -np.concatenate([F, T], axis=-1)

    def tangents(self, kin: SpatialKinematics) -> Tangents:
        out = Tangents.zeros(kin.batch)
        Ff = _value(self.force, kin.t, kin.batch)
        out.K[:, :3, 3:] = skew(_mv(kin.R_b2g, Ff))  # Giusti (28)
        out.K[:, 3:, 3:] = skew(_mv(kin.R_b2g, np.cross(self.point_b, Ff)))  # Giusti (29)
        return out


class FollowerTorque(SpatialLoad):
    """Torque fixed in the body basis, Giusti (30)-(32).

    Parameters
    ----------
    torque : (3,) or (B, 3) array or callable t -> array
        T^f, body axes (N m).
    """

    def __init__(self, *, torque: Vector3Spec):
        self.torque = _vector_spec(torque, "torque")

    def residual(self, kin: SpatialKinematics) -> np.ndarray:
        T = _mv(kin.R_b2g, _value(self.torque, kin.t, kin.batch))  # Giusti (31)
        return -np.concatenate([np.zeros_like(T), T], axis=-1)  # Giusti (30)

    def tangents(self, kin: SpatialKinematics) -> Tangents:
        out = Tangents.zeros(kin.batch)
        out.K[:, 3:, 3:] = skew(_mv(kin.R_b2g, _value(self.torque, kin.t, kin.batch)))  # (32)
        return out


def _psi_column_factor(psi: np.ndarray) -> np.ndarray:
    """d psi / d theta = T(psi)^{-T} (inverse of theta_S = T^T dpsi, Giusti footnote 12), (B, 3, 3)."""
    return np.swapaxes(tangent_inv(psi), -1, -2)


class NonFollowerLinear(SpatialLoad):
    """Loads linear in the state, inertial basis: [F; T_G] = -(A_q q + A_v v + A_a vdot), Giusti (23)-(25).

    ``q = [x_G; psi]`` (psi from the log map, |psi| <= pi), ``v = [v_G; w]``, ``vdot = [a_G; dw]``.
    Giusti (25): the tangents are the matrices themselves; for the rotational columns of ``A_q``
    the derivative along theta carries the factor d psi / d theta = T(psi)^{-T} (exact; equal to
    the identity at psi = 0). Note that a linear load on psi jumps where |psi| passes pi.

    Parameters
    ----------
    A_q, A_v, A_a : (6, 6) or (B, 6, 6) array_like, optional
        Stiffness (N/m, N/rad, N m/m, N m/rad), damping and added-mass matrices.
    """

    def __init__(self, *, A_q=None, A_v=None, A_a=None):
        self.A_q = _matrix6(A_q, "A_q")
        self.A_v = _matrix6(A_v, "A_v")
        self.A_a = _matrix6(A_a, "A_a")

    def residual(self, kin: SpatialKinematics) -> np.ndarray:
        out = np.zeros((kin.batch, 6))
        if self.A_q is not None:
            out = out + _mv(self.A_q, kin.q)  # Giusti (24)-(25)
        if self.A_v is not None:
            out = out + _mv(self.A_v, kin.v)
        if self.A_a is not None:
            out = out + _mv(self.A_a, kin.vdot)
        return out

    def tangents(self, kin: SpatialKinematics) -> Tangents:
        out = Tangents.zeros(kin.batch)
        if self.A_q is not None:
            A = np.broadcast_to(self.A_q, (kin.batch, 6, 6))
            out.K[:, :, :3] = A[:, :, :3]
            out.K[:, :, 3:] = A[:, :, 3:] @ _psi_column_factor(kin.psi)
        if self.A_v is not None:
            out.C[:] = self.A_v
        if self.A_a is not None:
            out.M[:] = self.A_a
        return out


def _rotate6(R: np.ndarray, Bm: np.ndarray) -> np.ndarray:
    """B_hat = diag(R, R) B diag(R^T, R^T), Giusti (35), (B, 6, 6)."""
    RT = np.swapaxes(R, -1, -2)
    out = np.empty(R.shape[:-2] + (6, 6))
    for i in (0, 3):
        for j in (0, 3):
            out[..., i : i + 3, j : j + 3] = R @ Bm[..., i : i + 3, j : j + 3] @ RT
    return out


def _rotation_stiffness(Bhat: np.ndarray, z: np.ndarray) -> np.ndarray:
    """Columns theta of d(B_hat z)/d theta at fixed z, Giusti (36)-(37), (B, 6, 3)."""
    out = np.zeros(Bhat.shape[:-2] + (6, 3))
    for i in (0, 3):
        for j in (0, 3):
            blk = Bhat[..., i : i + 3, j : j + 3]
            zj = z[..., j : j + 3]
            out[..., i : i + 3, :] += -skew(_mv(blk, zj)) + blk @ skew(zj)
    return out


class FollowerLinear(SpatialLoad):
    """Loads linear in the state, body basis: [F^M; T^M] = -B [(.)^M; (o)^M], Giusti (33)-(37).

    The body-basis variables are the inertial ones rotated into the body: R^T x_G, R^T psi = psi,
    R^T v_G, R^T w, R^T a_G, R^T dw. In the inertial basis the load is -B_hat z with
    B_hat = diag(R, R) B diag(R^T, R^T) (Giusti (34)-(35)); its tangents are B_hat itself plus the
    stiffness of the change of orientation (Giusti (36)-(37)); for the rotational columns of B_q the
    factor d psi / d theta = T(psi)^{-T} is added (exact derivative along theta).

    Parameters
    ----------
    B_q, B_v, B_a : (6, 6) or (B, 6, 6) array_like, optional
        Stiffness, damping and added-mass matrices in body axes.
    """

    def __init__(self, *, B_q=None, B_v=None, B_a=None):
        self.B_q = _matrix6(B_q, "B_q")
        self.B_v = _matrix6(B_v, "B_v")
        self.B_a = _matrix6(B_a, "B_a")

    def _terms(self, kin: SpatialKinematics):
        for Bm, z, kind in (
            (self.B_q, None, "q"),
            (self.B_v, kin.v, "v"),
            (self.B_a, kin.vdot, "a"),
        ):
            if Bm is None:
                continue
            yield _rotate6(kin.R_b2g, Bm), (kin.q if z is None else z), kind

    def residual(self, kin: SpatialKinematics) -> np.ndarray:
        out = np.zeros((kin.batch, 6))
        for Bhat, z, _ in self._terms(kin):
            out = out + _mv(Bhat, z)  # Giusti (34)
        return out

    def tangents(self, kin: SpatialKinematics) -> Tangents:
        out = Tangents.zeros(kin.batch)
        for Bhat, z, kind in self._terms(kin):
            out.K[:, :, 3:] += _rotation_stiffness(Bhat, z)  # Giusti (36)-(37)
            if kind == "q":
                out.K[:, :, :3] += Bhat[:, :, :3]
                out.K[:, :, 3:] += Bhat[:, :, 3:] @ _psi_column_factor(kin.psi)
            elif kind == "v":
                out.C[:] += Bhat
            else:
                out.M[:] += Bhat
        return out
