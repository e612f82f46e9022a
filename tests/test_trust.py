"""Nothing lost, nothing silently wrong (issue 15): inputs and results protected, resumed studies
fingerprinted, unknown channels refused, the Euler singularity stops the run, clear errors and
sanity warnings instead of internal errors or silence."""

from __future__ import annotations

import copy
import os
import pathlib
import shutil
import signal
import subprocess
import sys

import numpy as np
import pytest
import yaml
from conftest import assert_refused, file_snapshot, paused_study, wait_for_marker

from floatwind.case.loader import model_from_dict
from floatwind.cli import main
from floatwind.errors import CaseError, SimulationError
from floatwind.rotation import EULER_PITCH_GUARD
from floatwind.simulate import fused as fz
from floatwind.simulate import simulate
from floatwind.simulate.system import System

ROOT = pathlib.Path(__file__).resolve().parents[1]
DECAY = ROOT / "cases" / "oc3_platform_decay.yaml"


def _decay_dict(**sim) -> dict:
    d = yaml.safe_load(DECAY.read_text())
    d["simulation"].update({"t_max": 4.0, **sim})
    return d


# ------------------------------------------------------------------ Euler singularity (item 4)


def _pitch_model():
    """The lumped OC3 platform under a pure pitch moment far beyond what its restoring holds:
    the Euler pitch X5 runs into +90 deg in about 1.7 s."""
    d = _decay_dict()
    d["loads"].append(
        {
            "type": "constant_force",
            "name": "push",
            "body": "platform",
            "force": [0.0, 0.0, 0.0],
            "moment": [0.0, 2.0e10, 0.0],
        }
    )
    return model_from_dict(copy.deepcopy(d), base_dir=DECAY.parent, name="pitch")


@pytest.mark.parametrize("fused", [True, False], ids=["compiled", "python"])
def test_pitch_singularity_stops_the_run_at_the_guard(fused):
    m = _pitch_model()
    if fused:
        assert fz.fuse(System(m))[0] is not None
    old = fz.use_fused(fused)
    try:
        with pytest.raises(SimulationError) as info:
            simulate(m, progress=False)
    finally:
        fz.use_fused(old)
    err = info.value
    msg = str(err)
    assert "Euler-singularity guard |X5| >= 89.5 deg" in msg and "base pitch X5 = " in msg
    assert abs(err.state[0, 4]) >= EULER_PITCH_GUARD  # the step that reached the guard
    assert 1.0 < err.time < 2.5
    ds = err.dataset  # the partial record, all of it before the guard, no runaway roll or yaw
    assert ds.attrs["status"] == msg
    assert float(ds.time[-1]) <= err.time
    assert np.abs(ds.X5.values).max() < EULER_PITCH_GUARD
    assert np.abs(ds.X6.values).max() < 1e-6 and np.abs(ds.X4.values).max() < 1e-6


def test_pitch_singularity_same_step_both_paths():
    times = []
    for flag in (True, False):
        old = fz.use_fused(flag)
        try:
            with pytest.raises(SimulationError) as info:
                simulate(_pitch_model(), progress=False)
        finally:
            fz.use_fused(old)
        times.append(info.value.time)
    assert times[0] == times[1]


def test_initial_pitch_beyond_the_guard_is_refused():
    d = _decay_dict()
    d["initial"]["angles"] = [0.0, 1.5700, 0.0]
    with pytest.raises(CaseError, match="initial.angles.*89.5 deg"):
        model_from_dict(d, base_dir=DECAY.parent)


# ------------------------------------------------------------------ malformed and dangerous
# invocations (items 1, 3, 5, 7): exit 2, one line naming the field or option, no traceback,
# and no file that existed before the call changed


STUDY_DATA = ROOT / "tests" / "data" / "studies"
DECK_DIR = ROOT.parent / "shared" / "reference" / "openfast" / "ref01_pitch_decay"


def _copy_study(dst: pathlib.Path) -> pathlib.Path:
    """The test study beside its case, with the case's C_T curve named by absolute path."""
    shutil.copytree(STUDY_DATA, dst)
    case = dst / "spar1.yaml"
    ct = str(ROOT / "cases" / "data" / "ct_curve_fig14.csv")
    case.write_text(case.read_text().replace("../../../cases/data/ct_curve_fig14.csv", ct))
    return dst


