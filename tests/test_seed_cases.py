"""The quick version of every seed-case script (validation/seed_cases/) runs in-process and passes
its quantitative checks."""

import importlib
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from validation.seed_cases import SCRIPTS  # noqa: E402


@pytest.mark.parametrize("name", SCRIPTS)
def test_quick(name, tmp_path):
    mod = importlib.import_module(f"validation.seed_cases.{name}")
    assert mod.main(["--quick", "--out", str(tmp_path)]) == 0
    assert list(tmp_path.glob("*.png"))
