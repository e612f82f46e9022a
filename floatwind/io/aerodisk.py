"""OpenFAST AeroDisk input files: the actuator disc's settings and its coefficient table.

AeroDisk (OpenFAST ``modules/aerodisk``, CompAero = 1) gives the rotor's 3 forces and 3 moments
from a table of coefficients ``C_Fx, C_Fy, C_Fz, C_Mx, C_My, C_Mz`` over up to four of the
variables ``TSR`` (tip-speed ratio), ``RtSpd`` (rotor speed, rpm in the file), ``VRel`` (relative
wind normal to the disc, m/s), ``Pitch`` (collective blade pitch, deg) and ``Skew`` (inflow skew,
deg). The file, as ``AeroDisk_IO.f90`` (``ADsk_ParsePrimaryFileData``, ``Get_RtAeroTableData``,
``ADskInput_ValidateInput``) reads it and docs/source/user/aerodisk/input_files.rst shows it::

    --- AERO DISK INPUT FILE -------          (three header lines, not read)
    Sample actuator disk input file
    --- SIMULATION CONTROL ---------
     FALSE        Echo      - ...
     "default"    DT        - ...
    --- ENVIRONMENTAL CONDITIONS ---
          1.225   AirDens   - ... (or "default")
    --- ACTUATOR DISK PROPERTIES ---
         63.0     RotorRad  - ... (or "default")
    "TSR,Pitch"   InColNames - the names of the variable columns
    3,2           InColDims  - the number of unique values of each named column
    TSR   Pitch   C_Fx  C_Fy  C_Fz  C_Mx  C_My  C_Mz     (two header lines)
    (-)   (deg)   (-)   (-)   (-)   (-)   (-)   (-)
    ... prod(InColDims) rows: the variable columns, then the six coefficients ...
    --- OUTPUTS --------------------
                  OutList   - ...
    "ADCt"
    END

The column of a name is its word position on the ``InColNames`` line (words split at blanks,
commas and quotes, as NWTC's ``GetWords``); ``InColDims`` gives the count of the same position. A
named column with count 0 stays in the rows but is not used. The rows may come in any order:
AeroDisk sorts the unique values of each column (``UniqueRealValues``) and places every row in
the grid; a row given twice or a grid point without a row is an error. Validity rules are
``ADskInput_ValidateInput``'s: TSR and RtSpd > 0, VRel >= 0, Pitch in (-180, 180) deg, and either
TSR with at least 2 values or RtSpd/VRel (one of them with at least 2 values), not both. One
difference: AeroDisk refuses a Skew column whose first value is 0 deg (``minval(Skew) <= 0``),
which would also make it refuse every unskewed inflow at run time (chi = 0 lies below the
table); we accept 0 <= Skew < 180 deg.

Lines starting with ``!``, ``#`` or ``%`` and blank lines are skipped, as NWTC's
``ProcessComFile`` does. Every error names the file and the line. Units inside are SI: RtSpd in
rad/s, Pitch and Skew in rad.
"""

from __future__ import annotations

import math
import pathlib
import re
from dataclasses import dataclass, field

import numpy as np

from floatwind.errors import CaseError

__all__ = [
    "VARIABLES",
    "AeroDiskFile",
    "AeroDiskTable",
    "aerodisk_table",
    "read_aerodisk",
    "write_aerodisk",
]

#: the table's variable columns, in AeroDisk's storage order (ADsk_AeroTable: TSR, RtSpd, VRel,
#: Pitch, Skew) and their conversion from the file's units to SI
VARIABLES = ("TSR", "RtSpd", "VRel", "Pitch", "Skew")
_TO_SI = {"TSR": 1.0, "RtSpd": math.pi / 30.0, "VRel": 1.0, "Pitch": math.pi / 180.0,
          "Skew": math.pi / 180.0}  # fmt: skip
_COEFFICIENTS = ("C_Fx", "C_Fy", "C_Fz", "C_Mx", "C_My", "C_Mz")
_WORDS = re.compile(r"[^\s,;'\"]+")


