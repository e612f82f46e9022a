"""MoorDyn's lines integrated two ways (issue 38): sub-steps at dtM (MoorDyn) vs RK4 with the bodies.

    python benchmarks/bench_moordyn_substep.py [REF10_DIR] [--tmax S]

The issue asks to measure both homes of the line states: MoorDyn's own scheme, RK2 (the
midpoint rule, MD_RK2) at ``dtM`` inside each glue step (ref10: ``ceil(DT/dtM) = 13`` sub-steps
of DT/13, 26 line evaluations per glue step, the fairleads following the body through the step),
against floatwind's choice, the line nodes as continuous states integrated by the run's RK4 at
the step the lines need (ref10: DT/2, 8 evaluations per glue step). Both integrate ref10's three
lines (from rest at the displaced pose, the compiled kernel) while the fairleads follow a smooth
path through ref10's range (surge ``10 (1 - cos(w t))`` m, heave ``0.2 sin(w t)`` m from the
undisplaced pose, period 40 s; the body's own dynamics left out, so the two differ only in how the lines are
integrated), and each, with MoorDyn's RK2 at DT/2 (the largest step its stability allows here),
is compared with RK4 at DT/16 (the converged answer): FAIRTEN1-3 and line
1's mid node, NRMSE over the range and the largest error, and the process CPU of the stepping.
Asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import time

import numpy as np
from numba import njit

from floatwind._kernels.lumped import member_nodes, member_rhs

ROOT = pathlib.Path(__file__).resolve().parents[1]
DT = 0.0125  # ref10's glue step
PERIOD = 40.0


@njit(cache=True)
def _points(p, t, base, rp, vp):
    """Fixed points where they are; coupled ones at ``base`` plus the prescribed motion."""
    w = 2.0 * math.pi / 40.0
    dx, dz = 10.0 * (1.0 - math.cos(w * t)), 0.2 * math.sin(w * t)
    vx, vz = 10.0 * w * math.sin(w * t), 0.2 * w * math.cos(w * t)
    for k in range(rp.shape[0]):
        for c in range(3):
            rp[k, c] = base[k, c]
            vp[k, c] = 0.0
        if p.pint[k, 0] == 1:
            rp[k, 0] += dx
            rp[k, 2] += dz
            vp[k, 0] = vx
            vp[k, 2] = vz


@njit(cache=True)
def _rate(p, t, y, dy, base, rp, vp):
    _points(p, t, base, rp, vp)
    member_rhs(p, 0, y, 0, rp, vp, dy, 1.0, member_nodes(p, 0))


@njit(cache=True)
def _record(p, t, y, dy, base, rp, vp, out, k, mid):
    _rate(p, t, y, dy, base, rp, vp)
    for j in range(p.lint.shape[0]):
        o = p.lint[j, 1] + p.lint[j, 0]
        f = p.scratch_f[0, o]
        out[k, j] = math.sqrt(f[0] ** 2 + f[1] ** 2 + f[2] ** 2)
    out[k, p.lint.shape[0]] = p.scratch_r[0, mid, 0]
    out[k, p.lint.shape[0] + 1] = p.scratch_r[0, mid, 2]


@njit(cache=True)
def integrate(p, y, base, n_glue, sub, scheme, out, mid):
    """``n_glue`` glue steps of DT, each ``sub`` steps of ``scheme`` (2: RK2 midpoint, 4: RK4);
    ``out[k]`` = FAIRTEN of each line and line 1's mid node (x, z) after glue step k."""
    rp = np.zeros((p.pint.shape[0], 3))
    vp = np.zeros_like(rp)
    k1 = np.zeros_like(y)
    k2 = np.zeros_like(y)
    k3 = np.zeros_like(y)
    k4 = np.zeros_like(y)
    tmp = np.zeros_like(y)
    h = 0.0125 / sub
    t = 0.0
    for k in range(n_glue):
        for _ in range(sub):
            _rate(p, t, y, k1, base, rp, vp)
            if scheme == 2:
                tmp[:] = y + 0.5 * h * k1
                _rate(p, t + 0.5 * h, tmp, k2, base, rp, vp)
                y += h * k2
            else:
                tmp[:] = y + 0.5 * h * k1
                _rate(p, t + 0.5 * h, tmp, k2, base, rp, vp)
                tmp[:] = y + 0.5 * h * k2
                _rate(p, t + 0.5 * h, tmp, k3, base, rp, vp)
                tmp[:] = y + h * k3
                _rate(p, t + h, tmp, k4, base, rp, vp)
                y += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
            t += h
        _record(p, t, y, k1, base, rp, vp, out, k, mid)


