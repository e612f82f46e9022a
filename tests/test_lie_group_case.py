"""`integrator: lie_generalized_alpha` from a case file agrees with the MCM / RK4 result."""

import pathlib

import numpy as np
import pytest

from floatwind.case import load_case
from floatwind.errors import CaseError
from floatwind.simulate import simulate

CASE = pathlib.Path(__file__).resolve().parents[1] / "cases" / "oc3_platform_decay.yaml"


def test_lie_group_matches_rk4_on_lumped_oc3_body():
    common = {"simulation.t_max": 10.0, "simulation.dt_out": 0.5}
    rk4 = simulate(load_case(CASE, {**common, "simulation.dt": 0.025}))
    lie = simulate(
        load_case(CASE, {**common, "simulation.dt": 0.0125, "simulation.integrator": "lie_generalized_alpha"})
    )
    assert np.abs(lie.PtfmPitch - rk4.PtfmPitch).max() < 2e-5 * 0.1  # second order vs fourth order
    assert np.abs(lie.PtfmSurge - rk4.PtfmSurge).max() < 2e-3
    assert np.abs(lie.PtfmHeave - rk4.PtfmHeave).max() < 1e-4
    # the unwrapped rotation vector channel: pure pitch about y at t = 0
    np.testing.assert_allclose(lie.psi_y.values[0], 0.1, atol=1e-12)
    assert lie.psi_y.attrs["units"] == "rad"


def test_lie_group_refuses_multibody(tmp_path):
    text = CASE.read_text().replace("integrator: rk4", "integrator: lie_generalized_alpha")
    text += """
joints:
  - name: lock
    parent: platform
    child: rna
    position_parent: [0, 0, 90]
"""
    text = text.replace(
        "reference_point:",
        "  - name: rna\n    mass: 1000.0\n    inertia: [1.0, 1.0, 1.0]\n\nreference_point:",
    )
    p = tmp_path / "two.yaml"
    p.write_text(text)
    with pytest.raises(CaseError, match="one rigid body"):
        simulate(load_case(p, {"simulation.t_max": 1.0}))
