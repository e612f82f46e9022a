"""The one reader of MoorDyn v1 and v2 input files (MoorDyn's docs, "Input file"): its tables
into plain data that both mooring models take, the lumped-mass ``mooring_lumped``
(:func:`floatwind.case.openfast.moordyn.read_moordyn_lumped`) and the quasi-static catenary
(:func:`floatwind.case.openfast.mooring.read_moordyn`).

* LINE TYPES (v2 ``TypeName Diam MassDen EA BA/-zeta EI Cd Ca CdAx CaAx``; v1 ``Name Diam
  MassDen EA BA/-zeta Can Cat Cdn Cdt``; columns found by their header names) -> line types;
* POINTS (v2 ``ID Attachment X Y Z M V CdA CA``) or CONNECTION PROPERTIES (v1 ``Node Type X Y Z
  M V FX FY FZ CdA CA``): fixed (``Fixed``/``Fix``/``Anchor``), coupled to the platform
  (``Vessel``/``Coupled``; coordinates relative to the platform reference point) and free
  (``Free``/``Connect``) points with mass, volume, CdA and Ca (v1: and a force);
* LINES (v2 ``ID LineType AttachA AttachB UnstrLen NumSegs Outputs``) or LINE PROPERTIES (v1
  ``Line LineType UnstrLen NumSegs NodeAnch NodeFair Flags``);
* OPTIONS / SOLVER OPTIONS (``value key``): every key known (a misspelled one is refused with a
  suggestion); WtrDpth, and where the caller gives them rhoW/WtrDnsty and g, must equal the
  deck's. MoorDyn bodies and rods are refused in one line (not built).

What one model cannot honour (a v1 point force, wave kinematics, friction for the lumped-mass
lines) is refused by that model's reading. Every error is a :class:`floatwind.errors.CaseError`
naming the file and the line (``LINES line 23 (NumSegs)``).
"""

from __future__ import annotations

import math
import pathlib
from typing import NamedTuple

from floatwind.case.openfast.mooring_tables import (
    _find,
    _is_number,
    _num,
    _read_text,
    _sections,
    _table,
)
from floatwind.errors import CaseError
from floatwind.validate import suggest

__all__ = ["MoorDynFile", "OPTION_KEYS", "read_moordyn_file"]

#: options the lumped-mass lines use (lower case -> MoorDyn's spelling)
OPTION_KEYS = {"dtm": "dtM", "kbot": "kbot", "cbot": "cbot", "dtic": "dtIC", "tmaxic": "TmaxIC",
               "cdscaleic": "CdScaleIC", "threshic": "threshIC"}  # fmt: skip
#: options that switch on what is not built (kept with their line for the model to judge)
FEATURE_KEYS = ("wavekin", "waterkin", "currents", "current", "mu_kt", "mu_ka", "mu_st", "mu_sa",
                "frictioncoefficient")  # fmt: skip
_V2_TYPE = {"diam": "diameter", "massden": "mass_per_length", "mass/m": "mass_per_length",
            "ea": "ea", "ba/-zeta": "ba", "ei": "ei", "cd": "cdn", "ca": "can", "cdax": "cdt",
            "caax": "cat", "can": "can", "cat": "cat", "cdn": "cdn", "cdt": "cdt"}  # fmt: skip
_V1_ORDER = ("diameter", "mass_per_length", "ea", "ba", "can", "cat", "cdn", "cdt")
_V2_ORDER = ("diameter", "mass_per_length", "ea", "ba", "ei", "cdn", "can", "cdt", "cat")
_SKIP = ("echo", "writelog", "numtypes", "ntypes", "nconnects", "nlines", "writeunits", "mc",
         "cv")  # fmt: skip
#: options whose value is a word (a scheme's name, a flag): never read as a number
_WORD_OPTIONS = ("tscheme", "echo", "writelog", "writeunits", "disableoutput")
#: options floatwind reads as numbers (a word there is refused naming the line)
_NUMBER_OPTIONS = (*OPTION_KEYS, "wtrdpth", "depth", "rhow", "wtrdnsty", "g", "gravity",
                   "numtypes", "ntypes", "nconnects", "nlines", "frictioncoefficient", "mc",
                   "cv")  # fmt: skip
