"""Mooring statics of a model: line loads at a pose of the moored body, the linearised 6x6
mooring stiffness, offset-tension curves (``floatwind mooring CASE``).

The mooring loads (those whose ``Load.is_mooring`` is set: the kinds
``floatwind.loads.registry.kinds(lambda cls: cls.is_mooring)``) are evaluated directly at
prescribed poses of the body that carries their fairleads, all poses of a sweep in one batched
call. The
stiffness follows OpenFAST's AddCLin convention (F = -K q): q = (x, y, z, rx, ry, rz) with
translations of the body reference point and small rotations about the inertial axes, the
moment taken about the displaced reference point; central differences with steps 1e-3 m and
1e-5 rad (the linearisation of the ref06 README).
"""

from __future__ import annotations

import numpy as np

from floatwind.loads.base import Kinematics, Load
from floatwind.model import Model

__all__ = [
    "mooring_loads",
    "mooring_stiffness",
    "mooring_wrench",
    "no_mooring_message",
    "in_still_water",
    "offset_curve",
    "rest_pose",
]


def mooring_loads(model: Model) -> list[Load]:
    """The model's mooring loads (``Load.is_mooring``: catenary and taut lines); all act on one
    body."""
    return [ld for ld in model.loads if ld.is_mooring]


def no_mooring_message() -> str:
    """What to say of a model without mooring loads, naming the kinds that would be."""
    from floatwind.loads import registry

    return f"the model has no {' or '.join(registry.kinds(lambda c: c.is_mooring))} load"


def in_still_water(model: Model) -> tuple[Model, str]:
    """The model with its sea replaced by still water (the statics' sea: a static equilibrium
    with the waves' force at t = 0 in it is one instant of the sea, not a rest), and a few words
    saying which environment the statics then include: still water, and the wind at t = 0 where
    the model has one (a steady wind's thrust is a static load)."""
    import dataclasses

    from floatwind.environment.base import NoWind, StillWater

    still = dataclasses.replace(model, env=dataclasses.replace(model.env, sea=StillWater()))
    wind = getattr(model.env, "wind", None)
    words = "in still water" + ("" if wind is None or isinstance(wind, NoWind)
                                else ", with the wind at t = 0")  # fmt: skip
    return still, words


def _rotvec(phi: np.ndarray) -> np.ndarray:
    """Rotation matrices (P, 3, 3) of rotation vectors phi (P, 3) (Rodrigues)."""
    out = np.empty((phi.shape[0], 3, 3))
    for k, v in enumerate(phi):
        a = float(np.linalg.norm(v))
        K = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
        if a == 0.0:
            out[k] = np.eye(3)
        else:
            out[k] = np.eye(3) + np.sin(a) / a * K + (1 - np.cos(a)) / a**2 * (K @ K)
    return out


def rest_pose(model: Model, body: int) -> tuple[np.ndarray, np.ndarray]:
    """Origin (3,) and rotation (3, 3) of ``body``'s reference frame at the model's initial
    state with zero velocities (member 0)."""
    from floatwind.simulate.system import System

    system = System(model)
    y = system.initial_state()[:1].copy()
    y[:, 6 : system.n_rigid] = 0.0  # at rest; the loads' own states (line nodes) kept
    return pose_of_state(model, system, y, body)


def pose_of_state(model, system, y, body):
    ev = system.evaluate(0.0, y)
    R = ev.kin.R_b2g[0, body]
    origin = ev.kin.r_G_g[0, body] - R @ model.tree.bodies[body].cm_b
    return origin, R


def mooring_wrench(
    model: Model, origin_g: np.ndarray, R_b2g: np.ndarray
) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """Total mooring force (P, 3) and moment (P, 3) about the body reference point (inertial
    axes) and the loads' channels, at P poses of the moored body (origin (P, 3), R (P, 3, 3))."""
    loads = mooring_loads(model)
    if not loads:
        raise ValueError(no_mooring_message())
    origin_g = np.atleast_2d(origin_g)
    R_b2g = R_b2g.reshape(-1, 3, 3)
    P = origin_g.shape[0]
    N = model.tree.n_bodies
    cm_b = np.array([b.cm_b for b in model.tree.bodies])
    R = np.repeat(R_b2g[:, None], N, axis=1)
    r_G = origin_g[:, None, :] + np.einsum("pij,nj->pni", R_b2g, cm_b)
    z = np.zeros((P, N, 3))
    kin = Kinematics(t=0.0, r_G_g=r_G, R_b2g=R, v_G_g=z, w_b_g=z.copy(), cm_b=cm_b)
    force = np.zeros((P, 3))
    moment = np.zeros((P, 3))
    channels: dict[str, np.ndarray] = {}
    for ld in loads:
        w = ld.wrench(0.0, kin, model.env)
        f = w.force[:, ld.body]
        arm = r_G[:, ld.body] - origin_g  # body CM from the reference point
        force += f
        moment += w.moment[:, ld.body] + np.cross(arm, f)
        channels.update(w.channels)
    return force, moment, channels


def mooring_stiffness(
    model: Model, origin_g: np.ndarray, R_b2g: np.ndarray, steps=(1e-3, 1e-5)
) -> np.ndarray:
    """Linearised mooring stiffness K (6, 6) about a pose: F = -K q (AddCLin convention), q =
    (translations, small rotations about the inertial axes), moments about the displaced
    reference point. Central differences, all 12 poses in one batched call."""
    dq = np.zeros((12, 6))
    for j in range(6):
        h = steps[0] if j < 3 else steps[1]
        dq[2 * j, j] = h
        dq[2 * j + 1, j] = -h
    origin = origin_g[None] + dq[:, :3]
    R = np.einsum("pij,jk->pik", _rotvec(dq[:, 3:]), R_b2g)
    f, m, _ = mooring_wrench(model, origin, R)
    w = np.concatenate([f, m], axis=1)
    K = np.empty((6, 6))
    for j in range(6):
        h = steps[0] if j < 3 else steps[1]
        K[:, j] = -(w[2 * j] - w[2 * j + 1]) / (2 * h)
    return K


def offset_curve(
    model: Model, origin_g: np.ndarray, R_b2g: np.ndarray, surge: np.ndarray
) -> dict[str, np.ndarray]:
    """Mooring force, moment and line channels at the pose moved by ``surge`` (P,) along x."""
    surge = np.asarray(surge, dtype=float)
    origin = origin_g[None] + np.outer(surge, [1.0, 0.0, 0.0])
    f, m, ch = mooring_wrench(model, origin, np.repeat(R_b2g[None], surge.size, axis=0))
    out = {"surge": surge, "Fx": f[:, 0], "Fy": f[:, 1], "Fz": f[:, 2], "My": m[:, 1]}
    out.update(ch)
    return out
