"""Wang ch. II 3-1-3 Euler formulation (floatwind.multibody.euler313, formulation: euler313).

Three kinds: analytic (the chapter's formulas (2.5), (2.11), (2.12), (2.18), (2.41), a small-angle
acceleration), invariants (angular momentum about the system CM through chart switches, batch
invariance to the bit), cross-check against the momentum cloud core (1e-6), and bad input.
"""

import pathlib

import numpy as np
import pytest
import yaml

from floatwind.case import load_case
from floatwind.case.loader import model_from_dict
from floatwind.errors import CaseError, SimulationError
from floatwind.loads.base import Wrench
from floatwind.multibody import euler313 as e3
from floatwind.multibody.motion import ConstantRate, Locked
from floatwind.simulate import euler313 as s3

ROOT = pathlib.Path(__file__).resolve().parents[1]
CASE = ROOT / "cases" / "euler313_wang_ch2.yaml"
OMEGA = 12.1 * 2 * np.pi / 60


def _body(**kw):
    p = dict(
        m_tower=5273718.0,
        z_tower=-58.67,
        I_tilt=3.57e9,
        I_axial=9.28e7,
        m_rna=350000.0,
        z_rna=90.0,
        I_A=2.445e7,
        I_B=4.37e7,
        I_C=2.445e7,
        spin_axis=(0.0, 1.0, 0.0),
        yaw=ConstantRate(0.2, 0.03),
        spin=ConstantRate(0.0, OMEGA),
    )
    p.update(kw)
    return e3.Euler313Body(**p)


def _random_state(rng, B=5):
    ang = np.stack([rng.uniform(0.3, 2.8, B), rng.uniform(-3, 3, B), rng.uniform(-3, 3, B)], 1)
    return ang, rng.normal(size=(B, 3)) * 0.2


def _model(overrides=None, *, loads=True):
    data = yaml.safe_load(CASE.read_text())
    if not loads:
        data["loads"] = []
    for key, val in (overrides or {}).items():
        d = data
        *head, last = key.split(".")
        for k in head:
            d = d.setdefault(k, {})
        d[last] = val
    return model_from_dict(data, base_dir=CASE.parent)


def _upright_state(w_g):
    """Upright tower with inertial angular velocity rows ``w_g`` (B, 3), in chart 1."""
    w_g = np.atleast_2d(w_g)
    ch = np.ones(len(w_g), dtype=int)
    ang = e3.angles_from_matrix(np.broadcast_to(np.eye(3), (len(w_g), 3, 3)), ch)
    rates = e3.rates_from_omega(ang, np.einsum("bji,bj->bi", e3.xyz_frame(ang, ch), w_g))
    return np.concatenate([ang, rates], 1), ch


# ---------------------------------------------------------------- analytic


def test_rotation_matrix_and_angular_velocity_2_18_2_41():
    rng = np.random.default_rng(1)
    ang, rates = _random_state(rng)
    ch = np.zeros(len(ang), dtype=int)
    t1, t2 = ang[:, 0], ang[:, 1]
    # (2.41) written out
    R41 = np.array(
        [
            [np.cos(t2), -np.cos(t1) * np.sin(t2), np.sin(t1) * np.sin(t2)],
            [np.sin(t2), np.cos(t1) * np.cos(t2), -np.cos(t2) * np.sin(t1)],
            [0 * t1, np.sin(t1), np.cos(t1)],
        ]
    ).transpose(2, 0, 1)
    np.testing.assert_allclose(e3.xyz_frame(ang, ch), R41, atol=1e-15)
    # (2.18): omega = R^T dR/dt of the body matrix, in (x, y, z)
    h = 1e-6
    Rp, Rm = e3.tower_matrix(ang + h * rates, ch), e3.tower_matrix(ang - h * rates, ch)
    R = e3.tower_matrix(ang, ch)
    S = np.einsum("bji,bjk->bik", R, (Rp - Rm) / (2 * h))  # body axes
    w_b = np.stack([S[:, 2, 1], S[:, 0, 2], S[:, 1, 0]], 1)
    w_g = np.einsum("bij,bj->bi", R, w_b)
    w_xyz = e3.omega_xyz(ang, rates)[0]
    np.testing.assert_allclose(
        np.einsum("bji,bj->bi", e3.xyz_frame(ang, ch), w_g), w_xyz, atol=1e-8
    )
    # angles back from the matrix in both charts
    for c in (0, 1):
        a2 = e3.angles_from_matrix(R, c)
        np.testing.assert_allclose(e3.tower_matrix(a2, np.full(len(ang), c)), R, atol=1e-13)


