"""A run's result as the commands write and show it: the output format, the atomic write, the
partial record of a failed or interrupted run, the platform summary table."""

from __future__ import annotations

import pathlib
import sys

from floatwind import __version__
from floatwind.errors import SimulationError


def output_format(args) -> str:
    """--format, else from the output's extension (.out, .outb), else netCDF."""
    if args.format:
        return args.format
    ext = pathlib.Path(args.output).suffix.lower() if args.output else ""
    return {".out": "out", ".outb": "outb"}.get(ext, "nc")


def write_result(ds, path: pathlib.Path, fmt: str) -> pathlib.Path:
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


def simulate_and_write(run, out: pathlib.Path, fmt: str, prepare=None):
    """``run()`` -> Dataset; on a failure or Ctrl-C write the partial record to ``out`` and return
    the exit status (1 or 130) instead of the Dataset."""
    from floatwind.integrate.base import Interrupted

    try:
        return run()
    except SimulationError as err:
        interrupted = isinstance(err, Interrupted)
        partial = getattr(err, "dataset", None)
        if partial is not None:
            if prepare is not None:
                partial = prepare(partial)
            write_result(partial, out, fmt)
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


def binary_note(out: pathlib.Path, fmt: str) -> str:
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


def clean(x: float, scale: float) -> float:
    """``x`` with round-off noise (below 1e-12 of ``scale``) shown as 0 and no negative zero."""
    return 0.0 if abs(x) <= 1e-12 * scale else float(x) + 0.0


def summary(ds) -> str:
    """Min, max and final value of the six platform channels, one line each."""
    import numpy as np

    lines = [f"{'channel':<10s} {'units':<6s} {'min':>12s} {'max':>12s} {'final':>12s}"]
    for name in ("PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmRoll", "PtfmPitch", "PtfmYaw"):
        v = np.asarray(ds[name].values, dtype=float)
        scale = max(float(np.nanmax(np.abs(v))), 1e-300) if v.size else 1.0
        lo, hi, fin = (clean(x, scale) for x in (np.nanmin(v), np.nanmax(v), np.ravel(v)[-1]))
        lines.append(
            f"{name:<10s} {ds[name].attrs['units']:<6s} {lo:12.5g} {hi:12.5g} {fin:12.5g}"
        )
    return "\n".join(lines)
