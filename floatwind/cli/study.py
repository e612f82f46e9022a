"""``floatwind study STUDY.yaml -o DIR``: a statistical / design-load-case study (docs/studies.md)."""

from __future__ import annotations

import argparse
import pathlib
import sys

from floatwind.cli._common import batch_options, check_batch_options, check_study_folder, examples
from floatwind.errors import CaseError

NAME = "study"
EPILOG = examples([
    ("floatwind study cases/studies/fig25_spar_family.yaml -o fig25 --list",
     "list the run ids of a study (runs nothing)"),
    ("floatwind study cases/studies/fig25_spar_family.yaml -o fig25",
     "run it (minutes; Ctrl-C keeps the finished batches)"),
    ("floatwind study cases/studies/fig25_spar_family.yaml -o fig25 --resume",
     "finish an interrupted study"),
])  # fmt: skip


def add_arguments(st: argparse.ArgumentParser) -> None:
    st.add_argument("study", help="study file (.yaml)")
    st.add_argument("-o", "--output", help="output folder (default: the study name)")
    batch_options(st)
    st.add_argument(
        "--strict", action="store_true", help="treat sanity warnings as errors (exit 2)"
    )
    st.add_argument("--duration", type=float, help="override the run length (s)")
    st.add_argument("--realizations", type=int, help="override the number of realizations")
    st.add_argument("--list", action="store_true", help="list the run ids and exit")


def _overrides(args) -> dict:
    over = {}
    if getattr(args, "duration", None) is not None:
        if not args.duration > 0:
            raise CaseError(f"must be positive, got {args.duration:g}", field="--duration")
        over["duration"] = args.duration
    if getattr(args, "realizations", None) is not None:
        over["realizations"] = args.realizations
    return over


def _preflight(study, args) -> None:
    """Sanity warnings of each design and condition (their first run), once each."""
    from floatwind.simulate.sanity import sanity_warnings
    from floatwind.studies.execute import build_batch_model

    if args.list:
        return
    seen = {}
    for r in study.runs():
        seen.setdefault((r.design_index, r.condition_index), r)
    lines = []
    for run in seen.values():
        for w in sanity_warnings(build_batch_model(study, [run])):
            line = f"{run.design}/{run.condition}: {w}"
            if line not in lines:
                lines.append(line)
                print(f"floatwind: warning: {line}", file=sys.stderr)
    if lines and args.strict:
        raise CaseError(
            f"{len(lines)} sanity warning(s) and --strict: {lines[0]}", field="--strict"
        )


def main(args) -> int:
    from floatwind.io.safe import check_text_inputs, default_output, input_files
    from floatwind.studies import load_study

    check_text_inputs(input_files(args.study))
    study = load_study(args.study, _overrides(args))
    if args.list:
        for r in study.runs():
            print(r.id)
        return 0
    check_batch_options(args)
    out = (pathlib.Path(args.output) if args.output
           else default_output(study.name, None, file=args.study))  # fmt: skip
    check_study_folder(out, args.study)
    from floatwind.studies.execute import check_channels
    from floatwind.studies.lock import StudyLock

    check_channels(study)
    lock = StudyLock(out).acquire()  # before the checks below: a second study stops at once
    if lock.message:
        print(f"floatwind: {lock.message}", file=sys.stderr)
    try:
        return _run(study, out, args)
    finally:
        lock.release()


def _run(study, out: pathlib.Path, args) -> int:
    import pandas as pd

    from floatwind.studies import run_study

    _preflight(study, args)
    try:
        res = run_study(
            study,
            out,
            resume=args.resume,
            accept_changes=args.accept_changes,
            workers=args.workers,
            dask=args.dask,
            batch_size=args.batch_size,
            progress=False if args.no_progress else None,
        )
    except KeyboardInterrupt:
        print(
            f"floatwind: interrupted; finished batches are in {out}: rerun with --resume",
            file=sys.stderr,
        )
        return 130
    ok = res.runs["status"].eq("ok").sum()
    failed = res.failures
    print(
        f"{study.name}: {ok} of {len(res.runs)} runs ok, {len(failed)} failed, {res.n_run_now} run now in "
        f"{res.wall_s:.1f} s wall"
    )
    from floatwind.studies.execute import _channel_units
    from floatwind.studies.stats import humanize_results

    table = humanize_results(res.results, _channel_units(out)) if len(res.results) else res.results
    if len(table):
        pick = table[table["quantity"].str.endswith((".mean", ".std"))]
        pick = pick[pick["quantity"].str.startswith(tuple(study.channels[:1] + ["PtfmPitch"]))]
        with pd.option_context("display.width", 160, "display.max_rows", 200):
            print(pick.to_string(index=False, float_format=lambda v: f"{v:.5g}"))
    for _, row in failed.iterrows():
        print(f"FAILED {row['id']}: {row['error']}")
    print(f"wrote {out}/results.csv, {out}/runs_summary.csv, {out}/failures.csv, {out}/batches/")
    return 0 if len(failed) == 0 else 1
