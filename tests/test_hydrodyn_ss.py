"""HydroDyn's state-space files, radiation ``<PotFile>.ss`` (RdtnMod = 2) and wave excitation
``<PotFile>.ssexctn`` (ExctnMod = 2): readers and writers (floatwind.loads.hydrodyn_ss, formats
of SS_Radiation.f90 / SS_Rad_Init and SS_Excitation.f90 / SS_Exc_Init), their refusals (one line
naming the file and the line) and the import of a deck with RdtnMod = 2 or ExctnMod = 2."""

from __future__ import annotations

import pathlib
import re

import numpy as np
import pytest
from conftest import deck_copy, set_deck_value

from floatwind.case.openfast import UnsupportedDeckError, import_openfast
from floatwind.errors import CaseError
from floatwind.loads.hydrodyn_ss import (
    HydroDynSS,
    HydroDynSSExctn,
    check_stable,
    read_checked_exctn,
    read_hydrodyn_ss,
    read_hydrodyn_ssexctn,
    write_hydrodyn_ss,
    write_hydrodyn_ssexctn,
)

REF = pathlib.Path("/work/shared/reference/openfast")
if not REF.is_dir():
    REF = pathlib.Path(__file__).resolve().parents[2] / "shared" / "reference" / "openfast"
REF07 = REF / "ref07_potential_decay"
REF08 = REF / "ref08_potential_regular"
needs_ref07 = pytest.mark.skipif(not REF07.is_dir(), reason="reference ref07 not available")
needs_ref08 = pytest.mark.skipif(not REF08.is_dir(), reason="reference ref08 not available")


def _stable_model(rng: np.random.Generator, per_dof=(2, 2, 4, 2, 4, 2)) -> HydroDynSS:
    """Block-diagonal model of damped oscillators, 2 states each (poles -s +- i w)."""
    n = sum(per_dof)
    a = np.zeros((n, n))
    for k in range(0, n, 2):
        s, w = rng.uniform(0.05, 2.0), rng.uniform(0.1, 3.0)
        a[k : k + 2, k : k + 2] = [[-s, w], [-w, -s]]
    b = rng.normal(size=(n, 6))
    c = rng.normal(size=(6, n)) * rng.choice([1e-300, 1e-5, 1.0, 3e6, 1e300], size=(6, n))
    c[0, 0], c[1, 1] = -0.0, 1.0 / 3.0
    return HydroDynSS(a, b, c, np.ones(6, dtype=bool), np.array(per_dof))


def _same_bits(x: np.ndarray, y: np.ndarray) -> bool:
    return x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()


def test_round_trip_is_bit_for_bit(tmp_path):
    rng = np.random.default_rng(26)
    ss = _stable_model(rng)
    ss = ss._replace(enabled=np.array([1, 1, 0, 1, 1, 1], dtype=bool))
    path = write_hydrodyn_ss(tmp_path / "hull.ss", ss, "floatwind test model")
    assert path == tmp_path / "hull.ss" and list(tmp_path.iterdir()) == [path]
    lines = path.read_text().splitlines()
    assert lines[:4] == ["floatwind test model", "1 1 0 1 1 1   !Enabled DOFs",
                         "16   !Radiation states", "2 2 4 2 4 2   !Radiation states per DOF"]  # fmt: skip
    assert len(lines) == 4 + 2 * 16 + 6
    got = read_hydrodyn_ss(path)
    for name in ("a", "b", "c"):
        assert _same_bits(getattr(got, name), np.asarray(getattr(ss, name), dtype=float)), name
    assert got.enabled.dtype == bool and got.enabled.tolist() == ss.enabled.tolist()
    assert got.states_per_dof.tolist() == [2, 2, 4, 2, 4, 2]
    check_stable(got, path)  # stable: no error


def test_writer_refuses_an_inconsistent_model(tmp_path):
    ss = _stable_model(np.random.default_rng(1))
    with pytest.raises(ValueError, match="one line"):
        write_hydrodyn_ss(tmp_path / "x.ss", ss, "two\nlines")
    with pytest.raises(ValueError, match="inconsistent"):
        write_hydrodyn_ss(tmp_path / "x.ss", ss._replace(b=ss.b[:, :5]), "h")
    c = ss.c.copy()
    c[3, 2] = np.inf
    with pytest.raises(ValueError, match="non-finite"):
        write_hydrodyn_ss(tmp_path / "x.ss", ss._replace(c=c), "h")
    assert not list(tmp_path.iterdir())


