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
one right-hand side (``flex_state_into``, ``flex_dynamics_into``) for the four-mode model: the
model's sized copies (the stepping's) and the shared kernels (the output rows'). Prints
microseconds; asserts nothing.
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
    """The two flexible stages of one right-hand side in a compiled loop: the model's own
    copies with its sizes as literals (``floatwind.simulate.generate._sized_flex``, what the
    stepping runs) and the shared kernels (what the output rows run)."""
    from floatwind._kernels.fused import flex_work
    from floatwind.simulate import fused as sf
    from floatwind.simulate import generate

    f = fr.params.dofs
    y = fr.system.initial_state()
    y = y + 1e-3 * np.random.default_rng(0).standard_normal(y.shape)
    N, nm, nf = int(f.ip[0]), int(f.ip[2]), int(f.ip[3])
    B = y.shape[0]
    force = np.zeros((B, N, 3))
    moment = np.zeros((B, N, 3))
    A = np.zeros((B, N, 6, 6))
    rel = fr._rel(np.array([0.0]))
    tab = (rel.rho, rel.drho, rel.ddrho, rel.R_c2s, rel.w_rel, rel.dw_rel)
    w = flex_work(B, N, nm, nf, f.cm_b, y.shape[1])
    kin = (w.X, w.kin.r_G, w.kin.R_b2g, w.kin.v_G, w.kin.w_b, w.ws)
    imports, defs = generate._sized_flex(generate._flex_header(sf.stepper_kind(fr.system)))
    g: dict = {}
    exec("\n".join(["from floatwind.jit import njit", *imports]), g)  # noqa: S102 - our text
    exec("\n\n".join(defs).replace("cache=True", "cache=False"), g)  # noqa: S102
    from floatwind._kernels import flex as kfx

    def loops(fs, fd):
        @njit(cache=False)
        def l_state(fp, ip, tab, y, kin, n):
            for _ in range(n):
                fs(fp, ip, tab, False, 0, y, kin)

        @njit(cache=False)
        def l_dyn(fp, ip, y, X, tau, force, moment, A, out, dyn, n):
            for _ in range(n):
                fd(fp, ip, y, X, tau, force, moment, A, False, out, dyn)

        return l_state, l_dyn

    out = np.zeros_like(y)
    tau = np.zeros((B, nf))
    for tag, (fs, fd) in (("sized", (g["flex_state_into"], g["flex_dynamics_into"])),
                          ("shared", (kfx.flex_state_into, kfx.flex_dynamics_into))):  # fmt: skip
        l_state, l_dyn = loops(fs, fd)
        res = {}
        for name, fn, args in (
            ("flex_state", l_state, (f.fp, f.ip, tab, y, kin)),
            ("flex_dynamics", l_dyn, (f.fp, f.ip, y, w.X, tau, force, moment, A, out, w.dyn)),
        ):
            fn(*args, 1)
            best = []
            for _ in range(repeat):
                c0 = time.process_time()
                fn(*args, n)
                best.append((time.process_time() - c0) / n * 1e6)
            res[name] = (min(best), float(np.median(best)))
        for k, (mn, md) in res.items():
            print(f"  {tag:6s} {k:14s} min {mn:7.2f} us  median {md:7.2f} us per call")


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
        pieces(runs[decks[-1], 4][1], 20000, args.repeat)


if __name__ == "__main__":
    main()
