"""Self-contained HTML report: summary table, sections with notes and embedded PNG figures.

Figures are matplotlib figures rendered to PNG and embedded as base64 ``data:`` URIs, so the page
has no external file or network dependency and opens in any browser.
"""

from __future__ import annotations

import base64
import html
import io
import math
import platform
import re
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

import numpy as np

__all__ = [
    "Figure",
    "ReportSection",
    "multi_overlay_figure",
    "overlay_figure",
    "render_report",
    "software_versions",
]


@dataclass
class Figure:
    """An embedded PNG with a caption."""

    caption: str
    png: bytes


@dataclass
class ReportSection:
    """One validation: its title, notes, and figures."""

    title: str
    notes: list[str] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    table: list[dict[str, Any]] = field(default_factory=list)


def overlay_figure(
    t: np.ndarray,
    ref: np.ndarray,
    sim: np.ndarray,
    *,
    title: str,
    units: str,
    ref_label: str = "reference",
    sim_label: str = "floatwind",
) -> Figure:
    """floatwind vs reference overlay (top) and their difference (bottom) as a PNG Figure."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(7.0, 3.6), sharex=True, height_ratios=(2, 1))
    ax1.plot(t, ref, "k-", lw=1.6, label=ref_label)
    ax1.plot(t, sim, "C1--", lw=1.0, label=sim_label)
    ax1.set_ylabel(units)
    ax1.set_title(title, fontsize=9)
    ax1.legend(fontsize=7, loc="best")
    ax2.plot(t, np.asarray(sim) - np.asarray(ref), "C3-", lw=0.8)
    ax2.set_ylabel(f"diff [{units}]", fontsize=7)
    ax2.set_xlabel("time [s]")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=72)
    plt.close(fig)
    return Figure(caption=title, png=buf.getvalue())


def multi_overlay_figure(
    t: np.ndarray,
    ref: np.ndarray,
    sims: dict[str, np.ndarray],
    *,
    title: str,
    units: str,
    ref_label: str = "reference",
) -> Figure:
    """Several simulations against one reference (top) and each one's difference (bottom)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(7.0, 3.6), sharex=True, height_ratios=(2, 1))
    ax1.plot(t, ref, "k-", lw=1.6, label=ref_label)
    styles = ("C1--", "C0:", "C2-.", "C4--")
    for k, (label, sim) in enumerate(sims.items()):
        ax1.plot(t, sim, styles[k % len(styles)], lw=1.0, label=label)
        ax2.plot(t, np.asarray(sim) - np.asarray(ref), styles[k % len(styles)], lw=0.8)
    ax1.set_ylabel(units)
    ax1.set_title(title, fontsize=9)
    ax1.legend(fontsize=7, loc="best")
    ax2.set_ylabel(f"diff [{units}]", fontsize=7)
    ax2.set_xlabel("time [s]")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=72)
    plt.close(fig)
    return Figure(caption=title, png=buf.getvalue())


def software_versions() -> dict[str, str]:
    """Versions of Python and the packages the results depend on."""
    out = {"python": platform.python_version(), "platform": platform.platform()}
    for pkg in ("floatwind", "numpy", "scipy", "xarray", "matplotlib", "pyyaml"):
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            out[pkg] = "not installed"
    return out


def _fmt(v: Any) -> str:
    if isinstance(v, bool) or v is None:
        return "" if v is None else str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "n/a"
        return f"{v:.3e}"
    return str(v)


def _cases(summary: list[dict[str, Any]]) -> list[str]:
    seen: dict[str, None] = {}
    for r in summary:
        seen.setdefault(str(r.get("case", "")), None)
    return list(seen)


def _criterion_number(c: Any) -> float | None:
    """The number in a criterion such as ``1e-3`` or ``'<= 1e-3'`` (None if there is none)."""
    if isinstance(c, (int, float)) and not isinstance(c, bool):
        return float(c)
    m = re.search(r"[-+]?\d*\.?\d+(?:[eE][-+]?\d+)?", str(c or ""))
    return float(m.group(0)) if m else None


