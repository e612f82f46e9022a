"""Nothing lost, nothing silently wrong, part 2 (issue 42 items 2, 3 and 6's MoorDyn part):
corrupt data refused and nothing ignored silently.

* a WAMIT ``.1``/``.3``/``.hst``/``.8`` cut while written (its last number or column cut off),
  zero-/infinite-frequency rows lacking entries the periods give;
* a word, a misplaced ``DEFAULT`` or NaN where an OpenFAST deck needs a number, in any key of
  any deck file (also keys floatwind does not use: OpenFAST itself would stop);
* a study's or DLC's own bad ``simulation`` settings, named in the study/DLC file before a
  folder is made; duplicate YAML keys in every YAML file floatwind reads (case, study, DLC,
  ``--env``, the validation criteria);
* MoorDyn options and sections floatwind does not build refused; every valid MoorDyn file
  (MoorDyn-F's other headers and option spellings) read without spurious "key repeated".

Each row of the tables: the command, exit 2, the first ``floatwind: error:`` line naming the
file and field and the reason, and every file of the work folder byte-identical afterwards.
Everything here is refused while reading: no model is stepped, nothing is compiled.
"""

from __future__ import annotations

import logging
import pathlib
import re
import shutil

import pytest
import yaml
from conftest import assert_refused, file_snapshot

from floatwind.cli import main

ROOT = pathlib.Path(__file__).resolve().parents[1]
REFS = ROOT.parent / "shared" / "reference" / "openfast"
REF06, REF07, REF09, REF10, REF12 = (
    REFS / n for n in ("ref06_catenary_decay", "ref07_potential_decay", "ref09_aero_fixed_speed",
                       "ref10_moordyn_decay", "ref12_mean_drift_regular"))  # fmt: skip
MOORING = ROOT / "tests" / "data" / "mooring"


def _set(path: pathlib.Path, key: str, value: str) -> None:
    """Replace the value written before ``key`` on its line (``value KEY - comment``)."""
    text = path.read_text(encoding="latin-1")
    new, n = re.subn(rf"(?m)^(\s*)\S+(\s+{re.escape(key)}\s)", rf"\g<1>{value}\g<2>", text, count=1)
    assert n == 1, (path, key)
    path.write_text(new, encoding="latin-1")


def _cut(path: pathlib.Path, chars: int) -> None:
    """The file as a full disk or a stopped copy leaves it: its last ``chars`` bytes gone."""
    data = path.read_bytes()
    path.write_bytes(data[:-chars])


def _drop_rows(path: pathlib.Path, per: str, i: str, j: str) -> None:
    lines = path.read_text().splitlines()
    keep = [ln for ln in lines if not (ln.split()[:3] == [per, i, j])]
    assert len(keep) == len(lines) - 1
    path.write_text("\n".join(keep) + "\n")


def _deck(work: pathlib.Path, ref: pathlib.Path, name: str, edit) -> None:
    d = work / name
    shutil.copytree(ref, d, ignore=shutil.ignore_patterns("*.out", "*.outb", "*.sum"))
    edit(d)


def _moordyn(work: pathlib.Path, name: str, edit) -> None:
    def put(d):
        text = (d / "MoorDyn.dat").read_text()
        new = edit(text)
        assert new != text, name
        (d / "MoorDyn.dat").write_text(new)

    _deck(work, REF10, name, put)


def _study(work: pathlib.Path, name: str, edit) -> None:
    src = ROOT / "cases" / "studies" / "fig25_spar_family.yaml"
    raw = yaml.safe_load(src.read_text())
    for d in raw["designs"]:
        d["case"] = str((src.parent / d["case"]).resolve())
    edit(raw)
    (work / name).write_text(yaml.safe_dump(raw, sort_keys=False))


def _dlc(work: pathlib.Path, name: str, edit) -> None:
    src = ROOT / "cases" / "dlc" / "oc3_hywind_iec.yaml"
    raw = yaml.safe_load(src.read_text())
    raw["case"] = str((src.parent / raw["case"]).resolve())
    edit(raw)
    (work / name).write_text(yaml.safe_dump(raw, sort_keys=False))


def _twice(text: str, key: str, value: str) -> str:
    """``text`` (a YAML mapping) with its top-level ``key`` given a second time."""
    return text + f"\n{key}: {value}\n"


