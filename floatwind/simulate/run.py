"""Run one model (a batch of B members in lockstep) and turn the record into an xarray Dataset."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

import numpy as np
import xarray as xr

import floatwind
from floatwind.errors import CaseError, SimulationError
from floatwind.integrate import RK4, Recording, ScipyAdaptive
from floatwind.integrate.base import StateGuard
from floatwind.io.channels import channel_attrs
from floatwind.model import Model
from floatwind.rotation import EULER_PITCH_GUARD, euler_zyx_from_matrix
from floatwind.rotation.vec import cross, matvec
from floatwind.simulate.system import Evaluation, System, dof_channel_info, dof_state_names

log = logging.getLogger(__name__)

PLATFORM_CHANNELS = ["PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmRoll", "PtfmPitch", "PtfmYaw"]

#: The state index 4 is Wang's X5 (base-body 1-2-3 pitch): the run stops where |X5| reaches
#: :data:`floatwind.rotation.EULER_PITCH_GUARD` (89.5 deg), before the Euler-rate singularity.
PITCH_GUARD = StateGuard(
    index=4,
    limit=EULER_PITCH_GUARD,
    what="base pitch X5",
    why=(
        f"the Euler-singularity guard |X5| >= {np.degrees(EULER_PITCH_GUARD):g} deg (1-2-3 "
        "Euler-angle rates are singular at +-90 deg; use the Lie-group integrator for such motions)"
    ),
    scale=180.0 / np.pi,
    unit=" deg",
)


def output_times(t_max: float, dt_out: float) -> np.ndarray:
    """Output grid 0, dt_out, ..., t_max (t_max included)."""
    n = int(np.floor(t_max / dt_out + 1e-9))
    t = np.arange(n + 1) * dt_out
    if t[-1] < t_max - 1e-9 * dt_out:
        t = np.append(t, t_max)
    return t


def make_integrator(model: Model):
    s = model.settings
    name = s.integrator.lower()
    if name == "rk4":
        return RK4(s.dt)
    if name in ("dop853", "rk45"):
        return ScipyAdaptive(name.upper(), rtol=s.rtol, atol=s.atol, max_step=s.dt_out)
    raise SimulationError(f"unknown integrator {s.integrator!r}", time=0.0)


def _progress_bar(model: Model, enabled: bool | None):
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        return None, None
    from tqdm import tqdm

    bar = tqdm(total=model.settings.t_max, unit="s sim", desc=model.name, leave=False)
    state = {"last": 0.0}

    def update(t):
        if t - state["last"] >= 0.01 * model.settings.t_max or t >= model.settings.t_max:
            bar.update(t - state["last"])
            state["last"] = t

    return update, bar


def simulate(
    model: Model,
    *,
    y0: np.ndarray | None = None,
    progress: bool | None = None,
    extra_channels: Callable[[Evaluation], dict[str, np.ndarray]] | None = None,
    channels: list[str] | None = None,
) -> xr.Dataset:
    """Run ``model`` and return the result Dataset.

    Parameters
    ----------
    model : Model
    y0 : (B, 12) or (B, n_y), optional
        Initial state [q, qd] overriding the model's initial conditions (the loads' own states,
        when not given, start at their ``initial_states``).
    progress : bool, optional
        Show a tqdm bar (default: when stderr is a terminal).
    extra_channels : callable, optional
        ``fn(Evaluation) -> {name: (B,) array}`` adding output channels; by default, for a model
        with more than one body, the inverse-dynamics channels of
        :func:`floatwind.multibody.channels_for` (YawBr*, Root*b1, MgyroA..C, MRNAA..C).
        Channels outside the channel table need units and a description: the function's
        attribute ``channel_info = {name: (units, long_name)}``; a channel without them is an
        error (never a silent unit "1").
    channels : list of str, optional
        Keep only these output channels (those the model has); when they need neither the
        accelerations nor other loads, the outputs skip them (:func:`to_dataset`). A name that
        is no channel at all (:func:`known_channels`) is a ``CaseError`` with the closest names.

    Raises
    ------
    CaseError
        An unknown channel name.
    SimulationError
        When the run diverges; its ``dataset`` attribute holds the outputs up to the last good
        output time (the CLI writes them).
    """
    if channels is not None:
        if isinstance(channels, str) or not all(isinstance(c, str) for c in channels):
            raise ValueError(
                f"simulate: 'channels' must be a list of channel names, got {channels!r}"
            )
        channels = list(channels)
        check_channel_names(model, channels)
    if model.tree.n_dofs:
        _check_dof_solver(model)
    if model.formulation == "euler313":
        from floatwind.simulate.euler313 import run_euler313

        s = model.settings
        if y0 is not None or s.integrator.lower() != "rk4":
            raise CaseError(
                "formulation euler313 runs its own RK4 from the case's initial conditions "
                "(no y0 or other integrator)",
                field="formulation",
            )
        t_out = output_times(s.t_max, s.dt_out)
        ds = run_euler313(model, t_out, progress=_progress_bar(model, progress)[0])
        if channels is not None:  # a study's channels: those the formulation writes
            ds = ds[[c for c in channels if c in ds.data_vars]]
        return ds
    system = System(model)
    y0 = system.initial_state() if y0 is None else system.with_load_states(y0)
    if extra_channels is None and model.tree.n_bodies > 1:
        # internal loads from inverse dynamics under OpenFAST names (YawBr*, Root*b1) and the
        # gyroscopic / RNA moments, wherever the tree has the joints they are defined at
        from floatwind.multibody import channels_for

        extra_channels = channels_for(model.tree)
    s = model.settings
    t_out = output_times(s.t_max, s.dt_out)
    if s.integrator.lower() == "lie_generalized_alpha":
        from floatwind.simulate.lie import run_lie_group

        stateful = [ld.name for ld in model.loads if getattr(ld, "stateful", False)]
        if stateful:
            raise CaseError(
                f"load {stateful[0]!r} has states of its own, which the Lie-group integrator "
                "does not integrate: use integrator rk4",
                field="simulation.integrator",
            )
        return run_lie_group(model, t_out, progress=progress)
    if s.integrator.lower() == "bossak_newmark":
        from floatwind.simulate.bossak import run_bossak

        return run_bossak(
            model,
            t_out,
            y0=y0,
            progress=progress,
            extra_channels=extra_channels,
            channels=channels,
            guard=PITCH_GUARD,
        )
    integ = make_integrator(model)
    grid = integ.time_grid(t_out[0], t_out[-1]) if hasattr(integ, "time_grid") else None
    if grid is not None:
        system.use_time_grid(*grid)
    after_step = None
    if system.has_memory:
        dt = getattr(integ, "dt", None)
        if dt is None:
            name = next(ld.name for ld, m in zip(model.loads, system._has_memory) if m)
            raise CaseError(
                f"load {name!r} keeps a step memory, which needs a fixed time step: use "
                "integrator rk4",
                field="simulation.integrator",
            )
        system.start_run(float(t_out[0]), float(dt), int(np.ceil((t_out[-1] - t_out[0]) / dt - 1e-9)))
        after_step = system.after_step
    bound = s.bound
    if bound is not None and system.n_y > 12:
        # the divergence bound is on the rigid-body state; the loads' own states are free
        bound = np.concatenate([np.full(12, float(bound)), np.full(system.n_y - 12, np.inf)])
    fun = system.rhs
    if getattr(integ, "chunk_method", None):
        from floatwind.simulate.fused import fuse

        fused, why = fuse(system)
        if fused is not None:
            fun = fused  # whole RK4 steps in compiled chunks (docs/performance.md)
        else:
            _say_python_path(model, why)
    update, bar = _progress_bar(model, progress)
    try:
        kw = {} if after_step is None else {"after_step": after_step}
        rec = integ.run(fun, y0, t_out, bound=bound, progress=update, guard=PITCH_GUARD, **kw)
    except SimulationError as err:
        if err.partial is not None and err.partial.n > 0:
            err.dataset = to_dataset(
                model, system, err.partial, extra_channels, status=str(err), channels=channels
            )
        raise
    finally:
        if bar is not None:
            bar.close()
    return to_dataset(model, system, rec, extra_channels, channels=channels)


def _say_python_path(model: Model, why: str) -> None:
    """One line, once per model, when a run steps on the NumPy path instead of the compiled one
    (``FLOATWIND_NO_FUSED`` / ``FLOATWIND_NO_JIT`` asked for it: debug level only)."""
    if getattr(model, "_python_path_said", False):
        return
    level = logging.DEBUG if "switched off" in why or "kernels off" in why else logging.WARNING
    log.log(level, "%s: stepping on the Python path (slower): %s", model.name, why)
    try:
        model._python_path_said = True
    except AttributeError:  # a frozen model: say it every time
        pass


#: output times x batch members evaluated together in :func:`to_dataset`
OUTPUT_BLOCK = 2048


#: channels :func:`evaluate_outputs` computes from the state alone (no load, no accelerations)
STATE_CHANNELS = frozenset(
    [f"Ptfm{nm}" for nm in ("Surge", "Sway", "Heave", "Roll", "Pitch", "Yaw")]
    + [f"Ptfm{kind}V{ax}i" for kind in "TR" for ax in "xyz"]
    + [f"X{k}{sfx}" for k in range(1, 7) for sfx in ("", "d")]
    + [f"X{k}b" for k in range(1, 4)]
)


#: channels of the full evaluation (accelerations, external wrench, angular momentum)
DYNAMICS_CHANNELS = frozenset(
    [f"Ptfm{kind}A{ax}i" for kind in "TR" for ax in "xyz"]
    + [f"Ext{q}{ax}" for q in "FM" for ax in "xyz"]
    + [f"HGs{ax}" for ax in "xyz"]
)


def known_channels(model: Model) -> set[str]:
    """Every channel name that is valid for ``model``'s kind of output: the state and dynamics
    channels, the channel table (inverse-dynamics loads included), and this model's loads' own
    and per-load channels. A name outside it is a typo (:func:`check_channel_names`)."""
    from floatwind.io.channels import CHANNELS

    names = set(STATE_CHANNELS) | set(DYNAMICS_CHANNELS) | set(CHANNELS)
    names |= set(dof_channel_info(model.tree))  # joint DOFs
    for load in model.loads:
        names |= set(load.channel_info())
        if getattr(load, "n_states", 0):
            names |= set(load.state_names())
        names |= {f"{load.name}_{q}{ax}i" for q in "FM" for ax in "xyz"}
    for prefix in _openfast_wrench_loads(model):
        names |= {f"{prefix}{q}{ax}i" for q in "FM" for ax in "xyz"}
    return names


def _openfast_wrench_loads(model: Model) -> dict[str, object]:
    """``{prefix: load}`` of the loads whose wrench is also written under an OpenFAST name
    (``Load.openfast_wrench``, e.g. HydroDyn's ``B1Rdt``); a prefix that two loads claim is
    left out (their ``{name}_F*i`` channels remain)."""
    prefixes = [ld.openfast_wrench for ld in model.loads]
    return {p: ld for p, ld in zip(prefixes, model.loads) if p and prefixes.count(p) == 1}


def check_channel_names(model: Model, channels) -> None:
    """Unknown channel names are a :class:`CaseError` naming the closest ones."""
    from floatwind.validate import suggest

    known = known_channels(model)
    for i, c in enumerate(channels):
        if c not in known:
            raise CaseError(
                f"unknown channel {c!r}{suggest(c, sorted(known))}", field=f"channels[{i}]"
            )


def evaluate_outputs(model: Model, system: System, ev: Evaluation) -> dict[str, np.ndarray]:
    """Output channels (B,) for one evaluation; without accelerations (``ev.acc`` None) the
    state channels (:data:`STATE_CHANNELS`) and the evaluated loads' own channels only."""
    q, qd = ev.q, ev.qd
    kin, acc = ev.kin, ev.acc
    R = kin.R_b2g[:, 0]
    arm = matvec(R, model.ref_point_b - model.tree.cm_b[0])
    w = kin.w_b_g[:, 0]
    ref = kin.r_G_g[:, 0] + arm - model.ref_point0_g
    vref = kin.v_G_g[:, 0] + cross(w, arm)
    ang = euler_zyx_from_matrix(R)
    out = {}
    for k, nm in enumerate(("Surge", "Sway", "Heave")):
        out[f"Ptfm{nm}"] = ref[:, k]
    for k, nm in enumerate(("Roll", "Pitch", "Yaw")):
        out[f"Ptfm{nm}"] = ang[:, k]
    for k, ax in enumerate("xyz"):
        out[f"PtfmTV{ax}i"] = vref[:, k]
        out[f"PtfmRV{ax}i"] = w[:, k]
    for k in range(6):
        out[f"X{k + 1}"] = q[:, k]
        out[f"X{k + 1}d"] = qd[:, k]
    for k in range(3):
        out[f"X{k + 1}b"] = kin.r_G_g[:, 0, k]
    if ev.states is not None:  # the loads' own continuous states (System.state_layout)
        for j, name in enumerate(system.state_names()):
            out[name] = ev.states[:, j]
    if acc is None:
        for name, val in ev.wrench.channels.items():
            out[name] = np.asarray(val)
        return out
    for k, name in enumerate(model.tree.dof_names):
        out[f"QD2_{name}"] = acc.qdd_dof[:, k]
    dw = acc.dw_b_g[:, 0]
    aref = acc.a_G_g[:, 0] + cross(dw, arm) + cross(w, cross(w, arm))
    for k, ax in enumerate("xyz"):
        out[f"PtfmTA{ax}i"] = aref[:, k]
        out[f"PtfmRA{ax}i"] = dw[:, k]
    force, moment = ev.total_wrench()
    F = force.sum(axis=1)
    rho_g = kin.r_G_g - q[:, None, 0:3]
    M = (moment + cross(rho_g, force)).sum(axis=1)
    for k, ax in enumerate("xyz"):
        out[f"ExtF{ax}"] = F[:, k]
        out[f"ExtM{ax}"] = M[:, k]
        out[f"HGs{ax}"] = acc.angular_momentum_s[:, k]
    for name, val in ev.wrench.channels.items():
        out[name] = np.asarray(val)
    if ev.per_load is not None:
        # each load's force and moment about the displaced reference point (PRP), inertial axes,
        # added-mass reaction included: HydroDyn's HydroF*/HydroM* is the sum of the hydro loads
        r_ref = kin.r_G_g[:, 0] + arm
        aliased = _openfast_wrench_loads(model)
        for load, lw in zip(model.loads, ev.per_load):
            f, m = ev.wrench_with_reaction(lw)
            Fl = f.sum(axis=1)
            Ml = (m + cross(kin.r_G_g - r_ref[:, None], f)).sum(axis=1)
            for k, ax in enumerate("xyz"):
                out[f"{load.name}_F{ax}i"] = Fl[:, k]
                out[f"{load.name}_M{ax}i"] = Ml[:, k]
            prefix = load.openfast_wrench
            if aliased.get(prefix) is load:
                # OpenFAST's name (HydroDyn B1Rdt/B1Wvs/B1HdS): moment about the load's own point
                b = load.body
                r_p = kin.r_G_g[:, b] + matvec(kin.R_b2g[:, b], load.point_b - kin.cm_b[b])
                Mp = (m + cross(kin.r_G_g - r_p[:, None], f)).sum(axis=1)
                for k, ax in enumerate("xyz"):
                    out[f"{prefix}F{ax}i"] = Fl[:, k]
                    out[f"{prefix}M{ax}i"] = Mp[:, k]
    return out


def _per_load_attrs(name: str, model: Model) -> dict[str, str] | None:
    """Units and description of a load's wrench channel: ``{prefix}F{x,y,z}i`` under an
    OpenFAST prefix (moment about the load's displaced point) or ``{load name}_F{x,y,z}i``
    (moment about the displaced reference point)."""
    named = [(prefix, load, "its displaced point")
             for prefix, load in _openfast_wrench_loads(model).items()]  # fmt: skip
    named += [(f"{load.name}_", load, "the displaced reference point") for load in model.loads]
    for prefix, load, about in named:
        for ax in "xyz":
            if name == f"{prefix}F{ax}i":
                return {"units": "N", "long_name": f"force of load '{load.name}', inertial {ax}"}
            if name == f"{prefix}M{ax}i":
                return {"units": "N m",
                        "long_name": f"moment of load '{load.name}' about {about}, inertial {ax}"}  # fmt: skip
    return None


def _check_dof_solver(model: Model) -> None:
    """Joint degrees of freedom run with the momentum cloud core and its explicit integrators;
    the other formulations and integrators refuse them in one line."""
    names = ", ".join(model.tree.dof_names)
    if model.formulation != "mcm":
        raise CaseError(
            f"joint degrees of freedom ({names}) need the momentum cloud formulation (mcm), "
            f"not {model.formulation}",
            field="formulation",
        )
    integ = model.settings.integrator.lower()
    if integ in ("lie_generalized_alpha", "bossak_newmark"):
        raise CaseError(
            f"joint degrees of freedom ({names}) run with rk4, dop853 or rk45; {integ} integrates "
            "prescribed joints only",
            field="simulation.integrator",
        )


def output_plan(model: Model, channels) -> list[int] | None:
    """The loads (indices) whose channels, with the state channels, give all of ``channels``
    without the forward dynamics; None when a channel needs the full evaluation (accelerations,
    external wrench, per-load wrenches, inverse dynamics) or is not known."""
    if channels is None:
        return None
    need = set(channels) - STATE_CHANNELS - set(dof_state_names(model.tree))
    for load in model.loads:
        if getattr(load, "n_states", 0):
            need -= set(load.state_names())
    loads = []
    for i, load in enumerate(model.loads):
        own = set(load.channel_info())
        if need & own:
            loads.append(i)
            need -= own
    return None if need else loads


def to_dataset(
    model: Model,
    system: System,
    rec: Recording,
    extra_channels=None,
    status: str = "completed",
    channels=None,
) -> xr.Dataset:
    """Evaluate the output channels on the recorded states and build the Dataset (DESIGN.md).

    ``channels`` (names) keeps only those channels (the ones that exist); when they all come from
    the state and the loads' own channels (:func:`output_plan`, e.g. a study's PtfmPitch,
    RtAeroFxh, FAIRTEN1) only those loads are evaluated, without the forward dynamics: the same
    numbers at a fraction of the cost.
    """
    rec = rec.valid() if not rec.complete else rec
    plan = output_plan(model, channels)
    if plan is not None:
        extra_channels = None
    T = rec.n
    B = rec.y.shape[1]
    cols: dict[str, list] = {}
    # blocks of output times are evaluated at once, the times stacked along the batch axis
    # (System.evaluate_many; member-wise arithmetic: the numbers of one evaluation per time)
    block = max(1, OUTPUT_BLOCK // B)
    d = np.diff(rec.t[: max(T - 1, 0)])
    if d.size > 1 and np.all(np.abs(d - d[0]) <= 1e-9 * d[0]):
        # prescribed joint motions in vectorised blocks on the output grid (System.use_time_grid)
        system.use_time_grid(float(rec.t[0]), float(d[0]), T)
    for k0 in range(0, T, block):
        k1 = min(k0 + block, T)
        if plan is None:
            ev = system.evaluate_many(rec.t[k0:k1], rec.y[k0:k1], keep_loads=True)
        else:
            ev = system.evaluate_many(rec.t[k0:k1], rec.y[k0:k1], loads=plan, dynamics=False)
        evs = range(k0, k1)
        ch = evaluate_outputs(model, system, ev)
        if extra_channels is not None:
            ch.update(extra_channels(ev))
        if channels is not None:
            ch = {name: ch[name] for name in channels if name in ch}
        for name, val in ch.items():
            val = np.asarray(val)
            cols.setdefault(name, []).append(val.reshape((len(evs), B) + val.shape[1:]))
    if channels is not None and T > 0:
        missing = [c for c in channels if c not in cols]
        if missing:
            log.info("%s: channels not written by this model: %s", model.name, ", ".join(missing))
    info = system.dof_info()
    for load in model.loads:
        info.update(load.channel_info())
        if load.n_states:
            info.update(load.state_info())
    # an extra_channels function declares its channels in its attribute channel_info
    info.update(getattr(extra_channels, "channel_info", None) or {})
    data_vars = {}
    for name, vals in cols.items():
        arr = np.ascontiguousarray(np.swapaxes(np.concatenate(vals, axis=0), 0, 1))  # (B, T, ...)
        try:
            attrs = channel_attrs(name, info)
        except KeyError:
            attrs = _per_load_attrs(name, model)
            if attrs is None:  # never a silent "1": every channel has units and a description
                raise ValueError(
                    f"output channel {name!r} has no units and description: declare it in the "
                    "channel table (floatwind.io.channels) or the load's channel_info()"
                ) from None
        dims = ("realization", "time") + tuple(f"{name}_dim{d}" for d in range(arr.ndim - 2))
        data_vars[name] = xr.Variable(dims, arr, attrs)
    ds = xr.Dataset(
        data_vars,
        coords={
            "time": xr.Variable("time", rec.t[:T], {"units": "s", "long_name": "simulation time"}),
            "realization": xr.Variable(
                "realization", np.arange(B), {"units": "1", "long_name": "batch member"}
            ),
        },
    )
    ds.attrs.update(
        {
            "title": f"floatwind result: {model.name}",
            "floatwind_version": floatwind.__version__,
            "case_name": model.name,
            "case_file": model.source,
            "case_text": model.source_text,
            "integrator": model.settings.integrator,
            "dt": model.settings.dt,
            "status": status,
            "conventions": "SI units; inertial frame z up at SWL; see docs/conventions.md",
        }
    )
    for key, val in getattr(model.env, "attrs", lambda: {})().items():
        ds.attrs[f"env_{key}"] = val
    if B == 1:
        ds = ds.isel(realization=0, drop=True)
    return ds
