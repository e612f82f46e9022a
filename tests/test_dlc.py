"""Design-load cases (floatwind.dlc, ``floatwind dlc``): the expanded table against hand
computations from IEC 61400-1 ed. 3, bad input, an end-to-end run with resume and the load
report (rendered in headless Chromium). Fatigue and extremes arithmetic:
tests/test_dlc_fatigue_extremes.py."""

from __future__ import annotations

import copy
import json
import math
import pathlib

import numpy as np
import pandas as pd
import pytest
import yaml

from floatwind.cli import main
from floatwind.dlc import spec
from floatwind.dlc.spec import dlc_from_dict, load_dlc
from floatwind.errors import CaseError

ROOT = pathlib.Path(__file__).resolve().parents[1]
SMALL = ROOT / "tests" / "data" / "dlc" / "small_dlc.yaml"
EXAMPLE = ROOT / "cases" / "dlc" / "oc3_hywind_iec.yaml"


def _small() -> dict:
    return yaml.safe_load(SMALL.read_text())


def _load(data: dict):
    return dlc_from_dict(data, base_dir=SMALL.parent, source="small_dlc.yaml")


# ---------------------------------------------------------------- IEC formulas by hand


@pytest.mark.parametrize("cls,iref", [("A", 0.16), ("B", 0.14), ("C", 0.12)])
def test_turbulence_intensities_are_the_standards_formulas(cls, iref):
    # NTM (IEC 61400-1 ed. 3 eq. 11): sigma1 = Iref (0.75 V + 5.6); at 10 m/s class B: 1.834
    for v in (4.0, 10.0, 24.0):
        assert spec.ntm_sigma(v, cls) == pytest.approx(iref * (0.75 * v + 5.6), rel=1e-15)
    assert spec.ntm_sigma(10.0, "B") == pytest.approx(1.834, rel=1e-12)
    # ETM (eq. 19), class I (V_ave = 10 m/s), c = 2: sigma1 = 2 Iref (0.072 (5 + 3)(V/2 - 4) + 10)
    for v in (4.0, 10.0, 24.0):
        hand = 2.0 * iref * (0.072 * (10.0 / 2 + 3.0) * (v / 2 - 4.0) + 10.0)
        assert spec.etm_sigma(v, "I", cls) == pytest.approx(hand, rel=1e-15)
    assert spec.etm_sigma(10.0, "I", "B") == pytest.approx(2 * 0.14 * (0.576 + 10.0), rel=1e-12)


def test_ewm_speeds_from_vref():
    assert spec.ewm_speed("I", 50) == 70.0 and spec.ewm_speed("I", 1) == pytest.approx(56.0)
    assert spec.ewm_speed("II", 50) == pytest.approx(59.5)
    assert spec.ewm_speed("III", 1) == pytest.approx(0.8 * 1.4 * 37.5)


def test_jonswap_gamma_of_the_standard():
    assert spec.jonswap_gamma(4.0, 7.0) == 5.0  # Tp / sqrt(Hs) = 3.5
    assert spec.jonswap_gamma(4.0, 8.0) == pytest.approx(math.exp(5.75 - 1.15 * 4.0))
    assert spec.jonswap_gamma(1.0, 8.0) == 1.0


