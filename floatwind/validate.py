"""The one case-file validator (case, environment, study, DLC and load sections; issue 23).

Every load's ``from_config`` reads its section through :class:`Section`, which

* reports every problem as a :class:`floatwind.errors.CaseError` with a dotted field path
  (``loads[2].lines[0].ea``) and, for an unknown key, a "did you mean" suggestion (difflib);
* applies the case-file unit convention: SI, angles in rad unless the key ends in ``_deg``,
  speeds in rad/s unless the key ends in ``_rpm``.

It also holds the small keyword validators (``check_*``) the load constructors use, so that a load
built in Python and one built from a case file give the same messages.
"""

from __future__ import annotations

import difflib
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
    """A YAML number as a finite float, in the one message style of every input (case,
    environment, study, DLC): ``expected a number, got 'abc'``, ``must be finite``,
    ``must be > 0``, ``must be >= 0``, ``must be >= lo``, naming ``field`` (and ``file``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise CaseError(f"expected a number, got {value!r}", field=field, file=file)
    out = float(value)
    if not math.isfinite(out):
        raise CaseError(f"must be finite, got {value!r}", field=field, file=file)
    if positive and out <= 0.0:
        raise CaseError(f"must be > 0, got {out:g}", field=field, file=file)
    if nonnegative and out < 0.0:
        raise CaseError(f"must be >= 0, got {out:g}", field=field, file=file)
    if lo is not None and out < lo:
        raise CaseError(f"must be >= {lo:g}, got {out:g}", field=field, file=file)
    return out


def check_finite(value: Any, field: str) -> float:
    """``value`` as a finite float, else :class:`CaseError` naming ``field``."""
    if isinstance(value, bool):
        raise CaseError(f"expected a number, got {value!r}", field=field)
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise CaseError(f"expected a number, got {value!r}", field=field) from None
    if not math.isfinite(out):
        raise CaseError(f"must be finite, got {value!r}", field=field)
    return out


def check_positive(value: Any, field: str) -> float:
    """``value`` as a float > 0."""
    out = check_finite(value, field)
    if out <= 0.0:
        raise CaseError(f"must be > 0, got {out:g}", field=field)
    return out


def check_nonnegative(value: Any, field: str) -> float:
    """``value`` as a float >= 0."""
    out = check_finite(value, field)
    if out < 0.0:
        raise CaseError(f"must be >= 0, got {out:g}", field=field)
    return out


def check_vector(value: Any, field: str, size: int = 3) -> np.ndarray:
    """``value`` as a finite float vector of length ``size``."""
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise CaseError(f"expected a list of {size} numbers, got {value!r}", field=field) from None
    if arr.shape != (size,):
        raise CaseError(f"expected a list of {size} numbers, got {value!r}", field=field)
    if not np.all(np.isfinite(arr)):
        raise CaseError(f"must be finite, got {value!r}", field=field)
    return arr


def check_body(value: Any, field: str) -> int:
    """A body index (int >= 0)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise CaseError(f"expected a body index >= 0, got {value!r}", field=field)
    return int(value)


def resolve_path(value: Any, field: str, base_dir: pathlib.Path | None) -> pathlib.Path:
    """A file path from a case file, relative to ``base_dir`` (the case file's folder)."""
    if not isinstance(value, (str, pathlib.Path)) or not str(value):
        raise CaseError(f"expected a file path, got {value!r}", field=field)
    path = pathlib.Path(value)
    if not path.is_absolute() and base_dir is not None:
        path = pathlib.Path(base_dir) / path
    if not path.is_file():
        raise CaseError(f"file not found: {path}", field=field)
    return path


