"""Free decays of OC3-Hywind with the catenary lines against the same runs with the OC3 linear
mooring matrix.

    python validation/mooring/decay_vs_matrix.py OUT_DIR [--tmax 600]

The rigid OC3 model of the ref06 reference (validation/mooring/_oc3.py) runs free decays from
small offsets (surge 1 m, heave 0.2 m, pitch 0.01 rad, yaw 0.01 rad, one batch each) with both
moorings: the natural periods (mean zero-crossing period about the final mean) must agree within
2 % (issue 18). The same is shown from a 20 m surge offset, where the matrix is a poor model of
the lines: ``decay_20m_surge.png`` (surge and pitch of both, and the fairlead tensions of the
catenary run). Report: ``OUT_DIR/decay_vs_matrix.md``. Exit status 1 when a check fails.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from validation.mooring._oc3 import oc3_case  # noqa: E402

SMALL = {  # channel: (displacement, angles)
    "PtfmSurge": ((1.0, 0.0, 0.0), (0.0, 0.0, 0.0)),
    "PtfmHeave": ((0.0, 0.0, 0.2), (0.0, 0.0, 0.0)),
    "PtfmPitch": ((0.0, 0.0, 0.0), (0.0, 0.01, 0.0)),
    "PtfmYaw": ((0.0, 0.0, 0.0), (0.0, 0.0, 0.01)),
}


def period(t: np.ndarray, x: np.ndarray) -> float:
    """Mean period between upward crossings of the mean of the last half of the record."""
    x = x - np.mean(x[len(x) // 2 :])
    up = np.nonzero((x[:-1] < 0) & (x[1:] >= 0))[0]
    if up.size < 2:
        return float("nan")
    tc = t[up] - x[up] * (t[up + 1] - t[up]) / (x[up + 1] - x[up])
    return float(np.mean(np.diff(tc)))


def run(mooring: str, disp, ang, t_max: float):
    from floatwind.case.loader import model_from_dict
    from floatwind.simulate import simulate

    return simulate(
        model_from_dict(oc3_case(mooring, displacement=disp, angles=ang, t_max=t_max, dt=0.05)),
        progress=False,
    )


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out_dir", type=pathlib.Path)
    p.add_argument("--tmax", type=float, default=600.0)
    args = p.parse_args(argv)
    out = args.out_dir
    out.mkdir(parents=True, exist_ok=True)
    disp = [v[0] for v in SMALL.values()]
    ang = [v[1] for v in SMALL.values()]
    ds = {m: run(m, disp, ang, args.tmax) for m in ("catenary", "matrix")}
    rows = []
    for b, ch in enumerate(SMALL):
        t = ds["catenary"].time.values
        pc = period(t, ds["catenary"][ch].values[b])
        pm = period(t, ds["matrix"][ch].values[b])
        rows.append((ch, pc, pm, abs(pc / pm - 1)))
    big = {m: run(m, [(20.0, 0.0, 0.0)], [(0.0, 0.0, 0.0)], args.tmax) for m in ds}

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axs = plt.subplots(3, 1, figsize=(8, 8), sharex=True)
    for m, style in (("catenary", "-"), ("matrix", "--")):
        d = big[m]
        t = d.time.values
        axs[0].plot(t, np.ravel(d["PtfmSurge"].values), style, label=m)
        axs[1].plot(t, np.degrees(np.ravel(d["PtfmPitch"].values)), style, label=m)
    for i in (1, 2, 3):
        d = big["catenary"]
        axs[2].plot(d.time.values, np.ravel(d[f"FAIRTEN{i}"].values) / 1e3, label=f"FAIRTEN{i}")
    axs[0].set_ylabel("surge (m)")
    axs[1].set_ylabel("pitch (deg)")
    axs[2].set_ylabel("fairlead tension (kN)")
    axs[2].set_xlabel("time (s)")
    for a in axs:
        a.grid(True)
        a.legend(fontsize=8)
    axs[0].set_title(
        "OC3-Hywind (rigid) free decay from 20 m surge: catenary lines vs linear matrix"
    )
    fig.tight_layout()
    fig.savefig(out / "decay_20m_surge.png", dpi=100)
    plt.close(fig)

    p_big = {m: period(big[m].time.values, np.ravel(big[m]["PtfmSurge"].values)) for m in big}
    ok = all(r[3] <= 0.02 for r in rows)
    lines = ["# Free decay: catenary lines vs OC3 linear matrix", "",
             "| motion (small amplitude) | period catenary (s) | period matrix (s) | rel. diff. | pass (<= 2 %) |",
             "|---|---|---|---|---|"]  # fmt: skip
    lines += [f"| {c} | {a:.3f} | {b:.3f} | {r:.2e} | {'yes' if r <= 0.02 else 'NO'} |"
              for c, a, b, r in rows]  # fmt: skip
    lines += ["", f"From 20 m surge: surge period catenary {p_big['catenary']:.2f} s, matrix "
              f"{p_big['matrix']:.2f} s; max fairlead tension "
              f"{max(float(np.max(big['catenary'][f'FAIRTEN{i}'].values)) for i in (1, 2, 3)) / 1e3:.0f} kN. "
              "Figure: decay_20m_surge.png", ""]  # fmt: skip
    (out / "decay_vs_matrix.md").write_text("\n".join(lines))
    print("\n".join(lines))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
