"""validation/openfast/compare.py on shortened windows of the reference cases."""

from __future__ import annotations

import pathlib
import sys

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from validation.openfast.compare import (  # noqa: E402
    compare_case,
    decay_properties,
    hermite_table,
    hydrodyn_channels,
    main,
    metrics,
)

REF = pathlib.Path("/work/shared/reference/openfast")
if not REF.is_dir():
    REF = ROOT.parent / "shared" / "reference" / "openfast"
needs_ref = pytest.mark.skipif(not REF.is_dir(), reason="OpenFAST references not available")


def test_metrics_and_decay_on_analytic_signal():
    t = np.arange(0, 200, 0.05)
    zeta, wn = 0.02, 2 * np.pi / 25.0
    wd = wn * np.sqrt(1 - zeta**2)
    x = np.exp(-zeta * wn * t) * np.cos(wd * t)
    d = decay_properties(t, x)
    assert d["period_s"] == pytest.approx(2 * np.pi / wd, rel=1e-3)
    assert d["damping_ratio"] == pytest.approx(zeta, rel=2e-2)
    mx, nr, corr, rng = metrics(x, x + 1e-3, "m")
    assert (
        mx == pytest.approx(1e-3) and nr == pytest.approx(1e-3 / rng) and corr == pytest.approx(1)
    )


def test_hermite_table_exact_for_quintic():
    t = np.linspace(0, 1, 6)
    f = lambda s: s**5 - 2 * s**3 + s  # noqa: E731
    df = lambda s: 5 * s**4 - 6 * s**2 + 1  # noqa: E731
    ddf = lambda s: 20 * s**3 - 12 * s  # noqa: E731
    tt, q, v, a = hermite_table(t, f(t), df(t), ddf(t), 4)
    np.testing.assert_allclose(q, f(tt), atol=1e-13)
    np.testing.assert_allclose(v, df(tt), atol=1e-11)
    np.testing.assert_allclose(a, ddf(tt), atol=1e-9)


@needs_ref
@pytest.mark.parametrize(
    "case, t_end",
    [("ref01_pitch_decay", 5.0), ("ref02_seed_free_vibration", 5.0), ("ref03_yaw_spin", 3.0)],
)
def test_rigid_cases_pass_tight_criteria(case, t_end):
    res = compare_case(REF / case, t_end=t_end)
    assert res.passed, [c for c in res.channels if not c.passed]
    nr = {c.channel: c.nrmse for c in res.channels}
    for ch in ("PtfmSurge", "PtfmHeave", "PtfmPitch"):
        assert nr[ch] < 1e-5
    if "YawBrFxp" in nr:  # load channels from inverse dynamics
        assert nr["YawBrMyp"] < 1e-4 and nr["RootMyb1"] < 1e-4 and nr["TwrBsMyt"] < 1e-4
    # HydroDyn's total load, formed from floatwind's per-load channels
    assert nr["HydroFzi"] < 1e-4 and nr["HydroMyi"] < 1e-4 and nr["HydroFxi"] < 1e-4


def test_hydrodyn_channels_sum_the_hydrodyn_loads():
    import xarray as xr

    t = np.arange(4.0)
    data = {}
    for n, f in (("lin", 1.0), ("morison", 10.0), ("other", 100.0)):
        for q in "FM":
            for a in "xyz":
                data[f"{n}_{q}{a}i"] = (("realization", "time"), f * np.ones((1, 4)))
    ds = xr.Dataset(data, coords={"time": t})
    out = hydrodyn_channels(ds, ["lin", "morison"])
    assert sorted(out) == sorted(f"Hydro{q}{a}i" for q in "FM" for a in "xyz")
    np.testing.assert_allclose(out["HydroMyi"], 11.0)
    assert hydrodyn_channels(ds, ["lin", "missing"]) == {}
    assert hydrodyn_channels(ds, []) == {}


@needs_ref
def test_morison_case_hydro_loads_and_axis_option():
    """ref04 over 2 s: HydroF/M within the 2 % criterion; the instantaneous axis changes them."""
    und = compare_case(REF / "ref04_morison_decay", t_end=2.0)
    ins = compare_case(REF / "ref04_morison_decay", t_end=2.0, morison_axis="instantaneous")
    nr = {c.channel: c.nrmse for c in und.channels}
    assert und.passed
    assert nr["HydroFxi"] < 1e-3 and nr["HydroMyi"] < 1e-3 and nr["PtfmPitch"] < 1e-4
    d = np.max(np.abs(ins.series["HydroFxi"][1] - und.series["HydroFxi"][1]))
    assert d > 1.0  # N: the axis choice is visible in the load


