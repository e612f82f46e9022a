"""The blade-element momentum rotor as AeroDyn v5 computes it (issue 35): airfoil tables,
BEMT settings, blade geometry and the steady rotor performance. The element solver is the
compiled ``floatwind._kernels.bemt``; the rotor load that moves with the tree is
``floatwind.loads.rotor_bem``. Theory and sources: docs/rotor.md.

The names of :mod:`floatwind.rotor.steady` load on first use (PEP 562): the load registry imports
this package for the rotor load's settings, and a run without a BEM rotor must not import the
compiled BEMT kernels (issue 41)."""

from floatwind.rotor.airfoils import AirfoilTables, airfoil_tables, pack_airfoils
from floatwind.rotor.blade import BladeGeometry
from floatwind.rotor.options import BemtOptions, bemt_options

__all__ = [
    "AirfoilTables",
    "BemtOptions",
    "BladeGeometry",
    "Performance",
    "airfoil_tables",
    "bemt_options",
    "blade_resultant",
    "pack_airfoils",
    "performance",
    "rotor_loads",
]


_STEADY = ("Performance", "blade_resultant", "performance", "rotor_loads")


def __getattr__(name: str):
    if name in _STEADY:
        from floatwind.rotor import steady

        return getattr(steady, name)
    raise AttributeError(f"module 'floatwind.rotor' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
