"""Cost of a controller library (issue 36, docs/control.md "A controller library").

1. One call of ROSCO's library through the compiled interface (``bladed_controller``: the
   avrSWAP record filled, DISCON called through its address, the demands read), per member, in a
   compiled loop, against one RK4 step of the controlled ref09 model (docs/control.md "Cost").
2. A batch of 64 members of the controlled ref09 model (OC3-Hywind spar + BEM rotor, GenDOF,
   Kaimal 18 m/s; benchmarks/control_stability.py) for ``--tmax`` s, with ROSCO's library (64
   loaded copies) and with the compiled baseline controller, alternated A/B ``--repeat`` times
   after a warm-up run of each (compilation): the ratio of the wall times per member.

    PYTHONPATH=$PWD python benchmarks/bench_bladed.py [--tmax 1.0] [--batch 64] [--repeat 2]

Needs the rosco package (``pip install -e ".[control]"``).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from bench_bladed_parts import DISCON_IN, time_dll  # noqa: E402
from control_stability import model  # noqa: E402

from floatwind.loads.bladed import BladedLibrary, rosco_library  # noqa: E402


def per_call(n: int = 4000) -> float:
    """Seconds per call of ROSCO through the compiled interface (B = 1; the timing loop of
    bench_bladed_parts.py: ROSCO's initialisation, 70-240 ms, outside the timing)."""
    return time_dll(BladedLibrary("rosco", DISCON_IN, dt=0.0125), n)


def batch_run(preset: str, folder: pathlib.Path, tmax: float, batch: int) -> float:
    from floatwind.simulate.run import simulate

    m = model(folder, preset=preset, speed=18.0, tmax=tmax, seed=1,
              tag=f"{preset}_{time.time_ns()}", batch=batch)  # fmt: skip
    t0 = time.perf_counter()
    ds = simulate(m, progress=False, channels=["QD_shaft", "GenTq"])
    wall = time.perf_counter() - t0
    assert ds["GenTq"].values.shape[0] == batch
    return wall


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tmax", type=float, default=1.0)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args(argv)
    if rosco_library() is None:
        print("rosco is not installed (pip install -e '.[control]')", file=sys.stderr)
        return 1
    out = {"rosco_call_us": per_call() * 1e6}
    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp)
        for preset in ("rosco", "oc3_hywind"):  # warm-up (compilation)
            batch_run(preset, folder, min(args.tmax, 0.1), args.batch)
        walls: dict[str, list[float]] = {"rosco": [], "oc3_hywind": []}
        for _ in range(args.repeat):
            for preset in ("rosco", "oc3_hywind"):
                walls[preset].append(batch_run(preset, folder, args.tmax, args.batch))
                print(f"{preset}: {walls[preset][-1]:.2f} s", file=sys.stderr, flush=True)
    out.update({f"{k}_wall_s": v for k, v in walls.items()})
    out["per_member_ratio_rosco_over_baseline"] = min(walls["rosco"]) / min(walls["oc3_hywind"])
    out["batch"] = args.batch
    out["tmax_s"] = args.tmax
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
