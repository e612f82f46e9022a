"""The integrator contract for first-order systems dy/dt = f(t, y), y of shape (B, n).

Rules for a new first-order scheme (in the manner of scipy's ``OdeSolver``):

1. Subclass :class:`FixedStepIntegrator` and implement ``_step_impl(fun, t, y, f, h)`` returning
   ``(y_new, f_new)`` where ``f`` is ``fun(t, y)`` (already evaluated, so the first stage is free)
   and ``f_new`` is ``fun(t + h, y_new)`` (it becomes the next step's ``f`` and feeds the dense
   output). Set the class attribute ``order``.
2. Do not record, check or report progress in ``_step_impl``: :meth:`FixedStepIntegrator.run`
   does the bookkeeping: it records on the user's output grid (exactly at step points that
   coincide with output times, by cubic Hermite interpolation between steps otherwise), checks
   every step for non-finite values and the user bound, and raises
   :class:`floatwind.errors.SimulationError` carrying the partial :class:`Recording`.
3. Adaptive schemes (scipy's Dormand-Prince) implement :meth:`Integrator.run` directly with the
   same recording, checking and error semantics.
4. Optionally implement ``_state_after(fun, t, y, f, h)``: the new state alone, without the slope
   at its end (the default calls ``_step_impl`` and drops it). The driver uses it where that slope
   would be thrown away: the trial steps of the switch search (``events``) and the steps whose
   end state ``project`` replaces.

Two hooks of :meth:`FixedStepIntegrator.run` serve formulations with non-smooth right-hand sides
or constraints (the constrained multibody formulation, :mod:`floatwind.multibody.mbdm`):
``events(t, y) -> array`` (switch functions: a step in which an entry changes sign is split at the
crossing, so a force with a kink or an on/off switch does not cost the scheme its order) and
``project(t, y) -> y`` (the accepted state replaced, e.g. by its projection on the constraint
manifold, before the slope there is evaluated).

The batch axis B is first everywhere; ``fun`` must accept and return (B, n) arrays.
"""

from __future__ import annotations

import abc
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from floatwind._kernels.status import describe
from floatwind.errors import SimulationError

log = logging.getLogger(__name__)

RHS = Callable[[float, np.ndarray], np.ndarray]


class Interrupted(SimulationError):
    """The user interrupted the run (Ctrl-C); ``partial`` holds what was recorded."""


@dataclass
class Recording:
    """States on the output grid: ``t`` (T,), ``y`` (T, B, n); only the first ``n`` rows are valid."""

    t: np.ndarray
    y: np.ndarray
    n: int

    @property
    def complete(self) -> bool:
        return self.n == len(self.t)

    def valid(self) -> Recording:
        """The recorded part only."""
        return Recording(self.t[: self.n].copy(), self.y[: self.n].copy(), self.n)


@dataclass(frozen=True)
class StateGuard:
    """Stop a run at the step where ``|y[:, index]| >= limit`` (a state the equations cannot
    represent beyond, e.g. the Euler pitch near its singularity). The caller supplies the words:
    the message is ``"{what} = {value} {unit} reached {why}"`` with the value times ``scale``."""

    index: int
    limit: float
    what: str
    why: str
    scale: float = 1.0
    unit: str = ""

    def over(self, y: np.ndarray) -> np.ndarray:
        """Boolean (..., B): members at or beyond the guard (non-finite ones are not)."""
        return np.abs(y[..., self.index]) >= self.limit

    def reason(self, y: np.ndarray) -> str:
        bad = self.over(y)
        val = float(y[..., self.index][bad][0]) * self.scale
        return f"{self.what} = {val:.4g}{self.unit} reached {self.why}"


def _check(
    t: float, y: np.ndarray, bound: float | np.ndarray | None, guard: StateGuard | None = None
) -> str | None:
    finite = np.isfinite(y)
    if not finite.all():
        bad = np.unique(np.nonzero(~finite)[0]).tolist()
        return f"non-finite state in batch members {bad}"
    if guard is not None and guard.over(y).any():
        return guard.reason(y)
    if bound is not None:
        over = np.abs(y) > bound
        if over.any():
            bad = np.unique(np.nonzero(over)[0]).tolist()
            b = np.asarray(bound, dtype=float)
            return f"state exceeds the bound {np.max(b[np.isfinite(b)]):g} in batch members {bad}"
    return None


