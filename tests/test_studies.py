"""Studies: expansion and seeds, ensemble equality, failures, resume after a kill, Dask, CLI."""

from __future__ import annotations

import copy
import os
import pathlib
import re
import signal
import subprocess
import sys

import numpy as np
import pytest
import xarray as xr
import yaml
from conftest import paused_study, wait_for_marker

from floatwind.cli import main
from floatwind.errors import CaseError
from floatwind.studies import (
    build_batch_model,
    load_study,
    open_study_dataset,
    run_one,
    run_study,
    study_from_dict,
)
from floatwind.studies.execute import plan_batches

DATA = pathlib.Path(__file__).resolve().parent / "data" / "studies"
STUDY = DATA / "small_study.yaml"


def _study(**changes):
    raw = yaml.safe_load(STUDY.read_text())
    raw.update(changes)
    return study_from_dict(raw, base_dir=DATA, source=str(STUDY))


def test_expansion_is_deterministic_with_stable_ids_and_seeds():
    s = load_study(STUDY)
    runs = s.runs()
    assert len(runs) == 1 * 2 * 2 * 3
    assert runs[0].id == "spar1__U08__fixed__r000"
    assert len({r.id for r in runs}) == len(runs)
    assert [r.id for r in load_study(STUDY).runs()] == [r.id for r in runs]
    # a run's seed does not depend on which other runs exist
    raw = yaml.safe_load(STUDY.read_text())
    raw["conditions"].append({"name": "U25", "wind_speed": 25.0, "hs": 14.0, "tp": 15.0})
    raw["realizations"] = 5
    bigger = study_from_dict(raw, base_dir=DATA)
    for r in runs:
        other = bigger.run(r.id)
        assert other.seed.generate_state(4).tolist() == r.seed.generate_state(4).tolist()
    # common random numbers: both variants see the same sea; realizations differ
    a, b, c = s.run("spar1__U08__fixed__r001"), s.run("spar1__U08__variable__r001"), runs[0]
    assert a.seed.generate_state(2).tolist() == b.seed.generate_state(2).tolist()
    assert a.seed.generate_state(2).tolist() != c.seed.generate_state(2).tolist()
    indep = _study(common_random_numbers=False)
    assert (
        indep.run(a.id).seed.generate_state(2).tolist()
        != indep.run(b.id).seed.generate_state(2).tolist()
    )


def test_study_errors_name_the_field():
    with pytest.raises(CaseError, match="conditions\\[0\\].hs"):
        _study(conditions=[{"name": "x", "hs": -1.0}])
    with pytest.raises(CaseError, match="did you mean 'realizations'"):
        _study(realisations=3)
    with pytest.raises(CaseError, match="designs\\[0\\].case"):
        _study(designs=[{"name": "d", "case": "missing.yaml"}])
    with pytest.raises(CaseError, match="did you mean"):
        load_study(STUDY).run("spar1__U08__fixd__r000")
    with pytest.raises(CaseError, match="openfast_outputs.*out and/or outb"):
        _study(openfast_outputs=["csv"])
    assert _study(openfast_outputs="outb").openfast_outputs == ["outb"]


def test_batch_of_64_equals_runs_alone():
    """Ensemble equality: random seas and a fixed/variable C_T mix in one batch of 64."""
    s = _study(
        realizations=32,
        conditions=[{"name": "U20", "wind_speed": 20.0, "hs": 9.0, "tp": 13.0}],
        duration=4.0,
        simulation={"dt": 0.25, "dt_out": 0.5},
    )
    runs = s.runs()
    assert len(runs) == 64
    model = build_batch_model(s, runs)
    assert model.batch == 64
    from floatwind.simulate import simulate

    batch = simulate(model, progress=False)
    for k in (0, 37, 63):
        alone = run_one(s, runs[k].id, all_channels=True)
        for name in ("PtfmSurge", "PtfmPitch", "PtfmHeave", "RtAeroFxh", "FAIRTEN1"):
            a = batch[name].isel(realization=k).values
            b = alone[name].values
            scale = max(np.abs(b).max(), 1.0)
            assert np.max(np.abs(a - b)) <= 1e-12 * scale, name
    # the two variants differ (fixed vs variable C_T above rated), seas differ per realization
    p = batch["RtAeroFxh"].values
    assert np.any(p[0] != p[32])
    assert np.max(np.abs(p[0] - p[1])) > 1e3


