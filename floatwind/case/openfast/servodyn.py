"""ServoDyn: override yaw and pitch maneuvers, the yaw drive, whether the generator is on, the
refusal of active and structural controllers, and its part of the settings table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from floatwind.case.openfast.reader import _DEG, _bool, _ed, _float, _int
from floatwind.case.openfast.settings import CORE, OUT, FileKind, I, M, N, R, eq

__all__ = ["FILE_KIND", "generator_off", "servodyn_maneuvers"]


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


# ------------------------------------------------------------------------------ dedicated checks


def _refusals(deck: dict) -> list[str]:
    """Active controllers (PCMode, VSContrl, YCMode, HSSBrMode, AfCmode, CCmode) and structural
    controllers: only override maneuvers are imported."""
    out: list[str] = []
    srv = deck.get("ServoDyn")
    if srv is not None:
        srv_name = Path(srv["file"]).name
        for key, what in (
            ("PCMode", "active pitch control"),
            ("VSContrl", "generator torque control"),
            ("YCMode", "active yaw control"),
            ("HSSBrMode", "high-speed shaft brake"),
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
    "Bladed-style DLL controller input, used only when a ServoDyn controller mode is 5 "
    "(PCMode/VSContrl/YCMode other than 0 are refused)"
)
_STC = (
    "structural-controller input file, used only with NumBStC/NumNStC/NumTStC/NumSStC > 0 (refused)"
)

_SETTINGS = {
    "ServoDyn": {
        "Echo": N("echo of the input file"),
        "DT": N("ServoDyn's controller time step; floatwind imports no active controller"),
        "PCMode": R("PCMode = 0 (no active pitch control)", eq(0), "5", deck="ref03_yaw_spin"),
        "TPCOn": I("pitch-control start time, used only with PCMode != 0 (refused)"),
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
            "HSSBrMode = 0 (no high-speed shaft brake)", eq(0), "1", deck="ref03_yaw_spin"
        ),
        "THSSBrDp": I("shaft-brake deployment time, used only with HSSBrMode != 0 (refused)"),
        "HSSBrDT": I("shaft-brake ramp time, used only with HSSBrMode != 0 (refused)"),
        "HSSBrTqF": I("shaft-brake torque, used only with HSSBrMode != 0 (refused)"),
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
            k: I(_DLL)
            for k in (
                "DLL_FileName",
                "DLL_InFile",
                "DLL_ProcName",
                "DLL_DT",
                "DLL_Ramp",
                "BPCutoff",
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
                "DLL_NumTrq",
            )
        },  # fmt: skip
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
