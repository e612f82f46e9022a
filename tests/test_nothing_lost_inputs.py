"""Issue 42, items 1 and 4: every file a command reads is an input, and hostile input is bounded.

Item 1: ``-o`` naming any file a command reads (directly, through a symbolic link or a hard link)
is refused in one line with exit 2, even with ``--overwrite``: the WAMIT files of a deck, its
ElastoDyn/HydroDyn files, an ``--env`` file and the sea record and TurbSim field it names, airfoil
and blade files, an MBDM file's mooring file, the folder a ``report`` reads. The list is the
command's own record of the files it opened (``floatwind.io.safe.recording_reads``) with the
files its inputs name (``input_files``: also those a controller library reads later). A device
or FIFO is written into as a stream.

Item 4: alias bombs, 5,000 levels of nesting, a 2,000 x 2,000 Kaimal grid, ``channels: []``, an
unsupported figure suffix, a ``.bts`` with a negative mean speed, a non-UTF-8 ``--env`` file, a
case ``name`` that would steer the default output elsewhere, a full disk during the write: each
exit 2, one line naming the file and field.

Each row: the argv, the exit code, the first (and only) line of stderr, and every file of the
work folder (inputs and earlier results) byte-identical afterwards. No row simulates: each is
refused before stepping; the two tests that write (a FIFO, a full disk) replace the simulation
by a small Dataset, so the file costs no numba compile."""

from __future__ import annotations

import errno
import os
import pathlib
import shutil
import stat
import struct
import threading

import numpy as np
import pytest
import yaml
from conftest import file_snapshot

from floatwind.cli import main
from floatwind.errors import CaseError
from floatwind.io import safe

ROOT = pathlib.Path(__file__).resolve().parents[1]
REF07 = ROOT.parent / "shared" / "reference" / "openfast" / "ref07_potential_decay"
DECAY = ROOT / "cases" / "oc3_platform_decay.yaml"
BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 10) + "]\n"
    for i in range(9)
)  # 10^10 values once expanded


def _bts(path: pathlib.Path, uhub: float = 12.0) -> None:
    import turbsim_io

    field = turbsim_io.generate_kaimal(uhub=12.0, zhub=90.0, ny=3, nz=3, width=20.0, height=20.0,
                                       dt=0.25, nt=64, seed=1)  # fmt: skip
    turbsim_io.write_bts(path, field)
    if uhub != 12.0:  # the header: int16 id, int32 nz, ny, ntwr, nt, float32 dz, dy, dt, uhub
        raw = bytearray(path.read_bytes())
        struct.pack_into("<f", raw, 2 + 16 + 12, uhub)
        path.write_bytes(bytes(raw))