def test_expanded_table_equals_a_hand_computed_one():
    d = _small()
    d["site"]["sea_states"] = [
        {"wind_speed": 8.0, "hs": 1.4, "tp": 7.5, "probability": 0.25},
        {"wind_speed": 8.0, "hs": 2.0, "tp": 8.5, "probability": 0.75},
        {"wind_speed": 16.0, "hs": 3.1, "tp": 9.5},
    ]
    d["site"]["wave_directions"] = [{"heading_deg": 0, "probability": 0.6},
                                    {"heading_deg": 30, "probability": 0.4}]  # fmt: skip
    d["load_cases"] = [{"dlc": "1.2"}, {"dlc": "1.3", "wind_speeds": [16.0]}, {"dlc": "6.1"}]
    t = _load(d).table()
    # 1.2: (2 + 1) sea states x 2 directions x 2 seeds; 1.3: 1 x 2 x 2; 6.1: 3 yaws x 2 x 2
    assert t.groupby("dlc").size().to_dict() == {"1.2": 12, "1.3": 4, "6.1": 12}
    # Rayleigh of class I: A = 2 x 10 / sqrt(pi); bins 8 | 16 with edges 3, 12, 25 m/s
    A = 20.0 / math.sqrt(math.pi)
    p8 = math.exp(-((3 / A) ** 2)) - math.exp(-((12 / A) ** 2))
    p16 = math.exp(-((12 / A) ** 2)) - math.exp(-((25 / A) ** 2))
    r = t[(t.dlc == "1.2") & (t.hs == 2.0) & (t.wave_heading_deg == 30)]
    assert len(r) == 2 and set(r.seed) == {0, 1}
    assert r.probability.iloc[0] == pytest.approx(p8 * 0.75 * 0.4 / 2, rel=1e-14)
    r16 = t[(t.dlc == "1.2") & (t.wind_speed == 16.0) & (t.wave_heading_deg == 0)]
    assert r16.probability.iloc[0] == pytest.approx(p16 * 1.0 * 0.6 / 2, rel=1e-14)
    assert t[t.dlc == "1.2"].probability.sum() == pytest.approx(p8 + p16, rel=1e-13)
    # NTM intensity of class B at 8 m/s; ETM at 16 m/s with E[Hs|V]
    assert r.ti.iloc[0] == pytest.approx(0.14 * (0.75 * 8 + 5.6) / 8, rel=1e-14)
    e = t[t.dlc == "1.3"].iloc[0]
    assert e.wind_model == "ETM" and e.hs == 3.1
    assert e.sigma1 == pytest.approx(2 * 0.14 * (0.072 * 8 * 4 + 10), rel=1e-14)
    # 6.1: parked, V_e50 = 70 m/s, yaw -8/0/+8, 50-year sea, no fatigue weight
    p = t[t.dlc == "6.1"]
    assert set(p.yaw_misalignment_deg) == {-8.0, 0.0, 8.0} and set(p.wind_speed) == {70.0}
    assert set(p.hs) == {13.5} and p.probability.isna().all() and set(p.rotor) == {"parked"}
    assert (t.analysis_s == 30.0).all() and (t.transient_s == 5.0).all()
    assert t.run.is_unique


def test_dlc_6_3_and_1_6_expand_as_the_standard_says():
    d = _small()
    d["load_cases"] = [{"dlc": "6.3"}, {"dlc": "1.6", "seeds": 3}]
    t = _load(d).table()
    p = t[t.dlc == "6.3"]
    # V_e1 = 0.8 x 1.4 x 50 m/s, yaw -20/+20 deg, the 1-year sea state, parked, 2 seeds each
    assert np.allclose(p.wind_speed, 56.0, rtol=1e-14) and set(p.yaw_misalignment_deg) == {-20.0, 20.0}
    assert set(p.hs) == {9.5} and set(p.tp) == {13.0} and len(p) == 4 and set(p.wind_model) == {"EWM1"}
    s = t[t.dlc == "1.6"]
    assert len(s) == 2 * 3 and set(s.hs) == {6.6, 8.6} and set(s.wind_model) == {"NTM"}
    assert s.probability.isna().all()


def test_example_has_at_least_300_runs_and_lists_as_csv(capsys):
    assert main(["dlc", str(EXAMPLE), "--list"]) == 0
    import io

    t = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert len(t) >= 300 and set(t.dlc.astype(str)) == {"1.2", "1.6", "6.1"}
    assert t.groupby("dlc").seed.nunique().eq(6).all()
    assert t[t.dlc == 1.2].probability.sum() == pytest.approx(
        math.exp(-((3 / (20 / math.sqrt(math.pi))) ** 2))
        - math.exp(-((25 / (20 / math.sqrt(math.pi))) ** 2)), rel=1e-6)  # fmt: skip


