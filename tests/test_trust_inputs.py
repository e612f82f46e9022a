"""Nothing lost, nothing silently wrong, part 2 (issue 42): every file a run reads is protected
(WAMIT roots, the folder a report reads, device nodes and FIFOs written as streams), corrupt data
refused (a truncated WAMIT file, a period given twice, words and NaN where numbers belong), YAML
that would be read wrongly or forever refused (keys given twice, alias bombs, self-reference,
thousands of levels), a misspelled top-level key of an --env file refused.

Each row: the command, exit 2, the first line of stderr naming the file/field and the reason, and
every file of the work folder byte-identical afterwards."""

from __future__ import annotations

import contextlib
import os
import pathlib
import shutil
import stat
import subprocess
import sys
import threading

import pytest
from conftest import assert_refused, file_snapshot

from floatwind.cli import main
from floatwind.errors import CaseError
from floatwind.io.safe import MAX_YAML_VALUES, atomic_write, input_files, load_yaml
from floatwind.loads.wamit import read_wamit

ROOT = pathlib.Path(__file__).resolve().parents[1]
REF07 = ROOT.parent / "shared" / "reference" / "openfast" / "ref07_potential_decay"
DECAY = ROOT / "cases" / "oc3_platform_decay.yaml"
needs_ref07 = pytest.mark.skipif(not REF07.is_dir(), reason="reference deck ref07 absent")

BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 10) + "]\n"
    for i in range(9)
)  # 10^10 values once expanded


def _edit(path: pathlib.Path, old: str, new: str) -> None:
    text = path.read_text(encoding="latin-1")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="latin-1")


def _deck(work: pathlib.Path, name: str, edit=None) -> str:
    d = work / name
    shutil.copytree(REF07, d)
    if edit:
        edit(d)
    return str(d / "ref07_potential_decay.fst")


def _truncate(path: pathlib.Path, n: int) -> None:
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-n]) + "\n")


def _twice(path: pathlib.Path) -> None:
    lines = path.read_text().splitlines()
    row = lines[200].split()
    row[3] = "1.2345"
    path.write_text("\n".join([*lines, "  ".join(row)]) + "\n")


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> pathlib.Path:
    d = tmp_path_factory.mktemp("inputs")
    case = DECAY.read_text()
    (d / "dup.yaml").write_text(case + "\nsimulation: {t_max: 1.0}\n")
    (d / "bomb.yaml").write_text(BOMB)
    (d / "self.yaml").write_text("a: &x [1, *x]\n")
    (d / "deep.yaml").write_text("[" * 5000 + "]" * 5000 + "\n")
    (d / "env_typo.yaml").write_text("enviroment:\n  waves: {kind: still}\n")
    (d / "study").mkdir()
    (d / "study" / "results.csv").write_text("run,x\n0,1\n")
    (d / "dlc").mkdir()
    (d / "dlc" / "dlc.json").write_text("{}\n")
    if REF07.is_dir():
        _deck(d, "ok")
        _deck(
            d,
            "water",
            lambda p: _edit(p / "ref07_potential_decay.fst", "1025   WtrDens", "water   WtrDens"),
        )
        _deck(
            d,
            "deep",
            lambda p: _edit(p / "ref07_potential_decay.fst", "320   WtrDpth", "deep   WtrDpth"),
        )
        _deck(
            d,
            "heavy",
            lambda p: _edit(
                p / "ref07_potential_decay.fst", "9.80665   Gravity", "heavy   Gravity"
            ),
        )
        _deck(d, "nan", lambda p: _edit(p / "ElastoDyn.dat", "87.6   TowerHt", "NaN   TowerHt"))
        _deck(d, "trunc", lambda p: _truncate(p / "HydroData" / "spar.1", 5))
        _deck(d, "twice", lambda p: _twice(p / "HydroData" / "spar.1"))
        _deck(d, "trunc3", lambda p: _truncate(p / "HydroData" / "spar.3", 2))
    return d