HAND = """SS_Fitting v1.00: State-Spaces Matrices obtained using FDI method, on 26-Nov-2026
1,1,1,1,1,1   %Enabled DOFs
  2           %Radiation states
0 0 2 0 0 0   %Radiation states per DOFs
-0.5, 1.25D0
-1.25, -0.5   trailing text is ignored, as Fortran's list-directed read does
0 0 1 0 0 0
0,0,0,0,0,0
0 0
0 0
-1.5E+04 2.5e4
0 0
0 0
0 0


"""


def test_hand_written_file_with_commas_and_comments(tmp_path):
    path = tmp_path / "hand.ss"
    path.write_text(HAND)
    ss = read_hydrodyn_ss(path)
    np.testing.assert_array_equal(ss.a, [[-0.5, 1.25], [-1.25, -0.5]])
    np.testing.assert_array_equal(ss.b, [[0, 0, 1, 0, 0, 0], [0, 0, 0, 0, 0, 0]])
    expect_c = np.zeros((6, 2))
    expect_c[2] = [-1.5e4, 2.5e4]
    np.testing.assert_array_equal(ss.c, expect_c)
    assert ss.enabled.tolist() == [True] * 6 and ss.states_per_dof.tolist() == [0, 0, 2, 0, 0, 0]
    check_stable(ss, path)


def _edit(line: int, text: str | None):
    """HAND with line ``line`` (1-based) replaced by ``text`` (None: the file cut before it)."""

    def make() -> str:
        lines = HAND.splitlines()
        if text is None:
            return "\n".join(lines[: line - 1]) + "\n"
        lines[line - 1] = text
        return "\n".join(lines) + "\n"

    return make


BAD = [
    ("flag not 0/1", _edit(2, "1 1 2 1 1 1"), 2, "0 or 1"),
    ("two bodies", _edit(2, "1 1 1 1 1 1 1 1 1 1 1 1"), 2, "more than 6 integers"),
    ("few flags", _edit(2, "1 1 1 1 1   !Enabled DOFs"), 2, "expected 6 integers"),
    ("N zero", _edit(3, "0"), 3, "must be positive"),
    ("N negative", _edit(3, "-2"), 3, "must be positive"),
    ("N not an integer", _edit(3, "2.0"), 3, "expected 1 integer (number of states)"),
    ("states per DOF sum", _edit(4, "0 0 1 0 0 0"), 4, "sum to the number of states 2"),
    ("A row too short", _edit(5, "-0.5"), 5, "expected 2 numbers (row 1 of A), got 1"),
    ("A row too long", _edit(6, "-1.25 -0.5 7"), 6, "more than 2 numbers (row 2 of A)"),
    ("empty row", _edit(7, ""), 7, "(row 1 of B), got 0"),
    ("not a number", _edit(8, "0 0 x 0 0 0"), 8, "got 2 before 'x'"),
    ("NaN", _edit(11, "NaN 2.5e4"), 11, "not a finite number: 'NaN'"),
    ("inf", _edit(12, "0 -Inf"), 12, "not a finite number: '-Inf'"),
    ("extra line", lambda: HAND.rstrip("\n") + "\n\n0 0\n", 16, "extra line after the 6 rows of C"),
    ("rows missing", _edit(12, None), 12, "the file ends after 11 lines; 2 states need 14"),
    ("header only", lambda: "title\n", 2, "the file ends after 1 line(s)"),
]  # fmt: skip


@pytest.mark.parametrize(("make", "line", "needle"), [pytest.param(*b[1:], id=b[0]) for b in BAD])
def test_malformed_file_is_refused_naming_file_and_line(tmp_path, make, line, needle):
    path = tmp_path / "bad.ss"
    path.write_text(make())
    with pytest.raises(CaseError) as err:
        read_hydrodyn_ss(path)
    msg = str(err.value)
    assert "\n" not in msg
    assert msg.startswith(f"{path}: field 'line {line}': "), msg
    assert needle in msg, msg


def test_missing_file_is_refused(tmp_path):
    path = tmp_path / "none.ss"
    with pytest.raises(CaseError) as err:
        read_hydrodyn_ss(path)
    assert str(err.value) == f"{path}: HydroDyn state-space radiation (.ss) file not found"


