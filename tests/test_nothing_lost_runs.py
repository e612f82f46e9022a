"""Nothing lost, part 2 (issue 42 items 5 and 6): ``floatwind mbdm`` keeps the partial record of
a run that diverges or is interrupted, like ``floatwind run``, and refuses a run that would never
end; a study whose main process is killed leaves no worker running, no half-written file, and
resumes to a complete result with its earlier batches untouched.

Each row: the input, the exit code, the first line of stderr, and every input file (and every
earlier result) byte-identical afterwards. Cheap by construction: the MBDM rows run a few hundred
NumPy steps; the study rows run a 2-s study on the NumPy path (``FLOATWIND_NO_JIT``: what is
tested is the processes, not the numbers) and never wait a fixed time: a run pauses at a marker
file, deterministically, and every wait polls with a generous timeout."""

from __future__ import annotations

import os
import pathlib
import shutil
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
import xarray as xr
from conftest import file_snapshot, paused_study, wait_for_marker

from floatwind.cli import main

ROOT = pathlib.Path(__file__).resolve().parents[1]
MBDM = ROOT / "cases" / "mbdm"


def _mbdm(tmp_path: pathlib.Path, case: str, t_end: str | None = None) -> pathlib.Path:
    d = tmp_path / "in" / case
    shutil.copytree(MBDM / case, d)
    if t_end is not None:
        text = (d / "mbdm").read_text()
        assert "t_end: 1\n" in text
        (d / "mbdm").write_text(text.replace("t_end: 1\n", f"t_end: {t_end}\n", 1))
    return d / "mbdm"


# ------------------------------------------------------------------ item 5: floatwind mbdm

#: (id, case, t_end in the file, extra options, first line of stderr holds all of these)
REFUSED = [
    ("t_end 1e12 in the file", "body_on_spring", "1e12", [],
     ["mbdm", "field 'line 6 (t_end)'", "1e+15 steps", "more than 1e+09"]),
    ("--tmax 1e12", "body_on_spring", None, ["--tmax", "1e12"],
     ["option '--tmax'", "more than 1e+09"]),
    ("--dt 1e-13", "body_on_spring", None, ["--dt", "1e-13"], ["option '--dt'", "1e+13 steps"]),
    ("t_end 1e7 (kinematic)", "slider_crank_kinematic", "1e7", [],
     ["field 'line 6 (t_end)'", "1e+10 steps", "more than 1e+09"]),
]  # fmt: skip


@pytest.mark.parametrize("case,t_end,extra,named", [r[1:] for r in REFUSED],
                         ids=[r[0] for r in REFUSED])  # fmt: skip
def test_mbdm_refuses_a_run_that_would_never_end(tmp_path, capsys, case, t_end, extra, named):
    f = _mbdm(tmp_path, case, t_end)
    earlier = tmp_path / "r.nc"
    earlier.write_bytes(b"an earlier result")
    before = file_snapshot(tmp_path)
    t0 = time.process_time()
    rc = main(["mbdm", str(f), "-o", str(earlier), "--overwrite", *extra])
    err = capsys.readouterr().err.splitlines()
    assert rc == 2, err
    assert len(err) == 1 and err[0].startswith("floatwind: error: "), err
    assert all(n in err[0] for n in named), err[0]
    assert time.process_time() - t0 < 30  # refused before stepping (CPU time: load-independent)
    assert file_snapshot(tmp_path) == before


def _stop_after(monkeypatch, n: int, how: str) -> None:
    """The n-th step (dynamic: an RK4 step; kinematic: a position solve) diverges or is
    interrupted by Ctrl-C."""
    from floatwind.errors import SimulationError
    from floatwind.integrate import base
    from floatwind.multibody.mbdm import kinematics

    calls = {"n": 0}

    def stop_later(real):
        def step(*args, **kwargs):
            calls["n"] += 1
            if calls["n"] >= n:
                if how == "interrupt":
                    raise KeyboardInterrupt
                raise SimulationError("the state is not finite", time=0.0)
            return real(*args, **kwargs)

        return step

    for name in ("_step_impl", "_state_after"):  # whichever the driver calls
        monkeypatch.setattr(base.RK4, name, stop_later(getattr(base.RK4, name)))
    monkeypatch.setattr(kinematics, "solve_position", stop_later(kinematics.solve_position))


