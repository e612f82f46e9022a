"""The four validation cases of Giusti (seed 000) sec. 7, shared by the scripts and the tests.

Each ``*_errors`` function runs the spatial Lie-group generalized-alpha integrator for a list of
step sizes and returns the mean absolute error of Giusti (38)-(39) on the case's time window.
"""

from __future__ import annotations

import numpy as np
from scipy.integrate import solve_ivp

from floatwind.integrate.exact_rigid import (
    axisymmetric_constant_axial_torque,
    forced_damped_oscillator,
    sphere_constant_body_torque,
)
from floatwind.integrate.lie_group import LieGroupGeneralizedAlpha, RigidBodySpatial
from floatwind.loads.spatial import (
    FollowerForce,
    FollowerLinear,
    FollowerTorque,
    Gravity,
    NonFollowerForce,
    NonFollowerLinear,
)
from floatwind.rotation import log_so3, matrix_from_quaternion

#: reference point x_P^{B,M} of Tables 2-3 (m)
X_P_B = np.array([0.0, 0.0, -0.6])


def observed_order(h, err) -> float:
    """Least-squares slope of log(err) against log(h)."""
    return float(np.polyfit(np.log(h), np.log(err), 1)[0])


def mean_error(x_num, x_ref) -> float:
    """Giusti (38): mean over the n_step times of |x_num - x_ref|."""
    return float(np.mean(np.linalg.norm(np.asarray(x_num) - np.asarray(x_ref), axis=-1)))


def _run(
    body, w0, t_eval, h, rho_inf, r0=(0.0, 0.0, 0.0), v0=(0.0, 0.0, 0.0), formulation="spatial"
):
    ga = LieGroupGeneralizedAlpha(rho_inf=rho_inf, tol=1e-12, formulation=formulation)
    s0 = ga.initial_state(body, 0.0, r_G_g=r0, R_b2g=np.eye(3), v_G_g=v0, w_b_g=w0)
    return ga.integrate(body, s0, np.r_[0.0, t_eval], h)


# ---- 7.1 sphere with follower torque (Table 2) ----------------------------------------------

SPHERE = {"j": 3.0, "torque_b": np.array([0.0, 0.0, 30.0]), "w0": np.array([10.0, 15.0, 20.0])}
SPHERE_WINDOW = np.linspace(0.42, 0.60, 10)  # t_i = 0.42 .. 0.60 s, n_step = 10


def sphere_errors(hs, rho_inf, t_eval=SPHERE_WINDOW):
    """Errors (38)-(39) of the sphere under a follower torque against Romano (2008a)."""
    body = RigidBodySpatial(
        mass=1.0, J_b=SPHERE["j"] * np.eye(3), loads=(FollowerTorque(torque=SPHERE["torque_b"]),)
    )
    ex = sphere_constant_body_torque(
        j=SPHERE["j"], torque_b=SPHERE["torque_b"], w0_b=SPHERE["w0"], t=t_eval
    )
    x_ref = ex["R_b2g"] @ X_P_B  # Giusti (39)
    errs = []
    for h in hs:
        out = _run(body, SPHERE["w0"], t_eval, h, rho_inf)
        errs.append(mean_error(out["R_b2g"][1:, 0] @ X_P_B, x_ref))
    return np.array(errs)


def sphere_trajectory(h, rho_inf, t_eval):
    body = RigidBodySpatial(
        mass=1.0, J_b=SPHERE["j"] * np.eye(3), loads=(FollowerTorque(torque=SPHERE["torque_b"]),)
    )
    ex = sphere_constant_body_torque(
        j=SPHERE["j"], torque_b=SPHERE["torque_b"], w0_b=SPHERE["w0"], t=t_eval
    )
    out = _run(body, SPHERE["w0"], t_eval[1:], h, rho_inf)
    return out["R_b2g"][:, 0] @ X_P_B, ex["R_b2g"] @ X_P_B


# ---- 7.2 axially symmetric body (Table 3) ---------------------------------------------------

AXISYM = {"J1": 20.0, "J3": 7.0, "torque3": 30.0, "w0": np.array([1.0, 2.0, 3.0])}
AXISYM_WINDOW = np.linspace(0.82, 1.00, 10)  # t_i = 0.82 .. 1.00 s, n_step = 10


