"""Output channels of a run: the Dataset built from a recorded state (DESIGN.md).

Every scheme of :mod:`floatwind.simulate.schemes` records only states; the output channels are
evaluated here afterwards, on the recorded states, by the same code whatever the scheme
(:func:`to_dataset`), so they are consistent with the states and with each other.
"""

from __future__ import annotations

import contextvars
import logging
from typing import TYPE_CHECKING

import numpy as np

import floatwind
from floatwind.errors import CaseError
from floatwind.integrate import Recording
from floatwind.io.channels import CHANNELS, channel_attrs
from floatwind.io.result import Result, Variable
from floatwind.model import Model
from floatwind.rotation import euler_zyx_from_matrix
from floatwind.rotation.vec import cross, matvec
from floatwind.simulate.system import Evaluation, System, dof_channel_info, dof_state_names
from floatwind.validate import suggest

if TYPE_CHECKING:
    import xarray as xr

log = logging.getLogger(__name__)

#: set by ``simulate(..., light=True)``: :func:`to_dataset` returns a
#: :class:`~floatwind.io.result.Result` (no xarray) instead of an ``xarray.Dataset``
LIGHT = contextvars.ContextVar("floatwind_light_result", default=False)

PLATFORM_CHANNELS = ["PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmRoll", "PtfmPitch", "PtfmYaw"]


def output_times(t_max: float, dt_out: float) -> np.ndarray:
    """Output grid 0, dt_out, ..., t_max (t_max included)."""
    n = int(np.floor(t_max / dt_out + 1e-9))
    t = np.arange(n + 1) * dt_out
    if t[-1] < t_max - 1e-9 * dt_out:
        t = np.append(t, t_max)
    return t


#: output times x batch members evaluated together in :func:`to_dataset`
OUTPUT_BLOCK = 2048

#: the block of a model whose output rows are wide (:func:`output_block`): the flexible tower's
#: NumPy solve carries (bodies + tower nodes) x 6 x (6 + DOFs) per row, and 2048 such rows
#: overflow the cache (ref11's outputs 0.40 -> 0.25 s at 512 rows, the same bits;
#: docs/performance.md, "Output blocks and the netCDF file")
WIDE_OUTPUT_BLOCK = 512


def output_block(system: System) -> int:
    """Output rows per block of :func:`to_dataset`: :data:`OUTPUT_BLOCK`, at most
    :data:`WIDE_OUTPUT_BLOCK` for a flexible tower, and at most a load's ``output_block``
    (a load whose output kernel holds large arrays per row, e.g. MoorDyn's lines). Rows are
    evaluated member-wise, so any block gives the same numbers."""
    n = OUTPUT_BLOCK
    if getattr(system, "flex", None) is not None:
        n = min(n, WIDE_OUTPUT_BLOCK)
    for load in system.loads:
        n = min(n, getattr(load, "output_block", None) or n)
    return n


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
) -> xr.Dataset | Result:
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
    block = max(1, output_block(system) // B)
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
        if getattr(system, "flex", None) is not None and plan is None:
            ch.update(system.flex.channels(ev))  # the flexible tower's (issue 37)
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
    if getattr(system, "flex", None) is not None:
        from floatwind.multibody.flex_dynamics import CHANNELS as FLEX_CHANNELS

        info.update(FLEX_CHANNELS)
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
        data_vars[name] = Variable(dims, arr, attrs)
    ds = Result(
        data_vars,
        coords={
            "time": Variable("time", rec.t[:T], {"units": "s", "long_name": "simulation time"}),
            "realization": Variable(
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
    if not LIGHT.get():
        ds = ds.to_xarray()  # the Dataset as it always was built, then selected
    if B == 1:
        ds = ds.isel(realization=0, drop=True)
    return ds


def default_extra_channels(model: Model, extra_channels):
    """``extra_channels`` as given; by default, for a model with more than one body, the
    inverse-dynamics channels of :func:`floatwind.multibody.channels_for` (internal loads under
    OpenFAST names, YawBr*, Root*b1, and the gyroscopic / RNA moments, wherever the tree has the
    joints they are defined at). A flexible tower writes its own YawBr* and TwrBs*
    (``FlexTower.channels``, the deflected top's axes), so those are left out of the default."""
    if extra_channels is None and model.tree.n_bodies > 1:
        from floatwind.multibody import channels_for

        if getattr(model, "tower", None) is not None:
            return channels_for(model.tree, skip=("YawBr", "TwrBs"))
        return channels_for(model.tree)
    return extra_channels
