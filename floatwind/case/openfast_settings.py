"""Every setting of the OpenFAST module files that ``floatwind import-openfast`` handles, and what
floatwind does with it (issue 17, item 2).

Each key of the ``.fst``, ElastoDyn (with its blade and tower files), ServoDyn, SeaState and
HydroDyn files, each column of their tables and each column / solver option of a MAP++ file is one
:class:`Setting` of one of four kinds:

``mapped``
    the value goes into the floatwind case (``text`` says where). A mapped setting may also carry
    ``ok``: values outside it are refused (``supported`` says which values are imported).
``refused_unless``
    floatwind honours only the values ``ok`` accepts (``supported`` says which); any other value
    is refused in one line naming the file, the key, the value and what floatwind supports.
``no_physics``
    output, echo, summary, linearisation-request, visualisation or solver settings of OpenFAST
    that do not change the physics (``text`` says why).
``ignored_because``
    a setting that changes nothing in floatwind's rigid-body model; ``text`` gives the physical
    reason (blade structural properties when the blades are rigid and their DOFs are refused, ...).

:func:`refused_settings` applies the table to a deck (it is called by
:func:`floatwind.case.openfast_deck.unsupported_settings`, so the importer refuses those lines, or
notes them under ``--approximate``): a present key whose value is not supported is refused, and so
is a key the table does not know (floatwind cannot tell whether it changes the physics). Settings
with a ``checked_by`` entry are refused by that dedicated check instead (the generic one skips
them so that no setting is reported twice). ``tests/test_deck_settings.py`` checks that every key
of every reference deck is in the table, that every refusal fires, and that mapped keys reach the
case. See ``docs/openfast_import.md`` ("Settings: mapped, refused, no physics").

Indexed keys (``BlPitch(1)``, ``TwFAM1Sh(2)``, ``WaveSeed(2)``) are looked up as ``BlPitch(k)``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "COLUMNS",
    "ISSUE17_CORE",
    "KINDS",
    "SETTINGS",
    "Setting",
    "column_module",
    "counts",
    "deck_files",
    "lookup",
    "refused_items",
    "refused_settings",
]

KINDS = ("mapped", "refused_unless", "no_physics", "ignored_because")

#: the text of the settings the issue-17 rewrite (joints with their own DOF) owns: yaw DOF and
#: yaw drive, the generator DOF and the generator-torque/drivetrain model
ISSUE17_CORE = "joint DOF (issue 17 core)"


class _Ctx:
    """Read access to the other settings of the deck, for conditions between settings."""

    def __init__(self, deck: dict):
        self.deck = deck
        self._cache: dict[str, Any] = {}

    def v(self, module: str, key: str, default: Any = None) -> Any:
        f = self.deck.get(module)
        if f is None:
            return default
        return f["values"].get(key, default)

    def num(self, module: str, key: str, default: float = 0.0) -> float:
        v = self.v(module, key, default)
        try:
            return float(v)
        except (TypeError, ValueError):
            return default

    def sea(self) -> dict | None:
        if "sea" not in self._cache:
            from floatwind.case import openfast_deck as od

            self._cache["sea"] = od.sea_state(self.deck)
        return self._cache["sea"]

    def band(self) -> tuple[float, float] | None:
        """floatwind's JONSWAP band (rad/s) for the deck's SeaState, or None (no JONSWAP)."""
        if "band" not in self._cache:
            from floatwind.environment.spectra import JonswapSpectrum

            ss = self.sea()
            band = None
            if (
                ss is not None
                and ss["WaveMod"] in (2, "2")
                and ss["WaveHs"] > 0
                and ss["WaveTp"] > 0
            ):
                try:
                    band = JonswapSpectrum(ss["WaveHs"], ss["WaveTp"], ss["WavePkShp"]).band(1e-3)
                except ValueError:
                    band = None
            self._cache["band"] = band
        return self._cache["band"]

    def slanted_hydrostatic_members(self) -> list[Any]:
        """IDs of the members whose hydrostatics floatwind would model (PropPot = False) that are
        not vertical: floatwind's member hydrostatics take vertical members only."""
        from floatwind.case import openfast_deck as od

        hd = od.hydrodyn_model(self.deck)
        if hd is None or not hd["members"]:
            return []
        joints = {j["JointID"]: (j["Jointxi"], j["Jointyi"]) for j in hd["joints"]}
        out = []
        for m in hd["members"]:
            if m.get("PropPot", False):
                continue
            a, b = joints.get(m["MJointID1"]), joints.get(m["MJointID2"])
            if a is None or b is None or abs(a[0] - b[0]) > 1e-9 or abs(a[1] - b[1]) > 1e-9:
                out.append(m["MemberID"])
        return out


Ok = Callable[[Any, _Ctx], bool]


@dataclass(frozen=True)
class Setting:
    """What floatwind does with one OpenFAST setting (see the module docstring)."""

    kind: str
    text: str
    ok: Ok | None = None  # values floatwind honours (refused_unless; optional for mapped)
    supported: str = ""  # those values, in words (the refusal line says it)
    bad: str | None = None  # an unsupported value as written in the file (tests)
    deck: str = "ref01_pitch_decay"  # reference deck the tests modify
    checked_by: str | None = None  # a dedicated check that refuses it (the generic one skips it)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"unknown kind {self.kind!r}")
        if self.kind == "refused_unless" and (self.ok is None or not self.supported):
            raise ValueError("a refused_unless setting needs ok and supported")


# ------------------------------------------------------------------------------- constructors


def M(
    text: str, ok: Ok | None = None, supported: str = "", bad: str | None = None, **kw
) -> Setting:
    return Setting("mapped", text, ok, supported, bad, **kw)


def R(supported: str, ok: Ok, bad: str, **kw) -> Setting:
    return Setting("refused_unless", supported, ok, supported, bad, **kw)


def N(reason: str) -> Setting:
    return Setting("no_physics", reason)


def I(reason: str) -> Setting:  # noqa: E743 - one letter like M, R, N
    return Setting("ignored_because", reason)


def CORE() -> Setting:
    return Setting("mapped", ISSUE17_CORE)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):  # OpenFAST also reads flags written 0 / 1
        return a in (0, 1) and b in (0, 1) and bool(a) == bool(b)
    if isinstance(a, int | float) and isinstance(b, int | float):
        return float(a) == float(b)
    if isinstance(a, str) and isinstance(b, str):
        return a.strip().lower() == b.strip().lower()
    return False


def eq(*allowed: Any) -> Ok:
    return lambda v, ctx: any(_same(v, a) for a in allowed)


def _zero_matrix(v: Any, ctx: _Ctx) -> bool:
    flat: list[Any] = []
    stack = [v]
    while stack:
        x = stack.pop()
        if isinstance(x, list):
            stack.extend(x)
        else:
            flat.append(x)
    return all(isinstance(x, int | float) and not isinstance(x, bool) and x == 0 for x in flat)


def each(pred: Ok) -> Ok:
    """A column condition: every cell of the column."""
    return lambda vals, ctx: all(pred(x, ctx) for x in vals)


def _members(ctx: _Ctx) -> bool:
    return ctx.num("HydroDyn", "NMembers", 0.0) > 0


def _member_col(pred: Ok) -> Ok:
    """A member-coefficient column, checked only when the deck has Morison members."""
    return lambda vals, ctx: (not _members(ctx)) or all(pred(x, ctx) for x in vals)


def _waves(ctx: _Ctx) -> bool:
    return ctx.v("SeaState", "WaveMod", 0) not in (0, "0")


def _jonswap(ctx: _Ctx) -> bool:
    return ctx.v("SeaState", "WaveMod", 0) in (2, "2")


def _potmod1(ctx: _Ctx) -> bool:
    return ctx.v("HydroDyn", "PotMod", 0) == 1


def _low_cut(v: Any, ctx: _Ctx) -> bool:
    band = ctx.band()
    return band is None or (isinstance(v, int | float) and float(v) <= band[0])


def _high_cut(v: Any, ctx: _Ctx) -> bool:
    band = ctx.band()
    return band is None or (isinstance(v, int | float) and float(v) >= band[1])


