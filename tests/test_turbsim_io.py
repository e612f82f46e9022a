"""turbsim_io: .bts read/write against TurbSim's layout, the real file, and the generator."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest
import xarray as xr
from scipy import signal

import turbsim_io
from turbsim_io import BtsFormatError, read_bts, write_bts

REF = Path(__file__).resolve().parents[2] / "shared" / "reference" / "turbsim" / "small.bts"
if not REF.exists():  # checkout elsewhere: fall back to the shared path
    REF = Path("/work/shared/reference/turbsim/small.bts")


@pytest.fixture(scope="module")
def small():
    return read_bts(REF)


def test_reference_header(small):
    assert small.attrs["file_id"] == 7 and small.attrs["periodic"] == 0
    assert small.sizes == {"time": 680, "y": 9, "z": 9}
    assert small.attrs["uhub"] == pytest.approx(18.2, abs=1e-5)
    assert small.attrs["zhub"] == 90.0
    assert small.z.values[0] == pytest.approx(17.5)
    assert small.attrs["dz"] == pytest.approx(18.125) and small.attrs["dy"] == pytest.approx(18.125)
    assert small.time.values[1] == pytest.approx(0.1)
    assert "TurbSim" in small.attrs["description"]
    assert "u_tower" not in small


@pytest.mark.parametrize(
    "comp, mean, std, vmin, vmax",
    [
        ("u", 18.7209, 1.8102, 12.8625, 24.2171),
        ("v", -0.2531, 2.0908, -5.2418, 5.1497),
        ("w", 0.1101, 1.2615, -3.6281, 3.9017),
    ],
)
def test_reference_readme_figures(small, comp, mean, std, vmin, vmax):
    x = small[comp].sel(y=0.0, z=90.0).values.astype(float)
    assert x.mean() == pytest.approx(mean, abs=1e-4)
    assert x.std() == pytest.approx(std, abs=1e-4)
    assert x.min() == pytest.approx(vmin, abs=1e-4)
    assert x.max() == pytest.approx(vmax, abs=1e-4)


def _field(nt=20, ny=4, nz=3, tower=0, seed=0):
    rng = np.random.default_rng(seed)
    ds = xr.Dataset(
        {
            c: (("time", "y", "z"), rng.normal(10 if c == "u" else 0, 2, (nt, ny, nz)))
            for c in "uvw"
        },
        coords={
            "time": np.arange(nt) * 0.05,
            "y": (np.arange(ny) - (ny - 1) / 2) * 5.0,
            "z": 40.0 + np.arange(nz) * 5.0,
        },
        attrs={"uhub": 10.0, "zhub": 45.0, "description": "test field", "periodic": 1},
    )
    if tower:
        ds = ds.assign_coords(z_tower=40.0 - 5.0 * np.arange(tower))
        for c in "uvw":
            ds[f"{c}_tower"] = (("time", "z_tower"), rng.normal(5, 1, (nt, tower)))
    return ds


@pytest.mark.parametrize("tower", [0, 3])
def test_round_trip(tmp_path, tower):
    ds = _field(tower=tower)
    p = tmp_path / "f.bts"
    write_bts(p, ds)
    back = read_bts(p)
    assert back.attrs["periodic"] == 1 and back.attrs["description"] == "test field"
    for c in "uvw":
        names = [c] + ([f"{c}_tower"] if tower else [])
        span = max(float(ds[n].max()) for n in names) - min(float(ds[n].min()) for n in names)
        tol = 0.51 * span / 65535 + 1e-5
        for n in names:
            err = np.abs(back[n].values - ds[n].transpose(*back[n].dims).values).max()
            assert err <= tol, (n, err, tol)
    np.testing.assert_allclose(back.y.values, ds.y.values, atol=1e-5)
    np.testing.assert_allclose(back.z.values, ds.z.values, atol=1e-5)
    if tower:
        np.testing.assert_allclose(back.z_tower.values, [40.0, 35.0, 30.0], atol=1e-5)


def _minimal_bytes(ntwr=1, nchar=3, nt=2):
    """A hand-built file in the documented layout: nz=2, ny=3, slope 100, offset 0 (u: -1000)."""
    nz, ny = 2, 3
    head = struct.pack(
        "<h4i12fi", 8, nz, ny, ntwr, nt, 10.0, 5.0, 0.5, 12.0, 30.0, 20.0,
        100.0, -1000.0, 100.0, 0.0, 100.0, 0.0, nchar,
    )  # fmt: skip
    body = []
    for it in range(nt):
        for iz in range(nz):
            for iy in range(ny):
                body += [100 * (it + iz + iy) - 1000 + 1200, 100 * iy, -100 * iz]
        for k in range(ntwr):
            body += [1000 + 100 * k - 1000, 7, -7]
    return head + b"abc"[:nchar] + struct.pack(f"<{len(body)}h", *body)


def test_hand_built_minimal_file(tmp_path):
    p = tmp_path / "m.bts"
    p.write_bytes(_minimal_bytes())
    ds = read_bts(p)
    assert ds.attrs["periodic"] == 1 and ds.attrs["description"] == "abc"
    np.testing.assert_allclose(ds.y.values, [-5.0, 0.0, 5.0])
    np.testing.assert_allclose(ds.z.values, [20.0, 30.0])
    # u = (int - offset)/slope = (100 (it + iz + iy) + 1200)/100
    assert float(ds.u.isel(time=1, z=1, y=2)) == pytest.approx(12.0 + 4.0)
    assert float(ds.v.isel(time=0, z=0, y=2)) == pytest.approx(2.0)
    assert float(ds.w.isel(time=0, z=1, y=0)) == pytest.approx(-1.0)
    assert ds.z_tower.values.tolist() == [20.0]
    assert float(ds.u_tower.isel(time=0, z_tower=0)) == pytest.approx(10.0)
    assert float(ds.v_tower.isel(time=1, z_tower=0)) == pytest.approx(0.07)


def test_truncated_and_malformed(tmp_path):
    good = _minimal_bytes()
    cases = {
        "trunc": good[:-5],
        "header": good[:30],
        "badid": struct.pack("<h", 3) + good[2:],
        "extra": good + b"\x00\x00",
    }
    msgs = {"trunc": "truncated", "header": "header", "badid": "file id", "extra": "unexpected"}
    for name, raw in cases.items():
        p = tmp_path / f"{name}.bts"
        p.write_bytes(raw)
        with pytest.raises(BtsFormatError, match=msgs[name]) as info:
            read_bts(p)
        assert str(p) in str(info.value)
        assert isinstance(info.value, ValueError)
    with pytest.raises(BtsFormatError, match="cannot read"):
        read_bts(tmp_path / "missing.bts")


def test_turbsim_io_does_not_import_floatwind():
    import ast

    for p in Path(turbsim_io.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                mods = [node.module or ""]
            else:
                continue
            assert not any(m.split(".")[0] == "floatwind" for m in mods), p


@pytest.fixture(scope="module")
def kaimal():
    return turbsim_io.generate_kaimal(
        uhub=12.0, zhub=90.0, ny=3, nz=3, width=20.0, height=20.0, dt=0.25, nt=2**15, seed=7
    )


def test_generator_seeded(kaimal):
    again = turbsim_io.generate_kaimal(
        uhub=12.0, zhub=90.0, ny=3, nz=3, width=20.0, height=20.0, dt=0.25, nt=2**15, seed=7
    )
    assert np.array_equal(kaimal.u.values, again.u.values)


def test_generator_many_equals_each_realization_alone():
    """generate_kaimal_many shares the coherence factorizations between realizations; every field
    is the one its seed gives alone, to the bit, whatever the other seeds (and v, w correlated
    too with coherence_vw)."""
    kw = dict(uhub=12.0, zhub=90.0, ny=3, nz=4, width=20.0, height=30.0, dt=0.25, nt=2**11)
    seeds = [np.random.SeedSequence(3, spawn_key=(k,)) for k in range(3)]
    for vw in (False, True):
        many = turbsim_io.generate_kaimal_many(seeds=seeds, coherence_vw=vw, **kw)
        assert len(many) == 3
        for s, ds in zip(seeds, many):
            alone = turbsim_io.generate_kaimal(seed=s, coherence_vw=vw, **kw)
            for c in "uvw":
                assert ds[c].dtype == np.float32
                assert np.array_equal(ds[c].values, alone[c].values)
        assert not np.array_equal(many[0].u.values, many[1].u.values)


def test_generator_statistics(kaimal):
    sigma1 = turbsim_io.ntm_sigma1(12.0, "B")
    hub = kaimal.sel(y=0.0, z=90.0)
    assert float(hub.u.mean()) == pytest.approx(12.0, abs=1e-4)
    # the discrete spectrum misses the part below 1/T: compare with its own integral
    f = np.arange(1, 2**14) / (2**15 * 0.25)
    for comp, ratio in (("u", 1.0), ("v", 0.8), ("w", 0.5)):
        target = np.sqrt(np.sum(turbsim_io.kaimal_spectrum(f, comp, 12.0, sigma1, 90.0)) * f[0])
        assert target == pytest.approx(ratio * sigma1, rel=0.08)
        # average over the 9 points to reduce low-frequency sampling scatter
        std = float(kaimal[comp].std("time").mean())
        assert std == pytest.approx(target, rel=0.12), comp


def test_generator_spectrum_and_coherence(kaimal):
    sigma1 = turbsim_io.ntm_sigma1(12.0, "B")
    u = kaimal.u.sel(z=90.0).values.astype(float)  # (time, y): separations 10 and 20 m
    fs = 4.0
    f, p = signal.welch(u[:, 1] - u[:, 1].mean(), fs=fs, nperseg=1024)
    band = (f > 0.02) & (f < 1.0)
    model = turbsim_io.kaimal_spectrum(f[band], "u", 12.0, sigma1, 90.0)
    assert np.median(p[band] / model) == pytest.approx(1.0, abs=0.15)
    for (ia, ib), r in (((1, 2), 10.0), ((0, 1), 10.0), ((0, 2), 20.0)):
        a, b = u[:, ia], u[:, ib]
        f, pab = signal.csd(a, b, fs=fs, nperseg=512)
        _, paa = signal.welch(a, fs=fs, nperseg=512)
        _, pbb = signal.welch(b, fs=fs, nperseg=512)
        coh = pab.real / np.sqrt(paa * pbb)
        sel = (f > 0.03) & (f < 0.4)
        expect = turbsim_io.iec_coherence(f[sel], r, 12.0, 90.0)
        assert np.abs(coh[sel] - expect).mean() < 0.08, r


# ------------------------------------------------ openfast_io's TurbSimFile, both ways


def _int16_step(slope):
    return 1.0 / np.abs(np.asarray(slope, dtype=float))


@pytest.mark.parametrize("tower", [0, 3])
def test_openfast_io_reads_what_turbsim_io_writes(tmp_path, tower):
    tsf = pytest.importorskip("openfast_io.turbsim_file")
    ds = _field(nt=40, ny=5, nz=4, tower=tower, seed=3)
    p = tmp_path / "fw.bts"
    write_bts(p, ds)
    mine = read_bts(p)
    ts = tsf.TurbSimFile(str(p))
    assert ts["ID"] == 8 and ts["info"] == "test field"
    assert ts["uRef"] == pytest.approx(10.0) and ts["zRef"] == pytest.approx(45.0)
    np.testing.assert_allclose(ts["t"], ds.time.values, atol=1e-6)
    np.testing.assert_allclose(ts["y"], ds.y.values, atol=1e-5)
    np.testing.assert_allclose(ts["z"], ds.z.values, atol=1e-5)
    if tower:
        np.testing.assert_allclose(ts["zTwr"], ds.z_tower.values, atol=1e-5)
    for k, c in enumerate("uvw"):
        step = _int16_step(mine.attrs[f"slope_{c}"])
        theirs = ts["u"][k]  # (nt, ny, nz)
        # the same stored int16 values as floatwind's reader decodes them (it decodes in float32,
        # openfast_io in float64: equal to float32 rounding)
        np.testing.assert_allclose(theirs, mine[c].transpose("time", "y", "z").values,
                                   rtol=2.0**-22, atol=1e-3 * step)  # fmt: skip
        # within half a count of what was written
        assert np.abs(theirs - ds[c].transpose("time", "y", "z").values).max() <= 0.51 * step
        if tower:
            assert np.abs(ts["uTwr"][k] - ds[f"{c}_tower"].values).max() <= 0.51 * step


@pytest.mark.parametrize("tower", [0, 2])
def test_turbsim_io_reads_what_openfast_io_writes(tmp_path, tower):
    tsf = pytest.importorskip("openfast_io.turbsim_file")
    ds = _field(nt=40, ny=5, nz=4, tower=tower, seed=4)
    ts = tsf.TurbSimFile()
    ts["u"] = np.stack([ds[c].transpose("time", "y", "z").values for c in "uvw"])
    ts["t"], ts["y"], ts["z"] = ds.time.values, ds.y.values, ds.z.values
    if tower:
        ts["uTwr"] = np.stack([ds[f"{c}_tower"].values for c in "uvw"])
    p = tmp_path / "oio.bts"
    ts.write(str(p))
    mine = read_bts(p)
    again = tsf.TurbSimFile(str(p))
    assert mine.attrs["file_id"] == 7 and mine.attrs["description"] == again["info"]
    np.testing.assert_allclose(mine.time.values, ds.time.values, atol=1e-6)
    np.testing.assert_allclose(mine.y.values, ds.y.values, atol=1e-5)
    np.testing.assert_allclose(mine.z.values, ds.z.values, atol=1e-5)
    assert mine.attrs["zhub"] == pytest.approx(float(again["zRef"]))
    assert mine.attrs["uhub"] == pytest.approx(float(again["uRef"]))
    for k, c in enumerate("uvw"):
        step = _int16_step(mine.attrs[f"slope_{c}"])
        got = mine[c].transpose("time", "y", "z").values
        # what openfast_io reads back from its own file, to float32 arithmetic
        np.testing.assert_allclose(got, again["u"][k], rtol=2.0**-22, atol=1e-3 * step)
        # openfast_io packs by truncation (astype(int16)): within one count of what it was given
        assert np.abs(got - ds[c].transpose("time", "y", "z").values).max() <= 1.01 * step
        if tower:
            np.testing.assert_allclose(mine[f"{c}_tower"].values, again["uTwr"][k],
                                       rtol=2.0**-22, atol=1e-3 * step)  # fmt: skip
            assert np.abs(mine[f"{c}_tower"].values - ds[f"{c}_tower"].values).max() <= 1.01 * step


def test_reference_file_reads_the_same_as_openfast_io(small):
    tsf = pytest.importorskip("openfast_io.turbsim_file")
    ts = tsf.TurbSimFile(str(REF))
    for k, c in enumerate("uvw"):
        np.testing.assert_allclose(small[c].transpose("time", "y", "z").values, ts["u"][k],
                                   rtol=2.0**-22, atol=1e-3 / small.attrs[f"slope_{c}"])  # fmt: skip
    np.testing.assert_allclose(small.z.values, ts["z"], atol=1e-5)
    np.testing.assert_allclose(small.y.values, ts["y"], atol=1e-5)
    assert small.attrs["zhub"] == pytest.approx(float(ts["zRef"]))
