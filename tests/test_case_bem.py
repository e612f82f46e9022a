"""cases/oc3_hywind_bem.yaml: the OC3-Hywind case with the blade-element rotor (bem_rotor) instead of
the C_T disc. Its rotor geometry against the OpenFAST deck importer's for ref09 (the same NREL 5-MW
rotor, another frame), a short run (thrust, power, blade-root and blade-node channels in a
plausible range), the 3-body form equal to the 6-body case to round-off, and the C_T disc of
cases/oc3_hywind.yaml against the BEM thrust at the same wind and state."""

from __future__ import annotations

import copy
import math
import pathlib

import numpy as np
import pytest
import xarray as xr
import yaml

from floatwind.cli import main
from floatwind.loads.rotor_bem import BemRotor

ROOT = pathlib.Path(__file__).resolve().parents[1]
CASES = ROOT / "cases"
BEM = CASES / "oc3_hywind_bem.yaml"
REF09 = ROOT.parent / "shared" / "reference" / "openfast" / "ref09_aero_fixed_speed"
#: the collective pitch of the case (topology.pitch) and its rated aerodynamic power at 17 m/s
PITCH_DEG = 13.42


def _first(da) -> float:
    return float(np.asarray(da).ravel()[0])


def _case() -> dict:
    return yaml.safe_load(BEM.read_text())


def _bem_load(d: dict) -> dict:
    return next(ld for ld in d["loads"] if ld["type"] == "bem_rotor")


def _absolute(d: dict) -> dict:
    """The case with its data paths made absolute (to be written elsewhere)."""
    d = copy.deepcopy(d)
    ld = _bem_load(d)
    ld["blade_file"] = str(CASES / ld["blade_file"])
    ld["airfoils"] = [str(CASES / a) for a in ld["airfoils"]]
    return d


def _three_body(d: dict) -> dict:
    """The 3-body form of the header: rotor body, no blade bodies, the pitch on the load."""
    d = _absolute(d)
    d["topology"]["kind"] = "three_body"
    pitch = d["topology"].pop("pitch")
    ld = _bem_load(d)
    ld["body"] = "rotor"
    ld.pop("blade_bodies")
    ld["pitch_deg"] = pitch["value_deg"]
    return d


def test_case_is_clean(capsys):
    assert main(["check", str(BEM)]) == 0
    out = capsys.readouterr()
    assert "warning" not in (out.out + out.err).lower()
    d = _case()
    assert d["topology"]["pitch"] == {"kind": "locked", "value_deg": PITCH_DEG}
    assert d["topology"]["spin"] == {"kind": "constant_rate", "rate_rpm": 12.1}
    assert not any(ld["type"] == "thrust_ct" for ld in d["loads"])


@pytest.mark.skipif(not REF09.is_dir(), reason="shared/reference/openfast not present")
def test_rotor_geometry_is_the_importers_for_ref09_in_the_hub_frame():
    """The importer builds ref09's rotor in the platform-aligned rotor frame (shaft tilted 5 deg);
    the case in the hub frame (x = shaft, z = blade 1): the same nodes once rotated, the same
    blade, polars and AeroDyn settings."""
    from floatwind.case.openfast import import_openfast

    ref = next(ld for ld in import_openfast(REF09 / "ref09_aero_fixed_speed.fst")["case"]["loads"]
               if ld["type"] == "bem_rotor")  # fmt: skip
    ours = _bem_load(_three_body(_case()))
    ours["pitch_deg"] = ref["pitch_deg"]  # ref09 runs at pitch 0
    for key in ("n_blades", "hub_radius", "precone_deg", "output_nodes", "output_blades",
                "airfoil_columns"):  # fmt: skip
        assert ours.get(key, ref[key]) == pytest.approx(ref[key], abs=1e-12), key
    for key, val in ours["options"].items():
        assert ref["options"][key] == pytest.approx(val, rel=1e-12), key
    assert [pathlib.Path(a).name for a in ours["airfoils"]] == [
        pathlib.Path(a).name for a in ref["airfoils"]
    ]
    for a, b in zip(ours["airfoils"], ref["airfoils"], strict=True):  # copied unchanged
        assert pathlib.Path(a).read_bytes() == pathlib.Path(b).read_bytes()
    assert (
        pathlib.Path(ours["blade_file"]).read_bytes()
        == pathlib.Path(ref["blade_file"]).read_bytes()
    )
    g_ours = BemRotor.from_config(ours, body_index={"rotor": 0}, field="ours").geometry
    g_ref = BemRotor.from_config(ref, body_index={"rotor": 0}, field="ref").geometry
    c1, c2 = np.asarray(ref["shaft_axis"]), np.asarray(ref["blade1_axis"])
    assert c1 @ c2 == pytest.approx(0.0, abs=1e-15)
    assert c1 == pytest.approx(
        [math.cos(math.radians(5)), 0, -math.sin(math.radians(5))], abs=1e-12
    )
    R = np.column_stack([c1, np.cross(c2, c1), c2])  # hub axes in the importer's rotor frame
    np.testing.assert_allclose(g_ours.nodes_b @ R.T, g_ref.nodes_b, rtol=0, atol=1e-9)
    np.testing.assert_allclose(g_ours.frames_b @ R.T, g_ref.frames_b, rtol=0, atol=1e-12)
    np.testing.assert_allclose(g_ours.apex_b, g_ref.apex_b, atol=0)
    for name in ("twist", "chord", "af_index", "seg_len", "z_local"):
        np.testing.assert_allclose(getattr(g_ours, name), getattr(g_ref, name), rtol=1e-14)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """10 s of the BEM case and of its 3-body form, 0.5 s of the C_T-disc case (oc3_hywind)."""
    tmp = tmp_path_factory.mktemp("bem")
    three = tmp / "three.yaml"
    three.write_text(yaml.safe_dump(_three_body(_case())))
    out = {}
    for name, case, tmax in (("bem", BEM, "10"), ("three", three, "10"),
                             ("ct", CASES / "oc3_hywind.yaml", "0.5")):  # fmt: skip
        path = tmp / f"{name}.nc"
        assert main(["run", str(case), "--tmax", tmax, "-o", str(path), "--no-progress"]) == 0
        out[name] = xr.load_dataset(path)
    return out


