"""Exact solutions for rigid bodies used to validate the Lie-group integrator (Giusti sec. 7).

* Rotation of a body with spherical ellipsoid of inertia (J = j I) under a constant body-fixed
  torque: Romano, M. (2008), "Exact analytic solution for the rotation of a rigid body having
  spherical ellipsoid of inertia and subjected to a constant torque", Celest Mech Dyn Astr
  100:181-189.
* Rotation of an axially symmetric body (J = diag(J1, J1, J3)) under a constant torque about the
  symmetry axis: Romano, M. (2008), "Exact analytic solutions for the rotation of an axially
  symmetric rigid body subjected to a constant torque", Celest Mech Dyn Astr 101:375-390.
* The forced damped oscillator of Giusti (44)-(46).

Derivation (our own, following Romano's idea of passing to SU(2) spinors). With body angular
velocity W(t) and R' = R W~, the unit quaternion of R obeys qdot = q (0, W)/2; mapping the
quaternion units i, j, k to -i s1, -i s2, -i s3 (Pauli matrices s) gives the 2x2 complex equation
Udot = U (-i/2)(W . s). Both problems reduce to the *kernel*

    Gdot = G (w_p e1 + (w0 + k t) e3)~,   G(0) = I,                                    (K)

a constant transverse rate w_p plus an axial rate growing linearly in time:

* sphere: Euler's equations give W(t) = W0 + tau t / j; in a constant body frame whose third
  axis is the torque and whose first axis is the (constant) transverse part of W0, W has the
  form of (K), so R(t) = R0 C G(t) C^T;
* axisymmetric body: W3 = W30 + tau3 t / J3 and the transverse rate turns by
  lambda(t) = (J3 - J1)/J1 (W30 t + tau3 t^2 / (2 J3)); R(t) = R0 G'(t) exp(-lambda(t) e3~),
  where G' solves (K) with the axial rate (J3/J1) W3(t) (a regular precession-like motion).

For (K), U = V exp(-i s3 alpha/2) with alpha = w0 t + k t^2/2 leaves for each row (a, b) of V

    adot = (-i w_p / 2) e^{i alpha} b,   bdot = (-i w_p / 2) e^{-i alpha} a,
    a'' - i k tau a' + (w_p^2 / 4) a = 0,   tau = t + w0/k,

and with z = (i k / 2) tau^2 this is Kummer's equation z f'' + (1/2 - z) f' - a_K f = 0 with
a_K = i w_p^2 / (8 k). Its two entire solutions are M(a_K, 1/2, z) and tau M(a_K + 1/2, 3/2, z)
(M is Kummer's confluent hypergeometric function), fitted to the initial values of each row.
M is summed here from its power series in extended precision (``decimal``), so no special-function
library beyond the standard one is needed.
"""

from __future__ import annotations

import decimal
import math

import numpy as np

from floatwind.rotation import exp_so3, matrix_from_quaternion, rot_z

__all__ = [
    "axisymmetric_constant_axial_torque",
    "forced_damped_oscillator",
    "kummer_m",
    "sphere_constant_body_torque",
]


def kummer_m(a: complex, b: float, z: complex) -> complex:
    """Kummer's function M(a, b, z) = sum (a)_n / (b)_n z^n / n!, for moderate |z| (< ~200).

    The series is summed in ``decimal`` arithmetic with enough digits to absorb the cancellation
    (terms reach about e^|z| while M may be of order one); the result is exact to double precision.
    """
    a = complex(a)
    z = complex(z)
    b = float(b)
    digits = 30 + int(abs(z) / math.log(10.0)) + int(2 * abs(a))
    with decimal.localcontext() as ctx:
        ctx.prec = digits
        D = decimal.Decimal
        ar, ai = D(a.real), D(a.imag)
        zr, zi = D(z.real), D(z.imag)
        br = D(b)
        tr, ti = D(1), D(0)
        sr, si = D(1), D(0)
        tiny = D(10) ** (-(digits - 5))
        n = 0
        while True:
            # term *= (a + n) z / ((b + n) (n + 1))
            pr = (ar + n) * zr - ai * zi
            pi = (ar + n) * zi + ai * zr
            den = (br + n) * (n + 1)
            tr, ti = (tr * pr - ti * pi) / den, (tr * pi + ti * pr) / den
            sr += tr
            si += ti
            n += 1
            if n > abs(z) + abs(a) + 10 and abs(tr) + abs(ti) < tiny * (abs(sr) + abs(si) + 1):
                break
            if n > 100000:  # pragma: no cover - guarded by the |z| range of use
                raise ArithmeticError("Kummer series did not converge")
        return complex(float(sr), float(si))


