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
* :func:`blade_pitch`: ``Pitch_CalcOutput``: the blade-pitch command (ElastoDyn's blade pitch:
  no pitch actuator), the initial pitch or a controller's demand held over the step, overridden
  by the timed maneuvers (``Pitch_UpdateStates`` begins one at the first step at or after
  TPitManS, from the pitch then, at PitManRat toward BlPitchF); a rotor load reads it through
  the shared step memory (``BemRotor`` ``pitch_from``);
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

from floatwind._kernels import bladed as kbl
from floatwind._kernels.bemt import equal_real
from floatwind._kernels.bladed import bladed_controller, empty_dll_state
from floatwind._kernels.status import CONTROLLER_FAILED
from floatwind.jit import njit

__all__ = [
    "LAW_CONTROLLER",
    "LAW_INDUCTION",
    "LAW_NONE",
    "LAW_THEVENIN",
    "LAW_VARIABLE_SPEED",
    "N_OUT",
    "ServoMemory",
    "aero_torque",
    "balance_wind",
    "baseline_controller",
    "blade_pitch",
    "blade_pitches",
    "generator_torque",
    "min_pitch",
    "placeholder_memory",
    "power_coefficient",
    "servo_after_step",
    "servo_kernel",
    "servo_outputs",
    "step_index",
]

#: generator torque laws (``Params.law``)
LAW_NONE = 0
LAW_INDUCTION = 1
LAW_THEVENIN = 2
LAW_VARIABLE_SPEED = 3

LAW_CONTROLLER = 4  # the baseline controller's torque demand, held between its calls

#: the baseline controller's parameters (``Params.ctrl``, SI, HSS side; Jonkman 2009 DISCON),
#: then the schedules (ROSCO's, Abbas et al. 2022): the number of entries of the pitch-loop gain
#: schedule (0: Jonkman's GK), of the floating-feedback schedule (0: the one gain K_FL_KP) and of
#: the operating-point table (0: none), the operating point's low-pass corner (rad/s), the
#: region-3 torque's speed feedback gain (N m per rad/s of HSS speed; 0: none), the floating
#: feedback's second-order low-pass on the hub velocity (natural frequency, rad/s; 0: none, and
#: damping), then each table's columns, N_TAB entries each (K_GS_PITCH, K_GS_KP, K_GS_KI: pitch (rad) -> KP
#: (s), KI; K_FL_WIND, K_FL_GAIN: wind (m/s) -> Fl_Kp (s); K_OP_PITCH, K_OP_WIND: the steady
#: pitch of rated power (rad) -> its wind (m/s))
(K_CORNER, K_PC_KP, K_PC_KI, K_PC_KK, K_PC_MINPIT, K_PC_MAXPIT, K_PC_MAXRAT, K_PC_REFSPD,
 K_VS_CTINSP, K_VS_RGN2SP, K_VS_TRGNSP, K_VS_RTGNSP, K_VS_SYSP, K_VS_RGN2K, K_VS_SLOPE15,
 K_VS_SLOPE25, K_VS_RTPWR, K_VS_MAXTQ, K_VS_MAXRAT, K_VS_RGN3MP, K_FL_KP, K_REGION3,
 K_GS_N, K_FL_N, K_OP_N, K_OP_CORNER, K_VS_R3KP, K_FL_LPF_W, K_FL_LPF_Z,
 K_WE_GAMMA, K_WE_R, K_WE_RHO, K_WE_J, K_WE_N, K_WE_NTSR, K_WE_NPIT, K_PS_N,
 K_TABLES) = range(38)  # fmt: skip
N_TAB = 32  #: entries of each schedule table at most
(K_GS_PITCH, K_GS_KP, K_GS_KI, K_FL_WIND, K_FL_GAIN, K_OP_PITCH, K_OP_WIND, K_PS_WIND,
 K_PS_PITCH) = (K_TABLES + i * N_TAB for i in range(9))  # fmt: skip
#: the torque-balance wind estimator's power-coefficient table (ROSCO's Cp_Ct_Cq file): the
#: tip-speed ratios (N_WE_TSR at most), the pitch angles (rad, N_WE_PIT at most) and C_P, one
#: row of K_WE_NPIT entries per tip-speed ratio
N_WE_TSR, N_WE_PIT = 32, 48
K_WE_TSR = K_TABLES + 9 * N_TAB
K_WE_PIT = K_WE_TSR + N_WE_TSR
K_WE_CP = K_WE_PIT + N_WE_PIT
N_CTRL_PAR = K_WE_CP + N_WE_TSR * N_WE_PIT
#: the controller's states (``ServoMemory.ctrl`` columns): the filtered generator speed, the
#: speed error's integral (Jonkman's GK law: of the error, rad/s s; a gain schedule: of KI times
#: the error, rad, ROSCO's PI form), the last torque and call time, the initialised flag, the
#: torque demand, the low-passed pitch command of the operating point and its estimated wind,
#: the floating feedback's low-pass (its last two inputs and outputs)
(C_SPEEDF, C_INTERR, C_LASTTQ, C_LASTT, C_INIT, C_GENTQ, C_PITF, C_WIND, C_FX1, C_FX2, C_FY1,
 C_FY2, C_WEVI, C_WEV, C_PSMIN, N_CTRL) = range(16)  # fmt: skip
#: (C_WEVI, C_WEV: the torque-balance estimator's integral state and its unfiltered estimate;
#: C_PSMIN: the peak-shaving minimum pitch of the last call; C_WIND is then the estimate
#: low-passed at ``op_corner_freq``)

