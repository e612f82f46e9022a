"""Writing and reading result Datasets as netCDF4."""

from __future__ import annotations

import shutil
from pathlib import Path

import xarray as xr


def write_netcdf(ds: xr.Dataset, path: str | Path) -> Path:
    """Write ``ds`` to ``path`` (netCDF4, compressed). Returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    enc = {v: {"zlib": True, "complevel": 4} for v in ds.data_vars}
    try:
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


def read_netcdf(path: str | Path) -> xr.Dataset:
    """Read a result written by :func:`write_netcdf` (loaded into memory)."""
    with xr.open_dataset(path, engine="netcdf4") as ds:
        return ds.load()
