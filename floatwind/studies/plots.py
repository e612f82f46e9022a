"""Standard figures of a study (matplotlib, Agg): platform pitch vs design (Wang Fig. 25) and hull
weight per unit power at rated wind (Wang Fig. 26), from the study's ``results.csv``.

Design ``params`` used: ``cylinder_length`` (m, x axis; default the design's position),
``hull_mass_t`` (t, Fig. 26), ``paper_power_MW`` (the dissertation's power, tabulated beside ours).
Condition ``params``: ``rated: true`` marks the rated-wind condition of Fig. 26 (default: the
condition whose ``wind_speed`` is 17 m/s).
"""

from __future__ import annotations

import logging
import pathlib

import numpy as np
import pandas as pd

from floatwind.studies.spec import Study
from floatwind.studies.stats import si_from_human

log = logging.getLogger(__name__)


def _x(study: Study) -> tuple[list[float], str]:
    xs = [d.get("params", {}).get("cylinder_length") for d in study.designs]
    if all(x is not None for x in xs):
        return [float(x) for x in xs], "cylinder length (m)"
    return list(range(len(study.designs))), "design"


def _value(res: pd.DataFrame, d, c, v, q) -> tuple[float, float, float]:
    row = res[(res.design == d) & (res.condition == c) & (res.variant == v) & (res.quantity == q)]
    if row.empty:
        return (np.nan, np.nan, np.nan)
    r = row.iloc[0]
    k = si_from_human(r)  # results.csv gives angles in degrees: back to SI here
    return float(r["mean"]) * k, float(r["ci_low"]) * k, float(r["ci_high"]) * k


def pitch_table(study: Study, results: pd.DataFrame) -> pd.DataFrame:
    """Fig. 25 data: mean and std of PtfmPitch (deg) per design, condition, variant."""
    xs, _ = _x(study)
    rows = []
    for d, x in zip(study.designs, xs, strict=True):
        for c in study.conditions:
            for v in study.variants:
                m = _value(results, d["name"], c["name"], v["name"], "PtfmPitch.mean")
                s = _value(results, d["name"], c["name"], v["name"], "PtfmPitch.std")
                rows.append(
                    {
                        "design": d["name"],
                        "x": x,
                        "condition": c["name"],
                        "variant": v["name"],
                        "pitch_mean_deg": np.degrees(m[0]),
                        "pitch_std_deg": np.degrees(s[0]),
                        "pitch_mean_ci_deg": np.degrees(0.5 * (m[2] - m[1])),
                        "pitch_std_ci_deg": np.degrees(0.5 * (s[2] - s[1])),
                    }
                )
    return pd.DataFrame(rows)


def rated_condition(study: Study) -> dict | None:
    for c in study.conditions:
        if c.get("params", {}).get("rated"):
            return c
    for c in study.conditions:
        if c.get("wind_speed") == 17:
            return c
    return None


def power_table(study: Study, results: pd.DataFrame) -> pd.DataFrame:
    """Fig. 26 data: mean aerodynamic power (MW) at rated wind and hull weight per unit power
    (t/MW) per design and variant, with the dissertation's power where the design gives it."""
    c = rated_condition(study)
    xs, _ = _x(study)
    rows = []
    if c is None:
        return pd.DataFrame(rows)
    for d, x in zip(study.designs, xs, strict=True):
        p = d.get("params", {})
        for v in study.variants:
            pw = _value(results, d["name"], c["name"], v["name"], "RtAeroPwr.mean")
            hull = p.get("hull_mass_t")
            rows.append(
                {
                    "design": d["name"],
                    "x": x,
                    "variant": v["name"],
                    "power_MW": pw[0] / 1e6,
                    "power_ci_MW": 0.5 * (pw[2] - pw[1]) / 1e6,
                    "paper_power_MW": p.get("paper_power_MW", np.nan),
                    "hull_mass_t": hull if hull is not None else np.nan,
                    "hull_t_per_MW": (hull / (pw[0] / 1e6)) if hull is not None else np.nan,
                }
            )
    return pd.DataFrame(rows)


