"""OpenFAST deck -> floatwind case (``floatwind import-openfast DECK.fst -o CASE.yaml``).

Builds a floatwind case dict (the YAML case format of :mod:`floatwind.case.loader`) from an
OpenFAST v5 deck read by :func:`floatwind.case.openfast.read_fst`:

* **bodies** from ElastoDyn's own discretisation (:func:`elastodyn_mass_properties`): the base
  body is platform + tower + yaw bearing (rigid); the nacelle (point mass with only its yaw inertia
  ``NacYIner - NacMass (NacCMxn^2 + NacCMyn^2)``, ``ElastoDyn.f90:4744``) is a separate body on a
  yaw joint about the tower-top z axis when it moves (YawDOF with a ServoDyn override maneuver) or
  when ``split=True`` (needed for tower-top loads); the rotor (hub + blades, ``HubIner`` about the
  shaft) is a body spinning at the constant ``RotSpeed`` about the tilted shaft c1 when the rotor
  turns; the generator (massless in ElastoDyn, ``GenIner`` about the shaft, spinning at
  ``GBRatio * RotSpeed``) is its own body so that the spin angular momentum is exactly
  ``(RotIner + GBRatio GenIner) RotSpeed`` (reference README, "Mass model": 3.872885e7 kg m^2 for
  the NREL 5-MW) while its contribution to the platform inertia stays ``GenIner c1 c1^T``.
  Locked parts are merged rigidly into their parent (exact, and faster).
* **loads**: gravity; HydroDyn ``AddF0``/``AddCLin``/``AddBLin`` as a ``linear`` load at the
  WAMIT reference point (HydroDyn.f90:1498-1547, see ``docs/openfast_import.md`` section 6);
  Morison members and member hydrostatics when those load modules are installed.
* **environment**: gravity, water density and depth; SeaState still water or JONSWAP.
* **initial** conditions: ElastoDyn's Z-Y-X platform angles converted to floatwind's 1-2-3 angles
  through the rotation matrix (no small-angle approximation); velocities zero (ElastoDyn).
* **simulation**: ``TMax``, ``DT``, ``DT_Out``, RK4.

Settings floatwind cannot represent raise :class:`UnsupportedDeckError` with one line per setting,
unless ``approximate=True``, in which case documented approximations are applied and listed in the
returned notes (the CLI stores them in the output attrs). See ``docs/validation.md``.
"""

from __future__ import annotations

import copy
import math
import pathlib
from dataclasses import replace
from typing import Any

import numpy as np

from floatwind.case.openfast import case_text
from floatwind.case.openfast.aerodisk import aerodisk_case_load
from floatwind.case.openfast.aerodyn import rotor_config
from floatwind.case.openfast.elastodyn import (
    elastodyn_mass_properties,
    enabled_dofs,
    initial_conditions,
)
from floatwind.case.openfast.fst import environment as fst_environment
from floatwind.case.openfast.fst import read_fst
from floatwind.case.openfast.hydrodyn import case_loads as hydrodyn_case_loads
from floatwind.case.openfast.hydrodyn import hydrodyn_model
from floatwind.case.openfast.inflowwind import turbsim_covers, wind_channels, wind_config
from floatwind.case.openfast.moordyn import mooring_load
from floatwind.case.openfast.reader import DEFAULT, _float, _vec
from floatwind.case.openfast.seastate import case_waves, sea_state
from floatwind.case.openfast.servodyn import generator_off, servodyn_case_load, servodyn_maneuvers
from floatwind.case.openfast.settings import UnsupportedDeckError, unsupported_settings
from floatwind.environment.base import DEFAULT_RHO_WATER, DEFAULT_WATER_DEPTH
from floatwind.errors import CaseError

__all__ = [
    "ImportResult",
    "case_from_deck",
    "case_yaml",
    "deck_summary",
    "euler123_from_zyx",
    "import_openfast",
    "model_from_deck",
    "write_case_yaml",
]

#: small inertia (kg m^2) / mass (kg) that makes a lumped ElastoDyn part a valid rigid body
#: (ElastoDyn's nacelle has no inertia except about the yaw axis, its generator no mass)
EPS_INERTIA = 1e-3
EPS_MASS = 1e-6


class ImportResult(dict):
    """``{"case": dict, "notes": [str], "deck": dict, "info": dict}`` (a dict, for YAML dumps)."""


# ---------------------------------------------------------------------------------- helpers


def _lump(
    parts: list[tuple[float, np.ndarray, np.ndarray]],
) -> tuple[float, np.ndarray, np.ndarray]:
    """Rigid union of parts (mass, cm (3,), inertia about own CM (3, 3)) -> (mass, cm, inertia_cm)."""
    m = sum(p[0] for p in parts)
    cm = sum(p[0] * np.asarray(p[1]) for p in parts) / m
    inertia = np.zeros((3, 3))
    for mi, ci, ii in parts:
        d = np.asarray(ci) - cm
        inertia += ii + mi * (d @ d * np.eye(3) - np.outer(d, d))
    return float(m), cm, 0.5 * (inertia + inertia.T)


def _regularise(inertia: np.ndarray) -> np.ndarray:
    """Add EPS_INERTIA on the diagonal when the inertia is singular (a point mass, a thin disc)."""
    if np.linalg.eigvalsh(inertia).min() <= EPS_INERTIA:
        return inertia + EPS_INERTIA * np.eye(3)
    return inertia


