"""Sea states and wind fields (knows nothing about structures)."""

import importlib

#: public name -> the module that defines it, imported on first use (PEP 562): a run in still
#: water without wind imports no sea or wind module (issue 41, a run's imports)
_WHERE = {
    "DEFAULTS": "floatwind.environment.config",
    "Environment": "floatwind.environment.base",
    "ExpansionSea": "floatwind.environment.fastkin",
    "FullFieldWind": "floatwind.environment.wind",
    "GriddedSea": "floatwind.environment.waves",
    "JonswapSpectrum": "floatwind.environment.spectra",
    "LinearSea": "floatwind.environment.waves",
    "NoWind": "floatwind.environment.base",
    "PiersonMoskowitzSpectrum": "floatwind.environment.spectra",
    "SteadyWind": "floatwind.environment.wind",
    "StillWater": "floatwind.environment.base",
    "TransientWind": "floatwind.environment.wind",
    "build_environment": "floatwind.environment.config",
    "cos2s_spreading": "floatwind.environment.spectra",
    "direction_shift": "floatwind.environment.wind",
    "disc_points": "floatwind.environment.wind",
    "iec_edc": "floatwind.environment.wind",
    "iec_eog": "floatwind.environment.wind",
    "iec_gamma": "floatwind.environment.spectra",
    "read_elevation_file": "floatwind.environment.waves",
    "rotor_average": "floatwind.environment.wind",
    "sea_from_elevation": "floatwind.environment.waves",
    "sea_from_spectrum": "floatwind.environment.waves",
    "wavenumber": "floatwind.environment.waves",
}

#: each module's import, its name written out (tests/test_layers.py reads the imports)
_IMPORT = {
    "floatwind.environment.base": lambda: importlib.import_module("floatwind.environment.base"),
    "floatwind.environment.config": lambda: importlib.import_module("floatwind.environment.config"),
    "floatwind.environment.fastkin": lambda: importlib.import_module("floatwind.environment.fastkin"),
    "floatwind.environment.spectra": lambda: importlib.import_module("floatwind.environment.spectra"),
    "floatwind.environment.waves": lambda: importlib.import_module("floatwind.environment.waves"),
    "floatwind.environment.wind": lambda: importlib.import_module("floatwind.environment.wind"),
}

__all__ = [
    "DEFAULTS",
    "Environment",
    "ExpansionSea",
    "FullFieldWind",
    "GriddedSea",
    "JonswapSpectrum",
    "LinearSea",
    "NoWind",
    "PiersonMoskowitzSpectrum",
    "SteadyWind",
    "StillWater",
    "TransientWind",
    "build_environment",
    "cos2s_spreading",
    "direction_shift",
    "disc_points",
    "iec_edc",
    "iec_eog",
    "iec_gamma",
    "read_elevation_file",
    "rotor_average",
    "sea_from_elevation",
    "sea_from_spectrum",
    "wavenumber",
]


def __getattr__(name: str):
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(_IMPORT[where](), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
