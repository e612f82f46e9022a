"""Building blocks of the study and DLC reports: a page style, tables and embedded figures.

A page is one self-contained HTML file: tables from pandas DataFrames, matplotlib figures as PNG
``data:`` URIs (no external file or network), collapsible ``<details>`` sections and a table of
contents. The validation report (:mod:`floatwind.report.html`) has its own layout.
"""

from __future__ import annotations

import base64
import html
import io
import pathlib

import numpy as np
import pandas as pd

CSS = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1200px;color:#222}
table{border-collapse:collapse;margin:0.5em 0 1em;font-size:0.85em}
th,td{border:1px solid #ccc;padding:2px 6px;text-align:right}
th{background:#eee} td.l,th.l{text-align:left}
details{margin:0.5em 0} summary{cursor:pointer;font-weight:600}
img{max-width:100%} .note{color:#555;font-size:0.9em}
"""


def png(fig) -> str:
    """A matplotlib figure as a PNG ``data:`` URI (the figure is closed)."""
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def png_file(path: pathlib.Path) -> str:
    """A PNG file as a ``data:`` URI."""
    return "data:image/png;base64," + base64.b64encode(pathlib.Path(path).read_bytes()).decode("ascii")


def table(df: pd.DataFrame, max_rows: int | None = None) -> str:
    """A DataFrame as an HTML table (numbers to 5 significant digits, text left-aligned)."""
    if df.empty:
        return "<p class='note'>(none)</p>"
    if max_rows is not None and len(df) > max_rows:
        df = df.head(max_rows)
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
    rows = []
    for _, r in df.iterrows():
        cells = []
        for v in r:
            if isinstance(v, (float, np.floating)):
                txt = "" if np.isnan(v) else f"{v:.5g}"
                cells.append(f"<td>{txt}</td>")
            elif isinstance(v, (int, np.integer)) and not isinstance(v, bool):
                cells.append(f"<td>{v}</td>")
            else:
                cells.append(f"<td class='l'>{html.escape(str(v))}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(rows)}</table>"


def read_csv(folder: pathlib.Path, name: str) -> pd.DataFrame:
    """``folder/name`` as a DataFrame, empty when the file is missing or empty."""
    p = pathlib.Path(folder) / name
    if not p.is_file() or p.stat().st_size == 0:
        return pd.DataFrame()
    try:
        return pd.read_csv(p)
    except pd.errors.EmptyDataError:
        return pd.DataFrame()


def head(title: str) -> str:
    t = html.escape(title)
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{t}</title>"
            f"<style>{CSS}</style></head><body><h1>{t}</h1>")  # fmt: skip


def contents(entries: list[tuple[str, str]]) -> str:
    """A table of contents: (anchor, title) pairs."""
    items = "".join(f"<li><a href='#{a}'>{html.escape(t)}</a></li>" for a, t in entries)
    return f"<nav><b>Contents</b><ol>{items}</ol></nav>"
