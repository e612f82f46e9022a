"""AeroDyn main, blade and airfoil files and InflowWind (issue 35, item 6): read as the OpenFAST
project's reader ``openfast_io`` reads them (regression on ref09), the v4 forms, and bad input
refused in one line naming the file and the line."""

from __future__ import annotations

import math
import pathlib
import re
import shutil
import stat

import numpy as np
import pytest

from floatwind.case import openfast as od
from floatwind.case.openfast import aerodyn, inflowwind
from floatwind.errors import CaseError
from floatwind.io.aerodyn import read_airfoil, read_blade

REF = pathlib.Path("/work/shared/reference/openfast")
if not REF.is_dir():
    REF = pathlib.Path(__file__).resolve().parents[2] / "shared" / "reference" / "openfast"
CASE = "ref09_aero_fixed_speed"
DECK = REF / CASE
needs_ref09 = pytest.mark.skipif(not DECK.is_dir(), reason="reference deck ref09 not available")

AIRFOILS = ["Cylinder1", "Cylinder2", "DU40_A17", "DU35_A17", "DU30_A17", "DU25_A17", "DU21_A17",
            "NACA64_A17"]  # fmt: skip


def _copy(tmp_path: pathlib.Path) -> pathlib.Path:
    dst = tmp_path / CASE
    shutil.copytree(DECK, dst, ignore=shutil.ignore_patterns("*.out", "*.outb", "*.sum"))
    for p in dst.rglob("*"):
        p.chmod(p.stat().st_mode | stat.S_IWUSR)
    return dst / f"{CASE}.fst"


def _edit(path: pathlib.Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="latin-1")
    assert old in text, (old, path)
    path.write_text(text.replace(old, new, count), encoding="latin-1")


def _line_of(path: pathlib.Path, pattern: str) -> int:
    for n, line in enumerate(path.read_text(encoding="latin-1").splitlines(), start=1):
        if re.search(pattern, line):
            return n
    raise AssertionError(pattern)


@pytest.fixture(scope="module")
def ofio():
    """openfast_io's reading of ref09's AeroDyn (with blade and airfoil files) and InflowWind."""
    reader_mod = pytest.importorskip("openfast_io.FAST_reader")
    if not DECK.is_dir():
        pytest.skip("reference deck ref09 not available")
    r = reader_mod.InputReader_OpenFAST()
    r.FAST_directory = str(DECK)
    r.fst_vt["Fst"].update(AeroFile="AeroDyn.dat", AeroFile_path="", InflowFile="InflowWind.dat")
    r.fst_vt["ElastoDyn"]["NumBl"] = 3
    r.read_AeroDyn()
    r.read_InflowWind()
    return r.fst_vt


@pytest.fixture(scope="module")
def deck():
    if not DECK.is_dir():
        pytest.skip("reference deck ref09 not available")
    return od.read_fst(DECK / f"{CASE}.fst")


def _same(ours, theirs) -> bool:
    """A value as openfast_io gives it (strings for DEFAULT and lists) against ours."""
    if isinstance(theirs, str) and "default" in theirs.lower():
        return ours == "DEFAULT"
    if isinstance(theirs, list):
        ours = ours if isinstance(ours, list) else [ours]
        return [float(x) for x in ours] == [float(x) for x in theirs]
    if isinstance(theirs, bool) or isinstance(ours, bool):
        return bool(ours) == bool(theirs) and isinstance(ours, bool) == isinstance(theirs, bool)
    if isinstance(theirs, int | float):
        return float(ours) == float(theirs)
    return str(ours).strip('"') == str(theirs).strip('"')


# ------------------------------------------------------------------------ regression: openfast_io