def _body(name: str, mass: float, cm, inertia, origin, description: str) -> dict:
    I = np.asarray(inertia)
    return {
        "name": name,
        "description": description,
        "mass": float(mass),
        "cm": [float(v) for v in np.asarray(cm) - np.asarray(origin)],
        "inertia": {
            "xx": float(I[0, 0]),
            "yy": float(I[1, 1]),
            "zz": float(I[2, 2]),
            "xy": float(I[0, 1]),
            "xz": float(I[0, 2]),
            "yz": float(I[1, 2]),
        },
    }


def euler123_from_zyx(roll: float, pitch: float, yaw: float) -> np.ndarray:
    """floatwind 1-2-3 angles (X4, X5, X6) of the OpenFAST v5 platform angles (Z-Y'-X'', rad).

    ElastoDyn v5: body-to-earth ``R = Rz(yaw) Ry(pitch) Rx(roll)`` (``ElastoDyn.f90:6110-6123``);
    floatwind: ``R = Tx(X4) Ty(X5) Tz(X6)`` (Wang eq. 3.13). Converted through R, exactly.
    """
    from floatwind.rotation import euler123_from_matrix, euler_zyx_matrix

    R = euler_zyx_matrix(np.array([[roll, pitch, yaw]]))
    return np.asarray(euler123_from_matrix(R)).reshape(3)


# ---------------------------------------------------------------------------------- the import


def _screen(deck: dict, approximate: bool) -> tuple[list[str], list[str], dict]:
    """Unsupported lines, approximation notes, and the decisions taken."""
    lines = list(unsupported_settings(deck))
    notes: list[str] = []
    dofs = enabled_dofs(deck)
    hd = hydrodyn_model(deck)
    ed_name = pathlib.Path(deck["ElastoDyn"]["file"]).name
    decisions: dict[str, Any] = {"yaw": "locked"}
    if dofs["YawDOF"]:
        # the nacelle yaw is a degree of freedom on the yaw-drive spring/damper (ServoDyn's
        # YawSpr, YawDamp) toward YawNeut or the override maneuver's command (issue 17)
        decisions["yaw"] = "drive"  # (YCMode != 0 is refused by unsupported_settings)
    decisions["rotor"] = "prescribed"
    if dofs["GenDOF"]:
        # the rotor speed as a degree of freedom (issue 17), turned by ServoDyn's generator and
        # brake when connected (the servodyn load, issue 36)
        decisions["rotor"] = "free"
    flex = [
        k
        for k in (
            "FlapDOF1",
            "FlapDOF2",
            "EdgeDOF",
            "DrTrDOF",
            "PitchDOF",
        )
        if dofs[k]
    ]
    if flex and approximate:
        notes.append(f"{ed_name}: flexible DOFs {', '.join(flex)} approximated as rigid")
    for key, nm in (
        ("PtfmSgDOF", "surge"),
        ("PtfmSwDOF", "sway"),
        ("PtfmHvDOF", "heave"),
        ("PtfmRDOF", "roll"),
        ("PtfmPDOF", "pitch"),
        ("PtfmYDOF", "yaw"),
    ):
        if not dofs[key]:
            msg = f"{ed_name}: {key} = False (platform {nm} locked): floatwind's base body has 6 free DOFs"
            if approximate:
                notes.append(msg + "; approximated: left free")
            else:
                lines.append(msg)
    if hd is not None:
        hd_name = pathlib.Path(deck["HydroDyn"]["file"]).name
        if hd["NBody"] != 1:
            lines.append(
                f"{hd_name}: NBody = {hd['NBody']}: only one potential-flow body is supported"
            )
        if np.any(np.asarray(hd["AddBQuad"]) != 0.0):
            msg = f"{hd_name}: AddBQuad is non-zero: quadratic additional damping is not supported"
            if approximate:
                notes.append(msg + "; approximated: AddBQuad ignored")
            else:
                lines.append(msg)
        if hd["members"]:
            decisions["morison"] = True
    if approximate:
        # everything unsupported_settings refused becomes a note (the module is dropped)
        notes.extend(f"{ln}; approximated: ignored" for ln in unsupported_settings(deck))
        lines = [ln for ln in lines if ln not in unsupported_settings(deck)]
    return lines, notes, decisions


