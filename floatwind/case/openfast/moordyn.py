"""MoorDyn v1 and v2 input files read into floatwind's lumped-mass ``mooring_lumped`` load.

The dynamic alternative to :mod:`floatwind.case.openfast.mooring`'s quasi-static reading: every
table of a MoorDyn file is kept (MoorDyn's docs, "Input file", v1 and v2 formats):

* LINE TYPES (v2 ``TypeName Diam MassDen EA BA/-zeta EI Cd Ca CdAx CaAx``; v1 ``Name Diam
  MassDen EA BA/-zeta Can Cat Cdn Cdt``; columns found by their header names) -> line types;
* POINTS (v2 ``ID Attachment X Y Z M V CdA CA``) or CONNECTION PROPERTIES (v1 ``Node Type X Y Z
  M V FX FY FZ CdA CA``): fixed (``Fixed``/``Fix``/``Anchor``), coupled to the platform
  (``Vessel``/``Coupled``; coordinates relative to the platform reference point) and free
  (``Free``/``Connect``) points with mass, volume, CdA and Ca;
* LINES (v2 ``ID LineType AttachA AttachB UnstrLen NumSegs Outputs``) or LINE PROPERTIES (v1
  ``Line LineType UnstrLen NumSegs NodeAnch NodeFair Flags``);
* OPTIONS / SOLVER OPTIONS (``value key``): dtM, kbot, cbot, dtIC, TmaxIC, CdScaleIC, threshIC;
  WtrDpth, rhoW/WtrDnsty and g must equal the deck's; WaterKin/Currents other than 0, seabed
  friction and MoorDyn bodies and rods are refused in one line (not built).

Every error is a :class:`floatwind.errors.CaseError` naming the file and the line
(``LINES line 23 (NumSegs)``).
"""

from __future__ import annotations

import math
import pathlib

import numpy as np

from floatwind.case.openfast.mooring import (
    _find,
    _is_number,
    _num,
    _read_text,
    _sections,
    _table,
    catenary_load,
)
from floatwind.environment.base import DEFAULT_WATER_DEPTH
from floatwind.errors import CaseError
from floatwind.validate import suggest

__all__ = ["MOORING_MODELS", "mooring_load", "read_moordyn_lumped"]

#: MoorDyn's defaults of the options a file may leave out (MoorDyn-F MD_Init: kBot, cBot,
#: dtIC, TMaxIC, CdScaleIC, threshIC)
_DEFAULTS = {"kbot": 3.0e6, "cbot": 3.0e5, "dtic": 2.0, "tmaxic": 60.0, "cdscaleic": 4.0,
             "threshic": 0.01}  # fmt: skip
_OPTION_KEYS = {"dtm": "dtM", "kbot": "kbot", "cbot": "cbot", "dtic": "dtIC", "tmaxic": "TmaxIC",
                "cdscaleic": "CdScaleIC", "threshic": "threshIC"}  # fmt: skip
_V2_TYPE = {"diam": "diameter", "massden": "mass_per_length", "mass/m": "mass_per_length",
            "ea": "ea", "ba/-zeta": "ba", "ei": "ei", "cd": "cdn", "ca": "can", "cdax": "cdt",
            "caax": "cat", "can": "can", "cat": "cat", "cdn": "cdn", "cdt": "cdt"}  # fmt: skip
_V1_ORDER = ("diameter", "mass_per_length", "ea", "ba", "can", "cat", "cdn", "cdt")
_V2_ORDER = ("diameter", "mass_per_length", "ea", "ba", "ei", "cdn", "can", "cdt", "cat")

#: MoorDyn v2 options floatwind reads but does not use (its documentation's option list:
#: output, log and friction settings, coupling ramps, seabed files): noted, never refused
#: options whose value is a word (a scheme's name, a flag): never read as a number
_WORD_OPTIONS = ("tscheme", "echo", "writelog", "writeunits", "disableoutput")
#: options floatwind reads as numbers (a word there is refused naming the line)
_NUMBER_OPTIONS = (*_OPTION_KEYS, "wtrdpth", "depth", "rhow", "wtrdnsty", "g", "gravity",
                   "numtypes", "ntypes", "nconnects", "nlines", "frictioncoefficient", "mc",
                   "cv")  # fmt: skip
_OTHER_OPTIONS = ("dtout", "seafloorfile", "fricdamp", "statdynfricscale", "disableoutput",
                  "disableouttime", "inertialf", "inertialf_rampt", "inertialf_bodyflag",
                  "unifycurrentgrid", "outswitch")  # fmt: skip


