"""Kernels compiled ahead of time (issue 41, floatwind._kernels.aot and .jit): a later run of a
model starts without numba and gives the same bits as numba's JIT.

Three kinds of check: the argument-type keys that decide whether a compiled export may serve a
call (pure Python); a small module of kernels compiled ahead of time against its JIT results,
with the @njit options honoured (error model, fastmath) and a call of other types served by numba;
and a whole `floatwind run` of ref01 whose second run imports no numba and writes the first run's
file bit for bit."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import textwrap
from collections import namedtuple

import numpy as np
import pytest

from floatwind import jit
from floatwind._kernels import aot

ROOT = pathlib.Path(__file__).resolve().parents[1]
P = namedtuple("P", ["a", "k"])


def test_type_key_distinguishes_what_numba_distinguishes():
    a = np.zeros((3, 4))
    key = aot.type_key
    assert key((a,)) == key((np.ones((3, 4)),))
    assert key((a,)) != key((a.T,))  # C vs F layout
    assert key((a,)) != key((a[:, ::2],))  # any layout
    assert key((a,)) != key((a.astype(np.float32),))
    assert key((a,)) != key((a[0],))  # ndim
    ro = a.copy()
    ro.flags.writeable = False
    assert key((a,)) != key((ro,))
    assert key((1,)) != key((1.0,)) != key((True,)) != key((np.float64(1.0),))
    assert key((P(a, 1.0),)) != key(((a, 1.0),))  # a named tuple is its class
    assert key((P(a, 1.0),)) != key((P(a, 1),))
    # kinds this module does not know are left to numba (never a guess)
    assert key(("text",)) is None
    assert key(([1.0],)) is None
    assert key((2**70,)) is None
    assert key((np.zeros(2, dtype=[("x", "f8")]),)) is None


def test_kernel_is_lazy_and_numba_sees_it_as_its_dispatcher():
    code = textwrap.dedent("""
        import sys
        import floatwind.simulate, floatwind.case.openfast, floatwind._kernels.fused
        import floatwind._kernels.servo, floatwind._kernels.bladed, floatwind._kernels.bemt
        assert "numba" not in sys.modules, "importing the kernels imported numba"
        from floatwind._kernels.mcm import _cross
        import numpy as np
        out = np.zeros(3)
        _cross(np.array([1.0, 0, 0]), np.array([0, 1.0, 0]), out)
        assert out.tolist() == [0.0, 0.0, 1.0]
        assert "numba" in sys.modules
        print("ok")
    """)
    env = dict(os.environ, PYTHONPATH=str(ROOT), FLOATWIND_AOT="0")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         cwd=ROOT, timeout=600)  # fmt: skip
    assert res.returncode == 0, res.stderr[-2000:]


def test_kernel_options_and_pickle():
    import pickle

    from floatwind._kernels import fused

    k = fused.system_rhs if hasattr(fused, "system_rhs") else None
    from floatwind._kernels.mcm import _cross

    assert isinstance(_cross, jit.Kernel)
    assert pickle.loads(pickle.dumps(_cross)) is _cross
    assert _cross.targetoptions == _cross.dispatcher.targetoptions
    assert _cross.py_func.__name__ == "_cross"
    del k


TOY = """
import math
import numpy as np
from floatwind.jit import njit


@njit(cache=False, fastmath=False, inline="always")
def _inner(p, x):
    return p.k * math.sin(x) + 1.0 / 3.0


@njit(cache=False, fastmath=False)
def step(p, x, out):
    for i in range(x.shape[0]):
        out[i] = _inner(p, x[i]) + p.a[i] * x[i]
    return out.shape[0], 0


@njit(cache=False, error_model="numpy")
def ratio(a, b):
    return a / b


@njit(cache=False)
def ratio_python(a, b):
    return a / b


@njit(cache=False)
def fresh(n):
    return np.arange(n) * 0.5