@dataclass(frozen=True)
class AeroDiskTable:
    """The coefficient table on its grid (SI units).

    ``values[name]`` holds the sorted unique values of each variable column with a count > 0
    (an empty array for the others); ``coef`` (6, n_TSR, n_RtSpd, n_VRel, n_Pitch, n_Skew) the
    six coefficients, each absent dimension of length 1 (AeroDisk's ``max(N, 1)``).
    """

    values: dict[str, np.ndarray]
    coef: np.ndarray
    source: str = ""

    @property
    def use_tsr(self) -> bool:
        """AeroDisk's ``UseTSR``: the TSR column has more than one value."""
        return self.values["TSR"].size > 1

    @property
    def has_skew(self) -> bool:
        """A Skew column (else AeroDisk scales every coefficient by cos^2(skew))."""
        return self.values["Skew"].size > 0


@dataclass(frozen=True)
class AeroDiskFile:
    """An AeroDisk input file: ``None`` stands for ``"default"`` (the glue code's value)."""

    path: str
    echo: bool
    dt: float | None
    air_density: float | None
    rotor_radius: float | None
    table: AeroDiskTable
    outlist: tuple[str, ...] = field(default=())


def aerodisk_table(names, dims, rows, *, source: str = "", lines=None) -> AeroDiskTable:
    """The table of the variable columns ``names`` (AeroDisk's names, case-insensitive; other
    names are columns AeroDisk skips) with unique-value counts ``dims`` from ``rows`` (R,
    len(names) + 6) in the file's units (RtSpd rpm, Pitch and Skew deg). ``lines`` (R,) are the
    rows' line numbers for the messages (``source`` the file)."""
    names = [str(n) for n in names]
    dims = [int(d) for d in dims]
    rows = np.asarray(rows, dtype=float)
    lines = list(range(1, len(rows) + 1)) if lines is None else list(lines)
    where = (lambda k: f"line {lines[k]}: ") if source else (lambda k: f"row {k + 1}: ")
    col = {}
    for j, n in enumerate(names):
        canon = next((v for v in VARIABLES if v.upper() == n.upper()), None)
        if canon is None:
            continue
        if canon in col:
            raise CaseError(f"the column name {canon} occurs more than once in InColNames",
                            file=source or None, field="InColNames")  # fmt: skip
        col[canon] = j
    if not col:
        raise CaseError('InColNames names none of the columns "TSR", "RtSpd", "VRel", "Skew", '
                        '"Pitch"', file=source or None, field="InColNames")  # fmt: skip
    if len(dims) < len(names):
        raise CaseError(f"InColDims has {len(dims)} counts for {len(names)} InColNames columns",
                        file=source or None, field="InColDims")  # fmt: skip
    count = {v: 0 for v in VARIABLES}
    for v, j in col.items():
        if dims[j] < 0:
            raise CaseError(f"the count of {v} must be >= 0, got {dims[j]}", file=source or None,
                            field="InColDims")  # fmt: skip
        count[v] = dims[j]
    n_cols = len(names) + 6
    if rows.ndim != 2 or rows.shape[1] != n_cols:
        raise CaseError(f"expected rows of {n_cols} numbers", file=source or None)
    values: dict[str, np.ndarray] = {}
    index: dict[str, np.ndarray] = {}
    for v in VARIABLES:
        if count[v] == 0:
            values[v] = np.zeros(0)
            index[v] = np.zeros(len(rows), dtype=np.int64)
            continue
        colv = rows[:, col[v]]
        uniq = np.unique(colv)
        if uniq.size != count[v]:
            raise CaseError(f"expecting {count[v]} unique {v} entries in the table (InColDims), "
                            f"found {uniq.size}", file=source or None, field="InColDims")  # fmt: skip
        values[v] = uniq * _TO_SI[v]
        index[v] = np.searchsorted(uniq, colv)
    shape = tuple(max(count[v], 1) for v in VARIABLES)
    coef = np.zeros((6, *shape))
    seen = np.full(shape, -1, dtype=np.int64)
    for k in range(len(rows)):
        at = tuple(int(index[v][k]) for v in VARIABLES)
        if seen[at] >= 0:
            raise CaseError(f"{where(k)}duplicate table entry (the same "
                            f"{', '.join(col)} as {where(int(seen[at])).rstrip(': ')})",
                            file=source or None)  # fmt: skip
        seen[at] = k
        coef[(slice(None), *at)] = rows[k, n_cols - 6 :]
    if np.any(seen < 0):
        miss = np.argwhere(seen < 0)[0]
        what = ", ".join(f"{v} {values[v][i] / _TO_SI[v]:g}" for v, i in zip(VARIABLES, miss)
                         if count[v] > 0)  # fmt: skip
        raise CaseError(f"data missing from the table: no row for {what}", file=source or None)
    _validate(values, count, source)
    return AeroDiskTable(values=values, coef=coef, source=source)