W = "HydroData/spar"


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> pathlib.Path:
    d = tmp_path_factory.mktemp("nothing_lost_data")
    fst7 = "ref07_potential_decay.fst"
    if REF07.is_dir():
        _deck(d, REF07, "cut1", lambda p: _cut(p / f"{W}.1", 5))  # '2.531995e-30' -> '2.5319'
        _deck(d, REF07, "cut1col", lambda p: _cut(p / f"{W}.1", 14))  # Bbar cut off at the tab
        _deck(d, REF07, "inf33", lambda p: _drop_rows(p / f"{W}.1", "0.000000e+00", "3", "3"))
        _deck(d, REF07, "zero15", lambda p: _drop_rows(p / f"{W}.1", "-1.000000e+00", "1", "5"))
        _deck(d, REF07, "cuthst", lambda p: _cut(p / f"{W}.hst", 4))
        _deck(d, REF07, "cut3", lambda p: _cut(p / f"{W}.3", 6))
        _deck(d, REF07, "hst26", lambda p: (p / f"{W}.hst").write_text(
            "".join((p / f"{W}.hst").read_text().splitlines(keepends=True)[:26])))  # fmt: skip
        _deck(d, REF07, "gdefault", lambda p: _set(p / fst7, "Gravity", "default"))
        _deck(d, REF07, "wquoted", lambda p: _set(p / fst7, "WtrDens", '"water"'))
        _deck(d, REF07, "stts", lambda p: _set(p / fst7, "SttsTime", "often"))
        _deck(d, REF07, "elastnan", lambda p: _set(p / fst7, "CompElast", "NaN"))
        _deck(d, REF07, "potnan", lambda p: _set(p / "HydroDyn.dat", "PotMod", "nan"))
        _deck(d, REF07, "rdtn", lambda p: _set(p / "HydroDyn.dat", "RdtnDT", "fine"))
        _deck(d, REF07, "dupkey", lambda p: (p / fst7).write_text((p / fst7).read_text().replace(
            "9.80665   Gravity", "9.80665   Gravity\n9.81   Gravity", 1)))  # fmt: skip
        _deck(d, REF07, "shape", lambda p: _set(p / "ElastoDyn_Tower.dat", "TwFAM1Sh(2)", "x2"))
        _deck(d, REF07, "towerinf", lambda p: _set(p / "ElastoDyn.dat", "TowerHt", "-inf"))
        _deck(d, REF07, "cell", lambda p: (p / "ElastoDyn_Tower.dat").write_text(
            (p / "ElastoDyn_Tower.dat").read_text().replace("4.0347600E+03", "heavy", 1)))  # fmt: skip
    if REF09.is_dir():
        _deck(d, REF09, "maxiter", lambda p: _set(p / "AeroDyn.dat", "MaxIter", "many"))
        _deck(d, REF09, "vxi", lambda p: _set(p / "InflowWind.dat", "WindVxiList", "here"))
    if REF12.is_dir():
        _deck(d, REF12, "cut8", lambda p: _cut(p / f"{W}.8", 6))
    if REF10.is_dir():
        _moordyn(d, "md_friction", lambda t: t.replace(
            "3.0e6    kbot", "3.0e6    kbot\n0.5      FrictionCoefficient"))  # fmt: skip
        _moordyn(
            d, "md_twice", lambda t: t.replace("3.0e6    kbot", "3.0e6    kbot\n1.0e6    kBot")
        )
        _moordyn(d, "md_typo", lambda t: t.replace("3.0e6    kbot", "3.0e6    kbott"))
        _moordyn(d, "md_loads", lambda t: t.replace(
            "---------------------- SOLVER OPTIONS", "---------------------- EXTERNAL LOADS ----\n"
            "ID  Object  Fext         Blin         Bquad        CSys\n"
            "(#) (name)  (N)          (Ns/m)       (Ns^2/m^2)   (-)\n"
            "1   Point4  1e5|0.0|0.0  0.0|0.0|0.0  0.0|0.0|0.0  -\n"
            "---------------------- SOLVER OPTIONS"))  # fmt: skip
        _moordyn(d, "md_body", lambda t: t.replace(
            "---------------------- POINTS", "---------------------- BODY PROPERTIES ----\n"
            "ID  Attachment  X0 Y0 Z0 r0 p0 y0 Mass CG I Volume CdA Ca\n"
            "(#) (word) (m) (m) (m) (deg) (deg) (deg) (kg) (m) (kg-m^2) (m^3) (m^2) (-)\n"
            "1   coupled 0 0 0 0 0 0 0 0 0 0 0 0\n"
            "---------------------- POINTS"))  # fmt: skip
    if REF06.is_dir():
        for name, flag in (("map_omit", "omit_contact"), ("map_typo", "tensoin_anch")):
            _deck(d, REF06, name, lambda p, flag=flag: (p / "MAP.dat").write_text(
                (p / "MAP.dat").read_text().replace("tension_fair tension_anch",
                                                    f"tension_fair {flag}")))  # fmt: skip
    _study(d, "study_typo.yaml", lambda r: r["simulation"].update(integratr="rk4"))
    _study(d, "study_dt.yaml", lambda r: r["simulation"].update(dt=-0.1))
    _dlc(d, "dlc_dt.yaml", lambda r: r.setdefault("simulation", {}).update(dt=-1.0))
    _dlc(d, "dlc_topo.yaml", lambda r: r.update(topology={"rotor_spd": 1}))
    _dlc(d, "dlc_tmax.yaml", lambda r: r.setdefault("simulation", {}).update(t_max=5.0))
    (d / "study_twice.yaml").write_text(_twice((d / "study_typo.yaml").read_text().replace(
        "integratr", "integrator"), "realizations", "3"))  # fmt: skip
    (d / "dlc_twice.yaml").write_text(_twice((d / "dlc_tmax.yaml").read_text().replace(
        "  t_max: 5.0\n", ""), "master_seed", "7"))  # fmt: skip
    (d / "env_twice.yaml").write_text("environment:\n  waves: {kind: still}\n"
                                      "environment:\n  waves: {kind: regular}\n")  # fmt: skip
    (d / "criteria_twice.yaml").write_text("defaults: {}\ncases: {}\ndefaults: {}\n")
    return d


