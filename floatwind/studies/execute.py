"""Ensemble execution of a study: batches in lockstep, local processes or Dask, resumable.

Runs of one design and condition are grouped into batches that advance in lockstep on the batch
axis (DESIGN.md, "Batch first"); control variants that differ only in their loads share a batch
through :class:`SelectLoad`. Each finished batch is written at once to ``DIR/batches/<id>.nc``
(time series of the study's channels, dims ``run``, ``time``), ``<id>.stats.csv`` (per-run
statistics) and last ``<id>.json`` (status and errors of each run): a batch whose ``.json`` exists
is done, so a study killed at any moment resumes with ``resume=True`` and runs only what is
missing. A run that diverges is recorded as failed (its error in the ``.json``) and the rest of
its batch is run again without it (a member of a batch gives the same numbers as alone).
"""

from __future__ import annotations

import copy
import hashlib
import json
import logging
import os
import pathlib
import signal
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import xarray as xr

from floatwind.errors import CaseError, SimulationError
from floatwind.integrate.base import Interrupted
from floatwind.loads.select import SelectLoad
from floatwind.model import Model
from floatwind.studies.spec import RunSpec, Study
from floatwind.validate import canonical_keys

log = logging.getLogger(__name__)

ENV_CONSTANTS = ("gravity", "rho_water", "rho_air", "water_depth")


def batch_key(study: Study, run: RunSpec) -> tuple:
    """Runs with equal keys may share a batch: same design and condition, and the same variant
    where the variant changes the environment or the topology (otherwise variants differ in
    loads only)."""
    v = study.variants[run.variant_index]
    return (
        run.design_index,
        run.condition_index,
        run.variant_index if v.get("environment") or v.get("topology") else -1,
    )


def build_batch_model(study: Study, runs: list[RunSpec]) -> Model:
    """One :class:`Model` whose batch members are ``runs`` (all with the same :func:`batch_key`).

    The environment is built with one SeedSequence per member (waves and wind draw independent
    child streams from it, ``floatwind.environment.config``); the run alone is this with one run.
    """
    from floatwind.case.loader import model_from_dict
    from floatwind.environment.config import build_environment

    keys = {batch_key(study, r) for r in runs}
    if len(keys) != 1:
        raise ValueError(f"runs of different batch keys {sorted(keys)} cannot share a batch")
    case = study.case_path(runs[0].design_index)
    variants = sorted({r.variant_index for r in runs})
    datas = {}
    models = {}
    for vi in variants:
        run = next(r for r in runs if r.variant_index == vi)
        data = study.case_dict(run)
        env_cfg = data.get("environment") or {}
        bare = copy.deepcopy(data)
        bare["environment"] = {k: env_cfg[k] for k in ENV_CONSTANTS if k in env_cfg}
        try:
            models[vi] = model_from_dict(
                bare, base_dir=case.parent, name=run.id, source=str(case), text=""
            )
        except CaseError as exc:
            raise study.blame(exc, run) from None
        datas[vi] = data
    base_vi = variants[0]
    model = models[base_vi]
    B = len(runs)
    s = model.settings
    data = datas[base_vi]
    try:
        env = build_environment(
            data.get("environment"),
            n_realizations=B,
            seeds=[r.seed for r in runs],
            duration=s.t_max,
            dt_hint=s.dt,
            base_dir=case.parent,
            file=str(case),
        )
    except CaseError as exc:
        raise study.blame(exc, runs[0]) from None
    model.env = env
    if len(variants) > 1:
        choice = np.array([variants.index(r.variant_index) for r in runs])
        loads = []
        n = len(model.loads)
        if any(len(models[v].loads) != n for v in variants):
            raise CaseError(
                "variants sharing a batch must keep the same list of loads", file=study.source
            )
        for i in range(n):
            cfgs = [json.dumps(datas[v]["loads"][i], sort_keys=True, default=str) for v in variants]
            if len(set(cfgs)) == 1:
                loads.append(model.loads[i])
            else:
                loads.append(SelectLoad([models[v].loads[i] for v in variants], choice))
        model.loads = loads
    ic = model.initial
    for name in ("displacement", "angles", "velocity", "rates"):
        setattr(ic, name, np.broadcast_to(getattr(ic, name), (B, 3)).copy())
    model.name = runs[0].id if B == 1 else f"{runs[0].design}__{runs[0].condition}"
    model.source = str(case)
    from floatwind.io.safe import read_text

    model.source_text = read_text(case)
    return model


