"""The static rest of lumped-mass lines between fixed and coupled points (or through free points):
Newton's method with a grouped finite-difference Jacobian (:func:`newton_rest`) and the
structure of that Jacobian (:func:`rest_plan`), for :meth:`floatwind.loads.moordyn.
LumpedMassMooring.static_states`. ``ld`` is the :class:`~floatwind.loads.moordyn.LumpedMassMooring`
whose lines are solved (its ``nseg``, ``pt_state`` and ``line_property``)."""

from __future__ import annotations

import numpy as np

__all__ = ["newton_rest", "rest_plan"]


def rest_plan(ld, n: int):
    """The structure of :func:`newton_rest`'s Jacobian for ``n`` unknowns (the lines'
    interior nodes, 3 coordinates each), once per load: the groups of unknowns perturbed
    together, for each group the (row, column) entries it fills (the rows of the nodes
    within reach of each of its unknowns, column by column), the half bandwidth and each
    line's block."""
    reach = 2 if np.any(ld.line_property("ei") > 0.0) else 1
    key = (n, reach, tuple(int(k) for k in ld.nseg))
    plan = getattr(ld, "_rest_plans", {}).get(key)
    if plan is not None:
        return plan
    ncol = 2 * reach + 1
    line = np.concatenate([np.full(3 * (int(k) - 1), j) for j, k in enumerate(ld.nseg)]
                          + [np.zeros(0, dtype=np.int64)]).astype(np.int64)  # fmt: skip
    node = np.concatenate([np.repeat(np.arange(1, int(k)), 3) for k in ld.nseg]
                          + [np.zeros(0, dtype=np.int64)]).astype(np.int64)  # fmt: skip
    coord = np.arange(n) % 3
    groups = [np.flatnonzero((node % ncol == c) & (coord == d))
              for c in range(ncol) for d in range(3)]  # fmt: skip
    groups = [gr for gr in groups if gr.size]
    fill = []
    for gr in groups:  # rows of unknown u: same line, node within reach, ascending
        near = (line[:, None] == line[gr][None, :]) & (
            np.abs(node[:, None] - node[gr][None, :]) <= reach
        )
        cols_of, rows = np.nonzero(near.T)
        fill.append((rows, gr[cols_of]))
    band = 3 * reach + 2  # the half bandwidth of a line's block (3 coordinates per node)
    ends = np.cumsum([0] + [3 * (int(k) - 1) for k in ld.nseg])
    blocks = [slice(int(a), int(b)) for a, b in zip(ends[:-1], ends[1:]) if b > a]
    plan = (groups, fill, band, blocks)
    ld.__dict__.setdefault("_rest_plans", {})[key] = plan
    return plan


def newton_rest(ld, residuals, x, tol, max_iter=20):
    """Newton's method on the nodes' accelerations ``residuals(X)`` (a row of accelerations
    per row of X, the interior nodes' positions, line after line: all the guesses of a
    Jacobian in one call) for lines between fixed and coupled points, with the
    Jacobian by finite differences in groups: node ``i``'s acceleration depends on nodes
    ``i - 1 .. i + 1`` of its line (``i +- 2`` with bending), so one evaluation perturbs
    every third (fifth) node of all lines in one direction (Curtis, Powell & Reid 1974);
    steps halved while they do not reduce the residual. Returns the nodes at rest (the
    step below ``tol`` of the positions and the accelerations below 1e-6 g; or the
    accelerations below 1e-6 g where no step lowers them further: rounding), or None where
    there are free points or Newton does not converge (the caller's Levenberg-Marquardt
    then solves it). Each line's block is solved densely by numpy's LAPACK (LU with
    partial pivoting; a block of 3 (N - 1) unknowns, 57 for ref10's lines): scipy.linalg's
    banded solve cost 0.3-0.6 s of import in every run with these lines (the pre-run
    check) for a few milliseconds of solves."""
    if x.size == 0:
        return None
    free = bool(np.any(ld.pt_state >= 0))
    if not free:
        groups, fill, _, blocks = rest_plan(ld, x.size)
    f = residuals(x[None])[0]
    g = 9.80665
    for _ in range(max_iter):
        J = np.zeros((x.size, x.size))
        h = 1e-7 * np.maximum(np.abs(x), 1.0)
        dx = np.empty_like(x)
        if free:
            # free points join lines: the whole Jacobian, one unknown per guess (a few
            # hundred rows in one compiled call), one dense system
            F = residuals(x[None] + np.diag(h))
            J[:, :] = ((F - f[None]) / h[:, None]).T
            from threadpoolctl import threadpool_limits

            # one BLAS thread: a threaded solve of these ~200 unknowns cost 120 ms instead
            # of 0.8 ms on a loaded 2-core machine
            with threadpool_limits(1, user_api="blas"):
                try:
                    dx[:] = np.linalg.solve(J, -f)
                except np.linalg.LinAlgError:
                    return None
        else:
            XP = np.repeat(x[None], len(groups), axis=0)
            for k, gr in enumerate(groups):
                XP[k, gr] += h[gr]
            F = residuals(XP)  # every group's perturbed accelerations in one call
            for k, (rows, cols) in enumerate(fill):
                df = F[k] - f
                J[rows, cols] = df[rows] / h[cols]  # the rows within reach of each unknown
            try:  # one system per line (lines between fixed and coupled points only)
                for sl in blocks:
                    dx[sl] = np.linalg.solve(J[sl, sl], -f[sl])
            except np.linalg.LinAlgError:
                return None
        if not np.all(np.isfinite(dx)):
            return None
        step, fn = 1.0, np.inf
        norm = np.linalg.norm(f)
        # the steps 1, 1/2, .. 1/2^29 in turn, four guesses a call (the first that lowers
        # the accelerations is taken, as one at a time: the same step, the same bits)
        steps = 0.5 ** np.arange(30.0)
        for k0 in range(0, 30, 4):
            ks = steps[k0 : k0 + 4]
            FN = residuals(x[None] + ks[:, None] * dx[None])
            ok = [k for k in range(ks.size) if np.all(np.isfinite(FN[k]))
                  and np.linalg.norm(FN[k]) < norm]  # fmt: skip
            if ok:
                step, fn = float(ks[ok[0]]), FN[ok[0]]
                break
        else:
            # no step lowers the accelerations: at rest to rounding when they are below the
            # acceptance bound already (ref10's pre-run check: 2 of 52 solves ended here and
            # were solved again by Levenberg-Marquardt, ~2,500 evaluations each)
            return x if np.max(np.abs(f)) < 1e-6 * g else None
        x = x + step * dx
        f = fn
        if (np.linalg.norm(step * dx) <= tol * np.linalg.norm(x)
                and np.max(np.abs(f)) < 1e-6 * g):  # fmt: skip
            return x
    return None
