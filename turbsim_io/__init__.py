"""TurbSim full-field wind files (``.bts``): read, write, and a Kaimal / IEC generator.

Stand-alone: this package never imports ``floatwind``.

Public API
----------
read_bts(path) -> xarray.Dataset
write_bts(path, ds, *, description=None, periodic=None)
generate_kaimal(...) -> xarray.Dataset
generate_kaimal_many(seeds=[...], ...) -> list of xarray.Dataset (shared coherence factors)
kaimal_spectrum(f, component, uhub, sigma1, zhub) -> ndarray
iec_coherence(f, r, uhub, zhub) -> ndarray
ntm_sigma1(uhub, turbulence_class) -> float
BtsFormatError (a ValueError)
"""

from turbsim_io.bts import BtsFormatError, read_bts, write_bts
from turbsim_io.kaimal import (
    generate_kaimal,
    generate_kaimal_many,
    iec_coherence,
    iec_length_scale,
    kaimal_spectrum,
    ntm_sigma1,
)

__all__ = [
    "BtsFormatError",
    "generate_kaimal",
    "generate_kaimal_many",
    "iec_coherence",
    "iec_length_scale",
    "kaimal_spectrum",
    "ntm_sigma1",
    "read_bts",
    "write_bts",
]