# ------------------------------------------------------------------ one batch


@dataclass
class BatchResult:
    """What one batch produced: ok/failed per run id, the written files, wall time."""

    batch_id: str
    status: dict[str, str]
    errors: dict[str, str]
    wall_s: float
    sim_s: float
    files: list[str] = field(default_factory=list)


def _simulate_robust(study: Study, runs: list[RunSpec], errors: dict) -> tuple[list, list]:
    """Simulate ``runs`` in one batch; drop diverging members and run the rest again.

    Returns (list of (runs, Dataset) pieces that completed).
    """
    from floatwind.simulate import simulate

    if not runs:
        return []
    model = build_batch_model(study, runs)
    try:
        # only the study's channels: when they need no accelerations (the default set) the
        # outputs evaluate just the loads that write them (simulate.outputs.to_dataset)
        ds = simulate(model, progress=False, channels=list(study.channels))
    except Interrupted:
        # Ctrl-C is not a failure of the runs: stop the study (finished batches are on disk)
        raise KeyboardInterrupt from None
    except SimulationError as err:
        bad = [m for m in err.members if 0 <= m < len(runs)]
        if not bad and len(runs) > 1:
            # failure not attributed to members (e.g. a singular state in a load): bisect
            half = len(runs) // 2
            return _simulate_robust(study, runs[:half], errors) + _simulate_robust(
                study, runs[half:], errors
            )
        bad = bad or [0]
        for m in bad:
            errors[runs[m].id] = str(err)
            log.warning("run %s failed: %s", runs[m].id, err)
        rest = [r for k, r in enumerate(runs) if k not in bad]
        return _simulate_robust(study, rest, errors)
    if "realization" not in ds.dims:
        ds = ds.expand_dims("realization")
    return [(runs, ds)]


def batch_id(study: Study, runs: list[RunSpec]) -> str:
    h = hashlib.sha1(",".join(r.id for r in runs).encode()).hexdigest()[:10]
    return f"{runs[0].design}__{runs[0].condition}__{h}"


_HASHES: dict[tuple, str] = {}


def _hash(path: pathlib.Path) -> str:
    from floatwind.io.safe import file_hash

    st = path.stat()
    key = (str(path), st.st_mtime_ns, st.st_size)
    if key not in _HASHES:
        _HASHES[key] = file_hash(path)
    return _HASHES[key]


def design_inputs(study: Study, design_index: int) -> dict[str, str]:
    """Content hashes (sha256, 16 hex) of every file the runs of one design read: its case file,
    every file that names (``.bts`` wind, elevation, C_T table, motion tables, ...) and the files
    the study's own settings name; keyed by the path relative to the study file's folder."""
    from floatwind.io.safe import input_files, referenced_files

    case = study.case_path(design_index)
    files = list(input_files(case))
    own = {k: v for k, v in study.raw.items() if k != "designs"}
    for f in referenced_files(own, [study.base_dir, case.parent]):
        if f not in files:
            files.append(f)
    out = {}
    for f in files:
        try:
            name = os.path.relpath(f, study.base_dir)
        except ValueError:  # another drive
            name = str(f)
        out[name] = _hash(f)[:16]
    return out


def _design_of_batch(study: Study, rec: dict) -> int | None:
    runs = list(rec.get("runs", {}))
    if not runs:
        return None
    try:
        return study.run(runs[0]).design_index
    except CaseError:
        return None


def stale_batches(study: Study, out_dir: pathlib.Path) -> list[tuple[pathlib.Path, int, str]]:
    """Finished batches made with other inputs than the current ones: (record path, design
    index, what changed) per batch."""
    from floatwind import __version__

    current: dict[int, dict] = {}
    out = []
    for p in batch_files(out_dir, "*.json"):
        rec = json.loads(p.read_text())
        di = _design_of_batch(study, rec)
        if di is None:
            continue
        if di not in current:
            current[di] = design_inputs(study, di)
        old = rec.get("inputs")
        if old is None:
            out.append((p, di, "the batch was made without input hashes (an older floatwind)"))
            continue
        changed = [k for k in current[di] if old.get(k) != current[di][k]]
        changed += [k for k in old if k not in current[di]]
        if changed:
            out.append((p, di, f"{changed[0]} changed since the batch was made"))
        elif rec.get("floatwind_version") != __version__:
            out.append(
                (
                    p,
                    di,
                    f"the batch was made by floatwind {rec.get('floatwind_version')} "
                    f"(this is {__version__})",
                )
            )
    return out