def _sample_note(study: Study, results: pd.DataFrame, out_dir: pathlib.Path) -> str:
    """'N realizations of T s per point' (statistics after the transient): what a reader needs
    to judge the scatter of the figure."""
    n = int(results["n"].max()) if "n" in results and len(results) else study.realizations
    t = study.duration
    if t is None:  # the cases' own length: read it off a finished batch
        from floatwind.studies.execute import batch_files

        files = batch_files(out_dir, "*.nc")
        if files:
            import xarray as xr

            with xr.open_dataset(files[0], engine="netcdf4") as ds:
                t = float(ds["time"].values[-1])
    length = f"{t:g} s" if t is not None else "case-length"
    skip = f", statistics after {study.transient:g} s" if study.transient else ""
    return f"{n} realization{'s' if n != 1 else ''} of {length} per point{skip}"


def standard_figures(
    study: Study, out_dir: str | pathlib.Path, fig_dir: str | pathlib.Path | None = None
) -> list[pathlib.Path]:
    """Write Fig. 25 / Fig. 26 (PNG) and their data (CSV); return the paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir = pathlib.Path(out_dir)
    fig_dir = pathlib.Path(fig_dir) if fig_dir else out_dir / "figures"
    fig_dir.mkdir(parents=True, exist_ok=True)
    results = pd.read_csv(out_dir / "results.csv")
    paths = []
    _, xlabel = _x(study)
    colors = ["k", "tab:blue", "tab:red", "tab:green"]
    if (results.quantity == "PtfmPitch.mean").any():
        tab = pitch_table(study, results)
        tab.to_csv(fig_dir / "fig25_pitch.csv", index=False)
        paths.append(fig_dir / "fig25_pitch.csv")
        n = len(study.conditions)
        fig, axes = plt.subplots(1, n, figsize=(3.2 * n, 3.4), sharey=True, squeeze=False)
        for ax, c in zip(axes[0], study.conditions, strict=True):
            for k, v in enumerate(study.variants):
                t = tab[(tab.condition == c["name"]) & (tab.variant == v["name"])].sort_values("x")
                col = colors[k % len(colors)]
                ax.plot(t.x, t.pitch_mean_deg, "-o", color=col, label=f"mean, {v['name']}")
                ax.plot(t.x, 10 * t.pitch_std_deg, "--s", color=col, label=f"10 x std, {v['name']}")
            title = c["name"]
            if "wind_speed" in c:
                title = f"{c['wind_speed']:g} m/s, Hs {c.get('hs', 0):g} m, Tp {c.get('tp', 0):g} s"
            ax.set_title(title, fontsize=9)
            ax.set_xlabel(xlabel)
            ax.grid(alpha=0.3)
        axes[0][0].set_ylabel("platform pitch (deg)")
        axes[0][-1].legend(fontsize=7)
        fig.suptitle(f"{study.name}: platform pitch (Wang Fig. 25); {_sample_note(study, results, out_dir)}",
                     fontsize=9)  # fmt: skip
        fig.tight_layout()
        fig.savefig(fig_dir / "fig25_pitch.png", dpi=120)
        plt.close(fig)
        paths.append(fig_dir / "fig25_pitch.png")
    ptab = power_table(study, results)
    if len(ptab) and np.isfinite(ptab.power_MW).any():
        ptab.to_csv(fig_dir / "fig26_power.csv", index=False)
        paths.append(fig_dir / "fig26_power.csv")
        fig, ax = plt.subplots(figsize=(4.5, 3.4))
        for k, v in enumerate(study.variants):
            t = ptab[ptab.variant == v["name"]].sort_values("x")
            ax.plot(t.x, t.hull_t_per_MW, "-o", color=colors[k % len(colors)], label=v["name"])
        ax.set_xlabel(xlabel)
        ax.set_ylabel("hull weight / power (t/MW)")
        ax.set_title("hull weight per unit power at rated wind (Wang Fig. 26)", fontsize=9)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(fig_dir / "fig26_weight_per_power.png", dpi=120)
        plt.close(fig)
        paths.append(fig_dir / "fig26_weight_per_power.png")
    return paths