@needs_ref09
def test_main_file_matches_openfast_io(ofio, deck):
    theirs = ofio["AeroDyn"]
    ad = deck["AeroDyn"]
    ours = ad["values"]
    skip = {"af_data", "af_coord", "ac", "AFNames", "TFinFile", "OLAFInputFileName"}
    twr = {"TwrElev", "TwrDiam", "TwrCd", "TwrTI", "TwrCb", "TwrCp", "TwrCa"}
    n = 0
    for key, value in theirs.items():
        if key in skip or key in twr:
            continue
        our_key = re.sub(r"^ADBlFile(\d)$", r"ADBlFile(\1)", key)
        assert our_key in ours, key
        assert _same(ours[our_key], value), (key, ours[our_key], value)
        n += 1
    assert n >= 65
    # the airfoil list, the tower table, the output list
    assert [str((DECK / a).resolve()) for a in ours["AFNames"]] == theirs["AFNames"]
    (tab,) = ad["tables"].values()
    assert tab["columns"] == ["TwrElev", "TwrDiam", "TwrCd", "TwrTI", "TwrCb", "TwrCp", "TwrCa"]
    rows = np.array(tab["rows"], dtype=float)
    assert rows.shape == (theirs["NumTwrNds"], 7)
    for j, c in enumerate(tab["columns"]):
        np.testing.assert_array_equal(rows[:, j], theirs[c])
    # openfast_io marks the channels its channel table knows (not B#N#Vrel)
    listed = {k for k, v in ofio["outlist"]["AeroDyn"].items() if v is True}
    ours_list = ad["outlists"]["OutList"]
    assert len(ours_list) == 86 and listed <= set(ours_list)
    assert {c[-4:] for c in set(ours_list) - listed} == {"Vrel"}


@needs_ref09
def test_blade_file_matches_openfast_io(ofio):
    theirs = ofio["AeroDynBlade"]
    b = read_blade(DECK / "AeroDyn_blade.dat")
    assert b.span.shape == (theirs["NumBlNds"],) == (19,)
    for ours, key in ((b.span, "BlSpn"), (b.crv_ac, "BlCrvAC"), (b.swp_ac, "BlSwpAC"),
                      (b.crv_ang_deg, "BlCrvAng"), (b.twist_deg, "BlTwist"),
                      (b.chord, "BlChord"), (b.af_id, "BlAFID")):  # fmt: skip
        np.testing.assert_array_equal(ours, np.asarray(theirs[key], dtype=float), err_msg=key)
    assert b.af_id.dtype == np.int64
    assert set(b.extra) == {"t_c", "BlCb", "BlCenBn", "BlCenBt", "BlCpn", "BlCpt", "BlCan",
                            "BlCat", "BlCam"}  # fmt: skip
    for key, col in b.extra.items():
        np.testing.assert_array_equal(col, np.asarray(theirs[key], dtype=float), err_msg=key)
    # the row after the comment line (61.5 m) is not among the NumBlNds rows
    assert b.span[-1] == pytest.approx(61.4999)


@needs_ref09
@pytest.mark.parametrize("k", range(len(AIRFOILS)), ids=AIRFOILS)
def test_airfoil_file_matches_openfast_io(ofio, k):
    theirs = ofio["AeroDyn"]["af_data"][k]
    af = read_airfoil(DECK / "Airfoils" / f"{AIRFOILS[k]}.dat", columns=(1, 2, 3, 4, 0))
    assert len(af.tables) == len(theirs) == 1
    assert af.non_dim_area == theirs[0]["NonDimArea"]
    assert af.interp_ord == 1 and "default" in str(theirs[0]["InterpOrd"]).lower()
    assert af.num_coords == theirs[0]["NumCoords"]
    for tab, th in zip(af.tables, theirs, strict=True):
        assert tab.re == th["Re"] and tab.user_prop == th["UserProp"]
        assert tab.incl_ua_data == th["InclUAdata"]
        assert tab.alpha_deg.shape == (th["NumAlf"],)
        for ours, key in ((tab.alpha_deg, "Alpha"), (tab.cl, "Cl"), (tab.cd, "Cd"),
                          (tab.cm, "Cm")):  # fmt: skip
            np.testing.assert_array_equal(ours, np.asarray(th[key], dtype=float), err_msg=key)
        assert tab.cpmin is None
        for key in ("alpha0", "C_nalpha", "Cd0", "Cm0", "St_sh"):
            assert float(tab.ua[key]) == th[key], key
        # invariants: strictly increasing, covering -180..180 deg
        assert np.all(np.diff(tab.alpha_deg) > 0)
        assert tab.alpha_deg[0] == -180.0 and tab.alpha_deg[-1] == 180.0


