"""RAOs with tower modes against floatwind's own nonlinear time-domain run (issue 40).

ref13 (OC3 spar, WAMIT A(w), B(w), X(w), JONSWAP 3.5 m / 9 s / gamma 2 from 10 deg, 600 s)
with ElastoDyn's first fore-aft and side-to-side tower modes switched on (TwFADOF1, TwSSDOF1)
in a copy of the deck: the transfer function of floatwind's time-domain run from the wave
elevation at the origin (Wave1Elev) to platform pitch and the tower-top deflection TTDspFA
(H1 = cross-spectrum / elevation spectrum, Welch with 100 s segments after 100 s, where the
coherence exceeds 0.9 in 0.45..1.3 rad/s) against the frequency-domain RAO of the linearised
model (`floatwind rao`), as tests/test_rao.py does for OpenFAST's rigid-tower run.

    python validation/linear/tower_rao.py [--keep DIR]

Prints the rms amplitude-ratio error and the largest phase difference per channel; exit 1
when a channel is off by more than 6 % rms or 6 deg (the tolerance of the OpenFAST test).
The time-domain run compiles the flexible-tower + potential-flow model once (minutes on a
loaded machine) and steps 600 s.
"""

from __future__ import annotations

import argparse
import pathlib
import re
import shutil
import sys
import tempfile

import numpy as np
from scipy import signal

ROOT = pathlib.Path(__file__).resolve().parents[2]
REF13 = ROOT / "../shared/reference/openfast/ref13_potential_irregular"
FILES = ("ElastoDyn.dat", "ElastoDyn_Blade.dat", "ElastoDyn_Tower.dat", "HydroData",
         "HydroDyn.dat", "SeaState.dat", "ref13_potential_irregular.fst")  # fmt: skip


def flexible_deck(folder: pathlib.Path) -> pathlib.Path:
    """A copy of ref13 in ``folder`` with TwFADOF1 and TwSSDOF1 switched on."""
    for name in FILES:
        src = REF13 / name
        if src.is_dir():
            shutil.copytree(src, folder / name, dirs_exist_ok=True)
        else:
            shutil.copy(src, folder / name)
    ed = folder / "ElastoDyn.dat"
    text = ed.read_text()
    for key in ("TwFADOF1", "TwSSDOF1"):
        text, n = re.subn(rf"^(\s*)False(\s+{key}\b)", r"\1True \2", text, flags=re.M)
        assert n == 1, key
    ed.write_text(text)
    return folder / "ref13_potential_irregular.fst"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keep", help="folder for the deck copy and the run (default: a temp folder)")
    args = ap.parse_args(argv)
    from floatwind.cli._case import load_model
    from floatwind.linear.matrices import linearize
    from floatwind.linear.rao import raos
    from floatwind.simulate import simulate

    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(args.keep or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        deck = flexible_deck(folder)
        model = load_model(str(deck))
        lin = linearize(model, "equilibrium")
        run = folder / "run.nc"
        if args.keep and run.is_file():  # a kept run is reused
            import xarray as xr

            ds = xr.load_dataset(run)
        else:
            ds = simulate(model, progress=False)
            if args.keep:
                ds.to_netcdf(run)
    t = ds["time"].values
    keep = t > 100.0
    fs = 1.0 / float(t[1] - t[0])
    origin = np.zeros((1, 1, 2))  # the wave elevation at the origin (OpenFAST's Wave1Elev)
    eta = np.array([float(model.env.sea.elevation(float(tk), origin)[0, 0]) for tk in t[keep]])
    ok = True
    for ch, dof in (
        ("PtfmPitch", "PtfmPitch"),
        ("TTDspFA", "TwFADOF1"),
        ("PtfmSurge", "PtfmSurge"),
    ):
        x = ds[ch].values[keep]
        f, Pxy = signal.csd(eta, x, fs=fs, nperseg=int(round(100 * fs)))
        _, Pxx = signal.welch(eta, fs=fs, nperseg=int(round(100 * fs)))
        _, coh = signal.coherence(eta, x, fs=fs, nperseg=int(round(100 * fs)))
        om = 2 * np.pi * f
        sel = (om > 0.45) & (om < 1.3) & (coh > 0.9)
        H = (Pxy / Pxx)[sel]
        R = raos(lin, om[sel], np.radians([10.0]))[:, 0, lin.dof.index(dof)]
        ratio = np.abs(H) / np.abs(R)
        rms = float(np.sqrt(np.mean((ratio - 1) ** 2)))
        phase = float(np.max(np.abs(np.degrees(np.angle(H * np.conj(R))))))
        print(f"{ch:10s} ({dof}): {sel.sum()} frequencies, rms amplitude-ratio error "
              f"{100 * rms:.2f} %, largest phase difference {phase:.2f} deg, |RAO| "
              f"{np.abs(R).min():.4g}..{np.abs(R).max():.4g}")  # fmt: skip
        ok &= sel.sum() >= 10 and rms < 0.06 and phase < 6.0
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