def _write_yaml(path: pathlib.Path, data: dict) -> pathlib.Path:
    path.write_text(yaml.safe_dump(data))
    return path


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> pathlib.Path:
    d = tmp_path_factory.mktemp("trust")
    case = _decay_dict()
    case["simulation"].update({"t_max": 1.0, "dt": 0.025})
    case["loads"].append(
        {"type": "time_series_force", "name": "push", "body": "platform", "file": "forces.txt"}
    )
    (d / "forces.txt").write_text("# t Fx Fy Fz Mx My Mz\n0 0 0 0 0 0 0\n100 0 0 0 0 0 0\n")
    _write_yaml(d / "case.yaml", case)
    bad = copy.deepcopy(case)
    bad["simulation"]["dt_out"] = 1e-9
    _write_yaml(d / "dtout.yaml", bad)
    bad = copy.deepcopy(case)
    bad["initial"]["angles"] = [0.0, 1.5702, 0.0]
    _write_yaml(d / "pitch90.yaml", bad)
    bad = copy.deepcopy(case)
    bad["environment"]["water_depth"] = 10.0
    bad["environment"]["waves"] = {"kind": "jonswap", "hs": 9.0, "tp": 12.0, "seed": 1}
    _write_yaml(d / "breaking.yaml", bad)
    (d / "latin1.yaml").write_bytes(
        (d / "case.yaml").read_bytes() + "# Morison cd from the café table\n".encode("latin-1")
    )
    bad = copy.deepcopy(case)
    bad["loads"][-1]["file"] = "forces_latin1.txt"
    _write_yaml(d / "latin1_ref.yaml", bad)
    (d / "forces_latin1.txt").write_bytes(
        "# forces (Ñ)\n0 0 0 0 0 0 0\n100 0 0 0 0 0 0\n".encode("latin-1")
    )
    for name in ("old.nc", "old.out", "old.yaml", "old.html"):
        (d / name).write_bytes(b"an earlier result\n")
    (d / "afolder").mkdir()
    # a small study (short runs) with its case beside it
    sd = d / "study"
    _copy_study(sd)
    raw = yaml.safe_load((sd / "small_study.yaml").read_text())
    raw.update(duration=2.0, realizations=1)
    _write_yaml(sd / "small_study.yaml", raw)
    for name, change in (
        ("transient.yaml", {"transient": 2.0}),
        ("negtransient.yaml", {"transient": -1.0}),
        ("typo.yaml", {"channels": ["PtfmSurge", "PtfmPich"]}),
        ("unknownkey.yaml", {"realisations": 2}),
        ("nocase.yaml", {"designs": [{"name": "d", "case": "nope.yaml"}]}),
    ):
        _write_yaml(sd / name, {**raw, **change})
    (sd / "latin1_study.yaml").write_bytes(
        (sd / "small_study.yaml").read_bytes() + "# études\n".encode("latin-1")
    )
    (sd / "ct_latin1.csv").write_bytes(
        (ROOT / "cases" / "data" / "ct_curve_fig14.csv").read_bytes() + "# Ø\n".encode("latin-1")
    )
    case_ct = (sd / "spar1.yaml").read_text()
    (sd / "spar1_ct.yaml").write_text(
        case_ct.replace(str(ROOT / "cases" / "data" / "ct_curve_fig14.csv"), "ct_latin1.csv")
    )
    _write_yaml(sd / "latin1_ct.yaml", {**raw, "designs": [{"name": "s", "case": "spar1_ct.yaml"}]})
    (sd / "results").mkdir()
    (sd / "afile").write_text("not a folder\n")
    if DECK_DIR.is_dir():
        shutil.copytree(
            DECK_DIR, d / "deck", ignore=shutil.ignore_patterns("*.out", "*.outb", "*.sum")
        )
        for p in (d / "deck").iterdir():
            p.chmod(0o444)  # a read-only deck: even root must not overwrite it
    return d


RUN = ["run", "{d}/case.yaml", "--no-progress"]
STUDY = ["study", "{d}/study/small_study.yaml", "--no-progress", "--workers", "1"]
FROM = ["run", "--from-study", "{d}/study/small_study.yaml", "--no-progress"]
RID = "spar1__U08__fixed__r000"
DECK = "{d}/deck/ref01_pitch_decay.fst"