D = "{d}"
DECK = "{d}/ok/ref07_potential_decay.fst"
# (description, argv, text naming the file/field, reason, needs ref07)
ROWS = [
    ("run -o a WAMIT file of the deck", ["run", DECK, "-o", "{d}/ok/HydroData/spar.1", "--overwrite"], "--output", "is an input of this run (spar.1)", True),
    ("run -o the .hst of the deck", ["run", DECK, "-o", "{d}/ok/HydroData/spar.hst", "--overwrite"], "--output", "is an input of this run (spar.hst)", True),
    ("report study -o its own results", ["report", "study", "{d}/study", "-o", "{d}/study/results.csv", "--overwrite"], "--output", "is an input of this run (results.csv)", False),
    ("report dlc -o its dlc.json", ["report", "dlc", "{d}/dlc", "-o", "{d}/dlc/dlc.json", "--overwrite"], "--output", "is an input of this run (dlc.json)", False),
    ("deck WtrDens = water", ["check", "{d}/water/ref07_potential_decay.fst"], "field 'WtrDens'", "expected a number, got 'water'", True),
    ("deck WtrDpth = deep", ["check", "{d}/deep/ref07_potential_decay.fst"], "field 'WtrDpth'", "expected a number, got 'deep'", True),
    ("deck Gravity = heavy", ["check", "{d}/heavy/ref07_potential_decay.fst"], "field 'Gravity'", "expected a number, got 'heavy'", True),
    ("deck TowerHt = NaN", ["check", "{d}/nan/ref07_potential_decay.fst"], "ElastoDyn.dat: field 'TowerHt'", "finite number", True),
    ("truncated WAMIT .1", ["check", "{d}/trunc/ref07_potential_decay.fst"], "spar.1: field 'line", "looks truncated", True),
    ("WAMIT .1 period twice", ["check", "{d}/twice/ref07_potential_decay.fst"], "spar.1: field 'line 4285'", "given twice with different values (lines 201 and 4285)", True),
    ("truncated WAMIT .3", ["check", "{d}/trunc3/ref07_potential_decay.fst"], "spar.3: field 'line", "looks truncated", True),
    ("ss-fit of a truncated .1", ["ss-fit", "{d}/trunc/HydroData/spar", "-o", "{d}/fit.ss"], "spar.1", "looks truncated", True),
    ("YAML key twice", ["check", "{d}/dup.yaml"], "dup.yaml", "key 'simulation' is given twice", False),
    ("YAML alias bomb", ["check", "{d}/bomb.yaml"], "bomb.yaml", "expands to more than", False),
    ("YAML alias bomb in run", ["run", "{d}/bomb.yaml"], "bomb.yaml", "expands to more than", False),
    ("YAML self-reference", ["check", "{d}/self.yaml"], "self.yaml", "refers to itself", False),
    ("YAML 5000 levels", ["check", "{d}/deep.yaml"], "deep.yaml", "nested too deeply to read (more than 100 levels", False),
    ("--env misspelled top key", ["check", str(DECAY), "--env", "{d}/env_typo.yaml"], "option '--env'", "unknown key 'enviroment' (did you mean 'environment'?)", False),
]  # fmt: skip


@pytest.mark.parametrize("desc,argv,named,reason,ref", ROWS, ids=[r[0] for r in ROWS])
def test_refused(work, capsys, desc, argv, named, reason, ref):
    if ref and not REF07.is_dir():
        pytest.skip("reference deck ref07 absent")
    argv = [a.format(d=work) for a in argv]
    assert_refused(argv, work, named, reason, capsys)


def test_the_alias_bomb_is_refused_quickly_in_a_subprocess(work):
    """No hang: the whole process answers (exit 2, one line) in well under a minute of CPU time
    (CPU, not wall-clock: a loaded machine must not fail it; the hang was > 90 s of CPU)."""
    import resource

    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-m", "floatwind", "check", str(work / "bomb.yaml")],
                          capture_output=True, text=True, timeout=900)  # fmt: skip
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert proc.returncode == 2, proc.stderr
    assert (cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime) < 30.0
    assert proc.stderr.count("\n") == 1 and "expands to more than" in proc.stderr


@needs_ref07
def test_a_deck_protects_its_wamit_root(work):
    names = {p.name for p in input_files(work / "ok" / "ref07_potential_decay.fst")}
    assert {"spar.1", "spar.3", "spar.hst", "HydroDyn.dat", "SeaState.dat"} <= names


def test_a_case_protects_its_wamit_root(tmp_path):
    for ext in (".1", ".3", ".hst", ".ss"):
        (tmp_path / f"hull{ext}").write_text("x\n")
    (tmp_path / "c.yaml").write_text("loads:\n  - {type: potential_flow, wamit: hull}\n")
    names = {p.name for p in input_files(tmp_path / "c.yaml")}
    assert names == {"c.yaml", "hull.1", "hull.3", "hull.hst", "hull.ss"}