def _wave_dt(v: Any, ctx: _Ctx) -> bool:
    band = ctx.band()
    return band is None or (isinstance(v, int | float) and v > 0 and math.pi / float(v) >= band[1])


def _wave_tmax(v: Any, ctx: _Ctx) -> bool:
    from floatwind.case.openfast_deck import regular_phase

    if regular_phase(ctx.v("SeaState", "WaveMod", 0)) is None:
        return True
    tp = ctx.num("SeaState", "WaveTp", 0.0)
    if not isinstance(v, int | float) or tp <= 0:
        return False
    n = float(v) / tp
    return n >= 1 and abs(n - round(n)) < 1e-6


def _fst_equal(env_key: str) -> Ok:
    return lambda v, ctx: v == "DEFAULT" or _same(v, ctx.v("fst", env_key))


# ------------------------------------------------------------------------------------ the table

_OUT = "output setting"
_LIN = "used only for a linearisation (Linearize = True is refused)"
_VTK = "visualisation output"
_GLUE = (
    "OpenFAST's glue-code coupling/solver setting; floatwind integrates all bodies and loads in "
    "one system with its own integrator (simulation.dt, RK4)"
)
_TEETER = "used only for a two-bladed teetering rotor (NumBl = 2 is refused)"
_FLEX_BLADE = (
    "blade structural stiffness/damping/mode shape: acts only through the flexible blade DOFs "
    "(FlapDOF1/2, EdgeDOF), which are refused; floatwind's blades are rigid"
)
_FLEX_TOWER = (
    "tower structural stiffness/damping/mode shape: acts only through the flexible tower DOFs "
    "(TwFADOF1/2, TwSSDOF1/2), which are refused; floatwind's tower is rigid"
)
_YAWFRIC = (
    "yaw-bearing friction coefficient, used only with YawFrctMod != 0 (refused with YawDOF on)"
)
_MG = "marine-growth coefficient, used only with marine growth (NMGDepths > 0 is refused)"
_REC = "rectangular-member data, used only by members with MSecGeom = 2 (refused)"
_MODEL2 = "depth-based coefficient (model 2), used only by members with MCoefMod = 2 (refused)"
_MODEL3 = "member-based coefficient (model 3), used only by members with MCoefMod = 3 (refused)"
_FILL = "filled-member data, used only with NFillGroups > 0 (refused)"
_DLL = (
    "Bladed-style DLL controller input, used only when a ServoDyn controller mode is 5 "
    "(PCMode/VSContrl/YCMode other than 0 are refused)"
)
_STC = (
    "structural-controller input file, used only with NumBStC/NumNStC/NumTStC/NumSStC > 0 (refused)"
)
_CURRENT = "current parameter, used only with CurrMod != 0 (refused)"
_CREST = "constrained-wave parameter, used only with ConstWaveMod != 0 (refused)"
_QTF2 = "second-order wave cut-off, used only with WvDiffQTF/WvSumQTF = True (refused)"
_SPREAD = "directional-spreading parameter, used only with WaveDirMod != 0 (refused)"
_GRID = (
    "SeaState's interpolation grid of the wave kinematics (numerics); floatwind evaluates the "
    "wave kinematics at each point itself"
)
_RIGID_SHAPE = _FLEX_BLADE
_MOORDYN_DYN = (
    "MoorDyn lumped-mass dynamics (line inertia, drag, internal damping, seabed contact "
    "stiffness/damping): floatwind's catenary is quasi-static and lies on a rigid seabed (the "
    "import notes that MoorDyn's dynamics are not represented)"
)