def _yaml(path: pathlib.Path, data) -> None:
    path.write_text(yaml.safe_dump(data, sort_keys=False))


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> pathlib.Path:
    d = tmp_path_factory.mktemp("nothing_lost")
    case = yaml.safe_load(DECAY.read_text())
    _yaml(d / "c.yaml", case)
    os.link(d / "c.yaml", d / "c_hard.yaml")
    # an --env file beside its sea record and wind field (names relative to the env file)
    t = np.arange(0.0, 700.0, 0.5)
    np.savetxt(d / "sea.txt", np.c_[t, 0.5 * np.sin(0.6 * t)])
    (d / "env_sea.yaml").write_text("environment:\n  waves: {kind: elevation, file: sea.txt}\n")
    _bts(d / "w.bts")
    (d / "env_wind.yaml").write_text("environment:\n  wind: {kind: turbsim, file: w.bts}\n")
    os.symlink(d / "w.bts", d / "w_link.bts")
    _bts(d / "neg.bts", uhub=-12.0)
    (d / "env_neg.yaml").write_text("environment:\n  wind: {kind: turbsim, file: neg.bts}\n")
    (d / "env_latin1.yaml").write_bytes(b"environment:\n  waves: {kind: still}  # caf\xe9\n")
    (d / "bomb.yaml").write_text(BOMB)
    (d / "deep.yaml").write_text("[" * 5000 + "]" * 5000 + "\n")
    # hostile settings of a case, a study and a DLC set
    kaimal = yaml.safe_load(DECAY.read_text())
    kaimal["environment"]["wind"] = {"kind": "kaimal", "speed": 10.0, "hub_height": 90.0,
                                     "ny": 2000, "nz": 2000, "width": 150.0, "height": 150.0,
                                     "dt": 0.25}  # fmt: skip
    _yaml(d / "kaimal.yaml", kaimal)
    named = yaml.safe_load(DECAY.read_text())
    named["name"] = "../../etc/x"
    _yaml(d / "named.yaml", named)
    study = yaml.safe_load((ROOT / "cases" / "studies" / "fig25_spar_family.yaml").read_text())
    for x in study["designs"]:
        x["case"] = str((ROOT / "cases" / "studies" / x["case"]).resolve())
    _yaml(d / "study_named.yaml", {**study, "name": "../../study"})
    study["channels"] = []
    _yaml(d / "study_empty.yaml", study)
    dlc = yaml.safe_load((ROOT / "cases" / "dlc" / "oc3_hywind_iec.yaml").read_text())
    dlc["case"] = str((ROOT / "cases" / "dlc" / dlc["case"]).resolve())
    _yaml(d / "dlc_named.yaml", {**dlc, "name": "/tmp/dlc"})
    dlc["channels"] = []
    _yaml(d / "dlc_empty.yaml", dlc)
    # the folders a report reads
    (d / "study" / "batches").mkdir(parents=True)
    (d / "study" / "results.csv").write_text("run,x\n0,1\n")
    (d / "study" / "runs.csv").write_text("run\n0\n")
    os.link(d / "study" / "results.csv", d / "results_link.csv")
    (d / "dlc" / "batches").mkdir(parents=True)
    (d / "dlc" / "dlc.json").write_text("{}\n")
    (d / "dlc" / "batches" / "b0.nc").write_bytes(b"CDF\x01 batch")
    # an MBDM file and its mooring file; one named to steer the default output
    shutil.copytree(ROOT / "cases" / "mbdm" / "body_on_spring", d / "mbdm")
    mb = (d / "mbdm" / "mbdm").read_text()
    (d / "mbdm" / "mbdm_named").write_text(mb.replace("Name: TestCase_1", "Name: ../x", 1))
    shutil.copyfile(d / "mbdm" / "mbdm.expert.mooring", d / "mbdm" / "mbdm_named.expert.mooring")
    # a BEM rotor case with its blade and airfoil files
    (d / "bem").mkdir()
    shutil.copytree(ROOT / "cases" / "data", d / "bem" / "data")
    shutil.copyfile(ROOT / "cases" / "oc3_hywind_bem.yaml", d / "bem" / "bem.yaml")
    os.link(d / "bem" / "data" / "nrel5mw_aerodyn" / "AeroDyn_blade.dat", d / "blade_hard.dat")
    if REF07.is_dir():
        shutil.copytree(REF07, d / "deck", ignore=shutil.ignore_patterns("*.out", "*.outb",
                                                                          "*.sum", "*.md"))  # fmt: skip
        for p in [d / "deck", *(d / "deck").rglob("*")]:
            p.chmod(p.stat().st_mode | stat.S_IWUSR)
        os.link(d / "deck" / "HydroData" / "spar.1", d / "spar_hard.1")
        os.symlink(d / "deck" / "HydroData" / "spar.3", d / "spar_link.3")
        os.link(d / "deck" / "HydroDyn.dat", d / "hd_hard.dat")
        os.link(d / "deck" / "HydroData" / "spar.1", d / "fit_hard.ss")
    return d


