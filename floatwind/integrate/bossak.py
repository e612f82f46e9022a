"""Bossak-Newmark (alpha-modified Newmark) integration of second-order systems, SeaFEM (seed 002).

Equation numbers: the chapter's displayed equations carry no numbers; we number them (7-1) ..
(7-23) in the order they appear (the chapter's own reference "equation (7-6)" is Euler's
equation, the sixth), see ``docs/bossak.md``.

The system is a second-order one written in first-order form, ``y = [x, v]`` (B, 2 m) with
``fun(t, y) = [v, g(t, x, v)]`` and ``g = M^-1 (F - K x - ...)`` the acceleration (7-1). A step
solves the Bossak equation (7-2)

    (1 - alpha) a_{n+1} + alpha a_n = g(t_{n+1}, x_{n+1}, v_{n+1})

with the Newmark updates (7-3)-(7-4), written here with beta and Gamma weighting the *new*
acceleration (the form of the chapter's body-links section, (7-11) and (7-17)-(7-18)):

    x_{n+1} = x_n + h v_n + h^2 [(1/2 - beta) a_n + beta a_{n+1}]
    v_{n+1} = v_n + h [(1 - Gamma) a_n + Gamma a_{n+1}]

(read literally, (7-3)-(7-4) put (1 - Gamma) = 1/2 + alpha on the new acceleration, which for
alpha < 0 amplifies: spectral radius above one; :func:`amplification_matrix` with
``literal=True`` shows it). ``a_n`` is the *algorithmic* acceleration, which differs from
``g(t_n, ...)`` when alpha != 0, so the integrator carries it from step to step.

Two ways to solve (7-2) for a_{n+1}:

* **loads loop** (any ``fun``): fixed-point iteration a <- (g(x(a), v(a)) - alpha a_n) / (1 -
  alpha), the loads re-evaluated at each iterate, with Aitken relaxation (Irons-Tuck form) of
  the iterate, per batch member; counts in :attr:`BossakNewmark.stats`;
* **direct** (a ``fun`` that offers ``bossak_linear``: the constant mass-normalised stiffness
  and damping K~ = M^-1 K, C~ = M^-1 C of a linear system, (7-1)): one evaluation at the
  predictor and one solve [(1 - alpha) I + beta h^2 K~ + Gamma h C~] a = g(pred) - alpha a_n.

The integrator honours the :class:`~floatwind.integrate.base.FixedStepIntegrator` contract (the
one stepping driver records, checks, keeps the partial record and turns Ctrl-C into
``Interrupted``). Batch first; each member iterates on its own (a converged member is frozen),
so a member of a batch gives the same bits as the same run alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from floatwind.errors import SimulationError
from floatwind.integrate.base import FixedStepIntegrator

__all__ = [
    "BETA_RULES",
    "BossakNewmark",
    "BossakParameters",
    "amplification_matrix",
    "spectral_radius",
    "spectral_radius_infinity",
]

#: how beta follows from alpha: SeaFEM's beta = Gamma / 2 + alpha / 40 (the chapter) or the
#: textbook (Wood-Bossak-Zienkiewicz 1980) beta = (1 - alpha)^2 / 4
BETA_RULES = ("seafem", "textbook")


@dataclass(frozen=True)
class BossakParameters:
    """alpha (numerical damping, [-0.1, 0]), Gamma and beta of the Bossak-Newmark scheme."""

    alpha: float
    gamma: float
    beta: float
    beta_rule: str

    @classmethod
    def from_alpha(cls, alpha: float, beta_rule: str = "seafem") -> BossakParameters:
        """Gamma = 1/2 - alpha and beta by ``beta_rule`` (chapter, after (7-4)).

        Raises ``ValueError`` naming ``alpha`` / ``beta_rule`` when out of range.
        """
        alpha = float(alpha)
        if not (np.isfinite(alpha) and -0.1 <= alpha <= 0.0):
            raise ValueError(f"alpha must lie in [-0.1, 0], got {alpha:g}")
        if beta_rule not in BETA_RULES:
            raise ValueError(f"beta_rule must be one of {BETA_RULES}, got {beta_rule!r}")
        gamma = 0.5 - alpha
        if beta_rule == "seafem":
            beta = 0.5 * gamma + 0.025 * alpha  # SeaFEM: beta = 0.5 Gamma + 0.025 alpha
        else:
            beta = 0.25 * (1.0 - alpha) ** 2  # Wood-Bossak-Zienkiewicz
        return cls(alpha, gamma, beta, beta_rule)


def amplification_matrix(
    p: BossakParameters, omega_h, zeta: float = 0.0, literal: bool = False
) -> np.ndarray:
    """Amplification matrix (..., 3, 3) of one step on x'' + 2 zeta w x' + w^2 x = 0 for the
    state [x, h v, h^2 a], with ``omega_h`` = w h; (7-2) with (7-3)-(7-4) as used (``literal``:
    the chapter's (7-3)-(7-4) read literally, Gamma and beta on the old acceleration)."""
    W = np.atleast_1d(np.asarray(omega_h, dtype=float))
    al, ga, be = p.alpha, p.gamma, p.beta
    if literal:
        ga, be = 1.0 - ga, 0.5 - be  # weights of the new acceleration in (7-3), (7-4)
    out = np.empty(W.shape + (3, 3))
    for idx, w in np.ndenumerate(W):
        c = 2.0 * zeta * w
        k = w * w
        # x1 = x + u + (1/2 - be) s + be s1; u1 = u + (1 - ga) s + ga s1  (u = h v, s = h^2 a)
        # (1 - al) s1 + al s = -k x1 - c u1
        lhs = (1.0 - al) + k * be + c * ga
        row = -(k * np.array([1.0, 1.0, 0.5 - be]) + c * np.array([0.0, 1.0, 1.0 - ga]))
        row[2] -= al
        s1 = row / lhs
        x1 = np.array([1.0, 1.0, 0.5 - be]) + be * s1
        u1 = np.array([0.0, 1.0, 1.0 - ga]) + ga * s1
        out[idx] = np.stack([x1, u1, s1])
    return out if np.ndim(omega_h) else out[0]


def spectral_radius(p: BossakParameters, omega_h, zeta: float = 0.0, literal=False):
    """max |eigenvalue| of :func:`amplification_matrix`."""
    A = amplification_matrix(p, omega_h, zeta, literal)
    return np.abs(np.linalg.eigvals(A)).max(axis=-1)


def spectral_radius_infinity(p: BossakParameters) -> float:
    """The high-frequency limit (w h -> inf) of :func:`spectral_radius`: there x_{n+1} -> 0 and
    (h v, h^2 a) follow [[1 - G/b, 1 - G - G (1/2 - b)/b], [-1/b, -(1/2 - b)/b]] (G = Gamma,
    b = beta; the third eigenvalue is 0). With the textbook beta = (1 - alpha)^2/4 it has the
    double eigenvalue -(1 + alpha)/(1 - alpha) (Wood-Bossak-Zienkiewicz); with the chapter's
    beta = Gamma/2 + alpha/40 < (1 - alpha)^2/4 its modulus exceeds 1 for alpha < 0."""
    g, b = p.gamma, p.beta
    L = np.array([[1 - g / b, 1 - g - g * (0.5 - b) / b], [-1 / b, -(0.5 - b) / b]])
    return float(np.abs(np.linalg.eigvals(L)).max())


def _rowdot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per-member dot product (B,), columns summed in a fixed order (batch-invariant bits)."""
    out = a[:, 0] * b[:, 0]
    for j in range(1, a.shape[1]):
        out = out + a[:, j] * b[:, j]
    return out


@dataclass
class IterationStats:
    """Loads-loop iterations per step (per member), filled by :class:`BossakNewmark`."""

    iterations: list = field(default_factory=list)  # one (B,) int array per step
    inner: list = field(default_factory=list)  # body-dynamics loop (linked bodies), per step
    info: list = field(default_factory=list)  # per step, if kept: multipliers (linked bodies)

    def summary(self) -> dict[str, float]:
        if not self.iterations:
            return {"steps": 0, "mean": 0.0, "max": 0}
        it = np.stack(self.iterations)
        out = {"steps": it.shape[0], "mean": float(it.mean()), "max": int(it.max())}
        if self.inner:
            inn = np.stack(self.inner)
            out.update(inner_mean=float(inn.mean()), inner_max=int(inn.max()))
        return out


class BossakNewmark(FixedStepIntegrator):
    """Bossak-Newmark for ``y = [x, v]`` with ``fun(t, y) = [v, g(t, x, v)]`` (see the module).

    Parameters
    ----------
    dt : float
        Time step (s).
    alpha : float
        Numerical damping, in [-0.1, 0] (0: trapezoidal Newmark, no damping).
    beta_rule : {'seafem', 'textbook'}
        beta = Gamma/2 + alpha/40 (SeaFEM) or (1 - alpha)^2/4.
    rtol, atol : float
        Loads loop: a member has converged when max |a_{k+1} - a_k| <= atol + rtol max |a_{k+1}|.
    max_iter : int
        Loads-loop iterations before the step fails (``SimulationError``).
    aitken : bool
        Aitken relaxation of the iterate (otherwise plain fixed-point iteration).
    n_pos : int, optional
        Number of position columns m (default: half the state).
    keep_multipliers : bool
        Problems that step themselves (linked bodies): keep each step's ``info`` (Lagrange
        multipliers of (7-23), effective accelerations) in ``stats.info``.
    """

    order = 2

    #: runs of full steps in compiled chunks when ``fun`` offers ``bossak_chunk``
    chunk_method = "bossak_step_chunk"

    def __init__(
        self,
        dt: float,
        alpha: float = -0.1,
        beta_rule: str = "seafem",
        *,
        rtol: float = 1e-10,
        atol: float = 1e-12,
        max_iter: int = 50,
        aitken: bool = True,
        n_pos: int | None = None,
        keep_multipliers: bool = False,
    ):
        super().__init__(dt)
        self.params = BossakParameters.from_alpha(alpha, beta_rule)
        self.rtol, self.atol, self.max_iter = float(rtol), float(atol), int(max_iter)
        self.aitken = bool(aitken)
        self.n_pos = n_pos
        self.keep_multipliers = bool(keep_multipliers)
        self.stats = IterationStats()
        self._a, self._t = None, None  # algorithmic acceleration a_n (B, m) at time _t

    def run(self, fun, y0, t_out, **kw):
        self._a, self._t = None, None
        self.stats = IterationStats()
        chunked = getattr(fun, "bossak_chunk", None) is not None
        if chunked and not (self.keep_multipliers and hasattr(fun, "bossak_step")):
            fun = _Chunked(fun, self)  # compiled runs of whole steps (the one driver's chunks)
        return super().run(fun, y0, t_out, **kw)

    def _carries(self, t: float, shape=None, batch=None) -> bool:
        """Whether the kept algorithmic acceleration belongs to a step ending at ``t``."""
        if self._a is None or self._t is None or abs(self._t - t) > 1e-9 * self.dt:
            return False
        if shape is not None and self._a.shape != tuple(shape):
            return False
        return batch is None or self._a.shape[0] == batch

    def _m(self, y: np.ndarray) -> int:
        m = self.n_pos if self.n_pos is not None else y.shape[1] // 2
        if 2 * m != y.shape[1]:
            raise ValueError(f"Bossak-Newmark needs y = [x, v] with 2 m columns, got {y.shape[1]}")
        return m

    def _step_impl(self, fun, t, y, f, h):
        problem = getattr(fun, "bossak_step", None)
        if problem is not None:
            return self._problem_step(fun, t, y, f, h)
        m = self._m(y)
        p = self.params
        ga, be = p.gamma, p.beta
        x, v = y[:, :m], y[:, m:]
        if not self._carries(t, x.shape):
            self._a = f[:, m:].copy()  # start: the algorithmic acceleration is the true one
        a_n = self._a
        # Newmark predictors: the parts of (7-3)-(7-4) known at t_n (7-11)
        x_p = x + h * v + (h * h * (0.5 - be)) * a_n
        v_p = v + (h * (1.0 - ga)) * a_n
        lin = getattr(fun, "bossak_linear", None)
        if lin is not None:
            a_new, y_new, f_new = self._direct(fun, lin, t + h, x_p, v_p, a_n, h)
            iters = np.ones(x.shape[0], dtype=int)
        else:
            a_new, y_new, f_new, iters = self._loads_loop(fun, t + h, x_p, v_p, a_n, h)
        self.stats.iterations.append(iters.astype(np.int32))
        self._a, self._t = a_new, t + h
        return y_new, f_new

    def _problem_step(self, fun, t, y, f, h):
        """A problem that steps itself (``fun.bossak_step``, e.g. linked bodies with large
        rotations, :class:`floatwind.multibody.links.LinkedBodies`)."""
        if not self._carries(t, None, y.shape[0]):
            self._a = fun.acceleration_part(f).copy()
        a_new, y_new, f_new, info = fun.bossak_step(
            t,
            y,
            self._a,
            h,
            self.params,
            rtol=self.rtol,
            atol=self.atol,
            max_iter=self.max_iter,
            aitken=self.aitken,
        )
        self.stats.iterations.append(info["outer"].astype(np.int32))
        self.stats.inner.append(info["inner"].astype(np.int32))
        if self.keep_multipliers:
            self.stats.info.append(info)
        self._a, self._t = a_new, t + h
        return y_new, f_new

    def _direct(self, fun, lin, t1, x_p, v_p, a_n, h):
        """Linear system: (7-2) solved for a_{n+1} in one go."""
        p = self.params
        K, C = lin()  # (B or 1, m, m) mass-normalised stiffness and damping
        m = x_p.shape[1]
        g_p = fun(t1, np.concatenate([x_p, v_p], axis=1))[:, m:]
        S = (1.0 - p.alpha) * np.eye(m) + (p.beta * h * h) * K + (p.gamma * h) * C
        S = np.broadcast_to(S, (x_p.shape[0], m, m))
        a = np.linalg.solve(S, (g_p - p.alpha * a_n)[..., None])[..., 0]
        x1 = x_p + (p.beta * h * h) * a
        v1 = v_p + (p.gamma * h) * a
        # g(t1, x1, v1) = (1 - alpha) a + alpha a_n by construction of the solve (7-2)
        f1 = np.concatenate([v1, (1.0 - p.alpha) * a + p.alpha * a_n], axis=1)
        return a, np.concatenate([x1, v1], axis=1), f1

    def _loads_loop(self, fun, t1, x_p, v_p, a_n, h):
        """Fixed-point iteration on (7-2), loads re-evaluated at each iterate, Aitken relaxed."""
        p = self.params
        B, m = x_p.shape
        bh2, gh = p.beta * h * h, p.gamma * h
        a = a_n.copy()  # the previous step's acceleration is the first guess (time loop)
        active = np.ones(B, dtype=bool)
        iters = np.zeros(B, dtype=int)
        omega = np.ones(B)
        r_prev = None
        y_out = np.empty((B, 2 * m))
        f_out = np.empty((B, 2 * m))
        a_out = np.empty((B, m))
        for k in range(self.max_iter):
            y_k = np.concatenate([x_p + bh2 * a, v_p + gh * a], axis=1)
            f_k = fun(t1, y_k)
            a_hat = (f_k[:, m:] - p.alpha * a_n) / (1.0 - p.alpha)  # (7-2)
            r = a_hat - a
            iters[active] = k + 1
            tol = self.atol + self.rtol * np.abs(a_hat).max(axis=1)
            done = active & (np.abs(r).max(axis=1) <= tol)
            if done.any():
                # accept the iterate the loads were evaluated at: f_out is fun(t1, y_out)
                y_out[done], f_out[done], a_out[done] = y_k[done], f_k[done], a[done]
                active &= ~done
            if not active.any():
                return a_out, y_out, f_out, iters
            if self.aitken and r_prev is not None:
                # Aitken (Irons-Tuck):
                # omega_k = -omega_{k-1} r_{k-1}.(r_k - r_{k-1}) / |r_k - r_{k-1}|^2
                d = r - r_prev
                dd = _rowdot(d, d)
                ok = dd > 0.0
                omega = np.where(ok, -omega * _rowdot(r_prev, d) / np.where(ok, dd, 1.0), omega)
            a = np.where(active[:, None], a + omega[:, None] * r, a)
            r_prev = r
        bad = np.nonzero(active)[0].tolist()
        raise SimulationError(
            f"Bossak-Newmark loads loop did not converge in {self.max_iter} iterations "
            f"(acceleration change {np.abs(r[active]).max():.3g})",
            time=t1,
            state=np.concatenate([x_p, v_p], axis=1),
            members=bad,
        )


class _Chunked:
    """``fun`` with the chunk method the stepping driver calls (:attr:`BossakNewmark.chunk_method`):
    ``fun.bossak_chunk(ts, y, f, a0, integ, dt) -> (Y, F, A, done, status, iterations)``
    advances whole steps in compiled code and hands back the algorithmic accelerations A, which
    the integrator keeps, so that compiled chunks and Python steps interleave on one a_n, and
    the iteration counts ((loads loop, body loop) per step, or None: one solve per step)."""

    def __init__(self, fun, integ: BossakNewmark):
        self.fun, self.integ = fun, integ
        for name in ("bossak_linear", "bossak_step", "acceleration_part"):
            if getattr(fun, name, None) is not None:
                setattr(self, name, getattr(fun, name))

    def __call__(self, t, y):
        return self.fun(t, y)

    def bossak_step_chunk(self, ts, y, f, t0, dt):
        integ = self.integ
        t = float(ts[0])
        part = getattr(self.fun, "acceleration_part", None)
        a_f = part(f) if part is not None else f[:, integ._m(y) :]
        if not integ._carries(t, a_f.shape):
            a0 = np.ascontiguousarray(a_f)
        else:
            a0 = integ._a
        Y, F, A, done, status, its = self.fun.bossak_chunk(ts, y, f, a0, integ, dt)
        if done > 0:
            integ._a, integ._t = A[done].copy(), float(ts[done])
            if its is None:
                ones = np.ones(y.shape[0], dtype=np.int32)
                integ.stats.iterations.extend(ones for _ in range(done))
            else:
                integ.stats.iterations.extend(its[0][1 : done + 1].astype(np.int32))
                integ.stats.inner.extend(its[1][1 : done + 1].astype(np.int32))
        return Y, F, done, status
