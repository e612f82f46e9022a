"""Outputs: xarray Datasets, netCDF, and OpenFAST ``.out`` / ``.outb`` files."""

from floatwind.io.channels import CHANNELS, channel_attrs
from floatwind.io.netcdf import read_netcdf, write_netcdf
from floatwind.io.openfast import (
    FileFmtID,
    OutputFileError,
    from_fast_units,
    read_openfast_output,
    read_out,
    read_outb,
    to_fast_units,
    write_out,
    write_outb,
)

__all__ = [
    "CHANNELS",
    "channel_attrs",
    "read_netcdf",
    "write_netcdf",
    "FileFmtID",
    "OutputFileError",
    "from_fast_units",
    "read_openfast_output",
    "read_out",
    "read_outb",
    "to_fast_units",
    "write_out",
    "write_outb",
]