DECK = "{d}/deck/ref07_potential_decay.fst"
OUT = "option '--output'"
INPUT = "is an input of this run"
# (description, argv, exit code, text naming the file/field, reason, needs the ref07 deck)
ROWS = [
    # item 1: every file a command reads is an input, even with --overwrite
    ("deck WAMIT .1 by a hard link", ["run", DECK, "-o", "{d}/spar_hard.1", "--overwrite"], 2, OUT, f"{INPUT} (spar.1)", True),
    ("deck WAMIT .3 by a symbolic link", ["run", DECK, "-o", "{d}/spar_link.3", "--overwrite"], 2, OUT, f"{INPUT} (spar.3)", True),
    ("deck ElastoDyn tower file", ["run", DECK, "-o", "{d}/deck/ElastoDyn_Tower.dat", "--overwrite"], 2, OUT, f"{INPUT} (ElastoDyn_Tower.dat)", True),
    ("deck SeaState file", ["run", DECK, "-o", "{d}/deck/SeaState.dat", "--format", "out", "--overwrite"], 2, OUT, f"{INPUT} (SeaState.dat)", True),
    ("import-openfast onto HydroDyn by a hard link", ["import-openfast", DECK, "-o", "{d}/hd_hard.dat", "--overwrite"], 2, OUT, f"{INPUT} (HydroDyn.dat)", True),
    ("ss-fit onto its WAMIT .1 by a hard link", ["ss-fit", "{d}/deck/HydroData/spar", "-o", "{d}/fit_hard.ss", "--overwrite"], 2, OUT, f"{INPUT} (spar.1)", True),
    ("the case by a hard link", ["run", "{d}/c.yaml", "-o", "{d}/c_hard.yaml", "--overwrite"], 2, OUT, f"{INPUT} (c.yaml)", False),
    ("the --env file", ["run", "{d}/c.yaml", "--env", "{d}/env_sea.yaml", "-o", "{d}/env_sea.yaml", "--overwrite"], 2, OUT, f"{INPUT} (env_sea.yaml)", False),
    ("the recorded sea of the --env file", ["run", "{d}/c.yaml", "--env", "{d}/env_sea.yaml", "-o", "{d}/sea.txt", "--overwrite"], 2, OUT, f"{INPUT} (sea.txt)", False),
    ("the TurbSim file of the --env file", ["run", "{d}/c.yaml", "--env", "{d}/env_wind.yaml", "-o", "{d}/w.bts", "--overwrite"], 2, OUT, f"{INPUT} (w.bts)", False),
    ("the TurbSim file by a symbolic link", ["run", "{d}/c.yaml", "--env", "{d}/env_wind.yaml", "-o", "{d}/w_link.bts", "--overwrite"], 2, OUT, f"{INPUT} (w.bts)", False),
    ("an airfoil file", ["run", "{d}/bem/bem.yaml", "-o", "{d}/bem/data/nrel5mw_aerodyn/Airfoils/DU40_A17.dat", "--overwrite"], 2, OUT, f"{INPUT} (DU40_A17.dat)", False),
    ("the blade file by a hard link", ["run", "{d}/bem/bem.yaml", "-o", "{d}/blade_hard.dat", "--overwrite"], 2, OUT, f"{INPUT} (AeroDyn_blade.dat)", False),
    ("mbdm onto its mooring file", ["mbdm", "{d}/mbdm/mbdm", "-o", "{d}/mbdm/mbdm.expert.mooring", "--overwrite"], 2, OUT, f"{INPUT} (mbdm.expert.mooring)", False),
    ("report study by a hard link to its results", ["report", "study", "{d}/study", "-o", "{d}/results_link.csv", "--overwrite"], 2, OUT, f"{INPUT} (results.csv)", False),
    ("report study onto its runs table", ["report", "study", "{d}/study", "-o", "{d}/study/runs.csv", "--overwrite"], 2, OUT, f"{INPUT} (runs.csv)", False),
    ("report dlc onto a batch it reads", ["report", "dlc", "{d}/dlc", "-o", "{d}/dlc/batches/b0.nc", "--overwrite"], 2, OUT, f"{INPUT} (b0.nc)", False),
    # item 4: bounded work on hostile input
    ("alias bomb in a study", ["study", "{d}/bomb.yaml", "-o", "{d}/s_bomb"], 2, "bomb.yaml", "expands to more than 1,000,000 values", False),
    ("alias bomb in a DLC set", ["dlc", "{d}/bomb.yaml", "--list"], 2, "bomb.yaml", "expands to more than 1,000,000 values", False),
    ("alias bomb as --env", ["check", "{d}/c.yaml", "--env", "{d}/bomb.yaml"], 2, "bomb.yaml: option '--env'", "expands to more than 1,000,000 values", False),
    ("5,000 levels in a study", ["study", "{d}/deep.yaml", "-o", "{d}/s_deep"], 2, "deep.yaml", "nested too deeply to read", False),
    ("5,000 levels as --env of run", ["run", "{d}/c.yaml", "--env", "{d}/deep.yaml"], 2, "deep.yaml: option '--env'", "nested too deeply to read", False),
    ("2,000 x 2,000 Kaimal grid in run", ["run", "{d}/kaimal.yaml", "-o", "{d}/k.nc"], 2, "kaimal.yaml: field 'simulation.t_max'", "GB of memory (wind field", False),
    ("study channels: []", ["study", "{d}/study_empty.yaml", "-o", "{d}/s_empty"], 2, "study_empty.yaml: field 'channels'", "at least one channel", False),
    ("DLC channels: []", ["dlc", "{d}/dlc_empty.yaml", "--list"], 2, "dlc_empty.yaml: field 'channels'", "non-empty list of channel names", False),
    ("mooring --figure f.txt", ["mooring", str(ROOT / "cases" / "oc3_hywind_catenary.yaml"), "--figure", "{d}/f.txt"], 2, "option '--figure'", "got '.txt'", False),
    ("a .bts with a negative mean speed", ["check", "{d}/c.yaml", "--env", "{d}/env_neg.yaml"], 2, "env_neg.yaml: field 'environment.wind.file'", "neg.bts: header uhub (mean wind speed) = -12 m/s", False),
    ("a non-UTF-8 --env file", ["check", "{d}/c.yaml", "--env", "{d}/env_latin1.yaml"], 2, "env_latin1.yaml: option '--env'", "not UTF-8 text: byte 0xe9 at line 2", False),
    ("case name ../../etc/x", ["run", "{d}/named.yaml", "--no-progress"], 2, "named.yaml: field 'name'", "'../../etc/x' would put the default output outside", False),
    ("study name ../../study", ["study", "{d}/study_named.yaml"], 2, "study_named.yaml: field 'name'", "'../../study' would put the default output outside", False),
    ("DLC name /tmp/dlc", ["dlc", "{d}/dlc_named.yaml"], 2, "dlc_named.yaml: field 'name'", "'/tmp/dlc' would put the default output outside", False),
    ("mbdm Name ../x", ["mbdm", "{d}/mbdm/mbdm_named"], 2, "mbdm_named: field 'name'", "'../x' would put the default output outside", False),
]  # fmt: skip


