"""OpenFAST deck -> floatwind case (``floatwind import-openfast DECK.fst -o CASE.yaml``).

Builds a floatwind case dict (the YAML case format of :mod:`floatwind.case.loader`) from an
OpenFAST v5 deck read by :func:`floatwind.case.openfast_deck.read_fst`:

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
from collections.abc import Callable
from typing import Any

import numpy as np
import yaml

from floatwind.case import openfast_deck as od
from floatwind.environment.base import DEFAULT_RHO_WATER, DEFAULT_WATER_DEPTH
from floatwind.errors import CaseError

__all__ = [
    "ImportResult",
    "UnsupportedDeckError",
    "case_from_deck",
    "import_openfast",
    "model_from_deck",
    "write_case_yaml",
]

#: small inertia (kg m^2) / mass (kg) that makes a lumped ElastoDyn part a valid rigid body
#: (ElastoDyn's nacelle has no inertia except about the yaw axis, its generator no mass)
EPS_INERTIA = 1e-3
EPS_MASS = 1e-6


class UnsupportedDeckError(CaseError):
    """A deck with settings floatwind cannot represent; ``lines`` has one line per setting."""

    def __init__(self, lines: list[str], *, file: str | None = None):
        self.lines = list(lines)
        super().__init__(
            f"{len(lines)} unsupported setting(s): "
            + "; ".join(lines)
            + " (use --approximate to replace them by documented approximations)",
            file=file,
        )

    def with_file(self, file: str) -> UnsupportedDeckError:
        return self if self.file else UnsupportedDeckError(self.lines, file=file)


#: SeaState WaveStMod -> floatwind's ``stretching`` (2, extrapolation stretching, is refused)
_STRETCHING = {0: "none", 1: "vertical", 3: "wheeler"}


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


def _vec(v) -> list[float]:
    return [float(x) for x in np.asarray(v, dtype=float).ravel()]


def _mat(v) -> list[list[float]]:
    return [[float(x) for x in row] for row in np.asarray(v, dtype=float)]


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
    lines = list(od.unsupported_settings(deck))
    notes: list[str] = []
    dofs = od.enabled_dofs(deck)
    hd = od.hydrodyn_model(deck)
    ed_name = pathlib.Path(deck["ElastoDyn"]["file"]).name
    decisions: dict[str, Any] = {"yaw": "locked"}
    if dofs["YawDOF"]:
        # the nacelle yaw is a degree of freedom on the yaw-drive spring/damper (ServoDyn's
        # YawSpr, YawDamp) toward YawNeut or the override maneuver's command (issue 17)
        decisions["yaw"] = "drive"  # (YCMode != 0 is refused by od.unsupported_settings)
    decisions["rotor"] = "prescribed"
    if dofs["GenDOF"] and od.generator_off(deck):
        # the rotor speed as a degree of freedom without generator torque (issue 17)
        decisions["rotor"] = "free"
    elif dofs["GenDOF"] and approximate:
        notes.append(f"{ed_name}: GenDOF = True approximated: rotor spins at the constant RotSpeed")
    flex = [
        k
        for k in (
            "FlapDOF1",
            "FlapDOF2",
            "EdgeDOF",
            "TwFADOF1",
            "TwFADOF2",
            "TwSSDOF1",
            "TwSSDOF2",
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
        notes.extend(f"{ln}; approximated: ignored" for ln in od.unsupported_settings(deck))
        lines = [ln for ln in lines if ln not in od.unsupported_settings(deck)]
    return lines, notes, decisions


def case_from_deck(
    deck: dict,
    *,
    approximate: bool = False,
    split: bool = False,
    morison_axis: str = "undisplaced",
    name: str | None = None,
) -> ImportResult:
    """Build the floatwind case dict of an OpenFAST deck.

    Parameters
    ----------
    deck : dict
        From :func:`floatwind.case.openfast_deck.read_fst`.
    approximate : bool
        Replace unsupported settings by documented approximations (listed in ``notes``) instead of
        raising.
    split : bool
        Keep nacelle and rotor as separate bodies even when locked (for tower-top and blade-root
        loads from inverse dynamics).
    morison_axis : {"undisplaced", "instantaneous"}
        Morison member axis: HydroDyn's undisplaced axis, or the dissertation's instantaneous one.
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
    env = od.environment(deck)
    ic = od.initial_conditions(deck)
    servo = od.servodyn_maneuvers(deck)
    hd = od.hydrodyn_model(deck)
    ss = od.sea_state(deck)
    fst = deck["fst"]

    yaw_moves = decisions["yaw"] in ("maneuver", "drive")
    rot_speed = float(ic["RotSpeed"])
    spin = rot_speed != 0.0 or decisions["rotor"] == "free"
    ic = {**ic, "rotor_free": decisions["rotor"] == "free"}
    nacelle_separate = yaw_moves or split
    rotor_separate = spin or split
    mp = od.elastodyn_mass_properties(
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
        _split_topology(bodies, joints, mp, shift, ic, servo, yaw_moves)
    else:
        _lumped_topology(
            bodies, joints, mp, shift, ic, servo, yaw_moves, nacelle_separate, rotor_separate
        )

    loads: list[dict] = [{"type": "gravity"}]
    if hd is not None:
        p_hd = np.array([hd["PtfmRefxt"][0], hd["PtfmRefyt"][0], hd["PtfmRefzt"][0]], dtype=float)
        f0 = np.asarray(hd["AddF0"], float).ravel()[:6]
        C = np.asarray(hd["AddCLin"], float)[:6, :6]
        Bl = np.asarray(hd["AddBLin"], float)[:6, :6]
        if np.any(f0) or np.any(C) or np.any(Bl):
            loads.append(
                {
                    "type": "linear",
                    "name": "hydrodyn_additional",
                    "body": "platform",
                    "point": _vec(p_hd),
                    "point0": _vec(p_hd),
                    "f0": _vec(f0),
                    "stiffness": _mat(C),
                    "damping": _mat(Bl),
                }
            )
        if hd["PotMod"] == 1:
            loads.extend(_wamit_loads(hd, deck, p_hd, env, ss, notes))
        if decisions.get("morison"):
            loads.extend(_morison_loads(hd, deck, morison_axis, notes))
    # every load after gravity is HydroDyn's: their sum is HydroDyn's HydroF*i/HydroM*i
    hydrodyn_loads = list(range(1, len(loads)))
    moor = deck.get("Mooring")
    if moor is not None:
        from floatwind.case.mooring_files import read_mooring_file

        depth = float(env["water_depth"] or DEFAULT_WATER_DEPTH)
        mfile = read_mooring_file(moor["file"], kind=moor["kind"], depth=depth)
        for ln in mfile.lines:  # MAP++/MoorDyn vessel points are relative to the platform ref.
            if not isinstance(ln["fairlead"], str):
                ln["fairlead"] = _vec(np.asarray(ln["fairlead"], float) + ref)
        mload = {"type": "mooring_catenary", "body": "platform", "lines": mfile.lines}
        if mfile.connects:
            mload["connects"] = mfile.connects
        loads.append(mload)
        notes.extend(mfile.notes)
    sea: dict[str, Any] = {"kind": "still"}
    phase = od.regular_phase(ss["WaveMod"]) if ss is not None else None
    # SeaState's stretching of the incident-wave kinematics (unsupported modes are refused by
    # unsupported_settings): 0 none, 1 vertical, 3 Wheeler
    stretching = _STRETCHING.get(int(ss["WaveStMod"]), "none") if ss is not None else "none"
    if phase is not None:
        sea = {
            "kind": "regular",
            "height": float(ss["WaveHs"]),
            "period": float(ss["WaveTp"]),
            "phase_deg": phase,
            "heading_deg": math.degrees(ss["WaveDir"]),
            "stretching": stretching,
        }
    if ss is not None and ss["WaveMod"] == 2:
        sea = {
            "kind": "jonswap",
            "hs": float(ss["WaveHs"]),
            "tp": float(ss["WaveTp"]),
            "gamma": float(ss["WavePkShp"]),
            "heading_deg": math.degrees(ss["WaveDir"]),
            "stretching": stretching,
            "random_amplitude": bool(ss["WaveNDAmp"]),
        }
        notes.append(
            "SeaState JONSWAP imported by its parameters: floatwind's random phases differ from "
            "SeaState's (gfortran pRNG); compare.py reproduces the reference wave exactly from Wave1Elev"
        )
    environment = {
        "gravity": float(env["gravity"]),
        "rho_water": float(env["water_density"] or DEFAULT_RHO_WATER),
        "water_depth": float(env["water_depth"] or DEFAULT_WATER_DEPTH),
    }
    if sea["kind"] != "still":
        environment["waves"] = sea

    angles = euler123_from_zyx(ic["PtfmRoll"], ic["PtfmPitch"], ic["PtfmYaw"])
    t_max = float(fst["values"]["TMax"])
    dt = float(fst["values"]["DT"])
    dt_out = fst["values"].get("DT_Out", dt)
    dt_out = dt if dt_out == od.DEFAULT else float(dt_out)
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
    bodies, joints, mp, shift, ic, servo, yaw_moves, nacelle_separate, rotor_separate
) -> None:
    """Fewest bodies: locked parts merged rigidly into their parent (exact)."""
    P = _parts(mp, shift)
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