@needs_ref09
def test_inflowwind_matches_openfast_io(ofio, deck):
    theirs = ofio["InflowWind"]
    ours = deck["InflowWind"]["values"]
    n = 0
    for key, value in theirs.items():
        if key.startswith("FileName") or key == "FileNameRoot":
            continue
        our_key = "PLexp" if key == "PLExp" else key  # the file writes PLexp
        if key == "RotorApexOffsetPos":
            value = [float(x) for x in value[0].split()]
        assert _same(ours[our_key], value), (key, ours[our_key], value)
        n += 1
    assert n >= 45


# ------------------------------------------------------------------------------ deck -> case


@needs_ref09
def test_rotor_config_of_ref09(deck):
    cfg = aerodyn.rotor_config(deck)
    assert pathlib.Path(cfg["blade_file"]).name == "AeroDyn_blade.dat"
    assert [pathlib.Path(p).stem for p in cfg["airfoils"]] == AIRFOILS
    assert cfg["airfoil_columns"] == [1, 2, 3, 4, 0]
    opt = cfg["options"]
    assert opt == {
        "tip_loss": True, "hub_loss": True, "tan_ind": True, "ai_drag": False,
        "ti_drag": False, "skew_mod": 1, "skew_redistr_factor": 15 * math.pi / 32,
        "skew_mom_corr": False, "max_iter": 100, "tolerance": 5e-10, "use_cm": True,
        "bem_mod": 1, "af_tab_mod": 1, "wake_mod": 1, "dbemt_mod": 0,
    }  # fmt: skip
    assert cfg["air_density"] == 1.225 and cfg["kin_visc"] == pytest.approx(1.464e-5)
    assert cfg["output_nodes"] == [2, 4, 6, 8, 10, 12, 14, 16, 18]
    assert cfg["output_blades"] == 1
    assert len(cfg["channels"]) == 86 and cfg["channels_not_given"] == []
    assert {"RtAeroFxh", "RtAeroMxh", "RtAeroPwr", "B1N9TnInd"} <= set(cfg["channels"])


@needs_ref09
def test_wind_config_of_ref09(deck):
    assert inflowwind.wind_config(deck) == {
        "kind": "steady", "speed": 8.0, "ref_height": 90.0, "heading_deg": 0.0,
        "shear": "power", "shear_exponent": 0.0,
    }  # fmt: skip
    ch = inflowwind.wind_channels(deck)
    assert ch == {"Wind1VelX": ((0.0, 0.0, 90.0), 0), "Wind1VelY": ((0.0, 0.0, 90.0), 1),
                  "Wind1VelZ": ((0.0, 0.0, 90.0), 2)}  # fmt: skip


@needs_ref09
def test_wind_config_turbsim_and_heading(tmp_path):
    fst = _copy(tmp_path)
    ifw = fst.parent / "InflowWind.dat"
    _edit(ifw, "          1   WindType", "          3   WindType")
    _edit(ifw, "          0   PropagationDir", "         30   PropagationDir")
    _edit(ifw, '"unused"    FileName_BTS', '"wind/field.bts"    FileName_BTS')
    cfg = inflowwind.wind_config(od.read_fst(fst))
    assert cfg == {"kind": "turbsim", "file": str((fst.parent / "wind/field.bts").resolve()),
                   "heading_deg": -30.0}  # fmt: skip


def test_turbsim_covers():
    grid = {"y": np.linspace(-70.0, 70.0, 15), "z": np.linspace(20.0, 160.0, 15)}
    pts = np.array([[0, 0, 90.0], [0, 69.9, 150.0], [0, 70.5, 90.0], [0, 0, 19.0], [0, -70, 20]])
    np.testing.assert_array_equal(inflowwind.turbsim_covers(grid, pts), [1, 1, 0, 0, 1])
    # a wind from +y (heading 90 deg): the lateral coordinate is -x
    np.testing.assert_array_equal(
        inflowwind.turbsim_covers(grid, np.array([[75.0, 0, 90], [-60.0, 200, 90]]),
                                  heading_deg=90.0),
        [0, 1],
    )  # fmt: skip


