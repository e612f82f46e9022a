"""``floatwind linearize CASE_OR_DECK -o OUT.nc [--at rest|equilibrium]``: the linear model
about an operating point and its modes (floatwind.linear, docs/linearization.md)."""

from __future__ import annotations

import argparse
import pathlib

from floatwind.cli._case import load_model
from floatwind.cli._common import check_output, examples, output_options
from floatwind.errors import CaseError

NAME = "linearize"
EPILOG = examples([
    ("floatwind linearize cases/oc3_platform_decay.yaml -o oc3_modes.nc",
     "modes of the OC3 spar about its static equilibrium; table, netCDF and figure"),
    ("floatwind linearize DECK.fst -o modes.nc --at rest",
     "an OpenFAST deck, linearised at the undisplaced pose"),
])  # fmt: skip
NO_DASK = True


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("case", help="case file (.yaml) or OpenFAST deck (.fst)")
    p.add_argument("-o", "--output", help="netCDF file (default <case>_modes.nc here)")
    p.add_argument(
        "--at",
        default="equilibrium",
        help="operating point: equilibrium (static equilibrium in the wind at t = 0, default), "
        "mean (static equilibrium in the time-mean wind of the run and the mean wave drift of "
        "its sea) or rest (undisplaced pose)",
    )
    p.add_argument(
        "--potential",
        default="at-mode",
        help="potential-flow radiation in the modes: at-mode (A(omega), B(omega) at each mode's "
        "own frequency, default) or infinite (the infinite-frequency added mass, no radiation "
        "damping: FAST v7's eigen-analysis, the convention of the published OC3 frequencies)",
    )
    p.add_argument("--figure", help="mode-shape figure (default: OUT with .png)")
    p.add_argument(
        "--approximate",
        action="store_true",
        help="(.fst) replace unsupported OpenFAST settings by documented approximations",
    )
    output_options(p)


def main(args) -> int:
    import numpy as np

    from floatwind.io.safe import atomic_write, input_files
    from floatwind.linear.dataset import modes_dataset, modes_figure, modes_table
    from floatwind.linear.matrices import linearize
    from floatwind.linear.modes import modes

    if args.at not in ("rest", "equilibrium", "mean"):
        raise CaseError(f"unknown operating point {args.at!r}; one of rest, equilibrium, mean",
                        field="--at")  # fmt: skip
    if args.potential not in ("at-mode", "infinite"):
        raise CaseError(f"unknown potential-flow convention {args.potential!r}; one of at-mode, "
                        "infinite", field="--potential")  # fmt: skip
    out = pathlib.Path(args.output or f"{pathlib.Path(args.case).stem}_modes.nc").resolve()
    inputs = input_files(args.case)
    out = check_output(args, out, inputs)
    fig = pathlib.Path(args.figure).resolve() if args.figure else out.with_suffix(".png")
    fig = check_output(args, fig, inputs)
    model = load_model(args.case, approximate=args.approximate)
    lin = linearize(model, args.at)
    md = modes(lin, potential=args.potential.replace("-", "_"))
    ds = modes_dataset(lin, md)
    ds.attrs["source"] = str(args.case)
    atomic_write(out, lambda tmp: ds.to_netcdf(tmp, engine="netcdf4", format="NETCDF4"))
    atomic_write(fig, lambda tmp: modes_figure(lin, md, tmp, fig.suffix.lstrip(".") or "png"))
    x0 = ", ".join(f"{d} {v:.6g}" for d, v in zip(lin.dof, lin.x0))
    print(f"{args.case}: linearised about the {lin.at} operating point ({x0}; m, rad)")
    print(f"central differences: steps h and h/4 agree to {lin.step_agreement['K']:.1e} "
          f"(stiffness) and {lin.step_agreement['C']:.1e} (damping, of critical)")  # fmt: skip
    if lin.radiation and md.potential == "infinite":
        print("potential flow: infinite-frequency added mass, no radiation damping")
    elif lin.radiation:
        print("potential flow: A(omega), B(omega) at each mode's own damped frequency")
    if lin.mean_drift is not None:
        f = lin.mean_drift
        print(f"mean wave drift in the operating point: force ({f[0]:.6g}, {f[1]:.6g}, {f[2]:.6g}) "
              f"N, moment ({f[3]:.6g}, {f[4]:.6g}, {f[5]:.6g}) N m (earth axes)")  # fmt: skip
    elif args.at != "mean":
        from floatwind.linear.matrices import mean_drift_loads

        drift = mean_drift_loads(model)
        if drift:
            f = sum(d.f for d in drift)
            print(f"note: the case's sea has a mean wave drift (force {np.linalg.norm(f[:3]):.6g} "
                  "N) that this operating point leaves out; --at mean includes it")  # fmt: skip
    print(modes_table(lin, md))
    for k in range(lin.n):
        if not np.isfinite(md.period[k]):
            print(f"note: mode {k + 1} ({md.dof[k]}) has no restoring stiffness (a free motion)")
    print(f"written: {out}, {fig}")
    return 0
