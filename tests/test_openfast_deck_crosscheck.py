"""floatwind's OpenFAST deck parser against the OpenFAST project's own (openfast_io).

For every reference deck in ``../shared/reference/openfast/`` and every module file floatwind's
parser reads (main ``.fst``, ElastoDyn with its blade and tower files, ServoDyn, SeaState,
HydroDyn), every setting floatwind reads (keyed values, table columns, output lists) must equal
what ``openfast_io.FAST_reader.InputReader_OpenFAST`` returns for the same file, so the parser
cannot drift from the official format. openfast_io is a test dependency only
(docs/openfast_import.md says why).
"""

from __future__ import annotations

import contextlib
import io
import math
import pathlib
import re

import numpy as np
import pytest

from floatwind.case.openfast import DEFAULT, read_fst

pytest.importorskip("openfast_io")
from openfast_io.FAST_reader import InputReader_OpenFAST  # noqa: E402
from openfast_io.FAST_vars_out import FstOutput  # noqa: E402

REFERENCE = pathlib.Path(__file__).resolve().parents[2] / "shared" / "reference" / "openfast"
DECKS = sorted(REFERENCE.glob("ref*/*.fst"))

# floatwind deck entry -> openfast_io fst_vt entry
MODULES = {
    "fst": "Fst",
    "ElastoDyn": "ElastoDyn",
    "ElastoDyn_tower": "ElastoDynTower",
    "ServoDyn": "ServoDyn",
    "SeaState": "SeaState",
    "HydroDyn": "HydroDyn",
}
# openfast_io keeps one blade file (the first); floatwind reads one per blade
BLADE = ("ElastoDyn_blades", "ElastoDynBlade")
# the output list of each file, in openfast_io's per-module channel table
OUTLIST_MODULE = {
    "ElastoDyn": "ElastoDyn",
    "ServoDyn": "ServoDyn",
    "SeaState": "SeaState",
    "HydroDyn": "HydroDyn",
}
# Lists whose length is another setting: OpenFAST (and floatwind, sea_state/hydrodyn_model) use
# only the first N entries; openfast_io returns [0] when N = 0.
COUNTED = {
    "WaveElevxi": "NWaveElev",
    "WaveElevyi": "NWaveElev",
    "WaveKinxi": "NWaveKin",
    "WaveKinyi": "NWaveKin",
    "WaveKinzi": "NWaveKin",
    "JOutLst": "NJOutputs",
    "BStCfiles": "NumBStC",
    "NStCfiles": "NumNStC",
    "TStCfiles": "NumTStC",
    "SStCfiles": "NumSStC",
}
_INDEXED = re.compile(r"^(\w+)\((\d+)\)$")


def _read_both(fst: pathlib.Path):
    reader = InputReader_OpenFAST()
    reader.FAST_InputFile = fst.name
    reader.FAST_directory = str(fst.parent)
    with contextlib.redirect_stdout(io.StringIO()):
        reader.execute()
    return read_fst(fst), reader.fst_vt


def _lookup(oio: dict, key: str):
    """openfast_io's value for floatwind's key ``key`` (``Name(k)`` -> ``Namek`` or ``Name[k-1]``;
    mode-shape coefficients ``Name(k)`` start at the x^2 term: ``Name[k-2]``)."""
    if key in oio:
        return oio[key]
    m = _INDEXED.match(key)
    if not m:
        raise KeyError(key)
    name, k = m.group(1), int(m.group(2))
    if f"{name}{k}" in oio:
        return oio[f"{name}{k}"]
    if name in oio:
        seq = oio[name]
        first = 2 if name.endswith("Sh") else 1  # TwFAM1Sh(2..6), BldFl1Sh(2..6)
        return seq[k - first]
    raise KeyError(key)


def _parse(text: str):
    """A setting openfast_io left as text ('False', '3', '0.001'), read as OpenFAST reads it."""
    t = text.strip().strip("\"'")
    if t.lower() in ("true", "t"):
        return True
    if t.lower() in ("false", "f"):
        return False
    try:
        return float(t.replace("D", "E").replace("d", "e"))
    except ValueError:
        return t


