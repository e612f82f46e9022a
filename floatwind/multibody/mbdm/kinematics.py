"""Kinematic analysis of a fully driven MBDM system, Leble (seed 001) sec. 3.

Phi(q, t) = [Phi^K; Phi^D; Phi^p] = 0 (eq. 31) with its Jacobian (eq. 32): position by
Newton-Raphson (eq. 33), velocity Phi_q qdot = nu (eq. 34), acceleration Phi_q qddot = gamma
(eq. 35). The Jacobian must be square and of full rank; where it is not, a CaseError names the
joints whose rows are dependent (left null space of Phi_q from an SVD) or the missing drivers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from floatwind.errors import CaseError, SimulationError
from floatwind.multibody.mbdm.constraints import Joint, Rows, body_states
from floatwind.multibody.mbdm.coordinates import normalisation

__all__ = [
    "KinematicResult",
    "System",
    "kinematic_analysis",
    "solve_acceleration",
    "solve_position",
    "solve_velocity",
]

#: relative singular value below which the Jacobian is taken as rank deficient
RANK_TOL = 1e-9


@dataclass(frozen=True)
class System:
    """Bodies (names, in order) and joints (drivers included) of a constrained system."""

    bodies: tuple[str, ...]
    joints: tuple[Joint, ...]

    def __post_init__(self):
        object.__setattr__(self, "bodies", tuple(self.bodies))
        object.__setattr__(self, "joints", tuple(self.joints))
        nb = len(self.bodies)
        for k, jt in enumerate(self.joints):
            for b in jt.bodies:
                if b is not None and not 0 <= b < nb:
                    raise CaseError(f"joint '{self.joint_name(k)}' names body {b}, but there are "
                                    f"{nb} bodies", field=f"joints[{k}].bodies")  # fmt: skip

    @property
    def n_coordinates(self) -> int:
        return 7 * len(self.bodies)

    def joint_name(self, k: int) -> str:
        jt = self.joints[k]
        return jt.name or f"{jt.type} #{k + 1}"

    def row_owners(self) -> list[str]:
        """Who owns each row of Phi: a joint's name, or the normalisation of a body (eq. 28)."""
        out = []
        for k, jt in enumerate(self.joints):
            out += [self.joint_name(k)] * jt.n_rows
        out += [f"Euler-parameter normalisation of '{b}'" for b in self.bodies]
        return out

    def evaluate(self, q, qdot=None, t: float = 0.0) -> Rows:
        """Phi, Phi_q, nu, gamma and Phi_q qdot of eq. (31)-(35) at (q, qdot, t); q: (nb, 7)."""
        nb = len(self.bodies)
        q = np.asarray(q, dtype=float).reshape(nb, 7)
        qdot = np.zeros((nb, 7)) if qdot is None else np.asarray(qdot, float).reshape(nb, 7)
        bodies = body_states(q, qdot, nb)
        parts = [jt.rows(bodies, t, q, qdot) for jt in self.joints]
        n = 7 * nb
        Jp = np.zeros((nb, n))
        for k in range(nb):
            Jp[k, 7 * k + 3 : 7 * k + 7] = 2.0 * q[k, 3:]  # Table 1: Phi^p_p = 2 p^T
        pd = qdot[:, 3:]
        parts.append(Rows(normalisation(q[:, 3:]), Jp, np.zeros(nb),
                          -2.0 * np.sum(pd * pd, -1), 2.0 * np.sum(q[:, 3:] * pd, -1)))  # fmt: skip
        return Rows.stack(parts)

    def check_rank(self, J: np.ndarray) -> None:
        """CaseError unless Phi_q is square with full rank, naming redundant joints' rows."""
        m, n = J.shape
        owners = self.row_owners()
        U, sv, _ = np.linalg.svd(J)
        tol = RANK_TOL * max(sv[0] if sv.size else 1.0, 1.0)
        rank = int(np.sum(sv > tol))
        if rank < m:
            null = U[:, rank:]  # left null space: combinations of rows that vanish
            weight = np.sqrt(np.sum(null * null, axis=1))
            involved = [owners[r] for r in np.argsort(-weight) if weight[r] > 1e-6]
            names = list(dict.fromkeys(involved))
            raise CaseError(f"redundant constraints: the Jacobian has rank {rank} of {m} rows; "
                            f"dependent rows belong to joints {', '.join(repr(s) for s in names)}",
                            field="joints")  # fmt: skip
        if m < n:
            raise CaseError(f"{n - m} degrees of freedom are not driven: kinematic analysis needs "
                            f"{n} independent constraints and drivers, got {m}", field="joints")  # fmt: skip


