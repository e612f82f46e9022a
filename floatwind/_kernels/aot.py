"""Kernels compiled ahead of time: a later run of a model starts without numba (issue 41).

A run's fixed cost was mostly numba itself: its import and its start-up at the first kernel taken
from its cache (typing and lowering registries, LLVM, ~1 s of CPU; docs/performance.md, "The
fixed cost of a run"). So the first ``floatwind run`` of a model, after its results are written,
compiles the kernels that run called from Python (the generated stepper ``rk4_chunk`` with every
load kernel linked in, the pre-run checks' and the outputs' kernels), for exactly the argument
types it called them with, into one extension module with numba's ahead-of-time compiler
(:mod:`numba.pycc`, which links numba's small C runtime into the module). A later run of the same
model imports that module and never imports numba (:class:`floatwind.jit.Kernel` asks
:func:`lookup` first).

Exactness: each kernel is compiled from the same source with the flags its ``@njit`` options give
numba's own dispatcher (``fastmath``, ``error_model``, ``_nrt``) and for this machine's CPU name
and features, as numba's JIT compiles: the results are bit-identical (``tests/test_aot.py``). A
call is served only when its arguments have exactly the types recorded (arrays: dtype, ndim,
layout, writeability, alignment; named tuples by class; Python scalars), else numba serves it.

Where: ``FLOATWIND_AOT_DIR``, else ``FLOATWIND_KERNEL_DIR`` (or ``~/.cache/floatwind/kernels``)
``/aot/``: per module an
extension file and a JSON index of its exports. An index names the platform (Python, NumPy,
numba and llvmlite versions, CPU name and flags) and the digest of floatwind's kernel sources
(:func:`floatwind._kernels.codegen.sources_digest`): after any change to either it is ignored.
Writes are atomic (a temporary folder, then a rename; the index last).

``FLOATWIND_AOT=0`` (or ``false``/``no``/``off``) switches it off: no module is built or used.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import sys
import threading

from floatwind import jit

__all__ = ["build_recorded", "enabled", "lookup", "start_recording", "type_key"]

ENV = "FLOATWIND_AOT"
_LOCK = threading.RLock()
# qualid -> argument-type key -> (extension file, module name, export)
_TABLE: dict[str, dict[str, tuple[str, str, str]]] | None = None
_MODULES: dict[str, object] = {}
_RECORDED: dict[tuple[str, str], tuple] = {}
_FAILED_KEYS: set[tuple[str, str]] = set()


_JIT_ON: list[bool] = [True]  # floatwind._kernels.ENABLED, as install() was last told


def enabled() -> bool:
    """Whether ahead-of-time modules are used and built (numba's kernels on, ``FLOATWIND_AOT``
    not switched off)."""
    flag = os.environ.get(ENV, "").strip().lower()
    return _JIT_ON[0] and flag not in ("0", "false", "no", "off")


def aot_dir() -> pathlib.Path:
    """``FLOATWIND_AOT_DIR``, or ``aot/`` in the kernel folder
    (:func:`floatwind._kernels.codegen.kernel_dir`)."""
    env = os.environ.get("FLOATWIND_AOT_DIR")
    if env:
        return pathlib.Path(env)
    from floatwind._kernels.codegen import kernel_dir

    return kernel_dir() / "aot"


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError:
        return b""


def _cpu() -> bytes:
    """This machine's CPU model and feature flags (code compiled for it may not run elsewhere)."""
    text = _read("/proc/cpuinfo")
    keep = []
    for line in text.splitlines():
        if line.startswith((b"model name", b"flags", b"Features", b"CPU part")):
            keep.append(line)
            if len(keep) >= 2:
                break
    if not keep:  # not Linux: what the platform module knows
        import platform

        keep = [platform.machine().encode(), platform.processor().encode()]
    return b"\n".join(keep)


