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
    floatwind report validation -o report.html [--quick]
    floatwind report dlc DIR -o report.html
    floatwind report study DIR -o report.html

CASE is a YAML case file or an OpenFAST deck (.fst), imported on the fly.

Bad input exits with status 2 after one clear line on stderr; a diverging run writes what it
computed, reports the time and the state, and exits with status 1.
"""

from __future__ import annotations

import argparse
import logging
import pathlib
import sys

from floatwind import __version__
from floatwind.errors import CaseError, SimulationError
from floatwind.integrate.base import Interrupted

log = logging.getLogger("floatwind")

EPILOG = """\
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


#: examples of each subcommand's --help, runnable from the repository root (tests/test_cli.py
#: parses them out of the help and runs the cheap ones)
SUB_EXAMPLES = {
    "check": [
        ("floatwind check cases/oc3_platform_decay.yaml", "validate a case, print its model"),
        ("floatwind check cases/oc3_hywind.yaml --env cases/environments/nielsen.yaml:U08",
         "the same case in Nielsen's 8 m/s condition"),
    ],
    "import-openfast": [
        ("floatwind import-openfast ../shared/reference/openfast/ref01_pitch_decay/"
         "ref01_pitch_decay.fst -o ref01.yaml", "convert an OpenFAST deck to a case file"),
        ("floatwind import-openfast DECK.fst --split -o CASE.yaml",
         "keep tower, nacelle, rotor and blade as bodies (load channels)"),
    ],
    "bem": [
        ("floatwind bem cases/oc3_hywind.yaml -o oc3_bem",
         "WAMIT .1/.3/.hst + netCDF of the OC3 hull with Capytaine (pip install -e '.[bem]')"),
        ("floatwind bem cases/oc3_hywind.yaml -o oc3_coarse --panels 400 --frequencies 0.2:2.0:0.2",
         "a coarse mesh and 10 frequencies (seconds; cached by the hull's fingerprint)"),
    ],
    "ss-fit": [
        ("floatwind ss-fit ../shared/reference/openfast/ref07_potential_decay/HydroData/spar "
         "-o spar.ss", "frequency-domain fit of the OC3 hull's radiation kernels (1e-3), as .ss"),
        ("floatwind ss-fit HydroData/marin_semi --ulen 1 --tolerance 3e-3 -o marin_semi.ss",
         "a looser fit (fewer states) of another body's files"),
    ],
    "mooring": [
        ("floatwind mooring cases/oc3_hywind_catenary.yaml --figure mooring.png",
         "equilibrium, 6x6 stiffness, line tensions, offset-tension figure"),
    ],
    "study": [
        ("floatwind study cases/studies/fig25_spar_family.yaml -o fig25 --list",
         "list the run ids of a study (runs nothing)"),
        ("floatwind study cases/studies/fig25_spar_family.yaml -o fig25",
         "run it (minutes; Ctrl-C keeps the finished batches)"),
        ("floatwind study cases/studies/fig25_spar_family.yaml -o fig25 --resume",
         "finish an interrupted study"),
    ],
    "plot": [
        ("floatwind plot cases/studies/fig25_spar_family.yaml -o fig25",
         "the study's standard figures (after 'floatwind study')"),
    ],
    "warmup": [
        ("floatwind warmup cases/oc3_platform_decay.yaml",
         "compile what this case needs (once per installation)"),
        ("floatwind warmup", "compile for every case under cases/ (a few minutes, once)"),
    ],
    "report": [
        ("floatwind report validation -o report.html --quick",
         "run the validations on short windows, write the HTML report"),
        ("floatwind report dlc iec -o iec/report.html",
         "the load report of a finished 'floatwind dlc' folder"),
        ("floatwind report study fig25 -o fig25/report.html",
         "the report of a finished 'floatwind study' folder"),
    ],
    "mbdm": [
        ("floatwind mbdm cases/mbdm/body_on_spring/mbdm -o spring.nc",
         "the note's body on a spring (sec. 10.1; its mbdm.expert.mooring is read too)"),
        ("floatwind mbdm cases/mbdm/slider_crank_dynamic/mbdm -o crank.nc --tmax 0.2",
         "the slider-crank dynamic case (sec. 10.3) over 0.2 s, coordinate partitioning"),
    ],
    "dlc": [
        ("floatwind dlc cases/dlc/oc3_hywind_iec.yaml --list",
         "print the expanded run table as CSV (runs nothing)"),
        ("floatwind dlc cases/dlc/oc3_hywind_iec.yaml -o iec --report iec/report.html",
         "run DLC 1.2, 1.6, 6.1 (432 runs, minutes), fatigue, extremes, load report"),
        ("floatwind dlc cases/dlc/oc3_hywind_iec.yaml -o iec --resume",
         "finish an interrupted DLC set"),
    ],
}  # fmt: skip


def _examples(cmd: str) -> str:
    lines = ["examples:"]
    for example, what in SUB_EXAMPLES[cmd]:
        lines.append(f"  {example}")
        lines.append(f"      {what}")
    return "\n".join(lines) + "\n"