def _quaternion_from_su2(U: np.ndarray) -> np.ndarray:
    """Unit quaternion [q0, q1, q2, q3] of U = q0 I - i (q . s), U of shape (..., 2, 2)."""
    return np.stack(
        [U[..., 0, 0].real, -U[..., 0, 1].imag, -U[..., 0, 1].real, -U[..., 0, 0].imag], -1
    )


def _kernel(w_p: float, w0: float, k: float, t: np.ndarray) -> np.ndarray:
    """Solution G(t) (T, 3, 3) of (K): Gdot = G (w_p e1 + (w0 + k t) e3)~, G(0) = I."""
    t = np.asarray(t, dtype=float)
    if w_p == 0.0:
        return exp_so3(np.stack([0 * t, 0 * t, w0 * t + 0.5 * k * t * t], -1))
    if k == 0.0:
        return exp_so3(np.stack([w_p * t, 0 * t, w0 * t], -1))
    c = 0.5j * k
    aK = 1j * w_p**2 / (8.0 * k)

    def basis(tau: float):
        z = c * tau * tau
        f1 = kummer_m(aK, 0.5, z)
        df1 = 4.0 * c * aK * tau * kummer_m(aK + 1.0, 1.5, z)
        m2 = kummer_m(aK + 0.5, 1.5, z)
        f2 = tau * m2
        df2 = m2 + tau * 2.0 * c * tau * (aK + 0.5) / 1.5 * kummer_m(aK + 1.5, 2.5, z)
        return np.array([[f1, f2], [df1, df2]])

    tau0 = w0 / k
    W0 = basis(tau0)
    # rows of V at t = 0: (a, b) = (1, 0) -> adot = 0 ; (0, 1) -> adot = -i w_p / 2
    coef = np.linalg.solve(W0, np.array([[1.0, 0.0], [0.0, -0.5j * w_p]], dtype=complex))
    out = np.empty(t.shape + (3, 3))
    for idx, ti in np.ndenumerate(t):
        Wt = basis(ti + tau0)
        vals = Wt @ coef  # [[a1, a2], [adot1, adot2]]
        alpha = w0 * ti + 0.5 * k * ti * ti
        a = vals[0]
        b = vals[1] * np.exp(-1j * alpha) * (2j / w_p)
        V = np.array([[a[0], b[0]], [a[1], b[1]]])
        E = np.diag([np.exp(-0.5j * alpha), np.exp(0.5j * alpha)])
        out[idx] = matrix_from_quaternion(_quaternion_from_su2(V @ E))
    return out


def _frame_with_axis(n: np.ndarray, e1: np.ndarray) -> np.ndarray:
    """Rotation C with columns (e1, n x e1, n): its third axis is n, its first e1 (unit, e1 . n = 0)."""
    return np.stack([e1, np.cross(n, e1), n], axis=-1)


def _any_perpendicular(n: np.ndarray) -> np.ndarray:
    trial = np.eye(3)[np.argmin(np.abs(n))]
    p = trial - np.dot(trial, n) * n
    return p / np.linalg.norm(p)


def sphere_constant_body_torque(*, j: float, torque_b, w0_b, t, R0=None) -> dict[str, np.ndarray]:
    """Exact rotation of a body with J = j I under a constant body-fixed torque (Romano 2008, CMDA 100).

    Parameters
    ----------
    j : float
        Principal moment of inertia (kg m^2), the same about every axis.
    torque_b : (3,) array_like
        Constant torque in body axes (N m).
    w0_b : (3,) array_like
        Initial angular velocity in body axes (rad/s).
    t : (T,) array_like
        Times from the start (s).
    R0 : (3, 3) array_like, optional
        Initial body-to-inertial rotation (default identity).

    Returns
    -------
    dict with ``R_b2g`` (T, 3, 3), ``w_b`` (T, 3) body angular velocity and ``w_g`` (T, 3)
    angular velocity in inertial axes.
    """
    t = np.atleast_1d(np.asarray(t, dtype=float))
    tau = np.asarray(torque_b, dtype=float)
    W0 = np.asarray(w0_b, dtype=float)
    R0 = np.eye(3) if R0 is None else np.asarray(R0, dtype=float)
    w_b = W0 + np.outer(t, tau) / j  # Euler's equations with J = j I
    tn = np.linalg.norm(tau)
    if tn == 0.0:
        R = R0 @ exp_so3(np.outer(t, W0))
    else:
        n = tau / tn
        w_ax = float(W0 @ n)
        W_perp = W0 - w_ax * n
        w_p = float(np.linalg.norm(W_perp))
        e1 = W_perp / w_p if w_p > 1e-14 * max(1.0, abs(w_ax)) else _any_perpendicular(n)
        C = _frame_with_axis(n, e1)
        G = _kernel(w_p, w_ax, tn / j, t)
        R = R0 @ C @ G @ C.T
    return {"R_b2g": R, "w_b": w_b, "w_g": np.einsum("tij,tj->ti", R, w_b)}


