"""Compiled ServoDyn generator and brake (issue 36; :class:`floatwind.loads.servo.ServoDyn`).

ServoDyn v5 (``modules/servodyn/src/ServoDyn.f90``) as the load's one implementation:

* :func:`generator_torque`: ``CalculateTorque`` for the built-in laws, HSS side, SI
  (the parameters of ``SrvD_SetParameters``, formed by the load):

  - simple induction generator (GenModel = 1): slip = w - SIG_SySp, torque
    ``sign(slip) SIG_POTq`` where ``|slip| > SIG_POSl``, else ``slip SIG_Slop``;
  - Thevenin-equivalent induction generator (GenModel = 2): torque
    ``A0 VLL^2 s / (C0 + C1 s + C2 s^2)`` with the slip ratio ``s = (w - SySp) / SySp``, the
    electrical power the mechanical power less the stator and rotor copper losses of the
    equivalent circuit's currents;
  - simple variable-speed control (VSContrl = 1): ``VS_RtTq`` at or above ``VS_RtGnSp``,
    ``VS_Rgn2K w^2`` below ``VS_TrGnSp``, ``VS_Slope (w - VS_SySp)`` between;

  the electrical power (``CalculateElecPwr``: times GenEff generating, divided by it motoring;
  the variable-speed law always times GenEff), and with ``GenTiStp = False`` no torque where
  that power is <= 0;
* :func:`servo_after_step`: ``Torque_UpdateStates`` once per accepted step: the generator
  comes on line at TimGenOn (GenTiStr) or when the HSS speed reaches SpdGenOn, and goes off for
  good at TimGenOf (GenTiStp) or when its power is <= 0; at t0 it is on line only for a timed
  start at TimGenOn <= 0 (``SrvD_Init``);
* :func:`servo_kernel`: ``Torque_CalcOutput``: the generator torque while on line, the HSS
  brake (HSSBrMode = 1: a linear ramp from THSSBrDp over HSSBrDT to HSSBrTqF, resisting the
  motion as ElastoDyn applies it), acting through the gearbox on the rotor: the torque
  ``GBRatio (GenTq + HSSBrTq)`` about the shaft, minus on the rotor body and plus on the
  nacelle body (the generator's stator), so that a rotor on a joint DOF obeys
  ``(J_rotor + GBRatio^2 J_gen) dW/dt = Q_aero - GBRatio (GenTq + HSSBrTq)``.

The rotor speed is the rotor body's angular velocity relative to the nacelle body about the
shaft joint's axis (the joint rate); the HSS speed is GBRatio times it. Every member goes
through the same operations whatever B.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from floatwind._kernels.bemt import equal_real

__all__ = [
    "LAW_INDUCTION",
    "LAW_NONE",
    "LAW_THEVENIN",
    "LAW_VARIABLE_SPEED",
    "N_OUT",
    "ServoMemory",
    "generator_torque",
    "servo_after_step",
    "servo_kernel",
    "servo_outputs",
]

#: generator torque laws (``Params.law``)
LAW_NONE = 0
LAW_INDUCTION = 1
LAW_THEVENIN = 2
LAW_VARIABLE_SPEED = 3

#: columns of :func:`servo_outputs`
GEN_TQ, GEN_PWR, GEN_SPEED, HSS_BR_TQ, ROT_SPEED, LSS_TQ = 0, 1, 2, 3, 4, 5
N_OUT = 6


class ServoMemory(NamedTuple):
    """The generator's on-line state after each accepted step (ServoDyn's OtherState
    ``GenOnLine``/``Off4Good``), one row per step (``k = (t - t0) / dt``), batch axis second."""

    online: np.ndarray  # (n + 1, B) int64
    off: np.ndarray  # (n + 1, B) int64: off for good
    t0: float
    dt: float
    last: np.ndarray  # (1,) int64: last step recorded (-1: none, statics)


@njit(cache=True, fastmath=False)
def generator_torque(law, c, eff, w):
    """(GenTrq, ElecPwr) of the law ``law`` with coefficients ``c`` at HSS speed ``w`` (rad/s)
    while the generator is on line (ServoDyn ``CalculateTorque``, without the GenTiStp cut)."""
    if law == LAW_INDUCTION:
        # c: SIG_SySp, SIG_POSl, SIG_POTq, SIG_Slop
        slip = w - c[0]
        if abs(slip) > c[1]:
            tq = c[2] if slip >= 0.0 else -c[2]
        else:
            tq = slip * c[3]
        return tq, _elec_pwr(tq, w, eff)
    if law == LAW_THEVENIN:
        # c: TEC_SySp, TEC_A0, TEC_VLL, TEC_C0, TEC_C1, TEC_C2, TEC_Re1, TEC_Xe1, TEC_RLR,
        #    TEC_V1a, TEC_MR, TEC_SRes, TEC_RRes
        s = (w - c[0]) / c[0]
        tq = c[1] * c[2] ** 2 * s / (c[3] + c[4] * s + c[5] * s * s)
        den = (s * c[6] - c[12]) ** 2 + (s * (c[7] + c[8])) ** 2
        i2r = c[9] * s * (s * c[6] - c[12]) / den
        i2i = -c[9] * s * s * (c[7] + c[8]) / den
        i1r = i2r
        i1i = i2i - c[9] / c[10]
        loss_s = 3.0 * (i1r * i1r + i1i * i1i) * c[11]
        loss_r = 3.0 * (i2r * i2r + i2i * i2i) * c[12]
        return tq, tq * w - loss_s - loss_r
    if law == LAW_VARIABLE_SPEED:
        # c: VS_RtGnSp, VS_RtTq, VS_Rgn2K, VS_TrGnSp, VS_Slope, VS_SySp
        if w >= c[0]:
            tq = c[1]
        elif w < c[3]:
            tq = c[2] * w * w
        else:
            tq = c[4] * (w - c[5])
        return tq, tq * w * eff
    return 0.0, 0.0


@njit(cache=True, fastmath=False)
def _elec_pwr(tq, w, eff):
    # ServoDyn CalculateElecPwr: efficiency subtractive generating, additive motoring
    if tq >= 0.0:
        return tq * w * eff
    return tq * w / eff


@njit(cache=True, fastmath=False)
def _torque_on_line(p, w):
    """CalculateTorque with the GenTiStp = False cut: no torque where the power is <= 0."""
    tq, pwr = generator_torque(p.law, p.coef, p.efficiency, w)
    if not p.stop_timed and pwr <= 0.0:
        return 0.0, 0.0
    return tq, pwr


@njit(cache=True, fastmath=False)
def _rotor_speed(p, kin, b):
    """The rotor's spin rate about the shaft joint's axis relative to the nacelle (rad/s)."""
    R = kin.R_b2g[b, p.rotor]
    s = 0.0
    for i in range(3):
        a = R[i, 0] * p.axis_b[0] + R[i, 1] * p.axis_b[1] + R[i, 2] * p.axis_b[2]
        s += (kin.w_b[b, p.rotor, i] - kin.w_b[b, p.nacelle, i]) * a
    return s


@njit(cache=True, fastmath=False)
def _brake_fraction(p, t):
    # ServoDyn Torque_CalcOutput, HSSBrMode = 1: linear ramp from THSSBrDp over HSSBrDT
    if p.brake_mode != 1 or t <= p.brake_time:
        return 0.0
    if t < p.brake_time + p.brake_ramp:
        f = (t - p.brake_time) / p.brake_ramp
    else:
        f = 1.0
    return max(min(f, 1.0), 0.0)


@njit(cache=True, fastmath=False)
def _online_at_start(p):
    # SrvD_Init: on line at t0 only for a timed start at TimGenOn <= 0
    return 1 if (p.start_timed and p.start_time <= 0.0) else 0


@njit(cache=True, fastmath=False)
def servo_outputs(p, t, kin):
    """(B, N_OUT): GenTq, GenPwr, GenSpeed (HSS, rad/s), HSSBrTq (signed, resisting the
    motion), the rotor speed and the low-speed-shaft torque GBRatio (GenTq + HSSBrTq) at ``t``;
    the on-line state is the one recorded at the start of the step holding ``t``."""
    m = p.memory
    B = kin.w_b.shape[0]
    out = np.empty((B, N_OUT))
    n = -1
    if m.last[0] >= 0:
        n = min(int(math.floor((t - m.t0) / m.dt + 1e-9)), m.last[0])
        n = max(n, 0)
    frac = _brake_fraction(p, t)
    for b in range(B):
        om = _rotor_speed(p, kin, b)
        w = p.gb_ratio * om
        if n >= 0:
            on = m.online[n, b] == 1 and m.off[n, b] == 0
        else:
            on = _online_at_start(p) == 1
        tq, pwr = (0.0, 0.0)
        if on:
            tq, pwr = _torque_on_line(p, w)
        br = frac * p.brake_torque
        if w > 0.0:
            hb = br
        elif w < 0.0:
            hb = -br
        else:
            hb = 0.0
        out[b, GEN_TQ] = tq
        out[b, GEN_PWR] = pwr
        out[b, GEN_SPEED] = w
        out[b, HSS_BR_TQ] = hb
        out[b, ROT_SPEED] = om
        out[b, LSS_TQ] = p.gb_ratio * (tq + hb)
    return out


@njit(cache=True, fastmath=False)
def servo_kernel(p, t, kin, y, dy, force, moment, added):
    """:class:`floatwind.loads.servo.ServoDyn` (the load contract's signature): minus the
    low-speed-shaft torque on the rotor body, plus on the nacelle body, about the shaft."""
    out = servo_outputs(p, t, kin)
    for b in range(force.shape[0]):
        R = kin.R_b2g[b, p.rotor]
        q = out[b, LSS_TQ]
        for i in range(3):
            a = R[i, 0] * p.axis_b[0] + R[i, 1] * p.axis_b[1] + R[i, 2] * p.axis_b[2]
            moment[b, p.rotor, i] -= q * a
            moment[b, p.nacelle, i] += q * a
    return 0


@njit(cache=True, fastmath=False)
def _reached(x, limit):
    # ServoDyn: x > limit .OR. EqualRealNos(x, limit); an infinite limit (never) is not reached
    return x > limit or (math.isfinite(limit) and equal_real(x, limit))


@njit(cache=True, fastmath=False)
def servo_after_step(p, t, kin, y):
    """ServoDyn ``Torque_UpdateStates`` at the accepted step ending at ``t``: the on-line state
    from the previous step's (``SrvD_Init``'s at t0) and the HSS speed at ``t``."""
    m = p.memory
    k = int(round((t - m.t0) / m.dt))
    B = kin.w_b.shape[0]
    for b in range(B):
        if k == 0:
            m.online[0, b] = _online_at_start(p)
            m.off[0, b] = 0
            continue
        on = m.online[k - 1, b]
        off = m.off[k - 1, b]
        w = p.gb_ratio * _rotor_speed(p, kin, b)
        if off == 0:
            if on == 1:
                if p.stop_timed and _reached(t, p.stop_time):
                    off = 1
            elif p.start_timed:
                if _reached(t, p.start_time):
                    on = 1
            elif _reached(w, p.start_speed):
                on = 1
        if on == 1 and off == 0 and not p.stop_timed:
            _tq, pwr = generator_torque(p.law, p.coef, p.efficiency, w)
            if pwr <= 0.0:
                off = 1
        m.online[k, b] = on
        m.off[k, b] = off
    m.last[0] = k
