"""Registry of every validation floatwind has, and the validation report builder.

``floatwind report validation -o report.html [--quick]`` calls :func:`report`, which it finds as
the entry point ``validation`` of the group ``floatwind.reports`` (pyproject.toml; floatwind never
imports this package), and :func:`report` calls :func:`build_report`: it runs each
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

from floatwind.report import (  # noqa: E402
    ReportSection,
    multi_overlay_figure,
    overlay_figure,
    render_report,
)

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


_COMPARE_CACHE: dict[tuple[str, float | None, str], object] = {}


def _cached_compare(ref_dir: pathlib.Path, t_end: float | None, axis: str):
    """compare_case, run once per (folder, window, Morison axis) within one report."""
    from validation.openfast.compare import compare_case

    key = (str(ref_dir), t_end, axis)
    if key not in _COMPARE_CACHE:
        _COMPARE_CACHE[key] = compare_case(ref_dir, t_end=t_end, morison_axis=axis)
    return _COMPARE_CACHE[key]


def _openfast_section(ref_dir: pathlib.Path, quick: bool) -> ReportSection:
    from validation.openfast.compare import CompareError

    name = ref_dir.name
    t_end = QUICK_T_END.get(name, QUICK_T_END["default"]) if quick else None
    sec = ReportSection(title=f"OpenFAST comparison: {name}")
    try:
        res = _cached_compare(ref_dir, t_end, "undisplaced")
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
    from floatwind.case import openfast as od

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


def _register_seed_cases() -> None:
    """Wang's experiments (validation/seed_cases/, issue 6)."""
    from validation.seed_cases import register_all

    register_all(lambda name, fn: VALIDATIONS.append(Validation(name, fn)))


_register_seed_cases()


def _register_euler313() -> None:
    """Wang ch. II, the 3-1-3 Euler formulation against the momentum cloud core (issue 21)."""
    from validation.euler313 import register_all

    register_all(lambda name, fn: VALIDATIONS.append(Validation(name, fn)))


_register_euler313()


def _register_bossak() -> None:
    """Bossak-Newmark oscillators, OC3 decay and body links (issue 20)."""
    from validation.bossak import register_all

    register_all(lambda name, fn: VALIDATIONS.append(Validation(name, fn)))


_register_bossak()


def _register_mbdm() -> None:
    """Leble's MBDM note: the three example input files of sec. 10 against closed forms (issue 19)."""
    from validation.mbdm import register_all

    register_all(lambda name, fn: VALIDATIONS.append(Validation(name, fn)))


_register_mbdm()


# ------------------------------------------------------------------ Morison axis (issue 9)

#: channel shown in the instantaneous-vs-undisplaced overlay of each Morison case
MORISON_AXIS_FIGURE = {"ref04_morison_decay": "PtfmPitch", "ref05_morison_jonswap": "HydroFxi"}


def _morison_axis_section(ref_dir: pathlib.Path, quick: bool) -> ReportSection:
    """HydroDyn's undisplaced Morison member axis vs the dissertation's instantaneous axis.

    Rows: per channel group, the largest NRMSE of the instantaneous-axis run against the
    undisplaced-axis run (normalised by the OpenFAST range: how much the choice changes the
    answer) and against OpenFAST. Informative (no criterion)."""
    from validation.openfast.compare import MOTION_CHANNELS

    name = ref_dir.name
    t_end = QUICK_T_END.get(name, QUICK_T_END["default"]) if quick else None
    und = _cached_compare(ref_dir, t_end, "undisplaced")
    ins = _cached_compare(ref_dir, t_end, "instantaneous")
    sec = ReportSection(title=f"Morison axis: instantaneous vs undisplaced, {name}")
    sec.notes.append(
        f"window {und.window[0]:g}-{und.window[1]:g} s; HydroDyn evaluates Morison drag and "
        "inertia on the undisplaced member axis, the dissertation (Wang) on the instantaneous axis"
    )
    groups = {
        "platform motions": MOTION_CHANNELS,
        "HydroDyn loads": [f"Hydro{q}{a}i" for q in "FM" for a in "xyz"],
    }
    for label, chans in groups.items():
        diff, vs_ref, worst = 0.0, 0.0, ""
        for ch in chans:
            if ch not in und.series or ch not in ins.series:
                continue
            r, su = und.series[ch]
            _, si = ins.series[ch]
            floor = next(c for c in und.channels if c.channel == ch)
            rng = max(floor.ref_range, 1e-300)
            d = float(np.sqrt(np.mean((si - su) ** 2)) / rng)
            e = float(np.sqrt(np.mean((si - r) ** 2)) / rng)
            if d > diff:
                diff, worst = d, ch
            vs_ref = max(vs_ref, e)
        if not worst:
            continue
        sec.table.append(
            {
                "case": name,
                "metric": f"instantaneous vs undisplaced axis, max NRMSE of {label} ({worst})",
                "value": diff,
                "criterion": "informative",
                "passed": None,
            }
        )
        sec.table.append(
            {
                "case": name,
                "metric": f"instantaneous axis vs OpenFAST, max NRMSE of {label}",
                "value": vs_ref,
                "criterion": "informative",
                "passed": None,
            }
        )
    ch = MORISON_AXIS_FIGURE.get(name, "PtfmPitch")
    if ch in und.series and ch in ins.series:
        r, su = und.series[ch]
        units = next(c.units for c in und.channels if c.channel == ch)
        sec.figures.append(
            multi_overlay_figure(
                und.time,
                r,
                {"undisplaced axis (HydroDyn)": su, "instantaneous axis (Wang)": ins.series[ch][1]},
                title=f"{name} {ch}: Morison axis treatment",
                units=units,
                ref_label="OpenFAST v5",
            )
        )
    return sec


