"""The fixed cost of a ``floatwind run``: where it goes, and A/B against another checkout.

    python benchmarks/startup_cost.py phases [DECK] [--tmax 1]
    python benchmarks/startup_cost.py ab [DECK] [--tmax 1] [--rounds 5] [--baseline DIR ...]
    python benchmarks/startup_cost.py floor [--rounds 5]
    python benchmarks/startup_cost.py decks --baseline DIR [--cases ref01,ref07] [--rounds 2]
    python benchmarks/startup_cost.py split [DECK] [--tmax 1] [--rounds 5] [--baseline DIR ...]

``phases`` runs the steps of ``floatwind run DECK --tmax S`` in one fresh process (as
``floatwind.cli.run.main`` does them) and prints the CPU time of each: interpreter start-up,
imports (numba; floatwind's run path with netCDF4), deck parsing, model assembly, the pre-run
checks (whose Jacobians load the first compiled kernels: numba's target initialisation), the
compile notice, ``simulate`` (the generated stepper loaded from numba's cache, stepping, outputs
as the light result), the deck's OutList channels, the netCDF file; how many compiled functions
were loaded from numba's cache, with their time; and whether xarray or pandas were imported.

``ab`` times whole processes (user + system CPU of the child): ``floatwind run DECK --tmax S``
of this checkout and of each ``--baseline`` checkout (``PYTHONPATH`` set to it), and a *floor*
process that only imports numpy, numba and netCDF4 and calls one cached compiled function (what
any run of this design pays before floatwind does anything), in turn, ``--rounds`` times. On a
shared machine only the ratios within one invocation mean something: the medians and the ratio
of each checkout to this one are printed. A second floor without numba (numpy and netCDF4: what a
run whose kernels were compiled ahead of time pays before floatwind) and the interpreter alone
are timed with them. ``PYTHONDONTWRITEBYTECODE`` is removed from the
children's environment (an installed floatwind has its byte code; without it Python compiles
~130 modules on every start).

``decks`` runs every reference deck (or ``--cases``) at its own TMax and DT, this checkout and
the ``--baseline`` checkout in turn (A B, then B A, ...), ``--rounds`` times after one warm run of
each (numba's caches, byte code), and prints one markdown row per deck: the medians of both, their
ratio, OpenFAST's side-by-side CPU (the index README's column) and the speed-up over it; then it
compares the two checkouts' output files variable by variable (``np.array_equal``, NaN equal, the
dimensions and attributes too): a change of the run path must not move a result.

``split`` runs the real command (``floatwind.cli.main`` with ``run DECK --tmax S -o FILE
--no-progress``, no numba unless the run itself loads it) in fresh processes and splits its CPU
time by phase, each phase exclusive of the others: every import (the outermost
``importlib._bootstrap._find_and_load``: the site hooks' at start-up excepted, they are in
"interpreter start-up") is charged to "imports", and the command's steps are wrapped as their
modules load (deck parsing, model assembly, memory check, sanity warnings, compile notice,
``simulate``, OutList channels, netCDF file, summary); what no wrapper covers is "the rest" (the
parser, the command's own lines). This checkout and each ``--baseline`` in turn, ``--rounds``
times after one warm process each; medians per phase.

``floor`` splits that floor into processes that each add one piece (the interpreter, numpy,
numba's import, netCDF4, scipy.linalg, the first cached kernel = numba's start-up, then 6 and 24
cached kernels: the cost of one more cache entry), plus xarray for comparison, alternating.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import resource
import statistics
import subprocess
import sys
import tempfile
import textwrap

ROOT = pathlib.Path(__file__).resolve().parents[1]
REF01 = ROOT.parent / "shared/reference/openfast/ref01_pitch_decay/ref01_pitch_decay.fst"

_PHASES = r"""
import resource, sys, time, collections
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
START = cpu()
marks = [("interpreter start-up", START)]
def mark(name):
    marks.append((name, cpu()))
