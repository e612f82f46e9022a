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

One module per command, listed in :data:`COMMANDS` with the command's name and its line in
``floatwind --help`` (so that listing them imports none), each with

* ``NAME`` (the subcommand), ``EPILOG`` (the end of its ``--help``: its examples,
  ``_common.examples``),
* ``add_arguments(parser)`` and ``main(args) -> exit status``,
* ``NO_DASK = True`` when it never uses Dask (:func:`without_dask`),
* ``LEAN_START = True`` when its start-up may go without BLAS threads and the cyclic garbage
  collector (``_common.lean_start``; the command calls ``_common.start_done`` when it has
  started).

Only the command named on the command line has its module imported (:func:`_parser`). A command
module imports at its top only what building its parser needs (argparse and the helpers of this
package); what the command runs is imported inside ``main``, so ``floatwind --help`` and a cached
``floatwind run`` load nothing they do not use. The shared helpers are
``_common`` (options, the output check, errors -> exit status), ``_case`` (a case with its
overrides, the pre-run checks) and ``_results`` (writing a run's result).
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys

from floatwind import __version__
from floatwind.cli._common import GENERAL_EXAMPLES, exit_status, lean_start

#: the commands, in the order ``floatwind --help`` lists them: (name, module of this package,
#: the command's line in ``floatwind --help``). A command's module is imported only when it runs
#: or its own ``--help`` is asked for (:func:`_parser`), so a ``floatwind run`` loads no other
#: command's module (tests/test_startup.py).
COMMANDS = (
    ('run', 'run', 'run a case and write the result'),
    ('import-openfast', 'import_openfast', 'convert an OpenFAST deck (.fst) to a case file'),
    ('report', 'report', 'build a report (validation: run every validation)'),
    ('study', 'study', 'run a statistical / design-load-case study (docs/studies.md)'),
    ('dlc', 'dlc',
     'IEC 61400-3-1 design-load cases: runs, fatigue, extremes, load report (docs/dlc.md)'),
    ('plot', 'plot', 'standard figures of a finished study'),
    ('warmup', 'warmup',
     'compile the kernels ahead of time for the shipped cases (or the given ones)'),
    ('check', 'check', 'validate a case file and print the model summary'),
    ('mooring', 'mooring',
     'mooring statics: equilibrium, linearised 6x6 stiffness, line tensions, offset-tension '
     'curve'),
    ('mbdm', 'mbdm',
     "run an MBDM input file (Leble's note, sec. 7, 10): kinematic or dynamic analysis, netCDF"
     ' of body positions and Euler parameters (docs/mbdm.md)'),
    ('bem', 'bem',
     'potential-flow coefficients of a hull with Capytaine: WAMIT .1/.3/.hst + netCDF'),
    ('ss-fit', 'ss_fit',
     "state-space model of a WAMIT body's radiation memory (.ss, RdtnMod = 2) or wave "
     "excitation (.ssexctn, ExctnMod = 2) in HydroDyn's format (docs/potential_flow.md)"),
    ('linearize', 'linearize',
     'linear M, C, K about an operating point; natural periods, damping ratios, mode shapes'),
    ('rao', 'rao',
     'frequency-domain response: RAOs per heading, response spectra, significant responses'),
    ('campbell', 'campbell',
     'Campbell diagram: natural frequencies and damping ratios over rotor speeds'),
)  # fmt: skip


#: each command module's import, its name written out (tests/test_layers.py reads the imports)
_IMPORT = {
    "run": lambda: importlib.import_module("floatwind.cli.run"),
    "import_openfast": lambda: importlib.import_module("floatwind.cli.import_openfast"),
    "report": lambda: importlib.import_module("floatwind.cli.report"),
    "study": lambda: importlib.import_module("floatwind.cli.study"),
    "dlc": lambda: importlib.import_module("floatwind.cli.dlc"),
    "plot": lambda: importlib.import_module("floatwind.cli.plot"),
    "warmup": lambda: importlib.import_module("floatwind.cli.warmup"),
    "check": lambda: importlib.import_module("floatwind.cli.check"),
    "mooring": lambda: importlib.import_module("floatwind.cli.mooring"),
    "mbdm": lambda: importlib.import_module("floatwind.cli.mbdm"),
    "bem": lambda: importlib.import_module("floatwind.cli.bem"),
    "ss_fit": lambda: importlib.import_module("floatwind.cli.ss_fit"),
    "linearize": lambda: importlib.import_module("floatwind.cli.linearize"),
    "rao": lambda: importlib.import_module("floatwind.cli.rao"),
    "campbell": lambda: importlib.import_module("floatwind.cli.campbell"),
}


def command_module(name: str):
    """The module of command ``name`` (``floatwind.cli.<module>``), imported now."""
    return _IMPORT[next(mod for cmd, mod, _ in COMMANDS if cmd == name)]()


#: :func:`_chosen` when the command cannot be told without parsing: every command's arguments
EVERY = "*"


def _chosen(argv: list[str]) -> str | None:
    """The command ``argv`` names: its first argument that is not an option (the top-level
    options take no value); None when there is none or it is no command (``floatwind --help``,
    a misspelt command: argparse answers from the names alone); :data:`EVERY` after ``--``."""
    names = {cmd for cmd, _, _ in COMMANDS}
    for arg in argv:
        if arg == "--":
            return EVERY
        if not arg.startswith("-"):
            return arg if arg in names else None
    return None


def _parser(command: str | None = EVERY) -> argparse.ArgumentParser:
    """The parser of ``floatwind``: every command listed with its help line, with the arguments
    and examples of ``command`` (every command's: :data:`EVERY`; none: None), whose module is
    imported here; the other commands' modules are not."""
    p = argparse.ArgumentParser(
        prog="floatwind",
        description="Time-domain simulation of floating offshore wind turbines (momentum cloud method).",
        epilog=GENERAL_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"floatwind {__version__}")
    p.add_argument("-v", "--verbose", action="store_true", help="log progress details")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for name, _, help_line in COMMANDS:
        sp = sub.add_parser(name, help=help_line, formatter_class=argparse.RawDescriptionHelpFormatter)
        if command in (name, EVERY):
            mod = command_module(name)
            sp.epilog = mod.EPILOG
            mod.add_arguments(sp)
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
    # the named command's module only: `floatwind run` imports no other command's
    parser = _parser(_chosen(sys.argv[1:] if argv is None else list(argv)))
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    if args.command is None:
        parser.print_help()
        return 2
    command = command_module(args.command)
    from floatwind.cli._case import _ENV_SOURCE

    _ENV_SOURCE.clear()  # an earlier main([...]) in this process must not name its --env file
    if argv is None and getattr(command, "NO_DASK", False):
        without_dask()  # the command's own process only (not a caller of main([...]))
    if argv is None and getattr(command, "LEAN_START", False):
        lean_start()
    return exit_status(command.main, args)
