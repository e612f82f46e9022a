"""The AeroDyn deck ref09 (rigid OC3 + NREL 5 MW, AeroDyn v5 quasi-steady BEM, 8 m/s, 9 rpm) run
by floatwind against OpenFAST, a free rotor driven by the aerodynamic torque, and the refusal of
a TurbSim grid that does not cover the rotor (issue 35).

The whole 300 s comparison is ``python validation/openfast/compare.py
../shared/reference/openfast/ref09_aero_fixed_speed`` (docs/validation.md); here its first
10 s.
"""

from __future__ import annotations

import math
import pathlib
import shutil

import numpy as np
import pytest

from floatwind.case.openfast import case_from_deck, model_from_deck, read_fst
from floatwind.errors import CaseError

REF = pathlib.Path(__file__).resolve().parents[2] / "shared" / "reference"
REF09 = REF / "openfast" / "ref09_aero_fixed_speed"
BTS = REF / "turbsim" / "small.bts"

pytestmark = pytest.mark.skipif(not REF09.is_dir(), reason="needs ../shared/reference/openfast")


def test_ref09_matches_openfast_first_10_s():
    from validation.openfast.compare import compare_case

    res = compare_case(REF09, t_end=10.0)
    assert res.passed, [(c.channel, c.nrmse) for c in res.channels if c.passed is False]
    by = {c.channel: c for c in res.channels}
    # the channels, each within 1e-3 of its range (measured: ~1e-6)
    for name in ["PtfmSurge", "PtfmPitch", "RtAeroFxh", "RtAeroMxh", "RtAeroPwr"] + [
        f"B1N{i}{q}" for i in range(1, 10) for q in ("Alpha", "AxInd", "TnInd")
    ]:
        assert name in by, name
        assert by[name].nrmse <= 1e-4, (name, by[name].nrmse)


def _deck_copy(tmp_path, edits: dict[str, dict[str, str]]) -> pathlib.Path:
    d = tmp_path / "deck"
    shutil.copytree(REF09, d, ignore=shutil.ignore_patterns("*.out", "*.outb", "*.sum"))
    for fname, keys in edits.items():
        p = d / fname
        lines = p.read_text(encoding="latin-1").splitlines()
        for i, ln in enumerate(lines):
            parts = ln.split()
            if len(parts) >= 2 and parts[1] in keys:
                lines[i] = f"{keys[parts[1]]:>14s}   {parts[1]}   - edited by the test"
        p.write_text("\n".join(lines) + "\n", encoding="latin-1")
    return d / "ref09_aero_fixed_speed.fst"


def test_free_rotor_is_driven_by_the_aerodynamic_torque(tmp_path):
    """GenDOF on with the generator off: the rotor speed is a degree of freedom, accelerated by
    RtAeroMxh: J dOmega/dt = Q (J = RotIner + GBRatio^2 GenIner, the platform nearly still)."""
    from floatwind.simulate import simulate

    fst = _deck_copy(tmp_path, {"ElastoDyn.dat": {"GenDOF": "True"}})
    res = case_from_deck(read_fst(fst))
    assert res["info"]["decisions"]["rotor"] == "free"
    model = model_from_deck(fst, overrides={"simulation.t_max": 2.0}, result=res)
    ds = simulate(model, progress=False, channels=["RtSpeed", "RtAeroMxh", "PtfmPitch"])
    t = ds["time"].values
    w = ds["RtSpeed"].values.ravel()  # the hub's absolute spin (platform nearly still)
    q = ds["RtAeroMxh"].values.ravel()
    mp = res["info"]["mass_properties"]
    gen = mp["generator"]
    # the drivetrain's inertia about the low-speed shaft: the generator geared up GBRatio times
    spin = mp["rotor"]["inertia_shaft"] + gen["gearbox_ratio"] ** 2 * gen["inertia_hss"]
    gain = np.trapezoid(q, t) if hasattr(np, "trapezoid") else np.trapz(q, t)
    assert w[0] == pytest.approx(9.0 * math.pi / 30.0, rel=1e-9)
    assert w[-1] > w[0]
    assert (w[-1] - w[0]) * spin == pytest.approx(gain, rel=5e-3)


