"""Running a model with ``integrator: bossak_newmark`` (SeaFEM's Bossak-Newmark, seed 002).

Two models of the body dynamics, chosen by ``simulation.bossak.rotations``:

* ``small``: the linear system M X'' + C X' + K X = F (7-1) about the mean position (the static
  equilibrium), in the MCM coordinates q = [X1..X6]; the mass-normalised K~ = M^-1 K and
  C~ = M^-1 C are central differences of the MCM accelerations there, F~(t) = M^-1 F(t) the
  accelerations at the mean position at rest. Solved directly (one system evaluation and one
  6x6 solve per step, :class:`~floatwind.integrate.bossak.BossakNewmark`).
* ``large``: every body of the tree a free rigid body with Newton's and Euler's equations in
  inertial axes with the instantaneous inertia tensor (7-5), (7-6); the tree's (locked) joints
  become rigid body links imposed with Lagrange multipliers (7-19)-(7-23)
  (:class:`~floatwind.multibody.links.LinkedBodies`); loads re-evaluated in the loads loop.

Either way the record is turned into the MCM state, so every output channel comes from the same
code as an RK4 run. Extra channels: the loads-loop and body-loop iteration counts of the step
ending at each output time (``BossakIterLoads``, ``BossakIterBody``) and, for the large-rotation
model, each link's reaction R = -A^T lambda (7-20), from (7-19) at the recorded state (as every
output is evaluated after the run), as the load of the child body on the parent at the joint
point, inertial axes (``Link<F|M><x|y|z>_<joint>``): the quantity inverse dynamics gives.

Both models step in compiled chunks when the model's loads compile (``floatwind.simulate.fused``);
docs/bossak.md has the measured accuracy and cost.
"""

from __future__ import annotations

import numpy as np

from floatwind.errors import CaseError, SimulationError
from floatwind.integrate import Recording
from floatwind.integrate import compiled_bossak as cb
from floatwind.integrate.bossak import BossakNewmark, spectral_radius_infinity
from floatwind.loads.base import Kinematics, Wrench
from floatwind.model import Model
from floatwind.multibody.links import LinkedBodies, WeldLink, pack, unpack
from floatwind.multibody.mcm import system_state_from_base
from floatwind.rotation import euler123_from_matrix, euler_rates_from_omega
from floatwind.rotation.vec import matvec
from floatwind.simulate.outputs import default_extra_channels, to_dataset
from floatwind.simulate.schemes import PITCH_GUARD, Scheme, register, say_python_path
from floatwind.simulate.system import System

__all__ = ["BossakScheme", "LinearizedSystem", "linearize", "linked_bodies", "run_bossak"]

FIELD = "simulation.integrator"


def make_bossak(model: Model) -> BossakNewmark:
    s = model.settings
    try:
        return BossakNewmark(
            s.dt, s.bossak_alpha, s.bossak_beta, aitken=s.bossak_aitken, max_iter=s.bossak_max_iter
        )
    except ValueError as exc:
        raise CaseError(str(exc), field="simulation.bossak") from None


class LinearizedSystem:
    """x'' = F~(t) - K~ (x - x0) - C~ x' for y = [x, x'] (B, 12): (7-1) about x0, mass-normalised.

    Callable as a first-order right-hand side (RK4 can run it too) and offers ``bossak_linear``
    (the constant K~, C~) so that Bossak-Newmark solves each step directly."""

    def __init__(self, system: System, x0: np.ndarray, K: np.ndarray, C: np.ndarray, fused=None):
        self.system, self.x0, self.K, self.C = system, x0, K, C
        self.fused = fused
        #: compiled whole steps (:func:`floatwind.integrate.compiled_bossak.bossak_linear_chunk`
        #: over the model's compiled right-hand side), when the model's loads compile
        self.bossak_chunk = self._chunk if fused is not None else None
        self._rel0 = None

    def forcing(self, t: float, B: int) -> np.ndarray:
        y = np.concatenate([np.broadcast_to(self.x0, (B, 6)), np.zeros((B, 6))], axis=1)
        return self.system.rhs(t, y)[:, 6:12]

    def __call__(self, t, y):
        x, v = y[:, :6], y[:, 6:12]
        a = self.forcing(t, y.shape[0]) - matvec(self.K, x - self.x0) - matvec(self.C, v)
        return np.concatenate([v, a], axis=1)

    def bossak_linear(self):
        return self.K, self.C

    def _chunk(self, ts, y, f, a0, integ, dt):
        """Whole steps over ``ts`` in compiled code: (Y, F, A, steps done, status)."""
        from floatwind._kernels.contract import f64

        fr = self.fused
        params = integ.params
        n = len(ts) - 1
        if fr._static:
            if self._rel0 is None:
                self._rel0 = fr._rel(np.array([float(ts[0])]))
            rel = self._rel0
        else:
            rel = fr._rel(np.asarray(ts, dtype=float))  # index k + 1: the end of step k
        B, m = y.shape[0], 6
        S = (
            (1.0 - params.alpha) * np.eye(m)
            + (params.beta * dt * dt) * self.K
            + (params.gamma * dt) * self.C
        )
        S = np.ascontiguousarray(np.broadcast_to(S, (B, m, m)))
        K = np.ascontiguousarray(np.broadcast_to(self.K, (B, m, m)))
        C = np.ascontiguousarray(np.broadcast_to(self.C, (B, m, m)))
        Y = np.empty((n + 1, B, 2 * m))
        F = np.empty((n + 1, B, 2 * m))
        A = np.empty((n + 1, B, m))
        done, status = fr.stepper.bossak_linear_chunk(
            f64(ts), f64(y), f64(f), f64(a0), fr.with_work(B, y.shape[1])._replace(rel=rel),
            cb.LinearModel(x0=f64(self.x0), S=S, K=K, C=C),
            cb.Newmark(alpha=params.alpha, gamma=params.gamma, beta=params.beta),
            cb.Record(Y=Y, F=F, A=A),
        )  # fmt: skip
        return Y, F, A, int(done), int(status), None


