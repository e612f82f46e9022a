"""OpenFAST time-series output files: ``.out`` (text) and ``.outb`` (binary).

Readers return an :class:`xarray.Dataset` with one dimension ``time`` (s) and one variable per
channel; writers take such a Dataset. The layouts are those of OpenFAST's NWTC library
(``WrBinFAST`` for the binary file, the glue code's tabular text writer for ``.out``); the page
``docs/openfast_output_format.md`` describes both byte by byte and states the unit rule used when
writing.

Public functions
----------------
read_out(path) -> Dataset
read_outb(path) -> Dataset
read_openfast_output(path) -> Dataset          (dispatch on the extension)
write_out(path, ds, *, description=None, fast_units=True, ...)
write_outb(path, ds, *, description=None, file_id=3, fast_units=True, ...)
to_fast_units(ds) -> Dataset                   (the SI -> FAST unit rule on its own)

Variables read from a file keep the units written in the file (FAST's units: deg, kN, kN-m, rpm,
...), with the parentheses removed; convert them with :func:`from_fast_units` if SI is wanted.
"""

from __future__ import annotations

import datetime as _dt
import enum
import logging
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from floatwind.errors import CaseError

if TYPE_CHECKING:
    import xarray as xr

__all__ = [
    "FileFmtID",
    "OutputFileError",
    "channel_tokens",
    "from_fast_units",
    "outb_file_id",
    "read_openfast_output",
    "read_out",
    "read_outb",
    "to_fast_units",
    "unit_token",
    "write_out",
    "write_outb",
]

logger = logging.getLogger(__name__)


class OutputFileError(CaseError):
    """An OpenFAST output file that is truncated, malformed or cannot be written as asked.

    The message names the file, the part of the file (``field``) and the problem.
    """


class FileFmtID(enum.IntEnum):
    """The ``FileID`` (first int16) of an OpenFAST binary output file (NWTC_IO ``FileFmtID_*``)."""

    WITH_TIME = 1
    """int16-compressed channels; time stored as int32 with its own scale and offset."""
    WITHOUT_TIME = 2
    """int16-compressed channels; constant time step (first time and increment stored)."""
    NO_COMPRESS_WITHOUT_TIME = 3
    """float64 channels, not compressed; constant time step."""
    CHANLEN_IN = 4
    """As WITHOUT_TIME, but the length of the name/unit strings is stored (int16) after FileID."""


# Default length of the channel-name and unit strings in binary files with FileID 1, 2, 3.
_DEFAULT_CHANLEN = 10
# int16 packing range of WrBinFAST (IntMax, IntMin): 65535 levels.
_INT16_MIN = -32768.0
_INT16_MAX = 32767.0
# Time packing for FileID 1. OpenFAST uses +-65536 (its "Int32Max/Min" constants); floatwind uses
# nearly the full int32 range. Any reader decodes both, since scale and offset are in the file.
_INT32_MIN = -2147483647.0
_INT32_MAX = 2147483647.0

# --------------------------------------------------------------------------------------------------
# unit rule (SI -> FAST)
# --------------------------------------------------------------------------------------------------

_DEG_PER_RAD = 180.0 / np.pi
_RPM_PER_RAD_S = 60.0 / (2.0 * np.pi)

# SI unit (normalised spelling) -> (FAST unit, factor): value_FAST = factor * value_SI.
_SI_TO_FAST: dict[str, tuple[str, float]] = {
    "rad": ("deg", _DEG_PER_RAD),
    "rad/s": ("deg/s", _DEG_PER_RAD),
    "rad/s^2": ("deg/s^2", _DEG_PER_RAD),
    "N": ("kN", 1.0e-3),
    "N-m": ("kN-m", 1.0e-3),
    "W": ("kW", 1.0e-3),
}
# Channels that OpenFAST writes in rpm although their SI unit is rad/s.
_RPM_CHANNELS = frozenset({"RotSpeed", "GenSpeed", "LSSTipVxa", "LSSGagVxa", "HSShftV", "ADSpeed"})
# Channel-name prefixes whose forces and moments OpenFAST writes in N and N-m (HydroDyn, MoorDyn),
# not kN.
_NEWTON_PREFIXES = ("Hydro", "FAIRTEN", "ANCHTEN", "FairTen", "AnchTen")


_UNIT_ALIASES = {
    "N*m": "N-m",
    "N.m": "N-m",
    "N m": "N-m",
    "Nm": "N-m",
    "kN*m": "kN-m",
    "kN.m": "kN-m",
    "kN m": "kN-m",
    "kNm": "kN-m",
    "rad/s2": "rad/s^2",
    "deg/s2": "deg/s^2",
    "m/s2": "m/s^2",
    "rad/s**2": "rad/s^2",
    "deg/s**2": "deg/s^2",
    "m/s**2": "m/s^2",
}


