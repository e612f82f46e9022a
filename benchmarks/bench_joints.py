"""Cost of joint degrees of freedom (issue 17) against prescribed joints, on the compiled path.

    python benchmarks/bench_joints.py [--t-max 30] [--sizes 1,16,64]

Model: ``cases/oc3_hywind.yaml`` in still water and steady wind (3 bodies, hydrostatics, 27
Morison strips, OC3 mooring, C_T thrust), dt 0.0025 s (the stiff yaw drive of OpenFAST's OC3
deck needs it). Three variants, B members in lockstep (initial pitch angles differ):

* ``prescribed``: the nacelle yaw a prescribed ramp (1.2 deg/s), the rotor at 12.1 rpm;
* ``yaw DOF``: the yaw a degree of freedom on the ServoDyn spring-damper (9.03e9 N m/rad,
  1.92e7 N m s/rad) toward the same ramp;
* ``yaw + rotor DOFs``: and the rotor a degree of freedom under a torque-speed table.

Times the stepping only (``Integrator.run`` with states every second, no output channels), after
a warm-up run that compiles. Prints microseconds per step and per member-step and the ratios to
the prescribed model; asserts nothing.
"""

from __future__ import annotations

import argparse
import copy
import pathlib
import time

import numpy as np
import yaml

from floatwind.case.loader import model_from_dict
from floatwind.integrate import RK4
from floatwind.simulate.fused import fuse
from floatwind.simulate.system import System

CASES = pathlib.Path(__file__).resolve().parents[1] / "cases"
DT = 0.0025


def variants(B: int) -> dict[str, dict]:
    base = yaml.safe_load((CASES / "oc3_hywind.yaml").read_text())
    base["environment"].pop("waves", None)
    base["environment"]["wind"] = {"kind": "steady", "speed": 12.0, "ref_height": 87.6}
    base["topology"]["yaw"] = {"kind": "ramp", "rate_deg": 1.2, "t_start": 0.0, "final_deg": 90.0}
    base["initial"] = {"angles_deg": [[0.0, 1.0 + 2.0 * k / max(B, 1), 0.0] for k in range(B)]}
    yaw = copy.deepcopy(base)
    yaw["topology"]["yaw_drive"] = {"kind": "spring_damper", "stiffness": 9.02832e9,
                                    "damping": 1.916e7, "initial": 0.0, "initial_rate": 0.0}  # fmt: skip
    both = copy.deepcopy(yaw)
    both["topology"]["spin_drive"] = {"kind": "torque", "rates_rpm": [0.0, 12.1, 20.0],
                                      "torques": [4.0e6, 0.0, -4.0e6]}  # fmt: skip
    return {"prescribed": base, "yaw DOF": yaw, "yaw + rotor DOFs": both}


def timed(model, t_max: float) -> float:
    system = System(model)
    fun, why = fuse(system)
    if fun is None:
        raise SystemExit(f"not on the compiled path: {why}")
    y0 = system.initial_state()
    t_out = np.arange(0.0, t_max + 1e-9, 1.0)
    integ = RK4(DT)
    integ.run(fun, y0, t_out[:2])  # warm-up: compiles (once per installation)
    t0 = time.perf_counter()
    integ.run(fun, y0, t_out)
    return time.perf_counter() - t0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--t-max", type=float, default=30.0)
    p.add_argument("--sizes", default="1,16,64")
    args = p.parse_args()
    n = round(args.t_max / DT)
    print(f"OC3-Hywind 3-body, {args.t_max:g} s = {n} RK4 steps of {DT} s, compiled stepping")
    print(f"{'B':>3} {'model':18} {'us/step':>10} {'us/member-step':>15} {'vs prescribed':>14}")
    for B in (int(s) for s in args.sizes.split(",")):
        ref = None
        for name, d in variants(B).items():
            wall = timed(model_from_dict(d, base_dir=CASES), args.t_max)
            us = wall / n * 1e6
            ref = ref or us
            print(f"{B:>3} {name:18} {us:>10.1f} {us / B:>15.2f} {us / ref:>14.2f}", flush=True)


if __name__ == "__main__":
    main()