def test_short_run_thrust_power_and_blade_channels(runs):
    ds = runs["bem"]
    assert float(ds.time[-1]) == pytest.approx(10.0)
    fx, pwr = ds.RtAeroFxh.values.ravel(), ds.RtAeroPwr.values.ravel()
    # at t = 0 (upright, at rest) the rated point the pitch was chosen for (the case's header):
    # 5.297 MW and 355 kN from the steady BEM over 8 sectors; here blade 1 up, one azimuth
    assert pwr[0] == pytest.approx(5.30e6, rel=0.02) and fx[0] == pytest.approx(3.55e5, rel=0.02)
    # the platform pitches back and surges downwind: less relative wind, still producing
    assert (fx > 2.0e5).all() and (fx < 4.5e5).all()
    assert (pwr > 2.0e6).all() and (pwr < 7.0e6).all()
    # the absolute spin rate: 12.1 rpm on the shaft plus the platform's small rotation rates
    assert _first(ds.RtSpeed) == pytest.approx(12.1 * math.pi / 30, rel=1e-12)
    assert np.allclose(ds.RtSpeed.values, 12.1 * math.pi / 30, rtol=2e-3)
    assert 0.05 < float(ds.PtfmPitch.max()) < 0.1  # rad, the thrust tilts the spar back
    # blade-node channels at AeroDyn's 9 output nodes of blade 1
    for k in range(1, 10):
        assert f"B1N{k}Alpha" in ds and f"B1N{k}Fx" in ds
    assert "B1N10Alpha" not in ds and "B2N1Alpha" not in ds
    ax = ds.B1N5AxInd.values.ravel()
    assert (ax > 0.0).all() and (ax < 0.2).all()  # lightly loaded above rated
    # blade-root loads with the aerodynamic load on the blade: blade 1 up at t = 0, whose
    # gravity and centrifugal flap moments (precone, tilt) are < 1 MN m
    assert _first(ds.RootMyb1) > 3.0e6
    # blades 2 and 3 on pitch joints of their own: Root*b2, Root*b3; over the ~2 revolutions of
    # the run the three blades carry the same mean flap moment (each sees every azimuth)
    mean = [float(ds[f"RootMyb{k}"].mean()) for k in (1, 2, 3)]
    assert mean[0] > 3.0e6 and max(mean) - min(mean) < 0.05 * mean[0]
    assert {"RootFxb2", "RootMzb2", "RootFzb3", "RootMxb3"} <= set(ds.data_vars)


def test_three_body_form_gives_the_same_run(runs):
    """The 6-body tree (blades on pitch joints, their pitch from the joints) and the 3-body tree
    (one rotor body, the pitch on the load) are the same rigid rotor."""
    a, b = runs["bem"], runs["three"]
    assert "RootMyb1" in a and "RootMyb1" not in b
    for name in ("PtfmSurge", "PtfmPitch", "PtfmYaw", "RtAeroFxh", "RtAeroMxh", "B1N5Alpha",
                 "B1N9Fx"):  # fmt: skip
        x, y = a[name].values, b[name].values
        assert np.abs(x - y).max() <= 1e-9 * np.abs(y).max(), name


def test_ct_disc_and_bem_thrust_agree_at_the_same_wind(runs):
    """The same case, state (upright, at rest) and wind (17 m/s at 87.6 m): Wang's variable C_T
    (cases/data/ct_curve_fig14.csv) gives 420 kN, the BEM rotor at the pitch of rated power
    358 kN (14.7 % less)."""
    ct = _first(runs["ct"].RtAeroFxh)
    bem = _first(runs["bem"].RtAeroFxh)
    assert abs(bem - ct) / ct < 0.15
    assert bem < ct
