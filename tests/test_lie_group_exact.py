"""Exact rigid-body solutions (Romano 2008a, 2008b; Giusti (44)-(46)) against solve_ivp."""

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from floatwind.integrate.exact_rigid import (
    axisymmetric_constant_axial_torque,
    forced_damped_oscillator,
    kummer_m,
    sphere_constant_body_torque,
)
from floatwind.rotation import matrix_from_quaternion, quaternion_from_matrix


def euler_reference(J, torque_b, w0_b, t, R0=None):
    """DOP853 of Euler's equations + quaternion kinematics (independent of the closed forms)."""
    Ji = np.linalg.inv(J)

    def f(_, y):
        q, W = y[:4], y[4:]
        qd = 0.5 * np.r_[-q[1:] @ W, q[0] * W + np.cross(q[1:], W)]
        return np.r_[qd, Ji @ (torque_b - np.cross(W, J @ W))]

    y0 = np.r_[quaternion_from_matrix(np.eye(3) if R0 is None else R0), w0_b]
    s = solve_ivp(f, (0.0, t[-1]), y0, method="DOP853", rtol=1e-12, atol=1e-13, t_eval=t)
    return matrix_from_quaternion(s.y[:4].T), s.y[4:].T


def test_kummer_series_known_values():
    # M(a, a, z) = e^z ; M(1, 2, z) = (e^z - 1)/z
    assert abs(kummer_m(0.3, 0.3, 5j) - np.exp(5j)) < 1e-14
    z = 20j
    assert abs(kummer_m(1.0, 2.0, z) - (np.exp(z) - 1.0) / z) < 1e-14


@pytest.mark.parametrize(
    "torque, w0, R0",
    [
        ([0.0, 0.0, 30.0], [10.0, 15.0, 20.0], np.eye(3)),  # Giusti Table 2
        ([1.0, -3.0, 2.0], [1.0, -2.0, 0.5], matrix_from_quaternion([0.3, 0.2, -0.5, 0.7])),
        ([0.0, 2.0, 0.0], [0.0, -1.0, 0.0], np.eye(3)),  # no transverse rate
    ],
)
def test_sphere_exact_solution(torque, w0, R0):
    t = np.linspace(0.0, 1.0, 6)
    ex = sphere_constant_body_torque(j=3.0, torque_b=torque, w0_b=w0, t=t, R0=R0)
    R, W = euler_reference(3.0 * np.eye(3), np.array(torque), np.array(w0), t, R0)
    np.testing.assert_allclose(ex["R_b2g"], R, atol=1e-10)
    np.testing.assert_allclose(ex["w_b"], W, atol=1e-10)


@pytest.mark.parametrize("factor", [1.0, 2.0])
def test_axisymmetric_exact_solution(factor):
    t = np.linspace(0.0, 1.0, 6)
    w0 = factor * np.array([1.0, 2.0, 3.0])  # Giusti Table 3, and doubled
    ex = axisymmetric_constant_axial_torque(J1=20.0, J3=7.0, torque3=30.0, w0_b=w0, t=t)
    R, W = euler_reference(np.diag([20.0, 20.0, 7.0]), np.array([0.0, 0.0, 30.0]), w0, t)
    np.testing.assert_allclose(ex["R_b2g"], R, atol=1e-10)
    np.testing.assert_allclose(ex["w_b"], W, atol=1e-10)


def test_oscillator_exact_solution():
    wn, nu = np.pi, 0.3
    t = np.linspace(0.0, 10.0, 51)
    ex = forced_damped_oscillator(omega_n=wn, nu=nu, force=1.0, omega=2 * wn, stiffness=wn**2, t=t)
    s = solve_ivp(
        lambda tt, y: [y[1], np.sin(2 * wn * tt) - 2 * nu * wn * y[1] - wn**2 * y[0]],
        (0.0, 10.0),
        [0.0, 0.0],
        method="DOP853",
        rtol=1e-12,
        atol=1e-14,
        t_eval=t,
    )
    np.testing.assert_allclose(ex["x"], s.y[0], atol=1e-10)
