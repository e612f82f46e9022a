"""Time integrators (know nothing about turbines).

First-order systems: :class:`RK4` (fixed step, batched) and :class:`ScipyAdaptive` (Dormand-Prince,
single runs), both under the :class:`Integrator` contract of :mod:`floatwind.integrate.base`.
"""

from floatwind.integrate.base import (
    RK4,
    FixedStepIntegrator,
    Integrator,
    Interrupted,
    Recording,
    ScipyAdaptive,
)

__all__ = ["RK4", "FixedStepIntegrator", "Integrator", "Interrupted", "Recording", "ScipyAdaptive"]
