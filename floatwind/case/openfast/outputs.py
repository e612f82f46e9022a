"""The channels of an OpenFAST deck's OutLists that ``floatwind run DECK.fst`` writes.

OpenFAST writes the channels its modules' ``OutList`` sections name. floatwind computes, in
OpenFAST's names and SI units (the ``.out``/``.outb`` writers convert to FAST units):

* the platform motions, velocities and accelerations (``PtfmSurge`` ... ``PtfmRAzi``), always;
* the internal loads ``YawBr*p``, ``TwrBs*t``, ``Root*b1`` by inverse dynamics at the ``yaw``,
  ``tower`` and ``pitch1`` joints; the last two need the tower and blade 1 as bodies of their own,
  so a deck whose OutLists ask for them is imported split (as ``import-openfast --split``);
* ``HydroF*i``/``HydroM*i``: the sum of the loads the importer made from HydroDyn (force, and
  moment about the displaced platform reference point, inertial axes);
* the joint motions ``NacYaw``, ``NacYawV``, ``NacYawA`` (yaw joint), ``Azimuth``, ``RotSpeed``
  (spin joint; the azimuth of blade 1 from ElastoDyn's ``AzimB1Up``, in [0, 2 pi)) and
  ``BldPitch1`` (pitch joint of blade 1), from their motions at the output times, or for a joint
  with its own degree of freedom (YawDOF, GenDOF) from its states ``Q_``/``QD_``/``QD2_``;
* ``YawMom`` (ServoDyn) when the yaw is a degree of freedom on its drive: minus the drive's
  moment on the nacelle;
* every other channel a load writes under an OpenFAST name (``FAIRTEN1``, ``B1RdtFxi`` ...).

OpenFAST channel names are case-insensitive; names floatwind does not compute (controller
outputs, aerodynamics, flexible-body channels, other aliases) are listed in one line.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import xarray as xr

#: joint motion channels: OpenFAST name -> (joint names, 0 angle | 1 rate | 2 acceleration,
#: units, text); the importer names the rotor joint "shaft", the topologies "spin"
JOINT_CHANNELS = {
    "NacYaw": (("yaw",), 0, "rad", "nacelle yaw angle (yaw joint)"),
    "NacYawV": (("yaw",), 1, "rad/s", "nacelle yaw rate (yaw joint)"),
    "NacYawA": (("yaw",), 2, "rad/s^2", "nacelle yaw acceleration (yaw joint)"),
    "Azimuth": (("shaft", "spin"), 0, "rad",
                "rotor azimuth of blade 1, [0, 2 pi) (rotor joint angle + AzimB1Up)"),
    "RotSpeed": (("shaft", "spin"), 1, "rad/s", "rotor speed (rotor joint)"),
    "BldPitch1": (("pitch1",), 0, "rad", "blade 1 pitch angle (pitch joint of blade 1)"),
}  # fmt: skip
#: OutList channels that need the split topology (tower and blade 1 as bodies)
SPLIT_PREFIXES = ("twrbs", "root")
#: the modules whose OutLists a deck run honours
MODULES = (
    "ElastoDyn",
    "HydroDyn",
    "SeaState",
    "ServoDyn",
    "Mooring",
    "AeroDyn",
    "AeroDisk",
    "InflowWind",
)


def deck_outlist(deck: dict) -> list[str]:
    """The channel names of every module's OutList, in order, without repeats (case-insensitive)."""
    seen: dict[str, str] = {}
    for mod in MODULES:
        sec = deck.get(mod)
        if not isinstance(sec, dict):
            continue
        for lst in (sec.get("outlists") or {}).values():
            for name in lst:
                seen.setdefault(name.lower(), name)
    return list(seen.values())


def needs_split(names: list[str]) -> bool:
    """True when an OutList asks for tower-base or blade-root loads."""
    return any(n.lower().startswith(SPLIT_PREFIXES) for n in names)


def _joint(model, names: tuple[str, ...]):
    by_name = {j.name: j for j in model.tree.joint_of.values()}
    return next((by_name[n] for n in names if n in by_name), None)


def hydrodyn_totals(ds, load_names: list[str]) -> dict[str, np.ndarray]:
    """HydroDyn's ``HydroF*i``/``HydroM*i``: the sum of the per-load channels
    ``{name}_F{x,y,z}i``/``{name}_M{x,y,z}i`` (force, moment about the displaced platform
    reference point, inertial axes, added-mass reaction included) over the loads the importer
    made from HydroDyn; {} when there are none or a per-load channel is missing."""
    if not load_names:
        return {}
    out: dict[str, np.ndarray] = {}
    for q in ("F", "M"):
        for ax in "xyz":
            keys = [f"{n}_{q}{ax}i" for n in load_names]
            if any(k not in ds for k in keys):
                return {}
            out[f"Hydro{q}{ax}i"] = sum(np.asarray(ds[k].values, dtype=float) for k in keys)
    return out


