"""Fused compiled stepping: the whole RK4 step in one compiled loop when the model allows it.

:func:`fuse` looks at a :class:`~floatwind.simulate.system.System` and, when every load, the sea
and the wind have a compiled counterpart in :mod:`floatwind._kernels.fused`, returns a
:class:`FusedRHS`: a drop-in for ``system.rhs`` that :class:`floatwind.integrate.RK4` recognises
(``rk4_chunk``) and advances many steps per call without Python in between. Anything else
(another load type, a sea without an expansion table, transient wind, member-end Morison loads,
the compiled kernels switched off) gives ``None`` with the reason, and the run uses
``system.rhs`` as before. Nothing changes in the physics: the fused loop calls the same kernels
with the same arguments as the per-load path (docs/performance.md, "fused stepping").

Supported: ``Gravity``; one ``Hydrostatics``; one ``MorisonMembers`` without member-end loads,
on still water or an :class:`~floatwind.environment.fastkin.ExpansionSea`; one ``TautMooring``;
one ``RotorThrust`` (or a study's per-member choice between ``RotorThrust`` variants) with no,
steady or full-field wind; any number of ``ConstantForce`` and ``LinearMatrices``.
"""

from __future__ import annotations

import logging
import os

import numpy as np

from floatwind import _kernels

log = logging.getLogger(__name__)

__all__ = ["FusedRHS", "fuse", "use_fused"]

#: ``FLOATWIND_NO_FUSED=1`` (read at import) keeps the Python-driven RK4 steps
_ENABLED = os.environ.get("FLOATWIND_NO_FUSED", "").strip().lower() not in (
    "1",
    "true",
    "yes",
    "on",
)


def use_fused(flag: bool) -> bool:
    """Switch the fused stepping on or off (tests, benchmarks); returns the previous state."""
    global _ENABLED
    old = _ENABLED
    _ENABLED = bool(flag)
    return old


class NotFusable(Exception):
    """The model has a part without a compiled counterpart (the message says which)."""


def _f(a, shape=None):
    a = np.ascontiguousarray(a, dtype=np.float64)
    return a if shape is None else a.reshape(shape)


def _i(a):
    return np.ascontiguousarray(a, dtype=np.int64)


_E1 = np.zeros(0)
_E2 = np.zeros((0, 3))
_I0 = np.zeros(0, dtype=np.int64)


def _pack_hydro(ld, g_rho):
    from floatwind.loads.hydrostatics import _SIN_W, _SIN_X  # the reference's slice rule

    return (
        int(ld.body),
        _f(ld.z0),
        _f(ld.z1),
        _f(ld.r0),
        _f(ld.r1),
        _f(ld.axis_xy),
        np.ascontiguousarray(ld.is_cylinder, dtype=np.bool_),
        _f(ld.full_volume),
        _f(ld.full_centroid),
        float(g_rho),
        _f(_SIN_X),
        _f(_SIN_W),
    )


_NO_HYDRO = (
    -1,
    _E1,
    _E1,
    _E1,
    _E1,
    np.zeros((0, 2)),
    np.zeros(0, dtype=np.bool_),
    _E1,
    _E2,
    0.0,
    _E1,
    _E1,
)


_NO_RUNS = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros((0, 3)))
_NO_PRUNS = _NO_RUNS + (np.zeros(1, dtype=np.int64),)


def _sea_tuple(sea, batch: int):
    """The ExpansionSea (or still water) as the fused kernel's tuple."""
    from floatwind._kernels import waves as kw
    from floatwind.environment.base import StillWater
    from floatwind.environment.fastkin import ExpansionSea

    if isinstance(sea, StillWater):
        return (
            np.zeros((1, 1, 1), dtype=np.complex64),
            1.0,
            0,
            1.0,
            0.0,
            0,
            0.0,
            1e6,
            _E1,
            np.zeros(0, dtype=np.int64),
            _E1,
            0,
            np.zeros(0, dtype=np.int64),
            np.zeros(0, dtype=np.int64),
            _E1,
            _E1,
            _E1,
            _NO_RUNS,
            _NO_PRUNS,
        )
    if not isinstance(sea, ExpansionSea):
        raise NotFusable(f"sea kinematics by {type(sea).__name__} (needs the expansion table)")
    if sea.orders.min() <= 0:
        raise NotFusable("an expansion point without interpolation nodes")
    if sea.n_realizations not in (1, batch):
        raise NotFusable("sea realizations do not match the batch")
    c = sea._jit_consts()
    h = sea._h if sea._h is not None else 0.0
    hw = sea._h if sea._h is not None else 1e6
    return (
        sea.table,
        float(sea.dt),
        1,
        float(sea.cos),
        float(sea.sin),
        int(c["mode"]),
        float(h),
        float(hw),
        c["s_eta_p"],
        c["grp"],
        c["k_eta"],
        int(sea._q_eta),
        c["starts"],
        c["orders"],
        c["k_q"],
        c["sref_q"],
        c["w_q"],
        kw.node_runs(c["k_eta"], 0, len(c["k_eta"])),
        kw.point_runs(c["k_q"], c["starts"], c["orders"]),
    )


