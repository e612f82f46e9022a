"""AeroDisk (CompAero = 1): the actuator-disc file of a deck -> the ``aerodisk`` load, and its
part of the settings table.

The AeroDisk input file (the ``.fst``'s ``AeroFile`` when ``CompAero = 1``) is read twice: by the
generic reader for the settings walk (``deck["AeroDisk"]``, its keys and the table's columns
below), and by :func:`floatwind.io.aerodisk.read_aerodisk` for the table itself (AeroDisk's
rules: columns by ``InColNames``, counts by ``InColDims``, rows sorted onto the grid; errors name
the file and the line), which the ``aerodisk`` load reads again when the case is built.

:func:`aerodisk_case_load` gives the load entry of the imported case: the disc on the spinning
``rotor`` body (its frame origin at the rotor apex, ElastoDyn's hub reference point), the tilted
shaft axis c1, ``RotorRad`` or, for ``"default"``, ElastoDyn's ``TipRad`` (OpenFAST passes
``HubRad + BladeLength``, the cone not included), ``AirDens`` or the ``.fst``'s ``AirDens``,
and the collective pitch ``BlPitch(1)`` of ElastoDyn (AeroDisk's ``u%BlPitch``). The rotor speed
is the ``shaft`` joint's (``RotSpeed``; a free rotor's when GenDOF makes it one).

Dedicated checks (:func:`_refusals`): no InflowWind (``CompInflow`` other than 1: AeroDisk
stops without a flow field); a rotor at rest (``RotSpeed = 0`` without GenDOF): TSR or
rotor speed 0 lies below every AeroDisk table (AeroDisk stops at its first step); an OutList
name AeroDisk does not write (AeroDisk stops at initialisation).
"""

from __future__ import annotations

import functools
import math
from pathlib import Path
from typing import Any

from floatwind.case.openfast.reader import _ed, _float
from floatwind.case.openfast.settings import OUT, FileKind, I, M, N

__all__ = ["FILE_KIND", "aerodisk_case_load", "outlist_problems"]


@functools.cache
def _channel_names() -> frozenset[str]:
    """AeroDisk's channel names, upper case (its load module imported on first use: issue 41)."""
    from floatwind.loads.aerodisk import CHANNELS

    return frozenset(n.upper() for n in CHANNELS)


def outlist_problems(names) -> list[str]:
    """The OutList names AeroDisk does not know (its ``SetOutParam``: a leading ``-``, ``_``,
    ``m`` or ``M`` asks for the negative; case-insensitive)."""
    known = _channel_names()
    bad = []
    for name in names:
        up = str(name).upper()
        if up in known:
            continue
        if up[:1] in ("-", "_", "M") and up[1:] in known:
            continue
        bad.append(str(name))
    return bad


def aerodisk_case_load(deck: dict, *, body: str = "rotor", rotor_centre=(0.0, 0.0, 0.0),
                       shaft_axis, pitch: float | None = None) -> dict[str, Any]:  # fmt: skip
    """The ``aerodisk`` load entry of the case of ``deck`` (module docstring).

    Parameters
    ----------
    deck : dict
        From :func:`floatwind.case.openfast.read_fst`, with ``deck["AeroDisk"]``.
    body : str
        The spinning rotor body (the importer's ``rotor``).
    rotor_centre : (3,)
        The rotor apex in that body's frame (m): the origin of the importer's ``rotor`` frame.
    shaft_axis : (3,)
        The downwind shaft axis c1 in that body's frame (ElastoDyn's tilted shaft).
    pitch : float, optional
        Collective blade pitch (rad); default ElastoDyn's ``BlPitch(1)``.
    """
    adf = deck["AeroDisk"]
    path = adf["file"]
    from floatwind.io.aerodisk import read_aerodisk

    parsed = read_aerodisk(path)  # AeroDisk's rules now, errors naming the file and the line
    entry: dict[str, Any] = {
        "type": "aerodisk",
        "body": body,
        "rotor_centre": [float(v) for v in rotor_centre],
        "shaft_axis": [float(v) for v in shaft_axis],
        "aerodisk_file": str(Path(path).resolve()),
    }
    ed = _ed(deck)
    if parsed.rotor_radius is None:  # "default": OpenFAST passes HubRad + BladeLength = TipRad
        entry["rotor_radius"] = _float(ed, "TipRad")
    if parsed.air_density is None:
        rho = deck["fst"]["values"].get("AirDens")
        if isinstance(rho, int | float) and not isinstance(rho, bool) and rho > 0:
            entry["air_density"] = float(rho)
    if pitch is None:
        pitch = _float(ed, "BlPitch(1)", 0.0) * math.pi / 180.0
    entry["pitch"] = float(pitch)
    return entry


