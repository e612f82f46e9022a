"""A floatwind tree of rigid bodies (``floatwind.multibody.tree``: base body + prescribed joints)
written with the MBDM joint library, Leble (seed 001) sec. 2.4, 4 (issue 19, item 7).

Each tree body is an MBDM body with its frame at the centre of mass and the tree body's axes
(r = CM, eq. 29); the base body is free (six degrees of freedom); each tree joint (parent p,
child c, joint point r_J_p / r_J_c, axis a in the child frame, zero-angle orientation R0_c2p,
rotation theta(t) about a) becomes

* a revolute joint R (eq. 19) at the joint point, its axis R0_c2p a in the parent frame and a in
  the child frame, and
* a revolute driver RDRV (eqs. 22-27) about the same axis with reference vectors R0_c2p n on the
  parent and n on the child (n normal to a), so theta = atan2(g_p . f_c, f_p . f_c) is the tree's
  joint angle; C(t) = theta0 + rate t (the driver of Table 26: locked or constant-rate motions);
* or, for a joint with its own degree of freedom (a ``drive``, docs/multibody.md "Joint DOFs"),
  no driver but a :class:`~floatwind.multibody.mbdm.forces.RotationalSpringDamper` between
  parent and child about the same axis with the same reference vectors (so its angle is the
  tree's joint angle): tau = -K (theta - theta_c(t)) - C (theta' - theta_c'(t)) (+ a constant
  torque and a torque-versus-rate table) on the child, the opposite on the parent, theta_c the
  joint's ``rotation`` motion (the drive laws of ``floatwind.multibody.drives``; a free drive is
  the element with no torque). A geared follower (``gear``) has no MBDM form here.

The loads go through floatwind's Load contract on both sides (``DynamicSystem.floatwind_loads``,
Kinematics with ``cm_b`` = the tree's CMs, so load points stay in the tree bodies' reference
frames). :func:`initial_state` turns a tree state (system CM and 1-2-3 angles, Wang 5.10) into
consistent MBDM coordinates (eq. 29) and velocities (eq. 40), the free joints at their drives'
initial angles and rates (``floatwind.multibody.drives.initial_state``) or at given ones.
"""

from __future__ import annotations

import numpy as np

from floatwind.errors import CaseError
from floatwind.multibody.mbdm.constraints import Joint
from floatwind.multibody.mbdm.coordinates import pdot_from_omega
from floatwind.multibody.mbdm.dynamics import DynamicSystem, assemble
from floatwind.multibody.mbdm.forces import RotationalSpringDamper
from floatwind.multibody.mbdm.kinematics import System
from floatwind.multibody.motion import ConstantRate, Locked
from floatwind.rotation import quaternion_from_matrix

__all__ = ["initial_state", "joint_angles", "system_from_tree"]


def _normal(a: np.ndarray) -> np.ndarray:
    """A unit vector normal to the unit vector a."""
    e = np.eye(3)[int(np.argmin(np.abs(a)))]
    n = e - (e @ a) * a
    return n / np.linalg.norm(n)