@needs_ref07
def test_wamit_reader_accepts_the_intact_files_and_a_repeated_identical_row(tmp_path):
    d = tmp_path / "w"
    shutil.copytree(REF07 / "HydroData", d)
    ref = read_wamit(d / "spar", rho=1.0, gravity=1.0)
    lines = (d / "spar.1").read_text().splitlines()
    (d / "spar.1").write_text("\n".join([*lines, lines[200]]) + "\n")  # same values again
    again = read_wamit(d / "spar", rho=1.0, gravity=1.0)
    assert (again.added_mass == ref.added_mass).all() and (again.damping == ref.damping).all()


def test_yaml_reader_keeps_what_is_valid():
    text = "a: &q {e: 1}\nb: *q\nc:\n  <<: *q\n  f: 2\nd: [1, 2]\n"
    assert load_yaml(text) == {"a": {"e": 1}, "b": {"e": 1}, "c": {"e": 1, "f": 2}, "d": [1, 2]}
    # at the limit: a document expanding to just under MAX_YAML_VALUES values is read
    n = 999
    wide = (
        "a: &a ["
        + ", ".join(["0"] * n)
        + "]\nb: ["
        + ", ".join(["*a"] * (MAX_YAML_VALUES // (n + 1) - 2))
        + "]\n"
    )
    assert len(load_yaml(wide)["b"]) == MAX_YAML_VALUES // (n + 1) - 2
    with pytest.raises(CaseError, match="given twice"):
        load_yaml("x:\n  a: 1\n  a: 1\n")  # even the same value: which one was meant?


def test_a_fifo_is_written_as_a_stream_not_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    from floatwind.io.safe import check_output

    assert check_output(fifo) == fifo  # written into, never replaced: no --overwrite needed
    atomic_write(fifo, lambda tmp: tmp.write_bytes(b"result\n"))
    reader.join(timeout=600)  # the write is done: the reader ends at once (a bound, not a pace)
    assert got == [b"result\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # still the FIFO
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]  # nothing left beside it


def test_dev_null_stays_a_device(tmp_path, capsys):
    before = os.stat(os.devnull)
    case = tmp_path / "c.yaml"
    case.write_text(DECAY.read_text().replace("t_max: 600.0", "t_max: 0.5"))
    assert (
        main(["run", str(case), "--tmax", "0.5", "--no-progress", "-o", os.devnull, "--overwrite"])
        == 0
    )
    after = os.stat(os.devnull)
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev


def test_a_dlc_refuses_simulation_t_max(tmp_path):
    import yaml

    from floatwind.dlc.spec import load_dlc

    src = ROOT / "cases" / "dlc" / "oc3_hywind_iec.yaml"
    raw = yaml.safe_load(src.read_text())
    raw["simulation"]["t_max"] = 5.0
    raw["case"] = str((src.parent / raw["case"]).resolve())
    path = tmp_path / "dlc.yaml"
    path.write_text(yaml.safe_dump(raw))
    with pytest.raises(CaseError) as err:
        load_dlc(path)
    assert err.value.field == "simulation.t_max" and err.value.file == str(path)
    assert "'analysis' + 'transient'" in err.value.reason


@pytest.mark.parametrize(
    "edit,field",
    [
        (lambda r: r["simulation"].update(dt=-1.0), "simulation.dt"),
        (lambda r: r["simulation"].update(integrator="rk5"), "simulation.integrator"),
        (lambda r: r["conditions"][0].update(hs=-3.0), "conditions[0].hs"),
    ],
    ids=["simulation.dt", "integrator", "condition hs"],
)
def test_a_studys_own_bad_setting_is_blamed_on_the_study(tmp_path, edit, field):
    import yaml

    from floatwind.studies.execute import build_batch_model
    from floatwind.studies.spec import load_study

    src = ROOT / "cases" / "studies" / "fig25_spar_family.yaml"
    raw = yaml.safe_load(src.read_text())
    for d in raw["designs"]:
        d["case"] = str((src.parent / d["case"]).resolve())
    edit(raw)
    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump(raw))
    with pytest.raises(CaseError) as err:
        s = load_study(path)
        build_batch_model(s, [s.runs()[0]])
    assert err.value.file == str(path) and err.value.field == field, str(err.value)


# ------------------------------------------------------------------ floatwind mbdm (item 5)
# The refusal of an endless run and the partial record of a failed or interrupted one (dynamic
# and kinematic, in-process and with a real SIGINT): the table of tests/test_nothing_lost_runs.py.


def test_the_case_name_cannot_steer_the_default_output(tmp_path, monkeypatch, capsys):
    import yaml

    from floatwind.io.safe import file_stem

    assert file_stem("../../etc/x") == "_.._etc_x" and file_stem("...") == "floatwind"
    data = yaml.safe_load(DECAY.read_text())
    data["name"] = "../../x"
    data["simulation"]["t_max"] = 0.5
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    (work / "c.yaml").write_text(yaml.safe_dump(data))
    monkeypatch.chdir(work)
    assert main(["run", "c.yaml", "--no-progress"]) == 2  # refused in one line naming 'name'
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "c.yaml: field 'name'" in err[0], err
    assert sorted(p.name for p in work.iterdir()) == ["c.yaml"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a"]


# ------------------------------------------------------------------ bounded work (item 4)


def test_bounded_work_on_hostile_settings(tmp_path, capsys):
    import yaml

    data = yaml.safe_load(DECAY.read_text())
    data["simulation"]["t_max"] = 2.0
    data["environment"]["wind"] = {"kind": "kaimal", "speed": 10.0, "hub_height": 90.0,
                                   "ny": 2000, "nz": 2000, "width": 150.0, "height": 150.0,
                                   "dt": 0.25}  # fmt: skip
    (tmp_path / "kaimal.yaml").write_text(yaml.safe_dump(data))
    rows = [
        (["check", str(tmp_path / "kaimal.yaml")], "field 'environment.wind'", "GB, more than this machine's"),
        (["mooring", str(ROOT / "cases" / "oc3_hywind_catenary.yaml"), "--figure", str(tmp_path / "f.txt")], "option '--figure'", "got '.txt'"),
    ]  # fmt: skip
    for argv, named, reason in rows:
        before = file_snapshot(tmp_path)
        assert main(argv) == 2, argv
        err = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("floatwind:")]
        assert len(err) == 1 and named in err[0] and reason in err[0], err
        assert file_snapshot(tmp_path) == before


def test_a_bts_with_a_negative_mean_speed_is_refused(tmp_path):
    import turbsim_io

    field = turbsim_io.generate_kaimal(uhub=12.0, zhub=90.0, ny=3, nz=3, width=20.0, height=20.0,
                                       dt=0.25, nt=64, seed=1)  # fmt: skip
    path = tmp_path / "w.bts"
    turbsim_io.write_bts(path, field)
    raw = bytearray(path.read_bytes())
    import struct

    # the header: int16 id, int32 nz, ny, ntwr, nt, float32 dz, dy, dt, uhub (byte 30)
    struct.pack_into("<f", raw, 2 + 16 + 12, -12.0)
    path.write_bytes(bytes(raw))
    with pytest.raises(turbsim_io.BtsFormatError, match=r"uhub \(mean wind speed\) = -12 m/s"):
        turbsim_io.read_bts(path)


def test_a_full_disk_during_the_netcdf_write_is_one_line_and_keeps_the_old_result(
    tmp_path, monkeypatch, capsys
):
    import xarray as xr

    case = tmp_path / "c.yaml"
    case.write_text(DECAY.read_text().replace("t_max: 600.0", "t_max: 0.5"))
    out = tmp_path / "r.nc"
    out.write_bytes(b"old result")

    import netCDF4

    def full(*a, **k):
        raise RuntimeError("NetCDF: HDF error")

    # both writers a run may take: xarray's, and netCDF4 directly (the light run path, issue 41)
    monkeypatch.setattr(xr.Dataset, "to_netcdf", full)
    monkeypatch.setattr(netCDF4, "Dataset", full)
    rc = main(["run", str(case), "--no-progress", "-o", str(out), "--overwrite"])
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("floatwind")]
    err = [ln for ln in err if "compiling kernels" not in ln]  # a cold cache's notice
    assert rc == 2 and len(err) == 1, err
    assert "cannot write" in err[0] and "NetCDF: HDF error" in err[0] and "MB free" in err[0]
    assert out.read_bytes() == b"old result"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.yaml", "r.nc"]  # no temporary left


