"""Settings that cannot be right: one-line warnings before a run (``--strict`` makes them errors).

:func:`sanity_warnings` checks, for the fixed-step integrators (RK4, Lie-group):

* **the step against the model's natural periods**: the six base-body degrees of freedom are
  linearised about the static equilibrium (central finite differences of the accelerations of
  :meth:`System.evaluate` at rest, added mass included since the coupled 6x6 system is solved),
  the eigenvalues of ``-d qdd / d q`` = ``M^-1 K`` give the natural frequencies, and a step larger
  than a tenth of the shortest period warns (RK4 needs about ten steps per period to follow a mode
  to a fraction of a per cent; at ``--dt 5`` OC3-Hywind's yaw swings +-3 rad). Where no
  equilibrium is found the initial position is used.
* **the step against the sea**: the significant frequency of the sea is the one below which its
  components hold 99 % of the wave energy (``omega_99``; for JONSWAP Hs 5 m Tp 12 s about
  1.2 rad/s); a step larger than a tenth of ``2 pi / omega_99`` warns.
* **breaking**: Hs larger than 0.78 times the water depth (the depth-limited breaking ratio
  H/d = 0.78 of McCowan): linear Airy waves do not exist there.
* **tiny steps**: dt below 1e-5 s (tens of millions of steps for a few minutes).

:func:`check_memory` adds the gridded wave-kinematics table to the case-file estimate
(:mod:`floatwind.case.budget`). :func:`compile_notice` says when the compiled kernels are not in
numba's cache yet (the first run of an installation compiles them, about a minute).
"""

from __future__ import annotations

import logging
import math

import numpy as np

from floatwind.errors import CaseError
from floatwind.model import Model
from floatwind.simulate.schemes import lookup

log = logging.getLogger(__name__)

#: steps per shortest natural period / significant wave period below which a warning is given
STEPS_PER_PERIOD = 10.0
#: fraction of the wave energy below the significant frequency
WAVE_ENERGY_FRACTION = 0.99
#: depth-limited breaking: Hs / depth (McCowan)
BREAKING_RATIO = 0.78
#: smallest reasonable time step (s)
DT_MIN = 1e-5
#: the most fixed steps one run takes: beyond it a run is refused before it starts (a dt of
#: 1e-12 s would step for ever; issue 42, bounded work on hostile input). The one bound of
#: every runner: ``floatwind run`` (:func:`check_step_count`) and ``floatwind mbdm``
#: (floatwind.simulate.mbdm) both read it
MAX_STEPS = 1_000_000_000


def natural_periods(model: Model, system=None) -> np.ndarray:
    """Natural periods (s) of the six base-body DOFs, ascending, from the linearisation about the
    static equilibrium (member 0); modes without restoring (zero or negative stiffness) are left
    out.

    Cheap by construction (it runs before every ``floatwind run``): the 12 central differences of
    the Jacobian and the centre are one batched evaluation of the right-hand side (13 members),
    and the equilibrium is found by at most three Newton steps on those Jacobians (a model
    without one, e.g. no yaw restoring, is linearised where the Newton steps stop)."""
    from floatwind.simulate.system import System

    system = system if system is not None else System(model)
    y0 = system.initial_state()[:1].copy()
    y0[:, 6:12] = 0.0
    steps = np.array([1e-2, 1e-2, 1e-2, 1e-4, 1e-4, 1e-4])

    def jacobian(q):
        Q = np.repeat(q[None], 13, axis=0)
        for i in range(6):
            Q[1 + 2 * i, i] += steps[i]
            Q[2 + 2 * i, i] -= steps[i]
        Y = np.repeat(y0, 13, axis=0)
        Y[:, :6] = Q
        acc = system.evaluate(0.0, Y).acc.qdd
        A = np.empty((6, 6))
        for i in range(6):
            A[:, i] = (acc[1 + 2 * i] - acc[2 + 2 * i]) / (2 * steps[i])
        return acc[0], A

    q = y0[0, :6].copy()
    f, A = jacobian(q)
    for _ in range(3):
        try:
            dq = np.linalg.lstsq(A, -f, rcond=1e-10)[0]
        except np.linalg.LinAlgError:
            break
        if not np.all(np.isfinite(dq)) or abs(q[4] + dq[4]) >= 1.0:
            break
        dq = np.clip(dq, -np.array([20, 20, 20, 0.2, 0.2, 0.5]), [20, 20, 20, 0.2, 0.2, 0.5])
        q = q + dq
        f, A = jacobian(q)
        if np.max(np.abs(dq[:3])) < 1e-3 and np.max(np.abs(dq[3:])) < 1e-5:
            break
    lam = np.linalg.eigvals(-A)
    lam = lam[np.isfinite(lam)]
    lam = np.real(lam[(np.real(lam) > 0) & (np.abs(np.imag(lam)) <= 1e-6 * np.abs(lam))])
    return np.sort(2 * math.pi / np.sqrt(lam))


