"""MAP++ and MoorDyn input files into the catenary mooring; OpenFAST decks with CompMooring = 1
or 3; ref06 (OpenFAST + MAP++) through compare.py; one-line errors for malformed files."""

from __future__ import annotations

import pathlib
import shutil

import numpy as np
import pytest

from floatwind.case.openfast.mooring import read_map, read_moordyn
from floatwind.errors import CaseError

ROOT = pathlib.Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "mooring"
REF06 = ROOT.parent / "shared" / "reference" / "openfast" / "ref06_catenary_decay"
needs_ref06 = pytest.mark.skipif(not REF06.is_dir(), reason="reference ref06 not available")

MAP_TEXT = """---------------------- LINE DICTIONARY ---------------------------------------
LineType     Diam     MassDenInAir    EA        CB    CIntDamp   Ca   Cdn   Cdt
(-)          (m)      (kg/m)         (N)       (-)     (Pa-s)    (-)  (-)   (-)
Material     0.09      77.7066      384.243E6   0.001   1.0E8    0.6  -1.0  0.05
---------------------- NODE PROPERTIES ---------------------------------------
ID Attachment       X     Y     Z     M     B     FX    FY    FZ
(-)  (-)       (m)   (m)   (m)   (kg)  (m^3)  (N)   (N)   (N)
1    fix     853.87   0    depth   0     0     #     #     #
2    Vessel    5.2    0    -70.0   0     0     #     #     #
---------------------- LINE PROPERTIES ---------------------------------------
ID    LineType  UnstrLen    NodeAnch  NodeFair  Flags
(-)      (-)       (m)         (-)       (-)       (-)
1       Material   902.2        1         2        tension_fair
---------------------- SOLVER OPTIONS-----------------------------------------
Option
(-)
repeat 240 120
"""

EXPECTED = [  # ref06 README: the coordinates MAP++ uses
    ([5.2, 0.0, -70.0], [853.87, 0.0, -320.0]),
    ([-2.6, 4.5033, -70.0], [-426.935, 739.4731, -320.0]),
    ([-2.6, -4.5033, -70.0], [-426.935, -739.4731, -320.0]),
]


def _check_oc3(lines, cb):
    assert len(lines) == 3
    for ln, (fair, anch) in zip(lines, EXPECTED):
        np.testing.assert_allclose(ln["fairlead"], fair, atol=1e-12)
        np.testing.assert_allclose(ln["anchor"], anch, atol=1e-12)
        assert ln["length"] == 902.2 and ln["ea"] == 384.243e6
        assert ln["mass_per_length"] == 77.7066 and ln["diameter"] == 0.09
        assert ln["seabed_friction"] == cb


def test_map_file_with_repeat(tmp_path):
    f = tmp_path / "map.dat"
    f.write_text(MAP_TEXT)
    lines, _, notes = read_map(f, depth=320.0)
    _check_oc3(lines, 0.001)
    assert notes == []


@needs_ref06
def test_map_file_of_ref06():
    lines, _, _ = read_map(REF06 / "MAP.dat", depth=320.0)  # CRLF, non-ASCII unit
    _check_oc3(lines, 0.001)


@pytest.mark.parametrize("name", ["oc3_moordyn_v1.dat", "oc3_moordyn_v2.dat"])
def test_moordyn_files_v1_v2(name):
    lines, _, notes = read_moordyn(DATA / name, depth=320.0)
    _check_oc3(lines, 0.0)
    assert len(notes) == 1 and "quasi-static" in notes[0] and "\n" not in notes[0]


def _bad_map(tmp_path, old, new):
    assert old in MAP_TEXT
    f = tmp_path / "bad_map.dat"
    f.write_text(MAP_TEXT.replace(old, new))
    return lambda: read_map(f, depth=320.0)


def _bad_md(tmp_path, old, new):
    text = (DATA / "oc3_moordyn_v2.dat").read_text()
    assert old in text
    f = tmp_path / "bad_md.dat"
    f.write_text(text.replace(old, new))
    return lambda: read_moordyn(f, depth=320.0)