# ------------------------------------------------------------------ studies (item 6)
# A killed or interrupted study's workers, its temporaries and its resume: the table of
# tests/test_nothing_lost_runs.py (a 2-s study on the NumPy path, no fixed sleeps).


def test_a_killed_write_leaves_no_temporary_for_the_next_run(tmp_path):
    from floatwind.io.safe import sweep_temporaries, temporary_name

    target = tmp_path / "r.nc"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()  # fmt: skip
    orphan = tmp_path / f".r.tmp-{dead}-abcdef.nc"
    orphan.write_bytes(b"half")
    mine = temporary_name(target)  # a write of this (living) process: left alone
    mine.write_bytes(b"being written")
    other = tmp_path / f".x.tmp-{dead}-abcdef.nc"
    other.write_bytes(b"half")
    atomic_write(target, lambda tmp: tmp.write_bytes(b"new"))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([mine.name, other.name, "r.nc"])
    assert sweep_temporaries(tmp_path) == [other]


REF06 = REF07.parent / "ref06_catenary_decay"


@pytest.mark.skipif(not REF06.is_dir(), reason="reference deck ref06 absent")
def test_an_unknown_map_option_is_refused(tmp_path, capsys):
    d = tmp_path / "ref06"
    shutil.copytree(REF06, d)
    _edit(d / "MAP.dat", "repeat 240 120", "repeat 240 120\ninner_ftoll 1e-6")
    before = file_snapshot(tmp_path)
    assert main(["check", str(d / "ref06_catenary_decay.fst")]) == 2
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("floatwind")]
    assert len(err) == 1, err
    assert "MAP.dat: field 'SOLVER OPTIONS line" in err[0]
    assert "unknown MAP++ solver option 'inner_ftoll' (did you mean 'inner_ftol'?)" in err[0]
    assert file_snapshot(tmp_path) == before
    _edit(d / "MAP.dat", "inner_ftoll 1e-6", "inner_ftol 1e-6")  # a known one: noted, runs
    assert main(["check", str(d / "ref06_catenary_decay.fst")]) == 0