#: (id, case, how it stops, exit code, first line of stderr starts with)
STOPPED = [
    ("dynamic diverges", "body_on_spring", "diverge", 1, "floatwind: wrote the "),
    ("dynamic Ctrl-C", "body_on_spring", "interrupt", 130, "floatwind: wrote the "),
    ("kinematic diverges", "slider_crank_kinematic", "diverge", 1, "floatwind: wrote the "),
    ("kinematic Ctrl-C", "slider_crank_kinematic", "interrupt", 130, "floatwind: wrote the "),
]


@pytest.mark.parametrize("case,how,code,first", [r[1:] for r in STOPPED],
                         ids=[r[0] for r in STOPPED])  # fmt: skip
def test_mbdm_keeps_the_partial_record(tmp_path, monkeypatch, capsys, case, how, code, first):
    f = _mbdm(tmp_path, case)
    earlier = tmp_path / "earlier.nc"
    earlier.write_bytes(b"an earlier result")
    inputs = file_snapshot(tmp_path)
    _stop_after(monkeypatch, 40, how)
    out = tmp_path / "r.nc"
    rc = main(["mbdm", str(f), "-o", str(out), "--tmax", "0.1"])
    err = capsys.readouterr().err.splitlines()
    assert rc == code, err
    assert err[0].startswith(first) and str(out) in err[0], err
    assert ("interrupted at t = " if how == "interrupt" else "simulation failed") in err[1], err
    with xr.open_dataset(out) as ds:
        assert 0 < ds.sizes["time"] < 101  # the steps before the stop, not the whole 0.1 s
        assert ds.attrs["status"].startswith("stopped at t = "), ds.attrs["status"]
        assert np.isfinite(ds.body_position.values).all()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary
    after = file_snapshot(tmp_path)
    after.pop(str(out))
    assert after == inputs


# The same with a real SIGINT: a `floatwind mbdm` process that pauses (writes a marker and
# sleeps) at its n-th RK4 step, deterministically, until the test sends the signal.
_PAUSED_MBDM = r"""
import pathlib, signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)  # even when started with SIGINT ignored
from floatwind.integrate import base
marker, n, calls = pathlib.Path(sys.argv[1]), int(sys.argv[2]), [0]
def pausing(real):
    def step(self, *args, **kwargs):
        calls[0] += 1
        if calls[0] == n:
            marker.write_text("paused")
            time.sleep(600)
        return real(self, *args, **kwargs)
    return step
for name in ("_step_impl", "_state_after"):  # whichever the driver calls
    setattr(base.RK4, name, pausing(getattr(base.RK4, name)))
from floatwind.cli import main
sys.exit(main(sys.argv[3:]))
"""


def test_mbdm_ctrl_c_in_a_real_process_keeps_the_partial_record(tmp_path):
    f = _mbdm(tmp_path, "body_on_spring")
    out = tmp_path / "r.nc"
    marker = tmp_path / "paused"
    inputs = file_snapshot(tmp_path)
    cmd = [sys.executable, "-c", _PAUSED_MBDM, str(marker), "30", "mbdm", str(f), "-o", str(out),
           "--tmax", "0.1"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=_env())  # fmt: skip
    wait_for_marker(proc, marker)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 130, err
    assert err.splitlines()[0].startswith("floatwind: wrote the "), err
    with xr.open_dataset(out) as ds:
        assert 0 < ds.sizes["time"] < 101
        assert ds.attrs["status"].startswith("stopped at t = ")
    marker.unlink()
    after = file_snapshot(tmp_path)
    after.pop(str(out))
    assert after == inputs


# ------------------------------------------------------------------ item 6: studies

STUDY = ROOT / "tests" / "data" / "studies"
#: a 2-s study of 4 runs (2 conditions x 2 variants, one realization), on the NumPy path
TINY = ["--duration", "2", "--realizations", "1", "--no-progress"]


