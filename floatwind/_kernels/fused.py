"""The whole right-hand side in one compiled function (docs/performance.md, docs/architecture.md).

:func:`system_rhs` is the compiled ``System.rhs``: body kinematics (Wang 5.10), every load of the
model through its own kernel (``floatwind._kernels.contract``: one signature for all loads),
then the MCM forward dynamics (Wang 5.26). It is the *template* of the per-model right-hand side:
:mod:`floatwind.simulate.generate` writes, for the model's list of load kernels, a small module
where ``_loads`` calls each kernel in turn on its params (no type tests, no registry, any number
of loads of a kind) and compiles this function and the RK4 stepping of
:mod:`floatwind.integrate.compiled` against it (numba caches it on disk: once per installation
and combination of load kinds).

A load kernel that cannot do a step (wind outside the compiled field, a fairlead at its anchor)
returns a bit of :class:`floatwind._kernels.status.Status`; the step is then done by the NumPy
path, which computes it or raises the proper error. The Euler-angle singularity is checked here
(``EULER_SINGULAR``).

Every batch member goes through the same operations in the same order whatever B (no sums across
members): a realization alone and inside a batch are bit-identical.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from floatwind._kernels import flex as kfx
from floatwind._kernels import joints as kj
from floatwind._kernels import mcm as km
from floatwind._kernels import waves as kwv
from floatwind._kernels.contract import BodyKinematics
from floatwind._kernels.status import EULER_SINGULAR
from floatwind.jit import njit

__all__ = [
    "FlexWork", "LANES_MIN", "RelTable", "RigidWork", "SystemParams", "WrenchWork", "flex_work",
    "rigid_work", "system_rhs", "wrench_work",
]

#: batch size from which the wave kernels run with the members in SIMD lanes (same bits)
LANES_MIN = kwv.LANES_MIN

class RelTable(NamedTuple):
    """Prescribed relative kinematics and momentum coefficients (Wang 5.14-5.23) at a list of
    grid times (first axis), or at one time for a tree without moving joints."""

    rho: np.ndarray  # (T, N, 3)
    drho: np.ndarray
    ddrho: np.ndarray
    R_c2s: np.ndarray  # (T, N, 3, 3)
    w_rel: np.ndarray  # (T, N, 3)
    dw_rel: np.ndarray
    P: np.ndarray  # (T, 3, 3)
    dP: np.ndarray
    Q: np.ndarray  # (T, 3)
    dQ: np.ndarray
    total_mass: float
    cm_b: np.ndarray  # (N, 3)


class SystemParams(NamedTuple):
    """What :func:`system_rhs` needs: the relative kinematics and the loads' params."""

    static: bool  # no moving joint: rel holds one entry
    rel: RelTable
    loads: tuple  # the params of each load, in the order of the generated _loads
    adds_mass: bool  # some load writes added mass
    euler_tol: float  # floatwind.rotation.euler.EULER_SINGULARITY_TOL
    dofs: kj.DofParams  # joint degrees of freedom (dofs.n = 0: none)
    work: RigidWork | WrenchWork | FlexWork  # the right-hand side's scratch (rigid_work, wrench_work)


class RigidWork(NamedTuple):
    """Scratch of the rigid right-hand side (:func:`rhs_kinematics`, :func:`rhs_dynamics`) for
    B members and N bodies, made once per run and batch size (:func:`rigid_work`): the body
    kinematics the loads read, the wrench they add into, the accelerations and the solver's
    scratch. Nothing in it is read before it is written in the same evaluation."""

    kin: BodyKinematics  # (B, N, ...) and the CM offsets cm_b (N, 3)
    force: np.ndarray  # (B, N, 3), zeroed by rhs_kinematics
    moment: np.ndarray  # (B, N, 3), zeroed by rhs_kinematics
    A: np.ndarray  # (B, N, 6, 6), zeroed by rhs_kinematics
    qdd: np.ndarray  # (B, 6)
    a_G: np.ndarray  # (B, N, 3)
    dw_b: np.ndarray  # (B, N, 3)
    H: np.ndarray  # (B, 3)
    kws: tuple  # body_kinematics_into's scratch: (3, 3) x 2, (3,) x 4
    dyn: km.DynScratch
    stages: np.ndarray  # (4, B, n) the RK4 chunk's stage slopes k2, k3, k4 and stage state