@needs_ref09
def test_no_aero_deck_does_not_read_inflowwind(tmp_path):
    """CompInflow = 1 with CompAero = 0: the wind acts on nothing; the deck imports as before."""
    fst = _copy(tmp_path)
    _edit(fst, "           2   CompAero", "           0   CompAero")
    _edit(fst.parent / "InflowWind.dat", "          1   WindType", "          5   WindType")
    d = od.read_fst(fst)
    assert d["InflowWind"] is None and d["AeroDyn"] is None
    assert od.unsupported_settings(d) == []
    assert inflowwind.wind_config(d) is None


# --------------------------------------------------------------------------------- v4 forms


_V4 = [
    ("          1   Wake_Mod ", "          1   WakeMod \n          1   AFAeroMod   - v4\n"),
    ("False         CavitCheck", "False         FrozenWake   - v4\nFalse         CavitCheck"),
    ("False         NacelleDrag", "False         Buoyancy   - v4\nFalse         NacelleDrag"),
    ("          1   BEM_Mod ", "! BEM_Mod missing (v4) "),
    ("          1   Skew_Mod ", "          2   SkewMod "),
    ('"default"     SkewRedistrFactor', '"default"     SkewModFactor'),
    ("          0   UA_Mod ", "          3   UAMod "),
]


@needs_ref09
def test_v4_main_file_gives_the_same_options(tmp_path, deck):
    fst = _copy(tmp_path)
    ad = fst.parent / "AeroDyn.dat"
    for old, new in _V4:
        _edit(ad, old, new)
    for key in ("SkewMomCorr", "SkewRedistr_Mod", "AoA34"):  # keys v4 files do not have
        text = ad.read_text(encoding="latin-1")
        ad.write_text(re.sub(rf"\n[^\n]*\s{key}\s[^\n]*", "", text, count=1), encoding="latin-1")
    v4 = od.read_fst(fst)
    assert "WakeMod" in v4["AeroDyn"]["values"] and "Wake_Mod" not in v4["AeroDyn"]["values"]
    assert aerodyn.options(v4["AeroDyn"]) == aerodyn.options(deck["AeroDyn"])
    assert aerodyn.rotor_config(v4)["options"] == aerodyn.rotor_config(deck)["options"]
    lines = od.unsupported_settings(v4)
    assert lines == []  # the v4 deck imports as the v5 one
    # WakeMod = 2 is BEM with dynamic inflow (DBEMT, its DBEMT_Mod or 1): imported as v5 does
    _edit(ad, "          1   WakeMod ", "          2   WakeMod ")
    v4 = od.read_fst(fst)
    assert od.unsupported_settings(v4) == []
    opt = aerodyn.rotor_config(v4)["options"]
    assert opt["dbemt_mod"] == 1 and opt["tau1_const"] == 4.0
    # WakeMod = 3 (free vortex wake): refused in one line with its line number
    _edit(ad, "          2   WakeMod ", "          3   WakeMod ")
    (line,) = [ln for ln in od.unsupported_settings(od.read_fst(fst)) if "WakeMod" in ln]
    n = _line_of(ad, r"^\s*\S+\s+WakeMod\s")
    assert line.startswith(f"AeroDyn.dat: WakeMod = 3 (line {n})")
    assert "\n" not in line