def _one_line(argv, code, named, reason, folder, capsys):
    before = file_snapshot(folder)
    listing = sorted(p.name for p in folder.iterdir())
    rc = main(argv)
    # the first run's compile notice depends on numba's cache (cold in CI), not on the input
    err = [ln for ln in capsys.readouterr().err.splitlines()
           if ln.strip() and not ln.startswith("floatwind: compiling kernels")]  # fmt: skip
    assert rc == code, (argv, err)
    assert len(err) == 1, err  # one line, no traceback, no warning before it
    assert err[0].startswith("floatwind: error: ") and named in err[0] and reason in err[0], err
    assert file_snapshot(folder) == before, "a file changed"
    assert sorted(p.name for p in folder.iterdir()) == listing, "a file was left behind"


@pytest.mark.parametrize("desc,argv,code,named,reason,ref", ROWS, ids=[r[0] for r in ROWS])
def test_refused(work, capsys, monkeypatch, desc, argv, code, named, reason, ref):
    if ref and not REF07.is_dir():
        pytest.skip("reference deck ref07 absent")
    monkeypatch.chdir(work)
    _one_line([a.format(d=work) for a in argv], code, named, reason, work, capsys)


# ------------------------------------------------ the list of inputs: named and read (item 1)


def test_a_deck_names_its_controller_wind_and_mooring_files(tmp_path):
    """The files a deck names, followed through them: ServoDyn's controller library and its
    input file and the Cp-Ct-Cq table that names, InflowWind's TurbSim field and Bladed-style
    root (``.wnd`` with its ``.sum``), MoorDyn's file, ElastoDyn's blade and tower files,
    AeroDyn's airfoils: all inputs, refused as an output even with ``overwrite``."""
    files = {
        "deck.fst": '"ElastoDyn.dat"  EDFile\n"InflowWind.dat"  InflowFile\n'
                    '"ServoDyn.dat"  ServoFile\n"MoorDyn.dat"  MooringFile\n'
                    '"AeroDyn.dat"  AeroFile\n',
        "ElastoDyn.dat": '"blade.dat"  BldFile(1)\n"tower.dat"  TwrFile\n',
        "InflowWind.dat": '"wind/turb.bts"  FileName_BTS\n"wind/bladed"  FileNameRoot\n',
        "ServoDyn.dat": '"ctrl/libdiscon.so"  DLL_FileName\n"ctrl/DISCON.IN"  DLL_InFile\n',
        "ctrl/DISCON.IN": '"Cp_Ct_Cq.txt"  ! PerfFileName\n',
        "AeroDyn.dat": '"af/DU40.dat"\n',
        "blade.dat": "x\n", "tower.dat": "x\n", "MoorDyn.dat": "x\n", "af/DU40.dat": "x\n",
        "ctrl/Cp_Ct_Cq.txt": "1 2 3\n", "ctrl/libdiscon.so": "\0ELF\n",
        "wind/turb.bts": "\0", "wind/bladed.wnd": "\0", "wind/bladed.sum": "summary\n",
    }  # fmt: skip
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    got = {p.relative_to(tmp_path).as_posix() for p in safe.input_files(tmp_path / "deck.fst")}
    assert got == set(files)
    inputs = safe.input_files(tmp_path / "deck.fst")
    for name in files:
        with pytest.raises(CaseError, match="is an input of this run"):
            safe.check_output(tmp_path / name, inputs=inputs, overwrite=True)
    os.link(tmp_path / "ctrl" / "Cp_Ct_Cq.txt", tmp_path / "table_hard.txt")
    with pytest.raises(CaseError, match=r"is an input of this run \(Cp_Ct_Cq.txt\)"):
        safe.check_output(tmp_path / "table_hard.txt", inputs=inputs, overwrite=True)