# (id, argv, option/field named in the one line, words of the reason)
INVOCATIONS = [
    ("run -o the case itself", RUN + ["-o", "{d}/case.yaml"], "--output", "input of this run"),
    ("run -o a referenced file", RUN + ["-o", "{d}/forces.txt"], "--output", "input of this run"),
    ("run -o existing result", RUN + ["-o", "{d}/old.nc"], "--output", "add --overwrite"),
    ("run -o existing .out", RUN + ["-o", "{d}/old.out"], "--output", "add --overwrite"),
    ("run --format out existing", RUN + ["--format", "out", "-o", "{d}/old.out"], "--output", "exists"),
    ("run -o missing folder", RUN + ["-o", "{d}/nowhere/r.nc"], "--output", "add --mkdir"),
    ("run -o a folder", RUN + ["-o", "{d}/afolder"], "--output", "is a folder"),
    ("run -o under a file", RUN + ["-o", "{d}/old.nc/r.nc"], "--output", "does not exist"),
    ("run --tmax 1e12", RUN + ["--tmax", "1e12"], "simulation.t_max", "memory"),
    ("run dt_out 1e-9", ["run", "{d}/dtout.yaml"], "simulation.dt_out", "memory"),
    ("run --tmax negative", RUN + ["--tmax", "-3"], "--tmax", "positive"),
    ("run --dt zero", RUN + ["--dt", "0"], "--dt", "positive"),
    ("run --dt 1e-6 strict", RUN + ["--dt", "1e-6", "--strict"], "--strict", "below 1e-05 s"),
    ("run --dt 5 strict", RUN + ["--tmax", "20", "--dt", "5", "--strict"], "--strict", "natural period"),
    ("run Hs beyond breaking strict", ["run", "{d}/breaking.yaml", "--strict"], "--strict", "0.78"),
    ("run initial pitch 90 deg", ["run", "{d}/pitch90.yaml"], "initial.angles", "89.5 deg"),
    ("run case not UTF-8", ["run", "{d}/latin1.yaml"], "latin1.yaml", "not UTF-8"),
    ("run table not UTF-8", ["run", "{d}/latin1_ref.yaml"], "forces_latin1.txt", "not UTF-8"),
    ("check case not UTF-8", ["check", "{d}/latin1.yaml"], "latin1.yaml", "byte 0xe9"),
    ("run missing case", ["run", "{d}/nope.yaml"], "nope.yaml", "not found"),
    ("run no case", ["run"], "case", "give a case file"),
    ("from-study without --id", FROM, "--id", "go together"),
    ("from-study unknown id", FROM + ["--id", "spar1__U08__fixd__r000"], "--id", "did you mean"),
    ("from-study -o the study", FROM + ["--id", RID, "-o", "{d}/study/small_study.yaml"], "--output", "input of this run"),
    ("from-study -o its case", FROM + ["--id", RID, "-o", "{d}/study/spar1.yaml"], "--output", "input of this run"),
    ("from-study -o existing", FROM + ["--id", RID, "-o", "{d}/old.nc"], "--output", "add --overwrite"),
    ("from-study study not UTF-8", ["run", "--from-study", "{d}/study/latin1_study.yaml", "--id", RID], "latin1_study.yaml", "not UTF-8"),
    ("study transient >= duration", ["study", "{d}/study/transient.yaml"], "transient", "shorter than the run"),
    ("study negative transient", ["study", "{d}/study/negtransient.yaml"], "transient", "negative"),
    ("study channel typo", ["study", "{d}/study/typo.yaml", "-o", "{d}/typo_out"], "channels[1]", "did you mean 'PtfmPitch'"),
    ("study unknown key", ["study", "{d}/study/unknownkey.yaml"], "realisations", "did you mean"),
    ("study missing case", ["study", "{d}/study/nocase.yaml"], "designs[0].case", "not found"),
    ("study not UTF-8", ["study", "{d}/study/latin1_study.yaml"], "latin1_study.yaml", "not UTF-8"),
    ("study -o a file", STUDY + ["-o", "{d}/study/afile"], "--output", "not a folder"),
    ("study -o its own folder", STUDY + ["-o", "{d}/study/spar1.yaml"], "--output", "overwrite an input"),
    ("study C_T table not UTF-8", ["study", "{d}/study/latin1_ct.yaml"], "ct_latin1.csv", "not UTF-8"),
    ("study --accept-changes alone", STUDY + ["-o", "{d}/s1", "--accept-changes"], "--accept-changes", "--resume"),
    ("study --workers 0", ["study", "{d}/study/small_study.yaml", "--workers", "0"], "--workers", "positive"),
    ("study --batch-size 0", ["study", "{d}/study/small_study.yaml", "--batch-size", "0"], "--batch-size", "positive"),
    ("study --duration negative", STUDY + ["--duration", "-1"], "--duration", "positive"),
    ("plot without results", ["plot", "{d}/study/small_study.yaml", "-o", "{d}/study/results"], "small_study.yaml", "no study results"),
    ("report -o existing", ["report", "validation", "-o", "{d}/old.html"], "--output", "add --overwrite"),
    ("report -o missing folder", ["report", "validation", "-o", "{d}/nowhere/r.html"], "--output", "add --mkdir"),
    ("import -o the deck", ["import-openfast", DECK, "-o", DECK], "--output", "input of this run"),
    ("import -o an ElastoDyn file", ["import-openfast", DECK, "-o", "{d}/deck/ElastoDyn_Tower.dat"], "--output", "input of this run"),
    ("import -o existing", ["import-openfast", DECK, "-o", "{d}/old.yaml"], "--output", "add --overwrite"),
    ("import -o missing folder", ["import-openfast", DECK, "-o", "{d}/nowhere/c.yaml"], "--output", "add --mkdir"),
]



