"""Issue 17 item 2: every OpenFAST deck setting is mapped, refused, without physics or ignored for
a stated reason (floatwind.case.openfast: each input-file kind's table), never silently replaced by a floatwind default.

(a) every key and table column of every file of every reference deck is in the table (a key the
    table does not know fails here, naming it); (b) every setting with a supported set is refused,
    in one line naming it, when a copy of a reference deck sets an unsupported value; (c) mapped
    settings reach the imported case.
"""

from __future__ import annotations

import math
import pathlib
import re
import shutil
import stat

import pytest

from floatwind.case import openfast as od
from floatwind.case.openfast import UnsupportedDeckError, import_openfast
from floatwind.case.openfast import settings as st
from floatwind.case.openfast.reader import _tokens
from floatwind.errors import CaseError

REF = pathlib.Path("/work/shared/reference/openfast")
if not REF.is_dir():
    REF = pathlib.Path(__file__).resolve().parents[2] / "shared" / "reference" / "openfast"
CASES = sorted(p.name for p in REF.glob("ref[0-9]*") if p.is_dir()) if REF.is_dir() else []

#: the reference decks of physics floatwind does not model yet, and the settings it refuses there
#: (each the subject of an open issue: tower modes); every
#: other setting of those decks is still in the table, and nothing else of theirs is refused. An
#: entry goes when its physics lands (the test then fails on the stale entry).
REFUSED_BY_DESIGN: dict[str, set[str]] = {}  # (ref11's tower modes: issue 37)
needs_reference = pytest.mark.skipif(not CASES, reason="OpenFAST reference decks not available")

#: module of the table -> file name in the reference decks
FILES = {
    "ElastoDyn": "ElastoDyn.dat",
    "ElastoDyn_blade": "ElastoDyn_Blade.dat",
    "ElastoDyn_tower": "ElastoDyn_Tower.dat",
    "ServoDyn": "ServoDyn.dat",
    "SeaState": "SeaState.dat",
    "HydroDyn": "HydroDyn.dat",
    "AeroDyn": "AeroDyn.dat",
    "AeroDyn_airfoil": "Airfoils/DU40_A17.dat",
    "InflowWind": "InflowWind.dat",
}

#: the settings the issue-17 rewrite (joints with their own DOF) owns: marked, never re-decided
ISSUE17 = {
    "ElastoDyn": {"YawDOF", "GenDOF", "GenIner", "GBRatio", "GBoxEff", "DTTorSpr", "DTTorDmp"},
    "ServoDyn": {
        "YawSpr", "YawDamp", "YawNeut", "YCMode", "TYCOn", "TYawManS", "YawManRat", "NacYawF",
        "VSContrl", "GenModel", "GenEff", "GenTiStr", "GenTiStp", "SpdGenOn", "TimGenOn",
        "TimGenOf", "VS_RtGnSp", "VS_RtTq", "VS_Rgn2K", "VS_SlPc",
    },
}  # fmt: skip


def _copy(tmp_path: pathlib.Path, case: str) -> pathlib.Path:
    dst = tmp_path / case
    shutil.copytree(REF / case, dst, ignore=shutil.ignore_patterns("*.out", "*.outb", "*.sum"))
    for p in dst.rglob("*"):
        p.chmod(p.stat().st_mode | stat.S_IWUSR)
    return dst / f"{case}.fst"


def _file(fst: pathlib.Path, module: str) -> pathlib.Path:
    return fst if module == "fst" else fst.parent / FILES[module]


def _set_value(path: pathlib.Path, key: str, value: str) -> None:
    """Replace the value(s) in front of ``key`` (the first line where it is the key)."""
    lines = path.read_text(encoding="latin-1").splitlines()
    for n, line in enumerate(lines):
        toks = _tokens(re.split(r"\s!", line)[0])
        j = next((i for i, t in enumerate(toks) if not t.is_value), 0)
        if j == 0 or toks[j].text != key:
            continue
        m = re.search(rf"\s{re.escape(key)}(\s|$)", line)
        assert m is not None
        lines[n] = f"   {value}" + line[m.start() :]
        path.write_text("\n".join(lines) + "\n", encoding="latin-1")
        return
    raise AssertionError(f"{key} not found in {path}")


