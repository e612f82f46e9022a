"""Environment speed figures: wave kinematics for 60 strips over 3 h at 20 Hz, and .bts reading.

Run: ``python benchmarks/bench_environment.py [--quick]``. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import struct
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere in the checkout

import turbsim_io  # noqa: E402
from floatwind.environment.spectra import JonswapSpectrum  # noqa: E402
from floatwind.environment.waves import sea_from_spectrum, seeds_for  # noqa: E402


def bench_waves(duration: float, n_strips: int = 60, rate: float = 20.0) -> None:
    n_steps = int(duration * rate)
    sea = sea_from_spectrum(
        JonswapSpectrum(5.0, 10.0), duration=duration, seeds=seeds_for(1, 1), depth=320.0
    )
    pts = np.zeros((1, n_strips, 3))
    pts[..., 2] = np.linspace(-119.0, -1.0, n_strips)  # OC3-like spar strips
    t0 = time.perf_counter()
    grid = sea.precompute(pts, duration=duration)
    t_pre = time.perf_counter() - t0
    disp = pts + np.array([8.0, 1.0, 0.5])  # typical mean surge + sway + heave
    n_call = 4000
    t0 = time.perf_counter()
    for i in range(n_call):
        grid.kinematics(i / rate, disp)
    t_call = (time.perf_counter() - t0) / n_call
    t0 = time.perf_counter()
    n_direct = 20
    for i in range(n_direct):
        sea.kinematics(i / rate, disp)
    t_direct = (time.perf_counter() - t0) / n_direct
    print(f"wave kinematics, {n_strips} strips, {duration / 3600:.2f} h at {rate:g} Hz "
          f"({n_steps} steps), JONSWAP Hs 5 m Tp 10 s, {sea.n_components} components")  # fmt: skip
    print(f"  precompute (inverse FFT, {len(grid.names)} channels, dt {grid.dt:.3f} s): "
          f"{t_pre:.2f} s, {grid.nbytes / 1e6:.0f} MB")  # fmt: skip
    print(f"  per call, gridded + Taylor: {t_call * 1e6:.0f} us -> whole run "
          f"{t_call * n_steps:.1f} s (x4 for RK4 stages: {4 * t_call * n_steps:.1f} s)")  # fmt: skip
    print(f"  per call, direct summation: {t_direct * 1e3:.1f} ms -> whole run "
          f"{t_direct * n_steps / 60:.0f} min; ratio direct/gridded {t_direct / t_call:.0f}")  # fmt: skip
    # accuracy against direct evaluation at the displaced points
    rng = np.random.default_rng(0)
    times = rng.uniform(0, duration, 40)
    err_v, err_a, ref_v, ref_a = [], [], [], []
    for t in times:
        v, a = sea.kinematics(t, disp)
        vg, ag = grid.kinematics(t, disp)
        err_v.append(np.abs(vg - v).max(-1)[0])
        err_a.append(np.abs(ag - a).max(-1)[0])
        ref_v.append(np.abs(v).max(-1)[0])
        ref_a.append(np.abs(a).max(-1)[0])
    err_v, err_a = np.array(err_v), np.array(err_a)
    rv, ra = np.sqrt(np.mean(np.square(ref_v), 0)), np.sqrt(np.mean(np.square(ref_a), 0))
    z = pts[0, :, 2]
    print("  error vs direct at points displaced (8, 1, 0.5) m, rms over 40 times:")
    for zlim in (-60.0, -20.0, -5.0, 0.0):
        sel = z <= zlim
        ev = np.sqrt(np.mean(err_v[:, sel] ** 2)) / np.sqrt(np.mean(rv[sel] ** 2))
        ea = np.sqrt(np.mean(err_a[:, sel] ** 2)) / np.sqrt(np.mean(ra[sel] ** 2))
        print(f"    strips with z <= {zlim:5.0f} m: velocity {100 * ev:5.2f} %, "
              f"acceleration {100 * ea:5.2f} % (of rms)")  # fmt: skip
    grid0 = sea.precompute(pts, duration=duration, correction="none")
    e0 = [np.abs(grid0.kinematics(t, disp)[0] - sea.kinematics(t, disp)[0]).max() for t in times]
    print(f"  without the Taylor correction: max velocity error {max(e0):.3f} m/s "
          f"(with: {err_v.max():.3f} m/s)")  # fmt: skip


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
    bench_bts(duration)


if __name__ == "__main__":
    main()
