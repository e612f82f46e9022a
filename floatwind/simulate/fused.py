"""Compiled stepping of a whole model: every load through its own compiled form.

:func:`fuse` asks every load of a :class:`~floatwind.simulate.system.System` for its compiled
form (``Load.compiled``: a kernel and a NamedTuple of parameters, ``floatwind._kernels.contract``)
and returns a :class:`FusedRHS`: a drop-in for ``system.rhs`` that also offers ``rk4_chunk``, so
that :class:`floatwind.integrate.RK4` advances runs of full steps in compiled chunks
(:func:`floatwind.integrate.compiled.rk4_chunk` over :func:`floatwind._kernels.fused.system_rhs`).
There is no list of supported loads here: a load is compiled when it provides its compiled form.
When one does not (or its sea or wind has none), ``fuse`` gives ``None`` with the reason and the
run uses ``system.rhs`` (the CLI says so in one line). Nothing changes in the physics: the kernels
are the ones the per-load path uses (docs/performance.md).
"""

from __future__ import annotations

import logging
import os

import numpy as np

from floatwind import _kernels
from floatwind._kernels.contract import NoCompiledForm, f64

log = logging.getLogger(__name__)

__all__ = ["FusedRHS", "compiled_loads", "flex_params", "fuse", "stepper_kind", "use_fused"]

#: ``FLOATWIND_NO_FUSED=1`` (read at import) keeps the Python-driven RK4 steps
_ENABLED = os.environ.get("FLOATWIND_NO_FUSED", "").strip().lower() not in (
    "1",
    "true",
    "yes",
    "on",
)


def use_fused(flag: bool) -> bool:
    """Switch the fused stepping on or off (tests, benchmarks); returns the previous state."""
    global _ENABLED
    old = _ENABLED
    _ENABLED = bool(flag)
    return old


def compiled_loads(system) -> list:
    """The compiled form of every load of ``system`` (``CompiledLoad``, in the model's order; a
    load may give several parts, e.g. Morison strips and member ends); raises
    :class:`NoCompiledForm` naming the first load without one."""
    model = system.model
    out = []
    cols = dict(system.state_layout)
    for i, ld in enumerate(system.loads):
        name = getattr(ld, "name", type(ld).__name__)
        try:
            c = ld.compiled(model.env, model.batch)
        except NoCompiledForm as err:
            raise NoCompiledForm(f"load {name!r} ({type(ld).__name__}): {err}") from None
        if c is None:
            raise NoCompiledForm(f"load {name!r} ({type(ld).__name__}) has no compiled form")
        parts = c if isinstance(c, tuple) and not hasattr(c, "_fields") else (c,)
        if i in cols or system.memories[i] is not None:
            parts = tuple(_bind_state(p, cols.get(i), system.memories[i], name) for p in parts)
        out.extend(parts)
    return out


def _bind_state(c, cols, memory, name: str):
    """The load's params with its first state column (``state0``) and its step memory
    (``memory``, the object the NumPy path updates too) filled in (contract.py)."""
    fields = getattr(c.params, "_fields", ())
    rep = {}
    if cols is not None:
        if "state0" not in fields:
            raise NoCompiledForm(f"load {name!r} has states but its params have no 'state0' field")
        rep["state0"] = int(cols.start)
    if memory is not None:
        if "memory" not in fields or c.after_step is None:
            raise NoCompiledForm(
                f"load {name!r} keeps a step memory but its compiled form has no 'memory' "
                "field or no after_step kernel"
            )
        rep["memory"] = memory
    return c._replace(params=c.params._replace(**rep)) if rep else c


