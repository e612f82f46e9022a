"""Rotations: property tests (hypothesis) for Euler 1-2-3, rotation vectors and Euler parameters."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from floatwind.rotation import (
    euler123_from_matrix,
    euler123_matrix,
    euler_zyx_from_matrix,
    euler_zyx_matrix,
    exp_so3,
    log_so3,
    matrix_from_quaternion,
    omega_from_euler_rates,
    quaternion_from_matrix,
    re_vector,
    rot_x,
    rot_y,
    rot_z,
    skew,
    t_omega,
    tangent,
    tangent_inv,
    unskew,
    unwrap_rotvec,
)

finite = st.floats(-3.0, 3.0, allow_nan=False)
vec3 = arrays(np.float64, (4, 3), elements=finite)
angles = arrays(np.float64, (4, 3), elements=st.floats(-1.4, 1.4))


def _orthonormal(R):
    return np.abs(R @ np.swapaxes(R, -1, -2) - np.eye(3)).max() < 1e-12 and np.allclose(
        np.linalg.det(R), 1.0
    )


@given(angles)
def test_euler123_orthonormal_and_elementary_product(a):
    R = euler123_matrix(a)
    assert _orthonormal(R)
    np.testing.assert_allclose(R, rot_x(a[:, 0]) @ rot_y(a[:, 1]) @ rot_z(a[:, 2]), atol=1e-14)
    np.testing.assert_allclose(euler123_from_matrix(R), a, atol=1e-10)


@given(angles)
def test_euler_zyx_roundtrip(a):
    R = euler_zyx_matrix(a)
    assert _orthonormal(R)
    np.testing.assert_allclose(euler_zyx_from_matrix(R), a, atol=1e-10)


@given(angles, arrays(np.float64, (4, 3), elements=st.floats(-2, 2)))
@settings(max_examples=50)
def test_euler_rate_map_against_finite_differences(a, rates):
    """w_b = T_omega dX/dt (Wang 3.7) equals the axial vector of R^T dR/dt by central differences."""
    h = 1e-6
    dR = (euler123_matrix(a + h * rates) - euler123_matrix(a - h * rates)) / (2 * h)
    w_fd = unskew(np.swapaxes(euler123_matrix(a), -1, -2) @ dR)
    np.testing.assert_allclose(omega_from_euler_rates(a, rates), w_fd, atol=1e-7)


@given(angles, arrays(np.float64, (4, 3), elements=st.floats(-2, 2)))
@settings(max_examples=50)
def test_re_vector_is_derivative_of_t_omega(a, rates):
    """RE of Wang (5.25) = d/dt(T_omega) dX/dt along the motion X(t) = a + rates t."""
    h = 1e-6
    dT = (t_omega(a + h * rates) - t_omega(a - h * rates)) / (2 * h)
    np.testing.assert_allclose(re_vector(a, rates), np.einsum("bij,bj->bi", dT, rates), atol=1e-7)


@given(vec3)
def test_exp_orthonormal(psi):
    assert _orthonormal(exp_so3(psi))


@given(arrays(np.float64, (4, 3), elements=st.floats(-1, 1)), st.floats(0.0, np.pi - 1e-6))
def test_log_exp_identity_within_0_pi(u, phi):
    n = np.linalg.norm(u, axis=1, keepdims=True)
    u = np.where(n > 1e-3, u / np.maximum(n, 1e-300), np.array([1.0, 0, 0]))
    psi = u * phi
    np.testing.assert_allclose(log_so3(exp_so3(psi)), psi, atol=1e-7)


def test_log_near_zero_and_near_pi():
    u = np.array([0.6, -0.8, 0.0])
    for phi in (0.0, 1e-12, 1e-6, 1e-3, np.pi - 1e-3, np.pi - 1e-6, np.pi - 1e-9):
        np.testing.assert_allclose(log_so3(exp_so3(u * phi)), u * phi, atol=5e-8)
    # exactly pi: either representation is the same rotation
    R = exp_so3(u * np.pi)
    np.testing.assert_allclose(exp_so3(log_so3(R)), R, atol=1e-12)
    assert abs(np.linalg.norm(log_so3(R)) - np.pi) < 1e-12


@given(vec3, arrays(np.float64, (4, 3), elements=st.floats(-1, 1)))
@settings(max_examples=50)
def test_tangent_against_finite_difference(psi, d):
    """exp(psi + h d) = exp(psi) exp(h T(psi) d): theta_M = T dpsi (Giusti footnote 9/12)."""
    psi = psi * (np.pi - 0.1) / np.maximum(np.linalg.norm(psi, axis=1, keepdims=True), np.pi)
    h = 1e-6
    Rm = np.swapaxes(exp_so3(psi - h * d), -1, -2) @ exp_so3(psi + h * d)
    theta = log_so3(Rm) / (2 * h)
    np.testing.assert_allclose(theta, np.einsum("bij,bj->bi", tangent(psi), d), atol=1e-6)
    # spatial increment uses T^T
    Rs = exp_so3(psi + h * d) @ np.swapaxes(exp_so3(psi - h * d), -1, -2)
    np.testing.assert_allclose(
        log_so3(Rs) / (2 * h), np.einsum("bji,bj->bi", tangent(psi), d), atol=1e-6
    )
    np.testing.assert_allclose(tangent(psi) @ tangent_inv(psi), np.broadcast_to(np.eye(3), (4, 3, 3)), atol=1e-10)


def test_tangent_small_angle_series_continuous():
    u = np.array([0.0, 0.6, 0.8])
    for phi in (1e-5, 1e-4 * (1 - 1e-9), 1e-4 * (1 + 1e-9)):
        T = tangent(u * phi)
        S = skew(u * phi)
        series = np.eye(3) - S / 2 + S @ S / 6 - S @ S @ S / 24
        np.testing.assert_allclose(T, series, atol=1e-14)


@given(vec3)
def test_quaternion_roundtrip(psi):
    R = exp_so3(psi)
    p = quaternion_from_matrix(R)
    assert abs(np.linalg.norm(p, axis=-1) - 1).max() < 1e-12
    np.testing.assert_allclose(matrix_from_quaternion(p), R, atol=1e-12)


def test_quaternion_known_value():
    # 90 deg about z: e0 = cos 45, e = sin 45 z   (Leble eq. 1)
    p = np.array([np.cos(np.pi / 4), 0, 0, np.sin(np.pi / 4)])
    np.testing.assert_allclose(matrix_from_quaternion(p), rot_z(np.pi / 2), atol=1e-15)


def test_unwrap_rotvec_keeps_history_continuous():
    t = np.linspace(0, 3 * np.pi, 200)
    psi_true = np.stack([0 * t, 0 * t, t], axis=1)
    wrapped = log_so3(exp_so3(psi_true))
    assert np.abs(np.diff(wrapped[:, 2])).max() > np.pi  # the log map jumps
    np.testing.assert_allclose(unwrap_rotvec(wrapped), psi_true, atol=1e-9)