def case_from_deck(
    deck: dict,
    *,
    approximate: bool = False,
    split: bool = False,
    morison_axis: str = "undisplaced",
    name: str | None = None,
    mooring: str = "auto",
) -> ImportResult:
    """Build the floatwind case dict of an OpenFAST deck.

    Parameters
    ----------
    deck : dict
        From :func:`floatwind.case.openfast.read_fst`.
    approximate : bool
        Replace unsupported settings by documented approximations (listed in ``notes``) instead of
        raising.
    split : bool
        Keep nacelle and rotor as separate bodies even when locked (for tower-top and blade-root
        loads from inverse dynamics).
    morison_axis : {"undisplaced", "instantaneous"}
        Morison member axis: HydroDyn's undisplaced axis, or the dissertation's instantaneous one.
    mooring : {"auto", "dynamic", "quasi-static"}
        Mooring line model: "auto" runs a MoorDyn file (CompMooring = 3) with the lumped-mass
        lines (``mooring_lumped``) and a MAP++ file with the quasi-static catenary; the import
        notes which one it uses.
    name : str, optional
        Case name (default: the deck's file stem).

    Returns
    -------
    ImportResult
        ``case`` (dict for :func:`floatwind.case.loader.model_from_dict` / YAML), ``notes``
        (approximations and modelling remarks), ``info`` (geometry needed by the output channels:
        tower top, rotor apex, shaft tilt, precone, azimuth of blade 1, body names, pitch ramp).

    Raises
    ------
    UnsupportedDeckError
        One line per unsupported setting (without ``approximate``).
    CaseError
        Invalid deck entries.
    """
    fst_file = deck["file"]
    lines, notes, decisions = _screen(deck, approximate)
    if lines:
        raise UnsupportedDeckError(lines, file=fst_file)
    env = fst_environment(deck)
    ic = initial_conditions(deck)
    servo = servodyn_maneuvers(deck)
    hd = hydrodyn_model(deck)
    ss = sea_state(deck)
    fst = deck["fst"]

    from floatwind.case.openfast.tower import tower_dofs_on

    flex_tower = tower_dofs_on(deck)  # issue 37: the RNA rides on the tower modes
    yaw_moves = decisions["yaw"] in ("maneuver", "drive")
    rot_speed = float(ic["RotSpeed"])
    spin = rot_speed != 0.0 or decisions["rotor"] == "free"
    ic = {**ic, "rotor_free": decisions["rotor"] == "free"}
    nacelle_separate = yaw_moves or split or flex_tower
    rotor_separate = spin or split
    mp = elastodyn_mass_properties(
        deck,
        nac_yaw=0.0 if nacelle_separate else ic["NacYaw"],
        azimuth=ic["AzimB1Up"] if rotor_separate else ic["Azimuth"],
    )
    ref = np.asarray(mp["geometry"]["platform_reference"], dtype=float)
    # every position below: platform frame, origin = earth origin at rest (SWL on the centreline)
    shift = ref
    top = mp["tower"]["top"] + shift
    apex = mp["rotor"]["apex"] + shift

    bodies: list[dict] = []
    joints: list[dict] = []
    if split:
        _split_topology(bodies, joints, mp, shift, ic, servo, yaw_moves, flex_tower)
    else:
        _lumped_topology(
            bodies, joints, mp, shift, ic, servo, yaw_moves, nacelle_separate, rotor_separate,
            flex_tower,
        )  # fmt: skip

    loads: list[dict] = [{"type": "gravity"}]
    if hd is not None:
        loads.extend(
            hydrodyn_case_loads(
                hd, deck, env, ss, morison=bool(decisions.get("morison")),
                morison_axis=morison_axis, notes=notes,
            )
        )  # fmt: skip
    # every load after gravity is HydroDyn's: their sum is HydroDyn's HydroF*i/HydroM*i
    hydrodyn_loads = list(range(1, len(loads)))
    moor = deck.get("Mooring")
    run_dt = None
    if moor is not None:
        mload, run_dt = mooring_load(moor, env, ref, notes, mooring, float(fst["values"]["DT"]),
                                     dt_out=fst["values"].get("DT_Out"))  # fmt: skip
        loads.append(mload)
    if deck.get("AeroDisk") is not None and rotor_separate:
        # (a rotor at rest is refused by the AeroDisk file kind; with --approximate it is a note)
        loads.append(aerodisk_case_load(deck, body="rotor", shaft_axis=mp["rotor"]["shaft_axis"]))
    srv = None  # ServoDyn's generator, brake and blade pitch on the shaft joint (issue 36)
    if deck.get("ServoDyn") is not None and rotor_separate:
        nb = len(mp["blades"])
        srv = servodyn_case_load(
            deck, mp["generator"]["gearbox_ratio"],
            generator=decisions["rotor"] == "free" and not generator_off(deck),
            pitch0=None if split or deck.get("AeroDyn") is None else list(ic["BlPitch"][:nb]),
        )  # fmt: skip
        if srv is not None and split and "controller" in srv and deck.get("AeroDyn") is not None:
            # issue 36: the blade bodies of a split deck turn on prescribed pitch joints (the
            # motion is known before the run); a controller's demand cannot drive them (without
            # AeroDyn the demand only shows in BlPitchC: no load depends on it)
            raise CaseError(
                "a controller library commands the blade pitch, which the blade bodies of a split "
                "deck (Root*/TwrBs* channels in the OutLists, or --split) cannot follow: their "
                "pitch joints are prescribed; run it unsplit",
                field="PCMode", file=pathlib.Path(deck["ServoDyn"]["file"]).name)  # fmt: skip
        if srv is not None and "controller" in srv and not nacelle_separate:
            srv["tower_top"] = _vec(top)  # the yaw bearing on the merged platform (issue 36)
            if srv["controller"].get("kind") == "dll":
                # ElastoDyn's point nacelle: its weight and yaw inertia in the library's
                # yaw-bearing moments (records 77-78; the platform body holds its mass)
                srv["nacelle_mass"] = {"mass": float(mp["nacelle"]["mass"]),
                                       "cm": _vec(mp["nacelle"]["cm"] + shift),
                                       "yaw_inertia": float(mp["nacelle"]["yaw_inertia_cm"])}  # fmt: skip
        if srv is not None:
            loads.append(srv)
    if deck.get("AeroDyn") is not None:
        loads.append(_rotor_load(deck, mp, ic, split=split, rotor_separate=rotor_separate,
                                 nacelle_separate=nacelle_separate))  # fmt: skip
        rotor_entry = loads[-1]
        if srv is not None and "pitch" in srv:
            loads[-1]["pitch_from"] = "servodyn"
            if srv.get("controller", {}).get("kind") == "dll" and not split:
                # issue 36: the blades' weight and inertia in the library's root moments
                # (ElastoDyn's rigid blades: point masses on the coned pitch axis)
                loads[-1]["blade_mass"] = {
                    k: [float(b[f]) for b in mp["blades"]]
                    for k, f in (("mass", "mass"), ("first_moment", "first_moment"),
                                 ("second_moment", "second_moment"))
                }  # fmt: skip
        if "pitch_from" not in rotor_entry and not rotor_entry["options"].get("dbemt_mod"):
            # OpenFAST's coupling (docs/rotor.md, "Coupling"): AeroDyn solved once per glue step,
            # ElastoDyn's stages on its loads extrapolated in time with the deck's InterpOrder
            # (dynamic inflow and a commanded pitch keep the solve at every stage: not built)
            rotor_entry["coupling"] = "step"
            order = fst["values"].get("InterpOrder")
            rotor_entry["interp_order"] = 1 if order == 1 else 2
    sea = case_waves(ss, notes)
    environment = {
        "gravity": float(env["gravity"]),
        "rho_water": float(env["water_density"] or DEFAULT_RHO_WATER),
        "water_depth": float(env["water_depth"] or DEFAULT_WATER_DEPTH),
    }
    if sea["kind"] != "still":
        environment["waves"] = sea
    if deck.get("InflowWind") is not None:
        wind = wind_config(deck)
        if wind is not None:
            environment["wind"] = wind
            if wind.get("kind") == "turbsim" and deck.get("AeroDyn") is not None:
                _check_grid_covers_rotor(wind, mp, ref)

    angles = euler123_from_zyx(ic["PtfmRoll"], ic["PtfmPitch"], ic["PtfmYaw"])
    t_max, dt = _float(fst, "TMax"), _float(fst, "DT")  # a word or NaN named by its key
    dt_out = dt if fst["values"].get("DT_Out", DEFAULT) == DEFAULT else _float(fst, "DT_Out")
    for key, v in (("TMax", t_max), ("DT", dt), ("DT_Out", dt_out)):
        if not v > 0.0:
            raise CaseError(f"must be > 0, got {v:g}", field=key, file=fst["file"])
    if run_dt is not None:  # dynamic mooring lines: the step their fastest mode needs
        dt = run_dt
    case = {
        "name": name or pathlib.Path(fst_file).stem,
        "description": (
            f"imported from the OpenFAST deck {pathlib.Path(fst_file).name} by floatwind "
            "import-openfast" + ("; approximations: " + " | ".join(notes) if notes else "")
        ),
        "environment": environment,
        "bodies": bodies,
        "joints": joints,
        "reference_point": _vec(ref),
        "loads": loads,
        "initial": {
            "displacement": [float(ic["PtfmSurge"]), float(ic["PtfmSway"]), float(ic["PtfmHeave"])],
            "angles": _vec(angles),
        },
        "simulation": {"t_max": t_max, "dt": dt, "dt_out": dt_out, "integrator": "rk4"},
    }
    if not joints:
        del case["joints"]
    if flex_tower:
        from floatwind.case.openfast.tower import tower_modes
        from floatwind.multibody.flex_tower import tower_to_dict

        top_mass = mp["rotor"]["mass"] + mp["nacelle"]["mass"] + mp["yaw_bearing"]["mass"]
        tm = tower_modes(deck, float(env["gravity"]), top_mass)  # ElastoDyn TwrTpMass
        tm = replace(tm, base=np.asarray(mp["tower"]["base"], dtype=float) + shift)
        case["flexible_tower"] = tower_to_dict(tm, top)
    pitch = None
    if servo is not None and servo.get("pitch"):
        p = servo["pitch"][0]
        if p["start_time"] is not None:
            pitch = {
                "q0": float(ic["BlPitch"][0]),
                "rate": float(p["rate"]),
                "t_start": float(p["start_time"]),
                "final": float(p["final_angle"]),
            }
    info = {
        "tower_top": top,
        "tower_base": mp["tower"]["base"] + shift,
        "apex": apex,
        "shaft_tilt": float(mp["geometry"]["shaft_tilt"]),
        "precone": float(mp["geometry"]["precone"][0]),
        "hub_radius": float(mp["geometry"]["hub_radius"]),
        "nac_yaw0": float(ic["NacYaw"]),
        "azimuth0": float(ic["Azimuth"] - ic["AzimB1Up"]),
        "azim_b1_up": float(ic["AzimB1Up"]),
        "rot_speed": rot_speed,
        "blade_pitch0": float(ic["BlPitch"][0]),
        "pitch_maneuver": pitch,
        "bodies": [b["name"] for b in bodies],
        "mass_properties": mp,
        "decisions": decisions,
        "hydrodyn_loads": hydrodyn_loads,
        "wind_channels": wind_channels(deck),
    }
    return ImportResult(case=case, notes=notes, deck=deck, info=info)