REF10 = REF07.parent / "ref10_moordyn_decay"


@pytest.mark.skipif(not REF10.is_dir(), reason="reference deck ref10 absent")
def test_moordyn_files_load_quietly_and_refuse_an_unknown_option(tmp_path, capsys, caplog):
    import logging

    d = tmp_path / "ref10"
    shutil.copytree(REF10, d)
    with caplog.at_level(logging.WARNING):
        assert main(["check", str(d / "ref10_moordyn_decay.fst")]) == 0
    assert not [r for r in caplog.records if "repeated" in r.getMessage()]  # table rows
    capsys.readouterr()
    _edit(d / "MoorDyn.dat", "3.0e6    kbot", "3.0e6    kbott")
    before = file_snapshot(tmp_path)
    assert main(["check", str(d / "ref10_moordyn_decay.fst")]) == 2
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("floatwind")]
    assert len(err) == 1 and "MoorDyn.dat: field 'OPTIONS line" in err[0], err
    assert "unknown MoorDyn option 'kbott' (did you mean 'kbot'?)" in err[0]
    assert file_snapshot(tmp_path) == before


# ------------------------------------------------------------------ part 2 leftovers (issue 42)
# Tried as a user: these ran, or named the wrong thing, before (a garbled number read as a
# default, a MoorDyn row with a word vanishing as a "header", a word option skipped, an
# unquoted file name unprotected, `floatwind bem` replacing WAMIT files without --overwrite).

REF09 = REF07.parent / "ref09_aero_fixed_speed"


def _moordyn(work: pathlib.Path, name: str, old: str, new: str) -> None:
    d = work / name
    shutil.copytree(REF10, d)
    _edit(d / "MoorDyn.dat", old, new)