def test_study_of_a_parked_case_locks_the_rotor_and_uses_the_parked_ct():
    dset = _load(_small())
    lc = next(lc for lc in dset.load_cases if lc.dlc == "6.1")
    study = dset.study(lc)
    run = study.runs()[0]
    case = study.case_dict(run)
    assert case["topology"]["spin"] == {"kind": "locked", "value_deg": 0.0}
    thrust = next(ld for ld in case["loads"] if ld["type"] == "thrust_ct")
    assert thrust["ct_mode"] == "fixed" and thrust["ct_fixed"] == 0.011
    wind = case["environment"]["wind"]
    assert wind["kind"] == "steady" and wind["speed"] == 70.0 and wind["shear_exponent"] == 0.11
    assert case["simulation"]["t_max"] == 35.0
    # operating: Kaimal with the NTM intensity; DLCs draw different seeds
    lc12 = dset.load_cases[0]
    w12 = dset.study(lc12).case_dict(dset.study(lc12).runs()[0])["environment"]["wind"]
    assert w12["kind"] == "kaimal" and w12["turbulence_class"] == pytest.approx(
        0.14 * (0.75 * 8 + 5.6) / 8)  # fmt: skip
    assert dset.study(lc12).master_seed != study.master_seed


# ---------------------------------------------------------------- bad input


def _mut(path, value):
    d = _small()
    node = d
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    return d


