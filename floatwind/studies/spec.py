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

from floatwind.errors import CaseError
from floatwind.validate import Section, suggest

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

    def blame(self, exc: CaseError, run: RunSpec) -> CaseError:
        """``exc`` raised while building ``run``'s model, naming the file and field the bad
        value came from: the study's own settings (``simulation``, ``duration``, ``waves``,
        ``wind``, a condition's or variant's values) are blamed on the study file, everything
        else on the design's case file."""
        field = exc.field or ""
        own = self._owner(field, run)
        if own is None:
            return exc.with_file(str(self.case_path(run.design_index)))
        return CaseError(exc.reason, field=own, file=self.source or None)

    def _owner(self, field: str, run: RunSpec) -> str | None:
        def under(prefix: str) -> str | None:  # the rest of ``field`` below ``prefix``
            if field == prefix:
                return ""
            return field[len(prefix) + 1:] if field.startswith(prefix + ".") else None

        def has(mapping, rest: str) -> bool:  # mapping holds the (first key of the) path
            head = rest.split(".")[0].split("[")[0]
            return isinstance(mapping, dict) and head in mapping

        rest = under("simulation")
        if rest is not None:
            head = rest.split(".")[0]
            if head == "t_max" and self.duration is not None:
                return "duration"
            return f"simulation.{rest}" if head in self.simulation else None
        ci, vi = run.condition_index, run.variant_index
        cond, var = self.conditions[ci], self.variants[vi]
        for sub, keys in (("waves", (("hs", "hs"), ("tp", "tp"), ("gamma", "gamma"),
                                     ("heading_deg", "wave_heading_deg"))),
                          ("wind", (("speed", "wind_speed"), ("turbulence_class", "turbulence_class"),
                                    ("heading_deg", "wind_heading_deg")))):  # fmt: skip
            rest = under(f"environment.{sub}")
            if rest is None:
                continue
            for key, ck in keys:
                if rest.split(".")[0] == key and ck in cond:
                    return f"conditions[{ci}].{ck}"
        rest = under("environment")
        if rest is not None:
            if has(var.get("environment"), rest):
                return f"variants[{vi}].environment.{rest}"
            if has(cond.get("environment"), rest):
                return f"conditions[{ci}].environment.{rest}"
            for sub in ("waves", "wind"):
                r = under(f"environment.{sub}")
                if r is not None and getattr(self, sub) is not None:
                    return f"{sub}.{r}" if r else sub
            return None
        rest = under("topology")
        if rest is not None and has(var.get("topology"), rest):
            return f"variants[{vi}].topology.{rest}"
        return None

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
        from floatwind.loads.thrust import RotorThrust  # a variant's ct_mode is its setting

        loads = copy.deepcopy(data.get("loads") or [])
        for ld in loads:
            if not isinstance(ld, dict):
                continue
            if ld.get("type") == RotorThrust.kind and var.get("ct_mode") is not None:
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
    from floatwind.io.safe import load_yaml, read_text

    data = load_yaml(read_text(path), file=str(path))
    if not isinstance(data, dict):
        raise CaseError("expected a YAML mapping of keys", file=str(path))
    return data


def check_own_simulation(sim: dict, cases: list[pathlib.Path], t_max: float | None,
                         source: str) -> None:  # fmt: skip
    """A study's or DLC's own ``simulation`` settings checked when its file is read, before a
    folder is made or a run starts (issue 42): each case's ``simulation`` with ``sim`` over it
    and the run length ``t_max`` (None: the case's), as a run has them. An error in a key that
    ``sim`` gives names ``source`` (the study/DLC file); one in a key of the case is left to
    the run, which names the case file."""
    if not sim:
        return
    from floatwind.case.loader import _settings

    for path in cases:
        try:
            case_sim = _read_yaml(path).get("simulation")
        except CaseError:
            continue  # the case's own errors are reported, naming it, when it is loaded
        merged = {**(case_sim if isinstance(case_sim, dict) else {}), **sim}
        if t_max is not None:
            merged["t_max"] = t_max
        try:
            _settings(merged)
        except CaseError as exc:
            head = (exc.field or "").removeprefix("simulation.").split(".")[0].split("[")[0]
            if head in sim:
                raise CaseError(exc.reason, field=exc.field, file=source or None) from None


def _named_list(top: Section, key: str, allowed: set, required: bool = True) -> list[Section]:
    """The list ``key`` of named mappings (designs, conditions, variants), names checked."""
    out = top.sections(key, allowed, required=required)
    for sec in out:
        name = sec.raw("name", None)
        if not isinstance(name, str) or not _NAME.match(name) or "__" in name:
            raise sec.error(
                f"name must be letters, digits, '_', '.', '+', '-' without '__', got {name!r}",
                "name",
            )
    names = [x.data["name"] for x in out]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise top.error(f"duplicate names {dup}", key)
    return out