def test_rna_angles_follow_wang_2_5_2_11_2_12():
    """The chapter's constraint (2.5), precession rate (2.11) and acceleration (2.12) equal the
    vector form used by the dynamics (chart 0, away from vertical)."""
    body = _body()
    rng = np.random.default_rng(2)
    ang, rates = _random_state(rng, 6)
    ang[:, 0] = rng.uniform(0.05, 0.6, 6)  # the tower tilted < 35 deg: spin axis near horizontal
    ch = np.zeros(6, dtype=int)
    t = 0.7
    st = e3.tower_kinematics(body, t, ang, rates, ch)
    th1, th2 = ang[:, 0], ang[:, 1]
    np.testing.assert_allclose(st.theta, e3.rna_theta_wang(th1, th2, st.phi), atol=1e-13)  # (2.5)
    alpha = st.phi - th2
    g, gd, gdd = body.yaw.evaluate(t)
    phid = e3.rna_phi_dot_wang(th1, rates[:, 0], rates[:, 1], rates[:, 2], alpha, gd)  # (2.11)
    np.testing.assert_allclose(st.phi_dot, phid, rtol=1e-12, atol=1e-14)
    # (2.12) against the dynamics' phi_ddot at the same accelerations
    dyn = e3.forward_dynamics(body, st, Wrench.zeros(6, 2))
    dalpha = st.phi_dot - rates[:, 1]
    acc = dyn.acc
    phidd = e3.rna_phi_ddot_wang(
        th1,
        rates[:, 0],
        rates[:, 1],
        rates[:, 2],
        acc[:, 0],
        acc[:, 1],
        acc[:, 2],
        alpha,
        dalpha,
        gd,
        gdd,
    )
    np.testing.assert_allclose(dyn.phi_ddot, phidd, rtol=1e-10, atol=1e-14)
    # and theta_ddot / phi_ddot are the time derivatives of theta / phi along the motion
    h = 1e-5
    sp = e3.tower_kinematics(body, t + h, ang + h * rates + 0.5 * h * h * acc, rates + h * acc, ch)
    sm = e3.tower_kinematics(body, t - h, ang - h * rates + 0.5 * h * h * acc, rates - h * acc, ch)
    np.testing.assert_allclose(
        (sp.phi_dot - sm.phi_dot) / (2 * h), dyn.phi_ddot, rtol=1e-5, atol=1e-9
    )
    np.testing.assert_allclose(
        (sp.theta_dot - sm.theta_dot) / (2 * h), dyn.theta_ddot, rtol=1e-5, atol=1e-9
    )


def test_small_angle_acceleration_is_restoring_over_inertia():
    """No spin, no yaw: a tower at theta_1 = 0.1 under a linear restoring moment -K theta about
    x accelerates at -K theta_1 / (I_pivot + m_R l^2 + I_C) (RNA tilting about C)."""
    body = _body(yaw=Locked(0.0), spin=Locked(0.0))
    K = 4.0e9
    ang = np.array([[0.1, 0.0, 0.0]])
    st = e3.tower_kinematics(body, 0.0, ang, np.zeros((1, 3)), np.zeros(1, dtype=int))
    w = Wrench.zeros(1, 2)
    w.moment[:, 0] = -K * 0.1 * st.R_xyz[:, :, 0]  # moment about x (tower frame), on the tower
    dyn = e3.forward_dynamics(body, st, w)
    I_tot = body.I_pivot + body.m_rna * body.l_rna**2 + body.I_C
    assert dyn.acc[0, 0] == pytest.approx(-K * 0.1 / I_tot, rel=1e-12)
    assert abs(dyn.acc[0, 1]) < 1e-15 and abs(dyn.acc[0, 2]) < 1e-15


