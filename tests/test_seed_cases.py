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


def test_fig25_fig26_reduced_study(tmp_path, capsys):
    """The dissertation's study reduced to 1 realization of 10 s per (design, condition, variant):
    the whole pipeline (32 runs in lockstep batches, statistics, Fig. 25/26 figures and tables)."""
    import importlib.util

    import pandas as pd

    root = pathlib.Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location(
        "fig25_fig26", root / "validation" / "seed_cases" / "fig25_fig26.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = tmp_path / "f25"
    rc = mod.main(["-o", str(out), "--realizations", "1", "--duration", "10", "--workers", "1"])
    assert rc == 0
    figs = out / "figures"
    for name in (
        "fig25_pitch.png",
        "fig26_weight_per_power.png",
        "fig25_pitch.csv",
        "fig26_power.csv",
    ):
        assert (figs / name).is_file(), name
    power = pd.read_csv(figs / "fig26_power.csv")
    assert sorted(power.paper_power_MW.unique()) == [4.16, 4.53, 4.76, 5.0]
    assert len(power) == 8 and (power.power_MW > 0).all()
    pitch = pd.read_csv(figs / "fig25_pitch.csv")
    assert len(pitch) == 32