D = "{d}"
CASE = str(ROOT / "cases" / "oc3_platform_decay.yaml")


def _check(name: str, fst: str = "ref07_potential_decay.fst") -> list[str]:
    return ["check", f"{D}/{name}/{fst}"]


F9 = "ref09_aero_fixed_speed.fst"
F10 = "ref10_moordyn_decay.fst"
F12 = "ref12_mean_drift_regular.fst"
F6 = "ref06_catenary_decay.fst"
# (description, argv, text naming the file/field, reason, reference deck needed)
ROWS = [
    # item 2: WAMIT files cut or incomplete
    ("WAMIT .1 last number cut", _check("cut1"), "spar.1: field 'line 4284'", "the file ends inside line 4284", REF07),
    ("WAMIT .1 last column cut", _check("cut1col"), "spar.1: field 'line 4284'", "(4 columns, last '4.524278e-27'", REF07),
    ("WAMIT .1 infinite-frequency entry missing", _check("inf33"), "spar.1: field 'line 71'", "period 0 (infinite frequency) lacks 1 of the entries", REF07),
    ("WAMIT .1 zero-frequency entry missing", _check("zero15"), "spar.1: field 'line 35'", "period -1 (zero frequency) lacks 1 of the entries", REF07),
    ("WAMIT .hst cut", _check("cuthst"), "spar.hst: field 'line 36'", "looks truncated", REF07),
    ("WAMIT .hst ends at a line end partway", _check("hst26"), "spar.hst: field 'line 26'", "gives the first 26 of the 36 entries in order and stops before (5, 3)", REF07),
    ("WAMIT .3 cut", _check("cut3"), "spar.3: field 'line", "looks truncated", REF07),
    ("WAMIT .8 cut", _check("cut8", F12), "spar.8: field 'line 59319'", "looks truncated", REF12),
    ("ss-fit of a cut .1", ["ss-fit", f"{D}/cut1/{W}", "-o", f"{D}/fit.ss"], "spar.1: field 'line 4284'", "looks truncated", REF07),
    # item 2: words, DEFAULT and NaN where a deck needs a number
    ("fst Gravity = default", _check("gdefault"), "ref07_potential_decay.fst: field 'Gravity'", "expected a number, got DEFAULT (line 31)", REF07),
    ('fst WtrDens = "water"', _check("wquoted"), "field 'WtrDens'", "expected a number, got 'water'", REF07),
    ("fst SttsTime = often (unused key)", _check("stts"), "ref07_potential_decay.fst: field 'SttsTime'", "expected a number, got 'often'", REF07),
    ("fst CompElast = NaN", _check("elastnan"), "field 'CompElast'", "expected a finite number, got 'NaN'", REF07),
    ("HydroDyn PotMod = nan", _check("potnan"), "HydroDyn.dat: field 'PotMod'", "expected a finite number", REF07),
    ("HydroDyn RdtnDT = fine", _check("rdtn"), "HydroDyn.dat: field 'RdtnDT'", "expected a number, got 'fine'", REF07),
    ("fst key given twice", _check("dupkey"), "ref07_potential_decay.fst: field 'Gravity'", "key Gravity is given twice with different values (lines 31 and 32)", REF07),
    ("tower mode shape word", _check("shape"), "ElastoDyn_Tower.dat: field 'TwFAM1Sh(2)'", "expected a number, got 'x2'", REF07),
    ("ElastoDyn TowerHt = -inf", _check("towerinf"), "ElastoDyn.dat: field 'TowerHt'", "expected a finite number, got '-inf'", REF07),
    ("tower table cell word", _check("cell"), "ElastoDyn_Tower.dat: field 'DISTRIBUTED TOWER PROPERTIES row 3 (TMassDen)'", "expected a number, got 'heavy'", REF07),
    ("AeroDyn MaxIter = many", _check("maxiter", F9), "AeroDyn.dat: field 'MaxIter'", "expected a number, got 'many'", REF09),
    ("InflowWind WindVxiList word", _check("vxi", F9), "InflowWind.dat: field 'WindVxiList'", "expected a number, got 'here'", REF09),
    # item 3: MoorDyn options and sections not built
    ("MoorDyn FrictionCoefficient", _check("md_friction", F10), "MoorDyn.dat: field 'OPTIONS line 26 (FrictionCoefficient)'", "seabed friction is not built", REF10),
    ("MoorDyn option given twice", _check("md_twice", F10), "MoorDyn.dat: field 'OPTIONS line 26 (kBot)'", "kBot is given twice with different values (lines 25 and 26)", REF10),
    ("MoorDyn option misspelled", _check("md_typo", F10), "MoorDyn.dat: field 'OPTIONS line 25 (kbott)'", "unknown MoorDyn option 'kbott' (did you mean 'kbot'?)", REF10),
    ("MoorDyn external loads", _check("md_loads", F10), "MoorDyn.dat: field 'EXTERNAL LOADS'", "MoorDyn external loads are not built", REF10),
    ("MoorDyn body properties", _check("md_body", F10), "MoorDyn.dat: field 'BODY PROPERTIES'", "are not built", REF10),
    ("MAP++ omit_contact", _check("map_omit", F6), "MAP.dat: field 'LINE PROPERTIES line 13 (Flags)'", "omit_contact (the line ignores the seabed) is not built", REF06),
    ("MAP++ line flag misspelled", _check("map_typo", F6), "MAP.dat: field 'LINE PROPERTIES line 13 (Flags)'", "unknown MAP++ line flag 'tensoin_anch' (did you mean 'tension_anch'?)", REF06),
    # item 3: a study's or DLC's own settings, checked when read, named in its file
    ("study simulation typo", ["study", f"{D}/study_typo.yaml", "-o", f"{D}/s1", "--list"], "study_typo.yaml: field 'simulation.integratr'", "unknown key 'integratr' (did you mean 'integrator'?)", None),
    ("study simulation.dt < 0", ["study", f"{D}/study_dt.yaml", "-o", f"{D}/s2", "--list"], "study_dt.yaml: field 'simulation.dt'", "must be > 0", None),
    ("DLC simulation.dt < 0", ["dlc", f"{D}/dlc_dt.yaml", "-o", f"{D}/d1"], "dlc_dt.yaml: field 'simulation.dt'", "must be > 0", None),
    ("DLC topology typo", ["dlc", f"{D}/dlc_topo.yaml", "-o", f"{D}/d4"], "dlc_topo.yaml: field 'topology.rotor_spd'", "unknown key 'rotor_spd' (did you mean 'rotor'?)", None),
    ("DLC simulation.t_max", ["dlc", f"{D}/dlc_tmax.yaml", "-o", f"{D}/d2", "--list"], "dlc_tmax.yaml: field 'simulation.t_max'", "'analysis' + 'transient'", None),
    # item 3: a YAML key given twice, in every YAML file floatwind reads
    ("study key twice", ["study", f"{D}/study_twice.yaml", "-o", f"{D}/s3", "--list"], "study_twice.yaml", "key 'realizations' is given twice", None),
    ("DLC key twice", ["dlc", f"{D}/dlc_twice.yaml", "-o", f"{D}/d3", "--list"], "dlc_twice.yaml", "key 'master_seed' is given twice", None),
    ("--env key twice", ["check", CASE, "--env", f"{D}/env_twice.yaml"], "env_twice.yaml", "key 'environment' is given twice (lines 1 and 3)", None),
]  # fmt: skip