def _validate(values, count, source):
    """ADskInput_ValidateInput's table checks (Skew: 0 allowed, module docstring)."""

    def bad(reason, name):
        raise CaseError(reason, file=source or None, field=name)

    if count["TSR"] and values["TSR"].min() <= 0.0:
        bad("all TSR values in the table must be positive", "TSR")
    if count["RtSpd"] and values["RtSpd"].min() <= 0.0:
        bad("all RtSpd values in the table must be positive", "RtSpd")
    if count["VRel"] and values["VRel"].min() < 0.0:
        bad("all VRel values in the table must be >= 0", "VRel")
    if count["Pitch"] and (values["Pitch"].min() <= -math.pi or values["Pitch"].max() >= math.pi):
        bad("all Pitch values in the table must be between -180 and 180 deg", "Pitch")
    if count["Skew"] and (values["Skew"].min() < 0.0 or values["Skew"].max() >= math.pi):
        bad("all Skew values in the table must be in [0, 180) deg", "Skew")
    if count["TSR"] > 1:
        if count["RtSpd"] > 1 or count["VRel"] > 1:
            bad(
                "TSR values present in the table along with RtSpd or VRel values: give either "
                "TSR or RtSpd and VRel (a count of 0 in InColDims skips a column)",
                "InColNames",
            )
    elif count["RtSpd"] < 2 and count["VRel"] < 2:
        bad("neither TSR (at least 2 values) nor RtSpd/VRel (at least 2 values) in the table",
            "InColNames")  # fmt: skip


def _lines(path: pathlib.Path) -> list[tuple[int, str]]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CaseError(f"cannot read the AeroDisk file: {exc.strerror or exc}",
                        file=str(path)) from None  # fmt: skip
    except UnicodeDecodeError as exc:
        data = path.read_bytes()
        line = data.count(b"\n", 0, exc.start) + 1
        raise CaseError(f"not UTF-8 text: byte 0x{data[exc.start]:02x} at line {line}",
                        file=str(path)) from None  # fmt: skip
    out = []
    for k, line in enumerate(text.splitlines(), start=1):
        s = line.strip()
        if not s or s[0] in "!#%":
            continue
        out.append((k, line))
    return out


def _words(line: str, n: int = 99) -> list[str]:
    return _WORDS.findall(line)[:n]