@needs_ref09
def test_older_airfoil_forms(tmp_path):
    """A RelThickness line, no BL_file line, ``Ctrl`` for ``UserProp``, coordinates in the file,
    two tables; Cm column absent (InCol_Cm = 0)."""
    src = (DECK / "Airfoils" / "DU25_A17.dat").read_text(encoding="latin-1")
    text = src.replace('"unused"      BL_file', "! no BL_file line")
    text = re.sub(r"\n(\s+1\s+NonDimArea)", r"\n   0.25   RelThickness   ! v3\n\1", text)
    text = re.sub(r'@"DU25_A17_coords.txt"\s+NumCoords', "3   NumCoords", text)
    text = text.replace("   NumCoords", "   NumCoords\n 0.25 0.0\n 1.0 0.0\n 0.0 0.0", 1)
    text = text.replace("0   UserProp", "0   Ctrl")
    head, table = text.split("! data for table 1", 1)
    table2 = table.replace("0.75   Re", "3.0   Re").replace("0   Ctrl", "1   Ctrl")
    text = head.replace("1   NumTabs", "2   NumTabs") + "! data for table 1" + table + table2
    path = tmp_path / "old.dat"
    path.write_text(text, encoding="latin-1")
    af = read_airfoil(path, columns=(1, 2, 3, 0, 0))
    ref = read_airfoil(DECK / "Airfoils" / "DU25_A17.dat")
    assert af.rel_thickness == 0.25 and af.bl_file is None and af.num_coords == "3"
    assert len(af.tables) == 2
    assert [t.re for t in af.tables] == [0.75e6, 3.0e6] and [t.user_prop for t in af.tables] == [
        0.0, 1.0]  # fmt: skip
    for t in af.tables:
        assert t.cm is None
        np.testing.assert_array_equal(t.alpha_deg, ref.tables[0].alpha_deg)
        np.testing.assert_array_equal(t.cl, ref.tables[0].cl)


def test_cpmin_and_cm_columns(tmp_path):
    rows = "\n".join(f"{a:8.1f}  {0.01 * a:.3f}  0.01  {-0.001 * a:.4f}  -1.5" for a in
                     (-180, -90, 0, 90, 180))  # fmt: skip
    path = tmp_path / "af.dat"
    path.write_text(
        "! AirfoilInfo v1.01\n! test\n 1 InterpOrd\n 1 NonDimArea\n 0 NumCoords\n"
        '"unused" BL_file\n 1 NumTabs\n 1.0 Re\n 0 UserProp\n False InclUAdata\n'
        f" 5 NumAlf\n! Alpha Cl Cd Cm Cpmin\n{rows}\n",
        encoding="latin-1",
    )
    (t,) = read_airfoil(path, columns=(1, 2, 3, 4, 5)).tables
    np.testing.assert_array_equal(t.cpmin, [-1.5] * 5)
    np.testing.assert_allclose(t.cm, [0.18, 0.09, 0.0, -0.09, -0.18])
    (t,) = read_airfoil(path, columns=(1, 3, 2, 0, 0)).tables  # columns picked by InCol_*
    np.testing.assert_allclose(t.cl, 0.01)
    assert t.cm is None and t.cpmin is None


# -------------------------------------------------------------------------------- bad input


def _one_line(err: pytest.ExceptionInfo, name: str, line: int) -> str:
    msg = str(err.value)
    assert "\n" not in msg
    assert name in msg and f"line {line}" in msg, msg
    return msg


@needs_ref09
def test_polar_not_covering_the_circle(tmp_path):
    path = tmp_path / "DU40_A17.dat"
    text = (DECK / "Airfoils" / "DU40_A17.dat").read_text(encoding="latin-1")
    text = text.replace("        136   NumAlf", "        135   NumAlf")
    text = text.replace("   -180.00    0.000   0.0602   0.0000\n", "")
    path.write_text(text, encoding="latin-1")
    with pytest.raises(CaseError) as err:
        read_airfoil(path)
    msg = _one_line(err, "DU40_A17.dat", _line_of(path, r"^\s+-175.00"))
    assert "-175..180 deg" in msg and "-180..180" in msg


@needs_ref09
def test_alpha_not_increasing(tmp_path):
    path = tmp_path / "DU40_A17.dat"
    text = (DECK / "Airfoils" / "DU40_A17.dat").read_text(encoding="latin-1")
    text = text.replace("   -170.00    0.397", "   -176.00    0.397")
    path.write_text(text, encoding="latin-1")
    with pytest.raises(CaseError) as err:
        read_airfoil(path)
    msg = _one_line(err, "DU40_A17.dat", _line_of(path, r"^\s+-176.00"))
    assert "increase strictly" in msg


@needs_ref09
def test_airfoil_row_missing_a_column(tmp_path):
    path = tmp_path / "DU40_A17.dat"
    text = (DECK / "Airfoils" / "DU40_A17.dat").read_text(encoding="latin-1")
    text = text.replace("   -170.00    0.397   0.1107   0.1697", "   -170.00    0.397   0.1107")
    path.write_text(text, encoding="latin-1")
    with pytest.raises(CaseError) as err:
        read_airfoil(path)
    _one_line(err, "DU40_A17.dat", _line_of(path, r"^\s+-170.00"))
    read_airfoil(path, columns=(1, 2, 3, 0, 0))  # without Cm the row is complete


