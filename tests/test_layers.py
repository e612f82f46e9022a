"""Imports flow one way (issues 23 and 34, docs/architecture.md "Layers").

Every ``floatwind`` module's imports are parsed (ast): ``import``/``from ... import`` at module
level and inside functions, relative ones (``from . import x``, ``from ..y import z``) resolved
against the module's package, and imports by string (``importlib.import_module("floatwind.x")``,
``__import__("floatwind.x")``; an ``import_module`` of a name the test cannot read is itself a
violation). From them, module by module:

* an import of a package in a higher layer fails;
* a circle between two packages of one layer fails;
* a circle between modules (inside one package or across packages) fails, function-level imports
  included: ``run.py`` importing ``euler313.py`` which imports ``run.py`` back inside a function is
  a circle even though Python tolerates it;
* ``floatwind`` importing ``validation`` (the scripts that check it) fails;
* a module of ``floatwind`` over :data:`MAX_LINES` lines fails;
* a function of ``floatwind`` with :data:`MAX_POSITIONAL` or more positional parameters fails,
  unless listed in :data:`LONG_SIGNATURES` (empty since issue 34: records are the rule).

Each failure names the file and line. Each check shows that it catches a deliberate bad example.
"""

from __future__ import annotations

import ast
import functools
import pathlib
import re
from dataclasses import dataclass

ROOT = pathlib.Path(__file__).resolve().parents[1]

#: lowest first; a package imports only packages of lower layers, or of its own layer without a
#: cycle between the two (docs/architecture.md)
LAYERS: list[set[str]] = [
    {"errors", "__init__", "validate"},  # validate: the one case-file validator (errors only)
    {"rotation", "io", "jit"},  # io: file formats and the read-only channel table; imports errors only
    # jit: the lazy @njit every compiled function uses (numba imported on first need; issue 41)
    {"_kernels", "mooring", "records"},  # numba kernels; catenary functions; the Load records
    {"integrate"},  # integrators (know nothing about turbines) and their compiled steps
    {"multibody", "loads", "environment", "rotor"},  # rotor: BEM airfoils, options, performance
    {"model", "bem"},  # bem: hull coefficients; reads loads (hydrostatics profile), io
    {"case", "simulate"},
    {"studies", "dlc", "linear"},  # linear: linearization, modes, RAOs (reads simulate)
    {"report"},
    {"cli", "__main__"},
]
LAYER = {pkg: k for k, layer in enumerate(LAYERS) for pkg in layer}

#: no module of floatwind is longer than this (lines)
MAX_LINES = 1000

#: a function with this many positional parameters (self/cls not counted) takes a record or
#: keyword-only arguments instead (issue 34; numba kernels: a NamedTuple record, since njit
#: calls cannot bind keyword-only parameters)
MAX_POSITIONAL = 12

#: the functions still over the bound, file below floatwind/ -> names: none (issue 34 began with
#: 31; the last 20, the lumped lines', wave, rotor, Bossak and MBDM kernels, take records now). A
#: new long one fails, and so would an entry that no longer needs to be here
LONG_SIGNATURES: dict[str, set[str]] = {}


@dataclass(frozen=True)
class Import:
    line: int
    module: str  # absolute dotted name as imported (floatwind.x.y, validation.z, numpy, ...)
    how: str  # "import", "relative", "string"


@dataclass(frozen=True)
class Violation:
    key: str  # without line numbers
    message: str  # with file and line

    def __str__(self) -> str:
        return self.message


def module_name(rel: str) -> str:
    """``simulate/run.py`` -> ``floatwind.simulate.run``; ``simulate/__init__.py`` ->
    ``floatwind.simulate``."""
    parts = ["floatwind", *rel.removesuffix(".py").split("/")]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_package(rel: str) -> bool:
    return rel.endswith("__init__.py")


_STRING_IMPORTERS = {"import_module", "__import__"}


def _call_name(node: ast.Call) -> str | None:
    f = node.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "importlib":
        return f.attr
    return None


