"""The BEM rotor's ``coupling: step`` (OpenFAST's glue-code coupling: the element solve once per
step at the accepted state, the integrator's stages on the loads of the last steps extrapolated in
time; docs/rotor.md, "Coupling"): the extrapolation as OpenFAST's glue code does it, the deck
importer's choice, the refusals, a batch member equal to its run alone, and the same ref09 run as
the solve at every stage."""

from __future__ import annotations

import copy
import dataclasses
import pathlib

import numpy as np
import pytest

from floatwind._kernels import rotor as kr
from floatwind.errors import CaseError

REF09 = (pathlib.Path(__file__).resolve().parents[2] / "shared" / "reference" / "openfast"
         / "ref09_aero_fixed_speed")  # fmt: skip
FST = REF09 / "ref09_aero_fixed_speed.fst"
needs_ref09 = pytest.mark.skipif(not REF09.is_dir(), reason="needs ../shared/reference/openfast")


def _load(t):
    """Smooth nodal loads (B = 2, P = 4, 6) at time t: a quadratic in t per component."""
    c = np.arange(48.0).reshape(2, 4, 6)
    return 1.0 + 0.5 * c + (0.3 - 0.1 * c) * t + (0.05 + 0.01 * c) * t * t


def _lagrange(ts, vals, t):
    out = 0.0
    for i, (ti, vi) in enumerate(zip(ts, vals)):
        w = 1.0
        for j, tj in enumerate(ts):
            if j != i:
                w *= (t - tj) / (ti - tj)
        out = out + w * vi
    return out


@pytest.mark.parametrize("compiled", [False, True])
def test_history_extrapolates_in_time_as_openfasts_glue_code(compiled):
    rec = kr.history_record if compiled else kr.history_record.py_func
    at = kr.history_loads if compiled else kr.history_loads.py_func
    dt = 0.5
    h = kr.aero_history(2, 2, 2, t0=1.0, dt=dt, order=2)

    def loads(t):
        out = np.full((2, 4, 6), np.nan)
        return at(h, t, out), out

    assert not loads(1.0)[0]  # nothing recorded yet: the kernel solves
    L = [_load(k * dt) for k in range(4)]
    rec(h, 0, L[0])
    ok, out = loads(1.0)
    assert ok
    np.testing.assert_array_equal(out, L[0])
    # step 0 -> 1: the earlier inputs are copies of the first (FAST_InitIOarrays): constant
    for t in (1.1, 1.25, 1.5):
        np.testing.assert_allclose(loads(t)[1], L[0], rtol=1e-15)
    rec(h, 1, L[1])
    # step 1 -> 2: the quadratic through (t_-1, L0), (t_0, L0), (t_1, L1)
    for s in (0.2, 0.5, 1.0):
        want = _lagrange([-dt, 0.0, dt], [L[0], L[0], L[1]], dt + s * dt)
        np.testing.assert_allclose(loads(1.5 + s * dt)[1], want, rtol=1e-13)
    rec(h, 2, L[2])
    # step 2 -> 3: a quadratic load is extrapolated exactly; at t_2 itself the recorded load
    np.testing.assert_array_equal(loads(2.0)[1], L[2])
    for s in (0.25, 0.5, 1.0):
        np.testing.assert_allclose(loads(2.0 + s * dt)[1], _load((2 + s) * dt), rtol=1e-13)
    # the ring of three: step 3 replaces step 0; recording a step again changes nothing
    rec(h, 3, L[3])
    before = loads(2.7)[1]
    rec(h, 3, L[3])
    np.testing.assert_array_equal(loads(2.7)[1], before)
    assert not loads(1.2)[0]  # step 0 is gone
    # InterpOrder 1: linear through the last two
    h1 = kr.aero_history(2, 2, 2, t0=0.0, dt=dt, order=1)
    for k in range(3):
        rec(h1, k, L[k])
    out = np.empty((2, 4, 6))
    assert at(h1, 1.2, out)
    np.testing.assert_allclose(out, _lagrange([0.5, 1.0], [L[1], L[2]], 1.2), rtol=1e-13)


def test_placeholder_history_never_answers():
    h = kr.aero_history(1, 2, 2)  # dt = 0: the compiled form outside a run
    assert not kr.history_loads.py_func(h, 0.0, np.zeros((1, 4, 6)))


@needs_ref09
def test_deck_import_selects_openfasts_coupling():
    from floatwind.case.openfast import case_from_deck, read_fst

    res = case_from_deck(read_fst(FST))
    rotor = next(ld for ld in res["case"]["loads"] if ld["type"] == "bem_rotor")
    assert rotor["coupling"] == "step" and rotor["interp_order"] == 2


@needs_ref09
@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"coupling": "rk"}, "expected 'stage' or 'step'"),
        ({"coupling": "step", "options.dbemt_mod": 2}, "dynamic inflow"),
        ({"coupling": "step", "interp_order": 3}, "InterpOrder"),
    ],
)
def test_bad_coupling_is_refused_in_one_line(change, words):
    from floatwind.case.loader import model_from_dict
    from floatwind.case.openfast import case_from_deck, read_fst

    case = copy.deepcopy(case_from_deck(read_fst(FST))["case"])
    rotor = next(ld for ld in case["loads"] if ld["type"] == "bem_rotor")
    for k, v in change.items():
        if k.startswith("options."):
            rotor["options"][k.split(".", 1)[1]] = v
        else:
            rotor[k] = v
    with pytest.raises(CaseError) as exc:
        model_from_dict(case, base_dir=REF09, name="ref09")
    assert words in str(exc.value) and len(str(exc.value).splitlines()) == 1


def _model(displacement, coupling="step"):
    from floatwind.case.openfast import model_from_deck

    model = model_from_deck(FST, overrides={"simulation.t_max": 2.0})
    model.initial = dataclasses.replace(model.initial, displacement=np.asarray(displacement, float))
    rotor = next(ld for ld in model.loads if ld.kind == "bem_rotor")
    rotor.coupling = coupling
    return model


@needs_ref09
def test_batch_member_equals_its_run_alone_and_the_stage_solve_agrees():
    from floatwind.simulate import simulate

    chans = ["PtfmSurge", "PtfmPitch", "PtfmYaw", "RtAeroFxh", "RtAeroMxh", "B1N5Alpha",
             "B1N9AxInd"]  # fmt: skip
    both = simulate(_model([[0.0, 0.0, 0.0], [1.5, 0.0, -0.5]]), progress=False, channels=chans)
    alone = simulate(_model([[1.5, 0.0, -0.5]]), progress=False, channels=chans)
    n = 0
    for name in both.data_vars:
        if "realization" in both[name].dims:
            a = both[name].isel(realization=1).values
            assert np.array_equal(a, alone[name].values), name
            n += 1
    assert n >= len(chans)
    # the same run with the solve at every stage: the loads extrapolated over a step of 0.0125 s
    # are O(dt^3) off within the step, the runs agree far inside the 1e-3 of OpenFAST's comparison
    # (measured: PtfmYaw 5.9e-5 of its 2-s range, the first steps' extrapolation of low order,
    # as OpenFAST's; the others < 1e-5)
    stage = simulate(_model([[1.5, 0.0, -0.5]], "stage"), progress=False, channels=chans)
    for name in chans:
        a, b = np.asarray(alone[name]).ravel(), np.asarray(stage[name]).ravel()
        rng = np.ptp(b) if np.ptp(b) > 0 else 1.0
        assert np.abs(a - b).max() <= 1e-4 * rng, (name, np.abs(a - b).max() / rng)
