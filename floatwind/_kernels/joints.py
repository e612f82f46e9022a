"""Compiled forward dynamics of a tree with joint degrees of freedom (docs/multibody.md, "Joint
DOFs"): the kernels of :func:`floatwind.multibody.mcm.forward_dynamics_dofs` and of the per-member
relative kinematics, for the fused right-hand side (:func:`floatwind._kernels.fused.system_rhs`).

The state holds, after the 12 rigid-body columns, the angles (``12 .. 12 + nf``) and rates
(``12 + nf .. 12 + 2 nf``) of the free joints. Per member:

* :func:`member_kinematics`: the relative kinematics and momentum coefficients (Wang 5.14-5.23)
  with the joint DOFs' angle and rate from the state (zero joint acceleration) and the prescribed
  joints' motions at the grid time (``floatwind._kernels.mcm.rel_table`` on one row per member),
  and the body kinematics (Wang 5.10);
* :func:`drive_rows`: the drives' torques (``floatwind.multibody.drives``);
* :func:`forward_dynamics_dofs`: the base rows of Wang (5.26) with the joint accelerations in
  dQ, and per DOF the axial moment of momentum (5.28) of the outboard subtree about the joint
  point (written with partial velocities), solved together per member.

Every member goes through the same operations in the same order whatever B (bit-identical
alone and in a batch).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from floatwind._kernels import loads as kl
from floatwind._kernels import mcm as km
from floatwind.jit import njit

__all__ = [
    "DofParams", "drive_torques", "dyn_size", "dynamics_rows", "forward_dynamics_dofs",
    "kin_size", "member_kinematics",
]


class DofParams(NamedTuple):
    """The tree and the drives of a model with joint DOFs (``n`` = 0: none; then the arrays are
    placeholders and never read)."""

    n: int  # number of joint DOFs
    order: np.ndarray  # (N,) int64 topological order
    parent: np.ndarray  # (N,) int64
    axis: np.ndarray  # (N, 3) joint axis (child frame) per child body
    R0_c2p: np.ndarray  # (N, 3, 3)
    rJp: np.ndarray  # (N, 3) r_J_p - cm_b[parent]
    uc: np.ndarray  # (N, 3) cm_b[child] - r_J_c
    mass: np.ndarray  # (N,)
    inertia_b: np.ndarray  # (N, 3, 3)
    total_mass: float
    cm_b: np.ndarray  # (N, 3)
    dof_of: np.ndarray  # (N,) int64: DOF whose angle a joint takes (-1 prescribed)
    dof_ratio: np.ndarray  # (N,) gear ratio (1 for the free joint itself)
    dof_offset: np.ndarray  # (N,) gear offset (rad)
    dof_child: np.ndarray  # (nf,) int64 child body of each free joint
    sub: np.ndarray  # (N, N) int64: 1 where body i is outboard of (or is) child body c: sub[c, i]
    stiffness: np.ndarray  # (nf,)
    damping: np.ndarray  # (nf,)
    torque0: np.ndarray  # (nf,)
    table_n: np.ndarray  # (nf,) int64
    table_x: np.ndarray  # (nf, n_max)
    table_y: np.ndarray  # (nf, n_max)
    motion: np.ndarray  # (T, N, 6) joint motions at the grid times (free joints: the command)
    ws_kin: np.ndarray  # (kin_size(B, N),) scratch of the kinematics of B members (member_kinematics)
    ws_dyn: np.ndarray  # (dyn_size(B, N, nf),) scratch of their dynamics (dynamics_rows)


# The right-hand side of a model with joint DOFs runs four times a step. Its arrays are carved out
# of two flat scratch arrays of the run (DofParams.ws_kin, ws_dyn, sized for its batch by
# kin_size, dyn_size) instead of ~90 allocations per evaluation, and the kernels that fill them
# allocate nothing and return no array, so they are compiled without the numba runtime's
# reference counting (``_nrt=False``, as floatwind._kernels.mbdm): with it, every array of a
# record passed to a function, every view and every scratch array cost an atomic increment and
# decrement, about a third of ref03's step. Every region is written before it is read in each
# evaluation: nothing is carried from one evaluation to the next, and a member alone and in a
# batch go through the same operations.


def kin_out_size(B: int, N: int) -> int:
    """The length of the outputs at the start of ``DofParams.ws_kin`` (:func:`member_kinematics`:
    the table ``rel`` of B rows and r_G, R_b2g, v_G, w_b, in blocks of one shape)."""
    return (B * N * 24 + B * 24) + B * N * 18


def kin_size(B: int, N: int) -> int:
    """The length of ``DofParams.ws_kin`` for ``B`` members of a tree of ``N`` bodies (the
    outputs, then the scratch of :func:`kinematics_rows`, in their order)."""
    return kin_out_size(B, N) + B * N * 6 + (N * 42 + 11 * 9 + 8 * 3) + 30


def dyn_size(B: int, N: int, nf: int) -> int:
    """The length of ``DofParams.ws_dyn`` (the regions of :func:`dynamics_rows` and
    :func:`forward_dynamics_dofs`, in their order)."""
    n = 6 + nf
    work = 9 + 9 + 3 * 9 + n * n + 2 * n + 27 + 36 + 3 + 72 + 6 * n + 6 + N * 6 * n + N * 9
    return B * (2 * nf + 6) + work + 2 * N * 3 * nf


@njit(cache=True, fastmath=False, inline="always")
def _take(buf, o, k):
    """buf[o:o + k] and o + k."""
    return buf[o : o + k], o + k


@njit(cache=True, fastmath=False, inline="always")
def member_kinematics(d, g, y):
    """The relative kinematics table with one row per member (leading axis B) at grid index
    ``g`` (the prescribed motions of ``d.motion[g]``, the joint DOFs from ``y``) and the body
    kinematics (Wang 5.10) r_G, R_b2g, v_G, w_b: views of the run's scratch ``d.ws_kin``
    (overwritten by the next evaluation), filled by :func:`kinematics_rows`."""
    B = y.shape[0]
    N = d.mass.shape[0]
    BN = B * N
    buf = d.ws_kin
    a, o = _take(buf, 0, 8 * BN * 3)  # one reshape per block of one shape
    v = a.reshape((8, B, N, 3))
    a, o = _take(buf, o, 2 * BN * 9)
    m = a.reshape((2, B, N, 3, 3))
    a, o = _take(buf, o, 2 * B * 9)
    bm = a.reshape((2, B, 3, 3))
    a, o = _take(buf, o, 2 * B * 3)
    bv = a.reshape((2, B, 3))
    r_G, R_b2g, v_G, w_b = v[5], m[1], v[6], v[7]
    rel = RelTableB(v[0], v[1], v[2], m[0], v[3], v[4], bm[0], bm[1], bv[0], bv[1], d.total_mass,
                    d.cm_b)  # fmt: skip
    kinematics_rows(d, g, y, rel, r_G, R_b2g, v_G, w_b, o)
    return rel, r_G, R_b2g, v_G, w_b


@njit(cache=True, fastmath=False, _nrt=False)
def kinematics_rows(d, g, y, rel, r_G, R_b2g, v_G, w_b, o):
    """Fill ``rel`` (:class:`RelTableB`, B rows) and r_G, R_b2g, v_G, w_b (B, N, ...) for the
    state ``y`` at grid index ``g``: the joint motions (:func:`motion_rows`), the compiled
    ``rel_table`` on one row per member, the body kinematics (Wang 5.10); the scratch from
    ``d.ws_kin[o:]``."""
    B = y.shape[0]
    N = d.mass.shape[0]
    buf = d.ws_kin
    a, o = _take(buf, o, B * N * 6)
    motion = a.reshape((B, N, 6))
    motion_rows(d, g, y, d.n, motion)
    # one reshape per block of scratch of one shape (a reshape calls numba's C helper; an
    # index of the block is a plain view)
    a, o = _take(buf, o, 3 * N * 9)
    n33 = a.reshape((3, N, 3, 3))
    a, o = _take(buf, o, 5 * N * 3)
    n3 = a.reshape((5, N, 3))
    a, o = _take(buf, o, 13 * 9)
    m = a.reshape((13, 3, 3))
    a, o = _take(buf, o, 12 * 3)
    v = a.reshape((12, 3))
    rt = km.RelScratch(n33[0], n33[1], n33[2], n3[0], n3[1], n3[2], n3[3], n3[4], m[0], m[1],
                       m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9], m[10], v[0], v[1], v[2],
                       v[3], v[4], v[5], v[6], v[7])  # fmt: skip
    km.rel_table_into(d, motion, rel, rt)
    km.body_kinematics_into(y[:, 0:6], y[:, 6:12], rel.rho, rel.drho, rel.R_c2s, rel.w_rel,
                            (r_G, R_b2g, v_G, w_b), (m[11], m[12], v[8], v[9], v[10], v[11]))
    return 0


@njit(cache=True, fastmath=False)
def rel_rows(d, motion):
    """The relative kinematics table (:class:`RelTableB`) of the tree ``d`` with the joint
    motions (B, N, 6) of each member (``floatwind._kernels.mcm.rel_table``)."""
    B = motion.shape[0]
    N = d.mass.shape[0]
    out = RelTableB(
        np.empty((B, N, 3)), np.empty((B, N, 3)), np.empty((B, N, 3)),
        np.empty((B, N, 3, 3)), np.empty((B, N, 3)), np.empty((B, N, 3)),
        np.empty((B, 3, 3)), np.empty((B, 3, 3)), np.empty((B, 3)), np.empty((B, 3)),
        d.total_mass, d.cm_b,
    )  # fmt: skip
    km.rel_table(
        d.order, d.parent, d.axis, d.R0_c2p, d.rJp, d.uc, d.mass, d.inertia_b, d.total_mass,
        motion, out,
    )  # fmt: skip
    return out


class RelTableB(NamedTuple):
    """Same fields as ``floatwind._kernels.fused.RelTable`` (one row per member)."""

    rho: np.ndarray
    drho: np.ndarray
    ddrho: np.ndarray
    R_c2s: np.ndarray
    w_rel: np.ndarray
    dw_rel: np.ndarray
    P: np.ndarray
    dP: np.ndarray
    Q: np.ndarray
    dQ: np.ndarray
    total_mass: float
    cm_b: np.ndarray


@njit(cache=True, fastmath=False)
def member_motion(d, g, y, nf):
    """The joint motions (B, N, 6) of every member at grid index ``g``: the prescribed ones of
    ``d.motion[g]``, the joint DOFs' angle and rate from ``y`` (``nf`` DOF columns of the state:
    the joints first; zero joint acceleration)."""
    motion = np.empty((y.shape[0], d.mass.shape[0], 6))
    motion_rows(d, g, y, nf, motion)
    return motion


@njit(cache=True, fastmath=False, inline="always")
def motion_rows(d, g, y, nf, motion):
    """:func:`member_motion` into ``motion`` (B, N, 6)."""
    B = y.shape[0]
    N = d.mass.shape[0]
    for b in range(B):
        for c in range(N):
            k = d.dof_of[c]
            for col in range(6):
                motion[b, c, col] = d.motion[g, c, col]
            if k >= 0:
                r = d.dof_ratio[c]
                motion[b, c, 0] = r * y[b, 12 + k] + d.dof_offset[c]
                motion[b, c, 1] = r * y[b, 12 + nf + k]
                motion[b, c, 2] = 0.0


@njit(cache=True, fastmath=False, inline="always")
def drive_rows(d, g, y, nf, tau):
    """tau[:, :d.n] = -K (theta - theta_c) - C (theta' - theta_c') + tau0 + table(theta')
    (``floatwind.multibody.drives.Drive.torque``); the command from ``d.motion[g]``, the rates
    from the columns ``12 + nf ..`` of ``y``."""
    for b in range(y.shape[0]):
        for k in range(d.n):
            c = d.dof_child[k]
            th = y[b, 12 + k]
            thd = y[b, 12 + nf + k]
            v = (
                -d.stiffness[k] * (th - d.motion[g, c, 0])
                - d.damping[k] * (thd - d.motion[g, c, 1])
                + d.torque0[k]
            )
            if d.table_n[k] > 0:
                m = d.table_n[k]
                v += kl._interp(thd, d.table_x[k, :m], d.table_y[k, :m])
            tau[b, k] = v


@njit(cache=True, fastmath=False)
def drive_torques(d, g, y):
    """tau (B, nf) of the drives (:func:`drive_rows`)."""
    tau = np.empty((y.shape[0], d.n))
    drive_rows(d, g, y, d.n, tau)
    return tau


class Work(NamedTuple):
    """Scratch of one forward-dynamics assembly (:func:`work`), reused member after member by
    the joint-DOF solve (:func:`forward_dynamics_dofs`) and the flexible tower's
    (``floatwind._kernels.flex.flex_dynamics``): the base frame of the member, the system
    K u = r of its ``6 + nf`` unknowns, the small vectors and matrices of the body rows.

    The pieces that take it are inlined into their callers (numba ``inline="always"``) and
    loop over the points themselves, taking the record's fields once per member: called as
    functions per point, they made the flexible-tower right-hand side twice as slow."""

    R: np.ndarray  # (3, 3) base frame (Euler 1-2-3)
    Tw: np.ndarray  # (3, 3) T(omega): w = Tw qd[3:6]
    RE: np.ndarray  # (3,) dTw/dt qd[3:6]
    w: np.ndarray  # (3,) base angular velocity (C_s axes)
    h: np.ndarray  # (3,) P w + Q
    t1: np.ndarray
    t2: np.ndarray
    t3: np.ndarray
    x3: np.ndarray
    F: np.ndarray  # (3,) resultant force
    Mg: np.ndarray  # (3,) resultant moment about G_s (inertial)
    K: np.ndarray  # (n, n)
    r: np.ndarray  # (n,)
    u: np.ndarray  # (n,)
    Js: np.ndarray  # (3, 3)
    Rb: np.ndarray
    Ig: np.ndarray
    Mi: np.ndarray  # (6, 6)
    wb: np.ndarray  # (3,)
    G: np.ndarray  # (6, 6)
    GA: np.ndarray
    MJ: np.ndarray  # (6, n)
    v6: np.ndarray  # (6,)
    Jb: np.ndarray  # (npts, 6, n) per point: [a_G; alpha] = Jb u + cb (inertial)
    cb: np.ndarray  # (npts, 6)
    rho_g: np.ndarray  # (npts, 3) the points rel. G_s in inertial axes


@njit(cache=True, fastmath=False, inline="always")
def work(n, npts):
    """A :class:`Work` for ``n`` unknowns (6 base + the DOFs) and ``npts`` points (bodies, then
    point masses)."""
    return Work(
        np.empty((3, 3)), np.empty((3, 3)), np.empty(3), np.empty(3), np.empty(3),
        np.empty(3), np.empty(3), np.empty(3), np.empty(3), np.empty(3), np.empty(3),
        np.empty((n, n)), np.empty(n), np.empty(n), np.empty((3, 3)), np.empty((3, 3)),
        np.empty((3, 3)), np.empty((6, 6)), np.empty(3), np.empty((6, 6)), np.empty((6, 6)),
        np.empty((6, n)), np.empty(6), np.empty((npts, 6, n)), np.empty((npts, 6)),
        np.empty((npts, 3)),
    )  # fmt: skip


@njit(cache=True, fastmath=False, inline="always")
def base_frame(s, q, qd, P, Q):
    """The member's base frame R, Tw, RE, w (Wang 5.10) and h = P w + Q into ``s``."""
    R, RE, Tw, h, t1, w = s.R, s.RE, s.Tw, s.h, s.t1, s.w
    km._euler123(q[3], q[4], q[5], R)
    km._t_omega(q[4], q[5], Tw)
    km._re(q[4], q[5], qd[3], qd[4], qd[5], RE)
    km._mv(Tw, qd[3:6], w)
    km._mv(P, w, t1)
    for k in range(3):
        h[k] = t1[k] + Q[k]


@njit(cache=True, fastmath=False, inline="always")
def base_rows(s, rho, force, moment, dP, P, dQ, total_mass):
    """The wrench of ``force``, ``moment`` (one row per point ``rho``, C_s axes; rho_g: the
    points in inertial axes, s.rho_g) about G_s and the base rows of Wang (5.26) into K, r (the DOF
    rows zeroed)."""
    F, K, Mg, R, RE, Tw, h, r = s.F, s.K, s.Mg, s.R, s.RE, s.Tw, s.h, s.r
    t1, t2, t3, w, x3, rho_g = s.t1, s.t2, s.t3, s.w, s.x3, s.rho_g
    for k in range(3):
        F[k] = 0.0
        Mg[k] = 0.0
    for i in range(force.shape[0]):
        km._mv(R, rho[i], t1)
        for k in range(3):
            rho_g[i, k] = t1[k]
        km._cross(t1, force[i], t2)
        for k in range(3):
            F[k] += force[i, k]
            Mg[k] += moment[i, k] + t2[k]
    km._mtv(R, Mg, t1)
    km._mv(dP, w, t2)
    km._mv(P, RE, t3)
    km._cross(w, h, x3)
    n = r.shape[0]
    for k in range(n):
        r[k] = 0.0
        for c in range(n):
            K[k, c] = 0.0
    for k in range(3):
        r[k] = F[k]
        r[3 + k] = t1[k] - t2[k] - dQ[k] - t3[k] - x3[k]
        K[k, k] = total_mass
        for c in range(3):
            K[3 + k, 3 + c] = P[k, 0] * Tw[0, c] + P[k, 1] * Tw[1, c] + P[k, 2] * Tw[2, c]


@njit(cache=True, fastmath=False, inline="always")
def point_rows(s, rho, drho, ddrho, E, L, mass, nbody):
    """Per point i (C_s axes in; the first ``nbody`` rigid bodies, then point masses, one of
    zero mass skipped): s.Jb[i] (6, n), base columns then the DOFs' (partials E angular, L of
    rho), a point mass with its translation rows only, and s.cb[i, :3] = R (rho'' + 2 w x rho'
    + w x (w x rho) + RE x rho), the velocity-dependent acceleration (inertial)."""
    R, RE, Tw, t1, t2, t3, w, x3 = s.R, s.RE, s.Tw, s.t1, s.t2, s.t3, s.w, s.x3
    Jb, cb = s.Jb, s.cb
    n = Jb.shape[2]
    for i in range(rho.shape[0]):
        body = i < nbody
        if not body and mass[i] == 0.0:
            continue
        for rr in range(6):
            for c in range(n):
                Jb[i, rr, c] = 0.0
        for c in range(3):
            t1[0] = Tw[0, c]
            t1[1] = Tw[1, c]
            t1[2] = Tw[2, c]
            km._cross(rho[i], t1, t2)
            km._mv(R, t2, t3)
            for rr in range(3):
                Jb[i, rr, 3 + c] = -t3[rr]
                if body:
                    Jb[i, 3 + rr, 3 + c] = (
                        R[rr, 0] * Tw[0, c] + R[rr, 1] * Tw[1, c] + R[rr, 2] * Tw[2, c]
                    )
        for rr in range(3):
            Jb[i, rr, rr] = 1.0
        for j in range(n - 6):
            for k in range(3):
                t1[k] = L[i, k, j]
            km._mv(R, t1, t3)
            for k in range(3):
                Jb[i, k, 6 + j] = t3[k]
            if body:
                for k in range(3):
                    t2[k] = E[i, k, j]
                km._mv(R, t2, x3)
                for k in range(3):
                    Jb[i, 3 + k, 6 + j] = x3[k]
        km._cross(w, drho[i], t1)
        km._cross(w, rho[i], t2)
        km._cross(w, t2, t3)
        km._cross(RE, rho[i], x3)
        for k in range(3):
            t2[k] = ddrho[i, k] + 2.0 * t1[k] + t3[k] + x3[k]
        km._mv(R, t2, t3)
        for k in range(3):
            cb[i, k] = t3[k]


@njit(cache=True, fastmath=False, inline="always")
def dof_rows(s, E, L, rho, mass, R_rel, inertia, nbody):
    """D_k = sum_i (J_i E_ik + m_i rho_i x L_ik) (a point mass: no J E_k; J_i = R_rel I R_rel^T):
    the DOF accelerations in dQ (Wang 5.20), added to the columns 6.. of the rotational base
    rows (points as :func:`point_rows`)."""
    Js, K, t1, t2 = s.Js, s.K, s.t1, s.t2
    nf = K.shape[0] - 6
    for i in range(rho.shape[0]):
        body = i < nbody
        if not body and mass[i] == 0.0:
            continue
        if body:
            _rot_inertia(R_rel[i], inertia[i], Js)
        for j in range(nf):
            for k in range(3):
                t1[k] = L[i, k, j]
            km._cross(rho[i], t1, t2)
            for k in range(3):
                if body:
                    a = Js[k, 0] * E[i, 0, j] + Js[k, 1] * E[i, 1, j] + Js[k, 2] * E[i, 2, j]
                    K[3 + k, 6 + j] += a + mass[i] * t2[k]
                else:
                    K[3 + k, 6 + j] += mass[i] * t2[k]


@njit(cache=True, fastmath=False, inline="always")
def body_rows(s, R_rel, inertia, mass, w_rel, A, force, moment, coupled):
    """Per rigid body i (``force.shape[0]`` of them): Mi = diag(m, R R_rel I R_rel^T R^T)
    (inertial), its added mass A[i] (read when ``coupled``) coupled into the base rows (its
    generalized forces, as the prescribed core) and into Mi, then its part of the DOF rows:
    sum Jd^T (Mi (Jb u + cb) + gyro - W) = tau (Wang 5.28 on each DOF, written with partial
    velocities)."""
    G, GA, Ig, K, MJ, Mi, R, Rb = s.G, s.GA, s.Ig, s.K, s.MJ, s.Mi, s.R, s.Rb
    r, t1, t2, v6, w, wb = s.r, s.t1, s.t2, s.v6, s.w, s.wb
    Jb, cb, rho_g = s.Jb, s.cb, s.rho_g
    n = r.shape[0]
    for i in range(force.shape[0]):
        for rr in range(3):
            for c in range(3):
                Rb[rr, c] = (
                    R[rr, 0] * R_rel[i, 0, c]
                    + R[rr, 1] * R_rel[i, 1, c]
                    + R[rr, 2] * R_rel[i, 2, c]
                )
        _rot_inertia(Rb, inertia[i], Ig)
        for k in range(3):
            t1[k] = w[k] + w_rel[i, k]
        km._mv(R, t1, wb)
        for rr in range(6):
            for c in range(6):
                Mi[rr, c] = 0.0
        for rr in range(3):
            Mi[rr, rr] = mass[i]
            for c in range(3):
                Mi[3 + rr, 3 + c] = Ig[rr, c]
        if coupled:
            km.added_mass_rows(R, rho_g[i], A[i], G, GA)
            for rr in range(6):
                for c in range(n):
                    a = 0.0
                    for k in range(6):
                        a += GA[rr, k] * Jb[i, k, c]
                    K[rr, c] += a
                a = 0.0
                for k in range(6):
                    a += GA[rr, k] * cb[i, k]
                r[rr] -= a
            for rr in range(6):
                for c in range(6):
                    Mi[rr, c] += A[i, rr, c]
        for rr in range(6):
            for c in range(n):
                a = 0.0
                for k in range(6):
                    a += Mi[rr, k] * Jb[i, k, c]
                MJ[rr, c] = a
            a = 0.0
            for k in range(6):
                a += Mi[rr, k] * cb[i, k]
            v6[rr] = a
        km._mv(Ig, wb, t1)
        km._cross(wb, t1, t2)
        for k in range(3):
            v6[k] = force[i, k] - v6[k]
            v6[3 + k] = moment[i, k] - t2[k] - v6[3 + k]
        for j in range(n - 6):
            for c in range(n):
                a = 0.0
                for k in range(6):
                    a += Jb[i, k, 6 + j] * MJ[k, c]
                K[6 + j, c] += a
            a = 0.0
            for k in range(6):
                a += Jb[i, k, 6 + j] * v6[k]
            r[6 + j] += a


@njit(cache=True, fastmath=False, inline="always")
def solve_rows(s, tau, qdd, qdd_dof):
    """Add the generalized forces ``tau`` to the DOF rows and solve K u = r: qdd = u[:6],
    qdd_dof = u[6:]."""
    K, r, u = s.K, s.r, s.u
    nf = tau.shape[0]
    for j in range(nf):
        r[6 + j] += tau[j]
    km.solve_small(K, r, u)
    for k in range(6):
        qdd[k] = u[k]
    for j in range(nf):
        qdd_dof[j] = u[6 + j]


@njit(cache=True, fastmath=False, inline="always")
def dynamics_rows(rel, d, g, y, force, moment, A, coupled, out):
    """out[:, 6:12] = qdd and out[:, 12 + nf:] = the joint accelerations of every member: the
    drives' torques (:func:`drive_rows`), then :func:`forward_dynamics_dofs`, with the scratch
    of the run, ``d.ws_dyn``."""
    B = y.shape[0]
    nf = d.n
    buf = d.ws_dyn
    a, o = _take(buf, 0, B * nf)
    tau = a.reshape((B, nf))
    drive_rows(d, g, y, nf, tau)
    a, o = _take(buf, o, B * 6)
    qdd = a.reshape((B, 6))
    a, o = _take(buf, o, B * nf)
    qdd_dof = a.reshape((B, nf))
    forward_dynamics_dofs(y, rel, d, tau, force, moment, A, coupled, qdd, qdd_dof, buf[o:])
    for b in range(B):
        for k in range(6):
            out[b, 6 + k] = qdd[b, k]
        for k in range(nf):
            out[b, 12 + nf + k] = qdd_dof[b, k]


@njit(cache=True, fastmath=False, inline="always")
def _work_in(buf, n, npts):
    """A :class:`Work` carved out of ``buf`` (the order of :func:`work`) and the length used."""
    a, o = _take(buf, 0, 5 * 9)  # one reshape per block of one shape (member_kinematics)
    m3 = a.reshape((5, 3, 3))
    a, o = _take(buf, o, 10 * 3)
    v3 = a.reshape((10, 3))
    a, o = _take(buf, o, 3 * 36)
    m6 = a.reshape((3, 6, 6))
    R, Tw, Js, Rb, Ig = m3[0], m3[1], m3[2], m3[3], m3[4]
    RE, w, h, t1, t2, t3, x3, F, Mg, wb = (v3[0], v3[1], v3[2], v3[3], v3[4], v3[5], v3[6],
                                           v3[7], v3[8], v3[9])  # fmt: skip
    Mi, G, GA = m6[0], m6[1], m6[2]
    a, o = _take(buf, o, n * n)
    K = a.reshape((n, n))
    r, o = _take(buf, o, n)
    u, o = _take(buf, o, n)
    a, o = _take(buf, o, 6 * n)
    MJ = a.reshape((6, n))
    v6, o = _take(buf, o, 6)
    a, o = _take(buf, o, npts * 6 * n)
    Jb = a.reshape((npts, 6, n))
    a, o = _take(buf, o, npts * 6)
    cb = a.reshape((npts, 6))
    a, o = _take(buf, o, npts * 3)
    rho_g = a.reshape((npts, 3))
    s = Work(R, Tw, RE, w, h, t1, t2, t3, x3, F, Mg, K, r, u, Js, Rb, Ig, Mi, wb, G, GA, MJ, v6,
             Jb, cb, rho_g)  # fmt: skip
    return s, o


@njit(cache=True, fastmath=False, inline="always")
def forward_dynamics_dofs(y, rel, d, tau, force, moment, A, coupled, qdd, qdd_dof, buf):
    """Base and joint accelerations of every member (see the module docstring) into qdd (B, 6)
    and qdd_dof (B, nf); ``buf`` the scratch (:func:`dyn_size`).

    y (B, n_y) the state (q, qd its first 12 columns); ``rel`` one row per member (:func:`member_kinematics`); ``tau`` (B, nf); force,
    moment (B, N, 3); A (B, N, 6, 6) added mass (read when ``coupled``). (The body accelerations
    of Wang 5.24 follow from qdd, where the outputs need them:
    :func:`floatwind.multibody.mcm.forward_dynamics_dofs`.)
    """
    q, qd = y[:, 0:6], y[:, 6:12]
    B = q.shape[0]
    N = d.mass.shape[0]
    nf = d.n
    n = 6 + nf
    s, o = _work_in(buf, n, N)
    R, RE, t1, t2, t3, w, x3 = s.R, s.RE, s.t1, s.t2, s.t3, s.w, s.x3
    cb = s.cb
    a, o = _take(buf, o, N * 3 * nf)
    E = a.reshape((N, 3, nf))
    a, o = _take(buf, o, N * 3 * nf)
    L = a.reshape((N, 3, nf))
    for b in range(B):
        base_frame(s, q[b], qd[b], rel.P[b], rel.Q[b])
        # external wrench about G_s (inertial) and the rotational right-hand side (5.26)
        base_rows(s, rel.rho[b], force[b], moment[b], rel.dP[b], rel.P[b], rel.dQ[b],
                  d.total_mass)  # fmt: skip
        # partial velocities of the DOFs (C_s axes): E angular, L of rho_{G_i/G_s}
        for i in range(N):
            for k in range(3):
                for j in range(nf):
                    E[i, k, j] = 0.0
                    L[i, k, j] = 0.0
        for c in range(N):
            j = d.dof_of[c]
            if j < 0:
                continue
            p = d.parent[c]
            km._mv(rel.R_c2s[b, c], d.axis[c], t1)
            for k in range(3):
                t1[k] *= d.dof_ratio[c]
            km._mv(rel.R_c2s[b, p], d.rJp[c], t2)
            for k in range(3):
                t2[k] += rel.rho[b, p, k]  # rho_J
            for i in range(N):
                if d.sub[c, i] == 0:
                    continue
                for k in range(3):
                    t3[k] = rel.rho[b, i, k] - t2[k]
                km._cross(t1, t3, x3)
                for k in range(3):
                    E[i, k, j] += t1[k]
                    L[i, k, j] += x3[k]
        for j in range(nf):
            for k in range(3):
                a = 0.0
                for i in range(N):
                    a += d.mass[i] * L[i, k, j]
                a = a / d.total_mass
                for i in range(N):
                    L[i, k, j] -= a
        # Jb (inertial): [a_G; alpha] = Jb u + cb
        point_rows(s, rel.rho[b], rel.drho[b], rel.ddrho[b], E, L, d.mass, N)
        for i in range(N):
            km._cross(w, rel.w_rel[b, i], t1)
            for k in range(3):
                t2[k] = RE[k] + (rel.dw_rel[b, i, k] + t1[k])
            km._mv(R, t2, t3)
            for k in range(3):
                cb[i, 3 + k] = t3[k]
        # D_k = sum_i (J_i E_ik + m_i rho_i x L_ik): the joint accelerations in dQ (5.20)
        dof_rows(s, E, L, rel.rho[b], d.mass, rel.R_c2s[b], d.inertia_b, N)
        # per body: rigid inertia (inertial), gyroscopic term, added mass, the joint rows
        body_rows(s, rel.R_c2s[b], d.inertia_b, d.mass, rel.w_rel[b], A[b], force[b], moment[b],
                  coupled)  # fmt: skip
        solve_rows(s, tau[b], qdd[b], qdd_dof[b])


@njit(cache=True, fastmath=False, inline="always", _nrt=False)
def _rot_inertia(R, I, out):
    """out = R I R^T."""
    for a in range(3):
        for c in range(3):
            s = 0.0
            for k in range(3):
                for m in range(3):
                    s += R[a, k] * I[k, m] * R[c, m]
            out[a, c] = s
