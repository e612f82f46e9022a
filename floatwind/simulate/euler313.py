"""Running a model with ``formulation: euler313`` (Wang ch. II, :mod:`floatwind.multibody.euler313`).

Composition only: tower kinematics -> the model's loads through the Load contract -> the 3-1-3
tower equations. State per member y = (theta_1, theta_2, eta, and their rates) in a chart (0:
Wang's angles, 1: the same angles relative to a reference turned 90 deg about X, used within
17 deg of vertical). The chart changes between steps, which the ``Integrator`` contract has no
hook for, so this module steps RK4 itself (stage times from ``rk4_stage_times``) and records the
chart with the state. Outputs: the usual Dataset (state channels of the momentum-cloud outputs,
from the equivalent 1-2-3 state, and the loads' own channels) plus the chapter's channels
(:data:`CHANNELS`). Its scheme (:class:`Euler313Scheme`, the stepping contract of
:mod:`floatwind.simulate.schemes`) is found for the formulation whatever the integrator name and
refuses any but ``rk4``.
"""

from __future__ import annotations

import numpy as np

from floatwind import _kernels
from floatwind.errors import CaseError, SimulationError
from floatwind.integrate.base import Recording, rk4_stage_times
from floatwind.loads.base import Wrench
from floatwind.model import Model
from floatwind.multibody import euler313 as e3
from floatwind.rotation import euler123_from_matrix, euler_rates_from_omega
from floatwind.simulate.outputs import STATE_CHANNELS, to_dataset
from floatwind.simulate.schemes import ANY, Scheme, register
from floatwind.simulate.system import System

#: output channels of the formulation: units, long name
CHANNELS: dict[str, tuple[str, str]] = {
    "theta_1": ("rad", "tower nutation, 3-1-3 angle from the vertical (Wang 2.18), in [0, pi]"),
    "theta_2": (
        "rad",
        "tower precession, 3-1-3 angle about Z (Wang 2.18); jumps by pi through vertical",
    ),
    "eta": ("rad", "tower rotation about its axis, 3-1-3 third angle (Wang 2.18)"),
    "phi": ("rad", "RNA precession angle (Wang 2.10-2.11)"),
    "theta": ("rad", "RNA nutation angle, -pi/2 = horizontal spin axis (Wang 2.5)"),
    "psi": ("rad", "rotor angle relative to the nacelle (prescribed spin)"),
    "psi_dot": ("rad/s", "RNA spin rate relative to (A, B, C) (Wang 2.26)"),
    "omega_X": ("rad/s", "tower angular velocity, earth X (Wang Fig. 8)"),
    "omega_Y": ("rad/s", "tower angular velocity, earth Y (Wang Fig. 9)"),
    "omega_Z": ("rad/s", "tower angular velocity, earth Z (Wang Fig. 9)"),
    "Mgyro313A": ("N m", "gyroscopic moment on the RNA about A (Wang 2.30)"),
    "Mgyro313B": ("N m", "gyroscopic moment on the RNA about B (Wang 2.31)"),
    "Mgyro313C": ("N m", "gyroscopic moment on the RNA about C (Wang 2.32)"),
    "MRNA313A": ("N m", "moment of the tower on the RNA about A (Wang 2.27)"),
    "MRNA313B": ("N m", "moment of the tower on the RNA about B (Wang 2.28)"),
    "MRNA313C": ("N m", "moment of the tower on the RNA about C (Wang 2.29)"),
    "chart313": (
        "-",
        "3-1-3 chart of the state: 0 Wang's angles, 1 the reference turned 90 deg about X",
    ),
}


def kernel_params(body):
    """:class:`floatwind._kernels.euler313.Params` of an ``Euler313Body`` (here, not in the
    kernels module: the kernels import nothing above them)."""
    from floatwind._kernels import euler313 as k3
    from floatwind.multibody import euler313 as e3

    return k3.Params(
        m_rna=float(body.m_rna), I_pivot=float(body.I_pivot), I_axial=float(body.I_axial),
        I_A=float(body.I_A), I_B=float(body.I_B), I_C=float(body.I_C), l_rna=float(body.l_rna),
        d_tower=float(body.d_tower), spin_axis=np.asarray(body.spin_axis, dtype=float),
        rotor_torque=float(body.rotor_torque), pivot=np.asarray(body.pivot_g, dtype=float),
        rna_singular=float(e3.RNA_SINGULAR), R_ref=np.ascontiguousarray(e3.R_REF),
        exact=body.rna_equations == "exact",
    )  # fmt: skip


