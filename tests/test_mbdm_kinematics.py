"""MBDM coordinates, joint library and kinematic analysis (Leble, seed 001, sec. 2-3; issue 19).

Every joint's Jacobian is checked against central finite differences at random configurations,
nu and gamma against the first and second time derivatives of Phi along a random smooth motion,
and the slider-crank of sec. 10.2 (Tables 24-26) against its closed-form kinematics.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from floatwind.errors import CaseError
from floatwind.multibody.mbdm import (
    JOINT_TYPES,
    A_matrix,
    E_matrix,
    G_matrix,
    Joint,
    System,
    kinematic_analysis,
    omega_body,
    pddot_from_omega,
    pdot_from_omega,
    quaternion_from_angles123,
)
from floatwind.rotation import axis_angle_matrix, quaternion_from_matrix, skew

RNG = np.random.default_rng(19)


def _unit_q(rng, shape=()):
    p = rng.normal(size=shape + (4,))
    return p / np.linalg.norm(p, axis=-1, keepdims=True)


# --- coordinates (eqs. 2, 28, 36-40) --------------------------------------------------------------


def test_euler_parameter_matrices_batched():
    p = _unit_q(RNG, (5,))
    A, G, E = A_matrix(p), G_matrix(p), E_matrix(p)
    assert A.shape == (5, 3, 3) and G.shape == (5, 3, 4) and E.shape == (5, 3, 4)
    np.testing.assert_allclose(A, E @ np.swapaxes(G, -1, -2), atol=1e-14)  # eq. (38)
    np.testing.assert_allclose(G @ np.swapaxes(G, -1, -2), np.broadcast_to(np.eye(3), A.shape),
                               atol=1e-14)  # fmt: skip
    np.testing.assert_allclose(np.einsum("bij,bj->bi", G, p), 0.0, atol=1e-14)


def test_angular_velocity_relations_eq40():
    """omega' = 2 G pdot against ~omega' = A^T Adot, and pddot of eq. (40) against FD."""
    p0, b, c = _unit_q(RNG), RNG.normal(size=4), RNG.normal(size=4)

    def p_of(t):
        p = p0 + b * t + c * t * t
        return p / np.linalg.norm(p)

    h = 1e-4
    pd = (p_of(h) - p_of(-h)) / (2 * h)
    pdd = (p_of(h) - 2 * p_of(0.0) + p_of(-h)) / h**2
    Ad = (A_matrix(p_of(h)) - A_matrix(p_of(-h))) / (2 * h)
    w = omega_body(p_of(0.0), pd)
    np.testing.assert_allclose(skew(w), A_matrix(p_of(0.0)).T @ Ad, atol=1e-7)
    np.testing.assert_allclose(pdot_from_omega(p_of(0.0), w), pd, atol=1e-8)
    wd = (omega_body(p_of(h), (p_of(2 * h) - p_of(0.0)) / (2 * h))
          - omega_body(p_of(-h), (p_of(0.0) - p_of(-2 * h)) / (2 * h))) / (2 * h)  # fmt: skip
    np.testing.assert_allclose(pddot_from_omega(p_of(0.0), w, wd), pdd, atol=1e-5)


# --- a random joint of every type ----------------------------------------------------------------


def _random_joint(typ: str, rng, ground: bool = False) -> Joint:
    v = lambda: tuple(rng.normal(size=3))  # noqa: E731
    j = None if typ in ("ABX", "ABY", "ABZ", "ABA", "G") or ground else 1
    kw = dict(p1=v(), q1=v(), r1=v(), p2=v(), q2=v(), r2=v(), dist=1.0 + rng.random())
    if typ in ("ABA", "G"):
        kw["q1"] = tuple(0.3 * rng.normal(size=3))
    if typ == "RDRV":
        kw["r1"] = (rng.normal(), 0.0, 0.0)
    return Joint(typ, (0, j), name=f"{typ}-test", **kw)


def _system(joint: Joint) -> System:
    return System(("a", "b", "c"), (joint,))


def _random_q(rng, nb=3):
    return np.concatenate([rng.normal(size=(nb, 3)), _unit_q(rng, (nb,))], axis=1)


CASES = [(t, False) for t in sorted(JOINT_TYPES)] + [(t, True) for t in ("S", "R", "C", "T",
                                                                          "U", "DI", "RDRV")]  # fmt: skip


def _wrap(x):
    return (x + np.pi) % (2 * np.pi) - np.pi  # only matters for RDRV's angle


@pytest.mark.parametrize("typ,ground", CASES)
def test_jacobian_matches_central_differences(typ, ground):
    """Phi_q (Table 1) against central differences, 5 random configurations, 1e-6 relative."""
    rng = np.random.default_rng(zlib.crc32(f"{typ}-{ground}".encode()))
    worst = 0.0
    for _ in range(5):
        sys_ = _system(_random_joint(typ, rng, ground))
        q = _random_q(rng)
        rows = sys_.evaluate(q, None, 0.37)
        assert rows.phi.shape == (JOINT_TYPES[typ] + 3,)
        h = 1e-6
        Jfd = np.zeros_like(rows.J)
        for c in range(q.size):
            dq = np.zeros(q.size)
            dq[c] = h
            fp = sys_.evaluate(q + dq.reshape(q.shape), None, 0.37).phi
            fm = sys_.evaluate(q - dq.reshape(q.shape), None, 0.37).phi
            Jfd[:, c] = _wrap(fp - fm) / (2 * h)
        worst = max(worst, np.max(np.abs(rows.J - Jfd)) / max(1.0, np.max(np.abs(Jfd))))
    assert worst < 1e-6, worst


def _smooth_motion(rng, nb=3):
    r0, r1, r2 = (rng.normal(size=(nb, 3)) for _ in range(3))
    p0, p1, p2 = (rng.normal(size=(nb, 4)) for _ in range(3))
    w = rng.normal(size=(nb, 1))

    def q_of(t):
        r = r0 + r1 * np.sin(w * t) + r2 * t * t
        p = p0 + p1 * np.cos(w * t) + p2 * t
        return np.concatenate([r, p / np.linalg.norm(p, axis=1, keepdims=True)], axis=1)

    return q_of


def _d1(f, t, h):
    return (f(t - 2 * h) - 8 * f(t - h) + 8 * f(t + h) - f(t + 2 * h)) / (12 * h)


def _d2(f, t, h):
    return (-f(t - 2 * h) + 16 * f(t - h) - 30 * f(t) + 16 * f(t + h) - f(t + 2 * h)) / (12 * h * h)


def _phi_along(system, q_of, t0):
    """Phi(q(t), t), unwrapped around its value at t0 (RDRV's angle)."""
    ref = system.evaluate(q_of(t0), None, t0).phi
    return lambda t: ref + _wrap(system.evaluate(q_of(t), None, t).phi - ref)


@pytest.mark.parametrize("typ,ground", CASES)
def test_nu_and_gamma_match_time_derivatives(typ, ground):
    """d Phi/dt = Phi_q qdot - nu (eq. 34), d2 Phi/dt2 = Phi_q qddot - gamma (eq. 35), 5-point
    finite differences along random smooth motions (unit Euler parameters throughout)."""
    rng = np.random.default_rng(zlib.crc32(f"{typ}-{ground}-gamma".encode()))
    worst = 0.0
    for _ in range(5):
        sys_ = _system(_random_joint(typ, rng, ground))
        q_of = _smooth_motion(rng)
        t0, h = 0.3, 1e-3
        phi_of = _phi_along(sys_, q_of, t0)
        dphi, ddphi = _d1(phi_of, t0, h), _d2(phi_of, t0, h)
        qd, qdd = _d1(q_of, t0, h), _d2(q_of, t0, h)
        rows = sys_.evaluate(q_of(t0), qd, t0)
        lin = rows.J @ qdd.ravel()
        scale = max(1.0, np.max(np.abs(lin)), np.max(np.abs(rows.gamma)))
        worst = max(worst, np.max(np.abs(ddphi - (lin - rows.gamma))) / scale)
        np.testing.assert_allclose(dphi, rows.J @ qd.ravel() - rows.nu, atol=1e-8 * scale)
        np.testing.assert_allclose(rows.rate, rows.J @ qd.ravel(), atol=1e-12 * scale)
    assert worst < 1e-6, worst


def test_joint_rows_remove_table11_dofs():
    removed = {"ABX": 1, "ABY": 1, "ABZ": 1, "ABA": 3, "C": 4, "DI": 1, "G": 6, "R": 5, "RC": 3,
               "RDRV": 1, "S": 3, "T": 5, "U": 4}  # Table 11  # fmt: skip
    assert JOINT_TYPES == removed


def test_bad_joint_definitions_raise_case_error():
    with pytest.raises(CaseError, match="unknown joint type 'XX'"):
        Joint("XX", (0, 1))
    with pytest.raises(CaseError, match="h1 = q1 - p1 is a zero vector"):
        Joint("R", (0, 1), p1=(1, 0, 0), q1=(1, 0, 0), r1=(2, 0, 0), q2=(0, 0, 1))
    with pytest.raises(CaseError, match="dist != 0"):
        Joint("DI", (0, 1))
    with pytest.raises(CaseError, match="names body 5"):
        System(("a",), (Joint("S", (0, 5)),))


# --- slider-crank, sec. 10.2 ---------------------------------------------------------------------

R_CRANK, L_ROD, OMEGA, THETA0 = 2.0, 3.5, 2.0 * np.pi, np.pi / 4


def _slider_crank_joints(crank_rate=OMEGA):
    """Table 25/26 (bodies 1-4 -> indices 0-3: crank, rod, slider, ground)."""
    z, x = (0, 0, 1), (1, 0, 0)
    return [
        Joint("R", (0, 3), p1=(0, 0, 0), q1=z, r1=x, p2=(0, 0, 0), q2=z, name="crank_bearing"),
        Joint(
            "R",
            (0, 1),
            p1=(2, 0, 0),
            q1=(2, 0, 1),
            r1=(3, 0, 0),
            p2=(-1.75, 0, 0),
            q2=(-1.75, 0, 1),
            name="crank_pin",
        ),  # fmt: skip
        Joint(
            "C",
            (1, 2),
            p1=(1.75, 0, -1),
            q1=(1.75, 0, 0),
            r1=(2.75, 0, -1),
            p2=(0, 0, 0),
            q2=z,
            r2=x,
            name="wrist_pin",
        ),  # fmt: skip
        Joint("ABY", (2, None), name="slider_y"),
        Joint("ABZ", (2, None), name="slider_z"),
        Joint("G", (3, None), name="ground"),
        Joint("RDRV", (3, 2), p1=x, q1=z, p2=x, name="slider_no_spin"),
        Joint(
            "RDRV",
            (3, 0),
            p1=x,
            q1=z,
            r1=(THETA0, 0, 0),
            p2=x,
            dist=crank_rate,
            name="crank_driver",
        ),  # fmt: skip
    ]


BODIES = ("crank", "rod", "slider", "ground")


def _slider_crank_q0():
    """Table 24: a close estimate of the assembled configuration at t = 0."""
    ang = np.array([[0, 0, np.pi / 4], [0, 0, -0.4158], [0, 0, 0], [0, 0, 0]])
    r = np.array([[0, 0, 0], [3.0152, 0.7066, 0], [4.6162, 0, 0], [0, 0, 0]])
    return np.concatenate([r, quaternion_from_angles123(ang)], axis=1)


def _closed_form(t):
    th = THETA0 + OMEGA * t
    s, c = np.sin(th), np.cos(th)
    S = np.sqrt(L_ROD**2 - R_CRANK**2 * s * s)
    x = R_CRANK * c + S
    dx = -R_CRANK * s - R_CRANK**2 * s * c / S
    ddx = (-R_CRANK * c - R_CRANK**2 * np.cos(2 * th) / S
           - R_CRANK**4 * s * s * c * c / S**3)  # fmt: skip
    return x, OMEGA * dx, OMEGA**2 * ddx


def test_slider_crank_matches_closed_form():
    """x = r cos(th) + sqrt(l^2 - r^2 sin^2 th) and its derivatives, over a revolution, 1e-8."""
    system = System(BODIES, _slider_crank_joints())
    t = np.linspace(0.0, 1.0, 201)
    res = kinematic_analysis(system, _slider_crank_q0(), t, tol=1e-12)
    x, dx, ddx = _closed_form(t)
    err = [np.max(np.abs(res.q[:, 2, 0] - x)), np.max(np.abs(res.qdot[:, 2, 0] - dx)),
           np.max(np.abs(res.qddot[:, 2, 0] - ddx))]  # fmt: skip
    assert err[0] < 1e-8 and err[1] < 1e-8 and err[2] < 1e-8, err
    # the slider stays on the x axis and unrotated; the crank turns at OMEGA
    np.testing.assert_allclose(res.q[:, 2, 1:3], 0.0, atol=1e-10)
    np.testing.assert_allclose(res.q[:, 2, 3:], np.tile([1.0, 0, 0, 0], (t.size, 1)), atol=1e-10)
    w = omega_body(res.q[:, 0, 3:], res.qdot[:, 0, 3:])
    np.testing.assert_allclose(w, np.tile([0, 0, OMEGA], (t.size, 1)), atol=1e-9)
    assert res.iterations.max() <= 6


def test_redundant_constraint_names_the_joints():
    joints = _slider_crank_joints() + [Joint("ABZ", (2, None), name="slider_z_again")]
    with pytest.raises(CaseError) as err:
        kinematic_analysis(System(BODIES, joints), _slider_crank_q0(), [0.0])
    msg = str(err.value)
    assert "\n" not in msg and "redundant constraints" in msg
    assert "'slider_z'" in msg and "'slider_z_again'" in msg and "crank_pin" not in msg


def test_redundant_square_set_and_missing_driver():
    # square (28 x 28) but singular: the slider's spin driver swapped for a second ABY
    joints = [j for j in _slider_crank_joints() if j.name != "slider_no_spin"]
    joints.append(Joint("ABY", (2, None), name="slider_y_again"))
    with pytest.raises(
        CaseError,
        match="redundant constraints.*'slider_y'.*'slider_y_again'|"
        "redundant constraints.*'slider_y_again'.*'slider_y'",
    ):
        kinematic_analysis(System(BODIES, joints), _slider_crank_q0(), [0.0])
    joints = [j for j in _slider_crank_joints() if j.name != "crank_driver"]
    with pytest.raises(CaseError, match="1 degrees of freedom are not driven"):
        kinematic_analysis(System(BODIES, joints), _slider_crank_q0(), [0.0])


# --- each joint permits exactly its relative motions (sec. 2.4) ----------------------------------


def _completed(h):
    """An orthonormal frame [f, g, h] (columns) with the given unit h."""
    a = np.eye(3)[np.argmin(np.abs(h))]
    f = np.cross(a, h)
    f /= np.linalg.norm(f)
    return np.column_stack([f, np.cross(h, f), h])


def _joint_frame(p, q, r):
    h = np.subtract(q, p) / np.linalg.norm(np.subtract(q, p))
    f = np.subtract(r, p)
    f = f - (f @ h) * h
    f /= np.linalg.norm(f)
    return np.column_stack([f, np.cross(h, f), h])


def _pose(A):
    return quaternion_from_matrix(A)


def _move(q, k, R, about):
    """Rotate body k by R about the global point ``about``."""
    q = q.copy()
    A = A_matrix(q[k, 3:])
    q[k, :3] = about + R @ (q[k, :3] - about)
    q[k, 3:] = _pose(R @ A)
    return q


@pytest.mark.parametrize("typ", ["S", "R", "C", "T", "U", "RC", "DI"])
def test_joint_permits_its_relative_motions(typ):
    """Assemble body 1 on body 0 through the joint, then move it along the joint's free
    directions (Phi stays 0) and along one it forbids (Phi does not); the rows are independent."""
    rng = np.random.default_rng(zlib.crc32(typ.encode()))
    jt = _random_joint(typ, rng)
    sys_ = System(("i", "j"), (jt,))
    Ai = A_matrix(_unit_q(rng))
    ri = rng.normal(size=3)
    P = ri + Ai @ np.asarray(jt.p1)  # joint point on body i, global
    if typ in ("R", "C", "T"):
        Fi = Ai @ _joint_frame(jt.p1, jt.q1, jt.r1)
        Fj = _joint_frame(jt.p2, jt.q2, jt.r2)
        Fg = Fi[:, [1, 0, 2]] * [1, -1, 1] if typ == "T" else Fi  # T: f_j normal to f_i
        Aj = Fg @ Fj.T
        h = Fi[:, 2]
    elif typ in ("U", "RC"):  # the arm / cylinder axis h_j normal to h_i
        h = Ai @ (np.subtract(jt.q1, jt.p1) / np.linalg.norm(np.subtract(jt.q1, jt.p1)))
        b = _completed(h)[:, 0]
        hj = np.subtract(jt.q2, jt.p2) / np.linalg.norm(np.subtract(jt.q2, jt.p2))
        Aj = _completed(b) @ _completed(hj).T
        if typ == "RC":
            P = P + 0.7 * b  # P_j on the cylinder axis, d_ji parallel to h_j
    else:
        Aj = A_matrix(_unit_q(rng))
    if typ == "DI":
        u = rng.normal(size=3)
        P = P + jt.dist * u / np.linalg.norm(u)  # P_j, at the distance from P_i
    rj = P - Aj @ np.asarray(jt.p2)
    q = np.array([np.r_[ri, _pose(Ai)], np.r_[rj, _pose(Aj)]])
    phi = lambda qq: sys_.evaluate(qq).phi[: jt.n_rows]  # noqa: E731
    np.testing.assert_allclose(phi(q), 0.0, atol=1e-12)
    J = sys_.evaluate(q).J[: jt.n_rows]
    assert np.linalg.matrix_rank(J, tol=1e-8) == jt.n_rows
    rot = lambda axis, ang: axis_angle_matrix(axis / np.linalg.norm(axis), ang)  # noqa: E731
    rand = rng.normal(size=3)
    if typ in ("S", "DI"):
        free = [_move(q, 1, rot(rand, 0.7), ri + Ai @ np.asarray(jt.p1))]
        bad = q.copy()
        bad[1, :3] += rand
    elif typ == "U":
        free = [_move(q, 1, rot(h, 0.7), P), _move(q, 1, rot(b, -0.5), P)]
        bad = _move(q, 1, rot(np.cross(h, b), 0.4), P)
    elif typ == "RC":
        Pi = ri + Ai @ np.asarray(jt.p1)
        slide = q.copy()
        slide[1, :3] += 0.4 * b
        free = [_move(q, 1, rot(h, 0.7), Pi), _move(q, 1, rot(b, -0.5), P), slide]
        bad = _move(q, 1, rot(np.cross(h, b), 0.4), Pi)
    else:
        spin = _move(q, 1, rot(h, 0.9), P)
        slide = q.copy()
        slide[1, :3] += 0.8 * h
        free = {"R": [spin], "C": [spin, slide], "T": [slide]}[typ]
        bad = {"R": slide, "C": _move(q, 1, rot(_completed(h)[:, 0], 0.3), P), "T": spin}[typ]
    for qq in free:
        np.testing.assert_allclose(phi(qq), 0.0, atol=1e-12)
    assert np.max(np.abs(phi(bad))) > 1e-3
