"""Running a model: initial conditions, stepping, recording, outputs (no physics formulas).

:func:`simulate` looks up the scheme of the model's formulation and integrator
(:mod:`floatwind.simulate.schemes`: the stepping contract), which steps it; the outputs are
evaluated on the recorded states by :mod:`floatwind.simulate.outputs`.
"""

from floatwind.simulate.outputs import output_times, to_dataset
from floatwind.simulate.run import simulate
from floatwind.simulate.system import Evaluation, System

__all__ = ["Evaluation", "System", "output_times", "simulate", "to_dataset"]
