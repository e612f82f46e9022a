"""Running an MBDM input file (Leble, seed 001, sec. 3-5 and 10): :func:`run_mbdm` runs the
analysis a :class:`floatwind.case.mbdm_files.MbdmModel` asks for (kinematic, sec. 3; dynamic,
sec. 4-5, after the mass-weighted assembly of sec. 10.3) and returns an ``xarray.Dataset`` whose
variables are the channels of :data:`CHANNELS` (units and descriptions declared through
:mod:`floatwind.io.channels`). ``floatwind mbdm FILE -o OUT.nc`` reads
(:func:`floatwind.case.mbdm_files.read_mbdm`) and runs it. See docs/mbdm.md.
"""

from __future__ import annotations

import time as _time
from typing import TYPE_CHECKING

import numpy as np

from floatwind.errors import CaseError, SimulationError
from floatwind.io.channels import channel_attrs, check_channel_info
from floatwind.multibody.mbdm.coordinates import G_matrix, omega_body, pdot_from_omega
from floatwind.multibody.mbdm.dynamics import dynamic_analysis
from floatwind.multibody.mbdm.kinematics import kinematic_analysis
from floatwind.multibody.mbdm.lines import line_loads
from floatwind.simulate.sanity import MAX_STEPS

if TYPE_CHECKING:
    from floatwind.case.mbdm_files import MbdmModel

__all__ = ["CHANNELS", "assemble_mass_weighted", "run_mbdm", "states_from_dataset", "step_count"]

#: the result variables of :func:`run_mbdm`: units, description (checked where declared)
CHANNELS: dict[str, tuple[str, str]] = check_channel_info({
    "body_position": ("m", "position of the body's centre of mass (origin of its local frame, "
                      "sec. 7.2) in the global frame"),
    "body_quaternion": ("1", "Euler parameters [e0, e1, e2, e3] of the body's orientation, A(p) "
                        "body to global (eqs. 1, 2)"),
    "body_velocity": ("m/s", "velocity of the centre of mass, global frame"),
    "body_acceleration": ("m/s^2", "acceleration of the centre of mass, global frame "
                          "(eq. 35 / 69)"),
    "body_angular_velocity": ("rad/s", "angular velocity omega' = 2 G pdot in the body frame "
                              "(eq. 40; MBDM's LCSomega)"),
    "constraint_drift_position": ("m, rad or 1 (per row)", "max |Phi(q, t)| over the constraint "
                                  "rows of eq. (31) (normalisation rows included)"),
    "constraint_drift_velocity": ("m/s, rad/s or 1/s (per row)", "max |Phi_q qdot - nu| "
                                  "(eq. 34)"),
    "line_tension": ("N", "spring-damper force f = k (l - l0) + b ldot (eq. 84)"),
}, "floatwind.simulate.mbdm")  # fmt: skip


def _attrs(name: str) -> dict[str, str]:
    return channel_attrs(name, CHANNELS)


def step_count(model: MbdmModel, t_end: float | None = None, dt: float | None = None) -> int:
    """The number of steps of ``model``'s run (``t_end``, ``dt``: overrides of the file's), refused
    before anything runs when it is not a positive whole number or more than
    :data:`~floatwind.simulate.sanity.MAX_STEPS` (``t_end: 1e12`` would step for ever). The
    error names the file and the line of ``t_end`` when the file's values are used, else the
    field ``t_end`` (``dt``) of the override."""
    from_file = t_end is None and dt is None
    t_end = model.t_end if t_end is None else float(t_end)
    dt = model.dt if dt is None else float(dt)
    where = {"field": "t_end"}
    if from_file:
        line = dict(model.header_lines).get("t_end")
        where = {"field": f"line {line} (t_end)" if line else "t_end", "file": str(model.path)}
    n = (t_end - model.t_start) / dt
    if not np.isfinite(n) or n > MAX_STEPS:
        raise CaseError(f"t_end - t_start = {t_end - model.t_start:g} s is {n:.3g} steps of "
                        f"{dt:g} s, more than {MAX_STEPS:.0e}: shorten the run or enlarge dt",
                        **where)  # fmt: skip
    if n < 1 - 1e-9 or abs(n - round(n)) > 1e-6 * max(1.0, n):
        raise CaseError(f"t_end - t_start = {t_end - model.t_start:g} s must be a positive whole "
                        f"number of steps of {dt:g} s", **where)  # fmt: skip
    return int(round(n))


