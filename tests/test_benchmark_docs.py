"""benchmarks/vs_openfast.py --docs writes its measured table into docs/performance.md between
two marker lines (issue 24 item 7: the docs' speed table cannot drift from the script)."""

from __future__ import annotations

import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from vs_openfast import BEGIN, END, docs_table, replace_between  # noqa: E402


def test_docs_hold_the_markers_and_the_table_is_replaced_between_them():
    text = (ROOT / "docs" / "performance.md").read_text()
    assert text.count(BEGIN) == 1 and text.count(END) == 1
    rows = [("ref01_pitch_decay", "run", 300.0, 2.0, 2.1, 23.6, 0, ""),
            ("ref01_pitch_decay", "compare", 300.0, 2.5, 2.6, 23.6, 1, "x")]  # fmt: skip
    table = docs_table(rows)
    assert "| ref01_pitch_decay | 300 s | 2.00 s | 2.50 s (failed) | 23.6 s | 11.8x / 9.4x |" in table
    new = replace_between(text, table)
    assert new.split(BEGIN)[0] == text.split(BEGIN)[0]
    assert new.split(END)[1] == text.split(END)[1]
    assert table in new
    with pytest.raises(SystemExit):
        replace_between("no markers here", table)
