"""RNA moments and gyroscopic moments on the tower top (Wang sec. III.C.5, eqs. 3.27-3.28).

Wang's RNA frame (A, B, C) has B along the spin axis and C up; with floatwind's nacelle frame
(x_n downwind along the untilted shaft, z_n up) that is A = -y_n, B = x_n, C = z_n.

* RNA moment (3.27): the reaction of sum M_R = dH_GR/dt, i.e. ``-dH_GR/dt`` of the subtree of the
  yaw joint about its own (moving) CM, with dH_GR/dt = sum_i [dH_Gi/dt + rho_{Gi/GR} x m_i a_Gi]
  computed analytically from the forward solution (no numerical differentiation).
* Gyroscopic moment (3.28): M_gyro = -omega_n x H_gyro with H_gyro = I_spin * psi_dot along the
  spin axis; in (A, B, C) and without shaft tilt it is (I_B psi_dot w_nC, 0, -I_B psi_dot w_nA).
  I_spin is the inertia of the spin joint's subtree about the spin axis (hub + blades).
"""

from __future__ import annotations

import numpy as np

from floatwind.multibody.inverse import _joint_index, body_inertial_wrench
from floatwind.multibody.tree import Tree
from floatwind.rotation.vec import cross, matvec

#: nacelle axes -> Wang's (A, B, C): A = -y_n, B = x_n, C = z_n
R_N2ABC = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])


def spin_inertia(tree: Tree, ev, spin_joint: str | int = "spin") -> np.ndarray:
    """Inertia (B,) of the spin joint's subtree about the spin axis line (kg m^2)."""
    c = _joint_index(tree, spin_joint)
    j = tree.joint_of[c]
    kin = ev.kin
    a_g = matvec(kin.R_b2g[:, c], j.axis)  # (B, 3)
    p = kin.r_G_g[:, c] + matvec(kin.R_b2g[:, c], j.r_J_c - tree.cm_b[c])
    total = np.zeros(a_g.shape[0])
    for i in tree.subtree(c):
        R = kin.R_b2g[:, i]
        a_b = matvec(np.swapaxes(R, -1, -2), a_g)
        d = kin.r_G_g[:, i] - p
        d_perp = d - np.einsum("bi,bi->b", d, a_g)[:, None] * a_g
        total += np.einsum("bi,ij,bj->b", a_b, tree.inertia_b[i], a_b) + tree.mass[i] * np.einsum(
            "bi,bi->b", d_perp, d_perp
        )
    return total


def gyro_moment(tree: Tree, ev, spin_joint: str | int = "spin") -> np.ndarray:
    """Gyroscopic moment (B, 3) of the spinning subtree on its parent, parent axes (Wang 3.28)."""
    c = _joint_index(tree, spin_joint)
    j = tree.joint_of[c]
    n = tree.parent[c]
    rate = ev.rel.joint_q[j.name][1]
    R_n = ev.kin.R_b2g[:, n]
    Rt = np.swapaxes(R_n, -1, -2)
    w_n = matvec(Rt, ev.kin.w_b_g[:, n])  # nacelle angular velocity, nacelle axes
    a_n = matvec(Rt, matvec(ev.kin.R_b2g[:, c], j.axis))  # spin axis, nacelle axes
    H = (spin_inertia(tree, ev, spin_joint) * rate)[:, None] * a_n
    return -cross(w_n, H)  # (3.28)


def rna_moment(
    tree: Tree, ev, yaw_joint: str | int = "yaw", parts: tuple | None = None
) -> np.ndarray:
    """RNA moment (B, 3) on the tower top, -dH_GR/dt about the RNA CM, nacelle axes (Wang 3.27).
    ``parts``: ``inverse.wrench_parts`` of ``ev`` when the caller has them (the same numbers)."""
    c = _joint_index(tree, yaw_joint)
    idx = np.asarray(tree.subtree(c))
    ma, dH = parts[2:] if parts is not None else body_inertial_wrench(tree, ev)
    m = tree.mass[idx]
    r = ev.kin.r_G_g[:, idx]
    r_GR = (m[None, :, None] * r).sum(axis=1) / m.sum()
    dH_GR = (dH[:, idx] + cross(r - r_GR[:, None], ma[:, idx])).sum(axis=1)
    Rt = np.swapaxes(ev.kin.R_b2g[:, c], -1, -2)
    return -matvec(Rt, dH_GR)


def gyro_channels(tree: Tree, ev, parts: tuple | None = None) -> dict[str, np.ndarray]:
    """``MgyroA..C`` and ``MRNAA..C`` (B,) in Wang's (A, B, C) axes (``parts``: as
    :func:`rna_moment`'s)."""
    Mg = gyro_moment(tree, ev) @ R_N2ABC.T
    Mr = rna_moment(tree, ev, parts=parts) @ R_N2ABC.T
    out = {}
    for k, ax in enumerate("ABC"):
        out[f"Mgyro{ax}"] = Mg[:, k]
        out[f"MRNA{ax}"] = Mr[:, k]
    return out