#: columns of ``ServoMemory.sense``: the rotor's blade-root moments about the coned root axes
#: (RootMxc, RootMyc, blades 1-3: aerodynamic, plus the blades' weight and inertia when the rotor
#: knows their mass), its aerodynamic moment about the apex
#: (inertial), blade 1's coned pitch axis (inertial), the undisturbed wind at the apex, a flag
#: (1: written by a rotor at this step); the tower-top point's velocity and the nacelle's angular
#: velocity (inertial) at the previous step, a flag (1: there is a previous step); the rotor
#: body's angular velocity and CM velocity (inertial) at the previous step (the blades' inertial
#: loads, ``floatwind._kernels.rotor.blade_root_structure``); the rotor's total aerodynamic
#: force and its apex (inertial: the aerodynamic moment about any point); then, from column
#: N_SENSE, 6 per row of ``Params.mass_rows`` (the CM velocity and angular velocity of each
#: mass above the yaw bearing at the previous step: the hub and yaw-bearing moments' inertia)
(S_RMXC, S_RMYC, S_MT, S_B1, S_WIND, S_ROTOR, S_VTT, S_WN, S_PREV, S_WR, S_VR, S_FT, S_APEX,
 N_SENSE) = (0, 3, 6, 9, 12, 15, 16, 19, 22, 23, 26, 29, 32, 35)  # fmt: skip

#: columns of :func:`servo_outputs`
GEN_TQ, GEN_PWR, GEN_SPEED, HSS_BR_TQ, ROT_SPEED, LSS_TQ = 0, 1, 2, 3, 4, 5
N_OUT = 6


class ServoMemory(NamedTuple):
    """ServoDyn's states after each accepted step, one row per step (``k = (t - t0) / dt``),
    batch axis second: the generator's on-line state (OtherState ``GenOnLine``/``Off4Good``),
    the blade-pitch commands held until the next step (BlPitchCom: the initial pitch, or a
    controller's demand) and the override pitch maneuvers (``BegPitMan``, ``BlPitchI``,
    ``TPitManE``), whose parameters it carries so that a rotor load reading the pitch needs
    nothing else (:func:`blade_pitch`)."""

    online: np.ndarray  # (n + 1, B) int64
    off: np.ndarray  # (n + 1, B) int64: off for good
    pitch_cmd: np.ndarray  # (n + 1, B, nb) rad: the standard pitch command held from step k
    man_on: np.ndarray  # (n + 1, B, nb) int64: the maneuver has begun
    man_pitch0: np.ndarray  # (n + 1, B, nb) rad: the pitch when it began (BlPitchI)
    man_end: np.ndarray  # (n + 1, B, nb) s: its end time (TPitManE)
    ctrl: np.ndarray  # (n + 1, B, N_CTRL) the baseline controller's states (columns C_*)
    pitch0: np.ndarray  # (nb,) rad: the initial pitch (BlPitchInit)
    man_start: np.ndarray  # (nb,) s: TPitManS (inf: none)
    man_rate: np.ndarray  # (nb,) rad/s: PitManRat (magnitude)
    man_final: np.ndarray  # (nb,) rad: BlPitchF
    t0: float
    dt: float
    last: np.ndarray  # (1,) int64: last step recorded (-1: none, statics)
    dll: object  # floatwind._kernels.bladed.DllState: a controller library's state (or empty)
    #: a controller library's measurements at the accepted step (columns S_*): the rotor's
    #: (written by the bem_rotor reading this memory, ``rotor_after_step``) and the servodyn
    #: load's own (the tower-top velocity of the previous step, for the accelerations)
    sense: np.ndarray  # (B, N_SENSE)
    sense_every: np.ndarray  # (1,) int64: the rotor measures every n steps (0: never)


def placeholder_memory() -> ServoMemory:
    """A memory commanding no blade and recording nothing (the typed stand-in of a load that
    reads no servodyn memory)."""
    e = np.zeros((1, 1, 0))
    return ServoMemory(online=np.zeros((1, 1), dtype=np.int64),
                       off=np.zeros((1, 1), dtype=np.int64), pitch_cmd=e,
                       man_on=np.zeros((1, 1, 0), dtype=np.int64), man_pitch0=e, man_end=e,
                       ctrl=np.zeros((1, 1, N_CTRL)), pitch0=np.zeros(0), man_start=np.zeros(0),
                       man_rate=np.zeros(0), man_final=np.zeros(0), t0=0.0, dt=1.0,
                       last=np.full(1, -1, dtype=np.int64), dll=empty_dll_state(),
                       sense=np.zeros((1, N_SENSE)),
                       sense_every=np.zeros(1, dtype=np.int64))  # fmt: skip


@njit(cache=True, fastmath=False)
def step_index(m, t):
    """The row of ``m`` holding ``t``: the step that starts at or before it (the last one
    recorded at most); -1 when nothing is recorded (statics: the state at t0)."""
    if m.last[0] < 0:
        return -1
    n = min(int(math.floor((t - m.t0) / m.dt + 1e-9)), m.last[0])
    return max(n, 0)


@njit(cache=True, fastmath=False)
def blade_pitch(m, t, b, k):
    """Blade ``k``'s pitch (rad) of member ``b`` at ``t`` (ServoDyn ``Pitch_CalcOutput``): the
    override maneuver's ramp from BlPitchI at PitManRat toward BlPitchF once begun, else the held
    standard command; the initial pitch when nothing is recorded."""
    n = step_index(m, t)
    if n < 0:
        return m.pitch0[k]
    if m.man_on[n, b, k] == 1:
        if t >= m.man_end[n, b, k]:
            return m.man_final[k]
        p0 = m.man_pitch0[n, b, k]
        rate = m.man_rate[k] if m.man_final[k] >= p0 else -m.man_rate[k]
        return p0 + rate * (t - m.man_start[k])
    return m.pitch_cmd[n, b, k]


