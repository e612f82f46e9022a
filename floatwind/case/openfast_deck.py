"""OpenFAST decks: a generic input-file reader, the deck tree, and ElastoDyn mass properties.

This is the parsing and mass-property layer of ``floatwind import-openfast`` (issue 9). It reads an
OpenFAST main input file (``.fst``) and the module files it references (ElastoDyn with its blade
and tower files, ServoDyn, HydroDyn, SeaState), computes the rigid-body mass properties the way
ElastoDyn discretises them, lists the settings floatwind cannot represent, and extracts initial
conditions, DOF switches, ServoDyn override maneuvers, HydroDyn and SeaState settings as plain
dicts in SI units. Every key is documented in ``docs/openfast_import.md``.

Public functions
----------------
read_openfast_input(path) -> dict      one OpenFAST input file, generically parsed
read_fst(path) -> dict                 the deck: the .fst and the files it references
elastodyn_mass_properties(deck, *, nac_yaw=None, azimuth=None) -> dict
unsupported_settings(deck) -> list[str]
environment(deck) -> dict
enabled_dofs(deck) -> dict
initial_conditions(deck) -> dict
servodyn_maneuvers(deck) -> dict | None
hydrodyn_model(deck) -> dict | None
sea_state(deck) -> dict | None
deck_summary(deck) -> dict             all of the above at once

Generic parse result (``read_openfast_input``)::

    {"file": str, "title": str,            # path and the free text of line 2
     "values": {key: value},               # "value KEY - comment" lines, in file order
     "tables": {section_title: {"columns": [...], "units": [...], "rows": [[...], ...]}},
     "outlists": {"OutList": [...], "OutList_2": [...]},
     "sections": [section_title, ...]}

Values are ``int``, ``float``, ``bool``, ``str``, the string ``"DEFAULT"`` (for ``DEFAULT`` or
``"default"``), ``None`` (a key without a value), a list (several values on one line, e.g.
``30, 60 LinTimes``), or a list of rows when numeric lines without a key follow the keyed line
(HydroDyn ``AddF0``, ``AddCLin``, ``AddBLin``, ``AddBQuad``).
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from floatwind.errors import CaseError

__all__ = [
    "DEFAULT",
    "deck_summary",
    "elastodyn_mass_properties",
    "enabled_dofs",
    "environment",
    "hydrodyn_model",
    "initial_conditions",
    "read_fst",
    "read_openfast_input",
    "sea_state",
    "servodyn_maneuvers",
    "unsupported_settings",
]

logger = logging.getLogger(__name__)

DEFAULT = "DEFAULT"
"""Value stored for an OpenFAST ``DEFAULT`` / ``"default"`` entry."""

_DEG = math.pi / 180.0
_RPM = 2.0 * math.pi / 60.0

# --------------------------------------------------------------------------------------------------
# generic input-file reader
# --------------------------------------------------------------------------------------------------

_TOKEN_RE = re.compile(r'"[^"]*"|\'[^\']*\'|[^\s,]+')
_INT_RE = re.compile(r"^[+-]?\d+$")
_FLOAT_RE = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eEdD][+-]?\d+)?$")
_KEY_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\(\d+\))*$")
_SECTION_RE = re.compile(r"^\s*(-{3,}|={3,})")


class _Token:
    """One token of an input line: its converted value and what kind of token it is."""

    __slots__ = ("text", "kind", "value")

    def __init__(self, text: str):
        self.text = text
        if text[:1] in "\"'" and len(text) >= 2 and text[-1] == text[0]:
            inner = text[1:-1]
            self.kind = "quoted"
            self.value = DEFAULT if inner.strip().lower() == "default" else inner
            return
        low = text.lower()
        if _INT_RE.match(text):
            self.kind, self.value = "number", int(text)
        elif _FLOAT_RE.match(text) or low in ("nan", "inf", "-inf", "+inf"):
            self.kind, self.value = "number", float(low.replace("d", "e"))
        elif low in ("true", "t", ".true."):
            self.kind, self.value = "bool", True
        elif low in ("false", "f", ".false."):
            self.kind, self.value = "bool", False
        elif low == "default":
            self.kind, self.value = "default", DEFAULT
        elif re.fullmatch(r"1p[-+]?\d+(\.\d*)?", low):  # SeaState WaveMod = 1P# (phase, deg)
            self.kind, self.value = "quoted", text.upper()
        elif _KEY_RE.match(text):
            self.kind, self.value = "word", text
        else:
            self.kind, self.value = "other", text

    @property
    def is_value(self) -> bool:
        return self.kind in ("quoted", "number", "bool", "default")


def _tokens(line: str) -> list[_Token]:
    return [_Token(m.group(0)) for m in _TOKEN_RE.finditer(line)]


def _section_title(line: str) -> str:
    text = line.strip().strip("-=").strip()
    text = re.split(r"-{3,}|={3,}", text)[0].strip()
    return text


def _is_units_line(line: str) -> bool:
    toks = line.split()
    return bool(toks) and all(
        (t.startswith("(") and t.endswith(")")) or (t.startswith("[") and t.endswith("]"))
        for t in toks
    )


def _is_row(toks: list[_Token]) -> bool:
    return bool(toks) and all(t.kind in ("number", "bool", "default") for t in toks)


def _outlist_entries(line: str) -> list[str]:
    """Channel names on one OutList line: quoted lists, or bare names before a comment."""
    names: list[str] = []
    for m in _TOKEN_RE.finditer(line):
        tok = m.group(0)
        if tok[:1] in "\"'":
            names.extend(n for n in re.split(r"[\s,]+", tok[1:-1]) if n)
        elif tok in ("-", "--") or tok[:1] in "!#-":
            break
        else:
            names.append(tok)
    return names


def read_openfast_input(path: str | Path) -> dict[str, Any]:
    """Parse one OpenFAST input file (any module, v3-v5 text format).

    Recognised lines: section lines (``---- TITLE ----`` / ``==== TITLE ====``), the free title on
    line 2, ``value(s)  KEY  - comment`` lines (numbers with Fortran ``D`` exponents, ``TRUE``/
    ``FALSE``/``T``/``F``, quoted strings, ``DEFAULT``; comma or blank separated lists), numeric
    continuation lines of a keyed matrix, tables (a line of column names followed by a line of
    units in parentheses, then the numeric rows) and output lists (quoted channel names after an
    ``OutList`` key or in an output-channel section, up to the line starting with ``END``).

    Parameters
    ----------
    path : str or pathlib.Path
        The input file.

    Returns
    -------
    dict
        See the module docstring for the layout.

    Raises
    ------
    CaseError
        The file cannot be read.
    """
    path = Path(path)
    try:
        lines = path.read_text(encoding="latin-1").splitlines()
    except OSError as exc:
        raise CaseError(f"cannot read the file ({exc})", file=str(path)) from exc

    values: dict[str, Any] = {}
    matrices: dict[str, list[list[Any]]] = {}
    tables: dict[str, dict[str, Any]] = {}
    outlists: dict[str, list[str]] = {}
    sections: list[str] = []
    title = ""
    section = ""
    table: dict[str, Any] | None = None
    outlist: list[str] | None = None
    last_key: str | None = None  # keyed line that numeric continuation lines may extend

    def new_outlist() -> list[str]:
        name = "OutList"
        k = 1
        while name in outlists:
            k += 1
            name = f"OutList_{k}"
        outlists[name] = []
        return outlists[name]

    i = 0
    n = len(lines)
    while i < n:
        raw = lines[i]
        line = raw.strip()
        i += 1
        if not line:
            continue
        if outlist is not None:
            if line[:3].upper() == "END" or _SECTION_RE.match(line):
                outlist = None
                if line[:3].upper() == "END":
                    continue
            else:
                outlist.extend(_outlist_entries(line))
                continue
        if _SECTION_RE.match(line):
            section = _section_title(line)
            sections.append(section)
            table = None
            last_key = None
            continue
        if i == 2:
            title = line
            continue
        if line[:3].upper() == "END" and not line[3:4].isalnum():
            continue  # an end-of-list marker (e.g. after an empty output list), not a setting
        toks = _tokens(re.split(r"\s!", line)[0])
        if not toks:
            continue
        if table is not None:
            if _is_row(toks):
                table["rows"].append([t.value for t in toks])
                continue
            table = None
        # numeric continuation of a keyed matrix (AddF0, AddCLin, ...)
        if _is_row(toks) and last_key is not None:
            matrices.setdefault(last_key, [])
            matrices[last_key].append([t.value for t in toks])
            continue
        # table header: names only, followed by a units line
        head = line.split("[")[0]
        head_toks = _tokens(head)
        nxt = next((lines[j] for j in range(i, n) if lines[j].strip()), "")
        if (
            len(head_toks) >= 2
            and all(t.kind == "word" for t in head_toks)
            and _is_units_line(nxt.split("[")[0])
        ):
            name = section or f"table_{len(tables) + 1}"
            base, k = name, 1
            while name in tables:
                k += 1
                name = f"{base} ({k})"
            table = {
                "columns": [t.text for t in head_toks],
                "units": [],
                "rows": [],
            }
            # the units line
            while i < n and not lines[i].strip():
                i += 1
            table["units"] = [u.strip("()[]") for u in lines[i].split("[")[0].split()]
            i += 1
            tables[name] = table
            last_key = None
            continue
        # value(s) KEY - comment
        vals: list[Any] = []
        j = 0
        while j < len(toks) and toks[j].is_value:
            vals.append(toks[j].value)
            j += 1
        key: str | None = None
        if j < len(toks) and toks[j].kind == "word":
            key = toks[j].text
            if not vals and j + 1 < len(toks) and toks[j + 1].kind == "word":
                # unquoted string value followed by its key (e.g. "RanLux  WaveSeed(2)")
                vals = [toks[j].text]
                key = toks[j + 1].text
        if key is None:
            if vals and all(t.kind == "quoted" for t in toks[:j]):
                # an output-channel line without an OutList key (HydroDyn, SeaState)
                outlist = new_outlist()
                outlist.extend(_outlist_entries(line))
                last_key = None
                continue
            logger.debug("%s:%d: line not understood, ignored: %s", path, i, line)
            continue
        if key.lower() == "outlist" or key.lower().endswith("outlist"):
            if not vals:
                outlist = new_outlist()
                last_key = None
                continue
        value: Any = None if not vals else (vals[0] if len(vals) == 1 else vals)
        if key in values:
            logger.warning("%s:%d: key %s repeated; the first value is kept", path, i, key)
        else:
            values[key] = value
        last_key = key if vals and all(isinstance(v, int | float) for v in vals) else None

    for key, rows in matrices.items():
        first = values[key]
        values[key] = [first if isinstance(first, list) else [first], *rows]
    return {
        "file": str(path),
        "title": title,
        "values": values,
        "tables": tables,
        "outlists": outlists,
        "sections": sections,
    }


# --------------------------------------------------------------------------------------------------
# typed access with CaseError
# --------------------------------------------------------------------------------------------------


def _raw(f: dict, key: str, default: Any = ...) -> Any:
    if key in f["values"]:
        return f["values"][key]
    if default is not ...:
        return default
    raise CaseError("missing entry", field=key, file=f["file"])


def _float(f: dict, key: str, default: Any = ...) -> float:
    v = _raw(f, key, default)
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise CaseError(f"expected a number, got {v!r}", field=key, file=f["file"])
    return float(v)


def _int(f: dict, key: str, default: Any = ...) -> int:
    v = _raw(f, key, default)
    if isinstance(v, bool) or not isinstance(v, int | float) or float(v) != int(v):
        raise CaseError(f"expected an integer, got {v!r}", field=key, file=f["file"])
    return int(v)


def _bool(f: dict, key: str, default: Any = ...) -> bool:
    v = _raw(f, key, default)
    if isinstance(v, bool):
        return v
    if isinstance(v, int) and v in (0, 1):
        return bool(v)
    raise CaseError(f"expected TRUE or FALSE, got {v!r}", field=key, file=f["file"])


def _str(f: dict, key: str, default: Any = ...) -> str:
    v = _raw(f, key, default)
    if not isinstance(v, str):
        raise CaseError(f"expected a (quoted) string, got {v!r}", field=key, file=f["file"])
    return v


def _matrix(f: dict, key: str, shape: tuple[int, ...]) -> np.ndarray:
    v = _raw(f, key)
    try:
        arr = np.asarray(v, dtype=float).ravel()
    except (TypeError, ValueError) as exc:
        raise CaseError(f"expected {shape} numbers, got {v!r}", field=key, file=f["file"]) from exc
    if arr.size != int(np.prod(shape)):
        raise CaseError(
            f"expected {int(np.prod(shape))} numbers {shape}, found {arr.size}",
            field=key,
            file=f["file"],
        )
    return arr.reshape(shape)


def _find_table(f: dict, required: Iterable[str], what: str) -> dict:
    req = list(required)
    for tab in f["tables"].values():
        if all(c in tab["columns"] for c in req):
            return tab
    raise CaseError(f"no {what} table with columns {req}", field=what, file=f["file"])


def _table_columns(f: dict, tab: dict, count_key: str | None, what: str) -> dict[str, list[Any]]:
    """Table as column lists; checks the row count against ``count_key`` and the row widths."""
    rows = tab["rows"]
    if count_key is not None:
        count = _int(f, count_key)
        if len(rows) != count:
            raise CaseError(
                f"{count_key} = {count} but the {what} table has {len(rows)} rows",
                field=count_key,
                file=f["file"],
            )
    ncol = len(tab["columns"])
    for k, row in enumerate(rows):
        if len(row) < ncol:
            raise CaseError(
                f"row {k + 1} has {len(row)} values for {ncol} columns {tab['columns']}",
                field=what,
                file=f["file"],
            )
    return {c: [row[j] for row in rows] for j, c in enumerate(tab["columns"])}


# --------------------------------------------------------------------------------------------------
# the deck
# --------------------------------------------------------------------------------------------------


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
    ``CompHydro = 1``; the mooring file (``MooringFile``) of MAP++ (``CompMooring = 1``) or MoorDyn
    (3) is located (``deck["Mooring"] = {"kind", "file"}``) and read by
    :mod:`floatwind.case.mooring_files`. Other modules (AeroDyn, InflowWind, SubDyn, ...) are not read;
    :func:`unsupported_settings` lists them when they are on.

    Parameters
    ----------
    path : str or pathlib.Path
        The main input file (``.fst``).

    Returns
    -------
    dict
        ``{"file", "fst", "ElastoDyn", "ElastoDyn_blades" (list, one per blade), "ElastoDyn_tower",
        "ServoDyn", "SeaState", "HydroDyn"}``; each file entry is a :func:`read_openfast_input`
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
    deck["Mooring"] = None
    comp_moor = _int(fst, "CompMooring", 0)
    if comp_moor in (1, 3):  # MAP++ / MoorDyn: their own formats, read by floatwind.case.mooring_files
        key = "MooringFile"
        name = _str(fst, key)
        target = (Path(fst["file"]).parent / name).resolve()
        if _is_unused(name) or not target.is_file():
            raise CaseError(
                f"referenced mooring file not found: {target}", field=key, file=fst["file"]
            )
        deck["Mooring"] = {"kind": "map" if comp_moor == 1 else "moordyn", "file": str(target)}
    logger.info("read OpenFAST deck %s (%d files)", path, 1 + len(cache))
    return deck


def _ed(deck: dict) -> dict:
    ed = deck.get("ElastoDyn")
    if ed is None:
        raise CaseError("the deck has no ElastoDyn file", field="EDFile", file=deck.get("file"))
    return ed


# --------------------------------------------------------------------------------------------------
# environment, DOFs, initial conditions, ServoDyn, HydroDyn, SeaState
# --------------------------------------------------------------------------------------------------


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
        for f in (fst, *others):
            v = f["values"].get(key)
            if isinstance(v, int | float) and not isinstance(v, bool):
                return float(v)
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


_DOF_KEYS = (
    "FlapDOF1",
    "FlapDOF2",
    "EdgeDOF",
    "PitchDOF",
    "TeetDOF",
    "DrTrDOF",
    "GenDOF",
    "YawDOF",
    "TwFADOF1",
    "TwFADOF2",
    "TwSSDOF1",
    "TwSSDOF2",
    "PtfmSgDOF",
    "PtfmSwDOF",
    "PtfmHvDOF",
    "PtfmRDOF",
    "PtfmPDOF",
    "PtfmYDOF",
)


def enabled_dofs(deck: dict) -> dict[str, bool]:
    """ElastoDyn DOF switches, ``{"FlapDOF1": False, ..., "PtfmYDOF": True}``.

    ``PitchDOF`` (added in OpenFAST 4) is ``False`` when the file has no such entry.
    """
    ed = _ed(deck)
    return {k: _bool(ed, k, False if k == "PitchDOF" else ...) for k in _DOF_KEYS}


def initial_conditions(deck: dict) -> dict[str, Any]:
    """ElastoDyn initial conditions, SI.

    Returns
    -------
    dict
        ``PtfmSurge``, ``PtfmSway``, ``PtfmHeave`` (m); ``PtfmRoll``, ``PtfmPitch``, ``PtfmYaw``
        (rad, ElastoDyn v5 Z-Y'-X'' Tait-Bryan angles); ``NacYaw`` (rad); ``Azimuth`` (rad, blade 1,
        in the ElastoDyn input convention, 0 = blade 1 at ``AzimB1Up``); ``AzimB1Up`` (rad);
        ``RotSpeed`` (rad/s); ``BlPitch`` (list, rad, one per blade); ``TeetDefl`` (rad);
        ``OoPDefl``, ``IPDefl``, ``TTDspFA``, ``TTDspSS`` (m).
    """
    ed = _ed(deck)
    nb = _int(ed, "NumBl")
    return {
        "PtfmSurge": _float(ed, "PtfmSurge"),
        "PtfmSway": _float(ed, "PtfmSway"),
        "PtfmHeave": _float(ed, "PtfmHeave"),
        "PtfmRoll": _float(ed, "PtfmRoll") * _DEG,
        "PtfmPitch": _float(ed, "PtfmPitch") * _DEG,
        "PtfmYaw": _float(ed, "PtfmYaw") * _DEG,
        "NacYaw": _float(ed, "NacYaw") * _DEG,
        "Azimuth": _float(ed, "Azimuth") * _DEG,
        "AzimB1Up": _float(ed, "AzimB1Up", 0.0) * _DEG,
        "RotSpeed": _float(ed, "RotSpeed") * _RPM,
        "BlPitch": [_float(ed, f"BlPitch({k})") * _DEG for k in range(1, nb + 1)],
        "TeetDefl": _float(ed, "TeetDefl", 0.0) * _DEG,
        "OoPDefl": _float(ed, "OoPDefl", 0.0),
        "IPDefl": _float(ed, "IPDefl", 0.0),
        "TTDspFA": _float(ed, "TTDspFA", 0.0),
        "TTDspSS": _float(ed, "TTDspSS", 0.0),
    }


def generator_off(deck: dict) -> bool:
    """The generator applies no torque during the run: no ServoDyn (CompServo = 0), or a timed
    start (``GenTiStr = True``) at ``TimGenOn`` >= ``TMax``."""
    srv = deck.get("ServoDyn")
    if srv is None:
        return True
    tmax = _float(deck["fst"], "TMax")
    return bool(_bool(srv, "GenTiStr", False)) and _float(srv, "TimGenOn", 0.0) >= tmax


def servodyn_maneuvers(deck: dict) -> dict[str, Any] | None:
    """ServoDyn override maneuvers and the yaw spring/damper, SI; ``None`` when ServoDyn is off.

    Returns
    -------
    dict or None
        ``yaw``: ``{"start_time" (s, TYawManS), "rate" (rad/s, YawManRat, magnitude),
        "final_angle" (rad, NacYawF), "spring" (N m/rad, YawSpr), "damping" (N m s/rad, YawDamp),
        "neutral" (rad, YawNeut), "control_mode" (YCMode)}``;
        ``pitch``: list per blade of ``{"start_time" (s, TPitManS(k)), "rate" (rad/s, PitManRat(k)),
        "final_angle" (rad, BlPitchF(k))}`` and ``pitch_control_mode`` (PCMode);
        ``torque_control_mode`` (VSContrl); ``generator_on_time`` (s, TimGenOn, or ``None``).
    """
    srv = deck.get("ServoDyn")
    if srv is None:
        return None
    nb = _int(_ed(deck), "NumBl")
    return {
        "yaw": {
            "start_time": _float(srv, "TYawManS"),
            "rate": abs(_float(srv, "YawManRat")) * _DEG,
            "final_angle": _float(srv, "NacYawF") * _DEG,
            "spring": _float(srv, "YawSpr"),
            "damping": _float(srv, "YawDamp"),
            "neutral": _float(srv, "YawNeut", 0.0) * _DEG,
            "control_mode": _int(srv, "YCMode", 0),
        },
        "pitch": [
            {
                "start_time": _float(srv, f"TPitManS({k})"),
                "rate": abs(_float(srv, f"PitManRat({k})")) * _DEG,
                "final_angle": _float(srv, f"BlPitchF({k})") * _DEG,
            }
            for k in range(1, nb + 1)
        ],
        "pitch_control_mode": _int(srv, "PCMode", 0),
        "torque_control_mode": _int(srv, "VSContrl", 0),
        "generator_on_time": _float(srv, "TimGenOn") if "TimGenOn" in srv["values"] else None,
    }


def _per_body(f: dict, key: str, nbody: int, default: float = 0.0) -> list[float]:
    v = _raw(f, key, default)
    vals = v if isinstance(v, list) else [v]
    out = []
    for x in vals[:nbody]:
        if isinstance(x, bool) or not isinstance(x, int | float):
            raise CaseError(f"expected numbers, got {v!r}", field=key, file=f["file"])
        out.append(float(x))
    if len(out) < nbody:
        raise CaseError(f"expected {nbody} values (NBody), got {v!r}", field=key, file=f["file"])
    return out


def regular_phase(wave_mod) -> float | None:
    """The phase (deg) of SeaState's ``WaveMod = 1P#`` (regular wave with a given phase), else
    None."""
    if isinstance(wave_mod, str) and wave_mod.upper().startswith("1P"):
        try:
            return float(wave_mod[2:])
        except ValueError:
            return None
    return None


def hydrodyn_model(deck: dict) -> dict[str, Any] | None:
    """HydroDyn settings, SI; ``None`` when HydroDyn is off.

    Returns
    -------
    dict or None
        ``PotMod``, ``ExctnMod``, ``RdtnMod``, ``NBody``, ``PotFile`` (list of str),
        ``PtfmRefxt``/``yt``/``zt`` (m, lists, WAMIT reference point of each body),
        ``PtfmRefztRot`` (rad, list), ``PtfmVol0`` (m^3, list), ``AddF0`` (6,) (N, N m),
        ``AddCLin`` (6, 6), ``AddBLin`` (6, 6), ``AddBQuad`` (6, 6) as numpy arrays,
        ``WaveDisp``, ``AMMod``, ``HstMod``, ``axial_coefficients``, ``joints``,
        ``properties_cyl``, ``properties_rec``, ``simple_coefficients_cyl``,
        ``simple_coefficients_rec``, ``depth_coefficients_cyl``, ``member_coefficients_cyl``,
        ``members``, ``n_fill_groups``, ``n_marine_growth_depths``, ``outlist``.
        Tables are lists of dicts keyed by the OpenFAST column names (see docs).
    """
    hd = deck.get("HydroDyn")
    if hd is None:
        return None
    nbody = _int(hd, "NBody", 1)
    pot = _raw(hd, "PotFile", "unused")
    pot_files = pot if isinstance(pot, list) else [pot]
    n_add = 6 * nbody

    def rows(count_key: str | None, required: list[str], what: str) -> list[dict[str, Any]]:
        if count_key is not None and count_key in hd["values"] and _int(hd, count_key) == 0:
            return []
        try:
            tab = _find_table(hd, required, what)
        except CaseError:
            if count_key is None:
                return []
            raise
        cols = _table_columns(hd, tab, count_key, what)
        names = list(cols)
        return [{c: cols[c][k] for c in names} for k in range(len(tab["rows"]))]

    def matrix_or_zero(key: str, shape: tuple[int, ...]) -> np.ndarray:
        if key not in hd["values"]:
            return np.zeros(shape)
        return _matrix(hd, key, shape)

    return {
        "PotMod": _int(hd, "PotMod"),
        "ExctnMod": _int(hd, "ExctnMod", 0),
        "RdtnMod": _int(hd, "RdtnMod", 0),
        "NBody": nbody,
        "PotFile": [str(p) for p in pot_files],
        "PtfmRefxt": _per_body(hd, "PtfmRefxt", nbody),
        "PtfmRefyt": _per_body(hd, "PtfmRefyt", nbody),
        "PtfmRefzt": _per_body(hd, "PtfmRefzt", nbody),
        "PtfmRefztRot": [a * _DEG for a in _per_body(hd, "PtfmRefztRot", nbody)],
        "PtfmVol0": _per_body(hd, "PtfmVol0", nbody),
        "PtfmCOBxt": _per_body(hd, "PtfmCOBxt", nbody) if "PtfmCOBxt" in hd["values"] else [0.0],
        "PtfmCOByt": _per_body(hd, "PtfmCOByt", nbody) if "PtfmCOByt" in hd["values"] else [0.0],
        "WAMITULEN": _per_body(hd, "WAMITULEN", nbody) if "WAMITULEN" in hd["values"] else [1.0],
        "NAddDOF": _int(hd, "NAddDOF", 0),
        "NBodyMod": _int(hd, "NBodyMod", 1),
        "ExctnDisp": _int(hd, "ExctnDisp", 0),
        "PtfmYMod": _int(hd, "PtfmYMod", 0),
        "RdtnTMax": _float(hd, "RdtnTMax", 60.0),
        "RdtnDT": _raw(hd, "RdtnDT", DEFAULT),
        "AddF0": matrix_or_zero("AddF0", (n_add,)),
        "AddCLin": matrix_or_zero("AddCLin", (n_add, n_add)),
        "AddBLin": matrix_or_zero("AddBLin", (n_add, n_add)),
        "AddBQuad": matrix_or_zero("AddBQuad", (n_add, n_add)),
        "WaveDisp": _int(hd, "WaveDisp", 0),
        "AMMod": _int(hd, "AMMod", 0),
        "HstMod": _int(hd, "HstMod", 0),
        "axial_coefficients": rows("NAxCoef", ["AxCoefID", "AxCd"], "axial coefficient"),
        "joints": rows("NJoints", ["JointID", "Jointxi", "Jointyi", "Jointzi"], "joint"),
        "properties_cyl": rows(
            "NPropSetsCyl" if "NPropSetsCyl" in hd["values"] else "NPropSets",
            ["PropSetID", "PropD", "PropThck"],
            "cylindrical property set",
        ),
        "properties_rec": rows(
            "NPropSetsRec", ["PropSetID", "PropA", "PropB"], "rectangular property set"
        ),
        "simple_coefficients_cyl": rows(None, ["SimplCd", "SimplCa"], "simple coefficients"),
        "simple_coefficients_rec": rows(
            None, ["SimplCdA", "SimplCaA"], "simple rectangular coefficients"
        ),
        "depth_coefficients_cyl": rows(
            "NCoefDpthCyl" if "NCoefDpthCyl" in hd["values"] else "NCoefDpth",
            ["Dpth", "DpthCd"],
            "depth-based coefficients",
        ),
        "member_coefficients_cyl": rows(
            "NCoefMembersCyl" if "NCoefMembersCyl" in hd["values"] else "NCoefMembers",
            ["MemberID", "MemberCd1"],
            "member-based coefficients",
        ),
        "members": rows("NMembers", ["MemberID", "MJointID1", "MJointID2"], "member"),
        "n_fill_groups": _int(hd, "NFillGroups", 0),
        "n_marine_growth_depths": _int(hd, "NMGDepths", 0),
        "outlist": list(hd["outlists"].get("OutList", [])),
    }


def _jonswap_default_gamma(hs: float, tp: float) -> float:
    """IEC 61400-3 peak-shape parameter used by SeaState for ``WavePkShp = DEFAULT``."""
    if hs <= 0.0:
        return 1.0
    r = tp / math.sqrt(hs)
    if r <= 3.6:
        return 5.0
    if r >= 5.0:
        return 1.0
    return math.exp(5.75 - 1.15 * r)


def sea_state(deck: dict) -> dict[str, Any] | None:
    """SeaState settings, SI; ``None`` when SeaState is off.

    ``DEFAULT`` water density, depth and MSL2SWL are taken from the ``.fst``; ``WavePkShp =
    DEFAULT`` becomes the IEC value (5 for Tp/sqrt(Hs) <= 3.6, 1 for >= 5, exp(5.75 - 1.15
    Tp/sqrt(Hs)) between).

    Returns
    -------
    dict or None
        ``WaveMod`` (int, or the string of ``1P#`` forms), ``WaveStMod``, ``WaveTMax`` (s),
        ``WaveDT`` (s), ``WaveHs`` (m), ``WaveTp`` (s), ``WavePkShp`` (-), ``WavePkShp_default``
        (bool), ``WvLowCOff``, ``WvHiCOff`` (rad/s), ``WaveDir`` (rad, propagation heading),
        ``WaveDirMod``, ``WaveSeed`` (list of two; the second may be the string ``"RanLux"``),
        ``WaveNDAmp`` (bool), ``WtrDens`` (kg/m^3), ``WtrDpth`` (m), ``MSL2SWL`` (m), ``CurrMod``,
        ``WvDiffQTF``, ``WvSumQTF`` (bool), ``WaveElev_points`` (list of (x, y), m),
        ``WaveKin_points`` (list of (x, y, z), m), ``outlist``.
    """
    ss = deck.get("SeaState")
    if ss is None:
        return None
    env = environment({"fst": deck["fst"]})
    wave_mod = _raw(ss, "WaveMod")
    hs = _float(ss, "WaveHs", 0.0)
    tp = _float(ss, "WaveTp", 0.0)
    pk = _raw(ss, "WavePkShp", DEFAULT)
    pk_default = pk == DEFAULT
    gamma = _jonswap_default_gamma(hs, tp) if pk_default else _float(ss, "WavePkShp")

    def fallback(key: str, env_key: str) -> float | None:
        v = _raw(ss, key, DEFAULT)
        if v == DEFAULT:
            return env[env_key]
        return _float(ss, key)

    def coords(key: str, count: int) -> list[float]:
        if count == 0:
            return []
        v = _raw(ss, key)
        vals = v if isinstance(v, list) else [v]
        if len(vals) < count or not all(isinstance(x, int | float) for x in vals[:count]):
            raise CaseError(f"expected {count} numbers, got {v!r}", field=key, file=ss["file"])
        return [float(x) for x in vals[:count]]

    n_elev = _int(ss, "NWaveElev", 0)
    n_kin = _int(ss, "NWaveKin", 0)
    ex, ey = coords("WaveElevxi", n_elev), coords("WaveElevyi", n_elev)
    kx, ky, kz = coords("WaveKinxi", n_kin), coords("WaveKinyi", n_kin), coords("WaveKinzi", n_kin)
    seeds = [_raw(ss, "WaveSeed(1)", 0), _raw(ss, "WaveSeed(2)", 0)]
    return {
        "WaveMod": wave_mod,
        "WaveStMod": _int(ss, "WaveStMod", 0),
        "WaveTMax": _float(ss, "WaveTMax"),
        "WaveDT": _float(ss, "WaveDT"),
        "WaveHs": hs,
        "WaveTp": tp,
        "WavePkShp": gamma,
        "WavePkShp_default": pk_default,
        "WvLowCOff": _float(ss, "WvLowCOff", 0.0),
        "WvHiCOff": _float(ss, "WvHiCOff", 500.0),
        "WaveDir": _float(ss, "WaveDir", 0.0) * _DEG,
        "WaveDirMod": _int(ss, "WaveDirMod", 0),
        "WaveSeed": seeds,
        "WaveNDAmp": _bool(ss, "WaveNDAmp", False),
        "WtrDens": fallback("WtrDens", "water_density"),
        "WtrDpth": fallback("WtrDpth", "water_depth"),
        "MSL2SWL": fallback("MSL2SWL", "msl2swl"),
        "CurrMod": _int(ss, "CurrMod", 0),
        "WvDiffQTF": _bool(ss, "WvDiffQTF", False),
        "WvSumQTF": _bool(ss, "WvSumQTF", False),
        "WaveElev_points": list(zip(ex, ey)),
        "WaveKin_points": list(zip(kx, ky, kz)),
        "outlist": list(ss["outlists"].get("OutList", [])),
    }


# --------------------------------------------------------------------------------------------------
# unsupported settings
# --------------------------------------------------------------------------------------------------

_FLEX_DOFS = {
    "FlapDOF1": "first flapwise blade mode",
    "FlapDOF2": "second flapwise blade mode",
    "EdgeDOF": "first edgewise blade mode",
    "PitchDOF": "blade-pitch actuator DOF",
    "DrTrDOF": "drivetrain torsional flexibility",
    "TwFADOF1": "first tower fore-aft mode",
    "TwFADOF2": "second tower fore-aft mode",
    "TwSSDOF1": "first tower side-to-side mode",
    "TwSSDOF2": "second tower side-to-side mode",
}


def _wamit_nonzero(path: Path, first_value_col: int) -> bool | None:
    """True if any coefficient in a WAMIT file is non-zero; None if the file does not exist."""
    if not path.is_file():
        return None
    for line in path.read_text(encoding="latin-1").splitlines():
        toks = line.split()
        for tok in toks[first_value_col:]:
            try:
                if float(tok.replace("D", "E").replace("d", "e")) != 0.0:
                    return True
            except ValueError:
                continue
    return False


def unsupported_settings(deck: dict) -> list[str]:
    """One line per deck setting that floatwind cannot represent; empty when it can import it.

    Checked: flexible ElastoDyn DOFs (FlapDOF1/2, EdgeDOF, PitchDOF, DrTrDOF, TwFADOF1/2,
    TwSSDOF1/2; TeetDOF for a 2-bladed rotor); GenDOF (it makes the rotor speed a free DOF, floatwind
    spins the rotor at the constant RotSpeed); a 2-bladed rotor; Furling; yaw friction with YawDOF
    on; ServoDyn active controllers (PCMode, VSContrl, YCMode, HSSBrMode, AfCmode, CCmode) and
    structural controllers (only override maneuvers are imported); module switches
    (CompElast = 2 BeamDyn, CompAero, CompSub, CompMooring, CompIce, CompSoil, MHK, NRotors > 1);
    HydroDyn potential flow that is not null (PotMod = 2; PotMod = 1 with PtfmVol0 != 0 or non-zero
    WAMIT .hst, .1 or .3 data; second-order potential-flow forces); SeaState options other than
    still water and JONSWAP/Pierson-Moskowitz (WaveMod not 0 or 2, directional spreading, currents,
    second-order waves). Then every other present setting through the table of
    :mod:`floatwind.case.openfast_settings` (``refused_unless`` values, conditions of mapped
    settings, keys the table does not know); a setting refused above is not reported twice.

    Parameters
    ----------
    deck : dict
        From :func:`read_fst`.

    Returns
    -------
    list of str
        Each line names the file, the setting and its value, and why it is refused.

    Raises
    ------
    CaseError
        HydroDyn PotMod = 1 whose WAMIT files (``PotFile`` + ``.hst``) do not exist.
    """
    out: list[str] = []
    fst = deck["fst"]
    fst_name = Path(fst["file"]).name

    def switch(key: str, what: str, allowed: tuple[int, ...] = (0,)) -> None:
        if key in fst["values"]:
            v = _int(fst, key)
            if v not in allowed:
                out.append(f"{fst_name}: {key} = {v} ({what}) is not supported")

    switch("CompElast", "BeamDyn blades", allowed=(1,))
    switch("CompAero", "aerodynamic loads, AeroDyn")
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

    ed = _ed(deck)
    ed_name = Path(ed["file"]).name
    dofs = enabled_dofs(deck)
    for key, what in _FLEX_DOFS.items():
        if dofs[key]:
            out.append(f"{ed_name}: {key} = True ({what}): flexible DOFs are not supported")
    num_bl = _int(ed, "NumBl")
    if num_bl == 2:
        out.append(f"{ed_name}: NumBl = 2 (teetering two-bladed rotor geometry) is not supported")
        if dofs["TeetDOF"]:
            out.append(f"{ed_name}: TeetDOF = True (rotor teeter) is not supported")
    if dofs["GenDOF"] and not generator_off(deck):
        out.append(
            f"{ed_name}: GenDOF = True with the generator connected during the run: the "
            "generator torque law (ServoDyn VSContrl/GenModel) is not imported; floatwind runs "
            "GenDOF as a free rotor only when the generator stays off (GenTiStr = True and "
            "TimGenOn >= TMax, or no ServoDyn)"
        )
    if _bool(ed, "Furling", False):
        out.append(f"{ed_name}: Furling = True (rotor/tail furl) is not supported")
    if dofs["YawDOF"] and _int(ed, "YawFrctMod", 0) != 0:
        out.append(
            f"{ed_name}: YawFrctMod = {_int(ed, 'YawFrctMod')} (yaw-bearing friction) is not "
            "supported"
        )

    srv = deck.get("ServoDyn")
    if srv is not None:
        srv_name = Path(srv["file"]).name
        for key, what in (
            ("PCMode", "active pitch control"),
            ("VSContrl", "generator torque control"),
            ("YCMode", "active yaw control"),
            ("HSSBrMode", "high-speed shaft brake"),
            ("AfCmode", "airfoil flow control"),
            ("CCmode", "cable control"),
        ):
            if _int(srv, key, 0) != 0:
                out.append(
                    f"{srv_name}: {key} = {_int(srv, key)} ({what}) is not supported; only "
                    "override yaw and pitch maneuvers are imported"
                )
        for key in ("NumBStC", "NumNStC", "NumTStC", "NumSStC"):
            if _int(srv, key, 0) != 0:
                out.append(
                    f"{srv_name}: {key} = {_int(srv, key)} (structural controllers) is not supported"
                )

    hd = deck.get("HydroDyn")
    if hd is not None:
        hd_name = Path(hd["file"]).name
        pot_mod = _int(hd, "PotMod")
        if pot_mod == 2:
            out.append(f"{hd_name}: PotMod = 2 (fluid-impulse theory) is not supported")
        if pot_mod == 1:
            model = hydrodyn_model(deck)
            for root in model["PotFile"]:
                base = Path(hd["file"]).parent / root
                if _wamit_nonzero(base.with_name(base.name + ".hst"), 2) is None:
                    raise CaseError(
                        f"PotMod = 1 but the WAMIT file {base}.hst does not exist",
                        field="PotFile",
                        file=hd["file"],
                    )
            if model["NBody"] != 1:
                out.append(f"{hd_name}: NBody = {model['NBody']} (several WAMIT bodies) is not "
                           "supported")  # fmt: skip
            if model["NAddDOF"] != 0:
                out.append(f"{hd_name}: NAddDOF = {model['NAddDOF']} (generalised WAMIT modes) "
                           "is not supported")  # fmt: skip
            if model["ExctnMod"] not in (0, 1, 2):
                out.append(f"{hd_name}: ExctnMod = {model['ExctnMod']} is not supported; use 0 "
                           "(no excitation), 1 (DFT) or 2 (state-space, <PotFile>.ssexctn)")  # fmt: skip
            if model["RdtnMod"] not in (0, 1, 2):
                out.append(f"{hd_name}: RdtnMod = {model['RdtnMod']} is not supported; use 0 "
                           "(no memory), 1 (convolution) or 2 (state-space, <PotFile>.ss)")  # fmt: skip
            if model["ExctnMod"] in (1, 2) and model["ExctnDisp"] != 0:
                out.append(f"{hd_name}: ExctnDisp = {model['ExctnDisp']} (excitation at the "
                           "displaced position) is not supported; use 0")  # fmt: skip
            if model["PtfmYMod"] != 0:
                out.append(f"{hd_name}: PtfmYMod = {model['PtfmYMod']} (large yaw offset) is not "
                           "supported")  # fmt: skip
            if any(a != 0.0 for a in model["PtfmRefztRot"]):
                rot = ", ".join(f"{math.degrees(a):g}" for a in model["PtfmRefztRot"])
                out.append(f"{hd_name}: PtfmRefztRot = {rot} deg (rotated WAMIT body) is not "
                           "supported; use 0")  # fmt: skip
            dt_r = model["RdtnDT"]
            dt = _float(deck["fst"], "DT")
            if model["RdtnMod"] == 1 and dt_r != DEFAULT and abs(float(dt_r) - dt) > 1e-9 * dt:
                out.append(f"{hd_name}: RdtnDT = {float(dt_r):g} s differs from DT = {dt:g} s: "
                           "floatwind samples the radiation memory at every step")  # fmt: skip
            for key in ("MnDrift", "NewmanApp", "DiffQTF", "SumQTF"):
                if _int(hd, key, 0) != 0:
                    out.append(
                        f"{hd_name}: {key} = {_int(hd, key)} (second-order potential-flow forces) "
                        "is not supported"
                    )

    ss = deck.get("SeaState")
    if ss is not None:
        ss_name = Path(ss["file"]).name
        wave_mod = _raw(ss, "WaveMod")
        if wave_mod == 1:
            out.append(
                f"{ss_name}: WaveMod = 1 (regular wave, phase from SeaState's seeds) is not "
                "supported; give the phase as 1P# (e.g. 1P0)"
            )
        elif wave_mod not in (0, 2) and regular_phase(wave_mod) is None:
            out.append(
                f"{ss_name}: WaveMod = {wave_mod}: only still water (0), regular waves with a "
                "phase (1P#) and JONSWAP/Pierson-Moskowitz spectra (2) are imported"
            )
        if wave_mod not in (0, "0") and _int(ss, "WaveStMod", 0) not in (0, 1, 3):
            out.append(
                f"{ss_name}: WaveStMod = {_int(ss, 'WaveStMod')} (extrapolation stretching) is "
                "not supported; floatwind has none (0), vertical (1) and Wheeler (3)"
            )
        if wave_mod == 2 and _int(ss, "WaveDirMod", 0) != 0:
            out.append(
                f"{ss_name}: WaveDirMod = {_int(ss, 'WaveDirMod')} (directional spreading) is not supported"
            )
        if _int(ss, "CurrMod", 0) != 0:
            out.append(f"{ss_name}: CurrMod = {_int(ss, 'CurrMod')} (currents) is not supported")
        for key in ("WvDiffQTF", "WvSumQTF"):
            if _bool(ss, key, False):
                out.append(f"{ss_name}: {key} = True (second-order waves) is not supported")
    # every other setting: the table of floatwind.case.openfast_settings (mapped, refused_unless,
    # no_physics, ignored_because); a key refused above is not reported twice
    from floatwind.case.openfast_settings import refused_items

    for name, key, line in refused_items(deck):
        if not any(o.startswith((f"{name}: {key} ", f"{name}: {key}=")) for o in out):
            out.append(line)
    return out


# --------------------------------------------------------------------------------------------------
# ElastoDyn mass properties
# --------------------------------------------------------------------------------------------------


def _point_inertia(m: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Inertia (3, 3) of point masses m (n,) at r (n, 3) about the origin: sum m (|r|^2 1 - r r^T)."""
    r2 = np.einsum("ni,ni->n", r, r)
    return np.einsum("n,ij->ij", m * r2, np.eye(3)) - np.einsum("n,ni,nj->ij", m, r, r)


def _shift_to_cm(inertia_o: np.ndarray, mass: float, cm: np.ndarray) -> np.ndarray:
    """Parallel-axis theorem: inertia about the CM from the inertia about the origin."""
    return inertia_o - mass * (cm @ cm * np.eye(3) - np.outer(cm, cm))


def _distributed(
    f: dict, frac_col: str, dens_col: str, count_key: str, what: str
) -> tuple[np.ndarray, np.ndarray]:
    tab = _find_table(f, [frac_col, dens_col], what)
    cols = _table_columns(f, tab, count_key, what)
    frac = np.asarray(cols[frac_col], dtype=float)
    dens = np.asarray(cols[dens_col], dtype=float)
    if frac.size < 1:
        raise CaseError(f"the {what} table is empty", field=count_key, file=f["file"])
    if np.any(np.diff(frac) <= 0.0) or abs(frac[0]) > 1e-9 or abs(frac[-1] - 1.0) > 1e-9:
        raise CaseError(
            f"{frac_col} must increase from 0 to 1, got {frac.tolist()}",
            field=frac_col,
            file=f["file"],
        )
    if np.any(dens < 0.0):
        raise CaseError(f"negative {dens_col} in the {what} table", field=dens_col, file=f["file"])
    return frac, dens


def elastodyn_mass_properties(
    deck: dict, *, nac_yaw: float | None = None, azimuth: float | None = None
) -> dict[str, Any]:
    """Rigid-body mass properties of the turbine, discretised as ElastoDyn does.

    ElastoDyn lumps the tower and each blade into point masses at equally spaced analysis nodes:
    tower node J at height ``TowerBsHt + (J - 1/2) DHNodes`` (``DHNodes = (TowerHt - TowerBsHt) /
    TwrNodes``) with mass ``AdjTwMa TMassDen(HNodesNorm) DHNodes``; blade node J at ``(J - 1/2)
    DRNodes`` from the root (``DRNodes = (TipRad - HubRad) / BldNodes``) along the coned pitch axis
    with mass ``AdjBlMs BMassDen(RNodesNorm) DRNodes`` (linear interpolation of the input stations,
    held constant outside them) plus ``TipMass`` at the tip. The nacelle is a point mass at
    (NacCMxn, NacCMyn, NacCMzn) from the tower top with only a yaw inertia ``NacYIner - NacMass
    (NacCMxn^2 + NacCMyn^2)`` about the vertical through its CM; the hub a point mass at ``HubCM``
    along the shaft from the rotor apex with only ``HubIner`` about the shaft; the generator is
    massless with ``GenIner`` about the shaft; the yaw bearing a point mass at the tower top; the
    platform a rigid body (PtfmMass, PtfmCM*, PtfmRIner/PIner/YIner, PtfmXYIner/YZIner/XZIner =
    -int(x y dm) ...). Rotor apex = tower top + Twr2Shft z_n + OverHang c1; shaft axis
    c1 = cos(ShftTilt) x_n + sin(ShftTilt) z_n; blade k azimuth = Azimuth - AzimB1Up +
    2 pi (k-1)/NumBl from the upward c2 = -sin(ShftTilt) x_n + cos(ShftTilt) z_n towards
    c3 = c1 x c2; coned blade axis i3 = sin(PreCone) c1 + cos(PreCone) (cos a c2 + sin a c3).

    Parameters
    ----------
    deck : dict
        From :func:`read_fst`.
    nac_yaw : float, optional
        Nacelle yaw (rad) of the configuration (default: the ElastoDyn initial NacYaw).
    azimuth : float, optional
        ElastoDyn ``Azimuth`` input value (rad; blade 1 is up when it equals AzimB1Up) of the
        configuration (default: the ElastoDyn initial Azimuth).

    Returns
    -------
    dict
        Platform frame, undisplaced, origin at the platform reference point (PRP); see
        ``docs/openfast_import.md`` for every key. Main entries: ``platform``, ``tower``,
        ``yaw_bearing``, ``nacelle``, ``hub``, ``generator``, ``blades`` (list), ``rotor``, ``rna``,
        ``total`` (``mass``, ``cm``, ``inertia_prp``, ``inertia_cm``), ``geometry``.

    Raises
    ------
    CaseError
        Missing or invalid ElastoDyn entries (negative masses, nacelle yaw inertia smaller than
        NacMass times the squared horizontal CM offset, tables that do not match their counts).
    """
    ed = _ed(deck)
    nb = _int(ed, "NumBl")
    ic = initial_conditions(deck)
    yaw = ic["NacYaw"] if nac_yaw is None else float(nac_yaw)
    az_in = ic["Azimuth"] if azimuth is None else float(azimuth)
    az1 = az_in - ic["AzimB1Up"]

    def nonneg(key: str, default: Any = ...) -> float:
        v = _float(ed, key, default)
        if v < 0.0:
            raise CaseError(f"must not be negative, got {v:g}", field=key, file=ed["file"])
        return v

    tip_rad = _float(ed, "TipRad")
    hub_rad = _float(ed, "HubRad")
    bld_flex = tip_rad - hub_rad
    if bld_flex <= 0.0:
        raise CaseError(
            f"TipRad ({tip_rad:g} m) must exceed HubRad ({hub_rad:g} m)",
            field="TipRad",
            file=ed["file"],
        )
    tower_ht = _float(ed, "TowerHt")
    tower_bs = _float(ed, "TowerBsHt")
    twr_flex = tower_ht - tower_bs
    if twr_flex <= 0.0:
        raise CaseError(
            f"TowerHt ({tower_ht:g} m) must exceed TowerBsHt ({tower_bs:g} m)",
            field="TowerHt",
            file=ed["file"],
        )
    bld_nodes = _int(ed, "BldNodes")
    twr_nodes = _int(ed, "TwrNodes")
    if bld_nodes < 1 or twr_nodes < 1:
        raise CaseError(
            "BldNodes and TwrNodes must be at least 1", field="BldNodes", file=ed["file"]
        )
    tilt = _float(ed, "ShftTilt") * _DEG
    precone = [_float(ed, f"PreCone({k})") * _DEG for k in range(1, nb + 1)]
    overhang = _float(ed, "OverHang")
    twr2shft = _float(ed, "Twr2Shft")
    hub_cm_d = _float(ed, "HubCM")
    nac_cm_n = np.array([_float(ed, "NacCMxn"), _float(ed, "NacCMyn"), _float(ed, "NacCMzn")])
    ref = np.array(
        [_float(ed, "PtfmRefxt", 0.0), _float(ed, "PtfmRefyt", 0.0), _float(ed, "PtfmRefzt")]
    )
    tip_mass = [nonneg(f"TipMass({k})") for k in range(1, nb + 1)]
    hub_mass = nonneg("HubMass")
    hub_iner = nonneg("HubIner")
    gen_iner = nonneg("GenIner")
    nac_mass = nonneg("NacMass")
    nac_yiner = nonneg("NacYIner")
    yaw_br_mass = nonneg("YawBrMass", 0.0)
    ptfm_mass = nonneg("PtfmMass")
    gb_ratio = _float(ed, "GBRatio")
    ptfm_iner = np.array(
        [
            [nonneg("PtfmRIner"), _float(ed, "PtfmXYIner", 0.0), _float(ed, "PtfmXZIner", 0.0)],
            [_float(ed, "PtfmXYIner", 0.0), nonneg("PtfmPIner"), _float(ed, "PtfmYZIner", 0.0)],
            [_float(ed, "PtfmXZIner", 0.0), _float(ed, "PtfmYZIner", 0.0), nonneg("PtfmYIner")],
        ]
    )
    nac_d2_iner = nac_yiner - nac_mass * (nac_cm_n[0] ** 2 + nac_cm_n[1] ** 2)
    if nac_d2_iner < 0.0:
        raise CaseError(
            f"NacYIner ({nac_yiner:g} kg m^2) must be at least NacMass*(NacCMxn^2 + NacCMyn^2) = "
            f"{nac_yiner - nac_d2_iner:g} kg m^2",
            field="NacYIner",
            file=ed["file"],
        )

    # frames (platform axes t; nacelle n = t yawed by NacYaw about z_t)
    cy, sy = math.cos(yaw), math.sin(yaw)
    x_n = np.array([cy, sy, 0.0])
    y_n = np.array([-sy, cy, 0.0])
    z_n = np.array([0.0, 0.0, 1.0])
    c1 = math.cos(tilt) * x_n + math.sin(tilt) * z_n
    c2 = -math.sin(tilt) * x_n + math.cos(tilt) * z_n
    c3 = np.cross(c1, c2)

    # key points, relative to the PRP
    tower_top = np.array([0.0, 0.0, tower_ht]) - ref
    tower_base = np.array([0.0, 0.0, tower_bs]) - ref
    apex = tower_top + twr2shft * z_n + overhang * c1
    nac_cm = tower_top + nac_cm_n[0] * x_n + nac_cm_n[1] * y_n + nac_cm_n[2] * z_n
    hub_cm = apex + hub_cm_d * c1

    # tower
    twr = deck["ElastoDyn_tower"]
    adj_tw = _float(twr, "AdjTwMa", 1.0)
    h_frac, t_dens = _distributed(twr, "HtFract", "TMassDen", "NTwInpSt", "distributed tower")
    dh = twr_flex / twr_nodes
    h_nodes = dh * (np.arange(twr_nodes) + 0.5)
    m_twr = adj_tw * np.interp(h_nodes / twr_flex, h_frac, t_dens) * dh
    r_twr = tower_base + np.outer(h_nodes, z_n)
    twr_mass = float(m_twr.sum())
    twr_cm = (m_twr @ r_twr) / twr_mass if twr_mass > 0.0 else tower_base + 0.5 * twr_flex * z_n
    twr_iner_cm = _point_inertia(m_twr, r_twr - twr_cm)

    # blades
    dr = bld_flex / bld_nodes
    r_nodes = dr * (np.arange(bld_nodes) + 0.5)
    blades = []
    rot_iner = hub_iner  # ElastoDyn Hubg1Iner = HubIner for a 3-bladed rotor
    rot_mass = hub_mass
    for k in range(nb):
        bf = deck["ElastoDyn_blades"][k]
        adj_bl = _float(bf, "AdjBlMs", 1.0)
        b_frac, b_dens = _distributed(bf, "BlFract", "BMassDen", "NBlInpSt", "distributed blade")
        m_nodes = adj_bl * np.interp(r_nodes / bld_flex, b_frac, b_dens) * dr
        s = np.append(r_nodes, bld_flex)  # tip mass at the tip
        m = np.append(m_nodes, tip_mass[k])
        mass = float(m.sum())
        first = float(m @ s)
        second = float(m @ (s * s))
        cg = first / mass if mass > 0.0 else 0.0
        a_k = az1 + 2.0 * math.pi * k / nb
        g3 = math.cos(a_k) * c2 + math.sin(a_k) * c3
        i3 = math.sin(precone[k]) * c1 + math.cos(precone[k]) * g3
        root = apex + hub_rad * i3
        pts = root + np.outer(s, i3)
        i_t = second - mass * cg * cg
        cm = root + cg * i3
        rot_mass += mass
        rot_iner += (second + mass * hub_rad * (2.0 * cg + hub_rad)) * math.cos(precone[k]) ** 2
        blades.append(
            {
                "mass": mass,
                "first_moment": first,
                "second_moment": second,
                "cm_from_root": cg,
                "cm_blade_frame": np.array([0.0, 0.0, cg]),
                "inertia_cm_blade_frame": np.diag([i_t, i_t, 0.0]),
                "precone": precone[k],
                "azimuth": a_k,
                "root": root,
                "axis": i3,
                "cm": cm,
                "inertia_cm": i_t * (np.eye(3) - np.outer(i3, i3)),
                "node_radius": s,
                "node_mass": m,
                "_points": pts,
            }
        )

    rna_mass = rot_mass + nac_mass + yaw_br_mass
    # every lumped mass of the assembly, relative to the PRP
    pts_all = [r_twr, tower_top[None], nac_cm[None], hub_cm[None]]
    m_all = [m_twr, np.array([yaw_br_mass]), np.array([nac_mass]), np.array([hub_mass])]
    for b in blades:
        pts_all.append(b["_points"])
        m_all.append(b["node_mass"])
    ptfm_cm = (
        np.array([_float(ed, "PtfmCMxt", 0.0), _float(ed, "PtfmCMyt", 0.0), _float(ed, "PtfmCMzt")])
        - ref
    )
    r_pts = np.vstack(pts_all)
    m_pts = np.concatenate(m_all)
    nac_iner_cm = nac_d2_iner * np.outer(z_n, z_n)
    hub_iner_cm = hub_iner * np.outer(c1, c1)
    gen_iner_t = gen_iner * np.outer(c1, c1)

    total_mass = float(m_pts.sum() + ptfm_mass)
    total_cm = (m_pts @ r_pts + ptfm_mass * ptfm_cm) / total_mass
    inertia_prp = (
        _point_inertia(m_pts, r_pts)
        + _point_inertia(np.array([ptfm_mass]), ptfm_cm[None])
        + ptfm_iner
        + nac_iner_cm
        + hub_iner_cm
        + gen_iner_t
    )
    inertia_prp = 0.5 * (inertia_prp + inertia_prp.T)  # exact symmetry (round-off otherwise)
    inertia_cm = _shift_to_cm(inertia_prp, total_mass, total_cm)
    inertia_cm = 0.5 * (inertia_cm + inertia_cm.T)

    rna_pts = np.vstack(pts_all[1:])
    rna_m = np.concatenate(m_all[1:])
    rna_cm = (rna_m @ rna_pts) / rna_mass if rna_mass > 0.0 else tower_top
    rot_pts = np.vstack([hub_cm[None], *[b["_points"] for b in blades]])
    rot_m = np.concatenate([[hub_mass], *[b["node_mass"] for b in blades]])
    rot_cm = (rot_m @ rot_pts) / rot_mass if rot_mass > 0.0 else apex
    for b in blades:
        del b["_points"]

    return {
        "frame": "platform axes, undisplaced, origin at the platform reference point (PRP)",
        "configuration": {"nac_yaw": yaw, "azimuth": az_in},
        "platform": {"mass": ptfm_mass, "cm": ptfm_cm, "inertia_cm": ptfm_iner},
        "tower": {
            "mass": twr_mass,
            "cm": twr_cm,
            "inertia_cm": twr_iner_cm,
            "base": tower_base,
            "top": tower_top,
            "node_height": h_nodes,
            "node_mass": m_twr,
        },
        "yaw_bearing": {"mass": yaw_br_mass, "cm": tower_top.copy()},
        "nacelle": {
            "mass": nac_mass,
            "cm": nac_cm,
            "yaw_inertia_cm": nac_d2_iner,
            "yaw_inertia_tower_axis": nac_yiner,
            "inertia_cm": nac_iner_cm,
        },
        "hub": {
            "mass": hub_mass,
            "cm": hub_cm,
            "inertia_shaft": hub_iner,
            "inertia_cm": hub_iner_cm,
        },
        "generator": {"inertia_hss": gen_iner, "gearbox_ratio": gb_ratio, "inertia": gen_iner_t},
        "blades": blades,
        "rotor": {
            "mass": rot_mass,
            "inertia_shaft": rot_iner,
            "cm": rot_cm,
            "apex": apex,
            "shaft_axis": c1,
            "spin_momentum_coefficient": rot_iner + gb_ratio * gen_iner,
        },
        "rna": {"mass": rna_mass, "cm": rna_cm},
        "total": {
            "mass": total_mass,
            "cm": total_cm,
            "inertia_prp": inertia_prp,
            "inertia_cm": inertia_cm,
        },
        "geometry": {
            "hub_height": tower_ht + twr2shft + overhang * math.sin(tilt),
            "tower_flexible_length": twr_flex,
            "blade_flexible_length": bld_flex,
            "shaft_tilt": tilt,
            "precone": precone,
            "overhang": overhang,
            "twr2shft": twr2shft,
            "hub_radius": hub_rad,
            "tip_radius": tip_rad,
            "platform_reference": ref,
        },
    }


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
        "environment": environment(deck),
        "dofs": enabled_dofs(deck),
        "initial_conditions": initial_conditions(deck),
        "servodyn": servodyn_maneuvers(deck),
        "hydrodyn": hydrodyn_model(deck),
        "sea_state": sea_state(deck),
        "mass_properties": elastodyn_mass_properties(deck),
        "tmax": _float(fst, "TMax"),
        "dt": _float(fst, "DT"),
    }