@pytest.mark.parametrize("pole", [0.05, 0.0], ids=["growing", "marginal"])
def test_unstable_model_is_refused(tmp_path, pole):
    ss = _stable_model(np.random.default_rng(7))
    a = ss.a.copy()
    a[4:6, 4:6] = [[pole, 2.0], [-2.0, pole]]
    path = write_hydrodyn_ss(tmp_path / "unstable.ss", ss._replace(a=a), "unstable")
    bad = read_hydrodyn_ss(path)  # the reader checks the format, not the dynamics
    with pytest.raises(CaseError) as err:
        check_stable(bad, path)
    msg = str(err.value)
    assert msg.startswith(f"{path}: unstable state-space radiation model") and "\n" not in msg


# ------------------------------------------------------------------------------ .ssexctn


def _stable_exctn(rng: np.random.Generator, wave_dir_deg: float = 30.0,
                  tc: float = -(0.1 + 0.2)) -> HydroDynSSExctn:  # fmt: skip
    """A wave-excitation model with the dynamics of :func:`_stable_model` (B a column)."""
    ss = _stable_model(rng)
    return HydroDynSSExctn(ss.a, ss.b[:, 2], ss.c, wave_dir_deg, tc, ss.states_per_dof)


def test_ssexctn_round_trip_is_bit_for_bit(tmp_path):
    ss = _stable_exctn(np.random.default_rng(26), wave_dir_deg=100.0 / 3.0)
    path = write_hydrodyn_ssexctn(tmp_path / "hull.ssexctn", ss, "floatwind test model")
    assert path == tmp_path / "hull.ssexctn" and list(tmp_path.iterdir()) == [path]
    lines = path.read_text().splitlines()
    assert lines[:5] == ["floatwind test model", f"{100.0 / 3.0!r}   !Wave direction (deg)",
                         "-0.30000000000000004   !Time offset Tc (s)", "16   !Excitation states",
                         "2 2 4 2 4 2   !Excitation states per DOF"]  # fmt: skip
    assert len(lines) == 5 + 2 * 16 + 6 and all(len(ln.split()) == 1 for ln in lines[21:37])
    got = read_hydrodyn_ssexctn(path)
    for name in ("a", "b", "c"):
        assert _same_bits(getattr(got, name), np.asarray(getattr(ss, name), dtype=float)), name
    assert got.b.shape == (16,)
    assert got.wave_dir_deg == 100.0 / 3.0 and got.tc == -(0.1 + 0.2)
    assert got.states_per_dof.tolist() == [2, 2, 4, 2, 4, 2]
    checked = read_checked_exctn(path, wave_dir_deg=100.0 / 3.0)  # stable, same direction
    assert _same_bits(checked.c, got.c) and checked.tc == got.tc


def test_ssexctn_writer_refuses_an_inconsistent_model(tmp_path):
    ss = _stable_exctn(np.random.default_rng(1))
    with pytest.raises(ValueError, match="one line"):
        write_hydrodyn_ssexctn(tmp_path / "x.ssexctn", ss, "two\rlines")
    with pytest.raises(ValueError, match="inconsistent"):  # B is a column, written as (n,)
        write_hydrodyn_ssexctn(tmp_path / "x.ssexctn", ss._replace(b=ss.b[:, None]), "h")
    with pytest.raises(ValueError, match="inconsistent"):
        write_hydrodyn_ssexctn(tmp_path / "x.ssexctn", ss._replace(states_per_dof=[16]), "h")
    with pytest.raises(ValueError, match="non-finite"):
        write_hydrodyn_ssexctn(tmp_path / "x.ssexctn", ss._replace(tc=np.nan), "h")
    b = ss.b.copy()
    b[3] = -np.inf
    with pytest.raises(ValueError, match="non-finite"):
        write_hydrodyn_ssexctn(tmp_path / "x.ssexctn", ss._replace(b=b), "h")
    assert not list(tmp_path.iterdir())


HAND_EXCTN = """SS_Fitting v1.00: State-Spaces Matrices obtained using FDI method, on 26-Nov-2026
  3.0D1       %Wave direction (deg)
 -12.5        %Time offset (s)
  2           %Excitation states
0,0,2,0,0,0   %Excitation states per DOFs
-0.5, 1.25D0
-1.25 -0.5   trailing text is ignored, as Fortran's list-directed read does
1.0
0,  see above
0 0
0 0
-1.5E+04 2.5e4
0 0
0 0
0 0


"""


