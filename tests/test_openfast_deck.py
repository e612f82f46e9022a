"""OpenFAST deck reading, ElastoDyn mass properties and the unsupported-settings check."""

from __future__ import annotations

import json
import math
import re
import shutil
import stat
from pathlib import Path

import numpy as np
import pytest

from floatwind.case.openfast import (
    DEFAULT,
    deck_summary,
    elastodyn_mass_properties,
    enabled_dofs,
    environment,
    hydrodyn_model,
    initial_conditions,
    read_fst,
    read_openfast_input,
    sea_state,
    servodyn_maneuvers,
    unsupported_settings,
)
from floatwind.errors import CaseError

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
REFDIR = SHARED / "reference" / "openfast"
CASES = [
    "ref01_pitch_decay",
    "ref02_seed_free_vibration",
    "ref03_yaw_spin",
    "ref04_morison_decay",
    "ref05_morison_jonswap",
    "ref06_catenary_decay",
]

needs_reference = pytest.mark.skipif(
    not (REFDIR / CASES[0] / f"{CASES[0]}.fst").is_file(),
    reason=f"OpenFAST reference decks not found under {REFDIR} (the shared folder is absent)",
)


def _fst(case: str) -> Path:
    return REFDIR / case / f"{case}.fst"


@pytest.fixture(scope="module")
def ref01_mass():
    deck = read_fst(_fst(CASES[0]))
    return elastodyn_mass_properties(deck, nac_yaw=0.0, azimuth=0.0)


# ------------------------------------------------------------------------------------------------
# generic reader
# ------------------------------------------------------------------------------------------------

SAMPLE = """\
------- SAMPLE MODULE INPUT FILE ----------------------------------------------
A title line with words 1 2 3
---------------------- SIMULATION CONTROL --------------------------------------
False         Echo        - Echo input (flag)
"FATAL"       AbortLevel  - Error level (string)
 1.5D+02      TMax        - Fortran double exponent (s)
"default"     DT          - Time step (s)
  DEFAULT     WavePkShp   - unquoted default
   30, 60     LinTimes    - two values
-10, -60, -120   WaveKinzi - three values
 RanLux       WaveSeed(2) - unquoted string value
         3    NumBl       - Number of blades (-)
          T   SumPrint    - short flag
  1.0   0.0   AddCLin - first row of a matrix
  0.0   2.0
  7.0         AddF0   - column
  8.0
---------------------- DISTRIBUTED PROPERTIES ----------------------------------
  HtFract       TMassDen     Flag
   (-)           (kg/m)      (-)
0.0000000E+00  4.6670000E+03  TRUE
1.0000000E+00  1.9538700E+03  FALSE
---------------------- OUTPUT --------------------------------------------------
              OutList     - The next line(s) contains a list of output parameters.
"PtfmSurge, PtfmSway"     - two channels on one line
"PtfmPitch"
END of OutList section
"HydroFxi"
END of output channels
"""


def test_generic_reader(tmp_path):
    path = tmp_path / "sample.dat"
    path.write_text(SAMPLE)
    f = read_openfast_input(path)
    v = f["values"]
    assert f["title"] == "A title line with words 1 2 3"
    assert v["Echo"] is False and v["SumPrint"] is True
    assert v["AbortLevel"] == "FATAL"
    assert v["TMax"] == 150.0
    assert v["DT"] == DEFAULT and v["WavePkShp"] == DEFAULT
    assert v["LinTimes"] == [30, 60]
    assert v["WaveKinzi"] == [-10, -60, -120]
    assert v["WaveSeed(2)"] == "RanLux"
    assert v["NumBl"] == 3 and isinstance(v["NumBl"], int)
    assert v["AddCLin"] == [[1.0, 0.0], [0.0, 2.0]]
    assert v["AddF0"] == [[7.0], [8.0]]
    tab = f["tables"]["DISTRIBUTED PROPERTIES"]
    assert tab["columns"] == ["HtFract", "TMassDen", "Flag"]
    assert tab["units"] == ["-", "kg/m", "-"]
    assert tab["rows"] == [[0.0, 4667.0, True], [1.0, 1953.87, False]]
    assert f["outlists"]["OutList"] == ["PtfmSurge", "PtfmSway", "PtfmPitch"]
    assert f["outlists"]["OutList_2"] == ["HydroFxi"]
    assert f["sections"][0] == "SAMPLE MODULE INPUT FILE"