class Euler313System:
    """``rhs(t, y, chart)`` of a model with ``model.euler313`` (an :class:`Euler313Body`)."""

    def __init__(self, model: Model):
        self.model = model
        self._p = None
        self.body: e3.Euler313Body = model.euler313
        if model.tree.n_bodies != 2:
            raise CaseError(
                f"formulation euler313 needs the 2-body topology (tower, rna), got "
                f"{model.tree.n_bodies} bodies",
                field="formulation",
            )
        for ld in model.loads:
            if getattr(ld, "stateful", False):
                raise CaseError(
                    f"load {ld.name!r} has states or a step memory of its own, which the euler313 "
                    "formulation does not integrate",
                    field="loads",
                )

    def state(self, t: float, y: np.ndarray, chart: np.ndarray) -> e3.State313:
        return e3.tower_kinematics(self.body, t, y[:, 0:3], y[:, 3:6], chart)

    def loads(self, t: float, st: e3.State313, keep: bool = False):
        kin = e3.body_kinematics(self.body, st, self.model.tree.cm_b)
        w = Wrench.zeros(st.ang.shape[0], 2)
        per = []
        for load in self.model.loads:
            lw = load.wrench(t, kin, self.model.env)
            w += lw
            if keep:
                per.append(lw)
        return kin, w, per

    def evaluate(self, t: float, y: np.ndarray, chart: np.ndarray):
        st = self.state(t, y, chart)
        _, w, _ = self.loads(t, st)
        return st, w, e3.forward_dynamics(self.body, st, w)

    def rhs(self, t: float, y: np.ndarray, chart: np.ndarray) -> np.ndarray:
        """(rates, accelerations) (B, 6): compiled kinematics and tower equations
        (``floatwind._kernels.euler313``) with the loads through their contract; the NumPy
        reference with ``FLOATWIND_NO_JIT`` (or ``compiled = False``)."""
        if self.compiled and _kernels.enabled():
            return self._rhs_compiled(t, y, chart)
        _, _, dyn = self.evaluate(t, y, chart)
        return np.concatenate([y[:, 3:6], dyn.acc], axis=1)

    #: use the compiled kernels when available (tests switch it off to compare)
    compiled = True

    def _rhs_compiled(self, t: float, y: np.ndarray, chart: np.ndarray) -> np.ndarray:
        from floatwind._kernels import euler313 as k3
        from floatwind.loads.base import Kinematics

        if self._p is None:
            self._p = kernel_params(self.body)
        Bn = y.shape[0]
        ang = np.ascontiguousarray(y[:, 0:3])
        rates = np.ascontiguousarray(y[:, 3:6])
        chart = np.ascontiguousarray(chart, dtype=np.int64)
        g, gd, gdd = self.body.yaw.evaluate(float(t))
        _, pd, pdd = self.body.spin.evaluate(float(t))
        r_G = np.empty((Bn, 2, 3))
        R_b2g = np.empty((Bn, 2, 3, 3))
        v_G = np.empty((Bn, 2, 3))
        w_g = np.empty((Bn, 2, 3))
        status = np.zeros(Bn, dtype=np.int64)
        k3.kinematics(self._p, ang, rates, chart, g, gd, r_G, R_b2g, v_G, w_g, status)
        if status.any():  # spin axis vertical: the NumPy path raises the clear error
            return self.rhs_numpy(t, y, chart)
        kin = Kinematics(
            t=t, r_G_g=r_G, R_b2g=R_b2g, v_G_g=v_G, w_b_g=w_g, cm_b=self.model.tree.cm_b
        )
        w = Wrench.zeros(Bn, 2)
        for load in self.model.loads:
            w += load.wrench(t, kin, self.model.env)
        coupled = w.added_mass is not None
        am = (
            np.ascontiguousarray(np.broadcast_to(w.added_mass, (Bn, 2, 6, 6)), dtype=float)
            if coupled
            else np.zeros((1, 2, 6, 6))
        )
        acc = np.empty((Bn, 3))
        k3.accelerations(
            self._p, ang, rates, chart, np.array([g, gd, gdd, pd, pdd]),
            np.ascontiguousarray(np.broadcast_to(w.force, (Bn, 2, 3)), dtype=float),
            np.ascontiguousarray(np.broadcast_to(w.moment, (Bn, 2, 3)), dtype=float),
            am, coupled, acc, status,
        )  # fmt: skip
        return np.concatenate([rates, acc], axis=1)

    def rhs_numpy(self, t: float, y: np.ndarray, chart: np.ndarray) -> np.ndarray:
        """The NumPy reference right-hand side."""
        _, _, dyn = self.evaluate(t, y, chart)
        return np.concatenate([y[:, 3:6], dyn.acc], axis=1)