def rigid_work(B: int, N: int, cm_b: np.ndarray, n: int = 12) -> RigidWork:
    """A :class:`RigidWork` for B members, N bodies and n states (NumPy)."""
    e = np.zeros
    kin = BodyKinematics(e((B, N, 3)), e((B, N, 3, 3)), e((B, N, 3)), e((B, N, 3)),
                         np.ascontiguousarray(cm_b, dtype=np.float64))  # fmt: skip
    dyn = km.DynScratch(*[e((3, 3)) for _ in range(5)], *[e(3) for _ in range(12)],
                        *[e((N, 3)) for _ in range(3)], *[e((6, 6)) for _ in range(5)],
                        *[e(6) for _ in range(4)])  # fmt: skip
    return RigidWork(kin, e((B, N, 3)), e((B, N, 3)), e((B, N, 6, 6)), e((B, 6)), e((B, N, 3)),
                     e((B, N, 3)), e((B, 3)), (e((3, 3)), e((3, 3)), e(3), e(3), e(3), e(3)),
                     dyn, e((4, B, n)))  # fmt: skip


class WrenchWork(NamedTuple):
    """The ``work`` of a model with joint DOFs (:func:`wrench_work`): the wrench arrays and the
    RK4 chunk's stage arrays (its kinematics and dynamics scratch is ``DofParams.ws_kin``,
    ``ws_dyn``)."""

    force: np.ndarray  # (B, N, 3)
    moment: np.ndarray  # (B, N, 3)
    A: np.ndarray  # (B, N, 6, 6)
    stages: np.ndarray  # (4, B, n) the RK4 chunk's stage slopes k2, k3, k4 and stage state


def wrench_work(B: int, N: int, n: int = 12) -> WrenchWork:
    """A :class:`WrenchWork` for B members, N bodies and n states (NumPy)."""
    return WrenchWork(np.zeros((B, N, 3)), np.zeros((B, N, 3)), np.zeros((B, N, 6, 6)),
                      np.zeros((4, B, n)))  # fmt: skip


class FlexWork(NamedTuple):
    """The ``work`` of a model with a flexible tower (:func:`flex_work`): the wrench and stage
    arrays of :class:`WrenchWork`, the flexible state and the bodies' kinematics
    (``floatwind._kernels.flex.flex_state_into``), the scratch of both flexible stages, the
    drive and modal torques, and (joint DOFs) the members' joint motions and relative table.
    Nothing in it is read before it is written in the same evaluation."""

    force: np.ndarray  # (B, N, 3)
    moment: np.ndarray  # (B, N, 3)
    A: np.ndarray  # (B, N, 6, 6)
    stages: np.ndarray  # (4, B, n)
    X: np.ndarray  # (B * size,) flex_state's rows
    kin: BodyKinematics  # (B, N, ...) and the CM offsets cm_b (N, 3)
    ws: np.ndarray  # flex_state_into's scratch (flex.state_ws_size)
    dyn: tuple  # flex_dynamics_into's scratch (K, r, u, ws, G, GA, Rm)
    tau: np.ndarray  # (B, nf)
    motion: np.ndarray  # (B, N, 6) the members' joint motions (joints.motion_rows)
    rel: kj.RelTableB  # (B, ...) their relative kinematics (mcm.rel_table)


