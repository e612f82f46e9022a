"""Fatigue post-processing of design-load cases: damage sums, short-term and lifetime DELs.

Sources:

* Rainflow counting: ASTM E1049-85 (2011) sec. 5.4.4, the three-point algorithm with the residue
  counted as half cycles; the counter is :func:`floatwind.studies.stats.rainflow` (one counter in
  the project), cross-checked against the ``fatpack`` and ``rainflow`` libraries in
  tests/test_dlc_fatigue_extremes.py.
* Damage: the Palmgren-Miner linear rule with a one-slope Wohler curve ``N(S) = K S^-m``
  (IEC 61400-1 ed.3 Annex G), ``D = sum_i n_i / N(S_i) = sum_i n_i S_i^m / K``. The functions
  here return the *damage sum* ``sum_i n_i S_i^m`` (``K`` left out: it cancels in an equivalent
  load), ``n_i`` 1 for a full cycle and 0.5 for a half cycle, ``S_i`` the cycle's range.
* Damage-equivalent load (DEL): the constant range that does the same damage in ``N_eq`` cycles,
  ``S_eq = (sum_i n_i S_i^m / N_eq)^(1/m)``; ``N_eq = f_eq T`` for an equivalent frequency.
* Lifetime: the runs of a DLC (IEC 61400-3-1 DLC 1.2, 6.4, ...) are grouped into bins of the
  environment (wind speed, sea state, direction), each with an occurrence probability ``P_b``
  and ``n_b`` seeds. A run ``r`` of bin ``b`` weighs ``w_r = P_b / n_b`` and the lifetime damage
  sum is ``D_L = sum_r w_r (T_L / T_r) d_r`` (IEC 61400-1 ed.3 Annex G: damage of each bin
  scaled by its share of the lifetime ``T_L``); ``DEL_L = (D_L / N_eq)^(1/m)``.

Everything is per channel and per Wohler exponent ``m`` (default :data:`DEFAULT_WOHLER`: 3 for
welded steel, 4 for steel towers and mooring, 10 for composite blades).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from floatwind.studies.stats import rainflow

__all__ = [
    "DEFAULT_N_EQ",
    "DEFAULT_WOHLER",
    "LIFETIME_20Y_S",
    "bin_weights",
    "damage_from_cycles",
    "damage_sum",
    "damage_table",
    "equivalent_cycles",
    "lifetime_del",
    "lifetime_table",
    "run_del",
]

#: default Wohler (S-N) exponents m: 3 welded steel, 4 steel (tower, mooring), 10 composites
DEFAULT_WOHLER: tuple[float, ...] = (3.0, 4.0, 10.0)

#: default number of equivalent cycles of a lifetime DEL, N_eq = 1e7 (the customary reference of
#: an S-N curve's knee; give ``n_eq`` or ``f_eq`` to use another)
DEFAULT_N_EQ: float = 1.0e7

#: a 20-year design life in seconds (IEC 61400-1: design life at least 20 years), 365.25 d a year
LIFETIME_20Y_S: float = 20.0 * 365.25 * 86400.0


# ---------------------------------------------------------------- checks


def _positive(name: str, value: float) -> float:
    v = float(value)
    if not (math.isfinite(v) and v > 0.0):
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return v


def _exponent(m: float) -> float:
    try:
        v = float(m)
    except (TypeError, ValueError):
        raise ValueError(f"m (Wohler exponent) must be a number > 0, got {m!r}") from None
    if not (math.isfinite(v) and v > 0.0):
        raise ValueError(f"m (Wohler exponent) must be a finite number > 0, got {m!r}")
    return v


def _exponents(m: float | Sequence[float]) -> tuple[float, ...]:
    ms = (m,) if np.isscalar(m) else tuple(m)  # type: ignore[arg-type]
    if not ms:
        raise ValueError("m (Wohler exponents) must not be empty")
    return tuple(_exponent(v) for v in ms)


def _series(x: Any, name: str = "x") -> np.ndarray:
    a = np.asarray(x, dtype=float)
    if a.ndim != 1:
        raise ValueError(f"{name} must be a 1-D series, got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} has non-finite values (NaN or inf)")
    return a


# ---------------------------------------------------------------- one series


def damage_from_cycles(cycles: np.ndarray, m: float) -> float:
    """Damage sum ``sum_i n_i S_i^m`` of rainflow cycles, rows (range, mean, count) as returned by
    :func:`floatwind.studies.stats.rainflow` (Palmgren-Miner, IEC 61400-1 ed.3 Annex G)."""
    c = np.asarray(cycles, dtype=float).reshape(-1, 3)
    return float(np.sum(c[:, 2] * c[:, 0] ** _exponent(m)))


def damage_sum(x: Any, m: float) -> float:
    """Damage sum ``sum_i n_i S_i^m`` of the 1-D series ``x``: rainflow ranges ``S_i`` (ASTM
    E1049-85, half cycles ``n_i = 0.5`` for the residue) and Wohler exponent ``m``."""
    return damage_from_cycles(rainflow(_series(x)), m)


def run_del(x: Any, m: float, duration_s: float, f_eq: float = 1.0) -> float:
    """Short-term damage-equivalent load range of one run,
    ``(damage_sum(x, m) / (f_eq duration_s))^(1/m)`` (``f_eq`` in Hz; 1 Hz by default, the
    ``stats.damage_equivalent_load`` convention)."""
    mm = _exponent(m)
    n_eq = _positive("f_eq", f_eq) * _positive("duration_s", duration_s)
    return float((damage_sum(x, mm) / n_eq) ** (1.0 / mm))


# ---------------------------------------------------------------- lifetime


def equivalent_cycles(
    lifetime_s: float | None = None, n_eq: float | None = None, f_eq: float | None = None
) -> float:
    """``N_eq`` of a lifetime DEL: ``n_eq`` when given, else ``f_eq * lifetime_s`` when ``f_eq`` is
    given, else :data:`DEFAULT_N_EQ` (1e7 cycles)."""
    if n_eq is not None and f_eq is not None:
        raise ValueError("give n_eq or f_eq, not both")
    if n_eq is not None:
        return _positive("n_eq", n_eq)
    if f_eq is not None:
        if lifetime_s is None:
            raise ValueError("f_eq needs lifetime_s")
        return _positive("f_eq", f_eq) * _positive("lifetime_s", lifetime_s)
    return DEFAULT_N_EQ


def bin_weights(bins: Sequence[Hashable], probability: Mapping[Hashable, float]) -> np.ndarray:
    """Per-run weights ``w_r = P_b / n_b`` from each run's bin label ``bins[r]`` and the bins'
    occurrence probabilities (``n_b``: the number of runs, i.e. seeds, in bin ``b``). The weights
    add up to the sum of the probabilities of the bins present."""
    labels = list(bins)
    if not labels:
        raise ValueError("bins must not be empty")
    counts = pd.Series(labels).value_counts()
    missing = [b for b in counts.index if b not in probability]
    if missing:
        raise ValueError(f"probability has no entry for bin(s) {missing[:5]}")
    w = np.empty(len(labels))
    for i, b in enumerate(labels):
        p = float(probability[b])
        if not (math.isfinite(p) and p >= 0.0):
            raise ValueError(f"probability of bin {b!r} must be finite and >= 0, got {p!r}")
        w[i] = p / counts[b]
    return w


def _weights(weights: Any, n: int, index: pd.Index | None) -> np.ndarray:
    if isinstance(weights, pd.Series) and index is not None:
        missing = index.difference(weights.index)
        if len(missing):
            raise ValueError(f"weights has no entry for run(s) {list(missing[:5])}")
        weights = weights.reindex(index)
    w = np.asarray(weights, dtype=float).reshape(-1)
    if w.size != n:
        raise ValueError(f"weights has {w.size} values for {n} runs")
    if not np.all(np.isfinite(w)) or np.any(w < 0.0):
        raise ValueError("weights must be finite and >= 0")
    return w


def _durations(run_duration_s: Any, n: int) -> np.ndarray:
    t = np.broadcast_to(np.asarray(run_duration_s, dtype=float), (n,)).astype(float)
    if not np.all(np.isfinite(t)) or np.any(t <= 0.0):
        raise ValueError(f"run_duration_s must be finite and > 0, got {run_duration_s!r}")
    return t


def lifetime_del(
    damage_sums: Any,
    weights: Any,
    run_duration_s: float | Sequence[float],
    lifetime_s: float,
    m: float | Mapping[Hashable, float] | None = None,
    *,
    n_eq: float | None = None,
    f_eq: float | None = None,
) -> float | pd.Series:
    """Lifetime damage-equivalent load ``(D_L / N_eq)^(1/m)`` with
    ``D_L = sum_r w_r (lifetime_s / T_r) d_r`` (Palmgren-Miner over the bins of the environment,
    IEC 61400-1 ed.3 Annex G).

    ``damage_sums``: the runs' damage sums ``d_r`` (:func:`damage_sum`, one Wohler exponent), a
    1-D array, or a DataFrame with one row per run and one column per channel (evaluated per
    column). ``weights``: each run's share of the lifetime, ``P_b / n_seeds_b``
    (:func:`bin_weights`); their sum is the fraction of the lifetime the runs stand for (1 for
    operation alone; the caller decides). A Series is aligned on the DataFrame's index.
    ``run_duration_s``: ``T_r``, one value or one per run (after the transient). ``m``: the Wohler
    exponent; for a DataFrame also a mapping column -> m, or None when the columns are a
    MultiIndex with a level named ``m`` (several exponents at once). ``N_eq``:
    :func:`equivalent_cycles` (``n_eq``; else ``f_eq * lifetime_s``; else 1e7).

    Returns a float for a 1-D input, else a Series indexed like the columns.
    """
    life = _positive("lifetime_s", lifetime_s)
    neq = equivalent_cycles(life, n_eq, f_eq)
    if isinstance(damage_sums, pd.DataFrame):
        d = damage_sums.to_numpy(dtype=float)
        n = d.shape[0]
        w = _weights(weights, n, damage_sums.index)
        scale = w * life / _durations(run_duration_s, n)
        cols = damage_sums.columns
        if m is None:
            if not (isinstance(cols, pd.MultiIndex) and "m" in cols.names):
                raise ValueError("m is needed unless the columns have a MultiIndex level 'm'")
            ms = np.array([_exponent(v) for v in cols.get_level_values("m")])
        elif isinstance(m, Mapping):
            missing = [c for c in cols if c not in m]
            if missing:
                raise ValueError(f"m has no exponent for column(s) {missing[:5]}")
            ms = np.array([_exponent(m[c]) for c in cols])
        else:
            ms = np.full(len(cols), _exponent(m))
        _check_damage(d)
        total = scale @ d
        return pd.Series((total / neq) ** (1.0 / ms), index=cols, name="del_life")
    if m is None or isinstance(m, Mapping):
        raise ValueError("m (Wohler exponent) must be one number for a 1-D damage_sums")
    mm = _exponent(m)
    d = np.asarray(damage_sums, dtype=float).reshape(-1)
    n = d.size
    if n == 0:
        raise ValueError("damage_sums must not be empty")
    _check_damage(d)
    index = damage_sums.index if isinstance(damage_sums, pd.Series) else None
    w = _weights(weights, n, index)
    total = float(np.sum(w * life / _durations(run_duration_s, n) * d))
    return float((total / neq) ** (1.0 / mm))


def _check_damage(d: np.ndarray) -> None:
    if d.size == 0:
        raise ValueError("damage_sums must not be empty")
    if not np.all(np.isfinite(d)) or np.any(d < 0.0):
        raise ValueError("damage_sums must be finite and >= 0")


# ---------------------------------------------------------------- tables


def _seconds(t: Any) -> np.ndarray:
    a = np.asarray(t)
    if np.issubdtype(a.dtype, np.timedelta64):
        return a / np.timedelta64(1, "s")
    return a.astype(float)


def _runs(
    data: Any, dt: float | None, channels: Sequence[str] | None
) -> Iterator[tuple[Hashable, np.ndarray, list[tuple[str, Any]]]]:
    """(run id, time in s, [(channel, loader of its series)]) per run, one run at a time."""
    try:
        import xarray as xr
    except ImportError:  # pragma: no cover - xarray is a dependency
        xr = None
    if xr is not None and isinstance(data, xr.Dataset):
        if "run" not in data.dims or "time" not in data.dims:
            raise ValueError("data must have dims (run, time)")
        names = (
            list(channels)
            if channels is not None
            else [n for n, v in data.data_vars.items() if set(v.dims) == {"run", "time"}]
        )
        for n in names:
            if n not in data.data_vars or set(data[n].dims) != {"run", "time"}:
                raise ValueError(f"channel {n!r} is not a (run, time) variable of data")
        t = _seconds(data["time"].values)
        for i, rid in enumerate(data["run"].values):
            yield (
                rid.item() if hasattr(rid, "item") else rid,
                t,
                [(n, lambda n=n, i=i: data[n].isel(run=i).transpose("time").values) for n in names],
            )
        return
    if not isinstance(data, Mapping):
        raise ValueError("data must be a dict {run: {channel: series}} or an xarray Dataset")
    for rid, chans in data.items():
        if not isinstance(chans, Mapping):
            raise ValueError(f"data[{rid!r}] must be a dict {{channel: series}}")
        names = list(channels) if channels is not None else [k for k in chans if k != "time"]
        for n in names:
            if n not in chans:
                raise ValueError(f"run {rid!r} has no channel {n!r}")
        if "time" in chans:
            t = _seconds(chans["time"])
        elif dt is not None:
            size = np.asarray(chans[names[0]]).shape[0] if names else 0
            t = np.arange(size) * _positive("dt", dt)
        else:
            raise ValueError(f"run {rid!r}: give dt or a 'time' series")
        yield rid, t, [(n, lambda n=n, c=chans: c[n]) for n in names]


def damage_table(
    data: Any,
    m: float | Sequence[float] = DEFAULT_WOHLER,
    *,
    transient_s: float = 0.0,
    dt: float | None = None,
    f_eq: float = 1.0,
    channels: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Per-run damage sums and short-term DELs, one row per (run, channel, m).

    ``data``: a dict ``{run_id: {channel: 1-D series}}`` (each run's dict may hold a ``time``
    series in s; else give ``dt``) or an xarray Dataset with dims (run, time), whose (run, time)
    variables are the channels (or those named in ``channels``). The first ``transient_s``
    seconds of every run are dropped (samples with ``t >= t_0 + transient_s`` are kept);
    ``duration_s`` is then ``t_last - t_first`` of the kept samples (the ``stats.del_``
    convention). One series is in memory at a time: it is counted once (ASTM E1049-85) and
    evaluated for every ``m``.

    Columns: run, channel, m, duration_s, n_cycles (full + half counts), damage_sum
    (``sum n_i S_i^m``), del (``(damage_sum / (f_eq duration_s))^(1/m)``, :func:`run_del`).
    """
    ms = _exponents(m)
    if not (math.isfinite(float(transient_s)) and float(transient_s) >= 0.0):
        raise ValueError(f"transient_s must be finite and >= 0, got {transient_s!r}")
    feq = _positive("f_eq", f_eq)
    rows: list[tuple[Any, str, float, float, float, float, float]] = []
    for rid, t, loaders in _runs(data, dt, channels):
        if t.size == 0:
            raise ValueError(f"run {rid!r} has no samples")
        keep = t >= t[0] + float(transient_s)
        if np.count_nonzero(keep) < 2:
            raise ValueError(f"run {rid!r}: fewer than 2 samples after transient_s={transient_s}")
        tk = t[keep]
        duration = float(tk[-1] - tk[0])
        if not duration > 0.0:
            raise ValueError(f"run {rid!r}: the time after transient_s is not increasing")
        for name, load in loaders:
            x = np.asarray(load(), dtype=float)
            if x.shape != t.shape:
                raise ValueError(
                    f"run {rid!r}, channel {name!r}: {x.shape} samples, time {t.shape}"
                )
            cyc = rainflow(_series(x[keep], name=f"run {rid!r}, channel {name!r}"))
            n_cyc = float(cyc[:, 2].sum())
            for mm in ms:
                d = damage_from_cycles(cyc, mm)
                rows.append((rid, name, mm, duration, n_cyc, d, (d / (feq * duration)) ** (1 / mm)))
    return pd.DataFrame(
        rows, columns=["run", "channel", "m", "duration_s", "n_cycles", "damage_sum", "del"]
    )


