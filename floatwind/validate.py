"""The one case-file validator (case, environment, study, DLC and load sections; issue 23).

The case loader, the environment, study and DLC parsers and every load's ``from_config`` read
their mappings through :class:`Section` (nested mappings: :meth:`Section.section`, lists of them:
:meth:`Section.sections`), which

* reports every problem as a :class:`floatwind.errors.CaseError` naming the file and a dotted
  field path (``loads[2].lines[0].ea``) and, for an unknown key or value, a "did you mean"
  suggestion (difflib);
* renames the old key spellings (:data:`DEPRECATED_KEYS`) with a FutureWarning;
* applies the case-file unit convention: SI, angles in rad unless the key ends in ``_deg``,
  speeds in rad/s unless the key ends in ``_rpm``.

It also holds the small keyword validators (``check_*``) the load constructors use, so that a load
built in Python and one built from a case file give the same messages.
"""

from __future__ import annotations

import math
import pathlib
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from floatwind.errors import CaseError

RPM_TO_RAD_S = 2.0 * math.pi / 60.0

__all__ = [
    "RPM_TO_RAD_S",
    "Section",
    "number",
    "integer",
    "rename_deprecated",
    "canonical_keys",
    "DEPRECATED_KEYS",
    "suggest",
    "check_finite",
    "check_positive",
    "check_nonnegative",
    "check_vector",
    "check_body",
    "resolve_path",
]


def _join(prefix: str | None, key: str | int) -> str:
    if isinstance(key, int):
        return f"{prefix or ''}[{key}]"
    return f"{prefix}.{key}" if prefix else str(key)


def suggest(name: str, options: Iterable[str]) -> str:
    """A ``" (did you mean 'x'?)"`` suffix for an unknown ``name``, or ``""``."""
    import difflib  # on an error only (issue 41: a run's imports)

    lower = {str(o).lower(): str(o) for o in options}  # case-insensitive: 'Hs' -> 'hs'
    close = difflib.get_close_matches(str(name).lower(), list(lower), n=1, cutoff=0.6)
    return f" (did you mean '{lower[close[0]]}'?)" if close else ""


#: old key spellings with an SI unit suffix -> the key of the one rule (docs/case_format.md,
#: "Units"): SI everywhere, a suffix only for a non-SI unit (``_deg``, ``_rpm``); the old ones are
#: still read, with a FutureWarning naming the new key
DEPRECATED_KEYS = {
    "ref_height_m": "ref_height", "roughness_m": "roughness", "rotor_diameter_m": "rotor_diameter",
    "start_s": "start", "time_s": "time", "ramp_s": "ramp", "x_offset_m": "x_offset",
    "hub_height_m": "hub_height", "width_m": "width", "height_m": "height", "dt_s": "dt",
    "x_m": "x", "y_m": "y", "repeat_period_s": "repeat_period", "f_max_hz": "f_max",
    "analysis_s": "analysis", "transient_s": "transient",
}  # fmt: skip


def canonical_keys(cfg: Any) -> Any:
    """``cfg`` with its old key spellings renamed silently (for code that estimates from a raw
    section before it is validated, e.g. memory budgets; validation itself warns)."""
    if not isinstance(cfg, Mapping):
        return cfg
    return {DEPRECATED_KEYS.get(k, k): v for k, v in cfg.items()}


def rename_deprecated(cfg: Any, allowed, where: str = "", file: str | None = None) -> Any:
    """``cfg`` with its old key spellings (:data:`DEPRECATED_KEYS`) renamed to the keys in
    ``allowed``, one FutureWarning each naming the field and the new key; a mapping giving both
    spellings is refused. Anything that is not a mapping is returned as it is."""
    import warnings

    if not isinstance(cfg, Mapping):
        return cfg
    out = dict(cfg)
    for old, new in DEPRECATED_KEYS.items():
        if old in out and new in allowed and old not in allowed:
            field = f"{where}.{old}" if where else old
            if new in out:
                raise CaseError(f"give '{new}' only ('{old}' is its old spelling)", field=field,
                                file=file)  # fmt: skip
            warnings.warn(f"{file + ': ' if file else ''}field '{field}' is deprecated: use "
                          f"'{new}' (SI units take no suffix, docs/case_format.md)", FutureWarning,
                          stacklevel=3)  # fmt: skip
            out[new] = out.pop(old)
    return out