def linearize(system: System, x0: np.ndarray, B: int, t: float = 0.0) -> LinearizedSystem:
    """K~ = -dg/dx, C~ = -dg/dx' (B, 6, 6) by central differences of the MCM accelerations g at
    (x0, 0): the small-rotation model of (7-1)."""
    x0 = np.broadcast_to(np.asarray(x0, dtype=float), (B, 6)).copy()
    y0 = np.concatenate([x0, np.zeros((B, 6))], axis=1)
    steps = np.array([1e-4, 1e-4, 1e-4, 1e-6, 1e-6, 1e-6] * 2)
    J = np.zeros((B, 6, 12))
    for j in range(12):
        yp, ym = y0.copy(), y0.copy()
        yp[:, j] += steps[j]
        ym[:, j] -= steps[j]
        J[:, :, j] = (system.rhs(t, yp)[:, 6:12] - system.rhs(t, ym)[:, 6:12]) / (2 * steps[j])
    return LinearizedSystem(system, x0, -J[:, :, :6], -J[:, :, 6:])


def _tree_forces(model: Model):
    tree, loads, env = model.tree, model.loads, model.env

    def forces(t, r, R, v, w):
        kin = Kinematics(t=t, r_G_g=r, R_b2g=R, v_G_g=v, w_b_g=w, cm_b=tree.cm_b)
        total = Wrench.zeros(r.shape[0], tree.n_bodies)
        for load in loads:
            total += load.wrench(t, kin, env)
        return total.force, total.moment, total.added_mass

    return forces


def linked_bodies(model: Model, system: System, y0: np.ndarray) -> tuple[LinkedBodies, np.ndarray]:
    """The tree as free bodies with a rigid link at every joint, and the initial flat state."""
    tree = model.tree
    ev = system.evaluate(0.0, y0)
    kin = ev.kin
    links = []
    for c, joint in tree.joint_of.items():
        if not (joint.rotation.is_constant and joint.slide.is_constant):
            raise CaseError(
                f"bossak_newmark with large rotations links bodies rigidly; joint "
                f"{joint.name!r} moves (use rotations: small or integrator rk4)",
                field="simulation.bossak.rotations",
            )
        p = tree.parent[c]
        R_p, R_c = kin.R_b2g[0, p], kin.R_b2g[0, c]
        P = kin.r_G_g[0, p] + R_p @ (joint.r_J_p - tree.cm_b[p])
        links.append(
            WeldLink(
                p,
                c,
                R_p.T @ (P - kin.r_G_g[0, p]),
                R_c.T @ (P - kin.r_G_g[0, c]),
                R_p.T @ R_c,
                joint.name,
            )
        )
    lb = LinkedBodies(tree.mass, tree.inertia_b, links, _tree_forces(model))
    return lb, pack(kin.r_G_g, kin.R_b2g, kin.v_G_g, kin.w_b_g)


