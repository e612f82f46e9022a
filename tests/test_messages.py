"""One message shape for bad input across case, environment, study, DLC and OpenFAST-deck inputs
(issue 23): ``floatwind: error: FILE: field 'FIELD': expected a number, got 'abc'`` from one
validator (floatwind.validate)."""

from __future__ import annotations

import pathlib
import re
import shutil

import pytest
import yaml

from floatwind.cli import main

ROOT = pathlib.Path(__file__).resolve().parents[1]
REF01 = ROOT.parent / "shared" / "reference" / "openfast" / "ref01_pitch_decay"
SHAPE = re.compile(r"^floatwind: error: (?P<file>\S+): field '(?P<field>[^']+)': "
                   r"expected a number, got 'abc'$")  # fmt: skip


def _case(tmp):
    d = yaml.safe_load((ROOT / "cases" / "oc3_platform_decay.yaml").read_text())
    d["environment"]["water_depth"] = "abc"
    p = tmp / "case.yaml"
    p.write_text(yaml.safe_dump(d))
    return ["check", str(p)], "case.yaml", "environment.water_depth"


def _environment(tmp):
    d = yaml.safe_load((ROOT / "cases" / "environments" / "nielsen.yaml").read_text())
    d["conditions"][0]["environment"]["waves"]["hs"] = "abc"
    p = tmp / "env.yaml"
    p.write_text(yaml.safe_dump(d))
    return (["check", str(ROOT / "cases" / "oc3_hywind.yaml"), "--env", f"{p}:U08"], "env.yaml",
            "conditions[0].environment.waves.hs")  # fmt: skip


def _study(tmp):
    d = yaml.safe_load((ROOT / "tests" / "data" / "studies" / "small_study.yaml").read_text())
    d["conditions"][0]["hs"] = "abc"
    for x in d["designs"]:
        x["case"] = str(ROOT / "tests" / "data" / "studies" / x["case"])
    p = tmp / "study.yaml"
    p.write_text(yaml.safe_dump(d))
    return ["study", str(p), "--list"], "study.yaml", "conditions[0].hs"


def _dlc(tmp):
    d = yaml.safe_load((ROOT / "tests" / "data" / "dlc" / "small_dlc.yaml").read_text())
    d["case"] = str(ROOT / "cases" / "oc3_hywind_catenary.yaml")
    d["analysis"] = "abc"
    p = tmp / "dlc.yaml"
    p.write_text(yaml.safe_dump(d))
    return ["dlc", str(p), "--list"], "dlc.yaml", "analysis"


def _deck(tmp):
    if not REF01.is_dir():
        pytest.skip("no shared reference decks")
    dst = tmp / "ref01"
    shutil.copytree(REF01, dst, ignore=shutil.ignore_patterns("*.out", "*.outb", "*.sum"))
    ed = dst / "ElastoDyn.dat"
    lines = ed.read_text().splitlines()
    k = next(i for i, ln in enumerate(lines) if re.search(r"\sPtfmMass\s", ln))
    lines[k] = re.sub(r"^\s*\S+", "abc", lines[k], count=1)
    ed.write_text("\n".join(lines) + "\n")
    return ["check", str(dst / "ref01_pitch_decay.fst")], "ElastoDyn.dat", "PtfmMass"


@pytest.mark.parametrize("make", [_case, _environment, _study, _dlc, _deck],
                         ids=["case", "environment", "study", "dlc", "openfast-deck"])  # fmt: skip
def test_a_bad_number_reads_the_same_everywhere(make, tmp_path, capsys):
    argv, file, field = make(tmp_path)
    assert main(argv) == 2
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("floatwind: error")]
    assert len(err) == 1, err
    m = SHAPE.match(err[0])
    assert m, err[0]
    assert m["file"].endswith(file) and m["field"] == field, err[0]


