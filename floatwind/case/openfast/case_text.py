"""The YAML text of an imported case, remembered between runs (issue 41, a run's fixed cost).

Every ``floatwind run DECK.fst`` writes the case it imported into its output file as YAML text
(``case_text``; :func:`floatwind.case.openfast.importer.case_yaml`). Importing PyYAML for that
costs ~7-10 ms of CPU per process (its regular expressions, libyaml), more than dumping the text
itself. The text depends on the case and the notes alone, so :func:`cached_text` keeps each text
made in a file of the kernel folder (``FLOATWIND_KERNEL_DIR``, ``case_text/``) named by a hash
of the case's ``repr`` (exact for the plain types a YAML case holds: dicts, lists, strings,
integers, floats, booleans and None, each with its type; anything else is dumped afresh, never
remembered), the notes, floatwind's version, the stamps (size, modification time) of the dumper's source
file and of PyYAML's package; a later run of the same deck with the same overrides reads it back without importing
PyYAML. The same bytes by construction (the file holds what PyYAML wrote); a file that cannot be
read or written only means the text is dumped again. At most :data:`KEEP` texts are kept (the
oldest are removed beyond it).
"""

from __future__ import annotations

import hashlib
import os
import pathlib
from collections.abc import Callable

#: the most texts kept; writing one more removes the oldest half
KEEP = 256

_SCALARS = (str, int, float, bool, type(None))


def _plain(x) -> bool:
    """Whether ``x`` is made of the types whose ``repr`` says everything YAML writes of them."""
    t = type(x)
    if t in _SCALARS:
        return True
    if t is list:
        return all(_plain(v) for v in x)
    if t is dict:
        return all(type(k) in _SCALARS and _plain(v) for k, v in x.items())
    return False


def _yaml_stamps() -> str | None:
    """PyYAML's folder, its ``__init__.py``'s size and modification time and the folder's (a
    PyYAML installed anew dumps afresh), found as the path-based import finds the package
    (``PathFinder``, which neither imports it nor reads ``sys.modules``); None when it is not
    found so."""
    from importlib.machinery import PathFinder

    try:
        spec = PathFinder.find_spec("yaml")
        if spec is None or not spec.origin or not spec.origin.endswith("__init__.py"):
            return None
        where = os.path.dirname(spec.origin)
        init, pkg = os.stat(spec.origin), os.stat(where)  # a reinstall rewrites both
    except (OSError, ImportError, ValueError):
        return None
    return repr((where, init.st_size, init.st_mtime_ns, pkg.st_mtime_ns))


def folder() -> pathlib.Path:
    from floatwind._kernels.codegen import kernel_dir

    return kernel_dir() / "case_text"


def cached_text(case: dict, notes: list[str], dump: Callable[[], str]) -> str:
    """``dump()`` (the case's YAML text), read back from the folder when an earlier process
    made it for the same case and notes."""
    if not (_plain(case) and _plain(list(notes))):
        return dump()
    from floatwind import __version__

    stamps = _yaml_stamps()
    if stamps is None:
        return dump()
    try:  # the dumper's own source: an edited checkout (the version stays) dumps afresh
        src = os.stat(dump.__code__.co_filename)
        mine = (src.st_size, src.st_mtime_ns)
    except (AttributeError, OSError):
        return dump()
    key = hashlib.sha1(repr((__version__, stamps, mine, case, notes)).encode()).hexdigest()
    path = folder() / f"{key}.yaml"
    try:
        with open(path, "rb") as fh:
            return fh.read().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        pass
    text = dump()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(text.encode("utf-8"))
        os.replace(tmp, path)
        _prune(path.parent)
    except OSError:
        pass
    return text


def _prune(where: pathlib.Path) -> None:
    """Beyond :data:`KEEP` texts, remove the older half."""
    try:
        with os.scandir(where) as entries:
            files = [e for e in entries if e.name.endswith(".yaml") and e.is_file()]
        if len(files) <= KEEP:
            return
        files.sort(key=lambda e: e.stat().st_mtime_ns)
        for e in files[: len(files) - KEEP // 2]:
            os.unlink(e.path)
    except OSError:
        pass
