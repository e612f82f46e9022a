"""Compiled RK4 stepping over a compiled right-hand side (the inner loop of
:class:`floatwind.integrate.RK4` when the right-hand side offers one).

:func:`rk4_chunk` is written once, here, against a right-hand side ``rhs`` with the contract

    status = rhs(params, t, y, g, out)

(dy/dt at (t, y) into ``out``; ``g`` the index of ``t`` on the half-step grid of the chunk,
``ts[0] + g h / 2``; 0, or a non-zero status when it declines this evaluation) and

    after(params, t, y, g)

(the loads' step memories take the accepted state (t, y): ``Load.after_step``; a function that
does nothing for a model without memories). It is compiled
together with a model's right-hand side by :mod:`floatwind.simulate.generate` (the callee is a
global of the generated module, so numba's disk cache holds the pair). The stage times come
from :func:`floatwind.integrate.base.rk4_stage_times`, the same function as the Python RK4 step.
"""

from __future__ import annotations

from floatwind._kernels.status import NOT_FINITE

__all__ = ["rk4_chunk"]


def rk4_chunk(ts, y0, f0, p, Y, F):
    """Up to ``len(ts) - 1`` RK4 steps from (ts[0], y0) with slope f0 = rhs(ts[0], y0).

    Step k goes from ts[k] with h = ts[k+1] - ts[k] through the stage times of
    ``rk4_stage_times`` (grid indices 2k + 1 for the two middle stages, 2k + 2 for the last);
    writes Y[k+1] (state) and F[k+1] (slope at the new state) and returns (steps done, status):
    it stops before a step whose evaluation the right-hand side declines (its status) or whose
    new state is not finite (``NOT_FINITE``, ``floatwind._kernels.status``). An accepted step's
    state goes to ``after`` (step memories) before the slope there is evaluated, as in
    ``FixedStepIntegrator.run``. (A step
    declined at its final slope has updated the memories already; the Python step that redoes it
    gives the same update, so a memory must record a step idempotently: by step index.)
    """
    n = ts.shape[0] - 1
    B, m = y0.shape[0], y0.shape[1]
    # explicit loops into preallocated stage states (no array temporaries per stage: 5-10 %
    # of a step with ref10's 354 states; the same operations in the same order, the same bits),
    # the run's (p.work.stages (4, B, m): FusedRHS.with_work): a rigid model's chunk allocates
    # nothing and is compiled without reference counting (floatwind.simulate.generate)
    stages = p.work.stages
    k2 = stages[0]
    k3 = stages[1]
    k4 = stages[2]
    ys = stages[3]
    for b in range(B):
        for c in range(m):
            Y[0, b, c] = y0[b, c]
            F[0, b, c] = f0[b, c]
    for k in range(n):
        t = ts[k]
        h = ts[k + 1] - t
        t_half, t_full = rk4_stage_times(t, h)  # noqa: F821
        y = Y[k]
        k1 = F[k]
        hh = 0.5 * h
        h6 = h / 6.0
        # the three stages and the slope at the new state through ONE call of rhs: the model's
        # loads are inlined into this chunk (floatwind.simulate.generate), once, not four times
        # (compile time); the same operations in the same order as four calls, the same bits
        for s in range(4):
            if s == 0:
                for b in range(B):
                    for c in range(m):
                        ys[b, c] = y[b, c] + hh * k1[b, c]
                ts_, g, out = t_half, 2 * k + 1, k2
            elif s == 1:
                for b in range(B):
                    for c in range(m):
                        ys[b, c] = y[b, c] + hh * k2[b, c]
                ts_, g, out = t_half, 2 * k + 1, k3
            elif s == 2:
                for b in range(B):
                    for c in range(m):
                        ys[b, c] = y[b, c] + h * k3[b, c]
                ts_, g, out = t_full, 2 * k + 2, k4
            else:
                for b in range(B):
                    for c in range(m):
                        v = y[b, c] + h6 * (k1[b, c] + 2.0 * k2[b, c] + 2.0 * k3[b, c] + k4[b, c])
                        if not math.isfinite(v):  # noqa: F821
                            return k, NOT_FINITE
                        ys[b, c] = v
                after(p, t_full, ys, 2 * k + 2)  # noqa: F821 (step memories, then the slope)
                ts_, g, out = t_full, 2 * k + 2, F[k + 1]
            st = rhs(p, ts_, ys, g, out)  # noqa: F821
            if st != 0:
                return k, st
        for b in range(B):
            for c in range(m):
                Y[k + 1, b, c] = ys[b, c]
    return n, 0
