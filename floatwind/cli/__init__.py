"""The ``floatwind`` command.

    floatwind run CASE [-o OUT] [--tmax S] [--dt S] [--format nc|out|outb] [--approximate]
    floatwind check CASE
    floatwind study STUDY.yaml -o DIR [--resume] [--workers N] [--dask ADDRESS|local]
    floatwind run --from-study STUDY.yaml --id RUN_ID [-o OUT]
    floatwind plot STUDY.yaml -o DIR
    floatwind dlc DLC.yaml -o DIR [--list] [--report HTML] [--resume] [--seeds N]
    floatwind import-openfast DECK.fst -o CASE.yaml [--approximate] [--split]
    floatwind bem CASE_OR_MESH -o DIR [--frequencies ...] [--headings ...] [--panels N] [--no-lid]
    floatwind mbdm FILE [-o OUT.nc] [--method partitioning|baumgarte] [--tmax S] [--dt S]
    floatwind linearize CASE -o OUT.nc [--at rest|equilibrium|mean]
    floatwind rao CASE -o OUT.nc [--hs M --tp S] [--headings DEG ...]
    floatwind campbell CASE --rpm R1 R2 ... -o OUT.nc
    floatwind report validation -o report.html [--quick]
    floatwind report dlc DIR -o report.html
    floatwind report study DIR -o report.html

CASE is a YAML case file or an OpenFAST deck (.fst), imported on the fly.

Bad input exits with status 2 after one clear line on stderr; a diverging run writes what it
computed, reports the time and the state, and exits with status 1.

One module per command (:data:`COMMANDS`), each with

* ``NAME`` (the subcommand), ``HELP`` (its line in ``floatwind --help``), ``EPILOG`` (the end of
  its ``--help``: its examples, ``_common.examples``),
* ``add_arguments(parser)`` and ``main(args) -> exit status``,
* ``NO_DASK = True`` when it never uses Dask (:func:`without_dask`).

A command module imports at its top only what building the parser needs (argparse and the
helpers of this package); what the command runs is imported inside ``main``, so ``floatwind
--help`` and a cached ``floatwind run`` load nothing they do not use. The shared helpers are
``_common`` (options, the output check, errors -> exit status), ``_case`` (a case with its
overrides, the pre-run checks) and ``_results`` (writing a run's result).
"""

from __future__ import annotations

import argparse
import logging
import sys

from floatwind import __version__
from floatwind.cli import (
    bem,
    campbell,
    check,
    dlc,
    import_openfast,
    linearize,
    mbdm,
    mooring,
    plot,
    rao,
    report,
    run,
    ss_fit,
    study,
    warmup,
)
from floatwind.cli._common import GENERAL_EXAMPLES, exit_status

#: the command modules, in the order ``floatwind --help`` lists them
COMMANDS = (run, import_openfast, report, study, dlc, plot, warmup, check, mooring, mbdm, bem,
            ss_fit, linearize, rao, campbell)  # fmt: skip


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="floatwind",
        description="Time-domain simulation of floating offshore wind turbines (momentum cloud method).",
        epilog=GENERAL_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"floatwind {__version__}")
    p.add_argument("-v", "--verbose", action="store_true", help="log progress details")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for mod in COMMANDS:
        mod.add_arguments(sub.add_parser(
            mod.NAME, help=mod.HELP, epilog=mod.EPILOG,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        ))  # fmt: skip
    return p


def without_dask() -> None:
    """Keep Dask out of a process that never uses it (a single run, a check, an import).

    xarray probes for Dask (imports ``dask``, ``dask.array`` and ``dask.distributed``) the first
    time it builds a Variable or writes a file, whenever Dask is installed: ~0.7 s of CPU, a
    third of a short OpenFAST-deck run (docs/performance.md). Marking the module absent
    (``sys.modules["dask"] = None``, Python's documented way to make an import fail) makes xarray
    treat it as not installed. Only for commands that never use Dask (``study --dask`` does), and
    only if nothing imported it yet.

    pyarrow goes the same way: pandas (imported by xarray) imports it at start-up only to read
    its version when it is installed (~0.1-0.2 s); these commands never read or write Arrow
    data (pandas then behaves as in an installation without pyarrow)."""
    for name in _UNUSED:
        if name not in sys.modules:
            sys.modules[name] = None


#: what :func:`without_dask` keeps out of a command's process (tests/test_startup.py)
_UNUSED = ("dask", "pyarrow")


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    if args.command is None:
        parser.print_help()
        return 2
    command = next(mod for mod in COMMANDS if mod.NAME == args.command)
    from floatwind.cli._case import _ENV_SOURCE

    _ENV_SOURCE.clear()  # an earlier main([...]) in this process must not name its --env file
    if argv is None and getattr(command, "NO_DASK", False):
        without_dask()  # the command's own process only (not a caller of main([...]))
    return exit_status(command.main, args)