def read_moordyn_lumped(path, *, depth: float, rho: float, gravity: float):
    """The ``mooring_lumped`` mapping of a MoorDyn v1/v2 file (coupled points relative to the
    platform reference point, as in the file) and its notes.

    Parameters
    ----------
    path : the MoorDyn input file.
    depth, rho, gravity : the deck's water depth (m), water density and gravity.
    """
    path = pathlib.Path(path)
    file = str(path)
    secs = _sections(_read_text(path))
    notes: list[str] = []
    for title in secs:
        if any(k in title for k in ("BODIES", "BODY LIST", "RODS", "ROD LIST", "ROD TYPES")):
            if _table(secs[title], 2)[1]:
                raise CaseError(f"MoorDyn {title.lower()} are not built (lines and points only)",
                                field=title, file=file)  # fmt: skip
    # ---- line types
    trows = _find(secs, ("LINE TYPES", "LINE DICTIONARY"), file)
    header, rows = _table(trows, 1)
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
            if key in ("ea", "ba") and not _is_number(tok):
                raise CaseError(f"{header[1 + j] if header else key} {tok!r} of line type "
                                f"{name!r}: nonlinear or viscoelastic tables are not supported",
                                field=f"{fld} ({key})", file=file)  # fmt: skip
            t[key] = _num(tok, file, f"{fld} ({header[1 + j] if header else key})")
        for key, what in (("diameter", "Diam"), ("mass_per_length", "MassDen"), ("ea", "EA")):
            if key not in t:
                raise CaseError(f"line type {name!r} has no {what}", field=fld, file=file)
            if t[key] <= 0.0:
                raise CaseError(f"{what} of line type {name!r} must be > 0, got {t[key]:g}",
                                field=f"{fld} ({what})", file=file)  # fmt: skip
        if name in types:
            raise CaseError(f"line type {name!r} is defined twice", field=fld, file=file)
        types[name] = t
    # ---- points
    prows = _find(secs, ("POINTS", "CONNECTION PROPERTIES", "NODE PROPERTIES"), file)
    pv2 = any("POINTS" in t for t in secs)
    psec = "POINTS" if pv2 else "CONNECTION PROPERTIES"
    _, prows = _table(prows, 2)
    points: list[dict] = []
    seen: dict[str, int] = {}
    for n, toks in prows:
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
        for c in ("FX", "FY", "FZ"):
            if vals.get(c, 0.0) != 0.0:
                raise CaseError(f"{c} = {vals[c]:g}: an external force on a point is not "
                                "supported by the lumped-mass model", field=f"{fld} ({c})",
                                file=file)  # fmt: skip
        for c in ("M", "V", "CdA", "CA"):
            if vals[c] < 0.0:
                raise CaseError(f"{c} must be >= 0, got {vals[c]:g}", field=f"{fld} ({c})",
                                file=file)  # fmt: skip
        if toks[0] in seen:
            raise CaseError(f"point {toks[0]!r} is defined twice", field=f"{fld} (ID)", file=file)
        seen[toks[0]] = n
        points.append({"name": toks[0], "kind": kind, "position": [float(v) for v in xyz],
                       "mass": vals["M"], "volume": vals["V"], "cda": vals["CdA"],
                       "ca": vals["CA"]})  # fmt: skip
    if not points:
        raise CaseError("no points defined", field=psec, file=file)
    kinds = {p["name"]: p for p in points}
    # ---- lines
    lrows = _find(secs, ("LINES", "LINE PROPERTIES", "LINE LIST"), file)
    lv2 = any(t.startswith("LINES") or t.startswith("LINE LIST") for t in secs)
    _, lrows = _table(lrows, 4 if lv2 else 2)  # the UnstrLen column
    lines: list[dict] = []
    for n, toks in lrows:
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
        lines.append({"name": toks[0], "type": ltype, "end_a": a, "end_b": b, "length": length,
                      "segments": nseg, "_line": n})  # fmt: skip
    if not lines:
        raise CaseError("no lines defined", field="LINES", file=file)
    # ---- options
    opts: dict[str, float] = {}
    opt_line: dict[str, int] = {}
    for title, rows in secs.items():
        if "OPTIONS" not in title:
            continue
        for n, toks in rows:
            if len(toks) < 2:
                continue
            key = toks[1]
            low = key.lower()
            fld = f"OPTIONS line {n} ({key})"
            if not _is_number(toks[0]):  # a word value: only where MoorDyn takes one (issue 42)
                if low in ("wavekin", "waterkin", "currents", "current"):
                    raise CaseError(f"{key} = {toks[0]!r}: wave and current kinematics on the "
                                    "lines are not built (lines in still water: 0)", field=fld,
                                    file=file)  # fmt: skip
                if low in _WORD_OPTIONS or low in _OTHER_OPTIONS:
                    continue
                if low not in _NUMBER_OPTIONS and not low.startswith("mu_"):
                    known = [*_OPTION_KEYS.values(), "WtrDpth", "rhoW", "WtrDnsty", "g",
                             "WaveKin", "Currents", *_OTHER_OPTIONS]  # fmt: skip
                    raise CaseError(f"unknown MoorDyn option {key!r}{suggest(key, known)}",
                                    field=fld, file=file)  # fmt: skip
            val = _num(toks[0], file, fld, depth=depth)
            if low in _OPTION_KEYS:
                opts[low] = val
                opt_line[low] = n
            elif low in ("wtrdpth", "depth"):
                if abs(abs(val) - depth) > 1e-6 * max(depth, 1.0):
                    raise CaseError(f"WtrDpth = {val:g} m differs from the deck's water depth "
                                    f"{depth:g} m (one seabed)", field=fld, file=file)  # fmt: skip
            elif low in ("rhow", "wtrdnsty"):
                if abs(val - rho) > 1e-9 * rho:
                    raise CaseError(f"{key} = {val:g} differs from the deck's water density "
                                    f"{rho:g} (one water)", field=fld, file=file)  # fmt: skip
            elif low in ("g", "gravity"):
                if abs(val - gravity) > 1e-9 * gravity:
                    raise CaseError(f"g = {val:g} differs from the deck's gravity {gravity:g}",
                                    field=fld, file=file)  # fmt: skip
            elif low in ("wavekin", "waterkin", "currents", "current"):
                if val != 0.0:
                    raise CaseError(f"{key} = {val:g}: wave and current kinematics on the lines "
                                    "are not built (lines in still water: 0)", field=fld,
                                    file=file)  # fmt: skip
            elif low in ("mu_kt", "mu_ka", "mu_st", "mu_sa"):
                if val != 0.0:
                    raise CaseError(f"{key} = {val:g}: seabed friction is not built (0)",
                                    field=fld, file=file)  # fmt: skip
            elif low in (
                "echo",
                "writelog",
                "numtypes",
                "ntypes",
                "nconnects",
                "nlines",
                "writeunits",
                "frictioncoefficient",
                "mc",
                "cv",
                "tscheme",
            ):
                continue
            elif low in _OTHER_OPTIONS:
                notes.append(f"{path.name}: option {key} (line {n}) is not used by floatwind's "
                             "lumped-mass lines")  # fmt: skip
            else:  # a misspelled option must not pass as "not used" (issue 42)
                known = [*_OPTION_KEYS.values(), "WtrDpth", "rhoW", "WtrDnsty", "g", "WaveKin",
                         "Currents", *_OTHER_OPTIONS]  # fmt: skip
                raise CaseError(f"unknown MoorDyn option {key!r}{suggest(key, known)}",
                                field=fld, file=file)  # fmt: skip
    if "dtm" not in opts:
        raise CaseError("dtM is required (MoorDyn's time step)", field="OPTIONS (dtM)", file=file)
    for key, val in opts.items():
        if not val >= 0.0 or (key in ("dtm", "dtic", "threshic", "cdscaleic") and val <= 0.0):
            raise CaseError(f"{_OPTION_KEYS[key]} must be > 0, got {val:g}",
                            field=f"OPTIONS line {opt_line[key]} ({_OPTION_KEYS[key]})",
                            file=file)  # fmt: skip
    get = {k: opts.get(k, v) for k, v in _DEFAULTS.items()}
    cfg = {
        "type": "mooring_lumped",
        "body": "platform",
        "line_types": types,
        "points": points,
        "lines": [{k: v for k, v in ln.items() if k != "_line"} for ln in lines],
        "seabed": {"kbot": get["kbot"], "cbot": get["cbot"]},
        "dt_m": opts["dtm"],
        "initial": {"tmax": get["tmaxic"], "threshold": get["threshic"],
                    "cd_scale": get["cdscaleic"], "dt": get["dtic"]},
    }  # fmt: skip
    _check_dtm(cfg, rho, opts["dtm"], file, opt_line.get("dtm"))
    return cfg, notes