def test_reader_missing_file(tmp_path):
    with pytest.raises(CaseError, match="cannot read"):
        read_openfast_input(tmp_path / "nope.dat")
    with pytest.raises(CaseError, match="deck file not found"):
        read_fst(tmp_path / "nope.fst")


# ------------------------------------------------------------------------------------------------
# reference decks
# ------------------------------------------------------------------------------------------------


@needs_reference
@pytest.mark.parametrize("case", CASES)
def test_reference_decks_read_and_are_supported(case):
    deck = read_fst(_fst(case))
    assert deck["ElastoDyn"]["values"]["NumBl"] == 3
    assert len(deck["ElastoDyn_blades"]) == 3
    assert deck["ElastoDyn_tower"] is not None
    assert deck["HydroDyn"] is not None and deck["SeaState"] is not None
    assert (deck["ServoDyn"] is not None) == (case == "ref03_yaw_spin")
    assert unsupported_settings(deck) == []
    dofs = enabled_dofs(deck)
    assert all(
        dofs[k] for k in ("PtfmSgDOF", "PtfmSwDOF", "PtfmHvDOF", "PtfmRDOF", "PtfmPDOF", "PtfmYDOF")
    )
    assert not any(dofs[k] for k in ("FlapDOF1", "FlapDOF2", "EdgeDOF", "GenDOF", "DrTrDOF"))
    assert dofs["YawDOF"] == (case == "ref03_yaw_spin")
    summary = deck_summary(deck)
    assert (
        summary["tmax"] == json.loads((REFDIR / case / "case_definition.json").read_text())["TMax"]
    )
    env = environment(deck)
    assert env["gravity"] == 9.80665 and env["water_density"] == 1025.0
    assert env["water_depth"] == 320.0 and env["msl2swl"] == 0.0


@needs_reference
def test_initial_conditions_si():
    ic = initial_conditions(read_fst(_fst("ref02_seed_free_vibration")))
    assert ic["PtfmSway"] == 0.5
    assert ic["PtfmRoll"] == pytest.approx(0.1, rel=1e-9)
    assert ic["PtfmPitch"] == pytest.approx(0.1, rel=1e-9)
    assert ic["RotSpeed"] == pytest.approx(12.1 * 2 * math.pi / 60, rel=1e-15)
    assert ic["NacYaw"] == 0.0 and ic["Azimuth"] == 0.0
    assert ic["BlPitch"] == [0.0, 0.0, 0.0]


@needs_reference
def test_servodyn_maneuvers():
    deck = read_fst(_fst("ref03_yaw_spin"))
    m = servodyn_maneuvers(deck)
    assert m["yaw"]["start_time"] == 0.0
    assert m["yaw"]["rate"] == pytest.approx(math.radians(1.2), rel=1e-15)
    assert m["yaw"]["final_angle"] == pytest.approx(math.radians(270.0), rel=1e-15)
    assert m["yaw"]["spring"] == 9.02832e9 and m["yaw"]["damping"] == 1.916e7
    assert len(m["pitch"]) == 3
    assert m["pitch"][0]["start_time"] == 9999.9
    assert m["pitch"][0]["rate"] == pytest.approx(math.radians(2.0))
    assert servodyn_maneuvers(read_fst(_fst("ref01_pitch_decay"))) is None


