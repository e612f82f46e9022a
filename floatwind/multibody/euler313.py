"""Wang ch. II: the 3-1-3 Euler formulation of the 2-body model (tower + hull, RNA).

Rotations only, about the system CM O_s held fixed (translations locked, as in the chapter's
example). Tower (with hull): 3-1-3 angles (theta_2, theta_1, eta), R_t = Rz(theta_2) Rx(theta_1)
Rz(eta); the frame (x, y, z) = Rz(theta_2) Rx(theta_1) is not body fixed, z is the tower axis.
RNA: 3-1-3 angles (phi, theta, psi) of its disk frame (A, B, C) (B the spin axis, C horizontal),
taken in the order (C, A, B) so that R_CAB = Rz(phi) Rx(theta) (Wang 2.34); they follow from the
tower angles, the prescribed yaw and the constraint B . z = 0 (Wang 2.5, 2.11-2.12), so the state
is (theta_1, theta_2, eta) and their rates only.

Free functions of a frozen :class:`Euler313Body` and a batched state (batch axis first):

* :func:`tower_kinematics`: frames, angular velocities (2.17)-(2.18), RNA angles and rates, and
  the body kinematics of the tower and the RNA for the loads (``floatwind.loads`` contract);
* :func:`forward_dynamics`: the tower equations (2.19)-(2.21) with the moments (2.22)-(2.24), the
  RNA moments (2.27)-(2.29) through (2.33)-(2.34), and the RNA forces (2.39); every term is affine
  in the three angular accelerations, so the 3x3 system is assembled from the residual at four
  trial accelerations (exact to round-off) and solved member by member.

Departures from the chapter (docs/multibody.md, "3-1-3 Euler formulation"):

* the pivot is the system CM O_s (the chapter writes the tower equations about the tower CM and
  the RNA lever arm from O_s): the tower tilt inertia in (2.19)-(2.21) is taken about O_s
  (parallel axis), which is exact for an axisymmetric tower whose CM and the RNA CM lie on its axis;
* the rotor speed Omega is prescribed relative to the nacelle (as in the momentum cloud core and
  ElastoDyn), so psi_dot = Omega + omega_t . B - phi_dot cos(theta) and psi_ddot enters (2.28);
* the gyroscopic moments (2.30)-(2.32) are the terms with the rotor speed Omega;
* (2.27)-(2.29) are exact for a rotor axisymmetric about B (I_A = I_C, Hibbeler's gyroscope);
  with I_A != I_C they are the chapter's approximation (``rna_equations="exact"``: dH/dt of a
  nacelle carrying I_A, I_C and an axisymmetric rotor carrying I_B instead);
* the 3-1-3 singularity theta_1 = 0 (and pi) is removed by a second chart: the same equations with
  the Euler angles taken relative to a reference frame turned by 90 deg about X
  (:data:`R_REF`); :func:`choose_chart` switches with hysteresis between steps. The RNA's own
  angles are singular only with the spin axis vertical (tower horizontal): that stops the run with
  a ``SimulationError``, never a NaN.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from floatwind.errors import SimulationError
from floatwind.multibody.motion import Locked, Motion

#: chart reference frames: chart 0 = inertial (Wang's), chart 1 = turned +90 deg about X
R_REF = np.array(
    [
        np.eye(3),
        [[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]],
    ]
)
#: leave chart 0 when sin(theta_1) falls below this (tower within 17 deg of vertical)
SIN_LEAVE = 0.3
#: return to chart 0 when the tower's tilt from vertical has sin above this (hysteresis)
SIN_RETURN = 0.4
#: the RNA moment equations: Wang's (2.27)-(2.29), or the exact ones of the same RNA
RNA_EQUATIONS = ("wang", "exact")
#: |sin(theta)| of the RNA below which the RNA 3-1-3 angles are singular (spin axis vertical)
RNA_SINGULAR = 1e-6


# ---------------------------------------------------------------- small batched algebra


def _mv(M: np.ndarray, v: np.ndarray) -> np.ndarray:
    """M @ v, element-wise (no BLAS over the batch axis: bit-identical for any batch size)."""
    return (
        M[..., :, 0] * v[..., None, 0]
        + M[..., :, 1] * v[..., None, 1]
        + M[..., :, 2] * v[..., None, 2]
    )


def _mtv(M: np.ndarray, v: np.ndarray) -> np.ndarray:
    """M^T @ v, element-wise."""
    return (
        M[..., 0, :] * v[..., 0, None]
        + M[..., 1, :] * v[..., 1, None]
        + M[..., 2, :] * v[..., 2, None]
    )


def _mm(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """A @ B for stacks of 3x3, element-wise."""
    return (
        A[..., :, 0, None] * B[..., None, 0, :]
        + A[..., :, 1, None] * B[..., None, 1, :]
        + A[..., :, 2, None] * B[..., None, 2, :]
    )


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.stack(
        [
            a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1],
            a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2],
            a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0],
        ],
        axis=-1,
    )


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a[..., 0] * b[..., 0] + a[..., 1] * b[..., 1] + a[..., 2] * b[..., 2]


def rot_x(a: np.ndarray) -> np.ndarray:
    """Element rotation about x (Wang's T_x1), (..., 3, 3)."""
    a = np.asarray(a, dtype=float)
    c, s = np.cos(a), np.sin(a)
    o, z = np.ones_like(a), np.zeros_like(a)
    return np.stack(
        [np.stack([o, z, z], -1), np.stack([z, c, -s], -1), np.stack([z, s, c], -1)], -2
    )


def rot_z(a: np.ndarray) -> np.ndarray:
    """Element rotation about z (Wang's T_x3), (..., 3, 3)."""
    a = np.asarray(a, dtype=float)
    c, s = np.cos(a), np.sin(a)
    o, z = np.ones_like(a), np.zeros_like(a)
    return np.stack(
        [np.stack([c, -s, z], -1), np.stack([s, c, z], -1), np.stack([z, z, o], -1)], -2
    )


def solve3(A: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Solve A x = b for stacks of 3x3 (Cramer's rule, element-wise: batch-size independent)."""
    c0 = _cross(A[..., :, 1], A[..., :, 2])
    c1 = _cross(A[..., :, 2], A[..., :, 0])
    c2 = _cross(A[..., :, 0], A[..., :, 1])
    det = _dot(A[..., :, 0], c0)
    return np.stack([_dot(b, c0), _dot(b, c1), _dot(b, c2)], axis=-1) / det[..., None]


# ---------------------------------------------------------------- model


@dataclass(frozen=True)
class Euler313Body:
    """Frozen 2-body model of Wang ch. II (SI units).

    Positions are along the tower axis in the tower frame (origin at the platform reference
    point, z up the tower axis); both CMs lie on it (Wang: the RNA CM at the intersection of the
    spin and yaw axes).

    Parameters
    ----------
    m_tower, z_tower, I_tilt, I_axial : tower + hull mass (kg), CM height (m), inertia about its
        CM for tilt (I_x = I_y, Wang's I) and about the axis (I_z) (kg m^2).
    m_rna, z_rna : RNA mass (kg) and CM height (m).
    I_A, I_B, I_C : RNA inertia about its CM about A, the spin axis B and C (kg m^2).
    spin_axis : B in the tower frame at zero yaw (horizontal unit vector); Wang: wind along -B.
    rna_equations : "wang": the RNA moments (2.27)-(2.29) as printed (exact for I_A = I_C);
        "exact": dH/dt of a non-spinning nacelle carrying I_A (about z) and I_C (about
        spin_axis x z) and an axisymmetric rotor carrying I_B (the model of :func:`mcm_tree`),
        equal to (2.27)-(2.29) when I_A = I_C.
    yaw, spin : prescribed nacelle yaw about z (rad) and rotor angle about B relative to the
        nacelle (rad), :class:`~floatwind.multibody.motion.Motion`.
    rotor_torque : M_windB, aerodynamic torque on the rotor about B (N m), Wang (2.28).
    origin_g : inertial position of the undisplaced tower-frame origin (m).
    """

    m_tower: float
    z_tower: float
    I_tilt: float
    I_axial: float
    m_rna: float
    z_rna: float
    I_A: float
    I_B: float
    I_C: float
    spin_axis: tuple = (0.0, 1.0, 0.0)
    yaw: Motion = Locked()
    spin: Motion = Locked()
    rotor_torque: float = 0.0
    origin_g: tuple = (0.0, 0.0, 0.0)
    rna_equations: str = "wang"

    def __post_init__(self):
        if self.rna_equations not in RNA_EQUATIONS:
            raise ValueError(
                f"rna_equations must be one of {RNA_EQUATIONS}, got {self.rna_equations!r}"
            )
        for name in ("m_tower", "I_tilt", "I_axial", "m_rna", "I_A", "I_B", "I_C"):
            v = getattr(self, name)
            if not (np.isfinite(v) and v > 0):
                raise ValueError(f"{name} must be positive, got {v!r}")
        b = np.asarray(self.spin_axis, dtype=float).reshape(3)
        if abs(b[2]) > 1e-12 or not np.linalg.norm(b) > 0:
            raise ValueError(f"spin_axis must be horizontal and non-zero, got {b.tolist()}")
        object.__setattr__(self, "spin_axis", tuple((b / np.linalg.norm(b)).tolist()))
        object.__setattr__(self, "origin_g", tuple(np.asarray(self.origin_g, float).reshape(3)))

    @property
    def mass(self) -> float:
        return self.m_tower + self.m_rna

    @property
    def z_cm(self) -> float:
        """System CM height in the tower frame: the pivot O_s."""
        return (self.m_tower * self.z_tower + self.m_rna * self.z_rna) / self.mass

    @property
    def d_tower(self) -> float:
        """Tower CM relative to O_s along the axis (m)."""
        return self.z_tower - self.z_cm

    @property
    def l_rna(self) -> float:
        """RNA CM relative to O_s along the axis: Wang's l (2.35)-(2.40) (m)."""
        return self.z_rna - self.z_cm

    @property
    def I_pivot(self) -> float:
        """Tower tilt inertia about O_s (parallel axis)."""
        return self.I_tilt + self.m_tower * self.d_tower**2

    @property
    def pivot_g(self) -> np.ndarray:
        return np.asarray(self.origin_g) + np.array([0.0, 0.0, self.z_cm])

    @property
    def pivot_b(self) -> np.ndarray:
        return np.array([0.0, 0.0, self.z_cm])


# ---------------------------------------------------------------- charts


def xyz_frame(ang: np.ndarray, chart: np.ndarray) -> np.ndarray:
    """(x, y, z) -> inertial: R_ref T_Z(theta_2) T_x(theta_1), Wang (2.41). ``ang`` (B, 3) =
    (theta_1, theta_2, eta)."""
    R = _mm(rot_z(ang[:, 1]), rot_x(ang[:, 0]))
    return _mm(R_REF[np.asarray(chart, dtype=int)], R)


def tower_matrix(ang: np.ndarray, chart: np.ndarray) -> np.ndarray:
    """Tower body -> inertial: (x, y, z) turned by eta about z."""
    return _mm(xyz_frame(ang, chart), rot_z(ang[:, 2]))


def angles_from_matrix(R: np.ndarray, chart: np.ndarray | int = 0) -> np.ndarray:
    """3-1-3 angles (theta_1 in [0, pi], theta_2, eta) of the tower matrix ``R`` (B, 3, 3) in
    ``chart``. At theta_1 = 0 or pi (degenerate) theta_2 = 0 and eta takes the whole rotation
    about the axis (a defined value, never NaN)."""
    chart = np.broadcast_to(np.asarray(chart, dtype=int), R.shape[:-2])
    M = _mm(np.swapaxes(R_REF[chart], -1, -2), R)
    s1 = np.hypot(M[..., 0, 2], M[..., 1, 2])
    th1 = np.arctan2(s1, M[..., 2, 2])
    deg = s1 < 1e-12
    th2 = np.where(deg, 0.0, np.arctan2(M[..., 0, 2], -M[..., 1, 2]))
    eta = np.where(
        deg,
        np.arctan2(M[..., 1, 0], M[..., 0, 0]) * np.sign(M[..., 2, 2] + 0.5),
        np.arctan2(M[..., 2, 0], M[..., 2, 1]),
    )
    return np.stack([th1, th2, eta], axis=-1)


def omega_xyz(ang: np.ndarray, rates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Tower angular velocity omega and frame velocity Omega in (x, y, z), Wang (2.17)-(2.18)."""
    s1, c1 = np.sin(ang[:, 0]), np.cos(ang[:, 0])
    d1, d2, de = rates[:, 0], rates[:, 1], rates[:, 2]
    W = np.stack([d1, d2 * s1, d2 * c1], axis=-1)  # Omega
    w = W + np.stack([0.0 * d1, 0.0 * d1, de], axis=-1)  # omega = Omega + eta_dot k
    return w, W


def rates_from_omega(ang: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Inverse of (2.18): (theta_1, theta_2, eta) rates from omega in (x, y, z)."""
    s1, c1 = np.sin(ang[:, 0]), np.cos(ang[:, 0])
    d2 = w[:, 1] / s1
    return np.stack([w[:, 0], d2, w[:, 2] - d2 * c1], axis=-1)


def convert_chart(ang, rates, chart, to) -> tuple[np.ndarray, np.ndarray]:
    """The same tower orientation and angular velocity in chart ``to`` (B,)."""
    R = tower_matrix(ang, chart)
    w_g = _mv(xyz_frame(ang, chart), omega_xyz(ang, rates)[0])
    new = angles_from_matrix(R, to)
    return new, rates_from_omega(new, _mtv(xyz_frame(new, to), w_g))


def choose_chart(ang: np.ndarray, chart: np.ndarray) -> np.ndarray:
    """Chart for the next step (hysteresis): leave chart 0 when sin(theta_1) < SIN_LEAVE (near
    theta_1 = 0 or pi); go back when the tower's tilt from vertical has sin > SIN_RETURN (chart 1
    is singular only with the tower axis along -+Y, i.e. horizontal)."""
    chart = np.asarray(chart, dtype=int)
    z_g = xyz_frame(ang, chart)[:, :, 2]
    s_tilt = np.hypot(z_g[:, 0], z_g[:, 1])  # sin(theta_1) of chart 0
    out = chart.copy()
    out[(chart == 0) & (s_tilt < SIN_LEAVE)] = 1
    out[(chart == 1) & (s_tilt > SIN_RETURN)] = 0
    return out


# ---------------------------------------------------------------- RNA angles (Wang 2.4-2.12)


def rna_theta_wang(th1, th2, phi):
    """Nutation from the constraint, Wang (2.4)-(2.5) (chart 0)."""
    return -np.pi / 2 + np.arctan(np.tan(th1) * np.cos(phi - th2))


def rna_phi_dot_wang(th1, d1, d2, de, alpha, w_yaw):
    """Precession rate, Wang (2.10)-(2.11) (chart 0)."""
    D = np.cos(th1) ** 2 + np.sin(th1) ** 2 * np.cos(alpha) ** 2
    return D / np.cos(th1) * (w_yaw + de) + d2 + d1 * np.tan(th1) * np.sin(alpha) * np.cos(alpha)


def rna_phi_ddot_wang(th1, d1, d2, de, dd1, dd2, dde, alpha, dalpha, w_yaw, dw_yaw):
    """Precession acceleration, Wang (2.12) (chart 0)."""
    s1, c1, t1 = np.sin(th1), np.cos(th1), np.tan(th1)
    D = c1**2 + s1**2 * np.cos(alpha) ** 2
    dD = -d1 * np.sin(alpha) ** 2 * np.sin(2 * th1) - dalpha * s1**2 * np.sin(2 * alpha)
    sec = 1.0 / c1
    return (
        (w_yaw + de) * (dD * sec + D * sec * t1 * d1)
        + (dw_yaw + dde) * D * sec
        + dd2
        + d1 * dalpha * np.cos(2 * alpha) * t1
        + 0.5 * (dd1 * t1 * np.sin(2 * alpha) + d1**2 * sec**2 * np.sin(2 * alpha))
    )


# ---------------------------------------------------------------- kinematics


@dataclass
class State313:
    """Kinematics of one (t, state) (inertial axes unless named otherwise), batch first."""

    t: float
    ang: np.ndarray  # (B, 3) theta_1, theta_2, eta in ``chart``
    rates: np.ndarray  # (B, 3)
    chart: np.ndarray  # (B,) int
    R_xyz: np.ndarray  # (B, 3, 3) (x, y, z) -> inertial
    R_t: np.ndarray  # (B, 3, 3) tower body -> inertial
    w_xyz: np.ndarray  # omega in (x, y, z) (2.18)
    W_xyz: np.ndarray  # Omega in (x, y, z)
    w_t: np.ndarray  # tower angular velocity (B, 3)
    z_g: np.ndarray  # tower axis (B, 3)
    yaw: tuple  # (gamma, gamma_dot, gamma_ddot)
    spin: tuple  # (psi_n, Omega, Omega_dot): rotor angle / speed relative to the nacelle
    R_n: np.ndarray  # nacelle (RNA body) -> inertial
    w_n: np.ndarray  # nacelle angular velocity
    A: np.ndarray  # RNA frame axes (B, 3) each
    B: np.ndarray
    C: np.ndarray
    phi: np.ndarray
    theta: np.ndarray
    phi_dot: np.ndarray
    theta_dot: np.ndarray
    omega_B: np.ndarray  # RNA angular velocity about B (phi_dot cos(theta) + psi_dot)
    r_T: np.ndarray  # tower CM relative to O_s (B, 3)
    r_R: np.ndarray  # RNA CM relative to O_s (B, 3)


def tower_kinematics(
    body: Euler313Body, t: float, ang: np.ndarray, rates: np.ndarray, chart: np.ndarray
) -> State313:
    """Frames, angular velocities and RNA angles at (t, state); raises ``SimulationError`` when
    the spin axis is vertical (the RNA 3-1-3 angles are singular there)."""
    chart = np.asarray(chart, dtype=int)
    R_xyz = xyz_frame(ang, chart)
    R_t = _mm(R_xyz, rot_z(ang[:, 2]))
    w_xyz, W_xyz = omega_xyz(ang, rates)  # Wang (2.17)-(2.18)
    w_t = _mv(R_xyz, w_xyz)
    z_g = R_xyz[:, :, 2]
    g, gd, gdd = body.yaw.evaluate(float(t))
    p, pd, pdd = body.spin.evaluate(float(t))
    R_n = _mm(R_t, rot_z(np.full(ang.shape[0], g)))
    w_n = w_t + gd * z_g  # (2.6): omega_RNA . z = omega_tower . z + omega_yaw
    B = _mv(R_n, np.asarray(body.spin_axis))
    # phi, theta from B = Rz(phi) Rx(theta) e_z = (s_phi s_th, -c_phi s_th, c_th), theta in
    # (-pi, 0): the constraint B . z = 0 of Wang (2.4)-(2.5), written for any chart
    rho = np.hypot(B[:, 0], B[:, 1])
    bad = rho < RNA_SINGULAR
    if np.any(bad):
        raise SimulationError(
            "RNA spin axis vertical: its 3-1-3 angles (phi, theta) are singular (Wang 2.5)",
            time=t,
            state=np.concatenate([ang, rates], axis=1),
            members=np.nonzero(bad)[0].tolist(),
        )
    phi = np.arctan2(-B[:, 0], B[:, 1])
    theta = np.arctan2(-rho, B[:, 2])
    sth = -rho
    C = np.stack([np.cos(phi), np.sin(phi), 0.0 * phi], axis=-1)  # Rz(phi) e_x (node line)
    A = _cross(B, C)
    # (2.26) projected: omega_A = phi_dot sin(theta), omega_C = theta_dot (vector form of 2.11)
    phi_dot = _dot(w_n, A) / sth
    theta_dot = _dot(w_n, C)
    omega_B = _dot(w_t, B) + pd  # rotor speed Omega relative to the nacelle
    return State313(
        t=float(t),
        ang=ang,
        rates=rates,
        chart=chart,
        R_xyz=R_xyz,
        R_t=R_t,
        w_xyz=w_xyz,
        W_xyz=W_xyz,
        w_t=w_t,
        z_g=z_g,
        yaw=(g, gd, gdd),
        spin=(p, pd, pdd),
        R_n=R_n,
        w_n=w_n,
        A=A,
        B=B,
        C=C,
        phi=phi,
        theta=theta,
        phi_dot=phi_dot,
        theta_dot=theta_dot,
        omega_B=omega_B,
        r_T=body.d_tower * z_g,
        r_R=body.l_rna * z_g,
    )


def body_kinematics(body: Euler313Body, st: State313, cm_b: np.ndarray):
    """:class:`floatwind.loads.base.Kinematics` of the tower (0) and the RNA (1) for the loads;
    translations locked: O_s fixed, every point moves with omega x r."""
    from floatwind.records import Kinematics

    O = body.pivot_g
    r = np.stack([O + st.r_T, O + st.r_R], axis=1)
    R = np.stack([st.R_t, st.R_n], axis=1)
    v = np.stack([_cross(st.w_t, st.r_T), _cross(st.w_t, st.r_R)], axis=1)
    w = np.stack([st.w_t, st.w_n], axis=1)
    return Kinematics(t=st.t, r_G_g=r, R_b2g=R, v_G_g=v, w_b_g=w, cm_b=cm_b)


# ---------------------------------------------------------------- dynamics


@dataclass
class Dynamics313:
    """Result of :func:`forward_dynamics` (B, ...)."""

    acc: np.ndarray  # (theta_1, theta_2, eta) second derivatives
    alpha_t: np.ndarray  # tower angular acceleration, inertial
    M_ABC: np.ndarray  # (M_A, M_B, M_C) of (2.27)-(2.29): tower on RNA, (A, B, C) axes
    M_gyro: np.ndarray  # (2.30)-(2.32), (A, B, C) axes
    M_rna_xyz: np.ndarray  # (2.33): RNA moments on the tower, (x, y, z)
    M_FT_xyz: np.ndarray  # (2.39): moment of the RNA forces about O_s, (x, y, z)
    phi_ddot: np.ndarray
    theta_ddot: np.ndarray
    psi_dot: np.ndarray
    H_g: np.ndarray  # angular momentum about O_s, inertial


def tower_lhs(body: Euler313Body, ang, rates, acc) -> np.ndarray:
    """Left-hand sides of the tower's Euler equations (2.19)-(2.21), (x, y, z), about O_s."""
    I, Iz = body.I_pivot, body.I_axial
    s1, c1 = np.sin(ang[..., 0]), np.cos(ang[..., 0])
    d1, d2, de = rates[..., 0], rates[..., 1], rates[..., 2]
    a1, a2, ae = acc[..., 0], acc[..., 1], acc[..., 2]
    wz = d2 * c1 + de
    Mx = I * (a1 - d2**2 * s1 * c1) + Iz * d2 * s1 * wz  # (2.19)
    My = I * (a2 * s1 + 2.0 * d1 * d2 * c1) - Iz * d1 * wz  # (2.20)
    Mz = Iz * (ae + a2 * c1 - d1 * d2 * s1)  # (2.21)
    return np.stack([Mx, My, Mz], axis=-1)


def _nacelle_inertia_g(body: Euler313Body, st: State313) -> np.ndarray:
    """Inertia (B, 3, 3), inertial axes, of the non-spinning RNA part of ``rna_equations:
    exact``: I_A about the tower axis z, I_C about spin_axis x z, none about B."""
    b0 = np.asarray(body.spin_axis)
    z = np.array([0.0, 0.0, 1.0])
    c0 = np.cross(b0, z)
    I_b = body.I_A * np.outer(z, z) + body.I_C * np.outer(c0, c0)
    return _mm(_mm(st.R_n, np.broadcast_to(I_b, st.R_n.shape)), np.swapaxes(st.R_n, -1, -2))


def angular_momentum(body: Euler313Body, st: State313) -> np.ndarray:
    """Angular momentum of tower and RNA about O_s (B, 3), inertial: the RNA's of the model
    ``rna_equations`` stands for (for "wang" the exact one when I_A = I_C)."""
    z = st.z_g
    wt = st.w_t
    wz = _dot(wt, z)
    H = body.I_pivot * (wt - wz[:, None] * z) + body.I_axial * wz[:, None] * z
    if body.rna_equations == "exact":
        H += _mv(_nacelle_inertia_g(body, st), st.w_n)
    else:
        H += body.I_A * _dot(st.w_n, st.A)[:, None] * st.A + body.I_C * st.theta_dot[:, None] * st.C
    H += body.I_B * st.omega_B[:, None] * st.B
    H += body.m_rna * _cross(st.r_R, _cross(wt, st.r_R))
    return H


def forward_dynamics(body: Euler313Body, st: State313, wrench) -> Dynamics313:
    """Angular accelerations (theta_1, theta_2, eta)'' from the tower equations (2.19)-(2.24).

    ``wrench``: :class:`floatwind.loads.base.Wrench` on the tower (0) and the RNA (1): force
    (B, 2, 3) inertial, moment about each body CM (B, 2, 3), optional ``added_mass`` (B, 2, 6, 6).
    """
    Bn = st.ang.shape[0]
    F = np.broadcast_to(wrench.force, (Bn, 2, 3))
    Mo = np.broadcast_to(wrench.moment, (Bn, 2, 3))
    AM = wrench.added_mass
    # four trial accelerations (0, e1, e2, e3): every term below is affine in them
    trial = np.zeros((4, Bn, 3))
    trial[1, :, 0] = trial[2, :, 1] = trial[3, :, 2] = 1.0
    ang, rates = st.ang[None], st.rates[None]
    s1, c1 = np.sin(ang[..., 0]), np.cos(ang[..., 0])
    d1, d2 = rates[..., 0], rates[..., 1]
    # d/dt of (2.18) in (x, y, z), then inertial: alpha_t = R (d_local omega + Omega x omega)
    dw_loc = np.stack(
        [
            trial[..., 0],
            trial[..., 1] * s1 + d1 * d2 * c1,
            trial[..., 1] * c1 - d1 * d2 * s1 + trial[..., 2],
        ],
        axis=-1,
    )
    alpha_t = _mv(st.R_xyz[None], dw_loc + _cross(st.W_xyz, st.w_xyz)[None])
    g, gd, gdd = st.yaw
    z, wt, wn = st.z_g[None], st.w_t[None], st.w_n[None]
    alpha_n = alpha_t + gdd * z + gd * _cross(wt, z)
    A, Bv, C = st.A[None], st.B[None], st.C[None]
    sth, cth = np.sin(st.theta)[None], np.cos(st.theta)[None]
    phid, thd = st.phi_dot[None], st.theta_dot[None]
    # the RNA frame (A, B, C) turns at Omega_ABC = phi_dot Z + theta_dot C
    Zv = np.array([0.0, 0.0, 1.0])
    W_abc = phid[..., None] * Zv + thd[..., None] * C
    dA, dC = _cross(W_abc, A), _cross(W_abc, C)
    theta_dd = _dot(alpha_n, C) + _dot(wn, dC)  # derivative of (2.5), vector form
    phi_dd = (_dot(alpha_n, A) + _dot(wn, dA) - phid * cth * thd) / sth  # (2.12), vector form
    p, pd, pdd = st.spin
    wB = st.omega_B[None]
    dwB = _dot(alpha_t, Bv) + _dot(wt, _cross(wn, Bv)) + pdd
    psi_d = wB - phid * cth
    IA, IB, IC = body.I_A, body.I_B, body.I_C
    if body.rna_equations == "exact":
        # dH/dt of the nacelle (I_A, I_C fixed in it) and the axisymmetric rotor (I_B)
        I_g = _nacelle_inertia_g(body, st)[None]
        Hd = _mv(I_g, alpha_n) + _cross(wn, _mv(I_g, wn))
        Hd = Hd + IB * dwB[..., None] * Bv + IB * wB[..., None] * _cross(wn, Bv)
        M_A, M_C = _dot(Hd, A), _dot(Hd, C)
        M_B = _dot(Hd, Bv) - body.rotor_torque
    else:
        M_A = IA * (phi_dd * sth + 2.0 * thd * phid * cth) - IB * thd * wB  # (2.27)
        M_B = IB * dwB - body.rotor_torque  # (2.28) with psi_ddot = dwB - d(phi_dot cos(theta))/dt
        M_C = IC * (theta_dd - phid**2 * sth * cth) + IB * phid * sth * wB  # (2.29)
    # RNA forces (2.39): F_T = F_b - m_R a_R, a_R from the tower rotation about O_s
    rR, rT = st.r_R[None], st.r_T[None]
    a_R = _cross(alpha_t, rR) + _cross(wt, _cross(wt, rR))
    a_T = _cross(alpha_t, rT) + _cross(wt, _cross(wt, rT))
    F_T, F_R = F[None, :, 0], F[None, :, 1]
    M_T, M_R = Mo[None, :, 0], Mo[None, :, 1]
    if AM is not None:
        AM = np.broadcast_to(AM, (Bn, 2, 6, 6))[None]
        acc_T = np.concatenate([a_T, alpha_t], axis=-1)
        acc_R = np.concatenate([a_R, alpha_n], axis=-1)
        rT6 = -(AM[:, :, 0] * acc_T[..., None, :]).sum(-1)
        rR6 = -(AM[:, :, 1] * acc_R[..., None, :]).sum(-1)
        F_T, M_T = F_T + rT6[..., :3], M_T + rT6[..., 3:]
        F_R, M_R = F_R + rR6[..., :3], M_R + rR6[..., 3:]
    M_rna_g = -(M_A[..., None] * A + M_B[..., None] * Bv + M_C[..., None] * C) + M_R  # (2.33)
    M_FT_g = _cross(rR, F_R - body.m_rna * a_R)  # (2.39)-(2.40)
    M_tow_g = M_T + _cross(rT, F_T)  # wave, mooring, hydrostatics about O_s (2.48)
    Rt = st.R_xyz[None]
    # (2.22)-(2.24): sum of the external moments in (x, y, z)
    M_sum = _mtv(Rt, M_rna_g + M_FT_g + M_tow_g)
    res = tower_lhs(body, ang, rates, trial) - M_sum
    K = np.stack([res[1] - res[0], res[2] - res[0], res[3] - res[0]], axis=-1)
    acc = solve3(K, -res[0])
    # the same quantities at the solution (affine: r0 + sum_k acc_k (r_k - r0))

    def at(x):
        x = np.broadcast_to(x, (4,) + x.shape[1:])
        out = x[0]
        for k in range(3):
            ak = acc[:, k] if x.ndim == 2 else acc[:, k, None]
            out = out + ak * (x[k + 1] - x[0])
        return out

    M_ABC = np.stack([at(M_A), at(M_B), at(M_C)], axis=-1)
    Om = pd
    M_gyro = np.stack(
        [-IB * st.theta_dot * Om, 0.0 * st.theta_dot, IB * st.phi_dot * np.sin(st.theta) * Om],
        axis=-1,
    )  # (2.30)-(2.32) with the rotor speed
    return Dynamics313(
        acc=acc,
        alpha_t=at(alpha_t),
        M_ABC=M_ABC,
        M_gyro=M_gyro,
        M_rna_xyz=_mtv(st.R_xyz, at(M_rna_g)),
        M_FT_xyz=_mtv(st.R_xyz, at(M_FT_g)),
        phi_ddot=at(phi_dd),
        theta_ddot=at(theta_dd),
        psi_dot=psi_d[0] if psi_d.shape[0] == 1 else psi_d,
        H_g=angular_momentum(body, st),
    )


# ---------------------------------------------------------------- the same model as a tree


#: mass (kg) and inertia (kg m^2) of the non-spinning nacelle body of :func:`mcm_tree`
NACELLE_EPS = 1e-3


def mcm_tree(body: Euler313Body):
    """The same rotations-only model as a momentum-cloud tree (for cross-checks): tower (base),
    ``nacelle`` (yaw joint at the RNA CM, not spinning: the transverse inertias I_A about z and
    I_C about spin_axis x z, :data:`NACELLE_EPS` about B and as mass) and ``rotor`` (spin joint
    about B through the same point: the RNA mass, I_B about B, NACELLE_EPS transverse, so
    axisymmetric). The RNA's inertia about its CM is then diag(I_C, I_B, I_A) in (C, B, A) at
    every spin angle, and its spin momentum is I_B Omega: for I_A = I_C the model of
    (2.27)-(2.29) exactly (up to NACELLE_EPS / I ~ 1e-11)."""
    from floatwind.multibody.tree import Body, Joint, Tree

    eps = NACELLE_EPS
    b0 = np.asarray(body.spin_axis)
    z = np.array([0.0, 0.0, 1.0])
    c0 = np.cross(b0, z)
    I_nac = (
        (body.I_A - eps) * np.outer(z, z)
        + (body.I_C - eps) * np.outer(c0, c0)
        + eps * np.outer(b0, b0)
    )
    I_rot = (body.I_B - eps) * np.outer(b0, b0) + eps * np.eye(3)
    bodies = [
        Body(
            "tower",
            body.m_tower,
            [0.0, 0.0, body.z_tower],
            np.diag([body.I_tilt, body.I_tilt, body.I_axial]),
        ),
        Body("nacelle", eps, [0.0, 0.0, 0.0], I_nac),
        Body("rotor", body.m_rna - eps, [0.0, 0.0, 0.0], I_rot),
    ]
    joints = [
        Joint("yaw", 0, 1, [0.0, 0.0, body.z_rna], [0.0, 0.0, 0.0], axis=z, rotation=body.yaw),
        Joint("spin", 1, 2, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], axis=b0, rotation=body.spin),
    ]
    return Tree(bodies, joints)