def flex_work(B: int, N: int, n_modes: int, nf: int, cm_b: np.ndarray, n: int) -> FlexWork:
    """A :class:`FlexWork` for B members, N bodies, ``n_modes`` tower modes, ``nf`` DOF columns
    and n states (NumPy)."""
    e = np.zeros
    nn = 6 + nf
    cm = np.ascontiguousarray(cm_b, dtype=np.float64)
    kin = BodyKinematics(e((B, N, 3)), e((B, N, 3, 3)), e((B, N, 3)), e((B, N, 3)), cm)
    rel = kj.RelTableB(e((B, N, 3)), e((B, N, 3)), e((B, N, 3)), e((B, N, 3, 3)), e((B, N, 3)),
                       e((B, N, 3)), e((B, 3, 3)), e((B, 3, 3)), e((B, 3)), e((B, 3)), 0.0, cm)  # fmt: skip (total_mass: not read)
    size = int(kfx._xlay(N, nf)[-1])
    dyn = (e((nn, nn)), e(nn), e(nn), e(int(kfx.dyn_ws_size(N, nf))), e((6, 6)), e((6, 6)),
           e((3, 3)))  # fmt: skip
    return FlexWork(e((B, N, 3)), e((B, N, 3)), e((B, N, 6, 6)), e((4, B, n)), e(B * size), kin,
                    e(int(kfx.state_ws_size(N, n_modes, nf))), dyn, e((B, nf)), e((B, N, 6)),
                    rel)  # fmt: skip


@njit(cache=True, fastmath=False, _nrt=False)
def rhs_kinematics(rel, static, euler_tol, g, y, w):
    """Status (``EULER_SINGULAR`` near the singularity); the body kinematics of (t, y) into
    ``w.kin`` (Wang 5.10, ``rel`` row ``g``, row 0 for a static tree) and ``w.force``,
    ``w.moment``, ``w.A`` zeroed for the loads (``w`` a :class:`RigidWork`).

    (Shared by every generated module: its arguments never hold a load's params, whose types
    would enter this function's cache index. It allocates nothing and returns no array:
    compiled without reference counting, as the joint-DOF stages; docs/performance.md, "The
    rigid step without glue".)"""
    zeroed_wrench(w, y.shape[0])  # refuses a scratch made for another batch size
    i = 0 if static else g
    status = 0
    for b in range(y.shape[0]):
        if abs(math.cos(y[b, 4])) < euler_tol:
            status = EULER_SINGULAR
    k = w.kin
    km.body_kinematics_into(
        y[:, 0:6], y[:, 6:12], rel.rho[i : i + 1], rel.drho[i : i + 1], rel.R_c2s[i : i + 1],
        rel.w_rel[i : i + 1], (k.r_G, k.R_b2g, k.v_G, k.w_b), w.kws,
    )  # fmt: skip
    return status


@njit(cache=True, fastmath=False, inline="always")
def zeroed_wrench(w, B):
    """``w.force``, ``w.moment``, ``w.A`` of a :class:`RigidWork`, :class:`WrenchWork` or
    :class:`FlexWork`, zeroed (every template's loads add into them); refuses a ``w`` made for another batch size
    than ``B`` (``FusedRHS.with_work``)."""
    force, moment, A = w.force, w.moment, w.A
    if force.shape[0] != B:
        raise ValueError("the scratch was made for another batch size (FusedRHS.with_work)")
    for b in range(force.shape[0]):
        for n in range(force.shape[1]):
            for j in range(3):
                force[b, n, j] = 0.0
                moment[b, n, j] = 0.0
            for r in range(6):
                for c in range(6):
                    A[b, n, r, c] = 0.0
    return force, moment, A


@njit(cache=True, fastmath=False, _nrt=False)
def rhs_dynamics(rel, static, adds_mass, g, y, w, out):
    """Forward dynamics (Wang 5.26) of the loads' wrench in ``w`` (a :class:`RigidWork`):
    out[:, :6] = qd, out[:, 6:12] = qdd (allocates nothing, as :func:`rhs_kinematics`)."""
    i = 0 if static else g
    m = km.Momentum(
        rho=rel.rho[i : i + 1], drho=rel.drho[i : i + 1], ddrho=rel.ddrho[i : i + 1],
        w_rel=rel.w_rel[i : i + 1], dw_rel=rel.dw_rel[i : i + 1], P=rel.P[i : i + 1],
        dP=rel.dP[i : i + 1], Q=rel.Q[i : i + 1], dQ=rel.dQ[i : i + 1],
        total_mass=rel.total_mass,
    )  # fmt: skip
    qdd = w.qdd
    km.forward_dynamics_into(y[:, 0:6], y[:, 6:12], m, w.force, w.moment, w.A, adds_mass,
                             (qdd, w.a_G, w.dw_b, w.H), w.dyn)  # fmt: skip
    for b in range(y.shape[0]):
        for k in range(6):
            out[b, k] = y[b, 6 + k]
            out[b, 6 + k] = qdd[b, k]


