"""DLC files: an IEC 61400-3-1 design-load-case set expanded into runs (docs/dlc.md).

A DLC file names the turbine/platform case, the site (wind classes, wind-speed bins, a Weibull or
the class's Rayleigh distribution, the sea states per wind bin, wave directions) and the load cases
to run. :func:`load_dlc` validates it; :meth:`DLCSet.table` expands it into one row per run
(the table ``floatwind dlc --list`` prints) and :meth:`DLCSet.studies` into one
:class:`floatwind.studies.spec.Study` per load case, run by the study engine (batches, resume,
Dask, progress).

Formulas (IEC 61400-1 ed. 3, which IEC 61400-3-1 refers to for the wind):

* V_ref by turbine class I/II/III: 50 / 42.5 / 37.5 m/s (Table 1); V_ave = 0.2 V_ref (eq. 9).
* Normal turbulence model NTM: sigma_1 = I_ref (0.75 V_hub + 5.6) (eq. 11), I_ref A+ 0.18,
  A 0.16, B 0.14, C 0.12 (Table 1; A+ from ed. 4).
* Extreme turbulence model ETM: sigma_1 = c I_ref (0.072 (V_ave/c + 3)(V_hub/c - 4) + 10),
  c = 2 m/s (eq. 19).
* Steady extreme wind model EWM: V_e50(z) = 1.4 V_ref (z/z_hub)^0.11, V_e1 = 0.8 V_e50
  (eqs. 26-27).
* Wind-speed distribution: Weibull P(V < v) = 1 - exp(-(v/A)^k), default the class's Rayleigh
  (k = 2, A = 2 V_ave / sqrt(pi), eq. 8); a bin's probability is the difference of the CDF at
  its edges (bins of the turbine's operating range, the first/last bin extended to cut-in/-out).
* JONSWAP peak enhancement from IEC 61400-3-1 Annex B when the sea state does not give one:
  gamma = 5 for Tp/sqrt(Hs) <= 3.6, exp(5.75 - 1.15 Tp/sqrt(Hs)) up to 5, 1 above.

Load cases (IEC 61400-3-1 Table 1): 1.2 (NTM, normal sea state over the scatter, fatigue),
1.3 (ETM, NSS with the expected Hs/Tp of the wind bin, ultimate), 1.6 (NTM, severe sea state,
ultimate), 6.1 (parked, steady EWM V_e50, 50-year sea state, yaw misalignment -8/0/+8 deg,
ultimate), 6.3 (parked, steady EWM V_e1, 1-year sea state, yaw misalignment -20/+20 deg,
ultimate).
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
import pathlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from floatwind.errors import CaseError
from floatwind.studies.spec import Study, _check_keys, _read_yaml, study_from_dict
from floatwind.validate import number, rename_deprecated, suggest

#: V_ref (m/s) by turbine class, IEC 61400-1 ed. 3 Table 1
VREF = {"I": 50.0, "II": 42.5, "III": 37.5}
#: I_ref by turbulence category, IEC 61400-1 ed. 3 Table 1 (A+: ed. 4)
IREF = {"A+": 0.18, "A": 0.16, "B": 0.14, "C": 0.12}
#: DLCs this generator ships, with what they are
KNOWN_DLCS = {
    "1.2": "power production, NTM, normal sea state (scatter), fatigue",
    "1.3": "power production, ETM, normal sea state (expected Hs, Tp), ultimate",
    "1.6": "power production, NTM, severe sea state, ultimate",
    "6.1": "parked, steady EWM 50-year, 50-year sea state, yaw misalignment -8/0/+8 deg, ultimate",
    "6.3": "parked, steady EWM 1-year, 1-year sea state, yaw misalignment -20/+20 deg, ultimate",
}
#: operating (power production) or parked, per DLC
ROTOR_STATE = {"1.2": "operating", "1.3": "operating", "1.6": "operating", "6.1": "parked",
               "6.3": "parked"}  # fmt: skip
#: the DLCs whose runs make the lifetime fatigue (IEC 61400-3-1 Table 1: F); the others are ultimate
FATIGUE_DLCS = {"1.2"}
#: yaw misalignments (deg) of the parked DLCs, IEC 61400-3-1 Table 1 / 61400-1 ed. 3 Table 2
DEFAULT_YAW = {"6.1": [-8.0, 0.0, 8.0], "6.3": [-20.0, 20.0]}

TOP_KEYS = {
    "name", "description", "case", "site", "load_cases", "seeds", "analysis", "transient",
    "master_seed", "lifetime_years", "channels", "fatigue", "extremes", "simulation", "max_batch",
    "topology",
}  # fmt: skip
SITE_KEYS = {
    "turbine_class", "turbulence_class", "hub_height", "shear_exponent", "cut_in", "cut_out",
    "wind_bins", "weibull", "sea_states", "scatter", "severe_sea_states", "extreme_sea_states",
    "wave_directions",
}  # fmt: skip
LOAD_CASE_KEYS = {
    "dlc", "wind_speeds", "yaw_misalignment_deg", "seeds", "analysis", "safety_factor",
    "extreme_method",
}  # fmt: skip
FATIGUE_KEYS = {"channels", "wohler", "n_eq", "f_eq"}
EXTREME_KEYS = {"channels", "method"}
EXTREME_METHODS = ("mean", "gumbel", "gev")
SEA_KEYS = {"wind_speed", "hs", "tp", "gamma", "probability"}
EXTREME_SEA_KEYS = {"hs50", "tp50", "hs1", "tp1", "gamma50", "gamma1"}
DEFAULT_SEEDS = 6
DEFAULT_ANALYSIS_S = 600.0
DEFAULT_TRANSIENT_S = 60.0
DEFAULT_LIFETIME_YEARS = 20.0
YEAR_S = 365.25 * 24 * 3600.0
PROB_TOL = 1e-6


# ---------------------------------------------------------------- IEC formulas


def v_ref(turbine_class: str) -> float:
    """Reference wind speed V_ref (m/s), IEC 61400-1 ed. 3 Table 1."""
    return VREF[turbine_class]


def v_ave(turbine_class: str) -> float:
    """Annual average wind speed at hub height V_ave = 0.2 V_ref, IEC 61400-1 ed. 3 eq. (9)."""
    return 0.2 * VREF[turbine_class]


def ntm_sigma(v_hub: float, turbulence_class: str) -> float:
    """NTM sigma_1 = I_ref (0.75 V_hub + b), b = 5.6 m/s, IEC 61400-1 ed. 3 eq. (11)."""
    return IREF[turbulence_class] * (0.75 * v_hub + 5.6)


def etm_sigma(v_hub: float, turbine_class: str, turbulence_class: str) -> float:
    """ETM sigma_1 = c I_ref (0.072 (V_ave/c + 3)(V_hub/c - 4) + 10), c = 2 m/s, IEC 61400-1
    ed. 3 eq. (19)."""
    c = 2.0
    va = v_ave(turbine_class)
    return c * IREF[turbulence_class] * (0.072 * (va / c + 3.0) * (v_hub / c - 4.0) + 10.0)


def ewm_speed(turbine_class: str, recurrence_years: int) -> float:
    """Steady EWM hub-height speed: V_e50 = 1.4 V_ref, V_e1 = 0.8 V_e50, IEC 61400-1 ed. 3
    eqs. (26)-(27) at z = z_hub."""
    ve50 = 1.4 * VREF[turbine_class]
    return ve50 if recurrence_years == 50 else 0.8 * ve50


def jonswap_gamma(hs: float, tp: float) -> float:
    """JONSWAP peak enhancement factor, IEC 61400-3-1 Annex B (DNV-RP-C205 3.5.5.5)."""
    r = tp / math.sqrt(hs)
    if r <= 3.6:
        return 5.0
    if r < 5.0:
        return math.exp(5.75 - 1.15 * r)
    return 1.0


def weibull_bin_probability(lo: float, hi: float, k: float, a: float) -> float:
    """P(lo <= V < hi) of a Weibull (k, A): exp(-(lo/A)^k) - exp(-(hi/A)^k), IEC 61400-1 eq. (7)."""
    return math.exp(-((lo / a) ** k)) - math.exp(-((hi / a) ** k))


# ---------------------------------------------------------------- the validated file


@dataclass
class LoadCase:
    """One DLC of the file, validated."""

    dlc: str
    wind_speeds: list[float]
    yaw_misalignment_deg: list[float]
    seeds: int
    analysis_s: float
    safety_factor: float | None
    extreme_method: str
    index: int

    @property
    def name(self) -> str:
        return "dlc" + self.dlc.replace(".", "_")


@dataclass
class DLCSet:
    """A validated DLC file (see the module docstring and docs/dlc.md)."""

    name: str
    case: pathlib.Path
    site: dict
    load_cases: list[LoadCase]
    transient_s: float
    master_seed: int
    lifetime_years: float
    channels: list[str]
    fatigue: dict
    extremes: dict
    simulation: dict
    max_batch: int
    topology: dict = field(default_factory=dict)
    description: str = ""
    source: str = ""
    raw: dict = field(default_factory=dict)

    # ------------------------------------------------------------ site helpers

    @property
    def bins(self) -> np.ndarray:
        return np.asarray(self.site["wind_bins"], dtype=float)

    def bin_edges(self) -> np.ndarray:
        """Edges of the wind bins: midpoints, the first and last extended to cut-in / cut-out."""
        b = self.bins
        mid = 0.5 * (b[1:] + b[:-1])
        return np.concatenate([[self.site["cut_in"]], mid, [self.site["cut_out"]]])

    def bin_probability(self) -> np.ndarray:
        """Probability of each wind bin: from the joint scatter when the file gives one, else
        from the Weibull (k, A) (IEC 61400-1 eq. (7)-(8))."""
        if self.site["scatter"] is not None:
            p = np.zeros(len(self.bins))
            for row in self.site["scatter"]:
                p[self._bin_index(row["wind_speed"])] += row["probability"]
            return p
        k, a = self.site["weibull"]["k"], self.site["weibull"]["A"]
        e = self.bin_edges()
        return np.array([weibull_bin_probability(e[i], e[i + 1], k, a) for i in range(len(e) - 1)])

    def _bin_index(self, v: float) -> int:
        return int(np.argmin(np.abs(self.bins - v)))

    def normal_sea_states(self, v: float) -> list[dict]:
        """The normal sea states of wind bin ``v`` with their probability given the bin."""
        i = self._bin_index(v)
        if self.site["scatter"] is not None:
            rows = [r for r in self.site["scatter"] if self._bin_index(r["wind_speed"]) == i]
            total = sum(r["probability"] for r in rows)
            return [dict(r, probability=r["probability"] / total) for r in rows]
        return [dict(r) for r in self.site["sea_states"] if self._bin_index(r["wind_speed"]) == i]

    def expected_sea_state(self, v: float) -> dict:
        """E[Hs | V], E[Tp | V] of the normal sea states of the bin (DLC 1.3's NSS)."""
        rows = self.normal_sea_states(v)
        hs = sum(r["probability"] * r["hs"] for r in rows)
        tp = sum(r["probability"] * r["tp"] for r in rows)
        return {"wind_speed": v, "hs": hs, "tp": tp, "gamma": None, "probability": 1.0}

    def severe_sea_state(self, v: float) -> dict:
        rows = self.site["severe_sea_states"]
        i = self._bin_index(v)
        return next(dict(r, probability=1.0) for r in rows if self._bin_index(r["wind_speed"]) == i)

    # ------------------------------------------------------------ expansion

    def groups(self, lc: LoadCase) -> list[dict]:
        """The load conditions of ``lc`` (each run with ``lc.seeds`` seeds): wind, sea, direction,
        yaw misalignment, and the lifetime probability of the condition (fatigue DLCs)."""
        s = self.site
        out = []
        if lc.dlc in ("1.2", "1.3", "1.6"):
            pbin = dict(zip(self.bins.tolist(), self.bin_probability().tolist(), strict=True))
            for v in lc.wind_speeds:
                if lc.dlc == "1.2":
                    seas = self.normal_sea_states(v)
                elif lc.dlc == "1.3":
                    seas = [self.expected_sea_state(v)]
                else:
                    seas = [self.severe_sea_state(v)]
                if lc.dlc == "1.3":
                    sigma = etm_sigma(v, s["turbine_class"], s["turbulence_class"])
                    model = "ETM"
                else:
                    sigma = ntm_sigma(v, s["turbulence_class"])
                    model = "NTM"
                for sea in seas:
                    for wd in s["wave_directions"]:
                        p = None
                        if lc.dlc in FATIGUE_DLCS:  # lifetime share: bin x sea state x direction
                            p = pbin[self.bins[self._bin_index(v)]] * sea["probability"] * \
                                wd["probability"]  # fmt: skip
                        out.append(self._group(lc, v, model, sigma, sea, wd["heading_deg"], 0.0, p))
        else:
            years = 50 if lc.dlc == "6.1" else 1
            v = ewm_speed(s["turbine_class"], years)
            ess = s["extreme_sea_states"]
            sea = {"hs": ess[f"hs{years}"], "tp": ess[f"tp{years}"],
                   "gamma": ess.get(f"gamma{years}")}  # fmt: skip
            for yaw in lc.yaw_misalignment_deg:
                for wd in s["wave_directions"]:
                    out.append(
                        self._group(lc, v, f"EWM{years}", 0.0, sea, wd["heading_deg"], yaw, None)
                    )
        return out

    def _group(self, lc, v, model, sigma, sea, wave_dir, yaw, prob) -> dict:
        gamma = sea.get("gamma")
        gamma = jonswap_gamma(sea["hs"], sea["tp"]) if gamma is None else gamma
        name = f"ws{v:05.2f}_hs{sea['hs']:.2f}_tp{sea['tp']:.2f}_wd{wave_dir:+.0f}_yaw{yaw:+.0f}"
        return {
            "dlc": lc.dlc,
            "group": f"{lc.name}__{name}",
            "condition": name,
            "wind_model": model,
            "wind_speed": float(v),
            "sigma1": float(sigma),
            "ti": float(sigma / v) if v > 0 else 0.0,
            "hs": float(sea["hs"]),
            "tp": float(sea["tp"]),
            "gamma": float(gamma),
            "wave_heading_deg": float(wave_dir),
            "yaw_misalignment_deg": float(yaw),
            "rotor": ROTOR_STATE[lc.dlc],
            "probability": prob,
        }

    def table(self) -> pd.DataFrame:
        """One row per run (the expanded DLC table): run id, DLC, group, wind, sea, directions,
        seed, length (s) of the analysis window and of the discarded transient, and the lifetime
        probability share of the run (fatigue DLCs; bin x sea state x direction / seeds)."""
        rows = []
        for lc in self.load_cases:
            for g in self.groups(lc):
                for seed in range(lc.seeds):
                    rid = f"{lc.name}/turbine__{g['condition']}__{_variant(lc)}__r{seed:03d}"
                    rows.append(
                        {"run": rid, **g, "seed": seed, "analysis_s": lc.analysis_s,
                         "transient_s": self.transient_s,
                         "probability": None if g["probability"] is None
                         else g["probability"] / lc.seeds}  # fmt: skip
                    )
        return pd.DataFrame(rows)

    def study_dict(self, lc: LoadCase) -> dict:
        """The study definition (``floatwind.studies``) that runs load case ``lc``."""
        s = self.site
        conditions = []
        parked = lc.dlc in ("6.1", "6.3")
        for g in self.groups(lc):
            if parked:
                wind = {"kind": "steady", "speed": g["wind_speed"], "ref_height": s["hub_height"],
                        "shear": "power", "shear_exponent": 0.11,  # EWM, IEC 61400-1 eq. (26)
                        "heading_deg": g["yaw_misalignment_deg"]}  # fmt: skip
            else:
                wind = {"kind": "kaimal", "speed": g["wind_speed"], "hub_height": s["hub_height"],
                        "turbulence_class": g["ti"], "shear_exponent": s["shear_exponent"],
                        "heading_deg": 0.0}  # fmt: skip
            conditions.append(
                {"name": g["condition"], "hs": g["hs"], "tp": g["tp"], "gamma": g["gamma"],
                 "wave_heading_deg": g["wave_heading_deg"],
                 "environment": {"wind": wind}}  # fmt: skip
            )
        variant: dict[str, Any] = {"name": _variant(lc)}
        if self.topology:
            variant["topology"] = copy.deepcopy(self.topology)
        if parked:
            variant["loads"] = {"thrust_ct": {"ct_mode": "fixed", "ct_fixed": self.parked_ct(),
                                              "rated_power": 0.0, "cp_over_ct": 0.0}}  # fmt: skip
            variant["topology"] = dict(variant.get("topology") or {},
                                       spin={"kind": "locked", "value_deg": 0.0})  # fmt: skip
        # a seed stream of its own per load case: runs of two DLCs do not share wind and waves
        seed = int(np.random.SeedSequence(self.master_seed, spawn_key=(lc.index,)).generate_state(1)[0])
        return {
            "name": f"{self.name}_{lc.name}",
            "description": f"DLC {lc.dlc}: {KNOWN_DLCS[lc.dlc]}",
            "designs": [{"name": "turbine", "case": str(self.case)}],
            "conditions": conditions,
            "variants": [variant],
            "realizations": lc.seeds,
            "master_seed": seed,
            "duration": lc.analysis_s + self.transient_s,
            "transient": self.transient_s,
            "simulation": copy.deepcopy(self.simulation),
            # templates replacing the case's wind and waves; each condition sets its own values
            "wind": copy.deepcopy(conditions[0]["environment"]["wind"]),
            "waves": {"kind": "jonswap", "hs": 1.0, "tp": 10.0},
            "channels": list(self.channels),
            "statistics": ["mean", "std", "min", "max"],
            "max_batch": self.max_batch,
        }

    def study(self, lc: LoadCase) -> Study:
        return study_from_dict(
            self.study_dict(lc), base_dir=self.case.parent, source=self.source,
            name=f"{self.name}_{lc.name}",
        )  # fmt: skip

    def parked_ct(self) -> float:
        """The parked-rotor thrust coefficient: the case's ``thrust_ct`` load key ``ct_parked``."""
        data = _read_yaml(self.case)
        for i, ld in enumerate(data.get("loads") or []):
            if isinstance(ld, dict) and ld.get("type") == "thrust_ct":
                if "ct_parked" not in ld:
                    raise CaseError(
                        "a parked DLC (6.x) needs the parked-rotor thrust coefficient 'ct_parked' "
                        "of the thrust_ct load",
                        field=f"loads[{i}].ct_parked",
                        file=str(self.case),
                    )
                return float(ld["ct_parked"])
        raise CaseError("a parked DLC (6.x) needs a thrust_ct load in the case", field="loads",
                        file=str(self.case))  # fmt: skip

    def fingerprint(self) -> str:
        text = json.dumps(self.raw, sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def _variant(lc: LoadCase) -> str:
    return "parked" if lc.dlc in ("6.1", "6.3") else "operating"


# ---------------------------------------------------------------- validation


def _num(data: dict, key: str, where: str, file: str, *, default=None, positive=False,
         nonneg=False) -> float | None:  # fmt: skip
    val = data.get(key, default)
    if val is None:
        return None
    return number(val, where, file=file, positive=positive, nonnegative=nonneg)


def _int(data: dict, key: str, where: str, file: str, default: int, minimum: int = 1) -> int:
    val = data.get(key, default)
    if isinstance(val, bool) or not isinstance(val, int) or val < minimum:
        raise CaseError(f"must be an integer >= {minimum}, got {val!r}", field=where, file=file)
    return val


def _choice(val: Any, options, where: str, file: str) -> str:
    if val not in options:
        raise CaseError(f"unknown value {val!r}{suggest(str(val), list(options))}; one of "
                        f"{', '.join(options)}", field=where, file=file)  # fmt: skip
    return val


def _num_list(val: Any, where: str, file: str) -> list[float]:
    if not isinstance(val, list) or not val:
        raise CaseError("expected a non-empty list of numbers", field=where, file=file)
    out = []
    for i, x in enumerate(val):
        out.append(_num({"x": x}, "x", f"{where}[{i}]", file))
    return out


def _sea_rows(val: Any, where: str, file: str, *, probability: bool) -> list[dict]:
    if not isinstance(val, list) or not val:
        raise CaseError("expected a non-empty list of {wind_speed, hs, tp, ...}", field=where,
                        file=file)  # fmt: skip
    rows = []
    for i, r in enumerate(val):
        w = f"{where}[{i}]"
        r = _check_keys(r, SEA_KEYS, w, file)
        row = {"wind_speed": _num(r, "wind_speed", f"{w}.wind_speed", file, nonneg=True)}
        if row["wind_speed"] is None:
            raise CaseError("required key is missing", field=f"{w}.wind_speed", file=file)
        for k in ("hs", "tp"):
            row[k] = _num(r, k, f"{w}.{k}", file, positive=True)
            if row[k] is None:
                raise CaseError("required key is missing", field=f"{w}.{k}", file=file)
        row["gamma"] = _num(r, "gamma", f"{w}.gamma", file, positive=True)
        p = _num(r, "probability", f"{w}.probability", file, nonneg=True,
                 default=None if probability else 1.0)  # fmt: skip
        if p is None:
            raise CaseError("required key is missing", field=f"{w}.probability", file=file)
        row["probability"] = p
        rows.append(row)
    return rows


def _site(data: Any, file: str, dlcs: set[str]) -> dict:
    s = _check_keys(data, SITE_KEYS, "site", file)
    site: dict[str, Any] = {}
    site["turbine_class"] = _choice(s.get("turbine_class", "I"), list(VREF), "site.turbine_class",
                                    file)  # fmt: skip
    site["turbulence_class"] = _choice(s.get("turbulence_class", "B"), list(IREF),
                                       "site.turbulence_class", file)  # fmt: skip
    site["hub_height"] = _num(s, "hub_height", "site.hub_height", file, default=90.0,
                                positive=True)  # fmt: skip
    site["shear_exponent"] = _num(s, "shear_exponent", "site.shear_exponent", file, default=0.14)
    site["cut_in"] = _num(s, "cut_in", "site.cut_in", file, default=3.0, positive=True)
    site["cut_out"] = _num(s, "cut_out", "site.cut_out", file, default=25.0, positive=True)
    if site["cut_out"] <= site["cut_in"]:
        raise CaseError(f"cut_out {site['cut_out']:g} m/s must exceed cut_in {site['cut_in']:g} m/s",
                        field="site.cut_out", file=file)  # fmt: skip
    bins = s.get("wind_bins", {"start": 4.0, "stop": 24.0, "width": 2.0})
    if isinstance(bins, dict):
        b = _check_keys(bins, {"start", "stop", "width"}, "site.wind_bins", file)
        start = _num(b, "start", "site.wind_bins.start", file, default=site["cut_in"], positive=True)
        stop = _num(b, "stop", "site.wind_bins.stop", file, default=site["cut_out"], positive=True)
        width = _num(b, "width", "site.wind_bins.width", file, default=2.0, positive=True)
        n = int(math.floor((stop - start) / width + 1e-9)) + 1
        centres = [start + i * width for i in range(n)]
    else:
        centres = _num_list(bins, "site.wind_bins", file)
    if any(b2 <= b1 for b1, b2 in zip(centres, centres[1:], strict=False)):
        raise CaseError("wind bins must increase", field="site.wind_bins", file=file)
    for i, v in enumerate(centres):
        if not site["cut_in"] <= v <= site["cut_out"]:
            raise CaseError(
                f"wind bin {v:g} m/s is outside cut-in..cut-out ({site['cut_in']:g}.."
                f"{site['cut_out']:g} m/s) of the operating DLCs",
                field=f"site.wind_bins[{i}]", file=file,
            )  # fmt: skip
    site["wind_bins"] = centres
    wb = s.get("weibull")
    if wb is None:
        va = v_ave(site["turbine_class"])
        site["weibull"] = {"k": 2.0, "A": 2.0 * va / math.sqrt(math.pi), "source": "rayleigh"}
    else:
        w = _check_keys(wb, {"k", "A"}, "site.weibull", file)
        k = _num(w, "k", "site.weibull.k", file)
        a = _num(w, "A", "site.weibull.A", file)
        if k is None or k <= 0:
            raise CaseError(f"Weibull shape k must be positive, got {w.get('k')!r}",
                            field="site.weibull.k", file=file)  # fmt: skip
        if a is None or a <= 0:
            raise CaseError(f"Weibull scale A must be positive, got {w.get('A')!r}",
                            field="site.weibull.A", file=file)  # fmt: skip
        site["weibull"] = {"k": k, "A": a, "source": "file"}
    site["scatter"] = None
    site["sea_states"] = None
    operating = dlcs & {"1.2", "1.3"}
    if s.get("scatter") is not None and s.get("sea_states") is not None:
        raise CaseError("give either 'scatter' (joint) or 'sea_states' (per wind bin), not both",
                        field="site.scatter", file=file)  # fmt: skip
    if s.get("scatter") is not None:
        rows = _sea_rows(s["scatter"], "site.scatter", file, probability=True)
        total = sum(r["probability"] for r in rows)
        if abs(total - 1.0) > PROB_TOL:
            raise CaseError(f"the scatter table's probabilities sum to {total:.9g}, not 1 "
                            f"(within {PROB_TOL:g})", field="site.scatter", file=file)  # fmt: skip
        site["scatter"] = rows
    elif s.get("sea_states") is not None:
        rows = _sea_rows(s["sea_states"], "site.sea_states", file, probability=False)
        site["sea_states"] = rows
    elif operating:
        raise CaseError(f"DLC {', '.join(sorted(operating))} need the normal sea states: "
                        "'sea_states' (per wind bin) or 'scatter'", field="site.sea_states",
                        file=file)  # fmt: skip
    table = site["scatter"] or site["sea_states"]
    key = "site.scatter" if site["scatter"] is not None else "site.sea_states"
    if table is not None:
        _match_bins(table, centres, key, file)
        if site["sea_states"] is not None:
            for v in centres:
                rows = [r for r in table if abs(r["wind_speed"] - v) < 1e-9]
                total = sum(r["probability"] for r in rows)
                if rows and abs(total - 1.0) > PROB_TOL:
                    raise CaseError(
                        f"the sea states of wind bin {v:g} m/s have probabilities summing to "
                        f"{total:.9g}, not 1 (within {PROB_TOL:g})", field=key, file=file,
                    )  # fmt: skip
        if operating:
            missing = [v for v in centres if not any(abs(r["wind_speed"] - v) < 1e-9 for r in table)]
            if missing:
                raise CaseError(f"no sea state for wind bin(s) {missing} m/s", field=key, file=file)
    site["severe_sea_states"] = None
    if s.get("severe_sea_states") is not None:
        rows = _sea_rows(s["severe_sea_states"], "site.severe_sea_states", file, probability=False)
        _match_bins(rows, centres, "site.severe_sea_states", file)
        site["severe_sea_states"] = rows
    elif "1.6" in dlcs:
        raise CaseError("DLC 1.6 needs the severe sea state per wind bin",
                        field="site.severe_sea_states", file=file)  # fmt: skip
    site["extreme_sea_states"] = None
    parked = dlcs & {"6.1", "6.3"}
    if s.get("extreme_sea_states") is not None:
        e = _check_keys(s["extreme_sea_states"], EXTREME_SEA_KEYS, "site.extreme_sea_states", file)
        ess = {}
        for k in sorted(EXTREME_SEA_KEYS):
            ess[k] = _num(e, k, f"site.extreme_sea_states.{k}", file, positive=True)
        for d, (hk, tk) in (("6.1", ("hs50", "tp50")), ("6.3", ("hs1", "tp1"))):
            for k in (hk, tk):
                if d in dlcs and ess[k] is None:
                    raise CaseError(f"DLC {d} needs {k}", field=f"site.extreme_sea_states.{k}",
                                    file=file)  # fmt: skip
        site["extreme_sea_states"] = ess
    elif parked:
        raise CaseError(f"DLC {', '.join(sorted(parked))} need the extreme sea states "
                        "(hs50, tp50, hs1, tp1)", field="site.extreme_sea_states",
                        file=file)  # fmt: skip
    wd = s.get("wave_directions", [0.0])
    if not isinstance(wd, list) or not wd:
        raise CaseError("expected a non-empty list", field="site.wave_directions", file=file)
    dirs = []
    for i, d in enumerate(wd):
        w = f"site.wave_directions[{i}]"
        if isinstance(d, dict):
            d = _check_keys(d, {"heading_deg", "probability"}, w, file)
            h = _num(d, "heading_deg", f"{w}.heading_deg", file, default=0.0)
            p = _num(d, "probability", f"{w}.probability", file, nonneg=True)
            if p is None:
                raise CaseError("required key is missing", field=f"{w}.probability", file=file)
        else:
            h = _num({"h": d}, "h", w, file)
            p = 1.0 / len(wd)
        dirs.append({"heading_deg": h, "probability": p})
    total = sum(d["probability"] for d in dirs)
    if abs(total - 1.0) > PROB_TOL:
        raise CaseError(f"the wave directions' probabilities sum to {total:.9g}, not 1 "
                        f"(within {PROB_TOL:g})", field="site.wave_directions", file=file)  # fmt: skip
    site["wave_directions"] = dirs
    return site


def _match_bins(rows: list[dict], centres: list[float], key: str, file: str) -> None:
    for i, r in enumerate(rows):
        if not any(abs(r["wind_speed"] - v) < 1e-9 for v in centres):
            raise CaseError(
                f"wind speed {r['wind_speed']:g} m/s is not one of the wind bins {centres}",
                field=f"{key}[{i}].wind_speed", file=file,
            )  # fmt: skip


def dlc_from_dict(data: Any, *, base_dir: pathlib.Path, source: str = "", name: str = "dlc",
                  overrides: dict | None = None) -> DLCSet:  # fmt: skip
    """Validate a parsed DLC mapping (CaseError names the file and the field)."""
    data = _check_keys(rename_deprecated(data, TOP_KEYS, "", source), TOP_KEYS, "", source)
    data = dict(data, **(overrides or {}))
    if isinstance(data.get("site"), dict):
        data["site"] = rename_deprecated(data["site"], SITE_KEYS, "site", source)
    if isinstance(data.get("load_cases"), list):
        data["load_cases"] = [rename_deprecated(lc, LOAD_CASE_KEYS, f"load_cases[{i}]", source)
                              for i, lc in enumerate(data["load_cases"])]  # fmt: skip
    case = data.get("case")
    if not isinstance(case, str):
        raise CaseError("a case file path is required", field="case", file=source)
    case_path = (base_dir / case).resolve()
    if not case_path.is_file():
        raise CaseError(f"case file not found: {base_dir / case}", field="case", file=source)
    lcs_raw = data.get("load_cases")
    if not isinstance(lcs_raw, list) or not lcs_raw:
        raise CaseError("expected a non-empty list of load cases", field="load_cases", file=source)
    dlcs = []
    for i, lc in enumerate(lcs_raw):
        lc = _check_keys(lc, LOAD_CASE_KEYS, f"load_cases[{i}]", source)
        d = str(lc.get("dlc", ""))
        dlcs.append(_choice(d, list(KNOWN_DLCS), f"load_cases[{i}].dlc", source))
    dup = sorted({d for d in dlcs if dlcs.count(d) > 1})
    if dup:
        raise CaseError(f"DLC {dup} listed twice", field="load_cases", file=source)
    site = _site(data.get("site") or {}, source, set(dlcs))
    seeds = _int(data, "seeds", "seeds", source, DEFAULT_SEEDS)
    analysis = _num(data, "analysis", "analysis", source, default=DEFAULT_ANALYSIS_S,
                    positive=True)  # fmt: skip
    transient = _num(data, "transient", "transient", source, default=DEFAULT_TRANSIENT_S,
                     nonneg=True)  # fmt: skip
    load_cases = []
    for i, (lc, d) in enumerate(zip(lcs_raw, dlcs, strict=True)):
        w = f"load_cases[{i}]"
        ws = lc.get("wind_speeds")
        if ws is None:
            speeds = list(site["wind_bins"])
        else:
            speeds = _num_list(ws, f"{w}.wind_speeds", source)
            for j, v in enumerate(speeds):
                if d in ROTOR_STATE and ROTOR_STATE[d] == "operating" and not (
                    site["cut_in"] <= v <= site["cut_out"]
                ):
                    raise CaseError(
                        f"wind speed {v:g} m/s is outside cut-in..cut-out ({site['cut_in']:g}.."
                        f"{site['cut_out']:g} m/s) of the operating DLC {d}",
                        field=f"{w}.wind_speeds[{j}]", file=source,
                    )  # fmt: skip
                if not any(abs(v - b) < 1e-9 for b in site["wind_bins"]):
                    raise CaseError(f"wind speed {v:g} m/s is not one of the wind bins",
                                    field=f"{w}.wind_speeds[{j}]", file=source)  # fmt: skip
        yaw = lc.get("yaw_misalignment_deg")
        if yaw is not None and d not in DEFAULT_YAW:
            raise CaseError(f"yaw misalignment applies to the parked DLCs (6.x), not {d}",
                            field=f"{w}.yaw_misalignment_deg", file=source)  # fmt: skip
        yaws = _num_list(yaw, f"{w}.yaw_misalignment_deg", source) if yaw is not None else \
            list(DEFAULT_YAW.get(d, [0.0]))  # fmt: skip
        sf = _num(lc, "safety_factor", f"{w}.safety_factor", source, positive=True)
        method = _choice(lc.get("extreme_method", (data.get("extremes") or {}).get("method", "mean")),
                         EXTREME_METHODS, f"{w}.extreme_method", source)  # fmt: skip
        load_cases.append(
            LoadCase(
                dlc=d, wind_speeds=speeds, yaw_misalignment_deg=yaws,
                seeds=_int(lc, "seeds", f"{w}.seeds", source, seeds),
                analysis_s=_num(lc, "analysis", f"{w}.analysis", source, default=analysis,
                                positive=True),
                safety_factor=sf, extreme_method=method, index=i,
            )  # fmt: skip
        )
    channels = data.get("channels")
    fat = _check_keys(data.get("fatigue") or {}, FATIGUE_KEYS, "fatigue", source)
    ext = _check_keys(data.get("extremes") or {}, EXTREME_KEYS, "extremes", source)
    for key, sec in (("fatigue", fat), ("extremes", ext)):
        ch = sec.get("channels", [])
        if not isinstance(ch, list) or not all(isinstance(c, str) for c in ch):
            raise CaseError("expected a list of channel names", field=f"{key}.channels", file=source)
    from floatwind.dlc.fatigue import DEFAULT_WOHLER

    wohler = fat.get("wohler", list(DEFAULT_WOHLER))
    wohler = _num_list(wohler if isinstance(wohler, list) else [wohler], "fatigue.wohler", source)
    for j, m in enumerate(wohler):
        if m <= 0:
            raise CaseError(f"a Wöhler exponent must be positive, got {m:g}",
                            field=f"fatigue.wohler[{j}]", file=source)  # fmt: skip
    fatigue = {
        "channels": list(fat.get("channels", [])),
        "wohler": wohler,
        "n_eq": _num(fat, "n_eq", "fatigue.n_eq", source, positive=True),
        "f_eq": _num(fat, "f_eq", "fatigue.f_eq", source, positive=True),
    }
    if fatigue["n_eq"] is not None and fatigue["f_eq"] is not None:
        raise CaseError("give n_eq or f_eq, not both", field="fatigue.n_eq", file=source)
    extremes = {"channels": list(ext.get("channels", [])),
                "method": _choice(ext.get("method", "mean"), EXTREME_METHODS, "extremes.method",
                                  source)}  # fmt: skip
    if channels is None:
        channels = list(dict.fromkeys(extremes["channels"] + fatigue["channels"]))
    if not isinstance(channels, list) or not channels or not all(isinstance(c, str) for c in channels):
        raise CaseError("expected a non-empty list of channel names (or fatigue/extremes "
                        "channels)", field="channels", file=source)  # fmt: skip
    for key, sec in (("fatigue", fatigue), ("extremes", extremes)):
        for j, c in enumerate(sec["channels"]):
            if c not in channels:
                raise CaseError(f"channel {c!r} is not in 'channels'{suggest(c, channels)}",
                                field=f"{key}.channels[{j}]", file=source)  # fmt: skip
    sim = data.get("simulation") or {}
    if not isinstance(sim, dict):
        raise CaseError("expected a mapping", field="simulation", file=source)
    for lc in load_cases:
        if transient >= lc.analysis_s + transient and transient > 0:  # pragma: no cover - guard
            raise CaseError("transient too long", field="transient", file=source)
    master = _int(data, "master_seed", "master_seed", source, 0, minimum=0)
    topology = data.get("topology") or {}
    if not isinstance(topology, dict):
        raise CaseError("expected a mapping (merged into the case's topology)", field="topology",
                        file=source)  # fmt: skip
    return DLCSet(
        name=str(data.get("name", name)),
        description=str(data.get("description", "")),
        case=case_path,
        site=site,
        load_cases=load_cases,
        transient_s=float(transient),
        master_seed=master,
        lifetime_years=_num(data, "lifetime_years", "lifetime_years", source,
                            default=DEFAULT_LIFETIME_YEARS, positive=True),  # fmt: skip
        channels=list(channels),
        fatigue=fatigue,
        extremes=extremes,
        simulation=dict(sim),
        max_batch=_int(data, "max_batch", "max_batch", source, 64),
        topology=dict(topology),
        source=source,
        raw=copy.deepcopy(data),
    )


def load_dlc(path: str | pathlib.Path, overrides: dict | None = None) -> DLCSet:
    """Read and validate a DLC file (CaseError naming the file and field)."""
    path = pathlib.Path(path)
    data = _read_yaml(path)
    return dlc_from_dict(data, base_dir=path.resolve().parent, source=str(path), name=path.stem,
                         overrides=overrides)  # fmt: skip