def _batch_options(p: argparse.ArgumentParser) -> None:
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


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="floatwind",
        description="Time-domain simulation of floating offshore wind turbines (momentum cloud method).",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"floatwind {__version__}")
    p.add_argument("-v", "--verbose", action="store_true", help="log progress details")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    r = sub.add_parser(
        "run",
        help="run a case and write the result",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
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
    _output_options(r)
    r.add_argument("--strict", action="store_true", help="treat sanity warnings as errors (exit 2)")
    r.add_argument(
        "--approximate",
        action="store_true",
        help="(.fst) replace unsupported OpenFAST settings by documented approximations",
    )

    raw = argparse.RawDescriptionHelpFormatter

    def command(name: str, help_: str) -> argparse.ArgumentParser:
        """A subcommand whose --help ends with its examples (SUB_EXAMPLES)."""
        return sub.add_parser(name, help=help_, epilog=_examples(name), formatter_class=raw)

    i = command("import-openfast", "convert an OpenFAST deck (.fst) to a case file")
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
    _output_options(i)

    rp = command("report", "build a report (validation: run every validation)")
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
    _output_options(rp)

    r.add_argument("--from-study", metavar="STUDY", help="run one run of a study file alone")
    r.add_argument("--id", dest="run_id", metavar="RUN_ID", help="the run id (with --from-study)")

    st = command("study", "run a statistical / design-load-case study (docs/studies.md)")
    st.add_argument("study", help="study file (.yaml)")
    st.add_argument("-o", "--output", help="output folder (default: the study name)")
    _batch_options(st)
    st.add_argument(
        "--strict", action="store_true", help="treat sanity warnings as errors (exit 2)"
    )
    st.add_argument("--duration", type=float, help="override the run length (s)")
    st.add_argument("--realizations", type=int, help="override the number of realizations")
    st.add_argument("--list", action="store_true", help="list the run ids and exit")

    dl = command("dlc", "IEC 61400-3-1 design-load cases: runs, fatigue, extremes, load report (docs/dlc.md)")
    dl.add_argument("dlc", help="DLC file (.yaml)")
    dl.add_argument("-o", "--output", help="output folder (default: the DLC set's name)")
    dl.add_argument("--list", action="store_true", help="print the expanded run table (CSV), run nothing")
    dl.add_argument("--report", metavar="HTML", help="also write the load report")
    dl.add_argument("--seeds", type=int, help="override the number of seeds of every load case")
    dl.add_argument("--analysis", type=float, metavar="S", help="override the analysis window (s)")
    _batch_options(dl)

    pl = command("plot", "standard figures of a finished study")
    pl.add_argument("study", help="study file (.yaml)")
    pl.add_argument("-o", "--output", help="the study's output folder (default: the study name)")
    pl.add_argument("--figures", help="folder for the figures (default: DIR/figures)")
    pl.add_argument(
        "--overwrite", action="store_true", help="replace figures that are already there"
    )

    wu = command("warmup", "compile the kernels ahead of time for the shipped cases (or the given ones)")
    wu.add_argument("cases", nargs="*", help="case files (default: every case under cases/)")

    c = command("check", "validate a case file and print the model summary")
    c.add_argument("case", help="case file (.yaml)")
    c.add_argument("--env", metavar="FILE[:NAME]", help="as 'floatwind run --env'")

    m = command("mooring", "mooring statics: equilibrium, linearised 6x6 stiffness, line tensions, "
        "offset-tension curve")
    m.add_argument("case", help="case file (.yaml) or OpenFAST deck (.fst)")
    m.add_argument(
        "--figure",
        help="offset-tension figure (.png/.pdf; default <case>_mooring.png in the current folder)",
    )
    m.add_argument("--surge-max", type=float, default=40.0, help="surge sweep 0..S m (default 40)")
    m.add_argument(
        "--at-rest", action="store_true", help="linearise at the initial pose, not at equilibrium"
    )
    _output_options(m)

    mb = command("mbdm", "run an MBDM input file (Leble's note, sec. 7, 10): kinematic or dynamic "
                 "analysis, netCDF of body positions and Euler parameters (docs/mbdm.md)")
    mb.add_argument("file", help="the main input file ('mbdm'); FILE.expert.mooring and "
                    "FILE.expert.forces beside it are read when present")
    mb.add_argument("-o", "--output", help="netCDF file (default: the file's Name + .nc)")
    mb.add_argument("--method", choices=("partitioning", "baumgarte"), default="partitioning",
                    help="dynamic analysis: coordinate partitioning (sec. 5, as MBDM; default) "
                    "or Baumgarte stabilisation")
    mb.add_argument("--tmax", type=float, help="end time (s), overrides the file's t_end")
    mb.add_argument("--dt", type=float, help="time step (s), overrides the file's dt")
    _output_options(mb)

    bm = command("bem", "potential-flow coefficients of a hull with Capytaine: WAMIT .1/.3/.hst + netCDF")
    bm.add_argument("source", help="case file (.yaml: its hydrostatics members) or mesh file")
    bm.add_argument("-o", "--output", required=True, help="output folder")
    bm.add_argument("--frequencies", nargs="+", metavar="W", help="rad/s: values or "
                    "START:STOP:STEP (default: the shared OC3 grid, 117 from 0.02 to 4.0)")
    bm.add_argument("--headings", nargs="+", metavar="DEG", help="wave headings in deg: values "
                    "or START:STOP:STEP (default 0 15 30 45)")
    bm.add_argument("--panels", type=int, default=1600, help="hull panels of a profile (1600)")
    bm.add_argument("--no-lid", action="store_true", help="no irregular-frequency lid")
    bm.add_argument("--depth", default="inf", help="water depth: m, 'inf' (default) or 'case'")
    bm.add_argument("--no-progress", action="store_true", help="hide the progress bar")

    sf = command("ss-fit", "state-space model of a WAMIT body's radiation memory (.ss, RdtnMod = "
                 "2) or wave excitation (.ssexctn, ExctnMod = 2) in HydroDyn's format "
                 "(docs/potential_flow.md)")
    sf.add_argument("wamit", help="WAMIT file root (path without .1/.3)")
    sf.add_argument("-o", "--output", required=True, help="the file to write: NAME.ss "
                    "(radiation) or NAME.ssexctn (excitation)")
    sf.add_argument("--heading", type=float, default=0.0, help="excitation: wave direction in "
                    "deg (0; must be SeaState's WaveDir)")
    sf.add_argument("--tc", type=float, help="excitation: time offset Tc in s (default: the "
                    "delay that makes the impulse response causal to 1e-4 of its energy)")
    sf.add_argument("--method", choices=("fdi", "era"), default="fdi", help="frequency-domain "
                    "identification (default) or eigensystem realisation of the kernel")
    sf.add_argument("--tolerance", type=float, help="fit tolerance (radiation: fdi 1e-3, era "
                    "3e-4; excitation 1e-2)")
    sf.add_argument("--max-order", type=int, help="largest order per entry (radiation 24, "
                    "excitation 40)")
    sf.add_argument("--rho", type=float, default=1025.0, help="water density (1025 kg/m^3)")
    sf.add_argument("--gravity", type=float, default=9.80665, help="excitation: gravity (9.80665)")
    sf.add_argument("--ulen", type=float, default=1.0, help="WAMIT ULEN of the files (1)")
    sf.add_argument("--rdtn-tmax", type=float, default=60.0, help="kernel length for era (60 s)")
    _output_options(sf)
    return p


def _output_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--overwrite", action="store_true", help="replace an existing output file (default: refuse)"
    )
    p.add_argument(
        "--mkdir", action="store_true", help="create the output's folder if it does not exist"
    )