def _package_version_text(name: str) -> bytes:
    """The text of an installed package's ``_version.py`` (or its ``__init__``) without importing
    it (importing numba is what this module avoids)."""
    import importlib.util

    spec = importlib.util.find_spec(name)
    if spec is None or not spec.origin:
        return b"absent"
    folder = os.path.dirname(spec.origin)
    return _read(os.path.join(folder, "_version.py")) or _read(spec.origin)


_PLATFORM: list[str] = []


def platform_key() -> str:
    """Hash of what a compiled module depends on besides floatwind's sources."""
    if not _PLATFORM:
        import numpy as np

        h = hashlib.sha1()
        h.update(sys.version.encode())
        h.update(np.__version__.encode())
        h.update(_package_version_text("numba"))
        h.update(_package_version_text("llvmlite"))
        h.update(_cpu())
        _PLATFORM.append(h.hexdigest())
    return _PLATFORM[0]


def _digest() -> str:
    return sources_digest()


def _source_stamps(root: str) -> dict[str, list[int]]:
    """(modification time in ns, size) of every ``.py`` file under ``root``, by relative path."""
    out = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                st = os.stat(path)
                out[os.path.relpath(path, root)] = [st.st_mtime_ns, st.st_size]
    return out


def sources_digest() -> str:
    """:func:`floatwind._kernels.codegen.sources_digest`, remembered across processes: while the
    size and modification time of every source file of floatwind are those it was computed from
    (the rule of Python's own byte-code cache), the digest stored in :func:`aot_dir` is used
    without reading and hashing the sources again (~5 ms of a cached run: issue 41). The stamps
    are taken before the sources are read, so a file changed meanwhile is read again next time."""
    from floatwind._kernels import codegen

    if codegen._DIGEST or not enabled():
        return codegen.sources_digest()
    import floatwind

    root = os.path.dirname(os.path.abspath(floatwind.__file__))
    try:
        stamps = _source_stamps(root)
    except OSError:
        return codegen.sources_digest()
    path = aot_dir() / "sources_digest.stamps"  # JSON; not an index (*.json)
    try:
        saved = json.loads(_read(str(path)) or b"{}")
    except ValueError:
        saved = {}
    if (isinstance(saved, dict) and saved.get("root") == root and saved.get("stamps") == stamps
            and isinstance(saved.get("digest"), str)):  # fmt: skip
        codegen._DIGEST.append(saved["digest"])
        return saved["digest"]
    digest = codegen.sources_digest()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"root": root, "digest": digest, "stamps": stamps}))
        os.replace(tmp, path)
    except OSError:
        pass
    return digest


# --------------------------------------------------------------------------- argument types


def _key(v) -> str | None:
    """The type of one argument as numba's ``typeof`` distinguishes it, or None when this module
    does not know the kind (numba serves such a call)."""
    import numpy as np

    if isinstance(v, np.ndarray):
        if v.dtype.fields is not None or v.dtype.hasobject:
            return None
        f = v.flags
        layout = "C" if f.c_contiguous else ("F" if f.f_contiguous else "A")
        return (
            f"a{v.dtype.str}{v.ndim}{layout}{'w' if f.writeable else 'r'}{'' if f.aligned else 'u'}"
        )
    if isinstance(v, bool):
        return "b"
    if isinstance(v, int):
        return "i" if -(2**63) <= v < 2**63 else None
    if isinstance(v, float):
        return "f"
    if isinstance(v, complex):
        return "c"
    if v is None:
        return "n"
    if isinstance(v, np.generic):
        if v.dtype.fields is not None or v.dtype.hasobject:
            return None
        return f"s{v.dtype.str}"
    if isinstance(v, tuple):
        parts = []
        for x in v:
            k = _key(x)
            if k is None:
                return None
            parts.append(k)
        inner = ",".join(parts)
        cls = type(v)
        if cls is tuple:
            return f"({inner})"
        if hasattr(cls, "_fields"):
            return f"N{cls.__module__}.{cls.__qualname__}({inner})"
        return None
    return None


def type_key(args: tuple) -> str | None:
    """The types of a call's arguments as one string (None: a kind numba must serve)."""
    return _key(tuple(args))


# --------------------------------------------------------------------------- use