def _check_dtm(cfg: dict, rho: float, dtm: float, file: str, line: int | None) -> None:
    """Refuse a dtM that MoorDyn's RK2 cannot keep stable for the lines (one line, naming the
    dtM line of the file)."""
    from floatwind.loads.moordyn import RK2_BOUND, fastest_rate, line_ba, stable_step

    worst, which = 0.0, None
    for ln in cfg["lines"]:
        t = cfg["line_types"][ln["type"]]
        seg = ln["length"] / ln["segments"]
        ba = line_ba(t.get("ba", 0.0), ln["length"], ln["segments"], t["ea"],
                     t["mass_per_length"])  # fmt: skip
        rate = fastest_rate(seg, t["ea"], ba, t["mass_per_length"], t["diameter"],
                            t.get("can", 0.0), rho, cfg["seabed"]["kbot"],
                            cfg["seabed"]["cbot"])  # fmt: skip
        if rate > worst:
            worst, which = rate, ln["name"]
    limit = stable_step(worst, RK2_BOUND)
    if dtm > limit:
        raise CaseError(
            f"dtM = {dtm:g} s cannot be stable: line {which}'s fastest mode ({worst:.4g} 1/s, "
            f"axial stiffness and damping of its segments or seabed contact) needs dtM <= "
            f"{limit:.3g} s", field=f"OPTIONS line {line} (dtM)" if line else "OPTIONS (dtM)",
            file=file,
        )  # fmt: skip


