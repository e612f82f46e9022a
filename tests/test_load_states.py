"""Loads with states of their own (contract rule 5 of floatwind.loads.base): continuous states
integrated with the bodies, and a step memory updated once per accepted step, on the NumPy and
the compiled path.

Two toy loads give the same physics in the two forms, a surge force with an exponential memory of
the surge velocity (a one-term radiation-memory model),

    F(t) = -c int_0^t exp(-(t - s) / tau) v(s) ds,

once as a continuous state x (dx/dt = v - x / tau, F = -c x) and once as a convolution over the
velocity history kept in a step memory (trapezoidal rule on the step times, exact exponential
weights). They agree to the trapezoidal rule's second order, and each runs compiled with the numbers
of the Python path and bit for bit alone and inside a batch.
"""

from __future__ import annotations

import math
import pathlib
from typing import NamedTuple

import numpy as np
import pytest
from conftest import fused_and_python

pytest.importorskip("numba")
from numba import njit  # noqa: E402

from floatwind._kernels.contract import CompiledLoad  # noqa: E402
from floatwind.errors import CaseError  # noqa: E402
from floatwind.loads.base import Load, Wrench  # noqa: E402
from floatwind.simulate import fused as fz  # noqa: E402
from floatwind.simulate import simulate  # noqa: E402
from floatwind.simulate.system import System  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
CASE = ROOT / "cases" / "oc3_platform_decay.yaml"
C, TAU = 4e5, 3.0


@pytest.fixture(autouse=True)
def _jit_on(compiled_on):
    """Every test here runs with the compiled kernels and the fused stepping on."""


# --- the continuous-state form -------------------------------------------------------------


@njit(cache=True)
def lag_kernel(p, t, kin, y, dy, force, moment, added):
    for b in range(y.shape[0]):
        x = y[b, p.state0]
        dy[b, p.state0] = p.gain * kin.v_G[b, 0, 0] - x / p.tau
        force[b, 0, 0] += -p.c * x
    return 0


class LagState(Load):
    name = "lag"
    n_states = 1

    class Params(NamedTuple):
        c: float
        tau: float
        gain: float
        state0: int

    def __init__(self, c=C, tau=TAU, x0=0.0, gain=1.0):
        self.c, self.tau, self.x0, self.gain = c, tau, x0, gain

    def initial_states(self, batch):
        return np.full((batch, 1), self.x0)

    def wrench(self, t, kin, env):  # pragma: no cover - a stateful load answers wrench_state
        raise AssertionError("wrench_state is called for a load with states")

    def wrench_state(self, t, kin, env, s, memory):
        w = Wrench.zeros(kin.batch, kin.n_bodies)
        w.force[:, 0, 0] = -self.c * s[:, 0]
        w.channels["LagFx"] = w.force[:, 0, 0].copy()
        return w, self.gain * kin.v_G_g[:, 0, 0:1] - s / self.tau

    def channel_info(self):
        return {"LagFx": ("N", "memory force (state form)")}

    def compiled(self, env, batch):
        return CompiledLoad(lag_kernel, self.Params(c=self.c, tau=self.tau, gain=self.gain, state0=-1))


# --- the step-memory form ------------------------------------------------------------------


class ConvMemory(NamedTuple):
    v: np.ndarray  # (n + 1, B) surge velocity at the step times
    integral: np.ndarray  # (n + 1, B) the memory integral at the step times
    t0: float
    dt: float
    last: np.ndarray  # (1,) index of the last recorded step


@njit(cache=True)
def _conv_force(m, tau, c, t, v_now, b):
    n = min(int(math.floor((t - m.t0) / m.dt + 1e-9)), m.last[0])
    if n < 0:
        return 0.0
    tn = m.t0 + n * m.dt
    e = math.exp(-(t - tn) / tau)
    return -c * (e * m.integral[n, b] + 0.5 * (t - tn) * (e * m.v[n, b] + v_now))


@njit(cache=True)
def conv_kernel(p, t, kin, y, dy, force, moment, added):
    for b in range(y.shape[0]):
        force[b, 0, 0] += _conv_force(p.memory, p.tau, p.c, t, kin.v_G[b, 0, 0], b)
    return 0


@njit(cache=True)
def conv_after_step(p, t, kin, y):
    m = p.memory
    k = int(round((t - m.t0) / m.dt))
    e = math.exp(-m.dt / p.tau)
    for b in range(y.shape[0]):
        v = kin.v_G[b, 0, 0]
        if k == 0:
            m.integral[0, b] = 0.0
        else:
            m.integral[k, b] = e * m.integral[k - 1, b] + 0.5 * m.dt * (e * m.v[k - 1, b] + v)
        m.v[k, b] = v
    m.last[0] = k


class ConvLoad(Load):
    name = "conv"

    class Params(NamedTuple):
        c: float
        tau: float
        memory: object

    def __init__(self, c=C, tau=TAU):
        self.c, self.tau = c, tau

    def memory(self, batch, t0, dt, n_steps):
        return ConvMemory(
            np.zeros((n_steps + 1, batch)), np.zeros((n_steps + 1, batch)), t0, dt,
            np.full(1, -1, dtype=np.int64),
        )  # fmt: skip

    def after_step(self, t, kin, env, memory, s):
        p = self.Params(c=self.c, tau=self.tau, memory=memory)
        conv_after_step.py_func(p, t, _Kin(kin), np.empty((kin.batch, 0)))

    def wrench(self, t, kin, env):  # pragma: no cover - a stateful load answers wrench_state
        raise AssertionError("wrench_state is called for a load with a memory")

    def wrench_state(self, t, kin, env, s, memory):
        w = Wrench.zeros(kin.batch, kin.n_bodies)
        if memory is not None:
            for b in range(kin.batch):
                w.force[b, 0, 0] = _conv_force.py_func(
                    memory, self.tau, self.c, float(t), kin.v_G_g[b, 0, 0], b
                )
        w.channels["ConvFx"] = w.force[:, 0, 0].copy()
        return w, None

    def channel_info(self):
        return {"ConvFx": ("N", "memory force (convolution form)")}

    def compiled(self, env, batch):
        return CompiledLoad(
            conv_kernel, self.Params(c=self.c, tau=self.tau, memory=None), after_step=conv_after_step
        )


