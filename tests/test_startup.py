"""The fixed cost of a command stays structural (issue 41, docs/performance.md "Fixed cost of a
run"): no timing is asserted (the machine is shared and noisy); instead each command runs in a
fresh process and the test asserts which packages it did NOT import. A module-level import of
something heavy that a command does not use (Dask, pyarrow, matplotlib, a SciPy subpackage,
the studies / report / DLC layers, xarray for a command that builds no Dataset) fails here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
REF01 = ROOT.parent / "shared/reference/openfast/ref01_pitch_decay/ref01_pitch_decay.fst"

needs_ref01 = pytest.mark.skipif(not REF01.is_file(), reason=f"reference deck not found: {REF01}")

#: the command's process: ``floatwind.cli.main()`` with sys.argv set (as the console script and
#: ``python -m floatwind`` call it), then the modules it left imported (None entries excluded:
#: those are the packages ``without_dask`` marked absent)
_PROBE = r"""
import contextlib, io, json, sys
sys.argv = ["floatwind"] + json.loads(sys.argv[1])
from floatwind.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
    rc = main()
print(json.dumps({"rc": rc, "err": err.getvalue(),
                  "modules": sorted(m for m, v in sys.modules.items() if v is not None)}))
"""

#: never needed by a single run, a check or an import (Dask and pyarrow are kept out on purpose,
#: the rest is simply not used by these commands)
NEVER = ("dask", "distributed", "pyarrow", "matplotlib", "floatwind.studies", "floatwind.report",
         "floatwind.dlc", "floatwind.linear", "floatwind.bem", "validation")  # fmt: skip

#: SciPy: numba's start-up imports scipy.linalg (its BLAS check, numba/np/arraymath.py); a run of
#: a deck without waves, wind or potential flow needs no other subpackage
SCIPY_ALLOWED = {"scipy.linalg"}


def _modules(argv: list[str], cwd: Path, extra_env: dict | None = None, prelude: str = "") -> set[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra_env or {})
    proc = subprocess.run([sys.executable, "-c", prelude + _PROBE, json.dumps(argv)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=900)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["rc"] == 0, out["err"][-2000:]
    return set(out["modules"])


def _heavy(mods: set[str], also: tuple[str, ...] = ()) -> list[str]:
    return sorted(
        m
        for m in mods
        if any(m == p or m.startswith(p + ".") for p in NEVER + also)
        or (m.startswith("scipy.") and m.count(".") == 1 and not m.split(".")[1].startswith("_")
            and m not in SCIPY_ALLOWED and m not in ("scipy.version",))
    )  # fmt: skip


@needs_ref01
@pytest.mark.parametrize("fmt", ["nc", "out"])
def test_a_cached_run_imports_only_what_it_uses(fmt, tmp_path):
    """A 0.05-s run of ref01 (its kernels are those of the other ref01 tests: cached after the
    first run) writes its file without Dask, pyarrow, matplotlib, extra SciPy or other layers,
    and without xarray and pandas: the light result written by netCDF4 directly (or as .out)."""
    out = tmp_path / f"r.{fmt}"
    argv = ["run", str(REF01), "--tmax", "0.05", "-o", str(out), "--no-progress"]
    mods = _modules(argv, tmp_path)
    assert out.is_file()
    assert _heavy(mods, also=("xarray", "pandas")) == []
    assert ("netCDF4" in mods) == (fmt == "nc")  # the probe sees what a run does import
    assert "floatwind.io.result" in mods


@needs_ref01
@pytest.mark.parametrize("command", ["check", "import-openfast"])
def test_check_and_import_build_no_dataset(command, tmp_path):
    """``floatwind check`` and ``import-openfast`` of a deck import neither xarray nor pandas
    (nor turbsim_io's readers): the package ``floatwind.io`` loads its netCDF names on use."""
    argv = [command, str(REF01)] + (["-o", str(tmp_path / "c.yaml")] if command != "check" else [])
    mods = _modules(argv, tmp_path)
    assert _heavy(mods, also=("xarray", "pandas", "netCDF4")) == []
    assert "floatwind.case.openfast" in mods


def test_the_check_catches_a_heavy_import():
    """The filter itself: Dask, a SciPy subpackage beyond linalg and xarray (where banned) are
    reported; numba's scipy.linalg and private SciPy modules are not."""
    mods = {"numpy", "scipy", "scipy.linalg", "scipy._lib", "scipy.version", "xarray", "dask.array",
            "scipy.interpolate", "floatwind.studies.execute"}  # fmt: skip
    assert _heavy(mods) == ["dask.array", "floatwind.studies.execute", "scipy.interpolate"]
    assert "xarray" in _heavy(mods, also=("xarray",))


def test_io_package_names_load_on_use():
    """``from floatwind.io import write_netcdf`` still works (PEP 562), an unknown name fails."""
    import floatwind.io as fio

    assert callable(fio.write_netcdf) and "CHANNELS" in dir(fio)
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        fio.nope  # noqa: B018


REFS = ROOT.parent / "shared/reference/openfast"


@pytest.mark.parametrize("deck", ["ref05_morison_jonswap", "ref13_potential_irregular"])
def test_wave_and_potential_flow_decks_import_no_scipy_fft(deck, tmp_path):
    """A deck with a JONSWAP sea on Morison strips (ref05) and one with potential flow in an
    irregular sea (ref13: the radiation kernel's DCT, the sea's FFT tables) run without
    scipy.fft, scipy.special, scipy.optimize or scipy.integrate (~0.5-0.8 s of imports each;
    floatwind.environment.fourier does their transforms). On the Python path
    (FLOATWIND_NO_JIT=1, 4 steps): the imports are the run's, and nothing is compiled."""
    fst = REFS / deck / f"{deck}.fst"
    if not fst.is_file():
        pytest.skip(f"reference deck not found: {fst}")
    argv = ["run", str(fst), "--tmax", "0.05", "-o", str(tmp_path / "r.nc"), "--no-progress"]
    mods = _modules(argv, tmp_path, {"FLOATWIND_NO_JIT": "1"})
    assert (tmp_path / "r.nc").is_file()
    assert _heavy(mods, also=("xarray", "pandas")) == []
    assert "floatwind.environment.fourier" in mods  # the probe sees the transforms' module


#: what a run of ref01 (rigid platform, HydroDyn's linear matrices, RK4, no sea, wind, rotor or
#: mooring lines) does not use: the other commands, the other schemes, the other load kinds
REF01_UNUSED = (
    "floatwind.simulate.bossak", "floatwind.simulate.lie", "floatwind.simulate.euler313",
    "floatwind.integrate.lie_group", "floatwind.multibody.euler313",
    "floatwind.loads.morison", "floatwind.loads.potential", "floatwind.loads.catenary",
    "floatwind.loads.moordyn", "floatwind.loads.mooring", "floatwind.loads.rotor_bem",
    "floatwind.loads.servo", "floatwind.loads.thrust", "floatwind.loads.hydrostatics",
    "floatwind.rotor", "floatwind.mooring", "scipy.optimize", "scipy.integrate",
    "floatwind.environment.waves", "floatwind.environment.wind", "floatwind.io.aerodyn",
    "floatwind.io.aerodisk", "floatwind.loads.aerodisk", "floatwind.multibody.flex_tower",
)  # fmt: skip


@needs_ref01
def test_a_run_imports_its_own_command_and_the_deck_s_kinds_only(tmp_path):
    """``floatwind run`` imports the module of ``run`` and no other command's (the parser lists
    the commands from :data:`floatwind.cli.COMMANDS`), the RK4 scheme and no other, the load
    modules of the deck's kinds (ref01: ``simple``) and none of the others (issue 41: the fixed
    cost of a run). numba: tests/test_aot.py (a second run of ref01 imports none)."""
    from floatwind.cli import COMMANDS

    argv = ["run", str(REF01), "--tmax", "0.05", "-o", str(tmp_path / "r.nc"), "--no-progress"]
    mods = _modules(argv, tmp_path)
    others = {f"floatwind.cli.{mod}" for name, mod, _ in COMMANDS if name != "run"}
    assert sorted(others & mods) == []
    assert {"floatwind.cli.run", "floatwind.simulate.first_order", "floatwind.loads.simple"} <= mods
    assert _heavy(mods, also=REF01_UNUSED + ("xarray", "pandas")) == []


@needs_ref01
def test_a_second_run_of_a_deck_imports_no_yaml(tmp_path):
    """The case text written into the file (``case_text``) is read back from the kernel folder
    on a later run of the same deck and overrides (floatwind.case.openfast.case_text): that run
    needs no PyYAML (~7-10 ms of CPU, issue 41; it runs with PyYAML made unimportable, as the
    suite's numba, off the ahead-of-time modules, imports it if it can); its file holds the same
    text."""
    argv = ["run", str(REF01), "--tmax", "0.05", "--no-progress", "-o"]
    _modules(argv + [str(tmp_path / "a.nc")], tmp_path)  # the text dumped (or already kept)
    _modules(argv + [str(tmp_path / "b.nc")], tmp_path, prelude="import sys\nsys.modules['yaml'] = None\n")
    import netCDF4

    texts = []
    for name in ("a.nc", "b.nc"):
        with netCDF4.Dataset(tmp_path / name) as nc:
            texts.append(nc.getncattr("case_text"))
    assert texts[0] == texts[1] and "simulation:" in texts[0]


@pytest.mark.parametrize("argv", [["--help"], ["check", "--help"], ["nosuch"]])
def test_help_imports_no_other_command(argv, tmp_path):
    """``floatwind --help`` imports no command's module, ``floatwind check --help`` only
    check's, and a misspelt command none (argparse answers from the names of the table)."""
    from floatwind.cli import COMMANDS

    probe = ("import contextlib, io, json, sys\nsys.argv = ['floatwind'] + json.loads(sys.argv[1])\n"
             "from floatwind.cli import main\n"
             "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
             "    try:\n        main()\n    except SystemExit:\n        pass\n"
             "print(json.dumps(sorted(m for m in sys.modules if m.startswith('floatwind.cli.'))))\n")  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([sys.executable, "-c", probe, json.dumps(argv)], cwd=tmp_path,
                          env={**env, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    mods = set(json.loads(proc.stdout.strip().splitlines()[-1]))
    commands = {f"floatwind.cli.{mod}" for _, mod, _ in COMMANDS}
    assert mods & commands == ({"floatwind.cli.check"} if argv[0] == "check" else set())


def test_the_tables_of_lazy_imports_match_their_modules():
    """The tables that let a run import only what it uses say what the modules define: each
    command's module has its name (and no help line of its own: the table holds it), each
    shipped load kind is its module's class, each shipped scheme its module's."""
    import importlib

    from floatwind.cli import COMMANDS
    from floatwind.loads import registry
    from floatwind.simulate import schemes

    for name, mod, help_line in COMMANDS:
        m = importlib.import_module(f"floatwind.cli.{mod}")
        assert m.NAME == name and help_line and not hasattr(m, "HELP")
        assert callable(m.add_arguments) and callable(m.main) and isinstance(m.EPILOG, str)
    shipped = {k: c.__module__ for k, c in registry.registered().items()
               if c.__module__.startswith("floatwind.")}  # fmt: skip
    assert shipped == {k: f"floatwind.loads.{m}" for k, m in registry.SHIPPED.items()}
    assert set(registry._IMPORT) == set(registry.SHIPPED.values())
    table = {key: type(s).__module__ for key, s in schemes.SCHEMES.items()}
    assert table == {k: f"floatwind.simulate.{m}" for k, m in schemes.SHIPPED.items()}
    assert set(schemes.IMPORT) == set(schemes.SHIPPED.values())
    assert list(schemes.SCHEMES) == list(schemes.SHIPPED)  # the order the messages list them


def test_template_sources_are_inspect_s():
    """The stepper generator reads its templates without tokenising
    (``floatwind.simulate.generate._getsource``): the same text as ``inspect.getsource`` for
    every function of the template modules and of a few others (decorated, nested, multi-line
    signatures, trailing comments), so a generated module's name, and numba's cache of it, is
    unchanged."""
    import importlib
    import inspect

    from floatwind.simulate import generate

    n = 0  # flex, flex_nodes: copied sized into a flexible model's module (_sized_flex)
    for name in ("floatwind._kernels.fused", "floatwind.integrate.base",
                 "floatwind.integrate.compiled", "floatwind.integrate.compiled_bossak",
                 "floatwind._kernels.joints", "floatwind.simulate.system",
                 "floatwind.case.openfast.reader", "floatwind._kernels.flex",
                 "floatwind._kernels.flex_nodes"):  # fmt: skip
        module = importlib.import_module(name)
        for obj in vars(module).values():
            fn = getattr(obj, "py_func", obj)
            if inspect.isfunction(fn) and fn.__module__ == name:
                assert generate._getsource.__wrapped__(fn) == inspect.getsource(fn), fn
                n += 1
    assert n > 50


def test_the_sources_digest_is_remembered_by_the_files_stamps(tmp_path, monkeypatch):
    """``aot.sources_digest`` is codegen's digest; stored with the sources' sizes and times it is
    read back while they are unchanged, and computed again when a stamp differs."""
    from floatwind._kernels import aot, codegen

    if not aot._JIT_ON[0]:
        pytest.skip("compiled kernels off")
    monkeypatch.setenv("FLOATWIND_AOT", "1")
    monkeypatch.setenv("FLOATWIND_AOT_DIR", str(tmp_path))
    monkeypatch.setattr(codegen, "_DIGEST", [])
    true = codegen.sources_digest()
    codegen._DIGEST.clear()
    assert aot.sources_digest() == true
    stored = json.loads((tmp_path / "sources_digest.stamps").read_text())
    assert stored["digest"] == true and "cli/run.py" in stored["stamps"]
    stored["digest"] = "0" * 40  # read back (not recomputed) while the stamps match
    (tmp_path / "sources_digest.stamps").write_text(json.dumps(stored))
    codegen._DIGEST.clear()
    assert aot.sources_digest() == "0" * 40
    stored["stamps"]["cli/run.py"][0] += 1  # a changed file: computed again
    (tmp_path / "sources_digest.stamps").write_text(json.dumps(stored))
    codegen._DIGEST.clear()
    assert aot.sources_digest() == true


def test_the_imported_case_text_is_the_pure_python_emitter_s(monkeypatch):
    """``case_yaml`` (the ``case_text`` of every deck run, ``import-openfast``'s file) uses
    libyaml's emitter where PyYAML has it: the same text as the pure-Python ``safe_dump`` for
    every reference deck, as imported and with --approximate."""
    import yaml

    from floatwind.case.openfast import case_text, import_openfast
    from floatwind.case.openfast.importer import case_yaml
    from floatwind.errors import CaseError

    # every text dumped here (not read back from the kernel folder: test below)
    monkeypatch.setattr(case_text, "cached_text", lambda case, notes, dump: dump())
    decks = sorted(REFS.glob("ref*/ref*.fst"))
    if not decks:
        pytest.skip(f"reference decks not found: {REFS}")
    n = 0
    for fst in decks:
        for approximate in (False, True):
            try:
                res = import_openfast(fst, approximate=approximate, split="auto")
            except CaseError:
                continue
            text = case_yaml(res["case"], res["notes"])
            with monkeypatch.context() as m:
                m.delattr(yaml, "CSafeDumper", raising=False)
                assert case_yaml(res["case"], res["notes"]) == text, fst.name
            n += 1
    assert n >= len(decks)


def test_a_shipped_kind_is_refused_to_another_class_before_its_module_is_imported():
    """A class of another module cannot take a kind floatwind ships, whether or not the kind's
    module was imported yet (the registry imports it on use): the refusal names the module."""
    from floatwind.loads.base import Load, LoadKindError

    with pytest.raises(LoadKindError, match=r"'morison' of .*floatwind\.loads\.morison"):

        class Mine(Load, kind="morison"):
            @classmethod
            def from_config(cls, cfg, *, body_index, field, base_dir=None, tree=None):
                return cls()


def test_lean_start_one_blas_thread_and_gc_back_after_start(monkeypatch):
    """`floatwind run` starts with one BLAS thread (unless the user chose) and without cyclic
    garbage collection, which start_done switches back on (docs/performance.md)."""
    import gc

    import floatwind.cli._common as cli

    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    monkeypatch.delitem(sys.modules, "numpy")  # as in a fresh process (restored after)
    assert gc.isenabled()
    try:
        cli.lean_start()
        assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
        assert not gc.isenabled()
    finally:
        cli.start_done()
        gc.unfreeze()
    assert gc.isenabled()
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
    cli.lean_start()
    cli.start_done()
    gc.unfreeze()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "4" and gc.isenabled()


def test_the_case_text_read_back_is_the_text_dumped(tmp_path, monkeypatch):
    """``case_yaml`` remembers each text in the kernel folder (case_text.py): for the 13 decks,
    as imported and with overrides, the text read back by a later call (PyYAML not consulted)
    is the text PyYAML dumps; a case or notes that differ in one value, or a value of another
    type (1 and 1.0), give their own text; a case holding other types is dumped, not kept."""
    import yaml

    from floatwind.case.openfast import case_text, import_openfast
    from floatwind.case.openfast.importer import case_yaml
    from floatwind.errors import CaseError

    monkeypatch.setenv("FLOATWIND_KERNEL_DIR", str(tmp_path))
    dumped = []
    decks = sorted(REFS.glob("ref*/ref*.fst"))
    if not decks:
        pytest.skip(f"reference decks not found: {REFS}")
    n = 0
    for fst in decks:
        try:
            res = import_openfast(fst, approximate=False, split="auto")
        except CaseError:
            continue
        case = dict(res["case"], simulation={**res["case"].get("simulation", {}), "t_max": 1.5})
        for c in (res["case"], case):
            with monkeypatch.context() as m:
                m.setattr(case_text, "cached_text", lambda case, notes, dump: dump())
                want = case_yaml(c, res["notes"])
            first = case_yaml(c, res["notes"])  # dumped and kept
            with monkeypatch.context() as m:  # read back: PyYAML must not be asked
                m.setattr(yaml, "dump", lambda *a, **k: dumped.append(1) or "wrong")
                again = case_yaml(c, res["notes"])
            assert first == want == again, fst.name
            n += 1
    assert n >= 2 * 10 and not dumped
    assert len(list((tmp_path / "case_text").glob("*.yaml"))) == n
    texts = {case_yaml({"a": v}, []) for v in (1, 1.0, True, "1", None, [1], {"b": 1})}
    assert len(texts) == 7 and case_yaml({"a": 1}, ["x"]) != case_yaml({"a": 1}, [])
    before = len(list((tmp_path / "case_text").glob("*.yaml")))
    with pytest.raises(yaml.YAMLError):  # not a plain case: dumped (PyYAML's refusal), not kept
        case_yaml({"a": object()}, [])
    assert len(list((tmp_path / "case_text").glob("*.yaml"))) == before
    assert case_text.KEEP >= 64
