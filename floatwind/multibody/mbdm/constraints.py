"""Basic constraints and the joint library of the MBDM formulation, Leble (seed 001) sec. 2, Table 1.

Every constraint gives, at (q, qdot, t), its rows Phi, the Jacobian Phi_q (rows x 7 nb, with the
columns [r_k, p_k] of body k at 7k), nu = -Phi_t (eq. 34) and gamma (eq. 35). The entries of
Table 1 are assembled here from global vectors: for a body-fixed vector a = A a' and a point
P = r + A s' (eq. 3),

    d(a)/dp = -2 A ~a' G  (Table 1, via delta pi' = 2 G delta p, eq. 39),  adot = w x a,
    d(P)/dr = I,  d(P)/dp = -2 A ~s' G,  Pdot = rdot + w x (A s'),

with w = A omega' the global angular velocity, and gamma of a product is minus the part of its
second time derivative that holds no accelerations (w x (w x a) for a vector). Written out, this
is Table 1 term by term; it is exact on unit Euler parameters because G p = 0, so the Jacobian
has no component along p and A(p) is normalised (matrix_from_quaternion).

A body index ``None`` is the ground (global frame: r = 0, A = I, at rest).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from floatwind.errors import CaseError
from floatwind.multibody.mbdm.coordinates import A_matrix, E_matrix, G_matrix
from floatwind.rotation import skew

__all__ = ["JOINT_TYPES", "Joint", "Rows", "basic_d1", "basic_d2", "basic_p1", "basic_p2",
           "basic_s", "basic_ss", "body_states"]  # fmt: skip


@dataclass
class _Body:
    """Kinematic state of one body (or the ground, ``col is None``)."""

    col: int | None
    r: np.ndarray
    A: np.ndarray
    G: np.ndarray
    w: np.ndarray  # global angular velocity
    rdot: np.ndarray


@dataclass
class _Vec:
    """A global 3-vector: value, Jacobian (3, n), time derivative, zero-acceleration 2nd derivative."""

    v: np.ndarray
    J: np.ndarray
    d: np.ndarray
    a: np.ndarray

    def __sub__(self, o: _Vec) -> _Vec:
        return _Vec(self.v - o.v, self.J - o.J, self.d - o.d, self.a - o.a)


@dataclass
class Rows:
    """Rows of a constraint: Phi (m,), Phi_q (m, n), nu (m,), gamma (m,), rate = Phi_q qdot (m,)."""

    phi: np.ndarray
    J: np.ndarray
    nu: np.ndarray
    gamma: np.ndarray
    rate: np.ndarray

    @staticmethod
    def stack(parts: list[Rows]) -> Rows:
        return Rows(*(np.concatenate([getattr(r, k) for r in parts])
                      for k in ("phi", "J", "nu", "gamma", "rate")))  # fmt: skip


def body_states(q, qdot, n_bodies: int) -> list[_Body]:
    """Per-body state from q, qdot of shape (nb, 7)."""
    q = np.asarray(q, dtype=float).reshape(n_bodies, 7)
    qd = np.asarray(qdot, dtype=float).reshape(n_bodies, 7)
    A = A_matrix(q[:, 3:])
    G = G_matrix(q[:, 3:])
    w = 2.0 * np.einsum("kij,kj->ki", E_matrix(q[:, 3:]), qd[:, 3:])  # omega = 2 E pdot
    return [_Body(7 * k, q[k, :3], A[k], G[k], w[k], qd[k, :3]) for k in range(n_bodies)]


_GROUND = _Body(None, np.zeros(3), np.eye(3), np.zeros((3, 4)), np.zeros(3), np.zeros(3))


def _cross(a, b) -> np.ndarray:
    """a x b of two 3-vectors (np.cross costs ten times more on single vectors)."""
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                     a[0] * b[1] - a[1] * b[0]])  # fmt: skip


def _vec(b: _Body, a_loc, n: int) -> _Vec:
    """Body-fixed vector a = A a' (eq. 3 without r)."""
    a_loc = np.asarray(a_loc, dtype=float)
    v = b.A @ a_loc
    J = np.zeros((3, n))
    if b.col is not None:
        J[:, b.col + 3 : b.col + 7] = -2.0 * b.A @ skew(a_loc) @ b.G  # Table 1, eq. (39)
    wv = _cross(b.w, v)
    return _Vec(v, J, wv, _cross(b.w, wv))


