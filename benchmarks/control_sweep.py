"""The baseline controller from cut-in to cut-out on the OC3-Hywind spar with the BEM rotor
(issue 36, docs/control.md "Cut-in to cut-out"): steady winds, each run from a start near its
operating point, the means and ranges over the last ``--window`` seconds.

The model is the one of benchmarks/control_stability.py (OpenFAST's ref09 deck, GenDOF on, the
generator geared at 97, still water) in a steady uniform wind (the deck's InflowWind, no shear)
closed by the compiled baseline controller (``--preset``, default the OC3-Hywind detuned gains).
The start: the rotor at the optimal tip-speed ratio 7.55 below rated (within 6.9 .. 12.1 rpm),
12.1 rpm above; the blades at 0 deg below 11.4 m/s, above it at the pitch where floatwind's
steady BEM rotor gives rated power at rated speed (benchmarks/control_pitch_sensitivity.py); the
platform level.

For each wind the region of the torque law the controller is in at the end (from the mean
generator speed and blade pitch: 1 below VS_CtInSp, 1 1/2 below VS_Rgn2Sp, 2 below VS_TrGnSp,
2 1/2 below VS_RtGnSp with the pitch under VS_Rgn3MP, else 3), the mean rotor speed, blade
pitch, electrical power, tip-speed ratio and platform pitch, the rotor speed's range and the
largest rate of change of the rotor speed over the window (stable: settled, no growing
oscillation); writes a JSON table (``--json``) and the figure (``--out``).

    PYTHONPATH=$PWD python benchmarks/control_sweep.py --out docs/figures/control_sweep.png
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
import shutil
import stat
import sys
import tempfile
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from control_stability import REF09, _edit  # noqa: E402

RPM = math.pi / 30.0
RADIUS = 63.0  # m, the 5-MW's tip radius
SPEEDS = (3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 11.4, 12.0, 13.0, 14.0, 16.0, 18.0, 20.0,
          22.0, 24.0, 25.0)  # fmt: skip


def regions(preset: str) -> dict:
    """The torque law's switch points (rad/s, HSS; rad) of ``preset`` (DISCON's, as
    ``floatwind._kernels.servo.baseline_controller``)."""
    from floatwind.loads.servo import CONTROLLER_PRESETS

    c = CONTROLLER_PRESETS[preset]
    rt, k = c["vs_rtgnsp"], c["vs_rgn2k"]
    sysp = rt / (1.0 + c["vs_slpc"])
    slope = (c["vs_rtpwr"] / rt) / (rt - sysp)
    tr = (slope - math.sqrt(slope * (slope - 4.0 * k * sysp))) / (2.0 * k)
    return {"ctin": c["vs_ctinsp"], "rgn2": c["vs_rgn2sp"], "tr": tr, "rt": rt,
            "rgn3mp": c["vs_rgn3mp"]}  # fmt: skip


def region_of(w_gen: float, pitch: float, sw: dict) -> str:
    if w_gen >= sw["rt"] or pitch >= sw["rgn3mp"]:
        return "3"
    if w_gen <= sw["ctin"]:
        return "1"
    if w_gen < sw["rgn2"]:
        return "1.5"
    if w_gen < sw["tr"]:
        return "2"
    return "2.5"


def start_pitch(speed: float) -> float:
    """deg: 0 below rated, else the steady BEM's pitch of rated power (rated speed)."""
    if speed < 11.4:
        return 0.0
    from control_pitch_sensitivity import sensitivity

    rows = sensitivity([speed])
    return math.degrees(rows[0][1]) if rows else 0.0


def model(folder: pathlib.Path, *, speed: float, preset: str, tmax: float, dt_out: float,
          rpm0: float, pitch0: float):  # fmt: skip
    from floatwind.case.openfast import import_openfast, model_from_deck

    dst = folder / f"U{speed:g}"
    shutil.copytree(REF09, dst, ignore=shutil.ignore_patterns("*.out", "*.outb", "*.sum"))
    for p in dst.rglob("*"):
        p.chmod(p.stat().st_mode | stat.S_IWUSR)
    ed = {"GenDOF": "True", "RotSpeed": f"{rpm0:.6f}"}
    ed.update({f"BlPitch({k})": f"{pitch0:.6f}" for k in (1, 2, 3)})
    _edit(dst / "ElastoDyn.dat", ed)
    _edit(dst / "InflowWind.dat", {"HWindSpeed": f"{speed}"})
    fst = dst / "ref09_aero_fixed_speed.fst"
    res = import_openfast(fst)
    case = res["case"]
    for ld in case["loads"]:
        if ld["type"] == "bem_rotor":
            ld["pitch_from"] = "servodyn"
            ld["coupling"] = "stage"  # a commanded pitch needs the per-stage solve
    case["loads"].append({"type": "servodyn", "joint": "shaft", "gearbox_ratio": 97.0,
                          "efficiency": 0.944, "pitch": {"initial_deg": [pitch0] * 3},
                          "controller": {"preset": preset, "dt": case["simulation"]["dt"]}})  # fmt: skip
    case["simulation"].update(t_max=tmax, dt_out=dt_out)
    return model_from_deck(fst, result=res)


