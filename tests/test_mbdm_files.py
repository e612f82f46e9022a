"""MBDM input files (issue 19, item 6; Leble seed 001 sec. 7, 10): the note's three examples in
cases/mbdm/ load (with the printed quirks) and run to the closed forms of
tests/test_mbdm_kinematics.py / tests/test_mbdm_dynamics.py; malformed files give one-line
errors naming file, line and field; ``floatwind mbdm`` writes body_position / body_quaternion and
exits with status 2 on bad input. Fast versions: short end times."""

from __future__ import annotations

import dataclasses
import pathlib
import types

import numpy as np
import pytest
import xarray as xr

from floatwind.case.mbdm_files import read_mbdm
from floatwind.cli import main
from floatwind.errors import CaseError
from floatwind.multibody.mbdm import energy
from floatwind.simulate.mbdm import run_mbdm, states_from_dataset
from tests.test_mbdm_dynamics import (
    _analytic,
    _check_slider_crank,
    _crank_angle,
    gas_work_potential,
    lagrangian_crank,
)
from tests.test_mbdm_kinematics import _closed_form
from validation.mbdm import forces as _gas94  # noqa: F401  (registers 'gas force (94)')

ROOT = pathlib.Path(__file__).resolve().parents[1]
CASES = ROOT / "cases" / "mbdm"
SPRING = CASES / "body_on_spring" / "mbdm"
KINEMATIC = CASES / "slider_crank_kinematic" / "mbdm"
DYNAMIC = CASES / "slider_crank_dynamic" / "mbdm"


# --- the note's examples -------------------------------------------------------------------------


def test_examples_read_with_the_printed_quirks():
    m = read_mbdm(SPRING)
    assert (m.name, m.dynamic, m.body_names, m.dt) == ("TestCase_1", True, ("body",), 1e-3)
    (ln,) = m.lines  # Table 23, beside the main file
    assert (ln.body, ln.anchor, ln.fairlead, ln.l0, ln.k, ln.b) == (0, (0, 0, 2.0), (0, 0, 0.5),
                                                                    1.5, 1e4, 0.0)  # fmt: skip
    assert m.gravity == (0.0, 0.0, -9.81)  # Listing 2, no forces file
    k = read_mbdm(KINEMATIC)
    assert k.body_names == ("crank", "rod", "slider", "ground") and not k.dynamic
    # 'angles ...: 0, 0,' continued on the next line; 'omega: 0, 0, 0 mass: 35' split
    assert k.bodies[0].angles[2] == pytest.approx(np.pi / 4, abs=1e-15)
    assert k.bodies[1].mass == 35.0 and np.all(k.bodies[1].omega == 0)
    types_ = [j.type for j in k.joints]
    assert types_ == ["R", "R", "C", "ABY", "ABZ", "G", "RDRV", "RDRV"]
    assert k.joints[7].q1 == (0.0, 0.0, 1.0)  # the second 'q1: 0, 0, 0' is no axis: ignored
    assert k.joints[7].dist == pytest.approx(2 * np.pi)
    assert k.joint_lines[0] == 53
    d = read_mbdm(DYNAMIC)
    assert d.body_names == ("crank", "rod", "slider", "ground") and d.dynamic  # 'name: slider angles'
    assert len(d.joints) == 7 and d.gravity == (-9.81, 0.0, 0.0)
    assert [f.type for f in d.forces] == ["moment", "gas force (94)"]
    assert d.joints[4].type == "ABZ"  # 'pl', 'ql', 'rl' read as p1, q1, r1


def test_body_on_spring_file_matches_eq93():
    ds = run_mbdm(read_mbdm(SPRING), t_end=0.3)
    z, _, _ = _analytic(ds.time.values)
    assert ds.time.size == 31  # saved every 10 steps of 1e-3 s
    err = np.max(np.abs(ds.body_position.sel(body="body", axis="z").values - z))
    assert err < 1e-6, err
    np.testing.assert_allclose(ds.body_quaternion.values[:, 0], [[1, 0, 0, 0]] * 31, atol=1e-14)
    assert float(ds.constraint_drift_position.max()) < 1e-12
    f = ds.line_tension.sel(line="Mooring 1").values  # f = k (l - l0), l = 1.5 - z
    np.testing.assert_allclose(f, -1e4 * ds.body_position.sel(body="body", axis="z"), atol=1e-8)