def _pack_morison(ld, env, batch):
    if ld.end_pos_b.size:
        raise NotFusable("Morison member-end (axial) loads")
    sea = ld._sea(env, "strips", ld.strip_centre_b)
    if getattr(sea, "n_points", ld.n_strips) != ld.n_strips:
        raise NotFusable("Morison sea evaluator for other points")
    rho = float(env.rho_water)
    mor = (
        int(ld.body),
        ld.axis == "instantaneous",
        ld.surface == "still",
        rho,
        _f(ld.strip_a_b),
        _f(ld.strip_b_b),
        _f(ld.strip_axis_b),
        _f(ld.strip_cd * ld.strip_diameter),
        _f(ld.strip_cm * ld.strip_area),
        _f(rho * ld.strip_ca * ld.strip_area),
        _f(np.broadcast_to(ld.strip_length, (ld.n_strips,))),
    ) + _strip_chains(ld, sea)
    return mor, _sea_tuple(sea, batch)


def _strip_chains(ld, sea) -> tuple[np.ndarray, np.ndarray]:
    """Runs of consecutive strips whose centres are equally spaced in the body frame and share
    an elevation group (the strips of a straight member): (first strip, count) per chain, for
    ``waves.expansion_eta_chains``. Equal spacing to 1e-9 of the spacing (strips laid out by the
    member discretisation agree to round-off)."""
    cen = 0.5 * (np.asarray(ld.strip_a_b, float) + np.asarray(ld.strip_b_b, float))
    grp = np.asarray(sea._jit_consts()["grp"]) if hasattr(sea, "_jit_consts") else None
    n = cen.shape[0]
    starts, counts = [], []
    p = 0
    while p < n:
        q = p + 1
        if q < n:
            step = cen[q] - cen[p]
            size = float(np.linalg.norm(step))
            while (
                q < n
                and size > 0.0
                and float(np.linalg.norm(cen[q] - cen[q - 1] - step)) <= 1e-9 * size
                and (grp is None or grp[q] == grp[p])
            ):
                q += 1
        starts.append(p)
        counts.append(q - p)
        p = q
    return _i(starts), _i(counts)


_NO_MORISON = (-1, False, False, 0.0, _E2, _E2, _E2, _E1, _E1, _E1, _E1, _I0, _I0)


def _pack_taut(ld):
    return (
        int(ld.body),
        _f(ld.fairlead_b),
        _f(ld.anchor_g),
        _f(ld.stiffness),
        _f(ld.length),
        _f(ld.pretension),
        _f(ld.damping),
        bool(ld.allow_compression),
    )


_NO_TAUT = (-1, _E2, _E2, _E1, _E1, _E1, _E1, False)


def _pack_thrust(cands, choice, env, batch):
    b0 = cands[0]
    for c in cands[1:]:
        if (
            c.body != b0.body
            or not np.array_equal(c.rotor_centre_b, b0.rotor_centre_b)
            or not np.array_equal(c.shaft_axis_b, b0.shaft_axis_b)
        ):
            raise NotFusable("thrust variants on different rotor points")
    curves = [c.ct_curve if c.ct_mode == "variable" else None for c in cands]
    kmax = max([len(cv.wind_speed) for cv in curves if cv is not None] + [1])
    ct_v = np.zeros((len(cands), kmax))
    ct_c = np.zeros((len(cands), kmax))
    nk = np.zeros(len(cands), dtype=np.int64)
    for j, cv in enumerate(curves):
        if cv is not None:
            n = len(cv.wind_speed)
            ct_v[j, :n], ct_c[j, :n], nk[j] = cv.wind_speed, cv.ct, n
    q = 0.5 * float(env.rho_air)
    return (
        len(cands),
        int(b0.body),
        _f(b0.rotor_centre_b),
        _f(b0.shaft_axis_b),
        _i(np.broadcast_to(choice, (batch,))),
        _i([1 if c.ct_mode == "variable" else 0 for c in cands]),
        nk,
        ct_v,
        ct_c,
        _f([0.0 if c.ct_fixed is None else float(c.ct_fixed) for c in cands]),
        _f([q * c.rotor_area for c in cands]),
        _f([float(c.spin_direction * c.torque) for c in cands]),
        _f([float(c.cp_over_ct) for c in cands]),
    )


