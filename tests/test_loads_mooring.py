"""Taut mooring (Wang 3.16): analytic tensions, slack lines, damping, frame invariance, errors."""

from __future__ import annotations

import numpy as np
import pytest

from floatwind.environment import Environment
from floatwind.errors import CaseError, SimulationError
from floatwind.loads.base import Kinematics
from floatwind.loads.mooring import MooringLine, TautMooring
from floatwind.rotation import euler123_matrix

ENV = Environment()


def make_kin(R, origin, cm_b, v_G=None, w=None):
    R = np.asarray(R, float).reshape(-1, 3, 3)
    B = R.shape[0]
    origin = np.broadcast_to(np.asarray(origin, float), (B, 3))
    r_G = origin + np.einsum("bij,j->bi", R, cm_b)
    v_G = np.zeros((B, 3)) if v_G is None else np.broadcast_to(v_G, (B, 3))
    w = np.zeros((B, 3)) if w is None else np.broadcast_to(w, (B, 3))
    return Kinematics(0.0, r_G[:, None], R[:, None], v_G[:, None], w[:, None], cm_b[None])


def four_lines(t0=1.0e6, ea=3.84e8, **extra):
    lines = []
    for k in range(4):
        a = k * np.pi / 2
        lines.append(
            dict(
                fairlead=[5.2 * np.cos(a), 5.2 * np.sin(a), -70.0],
                anchor=[450 * np.cos(a), 450 * np.sin(a), -320.0],
                ea=ea,
                pretension=t0,
                **extra,
            )
        )
    return lines


def test_single_line_analytic_tension_and_direction():
    cm = np.array([0.0, 0.0, -80.0])
    line = MooringLine(
        fairlead=np.array([0.0, 0.0, -70.0]),
        anchor=np.array([300.0, 0.0, -320.0]),
        stiffness=2.0e5,
        length=380.0,
        pretension=5.0e5,
    )
    load = TautMooring(body=0, lines=[line])
    origin = np.array([-10.0, 3.0, 1.0])
    kin = make_kin(np.eye(3), origin, cm)
    w = load.wrench(0.0, kin, ENV)
    r_A = origin + np.array([0.0, 0.0, -70.0])
    chord = np.array([300.0, 0.0, -320.0]) - r_A
    ell = np.linalg.norm(chord)
    tension = 5.0e5 + 2.0e5 * (ell - 380.0)  # Wang (3.16)
    assert w.channels["FAIRTEN1"][0] == pytest.approx(tension, rel=1e-12)
    assert np.allclose(w.force[0, 0], tension * chord / ell, rtol=1e-12)
    arm = r_A - kin.r_G_g[0, 0]
    assert np.allclose(w.moment[0, 0], np.cross(arm, w.force[0, 0]), rtol=1e-12)
    # about the reference point (platform SWL point), OpenFAST HydroM-style
    m_ref = np.cross(r_A - origin, w.force[0, 0])
    got = np.array([w.channels[f"MoorM{a}i"][0] for a in "xyz"])
    assert np.allclose(got, m_ref, rtol=1e-10, atol=1e-6)


def test_slack_lines_carry_no_compression_unless_allowed():
    line = dict(fairlead=[0, 0, -10.0], anchor=[0, 0, -110.0], stiffness=1e4, length=100.0)
    kin = make_kin(np.eye(3), [0, 0, -5.0], np.zeros(3))  # 5 m shorter than L
    slack = TautMooring(body=0, lines=[line]).wrench(0.0, kin, ENV)
    assert slack.channels["FAIRTEN1"][0] == 0.0 and np.all(slack.force == 0.0)
    spring = TautMooring(body=0, lines=[line], allow_compression=True).wrench(0.0, kin, ENV)
    assert spring.channels["FAIRTEN1"][0] == pytest.approx(-5.0e4)
    assert spring.force[0, 0, 2] == pytest.approx(5.0e4)  # pushes the body up


def test_linear_axial_damping():
    line = dict(
        fairlead=[0, 0, -10.0], anchor=[0, 0, -110.0], stiffness=1e4, length=100.0, damping=2e3
    )
    load = TautMooring(body=0, lines=[line], allow_compression=True)
    kin = make_kin(np.eye(3), np.zeros(3), np.zeros(3), v_G=[0.0, 0.0, 0.5])  # lengthening
    assert load.wrench(0.0, kin, ENV).channels["FAIRTEN1"][0] == pytest.approx(2e3 * 0.5)
    # spinning about the line axis does not change the length
    kin = make_kin(np.eye(3), np.zeros(3), np.zeros(3), w=[0.0, 0.0, 3.0])
    assert load.wrench(0.0, kin, ENV).channels["FAIRTEN1"][0] == pytest.approx(0.0, abs=1e-9)


