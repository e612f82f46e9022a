"""Running a one-body model with the Lie-group generalized-alpha integrator (Giusti, seed 000).

The integrator advances (x_G, R) on R3 x SO(3) with spatial velocities; afterwards the states are
converted to the MCM state (system CM = body CM for one body, 1-2-3 Euler angles and rates) so that
every output channel is evaluated by exactly the same code as an RK4 run, and the unwrapped
rotation vector is added as the channels ``psi_x``, ``psi_y``, ``psi_z``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from floatwind.errors import CaseError, SimulationError
from floatwind.integrate import Recording
from floatwind.integrate.lie_group import LieGroupGeneralizedAlpha, LieRecording, RigidBodySpatial
from floatwind.integrate.spatial_loads import SpatialKinematics, SpatialLoad, Tangents
from floatwind.loads.base import Kinematics
from floatwind.model import Model
from floatwind.rotation import euler123_from_matrix, euler_rates_from_omega, exp_so3
from floatwind.rotation.vec import matvec
from floatwind.simulate.outputs import to_dataset
from floatwind.simulate.schemes import Scheme, register
from floatwind.simulate.system import System

PSI_CHANNELS = {
    "psi_x": ("rad", "unwrapped rotation vector of the body, inertial x (Giusti sec. 7.4.1)"),
    "psi_y": ("rad", "unwrapped rotation vector of the body, inertial y"),
    "psi_z": ("rad", "unwrapped rotation vector of the body, inertial z"),
}


def _to_mcm_state(r_G, R, v_G, w_g) -> np.ndarray:
    ang = euler123_from_matrix(R)
    w_b = matvec(np.swapaxes(R, -1, -2), w_g)
    rates = euler_rates_from_omega(ang, w_b)
    return np.concatenate([r_G, ang, v_G, rates], axis=-1)


class LieGroupScheme(Scheme):
    """``integrator: lie_generalized_alpha`` on a one-body MCM model."""

    integrators = ("lie_generalized_alpha",)
    fixed_step = True

    def check(self, model, *, y0, extra_channels):
        super().check(model, y0=y0, extra_channels=extra_channels)
        stateful = [ld.name for ld in model.loads if getattr(ld, "stateful", False)]
        if stateful:
            raise CaseError(
                f"load {stateful[0]!r} has states of its own, which the Lie-group integrator "
                "does not integrate: use integrator rk4",
                field="simulation.integrator",
            )
        if model.tree.n_bodies != 1:
            raise CaseError(
                f"the Lie-group integrator runs one rigid body; this model has "
                f"{model.tree.n_bodies}",
                field="simulation.integrator",
            )

    def run(self, model, t_out, *, y0, progress, extra_channels, channels):
        return run_lie_group(
            model, t_out, y0=y0, progress=progress, extra_channels=extra_channels,
            channels=channels,
        )  # fmt: skip


register(LieGroupScheme())


def run_lie_group(
    model: Model, t_out: np.ndarray, *, y0=None, progress=None, extra_channels=None, channels=None
):
    """Run ``model`` (one body) with ``integrator: lie_generalized_alpha``; returns the Dataset.

    ``y0`` (B, 12): the MCM initial state instead of the model's initial conditions;
    ``progress``: None or a function of the simulated time; ``extra_channels`` and ``channels``
    as in :func:`floatwind.simulate.outputs.to_dataset`. What it refuses:
    :meth:`LieGroupScheme.check`."""
    tree = model.tree
    system = System(model)
    y0 = system.initial_state() if y0 is None else system.with_load_states(y0)
    q, qd = y0[:, :6], y0[:, 6:12]
    kin = system.evaluate(0.0, y0).kin
    body = tree.bodies[0]
    s = model.settings
    try:
        out = simulate_lie_ga(
            body.mass,
            body.inertia_b,
            body.cm_b,
            model.loads,
            model.env,
            q[:, :3],
            kin.R_b2g[:, 0],
            qd[:, :3],
            kin.w_b_g[:, 0],
            t_out,
            s.dt,
            rho_inf=s.rho_inf,
            progress=progress,
        )
    except SimulationError as err:
        part = err.partial
        if part is not None and "r_G_g" in part and len(part["r_G_g"]):
            n = len(part["r_G_g"])
            y = _to_mcm_state(part["r_G_g"], part["R_b2g"], part["v_G_g"], part["w_b_g"])
            rec = Recording(t_out[:n], y, n)
            err.dataset = to_dataset(
                model, system, rec, extra_channels, status=str(err), channels=channels
            )
        raise
    y = _to_mcm_state(out["r_G_g"], out["R_b2g"], out["v_G_g"], out["w_b_g"])
    psi = out["psi"]
    rec = Recording(np.asarray(t_out), y, len(t_out))
    ds = to_dataset(model, system, rec, extra_channels, channels=channels)
    for k, name in enumerate(PSI_CHANNELS):
        units, long_name = PSI_CHANNELS[name]
        vals = psi[..., k].T  # (B, T)
        dims = ("realization", "time")
        if "realization" not in ds.dims:
            vals, dims = vals[0], ("time",)
        ds[name] = (dims, vals, {"units": units, "long_name": long_name})
    return ds


# ----------------------------------------------------------------------------------------------
# floatwind Load contract adapter (issue item 4)
# ----------------------------------------------------------------------------------------------


class FloatwindLoadsAdapter(SpatialLoad):
    """floatwind ``Load`` objects on one body (N = 1) as a :class:`SpatialLoad`.

    The residual contribution is -[force; moment about the CM] summed over the loads, plus
    ``added_mass @ [a_G; dw]`` for loads that return ``Wrench.added_mass`` (contract rule 3). The
    tangents are central finite differences: K along [dx; theta] (R -> exp(~theta) R, the
    Lie-group increment, not psi), C along the velocity [v_G; w]; M is the summed added mass.

    Parameters
    ----------
    loads : sequence of floatwind.loads.base.Load
        Loads acting on body 0.
    env : floatwind.environment.base.Environment
        Environment passed to every ``wrench`` call.
    cm_b : (3,) array_like
        CM of the body in its reference frame (m), passed as ``Kinematics.cm_b``.
    fd_step : float
        Relative finite-difference step (default 1e-6).
    """

    def __init__(self, loads: Sequence, env, *, cm_b=(0.0, 0.0, 0.0), fd_step: float = 1e-6):
        self.loads = tuple(loads)
        self.env = env
        self.cm_b = np.asarray(cm_b, dtype=float).reshape(1, 3)
        self.fd_step = float(fd_step)

    def _wrench(self, t, r, R, v):
        kin = Kinematics(
            t=float(t),
            r_G_g=r[:, None, :],
            R_b2g=R[:, None, :, :],
            v_G_g=v[:, None, :3],
            w_b_g=v[:, None, 3:],
            cm_b=self.cm_b,
        )
        B = r.shape[0]
        gen = np.zeros((B, 6))
        A = np.zeros((B, 6, 6))
        for load in self.loads:
            w = load.wrench(kin.t, kin, self.env)
            gen[:, :3] += np.broadcast_to(w.force[:, 0], (B, 3))
            gen[:, 3:] += np.broadcast_to(w.moment[:, 0], (B, 3))
            if w.added_mass is not None:
                A += np.broadcast_to(w.added_mass[:, 0], (B, 6, 6))
        return gen, A

    def _contribution(self, t, r, R, v, vdot):
        gen, A = self._wrench(t, r, R, v)
        return -gen + np.einsum("...ij,...j->...i", A, vdot)

    def residual(self, kin: SpatialKinematics) -> np.ndarray:
        return self._contribution(kin.t, kin.r_G_g, kin.R_b2g, kin.v, kin.vdot)

    def tangents(self, kin: SpatialKinematics) -> Tangents:
        r, R, v, vd, t = kin.r_G_g, kin.R_b2g, kin.v, kin.vdot, kin.t
        out = Tangents.zeros(kin.batch)
        e = self.fd_step
        for j in range(6):
            if j < 3:
                d = np.zeros(3)
                d[j] = e * max(1.0, float(np.max(np.abs(r))))
                rp = self._contribution(t, r + d, R, v, vd)
                rm = self._contribution(t, r - d, R, v, vd)
                out.K[:, :, j] = (rp - rm) / (2.0 * d[j])
            else:
                th = np.zeros(3)
                th[j - 3] = e
                rp = self._contribution(t, r, exp_so3(th) @ R, v, vd)
                rm = self._contribution(t, r, exp_so3(-th) @ R, v, vd)
                out.K[:, :, j] = (rp - rm) / (2.0 * e)
            dv = np.zeros(6)
            dv[j] = e * max(1.0, float(np.max(np.abs(v))))
            cp = self._contribution(t, r, R, v + dv, vd)
            cm = self._contribution(t, r, R, v - dv, vd)
            out.C[:, :, j] = (cp - cm) / (2.0 * dv[j])
        out.M[:] = self._wrench(t, r, R, v)[1]
        return out


def simulate_lie_ga(
    mass: float,
    J_b,
    cm_b,
    loads: Sequence,
    env,
    x0,
    R0,
    v0,
    w0,
    t_out,
    dt: float,
    *,
    rho_inf: float = 0.9,
    tol: float = 1e-10,
    max_iter: int = 25,
    fd_step: float = 1e-6,
    extra_loads: Sequence[SpatialLoad] = (),
    progress: Callable[[float], None] | None = None,
) -> LieRecording:
    """Run one floating rigid body with floatwind loads through the spatial Lie-group GA scheme.

    Parameters
    ----------
    mass : float
        Body mass (kg).
    J_b : (3, 3) array_like
        Inertia about the CM, body axes (kg m^2).
    cm_b : (3,) array_like
        CM in the body reference frame (m) (``Kinematics.cm_b`` for the loads).
    loads : sequence of floatwind ``Load``
        Loads acting on the body (gravity included if wanted: the integrator adds none).
    env : Environment
        Passed to the loads.
    x0 : (3,) or (B, 3)
        Initial CM position, inertial (m).
    R0 : (3, 3) or (B, 3, 3)
        Initial body-to-inertial rotation.
    v0, w0 : (3,) or (B, 3)
        Initial CM velocity (m/s) and angular velocity in inertial axes (rad/s).
    t_out : (T,) array_like
        Output times (s); the run starts at ``t_out[0]``.
    dt : float
        Time step (s).
    rho_inf, tol, max_iter : see :class:`LieGroupGeneralizedAlpha`.
    fd_step : float
        Relative finite-difference step of the adapter's tangents.
    extra_loads : sequence of SpatialLoad
        Loads with analytic tangents (``floatwind.loads.spatial``) added to the adapter.

    Returns
    -------
    :class:`~floatwind.integrate.lie_group.LieRecording` on ``t_out`` (arrays by name, time
    first, then batch): see
    :meth:`LieGroupGeneralizedAlpha.integrate` (``r_G_g``, ``R_b2g``, ``psi``, ``v_G_g``,
    ``w_b_g``, ...).
    """
    adapter = FloatwindLoadsAdapter(loads, env, cm_b=cm_b, fd_step=fd_step)
    model = RigidBodySpatial(
        mass=mass, J_b=np.asarray(J_b, dtype=float), loads=(adapter, *extra_loads)
    )
    ga = LieGroupGeneralizedAlpha(rho_inf=rho_inf, tol=tol, max_iter=max_iter)
    t_out = np.asarray(t_out, dtype=float)
    s0 = ga.initial_state(model, float(t_out[0]), r_G_g=x0, R_b2g=R0, v_G_g=v0, w_b_g=w0)
    return ga.integrate(model, s0, t_out, dt, progress=progress)
