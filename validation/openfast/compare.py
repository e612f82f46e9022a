"""Compare floatwind with a reference OpenFAST run: ``python validation/openfast/compare.py REF_DIR``.

REF_DIR holds one OpenFAST deck (``*.fst`` and its module files) and its results ``<deck>.out``
and/or ``<deck>.outb`` (a ``case_definition.json`` with ``validation_window_s`` is optional). The
script

1. reads the reference ``.out`` and ``.outb`` (when both exist they must agree to the text
   format's 8 significant digits, else the comparison fails);
2. imports the deck (:mod:`floatwind.case.openfast`) and runs floatwind inside the
   validation window. Where OpenFAST realises a ServoDyn yaw maneuver through its yaw-drive spring,
   floatwind's prescribed nacelle yaw is driven by the reference's NacYaw, NacYawV and NacYawA
   (a quintic Hermite table, exact at the output samples). Where SeaState generated irregular
   waves, floatwind's wave is the reference Wave1Elev (exact FFT reconstruction);
3. converts units and frames: OpenFAST degrees -> rad, kN -> N; OpenFAST v5 platform angles are
   Z-Y'-X'' Tait-Bryan angles (``R = Rz(yaw) Ry(pitch) Rx(roll)``, ``ElastoDyn.f90:6110-6123``),
   which floatwind also writes as PtfmRoll/Pitch/Yaw (``floatwind.simulate.outputs``), computed from
   the rotation matrix - no small-angle conversion anywhere; PtfmRV*/RA* are the angular velocity /
   acceleration vectors in earth axes in both codes; YawBr* loads are in platform axes about the
   tower top, Root*b1 in the pitched blade-1 frame (reference README "Load channels");
4. reports per channel the max abs error, NRMSE (RMS error / reference range), correlation and,
   for decays, the natural period and damping ratio of both, checks the criteria of
   ``criteria.yaml`` (beside this script) and exits with status 1 on a failure (2 on bad input).

Library use (the validation registry and the report call these)::

    from validation.openfast.compare import compare_case
    result = compare_case("path/to/ref01_pitch_decay", t_end=60)
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import pathlib
import re
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
CRITERIA_FILE = HERE / "criteria.yaml"

log = logging.getLogger("floatwind.validation.openfast")

MOTION_CHANNELS = ["PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmRoll", "PtfmPitch", "PtfmYaw"]
RATE_CHANNELS = [f"Ptfm{k}{a}i" for k in ("TV", "RV", "TA", "RA") for a in "xyz"]
LOAD_CHANNELS = (
    [f"YawBr{k}{a}p" for k in ("F", "M") for a in "xyz"]
    + [f"TwrBs{k}{a}t" for k in ("F", "M") for a in "xyz"]
    + [f"Root{k}{a}b1" for k in ("F", "M") for a in "xyz"]
)
HYDRO_CHANNELS = [f"Hydro{k}{a}i" for k in ("F", "M") for a in "xyz"]
#: the nacelle-yaw joint (a degree of freedom with YawDOF, issue 17) and the rotor speed
JOINT_CHANNELS = ["NacYaw", "NacYawV", "NacYawA", "RotSpeed", "YawMom"]
#: ElastoDyn's tower-top deflection/motion channels (the flexible tower, issue 37)
TOWER_CHANNELS = ["TTDspFA", "TTDspSS", "TTDspAx", "TTDspPtch", "TTDspRoll", "YawBrTDxp",
                  "YawBrTDyp", "YawBrTVxp", "YawBrTVyp", "YawBrTAxp", "YawBrTAyp"]  # fmt: skip
#: MAP++ line outputs (``<quantity>[line]``) and the floatwind channel of each
#: (floatwind.loads.catenary: fairlead tension, anchor tension, laid length)
MOORING_CHANNELS = {"T": "FAIRTEN", "T_a": "ANCHTEN", "Lb": "LAYLEN"}
#: MoorDyn output channels (FAIRTEN1, ANCHTEN1, POINT4FX, L1N20PX, ...), same names in floatwind
MOORDYN_CHANNEL = re.compile(r"(FAIRTEN|ANCHTEN)\d+|POINT\d+[PVF][XYZ]|L\d+N\d+(P[XYZ]|V[XYZ]|T)")
#: AeroDyn rotor channels (floatwind.loads.rotor_bem, issue 35) and the blade-node quantities
AERO_CHANNELS = (
    [f"RtAero{k}{a}h" for k in ("F", "M") for a in "xyz"]
    + ["RtAeroPwr", "RtTSR", "RtVAvgxh", "RtVAvgyh", "RtVAvgzh", "RtAeroCp", "RtAeroCt", "RtSkew"]
)
NODE_QUANTITIES = ("Alpha", "AxInd", "TnInd", "Cl", "Cd", "Fx", "Fy", "Vrel", "Phi")

# OpenFAST unit -> factor to SI
UNIT_TO_SI = {
    "deg": math.pi / 180.0,
    "deg/s": math.pi / 180.0,
    "deg/s^2": math.pi / 180.0,
    "kN": 1e3,
    "kN-m": 1e3,
    "kNm": 1e3,
    "kN·m": 1e3,
    "rpm": 2.0 * math.pi / 60.0,
}
# floor of the normalising range, SI, by unit (a channel that is identically ~0 in the reference
# is judged by its absolute error against this floor instead of a meaningless relative one)
RANGE_FLOOR = {
    "m": 1e-3,
    "rad": 1e-5,
    "m/s": 1e-4,
    "rad/s": 1e-6,
    "m/s^2": 1e-4,
    "rad/s^2": 1e-6,
    "N": 1e2,
    "N-m": 1e3,
    "N m": 1e3,
    "-": 1e-6,
    "N/m": 1e-2,
}


#: wave kinematics mode of the reconstructed reference sea (docs/environment.md "Fast kinematics"):
#: "direct" sums the components exactly at the displaced strip positions
WAVE_KINEMATICS = "auto"
#: components of the reference elevation above this frequency are dropped: SeaState keeps all up
#: to pi/WaveDT (10 Hz for ref05), whose kinematics decay as exp(omega^2 z / g) (< 1e-3 of the
#: peak amplitude above 1 Hz for Tp = 10 s) and whose fast-kinematics normalisation overflows
WAVE_F_MAX_HZ = 1.0


class CompareError(Exception):
    """Bad input to the comparison (missing files, unreadable deck): exit status 2."""


@dataclass
class ChannelResult:
    channel: str
    units: str
    max_abs_error: float
    nrmse: float
    correlation: float
    ref_range: float
    criterion: float | None = None
    passed: bool | None = None
    note: str = ""


@dataclass
class CaseResult:
    case: str
    ref_dir: str
    window: tuple[float, float]
    channels: list[ChannelResult] = field(default_factory=list)
    decay: dict[str, dict[str, float]] = field(default_factory=dict)
    checks: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    wall_s: float = 0.0
    time: np.ndarray | None = None
    series: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return all(c.passed is not False for c in self.channels) and all(
            c["passed"] for c in self.checks
        )

    def rows(self) -> list[dict[str, Any]]:
        """Summary rows (case, metric, value, criterion, pass)."""
        out = [
            {
                "case": self.case,
                "metric": c["metric"],
                "value": c["value"],
                "criterion": c["criterion"],
                "passed": c["passed"],
            }
            for c in self.checks
        ]
        for c in self.channels:
            out.append(
                {
                    "case": self.case,
                    "metric": f"NRMSE {c.channel}",
                    "value": c.nrmse,
                    "criterion": None if c.criterion is None else f"<= {c.criterion:g}",
                    "passed": c.passed,
                }
            )
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "case": self.case,
            "ref_dir": self.ref_dir,
            "window_s": list(self.window),
            "passed": self.passed,
            "wall_s": self.wall_s,
            "notes": self.notes,
            "checks": self.checks,
            "decay": self.decay,
            "channels": [c.__dict__ for c in self.channels],
        }


# ------------------------------------------------------------------------------ inputs


def find_reference(ref_dir: pathlib.Path) -> dict[str, pathlib.Path | None]:
    """The deck and result files of a reference folder."""
    ref_dir = pathlib.Path(ref_dir)
    if not ref_dir.is_dir():
        raise CompareError(f"{ref_dir}: not a folder")
    fsts = sorted(ref_dir.glob("*.fst"))
    if len(fsts) != 1:
        raise CompareError(f"{ref_dir}: expected exactly one .fst deck, found {len(fsts)}")
    fst = fsts[0]
    out = fst.with_suffix(".out")
    outb = fst.with_suffix(".outb")
    if not out.is_file() and not outb.is_file():
        raise CompareError(f"{ref_dir}: no reference result {out.name} or {outb.name}")
    cdef = ref_dir / "case_definition.json"
    return {
        "fst": fst,
        "out": out if out.is_file() else None,
        "outb": outb if outb.is_file() else None,
        "case_definition": cdef if cdef.is_file() else None,
    }


def read_reference(files: dict) -> tuple[Any, dict[str, Any]]:
    """Read ``.out`` and ``.outb``; check they agree. Returns (dataset, check row)."""
    from floatwind.io.openfast import read_out, read_outb

    ds_txt = read_out(files["out"]) if files["out"] else None
    ds_bin = read_outb(files["outb"]) if files["outb"] else None
    if ds_txt is None or ds_bin is None:
        ds = ds_bin if ds_bin is not None else ds_txt
        return ds, {
            "metric": ".out/.outb agreement",
            "value": float("nan"),
            "criterion": "only one file present",
            "passed": True,
        }
    worst = 0.0
    worst_ch = ""
    if ds_txt.sizes["time"] != ds_bin.sizes["time"]:
        raise CompareError(
            f"{files['out']}: {ds_txt.sizes['time']} rows but {files['outb']} has {ds_bin.sizes['time']}"
        )
    t_err = float(np.max(np.abs(ds_txt.time.values - ds_bin.time.values)))
    for name in ds_txt.data_vars:
        if name not in ds_bin:
            raise CompareError(
                f"channel {name} of {files['out'].name} is missing from {files['outb'].name}"
            )
        a = ds_txt[name].values
        b = ds_bin[name].values
        scale = max(float(np.max(np.abs(b))), 1e-30)
        rel = float(np.max(np.abs(a - b))) / scale
        if rel > worst:
            worst, worst_ch = rel, name
    # ES15.7E2 keeps 8 significant digits: 5e-8 of the value by rounding, relative to the channel
    # maximum; ref09's text has a last digit off by one where a value is near 1 (B1N8Cl
    # 1.0164618 for 1.01646191 in the .outb: 1.04e-7 of the channel maximum), hence 2e-7
    crit = 2e-7
    return ds_bin, {
        "metric": f".out/.outb max relative difference ({worst_ch}; time {t_err:.1e} s)",
        "value": worst,
        "criterion": f"<= {crit:g}",
        "passed": bool(worst <= crit and t_err <= 1e-6),
    }


def load_criteria(path: pathlib.Path = CRITERIA_FILE) -> dict[str, Any]:
    """The criteria file, read by floatwind's one YAML reader: a key given twice (which limit
    was meant?) is refused naming both lines (issue 42)."""
    from floatwind.errors import CaseError
    from floatwind.io.safe import load_yaml, read_text

    try:
        return load_yaml(read_text(pathlib.Path(path)), file=str(path))
    except CaseError as exc:
        raise CompareError(str(exc)) from None


def criteria_for(case: str, kind: str, criteria: dict[str, Any]) -> dict[str, float]:
    """Per-channel-group limits: the case's own entry, else the defaults of its kind."""
    base = dict(criteria["defaults"][kind])
    base.update(criteria.get("cases", {}).get(case, {}) or {})
    return base