def _same(mine, theirs) -> bool:
    """Equal as OpenFAST means them: numbers to 1e-12, booleans, strings without quotes and case
    for DEFAULT, None for an empty entry, lists element by element."""
    if isinstance(theirs, np.ndarray):
        theirs = theirs.tolist()
    if isinstance(theirs, str) and isinstance(mine, bool | int | float) and mine != DEFAULT:
        theirs = _parse(theirs)
    if isinstance(mine, list) or isinstance(theirs, list | tuple):
        a = mine if isinstance(mine, list) else [mine]
        b = list(theirs) if isinstance(theirs, list | tuple) else [theirs]
        if a and isinstance(a[0], list) and not (b and isinstance(b[0], list)):
            a = [x for row in a for x in row]
        if b and isinstance(b[0], list) and not (a and isinstance(a[0], list)):
            b = [x for row in b for x in row]
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if mine == DEFAULT or (isinstance(theirs, str) and theirs.strip('"').lower() == "default"):
        return isinstance(theirs, str) and theirs.strip('"').lower() == "default" and mine == DEFAULT
    if isinstance(mine, bool) or isinstance(theirs, bool):
        return bool(mine) == bool(theirs) and isinstance(theirs, bool | int | str) and (
            not isinstance(theirs, str) or theirs.lower() in ("true", "false", "t", "f")
        )
    if isinstance(mine, int | float) and isinstance(theirs, int | float | np.number):
        return math.isclose(float(mine), float(theirs), rel_tol=1e-12, abs_tol=0.0)
    if isinstance(mine, str) and isinstance(theirs, str):
        return mine.strip("\"'") == theirs.strip("\"'")
    if mine is None:
        return theirs in (None, "", [])
    return mine == theirs


def _table_key(title: str, column: str, oio: dict) -> str:
    """openfast_io's key of a table column (HydroDyn: ``Cyl``/``Rec`` prefixes by table)."""
    t = title.upper()
    if column == "MemberID" and "MEMBER OUTPUT" in t:
        return "MemberID_out"
    if column == "MemberID" and "MEMBER-BASED" in t:
        return "MemberID_HydCCyl" if "CYLINDRICAL" in t else "MemberID_HydCRec"
    prefix = "Cyl" if "CYLINDRICAL" in t else "Rec" if "RECTANGULAR" in t else ""
    return prefix + column if prefix + column in oio else column


def _differences(mine: dict, oio: dict) -> list[str]:
    out = []
    folder = pathlib.Path(mine["file"]).parent
    for key, value in mine["values"].items():
        try:
            theirs = _lookup(oio, key)
        except (KeyError, IndexError):
            out.append(f"{key}: read by floatwind ({value!r}), not returned by openfast_io")
            continue
        if key in COUNTED:
            n = int(mine["values"].get(COUNTED[key]) or 0)
            value = (value if isinstance(value, list) else [value])[:n]
            theirs = list(np.atleast_1d(theirs))[:n]
        if isinstance(theirs, list) and len(theirs) == 1 and isinstance(theirs[0], str):
            theirs = theirs[0]
        if isinstance(value, str) and isinstance(theirs, str) and pathlib.Path(theirs).is_absolute():
            # a file name: openfast_io returns it resolved against the file's folder
            value = str((folder / value.strip("\"'")).resolve())
            theirs = str(pathlib.Path(theirs).resolve())
        if not _same(value, theirs):
            out.append(f"{key}: floatwind {value!r} != openfast_io {theirs!r}")
    for title, table in mine["tables"].items():
        for j, col in enumerate(table["columns"]):
            key = _table_key(title, col, oio)
            column = [row[j] for row in table["rows"] if j < len(row)]
            if key not in oio:
                out.append(f"table {title!r} column {col}: not returned by openfast_io")
                continue
            theirs = oio[key]
            if isinstance(theirs, np.ndarray):
                theirs = theirs.tolist()
            if not isinstance(theirs, list):
                theirs = [theirs]
            if not _same(column, theirs):
                out.append(f"table {title!r} column {col}: floatwind {column!r} != {theirs!r}")
    return out


@pytest.mark.skipif(not DECKS, reason=f"no reference decks under {REFERENCE}")
@pytest.mark.parametrize("fst", DECKS, ids=lambda p: p.stem)
def test_every_setting_floatwind_reads_equals_openfast_io(fst):
    deck, vt = _read_both(fst)
    problems = []
    checked = 0
    for ours, theirs in MODULES.items():
        mine = deck[ours]
        if mine is None:
            continue
        problems += [f"{pathlib.Path(mine['file']).name}: {p}" for p in _differences(mine, vt[theirs])]
        checked += len(mine["values"])
    blades = deck[BLADE[0]]
    problems += [f"blade file: {p}" for p in _differences(blades[0], vt[BLADE[1]])]
    # the title line (line 2 of the .fst) is openfast_io's "description"
    assert deck["fst"]["title"] == vt["description"].strip()
    assert checked > 300
    assert not problems, "\n".join(problems)