def _check_output(args, out: pathlib.Path, inputs) -> pathlib.Path:
    from floatwind.io.safe import check_output

    return check_output(
        out,
        inputs=inputs,
        overwrite=getattr(args, "overwrite", False),
        mkdir=getattr(args, "mkdir", False),
        option="--output" if getattr(args, "output", None) else "--output (default)",
    )


def _is_deck(path: str) -> bool:
    return pathlib.Path(path).suffix.lower() == ".fst"


def _load(path: str, overrides: dict | None = None, approximate: bool = False, split=False):
    from floatwind.io.safe import check_text_inputs, input_files

    if not _is_deck(path):
        check_text_inputs(input_files(path))
    if _is_deck(path):
        from floatwind.case.openfast_import import import_openfast, model_from_deck

        res = import_openfast(path, approximate=approximate, split=split)
        model = model_from_deck(path, approximate=approximate, overrides=overrides, result=res)
        model.deck_import = res  # what the run needs to write the deck's OutList channels
        return model
    from floatwind.case import load_case

    return load_case(path, overrides)


def _overrides(args) -> dict:
    out = {}
    for key, val in (("t_max", getattr(args, "tmax", None)), ("dt", getattr(args, "dt", None))):
        if val is not None:
            if not val > 0:
                raise CaseError(f"must be positive, got {val:g}", field=f"--{key.replace('_', '')}")
            out[f"simulation.{key}"] = val
    if getattr(args, "env", None):
        out.update(_environment_overrides(args.env))
    return out