def test_both_charts_give_the_same_motion():
    body = _body()
    rng = np.random.default_rng(3)
    ang, rates = _random_state(rng)
    c0 = np.zeros(len(ang), dtype=int)
    a1, r1 = e3.convert_chart(ang, rates, c0, np.ones(len(ang), dtype=int))
    d0 = e3.forward_dynamics(
        body, e3.tower_kinematics(body, 0.3, ang, rates, c0), Wrench.zeros(5, 2)
    )
    d1 = e3.forward_dynamics(
        body, e3.tower_kinematics(body, 0.3, a1, r1, 1 - c0), Wrench.zeros(5, 2)
    )
    np.testing.assert_allclose(d1.alpha_t, d0.alpha_t, rtol=1e-11, atol=1e-14)
    np.testing.assert_allclose(d1.M_ABC, d0.M_ABC, rtol=1e-10, atol=1e-4)


# ---------------------------------------------------------------- cross-check against the MCM


def test_rhs_equals_momentum_cloud_core_at_random_states():
    """Angular accelerations and gyroscopic moments = the MCM tree of the same model (3.28)."""
    from floatwind.multibody import mcm
    from floatwind.multibody.gyro import gyro_moment
    from floatwind.rotation import euler123_from_matrix, euler_rates_from_omega

    body = _body()
    rng = np.random.default_rng(4)
    ang, rates = _random_state(rng)
    ch = np.zeros(5, dtype=int)
    t = 0.3
    st = e3.tower_kinematics(body, t, ang, rates, ch)
    dyn = e3.forward_dynamics(body, st, Wrench.zeros(5, 2))
    tree = e3.mcm_tree(body)
    rel = mcm.relative_kinematics(tree, t)
    md = mcm.mass_distribution(tree, rel)
    a123 = euler123_from_matrix(st.R_t)
    r123 = euler_rates_from_omega(a123, np.einsum("bji,bj->bi", st.R_t, st.w_t))
    q = np.concatenate([np.broadcast_to(body.pivot_g, (5, 3)), a123], 1)
    qd = np.concatenate([np.zeros((5, 3)), r123], 1)
    kin = mcm.body_kinematics(tree, t, rel, md, q, qd)
    acc = mcm.forward_dynamics(tree, rel, md, q, qd, Wrench.zeros(5, 3))
    err = np.abs(acc.dw_b_g[:, 0] - dyn.alpha_t).max() / np.abs(dyn.alpha_t).max()
    assert err < 1e-9

    class Ev:
        pass

    ev = Ev()
    ev.kin, ev.rel = kin, rel
    Mg = np.einsum("bij,bj->bi", kin.R_b2g[:, 1], gyro_moment(tree, ev))  # on the tower (3.28)
    M2 = dyn.M_gyro[:, 0:1] * st.A + dyn.M_gyro[:, 2:3] * st.C  # on the RNA (2.30)-(2.32)
    np.testing.assert_allclose(M2, -Mg, rtol=1e-9, atol=1e-9 * np.abs(Mg).max())


def _tumbling_run(B_rows, T=12.0, dt=0.01):
    """Free tumbling (no loads) of tower + spinning RNA, yawed 90 deg so that B stays horizontal;
    starts upright with the given inertial angular velocities."""
    m = _model(
        {
            "topology.rna.inertia": [2.445e7, 4.37e7, 2.445e7],
            "topology.yaw": {"kind": "locked", "value_deg": 90.0},
            "simulation.t_max": T,
        },
        loads=False,
    )
    system = s3.Euler313System(m)
    y0, c0 = _upright_state(B_rows)
    t_out = np.arange(0.0, T + 1e-9, 0.1)
    rec, ch = s3.integrate(system, y0, c0, t_out, dt)
    return m, system, y0, c0, t_out, rec, ch