def test_diverging_runs_are_recorded_and_do_not_stop_the_others(tmp_path):
    raw = yaml.safe_load(STUDY.read_text())
    raw["variants"].append({"name": "huge", "loads": {"thrust_ct": {"rotor_radius": 3.0e5}}})
    # two variants (variable C_T and the diverging one), as the other tests' batches: the same
    # generated stepper and parameter types as test_batch_of_64_equals_runs_alone, so numba's
    # cache serves it (with "fixed" as well, three candidates, a stepper compiled for this test
    # alone)
    raw["variants"] = raw["variants"][1:]
    raw["conditions"] = raw["conditions"][:1]
    raw["realizations"] = 2
    raw["duration"] = 10.0
    s = study_from_dict(raw, base_dir=DATA, source="t.yaml")
    res = run_study(s, tmp_path / "out", workers=1, progress=False)
    status = dict(zip(res.runs["id"], res.runs["status"], strict=True))
    assert [k for k, v in status.items() if v == "failed"] == [
        "spar1__U08__huge__r000",
        "spar1__U08__huge__r001",
    ]
    assert all("t = " in e for e in res.failures["error"])
    assert (tmp_path / "out" / "failures.csv").read_text().count("huge") == 2
    # the survivors equal the same runs alone
    ds = open_study_dataset(tmp_path / "out")
    assert ds.attrs["title"] == f"floatwind study: {s.name}"  # not its first run's name
    rid = "spar1__U08__variable__r001"
    alone = run_one(s, rid)
    xr.testing.assert_allclose(ds.sel(run=rid).PtfmPitch, alone.PtfmPitch, rtol=0, atol=1e-15)


def test_study_killed_midway_resumes_to_the_uninterrupted_result(tmp_path):
    ref = run_study(load_study(STUDY), tmp_path / "ref", workers=2, progress=False)
    out = tmp_path / "killed"
    cmd = [sys.executable, "-m", "floatwind", "study", str(STUDY), "-o", str(out)]
    cmd += ["--workers", "1", "--batch-size", "1", "--no-progress"]
    marker = tmp_path / "paused"
    proc = paused_study(cmd[3:], 3, marker, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_for_marker(proc, marker)  # 3 of the 12 one-run batches written, the 4th "running"
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    n_done = len(list((out / "batches").glob("*.json")))
    assert n_done == 3, n_done
    with pytest.raises(CaseError, match="--resume"):
        run_study(load_study(STUDY), out, workers=1, progress=False)
    res = run_study(load_study(STUDY), out, resume=True, workers=2, progress=False)
    assert res.n_run_now == 12 - n_done
    assert (res.runs["status"] == "ok").all()
    a = open_study_dataset(tmp_path / "ref")
    b = open_study_dataset(out)
    xr.testing.assert_identical(a.drop_attrs(), b.drop_attrs())
    cols = [c for c in ref.runs.columns if "." in c]
    np.testing.assert_array_equal(ref.runs[cols].to_numpy(), res.runs[cols].to_numpy())
    # nothing left: a second resume runs nothing
    assert run_study(load_study(STUDY), out, resume=True, progress=False).n_run_now == 0


def test_ctrl_c_keeps_finished_batches(tmp_path):
    out = tmp_path / "int"
    cmd = [sys.executable, "-m", "floatwind", "study", str(STUDY), "-o", str(out)]
    cmd += ["--workers", "1", "--batch-size", "1", "--no-progress"]
    marker = tmp_path / "paused"
    env = dict(os.environ, FLOATWIND_NO_JIT="1")  # the NumPy path: nothing to compile first
    proc = paused_study(cmd[3:], 2, marker, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                        env=env)  # fmt: skip
    wait_for_marker(proc, marker)  # 2 batches written, the 3rd "running": Ctrl-C now
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=600)  # a bound against a hang, not a pace
    assert proc.returncode == 130, err
    assert "--resume" in err
    assert len(list((out / "batches").glob("*.json"))) == 2


