"""Protecting inputs and results: what a run reads, where it may write, atomic replacement.

* :func:`input_files` lists the files a run depends on: a case file and every file its values
  name (``.bts`` wind, wave elevation, C_T tables, motion tables, ...), or an OpenFAST deck and
  every file its quoted names reach (followed recursively: MoorDyn/MAP++ files, TurbSim files,
  controller libraries and their input files), or a study file with its case files; a name
  that is a root (HydroDyn's PotFile, a case's ``wamit:``) stands for its WAMIT and
  state-space files (``root.1``, ``.3``, ``.hst``, ``.8``, ``.ss``, ``.ssexctn``, ...).
* :func:`recording_reads` records every file the process opens for reading while a command
  runs (its case or deck, an ``--env`` file, WAMIT data, wind, airfoil, mooring and controller
  files, a controller library it loads: whatever the loaded model read), and :func:`files_read`
  lists them: with :func:`input_files` (the files named, also those read later by compiled code
  such as a controller library's own input file) it is the one list of a command's inputs.
* :func:`check_output` refuses, before anything runs, an output path that is one of those inputs
  (the same file by any name: a symbolic or a hard link), an existing result without
  ``overwrite``, a folder that does not exist without ``mkdir`` or one
  that cannot be written; each error is one line naming the option.
* :func:`atomic_write` writes through a temporary file in the destination folder and renames it
  over the target (``os.replace``), so a killed or failing write leaves the old result intact.
* :func:`read_text` reads a text input as UTF-8 and names the file, line, column and byte offset
  of the first byte that is not.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pathlib
import re
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
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


#: the files a *root* (a path without extension: HydroDyn's PotFile, a case's ``wamit:``, a
#: state-space fit) stands for: WAMIT first- and second-order data and HydroDyn's state-space
#: files (WAMIT User Manual ch. 4; HydroDyn's SS_Excitation/SS_Radiation)
ROOT_SUFFIXES = (".1", ".2", ".3", ".hst", ".4", ".7", ".8", ".9", ".10d", ".10s", ".11d",
                 ".11s", ".12d", ".12s", ".ss", ".ssexctn")  # fmt: skip

#: the files a wind *root* stands for: InflowWind's FilenameRoot of a Bladed-style field is read
#: as ``root.wnd`` with its TurbSim summary ``root.sum`` (InflowWind IfW_BladedFFWind.f90)
WIND_ROOT_SUFFIXES = (".bts", ".wnd", ".sum")


class _Folders:
    """The names in each folder, listed once per :func:`input_files` call: whether a name
    exists (or is a root with files) is a set lookup, not a stat per candidate and suffix (a
    long table of words would otherwise cost seconds)."""

    def __init__(self) -> None:
        self._names: dict[str, frozenset[str]] = {}

    def names(self, folder: str) -> frozenset[str]:
        got = self._names.get(folder)
        if got is None:
            try:
                got = frozenset(os.listdir(folder))
            except (OSError, ValueError):
                got = frozenset()
            self._names[folder] = got
        return got


def _candidate(name: str, base: pathlib.Path) -> tuple[str, str] | None:
    """(folder, file name) that ``name`` relative to ``base`` stands for, or None."""
    name = name.strip()
    if not name or "\n" in name or "\0" in name or len(name) > 4096:
        return None
    full = os.path.join(base, os.path.expanduser(name))
    folder, leaf = os.path.split(full)
    return (folder or ".", leaf) if leaf else None


def _existing(name: str, base_dirs: Iterable[pathlib.Path],
              folders: _Folders | None = None) -> pathlib.Path | None:  # fmt: skip
    folders = folders or _Folders()
    for base in base_dirs:
        c = _candidate(name, base)
        if c is not None and c[1] in folders.names(c[0]):
            p = pathlib.Path(c[0], c[1])
            if p.is_file():
                return p.resolve()
    return None


def _root_files(name: str, base_dirs: Iterable[pathlib.Path],
                folders: _Folders | None = None) -> list[pathlib.Path]:  # fmt: skip
    """The existing ``name + suffix`` files of a root ``name`` (:data:`ROOT_SUFFIXES`)."""
    folders = folders or _Folders()
    for base in base_dirs:
        c = _candidate(name, base)
        if c is None:
            continue
        present = folders.names(c[0])
        found = [pathlib.Path(c[0], c[1] + x) for x in (*ROOT_SUFFIXES, *WIND_ROOT_SUFFIXES)
                 if c[1] + x in present]  # fmt: skip
        found = [q.resolve() for q in found if q.is_file()]
        if found:
            return found
    return []


def _named_files(name: str, base_dirs: list[pathlib.Path],
                 folders: _Folders | None = None) -> list[pathlib.Path]:  # fmt: skip
    """The file ``name`` names, or the files of the root ``name``."""
    folders = folders or _Folders()
    p = _existing(name, base_dirs, folders)
    return [p] if p is not None else _root_files(name, base_dirs, folders)


def referenced_files(data: Any, base_dirs: Iterable[pathlib.Path],
                     folders: _Folders | None = None) -> list[pathlib.Path]:  # fmt: skip
    """Existing files named by the string values of a parsed YAML mapping (relative names are
    tried against each of ``base_dirs`` in turn), and the files of the roots they name (a
    ``wamit:`` root: ``root.1``, ``root.3``, ``root.hst``, ...)."""
    base_dirs = list(base_dirs)
    folders = folders or _Folders()
    out: list[pathlib.Path] = []
    for s in _strings(data):
        for p in _named_files(s, base_dirs, folders):
            if p not in out:
                out.append(p)
    return out


#: files never read for the names they hold: WAMIT/state-space data (``root`` files), binary
#: wind and result files, YAML (walked as values by :func:`input_files`)
_NOT_WALKED = (*ROOT_SUFFIXES, *WIND_ROOT_SUFFIXES, ".outb", ".out", ".nc", ".yaml", ".yml",
               ".so", ".dll", ".dylib", ".npz")  # fmt: skip


def _line_names(line: str) -> list[str]:
    """The names one line of an OpenFAST-style input may give: its quoted strings (quotes never
    span lines: an apostrophe in a comment must not swallow the names after it) and its first
    token when it is neither a number, a flag nor a comment (``spar   PotFile``: an unquoted
    name, as OpenFAST reads one)."""
    names = ([m.group(1) or m.group(2) for m in _QUOTED.finditer(line)]
             if '"' in line or "'" in line else [])  # fmt: skip
    toks = line.split(None, 1)
    if toks and toks[0][0] not in "\"'!#-=" and "," not in toks[0]:  # (a comma ends a name)
        first = toks[0]
        try:
            float(first.replace("D", "E").replace("d", "e"))
        except ValueError:
            if first.lower() not in ("true", "false", "t", "f", "default", "unused", "none"):
                names.append(first)
    return names


def _deck_files(path: pathlib.Path, seen: list[pathlib.Path], folders: _Folders,
                depth: int = 0) -> None:  # fmt: skip
    """``path`` and, recursively, every existing file (or root's files) its lines name
    (:func:`_line_names`), relative to its folder: a deck's module files, MoorDyn/MAP++ and
    TurbSim files, controller libraries and their input files, the files those name."""
    if path in seen or depth > 6 or len(seen) > 500:
        return
    seen.append(path)
    if path.suffix.lower() in _NOT_WALKED:
        return
    try:
        if path.stat().st_size > 2_000_000:  # a data table (a wave or force record), not a file
            return  # that names others: input files are a few kB to a few hundred kB
        data = path.read_bytes()
    except OSError:
        return
    if b"\0" in data[:65536]:
        return  # a binary file (a library, a wind field): it names nothing
    for line in data.decode("latin-1").splitlines():
        for name in _line_names(line):
            for p in _named_files(name, [path.parent], folders):
                _deck_files(p, seen, folders, depth + 1)


def input_files(path: str | pathlib.Path) -> list[pathlib.Path]:
    """The resolved files a run of ``path`` (a YAML case or study, or an OpenFAST ``.fst``
    deck) reads: the file itself first. Unreadable or unparsable files give just themselves (the
    loader reports what is wrong with them)."""

    path = pathlib.Path(path).resolve()
    if not path.is_file():
        return [path]
    folders = _Folders()
    if path.suffix.lower() == ".fst":
        seen: list[pathlib.Path] = []
        _deck_files(path, seen, folders)
        return seen
    out = [path]
    try:
        data = load_yaml(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, CaseError):
        return out  # the loader reports what is wrong with it
    bases = [path.parent]
    if isinstance(data, dict) and isinstance(data.get("designs"), list):  # a study file
        for d in data["designs"]:
            case = d.get("case") if isinstance(d, dict) else None
            if isinstance(case, str):
                p = _existing(case, [path.parent], folders)
                if p is not None:
                    for q in input_files(p):
                        if q not in out:
                            out.append(q)
                    bases.append(p.parent)
    for p in referenced_files(data, bases, folders):
        if p.suffix.lower() in (".yaml", ".yml"):
            if p not in out:
                out.append(p)
            continue
        seen: list[pathlib.Path] = []
        # a MoorDyn file, a controller's input file and what they name
        _deck_files(p, seen, folders)
        for q in seen:
            if q not in out:
                out.append(q)
    return out


def file_hash(path: str | pathlib.Path) -> str:
    """sha256 of the file's bytes (hex)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


# ------------------------------------------------------------- the files a command has read

#: the files opened for reading while :func:`recording_reads` is on (absolute names as keys, in
#: the order first opened: a file read over and over is kept once; None: not recording)
_READS: dict[str, None] | None = None
_HOOKED = False
#: what the interpreter itself opens (modules, their bytecode, numba's cache index and data):
#: never a user's input, not recorded
_MACHINERY = (".py", ".pyc", ".pyi", ".pth", ".nbi", ".nbc")


def _audit(event: str, args: tuple) -> None:
    """The audit hook (PEP 578): a file opened for reading (``open``: builtins.open, io.open,
    os.open, numpy's and pandas' readers) or a library loaded (``ctypes.dlopen``) while
    recording. Returns at once for every other event."""
    if _READS is None or (event != "open" and event != "ctypes.dlopen"):
        return
    try:
        path = args[0]
        if isinstance(path, int) or path is None:
            return  # an open file descriptor (os.fdopen): already recorded when opened
        if event == "open":
            mode, flags = args[1], args[2]
            if mode is not None:  # builtins.open / io.open: a mode string
                if "w" in mode or "x" in mode or ("a" in mode and "+" not in mode):
                    return  # written, not read
            elif isinstance(flags, int) and flags & (os.O_WRONLY | os.O_CREAT | os.O_TRUNC):
                return  # os.open for writing
        name = os.fsdecode(path)
        if event == "ctypes.dlopen" and os.sep not in name:
            return  # a system library found on the search path (libc.so.6), not a file named
        if not name.endswith(_MACHINERY):
            _READS[os.path.abspath(name)] = None
    except Exception:  # an audit hook must never break the call it watches
        return


@contextlib.contextmanager
def recording_reads() -> Iterator[None]:
    """Record every file the process opens for reading (and every library it loads) inside the
    block: :func:`files_read` lists them. A command runs inside it (``floatwind.cli``), so its
    output check sees whatever its loaded model read, without a list of file kinds to keep. A
    block inside another adds to the outer one's record."""
    global _READS, _HOOKED
    if not _HOOKED:
        sys.addaudithook(_audit)
        _HOOKED = True
    outer = _READS
    if outer is None:
        _READS = {}
    try:
        yield
    finally:
        _READS = outer


def files_read() -> list[pathlib.Path]:
    """The regular files read so far inside :func:`recording_reads` (resolved, each once, in
    the order first read); empty outside it."""
    out: dict[pathlib.Path, None] = {}
    for name in list(_READS or ()):
        try:
            if not stat.S_ISREG(os.stat(name).st_mode):
                continue  # a device, a FIFO, /proc: nothing a result could replace
            out[pathlib.Path(name).resolve()] = None
        except (OSError, ValueError):
            continue  # removed since (a temporary file)
    return list(out)


def same_file(a: str | pathlib.Path, b: str | pathlib.Path) -> bool:
    """Whether ``a`` and ``b`` name one file: the same resolved path (symbolic links followed),
    or, both existing, the same device and inode (a hard link)."""
    a, b = pathlib.Path(a), pathlib.Path(b)
    if a.resolve() == b.resolve():
        return True
    try:
        return os.path.samestat(os.stat(a), os.stat(b))
    except (OSError, ValueError):
        return False


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

    ``out`` must not be (or, for ``folder=True``, contain) one of ``inputs`` nor, for a file,
    one of the files read so far (:func:`files_read`), by any name (:func:`same_file`: a
    symbolic or hard link to an input is that input), even with ``overwrite``; an existing file
    needs ``overwrite``; its folder must exist (or ``mkdir``) and be writable. Returns ``out``.
    """
    out = pathlib.Path(out)
    target = out.resolve()
    try:
        st = os.stat(target)
        target_id = (st.st_dev, st.st_ino) if stat.S_ISREG(st.st_mode) else None
    except (OSError, ValueError):
        target_id = None
    for inp in [*inputs, *(() if folder else files_read())]:
        p = pathlib.Path(inp).resolve()
        same = p == target
        if not same and target_id is not None:
            try:
                st = os.stat(p)
                same = (st.st_dev, st.st_ino) == target_id
            except (OSError, ValueError):
                pass
        if same or (folder and target in p.parents):
            what = "is" if same else "holds"
            raise CaseError(
                f"{out} {what} an input of this run ({p.name}); choose another output",
                field=option,
            )
    if not folder:
        if target.is_dir():
            raise CaseError(f"{out} is a folder; give a file name", field=option)
        if is_stream(target):  # a device or FIFO: written into as a stream (atomic_write),
            if not os.access(target, os.W_OK):  # never replaced, so no --overwrite is needed
                raise CaseError(f"cannot write to {out} (permission denied)", field=option)
            return out
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
            raise CaseError(
                f"cannot create folder {parent}: {exc.strerror}", field=option
            ) from None
    probe = parent / f".floatwind-probe-{os.urandom(4).hex()}"
    try:
        with open(probe, "xb"):
            pass
        probe.unlink()
    except OSError as exc:
        raise CaseError(f"cannot write in {parent}: {exc.strerror}", field=option) from None
    return out


#: the file types a figure can be saved as (matplotlib's Agg, PDF, PS, SVG and PGF backends)
FIGURE_SUFFIXES = (".png", ".pdf", ".svg", ".svgz", ".eps", ".ps", ".jpg", ".jpeg", ".tif",
                   ".tiff", ".webp", ".pgf")  # fmt: skip


def check_figure_suffix(path: str | pathlib.Path, option: str) -> None:
    """A figure's file name must end in a type matplotlib writes (:data:`FIGURE_SUFFIXES`):
    refused before any work is done, naming ``option``."""
    suffix = pathlib.Path(path).suffix.lower()
    if suffix not in FIGURE_SUFFIXES:
        raise CaseError(
            f"{pathlib.Path(path).name}: a figure is written as one of "
            f"{', '.join(s[1:] for s in FIGURE_SUFFIXES)} (got {suffix or 'no suffix'!r})",
            field=option,
        )


def file_stem(name: str) -> str:
    """A file name made from a case's ``name`` for a default output in the current folder: only
    letters, digits, ``.``, ``_``, ``+`` and ``-`` are kept (any other character, a path
    separator among them, becomes ``_``; leading dots are dropped), so a name such as
    ``../../etc/x`` cannot steer the output out of the working folder."""
    stem = re.sub(r"[^A-Za-z0-9._+-]", "_", str(name)).lstrip(".")
    return stem or "floatwind"


def default_output(name: str, suffix: str | None, *, file: str | None = None) -> pathlib.Path:
    """The default output ``NAME.suffix`` in the current folder of a case (or file) named
    ``name`` (``suffix`` None: the folder ``NAME`` of a study or DLC set, the name as given). A
    name that would steer it elsewhere (a path separator, a leading dot: ``..``,
    ``../../etc/x``, a hidden name) is refused in one line naming the file's ``name``; in a file
    name, other characters that are not safe become ``_`` (:func:`file_stem`)."""
    text = str(name)
    if not text or "/" in text or "\\" in text or "\0" in text or text.startswith("."):
        raise CaseError(
            f"{text!r} would put the default output outside the current folder (a path "
            "separator or a leading dot); rename it or give -o/--output",
            file=file,
            field="name",
        )
    return pathlib.Path(text) if suffix is None else pathlib.Path(f"{file_stem(text)}.{suffix}")


def temporary_name(path: str | pathlib.Path) -> pathlib.Path:
    """A hidden temporary name beside ``path`` with the same suffix (and the writing process's
    id, so :func:`sweep_temporaries` can tell an abandoned one from one being written)."""
    path = pathlib.Path(path)
    return path.with_name(f".{path.stem}.tmp-{os.getpid()}-{os.urandom(3).hex()}{path.suffix}")


_TEMPORARY = re.compile(r"^\.(?P<stem>.*)\.tmp-(?P<pid>\d+)-[0-9a-f]{6}(\.[^.]*)?$")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # someone else's process: leave its file alone
    return True


def sweep_temporaries(folder: str | pathlib.Path, stem: str | None = None) -> list[pathlib.Path]:
    """Remove the temporaries (:func:`temporary_name`) in ``folder`` (of ``stem`` only, when
    given) left by a write that was killed: those whose writing process no longer exists.
    Returns what was removed."""
    removed = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for e in entries:
        m = _TEMPORARY.match(e.name)
        if m is None or (stem is not None and m["stem"] != stem) or _alive(int(m["pid"])):
            continue
        try:
            os.unlink(e.path)
            removed.append(pathlib.Path(e.path))
        except OSError:
            pass
    return removed


def is_stream(path: str | pathlib.Path) -> bool:
    """Whether ``path`` exists and is neither a regular file nor a folder (a device node such as
    ``/dev/null``, a FIFO, a socket): such a target is written into, never replaced."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def atomic_write(path: str | pathlib.Path, writer: Callable[[pathlib.Path], Any]) -> pathlib.Path:
    """Call ``writer(tmp)`` on a temporary file beside ``path``, then rename it over ``path``.

    On any failure (or Ctrl-C) the temporary file is removed and ``path`` is left as it was. A
    ``path`` that is a device node or a FIFO (:func:`is_stream`) is never replaced by a regular
    file: the result is written to a temporary file in the system's temporary folder, then
    copied into ``path`` as a stream."""
    path = pathlib.Path(path)
    stream = is_stream(path)
    if stream:  # a temporary of this process's naming: a killed write's is swept next time
        spool = pathlib.Path(tempfile.gettempdir()) / f"floatwind-stream{path.suffix}"
        sweep_temporaries(spool.parent, spool.stem)
        tmp = temporary_name(spool)
    else:
        sweep_temporaries(path.parent, path.stem)  # what a killed earlier write left behind
        tmp = temporary_name(path)
    try:
        writer(tmp)
        if stream:
            with open(tmp, "rb") as src, open(path, "wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
            tmp.unlink()
        else:
            os.replace(tmp, path)
    except BaseException as exc:
        try:
            tmp.unlink()
        except OSError:
            pass
        if isinstance(exc, OSError) and tmp.name in str(exc):
            # a full disk or a failed write: named as the file the user asked for, not the
            # temporary one that no longer exists
            if exc.filename is not None or not exc.strerror:
                text = f"cannot write {path}: {exc.strerror or exc}"
            else:
                text = exc.strerror.replace(str(tmp), str(path)).replace(tmp.name, path.name)
            raise (OSError(exc.errno, text) if exc.errno else OSError(text)) from exc
        raise
    return path


#: the most values a YAML input may expand to (aliases counted at every use): a document of
#: "billion laughs" aliases is refused before anything walks it
MAX_YAML_VALUES = 1_000_000


def load_yaml(text: str, *, file: str | None = None, field: str | None = None) -> Any:
    """Parse YAML ``text`` (safe types only) the way every floatwind input is parsed.

    Refused, as a one-line :class:`CaseError` naming ``file`` (and ``field``): invalid YAML (with
    its line and column), a key given twice in one mapping (naming both lines: YAML keeps the
    last silently), a document whose aliases expand to more than :data:`MAX_YAML_VALUES` values
    (an alias bomb would make every later walk over it hang) and nesting too deep to parse."""
    import yaml

    def fail(reason: str) -> CaseError:
        return CaseError(reason, file=file, field=field)

    class Loader(yaml.SafeLoader):
        def construct_mapping(self, node, deep=False):
            seen: dict = {}
            if isinstance(node, yaml.MappingNode):
                for key_node, _ in node.value:
                    if not isinstance(key_node, yaml.ScalarNode) or key_node.tag.endswith("merge"):
                        continue
                    key = key_node.value
                    line = key_node.start_mark.line + 1
                    if key in seen:
                        raise fail(f"key {key!r} is given twice (lines {seen[key]} and {line}); "
                                   "keep one")  # fmt: skip
                    seen[key] = line
            return super().construct_mapping(node, deep=deep)

    if _flow_depth(text) > MAX_YAML_DEPTH:  # PyYAML's scanner takes time quadratic in it
        raise fail(f"the YAML is nested too deeply to read (more than {MAX_YAML_DEPTH} levels of "
                   "[ ] or { })")  # fmt: skip
    try:
        loader = Loader(text)
        try:
            node = loader.get_single_node()
            if node is None:
                return None
            _check_size(node, fail)
            return loader.construct_document(node)
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise fail(f"not valid YAML{where}: {getattr(exc, 'problem', None) or exc}") from None
    except RecursionError:
        raise fail("the YAML is nested too deeply to read (thousands of levels)") from None


#: the deepest nesting of flow collections (``[ ]``, ``{ }``) a YAML input may have: PyYAML's
#: scanner takes time quadratic in it (5,000 levels: half a minute), a case needs a handful
MAX_YAML_DEPTH = 100


def _flow_depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` in ``text`` outside quoted strings and comments (a
    cheap count first: a document with few brackets cannot be deep)."""
    if text.count("[") + text.count("{") <= MAX_YAML_DEPTH:
        return 0
    depth = deepest = 0
    quote = ""
    prev = "\n"
    comment = False
    for ch in text:
        if comment:
            comment = ch != "\n"
        elif quote:
            if ch == quote:
                quote = ""
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth = max(depth - 1, 0)
        elif ch in "'\"" and (prev in " \t\n[{,:"):
            quote = ch
        elif ch == "#" and prev in " \t\n":
            comment = True
        prev = ch
    return deepest


def _check_size(root, fail) -> None:
    """Refuse a node graph that expands to more than :data:`MAX_YAML_VALUES` values, aliases
    counted at every use, or that refers to itself (memoised depth-first walk: time linear in
    the document)."""
    import yaml

    size: dict[int, int] = {}
    open_: set[int] = set()
    stack = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if isinstance(node, yaml.ScalarNode):
            size[key] = 1
            continue
        kids = [k for pair in node.value for k in pair] if isinstance(node, yaml.MappingNode) \
            else list(node.value)  # fmt: skip
        if done:
            open_.discard(key)
            size[key] = 1 + sum(size[id(k)] for k in kids)
            if size[key] > MAX_YAML_VALUES:
                raise fail(
                    f"the YAML expands to more than {MAX_YAML_VALUES:,} values (anchors and "
                    "aliases used over and over); write the values out"
                )
            continue
        if key in size:
            continue
        if key in open_:
            raise fail("the YAML refers to itself (an alias inside its own anchor)")
        open_.add(key)
        stack.append((node, True))
        stack.extend((k, False) for k in kids if id(k) not in size)
