"""Wang ch. II, the 3-1-3 Euler formulation (formulation: euler313), against the momentum cloud core;
see README.md here.

:data:`SCRIPTS` lists the modules with ``run(out, quick) -> Outcome``; :func:`register_all` adds one
validation per script to ``validation/registry.py`` (``floatwind report validation --only euler313``).
"""

from __future__ import annotations

import importlib
import pathlib

SCRIPTS = ("d1_free_vibration", "free_tumbling", "d2_yaw")


def register_all(append) -> None:
    """Call ``append(name, fn)`` with ``fn(quick) -> ReportSection`` for every script."""
    import tempfile

    from validation.seed_cases._common import section

    def make(mod_name: str):
        def fn(quick: bool):
            mod = importlib.import_module(f"validation.euler313.{mod_name}")
            # the figures are embedded in the report: a temporary folder, not the source tree
            with tempfile.TemporaryDirectory(prefix="floatwind-e313-") as tmp:
                return section(mod.run(pathlib.Path(tmp), quick))

        return fn

    for name in SCRIPTS:
        append(f"euler313/{name}", make(name))
