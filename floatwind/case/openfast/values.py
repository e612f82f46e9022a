"""Words and DEFAULT where an OpenFAST deck's settings need numbers (issue 42, item 2).

OpenFAST reads every setting with a type: a number, a flag, or text (file names, output
formats, SeaState's ``WaveMod``/``WavePkShp``/``CurrSSDir``, ``WaveSeed(2) = RanLux``).
``WtrDens = water`` stops OpenFAST (``ParseVar``: "Invalid numerical input"); floatwind read it
as a string, and a setting it falls back on (the ``.fst`` environment: ``WtrDens``, ``WtrDpth``,
``Gravity``) silently became a default. :func:`check_values` walks every setting of every
OpenFAST-format file of a deck once, before anything is imported, and refuses in one line
naming the file, the key and the line:

* a word (quoted or not) where a number belongs: every key except the text keys below, and
  every cell of the files' tables (distributed properties, members, coefficient tables: all
  numbers, flags or DEFAULT in OpenFAST);
* ``DEFAULT`` in the ``.fst`` and ElastoDyn files except where OpenFAST reads it
  (``ParseVarWDefault`` / an explicit ``DEFAULT`` test: the ``.fst``'s ``DT_Out``, ElastoDyn's
  ``DT``): there the fall-back of a DEFAULT environment setting would be another file's value
  or none. The other modules' DEFAULTs are taken where their readers accept them (AeroDyn's
  ``AirDens``/``DTAero``/..., SeaState's ``WtrDens``/``WtrDpth``/``MSL2SWL``, HydroDyn's
  ``RdtnDT``, ServoDyn's ``DT``, the airfoils' unsteady-aerodynamics constants) and refused by
  the typed access (:func:`floatwind.case.openfast.reader._float`) elsewhere.

NaN and infinity are refused by the reader itself
(:func:`floatwind.case.openfast.reader.read_openfast_input`).
"""

from __future__ import annotations

import re
from pathlib import Path

from floatwind.case.openfast.reader import DEFAULT
from floatwind.case.openfast.settings import deck_files
from floatwind.errors import CaseError

__all__ = ["DEFAULT_ONLY", "TEXT_KEYS", "check_values", "is_text_key"]

#: keys whose value is text in OpenFAST (besides file and channel names, formats, roots)
TEXT_KEYS = frozenset(
    {"WaveMod", "WavePkShp", "CurrSSDir", "WaveSeed(2)", "AbortLevel", "BldNd_BlOutNd",
     "NumCoords", "DLL_ProcName"}
)  # fmt: skip
_TEXT_RE = re.compile(r"(^filename|(files?|names?|fmt|root)(\(\d+\))?$)", re.IGNORECASE)
#: keys whose names look like text keys but hold numbers (output switches)
_NUMBER_KEYS = frozenset({"OutFile", "OutFileFmt", "WindProfile"})
#: files whose DEFAULTs are limited to these keys (OpenFAST reads a number for all others)
DEFAULT_ONLY = {"fst": frozenset({"DT_Out"}), "ElastoDyn": frozenset({"DT"})}


def is_text_key(key: str) -> bool:
    """Whether OpenFAST reads ``key``'s value as text."""
    return key in TEXT_KEYS or (key not in _NUMBER_KEYS and bool(_TEXT_RE.search(key)))


def check_values(deck: dict) -> None:
    """Refuse the first setting of the deck whose value has the wrong kind (module docstring).

    Raises
    ------
    CaseError
        naming the file and the key (and, for a misplaced DEFAULT, the line).
    """
    for module, f in deck_files(deck):
        for key, value in f["values"].items():
            line = f.get("lines", {}).get(key)
            at = f" (line {line})" if line else ""
            for v in value if isinstance(value, list) else [value]:
                if v == DEFAULT:
                    allowed = DEFAULT_ONLY.get(module)
                    if allowed is not None and key not in allowed:
                        only = ", ".join(sorted(allowed))
                        raise CaseError(
                            f"expected a number, got DEFAULT{at}: OpenFAST takes DEFAULT in "
                            f"{Path(f['file']).name} only for {only}",
                            field=key, file=f["file"],
                        )  # fmt: skip
                elif isinstance(v, str) and not is_text_key(key):
                    # the one shape of this message everywhere (tests/test_messages.py)
                    raise CaseError(f"expected a number, got {v!r}", field=key, file=f["file"])
        for title, tab in f["tables"].items():  # every OpenFAST-format table holds numbers
            cols = tab["columns"]
            for k, row in enumerate(tab["rows"], start=1):
                for j, v in enumerate(row):
                    if isinstance(v, str) and v != DEFAULT:
                        col = cols[j] if j < len(cols) else f"column {j + 1}"
                        raise CaseError(f"expected a number, got {v!r}",
                                        field=f"{title} row {k} ({col})", file=f["file"])  # fmt: skip