def channel_group(name: str) -> str:
    if name in MOTION_CHANNELS:
        return "motions"
    if name in TOWER_CHANNELS:
        return "tower"
    if name in RATE_CHANNELS:
        return "rates"
    if name in HYDRO_CHANNELS:
        return "hydro_loads"
    if name.startswith(("YawBr", "TwrBs", "Root")):
        return "structural_loads"
    if name == "YawMom":
        return "structural_loads"
    if name in JOINT_CHANNELS:
        return "joints"
    if name in AERO_CHANNELS or (name[:1] == "B" and name.endswith(NODE_QUANTITIES)):
        return "aero"
    if name.split("[")[0] in MOORING_CHANNELS and name.endswith("]"):
        return "mooring"
    if MOORDYN_CHANNEL.fullmatch(name):
        return "mooring"
    return "other"


# ------------------------------------------------------------------------------ metrics


def metrics(ref: np.ndarray, sim: np.ndarray, units: str) -> tuple[float, float, float, float]:
    """(max abs error, NRMSE over the reference range, correlation, reference range)."""
    err = sim - ref
    rng = float(np.ptp(ref))
    floor = RANGE_FLOOR.get(units, 0.0)
    nrmse = float(np.sqrt(np.mean(err**2)) / max(rng, floor, 1e-300))
    if np.std(ref) > 0 and np.std(sim) > 0:
        corr = float(np.corrcoef(ref, sim)[0, 1])
    else:
        corr = float("nan")
    return float(np.max(np.abs(err))), nrmse, corr, rng


