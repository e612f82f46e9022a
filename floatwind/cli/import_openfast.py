"""``floatwind import-openfast DECK.fst -o CASE.yaml``: an OpenFAST deck as a case file."""

from __future__ import annotations

import argparse
import pathlib

from floatwind.cli._common import check_output, examples, mooring_option, output_options

NAME = "import-openfast"
EPILOG = examples([
    ("floatwind import-openfast ../shared/reference/openfast/ref01_pitch_decay/"
     "ref01_pitch_decay.fst -o ref01.yaml", "convert an OpenFAST deck to a case file"),
    ("floatwind import-openfast DECK.fst --split -o CASE.yaml",
     "keep tower, nacelle, rotor and blade as bodies (load channels)"),
])  # fmt: skip
NO_DASK = True


def add_arguments(i: argparse.ArgumentParser) -> None:
    i.add_argument("deck", help="OpenFAST main input file (.fst)")
    i.add_argument("-o", "--output", help="case file to write (default: DECK name + .yaml)")
    i.add_argument(
        "--approximate",
        action="store_true",
        help="replace unsupported settings by documented approximations (listed in the file)",
    )
    i.add_argument(
        "--split",
        action="store_true",
        help="keep tower, nacelle, rotor and blade 1 as bodies (for load channels)",
    )
    i.add_argument(
        "--morison-axis",
        choices=("undisplaced", "instantaneous"),
        default="undisplaced",
        help="Morison member axis: HydroDyn's undisplaced axis (default) or the instantaneous one",
    )
    mooring_option(i)
    output_options(i)


def main(args) -> int:
    from floatwind.case.openfast import import_openfast, write_case_yaml
    from floatwind.io.safe import atomic_write, input_files

    out = (
        pathlib.Path(args.output)
        if args.output
        else pathlib.Path(pathlib.Path(args.deck).stem + ".yaml")
    )
    if pathlib.Path(args.deck).is_file():
        check_output(args, out, input_files(args.deck))
    res = import_openfast(
        args.deck, approximate=args.approximate, split=args.split, morison_axis=args.morison_axis,
        mooring=args.mooring,
    )
    atomic_write(out, lambda tmp: write_case_yaml(res, tmp))
    bodies = ", ".join(b["name"] for b in res["case"]["bodies"])
    nb = len(res["case"]["bodies"])
    print(f"{args.deck}: imported ({nb} bod{'y' if nb == 1 else 'ies'}: {bodies})")
    for note in res["notes"]:
        print(f"  note: {note}")
    print(f"wrote {out}")
    return 0