class FusedRHS:
    """``system.rhs`` plus :meth:`rk4_chunk`, the compiled multi-step RK4 advance."""

    def __init__(self, system, loads: list):
        from floatwind._kernels import fused as kf
        from floatwind.rotation.euler import EULER_SINGULARITY_TOL
        from floatwind.simulate.generate import stepper

        self.system = system
        self.compiled = list(loads)
        tree = system.tree
        self._total_mass = float(tree.total_mass)
        self._cm_b = f64(tree.cm_b)
        self._static = system.static
        self.stepper = stepper(self.compiled, stepper_kind(system))  # its system_rhs, rk4_chunk
        self._flex = getattr(system, "flex", None) is not None
        dofs = _flex_of(system) if self._flex else dof_params(tree, None, system.model.batch)
        self.params = kf.SystemParams(
            static=self._static,
            rel=None,
            loads=tuple(c.params for c in self.compiled),
            adds_mass=any(c.adds_mass for c in self.compiled),
            euler_tol=float(EULER_SINGULARITY_TOL),
            dofs=dofs,
            work=self._work(system.model.batch, 12 + 2 * (dofs.nf if self._flex else dofs.n), dofs),
        )
        self._motion = None
        self._rel0 = None
        self._tree_arrays = None

    def __call__(self, t: float, y: np.ndarray) -> np.ndarray:
        return self.system.rhs(t, y)

    def _rel(self, times: np.ndarray):
        """The relative kinematics table at ``times``: the prescribed joint motions evaluated in
        NumPy, the cascade and momentum coefficients (Wang 5.14-5.23) in one compiled pass
        (:func:`floatwind._kernels.mcm.rel_table`; the same formulas as
        :func:`~floatwind.multibody.mcm.relative_kinematics_many` + ``mass_distribution``)."""
        from floatwind._kernels import mcm as km
        from floatwind._kernels.fused import RelTable

        tree = self.system.tree
        T, N = len(times), tree.n_bodies
        if self._tree_arrays is None:
            self._tree_arrays = tree_arrays(tree)
        motion = self._motions(times)
        out = RelTable(
            np.empty((T, N, 3)), np.empty((T, N, 3)), np.empty((T, N, 3)),
            np.empty((T, N, 3, 3)), np.empty((T, N, 3)), np.empty((T, N, 3)),
            np.empty((T, 3, 3)), np.empty((T, 3, 3)), np.empty((T, 3)), np.empty((T, 3)),
            self._total_mass, self._cm_b,
        )  # fmt: skip
        km.rel_table(*self._tree_arrays, motion, out)
        self._motion = motion
        return out

    def _motions(self, times: np.ndarray) -> np.ndarray:
        """The joint motions (T, N, 6) at ``times``: angle, rate, acceleration, slide and its
        two derivatives of each joint (NumPy)."""
        tree = self.system.tree
        motion = np.zeros((len(times), tree.n_bodies, 6))
        for c, j in tree.joint_of.items():
            th, thd, thdd = j.rotation.evaluate_many(times)
            sl, sld, sldd = j.slide.evaluate_many(times)
            for col, val in enumerate((th, thd, thdd, sl, sld, sldd)):
                motion[:, c, col] = val
        return motion

    def _work(self, B: int, n: int, dofs):
        """The right-hand side's and the RK4 chunk's scratch for batch size ``B`` and ``n``
        states (``floatwind._kernels.fused``: ``flex_work`` with a flexible tower,
        ``wrench_work`` with joint DOFs, else ``rigid_work``)."""
        from floatwind._kernels import fused as kf

        N = self.system.tree.n_bodies
        if self._flex:
            return kf.flex_work(B, N, dofs.n, dofs.nf, self._cm_b, n)
        if self.system.n_dof:
            return kf.wrench_work(B, N, n)
        return kf.rigid_work(B, N, self._cm_b, n)

    def with_work(self, B: int, n: int):
        """The params with the scratch of the right-hand side and of the RK4 chunk for batch
        size ``B`` and ``n`` states (:meth:`_work`; kept, made again for another size)."""
        if self.params.work.stages.shape[1:] != (B, n):
            self.params = self.params._replace(work=self._work(B, n, self.params.dofs))
        return self.params

    def rk4_chunk(self, ts: np.ndarray, y: np.ndarray, f: np.ndarray, t0: float, dt: float):
        """RK4 steps over the step times ``ts`` (n + 1,) from (ts[0], y, f): returns
        (Y (n+1, B, n_y), F (n+1, B, n_y), steps done, status). The relative kinematics are
        taken on the half-step grid t0 + j dt / 2 of ``RK4.time_grid`` (the same times as
        ``System.use_time_grid``)."""
        n = len(ts) - 1
        if self._static or (self._flex and not self.params.dofs.moving):
            if self._rel0 is None:
                self._rel0 = self._rel(np.array([float(ts[0])]))
            rel = self._rel0
        else:
            j0 = int(round((ts[0] - t0) / (0.5 * dt)))
            times = t0 + (j0 + np.arange(2 * n + 1)) * (0.5 * dt)
            if self.system.n_dof and not self._flex:
                # the joint-DOF right-hand side (fused.system_rhs_dofs) takes its relative
                # kinematics from the joint motions per evaluation (joints.member_kinematics), never
                # reads p.rel: the table of one row keeps p's types (the same compiled
                # stepper), the grid's table was ~8 % of ref03's step
                if self._rel0 is None:
                    self._rel0 = self._rel(np.array([float(ts[0])]))
                rel = self._rel0
                self._motion = self._motions(times)
            else:
                rel = self._rel(times)
        B = y.shape[0]
        Y = np.empty((n + 1, B, y.shape[1]))
        F = np.empty((n + 1, B, y.shape[1]))
        p = self.with_work(B, y.shape[1])._replace(rel=rel)
        if self._flex:  # the joint motions at the same grid times (commands of drives)
            p = p._replace(dofs=p.dofs._replace(d=p.dofs.d._replace(motion=self._motion)))
        elif self.system.n_dof:
            from floatwind._kernels.joints import kin_size

            d = p.dofs
            if d.ws_kin.shape[0] != kin_size(B, self.system.tree.n_bodies):  # another batch size
                d = dof_params(self.system.tree, None, B)
                self.params = self.params._replace(dofs=d)
            p = p._replace(dofs=d._replace(motion=self._motion))
        done, status = self.stepper.rk4_chunk(f64(ts), f64(y), f64(f), p, Y, F)
        return Y, F, int(done), int(status)