W0 = np.array([[0.5, 0.03, 0.02], [0.4, -0.05, 0.1], [-0.45, 0.02, -0.06]])


@pytest.fixture(scope="module")
def tumbling():
    return _tumbling_run(W0)


def test_free_tumbling_conserves_angular_momentum_through_vertical(tumbling):
    m, system, y0, c0, t_out, rec, ch = tumbling
    H = np.array([system.evaluate(t, rec.y[i], ch[i])[2].H_g for i, t in enumerate(t_out)])
    drift = np.abs(H - H[0]).max(axis=(0, 2)) / np.linalg.norm(H[0], axis=1)
    assert np.all(drift < 1e-9), drift
    # the tower went through vertical and upside down: both charts used, several switches,
    # theta_2 of chart 0 jumps by about pi and no value is NaN
    assert np.all(np.isfinite(rec.y))
    assert set(np.unique(ch)) == {0, 1} and np.abs(np.diff(ch, axis=0)).sum() >= 6


def test_free_tumbling_agrees_with_momentum_cloud_core(tumbling):
    m, system, y0, c0, t_out, rec, ch = tumbling
    rec2, sys2 = s3.mcm_reference(m, y0, c0, t_out, 0.01)
    w3 = np.array([system.state(t, rec.y[i], ch[i]).w_t for i, t in enumerate(t_out)])
    w2 = np.array([sys2.evaluate(t, rec2.y[i]).kin.w_b_g[:, 0] for i, t in enumerate(t_out)])
    assert np.abs(w3 - w2).max() < 1e-6


def test_batch_member_equals_run_alone_bit_for_bit(tumbling):
    *_, rec, ch = tumbling
    *_, rec1, ch1 = _tumbling_run(W0[1:2])
    assert np.array_equal(rec.y[:, 1], rec1.y[:, 0]) and np.array_equal(ch[:, 1], ch1[:, 0])


def test_d1_free_vibration_agrees_with_momentum_cloud_core():
    """Sec. D.1 (fast: 30 s), the case's restoring loads, axisymmetric RNA (I_A = I_C, where
    (2.27)-(2.29) are exact): earth-frame angular velocities (Figs. 8-9) agree to 1e-6 rad/s, the
    RNA moments equal the core's (3.27) to 1e-6 relative, and theta_2 jumps by pi when the tower
    passes vertical (Fig. 7)."""
    m = _model({"topology.rna.inertia": [2.445e7, 4.37e7, 2.445e7], "simulation.t_max": 30.0})
    system = s3.Euler313System(m)
    y0, c0 = s3.initial_state(m)
    t_out = np.arange(0.0, 30.0 + 1e-9, 0.1)
    rec, ch = s3.integrate(system, y0, c0, t_out, 0.02)
    rec2, sys2 = s3.mcm_reference(m, y0, c0, t_out, 0.02)
    w3 = np.array([system.state(t, rec.y[i], ch[i]).w_t for i, t in enumerate(t_out)])
    w2 = np.array([sys2.evaluate(t, rec2.y[i]).kin.w_b_g[:, 0] for i, t in enumerate(t_out)])
    assert np.abs(w3 - w2).max() < 1e-6
    # the RNA moment on the tower, -(2.27)-(2.29) through (2.33), = the core's (3.27)
    from floatwind.multibody.gyro import rna_moment

    for i in (0, 77, 150, 299):
        st, _, dyn = system.evaluate(t_out[i], rec.y[i], ch[i])
        M313 = -(dyn.M_ABC[:, 0:1] * st.A + dyn.M_ABC[:, 1:2] * st.B + dyn.M_ABC[:, 2:3] * st.C)
        ev = sys2.evaluate(t_out[i], rec2.y[i])
        Mmcm = np.einsum("bij,bj->bi", ev.kin.R_b2g[:, 1], rna_moment(sys2.tree, ev))
        assert np.abs(M313 - Mmcm).max() <= 1e-6 * np.abs(Mmcm).max()
    th2 = np.array(
        [
            e3.angles_from_matrix(system.state(t, rec.y[i], ch[i]).R_t, 0)[0, 1]
            for i, t in enumerate(t_out)
        ]
    )
    assert np.abs(np.diff(th2)).max() > 2.5  # a jump of about pi through vertical


