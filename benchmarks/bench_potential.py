"""Cost of the potential-flow loads against a Morison spar of 65 strips (issue 26), whole runs.

    python benchmarks/bench_potential.py [--tmax 200] [--repeat 3] [--sea jonswap|regular|both]

ref08_potential_regular (OC3 hull from WAMIT data, rigid turbine, dt 0.0125 s) is imported and run
five ways on the compiled path, batch 1, each after a warm-up run: *base* (the deck without its
potential-flow loads: gravity, hydrostatic and additional linear loads), *potential* (the deck:
radiation with HydroDyn's memory convolution + first-order excitation), *state space* (radiation
by the fitted state-space model, frequency-domain identification), *ss + ss exc* (that and the
excitation by its state-space model, HydroDyn's ExctnMod = 2), *morison* (base + a Morison OC3 spar of 65 strips of 2 m,
Cd 0.6, Cm 2, Ca 1) and, with ref12's ``spar.8``, *+ mean drift* / *+ newman* (the deck plus the
second-order drift of issue 39: HydroDyn MnDrift / NewmanApp = 8). A load's cost is its run's median wall time minus the base run's, per step
(one step = four RHS evaluations for rk4; the outputs are state channels only, so the
output pass evaluates no load); the ratios to the Morison cost are printed. The sea is
JONSWAP Hs 5 m, Tp 12 s (default; the excitation and the Morison wave kinematics sum over its
components) or the deck's regular wave (``--sea regular``). Needs ``../shared/reference``.
"""

from __future__ import annotations

import argparse
import copy
import pathlib
import statistics
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
DECK = (ROOT.parent / "shared" / "reference" / "openfast" / "ref08_potential_regular"
        / "ref08_potential_regular.fst")  # fmt: skip
DRIFT_ROOT = DECK.parents[1] / "ref12_mean_drift_regular" / "HydroData" / "spar"
POTENTIAL = ("potential_radiation", "potential_excitation")
CHANNELS = ["PtfmSurge", "PtfmPitch"]  # state channels: the output step evaluates no load
MORISON = {
    "type": "morison", "body": "platform", "cd": 0.6, "cm": 2.0,
    "ca": 1.0, "strip_length": 2.0,  # 54 + 4 + 7 = 65 strips
    "members": [
        {"end_a": [0.0, 0.0, -120.0], "end_b": [0.0, 0.0, -12.0], "diameter": 9.4},
        {"end_a": [0.0, 0.0, -12.0], "end_b": [0.0, 0.0, -4.0], "diameter_a": 9.4,
         "diameter_b": 6.5},
        {"end_a": [0.0, 0.0, -4.0], "end_b": [0.0, 0.0, 10.0], "diameter": 6.5},
    ],
}  # fmt: skip


def variants(case: dict) -> dict[str, dict]:
    base = copy.deepcopy(case)
    base["loads"] = [ld for ld in case["loads"] if ld["type"] not in POTENTIAL]
    ss = copy.deepcopy(case)
    for ld in ss["loads"]:
        if ld["type"] == "potential_radiation":
            ld.pop("memory", None)
            ld.pop("rdtn_tmax", None)  # the frequency-domain fit has no kernel length
            ld["model"] = "state_space"
    ss_exc = copy.deepcopy(ss)
    for ld in ss_exc["loads"]:
        if ld["type"] == "potential_excitation":
            ld["model"] = "state_space"
    mor = copy.deepcopy(base)
    mor["loads"].append(copy.deepcopy(MORISON))
    out = {"base": base, "potential": copy.deepcopy(case), "state space": ss,
           "ss + ss exc": ss_exc, "morison": mor}  # fmt: skip
    if DRIFT_ROOT.with_suffix(".8").is_file():  # issue 39: ref12's .8 (ref12's .1/.3 = ref08's)
        for name, method in (("+ mean drift", "mean_drift"), ("+ newman", "newman")):
            v = copy.deepcopy(case)
            for ld in v["loads"]:
                if ld["type"] == "potential_excitation":
                    ld.update(wamit=str(DRIFT_ROOT), second_order=method, qtf=8)
            out[name] = v
    return out


def run_time(case: dict, repeat: int) -> tuple[float, int]:
    from floatwind.case import model_from_dict
    from floatwind.simulate import simulate

    warm = copy.deepcopy(case)
    warm["simulation"]["t_max"] = 2.0
    model = model_from_dict(warm, base_dir=DECK.parent, name=case["name"])
    simulate(model, progress=False, channels=CHANNELS)  # warm-up: compile / load the kernels
    times = []
    for _ in range(repeat):
        model = model_from_dict(copy.deepcopy(case), base_dir=DECK.parent, name=case["name"])
        t0 = time.perf_counter()
        simulate(model, progress=False, channels=CHANNELS)
        times.append(time.perf_counter() - t0)
    steps = round(case["simulation"]["t_max"] / case["simulation"]["dt"])
    return statistics.median(times), steps


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--tmax", type=float, default=200.0, help="simulated seconds per run")
    p.add_argument("--repeat", type=int, default=3, help="timed runs per variant (median)")
    p.add_argument("--sea", choices=("regular", "jonswap", "both"), default="jonswap")
    args = p.parse_args()
    if not DECK.is_file():
        raise SystemExit(f"bench_potential: {DECK} not found (../shared/reference)")
    from floatwind.case.openfast import import_openfast

    case = import_openfast(DECK)["case"]
    case["simulation"]["t_max"] = args.tmax
    seas = ("regular", "jonswap") if args.sea == "both" else (args.sea,)
    for sea in seas:
        c = copy.deepcopy(case)
        if sea == "jonswap":
            c["environment"]["waves"] = {"kind": "jonswap", "hs": 5.0, "tp": 12.0, "seed": 1}
        res = {name: run_time(v, args.repeat) for name, v in variants(c).items()}
        t_base, steps = res["base"]
        print(f"\n{sea} sea, {args.tmax:g} s at dt {c['simulation']['dt']:g} s ({steps} steps), "
              f"median of {args.repeat}:")  # fmt: skip
        print(f"  {'variant':<12s} {'run s':>8s} {'load us/step':>13s} {'vs Morison 65':>14s}")
        mor = (res["morison"][0] - t_base) / steps * 1e6
        for name, (t, _) in res.items():
            extra = (t - t_base) / steps * 1e6
            ratio = "" if name == "base" else f"{extra / mor:13.2f}x"
            print(f"  {name:<12s} {t:8.2f} {extra if name != 'base' else 0.0:13.1f} {ratio:>14s}")


if __name__ == "__main__":
    main()
