"""OpenFAST output files: .out text and .outb binary readers and writers."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

from floatwind.errors import CaseError
from floatwind.io import (
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

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
REF01 = SHARED / "reference" / "openfast" / "ref01_pitch_decay"

needs_reference = pytest.mark.skipif(
    not (REF01 / "ref01_pitch_decay.outb").is_file(),
    reason=f"OpenFAST reference outputs not found under {REF01} (the shared folder is absent)",
)


def _si_dataset(nt: int = 201, dt: float = 0.05) -> xr.Dataset:
    """A small floatwind-like output in SI units."""
    t = np.arange(nt) * dt
    rng = np.random.default_rng(7)

    def var(values, units, long_name):
        return ("time", values, {"units": units, "long_name": long_name})

    return xr.Dataset(
        {
            "PtfmSurge": var(0.3 * np.sin(0.2 * t), "m", "platform surge"),
            "PtfmPitch": var(0.1 * np.cos(0.3 * t), "rad", "platform pitch"),
            "PtfmRVyi": var(-0.03 * np.sin(0.3 * t), "rad/s", "pitch rate"),
            "RotSpeed": var(np.full(nt, 12.1 * 2 * np.pi / 60), "rad/s", "rotor speed"),
            "YawBrFxp": var(7.2e5 * np.cos(0.3 * t) + rng.normal(0, 1e3, nt), "N", "force"),
            "YawBrMyp": var(2.7e6 * np.sin(0.3 * t), "N*m", "moment"),
            "HydroFzi": var(7.9e7 + 1e5 * np.sin(t), "N", "HydroDyn heave force"),
            "Zero": var(np.zeros(nt), "-", "a constant channel"),
        },
        coords={"time": ("time", t, {"units": "s", "long_name": "Time"})},
        attrs={"title": "round-trip test case"},
    )


# ------------------------------------------------------------------------------------------------
# unit rule
# ------------------------------------------------------------------------------------------------


def test_fast_unit_rule():
    ds = _si_dataset()
    fast = to_fast_units(ds)
    assert fast["PtfmPitch"].attrs["units"] == "deg"
    np.testing.assert_allclose(fast["PtfmPitch"], np.rad2deg(ds["PtfmPitch"]))
    assert fast["PtfmRVyi"].attrs["units"] == "deg/s"
    assert fast["RotSpeed"].attrs["units"] == "rpm"
    np.testing.assert_allclose(fast["RotSpeed"], 12.1)
    assert fast["YawBrFxp"].attrs["units"] == "kN"
    np.testing.assert_allclose(fast["YawBrFxp"], ds["YawBrFxp"] / 1e3)
    assert fast["YawBrMyp"].attrs["units"] == "kN-m"
    # HydroDyn loads are written by OpenFAST in N: unchanged
    assert fast["HydroFzi"].attrs["units"] == "N"
    np.testing.assert_array_equal(fast["HydroFzi"], ds["HydroFzi"])
    assert fast["PtfmSurge"].attrs["units"] == "m"
    # idempotent, and from_fast_units inverts it
    xr.testing.assert_identical(to_fast_units(fast), fast)
    back = from_fast_units(fast)
    for name in ("PtfmPitch", "PtfmRVyi", "RotSpeed", "YawBrFxp", "YawBrMyp"):
        np.testing.assert_allclose(back[name], ds[name], rtol=1e-14)
    assert back["YawBrMyp"].attrs["units"] == "N-m"
    assert back["RotSpeed"].attrs["units"] == "rad/s"


# ------------------------------------------------------------------------------------------------
# round trips
# ------------------------------------------------------------------------------------------------


def _es_half_ulp(x: np.ndarray) -> np.ndarray:
    """Half a unit in the last place of ES15.7 (8 significant digits)."""
    ax = np.abs(x)
    exp = np.floor(np.log10(np.where(ax > 0, ax, 1.0)))
    return 0.5e-7 * 10.0**exp * (1 + 1e-12)


def test_out_round_trip_fast_units(tmp_path):
    ds = _si_dataset()
    path = write_out(tmp_path / "case.out", ds, description="pitch decay, round trip")
    back = read_out(path)
    fast = to_fast_units(ds)
    assert list(back.data_vars) == list(ds.data_vars)
    np.testing.assert_allclose(back["time"], ds["time"], atol=1e-12, rtol=0)
    for name in ds.data_vars:
        assert back[name].attrs["units"] == fast[name].attrs["units"]
        assert back[name].attrs["long_name"] == name
        x = fast[name].values
        assert np.all(np.abs(back[name].values - x) <= _es_half_ulp(x)), name
    assert back.attrs["source_format"] == "out"
    assert back.attrs["input_description"] == "pitch decay, round trip"
    assert back["time"].attrs["units"] == "s"
    assert back.attrs["description"].startswith("Predictions were generated")


def test_out_round_trip_keeps_si_and_fine_time(tmp_path):
    ds = _si_dataset(nt=41, dt=0.0125)
    path = write_out(tmp_path / "si.out", ds, fast_units=False, tab_delimited=False)
    back = read_out(path)
    assert back["PtfmPitch"].attrs["units"] == "rad"
    assert back["YawBrMyp"].attrs["units"] == "N-m"  # N*m written as OpenFAST's one token
    # 0.0125 s needs more than F10.4 decimals: the writer adds them
    np.testing.assert_allclose(back["time"].values, ds["time"].values, rtol=0, atol=1e-12)
    assert "\t" not in path.read_text().splitlines()[7]


@pytest.mark.parametrize("file_id", [1, 2, 3, 4])
def test_outb_round_trip(tmp_path, file_id):
    ds = _si_dataset()
    path = write_outb(tmp_path / f"case{file_id}.outb", ds, file_id=file_id)
    back = read_outb(path)
    fast = to_fast_units(ds)
    assert back.attrs["file_format_id"] == file_id
    assert back.attrs["input_description"] == "round-trip test case"
    t = ds["time"].values
    if file_id == FileFmtID.WITH_TIME:
        np.testing.assert_allclose(back["time"], t, rtol=0, atol=np.ptp(t) / 2.0**31)
    else:
        np.testing.assert_allclose(back["time"], t, rtol=1e-15, atol=1e-13)
    for name in ds.data_vars:
        x = fast[name].values
        assert back[name].attrs["units"] == fast[name].attrs["units"]
        if file_id == FileFmtID.NO_COMPRESS_WITHOUT_TIME:
            np.testing.assert_array_equal(back[name].values, x)
        else:
            # int16 packing: half a level of (max - min)/65535, float32 scale and offset
            tol = 0.5 * np.ptp(x) / 65535.0 * (1 + 1e-3) + 1e-6 * np.abs(x).max()
            assert np.max(np.abs(back[name].values - x)) <= tol + 1e-12, name
    # the Zero channel (max == min) survives packing exactly
    np.testing.assert_array_equal(back["Zero"].values, 0.0)


def test_write_errors(tmp_path):
    ds = _si_dataset(nt=5)
    batched = ds.expand_dims(realization=2)
    with pytest.raises(OutputFileError, match="realization"):
        write_out(tmp_path / "b.out", batched)
    uneven = ds.assign_coords(time=[0.0, 0.1, 0.3, 0.4, 0.5])
    with pytest.raises(OutputFileError, match="not uniform"):
        write_outb(tmp_path / "u.outb", uneven, file_id=2)
    write_outb(tmp_path / "u1.outb", uneven, file_id=1)  # WithTime accepts it
    np.testing.assert_allclose(read_outb(tmp_path / "u1.outb")["time"], uneven["time"], atol=1e-9)
    long = ds.rename({"PtfmSurge": "AVeryLongChannelName"})
    with pytest.raises(OutputFileError, match="file_id = 4"):
        write_outb(tmp_path / "l.outb", long, file_id=3)
    write_outb(tmp_path / "l4.outb", long, file_id=4)
    assert "AVeryLongChannelName" in read_outb(tmp_path / "l4.outb")
    with pytest.raises(OutputFileError, match="file_id"):
        write_outb(tmp_path / "x.outb", ds, file_id=7)
    holed = ds.copy(deep=True)
    holed["PtfmSurge"][2] = np.nan
    with pytest.raises(OutputFileError, match="NaN"):
        write_outb(tmp_path / "n.outb", holed, file_id=2)
    write_outb(tmp_path / "n3.outb", holed, file_id=3)  # float64 keeps NaN
    assert np.isnan(read_outb(tmp_path / "n3.outb")["PtfmSurge"][2])
    with pytest.raises(OutputFileError, match="not in the Dataset"):
        write_out(tmp_path / "c.out", ds, channels=["Nope"])


# ------------------------------------------------------------------------------------------------
# hand-made binary files, byte by byte from the documented layout
# ------------------------------------------------------------------------------------------------


def _names(strings, chan_len=10) -> bytes:
    return b"".join(s.ljust(chan_len).encode("ascii") for s in strings)


def test_handmade_outb_with_time(tmp_path):
    # FileID 1: int16 FileID, int32 NumOutChans, int32 NT, float64 TimeScl, TimeOff,
    # float32 ColScl(n), ColOff(n), int32 LenDesc, desc, names, units, int32 time(NT), int16 data
    desc = b"hand-made WithTime file"
    time_scl, time_off = 1000.0, -500.0  # time = (it - TimeOff)/TimeScl
    packed_time = np.array([-500, 0, 1500], dtype="<i4")  # 0.0, 0.5, 2.0 s (non-uniform)
    col_scl = np.array([2.0, 0.5], dtype="<f4")
    col_off = np.array([10.0, -4.0], dtype="<f4")
    data = np.array([[10, -4], [12, -3], [-20, 100]], dtype="<i2")  # (NT, NumOutChans)
    buf = (
        struct.pack("<h", 1)
        + struct.pack("<ii", 2, 3)
        + struct.pack("<dd", time_scl, time_off)
        + col_scl.tobytes()
        + col_off.tobytes()
        + struct.pack("<i", len(desc))
        + desc
        + _names(["Time", "PtfmPitch", "YawBrFxp"])
        + _names(["(s)", "(deg)", "(kN)"])
        + packed_time.tobytes()
        + data.tobytes()
    )
    path = tmp_path / "hand1.outb"
    path.write_bytes(buf)
    ds = read_outb(path)
    np.testing.assert_array_equal(ds["time"].values, [0.0, 0.5, 2.0])
    np.testing.assert_array_equal(ds["PtfmPitch"].values, [0.0, 1.0, -15.0])  # (p - 10)/2
    np.testing.assert_array_equal(ds["YawBrFxp"].values, [0.0, 2.0, 208.0])  # (p + 4)/0.5
    assert ds["PtfmPitch"].attrs["units"] == "deg"
    assert ds["YawBrFxp"].attrs["units"] == "kN"
    assert ds.attrs["description"] == desc.decode()
    assert ds.attrs["file_format_id"] == 1
    assert "input_description" not in ds.attrs


def test_handmade_outb_without_time(tmp_path):
    # FileID 2: as FileID 1 but float64 TimeOut1, TimeIncrement and no time array
    desc = b"Predictions; Description from the FAST input file: hand-made WithoutTime"
    col_scl = np.array([65535.0 / 4.0], dtype="<f4")
    col_off = np.array([-32768.0 - 65535.0 / 4.0 * -2.0], dtype="<f4")  # min -2 -> -32768
    data = np.array([[-32768], [0], [32767]], dtype="<i2")
    buf = (
        struct.pack("<h", 2)
        + struct.pack("<ii", 1, 3)
        + struct.pack("<dd", 10.0, 0.25)
        + col_scl.tobytes()
        + col_off.tobytes()
        + struct.pack("<i", len(desc))
        + desc
        + _names(["Time", "Wave1Elev"])
        + _names(["(s)", "(m)"])
        + data.tobytes()
    )
    path = tmp_path / "hand2.outb"
    path.write_bytes(buf)
    ds = read_outb(path)
    np.testing.assert_array_equal(ds["time"].values, [10.0, 10.25, 10.5])
    expected = (data[:, 0].astype(float) - float(col_off[0])) / float(col_scl[0])
    np.testing.assert_array_equal(ds["Wave1Elev"].values, expected)
    np.testing.assert_allclose(ds["Wave1Elev"].values, [-2.0, 0.0, 2.0], atol=1e-4)
    assert ds.attrs["input_description"] == "hand-made WithoutTime"


def test_handmade_outb_chanlen_and_uncompressed(tmp_path):
    # FileID 4: int16 ChanLen after FileID; FileID 3: float64 data and no ColScl/ColOff
    data = np.array([[1.5, -2.0], [2.5, 1e6]])
    names = ["Time", "LongChannelName1", "B"]
    units = ["(s)", "(m/s^2)", "(N-m)"]
    buf4 = (
        struct.pack("<hh", 4, 16)
        + struct.pack("<ii", 2, 2)
        + struct.pack("<dd", 0.0, 0.1)
        + np.array([1.0, 1.0], dtype="<f4").tobytes()
        + np.array([0.0, 0.0], dtype="<f4").tobytes()
        + struct.pack("<i", 0)
        + _names(names, 16)
        + _names(units, 16)
        + np.array([[1, -2], [3, 4]], dtype="<i2").tobytes()
    )
    (tmp_path / "h4.outb").write_bytes(buf4)
    ds4 = read_outb(tmp_path / "h4.outb")
    assert list(ds4.data_vars) == ["LongChannelName1", "B"]
    np.testing.assert_array_equal(ds4["B"].values, [-2.0, 4.0])
    assert ds4["LongChannelName1"].attrs["units"] == "m/s^2"

    buf3 = (
        struct.pack("<h", 3)
        + struct.pack("<ii", 2, 2)
        + struct.pack("<dd", 5.0, 0.5)
        + struct.pack("<i", 3)
        + b"abc"
        + _names(["Time", "X", "Y"])
        + _names(["(s)", "(m)", "(kN)"])
        + data.astype("<f8").tobytes()
    )
    (tmp_path / "h3.outb").write_bytes(buf3)
    ds3 = read_outb(tmp_path / "h3.outb")
    np.testing.assert_array_equal(ds3["time"].values, [5.0, 5.5])
    np.testing.assert_array_equal(ds3["Y"].values, [-2.0, 1e6])
    # the dispatcher sniffs the binary header when the extension says nothing
    (tmp_path / "h3.bin").write_bytes(buf3)
    xr.testing.assert_equal(read_openfast_output(tmp_path / "h3.bin"), ds3)


# ------------------------------------------------------------------------------------------------
# malformed and truncated files
# ------------------------------------------------------------------------------------------------


def test_truncated_outb(tmp_path):
    ds = _si_dataset(nt=20)
    good = write_outb(tmp_path / "good.outb", ds, file_id=2).read_bytes()
    cut = tmp_path / "cut.outb"
    cut.write_bytes(good[:-7])
    with pytest.raises(OutputFileError, match="truncated") as info:
        read_outb(cut)
    assert str(cut) in str(info.value)
    assert isinstance(info.value, CaseError)
    cut.write_bytes(good[:9])  # inside the header
    with pytest.raises(OutputFileError, match="truncated"):
        read_outb(cut)
    cut.write_bytes(good + b"\0\0")
    with pytest.raises(OutputFileError, match="left after the data"):
        read_outb(cut)
    cut.write_bytes(struct.pack("<h", 9) + good[2:])
    with pytest.raises(OutputFileError, match="FileID = 9"):
        read_outb(cut)


def test_truncated_out(tmp_path):
    ds = _si_dataset(nt=20)
    text = write_out(tmp_path / "good.out", ds).read_text()
    cut = tmp_path / "cut.out"
    cut.write_text(text[: len(text) - 40])
    with pytest.raises(OutputFileError, match=r"line \d+ has \d+ values, expected 9") as info:
        read_out(cut)
    assert str(cut) in str(info.value)
    cut.write_text(text.replace("Time\t", "Tim\t"))
    with pytest.raises(OutputFileError, match="'Time'"):
        read_out(cut)
    lines = text.splitlines()
    lines[9] = lines[9].replace("E", "X", 1)
    cut.write_text("\n".join(lines))
    with pytest.raises(OutputFileError, match="not a number"):
        read_out(cut)


# ------------------------------------------------------------------------------------------------
# the real OpenFAST reference files
# ------------------------------------------------------------------------------------------------


@needs_reference
def test_reference_out_and_outb_agree():
    text = read_openfast_output(REF01 / "ref01_pitch_decay.out")
    binary = read_openfast_output(REF01 / "ref01_pitch_decay.outb")
    assert text.attrs["source_format"] == "out"
    assert binary.attrs["source_format"] == "outb"
    assert binary.attrs["file_format_id"] == FileFmtID.NO_COMPRESS_WITHOUT_TIME
    assert list(text.data_vars) == list(binary.data_vars)
    assert len(text.data_vars) == 51 and text.sizes["time"] == 6001
    np.testing.assert_allclose(text["time"], binary["time"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(binary["time"][-1], 300.0, rtol=1e-15)
    for name in binary.data_vars:
        assert text[name].attrs["units"] == binary[name].attrs["units"], name
        x = text[name].values
        y = binary[name].values
        # printed precision: 8 significant digits of the single-precision value
        tol = _es_half_ulp(x) + np.abs(y) * 2.0**-24
        assert np.all(np.abs(x - y) <= tol), name
    assert text["PtfmPitch"].attrs["units"] == "deg"
    assert text["YawBrFxp"].attrs["units"] == "kN"
    assert text["YawBrMyp"].attrs["units"] == "kN-m"
    assert text["HydroMyi"].attrs["units"] == "N-m"
    assert text["RotSpeed"].attrs["units"] == "rpm"
    np.testing.assert_allclose(text["PtfmPitch"][0], 5.729578, rtol=1e-7)
    assert "ref01_pitch_decay" in text.attrs["input_description"]
    assert "ref01_pitch_decay" in binary.attrs["input_description"]


@needs_reference
def test_reference_text_is_binary_rounded():
    """OpenFAST writes the text file from single precision: ES15.7 of float32(binary value)."""
    text = read_out(REF01 / "ref01_pitch_decay.out")
    binary = read_outb(REF01 / "ref01_pitch_decay.outb")
    for name in ("PtfmPitch", "PtfmSurge", "YawBrMyp", "HydroFzi", "RootMyb1"):
        y = binary[name].values[::37]
        printed = np.array([float(f"{float(np.float32(v)):.7E}") for v in y])
        np.testing.assert_array_equal(text[name].values[::37], printed)


@needs_reference
def test_reference_rewrite_as_out_keeps_values(tmp_path):
    binary = read_outb(REF01 / "ref01_pitch_decay.outb").isel(time=slice(0, 200))
    path = write_out(tmp_path / "copy.out", binary)  # already FAST units: unchanged
    back = read_out(path)
    for name in ("PtfmPitch", "YawBrFxp", "HydroFzi"):
        assert back[name].attrs["units"] == binary[name].attrs["units"]
        x = binary[name].values
        assert np.all(np.abs(back[name].values - x) <= _es_half_ulp(x) * 1.0001)