@pytest.mark.skipif(not DECKS, reason=f"no reference decks under {REFERENCE}")
@pytest.mark.parametrize("fst", DECKS, ids=lambda p: p.stem)
def test_output_lists_equal_openfast_io(fst):
    deck, vt = _read_both(fst)
    for ours, module in OUTLIST_MODULE.items():
        mine = deck[ours]
        if mine is None:
            continue
        listed = {c.lower() for lst in mine["outlists"].values() for c in lst}
        theirs = {k.lower() for k, on in vt["outlist"][module].items() if on}
        # openfast_io starts from its table of channels, a few of them on by default, and turns
        # on the ones the file lists: floatwind's list is what it turned on
        defaults = {k.lower() for k, on in FstOutput[module].items() if on}
        assert listed <= theirs, (ours, sorted(listed - theirs))
        assert theirs - listed <= defaults, (ours, sorted(theirs - listed - defaults))
        assert listed or ours != "ElastoDyn", ours


MOORING_DECKS = [p for p in DECKS if "CompMooring" in p.read_text(encoding="latin-1")
                 and re.search(r"^\s*1\s+CompMooring", p.read_text(encoding="latin-1"), re.M)]


@pytest.mark.skipif(not MOORING_DECKS, reason="no reference deck with MAP++ (CompMooring = 1)")
@pytest.mark.parametrize("fst", MOORING_DECKS, ids=lambda p: p.stem)
def test_map_settings_equal_openfast_io(fst):
    """The MAP++ file a deck names, as floatwind's reader turns it into catenary lines (before
    MAP++'s 'repeat' copies), equals openfast_io's read of it: line type (Diam, MassDenInAir,
    EA, CB), node coordinates (Z = depth: the seabed), UnstrLen and the anchor/fairlead nodes
    of every line."""
    from floatwind.case.openfast.mooring import read_map

    deck, vt = _read_both(fst)
    moor = deck.get("Mooring")
    assert moor is not None and moor["kind"] == "map"
    depth = float(vt["Fst"]["WtrDpth"])  # SeaState's is "default": the .fst's
    ours = read_map(moor["file"], depth=depth)
    m = vt["MAP"]
    types = dict(zip(m["LineType"], range(len(m["LineType"]))))
    nodes = {int(n): i for i, n in enumerate(m["Node"])}

    def xyz(i):
        out = []
        for c in ("X", "Y", "Z"):
            v = m[c][i]
            out.append(-depth if isinstance(v, str) and v.lower() == "depth" else float(v))
        return out

    checked = 0
    for k in range(len(m["Line"])):
        ln = ours.lines[k]
        t = types[m["LineType"][k]]
        assert ln["diameter"] == pytest.approx(float(m["Diam"][t]), rel=1e-15)
        assert ln["mass_per_length"] == pytest.approx(float(m["MassDenInAir"][t]), rel=1e-15)
        assert ln["ea"] == pytest.approx(float(m["EA"][t]), rel=1e-15)
        assert ln["seabed_friction"] == pytest.approx(float(m["CB"][t]), rel=1e-15)
        assert ln["length"] == pytest.approx(float(m["UnstrLen"][k]), rel=1e-15)
        anch = nodes[int(m["NodeAnch"][k])]
        fair = nodes[int(m["NodeFair"][k])]
        assert m["Type"][anch].lower() == "fix" and m["Type"][fair].lower() == "vessel"
        np.testing.assert_allclose(ln["anchor"], xyz(anch), rtol=0, atol=1e-12)
        np.testing.assert_allclose(ln["fairlead"], xyz(fair), rtol=0, atol=1e-12)
        checked += 1
    assert checked == len(m["Line"]) >= 1


def test_the_comparison_sees_a_changed_setting():
    """A value, a matrix entry and a table cell changed in floatwind's parse are all reported."""
    fst = next((p for p in DECKS if "morison" in p.stem), None)
    if fst is None:
        pytest.skip("no reference deck with Morison members")
    deck, vt = _read_both(fst)
    hd = deck["HydroDyn"]
    assert not _differences(hd, vt["HydroDyn"])
    hd["values"]["WtrDens" if "WtrDens" in hd["values"] else "PtfmVol0"] = 1.0
    hd["values"]["AddCLin"][2][2] *= 1.000001
    table = next(t for t in hd["tables"].values() if "Jointzi" in t["columns"] and t["rows"])
    table["rows"][0][table["columns"].index("Jointzi")] += 1.0
    assert len(_differences(hd, vt["HydroDyn"])) == 3
