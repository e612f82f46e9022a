"""The light result of ``floatwind run`` (issue 41, floatwind/io/result.py): the same
variables, dimensions and attributes as the xarray Dataset ``simulate`` returns, and the same
netCDF file written by netCDF4 directly as by xarray's ``to_netcdf`` (and the same .out/.outb)."""

from __future__ import annotations

import pathlib

import netCDF4
import numpy as np
import pytest
import xarray as xr

from floatwind.io.netcdf import _writes_direct, write_netcdf
from floatwind.io.openfast import write_out, write_outb
from floatwind.io.result import Result, Variable

ROOT = pathlib.Path(__file__).resolve().parents[1]
REF01 = ROOT.parent / "shared/reference/openfast/ref01_pitch_decay/ref01_pitch_decay.fst"


def _describe(path) -> dict:
    """Everything a netCDF file holds that a reader can see: global attributes (order, types,
    values), dimensions, and per variable its type, dimensions, attributes (with _FillValue),
    compression filters, chunking, byte order and the bytes of its data."""
    nc = netCDF4.Dataset(path)
    nc.set_auto_maskandscale(False)
    try:
        attrs = [(k, type(nc.getncattr(k)).__name__, repr(nc.getncattr(k))) for k in nc.ncattrs()]
        dims = [(d, len(v), v.isunlimited()) for d, v in nc.dimensions.items()]
        var = [
            (name, str(v.dtype), v.dimensions,
             [(k, type(v.getncattr(k)).__name__, repr(v.getncattr(k))) for k in v.ncattrs()],
             v.filters(), v.chunking(), v.endian(), v[...].tobytes())
            for name, v in nc.variables.items()
        ]  # fmt: skip
    finally:
        nc.close()
    return {"attrs": attrs, "dims": dims, "variables": var}


def _synthetic(B: int = 3, T: int = 7) -> Result:
    """A batched result as ``to_dataset`` builds it: (realization, time) channels, a channel
    with an extra dimension, an integer channel, the two coordinates, string/number attributes."""
    rng = np.random.default_rng(4)
    data = {
        "PtfmSurge": Variable(("realization", "time"), rng.normal(size=(B, T)),
                              {"units": "m", "long_name": "surge"}),
        "Tension": Variable(("realization", "time", "Tension_dim0"), rng.normal(size=(B, T, 4)),
                            {"units": "N", "long_name": "line tension"}),
        "Count": Variable(("realization", "time"), np.arange(B * T).reshape(B, T),
                          {"units": "1", "long_name": "a counter"}),
    }  # fmt: skip
    coords = {
        "time": Variable("time", np.arange(T) * 0.25, {"units": "s", "long_name": "time"}),
        "realization": Variable("realization", np.arange(B), {"units": "1", "long_name": "m"}),
    }
    return Result(data, coords, {"title": "t", "dt": 0.05, "n": 3, "case_text": "a: 1\nb: é"})


def test_light_netcdf_is_the_xarray_file(tmp_path):
    """Batched and single-member (``isel(realization=0, drop=True)``), with a variable added
    afterwards: netCDF4's file equals xarray's in every visible respect."""
    res = _synthetic()
    one = res.isel(realization=0, drop=True)
    one["Added"] = (("time",), np.linspace(0, 1, 7), {"units": "m", "long_name": "added"})
    ds_one = res.to_xarray().isel(realization=0, drop=True)
    ds_one["Added"] = (("time",), np.linspace(0, 1, 7), {"units": "m", "long_name": "added"})
    for light, ds, tag in ((res, res.to_xarray(), "b"), (one, ds_one, "1")):
        assert _writes_direct(light)
        write_netcdf(light, tmp_path / f"light{tag}.nc")
        write_netcdf(ds, tmp_path / f"xr{tag}.nc")
        a, b = _describe(tmp_path / f"light{tag}.nc"), _describe(tmp_path / f"xr{tag}.nc")
        assert a == b
        assert a["variables"][0][3][0][:2] == ("_FillValue", "float64")  # the test sees fills
        assert a["variables"][0][4]["zlib"]  # ... and compression