@needs_reference
@pytest.mark.parametrize("case", ["ref01_pitch_decay", "ref04_morison_decay"])
def test_hydrodyn_matrices_match_case_definition(case):
    hd = hydrodyn_model(read_fst(_fst(case)))
    ref = json.loads((REFDIR / case / "case_definition.json").read_text())
    np.testing.assert_allclose(
        hd["AddF0"], ref["AddF0"] if case == "ref01_pitch_decay" else hd["AddF0"]
    )
    np.testing.assert_array_equal(hd["AddCLin"], np.asarray(ref["AddCLin"]))
    np.testing.assert_array_equal(hd["AddBLin"], np.asarray(ref["AddBLin"]))
    np.testing.assert_array_equal(hd["AddBQuad"], np.zeros((6, 6)))
    assert hd["PotMod"] == 1 and hd["PtfmVol0"] == [0.0] and hd["PtfmRefzt"] == [0.0]


@needs_reference
def test_hydrodyn_morison_members():
    hd = hydrodyn_model(read_fst(_fst("ref04_morison_decay")))
    np.testing.assert_array_equal(hd["AddF0"], [0, 0, -1.607e6, 0, 0, 0])
    assert [j["Jointzi"] for j in hd["joints"]] == [-120.0, -12.0, -4.0, 10.0]
    assert [p["PropD"] for p in hd["properties_cyl"]] == [9.4, 6.5]
    assert [
        (m["MJointID1"], m["MJointID2"], m["MPropSetID1"], m["MPropSetID2"]) for m in hd["members"]
    ] == [
        (1, 2, 1, 1),
        (2, 3, 1, 2),
        (3, 4, 2, 2),
    ]
    assert all(m["MHstLMod"] == 1 and m["PropPot"] is False for m in hd["members"])
    simple = hd["simple_coefficients_cyl"][0]
    assert (simple["SimplCd"], simple["SimplCa"], simple["SimplCp"], simple["SimplAxCa"]) == (
        0.6,
        1.0,
        1.0,
        0.0,
    )
    assert hd["axial_coefficients"][0]["AxCd"] == 0.0
    assert hd["outlist"] == ["HydroFxi", "HydroFyi", "HydroFzi", "HydroMxi", "HydroMyi", "HydroMzi"]


@needs_reference
def test_sea_state_jonswap():
    ss = sea_state(read_fst(_fst("ref05_morison_jonswap")))
    assert ss["WaveMod"] == 2
    assert (ss["WaveHs"], ss["WaveTp"], ss["WavePkShp"]) == (5.0, 10.0, 3.3)
    assert not ss["WavePkShp_default"]
    assert ss["WaveSeed"] == [123456789, 1011121314]
    assert (ss["WaveDT"], ss["WaveTMax"]) == (0.05, 600.0)
    assert ss["WaveDir"] == 0.0
    assert (ss["WtrDens"], ss["WtrDpth"], ss["MSL2SWL"]) == (1025.0, 320.0, 0.0)  # DEFAULT -> .fst
    assert ss["WaveKin_points"] == [(0.0, 0.0, -10.0), (0.0, 0.0, -60.0), (0.0, 0.0, -120.0)]
    still = sea_state(read_fst(_fst("ref01_pitch_decay")))
    assert still["WaveMod"] == 0
    # WavePkShp = DEFAULT: IEC value exp(5.75 - 1.15 Tp/sqrt(Hs)) for Hs 6 m, Tp 10 s
    assert still["WavePkShp_default"]
    assert still["WavePkShp"] == pytest.approx(math.exp(5.75 - 1.15 * 10 / math.sqrt(6)))


# ------------------------------------------------------------------------------------------------
# mass properties against the reference README / ElastoDyn summary
# ------------------------------------------------------------------------------------------------


def _rel(a, b) -> float:
    a, b = np.asarray(a, float), np.asarray(b, float)
    return float(np.max(np.abs(a - b)) / np.max(np.abs(b)))