def _parts(mp: dict, shift: np.ndarray) -> dict[str, Any]:
    """ElastoDyn parts as (mass, cm, inertia about own CM) tuples, positions from the earth origin."""
    top = mp["tower"]["top"] + shift
    apex = mp["rotor"]["apex"] + shift
    tower = [(mp["tower"]["mass"], mp["tower"]["cm"] + shift, mp["tower"]["inertia_cm"])]
    if mp["yaw_bearing"]["mass"] > 0.0:
        tower.append((mp["yaw_bearing"]["mass"], top, np.zeros((3, 3))))
    blades = [(b["mass"], b["cm"] + shift, b["inertia_cm"]) for b in mp["blades"]]
    return {
        "top": top,
        "base": mp["tower"]["base"] + shift,
        "apex": apex,
        "c1": np.asarray(mp["rotor"]["shaft_axis"]),
        "platform": [
            (mp["platform"]["mass"], mp["platform"]["cm"] + shift, mp["platform"]["inertia_cm"])
        ],
        "tower": tower,
        "nacelle": [
            (mp["nacelle"]["mass"], mp["nacelle"]["cm"] + shift, mp["nacelle"]["inertia_cm"])
        ],
        "hub": [(mp["hub"]["mass"], mp["hub"]["cm"] + shift, mp["hub"]["inertia_cm"])],
        "blades": blades,
        "generator": [(0.0, apex, mp["generator"]["inertia"])],
        "gen_iner": float(mp["generator"]["inertia_hss"]),
        "gb_ratio": float(mp["generator"]["gearbox_ratio"]),
    }