@pytest.mark.parametrize(
    "data,field,words",
    [
        (_mut(["load_cases"], [{"dlc": "1.2", "wind_speeds": [26.0]}]), "load_cases[0].wind_speeds[0]",
         "outside cut-in..cut-out"),
        (_mut(["site", "wind_bins"], [2.0, 16.0]), "site.wind_bins[0]", "outside cut-in"),
        (_mut(["site", "scatter"], [{"wind_speed": 8.0, "hs": 1, "tp": 7, "probability": 0.5},
                                    {"wind_speed": 16.0, "hs": 2, "tp": 8, "probability": 0.4}]),
         "site.scatter", "either"),
        (_mut(["load_cases"], [{"dlc": "6.2"}]), "load_cases[0].dlc", "unknown value '6.2'"),
        (_mut(["site", "weibull"], {"k": 0.0, "A": 10.0}), "site.weibull.k", "must be positive"),
        (_mut(["site", "weibull"], {"k": -2.0, "A": 10.0}), "site.weibull.k", "must be positive"),
        (_mut(["site", "sea_states"], [{"wind_speed": 8.0, "hs": 1.4, "tp": 7.5,
                                        "probability": 0.5}, {"wind_speed": 16.0, "hs": 3, "tp": 9}]),
         "site.sea_states", "summing to 0.5"),
        (_mut(["seeds"], 0), "seeds", "integer >= 1"),
        (_mut(["fatigue", "wohler"], [3, -4]), "fatigue.wohler[1]", "positive"),
        (_mut(["extremes", "channels"], ["PtfmPich"]), "extremes.channels[0]", "did you mean"),
        (_mut(["load_cases"], [{"dlc": "1.2", "yaw_misalignment_deg": [8]}]),
         "load_cases[0].yaw_misalignment_deg", "parked"),
        (_mut(["site", "extreme_sea_states"], None), "site.extreme_sea_states", "6.1"),
        (_mut(["load_cases"], [{"dlc": "1.2", "seeds": 2, "bogus": 1}]), "load_cases[0].bogus",
         "unknown key"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_naming_the_field(data, field, words):
    with pytest.raises(CaseError) as ei:
        _load(data)
    assert ei.value.field == field and words in str(ei.value), str(ei.value)
    assert "small_dlc.yaml" in str(ei.value) and "\n" not in str(ei.value)


def test_scatter_probabilities_must_sum_to_one():
    d = _small()
    del d["site"]["sea_states"]
    d["site"]["scatter"] = [{"wind_speed": 8.0, "hs": 1, "tp": 7, "probability": 0.5},
                            {"wind_speed": 16.0, "hs": 2, "tp": 8, "probability": 0.4999}]  # fmt: skip
    with pytest.raises(CaseError, match=r"sum to 0.9999, not 1 \(within 1e-06\)") as ei:
        _load(d)
    assert ei.value.field == "site.scatter"
    d["site"]["scatter"][1]["probability"] = 0.5 - 5e-7  # within the tolerance
    dset = _load(d)
    assert dset.bin_probability() == pytest.approx([0.5, 0.5 - 5e-7])


def test_parked_dlc_needs_the_cases_parked_ct(tmp_path):
    case = yaml.safe_load((ROOT / "cases" / "oc3_hywind_catenary.yaml").read_text())
    for ld in case["loads"]:
        ld.pop("ct_parked", None)
        if ld.get("ct_curve"):
            ld["ct_curve"] = str(ROOT / "cases" / ld["ct_curve"])
    (tmp_path / "c.yaml").write_text(yaml.safe_dump(case))
    d = _small()
    d["case"] = str(tmp_path / "c.yaml")
    dset = _load(d)
    with pytest.raises(CaseError, match="ct_parked") as ei:
        dset.study(dset.load_cases[1])
    assert ei.value.field.endswith(".ct_parked")


# ---------------------------------------------------------------- end to end


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("dlc") / "small"
    rc = main(["dlc", str(SMALL), "-o", str(out), "--workers", "1", "--no-progress",
               "--report", str(out.parent / "report.html")])  # fmt: skip
    assert rc == 0
    return out


def test_end_to_end_tables(small_run):
    out = small_run
    runs = pd.read_csv(out / "runs.csv")
    assert len(runs) == 8 and (runs.status == "ok").all()
    fat = pd.read_csv(out / "fatigue.csv")
    assert set(fat.channel) == {"YawBrMyp", "FAIRTEN1"} and set(fat.m) == {3, 4}
    assert (fat["del"] > 0).all() and set(fat.units) == {"N m", "N"}
    # the lifetime DEL is the weighted damage of the runs, recomputed here from runs.csv
    life_s = 20 * 365.25 * 86400
    for _, row in fat.iterrows():
        col = next(c for c in runs.columns if c.startswith(f"{row.channel}.dsum_m{row.m:g} "))
        r = runs[runs.dlc == 1.2]
        D = np.sum(r.probability * life_s / r.analysis_s * r[col])
        assert row["del"] == pytest.approx((D / 1e7) ** (1 / row.m), rel=1e-9)
    # per-run 1 Hz DELs = fatigue.run_del of the damage sum over the 30 s window
    for m in (3, 4):
        dcol = f"YawBrMyp.dsum_m{m} [(N m)^{m}]"
        r = runs[runs.dlc == 1.2]
        assert r[f"YawBrMyp.del_m{m} [N m, 1 Hz]"].to_numpy() == pytest.approx(
            (r[dcol].to_numpy() / 30.0) ** (1 / m), rel=1e-12)  # fmt: skip
    ext = pd.read_csv(out / "extremes.csv")
    gov = pd.read_csv(out / "governing.csv")
    assert set(ext.dlc) == {6.1} and len(gov) == 6  # 3 channels x (max, min)
    pitch = ext[(ext.channel == "PtfmPitch") & (ext.side == "max")]
    assert set(pitch.units) == {"deg"}
    # the characteristic = mean of the two seed maxima, design = 1.35 x it (IEC, normal)
    for _, e in pitch.iterrows():
        seeds = runs[runs.group == e.group]["PtfmPitch.max [deg]"]
        assert e.characteristic == pytest.approx(seeds.mean(), rel=1e-12)
        assert e.design == pytest.approx(1.35 * seeds.mean(), rel=1e-12)
    g = gov[(gov.channel == "PtfmPitch") & (gov.side == "max")].iloc[0]
    assert g.design == pytest.approx(pitch.design.max(), rel=1e-12)
    rec = json.loads((out / "dlc.json").read_text())
    assert rec["n_run_now"] == 8 and rec["wall_s"] > 0


def test_rerun_needs_resume_and_resume_runs_nothing(small_run, capsys):
    assert main(["dlc", str(SMALL), "-o", str(small_run), "--no-progress"]) == 2
    assert "--resume" in capsys.readouterr().err
    before = (small_run / "fatigue.csv").read_text()
    assert main(["dlc", str(SMALL), "-o", str(small_run), "--resume", "--no-progress"]) == 0
    assert "0 run now" in capsys.readouterr().out
    assert (small_run / "fatigue.csv").read_text() == before
    # another DLC set in the same folder is refused
    other = tmp = small_run.parent / "other.yaml"
    d = _small()
    d["case"] = str(ROOT / "cases" / "oc3_hywind_catenary.yaml")
    d["seeds"] = 3
    tmp.write_text(yaml.safe_dump(d))
    assert main(["dlc", str(other), "-o", str(small_run), "--resume", "--no-progress"]) == 2
    assert "holds another DLC set" in capsys.readouterr().err


def test_report_is_self_contained_and_rebuilt_from_the_folder(small_run, tmp_path):
    page = (small_run.parent / "report.html").read_text()
    for words in ("Load cases", "Fatigue", "Extremes", "Governing time series", "DLC 6.1",
                  "data:image/png;base64,"):  # fmt: skip
        assert words in page
    assert page.count("<img") == 2 + 6  # DEL and extremes figures + one series per governing row
    assert main(["report", "dlc", str(small_run), "-o", str(tmp_path / "r.html")]) == 0
    assert (tmp_path / "r.html").read_text() == page


def test_report_renders_in_headless_chromium(small_run, tmp_path):
    from tests.test_report import _chromium

    if _chromium() is None:
        pytest.skip("chromium not installed (.ci/run installs it)")
    from tests.test_report import rendered_image_count

    assert rendered_image_count((small_run.parent / "report.html").read_text(), tmp_path) == 8


def test_variant_topology_gets_batches_of_its_own():
    from floatwind.studies.execute import batch_key
    from floatwind.studies.spec import study_from_dict

    data = {"designs": [{"name": "d", "case": "../../../cases/oc3_hywind_catenary.yaml"}],
            "conditions": [{"name": "c"}],
            "variants": [{"name": "a"}, {"name": "parked", "topology": {"spin": {"kind": "locked"}}}]}  # fmt: skip
    st = study_from_dict(copy.deepcopy(data), base_dir=SMALL.parent)
    runs = st.runs()
    assert batch_key(st, runs[0]) != batch_key(st, runs[1])
    assert st.case_dict(runs[1])["topology"]["spin"] == {"kind": "locked"}
    assert st.case_dict(runs[0])["topology"]["spin"]["kind"] == "constant_rate"


def test_tables_refuse_missing_or_failed_runs(small_run):
    """A lifetime DEL or an extreme without every run would be silently wrong: refused, naming
    the first run and saying --resume."""
    from floatwind.dlc.run import extreme_tables, fatigue_tables, run_rows

    dset = load_dlc(SMALL)
    runs = run_rows(dset, small_run)
    assert (runs.status == "ok").all()
    broken = runs.copy()
    broken.loc[broken.index[0], "status"] = "failed"
    with pytest.raises(CaseError, match=r"1 fatigue run\(s\) are failed \(first: dlc1_2/.*--resume"):
        fatigue_tables(dset, broken)
    broken = runs.copy()
    broken.loc[broken.dlc == "6.1", "status"] = "missing"
    with pytest.raises(CaseError, match=r"4 ultimate run\(s\) are missing"):
        extreme_tables(dset, broken)
