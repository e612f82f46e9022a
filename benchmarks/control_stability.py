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
import contextlib
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


@contextlib.contextmanager
def _member_seeds(seeds):
    """Build a batch whose member i sees the wind that ``seed: seeds[i]`` gives a run alone
    (floatwind spawns B streams from one master seed; a run alone takes the first of its own),
    so that a batch of seeds reproduces the single-seed runs bit for bit."""
    from floatwind.environment import config as ec

    orig = ec._seeds

    def seeded(master, given, n, where, file):
        if "wind" in str(where) and n == len(seeds):
            return [np.random.SeedSequence(int(s)).spawn(1)[0] for s in seeds]
        return orig(master, given, n, where, file)

    ec._seeds = seeded
    try:
        yield
    finally:
        ec._seeds = orig


def rosco_input(folder: pathlib.Path, *, floating: bool = True, schedule: bool = True,
                omega_pc: float = 0.6) -> pathlib.Path:
    """ROSCO's own NREL 5-MW tuning (its Examples/Tune_Cases/NREL5MW.yaml: WSE TSR tracking,
    setpoint smoothing, the EKF wind-speed estimator, peak shaving, omega_pc 0.6 rad/s, zeta 0.7)
    redone by ROSCO's toolbox from the Cp/Ct/Cq table its package ships, with its floating
    feedback on (Fl_Mode = 1, Fl_Kp = (dtau/dv) / (dtau/dbeta) N from the Cp surface, Abbas et
    al. 2022 WES eq. 26 ff.; ``schedule``: U_Fl = 'all', the gain scheduled with the estimated
    wind over region 3, else ROSCO's default single gain at 1.05 v_rated), the platform and tower
    frequencies of that yaml (0.2325, 0.4499 rad/s), written for floatwind's record
    (Ext_Interface = 0: floatwind fills the standard record only; LoggingLevel = 0)."""
    import importlib.metadata as md

    import yaml
    from rosco.toolbox import controller as rc
    from rosco.toolbox import turbine as rt
    from rosco.toolbox import utilities as ru
    from rosco.toolbox.inputs.validation import load_rosco_yaml

    cp = md.distribution("rosco").locate_file("Examples/Test_Cases/NREL-5MW/Cp_Ct_Cq.NREL5MW.txt")
    cp = pathlib.Path(str(cp))
    ctrl = {"LoggingLevel": 0, "F_LPFType": 1, "F_NotchType": 0, "IPC_ControlMode": 0,
            "VS_ControlMode": 2, "VS_ConstPower": 1, "PC_ControlMode": 1, "Y_ControlMode": 0,
            "SS_Mode": 1, "WE_Mode": 2, "PS_Mode": 1, "SD_Mode": 0,
            "Fl_Mode": 1 if floating else 0, "Flp_Mode": 0, "zeta_pc": 0.7,
            "omega_pc": omega_pc, "zeta_vs": 0.7, "omega_vs": 0.15, "twr_freq": 0.4499,
            "ptfm_freq": 0.2325, "ps_percent": 0.80, "sd_maxpit": 0.4363}  # fmt: skip
    if floating and schedule:
        ctrl["U_Fl"] = "all"
    y = {"path_params": {"FAST_InputFile": "ref09.fst", "FAST_directory": ".",
                         "rotor_performance_filename": str(cp)},
         "turbine_params": {"rotor_inertia": 38677040.613, "rated_rotor_speed": 1.26711,
                            "v_min": 3.0, "v_rated": 11.4, "v_max": 25.0,
                            "max_pitch_rate": 0.1745, "max_torque_rate": 1000000.0,
                            "rated_power": 5000000.0, "bld_edgewise_freq": 6.2831853,
                            "bld_flapwise_freq": 0.0},
         "controller_params": ctrl}  # fmt: skip
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tune.yaml").write_text(yaml.safe_dump(y))
    inp = load_rosco_yaml(str(folder / "tune.yaml"))
    t = rt.Turbine(inp["turbine_params"])
    # what ROSCO's load_from_fast reads from ref09's ElastoDyn/ServoDyn/AeroDyn
    t.TipRad, t.Rhub, t.TowerHt, t.hubHt, t.NumBl, t.shearExp = 63.0, 1.5, 87.6, 90.0, 3, 0.2
    t.rho, t.mu, t.Ng, t.GenEff, t.GBoxEff = 1.225, 1.464e-5, 97.0, 94.4, 100.0
    t.DTTorSpr, t.generator_inertia, t.tilt, t.precone, t.yaw = 867637000.0, 534.116, 5.0, -2.5, 0.0
    t.J = t.rotor_inertia + t.generator_inertia * t.Ng**2
    t.rated_torque = t.rated_power / (t.GenEff / 100 * t.rated_rotor_speed * t.Ng)
    t.rotor_radius, t.TurbineName = t.TipRad, "NREL-5MW (floatwind ref09, OC3-Hywind)"
    t.pitch_initial_rad, t.TSR_initial, t.Cp_table, t.Ct_table, t.Cq_table = ru.load_from_txt(
        str(cp))
    for name, tab in (("Cp", t.Cp_table), ("Ct", t.Ct_table), ("Cq", t.Cq_table)):
        setattr(t, name, rt.RotorPerformance(tab, t.pitch_initial_rad, t.TSR_initial))
    t.TSR_operational = t.TSR_operational or t.Cp.TSR_opt
    t.Cp_operational = t.Cp.interp_surface(t.Cp.pitch_opt, t.TSR_operational)
    c = rc.Controller(inp["controller_params"])
    c.tune_controller(t)
    out = folder / "DISCON.IN"
    ru.write_DISCON(t, c, param_file=str(out), txt_filename=str(cp))
    text = out.read_text()
    text, n = re.subn(r"(?m)^1(\s+! Ext_Interface)", r"0\1", text)
    assert n == 1
    out.write_text(text)
    return out


