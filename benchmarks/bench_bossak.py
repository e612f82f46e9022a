"""Cost per step of Bossak-Newmark against RK4 on the OC3 platform case.

    python benchmarks/bench_bossak.py [--t-max 60] [--sizes 1,16]

Model: ``cases/oc3_platform_decay.yaml`` (one lumped body, gravity, buoyancy, linear
hydrostatics/mooring/damping), pitch decay from 0.1 rad, dt 0.0125 s, B members in lockstep.
Times the stepping only (states recorded every second, no output channels) of

* RK4 on the compiled path (``floatwind.simulate.fused``: whole steps in numba chunks; the
  compilation is done by a warm-up run first) and on the Python path (``System.rhs``);
* Bossak-Newmark, small rotations (linear model about the static equilibrium, one system
  evaluation and one 6x6 solve per step) on the compiled path
  (:func:`floatwind.integrate.compiled_bossak.bossak_linear_chunk` over the model's compiled
  right-hand side) and on the Python path, and large rotations (free-body Euler equations,
  the loads loop with Aitken relaxation) on the compiled path
  (:func:`floatwind.integrate.compiled_bossak.bossak_linked_chunk`, the model's compiled loads
  on the free bodies) and on the Python path.

Prints microseconds per step and per member-step and the ratios to RK4; asserts nothing.
"""

from __future__ import annotations

import argparse
import pathlib
import time

import numpy as np

from floatwind.case import load_case
from floatwind.integrate import RK4
from floatwind.integrate.bossak import BossakNewmark
from floatwind.simulate.bossak import compiled_linked_chunk, linearize, linked_bodies
from floatwind.simulate.equilibrium import static_equilibrium
from floatwind.simulate.system import System

CASE = pathlib.Path(__file__).resolve().parents[1] / "cases" / "oc3_platform_decay.yaml"


def timed(integ, fun, y0, t_out) -> float:
    t0 = time.perf_counter()
    integ.run(fun, y0, t_out)
    return time.perf_counter() - t0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--t-max", type=float, default=60.0)
    p.add_argument("--sizes", default="1,16")
    args = p.parse_args()
    dt = 0.0125
    t_out = np.arange(0.0, args.t_max + 1e-9, 1.0)
    n_steps = round(args.t_max / dt)
    model = load_case(CASE)
    print(f"OC3 platform decay, {args.t_max:g} s = {n_steps} steps of {dt} s")
    print(f"{'B':>3} {'scheme':34} {'us/step':>10} {'us/member-step':>15} {'vs RK4 compiled':>16}"
          f" {'vs RK4 Python':>14} {'iters':>6}")  # fmt: skip
    for B in (int(s) for s in args.sizes.split(",")):
        system = System(model)
        y0 = np.repeat(system.initial_state(), B, axis=0)
        y0[:, 4] += np.linspace(0.0, 0.02, B)  # members differ
        rows = []
        from floatwind.simulate.fused import fuse

        fused, why = fuse(system)
        if fused is not None:
            timed(RK4(dt), fused, y0, t_out[:3])  # compile / load the cached kernels
            rows.append(("RK4, compiled", timed(RK4(dt), fused, y0, t_out), None))
        rows.append(("RK4, Python", timed(RK4(dt), system.rhs, y0, t_out), None))
        x0 = static_equilibrium(model)["q"]
        lin = linearize(system, x0, B)
        if fused is not None:
            lin.fused, lin.bossak_chunk = fused, lin._chunk
            timed(BossakNewmark(dt, -0.1), lin, y0, t_out[:3])  # compile / load
            integ = BossakNewmark(dt, -0.1)
            rows.append(("Bossak small rotations, compiled", timed(integ, lin, y0, t_out), integ))
            lin.fused, lin.bossak_chunk = None, None
        integ = BossakNewmark(dt, -0.1)
        rows.append(("Bossak small rotations, Python", timed(integ, lin, y0, t_out), integ))
        lb, yl = linked_bodies(model, system, y0)
        if fused is not None:
            lb.bossak_chunk = compiled_linked_chunk(lb, fused)
            timed(BossakNewmark(dt, -0.1), lb, yl, t_out[:3])  # compile / load
            integ = BossakNewmark(dt, -0.1)
            rows.append(("Bossak large rotations, compiled", timed(integ, lb, yl, t_out), integ))
            lb.bossak_chunk = None
        integ = BossakNewmark(dt, -0.1)
        rows.append(("Bossak large rotations, Python", timed(integ, lb, yl, t_out), integ))
        ref_c = rows[0][1] if fused is not None else np.nan
        ref_p = next(r[1] for r in rows if r[0] == "RK4, Python")
        for name, sec, integ in rows:
            it = f"{integ.stats.summary()['mean']:.2f}" if integ is not None else "-"
            print(
                f"{B:3d} {name:34} {sec / n_steps * 1e6:10.1f} {sec / n_steps / B * 1e6:15.2f} "
                f"{sec / ref_c:15.2f}x {sec / ref_p:13.2f}x {it:>6}"
            )
        if fused is None:
            print(f"    (RK4 compiled path unavailable: {why})")


if __name__ == "__main__":
    main()
