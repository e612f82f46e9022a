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

The rotor is the case's: the C_T disc (``thrust_ct``) or the blade-element rotor (``bem_rotor``),
not both. A parked DLC locks the spin and gives the disc its ``ct_parked``, or feathers the
blade-element rotor (pitch 90 deg; :meth:`DLCSet.parked_rotor`).
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
from floatwind.studies.spec import Study, _read_yaml, study_from_dict
from floatwind.validate import Section, number, suggest

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
        rotor = self.rotor_model()  # refuses a case with both rotor models
        if parked:
            loads, topology = self.parked_rotor(rotor)
            variant["loads"] = loads
            variant["topology"] = dict(variant.get("topology") or {}, **topology)
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

    def _case_loads(self) -> list[tuple[int, dict]]:
        data = _read_yaml(self.case)
        return [(i, ld) for i, ld in enumerate(data.get("loads") or []) if isinstance(ld, dict)]

    def rotor_model(self) -> str | None:
        """The case's rotor model: ``thrust_ct`` (the C_T disc), ``bem_rotor`` (the
        blade-element rotor) or None (neither); a case with both is refused (the two would add
        up to twice the rotor's loads)."""
        from floatwind.loads.rotor_bem import BemRotor
        from floatwind.loads.thrust import RotorThrust

        kinds = {ld.get("type") for _, ld in self._case_loads()} & {RotorThrust.kind, BemRotor.kind}
        if len(kinds) > 1:
            raise CaseError(
                f"the case has both a {RotorThrust.kind} and a {BemRotor.kind} load: a DLC runs "
                "one rotor model, remove one of them", field="loads", file=str(self.case),
            )  # fmt: skip
        return next(iter(kinds), None)

    def parked_rotor(self, rotor: str | None = None) -> tuple[dict, dict]:
        """The parked rotor of a 6.x DLC as a study variant's ``(loads, topology)`` overrides.

        Either rotor model has its spin joint locked (azimuth 0, blade 1 up). The C_T disc
        (``thrust_ct``) takes the constant parked thrust coefficient ``ct_parked`` of the case
        (:meth:`parked_ct`) with no torque or power. The blade-element rotor (``bem_rotor``) is
        feathered: pitch 90 deg (``pitch_deg``, or ``pitch`` in rad where the case gives that
        key); blades on bodies of their own (``blade_bodies``: the six-body topology) take the
        pitch from their pitch joints, so the topology's ``pitch`` is locked at 90 deg as well.
        """
        from floatwind.loads.rotor_bem import BemRotor
        from floatwind.loads.servo import ServoDyn
        from floatwind.loads.thrust import RotorThrust

        rotor = self.rotor_model() if rotor is None else rotor
        topology: dict[str, Any] = {"spin": {"kind": "locked", "value_deg": 0.0}}
        if rotor == BemRotor.kind:
            data = _read_yaml(self.case)
            over: dict[str, Any] = {"pitch_deg": 90.0}
            for i, ld in self._case_loads():
                if ld.get("type") != BemRotor.kind:
                    continue
                if "pitch" in ld:
                    over = {"pitch": math.pi / 2}
                body = ld.get("body")
                if any(b != body for b in ld.get("blade_bodies") or []):
                    topo = dict(data.get("topology") or {}, **self.topology)
                    if topo.get("kind") != "six_body":
                        raise CaseError(
                            "a parked DLC (6.x) feathers blades on bodies of their own through "
                            "the six_body topology's pitch joints; this case has no "
                            "'topology: {kind: six_body}'",
                            field=f"loads[{i}].blade_bodies", file=str(self.case),
                        )  # fmt: skip
                    topology["pitch"] = {"kind": "locked", "value_deg": 90.0}
            loads = {BemRotor.kind: over}
            servo = self._parked_servodyn(topology)
            if servo is not None:
                loads[ServoDyn.kind] = servo
            return loads, topology
        parked = {"ct_mode": "fixed", "ct_fixed": self.parked_ct(), "rated_power": 0.0,
                  "cp_over_ct": 0.0}  # fmt: skip
        return {RotorThrust.kind: parked}, topology

    def _parked_servodyn(self, topology: dict) -> dict | None:
        """The parked overrides of a case's ``servodyn`` load (a generator and controller on a
        free spin, issue 36): the controller off (``kind: none``), the commanded pitch feathered
        (90 deg: the rotor reads it through ``pitch_from``), the spin DOF removed (``spin_drive``
        None) so that the spin is locked; None when the case has no servodyn load."""
        from floatwind.loads.servo import ServoDyn

        for _, ld in self._case_loads():
            if ld.get("type") != ServoDyn.kind:
                continue
            pitch = ld.get("pitch") or {}
            n = len(pitch.get("initial", pitch.get("initial_deg", [0.0, 0.0, 0.0])))
            over: dict[str, Any] = {"controller": {"kind": "none"}}
            if "initial" in pitch:
                over["pitch"] = {"initial": [math.pi / 2] * n}
            else:
                over["pitch"] = {"initial_deg": [90.0] * n}
            topology["spin_drive"] = None
            return over
        return None

    def parked_ct(self) -> float:
        """The parked-rotor thrust coefficient: the key ``ct_parked`` of the case's rotor thrust
        load (:class:`floatwind.loads.thrust.RotorThrust`)."""
        from floatwind.loads.rotor_bem import BemRotor
        from floatwind.loads.thrust import RotorThrust

        kind = RotorThrust.kind
        for i, ld in self._case_loads():
            if ld.get("type") == kind:
                if "ct_parked" not in ld:
                    raise CaseError(
                        "a parked DLC (6.x) needs the parked-rotor thrust coefficient 'ct_parked' "
                        f"of the {kind} load",
                        field=f"loads[{i}].ct_parked",
                        file=str(self.case),
                    )
                return float(ld["ct_parked"])
        raise CaseError(f"a parked DLC (6.x) needs a {kind} load (with ct_parked) or a "
                        f"{BemRotor.kind} load in the case", field="loads",
                        file=str(self.case))  # fmt: skip

    def fingerprint(self) -> str:
        text = json.dumps(self.raw, sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def _variant(lc: LoadCase) -> str:
    return "parked" if lc.dlc in ("6.1", "6.3") else "operating"


# ---------------------------------------------------------------- validation


def _sea_rows(s: Section, key: str, *, probability: bool) -> list[dict]:
    """The list ``key`` of sea states ``{wind_speed, hs, tp, gamma, probability}``."""
    val = s.raw(key)
    if not isinstance(val, list) or not val:
        raise s.error("expected a non-empty list of {wind_speed, hs, tp, ...}", key)
    return [
        {"wind_speed": r.number("wind_speed", kind="nonnegative"),
         "hs": r.number("hs", kind="positive"), "tp": r.number("tp", kind="positive"),
         "gamma": r.number("gamma", None, kind="positive"),
         "probability": r.number("probability", ... if probability else 1.0, kind="nonnegative")}
        for r in s.sections(key, SEA_KEYS)
    ]  # fmt: skip


def _site(s: Section, dlcs: set[str]) -> dict:
    site: dict[str, Any] = {}
    site["turbine_class"] = s.choice("turbine_class", list(VREF), "I")
    site["turbulence_class"] = s.choice("turbulence_class", list(IREF), "B")
    site["hub_height"] = s.number("hub_height", 90.0, kind="positive")
    site["shear_exponent"] = s.number("shear_exponent", 0.14)
    site["cut_in"] = s.number("cut_in", 3.0, kind="positive")
    site["cut_out"] = s.number("cut_out", 25.0, kind="positive")
    if site["cut_out"] <= site["cut_in"]:
        raise s.error(f"cut_out {site['cut_out']:g} m/s must exceed cut_in {site['cut_in']:g} m/s",
                      "cut_out")  # fmt: skip
    bins = s.raw("wind_bins", {"start": 4.0, "stop": 24.0, "width": 2.0})
    if isinstance(bins, dict):  # a range of bins
        b = Section(bins, s.path("wind_bins"), {"start", "stop", "width"}, file=s.file)
        start = b.number("start", site["cut_in"], kind="positive")
        stop = b.number("stop", site["cut_out"], kind="positive")
        width = b.number("width", 2.0, kind="positive")
        n = int(math.floor((stop - start) / width + 1e-9)) + 1
        centres = [start + i * width for i in range(n)]
    else:  # the bin centres
        centres = s.numbers("wind_bins")
    if any(b2 <= b1 for b1, b2 in zip(centres, centres[1:], strict=False)):
        raise s.error("wind bins must increase", "wind_bins")
    for i, v in enumerate(centres):
        if not site["cut_in"] <= v <= site["cut_out"]:
            raise s.error(
                f"wind bin {v:g} m/s is outside cut-in..cut-out ({site['cut_in']:g}.."
                f"{site['cut_out']:g} m/s) of the operating DLCs", f"wind_bins[{i}]",
            )  # fmt: skip
    site["wind_bins"] = centres
    if not s.has("weibull"):
        va = v_ave(site["turbine_class"])
        site["weibull"] = {"k": 2.0, "A": 2.0 * va / math.sqrt(math.pi), "source": "rayleigh"}
    else:
        w = s.section("weibull", {"k", "A"})
        k = w.number("k", None)
        a = w.number("A", None)
        if k is None or k <= 0:
            raise w.error(f"Weibull shape k must be positive, got {w.raw('k', None)!r}", "k")
        if a is None or a <= 0:
            raise w.error(f"Weibull scale A must be positive, got {w.raw('A', None)!r}", "A")
        site["weibull"] = {"k": k, "A": a, "source": "file"}
    site["scatter"] = None
    site["sea_states"] = None
    operating = dlcs & {"1.2", "1.3"}
    if s.has("scatter") and s.has("sea_states"):
        raise s.error("give either 'scatter' (joint) or 'sea_states' (per wind bin), not both",
                      "scatter")  # fmt: skip
    if s.has("scatter"):
        rows = _sea_rows(s, "scatter", probability=True)
        total = sum(r["probability"] for r in rows)
        if abs(total - 1.0) > PROB_TOL:
            raise s.error(f"the scatter table's probabilities sum to {total:.9g}, not 1 "
                          f"(within {PROB_TOL:g})", "scatter")  # fmt: skip
        site["scatter"] = rows
    elif s.has("sea_states"):
        site["sea_states"] = _sea_rows(s, "sea_states", probability=False)
    elif operating:
        raise s.error(f"DLC {', '.join(sorted(operating))} need the normal sea states: "
                      "'sea_states' (per wind bin) or 'scatter'", "sea_states")  # fmt: skip
    table = site["scatter"] or site["sea_states"]
    key = "scatter" if site["scatter"] is not None else "sea_states"
    if table is not None:
        _match_bins(s, table, centres, key)
        if site["sea_states"] is not None:
            for v in centres:
                rows = [r for r in table if abs(r["wind_speed"] - v) < 1e-9]
                total = sum(r["probability"] for r in rows)
                if rows and abs(total - 1.0) > PROB_TOL:
                    raise s.error(
                        f"the sea states of wind bin {v:g} m/s have probabilities summing to "
                        f"{total:.9g}, not 1 (within {PROB_TOL:g})", key,
                    )  # fmt: skip
        if operating:
            missing = [v for v in centres if not any(abs(r["wind_speed"] - v) < 1e-9 for r in table)]
            if missing:
                raise s.error(f"no sea state for wind bin(s) {missing} m/s", key)
    site["severe_sea_states"] = None
    if s.has("severe_sea_states"):
        rows = _sea_rows(s, "severe_sea_states", probability=False)
        _match_bins(s, rows, centres, "severe_sea_states")
        site["severe_sea_states"] = rows
    elif "1.6" in dlcs:
        raise s.error("DLC 1.6 needs the severe sea state per wind bin", "severe_sea_states")
    site["extreme_sea_states"] = None
    parked = dlcs & {"6.1", "6.3"}
    if s.has("extreme_sea_states"):
        e = s.section("extreme_sea_states", EXTREME_SEA_KEYS)
        ess = {k: e.number(k, None, kind="positive") for k in sorted(EXTREME_SEA_KEYS)}
        for d, (hk, tk) in (("6.1", ("hs50", "tp50")), ("6.3", ("hs1", "tp1"))):
            for k in (hk, tk):
                if d in dlcs and ess[k] is None:
                    raise e.error(f"DLC {d} needs {k}", k)
        site["extreme_sea_states"] = ess
    elif parked:
        raise s.error(f"DLC {', '.join(sorted(parked))} need the extreme sea states "
                      "(hs50, tp50, hs1, tp1)", "extreme_sea_states")  # fmt: skip
    dirs = [{"heading_deg": 0.0, "probability": 1.0}]
    if s.has("wave_directions"):
        items = s.items("wave_directions")
        dirs = []
        for w, d in items:
            if isinstance(d, dict):
                d = Section(d, w, {"heading_deg", "probability"}, file=s.file)
                dirs.append({"heading_deg": d.number("heading_deg", 0.0),
                             "probability": d.number("probability", kind="nonnegative")})  # fmt: skip
            else:
                dirs.append({"heading_deg": number(d, w, file=s.file),
                             "probability": 1.0 / len(items)})  # fmt: skip
    total = sum(d["probability"] for d in dirs)
    if abs(total - 1.0) > PROB_TOL:
        raise s.error(f"the wave directions' probabilities sum to {total:.9g}, not 1 "
                      f"(within {PROB_TOL:g})", "wave_directions")  # fmt: skip
    site["wave_directions"] = dirs
    return site


def _match_bins(s: Section, rows: list[dict], centres: list[float], key: str) -> None:
    for i, r in enumerate(rows):
        if not any(abs(r["wind_speed"] - v) < 1e-9 for v in centres):
            raise s.error(
                f"wind speed {r['wind_speed']:g} m/s is not one of the wind bins {centres}",
                f"{key}[{i}].wind_speed",
            )


def dlc_from_dict(data: Any, *, base_dir: pathlib.Path, source: str = "", name: str = "dlc",
                  overrides: dict | None = None) -> DLCSet:  # fmt: skip
    """Validate a parsed DLC mapping (CaseError names the file and the field)."""
    top = Section(data, "", TOP_KEYS, file=source)
    if overrides:
        top = Section(dict(top.data, **overrides), "", TOP_KEYS, file=source)
    data = top.data
    case = top.raw("case", None)
    if not isinstance(case, str):
        raise top.error("a case file path is required", "case")
    case_path = (base_dir / case).resolve()
    if not case_path.is_file():
        raise top.error(f"case file not found: {base_dir / case}", "case")
    if not isinstance(top.raw("load_cases", None), list) or not data["load_cases"]:
        raise top.error("expected a non-empty list of load cases", "load_cases")
    lcs = top.sections("load_cases", LOAD_CASE_KEYS)
    data["load_cases"] = [lc.data for lc in lcs]  # old spellings renamed (the fingerprint's raw)
    dlcs = [lc.one_of(str(lc.raw("dlc", "")), "dlc", list(KNOWN_DLCS)) for lc in lcs]
    dup = sorted({d for d in dlcs if dlcs.count(d) > 1})
    if dup:
        raise top.error(f"DLC {dup} listed twice", "load_cases")
    site_sec = top.section("site", SITE_KEYS)
    if top.has("site"):
        data["site"] = site_sec.data
    site = _site(site_sec, set(dlcs))
    seeds = top.integer("seeds", DEFAULT_SEEDS, minimum=1)
    analysis = top.number("analysis", DEFAULT_ANALYSIS_S, kind="positive")
    transient = top.number("transient", DEFAULT_TRANSIENT_S, kind="nonnegative")
    fat = top.section("fatigue", FATIGUE_KEYS)
    ext = top.section("extremes", EXTREME_KEYS)
    default_method = ext.choice("method", EXTREME_METHODS, "mean")
    load_cases = []
    for i, (lc, d) in enumerate(zip(lcs, dlcs, strict=True)):
        if not lc.has("wind_speeds"):
            speeds = list(site["wind_bins"])
        else:
            speeds = lc.numbers("wind_speeds")
            for j, v in enumerate(speeds):
                if d in ROTOR_STATE and ROTOR_STATE[d] == "operating" and not (
                    site["cut_in"] <= v <= site["cut_out"]
                ):
                    raise lc.error(
                        f"wind speed {v:g} m/s is outside cut-in..cut-out ({site['cut_in']:g}.."
                        f"{site['cut_out']:g} m/s) of the operating DLC {d}", f"wind_speeds[{j}]",
                    )  # fmt: skip
                if not any(abs(v - b) < 1e-9 for b in site["wind_bins"]):
                    raise lc.error(f"wind speed {v:g} m/s is not one of the wind bins",
                                   f"wind_speeds[{j}]")  # fmt: skip
        if lc.has("yaw_misalignment_deg") and d not in DEFAULT_YAW:
            raise lc.error(f"yaw misalignment applies to the parked DLCs (6.x), not {d}",
                           "yaw_misalignment_deg")  # fmt: skip
        load_cases.append(
            LoadCase(
                dlc=d, wind_speeds=speeds,
                yaw_misalignment_deg=lc.numbers("yaw_misalignment_deg", list(DEFAULT_YAW.get(d, [0.0]))),
                seeds=lc.integer("seeds", seeds, minimum=1),
                analysis_s=lc.number("analysis", analysis, kind="positive"),
                safety_factor=lc.number("safety_factor", None, kind="positive"),
                extreme_method=lc.choice("extreme_method", EXTREME_METHODS, default_method),
                index=i,
            )  # fmt: skip
        )
    channels = top.raw("channels", None)
    from floatwind.dlc.fatigue import DEFAULT_WOHLER

    fatigue = {
        "channels": fat.strings("channels", [], what="channel names"),
        "wohler": fat.numbers("wohler", list(DEFAULT_WOHLER), single=True),
        "n_eq": fat.number("n_eq", None, kind="positive"),
        "f_eq": fat.number("f_eq", None, kind="positive"),
    }
    for j, m in enumerate(fatigue["wohler"]):
        if m <= 0:
            raise fat.error(f"a Wöhler exponent must be positive, got {m:g}", f"wohler[{j}]")
    if fatigue["n_eq"] is not None and fatigue["f_eq"] is not None:
        raise fat.error("give n_eq or f_eq, not both", "n_eq")
    extremes = {"channels": ext.strings("channels", [], what="channel names"), "method": default_method}
    if channels is None:
        channels = list(dict.fromkeys(extremes["channels"] + fatigue["channels"]))
    if not isinstance(channels, list) or not channels or not all(isinstance(c, str) for c in channels):
        raise top.error("expected a non-empty list of channel names (or fatigue/extremes "
                        "channels)", "channels")  # fmt: skip
    for sec, info in ((fat, fatigue), (ext, extremes)):
        for j, c in enumerate(info["channels"]):
            if c not in channels:
                raise sec.error(f"channel {c!r} is not in 'channels'{suggest(c, channels)}",
                                f"channels[{j}]")  # fmt: skip
    sim = top.raw("simulation", {})
    if not isinstance(sim, dict):
        raise top.error(f"expected a mapping, got {type(sim).__name__}", "simulation")
    if "t_max" in sim:  # each run lasts analysis + transient: a t_max here would be dropped
        raise top.error(
            "a DLC run lasts 'analysis' + 'transient' seconds; set those instead of t_max",
            "simulation.t_max",
        )
    from floatwind.studies.spec import check_own_simulation

    for length in sorted({lc.analysis_s + float(transient) for lc in load_cases}):
        check_own_simulation(sim, [case_path], length, source)  # before any folder is made
    master = top.integer("master_seed", 0, minimum=0)
    topology = top.raw("topology", {})
    if not isinstance(topology, dict):
        raise top.error("expected a mapping (merged into the case's topology)", "topology")
    _check_own_topology(topology, case_path, source)
    return DLCSet(
        name=str(data.get("name", name)),
        description=str(data.get("description", "")),
        case=case_path,
        site=site,
        load_cases=load_cases,
        transient_s=float(transient),
        master_seed=master,
        lifetime_years=top.number("lifetime_years", DEFAULT_LIFETIME_YEARS, kind="positive"),
        channels=list(channels),
        fatigue=fatigue,
        extremes=extremes,
        simulation=dict(sim),
        max_batch=top.integer("max_batch", 64, minimum=1),
        topology=dict(topology),
        source=source,
        raw=copy.deepcopy(data),
    )


def _check_own_topology(topology: dict, case_path: pathlib.Path, source: str) -> None:
    """The DLC's ``topology`` over the case's, as its runs merge them, checked when the file
    is read (issue 42): an error in a key the DLC gives names the DLC file, before a folder is
    made (one in the case's own keys is left to the run, which names the case)."""
    if not topology:
        return
    import copy

    from floatwind.case.topology import expand_topology
    from floatwind.studies.spec import _merge

    try:
        case_topo = _read_yaml(case_path).get("topology")
    except CaseError:
        return  # the case's own errors are reported, naming it, when it is loaded
    merged = copy.deepcopy(case_topo) if isinstance(case_topo, dict) else {}
    for key, val in topology.items():
        if key in ("yaw", "spin", "pitch"):  # a joint motion is replaced, not merged
            merged[key] = copy.deepcopy(val)
        else:
            _merge(merged, {key: val})
    try:
        expand_topology({"topology": merged})
    except CaseError as exc:
        head = (exc.field or "").removeprefix("topology.").split(".")[0].split("[")[0]
        if head in topology:
            raise CaseError(exc.reason, field=exc.field, file=source or None) from None


def load_dlc(path: str | pathlib.Path, overrides: dict | None = None) -> DLCSet:
    """Read and validate a DLC file (CaseError naming the file and field)."""
    path = pathlib.Path(path)
    data = _read_yaml(path)
    return dlc_from_dict(data, base_dir=path.resolve().parent, source=str(path), name=path.stem,
                         overrides=overrides)  # fmt: skip
