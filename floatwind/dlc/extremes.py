"""Extreme (ultimate) loads of design-load cases over seeds, partial safety factors, design values.

A load condition of a DLC (one wind speed, sea state, yaw error, ...: a *group*) is simulated
with several seeds; each seed gives the maximum (and minimum) of every channel. This module turns
those per-seed extremes into a characteristic value with a confidence interval, applies the
partial safety factor for loads ``gamma_f`` of the DLC's design situation and picks the governing
DLC per channel.

Characteristic value, :func:`characteristic_extreme`:

* ``"mean"``: the mean of the seed maxima, the rule of IEC 61400-1 (ed.3 and ed.4) and
  IEC 61400-3-1 for ultimate DLCs with turbulent inflow simulated with at least six
  realizations (DLC 1.1 aside, which uses statistical extrapolation); interval: Student-t of the
  mean (``stats.mean_ci``).
* ``"gumbel"``: an EV-I fit of the seed maxima by the method of moments
  (``stats.gumbel_fit``); the value is the ``probability`` quantile of the maximum over one
  analysis window (the simulated length of a seed, e.g. 10 min or 1 h); default 0.5, the
  median. Interval: parametric bootstrap.
* ``"gev"``: a generalized-extreme-value fit by maximum likelihood (``scipy.stats.genextreme``;
  scipy's shape ``c`` is ``-xi``), same quantile; interval: parametric bootstrap.

Minima (the negative extremes of a channel) are handled by negation (``sign=-1``).

Partial safety factors: IEC 61400-1 ed.3 (2005) Table 3 with the design situation of each DLC
from its Table 2 and the offshore DLCs of IEC 61400-3 ed.1 / IEC 61400-3-1 Table 1.
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Collection, Mapping
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas as pd

from floatwind.studies.stats import EULER_GAMMA, gumbel_fit, gumbel_quantile, mean_ci

__all__ = [
    "BOOTSTRAP_SEED",
    "DLC_TYPES",
    "GAMMA_F",
    "GAMMA_F_DLC11_EXTRAPOLATED",
    "GAMMA_F_FATIGUE",
    "GAMMA_F_FAVOURABLE",
    "METHODS",
    "TABLE_COLUMNS",
    "ExtremeEstimate",
    "characteristic_extreme",
    "characteristic_minimum",
    "dlc_type",
    "extremes_table",
    "governing",
    "partial_safety_factor",
]

METHODS = ("mean", "gumbel", "gev")

#: seed of the numpy Generator of the bootstrap intervals (the same numbers on every call)
BOOTSTRAP_SEED = 61400

#: bootstrap resamples by default: the Gumbel refit is a vectorised moment fit (cheap); a GEV
#: refit is a maximum-likelihood fit (~5-10 ms each), hence fewer
_N_BOOT = {"gumbel": 2000, "gev": 200}

# ---------------------------------------------------------------- partial safety factors

#: partial safety factor for loads gamma_f, unfavourable loads, per type of design situation:
#: IEC 61400-1 ed.3 (2005) Table 3 (N normal, A abnormal, T transport and erection)
GAMMA_F: dict[str, float] = {"N": 1.35, "A": 1.1, "T": 1.5}

#: Table 3 footnote: DLC 1.1 when its loads come from statistical load extrapolation at the wind
#: speeds between V_in and V_out
GAMMA_F_DLC11_EXTRAPOLATED = 1.25

#: Table 3, favourable loads, all design situations: applied by :func:`design_value` where the
#: unfavourable factor would move an extreme toward the safe side (a positive minimum, e.g. the
#: minimum of a line tension, or a negative maximum)
GAMMA_F_FAVOURABLE = 0.9

#: fatigue: gamma_f = 1.0 for loads (IEC 61400-1 ed.3 sec. 7.6.3); the fatigue DLCs have no
#: ultimate-load factor
GAMMA_F_FATIGUE = 1.0

#: DLC -> (type of analysis, design situation): "U" ultimate with "N" normal, "A" abnormal, "T"
#: transport/erection; "F" fatigue (no ultimate factor). IEC 61400-1 ed.3 (2005) Table 2, plus the
#: offshore DLC 1.6 (severe sea state, U, N) of IEC 61400-3 ed.1 (2009) / IEC 61400-3-1 (2019)
#: Table 1, whose other DLC numbers keep the onshore analysis type and situation.
DLC_TYPES: dict[str, tuple[str, str | None]] = {
    "1.1": ("U", "N"),  # NTM, extrapolated extreme (gamma_f 1.25 when extrapolated)
    "1.2": ("F", None),  # NTM, fatigue
    "1.3": ("U", "N"),  # ETM
    "1.4": ("U", "N"),  # ECD
    "1.5": ("U", "N"),  # EWS
    "1.6": ("U", "N"),  # NTM + severe sea state (offshore)
    "2.1": ("U", "N"),  # control system fault / loss of electrical network
    "2.2": ("U", "A"),  # protection system or preceding internal electrical fault
    "2.3": ("U", "A"),  # EOG + external or internal electrical fault
    "2.4": ("F", None),  # NTM + fault, fatigue
    "3.1": ("F", None),  # start up, NWP
    "3.2": ("U", "N"),  # start up, EOG
    "3.3": ("U", "N"),  # start up, EDC
    "4.1": ("F", None),  # normal shutdown, NWP
    "4.2": ("U", "N"),  # normal shutdown, EOG
    "5.1": ("U", "N"),  # emergency shutdown, NTM
    "6.1": ("U", "N"),  # parked, EWM 50-year
    "6.2": ("U", "A"),  # parked, EWM 50-year + loss of electrical network
    "6.3": ("U", "N"),  # parked, EWM 1-year + extreme yaw misalignment
    "6.4": ("F", None),  # parked, NTM, fatigue
    "7.1": ("U", "A"),  # parked and fault, EWM 1-year
    "7.2": ("F", None),  # parked and fault, NTM, fatigue
    "8.1": ("U", "T"),  # transport, assembly, maintenance and repair
    "8.2": ("U", "A"),  # EWM 1-year, locked
}

_DLC_RE = re.compile(r"(\d+\.\d+)")


def _dlc_key(dlc: Any) -> str:
    m = _DLC_RE.search(str(dlc))
    if m is None:
        raise ValueError(f"dlc {dlc!r} is not a DLC number such as '6.1' or 'DLC 1.6a'")
    return m.group(1)


def dlc_type(dlc: Any) -> tuple[str, str | None]:
    """(analysis, situation) of a DLC (``"6.1"``, ``"DLC 1.6a"``, ...): :data:`DLC_TYPES`."""
    key = _dlc_key(dlc)
    if key not in DLC_TYPES:
        raise ValueError(f"dlc {dlc!r}: not in DLC_TYPES (IEC 61400-1 ed.3 Table 2)")
    return DLC_TYPES[key]


def partial_safety_factor(
    dlc: Any, factor: float | None = None, *, extrapolated: bool = False
) -> float:
    """Partial safety factor for the unfavourable ultimate loads of ``dlc``.

    ``factor`` (e.g. given in the DLC file) overrides the default. Otherwise IEC 61400-1 ed.3
    Table 3 for the DLC's design situation (:data:`DLC_TYPES`): N 1.35, A 1.1, T 1.5, and 1.25 for
    DLC 1.1 with ``extrapolated`` loads. A fatigue DLC (type F) has no ultimate factor: NaN.
    """
    if factor is not None:
        f = float(factor)
        if not (math.isfinite(f) and f > 0.0):
            raise ValueError(
                f"factor (partial safety factor) must be finite and > 0, got {factor!r}"
            )
        return f
    try:
        analysis, situation = dlc_type(dlc)
    except ValueError as e:
        raise ValueError(f"{e}; give factor explicitly") from None
    if extrapolated:
        if _dlc_key(dlc) != "1.1":
            raise ValueError(f"extrapolated applies to DLC 1.1 only, not dlc {dlc!r}")
        return GAMMA_F_DLC11_EXTRAPOLATED
    if analysis == "F":
        return math.nan
    assert situation is not None
    return GAMMA_F[situation]


# ---------------------------------------------------------------- characteristic values


@dataclass(frozen=True)
class ExtremeEstimate:
    """Characteristic extreme of one channel and load condition with its ``level`` interval."""

    value: float
    lo: float
    hi: float
    n: int
    method: str
    level: float
    probability: float | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _maxima(maxima: Any) -> np.ndarray:
    v = np.asarray(maxima, dtype=float).reshape(-1)
    if v.size == 0:
        raise ValueError("maxima must not be empty")
    if not np.all(np.isfinite(v)):
        raise ValueError("maxima has non-finite values (NaN or inf)")
    return v


def _percentile_ci(boot: np.ndarray, level: float) -> tuple[float, float]:
    b = boot[np.isfinite(boot)]
    if b.size < max(10, boot.size // 2):  # too many refits failed: no interval
        return math.nan, math.nan
    lo, hi = np.quantile(b, [0.5 * (1.0 - level), 0.5 * (1.0 + level)])
    return float(lo), float(hi)


def _gumbel(
    v: np.ndarray, p: float, level: float, n_boot: int, seed: int
) -> tuple[float, float, float]:
    # method of moments: beta = s sqrt(6)/pi, mu = mean - gamma beta; quantile mu - beta ln(-ln p)
    mu, beta = gumbel_fit(v)
    value = gumbel_quantile(mu, beta, p)
    # parametric bootstrap: n_boot samples of n from the fitted EV-I, refitted the same way
    rng = np.random.default_rng(seed)
    sims = rng.gumbel(mu, beta, size=(n_boot, v.size))
    b = sims.std(axis=1, ddof=1) * math.sqrt(6.0) / math.pi
    q = sims.mean(axis=1) - EULER_GAMMA * b - b * math.log(-math.log(p))
    lo, hi = _percentile_ci(q, level)
    return value, lo, hi


def _gev(
    v: np.ndarray, p: float, level: float, n_boot: int, seed: int
) -> tuple[float, float, float]:
    from scipy.stats import genextreme

    if np.ptp(v) == 0.0:
        raise ValueError("maxima are all equal: no GEV fit")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        c, loc, scale = genextreme.fit(v)
        value = float(genextreme.ppf(p, c, loc, scale))
        rng = np.random.default_rng(seed)
        sims = genextreme.rvs(c, loc, scale, size=(n_boot, v.size), random_state=rng)
        q = np.full(n_boot, np.nan)
        for i in range(n_boot):
            try:  # started from the point fit: faster, and the same optimum when it is unique
                ci, li, si = genextreme.fit(sims[i], c, loc=loc, scale=scale)
                q[i] = genextreme.ppf(p, ci, li, si)
            except (ValueError, RuntimeError, FloatingPointError):
                continue
    lo, hi = _percentile_ci(q, level)
    return value, lo, hi


def characteristic_extreme(
    maxima: Any,
    method: str = "mean",
    level: float = 0.95,
    probability: float | None = None,
    *,
    sign: int = 1,
    n_boot: int | None = None,
    seed: int = BOOTSTRAP_SEED,
) -> ExtremeEstimate:
    """Characteristic extreme of a channel for one DLC load condition from its per-seed extremes.

    ``maxima``: the maximum of each seed (``sign=-1``: the minimum of each seed; the estimate is
    made on the negated values and negated back, so the interval still reads lo <= hi).
    ``method``: ``"mean"`` (mean of the seed maxima, IEC 61400-1 / 61400-3-1 for turbulent
    inflow with >= 6 seeds; Student-t interval of the mean at ``level``, NaN for one seed),
    ``"gumbel"`` (EV-I by moments, ``stats.gumbel_fit``) or ``"gev"`` (``genextreme.fit``): the
    ``probability`` quantile of the maximum over one seed's analysis window, default 0.5 (the
    median), with a percentile interval from a parametric bootstrap of ``n_boot`` resamples
    (default 2000 for gumbel, 200 for gev) drawn by ``numpy.random.default_rng(seed)``:
    deterministic. ``probability`` is only for gumbel and gev.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if sign not in (1, -1):
        raise ValueError(f"sign must be 1 (maxima) or -1 (minima), got {sign!r}")
    lev = float(level)
    if not (0.0 < lev < 1.0):
        raise ValueError(f"level must be in (0, 1), got {level!r}")
    v = sign * _maxima(maxima)
    n = v.size
    if method == "mean":
        if probability is not None:
            raise ValueError("probability applies to method 'gumbel' or 'gev', not 'mean'")
        mu, _, lo, hi, _ = mean_ci(v, lev)  # Student-t: mean -+ t_{n-1} s / sqrt(n)
        value, p = mu, None
    else:
        p = 0.5 if probability is None else float(probability)
        if not (0.0 < p < 1.0):
            raise ValueError(f"probability must be in (0, 1), got {probability!r}")
        nb = _N_BOOT[method] if n_boot is None else int(n_boot)
        if nb < 10:
            raise ValueError(f"n_boot must be >= 10, got {n_boot!r}")
        need = 2 if method == "gumbel" else 3
        if n < need:
            raise ValueError(f"maxima: method {method!r} needs at least {need} values, got {n}")
        fit = _gumbel if method == "gumbel" else _gev
        value, lo, hi = fit(v, p, lev, nb, seed)
    if sign == -1:
        value, lo, hi = -value, -hi, -lo
    return ExtremeEstimate(float(value), float(lo), float(hi), int(n), method, lev, p)