def states_from_dataset(ds) -> tuple[np.ndarray, np.ndarray]:
    """``q, qdot`` (nt, nb, 7) of a :func:`run_mbdm` result: positions and Euler parameters, and
    their rates (``pdot`` from ``omega'``, eq. 40)."""
    p = ds.body_quaternion.values
    q = np.concatenate([ds.body_position.values, p], -1)
    qd = np.concatenate([ds.body_velocity.values,
                         pdot_from_omega(p, ds.body_angular_velocity.values)], -1)  # fmt: skip
    return q, qd


def run_mbdm(model: MbdmModel, *, method: str = "partitioning", form: str = "p",
             t_end: float | None = None, dt: float | None = None):  # fmt: skip
    """Run the file's analysis (kinematic, sec. 3; dynamic, sec. 4-5) and return an
    ``xarray.Dataset``: ``body_position`` (time, body, axis), ``body_quaternion`` (time, body,
    component), velocities, the constraint drift and (with lines) the line tensions.

    ``method``: ``partitioning`` (sec. 5, as MBDM) or ``baumgarte`` (dynamic analysis only);
    ``t_end``, ``dt`` override the file's. Assembly (sec. 10.3, :func:`assemble_mass_weighted`)
    makes the initial state consistent; its corrections are in ``ds.attrs['assembly']``.

    A run that fails or is interrupted (Ctrl-C) raises the :class:`SimulationError` with the
    Dataset of the steps recorded before it as ``err.dataset`` (its ``status`` attribute says
    where and why it stopped), as :func:`floatwind.simulate.simulate` does."""
    n_steps = step_count(model, t_end, dt)
    t_end = model.t_end if t_end is None else float(t_end)
    dt = model.dt if dt is None else float(dt)
    every = model.save_every if model.save_every > 0 else n_steps  # 0: first and last only
    system = model.system
    q0 = model.q0()
    t0 = _time.perf_counter()
    assembly = ""
    if not model.dynamic:
        times = model.t_start + dt * np.arange(n_steps + 1)
        how = "kinematic analysis (sec. 3: Newton-Raphson, eqs. 33-35)"

        def kept(res):
            """The saved times of ``res`` (every ``every``-th and its last) and their drift."""
            last = res.time.size - 1
            keep = np.unique(np.r_[np.arange(0, last + 1, every), last])
            t, q, qd, qdd = res.time[keep], res.q[keep], res.qdot[keep], res.qddot[keep]
            drift_p, drift_v = [], []
            for k in range(t.size):
                rows = system.evaluate(q[k], qd[k], float(t[k]))
                drift_p.append(np.max(np.abs(rows.phi)))
                drift_v.append(np.max(np.abs(rows.rate - rows.nu)))
            return t, q, qd, qdd, np.array(drift_p), np.array(drift_v)

        try:
            res = kinematic_analysis(system, q0, times, tol=model.nr_tol,
                                     max_iter=model.nr_steps)  # fmt: skip
        except SimulationError as err:  # keep the partial record, like `floatwind run`
            part = getattr(err, "result", None)
            if part is not None and part.time.size:
                err.dataset = _dataset(model, *kept(part), how=how, method=method, dt=dt,
                                       t_end=t_end, assembly="", wall=_time.perf_counter() - t0,
                                       status=f"stopped at t = {err.time:g} s: {err}")  # fmt: skip
            raise
        t, q, qd, qdd, drift_p, drift_v = kept(res)
        dsys = None
    else:
        if method not in ("partitioning", "baumgarte"):
            raise CaseError(f"method must be 'partitioning' or 'baumgarte', not {method!r}",
                            field="--method")  # fmt: skip
        dsys = model.dynamic_system()
        qd0 = model.qdot0()
        q, qd = assemble_mass_weighted(model, q0, qd0, model.t_start,
                                       tol=min(model.nr_tol, 1e-12),
                                       max_iter=max(model.nr_steps, 50))  # fmt: skip
        assembly = _assembly_text(model, q0, qd0, q, qd)
        integ = "coordinate partitioning, sec. 5" if method == "partitioning" else "Baumgarte"
        how = f"dynamic analysis ({integ}, RK4, eq. ({'69' if form == 'p' else '67'}))"
        try:
            res = dynamic_analysis(dsys, q, qd, t_end, dt, method=method, form=form,
                                   save_every=every, tol=model.nr_tol, max_iter=model.nr_steps,
                                   t_start=model.t_start)  # fmt: skip
        except SimulationError as err:  # keep the partial record, like `floatwind run`
            part = getattr(err, "result", None)
            if part is not None:
                err.dataset = _dataset(model, part.time, part.q, part.qdot, part.qddot,
                                       part.drift_position, part.drift_velocity, how=how,
                                       method=method, dt=dt, t_end=t_end, assembly=assembly,
                                       wall=_time.perf_counter() - t0,
                                       status=f"stopped at t = {err.time:g} s: {err}")  # fmt: skip
            raise
        t, q, qd, qdd = res.time, res.q, res.qdot, res.qddot
        drift_p, drift_v = res.drift_position, res.drift_velocity
    return _dataset(model, t, q, qd, qdd, drift_p, drift_v, how=how, method=method, dt=dt,
                    t_end=t_end, assembly=assembly, wall=_time.perf_counter() - t0,
                    status="completed")  # fmt: skip


