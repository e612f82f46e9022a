"""Statistics of study outputs on xarray: moments, extremes, spectra, rainflow and DELs.

Functions take a DataArray with a ``time`` dimension (any other dims are kept) and reduce over
time. Rainflow counting is written here (ASTM E1049-85 three-point algorithm on the turning
points, half cycles for the residue), checked against the ASTM textbook series in the tests.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import xarray as xr

EULER_GAMMA = 0.5772156649015329


# ---------------------------------------------------------------- moments


def _after(x: xr.DataArray, transient: float) -> xr.DataArray:
    return x.sel(time=x.time >= x.time[0] + transient) if transient > 0 else x


def mean(x: xr.DataArray, dim: str = "time") -> xr.DataArray:
    return x.mean(dim)


def std(x: xr.DataArray, dim: str = "time") -> xr.DataArray:
    """Standard deviation of the process (population, ddof = 0, as a variance of the record)."""
    return x.std(dim)


def quantile(x: xr.DataArray, q, dim: str = "time") -> xr.DataArray:
    return x.quantile(q, dim=dim)


def upcrossing_rate(x: xr.DataArray, level: float | xr.DataArray | None = None) -> xr.DataArray:
    """Up-crossings of ``level`` (default: the mean) per second, over ``time``."""
    lev = x.mean("time") if level is None else level
    d = (x - lev).transpose(..., "time").values
    up = (d[..., :-1] < 0) & (d[..., 1:] >= 0)
    t = x.time.values
    rate = up.sum(axis=-1) / (t[-1] - t[0])
    dims = [dm for dm in x.transpose(..., "time").dims if dm != "time"]
    return xr.DataArray(
        rate, dims=dims, coords={k: v for k, v in x.coords.items() if "time" not in v.dims}
    )


# ---------------------------------------------------------------- extremes


def gumbel_fit(maxima: np.ndarray) -> tuple[float, float]:
    """Gumbel (EV-I) location and scale of sample maxima by the method of moments:
    ``beta = s sqrt(6) / pi``, ``mu = mean - gamma beta`` (s: sample std, ddof = 1)."""
    m = np.asarray(maxima, dtype=float)
    m = m[np.isfinite(m)]
    if m.size < 2:
        raise ValueError("a Gumbel fit needs at least 2 maxima")
    beta = np.std(m, ddof=1) * math.sqrt(6.0) / math.pi
    return float(np.mean(m) - EULER_GAMMA * beta), float(beta)


def gumbel_quantile(mu: float, beta: float, p: float) -> float:
    """Value not exceeded with probability ``p`` by the short-term maximum."""
    return float(mu - beta * math.log(-math.log(p)))


def short_term_extreme(
    x: xr.DataArray, dim: str = "realization", p: float = 0.9, sign: int = 1
) -> dict[str, float]:
    """Short-term extreme from the per-realization maxima (``sign=-1``: minima) of ``x``.

    Returns the Gumbel fit (mu, beta), the most probable maximum (= mu), the expected maximum
    (mu + gamma beta) and the ``p``-quantile.
    """
    m = sign * (sign * x).max("time").values.ravel() if dim else x.max("time").values.ravel()
    mu, beta = gumbel_fit(sign * m)
    return {
        "mu": sign * mu,
        "beta": beta,
        "mpm": sign * mu,
        "expected": sign * (mu + EULER_GAMMA * beta),
        f"p{p:g}": sign * gumbel_quantile(mu, beta, p),
    }


# ---------------------------------------------------------------- spectra


def welch_psd(x: xr.DataArray, nperseg_s: float = 600.0, detrend: str = "constant") -> xr.DataArray:
    """One-sided power spectral density by Welch's method (scipy), dims (..., frequency) in Hz."""
    from scipy.signal import welch

    t = x.time.values
    fs = 1.0 / float(np.median(np.diff(t)))
    xt = x.transpose(..., "time")
    nper = min(int(round(nperseg_s * fs)), xt.sizes["time"])
    f, p = welch(xt.values, fs=fs, nperseg=nper, detrend=detrend, axis=-1)
    dims = [d for d in xt.dims if d != "time"] + ["frequency"]
    coords = {k: v for k, v in x.coords.items() if "time" not in v.dims}
    coords["frequency"] = xr.Variable("frequency", f, {"units": "Hz"})
    units = x.attrs.get("units", "1")
    return xr.DataArray(p, dims=dims, coords=coords, attrs={"units": f"({units})^2/Hz"})


# ---------------------------------------------------------------- rainflow


def turning_points(x: np.ndarray) -> np.ndarray:
    """Peaks and valleys of a 1-D series (plateaus collapsed; first and last points kept)."""
    x = np.asarray(x, dtype=float)
    x = x[np.concatenate([[True], np.diff(x) != 0])] if x.size else x
    if x.size < 3:
        return x
    d = np.diff(x)
    keep = np.concatenate([[True], d[1:] * d[:-1] < 0, [True]])
    return x[keep]


