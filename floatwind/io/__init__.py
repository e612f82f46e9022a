"""Outputs: xarray Datasets, netCDF, and OpenFAST ``.out`` / ``.outb`` files.

The names below are loaded on first use (PEP 562 ``__getattr__``): every command imports
``floatwind.io.safe``, and importing the package must not import xarray (and with it pandas,
~1 s of CPU) for a command that never builds a Dataset (``floatwind check``,
``floatwind import-openfast``; docs/performance.md, issue 41)."""

from __future__ import annotations

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

_CHANNELS = ("CHANNELS", "channel_attrs")
_NETCDF = ("read_netcdf", "write_netcdf")


def __getattr__(name: str):
    if name in _CHANNELS:
        from floatwind.io import channels as mod
    elif name in _NETCDF:
        from floatwind.io import netcdf as mod
    elif name in __all__:
        from floatwind.io import openfast as mod
    else:
        raise AttributeError(f"module 'floatwind.io' has no attribute {name!r}")
    return getattr(mod, name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
