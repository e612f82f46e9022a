"""The load kinds of case files: which class a ``type`` under ``loads:`` builds.

Each load class declares its kind where it is defined, with a class keyword
(``class MorisonMembers(Load, kind="morison")``, contract rule 7 of :mod:`floatwind.loads.base`),
and enters the table when the class is created; a kind taken twice is refused naming both
classes. floatwind's own kinds are listed below with the module that defines each
(:data:`SHIPPED`), which is imported when a case names the kind or when the whole table is asked
for (:func:`registered`, :func:`kinds` with a condition): a run imports the load modules its
case uses, not all of them (issue 41: a run's fixed cost). A load class defined elsewhere (a
plugin, a test's toy load) is in the table as soon as its module is imported.

The case loader, the mooring statics, the start-up checks, the study executor and the DLC
parser ask here (and ask the loads through the contract: ``Load.is_mooring``,
``Load.wave_points``, ``Load.reads_wamit``) instead of keeping lists of kinds.

A new load kind of floatwind adds its name and module to ``SHIPPED`` (in
:mod:`floatwind.loads.base`, which refuses the kind to classes of other modules) and a new module
its import to ``_IMPORT`` below (tests/test_startup.py checks both against the classes).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from floatwind.loads.base import KINDS, SHIPPED, Load, LoadKindError

__all__ = ["SHIPPED", "LoadKindError", "kinds", "load_class", "registered"]

#: each shipped load module's import, its name written out (tests/test_layers.py reads them)
_IMPORT = {
    "aerodisk": lambda: importlib.import_module("floatwind.loads.aerodisk"),
    "catenary": lambda: importlib.import_module("floatwind.loads.catenary"),
    "hydrostatics": lambda: importlib.import_module("floatwind.loads.hydrostatics"),
    "moordyn": lambda: importlib.import_module("floatwind.loads.moordyn"),
    "mooring": lambda: importlib.import_module("floatwind.loads.mooring"),
    "morison": lambda: importlib.import_module("floatwind.loads.morison"),
    "potential": lambda: importlib.import_module("floatwind.loads.potential"),
    "rotor_bem": lambda: importlib.import_module("floatwind.loads.rotor_bem"),
    "servo": lambda: importlib.import_module("floatwind.loads.servo"),
    "simple": lambda: importlib.import_module("floatwind.loads.simple"),
    "thrust": lambda: importlib.import_module("floatwind.loads.thrust"),
}


def _import_shipped(kinds=None) -> None:
    """Import the modules of ``kinds`` (all of :data:`SHIPPED` when None): their classes enter
    the table as they are created."""
    for module in sorted({SHIPPED[k] for k in (SHIPPED if kinds is None else kinds)}):
        _IMPORT[module]()


def registered() -> dict[str, type[Load]]:
    """A copy of the table: kind -> load class (every shipped module imported)."""
    _import_shipped()
    return dict(KINDS)


def kinds(where: Callable[[type[Load]], bool] | None = None) -> list[str]:
    """The registered kinds, sorted; with ``where``, those whose class satisfies it (e.g.
    ``kinds(lambda cls: cls.is_mooring)``: every shipped module imported to ask it)."""
    if where is None:
        return sorted(set(KINDS) | set(SHIPPED))
    return sorted(k for k, cls in registered().items() if where(cls))


def load_class(kind: str) -> type[Load]:
    """The load class of case-file kind ``kind`` (its module imported on first use);
    ``KeyError`` when no class has it (the case loader turns that into a ``CaseError`` with a
    "did you mean")."""
    if kind not in KINDS and kind in SHIPPED:
        _import_shipped([kind])
    return KINDS[kind]
