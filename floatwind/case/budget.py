"""The memory a run would need, estimated from its settings before anything is allocated.

A case with ``t_max: 1e12`` or ``dt_out: 1e-9`` used to try to allocate terabytes and stop with an
internal error. :func:`check_run_memory` estimates, from the settings and the raw environment
mapping alone (before the sea, the wind field or the output arrays exist):

* the recorded states: output times x members x 12 states (float64), twice (the recording and
  its valid copy);
* the output channels while the Dataset is built: output times x members x ~200 channels, twice
  (the per-block pieces and the joined array);
* an irregular sea: its Fourier components (band width x duration / 2 pi) per realization, about
  a dozen float64 / complex arrays each;
* a generated Kaimal wind field: time steps x ny x nz x 3 components per realization.

A run whose estimate exceeds the machine's physical memory is refused with a :class:`CaseError`
naming the field that drives it and the estimate.
"""

from __future__ import annotations

import math
import os

from floatwind.errors import CaseError

#: output channels assumed while the Dataset is built (a 3-body turbine writes ~200)
OUTPUT_CHANNELS = 200
#: bytes per wave component and realization (complex amplitude, wave number, headings, depth
#: factors and the kinematics' work arrays)
WAVE_COMPONENT_BYTES = 12 * 16


def physical_memory() -> int:
    """Bytes of physical memory (4 GiB if the system does not say)."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        return 4 * 2**30


def _gb(b: float) -> str:
    for unit, size in (("PB", 1e15), ("TB", 1e12), ("GB", 1e9)):
        if b >= size:
            return f"{b / size:.3g} {unit}"
    return f"{b / 1e6:.3g} MB"


def _num(d, key, default):
    v = d.get(key, default) if isinstance(d, dict) else default
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else float(default)


def memory_estimate(settings, batch: int, env_cfg=None) -> dict[str, tuple[float, str]]:
    """Parts of the estimate: ``{name: (bytes, field that drives it)}``."""
    t_max, dt_out = float(settings.t_max), float(settings.dt_out)
    n_out = t_max / dt_out + 2
    out_field = "simulation.dt_out" if dt_out < 0.05 else "simulation.t_max"
    parts = {
        "recorded states": (2.0 * n_out * batch * 12 * 8, out_field),
        "output channels": (2.0 * n_out * batch * OUTPUT_CHANNELS * 8, out_field),
    }
    from floatwind.validate import canonical_keys as _new  # the raw YAML may use old spellings

    env = env_cfg if isinstance(env_cfg, dict) else {}
    waves = _new(env.get("waves"))
    if isinstance(waves, dict) and waves.get("kind", "still") in ("jonswap", "pierson_moskowitz", "pm"):
        tp = _num(waves, "tp", 10.0)
        wmax = _num(waves, "omega_max", 6.0 * 2 * math.pi / max(tp, 1e-3))
        wmin = _num(waves, "omega_min", 0.0)
        period = _num(waves, "repeat_period", t_max)
        n_comp = max(wmax - wmin, 0.0) * max(period, t_max) / (2 * math.pi)
        parts["wave components"] = (n_comp * batch * WAVE_COMPONENT_BYTES, "simulation.t_max")
    wind = _new(env.get("wind"))
    if isinstance(wind, dict) and wind.get("kind") == "kaimal":
        dt = _num(wind, "dt", 0.25)
        nt = (t_max + _num(wind, "width", 150.0) / max(_num(wind, "speed", 10.0), 0.1)) / dt
        size = nt * _num(wind, "ny", 13) * _num(wind, "nz", 13) * 3 * 8 * batch
        parts["wind field"] = (size, "environment.wind.dt" if dt < 0.05 else "simulation.t_max")
    return parts


def check_run_memory(settings, batch: int, env_cfg=None, *, limit: float | None = None) -> float:
    """Refuse (CaseError naming the field) a run whose estimate exceeds physical memory; return
    the estimate in bytes."""
    parts = memory_estimate(settings, batch, env_cfg)
    total = sum(b for b, _ in parts.values())
    limit = physical_memory() if limit is None else limit
    if total > limit:
        name, (big, field) = max(parts.items(), key=lambda kv: kv[1][0])
        raise CaseError(
            f"the run would need about {_gb(total)} of memory ({name} {_gb(big)}: t_max "
            f"{settings.t_max:g} s, dt_out {settings.dt_out:g} s, {batch} member(s)), more than "
            f"this machine's {_gb(limit)}",
            field=field,
        )
    return total