@needs_ref09
@pytest.mark.parametrize("what", ["row", "header"])
def test_blade_file_with_a_missing_column(tmp_path, what):
    path = tmp_path / "AeroDyn_blade.dat"
    text = (DECK / "AeroDyn_blade.dat").read_text(encoding="latin-1")
    if what == "row":
        old = "1.4350000E+01 -1.1573354E-01 -5.6986665E-01 0.0000000E+00  1.1480000E+01  4.6520000E+00        4      0.0      0.0      0.0         0.0        0.0      0.0      0.0      0.0      0.0"  # noqa: E501
        assert old in text
        text = text.replace(old, old.rsplit("0.0", 1)[0])
        pattern = r"^1\.4350000E\+01"
    else:
        text = text.replace("BlChord          BlAFID", "BlAFID")
        text = text.replace("(m)              (-)", "(-)", 1)
        pattern = r"^\s+BlSpn"
    path.write_text(text, encoding="latin-1")
    with pytest.raises(CaseError) as err:
        read_blade(path)
    msg = _one_line(err, "AeroDyn_blade.dat", _line_of(path, pattern))
    assert ("BlChord" in msg) if what == "header" else ("BlCam" in msg)


@needs_ref09
def test_airfoil_id_beyond_num_af_files(tmp_path):
    fst = _copy(tmp_path)
    blade = fst.parent / "AeroDyn_blade.dat"
    _edit(blade, "4.4580000E+00        4", "4.4580000E+00        9")
    with pytest.raises(CaseError) as err:
        od.read_fst(fst)
    msg = _one_line(err, "AeroDyn_blade.dat", _line_of(blade, r"4\.4580000E\+00\s+9\s"))
    assert "airfoil ID 9" in msg and "NumAFfiles = 8" in msg


@needs_ref09
@pytest.mark.parametrize(
    ("file", "old", "new", "key"),
    [
        ("AeroDyn.dat", "          0   UA_Mod ", "          3   UA_Mod ", "UA_Mod"),
        ("AeroDyn.dat", "False         TwrAero", "True          TwrAero", "TwrAero"),
        ("AeroDyn.dat", "          1   BEM_Mod ", "          2   BEM_Mod ", "BEM_Mod"),
        ("AeroDyn.dat", "          0   DBEMT_Mod ", "         -1   DBEMT_Mod ", "DBEMT_Mod"),
        ("InflowWind.dat", "          1   WindType", "          2   WindType", "WindType"),
        ("InflowWind.dat", "          0   VFlowAng", "          8   VFlowAng", "VFlowAng"),
        ("Airfoils/DU21_A17.dat", '"DEFAULT"     InterpOrd', "3   InterpOrd", "InterpOrd"),
    ],
)
def test_refused_setting_in_one_line(tmp_path, file, old, new, key):
    fst = _copy(tmp_path)
    path = fst.parent / file
    _edit(path, old, new)
    lines = od.unsupported_settings(od.read_fst(fst))
    (line,) = [ln for ln in lines if re.search(rf"\b{key}\b", ln)]
    value = new.split()[0]
    n = _line_of(path, rf"^\s*\S+\s+{key}\b")
    assert line.startswith(f"{path.name}: {key} = {value} (line {n})")
    assert "is not supported; floatwind supports" in line and "\n" not in line
    with pytest.raises(CaseError) as err:  # the import refuses it (and CompAero, the lead's)
        od.import_openfast(fst)
    assert line in err.value.lines


