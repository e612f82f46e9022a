"""``floatwind dlc`` with the blade-element rotor (cases/oc3_hywind_bem.yaml): the parked DLCs
feather the blades and lock the spin instead of the C_T disc's ct_parked, the operating ones run
the rotor as the case has it, a case with both rotor models is refused, and a short DLC 1.2 + 6.1
gives the feathered rotor's loads, blade-node channels and blade-root DELs."""

from __future__ import annotations

import copy
import pathlib

import numpy as np
import pandas as pd
import pytest
import yaml

from floatwind.cli import main
from floatwind.dlc.spec import dlc_from_dict
from floatwind.errors import CaseError

ROOT = pathlib.Path(__file__).resolve().parents[1]
CASES = ROOT / "cases"
BEM = CASES / "oc3_hywind_bem.yaml"


def _dlc(case: pathlib.Path = BEM) -> dict:
    """A tiny DLC set: one 16 m/s bin of DLC 1.2 and DLC 6.1 at 0 deg yaw, one seed, 4 s."""
    return {
        "name": "bem_dlc",
        "case": str(case),
        "site": {
            "wind_bins": [16.0],
            "sea_states": [{"wind_speed": 16.0, "hs": 3.1, "tp": 9.5}],
            "extreme_sea_states": {"hs50": 13.5, "tp50": 15.0, "hs1": 9.5, "tp1": 13.0},
        },
        "load_cases": [{"dlc": "1.2"}, {"dlc": "6.1", "yaw_misalignment_deg": [0]}],
        "seeds": 1,
        "analysis": 4.0,
        "transient": 1.0,
        "simulation": {"dt": 0.1, "dt_out": 0.1},
        "channels": [
            "PtfmPitch",
            "RtAeroFxh",
            "RtAeroMxh",
            "RootMxb1",
            "RootMyb1",
            "B1N5Alpha",
            "B1N5Fx",
        ],  # fmt: skip
        "fatigue": {"channels": ["RootMxb1", "RootMyb1"], "wohler": [3, 10]},
        "extremes": {"channels": ["RtAeroFxh", "RootMyb1", "B1N5Fx"]},
    }


def _load(data: dict):
    return dlc_from_dict(data, base_dir=ROOT, source="bem_dlc.yaml")


def _case_of(dset, dlc: str) -> dict:
    lc = next(lc for lc in dset.load_cases if lc.dlc == dlc)
    study = dset.study(lc)
    return study.case_dict(study.runs()[0])


def _bem(case: dict) -> dict:
    return next(ld for ld in case["loads"] if ld["type"] == "bem_rotor")


def _write_case(tmp_path, mutate) -> pathlib.Path:
    d = yaml.safe_load(BEM.read_text())
    ld = _bem(d)
    ld["blade_file"] = str(CASES / ld["blade_file"])
    ld["airfoils"] = [str(CASES / a) for a in ld["airfoils"]]
    mutate(d)
    path = tmp_path / "case.yaml"
    path.write_text(yaml.safe_dump(d))
    return path


def test_parked_bem_rotor_is_feathered_and_locked_without_ct_parked():
    dset = _load(_dlc())
    assert dset.rotor_model() == "bem_rotor"
    lc = next(lc for lc in dset.load_cases if lc.dlc == "6.1")
    variant = dset.study_dict(lc)["variants"][0]
    assert variant["loads"] == {"bem_rotor": {"pitch_deg": 90.0}}
    # the case's blades sit on the six-body tree's pitch joints: those are feathered too
    assert variant["topology"] == {"spin": {"kind": "locked", "value_deg": 0.0},
                                   "pitch": {"kind": "locked", "value_deg": 90.0}}  # fmt: skip
    case = _case_of(dset, "6.1")
    assert _bem(case)["pitch_deg"] == 90.0 and "ct_parked" not in _bem(case)
    assert case["topology"]["pitch"] == {"kind": "locked", "value_deg": 90.0}
    assert case["topology"]["spin"] == {"kind": "locked", "value_deg": 0.0}
    assert case["environment"]["wind"]["speed"] == 70.0
    # operating: the rotor as the case has it (pitch 13.42 deg, 12.1 rpm)
    op = _case_of(dset, "1.2")
    base = yaml.safe_load(BEM.read_text())
    assert op["topology"]["pitch"] == base["topology"]["pitch"]
    assert op["topology"]["spin"] == base["topology"]["spin"]
    assert "pitch_deg" not in _bem(op) and "loads" not in dset.study_dict(dset.load_cases[0])[
        "variants"][0]  # fmt: skip


def test_parked_three_body_bem_rotor_feathers_the_load(tmp_path):
    """Blades on the rotor body (no blade_bodies): the load's own pitch is feathered, in the key
    the case uses (pitch in rad or pitch_deg)."""

    def three_body(d, key="pitch_deg", value=13.42):
        d["topology"]["kind"] = "three_body"
        d["topology"].pop("pitch")
        ld = _bem(d)
        ld["body"] = "rotor"
        ld.pop("blade_bodies")
        ld[key] = value

    dset = _load(_dlc(_write_case(tmp_path, three_body)))
    v = dset.study_dict(dset.load_cases[1])["variants"][0]
    assert v["loads"] == {"bem_rotor": {"pitch_deg": 90.0}} and "pitch" not in v["topology"]
    assert _bem(_case_of(dset, "6.1"))["pitch_deg"] == 90.0
    dset = _load(_dlc(_write_case(tmp_path, lambda d: three_body(d, "pitch", 0.2342))))
    assert _bem(_case_of(dset, "6.1"))["pitch"] == pytest.approx(np.pi / 2, rel=1e-15)


