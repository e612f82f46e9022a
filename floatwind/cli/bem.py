"""``floatwind bem SOURCE -o DIR``: potential-flow coefficients of a hull (floatwind.bem)."""

from __future__ import annotations

import argparse
import sys

from floatwind.cli._common import examples

NAME = "bem"
EPILOG = examples([
    ("floatwind bem cases/oc3_hywind.yaml -o oc3_bem",
     "WAMIT .1/.3/.hst + netCDF of the OC3 hull with Capytaine (pip install -e '.[bem]')"),
    ("floatwind bem cases/oc3_hywind.yaml -o oc3_coarse --panels 400 --frequencies 0.2:2.0:0.2",
     "a coarse mesh and 10 frequencies (seconds; cached by the hull's fingerprint)"),
    ("floatwind bem hull.yaml -o hull_bem --drift --headings 0:180:15",
     "also hull.8: the restrained hull's far-field mean drift (WAMIT .8, every heading pair)"),
])  # fmt: skip


def add_arguments(bm: argparse.ArgumentParser) -> None:
    bm.add_argument("source", help="case file (.yaml: its hydrostatics members) or mesh file")
    bm.add_argument("-o", "--output", required=True, help="output folder")
    bm.add_argument("--frequencies", nargs="+", metavar="W", help="rad/s: values or "
                    "START:STOP:STEP (default: the shared OC3 grid, 117 from 0.02 to 4.0)")
    bm.add_argument("--headings", nargs="+", metavar="DEG", help="wave headings in deg: values "
                    "or START:STOP:STEP (default 0 15 30 45)")
    bm.add_argument("--panels", type=int, default=1600, help="hull panels of a profile (1600)")
    bm.add_argument("--no-lid", action="store_true", help="no irregular-frequency lid")
    bm.add_argument("--depth", default="inf", help="water depth: m, 'inf' (default) or 'case'")
    bm.add_argument("--drift", action="store_true", help="also NAME.8: the mean drift of the "
                    "restrained hull (Capytaine's far-field formulation), for MnDrift/NewmanApp = 8")  # fmt: skip
    bm.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    bm.add_argument("--overwrite", action="store_true", help="replace existing files of the "
                    "hull's name in the folder")  # fmt: skip


def main(args) -> int:
    from floatwind import bem

    run = bem.run_bem(
        args.source, args.output, panels=args.panels, lid=not args.no_lid,
        omega=bem.parse_values(args.frequencies, "--frequencies", bem.DEFAULT_OMEGA),
        headings_deg=bem.parse_values(args.headings, "--headings", bem.DEFAULT_HEADINGS_DEG),
        water_depth=args.depth, progress=not args.no_progress and sys.stderr.isatty(),
        drift=args.drift, overwrite=args.overwrite,
    )  # fmt: skip
    print(bem.summary(run))
    return 0
