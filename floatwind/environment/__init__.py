"""Sea states and wind fields (knows nothing about structures)."""

from floatwind.environment.base import Environment, NoWind, StillWater
from floatwind.environment.config import DEFAULTS, build_environment
from floatwind.environment.fastkin import ExpansionSea
from floatwind.environment.spectra import (
    JonswapSpectrum,
    PiersonMoskowitzSpectrum,
    cos2s_spreading,
    iec_gamma,
)
from floatwind.environment.waves import (
    GriddedSea,
    LinearSea,
    read_elevation_file,
    sea_from_elevation,
    sea_from_spectrum,
    wavenumber,
)
from floatwind.environment.wind import (
    FullFieldWind,
    SteadyWind,
    TransientWind,
    direction_shift,
    disc_points,
    iec_edc,
    iec_eog,
    rotor_average,
)

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
