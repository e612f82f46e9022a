"""Campbell diagram with tower modes (issue 40 item 3): an OpenFAST deck with a flexible tower
(ref11: OC3 spar, TwFADOF1 + TwSSDOF1) swept over rotor speed, its rotor spinning at each
prescribed speed. Checks: the zero-speed limit equals the non-rotating linearization of the
deck; the rotor's gyroscopic coupling of the tower modes and the platform rotations equals
H . (E_i x E_j) with the tower-top slopes of the mode shapes; the 1P/3P crossings; the command's
netCDF, table and figure; the YAML path (explicit joints, a free rotor prescribed); refusals.
All on the NumPy right-hand side (no compile): a linearization of ref11 is ~0.1 s."""

from __future__ import annotations

import copy
import math
import pathlib

import numpy as np
import pytest
import xarray as xr

from floatwind.linear.campbell import Campbell, crossings, spin_joint
from floatwind.linear.matrices import linearize
from floatwind.linear.modes import modes

ROOT = pathlib.Path(__file__).resolve().parents[1]
REF11 = ROOT / "../shared/reference/openfast/ref11_tower_flex_decay"
DECK = REF11 / "ref11_tower_flex_decay.fst"

needs_ref11 = pytest.mark.skipif(
    not REF11.is_dir(), reason="OpenFAST reference decks not available"
)


@pytest.fixture(scope="module")
def sweep():
    from floatwind.cli.campbell import _deck_sweep

    model_at, n_blades, notes = _deck_sweep(DECK, "shaft")
    return model_at, n_blades


def _critical_scale(lin):
    c = 2.0 * np.sqrt(np.abs(np.diag(lin.K)) * np.diag(lin.M))
    return np.sqrt(np.outer(c, c))


@needs_ref11
def test_zero_speed_equals_the_non_rotating_deck(sweep):
    """Analytic limit: at 0 rpm the swept model (the rotor and the generator separate bodies on a
    shaft turning at rate 0) has the matrices and modes of the deck's own, non-rotating model
    (rotor merged into the nacelle), about the same static equilibrium (tower modes solved with
    the platform): M, K to 1e-9 of their diagonal scale, C to 1e-9 of critical damping,
    frequencies and damping ratios to 1e-9 (measured ~1e-11)."""
    from floatwind.cli._case import load_model

    model_at, n_blades = sweep
    assert n_blades == 3
    a = linearize(load_model(str(DECK)), "equilibrium")
    b = linearize(model_at(0.0), "equilibrium")
    assert a.dof == b.dof and a.dof[6:] == ["TwFADOF1", "TwSSDOF1"]
    for name in ("M", "K"):
        A, B = getattr(a, name), getattr(b, name)
        s = np.sqrt(np.outer(np.abs(np.diag(A)), np.abs(np.diag(A))))
        assert np.max(np.abs(A - B) / s) < 1e-9, name
    assert np.max(np.abs(a.C - b.C) / _critical_scale(a)) < 1e-9
    np.testing.assert_allclose(b.x0, a.x0, rtol=0, atol=1e-9)
    ma, mb = modes(a), modes(b)
    np.testing.assert_allclose(mb.omega_n, ma.omega_n, rtol=1e-9)
    np.testing.assert_allclose(mb.damping_ratio, ma.damping_ratio, rtol=0, atol=1e-9)


