"""Cost of the servodyn load's compiled parts (issue 36, docs/control.md): one call of the
baseline controller with ServoDyn's state updates (``servo_after_step``) and one evaluation of the
load kernel (``servo_kernel``), per member, at B = 1 and B = 64, against one RK4 step of the
controlled ref09 model (OC3-Hywind spar + BEM rotor; benchmarks/control_stability.py).

    PYTHONPATH=$PWD python benchmarks/bench_servo.py [--presets oc3_hywind oc3_hywind_peak_shaving]

With several presets the rounds alternate between them (A/B on a shared machine) and the
minimum over ``--rounds`` is printed.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from floatwind._kernels import servo as ks
from floatwind._kernels.contract import BodyKinematics
from floatwind.loads.servo import CONTROLLER_PRESETS, ServoDyn


def _kin(B: int) -> BodyKinematics:
    R = np.broadcast_to(np.eye(3), (B, 2, 3, 3)).copy()
    w = np.zeros((B, 2, 3))
    w[:, 1, 0] = 12.1 * np.pi / 30.0
    return BodyKinematics(np.zeros((B, 2, 3)), R, np.zeros((B, 2, 3)), w, np.zeros((2, 3)))


@njit(cache=False)
def _after_loop(p, kin, y, n, dt):
    for k in range(1, n):
        ks.servo_after_step(p, k * dt, kin, y)


@njit(cache=False)
def _kernel_loop(p, kin, y, f, mo, a, n, dt):
    for k in range(n):
        ks.servo_kernel(p, k * dt, kin, y, y, f, mo, a)


def per_call(B: int, n: int = 20000, preset: str = "oc3_hywind") -> tuple[float, float]:
    """Seconds per call inside compiled code (as the fused stepper calls them)."""
    ld = ServoDyn(rotor=1, nacelle=0, axis=(1.0, 0.0, 0.0), gearbox_ratio=97.0,
                  pitch=[0.2, 0.2, 0.2], controller=dict(CONTROLLER_PRESETS[preset]),
                  controller_dt=0.0125)  # fmt: skip
    m = ld.memory(B, 0.0, 0.0125, n)
    p = ld._params(m, 9.80665)
    kin = _kin(B)
    y = np.empty((B, 0))
    f = np.zeros((B, 2, 3))
    mo = np.zeros((B, 2, 3))
    a = np.zeros((B, 2, 0, 0))
    ks.servo_after_step(p, 0.0, kin, y)
    _after_loop(p, kin, y, 2, 0.0125)  # compile
    _kernel_loop(p, kin, y, f, mo, a, 1, 0.0125)
    t0 = time.perf_counter()
    _after_loop(p, kin, y, n, 0.0125)
    t_after = (time.perf_counter() - t0) / (n - 1)
    t0 = time.perf_counter()
    _kernel_loop(p, kin, y, f, mo, a, n, 0.0125)
    t_kernel = (time.perf_counter() - t0) / n
    return t_after, t_kernel


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presets", nargs="+", default=["oc3_hywind"])
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args(argv)
    for B in (1, 64):
        best = {p: (float("inf"), float("inf")) for p in args.presets}
        for _ in range(args.rounds):
            for preset in args.presets:
                a, k = per_call(B, preset=preset)
                best[preset] = (min(best[preset][0], a), min(best[preset][1], k))
        for preset, (a, k) in best.items():
            print(f"{preset}: B = {B:3d}: controller call + state update {a * 1e6:8.2f} us "
                  f"({a / B * 1e6:.3f} us per member), load kernel {k * 1e6:8.2f} us "
                  f"({k / B * 1e6:.3f} us per member)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