@needs_reference
def test_mass_properties_readme_figures(ref01_mass):
    mp = ref01_mass
    blade = mp["blades"][0]
    # (computed, README value, tolerance): README figures have 3 decimals -> half a unit of 1e-3
    figures = {
        "rotor mass": (mp["rotor"]["mass"], 109_389.842, 5e-4),
        "rotor inertia": (mp["rotor"]["inertia_shaft"], 38_677_040.613, 5e-4),
        "blade mass": (blade["mass"], 17_536.614, 5e-4),
        "blade first moment": (blade["first_moment"], 362_132.653, 5e-4),
        "blade second moment": (blade["second_moment"], 11_752_352.265, 5e-4),
        "blade CM": (blade["cm_from_root"], 20.650, 5e-4),
        "RNA mass": (mp["rna"]["mass"], 349_389.842, 5e-4),
        "tower mass": (mp["tower"]["mass"], 249_718.003, 5e-4),
        "platform mass": (mp["platform"]["mass"], 7_466_330.000, 5e-4),
        "total mass": (mp["total"]["mass"], 8_065_437.845, 5e-4),
        "hub height": (mp["geometry"]["hub_height"], 90.000, 5e-4),
        "total mass (6 decimals)": (mp["total"]["mass"], 8_065_437.845218, 5e-7),
        "RNA mass (6 decimals)": (mp["rna"]["mass"], 349_389.842418, 5e-7),
        "tower mass (6 decimals)": (mp["tower"]["mass"], 249_718.002800, 5e-7),
        "tower CM z": (mp["tower"]["cm"][2], 43.361529, 5e-7),
        "rotor inertia (6 decimals)": (mp["rotor"]["inertia_shaft"], 38_677_040.612880, 5e-7),
        "nacelle yaw inertia": (mp["nacelle"]["yaw_inertia_cm"], 1_741_490.0, 1e-9),
        "spin coefficient": (mp["rotor"]["spin_momentum_coefficient"], 3.872885e7, 5e-1),
    }
    for name, (got, want, tol) in figures.items():
        assert abs(got - want) <= tol, f"{name}: {got!r} vs {want!r}"
    np.testing.assert_allclose(mp["total"]["cm"], [-0.017555, 0.0, -78.014007], rtol=0, atol=5e-7)
    np.testing.assert_allclose(mp["rna"]["cm"], [-0.405238, 0.0, 89.566188], rtol=0, atol=5e-7)
    np.testing.assert_allclose(mp["rotor"]["apex"], [-5.000, 0.0, 90.000], rtol=0, atol=5e-4)
    np.testing.assert_allclose(mp["platform"]["cm"], [0.0, 0.0, -89.9155], atol=1e-12)
    np.testing.assert_allclose(
        mp["platform"]["inertia_cm"], np.diag([4.22923e9, 4.22923e9, 1.6423e8])
    )
    np.testing.assert_allclose(
        mp["rotor"]["shaft_axis"], [math.cos(math.radians(5)), 0, -math.sin(math.radians(5))]
    )


@needs_reference
def test_mass_properties_readme_inertia_matrices(ref01_mass):
    # README prints 8 significant digits: entries agree to half a unit of the 8th digit
    about_prp = np.array(
        [
            [6.8022975e10, -4.2200554e-10, 1.1383556e07],
            [-4.2200554e-10, 6.8007906e10, 1.5133992e-08],
            [1.1383556e07, 1.5133992e-08, 1.8957985e08],
        ]
    )
    about_cm = np.array(
        [
            [1.8935226e10, -4.1874850e-10, 2.2429255e07],
            [-4.1874850e-10, 1.8920154e10, 2.9608470e-08],
            [2.2429255e07, 2.9608470e-08, 1.8957737e08],
        ]
    )
    for got, want in (
        (ref01_mass["total"]["inertia_prp"], about_prp),
        (ref01_mass["total"]["inertia_cm"], about_cm),
    ):
        big = np.abs(want) > 1.0  # the ~1e-10 entries are round-off, compare them to the scale
        assert np.all(np.abs(got - want)[big] <= 5e-8 * np.abs(want)[big])
        assert np.all(np.abs(got - want)[~big] <= 1e-12 * np.abs(want).max())
        np.testing.assert_array_equal(got, got.T)