def characteristic_minimum(minima: Any, **kwargs: Any) -> ExtremeEstimate:
    """:func:`characteristic_extreme` of per-seed minima (``sign=-1``)."""
    return characteristic_extreme(minima, sign=-1, **kwargs)


# ---------------------------------------------------------------- tables

_SIDES = {"max": 1, "min": -1}

TABLE_COLUMNS = [
    "dlc",
    "group",
    "channel",
    "side",
    "analysis",
    "situation",
    "method",
    "probability",
    "n",
    "characteristic",
    "ci_low",
    "ci_high",
    "safety_factor",
    "design",
]


def _group_settings(groups: Any) -> dict[Any, dict[str, Any]]:
    if groups is None:
        return {}
    if isinstance(groups, Mapping):
        return {k: dict(v) for k, v in groups.items()}
    if isinstance(groups, pd.DataFrame):
        g = groups if "group" not in groups.columns else groups.set_index("group")
        if g.index.has_duplicates:
            raise ValueError("groups has duplicate group names")
        return {
            k: {c: val for c, val in row.items() if not (np.isscalar(val) and pd.isna(val))}
            for k, row in g.to_dict(orient="index").items()
        }
    raise ValueError("groups must be None, a DataFrame with a 'group' column, or a dict")


def extremes_table(
    per_run: pd.DataFrame,
    groups: pd.DataFrame | Mapping[Any, Mapping[str, Any]] | None = None,
    *,
    channels: Collection[str] | None = None,
    method: str = "mean",
    level: float = 0.95,
    probability: float | None = None,
    factors: Mapping[str, float] | None = None,
    extrapolated: Collection[str] = (),
    n_boot: int | None = None,
    seed: int = BOOTSTRAP_SEED,
) -> pd.DataFrame:
    """Characteristic and design extremes per (dlc, group, channel, side).

    ``per_run``: one row per run with columns ``dlc``, ``group`` (the load condition its seeds
    share, e.g. ``"6.1_ws50_yaw-8"``), optionally ``seed`` (checked for duplicates within a group)
    and ``status`` (only ``"ok"`` rows are used, as in ``stats.results_table``), and for every
    channel ``<channel>.max`` and/or ``<channel>.min`` (the per-run extremes, e.g. from
    ``stats.run_statistics(ds, ["max", "min"])``). ``channels`` restricts the channels.

    Settings: ``method``, ``level``, ``probability``, ``n_boot``, ``seed`` as in
    :func:`characteristic_extreme`. Partial safety factor (:func:`partial_safety_factor`), first
    that applies: a group's own ``safety_factor``; ``factors[dlc]`` (the DLC file's factor);
    the IEC 61400-1 ed.3 Table 3 default (DLCs listed in ``extrapolated``: 1.25 for 1.1).
    ``groups`` (optional; a DataFrame with a ``group`` column or a dict group -> settings) gives
    per-group ``safety_factor``, ``method`` and ``probability`` that override the arguments.

    Columns: dlc, group, channel, side (max/min), analysis (U/F), situation (N/A/T), method,
    probability, n (seeds), characteristic, ci_low, ci_high, safety_factor, design
    (``safety_factor * characteristic``; NaN for a fatigue DLC, which has no ultimate factor).
    """
    for col in ("dlc", "group"):
        if col not in per_run.columns:
            raise ValueError(f"per_run needs a {col!r} column")
    ok = per_run[per_run["status"] == "ok"] if "status" in per_run.columns else per_run
    cols: list[tuple[str, str, str]] = []
    for c in ok.columns:
        ch, _, side = str(c).rpartition(".")
        if side in _SIDES and ch and (channels is None or ch in channels):
            cols.append((c, ch, side))
    if channels is not None:
        missing = sorted(set(channels) - {ch for _, ch, _ in cols})
        if missing:
            raise ValueError(f"per_run has no '<channel>.max' / '.min' column for {missing}")
    if not cols:
        raise ValueError("per_run has no '<channel>.max' or '<channel>.min' column")
    cols.sort(key=lambda t: (t[1], t[2] != "max"))
    settings = _group_settings(groups)
    extra = {str(d) for d in extrapolated}
    rows: list[dict[str, Any]] = []
    for (dlc, grp), runs in ok.groupby(["dlc", "group"], sort=False):
        if "seed" in runs.columns and runs["seed"].duplicated().any():
            dup = runs["seed"][runs["seed"].duplicated()].tolist()
            raise ValueError(f"group {grp!r} has duplicate seed(s) {dup[:5]}")
        s = settings.get(grp, {})
        meth = str(s.get("method", method))
        prob = s.get("probability", probability)
        fac = s.get("safety_factor", None if factors is None else factors.get(str(dlc)))
        try:
            analysis, situation = dlc_type(dlc)
        except ValueError:
            if fac is None:
                raise ValueError(
                    f"dlc {dlc!r} (group {grp!r}) has no default partial safety factor: give it "
                    "in factors or groups"
                ) from None
            analysis, situation = "U", None
        gamma = partial_safety_factor(dlc, fac, extrapolated=fac is None and str(dlc) in extra)
        for col, ch, side in cols:
            try:
                est = characteristic_extreme(
                    runs[col].to_numpy(dtype=float),
                    meth,
                    level,
                    None if meth == "mean" else prob,
                    sign=_SIDES[side],
                    n_boot=n_boot,
                    seed=seed,
                )
            except ValueError as e:
                raise ValueError(f"dlc {dlc!r}, group {grp!r}, column {col!r}: {e}") from None
            design, applied = design_value(est.value, gamma, side)
            rows.append(
                {
                    "dlc": dlc,
                    "group": grp,
                    "channel": ch,
                    "side": side,
                    "analysis": analysis,
                    "situation": situation,
                    "method": est.method,
                    "probability": est.probability,
                    "n": est.n,
                    "characteristic": est.value,
                    "ci_low": est.lo,
                    "ci_high": est.hi,
                    "safety_factor": applied,
                    "design": design,
                }
            )
    return pd.DataFrame(rows, columns=TABLE_COLUMNS)