#: MoorDyn v2 options floatwind reads but does not use (its documentation's option list:
#: output, log and friction settings, coupling ramps, seabed files): noted, never refused
OTHER_OPTIONS = ("dtout", "seafloorfile", "fricdamp", "statdynfricscale", "disableoutput",
                 "disableouttime", "inertialf", "inertialf_rampt", "inertialf_bodyflag",
                 "unifycurrentgrid", "outswitch", "tscheme", "cfl", "dtwave", "wavekin_rampt",
                 "icgendynamic")  # fmt: skip
#: why an option of OTHER_OPTIONS that changes the numerics is not used (the note says it)
_WHY = {"tscheme": "floatwind steps the lines with its own scheme (docs/moordyn.md)",
        "cfl": "floatwind chooses the lines' stable step itself (docs/moordyn.md)",
        "icgendynamic": "floatwind relaxes the lines dynamically, as MoorDyn-F"}  # fmt: skip


#: MoorDyn-F's headers of sections floatwind does not build (MoorDyn.f90, MD_ReadInput)
_NOT_BUILT = ("BODIES", "BODY LIST", "BODY PROPERTIES", "RODS", "ROD LIST", "ROD PROPERTIES",
              "ROD TYPES", "ROD DICTIONARY", "EXTERNAL LOADS", "FAILURE", "CONTROL")  # fmt: skip
#: MoorDyn-F's headers of the points section (v1 ``CONNECTION PROPERTIES``, v2 ``POINTS``)
_POINT_TITLES = ("POINTS", "CONNECTION PROPERTIES", "NODE PROPERTIES", "POINT PROPERTIES",
                 "POINT LIST")  # fmt: skip
#: MoorDyn-F's other spellings of options (MoorDyn.f90: RHO, WATERDEPTH, KB, CB)
_ALIAS = {"rho": "rhow", "waterdepth": "wtrdpth", "kb": "kbot", "cb": "cbot"}


class MoorDynFile(NamedTuple):
    """A MoorDyn file's tables, checked for what both models need."""

    file: str
    line_types: dict[str, dict]  # name -> {diameter, mass_per_length, ea, ba, ei, cdn, ...}
    points: list[dict]  # {name, kind (fixed|coupled|free), position, mass, volume, cda, ca,
    #                      force, _line}
    point_section: str  # "POINTS" (v2) or "CONNECTION PROPERTIES" (v1)
    lines: list[dict]  # {name, type, end_a, end_b, length, segments, outputs, _line}
    options: dict[str, tuple[float, int, str]]  # lower-case key -> (value, line, key as
    #                                             spelled): OPTION_KEYS and FEATURE_KEYS
    notes: list[str]
    outputs: tuple[str, ...] = ()  # the OUTPUTS section's channel names, as written


def read_moordyn_file(path, *, depth: float, rho: float | None = None,
                      gravity: float | None = None) -> MoorDynFile:  # fmt: skip
    """Read and check a MoorDyn v1/v2 file.

    Parameters
    ----------
    path : the MoorDyn input file.
    depth : the deck's water depth (m; ``depth`` in a Z column, and WtrDpth must equal it).
    rho, gravity : the deck's water density and gravity; rhoW/WtrDnsty and g must equal them
        (not checked where None).
    """
    path = pathlib.Path(path)
    file = str(path)
    secs = _sections(_read_text(path))
    for title in secs:
        # MoorDyn-F's section headers (MoorDyn.f90, MD_ReadInput): bodies, rods, external
        # loads, line failures and control channels are not built; a section holding rows of
        # them is refused rather than dropped
        if any(k in title for k in _NOT_BUILT):
            if _table(secs[title], 1)[1]:
                raise CaseError(f"MoorDyn {title.lower()} are not built (lines and points only)",
                                field=title, file=file)  # fmt: skip
    types = _line_types(secs, file)
    points, psec = _points(secs, file, depth)
    lines = _lines(secs, file, types, {p["name"]: p for p in points}, psec)
    options, notes = _options(secs, file, path.name, depth, rho, gravity)
    return MoorDynFile(file, types, points, psec, lines, options, notes, _outputs(secs))


