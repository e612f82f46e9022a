"""Per-step cost of the compiled RK4 chunk of the reference decks (the generic rigid-body step
every deck shares: docs/performance.md, "The rigid step without glue").

    python benchmarks/bench_rigid.py [--decks ref01,ref10] [--tmax 20] [--repeat 7]

For each deck (``../shared/reference/openfast/refNN_*``) runs ``floatwind run DECK --tmax S``
in this process (its outputs into a temporary folder) with ``FusedRHS.rk4_chunk`` wrapped so
that the longest compiled chunk of the run is kept (its arguments and the run's params, step
memories included, and a copy of every array its loads' params hold); then replays that chunk
``--repeat`` times from those arrays as they were, the decks alternated in each round (process
CPU per step, min and median). Run it with ``PYTHONPATH`` set to another checkout to time that one (A/B).
Prints microseconds per step; asserts nothing.
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import tempfile
import time

import numpy as np

REF = pathlib.Path(__file__).resolve().parents[1] / ".." / "shared" / "reference" / "openfast"


def _arrays(obj, out: list) -> list:
    """Every array reachable from a params record (NamedTuples, tuples, objects' fields)."""
    if isinstance(obj, np.ndarray):
        out.append(obj)
    elif isinstance(obj, (tuple, list)):
        for o in obj:
            _arrays(o, out)
    elif hasattr(obj, "__dict__") and not callable(obj):
        for o in vars(obj).values():
            _arrays(o, out)
    return out


def chunk_timer(name: str, tmax: float, tmp: str):
    from floatwind.cli import main as cli
    from floatwind.simulate import fused

    fst = next(REF.glob(f"{name}_*/{name}_*.fst"))
    kept = {}
    orig = fused.FusedRHS.rk4_chunk

    def keep(self, ts, y, f, t0, dt):
        if len(ts) > len(kept.get("args", ((),))[0]):
            kept["args"] = (ts.copy(), y.copy(), f.copy(), t0, dt)
            kept["self"] = self
            arrays = _arrays(self.params.loads, [])
            kept["state"] = [(a, a.copy()) for a in arrays if a.flags.writeable]
        return orig(self, ts, y, f, t0, dt)

    fused.FusedRHS.rk4_chunk = keep
    try:
        argv = ["run", str(fst), "--tmax", str(tmax), "-o", f"{tmp}/{name}.nc", "--overwrite",
                "--no-progress"]  # fmt: skip
        cli(argv)
    finally:
        fused.FusedRHS.rk4_chunk = orig
    fr, args = kept["self"], kept["args"]
    steps = len(args[0]) - 1

    def run() -> float:
        for a, a0 in kept["state"]:  # the step memories and scratch as the chunk found them
            np.copyto(a, a0)
        c0 = time.process_time()
        _, _, done, status = orig(fr, *args)
        if done != steps:
            raise SystemExit(f"{name}: chunk stopped at {done} (status {status})")
        return (time.process_time() - c0) / steps * 1e6

    return run, steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decks", default="ref01,ref09,ref10,ref11")
    ap.add_argument("--tmax", type=float, default=20.0)
    ap.add_argument("--repeat", type=int, default=7)
    a = ap.parse_args()
    names = a.decks.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        runs = {n: chunk_timer(n, a.tmax, tmp) for n in names}
    got: dict[str, list[float]] = {n: [] for n in names}
    for _ in range(a.repeat):
        for n in names:
            got[n].append(runs[n][0]())
    for n in names:
        print(f"{n}: {runs[n][1]} steps  min {min(got[n]):7.2f} us/step  "
              f"median {statistics.median(got[n]):7.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
