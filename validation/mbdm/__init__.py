"""Leble's MBDM note (seed 001, issue 19): the note's three example input files (cases/mbdm/, sec.
10.1-10.3) read by ``floatwind.case.mbdm_files`` and run by ``floatwind.simulate.mbdm`` against
closed forms; see ``examples.py``.

:data:`SCRIPTS` lists the modules with ``run(out, quick) -> Outcome``; :func:`register_all` adds
one validation per script to ``validation/registry.py`` (``floatwind report validation --only
mbdm``).
"""

from __future__ import annotations

import importlib
import pathlib

SCRIPTS = ("examples", "turbine_crosscheck")


def register_all(append) -> None:
    """Call ``append(name, fn)`` with ``fn(quick) -> ReportSection`` for every script."""
    import tempfile

    from validation.seed_cases._common import section

    def make(mod_name: str):
        def fn(quick: bool):
            mod = importlib.import_module(f"validation.mbdm.{mod_name}")
            # the figures are embedded in the report: a temporary folder, not the source tree
            with tempfile.TemporaryDirectory(prefix="floatwind-mbdm-") as tmp:
                return section(mod.run(pathlib.Path(tmp), quick))

        return fn

    for name in SCRIPTS:
        append(f"mbdm/{name}", make(name))
