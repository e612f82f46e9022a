"""Cost of the catenary mooring against one right-hand side of the OC3 3-body case.

    python benchmarks/bench_catenary.py [--batch 1,16] [--steps 400]

For ``cases/oc3_hywind_catenary.yaml`` (3 bodies, exact hydrostatics, Morison strips, the three
OC3 catenary lines, thrust, JONSWAP sea, steady wind) it times

* one RHS of the compiled stepping: the fused RK4 chunk over ``steps`` steps / (4 steps);
* the catenary load alone: its kernel (``floatwind._kernels.catenary.catenary_kernel``) called in a
  compiled loop on the kinematics of the same state (no Python call overhead);

and prints both per batch member and their ratio (issue 18's target: <= 0.20). The kinematics
are taken along a surge sweep of +-30 m so that the line solves see touchdown, slack and taut
lines, not only the rest position. ``--bridle`` also times the case with its 180-deg line
replaced by the two-leg bridle of docs/loads.md (one connect node solved for equilibrium at every
evaluation).
"""

from __future__ import annotations

import argparse
import pathlib
import time

import numpy as np
from numba import njit

from floatwind._kernels.catenary import catenary_kernel
from floatwind._kernels.contract import body_kinematics

ROOT = pathlib.Path(__file__).resolve().parents[1]


@njit(cache=False)
def _repeat(n, p, kin, y, force, moment, added):
    st = 0
    for _ in range(n):
        st |= catenary_kernel(p, 0.0, kin, y, y, force, moment, added)
    return st


def _bridle(d: dict) -> dict:
    """The case dict with its 180-deg line replaced by the bridle of docs/loads.md."""
    for ld in d["loads"]:
        if ld["type"] == "mooring_catenary":
            l0 = ld["lines"][0]
            props = {k: l0[k] for k in ("mass_per_length", "diameter", "ea")}
            ld["lines"][0:1] = [
                {"fairlead": [-2.6, 4.5, -70.0], "anchor": "yoke", "length": 60.0, **props},
                {"fairlead": [-2.6, -4.5, -70.0], "anchor": "yoke", "length": 60.0, **props},
                {"fairlead": "yoke", "anchor": l0["anchor"], "length": 845.0, **props,
                 "seabed_friction": 0.001},
            ]  # fmt: skip
            ld["connects"] = [{"name": "yoke", "position": [-60.0, 0.0, -100.0]}]
    return d


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--batch", default="1,16")
    p.add_argument("--steps", type=int, default=400)
    p.add_argument("--bridle", action="store_true", help="also the bridle variant")
    args = p.parse_args()
    import yaml

    from floatwind.case import model_from_dict
    from floatwind.loads.catenary import CatenaryMooring
    from floatwind.simulate import fused as fz
    from floatwind.simulate.system import System

    path = ROOT / "cases" / "oc3_hywind_catenary.yaml"
    variants = [("3 lines", lambda d: d)] + ([("bridle + 5 lines", _bridle)] if args.bridle else [])
    for (what, edit), b in [(v, int(x)) for v in variants for x in args.batch.split(",")]:
        d = edit(yaml.safe_load(path.read_text()))
        model = model_from_dict(d, base_dir=path.parent, name="bench")
        model.initial.displacement = np.stack(
            [np.linspace(-30.0, 30.0, b), np.zeros(b), np.zeros(b)], axis=1
        )
        system = System(model)
        fused, why = fz.fuse(system)
        if fused is None:
            print(f"B = {b}: not fused: {why}")
            return 1
        y = system.initial_state()
        f = system.rhs(0.0, y)
        dt = 0.05
        ts = np.arange(args.steps + 1) * dt
        fused.rk4_chunk(ts[:3], y, f, 0.0, dt)  # load / compile
        t0 = time.perf_counter()
        _, _, done, status = fused.rk4_chunk(ts, y, f, 0.0, dt)
        t_rhs = (time.perf_counter() - t0) / (4 * int(done)) / b
        load = next(ld for ld in model.loads if isinstance(ld, CatenaryMooring))
        ev = system.evaluate(0.0, y)
        k = ev.kin
        force = np.zeros((b, k.n_bodies, 3))
        moment = np.zeros_like(force)
        added = np.zeros((b, k.n_bodies, 0, 0))
        argv = (load._params(model.env, b), body_kinematics(k), np.empty((b, 0)), force, moment,
                added)  # fmt: skip
        _repeat(2, *argv)
        n = 20000 // b + 1
        t0 = time.perf_counter()
        _repeat(n, *argv)
        t_cat = (time.perf_counter() - t0) / n / b
        print(
            f"{what}, B = {b:3d}: one RHS {t_rhs * 1e6:8.2f} us/member, catenary load "
            f"{t_cat * 1e6:6.2f} us/member, ratio {t_cat / t_rhs:.3f} (target <= 0.20); "
            f"stepping status {status}"
        )
    return 0

if __name__ == "__main__":
    raise SystemExit(main())
