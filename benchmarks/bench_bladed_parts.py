"""Where a controller library's time goes (issue 36, docs/control.md "Cost").

Per call, each in a compiled loop of ``--calls`` calls at B = 1 (as the fused stepper calls
them), alternated A/B ``--repeat`` times (this machine is shared: the medians are reported):

* ``baseline``: the compiled NREL 5-MW baseline controller (``baseline_controller``);
* ``marshal``: the avrSWAP record filled and read around a call of a trivial C law
  (tests/data/control/test_law.c without its log: torque K w^2, a pitch ramp) through the
  procedure's address (``bladed_controller``): the interface's own cost;
* ``rosco``: the same with ROSCO's library (its controller's own computation on top).

And ROSCO's start-up for a batch of ``--batch`` members: loading the copies (``copies``), the
first call of each copy (status 0: ROSCO reads and checks its input file and prints its banner),
with the process's stdout as it is and redirected to /dev/null at the file-descriptor level.

    PYTHONPATH=$PWD python benchmarks/bench_bladed_parts.py [--calls 20000] [--batch 64]
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from numba import njit

from floatwind._kernels import bladed as kb
from floatwind._kernels import servo as ksv
from floatwind.loads.bladed import BladedLibrary, rosco_library
from floatwind.loads.servo import ServoDyn, _memory

ROOT = pathlib.Path(__file__).resolve().parents[1]
DISCON_IN = ROOT / "cases/control/NREL5MW_ROSCO_DISCON.IN"
LAW_C = ROOT / "tests/data/control/test_law.c"


@njit(cache=False)
def _dll_calls(m, n, dt, w, meas):
    x = np.zeros(kb.N_X)
    x[kb.X_HWIND] = 18.0
    for k in range(n):
        kb.bladed_controller(m, k, 0, k * dt, w, w / 97.0, meas, 0.944, x)


@njit(cache=False)
def _baseline_calls(ctrl, m, n, dt, w, meas):
    for k in range(n):
        ksv.baseline_controller(ctrl, m, k, 0, k * dt, w, meas, 0.0)


def _load(lib=None):
    return ServoDyn(rotor=1, nacelle=0, axis=[1.0, 0.0, 0.0], gearbox_ratio=97.0,
                    pitch=[0.2, 0.2, 0.2], library=lib)  # fmt: skip


def time_dll(lib, n):
    """Seconds per call of the library ``lib`` through the compiled interface (B = 1), in a
    compiled loop of ``n`` calls; the first call (the library's initialisation) and the loop's
    compilation outside the timing (also bench_bladed.py's per-call figure)."""
    load = _load(lib)
    m = _memory(load, n + 1, 1, 0.0, 0.0125, lib.state(1, 0.0125, 97.0))
    meas = np.full(3, 0.2)
    _dll_calls(m, 1, 0.0125, 122.9, meas)  # the first call (initialisation) outside the timing
    t0 = time.perf_counter()
    _dll_calls(m, n, 0.0125, 122.9, meas)
    return (time.perf_counter() - t0) / n


def _time_baseline(n):
    from floatwind.loads.servo import CONTROLLER_PRESETS, controller_parameters

    load = _load()
    m = _memory(load, n + 1, 1, 0.0, 0.0125)
    ctrl = controller_parameters(dict(CONTROLLER_PRESETS["oc3_hywind"]))
    meas = np.full(3, 0.2)
    t0 = time.perf_counter()
    _baseline_calls(ctrl, m, n, 0.0125, 122.9, meas)
    return (time.perf_counter() - t0) / n


def _startup(lib, batch, quiet):
    """Seconds to load ``batch`` copies and to make each copy's first call."""
    load = _load(lib)
    t0 = time.perf_counter()
    st = lib.state(batch, 0.0125, 97.0)
    t_load = time.perf_counter() - t0
    m = _memory(load, 2, batch, 0.0, 0.0125, st)
    x = np.zeros(kb.N_X)
    x[kb.X_HWIND] = 18.0
    meas = np.full(3, 0.2)
    saved = None
    if quiet:
        sys.stdout.flush()
        saved = os.dup(1)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
    try:
        t0 = time.perf_counter()
        for b in range(batch):
            kb.bladed_controller(m, 0, b, 0.0, 122.9, 122.9 / 97.0, meas, 0.944, x)
        t_first = time.perf_counter() - t0
    finally:
        if saved is not None:
            os.dup2(saved, 1)
            os.close(saved)
    return t_load, t_first


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    if rosco_library() is None:
        print("rosco is not installed (pip install -e '.[control]')", file=sys.stderr)
        return 1
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        print("no C compiler for the trivial law", file=sys.stderr)
        return 1
    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        so = tmp / "liblaw.so"
        subprocess.run([cc, "-shared", "-fPIC", "-O2", "-o", str(so), str(LAW_C)], check=True)
        (tmp / "law.in").write_text("2.332287 1e30\n")
        law = BladedLibrary(so, tmp / "law.in", dt=0.0125)
        rosco = BladedLibrary("rosco", DISCON_IN, dt=0.0125)
        # compile the loops once
        time_dll(law, 10)
        _time_baseline(10)
        time_dll(rosco, 10)
        times: dict[str, list[float]] = {"baseline": [], "marshal": [], "rosco": []}
        for _ in range(args.repeat):
            times["baseline"].append(_time_baseline(args.calls))
            times["marshal"].append(time_dll(law, args.calls))
            times["rosco"].append(time_dll(rosco, args.calls))
        for k, v in times.items():
            out[f"{k}_call_us"] = round(statistics.median(v) * 1e6, 3)
        runs = {False: [], True: []}
        for _ in range(2):  # A/B alternated: this machine is shared
            for q in (False, True):
                runs[q].append(_startup(rosco, args.batch, quiet=q))
        out["rosco_load_copies_s"] = round(min(r[0] for v in runs.values() for r in v), 3)
        out["rosco_first_calls_s"] = [round(r[1], 3) for r in runs[False]]
        out["rosco_first_calls_stdout_null_s"] = [round(r[1], 3) for r in runs[True]]
        out["batch"] = args.batch
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
