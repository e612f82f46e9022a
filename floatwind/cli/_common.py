"""What every command shares: the examples epilog, the output and batch options, the output
check, and the one place where an error becomes a line on stderr and an exit status."""

from __future__ import annotations

import argparse
import pathlib
import sys

from floatwind.errors import CaseError

#: the epilog of ``floatwind --help`` and ``floatwind run --help``
GENERAL_EXAMPLES = """\
examples:
  floatwind check cases/oc3_platform_decay.yaml      validate a case and print its model
  floatwind run cases/oc3_platform_decay.yaml        run it, write oc3_platform_decay.nc
  floatwind run CASE --tmax 60 --dt 0.01 -o out.nc   override the end time and the step
  floatwind run CASE --format out                    write an OpenFAST-style text .out (FAST units)
  floatwind run CASE --format outb                   write an OpenFAST binary .outb (FAST units)
  floatwind run cases/oc3_hywind.yaml --env cases/environments/nielsen.yaml:U25
                                                     the case in another environment
  floatwind run DECK.fst                             import an OpenFAST deck and run it
  floatwind import-openfast DECK.fst -o CASE.yaml    convert an OpenFAST deck to a case file
  floatwind report validation -o report.html --quick run the validations, write the HTML report
  floatwind dlc cases/dlc/oc3_hywind_iec.yaml --list  the expanded design-load-case table (CSV)

Case files are YAML; see docs/case_format.md. Results are netCDF (xarray) with SI units.
"""


def examples(pairs: list[tuple[str, str]]) -> str:
    """The epilog of a command's --help: its (example, what it does) pairs (tests/test_cli.py
    parses them out of the help and runs the cheap ones, from the repository root)."""
    lines = ["examples:"]
    for example, what in pairs:
        lines.append(f"  {example}")
        lines.append(f"      {what}")
    return "\n".join(lines) + "\n"


def output_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--overwrite", action="store_true", help="replace an existing output file (default: refuse)"
    )
    p.add_argument(
        "--mkdir", action="store_true", help="create the output's folder if it does not exist"
    )


def batch_options(p: argparse.ArgumentParser) -> None:
    """The options of the commands that run batches of runs (study, dlc)."""
    p.add_argument("--resume", action="store_true", help="run only what the folder lacks")
    p.add_argument(
        "--accept-changes",
        action="store_true",
        help="with --resume: re-run the batches made with inputs that changed since",
    )
    p.add_argument("--workers", type=int, help="local worker processes (default: one per core)")
    p.add_argument("--dask", metavar="ADDRESS", help="Dask scheduler address, or 'local'")
    p.add_argument("--batch-size", type=int, help="members per batch (default: from memory)")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bars")


def check_output(args, out: pathlib.Path, inputs) -> pathlib.Path:
    """``out`` checked as the command's output (floatwind.io.safe.check_output) with the
    command's --overwrite and --mkdir."""
    from floatwind.io.safe import check_output as check

    return check(
        out,
        inputs=inputs,
        overwrite=getattr(args, "overwrite", False),
        mkdir=getattr(args, "mkdir", False),
        option="--output" if getattr(args, "output", None) else "--output (default)",
    )


def check_batch_options(args) -> None:
    for key in ("workers", "batch_size"):
        val = getattr(args, key)
        if val is not None and val < 1:
            raise CaseError(
                f"must be a positive integer, got {val}", field=f"--{key.replace('_', '-')}"
            )
    if args.accept_changes and not args.resume:
        raise CaseError("goes with --resume", field="--accept-changes")


#: what a study (or a DLC set) writes into its folder (besides batches/)
STUDY_OUTPUTS = ("study.json", "runs.csv", "runs_summary.csv", "results.csv", "failures.csv",
                 "dlc.json", "dlc_table.csv", "fatigue.csv", "fatigue_bins.csv", "extremes.csv",
                 "governing.csv")  # fmt: skip