def lifetime_table(
    table: pd.DataFrame,
    weights: Mapping[Hashable, float] | pd.Series,
    lifetime_s: float,
    *,
    n_eq: float | None = None,
    f_eq: float | None = None,
) -> pd.DataFrame:
    """Lifetime DELs per (channel, m) from a :func:`damage_table` and per-run ``weights``
    (run id -> ``P_b / n_seeds_b``, :func:`bin_weights`): ``D_L = sum_r w_r (lifetime_s /
    duration_s_r) damage_sum_r``, ``del_life = (D_L / N_eq)^(1/m)`` (:func:`lifetime_del`).

    Columns: channel, m, n_runs, weight_sum, damage_life (``D_L``), n_eq, del_life.
    """
    need = {"run", "channel", "m", "duration_s", "damage_sum"}
    if not need <= set(table.columns):
        raise ValueError(f"table needs the columns {sorted(need)}")
    life = _positive("lifetime_s", lifetime_s)
    neq = equivalent_cycles(life, n_eq, f_eq)
    w = pd.Series(weights, dtype=float) if not isinstance(weights, pd.Series) else weights
    missing = sorted(set(table["run"]) - set(w.index), key=str)
    if missing:
        raise ValueError(f"weights has no entry for run(s) {missing[:5]}")
    wr = w.reindex(table["run"]).to_numpy(dtype=float)
    if not np.all(np.isfinite(wr)) or np.any(wr < 0.0):
        raise ValueError("weights must be finite and >= 0")
    dur = table["duration_s"].to_numpy(dtype=float)
    if not np.all(np.isfinite(dur)) or np.any(dur <= 0.0):
        raise ValueError("duration_s must be finite and > 0")
    d = table["damage_sum"].to_numpy(dtype=float)
    _check_damage(d)
    for mm in pd.unique(table["m"]):
        _exponent(mm)
    work = pd.DataFrame(
        {
            "channel": table["channel"].to_numpy(),
            "m": table["m"].to_numpy(dtype=float),
            "w": wr,
            "contrib": wr * life / dur * d,
        }
    )
    g = work.groupby(["channel", "m"], sort=False)
    out = pd.DataFrame(
        {
            "n_runs": g.size(),
            "weight_sum": g["w"].sum(),
            "damage_life": g["contrib"].sum(),
        }
    ).reset_index()
    out["n_eq"] = neq
    out["del_life"] = (out["damage_life"] / neq) ** (1.0 / out["m"])
    return out
