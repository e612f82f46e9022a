"""The slider-crank's gas force, eq. (94) of the technical note (Leble, seed 001, sec. 10.3,
Listing 5): an example-specific force element, plugged into floatwind's MBDM wing as a
:class:`floatwind.multibody.mbdm.forces.CoordinateForce`.

Importing this module registers the forces-file type ``gas force (94)``; floatwind finds it
through the entry point ``gas94`` of the group ``floatwind.mbdm_forces`` (pyproject.toml), so
``floatwind mbdm cases/mbdm/slider_crank_dynamic/mbdm`` runs it, compiled too.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from floatwind.multibody.mbdm.forces import CoordinateForce

__all__ = ["GasForce94", "gas_force_94"]


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def gas_force_94(x, v, p):
    """Eq. (94) with Listing 5's sign: -282857/(6 - x) + 62857 for 1.5 <= x <= 5,
    -110000 [1 - sin(2 pi (x - 5.25))] for 5 < x <= 5.5, while v > 0 (resisting while the body
    moves along +axis, nothing on the intake stroke); else 0. ``p``: no parameters."""
    if v <= 0.0:
        return 0.0
    if 1.5 <= x <= 5.0:
        return -282857.0 / (6.0 - x) + 62857.0
    if 5.0 < x <= 5.5:
        return -110000.0 * (1.0 - np.sin(2.0 * np.pi * (x - 5.25)))
    return 0.0


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def gas_switch_velocity(x, v, p):
    """Eq. (94) switches on and off with the velocity."""
    return v


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def gas_switch_valve(x, v, p):
    """Eq. (94) changes its slope at x = 5 m (the valve)."""
    return x - 5.0


class GasForce94(CoordinateForce, kind="gas force (94)"):
    """The gas force (94) on ``body`` along global ``axis`` (0, 1, 2), as Listing 5 applies it
    (``FA[...] += F``); its switches: the velocity (on/off) and x = 5 m (slope jump)."""

    law = gas_force_94
    switch_laws = (gas_switch_velocity, gas_switch_valve)