@pytest.fixture(scope="module")
def work2(tmp_path_factory) -> pathlib.Path:
    d = tmp_path_factory.mktemp("inputs2")
    fst = "ref07_potential_decay.fst"
    if REF07.is_dir():
        _deck(d, "o25", lambda p: _edit(p / fst, "1025   WtrDens", "1o25   WtrDens"))
        _deck(d, "dots", lambda p: _edit(p / fst, "320   WtrDpth", "3.2.0   WtrDpth"))
        _deck(d, "unit", lambda p: _edit(p / "ElastoDyn.dat", "87.6   TowerHt", "87.6m   TowerHt"))
        _deck(d, "tmax", lambda p: _edit(p / fst, "200   TMax", "inf   TMax"))
        _deck(
            d,
            "per",
            lambda p: _edit(
                p / "HydroData" / "spar.1",
                "3.141593e+02",
                "-5.0",
            ),
        )
        _deck(d, "bare", lambda p: _edit(p / "HydroDyn.dat", '"HydroData/spar"', "HydroData/spar"))
    if REF10.is_dir():
        _moordyn(d, "md_type", "main     0.09 ", "main     thick ")
        _moordyn(d, "md_len", "902.2      20 ", "long      20 ")
        _moordyn(d, "md_kbot", "3.0e6    kbot", "stiff    kbot")
        _moordyn(d, "md_kin", "3.0e6    kbot", "3.0e6    kbot\nwaves.txt   WaterKin")
    study = d / "study"
    shutil.copytree(ROOT / "tests" / "data" / "studies", study)
    ct = str(ROOT / "cases" / "data" / "ct_curve_fig14.csv")
    case = study / "spar1.yaml"
    case.write_text(case.read_text().replace("../../../cases/data/ct_curve_fig14.csv", ct))
    text = (study / "small_study.yaml").read_text()
    (study / "no_channels.yaml").write_text(text.replace("channels: [PtfmSurge, PtfmHeave, "
                                                         "PtfmPitch, RtAeroFxh, RtAeroPwr, "
                                                         "FAIRTEN1]", "channels: []"))  # fmt: skip
    (study / "two_lengths.yaml").write_text(
        text.replace("simulation: {dt: 0.2,", "simulation: {t_max: 5.0, dt: 0.2,")
    )
    bem = d / "bem"
    (bem / "out").mkdir(parents=True)
    (bem / "out" / "oc3_hywind.1").write_text("the WAMIT data of an earlier run\n")
    shutil.copy(ROOT / "cases" / "oc3_hywind.yaml", bem / "oc3_hywind.yaml")
    return d


def _has(*dirs):
    return all(x.is_dir() for x in dirs)


S = "{d}/study"
# (description, argv, text naming the file/field, reason, reference decks needed)
ROWS2 = [
    ("deck 1o25 WtrDens", ["check", "{d}/o25/ref07_potential_decay.fst"], "field 'WtrDens'", "expected a number, got '1o25'", (REF07,)),
    ("deck 3.2.0 WtrDpth", ["check", "{d}/dots/ref07_potential_decay.fst"], "field 'WtrDpth'", "expected a number, got '3.2.0'", (REF07,)),
    ("deck 87.6m TowerHt", ["check", "{d}/unit/ref07_potential_decay.fst"], "ElastoDyn.dat: field 'TowerHt'", "expected a number, got '87.6m'", (REF07,)),
    ("deck TMax = inf", ["check", "{d}/tmax/ref07_potential_decay.fst"], "ref07_potential_decay.fst: field 'TMax'", "finite number", (REF07,)),
    ("WAMIT .1 PER = -5", ["check", "{d}/per/ref07_potential_decay.fst"], "spar.1: field 'line", "PER = -5", (REF07,)),
    ("run -o a WAMIT file named unquoted", ["run", "{d}/bare/ref07_potential_decay.fst", "-o", "{d}/bare/HydroData/spar.3", "--overwrite"], "--output", "is an input of this run (spar.3)", (REF07,)),
    ("MoorDyn line type with a word", ["check", "{d}/md_type/ref10_moordyn_decay.fst"], "MoorDyn.dat: field 'LINE TYPES line 7 (Diam)'", "expected a number, got 'thick'", (REF10,)),
    ("MoorDyn first line with a word", ["check", "{d}/md_len/ref10_moordyn_decay.fst"], "MoorDyn.dat: field 'LINES line 20 (UnstrLen)'", "expected a number, got 'long'", (REF10,)),
    ("MoorDyn option with a word", ["check", "{d}/md_kbot/ref10_moordyn_decay.fst"], "MoorDyn.dat: field 'OPTIONS line 25 (kbot)'", "expected a number, got 'stiff'", (REF10,)),
    ("MoorDyn WaterKin file", ["check", "{d}/md_kin/ref10_moordyn_decay.fst"], "MoorDyn.dat: field 'OPTIONS line 26 (WaterKin)'", "are not built", (REF10,)),
    ("study channels: []", ["study", S + "/no_channels.yaml", "-o", "{d}/out", "--list"], "no_channels.yaml: field 'channels'", "at least one channel", ()),
    ("study duration and t_max", ["study", S + "/two_lengths.yaml", "-o", "{d}/out", "--list"], "two_lengths.yaml: field 'simulation.t_max'", "not both", ()),
    ("dlc --report onto a table it writes", ["dlc", str(ROOT / "cases" / "dlc" / "oc3_hywind_iec.yaml"), "-o", "{d}/iec", "--report", "{d}/iec/runs.csv"], "'--report'", "is a table this DLC set writes", ()),
    ("bem onto earlier WAMIT files", ["bem", "{d}/bem/oc3_hywind.yaml", "-o", "{d}/bem/out", "--frequencies", "1", "--panels", "100"], "--output", "oc3_hywind.1 exists; add --overwrite", ()),
]  # fmt: skip