@needs_ref11
def test_gyroscopic_coupling_of_tower_modes_and_platform(sweep):
    """Analytic: a rotor of spin angular momentum H = I_s Omega e (e the tilted shaft, I_s the
    rotor's axial inertia plus GBRatio times the generator's: the reference README's 3.872885e7
    kg m^2) adds the gyroscopic matrix G_ij = H . (E_i x E_j) to C, E_i the rotor's angular
    velocity per unit rate of DOF i: x, y, z for platform roll, pitch, yaw, phi_FA'(L) y for the
    fore-aft tower mode and -phi_SS'(L) x for the side-to-side mode (ElastoDyn's tower-top tilt
    by the mode slopes, the modal coordinate being the top deflection). At rest, C(12.1 rpm) -
    C(0) equals G to 1e-6 of H (measured ~1e-11) in every entry, tower-yaw, tower-roll/pitch and
    FA-SS included."""
    model_at, _ = sweep
    m = model_at(12.1)
    omega = 12.1 * math.pi / 30.0
    tree = m.tree
    e = np.array([0.9961946980917455, 0.0, -0.08715574274765817])  # ElastoDyn c1, ShftTilt -5 deg
    rotor = tree.bodies[tree.index("rotor")].inertia_b
    gen = tree.bodies[tree.index("generator")].inertia_b
    I_s = e @ rotor @ e + 97.0 * (e @ gen @ e)
    assert I_s == pytest.approx(3.872885e7, rel=1e-6)
    H = I_s * omega * e
    tw = m.tower
    slope = [sum(i * c for i, c in zip(range(2, 7), tw.coeffs[k], strict=True)) / tw.flex_len
             for k in (0, 1)]  # fmt: skip
    assert 0.02 < slope[0] < 0.03 and 0.02 < slope[1] < 0.03
    E = np.zeros((8, 3))
    E[3], E[4], E[5] = np.eye(3)
    E[6] = slope[0] * np.array([0.0, 1.0, 0.0])
    E[7] = -slope[1] * np.array([1.0, 0.0, 0.0])
    G = np.array([[H @ np.cross(E[i], E[j]) for j in range(8)] for i in range(8)])
    dC = linearize(m, "rest").C - linearize(model_at(0.0), "rest").C
    assert abs(G[6, 5]) > 1e6 and abs(G[6, 7]) > 1e3  # the tower entries are not negligible
    np.testing.assert_allclose(dC, G, rtol=0, atol=1e-6 * np.linalg.norm(H))


def test_crossings_of_excitation_lines():
    """Analytic: a mode of constant 0.6 Hz meets 3P (3 rpm / 60) at 12 rpm and 1P at 36 rpm
    (outside a 0-20 rpm sweep: NaN); a mode whose frequency rises linearly is met where the
    two lines intersect; a mode already below nP at the first speed has no crossing in the
    sweep (NaN)."""
    rpm = np.array([0.0, 5.0, 10.0, 15.0, 20.0])
    f = np.stack([np.full(5, 0.6), 0.5 + 0.01 * rpm, np.full(5, 0.01)], axis=1)
    cd = Campbell(rpm=rpm, frequency=f, damping_ratio=np.zeros_like(f), dof=["a", "b", "c"],
                  dof_at=[["a", "b", "c"]] * 5)  # fmt: skip
    x3 = crossings(cd, 3.0)
    assert x3[0] == pytest.approx(12.0, rel=1e-12)
    assert x3[1] == pytest.approx(0.5 / (0.05 - 0.01), rel=1e-12)  # 0.5 + 0.01 r = r / 20
    assert x3[2] == pytest.approx(0.2, rel=1e-12)  # 0.01 Hz = 3P at 0.2 rpm (first interval)
    x1 = crossings(cd, 1.0)
    assert np.isnan(x1[0]) and np.isnan(x1[1]) and x1[2] == pytest.approx(0.6, rel=1e-12)
    cd_late = Campbell(rpm=rpm[1:], frequency=f[1:, 2:], damping_ratio=np.zeros((4, 1)),
                       dof=["c"], dof_at=[["c"]] * 4)  # fmt: skip
    assert np.isnan(crossings(cd_late, 3.0)[0])  # below 3P from the first swept speed on


