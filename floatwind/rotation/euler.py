"""1-2-3 Euler angles of Wang (2012), ch. III and V.

The base body orientation is X4, X5, X6 (roll, pitch, yaw) with the body-to-inertial matrix

    T_s->I = Tx(X4) Ty(X5) Tz(X6)                                   # Wang (3.13)

built from the elementary (active) rotations about x, y and z. The body angular velocity,
in body axes, follows from the Euler rates                          # Wang (3.7)

    w_b = T_omega(X) dX/dt,

and its local derivative is                                          # Wang (5.24)

    (dw_b/dt) = T_omega(X) d2X/dt2 + RE(X, dX/dt).

Erratum: the printed T_omega of (5.25) has ``-sin X5`` in its third row while (3.7) and the RE
vector of (5.25) both correspond to ``+sin X5``. (3.7) and RE are consistent with (3.13); we use
``+sin X5`` and the tests check T_omega against finite differences of T_s->I.
"""

from __future__ import annotations

import numpy as np

#: |cos X5| below which the Euler-rate map is treated as singular (X5 near +-pi/2).
EULER_SINGULARITY_TOL = 1e-6

#: |X5| (rad) at which a run stops, before the 1-2-3 Euler angles reach their singularity at
#: +-90 deg: 89.5 deg. There 1/cos X5 = 115, so the roll and yaw rates that the Euler-rate map
#: (5.25) makes of a given angular velocity are already 115 times the body rates: one RK4 step
#: further (the pitch moves by X5d dt per step) the map is ill-conditioned and the run produces
#: roll and yaw swings that no physical load explains (measured: yaw up to 14 rad under a pure
#: pitch moment). The 0.5 deg margin is far above the step-to-step change of any run that the
#: Euler angles can represent (a platform pitching through 89.5 deg has capsized anyway), so a
#: run that reaches it is stopped at that step with its partial record
#: (``floatwind.integrate.base.StateGuard``); the Lie-group integrator has no such limit.
EULER_PITCH_GUARD = float(np.radians(89.5))


def _elementary(angle: np.ndarray, axis: int) -> np.ndarray:
    angle = np.asarray(angle, dtype=float)
    c, s = np.cos(angle), np.sin(angle)
    out = np.zeros(angle.shape + (3, 3))
    i, j = [(1, 2), (2, 0), (0, 1)][axis]
    out[..., axis, axis] = 1.0
    out[..., i, i] = c
    out[..., j, j] = c
    out[..., i, j] = -s
    out[..., j, i] = s
    return out


def rot_x(angle) -> np.ndarray:
    """Active rotation about x, shape ``angle.shape + (3, 3)``."""
    return _elementary(angle, 0)


def rot_y(angle) -> np.ndarray:
    """Active rotation about y, shape ``angle.shape + (3, 3)``."""
    return _elementary(angle, 1)


def rot_z(angle) -> np.ndarray:
    """Active rotation about z, shape ``angle.shape + (3, 3)``."""
    return _elementary(angle, 2)


def euler123_matrix(angles) -> np.ndarray:
    """Body-to-inertial matrix T_s->I = Tx(X4) Ty(X5) Tz(X6), Wang (3.13).

    Parameters
    ----------
    angles : array_like, shape (..., 3)
        Roll X4, pitch X5, yaw X6 (rad).

    Returns
    -------
    numpy.ndarray, shape (..., 3, 3)
    """
    a = np.asarray(angles, dtype=float)
    c4, c5, c6 = np.cos(a[..., 0]), np.cos(a[..., 1]), np.cos(a[..., 2])
    s4, s5, s6 = np.sin(a[..., 0]), np.sin(a[..., 1]), np.sin(a[..., 2])
    R = np.empty(a.shape[:-1] + (3, 3))
    R[..., 0, 0] = c5 * c6
    R[..., 0, 1] = -c5 * s6
    R[..., 0, 2] = s5
    R[..., 1, 0] = s4 * s5 * c6 + c4 * s6
    R[..., 1, 1] = -s4 * s5 * s6 + c4 * c6
    R[..., 1, 2] = -s4 * c5
    R[..., 2, 0] = -c4 * s5 * c6 + s4 * s6
    R[..., 2, 1] = c4 * s5 * s6 + s4 * c6
    R[..., 2, 2] = c4 * c5
    return R


