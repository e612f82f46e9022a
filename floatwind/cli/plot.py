"""``floatwind plot STUDY.yaml -o DIR``: the standard figures of a finished study."""

from __future__ import annotations

import argparse
import pathlib

from floatwind.cli._common import examples
from floatwind.errors import CaseError

NAME = "plot"
EPILOG = examples([
    ("floatwind plot cases/studies/fig25_spar_family.yaml -o fig25",
     "the study's standard figures (after 'floatwind study')"),
])  # fmt: skip


def add_arguments(pl: argparse.ArgumentParser) -> None:
    pl.add_argument("study", help="study file (.yaml)")
    pl.add_argument("-o", "--output", help="the study's output folder (default: the study name)")
    pl.add_argument("--figures", help="folder for the figures (default: DIR/figures)")
    pl.add_argument(
        "--overwrite", action="store_true", help="replace figures that are already there"
    )


def main(args) -> int:
    from floatwind.io.safe import check_output, default_output, input_files
    from floatwind.studies import load_study
    from floatwind.studies.plots import standard_figures

    study = load_study(args.study)
    out = (pathlib.Path(args.output) if args.output
           else default_output(study.name, None, file=args.study))  # fmt: skip
    if not (out / "study.json").is_file():
        raise CaseError(f"no study results in {out} (run 'floatwind study' first)", file=args.study)
    figs = pathlib.Path(args.figures) if args.figures else out / "figures"
    check_output(figs, inputs=input_files(args.study), option="--figures", folder=True, mkdir=True)
    if figs.is_dir() and any(figs.iterdir()) and not args.overwrite:
        raise CaseError(
            f"{figs} already holds figures; add --overwrite to replace them", field="--figures"
        )
    for path in standard_figures(study, out, args.figures):
        print(f"wrote {path}")
    return 0