def _outputs(secs) -> tuple[str, ...]:
    """The channel names of the OUTPUTS section (one or more a row, quotes and commas
    stripped, up to END)."""
    names: list[str] = []
    for _n, toks in secs.get("OUTPUTS", []):
        for tok in toks:
            name = tok.strip("\"',")
            if name.upper() == "END":
                return tuple(names)
            if name:
                names.append(name)
    return tuple(names)


def _line_types(secs, file) -> dict[str, dict]:
    header, rows = _table(_find(secs, ("LINE TYPES", "LINE DICTIONARY"), file), 1)
    v2 = any("POINTS" in t or t.startswith("LINES") or "OPTIONS" == t for t in secs)
    cols = None
    if header is not None:
        keys = [_V2_TYPE.get(h.lower()) for h in header[1:]]
        if "ea" in keys and "diameter" in keys:
            cols = keys
    if cols is None:
        cols = list(_V2_ORDER if v2 else _V1_ORDER)
    types: dict[str, dict] = {}
    for n, toks in rows:
        fld = f"LINE TYPES line {n}"
        name = toks[0]
        t = {}
        for j, key in enumerate(cols):
            if key is None or 1 + j >= len(toks):
                continue
            tok = toks[1 + j]
            col = header[1 + j] if header else key
            if key in ("ea", "ba") and not _is_number(tok):
                raise CaseError(f"{col} {tok!r} of line type {name!r}: nonlinear or viscoelastic "
                                "tables are not supported", field=f"{fld} ({col})",
                                file=file)  # fmt: skip
            t[key] = _num(tok, file, f"{fld} ({col})")
        for key, what in (("diameter", "Diam"), ("mass_per_length", "MassDen"), ("ea", "EA")):
            if key not in t:
                raise CaseError(f"line type {name!r} has no {what}", field=fld, file=file)
            if t[key] <= 0.0:
                raise CaseError(f"{what} of line type {name!r} must be > 0, got {t[key]:g}",
                                field=f"{fld} ({what})", file=file)  # fmt: skip
        if name in types:
            raise CaseError(f"line type {name!r} is defined twice", field=fld, file=file)
        types[name] = t
    return types


def _points(secs, file, depth) -> tuple[list[dict], str]:
    prows = _find(secs, _POINT_TITLES, file)
    header, rows = _table(prows, 2)
    # v2 columns (ID Attachment X Y Z M V CdA CA) under any of MoorDyn-F's point headers, v1
    # (Node Type X Y Z M V FX FY FZ CdA CA) where the column names hold a force
    if header is not None and len(header) >= 5:
        pv2 = not any(h.upper() in ("FX", "FY", "FZ") for h in header)
    else:
        pv2 = any(k in t for t in secs for k in ("POINTS", "POINT PROPERTIES", "POINT LIST"))
    psec = "POINTS" if pv2 else "CONNECTION PROPERTIES"
    points: list[dict] = []
    seen: set[str] = set()
    for n, toks in rows:
        fld = f"{psec} line {n}"
        if len(toks) < 5:
            raise CaseError("a point needs ID, Attachment, X, Y, Z", field=fld, file=file)
        att = toks[1].lower()
        if att in ("fixed", "fix", "anchor"):
            kind = "fixed"
        elif att in ("vessel", "coupled", "vessel1", "cpld"):
            kind = "coupled"
        elif att in ("free", "connect", "con"):
            kind = "free"
        elif att.startswith("body") or att.startswith("turbine"):
            raise CaseError(
                f"point {toks[0]!r} is attached to {toks[1]!r}, a MoorDyn body that this file "
                "does not define (its points are fixed, vessel/coupled or free)",
                field=f"{fld} (Attachment)", file=file,
            )  # fmt: skip
        else:
            raise CaseError(f"unknown point attachment {toks[1]!r} (fixed, vessel/coupled or "
                            "free)", field=f"{fld} (Attachment)", file=file)  # fmt: skip
        xyz = [_num(t, file, f"{fld} ({c})", depth=depth) for t, c in zip(toks[2:5], "XYZ")]
        if kind == "fixed" and xyz[2] < -depth - 1e-3:
            raise CaseError(f"fixed point z = {xyz[2]:g} m lies below the seabed (depth "
                            f"{depth:g} m)", field=f"{fld} (Z)", file=file)  # fmt: skip
        names = ("M", "V", "CdA", "CA") if pv2 else ("M", "V", "FX", "FY", "FZ", "CdA", "CA")
        vals = {c: (_num(toks[5 + j], file, f"{fld} ({c})") if len(toks) > 5 + j else 0.0)
                for j, c in enumerate(names)}  # fmt: skip
        for c in ("M", "V", "CdA", "CA"):
            if vals[c] < 0.0:
                raise CaseError(f"{c} must be >= 0, got {vals[c]:g}", field=f"{fld} ({c})",
                                file=file)  # fmt: skip
        if toks[0] in seen:
            raise CaseError(f"point {toks[0]!r} is defined twice", field=f"{fld} (ID)", file=file)
        seen.add(toks[0])
        points.append({"name": toks[0], "kind": kind, "position": [float(v) for v in xyz],
                       "mass": vals["M"], "volume": vals["V"], "cda": vals["CdA"],
                       "ca": vals["CA"], "force": [vals.get(c, 0.0) for c in ("FX", "FY", "FZ")],
                       "_line": n})  # fmt: skip
    if not points:
        raise CaseError("no points defined", field=psec, file=file)
    return points, psec