@pytest.mark.parametrize("desc,argv,named,reason,needs", ROWS2, ids=[r[0] for r in ROWS2])
def test_refused_part2(work2, capsys, desc, argv, named, reason, needs):
    if not _has(*needs):
        pytest.skip("reference deck absent")
    argv = [a.format(d=work2) for a in argv]
    assert_refused(argv, work2, named, reason, capsys)


@pytest.mark.skipif(not REF09.is_dir(), reason="reference deck ref09 absent")
def test_names_after_an_apostrophe_and_unquoted_names_are_inputs(tmp_path):
    """A comment's apostrophe (``Buhl's``) must not hide the quoted names after it (the airfoil
    files' coordinate files), and an unquoted name (``HydroDyn.dat  HydroFile``) is an input."""
    d = tmp_path / "ref09"
    shutil.copytree(REF09, d)
    _edit(d / "ref09_aero_fixed_speed.fst", '"HydroDyn.dat"', "HydroDyn.dat")
    names = {p.relative_to(d).as_posix() for p in input_files(d / "ref09_aero_fixed_speed.fst")}
    assert {"Airfoils/DU21_A17_coords.txt", "HydroDyn.dat", "NullWAMIT/null.1"} <= names


def test_a_case_protects_what_its_named_files_name(tmp_path):
    """A controller's input file names its own files (ROSCO's PerfFileName): inputs of the run."""
    (tmp_path / "ctrl").mkdir()
    (tmp_path / "ctrl" / "DISCON.IN").write_text(
        "! Buhl's controller\n\"Cp_Ct_Cq.txt\"   ! PerfFileName - it's the rotor table\n"
        "tables.dat   ! an unquoted name\n1.0   ! a number\n"
    )
    (tmp_path / "ctrl" / "Cp_Ct_Cq.txt").write_text("1 2 3\n")
    (tmp_path / "ctrl" / "tables.dat").write_text("4 5 6\n")
    (tmp_path / "c.yaml").write_text(
        "loads:\n  - {type: servodyn, controller: {kind: dll, input: ctrl/DISCON.IN}}\n"
    )
    names = {p.name for p in input_files(tmp_path / "c.yaml")}
    assert names == {"c.yaml", "DISCON.IN", "Cp_Ct_Cq.txt", "tables.dat"}


def test_bem_refuses_to_replace_the_wamit_files_its_case_reads(tmp_path, capsys):
    """``floatwind bem -o DIR --overwrite`` onto the WAMIT root the case itself names: refused
    before anything is computed; a new folder and --overwrite of plain earlier results are fine
    (checked before the solve, so no Capytaine is needed here)."""
    import yaml

    data = yaml.safe_load((ROOT / "cases" / "oc3_hywind.yaml").read_text())
    data["loads"].append(
        {"type": "potential_radiation", "body": "platform", "wamit": "out/oc3_hywind"}
    )
    (tmp_path / "out").mkdir()
    for ext in (".1", ".3", ".hst"):
        (tmp_path / "out" / f"oc3_hywind{ext}").write_text("the hull's WAMIT data\n")
    (tmp_path / "oc3_hywind.yaml").write_text(yaml.safe_dump(data))
    argv = ["bem", str(tmp_path / "oc3_hywind.yaml"), "-o", str(tmp_path / "out"), "--overwrite",
            "--frequencies", "1", "--panels", "100"]  # fmt: skip
    assert_refused(argv, tmp_path, "--output", "is an input of this run (oc3_hywind.1)", capsys)