def system_from_tree(tree, loads=(), env=None, *, gravity=(0.0, 0.0, 0.0)) -> DynamicSystem:
    """The MBDM model of ``tree`` with floatwind Load objects ``loads`` (evaluated with ``env``).
    Gravity is best given as a load (``floatwind.loads.simple.Gravity``), as the tree's runs do;
    ``gravity`` adds m g per body on the MBDM side."""
    joints = []
    elements = []
    names = [b.name for b in tree.bodies]
    for c in tree.order[1:]:
        j = tree.joint_of[c]
        p = j.parent
        rot, slide = j.rotation, j.slide
        if not (isinstance(slide, Locked) and slide.value == 0.0):
            raise CaseError(f"joint '{j.name}': a prescribed slide has no MBDM driver here",
                            field=j.name)  # fmt: skip
        if j.gear is not None:
            raise CaseError(f"joint '{j.name}': a geared follower has no MBDM form here (it "
                            "would need a gear constraint)", field=j.name)  # fmt: skip
        if j.drive is not None:
            pass  # a joint DOF: R below and a rotational spring-damper, no driver
        elif isinstance(rot, Locked):
            theta0, rate = float(rot.value), 0.0
        elif isinstance(rot, ConstantRate):
            theta0, rate = float(rot.q0), float(rot.rate)
        else:
            raise CaseError(f"joint '{j.name}': only locked and constant-rate motions have an "
                            "RDRV driver (C(t) = theta0 + rate t, Table 26)", field=j.name)  # fmt: skip
        a = j.axis
        a_p = j.R0_c2p @ a  # the axis in the parent frame (Rot(a, theta) a = a)
        n = _normal(a)
        sp = j.r_J_p - tree.cm_b[p]  # the joint point from each CM (MBDM frames at the CMs)
        sc = j.r_J_c - tree.cm_b[c]
        rp = sp + j.R0_c2p @ n
        joints.append(Joint("R", (p, c), p1=tuple(sp), q1=tuple(sp + a_p), r1=tuple(rp),
                            p2=tuple(sc), q2=tuple(sc + a), name=f"{j.name}_revolute"))  # fmt: skip
        if j.drive is not None:
            # the RDRV angle definition (eqs. 22-27) with the driver's vectors: h_p = R0_c2p a,
            # f_p = R0_c2p n on the parent, f_c = n on the child, so theta is the tree's angle
            elements.append(RotationalSpringDamper(
                (p, c), axis=tuple(a_p), ref_i=tuple(j.R0_c2p @ n), ref_j=tuple(n),
                drive=j.drive, command=rot, name=f"{j.name}_drive"))  # fmt: skip
            continue
        joints.append(Joint("RDRV", (p, c), p1=tuple(j.R0_c2p @ n), q1=tuple(a_p),
                            r1=(theta0, 0.0, 0.0), p2=tuple(n), dist=rate,
                            name=f"{j.name}_driver"))  # fmt: skip
    return DynamicSystem(System(tuple(names), tuple(joints)), tree.mass, tree.inertia_b,
                         gravity=tuple(gravity), forces=tuple(elements),
                         floatwind_loads=tuple(loads), env=env, cm_b=tree.cm_b)  # fmt: skip


def joint_angles(dsys: DynamicSystem, q, qdot) -> dict[str, tuple[float, float]]:
    """(theta, theta') of every free joint's element (name ``<joint>_drive``) at MBDM (q, qdot)
    (nb, 7): the RDRV angle atan2(g_p . f_c, f_p . f_c) and (omega_c - omega_p) . h_p."""
    return {fe.name[: -len("_drive")]: (fe.angle(q), fe.rate(q, qdot)) for fe in dsys.forces
            if isinstance(fe, RotationalSpringDamper)}  # fmt: skip


def initial_state(dsys: DynamicSystem, tree, t: float, q, qd,
                  dofs=None) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """MBDM (q, qdot) (nb, 7) of the tree state q, qd (6,) [system CM, 1-2-3 angles] at ``t``
    from the tree's body kinematics (Wang 5.10), made consistent by :func:`assemble`. The free
    joints (``tree.dofs``) are at ``dofs`` = (theta (n_dofs,), theta' (n_dofs,)), by default at
    their drives' initial states (``floatwind.multibody.drives.initial_state``: the drive's
    ``initial``, else the joint's ``rotation`` motion at 0)."""
    from floatwind.multibody.mcm import (
        body_kinematics,
        dof_initial_state,
        mass_distribution,
        relative_kinematics,
    )

    if tree.n_dofs:
        th, thd = dof_initial_state(tree) if dofs is None else dofs
        dofs = (np.asarray(th, dtype=float).reshape(1, tree.n_dofs),
                np.asarray(thd, dtype=float).reshape(1, tree.n_dofs))  # fmt: skip
        rel = relative_kinematics(tree, t, dofs)
    else:
        rel = relative_kinematics(tree, t)
    md = mass_distribution(tree, rel)
    kin = body_kinematics(tree, t, rel, md, np.asarray(q, float).reshape(1, 6),
                          np.asarray(qd, float).reshape(1, 6))  # fmt: skip
    p = quaternion_from_matrix(kin.R_b2g[0])
    w_b = np.einsum("kji,kj->ki", kin.R_b2g[0], kin.w_b_g[0])  # omega' = A^T omega
    q0 = np.concatenate([kin.r_G_g[0], p], axis=1)
    qd0 = np.concatenate([kin.v_G_g[0], pdot_from_omega(p, w_b)], axis=1)
    return assemble(dsys.system, q0, qd0, t)