@pytest.mark.parametrize("desc,argv,named,reason", INVOCATIONS, ids=[c[0] for c in INVOCATIONS])
def test_refused_invocations(work, capsys, desc, argv, named, reason):
    argv = [a.format(d=work) for a in argv]
    if "deck" in " ".join(argv) and not (work / "deck").is_dir():
        pytest.skip("the OpenFAST reference decks are absent")
    if desc == "import -o an ElastoDyn file":
        assert pathlib.Path(argv[-1]).is_file()
    assert_refused(argv, work, named, reason, capsys)


def test_at_least_forty_invocations():
    assert len(INVOCATIONS) >= 40


def test_no_traceback_in_a_subprocess(work):
    proc = subprocess.run(
        [sys.executable, "-m", "floatwind", "run", str(work / "latin1.yaml")],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "line 73" in proc.stderr or "line " in proc.stderr


def test_overwrite_and_mkdir_allow_what_is_refused(work, tmp_path, capsys):
    out = tmp_path / "new" / "deeper" / "r.nc"
    assert main(RUN[:1] + [str(work / "case.yaml"), "--no-progress", "-o", str(out), "--mkdir"]) == 0
    first = out.read_bytes()
    assert main(["run", str(work / "case.yaml"), "--no-progress", "-o", str(out)]) == 2
    assert out.read_bytes() == first
    assert main(["run", str(work / "case.yaml"), "--no-progress", "-o", str(out), "--overwrite"]) == 0
    assert not list(out.parent.glob(".*tmp*"))  # no temporary left behind


def test_unknown_channel_in_simulate_is_an_error():
    m = model_from_dict(_decay_dict(), base_dir=DECAY.parent, name="d")
    with pytest.raises(CaseError, match="unknown channel 'PtfmPtch' \\(did you mean 'PtfmPitch'\\?\\)"):
        simulate(m, progress=False, channels=["PtfmSurge", "PtfmPtch"])
    ds = simulate(
        model_from_dict(_decay_dict(t_max=0.5), base_dir=DECAY.parent), progress=False,
        channels=["PtfmPitch", "linear_F" if False else "PtfmSurge"],
    )  # fmt: skip
    assert set(ds.data_vars) == {"PtfmPitch", "PtfmSurge"}


# ------------------------------------------------------------------ atomic writes (item 1)


def test_a_killed_write_leaves_the_old_result_intact(tmp_path, monkeypatch, capsys):
    import floatwind.io.netcdf as nc

    out = tmp_path / "r.nc"
    case = str(DECAY)
    assert main(["run", case, "--tmax", "0.5", "--no-progress", "-o", str(out)]) == 0
    old = out.read_bytes()
    real = nc.write_netcdf

    def dying(ds, path):
        real(ds, path)  # the whole file is there under its temporary name ...
        with open(path, "r+b") as f:  # ... half of it overwritten, then the process "dies"
            f.write(b"\0" * 100)
        raise KeyboardInterrupt

    monkeypatch.setattr(nc, "write_netcdf", dying)
    rc = main(["run", case, "--tmax", "1.0", "--no-progress", "-o", str(out), "--overwrite"])
    assert rc == 130
    assert out.read_bytes() == old
    assert [p.name for p in tmp_path.iterdir()] == ["r.nc"]  # no temporary left behind


# ------------------------------------------------------------------ Ctrl-C keeps the partial
# record on run --from-study (item 6)


def test_ctrl_c_in_run_from_study_keeps_the_partial_record(tmp_path, monkeypatch, capsys):
    import xarray as xr

    from floatwind.integrate import base

    study = _copy_study(tmp_path / "study")
    calls = {"n": 0}
    real = base.RK4._step_impl

    def interrupt_later(self, fun, t, y, f, h):
        calls["n"] += 1
        if calls["n"] > 40:
            raise KeyboardInterrupt
        return real(self, fun, t, y, f, h)

    monkeypatch.setattr(base.RK4, "_step_impl", interrupt_later)
    old = fz.use_fused(False)  # Python steps, so the interruption lands mid-run
    try:
        out = tmp_path / "one.nc"
        rc = main(FROM[:1] + ["--from-study", str(study / "small_study.yaml"), "--id", RID,
                              "--no-progress", "-o", str(out)])  # fmt: skip
    finally:
        fz.use_fused(old)
    err = capsys.readouterr().err
    assert rc == 130, err
    assert "interrupted at t = " in err and "wrote the" in err
    with xr.open_dataset(out) as ds:
        assert 0 < ds.sizes["time"] < 41
        assert "interrupted" in ds.attrs["status"]


# ------------------------------------------------------------------ studies: fingerprint of the
# inputs, lock (item 2)


def _study_dir(tmp_path) -> pathlib.Path:
    sd = _copy_study(tmp_path / "study")
    raw = yaml.safe_load((sd / "small_study.yaml").read_text())
    raw.update(duration=10.0, conditions=raw["conditions"][:1], variants=raw["variants"][:1])
    raw["realizations"] = 6
    _write_yaml(sd / "small_study.yaml", raw)
    return sd


@pytest.fixture
def numpy_path():
    """The NumPy path for the test (restored afterwards): what a study test checks here (locks,
    fingerprints, batches) does not depend on the stepping, and the study model's compile (53 s
    in CI, paid again by whichever of test_studies' tests ran at the same time) is not needed."""
    from floatwind import _kernels

    old, old_f = _kernels.use_jit(False), fz.use_fused(False)
    yield
    _kernels.use_jit(old)
    fz.use_fused(old_f)


def test_killed_study_edited_case_resume_refused_and_second_study_refused(
    tmp_path, capsys, numpy_path
):
    import json

    sd = _study_dir(tmp_path)
    out = tmp_path / "out"
    study = str(sd / "small_study.yaml")
    cmd = [sys.executable, "-m", "floatwind", "study", study, "-o", str(out)]
    cmd += ["--workers", "1", "--batch-size", "1", "--no-progress"]
    marker = tmp_path / "paused"
    env = dict(os.environ, FLOATWIND_NO_JIT="1")  # the NumPy path in the study process too
    proc = paused_study(cmd[3:], 1, marker, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                        env=env)  # fmt: skip
    try:
        wait_for_marker(proc, marker)  # one batch written, the second "running"
        assert (out / ".floatwind.lock").is_file()
        # a second study on the same folder while the first runs: refused, naming the owner
        rc = main(["study", study, "-o", str(out), "--resume", "--no-progress", "--workers", "1"])
        err = capsys.readouterr().err
        assert rc == 2 and "in use by another floatwind study" in err and f"pid {proc.pid}" in err
        assert proc.poll() is None, "the first study finished too early for the test"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    n_done = len(list((out / "batches").glob("*.json")))
    assert n_done == 1, n_done
    assert (out / ".floatwind.lock").is_file()  # left by the killed process
    # the design's Morison cd from 0.6 to 1.2 between the kill and the resume: refused
    case = sd / "spar1.yaml"
    case.write_text(case.read_text().replace("cd: 0.6", "cd: 1.2", 1))
    before = file_snapshot(out)
    rc = main(["study", study, "-o", str(out), "--resume", "--no-progress", "--workers", "1"])
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.startswith("floatwind: error:")]
    assert rc == 2 and len(lines) == 1, err
    assert "took over the stale lock of process" in err  # the killed study's lock
    assert "field 'designs[0].case'" in lines[0] and "spar1.yaml changed" in lines[0]
    assert "--accept-changes" in lines[0]
    after = file_snapshot(out)
    after.pop(str(out / ".floatwind.lock"), None)
    before.pop(str(out / ".floatwind.lock"), None)
    assert after == before  # nothing touched
    # --accept-changes: the old batches are re-run, none of them is kept
    rc = main(["study", study, "-o", str(out), "--resume", "--accept-changes", "--no-progress",
               "--workers", "1"])  # fmt: skip
    err = capsys.readouterr().err
    assert rc == 0, err
    assert f"re-running {n_done} batch(es) made with the old inputs (spar1.yaml changed" in err
    from floatwind.studies import load_study
    from floatwind.studies.execute import design_inputs

    now = design_inputs(load_study(study), 0)
    recs = [json.loads(p.read_text()) for p in (out / "batches").glob("*.json")]
    assert sum(len(r["runs"]) for r in recs) == 6
    assert all(r["inputs"] == now for r in recs)
    assert not (out / ".floatwind.lock").exists()
    # and a plain resume now runs nothing
    rc = main(["study", study, "-o", str(out), "--resume", "--no-progress", "--workers", "1"])
    assert rc == 0 and "0 run now" in capsys.readouterr().out


