"""Cost of one evaluation of the BEM rotor against the 65-strip Morison spar (issue 35).

    python benchmarks/bench_rotor.py [REF_ROOT] [--repeat N] [--batch 1,64]

The rotor comes from the reference deck ``ref09_aero_fixed_speed`` as ``floatwind run`` builds it
(3 blades x 19 nodes, converged BEM residual at every node); the Morison spars are those of
``ref04_morison_decay`` (the OC3 spar as HydroDyn discretises it) and of ``cases/oc3_hywind.yaml``
with 2 m strips (``--strip-length``: the issue's 65-strip spar). Each compiled contract kernel is
called from compiled code, as the generated steppers call it (no Python in the loop), at
successive RK4 stage times on a perturbed state (the rotor keeps its warm-started solve), B = 1
and B = 64 members; prints microseconds per call and per member, and the ratio rotor / Morison;
the rotor also with dynamic inflow (DBEMT_Mod = 2: its 228 states read, their rates written).
Asserts nothing (issue 35: "the BEM rotor costs no more per step than the 65-strip Morison spar").
"""

from __future__ import annotations

import argparse
import pathlib
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _kernel_cost(model, load, batch: int, repeat: int) -> float:
    """Microseconds per call of ``load``'s compiled kernel(s) for ``batch`` members."""
    from floatwind._kernels.contract import CompiledLoad, body_kinematics
    from floatwind.multibody.mcm import body_kinematics as mcm_kin
    from floatwind.simulate.system import System

    sysm = System(model)
    y = sysm.initial_state()
    y = y + 1e-3 * np.random.default_rng(0).standard_normal(y.shape)
    rel, md = sysm._relative(1.0)
    k1 = body_kinematics(mcm_kin(sysm.tree, 1.0, rel, md, y[:, :6], y[:, 6:12]))
    kin = k1._replace(**{f: np.ascontiguousarray(np.repeat(getattr(k1, f), batch, axis=0))
                         for f in ("r_G", "R_b2g", "v_G", "w_b")})  # fmt: skip
    cls = load.compiled(model.env, batch)
    parts = (cls,) if isinstance(cls, CompiledLoad) else tuple(cls)
    N = kin.r_G.shape[1]
    f = np.zeros((batch, N, 3))
    m = np.zeros((batch, N, 3))
    a = np.zeros((batch, N, 6, 6))
    ns = int(getattr(load, "n_states", 0))
    y = np.zeros((batch, ns))
    dy = np.zeros((batch, ns))
    if ns:  # the filtered induced velocities: 1 m/s axial, 0.1 m/s tangential
        y[:, 1::2] = 1.0
        y[:, 3::4] = 0.1
        parts = tuple(p._replace(params=p.params._replace(state0=0)) for p in parts)

    from numba import njit

    @njit
    def loop(kernel, params, kin, y, dy, f, m, a, n):  # the compiled stepping calls kernels so
        st = 0
        for i in range(n):
            st |= kernel(params, 1.0 + 0.00625 * i, kin, y, dy, f, m, a)
        return st

    for p in parts:  # compile
        loop(p.kernel, p.params, kin, y, dy, f, m, a if p.adds_mass else a[:, :, :0, :0], 1)
    t0 = time.perf_counter()
    for p in parts:
        loop(p.kernel, p.params, kin, y, dy, f, m, a if p.adds_mass else a[:, :, :0, :0], repeat)
    return (time.perf_counter() - t0) / repeat * 1e6


def main() -> int:
    import yaml

    from floatwind.case.loader import model_from_dict
    from floatwind.case.openfast import model_from_deck

    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    p.add_argument(
        "root", nargs="?", default=str(ROOT.parent / "shared" / "reference" / "openfast")
    )
    p.add_argument("--repeat", type=int, default=200)
    p.add_argument("--batch", default="1,64")
    p.add_argument("--strip-length", type=float, default=2.0, help="oc3_hywind strips (m)")
    args = p.parse_args()
    root = pathlib.Path(args.root)
    rotor_model = model_from_deck(root / "ref09_aero_fixed_speed" / "ref09_aero_fixed_speed.fst")
    spars = {"ref04": model_from_deck(root / "ref04_morison_decay" / "ref04_morison_decay.fst")}
    case = yaml.safe_load((ROOT / "cases" / "oc3_hywind.yaml").read_text())
    for ld in case["loads"]:
        if ld.get("type") == "morison":
            ld["strip_length"] = args.strip_length
    spars["oc3_hywind"] = model_from_dict(case, base_dir=ROOT / "cases", name="oc3_hywind")
    rotor = next(ld for ld in rotor_model.loads if ld.kind == "bem_rotor")
    # one element solve per call: the stage coupling's kernel (the importer's coupling: step
    # solves once per step, in the load's after_step; its stages cost ~2.5 us each)
    rotor.coupling = "stage"
    print(f"rotor: {rotor.n_blades} blades x {len(rotor.blade.span)} nodes")
    import copy

    from floatwind._kernels.dbemt import N_NODE_STATES

    dyn = copy.copy(rotor)  # the same rotor with DBEMT_Mod = 2
    dyn.dbemt_mod = 2
    dyn.n_states = N_NODE_STATES * rotor.n_blades * len(rotor.blade.span)
    for name, model in spars.items():
        spar = next(ld for ld in model.loads if ld.kind == "morison")
        print(f"\nMorison spar {name}: {getattr(spar, 'n_strips', '?')} strips")
        print(f"{'B':>4s} {'rotor us/call':>14s} {'Morison us/call':>16s} {'rotor/member':>13s} "
              f"{'Morison/member':>15s} {'rotor / Morison':>16s} {'DBEMT rotor / Morison':>22s}")  # fmt: skip
        for b in (int(s) for s in args.batch.split(",")):
            tr = _kernel_cost(rotor_model, rotor, b, args.repeat)
            tm = _kernel_cost(model, spar, b, args.repeat)
            td = _kernel_cost(rotor_model, dyn, b, args.repeat)
            print(f"{b:4d} {tr:14.1f} {tm:16.1f} {tr / b:13.2f} {tm / b:15.2f} {tr / tm:16.3f} "
                  f"{td / tm:22.3f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
