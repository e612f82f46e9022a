"""The weight and inertia in a controller library's hub and yaw-bearing moments (issue 36;
docs/control.md "The measurements"): ElastoDyn's LSSTipMya/Mza/Mys/Mzs (records 73-76) are the
moment of the rotor (hub and blades: aerodynamic, weight, inertial) on the shaft at the hub point,
YawBrMyn/Mzn (77-78) that of every mass above the yaw bearing (rotor, generator, nacelle) on the
tower top. floatwind forms the structural part in ``floatwind._kernels.servo.structural_moments``
(d'Alembert per rigid mass, ``dalembert_moment``); these tests use its Python form (no compile):
a parked rotor's overhang weight, a steady spin (no moment of a symmetric rotor) and its
gyroscopic moment under a yaw rate, an angular acceleration, the nacelle's weight about the yaw
bearing, a sum over point masses for any motion, and the case keys. The compiled path (records
in a batch, bit for bit) is checked in tests/test_bladed.py.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pytest

from floatwind._kernels import servo as ksv
from floatwind._kernels.contract import BodyKinematics
from floatwind.errors import CaseError

G = 9.80665
M_ROT, D_OVERHANG = 1.1e5, 5.0  # kg; m upwind of the hub point (the NREL 5-MW's order)
J_X, J_T = 3.8e7, 1.9e7  # kg m^2: about the shaft and across it


class _Mem(NamedTuple):
    sense: np.ndarray
    dt: float


class _P(NamedTuple):
    memory: _Mem
    mass_rows: np.ndarray
    gravity: float


def _row(k, mass, cm, inertia):
    return np.concatenate(([float(k), mass], np.asarray(cm, float), np.asarray(inertia).ravel()))


def _moments(rows, kin, hub_pt, yb_pt, *, prev=None, dt=0.01, gravity=G):
    """(hub, yaw bearing) moments of member 0; ``prev``: the sense row of a previous call."""
    n = len(rows)
    se = np.zeros((1, ksv.N_SENSE + 6 * n)) if prev is None else prev
    p = _P(_Mem(se, dt), np.array(rows), gravity)
    mh, my = np.zeros(3), np.zeros(3)
    ksv.structural_moments.py_func(p, kin, 0, prev is None, np.asarray(hub_pt, float),
                                   np.asarray(yb_pt, float), mh, my)  # fmt: skip
    return mh, my, se


def _kin(r, R, v, w, cm):
    f = lambda a: np.asarray(a, float)[None]  # noqa: E731
    return BodyKinematics(f(r), f(R), f(v), f(w), np.asarray(cm, float))


def _rotor_kin(w=(0.0, 0.0, 0.0), v=(0.0, 0.0, 0.0)):
    """One body (the rotor), frame = inertial, CM D_OVERHANG upwind (-x) of the origin."""
    return _kin([[-D_OVERHANG, 0, 0]], [np.eye(3)], [v], [w], [[-D_OVERHANG, 0, 0]])


ROTOR = _row(0, M_ROT, (-D_OVERHANG, 0, 0), np.diag([J_X, J_T, J_T]))


def test_parked_rotor_overhang_weight():
    """A parked rotor on a level shaft: the hub moment is its weight times the overhang,
    M_ys = -m g d (the rotor nods its upwind end down), M_zs = 0; the same about a yaw bearing
    2.4 m below the hub point."""
    mh, my, _ = _moments([ROTOR], _rotor_kin(), [0, 0, 0], [0, 0, -2.4])
    assert mh == pytest.approx([0.0, -M_ROT * G * D_OVERHANG, 0.0], abs=1e-9 * M_ROT * G)
    assert my == pytest.approx(mh, abs=1e-9 * M_ROT * G)


def test_steady_spin_and_gyroscopic_moment():
    """A symmetric rotor spinning steadily about its shaft carries no moment beyond its weight;
    with a yaw rate r it carries the gyroscopic -(J_x - J_t) W r about y (w x I w)."""
    W = 1.267
    mh0, _, _ = _moments([ROTOR], _rotor_kin(w=(W, 0, 0)), [0, 0, 0], [0, 0, 0], gravity=0.0)
    assert np.abs(mh0).max() == 0.0
    r = 0.02
    mh, _, _ = _moments([ROTOR], _rotor_kin(w=(W, 0, r)), [0, 0, 0], [0, 0, 0], gravity=0.0)
    assert mh == pytest.approx([0.0, -(J_X - J_T) * W * r, 0.0], abs=1e-9 * J_X * W * r)
    assert abs(mh[1]) > 4e5  # ~0.48 MN m: as large as the overhang's weight


def test_angular_and_linear_acceleration_from_consecutive_steps():
    """The accelerations are the backward difference of the velocities of consecutive calls
    (0 at the first): an angular acceleration A about y gives -J_t A about y, a lateral
    acceleration a of the CM d upwind of the hub point + m a d about z."""
    dt, A, a = 0.01, 0.3, 0.8
    mh1, _, se = _moments([ROTOR], _rotor_kin(), [0, 0, 0], [0, 0, 0], gravity=0.0, dt=dt)
    assert np.abs(mh1).max() == 0.0  # first call: no acceleration
    mh2, _, _ = _moments([ROTOR], _rotor_kin(w=(0, A * dt, 0), v=(0, a * dt, 0)), [0, 0, 0],
                         [0, 0, 0], prev=se, gravity=0.0, dt=dt)  # fmt: skip
    # -J_t A about y; lateral inertial force -m a y at d upwind: (-d x) x (-m a y) = d m a z
    assert mh2 == pytest.approx([0.0, -J_T * A, D_OVERHANG * M_ROT * a], rel=1e-9)


def test_nacelle_point_mass_about_the_yaw_bearing():
    """A nacelle merged into the platform body (``nacelle_mass``: a point with a yaw inertia at
    its CM 1.9 m downwind of the yaw axis): its weight gives M_yn = +m g x (it nods the nacelle's
    downwind end down) about the yaw bearing and nothing about the hub point (not the rotor)."""
    m_nac, x_nac = 2.4e5, 1.9
    body_cm = np.array([0.0, 0.0, -60.0])  # the platform's CM, far below
    kin = _kin([body_cm], [np.eye(3)], [[0, 0, 0]], [[0, 0, 0]], [body_cm])
    nac = _row(0, m_nac, (x_nac, 0.0, 89.35), np.diag([0.0, 0.0, 1.7e6]))
    probe = _row(0, 1e-30, body_cm, np.zeros((3, 3)))  # row 0 (the rotor's slot): nothing
    mh, my, _ = _moments([probe, nac], kin, [-5.0, 0.0, 90.0], [0.0, 0.0, 87.6])
    assert np.abs(mh).max() < 1e-18
    assert my == pytest.approx([0.0, m_nac * G * x_nac, 0.0], abs=1e-9 * m_nac * G)


def test_any_motion_equals_a_sum_over_point_masses():
    """A rigid cloud of 40 point masses (random attitude, CM offset from the body frame's point,
    spin, angular and linear acceleration between two calls): the moment about any point equals
    sum (r_i - X) x m_i (g - a_i) with a_i = a_G + alpha x rho_i + w x (w x rho_i) to 1e-9, the
    mass, CM and inertia of the row being the cloud's."""
    rng = np.random.default_rng(7)
    n = 40
    mi = rng.uniform(10.0, 100.0, n)
    rho_b = rng.normal(0.0, 3.0, (n, 3))
    m = mi.sum()
    c_b = (mi[:, None] * rho_b).sum(0) / m
    d = rho_b - c_b
    inertia_b = sum(mk * (dk @ dk * np.eye(3) - np.outer(dk, dk)) for mk, dk in zip(mi, d))
    q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    R = q * np.sign(np.linalg.det(q))
    body_cm_b = np.array([0.4, -0.2, 1.0])  # the body's own CM (the row is at c_b)
    rG_body = np.array([3.0, -1.0, 50.0])
    w0, w1 = rng.normal(0, 0.5, 3), rng.normal(0, 0.5, 3)
    v0, v1 = rng.normal(0, 1.0, 3), rng.normal(0, 1.0, 3)
    dt = 0.02
    row = _row(0, m, c_b, inertia_b)
    k0 = _kin([rG_body], [R], [v0], [w0], [body_cm_b])
    k1 = _kin([rG_body], [R], [v1], [w1], [body_cm_b])
    X = np.array([1.0, 2.0, 40.0])
    _, _, se = _moments([row], k0, X, X, dt=dt)
    mh, my, _ = _moments([row], k1, X, X, prev=se, dt=dt)
    # the reference: the row's CM velocity at each call, differenced; the cloud summed
    rel = R @ (c_b - body_cm_b)
    vc0, vc1 = v0 + np.cross(w0, rel), v1 + np.cross(w1, rel)
    aG, alp = (vc1 - vc0) / dt, (w1 - w0) / dt
    rc = rG_body + rel
    ref = np.zeros(3)
    for mk, dk in zip(mi, d):
        rho = R @ dk
        ai = aG + np.cross(alp, rho) + np.cross(w1, np.cross(w1, rho))
        ref += np.cross(rc + rho - X, mk * (np.array([0.0, 0.0, -G]) - ai))
    scale = m * G * 10.0
    assert np.abs(mh - ref).max() < 1e-9 * scale
    assert np.array_equal(mh, my)


