"""Per-call cost of MoorDyn's lumped-mass line kernels inside compiled code (issue 38).

    python benchmarks/bench_lumped_kernel.py [REF10_DIR] [--calls 2000] [--rounds 15]

ref10's three 20-segment lines (sub-stepped as ``floatwind run DECK.fst`` runs them), the body
held at its initial pose and moved slowly in surge so the lines move: each kernel is called
``--calls`` times from a numba loop (no Python between the calls) and the minimum over
``--rounds`` repeats of the thread's CPU time is printed per call (us; CPU time, not wall
time: on the shared 2-core machine another job's time slices would count otherwise):

* ``member_rhs``: one whole-line evaluation of the three lines with their rates (an RK2 half step);
* ``coupled_points``: the end-only evaluation at an RK4 stage (``substep_kernel``'s work);
* ``substep_kernel``: the contract kernel at a stage (points, end-only lines, wrench, added mass);
* ``after_step``: one step's sub-steps (``substep_after_step``: 2 RK2 sub-steps, 4 ``member_rhs``);
* ``per DT``: after_step + 4 substep_kernel calls (the lines' share of one body step).

The line states start at the lines' static equilibrium with the nodes displaced 5 cm so drag,
damping and seabed contact all act. Asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import time
from types import SimpleNamespace

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _load(ref):
    from floatwind.case.openfast import import_openfast, model_from_deck
    from floatwind.loads.moordyn import SubsteppedLumpedMooring

    fst = pathlib.Path(ref) / "ref10_moordyn_decay.fst"
    res = import_openfast(fst, mooring="dynamic")
    m = model_from_deck(fst, overrides={"simulation.t_max": 1.0}, result=res)
    ld = next(x for x in m.loads if isinstance(x, SubsteppedLumpedMooring))
    return ld, m


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("ref", nargs="?", default=str(ROOT.parent / "shared" / "reference" /
                                                  "openfast" / "ref10_moordyn_decay"))  # fmt: skip
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=15)
    args = ap.parse_args()

    from numba import njit

    from floatwind._kernels import lumped as kl
    from floatwind._kernels.contract import body_kinematics
    from floatwind.records import Kinematics

    ld, m = _load(args.ref)
    env = SimpleNamespace(rho_water=float(m.env.rho_water), gravity=float(m.env.gravity),
                          water_depth=float(m.env.water_depth))  # fmt: skip
    B = 1
    dt = float(m.settings.dt)
    n = args.calls

    def kin_at(t):
        x = 2.0 * math.sin(0.3 * t)
        v = 0.6 * math.cos(0.3 * t)
        return body_kinematics(Kinematics(t, np.array([[[x, 0.0, 0.0]]]),
                                          np.eye(3)[None, None].copy(),
                                          np.array([[[v, 0.0, 0.0]]]), np.zeros((1, 1, 3)),
                                          np.zeros((1, 3))))  # fmt: skip

    from floatwind.loads.moordyn import LumpedMassMooring

    s = LumpedMassMooring.static_states(ld, Kinematics(0.0, np.zeros((1, 1, 3)),
                                        np.eye(3)[None, None].copy(), np.zeros((1, 1, 3)),
                                        np.zeros((1, 1, 3)), np.zeros((1, 3))), env)  # fmt: skip
    s = np.asarray(s, float).reshape(1, -1)
    s[:, 0::6] += 0.05
    mem = ld.memory(B, 0.0, dt, n + 2)
    mem.hist[0] = s
    mem.n_sub[0] = ld.n_sub(env, dt)
    p = ld._params(env, B, memory=mem)
    kin = kin_at(0.0)
    print(f"ref10: {len(ld.lines)} lines, {ld.n_line} line states, DT = {dt:g} s, "
          f"{mem.n_sub[0]} RK2 sub-steps per DT")  # fmt: skip

    @njit
    def loop_rhs(p, y, dy, kin, n):
        rp = p.scratch_rp[0]
        vp = p.scratch_vp[0]
        kl.point_state(p, 0, y, 0, kin.r_G[0, 0], kin.R_b2g[0, 0], kin.v_G[0, 0], kin.w_b[0, 0],
                       kin.cm_b[0], rp, vp)  # fmt: skip
        for _ in range(n):
            kl.member_rhs(p, 0, y, 0, rp, vp, dy, 1.0, kl.member_nodes(p, 0))
        return dy[0, 0]

    @njit
    def loop_ends(p, y, kin, n):
        rp = p.scratch_rp[0]
        vp = p.scratch_vp[0]
        kl.point_state(p, 0, y, 0, kin.r_G[0, 0], kin.R_b2g[0, 0], kin.v_G[0, 0], kin.w_b[0, 0],
                       kin.cm_b[0], rp, vp)  # fmt: skip
        for _ in range(n):
            kl.coupled_points(p, 0, y, rp, vp, kl.member_nodes(p, 0))
        return p.scratch_pf[0, 0, 0]

    @njit
    def loop_steps(p, kin, n, dt, force, moment, am):
        y = np.zeros((1, 0))
        dy = np.zeros((1, 0))
        tot = 0.0
        for k in range(n):
            t = k * dt
            kl.substep_after_step(p, t, kin, y)
            for st in range(4):
                ts = t + (0.0, 0.5, 0.5, 1.0)[st] * dt
                kl.substep_kernel(p, ts, kin, y, dy, force, moment, am)
            tot += force[0, 0, 0]
        return tot

    @njit
    def loop_after(p, kin, n, dt):
        y = np.zeros((1, 0))
        for k in range(n):
            kl.substep_after_step(p, k * dt, kin, y)
        return p.memory.stage[2, 0, 0]

    y = s.copy()
    dy = np.zeros_like(y)
    force = np.zeros((1, 1, 3))
    moment = np.zeros((1, 1, 3))
    am = np.zeros((1, 1, 6, 6))
    # compile
    loop_rhs(p, y, dy, kin, 1)
    loop_ends(p, y, kin, 1)
    loop_after(p, kin, 1, dt)
    mem.last[0] = -1
    loop_steps(p, kin, 1, dt, force, moment, am)

    def timed(fn):
        best = math.inf
        for _ in range(args.rounds):
            mem.last[0] = -1
            mem.hist[0] = s
            c0 = time.thread_time()
            fn()
            best = min(best, time.thread_time() - c0)
        return best / n * 1e6

    t_rhs = timed(lambda: loop_rhs(p, y, dy, kin, n))
    t_end = timed(lambda: loop_ends(p, y, kin, n))
    t_aft = timed(lambda: loop_after(p, kin, n, dt))
    t_dt = timed(lambda: loop_steps(p, kin, n, dt, force, moment, am))
    print(f"member_rhs (whole lines, rates) {t_rhs:7.2f} us")
    print(f"coupled_points (ends only)      {t_end:7.2f} us")
    print(f"after_step (sub-steps of a DT)  {t_aft:7.2f} us")
    print(f"per DT (after_step + 4 stages)  {t_dt:7.2f} us  -> stage kernel "
          f"{(t_dt - t_aft) / 4:.2f} us")  # fmt: skip
    print(f"check: stage[2,0,0] = {mem.stage[2, 0, 0]!r}, pf = {p.scratch_pf[0, 0, 0]!r}")


if __name__ == "__main__":
    main()
