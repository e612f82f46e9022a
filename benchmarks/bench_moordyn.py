"""Cost of MoorDyn's lumped-mass lines in floatwind (issue 38): ref10 whole run vs OpenFAST.

    python benchmarks/bench_moordyn.py [REF10_DIR] [--tmax S] [--start catenary|static]
                                       [--batch 1,8] [--ic-step stable|dt_m]
                                       [--integration states,substep,states,substep]

Runs the deck ``ref10_moordyn_decay`` (OC3-Hywind, three MoorDyn lines of 20 segments, 300 s)
as ``floatwind run`` does, after one warm-up run of 1 s (numba compiles once per installation),
and prints the process CPU time of each part: the lines' initial conditions (MoorDyn's dynamic
relaxation from the catenary, or from the lines at rest with ``--start static``), the stepping
and the outputs; then the whole run against OpenFAST + MoorDyn's 24.47 s CPU of the same deck
(its README, same machine class). ``--batch`` runs B members in lockstep (each member its own
initial surge) and prints the cost per member. Asserts nothing.
"""

from __future__ import annotations

import argparse
import pathlib
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
OPENFAST_CPU_S = 24.47  # ref10 README: user CPU of openfast for 300 s


def _model(fst, tmax, start, batch, step="stable", integration="states"):
    from floatwind.case.openfast import import_openfast, model_from_deck
    from floatwind.loads.moordyn import LumpedMassMooring

    orig = LumpedMassMooring.__init__

    def init(self, *a, **k):
        k["ic_start"] = start
        k["ic_step"] = step
        orig(self, *a, **k)

    LumpedMassMooring.__init__ = init
    try:
        over = {"simulation.t_max": tmax}
        # --mooring dynamic (the lines sub-stepped inside DT) or dynamic-states (RK4 at DT/2)
        res = import_openfast(fst, mooring="dynamic" if integration == "substep" else
                              "dynamic-states")  # fmt: skip
        m = model_from_deck(fst, overrides=over, result=res)
    finally:
        LumpedMassMooring.__init__ = orig
    if batch > 1:
        import dataclasses

        ic = m.initial
        disp = np.zeros((batch, 3))
        disp[:, 0] = np.linspace(10.0, 15.0, batch)
        m = dataclasses.replace(m, initial=dataclasses.replace(ic, displacement=disp))
    return m


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument(
        "ref",
        nargs="?",
        default=str(ROOT.parent / "shared" / "reference" / "openfast" / "ref10_moordyn_decay"),
    )
    ap.add_argument("--tmax", type=float, default=300.0)
    ap.add_argument("--start", choices=("catenary", "static"), default="catenary")
    ap.add_argument("--batch", default="1")
    ap.add_argument(
        "--ic-step",
        choices=("stable", "dt_m"),
        default="stable",
        help="the relaxation's step (initial.step)",
    )
    ap.add_argument(
        "--integration",
        default="states",
        help="the lines' integration, comma-separated to alternate in one process (A/B): "
        "states (with the bodies, RK4 at DT/2) or substep (RK2 sub-steps inside DT)",
    )
    args = ap.parse_args()
    from floatwind.simulate import simulate
    from floatwind.simulate.system import System

    fst = pathlib.Path(args.ref) / "ref10_moordyn_decay.fst"
    modes = args.integration.split(",")
    for mode in dict.fromkeys(modes):
        simulate(_model(fst, 1.0, "static", 1, integration=mode), progress=False)  # compile once
    runs = [(int(b), mode) for b in args.batch.split(",") for mode in modes]
    for B, mode in runs:
        m = _model(fst, args.tmax, args.start, B, args.ic_step, mode)
        c0 = time.process_time()
        System(m).initial_state()  # the relaxation (cached by the load for the run)
        c1 = time.process_time()
        w0 = time.perf_counter()
        ds = simulate(m, progress=False)
        c2 = time.process_time()
        wall = time.perf_counter() - w0
        total = c2 - c0
        print(f"{mode}: B = {B}, {args.tmax:g} s, start {args.start}: initial conditions {c1 - c0:.2f} s "
              f"CPU, stepping + outputs {c2 - c1:.2f} s CPU ({wall:.2f} s wall), whole run "
              f"{total:.2f} s CPU = {total / B:.2f} s per member; OpenFAST + MoorDyn "
              f"{OPENFAST_CPU_S * args.tmax / 300.0:.2f} s CPU: x"
              f"{OPENFAST_CPU_S * args.tmax / 300.0 * B / total:.1f}")  # fmt: skip
        assert ds.sizes["time"] > 1


if __name__ == "__main__":
    main()
