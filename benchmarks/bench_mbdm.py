"""Speed of the compiled MBDM dynamic analysis (issue 19): real-time factors and batches.

    python benchmarks/bench_mbdm.py [--repeat 5] [--batch 64] [--python]

Cases (Leble, seed 001):

* body on a spring (sec. 10.1, Tables 22-23: 60 kg, k = 10,000 N/m), 10 s at dt = 1e-3 s;
* slider-crank dynamic case (sec. 10.3, Tables 27-28: torque 41,450 N m, gas force (94) with
  its switches; the shipped cases/mbdm/slider_crank_dynamic), 1 s at dt = 1e-3 s and 5e-4 s;

each by Baumgarte/RK4 with eq. (67) on the compiled path (``dynamic_analysis(...,
compiled=True)``; the compilation is done by a warm-up run first), outputs every 10 ms; and a
batch of ``--batch`` body-on-spring variants (stiffness 5,000-20,000 N/m, initial offsets) in
one call against the same runs one at a time. ``--python`` also times the NumPy reference
(slow: seconds per simulated second). Wall times are the minimum of ``--repeat`` runs.

Prints the real-time factor (simulated / wall time), microseconds per step and the batch's
per-member cost relative to a single run; asserts nothing.
"""

from __future__ import annotations

import argparse
import pathlib
import time

import numpy as np

from floatwind.case.mbdm_files import read_mbdm
from floatwind.multibody.mbdm import (
    DynamicSystem,
    SpringDamper,
    System,
    dynamic_analysis,
    dynamic_analysis_batch,
    pdot_from_omega,
)
from floatwind.simulate.mbdm import assemble_mass_weighted

SLIDER_CRANK = (pathlib.Path(__file__).resolve().parents[1] / "cases" / "mbdm"
                / "slider_crank_dynamic" / "mbdm")  # fmt: skip


def spring_system(k: float = 10000.0) -> DynamicSystem:
    """Sec. 10.1: m = 60 kg, J' = 10 I, anchor (0, 0, 2), fairlead (0, 0, 0.5), l0 = 1.5 m."""
    line = SpringDamper(0, anchor=(0.0, 0.0, 2.0), fairlead=(0.0, 0.0, 0.5), l0=1.5, k=k)
    return DynamicSystem(System(("body",), ()), [60.0], [np.eye(3) * 10.0],
                         gravity=(0.0, 0.0, -9.81), lines=(line,))  # fmt: skip


def slider_crank() -> tuple[DynamicSystem, np.ndarray, np.ndarray]:
    """Sec. 10.3 (Tables 25-28) as shipped, cases/mbdm/slider_crank_dynamic (crank torque and
    gas force (94) as force elements), assembled as ``floatwind mbdm`` assembles it."""
    import validation.mbdm.forces  # noqa: F401  (registers 'gas force (94)', entry point or not)

    model = read_mbdm(SLIDER_CRANK)
    q, qd = assemble_mass_weighted(model, model.q0(), model.qdot0(), model.t_start)
    return model.dynamic_system(), q, qd


def best(fn, repeat: int) -> float:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return min(out)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--python", action="store_true", help="also time the NumPy reference")
    args = p.parse_args()
    kw = dict(method="baumgarte", form="omega")
    q_rest = np.array([[0.0, 0, 0, 1, 0, 0, 0]])
    cases = [("body on a spring (10.1)", spring_system(), q_rest, np.zeros((1, 7)), 10.0, 1e-3)]
    ds, q0, qd0 = slider_crank()
    cases += [("slider-crank (10.3)", ds, q0, qd0, 1.0, dt) for dt in (1e-3, 5e-4)]
    print(f"{'case':26} {'dt (s)':>8} {'sim (s)':>8} {'wall (s)':>10} {'us/step':>9} "
          f"{'x real time':>12}")  # fmt: skip
    for name, d, q, qd, T, dt in cases:
        every = max(1, round(0.01 / dt))
        dynamic_analysis(d, q, qd, 10 * dt, dt, compiled=True, **kw)  # compile / load

        def go(d=d, q=q, qd=qd, T=T, dt=dt, every=every):
            dynamic_analysis(d, q, qd, T, dt, save_every=every, compiled=True, **kw)

        w = best(go, args.repeat)
        print(f"{name + ', compiled':26} {dt:8g} {T:8g} {w:10.4f} {w / (T / dt) * 1e6:9.2f} "
              f"{T / w:12.0f}")  # fmt: skip
        if args.python:
            Tp = min(T, 0.2)
            w = best(lambda d=d, q=q, qd=qd, Tp=Tp, dt=dt: dynamic_analysis(
                d, q, qd, Tp, dt, save_every=max(1, round(0.01 / dt)), **kw), 1)  # fmt: skip
            print(f"{name + ', Python':26} {dt:8g} {Tp:8g} {w:10.4f} "
                  f"{w / (Tp / dt) * 1e6:9.2f} {Tp / w:12.2f}")  # fmt: skip
    # batch of body-on-spring variants against single runs
    B = args.batch
    rng = np.random.default_rng(1)
    ks = np.linspace(5000.0, 20000.0, B)
    members = [spring_system(k) for k in ks]
    q0 = np.repeat(q_rest[None], B, axis=0)
    q0[:, 0, :3] += rng.normal(size=(B, 3)) * 0.05
    qd0 = np.zeros((B, 1, 7))
    qd0[:, 0, :3] = rng.normal(size=(B, 3)) * 0.1
    qd0[:, 0, 3:] = pdot_from_omega(q0[:, 0, 3:], rng.normal(size=(B, 3)))
    T, dt = 10.0, 1e-3
    dynamic_analysis_batch(members, q0, qd0, 10 * dt, dt, save_every=10, **kw)
    wb = best(lambda: dynamic_analysis_batch(members, q0, qd0, T, dt, save_every=10, **kw),
              args.repeat)  # fmt: skip
    w1 = best(lambda: [dynamic_analysis(members[b], q0[b], qd0[b], T, dt, save_every=10,
                                        compiled=True, **kw) for b in range(B)], 1)  # fmt: skip
    print(f"batch of {B} body-on-spring variants, {T:g} s at dt = {dt:g} s: batch {wb:.4f} s "
          f"({T * B / wb:.0f} member-seconds per second), {B} single runs {w1:.4f} s; "
          f"per member: batch / single = {wb / w1:.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