def read_aerodisk(path) -> AeroDiskFile:
    """Read an AeroDisk input file (module docstring); errors name the file and the line."""
    path = pathlib.Path(path)
    src = str(path)
    lines = _lines(path)
    pos = 3  # three header lines (AeroDisk starts at line 4)

    def take(what: str) -> tuple[int, str]:
        nonlocal pos
        if pos >= len(lines):
            raise CaseError(f"the file ends before {what}", file=src)
        out = lines[pos]
        pos += 1
        return out

    def value(name: str) -> tuple[int, str]:
        k, line = take(name)
        w = _words(line, 2)
        if len(w) < 2 or w[1].upper() != name.upper():
            raise CaseError(f"line {k}: expected the variable {name!r}, got {line.strip()!r}",
                            file=src, field=name)  # fmt: skip
        return k, w[0]

    def real_or_default(name: str, positive: bool = True) -> float | None:
        k, tok = value(name)
        if tok.lower() == "default":
            return None
        try:
            v = float(tok.replace("d", "e").replace("D", "e"))
        except ValueError:
            raise CaseError(f"line {k}: {name} must be a number or \"default\", got {tok!r}",
                            file=src, field=name) from None  # fmt: skip
        if not math.isfinite(v) or (positive and v <= 0.0):
            raise CaseError(f"line {k}: {name} must be > 0, got {tok}", file=src, field=name)
        return v

    k, tok = value("Echo")
    if tok.upper() not in ("TRUE", "FALSE", "T", "F"):
        raise CaseError(f"line {k}: Echo must be true or false, got {tok!r}", file=src,
                        field="Echo")  # fmt: skip
    echo = tok.upper() in ("TRUE", "T")
    dt = real_or_default("DT")
    take("the ENVIRONMENTAL CONDITIONS section line")
    rho = real_or_default("AirDens")
    take("the ACTUATOR DISK PROPERTIES section line")
    radius = real_or_default("RotorRad")

    k_names, line = take("InColNames")
    words = _words(line, 6)
    upper = [w.upper() for w in words]
    if "INCOLNAMES" not in upper:
        raise CaseError(f'line {k_names}: the variable "InColNames" was not found',
                        file=src, field="InColNames")  # fmt: skip
    names = words[: upper.index("INCOLNAMES")]
    # AeroDisk's NumColNamesGiven: the last position of a known name (unknown names after it are
    # not columns)
    known_at = [j for j, n in enumerate(names) if n.upper() in {v.upper() for v in VARIABLES}]
    names = names[: known_at[-1] + 1] if known_at else names
    k_dims, line = take("InColDims")
    dwords = _words(line, 6)
    dupper = [w.upper() for w in dwords]
    if "INCOLDIMS" not in dupper:
        raise CaseError(f'line {k_dims}: the variable "InColDims" was not found',
                        file=src, field="InColDims")  # fmt: skip
    dims = []
    for j, w in enumerate(dwords[: dupper.index("INCOLDIMS")]):
        try:
            dims.append(int(w))
        except ValueError:
            raise CaseError(f"line {k_dims}: could not read the count of column {j + 1} "
                            f"from {w!r}", file=src, field="InColDims") from None  # fmt: skip
    if len(dims) < len(names):
        raise CaseError(f"line {k_dims}: {len(dims)} counts for the {len(names)} columns of "
                        f"InColNames (line {k_names})", file=src, field="InColDims")  # fmt: skip
    known = [n for n in names if n.upper() in {v.upper() for v in VARIABLES}]
    if not known:
        raise CaseError(f'line {k_names}: InColNames names none of the columns "TSR", "RtSpd", '
                        f'"VRel", "Skew", "Pitch"', file=src, field="InColNames")  # fmt: skip
    n_rows = 1
    for n, d in zip(names, dims):
        if n.upper() in {v.upper() for v in VARIABLES} and d < 0:
            raise CaseError(f"line {k_dims}: the count of {n} must be >= 0, got {d}", file=src,
                            field="InColDims")  # fmt: skip
        if n.upper() in {v.upper() for v in VARIABLES}:
            n_rows *= max(d, 1)
    take("the first table header line")
    take("the second table header line")
    n_cols = len(names) + 6
    rows, at = [], []
    for i in range(n_rows):
        k, line = take(f"table row {i + 1} of {n_rows} (the product of InColDims)")
        try:
            nums = [float(w.replace("d", "e").replace("D", "e")) for w in line.split()[:n_cols]]
        except ValueError:
            nums = []
        if len(nums) < n_cols or not all(math.isfinite(x) for x in nums):
            raise CaseError(f"line {k}: could not read table row {i + 1}: expecting {n_rows} rows "
                            f"of {n_cols} numbers ({', '.join(names)} and "
                            f"{', '.join(_COEFFICIENTS)}), got {line.strip()!r}",
                            file=src)  # fmt: skip
        rows.append(nums)
        at.append(k)
    if pos < len(lines):
        k, line = lines[pos]
        try:
            [float(w) for w in line.split()[:n_cols]]
            extra = len(line.split()) >= n_cols
        except ValueError:
            extra = False
        if extra:
            raise CaseError(f"line {k}: more table rows than the product of InColDims "
                            f"({n_rows}); expected the OUTPUTS section line", file=src,
                            field="InColDims")  # fmt: skip
    table = aerodisk_table(names, dims[: len(names)], rows, source=src, lines=at)
    outlist: list[str] = []
    if pos < len(lines):
        take("the OUTPUTS section line")
        if pos < len(lines):
            take("OutList")
        while pos < len(lines):
            k, line = take("END")
            s = line.strip()
            if s.upper().startswith("END"):
                break
            outlist += [w for w in _WORDS.findall(s.split(" - ")[0])]
    return AeroDiskFile(path=src, echo=echo, dt=dt, air_density=rho, rotor_radius=radius,
                        table=table, outlist=tuple(outlist))  # fmt: skip


