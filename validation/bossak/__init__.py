"""Bossak-Newmark and body links (seed 002, issue 20): the scripts here print their tables and
exit with status 1 when a check fails. :func:`register_all` adds each to the validation report
(``floatwind report validation --only bossak``): the printed table as the section's notes and one
row for the script's verdict."""

from __future__ import annotations

import contextlib
import importlib
import io
import sys
import time

SCRIPTS = ("oscillators", "oc3_decay", "body_links")


def register_all(append) -> None:
    """Call ``append(name, fn)`` with ``fn(quick) -> ReportSection`` for every script."""

    def make(mod_name: str):
        def fn(quick: bool):
            from floatwind.report import ReportSection

            mod = importlib.import_module(f"validation.bossak.{mod_name}")
            argv, out = sys.argv, io.StringIO()
            sys.argv = [f"{mod_name}.py"] + (["--quick"] if quick else [])
            t0 = time.perf_counter()
            try:
                with contextlib.redirect_stdout(out):
                    status = mod.main()
            finally:
                sys.argv = argv
            sec = ReportSection(title=f"Bossak-Newmark: {mod_name}",
                                notes=[ln for ln in out.getvalue().splitlines() if ln.strip()])  # fmt: skip
            sec.table.append({
                "case": f"bossak/{mod_name}",
                "metric": f"the script's checks ({'quick' if quick else 'full'}, "
                          f"{time.perf_counter() - t0:.0f} s)",
                "value": float(status),
                "criterion": "exit status 0",
                "passed": status == 0,
            })  # fmt: skip
            return sec

        return fn

    for name in SCRIPTS:
        append(f"bossak/{name}", make(name))