def euler123_from_matrix(R_b2g) -> np.ndarray:
    """Inverse of :func:`euler123_matrix`, X5 in [-pi/2, pi/2], X4 and X6 in (-pi, pi]."""
    R = np.asarray(R_b2g, dtype=float)
    x5 = np.arcsin(np.clip(R[..., 0, 2], -1.0, 1.0))
    x4 = np.arctan2(-R[..., 1, 2], R[..., 2, 2])
    x6 = np.arctan2(-R[..., 0, 1], R[..., 0, 0])
    return np.stack([x4, x5, x6], axis=-1)


def t_omega(angles) -> np.ndarray:
    """Matrix T_omega with w_b = T_omega dX/dt, Wang (3.7), (5.25) (see the erratum above).

    Parameters
    ----------
    angles : array_like, shape (..., 3)

    Returns
    -------
    numpy.ndarray, shape (..., 3, 3)
    """
    a = np.asarray(angles, dtype=float)
    c5, c6 = np.cos(a[..., 1]), np.cos(a[..., 2])
    s5, s6 = np.sin(a[..., 1]), np.sin(a[..., 2])
    T = np.zeros(a.shape[:-1] + (3, 3))
    T[..., 0, 0] = c5 * c6
    T[..., 0, 1] = s6
    T[..., 1, 0] = -c5 * s6
    T[..., 1, 1] = c6
    T[..., 2, 0] = s5
    T[..., 2, 2] = 1.0
    return T


def omega_from_euler_rates(angles, rates) -> np.ndarray:
    """Body angular velocity (body axes) from Euler rates, Wang (3.7)."""
    return np.einsum("...ij,...j->...i", t_omega(angles), np.asarray(rates, dtype=float))


def re_vector(angles, rates) -> np.ndarray:
    """Velocity-dependent part RE of the body angular acceleration, Wang (5.24)-(5.25)."""
    a = np.asarray(angles, dtype=float)
    d = np.asarray(rates, dtype=float)
    c5, c6 = np.cos(a[..., 1]), np.cos(a[..., 2])
    s5, s6 = np.sin(a[..., 1]), np.sin(a[..., 2])
    d4, d5, d6 = d[..., 0], d[..., 1], d[..., 2]
    return np.stack(
        [
            -d4 * d5 * s5 * c6 - d4 * d6 * c5 * s6 + d5 * d6 * c6,
            d4 * d5 * s5 * s6 - d4 * d6 * c5 * c6 - d5 * d6 * s6,
            d4 * d5 * c5,
        ],
        axis=-1,
    )


def euler_rates_from_omega(angles, w_b) -> np.ndarray:
    """Euler rates from the body angular velocity (inverse of (3.7)).

    Raises
    ------
    ZeroDivisionError
        Never; callers must check ``|cos X5| > EULER_SINGULARITY_TOL`` first (the simulator
        raises :class:`floatwind.errors.SimulationError` naming the time step).
    """
    a = np.asarray(angles, dtype=float)
    w = np.asarray(w_b, dtype=float)
    c5, c6 = np.cos(a[..., 1]), np.cos(a[..., 2])
    s5, s6 = np.sin(a[..., 1]), np.sin(a[..., 2])
    d4 = (c6 * w[..., 0] - s6 * w[..., 1]) / c5
    d5 = s6 * w[..., 0] + c6 * w[..., 1]
    d6 = w[..., 2] - s5 * d4
    return np.stack([d4, d5, d6], axis=-1)


def euler_zyx_matrix(angles) -> np.ndarray:
    """OpenFAST v5 platform rotation R = Rz(psi) Ry(theta) Rx(phi), ``angles`` = (phi, theta, psi).

    ElastoDyn v5 (``SetCoordSy``) and HydroDyn (``EulerExtractZYX``) define PtfmRoll/Pitch/Yaw this
    way (intrinsic Z-Y'-X''); see docs/conventions.md. Body-to-inertial, shape (..., 3, 3).
    """
    a = np.asarray(angles, dtype=float)
    return rot_z(a[..., 2]) @ rot_y(a[..., 1]) @ rot_x(a[..., 0])


def euler_zyx_from_matrix(R_b2g) -> np.ndarray:
    """(phi, theta, psi) with R = Rz(psi) Ry(theta) Rx(phi); theta in [-pi/2, pi/2]."""
    R = np.asarray(R_b2g, dtype=float)
    theta = np.arcsin(np.clip(-R[..., 2, 0], -1.0, 1.0))
    phi = np.arctan2(R[..., 2, 1], R[..., 2, 2])
    psi = np.arctan2(R[..., 1, 0], R[..., 0, 0])
    return np.stack([phi, theta, psi], axis=-1)