def test_the_record_of_files_read(tmp_path):
    """What a command opened for reading is recorded (open, numpy's reader, os.open), not what
    it wrote; nothing is recorded outside a command; the record refuses an output."""
    a, b, c = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "c.txt"
    np.savetxt(a, [1.0, 2.0])
    b.write_text("b\n")
    assert safe.files_read() == []
    with safe.recording_reads():
        np.loadtxt(a)
        os.close(os.open(b, os.O_RDONLY))
        c.write_text("written\n")
        with safe.recording_reads():  # a block inside adds to the outer record
            b.read_text()
        assert safe.files_read() == [a.resolve(), b.resolve()]
        with pytest.raises(CaseError, match=r"is an input of this run \(a.txt\)"):
            safe.check_output(a, overwrite=True)
        assert safe.check_output(c, overwrite=True) == c  # written, not read
        assert safe.check_output(tmp_path, folder=True) == tmp_path  # a folder: only inputs
    assert safe.files_read() == []


def test_default_output_names():
    assert safe.default_output("OC3 Hywind", "nc") == pathlib.Path("OC3_Hywind.nc")
    assert safe.default_output("spar_1.2", "outb") == pathlib.Path("spar_1.2.outb")
    assert safe.default_output("fig25 family", None) == pathlib.Path("fig25 family")  # a folder
    for bad in ("../../etc/x", "..", ".hidden", "a/b", "a\\b", ""):
        with pytest.raises(CaseError) as err:
            safe.default_output(bad, "nc", file="c.yaml")
        assert err.value.field == "name" and err.value.file == "c.yaml"


# ------------------------------------------------ writing: a stream, a full disk (items 1, 4)


def _fake_run(monkeypatch):
    """``floatwind run`` without stepping: simulate returns a small result (the write path and
    everything around it are the real ones)."""
    import xarray as xr

    import floatwind.simulate as sim

    t = np.linspace(0.0, 0.5, 6)
    names = ("PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmRoll", "PtfmPitch", "PtfmYaw")
    units = ("m", "m", "m", "rad", "rad", "rad")
    ds = xr.Dataset({n: ("time", np.cos(t) * (i + 1), {"units": u})
                     for i, (n, u) in enumerate(zip(names, units, strict=True))},
                    coords={"time": t})  # fmt: skip
    monkeypatch.setattr(sim, "simulate", lambda *a, **k: ds)


def test_a_fifo_given_with_overwrite_is_written_as_a_stream(work, tmp_path, monkeypatch, capsys):
    _fake_run(monkeypatch)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    rc = main(["run", str(work / "c.yaml"), "--no-progress", "-o", str(fifo), "--overwrite"])
    reader.join(timeout=60)
    assert rc == 0, capsys.readouterr().err
    assert got and got[0][:4] == b"\x89HDF"  # the netCDF4 (HDF5) result came through the pipe
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # still the FIFO, not a regular file
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_a_full_disk_keeps_the_earlier_result_and_leaves_no_temporary(tmp_path, monkeypatch,
                                                                     capsys):  # fmt: skip
    import xarray as xr

    import floatwind.io.netcdf as nc

    _fake_run(monkeypatch)
    shutil.copyfile(DECAY, tmp_path / "c.yaml")
    out = tmp_path / "r.nc"
    out.write_bytes(b"earlier result")

    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(xr.Dataset, "to_netcdf", full)
    monkeypatch.setattr(nc, "_write_result", full)
    argv = ["run", str(tmp_path / "c.yaml"), "--no-progress", "-o", str(out), "--overwrite"]
    _one_line(argv, 2, "cannot write r.nc", "No space left on device", tmp_path, capsys)
    assert out.read_bytes() == b"earlier result"