def check_channels(study: Study) -> None:
    """A channel named in the study's ``channels:`` that no design can write (a typo) is a
    :class:`CaseError` with the closest names; the default channels are not checked."""
    if "channels" not in study.raw:
        return
    from floatwind.case.loader import model_from_dict
    from floatwind.simulate.outputs import known_channels
    from floatwind.validate import suggest

    names: set[str] = set()
    first = {}
    for r in study.runs():
        first.setdefault(r.design_index, r)
    for di, run in first.items():
        bare = copy.deepcopy(study.case_dict(run))
        env_cfg = bare.get("environment") or {}
        bare["environment"] = {k: env_cfg[k] for k in ENV_CONSTANTS if k in env_cfg}
        try:
            model = model_from_dict(bare, base_dir=study.case_path(di).parent)
        except CaseError as exc:
            raise study.blame(exc, run) from None
        names |= known_channels(model)
    for i, c in enumerate(study.channels):
        if c not in names:
            raise CaseError(
                f"unknown channel {c!r}{suggest(c, sorted(names))}",
                field=f"channels[{i}]",
                file=study.source,
            )


def to_run_dataset(
    study: Study, runs: list[RunSpec], ds: xr.Dataset, all_channels: bool = False
) -> xr.Dataset:
    """Keep the study's channels (or all) and index the batch by run id (dim ``run``)."""
    keep = list(ds.data_vars) if all_channels else [c for c in study.channels if c in ds.data_vars]
    out = ds[keep].rename({"realization": "run"})
    out = out.assign_coords(
        run=("run", [r.id for r in runs]),
        design=("run", [r.design for r in runs]),
        condition=("run", [r.condition for r in runs]),
        variant=("run", [r.variant for r in runs]),
        realization=("run", np.array([r.realization for r in runs])),
    )
    out.attrs.pop("case_text", None)
    # the batch holds many runs: titled by the study, not by its first run's model name
    out.attrs["title"] = f"floatwind study: {study.name}"
    out.attrs.pop("case_name", None)
    out.attrs["study"] = study.name
    out.attrs["study_fingerprint"] = study.fingerprint()
    return out


