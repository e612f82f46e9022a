"""OpenFAST deck import: bodies, conventions, refusal of unsupported decks, CLI."""

from __future__ import annotations

import math
import pathlib
import shutil

import numpy as np
import pytest
import yaml

from floatwind.case.openfast import (
    UnsupportedDeckError,
    euler123_from_zyx,
    import_openfast,
    model_from_deck,
)
from floatwind.cli import main

REF = pathlib.Path("/work/shared/reference/openfast")
if not REF.is_dir():
    REF = pathlib.Path(__file__).resolve().parents[2] / "shared" / "reference" / "openfast"
pytestmark = pytest.mark.skipif(not REF.is_dir(), reason="OpenFAST reference decks not available")


def deck(name: str) -> pathlib.Path:
    return REF / name / f"{name}.fst"


def test_lumped_ref01_matches_assembly_mass_properties():
    res = import_openfast(deck("ref01_pitch_decay"))
    (body,) = res["case"]["bodies"]
    assert body["mass"] == pytest.approx(8065437.845218, rel=1e-12)
    assert body["cm"] == pytest.approx([-0.017555, 0.0, -78.014007], abs=5e-7)
    assert body["inertia"]["xx"] == pytest.approx(1.8935226e10, rel=1e-7)
    assert body["inertia"]["xz"] == pytest.approx(2.2429255e7, rel=1e-7)
    assert res["case"]["initial"]["angles"] == pytest.approx([0.0, 0.1, 0.0], abs=1e-10)
    lin = [ld for ld in res["case"]["loads"] if ld["type"] == "linear"][0]
    assert lin["f0"][2] == pytest.approx(79101143.6)
    assert lin["stiffness"][4][0] == pytest.approx(-2.821e6)


def test_spin_momentum_and_split_topology():
    res = import_openfast(deck("ref02_seed_free_vibration"), split=True)
    b = {x["name"]: x for x in res["case"]["bodies"]}
    assert set(b) == {"platform", "tower", "nacelle", "rotor", "blade1", "generator"}
    total = sum(x["mass"] for x in b.values())
    assert total == pytest.approx(8065437.845218, rel=1e-9)
    j = {x["name"]: x for x in res["case"]["joints"]}
    w = j["shaft"]["rotation"]["rate"]
    assert w == pytest.approx(12.1 * 2 * math.pi / 60)
    # spin momentum (RotIner + GBRatio GenIner) Omega = 3.872885e7 Omega (reference README)
    mp = res["info"]["mass_properties"]
    h = mp["rotor"]["inertia_shaft"] * w + 534.116 * j["hss"]["rotation"]["rate"]
    assert h / w == pytest.approx(3.872885e7, rel=2e-7)


def test_zyx_initial_angles_converted_exactly():
    from floatwind.rotation import euler123_matrix, euler_zyx_matrix

    a = euler123_from_zyx(0.1, 0.1, 0.3)
    R1 = np.asarray(euler123_matrix(a)).reshape(3, 3)
    R2 = np.asarray(euler_zyx_matrix(np.array([[0.1, 0.1, 0.3]]))).reshape(3, 3)
    np.testing.assert_allclose(R1, R2, atol=1e-15)
    assert not np.allclose(a, [0.1, 0.1, 0.3])


def test_ref01_first_seconds_match_openfast():
    from floatwind.io.openfast import read_outb
    from floatwind.simulate import simulate

    ds = simulate(
        model_from_deck(deck("ref01_pitch_decay"), overrides={"simulation.t_max": 5.0}),
        progress=False,
    )
    ref = read_outb(deck("ref01_pitch_decay").with_suffix(".outb")).sel(time=slice(0, 5.0 + 1e-9))
    pitch = np.degrees(np.ravel(ds.PtfmPitch.values))
    np.testing.assert_allclose(pitch, ref.PtfmPitch.values, atol=1e-5)
    np.testing.assert_allclose(np.ravel(ds.PtfmSurge.values), ref.PtfmSurge.values, atol=1e-5)


