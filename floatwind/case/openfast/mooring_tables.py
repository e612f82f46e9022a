"""Tables of MAP++ and MoorDyn input files: the rows under ``---- TITLE ----`` lines, their
header/units lines and numbers (the helpers both readers share: :mod:`.mooring` for MAP++ and
the quasi-static reading, :mod:`.moordyn_file` for MoorDyn's files). Every error is a
:class:`floatwind.errors.CaseError` naming the file and the field."""

from __future__ import annotations

import math
import pathlib

from floatwind.errors import CaseError

__all__ = ["_data_rows", "_find", "_is_number", "_num", "_read_text", "_sections", "_table"]


def _read_text(path: pathlib.Path) -> list[str]:
    if not path.is_file():
        raise CaseError("mooring input file not found", file=str(path))
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")  # MAP++ files carry a non-ASCII 'm^3' unit
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _sections(lines: list[str]) -> dict[str, list[tuple[int, list[str]]]]:
    """{SECTION TITLE (upper case): [(line number, tokens), ...]} of the rows below each
    ``---- TITLE ----`` line (blank lines and ``#`` comments dropped)."""
    out: dict[str, list[tuple[int, list[str]]]] = {}
    current = None
    for n, line in enumerate(lines, start=1):
        s = line.strip()
        if s.startswith("--"):
            title = s.strip("-").strip().upper()
            if not title:
                current = None
                continue
            if "THE END" in title or title.startswith("END"):
                current = None
                continue
            current = title
            out[current] = []
            continue
        if current is None or not s or s.startswith(("#", "!", "%")):
            continue  # MoorDyn's comment characters (its docs, "Input file": !, #, %)
        out[current].append((n, s.split()))
    return out


def _find(secs: dict, keys: tuple[str, ...], file: str, required: bool = True):
    for title, rows in secs.items():
        if any(k in title for k in keys):
            return rows
    if required:
        raise CaseError(f"section '{keys[0]}' not found", field=keys[0], file=file)
    return []


def _num(tok: str, file: str, field: str, *, depth: float | None = None) -> float:
    if depth is not None and tok.lower() == "depth":
        return -float(depth)
    try:
        v = float(tok.replace("D", "E").replace("d", "e"))
    except ValueError:
        raise CaseError(f"expected a number, got {tok!r}", field=field, file=file) from None
    if not math.isfinite(v):
        raise CaseError(f"expected a finite number, got {tok!r}", field=field, file=file)
    return v


def _table(rows, first_numeric: int):
    """(header tokens or None, data rows) of a section: the header and units lines come first
    and their column ``first_numeric`` is not a number. Only the column names (the first such
    line), a units line (every entry in parentheses) and v1 count rows (``3 NLines``) are
    skipped: any other line is data, so a row with a word where its number belongs is refused
    by the reader naming its line instead of vanishing as a header (issue 42)."""
    header, data = None, []
    for n, toks in rows:
        if not data and (len(toks) <= first_numeric or not _is_number(toks[first_numeric])):
            if header is None:
                if not _is_number(toks[0]):
                    header = toks
                continue  # the column names, or a v1 count row ("3 NLines") above them
            if all(t[:1] in "([" and t[-1:] in ")]" for t in toks):
                continue  # the units line
        data.append((n, toks))
    return header, data


def _data_rows(rows, first_numeric: int):
    """Rows that are data (skip the header and units lines, :func:`_table`)."""
    return _table(rows, first_numeric)[1]


def _is_number(tok: str) -> bool:
    try:
        float(tok.replace("D", "E").replace("d", "e"))
        return True
    except ValueError:
        return tok.lower() == "depth"