def _small_grid(tmp_path) -> pathlib.Path:
    import turbsim_io

    ds = turbsim_io.read_bts(BTS)
    small = ds.sel(y=slice(-40.0, 40.0))
    out = tmp_path / "narrow.bts"
    turbsim_io.write_bts(out, small)
    return out


@pytest.mark.skipif(not BTS.is_file(), reason="needs ../shared/reference/turbsim")
def test_turbsim_grid_must_cover_the_rotor(tmp_path):
    fst = _deck_copy(tmp_path, {"InflowWind.dat": {"WindType": "3"}})
    ifw = fst.parent / "InflowWind.dat"
    shutil.copy(BTS, fst.parent / "wide.bts")
    text = ifw.read_text(encoding="latin-1")
    import re

    wide = re.sub(r'"[^"\n]*"(\s+FileName_BTS)', r'"wide.bts"\1', text)
    ifw.write_text(wide, encoding="latin-1")
    res = case_from_deck(read_fst(fst))  # 145 m x 145 m around the hub: covers the rotor
    assert res["case"]["environment"]["wind"]["kind"] == "turbsim"
    narrow = _small_grid(tmp_path)
    shutil.copy(narrow, fst.parent / "narrow.bts")
    ifw.write_text(re.sub(r'"[^"\n]*"(\s+FileName_BTS)', r'"narrow.bts"\1', text),
                   encoding="latin-1")  # fmt: skip
    with pytest.raises(CaseError) as exc:
        case_from_deck(read_fst(fst))
    msg = str(exc.value)
    assert "narrow.bts" in msg and "does not cover the rotor" in msg
    assert len(msg.splitlines()) == 1


@pytest.mark.parametrize(
    ("edits", "what"),
    [
        ({"InflowWind.dat": {"PLExp": "0.2"}}, "sheared"),
        ({"InflowWind.dat": {"PropagationDir": "20"}}, "yawed"),
        ({"ElastoDyn.dat": {"RotSpeed": "0"}, "InflowWind.dat": {"HWindSpeed": "30"}}, "parked"),
    ],
)
def test_variants_of_the_aero_deck_run(tmp_path, edits, what):
    """The decks OpenFAST users make from ref09 (sheared and yawed inflow, a parked rotor) import
    and run: the skew angle follows the inflow, a sheared wind tilts the rotor load, the parked
    rotor (merged into the platform body: no spin) has no power but the platform's rotation."""
    from floatwind.simulate import simulate

    fst = _deck_copy(tmp_path, edits)
    model = model_from_deck(fst, overrides={"simulation.t_max": 1.0})
    ds = simulate(model, progress=False,
                  channels=["RtAeroFxh", "RtAeroMyh", "RtAeroPwr", "RtSkew", "B1N5Alpha"])  # fmt: skip
    for name in ds.data_vars:
        assert np.all(np.isfinite(ds[name].values)), name
    skew = float(ds["RtSkew"].values.ravel()[0])
    if what == "yawed":
        # 20 deg of wind direction on the 5 deg tilted shaft: about sqrt(20^2 + 5^2) deg
        assert math.degrees(skew) == pytest.approx(math.hypot(20.0, 5.0), abs=0.5)
    else:
        assert math.degrees(skew) == pytest.approx(5.0, abs=0.5)
    if what == "parked":
        # only the platform's own rotation about the shaft turns the hub (AeroDyn's RtAeroPwr)
        assert np.all(np.abs(ds["RtAeroPwr"].values) < 1.0e3)
        assert np.all(np.abs(ds["RtAeroFxh"].values) > 0.0)
    else:
        assert float(ds["RtAeroPwr"].values.ravel()[0]) > 1.0e6