def model(folder: pathlib.Path, *, preset: str, speed: float, tmax: float, seed: int,
          fl_kp: float | None = None, turbulence_class: str = "B", tag: str = "",
          overrides: dict | None = None, batch: int = 1,
          seeds: list[int] | None = None):  # fmt: skip
    """The controlled ref09 model (see the module docstring); ``preset`` ``rosco``: ROSCO's
    library with cases/control/NREL5MW_ROSCO_DISCON.IN instead of the compiled baseline;
    ``rosco_fl`` / ``rosco_fl1``: ROSCO's own NREL 5-MW tuning with floating feedback
    (scheduled / one gain, :func:`rosco_input`); ``overrides``: baseline controller keys (e.g.
    ``region3``); ``seeds``: a batch, member i in the wind of seed ``seeds[i]``."""
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
    if preset.startswith("rosco"):
        if preset == "rosco":
            inp = (pathlib.Path(__file__).resolve().parents[1] / "cases" / "control"
                   / "NREL5MW_ROSCO_DISCON.IN")  # fmt: skip
        else:
            inp = rosco_input(folder / f"{tag or preset}_rosco", schedule=preset == "rosco_fl",
                              floating=preset != "rosco_own",
                              **({"omega_pc": overrides["omega_pc"]}
                                 if overrides and "omega_pc" in overrides else {}))  # fmt: skip
        ctrl = {"kind": "dll", "library": "rosco", "dt": case["simulation"]["dt"],
                "input": str(inp), "hub_wind": speed}  # fmt: skip
    elif preset == "sched":  # the schedules designed on this rotor (scheduled_gains)
        from floatwind.loads.servo import scheduled_gains

        over = dict(overrides or {})
        design = {k: over.pop(k) for k in ("omega", "zeta", "fl", "hold", "fl_hold", "omega_lo",
                                           "u_lo", "u_hi", "we", "ps") if k in over}  # fmt: skip
        # we=GAMMA: the torque-balance wind estimate; ps=F: peak shaving at F of the peak thrust
        if "omega_lo" in design:  # omega scheduled on the wind: omega_lo up to u_lo, omega from u_hi
            design["omega"] = [(design.get("u_lo", 14.0), design["omega_lo"]),
                               (design.get("u_hi", 18.0), design.get("omega", 0.4))]  # fmt: skip
        ctrl = {"preset": "oc3_hywind", "dt": case["simulation"]["dt"],
                **scheduled_gains(design.get("omega", 0.4), design.get("zeta", 0.7),
                                  design.get("fl", 1.0), hold_below=design.get("hold", 12.0),
                                  fl_hold_below=design.get("fl_hold", 12.0))}  # fmt: skip
        if "we" in design:  # the torque-balance estimate (gamma) and peak shaving (fraction)
            from floatwind.loads.servo import peak_shaving, wind_estimator

            ctrl.update(wind_estimator(design["we"]))
            if "ps" in design:
                ctrl.update({k: x for k, x in peak_shaving(design["ps"]).items() if k != "thrust"})
        ctrl.update(over)
    else:
        ctrl = {"preset": preset, "dt": case["simulation"]["dt"], **(overrides or {})}
        if fl_kp is not None:  # else the preset's own (oc3_hywind_fl has one)
            ctrl["fl_kp"] = fl_kp
    srv = {"type": "servodyn", "joint": "shaft", "gearbox_ratio": 97.0, "efficiency": 0.944,
           "pitch": {"initial_deg": [12.0] * 3}, "controller": ctrl}
    if preset.startswith("rosco"):  # ElastoDyn's point nacelle in the library's records 77-78
        mp = res["info"]["mass_properties"]
        cm = mp["nacelle"]["cm"] + mp["geometry"]["platform_reference"]
        srv["nacelle_mass"] = {"mass": float(mp["nacelle"]["mass"]),
                               "cm": [float(v) for v in cm],
                               "yaw_inertia": float(mp["nacelle"]["yaw_inertia_cm"])}  # fmt: skip
    case["loads"].append(srv)
    case["simulation"].update(t_max=tmax, dt_out=0.25)
    if seeds is not None:
        batch = len(seeds)
    if batch > 1:  # identical members (a batch of the model itself: its step memories)
        ini = case.setdefault("initial", {})
        ini["displacement"] = [list(ini.get("displacement", [0.0, 0.0, 0.0]))] * batch
    if seeds is None:
        return model_from_deck(fst, result=res)
    with _member_seeds(seeds):
        return model_from_deck(fst, result=res)


