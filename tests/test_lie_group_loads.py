"""Tangent operators of the Giusti loads (sec. 4-6) against finite differences along theta."""

import numpy as np
import pytest

from floatwind.errors import CaseError
from floatwind.loads.spatial import (
    FollowerForce,
    FollowerLinear,
    FollowerTorque,
    Gravity,
    InertialLoad,
    NonFollowerForce,
    NonFollowerLinear,
    NonFollowerTorque,
    SpatialKinematics,
)
from floatwind.rotation import exp_so3

RNG = np.random.default_rng(7)
B = 3


def _state():
    r = RNG.normal(size=(B, 3))
    # rotations up to ~2.5 rad so that T(psi)^{-T} differs clearly from the identity
    R = exp_so3(RNG.normal(size=(B, 3)) * 0.9)
    return r, R, RNG.normal(size=(B, 6)), RNG.normal(size=(B, 6))


def fd_tangents(load, t, r, R, v, vd, eps=1e-6):
    """Central differences of the residual: K along [dx; theta] with R -> exp(~theta) R."""

    def res(r_, R_, v_, vd_):
        return load.residual(SpatialKinematics.from_vectors(t, r_, R_, v_, vd_))

    K = np.zeros((B, 6, 6))
    C = np.zeros((B, 6, 6))
    M = np.zeros((B, 6, 6))
    for j in range(6):
        d = np.zeros(6)
        d[j] = eps
        if j < 3:
            K[:, :, j] = (res(r + d[:3], R, v, vd) - res(r - d[:3], R, v, vd)) / (2 * eps)
        else:
            Rp, Rm = exp_so3(d[3:]) @ R, exp_so3(-d[3:]) @ R
            K[:, :, j] = (res(r, Rp, v, vd) - res(r, Rm, v, vd)) / (2 * eps)
        C[:, :, j] = (res(r, R, v + d, vd) - res(r, R, v - d, vd)) / (2 * eps)
        M[:, :, j] = (res(r, R, v, vd + d) - res(r, R, v, vd - d)) / (2 * eps)
    return K, C, M


def _sym(n=6):
    A = RNG.normal(size=(n, n))
    return A + A.T


LOADS = {
    "inertial (12)-(17)": InertialLoad(mass=2.5, J_b=np.diag([3.0, 4.0, 5.0]) + 0.2),
    "non-follower force (18)-(20)": NonFollowerForce(
        force=[1.0, -2.0, 3.0], point_b=[0.1, 0.2, -0.6]
    ),
    "non-follower torque (21)-(22)": NonFollowerTorque(torque=lambda t: [np.sin(t), 1.0, 2.0]),
    "gravity": Gravity(mass=3.0, g=9.81),
    "non-follower linear (23)-(25)": NonFollowerLinear(A_q=_sym(), A_v=_sym(), A_a=_sym()),
    "follower force (26)-(29)": FollowerForce(
        force=lambda t: [1.0, -2.0, 3.0 * np.cos(t)], point_b=[0.3, -0.2, -0.6]
    ),
    "follower torque (30)-(32)": FollowerTorque(torque=[0.5, 1.0, 30.0]),
    "follower linear (33)-(37)": FollowerLinear(B_q=_sym(), B_v=_sym(), B_a=_sym()),
}


@pytest.mark.parametrize("name", list(LOADS))
def test_tangents_match_finite_differences_along_theta(name):
    load = LOADS[name]
    r, R, v, vd = _state()
    K, C, M = load.tangents(SpatialKinematics.from_vectors(0.37, r, R, v, vd))
    Kf, Cf, Mf = fd_tangents(load, 0.37, r, R, v, vd)
    scale = 1.0 + max(np.abs(Kf).max(), np.abs(Cf).max(), np.abs(Mf).max())
    np.testing.assert_allclose(K, Kf, atol=1e-7 * scale)
    np.testing.assert_allclose(C, Cf, atol=1e-7 * scale)
    np.testing.assert_allclose(M, Mf, atol=1e-7 * scale)


def test_loads_sum_and_compose():
    r, R, v, vd = _state()
    kin = SpatialKinematics.from_vectors(0.1, r, R, v, vd)
    a, b = LOADS["follower force (26)-(29)"], LOADS["follower linear (33)-(37)"]
    s = a + b + LOADS["gravity"]
    np.testing.assert_allclose(
        s.residual(kin), a.residual(kin) + b.residual(kin) + LOADS["gravity"].residual(kin)
    )
    np.testing.assert_allclose(s.tangents(kin).K, a.tangents(kin).K + b.tangents(kin).K)


def test_follower_equals_non_follower_when_rotated():
    """A follower force R^T F in the body equals the non-follower F at the same point (26)-(27) vs (18)-(19)."""
    r, R, v, vd = _state()
    kin = SpatialKinematics.from_vectors(0.0, r, R, v, vd)
    F = np.array([1.0, 2.0, -0.5])
    nf = NonFollowerForce(force=F, point_b=[0.1, 0.0, -0.6])
    f = FollowerForce(force=np.einsum("bji,j->bi", R, F), point_b=[0.1, 0.0, -0.6])
    np.testing.assert_allclose(nf.residual(kin), f.residual(kin), atol=1e-12)


def test_bad_parameters_raise_case_error():
    with pytest.raises(CaseError, match="mass"):
        InertialLoad(mass=-1.0, J_b=np.eye(3))
    with pytest.raises(CaseError, match="positive definite"):
        InertialLoad(mass=1.0, J_b=np.diag([1.0, -1.0, 1.0]))
    with pytest.raises(CaseError, match="6x6"):
        FollowerLinear(B_q=np.eye(3))