def single_threaded_blas() -> None:
    """Limit the BLAS/LAPACK thread pools of this process to one thread.

    Study workers run one per core; OpenBLAS's own threads (two per process on a 2-core
    machine) then oversubscribe the cores, and its busy-waiting threads made the Cholesky
    factorizations of the Kaimal wind generation 10-15x slower in some batches (batches of the
    OC3 DLC example: 37-64 s instead of 3.3-4.4 s, docs/dlc.md). Numpy is already imported in a
    forked worker, so an environment variable is too late: threadpoolctl sets the limit at run
    time."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - a dependency; a missing one costs speed only
        return
    threadpool_limits(limits=1, user_api="blas")


def run_batch_in_worker(study: Study, run_ids: list[str], out_dir: str | None) -> BatchResult:
    """:func:`run_batch` in a worker process (local pool or Dask): one BLAS thread."""
    single_threaded_blas()
    return run_batch(study, run_ids, out_dir)


def run_batch(study: Study, run_ids: list[str], out_dir: str | None) -> BatchResult:
    """Run the given runs of ``study`` as one batch and (if ``out_dir``) write the batch files.

    This is the unit of work sent to a worker process or a Dask worker.
    """
    from floatwind.studies.stats import run_statistics

    t0 = time.perf_counter()
    runs = [study.run(i) for i in run_ids]
    bid = batch_id(study, runs)
    errors: dict[str, str] = {}
    pieces = _simulate_robust(study, runs, errors)
    status = {r.id: ("failed" if r.id in errors else "ok") for r in runs}
    files = []
    sim_s = 0.0
    if out_dir is not None:
        folder = pathlib.Path(out_dir) / "batches"
        folder.mkdir(parents=True, exist_ok=True)
        frames = []
        dsets = []
        for prs, ds in pieces:
            rds = to_run_dataset(study, prs, ds)
            dsets.append(rds)
            sim_s += float(ds.time[-1]) * len(prs)
            frames.append(run_statistics(rds, study.statistics, transient=study.transient))
        if dsets:
            merged = xr.concat(dsets, dim="run") if len(dsets) > 1 else dsets[0]
            _atomic_netcdf(merged, folder / f"{bid}.nc")
            files.append(str(folder / f"{bid}.nc"))
            stats = pd.concat(frames, ignore_index=True)
            _atomic_text(folder / f"{bid}.stats.csv", stats.to_csv(index=False))
            files.append(str(folder / f"{bid}.stats.csv"))
            files += _write_openfast_files(study, merged, pathlib.Path(out_dir) / "openfast")
    wall = time.perf_counter() - t0
    res = BatchResult(bid, status, errors, wall, sim_s, files)
    if out_dir is not None:
        from floatwind import __version__

        record = {
            "batch": bid,
            "fingerprint": study.fingerprint(),
            "floatwind_version": __version__,
            "inputs": design_inputs(study, runs[0].design_index),
            "runs": status,
            "errors": errors,
            "wall_s": wall,
            "sim_s": sim_s,
            "files": [
                pathlib.Path(f).relative_to(pathlib.Path(out_dir) / "batches").as_posix()
                if pathlib.Path(f).parent.name == "batches"
                else pathlib.Path(f).relative_to(out_dir).as_posix()
                for f in files
            ],
        }
        _atomic_text(
            pathlib.Path(out_dir) / "batches" / f"{bid}.json", json.dumps(record, indent=1)
        )
    return res


def _write_openfast_files(study: Study, ds: xr.Dataset, folder: pathlib.Path) -> list[str]:
    """``folder/<run id>.out`` and/or ``.outb`` of every run in ``ds`` (study key
    ``openfast_outputs``): the study's channels in FAST units, for OpenFAST post-processors
    (pCrunch, openfast_io, pyDatView). Written atomically; the ``.outb`` layout is FileID 3
    (float64) when every channel name fits 10 characters, else FileID 4 (int16)."""
    from floatwind import __version__
    from floatwind.io.openfast import write_out, write_outb
    from floatwind.io.safe import atomic_write

    if not study.openfast_outputs:
        return []
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for rid in ds.run.values:
        one = ds.sel(run=rid).drop_vars(["run", "design", "condition", "variant", "realization"])
        desc = f"floatwind {__version__}: study {study.name}, run {rid}"
        for fmt in study.openfast_outputs:
            path = folder / f"{rid}.{fmt}"
            if fmt == "out":
                atomic_write(path, lambda tmp, a=one, d=desc: write_out(tmp, a, description=d))
            else:
                atomic_write(
                    path,
                    lambda tmp, a=one, d=desc: write_outb(tmp, a, description=d, file_id="auto"),
                )
            written.append(str(path))
    return written


def _atomic_text(path: pathlib.Path, text: str) -> None:
    from floatwind.io.safe import atomic_write

    atomic_write(path, lambda tmp: tmp.write_text(text))


def _atomic_netcdf(ds: xr.Dataset, path: pathlib.Path) -> None:
    from floatwind.io.netcdf import write_netcdf
    from floatwind.io.safe import atomic_write

    atomic_write(path, lambda tmp: write_netcdf(ds, tmp))


# ------------------------------------------------------------------ batch size


def member_bytes(study: Study) -> int:
    """Peak memory of one batch member besides its wave table: the output channels while the
    Dataset is built (~200 channels of float64) and the generated full-field wind (three float64
    components on the grid; the generator's temporaries exist for one member at a time). Measured
    on the 3-h OC3 batch of 11: ~145 MB per member besides the table, this gives 144 MB."""
    sim = dict(study.simulation)
    t_max = study.duration or sim.get("t_max", 600.0)
    dt_out = sim.get("dt_out", 0.05)
    n_out = int(t_max / dt_out) + 1
    b = n_out * 8 * (12 + 200)  # states + every output channel while the Dataset is built
    wind = study.wind or {}
    if wind.get("kind") == "kaimal":
        wind = canonical_keys(wind)  # the raw case may still use old key spellings
        nt = (t_max + wind.get("width", 150.0) / 8.0) / wind.get("dt", 0.25)
        b += int(nt * wind.get("ny", 13) * wind.get("nz", 13) * 3 * 8)
    return int(b + 20e6)


def wave_table_bytes(study: Study) -> int:
    """Largest fast wave-kinematics table (bytes) one batch member needs, over the study's designs
    and conditions: the wave points of the design's loads (``Load.wave_points``: the Morison
    strips and member ends) times the table of its sea (``LinearSea.expansion_table_bytes``); 0
    when no design's loads sample the waves or no sea is irregular."""
    from floatwind.case.loader import model_from_dict
    from floatwind.environment.config import build_environment

    runs = study.runs()
    first = {}
    for r in runs:
        first.setdefault((r.design_index, r.condition_index), r)
    points: dict[int, int] = {}
    worst = 0
    for (di, _ci), run in first.items():
        data = study.case_dict(run)
        if di not in points:
            bare = copy.deepcopy(data)
            env_cfg = bare.get("environment") or {}
            bare["environment"] = {k: env_cfg[k] for k in ENV_CONSTANTS if k in env_cfg}
            try:
                model = model_from_dict(bare, base_dir=study.case_path(di).parent)
            except CaseError:
                points[di] = 0
                continue
            points[di] = sum(ld.wave_points for ld in model.loads)
        if points[di] == 0:
            continue
        env_cfg = dict(data.get("environment") or {})
        env_cfg.pop("wind", None)  # only the sea matters here
        try:
            env = build_environment(
                env_cfg,
                n_realizations=1,
                seeds=[np.random.SeedSequence(0)],
                duration=study.duration or dict(study.simulation).get("t_max", 600.0),
                base_dir=study.case_path(di).parent,
            )
        except CaseError:
            continue
        size = getattr(env.sea, "expansion_table_bytes", None)
        if size is not None and getattr(env.sea, "kinematics_mode", "auto") == "auto":
            worst = max(worst, size(points[di]))
    return worst