def number(value: Any, field: str, *, file: str | None = None, positive: bool = False,
           nonnegative: bool = False, lo: float | None = None) -> float:  # fmt: skip
    """A number as a finite float, in the one message style of every input (case, environment,
    study, DLC, a load's keywords): ``expected a number, got 'abc'``, ``must be finite``,
    ``must be > 0``, ``must be >= 0``, ``must be >= lo``, naming ``field`` (and ``file``).

    Anything ``float()`` reads is a number except a bool: YAML 1.1 reads ``1e3`` as a string and
    a ``--set`` override or a Python caller may pass one, or a NumPy scalar."""
    if isinstance(value, bool):
        raise CaseError(f"expected a number, got {value!r}", field=field, file=file)
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise CaseError(f"expected a number, got {value!r}", field=field, file=file) from None
    if not math.isfinite(out):
        raise CaseError(f"must be finite, got {value!r}", field=field, file=file)
    if positive and out <= 0.0:
        raise CaseError(f"must be > 0, got {out:g}", field=field, file=file)
    if nonnegative and out < 0.0:
        raise CaseError(f"must be >= 0, got {out:g}", field=field, file=file)
    if lo is not None and out < lo:
        raise CaseError(f"must be >= {lo:g}, got {out:g}", field=field, file=file)
    return out


def integer(value: Any, field: str, *, file: str | None = None, minimum: int = 0) -> int:
    """An int >= ``minimum`` (counts, seeds): ``must be an integer >= 1, got 0``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise CaseError(f"must be an integer >= {minimum}, got {value!r}", field=field, file=file)
    return int(value)


def check_finite(value: Any, field: str) -> float:
    """``value`` as a finite float, else :class:`CaseError` naming ``field``."""
    return number(value, field)


def check_positive(value: Any, field: str) -> float:
    """``value`` as a float > 0."""
    return number(value, field, positive=True)


def check_nonnegative(value: Any, field: str) -> float:
    """``value`` as a float >= 0."""
    return number(value, field, nonnegative=True)


def check_vector(value: Any, field: str, size: int = 3, *, file: str | None = None) -> np.ndarray:
    """``value`` as a finite float vector of length ``size``."""
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise CaseError(f"expected a list of {size} numbers, got {value!r}", field=field,
                        file=file) from None  # fmt: skip
    if arr.shape != (size,):
        raise CaseError(f"expected a list of {size} numbers, got {value!r}", field=field, file=file)
    if not np.all(np.isfinite(arr)):
        raise CaseError(f"must be finite, got {value!r}", field=field, file=file)
    return arr


def check_body(value: Any, field: str) -> int:
    """A body index (int >= 0)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise CaseError(f"expected a body index >= 0, got {value!r}", field=field)
    return int(value)


def resolve_path(value: Any, field: str, base_dir: pathlib.Path | None, *,
                 file: str | None = None) -> pathlib.Path:  # fmt: skip
    """A file path from a case file, relative to ``base_dir`` (the case file's folder)."""
    if not isinstance(value, (str, pathlib.Path)) or not str(value):
        raise CaseError(f"expected a file path, got {value!r}", field=field, file=file)
    path = pathlib.Path(value)
    if not path.is_absolute() and base_dir is not None:
        path = pathlib.Path(base_dir) / path
    if not path.is_file():
        raise CaseError(f"file not found: {path}", field=field, file=file)
    return path