def test_slider_crank_kinematic_file_matches_closed_form():
    ds = run_mbdm(read_mbdm(KINEMATIC), t_end=0.25)
    x, dx, _ = _closed_form(ds.time.values)
    ex = np.max(np.abs(ds.body_position.sel(body="slider", axis="x").values - x))
    ev = np.max(np.abs(ds.body_velocity.sel(body="slider", axis="x").values - dx))
    assert ex < 1e-8 and ev < 1e-8, (ex, ev)
    assert float(ds.constraint_drift_position.max()) < 1e-8


def _gas_and_angle_checks(ds, model, phi0, phid0):
    q, qd = states_from_dataset(ds)
    t = ds.time.values
    phi = _crank_angle(q)
    err = np.max(np.abs(phi - lagrangian_crank(t, (phi0, phid0))))
    x3, v3 = q[:, 2, 0], qd[:, 2, 0]
    strokes = np.cumsum(np.r_[0, (v3[1:] <= 0) & (v3[:-1] > 0)])
    g0, g1 = gas_work_potential(1.5), gas_work_potential(5.5)
    w_gas = strokes * (g1 - g0) + np.where(v3 > 0, gas_work_potential(x3) - g0, 0.0)
    w_torque = 41450.0 * (phi - phi[0])
    kin, pot = energy(model.dynamic_system(), q, qd)
    rel = np.max(np.abs(kin - kin[0] + pot - pot[0] - w_torque - w_gas)) / np.max(np.abs(w_torque))
    return err, rel


def test_slider_crank_dynamic_file_as_printed_against_lagrangian():
    """Table 28 as printed (the rod at y = 0.7066 m): the assembly corrects the state; from the
    assembled phi(0), phidot(0) the crank follows the one-dof Lagrangian model of
    test_mbdm_dynamics, and the energy balances (torque + gas work of eq. 94)."""
    model = read_mbdm(DYNAMIC)
    ds = run_mbdm(model, t_end=0.15, dt=5e-4)
    assert "rod" in ds.attrs["assembly"]
    q, qd = states_from_dataset(ds)
    phi0 = _crank_angle(q[:1])[0]
    assert abs(phi0 - np.pi) < 0.06  # mass-weighted assembly: the rod moves, not the crank
    err, rel = _gas_and_angle_checks(ds, model, phi0, ds.body_angular_velocity.values[0, 0, 2])
    assert err < 1e-6 and rel < 1e-6, (err, rel)
    assert float(ds.constraint_drift_position.max()) < 1e-7


@pytest.mark.parametrize("method", ["partitioning", "baumgarte"])
def test_slider_crank_dynamic_file_with_table27_state(method):
    """With Table 27's rod position (y = 0) and spin 60/3.5 the assembled state is phi = pi,
    phidot = 30 rad/s: test_mbdm_dynamics' own check (Lagrangian crank angle, energy) passes."""
    model = read_mbdm(DYNAMIC)
    rod = dataclasses.replace(model.bodies[1], r=np.array([-0.25, 0.0, 0.0]),
                              omega=np.array([0.0, 0.0, 60.0 / 3.5]))  # fmt: skip
    model = dataclasses.replace(model, bodies=(model.bodies[0], rod) + model.bodies[2:])
    ds = run_mbdm(model, t_end=0.15, dt=5e-4, method=method)
    assert ds.attrs["assembly"] == ""
    q, qd = states_from_dataset(ds)
    res = types.SimpleNamespace(time=ds.time.values, q=q, qdot=qd)
    _check_slider_crank(res, model.dynamic_system(), 1e-6, 1e-6)


# --- tolerated forms of the note's other listings ------------------------------------------------

