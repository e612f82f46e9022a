"""Writing and reading result Datasets as netCDF4."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import xarray as xr

    from floatwind.io.result import Result

#: compression of every data variable (coordinates are stored plain, as xarray does): deflate
#: (zlib, the one filter every netCDF-4 reader has) at level 1 with the byte shuffle. The time
#: goes to deflating the low mantissa bytes, which do not compress at any level: level 1 writes
#: ref01's and ref11's files in ~11 % less CPU than level 4 (0.050 against 0.056 s; a 3-h study
#: run's 42 MB 10 % less) for files 0.5-1.0 % larger; without the shuffle they are 12-17 % larger
#: and slower to write (docs/performance.md, "Fixed cost, sixth session";
#: benchmarks/bench_netcdf.py)
ENCODING = {"zlib": True, "complevel": 1, "shuffle": True}


def write_netcdf(ds: xr.Dataset | Result, path: str | Path) -> Path:
    """Write ``ds`` to ``path`` (netCDF4, compressed). Returns the path.

    ``ds`` is an ``xarray.Dataset`` or the light result of ``floatwind run``
    (:class:`floatwind.io.result.Result`); the second is written with netCDF4 directly
    (:func:`_write_result`), without importing xarray, into the same file ``to_netcdf`` writes.
    """
    from floatwind.io.result import Result

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(ds, Result) and not _writes_direct(ds):
        ds = ds.to_xarray()  # a type or attribute only xarray's encoders handle
    try:
        if isinstance(ds, Result):
            _write_result(ds, path)
        else:
            enc = {v: dict(ENCODING) for v in ds.data_vars}
            ds.to_netcdf(path, engine="netcdf4", format="NETCDF4", encoding=enc)
    except (RuntimeError, OSError) as exc:
        # the netCDF/HDF5 library reports a full disk or a failed write as a RuntimeError
        # ("NetCDF: HDF error"): say which file and how much room is left, as an OSError
        try:
            free = f"; {shutil.disk_usage(path.parent).free / 1e6:.3g} MB free on its disk"
        except OSError:
            free = ""
        reason = getattr(exc, "strerror", None) or str(exc)
        msg = f"cannot write {path.name}: {reason}{free}"
        errno = exc.errno if isinstance(exc, OSError) else None
        raise (OSError(errno, msg) if errno else OSError(msg)) from exc
    return path


def _plain_attr(value) -> bool:
    return isinstance(value, str | int | float | np.number) and not isinstance(
        value, bool | np.bool_
    )


def _writes_direct(res: Result) -> bool:
    """Whether :func:`_write_result` writes ``res`` as xarray would: numeric arrays (no strings,
    booleans, objects, no ``_FillValue`` or other encoding attributes of the user's own) and
    attributes that are strings or numbers."""
    for var in res.variables.values():
        if var.values.dtype.kind not in "iuf" or not var.values.dtype.isnative:
            return False
        if any(k.startswith("_") or not _plain_attr(a) for k, a in var.attrs.items()):
            return False
    return all(_plain_attr(a) for a in res.attrs.values())


def _write_result(res: Result, path: Path) -> None:
    """The calls of xarray's netCDF4 store (``xarray.backends.netCDF4_``, ``to_netcdf`` with
    ``format="NETCDF4"`` and :data:`ENCODING` for the data variables), in its order: the global
    attributes; the dimensions as the variables first use them; each variable created (floats
    with ``_FillValue`` NaN, xarray's ``DefaultFillvalueCoder``; :data:`ENCODING` (zlib level 1
    with shuffle) for the data variables, library-chosen chunks) with its attributes; then the
    arrays written with netCDF4's masking off. tests/test_light_result.py compares the two
    files."""
    import netCDF4

    data_vars = set(res.data_vars)
    nc = netCDF4.Dataset(path, mode="w", clobber=True, diskless=False, persist=False,
                         format="NETCDF4")  # fmt: skip
    try:
        for key, value in res.attrs.items():
            nc.setncattr(key, value)
        for dim, n in res.sizes.items():
            nc.createDimension(dim, size=n)
        targets = []
        for name, var in res.variables.items():
            values = var.values
            fill = values.dtype.type(np.nan) if values.dtype.kind == "f" else None
            args = dict(varname=name, datatype=values.dtype, dimensions=var.dims, zlib=False,
                        complevel=4, shuffle=True, fletcher32=False, contiguous=False,
                        chunksizes=None, endian="native", least_significant_digit=None,
                        fill_value=fill)  # fmt: skip
            if name in data_vars:
                args.update(ENCODING)
            target = nc.createVariable(**args)
            target.setncatts(var.attrs)
            targets.append((target, values))
        for target, values in targets:
            target.set_auto_maskandscale(False)
            target.set_auto_chartostring(False)
            target[...] = values
    finally:
        nc.close()


def read_netcdf(path: str | Path) -> xr.Dataset:
    """Read a result written by :func:`write_netcdf` (loaded into memory)."""
    import xarray as xr

    with xr.open_dataset(path, engine="netcdf4") as ds:
        return ds.load()