def _set_cell(path: pathlib.Path, column: str, value: str) -> None:
    """Replace the first data row's cell of ``column`` (first table with that column)."""
    lines = path.read_text(encoding="latin-1").splitlines()
    for n, line in enumerate(lines):
        head = line.split("[")[0].split()
        if column in head and n + 2 < len(lines) and lines[n + 1].strip().startswith("("):
            j = head.index(column)
            row = lines[n + 2].split()
            row[j] = value
            lines[n + 2] = "   ".join(row)
            path.write_text("\n".join(lines) + "\n", encoding="latin-1")
            return
    raise AssertionError(f"column {column} not found in {path}")


def _key_name(key: str) -> str:
    return key.replace("(k)", "(1)")


def _names(line: str, key: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(key)}(?![A-Za-z0-9_])", line) is not None


# ------------------------------------------------------------------------------------- (a)


def test_table_is_well_formed():
    counts = st.counts()
    assert set(counts) == set(st.KINDS) and all(v > 0 for v in counts.values()), counts
    for table in (st.SETTINGS, st.COLUMNS):
        for module, entries in table.items():
            for key, s in entries.items():
                assert s.text.strip(), (module, key)
                if s.kind == "refused_unless":
                    assert s.ok is not None and s.supported and s.bad is not None, (module, key)
                if s.ok is not None:
                    assert s.supported and s.bad is not None, (module, key)
    for module, keys in ISSUE17.items():
        for key in keys:
            s = st.lookup(module, key)
            assert s is not None and s.kind == "mapped" and s.text == st.ISSUE17_CORE, key
            assert s.ok is None, key  # the table never refuses them: openfast/importer.py decides


@needs_reference
@pytest.mark.parametrize("case", CASES)
def test_every_key_of_the_reference_decks_is_in_the_table(case):
    deck = od.read_fst(REF / case / f"{case}.fst")
    missing = []
    n = 0
    for module, f in st.deck_files(deck):
        name = pathlib.Path(f["file"]).name
        for key in f["values"]:
            n += 1
            if st.lookup(module, key) is None:
                missing.append(f"{name}: {key}")
        for title, tab in f["tables"].items():
            for col in tab["columns"]:
                n += 1
                if st.lookup(st.column_module(module, title), col, column=True) is None:
                    missing.append(f"{name}: column {col} ({title})")
    assert not missing, "settings missing from the tables of floatwind.case.openfast: " + ", ".join(
        missing
    )
    assert n > 400
    # the reference decks are imported: nothing of theirs is refused but the physics not built yet
    expected = REFUSED_BY_DESIGN.get(case, set())
    refused = {str(r).split(":", 1)[1].split("=", 1)[0].strip() for r in st.refused_settings(deck)}
    assert refused == expected, st.refused_settings(deck)
    unsupported = od.unsupported_settings(deck)
    assert len(unsupported) == len(expected), unsupported
    assert all(any(f" {key} = " in str(u) for key in expected) for u in unsupported), unsupported


@needs_reference
def test_every_map_column_and_option_is_in_the_table():
    maps = sorted(REF.glob("ref[0-9]*/MAP.dat"))
    if not maps:
        pytest.skip("no MAP++ reference deck")
    for path in maps:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        seen = []
        for n, line in enumerate(lines):
            if not line.strip().startswith("--"):
                continue
            title = line.strip().strip("-").strip().upper()
            if n + 1 >= len(lines):
                continue
            header = lines[n + 1].split()
            seen += [("column", c) for c in header]
            if "OPTION" in title:
                rows = [
                    ln.split() for ln in lines[n + 3 :] if ln.strip() and not ln.startswith("-")
                ]
                seen += [("option", r[0]) for r in rows]
        assert seen
        for kind, name in seen:
            found = st.lookup("MAP", name, column=kind == "column")
            assert found is not None, f"{path.name}: MAP++ {kind} {name} is not in the table"


DATA = pathlib.Path(__file__).resolve().parent / "data" / "mooring"


