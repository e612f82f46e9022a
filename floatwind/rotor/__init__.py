"""The blade-element momentum rotor as AeroDyn v5 computes it (issue 35): airfoil tables,
BEMT settings, blade geometry and the steady rotor performance. The element solver is the
compiled ``floatwind._kernels.bemt``; the rotor load that moves with the tree is
``floatwind.loads.rotor_bem``. Theory and sources: docs/rotor.md."""

from floatwind.rotor.airfoils import AirfoilTables, airfoil_tables, pack_airfoils
from floatwind.rotor.blade import BladeGeometry
from floatwind.rotor.options import BemtOptions, bemt_options
from floatwind.rotor.steady import Performance, blade_resultant, performance, rotor_loads

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
