"""The case-file validator moved to :mod:`floatwind.validate` (a neutral lowest-level module that
every layer may use: issue 23); this name stays for existing imports."""

from floatwind.validate import *  # noqa: F403
from floatwind.validate import __all__, suggest  # noqa: F401