def initial_state(model: Model) -> tuple[np.ndarray, np.ndarray]:
    """y0 (B, 6) and the chart (B,) from ``model.euler313_initial`` (3-1-3 angles and rates) or,
    when absent, from the model's 1-2-3 initial angles and rates."""
    from floatwind.rotation import euler123_matrix, omega_from_euler_rates

    ic = model.initial
    B = model.batch
    given = getattr(model, "euler313_initial", None)
    if given is not None:
        ang = np.broadcast_to(np.asarray(given[0], dtype=float), (B, 3)).copy()
        rates = np.broadcast_to(np.asarray(given[1], dtype=float), (B, 3)).copy()
        chart = np.zeros(B, dtype=int)
    else:
        a123 = np.broadcast_to(ic.angles, (B, 3))
        R = euler123_matrix(a123)
        w_g = np.einsum(
            "bij,bj->bi", R, omega_from_euler_rates(a123, np.broadcast_to(ic.rates, (B, 3)))
        )
        chart = np.ones(B, dtype=int)
        ang = e3.angles_from_matrix(R, chart)
        rates = e3.rates_from_omega(ang, np.einsum("bji,bj->bi", e3.xyz_frame(ang, chart), w_g))
    y = np.concatenate([ang, rates], axis=1)
    new = e3.choose_chart(ang, chart)
    y, chart = _switch(y, chart, new)
    return y, chart


def _switch(y, chart, new):
    ch = new != chart
    if not np.any(ch):
        return y, chart
    y = y.copy()
    a, r = e3.convert_chart(y[ch, 0:3], y[ch, 3:6], chart[ch], new[ch])
    y[ch, 0:3], y[ch, 3:6] = a, r
    return y, new.copy()