def _point(b: _Body, s_loc, n: int) -> _Vec:
    """Point P = r + A s' (eq. 3)."""
    s = _vec(b, s_loc, n)
    if b.col is not None:
        s.J[:, b.col : b.col + 3] = np.eye(3)
    return _Vec(b.r + s.v, s.J, b.rdot + s.d, s.a)


def _dot(u: _Vec, v: _Vec, c: float = 0.0) -> Rows:
    """u^T v - c with its Jacobian, rate and gamma = -(u_a v + 2 u_d v_d + u v_a)."""
    return Rows(
        np.array([u.v @ v.v - c]),
        (u.v @ v.J + v.v @ u.J)[None, :],
        np.zeros(1),
        np.array([-(u.a @ v.v + 2.0 * u.d @ v.d + u.v @ v.a)]),
        np.array([u.d @ v.v + u.v @ v.d]),
    )


def _vector(d: _Vec) -> Rows:
    return Rows(d.v.copy(), d.J, np.zeros(3), -d.a, d.d.copy())


def _body(bodies: list[_Body], k: int | None) -> _Body:
    return _GROUND if k is None else bodies[k]


def _n(bodies: list[_Body]) -> int:
    return 7 * len(bodies)


# --- the basic constraints of sec. 2.2 (Table 1) ------------------------------------------------


def basic_d1(bodies, i, ai, j, aj) -> Rows:
    """Phi^d1(a_i, a_j) = a_i'^T A_i^T A_j a_j' (eqs. 6-7)."""
    n = _n(bodies)
    return _dot(_vec(_body(bodies, i), ai, n), _vec(_body(bodies, j), aj, n))


def _d(bodies, i, si, j, sj) -> _Vec:
    """d_ij = r_j + A_j s_j' - r_i - A_i s_i' (eq. 9)."""
    n = _n(bodies)
    return _point(_body(bodies, j), sj, n) - _point(_body(bodies, i), si, n)


def basic_d2(bodies, i, ai, si, j, sj) -> Rows:
    """Phi^d2(a_i, d_ij) = a_i^T d_ij (eq. 8)."""
    return _dot(_vec(_body(bodies, i), ai, _n(bodies)), _d(bodies, i, si, j, sj))


def basic_s(bodies, i, si, j, sj) -> Rows:
    """Phi^S(P_i, P_j) = d_ij = 0, three rows (eq. 10)."""
    return _vector(_d(bodies, i, si, j, sj))


def basic_ss(bodies, i, si, j, sj, c: float) -> Rows:
    """Phi^SS(P_i, P_j, C) = d_ij^T d_ij - C^2 (eq. 11), C != 0."""
    d = _d(bodies, i, si, j, sj)
    return _dot(d, d, c * c)


def basic_p1(bodies, i, fi, gi, j, hj) -> Rows:
    """Phi^p1(h_i, h_j) = [d1(f_i, h_j), d1(g_i, h_j)] (eq. 12)."""
    return Rows.stack([basic_d1(bodies, i, fi, j, hj), basic_d1(bodies, i, gi, j, hj)])


def basic_p2(bodies, i, fi, gi, si, j, sj) -> Rows:
    """Phi^p2(h_i, d_ij) = [d2(f_i, d_ij), d2(g_i, d_ij)] (eq. 13)."""
    return Rows.stack([basic_d2(bodies, i, fi, si, j, sj), basic_d2(bodies, i, gi, si, j, sj)])


def _abs_position(bodies, i, s, target, axes) -> Rows:
    """Phi^123 = r_i + A_i s' - r^0 (eq. 15a), the components ``axes``."""
    rows = _vector(_point(_body(bodies, i), s, _n(bodies)))
    rows.phi = rows.phi - np.asarray(target, dtype=float)
    ax = list(axes)
    return Rows(rows.phi[ax], rows.J[ax], rows.nu[ax], rows.gamma[ax], rows.rate[ax])


def _abs_orientation(bodies, i, e0, qdot_p) -> Rows:
    """Phi^456 = e_i - e^0 (eq. 15b). In p-form Phi_q = [0, I] on (e1, e2, e3), so gamma = 0
    (Table 1's -1/2 (~edot + e0dot I) omega' is the same row written for omega')."""
    b = bodies[i]
    n = _n(bodies)
    J = np.zeros((3, n))
    J[:, b.col + 4 : b.col + 7] = np.eye(3)
    p = np.asarray(qdot_p[0], dtype=float)
    return Rows(p[1:] - np.asarray(e0, dtype=float), J, np.zeros(3), np.zeros(3),
                np.asarray(qdot_p[1], dtype=float)[1:].copy())  # fmt: skip