def test_dask_local_cluster_gives_the_local_results(tmp_path):
    pytest.importorskip("distributed")
    s = load_study(STUDY)
    local = run_study(s, tmp_path / "local", workers=1, progress=False, batch_size=6)
    dask = run_study(s, tmp_path / "dask", workers=2, dask="local", progress=False, batch_size=3)
    xr.testing.assert_identical(
        open_study_dataset(tmp_path / "local").drop_attrs(),
        open_study_dataset(tmp_path / "dask").drop_attrs(),
    )
    cols = [c for c in local.runs.columns if "." in c]
    np.testing.assert_array_equal(local.runs[cols].to_numpy(), dask.runs[cols].to_numpy())


def test_plan_batches_groups_by_design_and_condition():
    s = load_study(STUDY)
    batches = plan_batches(s, s.runs(), 4)
    assert sum(len(b) for b in batches) == 12
    for b in batches:
        assert len({(r.design, r.condition) for r in b}) == 1
        assert len(b) <= 4


def test_plan_batches_leaves_no_worker_idle_at_the_end():
    """One group of 64 runs, batches of at most 13, two workers: 6 batches of ~11 (3 each)
    instead of 5 (3 + 2)."""
    raw = yaml.safe_load(STUDY.read_text())
    raw["conditions"] = raw["conditions"][:1]
    raw["variants"] = raw["variants"][:1]
    raw["realizations"] = 64
    s = study_from_dict(raw, base_dir=DATA, source="t.yaml")
    runs = s.runs()
    assert len(runs) == 64
    one = plan_batches(s, runs, 13)
    two = plan_batches(s, runs, 13, workers=2)
    assert len(one) == 5 and len(two) == 6
    assert sorted(len(b) for b in two) == [10, 10, 11, 11, 11, 11]
    assert sorted(len(b) for b in one) == [12, 13, 13, 13, 13]
    assert [r.id for b in two for r in b] == [r.id for r in runs]