@needs_ref
def test_compare_fails_on_wrong_physics(tmp_path):
    """A deck whose reference output was not produced by it must fail (exit 1)."""
    import shutil

    d = tmp_path / "ref01_wrong"
    shutil.copytree(REF / "ref01_pitch_decay", d)
    (d / "case_definition.json").unlink()
    ed = d / "ElastoDyn.dat"
    ed.write_text(ed.read_text().replace("5.729577951", "5.0"))
    assert main([str(d), "--tmax", "3"]) == 1


def test_compare_bad_input_exit_2(tmp_path):
    assert main([str(tmp_path)]) == 2


def test_docs_table_rows_are_written_by_the_script(tmp_path):
    """Issue 24: docs/validation.md's measured table is compare.py's output (--docs): the rows of
    the compared cases are replaced (same case and window), the others kept, sorted by case."""
    from validation.openfast.compare import (
        DOCS_BEGIN,
        DOCS_END,
        CaseResult,
        ChannelResult,
        update_docs,
    )

    def res(case, nrmse, window=(0.0, 300.0)):
        r = CaseResult(case=case, ref_dir="x", window=window, wall_s=12.3)
        r.channels = [
            ChannelResult("PtfmPitch", "rad", 1e-3, nrmse, 1.0, 0.1, 1e-3, nrmse <= 1e-3),
            ChannelResult("PtfmSurge", "m", 1e-3, nrmse / 2, 1.0, 1.0, None, None),
            ChannelResult("TwrBsMyt", "N m", 1.0, 2 * nrmse, 1.0, 1e6, None, None),
            ChannelResult("HydroFxi", "N", 1.0, 3 * nrmse, 1.0, 1e6, None, None),
        ]
        return r

    doc = tmp_path / "v.md"
    doc.write_text(f"# v\n\ntext\n\n{DOCS_BEGIN}\n| case | window |\n|---|---|\n"
                   f"| zz_old | 0-10 s | kept |\n| ref01 | 0-300 s | stale |\n{DOCS_END}\n\nafter\n")  # fmt: skip
    update_docs(doc, [res("ref01", 2e-4), res("ref02", 5e-3, (0.0, 40.0))])
    text = doc.read_text()
    table = text.split(DOCS_BEGIN)[1].split(DOCS_END)[0].strip().splitlines()
    assert table[0].startswith("| case | window | motions") and len(table) == 2 + 3
    assert [r.split("|")[1].strip() for r in table[2:]] == ["ref01", "ref02", "zz_old"]
    assert "stale" not in text and "| zz_old | 0-10 s | kept |" in text and text.endswith("after\n")
    row1 = table[2]
    assert "| 2.0e-04 (PtfmPitch; PtfmSurge 1.0e-04) |" in row1 and "4.0e-04 (TwrBsMyt)" in row1
    assert "6.0e-04 (HydroFxi)" in row1 and "pass; floatwind wall 12 s" in row1
    assert "FAIL" in table[3] and "| 0-40 s |" in table[3]
    # a file without the markers is refused, untouched
    bare = tmp_path / "b.md"
    bare.write_text("no table\n")
    with pytest.raises(Exception, match="markers"):
        update_docs(bare, [res("ref01", 1e-4)])
    assert bare.read_text() == "no table\n"


@needs_ref
def test_plain_mode_runs_the_deck_as_floatwind_run_does():
    """Issue 17: --plain runs the imported deck with its own nacelle-yaw degree of freedom (the
    yaw-drive spring/damper toward the ServoDyn command), nothing taken from OpenFAST's outputs
    but the sea. On ref03 both modes pass; plain within 1e-4 of range for the platform motions,
    the structural and hydrodynamic loads and NacYaw, NacYawV, NacYawA (60 s here: the yaw start
    transient; the full 300 s in docs/validation.md)."""
    from validation.openfast.compare import compare_case

    default = compare_case(REF / "ref03_yaw_spin", t_end=60.0)
    plain = compare_case(REF / "ref03_yaw_spin", t_end=60.0, plain=True)
    npl = {c.channel: c.nrmse for c in plain.channels}
    assert default.passed and plain.passed
    for ch in ("PtfmYaw", "PtfmSway", "PtfmRoll", "YawBrMzp", "TwrBsMxt", "RootMyb1",
               "NacYaw", "NacYawV", "NacYawA"):  # fmt: skip
        assert npl[ch] < 1e-4, (ch, npl[ch])
    assert npl["PtfmYaw"] < 1e-5 and npl["NacYaw"] < 1e-6
    assert any(n.startswith("plain:") for n in plain.notes)
