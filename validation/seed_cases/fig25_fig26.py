"""Wang (2012) Fig. 25-26: platform pitch of the truncated-spar family and hull weight per unit
power, from the study ``cases/studies/fig25_spar_family.yaml`` (320 runs of 180 min).

    python validation/seed_cases/fig25_fig26.py [-o DIR] [--quick] [--workers N] [--dask ADDR]

``--quick`` runs a reduced study (2 realizations of 600 s); the full size is the dissertation's
(10 realizations of 10,800 s). Prints the Fig. 25 table and the Fig. 26 power table with the
dissertation's stated powers (4.16, 4.53, 4.76, 5.0 MW) beside ours, and writes the figures.
"""

from __future__ import annotations

import argparse
import logging
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
STUDY = ROOT / "cases" / "studies" / "fig25_spar_family.yaml"


def main(argv=None) -> int:
    import pandas as pd

    from floatwind.errors import CaseError
    from floatwind.studies import load_study, run_study
    from floatwind.studies.plots import pitch_table, power_table, standard_figures

    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("-o", "--output", default="fig25_fig26")
    p.add_argument("--quick", action="store_true", help="2 realizations of 600 s")
    p.add_argument("--workers", type=int)
    p.add_argument("--dask")
    p.add_argument("--resume", action="store_true")
    p.add_argument("--realizations", type=int, help="override the number of realizations")
    p.add_argument("--duration", type=float, help="override the run length (s)")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    over = {"realizations": 2, "duration": 600.0} if args.quick else {}
    if args.realizations is not None:
        over["realizations"] = args.realizations
    if args.duration is not None:
        over["duration"] = args.duration
    try:
        study = load_study(STUDY, over)
    except CaseError as err:
        print(f"fig25_fig26: {err} (the spar family case files are needed)", file=sys.stderr)
        return 2
    out = pathlib.Path(args.output)
    res = run_study(study, out, resume=args.resume, workers=args.workers, dask=args.dask)
    with pd.option_context("display.width", 160, "display.max_rows", 100):
        print(
            pitch_table(study, res.results).to_string(
                index=False, float_format=lambda v: f"{v:.4g}"
            )
        )
        print(
            power_table(study, res.results).to_string(
                index=False, float_format=lambda v: f"{v:.4g}"
            )
        )
    for path in standard_figures(study, out):
        print(f"wrote {path}")
    if len(res.failures):
        print(res.failures.to_string(index=False))
    return 0 if len(res.failures) == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
