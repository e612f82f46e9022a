"""Generated numba modules, cached on disk: where they live, the digest of the sources they
compile against, and writing/loading one atomically (docs/architecture.md "Generated glue,
cached on disk").

A generated module defines, as *globals*, the kernels a caller would otherwise receive as
first-class function values (whose type differs from process to process, so the caller would be
compiled again in every run); its name is a hash of its text, so numba's cache beside it is valid
exactly as long as the text is the same. Users: ``floatwind.simulate.generate`` (the load kernels
of a model) and ``floatwind.multibody.mbdm.compiled`` (the MBDM coordinate force elements).
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import os
import pathlib
import sys
import tempfile
import threading

__all__ = ["kernel_dir", "load_module", "sources_digest", "template"]

_LOCK = threading.Lock()
_MODULES: dict[str, object] = {}
_DIGEST: list[str] = []


def kernel_dir() -> pathlib.Path:
    """``FLOATWIND_KERNEL_DIR`` or the user cache folder (``~/.cache/floatwind/kernels``)."""
    env = os.environ.get("FLOATWIND_KERNEL_DIR")
    if env:
        return pathlib.Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return pathlib.Path(base) / "floatwind" / "kernels"


def sources_digest() -> str:
    """Hash of every source the generated modules compile against: each module of floatwind
    that defines numba functions (the kernels call compiled functions of other packages too,
    e.g. the catenary line solver of ``floatwind.mooring``; a module left out would leave a
    stale generated module in the cache after it changes). Computed once per process."""
    if not _DIGEST:
        import floatwind

        root = pathlib.Path(floatwind.__file__).parent
        h = hashlib.sha1()
        for f in sorted(root.rglob("*.py")):
            text = f.read_bytes()
            if b"njit" in text or f.parent.name in ("_kernels", "integrate"):
                h.update(str(f.relative_to(root)).encode())
                h.update(text)
        _DIGEST.append(h.hexdigest())
    return _DIGEST[0]


def template(fn, name: str | None = None, decorator: str | None = None) -> str:
    """The source of function ``fn`` (a numba dispatcher or a plain function), defined under
    ``name`` (default: its own). A dispatcher's decorator lines are replaced by
    ``@njit(cache=True, ...)`` with its own options (``decorator``: other text)."""
    py = getattr(fn, "py_func", fn)
    src = inspect.getsource(py)
    lines = src.splitlines()
    k = next(i for i, ln in enumerate(lines) if ln.startswith("def "))
    body = "\n".join(lines[k:]) + "\n"
    if name is not None:
        body = body.replace(f"def {py.__name__}(", f"def {name}(", 1)
    if decorator is None and hasattr(fn, "targetoptions"):
        # its own options (inline, error_model, _nrt, ...), cached on disk beside the module
        own = {k: v for k, v in fn.targetoptions.items() if k not in ("nopython", "boundscheck")}
        opts = "".join(f", {key}={val!r}" for key, val in own.items())
        decorator = f"@njit(cache=True{opts})"
    return (decorator + "\n" if decorator else "") + body


def module_name(text: str, prefix: str = "floatwind_gen") -> str:
    return f"{prefix}_{hashlib.sha1(text.encode()).hexdigest()[:20]}"


def load_module(text: str, prefix: str = "floatwind_gen"):
    """The module of source ``text``: written (atomically: concurrent workers may write the same
    one) into :func:`kernel_dir` as ``<prefix>_<hash of text>.py`` unless there already, then
    imported once per process."""
    name = module_name(text, prefix)
    with _LOCK:
        mod = _MODULES.get(name)
        if mod is not None:
            return mod
        folder = kernel_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}.py"
        if not path.exists() or path.read_text() != text:
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
            with os.fdopen(fd, "w") as fh:
                fh.write(text)
            os.replace(tmp, path)
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
        _MODULES[name] = mod
        return mod