def _dataset(model, t, q, qd, qdd, drift_p, drift_v, *, how, method, dt, t_end, assembly, wall,
             status):  # fmt: skip
    """The result Dataset of recorded states (see :func:`run_mbdm`)."""
    import xarray as xr

    import floatwind

    axis = xr.Variable("axis", ["x", "y", "z"], {"long_name": "global axis"})
    comp = xr.Variable("component", ["e0", "e1", "e2", "e3"],
                       {"long_name": "Euler parameter (eq. 1)"})  # fmt: skip
    w = omega_body(q[..., 3:], qd[..., 3:])
    data = {
        "body_position": (("time", "body", "axis"), q[..., :3], _attrs("body_position")),
        "body_quaternion": (("time", "body", "component"), q[..., 3:], _attrs("body_quaternion")),
        "body_velocity": (("time", "body", "axis"), qd[..., :3], _attrs("body_velocity")),
        "body_acceleration": (("time", "body", "axis"), qdd[..., :3],
                              _attrs("body_acceleration")),
        "body_angular_velocity": (("time", "body", "axis"), w, _attrs("body_angular_velocity")),
        "constraint_drift_position": (("time",), np.asarray(drift_p, float),
                                      _attrs("constraint_drift_position")),
        "constraint_drift_velocity": (("time",), np.asarray(drift_v, float),
                                      _attrs("constraint_drift_velocity")),
    }  # fmt: skip
    coords = {
        "time": xr.Variable("time", t, {"units": "s", "long_name": "simulation time"}),
        "body": xr.Variable("body", list(model.body_names), {"long_name": "body name (sec. 7.2)"}),
        "axis": axis,
        "component": comp,
    }
    if model.lines:
        ten = np.array([line_loads(model.lines, q[k], qd[k])[2] for k in range(t.size)])
        data["line_tension"] = (("time", "line"), ten, _attrs("line_tension"))
        coords["line"] = xr.Variable("line", [ln.name for ln in model.lines],
                                     {"long_name": "mooring line (sec. 7.1.3)"})  # fmt: skip
    ds = xr.Dataset(data, coords=coords)
    ds.attrs.update({
        "title": f"floatwind mbdm result: {model.name}",
        "floatwind_version": floatwind.__version__,
        "case_name": model.name,
        "case_file": str(model.path),
        "case_text": model.text,
        "input_files": ", ".join(str(f) for f in model.files),
        "analysis": how,
        "method": method if model.dynamic else "kinematic",
        "dt": dt,
        "t_start": model.t_start,
        "t_end": t_end,
        "newton_tolerance": model.nr_tol,
        "gravity": list(model.gravity),
        "assembly": assembly,
        "wall_s": wall,
        "status": status,
        "conventions": "SI units; Leble's MBDM note (seed 001); global frame of the mbdm file",
    })  # fmt: skip
    return ds