def _load_table() -> dict:
    global _TABLE
    with _LOCK:
        if _TABLE is not None:
            return _TABLE
        table: dict[str, dict[str, tuple[str, str, str]]] = {}
        folder = aot_dir()
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            names = []
        want = None
        for name in names:
            if not name.endswith(".json") or name.startswith("."):
                continue
            try:
                meta = json.loads(_read(str(folder / name)) or b"{}")
            except ValueError:
                continue
            if want is None:
                want = (platform_key(), _digest())
            if (meta.get("platform"), meta.get("digest")) != want:
                continue
            if meta.get("failed"):
                for qualid, key in meta.get("keys", ()):
                    _FAILED_KEYS.add((qualid, key))
                continue
            so = folder / meta.get("so", "")
            if not so.is_file():
                continue
            for qualid, key, export in meta.get("exports", ()):
                table.setdefault(qualid, {}).setdefault(key, (str(so), meta["module"], export))
        _TABLE = table
        return table


def _function(hit: tuple[str, str, str]):
    so, module, export = hit
    mod = _MODULES.get(so)
    if mod is None:
        with _LOCK:
            mod = _MODULES.get(so)
            if mod is None:
                import importlib.util

                spec = importlib.util.spec_from_file_location(module, so)
                mod = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(mod)
                _MODULES[so] = mod
    return getattr(mod, export)


def lookup(kernel, args: tuple):
    """The ahead-of-time compiled ``kernel`` for these arguments, or None."""
    table = _TABLE if _TABLE is not None else _load_table()
    entries = table.get(kernel.qualid)
    if not entries:
        return None
    key = type_key(args)
    if key is None:
        return None
    hit = entries.get(key)
    return None if hit is None else _function(hit)


def has_module(module: str) -> bool:
    """Whether some ahead-of-time module holds a kernel of (generated) module ``module``."""
    if not enabled():
        return False
    prefix = module + "."
    return any(q.startswith(prefix) for q in _load_table())


def install(jit_on: bool | None = None) -> None:
    """Serve kernel calls from ahead-of-time modules when :func:`enabled` (``jit_on``: whether
    numba's kernels are in use, from :mod:`floatwind._kernels`)."""
    if jit_on is not None:
        _JIT_ON[0] = bool(jit_on)
    jit.AOT_LOOKUP = lookup if enabled() else None


def reset() -> None:
    """Forget the index read and the modules loaded (tests; after ``FLOATWIND_KERNEL_DIR``
    changes)."""
    global _TABLE
    with _LOCK:
        _TABLE = None
        _MODULES.clear()
        _RECORDED.clear()
        _FAILED_KEYS.clear()
    install()


# --------------------------------------------------------------------------- build


def _record(kernel, args: tuple) -> None:
    key = type_key(args)
    if key is None:
        return
    k = (kernel.qualid, key)
    if k in _RECORDED or k in _FAILED_KEYS:
        return
    table = _TABLE if _TABLE is not None else _load_table()
    if key in table.get(k[0], {}):
        return
    d = kernel.dispatcher
    try:
        argtypes = tuple(d.typeof_pyval(a) for a in args)
    except Exception:  # noqa: BLE001 - a type numba itself could not name: not exported
        return
    ov = d.overloads.get(argtypes)
    if ov is None:
        return
    _RECORDED[k] = (kernel, ov.signature)


def start_recording() -> bool:
    """Record each kernel called from Python with argument types no ahead-of-time module holds
    (for :func:`build_recorded` after the run). Returns whether recording is on."""
    install()
    if not enabled():
        jit.AOT_RECORD = None
        return False
    jit.AOT_RECORD = _record
    return True


def pending() -> int:
    """How many kernel calls of this process no ahead-of-time module holds yet."""
    return len(_RECORDED)


