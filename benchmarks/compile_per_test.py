"""A pytest plugin that charges numba's compiles to the test that triggered them (the suite's
time, docs/performance.md "The test suite's time").

    PYTHONPATH=.:benchmarks COMPILE_PER_TEST=/tmp/x.jsonl python -m pytest -p compile_per_test ...

Each test appends one JSON line to ``$COMPILE_PER_TEST`` (nothing is written without it): its
wall and process CPU seconds, the seconds inside numba's ``numba:compile`` events (exclusive of
nested compiles; wall seconds), its 40 largest compiles (function, exclusive, inclusive, argument
types) and the generated modules it loaded (``floatwind._kernels.codegen.load_module``: one per
distinct stepper text). Under ``-n`` each worker appends its own lines (``pid``). Compiles in
subprocesses a test starts (CLI and study workers) are not seen: they count in its wall time.

    python benchmarks/compile_per_test.py FILE.jsonl [N]

prints the tests with their N largest compiles and the suite's totals per compiled function.
"""

from __future__ import annotations

import json
import os
import sys
import time

_STACK: list = []
_EVENTS: list = []
_GEN: list = []
_START: list = [0.0, 0.0]


def _listen() -> None:
    from numba.core import event

    class Listener(event.Listener):
        def on_start(self, ev):
            _STACK.append([time.perf_counter(), 0.0, ev.data.get("dispatcher")])

        def on_end(self, ev):
            t0, nested, disp = _STACK.pop()
            dt = time.perf_counter() - t0
            if _STACK:
                _STACK[-1][1] += dt
            py = getattr(disp, "py_func", None)
            name = f"{getattr(py, '__module__', '?')}.{getattr(py, '__qualname__', disp)}"
            _EVENTS.append((name, dt - nested, dt, str(ev.data.get("args"))[:300]))

    event.register("numba:compile", Listener())


def pytest_configure(config):
    if not os.environ.get("COMPILE_PER_TEST"):
        return
    from floatwind._kernels import codegen
    from floatwind.simulate import generate

    real = codegen.load_module

    def load_module(text, prefix="floatwind_gen"):
        _GEN.append(codegen.module_name(text, prefix))
        return real(text, prefix)

    codegen.load_module = generate.load_module = load_module
    _listen()


def pytest_runtest_protocol(item, nextitem):
    _EVENTS.clear()
    _GEN.clear()
    _START[:] = [time.perf_counter(), time.process_time()]


def pytest_runtest_logfinish(nodeid, location):
    out = os.environ.get("COMPILE_PER_TEST")
    if not out:
        return
    rec = {
        "test": nodeid,
        "wall": time.perf_counter() - _START[0],
        "cpu": time.process_time() - _START[1],
        "compile_excl": sum(e[1] for e in _EVENTS),
        "events": sorted(_EVENTS, key=lambda e: -e[1])[:40],
        "gen": sorted(set(_GEN)),
        "pid": os.getpid(),
    }
    with open(out, "a") as fh:
        fh.write(json.dumps(rec) + "\n")


def main(argv: list[str]) -> None:
    import collections

    recs = [json.loads(line) for line in open(argv[0])]
    n = int(argv[1]) if len(argv) > 1 else 5
    total: collections.Counter = collections.Counter()
    for r in sorted(recs, key=lambda r: -r["compile_excl"]):
        print(f"{r['wall']:7.1f} s wall {r['cpu']:7.1f} s CPU {r['compile_excl']:7.1f} s compiling"
              f"  {r['test']}  ({len(r['gen'])} generated)")
        for name, excl, incl, _sig in r["events"][:n]:
            print(f"          {excl:6.1f} / {incl:6.1f}  {name}")
        for name, excl, _incl, _sig in r["events"]:
            total[name] += excl
    print(f"compiling in all: {sum(total.values()):.1f} s")
    for name, sec in total.most_common(30):
        print(f"{sec:8.1f}  {name}")


if __name__ == "__main__":
    main(sys.argv[1:])
