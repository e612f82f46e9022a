"""``floatwind rao CASE -o OUT.nc``: RAOs per heading, response spectra and significant
responses in a JONSWAP sea, from the linear model about the operating point (floatwind.linear,
docs/linearization.md)."""

from __future__ import annotations

import argparse
import pathlib
from typing import NamedTuple

from floatwind.cli._case import load_model
from floatwind.cli._common import check_output, examples, output_options
from floatwind.errors import CaseError

NAME = "rao"
EPILOG = examples([
    ("floatwind rao ../shared/reference/openfast/ref13_potential_irregular/"
     "ref13_potential_irregular.fst -o rao.nc",
     "RAOs of the OC3 spar and its response in the deck's JONSWAP sea"),
    ("floatwind rao DECK.fst -o rao.nc --hs 6 --tp 12 --headings 0 15 30 45",
     "another sea state and four headings"),
    ("floatwind rao cases/dlc/oc3_hywind_iec.yaml --dlc -o screen.nc",
     "frequency-domain screening of every operating sea state of a DLC set"),
    ("floatwind rao cases/oc3_hywind.yaml -o rao_morison.nc",
     "Morison spar: drag linearised stochastically in the case's sea; rotor damping from thrust"),
])  # fmt: skip
NO_DASK = True


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("case", help="case file (.yaml) or OpenFAST deck (.fst) with WAMIT data or "
                   "Morison members")  # fmt: skip
    p.add_argument("-o", "--output", help="netCDF file (default <case>_rao.nc here)")
    p.add_argument("--at", default="equilibrium", choices=("rest", "equilibrium", "mean"),
                   help="operating point (default equilibrium)")  # fmt: skip
    p.add_argument("--hs", type=float, help="significant wave height (m) of a JONSWAP sea")
    p.add_argument("--tp", type=float, help="peak period (s) of the JONSWAP sea")
    p.add_argument("--gamma", type=float, help="peak-shape factor (default IEC 61400-3's)")
    p.add_argument("--headings", type=float, nargs="+", metavar="DEG",
                   help="wave headings (deg; default the case's sea heading, else the WAMIT "
                   "file's headings)")  # fmt: skip
    p.add_argument("--frequencies", type=float, nargs=3, metavar=("MIN", "MAX", "N"),
                   help="frequency grid (rad/s; default the WAMIT .3 range, 200 points)")  # fmt: skip
    p.add_argument("--dlc", action="store_true",
                   help="CASE is a DLC file (floatwind dlc): screen every operating load "
                   "condition (wind speed, sea state, heading) in the frequency domain")  # fmt: skip
    p.add_argument("--figure", help="RAO figure (default: OUT with .png)")
    p.add_argument("--approximate", action="store_true",
                   help="(.fst) replace unsupported OpenFAST settings by documented "
                   "approximations")  # fmt: skip
    output_options(p)


class CaseSea(NamedTuple):
    """The case's JONSWAP sea (``waves.sea_from_spectrum`` records its parameters)."""

    hs: float
    tp: float
    gamma: float
    heading_deg: float | None


def _case_sea(model) -> CaseSea | None:
    """The case's JONSWAP sea, or None (another sea, or none)."""
    info = getattr(model.env.sea, "info", None)
    info = info() if callable(info) else info
    if not isinstance(info, dict) or "jonswap_hs" not in info:
        return None
    return CaseSea(info["jonswap_hs"], info["jonswap_tp"], info["jonswap_gamma"],
                   info.get("heading_deg"))  # fmt: skip