def _case_table(summary, sections, anchors) -> list[str]:
    """One row per case: what it validates (its section's first note), the check closest to its
    criterion (value / criterion), the margin, the verdict and a link to the section."""
    e = html.escape
    out = ['<h2>Cases</h2><table id="cases"><thead><tr><th>case</th><th>validates</th>'
           "<th>closest check</th><th>value</th><th>criterion</th><th>margin (value / "
           "criterion)</th><th>verdict</th></tr></thead><tbody>"]  # fmt: skip
    for case in _cases(summary):
        rows = [r for r in summary if str(r.get("case", "")) == case]
        sec = next((s for s in sections if case and case in s.title), None)
        what = sec.notes[0] if sec is not None and sec.notes else ""
        ratios = []
        for r in rows:
            c = _criterion_number(r.get("criterion"))
            v = r.get("value")
            if c and isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
                ratios.append((abs(v) / abs(c), r))
        worst = max(ratios, key=lambda x: x[0]) if ratios else (float("nan"), rows[0])
        failed = any(r.get("passed") is False for r in rows)
        judged = any(r.get("passed") is not None for r in rows)
        verdict = "FAIL" if failed else ("pass" if judged else "")
        cls = ' class="fail"' if failed else (' class="pass"' if judged else "")
        link = f'<a href="#{anchors[id(sec)]}">{e(case)}</a>' if sec is not None else e(case)
        r = worst[1]
        out.append(
            f"<tr{cls}><td>{link}</td><td>{e(what[:120])}</td><td>{e(str(r.get('metric', '')))}"
            f"</td><td>{e(_fmt(r.get('value')))}</td><td>{e(_fmt(r.get('criterion')))}</td>"
            f"<td>{e(_fmt(worst[0]))}</td><td>{verdict}</td></tr>"
        )
    out.append("</tbody></table>")
    return out


def render_report(
    title: str,
    summary: list[dict[str, Any]],
    sections: list[ReportSection],
    *,
    versions: dict[str, str] | None = None,
    mode: str = "",
) -> str:
    """The HTML page.

    Parameters
    ----------
    summary : list of dict
        Rows with ``case``, ``metric``, ``value``, ``criterion``, ``passed`` (True/False/None).
    sections : list of ReportSection
    versions : dict, optional
        Software versions (default :func:`software_versions`).
    """
    versions = versions or software_versions()
    n_fail = sum(1 for r in summary if r.get("passed") is False)
    e = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{e(title)}</title>",
        "<style>body{font-family:sans-serif;margin:2em;max-width:70em}"
        "table{border-collapse:collapse;font-size:0.85em}td,th{border:1px solid #bbb;padding:2px 6px}"
        ".pass{background:#d8f5d8}.fail{background:#f8d0d0}figure{display:inline-block;margin:0.4em}"
        "figcaption{font-size:0.8em}</style></head><body>",
        f"<h1>{e(title)}</h1>",
        f"<p>Mode: {e(mode)}. {len(summary)} checks in {len(_cases(summary))} cases, "
        f"<b>{'all passed' if n_fail == 0 else f'{n_fail} failed'}</b>.</p>",
    ]
    anchors = {id(sec): f"sec{k}" for k, sec in enumerate(sections)}
    parts += _case_table(summary, sections, anchors)
    parts.append("<h2>Contents</h2><ol>" + "".join(
        f'<li><a href="#{anchors[id(sec)]}">{e(sec.title)}</a></li>' for sec in sections
    ) + "</ol>")  # fmt: skip
    parts += [
        '<h2>All checks</h2><table id="summary"><thead><tr><th>case</th><th>metric</th><th>value</th>'
        "<th>criterion</th><th>pass/fail</th></tr></thead><tbody>",
    ]
    for r in summary:
        ok = r.get("passed")
        cls = "" if ok is None else (' class="pass"' if ok else ' class="fail"')
        verdict = "" if ok is None else ("pass" if ok else "FAIL")
        parts.append(
            f"<tr{cls}><td>{e(str(r.get('case', '')))}</td><td>{e(str(r.get('metric', '')))}</td>"
            f"<td>{e(_fmt(r.get('value')))}</td><td>{e(_fmt(r.get('criterion')))}</td>"
            f"<td>{verdict}</td></tr>"
        )
    parts.append("</tbody></table>")
    for sec in sections:
        parts.append(f'<section id="{anchors[id(sec)]}"><h2>{e(sec.title)}</h2>')
        if sec.notes:
            parts.append("<ul>" + "".join(f"<li>{e(n)}</li>" for n in sec.notes) + "</ul>")
        if sec.table or sec.figures:
            parts.append(
                f"<details><summary>{len(sec.table)} rows, {len(sec.figures)} figures</summary>"
            )
        if sec.table:
            cols = list(sec.table[0])
            parts.append(
                "<table><tr>"
                + "".join(f"<th>{e(c)}</th>" for c in cols)
                + "</tr>"
                + "".join(
                    "<tr>" + "".join(f"<td>{e(_fmt(row.get(c)))}</td>" for c in cols) + "</tr>"
                    for row in sec.table
                )
                + "</table>"
            )
        for fig in sec.figures:
            data = base64.b64encode(fig.png).decode("ascii")
            parts.append(
                f'<figure><img class="overlay" alt="{e(fig.caption)}" src="data:image/png;base64,{data}">'
                f"<figcaption>{e(fig.caption)}</figcaption></figure>"
            )
        if sec.table or sec.figures:
            parts.append("</details>")
        parts.append("</section>")
    parts.append('<h2>Software versions</h2><table id="versions">')
    parts.extend(f"<tr><td>{e(k)}</td><td>{e(v)}</td></tr>" for k, v in versions.items())
    parts.append("</table></body></html>")
    return "\n".join(parts)