def _rotation_driver(bodies, i, hi, fi, j, fj, theta0, rate, t) -> Rows:
    """Phi^rotd = theta + 2 n pi - C(t), C = theta0 + rate t (eqs. 22-27).

    theta = atan2(s, c), c = f_i^T f_j, s = g_i^T f_j (eq. 25); Phi_q = (c s_q - s c_q)/(c^2+s^2),
    exact also where h_j is not parallel to h_i (Table 1's row is its value when they are)."""
    gi = np.cross(hi, fi)  # g = ~h f (sec. 2.1)
    c = basic_d1(bodies, i, fi, j, fj)
    s = basic_d1(bodies, i, gi, j, fj)
    cv, sv = c.phi[0], s.phi[0]
    rho2 = cv * cv + sv * sv
    theta = np.arctan2(sv, cv)
    cd, sd = c.rate[0], s.rate[0]
    C = theta0 + rate * t
    phi = (theta - C + np.pi) % (2.0 * np.pi) - np.pi  # the 2 n pi of eq. (27)
    J = (cv * s.J - sv * c.J) / rho2
    thd = (cv * sd - sv * cd) / rho2
    gamma = (cv * s.gamma - sv * c.gamma) / rho2 + 2.0 * thd * (cv * cd + sv * sd) / rho2
    return Rows(np.array([phi]), J, np.array([rate]), gamma, np.array([thd]))


# --- joints (sec. 2.4 and 7.3) -------------------------------------------------------------------

#: type -> (number of rows, bodies it needs: 1 = one body, 2 = a pair, the second may be ground)
JOINT_TYPES: dict[str, int] = {
    "ABX": 1, "ABY": 1, "ABZ": 1, "ABA": 3, "G": 6,
    "S": 3, "R": 5, "C": 4, "T": 5, "U": 4, "RC": 3, "DI": 1, "RDRV": 1,
}  # fmt: skip
_SINGLE = {"ABX", "ABY", "ABZ", "ABA", "G"}


def _unit(v, what: str, name: str) -> np.ndarray:
    v = np.asarray(v, dtype=float)
    nv = np.linalg.norm(v)
    if not nv > 1e-12:
        raise CaseError(f"joint '{name}': {what} is a zero vector", field=name)
    return v / nv