@dataclass(frozen=True)
class KinematicResult:
    """Kinematic analysis: time (nt,), q, qdot, qddot (nt, nb, 7), Newton iterations (nt,)."""

    time: np.ndarray
    q: np.ndarray
    qdot: np.ndarray
    qddot: np.ndarray
    iterations: np.ndarray


def solve_position(system: System, q0, t: float = 0.0, *, tol: float = 1e-10,
                   max_iter: int = 50) -> tuple[np.ndarray, int]:  # fmt: skip
    """Newton-Raphson on Phi(q, t) = 0 from q0 (eq. 33); returns (q, iterations)."""
    nb = len(system.bodies)
    q = np.array(q0, dtype=float).reshape(nb, 7)
    for it in range(max_iter + 1):
        rows = system.evaluate(q, None, t)
        if it == 0:
            system.check_rank(rows.J)
        if np.max(np.abs(rows.phi)) < tol:
            return q, it
        dq = np.linalg.solve(rows.J, -rows.phi)
        q = q + dq.reshape(nb, 7)
    raise SimulationError(f"Newton-Raphson position solve (eq. 33) did not converge in {max_iter} "
                          f"iterations (|Phi| = {np.max(np.abs(rows.phi)):.3g})", time=t)  # fmt: skip


def solve_velocity(system: System, q, t: float = 0.0) -> np.ndarray:
    """qdot from Phi_q qdot = nu (eq. 34)."""
    rows = system.evaluate(q, None, t)
    return np.linalg.solve(rows.J, rows.nu).reshape(len(system.bodies), 7)


def solve_acceleration(system: System, q, qdot, t: float = 0.0) -> np.ndarray:
    """qddot from Phi_q qddot = gamma (eq. 35)."""
    rows = system.evaluate(q, qdot, t)
    return np.linalg.solve(rows.J, rows.gamma).reshape(len(system.bodies), 7)


def kinematic_analysis(system: System, q0, times, *, tol: float = 1e-10,
                       max_iter: int = 50) -> KinematicResult:  # fmt: skip
    """Position, velocity and acceleration at each time (sec. 3), each position solve started
    from the previous one (q0 only needs to be near the assembled configuration at times[0])."""
    times = np.asarray(times, dtype=float)
    nb = len(system.bodies)
    rows = system.evaluate(np.asarray(q0, float).reshape(nb, 7), None, float(times[0]))
    system.check_rank(rows.J)
    Q = np.zeros((times.size, nb, 7))
    Qd = np.zeros_like(Q)
    Qdd = np.zeros_like(Q)
    its = np.zeros(times.size, dtype=int)
    q = np.asarray(q0, dtype=float).reshape(nb, 7)
    k = 0
    try:
        for k, t in enumerate(times):
            if k >= 1:  # quadratic extrapolation: a better start for Newton
                q = (
                    Q[k - 1]
                    + Qd[k - 1] * (t - times[k - 1])
                    + 0.5 * Qdd[k - 1] * (t - times[k - 1]) ** 2
                )
            q, its[k] = solve_position(system, q, float(t), tol=tol, max_iter=max_iter)
            Q[k] = q
            Qd[k] = solve_velocity(system, q, float(t))
            Qdd[k] = solve_acceleration(system, q, Qd[k], float(t))
    except (SimulationError, KeyboardInterrupt) as exc:
        # the times solved before the failure or Ctrl-C, as the dynamic analysis keeps them
        done = KinematicResult(times[:k], Q[:k], Qd[:k], Qdd[:k], its[:k])
        if isinstance(exc, KeyboardInterrupt):
            from floatwind.integrate.base import Interrupted

            err = Interrupted("interrupted by the user", time=float(times[k]))
            err.result = done
            raise err from None
        exc.result = done
        raise
    return KinematicResult(times, Q, Qd, Qdd, its)
