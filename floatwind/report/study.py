"""The report of a finished ``floatwind study`` folder: one self-contained HTML page.

It opens with a summary (runs ok / failed, designs, conditions, variants, realizations, run
length) and one row per (design, condition, variant) with the ensemble mean and 95 % interval of
each channel's mean and standard deviation, then a table of contents, a figure per channel (mean
and sigma over the conditions, one line per design and variant, with the intervals), the study's
standard figures when ``floatwind plot`` made them, and collapsible per-condition sections with
every quantity of ``results.csv``. Everything is read from the folder (``study.json``,
``results.csv``, ``runs_summary.csv``, ``figures/*.png``), so ``floatwind report study DIR``
rebuilds it at any time.
"""

from __future__ import annotations

import html
import json
import pathlib

import numpy as np
import pandas as pd

from floatwind.errors import CaseError
from floatwind.io.safe import atomic_write
from floatwind.report.page import contents, head, png, png_file, read_csv
from floatwind.report.page import table as html_table

#: channels drawn at most (the tables hold every one)
MAX_FIGURES = 8


def _channels(res: pd.DataFrame) -> list[str]:
    return list(dict.fromkeys(q.rpartition(".")[0] for q in res["quantity"]))


def _summary_rows(res: pd.DataFrame) -> pd.DataFrame:
    """One row per (design, condition, variant): n and 'mean [lo, hi]' of each channel's
    mean and std, in the units of results.csv."""
    rows = []
    for (d, c, v), g in res.groupby(["design", "condition", "variant"], sort=False):
        row = {"design": d, "condition": c, "variant": v, "n": int(g["n"].max())}
        for _, r in g.iterrows():
            ch, _, stat = r["quantity"].rpartition(".")
            if stat not in ("mean", "std"):
                continue
            row[f"{ch} {stat} [{r['units']}]"] = (
                f"{r['mean']:.4g} [{r['ci_low']:.4g}, {r['ci_high']:.4g}]"
                if np.isfinite(r["ci_low"]) else f"{r['mean']:.4g}"
            )  # fmt: skip
        rows.append(row)
    return pd.DataFrame(rows)


def _channel_figure(res: pd.DataFrame, ch: str) -> str | None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    part = res[res["quantity"].isin([f"{ch}.mean", f"{ch}.std"])]
    if part.empty:
        return None
    conds = list(dict.fromkeys(part["condition"]))
    x = np.arange(len(conds))
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.0))
    for ax, stat in zip(axes, ("mean", "std"), strict=True):
        q = part[part["quantity"] == f"{ch}.{stat}"]
        for (d, v), g in q.groupby(["design", "variant"], sort=False):
            xi = np.array([conds.index(c) for c in g["condition"]])
            y = g["mean"].to_numpy(float)
            lo = np.nan_to_num(y - g["ci_low"].to_numpy(float))
            hi = np.nan_to_num(g["ci_high"].to_numpy(float) - y)
            ax.errorbar(xi, y, yerr=[lo, hi], fmt="o-", capsize=3, ms=3, label=f"{d} / {v}")
        units = q["units"].iloc[0] if len(q) else ""
        ax.set_title(f"{ch} {'mean' if stat == 'mean' else 'standard deviation'} [{units}]",
                     fontsize=9)  # fmt: skip
        ax.set_xticks(x)
        ax.set_xticklabels(conds, rotation=45, ha="right", fontsize=7)
        ax.grid(alpha=0.3)
    handles, labels = axes[0].get_legend_handles_labels()
    if len(labels) <= 12:
        axes[1].legend(fontsize=7)
    fig.tight_layout()
    return png(fig)


