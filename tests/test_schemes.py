"""The lookup of schemes (issue 34): ``simulate`` finds the scheme of a model's formulation and
integrator in ``floatwind.simulate.schemes``, each scheme registered in its own module, behind one
stepping contract; what a scheme cannot run is refused in one line."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest
import xarray as xr

from floatwind.case import load_case
from floatwind.errors import CaseError, SimulationError
from floatwind.simulate import schemes as sc
from floatwind.simulate import simulate

ROOT = pathlib.Path(__file__).resolve().parents[1]
OC3 = ROOT / "cases" / "oc3_platform_decay.yaml"
WANG = ROOT / "cases" / "euler313_wang_ch2.yaml"


def test_the_lookup_has_exactly_the_case_files_names():
    """Every integrator and formulation a case file may name has a scheme, and no other (the
    case package cannot import simulate: its lists are held to the lookup here)."""
    from floatwind.case.euler313 import FORMULATIONS
    from floatwind.case.loader import INTEGRATORS

    assert sorted(sc.integrators("mcm")) == sorted(INTEGRATORS)
    assert sc.formulations() == sorted(FORMULATIONS)


def test_each_scheme_is_registered_where_it_is_defined_and_run_names_none():
    where = {type(s).__module__ for s in sc.SCHEMES.values()}
    assert where == {
        f"floatwind.simulate.{m}" for m in ("bossak", "euler313", "first_order", "lie")
    }
    run = (ROOT / "floatwind" / "simulate" / "run.py").read_text()
    for formulation, integrator in sc.SCHEMES:
        assert f'"{integrator}"' not in run and f'"{formulation}"' not in run


def test_unknown_names_keep_their_messages():
    m = load_case(OC3, {"simulation.t_max": 0.1})
    m.settings.integrator = "euler_forward"
    with pytest.raises(SimulationError, match="unknown integrator 'euler_forward'") as err:
        simulate(m, progress=False)
    assert err.value.time == 0.0
    m.settings.integrator, m.formulation = "rk4", "lagrange"
    with pytest.raises(CaseError, match="unknown formulation 'lagrange'; one of euler313, mcm"):
        simulate(m, progress=False)


def test_euler313_refuses_what_it_does_not_use():
    m = load_case(WANG, {"simulation.t_max": 0.1})
    with pytest.raises(CaseError, match="own RK4") as err:
        simulate(m, y0=np.zeros((1, 12)), progress=False)
    assert err.value.field == "formulation"
    with pytest.raises(CaseError, match="no extra_channels"):
        simulate(m, extra_channels=lambda ev: {}, progress=False)
    m.settings.integrator = "dop853"
    with pytest.raises(CaseError, match="own RK4"):
        simulate(m, progress=False)


def test_lie_group_starts_from_y0_and_keeps_the_asked_channels():
    """The Lie-group scheme honours ``y0`` and ``channels`` like the others (it ignored them)."""
    over = {"simulation.t_max": 0.5, "simulation.integrator": "lie_generalized_alpha"}
    a = simulate(load_case(OC3, over), progress=False)
    from floatwind.simulate import System

    m = load_case(OC3, over)
    y0 = System(m).initial_state()
    b = simulate(m, y0=y0, channels=["PtfmPitch", "PtfmSurge"], progress=False)
    assert set(b.data_vars) == {"PtfmPitch", "PtfmSurge", "psi_x", "psi_y", "psi_z"}
    for name in b.data_vars:
        assert np.array_equal(a[name].values, b[name].values), name
    y0[:, 4] += 0.01
    c = simulate(m, y0=y0, channels=["PtfmPitch"], progress=False)
    assert abs(float(c.PtfmPitch[0] - a.PtfmPitch[0]) - 0.01) < 1e-3


def test_a_new_scheme_is_found_without_touching_run(monkeypatch):
    """A scheme registered under a new formulation is what ``simulate`` runs: the lookup, not a
    chain of ifs, chooses (the contract: check, then run with the output times and progress)."""
    calls = []

    class Toy(sc.Scheme):
        formulation = "toy"
        integrators = ("rk4",)

        def check(self, model, *, y0, extra_channels):
            calls.append("check")

        def run(self, model, t_out, *, y0, progress, extra_channels, channels):
            calls.append(("run", len(t_out), progress))
            return xr.Dataset({"X1": ("time", np.zeros(len(t_out)))}, coords={"time": t_out})

    monkeypatch.setattr(sc, "SCHEMES", dict(sc.SCHEMES))
    sc.register(Toy())
    m = load_case(OC3, {"simulation.t_max": 1.0, "simulation.dt_out": 0.5})
    m.formulation = "toy"
    ds = simulate(m, progress=False)
    assert calls == ["check", ("run", 3, None)] and ds.X1.shape == (3,)
