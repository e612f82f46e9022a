"""Protecting inputs and results: what a run reads, where it may write, atomic replacement.

* :func:`input_files` lists the files a run depends on: a case file and every file its values
  name (``.bts`` wind, wave elevation, C_T tables, motion tables, ...), or an OpenFAST deck and
  every file its quoted names reach (followed recursively), or a study file with its case files.
* :func:`check_output` refuses, before anything runs, an output path that is one of those inputs,
  an existing result without ``overwrite``, a folder that does not exist without ``mkdir`` or one
  that cannot be written; each error is one line naming the option.
* :func:`atomic_write` writes through a temporary file in the destination folder and renames it
  over the target (``os.replace``), so a killed or failing write leaves the old result intact.
* :func:`read_text` reads a text input as UTF-8 and names the file, line, column and byte offset
  of the first byte that is not.
"""

from __future__ import annotations

import hashlib
import os
import pathlib
import re
import uuid
from collections.abc import Callable, Iterable
from typing import Any

from floatwind.errors import CaseError

_QUOTED = re.compile(r"\"([^\"]+)\"|'([^']+)'")


def read_text(path: str | pathlib.Path, *, encoding: str = "utf-8") -> str:
    """The text of ``path``; a byte that is not UTF-8 is a :class:`CaseError` saying where."""
    path = pathlib.Path(path)
    data = path.read_bytes()
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        pos = exc.start
        line = data.count(b"\n", 0, pos) + 1
        col = pos - (data.rfind(b"\n", 0, pos) + 1) + 1
        raise CaseError(
            f"not UTF-8 text: byte 0x{data[pos]:02x} at line {line}, column {col} (byte offset "
            f"{pos}); save the file as UTF-8",
            file=str(path),
        ) from None


def check_text_inputs(paths: Iterable[str | pathlib.Path]) -> None:
    """Every text input (no NUL byte in it; binary files such as ``.bts`` are skipped) must be
    UTF-8: the first one that is not is a :class:`CaseError` saying where (:func:`read_text`).
    OpenFAST deck files (read as Latin-1) are not checked."""
    for p in paths:
        p = pathlib.Path(p)
        if p.suffix.lower() in (".fst", ".bts", ".outb", ".nc") or not p.is_file():
            continue
        try:
            data = p.read_bytes()
        except OSError:
            continue
        if b"\0" in data:
            continue
        read_text(p)


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def _existing(name: str, base_dirs: Iterable[pathlib.Path]) -> pathlib.Path | None:
    name = name.strip()
    if not name or "\n" in name or len(name) > 4096:
        return None
    for base in base_dirs:
        try:
            p = (base / os.path.expanduser(name)).resolve()
            if p.is_file():
                return p
        except (OSError, ValueError):
            continue
    return None


def referenced_files(data: Any, base_dirs: Iterable[pathlib.Path]) -> list[pathlib.Path]:
    """Existing files named by the string values of a parsed YAML mapping (relative names are
    tried against each of ``base_dirs`` in turn)."""
    base_dirs = list(base_dirs)
    out: list[pathlib.Path] = []
    for s in _strings(data):
        p = _existing(s, base_dirs)
        if p is not None and p not in out:
            out.append(p)
    return out


def _deck_files(path: pathlib.Path, seen: list[pathlib.Path], depth: int = 0) -> None:
    if path in seen or depth > 6 or len(seen) > 500:
        return
    seen.append(path)
    try:
        text = path.read_text(encoding="latin-1")
    except OSError:
        return
    if len(text) > 20_000_000:
        return
    for m in _QUOTED.finditer(text):
        p = _existing(m.group(1) or m.group(2), [path.parent])
        if p is not None:
            _deck_files(p, seen, depth + 1)


def input_files(path: str | pathlib.Path) -> list[pathlib.Path]:
    """The resolved files a run of ``path`` (a YAML case or study, or an OpenFAST ``.fst``
    deck) reads: the file itself first. Unreadable or unparsable files give just themselves (the
    loader reports what is wrong with them)."""
    import yaml

    path = pathlib.Path(path).resolve()
    if not path.is_file():
        return [path]
    if path.suffix.lower() == ".fst":
        seen: list[pathlib.Path] = []
        _deck_files(path, seen)
        return seen
    out = [path]
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return out
    bases = [path.parent]
    if isinstance(data, dict) and isinstance(data.get("designs"), list):  # a study file
        for d in data["designs"]:
            case = d.get("case") if isinstance(d, dict) else None
            if isinstance(case, str):
                p = _existing(case, [path.parent])
                if p is not None:
                    for q in input_files(p):
                        if q not in out:
                            out.append(q)
                    bases.append(p.parent)
    for p in referenced_files(data, bases):
        if p not in out:
            out.append(p)
    return out


def file_hash(path: str | pathlib.Path) -> str:
    """sha256 of the file's bytes (hex)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def check_output(
    out: str | pathlib.Path,
    *,
    inputs: Iterable[str | pathlib.Path] = (),
    overwrite: bool = False,
    mkdir: bool = False,
    option: str = "--output",
    folder: bool = False,
) -> pathlib.Path:
    """Refuse an output path before anything runs (one-line :class:`CaseError` naming ``option``).

    ``out`` must not be (or, for ``folder=True``, contain) one of ``inputs``; an existing file
    needs ``overwrite``; its folder must exist (or ``mkdir``) and be writable. Returns ``out``.
    """
    out = pathlib.Path(out)
    target = out.resolve()
    for inp in inputs:
        p = pathlib.Path(inp).resolve()
        if p == target or (folder and target in p.parents):
            what = "is" if p == target else "holds"
            raise CaseError(
                f"{out} {what} an input of this run ({p.name}); choose another output",
                field=option,
            )
    if not folder:
        if target.is_dir():
            raise CaseError(f"{out} is a folder; give a file name", field=option)
        if target.exists() and not overwrite:
            raise CaseError(f"{out} exists; add --overwrite to replace it", field=option)
        parent = target.parent
    else:
        if target.exists() and not target.is_dir():
            raise CaseError(f"{out} exists and is not a folder", field=option)
        parent = target
    if not parent.is_dir():
        if not mkdir:
            hint = "" if parent.exists() else " (add --mkdir to create it)"
            raise CaseError(f"folder {parent} does not exist{hint}", field=option)
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CaseError(f"cannot create folder {parent}: {exc.strerror}", field=option) from None
    probe = parent / f".floatwind-probe-{uuid.uuid4().hex[:8]}"
    try:
        with open(probe, "xb"):
            pass
        probe.unlink()
    except OSError as exc:
        raise CaseError(f"cannot write in {parent}: {exc.strerror}", field=option) from None
    return out


def temporary_name(path: str | pathlib.Path) -> pathlib.Path:
    """A hidden temporary name beside ``path`` with the same suffix."""
    path = pathlib.Path(path)
    return path.with_name(f".{path.stem}.tmp-{os.getpid()}-{uuid.uuid4().hex[:6]}{path.suffix}")


def atomic_write(path: str | pathlib.Path, writer: Callable[[pathlib.Path], Any]) -> pathlib.Path:
    """Call ``writer(tmp)`` on a temporary file beside ``path``, then rename it over ``path``.

    On any failure (or Ctrl-C) the temporary file is removed and ``path`` is left as it was."""
    path = pathlib.Path(path)
    tmp = temporary_name(path)
    try:
        writer(tmp)
        os.replace(tmp, path)
    except BaseException:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise
    return path