def fuse(system) -> tuple[FusedRHS | None, str]:
    """A :class:`FusedRHS` for ``system`` and "", or (None, the reason it cannot be compiled)."""
    if not _ENABLED:
        return None, "fused stepping switched off"
    flex = getattr(system, "flex", None)
    if flex is not None and flex.modes.top_rotation != "elastodyn":
        return None, "a flexible tower with the exact top rotation runs on the NumPy path"
    if not _kernels.enabled():
        return None, "compiled kernels off"
    try:
        loads = compiled_loads(system)
    except NoCompiledForm as err:
        return None, str(err)
    return FusedRHS(system, loads), ""


def stepper_kind(system) -> bool | str:
    """The right-hand side template of ``system`` (``floatwind.simulate.generate.stepper``):
    with a flexible tower "flex:" and the header of its ``ip`` (sizes and offsets: the stages
    compiled with them as literals, ``generate._sized_flex``), True with joint DOFs, False
    without."""
    if getattr(system, "flex", None) is not None:
        if not sized_flex():
            return "flex"
        from floatwind._kernels.flex import IP_HEAD

        return "flex:" + ",".join(str(int(v)) for v in _flex_of(system).ip[:IP_HEAD])
    return system.n_dof > 0


#: the environment variable that chooses how a flexible tower's stages compile (:func:`sized_flex`)
SIZED_ENV = "FLOATWIND_FLEX_SIZED"


def sized_flex() -> bool:
    """Whether a flexible tower's stages compile with its sizes as literals (the default: one
    module per tower layout, compiled once per layout, ~2.5x faster steps; docs/performance.md
    "Flexible tower, sixth session"). ``FLOATWIND_FLEX_SIZED=0`` (``false``/``no``/``off``) keeps
    one module for every layout (the shared kernels: the same bits, slower steps; for many
    layouts run once each, and the test suite). Any other value is refused, naming the
    variable."""
    flag = os.environ.get(SIZED_ENV, "1").strip().lower()
    if flag in ("0", "false", "no", "off"):
        return False
    if flag in ("1", "true", "yes", "on", ""):
        return True
    from floatwind.errors import CaseError

    raise CaseError(f"{SIZED_ENV}={flag!r}: give 1 (sized stages, the default) or 0 (shared)",
                    field=SIZED_ENV)  # fmt: skip


def _flex_of(system):
    """:func:`flex_params` of ``system.flex``, made once per system (``stepper_kind`` and
    :class:`FusedRHS` both need it)."""
    p = getattr(system, "_fused_flex", None)
    if p is None:
        p = system._fused_flex = flex_params(system.flex)
    return p


def flex_params(flex, motion: np.ndarray | None = None):
    """The compiled form of a flexible tower and its tree
    (:class:`floatwind._kernels.flex.FlexParams`: two flat arrays, ``floatwind._kernels.flex.
    pack``; ``flex`` a :class:`floatwind.multibody.flex_dynamics.FlexTower`)."""
    from floatwind._kernels.flex import FlexParams, pack
    from floatwind.multibody.flex_tower import node_tensors

    tree = flex.tree
    N = tree.n_bodies
    pt = np.zeros((N, 3))
    for c, j in tree.joint_of.items():
        if j.parent == 0:  # the joint point rel. the undeflected top (flex_dynamics.partials)
            pt[c] = j.r_J_p - tree.cm_b[0] - flex.top0
    rider = np.zeros(N, dtype=np.int64)
    rider[list(flex.riders)] = 1
    # the nodes node-major, the top apart, and the modal integrals of the nodes' first moments
    # (ElastoDyn's node sums of rZT / PLinVelET weighted by the node masses, computed once)
    J = int(flex.J)
    mn = np.asarray(flex.node_mass[:J], dtype=float)
    node0n = np.asarray(flex.node0[:J], dtype=float)
    phin = np.asarray(flex.phi[:, :J], dtype=float).T
    axn = np.moveaxis(np.asarray(flex.axred[:, :, :J], dtype=float), 2, 0)
    d = dof_params(tree, motion)
    n, nj = int(flex.n), int(tree.n_dofs)
    fl = {
        "phit": flex.phi[:, J], "axt": flex.axred[:, :, J], "e": flex.e,
        "slope": flex.slope_top, "Km": flex.K, "Cm": flex.C, "mass": flex.mass_ext[:N],
        "inertia": flex.inertia_ext[:N], "top0": flex.top0, "pt": pt, "mn": mn,
        "node0n": node0n, "phin": phin, "axn": axn, "pm": phin.T @ mn,
        "am": np.einsum("j,jkl->kl", mn, axn), "c0": mn @ node0n, "axis": d.axis,
        "ratio": d.dof_ratio, "rJp": d.rJp,
        "scal": [float(flex.total_mass), float(flex.gravity), float(mn.sum())],
    }  # fmt: skip
    # the nodes' second moments as modal tensors (_kernels.flex_nodes)
    fl.update(node_tensors(mn, node0n, phin.T, np.moveaxis(axn, 0, 2)))
    it = {"is_fa": flex.is_fa, "rider": rider, "dof_of": d.dof_of, "parent": d.parent,
          "sub": d.sub}  # fmt: skip
    moving = _moving(tree)
    fp, ip = pack(fl, it, (N, nj, n, nj + n, J, int(moving)))
    return FlexParams(
        fp=fp, ip=ip, d=d, cm_b=np.ascontiguousarray(tree.cm_b, dtype=float), n=n, nj=nj,
        nf=nj + n, moving=moving,
    )  # fmt: skip