def write_aerodisk(path, *, tsr, pitch_deg, ct, cq, rotor_radius=None, air_density=None,
                   title: str = "AeroDisk table written by floatwind") -> pathlib.Path:  # fmt: skip
    """Write an AeroDisk input file from a rotor-performance table over tip-speed ratio and
    pitch (a ROSCO ``Cp_Ct_Cq`` table, or floatwind's steady BEM): ``ct`` and ``cq`` (n_tsr,
    n_pitch) become ``C_Fx`` and ``C_Mx`` (AeroDisk's thrust and torque coefficients, the same
    definitions: T / (0.5 rho A V^2), Q / (0.5 rho A V^2 R)), the other four 0; no Skew column,
    so AeroDisk scales by cos^2(skew). ``rotor_radius`` / ``air_density`` None: ``"default"``.
    The file reads back with :func:`read_aerodisk`."""
    tsr = np.asarray(tsr, dtype=float).ravel()
    pitch = np.asarray(pitch_deg, dtype=float).ravel()
    ct = np.asarray(ct, dtype=float).reshape(tsr.size, pitch.size)
    cq = np.asarray(cq, dtype=float).reshape(tsr.size, pitch.size)

    def opt(v):
        return '"default"' if v is None else f"{float(v):.10g}"

    lines = [
        "--- AERO DISK INPUT FILE -------",
        title,
        "--- SIMULATION CONTROL ---------",
        "False         Echo            - Echo input data to <RootName>.ADsk.ech (flag)",
        '"default"     DT              - Integration time step (s)',
        "--- ENVIRONMENTAL CONDITIONS ---",
        f'{opt(air_density):<13} AirDens         - Air density (kg/m^3) (or "default")',
        "--- ACTUATOR DISK PROPERTIES ---",
        f'{opt(rotor_radius):<13} RotorRad        - Rotor radius (m) (or "default")',
        '"TSR,Pitch"   InColNames      - Input column headers (string)',
        f"{tsr.size},{pitch.size}{'':<9} InColDims       - Number of unique values in each column",
        "TSR           Pitch         C_Fx          C_Fy          C_Fz          C_Mx          "
        "C_My          C_Mz",
        "(-)           (deg)         (-)           (-)           (-)           (-)           "
        "(-)           (-)",
    ]
    for j, p in enumerate(pitch):
        for i, t in enumerate(tsr):
            vals = (t, p, ct[i, j], 0.0, 0.0, cq[i, j], 0.0, 0.0)
            lines.append("  ".join(f"{v:<12.8g}" for v in vals))
    lines += [
        "--- OUTPUTS --------------------",
        "              OutList         - The next line(s) contains a list of output parameters",
        'END of input file (the word "END" must appear in the first 3 columns of this line)',
        "--------------------------------",
    ]
    path = pathlib.Path(path)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
