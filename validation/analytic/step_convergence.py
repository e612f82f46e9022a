"""Time-step convergence of the study model: how large an RK4 step the statistics tolerate.

The issue-7 model (``cases/spar_family/108.yaml``: OC3-Hywind hull, 3 bodies, 65 Morison strips,
taut lines, variable C_T, Kaimal wind 17 m/s, JONSWAP Hs 5 m Tp 12 s; see
``benchmarks/bench_throughput.py``) is run on one realization at dt = 0.025, 0.05, 0.1 and 0.2 s.
Against dt = 0.025 s it prints, per channel, the rms difference of the time series divided by the
channel's standard deviation and the relative change of the standard deviation and of the
maximum (after a 100 s start-up). Criterion: at dt = 0.1 s every rms difference is below 1e-3 of
the standard deviation and every change of the standard deviation below 1e-3 (a statistical
study of 10 realizations has a sampling uncertainty of several per cent on these).

    python validation/analytic/step_convergence.py [--quick] [--tmax 600]

Measured (600 s): at dt 0.1 s rms differences 1.8e-4 .. 4.5e-4 of the std, std changes
<= 2.1e-4; at dt 0.05 s 4.8e-5 .. 1.3e-4 (docs/performance.md). The differences fall roughly as
dt^2 (the wind and wave inputs are interpolated in time), not dt^4.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
for p in (ROOT, ROOT / "benchmarks"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

CHANNELS = ("PtfmPitch", "PtfmSurge", "PtfmHeave", "FAIRTEN1", "RtAeroFxh")
STEPS = (0.025, 0.05, 0.1, 0.2)


def run(tmax: float) -> dict:
    from bench_throughput import make_study

    from floatwind.simulate import simulate
    from floatwind.studies import build_batch_model

    out = {}
    for dt in STEPS:
        study = make_study(tmax, 1, dt=dt)
        out[dt] = simulate(build_batch_model(study, study.runs()), progress=False)
    return out


def table(res: dict, skip_s: float = 100.0) -> list[tuple]:
    ref = res[STEPS[0]]
    keep = ref["time"].values >= skip_s
    rows = []
    for dt in STEPS[1:]:
        for c in CHANNELS:
            a, b = res[dt][c].values[keep], ref[c].values[keep]
            sd = np.std(b)
            rows.append(
                (
                    dt,
                    c,
                    float(np.sqrt(np.mean((a - b) ** 2)) / sd),
                    float(np.std(a) / sd - 1.0),
                    float(np.abs(a).max() / np.abs(b).max() - 1.0),
                )
            )
    return rows


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="200 s instead of 600 s")
    p.add_argument("--tmax", type=float, default=600.0)
    args = p.parse_args(argv)
    tmax = 200.0 if args.quick else args.tmax
    rows = table(run(tmax))
    print(f"RK4 step convergence over {tmax:g} s, against dt = {STEPS[0]} s")
    print(
        f"{'dt s':>6s} {'channel':10s} {'rms diff / std':>15s} {'std change':>11s} {'max change':>11s}"
    )
    ok = True
    for dt, c, rms, dstd, dmax in rows:
        print(f"{dt:6.3f} {c:10s} {rms:15.2e} {dstd:+11.2e} {dmax:+11.2e}")
        if dt == 0.1 and (rms > 1e-3 or abs(dstd) > 1e-3):
            ok = False
    print("criterion (dt 0.1 s: rms diff and std change < 1e-3):", "PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
