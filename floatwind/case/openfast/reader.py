"""The OpenFAST input-file format: a generic reader and typed access, shared by every file kind.

One reader parses every OpenFAST module file (v3-v5 text format); the modules of
:mod:`floatwind.case.openfast` (one per input-file kind) read their keys from its result with the
typed accessors below, which raise :class:`floatwind.errors.CaseError` naming the file and key.

Generic parse result (``read_openfast_input``)::

    {"file": str, "title": str,            # path and the free text of line 2
     "values": {key: value},               # "value KEY - comment" lines, in file order
     "tables": {section_title: {"columns": [...], "units": [...], "rows": [[...], ...]}},
     "outlists": {"OutList": [...], "OutList_2": [...]},
     "sections": [section_title, ...],
     "lines": {key: line number}}         # where each key of "values" is (1-based)

Values are ``int``, ``float``, ``bool``, ``str``, the string ``"DEFAULT"`` (for ``DEFAULT`` or
``"default"``), ``None`` (a key without a value), a list (several values on one line, e.g.
``30, 60 LinTimes``), or a list of rows when numeric lines without a key follow the keyed line
(HydroDyn ``AddF0``, ``AddCLin``, ``AddBLin``, ``AddBQuad``).

Two forms of AeroDyn's main file: ``AFNames`` is the list of the ``NumAFfiles`` quoted names, one
per line after the key; an output list under its own key (``OutList_Nodal``) keeps that name.
A table header or units line may end in a ``!`` comment.
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

__all__ = ["DEFAULT", "read_openfast_input"]

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
_PHASE_RE = re.compile(r"1p[-+]?\d+(\.\d*)?")  # SeaState WaveMod = 1P# (phase, deg)


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
        elif _PHASE_RE.fullmatch(low):  # SeaState WaveMod = 1P# (phase, deg)
            self.kind, self.value = "quoted", text.upper()
        elif _KEY_RE.match(text):
            self.kind, self.value = "word", text
        else:
            self.kind, self.value = "other", text

    @property
    def is_value(self) -> bool:
        return self.kind in ("quoted", "number", "bool", "default")


def _finite(toks: list[_Token], path, field: str) -> None:
    """Refuse NaN or infinity among a line's numbers: no OpenFAST setting or table entry is a
    physical quantity that may be non-finite (issue 42: ``TowerHt = NaN`` must not reach the
    model)."""
    for t in toks:
        if t.kind == "number" and not math.isfinite(t.value):
            raise CaseError(f"expected a finite number, got {t.text!r}", field=field,
                            file=str(path))  # fmt: skip


#: the tokens read so far, by their text: a token's kind and value depend on its text alone and a
#: token is never changed, so one object serves every occurrence (a deck's comments and keys
#: repeat the same words: ref01's six files hold ~10,000 tokens; issue 41, a run's fixed cost)
_SEEN: dict[str, _Token] = {}
_SEEN_MAX = 100_000  # beyond it (a very large table file) tokens are made, not kept


def _token(text: str) -> _Token:
    tok = _SEEN.get(text)
    if tok is None:
        tok = _Token(text)
        if len(_SEEN) < _SEEN_MAX:
            _SEEN[text] = tok
    return tok


def _tokens(line: str) -> list[_Token]:
    seen = _SEEN
    return [seen.get(text) or _token(text) for text in _TOKEN_RE.findall(line)]


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


def _is_word_row(toks: list[_Token], columns: list[str]) -> bool:
    """A table row with words among its entries (MoorDyn's POINTS/LINES, MAP++'s nodes and
    lines, a line type's name first): one entry per column starting with a number, or a name
    followed by numbers only; a last column of flags or outputs (MAP++ ``Flags``, MoorDyn v1
    ``Flags/Outputs``) may hold several words. Such a row is never a ``value KEY`` setting."""
    n = len(columns)
    flags = bool(columns) and any(w in columns[-1].lower() for w in ("flag", "output"))
    if not (len(toks) == n or (flags and len(toks) > n)):
        return False
    if toks[0].kind == "number":
        return True
    return len(toks) == n and n > 1 and all(t.kind == "number" for t in toks[1:])


def _outlist_entries(line: str) -> list[str]:
    """Channel names on one OutList line: quoted lists, or bare names before a comment. After a
    quoted list, bare words are a comment (InflowWind's ``"Wind1VelX"  X-direction wind ...``)."""
    names: list[str] = []
    quoted = False
    for m in _TOKEN_RE.finditer(line):
        tok = m.group(0)
        if tok[:1] in "\"'":
            names.extend(n for n in re.split(r"[\s,]+", tok[1:-1]) if n)
            quoted = True
        elif quoted or tok in ("-", "--") or tok[:1] in "!#-":
            break
        else:
            names.append(tok)
    return names


def read_openfast_input(path: str | Path, *, strict: bool = True) -> dict[str, Any]:
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
    strict : bool
        Refuse a key given twice with different values (naming both lines); otherwise, and for
        a key repeated with the same value, the first value is kept with a warning.

    Returns
    -------
    dict
        See the module docstring for the layout.

    Raises
    ------
    CaseError
        The file cannot be read; NaN or infinity among its numbers; a key given twice with
        different values (``strict``).
    """
    path = Path(path)
    try:
        lines = path.read_text(encoding="latin-1").splitlines()
    except OSError as exc:
        raise CaseError(f"cannot read the file ({exc})", file=str(path)) from exc

    values: dict[str, Any] = {}
    where: dict[str, int] = {}  # key -> line number
    matrices: dict[str, list[list[Any]]] = {}
    tables: dict[str, dict[str, Any]] = {}
    outlists: dict[str, list[str]] = {}
    sections: list[str] = []
    title = ""
    section = ""
    table: dict[str, Any] | None = None
    paused: dict[str, Any] | None = None  # a table a comment line interrupted
    outlist: list[str] | None = None
    last_key: str | None = None  # keyed line that numeric continuation lines may extend
    af_left = 0  # AeroDyn's AFNames: names still to come, one per line

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
        if i == 2 and not (i < n and _is_units_line(_uncommented(lines[i]))):
            title = line  # (a MAP++ file starts with a table: its line 2 is the column names)
            continue
        if line.startswith(("!", "%", "#")):
            # a comment ends a table (AeroDyn's blade file: rows past NumBlNds); MoorDyn's
            # comment lines (!, #, %) may sit between its rows: a row with words that fits the
            # table after it continues the table (below), never a "value KEY" setting
            paused = table if table is not None else paused
            table = None
            continue
        if af_left > 0:  # AeroDyn's AFNames: one quoted airfoil file name per line
            names = _tokens(re.split(r"\s!", line)[0])
            if not names or names[0].kind != "quoted":
                raise CaseError(f"expected {af_left} more airfoil file name(s) (quoted), found "
                                f"{line!r}", field=f"line {i} (AFNames)", file=str(path))  # fmt: skip
            values["AFNames"].append(names[0].value)
            af_left -= 1
            continue
        if line[:3].upper() == "END" and not line[3:4].isalnum():
            continue  # an end-of-list marker (e.g. after an empty output list), not a setting
        toks = _tokens(re.split(r"\s!", line)[0])
        if not toks:
            continue
        if table is None and paused is not None:
            if not _is_row(toks) and _is_word_row(toks, paused["columns"]):
                table = paused
            paused = None
        if table is not None:
            # a row of the table: numbers, or (MoorDyn's POINTS/LINES, MAP++'s NODE PROPERTIES)
            # one entry per column starting with a number, with words among them ("fixed",
            # "vessel", a line type's name, "-"); such a row is never a "value KEY" setting
            if _is_row(toks) or _is_word_row(toks, table["columns"]):
                _finite(toks, path, f"line {i}")
                table["rows"].append([t.value for t in toks])
                continue
            table = None
        # numeric continuation of a keyed matrix (AddF0, AddCLin, ...)
        if _is_row(toks) and last_key is not None:
            _finite(toks, path, f"line {i} ({last_key})")
            matrices.setdefault(last_key, [])
            matrices[last_key].append([t.value for t in toks])
            continue
        # table header: names only, followed by a units line (either may end in a comment)
        head = _uncommented(line)
        head_toks = _tokens(head)
        nxt = next((lines[j] for j in range(i, n) if lines[j].strip()), "")
        if (
            len(head_toks) >= 2
            and all(t.kind in ("word", "other") for t in head_toks)  # "BA/-zeta", "Flags/Outputs"
            and _is_units_line(_uncommented(nxt))
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
            table["units"] = [u.strip("()[]") for u in _uncommented(lines[i]).split()]
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
        elif not vals and len(toks) > 1 and toks[0].kind == "other" and toks[1].kind == "word":
            # any other unquoted value before its key ("spar.dat  PotFile", or "1o25  WtrDens",
            # "87.6m  TowerHt"): kept as written, so a number the file garbles is refused by the
            # typed access naming the key instead of the key reading as missing or defaulted
            vals = [toks[0].text]
            key = toks[1].text
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
        if key.lower().startswith("outlist_") and not vals and key not in outlists:
            outlist = outlists[key] = []  # AeroDyn's OutList_Nodal
            last_key = None
            continue
        _finite(toks[:j], path, key)
        value: Any = None if not vals else (vals[0] if len(vals) == 1 else vals)
        if key in values:
            if strict and values[key] != value:
                # OpenFAST reads its files line by line, key by key: a key given again with
                # another value is a damaged or hand-merged file (which value was meant?)
                raise CaseError(f"key {key} is given twice with different values (lines "
                                f"{where[key]} and {i})", field=key, file=str(path))  # fmt: skip
            logger.warning("%s:%d: key %s repeated; the first value is kept", path, i, key)
        elif key == "AFNames":  # AeroDyn: NumAFfiles quoted names, the first on this line
            values[key] = list(vals[:1])
            where[key] = i
            n_af = values.get("NumAFfiles")
            if not isinstance(n_af, int) or n_af < 1:
                raise CaseError("NumAFfiles must precede AFNames and be >= 1",
                                field=f"line {i} (AFNames)", file=str(path))  # fmt: skip
            af_left = n_af - len(values[key])
            last_key = None
            continue
        else:
            values[key] = value
            where[key] = i
        last_key = key if vals and all(isinstance(v, int | float) for v in vals) else None

    if af_left:
        raise CaseError(f"{af_left} airfoil file name(s) missing after AFNames",
                        field="AFNames", file=str(path))  # fmt: skip
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
        "lines": where,
    }


def _uncommented(line: str) -> str:
    """A table header or units line without its ``!`` comment or ``[`` note."""
    return re.split(r"\s!|\[", line)[0]


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
    if not math.isfinite(v):
        raise CaseError(f"expected a finite number, got {v!r}", field=key, file=f["file"])
    return float(v)


def _int(f: dict, key: str, default: Any = ...) -> int:
    v = _raw(f, key, default)
    if (isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v)
            or float(v) != int(v)):  # fmt: skip
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


def _ed(deck: dict) -> dict:
    """The deck's ElastoDyn file (floatwind imports only decks with one)."""
    ed = deck.get("ElastoDyn")
    if ed is None:
        raise CaseError("the deck has no ElastoDyn file", field="EDFile", file=deck.get("file"))
    return ed


# --------------------------------------------------------------------------------------------------
# plain lists for the case dict
# --------------------------------------------------------------------------------------------------


def _vec(v) -> list[float]:
    return [float(x) for x in np.asarray(v, dtype=float).ravel()]


def _mat(v) -> list[list[float]]:
    return [[float(x) for x in row] for row in np.asarray(v, dtype=float)]
