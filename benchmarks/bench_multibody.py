"""Cost of one 6-body right-hand side (MCM: kinematics + forward dynamics) for B = 1 and B = 256,
and the ratio to the per-body Newton-Euler baseline (floatwind.multibody.newton_euler).

    python benchmarks/bench_multibody.py
"""

from __future__ import annotations

import time

import numpy as np

from floatwind.loads.base import Wrench
from floatwind.multibody import ConstantRate, Tree, forward_dynamics_ne, six_body
from floatwind.multibody.mcm import (
    body_kinematics,
    forward_dynamics,
    mass_distribution,
    relative_kinematics,
)


def _time(fn, n):
    fn()
    best = np.inf
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t0) / n)
    return best


def main():
    tree = Tree(
        *six_body(
            yaw=ConstantRate(0, 0.02), spin=ConstantRate(0, 1.27), pitch=ConstantRate(0, 0.02)
        )
    )
    rng = np.random.default_rng(0)
    print(
        f"{'B':>5} {'MCM rhs (ms)':>13} {'per member (us)':>16} {'NE rhs (ms)':>12} {'NE/MCM':>7}"
    )
    for B in (1, 256):
        q = rng.normal(size=(B, 6)) * 0.1
        qd = rng.normal(size=(B, 6)) * 0.1
        F = rng.normal(size=(B, 6, 3))
        M = rng.normal(size=(B, 6, 3))
        w = Wrench(F, M)

        def mcm(t=1.0, q=q, qd=qd, w=w):
            rel = relative_kinematics(tree, t)
            md = mass_distribution(tree, rel)
            body_kinematics(tree, t, rel, md, q, qd)
            return forward_dynamics(tree, rel, md, q, qd, w)

        def ne(t=1.0, q=q, qd=qd, F=F, M=M):
            return forward_dynamics_ne(tree, t, q, qd, F, M)

        n = 200 if B == 1 else 20
        a, b = _time(mcm, n), _time(ne, n)
        print(f"{B:5d} {a * 1e3:13.3f} {a / B * 1e6:16.2f} {b * 1e3:12.3f} {b / a:7.2f}")


if __name__ == "__main__":
    main()