# ---------------------------------------------------------------- singularities


def test_planar_motion_exactly_through_vertical_has_no_nan():
    """No spin, no yaw, swinging in one plane exactly through theta_1 = 0 from 0.5 rad: chart 0
    -> chart 1 near vertical -> chart 0; chart-0 theta_2 jumps by pi, theta_1 never negative."""
    m = _model(
        {
            "euler313.spin": {"kind": "locked", "value": 0.0},
            "euler313.initial.angles": [0.5, 0.0, 0.0],
            "simulation.t_max": 40.0,
        }
    )
    ds = __import__("floatwind.simulate.run", fromlist=["simulate"]).simulate(m, progress=False)
    th1, th2 = ds.theta_1.values, ds.theta_2.values
    assert np.all(np.isfinite(th1)) and np.all(np.isfinite(th2)) and th1.min() >= 0.0
    d = np.abs(np.diff(th2))
    assert np.any(np.abs(d - np.pi) < 1e-6)  # planar: an exact pi jump
    assert set(np.unique(ds.chart313.values)) == {0.0, 1.0}
    assert ds.theta_1.attrs["units"] == "rad" and ds.Mgyro313A.attrs["units"] == "N m"
    assert "PtfmRoll" in ds and abs(ds.PtfmRoll.values[0] - 0.5) < 1e-12


def test_spin_axis_vertical_stops_with_a_clear_error():
    body = _body()
    ang = np.array([[np.pi / 2, 0.0, -0.2]])  # tower horizontal, eta + yaw = 0: B vertical
    with pytest.raises(SimulationError, match="spin axis vertical"):
        e3.tower_kinematics(body, 0.0, ang, np.zeros((1, 3)), np.zeros(1, dtype=int))


def test_angles_from_matrix_at_the_degenerate_points():
    for R in (np.eye(3), np.diag([1.0, -1.0, -1.0])):
        a = e3.angles_from_matrix(R[None], 0)
        assert np.all(np.isfinite(a))
        np.testing.assert_allclose(e3.tower_matrix(a, np.zeros(1, dtype=int))[0], R, atol=1e-15)


# ---------------------------------------------------------------- case file and bad input


def test_case_file_builds_the_chapter_model():
    m = load_case(CASE)
    b = m.euler313
    assert m.formulation == "euler313"
    assert (b.I_A, b.I_B, b.I_C) == (2.35e7, 4.37e7, 2.54e7)
    assert (b.I_tilt, b.I_axial) == (3.57e9, 9.28e7)
    assert b.spin.evaluate(0.0)[1] == pytest.approx(OMEGA)
    assert b.z_rna == pytest.approx(90.0)


BAD = [
    ({"formulation": "euler"}, "formulation"),
    ({"topology.kind": "three_body"}, "topology.kind"),
    ({"topology.rna_on_axis": False, "topology.rna.cm": [1.0, 0.0, 2.4]}, "topology.rna.cm"),
    ({"euler313.spin_axis": [0.0, 1.0, 0.5]}, "euler313.spin_axis"),
    ({"euler313.spinn": 1.0}, "euler313.spinn"),
    ({"euler313.initial.angles": [-0.1, 0.0, 0.0]}, "euler313.initial.angles"),
    ({"topology.platform.inertia": [3.57e9, 3.0e9, 9.28e7]}, "topology.platform.inertia"),
    ({"initial": {"displacement": [1.0, 0.0, 0.0]}}, "initial"),
]


@pytest.mark.parametrize("change, field", BAD)
def test_bad_input_names_the_field(change, field):
    data = yaml.safe_load(CASE.read_text())
    if "topology.kind" in change:
        data["topology"].pop("rna")
        data["topology"]["spin"] = {"kind": "constant_rate", "rate_rpm": 12.1}
    for key, val in change.items():
        d = data
        *head, last = key.split(".")
        for k in head:
            d = d.setdefault(k, {})
        d[last] = val
    with pytest.raises(CaseError) as exc:
        model_from_dict(data, base_dir=CASE.parent)
    assert exc.value.field == field
    assert "\n" not in str(exc.value)