TABLE3 = """Name: One_ground_body
Kinematic (0), Dynamic (1): 0
Number of bodies : 1
Number of joints (including drivers): 1
t_start: 0
t_end: 1
dt: 0.001
N-R accuracy: 1e-8
N-R steps: 100
Save output every (n) steps: 10
Save checkpoint every (n) steps: 100
Save tracers every (n) steps: 10
name: ground
angles (1-2-3 \\text{ notation}): 0, 0, 0
r: 0, 0, 0
v: 0, 0, 0
omega: 0, 0, 0
mass: 200
I(1,1-3): 450, 0.0, 0.0
I(2,1-3): 0.0, 450, 0.0
I(3,1-3): 0.0, 0.0, 450
Joint 1
type: G
bodies: 1, 0
p1: 0, 0, 0
q1: 0, 0, 0
r1: 0, 0, 0
p2: 0, 0, 0
q2: 0, 0, 0
r2: 0, 0, 0
dist: 0
"""


def test_table3_without_a_body_line_and_table9_bare_name(tmp_path):
    f = tmp_path / "mbdm"
    f.write_text(TABLE3)
    m = read_mbdm(f)
    assert m.body_names == ("ground",) and m.joints[0].type == "G"
    ds = run_mbdm(m, t_end=0.01)
    assert ds.body_position.shape == (2, 1, 3) and float(ds.constraint_drift_position.max()) == 0
    two = TABLE3.replace("Name: One_ground_body", "Test_case").replace(
        "Number of bodies : 1", "Number of bodies: 2").replace("dist: 0\n", "dist: 0\n\n")
    two = two.replace("Joint 1\n", "\nBody 2\nname: another\nangles (1-2-3 notation): 0, 0, 0\n"
                      "r: 10, 0, 0\nv: 0, 0, 0\nomega: 0, 0, 0\nmass: 1\nI(1,1-3): 1, 0, 0\n"
                      "I(2,1-3): 0, 1, 0\nI(3,1-3): 0, 0, 1\n\nJoint 1\n")  # fmt: skip
    two = two.replace("Kinematic (0), Dynamic (1): 0", "Kinematic (0), Dynamic (1): 1")
    f.write_text(two)
    m = read_mbdm(f)
    assert m.name == "Test_case" and m.body_names == ("ground", "another")


# --- malformed files: one line naming file, line and field ---------------------------------------