def _yaw_joint(ic: dict, servo: dict | None, yaw_moves: bool) -> dict:
    """The yaw joint's ``rotation`` (and ``drive``): ElastoDyn YawDOF = True makes the nacelle
    yaw a degree of freedom with ServoDyn's yaw-drive spring/damper toward the command
    YawPosCom(t): YawNeut, or the override maneuver's ramp from YawNeut at YawManRat from TYawManS
    to NacYawF (reference README of ref03, ``ServoDyn.f90:3362-3399``); it starts at ElastoDyn's
    NacYaw at rest. Without ServoDyn (no yaw moment) the yaw is free. YawDOF = False: locked
    at NacYaw."""
    if not yaw_moves:
        return {"rotation": {"kind": "locked", "value": float(ic["NacYaw"])}}
    initial = {"initial": float(ic["NacYaw"]), "initial_rate": 0.0}
    if servo is None:
        return {"rotation": {"kind": "locked", "value": float(ic["NacYaw"])},
                "drive": {"kind": "free", **initial}}  # fmt: skip
    y = servo["yaw"]
    if y["start_time"] is not None:
        command = {
            "kind": "ramp",
            "q0": float(y["neutral"]),
            "rate": float(y["rate"]),
            "t_start": float(y["start_time"]),
            "final": float(y["final_angle"]),
            "hold_at_start": True,  # ServoDyn's maneuver flag is set after TYawManS
        }
    else:
        command = {"kind": "locked", "value": float(y["neutral"])}
    spring, damping = float(y["spring"] or 0.0), float(y["damping"] or 0.0)
    if spring == 0.0 and damping == 0.0:
        return {"rotation": command, "drive": {"kind": "free", **initial}}
    drive = {"kind": "spring_damper", "stiffness": spring, "damping": damping, **initial}
    return {"rotation": command, "drive": drive}


def _spin_joints(bodies, joints, P, parent, origin, ic, with_generator: bool) -> None:
    """Shaft joint of the rotor (and the generator body) below ``parent`` (frame origin ``origin``)."""
    rot_speed = float(ic["RotSpeed"])
    free = bool(ic.get("rotor_free"))  # GenDOF with the generator off: a free rotor (issue 17)
    q0 = float(ic["Azimuth"] - ic["AzimB1Up"])
    shaft = {
        "name": "shaft",
        "parent": parent,
        "child": "rotor",
        "position_parent": _vec(P["apex"] - origin),
        "position_child": [0.0, 0.0, 0.0],
        "axis": _vec(P["c1"]),
        "rotation": {"kind": "constant_rate", "q0": q0, "rate": rot_speed},
    }
    if free:
        shaft["drive"] = {"kind": "free", "initial": q0, "initial_rate": rot_speed}
    joints.append(shaft)
    if with_generator:
        c1 = P["c1"]
        Ig = P["gen_iner"] * np.outer(c1, c1) + EPS_INERTIA * (np.eye(3) - np.outer(c1, c1))
        bodies.append(
            _body(
                "generator",
                EPS_MASS,
                P["apex"],
                Ig,
                P["apex"],
                f"ElastoDyn generator: GenIner about the shaft, spinning at GBRatio = {P['gb_ratio']:g} "
                "times the rotor speed (massless in ElastoDyn; EPS mass/transverse inertia)",
            )
        )
        hss = {
            "name": "hss",
            "parent": parent,
            "child": "generator",
            "position_parent": _vec(P["apex"] - origin),
            "position_child": [0.0, 0.0, 0.0],
            "axis": _vec(c1),
            "rotation": {"kind": "constant_rate", "q0": 0.0, "rate": P["gb_ratio"] * rot_speed},
        }
        if free:  # the generator turns GBRatio times the free rotor
            del hss["rotation"]
            hss["gear"] = {"leader": "shaft", "ratio": P["gb_ratio"], "offset": -P["gb_ratio"] * q0}
        joints.append(hss)