def _environment_overrides(spec: str) -> dict:
    """``--env FILE[:NAME]``: the ``environment:`` of an environment file (one of its named
    ``conditions:`` when it has them, cases/environments/*.yaml) replacing the case's sea and
    wind (and whatever else it sets); the case keeps the rest of its environment."""
    import difflib

    import yaml

    path, _, name = spec.partition(":") if not pathlib.Path(spec).is_file() else (spec, "", "")
    file = pathlib.Path(path)
    if not file.is_file():
        raise CaseError(f"environment file not found: {path}", field="--env")
    try:
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise CaseError(f"not valid YAML: {exc}", field="--env", file=str(file)) from None
    if not isinstance(data, dict):
        raise CaseError("expected a mapping with 'environment' or 'conditions'", field="--env",
                        file=str(file))  # fmt: skip
    if "conditions" in data:
        conds = {str(c.get("name")): c for c in data["conditions"] if isinstance(c, dict)}
        if not name:
            raise CaseError(
                f"the file holds {len(conds)} conditions: add ':NAME', one of {sorted(conds)}",
                field="--env", file=str(file),
            )  # fmt: skip
        if name not in conds:
            close = difflib.get_close_matches(name, list(conds), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise CaseError(f"no condition {name!r}{hint}; conditions are {sorted(conds)}",
                            field="--env", file=str(file))  # fmt: skip
        env = conds[name].get("environment")
        index = [str(c.get("name")) for c in data["conditions"] if isinstance(c, dict)].index(name)
        prefix = f"conditions[{index}]."
    else:
        prefix = ""
        if name:
            raise CaseError(f"the file has no 'conditions' to pick {name!r} from", field="--env",
                            file=str(file))  # fmt: skip
        env = data.get("environment")
    if not isinstance(env, dict):
        raise CaseError("no 'environment' mapping to apply", field="--env", file=str(file))
    out = {f"environment.{k}": v for k, v in env.items()}
    _ENV_SOURCE[:] = [(str(file), prefix, list(out))]
    return out


#: (file, field prefix, keys) of the last --env file read: an error in its values names it
_ENV_SOURCE: list[tuple[str, str, list[str]]] = []


def _blame_env_file(err: CaseError) -> CaseError:
    """A case error in a value the --env file set names that file and its field."""
    if _ENV_SOURCE and err.field:
        file, prefix, keys = _ENV_SOURCE[0]
        if any(err.field == k or err.field.startswith(k + ".") for k in keys):
            return CaseError(err.reason, field=prefix + err.field, file=file)
    return err


def _clean(x: float, scale: float) -> float:
    """``x`` with round-off noise (below 1e-12 of ``scale``) shown as 0 and no negative zero."""
    return 0.0 if abs(x) <= 1e-12 * scale else float(x) + 0.0


def _summary(ds) -> str:
    import numpy as np

    lines = [f"{'channel':<10s} {'units':<6s} {'min':>12s} {'max':>12s} {'final':>12s}"]
    for name in ("PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmRoll", "PtfmPitch", "PtfmYaw"):
        v = np.asarray(ds[name].values, dtype=float)
        scale = max(float(np.nanmax(np.abs(v))), 1e-300) if v.size else 1.0
        lo, hi, fin = (_clean(x, scale) for x in (np.nanmin(v), np.nanmax(v), np.ravel(v)[-1]))
        lines.append(
            f"{name:<10s} {ds[name].attrs['units']:<6s} {lo:12.5g} {hi:12.5g} {fin:12.5g}"
        )
    return "\n".join(lines)


def _write(ds, path: pathlib.Path, fmt: str) -> pathlib.Path:
    """Write the result through a temporary file renamed over ``path`` (a killed or failing write
    leaves an older result intact)."""
    from floatwind.io.safe import atomic_write

    desc = f"floatwind {__version__}: {ds.attrs.get('case_name', '')}"
    if fmt == "out":
        from floatwind.io.openfast import write_out

        return atomic_write(path, lambda tmp: write_out(tmp, ds, description=desc))
    if fmt == "outb":
        from floatwind.io.openfast import write_outb

        return atomic_write(
            path, lambda tmp: write_outb(tmp, ds, description=desc, file_id="auto")
        )
    from floatwind.io.netcdf import write_netcdf

    return atomic_write(path, lambda tmp: write_netcdf(ds, tmp))


def _simulate_and_write(run, out: pathlib.Path, fmt: str, prepare=None):
    """``run()`` -> Dataset; on a failure or Ctrl-C write the partial record to ``out`` and return
    the exit status (1 or 130) instead of the Dataset."""
    try:
        return run()
    except SimulationError as err:
        interrupted = isinstance(err, Interrupted)
        partial = getattr(err, "dataset", None)
        if partial is not None:
            if prepare is not None:
                partial = prepare(partial)
            _write(partial, out, fmt)
            print(
                f"floatwind: wrote the {partial.sizes['time']} output steps computed before the "
                f"{'interruption' if interrupted else 'failure'} to {out}",
                file=sys.stderr,
            )
        if interrupted:
            print(f"floatwind: interrupted at t = {err.time:g} s", file=sys.stderr)
            return 130
        print(f"floatwind: simulation failed: {err}", file=sys.stderr)
        return 1


def cmd_run(args) -> int:
    import time

    from floatwind.io.safe import input_files
    from floatwind.simulate import simulate

    if args.from_study or args.run_id:
        return cmd_run_from_study(args)
    if not args.case:
        raise CaseError("give a case file, or --from-study STUDY --id RUN_ID", field="case")
    try:
        model = _load(args.case, _overrides(args), approximate=getattr(args, "approximate", False),
                      split="auto")  # fmt: skip
    except CaseError as err:
        raise _blame_env_file(err) from None
    fmt = _format(args)
    out = pathlib.Path(args.output) if args.output else pathlib.Path(f"{model.name}.{fmt}")
    _check_output(args, out, input_files(args.case))
    _preflight(model, args)
    t0 = time.perf_counter()
    ds = _simulate_and_write(
        lambda: simulate(model, progress=False if args.no_progress else None), out, fmt
    )
    if isinstance(ds, int):
        return ds
    wall = time.perf_counter() - t0
    if getattr(args, "env", None):  # the case text alone would not say which sea and wind ran
        ds.attrs["environment_override"] = f"--env {args.env}"
    missing = []
    if _is_deck(args.case):
        from floatwind.case.openfast_outputs import deck_channels, deck_outlist, not_computed

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
    _write(ds, out, fmt)
    compiled_now = " including the one-time compilation" if getattr(model, "_compiled_now", False) else ""
    print(
        f"{model.name}: simulated {model.settings.t_max:g} s in {wall:.2f} s wall "
        f"({model.settings.t_max / wall:.1f}x real time{compiled_now}), batch {model.batch}"
    )
    for ld in model.loads:  # a fitted radiation model says how well it fits
        if getattr(ld, "fit_report", None):
            print(f"{ld.name}: {ld.fit_report}")
    if "realization" not in ds.dims:
        print(_summary(ds))
    if missing:
        print(f"{len(missing)} OutList channel(s) of the deck not computed by floatwind: "
              f"{', '.join(missing)}")  # fmt: skip
    print(f"wrote {out}{_binary_note(out, fmt)}")
    return 0


def _format(args) -> str:
    """--format, else from the output's extension (.out, .outb), else netCDF."""
    if args.format:
        return args.format
    ext = pathlib.Path(args.output).suffix.lower() if args.output else ""
    return {".out": "out", ".outb": "outb"}.get(ext, "nc")


def _binary_note(out: pathlib.Path, fmt: str) -> str:
    """Which OpenFAST binary layout a written .outb has (the writer chose it from the names)."""
    if fmt != "outb":
        return ""
    import struct

    with open(out, "rb") as fh:
        (fid,) = struct.unpack("<h", fh.read(2))
    if fid == 3:
        return " (OpenFAST binary FileID 3: float64, lossless)"
    return (
        f" (OpenFAST binary FileID {fid}: int16-compressed, about 4.8 significant digits of each "
        "channel's range, because channel names longer than 10 characters do not fit FileID 3)"
    )


def _preflight(model, args) -> None:
    """Before a run: the memory it needs (refused beyond the machine's), the sanity warnings
    (one line each on stderr; errors with --strict), the compile notice on a first run."""
    from floatwind.simulate.sanity import check_memory, compile_notice, sanity_warnings

    check_memory(model)
    warnings = sanity_warnings(model)
    for w in warnings:
        print(f"floatwind: warning: {w}", file=sys.stderr)
    if warnings and getattr(args, "strict", False):
        raise CaseError(
            f"{len(warnings)} sanity warning(s) and --strict: {warnings[0]}", field="--strict"
        )
    note = compile_notice(model)
    if note:
        print(f"floatwind: {note}", file=sys.stderr)
        model._compiled_now = True  # the real-time factor printed after the run includes it


def cmd_warmup(args) -> int:
    """``floatwind warmup [CASE ...]``: compile the stepping of each case's load combination
    (a 1-s run whose result is thrown away), so that the first real run starts at once; prints
    one line per case and what it cost."""
    import time

    from floatwind.simulate import simulate
    from floatwind.simulate.sanity import compile_notice

    paths = [pathlib.Path(c) for c in args.cases]
    if not paths:
        root = pathlib.Path(__file__).resolve().parents[1] / "cases"
        paths = sorted(p for p in root.rglob("*.yaml") if "studies" not in p.parts
                       and "environments" not in p.parts)  # fmt: skip
        if not paths:
            raise CaseError("no cases found beside the package: give case files", field="cases")
    for path in paths:
        model = _load(str(path), {"simulation.t_max": 1.0})  # a short run: the sea and wind too
        needed = compile_notice(model) is not None
        t0 = time.perf_counter()
        simulate(model, progress=False)
        what = f"compiled in {time.perf_counter() - t0:.1f} s" if needed else "already compiled"
        print(f"{path}: {what}")
    return 0


def cmd_check(args) -> int:
    try:
        model = _load(args.case, _overrides(args), approximate=False)
    except CaseError as err:
        raise _blame_env_file(err) from None
    print(f"{args.case}: OK")
    print(model.summary())
    return 0


def cmd_mooring(args) -> int:
    """``floatwind mooring CASE``: the mooring's statics (floatwind.simulate.mooring)."""
    import numpy as np

    from floatwind.io.safe import atomic_write, input_files
    from floatwind.simulate import mooring as sm

    model = _load(args.case)
    loads = sm.mooring_loads(model)
    if not loads:
        raise CaseError("the case has no mooring_catenary or mooring_taut load", field="loads")
    body = loads[0].body
    fig_path = pathlib.Path(args.figure or f"{pathlib.Path(args.case).stem}_mooring.png").resolve()
    fig_path = _check_output(args, fig_path, input_files(args.case))
    if args.at_rest:
        origin, R = sm.rest_pose(model, body)
        where = "at the initial pose"
    else:
        from floatwind.simulate.equilibrium import static_equilibrium
        from floatwind.simulate.system import System

        eq = static_equilibrium(model)
        system = System(model)
        y = system.initial_state()[:1].copy()
        y[:, 6:] = 0.0
        y[0, :6] = eq["q"]
        origin, R = sm.pose_of_state(model, system, y, body)
        where = "at the static equilibrium (" + ", ".join(
            f"{k} {eq[k]:.6g}" for k in ("PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmRoll",
                                         "PtfmPitch", "PtfmYaw")
        ) + " m/rad)"  # fmt: skip
    K = sm.mooring_stiffness(model, origin, R)
    f, mom, ch = sm.mooring_wrench(model, origin, R)
    print(f"{args.case}: mooring of body '{model.tree.bodies[body].name}' {where}")
    print("linearised mooring stiffness K (F = -K q; q = x, y, z [m], rx, ry, rz [rad] about the "
          "inertial axes; moments about the reference point), N/m, N/rad, N m/rad:")  # fmt: skip
    for row in K:
        print("  " + " ".join(f"{v:13.5e}" for v in row))
    print(
        "mooring force (N) "
        + " ".join(f"{v:.6g}" for v in f[0])
        + ", moment about the reference point (N m) "
        + " ".join(f"{v:.6g}" for v in mom[0])
    )
    for name in sorted(ch):
        if name.startswith(("FAIRTEN", "ANCHTEN", "LAYLEN")) or "FAIRTEN" in name:
            unit = "m" if "LAYLEN" in name else "N"
            print(f"  {name:<12s} {float(ch[name][0]):14.6g} {unit}")
    nodes = sorted({n[: n.rindex("P")] for n in ch if n.startswith("Point") and n[-2:-1] == "P"})
    for node in nodes:  # connect nodes: equilibrium positions (inertial)
        xyz = " ".join(f"{float(ch[f'{node}P{ax}'][0]):.6g}" for ax in "xyz")
        print(f"  {node:<12s} at {xyz} m")
    surge = np.linspace(0.0, float(args.surge_max), 81)
    curve = sm.offset_curve(model, origin, R, surge)
    tens = sorted(
        (k for k in curve if k.endswith(tuple("0123456789")) and "FAIRTEN" in k),
        key=lambda k: int("".join(c for c in k if c.isdigit()) or 0),
    )

    def draw(tmp):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4))
        for k in tens:
            a1.plot(surge, curve[k] / 1e3, label=k)
        a1.set_xlabel("surge offset from the pose (m)")
        a1.set_ylabel("fairlead tension (kN)")
        a1.legend()
        a1.grid(True)
        a2.plot(surge, -curve["Fx"] / 1e3, "k")
        a2.set_xlabel("surge offset from the pose (m)")
        a2.set_ylabel("mooring restoring force -Fx (kN)")
        a2.grid(True)
        fig.suptitle(f"{model.name}: mooring offset-tension curve")
        fig.tight_layout()
        fig.savefig(tmp, format=fig_path.suffix.lstrip(".") or "png", dpi=100)
        plt.close(fig)

    atomic_write(fig_path, draw)
    print(f"offset-tension curve (surge 0-{args.surge_max:g} m): {fig_path}")
    return 0


