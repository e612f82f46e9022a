"""Prescribed relative kinematics computed in vectorised blocks of step times equal the
time-by-time computation."""

import pathlib

import numpy as np

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
