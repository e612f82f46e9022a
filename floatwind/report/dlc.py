"""The load report of a finished ``floatwind dlc`` folder: one self-contained HTML page.

It opens with a table of contents and a summary (runs, load cases, site), then the DLC table,
the fatigue tables (lifetime DELs, DELs per wind bin) with the DEL-vs-wind-speed figure, the
extremes (governing load case per channel, every load condition with its confidence interval)
with the extremes-per-DLC figure, and the time series of each governing run. Figures are PNGs
embedded as ``data:`` URIs (no external file). Everything is read from the folder's files
(``dlc.json``, the CSV tables and the batch netCDF files), so the report can be rebuilt without
the DLC file (``floatwind report dlc DIR``).
"""

from __future__ import annotations

import html
import json
import pathlib

import numpy as np
import pandas as pd
import xarray as xr

from floatwind.errors import CaseError
from floatwind.io.safe import atomic_write
from floatwind.report.page import contents, head, png, read_csv
from floatwind.report.page import table as html_table


def _del_figure(bins: pd.DataFrame) -> str | None:
    if bins.empty:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    chans = list(dict.fromkeys(bins["channel"]))
    fig, axes = plt.subplots(len(chans), 1, figsize=(7, 2.4 * len(chans)), squeeze=False)
    for ax, ch in zip(axes[:, 0], chans, strict=True):
        part = bins[bins["channel"] == ch]
        for m, g in part.groupby("m"):
            ax.plot(g["wind_speed"], g["del_1hz"], "o-", label=f"m = {m:g}")
        ax.set_ylabel(f"{ch} [{part['units'].iloc[0]}]")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    axes[-1, 0].set_xlabel("hub-height wind speed (m/s)")
    fig.suptitle("1 Hz short-term DEL per wind bin (DLC 1.2)")
    fig.tight_layout(rect=(0, 0, 1, 0.98))
    return png(fig)


def _label(table: pd.DataFrame, group: str) -> str:
    """A short x label of a load condition: wind speed, wave direction, yaw misalignment."""
    rows = table[table["group"] == group] if len(table) else table
    if rows.empty:
        return group.split("__", 1)[-1]
    r = rows.iloc[0]
    text = f"{r['wind_speed']:g} m/s, Hs {r['hs']:g}"
    if r["wave_heading_deg"] != 0:
        text += f", waves {r['wave_heading_deg']:+g}°"
    if r["yaw_misalignment_deg"] != 0:
        text += f", yaw {r['yaw_misalignment_deg']:+g}°"
    return text


def _extremes_figure(ext: pd.DataFrame, table: pd.DataFrame) -> str | None:
    if ext.empty:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ext = ext[ext["side"] == "max"]
    chans = list(dict.fromkeys(ext["channel"]))
    if not chans:
        return None
    fig, axes = plt.subplots(len(chans), 1, figsize=(10, 3.4 * len(chans)), squeeze=False)
    for ax, ch in zip(axes[:, 0], chans, strict=True):
        part = ext[ext["channel"] == ch].reset_index(drop=True)
        x = np.arange(len(part))
        for dlc, g in part.groupby("dlc"):
            y = g["characteristic"].to_numpy(float)
            lo = y - g["ci_low"].to_numpy(float)
            hi = g["ci_high"].to_numpy(float) - y
            ax.errorbar(x[g.index], y, yerr=[lo, hi], fmt="o", capsize=3, label=f"DLC {dlc}")
        ax.set_ylabel(f"{ch} max [{part['units'].iloc[0]}]")
        ax.set_xticks(x)
        ax.set_xticklabels([_label(table, g) for g in part["group"]], rotation=90, fontsize=6)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("characteristic maxima with 95 % intervals over seeds, per load condition")
    fig.tight_layout(rect=(0, 0, 1, 0.98))
    return png(fig)


def _governing_series(folder: pathlib.Path, runs: pd.DataFrame, row, records: dict):
    """(time, values, run id, units) of the seed with the largest extreme of the governing
    group, read from the batch file its record names (``records``: one
    :func:`floatwind.studies.execute.finished_runs` per load-case folder, read once)."""
    from floatwind.studies.execute import finished_runs

    ch, side = row["channel"], row["side"]
    col = next((c for c in runs.columns if c.startswith(f"{ch}.{side} ")), None)
    part = runs[runs["group"] == row["group"]]
    if col is None or part.empty:
        return None
    vals = part[col].to_numpy(float)
    k = int(np.nanargmax(vals) if side == "max" else np.nanargmin(vals))
    run = part["run"].iloc[k]
    sub, rid = run.split("/", 1)
    if sub not in records:
        records[sub] = finished_runs(folder / sub)
    rec = records[sub].get(rid)
    path = folder / sub / "batches" / f"{rec['batch']}.nc" if rec else None
    if path is None or not path.is_file():
        return None
    with xr.open_dataset(path, engine="netcdf4") as ds:
        if ch not in ds:
            return None
        x = ds[ch].sel(run=rid)
        return ds["time"].to_numpy(), x.to_numpy(), run, str(x.attrs.get("units", ""))


def _series_figure(t, x, units, title, transient) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from floatwind.studies.stats import HUMAN_ANGLE

    u, f = HUMAN_ANGLE.get(units, (units, 1.0))
    fig, ax = plt.subplots(figsize=(8, 2.4))
    ax.plot(t, x * f, lw=0.7)
    ax.axvspan(t[0], t[0] + transient, color="0.85", label="transient (discarded)")
    ax.set_xlabel("time (s)")
    ax.set_ylabel(f"[{u}]")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    return png(fig)


