"""``floatwind mbdm FILE -o OUT.nc``: an MBDM input file run (floatwind.case.mbdm_files, floatwind.simulate.mbdm)."""

from __future__ import annotations

import argparse
import pathlib

from floatwind.cli._common import check_output, examples, output_options
from floatwind.cli._results import clean, simulate_and_write, write_result
from floatwind.errors import CaseError

NAME = "mbdm"
EPILOG = examples([
    ("floatwind mbdm cases/mbdm/body_on_spring/mbdm -o spring.nc",
     "the note's body on a spring (sec. 10.1; its mbdm.expert.mooring is read too)"),
    ("floatwind mbdm cases/mbdm/slider_crank_dynamic/mbdm -o crank.nc --tmax 0.2",
     "the slider-crank dynamic case (sec. 10.3) over 0.2 s, coordinate partitioning"),
])  # fmt: skip
NO_DASK = True


def add_arguments(mb: argparse.ArgumentParser) -> None:
    mb.add_argument("file", help="the main input file ('mbdm'); FILE.expert.mooring and "
                    "FILE.expert.forces beside it are read when present")
    mb.add_argument("-o", "--output", help="netCDF file (default: the file's Name + .nc)")
    mb.add_argument("--method", choices=("partitioning", "baumgarte"), default="partitioning",
                    help="dynamic analysis: coordinate partitioning (sec. 5, as MBDM; default) "
                    "or Baumgarte stabilisation")
    mb.add_argument("--tmax", type=float, help="end time (s), overrides the file's t_end")
    mb.add_argument("--dt", type=float, help="time step (s), overrides the file's dt")
    output_options(mb)


def main(args) -> int:
    import time

    import numpy as np

    from floatwind.case.mbdm_files import read_mbdm
    from floatwind.io.safe import default_output
    from floatwind.simulate.mbdm import run_mbdm, step_count

    for opt in ("tmax", "dt"):
        if getattr(args, opt) is not None and not getattr(args, opt) > 0:
            raise CaseError(f"must be positive, got {getattr(args, opt):g}", field=f"--{opt}")
    model = read_mbdm(args.file)
    try:  # before anything runs: t_end: 1e12 would step for ever
        step_count(model, args.tmax, args.dt)
    except CaseError as err:
        if args.tmax is None and args.dt is None:
            raise
        raise CaseError(err.reason, field="--tmax" if args.tmax is not None else "--dt") from None
    out = (pathlib.Path(args.output) if args.output
           else default_output(model.name, "nc", file=args.file))  # fmt: skip
    out = check_output(args, out, model.files)
    for note in model.notes:
        print(f"  note: {note}")
    t0 = time.perf_counter()
    ds = simulate_and_write(lambda: run_mbdm(model, method=args.method, t_end=args.tmax,
                                             dt=args.dt), out, "nc")  # fmt: skip
    if isinstance(ds, int):  # failed or interrupted: the partial record is written
        return ds
    write_result(ds, out, "nc")
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
        xyz = " ".join(f"{clean(float(v), 1.0):.6g}" for v in pos.sel(body=name).values)
        print(f"  {name:<12s} final position {xyz} m")
    print(f"wrote {out}")
    return 0
