"""The OpenFAST main input file (``.fst``): the deck it glues together, its environment, its
part of the settings table and the refusal of the modules floatwind does not model.

:func:`read_fst` reads the ``.fst`` and follows the module files it switches on (each read by the
generic reader, :mod:`floatwind.case.openfast.reader`; MAP++/MoorDyn files are located here and
read by :mod:`floatwind.case.openfast.mooring`); :func:`environment` gives the deck's physical
constants. A new module file (AeroDyn, InflowWind) is followed in :func:`read_fst`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from floatwind.case.openfast.reader import DEFAULT, _float, _int, _str, logger, read_openfast_input
from floatwind.case.openfast.settings import OUT, FileKind, I, M, N, R, eq
from floatwind.errors import CaseError

__all__ = ["FILE_KIND", "environment", "read_fst"]


def _is_unused(name: str) -> bool:
    return name.strip().lower() in ("", "unused", "none")


def _follow(owner: dict, key: str, cache: dict[Path, dict]) -> dict:
    name = _str(owner, key)
    if _is_unused(name):
        raise CaseError("the file is needed but given as 'unused'", field=key, file=owner["file"])
    target = (Path(owner["file"]).parent / name).resolve()
    if not target.is_file():
        raise CaseError(f"referenced file not found: {target}", field=key, file=owner["file"])
    if target not in cache:
        cache[target] = read_openfast_input(target)
    return cache[target]


def read_fst(path: str | Path) -> dict[str, Any]:
    """Read an OpenFAST deck: the ``.fst`` file and the module files it switches on.

    Files are followed relative to the file that names them: ElastoDyn (``EDFile``, when
    ``CompElast`` is 1 or 2) with its ``BldFile(k)`` and ``TwrFile``; ServoDyn (``ServoFile``) when
    ``CompServo = 1``; SeaState (``SeaStFile``) when ``CompSeaSt = 1``; HydroDyn (``HydroFile``) when
    ``CompHydro = 1``; AeroDyn (``AeroFile``, with its blade and airfoil files) when ``CompAero =
    2`` and InflowWind (``InflowFile``) when ``CompInflow = 1`` and ``CompAero != 0``
    (:mod:`floatwind.case.openfast.aerodyn`, :mod:`~floatwind.case.openfast.inflowwind`); the
    mooring file (``MooringFile``) of MAP++ (``CompMooring = 1``) or MoorDyn
    (3) is located (``deck["Mooring"] = {"kind", "file"}``) and read by
    :mod:`floatwind.case.openfast.mooring`. Other modules (AeroDisk, SubDyn, ...) are not read; :func:`unsupported_settings` lists them when they are on.

    Parameters
    ----------
    path : str or pathlib.Path
        The main input file (``.fst``).

    Returns
    -------
    dict
        ``{"file", "fst", "ElastoDyn", "ElastoDyn_blades" (list, one per blade), "ElastoDyn_tower",
        "ServoDyn", "SeaState", "HydroDyn", "AeroDyn", "AeroDyn_blades", "AeroDyn_airfoils",
        "AeroDyn_model" (typed blade and airfoil files), "InflowWind", "Mooring"}``; each file entry is a :func:`read_openfast_input`
        result, or ``None`` when the module is off.

    Raises
    ------
    CaseError
        A missing or unreadable file, naming the key that references it.
    """
    path = Path(path)
    if not path.is_file():
        raise CaseError("deck file not found", file=str(path))
    fst = read_openfast_input(path)
    cache: dict[Path, dict] = {}
    deck: dict[str, Any] = {
        "file": str(path),
        "fst": fst,
        "ElastoDyn": None,
        "ElastoDyn_blades": [],
        "ElastoDyn_tower": None,
        "ServoDyn": None,
        "SeaState": None,
        "HydroDyn": None,
    }
    comp_elast = _int(fst, "CompElast")
    if comp_elast not in (1, 2, 3):
        raise CaseError(
            f"CompElast = {comp_elast}: ElastoDyn is required", field="CompElast", file=fst["file"]
        )
    if comp_elast == 3:
        raise CaseError(
            "CompElast = 3 (simplified ElastoDyn) is not supported; use ElastoDyn",
            field="CompElast",
            file=fst["file"],
        )
    ed = _follow(fst, "EDFile", cache)
    deck["ElastoDyn"] = ed
    num_bl = _int(ed, "NumBl")
    if num_bl < 1:
        raise CaseError(f"NumBl = {num_bl} must be at least 1", field="NumBl", file=ed["file"])
    deck["ElastoDyn_blades"] = [_follow(ed, f"BldFile({k})", cache) for k in range(1, num_bl + 1)]
    deck["ElastoDyn_tower"] = _follow(ed, "TwrFile", cache)
    if _int(fst, "CompServo", 0) == 1:
        deck["ServoDyn"] = _follow(fst, "ServoFile", cache)
    if _int(fst, "CompSeaSt", 0) == 1:
        deck["SeaState"] = _follow(fst, "SeaStFile", cache)
    if _int(fst, "CompHydro", 0) == 1:
        deck["HydroDyn"] = _follow(fst, "HydroFile", cache)
    # AeroDyn (CompAero = 2) or AeroDisk (CompAero = 1, read by .aerodisk) and the wind,
    # which acts only through aerodynamics: InflowWind is read when CompInflow = 1 and
    # CompAero != 0 (decks without aerodynamics import as before)
    deck["AeroDyn"] = None
    deck["AeroDyn_blades"] = []
    deck["AeroDyn_airfoils"] = []
    deck["AeroDyn_model"] = None
    deck["InflowWind"] = None
    deck["AeroDisk"] = None
    comp_aero = _int(fst, "CompAero", 0)
    if comp_aero == 1:
        deck["AeroDisk"] = _follow(fst, "AeroFile", cache)
    if comp_aero == 2 and not _is_unused(str(fst["values"].get("AeroFile", ""))):
        # an "unused" AeroFile leaves deck["AeroDyn"] None: aerodyn.rotor_config refuses it
        from floatwind.case.openfast.aerodyn import read_aerodyn_files

        deck.update(read_aerodyn_files(fst, num_bl))
    if comp_aero != 0 and _int(fst, "CompInflow", 0) == 1:
        deck["InflowWind"] = _follow(fst, "InflowFile", cache)
    deck["Mooring"] = None
    comp_moor = _int(fst, "CompMooring", 0)
    if comp_moor in (1, 3):  # MAP++ / MoorDyn: their own formats, read by .mooring
        key = "MooringFile"
        name = _str(fst, key)
        target = (Path(fst["file"]).parent / name).resolve()
        if _is_unused(name) or not target.is_file():
            raise CaseError(
                f"referenced mooring file not found: {target}", field=key, file=fst["file"]
            )
        deck["Mooring"] = {"kind": "map" if comp_moor == 1 else "moordyn", "file": str(target)}
    from floatwind.case.openfast.values import check_values

    check_values(deck)  # a word or DEFAULT where a number belongs (issue 42)
    logger.info("read OpenFAST deck %s (%d files)", path, 1 + len(cache))
    return deck


def environment(deck: dict) -> dict[str, float]:
    """Physical constants of the deck, SI.

    Taken from the ``.fst`` ENVIRONMENTAL CONDITIONS (OpenFAST >= 3.5); older decks fall back to
    ElastoDyn ``Gravity`` and HydroDyn/SeaState ``WtrDens``, ``WtrDpth``, ``MSL2SWL``.

    Returns
    -------
    dict
        ``gravity`` (m/s^2), ``air_density``, ``water_density`` (kg/m^3), ``kinematic_viscosity``
        (m^2/s), ``speed_of_sound`` (m/s), ``atmospheric_pressure``, ``vapour_pressure`` (Pa),
        ``water_depth`` (m), ``msl2swl`` (m, still-water level above mean sea level). Missing
        entries are ``None``.
    """
    fst = deck["fst"]
    others = [f for f in (deck.get("ElastoDyn"), deck.get("SeaState"), deck.get("HydroDyn")) if f]

    def pick(key: str) -> float | None:
        # the first file that gives the key a value; DEFAULT defers to the next file (HydroDyn's
        # "default" = the .fst's value). A word or a non-finite number where the number belongs
        # is refused naming the file and the key (never a silent default).
        for f in (fst, *others):
            if key not in f["values"] or f["values"][key] == DEFAULT:
                continue
            return _float(f, key)
        return None

    return {
        "gravity": pick("Gravity"),
        "air_density": pick("AirDens"),
        "water_density": pick("WtrDens"),
        "kinematic_viscosity": pick("KinVisc"),
        "speed_of_sound": pick("SpdSound"),
        "atmospheric_pressure": pick("Patm"),
        "vapour_pressure": pick("Pvap"),
        "water_depth": pick("WtrDpth"),
        "msl2swl": pick("MSL2SWL"),
    }


# ------------------------------------------------------------------------------ dedicated checks


def _refusals(deck: dict) -> list[str]:
    """The module switches of the ``.fst`` floatwind does not model (CompElast = 2 BeamDyn,
    CompAero, CompSub, CompMooring other than MAP++/MoorDyn, CompIce, CompSoil, MHK,
    NRotors > 1)."""
    out: list[str] = []
    fst = deck["fst"]
    fst_name = Path(fst["file"]).name

    def switch(key: str, what: str, allowed: tuple[int, ...] = (0,)) -> None:
        if key in fst["values"]:
            v = _int(fst, key)
            if v not in allowed:
                out.append(f"{fst_name}: {key} = {v} ({what}) is not supported")

    switch("CompElast", "BeamDyn blades", allowed=(1,))
    switch("CompAero", "aerodynamic loads", allowed=(0, 1, 2))
    if _int(fst, "CompAero", 0) in (1, 2) and _is_unused(str(fst["values"].get("AeroFile", ""))):
        v = _int(fst, "CompAero", 0)
        what = "AeroDisk" if v == 1 else "AeroDyn"
        out.append(f'{fst_name}: CompAero = {v} ({what}) with AeroFile "unused" is not supported: '
                   f"give the {what} input file")  # fmt: skip
    switch("CompSub", "substructure dynamics, SubDyn")
    switch(
        "CompMooring",
        "mooring module FEAMooring/OrcaFlex; MAP++ (1) and MoorDyn (3) are read into the "
        "quasi-static catenary, or use HydroDyn AddF0/AddCLin",
        allowed=(0, 1, 3),
    )
    switch("CompIce", "ice loads")
    switch("CompSoil", "soil-structure interaction")
    switch("MHK", "marine hydrokinetic turbine")
    if "NRotors" in fst["values"] and _int(fst, "NRotors") != 1:
        out.append(
            f"{fst_name}: NRotors = {_int(fst, 'NRotors')} (several rotors) is not supported"
        )
    return out


# ---------------------------------------------------------------------------------- the table

_LIN = "used only for a linearisation (Linearize = True is refused)"
_VTK = "visualisation output"
_GLUE = (
    "OpenFAST's glue-code coupling/solver setting; floatwind integrates all bodies and loads in "
    "one system with its own integrator (simulation.dt, RK4)"
)

_SETTINGS = {
    "fst": {
        "Echo": N("echo of the input file"),
        "AbortLevel": N("error level at which OpenFAST aborts"),
        "TMax": M("simulation.t_max"),
        "DT": M("simulation.dt"),
        "ModCoupling": N(_GLUE),
        "InterpOrder": M("bem_rotor interp_order: with AeroDyn the order of the loads' "
                         "extrapolation in time (coupling: step, docs/rotor.md); otherwise "
                         + _GLUE),
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
        "CompInflow": M(
            "InflowWind file read when CompInflow = 1 and CompAero != 0 (environment.wind); "
            "with CompAero = 0 the wind changes no load and the file is not read"
        ),
        "CompAero": M(
            "AeroDisk file read: aerodisk load (CompAero = 1); AeroDyn file read: bem_rotor load "
            "(CompAero = 2) (docs/loads.md)",
            eq(0, 1, 2),
            "CompAero = 0 (no aerodynamic loads), 1 (AeroDisk) or 2 (AeroDyn)",
            "3",
        ),
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
        "AirDens": M("air density of the bem_rotor load where AeroDyn's AirDens is DEFAULT"),
        "WtrDens": M("environment.rho_water (hydrostatics, potential flow, Morison)"),
        "KinVisc": M(
            "kinematic viscosity of the bem_rotor load (Reynolds numbers) where AeroDyn's KinVisc "
            "is DEFAULT; HydroDyn's drag coefficients are given directly"
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
        "InflowFile": M("InflowWind file read when CompInflow = 1 and CompAero != 0"),
        "AeroFile": M(
            "AeroDisk file read when CompAero = 1; AeroDyn file read when CompAero = 2 (blade and "
            "airfoil files followed)"
        ),
        "ServoFile": M("ServoDyn file read when CompServo = 1"),
        "SeaStFile": M("SeaState file read when CompSeaSt = 1"),
        "HydroFile": M("HydroDyn file read when CompHydro = 1"),
        "SubFile": I("read only with CompSub != 0 (refused)"),
        "MooringFile": M("MAP++/MoorDyn file -> mooring_catenary load (CompMooring = 1 or 3)"),
        "IceFile": I("read only with CompIce != 0 (refused)"),
        "SoilFile": I("read only with CompSoil != 0 (refused)"),
        "SumPrint": N(OUT),
        "SttsTime": N("screen status interval"),
        "ChkptTime": N("checkpoint-file interval"),
        "DT_Out": M("simulation.dt_out"),
        "TStart": N("start time of the tabular output"),
        "OutFileFmt": N(OUT),
        "TabDelim": N(OUT),
        "OutFmt": N(OUT),
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
}

FILE_KIND = FileKind("fst", __name__, settings=_SETTINGS, files={"fst": "fst"}, check=_refusals)