def test_frame_invariance_moment_about_any_point():
    """Same physical pose described with two body CMs: moments transferred to a point agree."""
    load = TautMooring(body=0, lines=four_lines())
    rng = np.random.default_rng(3)
    ang = rng.uniform(-0.4, 0.4, size=(5, 3))
    R = euler123_matrix(ang)
    origin = rng.uniform(-20, 20, size=(5, 3))
    point = np.array([7.0, -3.0, 40.0])
    results = []
    for cm in (np.array([0.0, 0.0, -89.9]), np.array([1.0, -2.0, 12.0])):
        kin = make_kin(R, origin, cm)
        w = load.wrench(0.0, kin, ENV)
        m_point = w.moment[:, 0] + np.cross(kin.r_G_g[:, 0] - point, w.force[:, 0])
        results.append((w.force[:, 0], m_point))
        # direct sum over lines about the point
        r_A = origin[:, None] + np.einsum("bij,lj->bli", R, load.fairlead_b)
        _, _, t = load.tensions(kin)
        chord = load.anchor_g[None] - r_A
        u = chord / np.linalg.norm(chord, axis=-1, keepdims=True)
        direct = np.cross(r_A - point, t[..., None] * u).sum(axis=1)
        assert np.allclose(m_point, direct, rtol=1e-10, atol=1e-3)
    assert np.allclose(results[0][0], results[1][0], rtol=1e-12)
    assert np.allclose(results[0][1], results[1][1], rtol=1e-10, atol=1e-3)
    # a rotation of the whole setup about the vertical rotates the wrench
    psi = 0.7
    Rz = euler123_matrix(np.array([0.0, 0.0, psi]))
    lines_rot = [
        dict(line, fairlead=Rz @ np.array(line["fairlead"]), anchor=Rz @ np.array(line["anchor"]))
        for line in four_lines()
    ]
    cm = np.array([0.0, 0.0, -89.9])
    w1 = load.wrench(0.0, make_kin(R[:1], origin[:1], cm), ENV)
    kin2 = make_kin(Rz @ R[0] @ Rz.T, Rz @ origin[0], Rz @ cm)
    w2 = TautMooring(body=0, lines=lines_rot).wrench(0.0, kin2, ENV)
    assert np.allclose(w2.force[0, 0], Rz @ w1.force[0, 0], rtol=1e-10)
    assert np.allclose(w2.moment[0, 0], Rz @ w1.moment[0, 0], rtol=1e-9, atol=1e-3)


def test_symmetric_spread_at_rest_and_batch():
    load = TautMooring(body=0, lines=four_lines(t0=1.0e6))
    kin = make_kin(np.eye(3), np.zeros(3), np.array([0, 0, -80.0]))
    w = load.wrench(0.0, kin, ENV)
    assert np.allclose(w.force[0, 0, :2], 0.0, atol=1e-6)
    chord = np.array([450 - 5.2, 0.0, -250.0])
    ell = np.linalg.norm(chord)
    assert np.allclose([w.channels[f"FAIRTEN{i}"][0] for i in range(1, 5)], 1.0e6)
    assert w.force[0, 0, 2] == pytest.approx(4 * 1.0e6 * chord[2] / ell)
    # batch equals one-by-one
    R = euler123_matrix(np.array([[0.1, 0, 0], [0, 0.3, 0.2], [0.4, 0.4, 0]]))
    o = np.array([[1.0, 0, 0], [0, 3, -1], [-5, 2, 1]])
    cm = np.array([0, 0, -80.0])
    wb = load.wrench(0.0, make_kin(R, o, cm), ENV)
    for b in range(3):
        w1 = load.wrench(0.0, make_kin(R[b], o[b], cm), ENV)
        assert np.allclose(wb.force[b], w1.force[0]) and np.allclose(wb.moment[b], w1.moment[0])