def test_what_netcdf4_alone_cannot_encode_goes_through_xarray(tmp_path):
    """A boolean channel or a list attribute: xarray's encoders write it (same file)."""
    res = _synthetic().isel(realization=0, drop=True)
    res["Flag"] = (("time",), np.arange(7) % 2 == 0, {"units": "1", "long_name": "flag"})
    res.attrs["names"] = ["a", "b"]
    assert not _writes_direct(res)
    write_netcdf(res, tmp_path / "l.nc")
    write_netcdf(res.to_xarray(), tmp_path / "x.nc")
    assert _describe(tmp_path / "l.nc") == _describe(tmp_path / "x.nc")


def test_result_interface():
    res = _synthetic()
    assert res.sizes == {"realization": 3, "time": 7, "Tension_dim0": 4} == dict(res.dims)
    assert list(res) == ["PtfmSurge", "Tension", "Count"] == list(res.data_vars)
    assert "time" in res and "realization" in res.dims and "nope" not in res
    one = res.isel(realization=0, drop=True)
    assert "realization" not in one.dims and one["Tension"].dims == ("time", "Tension_dim0")
    np.testing.assert_array_equal(one["PtfmSurge"].values, res["PtfmSurge"].values[0])
    with pytest.raises(ValueError, match="dimension 'time' has size 5, not 7"):
        res["Bad"] = (("realization", "time"), np.zeros((3, 5)))
    with pytest.raises(ValueError, match="is a coordinate"):
        res["time"] = ("time", np.zeros(7))
    with pytest.raises(ValueError, match="2 dimension name"):
        Variable(("a", "b"), np.zeros(3))
    with pytest.raises(TypeError, match="not a variable"):
        res["x"] = np.zeros(7)
    xr.testing.assert_identical(res.to_xarray()["Tension"].variable,
                                xr.Variable(res["Tension"].dims, res["Tension"].values,
                                            res["Tension"].attrs))  # fmt: skip


@pytest.mark.skipif(not REF01.is_file(), reason=f"reference deck not found: {REF01}")
def test_simulate_light_is_the_dataset(tmp_path):
    """``simulate(model, light=True)`` of ref01 (0.5 s): to_xarray() is identical to the
    Dataset ``simulate`` returns; the netCDF files and the .out/.outb files are the same."""
    from floatwind.case.openfast import model_from_deck
    from floatwind.simulate import simulate

    model = model_from_deck(REF01, overrides={"simulation.t_max": 0.5})
    ds = simulate(model, progress=False)
    light = simulate(model, progress=False, light=True)
    assert isinstance(light, Result) and isinstance(ds, xr.Dataset)
    xr.testing.assert_identical(light.to_xarray(), ds)
    assert list(light.variables) == list(ds.variables)
    write_netcdf(light, tmp_path / "l.nc")
    write_netcdf(ds, tmp_path / "x.nc")
    assert _describe(tmp_path / "l.nc") == _describe(tmp_path / "x.nc")
    write_out(tmp_path / "l.out", light, description="d")
    write_out(tmp_path / "x.out", ds, description="d")
    la, xa = ((tmp_path / f"{k}.out").read_text().splitlines() for k in "lx")
    assert la[2:] == xa[2:] and len(la) > 10  # line 2: the time of writing
    write_outb(tmp_path / "l.outb", light, description="d", file_id="auto")
    write_outb(tmp_path / "x.outb", ds, description="d", file_id="auto")
    assert (tmp_path / "l.outb").read_bytes() == (tmp_path / "x.outb").read_bytes()


def test_a_failed_run_writes_its_partial_record_without_xarray(tmp_path, capsys):
    """``floatwind run`` of a case whose pitch runs into the Euler guard (tests/test_trust.py's
    case): exit 1 and the partial record written from the light result, status and all."""
    import yaml

    from floatwind.cli import main

    d = yaml.safe_load((ROOT / "cases" / "oc3_platform_decay.yaml").read_text())
    d["simulation"]["t_max"] = 4.0
    d["loads"].append({"type": "constant_force", "name": "push", "body": "platform",
                       "force": [0.0, 0.0, 0.0], "moment": [0.0, 2.0e10, 0.0]})  # fmt: skip
    case, out = tmp_path / "pitch.yaml", tmp_path / "pitch.nc"
    case.write_text(yaml.safe_dump(d))
    assert main(["run", str(case), "-o", str(out), "--no-progress"]) == 1
    assert "output steps computed before the failure" in capsys.readouterr().err
    with xr.open_dataset(out) as ds:
        assert "Euler-singularity guard" in ds.attrs["status"]
        assert 1.0 < float(ds.time[-1]) < 2.5 and np.abs(ds["X5"].values).max() < np.pi / 2
