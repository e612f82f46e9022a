"""Inverse dynamics: internal loads at joints from a forward MCM solution (Wang sec. V.C, 5.27-5.28).

The tree is cut at a joint J into the outboard subsystem s1 (the joint's child and everything
outboard of it) and the rest. Newton's second law and the moment-of-momentum theorem applied to
s1 give the load that crosses the joint:

    sum_{i in s1} F_i + F_J = m_s1 a_Gs1                                            (5.27)
    sum_{i in s1} (M_i + rho_{Gi/Gs1} x F_i) + rho_{J/Gs1} x F_J + M_J = dH_Gs1/dt     (5.28)

Unlike the dissertation (which differentiated saved CM trajectories numerically), the inertial
side is computed analytically from the forward solution at the same instant: with the body
accelerations a_Gi, alpha_i of :class:`~floatwind.multibody.mcm.Accelerations`,
m_s1 a_Gs1 = sum m_i a_Gi and, about any point P,
dH_P/dt = sum [dH_Gi/dt + (r_Gi - P) x m_i a_Gi], dH_Gi/dt = I_i alpha_i + w_i x I_i w_i.
(5.28) is evaluated about the joint point P = J, which is equivalent to G_s1 and removes F_J.

Sign convention (OpenFAST's): the returned load is the one **exerted by the child subtree on the
parent** at the joint point, e.g. YawBr*p = load of the RNA on the tower top, Root*b1 = load of
blade 1 on the hub. Acceleration-dependent external loads (``Wrench.added_mass``) are included.

All functions take the frozen :class:`~floatwind.multibody.tree.Tree` and an ``Evaluation``
(``floatwind.simulate.system.Evaluation``: ``kin``, ``wrench``, ``acc``) and are batched (B, ...).
"""

from __future__ import annotations

import logging

import numpy as np

from floatwind.io.channels import CHANNELS as _IO_CHANNELS
from floatwind.multibody.tree import Tree
from floatwind.rotation.vec import cross, matvec

log = logging.getLogger(__name__)

#: channels written by :func:`channels_for` (SI units): name -> (units, long_name); they live in
#: the read-only table of :mod:`floatwind.io.channels`
CHANNELS: dict[str, tuple[str, str]] = {
    k: v for k, v in _IO_CHANNELS.items() if k.startswith(("YawBr", "TwrBs", "Root", "Mgyro", "MRNA"))
}


def register_channels() -> None:
    """Kept for old callers: the channels are in :mod:`floatwind.io.channels` already."""


def _joint_index(tree: Tree, joint: str | int) -> int:
    """Child-body index of a joint given by name (or by child index)."""
    if isinstance(joint, (int, np.integer)):
        return int(joint)
    for child, j in tree.joint_of.items():
        if j.name == joint:
            return child
    raise KeyError(f"no joint named {joint!r}; joints: {[j.name for j in tree.joint_of.values()]}")


def external_wrench(ev) -> tuple[np.ndarray, np.ndarray]:
    """Total external force and moment about each body CM (B, N, 3), inertial axes, including the
    acceleration-dependent part ``-added_mass @ [a_G; alpha]`` (Load contract rule 3)."""
    F, M = ev.wrench.force, ev.wrench.moment
    A = ev.wrench.added_mass
    if A is not None:
        u = np.concatenate([ev.acc.a_G_g, ev.acc.dw_b_g], axis=-1)
        f = -matvec(A, u)
        F = F + f[..., 0:3]
        M = M + f[..., 3:6]
    return F, M


def body_inertial_wrench(tree: Tree, ev, bodies=None) -> tuple[np.ndarray, np.ndarray]:
    """m_i a_Gi and dH_Gi/dt = I_i alpha_i + w_i x I_i w_i (B, N, 3), inertial axes (Euler's eq.);
    ``bodies`` (indices): those bodies only (B, len(bodies), 3), the same numbers."""
    kin, acc = ev.kin, ev.acc
    idx = slice(None) if bodies is None else np.asarray(bodies)
    R = kin.R_b2g[:, idx]
    I_g = R @ tree.inertia_b[idx][None] @ np.swapaxes(R, -1, -2)
    w = kin.w_b_g[:, idx]
    ma = tree.mass[None, idx, None] * acc.a_G_g[:, idx]
    dH = matvec(I_g, acc.dw_b_g[:, idx]) + cross(w, matvec(I_g, w))
    return ma, dH


def joint_point(tree: Tree, ev, joint: str | int) -> np.ndarray:
    """Inertial position (B, 3) of the joint point."""
    c = _joint_index(tree, joint)
    j = tree.joint_of[c]
    p = j.parent
    return ev.kin.r_G_g[:, p] + matvec(ev.kin.R_b2g[:, p], j.r_J_p - tree.cm_b[p])