def build_html(folder: pathlib.Path) -> str:
    """The report page of ``folder`` as an HTML string."""
    folder = pathlib.Path(folder)
    rec_path = folder / "dlc.json"
    if not rec_path.is_file():
        raise CaseError(f"no DLC results in {folder} (run 'floatwind dlc' first)", field="folder")
    rec = json.loads(rec_path.read_text())
    table = read_csv(folder, "dlc_table.csv")
    runs = read_csv(folder, "runs.csv")
    life = read_csv(folder, "fatigue.csv")
    bins = read_csv(folder, "fatigue_bins.csv")
    ext = read_csv(folder, "extremes.csv")
    gov = read_csv(folder, "governing.csv")
    transient = float(table["transient_s"].iloc[0]) if len(table) else 0.0
    title = f"floatwind load report: {rec.get('name', folder.name)}"
    ok = int((runs["status"] == "ok").sum()) if len(runs) else 0
    parts = [head(title)]
    parts.append(
        "<p>"
        + html.escape(rec.get("description", ""))
        + f"<br>DLC file: {html.escape(str(rec.get('source', '')))}; floatwind "
        f"{html.escape(str(rec.get('floatwind', '')))}; {ok} of {len(runs)} runs ok"
        + (f"; last run {rec['wall_s']:.0f} s wall for {rec.get('n_run_now', 0)} runs"
           if "wall_s" in rec else "")  # fmt: skip
        + "</p>"
    )
    parts.append(contents([("dlcs", "Load cases"), ("fatigue", "Fatigue"),
                           ("extremes", "Extremes"), ("series", "Governing time series")]))  # fmt: skip
    # load cases
    parts.append("<h2 id='dlcs'>Load cases</h2>")
    if len(table):
        summ = (
            table.groupby("dlc")
            .agg(conditions=("group", "nunique"), runs=("run", "size"), seeds=("seed", "nunique"),
                 wind_model=("wind_model", "first"), rotor=("rotor", "first"),
                 v_min=("wind_speed", "min"), v_max=("wind_speed", "max"),
                 hs_min=("hs", "min"), hs_max=("hs", "max"), analysis_s=("analysis_s", "first"))
            .reset_index()
        )  # fmt: skip
        if len(runs):
            summ["ok"] = [int(((runs["dlc"] == d) & (runs["status"] == "ok")).sum())
                          for d in summ["dlc"]]  # fmt: skip
        parts.append(html_table(summ))
        parts.append(f"<p class='note'>transient discarded before each analysis window: "
                     f"{transient:g} s</p>")  # fmt: skip
        parts.append("<details><summary>Every run (expanded table)</summary>"
                     + html_table(table) + "</details>")  # fmt: skip
    # fatigue
    parts.append("<h2 id='fatigue'>Fatigue</h2>")
    if life.empty:
        parts.append("<p class='note'>no fatigue load case (DLC 1.2) in this set</p>")
    else:
        parts.append("<p>Lifetime damage-equivalent loads (ranges of <i>n_eq</i> cycles over "
                     "the lifetime; <i>del_1hz</i>: the same damage at 1 Hz; <i>coverage</i>: the "
                     "share of the lifetime the runs stand for)</p>")  # fmt: skip
        parts.append(html_table(life))
        img = _del_figure(bins)
        if img:
            parts.append(f"<img alt='DEL vs wind speed' src='{img}'>")
        parts.append("<details><summary>DELs per wind bin</summary>" + html_table(bins) + "</details>")
    # extremes
    parts.append("<h2 id='extremes'>Extremes</h2>")
    if gov.empty:
        parts.append("<p class='note'>no ultimate load case in this set</p>")
    else:
        parts.append("<p>Governing load case per channel and side (design value = partial "
                     "safety factor x characteristic extreme)</p>")  # fmt: skip
        parts.append(html_table(gov))
        img = _extremes_figure(ext, table)
        if img:
            parts.append(f"<img alt='extremes per DLC' src='{img}'>")
        parts.append("<details><summary>Every load condition</summary>" + html_table(ext)
                     + "</details>")  # fmt: skip
    # governing time series
    parts.append("<h2 id='series'>Governing time series</h2>")
    if not gov.empty and len(runs):
        records: dict = {}
        for _, row in gov.iterrows():
            got = _governing_series(folder, runs, row, records)
            if got is None:
                continue
            t, x, run, units = got
            img = _series_figure(t, x, units, f"{row['channel']} {row['side']}: {run}", transient)
            parts.append(f"<details><summary>{html.escape(row['channel'])} {row['side']} "
                         f"(DLC {row['dlc']})</summary><img alt='{html.escape(run)}' "
                         f"src='{img}'></details>")  # fmt: skip
    parts.append("</body></html>")
    return "\n".join(parts)


def write_report(folder: pathlib.Path, out: pathlib.Path) -> pathlib.Path:
    """Write the load report of ``folder`` to ``out`` (atomically)."""
    text = build_html(folder)
    atomic_write(pathlib.Path(out), lambda tmp: pathlib.Path(tmp).write_text(text, encoding="utf-8"))
    return pathlib.Path(out)
