"""Linear matrices M, C, K of a model about an operating point, from its own right-hand side.

Coordinates ``x`` (the linear model's degrees of freedom, docs/linearization.md):

* ``PtfmSurge, PtfmSway, PtfmHeave`` (m): translation of the platform reference point (PRP,
  ``Model.ref_point_b``), inertial axes;
* ``PtfmRoll, PtfmPitch, PtfmYaw`` (rad): small rotation of the base body about the inertial
  axes (rotation vector of ``R R_op^T``), about the PRP;
* one angle (rad) per free joint (``tree.dof_names``, docs/multibody.md "Joint DOFs");
* one modal coordinate (m: the tower-top deflection of the mode, ElastoDyn's ``QT``) per tower
  mode of a flexible tower (``TFA1``, ``TSS1``, ...; docs/multibody.md "Flexible tower").

The simulator's own coordinates ``g`` are those of ``System`` (system CM and Euler 1-2-3 angles
X4..X6 of Wang 5.10, the joint angles); ``x = x(g)`` is evaluated through the model's kinematics
and its Jacobian ``T = dx/dg`` taken by central differences.

* **Mass** (kinetic energy): ``M = sum_b J_b^T diag(m_b I, I_b + A_b) J_b``, ``J_b`` the
  Jacobian of body b's CM velocity and angular velocity with respect to ``dx/dt`` (Kane's
  partial velocities), ``A_b`` the acceleration-dependent loads' added mass about its CM
  (``Wrench.added_mass``: potential flow's A_inf, Morison's inertia term), all at the operating
  point; with a flexible tower the tower's nodes (point masses, ElastoDyn's discretisation) add
  ``sum_j m_j J_j^T J_j`` with ``J_j`` the partial velocities of node j.
* **Stiffness and damping** from the right-hand side ``gdd = f(g, gd)`` (``System.rhs``, still
  water, the load states held): ``K = -M T (df/dg) T^-1``, ``C = -M T (df/dgd) T^-1`` (the
  linearised ``M xdd + C xd + K x = 0``; ``dT/dt gd`` is of second order at zero velocity).
  Central differences with per-coordinate steps ``h`` (1e-2 m, 1e-4 rad; rates 1e-4 m/s,
  1e-5 rad/s: a quadratic drag's central difference at zero velocity is proportional to the
  step, so the rate steps are small), checked against ``h/4``: the largest difference of an entry relative to
  ``sqrt(|K_ii K_jj|)`` is reported (``step_agreement``).

The wave excitation is left out (still water: it is the input of the frequency-domain model);
the wind stays as the case sets it, so a rotor load's thrust gradient is its aerodynamic
damping and stiffness. The ``mean`` operating point adds the mean second-order wave drift of
the case's sea (a potential-flow load with MnDrift or Newman's approximation) as a constant
force at the WAMIT reference point (:class:`MeanDrift`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from floatwind.environment.base import StillWater
from floatwind.errors import CaseError, SimulationError
from floatwind.loads.base import Load
from floatwind.model import InitialConditions, Model
from floatwind.records import Wrench
from floatwind.simulate.equilibrium import static_equilibrium
from floatwind.simulate.system import System

__all__ = [
    "PLATFORM_DOFS",
    "Linearization",
    "dominant_dof",
    "energy_shares",
    "linearize",
    "tower_dof_names",
]

PLATFORM_DOFS = ("PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmRoll", "PtfmPitch", "PtfmYaw")

#: central-difference steps: positions (m, rad), rates (m/s, rad/s); checked with STEP / 4
STEP_POS = (1e-2, 1e-4)
STEP_VEL = (1e-4, 1e-5)
CHECK_RATIO = 4.0


@dataclass
class Linearization:
    """The linear model about an operating point (module docstring)."""

    dof: list[str]  # names of the degrees of freedom
    units: list[str]  # 'm' or 'rad' per DOF
    at: str  # 'rest', 'equilibrium' or 'mean'
    x0: np.ndarray  # (6,) PRP translation (m) and Ptfm roll, pitch, yaw (rad) of the point
    M: np.ndarray  # (n, n) mass incl. the acceleration-dependent loads' added mass
    C: np.ndarray  # (n, n) damping
    K: np.ndarray  # (n, n) stiffness
    #: 'K', 'C': largest change with the h/4 step, relative to sqrt(|K_ii K_jj|) and to the
    #: critical damping sqrt(c_i c_j), c_i = 2 sqrt(|K_ii| M_ii)
    step_agreement: dict[str, float]
    #: potential-flow radiation loads: (WamitData scaled to rho = 1, rho, J (6, n)) with J the
    #: Jacobian of the WAMIT point's translation and the body's rotation w.r.t. x
    radiation: list = field(default_factory=list)
    #: potential-flow excitation loads: (WamitData scaled to rho = g = 1, rho g, J (6, n), the
    #: load's case field)
    excitation: list = field(default_factory=list)
    model_name: str = ""
    #: system CM relative to the PRP at the operating point (m, inertial axes)
    cm_offset: np.ndarray | None = None
    #: wetted Morison strips at the operating point (floatwind.linear.morison.strip_data)
    morison: list = field(default_factory=list)
    #: water density (kg/m^3), gravity (m/s^2), water depth (m)
    water: tuple = (1025.0, 9.80665, float("inf"))
    #: ``mean``: the mean wave drift (6,) included in the operating point (force N, moment N m
    #: at the WAMIT reference point, earth axes; summed over the drift loads), None without one
    mean_drift: np.ndarray | None = None

    @property
    def n(self) -> int:
        return len(self.dof)

    def added_mass_inf(self) -> np.ndarray:
        """The potential-flow infinite-frequency added mass contained in ``M`` (x coordinates)."""
        out = np.zeros((self.n, self.n))
        for data, rho, J in self.radiation:
            out += J.T @ (rho * data.added_mass_inf) @ J
        return out

    def radiation_at(self, omega: float) -> tuple[np.ndarray, np.ndarray]:
        """Potential-flow A(omega), B(omega) in x coordinates (linear between the ``.1``
        frequencies; below the first: A linear toward the zero-frequency limit (or held), B to
        0 at omega = 0; above the last: A -> A_inf, B = 0, as HydroDyn's kernel assumes)."""
        A = np.zeros((self.n, self.n))
        B = np.zeros((self.n, self.n))
        for data, rho, J in self.radiation:
            a, b = wamit_at(data, omega)
            A += J.T @ (rho * a) @ J
            B += J.T @ (rho * b) @ J
        return A, B


def wamit_at(data, omega: float) -> tuple[np.ndarray, np.ndarray]:
    """A(omega), B(omega) (6, 6) of a :class:`~floatwind.loads.wamit.WamitData` (its scaling)."""
    w = np.asarray(data.omega, float)
    om = float(omega)
    if om >= w[-1]:
        return np.array(data.added_mass_inf, float), np.zeros((6, 6))
    a0 = data.added_mass_zero if data.added_mass_zero is not None else data.added_mass[0]
    ws = np.concatenate([[0.0], w])
    A = np.concatenate([np.asarray(a0, float)[None], data.added_mass], axis=0)
    B = np.concatenate([np.zeros((1, 6, 6)), data.damping], axis=0)
    k = int(np.clip(np.searchsorted(ws, om) - 1, 0, ws.size - 2))
    f = (om - ws[k]) / (ws[k + 1] - ws[k])
    return (1 - f) * A[k] + f * A[k + 1], (1 - f) * B[k] + f * B[k + 1]


def energy_shares(shape: np.ndarray, M: np.ndarray, cm=None) -> np.ndarray:
    """Each DOF's share (sums to about 1) of a mode's kinetic energy, |conj(psi_i) (M_G psi)_i|,
    the platform DOFs first referred to the system CM (``cm``: its offset from the PRP,
    inertial axes), where the rigid-body mass is block-diagonal."""
    n = len(shape)
    Tc = np.eye(n)
    if cm is not None:
        r = np.asarray(cm, float)
        # u_G = u_P + theta x r  ->  u_G = u_P - [r]x theta
        Tc[:3, 3:6] = -np.array([[0, -r[2], r[1]], [r[2], 0, -r[0]], [-r[1], r[0], 0]])
    Ti = np.linalg.inv(Tc)
    psi = Tc @ shape
    e = np.abs(np.conj(psi) * ((Ti.T @ M @ Ti) @ psi))
    total = float(e.sum())
    return e / total if total > 0 else e


def dominant_dof(shape: np.ndarray, M: np.ndarray, names: list[str], cm=None) -> str:
    """The DOF with the largest share of a mode's kinetic energy (:func:`energy_shares`): a
    spar's pitch about its fairleads reads as pitch, not as the PRP's surge."""
    return names[int(np.argmax(energy_shares(shape, M, cm)))]


def _still(model: Model) -> Model:
    return dataclasses.replace(model, env=dataclasses.replace(model.env, sea=StillWater()))


class MeanWind:
    """The time-mean of a wind field: ``velocity(t, points)`` is the average of the field's
    velocity at ``points`` over ``times`` (whatever t), so a load reads the mean wind where it
    samples the field (the ``mean`` operating point: equilibrium under the mean thrust)."""

    accepts_time_array = False
    n_realizations = 1

    def __init__(self, wind, times: np.ndarray):
        self.wind = wind
        self.times = np.asarray(times, float)

    def velocity(self, t, points: np.ndarray) -> np.ndarray:
        acc = np.zeros(np.shape(points))
        for tau in self.times:
            acc = acc + np.broadcast_to(self.wind.velocity(float(tau), points), np.shape(points))
        return acc / self.times.size

    def describe(self) -> str:
        return f"time-mean over {self.times[0]:g}..{self.times[-1]:g} s of: {self.wind.describe()}"

    def attrs(self) -> dict:
        return {}


def _mean_wind(model: Model) -> Model:
    """The model with its wind replaced by the wind's time-mean over the run (t = 0 .. t_max,
    at most 600 samples)."""
    t_max = float(model.settings.t_max)
    times = np.linspace(0.0, t_max, int(min(600, max(2, round(t_max / 1.0)))))
    wind = MeanWind(model.env.wind, times)
    return dataclasses.replace(model, env=dataclasses.replace(model.env, wind=wind))


class MeanDrift(Load):
    """A constant wrench ``f`` (force N, moment N m; earth axes) at ``point_b`` of ``body``: the
    mean second-order wave drift of a sea, which HydroDyn applies at the WAMIT reference point in
    earth axes whatever the platform's heading (PtfmYMod = 0; floatwind.loads.drift)."""

    name = "mean_drift"

    def __init__(self, body: int, point_b, f):
        self.body = int(body)
        self.point_b = np.asarray(point_b, float)
        self.f = np.asarray(f, float)

    def wrench(self, t, kin, env) -> Wrench:
        B, b = kin.batch, self.body
        w = Wrench.zeros(B, kin.n_bodies)
        p = kin.r_G_g[:, b] + np.einsum("bij,j->bi", kin.R_b2g[:, b], self.point_b - kin.cm_b[b])
        w.add_point_force(kin, b, p[:, None], np.broadcast_to(self.f[:3], (B, 1, 3)))
        w.moment[:, b] += self.f[3:]
        return w


def mean_drift_loads(model: Model) -> list[MeanDrift]:
    """The mean wave drift of every potential-flow excitation load with second-order forces
    (MnDrift or Newman's approximation, whose time average is the same) in the case's sea:
    ``F_k = sum_j |a_j|^2 Q_k(omega_j, beta_j)`` (HydroDyn WAMIT2.f90 MnDrift_InitCalc; the
    load's :meth:`drift_terms`), averaged over the sea's realizations."""
    out = []
    if isinstance(model.env.sea, StillWater):
        return out
    for load in model.loads:
        if getattr(load, "second_order", None) is None or getattr(load, "drift", None) is None:
            continue
        mean = np.asarray(load.drift_terms(model.env)[0], float)  # (R, 6)
        out.append(MeanDrift(load.body, load.point_b, mean.mean(axis=0)))
    return out


def _log_rot(A: np.ndarray) -> np.ndarray:
    """Rotation vectors (B, 3) of rotation matrices A (B, 3, 3)."""
    v = 0.5 * np.stack([A[:, 2, 1] - A[:, 1, 2], A[:, 0, 2] - A[:, 2, 0],
                        A[:, 1, 0] - A[:, 0, 1]], axis=1)  # fmt: skip
    s = np.linalg.norm(v, axis=1)
    c = 0.5 * (np.trace(A, axis1=1, axis2=2) - 1.0)
    theta = np.arctan2(s, c)
    scale = np.where(s > 1e-300, theta / np.where(s > 1e-300, s, 1.0), 1.0)
    return v * scale[:, None]


class _Coordinates:
    """The map between the system's state ``y`` and the linear coordinates at a point ``y0``."""

    def __init__(self, system: System, model: Model, y0: np.ndarray, t: float):
        self.system, self.model, self.t = system, model, float(t)
        self.y0 = y0
        nf = system.n_dof
        self.nf = nf
        self.n = 6 + nf
        self.pos = np.r_[0:6, 12 : 12 + nf]  # columns of y: g
        self.vel = np.r_[6:12, 12 + nf : 12 + 2 * nf]  # columns of y: dg/dt
        kin = self.kinematics(y0)
        self.R0 = kin.R_b2g[0, 0]

    def kinematics(self, Y: np.ndarray):
        ev = self.system.evaluate_many([self.t], Y[None], loads=[], dynamics=False)
        return ev.kin

    def x_of(self, Y: np.ndarray, kin=None) -> np.ndarray:
        """Linear coordinates (B, n) of states Y (B, n_y)."""
        kin = self.kinematics(Y) if kin is None else kin
        tree, ref = self.model.tree, self.model.ref_point_b
        R = kin.R_b2g[:, 0]
        prp = kin.r_G_g[:, 0] + np.einsum("bij,j->bi", R, ref - tree.cm_b[0])
        rot = _log_rot(np.einsum("bij,kj->bik", R, self.R0))
        return np.concatenate([prp, rot, Y[:, 12 : 12 + self.nf]], axis=1)

    def steps(self, which: str, ratio: float = 1.0) -> np.ndarray:
        s = STEP_POS if which == "pos" else STEP_VEL
        # rotations and joint angles (rad); tower modes (m of top deflection) take the same
        # 1e-4 step: the tower's response is linear in it but for the quadratic axial shortening
        return np.array([s[0]] * 3 + [s[1]] * (3 + self.nf)) / ratio

    def perturbed(self, cols: np.ndarray, h: np.ndarray, base: np.ndarray | None = None):
        """States (2 n, n_y): +h_j then -h_j in column ``cols[j]``."""
        base = self.y0 if base is None else base
        Y = np.repeat(base, 2 * self.n, axis=0)
        for j in range(self.n):
            Y[j, cols[j]] += h[j]
            Y[self.n + j, cols[j]] -= h[j]
        return Y

    def jacobian_T(self) -> np.ndarray:
        """T = dx/dg (n, n) at y0."""
        h = self.steps("pos")
        X = self.x_of(self.perturbed(self.pos, h))
        return ((X[: self.n] - X[self.n :]) / (2 * h[:, None])).T

    def body_jacobians(self, Tinv: np.ndarray):
        """Partial velocities (B_bodies, 6, n): [v_G; omega] of each body per unit dx/dt."""
        h = self.steps("vel")
        Y = np.repeat(self.y0, 2 * self.n, axis=0)
        dg = Tinv * h[None, :]  # column j: the rates giving dx/dt = h_j e_j
        for j in range(self.n):
            Y[j, self.vel] += dg[:, j]
            Y[self.n + j, self.vel] -= dg[:, j]
        kin = self.kinematics(Y)
        v = np.concatenate([kin.v_G_g, kin.w_b_g], axis=-1)  # (2n, N, 6)
        J = (v[: self.n] - v[self.n :]) / (2 * h[:, None, None])  # (n, N, 6)
        return np.transpose(J, (1, 2, 0))

    def node_jacobians(self, Tinv: np.ndarray) -> np.ndarray | None:
        """Partial velocities (J_nodes, 3, n) of a flexible tower's nodes per unit dx/dt (None
        without one): v = v_s + R (w x rho + drho) over the nodes, as
        :meth:`floatwind.multibody.flex_dynamics.FlexTower.energy`."""
        flex = self.system.flex
        if flex is None:
            return None
        from floatwind.rotation import euler123_matrix, t_omega

        h = self.steps("vel")
        Y = np.repeat(self.y0, 2 * self.n, axis=0)
        dg = Tinv * h[None, :]
        for j in range(self.n):
            Y[j, self.vel] += dg[:, j]
            Y[self.n + j, self.vel] -= dg[:, j]
        ev = self.system.evaluate_many([self.t], Y[None], loads=[], dynamics=False)
        _ext, md_ext, _qm, _qmd = ev.md.flex
        N = self.system.tree.n_bodies
        q, qd = Y[:, :6], Y[:, 6:12]
        Rg = euler123_matrix(q[:, 3:6])
        w = np.einsum("bij,bj->bi", t_omega(q[:, 3:6]), qd[:, 3:6])
        rho, drho = md_ext.rho[:, N:], md_ext.drho[:, N:]
        v = qd[:, None, 0:3] + np.einsum("bij,bkj->bki", Rg, np.cross(w[:, None], rho) + drho)
        J = (v[: self.n] - v[self.n :]) / (2 * h[:, None, None])  # (n, J, 3)
        return np.transpose(J, (1, 2, 0))


def _mass_matrix(coords: _Coordinates, Tinv: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Kinetic-energy mass matrix incl. the added mass of the loads at y (module docstring)."""
    system, tree = coords.system, coords.model.tree
    J = coords.body_jacobians(Tinv)
    ev = system.evaluate_many([coords.t], y[None], dynamics=False)
    R = ev.kin.R_b2g[0]
    added = ev.wrench.added_mass
    M = np.zeros((coords.n, coords.n))
    for b in range(tree.n_bodies):
        Mb = np.zeros((6, 6))
        Mb[:3, :3] = tree.mass[b] * np.eye(3)
        Mb[3:, 3:] = R[b] @ tree.inertia_b[b] @ R[b].T
        if added is not None:
            Mb = Mb + added[0, b]
        M += J[b].T @ Mb @ J[b]
    Jn = coords.node_jacobians(Tinv)
    if Jn is not None:  # the flexible tower's nodes (point masses)
        flex = coords.system.flex
        m = flex.node_mass[: Jn.shape[0]]
        M += np.einsum("j,jcn,jcm->nm", m, Jn, Jn)
    return M


def _check_mass(M: np.ndarray, names: list[str]) -> None:
    Ms = 0.5 * (M + M.T)
    if not np.all(np.isfinite(Ms)):
        raise CaseError("singular mass matrix: it is not finite", field="bodies")
    lam, V = np.linalg.eigh(Ms)
    scale = max(float(np.max(np.abs(lam))), 1e-300)
    k = int(np.argmin(lam))
    if lam[k] <= 1e-12 * scale:
        v = V[:, k]
        dof = names[int(np.argmax(np.abs(v)))]
        raise CaseError(
            f"singular mass matrix: no inertia in DOF {dof} (eigenvalue {lam[k]:.3g} of a matrix "
            f"whose largest is {scale:.3g})",
            field="bodies",
        )


def tower_dof_names(system: System) -> list[str]:
    """ElastoDyn's names of the tower-mode DOFs of a flexible tower (TwFADOF1, TwSSDOF1,
    TwFADOF2, TwSSDOF2: its input switches), in the order of the system's mode columns."""
    if system.flex is None:
        return []
    return [f"Tw{n[1:3]}DOF{n[3:]}" for n in system.flex.names]


def _dof_units(system: System) -> list[str]:
    """'m' or 'rad' per DOF: platform translations, rotations, joint angles, tower modes (m)."""
    nj = system.tree.n_dofs
    return ["m"] * 3 + ["rad"] * (3 + nj) + ["m"] * (system.n_dof - nj)


def _rest_model(model: Model) -> Model:
    """The model with its initial conditions at rest: no platform displacement or velocity, a
    flexible tower undeflected (a deck's initial TTDspFA/SS is a decay test's start, not an
    operating point); joint DOFs keep their initial values."""
    rest = dataclasses.replace(model, initial=InitialConditions())
    if model.tower is not None:
        rest.tower = dataclasses.replace(model.tower, initial=np.zeros_like(model.tower.initial))
    return rest


def operating_state(model: Model, system: System, at: str, t: float = 0.0) -> np.ndarray:
    """The state (1, n_y) of the operating point: ``rest`` (the undisplaced pose, zero
    velocities, an undeflected tower) or ``equilibrium`` (static equilibrium from there, a
    flexible tower's modes solved with the platform)."""
    rest_model = _rest_model(model)
    y = System(rest_model).initial_state()[:1].copy()
    y[:, 6:12] = 0.0
    if at == "rest":
        return y
    if at not in ("equilibrium", "mean"):
        raise CaseError(f"unknown operating point {at!r}; one of rest, equilibrium, mean",
                        field="--at")  # fmt: skip
    try:
        eq = static_equilibrium(rest_model, t=t, tower_modes=True)
    except SimulationError as err:
        state = np.asarray(err.state if err.state is not None else y[0, :6], float).ravel()[:6]
        ys = y.copy()
        ys[0, :6] = state
        try:
            acc = system.rhs(t, ys)[0, 6:12]
            scale = np.array([1.0, 1.0, 1.0, 1e-2, 1e-2, 1e-2])
            k = int(np.argmax(np.abs(acc) / scale))
            what = f"; largest residual acceleration in {PLATFORM_DOFS[k]} ({acc[k]:.3g} " + (
                "m/s^2)" if k < 3 else "rad/s^2)"
            )
        except Exception:  # noqa: BLE001 - the pose itself cannot be evaluated
            k, what = int(np.argmax(np.abs(state - y[0, :6]))), ""
            what = f"; it drifts furthest in {PLATFORM_DOFS[k]}"
        raise CaseError(
            f"operating point not found: the static equilibrium does not converge{what} "
            "(is that DOF restrained?)",
            field="--at",
        ) from None
    y[0, :6] = eq["q"]
    if "modes" in eq:
        nj = system.tree.n_dofs
        y[0, 12 + nj : 12 + system.n_dof] = eq["modes"]
    rhs = system.rhs(t, y)[0]
    nj, nd = system.tree.n_dofs, system.n_dof
    acc = np.concatenate([rhs[6:12], rhs[12 + nd + nj : 12 + 2 * nd]])  # platform, tower modes
    scale = np.array([1.0, 1.0, 1.0, 1e-2, 1e-2, 1e-2] + [1e-1] * (nd - nj))
    names = list(PLATFORM_DOFS) + tower_dof_names(system)
    if np.max(np.abs(acc) / scale) > 1e-6:
        k = int(np.argmax(np.abs(acc) / scale))
        raise CaseError(
            f"operating point not found: residual acceleration {acc[k]:.3g} in "
            f"{names[k]} at the end of the static-equilibrium solve",
            field="--at",
        )
    return y


def linearize(model: Model, at: str = "equilibrium", t: float = 0.0) -> Linearization:
    """Operating point and M, C, K (module docstring). ``at``: ``rest``, ``equilibrium`` (the
    static equilibrium in the case's wind at time t, still water), ``mean`` (the static
    equilibrium in the time-mean of the case's wind over the run and under the mean wave drift
    of its sea, the linearization then about that mean wind)."""
    drift = mean_drift_loads(model) if at == "mean" else []
    model = _still(model)
    if at == "mean":
        model = _mean_wind(model)
        model = dataclasses.replace(model, loads=[*model.loads, *drift])
    system = System(model)
    names = list(PLATFORM_DOFS) + list(model.tree.dof_names) + tower_dof_names(system)
    units = _dof_units(system)
    # the mass matrix first, at rest: a singular one would stop the equilibrium solve unexplained
    rest_model = _rest_model(model)
    y_rest = System(rest_model).initial_state()[:1].copy()
    y_rest[:, 6:12] = 0.0
    c_rest = _Coordinates(system, model, y_rest, t)
    _check_mass(_mass_matrix(c_rest, np.linalg.inv(c_rest.jacobian_T()), y_rest), names)

    y0 = operating_state(model, system, at, t)
    co = _Coordinates(system, model, y0, t)
    T = co.jacobian_T()
    Tinv = np.linalg.inv(T)
    M = _mass_matrix(co, Tinv, y0)
    _check_mass(M, names)
    n = co.n
    # one batched evaluation: positions and rates, steps h and h / CHECK_RATIO
    blocks = []
    for ratio in (1.0, CHECK_RATIO):
        blocks.append(co.perturbed(co.pos, co.steps("pos", ratio)))
        blocks.append(co.perturbed(co.vel, co.steps("vel", ratio)))
    Y = np.concatenate(blocks, axis=0)
    F = system.rhs(t, Y)[:, co.vel]  # (8 n, n) accelerations gdd
    mats = {}
    for r, ratio in enumerate((1.0, CHECK_RATIO)):
        for w, which in enumerate(("pos", "vel")):
            blk = F[(2 * r + w) * 2 * n : (2 * r + w + 1) * 2 * n]
            h = co.steps(which, ratio)
            D = ((blk[:n] - blk[n:]) / (2 * h[:, None])).T  # d gdd / d g (or gd)
            mats[(which, ratio)] = -M @ T @ D @ Tinv
    K, C = mats[("pos", 1.0)], mats[("vel", 1.0)]
    agree = {
        "K": _agreement(K, mats[("pos", CHECK_RATIO)], np.abs(np.diag(K))),
        "C": _agreement(
            C, mats[("vel", CHECK_RATIO)], 2.0 * np.sqrt(np.abs(np.diag(K)) * np.abs(np.diag(M)))
        ),
    }
    kin = co.kinematics(y0)
    prp = co.x_of(y0, kin)[0, :3]
    x0 = np.concatenate([prp - model.ref_point0_g, _log_rot(kin.R_b2g[:, 0])[0]])
    radiation, exc = _potential(model, co, Tinv)
    env = model.env
    water = (float(env.rho_water), float(env.gravity), float(env.water_depth))
    return Linearization(dof=names, units=units, at=at, x0=x0, M=M, C=C, K=K,
                         step_agreement=agree, radiation=radiation, excitation=exc,
                         model_name=model.name, cm_offset=y0[0, :3] - prp,
                         morison=_morison(model, co, Tinv, kin), water=water,
                         mean_drift=sum(d.f for d in drift) if drift else None)  # fmt: skip


def _agreement(A: np.ndarray, B: np.ndarray, scale: np.ndarray) -> float:
    """Largest ``|A - B|_ij / sqrt(s_i s_j)`` with a per-DOF scale ``s`` (stiffness: |K_ii|;
    damping: the critical damping 2 sqrt(|K_ii| M_ii)); a DOF of zero scale takes the largest."""
    s = np.asarray(scale, float)
    s = np.where(s > 0, s, float(np.max(s)) if np.max(s) > 0 else 1.0)
    return float(np.max(np.abs(A - B) / np.sqrt(np.outer(s, s))))


def _point_jacobian(model: Model, co: _Coordinates, Tinv: np.ndarray, body: int, point_b):
    """J (6, n): translation of ``point_b`` (body frame of ``body``) and rotation of that body
    per unit x, at the operating point (central differences through the kinematics)."""
    h = co.steps("pos")
    dg = Tinv * h[None, :]
    Y = np.repeat(co.y0, 2 * co.n, axis=0)
    for j in range(co.n):
        Y[j, co.pos] += dg[:, j]
        Y[co.n + j, co.pos] -= dg[:, j]
    kin = co.kinematics(Y)
    R = kin.R_b2g[:, body]
    p = kin.r_G_g[:, body] + np.einsum("bij,j->bi", R, np.asarray(point_b) - model.tree.cm_b[body])
    R0 = co.kinematics(co.y0).R_b2g[0, body]
    rot = _log_rot(np.einsum("bij,kj->bik", R, R0))
    w = np.concatenate([p, rot], axis=1)
    return ((w[: co.n] - w[co.n :]) / (2 * h[:, None])).T


def _potential(model: Model, co: _Coordinates, Tinv: np.ndarray) -> tuple[list, list]:
    """The potential-flow radiation loads (WamitData, rho, J) and excitation loads (WamitData,
    rho g, J, field) of the model, J from :func:`_point_jacobian`."""
    from floatwind.loads.potential import PotentialExcitation, PotentialRadiation

    rad, exc = [], []
    rho = float(getattr(model.env, "rho_water", 1025.0))
    g = float(getattr(model.env, "gravity", 9.80665))
    for i, load in enumerate(model.loads):
        if isinstance(load, PotentialRadiation):
            J = _point_jacobian(model, co, Tinv, int(load.body), load.point_b)
            rad.append((load.data, rho, J))
        elif isinstance(load, PotentialExcitation) and load.data.excitation is not None:
            J = _point_jacobian(model, co, Tinv, int(load.body), load.point_b)
            exc.append((load.data, rho * g, J, getattr(load, "_field", "") or f"loads[{i}]"))
    return rad, exc


def _morison(model: Model, co: _Coordinates, Tinv: np.ndarray, kin) -> list:
    """The wetted strips of the model's Morison loads (floatwind.linear.morison.strip_data)."""
    from floatwind.linear.morison import strip_data
    from floatwind.loads.morison import MorisonMembers

    out = []
    for i, load in enumerate(model.loads):
        if isinstance(load, MorisonMembers):
            b = int(load.body)
            J = _point_jacobian(model, co, Tinv, b, model.tree.cm_b[b])
            out.append(strip_data(load, kin, J, getattr(load, "_field", "") or f"loads[{i}]"))
    return out
