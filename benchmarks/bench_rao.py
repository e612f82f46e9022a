"""Cost of a full RAO sweep (issue 40: 200 frequencies x 8 headings under 1 s once the case is
loaded) and of the linearization that precedes it.

    python benchmarks/bench_rao.py [--deck PATH.fst] [--repeat 20]

Model: the OC3 spar with WAMIT radiation and excitation (``ref13_potential_irregular.fst`` of
the shared references). Times (wall clock, best of ``--repeat``): loading the deck, the
linearization about the static equilibrium (``floatwind.linear.matrices.linearize``), the modes
with potential flow iterated to each mode's frequency, and the RAO sweep (``raos``: 200
frequencies 0.02..4 rad/s x 8 headings 0..45 deg). Prints the times; asserts nothing.
"""

from __future__ import annotations

import argparse
import pathlib
import time

import numpy as np

from floatwind.cli._case import load_model
from floatwind.linear.matrices import linearize
from floatwind.linear.modes import modes
from floatwind.linear.rao import raos

DECK = (pathlib.Path(__file__).resolve().parents[1] / "../shared/reference/openfast/"
        "ref13_potential_irregular/ref13_potential_irregular.fst")  # fmt: skip


def best(fn, repeat):
    out, times = None, []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return out, min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deck", default=str(DECK))
    ap.add_argument("--repeat", type=int, default=20)
    a = ap.parse_args()
    model, t_load = best(lambda: load_model(a.deck), 1)
    linearize(model)  # compile / warm caches
    lin, t_lin = best(lambda: linearize(model), max(1, a.repeat // 10))
    _, t_modes = best(lambda: modes(lin), max(1, a.repeat // 10))
    w = np.linspace(0.02, 4.0, 200)
    h = np.radians(np.linspace(0.0, 45.0, 8))
    R, t_rao = best(lambda: raos(lin, w, h), a.repeat)
    print(f"load deck            {t_load * 1e3:9.1f} ms")
    print(f"linearize            {t_lin * 1e3:9.1f} ms (equilibrium, M, C, K, two step sizes)")
    print(f"modes                {t_modes * 1e3:9.1f} ms (A(w), B(w) iterated per mode)")
    print(f"RAO sweep {R.shape[0]} x {R.shape[1]}   {t_rao * 1e3:9.1f} ms")


if __name__ == "__main__":
    main()