@needs_reference
def test_mass_properties_match_mass_properties_json(ref01_mass):
    ref = json.loads((REFDIR / CASES[0] / "mass_properties.json").read_text())
    mp = ref01_mass
    b = mp["blades"][0]
    pairs = {
        "total_mass_kg": mp["total"]["mass"],
        "cm_m": mp["total"]["cm"],
        "inertia_about_PRP_kgm2": mp["total"]["inertia_prp"],
        "inertia_about_CM_kgm2": mp["total"]["inertia_cm"],
        "blade_mass_kg": b["mass"],
        "blade_first_mass_moment_about_root_kgm": b["first_moment"],
        "blade_second_mass_moment_about_root_kgm2": b["second_moment"],
        "blade_cm_from_root_m": b["cm_from_root"],
        "rotor_mass_kg": mp["rotor"]["mass"],
        "rotor_inertia_about_shaft_kgm2": mp["rotor"]["inertia_shaft"],
        "tower_mass_kg": mp["tower"]["mass"],
        "towertop_RNA_mass_kg": mp["rna"]["mass"],
        "RNA_cm_m": mp["rna"]["cm"],
        "apex_m": mp["rotor"]["apex"],
        "nacelle_cm_m": mp["nacelle"]["cm"],
        "shaft_axis_c1": mp["rotor"]["shaft_axis"],
        "platform_cm_m": mp["platform"]["cm"],
        "platform_inertia_about_own_CM_kgm2": mp["platform"]["inertia_cm"],
    }
    for key, got in pairs.items():
        assert _rel(got, ref[key]) < 1e-12, key
    assert abs(mp["tower"]["cm"][2] - ref["tower_cm_z_m"]) < 1e-12


@needs_reference
@pytest.mark.parametrize("case", CASES)
def test_mass_properties_match_elastodyn_summary(case):
    """Every number ElastoDyn printed in <case>.ED.sum, to its printed digits."""
    text = (REFDIR / case / f"{case}.ED.sum").read_text()

    def printed(label: str) -> float:
        return float(
            re.search(rf"^\s+{re.escape(label)}\s+\([^)]*\)\s+([-\d.E+]+)", text, re.M).group(1)
        )

    def node_table(heading: str, n: int) -> np.ndarray:
        block = text[text.index(heading) :].splitlines()
        rows = [ln.split() for ln in block if re.match(r"^\s+\d+\s+[\d.]+\s", ln)]
        return np.array([[float(x) for x in r[:6]] for r in rows[:n]])

    mp = elastodyn_mass_properties(read_fst(_fst(case)))
    b = mp["blades"]
    checks = {
        "Rotor Mass": mp["rotor"]["mass"],
        "Rotor Inertia": mp["rotor"]["inertia_shaft"],
        "Tower-top Mass": mp["rna"]["mass"],
        "Tower Mass": mp["tower"]["mass"],
        "Platform Mass": mp["platform"]["mass"],
        "Mass Incl. Platform": mp["total"]["mass"],
        "Hub-Height": mp["geometry"]["hub_height"],
        "Flexible Tower Length": mp["geometry"]["tower_flexible_length"],
        "Flexible Blade Length": mp["geometry"]["blade_flexible_length"],
        "Mass": b[0]["mass"],
        "Second Mass Moment": b[0]["second_moment"],
        "First Mass Moment": b[0]["first_moment"],
        "Center of Mass": b[0]["cm_from_root"],
    }
    for label, got in checks.items():
        assert abs(got - printed(label)) <= 5e-4 * (1 + 1e-9), label
    # interpolated node tables: RNodes (from the apex), BMassDen (AdjBlMs included), TMassDen
    blade_nodes = node_table("Interpolated blade 1 properties", 17)
    dr = mp["geometry"]["blade_flexible_length"] / 17
    np.testing.assert_allclose(b[0]["node_mass"][:17] / dr, blade_nodes[:, 5], rtol=0, atol=5.01e-4)
    np.testing.assert_allclose(
        b[0]["node_radius"][:17] + mp["geometry"]["hub_radius"],
        blade_nodes[:, 2],
        rtol=0,
        atol=5e-4,
    )
    tower_nodes = node_table("Interpolated tower properties", 20)
    dh = mp["geometry"]["tower_flexible_length"] / 20
    np.testing.assert_allclose(
        mp["tower"]["node_mass"] / dh, tower_nodes[:, 4], rtol=0, atol=5.01e-4
    )
    np.testing.assert_allclose(mp["tower"]["node_height"], tower_nodes[:, 2], rtol=0, atol=5e-4)