def member(ds, name: str, i: int, nb: int) -> np.ndarray:
    """Channel ``name`` of batch member ``i`` (of ``nb``) against time."""
    da = ds[name]
    if nb > 1:
        da = da.isel({[d for d in da.dims if d != "time" and da.sizes[d] == nb][0]: i})
    v = np.asarray(da.transpose("time", ...).values)
    return v.reshape(v.shape[0], -1)[:, 0]


def metrics(ds, i: int = 0, nb: int = 1) -> dict:
    """The band criterion and companions for member ``i``: the largest rotor-speed deviation
    from rated after the first 60 s (over, under), the time within +-10 %, the blade pitch at
    both extremes, the platform- and blade-pitch standard deviations, the mean power."""
    t = ds["time"].values
    w = member(ds, "QD_shaft", i, nb) / RATED
    pitch = np.degrees(member(ds, "BldPitch1", i, nb))
    late = t >= min(60.0, 0.1 * t[-1])
    wl = w[late]
    ok = np.isfinite(wl)
    return {
        "t_end": float(t[-1]),
        "rotor_speed_max_dev": float(np.abs(wl - 1.0).max()) if ok.all() else float("inf"),
        "rotor_speed_max_over": float(wl.max() - 1.0),
        "rotor_speed_max_under": float(1.0 - wl.min()),
        "time_within_10pct": float(np.mean(np.abs(wl - 1.0) <= 0.1)),
        "blade_pitch_at_min_speed_deg": float(pitch[late][np.argmin(wl)]),
        "blade_pitch_at_max_speed_deg": float(pitch[late][np.argmax(wl)]),
        "platform_pitch_std_deg": float(np.degrees(member(ds, "PtfmPitch", i, nb)[late]).std()),
        "blade_pitch_std_deg": float(pitch[late].std()),
        "mean_power_MW": float(member(ds, "GenPwr", i, nb)[late].mean() / 1e6),
    }


