"""Throughput of the issue-7 model: simulated seconds per wall second, one run and batches.

    python benchmarks/bench_throughput.py [--tmax 600] [--sizes 1,4,16,64,256,512]
                                          [--e2e 1,64] [--lengths 150,300,600,1200] [--python]

Model: ``cases/spar_family/108.yaml`` — the OC3-Hywind hull (108 m cylinder, 120 m draft) as a
3-body tree (tower + hull, nacelle, spinning rotor) with nonlinear hydrostatics, 2 m Morison strips
(65 strips, ~60 wetted), four taut lines, variable C_T, Kaimal full-field (TurbSim-type) wind at
17 m/s and a JONSWAP sea (Hs 5 m, Tp 12 s) with the expansion kinematics; RK4 at dt = 0.05 s,
outputs every 0.25 s. Prints tables; asserts nothing (docs/performance.md quotes them).

1. Stepping cost vs batch size (the compiled RK4 loop, ``floatwind.simulate.fused``): per-member
   microseconds per right-hand side, aggregate simulated s / wall s, and what a 3-h run or 64 of
   them cost at that rate; with ``--python`` also the Python-driven RHS for comparison.
2. End to end (``simulate`` split into set-up, integration and output channels: every channel,
   and the study's channels as ``floatwind study`` writes them) for the ``--e2e`` batch sizes and
   ``--tmax``, extrapolated to 3 h, and the batched / one-by-one ratio.
3. Run-length scaling at B = 16.
4. Where the stepping time goes, by switching parts of the model off in the compiled loop.
"""

from __future__ import annotations

import argparse
import pathlib
import time

import numpy as np

from floatwind.integrate import RK4
from floatwind.simulate import fused as fz
from floatwind.simulate.outputs import output_times, to_dataset
from floatwind.simulate.system import System
from floatwind.studies import build_batch_model, study_from_dict

ROOT = pathlib.Path(__file__).resolve().parents[1]
CASE = ROOT / "cases" / "spar_family" / "108.yaml"
H3 = 10800.0


def make_study(tmax: float, n: int, dt: float = 0.05, dt_out: float = 0.25):
    raw = {
        "name": "throughput",
        "designs": [{"name": "oc3", "case": str(CASE)}],
        "conditions": [{"name": "U17", "wind_speed": 17.0, "hs": 5.0, "tp": 12.0}],
        "variants": [
            {"name": "variable", "ct_mode": "variable", "loads": {"morison": {"strip_length": 2.0}}}
        ],
        "realizations": n,
        "duration": tmax,
        "simulation": {"dt": dt, "dt_out": dt_out},
        "waves": {"kind": "jonswap", "hs": 5.0, "tp": 12.0},
        "wind": {"kind": "kaimal", "speed": 17.0, "hub_height": 87.6, "ny": 7, "nz": 7},
    }
    return study_from_dict(raw, base_dir=CASE.parent)


