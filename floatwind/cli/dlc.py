"""``floatwind dlc DLC.yaml -o DIR``: IEC 61400-3-1 design-load cases (docs/dlc.md)."""

from __future__ import annotations

import argparse
import pathlib
import sys

from floatwind.cli._common import (
    STUDY_OUTPUTS,
    batch_options,
    check_batch_options,
    check_output,
    check_study_folder,
    examples,
)
from floatwind.errors import CaseError

NAME = "dlc"
EPILOG = examples([
    ("floatwind dlc cases/dlc/oc3_hywind_iec.yaml --list",
     "print the expanded run table as CSV (runs nothing)"),
    ("floatwind dlc cases/dlc/oc3_hywind_iec.yaml -o iec --report iec/report.html",
     "run DLC 1.2, 1.6, 6.1 (432 runs, minutes), fatigue, extremes, load report"),
    ("floatwind dlc cases/dlc/oc3_hywind_iec.yaml -o iec --resume",
     "finish an interrupted DLC set"),
])  # fmt: skip


def add_arguments(dl: argparse.ArgumentParser) -> None:
    dl.add_argument("dlc", help="DLC file (.yaml)")
    dl.add_argument("-o", "--output", help="output folder (default: the DLC set's name)")
    dl.add_argument("--list", action="store_true", help="print the expanded run table (CSV), run nothing")
    dl.add_argument("--report", metavar="HTML", help="also write the load report")
    dl.add_argument("--seeds", type=int, help="override the number of seeds of every load case")
    dl.add_argument("--analysis", type=float, metavar="S", help="override the analysis window (s)")
    batch_options(dl)


def main(args) -> int:
    import pandas as pd

    from floatwind.dlc.run import print_summary, run_dlc
    from floatwind.dlc.spec import load_dlc
    from floatwind.io.safe import check_text_inputs, default_output, input_files

    check_text_inputs(input_files(args.dlc))
    over = {}
    if args.seeds is not None:
        over["seeds"] = args.seeds
    if args.analysis is not None:
        over["analysis"] = args.analysis
    try:
        dset = load_dlc(args.dlc, over)
    except CaseError as exc:  # an override is named as the option
        opt = {"seeds": "--seeds", "analysis": "--analysis"}.get(exc.field or "")
        if opt and exc.field in over:
            raise CaseError(exc.reason, field=opt) from None
        raise
    table = dset.table()
    if args.list:
        with pd.option_context("display.float_format", lambda v: f"{v:.6g}"):
            print(table.to_csv(index=False, float_format="%.6g"), end="")
        return 0
    check_batch_options(args)
    out = (pathlib.Path(args.output) if args.output
           else default_output(dset.name, None, file=args.dlc))  # fmt: skip
    check_study_folder(out, args.dlc)
    if args.report:
        report = pathlib.Path(args.report)
        if report.resolve() in [out.resolve() / name for name in STUDY_OUTPUTS]:
            raise CaseError(f"{report} is a table this DLC set writes; choose another file",
                            field="--report")  # fmt: skip
        check_output(args, report, input_files(args.dlc))
    from floatwind.studies.lock import StudyLock

    lock = StudyLock(out).acquire()
    if lock.message:
        print(f"floatwind: {lock.message}", file=sys.stderr)
    try:
        print(f"{dset.name}: {len(table)} runs in {len(dset.load_cases)} load case(s) "
              f"({', '.join(f'DLC {lc.dlc}' for lc in dset.load_cases)}) -> {out}")
        try:
            res = run_dlc(dset, out, resume=args.resume, accept_changes=args.accept_changes,
                          workers=args.workers, dask=args.dask, batch_size=args.batch_size,
                          progress=False if args.no_progress else None)
        except KeyboardInterrupt:
            print(f"floatwind: interrupted; finished batches are in {out}: rerun with --resume",
                  file=sys.stderr)
            return 130
    finally:
        lock.release()
    ok = int(res.runs["status"].eq("ok").sum())
    failed = res.runs[res.runs["status"] == "failed"]
    print(f"{dset.name}: {ok} of {len(res.runs)} runs ok, {len(failed)} failed, {res.n_run_now} run now "
          f"in {res.wall_s:.1f} s wall ({res.n_run_now / max(res.wall_s, 1e-9) * 3600:.0f} runs/h)")
    with pd.option_context("display.width", 160, "display.max_rows", 200):
        print_summary(res)
    for _, row in failed.iterrows():
        print(f"FAILED {row['run']}: {row['error']}")
    written = ["dlc_table.csv", "runs.csv", "fatigue.csv", "fatigue_bins.csv", "extremes.csv",
               "governing.csv"]
    print(f"wrote {', '.join(f'{out}/{w}' for w in written)}")
    if args.report:
        from floatwind.report.dlc import write_report

        write_report(out, pathlib.Path(args.report))
        print(f"wrote {args.report}")
    return 0 if len(failed) == 0 else 1
