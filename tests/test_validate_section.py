"""Issue 23: one validator (floatwind.validate.Section) for the case, environment, study and DLC
inputs: nested sections, lists of sections, the file in every message, defaults, tagged kinds."""

from __future__ import annotations

import pathlib

import pytest
import yaml

from floatwind.errors import CaseError
from floatwind.validate import Section

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_nested_sections_and_lists_name_the_file_and_the_path():
    top = Section({"site": {"rows": [{"hs": 1.0}, {"hs": "abc"}]}}, "", {"site"}, file="f.yaml")
    site = top.section("site", {"rows"})
    first, second = site.sections("rows", {"hs"})
    assert first.number("hs", kind="positive") == 1.0
    with pytest.raises(CaseError) as ei:
        second.number("hs")
    assert str(ei.value) == "f.yaml: field 'site.rows[1].hs': expected a number, got 'abc'"
    with pytest.raises(CaseError, match=r"^f.yaml: field 'site.rows\[0\].Hs_': unknown key 'Hs_' "
                                        r"\(did you mean 'hs'\?\)$"):  # fmt: skip
        Section({"Hs_": 1.0}, "site.rows[0]", {"hs"}, file="f.yaml")


def test_defaults_table_and_required_keys():
    sec = Section({"a": 2}, "x", {"a", "b", "c"}, defaults={"a": ..., "b": 5.0, "c": None})
    assert sec.number("a") == 2.0 and sec.number("b") == 5.0 and sec.number("c") is None
    with pytest.raises(CaseError, match="required key is missing") as ei:
        Section({}, "x", {"a"}, defaults={"a": ...})
    assert ei.value.field == "x.a"


def test_tagged_sections_check_the_keys_of_their_kind():
    tables = {"steady": {"kind": "steady", "speed": ...}, "none": {"kind": "none"}}
    kind, sec = Section.tagged({"kind": "steady", "speed": 8}, "wind", tables, default="none",
                               defaults=True)  # fmt: skip
    assert kind == "steady" and sec.number("speed") == 8.0
    with pytest.raises(CaseError, match=r"unknown value 'stedy' \(did you mean 'steady'\?\); "
                                        r"one of steady, none"):  # fmt: skip
        Section.tagged({"kind": "stedy"}, "wind", tables)
    with pytest.raises(CaseError, match="unknown key 'speed'"):
        Section.tagged({"speed": 8}, "wind", tables, default="none")


def test_a_number_is_anything_float_reads_but_a_bool():
    sec = Section({"a": "1e3", "b": True}, "", {"a", "b"})
    assert sec.number("a") == 1000.0  # YAML 1.1 reads 1e3 as a string
    with pytest.raises(CaseError, match="expected a number, got True"):
        sec.number("b")


def test_a_study_reads_old_key_spellings_through_the_same_renamer():
    from floatwind.studies.spec import study_from_dict

    d = yaml.safe_load((ROOT / "tests" / "data" / "studies" / "small_study.yaml").read_text())
    d["transient_s"] = d.pop("transient", 0.0)
    with pytest.warns(FutureWarning, match="'transient_s' is deprecated: use 'transient'"):
        study = study_from_dict(d, base_dir=ROOT / "tests" / "data" / "studies")
    assert "transient_s" not in study.raw