def axisym_errors(hs, rho_inf, velocity_factor=1.0, t_eval=AXISYM_WINDOW):
    """Errors (38)-(39) of the axisymmetric body against Romano (2008b)."""
    w0 = velocity_factor * AXISYM["w0"]
    body = RigidBodySpatial(
        mass=1.0,
        J_b=np.diag([AXISYM["J1"], AXISYM["J1"], AXISYM["J3"]]),
        loads=(FollowerTorque(torque=[0.0, 0.0, AXISYM["torque3"]]),),
    )
    ex = axisymmetric_constant_axial_torque(
        J1=AXISYM["J1"], J3=AXISYM["J3"], torque3=AXISYM["torque3"], w0_b=w0, t=t_eval
    )
    x_ref = ex["R_b2g"] @ X_P_B
    errs = []
    for h in hs:
        out = _run(body, w0, t_eval, h, rho_inf)
        errs.append(mean_error(out["R_b2g"][1:, 0] @ X_P_B, x_ref))
    return np.array(errs)


# ---- 7.3 forced damped oscillator (Table 4, Giusti (40)-(46)) -------------------------------

OSC = {"m": 1.0, "omega_n": np.pi, "nu": 0.3, "F": 1.0}
OSC_WINDOW = np.linspace(2.0, 18.0, 81)  # t_i = 2 .. 18 s, n_step = 81


def oscillator_body():
    m, wn, nu = OSC["m"], OSC["omega_n"], OSC["nu"]
    A_q = np.zeros((6, 6))
    A_q[0, 0] = m * wn**2  # A^q_11 (Table 4)
    A_v = np.zeros((6, 6))
    A_v[0, 0] = 2.0 * nu * wn * m  # A^v_11
    force = NonFollowerForce(force=lambda t: np.array([OSC["F"] * np.sin(2.0 * wn * t), 0.0, 0.0]))
    return RigidBodySpatial(
        mass=m, J_b=np.eye(3), loads=(NonFollowerLinear(A_q=A_q, A_v=A_v), force)
    )


def oscillator_exact(t):
    m, wn, nu = OSC["m"], OSC["omega_n"], OSC["nu"]
    return forced_damped_oscillator(
        omega_n=wn, nu=nu, force=OSC["F"], omega=2.0 * wn, stiffness=m * wn**2, t=t
    )


def oscillator_errors(hs, rho_inf, t_eval=OSC_WINDOW):
    body = oscillator_body()
    x_ref = np.zeros((len(t_eval), 3))
    x_ref[:, 0] = oscillator_exact(t_eval)["x"]
    errs = []
    for h in hs:
        out = _run(body, np.zeros(3), t_eval, h, rho_inf)
        errs.append(mean_error(out["r_G_g"][1:, 0], x_ref))
    return np.array(errs)


# ---- 7.4 rigid body with follower loads (Table 5, (47)-(50)) ---------------------------------


def _sym_from_lower(rows) -> np.ndarray:
    L = np.zeros((6, 6))
    for i, row in enumerate(rows):
        L[i, : len(row)] = row
    return 1e-4 * (L + np.tril(L, -1).T)  # Giusti (47): symmetric


B_Q = _sym_from_lower(
    [[7.69], [3.78, 1.55], [8.26, 2.59, 5.34], [0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]]
)  # Giusti (48)
B_V = _sym_from_lower(
    [
        [3.48],
        [1.96, 4.42],
        [6.35, 6.96, 4.42],
        [2.66, 2.78, 4.21, 4.30],
        [4.07, 5.67, 5.70, 8.21, 3.77],
        [7.73, 6.72, 3.76, 5.31, 3.27, 8.34],
    ]
)  # Giusti (49)
B_A = _sym_from_lower(
    [
        [3.18],
        [3.32, 6.47],
        [5.79, 3.25, 1.10],
        [5.06, 7.42, 3.46, 7.72],
        [3.36, 3.31, 5.50, 5.13, 5.25],
        [7.50, 7.39, 4.21, 8.22, 6.36, 5.20],
    ]
)  # Giusti (50)