def main(args) -> int:
    import time

    import numpy as np

    from floatwind.environment.spectra import JonswapSpectrum
    from floatwind.io.safe import atomic_write, input_files
    from floatwind.linear.matrices import linearize
    from floatwind.linear.rao import rao_dataset, rao_figure, raos, response_spectra

    if args.dlc:
        return _screen(args)
    out = pathlib.Path(args.output or f"{pathlib.Path(args.case).stem}_rao.nc").resolve()
    inputs = input_files(args.case)
    out = check_output(args, out, inputs)
    fig = pathlib.Path(args.figure).resolve() if args.figure else out.with_suffix(".png")
    fig = check_output(args, fig, inputs)
    if (args.hs is None) != (args.tp is None):
        raise CaseError("give both --hs and --tp (or neither: the case's sea)",
                        field="--hs" if args.hs is None else "--tp")  # fmt: skip
    model = load_model(args.case, approximate=args.approximate)
    lin = linearize(model, args.at)
    data = lin.excitation[0][0] if lin.excitation else None
    sea = _case_sea(model)
    if args.frequencies:
        lo, hi, n = args.frequencies
        if not (0 < lo < hi) or n < 2 or n != int(n):
            raise CaseError("expected MIN MAX N with 0 < MIN < MAX and an integer N >= 2",
                            field="--frequencies")  # fmt: skip
        omega = np.linspace(lo, hi, int(n))
    elif data is not None:
        omega = np.linspace(float(data.exc_omega[0]), float(data.exc_omega[-1]), 200)
    else:
        omega = np.linspace(0.02, 4.0, 200)
    if args.headings:
        headings = np.asarray(args.headings, float)
    elif sea is not None and sea.heading_deg is not None:
        headings = np.array([float(sea.heading_deg)])
    elif data is not None:
        headings = np.degrees(np.asarray(data.exc_heading, float))
    else:
        headings = np.zeros(1)
    spectrum, where = None, "no sea state (give --hs and --tp)"
    if args.hs is not None:
        try:
            spectrum = JonswapSpectrum(args.hs, args.tp, args.gamma)
        except ValueError as err:
            raise CaseError(str(err), field="--gamma" if "gamma" in str(err) else "--hs") from None
        where = spectrum.describe()
    elif sea is not None:
        spectrum = JonswapSpectrum(sea.hs, sea.tp, sea.gamma)
        where = spectrum.describe() + " (the case's sea)"
    t0 = time.perf_counter()
    R = raos(lin, omega, np.radians(headings), spectrum)
    t_rao = time.perf_counter() - t0
    resp = None
    if spectrum is not None:
        resp = response_spectra(R, omega, spectrum(omega))
    ds = rao_dataset(lin, omega, headings, R, spectrum, resp)
    ds.attrs["source"] = str(args.case)
    atomic_write(out, lambda tmp: ds.to_netcdf(tmp, engine="netcdf4", format="NETCDF4"))
    atomic_write(fig, lambda tmp: rao_figure(lin, omega, headings, R, tmp,
                                             fig.suffix.lstrip(".") or "png"))  # fmt: skip
    print(f"{args.case}: RAOs about the {lin.at} operating point, {omega.size} frequencies "
          f"{omega[0]:.3g}-{omega[-1]:.3g} rad/s x {headings.size} headings in "
          f"{t_rao * 1e3:.1f} ms")  # fmt: skip
    print(f"sea: {where}")
    if resp is not None:
        _, sigma, sig = resp
        print(f"{'heading (deg)':>13s}  " + " ".join(f"{d:>11s}" for d in lin.dof))
        for h, hd in enumerate(headings):
            print(f"{hd:13.4g}  " + " ".join(
                f"{v:11.4g}" if lin.units[i] == "m" else f"{np.degrees(v):11.4g}"
                for i, v in enumerate(sig[h])
            ))  # fmt: skip
        print("significant responses 4 sigma (m, deg)")
    print(f"written: {out}, {fig}")
    return 0