def test_hand_written_ssexctn_with_commas_and_comments(tmp_path):
    path = tmp_path / "hand.ssexctn"
    path.write_text(HAND_EXCTN)
    ss = read_hydrodyn_ssexctn(path)
    np.testing.assert_array_equal(ss.a, [[-0.5, 1.25], [-1.25, -0.5]])
    np.testing.assert_array_equal(ss.b, [1.0, 0.0])
    expect_c = np.zeros((6, 2))
    expect_c[2] = [-1.5e4, 2.5e4]
    np.testing.assert_array_equal(ss.c, expect_c)
    assert (ss.wave_dir_deg, ss.tc) == (30.0, -12.5)  # Tc of any sign, as HydroDyn
    assert ss.states_per_dof.tolist() == [0, 0, 2, 0, 0, 0]
    check_stable(ss, path)


def _edit_exctn(line: int, text: str | None):
    """HAND_EXCTN with line ``line`` (1-based) replaced by ``text`` (None: the file cut before
    it)."""

    def make() -> str:
        lines = HAND_EXCTN.splitlines()
        if text is None:
            return "\n".join(lines[: line - 1]) + "\n"
        lines[line - 1] = text
        return "\n".join(lines) + "\n"

    return make


BAD_EXCTN = [
    ("WaveDir not a number", _edit_exctn(2, "WaveDir"), 2, "expected 1 number (wave direction WaveDir), got 'WaveDir'"),
    ("WaveDir NaN", _edit_exctn(2, "NaN"), 2, "not a finite number: 'NaN' (wave direction WaveDir)"),
    ("two WaveDirs", _edit_exctn(2, "30 45"), 2, "more than 1 number (wave direction WaveDir)"),
    ("Tc missing", _edit_exctn(3, "   !Time offset"), 3, "expected 1 number (time offset Tc), got '!Time'"),
    ("Tc empty", _edit_exctn(3, ""), 3, "expected 1 number (time offset Tc), got 0"),
    ("Tc inf", _edit_exctn(3, "+Infinity"), 3, "not a finite number: '+Infinity' (time offset Tc)"),
    ("N zero", _edit_exctn(4, "0"), 4, "must be positive"),
    ("N negative", _edit_exctn(4, "-2"), 4, "must be positive"),
    ("N not an integer", _edit_exctn(4, "2.0"), 4, "expected 1 integer (number of states)"),
    ("states per DOF sum", _edit_exctn(5, "0 0 1 0 0 0"), 5, "sum to the number of states 2 (line 4)"),
    ("few states per DOF", _edit_exctn(5, "0 0 2 0 0"), 5, "expected 6 integers (states per DOF), got 5"),
    ("A row too short", _edit_exctn(6, "-0.5"), 6, "expected 2 numbers (row 1 of A), got 1"),
    ("A row too long", _edit_exctn(7, "-1.25 -0.5 7"), 7, "more than 2 numbers (row 2 of A)"),
    ("B row of a .ss", _edit_exctn(8, "1 0 0 0 0 0"), 8, "more than 1 number (row 1 of B)"),
    ("empty B row", _edit_exctn(9, ""), 9, "expected 1 number (row 2 of B), got 0"),
    ("not a number", _edit_exctn(10, "0 x"), 10, "got 1 before 'x'"),
    ("NaN", _edit_exctn(12, "NaN 2.5e4"), 12, "not a finite number: 'NaN' (row 3 of C)"),
    ("extra line", lambda: HAND_EXCTN.rstrip("\n") + "\n\n0 0\n", 17, "extra line after the 6 rows of C"),
    ("rows missing", _edit_exctn(13, None), 13, "the file ends after 12 lines; 2 states need 15 (2 rows of A, 2 of B, 6 of C after 5 lines)"),
    ("header lines only", lambda: "title\n30\n0\n2\n", 5, "the file ends after 4 line(s)"),
]  # fmt: skip


@pytest.mark.parametrize(("make", "line", "needle"),
                         [pytest.param(*b[1:], id=b[0]) for b in BAD_EXCTN])  # fmt: skip
def test_malformed_ssexctn_is_refused_naming_file_and_line(tmp_path, make, line, needle):
    path = tmp_path / "bad.ssexctn"
    path.write_text(make())
    with pytest.raises(CaseError) as err:
        read_hydrodyn_ssexctn(path)
    msg = str(err.value)
    assert "\n" not in msg
    assert msg.startswith(f"{path}: field 'line {line}': "), msg
    assert needle in msg, msg


