"""Rotor thrust from C_T with the relative wind (Wang 3.19-3.21, 4.16-4.17)."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from floatwind.environment import Environment
from floatwind.errors import CaseError
from floatwind.loads.base import Kinematics
from floatwind.loads.thrust import CTCurve, RotorThrust
from floatwind.rotation import euler123_matrix

CURVE_FILE = pathlib.Path(__file__).resolve().parents[1] / "cases" / "data" / "ct_curve_fig14.csv"
AREA = np.pi * 63.0**2
RHO_A = 1.225


class UniformWind:
    """Fake wind: uniform in space, speed ``speed(t)`` towards ``heading`` (rad from +x)."""

    n_realizations = 1

    def __init__(self, speed, heading=0.0):
        self.speed = speed if callable(speed) else (lambda t, s=speed: s)
        self.dir = np.array([np.cos(heading), np.sin(heading), 0.0])

    def velocity(self, t, points):
        return np.broadcast_to(self.speed(t) * self.dir, np.shape(points)).copy()


def make_kin(R, r_G, cm_b, v_G=None, w=None):
    R = np.asarray(R, float).reshape(-1, 3, 3)
    B = R.shape[0]
    r_G = np.broadcast_to(np.asarray(r_G, float), (B, 3))
    v_G = np.zeros((B, 3)) if v_G is None else np.broadcast_to(np.asarray(v_G, float), (B, 3))
    w = np.zeros((B, 3)) if w is None else np.broadcast_to(np.asarray(w, float), (B, 3))
    return Kinematics(0.0, r_G[:, None], R[:, None], v_G[:, None], w[:, None], cm_b[None])


def rotor(**kw):
    args = dict(
        body=0,
        rotor_centre=[-5.0, 0.0, 90.0],
        rotor_area=AREA,
        ct_curve=CTCurve.from_csv(CURVE_FILE),
        rated_power=5.0e6,
        rotor_speed=12.1 * 2 * np.pi / 60,
    )
    args.update(kw)
    return RotorThrust(**args)


def test_fig14_reconstruction():
    curve = CTCurve.from_csv(CURVE_FILE)
    assert curve(18.2) == pytest.approx(0.155, abs=1e-3)
    assert curve(5.0) == curve(17.0) == pytest.approx(5e6 / (0.35 * RHO_A * AREA * 17.0**3), 1e-5)
    for v in (17.0, 20.0, 25.0):  # constant power above rated with C_p = 0.7 C_T
        assert 0.5 * 0.7 * curve(v) * RHO_A * AREA * v**3 == pytest.approx(5e6, rel=1e-5)
    assert curve(40.0) == curve(25.0)  # held beyond the table


def test_thrust_at_rest_and_torque():
    load = rotor()
    env = Environment(wind=UniformWind(18.2))
    cm = np.array([0.0, 0.0, -78.0])
    kin = make_kin(np.eye(3), cm, cm)
    out = load.wrench(0.0, kin, env)
    ct = CTCurve.from_csv(CURVE_FILE)(18.2)
    thrust = 0.5 * ct * RHO_A * AREA * 18.2**2  # (3.19)
    assert out.channels["RtAeroFxh"][0] == pytest.approx(thrust, rel=1e-12)
    assert np.allclose(out.force[0, 0], [thrust, 0, 0])
    torque = 5e6 / (12.1 * 2 * np.pi / 60)
    arm = np.array([-5.0, 0.0, 90.0]) - cm
    assert np.allclose(out.moment[0, 0], np.cross(arm, [thrust, 0, 0]) + [torque, 0, 0])
    assert out.channels["RtAeroPwr"][0] == pytest.approx(5e6, rel=2e-3)
    assert set(out.channels) == set(load.channel_info())


@pytest.mark.parametrize("mode", ["variable", "fixed"])
def test_pitching_forward_sees_projected_relative_wind(mode):
    """Tower pitched by theta, pitching forward at rate q: V_rb = U cos(theta) - v_rotor . n."""
    kw = {} if mode == "variable" else {"ct_mode": "fixed", "mean_wind_speed": 18.2}
    load = rotor(**kw)
    U = 18.2
    env = Environment(wind=UniformWind(U))
    cm = np.array([0.0, 0.0, -78.0])
    theta = np.array([0.0, 0.1, 0.3])
    q = np.array([0.0, 0.02, 0.05])  # pitch rates about +y (rotor top moving downwind)
    R = euler123_matrix(np.column_stack([0 * theta, theta, 0 * theta]))
    w = np.column_stack([0 * q, q, 0 * q])
    kin = make_kin(R, [0, 0, -78.0], cm, w=w)
    out = load.wrench(0.0, kin, env)
    n = R[:, :, 0]
    arm = np.einsum("bij,j->bi", R, np.array([-5.0, 0, 90.0]) - cm)
    v_rotor = np.cross(w, arm)
    v_rb = U * np.cos(theta) - np.einsum("bi,bi->b", v_rotor, n)
    assert np.allclose(out.channels["RtVRel"], v_rb, rtol=1e-13)
    assert np.allclose(out.channels["RtVAvgxh"], U * np.cos(theta), rtol=1e-13)
    ct = load.ct_curve(v_rb) if mode == "variable" else np.full(3, load.ct_fixed)
    thrust = 0.5 * ct * RHO_A * AREA * v_rb**2
    assert np.allclose(out.channels["RtAeroFxh"], thrust, rtol=1e-13)
    assert np.allclose(out.force[:, 0], thrust[:, None] * n, rtol=1e-13)
    assert np.all(np.diff(out.channels["RtVRel"]) < 0)  # more pitch, more rate: less wind


def test_yaw_misalignment_and_reversed_flow():
    load = rotor()
    cm = np.array([0.0, 0.0, -78.0])
    kin = make_kin(np.eye(3), cm, cm)
    out = load.wrench(0.0, kin, Environment(wind=UniformWind(12.0, heading=0.5)))
    assert out.channels["RtVAvgxh"][0] == pytest.approx(12.0 * np.cos(0.5))
    # wind from behind, or a rotor outrunning the wind: no thrust, no power, torque kept
    for env, v in (
        (Environment(wind=UniformWind(-5.0)), 0.0),
        (Environment(wind=UniformWind(3.0)), 4.0),
    ):
        out = load.wrench(0.0, make_kin(np.eye(3), cm, cm, v_G=[v, 0, 0]), env)
        assert out.channels["RtVRel"][0] < 0
        assert out.channels["RtAeroFxh"][0] == 0.0 and out.channels["RtAeroPwr"][0] == 0.0
        assert np.allclose(out.force, 0.0)
        assert out.moment[0, 0, 0] == pytest.approx(load.torque)


def _pitch_std(mode: str) -> float:
    """1-DOF platform pitch about the system CM (test-only model): steady 18.2 m/s wind, the
    thrust load, and a wave-like pitch moment near resonance. Only the aerodynamic damping
    differs between the two C_T strategies."""
    kw = {} if mode == "variable" else {"ct_mode": "fixed", "mean_wind_speed": 18.2}
    load = rotor(rated_power=0.0, **kw)
    env = Environment(wind=UniformWind(18.2))
    cm = np.array([0.0, 0.0, -78.0])
    inertia = 2.6e10  # pitch inertia incl. added mass (kg m^2), OC3-like
    k = inertia * (2 * np.pi / 30.0) ** 2  # 30 s pitch period
    c = 0.06 * 2 * np.sqrt(k * inertia)  # structural + hydrodynamic damping, 6 % of critical
    freqs = np.array([0.027, 0.031, 0.0335, 0.036, 0.04])
    phases = np.array([0.3, 1.9, 4.0, 2.2, 5.1])
    wave = lambda t: 1.5e7 * np.sum(np.sin(2 * np.pi * freqs * t + phases))  # noqa: E731
    mean_moment = load.wrench(0.0, make_kin(np.eye(3), cm, cm), env).moment[0, 0, 1]

    def rhs(t, y):
        theta, q = y
        R = euler123_matrix(np.array([0.0, theta, 0.0]))
        m = load.wrench(t, make_kin(R, cm, cm, w=[0.0, q, 0.0]), env).moment[0, 0, 1]
        return [q, (m - mean_moment + wave(t) - c * q - k * theta) / inertia]

    sol = solve_ivp(
        rhs,
        (0.0, 600.0),
        [0.0, 0.0],
        max_step=1.0,
        rtol=1e-6,
        atol=1e-9,
        t_eval=np.arange(200.0, 600.0, 0.5),
    )
    assert sol.success
    return float(np.std(sol.y[0]))


def test_aerodynamic_damping_fixed_vs_variable():
    """Pitch damping dM/dq from the load: fixed C_T adds C_T rho A U h^2, variable C_T above
    rated removes P_rated h^2 / (0.7 U^2) (thrust = P / (0.7 V))."""
    cm = np.array([0.0, 0.0, -78.0])
    h = 90.0 - cm[2]
    U, dq = 18.2, 1e-4
    env = Environment(wind=UniformWind(U))
    for mode, expected in (
        ("fixed", -5e6 / (0.35 * RHO_A * AREA * U**3) * RHO_A * AREA * U * h**2),
        ("variable", 5e6 / (0.7 * U**2) * h**2),
    ):
        kw = {} if mode == "variable" else {"ct_mode": "fixed", "mean_wind_speed": U}
        v = np.arange(17.0, 25.0, 0.001)  # dense analytic curve: tangent = secant
        dense = CTCurve(v, 5e6 / (0.35 * RHO_A * AREA * v**3))
        load = rotor(rotor_centre=[0.0, 0.0, 90.0], ct_curve=dense, **kw)
        m = [
            load.wrench(0.0, make_kin(np.eye(3), cm, cm, w=[0, s * dq, 0]), env).moment[0, 0, 1]
            for s in (1, -1)
        ]
        assert (m[0] - m[1]) / (2 * dq) == pytest.approx(expected, rel=1e-4), mode


def test_fixed_ct_gives_smaller_pitch_std_than_variable():
    """Wang sec. III.E.2 / Fig. 25: variable C_T -> larger pitch standard deviation."""
    s_var, s_fix = _pitch_std("variable"), _pitch_std("fixed")
    assert s_var > 1.3 * s_fix, (s_var, s_fix)


def test_from_config(tmp_path):
    cfg = {
        "type": "thrust_ct",
        "body": "rna",
        "rotor_centre": [-5.0, 0.0, 2.4],
        "shaft_axis": [np.cos(0.0873), 0.0, -np.sin(0.0873)],
        "rotor_radius": 63.0,
        "ct_curve": "ct.csv",
        "ct_mode": "fixed",
        "mean_wind_speed": 18.2,
        "rated_power": 5.0e6,
        "rotor_speed_rpm": 12.1,
    }
    (tmp_path / "ct.csv").write_text(CURVE_FILE.read_text())
    load = RotorThrust.from_config(
        cfg, body_index={"platform": 0, "rna": 1}, field="loads[3]", base_dir=tmp_path
    )
    assert load.body == 1 and load.ct_fixed == pytest.approx(0.155, abs=1e-3)
    assert load.rotor_speed == pytest.approx(12.1 * 2 * np.pi / 60)
    assert np.linalg.norm(load.shaft_axis_b) == pytest.approx(1.0)
    inline = dict(
        cfg,
        ct_curve=None,
        ct_table={"wind_speed": [3, 25], "ct": [0.8, 0.1]},
        ct_mode="variable",
        mean_wind_speed=None,
    )
    assert RotorThrust.from_config(inline, body_index={"rna": 0}, field="l").ct_curve(14.0) == (
        pytest.approx(0.45)
    )
    idx = {"rna": 0}
    with pytest.raises(CaseError, match="did you mean 'rotor_radius'") as err:
        RotorThrust.from_config(
            dict(cfg, rotor_radus=63.0), body_index=idx, field="loads[3]", base_dir=tmp_path
        )
    assert err.value.field == "loads[3].rotor_radus"
    with pytest.raises(CaseError, match="not both"):
        RotorThrust.from_config(
            dict(cfg, rotor_speed=1.2), body_index=idx, field="l", base_dir=tmp_path
        )
    with pytest.raises(CaseError, match="file not found"):
        RotorThrust.from_config(cfg, body_index=idx, field="l", base_dir=tmp_path / "nowhere")
    with pytest.raises(CaseError, match="exactly one of 'mean_wind_speed'"):
        RotorThrust.from_config(
            dict(cfg, mean_wind_speed=None), body_index=idx, field="l", base_dir=tmp_path
        )
    with pytest.raises(CaseError, match="did you mean 'fixed'"):
        RotorThrust.from_config(
            dict(cfg, ct_mode="fixd"), body_index=idx, field="l", base_dir=tmp_path
        )
    (tmp_path / "bad.csv").write_text("# c\nv,ct\n3,0.5\n2,0.4\n")
    with pytest.raises(CaseError, match="strictly increasing") as err:
        RotorThrust.from_config(
            dict(cfg, ct_curve="bad.csv"), body_index=idx, field="l", base_dir=tmp_path
        )
    assert err.value.file.endswith("bad.csv")
    with pytest.raises(CaseError, match="rotor_speed is needed"):
        rotor(rotor_speed=None)
    with pytest.raises(CaseError, match="shaft axis"):
        rotor(shaft_axis=[0, 0, 0])
    with pytest.raises(CaseError, match="variable C_T needs"):
        rotor(ct_curve=None)
