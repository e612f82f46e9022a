"""DLC post-processing (issue 22): fatigue (rainflow damage sums, DELs, lifetime weighting) and
extremes over seeds (mean / Gumbel / GEV characteristic values, partial safety factors,
governing DLC). Rainflow is cross-checked against the fatpack and rainflow libraries."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from scipy import stats as sps

from floatwind import _kernels
from floatwind.dlc import extremes as ex
from floatwind.dlc import fatigue as fat
from floatwind.studies import stats

fatpack = pytest.importorskip("fatpack")
rainflow_lib = pytest.importorskip("rainflow")

M_ALL = (3.0, 4.0, 10.0)


@pytest.fixture(params=[True, False], ids=["compiled", "python"])
def jit(request):
    """Both rainflow paths of stats.rainflow: the numba kernel and the Python reference."""
    old = _kernels.use_jit(request.param)
    yield request.param
    _kernels.use_jit(old)


# ---------------------------------------------------------------- (a) analytic sinusoid


@pytest.mark.parametrize("m", M_ALL)
def test_sinusoid_damage_and_del_analytic(jit, m):
    A, N, per = 3.7, 50, 16  # amplitude, full periods, samples per period
    k = np.arange(N * per + 1)
    x = A * np.cos(2.0 * np.pi * k / per)  # starts and ends on a peak: 2N half cycles of 2A
    d_exact = N * (2 * A) ** m
    assert fat.damage_sum(x, m) == pytest.approx(d_exact, rel=1e-12)
    # DEL with N_eq = f_eq * duration: (2A) (N / N_eq)^(1/m)
    duration, f_eq = 600.0, 0.5
    n_eq = f_eq * duration
    assert fat.run_del(x, m, duration, f_eq) == pytest.approx(
        2 * A * (N / n_eq) ** (1 / m), rel=1e-12
    )
    # lifetime DEL of that one run standing for the whole life: D_L = (T_L / T) N (2A)^m
    life = 1.0e6
    assert fat.lifetime_del([d_exact], [1.0], duration, life, m, n_eq=1e7) == pytest.approx(
        2 * A * (N * life / duration / 1e7) ** (1 / m), rel=1e-12
    )
    # a sine that starts and ends at zero: two half cycles of A more, one half cycle of 2A less
    xs = A * np.sin(2.0 * np.pi * k / per)
    assert fat.damage_sum(xs, m) == pytest.approx((N - 0.5) * (2 * A) ** m + A**m, rel=1e-12)


def test_run_del_equals_stats_damage_equivalent_load():
    rng = np.random.default_rng(7)
    x = np.cumsum(rng.normal(size=5000))
    for m in M_ALL:
        for dur, feq in ((600.0, 1.0), (3600.0, 0.25)):
            a = fat.run_del(x, m, dur, feq)
            b = stats.damage_equivalent_load(x, m, duration=dur, f_eq=feq)
            assert a == pytest.approx(b, rel=1e-12)
        assert fat.damage_sum(x, m) == pytest.approx(
            stats.damage_equivalent_load(x, m, n_eq=1.0) ** m, rel=1e-10
        )


# ---------------------------------------------------------------- (b) fatpack, rainflow


def _series(kind: str, seed: int, n: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if kind == "walk":
        return np.cumsum(rng.normal(size=n))
    # filtered noise: a low-passed white noise plus a narrow-band part (like a wave response)
    from scipy.signal import butter, lfilter

    b, a = butter(4, 0.05)
    w = lfilter(b, a, rng.normal(size=n))
    t = np.arange(n)
    return 1e5 * (w + 0.3 * np.sin(2 * np.pi * t / 97.0 + rng.uniform(0, 2 * np.pi)))


CASES = [
    (kind, seed, n)
    for kind in ("walk", "filtered")
    for seed, n in ((0, 1000), (1, 3333), (2, 8000), (3, 20000))
]


def _rel(a, b) -> float:
    a, b = np.asarray(a, float), np.asarray(b, float)
    return float(np.max(np.abs(a - b) / np.maximum(np.abs(b), 1e-300))) if a.size else 0.0


@pytest.mark.parametrize(("kind", "seed", "n"), CASES)
def test_rainflow_matches_rainflow_library(jit, kind, seed, n):
    x = _series(kind, seed, n)
    ours = stats.rainflow(x)
    theirs = np.array([c[:3] for c in rainflow_lib.extract_cycles(x)])  # (range, mean, count)
    # the same ASTM E1049-85 algorithm: the same cycles in the same order
    assert ours.shape == theirs.shape
    assert _rel(ours[:, 0], theirs[:, 0]) < 1e-9
    np.testing.assert_allclose(ours[:, 1], theirs[:, 1], rtol=1e-9, atol=1e-9 * np.ptp(x))
    np.testing.assert_array_equal(ours[:, 2], theirs[:, 2])
    assert np.any(ours[:, 2] == 0.5) and np.any(ours[:, 2] == 1.0)
    # count_cycles: the (range, count) histogram without binning
    hist = rainflow_lib.count_cycles(x)
    for m in M_ALL:
        d_lib = sum(c * r**m for r, c in hist)
        assert fat.damage_sum(x, m) == pytest.approx(d_lib, rel=1e-9)
    # its reversals are our turning points
    rev = np.array([v for _, v in rainflow_lib.reversals(x)])
    np.testing.assert_array_equal(stats.turning_points(x), rev)


@pytest.mark.parametrize(("kind", "seed", "n"), CASES)
def test_rainflow_matches_fatpack(jit, kind, seed, n):
    """fatpack's four-point algorithm on the same reversals: its closed cycles are our full
    cycles, and the ranges between the points of its residue are our half cycles.

    fatpack.find_reversals bins the series into k classes (class midpoints), so its reversals
    are not the series' own; ours (stats.turning_points, equal to the rainflow library's, see
    above) are given to find_rainflow_cycles instead."""
    x = _series(kind, seed, n)
    tp = stats.turning_points(x)
    cyc, res = fatpack.find_rainflow_cycles(tp)
    full_fp = np.sort(np.abs(cyc[:, 1] - cyc[:, 0]))
    half_fp = np.sort(np.abs(np.diff(res)))
    mean_full_fp = np.sort(0.5 * (cyc[:, 0] + cyc[:, 1]))
    ours = stats.rainflow(x)
    full = ours[ours[:, 2] == 1.0]
    half = ours[ours[:, 2] == 0.5]
    assert full.shape[0] == full_fp.size and half.shape[0] == half_fp.size
    assert _rel(np.sort(full[:, 0]), full_fp) < 1e-9
    assert _rel(np.sort(half[:, 0]), half_fp) < 1e-9
    np.testing.assert_allclose(np.sort(full[:, 1]), mean_full_fp, rtol=0, atol=1e-9 * np.ptp(x))
    for m in M_ALL:
        d_fp = np.sum(full_fp**m) + 0.5 * np.sum(half_fp**m)
        assert fat.damage_sum(x, m) == pytest.approx(d_fp, rel=1e-9)
    # (fatpack's own find_rainflow_ranges closes the residue instead, by counting it repeated,
    # concatenate_reversals(res, res), as full cycles: a different count of the residue only,
    # which for a random walk, whose largest ranges are in the residue, is not small)


# ---------------------------------------------------------------- (c) lifetime weighting


def test_lifetime_two_bins_by_hand():
    # bin A (e.g. 8 m/s) occurs 60 % of the life, 2 seeds; bin B (e.g. 14 m/s) 40 %, 3 seeds
    d = np.array([2.0e9, 3.0e9, 7.0e9, 8.0e9, 9.0e9])  # damage sums sum n S^m of 600-s runs
    bins = ["A", "A", "B", "B", "B"]
    w = fat.bin_weights(bins, {"A": 0.6, "B": 0.4})
    np.testing.assert_allclose(w, [0.3, 0.3, 0.4 / 3, 0.4 / 3, 0.4 / 3], rtol=1e-15)
    T, L, m = 600.0, fat.LIFETIME_20Y_S, 4.0
    assert L == 20 * 365.25 * 24 * 3600
    # by hand: D_L = 0.6 * (L/T) * (2e9 + 3e9)/2 + 0.4 * (L/T) * (7e9 + 8e9 + 9e9)/3
    D = 0.6 * (L / T) * 2.5e9 + 0.4 * (L / T) * 8.0e9
    assert D == pytest.approx(1051920 * 4.7e9, rel=1e-15)  # L/T = 1 051 920
    expect = (D / 1e7) ** (1 / m)
    assert fat.lifetime_del(d, w, T, L, m) == pytest.approx(expect, rel=1e-12)  # N_eq 1e7
    assert fat.DEFAULT_N_EQ == 1e7
    assert fat.lifetime_del(d, w, T, L, m, n_eq=2e8) == pytest.approx(
        (D / 2e8) ** (1 / m), rel=1e-12
    )
    # equivalent-frequency form: N_eq = f_eq * L
    assert fat.lifetime_del(d, w, T, L, m, f_eq=1.0) == pytest.approx((D / L) ** (1 / m), rel=1e-12)
    # per-run durations (a shorter run counts for more of the life per second)
    Ts = np.array([600.0, 600.0, 300.0, 300.0, 300.0])
    D2 = 0.3 * L / 600 * 5.0e9 + (0.4 / 3) * L / 300 * 24.0e9
    assert fat.lifetime_del(d, w, Ts, L, m) == pytest.approx((D2 / 1e7) ** (1 / m), rel=1e-12)
    # DataFrame: one column per channel (mapping of exponents), and a MultiIndex with level m
    df = pd.DataFrame({"TwrBsMyt": d, "FairTen1": 2 * d}, index=[f"r{i}" for i in range(5)])
    out = fat.lifetime_del(df, w, T, L, {"TwrBsMyt": 4.0, "FairTen1": 3.0})
    assert out["TwrBsMyt"] == pytest.approx(expect, rel=1e-12)
    assert out["FairTen1"] == pytest.approx((2 * D / 1e7) ** (1 / 3), rel=1e-12)
    mi = df.copy()
    mi.columns = pd.MultiIndex.from_tuples(
        [("TwrBsMyt", 4.0), ("TwrBsMyt", 3.0)], names=["ch", "m"]
    )
    out = fat.lifetime_del(mi, pd.Series(w, index=df.index)[::-1], T, L)  # aligned on the index
    assert out[("TwrBsMyt", 4.0)] == pytest.approx(expect, rel=1e-12)
    assert out[("TwrBsMyt", 3.0)] == pytest.approx((2 * D / 1e7) ** (1 / 3), rel=1e-12)


def _runs_dict(dt: float, n: int) -> dict:
    rng = np.random.default_rng(3)
    return {
        f"r{i}": {
            "TwrBsMyt": 1e6 * np.cumsum(rng.normal(size=n)),
            "FairTen1": 1e5 * rng.normal(size=n),
        }
        for i in range(3)
    }


def test_damage_table_dict_dataset_and_lifetime_table():
    dt, n, transient = 0.5, 2401, 100.0  # 1200 s, 100 s dropped
    runs = _runs_dict(dt, n)
    tab = fat.damage_table(runs, transient_s=transient, dt=dt)
    assert list(tab.columns) == [
        "run", "channel", "m", "duration_s", "n_cycles", "damage_sum", "del"
    ]  # fmt: skip
    assert len(tab) == 3 * 2 * 3
    assert set(tab["m"]) == set(fat.DEFAULT_WOHLER)
    assert np.all(tab["duration_s"] == 1100.0)
    row = tab[(tab.run == "r1") & (tab.channel == "FairTen1") & (tab.m == 10.0)].iloc[0]
    x = runs["r1"]["FairTen1"][200:]  # samples at t >= 100 s
    assert row.damage_sum == pytest.approx(fat.damage_sum(x, 10.0), rel=1e-14)
    assert row["del"] == pytest.approx(fat.run_del(x, 10.0, 1100.0), rel=1e-14)
    # the same from an xarray Dataset (run, time), and from dicts carrying their own time
    t = np.arange(n) * dt
    ds = xr.Dataset(
        {
            ch: (("run", "time"), np.stack([runs[r][ch] for r in runs]))
            for ch in ("TwrBsMyt", "FairTen1")
        },
        coords={"run": list(runs), "time": t},
    )
    ds["PtfmPitch_mean"] = ("run", np.zeros(3))  # not a (run, time) channel: ignored
    tab_ds = fat.damage_table(ds, transient_s=transient)
    pd.testing.assert_frame_equal(
        tab.sort_values(["run", "channel", "m"]).reset_index(drop=True),
        tab_ds.sort_values(["run", "channel", "m"]).reset_index(drop=True),
    )
    with_time = {r: {**v, "time": t} for r, v in runs.items()}
    tab_t = fat.damage_table(with_time, m=4.0, transient_s=transient, channels=["TwrBsMyt"])
    assert len(tab_t) == 3 and set(tab_t.channel) == {"TwrBsMyt"}
    # lifetime per (channel, m): the runs as one bin of three seeds covering the whole life
    w = dict(zip(runs, fat.bin_weights(["U8"] * 3, {"U8": 1.0})))
    life = fat.lifetime_table(tab, w, fat.LIFETIME_20Y_S)
    assert len(life) == 2 * 3 and np.allclose(life["weight_sum"], 1.0)
    for _, r in life.iterrows():
        sel = tab[(tab.channel == r.channel) & (tab.m == r.m)]
        expect = fat.lifetime_del(
            sel.damage_sum.to_numpy(), [1 / 3] * 3, 1100.0, fat.LIFETIME_20Y_S, r.m
        )
        assert r.del_life == pytest.approx(expect, rel=1e-12)


# ---------------------------------------------------------------- (d) extremes

SEED_MAXIMA = np.array([10.2, 11.5, 9.8, 12.1, 10.9, 11.3])


def test_mean_method_student_t_by_hand():
    est = ex.characteristic_extreme(SEED_MAXIMA)
    n = 6
    mean = (10.2 + 11.5 + 9.8 + 12.1 + 10.9 + 11.3) / n  # 65.8 / 6
    s = math.sqrt(sum((v - mean) ** 2 for v in SEED_MAXIMA) / (n - 1))
    t975 = sps.t.ppf(0.975, n - 1)
    assert t975 == pytest.approx(2.5706, abs=1e-4)  # the t-table value, 5 degrees of freedom
    h = t975 * s / math.sqrt(n)
    assert est.value == pytest.approx(65.8 / 6, rel=1e-14)
    assert (est.lo, est.hi) == (
        pytest.approx(mean - h, rel=1e-12),
        pytest.approx(mean + h, rel=1e-12),
    )
    # by hand: sum of squared deviations 3.63333, s = sqrt(3.63333 / 5) = 0.85245,
    # half-width 2.5706 * 0.85245 / sqrt(6) = 0.89459
    assert est.lo == pytest.approx(10.07208, abs=1e-4)
    assert est.hi - est.lo == pytest.approx(1.78918, abs=1e-4)
    assert est.n == 6 and est.method == "mean" and est.probability is None
    # minima by negation: the mean of the minima, interval ordered lo <= hi
    mn = ex.characteristic_minimum(-SEED_MAXIMA)
    assert (mn.value, mn.lo, mn.hi) == pytest.approx((-est.value, -est.hi, -est.lo), rel=1e-14)
    one = ex.characteristic_extreme([3.0])
    assert one.value == 3.0 and math.isnan(one.lo) and math.isnan(one.hi)


def test_gumbel_recovers_known_quantile():
    mu, beta = 10.0, 2.0
    x = np.random.default_rng(11).gumbel(mu, beta, size=4000)
    for p in (0.5, 0.9):
        truth = mu - beta * math.log(-math.log(p))  # EV-I quantile
        est = ex.characteristic_extreme(x, "gumbel", probability=p)
        assert est.value == pytest.approx(truth, rel=0.03)
        assert est.lo < truth < est.hi
        assert est.lo < est.value < est.hi and est.probability == p
    # the default is the median, and the point value is stats.gumbel_fit's
    est = ex.characteristic_extreme(x[:12], "gumbel")
    m_, b_ = stats.gumbel_fit(x[:12])
    assert est.value == pytest.approx(stats.gumbel_quantile(m_, b_, 0.5), rel=1e-14)
    assert est.probability == 0.5
    # deterministic bootstrap
    assert ex.characteristic_extreme(x[:12], "gumbel") == est
    # minima by negation
    mn = ex.characteristic_extreme(-x[:12], "gumbel", sign=-1)
    assert (mn.value, mn.lo, mn.hi) == pytest.approx((-est.value, -est.hi, -est.lo), rel=1e-14)


def test_gev_recovers_known_quantile():
    c, loc, scale = -0.1, 5.0, 1.5  # scipy's c = -xi: a heavy (Frechet-type) tail
    x = sps.genextreme.rvs(c, loc, scale, size=600, random_state=np.random.default_rng(5))
    truth = sps.genextreme.ppf(0.5, c, loc, scale)
    est = ex.characteristic_extreme(x, "gev", n_boot=40)
    assert est.value == pytest.approx(truth, rel=0.03)
    assert est.lo < truth < est.hi
    assert ex.characteristic_extreme(x, "gev", n_boot=40) == est


def test_partial_safety_factor_defaults_and_override():
    psf = ex.partial_safety_factor
    assert psf("1.3") == 1.35 and psf("1.6") == 1.35 and psf("6.1") == 1.35 and psf("6.3") == 1.35
    assert psf("DLC 6.1a") == 1.35 and psf("2.2") == 1.1 and psf("8.1") == 1.5
    assert psf("1.1") == 1.35 and psf("1.1", extrapolated=True) == 1.25
    assert math.isnan(psf("1.2"))  # fatigue: no ultimate factor
    assert ex.dlc_type("1.2") == ("F", None) and ex.dlc_type("6.3") == ("U", "N")
    assert psf("1.3", 1.2) == 1.2 and psf("9.9", 1.4) == 1.4  # the DLC file's factor wins
    with pytest.raises(ValueError, match="dlc '9.9'"):
        psf("9.9")
    with pytest.raises(ValueError, match="extrapolated"):
        psf("6.1", extrapolated=True)
    with pytest.raises(ValueError, match="factor"):
        psf("1.3", -1.0)


def _per_run() -> pd.DataFrame:
    rows = []

    def add(dlc, group, maxima, minima):
        for seed, (hi, lo) in enumerate(zip(maxima, minima)):
            rows.append({"dlc": dlc, "group": group, "seed": seed, "status": "ok",
                         "TwrBsMyt.max": hi, "TwrBsMyt.min": lo})  # fmt: skip

    add("1.3", "1.3_ws12", [99.0, 101.0, 100.0], [-50.0, -52.0, -48.0])  # 135, -67.5
    add("2.2", "2.2_ws12_fault", [119.0, 121.0, 120.0], [-40.0, -40.0, -40.0])  # 132, -44
    add("6.1", "6.1_ws50_yaw-8", [80.0, 90.0, 100.0], [-70.0, -60.0, -80.0])  # 121.5, -94.5
    add("6.1", "6.1_ws50_yaw8", [60.0, 60.0, 60.0], [-10.0, -10.0, -10.0])
    add("1.2", "1.2_ws12", [500.0, 500.0, 500.0], [-500.0, -500.0, -500.0])  # fatigue: no factor
    rows.append({"dlc": "1.3", "group": "1.3_ws12", "seed": 9, "status": "failed",
                 "TwrBsMyt.max": np.nan, "TwrBsMyt.min": np.nan})  # fmt: skip
    return pd.DataFrame(rows)


def test_extremes_table_and_governing():
    per_run = _per_run()
    tab = ex.extremes_table(per_run)
    assert list(tab.columns) == ex.TABLE_COLUMNS
    assert len(tab) == 5 * 2
    r = tab[(tab.group == "1.3_ws12") & (tab.side == "max")].iloc[0]
    assert r.n == 3 and r.characteristic == pytest.approx(100.0)  # the failed run is left out
    assert r.safety_factor == 1.35 and r.design == pytest.approx(135.0)
    f = tab[tab.dlc == "1.2"]
    assert set(f.analysis) == {"F"} and f.design.isna().all()
    gov = ex.governing(tab).set_index("side")
    assert gov.loc["max", "group"] == "1.3_ws12" and gov.loc["max", "design"] == pytest.approx(
        135.0
    )
    assert gov.loc["min", "group"] == "6.1_ws50_yaw-8"
    assert gov.loc["min", "design"] == pytest.approx(-94.5)
    # the DLC file's factor for 1.3 overrides the default: 2.2 (abnormal, 1.1 * 120) governs
    gov = ex.governing(ex.extremes_table(per_run, factors={"1.3": 1.0})).set_index("side")
    assert gov.loc["max", "dlc"] == "2.2" and gov.loc["max", "design"] == pytest.approx(132.0)
    # a group's own factor and method (groups table) win over the DLC's
    groups = pd.DataFrame({"group": ["2.2_ws12_fault"], "safety_factor": [1.05]})
    t2 = ex.extremes_table(per_run, groups, factors={"1.3": 1.0}, channels=["TwrBsMyt"])
    gov = ex.governing(t2).set_index("side")
    assert gov.loc["max", "group"] == "2.2_ws12_fault" and gov.loc[
        "max", "design"
    ] == pytest.approx(126.0)
    t3 = ex.extremes_table(per_run, {"6.1_ws50_yaw-8": {"method": "gumbel"}})
    g = t3[t3.group == "6.1_ws50_yaw-8"]
    assert set(g.method) == {"gumbel"} and set(t3[t3.group != "6.1_ws50_yaw-8"].method) == {"mean"}
    # signed: the largest minimum is not the governing one
    gs = ex.governing(tab, by="signed").set_index("side")
    assert gs.loc["min", "design"] == pytest.approx(-94.5)
    # duplicate seeds in a group are refused
    dup = pd.concat([per_run, per_run.iloc[[0]]])
    with pytest.raises(ValueError, match="duplicate seed"):
        ex.extremes_table(dup)


# ---------------------------------------------------------------- (e) bad input


def test_bad_input_raises_naming_the_argument():
    x = np.sin(np.linspace(0, 20, 200))
    with pytest.raises(ValueError, match="maxima must not be empty"):
        ex.characteristic_extreme([])
    with pytest.raises(ValueError, match="maxima has non-finite"):
        ex.characteristic_extreme([1.0, np.nan, 2.0])
    with pytest.raises(ValueError, match="maxima has non-finite"):
        ex.characteristic_extreme([1.0, np.inf, 2.0], "gumbel")
    with pytest.raises(ValueError, match="maxima: method 'gev' needs at least 3"):
        ex.characteristic_extreme([1.0, 2.0], "gev")
    with pytest.raises(ValueError, match="method"):
        ex.characteristic_extreme([1.0, 2.0], "weibull")
    with pytest.raises(ValueError, match="probability"):
        ex.characteristic_extreme([1.0, 2.0], "mean", probability=0.9)
    with pytest.raises(ValueError, match="level"):
        ex.characteristic_extreme([1.0, 2.0], level=95)
    with pytest.raises(ValueError, match="sign"):
        ex.characteristic_extreme([1.0, 2.0], sign=0)
    for m in (0.0, -3.0, np.nan):
        with pytest.raises(ValueError, match="m \\(Wohler exponent\\)"):
            fat.damage_sum(x, m)
        with pytest.raises(ValueError, match="m \\(Wohler exponent\\)"):
            fat.run_del(x, m, 600.0)
        with pytest.raises(ValueError, match="m \\(Wohler exponent\\)"):
            fat.lifetime_del([1.0], [1.0], 600.0, 1e8, m)
        with pytest.raises(ValueError, match="m \\(Wohler exponent"):
            fat.damage_table({"r": {"c": x}}, m=(4.0, m), dt=0.1)
    with pytest.raises(ValueError, match="duration_s"):
        fat.run_del(x, 4.0, -600.0)
    with pytest.raises(ValueError, match="f_eq"):
        fat.run_del(x, 4.0, 600.0, f_eq=0.0)
    with pytest.raises(ValueError, match="run_duration_s"):
        fat.lifetime_del([1.0, 2.0], [0.5, 0.5], [600.0, -600.0], 1e8, 4.0)
    with pytest.raises(ValueError, match="lifetime_s"):
        fat.lifetime_del([1.0], [1.0], 600.0, -1e8, 4.0)
    with pytest.raises(ValueError, match="n_eq"):
        fat.lifetime_del([1.0], [1.0], 600.0, 1e8, 4.0, n_eq=-1.0)
    with pytest.raises(ValueError, match="n_eq or f_eq"):
        fat.lifetime_del([1.0], [1.0], 600.0, 1e8, 4.0, n_eq=1e7, f_eq=1.0)
    with pytest.raises(ValueError, match="weights"):
        fat.lifetime_del([1.0, 2.0], [1.0], 600.0, 1e8, 4.0)
    with pytest.raises(ValueError, match="weights"):
        fat.lifetime_del([1.0], [-1.0], 600.0, 1e8, 4.0)
    with pytest.raises(ValueError, match="damage_sums"):
        fat.lifetime_del([], [], 600.0, 1e8, 4.0)
    with pytest.raises(ValueError, match="damage_sums"):
        fat.lifetime_del([np.nan], [1.0], 600.0, 1e8, 4.0)
    with pytest.raises(ValueError, match="x has non-finite"):
        fat.damage_sum([0.0, np.nan, 1.0], 4.0)
    with pytest.raises(ValueError, match="transient_s"):
        fat.damage_table({"r": {"c": x}}, transient_s=-1.0, dt=0.1)
    with pytest.raises(ValueError, match="transient_s"):
        fat.damage_table({"r": {"c": x}}, transient_s=1e3, dt=0.1)
    with pytest.raises(ValueError, match="dt"):
        fat.damage_table({"r": {"c": x}})
    with pytest.raises(ValueError, match="probability has no entry"):
        fat.bin_weights(["A", "B"], {"A": 1.0})


def test_design_value_takes_the_unfavourable_direction_of_each_side():
    """IEC 61400-1 ed.3 Table 3: 1.35 (normal) where it pushes the extreme away from the safe
    side, the favourable 0.9 where 1.35 would move it toward it (a positive minimum tension)."""
    from floatwind.dlc.extremes import design_value

    assert design_value(2.0, 1.35, "max") == (2.0 * 1.35, 1.35)
    assert design_value(-2.0, 1.35, "min") == (-2.0 * 1.35, 1.35)
    assert design_value(2.0, 1.35, "min") == (2.0 * 0.9, 0.9)  # slack-line side of a tension
    assert design_value(-2.0, 1.35, "max") == (-2.0 * 0.9, 0.9)
    d, g = design_value(2.0, float("nan"), "max")
    assert np.isnan(d) and np.isnan(g)
