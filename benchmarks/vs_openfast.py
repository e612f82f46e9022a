"""floatwind wall time per reference case next to OpenFAST's (quoted in each reference README).

    python benchmarks/vs_openfast.py [--tmax S] [REF_ROOT]

Runs the imported deck (lumped bodies, RK4 at the deck's DT, no load channels) over ``--tmax``
seconds (default: the whole TMax) and prints wall and CPU times scaled per simulated second and the
ratios floatwind / OpenFAST (OpenFAST: the README's "wall s per simulated s" and "user CPU (s)" /
TMax, single-threaded on a 2-core Debian machine). The CPU-time ratio is the one to quote on a
shared or loaded machine (wall time then includes waiting for a core). ref05's sea is imported by
its JONSWAP parameters (its own phases; the kinematics cost is the same). Set
``OMP_NUM_THREADS=1`` for a like-for-like single-threaded comparison.
"""

from __future__ import annotations

import argparse
import pathlib
import re
import time


def openfast_run_table(readme: pathlib.Path) -> tuple[float | None, float | None]:
    """('wall s per simulated s', 'user CPU s per simulated s') from the README's run table
    (columns TMax | DT | DT_Out | wall | wall per s | user CPU | ...)."""
    for line in readme.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if (
            len(cells) >= 5
            and re.fullmatch(r"[\d.]+", cells[0] or "x")
            and re.fullmatch(r"[\d.]+", cells[4])
        ):
            cpu = None
            if len(cells) >= 6 and re.fullmatch(r"[\d.]+", cells[5]):
                cpu = float(cells[5]) / float(cells[0])
            return float(cells[4]), cpu
    return None, None


def openfast_wall_per_s(readme: pathlib.Path) -> float | None:
    """'wall s per simulated s' from the README's run table."""
    return openfast_run_table(readme)[0]


def main() -> None:
    from floatwind.case.openfast_import import model_from_deck
    from floatwind.simulate import simulate

    p = argparse.ArgumentParser()
    p.add_argument("root", nargs="?", default="/work/shared/reference/openfast")
    p.add_argument("--tmax", type=float, default=None)
    args = p.parse_args()
    print(
        f"{'case':<28s} {'T (s)':>7s} {'dt (s)':>7s} {'fw wall s/s':>12s} {'OF wall s/s':>12s} "
        f"{'ratio':>7s} {'fw CPU s/s':>11s} {'OF CPU s/s':>11s} {'ratio':>7s}"
    )
    for d in sorted(pathlib.Path(args.root).glob("ref0*")):
        fst = next(d.glob("*.fst"))
        over = {} if args.tmax is None else {"simulation.t_max": args.tmax}
        model = model_from_deck(fst, overrides=over)
        t0, c0 = time.perf_counter(), time.process_time()
        simulate(model, progress=False)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        per_s, cpu_s = wall / model.settings.t_max, cpu / model.settings.t_max
        ofs, ofc = openfast_run_table(d / "README.md")
        ratio = f"{per_s / ofs:7.2f}" if ofs else "    n/a"
        cratio = f"{cpu_s / ofc:7.2f}" if ofc else "    n/a"
        print(
            f"{d.name:<28s} {model.settings.t_max:7.1f} {model.settings.dt:7.4f} {per_s:12.4f} "
            f"{ofs or float('nan'):12.3f} {ratio} {cpu_s:11.4f} {ofc or float('nan'):11.3f} {cratio}",
            flush=True,
        )


if __name__ == "__main__":
    main()
