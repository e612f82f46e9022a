"""Study files: a design-load-case / statistical study definition expanded into runs.

A study (YAML, ``docs/studies.md``) names designs (case files), environmental conditions, control
variants, the number of realizations and a master seed. :func:`load_study` validates it and
:meth:`Study.runs` expands it deterministically into :class:`RunSpec` objects, each with a stable
id ``<design>__<condition>__<variant>__r<k>`` and its own ``numpy.random.SeedSequence``:

    SeedSequence(entropy=master_seed, spawn_key=(condition index, realization index))

(``common_random_numbers: true``, the default and the dissertation's choice: every design and
control variant sees the same wind and wave histories) or with the design and variant indices
added in front (``common_random_numbers: false``). A run's seed never depends on which other runs
exist, so any run re-runs alone (``floatwind run --from-study STUDY --id ID``) with the same numbers.
"""

from __future__ import annotations

import copy
import hashlib
import json
import logging
import pathlib
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import yaml

from floatwind.errors import CaseError
from floatwind.validate import number, suggest

log = logging.getLogger(__name__)

STUDY_KEYS = {
    "name",
    "description",
    "designs",
    "conditions",
    "variants",
    "realizations",
    "master_seed",
    "common_random_numbers",
    "duration",
    "simulation",
    "wind",
    "waves",
    "channels",
    "statistics",
    "max_batch",
    "transient",
    "openfast_outputs",
}
DESIGN_KEYS = {"name", "case", "params"}
CONDITION_KEYS = {
    "name",
    "wind_speed",
    "turbulence_class",
    "wind_heading_deg",
    "hs",
    "tp",
    "gamma",
    "wave_heading_deg",
    "environment",
    "params",
}
VARIANT_KEYS = {"name", "ct_mode", "loads", "environment", "topology", "params"}
DEFAULT_CHANNELS = [
    "PtfmSurge",
    "PtfmSway",
    "PtfmHeave",
    "PtfmRoll",
    "PtfmPitch",
    "PtfmYaw",
    "RtAeroFxh",
    "RtAeroPwr",
    "RtAeroCt",
    "FAIRTEN1",
]
DEFAULT_STATISTICS = ["mean", "std", "min", "max"]
#: per-run OpenFAST files a study can write beside its netCDF batches (``DIR/openfast/<id>.<ext>``)
OPENFAST_FORMATS = ("out", "outb")
KNOWN_STATISTICS = {"mean", "std", "min", "max", "q05", "q50", "q95", "upcross", "del"}
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")


@dataclass(frozen=True)
class RunSpec:
    """One run of a study: indices into the study lists, its realization and its seed."""

    id: str
    design: str
    condition: str
    variant: str
    realization: int
    design_index: int
    condition_index: int
    variant_index: int
    seed: np.random.SeedSequence = field(compare=False, repr=False)

    @property
    def group(self) -> tuple[int, int]:
        """Runs with the same group share one model (design and condition) and may be batched."""
        return (self.design_index, self.condition_index)


