"""Static equilibrium of a model: the base-body position where all accelerations vanish at rest."""

from __future__ import annotations

import numpy as np
from scipy import optimize

from floatwind.errors import SimulationError
from floatwind.model import Model
from floatwind.simulate.outputs import evaluate_outputs
from floatwind.simulate.system import System


def static_equilibrium(
    model: Model, *, t: float = 0.0, tol: float = 1e-10, tower_modes: bool = False
) -> dict[str, np.ndarray]:
    """Solve qdd(q, qd = 0, t) = 0 for q, starting from the model's initial state (member 0).

    With ``tower_modes`` the modal coordinates of a flexible tower are unknowns too (their
    accelerations vanish as well: the tower's static deflection under the top's weight and the
    thrust); otherwise they stay at their initial values.

    Returns the equilibrium state ``q`` (6,) and the OpenFAST-style platform channels
    (``PtfmSurge`` .. ``PtfmYaw`` at the reference point) there; with ``tower_modes`` also
    ``modes`` (the modal coordinates, m).
    """
    system = System(model)
    y0 = system.initial_state()[:1].copy()
    y0[:, 6:12] = 0.0
    nj = system.tree.n_dofs
    nm = system.n_dof - nj if tower_modes else 0
    cols = list(range(6)) + list(range(12 + nj, 12 + nj + nm))  # positions solved for
    if nm:
        y0[:, 12 + system.n_dof + nj : 12 + 2 * system.n_dof] = 0.0  # the modes at rest
    scale = np.array([1.0, 1.0, 1.0, 1e-2, 1e-2, 1e-2] + [1e-1] * nm)

    def residuals(X):  # (k, 6 + nm) scaled positions -> scaled accelerations, one batch
        y = np.repeat(y0, X.shape[0], axis=0)
        y[:, cols] = X * scale
        y = system.with_rest_states(t, y)  # e.g. lumped-mass lines at rest at each pose
        acc = system.evaluate(t, y).acc
        if nm:
            return np.concatenate([acc.qdd[:, :6], acc.qdd_dof[:, nj:]], axis=1) / scale
        return acc.qdd[:, :6] / scale

    x = _newton(residuals, y0[0, cols] / scale, tol)
    if x is None:  # Newton did not converge: MINPACK's hybrid method from the start
        sol = optimize.root(lambda v: residuals(v[None])[0], y0[0, cols] / scale, method="hybr",
                            tol=tol)  # fmt: skip
        if not sol.success:
            raise SimulationError(
                f"static equilibrium not found: {sol.message}", time=t, state=sol.x[:6] * scale[:6]
            )
        x = sol.x
    y = y0.copy()
    y[0, cols] = x * scale
    y = system.with_rest_states(t, y)
    out = evaluate_outputs(model, system, system.evaluate(t, y))
    res = {
        k: float(out[k][0])
        for k in ("PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmRoll", "PtfmPitch", "PtfmYaw")
    }
    res["q"] = y[0, :6]
    if nm:
        res["modes"] = y[0, 12 + nj : 12 + nj + nm]
    return res


def _newton(residuals, x0: np.ndarray, tol: float, max_iter: int = 50):
    """Newton's method on ``residuals`` with its Jacobian by central differences (the 12
    perturbed states and the state itself in one batched evaluation) and step halving until the
    residual decreases. Returns the root, or None when it does not converge (MINPACK's hybrid
    method, which the caller falls back to, could stall on the thrust-loaded 3-body cases with
    catenary lines where this converges in ~6 steps)."""
    n = x0.size
    h = 1e-6
    x = np.array(x0, dtype=float)
    pert = np.concatenate([np.zeros((1, n)), h * np.eye(n), -h * np.eye(n)])
    for _ in range(max_iter):
        F = residuals(x[None] + pert)
        f = F[0]
        J = (F[1 : n + 1] - F[n + 1 :]).T / (2.0 * h)
        try:
            dx = np.linalg.solve(J, -f)
        except np.linalg.LinAlgError:
            return None
        if not np.all(np.isfinite(dx)):
            return None
        if np.max(np.abs(dx)) <= tol * (1.0 + np.max(np.abs(x))):
            return x + dx
        f0 = float(f @ f)
        alpha = 1.0
        for _half in range(30):
            try:
                ft = residuals((x + alpha * dx)[None])[0]
            except SimulationError:  # e.g. a mooring solve fails at a far trial pose
                ft = np.full(n, np.nan)
            if np.all(np.isfinite(ft)) and float(ft @ ft) < f0:
                break
            alpha *= 0.5
        else:
            return None
        x = x + alpha * dx
    return None
