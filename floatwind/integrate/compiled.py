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
    Y[0] = y0
    F[0] = f0
    k2 = np.empty((B, m))  # noqa: F821 (names of the generated module)
    k3 = np.empty((B, m))  # noqa: F821
    k4 = np.empty((B, m))  # noqa: F821
    f_new = np.empty((B, m))  # noqa: F821
    for k in range(n):
        t = ts[k]
        h = ts[k + 1] - t
        t_half, t_full = rk4_stage_times(t, h)  # noqa: F821
        y = Y[k]
        k1 = F[k]
        st = rhs(p, t_half, y + 0.5 * h * k1, 2 * k + 1, k2)  # noqa: F821
        if st != 0:
            return k, st
        st = rhs(p, t_half, y + 0.5 * h * k2, 2 * k + 1, k3)  # noqa: F821
        if st != 0:
            return k, st
        st = rhs(p, t_full, y + h * k3, 2 * k + 2, k4)  # noqa: F821
        if st != 0:
            return k, st
        y_new = y + (h / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
        for b in range(B):
            for c in range(m):
                if not math.isfinite(y_new[b, c]):  # noqa: F821
                    return k, NOT_FINITE
        after(p, t_full, y_new, 2 * k + 2)  # noqa: F821 (step memories, then the slope)
        st = rhs(p, t_full, y_new, 2 * k + 2, f_new)  # noqa: F821
        if st != 0:
            return k, st
        Y[k + 1] = y_new
        F[k + 1] = f_new
    return n, 0
