"""Command-line and plotting helpers shared by the validation scripts of this folder."""

from __future__ import annotations

import argparse
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent


def parse_args(description: str) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=description)
    p.add_argument(
        "--out", type=pathlib.Path, default=None,
        help="folder for the PNG figures (default: a new temporary folder, printed)",
    )  # fmt: skip
    p.add_argument("--quick", action="store_true", help="fewer step sizes (smoke run)")
    args = p.parse_args()
    if args.out is None:  # never into the source tree
        import tempfile

        args.out = pathlib.Path(tempfile.mkdtemp(prefix="floatwind-lie-"))
        print(f"figures in {args.out}")
    args.out.mkdir(parents=True, exist_ok=True)
    return args


def error_figure(path, hs, errors: dict, title: str, fit_max_h: float):
    """Log-log error against step size with a second-order reference line (Giusti Fig. 3-5 (a))."""
    fig, ax = plt.subplots(figsize=(5.5, 4.2))
    for label, err in errors.items():
        ax.loglog(hs, err, "o-", label=label)
    ref_err = np.asarray(next(iter(errors.values())))
    sel = np.asarray(hs) <= fit_max_h
    h0 = np.asarray(hs)[sel][0]
    e0 = ref_err[sel][0]
    ax.loglog(hs, e0 * (np.asarray(hs) / h0) ** 2 * 3.0, "k--", label="second-order ref. line")
    ax.set_xlabel("time step size [s]")
    ax.set_ylabel("error [m]")
    ax.set_title(title, fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def report_orders(name, hs, errors: dict, fit_max_h, observed_order, tol=0.15) -> bool:
    ok = True
    hs = np.asarray(hs)
    sel = hs <= fit_max_h
    for label, err in errors.items():
        order = observed_order(hs[sel], np.asarray(err)[sel])
        good = abs(order - 2.0) <= tol
        ok &= good
        print(
            f"{name} {label}: observed order {order:.3f} over h <= {fit_max_h:g} s [{'ok' if good else 'FAIL'}]"
        )
        for h, e in zip(hs, err):
            print(f"    h = {h:8.1e} s   error = {e:.3e} m")
    return bool(ok)