_NO_THRUST = (
    0,
    -1,
    np.zeros(3),
    np.zeros(3),
    np.zeros(1, dtype=np.int64),
    np.zeros(0, dtype=np.int64),
    np.zeros(0, dtype=np.int64),
    np.zeros((0, 1)),
    np.zeros((0, 1)),
    _E1,
    _E1,
    _E1,
    _E1,
)

_NO_GRID = np.zeros((1, 2, 2, 2, 3))


def _wind_tuple(wind, batch):
    from floatwind.environment.base import NoWind
    from floatwind.environment.wind import FullFieldWind, SteadyWind

    if isinstance(wind, NoWind) or wind is None:
        return (0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, _NO_GRID, _E1, _E1, 0.0, 1.0, 1.0, False, False)
    if type(wind) is SteadyWind:
        kind = 1 if wind.shear == "power" else 2
        return (
            kind,
            wind.speed,
            float(np.cos(wind.heading)),
            float(np.sin(wind.heading)),
            wind.ref_height,
            wind.alpha,
            wind.roughness,
            _NO_GRID,
            _E1,
            _E1,
            0.0,
            1.0,
            1.0,
            False,
            False,
        )
    if type(wind) is FullFieldWind:
        if wind.n_realizations not in (1, batch):
            raise NotFusable("wind realizations do not match the batch")
        return (
            3,
            0.0,
            float(np.cos(wind.heading)),
            float(np.sin(wind.heading)),
            1.0,
            0.0,
            1.0,
            _f(wind.grid),
            _f(wind.y),
            _f(wind.z),
            float(wind.x_offset),
            float(wind.uhub),
            float(wind.dt),
            bool(wind.periodic),
            wind.tower is not None,
        )
    raise NotFusable(f"wind of type {type(wind).__name__}")


def _pack(system):
    from floatwind.loads.hydrostatics import Hydrostatics
    from floatwind.loads.mooring import TautMooring
    from floatwind.loads.morison import MorisonMembers
    from floatwind.loads.select import SelectLoad
    from floatwind.loads.simple import ConstantForce, Gravity, LinearMatrices
    from floatwind.loads.thrust import RotorThrust

    model = system.model
    env = model.env
    B = model.batch
    N = system.tree.n_bodies
    masses_g = np.zeros(N)
    hyd, mor, taut, thr = _NO_HYDRO, _NO_MORISON, _NO_TAUT, _NO_THRUST
    sea = _sea_tuple_still = None
    cf, lin = [], []
    wind_needed = False
    for ld in system.loads:
        kind = type(ld)
        if kind is Gravity:
            masses_g = masses_g + np.asarray(ld.masses, float) * float(env.gravity)
        elif kind is Hydrostatics:
            if hyd[0] >= 0:
                raise NotFusable("more than one hydrostatics load")
            hyd = _pack_hydro(ld, float(env.rho_water) * float(env.gravity))
        elif kind is MorisonMembers:
            if mor[0] >= 0:
                raise NotFusable("more than one Morison load")
            mor, sea = _pack_morison(ld, env, B)
        elif kind is TautMooring:
            if taut[0] >= 0:
                raise NotFusable("more than one taut mooring load")
            taut = _pack_taut(ld)
        elif kind is RotorThrust or (
            kind is SelectLoad and all(type(c) is RotorThrust for c in ld.loads)
        ):
            if thr[0] > 0:
                raise NotFusable("more than one thrust load")
            if kind is RotorThrust:
                thr = _pack_thrust([ld], np.zeros(B, dtype=np.int64), env, B)
            else:
                thr = _pack_thrust(ld.loads, ld.choice, env, B)
            wind_needed = True
        elif kind is ConstantForce:
            cf.append(ld)
        elif kind is LinearMatrices:
            lin.append(ld)
        else:
            raise NotFusable(f"load {getattr(ld, 'name', kind.__name__)!r} ({kind.__name__})")
    if sea is None:
        from floatwind.environment.base import StillWater

        _sea_tuple_still = _sea_tuple(StillWater(), B)
        sea = _sea_tuple_still
    wind = _wind_tuple(env.wind if wind_needed else None, B)
    cf_t = (
        _i([c.body for c in cf]),
        _f([c.point_b for c in cf], (-1, 3)),
        _f([c.force for c in cf], (-1, 3)),
        _f([c.moment for c in cf], (-1, 3)),
    )
    lin_t = (
        _i([c.body for c in lin]),
        _f([c.point_b for c in lin], (-1, 3)),
        _f([c.point0_g for c in lin], (-1, 3)),
        _f([c.C for c in lin], (-1, 6, 6)),
        _f([c.Bd for c in lin], (-1, 6, 6)),
        _f([c.f0 for c in lin], (-1, 6)),
    )
    loads = ((_f(masses_g),), hyd, mor, taut, thr, cf_t, lin_t)
    return sea, wind, loads


