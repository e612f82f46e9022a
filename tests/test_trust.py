"""Nothing lost, nothing silently wrong (issue 15): inputs and results protected, resumed studies
fingerprinted, unknown channels refused, the Euler singularity stops the run, clear errors and
sanity warnings instead of internal errors or silence."""

from __future__ import annotations

import copy
import pathlib

import numpy as np
import pytest
import yaml

from floatwind.case.loader import model_from_dict
from floatwind.errors import SimulationError
from floatwind.rotation import EULER_PITCH_GUARD
from floatwind.simulate import fused as fz
from floatwind.simulate import simulate
from floatwind.simulate.system import System

ROOT = pathlib.Path(__file__).resolve().parents[1]
DECAY = ROOT / "cases" / "oc3_platform_decay.yaml"


def _decay_dict(**sim) -> dict:
    d = yaml.safe_load(DECAY.read_text())
    d["simulation"].update({"t_max": 4.0, **sim})
    return d


# ------------------------------------------------------------------ Euler singularity (item 4)


def _pitch_model():
    """The lumped OC3 platform under a pure pitch moment far beyond what its restoring holds:
    the Euler pitch X5 runs into +90 deg in about 1.7 s."""
    d = _decay_dict()
    d["loads"].append(
        {
            "type": "constant_force",
            "name": "push",
            "body": "platform",
            "force": [0.0, 0.0, 0.0],
            "moment": [0.0, 2.0e10, 0.0],
        }
    )
    return model_from_dict(copy.deepcopy(d), base_dir=DECAY.parent, name="pitch")


@pytest.mark.parametrize("fused", [True, False], ids=["compiled", "python"])
def test_pitch_singularity_stops_the_run_at_the_guard(fused):
    m = _pitch_model()
    if fused:
        assert fz.fuse(System(m))[0] is not None
    old = fz.use_fused(fused)
    try:
        with pytest.raises(SimulationError) as info:
            simulate(m, progress=False)
    finally:
        fz.use_fused(old)
    err = info.value
    msg = str(err)
    assert "Euler-singularity guard |X5| >= 89.5 deg" in msg and "base pitch X5 = " in msg
    assert abs(err.state[0, 4]) >= EULER_PITCH_GUARD  # the step that reached the guard
    assert 1.0 < err.time < 2.5
    ds = err.dataset  # the partial record, all of it before the guard, no runaway roll or yaw
    assert ds.attrs["status"] == msg
    assert float(ds.time[-1]) <= err.time
    assert np.abs(ds.X5.values).max() < EULER_PITCH_GUARD
    assert np.abs(ds.X6.values).max() < 1e-6 and np.abs(ds.X4.values).max() < 1e-6


def test_pitch_singularity_same_step_both_paths():
    times = []
    for flag in (True, False):
        old = fz.use_fused(flag)
        try:
            with pytest.raises(SimulationError) as info:
                simulate(_pitch_model(), progress=False)
        finally:
            fz.use_fused(old)
        times.append(info.value.time)
    assert times[0] == times[1]


def test_initial_pitch_beyond_the_guard_is_refused():
    from floatwind.errors import CaseError

    d = _decay_dict()
    d["initial"]["angles"] = [0.0, 1.5700, 0.0]
    with pytest.raises(CaseError, match="initial.angles.*89.5 deg"):
        model_from_dict(d, base_dir=DECAY.parent)
