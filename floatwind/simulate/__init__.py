"""Running a model: initial conditions, stepping, recording, outputs (no physics formulas)."""

from floatwind.simulate.run import output_times, simulate, to_dataset
from floatwind.simulate.system import Evaluation, System

__all__ = ["Evaluation", "System", "output_times", "simulate", "to_dataset"]