def test_old_key_spellings_still_load_with_a_warning_naming_the_new_key():
    """Issue 23: one unit-suffix rule; the old SI-suffixed spellings keep working."""
    from floatwind.case.loader import model_from_dict
    from floatwind.errors import CaseError

    d = yaml.safe_load((ROOT / "cases" / "oc3_hywind.yaml").read_text())
    d["environment"]["wind"] = {"kind": "steady", "speed": 10.0, "ref_height_m": 87.6}
    with pytest.warns(FutureWarning, match=r"'environment.wind.ref_height_m' is deprecated: use "
                                           r"'ref_height'"):  # fmt: skip
        old = model_from_dict(d, base_dir=ROOT / "cases")
    d["environment"]["wind"] = {"kind": "steady", "speed": 10.0, "ref_height": 87.6}
    new = model_from_dict(d, base_dir=ROOT / "cases")
    assert old.env.wind.describe() == new.env.wind.describe()
    d["environment"]["wind"] = {"kind": "steady", "speed": 10.0, "ref_height": 87.6,
                                "ref_height_m": 87.6}  # fmt: skip
    with pytest.raises(CaseError, match="give 'ref_height' only"):
        model_from_dict(d, base_dir=ROOT / "cases")
    # a DLC file's old spelling
    from floatwind.dlc.spec import dlc_from_dict

    dl = yaml.safe_load((ROOT / "tests" / "data" / "dlc" / "small_dlc.yaml").read_text())
    dl["case"] = str(ROOT / "cases" / "oc3_hywind_catenary.yaml")
    dl["analysis_s"] = dl.pop("analysis")
    with pytest.warns(FutureWarning, match="'analysis_s' is deprecated: use 'analysis'"):
        dset = dlc_from_dict(dl, base_dir=ROOT)
    assert dset.load_cases[0].analysis_s == 30.0


@pytest.mark.parametrize("where", ["case", "environment", "topology", "study", "dlc"])
def test_an_unknown_key_reads_the_same_everywhere(where, tmp_path):
    """Issue 23: ``unknown key 'K' (did you mean 'X'?)`` naming the field, in every input."""
    from floatwind.case.loader import model_from_dict
    from floatwind.dlc.spec import dlc_from_dict
    from floatwind.errors import CaseError
    from floatwind.studies.spec import study_from_dict

    case = yaml.safe_load((ROOT / "cases" / "oc3_hywind.yaml").read_text())
    if where == "case":
        case["simulaton"] = {}
        call, field, hint = (lambda: model_from_dict(case, base_dir=ROOT / "cases")), "simulaton", "simulation"
    elif where == "environment":
        case["environment"]["wind"]["hub_heigth"] = 90.0
        call, field, hint = (lambda: model_from_dict(case, base_dir=ROOT / "cases")), \
            "environment.wind.hub_heigth", None  # fmt: skip
    elif where == "topology":
        case["topology"]["towr_top"] = 87.6
        call, field, hint = (lambda: model_from_dict(case, base_dir=ROOT / "cases")), \
            "topology.towr_top", "tower_top"  # fmt: skip
    elif where == "study":
        d = yaml.safe_load((ROOT / "tests" / "data" / "studies" / "small_study.yaml").read_text())
        d["realisations"] = 3
        base = ROOT / "tests" / "data" / "studies"
        call, field, hint = (lambda: study_from_dict(d, base_dir=base)), "realisations", "realizations"
    else:
        d = yaml.safe_load((ROOT / "tests" / "data" / "dlc" / "small_dlc.yaml").read_text())
        d["case"] = str(ROOT / "cases" / "oc3_hywind_catenary.yaml")
        d["seed"] = 3
        call, field, hint = (lambda: dlc_from_dict(d, base_dir=ROOT)), "seed", "seeds"
    with pytest.raises(CaseError) as ei:
        call()
    msg = ei.value.reason
    key = field.rsplit(".", 1)[-1]
    assert msg.startswith(f"unknown key '{key}'") and ei.value.field == field, (msg, ei.value.field)
    if hint:
        assert msg.endswith(f" (did you mean '{hint}'?)"), msg


def test_an_env_file_is_not_blamed_by_a_later_command(tmp_path, capsys):
    """An error in a later command of the same process names its own file, not an earlier --env's."""
    argv, _, _ = _environment(tmp_path)
    assert main(argv) == 2
    capsys.readouterr()
    d = yaml.safe_load((ROOT / "cases" / "oc3_hywind.yaml").read_text())
    d["environment"]["waves"] = {"kind": "jonswap", "hs": "abc", "tp": 10.0}
    p = tmp_path / "case.yaml"
    p.write_text(yaml.safe_dump(d))
    assert main(["check", str(p)]) == 2
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("floatwind: error")]
    assert len(err) == 1 and "case.yaml" in err[0] and "env.yaml" not in err[0], err
    assert "field 'environment.waves.hs'" in err[0], err
