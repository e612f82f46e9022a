"""Capytaine on the OC3 hull of the case library (``cases/oc3_hywind.yaml``, its hydrostatics
members) against the shared WAMIT files ``ref07_potential_decay/HydroData/spar.{1,3}`` (Capytaine
3.0.0, the same hull as a 32-sided polygon, 1,600 panels, lid, infinite depth), at three mesh
resolutions (mesh independence).

    python validation/bem/oc3_capytaine.py [--out DIR] [--quick]

Prints, per resolution, the largest relative error of the added mass over the frequencies, of the
radiation damping where it is significant (above 5 % of its largest value over the shared file's
frequencies) and of the excitation magnitude (heading 0, above 5 % of its largest value), with the
run time per frequency; writes ``oc3_capytaine.png`` to ``--out`` (default a temporary folder).
Exit status 1 when the resolution with the shared file's layout (32 sides, 1,600 panels) is not
within 2 %. See README.md here for the measured numbers.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import tempfile
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "reference" / "openfast" / "ref07_potential_decay" / "HydroData"
CASE = ROOT / "cases" / "oc3_hywind.yaml"
RHO, G = 1025.0, 9.80665
#: (sides, panels): the shared file's layout, then finer
RESOLUTIONS = ((32, 1600), (48, 3600), (64, 6400))
OMEGA = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.9, 2.2, 2.6, 3.0)
ENTRIES = ((0, 0), (2, 2), (4, 4), (0, 4), (5, 5))
NAMES = {(0, 0): "11", (2, 2): "33", (4, 4): "55", (0, 4): "15", (5, 5): "66"}
SIGNIFICANT = 0.05


def run(out: pathlib.Path, quick: bool = False) -> dict:
    import yaml

    from floatwind.bem import compute_coefficients, hull_from_profile, profile_from_members
    from floatwind.loads.wamit import read_wamit

    ref = read_wamit(SHARED / "spar", rho=RHO, gravity=G)
    loads = yaml.safe_load(CASE.read_text())["loads"]
    i_h = next(i for i, ld in enumerate(loads) if ld.get("type") == "hydrostatics")
    prof = profile_from_members(loads[i_h]["members"], f"loads[{i_h}].members")
    k = np.array([int(np.argmin(abs(ref.omega - w))) for w in OMEGA])
    ke = np.array([int(np.argmin(abs(ref.exc_omega - w))) for w in OMEGA])
    omega = ref.omega[k]
    Bmax = np.abs(ref.damping).max(axis=0)
    Xref = ref.excitation[ke, 0]  # heading 0
    Xmax = np.abs(ref.excitation[:, 0]).max(axis=0)
    results = {}
    for sides, panels in RESOLUTIONS[: 2 if quick else 3]:
        hull = hull_from_profile(prof, panels=panels, n_sectors=sides, name="oc3",
                                 source=str(CASE))  # fmt: skip
        t0 = time.perf_counter()
        ds = compute_coefficients(hull, omega=omega, headings_deg=[0.0, 15.0, 30.0, 45.0],
                                  rho=RHO, g=G, cache_dir=out / "cache")  # fmt: skip
        wall = time.perf_counter() - t0
        A, B = ds.added_mass.values, ds.radiation_damping.values
        X = ds.excitation_re.values[:, 0] + 1j * ds.excitation_im.values[:, 0]
        row = {"panels": hull.n_panels, "lid": hull.n_lid_panels, "volume": hull.volume,
               "s_per_freq": ds.attrs["seconds_per_frequency"], "wall": wall,
               "cache": ds.attrs["cache"], "A": A, "B": B}  # fmt: skip
        for ij in ENTRIES:
            i, j = ij
            if ij == (5, 5):  # yaw of an axisymmetric hull: zero up to round-off
                row[f"A{NAMES[ij]}"] = float(np.abs(A[:, i, j]).max() / np.abs(A[:, 0, 0]).max())
                continue
            row[f"A{NAMES[ij]}"] = float(np.max(np.abs(A[:, i, j] / ref.added_mass[k, i, j] - 1)))
            for level, tag in ((SIGNIFICANT, ""), (0.2, "@20")):
                sig = np.abs(ref.damping[k, i, j]) > level * Bmax[i, j]
                row[f"B{NAMES[ij]}{tag}"] = float(np.max(np.abs(
                    B[sig, i, j] / ref.damping[k][sig, i, j] - 1)))  # fmt: skip
        for i in (0, 2, 4):
            sig = np.abs(Xref[:, i]) > SIGNIFICANT * Xmax[i]
            row[f"X{i + 1}"] = float(np.max(np.abs(np.abs(X[sig, i]) / np.abs(Xref[sig, i]) - 1)))
        row["Ainf33"] = float(ds.added_mass_inf.values[2, 2] / ref.added_mass_inf[2, 2] - 1)
        row["Ainf11"] = float(ds.added_mass_inf.values[0, 0] / ref.added_mass_inf[0, 0] - 1)
        row["A0_11"] = float(ds.added_mass_zero.values[0, 0] / ref.added_mass_zero[0, 0] - 1)
        results[(sides, panels)] = row
        base = results[RESOLUTIONS[0]]
        row["study"] = {}
        for ij in ENTRIES[:4]:
            i, j = ij
            row["study"][f"A{NAMES[ij]}"] = float(np.max(np.abs(A[:, i, j] / base["A"][:, i, j]
                                                                - 1)))  # fmt: skip
            sig = np.abs(ref.damping[k, i, j]) > SIGNIFICANT * Bmax[i, j]
            row["study"][f"B{NAMES[ij]}"] = float(np.max(np.abs(
                B[sig, i, j] / base["B"][sig, i, j] - 1)))  # fmt: skip
    _table(results)
    _figure(results, ref, k, omega, out / "oc3_capytaine.png")
    return results


def _table(results) -> None:
    cols = ["A11", "A33", "A55", "A15", "B11", "B33", "B55", "B15", "B33@20", "B15@20", "X1",
            "X3", "X5", "Ainf11", "Ainf33", "A0_11"]  # fmt: skip
    print("largest relative difference from the shared spar.1/.3 over "
          f"{len(OMEGA)} frequencies {OMEGA[0]}-{OMEGA[-1]} rad/s (B and |X|: where above "
          f"{SIGNIFICANT:.0%} of the largest, @20: 20 %; heading 0 deg for X; limits signed):")  # fmt: skip
    print(f"{'sides/panels':>13s} {'lid':>4s} " + " ".join(f"{c:>7s}" for c in cols)
          + f" {'A66/A11':>8s} {'s/freq':>7s} {'cache':>5s}")  # fmt: skip
    for (sides, _panels), r in results.items():
        print(f"{sides:>4d}/{r['panels']:<8d} {r['lid']:>4d} "
              + " ".join(f"{100 * r[c]:6.2f}%" for c in cols)
              + f" {r['A66']:8.1e} {r['s_per_freq']:7.2f} {r['cache']:>5s}")  # fmt: skip
    print(f"displaced volume {next(iter(results.values()))['volume']:.3f} m^3 (OC3 8,029.21)")


def _figure(results, ref, k, omega, path: pathlib.Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 3, figsize=(13, 7))
    for c, (i, j) in enumerate(((0, 0), (2, 2), (4, 4))):
        for r_, (key, what) in enumerate((("A", ref.added_mass), ("B", ref.damping))):
            ax = axes[r_, c]
            ax.plot(ref.omega, what[:, i, j], "k-", lw=2, label="shared spar.1 (32 sides, 1,600)")
            for (sides, _p), res in results.items():
                ax.plot(omega, res[key][:, i, j], "o--", ms=4,
                        label=f"floatwind bem {sides} sides, {res['panels']} panels")  # fmt: skip
            ax.set_xlabel("omega (rad/s)")
            ax.set_title(f"{key}{i + 1}{j + 1}")
            ax.set_xlim(0, 3.2)
            ax.grid(True)
    axes[0, 0].legend(fontsize=7)
    fig.suptitle("OC3 hull: Capytaine via floatwind bem vs the shared WAMIT file")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    print(f"wrote {path}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", help="folder for the figure and the BEM cache (default: temporary)")
    p.add_argument("--quick", action="store_true", help="the two coarser resolutions only")
    args = p.parse_args(argv)
    if not (SHARED / "spar.1").is_file():
        print(f"the shared WAMIT files are missing: {SHARED}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="floatwind-bem-") as tmp:
        out = pathlib.Path(args.out) if args.out else pathlib.Path(tmp)
        res = run(out, args.quick)
    first = res[RESOLUTIONS[0]]
    keys = ("A11", "A33", "A55", "A15", "B11", "B33", "B55", "B15")
    bad = [c for c in keys if not first[c] <= 0.02]
    ok = not bad
    print(("agrees" if ok else "DIFFERS") + ": the shared file's layout (32 sides, 1,600 panels) "
          f"within 2 % in A and in B above {SIGNIFICANT:.0%} of its largest"
          + (f" except {', '.join(bad)}" if bad else ""))  # fmt: skip
    fine = res[max(res)]
    print(f"mesh independence, {max(res)[0]} sides / {fine['panels']} panels against 32 / "
          f"{first['panels']} (largest over the frequencies, B where significant): "
          + ", ".join(f"{c} {100 * fine['study'][c]:.2f}%" for c in fine["study"]))  # fmt: skip
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