def _frame(p, q, r, name: str, side: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Joint definition frame of sec. 2.1: h = Q - P, f = R - P (made normal to h), g = h x f."""
    h = _unit(np.subtract(q, p), f"h{side} = q{side} - p{side}", name)
    f = np.subtract(r, p)
    f = _unit(f - (f @ h) * h, f"f{side} = r{side} - p{side} (normal to h{side})", name)
    return f, np.cross(h, f), h


@dataclass(frozen=True)
class Joint:
    """A joint of Table 11 between ``bodies = (i, j)`` (0-based indices; j ``None``: the ground).

    Definition vectors as in sec. 7.3: p1, q1, r1 in body i's frame, p2, q2, r2 in body j's
    (``dist`` the scalar). ABX/ABY/ABZ: r_i[axis] = dist. G: r_i = p1, e_i = q1. ABA: e_i = q1.
    RDRV: axis q1 (a direction), reference vectors p1 on i and p2 on j, angle from p1 to p2
    C(t) = r1[0] + dist * t (constant rate, Table 26).
    """

    type: str
    bodies: tuple[int, int | None]
    p1: tuple = (0.0, 0.0, 0.0)
    q1: tuple = (0.0, 0.0, 0.0)
    r1: tuple = (0.0, 0.0, 0.0)
    p2: tuple = (0.0, 0.0, 0.0)
    q2: tuple = (0.0, 0.0, 0.0)
    r2: tuple = (0.0, 0.0, 0.0)
    dist: float = 0.0
    name: str = ""
    _geo: dict = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self):
        name = self.name or self.type
        if self.type not in JOINT_TYPES:
            raise CaseError(f"unknown joint type '{self.type}' (one of {sorted(JOINT_TYPES)})",
                            field=f"{name}.type")  # fmt: skip
        i, j = self.bodies
        if i is None:
            raise CaseError("the first body of a joint must be a body", field=f"{name}.bodies")
        if self.type in _SINGLE and j is not None:
            raise CaseError(f"a {self.type} constraint acts on one body", field=f"{name}.bodies")
        if j is not None and j == i:
            raise CaseError("a joint needs two different bodies", field=f"{name}.bodies")
        g = self._geo
        t = self.type
        if t in ("R", "C", "T"):
            g["fi"], g["gi"], g["hi"] = _frame(self.p1, self.q1, self.r1, name, "1")
            g["hj"] = _unit(np.subtract(self.q2, self.p2), "h2 = q2 - p2", name)
        if t == "T":
            g["fj"] = _frame(self.p2, self.q2, self.r2, name, "2")[0]
        if t == "U":
            g["hi"] = _unit(np.subtract(self.q1, self.p1), "h1 = q1 - p1", name)
            g["hj"] = _unit(np.subtract(self.q2, self.p2), "h2 = q2 - p2", name)
        if t == "RC":
            g["hi"] = _unit(np.subtract(self.q1, self.p1), "h1 = q1 - p1", name)
            g["fj"], g["gj"], g["hj"] = _frame(self.p2, self.q2, self.r2, name, "2")
        if t == "RDRV":
            h = _unit(self.q1, "the axis q1", name)
            f = np.asarray(self.p1, dtype=float)
            g["hi"], g["fi"] = h, _unit(f - (f @ h) * h, "p1 (normal to the axis q1)", name)
            g["fj"] = _unit(self.p2, "p2", name)
        if t == "DI" and not abs(self.dist) > 0:
            raise CaseError("a distance constraint needs dist != 0 (eq. 11)", field=f"{name}.dist")

    @property
    def n_rows(self) -> int:
        return JOINT_TYPES[self.type]

    def rows(self, bodies: list[_Body], t: float, q=None, qdot=None) -> Rows:
        """Phi, Phi_q, nu, gamma of this joint at time t (``q``, ``qdot``: (nb, 7), for ABA/G)."""
        i, j = self.bodies
        g = self._geo
        p1, p2 = self.p1, self.p2
        typ = self.type
        if typ in ("ABX", "ABY", "ABZ"):
            ax = "XYZ".index(typ[-1])
            target = np.zeros(3)
            target[ax] = self.dist
            return _abs_position(bodies, i, np.zeros(3), target, [ax])
        if typ in ("ABA", "G"):
            pi = (np.asarray(q)[i, 3:7], np.asarray(qdot)[i, 3:7])
            ori = _abs_orientation(bodies, i, self.q1, pi)
            if typ == "ABA":
                return ori
            return Rows.stack([_abs_position(bodies, i, np.zeros(3), self.p1, [0, 1, 2]), ori])
        if typ == "S":  # eq. (18)
            return basic_s(bodies, i, p1, j, p2)
        if typ == "R":  # eq. (19)
            return Rows.stack([basic_s(bodies, i, p1, j, p2),
                               basic_p1(bodies, i, g["fi"], g["gi"], j, g["hj"])])  # fmt: skip
        if typ == "C":  # p1(h_i, h_j), p2(h_i, d_ij): rotation and slide along h (Haug)
            return Rows.stack([basic_p1(bodies, i, g["fi"], g["gi"], j, g["hj"]),
                               basic_p2(bodies, i, g["fi"], g["gi"], p1, j, p2)])  # fmt: skip
        if typ == "T":  # eq. (21)
            return Rows.stack([basic_p1(bodies, i, g["fi"], g["gi"], j, g["hj"]),
                               basic_p2(bodies, i, g["fi"], g["gi"], p1, j, p2),
                               basic_d1(bodies, i, g["fi"], j, g["fj"])])  # fmt: skip
        if typ == "U":  # S at the cross centre + d1 of the two arms
            return Rows.stack([basic_s(bodies, i, p1, j, p2),
                               basic_d1(bodies, i, g["hi"], j, g["hj"])])  # fmt: skip
        if typ == "RC":  # eq. (20), d_ji parallel to h_j written in body j's frame (sec. 7.3.7)
            return Rows.stack([basic_d1(bodies, i, g["hi"], j, g["hj"]),
                               basic_p2(bodies, j, g["fj"], g["gj"], p2, i, p1)])  # fmt: skip
        if typ == "DI":  # eq. (17)
            return basic_ss(bodies, i, p1, j, p2, self.dist)
        # RDRV, eq. (27)
        return _rotation_driver(bodies, i, g["hi"], g["fi"], j, g["fj"], float(self.r1[0]),
                                float(self.dist), t)  # fmt: skip