#: (id, file to start from, [(old, new)], line, field text, reason text)
BAD = [
    ("missing body block", KINEMATIC,
     [("Body 4\nname: ground\nangles (1-2-3 \\text{ notation}): 0, 0, 0\nr: 0.0, 0.0, 0.0\n"
       "v: 0, 0, 0\nomega: 0, 0, 0\nmass: 1\nI(1,1-3): 1.0, 0.0, 0.0\nI(2,1-3): 0.0, 1.0, 0.0\n"
       "I(3,1-3): 0.0, 0.0, 1.0\n", "")],
     3, "Number of bodies", "says 4, but the file defines 3 body blocks"),
    ("body after the joints", KINEMATIC, [("Joint 2\n", "Body 5\nJoint 2\n")],
     63, "Body 5", "bodies must all come before the joints"),
    ("body block count", KINEMATIC, [("Number of bodies: 4", "Number of bodies: 5")],
     3, "Number of bodies", "says 5, but the file defines 4 body blocks"),
    ("joint names an unknown body", KINEMATIC, [("bodies: 1, 4", "bodies: 1, 5")],
     55, "Joint 1.bodies", "second body 5 does not exist"),
    ("first body is the ground", KINEMATIC, [("bodies: 1, 4", "bodies: 0, 4")],
     55, "Joint 1.bodies", "first body 0 does not exist"),
    ("non-numeric inertia", KINEMATIC, [("I(2,1-3): 0.0, 450, 0.0", "I(2,1-3): 0.0, 4S0, 0.0")],
     22, "Body 1.I(2,1-3)", "'4S0' is not a number"),
    ("wrong number of values", KINEMATIC, [("r: 3.0152, 0.7066, 0.0", "r: 3.0152, 0.7066")],
     27, "Body 2.r", "expected 3 comma-separated numbers, got 2"),
    ("unknown joint type", KINEMATIC, [("type: C", "type: CYL")],
     74, "Joint 3.type", "unknown joint type 'CYL'"),
    ("redundant constraint set", KINEMATIC,
     [("Number of joints (including drivers): 8", "Number of joints (including drivers): 9"),
      ("dist: 6.28318530717958647692\n", "dist: 6.28318530717958647692\nJoint 9\ntype: ABZ\n"
       "bodies: 3, 0\np1: 0, 0, 0\nq1: 0, 0, 0\nr1: 0, 0, 0\np2: 0, 0, 0\nq2: 0, 0, 0\n"
       "r2: 0, 0, 0\ndist: 0\n")],
     144, "Joint 9", "redundant constraints"),
    ("joint block count", KINEMATIC, [("Number of joints (including drivers): 8",
                                       "Number of joints (including drivers): 7")],
     4, "Number of joints", "says 7, but the file defines 8 joint blocks"),
    ("not driven", KINEMATIC, [("Number of joints (including drivers): 8",
                                "Number of joints (including drivers): 7"),
                               ("\nJoint 8\n", None)],
     4, "Number of joints", "1 degrees of freedom are not driven"),
    ("missing joint field", KINEMATIC, [("r2: 0, 0, 0\ndist: 0\nJoint 2", "r2: 0, 0, 0\nJoint 2")],
     53, "Joint 1.dist", "missing field 'dist'"),
    ("misspelled body field", SPRING, [("mass: 60", "mas: 60")],
     19, "Body 1", "unknown field 'mas' (did you mean 'mass'?)"),
    ("negative mass", SPRING, [("mass: 60", "mass: -60")], 19, "Body 1.mass", "must be > 0"),
    ("indefinite inertia", SPRING, [("I(3,1-3): 0.00, 0.00, 10.0", "I(3,1-3): 0.00, 0.00, -10.0")],
     20, "Body 1.I", "not positive definite"),
    ("a field twice, two values", SPRING, [("r: 0, 0, 0", "r: 0, 0, 0\nr: 0, 0, 1")],
     17, "Body 1.r", "given twice with different values (lines 16 and 17)"),
    ("analysis type", SPRING, [("Dynamic (1): 1", "Dynamic (1): 2")],
     2, "Kinematic (0), Dynamic (1)", "0 (kinematic) or 1 (dynamic)"),
    ("dt does not divide", SPRING, [("dt: 1e-3", "dt: 0.3")], 7, "dt", "not a whole number"),
    ("missing header line", SPRING, [("N-R steps: 100\n", "")], 12, "N-R steps",
     "missing header line"),
    ("joint twice with different meanings", KINEMATIC,
     [("r1: 3, 0, 0\n", "r1: 3, 0, 0\nr1: 2, 1, 0\n")],
     69, "Joint 2.r1", "values that define different joints (lines 68, 69)"),
]


def _bad_copy(tmp_path, src: pathlib.Path, edits) -> pathlib.Path:
    text = src.read_text()
    for old, new in edits:
        assert old in text, old
        text = text.split(old)[0] + "\n" if new is None else text.replace(old, new, 1)
    f = tmp_path / "mbdm"
    f.write_text(text)
    return f


@pytest.mark.parametrize("src,edits,line,field,reason", [b[1:] for b in BAD],
                         ids=[b[0] for b in BAD])  # fmt: skip