def _lumped_topology(
    bodies,
    joints,
    mp,
    shift,
    ic,
    servo,
    yaw_moves,
    nacelle_separate,
    rotor_separate,
    flex_tower=False,
) -> None:
    """Fewest bodies: locked parts merged rigidly into their parent (exact). With a flexible
    tower the base is the platform alone (the tower's masses are the modes' nodes) and the yaw
    bearing rides with the nacelle on the tower top."""
    P = _parts(mp, shift)
    if flex_tower:
        P["nacelle"] = P["nacelle"] + P["tower"][1:]  # the yaw bearing (a point at the top)
        P["tower"] = []
    spin = float(ic["RotSpeed"]) != 0.0 or bool(ic.get("rotor_free"))
    with_gen = spin and P["gen_iner"] > 0.0
    rot = P["hub"] + P["blades"] + ([] if with_gen else P["generator"])
    nac = P["nacelle"] + ([] if rotor_separate else rot)
    base = P["platform"] + P["tower"] + ([] if nacelle_separate else nac)
    m, cm, inertia = _lump([p for p in base if p[0] > 0.0 or np.any(p[2])])
    desc = "ElastoDyn platform + tower + yaw bearing"
    if not nacelle_separate:
        desc += " + nacelle" + ("" if rotor_separate else " + rotor (locked) + generator")
    bodies.append(_body("platform", m, cm, inertia, np.zeros(3), desc))
    parent, origin = "platform", np.zeros(3)
    if nacelle_separate:
        m, cm, inertia = _lump([p for p in nac if p[0] > 0.0 or np.any(p[2])])
        bodies.append(
            _body(
                "nacelle",
                m,
                cm,
                _regularise(inertia),
                P["top"],
                "ElastoDyn nacelle (yaw inertia only)"
                + ("" if rotor_separate else " + rotor (locked) + generator"),
            )
        )
        joints.append(
            {
                "name": "yaw",
                "parent": "platform",
                "child": "nacelle",
                "position_parent": _vec(P["top"]),
                "position_child": [0.0, 0.0, 0.0],
                "axis": [0.0, 0.0, 1.0],
                **_yaw_joint(ic, servo, yaw_moves),
            }
        )
        parent, origin = "nacelle", P["top"]
    if rotor_separate:
        m, cm, inertia = _lump(rot)
        bodies.append(
            _body("rotor", m, cm, _regularise(inertia), P["apex"], "ElastoDyn hub + blades")
        )
        _spin_joints(bodies, joints, P, parent, origin, ic, with_gen)


def _unconed_axis(blade: dict, c1: np.ndarray) -> np.ndarray:
    """A blade's pitch axis before precone (in the rotor plane): ElastoDyn's coned axis
    ``i3 = sin(PreCone) c1 + cos(PreCone) g3`` solved for ``g3`` (``blade``: an entry of
    ``elastodyn_mass_properties(...)["blades"]``)."""
    i3 = np.asarray(blade["axis"], dtype=float)
    return (i3 - math.sin(blade["precone"]) * c1) / math.cos(blade["precone"])


def _check_grid_covers_rotor(wind: dict, mp: dict, ref: np.ndarray) -> None:
    """InflowWind refuses a rotor that its TurbSim grid does not cover (floatwind's full-field
    wind would hold the edge values silently): the blade tips' circle about the undisplaced apex,
    one line naming the TurbSim file."""
    import turbsim_io

    path = wind["file"]
    try:
        grid = turbsim_io.read_bts(path)
    except (OSError, turbsim_io.BtsFormatError) as exc:
        raise CaseError(f"cannot read the TurbSim file: {exc}", file=path) from None
    apex = np.asarray(mp["rotor"]["apex"], dtype=float) + ref
    c1 = np.asarray(mp["rotor"]["shaft_axis"], dtype=float)
    radius = float(mp["geometry"]["tip_radius"])
    e2 = np.cross(c1, [0.0, 0.0, 1.0])
    e2 = e2 / np.linalg.norm(e2)
    e3 = np.cross(e2, c1)
    a = np.linspace(0.0, 2.0 * np.pi, 73)
    tips = apex + radius * (np.outer(np.cos(a), e2) + np.outer(np.sin(a), e3))
    ok = turbsim_covers(grid, tips, heading_deg=float(wind.get("heading_deg", 0.0)))
    if not np.all(ok):
        y, z = np.asarray(grid["y"]), np.asarray(grid["z"])
        raise CaseError(
            f"the TurbSim grid (y {y.min():g}..{y.max():g} m, z {z.min():g}..{z.max():g} m) does "
            f"not cover the rotor (apex at height {apex[2]:g} m, tip radius {radius:g} m): "
            "InflowWind refuses such a field; make the grid larger",
            file=str(path),
        )