class Section:
    """Reader for one mapping of an input file that checks its keys once, on construction.

    Every input (case, environment, study, DLC, load sections) reads its mappings through this
    class, so an unknown key, a missing key, a bad number, a bad choice and an old key spelling
    read the same everywhere: ``FILE: field 'a.b[2].c': REASON``.

    Parameters
    ----------
    data : mapping
        The YAML section.
    field : str
        Dotted path of the section (prefix of every reported field; "" for a file's top level).
    allowed : iterable of str
        Every key the section may contain (unknown keys -> "did you mean"). Old key spellings
        (:data:`DEPRECATED_KEYS`) of allowed keys are renamed, with a FutureWarning.
    file : str, optional
        The file the section comes from, named in every error.
    defaults : mapping, optional
        Default values of keys (used by :meth:`raw` and the typed readers when the caller gives
        no default); ``...`` marks a required key, checked on construction.
    """

    def __init__(self, data: Any, field: str, allowed: Iterable[str], *,
                 file: str | None = None, defaults: Mapping[str, Any] | None = None):  # fmt: skip
        self.field = field
        self.file = file or None
        self.allowed = set(allowed)
        data = rename_deprecated(data, self.allowed, field, self.file)
        if not isinstance(data, Mapping):
            raise self.error(f"expected a mapping, got {type(data).__name__}")
        self.data = dict(data)
        for key in self.data:
            if key not in self.allowed:
                raise self.error(f"unknown key '{key}'{suggest(key, self.allowed)}", str(key))
        self.defaults = dict(defaults or {})
        for key, default in self.defaults.items():
            if default is ... and not self.has(key):
                raise self.error("required key is missing", key)

    @classmethod
    def tagged(cls, data: Any, field: str, tables: Mapping[str, Iterable[str]], *,
               tag: str = "kind", default: Any = ..., file: str | None = None,
               defaults: bool = False) -> tuple[str, Section]:  # fmt: skip
        """A mapping whose allowed keys depend on its ``tag`` value (``kind: jonswap``):
        ``(tag value, Section)`` checked against ``tables[tag value]`` (used as the defaults too
        when ``defaults``)."""
        if not isinstance(data, Mapping):
            raise CaseError(f"expected a mapping, got {type(data).__name__}", field=field or None,
                            file=file or None)  # fmt: skip
        kind = cls(data, field, set(data), file=file).choice(tag, list(tables), default)
        table = tables[kind]
        return kind, cls(data, field, table, file=file, defaults=table if defaults else None)

    # ------------------------------------------------------------ errors and paths

    def path(self, key: str | int) -> str:
        """Dotted path of ``key`` inside this section."""
        return _join(self.field, key)

    def error(self, reason: str, key: str | int | None = None) -> CaseError:
        """A :class:`CaseError` naming this section's file and ``key`` (or the section)."""
        return CaseError(reason, field=self.path(key) if key is not None else (self.field or None),
                         file=self.file)  # fmt: skip

    # ------------------------------------------------------------ values

    def has(self, key: str) -> bool:
        return key in self.data and self.data[key] is not None

    def raw(self, key: str, default: Any = ..., *, required: bool | None = None) -> Any:
        """The value of ``key``; missing and no default (given or in ``defaults``) -> CaseError."""
        if self.has(key):
            return self.data[key]
        if default is ... and not required:
            default = self.defaults.get(key, ...)
        if default is ... or required:
            raise self.error("required key is missing", key)
        return default

    def number(self, key: str, default: Any = ..., *, kind: str = "finite",
               lo: float | None = None) -> Any:  # fmt: skip
        """A float; ``kind`` is ``finite``, ``positive`` or ``nonnegative``; ``lo`` a lower bound."""
        if not self.has(key):
            return self.raw(key, default)
        if kind not in ("finite", "positive", "nonnegative"):
            raise ValueError(f"Section.number: unknown kind {kind!r}")
        return number(self.data[key], self.path(key), file=self.file, positive=kind == "positive",
                      nonnegative=kind == "nonnegative", lo=lo)  # fmt: skip

    def integer(self, key: str, default: Any = ..., *, minimum: int = 0) -> Any:
        """An int >= ``minimum``."""
        return integer(self.raw(key, default), self.path(key), file=self.file, minimum=minimum)

    def numbers(self, key: str, default: Any = ..., *, kind: str = "finite",
                single: bool = False) -> Any:  # fmt: skip
        """A non-empty list of floats (``key[i]`` named in an error); with ``single``, one number
        stands for a list of one."""
        if not self.has(key):
            return self.raw(key, default)
        value = self.data[key]
        if single and not isinstance(value, (list, tuple)):
            value = [value]
        if not isinstance(value, (list, tuple)) or not value:
            raise self.error("expected a non-empty list of numbers", key)
        return [number(x, _join(self.path(key), i), file=self.file,
                       positive=kind == "positive", nonnegative=kind == "nonnegative")
                for i, x in enumerate(value)]  # fmt: skip

    def strings(self, key: str, default: Any = ..., *, what: str = "names") -> Any:
        """A list of strings (``expected a list of channel names`` with ``what="channel names"``)."""
        value = self.raw(key, default)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.error(f"expected a list of {what}", key)
        return list(value)

    def vector(self, key: str, default: Any = ..., size: int = 3) -> Any:
        if not self.has(key):
            return self.raw(key, default)
        return check_vector(self.data[key], self.path(key), size, file=self.file)

    def diameters(self, key_a: str, key_b: str) -> tuple[float, float]:
        """Diameters (m) at two ends: ``diameter`` for both, or ``key_a`` and ``key_b`` (taper)."""
        if self.has("diameter"):
            for key in (key_a, key_b):
                if self.has(key):
                    raise self.error(f"give either 'diameter' or '{key}', not both", key)
            d = self.number("diameter", kind="positive")
            return d, d
        return self.number(key_a, kind="positive"), self.number(key_b, kind="positive")

    def one_of(self, value: Any, key: str | int | None, options: Iterable[Any]) -> Any:
        """``value`` if it is one of ``options``, else ``unknown value 'x' (did you mean 'y'?);
        one of a, b, c`` naming ``key``."""
        options = list(options)
        if value not in options:
            raise self.error(f"unknown value {value!r}{suggest(str(value), map(str, options))}; "
                             f"one of {', '.join(map(str, options))}", key)  # fmt: skip
        return value

    def choice(self, key: str, options: Iterable[str], default: Any = ...) -> Any:
        if not self.has(key):
            return self.raw(key, default)
        return self.one_of(self.data[key], key, options)

    def boolean(self, key: str, default: Any = ...) -> Any:
        if not self.has(key):
            return self.raw(key, default)
        value = self.data[key]
        if not isinstance(value, bool):
            raise self.error(f"expected true or false, got {value!r}", key)
        return value

    def path_to(self, key: str, base_dir: pathlib.Path | None, default: Any = ...) -> Any:
        """A file path (``key``) relative to ``base_dir`` that must exist."""
        if not self.has(key):
            return self.raw(key, default)
        return resolve_path(self.data[key], self.path(key), base_dir, file=self.file)

    def angle(self, key: str, default: Any = ...) -> Any:
        """An angle (rad) given as ``key`` (rad) or ``key_deg`` (deg); not both."""
        return self._alt_units(key, f"{key}_deg", math.radians, default)

    def speed(self, key: str, default: Any = ..., *, kind: str = "finite") -> Any:
        """An angular speed (rad/s) given as ``key`` (rad/s) or ``key_rpm`` (rpm); not both."""
        return self._alt_units(key, f"{key}_rpm", lambda v: v * RPM_TO_RAD_S, default, kind=kind)

    def _alt_units(self, key, alt, convert, default, kind="finite"):
        if self.has(key) and self.has(alt):
            raise self.error(f"give either '{key}' or '{alt}', not both", alt)
        if self.has(alt):
            return convert(self.number(alt, kind=kind))
        if self.has(key):
            return self.number(key, kind=kind)
        if default is ...:
            raise self.error(f"required key is missing (or '{alt}')", key)
        return default

    def body(self, body_index: Mapping[str, int], key: str = "body", default: Any = ...) -> Any:
        """Body index from a body name (``body_index`` maps names to indices)."""
        if not self.has(key):
            if default is ... and len(body_index) == 1:
                return next(iter(body_index.values()))
            return self.raw(key, default)
        name = self.data[key]
        if name not in body_index:
            raise self.error(
                f"unknown body {name!r}{suggest(str(name), map(str, body_index))}; "
                f"bodies are {sorted(map(str, body_index))}",
                key,
            )
        return int(body_index[name])

    # ------------------------------------------------------------ nested sections

    def items(self, key: str, *, required: bool = True) -> list[tuple[str, Any]]:
        """``(field_path, item)`` for each entry of a list-valued ``key``."""
        if not self.has(key):
            if required:
                raise self.error("required key is missing", key)
            return []
        value = self.data[key]
        if not isinstance(value, (list, tuple)) or (required and len(value) == 0):
            raise self.error("expected a non-empty list", key)
        return [(_join(self.path(key), i), item) for i, item in enumerate(value)]

    def section(self, key: str, allowed: Iterable[str], *,
                defaults: Mapping[str, Any] | None = None) -> Section:  # fmt: skip
        """The nested mapping ``key`` (absent: an empty one) as a :class:`Section`."""
        return Section(self.raw(key, {}), self.path(key), allowed, file=self.file,
                       defaults=defaults)  # fmt: skip

    def sections(self, key: str, allowed: Iterable[str], *, required: bool = True,
                 defaults: Mapping[str, Any] | None = None) -> list[Section]:  # fmt: skip
        """Each mapping of the list-valued ``key`` as a :class:`Section` (``key[i]``)."""
        return [Section(item, f, allowed, file=self.file, defaults=defaults)
                for f, item in self.items(key, required=required)]  # fmt: skip