def test_every_moordyn_key_and_column_is_in_the_table():
    files = sorted(DATA.glob("*moordyn*.dat"))
    if not files:
        pytest.skip("no MoorDyn test files")
    for path in files:
        lines = path.read_text(encoding="latin-1").splitlines()
        for n, line in enumerate(lines[:-1]):
            toks = line.split()
            if not toks or line.strip().startswith("-"):
                continue
            if lines[n + 1].strip().startswith("("):  # a table header above its units
                for col in toks:
                    assert st.lookup("MoorDyn", col, column=True) is not None, (path.name, col)
                continue
            try:
                float(toks[0])
            except ValueError:
                if toks[0].upper() not in ("TRUE", "FALSE"):
                    continue
            keyed = len(toks) == 2 or (len(toks) > 2 and toks[2] == "-")
            if keyed and re.fullmatch(r"[A-Za-z_]\w*", toks[1]):
                assert st.lookup("MoorDyn", toks[1]) is not None, (path.name, toks[1])


def _moordyn_deck(tmp_path: pathlib.Path, version: str) -> pathlib.Path:
    fst = _copy(tmp_path, "ref06_catenary_decay")
    shutil.copy(DATA / f"oc3_moordyn_{version}.dat", fst.parent / "MoorDyn.dat")
    text = fst.read_text(encoding="latin-1")
    text = text.replace("1   CompMooring", "3   CompMooring").replace('"MAP.dat"', '"MoorDyn.dat"')
    fst.write_text(text, encoding="latin-1")
    return fst


@needs_reference
@pytest.mark.parametrize("key", [k for k, s in st.SETTINGS["MoorDyn"].items() if s.ok is not None])
def test_moordyn_option_refused_in_one_line(tmp_path, key):
    if "ref06_catenary_decay" not in CASES:
        pytest.skip("reference ref06 not available")
    fst = _moordyn_deck(tmp_path, "v2")
    import_openfast(fst)  # as given: supported
    md = fst.parent / "MoorDyn.dat"
    text = md.read_text(encoding="latin-1")
    s = st.SETTINGS["MoorDyn"][key]
    if re.search(rf"^\s*\S+\s+{key}\s", text, re.M):
        text = re.sub(rf"^(\s*)\S+(\s+{key}\s)", rf"\g<1>{s.bad}\g<2>", text, count=1, flags=re.M)
    else:
        text = re.sub(r"^(\s*\S+\s+dtM\s[^\n]*\n)", rf"\g<1>{s.bad}   {key}   - added\n", text,
                      count=1, flags=re.M)  # fmt: skip
    md.write_text(text, encoding="latin-1")
    with pytest.raises(UnsupportedDeckError) as err:
        import_openfast(fst)
    (line,) = [ln for ln in err.value.lines if _names(ln, key)]
    assert line.startswith(f"MoorDyn.dat: {key} = ") and "supports" in line


@needs_reference
def test_unknown_key_is_refused_in_one_line(tmp_path):
    fst = _copy(tmp_path, "ref01_pitch_decay")
    ed = fst.parent / "ElastoDyn.dat"
    text = ed.read_text(encoding="latin-1")
    new, n = re.subn(r"(\n[^\n]*\sNacYaw\s[^\n]*\n)",
                     r"\1          2.5   FooDamp         - a setting of a later version\n",
                     text, count=1)  # fmt: skip
    assert n == 1
    ed.write_text(new, encoding="latin-1")
    with pytest.raises(UnsupportedDeckError) as err:
        import_openfast(fst)
    (line,) = err.value.lines
    assert "ElastoDyn.dat: FooDamp = 2.5" in line and "floatwind.case.openfast.elastodyn" in line
    res = import_openfast(fst, approximate=True)
    assert any("FooDamp" in n and "approximated" in n for n in res["notes"])


# ------------------------------------------------------------------------------------- (b)