def test_euler313_section_without_the_formulation_is_refused():
    data = yaml.safe_load(CASE.read_text())
    del data["formulation"]
    with pytest.raises(CaseError) as exc:
        model_from_dict(data, base_dir=CASE.parent)
    assert exc.value.field == "euler313"


def test_output_step_off_the_step_grid_is_refused():
    from floatwind.simulate.run import simulate

    m = _model({"simulation.t_max": 1.0, "simulation.dt": 0.03, "simulation.dt_out": 0.1})
    with pytest.raises(CaseError) as exc:
        simulate(m, progress=False)
    assert exc.value.field == "simulation.dt_out"


@pytest.mark.slow  # whole validation scripts; the fast versions: test_d1_free_vibration_agrees_*, test_free_tumbling_agrees_*
@pytest.mark.parametrize("name", ["d1_free_vibration", "free_tumbling"])
def test_quick_scripts(name, tmp_path):
    """The quick versions of the other validation scripts pass their quantitative checks."""
    import importlib
    import sys

    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    mod = importlib.import_module(f"validation.euler313.{name}")
    assert mod.main(["--quick", "--out", str(tmp_path)]) == 0
    assert list(tmp_path.glob("*.png"))


@pytest.mark.slow  # a whole validation script (wind, Morison waves, thrust, yaw)
def test_d2_yaw_quick_script(tmp_path):
    """validation/euler313/d2_yaw.py --quick: wind, waves (Morison), thrust and the yaw through the
    Load contract; precession ~0.8 rad, M_gyroA non-zero, gyro = MCM (3.28) to 1e-6."""
    import sys

    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from validation.euler313 import d2_yaw

    assert d2_yaw.main(["--quick", "--out", str(tmp_path)]) == 0
    assert list(tmp_path.glob("*.png"))


def test_compiled_rhs_equals_numpy_reference_with_added_mass():
    """floatwind._kernels.euler313 (loads through their contract, Morison added mass on the
    inertia side) = the NumPy reference to 1e-12; a member alone = the same member in a batch."""
    pytest.importorskip("numba")
    from floatwind import _kernels

    if not _kernels.enabled():
        pytest.skip("compiled kernels switched off (FLOATWIND_NO_JIT)")
    data = yaml.safe_load(CASE.read_text())
    data["loads"].append(
        {"type": "morison", "body": "tower", "cd": 0.6, "cm": 2.0, "ca": 1.0, "strip_length": 4.0,
         "members": [{"end_a": [0.0, 0.0, -84.4], "end_b": [0.0, 0.0, 10.0], "diameter": 9.4}]}
    )  # fmt: skip
    data["environment"]["waves"] = {
        "kind": "regular",
        "height": 4.0,
        "period": 10.0,
        "heading_deg": -90.0,
    }
    data["topology"]["yaw"] = {"kind": "constant_rate", "rate_deg": 1.0}
    m = model_from_dict(data, base_dir=CASE.parent)
    system = s3.Euler313System(m)
    rng = np.random.default_rng(7)
    B = 6
    y = np.concatenate(
        [np.stack([rng.uniform(0.05, 0.6, B), rng.uniform(-3, 3, B), rng.uniform(-3, 3, B)], 1),
         rng.normal(size=(B, 3)) * 0.05], 1
    )  # fmt: skip
    ch = np.array([0, 1, 0, 1, 1, 0])
    y[:, :3], y[:, 3:] = e3.convert_chart(y[:, :3], y[:, 3:], np.zeros(B, dtype=int), ch)
    f_jit = system.rhs(3.3, y, ch)
    f_np = system.rhs_numpy(3.3, y, ch)
    assert np.abs(f_jit - f_np).max() <= 1e-12 * np.abs(f_np).max()
    for b in range(B):
        assert np.array_equal(system.rhs(3.3, y[b : b + 1], ch[b : b + 1])[0], f_jit[b])