def test_missing_ssexctn_is_refused(tmp_path):
    path = tmp_path / "none.ssexctn"
    for read in (read_hydrodyn_ssexctn, read_checked_exctn):
        with pytest.raises(CaseError) as err:
            read(path)
        msg = f"{path}: HydroDyn state-space wave-excitation (.ssexctn) file not found"
        assert str(err.value) == msg


@pytest.mark.parametrize(
    ("in_file", "sea_state", "same"),
    [(30.0, 30.0, True), (30.0, 30.0001, True), (30.0, 30.001, False), (30.0, -30.0, False),
     (0.0, 1e-6, True), (0.0, 1e-5, False), (-0.0, 0.0, True)],
)  # fmt: skip
def test_ssexctn_wave_direction_is_compared_as_hydrodyn(tmp_path, in_file, sea_state, same):
    ss = _stable_exctn(np.random.default_rng(4), wave_dir_deg=in_file)
    path = write_hydrodyn_ssexctn(tmp_path / "dir.ssexctn", ss, "made for one direction")
    assert read_checked_exctn(path).wave_dir_deg == in_file  # no direction given: not compared
    if same:
        assert read_checked_exctn(path, wave_dir_deg=sea_state).wave_dir_deg == in_file
        return
    with pytest.raises(CaseError) as err:
        read_checked_exctn(path, wave_dir_deg=sea_state)
    msg = str(err.value)
    assert "\n" not in msg and msg.startswith(f"{path}: field 'line 2': "), msg
    assert f"wave direction {in_file:g} deg" in msg and f"WaveDir is {sea_state:g} deg" in msg


@pytest.mark.parametrize("pole", [0.05, 0.0], ids=["growing", "marginal"])
def test_unstable_ssexctn_is_refused(tmp_path, pole):
    ss = _stable_exctn(np.random.default_rng(7))
    a = ss.a.copy()
    a[4:6, 4:6] = [[pole, 2.0], [-2.0, pole]]
    path = write_hydrodyn_ssexctn(tmp_path / "unstable.ssexctn", ss._replace(a=a), "unstable")
    assert read_hydrodyn_ssexctn(path).a[4, 4] == pole  # the reader checks the format only
    with pytest.raises(CaseError) as err:
        read_checked_exctn(path, wave_dir_deg=30.0)
    msg = str(err.value)
    assert msg.startswith(f"{path}: unstable state-space wave-excitation model") and "\n" not in msg


# --------------------------------------------------------------------------------- import


def _ref07(tmp_path: pathlib.Path, rdtn_mod: str) -> pathlib.Path:
    """A writable copy of ref07 with RdtnMod set to ``rdtn_mod``."""
    fst = deck_copy(REF07, tmp_path)
    set_deck_value(fst.parent / "HydroDyn.dat", "RdtnMod", rdtn_mod)
    return fst


def _radiation(res) -> dict:
    (load,) = [ld for ld in res["case"]["loads"] if ld["type"] == "potential_radiation"]
    return load


@needs_ref07
def test_import_maps_rdtnmod_2_to_the_ss_file(tmp_path):
    fst = _ref07(tmp_path, "1")
    conv = _radiation(import_openfast(fst))
    fst = _ref07(tmp_path / "b", "2")
    ss_path = write_hydrodyn_ss(fst.parent / "HydroData" / "spar.ss",
                                _stable_model(np.random.default_rng(3)), "fitted elsewhere")  # fmt: skip
    res = import_openfast(fst)
    load = _radiation(res)
    wamit = str((fst.parent / "HydroData" / "spar").resolve())
    assert pathlib.Path(load["wamit"]).resolve() == pathlib.Path(wamit)
    assert load == {"type": "potential_radiation", "name": "hydrodyn_wamit_radiation",
                    "body": "platform", "wamit": load["wamit"], "ulen": 1.0,
                    "point": [0.0, 0.0, 0.0], "model": "state_space",
                    "ss_file": load["wamit"] + ".ss"}  # fmt: skip
    assert pathlib.Path(load["ss_file"]).samefile(ss_path)
    assert {k: conv[k] for k in ("ulen", "point")} == {k: load[k] for k in ("ulen", "point")}
    assert "memory" in conv and "rdtn_tmax" in conv  # RdtnMod = 1 keeps the convolution's keys
    assert any("state-space (.ss file)" in n for n in res["notes"])
    # RdtnDT is HydroDyn's step for the .ss states: not refused with RdtnMod = 2
    hd = fst.parent / "HydroDyn.dat"
    text = hd.read_text(encoding="latin-1")
    hd.write_text(re.sub(r"^\s*\S+(\s+RdtnDT\s)", r"   0.05\g<1>", text, count=1, flags=re.M),
                  encoding="latin-1")  # fmt: skip
    assert _radiation(import_openfast(fst)) == load


