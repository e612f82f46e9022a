"""Conformance with the OpenFAST ecosystem's own readers (test dependencies, never runtime ones).

* openfast_io's ``FASTOutputFile`` reads floatwind's ``.out`` and ``.outb`` (written by the
  ``floatwind run`` command) with every channel and unit: ``toDataFrame()`` prints no warning and
  returns OpenFAST-style ``Name_[unit]`` columns, values equal to the netCDF of the same run within
  the format's precision;
* floatwind's reader returns what openfast_io returns on every reference ``.out``/``.outb``;
* pCrunch loads a study folder of floatwind's OpenFAST files and its statistics (min, max, mean,
  std, DEL) agree with floatwind's own; fatpack's rainflow cycles give floatwind's DEL.
"""

from __future__ import annotations

import pathlib
import struct

import numpy as np
import pytest
import xarray as xr
import yaml

from floatwind.cli import main
from floatwind.io.openfast import (
    channel_tokens,
    read_openfast_output,
    to_fast_units,
    unit_token,
    write_outb,
)

openfast_io = pytest.importorskip("openfast_io")
from openfast_io.FAST_output_reader import FASTOutputFile  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
CASE = str(ROOT / "cases" / "oc3_platform_decay.yaml")
STUDY = ROOT / "tests" / "data" / "studies" / "small_study.yaml"
REFERENCE = ROOT.parent / "shared" / "reference" / "openfast"
REF_FILES = sorted(REFERENCE.glob("ref*/*.out")) + sorted(REFERENCE.glob("ref*/*.outb"))


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """One short run of the OC3 decay case written by the CLI as .nc, .out and .outb."""
    d = tmp_path_factory.mktemp("eco")
    common = [CASE, "--tmax", "4", "--dt", "0.025", "--no-progress"]
    for ext in ("nc", "out", "outb"):
        assert main(["run", *common, "-o", str(d / f"r.{ext}")]) == 0
    with xr.open_dataset(d / "r.nc") as ds:
        nc = ds.load()
    return d, nc


def _expected_columns(ds: xr.Dataset) -> list[str]:
    fast = to_fast_units(ds)
    names = channel_tokens(list(ds.data_vars))
    units = [unit_token(str(fast[n].attrs["units"])) for n in ds.data_vars]
    return ["Time_[s]"] + [f"{n}_[{u}]" for n, u in zip(names, units)]


def _es_half_ulp(x):
    """Half a unit in the last printed digit of ES15.7 (8 significant digits), plus float slack."""
    ax = np.abs(x)
    ex = np.floor(np.log10(np.where(ax > 0, ax, 1.0)))
    return 0.5e-7 * 10.0**ex * (1 + 1e-6) + 1e-300


def _outb_header(path):
    """(FileID, ColScl, ColOff) of a binary file, parsed from its bytes (layout of the docs)."""
    buf = pathlib.Path(path).read_bytes()
    (fid,) = struct.unpack_from("<h", buf, 0)
    pos = 2 + (2 if fid == 4 else 0)
    n_chan, _ = struct.unpack_from("<ii", buf, pos)
    pos += 8 + 16
    if fid == 3:
        return fid, None, None
    scl = np.frombuffer(buf, "<f4", n_chan, pos).astype(float)
    off = np.frombuffer(buf, "<f4", n_chan, pos + 4 * n_chan).astype(float)
    return fid, scl, off


def test_openfast_io_reads_floatwind_out_with_every_channel_and_unit(runs, capsys):
    d, nc = runs
    capsys.readouterr()
    df = FASTOutputFile(str(d / "r.out")).toDataFrame()
    printed = capsys.readouterr()
    assert "WARN" not in printed.out + printed.err
    assert list(df.columns) == _expected_columns(nc)
    assert "HGsx_[kg-m^2/s]" in df.columns and "ExtMx_[kN-m]" in df.columns  # units of 2 words
    np.testing.assert_allclose(df["Time_[s]"].to_numpy(), nc.time.values, rtol=0, atol=1e-9)
    fast = to_fast_units(nc)
    for col, name in zip(df.columns[1:], nc.data_vars):
        x = fast[name].values
        assert np.all(np.abs(df[col].to_numpy() - x) <= _es_half_ulp(x)), name