@needs_ref09
def test_blades_of_different_geometry_refused(tmp_path):
    fst = _copy(tmp_path)
    other = fst.parent / "AeroDyn_blade2.dat"
    text = (fst.parent / "AeroDyn_blade.dat").read_text(encoding="latin-1")
    other.write_text(text.replace("1.3308000E+01  3.5420000E+00", "1.4308000E+01  3.5420000E+00",
                                  1), encoding="latin-1")  # fmt: skip
    _edit(fst.parent / "AeroDyn.dat", '"AeroDyn_blade.dat"    ADBlFile(2)',
          '"AeroDyn_blade2.dat"    ADBlFile(2)')  # fmt: skip
    d = od.read_fst(fst)
    (line,) = [ln for ln in od.unsupported_settings(d) if "ADBlFile(2)" in ln]
    assert line.startswith('AeroDyn.dat: ADBlFile(2) = "AeroDyn_blade2.dat" (line ')
    assert "blade_files" in aerodyn.rotor_config(d)
    # the same geometry in another file is fine
    other.write_text(text, encoding="latin-1")
    d = od.read_fst(fst)
    assert not [ln for ln in od.unsupported_settings(d) if "ADBlFile" in ln]
    assert "blade_file" in aerodyn.rotor_config(d)


@needs_ref09
def test_missing_airfoil_file_named(tmp_path):
    fst = _copy(tmp_path)
    (fst.parent / "Airfoils" / "DU30_A17.dat").unlink()
    with pytest.raises(CaseError) as err:
        od.read_fst(fst)
    msg = str(err.value)
    assert "AeroDyn.dat" in msg and "DU30_A17.dat" in msg and "AFNames" in msg


@needs_ref09
def test_bad_number_reads_as_everywhere(tmp_path):
    """The message shape of floatwind's bad input (tests/test_messages.py), with the line."""
    path = tmp_path / "DU40_A17.dat"
    text = (DECK / "Airfoils" / "DU40_A17.dat").read_text(encoding="latin-1")
    path.write_text(text.replace("          1   NonDimArea", "        abc   NonDimArea"),
                    encoding="latin-1")  # fmt: skip
    with pytest.raises(CaseError) as err:
        read_airfoil(path)
    n = _line_of(path, r"NonDimArea")
    assert str(err.value) == f"{path}: field 'line {n} (NonDimArea)': expected a number, got 'abc'"


@needs_ref09
def test_blade_file_of_seven_columns(tmp_path):
    """The blade file before AeroDyn v5: BlSpn .. BlAFID only (no extra columns)."""
    lines = (DECK / "AeroDyn_blade.dat").read_text(encoding="latin-1").splitlines()
    out = []
    for line in lines:
        toks = line.split()
        if len(toks) >= 16 and (toks[0] == "BlSpn" or toks[0] == "(m)" or toks[0][0].isdigit()):
            line = "  ".join(toks[:7])
        out.append(line)
    path = tmp_path / "blade7.dat"
    path.write_text("\n".join(out) + "\n", encoding="latin-1")
    b7, b16 = read_blade(path), read_blade(DECK / "AeroDyn_blade.dat")
    assert b7.extra == {}
    for f in ("span", "crv_ac", "swp_ac", "crv_ang_deg", "twist_deg", "chord", "af_id"):
        np.testing.assert_array_equal(getattr(b7, f), getattr(b16, f))


@needs_ref09
def test_output_node_beyond_the_blade(tmp_path):
    fst = _copy(tmp_path)
    ad = fst.parent / "AeroDyn.dat"
    _edit(
        ad, "2, 4, 6, 8, 10, 12, 14, 16, 18    BlOutNd", "2, 4, 6, 8, 10, 12, 14, 16, 20    BlOutNd"
    )
    with pytest.raises(CaseError) as err:
        aerodyn.rotor_config(od.read_fst(fst))
    _one_line(err, "AeroDyn.dat", _line_of(ad, r"\sBlOutNd\s"))
    assert "[20]" in str(err.value) and "NumBlNds = 19" in str(err.value)


@needs_ref09
def test_external_inflow_with_aerodynamics_refused(tmp_path):
    fst = _copy(tmp_path)
    _edit(fst, "           1   CompInflow", "           2   CompInflow")
    d = od.read_fst(fst)
    assert d["InflowWind"] is None
    (line,) = [ln for ln in od.unsupported_settings(d) if "CompInflow" in ln]
    assert line.startswith(f"{fst.name}: CompInflow = 2 (external inflow) is not supported")
