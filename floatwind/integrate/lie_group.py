"""Lie-group generalized-alpha integrator for one rigid body, spatial formulation (Giusti, seed 000).

The configuration (x_G, R) lives on R3 x SO(3); velocities v = [v_G; w] and accelerations
vdot = [a_G; dw] are in the inertial basis (Giusti sec. 2.2, 2.5). One step is Giusti's
Algorithm 1:

* algorithmic parameters from the spectral radius at infinity rho_inf (Chung & Hulbert 1993);
* the update (7)-(11): q_{n+1} = exp(y) o q_n with y = h v_n + h^2 (1/2 - beta) a_n
  + beta h^2 a_{n+1}; the rotation is composed by right translation, R_{n+1} = exp(~y_rot) R_n;
* Newton-Raphson on the residual (1) with the iteration matrix S_t = beta' M_t + gamma' C_t
  + K_t T^dagger (lines 19-22), T^dagger = diag(I, T(y_rot)^T) mapping the correction of y to the
  spatial increment theta.

Model and algorithm are kept apart (STYLE.md): :class:`RigidBodySpatial` is the frozen model, the
state is a :class:`LieGroupState`, and :class:`LieGroupGeneralizedAlpha` steps ``(model, state)``.
The same Newton loop drives the mixed (R3 x SO(3), left translation) and local (SE(3))
formulations of Giusti sec. 2.3-2.4 (:class:`MixedFormulation`, :class:`LocalFormulation`) through
the :class:`Formulation` interface, for the comparison of sec. 7.4: only the group, the
composition rule and the velocity variables differ (Bruls & Cardona 2010; Sonneville 2015):

* mixed, R3 x SO(3) with left translation: v = [v_G (inertial); W (body axes)],
  x_{n+1} = x_n + y_x, R_{n+1} = R_n exp(~y_rot); the equations are Newton's law in the inertial
  basis and Euler's equations J W' + W x J W = T^M in the body basis;
* local, SE(3): v = [R^T v_G; W] (both body axes), H_{n+1} = H_n exp_SE3(y), i.e.
  R_{n+1} = R_n exp(~theta), x_{n+1} = x_n + R_n T(theta)^T u for y = [u; theta];
  the translational equation is m (v' + W x v) = F^M.

Their loads are the same :class:`~floatwind.integrate.spatial_loads.SpatialLoad` objects: a
formulation maps its variables to the inertial ones (w = R W, dw = R W', a_G = R (v' + W x v)),
evaluates the inertial residual (1) and writes it in its own basis, so the three integrators
differ only in their discretisation; the iteration matrix of the mixed and local ones is the
finite-difference Jacobian of :class:`Formulation`.

:class:`FloatwindLoadsAdapter` lets floatwind ``Load`` objects (the ``wrench(t, kin, env)``
contract) act on the body with finite-difference tangents, and :func:`simulate_lie_ga` runs a
single floating body with them.
"""

from __future__ import annotations

import abc
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from floatwind.errors import CaseError, SimulationError
from floatwind.integrate.base import Interrupted, Recording, hermite
from floatwind.integrate.spatial_loads import (
    InertialLoad,
    LoadSet,
    SpatialKinematics,
    SpatialLoad,
    Tangents,
)
from floatwind.rotation import exp_so3, log_so3, tangent, tangent_inv, unwrap_rotvec

log = logging.getLogger(__name__)

__all__ = [
    "FORMULATIONS",
    "Formulation",
    "LieGroupGeneralizedAlpha",
    "LieGroupState",
    "LocalFormulation",
    "MixedFormulation",
    "RigidBodySpatial",
    "SpatialFormulation",
    "generalized_alpha_parameters",
    "spatial_residual",
    "spatial_tangents",
]


def _mv(A, x):
    return np.einsum("...ij,...j->...i", A, x)


def _T(A):
    return np.swapaxes(A, -1, -2)


#: the state columns of a :class:`LieRecording` (per batch member)
LIE_STATE = ("r_G_g", "psi", "v_G_g", "w_b_g")


