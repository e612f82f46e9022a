"""Writing and reading result Datasets as netCDF4."""

from __future__ import annotations

from pathlib import Path

import xarray as xr


def write_netcdf(ds: xr.Dataset, path: str | Path) -> Path:
    """Write ``ds`` to ``path`` (netCDF4, compressed). Returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    enc = {v: {"zlib": True, "complevel": 4} for v in ds.data_vars}
    ds.to_netcdf(path, engine="netcdf4", format="NETCDF4", encoding=enc)
    return path


def read_netcdf(path: str | Path) -> xr.Dataset:
    """Read a result written by :func:`write_netcdf` (loaded into memory)."""
    with xr.open_dataset(path, engine="netcdf4") as ds:
        return ds.load()