def lumped_run_step(cfg: dict, rho: float, dt: float) -> tuple[float, int]:
    """The run's step for the deck's ``dt``: ``dt / k`` with the smallest whole ``k`` that keeps
    RK4 stable for the lines' fastest mode; ``(step, k)``."""
    from floatwind.loads.moordyn import RK4_BOUND, fastest_rate, line_ba, stable_step

    worst = 0.0
    for ln in cfg["lines"]:
        t = cfg["line_types"][ln["type"]]
        ba = line_ba(t.get("ba", 0.0), ln["length"], ln["segments"], t["ea"],
                     t["mass_per_length"])  # fmt: skip
        worst = max(
            worst,
            fastest_rate(
                ln["length"] / ln["segments"],
                t["ea"],
                ba,
                t["mass_per_length"],
                t["diameter"],
                t.get("can", 0.0),
                rho,
                cfg["seabed"]["kbot"],
                cfg["seabed"]["cbot"],
            ),
        )
    limit = stable_step(worst, RK4_BOUND)
    k = max(1, int(math.ceil(dt / limit - 1e-9)))
    return dt / k, k


def shift_coupled(cfg: dict, ref: np.ndarray) -> dict:
    """Coupled points' coordinates from relative to the platform reference point to the
    platform frame (the catenary import's convention)."""
    for p in cfg["points"]:
        if p["kind"] == "coupled":
            p["position"] = [float(v) for v in np.asarray(p["position"], float) + ref]
    return cfg


MOORING_MODELS = ("auto", "dynamic", "quasi-static")


def mooring_load(moor: dict, env: dict, ref: np.ndarray, notes: list[str], model: str,
                 dt: float) -> tuple[dict, float | None]:  # fmt: skip
    """The deck's mooring load and the run step it needs (None: the deck's DT). ``model``:
    "auto" (MoorDyn -> lumped-mass lines, MAP++ -> quasi-static catenary), "dynamic" or
    "quasi-static"; a one-line note says which model runs and how to choose the other."""
    if model not in MOORING_MODELS:
        raise CaseError(f"unknown mooring model {model!r}; one of {', '.join(MOORING_MODELS)}",
                        field="--mooring")  # fmt: skip
    name = pathlib.Path(moor["file"]).name
    if moor["kind"] == "map" or model == "quasi-static":
        if moor["kind"] == "map" and model == "dynamic":
            raise CaseError("MAP++ (CompMooring = 1) is a quasi-static model; the lumped-mass "
                            "lines read MoorDyn files (CompMooring = 3)", field="--mooring",
                            file=moor["file"])  # fmt: skip
        load = catenary_load(moor, env, ref, notes)
        if moor["kind"] == "map":
            notes.append(f"{name}: mooring model: MAP++ quasi-static catenary (mooring_catenary)")
        else:
            notes[:] = [n for n in notes if "read into floatwind's quasi-static" not in n]
            notes.append(f"{name}: mooring model: quasi-static catenary (--mooring quasi-static; "
                         "MoorDyn's line inertia, drag and damping not represented; --mooring "
                         "dynamic runs the lumped-mass lines)")  # fmt: skip
        return load, None
    depth = float(env["water_depth"] or DEFAULT_WATER_DEPTH)
    rho = float(env["water_density"] or 1025.0)
    cfg, more = read_moordyn_lumped(moor["file"], depth=depth, rho=rho,
                                    gravity=float(env["gravity"]))  # fmt: skip
    shift_coupled(cfg, ref)
    step, k = lumped_run_step(cfg, rho, dt)
    notes.extend(more)
    notes.append(
        f"{name}: mooring model: MoorDyn lumped-mass lines (mooring_lumped; --mooring "
        "quasi-static runs the quasi-static catenary instead)"
        + (f"; run step DT/{k} = {step:.6g} s for the lines' fastest mode" if k > 1 else "")
    )
    return cfg, (step if k > 1 else None)