@dataclass
class LieRecording(Recording):
    """What :meth:`LieGroupGeneralizedAlpha.integrate` returns (and a ``SimulationError`` or
    ``Interrupted`` carries as ``partial``): the shared :class:`~floatwind.integrate.Recording`
    of every integrator, ``t`` (T,) the output grid, ``y`` (T, B, 12) = [r_G_g, psi (continuous
    rotation vector), v_G_g, w_b_g] per member (NaN after the ``n`` recorded rows), plus every
    recorded field by name, sliced to the recorded rows: ``rec["R_b2g"]`` (n, B, 3, 3),
    ``rec["psi_wrapped"]``, ``rec["a_G_g"]``, ``rec["dw_b_g"]``, ``rec["newton_iterations"]``
    (per step), ``rec["t"]`` (n,)."""

    fields: dict = field(default_factory=dict)

    def __getitem__(self, key: str) -> np.ndarray:
        return self.fields[key]

    def __contains__(self, key: str) -> bool:
        return key in self.fields

    def keys(self):
        return self.fields.keys()


def generalized_alpha_parameters(rho_inf: float) -> tuple[float, float, float, float]:
    """(alpha_m, alpha_f, beta, gamma) from the spectral radius at infinity (Chung & Hulbert 1993).

    alpha_m = (2 rho - 1)/(rho + 1), alpha_f = rho/(rho + 1), gamma = 1/2 + alpha_f - alpha_m,
    beta = (gamma + 1/2)^2 / 4: second order, unconditionally stable, rho_inf = 1 is
    non-dissipative.
    """
    rho = float(rho_inf)
    if not 0.0 <= rho <= 1.0:
        raise CaseError(f"rho_inf must be in [0, 1], got {rho_inf}", field="rho_inf")
    alpha_m = (2.0 * rho - 1.0) / (rho + 1.0)
    alpha_f = rho / (rho + 1.0)
    gamma = 0.5 + alpha_f - alpha_m
    beta = 0.25 * (gamma + 0.5) ** 2
    return alpha_m, alpha_f, beta, gamma


# ----------------------------------------------------------------------------------------------
# model and state
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RigidBodySpatial:
    """One rigid body and the loads on it (frozen model).

    Parameters
    ----------
    mass : float
        Mass (kg).
    J_b : (3, 3) array_like
        Inertia about the CM in body axes (kg m^2).
    loads : sequence of SpatialLoad
        External loads (the inertial loads (12)-(17) are added by the model).
    """

    mass: float
    J_b: np.ndarray
    loads: tuple[SpatialLoad, ...] = ()
    inertia: InertialLoad = field(init=False, repr=False)
    external: LoadSet = field(init=False, repr=False)

    def __post_init__(self):
        inertia = InertialLoad(mass=self.mass, J_b=self.J_b)  # validates mass and J_b
        object.__setattr__(self, "J_b", inertia.J_b)
        object.__setattr__(self, "loads", tuple(self.loads))
        object.__setattr__(self, "inertia", inertia)
        object.__setattr__(self, "external", LoadSet(self.loads))


def spatial_residual(
    model: RigidBodySpatial, kin: SpatialKinematics
) -> tuple[np.ndarray, np.ndarray]:
    """Residual (B, 6) of Giusti (1) and a per-member force scale (B,) for the convergence test."""
    r_in = model.inertia.residual(kin)
    r_ex = model.external.residual(kin)
    scale = np.maximum(
        1.0, np.maximum(np.linalg.norm(r_in, axis=-1), np.linalg.norm(r_ex, axis=-1))
    )
    return r_in + r_ex, scale


def spatial_tangents(model: RigidBodySpatial, kin: SpatialKinematics) -> Tangents:
    """Tangent operators (K, C, M) of Giusti (2)-(4): inertial plus external loads."""
    return model.inertia.tangents(kin) + model.external.tangents(kin)


@dataclass(frozen=True)
class LieGroupState:
    """State of the integrator at time ``t`` (batched).

    ``v``, ``vdot`` and ``a`` (the algorithmic acceleration of the generalized-alpha scheme) are
    in the variables of the formulation (spatial: [v_G; w] inertial axes).
    """

    t: float
    r_G_g: np.ndarray  # (B, 3)
    R_b2g: np.ndarray  # (B, 3, 3)
    v: np.ndarray  # (B, 6)
    vdot: np.ndarray  # (B, 6)
    a: np.ndarray  # (B, 6)
    psi_unwrapped: np.ndarray  # (B, 3) continuous rotation vector (sec. 7.4.1)
    iterations: int = 0  # Newton iterations of the step that produced this state

    @property
    def batch(self) -> int:
        return self.r_G_g.shape[0]


