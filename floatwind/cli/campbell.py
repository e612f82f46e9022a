"""``floatwind campbell CASE --rpm R1 R2 ... -o OUT.nc``: the modes of the linear model over
rotor speeds (floatwind.linear.campbell, docs/linearization.md)."""

from __future__ import annotations

import argparse
import pathlib

from floatwind.cli._common import check_output, examples, output_options
from floatwind.errors import CaseError

NAME = "campbell"
HELP = "Campbell diagram: natural frequencies and damping ratios over rotor speeds"
EPILOG = examples([
    ("floatwind campbell cases/oc3_hywind.yaml --rpm 0 4 8 12.1 -o campbell.nc",
     "OC3 spar modes with the rotor spinning at 0..12.1 rpm; table, netCDF and figure"),
])  # fmt: skip
NO_DASK = True


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("case", help="case file (.yaml) whose topology has a spinning rotor (spin)")
    p.add_argument("--rpm", type=float, nargs="+", required=True, help="rotor speeds (rpm)")
    p.add_argument("-o", "--output", help="netCDF file (default <case>_campbell.nc here)")
    p.add_argument("--at", default="equilibrium", choices=("rest", "equilibrium", "mean"),
                   help="operating point at each speed (default equilibrium)")  # fmt: skip
    p.add_argument("--figure", help="figure (default: OUT with .png)")
    output_options(p)


def main(args) -> int:
    import numpy as np
    import xarray as xr

    from floatwind.case import load_case
    from floatwind.cli._case import is_deck
    from floatwind.io.safe import atomic_write, input_files, load_yaml
    from floatwind.linear.campbell import campbell, campbell_figure

    if is_deck(args.case):
        raise CaseError("a Campbell diagram needs a YAML case with a topology (spin); import the "
                        "deck first (floatwind import-openfast)", field="case")  # fmt: skip
    rpm = np.asarray(args.rpm, float)
    if np.any(rpm < 0) or np.any(np.diff(rpm) <= 0):
        raise CaseError("rotor speeds must be >= 0 and increasing", field="--rpm")
    path = pathlib.Path(args.case)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise CaseError(f"cannot read the case: {err}", file=str(path)) from None
    data = load_yaml(text, file=str(path))  # keys given twice, alias bombs: one line (issue 42)
    topo = (data or {}).get("topology") if isinstance(data, dict) else None
    if not isinstance(topo, dict) or "spin" not in topo:
        raise CaseError("the case has no spinning rotor (topology.spin): no rotor speed to vary",
                        field="topology.spin", file=str(path))  # fmt: skip
    out = pathlib.Path(args.output or f"{path.stem}_campbell.nc").resolve()
    inputs = input_files(args.case)
    out = check_output(args, out, inputs)
    fig = pathlib.Path(args.figure).resolve() if args.figure else out.with_suffix(".png")
    fig = check_output(args, fig, inputs)

    def model_at(r):
        return load_case(path, {"topology.spin": {"kind": "constant_rate", "rate_rpm": r}})

    cd = campbell(model_at, rpm, args.at)
    n = cd.frequency.shape[1]
    ds = xr.Dataset(
        {
            "frequency": (("rpm", "mode"), cd.frequency, {"units": "Hz", "long_name": "undamped natural frequency"}),
            "damping_ratio": (("rpm", "mode"), cd.damping_ratio, {"units": "1"}),
            "dof": ("mode", np.array(cd.dof, dtype=object), {"long_name": "dominant DOF at the first speed"}),
            "dof_at": (("rpm", "mode"), np.array(cd.dof_at, dtype=object), {"long_name": "dominant DOF at each speed"}),
        },
        coords={"rpm": ("rpm", rpm, {"units": "rpm"}), "mode": np.arange(1, n + 1)},
        attrs={"title": f"floatwind Campbell diagram of {path.stem}", "operating_point": args.at,
               "source": str(args.case), "conventions": "docs/linearization.md"},
    )  # fmt: skip
    atomic_write(out, lambda tmp: ds.to_netcdf(tmp, engine="netcdf4", format="NETCDF4"))
    atomic_write(fig, lambda tmp: campbell_figure(cd, f"{path.stem}: Campbell diagram", tmp,
                                                  fig.suffix.lstrip(".") or "png"))  # fmt: skip
    print(f"{args.case}: natural frequencies (Hz) / damping ratios over rotor speed")
    print(f"{'rpm':>7s}  " + " ".join(f"{d:>17s}" for d in cd.dof))
    for k, r in enumerate(rpm):
        print(f"{r:7.3g}  " + " ".join(
            f"{cd.frequency[k, j]:9.5f}/{cd.damping_ratio[k, j]:7.4f}" for j in range(n)))  # fmt: skip
    print(f"written: {out}, {fig}")
    return 0
