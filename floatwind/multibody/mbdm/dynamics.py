"""Dynamic analysis of an MBDM system, Leble (seed 001) sec. 4-6.

Accelerations come from the Euler-parameter form (69) of the constrained equations of motion,

    [ M          0          Phi_r^T ] [ rddot  ]   [ F^A                               ]
    [ 0     4 G^T J' G      Phi_p^T ] [ pddot  ] = [ 2 G^T n'^A + 8 Gdot^T J' Gdot p    ]
    [ Phi_r      Phi_p      0       ] [ lambda ]   [ gamma                             ]

with the normalisation rows (28) inside Phi (they give Phi_p^P and gamma^P), or from the
angular-velocity form (67) (``form="omega"``: unknowns rddot, omegadot', lambda, normalisation
rows left out, pddot from eq. 40). Time integration is classical RK4, either

* ``method="partitioning"`` (sec. 5): at every step the Jacobian is reduced by Gaussian
  elimination with full pivoting; the first m pivot columns are the dependent coordinates u, the
  rest the independent v (re-partitioned at each step, as MBDM does). RK4 integrates
  y = [v, vdot] (eq. 70); each evaluation solves Phi(u, v, t) = 0 for u by Newton-Raphson (72),
  Phi_u udot = nu - Phi_v vdot for udot (71b) and eq. (69) for the accelerations; or
* ``method="baumgarte"``: RK4 on [q, qdot] with the acceleration right-hand side
  gamma - 2 alpha Phidot - beta^2 Phi (augmented index-1 form with Baumgarte stabilisation).

Both run on the common stepping driver (``floatwind.integrate.base.RK4``); optional
``switches`` (the driver's ``events``) split an RK4 step where an applied force has a kink or
switches on/off (e.g. the gas force (94)), so the fixed-step integrator keeps its fourth order.

Applied loads: gravity (any direction), spring-damper lines (sec. 6, ``lines``), force elements
with a compiled form (``forces``: ``BodyLoad``, ``CoordinateForce`` subclasses such as the
slider-crank's gas force (94) of ``validation/mbdm/forces.py``; ``RotationalSpringDamper``
between two bodies, NumPy path only), floatwind Load objects through
the Load contract (``floatwind_loads``, NumPy path: a Kinematics record from r, A(p), rdot and
omega; the Wrench enters F^A and n'^A = A^T n of eqs. 67/69) and a callable
``applied(t, q, qdot) -> (F (nb, 3) global forces at the centres of mass, n (nb, 3) global
moments)``. The drift |Phi| and |Phi_q qdot - nu| is returned at every output time.

``compiled=True`` (Baumgarte, eq. 67) runs the whole integration in the numba kernels of
:mod:`floatwind._kernels.mbdm`; :func:`dynamic_analysis_batch` runs B variants in one call
(batch axis first; a member gives the same bits as the same run alone). The NumPy code here is
the reference.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from floatwind.errors import CaseError, SimulationError
from floatwind.integrate.base import RK4
from floatwind.multibody.mbdm.compiled import run as compiled_run
from floatwind.multibody.mbdm.compiled import why_not_compiled
from floatwind.multibody.mbdm.coordinates import A_matrix, G_matrix, omega_body
from floatwind.multibody.mbdm.forces import contract_loads
from floatwind.multibody.mbdm.kinematics import System
from floatwind.multibody.mbdm.lines import line_loads

__all__ = [
    "BatchDynamicResult",
    "DynamicResult",
    "DynamicSystem",
    "accelerations",
    "assemble",
    "dynamic_analysis",
    "dynamic_analysis_batch",
    "energy",
    "partition",
]


@dataclass(frozen=True)
class DynamicSystem:
    """A constrained system with masses (nb,), centroidal inertia J' (nb, 3, 3), gravity (3,)
    (global, m/s^2), spring-damper lines and optional applied loads: ``forces`` (elements of
    :mod:`~floatwind.multibody.mbdm.forces`, compiled too), ``floatwind_loads`` (Load objects,
    evaluated with ``env``; ``cm_b`` (nb, 3) the CMs in the frames of the loads' points) and the
    ``applied`` callable."""

    system: System
    mass: np.ndarray
    inertia: np.ndarray
    gravity: tuple = (0.0, 0.0, -9.81)
    lines: tuple = ()
    applied: Callable | None = None
    #: applied-force elements (``forces.BodyLoad``, ``forces.CoordinateForce``: compiled too;
    #: ``forces.RotationalSpringDamper``: NumPy path)
    forces: tuple = ()
    #: floatwind Load objects (``wrench(t, kin, env)``, NumPy path), evaluated with ``env``
    floatwind_loads: tuple = ()
    env: object = None
    #: (nb, 3) where each CM sits in the frame in which the Load objects give their points
    cm_b: np.ndarray | None = None

    def __post_init__(self):
        nb = len(self.system.bodies)
        m = np.asarray(self.mass, dtype=float).reshape(-1)
        J = np.asarray(self.inertia, dtype=float).reshape(-1, 3, 3)
        if m.shape != (nb,) or J.shape != (nb, 3, 3):
            raise CaseError(f"{nb} bodies need {nb} masses and {nb} inertia matrices",
                            field="bodies")  # fmt: skip
        if np.any(m <= 0):
            raise CaseError("every body mass must be > 0", field="bodies.mass")
        for k in range(nb):
            if not np.allclose(J[k], J[k].T) or np.linalg.eigvalsh(J[k])[0] <= 0:
                raise CaseError("inertia must be symmetric positive definite",
                                field=f"bodies[{k}].inertia")  # fmt: skip
        object.__setattr__(self, "mass", m)
        object.__setattr__(self, "inertia", J)
        object.__setattr__(self, "lines", tuple(self.lines))
        object.__setattr__(self, "forces", tuple(self.forces))
        object.__setattr__(self, "floatwind_loads", tuple(self.floatwind_loads))
        if self.cm_b is not None:
            object.__setattr__(self, "cm_b", np.asarray(self.cm_b, dtype=float).reshape(nb, 3))
        for fe in self.forces:
            for b in getattr(fe, "bodies", (fe.body,)):  # RotationalSpringDamper: two bodies
                if not 0 <= b < nb:
                    raise CaseError(f"force element names body {b}, but there are {nb} bodies",
                                    field=getattr(fe, "name", "") or "forces")  # fmt: skip
        for ln in self.lines:
            if not 0 <= ln.body < nb:
                raise CaseError(f"line names body {ln.body}, but there are {nb} bodies",
                                field=ln.name or "lines")  # fmt: skip

    @property
    def nb(self) -> int:
        return len(self.system.bodies)

    def loads(self, t, q, qdot) -> tuple[np.ndarray, np.ndarray]:
        """F^A (nb, 3, global) and n'^A (nb, 3, body frames)."""
        F = self.mass[:, None] * np.asarray(self.gravity, dtype=float)[None, :]
        A = A_matrix(q[:, 3:])
        n_body = np.zeros((self.nb, 3))
        if self.lines:
            Fl, nl, _ = line_loads(self.lines, q, qdot)  # eq. (88)
            F = F + Fl
            n_body = n_body + nl
        parts = [fe.evaluate(t, q, qdot) for fe in self.forces]
        if self.applied is not None:
            parts.append(self.applied(t, q, qdot))
        if self.floatwind_loads:  # the Load contract: global force at the CM, global moment
            parts.append(contract_loads(self.floatwind_loads, self.env, t, q, qdot, self.cm_b))
        for Fa, na in parts:
            F = F + np.asarray(Fa, dtype=float)
            n_body = n_body + np.einsum("kji,kj->ki", A, np.asarray(na, dtype=float))  # A^T n
        return F, n_body

    def force_switches(self, t, q, qdot) -> list:
        """Switch functions of the force elements (where an applied force kinks or jumps)."""
        return [v for fe in self.forces for v in fe.switches(t, q, qdot)]


def accelerations(dsys: DynamicSystem, q, qdot, t: float, *, form: str = "p",
                  rows=None, gamma_shift=None) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """qddot (nb, 7) and the multipliers lambda from eq. (69) (``form="p"``) or eq. (67)
    (``form="omega"``, pddot by eq. 40). ``gamma_shift`` is added to gamma (stabilisation)."""
    nb = dsys.nb
    q = np.asarray(q, dtype=float).reshape(nb, 7)
    qdot = np.asarray(qdot, dtype=float).reshape(nb, 7)
    rows = dsys.system.evaluate(q, qdot, t) if rows is None else rows
    gamma = rows.gamma if gamma_shift is None else rows.gamma + gamma_shift
    F, n_b = dsys.loads(t, q, qdot)
    n = 7 * nb
    J = rows.J
    m = J.shape[0]
    G = G_matrix(q[:, 3:])
    if form == "p":
        Gd = G_matrix(qdot[:, 3:])  # Gdot = G(pdot), G is linear in p
        Mq = np.zeros((n, n))
        Q = np.zeros(n)
        for k in range(nb):
            c = 7 * k
            Mq[c : c + 3, c : c + 3] = dsys.mass[k] * np.eye(3)
            Mq[c + 3 : c + 7, c + 3 : c + 7] = 4.0 * G[k].T @ dsys.inertia[k] @ G[k]  # eq. (69)
            Q[c : c + 3] = F[k]
            Q[c + 3 : c + 7] = (2.0 * G[k].T @ n_b[k]
                                + 8.0 * Gd[k].T @ dsys.inertia[k] @ Gd[k] @ q[k, 3:])  # fmt: skip
        K = np.zeros((n + m, n + m))
        K[:n, :n] = Mq
        K[:n, n:] = J.T
        K[n:, :n] = J
        sol = _solve(K, np.concatenate([Q, gamma]), t)
        return sol[:n].reshape(nb, 7), sol[n:]
    if form != "omega":
        raise ValueError(f"form must be 'p' or 'omega', not {form!r}")
    # eq. (67): Phi_pi' = 1/2 Phi_p G^T (delta p = 1/2 G^T delta pi'); normalisation rows dropped
    mj = m - nb
    w = omega_body(q[:, 3:], qdot[:, 3:])
    Jr = np.zeros((mj, 6 * nb))
    g2 = gamma[:mj].copy()
    for k in range(nb):
        c = 7 * k
        Jr[:, 6 * k : 6 * k + 3] = J[:mj, c : c + 3]
        Jp = J[:mj, c + 3 : c + 7]
        Jr[:, 6 * k + 3 : 6 * k + 6] = 0.5 * Jp @ G[k].T
        g2 += 0.25 * (w[k] @ w[k]) * (Jp @ q[k, 3:])  # pddot = 1/2 G^T wdot' - 1/4 |w'|^2 p
    K = np.zeros((6 * nb + mj, 6 * nb + mj))
    rhs = np.zeros(6 * nb + mj)
    for k in range(nb):
        a = 6 * k
        K[a : a + 3, a : a + 3] = dsys.mass[k] * np.eye(3)
        K[a + 3 : a + 6, a + 3 : a + 6] = dsys.inertia[k]
        rhs[a : a + 3] = F[k]
        rhs[a + 3 : a + 6] = n_b[k] - np.cross(w[k], dsys.inertia[k] @ w[k])  # eq. (67)
    K[: 6 * nb, 6 * nb :] = Jr.T
    K[6 * nb :, : 6 * nb] = Jr
    rhs[6 * nb :] = g2
    sol = _solve(K, rhs, t)
    qdd = np.zeros((nb, 7))
    for k in range(nb):
        qdd[k, :3] = sol[6 * k : 6 * k + 3]
        wd = sol[6 * k + 3 : 6 * k + 6]
        qdd[k, 3:] = 0.5 * G[k].T @ wd - 0.25 * (w[k] @ w[k]) * q[k, 3:]  # eq. (40)
    return qdd, sol[6 * nb :]


def _solve(K, rhs, t):
    try:
        return np.linalg.solve(K, rhs)
    except np.linalg.LinAlgError:
        raise SimulationError("the equations of motion (67)/(69) are singular (redundant "
                              "constraints or a body without inertia)", time=t) from None  # fmt: skip


def partition(J, tol: float = 1e-10) -> tuple[np.ndarray, np.ndarray]:
    """Dependent (u) and independent (v) columns of the m x n Jacobian by Gaussian elimination
    with full pivoting to row-reduced echelon form (sec. 5, 5.1): the m pivot columns are u."""
    A = np.array(J, dtype=float)
    m, n = A.shape
    cols = np.arange(n)
    scale = max(np.max(np.abs(A)), 1.0)
    for k in range(m):
        sub = np.abs(A[k:, k:])
        i, j = np.unravel_index(np.argmax(sub), sub.shape)
        if sub[i, j] <= tol * scale:
            raise CaseError(f"redundant constraints: the Jacobian has rank {k} of {m} rows "
                            "(coordinate partitioning, sec. 5)", field="joints")  # fmt: skip
        i += k
        j += k
        A[[k, i]] = A[[i, k]]
        A[:, [k, j]] = A[:, [j, k]]
        cols[[k, j]] = cols[[j, k]]
        A[k + 1 :] -= np.outer(A[k + 1 :, k] / A[k, k], A[k])
    return np.sort(cols[:m]), np.sort(cols[m:])


def assemble(system: System, q0, qdot0=None, t: float = 0.0, *, tol: float = 1e-12,
             max_iter: int = 50) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Initial conditions consistent with Phi = 0 and Phi_q qdot = nu: minimum-norm Newton steps
    from q0 (the MBDM 'assembly' of sec. 10.3), then the least-squares correction of qdot0."""
    nb = len(system.bodies)
    q = np.array(q0, dtype=float).reshape(nb, 7)
    for _ in range(max_iter):
        rows = system.evaluate(q, None, t)
        if np.max(np.abs(rows.phi)) < tol:
            break
        q = q + np.linalg.lstsq(rows.J, -rows.phi, rcond=None)[0].reshape(nb, 7)
    else:
        raise SimulationError("assembly (Newton on eq. 31) did not converge", time=t)
    qd = np.zeros((nb, 7)) if qdot0 is None else np.array(qdot0, dtype=float).reshape(nb, 7)
    rows = system.evaluate(q, qd, t)
    qd = qd + np.linalg.lstsq(rows.J, rows.nu - rows.rate, rcond=None)[0].reshape(nb, 7)
    return q, qd


@dataclass(frozen=True)
class DynamicResult:
    """time (nt,), q, qdot, qddot (nt, nb, 7), drift: position |Phi|_inf and velocity
    |Phi_q qdot - nu|_inf (nt,), and (partitioning) the independent coordinates (nt, k)."""

    time: np.ndarray
    q: np.ndarray
    qdot: np.ndarray
    qddot: np.ndarray
    drift_position: np.ndarray
    drift_velocity: np.ndarray
    independent: np.ndarray | None = None


def energy(dsys: DynamicSystem, q, qdot) -> tuple[np.ndarray, np.ndarray]:
    """Kinetic energy 1/2 m rdot^2 + 1/2 w'^T J' w' and gravity potential -m g^T r, summed over
    bodies; q, qdot: (..., nb, 7)."""
    q = np.asarray(q, dtype=float)
    qdot = np.asarray(qdot, dtype=float)
    w = omega_body(q[..., 3:], qdot[..., 3:])
    kin = 0.5 * np.sum(dsys.mass * np.sum(qdot[..., :3] ** 2, -1), -1) + 0.5 * np.sum(
        np.einsum("...i,...ij,...j->...", w, dsys.inertia, w), -1
    )
    pot = -np.sum(dsys.mass * (q[..., :3] @ np.asarray(dsys.gravity, dtype=float)), -1)
    return kin, pot


def _newton_dependent(system, q, u, t, tol, max_iter):
    """Phi(u, v, t) = 0 for the dependent coordinates u, v fixed (eq. 72)."""
    nb = len(system.bodies)
    flat = q.reshape(-1)
    for _ in range(max_iter):
        rows = system.evaluate(flat.reshape(nb, 7), None, t)
        if np.max(np.abs(rows.phi)) < tol:
            return flat.reshape(nb, 7), rows
        flat[u] -= np.linalg.solve(rows.J[:, u], rows.phi)
    raise SimulationError(f"Newton-Raphson on the dependent coordinates (eq. 72) did not converge "
                          f"(|Phi| = {np.max(np.abs(rows.phi)):.3g})", time=t)  # fmt: skip


def dynamic_analysis(dsys: DynamicSystem, q0, qdot0, t_end: float, dt: float, *,
                     method: str = "partitioning", form: str = "p", save_every: int = 1,
                     tol: float = 1e-12, max_iter: int = 50, alpha: float = 10.0,
                     beta: float = 10.0, t_start: float = 0.0,
                     switches: Callable | None = None,
                     compiled: bool = False) -> DynamicResult:  # fmt: skip
    """Integrate from consistent (q0, qdot0) (see :func:`assemble`) with RK4 and step ``dt``,
    on the common stepping driver (:meth:`floatwind.integrate.base.FixedStepIntegrator.run` of
    :class:`~floatwind.integrate.base.RK4`; partitioning through its ``project`` hook: DIFEQN of
    the accepted state and the re-partition for the next step).

    ``switches(t, q, qdot) -> array``: where an applied force is not smooth
    (a kink or an on/off switch), the step is split at the time where an entry changes sign
    (the driver's ``events``: regula falsi on the RK4 step length), so RK4 keeps its order. The
    switches of the force elements (``dsys.forces``, e.g.
    :class:`~floatwind.multibody.mbdm.forces.CoordinateForce`) are added to them.

    ``compiled=True``: the numba kernels (:mod:`floatwind._kernels.mbdm`) run the whole
    integration (``method="baumgarte"``, ``form="omega"``, forces as lines, gravity and the
    elements of :mod:`~floatwind.multibody.mbdm.forces`); a model they cannot run is refused in
    one line naming the reason. The NumPy path stays the reference (same numbers to ~1e-12)."""
    nb = dsys.nb
    n = 7 * nb
    n_steps = _check_steps(t_start, t_end, dt, method)
    if compiled:
        res = dynamic_analysis_batch([dsys], np.asarray(q0, dtype=float)[None],
                                     np.asarray(qdot0, dtype=float)[None], t_end, dt,
                                     method=method, form=form, save_every=save_every,
                                     alpha=alpha, beta=beta, t_start=t_start, switches=switches,
                                     compiled=True)  # fmt: skip
        return res.member(0)
    if dsys.forces and any(fe.switches(t_start, np.array(q0, dtype=float).reshape(nb, 7),
                                       np.array(qdot0, dtype=float).reshape(nb, 7))
                           for fe in dsys.forces):  # fmt: skip
        user = switches

        def switches(t, q, qd):
            own = [] if user is None else list(np.atleast_1d(user(t, q, qd)))
            return own + dsys.force_switches(t, q, qd)

    q = np.array(q0, dtype=float).reshape(nb, 7)
    qd = np.array(qdot0, dtype=float).reshape(nb, 7)

    def sw_q(ta, qq, qqd):
        return np.atleast_1d(np.asarray(switches(ta, qq, qqd), dtype=float))

    if method == "baumgarte":
        stepper = _Baumgarte(dsys, form, alpha, beta)
        events = None if switches is None else (
            lambda t, x: sw_q(t, x[0, :n].reshape(nb, 7), x[0, n:].reshape(nb, 7)))  # fmt: skip
        project = None
    else:
        stepper = _Partitioning(dsys, form, tol, max_iter, t_start, q, qd)
        events = None if switches is None else (lambda t, x: sw_q(t, *stepper.states(t, x)))
        project = stepper.project
    steps = list(range(0, n_steps + 1, save_every))
    if steps[-1] != n_steps:
        steps.append(n_steps)
    t_out = np.array([t_start + k * dt for k in steps])
    x0 = np.concatenate([q.reshape(-1), qd.reshape(-1)])[None]
    try:
        rec = RK4(dt).run(stepper, x0, t_out, events=events, project=project)
    except SimulationError as err:  # divergence or Ctrl-C: the outputs of what was recorded
        rec = getattr(err, "partial", None)
        if rec is not None and rec.n > 0:
            err.result = _outputs(dsys, form, rec.t[: rec.n], rec.y[: rec.n], stepper, method,
                                  steps[: rec.n])  # fmt: skip
        raise
    return _outputs(dsys, form, t_out, rec.y, stepper, method, steps)


def _outputs(dsys, form, t_out, y, stepper, method, steps) -> DynamicResult:
    """The :class:`DynamicResult` of the states ``y`` (T, 1, 14 nb) recorded at ``t_out``."""
    system = dsys.system
    nb = dsys.nb
    n = 7 * nb
    out_q, out_qd, out_qdd, dp, dv = [], [], [], [], []
    for t, x in zip(t_out.tolist(), y[:, 0]):  # the outputs, from the recorded states
        qq, qqd = x[:n].reshape(nb, 7), x[n:].reshape(nb, 7)
        rows = system.evaluate(qq, qqd, t)
        out_q.append(qq)
        out_qd.append(qqd)
        out_qdd.append(accelerations(dsys, qq, qqd, t, form=form, rows=rows)[0])
        dp.append(np.max(np.abs(rows.phi)) if rows.phi.size else 0.0)
        dv.append(np.max(np.abs(rows.rate - rows.nu)) if rows.phi.size else 0.0)
    ind = None
    if method == "partitioning":
        ind = np.array([stepper.independent[k] for k in steps])
    return DynamicResult(t_out, np.array(out_q), np.array(out_qd), np.array(out_qdd),
                         np.array(dp), np.array(dv), ind)  # fmt: skip


class _Baumgarte:
    """Right-hand side of the Baumgarte form for :class:`~floatwind.integrate.base.RK4`:
    x = [q, qdot] (1, 14 nb), gamma - 2 alpha (Phi_q qdot - nu) - beta^2 Phi."""

    def __init__(self, dsys, form, alpha, beta):
        self.dsys, self.form, self.alpha, self.beta = dsys, form, alpha, beta

    def __call__(self, t, x):
        dsys = self.dsys
        nb = dsys.nb
        n = 7 * nb
        qq, qqd = x[0, :n].reshape(nb, 7), x[0, n:].reshape(nb, 7)
        rows = dsys.system.evaluate(qq, qqd, t)
        shift = -2.0 * self.alpha * (rows.rate - rows.nu) - self.beta**2 * rows.phi
        qdd = accelerations(dsys, qq, qqd, t, form=self.form, rows=rows, gamma_shift=shift)[0]
        return np.concatenate([x[0, n:], qdd.reshape(-1)])[None]


class _Partitioning:
    """Coordinate partitioning (sec. 5) on the common RK4 driver: the state is x = [q, qdot]
    (1, 14 nb), but only its independent entries v (and their rates) are integrated: each
    evaluation is DIFEQN (C.1-C.6): u from Phi(u, v, t) = 0 by Newton-Raphson (eq. 72) started
    from the step's quadratic prediction, udot from eq. (71b), the accelerations from eq. (69) /
    (67). :meth:`project` (the driver's ``project`` hook) replaces each accepted state by DIFEQN
    of its v part and re-partitions the Jacobian there for the next step (as MBDM does, every
    step); ``independent[k]`` are the independent coordinates of step k."""

    def __init__(self, dsys, form, tol, max_iter, t0, q, qd):
        self.dsys, self.form, self.tol, self.max_iter = dsys, form, tol, max_iter
        self._start(t0, q, qd, dsys.system.evaluate(q, None, t0).J)
        self.independent = [self.v]  # at t0: the first step's

    def _start(self, t0, q, qd, J):
        """A step from (t0, q, qd): partition ``J`` (sec. 5.1), base state, predictor reset."""
        self.u, self.v = partition(J)
        self.t0 = t0
        self.qbase = q.reshape(-1).copy()
        self.qdbase = qd.reshape(-1).copy()
        self.pred = np.zeros(self.qbase.size)  # acceleration at the step's start, from k1

    def _difeqn(self, tt, x, acc=True):
        """DIFEQN of sec. 5 (C.1-C.6) on the v part of x; ``acc=False``: q and qdot only."""
        dsys, u, v = self.dsys, self.u, self.v
        nb = dsys.nb
        n = 7 * nb
        y = np.concatenate([x[0, :n][v], x[0, n:][v]])
        k = v.size
        tau = tt - self.t0  # quadratic predictor for the Newton start
        qq = self.qbase + self.qdbase * tau + 0.5 * self.pred * tau * tau
        qq[v] = y[:k]
        qq, rows = _newton_dependent(dsys.system, qq, u, tt, self.tol, self.max_iter)  # (71a)
        qqd = np.zeros(n)
        qqd[v] = y[k:]
        qqd[u] = np.linalg.solve(rows.J[:, u], rows.nu - rows.J[:, v] @ y[k:])  # eq. (71b)
        qqd = qqd.reshape(nb, 7)
        if not acc:
            return None, qq, qqd, rows.J
        qdd = accelerations(dsys, qq, qqd, tt, form=self.form)[0].reshape(-1)
        if tau == 0.0:
            self.pred = qdd
        return qdd, qq, qqd, rows.J

    def __call__(self, t, x):
        """[qdot, qddot] of DIFEQN: on v, the stage's vdot and eq. (69)/(67) (what RK4 on
        y = [v, vdot] of eq. 70 integrates); on u, DIFEQN's udot and uddot (their RK4 sums are
        not used: :meth:`project` replaces u and udot)."""
        qdd, _, qqd, _ = self._difeqn(t, x)
        return np.concatenate([qqd.reshape(-1), qdd])[None]

    def states(self, t, x):
        """q, qdot (nb, 7) of DIFEQN (C.1-C.3) at (t, x)."""
        return self._difeqn(t, x, acc=False)[1:3]

    def project(self, t, x):
        """The accepted state: DIFEQN of its v part; then the next step's partition."""
        _, q, qd, J = self._difeqn(t, x, acc=False)
        self.independent.append(self.v)  # the partition this step used
        self._start(t, q, qd, J)
        return np.concatenate([q.reshape(-1), qd.reshape(-1)])[None]


def _check_steps(t_start, t_end, dt, method) -> int:
    n_steps = int(round((t_end - t_start) / dt))
    if n_steps < 1 or not np.isclose(n_steps * dt, t_end - t_start, rtol=1e-9, atol=0):
        raise CaseError("t_end - t_start must be a positive multiple of dt", field="dt")
    if method not in ("partitioning", "baumgarte"):
        raise CaseError(f"method must be 'partitioning' or 'baumgarte', not {method!r}",
                        field="method")  # fmt: skip
    return n_steps


@dataclass(frozen=True)
class BatchDynamicResult:
    """A batch run, batch axis first: time (nt,), q, qdot, qddot (B, nt, nb, 7), drift_position
    and drift_velocity (B, nt)."""

    time: np.ndarray
    q: np.ndarray
    qdot: np.ndarray
    qddot: np.ndarray
    drift_position: np.ndarray
    drift_velocity: np.ndarray

    @property
    def batch(self) -> int:
        return self.q.shape[0]

    def member(self, b: int) -> DynamicResult:
        """Member ``b`` as a :class:`DynamicResult`."""
        return DynamicResult(self.time, self.q[b], self.qdot[b], self.qddot[b],
                             self.drift_position[b], self.drift_velocity[b])  # fmt: skip


def dynamic_analysis_batch(dsystems, q0, qdot0, t_end: float, dt: float, *,
                           method: str = "baumgarte", form: str = "omega", save_every: int = 1,
                           alpha: float = 10.0, beta: float = 10.0, t_start: float = 0.0,
                           switches: Callable | None = None,
                           compiled: bool = True) -> BatchDynamicResult:  # fmt: skip
    """B variants of one constrained system in lockstep (batch axis first): ``dsystems`` a list
    of B :class:`DynamicSystem` with the same ``System`` (joints) and the same kinds of loads
    (their numbers — masses, inertia, gravity, line stiffness, loads — may differ), ``q0``,
    ``qdot0`` (B, nb, 7). One kernel call advances every member; a member gives the same bits
    as the same run alone. ``compiled=False`` runs the members one by one on the NumPy path (the
    reference)."""
    dsystems = list(dsystems)
    if not dsystems:
        raise CaseError("a batch needs at least one member", field="batch")
    first = dsystems[0]
    nb = first.nb
    B = len(dsystems)
    if any(d.nb != nb for d in dsystems):
        raise CaseError("the members of a batch must have the same bodies", field="batch")
    q0 = np.asarray(q0, dtype=float).reshape(B, nb, 7)
    qdot0 = np.asarray(qdot0, dtype=float).reshape(B, nb, 7)
    n_steps = _check_steps(t_start, t_end, dt, method)
    if not compiled:
        runs = [dynamic_analysis(d, q0[b], qdot0[b], t_end, dt, method=method, form=form,
                                 save_every=save_every, alpha=alpha, beta=beta, t_start=t_start,
                                 switches=switches) for b, d in enumerate(dsystems)]  # fmt: skip
        return BatchDynamicResult(runs[0].time, *(np.stack([getattr(r, k) for r in runs])
                                                  for k in ("q", "qdot", "qddot", "drift_position",
                                                            "drift_velocity")))  # fmt: skip
    for d in dsystems:
        why = why_not_compiled(d, method, form, switches)
        if why is not None:
            raise CaseError(f"compiled=True: {why}", field="compiled")
    x0 = np.concatenate([q0.reshape(B, -1), qdot0.reshape(B, -1)], axis=1)
    x, a, dp, dv = compiled_run(dsystems, x0, t_start, dt, n_steps, save_every, alpha, beta)
    steps = list(range(0, n_steps + 1, save_every))
    if steps[-1] != n_steps:
        steps.append(n_steps)
    time = np.array([t_start + k * dt for k in steps])
    n = 7 * nb
    return BatchDynamicResult(time, x[:, :, :n].reshape(B, -1, nb, 7),
                              x[:, :, n:].reshape(B, -1, nb, 7), a.reshape(B, -1, nb, 7), dp, dv)  # fmt: skip