def cmd_mbdm(args) -> int:
    """``floatwind mbdm FILE -o OUT.nc``: an MBDM input file run (floatwind.multibody.mbdm.files)."""
    import time

    import numpy as np

    from floatwind.case.mbdm_files import read_mbdm
    from floatwind.simulate.mbdm import run_mbdm

    for opt in ("tmax", "dt"):
        if getattr(args, opt) is not None and not getattr(args, opt) > 0:
            raise CaseError(f"must be positive, got {getattr(args, opt):g}", field=f"--{opt}")
    model = read_mbdm(args.file)
    out = pathlib.Path(args.output) if args.output else pathlib.Path(f"{model.name}.nc")
    out = _check_output(args, out, model.files)
    for note in model.notes:
        print(f"  note: {note}")
    t0 = time.perf_counter()
    try:
        ds = run_mbdm(model, method=args.method, t_end=args.tmax, dt=args.dt)
    except SimulationError as err:
        print(f"floatwind: simulation failed: {err}", file=sys.stderr)
        return 1
    _write(ds, out, "nc")
    nb, nj = len(model.bodies), len(model.joints)
    print(f"{model.name}: {ds.attrs['analysis']}, {nb} bod{'y' if nb == 1 else 'ies'}, {nj} "
          f"joint{'s' if nj != 1 else ''}, {len(model.lines)} line(s): {float(ds.time[-1]):g} s "
          f"in {time.perf_counter() - t0:.1f} s wall")  # fmt: skip
    if ds.attrs["assembly"]:
        print(f"  assembly corrected the initial state: {ds.attrs['assembly']}")
    print(f"  constraint drift: max |Phi| {float(np.max(ds.constraint_drift_position)):.3g}, "
          f"max |Phi_q qdot - nu| {float(np.max(ds.constraint_drift_velocity)):.3g}")  # fmt: skip
    pos = ds.body_position.isel(time=-1)
    for name in model.body_names:
        xyz = " ".join(f"{_clean(float(v), 1.0):.6g}" for v in pos.sel(body=name).values)
        print(f"  {name:<12s} final position {xyz} m")
    print(f"wrote {out}")
    return 0