def main() -> None:
    from types import SimpleNamespace

    from floatwind.case.openfast.moordyn import read_moordyn_lumped
    from floatwind.loads.moordyn import LumpedMassMooring
    from floatwind.records import Kinematics

    ap = argparse.ArgumentParser()
    ap.add_argument("ref", nargs="?", default=str(ROOT.parent / "shared" / "reference" / "openfast"
                                                  / "ref10_moordyn_decay"))  # fmt: skip
    ap.add_argument("--tmax", type=float, default=60.0)
    args = ap.parse_args()
    env = SimpleNamespace(rho_water=1025.0, gravity=9.80665, water_depth=320.0)
    cfg, _ = read_moordyn_lumped(pathlib.Path(args.ref) / "MoorDyn.dat", depth=320.0, rho=1025.0,
                                 gravity=9.80665)  # fmt: skip
    ld = LumpedMassMooring(body=0, line_types=cfg["line_types"], points=cfg["points"],
                           lines=cfg["lines"], kbot=3.0e6, cbot=3.0e5)  # fmt: skip
    # the body (its reference point at the origin, no rotation) at rest: lines at rest
    kin = Kinematics(0.0, np.zeros((1, 1, 3)), np.eye(3)[None, None].copy(), np.zeros((1, 1, 3)),
                     np.zeros((1, 1, 3)), np.zeros((1, 3)))  # fmt: skip
    y0 = ld.static_states(kin, env)
    base = np.array([pt["position"] for pt in ld.points], dtype=float)
    n_glue = int(round(args.tmax / DT))
    mid = int(ld.node0[0] + ld.nseg[0] // 2)
    rate = ld.fastest_rate(env)
    schemes = {
        "RK4 at DT/16 (reference)": (16, 4),
        "MoorDyn: RK2 at dtM (13 sub-steps)": (int(math.ceil(DT / ld.dt_m - 1e-12)), 2),
        "floatwind: RK4 at DT/2 (states)": (2, 4),
        "RK2 at DT/2 (a cheaper sub-step)": (2, 2),
    }
    res = {}
    for name, (sub, scheme) in schemes.items():
        p = ld._params(env, 1)
        y = y0.copy()
        out = np.zeros((n_glue, len(ld.lines) + 2))
        integrate(p, y.copy(), base, 2, sub, scheme, out[:2].copy(), mid)  # compile
        c0 = time.process_time()
        integrate(p, y, base, n_glue, sub, scheme, out, mid)
        cpu = time.process_time() - c0
        res[name] = (out, cpu, sub * (2 if scheme == 2 else 4))
    ref = res["RK4 at DT/16 (reference)"][0]
    print(f"ref10 lines, {args.tmax:g} s of prescribed fairlead motion; fastest line rate "
          f"{rate:.0f} 1/s (|lambda| h: RK2 at dtM {rate * DT / 13:.2f}, RK4 at DT/2 "
          f"{rate * DT / 2:.2f})")  # fmt: skip
    for name, (out, cpu, evals) in res.items():
        err = [float(np.sqrt(np.mean((out[:, c] - ref[:, c]) ** 2)) / max(float(np.ptp(ref[:, c])),
               1e-3)) for c in range(out.shape[1])]  # fmt: skip
        big = float(np.max(np.abs(out[:, :3] - ref[:, :3])))
        print(
            f"{name:38s} {evals:3d} evaluations per glue step, {cpu:6.2f} s CPU; FAIRTEN NRMSE "
            f"<= {max(err[:3]):.1e} (max {big:.0f} N), mid node x/z {err[3]:.1e}/{err[4]:.1e}"
        )


if __name__ == "__main__":
    main()
