"""topology.tower_base: the tower as a body of its own on a locked joint, for the tower-base
loads TwrBs*t (design-load cases: docs/dlc.md; docs/multibody.md)."""

from __future__ import annotations

import copy
import pathlib

import numpy as np
import pytest
import yaml

from floatwind.case.loader import model_from_dict
from floatwind.errors import CaseError
from floatwind.multibody import channels_for
from floatwind.multibody.topologies import OC3_DEFAULTS
from floatwind.simulate import simulate

ROOT = pathlib.Path(__file__).resolve().parents[1]
G = 9.80665


def _case(**topology) -> dict:
    d = yaml.safe_load((ROOT / "cases" / "oc3_hywind_catenary.yaml").read_text())
    d["topology"].update(topology)
    d["simulation"]["t_max"] = 10.0
    return d


def _cm_at_rest(tree, i) -> np.ndarray:
    """CM of body i in the base frame with every joint at its zero angle (chained joints)."""
    chain = []
    k = i
    while k in tree.joint_of:
        chain.append(tree.joint_of[k])
        k = chain[-1].parent
    origin, R = np.zeros(3), np.eye(3)
    for j in reversed(chain):
        Rc = R @ j.R0_c2p
        origin = origin + R @ j.r_J_p - Rc @ j.r_J_c
        R = Rc
    return origin + R @ tree.bodies[i].cm_b


def _run(d):
    m = model_from_dict(d, base_dir=ROOT / "cases")
    return m, simulate(m, extra_channels=channels_for(m.tree), progress=False)


def test_split_tower_moves_as_the_lumped_one_and_writes_twrbs():
    """Invariant: splitting a rigid body at a locked joint changes no motion."""
    _, lumped = _run(_case())
    m, split = _run(_case(tower_base=10.0))
    assert [b.name for b in m.tree.bodies] == ["tower", "tower_shaft", "nacelle", "rotor"]
    assert sum(b.mass for b in m.tree.bodies) == pytest.approx(
        sum(b.mass for b in model_from_dict(_case(), base_dir=ROOT / "cases").tree.bodies),
        rel=1e-15)  # fmt: skip
    for ch in ("PtfmSurge", "PtfmHeave", "PtfmPitch", "PtfmYaw", "FAIRTEN1", "YawBrMyp"):
        scale = float(np.abs(lumped[ch]).max())
        assert float(np.abs(split[ch] - lumped[ch]).max()) <= 1e-9 * scale, ch
    assert {f"TwrBs{q}{a}t" for q in "FM" for a in "xyz"} <= set(split.data_vars)
    assert "TwrBsFxt" not in lumped and split["TwrBsMyt"].attrs["units"] == "N m"


def test_tower_base_load_at_rest_equals_the_weight_above_it():
    """Analytic: hold the platform still (gravity balanced by a constant force at the total CM,
    nothing else): the tower base carries the weight of tower + nacelle + rotor and the moment of
    those weights about the base, to round-off."""
    d = _case(tower_base=10.0, spin={"kind": "locked", "value_deg": 0.0})
    m0 = model_from_dict(d, base_dir=ROOT / "cases")
    masses = np.array([b.mass for b in m0.tree.bodies])
    d["loads"] = [{"type": "gravity"}]
    # total weight and its moment about the PRP from a run with gravity alone at t = 0
    mt = masses.sum()
    d["environment"].pop("waves", None)
    d["environment"].pop("wind", None)
    m1, free = _run(copy.deepcopy(d))
    # free fall: no internal load anywhere
    for ch in ("TwrBsFzt", "TwrBsMyt", "YawBrFzp"):
        assert float(np.abs(free[ch]).max()) < 1e-6 * mt * G, ch
    # held at the CM of the whole system: static, every body at rest
    tree = m1.tree
    cm = sum(b.mass * np.asarray(_cm_at_rest(tree, i)) for i, b in enumerate(tree.bodies)) / mt
    d["loads"].append({"type": "constant_force", "body": "tower", "point": cm.tolist(),
                       "force": [0.0, 0.0, mt * G]})  # fmt: skip
    _, held = _run(d)
    assert float(np.abs(held["PtfmHeave"]).max()) < 1e-9
    above = [i for i, b in enumerate(tree.bodies) if b.name != "tower"]
    m_above = masses[above].sum()
    c_above = sum(masses[i] * np.asarray(_cm_at_rest(tree, i)) for i in above) / m_above
    base = np.array([0.0, 0.0, 10.0])
    assert float(held["TwrBsFzt"][0]) == pytest.approx(-m_above * G, rel=1e-10)
    # moment of the weights above about the base, platform axes: r x F with F = (0, 0, -m g)
    r = c_above - base
    assert float(held["TwrBsMyt"][0]) == pytest.approx(r[0] * m_above * G, rel=1e-9)
    assert float(held["TwrBsMxt"][0]) == pytest.approx(-r[1] * m_above * G, abs=1e-6 * m_above * G)
    assert m_above == pytest.approx(
        OC3_DEFAULTS["tower"]["mass"] + OC3_DEFAULTS["nacelle"]["mass"] + masses[-1], rel=1e-15)


def test_tower_base_bad_input():
    with pytest.raises(CaseError, match="must lie between 0 and the tower top") as ei:
        model_from_dict(_case(tower_base=90.0), base_dir=ROOT / "cases")
    assert ei.value.field == "topology"
    with pytest.raises(CaseError, match="tower's own mass properties") as ei:
        model_from_dict(_case(tower_base=10.0, tower=None), base_dir=ROOT / "cases")
    assert ei.value.field == "topology.tower_base"
