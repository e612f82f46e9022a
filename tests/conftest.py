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


@pytest.fixture
def compiled_on():
    """Compiled kernels and the fused stepping on for the test, restored afterwards."""
    from floatwind import _kernels
    from floatwind.simulate import fused

    old = _kernels.use_jit(True)
    old_f = fused.use_fused(True)
    yield
    _kernels.use_jit(old)
    fused.use_fused(old_f)


def fused_and_python(make_model, **simulate_kw):
    """(Dataset of the compiled stepping, Dataset of the Python path) of ``make_model()``; the
    model must step compiled (asserted, with the reason when it does not)."""
    from floatwind.simulate import fused, simulate
    from floatwind.simulate.system import System

    m = make_model()
    compiled, why = fused.fuse(System(m))
    assert compiled is not None, why
    a = simulate(m, progress=False, **simulate_kw)
    old = fused.use_fused(False)
    try:
        b = simulate(make_model(), progress=False, **simulate_kw)
    finally:
        fused.use_fused(old)
    return a, b
