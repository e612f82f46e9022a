"""First-order integrators: order of convergence, output grid, divergence with partial results."""

import numpy as np
import pytest

from floatwind.errors import SimulationError
from floatwind.integrate import RK4, Interrupted, ScipyAdaptive


def oscillator(t, y):
    return np.stack([y[:, 1], -4.0 * y[:, 0]], axis=1)


def exact(t, y0):
    return y0[0] * np.cos(2 * t) + y0[1] / 2 * np.sin(2 * t)


def test_rk4_observed_order_four():
    y0 = np.array([[1.0, 0.5]])
    t_out = np.linspace(0, 5, 11)
    errs = []
    hs = [0.1, 0.05, 0.025]
    for h in hs:
        rec = RK4(h).run(oscillator, y0, t_out)
        errs.append(np.abs(rec.y[:, 0, 0] - exact(t_out, y0[0])).max())
    orders = np.log2(np.array(errs[:-1]) / np.array(errs[1:]))
    assert np.all(np.abs(orders - 4.0) < 0.15), orders


def test_output_grid_independent_of_step_uses_dense_output():
    y0 = np.array([[1.0, 0.0]])
    t_out = np.linspace(0, 3, 37)  # not a multiple of the step
    rec = RK4(0.01).run(oscillator, y0, t_out)
    assert rec.complete and rec.y.shape == (37, 1, 2)
    assert np.abs(rec.y[:, 0, 0] - exact(t_out, y0[0])).max() < 1e-7


def test_batch_members_match_single_runs_exactly():
    y0 = np.random.default_rng(1).normal(size=(5, 2))
    t_out = np.linspace(0, 2, 21)
    batch = RK4(0.01).run(oscillator, y0, t_out)
    for b in range(5):
        single = RK4(0.01).run(oscillator, y0[b : b + 1], t_out)
        np.testing.assert_array_equal(batch.y[:, b], single.y[:, 0])


def test_adaptive_dop853_accuracy():
    y0 = np.array([[1.0, 0.5]])
    t_out = np.linspace(0, 5, 51)
    rec = ScipyAdaptive("DOP853", rtol=1e-11, atol=1e-12).run(oscillator, y0, t_out)
    assert np.abs(rec.y[:, 0, 0] - exact(t_out, y0[0])).max() < 1e-9
    rec = ScipyAdaptive("RK45", rtol=1e-8, atol=1e-10).run(oscillator, y0, t_out)
    assert np.abs(rec.y[:, 0, 0] - exact(t_out, y0[0])).max() < 1e-6


@pytest.mark.parametrize("integ", [RK4(0.01), ScipyAdaptive("RK45")])
def test_divergence_raises_with_time_state_and_partial_record(integ):
    def blowup(t, y):
        return y**2  # y' = y^2 -> 1/(1 - t) blows up at t = 1

    t_out = np.linspace(0, 2, 41)
    with pytest.raises(SimulationError) as info:
        integ.run(blowup, np.array([[1.0]]), t_out, bound=1e3)
    err = info.value
    assert 0.9 < err.time < 1.05  # the blow-up is at t = 1; a fixed step may land just past it
    assert err.state is not None and np.abs(err.state).max() > 1e3
    assert "bound" in str(err) or "non-finite" in str(err)
    rec = err.partial
    assert rec.n >= 18 and rec.complete  # the valid part only
    early = rec.t < 0.9
    np.testing.assert_allclose(rec.y[early, 0, 0], 1 / (1 - rec.t[early]), rtol=1e-3)


def test_non_finite_detected():
    def nan_after(t, y):
        return np.full_like(y, np.nan if t > 0.5 else 1.0)

    with pytest.raises(SimulationError, match="non-finite"):
        RK4(0.1).run(nan_after, np.zeros((2, 1)), np.linspace(0, 1, 11))


def test_keyboard_interrupt_keeps_partial():
    calls = {"n": 0}

    def f(t, y):
        calls["n"] += 1
        if t > 0.55:
            raise KeyboardInterrupt
        return np.ones_like(y)

    with pytest.raises(Interrupted) as info:
        RK4(0.05).run(f, np.zeros((1, 1)), np.linspace(0, 1, 11))
    assert info.value.partial.n >= 6


def test_bad_step_rejected():
    with pytest.raises(ValueError, match="dt"):
        RK4(0.0)


def _kink(t, y):
    """y' = 1 + 3 max(y - 1/2, 0): the slope of the right-hand side jumps at y = 1/2."""
    return 1.0 + 3.0 * np.maximum(y - 0.5, 0.0)


def _kink_exact(t):
    return np.where(t < 0.5, t, 0.5 + (np.exp(3.0 * (t - 0.5)) - 1.0) / 3.0)


def test_events_split_the_step_at_a_switch_and_keep_the_order():
    """A step in which an event function changes sign is split at the crossing: RK4 keeps its
    fourth order through the kink (without the split, the kink inside a step costs it)."""
    errs, plain = [], []
    for dt in (0.07, 0.035, 0.0175):  # y = 1/2 at t = 1/2, never on the grid
        t_out = dt * np.arange(int(round(1.05 / dt)) + 1)
        rec = RK4(dt).run(_kink, np.zeros((1, 1)), t_out, events=lambda t, y: y - 0.5)
        assert rec.complete and np.array_equal(rec.t, t_out)
        errs.append(np.abs(rec.y[:, 0, 0] - _kink_exact(t_out)).max())
        rec = RK4(dt).run(_kink, np.zeros((1, 1)), t_out)
        plain.append(np.abs(rec.y[:, 0, 0] - _kink_exact(t_out)).max())
    orders = np.log2(np.array(errs[:-1]) / np.array(errs[1:]))
    assert np.all(orders > 3.7), orders  # measured 3.85, 3.91
    assert errs[-1] < 1e-6 and plain[-1] > 100 * errs[-1], (errs, plain)


def test_events_without_a_crossing_change_no_bit():
    y0 = np.array([[1.0, 0.5]])
    t_out = np.linspace(0, 2, 21)
    a = RK4(0.01).run(oscillator, y0, t_out)
    b = RK4(0.01).run(oscillator, y0, t_out, events=lambda t, y: y[:, 0] + 10.0)
    assert np.array_equal(a.y, b.y)


def test_project_replaces_every_accepted_state():
    """``project`` gets every accepted state at its grid time; its result is recorded and
    stepped on (here: the state of a rotation kept on the unit circle)."""
    calls = []

    def rotate(t, y):
        return np.stack([-y[:, 1], y[:, 0]], axis=1)

    def project(t, y):
        calls.append(t)
        return y / np.linalg.norm(y, axis=1, keepdims=True)

    t_out = np.linspace(0, 2, 11)
    rec = RK4(0.1).run(rotate, np.array([[1.0, 0.0]]), t_out, project=project)
    assert np.allclose(calls, 0.1 * np.arange(1, 21), rtol=0, atol=1e-12)
    assert np.abs(np.linalg.norm(rec.y[:, 0], axis=1) - 1.0).max() < 1e-15
    assert np.abs(rec.y[:, 0, 0] - np.cos(t_out)).max() < 1e-5  # RK4 phase error 1.5e-6
    with pytest.raises(ValueError, match="fixed-step"):
        ScipyAdaptive().run(rotate, np.array([[1.0, 0.0]]), t_out, project=project)