def band_figure(series: list[pathlib.Path], out: pathlib.Path, labels: dict) -> None:
    """The rotor speed against time, one panel per wind (columns) and seed (rows), each run of
    the saved ``series`` (``--series``) a line, the +-10 % band shaded."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = {}
    for f in series:
        data.update(dict(np.load(f)))
    keys = sorted({k.rsplit("/", 1)[0] for k in data})
    runs = list(dict.fromkeys(k.split("@")[0] for k in keys))
    speeds = sorted({float(k.split("@")[1].split("#")[0]) for k in keys})
    seeds = sorted({int(k.split("#")[1]) for k in keys})
    fig, ax = plt.subplots(len(seeds), len(speeds), figsize=(4.2 * len(speeds), 2.6 * len(seeds)),
                           sharex=True, sharey=True, squeeze=False)  # fmt: skip
    for i, seed in enumerate(seeds):
        for j, u in enumerate(speeds):
            a = ax[i, j]
            a.axhspan(12.1 * 0.9, 12.1 * 1.1, color="0.9")
            for run in runs:
                key = f"{run}@{u:g}#{seed}"
                if f"{key}/time" in data:
                    a.plot(data[f"{key}/time"], data[f"{key}/QD_shaft"] * 30 / np.pi, lw=0.6,
                           label=labels.get(run, run))  # fmt: skip
            a.set_ylim(12.1 * 0.7, 12.1 * 1.3)
            a.set_title(f"{u:g} m/s, seed {seed}", fontsize=9)
            if j == 0:
                a.set_ylabel("rotor speed (rpm)")
            if i == len(seeds) - 1:
                a.set_xlabel("time (s)")
    ax[0, 0].legend(fontsize=7, loc="lower left")
    fig.suptitle("OC3-Hywind + BEM rotor, Kaimal class B: rotor speed, +-10 % of rated shaded")
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=100)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tmax", type=float, default=600.0)
    ap.add_argument("--speed", type=float, default=18.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seeds", type=int, nargs="+", default=None,
                    help="one batch, member i in the wind of seed i (as that seed alone)")
    ap.add_argument("--speeds", type=float, nargs="+", default=None,
                    help="mean winds, one batch each (default --speed)")
    ap.add_argument("--out", type=pathlib.Path, default=None, help="figure (png)")
    ap.add_argument("--json", type=pathlib.Path, default=None, help="the table (json)")
    ap.add_argument("--series", type=pathlib.Path, default=None,
                    help="save the time series (npz; added to an existing file)")
    ap.add_argument("--band-figure", type=pathlib.Path, nargs="+", default=None,
                    metavar=("OUT", "SERIES"),
                    help="draw OUT from saved --series files instead of running")
    ap.add_argument("--turbulence-class", default="B", choices=["A", "B", "C"])
    ap.add_argument(
        "--runs",
        nargs="+",
        default=["oc3_hywind", "nrel5mw_onshore"],
        help="PRESET, PRESET:FL_KP (floating feedback gain, s) or PRESET:KEY=VALUE,... "
        "(baseline controller keys; VALUE none: a schedule off, e.g. ps_wind=none,ps_minpit=none); "
        "PRESET rosco: ROSCO's library",
    )
    args = ap.parse_args(argv)
    if args.band_figure:
        band_figure([pathlib.Path(f) for f in args.band_figure[1:]], args.band_figure[0], {})
        return 0
    from floatwind.simulate.run import simulate

    channels = ["QD_shaft", "BldPitch1", "PtfmPitch", "GenPwr"]
    seeds = args.seeds or [args.seed]
    speeds = args.speeds or [args.speed]
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
                        over[k] = None if v == "none" else v  # none: a schedule off
                fl = ""
            for speed in speeds:
                tag = re.sub(r"[^A-Za-z0-9_.-]", "_", f"{run}@{speed:g}")
                m = model(pathlib.Path(tmp), preset=preset, speed=speed, tmax=args.tmax,
                          seed=seeds[0], fl_kp=float(fl) if fl else None, tag=tag,
                          overrides=over, turbulence_class=args.turbulence_class,
                          seeds=seeds if len(seeds) > 1 else None)  # fmt: skip
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
                for i, seed in enumerate(seeds):
                    key = run if len(speeds) == 1 and len(seeds) == 1 else f"{run}@{speed:g}#{seed}"
                    runs[key] = {"status": status, "wall_s": round(wall, 1),
                                 **metrics(ds, i, len(seeds))}  # fmt: skip
                    runs[key]["_ds"] = (ds, i, len(seeds))
                if args.series is not None:  # the time series, for --band-figure
                    ser = dict(np.load(args.series)) if args.series.exists() else {}
                    for i, seed in enumerate(seeds):
                        key = f"{run}@{speed:g}#{seed}"
                        ser[f"{key}/time"] = ds["time"].values
                        for ch in channels:
                            ser[f"{key}/{ch}"] = member(ds, ch, i, len(seeds))
                    np.savez_compressed(args.series, **ser)
                if args.json is not None:  # as it goes (a long study keeps what it has)
                    args.json.write_text(json.dumps(
                        {k: {q: x for q, x in r.items() if q != "_ds"} for k, r in runs.items()},
                        indent=2))  # fmt: skip
    if args.out is not None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(3, 1, figsize=(9, 8), sharex=True)
        for preset, r in runs.items():
            ds, i, nb = r["_ds"]
            t = ds["time"].values
            ax[0].plot(t, member(ds, "QD_shaft", i, nb) * 30 / np.pi, lw=0.8, label=preset)
            ax[1].plot(t, np.degrees(member(ds, "BldPitch1", i, nb)), lw=0.8, label=preset)
            ax[2].plot(t, np.degrees(member(ds, "PtfmPitch", i, nb)), lw=0.8, label=preset)
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
        ax[0].set_title(f"OC3-Hywind + BEM rotor, Kaimal {speeds[0]:g} m/s "
                        f"(class {args.turbulence_class}), "
                        "baseline controller")  # fmt: skip
        fig.tight_layout()
        args.out.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(args.out, dpi=110)
    for r in runs.values():
        r.pop("_ds")
    print(json.dumps(runs, indent=2))
    if args.json is not None:
        args.json.write_text(json.dumps(runs, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
