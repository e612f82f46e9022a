import os
import pathlib

import pytest

# no ahead-of-time modules in the suite (each costs a second compile of a model; issue 41):
# tests/test_aot.py switches them on where it checks them. Set before floatwind is imported, and
# inherited by the CLI runs the tests start.
os.environ.setdefault("FLOATWIND_AOT", "0")
# flexible towers on the shared stages (one compiled module for every tower layout; the sized
# copies compile once per layout, ~45 s each on this suite's models): test_flex_tower's ref11
# test runs the sized stages, the users' default, and checks they give the shared stages' bits
os.environ.setdefault("FLOATWIND_FLEX_SIZED", "0")

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


# --- the source tree stays clean (issue 24): nothing the suite runs writes into it ------------

#: what Python, pytest and the tools themselves leave (caches, the editable install)
_TOOL_LEFTOVERS = ("__pycache__/", ".pytest_cache/", ".hypothesis/", ".ruff_cache/", ".egg-info/")



def set_deck_value(path: pathlib.Path, key: str, value: str) -> None:
    """Replace the value in front of ``key`` in an OpenFAST input file (a test's copy)."""
    import re

    text, n = re.subn(rf"^(\s*)\S+(\s+{re.escape(key)}\s)", rf"\g<1>{value}\g<2>",
                      path.read_text(encoding="latin-1"), count=1, flags=re.M)  # fmt: skip
    assert n == 1, key
    path.write_text(text, encoding="latin-1")


def deck_copy(ref: pathlib.Path, tmp_path: pathlib.Path) -> pathlib.Path:
    """A writable copy of the reference deck folder ``ref`` in ``tmp_path`` (its ``.fst``)."""
    import shutil
    import stat

    dst = tmp_path / ref.name
    shutil.copytree(ref, dst, ignore=shutil.ignore_patterns("*.out", "*.outb", "*.sum"))
    for p in dst.rglob("*"):
        p.chmod(p.stat().st_mode | stat.S_IWUSR)
    return dst / f"{ref.name}.fst"