@needs_ref11
def test_campbell_command_on_a_deck_with_tower_modes(tmp_path, capsys, sweep):
    """`floatwind campbell DECK.fst`: the platform and tower modes tracked over rotor speed,
    netCDF, figure and table; at 0 rpm the frequencies of the non-rotating linearization; the
    fore-aft tower frequency rises with speed (gyroscopic coupling with platform yaw pushes the
    two apart) while staying within 1 % of its value at rest; the 3P line meets the tower modes
    near 13 rpm (0.638-0.654 Hz x 20), 1P meets none of them."""
    from floatwind.cli import main

    out = tmp_path / "c.nc"
    rpm = ["0", "6", "12", "18"]
    assert main(["campbell", str(DECK), "--rpm", *rpm, "--at", "rest", "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "TwFADOF1" in text and "3P crosses:" in text
    assert out.with_suffix(".png").stat().st_size > 10_000
    model_at, _ = sweep
    ref = modes(linearize(model_at(0.0), "rest"))
    with xr.open_dataset(out) as ds:
        dof = list(ds["dof"].values)
        assert sorted(dof) == sorted(ref.dof)
        assert ds.attrs["n_blades"] == 3
        f = ds["frequency"].values
        fa, ss = dof.index("TwFADOF1"), dof.index("TwSSDOF1")
        np.testing.assert_allclose(np.sort(f[0]), np.sort(ref.omega_n / (2 * np.pi)), rtol=1e-9)
        assert np.all(np.diff(f[:, fa]) > 0) and abs(f[-1, fa] / f[0, fa] - 1) < 0.01
        assert all(d == "TwFADOF1" for d in ds["dof_at"].values[:, fa])
        for k in (fa, ss):
            x = float(ds["crossing_nP"].values[k])
            assert 12.0 < x < 14.0
            i = np.searchsorted(ds["rpm"].values, x) - 1  # the interpolant of the swept points
            r0, r1 = ds["rpm"].values[i : i + 2]
            fx = f[i, k] + (f[i + 1, k] - f[i, k]) * (x - r0) / (r1 - r0)
            assert fx == pytest.approx(3 * x / 60.0, rel=1e-9)
            assert np.isnan(ds["crossing_1P"].values[k])


@needs_ref11
def test_yaml_case_with_joints_spins_its_shaft(tmp_path, capsys):
    """A YAML case with explicit joints (ref11 imported with a free rotor, GenDOF, and its
    geared generator): `--joint shaft` prescribes the rotor speed (the free rotor's drive
    removed, the generator geared at 97 times it); the frequencies equal the deck sweep's at the
    same speeds (1e-9). A missing joint is refused naming --joint."""
    import yaml

    from floatwind.case.openfast.fst import read_fst
    from floatwind.case.openfast.importer import case_from_deck
    from floatwind.cli import main

    deck = read_fst(DECK)
    ed = deck["ElastoDyn"]["values"]
    ed["GenDOF"], ed["RotSpeed"] = True, 12.1
    case = case_from_deck(deck)["case"]
    joints = {j["name"]: j for j in case["joints"]}
    assert "drive" in joints["shaft"] and "gear" in joints["hss"]
    spun = spin_joint(copy.deepcopy(case), 2.0, "shaft")
    sj = {j["name"]: j for j in spun["joints"]}
    assert "drive" not in sj["shaft"] and sj["shaft"]["rotation"]["rate"] == 2.0
    assert "gear" not in sj["hss"] and sj["hss"]["rotation"]["rate"] == pytest.approx(194.0)
    path = tmp_path / "flex_rotor.yaml"
    path.write_text(yaml.safe_dump(case, sort_keys=False))
    args = ["--rpm", "0", "12.1", "--at", "rest"]
    assert main(["campbell", str(path), *args, "-o", str(tmp_path / "y.nc")]) == 0
    assert main(["campbell", str(DECK), *args, "-o", str(tmp_path / "d.nc")]) == 0
    capsys.readouterr()
    with xr.open_dataset(tmp_path / "y.nc") as y, xr.open_dataset(tmp_path / "d.nc") as d:
        np.testing.assert_allclose(np.sort(y["frequency"].values, axis=1),
                                   np.sort(d["frequency"].values, axis=1), rtol=1e-9)  # fmt: skip
    assert main(["campbell", str(path), *args, "--joint", "rotor_shaft", "-o",
                 str(tmp_path / "z.nc")]) == 2  # fmt: skip
    err = capsys.readouterr().err
    assert "no joint 'rotor_shaft'" in err and "--joint" in err and "\n" not in err.strip()
    assert main(["campbell", str(path), *args, "--blades", "0", "-o", str(tmp_path / "b.nc")]) == 2
    assert "--blades" in capsys.readouterr().err


@needs_ref11
def test_deck_with_drivetrain_dof_refused(monkeypatch):
    """A deck with the drivetrain DOF (DrTrDOF) is refused in one line naming it: the sweep
    prescribes the rotor speed."""
    from floatwind.case.openfast import fst
    from floatwind.cli.campbell import _deck_sweep
    from floatwind.errors import CaseError

    real = fst.read_fst

    def with_drivetrain(path):
        deck = real(path)
        deck["ElastoDyn"]["values"]["DrTrDOF"] = True
        return deck

    monkeypatch.setattr(fst, "read_fst", with_drivetrain)
    with pytest.raises(CaseError) as err:
        _deck_sweep(DECK, "shaft")
    assert err.value.field == "DrTrDOF" and "\n" not in str(err.value)


REF09 = ROOT / "../shared/reference/openfast/ref09_aero_fixed_speed"


@pytest.mark.skipif(not REF09.is_dir(), reason="OpenFAST reference decks not available")
def test_operating_point_schedule_of_wind_and_pitch(tmp_path, capsys):
    """`--wind`/`--pitch` give each rotor speed its own operating point (ref09: AeroDyn BEM
    rotor, steady InflowWind 8 m/s, pitch 0): where the schedule repeats the deck's own wind and
    pitch (9 rpm, 8 m/s, 0 deg) the frequencies, damping ratios and operating point equal the
    plain sweep's (1e-12); at 12 rpm 11 m/s pushes the platform further than 8 m/s (more thrust
    below rated); one pitch value serves every speed; the schedule is in the netCDF. A schedule
    of the wrong length, and --wind for a deck without InflowWind, are refused in one line."""
    from floatwind.cli import main

    deck = REF09 / "ref09_aero_fixed_speed.fst"
    a, b = tmp_path / "a.nc", tmp_path / "b.nc"
    rpm = ["--rpm", "9", "12", "--at", "equilibrium"]
    assert (
        main(["campbell", str(deck), *rpm, "--wind", "8", "11", "--pitch", "0", "-o", str(a)]) == 0
    )
    assert "operating points: 9 rpm 8 m/s 0 deg, 12 rpm 11 m/s 0 deg" in capsys.readouterr().out
    assert main(["campbell", str(deck), *rpm, "-o", str(b)]) == 0
    capsys.readouterr()
    with xr.open_dataset(a) as sa, xr.open_dataset(b) as sb:
        np.testing.assert_array_equal(sa["wind_speed"].values, [8.0, 11.0])
        np.testing.assert_array_equal(sa["blade_pitch"].values, [0.0, 0.0])
        assert "wind_speed" not in sb
        for v in ("frequency", "damping_ratio", "operating_point"):
            np.testing.assert_allclose(sa[v].values[0], sb[v].values[0], rtol=1e-12, atol=1e-14)
        pa, pb = sa["operating_point"].values[1], sb["operating_point"].values[1]
        assert pa[0] > pb[0] + 1.0 and pa[4] > pb[4]  # surge (m) and pitch (rad)
    args = ["--rpm", "0", "5", "-o", str(tmp_path / "x.nc")]
    assert main(["campbell", str(deck), *args, "--wind", "8", "9", "10"]) == 2
    assert "one per rotor speed (2), got 3" in capsys.readouterr().err
    assert main(["campbell", str(DECK), *args, "--wind", "8"]) == 2
    err = capsys.readouterr().err
    assert "no InflowWind" in err and "--wind" in err
