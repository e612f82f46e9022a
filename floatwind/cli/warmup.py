"""``floatwind warmup [CASE ...]``: compile the kernels ahead of time."""

from __future__ import annotations

import argparse
import pathlib

from floatwind.cli._case import load_model
from floatwind.cli._common import examples
from floatwind.errors import CaseError

NAME = "warmup"
EPILOG = examples([
    ("floatwind warmup cases/oc3_platform_decay.yaml",
     "compile what this case needs (once per installation)"),
    ("floatwind warmup", "compile for every case under cases/ (a few minutes, once)"),
])  # fmt: skip

#: the shipped cases (beside the package in a checkout)
CASES = pathlib.Path(__file__).resolve().parents[2] / "cases"


def add_arguments(wu: argparse.ArgumentParser) -> None:
    wu.add_argument("cases", nargs="*", help="case files (default: every case under cases/)")


def main(args) -> int:
    """Compile the stepping of each case's load combination (a 1-s run whose result is thrown
    away), so that the first real run starts at once; prints one line per case and what it
    cost."""
    import time

    from floatwind.simulate import simulate
    from floatwind.simulate.sanity import compile_notice

    paths = [pathlib.Path(c) for c in args.cases]
    if not paths:
        paths = sorted(p for p in CASES.rglob("*.yaml") if "studies" not in p.parts
                       and "environments" not in p.parts)  # fmt: skip
        if not paths:
            raise CaseError("no cases found beside the package: give case files", field="cases")
    from floatwind._kernels import aot

    for path in paths:
        model = load_model(str(path), {"simulation.t_max": 1.0})  # a short run: the sea and wind too
        needed = compile_notice(model) is not None
        aot.start_recording()
        t0 = time.perf_counter()
        simulate(model, progress=False)
        what = f"compiled in {time.perf_counter() - t0:.1f} s" if needed else "already compiled"
        print(f"{path}: {what}")
        aot.build_recorded()  # and ahead of time, so that its runs start without numba (issue 41)
    return 0