def cmd_bem(args) -> int:
    """``floatwind bem SOURCE -o DIR``: coefficients of a hull (floatwind.bem)."""
    from floatwind import bem

    run = bem.run_bem(
        args.source, args.output, panels=args.panels, lid=not args.no_lid,
        omega=bem.parse_values(args.frequencies, "--frequencies", bem.DEFAULT_OMEGA),
        headings_deg=bem.parse_values(args.headings, "--headings", bem.DEFAULT_HEADINGS_DEG),
        water_depth=args.depth, progress=not args.no_progress and sys.stderr.isatty(),
    )  # fmt: skip
    print(bem.summary(run))
    return 0


#: ss-fit options that belong to one kind of file, with their defaults
_SS_FIT_ONLY = {"method": ("fdi", False), "rdtn_tmax": (60.0, False), "heading": (0.0, True),
                "tc": (None, True), "gravity": (9.80665, True)}  # (default, excitation only)


def cmd_ss_fit(args) -> int:
    """``floatwind ss-fit ROOT -o FILE.ss|FILE.ssexctn``: a fitted state-space model (radiation
    or excitation) as HydroDyn's file."""
    from floatwind.loads import hydrodyn_ss as hs
    from floatwind.loads import radiation_fit as rf
    from floatwind.loads.potential import PotentialExcitationSS, PotentialRadiationSS

    out = pathlib.Path(args.output)
    excitation = out.suffix == ".ssexctn"
    if out.suffix not in (".ss", ".ssexctn"):
        raise CaseError(f"expected a .ss or .ssexctn file name, got {out.name}", field="--output")
    _check_output(args, out, [pathlib.Path(args.wamit + ext) for ext in (".1", ".3", ".hst")])
    for name in ("tolerance", "max_order", "rho", "ulen", "rdtn_tmax", "gravity"):
        value = getattr(args, name)
        if value is not None and not value > 0:
            raise CaseError(f"must be positive, got {value}", field=f"--{name.replace('_', '-')}")
    for name, (default, for_excitation) in _SS_FIT_ONLY.items():
        if for_excitation != excitation and getattr(args, name) != default:
            raise CaseError(f"only for {'a .ss' if excitation else 'an .ssexctn'} file",
                            field=f"--{name.replace('_', '-')}")  # fmt: skip
    opts = {k: v for k, v in (("tolerance", args.tolerance), ("max_order", args.max_order))
            if v is not None}  # fmt: skip
    if excitation:
        ld = PotentialExcitationSS(body=0, wamit=args.wamit, ulen=args.ulen,
                                   heading_deg=args.heading,
                                   tc="auto" if args.tc is None else args.tc, **opts)  # fmt: skip
        a, b, c, per_dof = rf.exctn_matrices_from_fits(ld.fits)
        rho_g = args.rho * args.gravity
        ss = hs.HydroDynSSExctn(a, b, rho_g * c, float(args.heading), float(ld.tc), per_dof)
        write = hs.write_hydrodyn_ssexctn
        what = f"rho g = {args.rho:g} x {args.gravity:g}"
    else:
        ld = PotentialRadiationSS(body=0, wamit=args.wamit, ulen=args.ulen, t_max=args.rdtn_tmax,
                                  method=args.method, **opts)  # fmt: skip
        ss = rf.hydrodyn_ss_from_fits(ld.fits, args.rho)
        write = hs.write_hydrodyn_ss
        what = f"rho = {args.rho:g} kg/m^3"
    write(out, ss, f"floatwind ss-fit {pathlib.Path(args.wamit).name}: {ld.fit_report}; {what}")
    print(ld.fit_report)
    print(f"wrote {out} ({ss.a.shape[0]} states)")
    return 0