def decay_properties(t: np.ndarray, x: np.ndarray) -> dict[str, float]:
    """Natural period (mean spacing of successive maxima) and damping ratio (log decrement).

    Peaks are the local maxima of x - mean(x), refined by a parabola through the three samples;
    the damping ratio is ``delta / sqrt(4 pi^2 + delta^2)`` with ``delta`` the mean logarithmic
    decrement of successive positive peaks.
    """
    y = x - np.mean(x[len(x) // 2 :])
    k = np.where((y[1:-1] > y[:-2]) & (y[1:-1] >= y[2:]) & (y[1:-1] > 0))[0] + 1
    if len(k) < 3:
        return {"period_s": float("nan"), "damping_ratio": float("nan"), "n_peaks": float(len(k))}
    dt = t[1] - t[0]
    a, b, c = y[k - 1], y[k], y[k + 1]
    den = a - 2 * b + c
    off = np.where(den != 0, 0.5 * (a - c) / np.where(den != 0, den, 1.0), 0.0)
    tp = t[k] + off * dt
    yp = b - 0.25 * (a - c) * off
    keep = yp > 0.02 * yp[0]
    tp, yp = tp[keep], yp[keep]
    if len(tp) < 3:
        return {"period_s": float("nan"), "damping_ratio": float("nan"), "n_peaks": float(len(tp))}
    period = float(np.mean(np.diff(tp)))
    delta = float(np.mean(np.log(yp[:-1] / yp[1:])))
    zeta = delta / math.sqrt(4 * math.pi**2 + delta**2)
    return {"period_s": period, "damping_ratio": zeta, "n_peaks": float(len(tp))}


# ------------------------------------------------------------------------------ the run


def hermite_table(t: np.ndarray, q: np.ndarray, qd: np.ndarray, qdd: np.ndarray, sub: int):
    """Quintic Hermite interpolation of (q, qd, qdd) samples on ``sub`` points per interval.

    Exact at the samples, C2 between them; returns dense (time, q, qd, qdd) for a linear table.
    """
    h = np.diff(t)
    s = np.arange(sub) / sub
    s = s[None, :]
    hh = h[:, None]
    q0, q1 = q[:-1, None], q[1:, None]
    v0, v1 = qd[:-1, None] * hh, qd[1:, None] * hh
    a0, a1 = qdd[:-1, None] * hh**2, qdd[1:, None] * hh**2
    # quintic Hermite basis and its derivatives
    H = [
        1 - 10 * s**3 + 15 * s**4 - 6 * s**5,
        s - 6 * s**3 + 8 * s**4 - 3 * s**5,
        0.5 * s**2 - 1.5 * s**3 + 1.5 * s**4 - 0.5 * s**5,
        0.5 * s**3 - s**4 + 0.5 * s**5,
        -4 * s**3 + 7 * s**4 - 3 * s**5,
        10 * s**3 - 15 * s**4 + 6 * s**5,
    ]
    dH = [
        -30 * s**2 + 60 * s**3 - 30 * s**4,
        1 - 18 * s**2 + 32 * s**3 - 15 * s**4,
        s - 4.5 * s**2 + 6 * s**3 - 2.5 * s**4,
        1.5 * s**2 - 4 * s**3 + 2.5 * s**4,
        -12 * s**2 + 28 * s**3 - 15 * s**4,
        30 * s**2 - 60 * s**3 + 30 * s**4,
    ]
    ddH = [
        -60 * s + 180 * s**2 - 120 * s**3,
        -36 * s + 96 * s**2 - 60 * s**3,
        1 - 9 * s + 18 * s**2 - 10 * s**3,
        3 * s - 12 * s**2 + 10 * s**3,
        -24 * s + 84 * s**2 - 60 * s**3,
        60 * s - 180 * s**2 + 120 * s**3,
    ]
    coef = [q0, v0, a0, a1, v1, q1]
    val = sum(c * b for c, b in zip(coef, H, strict=True))
    der = sum(c * b for c, b in zip(coef, dH, strict=True)) / hh
    acc = sum(c * b for c, b in zip(coef, ddH, strict=True)) / hh**2
    tt = (t[:-1, None] + s * hh).ravel()
    return (
        np.append(tt, t[-1]),
        np.append(val.ravel(), q[-1]),
        np.append(der.ravel(), qd[-1]),
        np.append(acc.ravel(), qdd[-1]),
    )


def _si(ds, name: str) -> tuple[np.ndarray, str]:
    """Reference channel in SI units and the SI unit name."""
    units = ds[name].attrs.get("units", "").strip().strip("[]()")
    vals = np.asarray(ds[name].values, dtype=float)
    f = UNIT_TO_SI.get(units, 1.0)
    si_units = {
        "deg": "rad",
        "deg/s": "rad/s",
        "deg/s^2": "rad/s^2",
        "kN": "N",
        "kN-m": "N-m",
        "kNm": "N-m",
        "rpm": "rad/s",
    }.get(units, units)
    return vals * f, si_units


def _load_channel_function(model):
    """OpenFAST load channels from floatwind's inverse dynamics
    (:func:`floatwind.multibody.load_channels.channels_for`, the channels a deck run writes): YawBr*p
    at the ``yaw`` joint (load of the RNA on the tower top, tower = platform axes), TwrBs*t at
    the ``tower`` joint (tower + RNA on the platform, platform axes), Root*b1 at the ``pitch1``
    joint (blade 1 on the hub, pitched blade-1 axes)."""
    from floatwind.multibody import channels_for

    names = {j.name for j in model.tree.joint_of.values()}
    if not names & {"yaw", "tower", "pitch1"}:
        return None, "the model has no yaw/tower/pitch1 joints: load channels not compared"
    return channels_for(model.tree), ""


def hydrodyn_channels(ds, load_names: list[str]) -> dict[str, np.ndarray]:
    """HydroDyn's HydroF*i/HydroM*i as 1-D series: the sums a deck run writes
    (:func:`floatwind.case.openfast.outputs.hydrodyn_totals`); {} when a per-load channel is
    missing."""
    from floatwind.case.openfast.outputs import hydrodyn_totals

    return {k: np.ravel(v) for k, v in hydrodyn_totals(ds, load_names).items()}


def compare_case(
    ref_dir: str | pathlib.Path,
    *,
    t_end: float | None = None,
    criteria: dict[str, Any] | None = None,
    morison_axis: str = "undisplaced",
    dt: float | None = None,
    keep_series: bool = True,
    plain: bool = False,
) -> CaseResult:
    """Run floatwind on the deck of ``ref_dir`` and compare with the reference output.

    ``plain=True`` runs the imported deck as ``floatwind run DECK.fst`` does (its own joint
    motions; a yaw maneuver is the imported ramp), only the recorded wave elevation is taken
    from the reference (SeaState's random phases cannot be reproduced); the default drives a
    yaw maneuver with the reference's NacYaw/NacYawV/NacYawA.

    Parameters
    ----------
    ref_dir : path
        Reference folder (one ``.fst`` deck, ``.out``/``.outb`` results).
    t_end : float, optional
        End of the compared window (s); default the end of ``validation_window_s`` (or TMax).
    criteria : dict, optional
        Parsed ``criteria.yaml`` (default: the file beside this script).
    morison_axis : {"undisplaced", "instantaneous"}
        Morison member axis (HydroDyn uses the undisplaced axis).
    dt : float, optional
        floatwind RK4 step (default: the deck's DT, or half DT_Out when the yaw is table-driven).
    """
    from floatwind.case import openfast as od
    from floatwind.case.openfast import case_from_deck, model_from_deck
    from floatwind.errors import CaseError
    from floatwind.simulate import simulate

    ref_dir = pathlib.Path(ref_dir)
    files = find_reference(ref_dir)
    criteria = criteria or load_criteria()
    ref, io_check = read_reference(files)
    try:
        deck = od.read_fst(files["fst"])
        hd = od.hydrodyn_model(deck)
        has_members = bool(hd and hd["members"])
        res = case_from_deck(deck, split=True, morison_axis=morison_axis)
    except CaseError as exc:
        raise CompareError(str(exc.with_file(str(files["fst"])))) from None
    case_name = files["fst"].stem
    potential = any(ld.get("type") == "potential_radiation" for ld in res["case"]["loads"])
    kind = "morison" if has_members else "potential" if potential else "rigid"
    result = CaseResult(case=case_name, ref_dir=str(ref_dir), window=(0.0, 0.0))
    result.checks.append(io_check)
    result.notes.extend(res["notes"])
    window = [0.0, float(ref.time.values[-1])]
    if files["case_definition"] is not None:
        cdef = json.loads(files["case_definition"].read_text())
        if "validation_window_s" in cdef:
            window = [float(v) for v in cdef["validation_window_s"]]
    if t_end is not None:
        window[1] = min(window[1], float(t_end))
    result.window = (window[0], window[1])
    case = res["case"]
    case["simulation"]["t_max"] = window[1]
    dt_out_ref = float(ref.time.values[1] - ref.time.values[0])
    case["simulation"]["dt_out"] = dt_out_ref

    # yaw maneuver: drive the nacelle with the reference's own yaw motion (not in --plain mode,
    # which runs the deck as `floatwind run DECK.fst` does: the imported ServoDyn ramp)
    yaw_dof = res["info"]["decisions"].get("yaw") == "drive"
    if plain and yaw_dof:
        result.notes.append(
            "plain: the nacelle yaw is a degree of freedom on the yaw-drive spring/damper toward "
            "the imported ServoDyn command, as `floatwind run DECK.fst` runs it (issue 17)"
        )
        if dt is not None:
            case["simulation"]["dt"] = dt
    elif yaw_dof:
        if not all(c in ref for c in ("NacYaw", "NacYawV", "NacYawA")):
            raise CompareError(
                f"{ref_dir}: the yaw maneuver needs the NacYaw, NacYawV and NacYawA channels in the reference"
            )
        step = dt or dt_out_ref / 2.0
        sub = max(1, int(round(dt_out_ref / (step / 2.0))))
        tt, qq, vv, aa = hermite_table(
            ref.time.values, *(_si(ref, c)[0] for c in ("NacYaw", "NacYawV", "NacYawA")), sub
        )
        for j in case["joints"]:
            if j["name"] == "yaw":
                j.pop("drive", None)  # prescribed from the reference instead of the yaw DOF
                j["rotation"] = {
                    "kind": "table",
                    "time": tt.tolist(),
                    "values": qq.tolist(),
                    "rates": vv.tolist(),
                    "accelerations": aa.tolist(),
                }
        case["simulation"]["dt"] = step
        result.notes.append(
            "nacelle yaw prescribed from the reference NacYaw/NacYawV/NacYawA (quintic Hermite "
            f"table, {sub} points per output step): OpenFAST realises the ServoDyn yaw maneuver "
            "through the yaw-drive spring/damper, whose lag and transients are thus reproduced; "
            f"RK4 step {step:g} s (the platform no longer sees the stiff yaw spring)"
        )
    elif dt is not None:
        case["simulation"]["dt"] = dt

    # irregular waves: the reference's own elevation (SeaState's random phases cannot be
    # reproduced); a regular wave with its phase (WaveMod = 1P#) is deterministic and kept
    waves_cfg = case.get("environment", {}).get("waves")
    if waves_cfg is not None and waves_cfg.get("kind") != "regular":
        if "Wave1Elev" not in ref:
            raise CompareError(f"{ref_dir}: wave case without a Wave1Elev channel in the reference")
        src = files["out"] or files["outb"]
        case["environment"]["waves"] = {
            "kind": "elevation",
            "file": str(pathlib.Path(src).resolve()),
            "channel": "Wave1Elev",
            "heading_deg": case["environment"]["waves"].get("heading_deg", 0.0),
            "stretching": "none",
            "kinematics": WAVE_KINEMATICS,
            "f_max": WAVE_F_MAX_HZ,
        }
        result.notes.append(
            "wave elevation = the reference Wave1Elev (exact FFT of SeaState's grid samples), linear "
            "Airy kinematics without stretching (SeaState WaveStMod = 0)"
        )

    model = model_from_deck(files["fst"], result={**res, "case": case})
    extra, why = _load_channel_function(model)
    if why:
        result.notes.append(why)
    t0 = time.perf_counter()
    ds = simulate(model, progress=False, extra_channels=extra)
    result.wall_s = time.perf_counter() - t0

    hydro_names = [model.loads[i].name for i in res["info"].get("hydrodyn_loads", [])]
    hydro = hydrodyn_channels(ds, hydro_names)
    if hydro:
        ds = ds.assign({k: (("time",), v) for k, v in hydro.items()})
        result.notes.append(
            "HydroF*i/HydroM*i = sum of the HydroDyn loads " + ", ".join(hydro_names) + " (force, "
            "moment about the displaced PRP, earth axes, added-mass reaction included)"
        )
    # NacYaw, NacYawV, NacYawA, RotSpeed as `floatwind run DECK.fst` writes them (the yaw DOF's
    # own states in --plain mode)
    from floatwind.case.openfast.outputs import deck_channels

    joints = {k: v for k, v in deck_channels(ds, model, res["info"]).items() if k in JOINT_CHANNELS}
    if joints:
        ds = ds.assign(joints)

    mooring = []
    for q, fw in MOORING_CHANNELS.items():
        i = 1
        while f"{q}[{i}]" in ref and f"{fw}{i}" in ds:
            ds = ds.assign({f"{q}[{i}]": (("time",), np.ravel(ds[f"{fw}{i}"].values))})
            mooring.append(f"{q}[{i}]")
            i += 1
    if mooring:
        result.notes.append(
            "MAP++ line outputs T[i], T_a[i], Lb[i] = floatwind's FAIRTENi, ANCHTENi, LAYLENi"
        )

    # MoorDyn's channels (upper case in OpenFAST's output) are floatwind's names (issue 38)
    mooring += [c for c in ref.data_vars if MOORDYN_CHANNEL.fullmatch(str(c)) and c in ds]

    t_sim = np.asarray(ds.time.values)
    ref_w = ref.sel(time=slice(window[0] - 1e-9, window[1] + 1e-9))
    t_ref = np.asarray(ref_w.time.values)
    idx = np.searchsorted(t_sim, t_ref - 1e-7)
    ok = (idx < len(t_sim)) & (np.abs(t_sim[np.minimum(idx, len(t_sim) - 1)] - t_ref) < 1e-6)
    if not np.all(ok):
        raise CompareError(
            f"floatwind output times do not cover the reference times of {case_name}"
        )
    result.time = t_ref
    limits = criteria_for(case_name, kind, criteria)
    if plain and f"{case_name}_plain" in (criteria.get("cases") or {}):
        limits = criteria_for(f"{case_name}_plain", kind, criteria)
    nodes = [f"B{k}N{i}{q}" for k in (1, 2, 3) for i in range(1, 10) for q in NODE_QUANTITIES]
    channels = (
        MOTION_CHANNELS + RATE_CHANNELS + LOAD_CHANNELS + HYDRO_CHANNELS + mooring + JOINT_CHANNELS
        + AERO_CHANNELS + nodes + TOWER_CHANNELS
    )
    for name in channels:
        if name not in ref_w or name not in ds:
            continue
        r, units = _si(ref_w, name)
        s = np.ravel(np.asarray(ds[name].values, dtype=float))[idx]
        mx, nr, corr, rng = metrics(r, s, units)
        group = channel_group(name)
        crit = limits.get(group)
        cr = ChannelResult(
            name, units, mx, nr, corr, rng, crit, None if crit is None else bool(nr <= crit)
        )
        if rng < RANGE_FLOOR.get(units, 0.0):
            cr.note = (
                f"reference range below {RANGE_FLOOR[units]:g} {units}: normalised by that floor"
            )
        result.channels.append(cr)
        if keep_series:
            result.series[name] = (r, s)
    missing = [c for c in MOTION_CHANNELS if c not in ds or c not in ref_w]
    if missing:
        result.checks.append(
            {
                "metric": "platform motion channels present",
                "value": float(len(missing)),
                "criterion": "all six",
                "passed": False,
            }
        )
    # decays: natural period and damping ratio of the dominant motion
    ic = od.initial_conditions(deck)
    is_decay = "waves" not in case.get("environment", {}) and any(
        abs(ic[k]) > 0 for k in MOTION_CHANNELS
    )
    if is_decay:
        main = max(
            MOTION_CHANNELS,
            key=lambda k: abs(ic[k]) / (1.0 if "Roll" in k or "Pitch" in k or "Yaw" in k else 10.0),
        )
        if main in result.series:
            r, s = result.series[main]
            dr = decay_properties(t_ref, r)
            dsim = decay_properties(t_ref, s)
            result.decay[main] = {
                "period_ref_s": dr["period_s"],
                "period_floatwind_s": dsim["period_s"],
                "damping_ref": dr["damping_ratio"],
                "damping_floatwind": dsim["damping_ratio"],
            }
            if math.isfinite(dr["period_s"]):
                rel = abs(dsim["period_s"] / dr["period_s"] - 1.0)
                crit_p = limits.get("decay_period_rel", 1e-3)
                result.checks.append(
                    {
                        "metric": f"{main} natural period relative difference",
                        "value": rel,
                        "criterion": f"<= {crit_p:g}",
                        "passed": bool(rel <= crit_p),
                    }
                )
    return result


def save_series(res: CaseResult, path: pathlib.Path) -> None:
    """The compared series of ``res`` as an ``.npz`` (``time``, ``<ch>_ref``, ``<ch>_sim``, SI)."""
    arrays = {"time": res.time}
    for ch, (r, s) in res.series.items():
        arrays[f"{ch}_ref"] = r
        arrays[f"{ch}_sim"] = s
    np.savez_compressed(path, **arrays)


def format_result(res: CaseResult) -> str:
    lines = [
        f"== {res.case}  window {res.window[0]:g}-{res.window[1]:g} s  floatwind wall {res.wall_s:.1f} s  "
        f"{'PASS' if res.passed else 'FAIL'}"
    ]
    for n in res.notes:
        lines.append(f"   note: {n}")
    for c in res.checks:
        lines.append(
            f"   {'ok  ' if c['passed'] else 'FAIL'} {c['metric']}: {c['value']:.3g} ({c['criterion']})"
        )
    lines.append(
        f"   {'channel':<10s} {'units':<8s} {'max|err|':>11s} {'NRMSE':>10s} {'corr':>12s} {'criterion':>10s}"
    )
    for c in res.channels:
        flag = "" if c.passed is None else ("ok" if c.passed else "FAIL")
        crit = "" if c.criterion is None else f"{c.criterion:g}"
        lines.append(
            f"   {c.channel:<10s} {c.units:<8s} {c.max_abs_error:11.3e} {c.nrmse:10.2e} "
            f"{c.correlation:12.9f} {crit:>10s} {flag}"
        )
    for ch, d in res.decay.items():
        lines.append(
            f"   decay {ch}: period ref {d['period_ref_s']:.5f} s, floatwind {d['period_floatwind_s']:.5f} s; "
            f"damping ratio ref {d['damping_ref']:.6f}, floatwind {d['damping_floatwind']:.6f}"
        )
    return "\n".join(lines)


DOCS_BEGIN = "<!-- compare table: begin (validation/openfast/compare.py --docs writes it) -->"
DOCS_END = "<!-- compare table: end -->"
DOCS_HEADER = (
    "| case | window | motions (max of 6) | YawBr/TwrBs/Root (max) | HydroF/M (max) | other |\n"
    "|---|---|---|---|---|---|"
)


def _worst(res: CaseResult, prefixes: tuple[str, ...]) -> str:
    """'NRMSE (channel; next two)' of the channels starting with ``prefixes``."""
    cs = sorted((c for c in res.channels if c.channel.startswith(prefixes) and np.isfinite(c.nrmse)),
                key=lambda c: -c.nrmse)  # fmt: skip
    if not cs:
        return "-"
    rest = ", ".join(f"{c.channel} {c.nrmse:.1e}" for c in cs[1:3])
    return f"{cs[0].nrmse:.1e} ({cs[0].channel}{'; ' + rest if rest else ''})"


def docs_row(res: CaseResult) -> str:
    """One row of the measured table in docs/validation.md from a comparison's results."""
    other = []
    for ch, d in res.decay.items():
        other.append(f"{ch} period {d['period_ref_s']:.5f} vs {d['period_floatwind_s']:.5f} s, "
                     f"damping {d['damping_ref']:.6f} vs {d['damping_floatwind']:.6f}")  # fmt: skip
    crit = [c for c in res.channels if c.criterion is not None]
    if crit:
        worst = max(crit, key=lambda c: c.nrmse / c.criterion)
        other.append(f"closest to its criterion: {worst.channel} {worst.nrmse:.1e} <= {worst.criterion:g}")
    other.append(f"{'pass' if res.passed else 'FAIL'}; floatwind wall {res.wall_s:.0f} s")
    motions = _worst(res, ("PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmRoll", "PtfmPitch", "PtfmYaw"))
    return (f"| {res.case} | {res.window[0]:g}-{res.window[1]:g} s | {motions} | "
            f"{_worst(res, ('YawBr', 'TwrBs', 'Root'))} | {_worst(res, ('Hydro',))} | "
            f"{'; '.join(other)} |")  # fmt: skip


def update_docs(path: pathlib.Path, results: list[CaseResult]) -> None:
    """Replace the rows of ``results`` (same case and window) in the measured table of ``path``
    (between :data:`DOCS_BEGIN` and :data:`DOCS_END`), keep the other rows, sort by case."""
    text = path.read_text()
    if DOCS_BEGIN not in text or DOCS_END not in text:
        raise CompareError(f"{path} has no '{DOCS_BEGIN}' ... '{DOCS_END}' markers")
    before, rest = text.split(DOCS_BEGIN, 1)
    table, after = rest.split(DOCS_END, 1)
    rows = {}
    for line in table.strip().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) >= 2 and not line.startswith("| case |"):
            rows[(cells[0], cells[1])] = line.strip()
    for r in results:
        rows[(r.case, f"{r.window[0]:g}-{r.window[1]:g} s")] = docs_row(r)
    body = "\n".join(rows[k] for k in sorted(rows))
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(f"{before}{DOCS_BEGIN}\n{DOCS_HEADER}\n{body}\n{DOCS_END}{after}")
    tmp.replace(path)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("ref_dir", nargs="+", help="reference folder(s)")
    p.add_argument("--tmax", type=float, help="end of the compared window (s)")
    p.add_argument("--dt", type=float, help="floatwind RK4 step (s)")
    p.add_argument(
        "--morison-axis", choices=("undisplaced", "instantaneous"), default="undisplaced"
    )
    p.add_argument("--criteria", type=pathlib.Path, default=CRITERIA_FILE)
    p.add_argument("--plain", action="store_true",
                   help="also run each deck as 'floatwind run DECK.fst' does (its own yaw "
                        "motion; only the recorded sea from the reference) and report both modes")  # fmt: skip
    p.add_argument("--json", type=pathlib.Path, help="write the results as JSON")
    p.add_argument("--docs", type=pathlib.Path,
                   help="replace these cases' rows of the measured table in this Markdown file "
                        "(docs/validation.md)")  # fmt: skip
    p.add_argument(
        "--npz",
        type=pathlib.Path,
        help="write the compared series (time, <channel>_ref, <channel>_sim) of the last case as .npz",
    )
    args = p.parse_args(argv)
    if argv is None:  # this script's own process: it never uses Dask (floatwind.cli.without_dask)
        from floatwind.cli import without_dask

        without_dask()
    logging.basicConfig(level=logging.WARNING)
    try:
        criteria = load_criteria(args.criteria)
        results = []
        for d in args.ref_dir:
            r = compare_case(
                d, t_end=args.tmax, criteria=criteria, morison_axis=args.morison_axis, dt=args.dt
            )
            print(format_result(r), flush=True)
            results.append(r)
            if args.plain:
                rp = compare_case(d, t_end=args.tmax, criteria=criteria,
                                  morison_axis=args.morison_axis, dt=args.dt, plain=True)  # fmt: skip
                rp.case = f"{rp.case} (plain)"
                print(format_result(rp), flush=True)
                results.append(rp)
    except (CompareError, OSError) as exc:
        print(f"compare.py: error: {exc}", file=sys.stderr)
        return 2
    if args.npz and results and results[-1].time is not None:
        save_series(results[-1], args.npz)
    if args.json:
        args.json.write_text(json.dumps([r.to_json() for r in results], indent=1, default=float))
    if args.docs:
        update_docs(args.docs, results)
        print(f"wrote the rows of {len(results)} case(s) into {args.docs}")
    return 0 if all(r.passed for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