@njit(cache=True, fastmath=False)
def blade_pitches(m, t, B):
    """(B, nb): :func:`blade_pitch` of every member and blade."""
    nb = m.pitch0.shape[0]
    out = np.empty((B, nb))
    for b in range(B):
        for k in range(nb):
            out[b, k] = blade_pitch(m, t, b, k)
    return out


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
def _torque_on_line(p, w, n, b):
    """CalculateTorque at HSS speed ``w`` (the controller's demand of row ``n`` for member ``b``
    under LAW_CONTROLLER, as ServoDyn takes a DLL's), with the GenTiStp = False cut: no torque
    where the power is <= 0."""
    if p.law == LAW_CONTROLLER:
        tq = p.memory.ctrl[n, b, C_GENTQ] if n >= 0 else 0.0
        pwr = _elec_pwr(tq, w, p.efficiency)
    else:
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
    n = step_index(m, t)
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
            tq, pwr = _torque_on_line(p, w, n, b)
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
    low-speed-shaft torque on the rotor body, plus on the nacelle body, about the shaft. After a
    controller library's failure (:mod:`floatwind._kernels.bladed`) it returns CONTROLLER_FAILED
    past the failing call's time: the step goes to the NumPy path, which stops the run with the
    controller's message (``ServoDyn.check_controller``)."""
    d = p.memory.dll
    if d.failed[0] >= 0 and t > d.fail_time[0]:
        return CONTROLLER_FAILED
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
def _nacelle_fa_velocity(p, kin, b):
    """The rotor's (hub's) CM velocity along the horizontal projection of the shaft (fore-aft,
    m/s; the spin does not move the CM): the floating feedback's measurement (ROSCO Fl_Mode's
    nacelle velocity, taken at the hub, a point of the drivetrain whatever body the nacelle is
    merged into)."""
    R = kin.R_b2g[b, p.rotor]
    ax = R[0, 0] * p.axis_b[0] + R[0, 1] * p.axis_b[1] + R[0, 2] * p.axis_b[2]
    ay = R[1, 0] * p.axis_b[0] + R[1, 1] * p.axis_b[1] + R[1, 2] * p.axis_b[2]
    h = math.sqrt(ax * ax + ay * ay)
    if h == 0.0:
        return 0.0
    return (kin.v_G[b, p.rotor, 0] * ax + kin.v_G[b, p.rotor, 1] * ay) / h


@njit(cache=True, fastmath=False)
def schedule(c, x0, y0, n, x):
    """Linear interpolation in the table ``c[x0:x0+n]`` (increasing) -> ``c[y0:y0+n]`` at ``x``,
    held at the end values outside it (ROSCO's ``interp1d``)."""
    if x <= c[x0]:
        return c[y0]
    for i in range(1, n):
        if x <= c[x0 + i]:
            f = (x - c[x0 + i - 1]) / (c[x0 + i] - c[x0 + i - 1])
            return c[y0 + i - 1] + f * (c[y0 + i] - c[y0 + i - 1])
    return c[y0 + n - 1]


@njit(cache=True, fastmath=False)
def fl_gain(c, st):
    """The floating-feedback gain (s) of this call: the one ``fl_kp``, or its schedule at the
    operating point's estimated wind (ROSCO's Fl_Kp scheduled on the estimated wind, Fl_U)."""
    nf = int(c[K_FL_N])
    if nf == 0:
        return c[K_FL_KP]
    return schedule(c, K_FL_WIND, K_FL_GAIN, nf, st[C_WIND])


@njit(cache=True, fastmath=False)
def _fl_lowpass(c, st, x, dt, first):
    """The floating feedback's second-order low-pass on the hub velocity ``x`` (ROSCO's
    SecLPFilter on the tower-top motion, F_FlCornerFreq: natural frequency and damping; the
    bilinear (Tustin) discretisation at the call interval ``dt``), initialised at ``x``."""
    if first:
        st[C_FX1] = x
        st[C_FX2] = x
        st[C_FY1] = x
        st[C_FY2] = x
        return x
    wn, z = c[K_FL_LPF_W], c[K_FL_LPF_Z]
    w2 = dt * dt * wn * wn
    a2 = w2 + 4.0 + 4.0 * z * wn * dt
    a1 = 2.0 * w2 - 8.0
    a0 = w2 + 4.0 - 4.0 * z * wn * dt
    y = (w2 * x + 2.0 * w2 * st[C_FX1] + w2 * st[C_FX2] - a1 * st[C_FY1] - a0 * st[C_FY2]) / a2
    st[C_FX2] = st[C_FX1]
    st[C_FX1] = x
    st[C_FY2] = st[C_FY1]
    st[C_FY1] = y
    return y


@njit(cache=True, fastmath=False)
def _bracket(c, x0, n, x):
    """The cell ``i`` (0 .. n - 2) of the increasing grid ``c[x0:x0+n]`` holding ``x`` and the
    fraction in it, held at the ends (0 or 1 outside the grid)."""
    if x <= c[x0]:
        return 0, 0.0
    if x >= c[x0 + n - 1]:
        return n - 2, 1.0
    i = 0
    while c[x0 + i + 1] < x:
        i += 1
    return i, (x - c[x0 + i]) / (c[x0 + i + 1] - c[x0 + i])


@njit(cache=True, fastmath=False)
def power_coefficient(c, tsr, pitch):
    """C_P of the estimator's table at the tip-speed ratio ``tsr`` and pitch ``pitch`` (rad):
    bilinear, held at the table's edges (ROSCO's ``interp2d`` of its Cp_Ct_Cq surface)."""
    nt, npit = int(c[K_WE_NTSR]), int(c[K_WE_NPIT])
    i, fi = _bracket(c, K_WE_TSR, nt, tsr)
    j, fj = _bracket(c, K_WE_PIT, npit, pitch)
    r0 = K_WE_CP + i * npit + j
    r1 = r0 + npit
    a = c[r0] + fj * (c[r0 + 1] - c[r0])
    b = c[r1] + fj * (c[r1 + 1] - c[r1])
    return a + fi * (b - a)


@njit(cache=True, fastmath=False)
def aero_torque(c, om, v, pitch):
    """The rotor's steady aerodynamic torque (N m, LSS) at rotor speed ``om`` (rad/s), wind ``v``
    and pitch from the C_P table: Q = 0.5 rho pi R^2 v^3 C_P(om R / v, pitch) / om (ROSCO's
    ``AeroDynTorque``, Abbas et al. 2022 eq. 12), >= 0; ``om`` floored at 0.01 rad/s."""
    om = max(om, 0.01)
    v = max(v, 0.1)
    r = c[K_WE_R]
    q = 0.5 * c[K_WE_RHO] * math.pi * r * r * v * v * v * power_coefficient(c, om * r / v, pitch) / om
    return max(q, 0.0)