def _split_topology(bodies, joints, mp, shift, ic, servo, yaw_moves) -> None:
    """platform / tower / nacelle / rotor (hub + blades 2..) / blade1 [/ generator]: every joint of
    an OpenFAST load channel (TwrBs*t at ``tower``, YawBr*p at ``yaw``, Root*b1 at ``pitch1``)."""
    from floatwind.rotation import euler123_from_matrix

    P = _parts(mp, shift)
    spin = float(ic["RotSpeed"]) != 0.0 or bool(ic.get("rotor_free"))
    with_gen = spin and P["gen_iner"] > 0.0
    m, cm, inertia = _lump(P["platform"])
    bodies.append(_body("platform", m, cm, inertia, np.zeros(3), "ElastoDyn platform"))
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
    m, cm, inertia = _lump(P["nacelle"])
    bodies.append(_body("nacelle", m, cm, _regularise(inertia), P["top"], "ElastoDyn nacelle"))
    joints.append(
        {
            "name": "yaw",
            "parent": "tower",
            "child": "nacelle",
            "position_parent": _vec(P["top"] - P["base"]),
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
    g3 = (i3 - math.sin(b1["precone"]) * c1) / math.cos(b1["precone"])
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


def _morison_loads(hd: dict, deck: dict, axis: str, notes: list[str]) -> list[dict]:
    """HydroDyn Morison members (simple coefficients, model 1) -> floatwind morison (+ hydrostatics)."""
    joints = {
        j["JointID"]: np.array([j["Jointxi"], j["Jointyi"], j["Jointzi"]], float)
        for j in hd["joints"]
    }
    props = {p["PropSetID"]: float(p["PropD"]) for p in hd["properties_cyl"]}
    coef = hd["simple_coefficients_cyl"] or {}
    if isinstance(coef, list):
        coef = coef[0] if coef else {}
    hd_name = pathlib.Path(deck["HydroDyn"]["file"]).name
    members = []
    hst_members = []
    n_pot = n_full = 0
    for mb in hd["members"]:
        if mb.get("MCoefMod", 1) != 1:
            raise UnsupportedDeckError(
                [
                    f"{hd_name}: member {mb['MemberID']}: MCoefMod = {mb['MCoefMod']} (only simple coefficients, 1)"
                ]
            )
        a, b = joints[mb["MJointID1"]], joints[mb["MJointID2"]]
        da, db = props[mb["MPropSetID1"]], props[mb["MPropSetID2"]]
        ca = float(coef.get("SimplCa", 1.0))
        cp = float(coef.get("SimplCp", 1.0))
        # PropPot = True: the member is part of the WAMIT body, whose potential flow carries its
        # wave inertia, added mass and hydrostatics; HydroDyn keeps only its viscous drag
        pot = bool(mb.get("PropPot", False))
        members.append(
            {
                "end_a": _vec(a),
                "end_b": _vec(b),
                "diameter_a": da,
                "diameter_b": db,
                "cd": float(coef.get("SimplCd", 0.6)),
                "ca": 0.0 if pot else ca,
                "cm": 0.0 if pot else ca + cp,
                "strip_length": float(mb.get("MDivSize", 1.0)),
            }
        )
        if pot:
            n_pot += 1
            continue
        n_full += 1
        if abs(a[0] - b[0]) < 1e-9 and abs(a[1] - b[1]) < 1e-9:
            lo, hi = (a, b) if a[2] < b[2] else (b, a)
            dlo, dhi = (da, db) if a[2] < b[2] else (db, da)
            hst_members.append(
                {
                    "axis_xy": _vec(a[:2]),
                    "z_bottom": float(lo[2]),
                    "z_top": float(hi[2]),
                    "diameter_bottom": dlo,
                    "diameter_top": dhi,
                }
            )
    # HydroDyn without wave stretching (WaveStMod = 0) computes Morison loads at the nodes below
    # the still water level only: wet the strips up to the SWL, not up to the wave elevation
    try:
        stretch = int(od.sea_state(deck).get("WaveStMod", 0) or 0)
    except (KeyError, TypeError, ValueError):
        stretch = 0
    surface = "still" if stretch == 0 else "wave"
    notes.append(
        f"Morison strips wetted up to the {'still water level' if surface == 'still' else 'wave elevation'} "
        f"(SeaState WaveStMod = {stretch})"
    )
    out = [
        {
            "type": "morison",
            "body": "platform",
            "axis": axis,
            "surface": surface,
            "members": members,
        }
    ]
    if n_pot:
        notes.append(
            f"{hd_name}: {n_pot} member(s) with PropPot = True carry only viscous drag (cm = ca "
            "= 0, no member hydrostatics): the WAMIT body gives their inertia and buoyancy"
        )
    if hst_members and len(hst_members) == n_full:
        out.append({"type": "hydrostatics", "body": "platform", "members": hst_members})
        notes.append(
            "HydroDyn member hydrostatics (MHstLMod) imported as floatwind's exact nonlinear "
            "hydrostatics of the vertical members"
        )
    return out


def import_openfast(
    path: str | pathlib.Path,
    *,
    approximate: bool = False,
    split: bool | str = False,
    morison_axis: str = "undisplaced",
) -> ImportResult:
    """Read a deck and build the case (see :func:`case_from_deck`). ``split="auto"`` splits the
    bodies when the deck's OutLists ask for tower-base or blade-root loads
    (:mod:`floatwind.case.openfast_outputs`)."""
    deck = od.read_fst(path)
    if split == "auto":
        from floatwind.case.openfast_outputs import deck_outlist, needs_split

        split = needs_split(deck_outlist(deck))
    try:
        return case_from_deck(deck, approximate=approximate, split=split, morison_axis=morison_axis)
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
    return head + yaml.safe_dump(case, sort_keys=False, default_flow_style=None, width=100)


def write_case_yaml(result: ImportResult, path: str | pathlib.Path) -> pathlib.Path:
    """Write the imported case as YAML (loadable by ``floatwind run``)."""
    path = pathlib.Path(path)
    path.write_text(case_yaml(result["case"], result["notes"]))
    return path


def _wamit_loads(hd: dict, deck: dict, p_hd, env: dict, ss, notes: list[str]) -> list[dict]:
    """HydroDyn's WAMIT body (PotMod = 1) as floatwind loads: ``linear`` hydrostatics (rho g
    PtfmVol0 at the centre of buoyancy's x, y, and the ``.hst`` stiffness, at the reference
    point, as HydroDyn), ``potential_radiation`` (infinite-frequency added mass + memory: the
    convolution when RdtnMod = 1, the state-space model of ``<PotFile>.ss`` when RdtnMod = 2)
    and ``potential_excitation`` with waves (ExctnMod = 1: the ``.3`` data; ExctnMod = 2: the
    state-space model of ``<PotFile>.ssexctn``, HydroDyn then reads no ``.3``). A null body
    (PtfmVol0 = 0 and all-zero files, the usual switch for AddF0/AddCLin) gives none."""
    from floatwind.loads.hydrodyn_ss import read_checked, read_checked_exctn
    from floatwind.loads.wamit import read_wamit

    hd_file = deck["HydroDyn"]["file"]
    root = pathlib.Path(hd_file).parent / hd["PotFile"][0]
    waves = ss is not None and ss["WaveMod"] not in (0, "0")
    ss_file = exctn_file = None
    if hd["RdtnMod"] == 2:
        ss_file = _hydrodyn_ss_file(root, hd_file, "RdtnMod", read_checked)
    if hd["ExctnMod"] == 2:  # SS_Exc_Init opens the file with or without waves; SeaState's
        # WaveDir (which it must match) is unused without them
        wave_dir = math.degrees(ss["WaveDir"]) if waves else None
        exctn_file = _hydrodyn_ss_file(root, hd_file, "ExctnMod",
                                       lambda p: read_checked_exctn(p, wave_dir_deg=wave_dir))  # fmt: skip
    ulen = float(hd["WAMITULEN"][0])
    data = read_wamit(root, rho=1.0, gravity=1.0, ulen=ulen,
                      excitation=hd["ExctnMod"] == 1)  # fmt: skip
    vol = float(hd["PtfmVol0"][0])
    null = (vol == 0.0 and not np.any(data.hydrostatic) and not np.any(data.added_mass_inf)
            and not np.any(data.damping)
            and (data.excitation is None or not np.any(data.excitation)))  # fmt: skip
    if null:
        return []
    rho = float(env["water_density"] or DEFAULT_RHO_WATER)
    g = float(env["gravity"])
    buoy = rho * g * vol
    f0 = [0.0, 0.0, buoy, buoy * float(hd["PtfmCOByt"][0]), -buoy * float(hd["PtfmCOBxt"][0]),
          0.0]  # fmt: skip
    wamit = str(root)
    radiation = {"type": "potential_radiation", "name": "hydrodyn_wamit_radiation",
                 "body": "platform", "wamit": wamit, "ulen": ulen, "point": _vec(p_hd)}  # fmt: skip
    if ss_file is None:
        radiation.update(rdtn_tmax=float(hd["RdtnTMax"]), memory=hd["RdtnMod"] == 1)
    else:  # the state-space model refuses the convolution's keys
        radiation.update(model="state_space", ss_file=ss_file)
    out: list[dict] = [
        {"type": "linear", "name": "hydrodyn_wamit_hydrostatics", "body": "platform",
         "point": _vec(p_hd), "point0": _vec(p_hd), "f0": f0,
         "stiffness": _mat(rho * g * data.hydrostatic), "yawed": True,
         "openfast_channels": "B1HdS"},
        radiation,
    ]  # fmt: skip
    if hd["ExctnMod"] in (1, 2) and waves:
        excitation = {"type": "potential_excitation", "name": "hydrodyn_wamit_excitation",
                      "body": "platform", "wamit": wamit, "ulen": ulen, "point": _vec(p_hd)}  # fmt: skip
        if exctn_file is not None:
            excitation.update(model="state_space", ss_file=exctn_file)
        out.append(excitation)
    memory = {1: ", radiation memory", 2: ", radiation memory as state-space (.ss file)"}
    exciting = {1: ", potential_excitation", 2: ", state-space potential_excitation (.ssexctn)"}
    notes.append(
        f"{pathlib.Path(hd_file).name}: WAMIT body {hd['PotFile'][0]} (PotMod = 1) as potential_radiation"
        f" (infinite-frequency added mass{memory.get(hd['RdtnMod'], '')})"
        f"{exciting[hd['ExctnMod']] if len(out) > 2 else ''} and linear hydrostatics (rho g "
        "PtfmVol0 + .hst)"
    )
    return out


#: HydroDyn's state-space files: switch (= 2) -> suffix of ``<PotFile>``, what the file holds
_SS_FILES = {"RdtnMod": (".ss", "state-space radiation"),
             "ExctnMod": (".ssexctn", "state-space wave excitation")}  # fmt: skip


def _hydrodyn_ss_file(root: pathlib.Path, hd_file, key: str,
                      check: Callable[[pathlib.Path], Any]) -> str:  # fmt: skip
    """``<PotFile>.ss`` of RdtnMod = 2 or ``<PotFile>.ssexctn`` of ExctnMod = 2 (``key``), read
    and checked here by ``check`` so that a missing, malformed or unstable file (or, for
    ``.ssexctn``, one made for another wave direction) stops the import (one line naming the
    file and the line). HydroDyn (``SS_Radiation.f90``, ``SS_Rad_Init``) enables all six DOFs
    and reports a ``.ss`` file that does not enable them all as an error, which floatwind
    refuses (``read_checked``). ``SS_Excitation.f90`` (``SS_Exc_Init``) stops on a ``.ssexctn``
    whose WaveDir is not SeaState's."""
    suffix, what = _SS_FILES[key]
    path = root.with_name(root.name + suffix)
    if not path.is_file():
        raise CaseError(f"{key} = 2 ({what}) reads {path}, which does not exist",
                        field=key, file=str(hd_file))  # fmt: skip
    check(path)
    return str(path)
