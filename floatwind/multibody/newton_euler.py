"""Independent Newton-Euler forward dynamics of a tree with prescribed joints (cross-check, baseline).

A straightforward per-body formulation that shares nothing with the MCM (:mod:`.mcm`) except the
rotation utilities: absolute kinematics are propagated body by body from the base in the
inertial frame (velocity and acceleration recursion of a revolute + prismatic joint), every body
acceleration is written as an affine function of the base-body CM acceleration a_1 and angular
acceleration alpha_1,

    a_i = a_1 + alpha_1 x (r_i - r_1) + c_i,        alpha_i = alpha_1 + d_i,

and Newton's and Euler's equations of all bodies, m_i a_i = F_i and I_i alpha_i + w_i x I_i w_i =
M_i, are summed (internal joint loads cancel) into a 6x6 system for (a_1, alpha_1) about the
base CM. Acceleration-dependent loads (``Wrench.added_mass``) go to the left side body by body.
The Euler-angle accelerations then follow from alpha_1 (Wang 5.24 inverted).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from floatwind.multibody.tree import Tree
from floatwind.rotation import euler123_matrix, omega_from_euler_rates, re_vector, skew, t_omega
from floatwind.rotation.rotvec import axis_angle_matrix
from floatwind.rotation.vec import cross, matvec


@dataclass
class NEResult:
    """Body kinematics and accelerations (B, N, ...) inertial axes; qdd (B, 6) in the MCM state."""

    r_G_g: np.ndarray
    v_G_g: np.ndarray
    R_b2g: np.ndarray
    w_b_g: np.ndarray
    a_G_g: np.ndarray
    dw_b_g: np.ndarray
    qdd: np.ndarray


def forward_dynamics_ne(
    tree: Tree,
    t: float,
    q: np.ndarray,
    qd: np.ndarray,
    force: np.ndarray,
    moment: np.ndarray,
    added_mass: np.ndarray | None = None,
) -> NEResult:
    """Newton-Euler forward dynamics for state (q, qd) (B, 6) in the MCM coordinates.

    ``force``/``moment`` (B, N, 3): external load on each body, inertial axes, moment about the
    body CM; ``added_mass`` (B, N, 6, 6) optional (Load contract rule 3).
    """
    B, N = q.shape[0], tree.n_bodies
    R = np.zeros((B, N, 3, 3))
    r = np.zeros((B, N, 3))
    v = np.zeros((B, N, 3))
    w = np.zeros((B, N, 3))
    c = np.zeros((B, N, 3))  # bias translational acceleration (a_1 = alpha_1 = 0)
    d = np.zeros((B, N, 3))  # bias angular acceleration
    R[:, 0] = euler123_matrix(q[:, 3:6])
    w[:, 0] = matvec(R[:, 0], omega_from_euler_rates(q[:, 3:6], qd[:, 3:6]))
    for i in tree.order[1:]:
        j = tree.joint_of[i]
        p = j.parent
        th, thd, thdd = j.rotation.evaluate(t)
        s, sd, sdd = j.slide.evaluate(t)
        R[:, i] = R[:, p] @ (j.R0_c2p @ axis_angle_matrix(j.axis, np.asarray(th)))
        ax = matvec(R[:, i], j.axis)
        w[:, i] = w[:, p] + ax * thd
        arm_p = matvec(R[:, p], j.r_J_p - tree.cm_b[p])  # parent CM -> joint
        arm_c = matvec(R[:, i], tree.cm_b[i] - j.r_J_c) + ax * s  # joint -> child CM
        r[:, i] = r[:, p] + arm_p + arm_c
        v[:, i] = v[:, p] + cross(w[:, p], arm_p) + cross(w[:, i], arm_c) + ax * sd
        d[:, i] = d[:, p] + cross(w[:, p], ax) * thd + ax * thdd
        wp, wi = w[:, p], w[:, i]
        c[:, i] = (
            c[:, p]
            + cross(d[:, p], arm_p)
            + cross(wp, cross(wp, arm_p))
            + cross(d[:, i], arm_c)
            + cross(wi, cross(wi, arm_c))
            + 2.0 * cross(wi, ax) * sd
            + ax * sdd
        )
        # the d_i x arm terms above carry only the bias part; alpha_1 enters through rho below
    m = tree.mass
    M = tree.total_mass
    r_bar = (m[None, :, None] * r).sum(axis=1) / M
    r = q[:, None, 0:3] + r - r_bar[:, None]  # base placed so that the system CM is at X1..X3
    v_bar = (m[None, :, None] * v).sum(axis=1) / M
    v = qd[:, None, 0:3] + v - v_bar[:, None]
    rho = r - r[:, 0:1]
    I_g = R @ tree.inertia_b[None] @ np.swapaxes(R, -1, -2)
    Mb = np.zeros((B, N, 6, 6))
    Mb[..., 0:3, 0:3] = m[None, :, None, None] * np.eye(3)
    Mb[..., 3:6, 3:6] = I_g
    if added_mass is not None:
        Mb = Mb + added_mass
    J = np.zeros((B, N, 6, 6))
    J[..., 0:3, 0:3] = np.eye(3)
    J[..., 0:3, 3:6] = -skew(rho)
    J[..., 3:6, 3:6] = np.eye(3)
    G = np.swapaxes(J, -1, -2)  # [[I, 0], [skew(rho), I]]: moments about the base CM
    bias = np.concatenate([c, d], axis=-1)
    load = np.concatenate([force, moment - cross(w, matvec(I_g, w))], axis=-1)
    GM = G @ Mb
    A = (GM @ J).sum(axis=1)
    rhs = (matvec(G, load) - matvec(GM, bias)).sum(axis=1)
    u = np.linalg.solve(A, rhs[..., None])[..., 0]
    a1, al1 = u[:, 0:3], u[:, 3:6]
    a = a1[:, None] + cross(al1[:, None], rho) + c
    al = al1[:, None] + d
    qdd = np.zeros((B, 6))
    qdd[:, 0:3] = (m[None, :, None] * a).sum(axis=1) / M
    dw_b = matvec(np.swapaxes(R[:, 0], -1, -2), al1)  # body-axes derivative of omega (5.24)
    ang, rates = q[:, 3:6], qd[:, 3:6]
    qdd[:, 3:6] = np.linalg.solve(t_omega(ang), (dw_b - re_vector(ang, rates))[..., None])[..., 0]
    return NEResult(r, v, R, w, a, al, qdd)