def rainflow(x: np.ndarray) -> np.ndarray:
    """Rainflow cycles of a 1-D load history (ASTM E1049-85, sec. 5.4.4).

    Returns an array of rows (range, mean, count) with count 1.0 for full cycles and 0.5 for the
    half cycles of the residue. Compiled (``floatwind._kernels.stats``) when the kernels are
    enabled; this loop is the reference.
    """
    from floatwind import _kernels

    if _kernels.enabled():
        from floatwind._kernels.stats import rainflow_turning

        return rainflow_turning(_kernels.f64(turning_points(x)))
    stack: list[float] = []
    out: list[tuple[float, float, float]] = []
    for p in turning_points(x):
        stack.append(p)
        while len(stack) >= 3:
            X = abs(stack[-1] - stack[-2])
            Y = abs(stack[-2] - stack[-3])
            if X < Y:
                break
            if len(stack) == 3:
                out.append((Y, 0.5 * (stack[-2] + stack[-3]), 0.5))
                stack.pop(0)
            else:
                out.append((Y, 0.5 * (stack[-2] + stack[-3]), 1.0))
                last = stack.pop()
                stack.pop()
                stack.pop()
                stack.append(last)
    for a, b in zip(stack[:-1], stack[1:], strict=False):
        out.append((abs(b - a), 0.5 * (a + b), 0.5))
    return np.array(out, dtype=float).reshape(-1, 3)


def damage_equivalent_load(
    x: np.ndarray,
    m: float,
    n_eq: float | None = None,
    duration: float | None = None,
    f_eq: float = 1.0,
) -> float:
    """Damage-equivalent load range ``(sum n_i S_i^m / N_eq)^(1/m)`` (Wohler exponent ``m``).

    ``N_eq`` is ``n_eq`` or ``f_eq * duration`` (1 Hz equivalent by default).
    """
    c = rainflow(x)
    if n_eq is None:
        if duration is None:
            raise ValueError("give n_eq or duration")
        n_eq = f_eq * duration
    return float((np.sum(c[:, 2] * c[:, 0] ** m) / n_eq) ** (1.0 / m))


def del_(x: xr.DataArray, m: float = 4.0, f_eq: float = 1.0) -> xr.DataArray:
    """DEL over ``time`` for every other index of ``x`` (1 Hz equivalent)."""
    t = x.time.values
    dur = float(t[-1] - t[0])
    return xr.apply_ufunc(
        lambda v: damage_equivalent_load(v, m, duration=dur, f_eq=f_eq),
        x,
        input_core_dims=[["time"]],
        vectorize=True,
    )


# ---------------------------------------------------------------- tables

_STATS = {
    "mean": lambda x: x.mean("time"),
    "std": lambda x: x.std("time"),
    "min": lambda x: x.min("time"),
    "max": lambda x: x.max("time"),
    "q05": lambda x: x.quantile(0.05, "time").drop_vars("quantile"),
    "q50": lambda x: x.quantile(0.5, "time").drop_vars("quantile"),
    "q95": lambda x: x.quantile(0.95, "time").drop_vars("quantile"),
    "upcross": lambda x: upcrossing_rate(x),
    "del": lambda x: del_(x, 4.0),
}


def run_statistics(ds: xr.Dataset, statistics: list[str], transient: float = 0.0) -> pd.DataFrame:
    """Per-run statistics: one row per run (dim ``run``), columns ``<channel>.<statistic>``.

    ``transient`` seconds at the start are discarded.
    """
    cols = {"run": ds.run.values}
    for name, var in ds.data_vars.items():
        if var.dims != ("run", "time"):
            continue
        x = _after(var, transient)
        for s in statistics:
            cols[f"{name}.{s}"] = np.asarray(_STATS[s](x).values, dtype=float)
    return pd.DataFrame(cols)


def mean_ci(values: np.ndarray, level: float = 0.95) -> tuple[float, float, float, float, int]:
    """Mean, std (ddof 1) and the Student-t confidence interval of the mean of ``values``."""
    from scipy.stats import t as student

    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    n = v.size
    if n == 0:
        return (np.nan, np.nan, np.nan, np.nan, 0)
    mu = float(v.mean())
    if n == 1:
        return (mu, np.nan, np.nan, np.nan, 1)
    s = float(v.std(ddof=1))
    h = float(student.ppf(0.5 + level / 2, n - 1) * s / math.sqrt(n))
    return (mu, s, mu - h, mu + h, n)


