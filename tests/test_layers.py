"""Imports flow one way (issue 23, docs/architecture.md "Layers"): every ``floatwind`` module's
imports, at module level and inside functions, are parsed (ast); an import of a package in a
higher layer, or a cycle between two packages of one layer, fails, naming file and line."""

from __future__ import annotations

import ast
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]

#: lowest first; a package imports only packages of lower layers, or of its own layer without a
#: cycle between the two (docs/architecture.md)
LAYERS: list[set[str]] = [
    {"errors", "__init__", "validate"},  # validate: the one case-file validator (errors only)
    {"rotation", "io"},  # io: file formats and the read-only channel table; imports errors only
    {"_kernels", "mooring", "records"},  # numba kernels; catenary functions; the Load records
    {"integrate"},  # integrators (know nothing about turbines) and their compiled steps
    {"multibody", "loads", "environment"},
    {"model", "bem"},  # bem: hull coefficients; reads loads (hydrostatics profile), io
    {"case", "simulate"},
    {"studies", "dlc"},
    {"report"},
    {"cli", "__main__"},
]
LAYER = {pkg: k for k, layer in enumerate(LAYERS) for pkg in layer}


def _imports(path: pathlib.Path, text: str | None = None) -> list[tuple[int, str]]:
    """(line, imported floatwind package) of every import in a module, functions included."""
    tree = ast.parse(text if text is not None else path.read_text())
    out = []
    for node in ast.walk(tree):
        mods: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            mods = [node.module]
            if node.module == "floatwind":  # from floatwind import __version__, studies, ...
                mods = [f"floatwind.{'__init__' if a.name.startswith('__') else a.name}"
                        for a in node.names]  # fmt: skip
        elif isinstance(node, ast.Import):
            mods = [a.name for a in node.names]
        for m in mods:
            parts = m.split(".")
            if parts[0] == "floatwind" and len(parts) > 1:
                out.append((node.lineno, parts[1]))
    return out


def violations(files: dict[str, tuple[pathlib.Path, str | None]]) -> list[str]:
    """Upward imports and same-layer cycles. ``files``: module path -> (path, source or None)."""
    bad = []
    edges: dict[tuple[str, str], str] = {}
    for rel, (path, text) in files.items():
        pkg = rel.split("/")[0].removesuffix(".py")
        if pkg not in LAYER:
            bad.append(f"{rel}: package '{pkg}' has no layer in tests/test_layers.py")
            continue
        for line, target in _imports(path, text):
            if target == pkg:
                continue
            if target not in LAYER:
                bad.append(f"{rel}:{line}: imports unknown package floatwind.{target}")
            elif LAYER[target] > LAYER[pkg]:
                bad.append(f"{rel}:{line}: {pkg} (layer {LAYER[pkg]}) imports floatwind.{target} "
                           f"(layer {LAYER[target]}): upward")  # fmt: skip
            elif LAYER[target] == LAYER[pkg]:
                edges.setdefault((pkg, target), f"{rel}:{line}")
    for (a, b), where in sorted(edges.items()):
        if (b, a) in edges and a < b:
            bad.append(f"cycle between floatwind.{a} ({where}) and floatwind.{b} ({edges[(b, a)]})")
    return bad


def _package_files() -> dict[str, tuple[pathlib.Path, None]]:
    base = ROOT / "floatwind"
    return {str(f.relative_to(base)): (f, None) for f in sorted(base.rglob("*.py"))}


def test_imports_flow_one_way():
    assert violations(_package_files()) == []


def test_the_check_fails_on_an_upward_import_and_a_cycle():
    """A deliberate upward import (even inside a function) and a same-layer cycle are caught."""
    files = _package_files()
    files["loads/_upward.py"] = (ROOT / "x.py", "def f():\n    from floatwind.studies import spec\n")
    files["environment/_cycle.py"] = (ROOT / "x.py", "import floatwind.loads.base\n")
    files["loads/_cycle.py"] = (ROOT / "x.py", "from floatwind.environment import base\n")
    bad = violations(files)
    assert any(b.startswith("loads/_upward.py:2: loads (layer 4) imports floatwind.studies") for b in bad)
    assert any(b.startswith("cycle between floatwind.environment") for b in bad), bad


def test_no_sys_path_edits_and_no_availability_checks_of_own_modules():
    """The validation registry is importable without touching sys.path; floatwind does not ask
    importlib whether its own modules exist."""
    hits = []
    for f in (ROOT / "floatwind").rglob("*.py"):
        for k, line in enumerate(f.read_text().splitlines(), 1):
            if "sys.path" in line or re.search(r"find_spec\(\s*[\"']floatwind", line):
                hits.append(f"{f.relative_to(ROOT)}:{k}: {line.strip()}")
    assert hits == []