def stepping(sizes, python: bool, steps: int = 200):
    print("\n1. stepping cost (RK4 dt 0.05 s, 4 RHS per step), per batch member")
    hdr = f"{'B':>5s} {'us/RHS/member':>14s} {'sim s/wall s':>13s} {'3-h run (s)':>12s} {'64 x 3 h (min)':>15s}"
    print(hdr + ("   Python RHS us/member   fused speed-up" if python else ""))
    study = make_study(max(60.0, steps * 0.05 + 1), max(sizes))
    runs = study.runs()
    for b in sizes:
        model = build_batch_model(study, runs[:b])
        system = System(model)
        system.use_time_grid(0.0, 0.025, 4 * steps + 1)
        fused, why = fz.fuse(system)
        if fused is None:
            print(f"{b:5d}  not fused: {why}")
            continue
        y = system.initial_state()
        f = system.rhs(0.0, y)
        ts = np.arange(steps + 1) * 0.05
        fused.rk4_chunk(ts[:3], y, f, 0.0, 0.05)  # compile / load the cache
        t0 = time.perf_counter()
        _, _, done, status = fused.rk4_chunk(ts, y, f, 0.0, 0.05)
        wall = time.perf_counter() - t0
        per = wall / (4 * done * b) * 1e6
        agg = done * 0.05 * b / wall
        line = f"{b:5d} {per:14.1f} {agg:13.0f} {H3 * per * 4 / 0.05 / 1e6:12.1f} {64 * H3 / agg / 60:15.1f}"
        if python and b <= 64:
            n = max(4, 200 // b)
            t0 = time.perf_counter()
            for i in range(n):
                system.rhs(0.025 * (i % 50), y)
            py = (time.perf_counter() - t0) / n / b * 1e6
            line += f"   {py:20.1f}   {py / per:14.1f}x"
        print(line + ("" if status == 0 else f"  (status {status})"))


def profile(b: int = 16, steps: int = 200):
    """Where the stepping time goes: the fused loop with parts of the model switched off (the
    compiled loop is opaque to cProfile), per member and RHS."""
    from floatwind.environment.base import StillWater
    from floatwind.environment.compiled import sea_table

    print(f"\n4. where the stepping time goes (B = {b}, us per member and RHS, by ablation)")
    study = make_study(60.0, b)
    model = build_batch_model(study, study.runs()[:b])
    system = System(model)
    system.use_time_grid(0.0, 0.025, 4 * steps + 1)
    fused, _ = fz.fuse(system)
    y = system.initial_state()
    f = system.rhs(0.0, y)
    ts = np.arange(steps + 1) * 0.05

    def cost():
        fused.rk4_chunk(ts[:3], y, f, 0.0, 0.05)
        best = np.inf
        for _ in range(3):
            t0 = time.perf_counter()
            _, _, done, _ = fused.rk4_chunk(ts, y, f, 0.0, 0.05)
            best = min(best, (time.perf_counter() - t0) / (4 * done * b) * 1e6)
        return best

    full = cost()
    loads = fused.compiled

    def kind(c):
        return type(c.params).__qualname__.split(".")[0] if c.kernel is not None else "Select"

    def without(*names, still=False):
        """The fused loop rebuilt from the loads' compiled forms minus ``names`` (class names),
        the Morison sea replaced by still water when ``still``."""
        keep = []
        for c in loads:
            if kind(c) in names:
                continue
            if still and kind(c) == "MorisonMembers":
                c = c._replace(params=c.params._replace(sea=sea_table(StillWater(), b)))
            keep.append(c)
        nonlocal fused
        fused = fz.FusedRHS(system, keep)
        return cost()

    rows = [("whole RHS (kinematics, loads, MCM solve, RK4 update)", full)]
    no_waves = without(still=True)
    rows.append(("  wave kinematics + elevation (expansion series)", full - no_waves))
    no_mor = without("MorisonMembers")
    rows.append(("  Morison strips (geometry, wetting, loads, added mass)", no_waves - no_mor))
    no_hyd = without("MorisonMembers", "Hydrostatics")
    rows.append(("  nonlinear hydrostatics", no_mor - no_hyd))
    no_taut = without("MorisonMembers", "Hydrostatics", "TautMooring")
    rows.append(("  taut lines", no_hyd - no_taut))
    bare = without("MorisonMembers", "Hydrostatics", "TautMooring", "RotorThrust", "Select")
    rows.append(("  thrust + full-field wind", no_taut - bare))
    rows.append(("  body kinematics + MCM solve + gravity + RK4 update", bare))
    for name, v in rows:
        print(f"  {name:<58s} {v:7.2f}  ({100 * v / full:4.1f} %)")


def end_to_end(b: int, tmax: float) -> dict:
    study = make_study(tmax, b)
    runs = study.runs()[:b]
    t0 = time.perf_counter()
    model = build_batch_model(study, runs)
    system = System(model)
    s = model.settings
    t_out = output_times(s.t_max, s.dt_out)
    n_steps = int(np.ceil(t_out[-1] / s.dt - 1e-9))
    system.use_time_grid(0.0, 0.5 * s.dt, 2 * n_steps + 1)
    fused, why = fz.fuse(system)
    t1 = time.perf_counter()
    rec = RK4(s.dt).run(fused if fused is not None else system.rhs, system.initial_state(), t_out)
    t2 = time.perf_counter()
    to_dataset(model, system, rec)
    t3 = time.perf_counter()
    to_dataset(model, system, rec, channels=list(study.channels))
    t4 = time.perf_counter()
    return {
        "setup": t1 - t0,
        "integrate": t2 - t1,
        "outputs": t3 - t2,
        "study_outputs": t4 - t3,
        "fused": fused is not None,
    }


def e2e_table(sizes, tmax):
    print(f"\n2. end to end, t_max {tmax:g} s (set-up = wind field + model + wave table)")
    print("   outputs: every channel; study outputs: the study's 8 channels (what studies write);")
    print("   total and the rates with the study outputs")
    print(
        f"{'B':>5s} {'set-up s':>9s} {'integrate s':>12s} {'outputs s':>10s} {'study out s':>12s} "
        f"{'total s':>8s} {'sim s/wall s':>13s} {'3 h, s/run (est.)':>18s} {'batched/one-by-one':>19s}"
    )
    base = None
    for b in sizes:
        r = end_to_end(b, tmax)
        tot = r["setup"] + r["integrate"] + r["study_outputs"]
        per_run = tot / b
        base = base or per_run
        # 3 h: integration and outputs scale with the length, the set-up roughly too (wind, table)
        print(
            f"{b:5d} {r['setup']:9.2f} {r['integrate']:12.2f} {r['outputs']:10.2f} "
            f"{r['study_outputs']:12.2f} {tot:8.2f} "
            f"{tmax * b / tot:13.0f} {per_run * H3 / tmax:18.1f} {per_run / base:19.3f}"
            + ("" if r["fused"] else "  (not fused)")
        )


def lengths_table(lengths, b=16):
    print(f"\n3. run-length scaling at B = {b}")
    print(
        f"{'t_max s':>8s} {'set-up s':>9s} {'integrate s':>12s} {'study out s':>12s} {'sim s/wall s':>13s}"
    )
    for L in lengths:
        r = end_to_end(b, L)
        tot = r["setup"] + r["integrate"] + r["study_outputs"]
        print(
            f"{L:8.0f} {r['setup']:9.2f} {r['integrate']:12.2f} {r['study_outputs']:12.2f} {L * b / tot:13.0f}"
        )


def main():
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--tmax", type=float, default=600.0)
    p.add_argument("--sizes", default="1,4,16,64,256,512")
    p.add_argument("--e2e", default="1,64")
    p.add_argument("--lengths", default="150,300,600,1200")
    p.add_argument("--python", action="store_true", help="also time the Python-driven RHS")
    p.add_argument("--no-profile", action="store_true", help="skip the ablation profile")
    args = p.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    model = build_batch_model(make_study(10.0, 1), make_study(10.0, 1).runs())
    nstrip = sum(getattr(ld, "n_strips", 0) for ld in model.loads)
    print(
        f"model {CASE.relative_to(ROOT)}: {model.tree.n_bodies} bodies, {nstrip} Morison strips, "
        f"loads {[type(ld).__name__ for ld in model.loads]}"
    )
    if sizes:
        stepping(sizes, args.python)
    e2e = [int(s) for s in args.e2e.split(",") if s]
    if e2e:
        e2e_table(e2e, args.tmax)
    lengths = [float(s) for s in args.lengths.split(",") if s]
    if lengths:
        lengths_table(lengths)
    if not args.no_profile:
        profile()


if __name__ == "__main__":
    main()
