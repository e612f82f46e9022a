"""The ``floatwind`` command.

    floatwind run CASE [-o OUT] [--tmax S] [--dt S] [--format nc|out]
    floatwind check CASE

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

log = logging.getLogger("floatwind")

EPILOG = """\
examples:
  floatwind check cases/oc3_platform_decay.yaml      validate a case and print its model
  floatwind run cases/oc3_platform_decay.yaml        run it, write oc3_platform_decay.nc
  floatwind run CASE --tmax 60 --dt 0.01 -o out.nc   override the end time and the step
  floatwind run CASE --format out                    write an OpenFAST-style text .out (FAST units)

Case files are YAML; see docs/case_format.md. Results are netCDF (xarray) with SI units.
"""


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
    r.add_argument("case", help="case file (.yaml)")
    r.add_argument(
        "-o",
        "--output",
        help="output file (default: CASE name + .nc or .out in the current folder)",
    )
    r.add_argument("--tmax", type=float, help="end time (s), overrides simulation.t_max")
    r.add_argument("--dt", type=float, help="time step (s), overrides simulation.dt")
    r.add_argument(
        "--format",
        choices=("nc", "out"),
        default=None,
        help="nc: netCDF4 (default); out: OpenFAST text output in FAST units",
    )
    r.add_argument("--no-progress", action="store_true", help="hide the progress bar")

    c = sub.add_parser("check", help="validate a case file and print the model summary")
    c.add_argument("case", help="case file (.yaml)")
    return p


def _load(path: str, overrides: dict | None = None):
    from floatwind.case import load_case

    return load_case(path, overrides)


def _overrides(args) -> dict:
    out = {}
    for key, val in (("t_max", args.tmax), ("dt", args.dt)):
        if val is not None:
            if not val > 0:
                raise CaseError(f"must be positive, got {val:g}", field=f"--{key.replace('_', '')}")
            out[f"simulation.{key}"] = val
    return out


def _summary(ds) -> str:
    import numpy as np

    lines = [f"{'channel':<10s} {'units':<6s} {'min':>12s} {'max':>12s} {'final':>12s}"]
    for name in ("PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmRoll", "PtfmPitch", "PtfmYaw"):
        v = np.asarray(ds[name].values)
        lines.append(
            f"{name:<10s} {ds[name].attrs['units']:<6s} {np.nanmin(v):12.5g} {np.nanmax(v):12.5g} "
            f"{np.ravel(v)[-1]:12.5g}"
        )
    return "\n".join(lines)


def _write(ds, path: pathlib.Path, fmt: str) -> pathlib.Path:
    if fmt == "out":
        from floatwind.io.openfast import write_out

        write_out(path, ds, description=f"floatwind {__version__}: {ds.attrs.get('case_name', '')}")
        return path
    from floatwind.io.netcdf import write_netcdf

    return write_netcdf(ds, path)


def cmd_run(args) -> int:
    import time

    from floatwind.simulate import simulate

    model = _load(args.case, _overrides(args))
    fmt = args.format or ("out" if args.output and str(args.output).endswith(".out") else "nc")
    out = pathlib.Path(args.output) if args.output else pathlib.Path(f"{model.name}.{fmt}")
    t0 = time.perf_counter()
    try:
        ds = simulate(model, progress=False if args.no_progress else None)
    except SimulationError as err:
        partial = getattr(err, "dataset", None)
        if partial is not None:
            _write(partial, out, fmt)
            print(
                f"floatwind: wrote the {partial.sizes['time']} output steps computed before the failure to {out}",
                file=sys.stderr,
            )
        print(f"floatwind: simulation failed: {err}", file=sys.stderr)
        return 1
    wall = time.perf_counter() - t0
    _write(ds, out, fmt)
    print(
        f"{model.name}: simulated {model.settings.t_max:g} s in {wall:.2f} s wall "
        f"({model.settings.t_max / wall:.1f}x real time), batch {model.batch}"
    )
    if "realization" not in ds.dims:
        print(_summary(ds))
    print(f"wrote {out}")
    return 0


def cmd_check(args) -> int:
    model = _load(args.case)
    print(f"{args.case}: OK")
    print(model.summary())
    return 0


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
    handlers = {"run": cmd_run, "check": cmd_check}
    try:
        return handlers[args.command](args)
    except CaseError as err:
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
        print(f"floatwind: internal error ({type(err).__name__}): {err} (rerun with -v for the traceback)",
              file=sys.stderr)
        return 3


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
