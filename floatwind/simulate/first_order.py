"""Running a model as a first-order system under the ``Integrator`` contract (``integrator: rk4``,
``dop853``, ``rk45``): the momentum cloud core's state [q, qd] and the loads' own states stepped by
:class:`~floatwind.integrate.RK4` (whole steps in compiled chunks when the loads compile,
:mod:`floatwind.simulate.fused`) or :class:`~floatwind.integrate.ScipyAdaptive`."""

from __future__ import annotations

import numpy as np

from floatwind.errors import CaseError, SimulationError
from floatwind.integrate import RK4, ScipyAdaptive
from floatwind.model import Model
from floatwind.simulate.outputs import default_extra_channels, to_dataset
from floatwind.simulate.schemes import PITCH_GUARD, Scheme, register, say_python_path
from floatwind.simulate.system import System


def make_integrator(model: Model):
    """The ``Integrator`` of ``simulation.integrator`` (rk4, dop853, rk45)."""
    s = model.settings
    name = s.integrator.lower()
    if name == "rk4":
        return RK4(s.dt)
    if name in ("dop853", "rk45"):
        return ScipyAdaptive(name.upper(), rtol=s.rtol, atol=s.atol, max_step=s.dt_out)
    raise SimulationError(f"unknown integrator {s.integrator!r}", time=0.0)


class FirstOrder(Scheme):
    """The MCM state (and the loads' own states) under the ``Integrator`` contract."""

    joint_dofs = True

    def run(self, model, t_out, *, y0, progress, extra_channels, channels):
        system = System(model)
        y0 = system.initial_state() if y0 is None else system.with_load_states(y0)
        extra_channels = default_extra_channels(model, extra_channels)
        integ = make_integrator(model)
        grid = integ.time_grid(t_out[0], t_out[-1]) if hasattr(integ, "time_grid") else None
        if grid is not None:
            system.use_time_grid(*grid)
        after_step = None
        if system.has_memory:
            dt = getattr(integ, "dt", None)
            if dt is None:
                name = next(ld.name for ld, m in zip(model.loads, system._has_memory) if m)
                raise CaseError(
                    f"load {name!r} keeps a step memory, which needs a fixed time step: use "
                    "integrator rk4",
                    field="simulation.integrator",
                )
            n_steps = int(np.ceil((t_out[-1] - t_out[0]) / dt - 1e-9))
            system.start_run(float(t_out[0]), float(dt), n_steps, batch=y0.shape[0])
            after_step = system.after_step
        bound = model.settings.bound
        if bound is not None and system.n_y > 12:
            # the divergence bound is on the rigid-body state; the loads' own states are free
            bound = np.concatenate([np.full(12, float(bound)), np.full(system.n_y - 12, np.inf)])
        fun = system.rhs
        if getattr(integ, "chunk_method", None):
            from floatwind.simulate.fused import fuse

            fused, why = fuse(system)
            if fused is not None:
                fun = fused  # whole RK4 steps in compiled chunks (docs/performance.md)
            else:
                say_python_path(model, why)
        try:
            kw = {} if after_step is None else {"after_step": after_step}
            rec = integ.run(fun, y0, t_out, bound=bound, progress=progress, guard=PITCH_GUARD, **kw)
        except SimulationError as err:
            if err.partial is not None and err.partial.n > 0:
                err.dataset = to_dataset(
                    model, system, err.partial, extra_channels, status=str(err), channels=channels
                )
            raise
        return to_dataset(model, system, rec, extra_channels, channels=channels)


class RK4Scheme(FirstOrder):
    """RK4: fixed step, whole steps compiled when the loads compile."""

    integrators = ("rk4",)
    fixed_step = True
    compiled = True


class AdaptiveScheme(FirstOrder):
    """DOP853 / RK45 (scipy's Dormand-Prince pairs): adaptive steps on the Python path."""

    integrators = ("dop853", "rk45")


register(RK4Scheme())
register(AdaptiveScheme())
