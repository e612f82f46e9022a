"""Validation and study reports: one self-contained HTML page from result tables and figures.

This package only formats results (it runs no simulation, DESIGN.md): see
:func:`floatwind.report.html.render_report`.
"""

from floatwind.report.html import (
    Figure,
    ReportSection,
    multi_overlay_figure,
    overlay_figure,
    render_report,
)

__all__ = ["Figure", "ReportSection", "multi_overlay_figure", "overlay_figure", "render_report"]
