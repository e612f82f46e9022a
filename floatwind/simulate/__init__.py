"""Running a model: initial conditions, stepping, recording, outputs (no physics formulas).

:func:`simulate` looks up the scheme of the model's formulation and integrator
(:mod:`floatwind.simulate.schemes`: the stepping contract), which steps it; the outputs are
evaluated on the recorded states by :mod:`floatwind.simulate.outputs`.
"""

import importlib

from floatwind.simulate import schemes
from floatwind.simulate.outputs import output_times, to_dataset
from floatwind.simulate.run import simulate
from floatwind.simulate.system import Evaluation, System

# the schemes floatwind ships (schemes.SHIPPED), each imported, and so registered, when a model
# first asks for it (the scheme modules import floatwind.simulate.schemes, which cannot import
# them; run.py names no scheme)
schemes.IMPORT.update({
    "bossak": lambda: importlib.import_module("floatwind.simulate.bossak"),
    "euler313": lambda: importlib.import_module("floatwind.simulate.euler313"),
    "first_order": lambda: importlib.import_module("floatwind.simulate.first_order"),
    "lie": lambda: importlib.import_module("floatwind.simulate.lie"),
})  # fmt: skip

__all__ = ["Evaluation", "System", "output_times", "simulate", "to_dataset"]