def cmd_import_openfast(args) -> int:
    from floatwind.case.openfast_import import import_openfast, write_case_yaml
    from floatwind.io.safe import atomic_write, input_files

    out = (
        pathlib.Path(args.output)
        if args.output
        else pathlib.Path(pathlib.Path(args.deck).stem + ".yaml")
    )
    if pathlib.Path(args.deck).is_file():
        _check_output(args, out, input_files(args.deck))
    res = import_openfast(
        args.deck, approximate=args.approximate, split=args.split, morison_axis=args.morison_axis
    )
    atomic_write(out, lambda tmp: write_case_yaml(res, tmp))
    bodies = ", ".join(b["name"] for b in res["case"]["bodies"])
    nb = len(res["case"]["bodies"])
    print(f"{args.deck}: imported ({nb} bod{'y' if nb == 1 else 'ies'}: {bodies})")
    for note in res["notes"]:
        print(f"  note: {note}")
    print(f"wrote {out}")
    return 0


def cmd_report(args) -> int:
    import importlib

    from floatwind.io.safe import atomic_write

    if args.kind in ("dlc", "study"):
        return _report_folder(args)
    if args.folder:
        raise CaseError(f"the validation report takes no folder (got {args.folder!r})", field="kind")

    _check_output(args, pathlib.Path(args.output), [])
    try:  # the validation package is installed with floatwind (pyproject.toml, packages)
        registry = importlib.import_module("validation.registry")
    except ImportError as exc:
        raise CaseError(
            f"the validation registry is not importable ({exc}); install floatwind from its "
            "repository (pip install -e '.[dev]'), which installs the validation package too"
        ) from None
    result = {}

    def build(tmp):
        result["ok"] = registry.build_report(
            tmp, quick=args.quick, only=args.only, progress=False if args.no_progress else None
        )

    atomic_write(pathlib.Path(args.output), build)
    ok = result["ok"]
    stopped = getattr(registry, "INTERRUPTED", [])
    if stopped:  # Ctrl-C: the finished validations are in the page
        print(f"floatwind: interrupted at {stopped[0]}; wrote the partial report {args.output}",
              file=sys.stderr)  # fmt: skip
        return 130
    print(f"wrote {args.output} ({'all passed' if ok else 'FAILURES: see the summary table'})")
    return 0 if ok else 1


def _study_overrides(args) -> dict:
    over = {}
    if getattr(args, "duration", None) is not None:
        if not args.duration > 0:
            raise CaseError(f"must be positive, got {args.duration:g}", field="--duration")
        over["duration"] = args.duration
    if getattr(args, "realizations", None) is not None:
        over["realizations"] = args.realizations
    return over


def _one_run(ds):
    """A run of a study as a single-run Dataset (the study's run labels dropped)."""
    if "realization" in ds.dims and ds.sizes["realization"] == 1:
        ds = ds.isel(realization=0)
    return ds.drop_vars([c for c in ("run", "design", "condition", "variant") if c in ds.coords])