@dataclass
class Study:
    """A validated study definition (see the module docstring)."""

    name: str
    designs: list[dict]
    conditions: list[dict]
    variants: list[dict]
    realizations: int
    master_seed: int
    common_random_numbers: bool = True
    duration: float | None = None
    simulation: dict = field(default_factory=dict)
    wind: dict | None = None
    waves: dict | None = None
    channels: list[str] = field(default_factory=lambda: list(DEFAULT_CHANNELS))
    statistics: list[str] = field(default_factory=lambda: list(DEFAULT_STATISTICS))
    max_batch: int = 64
    transient: float = 0.0
    openfast_outputs: list[str] = field(default_factory=list)
    description: str = ""
    base_dir: pathlib.Path = field(default_factory=pathlib.Path.cwd)
    source: str = ""
    raw: dict = field(default_factory=dict)

    # ------------------------------------------------------------ expansion

    def runs(self) -> list[RunSpec]:
        """All runs, in a deterministic order (design, condition, variant, realization)."""
        out = []
        for di in range(len(self.designs)):
            for ci in range(len(self.conditions)):
                for vi in range(len(self.variants)):
                    for r in range(self.realizations):
                        out.append(self._run(di, ci, vi, r))
        return out

    def _run(self, di: int, ci: int, vi: int, r: int) -> RunSpec:
        key = (ci, r) if self.common_random_numbers else (di, ci, vi, r)
        seed = np.random.SeedSequence(entropy=self.master_seed, spawn_key=key)
        d, c, v = self.designs[di], self.conditions[ci], self.variants[vi]
        rid = f"{d['name']}__{c['name']}__{v['name']}__r{r:03d}"
        return RunSpec(rid, d["name"], c["name"], v["name"], r, di, ci, vi, seed)

    def run(self, run_id: str) -> RunSpec:
        """The run with id ``run_id`` (CaseError naming the closest id if unknown)."""
        parts = run_id.split("__")
        if len(parts) == 4 and parts[3].startswith("r") and parts[3][1:].isdigit():
            names = [
                [x["name"] for x in lst] for lst in (self.designs, self.conditions, self.variants)
            ]
            r = int(parts[3][1:])
            if (
                all(p in n for p, n in zip(parts[:3], names, strict=False))
                and r < self.realizations
            ):
                return self._run(*(n.index(p) for p, n in zip(parts[:3], names, strict=False)), r)
        ids = [x.id for x in self.runs()]
        raise CaseError(
            f"no run with id {run_id!r}{suggest(run_id, ids)}", field="--id", file=self.source
        )

    def fingerprint(self) -> str:
        """Hash of the expanded definition: a resumed study must match the one on disk."""
        text = json.dumps(self.raw, sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    # ------------------------------------------------------------ case dicts

    def case_path(self, design_index: int) -> pathlib.Path:
        return self.base_dir / self.designs[design_index]["case"]

    def case_dict(self, run: RunSpec) -> dict:
        """The case dict of ``run`` (design case + study settings + condition + variant), with
        ``environment.waves``/``wind`` left in (the executor builds the environment itself)."""
        path = self.case_path(run.design_index)
        data = _read_yaml(path)
        cond = self.conditions[run.condition_index]
        var = self.variants[run.variant_index]
        sim = dict(data.get("simulation") or {})
        sim.update(self.simulation)
        if self.duration is not None:
            sim["t_max"] = self.duration
        data["simulation"] = sim
        env = copy.deepcopy(data.get("environment") or {})
        if self.waves is not None:
            env["waves"] = copy.deepcopy(self.waves)
        if self.wind is not None:
            env["wind"] = copy.deepcopy(self.wind)
        waves = env.get("waves")
        wind = env.get("wind")
        if isinstance(waves, dict):
            for key, ck in (
                ("hs", "hs"),
                ("tp", "tp"),
                ("gamma", "gamma"),
                ("heading_deg", "wave_heading_deg"),
            ):
                if ck in cond:
                    waves[key] = cond[ck]
            if waves.pop("seed", None) is not None:
                log.info("%s: dropped environment.waves.seed (the study sets the seeds)", path)
        if isinstance(wind, dict):
            if "wind_speed" in cond:
                wind["speed"] = cond["wind_speed"]
            if "turbulence_class" in cond:
                wind["turbulence_class"] = cond["turbulence_class"]
            if "wind_heading_deg" in cond:
                wind["heading_deg"] = cond["wind_heading_deg"]
            if wind.pop("seed", None) is not None:
                log.info("%s: dropped environment.wind.seed (the study sets the seeds)", path)
        _merge(env, cond.get("environment") or {})
        _merge(env, var.get("environment") or {})
        data["environment"] = env
        if var.get("topology"):
            topo = copy.deepcopy(data.get("topology") or {})
            for key, val in var["topology"].items():
                if key in ("yaw", "spin", "pitch"):  # a joint motion is replaced, not merged
                    topo[key] = copy.deepcopy(val)
                else:
                    _merge(topo, {key: val})
            data["topology"] = topo
        loads = copy.deepcopy(data.get("loads") or [])
        for ld in loads:
            if not isinstance(ld, dict):
                continue
            if ld.get("type") == "thrust_ct" and var.get("ct_mode") is not None:
                ld["ct_mode"] = var["ct_mode"]
                if var["ct_mode"] == "fixed" and "ct_fixed" not in ld:
                    if "wind_speed" not in cond:
                        raise CaseError(
                            "ct_mode fixed needs the condition's wind_speed (C_T of the mean wind)",
                            field=f"conditions[{run.condition_index}].wind_speed",
                            file=self.source,
                        )
                    ld["mean_wind_speed"] = cond["wind_speed"]
            for typ, over in (var.get("loads") or {}).items():
                if ld.get("type") == typ:
                    _merge(ld, over)
        data["loads"] = loads
        data["name"] = run.id
        return data

    def table(self) -> list[dict]:
        """One row per run: id, names, indices, realization (the study manifest)."""
        return [
            {
                "id": r.id,
                "design": r.design,
                "condition": r.condition,
                "variant": r.variant,
                "realization": r.realization,
            }
            for r in self.runs()
        ]


def _merge(dst: dict, src: dict) -> dict:
    """Deep-merge mapping ``src`` into ``dst`` (in place)."""
    for k, v in src.items():
        if isinstance(v, dict) and isinstance(dst.get(k), dict):
            _merge(dst[k], v)
        else:
            dst[k] = copy.deepcopy(v)
    return dst


def _read_yaml(path: pathlib.Path) -> dict:
    if not path.is_file():
        raise CaseError("file not found", file=str(path))
    from floatwind.io.safe import read_text

    text = read_text(path)
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise CaseError(f"not valid YAML: {exc}", file=str(path)) from None
    if not isinstance(data, dict):
        raise CaseError("expected a YAML mapping of keys", file=str(path))
    return data


def _check_keys(data: Any, allowed: set, where: str, file: str) -> dict:
    if not isinstance(data, dict):
        raise CaseError(f"expected a mapping, got {type(data).__name__}", field=where, file=file)
    for k in data:
        if k not in allowed:
            raise CaseError(
                f"unknown key '{k}'{suggest(str(k), sorted(allowed))}",
                field=f"{where}.{k}" if where else str(k),
                file=file,
            )
    return data


def _named_list(data: Any, key: str, allowed: set, file: str, required: bool = True) -> list[dict]:
    if data is None:
        if required:
            raise CaseError("required key is missing", field=key, file=file)
        return []
    if not isinstance(data, list) or not data:
        raise CaseError("expected a non-empty list", field=key, file=file)
    out = []
    for i, item in enumerate(data):
        item = _check_keys(item, allowed, f"{key}[{i}]", file)
        name = item.get("name")
        if not isinstance(name, str) or not _NAME.match(name) or "__" in name:
            raise CaseError(
                f"name must be letters, digits, '_', '.', '+', '-' without '__', got {name!r}",
                field=f"{key}[{i}].name",
                file=file,
            )
        out.append(dict(item))
    names = [x["name"] for x in out]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise CaseError(f"duplicate names {dup}", field=key, file=file)
    return out


def _number(data: dict, key: str, where: str, file: str, *, positive=False, default=None):
    val = data.get(key, default)
    if val is None:
        return None
    number(val, where, file=file, positive=positive)
    return val


def study_from_dict(
    data: Any, *, base_dir: pathlib.Path, source: str = "", name: str = "study"
) -> Study:
    """Validate a parsed study mapping (CaseError names the field)."""
    data = _check_keys(data, STUDY_KEYS, "", source)
    designs = _named_list(data.get("designs"), "designs", DESIGN_KEYS, source)
    for i, d in enumerate(designs):
        if not isinstance(d.get("case"), str):
            raise CaseError("a case file path is required", field=f"designs[{i}].case", file=source)
        if not (base_dir / d["case"]).is_file():
            raise CaseError(
                f"case file not found: {base_dir / d['case']}",
                field=f"designs[{i}].case",
                file=source,
            )
    conditions = _named_list(data.get("conditions"), "conditions", CONDITION_KEYS, source)
    for i, c in enumerate(conditions):
        for k in ("wind_speed", "hs", "tp"):
            _number(c, k, f"conditions[{i}].{k}", source, positive=k != "wind_speed")
    variants = _named_list(data.get("variants"), "variants", VARIANT_KEYS, source, required=False)
    variants = variants or [{"name": "base"}]
    for i, v in enumerate(variants):
        if v.get("ct_mode") not in (None, "fixed", "variable"):
            raise CaseError(
                f"must be 'fixed' or 'variable', got {v['ct_mode']!r}",
                field=f"variants[{i}].ct_mode",
                file=source,
            )
    nreal = data.get("realizations", 1)
    if isinstance(nreal, bool) or not isinstance(nreal, int) or nreal < 1:
        raise CaseError(
            f"must be a positive integer, got {nreal!r}", field="realizations", file=source
        )
    master = data.get("master_seed", 0)
    if isinstance(master, bool) or not isinstance(master, int) or master < 0:
        raise CaseError(
            f"must be a non-negative integer, got {master!r}", field="master_seed", file=source
        )
    max_batch = data.get("max_batch", 64)
    if isinstance(max_batch, bool) or not isinstance(max_batch, int) or max_batch < 1:
        raise CaseError(
            f"must be a positive integer, got {max_batch!r}", field="max_batch", file=source
        )
    stats = data.get("statistics", list(DEFAULT_STATISTICS))
    if not isinstance(stats, list):
        raise CaseError("expected a list", field="statistics", file=source)
    for s in stats:
        if s not in KNOWN_STATISTICS:
            raise CaseError(
                f"unknown statistic {s!r}{suggest(str(s), sorted(KNOWN_STATISTICS))}",
                field="statistics",
                file=source,
            )
    of_out = data.get("openfast_outputs") or []
    if isinstance(of_out, str):
        of_out = [of_out]
    if not isinstance(of_out, list) or any(f not in OPENFAST_FORMATS for f in of_out):
        raise CaseError(
            f"expected a list of {' and/or '.join(OPENFAST_FORMATS)}, got {of_out!r}",
            field="openfast_outputs",
            file=source,
        )
    channels = data.get("channels", list(DEFAULT_CHANNELS))
    if not isinstance(channels, list) or not all(isinstance(c, str) for c in channels):
        raise CaseError("expected a list of channel names", field="channels", file=source)
    sim = data.get("simulation") or {}
    if not isinstance(sim, dict):
        raise CaseError("expected a mapping", field="simulation", file=source)
    for key in ("wind", "waves"):
        if data.get(key) is not None and not isinstance(data[key], dict):
            raise CaseError("expected a mapping", field=key, file=source)
    duration = _number(data, "duration", "duration", source, positive=True)
    transient = float(_number(data, "transient", "transient", source, default=0.0))
    if transient < 0:
        raise CaseError(f"must not be negative, got {transient:g}", field="transient", file=source)
    if transient > 0:
        lengths = []
        if duration is not None:
            lengths.append(("duration", duration))
        elif isinstance(sim.get("t_max"), (int, float)):
            lengths.append(("simulation.t_max", sim["t_max"]))
        else:
            for i, d in enumerate(designs):
                case = _read_yaml(base_dir / d["case"])
                t_max = (case.get("simulation") or {}).get("t_max", 600.0)
                if isinstance(t_max, (int, float)):
                    lengths.append((f"designs[{i}].case simulation.t_max", t_max))
        for where, length in lengths:
            if transient >= length:
                raise CaseError(
                    f"transient {transient:g} s must be shorter than the run ({where} = "
                    f"{length:g} s): no time would be left for the statistics",
                    field="transient",
                    file=source,
                )
    return Study(
        name=str(data.get("name", name)),
        description=str(data.get("description", "")),
        designs=designs,
        conditions=conditions,
        variants=variants,
        realizations=nreal,
        master_seed=master,
        common_random_numbers=bool(data.get("common_random_numbers", True)),
        duration=duration,
        simulation=dict(sim),
        wind=data.get("wind"),
        waves=data.get("waves"),
        channels=list(channels),
        statistics=list(stats),
        max_batch=max_batch,
        transient=transient,
        openfast_outputs=list(dict.fromkeys(of_out)),
        base_dir=base_dir,
        source=source,
        raw=copy.deepcopy(data),
    )


def load_study(path: str | pathlib.Path, overrides: dict | None = None) -> Study:
    """Read and validate a study file. ``overrides`` replaces top-level keys (e.g. ``duration``).

    Raises
    ------
    CaseError
        Naming the file, the field and the reason.
    """
    path = pathlib.Path(path)
    data = _read_yaml(path)
    data.update(overrides or {})
    return study_from_dict(data, base_dir=path.resolve().parent, source=str(path), name=path.stem)