def _failed_members(y: np.ndarray, bound, guard: StateGuard | None = None) -> list[int]:
    bad = ~np.isfinite(y)
    if bound is not None:
        bad |= np.abs(np.nan_to_num(y, nan=np.inf)) > bound
    bad = bad.any(axis=-1)
    if guard is not None:
        bad |= guard.over(np.nan_to_num(y))
    return np.nonzero(bad)[0].tolist()


def _raise_if_bad(t: float, y: np.ndarray, bound, guard: StateGuard | None = None) -> None:
    reason = _check(t, y, bound, guard)
    if reason:
        raise SimulationError(reason, time=t, state=y, members=_failed_members(y, bound, guard))


def _steps_over(Y: np.ndarray, bound, guard: StateGuard | None) -> np.ndarray:
    """Per step of a chunk of states (S, B, n): beyond ``bound`` or the ``guard``."""
    over = np.zeros(Y.shape[0], dtype=bool)
    if bound is not None:
        over |= (np.abs(Y) > bound).any(axis=(1, 2))
    if guard is not None:
        over |= guard.over(Y).any(axis=1)
    return over


@contextlib.contextmanager
def _keeping_partial(rec: Recording, now: dict):
    """Attach what was recorded to a SimulationError; turn Ctrl-C into :class:`Interrupted`.

    ``now`` holds the last accepted ``t`` and ``y`` (updated by the caller every step)."""
    try:
        yield
    except SimulationError as err:
        err.partial = rec.valid()
        raise
    except KeyboardInterrupt:
        raise Interrupted(
            "interrupted by the user", time=now["t"], state=now["y"], partial=rec.valid()
        ) from None


def hermite(t0, t1, y0, y1, f0, f1, t) -> np.ndarray:
    """Cubic Hermite interpolation between (t0, y0, f0) and (t1, y1, f1) at scalar ``t``."""
    h = t1 - t0
    s = (t - t0) / h
    h00 = (1 + 2 * s) * (1 - s) ** 2
    h10 = s * (1 - s) ** 2
    h01 = s * s * (3 - 2 * s)
    h11 = s * s * (s - 1)
    return h00 * y0 + h10 * h * f0 + h01 * y1 + h11 * h * f1


class Integrator(abc.ABC):
    """Base class: integrate ``fun`` from ``t_out[0]`` and record on ``t_out``."""

    @abc.abstractmethod
    def run(
        self,
        fun: RHS,
        y0: np.ndarray,
        t_out: np.ndarray,
        *,
        bound: float | np.ndarray | None = None,
        progress: Callable[[float], None] | None = None,
        guard: StateGuard | None = None,
        after_step: Callable[[float, np.ndarray], None] | None = None,
        events: Callable[[float, np.ndarray], np.ndarray] | None = None,
        project: Callable[[float, np.ndarray], np.ndarray] | None = None,
    ) -> Recording:
        """Integrate and return the states on ``t_out`` (T,), starting at ``t_out[0]`` with ``y0`` (B, n).

        ``guard`` (optional :class:`StateGuard`) stops the run at the step where a state reaches it.
        ``after_step(t, y)`` (fixed-step schemes only) is called with the initial state and with
        every accepted step's new state, before the slope there is evaluated: loads with a step
        memory record it (``System.after_step``). A compiled chunk does the same inside.
        ``events(t, y) -> array`` and ``project(t, y) -> y`` (fixed-step schemes only; steps of
        the Python right-hand side): see :meth:`FixedStepIntegrator.run`.

        Raises
        ------
        SimulationError
            On a non-finite state, a state beyond ``bound`` or ``guard``, or a failure of ``fun``; its
            ``partial`` attribute holds the :class:`Recording` up to the last good output time.
        Interrupted
            On Ctrl-C, with the same ``partial``.
        """


def rk4_stage_times(t: float, h: float) -> tuple[float, float]:
    """The RK4 stage times of a step from ``t`` of length ``h``: the two middle stages at
    ``t + h / 2`` and the last at ``t + h`` (the first is ``t``). The one definition used by the
    Python step (:meth:`RK4._step_impl`), the compiled stepping
    (:func:`floatwind.integrate.compiled.rk4_chunk`) and the relative-kinematics grid of
    :meth:`RK4.time_grid` (spacing h / 2)."""
    return t + 0.5 * h, t + h