def test_case_keys_build_the_mass_rows_and_bad_input_is_refused():
    """The servodyn load's mass rows: the rotor (row 0), the generator geared to the shaft and,
    for a nacelle merged into the body the shaft sits on, ``nacelle_mass``; a key it does not
    know, a negative mass, or ``nacelle_mass`` on a nacelle that is a body of its own, are
    refused in one line naming the field."""
    from floatwind.case.loader import model_from_dict
    from tests.test_servo import _case

    nm = {"mass": 2.4e5, "cm": [1.9, 0.0, 7.0], "yaw_inertia": 1.7e6}
    d = _case({"generator": {"model": "none"}, "nacelle_mass": nm})
    model = model_from_dict(d)
    ld = next(x for x in model.loads if x.name == "servodyn")
    rows = ld.mass_rows
    names = [b.name for b in model.tree.bodies]
    assert [names[int(r[0])] for r in rows] == ["rotor", "gen", "base"]
    assert rows[2, 1] == 2.4e5 and list(rows[2, 2:5]) == [1.9, 0.0, 7.0]
    assert rows[2, 5:].reshape(3, 3)[2, 2] == 1.7e6
    rotor = model.tree.bodies[int(rows[0, 0])]
    assert rows[0, 1] == rotor.mass and np.array_equal(rows[0, 5:].reshape(3, 3),
                                                       rotor.inertia_b)  # fmt: skip
    for bad, field in (({**nm, "colour": 1}, "colour"), ({**nm, "mass": -1.0}, "mass")):
        d = _case({"generator": {"model": "none"}, "nacelle_mass": bad})
        with pytest.raises(CaseError, match=field) as e:
            model_from_dict(d)
        assert "\n" not in str(e.value)
    assert math.isfinite(rows.sum())


def test_a_library_on_a_merged_nacelle_needs_its_mass(tmp_path):
    """A controller library reads the yaw-bearing moments (records 77-78), which carry the
    nacelle's weight; a nacelle merged into the body the shaft sits on cannot be told apart from
    that body, so a case without ``nacelle_mass`` is refused in one line naming it (before
    anything is loaded), and ``mass: 0`` says there is none."""
    from floatwind.case.loader import model_from_dict
    from tests.test_servo import _case

    lib = tmp_path / "libnothing.so"  # never loaded: the refusal comes first
    lib.write_bytes(b"")
    (tmp_path / "in.txt").write_text("\n")
    ctrl = {"kind": "dll", "library": str(lib), "input": str(tmp_path / "in.txt"), "dt": 0.01}
    d = _case({"generator": {"model": "none"}, "controller": ctrl})
    with pytest.raises(CaseError, match="nacelle_mass") as e:
        model_from_dict(d)
    assert "\n" not in str(e.value) and "77-78" in str(e.value)