def _lines(secs, file, types, kinds, psec) -> list[dict]:
    lrows = _find(secs, ("LINES", "LINE PROPERTIES", "LINE LIST"), file)
    lv2 = any(t.startswith("LINES") or t.startswith("LINE LIST") for t in secs)
    head = lrows[0][1] if lrows else []
    if len(head) >= 6 and not _is_number(head[0]):  # the column names say which layout
        lv2 = any(h.lower().startswith("attach") for h in head)
    lines: list[dict] = []
    for n, toks in _table(lrows, 4 if lv2 else 2)[1]:  # the UnstrLen column
        fld = f"LINES line {n}"
        if len(toks) < 6:
            raise CaseError("a line needs ID, LineType, its ends, UnstrLen and NumSegs",
                            field=fld, file=file)  # fmt: skip
        if lv2:
            ltype, a, b, ltok, ntok = toks[1], toks[2], toks[3], toks[4], toks[5]
        else:
            ltype, ltok, ntok, a, b = toks[1], toks[2], toks[3], toks[4], toks[5]
        if ltype not in types:
            raise CaseError(f"unknown line type {ltype!r}; LINE TYPES has {sorted(types)}",
                            field=f"{fld} (LineType)", file=file)  # fmt: skip
        length = _num(ltok, file, f"{fld} (UnstrLen)")
        if length <= 0.0:
            raise CaseError(f"UnstrLen must be > 0, got {length:g} m", field=f"{fld} (UnstrLen)",
                            file=file)  # fmt: skip
        try:
            nseg = int(ntok)
        except ValueError:
            raise CaseError(f"NumSegs must be a whole number, got {ntok!r}",
                            field=f"{fld} (NumSegs)", file=file) from None  # fmt: skip
        if nseg < 1:
            raise CaseError(f"NumSegs must be >= 1, got {nseg}", field=f"{fld} (NumSegs)",
                            file=file)  # fmt: skip
        for tok, what in ((a, "AttachA"), (b, "AttachB")):
            if tok not in kinds:
                raise CaseError(f"point {tok!r} is not defined in {psec}",
                                field=f"{fld} ({what})", file=file)  # fmt: skip
        pa, pb = kinds[a], kinds[b]
        if pa["kind"] != "free" and pb["kind"] != "free":
            chord = math.dist(pa["position"], pb["position"])  # at rest (vessel at the origin)
            if chord > 1.1 * length:
                raise CaseError(
                    f"the line cannot reach its ends: they are {chord:.6g} m apart at rest, its "
                    f"unstretched length is {length:.6g} m", field=f"{fld} (UnstrLen)",
                    file=file,
                )  # fmt: skip
        if a == b:
            raise CaseError("both ends of the line are the same point", field=fld, file=file)
        # the LineOutputs / flags column: MoorDyn's per-line output file (p positions, v
        # velocities, t tensions, ...; "-" none)
        lines.append({"name": toks[0], "type": ltype, "end_a": a, "end_b": b, "length": length,
                      "segments": nseg, "outputs": toks[6] if len(toks) > 6 else "-",
                      "_line": n})  # fmt: skip
    if not lines:
        raise CaseError("no lines defined", field="LINES", file=file)
    return lines