deck, tmax, out = sys.argv[1], float(sys.argv[2]), sys.argv[3]
from floatwind.cli import without_dask
without_dask()
import numba.core.caching as _c
loaded, load_cpu = [], [0.0]
_orig = _c.Cache.load_overload
def _load(self, sig, ctx):
    t = cpu()
    r = _orig(self, sig, ctx)
    load_cpu[0] += cpu() - t
    loaded.append(self._py_func.__qualname__)
    return r
_c.Cache.load_overload = _load
mark("import floatwind.cli, numba")
import floatwind.cli.run, floatwind.simulate, floatwind.io.safe, floatwind.case.openfast
mark("import floatwind's run path (netCDF4)")
from floatwind.case.openfast import import_openfast, model_from_deck
res = import_openfast(deck, approximate=False, split="auto", mooring="auto")
mark("deck parsing")
model = model_from_deck(deck, approximate=False, overrides={"simulation.t_max": tmax}, result=res)
model.deck_import = res
mark("model assembly")
from floatwind.simulate.sanity import check_memory, compile_notice, sanity_warnings
check_memory(model)
sanity_warnings(model)
mark("pre-run checks (first kernels: numba start-up)")
notice = compile_notice(model)
mark("compile notice")
from floatwind.simulate import simulate
ds = simulate(model, progress=False, light=True)
mark("simulate: stepper from cache, stepping, outputs")
from floatwind.case.openfast.outputs import deck_channels, deck_outlist, not_computed
for name, var in deck_channels(ds, model, res["info"]).items():
    if name not in ds:
        ds[name] = var
not_computed(deck_outlist(res["deck"]), ds)
mark("deck OutList channels")
import pathlib
from floatwind.cli._results import write_result, summary
write_result(ds, pathlib.Path(out), "nc")
summary(ds)
mark("netCDF file + summary")
prev = 0.0
for name, t in marks:
    print(f"{name:50s} {t - prev:7.3f} s")
    prev = t
print(f"{'total (process CPU)':50s} {cpu():7.3f} s")
print(f"compiled functions loaded from numba's cache: {len(loaded)} ({load_cpu[0]:.3f} s): "
      f"{', '.join(loaded)}")
print("xarray imported:", "xarray" in sys.modules, "| pandas imported:", "pandas" in sys.modules)
if notice:
    print("(the kernels were not cached: this was a compiling run, measure again)")
"""

_SPLIT = r"""
import json, resource, sys
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
START = cpu()
import importlib._bootstrap as _b
acc = {"interpreter start-up": START}
stack = [["the rest", cpu()]]  # [phase, CPU at which it last resumed]
def enter(name):
    t = cpu()
    top = stack[-1]
    acc[top[0]] = acc.get(top[0], 0.0) + t - top[1]
    stack.append([name, t])
def leave():
    t = cpu()
    name, t0 = stack.pop()
    acc[name] = acc.get(name, 0.0) + t - t0
    stack[-1][1] = t
WRAP = {
    "floatwind.case.openfast": {"import_openfast": "deck parsing (import_openfast)",
                                "model_from_deck": "model assembly (model_from_deck)"},
    "floatwind.simulate.sanity": {"check_memory": "memory check",
                                  "sanity_warnings": "sanity warnings",
                                  "compile_notice": "compile notice"},
    "floatwind.simulate": {"simulate": "simulate (stepping, outputs)"},
    "floatwind.case.openfast.outputs": {"deck_channels": "deck OutList channels",
                                        "not_computed": "deck OutList channels"},
    "floatwind.io.netcdf": {"write_netcdf": "netCDF file"},
    "floatwind.cli._results": {"summary": "summary"},
}
def wrap(fn, name):
    def inner(*a, **k):
        enter(name)
        try:
            return fn(*a, **k)
        finally:
            leave()
    return inner
_orig = _b._find_and_load
def _find_and_load(name, import_):
    outer = stack[-1][0] != "imports"
    if outer:
        enter("imports")
    try:
        mod = _orig(name, import_)
    finally:
        if outer:
            leave()
    for attr, phase in WRAP.pop(name, {}).items():
        if hasattr(mod, attr):
            setattr(mod, attr, wrap(getattr(mod, attr), phase))
    return mod
_b._find_and_load = _find_and_load
sys.argv = ["floatwind", "run", *sys.argv[1:]]
import contextlib, io
from floatwind.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
    rc = main()
