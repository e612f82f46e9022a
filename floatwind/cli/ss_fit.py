"""``floatwind ss-fit ROOT -o FILE.ss|FILE.ssexctn``: a fitted state-space model (radiation or
excitation) of a WAMIT body as HydroDyn's file."""

from __future__ import annotations

import argparse
import pathlib

from floatwind.cli._common import check_output, examples, output_options
from floatwind.errors import CaseError

NAME = "ss-fit"
EPILOG = examples([
    ("floatwind ss-fit ../shared/reference/openfast/ref07_potential_decay/HydroData/spar "
     "-o spar.ss", "frequency-domain fit of the OC3 hull's radiation kernels (1e-3), as .ss"),
    ("floatwind ss-fit HydroData/marin_semi --ulen 1 --tolerance 3e-3 -o marin_semi.ss",
     "a looser fit (fewer states) of another body's files"),
])  # fmt: skip

#: options that belong to one kind of file, with their defaults
_ONLY = {"method": ("fdi", False), "rdtn_tmax": (60.0, False), "heading": (0.0, True),
         "tc": (None, True), "gravity": (9.80665, True)}  # (default, excitation only)  # fmt: skip


def add_arguments(sf: argparse.ArgumentParser) -> None:
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
    output_options(sf)


def main(args) -> int:
    from floatwind.loads import hydrodyn_ss as hs
    from floatwind.loads import radiation_fit as rf
    from floatwind.loads.potential import PotentialExcitationSS, PotentialRadiationSS

    out = pathlib.Path(args.output)
    excitation = out.suffix == ".ssexctn"
    if out.suffix not in (".ss", ".ssexctn"):
        raise CaseError(f"expected a .ss or .ssexctn file name, got {out.name}", field="--output")
    check_output(args, out, [pathlib.Path(args.wamit + ext) for ext in (".1", ".3", ".hst")])
    for name in ("tolerance", "max_order", "rho", "ulen", "rdtn_tmax", "gravity"):
        value = getattr(args, name)
        if value is not None and not value > 0:
            raise CaseError(f"must be positive, got {value}", field=f"--{name.replace('_', '-')}")
    for name, (default, for_excitation) in _ONLY.items():
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