def _metric(model: MbdmModel, q) -> np.ndarray:
    """The mass matrix of eq. (69), diag(m I, 4 G^T J' G), made definite along p (where G p = 0
    and the normalisation row (28) decides) by 4 max(eig J') p p^T."""
    nb = len(model.bodies)
    W = np.zeros((7 * nb, 7 * nb))
    for k, b in enumerate(model.bodies):
        c = 7 * k
        G = G_matrix(q[k, 3:])
        lam = float(np.max(np.linalg.eigvalsh(b.inertia)))
        W[c : c + 3, c : c + 3] = b.mass * np.eye(3)
        W[c + 3 : c + 7, c + 3 : c + 7] = (4.0 * G.T @ b.inertia @ G
                                           + 4.0 * lam * np.outer(q[k, 3:], q[k, 3:]))  # fmt: skip
    return W


def assemble_mass_weighted(model: MbdmModel, q0, qdot0, t: float = 0.0, *, tol: float = 1e-12,
                           max_iter: int = 50) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """The assembly of sec. 10.3 (MBDM 'solves for the initial conditions' and corrects the given
    ones) in the metric W of the mass matrix of eq. (69): Newton steps
    dq = -W^-1 Phi_q^T (Phi_q W^-1 Phi_q^T)^-1 Phi, then the velocity correction
    dqdot = W^-1 Phi_q^T (Phi_q W^-1 Phi_q^T)^-1 (nu - Phi_q qdot), the smallest change of kinetic
    energy (an impulsive projection). A light body that is misplaced moves, not the heavy crank:
    Table 28 puts the rod at y = 0.7066 m (Table 27: 0); this keeps the crank within 0.05 rad of
    phi(0) = pi where the unweighted minimum-norm ``dynamics.assemble`` turns it by 0.35 rad."""
    system = model.system
    nb = len(model.bodies)
    q = np.array(q0, dtype=float).reshape(nb, 7)
    for _ in range(max_iter):
        rows = system.evaluate(q, None, t)
        if np.max(np.abs(rows.phi)) < tol:
            break
        Wi = np.linalg.inv(_metric(model, q))
        J = rows.J
        q = q - (Wi @ J.T @ np.linalg.solve(J @ Wi @ J.T, rows.phi)).reshape(nb, 7)
    else:
        raise SimulationError("assembly (Newton on eq. 31) did not converge", time=t)
    qd = np.array(qdot0, dtype=float).reshape(nb, 7)
    rows = system.evaluate(q, qd, t)
    Wi = np.linalg.inv(_metric(model, q))
    J = rows.J
    qd = qd + (Wi @ J.T @ np.linalg.solve(J @ Wi @ J.T, rows.nu - rows.rate)).reshape(nb, 7)
    return q, qd


def _assembly_text(model, q0, qd0, q, qd) -> str:
    """The corrections assembly made (sec. 10.3: MBDM 'will report the differences')."""
    out = []
    for k, b in enumerate(model.bodies):
        dr = float(np.linalg.norm(q[k, :3] - q0[k, :3]))
        dp = float(np.linalg.norm(q[k, 3:] - q0[k, 3:]))
        dv = float(np.linalg.norm(qd[k, :3] - qd0[k, :3]))
        dw = float(np.linalg.norm(omega_body(q[k, 3:], qd[k, 3:])
                                  - omega_body(q0[k, 3:], qd0[k, 3:])))  # fmt: skip
        if max(dr, dp, dv, dw) > 1e-9:
            out.append(f"body '{b.name}': |dr| {dr:.4g} m, |dp| {dp:.4g}, |dv| {dv:.4g} m/s, "
                       f"|domega| {dw:.4g} rad/s")  # fmt: skip
    return "; ".join(out)