def _normalise_unit(unit: str) -> str:
    """Spelling-insensitive unit key: ``(N*m)``, ``N m``, ``Nm`` -> ``N-m``; ``rad/s2`` -> ``rad/s^2``."""
    u = unit.strip()
    if u.startswith("(") and u.endswith(")"):
        u = u[1:-1].strip()
    return _UNIT_ALIASES.get(u, u)


def _fast_unit_for(name: str, unit: str) -> tuple[str, float]:
    """FAST unit and factor for the SI channel ``name`` with units ``unit`` (see module rule)."""
    key = _normalise_unit(unit)
    if key == "rad/s" and name in _RPM_CHANNELS:
        return "rpm", _RPM_PER_RAD_S
    if key in ("N", "N-m", "W") and name.startswith(_NEWTON_PREFIXES):
        return key, 1.0
    if key in _SI_TO_FAST:
        return _SI_TO_FAST[key]
    return unit.strip(), 1.0


def to_fast_units(ds: xr.Dataset) -> xr.Dataset:
    """Return a copy of ``ds`` whose channels are in the units OpenFAST writes.

    Rule (applied per variable, keyed on its ``units`` attribute; anything else is unchanged):

    * ``rad`` -> ``deg``; ``rad/s`` -> ``deg/s`` (``rpm`` for RotSpeed, GenSpeed, LSSTipVxa,
      LSSGagVxa, HSShftV, ADSpeed); ``rad/s^2`` -> ``deg/s^2``;
    * ``N`` -> ``kN``; ``N-m`` (also spelt ``N*m``, ``N m``, ``Nm``) -> ``kN-m``; ``W`` -> ``kW``;
    * except channels whose names start with ``Hydro``, ``FAIRTEN``, ``ANCHTEN``, ``FairTen`` or
      ``AnchTen``: OpenFAST writes HydroDyn and mooring loads in N and N-m, so those keep N and N-m.

    Variables already in FAST units (deg, kN, ...) are not touched, so the function is idempotent.

    Parameters
    ----------
    ds : xarray.Dataset
        Channels with a ``units`` attribute (SI inside floatwind).

    Returns
    -------
    xarray.Dataset
        A new Dataset; ``units`` attributes updated.
    """
    out = ds.copy()
    for name, var in ds.data_vars.items():
        unit = str(var.attrs.get("units", ""))
        fast_unit, factor = _fast_unit_for(str(name), unit)
        if factor != 1.0 or fast_unit != unit:
            new = var * factor if factor != 1.0 else var.copy()
            new.attrs = dict(var.attrs)
            new.attrs["units"] = fast_unit
            out[name] = new
    return out


def from_fast_units(ds: xr.Dataset) -> xr.Dataset:
    """Return a copy of ``ds`` with FAST units (deg, rpm, kN, kN-m, kW) converted to SI.

    The inverse of :func:`to_fast_units`: ``deg`` -> ``rad``, ``deg/s`` and ``rpm`` -> ``rad/s``,
    ``deg/s^2`` -> ``rad/s^2``, ``kN`` -> ``N``, ``kN-m`` -> ``N-m``, ``kW`` -> ``W``.

    Parameters
    ----------
    ds : xarray.Dataset
        Channels with FAST ``units`` attributes (as returned by :func:`read_out`).

    Returns
    -------
    xarray.Dataset
    """
    inverse = {
        "deg": ("rad", 1.0 / _DEG_PER_RAD),
        "deg/s": ("rad/s", 1.0 / _DEG_PER_RAD),
        "deg/s^2": ("rad/s^2", 1.0 / _DEG_PER_RAD),
        "rpm": ("rad/s", 1.0 / _RPM_PER_RAD_S),
        "kN": ("N", 1.0e3),
        "kN-m": ("N-m", 1.0e3),
        "kW": ("W", 1.0e3),
    }
    out = ds.copy()
    for name, var in ds.data_vars.items():
        key = _normalise_unit(str(var.attrs.get("units", "")))
        if key in inverse:
            si_unit, factor = inverse[key]
            new = var * factor
            new.attrs = dict(var.attrs)
            new.attrs["units"] = si_unit
            out[name] = new
    return out


# --------------------------------------------------------------------------------------------------
# building the Dataset
# --------------------------------------------------------------------------------------------------


def _strip_units(unit: str) -> str:
    u = unit.strip()
    if u.startswith("(") and u.endswith(")"):
        u = u[1:-1]
    elif u.startswith("["):
        u = u.strip("[]")
    return u.strip()