def _refusable():
    out = []
    for module, entries in st.SETTINGS.items():
        if module in ("MAP", "MoorDyn"):  # MoorDyn: test_moordyn_option_refused_in_one_line
            continue
        for key, s in entries.items():
            if s.ok is not None:
                out.append(pytest.param(module, key, False, id=f"{module}.{key}"))
    for module, entries in st.COLUMNS.items():
        if module in ("MAP", "MoorDyn", "HydroDyn_rectangular"):
            continue
        for key, s in entries.items():
            if s.ok is not None:
                out.append(pytest.param(module, key, True, id=f"{module}.column.{key}"))
    return out


@needs_reference
@pytest.mark.parametrize(("module", "key", "column"), _refusable())
def test_unsupported_value_is_refused_in_one_line(tmp_path, module, key, column):
    s = st.lookup(module, key, column=column)
    if s.deck not in CASES:
        pytest.skip(f"reference {s.deck} not available")
    fst = _copy(tmp_path, s.deck)
    name = _key_name(key)
    path = _file(fst, module)
    (_set_cell if column else _set_value)(path, name, s.bad)
    with pytest.raises(CaseError) as err:
        import_openfast(fst)
    exc = err.value
    lines = exc.lines if isinstance(exc, UnsupportedDeckError) else [str(exc)]
    assert all("\n" not in ln for ln in lines)
    naming = [ln for ln in lines if _names(ln, name)]
    assert len(naming) == 1, (name, lines)
    assert path.name in naming[0] or path.name in str(exc), naming[0]
    if isinstance(exc, UnsupportedDeckError) and s.checked_by is None:
        # the line says the value (and what floatwind supports)
        bad = s.bad.split()[0].strip('"')
        m = re.search(rf"{re.escape(name)}\s*=\s*(\S+)", naming[0])
        assert m is not None, naming[0]
        shown = m.group(1).strip('",;:')
        try:
            assert float(shown) == float(bad), naming[0]
        except ValueError:
            assert shown.lower() == bad.lower(), naming[0]


# ------------------------------------------------------------------------------------- (c)


def _body_mass(case):
    return sum(b["mass"] for b in case["bodies"])


def _load(case, kind, name=None):
    return next(
        ld
        for ld in case["loads"]
        if ld["type"] == kind and (name is None or ld.get("name") == name)
    )


MAPPED = [
    ("ref01_pitch_decay", "fst", "TMax", "123", lambda c: c["simulation"]["t_max"], 123.0),
    ("ref01_pitch_decay", "fst", "DT_Out", "0.1", lambda c: c["simulation"]["dt_out"], 0.1),
    ("ref01_pitch_decay", "fst", "DT", "0.01", lambda c: c["simulation"]["dt"], 0.01),
    ("ref01_pitch_decay", "fst", "Gravity", "9.81", lambda c: c["environment"]["gravity"], 9.81),
    ("ref01_pitch_decay", "fst", "WtrDens", "1000", lambda c: c["environment"]["rho_water"], 1000.0),
    ("ref01_pitch_decay", "fst", "WtrDpth", "300", lambda c: c["environment"]["water_depth"], 300.0),
    ("ref01_pitch_decay", "ElastoDyn", "PtfmMass", "7466331", _body_mass, None),
    ("ref01_pitch_decay", "ElastoDyn", "NacMass", "240001", _body_mass, None),
    ("ref01_pitch_decay", "ElastoDyn", "HubMass", "56781", _body_mass, None),
    ("ref01_pitch_decay", "ElastoDyn", "PtfmSurge", "3", lambda c: c["initial"]["displacement"][0], 3.0),
    ("ref01_pitch_decay", "ElastoDyn", "PtfmPitch", "1", lambda c: c["initial"]["angles"][1], math.radians(1.0)),
    ("ref01_pitch_decay", "ElastoDyn", "PtfmCMzt", "-80", lambda c: c["bodies"][0]["cm"][2], None),
    ("ref01_pitch_decay", "ElastoDyn_blade", "AdjBlMs", "1.1", _body_mass, None),
    ("ref01_pitch_decay", "ElastoDyn_tower", "AdjTwMa", "1.1", _body_mass, None),
    ("ref01_pitch_decay", "HydroDyn", "PtfmRefxt", "1", lambda c: _load(c, "linear")["point"][0], 1.0),
    ("ref02_seed_free_vibration", "ElastoDyn", "RotSpeed", "6", lambda c: next(
        j for j in c["joints"] if j["name"] == "shaft")["rotation"]["rate"], 6 * math.pi / 30),
    ("ref05_morison_jonswap", "SeaState", "WaveHs", "4", lambda c: c["environment"]["waves"]["hs"], 4.0),
    ("ref05_morison_jonswap", "SeaState", "WaveTp", "11", lambda c: c["environment"]["waves"]["tp"], 11.0),
    ("ref05_morison_jonswap", "SeaState", "WavePkShp", "2.0", lambda c: c["environment"]["waves"]["gamma"], 2.0),
    ("ref05_morison_jonswap", "SeaState", "WaveDir", "30", lambda c: c["environment"]["waves"]["heading_deg"], 30.0),
    ("ref05_morison_jonswap", "SeaState", "WaveNDAmp", "FALSE", lambda c: c["environment"]["waves"]["random_amplitude"], False),
    ("ref05_morison_jonswap", "SeaState", "WaveStMod", "1", lambda c: c["environment"]["waves"]["stretching"], "vertical"),
    ("ref07_potential_decay", "HydroDyn", "RdtnMod", "0", lambda c: _load(c, "potential_radiation")["memory"], False),
    ("ref07_potential_decay", "HydroDyn", "RdtnTMax", "30", lambda c: _load(c, "potential_radiation")["rdtn_tmax"], 30.0),
    ("ref07_potential_decay", "HydroDyn", "PtfmVol0", "8000", lambda c: _load(c, "linear", "hydrodyn_wamit_hydrostatics")["f0"][2], 1025 * 9.80665 * 8000),
]  # fmt: skip