def test_from_config_and_errors():
    cfg = {
        "type": "mooring_taut",
        "body": "platform",
        "lines": four_lines(damping=1e3),
    }
    load = TautMooring.from_config(cfg, body_index={"platform": 0}, field="loads[2]")
    assert load.stiffness[0] == pytest.approx(3.84e8 / load.length[0])
    assert set(load.channel_info()) >= {"FAIRTEN1", "FAIRTEN4", "MoorFxi", "MoorMzi"}
    bad = dict(fairlead=[0, 0, -70], anchor=[100, 0, -50.0], ea=1e8)
    with pytest.raises(CaseError, match="anchor .* not below") as err:
        TautMooring.from_config({"lines": [bad]}, body_index={"p": 0}, field="loads[2]")
    assert err.value.field == "loads[2].lines[0].anchor"
    with pytest.raises(CaseError, match="zero-length"):
        TautMooring(body=0, lines=[dict(fairlead=[0, 0, -7], anchor=[0, 0, -7], ea=1.0)])
    with pytest.raises(CaseError, match="length must be > 0"):
        TautMooring(body=0, lines=[dict(fairlead=[0, 0, -7], anchor=[0, 0, -9], ea=1.0, length=0)])
    with pytest.raises(CaseError, match="did you mean 'pretension'") as err:
        TautMooring.from_config(
            {"lines": [dict(fairlead=[0, 0, -7], anchor=[9, 0, -90], ea=1.0, pretention=3.0)]},
            body_index={"p": 0},
            field="loads[2]",
        )
    assert err.value.field == "loads[2].lines[0].pretention"
    with pytest.raises(CaseError, match="either 'ea' or 'stiffness'"):
        TautMooring(
            body=0,
            lines=[dict(fairlead=[0, 0, -7], anchor=[9, 0, -90], ea=1.0, stiffness=2.0)],
        )
    with pytest.raises(CaseError, match="> 0"):
        TautMooring(body=0, lines=[dict(fairlead=[0, 0, -7], anchor=[9, 0, -90], ea=-1.0)])
    with pytest.raises(CaseError, match="did you mean 'lines'"):
        TautMooring.from_config({"line": []}, body_index={"p": 0}, field="loads[2]")
    # a fairlead driven onto its anchor during a run is a simulation error, not a case error
    load = TautMooring(body=0, lines=[dict(fairlead=[0, 0, 0], anchor=[0, 0, -50.0], ea=1e6)])
    with pytest.raises(SimulationError, match="reached its anchor"):
        load.wrench(0.0, make_kin(np.eye(3), [0, 0, -50.0], np.zeros(3)), ENV)


@pytest.mark.parametrize("compress", [False, True])
def test_compiled_kernel_equals_numpy(compress):
    """floatwind._kernels.loads.taut_kernel against its Python form (the reference, ``py_func``,
    what ``wrench`` runs with FLOATWIND_NO_JIT=1): random displaced, rotated, moving states (a
    slack line included), and member 1 alone == member 1 in the batch."""
    pytest.importorskip("numba")
    from floatwind import _kernels

    rng = np.random.default_rng(7)
    lines = four_lines(t0=2.0e5, damping=3.0e4)
    load = TautMooring.from_config(
        {"type": "mooring_taut", "body": "b", "lines": lines, "allow_compression": compress},
        body_index={"b": 0},
        field="loads[0]",
    )
    B = 5
    R = euler123_matrix(rng.uniform(-0.3, 0.3, (B, 3)))
    origin = rng.normal(0.0, 8.0, (B, 3))
    origin[0] = [60.0, 0.0, 0.0]  # the +x line goes slack (negative tension without the clamp)
    cm = np.array([0.0, 0.0, -80.0])
    kin = make_kin(R, origin, cm, v_G=rng.normal(0, 1, (B, 3)), w=rng.normal(0, 0.1, (B, 3)))
    old = _kernels.use_jit(False)
    try:
        ref = load.wrench(0.0, kin, ENV)
        _kernels.use_jit(True)
        jit = load.wrench(0.0, kin, ENV)
        one = load.wrench(
            0.0,
            Kinematics(
                0.0, kin.r_G_g[1:2], kin.R_b2g[1:2], kin.v_G_g[1:2], kin.w_b_g[1:2], kin.cm_b
            ),
            ENV,
        )
    finally:
        _kernels.use_jit(old)
    scale = np.abs(ref.force).max()
    np.testing.assert_allclose(jit.force, ref.force, rtol=0, atol=1e-12 * scale)
    np.testing.assert_allclose(jit.moment, ref.moment, rtol=0, atol=1e-12 * scale * 100)
    assert set(jit.channels) == set(ref.channels)
    for name, val in ref.channels.items():
        np.testing.assert_allclose(jit.channels[name], val, rtol=1e-12, atol=1e-6, err_msg=name)
    assert (ref.channels["FAIRTEN1"][0] < 0) == compress  # the slack line
    assert np.array_equal(one.force[0], jit.force[1])
    assert np.array_equal(one.channels["FAIRTEN2"], jit.channels["FAIRTEN2"][1:2])


def test_compiled_kernel_still_raises_at_zero_line_length():
    pytest.importorskip("numba")
    from floatwind import _kernels

    line = MooringLine(
        fairlead=np.array([0.0, 0.0, -70.0]),
        anchor=np.array([0.0, 0.0, -100.0]),
        stiffness=1.0e5,
        length=10.0,
    )
    load = TautMooring(body=0, lines=[line])
    kin = make_kin(np.eye(3), [0.0, 0.0, -30.0], np.array([0.0, 0.0, -80.0]))  # on the anchor
    old = _kernels.use_jit(True)
    try:
        with pytest.raises(SimulationError, match="anchor"):
            load.wrench(0.0, kin, ENV)
    finally:
        _kernels.use_jit(old)