SETTINGS: dict[str, dict[str, Setting]] = {
    "fst": {
        "Echo": N("echo of the input file"),
        "AbortLevel": N("error level at which OpenFAST aborts"),
        "TMax": M("simulation.t_max"),
        "DT": M("simulation.dt"),
        "ModCoupling": N(_GLUE),
        "InterpOrder": N(_GLUE),
        "NumCrctn": N(_GLUE),
        "RhoInf": N(_GLUE),
        "ConvTol": N(_GLUE),
        "MaxConvIter": N(_GLUE),
        "DT_UJac": N(_GLUE),
        "UJacSclFact": N(_GLUE),
        "NRotors": R("NRotors = 1", eq(1), "2", checked_by=None),
        "CompElast": M(
            "ElastoDyn rigid-body mass model (bodies)", eq(1), "CompElast = 1 (ElastoDyn)", "2"
        ),
        "CompInflow": I(
            "InflowWind velocities act on the structure only through AeroDyn (CompAero != 0 is "
            "refused); with CompAero = 0 the wind changes no load"
        ),
        "CompAero": R("CompAero = 0 (no aerodynamic loads)", eq(0), "2"),
        "CompServo": M("ServoDyn file read: override yaw/pitch maneuvers (joints)"),
        "CompSeaSt": M("SeaState file read: environment.waves"),
        "CompHydro": M("HydroDyn file read: hydrodynamic loads (linear, potential flow, Morison)"),
        "CompSub": R("CompSub = 0 (no SubDyn)", eq(0), "1"),
        "CompMooring": M(
            "MAP++ (1) / MoorDyn (3) file -> mooring_catenary load",
            eq(0, 1, 3),
            "CompMooring = 0, 1 (MAP++) or 3 (MoorDyn)",
            "2",
        ),
        "CompIce": R("CompIce = 0 (no ice loads)", eq(0), "1"),
        "CompSoil": R("CompSoil = 0 (no soil-structure interaction)", eq(0), "1"),
        "MHK": R("MHK = 0 (not a marine hydrokinetic turbine)", eq(0), "1"),
        "MirrorRotor": R(
            "MirrorRotor = False (floatwind's rotor turns positively about the shaft axis c1)",
            eq(False),
            "True",
        ),
        "Gravity": M("environment.gravity"),
        "AirDens": I("air density acts only through AeroDyn (CompAero != 0 is refused)"),
        "WtrDens": M("environment.rho_water (hydrostatics, potential flow, Morison)"),
        "KinVisc": I(
            "kinematic viscosity is used by AeroDyn (Reynolds numbers) and MHK cavitation, both "
            "refused; HydroDyn's drag coefficients are given directly"
        ),
        "SpdSound": I("speed of sound is used only by AeroDyn acoustics (refused)"),
        "Patm": I("used only for an MHK cavitation check (MHK != 0 is refused)"),
        "Pvap": I("used only for an MHK cavitation check (MHK != 0 is refused)"),
        "WtrDpth": M("environment.water_depth (waves, mooring seabed)"),
        "MSL2SWL": R(
            "MSL2SWL = 0 (floatwind's still-water level is the mean sea level of the ElastoDyn and "
            "HydroDyn coordinates)",
            eq(0),
            "1.5",
        ),
        "EDFile": M("ElastoDyn file read: bodies, joints, initial conditions"),
        "BDBldFile(k)": I("read only with CompElast = 2 (BeamDyn, refused)"),
        "InflowFile": I(
            "read only with CompInflow != 0, whose wind acts only through AeroDyn (refused)"
        ),
        "AeroFile": I("read only with CompAero != 0 (refused)"),
        "ServoFile": M("ServoDyn file read when CompServo = 1"),
        "SeaStFile": M("SeaState file read when CompSeaSt = 1"),
        "HydroFile": M("HydroDyn file read when CompHydro = 1"),
        "SubFile": I("read only with CompSub != 0 (refused)"),
        "MooringFile": M("MAP++/MoorDyn file -> mooring_catenary load (CompMooring = 1 or 3)"),
        "IceFile": I("read only with CompIce != 0 (refused)"),
        "SoilFile": I("read only with CompSoil != 0 (refused)"),
        "SumPrint": N(_OUT),
        "SttsTime": N("screen status interval"),
        "ChkptTime": N("checkpoint-file interval"),
        "DT_Out": M("simulation.dt_out"),
        "TStart": N("start time of the tabular output"),
        "OutFileFmt": N(_OUT),
        "TabDelim": N(_OUT),
        "OutFmt": N(_OUT),
        "Linearize": R(
            "Linearize = False (floatwind runs the time-domain simulation, it does not linearise)",
            eq(False),
            "True",
        ),
        "CalcSteady": R(
            "CalcSteady = False (no steady-state trim before linearisation)", eq(False), "True"
        ),
        "TrimCase": N(_LIN),
        "TrimTol": N(_LIN),
        "TrimGain": N(_LIN),
        "Twr_Kdmp": N(_LIN),
        "Bld_Kdmp": N(_LIN),
        "NLinTimes": N(_LIN),
        "LinTimes": N(_LIN),
        "LinInputs": N(_LIN),
        "LinOutputs": N(_LIN),
        "LinOutJac": N(_LIN),
        "LinOutMod": N(_LIN),
        "WrVTK": N(_VTK),
        "VTK_type": N(_VTK),
        "VTK_fields": N(_VTK),
        "VTK_fps": N(_VTK),
    },
    "ElastoDyn": {
        "Echo": N("echo of the input file"),
        "Method": N(
            "ElastoDyn's own time integrator (RK4/AB4/ABM4); floatwind uses RK4 (simulation.integrator)"
        ),
        "DT": N("ElastoDyn's own time step; floatwind steps with simulation.dt"),
        "Gravity": M("environment.gravity (decks before OpenFAST 3.5)"),
        "FlapDOF1": R("FlapDOF1 = False (rigid blades)", eq(False), "True"),
        "FlapDOF2": R("FlapDOF2 = False (rigid blades)", eq(False), "True"),
        "EdgeDOF": R("EdgeDOF = False (rigid blades)", eq(False), "True"),
        "PitchDOF": R("PitchDOF = False (no blade-pitch actuator DOF)", eq(False), "True"),
        "TeetDOF": I(_TEETER),
        "DrTrDOF": R("DrTrDOF = False (rigid drivetrain)", eq(False), "True"),
        "GenDOF": CORE(),
        "YawDOF": CORE(),
        "TwFADOF1": R("TwFADOF1 = False (rigid tower)", eq(False), "True"),
        "TwFADOF2": R("TwFADOF2 = False (rigid tower)", eq(False), "True"),
        "TwSSDOF1": R("TwSSDOF1 = False (rigid tower)", eq(False), "True"),
        "TwSSDOF2": R("TwSSDOF2 = False (rigid tower)", eq(False), "True"),
        **{
            k: R(
                f"{k} = True (floatwind's base body has six free DOFs)",
                eq(True),
                "False",
                checked_by="openfast_import._screen",
            )
            for k in ("PtfmSgDOF", "PtfmSwDOF", "PtfmHvDOF", "PtfmRDOF", "PtfmPDOF", "PtfmYDOF")
        },
        "OoPDefl": R("OoPDefl = 0 (rigid blades: no initial deflection)", eq(0), "1.5"),
        "IPDefl": R("IPDefl = 0 (rigid blades: no initial deflection)", eq(0), "1.5"),
        "BlPitch(k)": M(
            "initial blade pitch: joint pitch1 of blade 1 (--split) and info.blade_pitch0; the "
            "blade masses lie on the pitch axes, so the pitch of blades 2.. moves no mass"
        ),
        "TeetDefl": I(_TEETER),
        "Azimuth": M("initial rotor azimuth: shaft joint q0 (or the locked rotor's mass layout)"),
        "RotSpeed": M("shaft joint constant_rate (and the generator joint at GBRatio times it)"),
        "NacYaw": M("yaw joint q0 (or the locked nacelle's mass layout)"),
        "TTDspFA": R("TTDspFA = 0 (rigid tower: no initial deflection)", eq(0), "1.5"),
        "TTDspSS": R("TTDspSS = 0 (rigid tower: no initial deflection)", eq(0), "1.5"),
        "PtfmSurge": M("initial.displacement[0]"),
        "PtfmSway": M("initial.displacement[1]"),
        "PtfmHeave": M("initial.displacement[2]"),
        "PtfmRoll": M("initial.angles (Z-Y-X converted to 1-2-3 through the rotation matrix)"),
        "PtfmPitch": M("initial.angles (Z-Y-X converted to 1-2-3 through the rotation matrix)"),
        "PtfmYaw": M("initial.angles (Z-Y-X converted to 1-2-3 through the rotation matrix)"),
        "NumBl": M("number of blade bodies / lumped blade masses", eq(3), "NumBl = 3", "2"),
        "TipRad": M("blade length (mass discretisation, geometry)"),
        "HubRad": M("blade-root position (mass discretisation, geometry)"),
        "PreCone(k)": M("blade axes (mass distribution, pitch-joint orientation)"),
        "HubCM": M("hub point-mass position"),
        "UndSling": I(_TEETER),
        "Delta3": I(_TEETER),
        "AzimB1Up": M("azimuth reference of blade 1 (shaft joint q0)"),
        "OverHang": M("rotor apex position"),
        "ShftGagL": N("shaft strain-gage location (output)"),
        "ShftTilt": M("shaft axis c1 (rotor/generator joints, mass layout)"),
        "NacCMxn": M("nacelle point-mass position"),
        "NacCMyn": M("nacelle point-mass position"),
        "NacCMzn": M("nacelle point-mass position"),
        "NcIMUxn": N("nacelle IMU location (output)"),
        "NcIMUyn": N("nacelle IMU location (output)"),
        "NcIMUzn": N("nacelle IMU location (output)"),
        "Twr2Shft": M("rotor apex height above the tower top"),
        "TowerHt": M("tower-top height (yaw joint position, tower masses)"),
        "TowerBsHt": M("tower-base height (tower masses, tower joint with --split)"),
        "PtfmCMxt": M("platform CM"),
        "PtfmCMyt": M("platform CM"),
        "PtfmCMzt": M("platform CM"),
        "PtfmRefxt": M("reference_point (PRP)"),
        "PtfmRefyt": M("reference_point (PRP)"),
        "PtfmRefzt": M("reference_point (PRP)"),
        "TipMass(k)": M("blade tip point mass"),
        "PBrIner(k)": R(
            "PBrIner = 0 (floatwind's blades have no inertia about their pitch axis)", eq(0), "100"
        ),
        "BlPIner(k)": R(
            "BlPIner = 0 (floatwind's blades have no inertia about their pitch axis)", eq(0), "100"
        ),
        "HubMass": M("hub point mass (rotor body)"),
        "HubIner": M("hub inertia about the shaft (rotor body)"),
        "HubIner_Teeter": I(_TEETER),
        "GenIner": CORE(),
        "NacMass": M("nacelle point mass"),
        "NacYIner": M("nacelle yaw inertia"),
        "YawBrMass": M("yaw-bearing point mass at the tower top"),
        "PtfmMass": M("platform mass"),
        "PtfmRIner": M("platform inertia"),
        "PtfmPIner": M("platform inertia"),
        "PtfmYIner": M("platform inertia"),
        "PtfmXYIner": M("platform inertia"),
        "PtfmYZIner": M("platform inertia"),
        "PtfmXZIner": M("platform inertia"),
        "BldNodes": M("blade mass discretisation (ElastoDyn's lumped nodes)"),
        "BldFile(k)": M("blade file read: blade masses"),
        "TeetMod": I(_TEETER),
        "TeetDmpP": I(_TEETER),
        "TeetDmp": I(_TEETER),
        "TeetCDmp": I(_TEETER),
        "TeetSStP": I(_TEETER),
        "TeetHStP": I(_TEETER),
        "TeetSSSp": I(_TEETER),
        "TeetHSSp": I(_TEETER),
        "YawFrctMod": R(
            "YawFrctMod = 0 when YawDOF = True (no yaw-bearing friction)",
            lambda v, ctx: _same(v, 0) or not ctx.v("ElastoDyn", "YawDOF", False),
            "1",
            deck="ref03_yaw_spin",
        ),
        "M_CSmax": I(_YAWFRIC),
        "M_FCSmax": I(_YAWFRIC),
        "M_MCSmax": I(_YAWFRIC),
        "M_CD": I(_YAWFRIC),
        "M_FCD": I(_YAWFRIC),
        "M_MCD": I(_YAWFRIC),
        "sig_v": I(_YAWFRIC),
        "sig_v2": I(_YAWFRIC),
        "OmgCut": I(_YAWFRIC),
        "GBoxEff": CORE(),
        "GBRatio": CORE(),
        "DTTorSpr": CORE(),
        "DTTorDmp": CORE(),
        "Furling": R("Furling = False", eq(False), "True"),
        "FurlFile": I("read only with Furling = True (refused)"),
        "TwrNodes": M("tower mass discretisation (ElastoDyn's lumped nodes)"),
        "TwrFile": M("tower file read: tower masses"),
        "SumPrint": N(_OUT),
        "OutFile": N(_OUT),
        "TabDelim": N(_OUT),
        "OutFmt": N(_OUT),
        "TStart": N("start time of the tabular output"),
        "DecFact": N(_OUT),
        "NTwGages": N("tower strain gages (output)"),
        "TwrGagNd": N("tower strain gages (output)"),
        "NBlGages": N("blade strain gages (output)"),
        "BldGagNd": N("blade strain gages (output)"),
        "BldNd_BladesOut": N("nodal output"),
        "BldNd_BlOutNd": N("nodal output"),
    },
    "ElastoDyn_blade": {
        "NBlInpSt": M("rows of the distributed blade table (blade masses)"),
        "BldFlDmp(k)": I(_FLEX_BLADE),
        "BldEdDmp(k)": I(_FLEX_BLADE),
        "FlStTunr(k)": I(_FLEX_BLADE),
        "AdjBlMs": M("blade mass factor (blade masses)"),
        "AdjFlSt": I(_FLEX_BLADE),
        "AdjEdSt": I(_FLEX_BLADE),
        "BldFl1Sh(k)": I(_RIGID_SHAPE),
        "BldFl2Sh(k)": I(_RIGID_SHAPE),
        "BldEdgSh(k)": I(_RIGID_SHAPE),
    },
    "ElastoDyn_tower": {
        "NTwInpSt": M("rows of the distributed tower table (tower masses)"),
        "TwrFADmp(k)": I(_FLEX_TOWER),
        "TwrSSDmp(k)": I(_FLEX_TOWER),
        "FAStTunr(k)": I(_FLEX_TOWER),
        "SSStTunr(k)": I(_FLEX_TOWER),
        "AdjTwMa": M("tower mass factor (tower masses)"),
        "AdjFASt": I(_FLEX_TOWER),
        "AdjSSSt": I(_FLEX_TOWER),
        "TwFAM1Sh(k)": I(_FLEX_TOWER),
        "TwFAM2Sh(k)": I(_FLEX_TOWER),
        "TwSSM1Sh(k)": I(_FLEX_TOWER),
        "TwSSM2Sh(k)": I(_FLEX_TOWER),
    },
    "ServoDyn": {
        "Echo": N("echo of the input file"),
        "DT": N("ServoDyn's controller time step; floatwind imports no active controller"),
        "PCMode": R("PCMode = 0 (no active pitch control)", eq(0), "5", deck="ref03_yaw_spin"),
        "TPCOn": I("pitch-control start time, used only with PCMode != 0 (refused)"),
        "PitNeut(k)": I("pitch-actuator neutral angle, used only with PitchDOF = True (refused)"),
        "PitSpr(k)": I("pitch-actuator spring, used only with PitchDOF = True (refused)"),
        "PitDamp(k)": I("pitch-actuator damper, used only with PitchDOF = True (refused)"),
        "TPitManS(k)": M(
            "pitch maneuver start: ramp of joint pitch1 (--split) and info.pitch_maneuver; the "
            "blade masses lie on the pitch axes, so the other blades' pitch moves no mass"
        ),
        "PitManRat(k)": M("pitch maneuver rate (as TPitManS)"),
        "BlPitchF(k)": M("pitch maneuver final angle (as TPitManS)"),
        "VSContrl": CORE(),
        "GenModel": CORE(),
        "GenEff": CORE(),
        "GenTiStr": CORE(),
        "GenTiStp": CORE(),
        "SpdGenOn": CORE(),
        "TimGenOn": CORE(),
        "TimGenOf": CORE(),
        "VS_RtGnSp": CORE(),
        "VS_RtTq": CORE(),
        "VS_Rgn2K": CORE(),
        "VS_SlPc": CORE(),
        "SIG_SlPc": CORE(),
        "SIG_SySp": CORE(),
        "SIG_RtTq": CORE(),
        "SIG_PORt": CORE(),
        "TEC_Freq": CORE(),
        "TEC_NPol": CORE(),
        "TEC_SRes": CORE(),
        "TEC_RRes": CORE(),
        "TEC_VLL": CORE(),
        "TEC_SLR": CORE(),
        "TEC_RLR": CORE(),
        "TEC_MR": CORE(),
        "HSSBrMode": R(
            "HSSBrMode = 0 (no high-speed shaft brake)", eq(0), "1", deck="ref03_yaw_spin"
        ),
        "THSSBrDp": I("shaft-brake deployment time, used only with HSSBrMode != 0 (refused)"),
        "HSSBrDT": I("shaft-brake ramp time, used only with HSSBrMode != 0 (refused)"),
        "HSSBrTqF": I("shaft-brake torque, used only with HSSBrMode != 0 (refused)"),
        "YCMode": CORE(),
        "TYCOn": CORE(),
        "YawNeut": CORE(),
        "YawSpr": CORE(),
        "YawDamp": CORE(),
        "TYawManS": CORE(),
        "YawManRat": CORE(),
        "NacYawF": CORE(),
        "AfCmode": R("AfCmode = 0 (no airfoil flow control)", eq(0), "1", deck="ref03_yaw_spin"),
        "AfC_Mean": I("airfoil flow control, used only with AfCmode != 0 (refused) and AeroDyn"),
        "AfC_Amp": I("airfoil flow control, used only with AfCmode != 0 (refused) and AeroDyn"),
        "AfC_Phase": I("airfoil flow control, used only with AfCmode != 0 (refused) and AeroDyn"),
        "NumBStC": R(
            "NumBStC = 0 (no blade structural controllers)", eq(0), "1", deck="ref03_yaw_spin"
        ),
        "BStCfiles": I(_STC),
        "NumNStC": R(
            "NumNStC = 0 (no nacelle structural controllers)", eq(0), "1", deck="ref03_yaw_spin"
        ),
        "NStCfiles": I(_STC),
        "NumTStC": R(
            "NumTStC = 0 (no tower structural controllers)", eq(0), "1", deck="ref03_yaw_spin"
        ),
        "TStCfiles": I(_STC),
        "NumSStC": R(
            "NumSStC = 0 (no substructure structural controllers)",
            eq(0),
            "1",
            deck="ref03_yaw_spin",
        ),
        "SStCfiles": I(_STC),
        "CCmode": R("CCmode = 0 (no cable control)", eq(0), "1", deck="ref03_yaw_spin"),
        **{
            k: I(_DLL)
            for k in (
                "DLL_FileName",
                "DLL_InFile",
                "DLL_ProcName",
                "DLL_DT",
                "DLL_Ramp",
                "BPCutoff",
                "NacYaw_North",
                "Ptch_Cntrl",
                "Ptch_SetPnt",
                "Ptch_Min",
                "Ptch_Max",
                "PtchRate_Min",
                "PtchRate_Max",
                "Gain_OM",
                "GenSpd_MinOM",
                "GenSpd_MaxOM",
                "GenSpd_Dem",
                "GenTrq_Dem",
                "GenPwr_Dem",
                "DLL_NumTrq",
            )
        },  # fmt: skip
        "SumPrint": N(_OUT),
        "OutFile": N(_OUT),
        "TabDelim": N(_OUT),
        "OutFmt": N(_OUT),
        "TStart": N("start time of the tabular output"),
    },
    "SeaState": {
        "Echo": N("echo of the input file"),
        "WtrDens": R(
            "WtrDens = DEFAULT or the .fst WtrDens (floatwind has one water density)",
            _fst_equal("WtrDens"),
            "1000",
        ),
        "WtrDpth": R(
            "WtrDpth = DEFAULT or the .fst WtrDpth (floatwind has one water depth)",
            _fst_equal("WtrDpth"),
            "200",
        ),
        "MSL2SWL": R(
            "MSL2SWL = DEFAULT or 0 (floatwind's still-water level is the mean sea level)",
            eq("DEFAULT", 0),
            "1.5",
        ),
        "X_HalfWidth": N(_GRID),
        "Y_HalfWidth": N(_GRID),
        "Z_Depth": N(_GRID),
        "NX": N(_GRID),
        "NY": N(_GRID),
        "NZ": N(_GRID),
        "WaveMod": M(
            "environment.waves.kind: 0 still, 1P# regular (phase_deg #), 2 jonswap",
            lambda v, ctx: (
                v in (0, 2, "0", "2") or (isinstance(v, str) and v.upper().startswith("1P"))
            ),
            "WaveMod = 0 (still water), 1P# (regular wave with phase # deg) or 2 (JONSWAP/PM)",
            "3",
        ),
        "WaveStMod": M(
            "environment.waves.stretching (0 none, 1 vertical, 3 wheeler)",
            lambda v, ctx: (not _waves(ctx)) or v in (0, 1, 3),
            "WaveStMod = 0, 1 or 3 (extrapolation stretching 2 is not in floatwind)",
            "2",
            deck="ref05_morison_jonswap",
        ),
        "WvCrntMod": R("WvCrntMod = 0 (no wave-current interaction)", eq(0), "1"),
        "WaveTMax": R(
            "for a regular wave (1P#) WaveTMax a whole multiple of WaveTp (SeaState rounds the "
            "wave frequency to a multiple of 2 pi/WaveTMax); for JONSWAP it is the repeat period "
            "of SeaState's own realisation, which floatwind redraws (see the JONSWAP note)",
            _wave_tmax,
            "605",
            deck="ref08_potential_regular",
        ),
        "WaveDT": R(
            "for JONSWAP, pi/WaveDT (SeaState's highest wave frequency) at or above floatwind's "
            "spectral band (energy below 1e-3 of the peak outside it); otherwise the sampling "
            "step of SeaState's kinematics (numerics)",
            _wave_dt,
            "2.0",
            deck="ref05_morison_jonswap",
        ),
        "WaveHs": M("environment.waves.height (regular) / hs (jonswap)"),
        "WaveTp": M("environment.waves.period (regular) / tp (jonswap)"),
        "WavePkShp": M("environment.waves.gamma (DEFAULT: the IEC value)"),
        "WvLowCOff": R(
            "for JONSWAP, WvLowCOff at or below floatwind's spectral band (a cut-off inside the "
            "band would remove wave energy floatwind keeps)",
            _low_cut,
            "0.6",
            deck="ref05_morison_jonswap",
        ),
        "WvHiCOff": R(
            "for JONSWAP, WvHiCOff at or above floatwind's spectral band",
            _high_cut,
            "0.7",
            deck="ref05_morison_jonswap",
        ),
        "WaveDir": M("environment.waves.heading_deg"),
        "WaveDirMod": R(
            "WaveDirMod = 0 for JONSWAP (no directional spreading)",
            lambda v, ctx: _same(v, 0) or not _jonswap(ctx),
            "1",
            deck="ref05_morison_jonswap",
        ),
        "WaveDirSpread": I(_SPREAD),
        "WaveNDir": I(_SPREAD),
        "WaveDirRange": I(_SPREAD),
        "WaveSeed(k)": I(
            "SeaState's random seeds: floatwind draws its own phases for JONSWAP (the import notes "
            "it; compare.py reproduces the reference wave from Wave1Elev); a regular wave's phase "
            "is the # of 1P#"
        ),
        "WaveNDAmp": M("environment.waves.random_amplitude (jonswap)"),
        "WvKinFile": I("read only with WaveMod = 5 or 6 (refused)"),
        "WvDiffQTF": R("WvDiffQTF = False (first-order waves)", eq(False), "True"),
        "WvSumQTF": R("WvSumQTF = False (first-order waves)", eq(False), "True"),
        "WvLowCOffD": I(_QTF2),
        "WvHiCOffD": I(_QTF2),
        "WvLowCOffS": I(_QTF2),
        "WvHiCOffS": I(_QTF2),
        "ConstWaveMod": R("ConstWaveMod = 0 (no constrained wave)", eq(0), "1"),
        "CrestHmax": I(_CREST),
        "CrestTime": I(_CREST),
        "CrestXi": I(_CREST),
        "CrestYi": I(_CREST),
        "CurrMod": R("CurrMod = 0 (no current)", eq(0), "1"),
        "CurrSSV0": I(_CURRENT),
        "CurrSSDir": I(_CURRENT),
        "CurrNSRef": I(_CURRENT),
        "CurrNSV0": I(_CURRENT),
        "CurrNSDir": I(_CURRENT),
        "CurrDIV": I(_CURRENT),
        "CurrDIDir": I(_CURRENT),
        "MCFD": R("MCFD = 0 (no MacCamy-Fuchs diffraction correction)", eq(0), "9.4"),
        "SeaStSum": N(_OUT),
        "OutSwtch": N(_OUT),
        "OutFmt": N(_OUT),
        "OutSFmt": N(_OUT),
        "NWaveElev": N("wave-elevation output points"),
        "WaveElevxi": N("wave-elevation output points"),
        "WaveElevyi": N("wave-elevation output points"),
        "NWaveKin": N("wave-kinematics output points"),
        "WaveKinxi": N("wave-kinematics output points"),
        "WaveKinyi": N("wave-kinematics output points"),
        "WaveKinzi": N("wave-kinematics output points"),
    },
    "HydroDyn": {
        "Echo": N("echo of the input file"),
        "PotMod": M(
            "WAMIT body -> linear hydrostatics, potential_radiation, potential_excitation",
            eq(0, 1),
            "PotMod = 0 or 1 (WAMIT)",
            "2",
        ),
        "ExctnMod": M(
            "potential_excitation with waves: 0 none, 1 the .3 data (DFT), 2 model: state_space "
            "with ss_file: <PotFile>.ssexctn (HydroDyn's state-space file, its WaveDir checked "
            "against SeaState's; states integrated with the bodies)",
            lambda v, ctx: (not _potmod1(ctx)) or v in (0, 1, 2),
            "ExctnMod = 0, 1 (DFT) or 2 (state-space, <PotFile>.ssexctn)",
            "3",
        ),
        "ExctnDisp": R(
            "ExctnDisp = 0 with wave excitation (excitation at the undisplaced position)",
            lambda v, ctx: (
                _same(v, 0) or not _potmod1(ctx) or ctx.v("HydroDyn", "ExctnMod") not in (1, 2)
            ),
            "1",
            deck="ref07_potential_decay",
        ),
        "ExctnCutOff": I(
            "low-pass filter of the displaced position, used only with ExctnDisp = 2 (refused)"
        ),
        "PtfmYMod": R(
            "PtfmYMod = 0 (no large-yaw model)",
            lambda v, ctx: _same(v, 0) or not _potmod1(ctx),
            "1",
        ),
        "PtfmRefY": R("PtfmRefY = 0 (WAMIT body not yawed)", eq(0), "10"),
        "PtfmYCutOff": I("large-yaw filter, used only with PtfmYMod = 1 (refused)"),
        "NExctnHdg": I(
            "excitation headings of the large-yaw model, used only with PtfmYMod = 1 (refused)"
        ),
        "RdtnMod": M(
            "potential_radiation: 0 memory: false, 1 convolution, 2 model: state_space with "
            "ss_file: <PotFile>.ss (HydroDyn's state-space file; states integrated with the bodies)",
            lambda v, ctx: (not _potmod1(ctx)) or v in (0, 1, 2),
            "RdtnMod = 0, 1 (convolution) or 2 (state-space, <PotFile>.ss)",
            "3",
        ),
        "RdtnTMax": M("potential_radiation.rdtn_tmax (RdtnMod = 1; unused with the .ss model)"),
        "RdtnDT": R(
            "RdtnDT = DEFAULT or DT with RdtnMod = 1 (floatwind samples the memory every step); any "
            "with RdtnMod = 2 (HydroDyn integrates the .ss and .ssexctn states at RdtnDT, "
            "floatwind with the bodies at the run's step)",
            lambda v, ctx: (
                not _potmod1(ctx)
                or ctx.v("HydroDyn", "RdtnMod") != 1
                or v == "DEFAULT"
                or (
                    isinstance(v, int | float)
                    and abs(float(v) - ctx.num("fst", "DT")) <= 1e-9 * ctx.num("fst", "DT")
                )
            ),
            "0.025",
            deck="ref07_potential_decay",
        ),
        "NBody": R("NBody = 1 (one WAMIT body)", eq(1), "2", checked_by="openfast_import._screen"),
        "NBodyMod": I("how several WAMIT bodies couple; only NBody = 1 is imported"),
        "PotFile": M("potential_radiation/potential_excitation wamit root, .hst hydrostatics"),
        "WAMITULEN": M("potential_radiation/potential_excitation ulen"),
        "PtfmRefxt": M("point of the HydroDyn loads (WAMIT reference point)"),
        "PtfmRefyt": M("point of the HydroDyn loads (WAMIT reference point)"),
        "PtfmRefzt": M("point of the HydroDyn loads (WAMIT reference point)"),
        "PtfmRefztRot": R(
            "PtfmRefztRot = 0 (WAMIT body not rotated)",
            lambda v, ctx: _zero_matrix(v, ctx) or not _potmod1(ctx),
            "10",
        ),
        "PtfmVol0": M("hydrodyn_wamit_hydrostatics f0 (rho g PtfmVol0)"),
        "PtfmCOBxt": M("hydrodyn_wamit_hydrostatics f0 (buoyancy moment)"),
        "PtfmCOByt": M("hydrodyn_wamit_hydrostatics f0 (buoyancy moment)"),
        "NAddDOF": R(
            "NAddDOF = 0 (no generalised WAMIT modes)",
            lambda v, ctx: _same(v, 0) or not _potmod1(ctx),
            "1",
        ),
        "MnDrift": R("MnDrift = 0 (no second-order forces)", eq(0), "7"),
        "NewmanApp": R("NewmanApp = 0 (no second-order forces)", eq(0), "7"),
        "DiffQTF": R("DiffQTF = 0 (no second-order forces)", eq(0), "12"),
        "SumQTF": R("SumQTF = 0 (no second-order forces)", eq(0), "12"),
        "AddF0": M("hydrodyn_additional f0"),
        "AddCLin": M("hydrodyn_additional stiffness"),
        "AddBLin": M("hydrodyn_additional damping"),
        "AddBQuad": R(
            "AddBQuad = 0 (no quadratic additional damping)",
            _zero_matrix,
            "100000 0 0 0 0 0",
            checked_by="openfast_import._screen",
        ),
        "WaveDisp": R(
            "WaveDisp = 0 (wave kinematics at the undisplaced members, as --morison-axis "
            "undisplaced)",
            eq(0),
            "1",
        ),
        "AMMod": R("AMMod = 0 (member added mass below the still water level)", eq(0), "1"),
        "HstMod": R("HstMod = 0 (member hydrostatics up to the still water level)", eq(0), "1"),
        "NAxCoef": M("rows of the axial-coefficient table (their coefficients must be zero)"),
        "NJoints": M("rows of the joint table (morison member ends)"),
        "NPropSetsCyl": M("rows of the cylindrical property table (morison diameters)"),
        "NPropSets": M("rows of the cylindrical property table (morison diameters; older decks)"),
        "NPropSetsRec": I(_REC),
        "NCoefDpthCyl": I(_MODEL2),
        "NCoefDpthRec": I(_MODEL2),
        "NCoefMembersCyl": I(_MODEL3),
        "NCoefMembersRec": I(_MODEL3),
        "NMembers": M("rows of the member table (morison members, member hydrostatics)"),
        "NFillGroups": R("NFillGroups = 0 (no filled members)", eq(0), "1"),
        "NMGDepths": R("NMGDepths = 0 (no marine growth)", eq(0), "1"),
        "NMOutputs": N("member output list"),
        "NJOutputs": N("joint output list"),
        "JOutLst": N("joint output list"),
        "HDSum": N(_OUT),
        "OutAll": N(_OUT),
        "OutSwtch": N(_OUT),
        "OutFmt": N(_OUT),
        "OutSFmt": N(_OUT),
    },
    # MAP++ SOLVER OPTIONS (first word of each option row); read by floatwind.case.mooring_files
    "MAP": {
        "repeat": M("copies of the lines rotated about z (mooring_catenary lines)"),
        **{
            k: N(
                "MAP++'s own solver option; floatwind solves the lines with its own solver (noted)"
            )
            for k in (
                "help",
                "inner_ftol",
                "inner_gtol",
                "inner_xtol",
                "inner_max_its",
                "outer_max_its",
                "outer_tol",
                "outer_epsilon",
                "outer_bd",
                "outer_cd",
                "outer_fd",
                "pg_cooked",
                "integration_dt",
                "kb_default",
                "cb_default",
                "wave_kinematics",
                "lm_model",
                "ref_position",
                "krylov_accelerator",
                "powell",
            )
        },  # fmt: skip
    },
    # MoorDyn v1/v2 keys and OPTIONS (read by floatwind.case.mooring_files; the whole lumped-mass
    # model is replaced by the quasi-static catenary, which the import notes in one line)
    "MoorDyn": {
        "Echo": N("echo of the input file"),
        "NTypes": M("rows of LINE TYPES"),
        "NConnects": M("rows of CONNECTION PROPERTIES"),
        "NLines": M("rows of LINE PROPERTIES"),
        "dtM": N("MoorDyn's own integration step; the quasi-static catenary has no time step"),
        "kbot": I(_MOORDYN_DYN),
        "cbot": I(_MOORDYN_DYN),
        "dtIC": N("MoorDyn's initial-condition solve (numerics)"),
        "TmaxIC": N("MoorDyn's initial-condition solve (numerics)"),
        "CdScaleIC": N("MoorDyn's initial-condition solve (numerics)"),
        "threshIC": N("MoorDyn's initial-condition solve (numerics)"),
        "WtrDpth": R(
            "MoorDyn WtrDpth = the .fst WtrDpth (floatwind's seabed is at the deck's water depth)",
            lambda v, ctx: (
                isinstance(v, int | float)
                and (float(v) == -999 or _same(v, ctx.v("fst", "WtrDpth")))
            ),
            "300",
        ),  # fmt: skip
        "WtrDnsty": R(
            "MoorDyn WtrDnsty = the .fst WtrDens (one water density)",
            lambda v, ctx: _same(v, ctx.v("fst", "WtrDens")),
            "1000",
        ),
        "rhoW": R(
            "MoorDyn rhoW = the .fst WtrDens (one water density)",
            lambda v, ctx: _same(v, ctx.v("fst", "WtrDens")),
            "1000",
        ),
        "g": R(
            "MoorDyn g = the .fst Gravity (one gravity)",
            lambda v, ctx: _same(v, ctx.v("fst", "Gravity")),
            "9.7",
        ),
    },
}