def _study(tmp_path: pathlib.Path) -> pathlib.Path:
    d = tmp_path / "in"
    shutil.copytree(STUDY, d)
    case = d / "spar1.yaml"
    ct = str(ROOT / "cases" / "data" / "ct_curve_fig14.csv")
    case.write_text(case.read_text().replace("../../../cases/data/ct_curve_fig14.csv", ct))
    return d / "small_study.yaml"


def _env() -> dict:
    env = dict(os.environ, FLOATWIND_NO_JIT="1")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    return env


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc/*/stat: every Linux kernel has it)."""
    out = []
    for d in pathlib.Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(d.name))
    return out


def _gone(pid: int) -> bool:
    try:
        state = (pathlib.Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state == "Z"  # ended; only its exit status waits for a parent


def _wait_gone(pids: list[int], timeout: float = 60.0) -> list[int]:
    end = time.monotonic() + timeout
    while not all(_gone(p) for p in pids) and time.monotonic() < end:
        time.sleep(0.02)
    alive = [p for p in pids if not _gone(p)]
    for p in alive:
        os.kill(p, signal.SIGKILL)
    return alive


def _batches(out: pathlib.Path) -> dict[str, str]:
    return {k: v for k, v in file_snapshot(out).items() if "/batches/" in k}


#: (id, signal to the main process, batches finished before it, its exit code, first stderr
#: line of the killed process (None: nothing said)). SIGTERM ends a Python process as SIGKILL
#: does (no handler runs), so its workers see the same parent death: not a row of its own; a kill
#: before the first batch is the same as after it, less the batch kept
KILLED = [
    ("SIGKILL after one batch", signal.SIGKILL, 1, -signal.SIGKILL, None),
    ("Ctrl-C after one batch", signal.SIGINT, 1, 130, "floatwind: interrupted"),
]


@pytest.mark.skipif(not pathlib.Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
@pytest.mark.parametrize("sig,n_done,code,first", [r[1:] for r in KILLED],
                         ids=[r[0] for r in KILLED])  # fmt: skip
def test_a_killed_study_stops_its_workers_and_resumes(tmp_path, sig, n_done, code, first):
    study = _study(tmp_path)
    out = tmp_path / "out"
    marker = tmp_path / "paused"
    inputs = file_snapshot(study.parent)
    argv = ["study", str(study), "-o", str(out), "--workers", "2", "--batch-size", "1", *TINY]
    proc = paused_study(argv, n_done, marker, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                        text=True, env=_env())  # fmt: skip
    wait_for_marker(proc, marker)  # a worker finished n_done batches and "runs" the next
    end = time.monotonic() + 600  # and the other worker too: then nothing is being written
    while len(list((out / "batches").glob("*.json"))) < 2 * n_done and time.monotonic() < end:
        time.sleep(0.02)
    workers = _children(proc.pid)
    assert len(workers) == 2, workers
    done = _batches(out)
    assert len([k for k in done if k.endswith(".json")]) == 2 * n_done, done
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == code, err
    if first is None:
        assert err == "", err
    else:
        assert err.splitlines()[0].startswith(first), err
    assert _wait_gone(workers) == [], "workers outlived the study's main process"
    assert _batches(out) == done  # no batch finished into the abandoned folder afterwards
    assert file_snapshot(study.parent) == inputs
    # a killed write of the main process and of a worker: temporaries of dead writers
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()  # fmt: skip
    orphans = [out / f".runs.tmp-{dead}-abc123.csv", out / "batches" / f".b.tmp-{dead}-abc123.nc",
               out / "openfast" / f".r.tmp-{dead}-abc123.outb"]  # fmt: skip
    for p in orphans:
        p.parent.mkdir(exist_ok=True)
        p.write_bytes(b"half written")
    from floatwind import _kernels

    jit = _kernels.use_jit(False)  # the NumPy path, as the killed study ran
    try:
        rc = main(["study", str(study), "-o", str(out), "--resume", "--workers", "1", *TINY])
    finally:
        _kernels.use_jit(jit)
    assert rc == 0
    assert not any(p.exists() for p in orphans)
    assert [p for p in out.rglob(".*tmp*")] == []
    after = _batches(out)
    assert {k: after[k] for k in done} == done  # the earlier batches byte-identical
    from floatwind.studies.execute import finished_runs

    assert len(finished_runs(out)) == 4  # every run finished now
    assert file_snapshot(study.parent) == inputs


# ------------------------------------------------------------------ item 7: numba's cache

_TINY_KERNEL = """
from numba import njit


@njit(cache=True)
def rk4_chunk(x):
    return x + 1.0
"""


@pytest.mark.parametrize(
    "numba_cache_dir", [False, True], ids=["beside the module", "NUMBA_CACHE_DIR"]
)
def test_is_compiled_asks_numba_where_its_cache_is_and_whether_it_is_fresh(
    tmp_path, monkeypatch, numba_cache_dir
):
    """``is_compiled`` (the compile notice, ``floatwind warmup``) asks numba where the cache of
    a generated module is (beside it, or under NUMBA_CACHE_DIR) and whether numba would use it:
    an index numba would not use (made for another numba, or another text of the module: numba
    0.6x stamps the source by its content) is "compiling". A one-line kernel stands for a
    generated stepper (cheap)."""
    import importlib.util

    from floatwind.simulate import generate

    cache = tmp_path / "numba_cache"
    monkeypatch.setattr("numba.core.config.CACHE_DIR", str(cache) if numba_cache_dir else "")
    src = tmp_path / "kernels" / "tiny_stepper_for_is_compiled.py"
    src.parent.mkdir()
    src.write_text(_TINY_KERNEL)

    def load():
        spec = importlib.util.spec_from_file_location(src.stem, src)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod

    mod = load()
    monkeypatch.setattr(generate, "stepper", lambda loads, dofs=False: mod)
    assert not generate.is_compiled([])  # nothing compiled yet
    assert mod.rk4_chunk(1.0) == 2.0  # numba compiles and writes its cache
    index = pathlib.Path(mod.rk4_chunk._cache._cache_file._index_path)
    assert index.is_file()
    assert index.is_relative_to(cache if numba_cache_dir else src.parent), index
    mod = load()  # a later process: the module as it is on disk
    assert generate.is_compiled([])
    src.write_text(_TINY_KERNEL + "# another version\n")  # its index no longer fits
    mod = load()
    assert not generate.is_compiled([])  # numba would compile again: say so


def test_a_killed_stream_write_leaves_no_temporary_for_the_next_one(tmp_path, monkeypatch):
    """`-o /dev/stdout` (a device or FIFO) is written through a temporary in the system's
    temporary folder named like every other (the writer's pid in it): what a killed write left
    there is removed by the next one, a living writer's is left alone."""
    import tempfile

    from floatwind.io.safe import atomic_write, temporary_name

    spool = tmp_path / "system_tmp"
    spool.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spool))
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()  # fmt: skip
    orphan = spool / f".floatwind-stream.tmp-{dead}-abc123.nc"
    orphan.write_bytes(b"half written")
    living = temporary_name(spool / "floatwind-stream.nc")  # this process: a write under way
    living.write_bytes(b"being written")
    seen = []
    atomic_write(os.devnull, lambda tmp: (seen.append(tmp.parent), tmp.write_bytes(b"result")))
    assert seen == [spool]
    assert sorted(p.name for p in spool.iterdir()) == [living.name]


def test_no_hypothesis_test_keeps_a_wall_clock_deadline():
    """The suite's hypothesis profile (tests/conftest.py) has no per-example deadline, and no
    test sets one of its own: a loaded 2-core machine made the 200-ms default fail at random
    (tests/test_rotation.py::test_tangent_against_finite_difference)."""
    import re

    from hypothesis import settings

    assert settings.default.deadline is None
    own = [
        f"{p.name}:{m.group(0)}"
        for p in sorted((ROOT / "tests").glob("test_*.py"))
        for m in re.finditer(r"deadline\s*=\s*(?!None)[^,)\s]+", p.read_text())
    ]
    assert own == [], own
