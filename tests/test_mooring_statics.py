"""Mooring statics: OC3 linearised stiffness at equilibrium (ref01 README / OC3 definition),
static equilibrium with catenary lines (ref06 README), the ``floatwind mooring`` command."""

from __future__ import annotations

import copy

import numpy as np
import pytest
import yaml
from test_loads_catenary import _decay_case, _model

# OC3 definition (Jonkman 2010), quoted in ref01's README: F = -K q about the PRP
K_OC3 = {(0, 0): 41180.0, (1, 1): 41180.0, (0, 4): -2.821e6, (1, 3): 2.821e6, (2, 2): 11940.0,
         (3, 3): 3.111e8, (4, 4): 3.111e8, (5, 5): 1.156e7}  # fmt: skip


def _single():
    case = _decay_case()
    case["initial"] = {"displacement": [0.0, 0.0, 0.0], "angles": [0.0, 0.0, 0.0]}
    return case


def test_static_equilibrium_and_oc3_stiffness_within_2_percent():
    from floatwind.simulate import mooring as sm
    from floatwind.simulate.equilibrium import static_equilibrium
    from floatwind.simulate.system import System

    model = _model(_single())
    eq = static_equilibrium(model)
    # ref06 README: the static solution with MAP++'s 4-decimal lines 2 and 3 (net Fx -0.46 N at
    # rest: 1.1e-5 m of surge); these lines are exact
    assert eq["PtfmSurge"] == pytest.approx(-0.073616, abs=2e-5)
    assert eq["PtfmHeave"] == pytest.approx(0.017492, abs=2e-6)
    assert np.degrees(eq["PtfmPitch"]) == pytest.approx(-0.061687, abs=2e-5)
    system = System(model)
    y = system.initial_state()[:1].copy()
    y[0, :6] = eq["q"]
    y[:, 6:] = 0.0
    origin, R = sm.pose_of_state(model, system, y, 0)
    K = sm.mooring_stiffness(model, origin, R)
    for (i, j), ref in K_OC3.items():
        assert K[i, j] == pytest.approx(ref, rel=0.02), (i, j, K[i, j])
    # invariant: the translational block of a conservative system is symmetric
    np.testing.assert_allclose(K[:3, :3], K[:3, :3].T, atol=1e-4 * K[0, 0])


def test_stiffness_matches_the_slope_of_the_offset_curve():
    from floatwind.simulate import mooring as sm

    model = _model(_single())
    origin, R = sm.rest_pose(model, 0)
    K = sm.mooring_stiffness(model, origin, R)
    c = sm.offset_curve(model, origin, R, np.array([-0.01, 0.01]))
    assert -(c["Fx"][1] - c["Fx"][0]) / 0.02 == pytest.approx(K[0, 0], rel=1e-5)


def test_mooring_command(tmp_path, capsys):
    from floatwind.cli import main

    case = tmp_path / "cat.yaml"
    data = _single()
    case.write_text(yaml.safe_dump(copy.deepcopy(data)))
    fig = tmp_path / "out" / "curve.png"
    assert main(["mooring", str(case), "--figure", str(fig), "--mkdir"]) == 0
    out = capsys.readouterr().out
    assert "linearised mooring stiffness" in out and "FAIRTEN1" in out and fig.is_file()
    # a case without mooring: one-line error, exit 2
    data["loads"] = data["loads"][:2]
    case.write_text(yaml.safe_dump(data))
    assert main(["mooring", str(case), "--figure", str(tmp_path / "x.png")]) == 2
    assert "no mooring_catenary" in capsys.readouterr().err


def test_equilibrium_of_the_shipped_catenary_case_under_its_wind():
    """cases/oc3_hywind_catenary.yaml (3 bodies, 17 m/s thrust, catenary lines): the static
    solve converges (MINPACK's hybrid method stalled here, 'not making good progress', so
    `floatwind mooring` failed on the shipped case) and every base acceleration vanishes."""
    import pathlib

    from floatwind.case import load_case
    from floatwind.simulate.equilibrium import static_equilibrium
    from floatwind.simulate.system import System

    path = pathlib.Path(__file__).resolve().parents[1] / "cases" / "oc3_hywind_catenary.yaml"
    model = load_case(path)
    eq = static_equilibrium(model)
    assert 15.0 < eq["PtfmSurge"] < 30.0 and 0.03 < eq["PtfmPitch"] < 0.1  # pushed downwind
    system = System(model)
    y = system.initial_state()[:1].copy()
    y[:, 6:12] = 0.0
    y[0, :6] = eq["q"]
    qdd = system.evaluate(0.0, y).acc.qdd[0, :6]
    assert np.max(np.abs(qdd[:3])) < 1e-9 and np.max(np.abs(qdd[3:])) < 1e-11, qdd


