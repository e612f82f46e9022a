"""Prescribed joint motions from case-file entries: read by the case loader (joints) and by the
Euler 3-1-3 formulation's section (its spin), which both import it from here."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from floatwind.errors import CaseError
from floatwind.multibody import motion as mo
from floatwind.validate import Section, resolve_path

__all__ = ["MOTION_KINDS", "motion_from_config"]

MOTION_KINDS = ("locked", "constant_rate", "ramp", "table")


#: the keys each motion kind reads (without the _deg / _rpm unit suffixes)
_MOTION_KIND_KEYS = {
    "locked": {"value"},
    "constant_rate": {"q0", "rate"},
    "ramp": {"q0", "rate", "t_start", "final", "hold_at_start"},
    "table": {"file", "time", "values", "rates", "accelerations", "scale", "value"},
}


def motion_from_config(data: Any, field: str, base_dir, angular: bool) -> mo.Motion:
    """A prescribed joint motion from its case-file entry (a number: locked there; a mapping with
    ``kind``: locked, constant_rate, ramp or table); CaseError naming ``field``."""
    if data is None:
        return mo.Locked()
    if isinstance(data, (int, float)) and not isinstance(data, bool):
        return mo.Locked(float(data))
    unit = "deg" if angular else None
    keys = {"kind", "value", "q0", "rate", "t_start", "final", "file", "time", "values", "rates"}
    keys |= {"hold_at_start"}
    keys |= {"accelerations", "scale"}
    if unit:
        keys |= {"value_deg", "q0_deg", "rate_deg", "rate_rpm", "final_deg"}
    sec = Section(data, field, keys)
    kind = sec.choice("kind", MOTION_KINDS)
    # a key of another kind would be silently ignored (e.g. a locked joint with a rate_rpm left
    # over from a merged constant_rate): refused, naming the keys this kind reads
    base_keys = _MOTION_KIND_KEYS[kind]
    for key in data:
        if key != "kind" and key.removesuffix("_deg").removesuffix("_rpm") not in base_keys:
            allowed = sorted(k for k in keys if k.removesuffix("_deg").removesuffix("_rpm") in base_keys)
            raise CaseError(
                f"key '{key}' does not apply to a motion of kind '{kind}' (its keys: "
                f"{', '.join(['kind', *allowed])})",
                field=f"{field}.{key}",
            )

    def ang(key, default=...):
        if angular:
            return sec.angle(key, default)
        return sec.number(key, default)

    if kind == "locked":
        return mo.Locked(ang("value", 0.0))
    if kind == "constant_rate":
        rate = sec.speed("rate") if angular and sec.has("rate_rpm") else ang("rate")
        return mo.ConstantRate(ang("q0", 0.0), rate)
    if kind == "ramp":
        return mo.Ramp(ang("q0", 0.0), ang("rate"), sec.number("t_start", 0.0), ang("final", None),
                       sec.boolean("hold_at_start", False))  # fmt: skip
    # table: inline (time, values[, rates, accelerations]) or a file with columns
    scale = sec.number("scale", math.pi / 180 if angular and sec.has("value_deg") else 1.0)
    if sec.has("file"):
        path = resolve_path(sec.raw("file"), sec.path("file"), base_dir)
        try:
            tab = np.loadtxt(path, comments="#", delimiter=None, ndmin=2)
        except ValueError as exc:
            raise CaseError(f"cannot read table {path}: {exc}", field=sec.path("file")) from None
        if tab.shape[1] < 2:
            raise CaseError(
                "table file needs at least 2 columns (time, value)", field=sec.path("file")
            )
        time = tab[:, 0]
        vals = tab[:, 1] * scale
        rates = tab[:, 2] * scale if tab.shape[1] > 2 else None
        accs = tab[:, 3] * scale if tab.shape[1] > 3 else None
    else:
        time = sec.raw("time")
        vals = np.asarray(sec.raw("values"), dtype=float) * scale
        rates = None if not sec.has("rates") else np.asarray(sec.raw("rates"), float) * scale
        accs = (
            None
            if not sec.has("accelerations")
            else np.asarray(sec.raw("accelerations"), float) * scale
        )
    try:
        return mo.Table(time, vals, rates, accs)
    except ValueError as exc:
        raise CaseError(str(exc), field=field) from None
