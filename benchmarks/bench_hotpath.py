"""Per-RHS cost of each hot-path component, with and without the compiled kernels.

    python benchmarks/bench_hotpath.py [--sizes 1,64] [--case CASE] [--repeat 50]

Model as in ``bench_studies.py`` (3-body OC3-Hywind if ``cases/oc3_hywind.yaml`` exists, Morison
strips of 2 m, Kaimal wind, JONSWAP waves with the expansion kinematics). For B = 1 and B = 64
(``--sizes``) it times, at a perturbed state and at successive RK4 stage times: the prescribed
relative kinematics (one grid block, per call), the body kinematics, every load's ``wrench``, the
MCM forward dynamics and the whole ``System.rhs``; then the same with ``FLOATWIND_NO_JIT``
semantics (``floatwind._kernels.use_jit(False)``). Prints a table in microseconds; asserts nothing.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

import numpy as np

from floatwind import _kernels
from floatwind.multibody.mcm import body_kinematics, forward_dynamics
from floatwind.simulate.system import System
from floatwind.studies import build_batch_model

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from bench_studies import ROOT, make_study  # noqa: E402


def _time(fn, n):
    fn(0)
    t0 = time.perf_counter()
    for i in range(n):
        fn(i + 1)
    return (time.perf_counter() - t0) / n * 1e6


def measure(model, n: int) -> dict[str, float]:
    sysm = System(model)
    dt = 0.025  # RK4 stage spacing at dt = 0.05 s
    sysm.use_time_grid(0.0, dt, 100000)
    y = sysm.initial_state()
    y = y + 1e-3 * np.random.default_rng(0).standard_normal(y.shape)
    q, qd = y[:, :6], y[:, 6:]
    out = {}
    rel, md = sysm._relative(1.0)
    kin = body_kinematics(sysm.tree, 1.0, rel, md, q, qd)
    out["body kinematics"] = _time(lambda i: body_kinematics(sysm.tree, 1.0, rel, md, q, qd), n)
    for load in model.loads:
        name = f"load {getattr(load, 'name', type(load).__name__)}"
        out[name] = _time(lambda i, ld=load: ld.wrench(1.0 + i * dt, kin, model.env), n)
    ev = sysm.evaluate(1.0, y)
    out["forward dynamics (MCM solve)"] = _time(
        lambda i: forward_dynamics(sysm.tree, rel, md, q, qd, ev.wrench), n
    )
    out["System.rhs (total)"] = _time(lambda i: sysm.rhs(i * dt, y), n)
    return out


def main():
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--sizes", default="1,64")
    p.add_argument("--case")
    p.add_argument("--repeat", type=int, default=50)
    args = p.parse_args()
    case = pathlib.Path(args.case) if args.case else ROOT / "cases" / "oc3_hywind.yaml"
    if not case.is_file():
        case = ROOT / "tests" / "data" / "studies" / "spar1.yaml"
    case = case.resolve()
    sizes = [int(s) for s in args.sizes.split(",")]
    study = make_study(case, 10.0, max(sizes), 0.05)
    runs = study.runs()
    print(f"case {case.name}; numba kernels available: {_kernels.AVAILABLE}")
    for b in sizes:
        model = build_batch_model(study, runs[:b])
        res = {}
        for flag in (True, False):
            if flag and not _kernels.AVAILABLE:
                continue
            old = _kernels.use_jit(flag)
            try:
                measure(model, 2)  # warm-up: compile / load the cached kernels, fill caches
                res[flag] = measure(model, max(4, args.repeat // max(1, b // 16)))
            finally:
                _kernels.use_jit(old)
        print(f"\nB = {b}: microseconds per call (per batch member in brackets)")
        print(f"  {'component':<32s} {'JIT':>18s} {'NumPy':>18s} {'speed-up':>9s}")
        for key in res[False]:
            nj = res[False][key]
            j = res.get(True, {}).get(key, float("nan"))
            print(
                f"  {key:<32s} {j:10.1f} ({j / b:5.1f}) {nj:10.1f} ({nj / b:5.1f}) {nj / j:8.1f}x"
            )


if __name__ == "__main__":
    main()