def _register_issue9_extras() -> None:
    root = openfast_reference_root()
    for d in sorted(root.glob("ref0*_morison*")) if root else []:
        if any(d.glob("*.fst")):
            VALIDATIONS.append(
                Validation(
                    f"morison_axis/{d.name}", lambda quick, d=d: _morison_axis_section(d, quick)
                )
            )
    from validation.analytic import pipeline_oscillator, scripts

    VALIDATIONS.append(Validation("analytic/pipeline_oscillator", pipeline_oscillator.section))
    for s in scripts.LIE_GROUP_SCRIPTS:
        path = scripts.LIE_GROUP / s
        if path.is_file():
            VALIDATIONS.append(
                Validation(
                    f"lie_group/{path.stem}",
                    lambda quick, path=path: scripts.script_section(path, quick),
                )
            )


_register_issue9_extras()


#: names of the validations a Ctrl-C stopped in this process (build_report then writes the page
#: of what finished and raises KeyboardInterrupt afterwards)
INTERRUPTED: list[str] = []


def run_all(
    quick: bool = True, only: list[str] | None = None, progress: bool | None = None
) -> tuple[list[dict], list[ReportSection]]:
    """Run the validations (those whose name contains one of ``only``); a tqdm bar, one step per
    validation, on a terminal (``progress=None``) or as asked."""
    import sys

    from tqdm import tqdm

    summary: list[dict] = []
    sections: list[ReportSection] = []
    todo = [v for v in VALIDATIONS if not only or any(o in v.name for o in only)]
    show = sys.stderr.isatty() if progress is None else bool(progress)
    bar = tqdm(todo, desc="validations", unit="validation", disable=not show, file=sys.stderr)
    for v in bar:
        bar.set_postfix_str(v.name)
        t0 = time.perf_counter()
        log.info("validation %s ...", v.name)
        try:
            sec = v.run(quick)
        except KeyboardInterrupt:
            # Ctrl-C: the validations that finished are kept and the page says where it stopped
            sec = ReportSection(
                title=f"{v.name} (interrupted)",
                notes=["interrupted by the user: this and the later validations did not run"],
            )
            sec.table = [
                {
                    "case": v.name,
                    "metric": "interrupted by the user",
                    "value": float("nan"),
                    "criterion": "runs",
                    "passed": False,
                }
            ]
            summary.extend(sec.table)
            sections.append(sec)
            INTERRUPTED.append(v.name)
            break
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


def build_report(path: pathlib.Path, *, quick: bool = True, only: list[str] | None = None,
                 progress: bool | None = None) -> bool:  # fmt: skip
    """Run the validations, write the HTML page; True when every check passed."""
    INTERRUPTED.clear()
    summary, sections = run_all(quick=quick, only=only, progress=progress)
    for s in sections:  # the per-section rows are in the summary; keep sections short
        s.table = []
    mode = "quick (CI)" if quick else "full"
    if INTERRUPTED:
        mode += f"; interrupted by the user at {INTERRUPTED[0]} (partial report)"
    page = render_report("floatwind validation report", summary, sections, mode=mode)
    pathlib.Path(path).write_text(page)
    return all(r.get("passed") is not False for r in summary) and bool(np.size(summary))


def report(path: pathlib.Path, *, quick: bool = True, only: list[str] | None = None,
           progress: bool | None = None) -> tuple[bool, str | None]:  # fmt: skip
    """The report provider of ``floatwind report validation`` (entry point ``validation`` of the
    group ``floatwind.reports``, pyproject.toml): :func:`build_report` writes the page to
    ``path``; returns whether every check passed and the validation a Ctrl-C stopped (None when
    none did; the page then holds the validations that finished)."""
    ok = build_report(path, quick=quick, only=only, progress=progress)
    return ok, (INTERRUPTED[0] if INTERRUPTED else None)


def _input_folders() -> list[pathlib.Path]:
    """The folders the validation report reads (the OpenFAST references, the shared seeds and the
    repository's cases and validation data): ``floatwind report validation -o`` never writes
    inside them (issue 42: every file a run reads is an input)."""
    ref = openfast_reference_root()
    folders = [ROOT / "cases", ROOT / "validation"]
    if ref is not None:
        folders += [ref, ref.parent]
    seeds = ROOT.parent / "shared" / "seeds"
    if seeds.is_dir():
        folders.append(seeds)
    return folders


report.input_folders = _input_folders