def wrench_parts(tree: Tree, ev) -> tuple[np.ndarray, ...]:
    """(F, M, m a_G, dH_G/dt) of every body (B, N, 3), inertial axes: the two sides of every
    subsystem's balance (:func:`external_wrench`, :func:`body_inertial_wrench`), which depend on
    the evaluation only; computed once for all the joints of one evaluation (``parts`` of
    :func:`subsystem_loads` and :func:`joint_loads`; issue 41)."""
    return (*external_wrench(ev), *body_inertial_wrench(tree, ev))


def subsystem_loads(
    tree: Tree, ev, bodies: list[int], point_g: np.ndarray, parts: tuple | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Load (B, 3) + (B, 3), inertial axes, that the *rest* of the tree must exert on the subsystem
    ``bodies`` at ``point_g`` (moment about it): Wang (5.27) and (5.28) solved for F_J, M_J.
    ``parts``: :func:`wrench_parts` of ``ev`` when the caller has them (the same numbers)."""
    idx = np.asarray(bodies)
    if parts is not None:
        F, M, ma, dH = parts
        ma, dH = ma[:, idx], dH[:, idx]
    else:
        F, M = external_wrench(ev)
        ma, dH = body_inertial_wrench(tree, ev, idx)  # the subsystem's bodies only
    arm = ev.kin.r_G_g[:, idx] - point_g[:, None]
    F_J = (ma - F[:, idx]).sum(axis=1)  # (5.27): F_J = m_s1 a_Gs1 - sum F_i
    M_J = (dH + cross(arm, ma) - M[:, idx] - cross(arm, F[:, idx])).sum(axis=1)  # (5.28)
    return F_J, M_J


def joint_loads(
    tree: Tree, ev, joint: str | int, *, axes: str = "parent", parts: tuple | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Load exerted by the child subtree on the parent at ``joint`` (one-joint case, 5.27-5.28).

    Parameters
    ----------
    tree : Tree
    ev : Evaluation
        ``floatwind.simulate.system.Evaluation`` at one time (B members).
    joint : str or int
        Joint name (or the index of its child body).
    axes : {'parent', 'child', 'inertial'}
        Frame of the returned components.
    parts : tuple, optional
        :func:`wrench_parts` of ``ev`` (the loads at several joints of one evaluation share
        them).

    Returns
    -------
    F, M : (B, 3)
        Force (N) and moment about the joint point (N m).
    """
    c = _joint_index(tree, joint)
    P = joint_point(tree, ev, c)
    F_J, M_J = subsystem_loads(tree, ev, tree.subtree(c), P, parts)
    F, M = -F_J, -M_J  # reaction: load of the subtree on the parent
    if axes == "inertial":
        return F, M
    body = {"parent": tree.parent[c], "child": c}.get(axes)
    if body is None:
        raise ValueError(f"axes must be 'parent', 'child' or 'inertial', got {axes!r}")
    Rt = np.swapaxes(ev.kin.R_b2g[:, body], -1, -2)
    return matvec(Rt, F), matvec(Rt, M)


def two_joint_loads(
    tree: Tree, ev, inner: str | int, outer: str | int, *, axes: str = "inertial"
) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """Loads at two joints bounding a middle subsystem (Wang's two-joint case, sec. V.C).

    ``outer`` must lie in the subtree of ``inner``. The tree is split into three subsystems: the
    outer subtree s2, the middle part s1 = subtree(inner) minus s2, and the rest. (5.27)-(5.28)
    applied to s2 give the outer load; applied to s1 with that load known they give the inner one.
    (In an open tree the two balances decouple; Wang's simultaneous solution is needed only for a
    closed loop, which :class:`Tree` does not represent.) Returns ``((F_in, M_in), (F_out, M_out))``,
    each the load of the child side on the parent side, moments about the respective joint point.
    """
    ci, co = _joint_index(tree, inner), _joint_index(tree, outer)
    s2 = tree.subtree(co)
    if co not in tree.subtree(ci) or co == ci:
        raise ValueError("the outer joint must lie outboard of the inner joint")
    s1 = [b for b in tree.subtree(ci) if b not in s2]
    P_in, P_out = joint_point(tree, ev, ci), joint_point(tree, ev, co)
    parts = wrench_parts(tree, ev)
    F2, M2 = subsystem_loads(tree, ev, s2, P_out, parts)  # load of the middle on s2
    F1, M1 = subsystem_loads(tree, ev, s1, P_in, parts)  # needs: rest on s1 + s2 on s1
    # s2 pushes on s1 with (-F2, -M2) at P_out: move it out of the balance of s1
    F1 = F1 + F2
    M1 = M1 + M2 + cross(P_out - P_in, F2)
    out = []
    for (F, M), c in (((-F1, -M1), ci), ((-F2, -M2), co)):
        if axes != "inertial":
            body = tree.parent[c] if axes == "parent" else c
            Rt = np.swapaxes(ev.kin.R_b2g[:, body], -1, -2)
            F, M = matvec(Rt, F), matvec(Rt, M)
        out.append((F, M))
    return out[0], out[1]