def test_openfast_io_reads_floatwind_outb_with_every_channel_and_unit(runs, capsys):
    d, nc = runs
    capsys.readouterr()
    df = FASTOutputFile(str(d / "r.outb")).toDataFrame()
    printed = capsys.readouterr()
    assert "WARN" not in printed.out + printed.err
    assert list(df.columns) == _expected_columns(nc)
    fid, scl, off = _outb_header(d / "r.outb")
    # names such as gravity_Fxi are longer than FileID 3's 10 characters: the int16 layout
    assert fid == 4
    np.testing.assert_array_equal(df["Time_[s]"].to_numpy(), nc.time.values)
    fast = to_fast_units(nc)
    x = np.column_stack([fast[n].values for n in nc.data_vars])
    got = df.to_numpy()[:, 1:]
    # exactly the int16 code of each value, decoded (value = (packed - ColOff) / ColScl) ...
    packed = np.rint(np.clip(scl * x + off, -32768.0, 32767.0))
    np.testing.assert_allclose(got, (packed - off) / scl, rtol=1e-12, atol=0)
    # ... i.e. within half a packing step of the netCDF value (plus the float32 offset rounding)
    assert np.all(np.abs(got - x) <= (0.5 + 1.0 + np.abs(off) * 2.0**-23) / scl)
    # and floatwind's own reader returns the same numbers
    back = read_openfast_output(d / "r.outb")
    np.testing.assert_array_equal(np.column_stack([back[v].values for v in back.data_vars]), got)


def test_lossless_outb_when_names_fit_is_the_netcdf_bit_for_bit(runs, tmp_path, capsys):
    _, nc = runs
    short = [n for n in nc.data_vars if len(n) <= 10]
    path = write_outb(tmp_path / "s.outb", nc[short], file_id="auto")
    assert _outb_header(path)[0] == 3  # float64, the layout of the reference runs
    capsys.readouterr()
    df = FASTOutputFile(str(path)).toDataFrame()
    assert "WARN" not in capsys.readouterr().out
    assert list(df.columns) == _expected_columns(nc[short])
    fast = to_fast_units(nc[short])
    np.testing.assert_array_equal(df.to_numpy()[:, 1:], np.column_stack([fast[n] for n in short]))
    back = read_openfast_output(path)
    for n in short:
        np.testing.assert_array_equal(back[n].values, fast[n].values)


def test_run_from_study_writes_outb(tmp_path):
    out = tmp_path / "one.outb"
    rid = "spar1__U08__fixed__r000"
    argv = ["run", "--from-study", str(STUDY), "--id", rid, "-o", str(out), "--no-progress"]
    assert main(argv) == 0
    df = FASTOutputFile(str(out)).toDataFrame()
    assert "PtfmPitch_[deg]" in df.columns and "FAIRTEN1_[N]" in df.columns


@pytest.mark.skipif(not REF_FILES, reason=f"no reference OpenFAST outputs under {REFERENCE}")
@pytest.mark.parametrize("path", REF_FILES, ids=lambda p: p.name)
def test_floatwind_reader_returns_what_openfast_io_returns_on_reference_files(path):
    ref = FASTOutputFile(str(path))
    df = ref.toDataFrame()
    ds = read_openfast_output(path)
    names = ref.info["attribute_names"]
    units = ref.info["attribute_units"]
    assert [ds[v].attrs["long_name"] for v in ds.data_vars] == names[1:]
    assert [ds[v].attrs["units"] for v in ds.data_vars] == units[1:]
    np.testing.assert_array_equal(ds.time.values, df.iloc[:, 0].to_numpy())
    mine = np.column_stack([ds[v].values for v in ds.data_vars])
    np.testing.assert_array_equal(mine, df.to_numpy()[:, 1:])


# -------------------------------------------------------------- pCrunch on a study folder