#: The compiled wave kernels run the batch members in SIMD lanes of 4 doubles (AVX2) from
#: ``LANES_MIN`` members on; a batch that is a multiple of 4 leaves no member to the scalar
#: remainder loop (measured per member and RHS before the last lane-kernel changes: B = 11:
#: 24.1 us, 12: 21.7 us, 16: 18.2 us; docs/performance.md).
LANE_WIDTH = 4


def auto_batch_size(study: Study, workers: int) -> int:
    """Largest batch (<= ``study.max_batch``) whose members, wave table included, fit in 85 % of
    the available memory shared by the workers, and whose fast wave-kinematics table stays within
    ``fastkin.AUTO_MEMORY_BUDGET`` (beyond it the kinematics fall back to direct summation, which
    costs far more than smaller batches); from 8 members on, a multiple of :data:`LANE_WIDTH`."""
    from floatwind._kernels.waves import LANES_MIN
    from floatwind.environment import fastkin

    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AVPHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        total = 4 * 2**30
    table = wave_table_bytes(study)
    fit = int(0.85 * total / max(workers, 1) // (member_bytes(study) + table))
    if table > 0:
        fit = min(fit, int(fastkin.AUTO_MEMORY_BUDGET // table))
    fit = int(max(1, min(study.max_batch, fit)))
    if fit >= max(LANES_MIN, 2 * LANE_WIDTH):
        fit -= fit % LANE_WIDTH
    return fit


def plan_batches(
    study: Study, runs: list[RunSpec], batch_size: int, workers: int = 1
) -> list[list[RunSpec]]:
    """Group runs by :func:`batch_key` (order kept) and cut each group into near-equal chunks;
    when all the groups together would leave workers idle at the end, the number of chunks is
    rounded up to a multiple of ``workers`` (smaller batches, the same total work, no tail)."""
    groups: dict[tuple, list[RunSpec]] = defaultdict(list)
    for r in runs:
        groups[batch_key(study, r)].append(r)
    counts = {k: -(-len(g) // batch_size) for k, g in groups.items()}
    total = sum(counts.values())
    if workers > 1 and total % workers and len(groups) == 1:
        k = next(iter(groups))
        want = min(len(groups[k]), -(-total // workers) * workers)
        counts[k] = max(counts[k], want)
    out = []
    for key, grp in groups.items():
        n = counts[key]
        base, extra = divmod(len(grp), n)
        i = 0
        for j in range(n):
            size = base + (1 if j < extra else 0)
            out.append(grp[i : i + size])
            i += size
    return out


# ------------------------------------------------------------------ the study


@dataclass
class StudyResult:
    """Where the study was written and what it gave."""

    out_dir: pathlib.Path
    runs: pd.DataFrame  # one row per run: id, names, status, error, statistics
    results: pd.DataFrame  # (design, condition, variant, channel, statistic) over realizations
    wall_s: float = 0.0
    n_run_now: int = 0

    @property
    def failures(self) -> pd.DataFrame:
        return self.runs[self.runs["status"] == "failed"][["id", "error"]]


def finished_runs(out_dir: pathlib.Path) -> dict[str, dict]:
    """Runs recorded under ``out_dir/batches``: id -> {status, error, batch}."""
    done = {}
    for p in batch_files(out_dir, "*.json"):
        rec = json.loads(p.read_text())
        for rid, st in rec["runs"].items():
            done[rid] = {"status": st, "error": rec["errors"].get(rid, ""), "batch": rec["batch"]}
    return done


def run_study(
    study: Study,
    out_dir: str | pathlib.Path,
    *,
    resume: bool = False,
    workers: int | None = None,
    dask: str | None = None,
    batch_size: int | None = None,
    progress: bool | None = None,
    only: list[str] | None = None,
    accept_changes: bool = False,
) -> StudyResult:
    """Run every missing run of ``study``, writing each batch to ``out_dir`` as it finishes.

    Parameters
    ----------
    study : Study
    out_dir : path
        Output folder (created). A folder that already holds this study needs ``resume=True``.
    resume : bool
        Run only what is missing (the study definition must not have changed).
    workers : int, optional
        Local worker processes (default: one per core; 1 runs in this process).
    dask : str, optional
        ``"local"`` (a local Dask cluster with ``workers`` workers) or a scheduler address.
    batch_size : int, optional
        Members per batch (default :func:`auto_batch_size`).
    progress : bool, optional
        tqdm bar over runs (default: when stderr is a terminal).
    only : list of str, optional
        Restrict to these run ids.
    accept_changes : bool
        With ``resume``: finished batches made with inputs that changed since (a case file or a
        file it names, the floatwind version) are deleted and run again; without it they are
        refused. Batches are never mixed across input versions.

    Raises
    ------
    CaseError
        The folder holds another study, holds this one and ``resume`` is false, holds batches
        made with other inputs (without ``accept_changes``), or is in use by another study
        (``DIR/.floatwind.lock``, :mod:`floatwind.studies.lock`).
    KeyboardInterrupt
        After cancelling what was queued; finished batches are on disk.
    """
    import sys

    from floatwind.studies.lock import StudyLock

    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    check_channels(study)
    lock = StudyLock(out_dir).acquire()
    if lock.message:
        print(f"floatwind: {lock.message}", file=sys.stderr)
    try:
        return _run_study_locked(
            study, out_dir, resume=resume, workers=workers, dask=dask, batch_size=batch_size,
            progress=progress, only=only, accept_changes=accept_changes,
        )  # fmt: skip
    finally:
        lock.release()


def _run_study_locked(
    study, out_dir, *, resume, workers, dask, batch_size, progress, only, accept_changes
) -> StudyResult:
    import sys

    from floatwind.io.safe import sweep_temporaries

    # the lock is ours: what a killed writer left half-written is removed (its process is gone;
    # older versions wrote fixed NAME.tmp / NAME.tmp.nc names)
    for folder in (out_dir, out_dir / "batches", out_dir / "openfast"):
        sweep_temporaries(folder)
        if folder.is_dir():
            for old_tmp in folder.glob("*.tmp*"):
                if old_tmp.name.endswith((".tmp", ".tmp.nc")) and old_tmp.is_file():
                    old_tmp.unlink()
    manifest = out_dir / "study.json"
    fp = study.fingerprint()
    if manifest.is_file():
        old = json.loads(manifest.read_text())
        if old.get("fingerprint") != fp:
            raise CaseError(
                f"{out_dir} holds another study ({old.get('name')!r} with a different definition); "
                "choose another output folder",
                file=study.source,
            )
        if not resume and finished_runs(out_dir):
            raise CaseError(
                f"{out_dir} already holds results of this study: add --resume to run what is missing",
                file=study.source,
            )
        stale = stale_batches(study, out_dir)
        if stale and not accept_changes:
            _, di, what = stale[0]
            raise CaseError(
                f"{what} ({len(stale)} finished batch(es) of {out_dir} made with the old inputs); "
                "--resume --accept-changes re-runs them",
                field=f"designs[{di}].case",
                file=study.source,
            )
        for p, _, _what in stale:
            rec = json.loads(p.read_text())
            p.unlink()  # the record first: a batch without it is not finished
            for name in rec.get("files", []):
                (p.parent / name).unlink(missing_ok=True)
        if stale:
            print(
                f"floatwind: re-running {len(stale)} batch(es) made with the old inputs "
                f"({stale[0][2]})",
                file=sys.stderr,
            )
    from floatwind import __version__

    _atomic_text(
        manifest,
        json.dumps(
            {
                "name": study.name,
                "fingerprint": fp,
                "floatwind_version": __version__,
                "inputs": {
                    study.designs[di]["name"]: design_inputs(study, di)
                    for di in range(len(study.designs))
                },
                "source": study.source,
                "definition": study.raw,
            },
            indent=1,
            default=str,
        ),
    )
    all_runs = study.runs()
    pd.DataFrame(study.table()).to_csv(out_dir / "runs.csv", index=False)
    done = finished_runs(out_dir)
    todo = [r for r in all_runs if r.id not in done and (only is None or r.id in only)]
    workers = workers or os.cpu_count() or 1
    size = batch_size or auto_batch_size(study, workers)
    batches = plan_batches(study, todo, size, workers)
    log.info(
        "%s: %d runs, %d done, %d to run in %d batches of <= %d on %s",
        study.name,
        len(all_runs),
        len(done),
        len(todo),
        len(batches),
        size,
        f"dask {dask}" if dask else f"{workers} local worker(s)",
    )
    if progress is None:
        progress = sys.stderr.isatty()
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(todo), unit="run", desc=study.name)
    t0 = time.perf_counter()

    def finished(res: BatchResult):
        if bar is not None:
            bar.update(len(res.status))
            nf = sum(s == "failed" for s in res.status.values())
            if nf:
                bar.set_postfix(failed=nf)

    try:
        if not batches:
            pass
        elif dask:
            _run_dask(study, batches, out_dir, dask, workers, finished)
        elif workers == 1 or len(batches) == 1:
            for b in batches:
                finished(run_batch(study, [r.id for r in b], str(out_dir)))
        else:
            _run_processes(study, batches, out_dir, workers, finished)
    finally:
        if bar is not None:
            bar.close()
    wall = time.perf_counter() - t0
    return collect(study, out_dir, wall_s=wall, n_run_now=len(todo))


def _die_with_parent(parent: int) -> None:
    """A study worker ends when the study's main process does (killed, even by SIGKILL): it
    would otherwise finish its batch into a folder whose lock owner is dead and then idle. On
    Linux the kernel sends it SIGKILL (``prctl(PR_SET_PDEATHSIG)``); elsewhere, and as a second
    guard, a daemon thread checks every half second that its parent is still ``parent``. A
    batch is written atomically, so a worker killed mid-batch leaves nothing half-written."""
    import threading

    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the guard was set
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="floatwind-parent-watch", daemon=True).start()


def _run_processes(study, batches, out_dir, workers, finished) -> None:
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor, as_completed

    ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
    ex = ProcessPoolExecutor(max_workers=min(workers, len(batches)), mp_context=ctx,
                             initializer=_die_with_parent, initargs=(os.getpid(),))  # fmt: skip
    try:
        futs = [ex.submit(run_batch_in_worker, study, [r.id for r in b], str(out_dir))
                for b in batches]  # fmt: skip
        for f in as_completed(futs):
            finished(f.result())
    except BaseException:
        # Ctrl-C (or a failure) in this process: the workers stop now, not after their batches
        # (the pool would wait for them at exit; a batch is written atomically, so a worker
        # stopped mid-batch leaves nothing half-written, and --resume runs it again)
        procs = list((getattr(ex, "_processes", None) or {}).values())
        ex.shutdown(wait=False, cancel_futures=True)
        for p in procs:
            p.terminate()
        for p in procs:
            p.join(timeout=10)
        raise
    ex.shutdown(wait=True)


def _run_dask(study, batches, out_dir, address, workers, finished) -> None:
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise CaseError(
            "--dask needs the 'distributed' package: pip install 'floatwind[dask]'", field="--dask"
        ) from None
    cluster = None
    if address == "local":
        cluster = LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)
    else:
        client = Client(address)
    try:
        futs = [
            client.submit(run_batch_in_worker, study, [r.id for r in b], str(out_dir), pure=False)
            for b in batches
        ]
        for f in as_completed(futs):
            finished(f.result())
    except BaseException:
        client.cancel(futs if "futs" in locals() else [])
        raise
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def collect(study: Study, out_dir: pathlib.Path, *, wall_s=0.0, n_run_now=0) -> StudyResult:
    """Read what ``out_dir`` holds: the per-run table (status, error, statistics), the results
    table over realizations; write ``runs_summary.csv``, ``results.csv`` and ``failures.csv``."""
    from floatwind.studies.stats import humanize_results, humanize_runs, results_table

    out_dir = pathlib.Path(out_dir)
    table = pd.DataFrame(study.table())
    done = finished_runs(out_dir)
    table["status"] = [done.get(i, {}).get("status", "missing") for i in table["id"]]
    table["error"] = [done.get(i, {}).get("error", "") for i in table["id"]]
    frames = [pd.read_csv(p) for p in batch_files(out_dir, "*.stats.csv")]
    stats = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["run"])
    wide = table.merge(stats.rename(columns={"run": "id"}), on="id", how="left")
    wide = wide.sort_values("id").reset_index(drop=True)
    res = results_table(wide)
    # the files a user reads carry units, angles in degrees; the tables returned stay SI
    units = _channel_units(out_dir)
    humanize_runs(wide, units).to_csv(out_dir / "runs_summary.csv", index=False)
    humanize_results(res, units).to_csv(out_dir / "results.csv", index=False)
    wide[wide["status"] == "failed"][["id", "error"]].to_csv(out_dir / "failures.csv", index=False)
    return StudyResult(out_dir, wide, res, wall_s, n_run_now)


def batch_files(out_dir: str | pathlib.Path, pattern: str) -> list[pathlib.Path]:
    """The finished files ``pattern`` of a study's ``batches`` folder, sorted: never a write's
    temporary (hidden, ``.NAME.tmp-PID-XXXXXX.ext``, :func:`floatwind.io.safe.temporary_name`)
    nor one of the fixed ``.tmp`` names of older versions."""
    folder = pathlib.Path(out_dir) / "batches"
    return sorted(p for p in folder.glob(pattern)
                  if not p.name.startswith(".") and not p.name.endswith((".tmp", ".tmp.nc")))  # fmt: skip


def _channel_units(out_dir: pathlib.Path) -> dict[str, str]:
    """Units of the study's channels, from the first finished batch file."""
    files = batch_files(out_dir, "*.nc")
    if not files:
        return {}
    with xr.open_dataset(files[0], engine="netcdf4") as ds:
        return {str(k): str(v.attrs.get("units", "")) for k, v in ds.data_vars.items()}


def open_study_dataset(out_dir: str | pathlib.Path) -> xr.Dataset:
    """All batch time series of a study as one Dataset with dims (run, time), sorted by run id."""
    files = batch_files(out_dir, "*.nc")
    if not files:
        raise CaseError("no finished batches", file=str(out_dir))
    dsets = []
    for f in files:
        with xr.open_dataset(f, engine="netcdf4") as ds:
            dsets.append(ds.load())
    return xr.concat(dsets, dim="run").sortby("run")


def run_one(
    study: Study,
    run_id: str,
    *,
    all_channels: bool = False,
    progress: bool | None = None,
    model: Model | None = None,
) -> xr.Dataset:
    """Run one run of the study alone (B = 1): the same numbers as inside the study.

    Raises
    ------
    CaseError
        Unknown run id.
    SimulationError
        The run diverges (``.dataset`` holds the partial result).
    """
    from floatwind.simulate import simulate

    run = study.run(run_id)
    if not all_channels:
        check_channels(study)
    model = model if model is not None else build_batch_model(study, [run])
    ds = simulate(model, progress=progress, channels=None if all_channels else list(study.channels))
    if "realization" not in ds.dims:
        ds = ds.expand_dims("realization")
    return to_run_dataset(study, [run], ds, all_channels).isel(run=0)