def build_html(folder: pathlib.Path) -> str:
    """The report page of the study folder ``folder`` as an HTML string."""
    folder = pathlib.Path(folder)
    rec_path = folder / "study.json"
    if not rec_path.is_file():
        raise CaseError(f"no study results in {folder} (run 'floatwind study' first)",
                        field="folder")  # fmt: skip
    rec = json.loads(rec_path.read_text())
    res = read_csv(folder, "results.csv")
    runs = read_csv(folder, "runs_summary.csv")
    defn = rec.get("definition") or {}
    name = rec.get("name", folder.name)
    parts = [head(f"floatwind study report: {name}")]
    ok = int((runs["status"] == "ok").sum()) if len(runs) else 0
    failed = runs[runs["status"] == "failed"] if len(runs) else runs
    n_des = runs["design"].nunique() if len(runs) else 0
    n_con = runs["condition"].nunique() if len(runs) else 0
    n_var = runs["variant"].nunique() if len(runs) else 0
    length = defn.get("duration")
    parts.append(
        f"<p>{html.escape(str(defn.get('description', '')))}<br>study file: "
        f"{html.escape(str(rec.get('source', '')))}; floatwind "
        f"{html.escape(str(rec.get('floatwind_version', '')))}<br>"
        f"<b>{ok} of {len(runs)} runs ok</b>, {len(failed)} failed; {n_des} design(s) x {n_con} "
        f"condition(s) x {n_var} variant(s) x {defn.get('realizations', 1)} realization(s)"
        + (f", {length:g} s per run" if isinstance(length, (int, float)) else "")
        + (f", first {defn['transient']:g} s left out of the statistics"
           if defn.get("transient") else "")  # fmt: skip
        + "</p>"
    )
    if res.empty:
        parts.append("<p class='note'>no finished runs yet</p></body></html>")
        return "\n".join(parts)
    summary = _summary_rows(res)
    parts.append("<h2 id='summary'>Summary</h2><p>Ensemble mean over the realizations of each "
                 "run statistic, with the 95 % interval (mean: Student-t; std: the pooled sigma "
                 "and its interval, docs/studies.md)</p>")  # fmt: skip
    parts.append(html_table(summary))
    figs = sorted((folder / "figures").glob("*.png")) if (folder / "figures").is_dir() else []
    groups = list(res.groupby(["design", "condition", "variant"], sort=False))
    toc = [("summary", "Summary"), ("channels", "Channels over the conditions")]
    if figs:
        toc.append(("standard", "Standard figures (floatwind plot)"))
    toc.append(("conditions", "Every quantity per design, condition and variant"))
    if len(failed):
        toc.append(("failures", "Failures"))
    parts.insert(2, contents(toc))
    parts.append("<h2 id='channels'>Channels over the conditions</h2>")
    chans = _channels(res)
    for ch in chans[:MAX_FIGURES]:
        img = _channel_figure(res, ch)
        if img:
            parts.append(f"<img alt='{html.escape(ch)}' src='{img}'>")
    if len(chans) > MAX_FIGURES:
        parts.append(f"<p class='note'>{len(chans) - MAX_FIGURES} more channel(s) in the tables "
                     "below</p>")  # fmt: skip
    if figs:
        parts.append("<h2 id='standard'>Standard figures (floatwind plot)</h2>")
        for f in figs:
            parts.append(f"<p class='note'>{html.escape(f.name)}</p><img alt='{html.escape(f.name)}' "
                         f"src='{png_file(f)}'>")  # fmt: skip
    parts.append("<h2 id='conditions'>Every quantity per design, condition and variant</h2>")
    for (d, c, v), g in groups:
        cols = ["quantity", "units", "n", "mean", "std", "ci_low", "ci_high"]
        parts.append(f"<details><summary>{html.escape(f'{d} / {c} / {v}')}</summary>"
                     + html_table(g[cols]) + "</details>")  # fmt: skip
    if len(failed):
        parts.append("<h2 id='failures'>Failures</h2>" + html_table(failed[["id", "error"]]))
    parts.append("</body></html>")
    return "\n".join(parts)


def write_report(folder: pathlib.Path, out: pathlib.Path) -> pathlib.Path:
    """Write the study report of ``folder`` to ``out`` (atomically)."""
    text = build_html(folder)
    atomic_write(pathlib.Path(out), lambda tmp: pathlib.Path(tmp).write_text(text, encoding="utf-8"))
    return pathlib.Path(out)