#: columns of the tables of each file (ElastoDyn distributed properties, ServoDyn's DLL table,
#: HydroDyn's member tables, MAP++ sections); a column ``ok`` gets the list of its cells
COLUMNS: dict[str, dict[str, Setting]] = {
    "ElastoDyn_blade": {
        "BlFract": M("stations of the blade mass distribution"),
        "BMassDen": M("blade mass per length (lumped blade masses)"),
        "StrcTwst": I(_FLEX_BLADE),
        "FlpStff": I(_FLEX_BLADE),
        "EdgStff": I(_FLEX_BLADE),
        "PitchAxis": I(
            "position of the pitch axis on the chord: used by AeroDyn/BeamDyn only; ElastoDyn's blade masses lie on the pitch axis"
        ),
        "FlpIner": I(_FLEX_BLADE),
        "EdgIner": I(_FLEX_BLADE),
        "PrecrvRef": I(_FLEX_BLADE),
        "PreswpRef": I(_FLEX_BLADE),
        "FlpcgOf": I(_FLEX_BLADE),
        "EdgcgOf": I(_FLEX_BLADE),
        "FlpEAOf": I(_FLEX_BLADE),
        "EdgEAOf": I(_FLEX_BLADE),
    },
    "ElastoDyn_tower": {
        "HtFract": M("stations of the tower mass distribution"),
        "TMassDen": M("tower mass per length (lumped tower masses)"),
        "TwFAStif": I(_FLEX_TOWER),
        "TwSSStif": I(_FLEX_TOWER),
        "TwGJStif": I(_FLEX_TOWER),
        "TwEAStif": I(_FLEX_TOWER),
        "TwFAIner": I(_FLEX_TOWER),
        "TwSSIner": I(_FLEX_TOWER),
        "TwFAcgOf": I(_FLEX_TOWER),
        "TwSScgOf": I(_FLEX_TOWER),
    },
    "ServoDyn": {
        "GenSpd_TLU": I(_DLL),
        "GenTrq_TLU": I(_DLL),
    },
    "HydroDyn": {
        # axial coefficients (joint end loads)
        "AxCoefID": N("identifier"),
        "AxCd": R(
            "AxCd = 0 (no axial drag at member joints)",
            _member_col(eq(0)),
            "1.0",
            deck="ref04_morison_decay",
        ),
        "AxCa": R(
            "AxCa = 0 (no axial added mass at member joints)",
            _member_col(eq(0)),
            "1.0",
            deck="ref04_morison_decay",
        ),
        "AxCp": R(
            "AxCp = 0 (no axial pressure load at member joints)",
            _member_col(eq(0)),
            "1.0",
            deck="ref04_morison_decay",
        ),
        "AxFDMod": I("model of the axial joint loads, whose coefficients AxCd/AxCa/AxCp must be 0"),
        "AxVnCOff": I("cut-off of the axial joint loads, whose coefficients must be 0"),
        "AxFDLoFSc": I("scaling of the axial joint loads, whose coefficients must be 0"),
        # joints
        "JointID": M("member end lookup"),
        "Jointxi": M("morison end_a/end_b, hydrostatics axis_xy"),
        "Jointyi": M("morison end_a/end_b, hydrostatics axis_xy"),
        "Jointzi": M("morison end_a/end_b, hydrostatics z_bottom/z_top"),
        "JointAxID": I("names an axial-coefficient row, whose coefficients must be 0"),
        "JointOvrlp": R(
            "JointOvrlp = 0 (no super-member overlap removal)",
            _member_col(eq(0)),
            "1",
            deck="ref04_morison_decay",
        ),
        # properties
        "PropSetID": M("member diameter lookup"),
        "PropD": M("morison diameter_a/diameter_b, hydrostatics diameters"),
        "PropThck": I(
            "wall thickness, used only by filled members (NFillGroups > 0 is refused) and marine growth"
        ),
        # simple coefficients (model 1)
        "SimplCd": M("morison cd"),
        "SimplCa": M("morison ca (0 for PropPot members)"),
        "SimplCp": M("morison cm = ca + cp (0 for PropPot members)"),
        "SimplCdMG": I(_MG),
        "SimplCaMG": I(_MG),
        "SimplCpMG": I(_MG),
        "SimplAxCd": R(
            "SimplAxCd = 0 (no axial drag on members)",
            _member_col(eq(0)),
            "1.0",
            deck="ref04_morison_decay",
        ),
        "SimplAxCa": R(
            "SimplAxCa = 0 (no axial added mass on members)",
            _member_col(eq(0)),
            "1.0",
            deck="ref04_morison_decay",
        ),
        "SimplAxCp": R(
            "SimplAxCp = 0 (no axial pressure load on members)",
            _member_col(eq(0)),
            "1.0",
            deck="ref04_morison_decay",
        ),
        "SimplAxCdMG": I(_MG),
        "SimplAxCaMG": I(_MG),
        "SimplAxCpMG": I(_MG),
        "SimplCb": R(
            "SimplCb = 1 (member buoyancy not scaled)",
            _member_col(eq(1)),
            "0.5",
            deck="ref04_morison_decay",
        ),
        "SimplCbMG": I(_MG),
        # depth-based (model 2) and member-based (model 3) coefficients
        **{
            k: I(_MODEL2)
            for k in (
                "Dpth",
                "DpthCd",
                "DpthCdMG",
                "DpthCa",
                "DpthCaMG",
                "DpthCp",
                "DpthCpMG",
                "DpthAxCd",
                "DpthAxCdMG",
                "DpthAxCa",
                "DpthAxCaMG",
                "DpthAxCp",
                "DpthAxCpMG",
                "DpthCb",
                "DpthCbMG",
            )
        },  # fmt: skip
        **{
            f"Member{c}{e}": I(_MODEL3)
            for c in (
                "Cd",
                "CdMG",
                "Ca",
                "CaMG",
                "Cp",
                "CpMG",
                "AxCd",
                "AxCdMG",
                "AxCa",
                "AxCaMG",
                "AxCp",
                "AxCpMG",
                "Cb",
                "CbMG",
            )
            for e in ("1", "2")
        },  # fmt: skip
        # members
        "MemberID": M("member identifier (member table, output list)"),
        "MJointID1": M("morison end_a"),
        "MJointID2": M("morison end_b"),
        "MPropSetID1": M("morison diameter_a"),
        "MPropSetID2": M("morison diameter_b"),
        "MSecGeom": R(
            "MSecGeom = 1 (cylindrical members)", each(eq(1)), "2", deck="ref04_morison_decay"
        ),
        "MSpinOrient": I(
            "spin orientation of a member's cross-section: only rectangular members (refused) depend on it"
        ),
        "MDivSize": M("morison strip_length"),
        "MCoefMod": R(
            "MCoefMod = 1 (simple coefficients)", each(eq(1)), "2", deck="ref04_morison_decay"
        ),
        "MHstLMod": R(
            "MHstLMod = 1 on vertical members (member hydrostatics, imported as floatwind's exact "
            "hydrostatics of vertical members; a slanted member would lose them)",
            lambda cells, ctx: (
                all(_same(c, 1) for c in cells) and not ctx.slanted_hydrostatic_members()
            ),
            "2",
            deck="ref04_morison_decay",
        ),
        "PropPot": M("PropPot members: viscous drag only (cm = ca = 0, no member hydrostatics)"),
        # filled members, marine growth
        "FillNumM": I(_FILL),
        "FillMList": I(_FILL),
        "FillFSLoc": I(_FILL),
        "FillDens": I(_FILL),
        "MGDpth": I(_MG),
        "MGThck": I(_MG),
        "MGDens": I(_MG),
        # member output list
        "NOutLoc": N("member output list"),
        "NodeLocs": N("member output list"),
    },
    # every column of HydroDyn's rectangular-member tables (property sets, coefficient models 1-3)
    "HydroDyn_rectangular": {
        k: I(_REC)
        for k in (
            "PropSetID",
            "PropA",
            "PropB",
            "PropThck",
            "Dpth",
            "MemberID",
            *(
                f"{p}{c}{m}"
                for p in ("Simpl", "Dpth")
                for c in ("CdA", "CdB", "CaA", "CaB", "Cp", "AxCd", "AxCa", "AxCp", "Cb")
                for m in ("", "MG")
            ),
            *(
                f"Member{c}{m}{e}"
                for c in ("CdA", "CdB", "CaA", "CaB", "Cp", "AxCd", "AxCa", "AxCp", "Cb")
                for m in ("", "MG")
                for e in ("1", "2")
            ),
        )
    },  # fmt: skip
    # MAP++ sections LINE DICTIONARY / NODE PROPERTIES / LINE PROPERTIES (floatwind.case.mooring_files)
    "MAP": {
        "LineType": M("line type lookup"),
        "Diam": M("mooring_catenary lines[].diameter"),
        "MassDenInAir": M(
            "mooring_catenary lines[].mass_per_length (submerged weight with rho, d)"
        ),
        "EA": M("mooring_catenary lines[].ea"),
        "CB": M("mooring_catenary lines[].seabed_friction"),
        "CIntDamp": I("internal damping: not used by a quasi-static line (MAP++ ignores it too)"),
        "Ca": I("added mass: not used by a quasi-static line (MAP++ ignores it too)"),
        "Cdn": I("normal drag: not used by a quasi-static line (MAP++ ignores it too)"),
        "Cdt": I("tangential drag: not used by a quasi-static line (MAP++ ignores it too)"),
        "ID": M("node/line identifier"),
        "Attachment": M("anchor (fix), fairlead (vessel) or connect node"),
        "X": M("node position (anchor, fairlead, connect start)"),
        "Y": M("node position (anchor, fairlead, connect start)"),
        "Z": M("node position (anchor, fairlead, connect start)"),
        "M": M("connect node point mass"),
        "B": M("connect node displaced volume"),
        "FX": M("connect node external force"),
        "FY": M("connect node external force"),
        "FZ": M("connect node external force"),
        "UnstrLen": M("mooring_catenary lines[].length"),
        "NodeAnch": M("line end A"),
        "NodeFair": M("line end B"),
        "Flags": N("MAP++ output flags of the line"),
        "Option": N("header of MAP++'s option list"),
    },
    # MoorDyn v1 (LINE TYPES / CONNECTION PROPERTIES / LINE PROPERTIES) and v2 (LINE TYPES /
    # POINTS / LINES) columns
    "MoorDyn": {
        "Name": M("line type lookup"),
        "TypeName": M("line type lookup"),
        "Diam": M("mooring_catenary lines[].diameter"),
        "MassDen": M("mooring_catenary lines[].mass_per_length"),
        "Mass/m": M("mooring_catenary lines[].mass_per_length"),
        "EA": M("mooring_catenary lines[].ea (a nonlinear EA table is refused)"),
        **{
            k: I(_MOORDYN_DYN)
            for k in (
                "BA/-zeta",
                "EI",
                "Can",
                "Cat",
                "Cdn",
                "Cdt",
                "Cd",
                "Ca",
                "CdAx",
                "CaAx",
                "CdA",
                "CA",
            )
        },
        "Node": M("point identifier"),
        "ID": M("point/line identifier"),
        "Type": M("anchor (fixed), fairlead (vessel) or free (connect) point"),
        "Attachment": M("anchor (fixed), fairlead (vessel) or free (connect) point"),
        "X": M("point position"),
        "Y": M("point position"),
        "Z": M("point position"),
        "M": M("free point mass"),
        "Mass": M("free point mass"),
        "V": M("free point volume"),
        "Volume": M("free point volume"),
        "FX": M("free point force (v1)"),
        "FY": M("free point force (v1)"),
        "FZ": M("free point force (v1)"),
        "Line": M("line identifier"),
        "LineType": M("line type of the line"),
        "UnstrLen": M("mooring_catenary lines[].length"),
        "NumSegs": N("MoorDyn's segments of a line (discretisation of its lumped-mass model)"),
        "NodeAnch": M("line end A"),
        "NodeFair": M("line end B"),
        "AttachA": M("line end A"),
        "AttachB": M("line end B"),
        "Flags/Outputs": N("MoorDyn output flags of the line"),
        "Outputs": N("MoorDyn output flags of the line"),
    },  # fmt: skip
}