@needs_ref07
def test_import_refuses_a_missing_ss_file(tmp_path):
    fst = _ref07(tmp_path, "2")
    expected = (fst.parent / "HydroData" / "spar.ss").resolve()
    with pytest.raises(CaseError) as err:
        import_openfast(fst)
    msg = str(err.value)
    assert "\n" not in msg and "RdtnMod = 2" in msg and "does not exist" in msg, msg
    named = re.search(r"reads (\S+\.ss),", msg)
    assert named is not None and pathlib.Path(named.group(1)).resolve() == expected, msg


@needs_ref07
@pytest.mark.parametrize(
    ("edit", "line", "needle"),
    [
        (lambda t: t.replace("16   !Radiation states", "17   !Radiation states"), 4, "sum to"),
        (lambda t: t.replace("1 1 1 1 1 1   !Enabled", "1 1 1 1 1 0   !Enabled"), 2,
         "HydroDyn needs all six enabled"),
        (lambda t: t, None, "unstable state-space radiation model"),
    ],
    ids=["malformed", "disabled DOF", "unstable"],
)  # fmt: skip
def test_import_refuses_a_bad_ss_file(tmp_path, edit, line, needle):
    fst = _ref07(tmp_path, "2")
    ss = _stable_model(np.random.default_rng(5))
    if line is None:
        ss = ss._replace(a=-ss.a)
    path = write_hydrodyn_ss(fst.parent / "HydroData" / "spar.ss", ss, "bad")
    path.write_text(edit(path.read_text()))
    with pytest.raises(CaseError) as err:
        import_openfast(fst)
    msg = str(err.value)
    assert "\n" not in msg and needle in msg, msg
    where = f"{path.resolve()}: field 'line {line}'" if line else f"{path.resolve()}: "
    assert msg.replace(str(path), str(path.resolve())).startswith(where), msg


def _ref08(tmp_path: pathlib.Path, exctn_mod: str) -> pathlib.Path:
    """A writable copy of ref08 (regular waves) with ExctnMod set to ``exctn_mod``."""
    fst = deck_copy(REF08, tmp_path)
    set_deck_value(fst.parent / "HydroDyn.dat", "ExctnMod", exctn_mod)
    return fst


def _sea_state_wave_dir(fst: pathlib.Path) -> float:
    """SeaState's WaveDir (deg) as the deck's file says it."""
    text = (fst.parent / "SeaState.dat").read_text(encoding="latin-1")
    m = re.search(r"^\s*(\S+)\s+WaveDir\s", text, flags=re.M)
    assert m is not None
    return float(m.group(1))


def _excitation(res) -> dict:
    (load,) = [ld for ld in res["case"]["loads"] if ld["type"] == "potential_excitation"]
    return load


@needs_ref08
@pytest.mark.parametrize("wave_dir", [None, "30"], ids=["ref08", "WaveDir 30"])
def test_import_maps_exctnmod_2_to_the_ssexctn_file(tmp_path, wave_dir):
    dft = _excitation(import_openfast(_ref08(tmp_path, "1")))
    fst = _ref08(tmp_path / "b", "2")
    if wave_dir is not None:
        set_deck_value(fst.parent / "SeaState.dat", "WaveDir", wave_dir)
    data = fst.parent / "HydroData"
    ss = _stable_exctn(np.random.default_rng(3), wave_dir_deg=_sea_state_wave_dir(fst), tc=8.5)
    ss_path = write_hydrodyn_ssexctn(data / "spar.ssexctn", ss, "fitted elsewhere")
    (data / "spar.3").unlink()  # HydroDyn reads no .3 with ExctnMod = 2
    res = import_openfast(fst)
    load = _excitation(res)
    wamit = str((data / "spar").resolve())
    assert pathlib.Path(load["wamit"]).resolve() == pathlib.Path(wamit)
    assert load == {"type": "potential_excitation", "name": "hydrodyn_wamit_excitation",
                    "body": "platform", "wamit": load["wamit"], "ulen": 1.0,
                    "point": [0.0, 0.0, 0.0], "model": "state_space",
                    "ss_file": load["wamit"] + ".ssexctn"}  # fmt: skip
    assert pathlib.Path(load["ss_file"]).samefile(ss_path)
    assert {k: v for k, v in load.items() if k not in ("model", "ss_file", "wamit")} == {
        k: v for k, v in dft.items() if k != "wamit"}  # fmt: skip
    assert any("state-space potential_excitation (.ssexctn)" in n for n in res["notes"])
    # the radiation (RdtnMod = 1 in ref08) is as with ExctnMod = 1
    (rad,) = [ld for ld in res["case"]["loads"] if ld["type"] == "potential_radiation"]
    assert "memory" in rad and "ss_file" not in rad


