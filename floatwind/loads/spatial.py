"""Spatial loads of the Lie-group integrator: moved to :mod:`floatwind.integrate.spatial_loads`
(they are the integrator's load protocol; issue 23: imports flow one way). This name stays for
existing scripts."""

from floatwind.integrate.spatial_loads import *  # noqa: F403
from floatwind.integrate.spatial_loads import __all__  # noqa: F401
