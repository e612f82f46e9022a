"""Registry of every validation floatwind has, and the validation report builder.

``floatwind report validation -o report.html [--quick]`` calls :func:`build_report`: it runs each
registered validation (``quick=True``: short windows for CI), collects its summary rows
(case, metric, value, criterion, pass/fail), notes and overlay figures, and hands them to
:func:`floatwind.report.render_report` (which formats only). A later issue adds a validation by
appending a :class:`Validation` to :data:`VALIDATIONS` (or calling :func:`register`).

Reference data: the OpenFAST reference folders are looked up in ``$FLOATWIND_OPENFAST_REFERENCES``,
then ``../shared/reference/openfast`` beside the repository, then ``/work/shared/reference/openfast``.
"""

from __future__ import annotations

import json
import logging
import os
import pathlib
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from floatwind.report import ReportSection, overlay_figure, render_report  # noqa: E402

log = logging.getLogger("floatwind.validation")


@dataclass
class Validation:
    """``run(quick) -> ReportSection`` whose ``table`` holds the summary rows."""

    name: str
    run: Callable[[bool], ReportSection]


VALIDATIONS: list[Validation] = []


def register(name: str):
    def deco(fn):
        VALIDATIONS.append(Validation(name, fn))
        return fn

    return deco


def openfast_reference_root() -> pathlib.Path | None:
    cands = [
        os.environ.get("FLOATWIND_OPENFAST_REFERENCES"),
        ROOT.parent / "shared" / "reference" / "openfast",
        "/work/shared/reference/openfast",
    ]
    for c in cands:
        if c and pathlib.Path(c).is_dir():
            return pathlib.Path(c)
    return None


#: quick-mode windows (s) of the OpenFAST comparisons (full mode: the validation window)
QUICK_T_END = {
    "default": 20.0,
    "ref03_yaw_spin": 10.0,
    "ref04_morison_decay": 10.0,
    "ref05_morison_jonswap": 10.0,
}


def _openfast_section(ref_dir: pathlib.Path, quick: bool) -> ReportSection:
    from validation.openfast.compare import CompareError, compare_case

    name = ref_dir.name
    t_end = QUICK_T_END.get(name, QUICK_T_END["default"]) if quick else None
    sec = ReportSection(title=f"OpenFAST comparison: {name}")
    try:
        res = compare_case(ref_dir, t_end=t_end)
    except CompareError as exc:
        sec.notes.append(str(exc))
        sec.table = [
            {
                "case": name,
                "metric": "comparison ran",
                "value": float("nan"),
                "criterion": "runs",
                "passed": False,
            }
        ]
        return sec
    sec.notes = [f"window {res.window[0]:g}-{res.window[1]:g} s; floatwind wall {res.wall_s:.1f} s"]
    sec.notes += res.notes
    for ch, d in res.decay.items():
        sec.notes.append(
            f"decay {ch}: period reference {d['period_ref_s']:.5f} s / floatwind "
            f"{d['period_floatwind_s']:.5f} s; damping ratio {d['damping_ref']:.6f} / "
            f"{d['damping_floatwind']:.6f}"
        )
    sec.table = res.rows()
    for c in res.channels:
        r, s = res.series[c.channel]
        sec.figures.append(
            overlay_figure(
                res.time,
                r,
                s,
                title=f"{name} {c.channel} (NRMSE {c.nrmse:.2e})",
                units=c.units,
                ref_label="OpenFAST v5",
            )
        )
    return sec


def _mass_properties_section(quick: bool) -> ReportSection:
    """ElastoDyn mass properties recomputed by floatwind vs each reference's mass_properties.json."""
    from floatwind.case import openfast_deck as od

    sec = ReportSection(title="ElastoDyn mass properties (analytic: same discretisation)")
    root = openfast_reference_root()
    for d in sorted(root.glob("ref0*")) if root else []:
        mpj = d / "mass_properties.json"
        fst = next(d.glob("*.fst"), None)
        if not mpj.is_file() or fst is None:
            continue
        ref = json.loads(mpj.read_text())
        mp = od.elastodyn_mass_properties(od.read_fst(fst))
        for key, ours in (
            ("total_mass_kg", mp["total"]["mass"]),
            ("rotor_inertia_about_shaft_kgm2", mp["rotor"]["inertia_shaft"]),
            ("tower_mass_kg", mp["tower"]["mass"]),
        ):
            if key not in ref:
                continue
            rel = abs(ours / float(ref[key]) - 1.0)
            sec.table.append(
                {
                    "case": d.name,
                    "metric": f"{key} relative difference",
                    "value": rel,
                    "criterion": "<= 1e-12",
                    "passed": bool(rel <= 1e-12),
                }
            )
        if quick:
            break
    return sec


def _register_defaults() -> None:
    root = openfast_reference_root()
    VALIDATIONS.append(Validation("mass_properties", _mass_properties_section))
    if root is None:
        return
    for d in sorted(p for p in root.iterdir() if p.is_dir() and any(p.glob("*.fst"))):
        VALIDATIONS.append(
            Validation(f"openfast/{d.name}", lambda quick, d=d: _openfast_section(d, quick))
        )


_register_defaults()


def run_all(
    quick: bool = True, only: list[str] | None = None
) -> tuple[list[dict], list[ReportSection]]:
    summary: list[dict] = []
    sections: list[ReportSection] = []
    for v in VALIDATIONS:
        if only and not any(o in v.name for o in only):
            continue
        t0 = time.perf_counter()
        log.info("validation %s ...", v.name)
        try:
            sec = v.run(quick)
        except Exception as exc:  # noqa: BLE001 - a broken validation is a failed row, not a crash
            sec = ReportSection(title=v.name, notes=[f"{type(exc).__name__}: {exc}"])
            sec.table = [
                {
                    "case": v.name,
                    "metric": "validation ran",
                    "value": float("nan"),
                    "criterion": "runs",
                    "passed": False,
                }
            ]
        sec.notes.append(f"validation time {time.perf_counter() - t0:.1f} s")
        summary.extend(sec.table)
        sections.append(sec)
    return summary, sections


def build_report(path: pathlib.Path, *, quick: bool = True, only: list[str] | None = None) -> bool:
    """Run the validations, write the HTML page; True when every check passed."""
    summary, sections = run_all(quick=quick, only=only)
    for s in sections:  # the per-section rows are in the summary; keep sections short
        s.table = []
    page = render_report(
        "floatwind validation report", summary, sections, mode="quick (CI)" if quick else "full"
    )
    pathlib.Path(path).write_text(page)
    return all(r.get("passed") is not False for r in summary) and bool(np.size(summary))