class FixedStepIntegrator(Integrator):
    """Fixed step ``dt``; see the module docstring for the subclass contract.

    :meth:`run` is the one stepping driver (recording on the output grid, checks, Ctrl-C and
    divergence handling). A subclass that has a compiled form of its step says so by naming the
    chunk method a right-hand side may offer (:attr:`chunk_method`, e.g. ``"rk4_chunk"``); when
    ``fun`` has it, runs of full steps are advanced in compiled chunks
    ``fun.<chunk_method>(ts, y, f, t0, dt) -> (Y, F, steps done, status)`` and a step the chunk
    hands back (``status``, or a chunk that stopped early) is done by :meth:`_step_impl`, which
    computes it or raises the proper error. Both kinds of step go through the same recording and
    checks.

    ``events(t, y) -> array`` (switch functions of the state, any shape; None: none): a step in
    which an entry changes sign (from a non-zero value) is split at the earliest crossing, found
    by regula falsi (Illinois variant) on the length of the step from its start to 1e-13 (relative
    to max(1, |t|)), and the rest of the step is taken from there (again split where needed), so
    the output grid stays on the steps of ``dt`` and a force with a kink or an on/off switch does
    not cost the scheme its order. The split applies to the whole batch (a member then need not
    give the bits it gives alone); the slope at the end of such a step is evaluated at the grid
    time. ``project(t, y) -> y`` (None: none): the accepted state of every step is replaced by
    what it returns (a projection on a constraint manifold, a re-partition of coordinates), before
    the checks, ``after_step`` and the slope there. Either hook makes every step a Python step.
    """

    order: int = 0

    #: name of the compiled multi-step method a right-hand side may offer (None: none)
    chunk_method: str | None = None

    #: member-steps per compiled chunk (~0.1-0.3 s of wall time: Ctrl-C and progress stay live)
    CHUNK_MEMBER_STEPS = 2048

    def __init__(self, dt: float):
        if not (dt > 0 and np.isfinite(dt)):
            raise ValueError(f"time step dt must be positive and finite, got {dt!r}")
        self.dt = float(dt)

    @abc.abstractmethod
    def _step_impl(self, fun: RHS, t: float, y: np.ndarray, f: np.ndarray, h: float):
        """One step from (t, y) with slope f: return (y_new, f_new)."""

    def _state_after(self, fun: RHS, t: float, y: np.ndarray, f: np.ndarray, h: float):
        """The state after one step from (t, y) with slope f, without the slope at its end."""
        return self._step_impl(fun, t, y, f, h)[0]

    def _crossing(self, fun, events, ta, y, f, h, yb) -> float | None:
        """Earliest time in (ta, ta + h) where an entry of ``events`` changes sign over the step
        from (ta, y) to (ta + h, yb), or None (regula falsi, Illinois variant, on the length of
        the step from ta; the time returned is just past the switch)."""
        sa = np.asarray(events(ta, y), dtype=float).ravel()
        sb = np.asarray(events(ta + h, yb), dtype=float).ravel()
        changed = np.nonzero((np.sign(sa) != np.sign(sb)) & (sa != 0))[0]
        best = None
        for i in changed:
            lo, hi, flo, fhi = 0.0, h, sa[i], sb[i]
            side = 0
            for _ in range(60):
                mid = lo - flo * (hi - lo) / (fhi - flo) if fhi != flo else 0.5 * (lo + hi)
                if not lo < mid < hi:
                    mid = 0.5 * (lo + hi)
                ym = self._state_after(fun, ta, y, f, mid)
                fm = np.asarray(events(ta + mid, ym), dtype=float).ravel()[i]
                if np.sign(fm) == np.sign(flo):
                    lo, flo = mid, fm
                    fhi = fhi / 2 if side == -1 else fhi
                    side = -1
                else:
                    hi, fhi = mid, fm
                    flo = flo / 2 if side == 1 else flo
                    side = 1
                if hi - lo < 1e-13 * max(1.0, abs(ta)) or fm == 0:
                    break
            best = ta + hi if best is None else min(best, ta + hi)
        return best if best is not None and best - ta > 1e-14 * max(1.0, abs(ta)) else None

    def _step_split(self, fun, t, y, f, t_new, events, slope: bool):
        """The step from (t, y) to the grid time ``t_new``, split where ``events`` change sign:
        (y_new, f_new), f_new = fun(t_new, y_new) (None unless ``slope``)."""
        ta = t
        while ta < t_new - 1e-14 * max(1.0, abs(t_new)):
            yb = self._state_after(fun, ta, y, f, t_new - ta)
            tc = None if events is None else self._crossing(fun, events, ta, y, f, t_new - ta, yb)
            if tc is None:
                y = yb
                break
            y = self._state_after(fun, ta, y, f, tc - ta)
            ta = tc
            f = fun(ta, y)
        return y, (fun(t_new, y) if slope else None)

    def time_grid(self, t0: float, t_end: float) -> tuple[float, float, int] | None:
        """(t0, spacing, count) of every time the right-hand side will be called at, when the
        scheme knows them in advance (``System.use_time_grid``); None otherwise."""
        return None

    def run(
        self, fun, y0, t_out, *, bound=None, progress=None, guard=None, after_step=None,
        events=None, project=None,
    ) -> Recording:
        t_out = np.asarray(t_out, dtype=float)
        y = np.array(y0, dtype=float)
        rec = Recording(t_out, np.full((len(t_out),) + y.shape, np.nan), 0)
        t = float(t_out[0])
        t0 = t
        t_end = float(t_out[-1])
        dt = self.dt
        n_steps = int(np.ceil((t_end - t) / dt - 1e-9))
        tol = 1e-9 * dt
        chunk = getattr(fun, self.chunk_method, None) if self.chunk_method else None
        if events is not None or project is not None:
            chunk = None  # the hooks are Python: every step is a Python step
        per_chunk = max(8, self.CHUNK_MEMBER_STEPS // max(1, y.shape[0]))
        now = {"t": t, "y": y}

        def record(t_a, t_b, y_a, y_b, f_a, f_b):
            while rec.n < len(t_out) and t_out[rec.n] <= t_b + tol:
                tk = t_out[rec.n]
                if abs(tk - t_b) <= tol:
                    rec.y[rec.n] = y_b
                else:
                    rec.y[rec.n] = hermite(t_a, t_b, y_a, y_b, f_a, f_b, tk)
                rec.n += 1

        def record_chunk(ts, Y, F, done):
            """:func:`record` of a chunk's steps 0 .. done - 1, the outputs they hold found by
            one search instead of one call per step (48,000 calls for a 600-s deck): output
            ``i`` at the first step ``j`` with ``t_out[i] <= ts[j + 1] + tol``, as there."""
            if done <= 0 or rec.n >= len(t_out):
                return
            ends = ts[1 : done + 1] + tol
            n0 = rec.n
            n1 = n0 + int(np.searchsorted(t_out[n0:], ends[-1], side="right"))
            for i, j in zip(range(n0, n1), np.searchsorted(ends, t_out[n0:n1], side="left")):
                tk, t_b = t_out[i], ts[j + 1]
                if abs(tk - t_b) <= tol:
                    rec.y[i] = Y[j + 1]
                else:
                    rec.y[i] = hermite(ts[j], t_b, Y[j], Y[j + 1], F[j], F[j + 1], tk)
            rec.n = n1

        with _keeping_partial(rec, now):
            if after_step is not None:
                after_step(t, y)
            f = fun(t, y)
            _raise_if_bad(t, y, bound, guard)
            rec.y[0] = y
            rec.n = 1
            k = 0
            while k < n_steps:
                python_step = chunk is None
                if chunk is not None:
                    kk = np.arange(k, min(k + per_chunk, n_steps) + 1)
                    ts = np.minimum(t0 + kk * dt, t_end)
                    ts[0] = t
                    full = np.abs(np.diff(ts) - dt) <= tol
                    n_full = len(full) if full.all() else int(np.argmin(full))
                    done, status = 0, 0
                    if n_full > 0:
                        Y, F, done, status = chunk(ts[: n_full + 1], y, f, t0, dt)
                        if (bound is not None or guard is not None) and done > 0:
                            over = _steps_over(Y[1 : done + 1], bound, guard)
                            if over.any():
                                done = int(np.argmax(over))  # redo that step below: it raises
                        record_chunk(ts, Y, F, done)
                        if done > 0:
                            t, y, f = float(ts[done]), Y[done].copy(), F[done].copy()
                            now["t"], now["y"] = t, y
                            k += done
                            if progress is not None:
                                progress(t)
                    python_step = k < n_steps and (done < n_full or n_full == 0 or status)
                    if status and log.isEnabledFor(logging.DEBUG):
                        log.debug("t = %.9g: the compiled step hands back to the Python step (%s)",
                                  t, describe(status))  # fmt: skip
                if python_step:
                    # a step by the Python right-hand side (no compiled form, a step the chunk
                    # handed back, or a last partial step): it computes it or raises
                    t_new = min(t0 + (k + 1) * dt, t_end)
                    if events is None and project is None:
                        y_new, f_new = self._step_impl(fun, t, y, f, t_new - t)
                    else:
                        slope = project is None and after_step is None
                        y_new, f_new = self._step_split(fun, t, y, f, t_new, events, slope)
                        if project is not None:
                            y_new = np.asarray(project(t_new, y_new), dtype=float)
                    _raise_if_bad(t_new, y_new, bound, guard)
                    if after_step is not None:
                        # the memory takes the accepted state first, then the slope there
                        after_step(t_new, y_new)
                        f_new = fun(t_new, y_new)
                    elif f_new is None:
                        f_new = fun(t_new, y_new)
                    record(t, t_new, y, y_new, f, f_new)
                    t, y, f = t_new, y_new, f_new
                    now["t"], now["y"] = t, y
                    k += 1
                    if progress is not None:
                        progress(t)
        return rec


class RK4(FixedStepIntegrator):
    """Classical 4th-order Runge-Kutta with fixed step (batched states); with a right-hand side
    that offers ``rk4_chunk`` (:class:`floatwind.simulate.fused.FusedRHS`), runs of full steps go
    through the compiled :func:`floatwind.integrate.compiled.rk4_chunk`."""

    order = 4
    chunk_method = "rk4_chunk"

    def time_grid(self, t0, t_end):
        n_steps = int(np.ceil((t_end - t0) / self.dt - 1e-9))
        return float(t0), 0.5 * self.dt, 2 * n_steps + 1

    def _state_after(self, fun, t, y, f, h):
        t_half, t_full = rk4_stage_times(t, h)
        k1 = f
        k2 = fun(t_half, y + 0.5 * h * k1)
        k3 = fun(t_half, y + 0.5 * h * k2)
        k4 = fun(t_full, y + h * k3)
        return y + (h / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4)

    def _step_impl(self, fun, t, y, f, h):
        y_new = self._state_after(fun, t, y, f, h)
        return y_new, fun(rk4_stage_times(t, h)[1], y_new)


class ScipyAdaptive(Integrator):
    """Adaptive Dormand-Prince (scipy ``RK45`` or ``DOP853``) for single runs.

    The batch is flattened into one state vector, so the step size is shared by the members;
    use it for B = 1 (or small batches) where accuracy control matters more than throughput.
    """

    def __init__(
        self,
        method: str = "DOP853",
        rtol: float = 1e-8,
        atol: float = 1e-10,
        max_step: float = np.inf,
        first_step: float | None = None,
    ):
        from scipy import integrate as _si

        methods = {"RK45": _si.RK45, "DOP853": _si.DOP853}
        if method not in methods:
            raise ValueError(f"adaptive method must be one of {sorted(methods)}, got {method!r}")
        self._cls = methods[method]
        self.method = method
        self.rtol, self.atol, self.max_step, self.first_step = rtol, atol, max_step, first_step

    def run(
        self, fun, y0, t_out, *, bound=None, progress=None, guard=None, after_step=None,
        events=None, project=None,
    ) -> Recording:
        if after_step is not None:
            raise ValueError("after_step (a load's step memory) needs a fixed-step integrator")
        if events is not None or project is not None:
            raise ValueError("events and project need a fixed-step integrator")
        t_out = np.asarray(t_out, dtype=float)
        y0 = np.array(y0, dtype=float)
        shape = y0.shape
        rec = Recording(t_out, np.full((len(t_out),) + shape, np.nan), 0)
        rec.y[0] = y0
        rec.n = 1

        def flat(t, yf):
            return fun(t, yf.reshape(shape)).ravel()

        solver = self._cls(
            flat,
            t_out[0],
            y0.ravel(),
            t_out[-1],
            rtol=self.rtol,
            atol=self.atol,
            max_step=self.max_step,
            first_step=self.first_step,
        )
        now = {"t": float(t_out[0]), "y": y0}
        with _keeping_partial(rec, now):
            while solver.status == "running" and rec.n < len(t_out):
                msg = solver.step()
                y = solver.y.reshape(shape)
                t = solver.t
                now["t"], now["y"] = t, y
                _raise_if_bad(t, y, bound, guard)
                if solver.status == "failed":
                    raise SimulationError(f"adaptive step failed: {msg}", time=t, state=y)
                dense = solver.dense_output()
                while rec.n < len(t_out) and t_out[rec.n] <= t:
                    rec.y[rec.n] = dense(t_out[rec.n]).reshape(shape)
                    rec.n += 1
                if progress is not None:
                    progress(t)
        return rec