@pytest.mark.parametrize("desc,argv,named,reason,ref", ROWS, ids=[r[0] for r in ROWS])
def test_refused(work, capsys, desc, argv, named, reason, ref):
    if ref is not None and not ref.is_dir():
        pytest.skip(f"reference deck {ref.name} absent")
    argv = [a.format(d=work) for a in argv]
    assert_refused(argv, work, named, reason, capsys)
    out = pathlib.Path(argv[argv.index("-o") + 1]) if "-o" in argv else None
    assert out is None or not out.exists()  # refused before a folder or file is made


def test_the_validation_criteria_refuse_a_key_given_twice(work):
    """``validation/openfast/compare.py --criteria`` reads the criteria with floatwind's YAML
    reader: exit 2 naming both lines, before any deck is run."""
    from validation.openfast.compare import CompareError, load_criteria

    with pytest.raises(CompareError, match=r"criteria_twice.yaml: key 'defaults' is given twice "
                       r"\(lines 1 and 3\)"):  # fmt: skip
        load_criteria(work / "criteria_twice.yaml")
    assert set(load_criteria()) >= {"defaults", "cases"}  # the shipped file reads as before


def test_a_whole_wamit_file_without_a_final_line_end_is_read(tmp_path):
    """Only a cut shows: the same files with the final line end removed read to the same
    arrays (the last line is written like the one above)."""
    import numpy as np

    from floatwind.loads.wamit import read_wamit

    if not REF07.is_dir():
        pytest.skip("reference deck ref07 absent")
    shutil.copytree(REF07 / "HydroData", tmp_path / "w")
    ref = read_wamit(tmp_path / "w" / "spar", rho=1025.0, gravity=9.80665)
    for ext in (".1", ".3", ".hst"):
        _cut(tmp_path / "w" / f"spar{ext}", 1)  # the "\n"
    again = read_wamit(tmp_path / "w" / "spar", rho=1025.0, gravity=9.80665)
    for name in ("added_mass", "damping", "added_mass_inf", "excitation", "hydrostatic"):
        assert np.array_equal(getattr(ref, name), getattr(again, name)), name