@needs_reference
@pytest.mark.parametrize(
    ("case", "module", "key", "value", "get", "expect"),
    [pytest.param(*m, id=f"{m[0][:5]}.{m[1]}.{m[2]}") for m in MAPPED],
)
def test_mapped_setting_changes_the_imported_case(tmp_path, case, module, key, value, get, expect):
    s = st.lookup(module, key)
    assert s is not None and s.kind == "mapped", (module, key)
    if case not in CASES:
        pytest.skip(f"reference {case} not available")
    fst = _copy(tmp_path, case)
    before = get(import_openfast(fst)["case"])
    _set_value(_file(fst, module), key, value)
    after = get(import_openfast(fst)["case"])
    assert after != before, (key, before)
    if expect is not None:
        assert (
            after == pytest.approx(expect, rel=1e-9)
            if isinstance(expect, float)
            else (after == expect)
        )


@needs_reference
def test_mapped_column_changes_the_imported_case(tmp_path):
    fst = _copy(tmp_path, "ref04_morison_decay")
    before = _load(import_openfast(fst)["case"], "morison")["members"][0]["cd"]
    assert st.lookup("HydroDyn", "SimplCd", column=True).kind == "mapped"
    _set_cell(fst.parent / "HydroDyn.dat", "SimplCd", "0.8")
    after = _load(import_openfast(fst)["case"], "morison")["members"][0]["cd"]
    assert before == pytest.approx(0.6) and after == pytest.approx(0.8)


@needs_reference
def test_slanted_member_with_hydrostatics_is_refused(tmp_path):
    """floatwind's member hydrostatics take vertical members: a slanted member with MHstLMod = 1
    (and PropPot = False) is refused instead of losing its hydrostatics silently."""
    if "ref04_morison_decay" not in CASES:
        pytest.skip("reference ref04 not available")
    fst = _copy(tmp_path, "ref04_morison_decay")
    _set_cell(fst.parent / "HydroDyn.dat", "Jointxi", "5.0")
    with pytest.raises(UnsupportedDeckError) as err:
        import_openfast(fst)
    (line,) = err.value.lines
    assert line.startswith("HydroDyn.dat: MHstLMod = 1") and "vertical" in line
    res = import_openfast(fst, approximate=True)
    assert any("MHstLMod" in n for n in res["notes"])