"""


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """A small kernel module and an empty kernel folder, ahead-of-time modules on."""
    import importlib

    (tmp_path / "aot_toy_kernels.py").write_text(TOY)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("FLOATWIND_KERNEL_DIR", str(tmp_path / "kernels"))
    # the test's own folder also when FLOATWIND_AOT_DIR is set for the suite: a folder shared
    # by the toy tests serves the second one the first one's module, and it records nothing
    monkeypatch.setenv("FLOATWIND_AOT_DIR", str(tmp_path / "aot"))
    monkeypatch.setenv("FLOATWIND_AOT", "1")
    aot.reset()
    mod = importlib.import_module("aot_toy_kernels")
    yield mod, tmp_path
    sys.modules.pop("aot_toy_kernels", None)
    monkeypatch.setenv("FLOATWIND_AOT", "0")
    aot.reset()


def test_toy_module_compiled_ahead_of_time_gives_the_jit_bits(toy):
    mod, tmp = toy
    p = P(np.linspace(0.1, 0.9, 7), 2.5)
    x = np.linspace(-3.0, 3.0, 7)
    assert aot.start_recording()
    out_jit = np.zeros(7)
    assert mod.step(p, x, out_jit) == (7, 0)
    assert mod.ratio(1.0, 0.0) == np.inf  # error_model="numpy"
    with pytest.raises(ZeroDivisionError):
        mod.ratio_python(1.0, 0.0)
    assert mod.ratio_python(1.0, 4.0) == 0.25  # a call that returns is recorded
    a_jit = mod.fresh(5)
    assert aot.pending() == 4
    path = aot.build_recorded(say=lambda s: None)
    assert path and pathlib.Path(path).is_file()
    aot.reset()
    # the same calls served by the compiled module: same bits, same options
    assert aot.lookup(mod.step, (p, x, out_jit)) is not None
    out_aot = np.zeros(7)
    assert mod.step(p, x, out_aot) == (7, 0)
    assert np.array_equal(out_aot, out_jit)
    assert aot.lookup(mod.ratio, (1.0, 0.0)) is not None
    assert mod.ratio(1.0, 0.0) == np.inf
    assert aot.lookup(mod.ratio_python, (1.0, 0.0)) is not None
    with pytest.raises(ZeroDivisionError):
        mod.ratio_python(1.0, 0.0)
    assert np.array_equal(mod.fresh(5), a_jit)
    # other argument types: numba serves them (never the export compiled for float64)
    x32 = x.astype(np.float32)
    assert aot.lookup(mod.step, (p, x32, out_aot)) is None
    assert aot.lookup(mod.step, (p, x[::2], out_aot[:4])) is None
    assert mod.step(p, x[::2], out_aot[:4]) == (4, 0)


def test_index_of_another_platform_or_source_is_ignored(toy):
    mod, tmp = toy
    assert aot.start_recording()
    mod.ratio(1.0, 2.0)
    path = aot.build_recorded(say=lambda s: None)
    index = pathlib.Path(path).parent / (pathlib.Path(path).name.split(".")[0] + ".json")
    assert index.is_file()
    aot.reset()
    assert aot.lookup(mod.ratio, (1.0, 2.0)) is not None
    text = index.read_text()
    index.write_text(text.replace('"digest": "', '"digest": "x'))  # the sources changed since
    aot.reset()
    assert aot.lookup(mod.ratio, (1.0, 2.0)) is None
    assert mod.ratio(1.0, 2.0) == 0.5


def test_second_run_of_a_deck_imports_no_numba_and_writes_the_same_bits(shared, tmp_path):
    deck = shared / "reference" / "openfast" / "ref01_pitch_decay" / "ref01_pitch_decay.fst"
    # the suite's kernel folder (the JIT side is likely compiled already by other tests), the
    # ahead-of-time modules in this test's own folder
    env = dict(os.environ, PYTHONPATH=str(ROOT), FLOATWIND_AOT="1",
               FLOATWIND_AOT_DIR=str(tmp_path / "aot"))  # fmt: skip
    run = ("import runpy, sys; sys.argv = ['floatwind'] + sys.argv[1:]\n"
           "try:\n    runpy.run_module('floatwind', run_name='__main__')\n"
           "except SystemExit as e:\n    assert not e.code, e.code\n"
           "print('NUMBA' if 'numba' in sys.modules else 'NO-NUMBA')\n")  # fmt: skip

    def floatwind(out):
        res = subprocess.run([sys.executable, "-c", run, "run", str(deck), "--tmax", "2", "-o",
                              str(out), "--no-progress"], capture_output=True, text=True,
                             env=env, cwd=tmp_path, timeout=1500)  # fmt: skip
        assert res.returncode == 0, res.stderr[-3000:]
        return res.stdout

    first = floatwind(tmp_path / "first.nc")
    assert "compiled ahead of time" in first, first
    second = floatwind(tmp_path / "second.nc")
    assert second.strip().endswith("NO-NUMBA"), second
    assert "ahead of time" not in second
    import netCDF4

    with netCDF4.Dataset(tmp_path / "first.nc") as a, netCDF4.Dataset(tmp_path / "second.nc") as b:
        assert set(a.variables) == set(b.variables)
        for name in a.variables:
            assert np.array_equal(a[name][:], b[name][:]), name
