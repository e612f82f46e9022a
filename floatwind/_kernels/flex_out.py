"""The flexible tower's coupled solve at the output rows (issues 37 and 41): the accelerations
of the output channels (``floatwind.simulate.system.System.evaluate_many``) from the compiled
stage of the stepping, :func:`floatwind._kernels.flex.flex_state` then
:func:`floatwind._kernels.flex.flex_dynamics`, on every row of an output block in one call.

The rows are (time, member) pairs stacked on the batch axis; the tree's relative kinematics
are given per row (``per_member``: the NumPy path's
:func:`floatwind.multibody.mcm.relative_kinematics_many` at each row's time and joint states,
positions relative to the base body's CM, which is what ``flex_state`` reads of its table).
The NumPy solve (``FlexTower.forward_dynamics``) remains the reference; the two agree to
rounding (tests/test_flex_tower.py). Every row goes through the same operations whatever the
block (bit-identical alone and in a batch).
"""

from __future__ import annotations

import numpy as np

from floatwind._kernels import flex as kfx
from floatwind.jit import njit

__all__ = ["flex_rows"]


@njit(cache=True, fastmath=False)
def flex_rows(fp, ip, tab, y, tau, fm, A):
    """dy/dt (B, n_y) of the rows ``y`` (B, n_y): the base accelerations in columns 6:12 and
    the joint and modal accelerations in the last nf columns (``flex_dynamics``). ``tab`` the
    tree's relative kinematics of each row, undeflected: (rho, drho, ddrho, R_c2s, w_rel,
    dw_rel) (B, N, ...); ``tau`` (B, nf) the joint drives' torques in the first nj columns (the
    modal forces are written by ``flex_dynamics``); ``fm`` (2, B, N, 3) the bodies' forces and
    moments (about their CM, inertial); ``A`` (B, N, 6, 6) their added mass, or (0, N, 6, 6)
    for none."""
    trho, tdrho, tddrho, tR, tw, tdw = tab
    X = kfx.flex_state(fp, ip, trho, tdrho, tddrho, tR, tw, tdw, True, 0, y)[0]
    out = np.empty_like(y)
    coupled = A.shape[0] > 0
    kfx.flex_dynamics(fp, ip, y, X, tau, fm[0], fm[1], A, coupled, out)
    return out
