"""Run a DLC set through the study engine and reduce it to a load basis (docs/dlc.md).

``run_dlc`` runs every load case of a :class:`floatwind.dlc.spec.DLCSet` as a study of its own
(``DIR/<dlc>/``: batches, resume, Dask, progress as ``floatwind study``), then
:func:`postprocess` reads the finished batches once and writes, atomically:

* ``DIR/dlc_table.csv``  the expanded run table (as ``floatwind dlc --list``);
* ``DIR/runs.csv``       one row per run: its load condition, status, and per channel the
  maximum, minimum, mean and standard deviation of the analysis window and, for the fatigue
  DLCs, the damage sums and the run's 1 Hz short-term DEL per Wöhler exponent;
* ``DIR/fatigue_bins.csv``  per channel, Wöhler exponent and wind bin: the 1 Hz short-term DEL
  (runs of the bin weighted by their sea-state and direction probabilities) and the bin's
  probability;
* ``DIR/fatigue.csv``    per channel and Wöhler exponent: the lifetime DEL (N_eq cycles over the
  lifetime) and its 1 Hz equivalent;
* ``DIR/extremes.csv``   per DLC, load condition, channel and side (max/min): the characteristic
  extreme over seeds with its 95 % interval, the partial safety factor and the design value;
* ``DIR/governing.csv``  per channel and side: the governing DLC and condition.

Human-facing tables give angles in degrees (``units`` columns), as the study tables do.
"""

from __future__ import annotations

import json
import os
import pathlib
import sys
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd
import xarray as xr

from floatwind.dlc import extremes as ex
from floatwind.dlc import fatigue as fa
from floatwind.dlc.spec import FATIGUE_DLCS, YEAR_S, DLCSet
from floatwind.errors import CaseError
from floatwind.studies.stats import HUMAN_ANGLE, rainflow

RECORD = "dlc.json"


@dataclass
class DLCResult:
    """What a DLC set gave: the folder, the run table and the load-basis tables (SI units)."""

    out_dir: pathlib.Path
    runs: pd.DataFrame
    fatigue_bins: pd.DataFrame
    fatigue: pd.DataFrame
    extremes: pd.DataFrame
    governing: pd.DataFrame
    units: dict
    wall_s: float = 0.0
    n_run_now: int = 0


def _atomic_csv(df: pd.DataFrame, path: pathlib.Path) -> None:
    tmp = path.with_name(path.name + ".tmp")
    df.to_csv(tmp, index=False)
    os.replace(tmp, path)