def cmd_run_from_study(args) -> int:
    from floatwind.io.safe import input_files
    from floatwind.studies import load_study, run_one

    if not (args.from_study and args.run_id):
        raise CaseError("--from-study and --id go together", field="--id")
    from floatwind.io.safe import check_text_inputs

    check_text_inputs(input_files(args.from_study))
    study = load_study(args.from_study)
    study.run(args.run_id)  # an unknown id is refused before anything else
    fmt = _format(args)
    out = pathlib.Path(args.output) if args.output else pathlib.Path(f"{args.run_id}.{fmt}")
    _check_output(args, out, input_files(args.from_study))
    from floatwind.studies.execute import build_batch_model

    model = build_batch_model(study, [study.run(args.run_id)])
    _preflight(model, args)
    ds = _simulate_and_write(
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
    _write(_one_run(ds), out, fmt)
    print(f"{args.run_id}: simulated {float(ds.time[-1]):g} s")
    print(f"wrote {out}{_binary_note(out, fmt)}")
    return 0


#: what a study writes into its folder (besides batches/)
STUDY_OUTPUTS = ("study.json", "runs.csv", "runs_summary.csv", "results.csv", "failures.csv")


def _check_study_folder(out: pathlib.Path, study_file: str) -> None:
    """The study folder must not be a file, must be writable, and none of the names the study
    writes may be one of its inputs."""
    from floatwind.io.safe import check_output, input_files

    inputs = input_files(study_file)
    target = out.resolve()
    for inp in inputs:
        if (
            inp == target
            or inp.parent == target / "batches"
            or any(inp == target / name for name in STUDY_OUTPUTS)
        ):
            raise CaseError(
                f"{out} would overwrite an input of the study ({inp.name}); choose another folder",
                field="--output",
            )
    check_output(out, folder=True, mkdir=True, option="--output")


def _study_preflight(study, args) -> None:
    """Sanity warnings of each design and condition (their first run), once each."""
    from floatwind.simulate.sanity import sanity_warnings
    from floatwind.studies.execute import build_batch_model

    if args.list:
        return
    seen = {}
    for r in study.runs():
        seen.setdefault((r.design_index, r.condition_index), r)
    lines = []
    for run in seen.values():
        for w in sanity_warnings(build_batch_model(study, [run])):
            line = f"{run.design}/{run.condition}: {w}"
            if line not in lines:
                lines.append(line)
                print(f"floatwind: warning: {line}", file=sys.stderr)
    if lines and args.strict:
        raise CaseError(
            f"{len(lines)} sanity warning(s) and --strict: {lines[0]}", field="--strict"
        )


def _check_batch_options(args) -> None:
    for key in ("workers", "batch_size"):
        val = getattr(args, key)
        if val is not None and val < 1:
            raise CaseError(
                f"must be a positive integer, got {val}", field=f"--{key.replace('_', '-')}"
            )
    if args.accept_changes and not args.resume:
        raise CaseError("goes with --resume", field="--accept-changes")


def cmd_study(args) -> int:
    from floatwind.io.safe import check_text_inputs, input_files
    from floatwind.studies import load_study

    check_text_inputs(input_files(args.study))
    study = load_study(args.study, _study_overrides(args))
    if args.list:
        for r in study.runs():
            print(r.id)
        return 0
    _check_batch_options(args)
    out = pathlib.Path(args.output or study.name)
    _check_study_folder(out, args.study)
    from floatwind.studies.execute import check_channels
    from floatwind.studies.lock import StudyLock

    check_channels(study)
    lock = StudyLock(out).acquire()  # before the checks below: a second study stops at once
    if lock.message:
        print(f"floatwind: {lock.message}", file=sys.stderr)
    try:
        return _run_study_command(study, out, args)
    finally:
        lock.release()


def _run_study_command(study, out: pathlib.Path, args) -> int:
    import pandas as pd

    from floatwind.studies import run_study

    _study_preflight(study, args)
    try:
        res = run_study(
            study,
            out,
            resume=args.resume,
            accept_changes=args.accept_changes,
            workers=args.workers,
            dask=args.dask,
            batch_size=args.batch_size,
            progress=False if args.no_progress else None,
        )
    except KeyboardInterrupt:
        print(
            f"floatwind: interrupted; finished batches are in {out}: rerun with --resume",
            file=sys.stderr,
        )
        return 130
    ok = res.runs["status"].eq("ok").sum()
    failed = res.failures
    print(
        f"{study.name}: {ok} of {len(res.runs)} runs ok, {len(failed)} failed, {res.n_run_now} run now in "
        f"{res.wall_s:.1f} s wall"
    )
    from floatwind.studies.execute import _channel_units
    from floatwind.studies.stats import humanize_results

    table = humanize_results(res.results, _channel_units(out)) if len(res.results) else res.results
    if len(table):
        pick = table[table["quantity"].str.endswith((".mean", ".std"))]
        pick = pick[pick["quantity"].str.startswith(tuple(study.channels[:1] + ["PtfmPitch"]))]
        with pd.option_context("display.width", 160, "display.max_rows", 200):
            print(pick.to_string(index=False, float_format=lambda v: f"{v:.5g}"))
    for _, row in failed.iterrows():
        print(f"FAILED {row['id']}: {row['error']}")
    print(f"wrote {out}/results.csv, {out}/runs_summary.csv, {out}/failures.csv, {out}/batches/")
    return 0 if len(failed) == 0 else 1


def _report_folder(args) -> int:
    if args.kind == "dlc":
        from floatwind.report.dlc import write_report
    else:
        from floatwind.report.study import write_report

    if not args.folder:
        raise CaseError(f"the folder 'floatwind {args.kind}' wrote is required", field="folder")
    out = pathlib.Path(args.output)
    _check_output(args, out, [])
    write_report(pathlib.Path(args.folder), out)
    print(f"wrote {out}")
    return 0


def cmd_dlc(args) -> int:
    import pandas as pd

    from floatwind.dlc.run import print_summary, run_dlc
    from floatwind.dlc.spec import load_dlc
    from floatwind.io.safe import check_text_inputs, input_files

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
    _check_batch_options(args)
    out = pathlib.Path(args.output or dset.name)
    _check_study_folder(out, args.dlc)
    if args.report:
        _check_output(args, pathlib.Path(args.report), input_files(args.dlc))
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


def cmd_plot(args) -> int:
    from floatwind.io.safe import check_output, input_files
    from floatwind.studies import load_study
    from floatwind.studies.plots import standard_figures

    study = load_study(args.study)
    out = pathlib.Path(args.output or study.name)
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


def without_dask() -> None:
    """Keep Dask out of a process that never uses it (a single run, a check, an import).

    xarray probes for Dask (imports ``dask``, ``dask.array`` and ``dask.distributed``) the first
    time it builds a Variable or writes a file, whenever Dask is installed: ~0.7 s of CPU, a
    third of a short OpenFAST-deck run (docs/performance.md). Marking the module absent
    (``sys.modules["dask"] = None``, Python's documented way to make an import fail) makes xarray
    treat it as not installed. Only for commands that never use Dask (``study --dask`` does), and
    only if nothing imported it yet."""
    if "dask" not in sys.modules:
        sys.modules["dask"] = None


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
    if argv is None and args.command in ("run", "check", "import-openfast", "mooring", "mbdm"):
        without_dask()  # the command's own process only (not a caller of main([...]))
    handlers = {
        "run": cmd_run,
        "check": cmd_check,
        "import-openfast": cmd_import_openfast,
        "report": cmd_report,
        "study": cmd_study,
        "dlc": cmd_dlc,
        "plot": cmd_plot,
        "mooring": cmd_mooring,
        "bem": cmd_bem,
        "ss-fit": cmd_ss_fit,
        "warmup": cmd_warmup,
        "mbdm": cmd_mbdm,
    }
    try:
        return handlers[args.command](args)
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