def file_snapshot(root: pathlib.Path) -> dict[str, str]:
    """sha256 of every file under ``root`` (path -> hex): "every input and earlier result is
    byte-identical afterwards" in the refusal tests."""
    import hashlib

    return {
        str(p): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def assert_refused(argv: list[str], folder: pathlib.Path, named: str, reason: str, capsys) -> None:
    """``floatwind ARGV`` exits 2 with exactly one ``floatwind: error:`` line that contains
    ``named`` (the file/field/option) and ``reason``, no traceback, and every file under
    ``folder`` byte-identical afterwards."""
    from floatwind.cli import main

    before = file_snapshot(folder)
    rc = main(argv)
    err = capsys.readouterr().err
    errors = [ln for ln in err.splitlines() if ln.startswith("floatwind: error:")]
    assert rc == 2, (argv, err)
    assert len(errors) == 1, err
    assert named in errors[0] and reason in errors[0], errors[0]
    assert "Traceback" not in err and "internal error" not in err
    assert file_snapshot(folder) == before, "a file changed"


def ref09_airfoil_paths(deck_dir: pathlib.Path) -> list[pathlib.Path]:
    """The airfoil files a deck's AeroDyn.dat names (AFNames), in order (the BEM tests)."""
    from floatwind.case.openfast.reader import read_openfast_input

    names = read_openfast_input(deck_dir / "AeroDyn.dat")["values"]["AFNames"]
    names = names if isinstance(names, list) else [names]
    return [deck_dir / str(n).strip('"') for n in names]


def _tree_entries() -> set[str] | None:
    """Untracked and ignored paths of the checkout (``git status --porcelain --ignored``), tool
    caches left out; None outside a git checkout."""
    import subprocess

    try:
        out = subprocess.run(
            ["git", "status", "--porcelain", "--ignored", "--untracked-files=all"],
            cwd=ROOT, capture_output=True, text=True, timeout=60, check=True,
        ).stdout  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    entries = set()
    for line in out.splitlines():
        path = line[3:]
        if line[:2] in ("??", "!!") and not any(t in path for t in _TOOL_LEFTOVERS):
            entries.add(path)
    return entries


def pytest_sessionstart(session):
    session.config._tree_before = _tree_entries()


def pytest_sessionfinish(session, exitstatus):
    before = getattr(session.config, "_tree_before", None)
    after = _tree_entries() if before is not None else None
    if before is None or after is None:
        return
    new = sorted(after - before)
    if new:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        msg = (f"the test suite wrote {len(new)} file(s) into the source tree, e.g. "
               f"{', '.join(new[:5])}: tests write into temporary folders only")  # fmt: skip
        if reporter is not None:
            reporter.write_line(f"ERROR: {msg}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# --- the suite on two workers (pytest-xdist): a test file is one unit of work -------------------
# Most of a cold run is numba's first compile of each generated stepper (minutes under load). Sent
# test by test (xdist's "load"), the tests of one file (one model family, one module-scoped
# fixture) went to both workers, and both compiled the same stepper at the same time. Here each
# file runs on one worker, and the files that share an expensive stepper (oc3_hywind_bem's, and
# the controlled case's) run on the same one, after each other: numba's disk cache then serves
# the later ones. An explicit --dist (loadfile, loadgroup, ...) keeps its own meaning.
_SHARED_STEPPER = {
    f: "bem_rotor_stepper"
    for f in ("test_case_bem.py", "test_compiled_home.py", "test_dlc_bem.py", "test_dlc_control.py")
}



#: seconds of the slowest files in a cold CI-like run (2026-11-29, 2 workers, `--durations=120`,
#: the machine at load 7-11, so about twice CI's): the units are handed out longest first, so that
#: a long file does not start last and keep one worker busy while the other idles (xdist's own
#: order is by the number of tests). Only the order depends on these numbers, never a result; a
#: file not listed counts 0.3 s per test.
_FILE_SECONDS = {
    "test_moordyn.py": 528, "test_mbdm_compiled.py": 318, "test_compiled_home.py": 299,
    "test_case_bem.py": 269, "test_studies.py": 267, "test_servo.py": 263,
    "test_flex_tower.py": 184, "test_compiled_coverage.py": 171, "test_potential_flow.py": 149,
    "test_bem.py": 141, "test_joint_dofs.py": 127, "test_aot.py": 112,
    "test_openfast_ecosystem.py": 110, "test_bemt_ccblade.py": 102, "test_dlc_control.py": 72,
    "test_mbdm_files.py": 62, "test_dlc.py": 61, "test_drift.py": 59,
    "test_nothing_lost_runs.py": 58, "test_aerodisk.py": 56, "test_fused.py": 55,
    "test_bossak.py": 52, "test_trust.py": 51, "test_seed_cases.py": 48,
    "test_tower_base_split.py": 39, "test_rotor_ref09.py": 39, "test_compare_openfast.py": 36,
    "test_added_mass_coupling.py": 35, "test_dbemt.py": 33, "test_load_states.py": 31,
    "test_env_recorded_sea.py": 31, "test_rigid_body.py": 30, "test_mbdm_turbine.py": 29,
}  # fmt: skip


#: the first unit of each worker: the BEM group and the MBDM file share no kernel (the MBDM
#: stepping is floatwind._kernels.mbdm alone), so the two workers' first minutes of compiling do
#: not compile the same kernels at the same time; the later files find them in numba's cache
_FIRST = ("bem_rotor_stepper", "tests/test_mbdm_compiled.py")


def _unit_key(scope: str, nodeids) -> tuple:
    first = _FIRST.index(scope) if scope in _FIRST else len(_FIRST)
    return first, -_unit_seconds(scope, nodeids)


def _unit_seconds(scope: str, nodeids) -> float:
    files = [f for f, unit in _SHARED_STEPPER.items() if unit == scope] or [scope.rsplit("/", 1)[-1]]
    known = sum(_FILE_SECONDS.get(f, 0) for f in files)
    return known if known else 0.3 * len(nodeids)


def pytest_xdist_make_scheduler(config, log):
    if getattr(config.option, "dist", "load") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class FileScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return _SHARED_STEPPER.get(path.rsplit("/", 1)[-1], path)

        def _assign_work_unit(self, node) -> None:
            if not getattr(self, "_longest_first", False):
                units = sorted(self.workqueue.items(), key=lambda kv: _unit_key(*kv))
                self.workqueue.clear()
                self.workqueue.update(units)
                self._longest_first = True
            super()._assign_work_unit(node)

    return FileScheduling(config, log)


# No test depends on wall-clock speed: hypothesis' per-example deadline is off for the whole
# suite (a loaded 2-core machine made a 200 ms deadline fail at random).
from hypothesis import settings as _hypothesis_settings  # noqa: E402

_hypothesis_settings.register_profile("floatwind", deadline=None)
_hypothesis_settings.load_profile("floatwind")


# A `floatwind study` process that stops, deterministically, before its batch n + 1: once n
# batches are written it writes `marker` and waits (the "long" next batch) until the test
# signals or kills it. Tests of Ctrl-C, kill and resume used to race a study that could finish
# before the signal on a fast machine, or not start on a loaded one.
_PAUSED_STUDY = r"""
import pathlib, signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C works even if started ignoring it
import floatwind.studies.execute as execute
marker, n = pathlib.Path(sys.argv[1]), int(sys.argv[2])
real, done = execute.run_batch, []
def run_batch(*args, **kwargs):
    if len(done) == n:
        marker.write_text(f"{n} batches written")
        time.sleep(600)
    res = real(*args, **kwargs)
    done.append(res)
    return res
execute.run_batch = run_batch
from floatwind.cli import main
sys.exit(main(sys.argv[3:]))
"""


def paused_study(argv: list[str], n_batches: int, marker: pathlib.Path, **popen_kw):
    """(process, marker) of ``floatwind ARGV`` (a one-worker study) paused before its batch
    ``n_batches + 1``; wait for it with ``wait_for_marker``."""
    import subprocess
    import sys

    cmd = [sys.executable, "-c", _PAUSED_STUDY, str(marker), str(n_batches), *argv]
    return subprocess.Popen(cmd, **popen_kw)


def wait_for_marker(proc, marker: pathlib.Path, timeout: float = 1800.0) -> None:
    """Wait until ``marker`` exists (the first batch may include JIT compilation: a cold compile
    of the study model took 585 s on a 2-core machine at load 10); fail with the process's
    stderr if it ended first. The timeout is a bound against a hang, not a pace."""
    import time

    end = time.monotonic() + timeout
    while not marker.exists():
        if proc.poll() is not None:
            _, err = proc.communicate()
            pytest.fail(f"the study ended (exit {proc.returncode}) before pausing: {err}")
        if time.monotonic() > end:
            proc.kill()
            pytest.fail("the study did not reach its pause in time")
        time.sleep(0.02)
