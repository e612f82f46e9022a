"""Reproductions of the dissertation's simulation figures (Wang 2013, ch. III-V); see README.md here.

:data:`SCRIPTS` lists the modules with ``run(out, quick) -> Outcome``; :func:`register_all` adds one
validation per script to ``validation/registry.py`` (``floatwind report validation [--quick]``).
"""

from __future__ import annotations

import importlib
import pathlib

SCRIPTS = (
    "iii_d1_oc3_free_vibration",
    "iii_d2_d3_forced",
    "iv_d1_yaw_cm_shift",
    "iv_d2_two_vs_three_body",
    "iv_d3_forced_ct",
    "v_d_six_body",
)


def register_all(append) -> None:
    """Call ``append(name, fn)`` with ``fn(quick) -> ReportSection`` for every script."""
    import tempfile

    from validation.seed_cases._common import section

    def make(mod_name: str):
        def fn(quick: bool):
            mod = importlib.import_module(f"validation.seed_cases.{mod_name}")
            # the figures are embedded in the report: a temporary folder, not the source tree
            with tempfile.TemporaryDirectory(prefix="floatwind-seed-") as tmp:
                return section(mod.run(pathlib.Path(tmp), quick))

        return fn

    for name in SCRIPTS:
        append(f"seed_cases/{name}", make(name))