@pytest.fixture(scope="module")
def study_folder(tmp_path_factory):
    from floatwind.studies import run_study, study_from_dict

    raw = yaml.safe_load(STUDY.read_text())
    raw.update(
        conditions=[raw["conditions"][1]],
        variants=[raw["variants"][0]],
        realizations=2,
        duration=300.0,
        transient=60.0,
        openfast_outputs=["out", "outb"],
    )
    study = study_from_dict(raw, base_dir=STUDY.parent, source=str(STUDY))
    out = tmp_path_factory.mktemp("study")
    res = run_study(study, out, workers=1, progress=False)
    assert (res.runs["status"] == "ok").all()
    return study, out, res.runs.set_index("id")


def _si_to_fast_factor(ds: xr.Dataset, name: str) -> float:
    fast = to_fast_units(ds[[name]])
    si = ds[name].values
    k = int(np.argmax(np.abs(si)))
    return float(fast[name].values[k] / si[k]) if si[k] != 0 else 1.0


def test_pcrunch_statistics_of_a_study_folder_agree_with_floatwind(study_folder):
    pcrunch = pytest.importorskip("pCrunch")
    study, out, runs = study_folder
    files = sorted((out / "openfast").glob("*.out")) + sorted((out / "openfast").glob("*.outb"))
    assert len(files) == 4
    for f in files:
        if f.suffix == ".outb":
            assert _outb_header(f)[0] == 3  # the study's channel names fit: lossless float64
    chans = ["PtfmSurge", "PtfmPitch", "RtAeroFxh", "FAIRTEN1"]
    fc = {c: pcrunch.FatigueParams(slope=4.0, Sc=1.0, Nc=1.0) for c in chans}
    crunch = pcrunch.Crunch(
        pcrunch.read([str(f) for f in files]), fatigue_channels=fc, trim_data=(study.transient,)
    )
    crunch.process_outputs()
    stats = crunch.summary_stats
    from floatwind.studies import open_study_dataset

    series = open_study_dataset(out)
    for f in files:
        rid = f.stem
        one = series.sel(run=rid)
        for c in study.channels:
            k = _si_to_fast_factor(one, c)
            rtol = 1e-12 if f.suffix == ".outb" else 2e-7  # float64 vs ES15.7E2 text
            scale = float(np.abs(one[c]).max()) * abs(k)
            for s in ("min", "max", "mean", "std"):
                got = float(stats.loc[f.name, (c, s)])
                want = k * float(runs.loc[rid, f"{c}.{s}"])
                assert got == pytest.approx(want, rel=rtol, abs=rtol * scale), (f.name, c, s)
        for c in chans:
            k = _si_to_fast_factor(one, c)
            want = abs(k) * float(runs.loc[rid, f"{c}.del"])
            # pCrunch (fatpack) classifies the signal into 256 levels, bins the ranges into 100
            # and counts the residue as full cycles; floatwind counts exact ranges and the
            # residue as half cycles (ASTM E1049): a few per cent apart on 240 s records
            assert float(crunch.dels.loc[f.name, c]) == pytest.approx(want, rel=0.03), (f, c)


def test_fatpack_rainflow_gives_floatwinds_del(study_folder):
    fatpack = pytest.importorskip("fatpack")
    study, out, runs = study_folder
    from floatwind.studies import open_study_dataset

    series = open_study_dataset(out)
    for rid in series.run.values:
        for c in ("PtfmPitch", "FAIRTEN1"):
            x = series[c].sel(run=rid)
            x = x.sel(time=x.time >= study.transient)
            y = x.values
            # exact reversals (a class width far below the signal's resolution) ...
            rev, _ = fatpack.find_reversals(y, k=2**22)
            cycles, residue = fatpack.find_rainflow_cycles(rev)
            full = np.abs(cycles[:, 1] - cycles[:, 0]) if cycles.ndim == 2 else np.zeros(0)
            half = np.abs(np.diff(residue))
            dur = float(x.time[-1] - x.time[0])
            ref = ((np.sum(full**4) + 0.5 * np.sum(half**4)) / dur) ** 0.25
            # ... with the residue as half cycles (ASTM E1049-85) is floatwind's DEL
            assert float(runs.loc[rid, f"{c}.del"]) == pytest.approx(ref, rel=1e-5), (rid, c)
