"""``floatwind run CASE`` (a case file or an OpenFAST deck) and ``floatwind run --from-study
STUDY --id RUN_ID``: one run, written as netCDF or OpenFAST .out/.outb."""

from __future__ import annotations

import argparse
import pathlib

from floatwind.cli._case import blame_env_file, case_overrides, is_deck, load_model, preflight
from floatwind.cli._common import (
    GENERAL_EXAMPLES,
    check_output,
    mooring_option,
    output_options,
    start_done,
)
from floatwind.cli._results import (
    binary_note,
    output_format,
    simulate_and_write,
    summary,
    write_result,
)
from floatwind.errors import CaseError

NAME = "run"
EPILOG = GENERAL_EXAMPLES  # its --help ends as floatwind --help does
NO_DASK = True  # a single run never uses Dask (floatwind.cli.without_dask)
LEAN_START = True  # one BLAS thread, no garbage collection while it starts (_common.lean_start)


def add_arguments(r: argparse.ArgumentParser) -> None:
    r.add_argument("case", nargs="?", help="case file (.yaml) or OpenFAST deck (.fst)")
    r.add_argument(
        "-o",
        "--output",
        help="output file (default: CASE name + .nc, .out or .outb in the current folder)",
    )
    r.add_argument("--tmax", type=float, help="end time (s), overrides simulation.t_max")
    r.add_argument("--dt", type=float, help="time step (s), overrides simulation.dt")
    r.add_argument(
        "--format",
        choices=("nc", "out", "outb"),
        default=None,
        help="nc: netCDF4 (default); out: OpenFAST text output in FAST units; outb: OpenFAST "
        "binary output in FAST units (FileID 3, float64, when every name fits 10 characters, "
        "else FileID 4, int16; docs/openfast_output_format.md)",
    )
    r.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    r.add_argument(
        "--env",
        metavar="FILE[:NAME]",
        help="replace the case's sea and wind by an environment file's (one of its named "
        "conditions, e.g. cases/environments/nielsen.yaml:U17)",
    )
    output_options(r)
    r.add_argument("--strict", action="store_true", help="treat sanity warnings as errors (exit 2)")
    r.add_argument(
        "--approximate",
        action="store_true",
        help="(.fst) replace unsupported OpenFAST settings by documented approximations",
    )
    mooring_option(r)
    r.add_argument("--from-study", metavar="STUDY", help="run one run of a study file alone")
    r.add_argument("--id", dest="run_id", metavar="RUN_ID", help="the run id (with --from-study)")


def main(args) -> int:
    import time

    from floatwind._kernels import aot
    from floatwind.io.safe import default_output, input_files
    from floatwind.simulate import simulate

    aot.start_recording()  # kernels this run calls, compiled ahead of time after it (issue 41)
    if args.from_study or args.run_id:
        return run_from_study(args)
    if not args.case:
        raise CaseError("give a case file, or --from-study STUDY --id RUN_ID", field="case")
    try:
        model = load_model(args.case, case_overrides(args),
                           approximate=getattr(args, "approximate", False), split="auto",
                           mooring=getattr(args, "mooring", "auto"))  # fmt: skip
    except CaseError as err:
        raise blame_env_file(err) from None
    if is_deck(args.case):  # which mooring line model runs, in one line (issue 38)
        for note in model.deck_import["notes"]:
            if "mooring model:" in note:
                print(note)
    fmt = output_format(args)
    out = (pathlib.Path(args.output) if args.output
           else default_output(model.name, fmt, file=args.case))  # fmt: skip
    check_output(args, out, input_files(args.case))
    preflight(model, args)
    start_done()  # garbage collection again (cli._common.lean_start)
    t0 = time.perf_counter()
    ds = simulate_and_write(
        lambda: simulate(model, progress=False if args.no_progress else None, light=True),
        out,
        fmt,
    )
    if isinstance(ds, int):
        return ds
    wall = time.perf_counter() - t0
    if getattr(args, "env", None):  # the case text alone would not say which sea and wind ran
        ds.attrs["environment_override"] = f"--env {args.env}"
    missing = []
    if is_deck(args.case):
        from floatwind.case.openfast.outputs import deck_channels, deck_outlist, not_computed

        res = model.deck_import
        for name, var in deck_channels(ds, model, res["info"]).items():
            if name not in ds:
                ds[name] = var
        missing = not_computed(deck_outlist(res["deck"]), ds)
        ds.attrs["openfast_deck"] = str(args.case)
        notes = [
            ln[len("# NOTE: ") :]
            for ln in model.source_text.splitlines()
            if ln.startswith("# NOTE: ")
        ]
        ds.attrs["openfast_approximations"] = "; ".join(notes) if notes else "none"
    write_result(ds, out, fmt)
    compiled_now = " including the one-time compilation" if getattr(model, "_compiled_now", False) else ""
    print(
        f"{model.name}: simulated {model.settings.t_max:g} s in {wall:.2f} s wall "
        f"({model.settings.t_max / wall:.1f}x real time{compiled_now}), batch {model.batch}"
    )
    for ld in model.loads:  # a fitted radiation model says how well it fits
        if getattr(ld, "fit_report", None):
            print(f"{ld.name}: {ld.fit_report}")
    if "realization" not in ds.dims:
        print(summary(ds))
    if missing:
        print(f"{len(missing)} OutList channel(s) of the deck not computed by floatwind: "
              f"{', '.join(missing)}")  # fmt: skip
    print(f"wrote {out}{binary_note(out, fmt)}")
    aot.build_recorded()
    return 0


def _one_run(ds):
    """A run of a study as a single-run Dataset (the study's run labels dropped)."""
    if "realization" in ds.dims and ds.sizes["realization"] == 1:
        ds = ds.isel(realization=0)
    return ds.drop_vars([c for c in ("run", "design", "condition", "variant") if c in ds.coords])


def run_from_study(args) -> int:
    """``floatwind run --from-study STUDY --id RUN_ID``: one run of a study, alone."""
    from floatwind.io.safe import input_files
    from floatwind.studies import load_study, run_one

    if not (args.from_study and args.run_id):
        raise CaseError("--from-study and --id go together", field="--id")
    from floatwind.io.safe import check_text_inputs

    check_text_inputs(input_files(args.from_study))
    study = load_study(args.from_study)
    study.run(args.run_id)  # an unknown id is refused before anything else
    fmt = output_format(args)
    out = pathlib.Path(args.output) if args.output else pathlib.Path(f"{args.run_id}.{fmt}")
    check_output(args, out, input_files(args.from_study))
    from floatwind.studies.execute import build_batch_model

    model = build_batch_model(study, [study.run(args.run_id)])
    preflight(model, args)
    start_done()
    ds = simulate_and_write(
        lambda: run_one(
            study,
            args.run_id,
            all_channels=True,
            progress=False if args.no_progress else None,
            model=model,
        ),
        out,
        fmt,
        prepare=_one_run,
    )
    if isinstance(ds, int):
        return ds
    write_result(_one_run(ds), out, fmt)
    print(f"{args.run_id}: simulated {float(ds.time[-1]):g} s")
    print(f"wrote {out}{binary_note(out, fmt)}")
    from floatwind._kernels import aot

    aot.build_recorded()
    return 0