assert rc == 0, err.getvalue()[-2000:]
acc["the rest"] = acc.get("the rest", 0.0) + cpu() - stack[0][1]
acc["total (process CPU)"] = cpu()
acc["numba imported"] = float("numba" in sys.modules)
print(json.dumps(acc))
"""

#: the phases of ``split`` in the order they are printed
SPLIT_ORDER = ("interpreter start-up", "imports", "deck parsing (import_openfast)",
               "model assembly (model_from_deck)", "memory check", "sanity warnings",
               "compile notice", "simulate (stepping, outputs)", "deck OutList channels",
               "netCDF file", "summary", "the rest", "total (process CPU)")  # fmt: skip


def split(deck: str, tmax: float, rounds: int, baselines: list[str]) -> None:
    import json

    trees = [("this checkout", str(ROOT))] + [(b, str(pathlib.Path(b).resolve()))
                                              for b in baselines]  # fmt: skip
    res = {name: [] for name, _ in trees}
    with tempfile.TemporaryDirectory() as tmp:

        def one(path):
            cmd = [sys.executable, "-c", _SPLIT, deck, "--tmax", f"{tmax:g}", "-o",
                   f"{tmp}/out.nc", "--overwrite", "--no-progress"]  # fmt: skip
            proc = subprocess.run(cmd, capture_output=True, text=True, env=_env(path), cwd=tmp)
            if proc.returncode != 0:
                raise SystemExit(f"split failed:\n{proc.stderr[-2000:]}")
            return json.loads(proc.stdout.strip().splitlines()[-1])

        for _, path in trees:  # warm: byte code, caches
            one(path)
        for k in range(rounds):
            for name, path in trees if k % 2 == 0 else trees[::-1]:
                res[name].append(one(path))
    names = [n for n, _ in trees]
    print(f"{rounds} alternating rounds, CPU by phase (exclusive), medians; ratio: last / first")
    print(f"{'phase':36s}" + "".join(f" {n[-22:]:>22s}" for n in names))
    for phase in SPLIT_ORDER:
        meds = [statistics.median(r.get(phase, 0.0) for r in res[n]) for n in names]
        print(f"{phase:36s}" + "".join(f" {m:22.4f}" for m in meds))
    print("numba imported:", {n: bool(res[n][0]["numba imported"]) for n in names})


_FLOOR = textwrap.dedent(
    """
    import numpy as np, netCDF4
    from numba import njit
    exec(compile(open(FILE).read(), FILE, "exec"))
    """
)

_KERNEL = textwrap.dedent(
    """
    import numpy as np
    from numba import njit

    @njit(cache=True, fastmath=False)
    def total(a):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i]
        return s

    total(np.ones(3))
    """
)


def _env(pythonpath: str | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE",)}
    env["OMP_NUM_THREADS"] = "1"
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    return env


def child_cpu(cmd: list[str], env: dict, cwd: str) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stderr[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def phases(deck: str, tmax: float, trees: list[str] = ()) -> None:
    """The phases of this checkout's run, then of each of ``trees`` (``--baseline``)."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-c", _PHASES, deck, str(tmax), f"{tmp}/out.nc"]
        for tree in [str(ROOT), *trees]:
            print(f"-- {tree}", flush=True)
            subprocess.run(cmd, env=_env(tree), cwd=tmp, check=True)