@functools.cache
def imports(rel: str, text: str) -> tuple[list[Import], list[int]]:
    """Every import of a module (functions included) as absolute names, and the lines of string
    imports whose name the test cannot read."""
    tree = ast.parse(text)
    pkg = module_name(rel) if _is_package(rel) else module_name(rel).rpartition(".")[0]
    out: list[Import] = []
    unreadable: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [Import(node.lineno, a.name, "import") for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
                how = "relative"
            else:
                mod, how = node.module or "", "import"
            # from pkg import name: the submodule pkg.name when there is one (resolved later)
            out += [Import(node.lineno, f"{mod}:{a.name}", how) for a in node.names]
        elif isinstance(node, ast.Call) and _call_name(node) in _STRING_IMPORTERS:
            arg = node.args[0] if node.args else None
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                name = arg.value
                if name.startswith("."):
                    package = next(
                        (k.value.value for k in node.keywords
                         if k.arg == "package" and isinstance(k.value, ast.Constant)),
                        None,
                    )  # fmt: skip
                    if package is None:
                        unreadable.append(node.lineno)
                        continue
                    level = len(name) - len(name.lstrip("."))
                    base = package.split(".")[: len(package.split(".")) - (level - 1)]
                    name = ".".join(base + ([name.lstrip(".")] if name.lstrip(".") else []))
                out.append(Import(node.lineno, name, "string"))
            else:
                unreadable.append(node.lineno)
    return out, unreadable


def _resolve(name: str, modules: set[str]) -> str | None:
    """The floatwind module an import runs: ``a.b:c`` is the submodule ``a.b.c`` when there is
    one, else ``a.b``; a dotted name resolves to its longest known prefix."""
    mod, _, attr = name.partition(":")
    if attr and f"{mod}.{attr}" in modules:
        return f"{mod}.{attr}"
    parts = mod.split(".")
    while parts:
        if ".".join(parts) in modules:
            return ".".join(parts)
        parts.pop()
    return None


def _package(module: str) -> str:
    """The layer package of a module: ``floatwind.simulate.run`` -> ``simulate``;
    ``floatwind`` -> ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _circles(edges: dict[str, dict[str, str]]) -> list[list[str]]:
    """Strongly connected components (Tarjan) with more than one module, each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(out)


def _one_circle(comp: list[str], edges: dict[str, dict[str, str]]) -> list[str]:
    """A shortest circle through the component's first module (breadth first)."""
    start, members = comp[0], set(comp)
    prev = {start: None}
    todo = [start]
    while todo:
        v = todo.pop(0)
        for w in sorted(edges.get(v, {})):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return [start, *reversed(path[:-1]), start] if len(path) > 1 else [start, v, start]
            if w in members and w not in prev:
                prev[w] = v
                todo.append(w)
    return comp  # not reached for a strongly connected component


def violations(files: dict[str, tuple[pathlib.Path, str | None]]) -> list[Violation]:
    """Every violation of the import rules. ``files``: path below floatwind/ -> (path, source or
    None to read the file)."""
    texts = {
        rel: (text if text is not None else path.read_text()) for rel, (path, text) in files.items()
    }
    modules = {module_name(rel): rel for rel in texts}
    bad: list[Violation] = []
    edges: dict[str, dict[str, str]] = {}  # module -> {imported module: "file:line"}
    pkg_edges: dict[tuple[str, str], str] = {}
    for rel, text in texts.items():
        n = len(text.splitlines())
        if n > MAX_LINES:
            bad.append(Violation(f"long module: {rel}", f"{rel}: {n} lines (> {MAX_LINES})"))
        me = module_name(rel)
        pkg = _package(me)
        found, unreadable = imports(rel, text)
        for line in unreadable:
            bad.append(Violation(f"unreadable import: {rel}",
                                 f"{rel}:{line}: import by a string the layer test cannot read "
                                 "(name the module in an import statement)"))  # fmt: skip
        if pkg not in LAYER:
            bad.append(Violation(f"no layer: {pkg}",
                                 f"{rel}: package '{pkg}' has no layer in tests/test_layers.py"))  # fmt: skip
            continue
        for imp in found:
            top = imp.module.split(".")[0].split(":")[0]
            if top == "validation":
                target = imp.module.replace(":", ".")
                bad.append(Violation(f"imports validation: {rel} -> {target}",
                                     f"{rel}:{imp.line}: floatwind imports {target} ({imp.how}); "
                                     "validation checks floatwind, never the other way"))  # fmt: skip
                continue
            if top != "floatwind":
                continue
            target = _resolve(imp.module, set(modules))
            where = f"{rel}:{imp.line}"
            if target is None:
                bad.append(Violation(f"unknown module: {rel} -> {imp.module}",
                                     f"{where}: imports unknown module {imp.module.replace(':', '.')}"))  # fmt: skip
                continue
            if target != me:
                edges.setdefault(me, {}).setdefault(target, where)
            tpkg = _package(target)
            if tpkg == pkg or target == "floatwind" and pkg == "__init__":
                continue
            if tpkg not in LAYER:
                bad.append(Violation(f"unknown package: {rel} -> {tpkg}",
                                     f"{where}: imports unknown package floatwind.{tpkg}"))  # fmt: skip
            elif LAYER[tpkg] > LAYER[pkg]:
                bad.append(Violation(f"upward: {rel} -> {tpkg}",
                                     f"{where}: {pkg} (layer {LAYER[pkg]}) imports floatwind.{tpkg} "
                                     f"(layer {LAYER[tpkg]}): upward"))  # fmt: skip
            elif LAYER[tpkg] == LAYER[pkg]:
                pkg_edges.setdefault((pkg, tpkg), where)
    for (a, b), where in sorted(pkg_edges.items()):
        if (b, a) in pkg_edges and a < b:
            bad.append(Violation(f"package circle: {a} <-> {b}",
                                 f"cycle between floatwind.{a} ({where}) and floatwind.{b} "
                                 f"({pkg_edges[(b, a)]})"))  # fmt: skip
    for comp in _circles(edges):
        path = _one_circle(comp, edges)
        steps = " -> ".join(f"{a} ({edges[a][b]})" for a, b in zip(path, path[1:]))
        bad.append(Violation("circle: " + " <-> ".join(comp),
                             f"circle of {len(comp)} modules: {steps} -> {path[-1]}"))  # fmt: skip
    return bad


def _package_files() -> dict[str, tuple[pathlib.Path, str]]:
    base = ROOT / "floatwind"
    return {f.relative_to(base).as_posix(): (f, f.read_text()) for f in sorted(base.rglob("*.py"))}


def _report(bad: list[Violation]) -> list[str]:
    return [str(b) for b in bad]


def test_imports_flow_one_way():
    assert _report(violations(_package_files())) == []


def _with(**extra: str) -> dict[str, tuple[pathlib.Path, str | None]]:
    """The package with extra modules ``{"loads/_x.py": source}`` (keyword names: ``/`` as
    ``__``)."""
    files: dict[str, tuple[pathlib.Path, str | None]] = dict(_package_files())
    for name, text in extra.items():
        files[name.replace("__", "/", 1) + ".py"] = (ROOT / "x.py", text)
    return files


def _messages(files) -> list[str]:
    return [str(b) for b in violations(files)]


def test_the_check_fails_on_an_upward_import_and_a_package_cycle():
    """A deliberate upward import (even inside a function) and a same-layer cycle are caught."""
    bad = _messages(_with(
        loads___upward="def f():\n    from floatwind.studies import spec\n",
        environment___cycle="import floatwind.loads.base\n",
        loads___cycle="from floatwind.environment import base\n",
    ))  # fmt: skip
    assert any(
        b.startswith("loads/_upward.py:2: loads (layer 4) imports floatwind.studies") for b in bad
    )
    assert any(b.startswith("cycle between floatwind.environment") for b in bad), bad


def test_the_check_fails_on_a_module_circle_inside_a_package():
    """Two modules of one package importing each other, one of them inside a function, are a
    circle; the message walks it with files and lines."""
    bad = _messages(_with(
        simulate___a="from floatwind.simulate._b import g\n\n\ndef f():\n    return g()\n",
        simulate___b="def g():\n    from floatwind.simulate import _a\n\n    return _a\n",
    ))  # fmt: skip
    circle = [b for b in bad if b.startswith("circle") and "simulate._a" in b]
    assert circle == [
        "circle of 2 modules: floatwind.simulate._a (simulate/_a.py:1) -> "
        "floatwind.simulate._b (simulate/_b.py:2) -> floatwind.simulate._a"
    ], bad
    # through a package's __init__ (what `from floatwind.simulate import simulate` runs)
    bad = _messages(_with(simulate___c="def f():\n    from floatwind.simulate import simulate\n",
                          simulate___d="import floatwind.simulate._c\n"))  # fmt: skip
    assert not any("_c" in b for b in bad if b.startswith("circle")), bad  # nothing imports _d
    files = _with(simulate___c="def f():\n    from floatwind.simulate import simulate\n")
    path, _ = files["simulate/run.py"]
    files["simulate/run.py"] = (path, path.read_text() + "\nimport floatwind.simulate._c\n")
    bad = _messages(files)
    assert any(b.startswith("circle") and "floatwind.simulate._c" in b for b in bad), bad


def test_the_check_reads_relative_imports():
    """``from . import x`` and ``from ..y import z`` are imports like any other: upward, circles."""
    bad = _messages(_with(
        loads___rel_up="from ..studies import spec\n",
        loads___rel_a="from . import _rel_b\n",
        loads___rel_b="def f():\n    from ._rel_a import g\n",
    ))  # fmt: skip
    assert any(
        b.startswith("loads/_rel_up.py:1: loads (layer 4) imports floatwind.studies") for b in bad
    ), bad
    assert any(
        b.startswith("circle of 2 modules: floatwind.loads._rel_a (loads/_rel_a.py:1)") for b in bad
    ), bad


def test_the_check_reads_import_module_strings():
    """``importlib.import_module("floatwind.x")`` and ``__import__`` count; a name the test cannot
    read is a violation of its own."""
    bad = _messages(_with(
        loads___str_up="import importlib\n\nM = importlib.import_module('floatwind.dlc.spec')\n",
        loads___dunder="def f():\n    return __import__('floatwind.report', fromlist=['x'])\n",
        loads___rel_str="from importlib import import_module\n\nM = import_module('..cli', package='floatwind.loads')\n",
        loads___dyn="import importlib\n\nM = importlib.import_module('floatwind.' + 'x')\n",
    ))  # fmt: skip
    assert any(
        b.startswith("loads/_str_up.py:3: loads (layer 4) imports floatwind.dlc") for b in bad
    ), bad
    assert any(
        b.startswith("loads/_dunder.py:2: loads (layer 4) imports floatwind.report") for b in bad
    ), bad
    assert any(
        b.startswith("loads/_rel_str.py:3: loads (layer 4) imports floatwind.cli") for b in bad
    ), bad
    assert any(
        b.startswith("loads/_dyn.py:3: import by a string the layer test cannot read") for b in bad
    ), bad


def test_the_check_fails_when_floatwind_imports_validation():
    bad = _messages(_with(
        report___v1="def f():\n    import validation.registry\n",
        report___v2="import importlib\n\nR = importlib.import_module('validation.registry')\n",
        report___v3="from validation import registry\n",
    ))  # fmt: skip
    for k, line in ((1, 2), (2, 3), (3, 1)):
        assert any(
            b.startswith(f"report/_v{k}.py:{line}: floatwind imports validation") for b in bad
        ), bad


def test_the_check_fails_on_a_long_module():
    bad = _messages(_with(loads___long="x = 1\n" * (MAX_LINES + 1)))
    assert f"loads/_long.py: {MAX_LINES + 1} lines (> {MAX_LINES})" in bad
    assert not any(
        b.startswith("loads/_short.py")
        for b in _messages(_with(loads___short="x = 1\n" * MAX_LINES))
    )


def test_no_sys_path_edits_and_no_availability_checks_of_own_modules():
    """The validation registry is importable without touching sys.path; floatwind does not ask
    importlib whether its own modules exist."""
    hits = []
    for f in (ROOT / "floatwind").rglob("*.py"):
        for k, line in enumerate(f.read_text().splitlines(), 1):
            if "sys.path" in line or re.search(r"find_spec\(\s*[\"']floatwind", line):
                hits.append(f"{f.relative_to(ROOT)}:{k}: {line.strip()}")
    assert hits == []


def long_signatures(files) -> dict[str, set[str]]:
    """File -> names of its functions with :data:`MAX_POSITIONAL` or more positional
    parameters (positional-only and ordinary ones; self and cls not counted)."""
    out: dict[str, set[str]] = {}
    for rel, (path, text) in files.items():
        tree = ast.parse(text if text is not None else path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                pos = [x for x in a.posonlyargs + a.args if x.arg not in ("self", "cls")]
                if len(pos) >= MAX_POSITIONAL:
                    out.setdefault(rel, set()).add(node.name)
    return out


@functools.cache
def _package_signatures() -> dict[str, frozenset[str]]:
    return {k: frozenset(v) for k, v in long_signatures(_package_files()).items()}


def _signature_report(found, left=None) -> list[str]:
    left = LONG_SIGNATURES if left is None else left
    bad = []
    for rel in sorted(set(found) | set(left)):
        have, allowed = set(found.get(rel, ())), left.get(rel, set())
        bad += [
            f"{rel}: {name} takes {MAX_POSITIONAL} or more positional parameters (pass a "
            "record, or make them keyword-only)"
            for name in sorted(have - allowed)
        ]  # fmt: skip
        bad += [
            f"{rel}: {name} is no longer a long signature: remove it from LONG_SIGNATURES"
            for name in sorted(allowed - have)
        ]  # fmt: skip
    return bad


def test_no_new_function_with_a_long_positional_signature():
    assert _signature_report(_package_signatures()) == []
    assert not LONG_SIGNATURES  # 31 when issue 34 was filed; records are the rule now


def test_the_signature_check_fails_on_a_long_one_and_on_a_stale_entry():
    args = ", ".join(f"a{k}" for k in range(MAX_POSITIONAL))
    wide = {"loads/_wide.py": (ROOT / "x.py", f"def wide({args}):\n    return a0\n")}
    bad = _signature_report(_package_signatures() | long_signatures(wide))
    assert any(b.startswith("loads/_wide.py: wide takes") for b in bad), bad
    keyword = f"def ok(a0, *, {args.replace('a0, ', '')}):\n    return a0\n"
    assert long_signatures({"loads/_ok.py": (ROOT / "x.py", keyword)}) == {}
    stale = {**LONG_SIGNATURES, "_kernels/rotor.py": {"rotor_solve"}}  # a record since issue 34
    assert _signature_report(_package_signatures(), stale) == [
        "_kernels/rotor.py: rotor_solve is no longer a long signature: remove it from "
        "LONG_SIGNATURES"
    ]