# ----------------------------------------------------------------------------------------------
# formulations
# ----------------------------------------------------------------------------------------------


class Formulation(abc.ABC):
    """Group, composition rule and velocity variables of one formulation of the rigid body.

    Rules for a formulation: implement :meth:`compose` (q_n o exp(y) in its group),
    :meth:`to_spatial` / :meth:`from_spatial` (its velocity variables to and from the inertial
    [v_G; w], [a_G; dw]) and :meth:`project` (the inertial residual (1) written in its basis).
    The iteration matrix defaults to a finite-difference Jacobian of the residual with respect to
    the increment y (with v and vdot following through gamma' and beta'); the converged solution
    does not depend on it.
    """

    name = "formulation"

    @abc.abstractmethod
    def compose(self, r_G_g, R_b2g, y) -> tuple[np.ndarray, np.ndarray]:
        """Configuration exp(y) composed with (r_G_g, R_b2g), Giusti (7)-(11)."""

    @abc.abstractmethod
    def to_spatial(self, R_b2g, v, vdot) -> tuple[np.ndarray, np.ndarray]:
        """Inertial [v_G; w] and [a_G; dw] (B, 6) from the formulation's variables."""

    @abc.abstractmethod
    def from_spatial(self, R_b2g, v_s) -> np.ndarray:
        """The formulation's velocity (B, 6) from the inertial [v_G; w]."""

    @abc.abstractmethod
    def project(self, R_b2g, r_s) -> np.ndarray:
        """The inertial residual (B, 6) written in the formulation's basis."""

    def residual(self, model, t, r_G_g, R_b2g, v, vdot) -> tuple[np.ndarray, np.ndarray]:
        v_s, vdot_s = self.to_spatial(R_b2g, v, vdot)
        kin = SpatialKinematics.from_vectors(t, r_G_g, R_b2g, v_s, vdot_s)
        r_s, scale = spatial_residual(model, kin)
        return self.project(R_b2g, r_s), scale

    def iteration_matrix(
        self, model, t, r_n, R_n, y, v, vdot, beta_p, gamma_p, res=None
    ) -> np.ndarray:
        """dr/dy (B, 6, 6) at the current iterate, by forward differences from ``res``."""
        if res is None:
            res = self.residual(model, t, *self.compose(r_n, R_n, y), v, vdot)[0]
        S = np.empty(y.shape + (6,))
        eps = 1e-7 * max(float(np.max(np.abs(y))), 1e-6)
        for j in range(6):
            d = np.zeros(6)
            d[j] = eps
            rp = self.residual(
                model, t, *self.compose(r_n, R_n, y + d), v + gamma_p * d, vdot + beta_p * d
            )[0]
            S[:, :, j] = (rp - res) / eps
        return S

    def mass_matrix(self, model, t, r_G_g, R_b2g, v, vdot) -> np.ndarray:
        """dr/dvdot (B, 6, 6); the residual is linear in vdot, so a one-sided difference is exact."""
        r0 = self.residual(model, t, r_G_g, R_b2g, v, vdot)[0]
        M = np.empty(vdot.shape + (6,))
        for j in range(6):
            d = np.zeros(6)
            d[j] = 1.0
            M[:, :, j] = self.residual(model, t, r_G_g, R_b2g, v, vdot + d)[0] - r0
        return M


class SpatialFormulation(Formulation):
    """Giusti's spatial formulation: R3 x SO(3), right translation, inertial-basis velocities."""

    name = "spatial"

    def compose(self, r_G_g, R_b2g, y):
        return r_G_g + y[:, :3], exp_so3(y[:, 3:]) @ R_b2g  # Giusti (7)-(11), Alg. 1 lines 9-10

    def to_spatial(self, R_b2g, v, vdot):
        return v, vdot

    def from_spatial(self, R_b2g, v_s):
        return np.array(v_s, dtype=float)

    def project(self, R_b2g, r_s):
        return r_s

    def iteration_matrix(self, model, t, r_n, R_n, y, v, vdot, beta_p, gamma_p, res=None):
        r1, R1 = self.compose(r_n, R_n, y)
        K, C, M = spatial_tangents(model, SpatialKinematics.from_vectors(t, r1, R1, v, vdot))
        T_dag = np.zeros(y.shape + (6,))
        T_dag[:, :3, :3] = np.eye(3)  # Alg. 1 line 19
        T_dag[:, 3:, 3:] = _T(tangent(y[:, 3:]))  # line 20: theta_S = T(y)^T dy
        return beta_p * M + gamma_p * C + K @ T_dag  # line 21

    def mass_matrix(self, model, t, r_G_g, R_b2g, v, vdot):
        return spatial_tangents(model, SpatialKinematics.from_vectors(t, r_G_g, R_b2g, v, vdot)).M