def compiled_linked_chunk(lb: LinkedBodies, fused):
    """``bossak_chunk`` for ``lb``: whole Bossak-Newmark steps of the linked free bodies in
    compiled code (:func:`floatwind.integrate.compiled_bossak.bossak_linked_chunk`, the model's
    compiled loads on the free bodies' kinematics)."""
    from floatwind._kernels.contract import f64

    if not all(isinstance(lk, WeldLink) for lk in lb.links):
        return None  # the compiled step knows rigid links only
    L = len(lb.links)
    la = np.array([lk.a for lk in lb.links], dtype=np.int64)
    lbi = np.array([lk.b for lk in lb.links], dtype=np.int64)
    pa = f64(np.array([lk.p_a for lk in lb.links]).reshape(L, 3))
    pb = f64(np.array([lk.p_b for lk in lb.links]).reshape(L, 3))
    C0 = f64(np.array([lk.C0 for lk in lb.links]).reshape(L, 3, 3))
    bodies = cb.Bodies(cm_b=f64(fused.system.tree.cm_b), mass=f64(lb.mass),
                       inertia_b=f64(lb.inertia_b), la=la, lb=lbi, pa=pa, pb=pb, C0=C0)  # fmt: skip

    def chunk(ts, y, f, a0, integ, dt):
        n, B, N = len(ts) - 1, y.shape[0], lb.N
        Y = np.empty((n + 1, B, 18 * N))
        F = np.empty((n + 1, B, 18 * N))
        A = np.empty((n + 1, B, 6 * N))
        IT = np.zeros((n + 1, B), dtype=np.int64)
        ITI = np.zeros((n + 1, B), dtype=np.int64)
        prm = integ.params
        done, status = fused.stepper.bossak_linked_chunk(
            f64(ts), f64(y), f64(f), f64(a0), fused.params, bodies,
            cb.Newmark(alpha=prm.alpha, gamma=prm.gamma, beta=prm.beta),
            cb.Iteration(rtol=integ.rtol, atol=integ.atol, link_tol=lb.link_tol,
                         max_iter=integ.max_iter, max_inner=lb.max_inner, aitken=integ.aitken),
            cb.LinkedRecord(Y=Y, F=F, A=A, IT=IT, ITI=ITI),
        )  # fmt: skip
        return Y, F, A, int(done), int(status), (IT, ITI)

    return chunk


