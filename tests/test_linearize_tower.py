"""floatwind linearize with a flexible tower (issue 40 with issue 37's tower modes as DOFs): the
tower modes are coordinates of the linear model (ElastoDyn's names, metres of tower-top
deflection), the tower's nodes are in the mass matrix, and the coupled tower modes match
OpenFAST's own free decay of ref11 (docs/linearization.md)."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

from floatwind.linear.matrices import linearize
from floatwind.linear.modes import modes

ROOT = pathlib.Path(__file__).resolve().parents[1]
REF11 = ROOT / "../shared/reference/openfast/ref11_tower_flex_decay"

pytestmark = pytest.mark.skipif(
    not REF11.exists(), reason="shared OpenFAST references not beside the checkout"
)


def _upward_crossings(t, x):
    i = np.nonzero((x[:-1] < 0) & (x[1:] >= 0))[0]
    return t[i] - x[i] * (t[i + 1] - t[i]) / (x[i + 1] - x[i])


def _log_decrement_zeta(x):
    """Damping ratio from the positive peaks of a decaying oscillation (logarithmic decrement)."""
    pk = [j for j in range(1, len(x) - 1) if x[j] > x[j - 1] and x[j] >= x[j + 1] and x[j] > 0]
    a = x[pk]
    d = np.log(a[0] / a[-1]) / (len(a) - 1)
    return d / np.sqrt(4 * np.pi**2 + d * d)


@pytest.fixture(scope="module")
def lin11():
    from floatwind.cli._case import load_model

    return linearize(load_model(str(REF11 / "ref11_tower_flex_decay.fst")), "equilibrium")


def test_tower_modes_are_dofs_with_elastodyn_names_and_metres(lin11):
    assert lin11.dof == ["PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmRoll", "PtfmPitch",
                         "PtfmYaw", "TwFADOF1", "TwSSDOF1"]  # fmt: skip
    assert lin11.units[6:] == ["m", "m"] and lin11.M.shape == (8, 8)
    assert lin11.step_agreement["K"] < 1e-6 and lin11.step_agreement["C"] < 1e-6
    np.testing.assert_allclose(lin11.M, lin11.M.T, rtol=0, atol=1e-9 * np.abs(lin11.M).max())


def test_mass_matrix_is_the_kinetic_energy_of_bodies_and_tower_nodes():
    """Invariant: for any velocity dx/dt, 1/2 dx^T M dx equals the kinetic energy of the bodies
    and the tower's nodes that the flexible-tower model computes itself
    (FlexTower.energy), at the operating point, 1e-6 (ref11 has no added mass)."""
    from floatwind.cli._case import load_model
    from floatwind.linear.matrices import _Coordinates, operating_state
    from floatwind.simulate.system import System

    model = load_model(str(REF11 / "ref11_tower_flex_decay.fst"))
    lin = linearize(model, "rest")
    system = System(lin_model := model)
    y0 = operating_state(lin_model, system, "rest")
    co = _Coordinates(system, lin_model, y0, 0.0)
    Tinv = np.linalg.inv(co.jacobian_T())
    rng = np.random.default_rng(7)
    for xd in (np.eye(8)[6], np.eye(8)[7], rng.normal(size=8) * [1, 1, 1, 0.01, 0.01, 0.01, 1, 1]):
        y = y0.copy()
        y[0, co.vel] = Tinv @ xd
        ev = system.evaluate_many([0.0], y[None], loads=[], dynamics=False)
        kin, _pot = system.flex.energy(ev)
        np.testing.assert_allclose(0.5 * xd @ lin.M @ xd, kin[0], rtol=1e-6)
    # a tower mode's mass is more than the tower-top mass (the nodes move with it)
    top = float(sum(system.flex.mass_ext[i] for i in system.flex.riders))
    assert lin.M[6, 6] > top + 0.2 * system.flex.node_mass.sum()


def test_tower_periods_and_damping_match_openfast_ref11_decay(lin11):
    """Regression against OpenFAST: ref11's tower free decay (TTDspFA 0.6 m, TTDspSS 0.3 m, the
    platform free on its linear hydrostatics and mooring): the damped periods of the coupled
    fore-aft and side-to-side tower modes equal the mean interval of upward zero crossings of
    TTDspFA / TTDspSS over the first 30 s within 0.3 % (measured 0.12 % and 0.005 %), and the
    damping ratios the logarithmic decrement of the first 20 s within 10 % of their value
    (measured 0.0155 vs 0.0163, 0.0149 vs 0.0149: ElastoDyn's 1 % structural damping raised by
    the platform's motion)."""
    from floatwind.io.openfast import read_out

    md = modes(lin11)
    ds = read_out(REF11 / "ref11_tower_flex_decay.out")
    t = ds["time"].values
    for dof, ch in (("TwFADOF1", "TTDspFA"), ("TwSSDOF1", "TTDspSS")):
        k = md.dof.index(dof)
        x = ds[ch].values
        m = t <= 30.0
        ref = float(np.mean(np.diff(_upward_crossings(t[m], x[m]))))
        assert abs(md.damped_period[k] / ref - 1) < 3e-3, (dof, md.damped_period[k], ref)
        z_ref = _log_decrement_zeta(x[t < 20.0])
        assert abs(md.damping_ratio[k] / z_ref - 1) < 0.1, (dof, md.damping_ratio[k], z_ref)


def test_bem_rotor_aerodynamic_damping_is_the_thrust_slope():
    """The BEM rotor (issue 35) linearised (cases/oc3_hywind_bem.yaml, 17 m/s, 12.1 rpm, at
    rest): the surge damping it adds is the slope of its surge force with the wind speed,
    dF_x/dU (a surge velocity v is a wind change -v at every blade node), taken from two
    evaluations of the load at U +- 0.05 m/s, within 1 %; its pitch damping ratio is several
    times the still-air one (measured 0.21 against 0.04). Such models have no deck reference
    for their aerodynamic damping: this is the rotor load's own slope."""
    import dataclasses

    import yaml

    from floatwind.case.loader import model_from_dict
    from floatwind.environment.base import NoWind
    from floatwind.simulate.system import System

    d = yaml.safe_load((ROOT / "cases/oc3_hywind_bem.yaml").read_text())
    d["environment"].pop("waves", None)
    model = model_from_dict(d, base_dir=ROOT / "cases")
    no_rotor = dict(d, loads=[ld for ld in d["loads"] if ld["type"] != "bem_rotor"])
    lin = linearize(model, "rest")
    lin_hydro = linearize(model_from_dict(no_rotor, base_dir=ROOT / "cases"), "rest")
    k = next(i for i, ld in enumerate(model.loads) if ld.kind == "bem_rotor")

    def surge_force(speed):
        w = dict(d["environment"]["wind"], speed=speed)
        m = model_from_dict(dict(d, environment=dict(d["environment"], wind=w)),
                            base_dir=ROOT / "cases")  # fmt: skip
        sy = System(m)
        y = sy.initial_state()[:1]
        ev = sy.evaluate_many([0.0], y[None], keep_loads=True, loads=[k], dynamics=False)
        return float(ev.per_load[0].force[0, :, 0].sum())

    slope = (surge_force(17.05) - surge_force(16.95)) / 0.1
    c_aero = lin.C[0, 0] - lin_hydro.C[0, 0]
    assert slope > 1e4
    np.testing.assert_allclose(c_aero, slope, rtol=1e-2)
    calm = dataclasses.replace(model, env=dataclasses.replace(model.env, wind=NoWind()))
    zw = modes(lin).damping_ratio[modes(lin).dof.index("PtfmPitch")]
    z0 = modes(linearize(calm, "rest"))
    assert zw > 3 * z0.damping_ratio[z0.dof.index("PtfmPitch")]