class MixedFormulation(Formulation):
    """R3 x SO(3) with left translation (Giusti sec. 2.3): v = [v_G inertial; W body axes]."""

    name = "mixed"

    def compose(self, r_G_g, R_b2g, y):
        return r_G_g + y[:, :3], R_b2g @ exp_so3(y[:, 3:])

    def to_spatial(self, R_b2g, v, vdot):
        v_s = np.concatenate([v[:, :3], _mv(R_b2g, v[:, 3:])], -1)
        vdot_s = np.concatenate([vdot[:, :3], _mv(R_b2g, vdot[:, 3:])], -1)  # dw = R W'
        return v_s, vdot_s

    def from_spatial(self, R_b2g, v_s):
        return np.concatenate([v_s[:, :3], _mv(_T(R_b2g), v_s[:, 3:])], -1)

    def project(self, R_b2g, r_s):
        return np.concatenate([r_s[:, :3], _mv(_T(R_b2g), r_s[:, 3:])], -1)


class LocalFormulation(Formulation):
    """SE(3) (Giusti sec. 2.4): v = [R^T v_G; W], both in body axes."""

    name = "local"

    def compose(self, r_G_g, R_b2g, y):
        u, theta = y[:, :3], y[:, 3:]
        # exp_SE3([u; theta]) = (exp(~theta), T(theta)^T u), composed on the right of (R_n, x_n)
        step = _mv(_T(tangent(theta)), u)
        return r_G_g + _mv(R_b2g, step), R_b2g @ exp_so3(theta)

    def to_spatial(self, R_b2g, v, vdot):
        v_b, W = v[:, :3], v[:, 3:]
        v_s = np.concatenate([_mv(R_b2g, v_b), _mv(R_b2g, W)], -1)
        a_s = _mv(R_b2g, vdot[:, :3] + np.cross(W, v_b))  # a_G = R (v' + W x v)
        return v_s, np.concatenate([a_s, _mv(R_b2g, vdot[:, 3:])], -1)

    def from_spatial(self, R_b2g, v_s):
        RT = _T(R_b2g)
        return np.concatenate([_mv(RT, v_s[:, :3]), _mv(RT, v_s[:, 3:])], -1)

    def project(self, R_b2g, r_s):
        RT = _T(R_b2g)
        return np.concatenate([_mv(RT, r_s[:, :3]), _mv(RT, r_s[:, 3:])], -1)


#: the formulations by name (``LieGroupGeneralizedAlpha(formulation=...)``)
FORMULATIONS: dict[str, type[Formulation]] = {
    f.name: f for f in (SpatialFormulation, MixedFormulation, LocalFormulation)
}


def _formulation(spec) -> Formulation:
    if isinstance(spec, Formulation):
        return spec
    if spec not in FORMULATIONS:
        raise CaseError(
            f"formulation must be one of {sorted(FORMULATIONS)}, got {spec!r}", field="formulation"
        )
    return FORMULATIONS[spec]()


# ----------------------------------------------------------------------------------------------
# integrator
# ----------------------------------------------------------------------------------------------