def check_study_folder(out: pathlib.Path, study_file: str) -> None:
    """The study folder must not be a file, must be writable, and none of the names the study
    writes may be one of its inputs."""
    from floatwind.io.safe import check_output as check
    from floatwind.io.safe import input_files, same_file

    inputs = input_files(study_file)
    target = out.resolve()
    written = [target / name for name in STUDY_OUTPUTS if (target / name).exists()]
    for inp in inputs:
        if (
            inp == target
            or inp.parent == target / "batches"
            or any(inp == target / name for name in STUDY_OUTPUTS)
            or any(same_file(inp, w) for w in written)  # a hard link to an input
        ):
            raise CaseError(
                f"{out} would overwrite an input of the study ({inp.name}); choose another folder",
                field="--output",
            )
    check(out, folder=True, mkdir=True, option="--output")


def exit_status(handler, args) -> int:
    """``handler(args)``'s exit status, an error turned into one line on stderr and its status:
    bad input (CaseError, OSError) 2, Ctrl-C 130, a bug 3 (its traceback only with -v).

    The command runs recording the files it reads (floatwind.io.safe.recording_reads): its
    output check refuses every one of them as an output, whichever loader read it."""
    from floatwind.io.safe import recording_reads

    try:
        with recording_reads():
            return handler(args)
    except CaseError as err:
        lines = getattr(err, "lines", None)
        if lines:  # an OpenFAST deck with unsupported settings: one line per setting
            for line in lines:
                print(f"floatwind: unsupported: {line}", file=sys.stderr)
            print(
                f"floatwind: error: {err.file}: {len(lines)} unsupported setting(s); "
                "--approximate replaces them by documented approximations",
                file=sys.stderr,
            )
            return 2
        print(f"floatwind: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("floatwind: interrupted", file=sys.stderr)
        return 130
    except OSError as err:
        print(f"floatwind: error: {err}", file=sys.stderr)
        return 2
    except Exception as err:  # a bug, not bad input: one line, the traceback only with -v
        if args.verbose:
            raise
        print(
            f"floatwind: internal error ({type(err).__name__}): {err} (rerun with -v for the traceback)",
            file=sys.stderr,
        )
        return 3


def mooring_option(parser) -> None:
    """``--mooring``: the line model of an OpenFAST deck's mooring file (issue 38)."""
    parser.add_argument(
        "--mooring",
        choices=("auto", "dynamic", "dynamic-states", "quasi-static"),
        default="auto",
        help="(.fst) mooring line model: auto (default: MoorDyn files run MoorDyn's lumped-mass "
        "lines, MAP++ files the quasi-static catenary), dynamic (lumped-mass lines sub-stepped "
        "inside DT), dynamic-states (their nodes as states of the run) or quasi-static",
    )


#: whether :func:`lean_start` switched the cyclic garbage collector off (:func:`start_done`)
_GC_PAUSED: list[bool] = []


def lean_start() -> None:
    """Start a command's own process without what it does not use (``floatwind run``).

    * One BLAS thread (``OPENBLAS_NUM_THREADS=1``, unless the user set it; only before NumPy is
      imported): NumPy's OpenBLAS otherwise starts a thread per core at its import, which spins
      waiting for work (~0.015-0.02 s of CPU per run here) for matrices a run never makes large
      enough to share out.
    * No cyclic garbage collection until :func:`start_done`: importing the run path and building
      the model made ~70 collections (0.02-0.03 s of CPU, a tenth of a cached 1-s run) and freed
      nothing a run needs freed (objects are still freed when their last reference goes).

    Nothing computed changes (the outputs of every reference deck are bit-identical with and
    without; docs/performance.md)."""
    import gc
    import os

    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    if gc.isenabled():
        gc.disable()
        _GC_PAUSED.append(True)


def start_done() -> None:
    """The command has started (imports, the model): the objects made so far are frozen out of
    the garbage collector's work (``gc.freeze``) and collection resumes, if :func:`lean_start`
    paused it."""
    import gc

    if _GC_PAUSED:
        _GC_PAUSED.clear()
        gc.freeze()
        gc.enable()