def _rotor_load(deck: dict, mp: dict, ic: dict, *, split: bool, rotor_separate: bool,
                nacelle_separate: bool) -> dict:  # fmt: skip
    """The ``bem_rotor`` load of an AeroDyn deck (CompAero = 2): AeroDyn's part from
    :func:`floatwind.case.openfast.aerodyn.rotor_config`, the geometry from ElastoDyn (``mp``,
    in the frame of the body that carries the hub: ``rotor`` when the rotor turns or the
    topology is split, else the nacelle or platform it is merged into)."""
    ad_name = pathlib.Path(deck["AeroDyn"]["file"]).name
    cfg = rotor_config(deck)
    cfg.pop("channels", None)
    cfg.pop("channels_not_given", None)
    if "blade_files" in cfg:
        raise CaseError("blades of different AeroDyn blade files are not supported yet",
                        field="ADBlFile", file=ad_name)  # fmt: skip
    geo = mp["geometry"]
    nb = len(mp["blades"])
    precone = [float(p) for p in geo["precone"]]
    pitch = [float(p) for p in ic["BlPitch"][:nb]]
    if len(set(precone)) != 1:
        raise CaseError("blades of different PreCone are not supported yet",
                        field="PreCone(1)", file=pathlib.Path(deck["ElastoDyn"]["file"]).name)  # fmt: skip
    if len(set(pitch)) != 1:
        raise CaseError("blades of different initial BlPitch are not supported yet",
                        field="BlPitch(1)", file=pathlib.Path(deck["ElastoDyn"]["file"]).name)  # fmt: skip
    c1 = np.asarray(mp["rotor"]["shaft_axis"], dtype=float)
    g3 = _unconed_axis(mp["blades"][0], c1)
    apex = np.asarray(mp["rotor"]["apex"], dtype=float)
    if rotor_separate or split:
        body, origin = "rotor", apex
    elif nacelle_separate:
        body, origin = "nacelle", np.asarray(mp["tower"]["top"], dtype=float)
    else:
        body, origin = "platform", -np.asarray(geo["platform_reference"], dtype=float)
    load = {
        "type": "bem_rotor",
        "body": body,
        "apex": _vec(apex - origin),
        "shaft_axis": _vec(c1),
        "blade1_axis": _vec(g3),
        "n_blades": nb,
        "hub_radius": float(geo["hub_radius"]),
        "precone_deg": math.degrees(precone[0]),
        "pitch_deg": math.degrees(pitch[0]),
        **cfg,
    }
    if split:
        load["blade_bodies"] = ["blade1"] + ["rotor"] * (nb - 1)
    return load


def _split_topology(bodies, joints, mp, shift, ic, servo, yaw_moves, flex_tower=False) -> None:
    """platform / tower / nacelle / rotor (hub + blades 2..) / blade1 [/ generator]: every joint of
    an OpenFAST load channel (TwrBs*t at ``tower``, YawBr*p at ``yaw``, Root*b1 at ``pitch1``).
    With a flexible tower (issue 37) there is no tower body: the nacelle (with the yaw bearing)
    hangs from the platform at the tower top and rides on the tower modes, whose own channels
    give YawBr*p and TwrBs*t."""
    from floatwind.rotation import euler123_from_matrix

    P = _parts(mp, shift)
    spin = float(ic["RotSpeed"]) != 0.0 or bool(ic.get("rotor_free"))
    with_gen = spin and P["gen_iner"] > 0.0
    m, cm, inertia = _lump(P["platform"])
    bodies.append(_body("platform", m, cm, inertia, np.zeros(3), "ElastoDyn platform"))
    if flex_tower:
        P["nacelle"] = P["nacelle"] + P["tower"][1:]  # the yaw bearing rides on the top
        _split_rna(bodies, joints, mp, P, shift, ic, servo, yaw_moves, with_gen,
                   yaw_parent="platform", yaw_at=P["top"],
                   euler123_from_matrix=euler123_from_matrix)  # fmt: skip
        return
    m, cm, inertia = _lump(P["tower"])
    bodies.append(
        _body("tower", m, cm, _regularise(inertia), P["base"], "ElastoDyn tower + yaw bearing")
    )
    joints.append(
        {
            "name": "tower",
            "parent": "platform",
            "child": "tower",
            "position_parent": _vec(P["base"]),
            "position_child": [0.0, 0.0, 0.0],
            "axis": [0.0, 0.0, 1.0],
            "rotation": {"kind": "locked", "value": 0.0},
        }
    )
    _split_rna(bodies, joints, mp, P, shift, ic, servo, yaw_moves, with_gen,
               yaw_parent="tower", yaw_at=P["top"] - P["base"],
               euler123_from_matrix=euler123_from_matrix)  # fmt: skip


