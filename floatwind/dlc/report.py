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

import base64
import html
import io
import json
import pathlib

import numpy as np
import pandas as pd
import xarray as xr

from floatwind.errors import CaseError
from floatwind.io.safe import atomic_write

_CSS = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1200px;color:#222}
table{border-collapse:collapse;margin:0.5em 0 1em;font-size:0.85em}
th,td{border:1px solid #ccc;padding:2px 6px;text-align:right}
th{background:#eee} td.l,th.l{text-align:left}
details{margin:0.5em 0} summary{cursor:pointer;font-weight:600}
img{max-width:100%} .note{color:#555;font-size:0.9em}
"""


def _png(fig) -> str:
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _table(df: pd.DataFrame, max_rows: int | None = None) -> str:
    if df.empty:
        return "<p class='note'>(none)</p>"
    if max_rows is not None and len(df) > max_rows:
        df = df.head(max_rows)
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
    rows = []
    for _, r in df.iterrows():
        cells = []
        for v in r:
            if isinstance(v, float):
                txt = "" if np.isnan(v) else f"{v:.5g}"
                cells.append(f"<td>{txt}</td>")
            else:
                cells.append(f"<td class='l'>{html.escape(str(v))}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(rows)}</table>"


def _read(folder: pathlib.Path, name: str) -> pd.DataFrame:
    p = folder / name
    if not p.is_file() or p.stat().st_size == 0:
        return pd.DataFrame()
    try:
        return pd.read_csv(p)
    except pd.errors.EmptyDataError:
        return pd.DataFrame()


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
    return _png(fig)


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
    return _png(fig)


def _governing_series(folder: pathlib.Path, runs: pd.DataFrame, row, transient: float):
    """(time, values, run id) of the seed with the largest extreme of the governing group."""
    ch, side = row["channel"], row["side"]
    col = next((c for c in runs.columns if c.startswith(f"{ch}.{side} ")), None)
    part = runs[runs["group"] == row["group"]]
    if col is None or part.empty:
        return None
    vals = part[col].to_numpy(float)
    k = int(np.nanargmax(vals) if side == "max" else np.nanargmin(vals))
    run = part["run"].iloc[k]
    sub, rid = run.split("/", 1)
    for f in sorted((folder / sub / "batches").glob("*.nc")):
        if f.name.endswith(".tmp.nc"):
            continue
        with xr.open_dataset(f, engine="netcdf4") as ds:
            if rid in ds["run"].to_numpy() and ch in ds:
                x = ds[ch].sel(run=rid)
                return ds["time"].to_numpy(), x.to_numpy(), run, str(x.attrs.get("units", ""))
    return None


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
    return _png(fig)


def build_html(folder: pathlib.Path) -> str:
    """The report page of ``folder`` as an HTML string."""
    folder = pathlib.Path(folder)
    rec_path = folder / "dlc.json"
    if not rec_path.is_file():
        raise CaseError(f"no DLC results in {folder} (run 'floatwind dlc' first)", field="folder")
    rec = json.loads(rec_path.read_text())
    table = _read(folder, "dlc_table.csv")
    runs = _read(folder, "runs.csv")
    life = _read(folder, "fatigue.csv")
    bins = _read(folder, "fatigue_bins.csv")
    ext = _read(folder, "extremes.csv")
    gov = _read(folder, "governing.csv")
    transient = float(table["transient_s"].iloc[0]) if len(table) else 0.0
    title = f"floatwind load report: {rec.get('name', folder.name)}"
    ok = int((runs["status"] == "ok").sum()) if len(runs) else 0
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
             f"<style>{_CSS}</style></head><body><h1>{html.escape(title)}</h1>"]  # fmt: skip
    parts.append(
        "<p>"
        + html.escape(rec.get("description", ""))
        + f"<br>DLC file: {html.escape(str(rec.get('source', '')))}; floatwind "
        f"{html.escape(str(rec.get('floatwind', '')))}; {ok} of {len(runs)} runs ok"
        + (f"; last run {rec['wall_s']:.0f} s wall for {rec.get('n_run_now', 0)} runs"
           if "wall_s" in rec else "")  # fmt: skip
        + "</p>"
    )
    parts.append(
        "<nav><b>Contents</b><ol><li><a href='#dlcs'>Load cases</a></li>"
        "<li><a href='#fatigue'>Fatigue</a></li><li><a href='#extremes'>Extremes</a></li>"
        "<li><a href='#series'>Governing time series</a></li></ol></nav>"
    )
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
        parts.append(_table(summ))
        parts.append(f"<p class='note'>transient discarded before each analysis window: "
                     f"{transient:g} s</p>")  # fmt: skip
        parts.append("<details><summary>Every run (expanded table)</summary>"
                     + _table(table) + "</details>")  # fmt: skip
    # fatigue
    parts.append("<h2 id='fatigue'>Fatigue</h2>")
    if life.empty:
        parts.append("<p class='note'>no fatigue load case (DLC 1.2) in this set</p>")
    else:
        parts.append("<p>Lifetime damage-equivalent loads (ranges of <i>n_eq</i> cycles over "
                     "the lifetime; <i>del_1hz</i>: the same damage at 1 Hz; <i>coverage</i>: the "
                     "share of the lifetime the runs stand for)</p>")  # fmt: skip
        parts.append(_table(life))
        img = _del_figure(bins)
        if img:
            parts.append(f"<img alt='DEL vs wind speed' src='{img}'>")
        parts.append("<details><summary>DELs per wind bin</summary>" + _table(bins) + "</details>")
    # extremes
    parts.append("<h2 id='extremes'>Extremes</h2>")
    if gov.empty:
        parts.append("<p class='note'>no ultimate load case in this set</p>")
    else:
        parts.append("<p>Governing load case per channel and side (design value = partial "
                     "safety factor x characteristic extreme)</p>")  # fmt: skip
        parts.append(_table(gov))
        img = _extremes_figure(ext, table)
        if img:
            parts.append(f"<img alt='extremes per DLC' src='{img}'>")
        parts.append("<details><summary>Every load condition</summary>" + _table(ext)
                     + "</details>")  # fmt: skip
    # governing time series
    parts.append("<h2 id='series'>Governing time series</h2>")
    if not gov.empty and len(runs):
        for _, row in gov.iterrows():
            got = _governing_series(folder, runs, row, transient)
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