def std_ci(values: np.ndarray, level: float = 0.95) -> tuple[float, float, float, float, int]:
    """Ensemble standard deviation from the realizations' standard deviations ``values`` (s_r):
    the pooled ``sigma = sqrt(V)``, ``V = mean(s_r^2)``, the std of the s_r, and an interval of
    sigma that is never negative: ``sqrt(V exp(-+h))`` with ``h`` the Student-t half-width of the
    mean of ``log s_r^2`` (``t_{n-1} sd(log s_r^2) / sqrt(n)``).

    Why not the textbook chi-square interval: it needs each realization's degrees of freedom,
    which an autocorrelated series does not give; estimated from the scatter of the s_r^2
    (Satterthwaite) it covered the true sigma only 86 % of the time for 5 realizations (Monte
    Carlo), this interval 94.7-95.2 % for 3-10 realizations (tests/test_studies_stats.py)."""
    from scipy.stats import t as student

    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    n = v.size
    if n == 0:
        return (np.nan, np.nan, np.nan, np.nan, 0)
    var = float(np.mean(v * v))
    sigma = math.sqrt(var)
    if n == 1:
        return (sigma, np.nan, np.nan, np.nan, 1)
    spread = float(v.std(ddof=1))
    if np.any(v <= 0.0):  # a realization without motion: no log scale, no interval
        return (sigma, spread, np.nan, np.nan, n)
    h = float(student.ppf(0.5 + level / 2, n - 1) * np.std(np.log(v * v), ddof=1) / math.sqrt(n))
    return (sigma, spread, math.sqrt(var * math.exp(-h)), math.sqrt(var * math.exp(h)), n)


def results_table(runs: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """Aggregate per-run statistics over realizations for every (design, condition, variant).

    Columns: design, condition, variant, quantity (``<channel>.<statistic>``), n, mean, std
    (over realizations), ci_low, ci_high (``level`` interval of the mean; for a standard
    deviation, ``<channel>.std``, the pooled sigma and its never-negative interval, :func:`std_ci`).
    """
    ok = runs[runs["status"] == "ok"] if "status" in runs else runs
    qcols = [c for c in ok.columns if "." in c]
    rows = []
    for (d, c, v), grp in ok.groupby(["design", "condition", "variant"], sort=False):
        for q in qcols:
            ci = std_ci if q.endswith(".std") else mean_ci
            mu, s, lo, hi, n = ci(grp[q].to_numpy(), level)
            if n == 0:
                continue
            rows.append(
                {
                    "design": d,
                    "condition": c,
                    "variant": v,
                    "quantity": q,
                    "n": n,
                    "mean": mu,
                    "std": s,
                    "ci_low": lo,
                    "ci_high": hi,
                }
            )
    return pd.DataFrame(
        rows,
        columns=[
            "design",
            "condition",
            "variant",
            "quantity",
            "n",
            "mean",
            "std",
            "ci_low",
            "ci_high",
        ],
    )


#: the human-facing tables (results.csv, runs_summary.csv, the console) give angles in degrees;
#: the netCDF series stay SI (docs/studies.md)
HUMAN_ANGLE = {"rad": ("deg", 180.0 / math.pi), "rad/s": ("deg/s", 180.0 / math.pi),
               "rad/s^2": ("deg/s^2", 180.0 / math.pi)}  # fmt: skip


def quantity_units(quantity: str, units: dict[str, str]) -> tuple[str, float]:
    """(units, factor from SI) of ``<channel>.<statistic>`` in the human-facing tables."""
    channel, _, stat = quantity.rpartition(".")
    if stat == "upcross":
        return "1/s", 1.0
    u = units.get(channel, "")
    return HUMAN_ANGLE.get(u, (u, 1.0))


def humanize_results(res: pd.DataFrame, units: dict[str, str]) -> pd.DataFrame:
    """:func:`results_table` with a ``units`` column and angles in degrees."""
    out = res.copy()
    pairs = [quantity_units(q, units) for q in out["quantity"]]
    factor = np.array([f for _, f in pairs], dtype=float)
    for col in ("mean", "std", "ci_low", "ci_high"):
        out[col] = out[col].to_numpy(dtype=float) * factor
    out.insert(out.columns.get_loc("quantity") + 1, "units", [u for u, _ in pairs])
    return out


def humanize_runs(runs: pd.DataFrame, units: dict[str, str]) -> pd.DataFrame:
    """The per-run table with statistic columns named ``<channel>.<stat> [units]``, angles in
    degrees."""
    out = runs.copy()
    rename = {}
    for col in out.columns:
        if "." not in col or col in ("id",):
            continue
        u, f = quantity_units(col, units)
        if f != 1.0:
            out[col] = pd.to_numeric(out[col], errors="coerce") * f
        rename[col] = f"{col} [{u}]" if u else col
    return out.rename(columns=rename)


def si_from_human(row) -> float:
    """Factor that takes a ``results.csv`` row's values back to SI."""
    for u, f in HUMAN_ANGLE.values():
        if row.get("units") == u:
            return 1.0 / f
    return 1.0