@needs_ref08
def test_import_without_waves_reads_the_ssexctn_file_but_adds_no_excitation(tmp_path):
    fst = _ref08(tmp_path, "2")
    set_deck_value(fst.parent / "SeaState.dat", "WaveMod", "0")
    ss = _stable_exctn(np.random.default_rng(3), wave_dir_deg=45.0)  # WaveDir unused: no check
    path = write_hydrodyn_ssexctn(fst.parent / "HydroData" / "spar.ssexctn", ss, "still water")
    res = import_openfast(fst)
    assert not [ld for ld in res["case"]["loads"] if ld["type"] == "potential_excitation"]
    write_hydrodyn_ssexctn(path, ss._replace(a=-ss.a), "unstable")  # still read, as HydroDyn
    with pytest.raises(CaseError, match="unstable state-space wave-excitation model"):
        import_openfast(fst)


@needs_ref08
def test_import_refuses_a_missing_ssexctn_file(tmp_path):
    fst = _ref08(tmp_path, "2")
    expected = (fst.parent / "HydroData" / "spar.ssexctn").resolve()
    with pytest.raises(CaseError) as err:
        import_openfast(fst)
    msg = str(err.value)
    assert "\n" not in msg and "field 'ExctnMod'" in msg, msg
    assert "ExctnMod = 2 (state-space wave excitation)" in msg and "does not exist" in msg, msg
    named = re.search(r"reads (\S+\.ssexctn),", msg)
    assert named is not None and pathlib.Path(named.group(1)).resolve() == expected, msg


@needs_ref08
@pytest.mark.parametrize(
    ("edit", "line", "needle"),
    [
        (lambda ss: ss._replace(wave_dir_deg=ss.wave_dir_deg + 10.0), 2, "but SeaState's WaveDir is 0 deg"),
        (lambda ss: ss._replace(tc=np.inf), 3, "not a finite number: 'inf' (time offset Tc)"),
        (lambda ss: ss._replace(a=-ss.a), None, "unstable state-space wave-excitation model"),
    ],
    ids=["wrong WaveDir", "Tc inf", "unstable"],
)  # fmt: skip
def test_import_refuses_a_bad_ssexctn_file(tmp_path, edit, line, needle):
    fst = _ref08(tmp_path, "2")
    ss = _stable_exctn(np.random.default_rng(5), wave_dir_deg=_sea_state_wave_dir(fst))
    path = fst.parent / "HydroData" / "spar.ssexctn"
    write_hydrodyn_ssexctn(path, ss, "bad")
    bad = edit(ss)
    text = path.read_text().splitlines()
    text[1:3] = [repr(float(bad.wave_dir_deg)), repr(float(bad.tc))]
    text[5:21] = [" ".join(repr(float(v)) for v in row) for row in bad.a]
    path.write_text("\n".join(text) + "\n")
    with pytest.raises(CaseError) as err:
        import_openfast(fst)
    msg = str(err.value)
    assert "\n" not in msg and needle in msg, msg
    where = f"{path.resolve()}: field 'line {line}'" if line else f"{path.resolve()}: "
    assert msg.replace(str(path), str(path.resolve())).startswith(where), msg


@needs_ref08
def test_import_refuses_exctndisp_with_state_space_excitation(tmp_path):
    fst = _ref08(tmp_path, "2")
    set_deck_value(fst.parent / "HydroDyn.dat", "ExctnDisp", "1")
    with pytest.raises(UnsupportedDeckError) as err:
        import_openfast(fst)
    (line,) = [ln for ln in err.value.lines if "ExctnDisp" in ln]
    assert "HydroDyn.dat: ExctnDisp = 1" in line and "use 0" in line, err.value.lines