def deck_channels(ds: xr.Dataset, model, info: dict) -> dict[str, xr.Variable]:
    """The HydroDyn sums and the joint-motion channels of a deck run, as Dataset variables with
    the dimensions of ``ds``'s channels ((realization,) time): ``xarray.Variable`` for a Dataset,
    :class:`floatwind.io.result.Variable` for the light result of ``floatwind run``."""
    from floatwind.io.result import Result, Variable

    if not isinstance(ds, Result):
        from xarray import Variable
    out: dict[str, xr.Variable] = {}
    dims = ds["PtfmSurge"].dims
    hydro = [model.loads[i].name for i in info.get("hydrodyn_loads", [])]
    what = {"F": ("N", "force"), "M": ("N m", "moment about the displaced PRP")}
    for name, tot in hydrodyn_totals(ds, hydro).items():
        unit, text = what[name[5]]
        out[name] = Variable(dims, tot, {
            "units": unit,
            "long_name": f"HydroDyn total {text}, inertial {name[6]} (sum of {', '.join(hydro)})"})  # fmt: skip
    t = ds["time"].values
    b1up = float(info.get("azim_b1_up", 0.0))
    for name, (joint, k, unit, text) in JOINT_CHANNELS.items():
        j = _joint(model, joint)
        if j is None:
            continue
        dof = f"{('Q', 'QD', 'QD2')[k]}_{j.name}"
        if j.free and dof in ds:  # a joint DOF: its own state (issue 17)
            vals = np.asarray(ds[dof].values, dtype=float)
        elif j.free:
            continue
        else:
            vals = np.asarray(j.rotation.evaluate_many(t)[k], dtype=float)
        if name == "Azimuth":
            vals = np.mod(vals + b1up, 2.0 * math.pi)
        if name == "BldPitch1":
            # pitch is a rotation about -i3 (ElastoDyn): the joint angle itself when the joint
            # axis is -z of the blade frame (topologies), its negative for +z (the importer)
            axis = np.asarray(j.axis, dtype=float)
            vals = vals * (-float(np.sign(axis[2])))
        arr = np.broadcast_to(vals, ds["PtfmSurge"].shape).copy()  # (time,) or per member
        out[name] = Variable(dims, arr, {"units": unit, "long_name": text})
    # InflowWind's Wind#VelX/Y/Z: the undisturbed wind at its fixed points
    wind, at = model.env.wind, {}
    for name, (point, comp) in (info.get("wind_channels") or {}).items():
        key = tuple(np.asarray(point, dtype=float).ravel())
        if key not in at:
            at[key] = _wind_series(wind, t, key)
        vals = np.array(at[key][:, comp], dtype=float)
        arr = np.broadcast_to(vals, ds["PtfmSurge"].shape).copy()
        out[name] = Variable(dims, arr, {
            "units": "m/s",
            "long_name": f"undisturbed wind, inertial {'xyz'[comp]}, at {tuple(point)} m"})  # fmt: skip
    yaw = _joint(model, ("yaw",))
    if yaw is not None and yaw.free and "Q_yaw" in ds and "QD_yaw" in ds:
        # ServoDyn's YawMom: minus the yaw-drive moment on the nacelle (ref03 README)
        th_c, thd_c, _ = yaw.rotation.evaluate_many(t)
        tau = yaw.drive.torque(ds["Q_yaw"].values, ds["QD_yaw"].values, (th_c, thd_c))
        out["YawMom"] = Variable(dims, np.asarray(-tau, dtype=float), {
            "units": "N m", "long_name": "yaw-drive moment, minus the moment on the nacelle "
            "about the yaw axis (ServoDyn YawMom; yaw joint degree of freedom)"})  # fmt: skip
    return out


def _wind_series(wind, t: np.ndarray, point: tuple) -> np.ndarray:
    """The undisturbed wind velocity (T, 3) at one fixed ``point`` at the output times ``t``:
    one call with the times as per-member times where the wind takes them
    (``accepts_time_array``: answered time by time with the scalar-time code, the same
    numbers), else one call per time (18,000 calls for ref09's three channels before)."""
    p = np.asarray(point, dtype=float)
    if getattr(wind, "accepts_time_array", False) and t.size:
        v = wind.velocity(np.asarray(t, dtype=float), np.broadcast_to(p, (t.size, 1, 3)))
        return np.asarray(v, dtype=float).reshape(t.size, 3)
    one = np.broadcast_to(p, (1, 1, 3))
    return np.array([np.asarray(wind.velocity(float(ti), one), dtype=float).reshape(3)
                     for ti in t]).reshape(-1, 3)  # fmt: skip


def not_computed(outlist: list[str], ds: xr.Dataset) -> list[str]:
    """The OutList names (case-insensitive) that ``ds`` does not hold."""
    have = {str(v).lower() for v in ds.data_vars}
    return [n for n in outlist if n.lower() not in have]