def ab(deck: str, tmax: float, rounds: int, baselines: list[str]) -> None:
    trees = [("this checkout", str(ROOT))] + [
        (b, str(pathlib.Path(b).resolve())) for b in baselines
    ]
    with tempfile.TemporaryDirectory() as tmp:
        kernel = pathlib.Path(tmp, "floor_kernel.py")
        kernel.write_text(_KERNEL)
        floor = [sys.executable, "-c", f"FILE = {str(kernel)!r}\n" + _FLOOR]
        runs = {}
        for name, path in trees:
            runs[name] = (
                [sys.executable, "-m", "floatwind", "run", deck, "--tmax", f"{tmax:g}",
                 "-o", f"{tmp}/out.nc", "--overwrite", "--no-progress"],
                _env(path),
            )  # fmt: skip
        jobs = [("floor (numpy, numba, netCDF4, one cached kernel)", (floor, _env(None))),
                # what a cached run pays before floatwind now that it starts no numba (kernels
                # compiled ahead of time): the interpreter, numpy and netCDF4
                ("floor without numba (numpy, netCDF4)",
                 ([sys.executable, "-c", "import numpy, netCDF4"], _env(None))),
                ("interpreter (python -c pass)", ([sys.executable, "-c", "pass"], _env(None)))]
        jobs += list(runs.items())
        for _, (cmd, env) in jobs:  # warm: byte code, numba's caches
            child_cpu(cmd, env, tmp)
        cpu = {name: [] for name, _ in jobs}
        for k in range(rounds):
            order = jobs if k % 2 == 0 else jobs[::-1]  # A B C, C B A, ...
            for name, (cmd, env) in order:
                cpu[name].append(child_cpu(cmd, env, tmp))
    ref = statistics.median(cpu["this checkout"])
    print(f"{rounds} alternating rounds, whole-process CPU (user + system), medians:")
    for name, xs in cpu.items():
        med = statistics.median(xs)
        print(f"  {name:58s} {med:6.3f} s  ({min(xs):.3f}-{max(xs):.3f})  "
              f"ratio to this checkout {med / ref:5.2f}")  # fmt: skip


def _kernels_file(n: int) -> str:
    """A module of ``n`` distinct cached kernels, each called once."""
    defs = []
    for i in range(n):
        defs.append(
            f"@njit(cache=True, fastmath=False)\ndef k{i}(a):\n    s = {i}.0\n"
            "    for j in range(a.shape[0]):\n        s += a[j] * a[j]\n    return s\n"
        )
    calls = "".join(f"k{i}(x)\n" for i in range(n))
    return (
        "import numpy as np\nfrom numba import njit\n\n"
        + "\n".join(defs)
        + "x = np.ones(3)\n"
        + calls
    )


