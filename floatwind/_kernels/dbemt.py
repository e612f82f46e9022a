"""Compiled dynamic inflow of the blade-element rotor: AeroDyn v5's DBEMT (``DBEMT_Mod`` 1, 2).

The momentum balance of BEM is reached instantly; a real wake takes time to respond. DBEMT
(AeroDyn ``DBEMT.f90``; Branlard, Jonkman, Pirrung, Dixon, Jonkman (2022), "Dynamic inflow and
unsteady aerodynamics models for modal and stability analyses in OpenFAST", J. Phys.: Conf.
Ser. 2265 032044, eq. 1, 6, 7; Øye's dynamic inflow model, Snel & Schepers (1995), ECN-C--94-107)
filters the quasi-steady induced velocity of every node, per component c (axial, tangential),

* ``vs_ax = -a Vx``, ``vs_tn = a' Vy`` from the quasi-steady inductions of the solve
  (``BEMT.f90 SetInputs_For_DBEMT``, eq. 38 of AeroDyn's DBEMT theory),
* through Øye's two first-order filters ``tau1 dv1/dt + v1 = vs + k tau1 dvs/dt`` and
  ``tau2 dv/dt + v = v1`` (k = 0.6, AeroDyn's ``k_0ye``).

With the reduced intermediate velocity ``w = v1 - k vs`` (AeroDyn's continuous form, DBEMT_Mod 3,
eq. 6-7 of Branlard et al.) the derivative of the input drops out:

    dw/dt = ((1 - k) vs - w) / tau1,      dv/dt = (w + k vs - v) / tau2,

which holds for a time-varying ``tau1`` too. ``w`` and ``v`` of both components are the load's
continuous states (four per node, integrated with the bodies by the run's integrator; AeroDyn's
DBEMT_Mod 1 and 2 advance the same equations by their exact solution over one step with a
linear input, ``DBEMT_UpdateStates``: the two agree to the integrator's order).

Time constants (``ComputeTau1``, ``ComputeTau2``):

* ``DBEMT_Mod = 1`` (and 3, AeroDyn's continuous form of the same model, whose equations these
  are): ``tau1 = tau1_const``;
* ``DBEMT_Mod = 2``: ``tau1 = min(1.1 R / ((1 - 1.3 min(a_disk, 0.5)) max(Un, 0.1)), 100 s)``,
  with ``a_disk`` the mean quasi-steady axial induction over all nodes, ``Un`` the
  disk-averaged relative wind along the shaft and ``R`` the largest ``r_local`` now;
* ``tau2 = tau1 (0.39 - 0.26 (r/R)^2)`` per node, ``r/R`` the node's ``r_local`` over the
  largest, at initialisation for DBEMT_Mod 1 and 3 and now for DBEMT_Mod 2.

The dynamic inductions ``a = -v_ax / Vx`` and ``a' = v_tn / Vy`` (0 where the velocity is 0),
limited as the quasi-steady ones (``calculate_Inductions_from_DBEMT``), replace the
quasi-steady ones except at the nodes with fixed inductions (tip and hub with an active loss);
the skewed-wake correction and the low-TSR blend follow (``BEMT_CalcOutput_Inductions``). At
the start the states are the quasi-steady values (``DBEMT_InitStates``: ``w = (1 - k) vs``,
``v = vs``), so a constant inflow stays exactly at the quasi-steady BEM solution.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from floatwind._kernels import bemt as kb
from floatwind.jit import njit

__all__ = ["N_NODE_STATES", "DbemtParams", "dbemt_apply", "dbemt_params", "dbemt_tau1"]

#: states per node: reduced intermediate and filtered induced velocity, axial then tangential
W_AX, V_AX, W_TN, V_TN, N_NODE_STATES = range(5)
#: AeroDyn DBEMT k_0ye (Øye's constant)
K_0YE = 0.6
#: ComputeTau1: limits of the rotor-averaged axial induction and axial speed, and of tau1
_MAX_AXIND = 0.5
_MIN_UN = 0.1
_MAX_TAU1 = 100.0


class DbemtParams(NamedTuple):
    """The dynamic inflow of one rotor: ``mode`` (0: none, quasi-steady; 1 or 3: constant
    tau1; 2: tau1 from the rotor), ``tau1_const`` (s, modes 1, 3), ``span_ratio`` (nb, nn) each node's
    r/R at initialisation (mode 1), ``k0`` (AeroDyn's k_0ye), ``init``: set the states from the
    quasi-steady inductions before using them (a run's initial states)."""

    mode: int
    tau1_const: float
    span_ratio: np.ndarray
    k0: float
    init: bool


def dbemt_params(mode: int, tau1_const: float, span_ratio, init: bool = False) -> DbemtParams:
    """A :class:`DbemtParams` (``span_ratio`` (nb, nn))."""
    return DbemtParams(mode=int(mode), tau1_const=float(tau1_const),
                       span_ratio=np.ascontiguousarray(span_ratio, dtype=np.float64), k0=K_0YE,
                       init=bool(init))  # fmt: skip


@njit(cache=True, fastmath=False)
def dbemt_tau1(p, a_disk, un_disk, r_disk):
    """DBEMT.f90 ``ComputeTau1``: ``tau1_const`` (mode 1), else Øye's
    ``1.1 R / ((1 - 1.3 a) Un)`` with a <= 0.5, Un >= 0.1 m/s, at most 100 s (Branlard et al.
    2022, eq. 1)."""
    if p.mode != 2:
        return p.tau1_const
    a = min(a_disk, _MAX_AXIND)
    un = max(un_disk, _MIN_UN)
    return min(1.1 * r_disk / ((1.0 - 1.3 * a) * un), _MAX_TAU1)


@njit(cache=True, fastmath=False)
def dbemt_apply(opt, sec, p, inflow, un_disk, ind, y, dy, b, s0):
    """One member's dynamic inflow (module docstring): the quasi-steady inductions ``ind``
    (nb, nn, 2) in, the filtered ones out; the rates of the states ``y[b, s0 + 4 (k nn + j) +
    c]`` written to the same columns of ``dy`` (with ``p.init`` the states are first set to
    the quasi-steady values). ``un_disk``: the disk-averaged relative wind along the shaft.
    Returns tau1 (s)."""
    vx, vy, r_local = inflow.vx, inflow.vy, inflow.r_local
    z_local, z_hub = sec.z_local, sec.z_hub
    nb, nn = vx.shape[0], vx.shape[1]
    k0 = p.k0
    r_disk = 0.0
    a_sum = 0.0
    for k in range(nb):
        for j in range(nn):
            r_disk = max(r_disk, r_local[k, j])
            a_sum += ind[k, j, 0]
    tau1 = dbemt_tau1(p, a_sum / (nb * nn), un_disk, r_disk)
    for k in range(nb):
        z_tip = z_local[k, nn - 1]
        for j in range(nn):
            i = s0 + N_NODE_STATES * (k * nn + j)
            vs_ax = -ind[k, j, 0] * vx[k, j]  # SetInputs_For_DBEMT
            vs_tn = ind[k, j, 1] * vy[k, j]
            if p.init:  # DBEMT_InitStates
                y[b, i + W_AX] = (1.0 - k0) * vs_ax
                y[b, i + V_AX] = vs_ax
                y[b, i + W_TN] = (1.0 - k0) * vs_tn
                y[b, i + V_TN] = vs_tn
            if p.mode != 2:
                s = p.span_ratio[k, j]
            else:
                s = r_local[k, j] / r_disk if r_disk > 0.0 else 0.0
            tau2 = (0.39 - 0.26 * s * s) * tau1  # ComputeTau2
            dy[b, i + W_AX] = ((1.0 - k0) * vs_ax - y[b, i + W_AX]) / tau1
            dy[b, i + V_AX] = (y[b, i + W_AX] + k0 * vs_ax - y[b, i + V_AX]) / tau2
            dy[b, i + W_TN] = ((1.0 - k0) * vs_tn - y[b, i + W_TN]) / tau1
            dy[b, i + V_TN] = (y[b, i + W_TN] + k0 * vs_tn - y[b, i + V_TN]) / tau2
            if opt.use_induction:
                tip_c, hub_c = kb._loss_constants(opt.n_blades, z_local[k, j], z_hub[k], z_tip)
                if kb._is_fixed(opt, tip_c, hub_c):
                    continue
            # calculate_Inductions_from_DBEMT, limitInductionFactors
            a = 0.0 if kb.equal_real(vx[k, j], 0.0) else -y[b, i + V_AX] / vx[k, j]
            ap = 0.0 if kb.equal_real(vy[k, j], 0.0) else y[b, i + V_TN] / vy[k, j]
            ind[k, j, 0] = min(max(a, kb._A_MIN), kb._A_MAX)
            ind[k, j, 1] = min(max(ap, kb._AP_MIN), kb._AP_MAX)
    return tau1