def _moving(tree) -> bool:
    """Whether some joint of ``tree`` has a prescribed motion (or drive command) that changes
    in time."""
    return not all(j.rotation.is_constant and j.slide.is_constant for j in tree.joint_of.values())


def tree_arrays(tree) -> tuple:
    """The tree as the arguments of :func:`floatwind._kernels.mcm.rel_table`: (order, parent,
    joint axis, R0_c2p, r_J_p - cm_b[parent], cm_b[child] - r_J_c per child body, mass,
    inertia_b, total mass)."""
    N = tree.n_bodies
    axis = np.zeros((N, 3))
    R0 = np.zeros((N, 3, 3))
    rJp = np.zeros((N, 3))
    uc = np.zeros((N, 3))
    parent = np.zeros(N, dtype=np.int64)
    for c, j in tree.joint_of.items():
        parent[c] = j.parent
        axis[c] = j.axis
        R0[c] = j.R0_c2p
        rJp[c] = j.r_J_p - tree.cm_b[j.parent]
        uc[c] = tree.cm_b[c] - j.r_J_c
    return (
        np.asarray(tree.order, dtype=np.int64), parent, f64(axis), f64(R0), f64(rJp), f64(uc),
        f64(tree.mass), f64(tree.inertia_b), float(tree.total_mass),
    )  # fmt: skip


def dof_params(tree, motion: np.ndarray | None = None, batch: int = 1):
    """The compiled form of ``tree``'s joint DOFs (:class:`floatwind._kernels.joints.DofParams`;
    ``motion`` (T, N, 6) the joint motions at the grid times, a (1, N, 6) placeholder when not
    given; the scratch of the right-hand side for ``batch`` members)."""
    from floatwind._kernels.joints import DofParams, dyn_size, kin_size
    from floatwind.multibody.drives import drive_arrays

    N = tree.n_bodies
    sub = np.zeros((N, N), dtype=np.int64)
    for c in tree.joint_of:
        sub[c, tree.subtree(c)] = 1
    da = drive_arrays([tree.joint_of[c].drive for c in tree.dofs])
    nf = tree.n_dofs
    if motion is None:
        motion = np.zeros((1, N, 6))
    f = np.ascontiguousarray
    order, parent, axis, R0_c2p, rJp, uc, mass, inertia_b, total_mass = tree_arrays(tree)
    return DofParams(
        n=int(nf), order=order, parent=parent, axis=axis, R0_c2p=R0_c2p, rJp=rJp, uc=uc,
        mass=mass, inertia_b=inertia_b, total_mass=total_mass, cm_b=f(tree.cm_b, dtype=float),
        dof_of=f(tree.dof_of, dtype=np.int64), dof_ratio=f(tree.dof_ratio, dtype=float),
        dof_offset=f(tree.dof_offset, dtype=float),
        dof_child=np.asarray(tree.dofs, dtype=np.int64).reshape(nf), sub=sub,
        stiffness=f(da.stiffness), damping=f(da.damping), torque0=f(da.torque0),
        table_n=f(da.table_n), table_x=f(da.table_x), table_y=f(da.table_y),
        motion=f(motion, dtype=float), ws_kin=np.empty(kin_size(batch, N)),
        ws_dyn=np.empty(dyn_size(batch, N, nf)),
    )  # fmt: skip