# ------------------------------------------------------------------ compile notice (item 8)


def test_first_run_says_it_compiles(tmp_path, monkeypatch, capsys):
    from floatwind import _kernels
    from floatwind.simulate import sanity

    if not _kernels.enabled():
        pytest.skip("compiled kernels are off")
    assert main(["run", str(DECAY), "--tmax", "0.2", "--no-progress", "-o", str(tmp_path / "a.nc")]) == 0
    capsys.readouterr()
    from floatwind.case import load_case

    assert sanity.compile_notice(load_case(DECAY)) is None  # compiled by the run above
    real = os.path.exists
    monkeypatch.setattr(os.path, "exists", lambda p: False if str(p).endswith(".nbi") else real(p))
    assert main(["run", str(DECAY), "--tmax", "0.2", "--no-progress", "-o", str(tmp_path / "r.nc")]) == 0
    assert "floatwind: compiling kernels, once per installation: ~1 min" in capsys.readouterr().err


def test_non_utf8_ct_table_is_a_case_error_from_python_too(tmp_path):
    """Called from Python (no CLI pre-scan), a Latin-1 C_T table is a CaseError naming the file,
    the field and the byte, not a UnicodeDecodeError."""
    from floatwind.errors import CaseError
    from floatwind.loads.thrust import CTCurve

    f = tmp_path / "ct.csv"
    f.write_bytes("# vitesse du vent \xe9\n3,0.8\n25,0.1\n".encode("latin-1"))
    with pytest.raises(CaseError) as err:
        CTCurve.from_csv(f)
    msg = str(err.value)
    assert "ct.csv" in msg and "ct_curve" in msg and "0xe9" in msg and "line 1" in msg


def test_a_channel_without_units_is_an_error_not_a_silent_unit():
    """Issue 23 item 4: an output channel must have units and a description."""
    import pathlib

    import numpy as np
    import pytest

    from floatwind.case import load_case
    from floatwind.simulate import simulate

    root = pathlib.Path(__file__).resolve().parents[1]
    model = load_case(root / "cases" / "oc3_platform_decay.yaml", {"simulation.t_max": 0.2})

    def extra(ev):
        return {"Mystery": np.zeros(ev.kin.r_G_g.shape[0])}

    with pytest.raises(ValueError, match="'Mystery' has no units and description"):
        simulate(model, extra_channels=extra, progress=False)
    extra.channel_info = {"Mystery": ("N", "a declared channel")}
    ds = simulate(model, extra_channels=extra, progress=False)
    assert ds["Mystery"].attrs == {"units": "N", "long_name": "a declared channel"}
