"""OpenFAST decks -> floatwind cases (``floatwind import-openfast``, ``floatwind run DECK.fst``).

One module per OpenFAST input-file kind, each holding how floatwind reads it, its dedicated
refusals and its part of the settings table (every key and table column: mapped, refused unless
supported, no physics, or ignored with a reason):

==============  =================================================================================
``fst``         the main input file: :func:`read_fst` (follows the module files), environment
``elastodyn``   ElastoDyn + blade and tower files: DOFs, initial conditions, mass properties
``servodyn``    ServoDyn: override maneuvers, yaw drive, generator on/off
``hydrodyn``    HydroDyn: WAMIT body (+ its ``.ss``/``.ssexctn`` files), Morison members, loads
``seastate``    SeaState: the wave model and the case's ``environment.waves``
``mooring``     MAP++ and MoorDyn files -> the ``mooring_catenary`` load
``aerodyn``     AeroDyn v5 main, blade and airfoil files -> the AeroDyn part of ``bem_rotor``
``inflowwind``  InflowWind: the case's ``environment.wind`` (steady, TurbSim full field)
==============  =================================================================================

with the shared pieces ``reader`` (the generic input-file reader and typed access), ``settings``
(the table machinery: :class:`~floatwind.case.openfast.settings.Setting`, the walk over a deck,
the refusal lines; it imports no file-kind module), ``importer`` (deck -> case dict and Model:
bodies and joints of the ElastoDyn topology, then each kind's loads) and ``outputs`` (the
channels of the deck's OutLists). A new input-file kind is one module with a
``FILE_KIND`` (its rows and checks), listed in :data:`_FILE_KINDS` below; :func:`read_fst`
follows its file and :func:`~floatwind.case.openfast.importer.case_from_deck` adds its loads.
"""

from __future__ import annotations

from floatwind.case.openfast import (
    aerodisk,
    aerodyn,
    elastodyn,
    fst,
    hydrodyn,
    inflowwind,
    mooring,
    seastate,
    servodyn,
    settings,
)
from floatwind.case.openfast.elastodyn import (
    elastodyn_mass_properties,
    enabled_dofs,
    initial_conditions,
)
from floatwind.case.openfast.fst import environment, read_fst
from floatwind.case.openfast.hydrodyn import hydrodyn_model
from floatwind.case.openfast.importer import (
    ImportResult,
    case_from_deck,
    case_yaml,
    deck_summary,
    euler123_from_zyx,
    import_openfast,
    model_from_deck,
    write_case_yaml,
)
from floatwind.case.openfast.reader import DEFAULT, read_openfast_input
from floatwind.case.openfast.seastate import regular_phase, sea_state
from floatwind.case.openfast.servodyn import generator_off, servodyn_maneuvers
from floatwind.case.openfast.settings import UnsupportedDeckError, unsupported_settings

#: the input-file kinds, in the order their dedicated checks run (the order of the refusal lines)
_FILE_KINDS = (fst, elastodyn, servodyn, hydrodyn, seastate, mooring, aerodyn, inflowwind,
               aerodisk)  # fmt: skip
for _module in _FILE_KINDS:
    settings.register(_module.FILE_KIND)
del _module

__all__ = [
    "DEFAULT",
    "ImportResult",
    "UnsupportedDeckError",
    "case_from_deck",
    "case_yaml",
    "deck_summary",
    "elastodyn_mass_properties",
    "enabled_dofs",
    "environment",
    "euler123_from_zyx",
    "generator_off",
    "hydrodyn_model",
    "import_openfast",
    "initial_conditions",
    "model_from_deck",
    "read_fst",
    "read_openfast_input",
    "regular_phase",
    "sea_state",
    "servodyn_maneuvers",
    "unsupported_settings",
    "write_case_yaml",
]
