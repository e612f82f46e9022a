"""Static equilibrium of a model: the base-body position where all accelerations vanish at rest."""

from __future__ import annotations

import numpy as np
from scipy import optimize

from floatwind.errors import SimulationError
from floatwind.model import Model
from floatwind.simulate.system import System


def static_equilibrium(
    model: Model, *, t: float = 0.0, tol: float = 1e-10
) -> dict[str, np.ndarray]:
    """Solve qdd(q, qd = 0, t) = 0 for q, starting from the model's initial state (member 0).

    Returns the equilibrium state ``q`` (6,) and the OpenFAST-style platform channels
    (``PtfmSurge`` .. ``PtfmYaw`` at the reference point) there.
    """
    from floatwind.simulate.run import evaluate_outputs

    system = System(model)
    y0 = system.initial_state()[:1].copy()
    y0[:, 6:12] = 0.0
    scale = np.array([1.0, 1.0, 1.0, 1e-2, 1e-2, 1e-2])

    def residual(x):
        y = y0.copy()
        y[0, :6] = x * scale
        return system.evaluate(t, y).acc.qdd[0] / scale

    sol = optimize.root(residual, y0[0, :6] / scale, method="hybr", tol=tol)
    if not sol.success:
        raise SimulationError(f"static equilibrium not found: {sol.message}", time=t, state=sol.x)
    y = y0.copy()
    y[0, :6] = sol.x * scale
    out = evaluate_outputs(model, system, system.evaluate(t, y))
    res = {
        k: float(out[k][0])
        for k in ("PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmRoll", "PtfmPitch", "PtfmYaw")
    }
    res["q"] = y[0, :6]
    return res