@needs_reference
def test_mass_properties_invariances(ref01_mass):
    deck = read_fst(_fst(CASES[0]))
    # a symmetric 3-bladed rotor: turning it by 120 deg changes nothing
    turned = elastodyn_mass_properties(deck, nac_yaw=0.0, azimuth=2 * math.pi / 3)
    np.testing.assert_allclose(
        turned["total"]["inertia_prp"], ref01_mass["total"]["inertia_prp"], rtol=1e-13, atol=1e-3
    )
    assert turned["blades"][0]["cm"][1] != pytest.approx(ref01_mass["blades"][0]["cm"][1])
    # rotor inertia about the shaft rebuilt from the lumped masses (+ hub inertia)
    c1 = ref01_mass["rotor"]["shaft_axis"]
    apex = ref01_mass["rotor"]["apex"]
    rot = ref01_mass["hub"]["inertia_shaft"]
    for b in ref01_mass["blades"]:
        pts = b["root"] + np.outer(b["node_radius"], b["axis"]) - apex
        perp = pts - np.outer(pts @ c1, c1)
        rot += float(b["node_mass"] @ np.einsum("ni,ni->n", perp, perp))
    assert rot == pytest.approx(ref01_mass["rotor"]["inertia_shaft"], rel=1e-13)
    # yawing the nacelle by 90 deg moves the RNA CM offset from -x to -y
    yawed = elastodyn_mass_properties(deck, nac_yaw=math.pi / 2, azimuth=0.0)
    np.testing.assert_allclose(
        yawed["rna"]["cm"][:2], [0.0, ref01_mass["rna"]["cm"][0]], atol=1e-12
    )
    assert yawed["total"]["mass"] == ref01_mass["total"]["mass"]
    # blade inertia about its own CM is diag(I_t, I_t, 0) in the blade frame
    b = ref01_mass["blades"][0]
    i_t = b["second_moment"] - b["mass"] * b["cm_from_root"] ** 2
    np.testing.assert_allclose(np.diag(b["inertia_cm_blade_frame"]), [i_t, i_t, 0.0])


# ------------------------------------------------------------------------------------------------
# modified decks: unsupported settings and input errors
# ------------------------------------------------------------------------------------------------


def _copy_case(tmp_path: Path, case: str = "ref01_pitch_decay") -> Path:
    dst = tmp_path / case
    shutil.copytree(REFDIR / case, dst, ignore=shutil.ignore_patterns("*.out", "*.outb", "*.sum"))
    for p in dst.rglob("*"):
        p.chmod(p.stat().st_mode | stat.S_IWUSR)
    return dst / f"{case}.fst"


def _set(path: Path, key: str, value: str) -> None:
    """Replace the value of ``key`` in an OpenFAST input file."""
    text = path.read_text()
    new, n = re.subn(
        rf"^(\s*)\S+(\s+{re.escape(key)}\s)", rf"\g<1>{value}\g<2>", text, count=1, flags=re.M
    )
    assert n == 1, key
    path.write_text(new)


@needs_reference
def test_unsupported_settings_on_modified_deck(tmp_path):
    fst = _copy_case(tmp_path)
    folder = fst.parent
    assert unsupported_settings(read_fst(fst)) == []
    _set(folder / "ElastoDyn.dat", "FlapDOF1", "True")
    _set(folder / "ElastoDyn.dat", "DrTrDOF", "True")  # (tower modes: DOFs since issue 37)
    # GenDOF without ServoDyn is a free rotor since issue 17 (tests/test_joint_dofs.py); with a
    # connected generator it is refused there
    _set(folder / "ElastoDyn.dat", "GenDOF", "True")
    _set(fst, "CompAero", "2")
    _set(fst, "CompMooring", "2")  # FEAMooring (MAP++ = 1 and MoorDyn = 3 are read)
    # a WAMIT body is imported since issue 26 (RdtnMod = 2: HydroDyn's .ss file); other radiation
    # models and the large-yaw model are not
    _set(folder / "HydroDyn.dat", "RdtnMod", "3")
    _set(folder / "HydroDyn.dat", "PtfmYMod", "1")
    _set(folder / "SeaState.dat", "WaveMod", "3")
    lines = unsupported_settings(read_fst(fst))
    expected = [
        "FlapDOF1",
        "DrTrDOF",
        "CompAero = 2",
        "CompMooring = 2",
        "RdtnMod = 3",
        "PtfmYMod = 1",
        "WaveMod = 3",
    ]
    assert len(lines) == len(expected), lines
    for word in expected:
        assert sum(word in line for line in lines) == 1, (word, lines)
    assert all("\n" not in line for line in lines)