def _make_dataset(
    names: Sequence[str],
    units: Sequence[str],
    time: np.ndarray,
    data: np.ndarray,
    attrs: dict,
    path: Path,
) -> xr.Dataset:
    """Dataset from the time vector (nt,) and the channel matrix (nt, nchan) without time."""
    import xarray as xr

    data_vars = {}
    seen: dict[str, int] = {}
    for j, (name, unit) in enumerate(zip(names, units)):
        key = name
        if key in seen or key == "time":
            seen[name] = seen.get(name, 1) + 1
            key = f"{name}_{seen[name]}"
            logger.warning("%s: duplicate channel name %r stored as %r", path, name, key)
        else:
            seen[name] = 1
        data_vars[key] = xr.Variable(
            ("time",), data[:, j], attrs={"units": unit, "long_name": name}
        )
    coords = {"time": xr.Variable(("time",), time, attrs={"units": "s", "long_name": "Time"})}
    ds = xr.Dataset(data_vars=data_vars, coords=coords, attrs=attrs)
    return ds


# --------------------------------------------------------------------------------------------------
# text .out
# --------------------------------------------------------------------------------------------------

_DESC_PREFIX = "Description from the FAST input file:"


def _split_header(line: str) -> list[str]:
    if "\t" in line:
        return [tok.strip() for tok in line.strip("\r\n").split("\t") if tok.strip()]
    return line.split()


