"""The load kinds of case files: which class a ``type`` under ``loads:`` builds.

Each load class declares its kind where it is defined, with a class keyword
(``class MorisonMembers(Load, kind="morison")``, contract rule 7 of :mod:`floatwind.loads.base`),
and enters the table when the class is created; a kind taken twice is refused naming both
classes. Importing this module imports floatwind's load modules (below), so the table holds
every kind floatwind ships; a load class defined elsewhere (a plugin, a test's toy load) is in
the table as soon as its module is imported.

The case loader, the mooring statics, the start-up checks, the study executor and the DLC
parser ask here (and ask the loads through the contract: ``Load.is_mooring``,
``Load.wave_points``, ``Load.reads_wamit``) instead of keeping lists of kinds.

A new load module of floatwind adds its name to the import below; that line is the one place
that lists them.
"""

from __future__ import annotations

from collections.abc import Callable

# every floatwind module that defines a load kind: importing them registers their classes
from floatwind.loads import (  # noqa: F401
    aerodisk,
    catenary,
    hydrostatics,
    moordyn,
    mooring,
    morison,
    potential,
    rotor_bem,
    servo,
    simple,
    thrust,
)
from floatwind.loads.base import KINDS, Load, LoadKindError

__all__ = ["LoadKindError", "kinds", "load_class", "registered"]


def registered() -> dict[str, type[Load]]:
    """A copy of the table: kind -> load class."""
    return dict(KINDS)


def kinds(where: Callable[[type[Load]], bool] | None = None) -> list[str]:
    """The registered kinds, sorted; with ``where``, those whose class satisfies it (e.g.
    ``kinds(lambda cls: cls.is_mooring)``)."""
    return sorted(k for k, cls in KINDS.items() if where is None or where(cls))


def load_class(kind: str) -> type[Load]:
    """The load class of case-file kind ``kind``; ``KeyError`` when no class has it (the case
    loader turns that into a ``CaseError`` with a "did you mean")."""
    return KINDS[kind]