def test_moordyn_v1_and_map_files_read_without_spurious_repeated_keys(caplog):
    """A v1 MoorDyn file (header ``Flags/Outputs``, rows ``1 main 902.2 ...``) and a MAP++ file
    (its line 2 is the column names, a line's flags after its columns, a line type's name
    first): every row is a table row, never a ``value KEY`` setting "repeated"."""
    import logging

    from floatwind.case.openfast.reader import read_openfast_input

    files = [ROOT / "tests" / "data" / "mooring" / "oc3_moordyn_v1.dat"]
    if REF06.is_dir():
        files.append(REF06 / "MAP.dat")
    with caplog.at_level(logging.WARNING):
        got = {f.name: read_openfast_input(f) for f in files}
    assert not [r.getMessage() for r in caplog.records if "repeated" in r.getMessage()]
    v1 = got["oc3_moordyn_v1.dat"]["tables"]
    assert [
        len(v1[k]["rows"]) for k in ("LINE TYPES", "CONNECTION PROPERTIES", "LINE PROPERTIES")
    ] == [1, 6, 3]
    if REF06.is_dir():
        m = got["MAP.dat"]["tables"]
        assert [
            len(m[k]["rows"]) for k in ("LINE DICTIONARY", "NODE PROPERTIES", "LINE PROPERTIES")
        ] == [1, 2, 1]


def test_validation_report_never_writes_into_the_data_it_reads(tmp_path, monkeypatch, capsys):
    """`report validation -o` inside the reference folders it reads is refused before anything
    runs, and what is there stays byte-identical (issue 42, item 1)."""
    from floatwind.cli import main

    refs = tmp_path / "reference" / "openfast"
    deck = refs / "ref01_demo"
    deck.mkdir(parents=True)
    (deck / "ref01.out").write_text("Time\n(s)\n0.0\n")
    monkeypatch.setenv("FLOATWIND_OPENFAST_REFERENCES", str(refs))
    before = (deck / "ref01.out").read_bytes()
    # the registry lists the references it finds when it is imported: import it afresh under the
    # patched folder and put the process's own registry back afterwards, so a later test in this
    # worker does not see a registry of this one-deck folder
    with _fresh_validation_registry():
        for out in (deck / "report.html", refs / "report.html", deck / "ref01.out"):
            rc = main(["report", "validation", "-o", str(out), "--overwrite", "--quick",
                       "--only", "no-such-validation"])  # fmt: skip
            err = capsys.readouterr().err.strip().splitlines()
            assert rc == 2, err
            assert len(err) == 1 and "--output" in err[0] and "report reads" in err[0], err
            assert (deck / "ref01.out").read_bytes() == before
            assert not (deck / "report.html").exists() and not (refs / "report.html").exists()


@contextlib.contextmanager
def _fresh_validation_registry():
    """`validation.registry` imported afresh inside the block; the module (and the package's
    attribute) as they were before are restored on the way out."""
    import validation

    missing = object()
    saved_mod = sys.modules.pop("validation.registry", missing)
    saved_attr = validation.__dict__.pop("registry", missing)
    try:
        yield
    finally:
        sys.modules.pop("validation.registry", None)
        validation.__dict__.pop("registry", None)
        if saved_mod is not missing:
            sys.modules["validation.registry"] = saved_mod
        if saved_attr is not missing:
            validation.registry = saved_attr


@pytest.mark.parametrize("dt", ["1e-12", "1e-300"])
def test_a_run_of_endless_steps_is_refused_before_it_starts(tmp_path, capsys, dt):
    """`run --dt 1e-12` used to warn and then step 1e12 times: more than MAX_STEPS fixed steps is
    refused before anything runs, naming simulation.dt; nothing is written (issue 42 item 4)."""
    case = tmp_path / "case.yaml"
    shutil.copy(ROOT / "cases" / "oc3_platform_decay.yaml", case)
    out = tmp_path / "out.nc"
    argv = ["run", str(case), "--dt", dt, "--tmax", "1", "-o", str(out)]
    assert_refused(argv, tmp_path, "simulation.dt", "more than 1e+09", capsys)
    assert not out.exists()