def test_malformed_main_file_one_line_error(tmp_path, capsys, src, edits, line, field, reason):
    f = _bad_copy(tmp_path, src, edits)
    with pytest.raises(CaseError) as exc:
        read_mbdm(f)
    msg = str(exc.value)
    assert "\n" not in msg and str(f) in msg, msg
    assert f"line {line} (" in msg and field in msg and reason in msg, msg
    assert main(["mbdm", str(f), "-o", str(tmp_path / "x.nc")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"line {line}" in err, err
    assert not (tmp_path / "x.nc").exists()


MOORING_BAD = [
    ("Fairlead attached to body nr: 1", "Fairlead attached to body nr: 2", 4,
     "Mooring 1.body nr", "body 2 does not exist"),
    ("Stiffness coefficient: 10000.0", "Stiffness coefficient: ten", 9,
     "Mooring 1.stiffness coefficient", "'ten' is not a number"),
    ("Number of mooring lines: 1", "Number of mooring lines: 2", 1,
     "Number of mooring lines", "says 2, but the file defines 1 line(s)"),
    ("Not stretched length of the line: 1.5", "Not stretched length of the line: 0", 8,
     "Mooring 1.not stretched length", "must be > 0"),
]


@pytest.mark.parametrize("old,new,line,field,reason", MOORING_BAD)
def test_malformed_mooring_file(tmp_path, old, new, line, field, reason):
    (tmp_path / "mbdm").write_text(SPRING.read_text())
    moor = tmp_path / "mbdm.expert.mooring"
    moor.write_text((SPRING.parent / "mbdm.expert.mooring").read_text().replace(old, new))
    with pytest.raises(CaseError) as exc:
        read_mbdm(tmp_path / "mbdm")
    msg = str(exc.value)
    assert "\n" not in msg and str(moor) in msg and f"line {line} (" in msg, msg
    assert field in msg and reason in msg, msg


def test_malformed_forces_file(tmp_path):
    (tmp_path / "mbdm").write_text(DYNAMIC.read_text())
    forces = tmp_path / "mbdm.expert.forces"
    text = (DYNAMIC.parent / "mbdm.expert.forces").read_text()
    forces.write_text(text.replace("type: moment", "type: torque"))
    with pytest.raises(CaseError, match=r"line 5 \(Load 1.type\)': unknown load type 'torque'"):
        read_mbdm(tmp_path / "mbdm")
    forces.write_text(text.replace("value in GCS: 1.0, 0.0, 0.0", "value in GCS: 1.0, 1.0, 0.0"))
    with pytest.raises(CaseError, match=r"line 12 \(Load 2.value in GCS\)': the gas force \(94\) acts"):
        read_mbdm(tmp_path / "mbdm")


# --- the command --------------------------------------------------------------------------------


def test_cli_writes_body_position_and_quaternion(tmp_path, capsys):
    out = tmp_path / "spring.nc"
    assert main(["mbdm", str(SPRING), "-o", str(out), "--tmax", "0.05"]) == 0
    printed = capsys.readouterr().out
    assert "TestCase_1" in printed and str(out) in printed
    with xr.open_dataset(out) as ds:
        assert ds.body_position.dims == ("time", "body", "axis")
        assert list(ds.body.values) == ["body"] and list(ds.axis.values) == ["x", "y", "z"]
        assert ds.body_position.attrs["units"] == "m"
        assert ds.body_quaternion.dims == ("time", "body", "component")
        assert list(ds.component.values) == ["e0", "e1", "e2", "e3"]
        assert ds.time.attrs["units"] == "s" and float(ds.time[-1]) == pytest.approx(0.05)
        assert "constraint_drift_position" in ds and ds.attrs["case_name"] == "TestCase_1"
    # never into an input, never over a result without --overwrite
    assert main(["mbdm", str(SPRING), "-o", str(SPRING.parent / "mbdm.expert.mooring")]) == 2
    assert main(["mbdm", str(SPRING), "-o", str(out), "--tmax", "0.05"]) == 2
    assert "--overwrite" in capsys.readouterr().err
    assert main(["mbdm", str(tmp_path / "none"), "-o", str(tmp_path / "n.nc")]) == 2


def test_cli_mbdm_help_has_examples(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["mbdm", "--help"])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    assert "examples:" in text and "floatwind mbdm cases/mbdm/body_on_spring/mbdm" in text


def test_step_bound_is_the_one_of_every_run(tmp_path):
    """``floatwind mbdm`` refuses a run of more steps than simulate.sanity.MAX_STEPS (the one
    bound, shared with ``floatwind run``), in one line naming t_end, before it steps."""
    from floatwind.simulate import mbdm, sanity

    assert mbdm.MAX_STEPS is sanity.MAX_STEPS
    f = tmp_path / "mbdm"
    f.write_text(TABLE3)
    with pytest.raises(CaseError, match=r"more than 1e\+09") as e:
        run_mbdm(read_mbdm(f), t_end=1e12)
    assert e.value.field == "t_end"