def read_out(path: str | Path) -> xr.Dataset:
    """Read an OpenFAST text output file (``.out``).

    The file has free header lines, a channel-name line whose first name is ``Time``, a units
    line in parentheses (optional) and one row of values per output time (tab- or
    space-separated).

    Parameters
    ----------
    path : str or pathlib.Path
        The ``.out`` file.

    Returns
    -------
    xarray.Dataset
        Dimension ``time`` (s); one float64 variable per channel with attrs ``units`` (as in the
        file, parentheses removed, e.g. ``deg``) and ``long_name``. Global attrs: ``description``
        (the header lines, joined by blanks), ``input_description`` (the text after
        "Description from the FAST input file:" when present), ``source_format`` = ``"out"``,
        ``source_file``.

    Raises
    ------
    OutputFileError
        No ``Time`` header line, a row with the wrong number of values (truncated file), or a value
        that is not a number.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="latin-1")
    except OSError as exc:
        raise OutputFileError(f"cannot read the file ({exc})", file=str(path)) from exc
    lines = text.splitlines()

    i_names = None
    for i, line in enumerate(lines[:200]):
        toks = line.split()
        if toks and toks[0].lower() == "time":
            i_names = i
            break
    if i_names is None:
        raise OutputFileError(
            "no channel-name line starting with 'Time' in the first 200 lines; "
            "not an OpenFAST text output file",
            field="header",
            file=str(path),
        )
    header = [ln.strip() for ln in lines[:i_names] if ln.strip()]
    names = _split_header(lines[i_names])
    n_chan = len(names)

    i_data = i_names + 1
    units = [""] * n_chan
    if i_data < len(lines) and lines[i_data].strip().startswith("("):
        units = [_strip_units(u) for u in _split_header(lines[i_data])]
        if len(units) != n_chan:
            raise OutputFileError(
                f"units line (line {i_data + 1}) has {len(units)} entries for {n_chan} channels",
                field="units",
                file=str(path),
            )
        i_data += 1

    rows = lines[i_data:]
    while rows and not rows[-1].strip():
        rows.pop()
    values: list[str] = []
    for k, row in enumerate(rows):
        toks = row.split()
        if len(toks) != n_chan:
            raise OutputFileError(
                f"line {i_data + k + 1} has {len(toks)} values, expected {n_chan} "
                f"(file truncated or malformed)",
                field="data",
                file=str(path),
            )
        values.extend(toks)
    try:
        table = np.array(values, dtype=np.float64).reshape(len(rows), n_chan)
    except ValueError as exc:
        bad = next((v for v in values if not _is_float(v)), "?")
        raise OutputFileError(
            f"value {bad!r} is not a number", field="data", file=str(path)
        ) from exc

    attrs = {
        "description": " ".join(header),
        "source_format": "out",
        "source_file": str(path),
    }
    desc = next((h for h in header if h.startswith(_DESC_PREFIX)), None)
    if desc is not None:
        attrs["input_description"] = desc[len(_DESC_PREFIX) :].strip()
    return _make_dataset(names[1:], units[1:], table[:, 0], table[:, 1:], attrs, path)


def _is_float(tok: str) -> bool:
    try:
        float(tok)
    except ValueError:
        return False
    return True


# Non-ASCII characters that appear in unit strings, and their ASCII spelling.
_ASCII_UNITS = {"\u00b0": "deg", "\u00b2": "^2", "\u00b3": "^3", "\u00b7": "-", "\u00b5": "u"}


def _ascii(text: str) -> str:
    """``text`` with the characters above spelled in ASCII and any other non-ASCII one as ``?``
    (OpenFAST's readers open the files as ASCII/UTF-8 text)."""
    for k, v in _ASCII_UNITS.items():
        text = text.replace(k, v)
    return text.encode("ascii", errors="replace").decode("ascii")


def unit_token(unit: str) -> str:
    """The unit as one whitespace-free token, as OpenFAST writes units: ``kg m^2/s`` ->
    ``kg-m^2/s``, ``N m`` and ``N*m`` -> ``N-m``, an empty unit -> ``-``; parentheses around the
    unit are dropped (the writers add their own)."""
    u = _ascii(_normalise_unit(unit))
    u = "-".join(u.replace("*", " ").replace("(", " ").replace(")", " ").split())
    return u or "-"


def channel_tokens(names: Sequence[str]) -> list[str]:
    """Channel names as OpenFAST-readable header tokens: ASCII, white space and parentheses
    replaced by ``_``, ``Time`` reserved for the time column, and unique (a repeated name gets
    ``_2``, ``_3``, ... as :func:`read_out` does)."""
    out: list[str] = []
    taken = {"time"}
    for j, name in enumerate(names):
        tok = "_".join(_ascii(str(name)).replace("(", " ").replace(")", " ").split())
        base = tok or f"Chan{j + 1}"
        tok, k = base, 1
        while tok.lower() in taken:
            k += 1
            tok = f"{base}_{k}"
        taken.add(tok.lower())
        out.append(tok)
    return out


def _channels_for_writing(
    ds: xr.Dataset, channels: Sequence[str] | None, fast_units: bool, path: Path
) -> tuple[np.ndarray, list[str], list[str], np.ndarray]:
    """time (nt,), names and units as file tokens (:func:`channel_tokens`, :func:`unit_token`)
    and data (nt, nchan) of the channels to write."""
    if "time" not in ds.coords and "time" not in ds.variables:
        raise OutputFileError("the Dataset has no 'time' coordinate", field="time", file=str(path))
    time = np.asarray(ds["time"].values)
    if not np.issubdtype(time.dtype, np.number):
        raise OutputFileError(
            f"'time' must be numeric seconds, got dtype {time.dtype}", field="time", file=str(path)
        )
    time = time.astype(np.float64)
    names = (
        list(channels) if channels is not None else [str(n) for n in ds.data_vars if n != "time"]
    )
    missing = [n for n in names if n not in ds.data_vars]
    if missing:
        raise OutputFileError(
            f"channels not in the Dataset: {missing}", field="channels", file=str(path)
        )
    units: list[str] = []
    cols: list[np.ndarray] = []
    for n in names:
        # per variable, the rule of to_fast_units (without copying the Dataset: this also writes
        # the light result of ``floatwind run``, floatwind.io.result.Result)
        var = ds[n]
        unit = str(var.attrs.get("units", ""))
        vals = var.values
        if fast_units:
            fast_unit, factor = _fast_unit_for(str(n), unit)
            if factor != 1.0:
                vals = vals * factor
            unit = fast_unit
        if var.dims != ("time",):
            raise OutputFileError(
                f"channel {n!r} has dims {var.dims}; an OpenFAST file holds one time series per "
                "channel (select one realization/case first, e.g. ds.isel(realization=0))",
                field=n,
                file=str(path),
            )
        units.append(unit_token(unit))
        cols.append(np.asarray(vals, dtype=np.float64))
    data = np.column_stack(cols) if cols else np.zeros((time.size, 0))
    return time, channel_tokens(names), units, data


def _default_description(ds: xr.Dataset) -> str:
    for key in ("input_description", "title", "description"):
        if ds.attrs.get(key):
            return str(ds.attrs[key])
    return "floatwind output"


def _generated_line() -> str:
    from floatwind import __version__

    now = _dt.datetime.now()
    return (
        f"Predictions were generated on {now.strftime('%d-%b-%Y')} at {now.strftime('%H:%M:%S')} "
        f"using floatwind {__version__}"
    )


def write_out(
    path: str | Path,
    ds: xr.Dataset,
    *,
    description: str | None = None,
    fast_units: bool = True,
    channels: Sequence[str] | None = None,
    value_format: str = "15.7E",
    time_decimals: int | None = None,
    tab_delimited: bool = True,
) -> Path:
    """Write ``ds`` as an OpenFAST-style text output file (``.out``).

    Layout (as OpenFAST's glue code writes it): a blank line; "Predictions were generated on ...";
    a "linked with" line; a blank line; "Description from the FAST input file: <description>";
    a blank line; the channel names (``Time`` first); the units in parentheses; one row per output
    time. Time is written as ``F10.4`` (more decimals when the times need them), the other channels
    with ``value_format`` (default ``15.7E``, i.e. OpenFAST's ``ES15.7E2``), tab-separated.

    Parameters
    ----------
    path : str or pathlib.Path
        Output file.
    ds : xarray.Dataset
        ``time`` coordinate in s and 1-D channels along ``time`` with ``units`` attrs.
    description : str, optional
        Text of the description line (default: ``ds.attrs['input_description']``, ``'title'`` or
        ``'description'``).
    fast_units : bool, default True
        Convert SI units to the units OpenFAST writes with :func:`to_fast_units` (rad -> deg,
        rad/s -> deg/s or rpm, N -> kN, N-m -> kN-m, W -> kW; HydroDyn/mooring loads stay in N).
    channels : sequence of str, optional
        Channels to write, in order (default: every data variable).
    value_format : str, default "15.7E"
        Python format spec of one value.
    time_decimals : int, optional
        Decimals of the time column (default: 4, or as many as needed, up to 9, to print every
        time exactly to 1e-9 s).
    tab_delimited : bool, default True
        Tab-separated columns (OpenFAST ``TabDelim = True``); otherwise blanks.

    Returns
    -------
    pathlib.Path
        The file written.

    Raises
    ------
    OutputFileError
        No numeric ``time``, unknown channel, or a channel with more than the ``time`` dimension.
    """
    path = Path(path)
    time, names, units, data = _channels_for_writing(ds, channels, fast_units, path)
    if description is None:
        description = _default_description(ds)
    if time_decimals is None:
        time_decimals = 4
        while time_decimals < 9 and np.any(
            np.abs(np.round(time, time_decimals) - time) > 1e-9 * max(1.0, np.abs(time).max())
        ):
            time_decimals += 1
    delim = "\t" if tab_delimited else " "
    width = max(10, time_decimals + 6)
    tfmt = f"{{:{width}.{time_decimals}f}}"
    vfmt = f"{{:{value_format}}}"
    out: list[str] = [
        "",
        _generated_line(),
        " linked with floatwind",
        "",
        f"{_DESC_PREFIX} {' '.join(_ascii(description).split())}",
        "",
        delim.join(["Time", *names]),
        delim.join(["(s)", *[f"({u})" for u in units]]),
    ]
    for k in range(time.size):
        out.append(delim.join([tfmt.format(time[k]), *[vfmt.format(v) for v in data[k]]]))
    path.write_text("\n".join(out) + "\n", encoding="ascii")
    logger.info("wrote %s (%d channels, %d times)", path, len(names), time.size)
    return path


# --------------------------------------------------------------------------------------------------
# binary .outb
# --------------------------------------------------------------------------------------------------


class _Reader:
    """Little-endian cursor over the bytes of a binary file, with truncation errors."""

    def __init__(self, buf: bytes, path: Path):
        self.buf = buf
        self.pos = 0
        self.path = path

    def take(self, nbytes: int, what: str) -> bytes:
        if nbytes < 0 or self.pos + nbytes > len(self.buf):
            raise OutputFileError(
                f"file truncated: {what} needs {nbytes} bytes at offset {self.pos}, "
                f"only {len(self.buf) - self.pos} left (file size {len(self.buf)} bytes)",
                field=what,
                file=str(self.path),
            )
        out = self.buf[self.pos : self.pos + nbytes]
        self.pos += nbytes
        return out

    def scalar(self, fmt: str, what: str):
        return struct.unpack("<" + fmt, self.take(struct.calcsize(fmt), what))[0]

    def array(self, dtype: str, count: int, what: str) -> np.ndarray:
        dt = np.dtype(dtype).newbyteorder("<")
        return np.frombuffer(self.take(dt.itemsize * count, what), dtype=dt, count=count)


def read_outb(path: str | Path) -> xr.Dataset:
    """Read an OpenFAST binary output file (``.outb``), any FileID 1-4.

    Layout (little endian; NWTC_IO ``WrBinFAST``): int16 FileID; [int16 ChanLen if FileID = 4];
    int32 NumOutChans (without time); int32 NT; float64 TimeScl and TimeOff (FileID 1) or
    float64 TimeOut1 and TimeIncrement (2, 3, 4); [float32 ColScl(NumOutChans) and
    float32 ColOff(NumOutChans) unless FileID = 3]; int32 LenDesc and LenDesc bytes of description;
    (NumOutChans+1) names and as many units of ChanLen bytes each (ChanLen = 10 unless FileID = 4),
    time first; [int32 time(NT) if FileID = 1]; the channels, time-major: int16 (NT, NumOutChans)
    or float64 for FileID 3. Decoding: value = (packed - ColOff) / ColScl,
    time = (packed_time - TimeOff) / TimeScl (FileID 1) or TimeOut1 + k TimeIncrement.

    Parameters
    ----------
    path : str or pathlib.Path
        The ``.outb`` file.

    Returns
    -------
    xarray.Dataset
        As :func:`read_out`; global attrs ``description`` (the stored description string),
        ``input_description`` (when the description contains OpenFAST's "Description from the FAST
        input file:"), ``source_format`` = ``"outb"``, ``file_format_id`` and ``source_file``.

    Raises
    ------
    OutputFileError
        Unknown FileID, impossible counts, a file shorter than its header says (truncated) or with
        bytes left over after the data.
    """
    path = Path(path)
    try:
        buf = path.read_bytes()
    except OSError as exc:
        raise OutputFileError(f"cannot read the file ({exc})", file=str(path)) from exc
    r = _Reader(buf, path)
    file_id = r.scalar("h", "FileID")
    if file_id not in {f.value for f in FileFmtID}:
        raise OutputFileError(
            f"FileID = {file_id} is not an OpenFAST binary output format (expected 1, 2, 3 or 4)",
            field="FileID",
            file=str(path),
        )
    fid = FileFmtID(file_id)
    chan_len = r.scalar("h", "ChanLen") if fid == FileFmtID.CHANLEN_IN else _DEFAULT_CHANLEN
    if chan_len <= 0:
        raise OutputFileError(
            f"ChanLen = {chan_len} must be positive", field="ChanLen", file=str(path)
        )
    n_chan = r.scalar("i", "NumOutChans")
    nt = r.scalar("i", "NT")
    if n_chan < 0 or nt < 0:
        raise OutputFileError(
            f"negative counts NumOutChans = {n_chan}, NT = {nt}",
            field="NumOutChans",
            file=str(path),
        )
    bytes_per_value = 8 if fid == FileFmtID.NO_COMPRESS_WITHOUT_TIME else 2
    if n_chan * nt * bytes_per_value > len(buf):
        raise OutputFileError(
            f"header announces {n_chan} channels x {nt} times, more than the file's {len(buf)} "
            "bytes can hold (file truncated or not an OpenFAST binary file)",
            field="NT",
            file=str(path),
        )
    if fid == FileFmtID.WITH_TIME:
        time_scl = r.scalar("d", "TimeScl")
        time_off = r.scalar("d", "TimeOff")
        if time_scl == 0.0:
            raise OutputFileError("TimeScl = 0", field="TimeScl", file=str(path))
    else:
        time_out1 = r.scalar("d", "TimeOut1")
        time_incr = r.scalar("d", "TimeIncrement")
    if fid != FileFmtID.NO_COMPRESS_WITHOUT_TIME:
        col_scl = r.array("f4", n_chan, "ColScl").astype(np.float64)
        col_off = r.array("f4", n_chan, "ColOff").astype(np.float64)
        if np.any(col_scl == 0.0):
            raise OutputFileError(
                f"ColScl = 0 for channel(s) {np.flatnonzero(col_scl == 0.0).tolist()}",
                field="ColScl",
                file=str(path),
            )
    len_desc = r.scalar("i", "LenDesc")
    if len_desc < 0:
        raise OutputFileError(f"LenDesc = {len_desc} is negative", field="LenDesc", file=str(path))
    desc = r.take(len_desc, "DescStr").decode("latin-1").strip()
    raw_names = r.take((n_chan + 1) * chan_len, "ChanName")
    raw_units = r.take((n_chan + 1) * chan_len, "ChanUnit")
    names = [
        raw_names[k * chan_len : (k + 1) * chan_len].decode("latin-1").strip()
        for k in range(n_chan + 1)
    ]
    units = [
        _strip_units(raw_units[k * chan_len : (k + 1) * chan_len].decode("latin-1"))
        for k in range(n_chan + 1)
    ]
    if fid == FileFmtID.WITH_TIME:
        packed_time = r.array("i4", nt, "time data").astype(np.float64)
        time = (packed_time - time_off) / time_scl
    else:
        time = time_out1 + time_incr * np.arange(nt, dtype=np.float64)
    if fid == FileFmtID.NO_COMPRESS_WITHOUT_TIME:
        data = r.array("f8", nt * n_chan, "channel data").reshape(nt, n_chan).astype(np.float64)
    else:
        packed = r.array("i2", nt * n_chan, "channel data").reshape(nt, n_chan).astype(np.float64)
        data = (packed - col_off) / col_scl
    if r.pos != len(buf):
        raise OutputFileError(
            f"{len(buf) - r.pos} bytes left after the data (expected file size {r.pos} bytes); "
            "malformed file",
            field="data",
            file=str(path),
        )
    attrs = {
        "description": desc,
        "source_format": "outb",
        "file_format_id": int(fid),
        "source_file": str(path),
    }
    k = desc.find(_DESC_PREFIX)
    if k >= 0:
        attrs["input_description"] = desc[k + len(_DESC_PREFIX) :].strip()
    return _make_dataset(names[1:], units[1:], time, data, attrs, path)


def _pack_int16(data: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """WrBinFAST int16 packing of (nt, nchan) data: (packed int16, ColScl f4, ColOff f4)."""
    int_rng = np.float32(_INT16_MAX - _INT16_MIN)
    if data.shape[0] == 0:
        cmin = np.zeros(data.shape[1])
        cmax = np.zeros(data.shape[1])
    else:
        cmin = data.min(axis=0)
        cmax = data.max(axis=0)
    span = (cmax - cmin).astype(np.float32)
    flat = span == 0.0
    scl = np.where(
        flat,
        int_rng / np.sqrt(np.finfo(np.float32).eps),
        int_rng / np.where(flat, np.float32(1.0), span),
    ).astype(np.float32)
    off = (np.float32(_INT16_MIN) - scl * cmin.astype(np.float32)).astype(np.float32)
    scaled = scl.astype(np.float64) * data + off.astype(np.float64)
    packed = np.rint(np.clip(scaled, _INT16_MIN, _INT16_MAX)).astype("<i2")
    return packed, scl.astype("<f4"), off.astype("<f4")


def outb_file_id(names: Sequence[str], units: Sequence[str]) -> FileFmtID:
    """The binary layout ``file_id = "auto"`` chooses for these channel-name and unit tokens:
    FileID 3 (float64, lossless, what OpenFAST v5 writes with ``OutFileFmt = 4``) when ``Time``,
    every name and every ``(unit)`` fit its fixed 10 characters; otherwise FileID 4 (ChanLen_In,
    OpenFAST's compressed ``OutFileFmt = 2`` layout, int16, names of any length), because FileID 3
    would cut the names (OpenFAST issue #1812) and make them ambiguous."""
    longest = max([4, *(len(n) for n in names), *(len(u) + 2 for u in units)])
    if longest <= _DEFAULT_CHANLEN:
        return FileFmtID.NO_COMPRESS_WITHOUT_TIME
    return FileFmtID.CHANLEN_IN


def write_outb(
    path: str | Path,
    ds: xr.Dataset,
    *,
    description: str | None = None,
    file_id: int | FileFmtID | str = FileFmtID.NO_COMPRESS_WITHOUT_TIME,
    fast_units: bool = True,
    channels: Sequence[str] | None = None,
) -> Path:
    """Write ``ds`` as an OpenFAST binary output file (``.outb``).

    The default, ``file_id = 3`` (NoCompressWithoutTime), stores float64 values and is lossless; it
    is what OpenFAST writes with ``OutFileFmt = 4`` or ``5``. ``file_id = 2`` and ``4`` pack each
    channel into int16 with OpenFAST's scale and offset (about 4.8 significant digits; 4 also
    stores the name length so names may exceed 10 characters), ``1`` additionally stores the time
    as int32 (for a non-uniform time step).

    Parameters
    ----------
    path : str or pathlib.Path
        Output file.
    ds : xarray.Dataset
        ``time`` coordinate in s and 1-D channels along ``time`` with ``units`` attrs.
    description : str, optional
        Description string stored in the file (default: built like OpenFAST's: generator line
        and "Description from the FAST input file: ..." from the Dataset attrs).
    file_id : int, FileFmtID or "auto", default 3
        Binary layout, 1 to 4 (see :class:`FileFmtID`); ``"auto"``: 3 when every name and unit
        fits 10 characters, else 4 (:func:`outb_file_id`).
    fast_units : bool, default True
        Convert SI units to FAST's units first (:func:`to_fast_units`).
    channels : sequence of str, optional
        Channels to write, in order (default: every data variable).

    Returns
    -------
    pathlib.Path
        The file written.

    Raises
    ------
    OutputFileError
        Unknown ``file_id``; a non-uniform time step with ``file_id`` 2, 3 or 4; a name or unit
        longer than 10 characters with ``file_id`` 1, 2 or 3; or the reasons of :func:`write_out`.
    """
    path = Path(path)
    time, names, units, data = _channels_for_writing(ds, channels, fast_units, path)
    if isinstance(file_id, str) and file_id == "auto":
        file_id = outb_file_id(names, units)
    try:
        fid = FileFmtID(int(file_id))
    except (TypeError, ValueError) as exc:
        raise OutputFileError(
            f"file_id = {file_id!r} is not 1, 2, 3, 4 or 'auto'", field="file_id", file=str(path)
        ) from exc
    nt, n_chan = data.shape
    if description is None:
        description = (
            f"{_generated_line()} linked with floatwind; {_DESC_PREFIX} "
            f"{' '.join(_default_description(ds).split())}"
        )
    all_names = ["Time", *names]
    all_units = ["(s)", *[f"({u})" for u in units]]
    longest = max(len(s) for s in all_names + all_units)
    if fid == FileFmtID.CHANLEN_IN:
        chan_len = max(1, longest)
    else:
        chan_len = _DEFAULT_CHANLEN
        if longest > chan_len:
            too_long = [s for s in all_names + all_units if len(s) > chan_len]
            raise OutputFileError(
                f"names/units longer than {chan_len} characters need file_id = 4: {too_long}",
                field="channels",
                file=str(path),
            )
    if fid != FileFmtID.WITH_TIME and nt > 1:
        dt = np.diff(time)
        if np.max(np.abs(dt - dt[0])) > 1e-9 * max(abs(dt[0]), 1.0) * max(1.0, np.abs(time).max()):
            raise OutputFileError(
                f"time step is not uniform ({dt.min():.9g} to {dt.max():.9g} s); "
                "use file_id = 1 (WithTime)",
                field="time",
                file=str(path),
            )
    parts: list[bytes] = [struct.pack("<h", int(fid))]
    if fid == FileFmtID.CHANLEN_IN:
        parts.append(struct.pack("<h", chan_len))
    parts.append(struct.pack("<ii", n_chan, nt))
    if fid == FileFmtID.WITH_TIME:
        tmin = float(time.min()) if nt else 0.0
        tmax = float(time.max()) if nt else 0.0
        time_scl = 1.0 if tmax == tmin else (_INT32_MAX - _INT32_MIN) / (tmax - tmin)
        time_off = _INT32_MIN - time_scl * tmin
        parts.append(struct.pack("<dd", time_scl, time_off))
    else:
        t0 = float(time[0]) if nt else 0.0
        dt0 = float(time[1] - time[0]) if nt > 1 else 0.0
        parts.append(struct.pack("<dd", t0, dt0))
    if fid != FileFmtID.NO_COMPRESS_WITHOUT_TIME:
        bad = [n for n, col in zip(names, data.T) if not np.all(np.isfinite(col))]
        if bad:
            raise OutputFileError(
                f"channels with NaN or infinite values cannot be packed into int16: {bad}; "
                "use file_id = 3",
                field="channels",
                file=str(path),
            )
        packed, scl, off = _pack_int16(data)
        parts.append(scl.tobytes())
        parts.append(off.tobytes())
    desc_bytes = _ascii(" ".join(description.split())).encode("ascii")
    parts.append(struct.pack("<i", len(desc_bytes)))
    parts.append(desc_bytes)
    parts.append("".join(s.ljust(chan_len) for s in all_names).encode("ascii"))
    parts.append("".join(s.ljust(chan_len) for s in all_units).encode("ascii"))
    if fid == FileFmtID.WITH_TIME:
        packed_time = np.rint(np.clip(time_scl * time + time_off, _INT32_MIN, _INT32_MAX)).astype(
            "<i4"
        )
        parts.append(packed_time.tobytes())
    if fid == FileFmtID.NO_COMPRESS_WITHOUT_TIME:
        parts.append(np.ascontiguousarray(data, dtype="<f8").tobytes())
    else:
        parts.append(np.ascontiguousarray(packed).tobytes())
    path.write_bytes(b"".join(parts))
    logger.info("wrote %s (FileID %d, %d channels, %d times)", path, int(fid), n_chan, nt)
    return path


# --------------------------------------------------------------------------------------------------
# dispatch
# --------------------------------------------------------------------------------------------------


def read_openfast_output(path: str | Path) -> xr.Dataset:
    """Read an OpenFAST output file, text or binary, chosen by the extension.

    ``.outb`` -> :func:`read_outb`; ``.out`` (and ``.elev``, ``.txt``) -> :func:`read_out`; any other
    extension: binary if the first two bytes are a valid FileID (1-4), text otherwise.

    Parameters
    ----------
    path : str or pathlib.Path

    Returns
    -------
    xarray.Dataset
    """
    path = Path(path)
    ext = path.suffix.lower()
    if ext == ".outb":
        return read_outb(path)
    if ext in (".out", ".elev", ".txt"):
        return read_out(path)
    try:
        with path.open("rb") as fh:
            head = fh.read(2)
    except OSError as exc:
        raise OutputFileError(f"cannot read the file ({exc})", file=str(path)) from exc
    if len(head) == 2 and struct.unpack("<h", head)[0] in {f.value for f in FileFmtID}:
        return read_outb(path)
    return read_out(path)
