"""Cost of the flexible tower (issue 37) per step on the compiled path, and of its pieces.

    python benchmarks/bench_flex.py [--steps 2000] [--repeat 7] [--pieces] [--deck ref11|ref05|held]
    python benchmarks/bench_flex.py --deck ref11,held     # both models, all variants alternated

Model: ref11 (``../shared/reference/openfast/ref11_tower_flex_decay``: still water, linear
hydro matrices, no rotor loads; the cheapest loads there are) or with ``--deck ref05`` ref05's
Morison spar in its JONSWAP sea with the rotor at 12.1 rpm, or with ``--deck held`` issue 37's
held-back deck as far as the reference decks give it: ref05's Morison spar in a regular wave
(WaveMod 1P0: phase 0, ref05's height 5 m and period 10 s) from 15 deg (WaveDir), rotor spinning at
12.1 rpm (ElastoDyn, no aerodynamics: ref05 has CompAero 0). A comma list of decks times them
all in one process, every variant of every deck alternated in each round. Three variants: the rigid tower
(TwFADOF1 = TwSSDOF1 = False), two modes (the deck), four modes (TwFADOF2 = TwSSDOF2 = True).
Times ``rk4_chunk`` of ``--steps`` RK4 steps (process CPU, min and median of ``--repeat``, the
variants alternated in each round so that the machine's load hits them alike), after a warm-up
chunk that compiles. ``--pieces`` also times, inside a compiled loop, the flexible stages of
one right-hand side (``flex_state``, ``flex_dynamics``) for the four-mode
model. Prints microseconds; asserts nothing.
"""

from __future__ import annotations

import argparse
import pathlib
import time

import numpy as np

from floatwind.jit import njit

REF = pathlib.Path(__file__).resolve().parents[1] / ".." / "shared" / "reference" / "openfast"
DECKS = {
    "ref11": REF / "ref11_tower_flex_decay" / "ref11_tower_flex_decay.fst",
    "ref05": REF / "ref05_morison_jonswap" / "ref05_morison_jonswap.fst",
}
DECKS["held"] = DECKS["ref05"]
DECK = ["ref11"]


def system_of(modes: int):
    from floatwind.case.loader import model_from_dict
    from floatwind.case.openfast.fst import read_fst
    from floatwind.case.openfast.importer import case_from_deck
    from floatwind.simulate import System

    deck = read_fst(DECKS[DECK[0]])
    ed = deck["ElastoDyn"]["values"]
    if DECK[0] in ("ref05", "held"):  # the rotor spinning (docs/multibody.md, "Flexible tower", Speed)
        ed["RotSpeed"] = 12.1
    if DECK[0] == "held":  # issue 37's held-back deck: a regular wave from 15 deg
        sea = deck["SeaState"]["values"]
        sea["WaveMod"] = "1P0"
        sea["WaveDir"] = 15.0
    ed["TwFADOF1"] = ed["TwSSDOF1"] = modes >= 2
    ed["TwFADOF2"] = ed["TwSSDOF2"] = modes >= 4
    case = case_from_deck(deck)["case"]
    return System(model_from_dict(case))


def chunk_timer(modes: int, steps: int, dt: float = 0.0125):
    from floatwind.simulate.fused import fuse

    system = system_of(modes)
    fr, why = fuse(system)
    if fr is None:
        raise SystemExit(f"not on the compiled path: {why}")
    y0 = system.initial_state()
    f0 = system.rhs(0.0, y0)
    ts = np.arange(steps + 1) * dt
    fr.rk4_chunk(ts[:3], y0, f0, 0.0, dt)  # compiles / loads

    def run() -> float:
        c0 = time.process_time()
        fr.rk4_chunk(ts, y0, f0, 0.0, dt)
        return (time.process_time() - c0) / steps * 1e6

    return run, fr


def pieces(fr, n: int, repeat: int) -> None:
    from floatwind._kernels import flex as kfx

    f = fr.params.dofs
    y = fr.system.initial_state()
    y = y + 1e-3 * np.random.default_rng(0).standard_normal(y.shape)
    N = int(f.ip[kfx.IP_N])
    B = y.shape[0]
    force = np.zeros((B, N, 3))
    moment = np.zeros((B, N, 3))
    A = np.zeros((B, N, 6, 6))
    rel = fr._rel(np.array([0.0]))
    tr = (rel.rho, rel.drho, rel.ddrho, rel.R_c2s, rel.w_rel, rel.dw_rel)

    @njit(cache=False)
    def l_state(fp, ip, tr, y, n):
        for _ in range(n):
            kfx.flex_state(fp, ip, tr[0], tr[1], tr[2], tr[3], tr[4], tr[5], False, 0, y)

    @njit(cache=False)
    def l_dyn(fp, ip, y, X, force, moment, A, out, n):
        for _ in range(n):
            tau = np.empty((y.shape[0], 4))
            kfx.flex_dynamics(fp, ip, y, X, tau, force, moment, A, False, out)

    X = kfx.flex_state(f.fp, f.ip, *tr, False, 0, y)[0]
    out = np.zeros_like(y)
    res = {}
    for name, fn, args in (
        ("flex_state", l_state, (f.fp, f.ip, tr, y)),
        ("flex_dynamics", l_dyn, (f.fp, f.ip, y, X, force, moment, A, out)),
    ):
        fn(*args, 1)
        best = []
        for _ in range(repeat):
            c0 = time.process_time()
            fn(*args, n)
            best.append((time.process_time() - c0) / n * 1e6)
        res[name] = (min(best), float(np.median(best)))
    for k, (mn, md) in res.items():
        print(f"  {k:14s} min {mn:7.2f} us  median {md:7.2f} us per call")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=2000)
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--pieces", action="store_true")
    p.add_argument("--deck", default="ref11", help=f"one of {sorted(DECKS)} or a comma list")
    args = p.parse_args()
    decks = args.deck.split(",")
    for d in decks:
        if d not in DECKS:
            p.error(f"--deck {d}: not one of {sorted(DECKS)}")
    runs = {}
    for d in decks:
        DECK[0] = d
        for m in (0, 2, 4):
            runs[d, m] = chunk_timer(m, args.steps)
    t = {k: [] for k in runs}
    for _ in range(args.repeat):
        for k, (run, _fr) in runs.items():
            t[k].append(run())
    for d in decks:
        print(f"{d}, {args.steps} RK4 steps per chunk, CPU us per step (min / median of {args.repeat})")
        r0, m0 = min(t[d, 0]), np.median(t[d, 0])
        for m in (0, 2, 4):
            v = t[d, m]
            name = "rigid tower" if m == 0 else f"{m} modes"
            print(f"  {name:12s} {min(v):7.1f} / {np.median(v):7.1f}   {min(v) / r0:5.2f}x / "
                  f"{np.median(v) / m0:5.2f}x rigid (min / median)")
    if args.pieces:
        print(f"four modes ({decks[-1]}), one right-hand side's flexible stages (compiled loop):")
        pieces(runs[decks[-1], 4][1], 2000, args.repeat)


if __name__ == "__main__":
    main()