def axisymmetric_constant_axial_torque(
    *, J1: float, J3: float, torque3: float, w0_b, t, R0=None
) -> dict[str, np.ndarray]:
    """Exact rotation of an axisymmetric body under a constant axial torque (Romano 2008, CMDA 101).

    The symmetry axis is the body z axis, J = diag(J1, J1, J3), the torque ``torque3`` acts about
    it (body-fixed). The spin W3 grows linearly; the transverse rate keeps its magnitude and turns
    in the body by lambda(t) = (J3 - J1)/J1 (W30 t + torque3 t^2 / (2 J3)).

    Parameters
    ----------
    J1, J3 : float
        Transverse and axial moments of inertia (kg m^2).
    torque3 : float
        Axial torque (N m).
    w0_b : (3,) array_like
        Initial angular velocity, body axes (rad/s).
    t : (T,) array_like
        Times (s).
    R0 : (3, 3) array_like, optional
        Initial rotation (default identity).

    Returns
    -------
    dict with ``R_b2g`` (T, 3, 3), ``w_b`` (T, 3) and ``w_g`` (T, 3).
    """
    t = np.atleast_1d(np.asarray(t, dtype=float))
    W0 = np.asarray(w0_b, dtype=float)
    R0 = np.eye(3) if R0 is None else np.asarray(R0, dtype=float)
    w3 = W0[2] + torque3 * t / J3
    lam = (J3 - J1) / J1 * (W0[2] * t + 0.5 * torque3 * t * t / J3)
    W_perp = np.array([W0[0], W0[1], 0.0])
    w_p = float(np.linalg.norm(W_perp))
    Rz = rot_z(lam)
    w_b = np.einsum("tij,j->ti", Rz, W_perp)
    w_b[:, 2] = w3
    # G' solves (K) with transverse W_perp and axial rate (J3/J1) W3(t)
    e3 = np.array([0.0, 0.0, 1.0])
    e1 = W_perp / w_p if w_p > 0.0 else np.array([1.0, 0.0, 0.0])
    C = _frame_with_axis(e3, e1)
    G = C @ _kernel(w_p, J3 / J1 * W0[2], torque3 / J1, t) @ C.T
    R = R0 @ G @ rot_z(-lam)
    return {"R_b2g": R, "w_b": w_b, "w_g": np.einsum("tij,tj->ti", R, w_b)}


def forced_damped_oscillator(
    *, omega_n: float, nu: float, force: float, omega: float, stiffness: float, t
) -> dict[str, np.ndarray]:
    """Exact response x(t) of m x'' + c x' + k x = F sin(omega t), x(0) = x'(0) = 0, Giusti (44)-(46).

    Parameters
    ----------
    omega_n : float
        Natural angular frequency sqrt(k/m) (rad/s), Giusti (42).
    nu : float
        Damping factor c / (2 m omega_n) (< 1), Giusti (43).
    force, omega : float
        Forcing amplitude (N) and angular frequency (rad/s).
    stiffness : float
        k (N/m).
    t : array_like
        Times (s).

    Returns
    -------
    dict with ``x`` (displacement, m) and ``x_particular`` (the steady-state part x* sin(omega t - psi)).
    """
    t = np.asarray(t, dtype=float)
    alpha = omega / omega_n  # Giusti (46)
    x_star = force / (stiffness * np.sqrt((1.0 - alpha**2) ** 2 + 4.0 * nu**2 * alpha**2))  # (45)
    psi = np.arctan2(2.0 * nu * alpha, 1.0 - alpha**2)  # tg psi of (46), psi in (0, pi)
    wd = omega_n * np.sqrt(1.0 - nu**2)
    part = x_star * np.sin(omega * t - psi)
    hom = (
        np.exp(-nu * omega_n * t)
        * x_star
        * (
            np.sin(-psi) * np.cos(wd * t)
            + (omega * np.cos(-psi) + nu * omega_n * np.sin(-psi)) / wd * np.sin(wd * t)
        )
    )
    return {"x": part - hom, "x_particular": part}  # Giusti (44)