def _screen(args) -> int:
    """``--dlc``: the frequency-domain screening of a DLC set (floatwind.linear.screening)."""
    import time

    import numpy as np
    import xarray as xr

    from floatwind.dlc.spec import load_dlc
    from floatwind.io.safe import atomic_write, input_files
    from floatwind.linear.screening import screen

    for opt in ("hs", "tp", "gamma", "headings"):
        if getattr(args, opt) is not None:
            raise CaseError("the DLC set gives the sea states and headings", field=f"--{opt}")
    out = pathlib.Path(args.output or f"{pathlib.Path(args.case).stem}_screen.nc").resolve()
    out = check_output(args, out, input_files(args.case))
    t0 = time.perf_counter()
    dlc = load_dlc(args.case)
    omega = None
    if args.frequencies:
        lo, hi, n = args.frequencies
        omega = np.linspace(lo, hi, int(n))
    rows, skipped = screen(dlc, omega)
    wall = time.perf_counter() - t0
    if not rows:
        raise CaseError("the DLC set has no operating load condition to screen", field="dlc")
    dof = rows[0]["dof"]
    c = ("condition",)
    ds = xr.Dataset(
        {
            "dlc": (c, np.array([r["dlc"] for r in rows], dtype=object)),
            "wind_speed": (c, [r["wind_speed"] for r in rows], {"units": "m/s"}),
            "hs": (c, [r["hs"] for r in rows], {"units": "m"}),
            "tp": (c, [r["tp"] for r in rows], {"units": "s"}),
            "gamma": (c, [r["gamma"] for r in rows], {"units": "1"}),
            "heading": (c, [r["heading_deg"] for r in rows], {"units": "deg"}),
            "rotor": (c, np.array([r["rotor"] for r in rows], dtype=object)),
            "yaw_misalignment": (c, [r["yaw_misalignment_deg"] for r in rows], {"units": "deg"}),
            "response_std": (c + ("coordinate",), np.array([r["std"] for r in rows]),
                             {"units": "m or rad", "long_name": "standard deviation sqrt(m0)"}),
            "significant_response": (c + ("coordinate",), np.array([r["significant"] for r in rows]),
                                     {"units": "m or rad", "long_name": "4 sqrt(m0)"}),
            "mean_offset": (c + ("platform",), np.array([r["offset"] for r in rows]),
                            {"units": "m (surge, sway, heave), rad (roll, pitch, yaw)",
                             "long_name": "platform offset of the operating point (mean wind "
                                          "thrust and, with a drift load, the sea state's mean drift)"}),
            "mean_drift": (c + ("platform",), np.array([r["mean_drift"] for r in rows]),
                           {"units": "N (surge, sway, heave), N m (roll, pitch, yaw)",
                            "long_name": "mean wave drift of the sea state at the WAMIT reference "
                                         "point, earth axes (zero without a drift load)"}),
            "drift_variance_left_out": (c, [r["drift_left_out"] for r in rows],
                                        {"units": "1", "long_name": "fraction of the spectrum's "
                                         "variance outside the drift file's frequencies"}),
        },
        coords={"condition": [r["condition"] + "/" + r["dlc"] for r in rows], "coordinate": dof,
                "platform": ["PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmRoll", "PtfmPitch",
                             "PtfmYaw"]},
        attrs={"title": f"floatwind frequency-domain screening of {dlc.name}",
               "not_screened": "; ".join(skipped), "source": str(args.case),
               "conventions": "docs/linearization.md"},
    )  # fmt: skip
    atomic_write(out, lambda tmp: ds.to_netcdf(tmp, engine="netcdf4", format="NETCDF4"))
    sig = np.array([r["significant"] for r in rows])
    print(f"{args.case}: {len(rows)} load conditions screened in the frequency domain in "
          f"{wall:.1f} s")  # fmt: skip
    for note in skipped:
        print(f"  {note}")
    drift = np.array([r["mean_drift"] for r in rows])
    if np.any(drift != 0.0):
        k = int(np.argmax(np.hypot(drift[:, 0], drift[:, 1])))
        off = rows[k]["offset"]
        print(f"each sea state's mean wave drift is in its operating point; the largest: "
              f"{np.hypot(drift[k, 0], drift[k, 1]):.4g} N horizontal, offset surge {off[0]:.3g} m, "
              f"sway {off[1]:.3g} m, pitch {np.degrees(off[4]):.3g} deg (DLC {rows[k]['dlc']} "
              f"{rows[k]['condition']})")  # fmt: skip
    print("largest significant responses (m, deg) and their condition:")
    for i, d in enumerate(dof):
        k = int(np.argmax(sig[:, i]))
        val = sig[k, i] if d in ("PtfmSurge", "PtfmSway", "PtfmHeave") else np.degrees(sig[k, i])
        print(f"  {d:<10s} {val:10.4g}  DLC {rows[k]['dlc']} {rows[k]['condition']}")
    print(f"written: {out}")
    return 0