def test_exact_rna_equations():
    """rna_equations: exact (nacelle carrying I_A, I_C; axisymmetric rotor I_B) = Wang's
    (2.27)-(2.29) when I_A = I_C; with the chapter's I_A != I_C it is the momentum cloud core's
    model: D.1 (20 s) agrees to 1e-6 rad/s, and a free tumble conserves H to 1e-9."""
    body = _body()
    rng = np.random.default_rng(5)
    ang, rates = _random_state(rng)
    ch = np.zeros(5, dtype=int)
    st = e3.tower_kinematics(body, 0.4, ang, rates, ch)
    d_w = e3.forward_dynamics(body, st, Wrench.zeros(5, 2))
    d_x = e3.forward_dynamics(
        e3.Euler313Body(**{**body.__dict__, "rna_equations": "exact"}), st, Wrench.zeros(5, 2)
    )
    np.testing.assert_allclose(d_x.acc, d_w.acc, rtol=1e-10, atol=1e-15)
    np.testing.assert_allclose(d_x.M_ABC, d_w.M_ABC, rtol=1e-9, atol=1e-6)
    # D.1 with the chapter's inertias
    m = _model({"euler313.rna_equations": "exact", "simulation.t_max": 20.0})
    system = s3.Euler313System(m)
    y0, c0 = s3.initial_state(m)
    t_out = np.arange(0.0, 20.0 + 1e-9, 0.1)
    rec, chs = s3.integrate(system, y0, c0, t_out, 0.02)
    rec2, sys2 = s3.mcm_reference(m, y0, c0, t_out, 0.02)
    w3 = np.array([system.state(t, rec.y[i], chs[i]).w_t for i, t in enumerate(t_out)])
    w2 = np.array([sys2.evaluate(t, rec2.y[i]).kin.w_b_g[:, 0] for i, t in enumerate(t_out)])
    assert np.abs(w3 - w2).max() < 1e-6
    # free tumble, I_A != I_C
    m = _model(
        {
            "euler313.rna_equations": "exact",
            "topology.yaw": {"kind": "locked", "value_deg": 90.0},
            "simulation.t_max": 8.0,
        },
        loads=False,
    )
    system = s3.Euler313System(m)
    y0, c0 = _upright_state(W0[:1])
    t_out = np.arange(0.0, 8.0 + 1e-9, 0.1)
    rec, chs = s3.integrate(system, y0, c0, t_out, 0.01)
    H = np.array([system.evaluate(t, rec.y[i], chs[i])[2].H_g for i, t in enumerate(t_out)])
    assert np.abs(H - H[0]).max() / np.linalg.norm(H[0]) < 1e-9
    assert np.abs(np.diff(chs[:, 0])).sum() >= 2


def test_a_study_runs_euler313_cases(tmp_path):
    """A study (and so a DLC set) can run an euler313 design: its channels are selected from
    the formulation's dataset; the batch member equals the run alone."""
    import pathlib

    from floatwind.studies import run_study
    from floatwind.studies.execute import open_study_dataset, run_one
    from floatwind.studies.spec import study_from_dict

    root = pathlib.Path(__file__).resolve().parents[1]
    st = study_from_dict({
        "name": "e3", "designs": [{"name": "wang", "case": str(root / "cases" / "euler313_wang_ch2.yaml")}],
        "conditions": [{"name": "calm"}], "realizations": 2, "duration": 4.0,
        "channels": ["PtfmPitch", "PtfmRoll"],
    }, base_dir=root)  # fmt: skip
    res = run_study(st, tmp_path / "out", workers=1, progress=False)
    assert (res.runs["status"] == "ok").all()
    ds = open_study_dataset(tmp_path / "out")
    one = run_one(st, ds["run"].values[0], progress=False)
    assert np.array_equal(ds["PtfmPitch"].isel(run=0).values, np.ravel(one["PtfmPitch"].values))