@pytest.fixture
def bad_deck(tmp_path):
    d = tmp_path / "bad"
    shutil.copytree(REF / "ref01_pitch_decay", d)
    ed = d / "ElastoDyn.dat"
    # (tower modes are DOFs since issue 37: a flexible drivetrain is still refused)
    ed.write_text(ed.read_text().replace("False   DrTrDOF", "True   DrTrDOF"))
    fst = d / "ref01_pitch_decay.fst"
    txt = fst.read_text()
    fst.write_text(txt.replace("           0   CompAero", "           2   CompAero"))
    return fst


def test_unsupported_deck_refused_one_line_per_setting(bad_deck, capsys):
    with pytest.raises(UnsupportedDeckError) as err:
        import_openfast(bad_deck)
    assert len(err.value.lines) == 2
    assert main(["run", str(bad_deck)]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert any("CompAero" in ln for ln in lines) and any("DrTrDOF" in ln for ln in lines)
    assert sum(ln.startswith("floatwind: unsupported:") for ln in lines) == 2
    res = import_openfast(bad_deck, approximate=True)
    assert len(res["notes"]) >= 2


def test_cli_import_writes_loadable_yaml(tmp_path):
    out = tmp_path / "r3.yaml"
    assert main(["import-openfast", str(deck("ref03_yaw_spin")), "-o", str(out)]) == 0
    data = yaml.safe_load(out.read_text())
    yaw = [j for j in data["joints"] if j["name"] == "yaw"][0]
    assert yaw["rotation"]["kind"] == "ramp"
    assert yaw["rotation"]["final"] == pytest.approx(math.radians(270))
    assert main(["check", str(out)]) == 0


def test_hydrodyn_loads_recorded():
    """The importer records which loads are HydroDyn's (their sum is HydroF*i/HydroM*i)."""
    res = import_openfast(deck("ref04_morison_decay"))
    loads = res["case"]["loads"]
    kinds = [loads[i]["type"] for i in res["info"]["hydrodyn_loads"]]
    assert kinds[0] == "linear" and loads[res["info"]["hydrodyn_loads"][0]]["name"] == (
        "hydrodyn_additional"
    )
    assert "morison" in kinds and "gravity" not in kinds
    res01 = import_openfast(deck("ref01_pitch_decay"))
    assert [res01["case"]["loads"][i]["type"] for i in res01["info"]["hydrodyn_loads"]] == [
        "linear"
    ]


def test_sea_state_stretching_and_amplitudes_carried_over(tmp_path):
    """SeaState's WaveStMod and WaveNDAmp become the sea's ``stretching`` and
    ``random_amplitude`` (ref05: 0 = none, True), never floatwind's Wheeler default; an
    extrapolation stretching (WaveStMod = 2) is refused in one line."""
    import re

    fst = REF / "ref05_morison_jonswap" / "ref05_morison_jonswap.fst"
    if not fst.is_file():
        pytest.skip("reference ref05 not available")
    waves = import_openfast(fst)["case"]["environment"]["waves"]
    assert waves["stretching"] == "none" and waves["random_amplitude"] is True
    folder = tmp_path / "deck"
    shutil.copytree(fst.parent, folder, ignore=shutil.ignore_patterns("*.out", "*.outb"))
    ss = folder / "SeaState.dat"
    text = ss.read_text(encoding="latin-1")
    for mode, expect in ((1, "vertical"), (3, "wheeler")):
        ss.write_text(re.sub(r"^(\s*)0(\s+WaveStMod\s)", rf"\g<1>{mode}\g<2>", text, count=1,
                             flags=re.M))  # fmt: skip
        got = import_openfast(folder / fst.name)["case"]["environment"]["waves"]
        assert got["stretching"] == expect
    ss.write_text(re.sub(r"^(\s*)0(\s+WaveStMod\s)", r"\g<1>2\g<2>", text, count=1, flags=re.M))
    with pytest.raises(UnsupportedDeckError) as exc:
        import_openfast(folder / fst.name)
    lines = [ln for ln in str(exc.value).splitlines() if "WaveStMod" in ln]
    assert len(lines) == 1 and "extrapolation" in lines[0], str(exc.value)
