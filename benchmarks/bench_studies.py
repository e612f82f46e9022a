"""Study throughput: simulated seconds per wall second vs batch size and run length, batched vs
one-by-one, and a cProfile breakdown of the hot path (kinematics, loads, waves, wind, solve,
recording, outputs).

    python benchmarks/bench_studies.py [--tmax 10] [--sizes 1,4,16,64,256] [--case CASE]

Default model: ``cases/oc3_hywind.yaml`` (3-body) if present, else the 1-body spar of
``tests/data/studies/spar1.yaml``; either way with Morison strips of 2 m (60 strips on the 120 m
spar), nonlinear hydrostatics, taut lines, variable C_T, Kaimal (TurbSim-type) wind and JONSWAP
waves (Hs 5 m, Tp 12 s), RK4 at dt = 0.05 s. Prints tables; asserts nothing. ``--no-jit`` times the
NumPy reference instead of the compiled kernels (docs/performance.md).
"""

from __future__ import annotations

import argparse
import cProfile
import pathlib
import pstats
import time

import numpy as np

from floatwind import _kernels
from floatwind.simulate import simulate
from floatwind.studies import build_batch_model, study_from_dict

ROOT = pathlib.Path(__file__).resolve().parents[1]


def make_study(case: pathlib.Path, tmax: float, n: int, dt: float):
    raw = {
        "name": "bench",
        "designs": [{"name": "d", "case": str(case)}],
        "conditions": [{"name": "U17", "wind_speed": 17.0, "hs": 5.0, "tp": 12.0}],
        "variants": [
            {"name": "variable", "ct_mode": "variable", "loads": {"morison": {"strip_length": 2.0}}}
        ],
        "realizations": n,
        "duration": tmax,
        "simulation": {"dt": dt, "dt_out": 0.25},
        "waves": {"kind": "jonswap", "hs": 5.0, "tp": 12.0},
        "wind": {"kind": "kaimal", "speed": 17.0, "hub_height": 87.6, "ny": 7, "nz": 7},
    }
    return study_from_dict(raw, base_dir=case.parent)


def timed(study, runs):
    t0 = time.perf_counter()
    model = build_batch_model(study, runs)
    t1 = time.perf_counter()
    simulate(model, progress=False)
    return t1 - t0, time.perf_counter() - t1


GROUPS = [
    ("JIT: morison strips", "floatwind/_kernels/morison"),
    ("JIT: wave kinematics", "floatwind/_kernels/waves"),
    ("waves (sea kinematics)", "floatwind/environment/waves"),
    ("waves (expansion glue)", "floatwind/environment/fastkin"),
    ("wind", "floatwind/environment/wind"),
    ("loads: morison", "floatwind/loads/morison"),
    ("loads: hydrostatics", "floatwind/loads/hydrostatics"),
    ("loads: mooring", "floatwind/loads/mooring"),
    ("loads: thrust", "floatwind/loads/thrust"),
    ("loads: other", "floatwind/loads/"),
    ("kinematics + MCM solve", "floatwind/multibody"),
    ("rotation helpers", "floatwind/rotation"),
    ("system (rhs glue)", "floatwind/simulate/system"),
    ("outputs (to_dataset)", "floatwind/simulate/run"),
    ("integrator + recording", "floatwind/integrate"),
    ("xarray / io", "xarray"),
]


def profile(study, runs, label):
    model = build_batch_model(study, runs)
    prof = cProfile.Profile()
    prof.enable()
    t0 = time.perf_counter()
    simulate(model, progress=False)
    wall = time.perf_counter() - t0
    prof.disable()
    st = pstats.Stats(prof)
    tot = {g: 0.0 for g, _ in GROUPS}
    tot["numpy / other"] = 0.0

    def group(file):
        return next((g for g, key in GROUPS if key in file), None)

    for (file, _, _), (_, _, tt, _, callers) in st.stats.items():
        g = group(file)
        if g is not None:
            tot[g] += tt
            continue
        # numpy built-ins: charge their time to the floatwind caller (one level up)
        share = {}
        for (cfile, _, _), val in callers.items():
            cg = group(cfile) or "numpy / other"
            share[cg] = share.get(cg, 0.0) + val[2]
        norm = sum(share.values()) or 1.0
        for cg, v in share.items():
            tot[cg] += tt * v / norm
        if not share:
            tot["numpy / other"] += tt
    total = sum(tot.values())
    print(f"\nprofile {label} (self time, cProfile; wall {wall:.2f} s with profiler)")
    for g, v in sorted(tot.items(), key=lambda kv: -kv[1]):
        print(f"  {g:<26s} {v:8.3f} s  {100 * v / total:5.1f} %")


def main():
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--tmax", type=float, default=10.0)
    p.add_argument("--dt", type=float, default=0.05)
    p.add_argument("--sizes", default="1,4,16,64,256")
    p.add_argument("--lengths", default="5,10,20,40")
    p.add_argument("--case")
    p.add_argument("--no-jit", action="store_true", help="NumPy reference (FLOATWIND_NO_JIT=1)")
    p.add_argument("--skip-lengths", action="store_true")
    args = p.parse_args()
    if args.no_jit:
        _kernels.use_jit(False)
    case = pathlib.Path(args.case).resolve() if args.case else ROOT / "cases" / "oc3_hywind.yaml"
    if not case.is_file():
        case = ROOT / "tests" / "data" / "studies" / "spar1.yaml"
    sizes = [int(s) for s in args.sizes.split(",")]
    study = make_study(case, args.tmax, max(sizes), args.dt)
    runs = study.runs()
    model = build_batch_model(study, runs[:1])
    nstrip = sum(getattr(ld, "n_strips", 0) for ld in model.loads)
    print(
        f"compiled kernels: {_kernels.enabled()}; "
        f"case {case.name}: {model.tree.n_bodies} bodies, {nstrip} Morison strips, "
        f"{model.env.sea.describe()}, dt {args.dt} s, t_max {args.tmax} s"
    )
    print(
        f"\n{'B':>5s} {'build s':>8s} {'run s':>8s} {'s/run':>8s} {'sim s/wall s (aggr.)':>22s} "
        f"{'3-h run, wall (est.)':>22s}"
    )
    base = None
    for b in sizes:
        tb, tr = timed(study, runs[:b])
        per = tr / b
        base = base or per
        print(
            f"{b:5d} {tb:8.2f} {tr:8.2f} {per:8.3f} {args.tmax * b / tr:22.1f} "
            f"{10800 / args.tmax * per:20.0f} s   (batched/one-by-one: {per / base:.3f})"
        )
    print(f"\nrun length scaling at B = 16 (dt {args.dt} s)")
    for L in [] if args.skip_lengths else [float(x) for x in args.lengths.split(",")]:
        s = make_study(case, L, 16, args.dt)
        tb, tr = timed(s, s.runs())
        print(
            f"  t_max {L:6.1f} s: build {tb:6.2f} s, run {tr:7.2f} s, {L * 16 / tr:8.1f} sim s/wall s"
        )
    profile(study, runs[:1], "B = 1")
    if max(sizes) >= 64:
        profile(study, runs[:64], "B = 64")
    print(f"\nrandom numbers check: {np.random.SeedSequence(0).generate_state(1)[0]}")


if __name__ == "__main__":
    main()
