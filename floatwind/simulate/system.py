"""The right-hand side of a model: kinematics -> loads -> MCM forward dynamics.

Pure composition of ``floatwind.multibody`` and the loads; no physics formulas here.
State vector y = [q (6), qd (6), joint DOFs (2 n_dofs), load states ...] per batch member,
(B, n_y), q = [X1..X3 (system CM), X4..X6]; after the 12 rigid-body columns come the angles and
then the rates of the free joints (``tree.dofs``, docs/multibody.md "Joint DOFs"), then the
continuous states of the loads that have them (``Load.n_states``), in the model's load order
(:attr:`System.state_layout`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from floatwind.errors import CaseError
from floatwind.loads.base import Kinematics, Load, Wrench
from floatwind.model import Model
from floatwind.multibody.mcm import (
    Accelerations,
    MassDistribution,
    RelativeKinematics,
    body_kinematics,
    check_singularity,
    dof_initial_state,
    forward_dynamics,
    forward_dynamics_dofs,
    mass_distribution,
    relative_kinematics,
    relative_kinematics_many,
    system_state_from_base,
)
from floatwind.rotation import euler123_matrix, omega_from_euler_rates
from floatwind.rotation.euler import EULER_SINGULARITY_TOL
from floatwind.rotation.vec import cross, matvec


@dataclass
class Evaluation:
    """Everything computed for one (t, y): used for outputs and inverse dynamics."""

    t: float
    q: np.ndarray
    qd: np.ndarray
    rel: RelativeKinematics
    md: MassDistribution
    kin: Kinematics
    wrench: Wrench
    acc: Accelerations | None  # None: evaluated without the forward dynamics (outputs only)
    per_load: list[Wrench] | None = None
    #: (B, n_y - 12) rates of the loads' own states (None: the model has none)
    state_rates: np.ndarray | None = None
    #: (B, n_y - 12) the loads' own states (None: the model has none)
    states: np.ndarray | None = None

    def total_wrench(self) -> tuple[np.ndarray, np.ndarray]:
        """External force and moment about each body CM (B, N, 3), inertial axes, including the
        acceleration-dependent (added-mass) part -A [a_G; alpha] that the core moved to the
        inertia side."""
        return self.wrench_with_reaction(self.wrench)

    def wrench_with_reaction(self, w: Wrench) -> tuple[np.ndarray, np.ndarray]:
        """Force and moment of ``w`` about each body CM including its added-mass reaction."""
        A = w.added_mass
        if A is None:
            return w.force, w.moment
        acc6 = np.concatenate([self.acc.a_G_g, self.acc.dw_b_g], axis=-1)
        am = -(A * acc6[..., None, :]).sum(axis=-1)
        return w.force + am[..., :3], w.moment + am[..., 3:]


_base_memory = Load.memory


def _keeps_memory(ld) -> bool:
    """Whether load ``ld`` keeps a step memory: its ``keeps_memory`` where it says (a load whose
    memory depends on its settings, e.g. a rotor coupled per step), else whether its type
    overrides :meth:`Load.memory`."""
    own = getattr(ld, "keeps_memory", None)
    if own is not None:
        return bool(own)
    return getattr(type(ld), "memory", None) is not None and type(ld).memory is not _base_memory


def _kin_slice(kin: Kinematics, t: float, a: int, b: int) -> Kinematics:
    """Members a .. b - 1 of a stacked Kinematics, at time t."""
    return Kinematics(
        t=t,
        r_G_g=kin.r_G_g[a:b],
        R_b2g=kin.R_b2g[a:b],
        v_G_g=kin.v_G_g[a:b],
        w_b_g=kin.w_b_g[a:b],
        cm_b=kin.cm_b,
    )


class _Pair:
    """(RelativeKinematics, MassDistribution) of rows of a flexible tower by the NumPy path
    (:meth:`System._relative_dofs`), formed at the first read."""

    __slots__ = ("_args", "_value")

    def __init__(self, system, times, y):
        self._args = (system, times, y)
        self._value = None

    def __call__(self):
        if self._value is None:
            system, times, y = self._args
            self._value = system._relative_dofs(times, y)
        return self._value


class Deferred:
    """The deflected tree's RelativeKinematics (``k`` 0) or MassDistribution (``k`` 1) of a
    flexible tower's compiled output rows (:meth:`System._flex_tree`): the channels take theirs
    from the compiled state, so the NumPy path forms them only when a field is read (by an
    ``extra_channels`` function, say); ``joint_q`` (the joints' motions) is at hand."""

    __slots__ = ("_pair", "_k", "joint_q")

    def __init__(self, pair: _Pair, k: int, joint_q: dict | None = None):
        self._pair, self._k = pair, k
        if joint_q is not None:
            self.joint_q = joint_q

    def __getattr__(self, name):
        if name.startswith("_"):  # never the pair's (copy, pickle, an unset slot)
            raise AttributeError(name)
        return getattr(self._pair()[self._k], name)


class System:
    """Callable ``rhs(t, y)`` for a :class:`~floatwind.model.Model` with batch size B."""

    def __init__(self, model: Model):
        self.model = model
        self.tree = model.tree
        self.loads = model.loads
        self.env = model.env
        self._cache_t = None
        self._cache = None
        self._grid = None
        self._block = (None, None, None)
        tree = self.tree
        #: a flexible tower (issue 37): its modal coordinates follow the joint DOFs
        self.flex = None
        if getattr(model, "tower", None) is not None:
            from floatwind.multibody.flex_dynamics import FlexTower

            self.flex = FlexTower(model.tower, tree, model.tower_top_b)
        #: joint degrees of freedom: angles in y[:, 12 : 12 + n_dof], rates after them
        self.n_dof = tree.n_dofs + (self.flex.n if self.flex is not None else 0)
        self.n_rigid = 12 + 2 * self.n_dof
        self._drives = [tree.joint_of[c].drive for c in tree.dofs]
        self._commands = [tree.joint_of[c].rotation for c in tree.dofs]
        self._static = self.n_dof == 0 and all(
            j.rotation.is_constant and j.slide.is_constant for j in tree.joint_of.values()
        )
        # the loads' own states: (load index, columns of y) in load order
        layout, col = [], self.n_rigid
        for i, load in enumerate(self.loads):
            n = int(getattr(load, "n_states", 0) or 0)
            if n:
                layout.append((i, slice(col, col + n)))
                col += n
        self.state_layout: list[tuple[int, slice]] = layout
        self.n_y = col
        self._slice_of = dict(layout)
        self._stateful = [bool(getattr(ld, "stateful", False)) for ld in self.loads]
        self.memories: list = [None] * len(self.loads)
        self._has_memory = [_keeps_memory(ld) for ld in self.loads]
        # loads reading another load's step memory (Load.memory_of): index of that load
        self._memory_of: dict[int, int] = {}
        names = {getattr(ld, "name", None): j for j, ld in enumerate(self.loads)}
        for i, ld in enumerate(self.loads):
            src = getattr(ld, "memory_of", None)
            if src is None:
                continue
            j = names.get(src)
            if j is None or not self._has_memory[j]:
                why = "has none" if j is not None else "is not in the model"
                raise CaseError(f"load {getattr(ld, 'name', i)!r} reads the step memory of load "
                                f"{src!r}, which {why}")  # fmt: skip
            nb_i, nb_j = getattr(ld, "n_blades", None), getattr(self.loads[j], "n_blades", None)
            if nb_i is not None and nb_j is not None and nb_i != nb_j:
                raise CaseError(f"load {getattr(ld, 'name', i)!r} has {nb_i} blades, load {src!r} "
                                f"commands the pitch of {nb_j}")  # fmt: skip
            self._memory_of[i] = j
        # a controller's pitch demand that no rotor of the model reads (issue 36): refused
        rotors = [ld for ld in self.loads if hasattr(ld, "blade_bodies")]
        read = set(self._memory_of.values())
        for j, ld in enumerate(self.loads):
            if rotors and getattr(ld, "commands_pitch", False) and j not in read:
                name = getattr(ld, "name", j)
                raise CaseError(
                    f"the controller of load {name!r} commands the blade pitch, which no rotor "
                    f"reads: give the bem_rotor 'pitch_from: {name}' (its blades fixed in the "
                    "rotor body; blades on bodies of their own are not pitched by a controller)")

    @property
    def has_memory(self) -> bool:
        """Some load keeps a step memory (``Load.memory``)."""
        return any(self._has_memory)

    def start_run(self, t0: float, dt: float, n_steps: int, batch: int | None = None) -> None:
        """Allocate the step memories of the loads that have one for a run from ``t0`` with
        ``n_steps`` steps of ``dt`` (0 when the step is not fixed), one row per member of the
        run's state (``batch``: the rows of y0; default the model's batch): a y0 with more rows
        than the model's batch must not let the compiled kernels write past the memories."""
        B = self.model.batch if batch is None else int(batch)
        self.memories = [
            ld.memory(B, float(t0), float(dt), int(n_steps)) if has else None
            for ld, has in zip(self.loads, self._has_memory)
        ]
        for i, j in self._memory_of.items():  # the same object: read, never updated, by load i
            self.memories[i] = self.memories[j]

    def after_step(self, t: float, y: np.ndarray) -> None:
        """Let the loads with a step memory record the accepted state (t, y): called at the
        initial time and after every accepted step (``Integrator.run``'s ``after_step``)."""
        if not self.has_memory:
            return
        q, qd = y[:, :6], y[:, 6:12]
        rel, md = self._relative_y(t, y)
        kin = body_kinematics(self.tree, t, rel, md, q, qd)
        # the loads reading another's memory first: they measure for it (issue 36: the rotor's
        # measurements before its servodyn load's controller call)
        order = list(self._memory_of) + [i for i in range(len(self.loads))
                                         if i not in self._memory_of]  # fmt: skip
        for i in order:
            if self._has_memory[i] or i in self._memory_of:
                sl = self._slice_of.get(i)
                self.loads[i].after_step(t, kin, self.env, self.memories[i],
                                         None if sl is None else y[:, sl])  # fmt: skip

    def dof_names(self) -> list[str]:
        """Names of the joint DOF columns of y (:func:`dof_state_names`; the tower modes'
        ``Q_TFA1``.. after the joints')."""
        if self.flex is not None:
            names = list(self.tree.dof_names) + self.flex.names
            return [f"Q_{n}" for n in names] + [f"QD_{n}" for n in names]
        return dof_state_names(self.tree)

    def dof_info(self) -> dict[str, tuple[str, str]]:
        """Units and description of the joint DOF channels (:func:`dof_channel_info`)."""
        out = dof_channel_info(self.tree)
        if self.flex is not None:
            for n in self.flex.names:
                out[f"Q_{n}"] = ("m", f"tower mode {n}: modal coordinate (tower-top deflection)")
                out[f"QD_{n}"] = ("m/s", f"tower mode {n}: modal rate")
                out[f"QD2_{n}"] = ("m/s^2", f"tower mode {n}: modal acceleration")
        return out

    def state_names(self) -> list[str]:
        """Names of the columns of y after the 12 rigid-body ones: the joint DOFs, then the
        loads' own states."""
        out = self.dof_names()
        for i, _sl in self.state_layout:
            out += list(self.loads[i].state_names())
        return out

    def _load_wrench(self, i: int, load, t, kin, y) -> tuple[Wrench, np.ndarray | None]:
        if not self._stateful[i]:
            return load.wrench(t, kin, self.env), None
        sl = self._slice_of.get(i)
        return load.wrench_state(
            t, kin, self.env, None if sl is None else y[:, sl], self.memories[i]
        )

    @property
    def static(self) -> bool:
        """No moving joint: the relative kinematics are the same at every time."""
        return self._static

    #: number of grid times whose relative kinematics are computed in one vectorised block
    BLOCK = 512

    def use_time_grid(self, t0: float, spacing: float, n: int) -> None:
        """Announce that ``rhs`` will be called at t0 + k * spacing (k < n), e.g. the step and
        half-step times of RK4: the prescribed relative kinematics are then computed for blocks
        of those times at once (:func:`relative_kinematics_many`)."""
        self._grid = (float(t0), float(spacing), int(n))
        self._block = (None, None, None)

    def _relative(self, t: float):
        # prescribed joint motions depend on time only: reuse across batch members and stages,
        # and for a tree without moving joints compute them once
        if self._static and self._cache is not None:
            return self._cache
        if self._cache_t == t:
            return self._cache
        entry = self._from_grid(t)
        if entry is None:
            rel = relative_kinematics(self.tree, t)
            entry = (rel, mass_distribution(self.tree, rel))
        self._cache, self._cache_t = entry, t
        return entry

    def _relative_y(self, t: float, y: np.ndarray):
        """(RelativeKinematics, MassDistribution) at (t, y): :meth:`_relative` for a tree without
        joint DOFs; with them one entry per member from the joint states of ``y``."""
        if not self.n_dof:
            return self._relative(t)
        return self._relative_dofs(np.full(y.shape[0], float(t)), y)

    def _relative_dofs(self, times: np.ndarray, y: np.ndarray):
        nf = self.n_dof
        if self.flex is not None:  # the joint DOFs, then the tower modes (flex_dynamics)
            nj = self.tree.n_dofs
            dofs = (y[:, 12 : 12 + nj], y[:, 12 + nf : 12 + nf + nj]) if nj else None
            if nj == 0 and self._fixed_tree():  # one row for all (the same numbers per row)
                rel0 = relative_kinematics_many(self.tree, times[:1])
                rel0.joint_q = {k: tuple(np.broadcast_to(a, times.shape) for a in q)
                                for k, q in rel0.joint_q.items()}  # fmt: skip
            else:
                rel0 = relative_kinematics_many(self.tree, times, dofs)
            qm, qmd = y[:, 12 + nj : 12 + nf], y[:, 12 + nf + nj : 12 + 2 * nf]
            rel, ext = self.flex.relative(rel0, qm, qmd)
            md_ext = self.flex.mass_distribution(ext)
            md = self.flex.tree_md(md_ext)
            md.flex = (ext, md_ext, qm, qmd)
            md.flex_rel0 = rel0  # the undeflected tree (the compiled solve's table: _flex_rows)
            return rel, md
        dofs = (y[:, 12 : 12 + nf], y[:, 12 + nf : 12 + 2 * nf])
        rel = relative_kinematics_many(self.tree, times, dofs)
        return rel, mass_distribution(self.tree, rel)

    def drive_torques(self, t, y: np.ndarray) -> np.ndarray:
        """Torques (B, n_dof) of the free joints' drives at (t, y) (``multibody.drives``); ``t``
        one time, or one per member (B,)."""
        nf = self.n_dof
        out = np.zeros((y.shape[0], nf))
        for k, (drive, cmd) in enumerate(zip(self._drives, self._commands)):
            if np.ndim(t) == 0:
                th_c, thd_c, _ = cmd.evaluate(float(t))
            else:
                th_c, thd_c, _ = cmd.evaluate_many(t)
            out[:, k] = drive.torque(y[:, 12 + k], y[:, 12 + nf + k], (th_c, thd_c))
        return out

    def _dynamics(self, t, y, rel, md, q, qd, w):
        """The forward dynamics at (t, y): Wang (5.26), or with joint DOFs the coupled base and
        joint solve (``t`` one time, or one per member); the output rows of a flexible tower
        take the compiled solve instead (:meth:`evaluate_many`, :meth:`_flex_rows`)."""
        if not self.n_dof:
            return forward_dynamics(self.tree, rel, md, q, qd, w)
        if self.flex is not None:
            ext, md_ext, qm, qmd = md.flex
            tau = np.concatenate(
                [self.drive_torques(t, y)[:, : self.tree.n_dofs], self.flex.modal_forces(qm, qmd)],
                axis=1,
            )
            return self.flex.forward_dynamics(rel, ext, md_ext, q, qd, w, tau)
        return forward_dynamics_dofs(self.tree, rel, md, q, qd, w, self.drive_torques(t, y))

    def _fixed_tree(self) -> bool:
        """Whether the tree's joints are all fixed in time (no joint DOF, no moving prescribed
        motion): its relative kinematics are the same at every time."""
        if getattr(self, "_fixed", None) is None:
            self._fixed = not self.tree.n_dofs and all(
                j.rotation.is_constant and j.slide.is_constant for j in self.tree.joint_of.values()
            )
        return self._fixed

    def _flex_compiled(self) -> bool:
        """Whether the flexible tower's output rows take the compiled solve (kernels on, and
        ElastoDyn's top rotation: the form ``floatwind._kernels.flex`` implements)."""
        from floatwind import _kernels

        return _kernels.enabled() and self.flex.modes.top_rotation == "elastodyn"

    def _flex_params(self):
        """The compiled tower's flat parameters (``floatwind.simulate.fused.flex_params``), made
        once."""
        if getattr(self, "_flex_fp", None) is None:
            from floatwind.simulate.fused import flex_params

            self._flex_fp = flex_params(self.flex)
        return self._flex_fp

    def _flex_tree(self, t0: float, times: np.ndarray, y: np.ndarray):
        """The output rows' (rel, md, kin, X) of a flexible tower on the compiled path: the
        stepping's own stage ``floatwind._kernels.flex.flex_state`` on the undeflected tree's
        relative kinematics of each row (one row for a tree fixed in time) gives the rows'
        flexible state ``X`` (the deflected tree, the mass distribution over bodies + nodes,
        the partials) and the bodies' absolute kinematics (Wang 5.10) for the loads and the
        channels. ``rel`` and ``md`` (:class:`Deferred`) are the NumPy path's
        (:meth:`_relative_dofs`), formed only if something reads them; the output channels
        take theirs from ``X`` (:meth:`_flex_rows`), the joints' motions ``rel.joint_q`` are
        the undeflected tree's."""
        from floatwind._kernels import f64
        from floatwind._kernels import flex as kfx

        fp = self._flex_params()
        B, nj = y.shape[0], self.tree.n_dofs
        fixed = nj == 0 and self._fixed_tree()
        if fixed and getattr(self, "_flex_tab0", None) is not None:
            tab, q0 = self._flex_tab0  # a tree fixed in time: its one row, made once
        else:
            if fixed:  # one row for all (the same numbers per row)
                rel0 = relative_kinematics_many(self.tree, times[:1])
            else:
                nf = self.n_dof
                dofs = (y[:, 12 : 12 + nj], y[:, 12 + nf : 12 + nf + nj]) if nj else None
                rel0 = relative_kinematics_many(self.tree, times, dofs)
            R, N = (1 if fixed else B), self.tree.n_bodies
            # copies (writeable whatever the table's shape: one argument type for the kernel)
            tab = tuple(np.array(np.broadcast_to(a, (R, N) + np.shape(a)[2:]), np.float64,
                                 order="C")
                        for a in (rel0.r_G, rel0.dr_G, rel0.ddr_G, rel0.R_c2s, rel0.w_rel,
                                  rel0.dw_rel))  # fmt: skip
            q0 = rel0.joint_q
            if fixed:
                self._flex_tab0 = (tab, q0)
        joint_q = q0
        if fixed:
            joint_q = {k: tuple(np.broadcast_to(a, times.shape) for a in q)
                       for k, q in q0.items()}  # fmt: skip
        X, r_G, R_b2g, v_G, w_g = kfx.flex_state(fp.fp, fp.ip, *tab, not fixed, 0, f64(y))
        kin = Kinematics(t=t0, r_G_g=r_G, R_b2g=R_b2g, v_G_g=v_G, w_b_g=w_g,
                         cm_b=self.tree.cm_b)  # fmt: skip
        pair = _Pair(self, times, y)
        return Deferred(pair, 0, joint_q), Deferred(pair, 1), kin, X

    def _flex_rows(self, t, y, X, w):
        """:meth:`FlexTower.forward_dynamics` and :meth:`FlexTower.channels` (the NumPy
        reference) of the rows ``y`` compiled, in one call per block
        (``floatwind._kernels.flex_tree.out_rows``: the stepping's ``flex_dynamics`` on the
        rows' flexible state ``X`` of :meth:`_flex_tree`, the tower nodes' kinematics, then the
        accelerations and the tower channels of ``floatwind._kernels.flex_chan``)."""
        from floatwind._kernels import f64, flex_chan
        from floatwind._kernels.flex_tree import node_table, out_rows

        fp, flex = self._flex_params(), self.flex
        if getattr(flex, "_out_params", None) is None:
            flex._out_params = flex_chan.params(flex) + node_table(flex)
            flex._chan_names = flex_chan.channel_names(len(flex.modes.gages))
        B, N, nj, nf = y.shape[0], self.tree.n_bodies, self.tree.n_dofs, self.n_dof
        Pn = N + flex.J + 1
        tau = np.zeros((B, nf))
        if nj:
            tau[:, :nj] = self.drive_torques(t, y)[:, :nj]
        A = w.added_mass
        A = np.zeros((0, N, 6, 6)) if A is None else np.array(np.broadcast_to(A, (B, N, 6, 6)),
                                                               np.float64, order="C")  # fmt: skip
        fm = np.stack([f64(w.force), f64(w.moment)])
        names = flex._chan_names
        cv = np.empty((B, 3 * Pn + 3 * N + 3))
        ch = np.empty((B, len(names)))
        u = out_rows(fp.fp, fp.ip, f64(y), X, tau, fm, A, flex._out_params, cv, ch)
        a = cv[:, : 3 * Pn].reshape(B, Pn, 3)
        al = cv[:, 3 * Pn : 3 * Pn + 3 * N].reshape(B, N, 3)
        acc = Accelerations(u[:, 0:6], a[:, :N], al, cv[:, 3 * Pn + 3 * N :], u[:, 6:])
        acc.node_acc = a[:, N:]
        acc.flex_channels = {k: ch[:, i] for i, k in enumerate(names)}
        return acc

    def _relative_many(self, times: np.ndarray) -> list:
        """:meth:`_relative` at each of ``times``, the grid times computed in one vectorised
        call for just those times (outputs every few steps would otherwise compute whole blocks
        of the half-step grid); the same values (the computation is element-wise in time, and a
        grid time is taken as ``t0 + k spacing`` either way)."""
        if self._static or self._grid is None or len(times) < 2:
            return [self._relative(float(t)) for t in times]
        t0, dt, n = self._grid
        ks = np.rint((np.asarray(times, dtype=float) - t0) / dt).astype(np.int64)
        on = (ks >= 0) & (ks < n) & (np.abs(times - (t0 + ks * dt)) <= 1e-9 * dt)
        out: list = [None] * len(times)
        if on.any():
            idx = np.nonzero(on)[0]
            rel = relative_kinematics_many(self.tree, t0 + ks[idx] * dt)
            md = mass_distribution(self.tree, rel)
            for j, i in enumerate(idx):
                out[i] = (rel.take(j), md.take(j))
        for i in np.nonzero(~on)[0]:
            out[i] = self._relative(float(times[i]))
        return out

    def _relative_stack(self, times: np.ndarray, B: int):
        """(RelativeKinematics, MassDistribution) at ``times`` stacked time-major over ``B``
        members (leading axis T * B), as ``stack_members`` of :meth:`_relative_many`'s entries
        gives them; when every time is on the announced grid, straight from one vectorised call
        (the same numbers: the computation is element-wise in time)."""
        times = np.asarray(times, dtype=float)
        if not self._static and self._grid is not None and len(times) >= 2:
            t0, dt, n = self._grid
            ks = np.rint((times - t0) / dt).astype(np.int64)
            if np.all((ks >= 0) & (ks < n) & (np.abs(times - (t0 + ks * dt)) <= 1e-9 * dt)):
                rel = relative_kinematics_many(self.tree, t0 + ks * dt)
                md = mass_distribution(self.tree, rel)
                if B > 1:
                    rep = {}
                    for f in rel.__dataclass_fields__:
                        v = getattr(rel, f)
                        rep[f] = (
                            {k: tuple(np.repeat(np.asarray(a), B) for a in q) for k, q in v.items()}
                            if f == "joint_q"
                            else np.repeat(v, B, axis=0)
                        )
                    rel = RelativeKinematics(**rep)
                    md = MassDistribution(
                        **{f: np.repeat(getattr(md, f), B, axis=0) for f in md.__dataclass_fields__}
                    )
                return rel, md
        pairs = self._relative_many(times)
        return stack_members([p[0] for p in pairs], B), stack_members([p[1] for p in pairs], B)

    def _from_grid(self, t: float):
        if self._grid is None:
            return None
        t0, dt, n = self._grid
        k = int(round((t - t0) / dt))
        if not (0 <= k < n) or abs(t - (t0 + k * dt)) > 1e-9 * dt:
            return None
        b, off = divmod(k, self.BLOCK)
        if self._block[0] != b:
            ks = np.arange(b * self.BLOCK, min((b + 1) * self.BLOCK, n))
            rel = relative_kinematics_many(self.tree, t0 + ks * dt)
            self._block = (b, rel, mass_distribution(self.tree, rel))
        _, rel, md = self._block
        return rel.take(off), md.take(off)

    def evaluate(self, t: float, y: np.ndarray, *, keep_loads: bool = False) -> Evaluation:
        """Kinematics, loads and accelerations at (t, y); ``keep_loads`` also keeps each load's
        own Wrench (for per-load output channels)."""
        q, qd = y[:, :6], y[:, 6:12]
        check_singularity(t, q)
        rel, md = self._relative_y(t, y)
        kin = body_kinematics(self.tree, t, rel, md, q, qd)
        w = Wrench.zeros(y.shape[0], self.tree.n_bodies)
        per_load = [] if keep_loads else None
        rates = np.zeros((y.shape[0], self.n_y - 12)) if self.n_y > 12 else None
        for i, load in enumerate(self.loads):
            lw, ds = self._load_wrench(i, load, t, kin, y)
            if ds is not None:
                sl = self._slice_of[i]
                rates[:, sl.start - 12 : sl.stop - 12] = ds
            if keep_loads:
                per_load.append(lw)
            w += lw
        acc = self._dynamics(t, y, rel, md, q, qd, w)
        if self.n_dof:  # joint DOFs: d(theta)/dt = rate, d(rate)/dt = the solved acceleration
            nf = self.n_dof
            rates[:, 0:nf] = y[:, 12 + nf : 12 + 2 * nf]
            rates[:, nf : 2 * nf] = acc.qdd_dof
        states = y[:, 12:] if self.n_y > 12 else None
        return Evaluation(t, q, qd, rel, md, kin, w, acc, per_load, rates, states)

    def evaluate_many(
        self,
        times,
        ys: np.ndarray,
        *,
        keep_loads: bool = False,
        loads: list[int] | None = None,
        dynamics: bool = True,
    ) -> Evaluation:
        """:meth:`evaluate` at several times at once: one Evaluation whose batch axis is
        (time, member), time-major (T * B members). Bit-identical to :meth:`evaluate` time by
        time stacked with :func:`stack_evaluations`.

        Loads that take per-member times (``Load.accepts_time_array``) are called once on the
        whole stack; the others once per time on its slice of members. ``loads`` (indices into
        ``self.loads``) evaluates only those loads and ``dynamics=False`` skips the forward
        dynamics (``acc`` is None): for output channels that need neither the other loads nor
        the accelerations (:func:`floatwind.simulate.outputs.to_dataset` with ``channels``); each
        load's wrench and channels are the same numbers as in the full evaluation.
        """
        times = np.asarray(times, dtype=float)
        T, B = ys.shape[0], ys.shape[1]
        y = ys.reshape(T * B, ys.shape[2])
        q, qd = y[:, :6], y[:, 6:12]
        bad = np.abs(np.cos(q[:, 4])) < EULER_SINGULARITY_TOL
        if bad.any():
            k = int(np.nonzero(bad)[0][0] // B)
            check_singularity(float(times[k]), ys[k, :, :6])
        t_members = np.repeat(times, B)
        X = None  # a flexible tower's compiled state of the rows (System._flex_tree)
        if self.n_dof and dynamics and self.flex is not None and self._flex_compiled():
            rel, md, kin, X = self._flex_tree(float(times[0]), t_members, y)
        else:
            if self.n_dof:
                rel, md = self._relative_dofs(t_members, y)
            else:
                rel, md = self._relative_stack(times, B)
            kin = body_kinematics(self.tree, float(times[0]), rel, md, q, qd)
        w = Wrench.zeros(T * B, self.tree.n_bodies)
        per_load = [] if keep_loads else None
        slices = None
        chosen = range(len(self.loads)) if loads is None else loads
        for i in chosen:
            load = self.loads[i]
            if not self._stateful[i] and load.accepts_time_array(self.env):
                lw = load.wrench(t_members, kin, self.env)
            elif not self._has_memory[i] and load.accepts_time_array(self.env):
                # continuous states without a memory: the stacked states, one call
                lw = self._load_wrench(i, load, t_members, kin, y)[0]
            elif (
                self._has_memory[i]
                and i not in self._slice_of
                and callable(getattr(load, "wrench_times", None))
            ):  # a step memory read at each row's time, one call (the same numbers per row)
                lw = load.wrench_times(t_members, B, kin, self.env, self.memories[i])
            else:
                if slices is None:
                    slices = [_kin_slice(kin, float(times[k]), k * B, (k + 1) * B) for k in range(T)]
                lw = stack_members(
                    [
                        self._load_wrench(i, load, float(times[k]), slices[k], ys[k])[0]
                        for k in range(T)
                    ],
                    B,
                )
            if keep_loads:
                per_load.append(lw)
            w += lw
        if X is not None:
            acc = self._flex_rows(t_members, y, X, w)
        else:
            acc = self._dynamics(t_members, y, rel, md, q, qd, w) if dynamics else None
        states = y[:, 12:] if self.n_y > 12 else None
        return Evaluation(float(times[0]), q, qd, rel, md, kin, w, acc, per_load, None, states)

    def rhs(self, t: float, y: np.ndarray) -> np.ndarray:
        """dy/dt (B, n_y) at (t, y)."""
        ev = self.evaluate(t, y)
        if ev.state_rates is None:
            return np.concatenate([ev.qd, ev.acc.qdd], axis=1)
        return np.concatenate([ev.qd, ev.acc.qdd, ev.state_rates], axis=1)

    def initial_state(self) -> np.ndarray:
        """y0 (B, n_y) from the model's initial conditions of the reference point (Wang 5.10)
        and the loads' :meth:`~floatwind.loads.base.Load.initial_states`."""
        m = self.model
        ic = m.initial
        B = m.batch
        disp = np.broadcast_to(ic.displacement, (B, 3))
        ang = np.broadcast_to(ic.angles, (B, 3))
        vel = np.broadcast_to(ic.velocity, (B, 3))
        rates = np.broadcast_to(ic.rates, (B, 3))
        R = euler123_matrix(ang)
        w_g = matvec(R, omega_from_euler_rates(ang, rates))
        arm = matvec(R, self.tree.cm_b[0] - m.ref_point_b)
        r_G1 = m.ref_point0_g + disp + arm
        v_G1 = vel + cross(w_g, arm)
        q, qd = system_state_from_base(self.tree, 0.0, r_G1, ang, v_G1, rates)
        if self.flex is not None:  # G_s of bodies + deflected tower (Wang 5.10, 5.16)
            y0 = np.concatenate([q, qd, self.initial_dofs(B)], axis=1)
            _rel, md = self._relative_dofs(np.zeros(B), y0)
            md_ext = md.flex[1]
            rho1 = md_ext.rho[:, 0]
            w = omega_from_euler_rates(ang, rates)
            q[:, :3] = r_G1 - matvec(R, rho1)
            qd[:, :3] = v_G1 - matvec(R, md_ext.drho[:, 0] + cross(w, rho1))
            return self.with_load_states(np.concatenate([q, qd, y0[:, 12:]], axis=1))
        return self.with_load_states(np.concatenate([q, qd], axis=1))

    def with_rest_states(self, t: float, y: np.ndarray) -> np.ndarray:
        """``y`` with the loads' continuous states replaced by their states at rest at the
        bodies' pose in ``y`` (:meth:`Load.states_at_rest`; static equilibria). Loads whose
        states do not depend on the pose keep their columns."""
        todo = [(i, sl) for i, sl in self.state_layout
                if type(self.loads[i]).states_at_rest is not Load.states_at_rest
                or type(self.loads[i]).initial_states_at is not Load.initial_states_at]  # fmt: skip
        if not todo:
            return y
        y = np.array(y, dtype=float)
        rel, md = self._relative_y(t, y)
        kin = body_kinematics(self.tree, t, rel, md, y[:, :6], y[:, 6:12])
        for i, sl in todo:
            y[:, sl] = self.loads[i].states_at_rest(t, kin, self.env)
        return y

    def initial_dofs(self, B: int) -> np.ndarray:
        """The joint DOF columns (B, 2 n_dof) at t = 0 (angles, then rates): each drive's
        ``initial`` or the joint's ``rotation`` motion at 0."""
        th, thd = dof_initial_state(self.tree)
        if self.flex is not None:  # the tower modes: the deck's initial deflection, at rest
            th = np.concatenate([np.reshape(th, (1, -1)), self.flex.modes.initial[None]], axis=1)
            thd = np.concatenate([np.reshape(thd, (1, -1)), np.zeros((1, self.flex.n))], axis=1)
        return np.broadcast_to(np.concatenate([th, thd], axis=1), (B, 2 * self.n_dof)).copy()

    def with_load_states(self, y12: np.ndarray) -> np.ndarray:
        """A rigid-body state (B, 12) completed with the loads' initial states (B, n_y); a full
        state is returned as it is."""
        y12 = np.asarray(y12, dtype=float)
        if y12.shape[-1] == self.n_y:
            return y12
        if y12.shape[-1] not in (12, self.n_rigid):
            raise ValueError(
                f"initial state must have 12, {self.n_rigid} or {self.n_y} columns, got "
                f"{y12.shape[-1]}"
            )
        B = y12.shape[0]
        parts = [y12]
        if y12.shape[-1] == 12 and self.n_dof:
            parts.append(self.initial_dofs(B))
        kin = None
        for i, sl in self.state_layout:
            load = self.loads[i]
            if type(load).initial_states_at is not Load.initial_states_at:
                if kin is None:  # states that start from the bodies' initial pose
                    y0 = np.concatenate(parts, axis=1)
                    rel, md = self._relative_y(0.0, y0)
                    kin = body_kinematics(self.tree, 0.0, rel, md, y0[:, :6], y0[:, 6:12])
                s0 = load.initial_states_at(0.0, kin, self.env)
            else:
                s0 = load.initial_states(B)
            parts.append(np.broadcast_to(np.asarray(s0, dtype=float), (B, sl.stop - sl.start)))
        return np.concatenate(parts, axis=1)


def dof_state_names(tree) -> list[str]:
    """Output channels of the joint DOF columns of y: angles ``Q_{joint}``, then rates
    ``QD_{joint}`` (ElastoDyn's naming)."""
    return [f"Q_{n}" for n in tree.dof_names] + [f"QD_{n}" for n in tree.dof_names]


def dof_channel_info(tree) -> dict[str, tuple[str, str]]:
    """Units and description of every joint DOF channel: ``Q_``, ``QD_`` and the solved
    acceleration ``QD2_{joint}`` (the free joints' entries of ``rel.joint_q`` keep the zero
    acceleration the relative kinematics are computed with)."""
    out = {}
    for n in tree.dof_names:
        out[f"Q_{n}"] = ("rad", f"angle of joint '{n}' (degree of freedom)")
        out[f"QD_{n}"] = ("rad/s", f"rate of joint '{n}' (degree of freedom)")
        out[f"QD2_{n}"] = ("rad/s^2", f"acceleration of joint '{n}' (degree of freedom)")
    return out


def cat_members(arrs: list, B: int) -> np.ndarray:
    """Per-time arrays with leading axis B (or 1, broadcast) -> one array, leading axis T * B."""
    arrs = [np.asarray(a) for a in arrs]
    if all(a.ndim >= 1 and a.shape[0] == B for a in arrs):
        return np.concatenate(arrs, axis=0)
    if all(a.ndim >= 1 and a.shape[0] == 1 for a in arrs):  # time-only entries: one per member
        return np.repeat(np.concatenate(arrs, axis=0), B, axis=0)
    return np.concatenate([np.broadcast_to(a, (B,) + a.shape[1:]) for a in arrs], axis=0)


def _cat_same(a, T: int, B: int) -> np.ndarray:
    """:func:`cat_members` of ``T`` times the same array ``a`` (the same operations, decided
    once instead of per entry)."""
    a = np.asarray(a)
    if a.ndim >= 1 and a.shape[0] in (1, B):
        # T copies of the B rows (or T * B of the one row) written in one broadcast assignment,
        # not a list of T arrays concatenated: the same array (ref01's 6,001 rows: issue 41)
        out = np.empty((T * B,) + a.shape[1:], dtype=a.dtype)
        out.reshape((T, B) + a.shape[1:])[...] = a
        return out
    return np.concatenate([np.broadcast_to(a, (B,) + a.shape[1:])] * T, axis=0)


def stack_members(objs: list, B: int):
    """Stack dataclass instances field by field (arrays along the batch axis)."""
    from dataclasses import fields, replace

    first = objs[0]
    # one object T times (a tree without moving joints: its relative kinematics at every
    # output time): the arrays are checked once, not T times (issue 41)
    same = all(o is first for o in objs)
    out = {}
    for f in fields(first):
        vals = [getattr(first, f.name)] * len(objs) if same else [getattr(o, f.name) for o in objs]
        v0 = vals[0]
        if isinstance(v0, np.ndarray) and v0.ndim >= 1 and v0.shape[0] in (1, B):
            if f.name == "cm_b":  # per body, not per member
                out[f.name] = v0
            elif same:
                out[f.name] = _cat_same(v0, len(objs), B)
            else:
                out[f.name] = cat_members(vals, B)
        elif f.name == "joint_q" and same:  # one value T times: broadcast, not a T-list
            T = len(objs)
            out[f.name] = {
                name: tuple(
                    np.repeat(np.broadcast_to(x := np.array([c], dtype=float), (T,) + x.shape[1:]), B)
                    for c in v0[name]
                )
                for name in v0
            }
        elif f.name == "joint_q":
            out[f.name] = {
                name: tuple(
                    np.repeat(np.array([v[name][i] for v in vals], dtype=float), B)
                    for i in range(len(v0[name]))
                )
                for name in v0
            }
        elif f.name == "channels" and same:
            out[f.name] = {name: _cat_same(v0[name], len(objs), B) for name in v0}
        elif f.name == "channels":
            out[f.name] = {name: cat_members([v[name] for v in vals], B) for name in v0}
        else:
            out[f.name] = v0
    return replace(first, **out)


def stack_evaluations(evs: list[Evaluation]) -> Evaluation:
    """Evaluations at several times as one Evaluation whose batch axis is (time, member)."""
    if len(evs) == 1:
        return evs[0]
    B = evs[0].q.shape[0]
    per_load = None
    if evs[0].per_load is not None:
        per_load = [
            stack_members([ev.per_load[i] for ev in evs], B) for i in range(len(evs[0].per_load))
        ]
    return Evaluation(
        t=evs[0].t,
        q=cat_members([ev.q for ev in evs], B),
        qd=cat_members([ev.qd for ev in evs], B),
        rel=stack_members([ev.rel for ev in evs], B),
        md=stack_members([ev.md for ev in evs], B),
        kin=stack_members([ev.kin for ev in evs], B),
        wrench=stack_members([ev.wrench for ev in evs], B),
        acc=stack_members([ev.acc for ev in evs], B),
        per_load=per_load,
        state_rates=None
        if evs[0].state_rates is None
        else cat_members([ev.state_rates for ev in evs], B),
        states=None if evs[0].states is None else cat_members([ev.states for ev in evs], B),
    )
