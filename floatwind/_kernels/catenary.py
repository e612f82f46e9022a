"""Compiled kernel of :class:`floatwind.loads.catenary.CatenaryMooring` (quasi-static catenary
lines, :mod:`floatwind.mooring.catenary`).

Per batch member and line: the fairlead position from the body pose, the anchor-fairlead
geometry in the line's vertical plane, :func:`floatwind.mooring.catenary.solve_line` (a fresh
solve from the same initial guess at every call: no state, the same operations whatever B), and
the line's pull at the fairlead added to the body's force and moment (MAP++ ``map.f90``: the load
on the vessel is minus the line's fairlead force, at the displaced fairlead).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from floatwind._kernels.loads import _add_point_force, _point
from floatwind.mooring.catenary import SOLVED, solve_line

__all__ = ["CATENARY_STATUS", "catenary_add", "catenary_kernel", "catenary_lines"]

#: status bit of a line solve that did not converge (floatwind._kernels.fused.NEEDS_PYTHON)
CATENARY_STATUS = 32

#: output columns of ``ch`` (B, L, 5)
CHANNELS = ("FAIRTEN", "ANCHTEN", "FAIRH", "FAIRV", "LAYLEN")


@njit(cache=True, fastmath=False)
def catenary_add(
    r_G, R_b2g, v_G, w_b, cm_b, body, fair_b, anchor, length, weight, inv_ea, cb, contact,
    force, moment, ch,
):  # fmt: skip
    """Adds the lines' loads to ``force``/``moment`` (B, N, 3) and writes ``ch`` (B, L, 5):
    fairlead tension, anchor tension, horizontal and vertical fairlead tension, laid length.
    Returns :data:`CATENARY_STATUS` if a line solve did not converge, else 0."""
    B = r_G.shape[0]
    nl = fair_b.shape[0]
    pos = np.empty(3)
    vel = np.empty(3)
    f = np.empty(3)
    sol = np.empty(6)
    for b in range(B):
        for i in range(nl):
            _point(
                r_G[b, body], R_b2g[b, body], v_G[b, body], w_b[b, body], cm_b[body], fair_b[i],
                pos, vel,
            )  # fmt: skip
            dx = pos[0] - anchor[i, 0]
            dy = pos[1] - anchor[i, 1]
            dz = pos[2] - anchor[i, 2]
            lh = math.sqrt(dx * dx + dy * dy)
            if lh > 0.0:
                ux, uy = dx / lh, dy / lh  # horizontal unit vector, anchor -> fairlead
            else:
                ux, uy = 0.0, 0.0
            if dz >= 0.0:  # fairlead above the anchor: the fairlead is the upper end
                st = solve_line(lh, dz, length[i], weight[i], inv_ea[i], cb[i], contact[i], sol)
                if st != SOLVED:
                    return 32
                hf, vf = sol[0], sol[1]  # the line pulls the fairlead towards the anchor, down
                f[0], f[1], f[2] = -hf * ux, -hf * uy, -vf
                ch[b, i, 0] = math.sqrt(hf * hf + vf * vf)
                ch[b, i, 1] = math.sqrt(sol[2] * sol[2] + sol[3] * sol[3])
                ch[b, i, 2] = hf
                ch[b, i, 3] = vf
                ch[b, i, 4] = sol[4]
            else:  # fairlead below its "anchor": the anchor is the upper end, no seabed contact
                st = solve_line(lh, -dz, length[i], weight[i], inv_ea[i], cb[i], False, sol)
                if st != SOLVED:
                    return 32
                ha, va = sol[2], sol[3]  # lower-end tensions: towards the upper end, up
                f[0], f[1], f[2] = -ha * ux, -ha * uy, va
                ch[b, i, 0] = math.sqrt(ha * ha + va * va)
                ch[b, i, 1] = math.sqrt(sol[0] * sol[0] + sol[1] * sol[1])
                ch[b, i, 2] = ha
                ch[b, i, 3] = -va
                ch[b, i, 4] = 0.0
            _add_point_force(r_G[b, body], pos, f, force[b, body], moment[b, body])
    return 0


@njit(cache=True, fastmath=False)
def catenary_lines(
    r_G, R_b2g, v_G, w_b, cm_b, body, fair_b, anchor, length, weight, inv_ea, cb, contact
):
    """:func:`catenary_add` on zero arrays: force, moment (B, N, 3), channels (B, L, 5), status."""
    B, N = r_G.shape[0], r_G.shape[1]
    force = np.zeros((B, N, 3))
    moment = np.zeros((B, N, 3))
    ch = np.zeros((B, fair_b.shape[0], 5))
    st = catenary_add(
        r_G, R_b2g, v_G, w_b, cm_b, body, fair_b, anchor, length, weight, inv_ea, cb, contact,
        force, moment, ch,
    )  # fmt: skip
    return force, moment, ch, st


@njit(cache=True, fastmath=False)
def catenary_kernel(p, t, kin, y, dy, force, moment, added):
    """:class:`floatwind.loads.catenary.CatenaryMooring` (the load contract's signature);
    32 if a line solve did not converge (the NumPy path raises the error)."""
    return catenary_add(
        kin.r_G, kin.R_b2g, kin.v_G, kin.w_b, kin.cm_b, p.body, p.fairlead_b, p.anchor_g,
        p.length, p.weight, p.inv_ea, p.friction, p.contact, force, moment, p.scratch,
    )  # fmt: skip