def test_default_is_taken_where_openfast_takes_it(tmp_path, capsys):
    """``DEFAULT`` stays valid where OpenFAST reads it (the .fst's DT_Out, SeaState's WtrDens,
    AeroDyn's AirDens): the deck imports as before."""
    if not REF09.is_dir():
        pytest.skip("reference deck ref09 absent")
    d = tmp_path / "ref09"
    shutil.copytree(REF09, d, ignore=shutil.ignore_patterns("*.out", "*.outb", "*.sum"))
    _set(d / F9, "DT_Out", "default")
    _set(d / "AeroDyn.dat", "AirDens", "default")
    assert main(["check", str(d / F9)]) == 0, capsys.readouterr().err


def test_a_study_length_from_simulation_t_max_is_honoured(tmp_path):
    """``simulation.t_max`` in a study without ``duration`` is each run's length (documented in
    docs/studies.md): never dropped."""
    from floatwind.studies.spec import load_study

    _study(tmp_path, "s.yaml", lambda r: (r.pop("duration", None),
                                          r["simulation"].update(t_max=42.0)))  # fmt: skip
    s = load_study(tmp_path / "s.yaml")
    run = s.runs()[0]
    assert s.case_dict(run)["simulation"]["t_max"] == 42.0


def _moordyn_files() -> list[pathlib.Path]:
    found = sorted(MOORING.glob("*moordyn*.dat"))
    for ref in sorted(REFS.glob("ref*")) if REFS.is_dir() else []:
        found += [p for p in sorted(ref.glob("*.dat")) if p.name.lower() in ("moordyn.dat",
                                                                              "map.dat")]  # fmt: skip
    return found


