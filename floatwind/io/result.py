"""A run's result without xarray (issue 41): the variables, dimensions and attributes of the
Dataset :func:`floatwind.simulate.outputs.to_dataset` builds, held as NumPy arrays.

``floatwind run`` writes one result and exits: importing xarray (with pandas) for that costs
~0.9 s of CPU, more than the whole stepping of a 300-s rigid deck (docs/performance.md, "The
fixed cost of a run"). :func:`floatwind.simulate.simulate` with ``light=True`` returns a
:class:`Result` instead of an ``xarray.Dataset``; it offers the part of the Dataset interface the
run path uses (``ds[name]``, ``.values``, ``.attrs``, ``.dims``, ``.sizes``, ``in``, adding a
variable, ``isel(realization=0, drop=True)``), :func:`floatwind.io.netcdf.write_netcdf` writes it
with netCDF4 directly into the same file (variables, dimensions, types, attributes, fill values,
compression) as the Dataset's ``to_netcdf``, and :meth:`Result.to_xarray` gives the Dataset
itself (the same one ``simulate`` returns by default: tested in tests/test_light_result.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import numpy as np

__all__ = ["Result", "Variable"]


class Variable:
    """One named array with its dimension names and attributes (``xarray.Variable``'s fields)."""

    __slots__ = ("attrs", "dims", "values")

    def __init__(self, dims, values, attrs: Mapping | None = None):
        dims = (dims,) if isinstance(dims, str) else tuple(dims)
        values = np.asarray(values)
        if values.ndim != len(dims):
            raise ValueError(
                f"{len(dims)} dimension name(s) {dims} for an array of shape {values.shape}"
            )
        self.dims = dims
        self.values = values
        self.attrs = dict(attrs or {})

    @classmethod
    def of(cls, value) -> Variable:
        """``value`` as a Variable: a Variable (or anything with ``dims``, ``values`` and
        ``attrs``, e.g. an ``xarray.Variable``) or a tuple ``(dims, values[, attrs])``."""
        if isinstance(value, Variable):
            return value
        if isinstance(value, tuple):
            return cls(*value)
        if all(hasattr(value, a) for a in ("dims", "values", "attrs")):
            return cls(value.dims, value.values, value.attrs)
        raise TypeError(f"not a variable: {type(value).__name__} (give (dims, values, attrs))")

    data = property(lambda self: self.values)
    shape = property(lambda self: self.values.shape)
    ndim = property(lambda self: self.values.ndim)
    dtype = property(lambda self: self.values.dtype)
    size = property(lambda self: self.values.size)
    sizes = property(lambda self: dict(zip(self.dims, self.values.shape, strict=True)))

    def __len__(self) -> int:
        return len(self.values)

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self.values, dtype=dtype)

    def __repr__(self) -> str:
        return f"Variable({self.dims}, shape {self.shape}, {self.dtype})"


class Result:
    """The variables of a run in the order the Dataset holds them (its data variables, then
    its dimension coordinates, then variables added later), the names of the coordinates, and
    the global attributes."""

    def __init__(self, data_vars: Mapping, coords: Mapping, attrs: Mapping | None = None):
        self.variables: dict[str, Variable] = {}
        self._coords: list[str] = []
        self.attrs: dict = dict(attrs or {})
        # dimension name -> length of the variables so far (None: to be recomputed), kept up to
        # date as variables are added, so adding N variables costs N, not N^2 (ref10's 565)
        self._sizes: dict[str, int] | None = {}
        for name, var in data_vars.items():
            self[name] = var
        for name, var in coords.items():
            var = Variable.of(var)
            if var.dims != (name,):  # only dimension coordinates: no "coordinates" attribute
                raise ValueError(f"coordinate {name!r} must have the one dimension {name!r}")
            self._set(name, var)
            self._coords.append(name)

    def _set(self, name: str, var: Variable) -> None:
        sizes = self._dim_sizes()
        for dim, n in zip(var.dims, var.shape, strict=True):
            if sizes.get(dim, n) != n:
                raise ValueError(f"{name!r}: dimension {dim!r} has size {n}, not {sizes[dim]}")
        if name in self.variables:  # a replaced variable may have been a dimension's first user
            self._sizes = None
        else:
            for dim, n in zip(var.dims, var.shape, strict=True):
                sizes.setdefault(dim, n)
        self.variables[name] = var

    def _dim_sizes(self) -> dict[str, int]:
        if self._sizes is None:
            out: dict[str, int] = {}
            for var in self.variables.values():
                for dim, n in zip(var.dims, var.shape, strict=True):
                    out.setdefault(dim, n)
            self._sizes = out
        return self._sizes

    @property
    def sizes(self) -> dict[str, int]:
        """Dimension name -> length, in the order the variables first use them."""
        return dict(self._dim_sizes())

    dims = sizes

    @property
    def data_vars(self) -> dict[str, Variable]:
        return {k: v for k, v in self.variables.items() if k not in self._coords}

    @property
    def coords(self) -> dict[str, Variable]:
        return {k: self.variables[k] for k in self._coords}

    def __getitem__(self, name: str) -> Variable:
        return self.variables[name]

    def __setitem__(self, name: str, value) -> None:
        if name in self._coords:
            raise ValueError(f"{name!r} is a coordinate")
        self._set(name, Variable.of(value))

    def __contains__(self, name) -> bool:
        return name in self.variables

    def __iter__(self) -> Iterator[str]:
        return iter(self.data_vars)

    def isel(self, drop: bool = False, **index: int) -> Result:
        """One position along each named dimension (integers only: what a run needs), the
        dimension dropped; with ``drop`` its coordinate too (the Dataset's ``isel``)."""
        if not drop:
            raise NotImplementedError("Result.isel keeps no scalar coordinates: use drop=True")
        out = Result({}, {}, self.attrs)
        for name, var in self.variables.items():
            if name in index:
                continue
            key = tuple(index.get(d, slice(None)) for d in var.dims)
            dims = tuple(d for d in var.dims if d not in index)
            out.variables[name] = Variable(dims, var.values[key], var.attrs)
            if name in self._coords:
                out._coords.append(name)
        out._sizes = None  # variables set directly above
        return out

    def to_xarray(self):
        """The ``xarray.Dataset`` of these variables (same order, attributes and arrays)."""
        import xarray as xr

        ds = xr.Dataset(
            {k: xr.Variable(v.dims, v.values, v.attrs) for k, v in self.data_vars.items()},
            coords={k: xr.Variable(v.dims, v.values, v.attrs) for k, v in self.coords.items()},
        )
        ds.attrs.update(self.attrs)
        return ds

    def __repr__(self) -> str:
        dims = ", ".join(f"{k}: {n}" for k, n in self.sizes.items())
        return f"<floatwind Result ({dims}), {len(self.data_vars)} variables>"
