"""Time integrators (know nothing about turbines).

First-order systems: :class:`RK4` (fixed step, batched) and :class:`ScipyAdaptive` (Dormand-Prince,
single runs), both under the :class:`Integrator` contract of :mod:`floatwind.integrate.base`;
second-order ones written as first-order: :class:`BossakNewmark` (SeaFEM, docs/bossak.md).
"""

from floatwind.integrate.base import (
    RK4,
    FixedStepIntegrator,
    Integrator,
    Interrupted,
    Recording,
    ScipyAdaptive,
)
from floatwind.integrate.bossak import BossakNewmark

__all__ = [
    "RK4",
    "BossakNewmark",
    "FixedStepIntegrator",
    "Integrator",
    "Interrupted",
    "Recording",
    "ScipyAdaptive",
]