@needs_reference
def test_input_errors_name_file_and_field(tmp_path):
    fst = _copy_case(tmp_path)
    folder = fst.parent
    (folder / "ElastoDyn_Tower.dat").rename(folder / "moved.dat")
    with pytest.raises(CaseError, match="referenced file not found") as info:
        read_fst(fst)
    assert info.value.field == "TwrFile" and info.value.file.endswith("ElastoDyn.dat")
    (folder / "moved.dat").rename(folder / "ElastoDyn_Tower.dat")

    _set(folder / "ElastoDyn_Blade.dat", "NBlInpSt", "48")
    with pytest.raises(
        CaseError, match="NBlInpSt = 48 but the distributed blade table has 49 rows"
    ) as info:
        elastodyn_mass_properties(read_fst(fst))
    assert info.value.file.endswith("ElastoDyn_Blade.dat")
    _set(folder / "ElastoDyn_Blade.dat", "NBlInpSt", "49")

    _set(folder / "ElastoDyn.dat", "HubMass", "-1")
    with pytest.raises(CaseError, match="must not be negative") as info:
        elastodyn_mass_properties(read_fst(fst))
    assert info.value.field == "HubMass"
    _set(folder / "ElastoDyn.dat", "HubMass", "56780")

    _set(folder / "ElastoDyn.dat", "NacYIner", "1000")
    with pytest.raises(CaseError, match="NacYIner"):
        elastodyn_mass_properties(read_fst(fst))
    _set(folder / "ElastoDyn.dat", "NacYIner", "2607890")

    _set(folder / "ElastoDyn.dat", "PtfmPitch", "abc")
    with pytest.raises(CaseError, match="expected a number") as info:
        initial_conditions(read_fst(fst))
    assert info.value.field == "PtfmPitch"

    (folder / "NullWAMIT" / "null.hst").unlink()
    _set(folder / "ElastoDyn.dat", "PtfmPitch", "0")
    with pytest.raises(CaseError, match=r"null.hst does not exist"):
        unsupported_settings(read_fst(fst))


@needs_reference
def test_unsupported_servodyn_controllers(tmp_path):
    fst = _copy_case(tmp_path, "ref03_yaw_spin")
    folder = fst.parent
    assert unsupported_settings(read_fst(fst)) == []
    _set(folder / "ServoDyn.dat", "PCMode", "5")
    _set(folder / "ElastoDyn.dat", "YawFrctMod", "1")
    lines = unsupported_settings(read_fst(fst))
    assert len(lines) == 2, lines
    assert "ServoDyn.dat: PCMode = 5" in lines[1] and "YawFrctMod = 1" in lines[0]


def test_end_marker_after_an_empty_output_list_is_not_a_setting(tmp_path):
    # SeaState files with no output channels end with "END of output channels ..."; that line
    # was once read as a setting "of" = "END" (found by the openfast_io cross-check)
    p = tmp_path / "ss.dat"
    p.write_text(
        "------- SeaState Input File ----\ntitle\n---- OUTPUT ----\n"
        "True   SeaStSum   - summary\n---- OUTPUT CHANNELS ----\n"
        "END of output channels and end of file.\n"
    )
    f = read_openfast_input(p)
    assert f["values"] == {"SeaStSum": True}