def design_value(characteristic: float, gamma: float, side: str) -> tuple[float, float]:
    """(design value, factor applied) of a characteristic extreme on ``side`` ("max"/"min").

    The unfavourable direction of a maximum is up and of a minimum down. ``gamma`` (> 1) pushes
    a positive maximum or a negative minimum further that way (IEC 61400-1 ed.3 Table 3,
    unfavourable loads); for a negative maximum or a positive minimum (a slack-line check of a
    tension minimum) it would move the value toward the safe side, so the favourable factor
    0.9 of the same table is applied instead."""
    if not np.isfinite(gamma):
        return float("nan"), gamma
    away = characteristic >= 0.0 if side == "max" else characteristic <= 0.0
    g = gamma if away else GAMMA_F_FAVOURABLE
    return g * characteristic, g


def governing(table: pd.DataFrame, by: str = "abs") -> pd.DataFrame:
    """The governing row per (channel, side) of an :func:`extremes_table`: the largest
    ``|design|`` (``by="abs"``), or for ``by="signed"`` the largest design value of a ``max``
    side and the smallest of a ``min`` side. Rows without a design value (fatigue DLCs) are left
    out. One row per (channel, side), with its dlc and group."""
    if by not in ("abs", "signed"):
        raise ValueError(f"by must be 'abs' or 'signed', got {by!r}")
    t = table[np.isfinite(table["design"].to_numpy(dtype=float))]
    if by == "abs":
        key = t["design"].abs()
    else:
        key = t["design"].where(t["side"] == "max", -t["design"])
    idx = key.groupby([t["channel"], t["side"]], sort=True).idxmax()
    return t.loc[idx.to_numpy()].reset_index(drop=True)
