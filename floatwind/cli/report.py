"""``floatwind report validation|dlc|study``: an HTML report.

The dlc and study reports are floatwind's (floatwind.report). The validation report runs the
validations, which live outside the package: its builder is found through the entry point
``validation`` of the group ``floatwind.reports`` (pyproject.toml), so floatwind never imports
them. A report provider is a callable ``(path, *, quick, only, progress) -> (all_passed,
interrupted_at)`` that writes the page to ``path``; ``interrupted_at`` names the validation a
Ctrl-C stopped (the page then holds those that finished), else None."""

from __future__ import annotations

import argparse
import pathlib
import sys

from floatwind.cli._common import check_output, examples, output_options
from floatwind.errors import CaseError

NAME = "report"
EPILOG = examples([
    ("floatwind report validation -o report.html --quick",
     "run the validations on short windows, write the HTML report"),
    ("floatwind report dlc iec -o iec/report.html",
     "the load report of a finished 'floatwind dlc' folder"),
    ("floatwind report study fig25 -o fig25/report.html",
     "the report of a finished 'floatwind study' folder"),
])  # fmt: skip

#: the entry-point group of the report providers (pyproject.toml [project.entry-points])
GROUP = "floatwind.reports"


def add_arguments(rp: argparse.ArgumentParser) -> None:
    rp.add_argument("kind", choices=("validation", "dlc", "study"), help="report kind")
    rp.add_argument("folder", nargs="?", help="dlc / study: the folder 'floatwind dlc' or "
                    "'floatwind study' wrote")
    rp.add_argument("-o", "--output", default="report.html", help="HTML file (default report.html)")
    rp.add_argument("--quick", action="store_true", help="short windows, for CI")
    rp.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    rp.add_argument(
        "--only",
        action="append",
        default=None,
        help="run only validations whose name contains this",
    )
    output_options(rp)


def provider(kind: str):
    """The installed builder of the ``kind`` report (entry point ``kind`` of :data:`GROUP`)."""
    from importlib import metadata

    found = [ep for ep in metadata.entry_points(group=GROUP) if ep.name == kind]
    if not found:
        raise CaseError(
            f"no {kind} report is installed (no entry point '{kind}' in the group '{GROUP}'); "
            "install floatwind from its repository (pip install -e '.[dev]'), which provides it"
        )
    try:
        return found[0].load()
    except ImportError as exc:
        raise CaseError(
            f"the {kind} report ({found[0].value}) is not importable ({exc}); install floatwind "
            "from its repository (pip install -e '.[dev]'), which installs the validation "
            "package too"
        ) from None


def main(args) -> int:
    from floatwind.io.safe import atomic_write

    if args.kind in ("dlc", "study"):
        return _report_folder(args)
    if args.folder:
        raise CaseError(f"the validation report takes no folder (got {args.folder!r})", field="kind")

    out = pathlib.Path(args.output)
    check_output(args, out, [])
    build_report = provider(args.kind)
    _refuse_inside_inputs(out, getattr(build_report, "input_folders", lambda: [])())
    result = {}

    def build(tmp):
        result["ok"], result["stopped"] = build_report(
            tmp, quick=args.quick, only=args.only, progress=False if args.no_progress else None
        )

    atomic_write(pathlib.Path(args.output), build)
    if result["stopped"]:  # Ctrl-C: the finished validations are in the page
        print(f"floatwind: interrupted at {result['stopped']}; wrote the partial report "
              f"{args.output}", file=sys.stderr)  # fmt: skip
        return 130
    ok = result["ok"]
    print(f"wrote {args.output} ({'all passed' if ok else 'FAILURES: see the summary table'})")
    return 0 if ok else 1


def _refuse_inside_inputs(out: pathlib.Path, folders) -> None:
    """Refuse an output inside a folder the report reads (its reference data, cases and
    validation data: the provider's ``input_folders``), before anything runs (issue 42)."""
    target = out.resolve()
    for f in folders:
        f = pathlib.Path(f).resolve()
        if f in target.parents:
            raise CaseError(f"{out} is inside {f}, which this report reads; choose another "
                            "output", field="--output")  # fmt: skip


def _report_folder(args) -> int:
    if args.kind == "dlc":
        from floatwind.report.dlc import write_report
    else:
        from floatwind.report.study import write_report

    if not args.folder:
        raise CaseError(f"the folder 'floatwind {args.kind}' wrote is required", field="folder")
    out = pathlib.Path(args.output)
    check_output(args, out, _folder_inputs(pathlib.Path(args.folder)))
    write_report(pathlib.Path(args.folder), out)
    print(f"wrote {out}")
    return 0


def _folder_inputs(folder: pathlib.Path) -> list[pathlib.Path]:
    """The files of the results folder a dlc/study report reads (its results table, ``dlc.json``,
    batches, datasets, the copied case and study files): every file in it but earlier reports
    (``.html``), so ``-o`` can never replace what the report is made from."""
    if not folder.is_dir():
        return []
    return [p for p in folder.rglob("*") if p.suffix.lower() != ".html" and p.is_file()]