def run(speed: float, *, preset: str, tmax: float, window: float, sw: dict, folder) -> dict:
    from floatwind.simulate.run import simulate

    rpm0 = min(12.1, max(6.9, 7.55 * speed / RADIUS / RPM))
    pitch0 = start_pitch(speed)
    t0 = time.perf_counter()
    ds = simulate(model(folder, speed=speed, preset=preset, tmax=tmax, dt_out=0.25, rpm0=rpm0,
                        pitch0=pitch0),
                  progress=False, channels=["QD_shaft", "BldPitch1", "GenPwr", "GenSpeed",
                                            "GenTq", "PtfmPitch"])  # fmt: skip
    t = ds["time"].values
    last = t >= t[-1] - window
    w = ds["QD_shaft"].values.ravel()
    pitch = ds["BldPitch1"].values.ravel()
    wg = ds["GenSpeed"].values.ravel()
    dwdt = np.gradient(w, t)
    out = {
        "wind": speed,
        "start_rpm": round(rpm0, 3),
        "start_pitch_deg": round(pitch0, 3),
        "region": region_of(float(wg[last].mean()), float(pitch[last].mean()), sw),
        "rotor_rpm": float(w[last].mean() / RPM),
        "rotor_rpm_min": float(w[last].min() / RPM),
        "rotor_rpm_max": float(w[last].max() / RPM),
        "max_rotor_accel_rpm_per_s": float(np.abs(dwdt[last]).max() / RPM),
        "pitch_deg": float(np.degrees(pitch[last].mean())),
        "power_MW": float(ds["GenPwr"].values.ravel()[last].mean() / 1e6),
        "gen_torque_kNm": float(ds["GenTq"].values.ravel()[last].mean() / 1e3),
        "tsr": float(w[last].mean() * RADIUS / speed),
        "platform_pitch_deg": float(np.degrees(ds["PtfmPitch"].values.ravel()[last].mean())),
        "platform_pitch_range_deg": float(np.degrees(np.ptp(ds["PtfmPitch"].values[last]))),
        "wall_s": round(time.perf_counter() - t0, 1),
    }
    out["_ds"] = ds
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="oc3_hywind")
    ap.add_argument("--tmax", type=float, default=300.0)
    ap.add_argument("--window", type=float, default=100.0)
    ap.add_argument("--speeds", type=float, nargs="+", default=list(SPEEDS))
    ap.add_argument("--out", type=pathlib.Path, default=None, help="figure (png)")
    ap.add_argument("--json", type=pathlib.Path, default=None, help="table (json)")
    ap.add_argument("--replot", type=pathlib.Path, default=None,
                    help="draw the figure from a table written by --json (no runs)")  # fmt: skip
    args = ap.parse_args(argv)
    sw = regions(args.preset)
    rows = json.loads(args.replot.read_text()) if args.replot is not None else []
    with tempfile.TemporaryDirectory() as tmp:
        for u in args.speeds if args.replot is None else ():
            r = run(u, preset=args.preset, tmax=args.tmax, window=args.window, sw=sw,
                    folder=pathlib.Path(tmp))  # fmt: skip
            rows.append(r)
            print(json.dumps({k: (round(v, 4) if isinstance(v, float) else v)
                              for k, v in r.items() if k != "_ds"}), flush=True)  # fmt: skip
    if args.out is not None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        u = np.array([r["wind"] for r in rows])
        fig, ax = plt.subplots(4, 1, figsize=(7, 9), sharex=True)
        ax[0].plot(u, [r["power_MW"] for r in rows], "o-")
        ax[0].set_ylabel("electrical power (MW)")
        ax[1].plot(u, [r["rotor_rpm"] for r in rows], "o-")
        ax[1].fill_between(u, [r["rotor_rpm_min"] for r in rows],
                           [r["rotor_rpm_max"] for r in rows], alpha=0.3)  # fmt: skip
        ax[1].set_ylabel("rotor speed (rpm)")
        ax[2].plot(u, [r["pitch_deg"] for r in rows], "o-")
        ax[2].set_ylabel("blade pitch (deg)")
        ax[3].plot(u, [r["platform_pitch_deg"] for r in rows], "o-")
        ax[3].set_ylabel("platform pitch (deg)")
        ax[3].set_xlabel("wind speed at the hub (m/s)")
        for r in rows:
            ax[0].annotate(r["region"], (r["wind"], r["power_MW"]), fontsize=7,
                           textcoords="offset points", xytext=(0, 5))  # fmt: skip
        ax[0].set_title(f"OC3-Hywind + BEM rotor, steady winds, baseline controller "
                        f"({args.preset})\nmeans (rotor speed: and range) of the last "
                        f"{args.window:g} s; labels: torque-law region", fontsize=9)  # fmt: skip
        fig.tight_layout()
        args.out.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(args.out, dpi=110)
    for r in rows:
        r.pop("_ds", None)
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
