"""The baseline controller on the OC3-Hywind spar with the BEM rotor above rated (issue 36,
docs/control.md): the OC3-Hywind detuned pitch gains against the onshore ones in turbulent wind.

The model is OpenFAST's ref09 deck (rigid OC3-Hywind spar, NREL 5-MW, AeroDyn BEM) with ElastoDyn's
GenDOF on (the rotor a joint DOF, the generator geared at 97), the rotor at 12.1 rpm and the blades
at 12 deg at t = 0, a Kaimal (IEC class B) wind of ``--speed`` m/s at the hub, still water, and
the compiled baseline controller of the ``servodyn`` load with each preset. The known result
(Jonkman 2010; Larsen and Hanson 2007): with the onshore gains (pitch loop 0.6 rad/s, above the
platform-pitch frequency) the platform pitch is negatively damped and the rotor speed is not held;
with the detuned gains (0.2 rad/s) both stay bounded.

    PYTHONPATH=$PWD python benchmarks/control_stability.py --tmax 600 \\
        --out docs/figures/control_stability.png

Prints, per preset, the largest rotor-speed deviation from rated after the first 60 s, the
standard deviation of the platform pitch and of the blade pitch, and writes the figure (rotor
speed, blade pitch, platform pitch against time).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import re
import shutil
import stat
import tempfile
import time

import numpy as np

REF09 = (
    pathlib.Path(__file__).resolve().parents[2] / "shared/reference/openfast/ref09_aero_fixed_speed"
)
RATED = 12.1 * np.pi / 30.0


def _edit(path: pathlib.Path, edits: dict[str, str]) -> None:
    text = path.read_text(encoding="latin-1")
    for key, value in edits.items():
        text, n = re.subn(rf"(?m)^\s*\S+(\s+{re.escape(key)}\s)", rf"   {value}\1", text, count=1)
        if n != 1:
            raise KeyError(key)
    path.write_text(text, encoding="latin-1")


def model(folder: pathlib.Path, *, preset: str, speed: float, tmax: float, seed: int,
          fl_kp: float | None = None, turbulence_class: str = "B", tag: str = "",
          overrides: dict | None = None, batch: int = 1):  # fmt: skip
    """The controlled ref09 model (see the module docstring); ``preset`` ``rosco``: ROSCO's
    library with cases/control/NREL5MW_ROSCO_DISCON.IN instead of the compiled baseline;
    ``overrides``: baseline controller keys (e.g. ``region3``)."""
    from floatwind.case.openfast import import_openfast, model_from_deck

    dst = folder / (tag or preset)
    shutil.copytree(REF09, dst, ignore=shutil.ignore_patterns("*.out", "*.outb", "*.sum"))
    for p in dst.rglob("*"):
        p.chmod(p.stat().st_mode | stat.S_IWUSR)
    ed = {"GenDOF": "True", "RotSpeed": "12.1"}
    ed.update({f"BlPitch({k})": "12" for k in (1, 2, 3)})
    _edit(dst / "ElastoDyn.dat", ed)
    fst = dst / "ref09_aero_fixed_speed.fst"
    res = import_openfast(fst)
    case = res["case"]
    case["environment"]["wind"] = {"kind": "kaimal", "speed": speed, "hub_height": 90.0,
                                   "turbulence_class": turbulence_class, "shear_exponent": 0.14,
                                   "seed": seed, "dt": 0.25}  # fmt: skip
    for ld in case["loads"]:
        if ld["type"] == "bem_rotor":
            ld["pitch_from"] = "servodyn"
            ld["coupling"] = "stage"  # a commanded pitch needs the per-stage solve
    if preset == "rosco":
        ctrl = {"kind": "dll", "library": "rosco", "dt": case["simulation"]["dt"],
                "input": str(pathlib.Path(__file__).resolve().parents[1] / "cases" / "control"
                             / "NREL5MW_ROSCO_DISCON.IN"), "hub_wind": speed}  # fmt: skip
    else:
        ctrl = {"preset": preset, "dt": case["simulation"]["dt"], **(overrides or {})}
        if fl_kp is not None:  # else the preset's own (oc3_hywind_fl has one)
            ctrl["fl_kp"] = fl_kp
    srv = {"type": "servodyn", "joint": "shaft", "gearbox_ratio": 97.0, "efficiency": 0.944,
           "pitch": {"initial_deg": [12.0] * 3}, "controller": ctrl}
    if preset == "rosco":  # ElastoDyn's point nacelle in the library's records 77-78
        mp = res["info"]["mass_properties"]
        cm = mp["nacelle"]["cm"] + mp["geometry"]["platform_reference"]
        srv["nacelle_mass"] = {"mass": float(mp["nacelle"]["mass"]),
                               "cm": [float(v) for v in cm],
                               "yaw_inertia": float(mp["nacelle"]["yaw_inertia_cm"])}  # fmt: skip
    case["loads"].append(srv)
    case["simulation"].update(t_max=tmax, dt_out=0.25)
    if batch > 1:  # identical members (a batch of the model itself: its step memories)
        ini = case.setdefault("initial", {})
        ini["displacement"] = [list(ini.get("displacement", [0.0, 0.0, 0.0]))] * batch
    return model_from_deck(fst, result=res)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tmax", type=float, default=600.0)
    ap.add_argument("--speed", type=float, default=18.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=pathlib.Path, default=None, help="figure (png)")
    ap.add_argument("--turbulence-class", default="B", choices=["A", "B", "C"])
    ap.add_argument(
        "--runs",
        nargs="+",
        default=["oc3_hywind", "nrel5mw_onshore"],
        help="PRESET, PRESET:FL_KP (floating feedback gain, s) or PRESET:KEY=VALUE,... "
        "(baseline controller keys); PRESET rosco: ROSCO's library",
    )
    args = ap.parse_args(argv)
    from floatwind.simulate.run import simulate

    channels = ["QD_shaft", "BldPitch1", "PtfmPitch", "GenPwr"]
    runs = {}
    with tempfile.TemporaryDirectory() as tmp:
        for run in args.runs:
            preset, _, fl = run.partition(":")
            over = {}
            if "=" in fl:
                for item in fl.split(","):
                    k, _, v = item.partition("=")
                    try:
                        over[k] = float(v)
                    except ValueError:
                        over[k] = v
                fl = ""
            tag = re.sub(r"[^A-Za-z0-9_.-]", "_", run)
            m = model(pathlib.Path(tmp), preset=preset, speed=args.speed, tmax=args.tmax,
                      seed=args.seed, fl_kp=float(fl) if fl else None, tag=tag, overrides=over,
                      turbulence_class=args.turbulence_class)  # fmt: skip
            preset = run
            t0 = time.perf_counter()
            try:
                ds = simulate(m, progress=False, channels=channels)
                status = "completed"
            except Exception as exc:  # a diverging run keeps its partial record
                ds = getattr(exc, "dataset", None)
                status = f"stopped: {str(exc).splitlines()[0]}"
                if ds is None:
                    raise
            wall = time.perf_counter() - t0
            t = ds["time"].values
            w = ds["QD_shaft"].values.ravel() / RATED
            late = t >= min(60.0, 0.1 * t[-1])
            runs[preset] = {
                "status": status,
                "wall_s": round(wall, 1),
                "t_end": float(t[-1]),
                "rotor_speed_max_dev": float(np.abs(w[late] - 1.0).max()),
                "rotor_speed_max_over": float(w[late].max() - 1.0),
                "rotor_speed_max_under": float(1.0 - w[late].min()),
                "time_within_10pct": float(np.mean(np.abs(w[late] - 1.0) <= 0.1)),
                "blade_pitch_at_min_speed_deg": float(
                    np.degrees(ds["BldPitch1"].values.ravel()[late][np.argmin(w[late])])
                ),
                "blade_pitch_at_max_speed_deg": float(
                    np.degrees(ds["BldPitch1"].values.ravel()[late][np.argmax(w[late])])
                ),
                "platform_pitch_std_deg": float(np.degrees(ds["PtfmPitch"].values[late]).std()),
                "blade_pitch_std_deg": float(np.degrees(ds["BldPitch1"].values[late]).std()),
                "mean_power_MW": float(ds["GenPwr"].values[late].mean() / 1e6),
            }
            runs[preset]["_ds"] = ds
    if args.out is not None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(3, 1, figsize=(9, 8), sharex=True)
        for preset, r in runs.items():
            ds = r["_ds"]
            t = ds["time"].values
            ax[0].plot(t, ds["QD_shaft"].values.ravel() * 30 / np.pi, lw=0.8, label=preset)
            ax[1].plot(t, np.degrees(ds["BldPitch1"].values.ravel()), lw=0.8, label=preset)
            ax[2].plot(t, np.degrees(ds["PtfmPitch"].values.ravel()), lw=0.8, label=preset)
        ax[0].axhspan(12.1 * 0.9, 12.1 * 1.1, color="0.9")
        # an unstable run leaves any physical range: keep the axes on the stable ones (its
        # excursions are in the printed table)
        ax[0].set_ylim(12.1 * 0.6, 12.1 * 1.4)
        ax[1].set_ylim(-1.0, 30.0)
        ax[2].set_ylim(-6.0, 10.0)
        ax[0].set_ylabel("rotor speed (rpm)")
        ax[1].set_ylabel("blade pitch (deg)")
        ax[2].set_ylabel("platform pitch (deg)")
        ax[2].set_xlabel("time (s)")
        ax[0].legend()
        ax[0].set_title(f"OC3-Hywind + BEM rotor, Kaimal {args.speed:g} m/s "
                        f"(class {args.turbulence_class}), "
                        "baseline controller")  # fmt: skip
        fig.tight_layout()
        args.out.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(args.out, dpi=110)
    for r in runs.values():
        r.pop("_ds")
    print(json.dumps(runs, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