FOLLOWER = {
    "m": 1.0,
    "g": 9.81,
    "J_b": np.diag([20.0, 20.0, 10.0]),
    "q0": np.array([1.0, 2.0, 3.0]),
    "v0": np.array([1.5, 1.0, 0.5]),
    "w0": np.array([0.1, 0.2, 0.1]),
    "rho_inf": 0.9,
    "h": 0.05,
}


def _ff(t):
    return 0.1 * np.sin(np.pi / 5.0 * t) * np.array([1.0, 0.0, 0.0])


def _tf(t):
    return 0.1 * np.sin(np.pi / 10.0 * t) * np.array([0.0, 1.0, 0.0])


def follower_body():
    m, g = FOLLOWER["m"], FOLLOWER["g"]
    loads = (
        Gravity(mass=m, g=g),
        NonFollowerForce(force=np.array([0.0, 0.0, m * g])),  # F^nf balancing the weight
        FollowerForce(force=_ff),
        FollowerTorque(torque=_tf),
        FollowerLinear(B_q=B_Q, B_v=B_V, B_a=B_A),
    )
    return RigidBodySpatial(mass=m, J_b=m * FOLLOWER["J_b"], loads=loads)


def follower_run(formulation, t_out, h=None, rho_inf=None):
    body = follower_body()
    ga = LieGroupGeneralizedAlpha(
        rho_inf=rho_inf or FOLLOWER["rho_inf"], tol=1e-12, formulation=formulation
    )
    s0 = ga.initial_state(
        body, 0.0, r_G_g=FOLLOWER["q0"], R_b2g=np.eye(3), v_G_g=FOLLOWER["v0"], w_b_g=FOLLOWER["w0"]
    )
    return ga.integrate(body, s0, t_out, h or FOLLOWER["h"])


def follower_reference(t_out, rtol=1e-11):
    """Independent DOP853 solution of the same Newton-Euler ODE (quaternion kinematics)."""
    m, J_b = FOLLOWER["m"], FOLLOWER["m"] * FOLLOWER["J_b"]

    def rot6(R, Bm):
        P = np.zeros((6, 6))
        P[:3, :3] = R
        P[3:, 3:] = R
        return P @ Bm @ P.T

    def rhs(t, y):
        x, p, v = y[:3], y[3:7], y[7:13]
        R = matrix_from_quaternion(p)
        w = v[3:]
        Jg = R @ J_b @ R.T
        q = np.r_[x, log_so3(R)]
        M = np.zeros((6, 6))
        M[:3, :3] = m * np.eye(3)
        M[3:, 3:] = Jg
        M += rot6(R, B_A)
        f = np.r_[R @ _ff(t), R @ _tf(t) - np.cross(w, Jg @ w)]  # weight and F^nf cancel
        f -= rot6(R, B_V) @ v + rot6(R, B_Q) @ q
        vdot = np.linalg.solve(M, f)
        e0, e = p[0], p[1:]
        w_b = R.T @ w
        pdot = 0.5 * np.r_[-e @ w_b, e0 * w_b + np.cross(e, w_b)]
        return np.r_[v[:3], pdot, vdot]

    y0 = np.r_[FOLLOWER["q0"], 1.0, 0.0, 0.0, 0.0, FOLLOWER["v0"], FOLLOWER["w0"]]
    sol = solve_ivp(
        rhs, (t_out[0], t_out[-1]), y0, method="DOP853", rtol=rtol, atol=1e-12, t_eval=t_out
    )
    R = matrix_from_quaternion(sol.y[3:7].T)
    return {"r_G_g": sol.y[:3].T, "R_b2g": R, "v_G_g": sol.y[7:10].T, "w_b_g": sol.y[10:13].T}


__all__ = [
    "AXISYM",
    "AXISYM_WINDOW",
    "B_A",
    "B_Q",
    "B_V",
    "FOLLOWER",
    "OSC",
    "OSC_WINDOW",
    "SPHERE",
    "SPHERE_WINDOW",
    "X_P_B",
    "axisym_errors",
    "follower_reference",
    "follower_run",
    "mean_error",
    "observed_order",
    "oscillator_errors",
    "oscillator_exact",
    "sphere_errors",
    "sphere_trajectory",
]