# --------------------------------------------------------------------------------------- lookup

_INDEX_RE = re.compile(r"\(\d+\)$")


def lookup(module: str, key: str, *, column: bool = False) -> Setting | None:
    """The table entry of ``key`` in ``module`` (``BlPitch(2)`` is looked up as ``BlPitch(k)``)."""
    table = (COLUMNS if column else SETTINGS).get(module, {})
    if key in table:
        return table[key]
    return table.get(_INDEX_RE.sub("(k)", key))


def column_module(module: str, title: str) -> str:
    """The :data:`COLUMNS` entry of a table of ``module`` titled ``title`` (HydroDyn's
    rectangular-member tables share column names with the cylindrical ones but not their use)."""
    if module == "HydroDyn" and "RECTANGULAR" in title.upper():
        return "HydroDyn_rectangular"
    return module


def counts() -> dict[str, int]:
    """Number of table entries (keys and columns) of each kind."""
    out = dict.fromkeys(KINDS, 0)
    for table in (SETTINGS, COLUMNS):
        for entries in table.values():
            for s in entries.values():
                out[s.kind] += 1
    return out


def deck_files(deck: dict) -> list[tuple[str, dict]]:
    """``(module, parsed file)`` of every OpenFAST-format file of the deck (each file once)."""
    out: list[tuple[str, dict]] = []
    seen: set[str] = set()

    def add(module: str, f: dict | None) -> None:
        if f is not None and f["file"] not in seen:
            seen.add(f["file"])
            out.append((module, f))

    add("fst", deck.get("fst"))
    add("ElastoDyn", deck.get("ElastoDyn"))
    for b in deck.get("ElastoDyn_blades") or []:
        add("ElastoDyn_blade", b)
    add("ElastoDyn_tower", deck.get("ElastoDyn_tower"))
    for module in ("ServoDyn", "SeaState", "HydroDyn"):
        add(module, deck.get(module))
    return out