def _mcm_states(model: Model, t: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """Flat free-body states (T, B, 18 N) -> MCM states (T, B, 12) from the base body."""
    T, B = Y.shape[:2]
    r, R, v, w = unpack(Y.reshape(T * B, -1), model.tree.n_bodies)
    ang = euler123_from_matrix(R[:, 0])
    rates = euler_rates_from_omega(ang, matvec(np.swapaxes(R[:, 0], -1, -2), w[:, 0]))
    q, qd = system_state_from_base(model.tree, float(t[0]), r[:, 0], ang, v[:, 0], rates)
    return np.concatenate([q, qd], axis=1).reshape(T, B, 12)


def _step_channels(model, integ, t_out, n, lb: LinkedBodies | None, Y=None) -> dict[str, tuple]:
    """Per output time: the values of the step that ends there (NaN where none does)."""
    s = model.settings
    steps = np.rint((t_out[:n] - t_out[0]) / s.dt).astype(int)
    on_grid = (np.abs(t_out[0] + steps * s.dt - t_out[:n]) <= 1e-9 * s.dt) & (steps > 0)
    idx = np.where(on_grid & (steps <= len(integ.stats.iterations)), steps - 1, -1)
    out = {}

    def pick(per_step):
        if not per_step:
            return None
        arr = np.stack(per_step).astype(float)  # (S, B, ...)
        res = np.full((n,) + arr.shape[1:], np.nan)
        res[idx >= 0] = arr[idx[idx >= 0]]
        return res

    it = pick(integ.stats.iterations)
    if it is not None:
        out["BossakIterLoads"] = (it, "1", "Bossak-Newmark loads-loop iterations of the step")
    inner = pick(integ.stats.inner)
    if inner is not None:
        out["BossakIterBody"] = (inner, "1", "Bossak-Newmark body-dynamics-loop iterations")
    if lb is not None and lb.links:
        # the reactions at the recorded states, as every output is evaluated after the run:
        # (7-19) with the links at acceleration level, R = -A^T lambda (7-20)
        lam = np.stack([lb.accelerations(float(t_out[k]), Y[k])[1] for k in range(n)])
        col = 0
        for lk in lb.links:
            # load of the child on the parent at the link point: (-lam_pos, -lam_rot)
            for k, ax in enumerate("xyz"):
                out[f"LinkF{ax}_{lk.name}"] = (
                    -lam[..., col + k],
                    "N",
                    f"link {lk.name}: force of the child body on the parent, inertial {ax}",
                )
                out[f"LinkM{ax}_{lk.name}"] = (
                    -lam[..., col + 3 + k],
                    "N m",
                    f"link {lk.name}: moment of the child body on the parent about the link "
                    f"point, inertial {ax}",
                )
            col += lk.n_eq
    return out


class BossakScheme(Scheme):
    """``integrator: bossak_newmark`` on the MCM formulation (see the module docstring)."""

    integrators = ("bossak_newmark",)
    fixed_step = True
    compiled = True

    def run(self, model, t_out, *, y0, progress, extra_channels, channels):
        """``y0`` (B, 12): the MCM initial state instead of the model's initial conditions."""
        return run_bossak(
            model,
            t_out,
            y0=y0,
            progress=progress,
            extra_channels=default_extra_channels(model, extra_channels),
            channels=channels,
        )


register(BossakScheme())


def run_bossak(
    model: Model,
    t_out: np.ndarray,
    *,
    y0: np.ndarray | None = None,
    progress=None,
    extra_channels=None,
    channels=None,
):
    """Run ``model`` with Bossak-Newmark; returns the Dataset (see the module docstring).

    ``y0`` (B, 12): the MCM initial state instead of the model's initial conditions;
    ``progress``: None or a function of the simulated time."""
    s = model.settings
    system = System(model)
    if system.n_y > 12 or system.has_memory:
        name = next((ld.name for ld in model.loads if getattr(ld, "stateful", False)), "a load")
        raise CaseError(
            f"load {name!r} has states or a step memory of its own, which bossak_newmark does "
            "not integrate: use integrator rk4",
            field=FIELD,
        )
    integ = make_bossak(model)
    y12 = system.initial_state() if y0 is None else system.with_load_states(y0)
    B = y12.shape[0]
    lb = None
    if s.bossak_rotations == "small":
        from floatwind.simulate.equilibrium import static_equilibrium

        x0 = static_equilibrium(model)["q"]
        fun = linearize(system, x0, B)
        from floatwind.simulate.fused import fuse

        fused, why = fuse(system)
        if fused is not None:
            fun.fused, fun.bossak_chunk = fused, fun._chunk  # compiled whole steps
        else:
            say_python_path(model, why)
        y_start = y12
    else:
        fun, y_start = linked_bodies(model, system, y12)
        lb = fun
        from floatwind.simulate.fused import fuse

        fused, why = fuse(system)
        if fused is not None:
            lb.bossak_chunk = compiled_linked_chunk(lb, fused)  # compiled whole steps
        else:
            say_python_path(model, why)
        if lb.links and s.bossak_beta == "seafem" and s.bossak_alpha < 0:
            rho = spectral_radius_infinity(integ.params)
            raise CaseError(
                f"beta 'seafem' with alpha = {s.bossak_alpha:g} has spectral radius {rho:.4f} > 1 "
                "at high frequency, which the body links' constraint modes feel: they grow "
                "(use beta: textbook, or alpha: 0)",
                field="simulation.bossak.beta",
            )

    def finish(rec: Recording, status: str = "completed"):
        n = rec.n
        y = rec.y[:n] if lb is None else _mcm_states(model, rec.t[:n], rec.y[:n])
        ds = to_dataset(
            model,
            system,
            Recording(rec.t[:n], y, n),
            extra_channels,
            status=status,
            channels=channels,
        )
        for name, (vals, units, long_name) in _step_channels(
            model, integ, rec.t, n, lb, rec.y
        ).items():
            vals = np.swapaxes(vals, 0, 1)  # (B, T)
            dims = ("realization", "time")
            if "realization" not in ds.dims:
                vals, dims = vals[0], ("time",)
            ds[name] = (dims, vals, {"units": units, "long_name": long_name})
        summary = integ.stats.summary()
        ds.attrs.update(
            {
                "bossak_alpha": integ.params.alpha,
                "bossak_beta_rule": integ.params.beta_rule,
                "bossak_beta": integ.params.beta,
                "bossak_gamma": integ.params.gamma,
                "bossak_rotations": s.bossak_rotations,
                "bossak_aitken": int(integ.aitken),
                "bossak_mean_loads_iterations": summary.get("mean", 0.0),
            }
        )
        return ds

    try:
        # the Euler-pitch guard is on the MCM state (small rotations); the free bodies carry
        # rotation matrices and meet no singularity while stepping
        guard = PITCH_GUARD if lb is None else None
        rec = integ.run(fun, y_start, t_out, bound=s.bound, progress=progress, guard=guard)
    except SimulationError as err:
        if err.partial is not None and err.partial.n > 0:
            err.dataset = finish(err.partial, status=str(err))
        raise
    return finish(rec)