@njit(cache=True, fastmath=False)
def balance_wind(c, om, pitch, q):
    """The wind (m/s) whose steady aerodynamic torque at ``om`` and ``pitch`` is ``q`` (N m, LSS):
    bisection on 0.5 .. 60 m/s (the estimator's start, the steady torque balance)."""
    lo, hi = 0.5, 60.0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if aero_torque(c, om, mid, pitch) < q:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


@njit(cache=True, fastmath=False)
def _wind_estimate(c, st, om, pitch, q_gen_lss, elapsed, first):
    """ROSCO's immersion-and-invariance wind-speed estimator (WE_Mode 1; Ortega et al. 2011;
    Abbas et al. 2022 sec. 2.4.1): v = v_I + gamma om with dv_I/dt = gamma / J (N Q_gen -
    Q_aero(om, v, pitch)) on the drivetrain J dom/dt = Q_aero - N Q_gen, so that dv/dt = gamma
    / J (Q_aero(v_true) - Q_aero(v)): the estimate converges to the wind whose torque balances
    the rotor wherever Q_aero rises with the wind. ``q_gen_lss`` = N times the generator torque
    held over the last interval; started at the steady balance; ``st[C_WIND]`` the estimate
    low-passed at ``op_corner_freq`` (ROSCO's WE_Vw_F, F_WECornerFreq)."""
    g = c[K_WE_GAMMA]
    if first:
        v = balance_wind(c, om, pitch, q_gen_lss)
        st[C_WEVI] = v - g * om
        st[C_WEV] = v
        st[C_WIND] = v
        return
    qa = aero_torque(c, om, st[C_WEV], pitch)
    st[C_WEVI] = st[C_WEVI] + g / c[K_WE_J] * (q_gen_lss - qa) * elapsed
    v = st[C_WEVI] + g * om
    st[C_WEV] = v
    a = math.exp(-elapsed * c[K_OP_CORNER])
    st[C_WIND] = (1.0 - a) * v + a * st[C_WIND]


@njit(cache=True, fastmath=False)
def min_pitch(c, wind):
    """The pitch command's lower limit (rad): PC_MinPit, or with peak shaving (``c[K_PS_N]`` >
    0; ROSCO's PS_Mode, Abbas et al. 2022 sec. 2.5) the larger of it and the minimum-pitch
    schedule at the estimated ``wind`` (linear, held at the ends)."""
    nps = int(c[K_PS_N])
    if nps == 0:
        return c[K_PC_MINPIT]
    return max(c[K_PC_MINPIT], schedule(c, K_PS_WIND, K_PS_PITCH, nps, wind))