def test_cli_study_plot_and_run_from_study(tmp_path, capsys):
    out = tmp_path / "cli"
    assert main(["study", str(STUDY), "-o", str(out), "--workers", "1", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "12 of 12 runs ok" in text and "PtfmPitch.mean" in text
    assert main(["plot", str(STUDY), "-o", str(out)]) == 0
    assert (out / "figures" / "fig25_pitch.png").is_file()
    assert (out / "figures" / "fig26_weight_per_power.png").is_file()
    import pandas as pd

    from floatwind.studies import load_study
    from floatwind.studies.plots import _sample_note

    # issue 24: the tables a user reads carry units, angles in degrees (the netCDF stays SI)
    res_csv = pd.read_csv(out / "results.csv")
    pitch = res_csv[res_csv.quantity == "PtfmPitch.mean"]
    assert set(pitch.units) == {"deg"} and set(res_csv[res_csv.quantity == "PtfmSurge.mean"].units) == {"m"}
    ds = open_study_dataset(out)
    assert ds.PtfmPitch.attrs["units"] == "rad"
    runs_csv = pd.read_csv(out / "runs_summary.csv")
    assert "PtfmPitch.mean [deg]" in runs_csv.columns and "PtfmSurge.upcross [1/s]" in runs_csv.columns
    r0 = runs_csv.iloc[0]
    x = ds.PtfmPitch.sel(run=r0["id"])
    x = x.sel(time=x.time >= load_study(STUDY).transient)
    assert r0["PtfmPitch.mean [deg]"] == pytest.approx(np.degrees(float(x.mean())), rel=1e-9)
    note = _sample_note(load_study(STUDY), res_csv, out)
    assert re.fullmatch(r"\d+ realizations? of [\d.]+ s per point(, statistics after .* s)?", note), note
    rid = "spar1__U17__fixed__r002"
    one = tmp_path / "one.nc"
    assert (
        main(["run", "--from-study", str(STUDY), "--id", rid, "-o", str(one), "--no-progress"]) == 0
    )
    with xr.open_dataset(one) as ds1:
        inside = open_study_dataset(out).sel(run=rid)
        np.testing.assert_array_equal(ds1.PtfmPitch.values, inside.PtfmPitch.values)


@pytest.mark.parametrize(
    "argv",
    [
        ["study", "missing.yaml"],
        ["study", str(STUDY), "--duration", "-1"],
        ["run", "--from-study", str(STUDY), "--id", "nope"],
        ["run", "--from-study", str(STUDY)],
        ["plot", str(STUDY), "-o", "/nonexistent/folder"],
    ],
)
def test_cli_bad_input_exits_2_with_one_line(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("floatwind: error:")


def test_cli_list_runs(capsys):
    assert main(["study", str(STUDY), "--list", "--realizations", "1"]) == 0
    ids = capsys.readouterr().out.split()
    assert len(ids) == 4 and ids[0] == "spar1__U08__fixed__r000"


def test_case_dict_applies_condition_and_variant():
    s = load_study(STUDY)
    d = s.case_dict(s.run("spar1__U17__fixed__r000"))
    assert d["environment"]["waves"]["hs"] == 5.0 and d["environment"]["wind"]["speed"] == 17.0
    thrust = next(ld for ld in d["loads"] if ld["type"] == "thrust_ct")
    assert thrust["ct_mode"] == "fixed" and thrust["mean_wind_speed"] == 17.0
    assert d["simulation"]["t_max"] == 20.0
    assert copy.deepcopy(d) == s.case_dict(s.run("spar1__U17__fixed__r000"))
    assert os.path.basename(s.case_path(0)) == "spar1.yaml"


def test_fig25_study_file_expands_to_the_dissertation_study(root):
    path = root / "cases" / "studies" / "fig25_spar_family.yaml"
    s = load_study(path)
    assert len(s.runs()) == 4 * 4 * 2 * 10
    assert s.duration == 10800.0
    reduced = load_study(path, {"realizations": 1, "duration": 2.0, "simulation": {"dt": 0.25}})
    d = reduced.case_dict(reduced.run("L72__U25__fixed__r000"))
    assert d["environment"]["waves"]["hs"] == 14.0


def test_ctrl_c_inside_a_run_stops_the_study_without_recording_failures(tmp_path, monkeypatch):
    """The integrator turns Ctrl-C into Interrupted (a SimulationError with the partial record);
    a study must stop on it, not record the runs of the batch as failed."""
    import floatwind.simulate as sim
    from floatwind.integrate.base import Interrupted

    def interrupted(model, **kw):
        raise Interrupted("interrupted by the user", time=1.0)

    monkeypatch.setattr(sim, "simulate", interrupted)
    s = load_study(STUDY)
    with pytest.raises(KeyboardInterrupt):
        run_study(s, tmp_path / "int", workers=1, progress=False, batch_size=2)
    assert not list((tmp_path / "int" / "batches").glob("*.json"))


def test_auto_batch_size_keeps_fast_wave_kinematics_for_long_runs(root):
    """3-hour runs need ~200 MB of fast-kinematics table per member; the automatic batch size keeps
    a batch's table within the budget beyond which the kinematics fall back to direct summation."""
    from floatwind.environment import fastkin
    from floatwind.studies import auto_batch_size
    from floatwind.studies.execute import wave_table_bytes

    study_file = root / "cases" / "studies" / "fig25_spar_family.yaml"
    long = load_study(study_file)
    short = load_study(study_file, {"duration": 600.0})
    per_member = wave_table_bytes(long)
    assert per_member > 50e6  # 3 h at ~0.15 s, ~70 Morison points
    assert wave_table_bytes(short) < per_member / 10
    b = auto_batch_size(long, 2)
    assert 1 <= b < long.max_batch
    assert b * per_member <= fastkin.AUTO_MEMORY_BUDGET
    assert auto_batch_size(short, 2) > b
