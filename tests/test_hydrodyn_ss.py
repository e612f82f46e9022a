"""HydroDyn's state-space radiation file ``<PotFile>.ss`` (RdtnMod = 2): reader and writer
(floatwind.loads.hydrodyn_ss, format of SS_Radiation.f90 / SS_Rad_Init), its refusals (one line
naming the file and the line) and the import of a deck with RdtnMod = 2."""

from __future__ import annotations

import pathlib
import re
import shutil
import stat

import numpy as np
import pytest

from floatwind.case.openfast_import import import_openfast
from floatwind.errors import CaseError
from floatwind.loads.hydrodyn_ss import (
    HydroDynSS,
    check_stable,
    read_hydrodyn_ss,
    write_hydrodyn_ss,
)

REF = pathlib.Path("/work/shared/reference/openfast")
if not REF.is_dir():
    REF = pathlib.Path(__file__).resolve().parents[2] / "shared" / "reference" / "openfast"
REF07 = REF / "ref07_potential_decay"
needs_ref07 = pytest.mark.skipif(not REF07.is_dir(), reason="reference ref07 not available")


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


# --------------------------------------------------------------------------------- import


def _ref07(tmp_path: pathlib.Path, rdtn_mod: str) -> pathlib.Path:
    """A writable copy of ref07 with RdtnMod set to ``rdtn_mod``."""
    dst = tmp_path / "ref07"
    shutil.copytree(REF07, dst, ignore=shutil.ignore_patterns("*.out", "*.outb", "*.sum"))
    for p in dst.rglob("*"):
        p.chmod(p.stat().st_mode | stat.S_IWUSR)
    hd = dst / "HydroDyn.dat"
    text, n = re.subn(r"^(\s*)\d+(\s+RdtnMod\s)", rf"\g<1>{rdtn_mod}\g<2>",
                      hd.read_text(encoding="latin-1"), count=1, flags=re.M)  # fmt: skip
    assert n == 1
    hd.write_text(text, encoding="latin-1")
    return dst / "ref07_potential_decay.fst"


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