@njit(cache=True, fastmath=False)
def baseline_controller(c, m, k, b, t, w, meas, v_nac):
    """One call of the NREL 5-MW baseline controller (Jonkman et al. 2009, NREL/TP-500-38060,
    sec. 7; its DISCON) at step ``k``, time ``t``, for member ``b``: the generator speed ``w``
    (rad/s, HSS) through the single-pole low-pass filter ``exp(-dt CornerFreq)``; the torque law
    of regions 1, 1 1/2, 2, 2 1/2 and 3 (constant power VS_RtPwr / w_f, or with ``c[K_REGION3]``
    = 1 constant torque VS_RtPwr / PC_RefSpd, as the OC3-Hywind DISCON) from the filtered speed, saturated at VS_MaxTq and
    rate-limited at VS_MaxRat; the gain-scheduled PI collective pitch (GK = 1 / (1 + theta /
    PC_KK) from the previous command; the integral saturated through the pitch limits), plus
    ``Fl_Kp v_nac`` (nacelle-velocity feedback, ROSCO's Fl_Mode), saturated at PC_MinPit ..
    PC_MaxPit and rate-limited at PC_MaxRat from each blade's measured pitch ``meas``. Writes
    row ``k`` of ``m.ctrl`` and ``m.pitch_cmd``; the first call initialises the states as DISCON
    does (filter at w, PitCom = the measured pitch, the integral holding that pitch).

    Optional schedules (ROSCO's, Abbas et al. 2022, WES 7, 53-73, sec. 2-3): with a gain
    schedule (``c[K_GS_N]`` > 0) KP and KI are interpolated on the previous pitch command
    instead of GK, and the integral is ROSCO's (of KI times the error, saturated at the pitch
    limits), so that a gain change does not move the command; with an operating-point table
    (``c[K_OP_N]`` > 0) the previous pitch command, low-passed at ``c[K_OP_CORNER]`` (ROSCO's
    F_WECornerFreq), gives the estimated wind through the rotor's steady pitch of rated power
    (above rated the pitch that holds rated power is a one-to-one function of the wind; below
    rated it holds the table's first wind), on which the floating-feedback gain is scheduled
    (``c[K_FL_N]`` > 0, ROSCO's Fl_U / Fl_Kp); with ``c[K_VS_R3KP]`` != 0 the region-3 torque
    adds that gain times the filtered speed error (Fischer 2013), within +-(VS_MaxTq - rated
    torque) of rated; with ``c[K_FL_LPF_W]`` > 0 the hub velocity of the floating feedback is
    low-passed first (ROSCO's F_FlCornerFreq, its tuning: the platform frequency, damping 1).
    With ``c[K_WE_GAMMA]`` > 0 the estimated wind is instead the torque balance's
    (:func:`_wind_estimate`, ROSCO WE_Mode 1: the filtered rotor speed, the mean measured pitch,
    the torque demand held over the last interval and the rotor's C_P table), low-passed at
    ``c[K_OP_CORNER]``; with a peak-shaving schedule (``c[K_PS_N]`` > 0) the pitch command and
    the integral are limited below by :func:`min_pitch` at that estimate, and region 3's pitch
    switch is VS_Rgn3MP above the last call's minimum pitch (ROSCO's VS_Rgn3Pitch)."""
    st = m.ctrl[k, b]
    nb = meas.shape[0]
    ngs = int(c[K_GS_N])
    nop = int(c[K_OP_N])
    nps = int(c[K_PS_N])
    we = c[K_WE_GAMMA] > 0.0
    tq_prev = st[C_GENTQ]  # the torque demand held over the last interval
    if st[C_INIT] == 0.0:
        st[C_SPEEDF] = w
        if ngs > 0:
            st[C_INTERR] = meas[0]
        else:
            gk = 1.0 / (1.0 + meas[0] / c[K_PC_KK])
            st[C_INTERR] = meas[0] / (gk * c[K_PC_KI])
        st[C_LASTT] = t
        st[C_PITF] = meas[0]
        if nop > 0:
            st[C_WIND] = schedule(c, K_OP_PITCH, K_OP_WIND, nop, meas[0])
        for j in range(nb):
            m.pitch_cmd[k, b, j] = meas[j]
        prev_cmd = meas[0]
        elapsed = m.dt  # DISCON: LastTimeVS = LastTimePC = Time - DT
        first = True
    else:
        prev_cmd = m.pitch_cmd[k - 1, b, 0]
        elapsed = t - st[C_LASTT]
        first = False
    alpha = math.exp(-(elapsed if not first else 0.0) * c[K_CORNER])
    wf = (1.0 - alpha) * w + alpha * st[C_SPEEDF]
    st[C_SPEEDF] = wf
    # torque (regions 1, 1 1/2, 2, 2 1/2, 3); with peak shaving region 3 begins VS_Rgn3MP above
    # the last call's minimum pitch (ROSCO's VS_Rgn3Pitch = PC_MinPit + PC_Switch)
    if nps > 0:
        if first:
            st[C_PSMIN] = c[K_PC_MINPIT]
        rgn3mp = st[C_PSMIN] + c[K_VS_RGN3MP]
    else:
        rgn3mp = c[K_VS_RGN3MP]
    if wf >= c[K_VS_RTGNSP] or prev_cmd >= rgn3mp:
        if c[K_REGION3] == 1.0:  # the OC3-Hywind DISCON: VS_RtPwr / PC_RefSpd [Jonkman 2010]
            tq = c[K_VS_RTPWR] / c[K_PC_REFSPD]
        else:
            tq = c[K_VS_RTPWR] / wf
        if c[K_VS_R3KP] != 0.0:
            # the generator torque helps the pitch hold the speed (Fischer 2013, IET Renew.
            # Power Gener. 7(4): speed variations of floating turbines reduced through the
            # torque, which moves no thrust): a proportional term on the filtered speed error,
            # within +-(VS_MaxTq - rated torque) of rated (VS_MaxTq below)
            q0 = c[K_VS_RTPWR] / c[K_PC_REFSPD]
            tq = tq + c[K_VS_R3KP] * (wf - c[K_PC_REFSPD])
            tq = max(tq, 2.0 * q0 - c[K_VS_MAXTQ])
    elif wf <= c[K_VS_CTINSP]:
        tq = 0.0
    elif wf < c[K_VS_RGN2SP]:
        tq = c[K_VS_SLOPE15] * (wf - c[K_VS_CTINSP])
    elif wf < c[K_VS_TRGNSP]:
        tq = c[K_VS_RGN2K] * wf * wf
    else:
        tq = c[K_VS_SLOPE25] * (wf - c[K_VS_SYSP])
    tq = min(tq, c[K_VS_MAXTQ])
    if first:
        st[C_LASTTQ] = tq
    rate = (tq - st[C_LASTTQ]) / elapsed
    rate = min(max(rate, -c[K_VS_MAXRAT]), c[K_VS_MAXRAT])
    tq = st[C_LASTTQ] + rate * elapsed
    st[C_LASTTQ] = tq
    st[C_GENTQ] = tq
    if we:  # the torque-balance wind estimate (ROSCO WE_Mode 1)
        pm = 0.0
        for j in range(nb):
            pm += meas[j]
        _wind_estimate(c, st, wf / c[K_WE_N], pm / nb,
                       c[K_WE_N] * (tq if first else tq_prev), elapsed, first)  # fmt: skip
    # the operating point: the pitch command low-passed, its wind on the steady schedule
    if nop > 0 and not first:
        a_op = math.exp(-elapsed * c[K_OP_CORNER])
        st[C_PITF] = (1.0 - a_op) * prev_cmd + a_op * st[C_PITF]
        st[C_WIND] = schedule(c, K_OP_PITCH, K_OP_WIND, nop, st[C_PITF])
    if c[K_FL_LPF_W] > 0.0:
        v_nac = _fl_lowpass(c, st, v_nac, elapsed, first)
    # peak shaving (ROSCO's PS_Mode): the minimum pitch scheduled on the estimated wind
    pmin = min_pitch(c, st[C_WIND])
    if nps > 0:
        st[C_PSMIN] = pmin
    err = wf - c[K_PC_REFSPD]
    if ngs > 0:  # ROSCO's PI: KP, KI scheduled on the pitch, the integral of KI err
        kp = schedule(c, K_GS_PITCH, K_GS_KP, ngs, prev_cmd)
        ki = schedule(c, K_GS_PITCH, K_GS_KI, ngs, prev_cmd)
        ie = st[C_INTERR] + ki * err * elapsed
        ie = min(max(ie, pmin), c[K_PC_MAXPIT])
        st[C_INTERR] = ie
        cmd = kp * err + ie + fl_gain(c, st) * v_nac
    else:  # gain-scheduled PI collective pitch (Jonkman 2009: GK)
        gk = 1.0 / (1.0 + prev_cmd / c[K_PC_KK])
        ie = st[C_INTERR] + err * elapsed
        ie = min(max(ie, pmin / (gk * c[K_PC_KI])), c[K_PC_MAXPIT] / (gk * c[K_PC_KI]))
        st[C_INTERR] = ie
        cmd = gk * c[K_PC_KP] * err + gk * c[K_PC_KI] * ie + fl_gain(c, st) * v_nac
    cmd = min(max(cmd, pmin), c[K_PC_MAXPIT])
    for j in range(nb):
        pr = (cmd - meas[j]) / elapsed
        pr = min(max(pr, -c[K_PC_MAXRAT]), c[K_PC_MAXRAT])
        m.pitch_cmd[k, b, j] = meas[j] + pr * elapsed
    st[C_LASTT] = t
    st[C_INIT] = 1.0