def test_bridle_adds_yaw_stiffness():
    """Replacing the 180-deg line's upper 60 m by a two-leg bridle (9 m apart) on a connect
    node: the equilibrium node sits where both legs pull, and the mooring's yaw stiffness at rest
    grows (a bridle's yaw arm: what the OC3 yaw spring represents), surge stiffness barely."""
    from floatwind.simulate import mooring as sm
    from floatwind.simulate.equilibrium import static_equilibrium

    plain = _single()
    bri = _single()
    lines = bri["loads"][2]["lines"]
    l0 = lines[0]
    props = {k: l0[k] for k in ("mass_per_length", "diameter", "ea")}
    lines[0:1] = [
        {"fairlead": [-2.6, 4.5, -70.0], "anchor": "yoke", "length": 60.0, **props},
        {"fairlead": [-2.6, -4.5, -70.0], "anchor": "yoke", "length": 60.0, **props},
        {"fairlead": "yoke", "anchor": l0["anchor"], "length": 845.0, **props,
         "seabed_friction": 0.001},
    ]  # fmt: skip
    bri["loads"][2]["connects"] = [{"name": "yoke", "position": [-60.0, 0.0, -100.0]}]
    k = {}
    for name, case in (("plain", plain), ("bridle", bri)):
        model = _model(case)
        static_equilibrium(model)
        origin, R = sm.rest_pose(model, 0)
        k[name] = sm.mooring_stiffness(model, origin, R)
    assert k["bridle"][5, 5] > 3.0 * k["plain"][5, 5]
    assert k["bridle"][0, 0] == pytest.approx(k["plain"][0, 0], rel=0.25)


def test_mooring_command_solves_the_statics_in_still_water(tmp_path, capsys):
    """A case in regular waves with a Morison column: `floatwind mooring` gives the equilibrium
    of the same case in still water (the waves' force at t = 0 is one instant of the sea, not
    a rest: -32.5 m of surge instead of -0.074 m here) and says so."""
    import re

    from floatwind.cli import main
    from floatwind.simulate.equilibrium import static_equilibrium

    def surge_heave(data, name):
        case = tmp_path / f"{name}.yaml"
        case.write_text(yaml.safe_dump(copy.deepcopy(data)))
        fig = tmp_path / f"{name}.png"
        assert main(["mooring", str(case), "--figure", str(fig), "--surge-max", "1"]) == 0
        out = capsys.readouterr().out
        m = re.search(r"at the static equilibrium in still water \(PtfmSurge (\S+), PtfmSway "
                      r"\S+, PtfmHeave (\S+),", out)  # fmt: skip
        assert m, out
        return float(m.group(1)), float(m.group(2))

    calm = _single()
    calm["loads"].append({"type": "morison", "body": "platform", "cd": 0.6, "cm": 2.0,
                          "ca": 1.0, "strip_length": 4.0,
                          "members": [{"end_a": [0.0, 0.0, -120.0], "end_b": [0.0, 0.0, 10.0],
                                       "diameter": 9.4}]})  # fmt: skip
    waves = copy.deepcopy(calm)
    waves["environment"]["waves"] = {"kind": "regular", "height": 6.0, "period": 10.0,
                                     "phase_deg": 90.0}  # fmt: skip
    at_t0 = static_equilibrium(_model(waves))  # what the statics gave before: the sea at t = 0
    calm_eq = static_equilibrium(_model(calm))
    assert abs(at_t0["PtfmSurge"] - calm_eq["PtfmSurge"]) > 1.0
    calm_cli = surge_heave(calm, "calm")
    assert surge_heave(waves, "waves") == calm_cli
    assert calm_cli == pytest.approx((calm_eq["PtfmSurge"], calm_eq["PtfmHeave"]), rel=1e-5,
                                     abs=1e-6)  # fmt: skip