def test_both_rotor_models_refused_and_neither_keeps_its_error(tmp_path):
    ct = yaml.safe_load((CASES / "oc3_hywind_catenary.yaml").read_text())
    thrust = next(ld for ld in ct["loads"] if ld["type"] == "thrust_ct")
    thrust["ct_curve"] = str(CASES / thrust["ct_curve"])
    thrust["body"] = "hub"
    path = _write_case(tmp_path, lambda d: d["loads"].append(thrust))
    dset = _load(_dlc(path))
    for lc in dset.load_cases:  # operating and parked alike
        with pytest.raises(CaseError, match="both a thrust_ct and a bem_rotor load") as ei:
            dset.study_dict(lc)
        assert ei.value.field == "loads" and "case.yaml" in str(ei.value)
        assert "\n" not in str(ei.value)
    path = _write_case(tmp_path, lambda d: d["loads"].remove(_bem(d)))
    dset = _load(_dlc(path))
    assert dset.rotor_model() is None
    dset.study_dict(dset.load_cases[0])  # an operating DLC needs no rotor
    with pytest.raises(CaseError, match="needs a thrust_ct load .* or a bem_rotor load") as ei:
        dset.study_dict(dset.load_cases[1])
    assert ei.value.field == "loads" and "\n" not in str(ei.value)


def test_blade_bodies_without_six_body_refused(tmp_path):
    def imported_like(d):  # blade 1 on a body of its own but no six_body topology to pitch it
        d["topology"]["kind"] = "three_body"
        d["topology"].pop("pitch")
        _bem(d)["body"] = "rotor"
        _bem(d)["blade_bodies"] = ["blade1", "rotor", "rotor"]

    dset = _load(_dlc(_write_case(tmp_path, imported_like)))
    with pytest.raises(CaseError, match="six_body") as ei:
        dset.study_dict(dset.load_cases[1])
    assert ei.value.field == "loads[5].blade_bodies" and "\n" not in str(ei.value)


@pytest.fixture(scope="module")
def bem_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("dlc_bem")
    (tmp / "bem_dlc.yaml").write_text(yaml.safe_dump(_dlc()))
    out = tmp / "out"
    assert main(["dlc", str(tmp / "bem_dlc.yaml"), "-o", str(out), "--workers", "1",
                 "--no-progress", "--report", str(out / "report.html")]) == 0  # fmt: skip
    return out


def test_short_dlc_gives_feathered_loads_blade_nodes_and_blade_root_dels(bem_run):
    runs = pd.read_csv(bem_run / "runs.csv").set_index("dlc")
    assert (runs.status == "ok").all() and len(runs) == 2
    op, parked = runs.loc[1.2], runs.loc[6.1]
    # feathered at 70 m/s: a small thrust (C_T ~ 0.004 against ~0.14 operating at 16 m/s); the
    # locked shaft reacts a small aerodynamic torque (C_Q ~ 0.002: with no rotation the inflow is
    # axial and alpha = -twist along the blade, so the cambered sections lift in the plane)
    q70 = 0.5 * 1.225 * np.pi * 63.0**2 * 70.0**2
    assert 0.0 < parked["RtAeroFxh.mean [N]"] < 0.01 * q70
    assert parked["RtAeroFxh.max [N]"] < op["RtAeroFxh.mean [N]"]
    assert 0.0 < abs(parked["RtAeroMxh.mean [N m]"]) < 0.01 * q70 * 63.0
    # blade-node channels: the feathered node 5 sees a steady negative angle of attack
    assert parked["B1N5Alpha.std [deg]"] < 0.5 < op["B1N5Alpha.std [deg]"]
    assert -10.0 < parked["B1N5Alpha.mean [deg]"] < -3.0
    # the operating blade root carries the flapwise aerodynamic moment (RootMyb1, pitched axes)
    assert op["RootMyb1.mean [N m]"] > 2.0e6
    fat = pd.read_csv(bem_run / "fatigue.csv")
    assert set(fat.channel) == {"RootMxb1", "RootMyb1"} and set(fat.m) == {3, 10}
    assert (fat["del"] > 0).all() and set(fat.units) == {"N m"}
    # the load report's lifetime-DEL table and figure hold the blade-root channels
    page = (bem_run / "report.html").read_text()
    assert "RootMyb1" in page and "RootMxb1" in page and "data:image/png;base64," in page
    ext = pd.read_csv(bem_run / "extremes.csv")
    assert set(ext.dlc) == {6.1} and {"RtAeroFxh", "RootMyb1", "B1N5Fx"} == set(ext.channel)


def test_dlc_table_marks_the_rotor_state():
    t = _load(copy.deepcopy(_dlc())).table()
    assert list(t.rotor) == ["operating", "parked"]