@njit(cache=True, fastmath=False)
def _dot3(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@njit(cache=True, fastmath=False)
def _perp_unit(v, a, out):
    """``out`` = the part of ``v`` normal to the unit ``a``, normalised (zeros when none)."""
    d = _dot3(v, a)
    for i in range(3):
        out[i] = v[i] - d * a[i]
    n = math.sqrt(_dot3(out, out))
    for i in range(3):
        out[i] = out[i] / n if n > 0.0 else 0.0


@njit(cache=True, fastmath=False)
def _cross3(a, b, out):
    out[0] = a[1] * b[2] - a[2] * b[1]
    out[1] = a[2] * b[0] - a[0] * b[2]
    out[2] = a[0] * b[1] - a[1] * b[0]


@njit(cache=True, fastmath=False)
def store_rotor_sense(m, hub_mt, b1, rmxc, rmyc, wind, force, apex):
    """A rotor's measurements at the accepted step into ``m.sense`` (``rotor_after_step``):
    per member its aerodynamic moment about the apex ``hub_mt`` (B, 3), blade 1's coned pitch
    axis ``b1`` (B, 3), the blade-root moments ``rmxc``/``rmyc`` (B, nb), the wind at the
    apex ``wind`` (B, 3), the total aerodynamic force ``force`` (B, 3) and the apex ``apex``
    (B, 3), all inertial."""
    for b in range(m.sense.shape[0]):
        se = m.sense[b]
        for i in range(3):
            se[S_FT + i] = force[b, i]
            se[S_APEX + i] = apex[b, i]
            se[S_MT + i] = hub_mt[b, i]
            se[S_B1 + i] = b1[b, i]
            se[S_WIND + i] = wind[b, i]
            se[S_RMXC + i] = rmxc[b, i] if i < rmxc.shape[1] else 0.0
            se[S_RMYC + i] = rmyc[b, i] if i < rmyc.shape[1] else 0.0
        se[S_ROTOR] = 1.0


@njit(cache=True, fastmath=False)
def dalembert_moment(mass, r, a, inertia, w, alp, x, gravity, out):
    """Adds to ``out`` the moment about the point ``x`` of a rigid mass's weight less its
    inertial loads (d'Alembert; Kane & Levinson 1985, the generalized inertia forces; ElastoDyn
    ``RtHS``'s ``MomBNcRtt``/``MomLPRott`` sums): (r - x) x m (g - a) - (I alpha + w x I w),
    with the mass ``mass`` at ``r`` accelerating at ``a``, its inertia ``inertia`` (3x3, about
    its CM, inertial axes), angular velocity ``w`` and acceleration ``alp``, g = ``gravity``
    along -z (all inertial, SI)."""
    f0 = -mass * a[0]
    f1 = -mass * a[1]
    f2 = mass * (-gravity - a[2])
    d0 = r[0] - x[0]
    d1 = r[1] - x[1]
    d2 = r[2] - x[2]
    iw = np.empty(3)
    for i in range(3):
        iw[i] = inertia[i, 0] * w[0] + inertia[i, 1] * w[1] + inertia[i, 2] * w[2]
    ia = np.empty(3)
    for i in range(3):
        ia[i] = inertia[i, 0] * alp[0] + inertia[i, 1] * alp[1] + inertia[i, 2] * alp[2]
    out[0] += d1 * f2 - d2 * f1 - ia[0] - (w[1] * iw[2] - w[2] * iw[1])
    out[1] += d2 * f0 - d0 * f2 - ia[1] - (w[2] * iw[0] - w[0] * iw[2])
    out[2] += d0 * f1 - d1 * f0 - ia[2] - (w[0] * iw[1] - w[1] * iw[0])


@njit(cache=True, fastmath=False)
def structural_moments(p, kin, b, first, hub_pt, yb_pt, m_hub, m_yb):
    """The weight and inertial moments of the masses above the yaw bearing
    (``p.mass_rows``: body index, mass, CM (3) in that body's frame, inertia (9) about the CM in
    its axes; row 0 the rotor: hub and blades) of member ``b``: the rotor's about the shaft's
    hub point ``hub_pt`` into ``m_hub`` (ElastoDyn's ``MomLPRott`` less its aerodynamic part),
    all rows' about the yaw bearing ``yb_pt`` into ``m_yb`` (``MomBNcRtt`` likewise). Each
    row's CM velocity and angular velocity are kept in ``p.memory.sense`` (from column
    N_SENSE) for the accelerations: the backward difference over the step, as the other
    accelerations of the record; 0 at the first step (``first``)."""
    m = p.memory
    se = m.sense[b]
    rel = np.empty(3)
    r = np.empty(3)
    v = np.empty(3)
    a = np.empty(3)
    alp = np.empty(3)
    ig = np.empty((3, 3))
    ib = np.empty((3, 3))
    tmp = np.empty((3, 3))
    for j in range(p.mass_rows.shape[0]):
        row = p.mass_rows[j]
        kb = int(row[0])
        R = kin.R_b2g[b, kb]
        w = kin.w_b[b, kb]
        for i in range(3):
            rel[i] = 0.0
        for i in range(3):
            for c in range(3):
                rel[i] += R[i, c] * (row[2 + c] - kin.cm_b[kb, c])
        _cross3(w, rel, v)
        for i in range(3):
            r[i] = kin.r_G[b, kb, i] + rel[i]
            v[i] += kin.v_G[b, kb, i]
        c0 = N_SENSE + 6 * j
        for i in range(3):
            a[i] = 0.0 if first else (v[i] - se[c0 + i]) / m.dt
            alp[i] = 0.0 if first else (w[i] - se[c0 + 3 + i]) / m.dt
            se[c0 + i] = v[i]
            se[c0 + 3 + i] = w[i]
        for i in range(3):
            for c in range(3):
                ib[i, c] = row[5 + 3 * i + c]
        for i in range(3):  # R I R^T: the inertia in inertial axes
            for c in range(3):
                tmp[i, c] = R[i, 0] * ib[0, c] + R[i, 1] * ib[1, c] + R[i, 2] * ib[2, c]
        for i in range(3):
            for c in range(3):
                ig[i, c] = tmp[i, 0] * R[c, 0] + tmp[i, 1] * R[c, 1] + tmp[i, 2] * R[c, 2]
        if j == 0:
            dalembert_moment(row[1], r, a, ig, w, alp, hub_pt, p.gravity, m_hub)
        dalembert_moment(row[1], r, a, ig, w, alp, yb_pt, p.gravity, m_yb)


@njit(cache=True, fastmath=False)
def library_measurements(p, kin, b, k, x, hub_wind):
    """The measurements ServoDyn takes from ElastoDyn and InflowWind for a library
    (BladedInterface.f90 ``Fill_avrSWAP``; FAST_Solver ``SrvD_InputSolve``) at the accepted step
    ``k`` of member ``b`` into ``x`` (columns ``floatwind._kernels.bladed.X_*``); called every
    step (the accelerations difference the velocities of consecutive steps).

    * tower-top fore-aft/side-to-side acceleration (YawBrTAxp/Ayp): the acceleration of the
      yaw-bearing point (``p.tt_b``, nacelle body frame) along the x/y axes of the body below the
      yaw bearing (ElastoDyn's tower-top frame, which does not yaw), a backward difference over
      the step (0 at the first step); the nacelle's angular acceleration (NcIMURAxs/ys/zs) the
      same, about the shaft axes;
    * the yaw angle (YawAngle: nacelle yaw + platform yaw): the heading of the shaft axis;
    * from the rotor's measurements of this step (``store_rotor_sense``; none without a rotor
      reading this memory: the mean ``hub_wind`` and zeros): the horizontal wind at the hub
      (HorWindV = sqrt(u^2 + v^2)) and the yaw error atan2(v, u) - YawAngle; the azimuth of
      blade 1 (LSSTipPxa: 0 with blade 1 up, the nacelle's z normal to the shaft, increasing
      about the shaft axis); the rotating (a: blade 1) and fixed (s: nacelle z) hub moments My,
      Mz (LSSTipMya/Mza/Mys/Mzs): the rotor's aerodynamic moment about the hub point P on the
      shaft plus the rotor's (hub and blades) weight and inertia (:func:`structural_moments`),
      and the blade-root moments RootMxc/RootMyc (aerodynamic, plus the blades' weight and
      inertia when the rotor knows their mass);
    * the yaw-bearing moments YawBrMyn/Mzn: the aerodynamic moment and the weight and inertia
      of every mass above the yaw bearing (rotor, generator, nacelle) about it, on the nacelle's
      y and z axes."""
    m = p.memory
    se = m.sense[b]
    R = kin.R_b2g[b, p.rotor]
    Rn = kin.R_b2g[b, p.nacelle]
    nac = p.nacelle
    xs = np.empty(3)
    zs = np.empty(3)
    ys = np.empty(3)
    tmp = np.empty(3)
    for i in range(3):
        xs[i] = R[i, 0] * p.axis_b[0] + R[i, 1] * p.axis_b[1] + R[i, 2] * p.axis_b[2]
        tmp[i] = Rn[i, 2]
    _perp_unit(tmp, xs, zs)
    _cross3(zs, xs, ys)
    # the yaw-bearing point's velocity and the nacelle's angular velocity (inertial)
    d = np.empty(3)
    for i in range(3):
        d[i] = p.tt_b[i] - kin.cm_b[nac, i]
    rr = np.empty(3)
    for i in range(3):
        rr[i] = Rn[i, 0] * d[0] + Rn[i, 1] * d[1] + Rn[i, 2] * d[2]
    wn = kin.w_b[b, nac]
    v = np.empty(3)
    _cross3(wn, rr, v)
    for i in range(3):
        v[i] += kin.v_G[b, nac, i]
    acc = np.zeros(3)
    alp = np.zeros(3)
    # the weight and inertia of the rotor (about the hub point P on the shaft) and of every
    # mass above the yaw bearing (about it): ElastoDyn's MomLPRott, MomBNcRtt
    Rr = kin.R_b2g[b, p.rotor]
    hub_pt = np.empty(3)
    yb_pt = np.empty(3)
    for i in range(3):
        hub_pt[i] = kin.r_G[b, p.rotor, i]
        yb_pt[i] = kin.r_G[b, nac, i] + rr[i]
        for c in range(3):
            hub_pt[i] += Rr[i, c] * (p.hub_b[c] - kin.cm_b[p.rotor, c])
    m_hub = np.zeros(3)
    m_yb = np.zeros(3)
    if m.sense.shape[1] >= N_SENSE + 6 * p.mass_rows.shape[0]:
        structural_moments(p, kin, b, not (k > 0 and se[S_PREV] == 1.0), hub_pt, yb_pt,
                           m_hub, m_yb)  # fmt: skip
    if k > 0 and se[S_PREV] == 1.0:
        for i in range(3):
            acc[i] = (v[i] - se[S_VTT + i]) / m.dt
            alp[i] = (wn[i] - se[S_WN + i]) / m.dt
    wr = kin.w_b[b, p.rotor]
    vr = kin.v_G[b, p.rotor]
    for i in range(3):
        se[S_VTT + i] = v[i]
        se[S_WN + i] = wn[i]
        se[S_WR + i] = wr[i]
        se[S_VR + i] = vr[i]
    se[S_PREV] = 1.0
    Rp = kin.R_b2g[b, p.tt_body]
    x[kbl.X_TAXP] = acc[0] * Rp[0, 0] + acc[1] * Rp[1, 0] + acc[2] * Rp[2, 0]
    x[kbl.X_TAYP] = acc[0] * Rp[0, 1] + acc[1] * Rp[1, 1] + acc[2] * Rp[2, 1]
    x[kbl.X_RAS] = _dot3(alp, xs)
    x[kbl.X_RAS + 1] = _dot3(alp, ys)
    x[kbl.X_RAS + 2] = _dot3(alp, zs)
    yaw = math.atan2(xs[1], xs[0])
    x[kbl.X_YAW] = yaw
    if se[S_ROTOR] == 1.0:
        u, vv = se[S_WIND], se[S_WIND + 1]
        x[kbl.X_HWIND] = math.sqrt(u * u + vv * vv)
        x[kbl.X_YAWERR] = math.atan2(vv, u) - yaw
        za = np.empty(3)
        ya = np.empty(3)
        _perp_unit(se[S_B1 : S_B1 + 3], xs, za)
        _cross3(za, xs, ya)
        az = math.atan2(-_dot3(za, ys), _dot3(za, zs))
        x[kbl.X_AZ] = az + 2.0 * math.pi if az < 0.0 else az
        # the aerodynamic moment about P and about the yaw bearing: M_apex + (apex - X) x F
        mt = np.empty(3)
        for i in range(3):
            tmp[i] = se[S_APEX + i] - hub_pt[i]
        _cross3(tmp, se[S_FT : S_FT + 3], mt)
        for i in range(3):
            mt[i] += se[S_MT + i] + m_hub[i]
            tmp[i] = se[S_APEX + i] - yb_pt[i]
        _cross3(tmp, se[S_FT : S_FT + 3], d)
        for i in range(3):
            m_yb[i] += se[S_MT + i] + d[i]
        x[kbl.X_MYA] = _dot3(mt, ya)
        x[kbl.X_MZA] = _dot3(mt, za)
        x[kbl.X_MYS] = _dot3(mt, ys)
        x[kbl.X_MZS] = _dot3(mt, zs)
        for j in range(3):
            x[kbl.X_RMXC + j] = se[S_RMXC + j]
            x[kbl.X_RMYC + j] = se[S_RMYC + j]
        se[S_ROTOR] = 0.0  # used: never read again at a later call
    else:
        x[kbl.X_HWIND] = hub_wind
        x[kbl.X_YAWERR] = 0.0
        for c in (kbl.X_AZ, kbl.X_MYA, kbl.X_MZA):  # (no blade 1 without a rotor)
            x[c] = 0.0
        x[kbl.X_MYS] = _dot3(m_hub, ys)  # the weight and inertia only
        x[kbl.X_MZS] = _dot3(m_hub, zs)
        for j in range(3):
            x[kbl.X_RMXC + j] = 0.0
            x[kbl.X_RMYC + j] = 0.0
    # YawBrMyn, YawBrMzn: about the nacelle's y and z axes (ElastoDyn's yn = -d3, zn = d2)
    x[kbl.X_YBMY] = m_yb[0] * Rn[0, 1] + m_yb[1] * Rn[1, 1] + m_yb[2] * Rn[2, 1]
    x[kbl.X_YBMZ] = m_yb[0] * Rn[0, 2] + m_yb[1] * Rn[1, 2] + m_yb[2] * Rn[2, 2]


@njit(cache=True, fastmath=False)
def servo_after_step(p, t, kin, y):
    """ServoDyn's state updates at the accepted step ending at ``t`` (``Torque_UpdateStates``,
    ``Pitch_UpdateStates``; SrvD_Init at t0) and, every ``p.ctrl_dt`` (a multiple of the step), a call of the
    baseline controller, from the previous step's states and the motion at ``t``."""
    m = p.memory
    k = int(round((t - m.t0) / m.dt))
    B = kin.w_b.shape[0]
    nb = m.pitch0.shape[0]
    meas = np.empty(nb)
    x = np.zeros(kbl.N_X)
    every = max(1, int(round(p.ctrl_dt / m.dt)))
    for b in range(B):
        w = p.gb_ratio * _rotor_speed(p, kin, b)
        for j in range(nb):  # the pitch applied at t (rows up to k - 1; m.last not yet k)
            meas[j] = blade_pitch(m, t, b, j)
        if k == 0:
            m.online[0, b] = _online_at_start(p)
            m.off[0, b] = 0
            for j in range(nb):
                m.pitch_cmd[0, b, j] = m.pitch0[j]
                m.man_on[0, b, j] = 0
                m.man_pitch0[0, b, j] = m.pitch0[j]
                m.man_end[0, b, j] = m.man_start[j]
            for i in range(m.ctrl.shape[2]):
                m.ctrl[0, b, i] = 0.0
        else:
            on = m.online[k - 1, b]
            off = m.off[k - 1, b]
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
                _tq, pwr = _torque_on_line(p, w, k - 1, b)
                if pwr <= 0.0:
                    off = 1
            m.online[k, b] = on
            m.off[k, b] = off
            for i in range(m.ctrl.shape[2]):
                m.ctrl[k, b, i] = m.ctrl[k - 1, b, i]
            # Pitch_UpdateStates: a maneuver begins at the first step at or after TPitManS,
            # from the pitch then (BlPitchI), ending at TPitManS + (BlPitchF - BlPitchI) /
            # +-PitManRat
            for j in range(nb):
                m.pitch_cmd[k, b, j] = m.pitch_cmd[k - 1, b, j]
                m.man_on[k, b, j] = m.man_on[k - 1, b, j]
                m.man_pitch0[k, b, j] = m.man_pitch0[k - 1, b, j]
                m.man_end[k, b, j] = m.man_end[k - 1, b, j]
                if m.man_on[k, b, j] == 0 and t >= m.man_start[j]:
                    m.man_on[k, b, j] = 1
                    m.man_pitch0[k, b, j] = meas[j]
                    m.man_end[k, b, j] = (
                        m.man_start[j] + abs(m.man_final[j] - meas[j]) / m.man_rate[j]
                    )
        if p.ctrl_kind == 1:  # a library's measurements (the accelerations: every step)
            library_measurements(p, kin, b, k, x, m.dll.par[kbl.P_AVGWIND])
        if p.ctrl_dt >= 0.0 and k % every == 0:
            if p.ctrl_kind == 1:  # a Bladed-style library (ServoDyn PCMode/VSContrl = 5)
                bladed_controller(m, k, b, t, w, _rotor_speed(p, kin, b), meas, p.efficiency, x)
                continue
            fl = p.ctrl[K_FL_KP] != 0.0 or p.ctrl[K_FL_N] > 0.0
            v_nac = _nacelle_fa_velocity(p, kin, b) if fl else 0.0
            baseline_controller(p.ctrl, m, k, b, t, w, meas, v_nac)
    m.last[0] = k