def integrate(system: Euler313System, y0, chart0, t_out, dt, *, bound=1e6, progress=None):
    """Fixed-step RK4 with the chart chosen between steps; returns (Recording, charts (T, B)).

    ``t_out`` must lie on the step grid (t_out[0] + k dt). On a non-finite state or one beyond
    ``bound`` raises ``SimulationError`` whose ``partial`` holds (Recording, charts).
    """
    t_out = np.asarray(t_out, dtype=float)
    T = len(t_out)
    y, chart = np.array(y0, dtype=float), np.array(chart0, dtype=int)
    Bn = y.shape[0]
    Y = np.full((T, Bn, 6), np.nan)
    CH = np.zeros((T, Bn), dtype=int)
    ks = np.rint((t_out - t_out[0]) / dt).astype(np.int64)
    if np.any(np.abs(t_out[0] + ks * dt - t_out) > 1e-9 * dt):
        raise CaseError(
            "the euler313 formulation records on its step grid: dt_out must be a multiple of dt",
            field="simulation.dt_out",
        )
    Y[0], CH[0] = y, chart
    n_rec, k, t0 = 1, 0, float(t_out[0])
    f = system.rhs
    try:
        while n_rec < T:
            t = t0 + k * dt
            new = e3.choose_chart(y[:, 0:3], chart)
            y, chart = _switch(y, chart, new)
            th, te = rk4_stage_times(t, dt)
            k1 = f(t, y, chart)
            k2 = f(th, y + 0.5 * dt * k1, chart)
            k3 = f(th, y + 0.5 * dt * k2, chart)
            k4 = f(te, y + dt * k3, chart)
            y = y + (dt / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
            k += 1
            bad = ~np.all(np.isfinite(y), axis=1)
            if bound is not None:
                bad |= np.any(np.abs(y) > bound, axis=1)
            if np.any(bad):
                raise SimulationError(
                    "the 3-1-3 state is not finite or beyond the bound",
                    time=t0 + k * dt,
                    state=y,
                    members=np.nonzero(bad)[0].tolist(),
                )
            while n_rec < T and ks[n_rec] == k:
                Y[n_rec], CH[n_rec] = y, chart
                n_rec += 1
            if progress is not None:
                progress(t0 + k * dt)
    except SimulationError as err:
        err.partial = (Recording(t_out, Y, n_rec), CH)
        raise
    return Recording(t_out, Y, T), CH


def channels(system: Euler313System, rec: Recording, charts: np.ndarray) -> dict[str, np.ndarray]:
    """The formulation's channels (:data:`CHANNELS`) at every recorded time, (T, B) each."""
    out = {name: [] for name in CHANNELS}
    for i in range(rec.n):
        t, y, ch = float(rec.t[i]), rec.y[i], charts[i]
        st, w, dyn = system.evaluate(t, y, ch)
        a0 = e3.angles_from_matrix(st.R_t, 0)
        vals = {
            "theta_1": a0[:, 0],
            "theta_2": a0[:, 1],
            "eta": a0[:, 2],
            "phi": st.phi,
            "theta": st.theta,
            "psi": np.full(y.shape[0], st.spin[0]),
            "psi_dot": dyn.psi_dot,
            "omega_X": st.w_t[:, 0],
            "omega_Y": st.w_t[:, 1],
            "omega_Z": st.w_t[:, 2],
            "chart313": ch.astype(float),
        }
        for k, ax in enumerate("ABC"):
            vals[f"Mgyro313{ax}"] = dyn.M_gyro[:, k]
            vals[f"MRNA313{ax}"] = dyn.M_ABC[:, k]
        for name in out:
            out[name].append(vals[name])
    return {name: np.stack(v) for name, v in out.items()}


def mcm_state(system: Euler313System, rec: Recording, charts: np.ndarray) -> np.ndarray:
    """The recorded states as momentum-cloud states [X1..X6, rates] (T, B, 12) of the model's
    2-body tree: system CM fixed at O_s, 1-2-3 angles of the tower."""
    T, Bn = rec.n, rec.y.shape[1]
    y = rec.y[:T].reshape(T * Bn, 6)
    ch = charts[:T].reshape(T * Bn)
    R_t = e3.tower_matrix(y[:, 0:3], ch)
    w_xyz, _ = e3.omega_xyz(y[:, 0:3], y[:, 3:6])
    w_g = np.einsum("bij,bj->bi", e3.xyz_frame(y[:, 0:3], ch), w_xyz)
    ang = euler123_from_matrix(R_t)
    rates = euler_rates_from_omega(ang, np.einsum("bji,bj->bi", R_t, w_g))
    X = np.broadcast_to(system.body.pivot_g, (T * Bn, 3))
    q = np.concatenate([X, ang, np.zeros((T * Bn, 3)), rates], axis=1)
    return q.reshape(T, Bn, 12)


class Euler313Scheme(Scheme):
    """``formulation: euler313``: its own RK4 (:func:`integrate`) from the case's initial
    conditions; writes the momentum-cloud state channels, the loads' own channels and
    :data:`CHANNELS`."""

    formulation = "euler313"
    integrators = ANY  # one integrator of its own: the others are refused in check()

    def check(self, model, *, y0, extra_channels):
        super().check(model, y0=y0, extra_channels=extra_channels)
        if y0 is not None or model.settings.integrator.lower() != "rk4":
            raise CaseError(
                "formulation euler313 runs its own RK4 from the case's initial conditions "
                "(no y0 or other integrator)",
                field="formulation",
            )
        if extra_channels is not None:
            raise CaseError(
                "formulation euler313 writes its own channels (no extra_channels)",
                field="formulation",
            )

    def run(self, model, t_out, *, y0, progress, extra_channels, channels):
        ds = run_euler313(model, t_out, progress=progress)
        if channels is not None:  # a study's channels: those the formulation writes
            ds = ds[[c for c in channels if c in ds.data_vars]]
        return ds


register(Euler313Scheme())


def run_euler313(model: Model, t_out: np.ndarray, *, progress=None):
    """Run ``model`` (``formulation: euler313``) and return the Dataset."""
    system = Euler313System(model)
    y0, c0 = initial_state(model)
    s = model.settings
    wanted = sorted(STATE_CHANNELS) + [n for ld in model.loads for n in ld.channel_info()]

    def dataset(rec, charts, status="completed"):
        rec = rec.valid() if not rec.complete else rec
        mcm = Recording(rec.t, mcm_state(system, rec, charts), rec.n)
        ds = to_dataset(model, System(model), mcm, status=status, channels=wanted)
        extra = channels(system, rec, charts)
        batched = "realization" in ds.dims
        for name, vals in extra.items():
            units, long_name = CHANNELS[name]
            v, dims = (vals.T, ("realization", "time")) if batched else (vals[:, 0], ("time",))
            ds[name] = (dims, v, {"units": units, "long_name": long_name})
        ds.attrs["formulation"] = "euler313 (Wang ch. II, rotations about the system CM)"
        return ds

    try:
        rec, charts = integrate(system, y0, c0, t_out, s.dt, bound=s.bound, progress=progress)
    except SimulationError as err:
        part = err.partial
        if part is not None and part[0].n > 0:
            err.dataset = dataset(part[0], part[1], status=str(err))
        raise
    return dataset(rec, charts)


def mcm_reference(model: Model, y0: np.ndarray, chart0: np.ndarray, t_out: np.ndarray, dt: float):
    """The same rotations-only model run by the momentum cloud core (for the cross-checks):
    :func:`floatwind.multibody.euler313.mcm_tree`, the model's loads (gravity re-sized to the
    tree), the system CM held at O_s (translational velocity and acceleration set to zero, which
    leaves the MCM's rotational equations about G_s (5.26) unchanged), RK4 with step ``dt``.

    Returns (Recording of the MCM states, the System) so that callers can evaluate body
    kinematics, angular momentum and gyroscopic moments at the recorded times.
    """
    import dataclasses

    from floatwind.integrate.base import RK4
    from floatwind.loads.simple import Gravity

    body = model.euler313
    tree = e3.mcm_tree(body)
    loads = [Gravity(masses=tree.mass) if isinstance(ld, Gravity) else ld for ld in model.loads]
    m3 = dataclasses.replace(model, tree=tree, loads=loads, formulation="mcm")
    system = System(m3)
    R_t = e3.tower_matrix(y0[:, 0:3], chart0)
    w_xyz, _ = e3.omega_xyz(y0[:, 0:3], y0[:, 3:6])
    w_g = np.einsum("bij,bj->bi", e3.xyz_frame(y0[:, 0:3], chart0), w_xyz)
    ang = euler123_from_matrix(R_t)
    rates = euler_rates_from_omega(ang, np.einsum("bji,bj->bi", R_t, w_g))
    X = np.broadcast_to(body.pivot_g, ang.shape)
    q0 = np.concatenate([X, ang, np.zeros_like(X), rates], axis=1)

    def rhs(t, y):
        y = y.copy()
        y[:, 6:9] = 0.0
        dy = system.rhs(t, y)
        dy[:, 6:9] = 0.0
        return dy

    rec = RK4(dt).run(rhs, q0, np.asarray(t_out, dtype=float))
    return rec, system