def _show(v: Any) -> str:
    if isinstance(v, list):
        text = " ".join(_show(x) for x in v)
        return text if len(text) <= 60 else text[:57] + "..."
    if isinstance(v, str):
        return f'"{v}"' if v != "DEFAULT" else "DEFAULT"
    if isinstance(v, bool):
        return "True" if v else "False"
    return f"{v:g}" if isinstance(v, float) else str(v)


def refused_items(deck: dict) -> list[tuple[str, str, str]]:
    """``(file name, key, line)`` for every present setting the table refuses on this deck.

    A key (or table column) the table does not know is refused: floatwind cannot tell whether it
    changes the physics. Settings with ``checked_by`` are left to their dedicated check.
    """
    ctx = _Ctx(deck)
    out: list[tuple[str, str, str]] = []
    for module, f in deck_files(deck):
        name = Path(f["file"]).name
        for key, value in f["values"].items():
            s = lookup(module, key)
            if s is None:
                out.append((name, key, f"{name}: {key} = {_show(value)} is not in floatwind's "
                            "table of OpenFAST settings (floatwind.case.openfast_settings): "
                            "floatwind cannot tell whether it changes the physics"))  # fmt: skip
                continue
            if s.ok is None or s.checked_by or s.ok(value, ctx):
                continue
            out.append((name, key, f"{name}: {key} = {_show(value)} is not supported; floatwind "
                        f"supports {s.supported}"))  # fmt: skip
        for title, tab in f["tables"].items():
            cmod = column_module(module, title)
            for j, col in enumerate(tab["columns"]):
                s = lookup(cmod, col, column=True)
                if s is None:
                    out.append((name, col, f"{name}: column {col} of the table {title!r} is not "
                                "in floatwind's table of OpenFAST settings "
                                "(floatwind.case.openfast_settings): floatwind cannot tell "
                                "whether it changes the physics"))  # fmt: skip
                    continue
                cells = [row[j] for row in tab["rows"] if len(row) > j]
                if s.ok is None or s.checked_by or not cells or s.ok(cells, ctx):
                    continue
                bad = next((c for c in cells if not s.ok([c], ctx)), cells[0])
                out.append((name, col, f"{name}: {col} = {_show(bad)} (table {title!r}) is not "
                            f"supported; floatwind supports {s.supported}"))  # fmt: skip
    moor = deck.get("Mooring")
    if moor is not None and moor.get("kind") == "moordyn":
        # MoorDyn's options with a supported set (its tables are read, and refused where
        # unreadable, by floatwind.case.mooring_files)
        from floatwind.case.openfast_deck import read_openfast_input

        values = read_openfast_input(moor["file"])["values"]
        name = Path(moor["file"]).name
        for key, s in SETTINGS["MoorDyn"].items():
            if s.ok is not None and key in values and not s.ok(values[key], ctx):
                out.append((name, key, f"{name}: {key} = {_show(values[key])} is not supported; "
                            f"floatwind supports {s.supported}"))  # fmt: skip
    return out


def refused_settings(deck: dict) -> list[str]:
    """One line per present setting the table refuses on this deck (see :func:`refused_items`)."""
    return [line for _, _, line in refused_items(deck)]