# ------------------------------------------------------------------------------ dedicated checks


def _refusals(deck: dict) -> list[str]:
    adf = deck.get("AeroDisk")
    if adf is None:
        return []
    out: list[str] = []
    name = Path(adf["file"]).name
    fst = deck.get("fst")
    if fst is not None and fst["values"].get("CompInflow", 0) != 1:
        inflow = fst["values"].get("CompInflow", 0)
        out.append(
            f"{name}: AeroDisk with CompInflow = {inflow} is not supported: AeroDisk samples the "
            "InflowWind flow field (CompInflow = 1); without it AeroDisk stops at initialisation"
        )
    ed = deck.get("ElastoDyn")
    if ed is not None:
        rot = ed["values"].get("RotSpeed", 0.0)
        gen_dof = ed["values"].get("GenDOF", False)
        if isinstance(rot, int | float) and float(rot) == 0.0 and gen_dof is not True:
            out.append(
                f"{name}: AeroDisk with the rotor at rest (ElastoDyn RotSpeed = 0, GenDOF = "
                "False) is not supported: a TSR or rotor speed of 0 lies below every AeroDisk "
                "table (AeroDisk stops at its first step)"
            )
    for lst in (adf.get("outlists") or {}).values():
        for bad in outlist_problems(lst):
            out.append(f"{name}: OutList {bad} is not an available AeroDisk output channel")
    return out


# ---------------------------------------------------------------------------------- the table

_TABLE = (
    "the AeroDisk coefficient table (floatwind.io.aerodisk reads it with AeroDisk's rules) -> "
    "the aerodisk load's aerodisk_file"
)

_SETTINGS = {
    "AeroDisk": {
        "Echo": N("echo of the input file"),
        "echo": N("echo of the input file (AeroDisk reads the key in any case)"),
        "DT": I(
            "AeroDisk has no states (quasi-steady table lookup): the disc is evaluated at every "
            "stage of floatwind's time step whatever its own DT"
        ),
        "AirDens": M('aerodisk load air_density ("default": the .fst AirDens)'),
        "RotorRad": M(
            'aerodisk load rotor_radius ("default": ElastoDyn TipRad = HubRad + '
            "BladeLength, the cone not included, as OpenFAST passes it)"
        ),  # fmt: skip
        "InColNames": M(_TABLE),
        "InColDims": M(_TABLE),
        "SumPrint": N(OUT),
    },
}

_COLUMNS = {
    "AeroDisk": {
        "TSR": M(_TABLE),
        "RtSpd": M(_TABLE + " (rpm -> rad/s)"),
        "VRel": M(_TABLE),
        "Pitch": M(_TABLE + " (deg -> rad)"),
        "Skew": M(_TABLE + " (deg -> rad)"),
        **{c: M(_TABLE) for c in ("C_Fx", "C_Fy", "C_Fz", "C_Mx", "C_My", "C_Mz")},
    },
}

FILE_KIND = FileKind(
    "AeroDisk",
    __name__,
    settings=_SETTINGS,
    columns=_COLUMNS,
    files={"AeroDisk": "AeroDisk"},
    check=_refusals,
)
