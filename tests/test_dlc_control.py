"""``floatwind dlc`` with a controller (issue 36, docs/dlc.md "With a controller"): the case
cases/oc3_hywind_bem_controlled.yaml (BEM rotor on a free spin, ServoDyn's generator and the
compiled baseline controller) runs DLC 1.x in power production (the controller holds the rotor
speed and pitches the blades) and parks DLC 6.x (controller off, blades feathered through the
servodyn load's pitch, spin locked)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import yaml

from floatwind.cli import main
from floatwind.dlc.spec import dlc_from_dict
from tests.test_dlc_bem import ROOT, _bem, _case_of
from tests.test_dlc_bem import _dlc as bem_dlc

CTRL = ROOT / "cases" / "oc3_hywind_bem_controlled.yaml"
RATED = 12.1 * np.pi / 30.0


def _dlc() -> dict:
    """test_dlc_bem's tiny set (one 16 m/s bin of DLC 1.2 and DLC 6.1 at 0 deg yaw, one seed, 4 s
    after 1 s) on the controlled case, with the controller's channels."""
    return {
        **bem_dlc(CTRL),
        "name": "ctrl_dlc",
        "simulation": {"dt": 0.05, "dt_out": 0.05},
        "channels": ["PtfmPitch", "RtAeroFxh", "GenSpeed", "GenTq", "GenPwr", "BldPitch1"],
        "fatigue": {"channels": ["RtAeroFxh"], "wohler": [4]},
        "extremes": {"channels": ["RtAeroFxh", "GenPwr"]},
    }


def _servo(case: dict) -> dict:
    return next(ld for ld in case["loads"] if ld["type"] == "servodyn")


def test_parked_dlc_switches_the_controller_off_feathers_and_locks():
    dset = dlc_from_dict(_dlc(), base_dir=ROOT, source="ctrl_dlc.yaml")
    lc = next(lc for lc in dset.load_cases if lc.dlc == "6.1")
    v = dset.study_dict(lc)["variants"][0]
    assert v["loads"]["servodyn"] == {"controller": {"kind": "none"},
                                      "pitch": {"initial_deg": [90.0, 90.0, 90.0]}}  # fmt: skip
    assert v["topology"] == {"spin": {"kind": "locked", "value_deg": 0.0}, "spin_drive": None}
    parked = _case_of(dset, "6.1")
    assert _servo(parked)["controller"]["kind"] == "none"
    assert parked["topology"]["spin_drive"] is None
    op = _case_of(dset, "1.2")  # operating: the case's controller and free spin
    assert _servo(op)["controller"]["preset"] == "oc3_hywind"
    assert op["topology"]["spin_drive"] == {"kind": "free"}
    assert _bem(op)["pitch_from"] == "servodyn"


@pytest.fixture(scope="module")
def ctrl_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("dlc_ctrl")
    (tmp / "ctrl_dlc.yaml").write_text(yaml.safe_dump(_dlc()))
    out = tmp / "out"
    assert main(["dlc", str(tmp / "ctrl_dlc.yaml"), "-o", str(out), "--workers", "1",
                 "--no-progress"]) == 0  # fmt: skip
    return out


def test_operating_dlc_is_controlled_and_parked_is_still(ctrl_run):
    runs = pd.read_csv(ctrl_run / "runs.csv").set_index("dlc")  # angles in deg, deg/s
    assert (runs.status == "ok").all() and len(runs) == 2
    op, parked = runs.loc[1.2], runs.loc[6.1]
    # power production at 16 m/s: the rotor near rated, the generator on, the blades pitched
    assert abs(np.radians(op["GenSpeed.mean [deg/s]"]) / (97.0 * RATED) - 1.0) < 0.1
    assert op["GenPwr.mean [W]"] > 3.0e6 and op["GenTq.mean [N m]"] > 3.0e4
    assert op["BldPitch1.mean [deg]"] > 5.0
    # parked: the spin locked, no generator torque, the blades feathered
    assert parked["GenSpeed.max [deg/s]"] == 0.0 and parked["GenSpeed.min [deg/s]"] == 0.0
    assert parked["GenPwr.max [W]"] == 0.0 and parked["GenTq.max [N m]"] == 0.0
    assert parked["BldPitch1.mean [deg]"] == pytest.approx(90.0, abs=1e-9)
    assert parked["BldPitch1.std [deg]"] == pytest.approx(0.0, abs=1e-9)
