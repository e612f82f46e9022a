"""floatwind wall time per reference case next to OpenFAST's (quoted in each reference README).

    python benchmarks/vs_openfast.py [--tmax S] [REF_ROOT]

Runs the imported deck (lumped bodies, RK4 at the deck's DT, no load channels) over ``--tmax``
seconds (default: the whole TMax) and prints wall times scaled per simulated second and the ratio
floatwind / OpenFAST (OpenFAST: the README's "wall s per simulated s", 2-core Debian machine).
"""

from __future__ import annotations

import argparse
import pathlib
import re
import time


def openfast_wall_per_s(readme: pathlib.Path) -> float | None:
    """'wall s per simulated s' from the README's run table."""
    for line in readme.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if (
            len(cells) >= 5
            and re.fullmatch(r"[\d.]+", cells[0] or "x")
            and re.fullmatch(r"[\d.]+", cells[4])
        ):
            return float(cells[4])
    return None


def main() -> None:
    from floatwind.case.openfast_import import model_from_deck
    from floatwind.simulate import simulate

    p = argparse.ArgumentParser()
    p.add_argument("root", nargs="?", default="/work/shared/reference/openfast")
    p.add_argument("--tmax", type=float, default=None)
    args = p.parse_args()
    print(f"{'case':<28s} {'T (s)':>7s} {'floatwind s/s':>14s} {'OpenFAST s/s':>13s} {'ratio':>7s}")
    for d in sorted(pathlib.Path(args.root).glob("ref0*")):
        fst = next(d.glob("*.fst"))
        over = {} if args.tmax is None else {"simulation.t_max": args.tmax}
        model = model_from_deck(fst, overrides=over)
        t0 = time.perf_counter()
        simulate(model, progress=False)
        wall = time.perf_counter() - t0
        per_s = wall / model.settings.t_max
        ofs = openfast_wall_per_s(d / "README.md")
        ratio = f"{per_s / ofs:7.2f}" if ofs else "    n/a"
        print(
            f"{d.name:<28s} {model.settings.t_max:7.1f} {per_s:14.4f} {ofs or float('nan'):13.3f} {ratio}",
            flush=True,
        )


if __name__ == "__main__":
    main()