def _atomic_text(path: pathlib.Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def _check_folder(dset: DLCSet, out_dir: pathlib.Path, resume: bool) -> None:
    rec = out_dir / RECORD
    if not rec.is_file():
        return
    old = json.loads(rec.read_text())
    if old.get("fingerprint") != dset.fingerprint():
        raise CaseError(
            f"{out_dir} holds another DLC set ({old.get('name')!r}, made from "
            f"{old.get('source')}); use another folder",
            field="--output",
        )
    if not resume:
        raise CaseError(
            f"{out_dir} already holds this DLC set; --resume runs what is missing",
            field="--output",
        )


def run_dlc(
    dset: DLCSet,
    out_dir: str | pathlib.Path,
    *,
    resume: bool = False,
    workers: int | None = None,
    dask: str | None = None,
    batch_size: int | None = None,
    progress: bool | None = None,
    accept_changes: bool = False,
) -> DLCResult:
    """Run every missing run of ``dset`` into ``out_dir`` and write the load-basis tables.

    Each load case is a study in ``out_dir/<dlc name>`` (see :func:`floatwind.studies.run_study`
    for batches, resume, the lock and what a resumed study depends on). Interrupting keeps the
    finished batches; ``resume=True`` runs the rest.
    """
    from floatwind import __version__
    from floatwind.studies.execute import run_study

    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    _check_folder(dset, out_dir, resume)
    record = {
        "name": dset.name,
        "description": dset.description,
        "source": str(pathlib.Path(dset.source).resolve()) if dset.source else "",
        "fingerprint": dset.fingerprint(),
        "floatwind": __version__,
        "load_cases": [{"dlc": lc.dlc, "folder": lc.name, "seeds": lc.seeds} for lc in dset.load_cases],
    }
    if (out_dir / RECORD).is_file():  # resumed: keep the last wall time until this one runs
        old = json.loads((out_dir / RECORD).read_text())
        record.update({k: old[k] for k in ("wall_s", "n_run_now") if k in old})
    _atomic_text(out_dir / RECORD, json.dumps(record, indent=2))
    _atomic_csv(dset.table(), out_dir / "dlc_table.csv")
    t0 = time.perf_counter()
    n_now = 0
    for lc in dset.load_cases:
        study = dset.study(lc)
        sub = out_dir / lc.name
        try:
            res = run_study(
                study, sub, resume=resume or (sub / "study.json").is_file() and resume,
                workers=workers, dask=dask, batch_size=batch_size, progress=progress,
                accept_changes=accept_changes,
            )  # fmt: skip
        except CaseError as exc:
            raise _dlc_field(exc, dset) from None
        n_now += res.n_run_now
    result = postprocess(dset, out_dir)
    result.wall_s = time.perf_counter() - t0
    result.n_run_now = n_now
    if n_now:  # the wall time of the last session that ran something (a no-op resume keeps it)
        record.update(wall_s=round(result.wall_s, 1), n_run_now=n_now)
        _atomic_text(out_dir / RECORD, json.dumps(record, indent=2))
    return result


def _dlc_field(exc: CaseError, dset: DLCSet) -> CaseError:
    """``exc`` of a load case's study, its field as the DLC file spells it: the DLC's
    ``topology`` is the study's ``variants[0].topology`` (issue 42: an error names the DLC
    file and the key the user wrote)."""
    field = exc.field or ""
    if dset.source and exc.file == dset.source and field.startswith("variants[0].topology"):
        return CaseError(exc.reason, field=field.removeprefix("variants[0]."), file=exc.file)
    return exc


def _units(out_dir: pathlib.Path, dset: DLCSet) -> dict[str, str]:
    from floatwind.studies.execute import batch_files

    for lc in dset.load_cases:
        for f in batch_files(out_dir / lc.name, "*.nc"):
            with xr.open_dataset(f, engine="netcdf4") as ds:
                return {str(k): str(v.attrs.get("units", "")) for k, v in ds.data_vars.items()}
    return {}


def run_rows(dset: DLCSet, out_dir: pathlib.Path) -> pd.DataFrame:
    """One row per run of the expanded table, with status and, for finished runs, the maxima,
    minima and damage sums of the analysis window (read from the batch files, one at a time)."""
    from floatwind.studies.execute import batch_files, finished_runs

    table = dset.table()
    wohler = dset.fatigue["wohler"]
    values: dict[str, dict] = {}
    status: dict[str, tuple[str, str]] = {}
    for lc in dset.load_cases:
        sub = out_dir / lc.name
        for rid, st in finished_runs(sub).items():
            status[f"{lc.name}/{rid}"] = (st["status"], st["error"])
        for f in batch_files(sub, "*.nc"):
            with xr.open_dataset(f, engine="netcdf4") as ds:
                t = ds["time"].to_numpy()
                keep = t >= t[0] + dset.transient_s
                for k, rid in enumerate(ds["run"].to_numpy()):
                    row = {}
                    for ch in dset.channels:
                        if ch not in ds:
                            continue
                        x = ds[ch].isel(run=k).to_numpy()[keep]
                        row[f"{ch}.max"] = float(np.max(x))
                        row[f"{ch}.min"] = float(np.min(x))
                        row[f"{ch}.mean"] = float(np.mean(x))
                        row[f"{ch}.std"] = float(np.std(x))
                        if lc.dlc in FATIGUE_DLCS and ch in dset.fatigue["channels"]:
                            cyc = rainflow(x)
                            for m in wohler:
                                d = fa.damage_from_cycles(cyc, m)
                                row[f"{ch}.dsum_m{m:g}"] = d
                                # the run's short-term 1 Hz DEL (fatigue.run_del)
                                row[f"{ch}.del_m{m:g}"] = (d / lc.analysis_s) ** (1.0 / m)
                    values[f"{lc.name}/{rid}"] = row
    table["status"] = [status.get(r, ("missing", ""))[0] for r in table["run"]]
    table["error"] = [status.get(r, ("missing", ""))[1] for r in table["run"]]
    extra = pd.DataFrame([values.get(r, {}) for r in table["run"]], index=table.index)
    return pd.concat([table, extra], axis=1)


def _require_all_ok(runs: pd.DataFrame, kind: str, why: str, source: str) -> None:
    """Refuse tables over runs of which some failed or are missing (they would be silently
    wrong), naming the first such run."""
    bad = runs[runs["status"] != "ok"]
    if len(bad):
        raise CaseError(
            f"{len(bad)} {kind} run(s) are {', '.join(sorted(set(bad['status'])))} "
            f"(first: {bad['run'].iloc[0]}); {why} (--resume)",
            file=source,
        )


def fatigue_tables(dset: DLCSet, runs: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(per-bin short-term DELs, lifetime DELs) of the fatigue channels, SI units.

    A run's weight is its lifetime share (bin probability x sea-state probability x direction
    probability / seeds, :meth:`DLCSet.table`); the lifetime damage sum is
    ``sum_r w_r (T_L / T_r) d_r`` (:func:`floatwind.dlc.fatigue.lifetime_del`) with T_L the
    lifetime and T_r the analysis window. A fatigue DLC with a failed or missing run is refused
    (a lifetime DEL without it would be silently low).
    """
    fat = runs[runs["dlc"].isin(FATIGUE_DLCS)]
    if fat.empty or not dset.fatigue["channels"]:
        return pd.DataFrame(), pd.DataFrame()
    _require_all_ok(fat, "fatigue", "the lifetime DELs need every run", dset.source)
    lifetime_s = dset.lifetime_years * YEAR_S
    n_eq = dset.fatigue["n_eq"]
    f_eq = dset.fatigue["f_eq"]
    if n_eq is None and f_eq is None:
        n_eq = fa.DEFAULT_N_EQ
    bins_rows, life_rows = [], []
    w = fat["probability"].to_numpy(dtype=float)
    T = fat["analysis_s"].to_numpy(dtype=float)
    for ch in dset.fatigue["channels"]:
        for m in dset.fatigue["wohler"]:
            d = fat[f"{ch}.dsum_m{m:g}"].to_numpy(dtype=float)
            life = fa.lifetime_del(d, w, T, lifetime_s, m, n_eq=n_eq, f_eq=f_eq)
            life_1hz = fa.lifetime_del(d, w, T, lifetime_s, m, f_eq=1.0)
            n_cycles = n_eq if n_eq is not None else f_eq * lifetime_s
            life_rows.append({"channel": ch, "m": m, "n_eq": n_cycles, "del": float(life),
                              "del_1hz": float(life_1hz), "coverage": float(w.sum())})  # fmt: skip
            for v, g in fat.assign(_d=d).groupby("wind_speed"):
                wb = g["probability"].to_numpy(dtype=float)
                # the bin's short-term 1 Hz DEL: its runs' damage rates weighted within the bin
                rate = np.sum(wb * g["_d"].to_numpy() / g["analysis_s"].to_numpy()) / wb.sum()
                bins_rows.append({"channel": ch, "m": m, "wind_speed": float(v),
                                  "probability": float(wb.sum()), "runs": len(g),
                                  "del_1hz": float(rate ** (1.0 / m))})  # fmt: skip
    return pd.DataFrame(bins_rows), pd.DataFrame(life_rows)


def extreme_tables(dset: DLCSet, runs: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(characteristic and design extremes per DLC / condition / channel / side, the governing
    rows per channel and side), SI units. Ultimate DLCs only; failed runs are refused."""
    ult = runs[~runs["dlc"].isin(FATIGUE_DLCS)]
    channels = dset.extremes["channels"]
    if ult.empty or not channels:
        return pd.DataFrame(), pd.DataFrame()
    _require_all_ok(ult, "ultimate", "the extremes need every seed", dset.source)
    frames = []
    for lc in dset.load_cases:
        part = ult[ult["dlc"] == lc.dlc]
        if part.empty:
            continue
        factors = {lc.dlc: lc.safety_factor} if lc.safety_factor is not None else None
        frames.append(
            ex.extremes_table(part, channels=channels, method=lc.extreme_method, factors=factors)
        )
    table = pd.concat(frames, ignore_index=True)
    # signed: the largest design maximum and the smallest design minimum (a positive channel's
    # "min" side would otherwise pick its largest minimum)
    return table, ex.governing(table, by="signed")


def postprocess(dset: DLCSet, out_dir: str | pathlib.Path) -> DLCResult:
    """Read the finished runs under ``out_dir`` and write the load-basis tables (module doc)."""
    out_dir = pathlib.Path(out_dir)
    runs = run_rows(dset, out_dir)
    units = _units(out_dir, dset)
    fat_bins, fat_life = fatigue_tables(dset, runs)
    ext, gov = extreme_tables(dset, runs)
    _atomic_csv(_human_runs(runs, units), out_dir / "runs.csv")
    for df, name in ((fat_bins, "fatigue_bins.csv"), (fat_life, "fatigue.csv"),
                     (ext, "extremes.csv"), (gov, "governing.csv")):  # fmt: skip
        _atomic_csv(human(df, units), out_dir / name)
    return DLCResult(out_dir, runs, fat_bins, fat_life, ext, gov, units)


# ---------------------------------------------------------------- human-facing units

_VALUE_COLUMNS = ("del", "del_1hz", "characteristic", "lo", "hi", "design", "value", "ci_low",
                  "ci_high", "mean", "std")  # fmt: skip


def human(df: pd.DataFrame, units: dict[str, str]) -> pd.DataFrame:
    """A load-basis table with a ``units`` column after ``channel`` and angles in degrees."""
    if df.empty or "channel" not in df:
        return df
    out = df.copy()
    pairs = [HUMAN_ANGLE.get(units.get(c, ""), (units.get(c, ""), 1.0)) for c in out["channel"]]
    f = np.array([p[1] for p in pairs])
    for col in out.columns:
        if col in _VALUE_COLUMNS and pd.api.types.is_numeric_dtype(out[col]):
            out[col] = out[col].to_numpy(dtype=float) * f
    out.insert(out.columns.get_loc("channel") + 1, "units", [p[0] for p in pairs])
    return out


def _human_runs(runs: pd.DataFrame, units: dict[str, str]) -> pd.DataFrame:
    out = runs.copy()
    rename = {}
    for col in out.columns:
        ch, _, stat = col.rpartition(".")
        if not ch or ch not in units:
            continue
        u, f = HUMAN_ANGLE.get(units[ch], (units[ch], 1.0))
        if stat.startswith("dsum"):
            m = float(stat.split("_m")[1])
            f, u = f**m, f"({u})^{m:g}"
        elif stat.startswith("del"):
            u = f"{u}, 1 Hz"
        out[col] = out[col].to_numpy(dtype=float) * f
        rename[col] = f"{col} [{u}]"
    return out.rename(columns=rename)


def print_summary(res: DLCResult, file=None) -> None:
    """The lifetime DELs and the governing extremes, in the units of the tables."""
    file = sys.stdout if file is None else file
    if not res.fatigue.empty:
        print("lifetime damage-equivalent loads:", file=file)
        print(human(res.fatigue, res.units).to_string(index=False, float_format="%.5g"), file=file)
    if not res.governing.empty:
        print("governing extremes (design = safety factor x characteristic):", file=file)
        print(human(res.governing, res.units).to_string(index=False, float_format="%.5g"),
              file=file)  # fmt: skip
