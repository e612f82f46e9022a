"""Report sections for stand-alone validation scripts (``validation/lie_group/*.py``).

Each script is run as ``python SCRIPT [--quick] --out DIR`` in its own process; its exit status is
the check (the scripts exit non-zero when an observed order or an error is outside its
criterion), its last output lines are the notes and the PNG figures it writes to ``DIR`` are
embedded in the report.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
LIE_GROUP = ROOT / "validation" / "lie_group"

#: the Giusti (seed 000) Lie-group integrator validations, sec. 7.1-7.4
LIE_GROUP_SCRIPTS = (
    "sphere_follower_torque.py",
    "axisymmetric_body.py",
    "forced_oscillator.py",
    "follower_loads_formulations.py",
)


def script_section(script: pathlib.Path, quick: bool, *, timeout_s: float = 3600.0):
    """Run one validation script and turn its result into a :class:`ReportSection`."""
    from floatwind.report import Figure, ReportSection

    script = pathlib.Path(script)
    sec = ReportSection(title=f"{script.parent.name}/{script.name}")
    with tempfile.TemporaryDirectory(prefix="fw_validation_") as tmp:
        cmd = [sys.executable, str(script), "--out", tmp] + (["--quick"] if quick else [])
        env = dict(os.environ, MPLBACKEND="Agg")
        t0 = time.perf_counter()
        try:
            proc = subprocess.run(
                cmd,
                cwd=script.parent,
                capture_output=True,
                text=True,
                timeout=timeout_s,
                env=env,
            )
            rc, text = proc.returncode, proc.stdout + proc.stderr
        except subprocess.TimeoutExpired:
            rc, text = -1, f"timed out after {timeout_s:g} s"
        wall = time.perf_counter() - t0
        lines = [ln for ln in text.splitlines() if ln.strip()]
        sec.notes.append(f"{' '.join(cmd[1:2] + cmd[4:])}: exit status {rc}, {wall:.1f} s")
        sec.notes.extend(lines[-12:])
        for png in sorted(pathlib.Path(tmp).glob("*.png")):
            sec.figures.append(Figure(caption=f"{script.stem}: {png.stem}", png=png.read_bytes()))
    sec.table = [
        {
            "case": f"{script.parent.name}/{script.stem}",
            "metric": "script checks (exit status)",
            "value": float(rc),
            "criterion": "== 0",
            "passed": rc == 0,
        }
    ]
    return sec