def _note(name: str, key: str, n: int, low: str) -> str:
    why = _WHY.get(low, "")
    return (f"{name}: option {key} (line {n}) is not used by floatwind's mooring lines"
            + (f": {why}" if why else ""))  # fmt: skip


def _options(secs, file, name, depth, rho, gravity):
    opts: dict[str, tuple[float, int, str]] = {}
    given: dict[str, tuple[float, int]] = {}  # every numeric option: (value, line)
    notes: list[str] = []
    for title, rows in secs.items():
        if "OPTIONS" not in title:
            continue
        for n, toks in rows:
            if len(toks) < 2:
                continue
            key = toks[1]
            low = _ALIAS.get(key.lower(), key.lower())
            fld = f"OPTIONS line {n} ({key})"
            if not _is_number(toks[0]):  # a word value: only where MoorDyn takes one (issue 42)
                if low in ("wavekin", "waterkin", "currents", "current"):
                    raise CaseError(f"{key} = {toks[0]!r}: wave and current kinematics on the "
                                    "lines are not built (lines in still water: 0)", field=fld,
                                    file=file)  # fmt: skip
                if low in OTHER_OPTIONS:
                    notes.append(_note(name, key, n, low))
                if low in _WORD_OPTIONS or low in OTHER_OPTIONS:
                    continue
                if low not in _NUMBER_OPTIONS and not low.startswith("mu_"):
                    known = [*OPTION_KEYS.values(), "WtrDpth", "rhoW", "WtrDnsty", "g",
                             "WaveKin", "Currents", "FrictionCoefficient", *OTHER_OPTIONS]  # fmt: skip
                    raise CaseError(f"unknown MoorDyn option {key!r}{suggest(key, known)}",
                                    field=fld, file=file)  # fmt: skip
            val = _num(toks[0], file, fld, depth=depth)
            if low in given and given[low][0] != val:  # MoorDyn keeps the last: which was meant?
                raise CaseError(f"{key} is given twice with different values (lines "
                                f"{given[low][1]} and {n})", field=fld, file=file)  # fmt: skip
            given[low] = (val, n)
            if low in OPTION_KEYS or low in FEATURE_KEYS:
                opts[low] = (val, n, key)
            elif low in ("wtrdpth", "depth"):
                if abs(abs(val) - depth) > 1e-6 * max(depth, 1.0):
                    raise CaseError(f"WtrDpth = {val:g} m differs from the deck's water depth "
                                    f"{depth:g} m (one seabed)", field=fld, file=file)  # fmt: skip
            elif low in ("rhow", "wtrdnsty"):
                if rho is not None and abs(val - rho) > 1e-9 * rho:
                    raise CaseError(f"{key} = {val:g} differs from the deck's water density "
                                    f"{rho:g} (one water)", field=fld, file=file)  # fmt: skip
            elif low in ("g", "gravity"):
                if gravity is not None and abs(val - gravity) > 1e-9 * gravity:
                    raise CaseError(f"g = {val:g} differs from the deck's gravity {gravity:g}",
                                    field=fld, file=file)  # fmt: skip
            elif low in _SKIP:
                continue
            elif low in OTHER_OPTIONS:
                notes.append(_note(name, key, n, low))
            else:  # a misspelled option must not pass as "not used" (issue 42)
                known = [*OPTION_KEYS.values(), "WtrDpth", "rhoW", "WtrDnsty", "g", "WaveKin",
                         "Currents", "FrictionCoefficient", *OTHER_OPTIONS]  # fmt: skip
                raise CaseError(f"unknown MoorDyn option {key!r}{suggest(key, known)}",
                                field=fld, file=file)  # fmt: skip
    for key, (val, n, _) in opts.items():
        if key in OPTION_KEYS and (
            not val >= 0.0 or (key in ("dtm", "dtic", "threshic", "cdscaleic") and val <= 0.0)
        ):
            raise CaseError(f"{OPTION_KEYS[key]} must be > 0, got {val:g}",
                            field=f"OPTIONS line {n} ({OPTION_KEYS[key]})", file=file)  # fmt: skip
    return opts, notes