BAD = [
    ("map", "1       Material   902.2", "1       Material   -902.2", "UnstrLen"),
    ("map", "1       Material   902.2", "1       Chain      902.2", "LineType"),
    (
        "map",
        "Material     0.09      77.7066      384.243E6",
        "Material     0.09      77.7066      -1.0",
        "EA",
    ),  # fmt: skip
    ("map", "0.09      77.7066", "0.09      seventy", "mass"),
    ("map", "1    fix     853.87", "1    vessel  853.87", "LINE PROPERTIES line"),
    ("map", "1    fix     853.87   0    depth   0 ", "1    connect 853.87   0    depth   # ", "(M)"),
    (
        "map",
        "1    fix     853.87   0    depth   0     0     #     #     #",
        "1    connect 853.87   0    depth   -5    0     0     0     0",
        "(mass)",
    ),  # fmt: skip
    ("map", "2    Vessel    5.2", "1    Vessel    5.2", "(ID)"),
    ("map", "1    fix     853.87", "1    anchor  853.87", "Attachment"),
    ("map", "902.2        1         2", "902.2        7         2", "NodeAnch"),
    ("map", "1    fix     853.87   0    depth", "1    fix     853.87   0    -400", "Z"),
    (
        "map",
        "---------------------- LINE DICTIONARY",
        "---------------------- LINE TYPE LIST",
        "LINE DICTIONARY",
    ),  # fmt: skip
    ("map", "0.001   1.0E8", "-0.5   1.0E8", "CB"),
    ("md", "main       0.09    77.7066    384.243E6", "main       0.09    77.7066    ea.txt", "EA"),
    ("md", "4    Vessel      5.2", "4    Body2       5.2", "Attachment"),
    (
        "md",
        "3    main      3        6        902.2",
        "3    wire      3        6        902.2",
        "LineType",
    ),  # fmt: skip
    (
        "md",
        "1    main      1        4        902.2",
        "1    main      1        9        902.2",
        "LINES line",
    ),  # fmt: skip
]


@pytest.mark.parametrize("kind,old,new,field", BAD)
def test_malformed_files_one_line_errors(tmp_path, kind, old, new, field):
    fn = (_bad_map if kind == "map" else _bad_md)(tmp_path, old, new)
    with pytest.raises(CaseError) as exc:
        fn()
    msg = str(exc.value)
    assert "\n" not in msg
    assert ("bad_map.dat" if kind == "map" else "bad_md.dat") in msg, msg
    assert field in msg, msg


@needs_ref06
def test_deck_with_map_and_with_moordyn(tmp_path):
    """ref06 imports with its MAP++ lines; the same deck with CompMooring = 3 and a MoorDyn file
    gives the same lines (friction aside) with --mooring quasi-static and says so; by default it
    runs the lumped-mass lines."""
    from floatwind.case.openfast import import_openfast

    res = import_openfast(REF06 / "ref06_catenary_decay.fst")
    moor = [ld for ld in res["case"]["loads"] if ld["type"] == "mooring_catenary"]
    assert len(moor) == 1
    _check_oc3(moor[0]["lines"], 0.001)
    deck = tmp_path / "deck"
    shutil.copytree(REF06, deck, ignore=shutil.ignore_patterns("*.out", "*.outb"))
    shutil.copy(DATA / "oc3_moordyn_v1.dat", deck / "MoorDyn.dat")
    fst = deck / "ref06_catenary_decay.fst"
    text = fst.read_text(encoding="latin-1")
    text = text.replace("1   CompMooring", "3   CompMooring").replace('"MAP.dat"', '"MoorDyn.dat"')
    fst.write_text(text, encoding="latin-1")
    res = import_openfast(fst, mooring="quasi-static")
    moor = [ld for ld in res["case"]["loads"] if ld["type"] == "mooring_catenary"]
    _check_oc3(moor[0]["lines"], 0.0)
    assert any("MoorDyn" in n and "quasi-static" in n for n in res["notes"])
    # by default a MoorDyn file runs MoorDyn's lumped-mass lines, and the import says so (issue 38)
    res = import_openfast(fst)
    assert [ld["type"] for ld in res["case"]["loads"]].count("mooring_lumped") == 1
    assert any("mooring model: MoorDyn lumped-mass lines" in n for n in res["notes"])


@needs_ref06
def test_ref06_compare_quick():
    """floatwind vs OpenFAST + MAP++ over 20 s: motions, loads and line outputs."""
    import sys

    sys.path.insert(0, str(ROOT))
    from validation.openfast.compare import compare_case

    res = compare_case(REF06, t_end=20.0)
    assert res.passed
    by = {c.channel: c for c in res.channels}
    for ch in ("PtfmSurge", "PtfmHeave", "PtfmPitch"):
        assert by[ch].nrmse <= 1e-4
    for ch in ("T[1]", "T[2]", "T_a[1]", "Lb[1]", "HydroFxi", "TwrBsMyt"):
        assert by[ch].nrmse <= 1e-3, ch
