"""Environment speed figures: wave kinematics for 60 strips over 3 h at 20 Hz, and .bts reading.

Run: ``python benchmarks/bench_environment.py [--quick]``. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import copy
import os
import struct
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere in the checkout

import turbsim_io  # noqa: E402
from floatwind.environment.fastkin import ExpansionSea  # noqa: E402
from floatwind.environment.spectra import JonswapSpectrum  # noqa: E402
from floatwind.environment.waves import sea_from_spectrum, seeds_for  # noqa: E402

SPAR_CASE = {
    "environment": {
        "water_depth": 320.0,
        "waves": {"kind": "jonswap", "hs": 5.0, "tp": 10.0, "kinematics": "gridded"},
    },
    "bodies": [
        {
            "name": "platform",
            "mass": 8065437.845,
            "cm": [0.0, 0.0, -78.0],
            "inertia": {"xx": 1.89e10, "yy": 1.89e10, "zz": 1.9e8},
        }
    ],
    "loads": [
        {"type": "gravity"},
        {
            "type": "hydrostatics",
            "body": "platform",
            "members": [
                {"z_bottom": -4.0, "z_top": 10.0, "diameter": 6.5},
                {"z_bottom": -12.0, "z_top": -4.0, "diameter_bottom": 9.4, "diameter_top": 6.5},
                {"z_bottom": -120.0, "z_top": -12.0, "diameter": 9.4},
            ],
        },
        {
            "type": "morison",
            "body": "platform",
            "members": [
                {"end_a": [0, 0, -120], "end_b": [0, 0, -12], "diameter": 9.4, "n_strips": 40},
                {"end_a": [0, 0, -12], "end_b": [0, 0, -4], "diameter_a": 9.4,
                 "diameter_b": 6.5, "n_strips": 8},
                {"end_a": [0, 0, -4], "end_b": [0, 0, 10], "diameter": 6.5, "n_strips": 12},
            ],
        },
        {
            "type": "mooring_taut",
            "body": "platform",
            "lines": [
                {"fairlead": [5.2, 0, -70], "anchor": [450, 0, -320], "ea": 3.84e8,
                 "pretension": 1.0e6},
                {"fairlead": [-2.6, 4.5, -70], "anchor": [-225, 389.7, -320], "ea": 3.84e8,
                 "pretension": 1.0e6},
                {"fairlead": [-2.6, -4.5, -70], "anchor": [-225, -389.7, -320], "ea": 3.84e8,
                 "pretension": 1.0e6},
            ],
        },
    ],
    "initial": {"displacement": [8.0, 1.0, 0.5]},
}  # fmt: skip


def _per_call(fn, n: int) -> float:
    t0 = time.perf_counter()
    for i in range(n):
        fn(i)
    return (time.perf_counter() - t0) / n


def _strips(n_strips: int) -> np.ndarray:
    pts = np.zeros((n_strips, 3))
    pts[:, 2] = np.linspace(-119.0, 9.0, n_strips)  # OC3-like spar strips, 60 up to +9 m
    return pts


def bench_waves(duration: float, n_strips: int = 60, rate: float = 20.0) -> None:
    n_steps = int(duration * rate)
    sea = sea_from_spectrum(
        JonswapSpectrum(5.0, 10.0), duration=duration, seeds=seeds_for(1, 1), depth=320.0
    )
    pts = _strips(n_strips)
    print(f"wave kinematics, {n_strips} strips, {duration / 3600:.2f} h at {rate:g} Hz "
          f"({n_steps} steps), JONSWAP Hs 5 m Tp 10 s, {sea.n_components} components")  # fmt: skip
    t0 = time.perf_counter()
    fast = ExpansionSea(sea, pts)
    t_pre = time.perf_counter() - t0
    print(f"  expansion set-up (order choice + FFT synthesis, {fast.n_channels} complex series, "
          f"orders {fast.orders.min()}-{fast.orders.max()}, dt {fast.dt:.3f} s): {t_pre:.1f} s, "
          f"{fast.nbytes / 1e6:.0f} MB")  # fmt: skip
    t0 = time.perf_counter()
    taylor = sea.precompute(pts[None], duration=duration)
    t_tay = time.perf_counter() - t0
    print(f"  Taylor grid set-up: {t_tay:.1f} s, {taylor.nbytes / 1e6:.0f} MB")
    disp = pts[None] + np.array([8.0, 1.0, 0.5])
    disp64 = np.repeat(disp, 64, axis=0) + np.random.default_rng(0).normal(0, 1.0, (64, 1, 3))

    def morison_like(ev, p):  # what the Morison load asks per RHS call: eta at centres + kinematics
        return lambda i: (ev.elevation(i / rate, p[..., :2]), ev.kinematics(i / rate, p))

    c1 = _per_call(morison_like(fast, disp), 2000)
    c64 = _per_call(morison_like(fast, disp64), 100)
    cached = _per_call(lambda i: fast.kinematics(1.0, disp), 2000)
    ct = _per_call(morison_like(taylor, disp), 500)
    cd = _per_call(morison_like(sea, disp), 5)
    print(f"  per call (elevation + kinematics, new t each call): expansion B=1 {c1 * 1e6:.0f} us, "
          f"B=64 {c64 * 1e6:.0f} us ({c64 / 64 * 1e6:.1f} us per member); kinematics at a "
          f"repeated t (RK4 stages 2-3) {cached * 1e6:.0f} us")  # fmt: skip
    print(f"  per call: Taylor grid {ct * 1e6:.0f} us; direct summation {cd * 1e3:.1f} ms "
          f"(direct / expansion = {cd / c1:.0f})")  # fmt: skip
    print(f"  whole run, 4 RK4 stages at {rate:g} Hz: expansion {4 * c1 * n_steps:.0f} s, "
          f"direct {4 * cd * n_steps / 3600:.1f} h")  # fmt: skip
    rng = np.random.default_rng(0)
    times = rng.uniform(0, duration, 30)
    z = pts[:, 2]
    bands = [("z < -60", z < -60), ("-60..-20", (z >= -60) & (z < -20)),
             ("-20..-5", (z >= -20) & (z < -5)), ("-5..+9", z >= -5)]  # fmt: skip
    print("  relative rms error vs direct summation, velocity / acceleration (%), per depth band:")
    for off in ((8.0, 1.0, 0.5), (15.0, 0.0, 2.0), (-15.0, 0.0, -2.0), (0.0, 15.0, 0.0)):
        d = pts[None] + np.array(off)
        for name, ev in (("expansion", fast), ("taylor", taylor)):
            if name == "taylor" and off != (8.0, 1.0, 0.5) and off != (15.0, 0.0, 2.0):
                continue
            acc = np.zeros((4, n_strips))
            for t in times:
                v, a = sea.kinematics(t, d)
                vg, ag = ev.kinematics(t, d)
                acc += np.array([((vg - v) ** 2).sum(-1)[0], ((ag - a) ** 2).sum(-1)[0],
                                 (v**2).sum(-1)[0], (a**2).sum(-1)[0]])  # fmt: skip
            cells = []
            for label, sel in bands:
                ev_ = 100 * np.sqrt(acc[0, sel].sum() / acc[2, sel].sum())
                ea_ = 100 * np.sqrt(acc[1, sel].sum() / acc[3, sel].sum())
                cells.append(f"{label}: {ev_:.3f}/{ea_:.3f}")
            print(f"    offset {off} m, {name:9s} " + "; ".join(cells))


def bench_rhs(rate_calls: int = 400) -> None:
    from floatwind.case import model_from_dict
    from floatwind.simulate import System

    print("one RHS evaluation (System(model).rhs), spar with 60 Morison strips, hydrostatics, "
          "3 taut lines, JONSWAP Hs 5 m Tp 10 s, 20-min sea, mean offset (8, 1, 0.5) m:")  # fmt: skip
    for mode in ("gridded", "direct"):
        case = copy.deepcopy(SPAR_CASE)
        case["environment"]["waves"]["kinematics"] = mode
        case["simulation"] = {"t_max": 1200.0, "dt": 0.0125}
        model = model_from_dict(case)
        system = System(model)
        y0 = system.initial_state()
        for b in (1, 64):
            y = np.repeat(y0, b, axis=0)
            system.rhs(0.0, y)  # builds the evaluator
            n = rate_calls if (b == 1 and mode == "gridded") else 20
            c = _per_call(lambda i, y=y, s=system: s.rhs(0.0125 * i, y), n)
            print(f"  kinematics {mode:8s} B={b:2d}: {c * 1e6:7.0f} us per RHS call "
                  f"({c / b * 1e6:.1f} us per member)")  # fmt: skip


def bench_kaimal(nt: int = 2048, dt: float = 0.05) -> None:
    print(f"Kaimal/IEC generation (u coherent), {nt} steps at {dt:g} s, 11.4 m/s:")
    per_freq = {}
    for n in (3, 9, 15):
        t0 = time.perf_counter()
        turbsim_io.generate_kaimal(uhub=11.4, zhub=90.0, ny=n, nz=n, width=140.0, height=140.0,
                                   dt=dt, nt=nt, seed=1)  # fmt: skip
        el = time.perf_counter() - t0
        per_freq[n] = el / (nt // 2)
        print(f"  {n:2d}x{n:<2d}: {el:6.2f} s ({per_freq[n] * 1e3:.3f} ms per frequency)")
    nt3h = int(3 * 3600 / dt)
    est = per_freq[15] * (31**2 / 15**2) ** 3 * (nt3h // 2)
    print(f"  31x31 over 3 h ({nt3h} steps): ~{est / 3600:.1f} h extrapolated "
          "(Cholesky (ny nz)^3 scaling from 15x15; frequencies where coherence is the identity "
          "to round-off are skipped, which this bound ignores)")  # fmt: skip


def bench_bts(duration: float, n: int = 31, dt: float = 0.05) -> None:
    nt = int(duration / dt)
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "big.bts")
        head = struct.pack(
            "<h4i12fi", 7, n, n, 0, nt, 5.0, 5.0, dt, 12.0, 90.0, 15.0,
            1000.0, -12000.0, 1000.0, 0.0, 1000.0, 0.0, 4,
        )  # fmt: skip
        with open(path, "wb") as fh:
            fh.write(head + b"test")
            step = 3000
            for i0 in range(0, nt, step):
                m = min(step, nt - i0)
                fh.write(rng.integers(-30000, 30000, (m, n * n, 3), dtype="<i2").tobytes())
        size = os.path.getsize(path)
        t0 = time.perf_counter()
        ds = turbsim_io.read_bts(path)
        t_read = time.perf_counter() - t0
        print(f".bts read: {n}x{n} grid, {nt} steps ({duration / 3600:.2f} h at {dt:g} s), "
              f"{size / 1e6:.0f} MB file: {t_read:.2f} s ({size / 1e6 / t_read:.0f} MB/s), "
              f"{sum(ds[c].nbytes for c in 'uvw') / 1e6:.0f} MB in memory")  # fmt: skip
        del ds


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="20 minutes instead of 3 hours")
    args = ap.parse_args()
    duration = 1200.0 if args.quick else 3 * 3600.0
    bench_waves(duration)
    bench_rhs()
    bench_kaimal()
    bench_bts(duration)


if __name__ == "__main__":
    main()
