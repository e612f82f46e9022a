"""ServoDyn's generator, torque laws and high-speed-shaft brake acting on a spinning rotor
(issue 36; docs/control.md).

The load acts on the drivetrain of a rotor whose shaft joint is a degree of freedom of its own
(issue 17, docs/multibody.md "Joint DOFs"): the generator and brake torques on the high-speed
shaft (HSS), brought to the low-speed shaft by the gearbox ratio, act about the shaft joint's
axis, minus on the rotor body (the joint's child) and plus on the nacelle body (its parent, where
the stator and the brake caliper sit). The generator's inertia is not part of this load: it is the
geared generator body of the tree (the importer's ``hss`` joint following ``shaft`` at GBRatio,
ElastoDyn's ``GenIner``), so that the spin equation of the rotor reads
``(J_rotor + GBRatio^2 J_gen) dW/dt = Q_aero - GBRatio (GenTq + HSSBrTq)``.

The laws are ServoDyn v5's (``SrvD_SetParameters`` forms their parameters, ``CalculateTorque``
evaluates them, ``Torque_UpdateStates`` switches the generator on and off):
:mod:`floatwind._kernels.servo` is the one implementation, compiled. The generator's on-line
state is a step memory (ServoDyn's other states, updated once per accepted step), so the run
needs a fixed step (``rk4``).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from floatwind._kernels.contract import CompiledLoad, body_kinematics, f64, python_form
from floatwind.errors import CaseError, SimulationError
from floatwind.loads.base import Kinematics, Load, Wrench
from floatwind.loads.bladed import DLL_KEYS
from floatwind.loads.servo_design import (  # noqa: F401 (the design helpers' public home was here)
    NREL5MW_BEM_OPERATING_POINTS,
    peak_shaving,
    rotor_cp_ct_table,
    scheduled_gains,
    wind_estimator,
)
from floatwind.validate import Section, number

__all__ = [
    "CONTROLLER_PRESETS",
    "GENERATOR_MODELS",
    "NREL5MW_BASELINE",
    "ServoDyn",
    "controller_parameters",
    "generator_law",
]

#: the generator models of a case file and their keys (SI; speeds also in rpm, ``*_rpm``)
GENERATOR_MODELS = {
    "none": ("model",),
    "induction": ("model", "sync_speed", "sync_speed_rpm", "rated_slip", "rated_torque",
                  "pullout_ratio"),
    "thevenin": ("model", "frequency", "poles", "stator_resistance", "rotor_resistance",
                 "line_voltage", "stator_reactance", "rotor_reactance", "magnetizing_reactance"),
    "variable_speed": ("model", "rated_speed", "rated_speed_rpm", "rated_torque", "region2_k",
                       "rated_slip"),
}  # fmt: skip

_TOP_KEYS = (
    "type",
    "name",
    "joint",
    "gearbox_ratio",
    "generator",
    "efficiency",
    "start_time",
    "start_speed",
    "start_speed_rpm",
    "stop_time",
    "stop_on_power",
    "brake",
    "pitch",
    "controller",
    "tower_top",
    "nacelle_mass",
)
_NACELLE_MASS_KEYS = ("mass", "cm", "yaw_inertia")
_BRAKE_KEYS = ("start_time", "ramp_time", "torque")

#: the NREL 5-MW baseline controller (Jonkman et al. 2009, NREL/TP-500-38060, sec. 7 and its
#: DISCON; SI, HSS side): case key -> value
NREL5MW_BASELINE = {
    "corner_freq": 1.570796,  # rad/s: 0.25 Hz generator-speed low-pass filter
    "pc_kp": 0.01882681,  # s: proportional gain at zero pitch
    "pc_ki": 0.008068634,  # -: integral gain at zero pitch
    "pc_kk": 0.1099965,  # rad: pitch where the power sensitivity has doubled (6.302336 deg)
    "pc_minpit": 0.0,  # rad
    "pc_maxpit": 1.570796,  # rad
    "pc_maxrat": 0.1396263,  # rad/s: 8 deg/s
    "pc_refspd": 122.9096,  # rad/s: 1173.7 rpm
    "vs_ctinsp": 70.16224,  # rad/s: 670 rpm, cut-in
    "vs_rgn2sp": 91.21091,  # rad/s: 871 rpm, start of region 2
    "vs_rtgnsp": 121.6805,  # rad/s: 1161.963 rpm, rated (start of region 3 by speed)
    "vs_slpc": 0.10,  # -: slip of the region 2 1/2 induction-machine line (10 %)
    "vs_rgn2k": 2.332287,  # N m / (rad/s)^2
    "vs_rtpwr": 5296610.0,  # W: rated mechanical power (5 MW / 94.4 %)
    "vs_maxtq": 47402.91,  # N m
    "vs_maxrat": 15000.0,  # N m / s
    "vs_rgn3mp": 0.01745329,  # rad: pitch above which region 3 holds (1 deg)
    "region3": "constant_power",
    "fl_kp": 0.0,  # s (rad of pitch per m/s of nacelle fore-aft velocity): no floating feedback
    # optional schedules (ROSCO's, Abbas et al. 2022, WES 7, 53-73; floatwind._kernels.servo
    # baseline_controller): none by default
    "pc_gs_pitch": None,  # rad: the pitch-loop gain schedule's pitch breakpoints (replaces GK)
    "pc_gs_kp": None,  # s: KP at each breakpoint
    "pc_gs_ki": None,  # -: KI at each breakpoint
    "op_pitch": None,  # rad: the rotor's steady pitch of rated power (the operating point) ...
    "op_wind": None,  # m/s: ... at these winds (the pitch-based wind estimate)
    "op_corner_freq": 0.20944,  # rad/s: its low-pass on the pitch command (ROSCO F_WECornerFreq)
    "fl_wind": None,  # m/s: with fl_kp a list, the floating-feedback gain scheduled on that wind
    "vs_rgn3_kp": 0.0,  # N m/(rad/s): region-3 torque feedback on the HSS speed error (0: none)
    "fl_corner_freq": 0.0,  # rad/s: low-pass of the floating feedback's velocity (0: none)
    "fl_damping": 1.0,  # -: its damping (ROSCO F_FlCornerFreq: the platform frequency, 1.0)
    # the torque-balance wind-speed estimator (ROSCO WE_Mode 1) and peak shaving (PS_Mode)
    "we_gamma": 0.0,  # m/s per rad/s of rotor speed: its adaptation gain (0: none)
    "we_tsr": None,  # -: the C_P table's tip-speed ratios ...
    "we_pitch": None,  # rad: ... its pitch angles ...
    "we_cp": None,  # -: ... and C_P, one row per tip-speed ratio (rotor_cp_table())
    "we_radius": 63.0,  # m: the rotor's tip radius (the table's reference)
    "we_rho": 1.225,  # kg/m^3: the air density
    "we_inertia": 4.3784e7,  # kg m^2: the drivetrain's inertia about the LSS [Jonkman 2009]
    "ps_wind": None,  # m/s: peak shaving, the estimated winds ...
    "ps_minpit": None,  # rad: ... and the minimum pitch there (peak_shaving())
}
_TABLE_KEYS = ("pc_gs_pitch", "pc_gs_kp", "pc_gs_ki", "op_pitch", "op_wind", "fl_wind",
               "we_tsr", "we_pitch", "ps_wind", "ps_minpit")  # fmt: skip
#: presets: the onshore baseline, and the OC3-Hywind detuned pitch gains with constant torque in
#: region 3 (Jonkman 2010, NREL/TP-500-47535, the OC3 floating system definition), the
#: documented default of floating cases
CONTROLLER_PRESETS = {
    "nrel5mw_onshore": dict(NREL5MW_BASELINE),
    "oc3_hywind": {**NREL5MW_BASELINE, "pc_kp": 0.006275604, "pc_ki": 0.0008965149,
                   "region3": "constant_torque"},
}  # fmt: skip
#: the OC3-Hywind law with ROSCO's ingredients (docs/control.md "Holding +-10 % over region
#: 3"): the pitch loop scheduled on this rotor's sensitivity, 0.3 rad/s up to 14 m/s rising to
#: ROSCO's 0.6 rad/s from 18 m/s (zeta 0.7), ROSCO's floating feedback (its sign and gain,
#: held below 14 m/s, on the pitch-based wind estimate, the hub velocity low-passed at the
#: platform frequency), region-3 torque feedback on the speed (+-10 % of rated torque)
CONTROLLER_PRESETS["oc3_hywind_scheduled"] = {
    **CONTROLLER_PRESETS["oc3_hywind"],
    **scheduled_gains([(14.0, 0.3), (18.0, 0.6)], 0.7, 1.0, fl_hold_below=14.0),
    "fl_corner_freq": 0.2325,
    "vs_rgn3_kp": 1400.0,
}
#: ``oc3_hywind_scheduled`` with the torque-balance wind estimate (ROSCO WE_Mode 1, gamma 40
#: m/s per rad/s: ~0.9 rad/s convergence) in place of the pitch-based one, the floating-feedback
#: schedule read on it, and peak shaving at 80 % of the rotor's largest steady thrust (ROSCO's
#: NREL 5-MW tuning's ps_percent), both designed on this rotor's C_P/C_T table; with peak
#: shaving the pitch loop runs at 0.4 rad/s up to 14 m/s (unstable there without it), rising to
#: 0.6 from 18 m/s (docs/control.md "Wind estimate and peak shaving")
CONTROLLER_PRESETS["oc3_hywind_peak_shaving"] = {
    **CONTROLLER_PRESETS["oc3_hywind_scheduled"],
    **scheduled_gains([(14.0, 0.4), (18.0, 0.6)], 0.7, 1.0, fl_hold_below=14.0),
    **wind_estimator(40.0),
    **{k: x for k, x in peak_shaving(0.8).items() if k != "thrust"},
}
_ANGLE_KEYS = ("pc_minpit", "pc_maxpit", "pc_maxrat", "vs_rgn3mp", "pc_gs_pitch", "op_pitch",
               "we_pitch", "ps_minpit")  # fmt: skip
_SPEED_KEYS = ("pc_refspd", "vs_ctinsp", "vs_rgn2sp", "vs_rtgnsp")
_CONTROLLER_KEYS = (("kind", "preset", "dt")
                    + tuple(k for k in NREL5MW_BASELINE)
                    + tuple(f"{k}_deg" for k in _ANGLE_KEYS)
                    + tuple(f"{k}_rpm" for k in _SPEED_KEYS))  # fmt: skip


def controller_parameters(values: dict, field: str = "",
                          gearbox_ratio: float = 1.0) -> np.ndarray:  # fmt: skip
    """The baseline controller's parameter array (``floatwind._kernels.servo`` K_* columns) from
    SI ``values`` (the keys of :data:`NREL5MW_BASELINE`), with DISCON's derived values: the
    region 2 1/2 synchronous speed VS_SySp = VS_RtGnSp / (1 + VS_SlPc), the slopes VS_Slope15 =
    VS_Rgn2K VS_Rgn2Sp^2 / (VS_Rgn2Sp - VS_CtInSp) and VS_Slope25 = (VS_RtPwr / VS_RtGnSp) /
    (VS_RtGnSp - VS_SySp), and the transition speed VS_TrGnSp, the smaller root of VS_Rgn2K w^2
    = VS_Slope25 (w - VS_SySp). ``gearbox_ratio``: the wind estimator's (the load passes its
    own)."""
    from floatwind._kernels import servo as ks

    v = {**{k: x for k, x in NREL5MW_BASELINE.items() if k.startswith(("we_", "ps_"))},
         **values}  # fmt: skip
    c = np.zeros(ks.N_CTRL_PAR)
    c[ks.K_WE_N] = gearbox_ratio
    for key, col in (("corner_freq", ks.K_CORNER), ("pc_kp", ks.K_PC_KP), ("pc_ki", ks.K_PC_KI),
                     ("pc_kk", ks.K_PC_KK), ("pc_minpit", ks.K_PC_MINPIT),
                     ("pc_maxpit", ks.K_PC_MAXPIT), ("pc_maxrat", ks.K_PC_MAXRAT),
                     ("pc_refspd", ks.K_PC_REFSPD), ("vs_ctinsp", ks.K_VS_CTINSP),
                     ("vs_rgn2sp", ks.K_VS_RGN2SP), ("vs_rtgnsp", ks.K_VS_RTGNSP),
                     ("vs_rgn2k", ks.K_VS_RGN2K), ("vs_rtpwr", ks.K_VS_RTPWR),
                     ("vs_maxtq", ks.K_VS_MAXTQ), ("vs_maxrat", ks.K_VS_MAXRAT),
                     ("vs_rgn3mp", ks.K_VS_RGN3MP), ("fl_kp", ks.K_FL_KP),
                     ("vs_rgn3_kp", ks.K_VS_R3KP), ("fl_corner_freq", ks.K_FL_LPF_W),
                     ("fl_damping", ks.K_FL_LPF_Z), ("we_gamma", ks.K_WE_GAMMA),
                     ("we_radius", ks.K_WE_R), ("we_rho", ks.K_WE_RHO),
                     ("we_inertia", ks.K_WE_J)):  # fmt: skip
        if key == "fl_kp" and isinstance(v[key], (list, tuple, np.ndarray)):
            continue  # a schedule (below)
        c[col] = number(v[key], _f(field, key))
    number(v["fl_corner_freq"], _f(field, "fl_corner_freq"), nonnegative=True)
    number(v["we_gamma"], _f(field, "we_gamma"), nonnegative=True)
    for key in ("we_radius", "we_rho", "we_inertia"):
        number(v[key], _f(field, key), positive=True)
    _schedules(v, c, field)
    _estimator(v, c, field)
    for key in ("corner_freq", "pc_ki", "pc_kk", "pc_maxrat", "pc_refspd", "vs_rtgnsp",
                "vs_rtpwr", "vs_maxtq", "vs_maxrat"):  # fmt: skip
        number(v[key], _f(field, key), positive=True)
    if not v["pc_minpit"] < v["pc_maxpit"]:
        raise CaseError("pc_minpit must be below pc_maxpit", field=_f(field, "pc_minpit"))
    if not 0.0 <= v["vs_ctinsp"] < v["vs_rgn2sp"] < v["vs_rtgnsp"]:
        raise CaseError("expected 0 <= vs_ctinsp < vs_rgn2sp < vs_rtgnsp",
                        field=_f(field, "vs_rgn2sp"))  # fmt: skip
    slip = number(v["vs_slpc"], _f(field, "vs_slpc"), positive=True)
    sysp = v["vs_rtgnsp"] / (1.0 + slip)
    k2 = c[ks.K_VS_RGN2K]
    s15 = k2 * v["vs_rgn2sp"] ** 2 / (v["vs_rgn2sp"] - v["vs_ctinsp"])
    s25 = (v["vs_rtpwr"] / v["vs_rtgnsp"]) / (v["vs_rtgnsp"] - sysp)
    if k2 == 0.0:
        tr = sysp
    else:
        disc = s25 * (s25 - 4.0 * k2 * sysp)
        if disc < 0.0:
            raise CaseError("region 2 never meets the region 2 1/2 line: lower vs_rgn2k or raise "
                            "vs_slpc", field=_f(field, "vs_rgn2k"))  # fmt: skip
        tr = (s25 - math.sqrt(disc)) / (2.0 * k2)
    c[ks.K_VS_SYSP], c[ks.K_VS_SLOPE15], c[ks.K_VS_SLOPE25], c[ks.K_VS_TRGNSP] = sysp, s15, s25, tr
    region3 = v["region3"]
    if region3 not in ("constant_power", "constant_torque"):
        raise CaseError(f"unknown value {region3!r}; one of constant_power, constant_torque",
                        field=_f(field, "region3"))  # fmt: skip
    c[ks.K_REGION3] = 1.0 if region3 == "constant_torque" else 0.0
    return c


def _table(v: dict, keys: tuple[str, ...], field: str,
           most: int | None = None) -> list[np.ndarray] | None:  # fmt: skip
    """The columns ``keys`` of one schedule: all given or none, equal lengths of 1 ..
    N_TAB, the first strictly increasing."""
    from floatwind._kernels import servo as ks

    given = [k for k in keys if v.get(k) is not None]
    if not given:
        return None
    if len(given) != len(keys):
        miss = next(k for k in keys if v.get(k) is None)
        raise CaseError(f"{', '.join(given)} needs {miss} too", field=_f(field, miss))
    cols = []
    for k in keys:
        val = v[k]
        if not isinstance(val, (list, tuple, np.ndarray)) or not len(val):
            raise CaseError("expected a non-empty list of numbers", field=_f(field, k))
        cols.append(np.array([number(x, _f(field, f"{k}[{i}]")) for i, x in enumerate(val)]))
    n = len(cols[0])
    for k, col in zip(keys, cols):
        if len(col) != n:
            raise CaseError(f"{len(col)} entries, {keys[0]} has {n}", field=_f(field, k))
    most = ks.N_TAB if most is None else most
    if n > most:
        raise CaseError(f"{n} entries; at most {most}", field=_f(field, keys[0]))
    if np.any(np.diff(cols[0]) <= 0.0):
        raise CaseError("must increase strictly", field=_f(field, keys[0]))
    return cols


def _schedules(v: dict, c: np.ndarray, field: str) -> None:
    """The optional schedules of the baseline controller (ROSCO's, Abbas et al. 2022) into
    ``c``: the pitch-loop gains on the pitch (``pc_gs_pitch``, ``pc_gs_kp``, ``pc_gs_ki``), the
    operating point (``op_pitch`` -> ``op_wind``, low-passed at ``op_corner_freq``) and the
    floating-feedback gain on its wind (``fl_wind`` with ``fl_kp`` a list)."""
    from floatwind._kernels import servo as ks

    gs = _table(v, ("pc_gs_pitch", "pc_gs_kp", "pc_gs_ki"), field)
    if gs is not None:
        n = len(gs[0])
        c[ks.K_GS_N] = n
        for col, vals in zip((ks.K_GS_PITCH, ks.K_GS_KP, ks.K_GS_KI), gs):
            c[col:col + n] = vals
    op = _table(v, ("op_pitch", "op_wind"), field)
    c[ks.K_OP_CORNER] = number(v.get("op_corner_freq", 0.20944), _f(field, "op_corner_freq"),
                               positive=True)  # fmt: skip
    if op is not None:
        n = len(op[0])
        c[ks.K_OP_N] = n
        c[ks.K_OP_PITCH:ks.K_OP_PITCH + n] = op[0]
        c[ks.K_OP_WIND:ks.K_OP_WIND + n] = op[1]
    if isinstance(v.get("fl_kp"), (list, tuple, np.ndarray)) or v.get("fl_wind") is not None:
        if not isinstance(v.get("fl_kp"), (list, tuple, np.ndarray)):
            raise CaseError("fl_wind schedules fl_kp: give fl_kp as a list of the same length",
                            field=_f(field, "fl_kp"))  # fmt: skip
        if op is None and not v.get("we_gamma"):
            raise CaseError("a floating-feedback schedule (fl_wind) needs a wind estimate to be "
                            "scheduled on: op_pitch and op_wind, or we_gamma with the C_P table",
                            field=_f(field, "fl_wind"))  # fmt: skip
        fl = _table(v, ("fl_wind", "fl_kp"), field)
        n = len(fl[0])
        c[ks.K_FL_N] = n
        c[ks.K_FL_KP] = 0.0
        c[ks.K_FL_WIND:ks.K_FL_WIND + n] = fl[0]
        c[ks.K_FL_GAIN:ks.K_FL_GAIN + n] = fl[1]


def _estimator(v: dict, c: np.ndarray, field: str) -> None:
    """The torque-balance wind estimator (``we_gamma`` > 0 with ``we_tsr``, ``we_pitch``,
    ``we_cp``) and peak shaving (``ps_wind``, ``ps_minpit``, which need that estimate) into
    ``c``; the pitch-based operating point (``op_pitch``) is refused beside it (one estimate)."""
    from floatwind._kernels import servo as ks

    on = v["we_gamma"] > 0.0
    grid = (_table(v, ("we_tsr",), field, ks.N_WE_TSR),
            _table(v, ("we_pitch",), field, ks.N_WE_PIT))  # fmt: skip
    cp = v.get("we_cp")
    if on and (grid[0] is None or grid[1] is None or cp is None):
        miss = next(k for k, g in zip(("we_tsr", "we_pitch", "we_cp"), (*grid, cp)) if g is None)
        raise CaseError(f"we_gamma > 0 needs the rotor's C_P table: we_tsr, we_pitch and we_cp "
                        f"(missing {miss})", field=_f(field, miss))  # fmt: skip
    if not on and (grid[0] is not None or grid[1] is not None or cp is not None):
        raise CaseError("the C_P table is the wind estimator's: give we_gamma > 0 too",
                        field=_f(field, "we_gamma"))  # fmt: skip
    if on:
        if v.get("op_pitch") is not None:
            raise CaseError("one wind estimate: the torque balance (we_gamma) or the pitch's "
                            "operating point (op_pitch, op_wind), not both",
                            field=_f(field, "op_pitch"))  # fmt: skip
        tsr, pit = grid[0][0], grid[1][0]
        if len(tsr) < 2 or len(tsr) > ks.N_WE_TSR:
            raise CaseError(f"{len(tsr)} entries; 2 .. {ks.N_WE_TSR}", field=_f(field, "we_tsr"))
        if len(pit) < 2 or len(pit) > ks.N_WE_PIT:
            raise CaseError(f"{len(pit)} entries; 2 .. {ks.N_WE_PIT}",
                            field=_f(field, "we_pitch"))  # fmt: skip
        try:
            tab = np.array(cp, dtype=float)
        except (TypeError, ValueError):
            tab = None
        if tab is None or tab.shape != (len(tsr), len(pit)) or not np.all(np.isfinite(tab)):
            raise CaseError(f"expected {len(tsr)} rows (one per we_tsr) of {len(pit)} numbers "
                            "(one per we_pitch)", field=_f(field, "we_cp"))  # fmt: skip
        c[ks.K_WE_NTSR], c[ks.K_WE_NPIT] = len(tsr), len(pit)
        c[ks.K_WE_TSR:ks.K_WE_TSR + len(tsr)] = tsr
        c[ks.K_WE_PIT:ks.K_WE_PIT + len(pit)] = pit
        c[ks.K_WE_CP:ks.K_WE_CP + tab.size] = tab.ravel()
    ps = _table(v, ("ps_wind", "ps_minpit"), field)
    if ps is not None:
        if not on:
            raise CaseError("peak shaving is scheduled on the torque-balance wind estimate: "
                            "give we_gamma > 0 and the C_P table", field=_f(field, "ps_wind"))  # fmt: skip
        n = len(ps[0])
        c[ks.K_PS_N] = n
        c[ks.K_PS_WIND:ks.K_PS_WIND + n] = ps[0]
        c[ks.K_PS_PITCH:ks.K_PS_PITCH + n] = ps[1]


_PITCH_KEYS = ("initial", "initial_deg", "maneuvers")
_MANEUVER_KEYS = ("start_time", "rate", "rate_deg", "final", "final_deg")

_CHANNELS = {
    "GenTq": ("N m", "generator torque on the high-speed shaft (ServoDyn GenTq)"),
    "GenPwr": ("W", "electrical generator power (ServoDyn GenPwr: efficiency applied)"),
    "GenSpeed": ("rad/s", "generator (high-speed shaft) speed: GBRatio x the rotor speed"),
    "HSSBrTq": ("N m", "high-speed-shaft brake torque, signed with the HSS speed (ElastoDyn)"),
}


def generator_law(model: str, kw: dict, field: str = "") -> tuple[int, np.ndarray]:
    """(law id, coefficients) of ``model`` from its SI parameters ``kw`` (ServoDyn
    ``SrvD_SetParameters``); the coefficients are those :func:`floatwind._kernels.servo.
    generator_torque` reads."""
    from floatwind._kernels import servo as ks

    def pos(key):
        return number(kw[key], _f(field, key), positive=True)

    if model == "none":
        return ks.LAW_NONE, np.zeros(1)
    if model == "induction":
        sy, slip, rt, po = pos("sync_speed"), pos("rated_slip"), pos("rated_torque"), pos(
            "pullout_ratio")  # fmt: skip
        rt_sp = sy * (1.0 + slip)  # SIG_RtSp
        return ks.LAW_INDUCTION, np.array([sy, po * (rt_sp - sy), rt * po, rt / (rt_sp - sy)])
    if model == "variable_speed":
        rt_sp, rt_tq = pos("rated_speed"), pos("rated_torque")
        k2 = number(kw["region2_k"], _f(field, "region2_k"), nonnegative=True)
        slip = number(kw["rated_slip"], _f(field, "rated_slip"), nonnegative=True)
        sy = rt_sp / (1.0 + slip)  # VS_SySp
        if slip < math.sqrt(np.finfo(float).eps):  # no region 2 1/2
            slope, tr = 9999.9, rt_sp
        else:
            slope = rt_tq / (rt_sp - sy)
            if abs(k2) < np.finfo(float).eps:
                tr = sy
            else:
                disc = slope * (slope - 4.0 * k2 * sy)
                if disc < 0.0:
                    raise CaseError(
                        "region 2 (k w^2) never meets the region 2 1/2 line (VS_Slope (VS_Slope - "
                        f"4 VS_Rgn2K VS_SySp) = {disc:.4g} < 0): lower region2_k or raise "
                        "rated_slip",
                        field=_f(field, "region2_k"),
                    )
                tr = (slope - math.sqrt(disc)) / (2.0 * k2)  # VS_TrGnSp
        return ks.LAW_VARIABLE_SPEED, np.array([rt_sp, rt_tq, k2, tr, slope, sy])
    if model == "thevenin":
        freq, npol = pos("frequency"), pos("poles")
        sres, rres = pos("stator_resistance"), pos("rotor_resistance")
        vll, slr, rlr, mr = pos("line_voltage"), pos("stator_reactance"), pos(
            "rotor_reactance"), pos("magnetizing_reactance")  # fmt: skip
        den = sres**2 + (slr + mr) ** 2
        re1 = sres * mr**2 / den
        xe1 = mr * (sres**2 + slr * (slr + mr)) / den
        v1a = mr * vll / math.sqrt(3.0 * den)
        sysp = 4.0 * math.pi * freq / npol
        k1 = (xe1 + rlr) ** 2
        k2 = mr**2 / den
        a0 = rres * k2 / sysp
        c = [sysp, a0, vll, rres**2, -2.0 * re1 * rres, re1**2 + k1, re1, xe1, rlr, v1a, mr, sres,
             rres]  # fmt: skip
        return ks.LAW_THEVENIN, np.array(c)
    raise CaseError(f"unknown generator model {model!r}; one of {', '.join(GENERATOR_MODELS)}",
                    field=_f(field, "model"))  # fmt: skip


class ServoDyn(Load, kind="servodyn"):
    """Generator and HSS brake torques on the rotor's drivetrain (module docstring).

    Parameters
    ----------
    rotor, nacelle : int
        The shaft joint's child (rotor) and parent (nacelle) bodies.
    axis : (3,)
        The shaft joint's axis in the rotor body's frame (positive rotor speed about it).
    gearbox_ratio : float
        GBRatio: HSS speed / rotor speed.
    model : str
        ``none``, ``induction`` (GenModel 1), ``thevenin`` (GenModel 2), ``variable_speed``
        (VSContrl 1); ``generator``: its parameters, SI (speeds rad/s, slips as fractions,
        region2_k in N m s^2/rad^2).
    efficiency : float
        GenEff as a fraction (0, 1].
    start_time / start_speed : float
        GenTiStr = True: on line at ``start_time`` (s); else when the HSS speed reaches
        ``start_speed`` (rad/s).
    stop_time : float or None
        GenTiStp = True: off for good at ``stop_time`` (s); None: when the power is <= 0.
    brake : (start_time, ramp_time, torque) or None
        HSSBrMode = 1: THSSBrDp, HSSBrDT, HSSBrTqF (N m, HSS side).
    """

    name = "servodyn"

    def __init__(self, *, rotor: int, nacelle: int, axis, gearbox_ratio: float,
                 model: str = "none", generator: dict | None = None, efficiency: float = 1.0,
                 start_time: float | None = 0.0, start_speed: float | None = None,
                 stop_time: float | None = math.inf, brake=None, pitch=(),
                 maneuvers=None, controller: dict | None = None, controller_dt: float = 0.0,
                 library=None, name: str | None = None, field: str = "",
                 tower_top=None, tower_top_body: int | None = None, hub_point=None,
                 mass_rows=None):  # fmt: skip
        self.rotor, self.nacelle = int(rotor), int(nacelle)
        #: the yaw-bearing point in the nacelle body's frame and the body whose axes are the
        #: tower-top frame (a library's tower-top accelerations, records 53-54)
        self.tower_top = f64(np.zeros(3) if tower_top is None else tower_top).reshape(3)
        self.tower_top_body = self.nacelle if tower_top_body is None else int(tower_top_body)
        #: the hub point P on the shaft (rotor body frame) and the masses above the yaw bearing
        #: (rows: body index, mass, CM (3) in that body's frame, inertia (9) about the CM in its
        #: axes; row 0 the rotor): the weight and inertia in a library's hub and yaw-bearing
        #: moments (records 73-78)
        self.hub_point = f64(np.zeros(3) if hub_point is None else hub_point).reshape(3)
        self.mass_rows = (np.zeros((0, 14)) if mass_rows is None
                          else f64(mass_rows).reshape(-1, 14))  # fmt: skip
        a = np.asarray(axis, dtype=float).reshape(3)
        if not np.linalg.norm(a) > 0.0:
            raise CaseError("the shaft axis must not be zero", field=_f(field, "joint"))
        self.axis_b = a / np.linalg.norm(a)
        self.gearbox_ratio = number(gearbox_ratio, _f(field, "gearbox_ratio"), positive=True)
        self.model = str(model)
        self.law, self.coef = generator_law(self.model, dict(generator or {}),
                                            _f(field, "generator"))  # fmt: skip
        self.controller = None
        self.ctrl = np.zeros(1)
        self.controller_dt = float(controller_dt)
        #: a Bladed-style controller library (floatwind.loads.bladed.BladedLibrary) or None
        self.library = library
        if library is not None:
            from floatwind._kernels import servo as ks

            if controller is not None:
                raise CaseError("give either the baseline controller or a library",
                                field=_f(field, "controller"))  # fmt: skip
            if self.model != "none":
                raise CaseError("the controller library commands the generator torque: leave "
                                "the generator model out (or none)", field=_f(field, "generator"))  # fmt: skip
            if not np.asarray(pitch).size:
                raise CaseError("the controller library commands the blade pitch: give "
                                "pitch.initial", field=_f(field, "pitch"))  # fmt: skip
            self.controller_dt = float(library.dt)
            self.law = ks.LAW_CONTROLLER
        if controller is not None:
            from floatwind._kernels import servo as ks

            if self.model != "none":
                raise CaseError("the controller commands the generator torque: leave the "
                                "generator model out (or none)", field=_f(field, "generator"))  # fmt: skip
            if not np.asarray(pitch).size:
                raise CaseError("the controller commands the blade pitch: give pitch.initial",
                                field=_f(field, "pitch"))  # fmt: skip
            if self.controller_dt < 0.0:
                raise CaseError(f"must be >= 0, got {controller_dt:g}",
                                field=_f(field, "controller.dt"))  # fmt: skip
            self.controller = dict(controller)
            self.ctrl = controller_parameters(self.controller, _f(field, "controller"),
                                              self.gearbox_ratio)  # fmt: skip
            self.law = ks.LAW_CONTROLLER
        self.efficiency = number(efficiency, _f(field, "efficiency"), positive=True)
        if self.efficiency > 1.0:
            raise CaseError(f"must be <= 1 (a fraction), got {self.efficiency:g}",
                            field=_f(field, "efficiency"))  # fmt: skip
        if (start_time is None) == (start_speed is None):
            raise CaseError("give exactly one of start_time or start_speed",
                            field=_f(field, "start_time"))  # fmt: skip
        self.start_time = None if start_time is None else float(start_time)
        self.start_speed = None if start_speed is None else float(start_speed)
        self.stop_time = None if stop_time is None else float(stop_time)
        if brake is not None:
            t0, ramp, tq = (float(v) for v in brake)
            if not ramp > 0.0:
                raise CaseError(f"must be > 0, got {ramp:g}", field=_f(field, "brake.ramp_time"))
            brake = (t0, ramp, tq)
        self.brake = brake
        self.pitch0 = np.asarray(pitch, dtype=float).reshape(-1)
        nb = self.pitch0.size
        man = np.full((nb, 3), [math.inf, 1.0, 0.0])
        for k, mv in enumerate(maneuvers or []):
            if k >= nb:
                raise CaseError(f"{len(maneuvers)} maneuvers for {nb} blades",
                                field=_f(field, "pitch.maneuvers"))  # fmt: skip
            if mv is None:
                continue
            t0, rate, final = (float(v) for v in mv)
            if not rate > 0.0:
                raise CaseError(f"must be > 0, got {rate:g}",
                                field=_f(field, f"pitch.maneuvers[{k}].rate"))  # fmt: skip
            man[k] = (t0, rate, final)
        self.maneuvers = man
        if name is not None:
            self.name = str(name)
        self._field = field

    # -- the contract ------------------------------------------------------------------------

    class Params(NamedTuple):
        rotor: int
        nacelle: int
        axis_b: np.ndarray  # (3,) shaft axis, rotor body frame
        gb_ratio: float
        law: int
        coef: np.ndarray
        efficiency: float
        start_timed: bool
        start_time: float
        start_speed: float
        stop_timed: bool
        stop_time: float
        brake_mode: int
        brake_time: float
        brake_ramp: float
        brake_torque: float
        ctrl_dt: float  # the controller's call interval (s; 0: every step; -1: no controller)
        ctrl: np.ndarray  # (N_CTRL_PAR,) the controller's parameters
        ctrl_kind: int  # 0: the compiled baseline, 1: a Bladed-style library
        memory: object  # floatwind._kernels.servo.ServoMemory
        tt_b: np.ndarray  # (3,) the yaw-bearing point, nacelle body frame
        tt_body: int  # the body whose axes are the tower-top frame
        hub_b: np.ndarray  # (3,) the hub point P on the shaft, rotor body frame
        mass_rows: np.ndarray  # (n, 14) the masses above the yaw bearing (row 0: the rotor)
        gravity: float  # m/s^2

    def _params(self, memory, gravity: float) -> Params:
        br = self.brake or (math.inf, 1.0, 0.0)
        return self.Params(
            rotor=self.rotor, nacelle=self.nacelle, axis_b=f64(self.axis_b),
            gb_ratio=float(self.gearbox_ratio), law=int(self.law), coef=f64(self.coef),
            efficiency=float(self.efficiency), start_timed=self.start_time is not None,
            start_time=float(self.start_time if self.start_time is not None else math.inf),
            start_speed=float(self.start_speed if self.start_speed is not None else math.inf),
            stop_timed=self.stop_time is not None,
            stop_time=float(self.stop_time if self.stop_time is not None else math.inf),
            brake_mode=1 if self.brake is not None else 0, brake_time=float(br[0]),
            brake_ramp=float(br[1]), brake_torque=float(abs(br[2])),
            ctrl_dt=(-1.0 if self.controller is None and self.library is None
                     else self.controller_dt), ctrl=f64(self.ctrl),
            ctrl_kind=0 if self.library is None else 1,
            memory=memory if memory is not None else _memory(self, 1, 1, 0.0, 1.0),
            tt_b=f64(self.tower_top), tt_body=int(self.tower_top_body),
            hub_b=f64(self.hub_point), mass_rows=f64(self.mass_rows), gravity=float(gravity),
        )  # fmt: skip

    def memory(self, batch: int, t0: float, dt: float, n_steps: int):

        if dt <= 0.0:
            raise CaseError("the generator's on-line state needs a fixed time step (integrator "
                            "rk4)", field=self._field or None)  # fmt: skip
        ctrl = self.controller is not None or self.library is not None
        if ctrl and self.controller_dt > 0.0:
            r = self.controller_dt / dt
            if abs(r - round(r)) > 1e-9 * r or round(r) < 1:
                raise CaseError(
                    f"the controller's dt {self.controller_dt:g} s is not a multiple of the run's "
                    f"step {dt:g} s", field=_f(self._field, "controller.dt"))  # fmt: skip
        dll = None
        if self.library is not None:
            dll = self.library.state(int(batch), float(dt), self.gearbox_ratio)
        return _memory(self, int(n_steps) + 1, batch, float(t0), float(dt), dll)

    def check_controller(self, t, memory) -> None:
        """Raise the controller library's failure (SimulationError, one line) once ``t`` is past
        the failing call."""
        if memory is None or self.library is None:
            return
        d = memory.dll
        if d.failed[0] >= 0 and float(t) > float(d.fail_time[0]):
            raise SimulationError(self.library.failure_message(d), time=float(d.fail_time[0]),
                                  members=[int(d.fail_member[0])])  # fmt: skip

    @property
    def commands_pitch(self) -> bool:
        """A controller (the baseline or a library) commands the blade pitch."""
        return self.n_blades > 0 and (self.controller is not None or self.library is not None)

    @property
    def n_blades(self) -> int:
        """Blades whose pitch this load commands (0: none)."""
        return int(self.pitch0.size)

    def after_step(self, t, kin: Kinematics, env, memory, s) -> None:
        from floatwind._kernels import servo as ks

        python_form(ks.servo_after_step)(self._params(memory, float(env.gravity)), float(t),
                                         body_kinematics(kin),
                                         np.empty((kin.batch, 0)))  # fmt: skip

    def compiled(self, env, batch):
        from floatwind._kernels import servo as ks

        return CompiledLoad(ks.servo_kernel, self._params(None, float(env.gravity)),
                            after_step=ks.servo_after_step)  # fmt: skip

    def outputs(self, t, kin: Kinematics, memory=None) -> np.ndarray:
        """(B, N_OUT) of :func:`floatwind._kernels.servo.servo_outputs` at ``t``."""
        from floatwind._kernels import servo as ks

        # (no measurement here: gravity unused)
        return python_form(ks.servo_outputs)(self._params(memory, 0.0), float(t),
                                             body_kinematics(kin))  # fmt: skip

    def wrench(self, t, kin: Kinematics, env) -> Wrench:
        return self.wrench_state(t, kin, env, None, None)[0]

    def wrench_state(self, t, kin: Kinematics, env, s, memory):
        from floatwind._kernels import servo as ks

        B, N = kin.batch, kin.n_bodies
        force, moment = np.zeros((B, N, 3)), np.zeros((B, N, 3))
        self.check_controller(t, memory)
        p = self._params(memory, float(env.gravity))
        bk = body_kinematics(kin)
        python_form(ks.servo_kernel)(p, float(t), bk, np.empty((B, 0)), np.empty((B, 0)), force,
                                     moment, np.zeros((B, N, 0, 0)))  # fmt: skip
        out = python_form(ks.servo_outputs)(p, float(t), bk)
        w = Wrench(force, moment)
        for name, col in (("GenTq", ks.GEN_TQ), ("GenPwr", ks.GEN_PWR),
                          ("GenSpeed", ks.GEN_SPEED), ("HSSBrTq", ks.HSS_BR_TQ)):  # fmt: skip
            w.channels[name] = out[:, col].copy()
        if self.n_blades:
            pitch = python_form(ks.blade_pitches)(p.memory, float(t), B)
            for k in range(self.n_blades):
                w.channels[f"BlPitchC{k + 1}"] = pitch[:, k].copy()
                w.channels[f"BldPitch{k + 1}"] = pitch[:, k].copy()
        return w, None

    def channel_info(self) -> dict[str, tuple[str, str]]:
        info = dict(_CHANNELS)
        for k in range(1, self.n_blades + 1):
            info[f"BlPitchC{k}"] = ("rad", f"blade {k} pitch command (ServoDyn BlPitchC{k})")
            info[f"BldPitch{k}"] = ("rad", f"blade {k} pitch (ElastoDyn BldPitch{k}: the command, "
                                           "no pitch actuator)")  # fmt: skip
        return info

    # -- case file ---------------------------------------------------------------------------

    @classmethod
    def from_config(cls, cfg, *, body_index, field, base_dir=None, tree=None) -> ServoDyn:
        """Build from ``{type: servodyn, joint: shaft, gearbox_ratio: .., generator: {model:
        .., ...}, efficiency: .., start_time | start_speed[_rpm]: .., stop_time | stop_on_power:
        .., brake: {start_time, ramp_time, torque}}`` (docs/control.md)."""
        sec = Section(cfg, field, _TOP_KEYS)
        if tree is None:
            raise CaseError("a servodyn load needs the model's tree", field=field or None)
        jname = sec.raw("joint", "shaft")
        joint = next((j for j in tree.joint_of.values() if j.name == jname), None)
        if joint is None:
            names = sorted(j.name for j in tree.joint_of.values())
            raise CaseError(f"unknown joint {jname!r}; joints are {names}", field=sec.path("joint"))
        if joint.gear is not None:
            raise CaseError(f"joint {jname!r} follows joint {joint.gear.leader!r} through a gear; "
                            "name the rotor's shaft joint", field=sec.path("joint"))  # fmt: skip
        model, gen = Section.tagged(sec.raw("generator", {"model": "none"}),
                                    sec.path("generator"), GENERATOR_MODELS, tag="model",
                                    file=sec.file)  # fmt: skip
        kw = {}
        for key in GENERATOR_MODELS[model]:
            if key == "model" or key.endswith("_rpm"):
                continue
            if key in ("sync_speed", "rated_speed"):
                kw[key] = gen.speed(key, kind="positive")
            else:
                kw[key] = gen.number(key)
        start_speed = None
        if sec.has("start_speed") or sec.has("start_speed_rpm"):
            start_speed = sec.speed("start_speed")
            if sec.has("start_time"):
                raise sec.error("give either start_time or start_speed, not both", "start_time")
        start_time = None if start_speed is not None else sec.number("start_time", 0.0)
        stop_on_power = bool(sec.boolean("stop_on_power", False))
        if stop_on_power and sec.has("stop_time"):
            raise sec.error("give either stop_time or stop_on_power, not both", "stop_time")
        stop_time = None if stop_on_power else sec.number("stop_time", math.inf)
        brake = None
        if sec.has("brake"):
            b = sec.section("brake", _BRAKE_KEYS)
            brake = (b.number("start_time"), b.number("ramp_time", kind="positive"),
                     b.number("torque", kind="nonnegative"))  # fmt: skip
        pitch, maneuvers = (), None
        if sec.has("pitch"):
            ps = sec.section("pitch", _PITCH_KEYS)
            if ps.has("initial_deg"):
                pitch = [math.radians(v) for v in ps.numbers("initial_deg")]
            else:
                pitch = ps.numbers("initial")
            maneuvers = []
            for ms in ps.sections("maneuvers", _MANEUVER_KEYS, required=False):
                maneuvers.append((ms.number("start_time"), ms.angle("rate"), ms.angle("final")))
        controller, controller_dt, library = None, 0.0, None
        # the nacelle's own joint to the body below it (None: merged into that body)
        below = next((j for j in tree.joint_of.values() if j.child == joint.parent), None)
        craw = sec.raw("controller", None)
        if isinstance(craw, dict) and craw.get("kind") == "none":
            pass  # no controller (a parked DLC switches a case's controller off this way)
        elif isinstance(craw, dict) and craw.get("kind") == "dll":
            if below is None and not sec.has("nacelle_mass"):
                # records 77-78 (the yaw-bearing moments a library reads) carry the nacelle's
                # weight and inertia; merged into the body below, its mass cannot be told apart
                raise CaseError(
                    f"the nacelle is merged into body {tree.bodies[joint.parent].name!r}, so the "
                    "yaw-bearing moments the controller library reads (records 77-78) need its "
                    "mass: give nacelle_mass: {mass, cm, yaw_inertia} (mass: 0 where there is "
                    "none)", field=sec.path("nacelle_mass"))  # fmt: skip
            library = _library_from(sec.section("controller", DLL_KEYS), base_dir)
        elif sec.has("controller"):
            cs = sec.section("controller", _CONTROLLER_KEYS)
            cs.choice("kind", ["baseline", "dll", "none"], "baseline")
            preset = cs.choice("preset", list(CONTROLLER_PRESETS), "oc3_hywind")
            controller = dict(CONTROLLER_PRESETS[preset])
            for key in NREL5MW_BASELINE:
                if (key in _TABLE_KEYS or key == "we_cp") and any(
                        k in cs.data and cs.data[k] is None for k in (key, f"{key}_deg")):
                    controller[key] = None  # null: the preset's schedule off
                elif key in _TABLE_KEYS and key in _ANGLE_KEYS:
                    if cs.has(key) and cs.has(f"{key}_deg"):
                        raise cs.error(f"give either '{key}' or '{key}_deg', not both",
                                       f"{key}_deg")  # fmt: skip
                    if cs.has(f"{key}_deg"):
                        controller[key] = [math.radians(x) for x in cs.numbers(f"{key}_deg")]
                    elif cs.has(key):
                        controller[key] = cs.numbers(key)
                elif key in _ANGLE_KEYS and (cs.has(key) or cs.has(f"{key}_deg")):
                    controller[key] = cs.angle(key)
                elif key in _SPEED_KEYS and (cs.has(key) or cs.has(f"{key}_rpm")):
                    controller[key] = cs.speed(key)
                elif key == "region3" and cs.has(key):
                    controller[key] = cs.choice(key, ["constant_power", "constant_torque"])
                elif key in _TABLE_KEYS and cs.has(key):
                    controller[key] = cs.numbers(key)
                elif key == "we_cp" and cs.has(key):
                    controller[key] = cs.raw(key)
                elif key == "fl_kp" and isinstance(cs.raw(key, None), list):
                    controller[key] = cs.numbers(key)
                elif cs.has(key):
                    controller[key] = cs.number(key)
            controller_dt = cs.number("dt", 0.0, kind="nonnegative")
        # the yaw bearing: the nacelle's own joint to the body below it (ElastoDyn's tower-top
        # frame); a nacelle without one (merged into the platform): the shaft joint's point
        # (``tower_top``: the point in the nacelle body's frame, e.g. the importer's TowerHt)
        if below is not None:
            tt, tt_body = below.r_J_c, below.parent
        else:
            tt, tt_body = joint.r_J_p, joint.parent
        if sec.has("tower_top"):
            tt = sec.vector("tower_top")
        rows = _mass_rows(tree, joint, below, sec)
        return cls(rotor=joint.child, nacelle=joint.parent, axis=joint.axis,
                   tower_top=tt, tower_top_body=tt_body, hub_point=joint.r_J_c,
                   mass_rows=rows,
                   gearbox_ratio=sec.number("gearbox_ratio", kind="positive"), model=model,
                   generator=kw, efficiency=sec.number("efficiency", 1.0, kind="positive"),
                   start_time=start_time, start_speed=start_speed, stop_time=stop_time,
                   brake=brake, pitch=pitch, maneuvers=maneuvers, controller=controller,
                   controller_dt=controller_dt, library=library, name=sec.raw("name", None),
                   field=field)  # fmt: skip


def _mass_rows(tree, joint, below, sec: Section) -> np.ndarray:
    """The masses above the yaw bearing whose weight and inertia a library's hub and
    yaw-bearing moments carry (ElastoDyn's ``MomLPRott``, ``MomBNcRtt``): the rotor body (row 0:
    hub and blades), the generator bodies geared to the shaft, and the nacelle: its own body
    (a nacelle with a joint below it), else ``nacelle_mass: {mass, cm, yaw_inertia}`` (kg, m in
    the nacelle body's frame, kg m^2 about the vertical through its CM: ElastoDyn's point
    nacelle, which the deck importer sets) on the body it is merged into."""

    def row(k, mass, cm, inertia):
        return np.concatenate(([float(k), float(mass)], np.asarray(cm, float).reshape(3),
                               np.asarray(inertia, float).reshape(9)))  # fmt: skip

    def body_row(k):
        bd = tree.bodies[k]
        return row(k, bd.mass, bd.cm_b, bd.inertia_b)

    rows = [body_row(joint.child)]
    for j in tree.joint_of.values():
        if j.gear is not None and j.gear.leader == joint.name:
            rows.append(body_row(j.child))
    if below is not None:
        if sec.has("nacelle_mass"):
            raise CaseError("the nacelle is a body of its own (its mass is the body's): leave "
                            "nacelle_mass out", field=sec.path("nacelle_mass"))  # fmt: skip
        rows.append(body_row(joint.parent))
    elif sec.has("nacelle_mass"):
        ns = sec.section("nacelle_mass", _NACELLE_MASS_KEYS)
        inertia = np.zeros((3, 3))
        inertia[2, 2] = ns.number("yaw_inertia", 0.0, kind="nonnegative")
        rows.append(row(joint.parent, ns.number("mass", kind="nonnegative"), ns.vector("cm"),
                        inertia))  # fmt: skip
    return np.array(rows)


def _memory(load: ServoDyn, n: int, batch: int, t0: float, dt: float, dll=None):
    """A memory of ``n`` steps (nothing recorded yet: the state at t0 until the first step);
    ``dll`` the controller library's state (:meth:`BladedLibrary.state`)."""
    from floatwind._kernels.bladed import empty_dll_state
    from floatwind._kernels.servo import N_CTRL, N_SENSE, ServoMemory

    nb = load.n_blades
    z = np.zeros((n, batch, nb))
    return ServoMemory(online=np.zeros((n, batch), dtype=np.int64),
                       off=np.zeros((n, batch), dtype=np.int64), pitch_cmd=z.copy(),
                       man_on=np.zeros((n, batch, nb), dtype=np.int64), man_pitch0=z.copy(),
                       man_end=z.copy(), ctrl=np.zeros((n, batch, N_CTRL)),
                       pitch0=f64(load.pitch0),
                       man_start=f64(load.maneuvers[:, 0]), man_rate=f64(load.maneuvers[:, 1]),
                       man_final=f64(load.maneuvers[:, 2]), t0=t0, dt=dt,
                       last=np.full(1, -1, dtype=np.int64),
                       dll=dll if dll is not None else empty_dll_state(),
                       sense=np.zeros((batch, N_SENSE + 6 * load.mass_rows.shape[0])),
                       sense_every=np.array([_sense_every(load, dt) if dll is not None else 0],
                                            dtype=np.int64))  # fmt: skip


def _sense_every(load: ServoDyn, dt: float) -> int:
    """Steps between a library's calls (the rotor measures for it at those steps)."""
    return max(1, int(round(load.controller_dt / dt))) if dt > 0.0 else 1


def _library_from(cs: Section, base_dir):
    """A :class:`floatwind.loads.bladed.BladedLibrary` from ``controller: {kind: dll, library,
    input, proc, dt, pitch_control, ...}`` (docs/control.md)."""
    from floatwind.loads.bladed import ANGLE_KEYS, DLL_DEFAULTS, BladedLibrary

    values = {}
    for key in DLL_DEFAULTS:
        if key in ANGLE_KEYS:
            if cs.has(key) or cs.has(f"{key}_deg"):
                values[key] = cs.angle(key)
        elif cs.has(key):
            values[key] = cs.number(key)
    values["pitch_control"] = {"collective": 0, "individual": 1}[
        cs.choice("pitch_control", ["collective", "individual"], "collective")
    ]
    values["root_name"] = str(cs.raw("root_name", "floatwind"))
    return BladedLibrary(str(cs.raw("library")), str(cs.raw("input")),
                         proc=str(cs.raw("proc", "DISCON")),
                         dt=cs.number("dt", 0.0, kind="nonnegative"), values=values,
                         field=cs.path("library").rsplit(".", 1)[0], base_dir=base_dir)  # fmt: skip


def _f(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key
