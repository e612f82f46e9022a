import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


@pytest.fixture
def root() -> pathlib.Path:
    return ROOT


@pytest.fixture
def shared() -> pathlib.Path:
    if not SHARED.is_dir():
        pytest.skip(f"the shared reference data is not at {SHARED}")
    return SHARED