class FusedRHS:
    """``system.rhs`` plus :meth:`rk4_chunk`, the compiled multi-step RK4 advance."""

    def __init__(self, system, sea, wind, loads):
        self.system = system
        self.sea, self.wind, self.loads = sea, wind, loads
        tree = system.tree
        self._total_mass = float(tree.total_mass)
        self._cm_b = _f(tree.cm_b)
        self._static = system._static
        self._rel0 = None

    def __call__(self, t: float, y: np.ndarray) -> np.ndarray:
        return self.system.rhs(t, y)

    def _rel(self, times: np.ndarray):
        from floatwind.multibody.mcm import mass_distribution, relative_kinematics_many

        tree = self.system.tree
        rel = relative_kinematics_many(tree, times)
        md = mass_distribution(tree, rel)
        T = len(times)
        N = tree.n_bodies
        return (
            _f(md.rho, (T, N, 3)),
            _f(md.drho, (T, N, 3)),
            _f(md.ddrho, (T, N, 3)),
            _f(rel.R_c2s, (T, N, 3, 3)),
            _f(rel.w_rel, (T, N, 3)),
            _f(rel.dw_rel, (T, N, 3)),
            _f(md.P, (T, 3, 3)),
            _f(md.dP, (T, 3, 3)),
            _f(md.Q, (T, 3)),
            _f(md.dQ, (T, 3)),
            self._total_mass,
            self._cm_b,
        )

    def rk4_chunk(self, ts: np.ndarray, y: np.ndarray, f: np.ndarray, t0: float, dt: float):
        """RK4 steps over the step times ``ts`` (n + 1,) from (ts[0], y, f): returns
        (Y (n+1, B, 12), F (n+1, B, 12), steps done, status). The stage times are the grid
        t0 + j dt / 2 (as ``System.use_time_grid`` for RK4)."""
        from floatwind._kernels import fused as kf

        n = len(ts) - 1
        if self._static:
            if self._rel0 is None:
                self._rel0 = self._rel(np.array([float(ts[0])]))
            rel = self._rel0
        else:
            j0 = int(round((ts[0] - t0) / (0.5 * dt)))
            rel = self._rel(t0 + (j0 + np.arange(2 * n + 1)) * (0.5 * dt))
        B = y.shape[0]
        Y = np.empty((n + 1, B, y.shape[1]))
        F = np.empty((n + 1, B, y.shape[1]))
        done, status = kf.rk4_chunk(
            _f(ts), _f(y), _f(f), self._static, rel, self.sea, self.wind, self.loads, Y, F
        )
        return Y, F, int(done), int(status)


def fuse(system) -> tuple[FusedRHS | None, str]:
    """A :class:`FusedRHS` for ``system`` and "" , or (None, the reason it cannot be fused)."""
    if not _ENABLED:
        return None, "fused stepping switched off"
    if not _kernels.enabled():
        return None, "compiled kernels off"
    try:
        sea, wind, loads = _pack(system)
    except NotFusable as err:
        return None, str(err)
    return FusedRHS(system, sea, wind, loads), ""