def _sea_figures(sea) -> tuple[float, float] | None:
    """(significant frequency omega_99 (rad/s), Hs (m)) of an irregular sea, or None."""
    omega = getattr(sea, "omega", None)
    amp = getattr(sea, "amplitude", None)
    if omega is None or amp is None:
        return None
    omega = np.asarray(omega, dtype=float).ravel()
    energy = 0.5 * np.mean(np.abs(np.asarray(amp)) ** 2, axis=0).reshape(-1)
    if energy.size != omega.size or energy.sum() <= 0:
        return None
    order = np.argsort(omega)
    cum = np.cumsum(energy[order]) / energy.sum()
    w99 = float(omega[order][min(np.searchsorted(cum, WAVE_ENERGY_FRACTION), omega.size - 1)])
    return w99, 4.0 * math.sqrt(energy.sum())


def sanity_warnings(model: Model, system=None) -> list[str]:
    """One line per setting that cannot be right (empty when all is well)."""
    s = model.settings
    out: list[str] = []
    scheme = lookup(model)
    fixed = scheme is not None and scheme.fixed_step
    if fixed and s.dt < DT_MIN:
        out.append(
            f"simulation.dt = {s.dt:g} s is below {DT_MIN:g} s: "
            f"{s.t_max / s.dt:.3g} steps for {s.t_max:g} s"
        )
    sea = getattr(model.env, "sea", None)
    figs = _sea_figures(sea) if sea is not None else None
    depth = float(getattr(model.env, "water_depth", math.inf) or math.inf)
    if figs is not None:
        w99, hs = figs
        if math.isfinite(depth) and hs > BREAKING_RATIO * depth:
            out.append(
                f"environment.waves: Hs = {hs:.3g} m exceeds {BREAKING_RATIO} x the water depth "
                f"{depth:g} m: such waves break (linear waves do not apply)"
            )
        t99 = 2 * math.pi / w99
        if fixed and s.dt > t99 / STEPS_PER_PERIOD:
            out.append(
                f"simulation.dt = {s.dt:g} s is more than a tenth of the sea's shortest "
                f"significant period {t99:.3g} s (99 % of the wave energy is below "
                f"{w99:.3g} rad/s)"
            )
    if fixed:
        try:
            periods = natural_periods(model, system)
        except Exception as exc:  # noqa: BLE001 - a check, never a failure of the run
            log.info("natural periods not computed: %s", exc)
            periods = np.array([])
        if periods.size and s.dt > periods[0] / STEPS_PER_PERIOD:
            out.append(
                f"simulation.dt = {s.dt:g} s is more than a tenth of the shortest natural period "
                f"{periods[0]:.3g} s of the linearised model (periods "
                f"{', '.join(f'{p:.3g}' for p in periods)} s)"
            )
    return out


def check_memory(model: Model) -> float:
    """The case-file estimate (:func:`floatwind.case.budget.check_run_memory`) plus the gridded
    wave-kinematics table of the loads' wave points (``Load.wave_points``: the Morison strips;
    auto mode keeps it within its budget)."""
    from floatwind.case.budget import check_run_memory, physical_memory
    from floatwind.errors import CaseError

    total = check_run_memory(model.settings, model.batch)
    sea = getattr(model.env, "sea", None)
    size = getattr(sea, "expansion_table_bytes", None)
    if size is not None and getattr(sea, "kinematics_mode", "auto") == "gridded":
        points = sum(ld.wave_points for ld in model.loads)
        table = sea.n_realizations * size(points)
        if total + table > physical_memory():
            raise CaseError(
                f"the gridded wave-kinematics table would need about {table / 1e9:.3g} GB, more "
                f"than this machine's {physical_memory() / 1e9:.3g} GB; use kinematics: auto",
                field="environment.waves.kinematics",
            )
        total += table
    return total


def compile_notice(model=None, system=None) -> str | None:
    """"compiling kernels, once per installation: ~1 min" when the compiled stepping of
    ``model`` (its combination of load kinds, ``floatwind.simulate.generate``) is not in numba's
    cache yet; None when it is, when the model steps on the Python path, or when the kernels are
    off. ``system``: the model's ``System`` when the caller has one (the pre-run checks share
    one: ``floatwind.cli._case.preflight``)."""
    try:
        from floatwind import _kernels

        if model is None or not _kernels.enabled():
            return None
        from floatwind._kernels.contract import NoCompiledForm
        from floatwind.simulate import fused
        from floatwind.simulate.generate import is_compiled
        from floatwind.simulate.system import System

        scheme = lookup(model)
        if not fused._ENABLED or scheme is None or not scheme.compiled:
            return None
        try:
            system = system if system is not None else System(model)
            loads = fused.compiled_loads(system)
        except NoCompiledForm:
            return None
        if is_compiled(loads, fused.stepper_kind(system)):
            return None
    except Exception:  # noqa: BLE001 - a notice only
        return None
    return "compiling kernels, once per installation: ~1 min"


def check_step_count(model: Model) -> None:
    """Refuse (one line naming ``simulation.dt``) a fixed-step run of more than
    :data:`MAX_STEPS` steps, before anything runs."""
    scheme = lookup(model)
    s = model.settings
    if scheme is None or not scheme.fixed_step or not s.dt > 0:
        return
    n = s.t_max / s.dt
    if not math.isfinite(n) or n > MAX_STEPS:
        raise CaseError(f"{s.t_max:g} s in steps of {s.dt:g} s is {n:.3g} steps, more than "
                        f"{MAX_STEPS:.0e}: enlarge dt or shorten the run",
                        field="simulation.dt")  # fmt: skip