def floor(rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for n in (1, 6, 24):
            files[n] = pathlib.Path(tmp, f"kernels{n}.py")
            files[n].write_text(_kernels_file(n))
        # the kernels are imported as modules (numba's cache needs their file)
        sys_path = f"import sys; sys.path.insert(0, {tmp!r}); "
        jobs = [
            ("interpreter (python -c pass)", "pass"),
            ("+ numpy", "import numpy"),
            ("+ numba (import)", "import numpy, numba"),
            ("+ netCDF4", "import numpy, numba, netCDF4"),
            ("numpy + scipy.linalg (numba's BLAS check imports it)", "import numpy, scipy.linalg"),
            ("numpy, numba, netCDF4 + 1 cached kernel (numba's start-up)",
             sys_path + "import numpy, numba, netCDF4, kernels1"),
            ("... + 6 cached kernels", sys_path + "import numpy, numba, netCDF4, kernels6"),
            ("... + 24 cached kernels", sys_path + "import numpy, numba, netCDF4, kernels24"),
            ("numpy + xarray (with pandas): no longer on the run path", "import numpy, xarray"),
        ]  # fmt: skip
        env = _env(None)
        for _, code in jobs:  # warm: byte code, numba's caches
            child_cpu([sys.executable, "-c", code], env, tmp)
        cpu = {name: [] for name, _ in jobs}
        for k in range(rounds):
            for name, code in jobs if k % 2 == 0 else jobs[::-1]:
                cpu[name].append(child_cpu([sys.executable, "-c", code], env, tmp))
    print(f"{rounds} alternating rounds, whole-process CPU (user + system), medians:")
    for name, xs in cpu.items():
        print(f"  {name:62s} {statistics.median(xs):6.3f} s  ({min(xs):.3f}-{max(xs):.3f})")


REFS = ROOT.parent / "shared/reference/openfast"


def same_outputs(a: pathlib.Path, b: pathlib.Path) -> tuple[int, list[str]]:
    """(variables compared, names that differ) of two netCDF outputs: values (``np.array_equal``,
    NaN equal), dimensions, attributes; the global attributes too."""
    import netCDF4
    import numpy as np

    with netCDF4.Dataset(a) as A, netCDF4.Dataset(b) as B:
        A.set_auto_mask(False)
        B.set_auto_mask(False)
        bad = [] if list(A.variables) == list(B.variables) else ["(variable list)"]
        if {k: str(A.getncattr(k)) for k in A.ncattrs()} != {
            k: str(B.getncattr(k)) for k in B.ncattrs()
        }:
            bad.append("(global attributes)")
        for name, va in A.variables.items():
            vb = B.variables.get(name)
            if (
                vb is None
                or va.dimensions != vb.dimensions
                or {k: str(va.getncattr(k)) for k in va.ncattrs()}
                != {k: str(vb.getncattr(k)) for k in vb.ncattrs()}
                or not np.array_equal(va[...], vb[...], equal_nan=va.dtype.kind == "f")
            ):
                bad.append(name)
        return len(A.variables), bad


def decks(cases: list[str] | None, rounds: int, baseline: str) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from vs_openfast import deck_times, side_by_side_cpu

    openfast = side_by_side_cpu(REFS / "README.md")
    fsts = sorted(REFS.glob("ref*/ref*.fst"))
    if cases:
        fsts = [f for f in fsts if any(f.stem.startswith(c) for c in cases)]
    trees = [("after", str(ROOT)), ("before", str(pathlib.Path(baseline).resolve()))]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for fst in fsts:
            cpu = {name: [] for name, _ in trees}

            def one(name, path, fst=fst, warm=()):
                cmd = [sys.executable, "-m", "floatwind", "run", str(fst), "-o",
                       f"{tmp}/{fst.stem}_{name}.nc", "--overwrite", "--no-progress", *warm]  # fmt: skip
                return child_cpu(cmd, _env(path), tmp)

            for name, path in trees:  # warm (numba's caches, byte code): a 1-s run
                one(name, path, warm=("--tmax", "1"))
            for k in range(rounds):
                for name, path in trees if k % 2 == 0 else trees[::-1]:
                    cpu[name].append(one(name, path))
            n, bad = same_outputs(pathlib.Path(tmp, f"{fst.stem}_after.nc"),
                                  pathlib.Path(tmp, f"{fst.stem}_before.nc"))  # fmt: skip
            a, b = statistics.median(cpu["after"]), statistics.median(cpu["before"])
            of = openfast.get(fst.stem)
            tmax = deck_times(fst).get("tmax", float("nan"))
            row = (f"| {fst.stem} | {tmax:g} s | {b:.3f} s | **{a:.3f} s** | {b / a:.2f} | "
                   + (f"{of:g} s | {of / b:.1f}x -> **{of / a:.1f}x** |" if of else "- | - |")
                   + f" {n - len(bad)} of {n} |")  # fmt: skip
            rows.append(row)
            print(row, "DIFFERENT: " + ", ".join(bad) if bad else "", flush=True)
    print(f"\n{rounds} alternating rounds after a warm run, medians of whole-process CPU "
          "(user + system); columns: deck, TMax, before, after, before / after, OpenFAST "
          "side by side, speed-up before -> after, output variables bit-identical")  # fmt: skip


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("what", choices=("phases", "ab", "floor", "decks", "split"))
    p.add_argument("--cases", help="decks: comma-separated prefixes (ref01,ref07)")
    p.add_argument("deck", nargs="?", default=str(REF01))
    p.add_argument("--tmax", type=float, default=1.0)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--baseline", action="append", default=[], help="another checkout (A/B)")
    args = p.parse_args()
    if args.what == "phases":
        phases(args.deck, args.tmax, args.baseline)
    elif args.what == "split":
        split(args.deck, args.tmax, args.rounds, args.baseline)
    elif args.what == "floor":
        floor(args.rounds)
    elif args.what == "decks":
        if len(args.baseline) != 1:
            p.error("decks: give one --baseline checkout")
        decks(args.cases.split(",") if args.cases else None, args.rounds, args.baseline[0])
    else:
        ab(args.deck, args.tmax, args.rounds, args.baseline)
    return 0


if __name__ == "__main__":
    sys.exit(main())
