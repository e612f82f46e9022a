"""WAMIT ``.1``, ``.3`` and ``.hst`` files (ULEN = 1) from a coefficient dataset
(:func:`floatwind.bem.solve.compute_coefficients`), in the nondimensional form that
:func:`floatwind.loads.wamit.read_wamit` reads (WAMIT User Manual, sec. 4.1-4.3; the conventions
of the shared ``ref07_potential_decay`` README):

* ``.1``: ``PER I J Abar Bbar``, ``A = rho Abar``, ``B = rho omega Bbar`` (L^k = 1); ``PER = -1``
  the zero- and ``PER = 0`` the infinite-frequency limit (added mass only), then the periods in
  increasing order;
* ``.3``: ``PER BETA I |Xbar| phase(deg) Re Im``, ``X = rho g Xbar``, WAMIT's phase convention;
* ``.hst``: ``I J Cbar``, ``C = rho g Cbar``.
"""

from __future__ import annotations

import math
import pathlib

import numpy as np
import xarray as xr

__all__ = ["write_netcdf", "write_wamit"]


def _fmt(x: float) -> str:
    return f"{x: .8e}"


def write_wamit(ds: xr.Dataset, root) -> list[pathlib.Path]:
    """Write ``root.1``, ``root.3`` and ``root.hst`` (ULEN = 1); returns the three paths."""
    from floatwind.io.safe import atomic_write

    root = pathlib.Path(root)
    rho, g = float(ds.attrs["rho_kg_m3"]), float(ds.attrs["g_m_s2"])
    omega = ds["omega"].values
    order = np.argsort(2.0 * math.pi / omega)  # increasing period
    lines1 = []
    for per, name in ((-1.0, "added_mass_zero"), (0.0, "added_mass_inf")):
        if name in ds:
            M = ds[name].values / rho
            lines1 += [f"{_fmt(per)} {i + 1:5d} {j + 1:5d} {_fmt(M[i, j])}\n"
                       for j in range(6) for i in range(6)]  # fmt: skip
    A, B = ds["added_mass"].values / rho, ds["radiation_damping"].values / rho
    for f in order:
        per = 2.0 * math.pi / omega[f]
        lines1 += [f"{_fmt(per)} {i + 1:5d} {j + 1:5d} {_fmt(A[f, i, j])} "
                   f"{_fmt(B[f, i, j] / omega[f])}\n" for j in range(6) for i in range(6)]  # fmt: skip
    X = (ds["excitation_re"].values + 1j * ds["excitation_im"].values) / (rho * g)
    beta = np.degrees(ds["wave_direction"].values)
    lines3 = []
    for f in order:
        per = 2.0 * math.pi / omega[f]
        for h, b in enumerate(beta):
            for i in range(6):
                x = X[f, h, i]
                lines3.append(f"{_fmt(per)} {b: .6f} {i + 1:5d} {_fmt(abs(x))} "
                              f"{math.degrees(np.angle(x)): .4f} {_fmt(x.real)} {_fmt(x.imag)}\n")  # fmt: skip
    C = ds["hydrostatic_stiffness"].values / (rho * g)
    lines_h = [f"{i + 1:5d} {j + 1:5d} {_fmt(C[i, j])}\n" for i in range(6) for j in range(6)]
    paths = []
    for ext, lines in ((".1", lines1), (".3", lines3), (".hst", lines_h)):
        p = root.with_name(root.name + ext)
        atomic_write(p, lambda tmp, lines=lines: pathlib.Path(tmp).write_text("".join(lines)))
        paths.append(p)
    return paths


def write_netcdf(ds: xr.Dataset, path) -> pathlib.Path:
    """The coefficient dataset as netCDF4 (complex values as ``_re``/``_im`` pairs)."""
    from floatwind.io.safe import atomic_write

    out = ds.copy()
    out.attrs.pop("cache", None)
    return atomic_write(pathlib.Path(path), lambda tmp: out.to_netcdf(tmp, format="NETCDF4"))