class LieGroupGeneralizedAlpha:
    """Lie-group generalized-alpha scheme, Giusti Algorithm 1 (spatial by default).

    Parameters
    ----------
    rho_inf : float
        Spectral radius at infinity in [0, 1] (1: no numerical damping).
    tol : float
        Newton tolerance: a step has converged when ||r|| <= tol * max(1, ||inertial loads||,
        ||external loads||) for every batch member (relative to the loads in balance).
    max_iter : int
        Newton iterations allowed per step before :class:`SimulationError`.
    formulation : {"spatial", "mixed", "local"} or Formulation
        Giusti sec. 2.2 (default), 2.3 or 2.4.

    Examples
    --------
    >>> from floatwind.loads.spatial import FollowerTorque
    >>> body = RigidBodySpatial(mass=1.0, J_b=3.0 * np.eye(3), loads=(FollowerTorque(torque=[0, 0, 30.0]),))
    >>> ga = LieGroupGeneralizedAlpha(rho_inf=0.9)
    >>> s0 = ga.initial_state(body, 0.0, r_G_g=[0, 0, 0], R_b2g=np.eye(3), v_G_g=[0, 0, 0], w_b_g=[10, 15, 20])
    >>> out = ga.integrate(body, s0, t_out=np.linspace(0.0, 0.6, 31), dt=1e-3)
    >>> out["R_b2g"].shape
    (31, 1, 3, 3)
    """

    def __init__(
        self, *, rho_inf: float = 0.9, tol: float = 1e-10, max_iter: int = 25, formulation="spatial"
    ):
        self.rho_inf = float(rho_inf)
        self.alpha_m, self.alpha_f, self.beta, self.gamma = generalized_alpha_parameters(rho_inf)
        if not tol > 0.0:
            raise CaseError(f"tol must be positive, got {tol}", field="tol")
        if int(max_iter) < 1:
            raise CaseError(f"max_iter must be at least 1, got {max_iter}", field="max_iter")
        self.tol = float(tol)
        self.max_iter = int(max_iter)
        self.formulation = _formulation(formulation)

    def __repr__(self) -> str:
        return (
            f"LieGroupGeneralizedAlpha(rho_inf={self.rho_inf}, tol={self.tol}, "
            f"max_iter={self.max_iter}, formulation={self.formulation.name!r})"
        )

    # -- start -------------------------------------------------------------------------------

    def initial_state(
        self, model: RigidBodySpatial, t0: float, *, r_G_g, R_b2g, v_G_g, w_b_g
    ) -> LieGroupState:
        """State at ``t0`` with the consistent acceleration (residual (1) solved for vdot).

        Parameters
        ----------
        r_G_g : (3,) or (B, 3) CM position (m); R_b2g : (3, 3) or (B, 3, 3);
        v_G_g : (3,) or (B, 3) CM velocity (m/s); w_b_g : (3,) or (B, 3) angular velocity,
        inertial axes (rad/s). Shapes broadcast to a common batch B.
        """
        r = np.atleast_2d(np.asarray(r_G_g, dtype=float))
        R = np.asarray(R_b2g, dtype=float)
        R = R[None] if R.ndim == 2 else R
        vg = np.atleast_2d(np.asarray(v_G_g, dtype=float))
        wg = np.atleast_2d(np.asarray(w_b_g, dtype=float))
        B = max(r.shape[0], R.shape[0], vg.shape[0], wg.shape[0])
        r = np.broadcast_to(r, (B, 3)).copy()
        R = np.broadcast_to(R, (B, 3, 3)).copy()
        v_s = np.concatenate([np.broadcast_to(vg, (B, 3)), np.broadcast_to(wg, (B, 3))], axis=-1)
        F = self.formulation
        v = F.from_spatial(R, v_s)
        vdot = np.zeros((B, 6))
        tol0 = max(self.tol, 1e-12)  # the residual is linear in vdot: one or two solves
        for _ in range(max(self.max_iter, 10)):
            res, scale = F.residual(model, t0, r, R, v, vdot)
            if np.all(np.linalg.norm(res, axis=-1) <= tol0 * scale):
                break
            vdot = (
                vdot
                - np.linalg.solve(F.mass_matrix(model, t0, r, R, v, vdot), res[..., None])[..., 0]
            )
        else:
            raise SimulationError(
                "could not find a consistent initial acceleration",
                time=t0,
                state=np.concatenate([r, v], -1),
            )
        return LieGroupState(float(t0), r, R, v, vdot, vdot.copy(), log_so3(R))

    # -- one step: Giusti Algorithm 1 --------------------------------------------------------

    def step(self, model: RigidBodySpatial, state: LieGroupState, h: float) -> LieGroupState:
        """Advance ``state`` by ``h`` (Giusti Algorithm 1).

        Raises
        ------
        SimulationError
            If Newton-Raphson does not converge in ``max_iter`` iterations or the residual is
            not finite; names the time, the failing batch members and their state.
        """
        F = self.formulation
        am, af, beta, gamma = self.alpha_m, self.alpha_f, self.beta, self.gamma
        beta_p = (1.0 - am) / (beta * h * h * (1.0 - af))  # line 1
        gamma_p = gamma / (beta * h)  # line 2
        vdot1 = np.zeros_like(state.vdot)  # line 3
        a1 = (af * state.vdot - am * state.a) / (1.0 - am)  # line 4
        v1 = state.v + h * (1.0 - gamma) * state.a + gamma * h * a1  # line 5
        y = h * state.v + h * h * (0.5 - beta) * state.a + beta * h * h * a1  # lines 6-7, (9)
        t1 = state.t + h
        rn = np.full(state.batch, np.inf)
        for it in range(self.max_iter + 1):
            r1, R1 = F.compose(state.r_G_g, state.R_b2g, y)  # lines 9-10, (7)-(11)
            res, scale = F.residual(model, t1, r1, R1, v1, vdot1)  # line 12
            rn = np.linalg.norm(res, axis=-1)
            bad = ~np.isfinite(rn)
            if bad.any():
                raise SimulationError(
                    "non-finite residual in the Newton iteration",
                    time=t1,
                    state=np.concatenate([r1, log_so3(R1), v1], -1),
                    members=np.nonzero(bad)[0].tolist(),
                )
            conv = rn <= self.tol * scale  # line 13
            if conv.all():
                break
            if it == self.max_iter:
                failed = np.nonzero(~conv)[0].tolist()
                raise SimulationError(
                    f"Lie-group generalized-alpha: Newton-Raphson did not converge in "
                    f"{self.max_iter} iterations (residual norm {np.max(rn[~conv]):.3e}, "
                    f"tolerance {self.tol:g} x load scale {np.max(scale[~conv]):.3e}); "
                    "reduce the time step or relax tol",
                    time=t1,
                    state=np.concatenate([r1, log_so3(R1), v1], -1)[failed],
                    members=failed,
                )
            S = F.iteration_matrix(
                model, t1, state.r_G_g, state.R_b2g, y, v1, vdot1, beta_p, gamma_p, res
            )
            dy = -np.linalg.solve(S, res[..., None])[..., 0]  # line 22
            dy[conv] = 0.0
            y = y + dy  # line 23
            v1 = v1 + gamma_p * dy  # line 24
            vdot1 = vdot1 + beta_p * dy  # line 25
        a1 = a1 + (1.0 - af) / (1.0 - am) * vdot1  # line 27
        psi_u = unwrap_rotvec(np.stack([state.psi_unwrapped, log_so3(R1)]))[1]
        return LieGroupState(t1, r1, R1, v1, vdot1, a1, psi_u, it)

    # -- dense output ------------------------------------------------------------------------

    def _physical(self, st: LieGroupState):
        v_s, vdot_s = self.formulation.to_spatial(st.R_b2g, st.v, st.vdot)
        return v_s, vdot_s

    def _interpolate(self, s0: LieGroupState, s1: LieGroupState, t: float):
        """Cubic Hermite on the group between two steps: positions, rotation increment, velocities."""
        h = s1.t - s0.t
        v0, a0 = self._physical(s0)
        v1, a1 = self._physical(s1)
        r = hermite(s0.t, s1.t, s0.r_G_g, s1.r_G_g, v0[:, :3], v1[:, :3], t)
        # R(t) = exp(xi(t)) R_0 with xi(t0) = 0, xi(t1) = log(R_1 R_0^T), xi' = w at t0 and
        # T(xi)^{-T} w at t1 (spatial increment)
        y = log_so3(s1.R_b2g @ _T(s0.R_b2g))
        dxi1 = _mv(_T(tangent_inv(y)), v1[:, 3:])
        xi = hermite(s0.t, s1.t, np.zeros_like(y), y, v0[:, 3:], dxi1, t)
        R = exp_so3(xi) @ s0.R_b2g
        v = hermite(s0.t, s1.t, v0, v1, a0, a1, t)
        a = a0 + (a1 - a0) * ((t - s0.t) / h)
        return r, R, v, a

    # -- run ---------------------------------------------------------------------------------

    def integrate(
        self,
        model: RigidBodySpatial,
        state0: LieGroupState,
        t_out,
        dt: float,
        *,
        progress: Callable[[float], None] | None = None,
    ) -> LieRecording:
        """Integrate with fixed step ``dt`` from ``state0`` and record on ``t_out``.

        Output times that fall on steps are recorded exactly, the others by cubic Hermite
        interpolation on the group.

        Returns
        -------
        :class:`LieRecording`: the shared Recording (``t``, ``y``, ``n``) and, by name, the arrays
        (time first): ``t`` (T,), ``r_G_g`` (T, B, 3), ``R_b2g`` (T, B, 3, 3),
        ``psi`` (T, B, 3) rotation vector kept continuous by adding 2 pi where the log map wraps
        (sec. 7.4.1), ``psi_wrapped`` (|psi| <= pi), ``v_G_g``, ``w_b_g``, ``a_G_g``, ``dw_b_g``
        (T, B, 3, inertial axes), and ``newton_iterations`` (n_steps,).

        Raises
        ------
        SimulationError
            From :meth:`step`, with ``partial`` the :class:`LieRecording` of the outputs recorded
            so far (``Interrupted`` on Ctrl-C, likewise), as every integrator's error carries.
        """
        t_out = np.asarray(t_out, dtype=float)
        if not dt > 0.0:
            raise CaseError(f"dt must be positive, got {dt}", field="dt")
        if (
            t_out.ndim != 1
            or t_out.size == 0
            or np.any(np.diff(t_out) < 0)
            or t_out[0] < state0.t - 1e-12
        ):
            raise CaseError(
                "t_out must be a non-decreasing 1-D grid starting at or after t0", field="t_out"
            )
        B = state0.batch
        T = len(t_out)
        rec = {
            "t": t_out,
            "r_G_g": np.full((T, B, 3), np.nan),
            "R_b2g": np.full((T, B, 3, 3), np.nan),
            "psi": np.full((T, B, 3), np.nan),
            "psi_wrapped": np.full((T, B, 3), np.nan),
            "v_G_g": np.full((T, B, 3), np.nan),
            "w_b_g": np.full((T, B, 3), np.nan),
            "a_G_g": np.full((T, B, 3), np.nan),
            "dw_b_g": np.full((T, B, 3), np.nan),
        }
        iters: list[int] = []
        n_rec = 0

        def record(k, r, R, v, a, psi_prev):
            psi_w = log_so3(R)
            rec["r_G_g"][k] = r
            rec["R_b2g"][k] = R
            rec["psi_wrapped"][k] = psi_w
            rec["psi"][k] = unwrap_rotvec(np.stack([psi_prev, psi_w]))[1]
            rec["v_G_g"][k], rec["w_b_g"][k] = v[:, :3], v[:, 3:]
            rec["a_G_g"][k], rec["dw_b_g"][k] = a[:, :3], a[:, 3:]

        def partial() -> LieRecording:
            out = {k: v[:n_rec].copy() for k, v in rec.items()}
            out["newton_iterations"] = np.asarray(iters)
            y = np.concatenate([rec[k] for k in LIE_STATE], axis=-1)
            return LieRecording(t_out, y, n_rec, fields=out)

        tol_t = 1e-9 * dt
        st = state0
        n_steps = int(np.ceil((t_out[-1] - st.t) / dt - 1e-9))
        try:
            while n_rec < T and t_out[n_rec] <= st.t + tol_t:
                v, a = self._physical(st)
                record(n_rec, st.r_G_g, st.R_b2g, v, a, st.psi_unwrapped)
                n_rec += 1
            for k in range(n_steps):
                t_new = min(state0.t + (k + 1) * dt, float(t_out[-1]))
                new = self.step(model, st, t_new - st.t)
                iters.append(new.iterations)
                while n_rec < T and t_out[n_rec] <= new.t + tol_t:
                    tk = t_out[n_rec]
                    if abs(tk - new.t) <= tol_t:
                        v, a = self._physical(new)
                        record(n_rec, new.r_G_g, new.R_b2g, v, a, new.psi_unwrapped)
                    else:
                        record(n_rec, *self._interpolate(st, new, tk), st.psi_unwrapped)
                    n_rec += 1
                st = new
                if progress is not None:
                    progress(st.t)
        except SimulationError as err:
            err.partial = partial()
            raise
        except KeyboardInterrupt:
            raise Interrupted("interrupted by the user", time=st.t, partial=partial()) from None
        out = partial()
        log.debug(
            "lie-group GA (%s): %d steps, mean Newton iterations %.2f",
            self.formulation.name,
            n_steps,
            float(np.mean(iters)) if iters else 0.0,
        )
        return out