class _Kin:
    """The compiled kernels' view (v_G) of a NumPy Kinematics, for the py_func calls above."""

    def __init__(self, kin):
        self.v_G = kin.v_G_g


# --- models ----------------------------------------------------------------------------------


def _model(load, t_max=30.0, dt=None, **ic):
    from floatwind.case import load_case

    over = {"simulation.t_max": t_max, "simulation.dt_out": 0.5}
    if dt is not None:
        over["simulation.dt"] = dt
    m = load_case(CASE, over)
    m.loads = list(m.loads) + [load]
    return m


def test_state_columns_are_laid_out_after_the_rigid_body_and_recorded():
    m = _model(LagState(x0=0.25))
    sysm = System(m)
    assert sysm.n_y == 13 and sysm.state_layout == [(len(m.loads) - 1, slice(12, 13))]
    y0 = sysm.initial_state()
    assert y0.shape == (1, 13) and y0[0, 12] == 0.25
    ds = simulate(m, progress=False)
    assert "lag_s1" in ds and float(ds.lag_s1[0]) == 0.25
    # the recorded state gives the force channel at every output time
    np.testing.assert_allclose(ds.LagFx.values, -C * ds.lag_s1.values, rtol=1e-14)


def test_a_free_state_decays_as_the_exponential_with_rk4_order():
    """Analytic: decoupled from the motion (gain 0) x(t) = x0 exp(-t / tau); RK4's 4th order."""
    errs = []
    for dt in (0.2, 0.1):
        ds = simulate(_model(LagState(c=0.0, x0=1.0, gain=0.0), t_max=12.0, dt=dt), progress=False)
        exact = np.exp(-ds.time.values / TAU)
        errs.append(float(np.max(np.abs(ds.lag_s1.values - exact))))
    order = math.log2(errs[0] / errs[1])
    assert errs[1] < 1e-7 and order > 3.5, (errs, order)


def test_state_and_memory_forms_agree_to_second_order():
    """The convolution over the step memory and the continuous state are the same model: they
    agree to the trapezoidal rule's O(dt^2) (observed order ~2), on the whole run."""
    errs = []
    for dt in (0.1, 0.05):
        a = simulate(_model(LagState(), dt=dt), progress=False)
        b = simulate(_model(ConvLoad(), dt=dt), progress=False)
        scale = float(np.max(np.abs(a.LagFx.values)))
        assert scale > 1e3  # the memory force acts
        errs.append(float(np.max(np.abs(a.LagFx.values - b.ConvFx.values))) / scale)
        sa = float(np.max(np.abs(a.PtfmSurge.values)))
        assert np.max(np.abs(a.PtfmSurge.values - b.PtfmSurge.values)) < 1e-3 * sa
    order = math.log2(errs[0] / errs[1])
    assert errs[1] < 1e-3 and 1.7 < order < 2.3, (errs, order)


@pytest.mark.parametrize("make", [LagState, ConvLoad], ids=["state", "memory"])
def test_compiled_equals_python(make):
    fused, why = fz.fuse(System(_model(make())))
    assert fused is not None, why
    a, b = fused_and_python(lambda: _model(make(), t_max=20.0))
    for name in ("PtfmSurge", "PtfmPitch", "LagFx" if make is LagState else "ConvFx"):
        x, y = a[name].values, b[name].values
        scale = float(np.max(np.abs(y)))
        assert np.max(np.abs(x - y)) <= 1e-9 * scale, (name, np.max(np.abs(x - y)) / scale)


@pytest.mark.parametrize("make", [LagState, ConvLoad], ids=["state", "memory"])
def test_a_member_alone_equals_it_inside_a_batch(make):
    def batch_model(B):
        m = _model(make(), t_max=10.0)
        disp = np.zeros((B, 3))  # the batch size comes from the initial conditions
        disp[:, 0] = np.linspace(0.0, 2.0, B)
        m.initial.displacement = disp
        return m

    three = simulate(batch_model(3), progress=False)
    one = simulate(batch_model(1), progress=False)
    name = "LagFx" if make is LagState else "ConvFx"
    for ch in ("PtfmSurge", name):
        assert np.array_equal(three[ch].values[0], one[ch].values), ch


def test_integrators_that_cannot_carry_states_refuse_in_one_line():
    m = _model(ConvLoad(), t_max=1.0)
    m.settings.integrator = "dop853"
    with pytest.raises(CaseError, match="step memory.*fixed time step"):
        simulate(m, progress=False)
    m = _model(LagState(), t_max=1.0)
    m.settings.integrator = "lie_generalized_alpha"
    with pytest.raises(CaseError, match="states of its own"):
        simulate(m, progress=False)


def test_continuous_states_run_with_the_adaptive_integrator():
    m = _model(LagState(), t_max=10.0)
    m.settings.integrator = "dop853"
    a = simulate(m, progress=False)
    b = simulate(_model(LagState(), t_max=10.0, dt=0.02), progress=False)
    scale = float(np.max(np.abs(b.LagFx.values)))
    assert np.max(np.abs(a.LagFx.values - b.LagFx.values)) < 1e-5 * scale
