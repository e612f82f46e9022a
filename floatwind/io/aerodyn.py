"""AeroDyn blade files and airfoil (AirfoilInfo) files: read, checked, in the file's units.

Two readers of the files an AeroDyn v5 main file names (the main file itself is read by
:mod:`floatwind.case.openfast.aerodyn`):

* :func:`read_airfoil`: an AirfoilInfo v1.01 file (``InterpOrd``, ``NonDimArea``, ``NumCoords``,
  ``BL_file``, ``NumTabs``; per table ``Re`` (millions), ``UserProp``, ``InclUAdata`` with its
  block of unsteady-aerodynamics coefficients, ``NumAlf`` and the coefficient rows), and the older
  forms the OpenFAST project's Python reader (``openfast_io`` v5) accepts: a ``RelThickness`` line
  before ``NonDimArea``, no ``BL_file`` line, ``Ctrl`` instead of ``UserProp``. Keyed lines are read
  by key up to ``NumAlf`` (the unsteady-aerodynamics block varies between versions). The columns
  of the coefficient rows are picked by AeroDyn's ``InCol_Alfa/Cl/Cd/Cm/Cpmin`` (1-based, 0 =
  absent).
* :func:`read_blade`: an AeroDyn blade file (``NumBlNds`` and its table ``BlSpn BlCrvAC BlSwpAC
  BlCrvAng BlTwist BlChord BlAFID`` and, in v5, ``t_c BlCb BlCenBn BlCenBt BlCpn BlCpt BlCan BlCat
  BlCam``; only the first ``NumBlNds`` rows are read, as AeroDyn reads them).

Checks, each a one-line :class:`~floatwind.errors.CaseError` naming the file and the line: a
polar that does not cover -180..180 deg, an angle-of-attack column that does not increase
strictly, a row with a missing column, a blade span that does not increase, a chord <= 0, an
airfoil ID < 1. (An airfoil ID beyond ``NumAFfiles`` is the main file's check:
:func:`check_af_ids`.) Lines starting with ``!`` are comments anywhere, as in AirfoilInfo.

Units stay as in the files (deg, m, Re in millions is converted to Re); the consumers convert
(``floatwind.rotor.airfoils`` packs the tables in rad). This module imports only numpy and
:mod:`floatwind.errors` (layer ``io``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from floatwind.errors import CaseError

__all__ = [
    "BLADE_COLUMNS",
    "BLADE_V5_COLUMNS",
    "AirfoilFile",
    "AirfoilTable",
    "BladeFile",
    "check_af_ids",
    "read_airfoil",
    "read_blade",
]

#: the columns every AeroDyn blade file has, in order
BLADE_COLUMNS = ("BlSpn", "BlCrvAC", "BlSwpAC", "BlCrvAng", "BlTwist", "BlChord", "BlAFID")
#: the columns AeroDyn v5 (OpenFAST 4/5) adds (optional: older files stop at BlAFID)
BLADE_V5_COLUMNS = (
    "t_c",
    "BlCb",
    "BlCenBn",
    "BlCenBt",
    "BlCpn",
    "BlCpt",
    "BlCan",
    "BlCat",
    "BlCam",
)

#: tolerance of the -180..180 deg coverage check (deg)
_COVER_TOL = 1e-6


@dataclass(frozen=True)
class AirfoilTable:
    """One coefficient table of an airfoil file (angles in deg as written)."""

    re: float  # Reynolds number (the file gives it in millions)
    user_prop: float
    alpha_deg: np.ndarray
    cl: np.ndarray
    cd: np.ndarray
    cm: np.ndarray | None
    cpmin: np.ndarray | None
    incl_ua_data: bool = False
    ua: dict[str, Any] = field(default_factory=dict)  # the unsteady-aerodynamics coefficients
    line: int = 0  # line of the table's first coefficient row


@dataclass(frozen=True)
class AirfoilFile:
    """An AeroDyn airfoil file: its options and its tables (see :func:`read_airfoil`)."""

    path: str
    interp_ord: int  # 1 linear (DEFAULT), 3 cubic spline
    non_dim_area: float
    tables: tuple[AirfoilTable, ...]
    rel_thickness: float | None = None
    num_coords: str = "0"  # a count or ``@file`` as written
    bl_file: str | None = None
    values: dict[str, Any] = field(default_factory=dict)  # every keyed line, first occurrence
    lines: dict[str, int] = field(default_factory=dict)  # key -> line of its first occurrence


@dataclass(frozen=True)
class BladeFile:
    """An AeroDyn blade file (lengths in m, angles in deg as written, ``af_id`` 1-based)."""

    path: str
    span: np.ndarray
    crv_ac: np.ndarray
    swp_ac: np.ndarray
    crv_ang_deg: np.ndarray
    twist_deg: np.ndarray
    chord: np.ndarray
    af_id: np.ndarray  # int64, 1-based into the main file's AFNames
    extra: dict[str, np.ndarray] = field(default_factory=dict)  # v5 columns present
    lines: tuple[int, ...] = ()  # line of each node's row


# ------------------------------------------------------------------------------------ lines


_TOKEN_RE = re.compile(r'"[^"]*"|\'[^\']*\'|[^\s,]+')
_NUM_RE = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eEdD][+-]?\d+)?$")


def _err(path: Path | str, line: int, what: str, reason: str) -> CaseError:
    return CaseError(reason, field=f"line {line} ({what})", file=str(path))


def _read_lines(path: str | Path) -> tuple[Path, list[str]]:
    path = Path(path)
    try:
        return path, path.read_text(encoding="latin-1").splitlines()
    except OSError as exc:
        raise CaseError(f"cannot read the file ({exc})", file=str(path)) from exc


def _content(lines: list[str]):
    """``(line number, text)`` of every line that is neither blank nor a ``!`` comment."""
    for n, raw in enumerate(lines, start=1):
        s = raw.strip()
        if s and not s.startswith("!"):
            yield n, s


def _value(tok: str) -> Any:
    """A token as a Python value (number, bool, quoted string, DEFAULT, ``@file``)."""
    if tok[:1] in "\"'" and tok[-1:] == tok[:1] and len(tok) >= 2:
        inner = tok[1:-1]
        return "DEFAULT" if inner.strip().lower() == "default" else inner
    low = tok.lower()
    if re.fullmatch(r"[+-]?\d+", tok):
        return int(tok)
    if _NUM_RE.match(tok):
        return float(low.replace("d", "e"))
    if low in ("true", "t"):
        return True
    if low in ("false", "f"):
        return False
    if low == "default":
        return "DEFAULT"
    return tok  # e.g. @"coords.txt" (NumCoords) or an unquoted word


def _keyed(text: str) -> tuple[Any, str] | None:
    """``value KEY ...`` -> (value, KEY); None when the line is not of that form."""
    toks = _TOKEN_RE.findall(re.split(r"\s!|\s-\s", text)[0])
    if len(toks) < 2 or not re.fullmatch(r"[A-Za-z_]\w*", toks[1]):
        return None
    return _value(toks[0]), toks[1]


def _numbers(text: str) -> list[float] | None:
    toks = _TOKEN_RE.findall(re.split(r"\s!", text)[0])
    if not toks or not all(_NUM_RE.match(t) for t in toks):
        return None
    return [float(t.lower().replace("d", "e")) for t in toks]


def _as_float(path, n, key, v) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise _err(path, n, key, f"expected a number, got {v!r}")
    return float(v)


def _as_int(path, n, key, v) -> int:
    if isinstance(v, bool) or not isinstance(v, int | float) or float(v) != int(v):
        raise _err(path, n, key, f"expected an integer, got {v!r}")
    return int(v)


def _as_bool(path, n, key, v) -> bool:
    if isinstance(v, bool):
        return v
    if isinstance(v, int) and v in (0, 1):
        return bool(v)
    raise _err(path, n, key, f"expected TRUE or FALSE, got {v!r}")


# --------------------------------------------------------------------------------- airfoils


def read_airfoil(path: str | Path, *, columns: tuple[int, ...] = (1, 2, 3, 4, 0)) -> AirfoilFile:
    """Read an AeroDyn airfoil file (AirfoilInfo v1.01 and the older forms of the module docstring).

    Parameters
    ----------
    path : str or pathlib.Path
        The airfoil file.
    columns : tuple of 5 int
        AeroDyn's ``InCol_Alfa, InCol_Cl, InCol_Cd, InCol_Cm, InCol_Cpmin`` (1-based columns of
        the coefficient rows; 0 = absent, allowed for Cm and Cpmin only).

    Returns
    -------
    AirfoilFile
        Every table of the file, angles in deg as written, ``re`` in units (not millions).

    Raises
    ------
    CaseError
        Naming the file and the line: a missing or malformed key, a row with fewer columns than
        ``columns`` asks for, an angle-of-attack column that does not increase strictly, a table
        that does not cover -180..180 deg, fewer rows than ``NumAlf``.
    """
    if len(columns) != 5 or any(int(c) < 0 for c in columns):
        raise CaseError(f"expected 5 column numbers >= 0, got {columns!r}", field="columns")
    c_alpha, c_cl, c_cd, c_cm, c_cp = (int(c) for c in columns)
    if min(c_alpha, c_cl, c_cd) < 1:
        raise CaseError(
            f"InCol_Alfa, InCol_Cl and InCol_Cd must be >= 1, got {columns!r}",
            field="InCol_Alfa/InCol_Cl/InCol_Cd",
            file=str(path),
        )
    path, lines = _read_lines(path)
    body = list(_content(lines))
    pos = 0
    values: dict[str, Any] = {}
    where: dict[str, int] = {}

    def next_keyed(*expected: str, optional: bool = False) -> tuple[Any, int, str] | None:
        """The next keyed line; its key must be one of ``expected`` (case-insensitive)."""
        nonlocal pos
        if pos >= len(body):
            if optional:
                return None
            raise _err(path, len(lines), expected[0], f"end of file before {expected[0]}")
        n, text = body[pos]
        kv = _keyed(text)
        low = [e.lower() for e in expected]
        if kv is None or kv[1].lower() not in low:
            if optional:
                return None
            raise _err(path, n, expected[0], f"expected the {expected[0]} line, found {text!r}")
        pos += 1
        key = kv[1]
        values.setdefault(key, kv[0])
        where.setdefault(key, n)
        return kv[0], n, key

    v, n, k = next_keyed("InterpOrd")
    interp_ord = 1 if v == "DEFAULT" else _as_int(path, n, k, v)
    rel = next_keyed("RelThickness", optional=True)
    rel_thickness = None
    if rel is not None and rel[0] != "DEFAULT":
        rel_thickness = _as_float(path, rel[1], rel[2], rel[0])
    v, n, k = next_keyed("NonDimArea")
    non_dim_area = _as_float(path, n, k, v)
    v, n, k = next_keyed("NumCoords")
    num_coords = str(v)
    if isinstance(v, int) and v > 0:  # coordinates in this file: NumCoords rows of x/c y/c
        for _ in range(v):
            if pos >= len(body) or _numbers(body[pos][1]) is None:
                raise _err(path, body[min(pos, len(body) - 1)][0], "NumCoords",
                           f"expected {v} coordinate rows")  # fmt: skip
            pos += 1
    bl = next_keyed("BL_file", optional=True)
    bl_file = None if bl is None else str(bl[0])
    v, n, k = next_keyed("NumTabs")
    num_tabs = _as_int(path, n, k, v)
    if num_tabs < 1:
        raise _err(path, n, k, f"NumTabs = {num_tabs} must be at least 1")

    tables: list[AirfoilTable] = []
    need = max(c_alpha, c_cl, c_cd, c_cm, c_cp)
    for it in range(num_tabs):
        v, n, k = next_keyed("Re")
        re_ = _as_float(path, n, k, v) * 1e6
        v, n, k = next_keyed("UserProp", "Ctrl")
        user_prop = _as_float(path, n, k, v)
        v, n, k = next_keyed("InclUAdata")
        incl = _as_bool(path, n, k, v)
        ua: dict[str, Any] = {}
        # the unsteady-aerodynamics block (when InclUAdata): keyed lines up to NumAlf
        while pos < len(body):
            kv = _keyed(body[pos][1])
            if kv is None or kv[1].lower() == "numalf":
                break
            if not incl:
                raise _err(path, body[pos][0], kv[1],
                           f"{kv[1]} given with InclUAdata = False (expected NumAlf)")  # fmt: skip
            ua[kv[1]] = kv[0]
            values.setdefault(kv[1], kv[0])
            where.setdefault(kv[1], body[pos][0])
            pos += 1
        v, n_alf, k = next_keyed("NumAlf")
        num_alf = _as_int(path, n_alf, k, v)
        if num_alf < 2:
            raise _err(
                path, n_alf, k, f"NumAlf = {num_alf}: a polar needs rows covering -180..180 deg"
            )  # noqa: E501
        rows = []
        row_lines = []
        for _ in range(num_alf):
            if pos >= len(body):
                raise _err(path, len(lines), f"table {it + 1}",
                           f"end of file after {len(rows)} of NumAlf = {num_alf} rows")  # fmt: skip
            n, text = body[pos]
            nums = _numbers(text)
            if nums is None:
                raise _err(path, n, f"table {it + 1}",
                           f"expected a row of numbers ({len(rows)} of NumAlf = {num_alf} rows "
                           f"read), found {text!r}")  # fmt: skip
            if len(nums) < need:
                raise _err(path, n, f"table {it + 1}",
                           f"the row has {len(nums)} columns; InCol_* ask for column {need}")  # fmt: skip
            rows.append(nums)
            row_lines.append(n)
            pos += 1
        arr = np.array([r[:need] for r in rows], dtype=float)
        alpha = arr[:, c_alpha - 1].copy()
        bad = np.nonzero(np.diff(alpha) <= 0.0)[0]
        if bad.size:
            j = int(bad[0]) + 1
            raise _err(path, row_lines[j], f"table {it + 1} alpha",
                       f"the angle of attack must increase strictly: {alpha[j]:g} deg follows "
                       f"{alpha[j - 1]:g} deg")  # fmt: skip
        if alpha[0] > -180.0 + _COVER_TOL or alpha[-1] < 180.0 - _COVER_TOL:
            j = 0 if alpha[0] > -180.0 + _COVER_TOL else num_alf - 1
            raise _err(path, row_lines[j], f"table {it + 1} alpha",
                       f"the polar covers {alpha[0]:g}..{alpha[-1]:g} deg; AeroDyn tables must "
                       "cover -180..180 deg")  # fmt: skip
        tables.append(
            AirfoilTable(
                re=re_,
                user_prop=user_prop,
                alpha_deg=alpha,
                cl=arr[:, c_cl - 1].copy(),
                cd=arr[:, c_cd - 1].copy(),
                cm=arr[:, c_cm - 1].copy() if c_cm > 0 else None,
                cpmin=arr[:, c_cp - 1].copy() if c_cp > 0 else None,
                incl_ua_data=incl,
                ua=ua,
                line=row_lines[0],
            )
        )
    return AirfoilFile(
        path=str(path),
        interp_ord=interp_ord,
        non_dim_area=non_dim_area,
        tables=tuple(tables),
        rel_thickness=rel_thickness,
        num_coords=num_coords,
        bl_file=bl_file,
        values=values,
        lines=where,
    )


# ------------------------------------------------------------------------------------ blade


def read_blade(path: str | Path) -> BladeFile:
    """Read an AeroDyn blade file (v5 with 16 columns, or the 7 columns of earlier versions).

    The columns are found by their names in the header line (any order; the units line follows
    it); ``NumBlNds`` rows are read (lines after them are not AeroDyn's).

    Raises
    ------
    CaseError
        Naming the file and the line: ``NumBlNds`` missing or < 2, a header without one of the
        seven required columns, a row with fewer values than the header, fewer rows than
        ``NumBlNds``, a span that does not increase strictly, a chord <= 0, an airfoil ID that is
        not an integer >= 1.
    """
    path, lines = _read_lines(path)
    body = list(_content(lines))
    pos = next((i for i, (_, t) in enumerate(body) if (kv := _keyed(t)) and kv[1] == "NumBlNds"),
               None)  # fmt: skip
    if pos is None:
        raise CaseError("no NumBlNds line", field="NumBlNds", file=str(path))
    n, text = body[pos]
    kv = _keyed(text)
    assert kv is not None
    nn = _as_int(path, n, "NumBlNds", kv[0])
    if nn < 2:
        raise _err(path, n, "NumBlNds", f"NumBlNds = {nn}: a blade needs at least 2 nodes")
    pos += 1
    if pos + 1 >= len(body):
        raise _err(path, n, "NumBlNds", "end of file before the blade table")
    n_head, head = body[pos]
    cols = head.split("!")[0].split()
    missing = [c for c in BLADE_COLUMNS if c not in cols]
    if missing:
        raise _err(path, n_head, "blade table header",
                   f"missing column(s) {', '.join(missing)} (columns found: {' '.join(cols)})")  # fmt: skip
    pos += 2  # header and units
    rows, row_lines = [], []
    for _ in range(nn):
        if pos >= len(body):
            raise _err(path, len(lines), "blade table",
                       f"end of file after {len(rows)} of NumBlNds = {nn} rows")  # fmt: skip
        n, text = body[pos]
        nums = _numbers(text)
        if nums is None:
            raise _err(path, n, "blade table", f"expected a row of numbers, found {text!r}")
        if len(nums) < len(cols):
            raise _err(path, n, "blade table",
                       f"the row has {len(nums)} values for the {len(cols)} columns of the "
                       f"header (missing: {' '.join(cols[len(nums):])})")  # fmt: skip
        rows.append(nums[: len(cols)])
        row_lines.append(n)
        pos += 1
    arr = np.array(rows, dtype=float)
    col = {c: arr[:, j].copy() for j, c in enumerate(cols)}
    span = col["BlSpn"]
    bad = np.nonzero(np.diff(span) <= 0.0)[0]
    if bad.size:
        j = int(bad[0]) + 1
        raise _err(path, row_lines[j], "BlSpn",
                   f"the span must increase strictly: {span[j]:g} m follows {span[j - 1]:g} m")  # fmt: skip
    for j, c in enumerate(col["BlChord"]):
        if not c > 0.0:
            raise _err(path, row_lines[j], "BlChord", f"chord {c:g} m must be > 0")
    af = col["BlAFID"]
    for j, a in enumerate(af):
        if a != int(a) or a < 1:
            raise _err(path, row_lines[j], "BlAFID", f"airfoil ID {a:g} must be an integer >= 1")
    return BladeFile(
        path=str(path),
        span=span,
        crv_ac=col["BlCrvAC"],
        swp_ac=col["BlSwpAC"],
        crv_ang_deg=col["BlCrvAng"],
        twist_deg=col["BlTwist"],
        chord=col["BlChord"],
        af_id=af.astype(np.int64),
        extra={c: v for c, v in col.items() if c not in BLADE_COLUMNS},
        lines=tuple(row_lines),
    )


def check_af_ids(blade: BladeFile, num_af_files: int, *, main_file: str | None = None) -> None:
    """Every ``BlAFID`` of ``blade`` is at most ``NumAFfiles`` (the main file's count).

    Raises
    ------
    CaseError
        Naming the blade file and the line of the first ID beyond ``num_af_files``.
    """
    for j, a in enumerate(blade.af_id):
        if a > num_af_files:
            where = f" of {Path(main_file).name}" if main_file else ""
            line = blade.lines[j] if j < len(blade.lines) else 0
            raise _err(blade.path, line, "BlAFID",
                       f"airfoil ID {int(a)} is beyond NumAFfiles = {num_af_files}{where}")  # fmt: skip