@njit(cache=True, fastmath=False, inline="always")
def rhs_kinematics_dofs(d, euler_tol, y, g):
    """:func:`rhs_kinematics` of a tree with joint DOFs: the relative kinematics per member, then
    the body kinematics (Wang 5.10) (``floatwind._kernels.joints.member_kinematics``)."""
    status = 0
    for b in range(y.shape[0]):
        if abs(math.cos(y[b, 4])) < euler_tol:
            status = EULER_SINGULAR
    rel, r_G, R_b2g, v_G, w_b = kj.member_kinematics(d, g, y)
    return status, BodyKinematics(r_G, R_b2g, v_G, w_b, d.cm_b), rel


@njit(cache=True, fastmath=False, _nrt=False)
def rhs_dynamics_dofs(rel, d, adds_mass, g, y, force, moment, A, out):
    """Forward dynamics with joint DOFs: out[:, :6] = qd, out[:, 6:12] = qdd, then the joint
    rates and accelerations (``floatwind._kernels.joints.dynamics_rows``; it allocates nothing
    and returns no array: compiled without reference counting, as the kernels it inlines)."""
    nf = d.n
    for b in range(y.shape[0]):
        for k in range(6):
            out[b, k] = y[b, 6 + k]
        for k in range(nf):
            out[b, 12 + k] = y[b, 12 + nf + k]
    kj.dynamics_rows(rel, d, g, y, force, moment, A, adds_mass, out)


@njit(cache=True, fastmath=False, inline="always")
def rhs_kinematics_flex(rel, w, f, euler_tol, y, g):
    """:func:`rhs_kinematics` of a model with a flexible tower (``f`` a
    :class:`floatwind._kernels.flex.FlexParams`, ``rel`` the run's table of the tree, ``w`` the
    run's :class:`FlexWork`): the relative kinematics of the tree on the deflected tower per
    member, then the body kinematics (Wang 5.10), into ``w`` (allocates nothing). The flexible
    kernels take plain arrays (``f.fp``, ``f.ip``, the table's fields): the tree's record
    ``f.d`` is read only with joint DOFs."""
    status = 0
    for b in range(y.shape[0]):
        if abs(math.cos(y[b, 4])) < euler_tol:
            status = EULER_SINGULAR
    gm = g if f.moving else 0
    k = w.kin
    if f.nj == 0:  # the run's table: one row (or one per grid time) for every member
        kfx.flex_state_into(
            f.fp, f.ip, (rel.rho, rel.drho, rel.ddrho, rel.R_c2s, rel.w_rel, rel.dw_rel), False,
            gm, y, (w.X, k.r_G, k.R_b2g, k.v_G, k.w_b, w.ws),
        )  # fmt: skip
    else:
        d, t0 = f.d, w.rel
        kj.motion_rows(d, gm, y, f.nf, w.motion)
        km.rel_table(d.order, d.parent, d.axis, d.R0_c2p, d.rJp, d.uc, d.mass, d.inertia_b,
                     d.total_mass, w.motion, t0)  # fmt: skip
        kfx.flex_state_into(
            f.fp, f.ip, (t0.rho, t0.drho, t0.ddrho, t0.R_c2s, t0.w_rel, t0.dw_rel), True, gm, y,
            (w.X, k.r_G, k.R_b2g, k.v_G, k.w_b, w.ws),
        )  # fmt: skip
    return status, k, w.X