def _split_rna(bodies, joints, mp, P, shift, ic, servo, yaw_moves, with_gen, *, yaw_parent, yaw_at,
               euler123_from_matrix) -> None:  # fmt: skip
    """The split topology's nacelle / rotor / blade1 [/ generator] on the yaw joint at ``yaw_at``
    of ``yaw_parent``."""
    m, cm, inertia = _lump(P["nacelle"])
    bodies.append(_body("nacelle", m, cm, _regularise(inertia), P["top"], "ElastoDyn nacelle"))
    joints.append(
        {
            "name": "yaw",
            "parent": yaw_parent,
            "child": "nacelle",
            "position_parent": _vec(yaw_at),
            "position_child": [0.0, 0.0, 0.0],
            "axis": [0.0, 0.0, 1.0],
            **_yaw_joint(ic, servo, yaw_moves),
        }
    )
    m, cm, inertia = _lump(P["hub"] + P["blades"][1:] + ([] if with_gen else P["generator"]))
    bodies.append(
        _body("rotor", m, cm, _regularise(inertia), P["apex"], "ElastoDyn hub + blades 2..")
    )
    _spin_joints(bodies, joints, P, "nacelle", P["top"], ic, with_gen)
    # blade 1 in its pitched frame (j1, j2, j3): pitch = rotation about i3 by -BldPitch
    b1 = mp["blades"][0]
    c1, i3 = P["c1"], np.asarray(b1["axis"])
    g3 = _unconed_axis(b1, c1)
    i1 = math.cos(b1["precone"]) * c1 - math.sin(b1["precone"]) * g3
    i2 = np.cross(g3, c1)
    R0 = np.column_stack([i1, i2, i3])
    root = np.asarray(b1["root"]) + shift
    I_b = np.asarray(b1["inertia_cm_blade_frame"])
    bodies.append(
        {
            **_body(
                "blade1",
                b1["mass"],
                b1["cm_blade_frame"],
                _regularise(I_b),
                np.zeros(3),
                "ElastoDyn blade 1 (point masses on the pitch axis), pitched blade-1 frame",
            ),
        }
    )
    pitch0 = float(ic["BlPitch"][0])
    pm = (servo or {}).get("pitch") or []
    rotation: dict[str, Any] = {"kind": "locked", "value": -pitch0}
    if pm and pm[0]["start_time"] is not None:
        rotation = {
            "kind": "ramp",
            "q0": -pitch0,
            "rate": float(pm[0]["rate"]),
            "t_start": float(pm[0]["start_time"]),
            "final": -float(pm[0]["final_angle"]),
        }
    joints.append(
        {
            "name": "pitch1",
            "parent": "rotor",
            "child": "blade1",
            "position_parent": _vec(root - P["apex"]),
            "position_child": [0.0, 0.0, 0.0],
            "axis": [0.0, 0.0, 1.0],
            "orientation": _vec(np.asarray(euler123_from_matrix(R0[None])).reshape(3)),
            "rotation": rotation,
        }
    )


def import_openfast(
    path: str | pathlib.Path,
    *,
    approximate: bool = False,
    split: bool | str = False,
    morison_axis: str = "undisplaced",
    mooring: str = "auto",
) -> ImportResult:
    """Read a deck and build the case (see :func:`case_from_deck`). ``split="auto"`` splits the
    bodies when the deck's OutLists ask for tower-base or blade-root loads
    (:mod:`floatwind.case.openfast.outputs`)."""
    deck = read_fst(path)
    if split == "auto":
        from floatwind.case.openfast.outputs import deck_outlist, needs_split

        split = needs_split(deck_outlist(deck))
    try:
        return case_from_deck(
            deck, approximate=approximate, split=split, morison_axis=morison_axis, mooring=mooring
        )
    except CaseError as exc:
        raise exc.with_file(str(path)) from None


def model_from_deck(
    path: str | pathlib.Path,
    *,
    approximate: bool = False,
    overrides: dict | None = None,
    result: ImportResult | None = None,
):
    """Build the :class:`floatwind.model.Model` of a deck (``floatwind run DECK.fst``).

    ``overrides`` maps dotted case keys (``simulation.t_max``) to values.
    """
    from floatwind.case.loader import model_from_dict

    path = pathlib.Path(path)
    res = result if result is not None else import_openfast(path, approximate=approximate)
    case = copy.deepcopy(res["case"])
    for key, val in (overrides or {}).items():
        d = case
        parts = key.split(".")
        for p in parts[:-1]:
            d = d.setdefault(p, {})
        d[parts[-1]] = val
    text = case_yaml(case, res["notes"])
    try:
        return model_from_dict(
            case, base_dir=path.parent, name=path.stem, source=str(path), text=text
        )
    except CaseError as exc:
        raise exc.with_file(str(path)) from None


def case_yaml(case: dict, notes: list[str]) -> str:
    """YAML text of a case dict with the import notes as leading comments."""
    head = "# floatwind case imported from an OpenFAST deck (floatwind import-openfast)\n"
    head += "".join(f"# NOTE: {n}\n" for n in notes)

    def dump() -> str:
        import yaml

        # libyaml's emitter where PyYAML has it: the same text as the pure-Python one (the 13
        # reference decks, tests/test_startup.py) in a third of the time (issue 41)
        dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
        return yaml.dump(case, Dumper=dumper, sort_keys=False, default_flow_style=None,
                         width=100)  # fmt: skip

    # read back when an earlier run dumped it: no PyYAML import (case_text.py, issue 41)
    return head + case_text.cached_text(case, notes, dump)


def write_case_yaml(result: ImportResult, path: str | pathlib.Path) -> pathlib.Path:
    """Write the imported case as YAML (loadable by ``floatwind run``)."""
    path = pathlib.Path(path)
    path.write_text(case_yaml(result["case"], result["notes"]))
    return path


def deck_summary(deck: dict) -> dict[str, Any]:
    """Everything floatwind extracts from a deck, in one dict (SI).

    Returns
    -------
    dict
        ``file``, ``unsupported`` (list of str), ``environment``, ``dofs``, ``initial_conditions``,
        ``servodyn`` (or None), ``hydrodyn`` (or None), ``sea_state`` (or None),
        ``mass_properties``, ``tmax`` (s, TMax), ``dt`` (s, DT).
    """
    fst = deck["fst"]
    return {
        "file": deck["file"],
        "unsupported": unsupported_settings(deck),
        "environment": fst_environment(deck),
        "dofs": enabled_dofs(deck),
        "initial_conditions": initial_conditions(deck),
        "servodyn": servodyn_maneuvers(deck),
        "hydrodyn": hydrodyn_model(deck),
        "sea_state": sea_state(deck),
        "mass_properties": elastodyn_mass_properties(deck),
        "tmax": _float(fst, "TMax"),
        "dt": _float(fst, "DT"),
    }