def _compile(entries: list, name: str, folder: str) -> str:
    """Compile ``entries`` ([(kernel, signature)]) into extension module ``name`` in ``folder``;
    returns the file's name."""
    import numba.pycc.compiler as pcc
    from numba.core import codegen
    from numba.core.compiler import Flags
    from numba.core.cpu import CPUTargetOptions
    from numba.pycc import CC

    options = {k.py_func: k.targetoptions for k, _ in entries}
    cc = CC(name)
    cc.output_dir = folder
    cc.target_cpu = "host"  # this machine's CPU, as numba's JIT
    cc.verbose = False
    for i, (kernel, sig) in enumerate(entries):
        cc.export(f"k{i}", sig)(kernel.py_func)

    orig_compile = pcc.compile_extra
    orig_features = codegen.AOTCPUCodegen._customize_tm_features

    def compile_extra(typingctx, targetctx, func, args, return_type, flags, locals, **kw):
        opts = options.get(func)
        if opts is not None:  # the flags numba's dispatcher derives from the @njit options
            own = Flags()
            CPUTargetOptions.parse_as_flags(own, dict(opts))
            own.no_compile = True
            own.no_cpython_wrapper = flags.no_cpython_wrapper
            own.no_cfunc_wrapper = flags.no_cfunc_wrapper
            flags = own
        return orig_compile(typingctx, targetctx, func, args, return_type, flags, locals, **kw)

    pcc.compile_extra = compile_extra
    # the host CPU's features, as the JIT compiles (pycc: the CPU name's defaults)
    codegen.AOTCPUCodegen._customize_tm_features = lambda self: self._get_host_cpu_features()
    try:
        cc.compile()
    finally:
        pcc.compile_extra = orig_compile
        codegen.AOTCPUCodegen._customize_tm_features = orig_features
    files = [f for f in os.listdir(folder) if f.startswith(name) and not f.endswith(".json")]
    if len(files) != 1:
        raise RuntimeError(f"numba.pycc left {files} in {folder}")
    return files[0]


def _write_json(path: pathlib.Path, meta: dict) -> None:
    import tempfile

    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "w") as fh:
        json.dump(meta, fh, indent=1)
    os.replace(tmp, path)


def build_recorded(say=print) -> str | None:
    """Compile what this process recorded into one ahead-of-time module (the caller's results
    are written already: a failure here costs nothing but the speed of later runs). Returns the
    module's path, or None when nothing was recorded or the build failed (said in one line)."""
    global _TABLE
    import shutil
    import tempfile
    import time

    jit.AOT_RECORD = None
    if not _RECORDED:
        return None
    items = sorted(_RECORDED.items(), key=lambda kv: kv[0])
    keys = [k for k, _ in items]
    entries = [v for _, v in items]
    plat, digest = platform_key(), _digest()
    h = hashlib.sha1(f"{plat}\n{digest}\n{keys!r}".encode()).hexdigest()[:20]
    name = f"floatwind_aot_{h}"
    folder = aot_dir()
    say(f"compiling {len(entries)} kernel(s) ahead of time, once, so that later runs of this "
        f"model start without numba ({ENV}=0 skips it)")  # fmt: skip
    t0 = time.process_time()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = tempfile.mkdtemp(dir=folder, prefix=f".{name}.")
        try:
            so = _compile(entries, name, tmp)
            os.replace(os.path.join(tmp, so), folder / so)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    except Exception as err:  # noqa: BLE001 - the run's results are written; say it, go on
        reason = f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}"
        say(f"ahead-of-time compilation failed ({reason[:200]}); later runs use numba's cache")
        try:
            _write_json(folder / f"{name}.json", {"platform": plat, "digest": digest,
                                                 "failed": reason[:500], "keys": keys})  # fmt: skip
        except OSError:
            pass
        _RECORDED.clear()
        return None
    exports = [[q, k, f"k{i}"] for i, (q, k) in enumerate(keys)]
    _write_json(folder / f"{name}.json", {"platform": plat, "digest": digest, "module": name,
                                         "so": so, "exports": exports})  # fmt: skip
    _RECORDED.clear()
    with _LOCK:
        _TABLE = None
    say(f"compiled ahead of time in {time.process_time() - t0:.0f} s of CPU: {folder / so}")
    return str(folder / so)
