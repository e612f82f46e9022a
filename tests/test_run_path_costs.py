"""The run path's own costs (issue 41): the cheaper forms give the same numbers as the forms they
replace (a deck's outputs must not move), tested on the Python side without compiling anything."""

from __future__ import annotations

import math
import types

import numpy as np
import pytest

from floatwind.case.openfast.outputs import _wind_series
from floatwind.environment.wind import SteadyWind, direction_shift
from floatwind.io.result import Result, Variable
from floatwind.loads.moordyn import LumpedMassMooring


def _per_time(wind, t, point):
    """The InflowWind channels as they were computed: one velocity call per output time."""
    p = np.broadcast_to(np.asarray(point, dtype=float), (1, 1, 3))
    return np.array([[float(wind.velocity(float(ti), p)[..., c].ravel()[0]) for c in range(3)]
                     for ti in t])  # fmt: skip


@pytest.mark.parametrize(
    "wind",
    [
        SteadyWind(speed=8.0, heading=0.3, ref_height=90.0, alpha=0.2),
        SteadyWind(speed=11.4, shear="log", roughness=0.03),
        direction_shift(SteadyWind(speed=8.0), shift=0.5, time=2.0, ramp=3.0),
    ],
)
def test_wind_channels_in_one_call_equal_the_per_time_calls(wind):
    """A wind that takes per-member times answers the output times in one call, any other wind
    one call per time: the same bits as one call per time either way."""
    t = np.arange(0.0, 10.0, 0.05)
    for point in [(0.0, 0.0, 90.0), (-5.0, 2.0, 40.0), (0.0, 0.0, -3.0)]:
        got = _wind_series(wind, t, point)
        assert got.shape == (t.size, 3)
        assert np.array_equal(got, _per_time(wind, t, point))
    assert _wind_series(wind, t[:0], (0.0, 0.0, 90.0)).shape == (0, 3)


def test_steady_wind_series_is_the_profile():
    """Analytic: a steady power-law wind at 45 m with heading 0.3 rad and alpha 0.2."""
    wind = SteadyWind(speed=8.0, heading=0.3, ref_height=90.0, alpha=0.2)
    v = _wind_series(wind, np.array([0.0, 7.0]), (0.0, 0.0, 45.0))
    u = 8.0 * 0.5**0.2
    assert v[1] == pytest.approx([u * math.cos(0.3), u * math.sin(0.3), 0.0], rel=1e-14)


def test_result_sizes_kept_as_variables_are_added():
    """The sizes kept up to date equal the sizes computed from all variables, after adds, a
    replacement that drops a dimension's first user, isel, and a mismatch is still refused."""
    res = Result({"a": (("time",), np.zeros(4))}, {"time": (("time",), np.arange(4.0))})
    for k in range(50):
        res[f"v{k}"] = (("time", "node"), np.zeros((4, 3)))
    res["b"] = Variable(("blade",), np.zeros(2))
    assert res.sizes == {"time": 4, "node": 3, "blade": 2}
    with pytest.raises(ValueError, match="dimension 'node' has size 5, not 3"):
        res["bad"] = (("node",), np.zeros(5))
    res["b"] = (("time",), np.ones(4))  # "blade" loses its only variable
    assert res.sizes == {"time": 4, "node": 3}
    res["c"] = (("blade",), np.zeros(7))  # a new size for the dimension no one uses now
    assert res.sizes == {"time": 4, "node": 3, "blade": 7}
    one = res.isel(time=0, drop=True)
    assert one.sizes == {"node": 3, "blade": 7}
    one["d"] = (("node",), np.ones(3))
    assert "d" in one and one.sizes["node"] == 3


@pytest.mark.parametrize("ei", [0.0, 1.0e4])
def test_newton_plan_is_the_neighbourhood_of_each_unknown(ei):
    """The Jacobian entries each perturbation group fills are, unknown by unknown, the rows of
    the nodes within reach on the same line (reach 1, or 2 with bending stiffness), as the
    per-unknown search built them; every unknown is in exactly one group."""
    nseg = np.array([5, 1, 8, 3])
    fake = types.SimpleNamespace(nseg=nseg, line_property=lambda key: np.full(4, ei))
    n = int(3 * (nseg - 1).sum())
    groups, fill, band, blocks = LumpedMassMooring._rest_plan(fake, n)
    reach = 2 if ei > 0 else 1
    line = np.repeat(np.arange(4), 3 * (nseg - 1))
    node = np.concatenate([np.repeat(np.arange(1, k), 3) for k in nseg])
    assert sorted(np.concatenate(groups).tolist()) == list(range(n))
    for gr, (rows, cols) in zip(groups, fill, strict=True):
        for u in gr:
            near = np.flatnonzero((line == line[u]) & (np.abs(node - node[u]) <= reach))
            assert np.array_equal(rows[cols == u], near)
    assert band == 3 * reach + 2
    assert [(b.start, b.stop) for b in blocks] == [(0, 12), (12, 33), (33, 39)]
    assert LumpedMassMooring._rest_plan(fake, n) is LumpedMassMooring._rest_plan(fake, n)


def test_outputs_of_chunked_steps_are_the_per_step_recording():
    """The states at output times on the step grid, between steps (Hermite) and at the end,
    recorded from chunks of steps (one search per chunk) equal those recorded step by step on
    the Python path: an oscillator with a Python chunk that takes the same RK4 steps."""
    from floatwind.integrate import RK4

    def oscillator(t, y):
        return np.stack([y[:, 1], -4.0 * y[:, 0] - 0.1 * y[:, 1] + np.sin(t)], axis=1)

    class Chunked:
        def __init__(self, integ):
            self.integ = integ

        def __call__(self, t, y):
            return oscillator(t, y)

        def rk4_chunk(self, ts, y, f, t0, dt):
            Y, F = [y], [f]
            for j in range(len(ts) - 1):
                y, f = self.integ._step_impl(oscillator, ts[j], y, f, ts[j + 1] - ts[j])
                Y.append(y)
                F.append(f)
            return np.array(Y), np.array(F), len(ts) - 1, 0

    y0 = np.array([[1.0, 0.0], [0.2, -0.5]])
    for t_out in (np.arange(0.0, 40.0001, 0.25), np.linspace(0.0, 39.97, 577)):  # on / off grid
        integ = RK4(0.0125)
        integ.CHUNK_MEMBER_STEPS = 150  # several chunks, outputs across their ends
        chunked = integ.run(Chunked(integ), y0, t_out)
        stepwise = RK4(0.0125).run(oscillator, y0, t_out)
        assert chunked.complete and stepwise.complete
        assert np.array_equal(chunked.y, stepwise.y)
