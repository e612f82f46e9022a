"""ServoDyn: override yaw and pitch maneuvers, the yaw drive, whether the generator is on, the
generator and HSS-brake laws (the ``servodyn`` load of a GenDOF deck, issue 36), the refusal of
the controllers not imported and of structural controllers, and its part of the settings table."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from floatwind.case.openfast.reader import _DEG, _bool, _ed, _float, _int, _raw, _str
from floatwind.case.openfast.settings import CORE, OUT, FileKind, I, M, N, R, eq

__all__ = ["FILE_KIND", "generator_off", "servodyn_case_load", "servodyn_maneuvers"]

_RPM = math.pi / 30.0


def generator_off(deck: dict) -> bool:
    """The generator applies no torque during the run: no ServoDyn (CompServo = 0), or a timed
    start (``GenTiStr = True``) at ``TimGenOn`` >= ``TMax``."""
    srv = deck.get("ServoDyn")
    if srv is None:
        return True
    tmax = _float(deck["fst"], "TMax")
    return bool(_bool(srv, "GenTiStr", False)) and _float(srv, "TimGenOn", 0.0) >= tmax


def servodyn_maneuvers(deck: dict) -> dict[str, Any] | None:
    """ServoDyn override maneuvers and the yaw spring/damper, SI; ``None`` when ServoDyn is off.

    Returns
    -------
    dict or None
        ``yaw``: ``{"start_time" (s, TYawManS), "rate" (rad/s, YawManRat, magnitude),
        "final_angle" (rad, NacYawF), "spring" (N m/rad, YawSpr), "damping" (N m s/rad, YawDamp),
        "neutral" (rad, YawNeut), "control_mode" (YCMode)}``;
        ``pitch``: list per blade of ``{"start_time" (s, TPitManS(k)), "rate" (rad/s, PitManRat(k)),
        "final_angle" (rad, BlPitchF(k))}`` and ``pitch_control_mode`` (PCMode);
        ``torque_control_mode`` (VSContrl); ``generator_on_time`` (s, TimGenOn, or ``None``).
    """
    srv = deck.get("ServoDyn")
    if srv is None:
        return None
    nb = _int(_ed(deck), "NumBl")
    return {
        "yaw": {
            "start_time": _float(srv, "TYawManS"),
            "rate": abs(_float(srv, "YawManRat")) * _DEG,
            "final_angle": _float(srv, "NacYawF") * _DEG,
            "spring": _float(srv, "YawSpr"),
            "damping": _float(srv, "YawDamp"),
            "neutral": _float(srv, "YawNeut", 0.0) * _DEG,
            "control_mode": _int(srv, "YCMode", 0),
        },
        "pitch": [
            {
                "start_time": _float(srv, f"TPitManS({k})"),
                "rate": abs(_float(srv, f"PitManRat({k})")) * _DEG,
                "final_angle": _float(srv, f"BlPitchF({k})") * _DEG,
            }
            for k in range(1, nb + 1)
        ],
        "pitch_control_mode": _int(srv, "PCMode", 0),
        "torque_control_mode": _int(srv, "VSContrl", 0),
        "generator_on_time": _float(srv, "TimGenOn") if "TimGenOn" in srv["values"] else None,
    }


def servodyn_case_load(deck: dict, gearbox_ratio: float, *, generator: bool,
                       pitch0: list[float] | None) -> dict | None:  # fmt: skip
    """The ``servodyn`` load (floatwind.loads.servo) of a deck: with ``generator`` (a GenDOF
    rotor whose generator is connected) the generator law (VSContrl = 1: simple variable speed;
    else GenModel 1: simple induction, 2: Thevenin), GenEff, the start (GenTiStr: TimGenOn, else
    SpdGenOn) and stop (GenTiStp: TimGenOf, else when the power is <= 0), the HSS brake
    (HSSBrMode = 1); with ``pitch0`` (ElastoDyn's BlPitch, rad: a BEM rotor reads the pitch) the
    blade pitch and the override maneuvers that start before TMax (TPitManS, PitManRat,
    BlPitchF). SI; the slip percentages and GenEff read in percent as ServoDyn reads them.
    None when there is neither."""
    srv = deck["ServoDyn"]
    tmax = _float(deck["fst"], "TMax")
    maneuvers = []
    if pitch0 is not None:
        for k in range(1, len(pitch0) + 1):
            t0 = _float(srv, f"TPitManS({k})")
            maneuvers.append(None if t0 >= tmax else {
                "start_time": t0, "rate": abs(_float(srv, f"PitManRat({k})")) * _DEG,
                "final": _float(srv, f"BlPitchF({k})") * _DEG})  # fmt: skip
    if not generator and not any(maneuvers):
        return None
    load: dict[str, Any] = {"type": "servodyn", "joint": "shaft",
                            "gearbox_ratio": float(gearbox_ratio)}  # fmt: skip
    library = generator and _int(srv, "VSContrl", 0) == 5
    if library:  # PCMode = VSContrl = 5: the Bladed-style library commands torque and pitch
        load["controller"] = _dll_controller(deck)
        if not any(maneuvers):
            init = [0.0, 0.0, 0.0] if pitch0 is None else [float(p) for p in pitch0]
            load["pitch"] = {"initial": init}
    if any(maneuvers):
        load["pitch"] = {"initial": [float(p) for p in pitch0],
                         "maneuvers": [m or {"start_time": 1.0e30, "rate": 1.0, "final": 0.0}
                                       for m in maneuvers]}  # fmt: skip
    elif generator and pitch0 is not None and "pitch" not in load:
        # a BEM deck with a generator law and no pitch control: ElastoDyn's BlPitch held, so that
        # the run writes BldPitch1-3/BlPitchC1-3 as OpenFAST does (the rotor reads the same pitch)
        load["pitch"] = {"initial": [float(p) for p in pitch0]}
    if not generator:
        return load

    def pct(key):
        return 0.01 * _float(srv, key)

    if library:
        gen = {"model": "none"}
    elif _int(srv, "VSContrl", 0) == 1:
        gen = {"model": "variable_speed", "rated_speed": _float(srv, "VS_RtGnSp") * _RPM,
               "rated_torque": _float(srv, "VS_RtTq"),
               "region2_k": _float(srv, "VS_Rgn2K") / _RPM**2, "rated_slip": pct("VS_SlPc")}  # fmt: skip
    elif _int(srv, "GenModel", 1) == 1:
        gen = {"model": "induction", "sync_speed": _float(srv, "SIG_SySp") * _RPM,
               "rated_slip": pct("SIG_SlPc"), "rated_torque": _float(srv, "SIG_RtTq"),
               "pullout_ratio": _float(srv, "SIG_PORt")}  # fmt: skip
    else:
        gen = {"model": "thevenin", "frequency": _float(srv, "TEC_Freq"),
               "poles": float(_int(srv, "TEC_NPol")), "stator_resistance": _float(srv, "TEC_SRes"),
               "rotor_resistance": _float(srv, "TEC_RRes"), "line_voltage": _float(srv, "TEC_VLL"),
               "stator_reactance": _float(srv, "TEC_SLR"), "rotor_reactance": _float(srv, "TEC_RLR"),
               "magnetizing_reactance": _float(srv, "TEC_MR")}  # fmt: skip
    load.update(generator=gen, efficiency=pct("GenEff"))
    if _bool(srv, "GenTiStr", True):
        load["start_time"] = _float(srv, "TimGenOn")
    else:
        load["start_speed"] = _float(srv, "SpdGenOn") * _RPM
    if _bool(srv, "GenTiStp", True):
        load["stop_time"] = _float(srv, "TimGenOf")
    else:
        load["stop_on_power"] = True
    if _int(srv, "HSSBrMode", 0) == 1:
        load["brake"] = {"start_time": _float(srv, "THSSBrDp"), "ramp_time": _float(srv, "HSSBrDT"),
                         "torque": abs(_float(srv, "HSSBrTqF"))}  # fmt: skip
    return load


def _dll_controller(deck: dict) -> dict[str, Any]:
    """``controller: {kind: dll, ...}`` of ServoDyn's Bladed interface inputs (PCMode = VSContrl
    = 5): DLL_FileName and DLL_InFile relative to the ServoDyn file (as ServoDyn resolves them),
    DLL_ProcName, DLL_DT ("default": ServoDyn's DT), Ptch_Cntrl and the records ServoDyn sends
    (Ptch_SetPnt, Ptch_Min, Ptch_Max, PtchRate_Min, PtchRate_Max in deg, Gain_OM, GenSpd_* in
    rpm, GenTrq_Dem, GenPwr_Dem, NacYaw_North in deg), SI; the air density (AeroDyn AirDens) and
    the mean hub wind (InflowWind HWindSpeed) of records 95, 96 and 27."""
    srv = deck["ServoDyn"]
    base = Path(srv["file"]).parent
    dt = _raw(srv, "DLL_DT", "default")
    if isinstance(dt, str):
        dt = _raw(srv, "DT", "default")
    if isinstance(dt, str):
        dt = _float(deck["fst"], "DT")
    c: dict[str, Any] = {
        "kind": "dll", "library": str(base / _str(srv, "DLL_FileName")),
        "input": str(base / _str(srv, "DLL_InFile")), "proc": _str(srv, "DLL_ProcName", "DISCON"),
        "dt": float(dt),
        "pitch_control": "individual" if _int(srv, "Ptch_Cntrl", 0) == 1 else "collective",
        "root_name": Path(deck["file"]).stem,
        "pitch_setpoint": _float(srv, "Ptch_SetPnt", 0.0) * _DEG,
        "pitch_min": _float(srv, "Ptch_Min", 0.0) * _DEG,
        "pitch_max": _float(srv, "Ptch_Max", 90.0) * _DEG,
        "pitch_rate_min": _float(srv, "PtchRate_Min", -8.0) * _DEG,
        "pitch_rate_max": _float(srv, "PtchRate_Max", 8.0) * _DEG,
        "gain_om": _float(srv, "Gain_OM", 0.0),
        "genspd_minom": _float(srv, "GenSpd_MinOM", 0.0) * _RPM,
        "genspd_maxom": _float(srv, "GenSpd_MaxOM", 0.0) * _RPM,
        "genspd_dem": _float(srv, "GenSpd_Dem", 0.0) * _RPM,
        "gentrq_dem": _float(srv, "GenTrq_Dem", 0.0),
        "genpwr_dem": _float(srv, "GenPwr_Dem", 0.0),
        "nacyaw_north": _float(srv, "NacYaw_North", 0.0) * _DEG,
    }  # fmt: skip
    ad, ifw = deck.get("AeroDyn"), deck.get("InflowWind")
    if ad is not None and isinstance(_raw(ad, "AirDens", None), int | float):
        c["air_density"] = _float(ad, "AirDens")
    if ifw is not None and isinstance(_raw(ifw, "HWindSpeed", None), int | float):
        c["hub_wind"] = _float(ifw, "HWindSpeed")
    return c


# ------------------------------------------------------------------------------ dedicated checks


def _refusals(deck: dict) -> list[str]:
    """Active controllers (PCMode, VSContrl, YCMode, HSSBrMode, AfCmode, CCmode) and structural
    controllers: only override maneuvers are imported."""
    out: list[str] = []
    srv = deck.get("ServoDyn")
    if srv is not None:
        srv_name = Path(srv["file"]).name
        vs = _int(srv, "VSContrl", 0)
        pc = _int(srv, "PCMode", 0)
        if vs not in (0, 1, 5) or (vs == 5 and pc != 5):
            out.append(
                f"{srv_name}: VSContrl = {vs} (user-defined or external generator torque "
                "control) is not supported; use 0 (a generator model), 1 (simple variable speed) "
                "or 5 together with PCMode = 5 (a Bladed-style controller library)"
            )
        elif vs == 5:
            if not _bool(_ed(deck), "GenDOF", False) or generator_off(deck):
                out.append(f"{srv_name}: VSContrl = 5 needs a connected generator (ElastoDyn "
                           "GenDOF = True, the generator on); use 0")  # fmt: skip
            if _bool(srv, "DLL_Ramp", False):
                out.append(f"{srv_name}: DLL_Ramp = True (ramping the library's demands "
                           "between calls) is not supported; use False")  # fmt: skip
            tpc = _raw(srv, "TPCOn", 0.0)
            if isinstance(tpc, int | float) and tpc > 0.0:
                out.append(f"{srv_name}: TPCOn = {tpc:g} (the library's pitch control starting "
                           "later) is not supported with PCMode = 5; use 0")  # fmt: skip
            if _int(srv, "DLL_NumTrq", 0) != 0:
                out.append(f"{srv_name}: DLL_NumTrq = {_int(srv, 'DLL_NumTrq')} (a torque-speed "
                           "table for the library) is not supported; use 0")  # fmt: skip
        gm = _int(srv, "GenModel", 1)
        if vs == 0 and gm not in (1, 2) and not generator_off(deck):
            out.append(
                f"{srv_name}: GenModel = {gm} (user-defined generator) is not supported; use 1 "
                "(simple induction) or 2 (Thevenin equivalent)"
            )
        ed = _ed(deck)
        eff = _float(ed, "GBoxEff", 100.0)
        if _bool(ed, "GenDOF", False) and not generator_off(deck) and eff != 100.0:
            out.append(
                f"{Path(ed['file']).name}: GBoxEff = {eff:g} with the generator connected (a lossy "
                "gearbox) is not supported; use 100"
            )
        if pc not in (0, 5) or (pc == 5 and vs != 5):
            out.append(
                f"{srv_name}: PCMode = {pc} (active pitch control) is not supported; use 0, or 5 "
                "together with VSContrl = 5 (a Bladed-style controller library)"
            )
        for key, what in (
            ("YCMode", "active yaw control"),
            ("AfCmode", "airfoil flow control"),
            ("CCmode", "cable control"),
        ):
            if _int(srv, key, 0) != 0:
                out.append(
                    f"{srv_name}: {key} = {_int(srv, key)} ({what}) is not supported; only "
                    "override yaw and pitch maneuvers are imported"
                )
        for key in ("NumBStC", "NumNStC", "NumTStC", "NumSStC"):
            if _int(srv, key, 0) != 0:
                out.append(
                    f"{srv_name}: {key} = {_int(srv, key)} (structural controllers) is not supported"
                )
    return out


# ---------------------------------------------------------------------------------- the table

_DLL = (
    "Bladed-style controller library input (PCMode = VSContrl = 5): the servodyn load's "
    "controller {kind: dll} (docs/control.md)"
)
_STC = (
    "structural-controller input file, used only with NumBStC/NumNStC/NumTStC/NumSStC > 0 (refused)"
)

_SETTINGS = {
    "ServoDyn": {
        "Echo": N("echo of the input file"),
        "DT": M("ServoDyn's controller time step: the default of DLL_DT"),
        "PCMode": R(
            "PCMode = 0, or 5 with VSContrl = 5 (a controller library)",
            eq(0, 5),
            "5",
            deck="ref03_yaw_spin",
            checked_by="servodyn._refusals",
        ),  # fmt: skip
        "TPCOn": I("pitch-control start time; with PCMode = 5 a TPCOn > 0 is refused"),  # fmt: skip
        "PitNeut(k)": I("pitch-actuator neutral angle, used only with PitchDOF = True (refused)"),
        "PitSpr(k)": I("pitch-actuator spring, used only with PitchDOF = True (refused)"),
        "PitDamp(k)": I("pitch-actuator damper, used only with PitchDOF = True (refused)"),
        "TPitManS(k)": M(
            "pitch maneuver start: ramp of joint pitch1 (--split) and info.pitch_maneuver; the "
            "blade masses lie on the pitch axes, so the other blades' pitch moves no mass"
        ),
        "PitManRat(k)": M("pitch maneuver rate (as TPitManS)"),
        "BlPitchF(k)": M("pitch maneuver final angle (as TPitManS)"),
        "VSContrl": CORE(),
        "GenModel": CORE(),
        "GenEff": CORE(),
        "GenTiStr": CORE(),
        "GenTiStp": CORE(),
        "SpdGenOn": CORE(),
        "TimGenOn": CORE(),
        "TimGenOf": CORE(),
        "VS_RtGnSp": CORE(),
        "VS_RtTq": CORE(),
        "VS_Rgn2K": CORE(),
        "VS_SlPc": CORE(),
        "SIG_SlPc": CORE(),
        "SIG_SySp": CORE(),
        "SIG_RtTq": CORE(),
        "SIG_PORt": CORE(),
        "TEC_Freq": CORE(),
        "TEC_NPol": CORE(),
        "TEC_SRes": CORE(),
        "TEC_RRes": CORE(),
        "TEC_VLL": CORE(),
        "TEC_SLR": CORE(),
        "TEC_RLR": CORE(),
        "TEC_MR": CORE(),
        "HSSBrMode": R(
            "HSSBrMode = 0 or 1 (none, or ServoDyn's simple brake: the servodyn load)",
            eq(0, 1),
            "5",
            deck="ref03_yaw_spin",
        ),
        "THSSBrDp": M("shaft-brake deployment time: the servodyn load's brake.start_time"),
        "HSSBrDT": M("shaft-brake ramp time: the servodyn load's brake.ramp_time"),
        "HSSBrTqF": M("fully deployed shaft-brake torque: the servodyn load's brake.torque"),
        "YCMode": CORE(),
        "TYCOn": CORE(),
        "YawNeut": CORE(),
        "YawSpr": CORE(),
        "YawDamp": CORE(),
        "TYawManS": CORE(),
        "YawManRat": CORE(),
        "NacYawF": CORE(),
        "AfCmode": R("AfCmode = 0 (no airfoil flow control)", eq(0), "1", deck="ref03_yaw_spin"),
        "AfC_Mean": I("airfoil flow control, used only with AfCmode != 0 (refused) and AeroDyn"),
        "AfC_Amp": I("airfoil flow control, used only with AfCmode != 0 (refused) and AeroDyn"),
        "AfC_Phase": I("airfoil flow control, used only with AfCmode != 0 (refused) and AeroDyn"),
        "NumBStC": R(
            "NumBStC = 0 (no blade structural controllers)", eq(0), "1", deck="ref03_yaw_spin"
        ),
        "BStCfiles": I(_STC),
        "NumNStC": R(
            "NumNStC = 0 (no nacelle structural controllers)", eq(0), "1", deck="ref03_yaw_spin"
        ),
        "NStCfiles": I(_STC),
        "NumTStC": R(
            "NumTStC = 0 (no tower structural controllers)", eq(0), "1", deck="ref03_yaw_spin"
        ),
        "TStCfiles": I(_STC),
        "NumSStC": R(
            "NumSStC = 0 (no substructure structural controllers)",
            eq(0),
            "1",
            deck="ref03_yaw_spin",
        ),
        "SStCfiles": I(_STC),
        "CCmode": R("CCmode = 0 (no cable control)", eq(0), "1", deck="ref03_yaw_spin"),
        **{
            k: M(_DLL)
            for k in (
                "DLL_FileName",
                "DLL_InFile",
                "DLL_ProcName",
                "DLL_DT",
                "NacYaw_North",
                "Ptch_Cntrl",
                "Ptch_SetPnt",
                "Ptch_Min",
                "Ptch_Max",
                "PtchRate_Min",
                "PtchRate_Max",
                "Gain_OM",
                "GenSpd_MinOM",
                "GenSpd_MaxOM",
                "GenSpd_Dem",
                "GenTrq_Dem",
                "GenPwr_Dem",
            )
        },  # fmt: skip
        "DLL_Ramp": I(_DLL + "; True is refused"),
        "DLL_NumTrq": I(_DLL + "; a table (> 0) is refused"),
        "BPCutoff": I(
            "cut-off of ServoDyn's filter of the measured blade pitch sent to a library: "
            "floatwind sends the pitch unfiltered (BlPitch has no actuator dynamics)"
        ),
        "SumPrint": N(OUT),
        "OutFile": N(OUT),
        "TabDelim": N(OUT),
        "OutFmt": N(OUT),
        "TStart": N("start time of the tabular output"),
    },
}

#: the DLL controller's generator torque table
_COLUMNS = {
    "ServoDyn": {
        "GenSpd_TLU": I(_DLL),
        "GenTrq_TLU": I(_DLL),
    },
}

FILE_KIND = FileKind(
    "ServoDyn",
    __name__,
    settings=_SETTINGS,
    columns=_COLUMNS,
    files={"ServoDyn": "ServoDyn"},
    check=_refusals,
)