@pytest.mark.parametrize("path", _moordyn_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_mooring_file_reads_without_repeated_keys(path, caplog):
    """Every MoorDyn (v1, v2, MoorDyn-F's ``POINT PROPERTIES``/``LINE PROPERTIES`` headers and
    its option spellings ``rho``/``kb``/``cb``) and MAP++ file of the reference decks and the
    test data: no "key repeated" warning from the generic reader, and the MoorDyn reader gets
    every point and line, the options it uses and a note for each it does not."""
    from floatwind.case.openfast.moordyn_file import read_moordyn_file
    from floatwind.case.openfast.reader import read_openfast_input

    with caplog.at_level(logging.WARNING):
        read_openfast_input(path)
    assert not [r.getMessage() for r in caplog.records if "repeated" in r.getMessage()]
    if path.name == "MAP.dat":
        return
    md = read_moordyn_file(path, depth=320.0)
    assert (len(md.points), len(md.lines)) == (6, 3)
    assert [p["kind"] for p in md.points] == ["fixed"] * 3 + ["coupled"] * 3
    if path.name == "oc3_moordyn_v2_full.dat":
        assert md.point_section == "POINTS" and md.options["kbot"][0] == 3.0e6
        assert md.options["cbot"][0] == 3.0e5
        assert any("tScheme (line 43) is not used" in n for n in md.notes), md.notes


def test_a_full_moordyn_v2_file_runs_check_quietly(tmp_path, capsys, caplog):
    if not REF10.is_dir():
        pytest.skip("reference deck ref10 absent")
    d = tmp_path / "ref10"
    shutil.copytree(REF10, d, ignore=shutil.ignore_patterns("*.out", "*.outb", "*.sum"))
    shutil.copy(MOORING / "oc3_moordyn_v2_full.dat", d / "MoorDyn.dat")
    before = file_snapshot(tmp_path)
    with caplog.at_level(logging.WARNING):
        assert main(["check", str(d / F10)]) == 0
    assert not [r for r in caplog.records if "repeated" in r.getMessage()]
    assert "option tScheme (line 43) is not used" in capsys.readouterr().out
    assert file_snapshot(tmp_path) == before


def test_moordyn_comment_lines_between_rows_are_comments(tmp_path, caplog):
    """MoorDyn's comment characters (``!``, ``#``, ``%``) on a line of their own between a
    table's rows: the rows after them stay rows of the table (they used to read as ``value KEY``
    settings, "key Vessel repeated", and the MoorDyn reader refused the comment as a point)."""
    from floatwind.case.openfast.moordyn_file import read_moordyn_file
    from floatwind.case.openfast.reader import read_openfast_input

    text = (MOORING / "oc3_moordyn_v2_full.dat").read_text()
    for old, comment in (("1    Fixed", "% the anchors"), ("4    Vessel", "! the fairleads"),
                         ("2    main ", "# line 2")):  # fmt: skip
        assert old in text
        text = text.replace(old, f"{comment}\n{old}", 1)
    path = tmp_path / "md.dat"
    path.write_text(text)
    with caplog.at_level(logging.WARNING):
        got = read_openfast_input(path)
    assert not [r.getMessage() for r in caplog.records if "repeated" in r.getMessage()]
    assert [len(t["rows"]) for t in got["tables"].values()] == [1, 6, 3]
    md = read_moordyn_file(path, depth=320.0)
    assert (len(md.points), len(md.lines)) == (6, 3)