def study_from_dict(
    data: Any, *, base_dir: pathlib.Path, source: str = "", name: str = "study"
) -> Study:
    """Validate a parsed study mapping (CaseError names the field)."""
    top = Section(data, "", STUDY_KEYS, file=source)
    data = top.data
    designs = _named_list(top, "designs", DESIGN_KEYS)
    for sec in designs:
        if not isinstance(sec.raw("case", None), str):
            raise sec.error("a case file path is required", "case")
        if not (base_dir / sec.data["case"]).is_file():
            raise sec.error(f"case file not found: {base_dir / sec.data['case']}", "case")
    conditions = _named_list(top, "conditions", CONDITION_KEYS)
    for sec in conditions:  # checked here, kept as written (a case dict gets them as they are)
        for k in ("wind_speed", "hs", "tp"):
            sec.number(k, None, kind="finite" if k == "wind_speed" else "positive")
    variants = _named_list(top, "variants", VARIANT_KEYS, required=False)
    for sec in variants:
        if sec.raw("ct_mode", None) not in (None, "fixed", "variable"):
            raise sec.error(f"must be 'fixed' or 'variable', got {sec.data['ct_mode']!r}",
                            "ct_mode")  # fmt: skip
    nreal = top.integer("realizations", 1, minimum=1)
    master = top.integer("master_seed", 0, minimum=0)
    max_batch = top.integer("max_batch", 64, minimum=1)
    stats = top.raw("statistics", list(DEFAULT_STATISTICS))
    if not isinstance(stats, list):
        raise top.error("expected a list", "statistics")
    for s in stats:
        if s not in KNOWN_STATISTICS:
            raise top.error(f"unknown statistic {s!r}{suggest(str(s), sorted(KNOWN_STATISTICS))}",
                            "statistics")  # fmt: skip
    of_out = top.raw("openfast_outputs", [])
    if isinstance(of_out, str):
        of_out = [of_out]
    if not isinstance(of_out, list) or any(f not in OPENFAST_FORMATS for f in of_out):
        raise top.error(f"expected a list of {' and/or '.join(OPENFAST_FORMATS)}, got {of_out!r}",
                        "openfast_outputs")  # fmt: skip
    channels = top.strings("channels", list(DEFAULT_CHANNELS), what="channel names")
    if not channels:
        raise top.error("expected at least one channel name (the statistics and results are "
                        "of these channels; leave the key out for the default set)", "channels")  # fmt: skip
    sim = top.raw("simulation", {})
    if not isinstance(sim, dict):
        raise top.error(f"expected a mapping, got {type(sim).__name__}", "simulation")
    for key in ("wind", "waves"):
        if top.has(key) and not isinstance(data[key], dict):
            raise top.error(f"expected a mapping, got {type(data[key]).__name__}", key)
    duration = top.raw("duration", None)  # checked, kept as written (an int stays an int)
    top.number("duration", None, kind="positive")
    if duration is not None and "t_max" in sim:  # one would be dropped silently (issue 42)
        raise top.error("the study's 'duration' sets each run's length; give 'duration' or "
                        "'simulation.t_max', not both", "simulation.t_max")  # fmt: skip
    transient = top.number("transient", 0.0)
    if transient < 0:
        raise top.error(f"must not be negative, got {transient:g}", "transient")
    if transient > 0:
        lengths = []
        if duration is not None:
            lengths.append(("duration", duration))
        elif isinstance(sim.get("t_max"), (int, float)):
            lengths.append(("simulation.t_max", sim["t_max"]))
        else:
            for i, d in enumerate(designs):
                case = _read_yaml(base_dir / d.data["case"])
                t_max = (case.get("simulation") or {}).get("t_max", 600.0)
                if isinstance(t_max, (int, float)):
                    lengths.append((f"designs[{i}].case simulation.t_max", t_max))
        for where, length in lengths:
            if transient >= length:
                raise top.error(
                    f"transient {transient:g} s must be shorter than the run ({where} = "
                    f"{length:g} s): no time would be left for the statistics",
                    "transient",
                )
    check_own_simulation(sim, [base_dir / d.data["case"] for d in designs],
                         None if duration is None else float(duration), source)  # fmt: skip
    return Study(
        name=str(data.get("name", name)),
        description=str(data.get("description", "")),
        designs=[sec.data for sec in designs],
        conditions=[sec.data for sec in conditions],
        variants=[sec.data for sec in variants] or [{"name": "base"}],
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
    if "duration" in (overrides or {}) and isinstance(data.get("simulation"), dict):
        data["simulation"] = {k: v for k, v in data["simulation"].items() if k != "t_max"}
    data.update(overrides or {})
    return study_from_dict(data, base_dir=path.resolve().parent, source=str(path), name=path.stem)
