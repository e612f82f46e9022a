"""The netCDF file of a run: time and size of its compression settings (issue 41).

    python benchmarks/bench_netcdf.py FILE.nc [FILE.nc ...] [--repeat 7]

Each FILE is an output of ``floatwind run`` (or a run of a study); it is read back into the light
result (:class:`floatwind.io.result.Result`: its variables, dimensions and attributes) and
written again by :func:`floatwind.io.netcdf._write_result` with each setting below, ``--repeat``
times in turn (min of the CPU time of the write, one process), into a temporary folder. Printed
per setting: the write's CPU time (min), the file's size, and the size against the uncompressed
file. The settings: no compression; zlib (deflate, the only filter every netCDF-4 reader has)
at levels 1, 2, 3, 4 (floatwind's until the sixth session) and 6, each with and without the
byte shuffle; and level 1 with shuffle with the time axis in chunks of 1024 and 4096 rows instead
of the library's choice (the whole variable here).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import resource
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def read_result(path: pathlib.Path):
    """The light result of a written file (data variables: the non-coordinate variables)."""
    import netCDF4

    from floatwind.io.result import Result, Variable

    with netCDF4.Dataset(path) as nc:
        nc.set_auto_mask(False)
        dims = set(nc.dimensions)
        data, coords = {}, {}
        for name, v in nc.variables.items():
            attrs = {k: v.getncattr(k) for k in v.ncattrs() if k != "_FillValue"}
            (coords if name in dims else data)[name] = Variable(v.dimensions, v[...], attrs)
        attrs = {k: nc.getncattr(k) for k in nc.ncattrs()}
    return Result(data, coords, attrs)


SETTINGS = {
    "none": {"zlib": False},
    **{f"zlib {lv}, shuffle": {"zlib": True, "complevel": lv, "shuffle": True}
       for lv in (1, 2, 3, 4, 6)},
    **{f"zlib {lv}, no shuffle": {"zlib": True, "complevel": lv, "shuffle": False}
       for lv in (1, 4)},
    "zlib 1, shuffle, chunks 1024": {"zlib": True, "complevel": 1, "shuffle": True, "rows": 1024},
    "zlib 1, shuffle, chunks 4096": {"zlib": True, "complevel": 1, "shuffle": True, "rows": 4096},
}  # fmt: skip


def write(res, path: pathlib.Path, setting: dict) -> float:
    """CPU time of writing ``res`` with ``setting`` (the data variables' encoding)."""
    from floatwind.io import netcdf

    enc = {k: v for k, v in setting.items() if k != "rows"}
    rows = setting.get("rows")
    saved = netcdf.ENCODING
    netcdf.ENCODING = enc
    try:
        if rows is None:
            t = _cpu()
            netcdf._write_result(res, path)
            return _cpu() - t
        import netCDF4

        create = netCDF4.Dataset.createVariable

        def chunked(self, varname, datatype, dimensions=(), **kw):
            if kw.get("zlib") and dimensions and dimensions[0] == "time":
                shape = [len(self.dimensions[d]) for d in dimensions]
                kw["chunksizes"] = [min(rows, shape[0])] + shape[1:]
            return create(self, varname, datatype, dimensions, **kw)

        netCDF4.Dataset.createVariable = chunked
        try:
            t = _cpu()
            netcdf._write_result(res, path)
            return _cpu() - t
        finally:
            netCDF4.Dataset.createVariable = create
    finally:
        netcdf.ENCODING = saved


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("files", nargs="+")
    p.add_argument("--repeat", type=int, default=7)
    args = p.parse_args()
    for f in args.files:
        res = read_result(pathlib.Path(f))
        n = sum(v.values.size for v in res.variables.values())
        print(f"\n{f}: {len(res.variables)} variables, {res.sizes}, {n * 8 / 1e6:.2f} MB as float64")
        with tempfile.TemporaryDirectory() as tmp:
            times = {k: [] for k in SETTINGS}
            sizes = {}
            for _ in range(args.repeat):
                for name, setting in SETTINGS.items():
                    out = pathlib.Path(tmp, "w.nc")
                    times[name].append(write(res, out, setting))
                    sizes[name] = os.path.getsize(out)
                    out.unlink()
        plain = sizes["none"]
        print(f"{'setting':34s} {'CPU (min)':>10s} {'size':>10s} {'of plain':>9s}")
        for name in SETTINGS:
            print(f"{name:34s} {min(times[name]):9.4f}s {sizes[name] / 1e6:8.3f}MB "
                  f"{sizes[name] / plain:8.1%}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