class Section:
    """Reader for one dict of a case file that tracks which keys were used.

    Parameters
    ----------
    data : mapping
        The YAML section.
    field : str
        Dotted path of the section (prefix of every reported field).
    allowed : iterable of str
        Every key the section may contain (used by :meth:`finish` and for suggestions).
    """

    def __init__(self, data: Any, field: str, allowed: Iterable[str]):
        if not isinstance(data, Mapping):
            raise CaseError(f"expected a mapping, got {type(data).__name__}", field=field or None)
        self.data = dict(data)
        self.field = field
        self.allowed = set(allowed)
        for key in self.data:
            if key not in self.allowed:
                raise CaseError(
                    f"unknown key '{key}'{suggest(key, self.allowed)}",
                    field=_join(field, str(key)),
                )

    def path(self, key: str | int) -> str:
        """Dotted path of ``key`` inside this section."""
        return _join(self.field, key)

    def has(self, key: str) -> bool:
        return key in self.data and self.data[key] is not None

    def raw(self, key: str, default: Any = ..., *, required: bool | None = None) -> Any:
        """The value of ``key``; missing and no default -> CaseError."""
        if self.has(key):
            return self.data[key]
        if default is ... or required:
            raise CaseError("required key is missing", field=self.path(key))
        return default

    def number(self, key: str, default: Any = ..., *, kind: str = "finite") -> Any:
        """A float; ``kind`` is ``finite``, ``positive`` or ``nonnegative``."""
        if not self.has(key):
            return self.raw(key, default)
        checker = {
            "finite": check_finite,
            "positive": check_positive,
            "nonnegative": check_nonnegative,
        }[kind]
        return checker(self.data[key], self.path(key))

    def vector(self, key: str, default: Any = ..., size: int = 3) -> Any:
        if not self.has(key):
            return self.raw(key, default)
        return check_vector(self.data[key], self.path(key), size)

    def diameters(self, key_a: str, key_b: str) -> tuple[float, float]:
        """Diameters (m) at two ends: ``diameter`` for both, or ``key_a`` and ``key_b`` (taper)."""
        if self.has("diameter"):
            for key in (key_a, key_b):
                if self.has(key):
                    raise CaseError(
                        f"give either 'diameter' or '{key}', not both", field=self.path(key)
                    )
            d = self.number("diameter", kind="positive")
            return d, d
        return self.number(key_a, kind="positive"), self.number(key_b, kind="positive")

    def choice(self, key: str, options: Iterable[str], default: Any = ...) -> Any:
        if not self.has(key):
            return self.raw(key, default)
        value = self.data[key]
        options = list(options)
        if value not in options:
            raise CaseError(
                f"expected one of {options}, got {value!r}{suggest(str(value), options)}",
                field=self.path(key),
            )
        return value

    def boolean(self, key: str, default: Any = ...) -> Any:
        if not self.has(key):
            return self.raw(key, default)
        value = self.data[key]
        if not isinstance(value, bool):
            raise CaseError(f"expected true or false, got {value!r}", field=self.path(key))
        return value

    def angle(self, key: str, default: Any = ...) -> Any:
        """An angle (rad) given as ``key`` (rad) or ``key_deg`` (deg); not both."""
        return self._alt_units(key, f"{key}_deg", math.radians, default)

    def speed(self, key: str, default: Any = ..., *, kind: str = "finite") -> Any:
        """An angular speed (rad/s) given as ``key`` (rad/s) or ``key_rpm`` (rpm); not both."""
        return self._alt_units(key, f"{key}_rpm", lambda v: v * RPM_TO_RAD_S, default, kind=kind)

    def _alt_units(self, key, alt, convert, default, kind="finite"):
        if self.has(key) and self.has(alt):
            raise CaseError(f"give either '{key}' or '{alt}', not both", field=self.path(alt))
        if self.has(alt):
            return convert(self.number(alt, kind=kind))
        if self.has(key):
            return self.number(key, kind=kind)
        if default is ...:
            raise CaseError(f"required key is missing (or '{alt}')", field=self.path(key))
        return default

    def body(self, body_index: Mapping[str, int], key: str = "body", default: Any = ...) -> Any:
        """Body index from a body name (``body_index`` maps names to indices)."""
        if not self.has(key):
            if default is ... and len(body_index) == 1:
                return next(iter(body_index.values()))
            return self.raw(key, default)
        name = self.data[key]
        if name not in body_index:
            raise CaseError(
                f"unknown body {name!r}{suggest(str(name), map(str, body_index))}; "
                f"bodies are {sorted(map(str, body_index))}",
                field=self.path(key),
            )
        return int(body_index[name])

    def items(self, key: str, *, required: bool = True) -> list[tuple[str, Any]]:
        """``(field_path, item)`` for each entry of a list-valued ``key``."""
        if not self.has(key):
            if required:
                raise CaseError("required key is missing", field=self.path(key))
            return []
        value = self.data[key]
        if not isinstance(value, (list, tuple)) or (required and len(value) == 0):
            raise CaseError("expected a non-empty list", field=self.path(key))
        return [(_join(self.path(key), i), item) for i, item in enumerate(value)]
