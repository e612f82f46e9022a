"""Every setting of the OpenFAST module files that ``floatwind import-openfast`` handles, and what
floatwind does with it (issue 17, item 2).

Each key of the ``.fst``, ElastoDyn (with its blade and tower files), ServoDyn, SeaState and
HydroDyn files, each column of their tables and each column / solver option of a MAP++ file is one
:class:`Setting` of one of four kinds:

``mapped``
    the value goes into the floatwind case (``text`` says where). A mapped setting may also carry
    ``ok``: values outside it are refused (``supported`` says which values are imported).
``refused_unless``
    floatwind honours only the values ``ok`` accepts (``supported`` says which); any other value
    is refused in one line naming the file, the key, the value and what floatwind supports.
``no_physics``
    output, echo, summary, linearisation-request, visualisation or solver settings of OpenFAST
    that do not change the physics (``text`` says why).
``ignored_because``
    a setting that changes nothing in floatwind's rigid-body model; ``text`` gives the physical
    reason (blade structural properties when the blades are rigid and their DOFs are refused, ...).

:func:`unsupported_settings` runs the dedicated checks of every file kind, then
:func:`refused_settings`, which applies the table to a deck (the importer refuses those lines, or
notes them under ``--approximate``): a present key whose value is not supported is refused, and so
is a key the table does not know (floatwind cannot tell whether it changes the physics). Settings
with a ``checked_by`` entry are refused by that dedicated check instead (the generic one skips
them so that no setting is reported twice). ``tests/test_deck_settings.py`` checks that every key
of every reference deck is in the table, that every refusal fires, and that mapped keys reach the
case. See ``docs/openfast_import.md`` ("Settings: mapped, refused, no physics").

Indexed keys (``BlPitch(1)``, ``TwFAM1Sh(2)``, ``WaveSeed(2)``) are looked up as ``BlPitch(k)``.

This module is the machinery only: it imports none of the file-kind modules. Each of them
(``fst``, ``elastodyn``, ``servodyn``, ``hydrodyn``, ``seastate``, ``mooring``; AeroDyn and
InflowWind next) holds its own rows and its dedicated checks in one :class:`FileKind`, which
:mod:`floatwind.case.openfast` registers here (:func:`register`), in the order the checks run.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from floatwind.errors import CaseError

__all__ = [
    "COLUMNS",
    "FILE_KINDS",
    "ISSUE17_CORE",
    "KINDS",
    "SETTINGS",
    "FileKind",
    "Setting",
    "UnsupportedDeckError",
    "column_module",
    "counts",
    "deck_files",
    "lookup",
    "refused_items",
    "refused_settings",
    "register",
    "unsupported_settings",
]

KINDS = ("mapped", "refused_unless", "no_physics", "ignored_because")

#: the text of the settings the issue-17 rewrite (joints with their own DOF) owns: yaw DOF and
#: yaw drive, the generator DOF and the generator-torque/drivetrain model
ISSUE17_CORE = "joint DOF (issue 17 core)"


class UnsupportedDeckError(CaseError):
    """A deck with settings floatwind cannot represent; ``lines`` has one line per setting."""

    def __init__(self, lines: list[str], *, file: str | None = None):
        self.lines = list(lines)
        super().__init__(
            f"{len(lines)} unsupported setting(s): "
            + "; ".join(lines)
            + " (use --approximate to replace them by documented approximations)",
            file=file,
        )

    def with_file(self, file: str) -> UnsupportedDeckError:
        return self if self.file else UnsupportedDeckError(self.lines, file=file)


class Ctx:
    """Read access to the other settings of the deck, for conditions between settings."""

    def __init__(self, deck: dict):
        self.deck = deck
        self._cache: dict[str, Any] = {}

    def v(self, module: str, key: str, default: Any = None) -> Any:
        f = self.deck.get(module)
        if f is None:
            return default
        return f["values"].get(key, default)

    def num(self, module: str, key: str, default: float = 0.0) -> float:
        v = self.v(module, key, default)
        try:
            return float(v)
        except (TypeError, ValueError):
            return default

    def cached(self, key: str, make: Callable[[], Any]) -> Any:
        """``make()`` once per deck (a condition's derived data, e.g. SeaState's JONSWAP band)."""
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]


Ok = Callable[[Any, Ctx], bool]


@dataclass(frozen=True)
class Setting:
    """What floatwind does with one OpenFAST setting (see the module docstring)."""

    kind: str
    text: str
    ok: Ok | None = None  # values floatwind honours (refused_unless; optional for mapped)
    supported: str = ""  # those values, in words (the refusal line says it)
    bad: str | None = None  # an unsupported value as written in the file (tests)
    deck: str = "ref01_pitch_decay"  # reference deck the tests modify
    checked_by: str | None = None  # a dedicated check that refuses it (the generic one skips it)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"unknown kind {self.kind!r}")
        if self.kind == "refused_unless" and (self.ok is None or not self.supported):
            raise ValueError("a refused_unless setting needs ok and supported")


# ------------------------------------------------------------------------------- constructors


def M(
    text: str, ok: Ok | None = None, supported: str = "", bad: str | None = None, **kw
) -> Setting:
    return Setting("mapped", text, ok, supported, bad, **kw)


def R(supported: str, ok: Ok, bad: str, **kw) -> Setting:
    return Setting("refused_unless", supported, ok, supported, bad, **kw)


def N(reason: str) -> Setting:
    return Setting("no_physics", reason)


def I(reason: str) -> Setting:  # noqa: E743 - one letter like M, R, N
    return Setting("ignored_because", reason)


def CORE() -> Setting:
    return Setting("mapped", ISSUE17_CORE)


def same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):  # OpenFAST also reads flags written 0 / 1
        return a in (0, 1) and b in (0, 1) and bool(a) == bool(b)
    if isinstance(a, int | float) and isinstance(b, int | float):
        return float(a) == float(b)
    if isinstance(a, str) and isinstance(b, str):
        return a.strip().lower() == b.strip().lower()
    return False


def eq(*allowed: Any) -> Ok:
    return lambda v, ctx: any(same(v, a) for a in allowed)


def each(pred: Ok) -> Ok:
    """A column condition: every cell of the column."""
    return lambda vals, ctx: all(pred(x, ctx) for x in vals)


#: the reason of every output setting (all file kinds)
OUT = "output setting"


# ---------------------------------------------------------------------------------- file kinds


@dataclass(frozen=True)
class FileKind:
    """One kind of OpenFAST input file: its part of the table and its dedicated checks.

    ``settings``/``columns`` map a table name (``"ElastoDyn"``, ``"ElastoDyn_blade"``, ...) to
    its keys / table columns. ``files`` maps the deck entries this kind reads (keys of
    :func:`floatwind.case.openfast.read_fst`'s deck; a list entry is one file per item) to the
    table of each. ``check(deck)`` returns the lines of the dedicated checks (several settings
    together, a message of their own); ``more(deck, ctx)`` returns ``(file name, key, line)`` of
    refusals outside the generic walk (a file not in the OpenFAST format, e.g. MoorDyn's
    options). ``column_table(title)`` picks the :data:`COLUMNS` entry of a table by its title
    (default: the file's table). ``module`` is named in the refusal of an unknown key.
    """

    name: str
    module: str
    settings: Mapping[str, Mapping[str, Setting]] = field(default_factory=dict)
    columns: Mapping[str, Mapping[str, Setting]] = field(default_factory=dict)
    files: Mapping[str, str] = field(default_factory=dict)
    check: Callable[[dict], list[str]] | None = None
    more: Callable[[dict, Ctx], list[tuple[str, str, str]]] | None = None
    column_table: Callable[[str], str] | None = None


#: the registered file kinds, in the order their dedicated checks run
FILE_KINDS: list[FileKind] = []
#: every table of every registered kind: ``SETTINGS[table][key]``, ``COLUMNS[table][column]``
SETTINGS: dict[str, dict[str, Setting]] = {}
COLUMNS: dict[str, dict[str, Setting]] = {}
_DECK_TABLES: dict[str, str] = {}  # deck entry -> the table of its file(s)
_OWNER: dict[str, FileKind] = {}  # table -> its kind


def register(kind: FileKind) -> FileKind:
    """Add a file kind's tables and checks (called once per kind by :mod:`floatwind.case.openfast`)."""
    if any(k.name == kind.name for k in FILE_KINDS):
        raise ValueError(f"file kind {kind.name!r} registered twice")
    for tables, into in ((kind.settings, SETTINGS), (kind.columns, COLUMNS)):
        for table, entries in tables.items():
            if table in into:
                raise ValueError(f"table {table!r} of {kind.name} is already registered")
            into[table] = dict(entries)
            _OWNER.setdefault(table, kind)
    _DECK_TABLES.update(kind.files)
    FILE_KINDS.append(kind)
    return kind


# --------------------------------------------------------------------------------------- lookup

_INDEX_RE = re.compile(r"\(\d+\)$")


def lookup(module: str, key: str, *, column: bool = False) -> Setting | None:
    """The table entry of ``key`` in ``module`` (``BlPitch(2)`` is looked up as ``BlPitch(k)``)."""
    table = (COLUMNS if column else SETTINGS).get(module, {})
    if key in table:
        return table[key]
    return table.get(_INDEX_RE.sub("(k)", key))


def column_module(module: str, title: str) -> str:
    """The :data:`COLUMNS` entry of a table of ``module`` titled ``title`` (HydroDyn's
    rectangular-member tables share column names with the cylindrical ones but not their use)."""
    kind = _OWNER.get(module)
    if kind is not None and kind.column_table is not None:
        return kind.column_table(title)
    return module


def counts() -> dict[str, int]:
    """Number of table entries (keys and columns) of each kind."""
    out = dict.fromkeys(KINDS, 0)
    for table in (SETTINGS, COLUMNS):
        for entries in table.values():
            for s in entries.values():
                out[s.kind] += 1
    return out


def deck_files(deck: dict) -> list[tuple[str, dict]]:
    """``(table, parsed file)`` of every OpenFAST-format file of the deck (each file once), in
    the order of the deck (the order :func:`floatwind.case.openfast.read_fst` reads them)."""
    out: list[tuple[str, dict]] = []
    seen: set[str] = set()
    for entry, value in deck.items():
        if entry not in _DECK_TABLES:
            continue
        for f in value if isinstance(value, list) else [value]:
            if f is not None and f["file"] not in seen:
                seen.add(f["file"])
                out.append((_DECK_TABLES[entry], f))
    return out


def show(v: Any) -> str:
    """A value as the refusal lines write it."""
    if isinstance(v, list):
        text = " ".join(show(x) for x in v)
        return text if len(text) <= 60 else text[:57] + "..."
    if isinstance(v, str):
        return f'"{v}"' if v != "DEFAULT" else "DEFAULT"
    if isinstance(v, bool):
        return "True" if v else "False"
    return f"{v:g}" if isinstance(v, float) else str(v)


def _unknown(table: str) -> str:
    kind = _OWNER.get(table)
    where = kind.module if kind is not None else "floatwind.case.openfast"
    return (f"is not in floatwind's table of OpenFAST settings ({where}): floatwind cannot tell "
            "whether it changes the physics")  # fmt: skip


def refused_items(deck: dict) -> list[tuple[str, str, str]]:
    """``(file name, key, line)`` for every present setting the table refuses on this deck.

    A key (or table column) the table does not know is refused: floatwind cannot tell whether it
    changes the physics. Settings with ``checked_by`` are left to their dedicated check. Then
    the refusals of each kind's ``more`` (files outside the OpenFAST format).
    """
    ctx = Ctx(deck)
    out: list[tuple[str, str, str]] = []
    for module, f in deck_files(deck):
        name = Path(f["file"]).name
        for key, value in f["values"].items():
            s = lookup(module, key)
            if s is None:
                out.append((name, key, f"{name}: {key} = {show(value)} {_unknown(module)}"))
                continue
            if s.ok is None or s.checked_by or s.ok(value, ctx):
                continue
            out.append((name, key, f"{name}: {key} = {show(value)} is not supported; floatwind "
                        f"supports {s.supported}"))  # fmt: skip
        for title, tab in f["tables"].items():
            cmod = column_module(module, title)
            for j, col in enumerate(tab["columns"]):
                s = lookup(cmod, col, column=True)
                if s is None:
                    out.append((name, col, f"{name}: column {col} of the table {title!r} "
                                f"{_unknown(cmod)}"))  # fmt: skip
                    continue
                cells = [row[j] for row in tab["rows"] if len(row) > j]
                if s.ok is None or s.checked_by or not cells or s.ok(cells, ctx):
                    continue
                bad = next((c for c in cells if not s.ok([c], ctx)), cells[0])
                out.append((name, col, f"{name}: {col} = {show(bad)} (table {title!r}) is not "
                            f"supported; floatwind supports {s.supported}"))  # fmt: skip
    for kind in FILE_KINDS:
        if kind.more is not None:
            out.extend(kind.more(deck, ctx))
    return out


def refused_settings(deck: dict) -> list[str]:
    """One line per present setting the table refuses on this deck (see :func:`refused_items`)."""
    return [line for _, _, line in refused_items(deck)]


def unsupported_settings(deck: dict) -> list[str]:
    """One line per deck setting that floatwind cannot represent; empty when it can import it.

    The dedicated checks of every file kind first (module switches of the ``.fst``, flexible
    ElastoDyn DOFs, ServoDyn controllers, HydroDyn potential flow, SeaState wave models: each
    kind's ``check``), in the order the kinds are registered; then every other present setting
    through the table (:func:`refused_items`: ``refused_unless`` values, conditions of mapped
    settings, keys the table does not know); a setting refused above is not reported twice.

    Parameters
    ----------
    deck : dict
        From :func:`floatwind.case.openfast.read_fst`.

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
    for kind in FILE_KINDS:
        if kind.check is not None:
            out.extend(kind.check(deck))
    for name, key, line in refused_items(deck):
        if not any(o.startswith((f"{name}: {key} ", f"{name}: {key}=")) for o in out):
            out.append(line)
    return out