@njit(cache=True, fastmath=False, inline="always")
def rhs_dynamics_flex(w, X, f, adds_mass, g, y, force, moment, A, out):
    """Forward dynamics with the tower modes (and joint DOFs): out[:, :6] = qd, out[:, 6:12] =
    qdd, then the DOF rates and accelerations (``floatwind._kernels.flex.flex_dynamics_into``
    on the scratch of ``w``; the joints' drive torques first, ``joints.drive_rows``)."""
    tau = w.tau
    if f.nj > 0:
        kj.drive_rows(f.d, g if f.moving else 0, y, f.nf, tau)
    kfx.flex_dynamics_into(f.fp, f.ip, y, X, tau, force, moment, A, adds_mass, out, w.dyn)


def system_rhs(p, t, y, g, out):
    """dy/dt (B, n) at (t, y) into ``out``; ``g`` the index of ``t`` in ``p.rel`` (ignored for a
    static tree). Returns 0, or the status bits of the first load that cannot do it.

    Template (compiled per model by :mod:`floatwind.simulate.generate`): ``_loads`` is the
    generated walk over the model's load kernels. A model with joint degrees of freedom gets
    :func:`system_rhs_dofs` under this name instead (so the others do not compile its code)."""
    rel, w = p.rel, p.work  # taken once: taking a record increfs each of its arrays
    status = rhs_kinematics(rel, p.static, p.euler_tol, g, y, w)
    if status != 0:
        return status
    status = _loads(p.loads, t, w.kin, y, out, w.force, w.moment, w.A)  # noqa: F821 (generated)
    if status != 0:
        return status
    rhs_dynamics(rel, p.static, p.adds_mass, g, y, w, out)
    return 0


def system_rhs_dofs(p, t, y, g, out):
    """:func:`system_rhs` of a model with joint degrees of freedom: the relative kinematics per
    member from the joint states, then the coupled base + joint solve (template, generated as
    ``system_rhs``). A model with a flexible tower is generated from it with
    ``rhs_kinematics_flex``/``rhs_dynamics_flex`` in place of the ``_dofs`` pair (the tree on the
    deflected tower, the coupled base + joint + mode solve; ``floatwind.simulate.generate``)."""
    d = p.dofs  # taken once: taking a record increfs each of its arrays
    status, kin, rel = rhs_kinematics_dofs(d, p.euler_tol, y, g)
    if status != 0:
        return status
    force, moment, A = zeroed_wrench(p.work, y.shape[0])  # the run's, zeroed (no allocation)
    status = _loads(p.loads, t, kin, y, out, force, moment, A)  # noqa: F821 (generated)
    if status != 0:
        return status
    rhs_dynamics_dofs(rel, d, p.adds_mass, g, y, force, moment, A, out)
    return 0


def system_after_step(p, t, y, g):
    """The loads' step memories take the accepted state (t, y) (``Load.after_step``).

    Template (compiled per model, only for a model with step memories): ``_after_steps`` is the
    generated walk over the loads' ``after_step`` kernels."""
    w = p.work
    rhs_kinematics(p.rel, p.static, p.euler_tol, g, y, w)
    _after_steps(p.loads, t, w.kin, y)  # noqa: F821 (generated)


def system_after_step_dofs(p, t, y, g):
    """:func:`system_after_step` of a model with joint degrees of freedom (template; with a
    flexible tower generated with ``rhs_kinematics_flex``, as :func:`system_rhs_dofs`)."""
    d = p.dofs
    status, kin, rel = rhs_kinematics_dofs(d, p.euler_tol, y, g)
    _after_steps(p.loads, t, kin, y)  # noqa: F821 (generated)


@njit(cache=True, fastmath=False)
def select_add(choice, k, f, m, a, force, moment, added, adds_mass):
    """Add candidate ``k``'s wrench (f, m, a) to the members that chose it (SelectLoad)."""
    B, N = force.shape[0], force.shape[1]
    for b in range(B):
        if choice[b] == k:
            for n in range(N):
                for j in range(3):
                    force[b, n, j] += f[b, n, j]
                    moment[b, n, j] += m[b, n, j]
                if adds_mass:
                    for r in range(6):
                        for c in range(6):
                            added[b, n, r, c] += a[b, n, r, c]
