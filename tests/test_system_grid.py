"""Prescribed relative kinematics computed in vectorised blocks of step times equal the
time-by-time computation."""

import pathlib

import numpy as np
import pytest

from floatwind.case import load_case
from floatwind.multibody.mcm import mass_distribution, relative_kinematics, relative_kinematics_many
from floatwind.simulate import System

CASE = pathlib.Path(__file__).resolve().parents[1] / "cases" / "truncated_spar_iv_d1.yaml"


def test_block_equals_scalar_relative_kinematics():
    tree = load_case(CASE).tree
    times = np.linspace(0.0, 40.0, 17)
    block = relative_kinematics_many(tree, times)
    mdb = mass_distribution(tree, block)
    for k, t in enumerate(times):
        one = relative_kinematics(tree, t)
        md = mass_distribution(tree, one)
        for f in ("R_c2s", "dR_c2s", "ddR_c2s", "r_G", "dr_G", "ddr_G", "w_rel", "dw_rel"):
            np.testing.assert_allclose(getattr(block.take(k), f), getattr(one, f), rtol=0, atol=1e-12)
        for f in ("P", "dP", "Q", "dQ", "rho", "ddrho"):
            np.testing.assert_allclose(getattr(mdb.take(k), f), getattr(md, f), rtol=1e-13, atol=1e-6)
        assert block.take(k).joint_q.keys() == one.joint_q.keys()


def test_rhs_on_time_grid_matches_plain_rhs():
    model = load_case(CASE)
    plain, gridded = System(model), System(model)
    gridded.use_time_grid(0.0, 0.025, 4000)
    y = plain.initial_state() + 0.01
    for t in (0.0, 0.025, 12.5, 37.475, 0.0125):  # the last is off the grid: scalar fallback
        np.testing.assert_allclose(gridded.rhs(t, y), plain.rhs(t, y), rtol=1e-12, atol=1e-12)


def _tree_with_every_motion():
    """A 4-body chain with a tilted spinning joint, a yaw ramp with a slide and a pitch
    oscillation: every term of Wang (5.14)-(5.23) is non-zero."""
    import dataclasses

    from floatwind.multibody.motion import ConstantRate
    from floatwind.multibody.tree import Tree

    tree = load_case(pathlib.Path(CASE).parent / "oc3_hywind.yaml").tree
    joints = list(tree.joint_of.values())
    joints[0] = dataclasses.replace(
        joints[0], rotation=ConstantRate(0.1, 0.05), slide=ConstantRate(0.2, -0.3)
    )
    return Tree(tree.bodies, joints)


def test_compiled_relative_table_equals_the_numpy_formulas():
    """The compiled pass of the fused stepping (rel_table) gives the NumPy path's relative
    kinematics and momentum coefficients to round-off (each field against its own scale; dP and
    dQ against P's and Q's, since a rotor symmetric about its spin axis makes them round-off)."""
    pytest.importorskip("numba")
    from floatwind.simulate.fused import FusedRHS

    for tree in (load_case(CASE).tree, _tree_with_every_motion()):
        model = load_case(CASE)
        model.tree = tree
        fr = FusedRHS(System(model), [])
        times = np.linspace(0.0, 40.0, 33)
        got = fr._rel(times)
        rel = relative_kinematics_many(tree, times)
        md = mass_distribution(tree, rel)
        ref = {"rho": md.rho, "drho": md.drho, "ddrho": md.ddrho, "R_c2s": rel.R_c2s,
               "w_rel": rel.w_rel, "dw_rel": rel.dw_rel, "P": md.P, "dP": md.dP, "Q": md.Q,
               "dQ": md.dQ}  # fmt: skip
        scale_of = {"dP": "P", "dQ": "Q", "drho": "rho", "ddrho": "rho", "dw_rel": "w_rel"}
        for name, want in ref.items():
            scale = max(np.max(np.abs(ref[scale_of.get(name, name)])), 1e-30)
            err = np.max(np.abs(getattr(got, name) - want)) / scale
            assert err < 1e-12, (name, err)
        assert np.max(np.abs(md.dQ)) > 0.0
