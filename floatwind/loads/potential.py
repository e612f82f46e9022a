"""Linear potential flow from WAMIT coefficients (one body): radiation and first-order wave
excitation, as HydroDyn v5 applies them with ``PotMod = 1`` (the OpenFAST HydroDyn theory
manual; ``ref07_potential_decay`` / ``ref08_potential_regular`` READMEs).

Two loads, each acting at the WAMIT reference point fixed in a body (``point``, body frame;
moments about it, inertial axes):

* :class:`PotentialRadiation`: Cummins' equation without the restoring part,

      F_r(t) = -A_inf a_ref(t) - int_0^t K(t - tau) v_ref(tau) d tau,
      K(t) = (2/pi) int_0^inf B(omega) cos(omega t) d omega,

  ``a_ref``, ``v_ref`` = [translational; rotational] acceleration and velocity of the reference
  point (inertial). ``A_inf`` joins the generalised mass (``Wrench.added_mass``, moved to the
  body CM), never a lagged acceleration. The kernel is HydroDyn's: ``B`` linear between the
  ``.1`` frequencies, zero at omega = 0 and above the last frequency, sampled on
  ``omega_i = i pi / T`` (``T`` = RdtnTMax rounded up so that ``T/dt`` is even with small prime
  factors, ``i = 0..N-1``) and transformed by a type-I discrete cosine transform,
  ``K(t_k) = DCT1(B)_k / ((N-1) dt)``. The convolution is HydroDyn's discrete one
  (Conv_Radiation.f90): the velocity is sampled at every accepted step (the load's step memory)
  and ``F_k = -dt [K(m) v_{k-m}/2 + K(0) v_k/2 + sum_{j=1}^{m-1} K(m-j) v_{k-m+j}]``,
  ``m = min(k, N - 1)``, evaluated once per step; within a step the force of the last accepted
  step holds (HydroDyn's discrete state).
* :class:`PotentialExcitation`: ``F_e(t) = Re sum_k X(omega_k, beta_k) A_k e^{i omega_k t}``
  over the sea's components (WAMIT's convention: elevation ``Re{A e^{i omega t}}`` at the
  origin), ``X`` linear in frequency and heading between the ``.3`` entries (HydroDyn
  WAMIT_Interp2D_Cplx, Re and Im), the lowest frequency's value below it (HydroDyn sets the
  zero-frequency limit to it) and zero above the highest; the undisplaced position (HydroDyn
  ``ExctnDisp = 0``). HydroDyn builds this sum by an inverse FFT on SeaState's grid (WAMIT_Init,
  ``WaveExctnC = X WaveElevC0``) and interpolates it linearly between the WaveDT samples; the
  sum here is exact at any time (equal at the samples; measured on ref13: 2e-8 of the range).

Hydrostatics (``rho g V0`` plus the ``.hst`` stiffness at the reference point, as HydroDyn) is
a ``linear`` load (:class:`floatwind.loads.simple.LinearMatrices`), or floatwind's exact
``hydrostatics``: docs/loads.md.
"""

from __future__ import annotations

import logging
import math
import pathlib
from typing import NamedTuple

import numpy as np

from floatwind._kernels.contract import (
    CompiledLoad,
    NoCompiledForm,
    body_kinematics,
    f64,
    python_form,
)
from floatwind.environment.fourier import dct1, smooth_at_least
from floatwind.errors import CaseError
from floatwind.loads import radiation_fit as rf
from floatwind.loads.base import Load, Wrench
from floatwind.loads.drift import QTF_FILES
from floatwind.loads.wamit import WamitData, read_wamit
from floatwind.validate import Section, check_body, number

logger = logging.getLogger(__name__)

__all__ = [
    "PotentialExcitation",
    "PotentialExcitationSS",
    "PotentialRadiation",
    "PotentialRadiationSS",
    "radiation_kernel_table",
]


def _psf(n: int, nprimes: int = 9) -> int:
    """Smallest integer >= n whose prime factors are among the first ``nprimes`` primes (the
    NWTC library's PSF, which HydroDyn uses to size its cosine transform)."""
    return smooth_at_least(n, (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31)[:nprimes])


def radiation_kernel_table(omega, damping, t_max: float, dt: float) -> np.ndarray:
    """HydroDyn's radiation kernel ``K(k dt)`` (N, 6, 6) from ``B(omega)`` (F, 6, 6) (module
    docstring; Conv_Radiation.f90 Conv_Rdtn_Init)."""
    n = math.ceil(t_max / dt - 1e-9)
    if n % 2 == 0:
        n += 1
    n = 2 * _psf(max((n - 1) // 2, 1)) + 1
    w = np.arange(n) * (math.pi / ((n - 1) * dt))
    om = np.concatenate([[0.0], np.asarray(omega, float)])
    Bw = np.zeros((n, 6, 6))
    for i in range(6):
        for j in range(6):
            col = np.concatenate([[0.0], damping[:, i, j]])
            Bw[:, i, j] = np.interp(w, om, col, right=0.0)
    return dct1(Bw, axis=0) / ((n - 1) * dt)


def _wamit_root(sec: Section, base_dir) -> pathlib.Path:
    raw = sec.raw("wamit")
    if not isinstance(raw, str) or not raw.strip():
        raise CaseError("expected the WAMIT file root (path without .1/.3/.hst)",
                        field=sec.path("wamit"))  # fmt: skip
    root = pathlib.Path(raw)
    if not root.is_absolute() and base_dir is not None:
        root = pathlib.Path(base_dir) / root
    return root


class RadiationMemory(NamedTuple):
    """Step memory of :class:`PotentialRadiation` (one run)."""

    v: np.ndarray  # (B, 6, n + 1) reference-point velocity at the step times
    F: np.ndarray  # (n + 1, B, 6) memory force at the step times (N, N m)
    t0: float
    dt: float
    last: np.ndarray  # (1,) index of the last recorded step
    K: np.ndarray  # (P, NK) kernel entries that are not zero at k dt, rho = 1 (params: rho)
    pairs: np.ndarray  # (P, 2) their (i, j)


class PotentialRadiation(Load, kind="potential_radiation"):
    """Radiation of a WAMIT body: infinite-frequency added mass + memory convolution (module
    docstring).

    Parameters
    ----------
    body : int
    wamit : WamitData (nondimensional rho = g = 1 scaling, see :func:`read_wamit`) or the file
        root
    point_b : (3,) WAMIT reference point in the body frame (m)
    t_max : kernel length RdtnTMax (s)
    dt : kernel step RdtnDT (s) or None (the run's step); it must equal the run's step
    memory_effect : False for the added mass alone (HydroDyn ``RdtnMod = 0``)
    """

    name = "potential_radiation"
    time_independent = True
    reads_wamit = True

    openfast_wrench = "B1Rdt"  # HydroDyn B1RdtF*i / B1RdtM*i (WAMIT body 1)

    def __init__(self, *, body: int, wamit, point_b=(0.0, 0.0, 0.0), ulen: float = 1.0,
                 t_max: float = 60.0, dt: float | None = None, memory_effect: bool = True,
                 name: str | None = None, field: str = ""):  # fmt: skip
        self.body = check_body(body, f"{field}.body" if field else "body")
        self.data = wamit if isinstance(wamit, WamitData) else read_wamit(
            wamit, rho=1.0, gravity=1.0, ulen=ulen, excitation=False
        )  # fmt: skip
        self.point_b = np.asarray(point_b, dtype=float)
        self.t_max = float(t_max)
        self.kernel_dt = None if dt is None else float(dt)
        self.memory_effect = bool(memory_effect)
        if name:
            self.name = str(name)
        self._field = field
        self._tables: dict[float, tuple[np.ndarray, np.ndarray]] = {}

    @classmethod
    def from_config(cls, cfg, *, body_index, field, base_dir=None, tree=None):
        sec = Section(cfg, field, ("type", "body", "wamit", "ulen", "point", "rdtn_tmax",
                                   "rdtn_dt", "memory", "model", "ss_method", "ss_tolerance",
                                   "ss_max_order", "ss_file", "name"))  # fmt: skip
        root = _wamit_root(sec, base_dir)
        model = sec.choice("model", ("convolution", "state_space"), "convolution")
        if model == "state_space":
            ss_file = sec.raw("ss_file", None)
            method = None if ss_file is not None else sec.choice("ss_method", rf.METHODS, "fdi")
            unused = {"rdtn_dt": "the convolution model", "memory": "the convolution model"}
            if method != "era":
                unused["rdtn_tmax"] = "the convolution and ss_method: era (the kernel's length)"
            if ss_file is not None:
                unused.update(dict.fromkeys(("ss_method", "ss_tolerance", "ss_max_order"),
                                            "a fitted model, not an ss_file"))  # fmt: skip
            for key, owner in unused.items():
                if sec.has(key):
                    raise CaseError(f"'{key}' belongs to {owner}", field=sec.path(key))
            ss = None
            if ss_file is not None:
                from floatwind.loads.hydrodyn_ss import read_checked

                path = pathlib.Path(str(ss_file))
                if not path.is_absolute() and base_dir is not None:
                    path = pathlib.Path(base_dir) / path
                ss = read_checked(path)
            ulen = sec.number("ulen", 1.0, kind="positive")
            return PotentialRadiationSS(
                body=sec.body(body_index),
                wamit=read_wamit(root, rho=1.0, gravity=1.0, ulen=ulen, excitation=False),
                point_b=sec.vector("point", [0.0, 0.0, 0.0]),
                t_max=sec.number("rdtn_tmax", 60.0, kind="positive"),
                method=method or "fdi",
                tolerance=sec.number("ss_tolerance", None, kind="positive"),
                max_order=int(sec.number("ss_max_order", 24, kind="positive")),
                ss=ss,
                name=sec.raw("name", None),
                field=field,
            )  # fmt: skip
        for key in ("ss_method", "ss_tolerance", "ss_max_order", "ss_file"):
            if sec.has(key):
                raise CaseError(f"'{key}' belongs to model: state_space", field=sec.path(key))
        return cls(
            body=sec.body(body_index),
            wamit=read_wamit(root, rho=1.0, gravity=1.0, ulen=sec.number("ulen", 1.0,
                             kind="positive"), excitation=False),
            point_b=sec.vector("point", [0.0, 0.0, 0.0]),
            t_max=sec.number("rdtn_tmax", 60.0, kind="positive"),
            dt=sec.number("rdtn_dt", None, kind="positive"),
            memory_effect=bool(sec.raw("memory", True)),
            name=sec.raw("name", None),
            field=field,
        )  # fmt: skip

    # -- step memory ---------------------------------------------------------------------
    def _table(self, dt: float):
        key = round(dt, 15)
        if key not in self._tables:
            if self.memory_effect:
                K = radiation_kernel_table(self.data.omega, self.data.damping, self.t_max, dt)
                big = np.max(np.abs(K), axis=0)
                pairs = np.argwhere((big > 1e-12 * max(float(big.max()), 1e-300)).T)[:, ::-1]  # fmt: skip
                Kp = np.ascontiguousarray(np.stack([K[:, i, j] for i, j in pairs])
                                          if len(pairs) else np.zeros((0, K.shape[0])))  # fmt: skip
            else:
                Kp = np.zeros((0, 1))
                pairs = np.zeros((0, 2), dtype=np.int64)
            self._tables[key] = (Kp, np.ascontiguousarray(pairs, dtype=np.int64))
        return self._tables[key]

    def memory(self, batch: int, t0: float, dt: float, n_steps: int):
        if dt <= 0.0:
            raise CaseError(
                "the radiation memory needs a fixed time step (integrator rk4)",
                field=f"{self._field}.rdtn_dt" if self._field else "rdtn_dt",
            )
        if self.kernel_dt is not None and abs(self.kernel_dt - dt) > 1e-9 * dt:
            raise CaseError(
                f"rdtn_dt = {self.kernel_dt:g} s differs from the run's step {dt:g} s: floatwind "
                "samples the velocity history at every step (use the same step)",
                field=f"{self._field}.rdtn_dt" if self._field else "rdtn_dt",
            )
        K, pairs = self._table(dt)
        n = int(n_steps) + 1
        return RadiationMemory(v=np.zeros((batch, 6, n)), F=np.zeros((n, batch, 6)), t0=float(t0),
                               dt=float(dt), last=np.full(1, -1, dtype=np.int64), K=K,
                               pairs=pairs)  # fmt: skip

    class Params(NamedTuple):
        body: int
        ref_b: np.ndarray  # (3,) WAMIT reference point, body frame
        a_inf: np.ndarray  # (6, 6) infinite-frequency added mass, inertial axes at the point
        rho: float  # water density (the memory's kernel is for rho = 1)
        memory: object

    def _params(self, env, memory):
        rho = float(getattr(env, "rho_water", 1025.0))
        return self.Params(body=int(self.body), ref_b=f64(self.point_b),
                           a_inf=f64(rho * self.data.added_mass_inf), rho=rho,
                           memory=memory)  # fmt: skip

    def compiled(self, env, batch):
        from floatwind._kernels import potential as kp

        return CompiledLoad(kp.radiation_kernel, self._params(env, None),
                            after_step=kp.radiation_after_step, adds_mass=True)  # fmt: skip

    def after_step(self, t, kin, env, memory, s):
        from floatwind._kernels import potential as kp

        fn = python_form(kp.radiation_after_step)
        fn(self._params(env, memory), float(t), body_kinematics(kin), np.empty((kin.batch, 0)))

    def wrench(self, t, kin, env):  # pragma: no cover - a load with a memory answers wrench_state
        return self.wrench_state(t, kin, env, None, None)[0]

    @staticmethod
    def _no_memory(batch: int) -> RadiationMemory:  # statics and start-up checks: no history
        return RadiationMemory(v=np.zeros((batch, 6, 1)), F=np.zeros((1, batch, 6)), t0=0.0,
                               dt=1.0, last=np.full(1, -1, dtype=np.int64), K=np.zeros((0, 1)),
                               pairs=np.zeros((0, 2), dtype=np.int64))  # fmt: skip

    def wrench_state(self, t, kin, env, s, memory):
        from floatwind._kernels import potential as kp

        if memory is None:
            memory = self._no_memory(kin.batch)
        B, N = kin.batch, kin.n_bodies
        force, moment = np.zeros((B, N, 3)), np.zeros((B, N, 3))
        added = np.zeros((B, N, 6, 6))
        fn = python_form(kp.radiation_kernel)
        fn(self._params(env, memory), float(t), body_kinematics(kin), np.empty((B, 0)),
           np.empty((B, 0)), force, moment, added)  # fmt: skip
        return Wrench(force, moment, added_mass=added), None

    def wrench_times(self, times, batch: int, kin, env, memory) -> Wrench:
        """The wrench of a stack of (time, member) rows (``times`` (T * batch,), time-major,
        ``System.evaluate_many``) in one compiled call: row i as :meth:`wrench_state` at
        ``times[i]`` for member ``i % batch``, the same numbers."""
        from floatwind._kernels import potential as kp

        if memory is None:
            memory = self._no_memory(batch)
        n, N = kin.batch, kin.n_bodies
        force, moment = np.zeros((n, N, 3)), np.zeros((n, N, 3))
        added = np.zeros((n, N, 6, 6))
        python_form(kp.radiation_times)(self._params(env, memory), f64(times), int(batch),
                                        body_kinematics(kin), force, moment, added)  # fmt: skip
        return Wrench(force, moment, added_mass=added)


def _phase_memory(omega: np.ndarray) -> dict:  # the last phases (_kernels.potential._phases)
    z = np.zeros(omega.size)
    return {"ph_t": np.full(1, np.nan), "ph_cs": z, "ph_sn": z.copy()}


class PotentialExcitation(Load, kind="potential_excitation"):
    """First-order wave excitation of a WAMIT body from the sea's components (module docstring).

    Parameters
    ----------
    body : int
    wamit : WamitData (rho = g = 1 scaling) or the file root
    point_b : (3,) WAMIT reference point in the body frame (m)
    """

    name = "potential_excitation"
    reads_wamit = True

    openfast_wrench = "B1Wvs"  # HydroDyn B1WvsF*i / B1WvsM*i (WAMIT body 1)

    #: second-order methods (:mod:`floatwind.loads.drift`): HydroDyn MnDrift, NewmanApp
    SECOND_ORDER = ("mean_drift", "newman")

    def __init__(self, *, body: int, wamit, point_b=(0.0, 0.0, 0.0), ulen: float = 1.0,
                 name: str | None = None, field: str = "", needs_excitation: bool = True,
                 second_order: str | None = None, qtf=None,
                 qtf_cutoffs=None, time_step: float | None = None):  # fmt: skip
        self.body = check_body(body, f"{field}.body" if field else "body")
        if time_step is not None and not (math.isfinite(time_step) and time_step > 0.0):
            raise CaseError(f"time_step must be > 0 s, got {time_step!r}",
                            field=f"{field}.time_step" if field else "time_step")  # fmt: skip
        self.time_step = None if time_step is None else float(time_step)
        self.second_order = second_order
        self.drift = None
        if second_order is not None:
            from floatwind.loads.drift import DriftData, read_mean_drift

            if second_order not in self.SECOND_ORDER:
                raise CaseError(f"second_order must be one of {', '.join(self.SECOND_ORDER)}, "
                                f"not {second_order!r}", field=f"{field}.second_order")  # fmt: skip
            self.drift = qtf if isinstance(qtf, DriftData) else read_mean_drift(qtf)
            where = f"{field}.qtf_cutoffs" if field else "qtf_cutoffs"
            lo, hi = (0.0, math.inf) if qtf_cutoffs is None else (float(x) for x in qtf_cutoffs)
            if not 0.0 <= lo < hi:
                raise CaseError(f"qtf_cutoffs must be 0 <= low < high, got {lo:g}, {hi:g}",
                                field=where)  # fmt: skip
            self.qtf_cutoffs = (lo, hi)
            if (
                second_order == "newman"
                and qtf_cutoffs is not None
                and not (self.drift.omega[0] <= lo + 1e-6 and self.drift.omega[-1] >= hi - 1e-6)
            ):  # HydroDyn NewmanApp_InitCalc: the file must span WvLowCOff..WvHiCOff
                raise CaseError(
                    f"Newman's approximation needs {self.drift.path} to span the wave cut-offs "
                    f"{lo:g}..{hi:g} rad/s; it holds {self.drift.omega[0]:.4g}.."
                    f"{self.drift.omega[-1]:.4g} rad/s (HydroDyn refuses it too)",
                    field=where,
                )  # fmt: skip
        self.data = wamit if isinstance(wamit, WamitData) else read_wamit(
            wamit, rho=1.0, gravity=1.0, ulen=ulen, excitation=needs_excitation
        )  # fmt: skip
        if needs_excitation and self.data.excitation is None:
            raise CaseError("the WAMIT data has no excitation (.3)", field=field or None)
        self._ulen = float(ulen)
        self.point_b = np.asarray(point_b, dtype=float)
        if name:
            self.name = str(name)
        self._field = field
        self._cache: dict = {}
        self._alive: dict = {}  # the seas of the cache keys (see _key)

    def _key(self, kind: str, sea) -> tuple:
        """The cache key of ``sea``: its id, with the sea kept alive by the load. An id is
        unique only while its object lives: a freed sea's id taken by a new sea (a screening's
        sea states, built one after another) would otherwise find the old sea's entry."""
        self._alive[id(sea)] = sea
        return (kind, id(sea))

    @classmethod
    def from_config(cls, cfg, *, body_index, field, base_dir=None, tree=None):
        sec = Section(cfg, field, ("type", "body", "wamit", "ulen", "point", "name", "model",
                                   "ss_file", "heading_deg", "ss_tc", "ss_tolerance",
                                   "ss_max_order", "second_order", "qtf", "qtf_cutoffs",
                                   "time_step"))  # fmt: skip
        root = _wamit_root(sec, base_dir)
        ulen = sec.number("ulen", 1.0, kind="positive")
        model = sec.choice("model", ("dft", "state_space"), "dft")
        ss_keys = ("ss_file", "heading_deg", "ss_tc", "ss_tolerance", "ss_max_order")
        order2 = sec.choice("second_order", ("none",) + cls.SECOND_ORDER, "none")
        if order2 == "none" or model != "dft":
            for key in ("qtf", "qtf_cutoffs") + (("second_order", "time_step") if model != "dft"
                                                 else ()):  # fmt: skip
                if sec.has(key):
                    raise CaseError(f"'{key}' belongs to model: dft with second_order: "
                                    "mean_drift or newman", field=sec.path(key))  # fmt: skip
        if model == "dft":
            for key in ss_keys:
                if sec.has(key):
                    raise CaseError(f"'{key}' belongs to model: state_space", field=sec.path(key))
            qtf = cuts = None
            if order2 != "none":
                kind = sec.integer("qtf", 8, minimum=7)
                if kind not in QTF_FILES:
                    raise CaseError(f"qtf must be 7, 8 or 9 (the WAMIT mean-drift file "
                                    f"<wamit>.{{7,8,9}}), got {kind}", field=sec.path("qtf"))  # fmt: skip
                qtf = root.with_name(f"{root.name}.{kind}")
                raw = sec.raw("qtf_cutoffs", None)
                if raw is not None and (not isinstance(raw, list | tuple) or len(raw) != 2):
                    raise CaseError("expected [low, high] (rad/s)", field=sec.path("qtf_cutoffs"))
                cuts = None if raw is None else [
                    number(x, f"{sec.path('qtf_cutoffs')}[{i}]", nonnegative=True)
                    for i, x in enumerate(raw)]  # fmt: skip
            return cls(body=sec.body(body_index),
                       wamit=read_wamit(root, rho=1.0, gravity=1.0, ulen=ulen),
                       point_b=sec.vector("point", [0.0, 0.0, 0.0]), name=sec.raw("name", None),
                       field=field, second_order=None if order2 == "none" else order2, qtf=qtf,
                       qtf_cutoffs=cuts,
                       time_step=sec.number("time_step", None, kind="positive"))  # fmt: skip
        ss = None
        if sec.has("ss_file"):
            for key in ss_keys[1:]:
                if sec.has(key):
                    raise CaseError(f"'{key}' belongs to a fitted model, not an ss_file "
                                    "(the file gives its wave direction and Tc)",
                                    field=sec.path(key))  # fmt: skip
            from floatwind.loads.hydrodyn_ss import read_checked_exctn

            path = pathlib.Path(str(sec.raw("ss_file")))
            if not path.is_absolute() and base_dir is not None:
                path = pathlib.Path(base_dir) / path
            ss = read_checked_exctn(path)
        tc = sec.raw("ss_tc", "auto")
        if tc != "auto":
            tc = sec.number("ss_tc", None)
        return PotentialExcitationSS(
            body=sec.body(body_index),
            wamit=read_wamit(root, rho=1.0, gravity=1.0, ulen=ulen, excitation=ss is None),
            point_b=sec.vector("point", [0.0, 0.0, 0.0]),
            heading_deg=sec.number("heading_deg", 0.0), tc=tc,
            tolerance=sec.number("ss_tolerance", 1e-2, kind="positive"),
            max_order=int(sec.number("ss_max_order", 40, kind="positive")),
            ss=ss, name=sec.raw("name", None), field=field,
        )  # fmt: skip

    def coefficients(self, env) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(omega (M,), Re c (R, M, 6), Im c (R, M, 6)) of ``F = Re sum c e^{i omega t}``."""
        sea = env.sea
        key = self._key("coefficients", sea)
        if key in self._cache:
            return self._cache[key]
        if not hasattr(sea, "amplitude"):  # still water
            out = (np.zeros(0), np.zeros((1, 0, 6)), np.zeros((1, 0, 6)))
            self._cache[key] = out
            return out
        if not all(hasattr(sea, a) for a in ("omega", "cos_th", "sin_th")):
            raise NoCompiledForm(f"the sea {type(sea).__name__} gives no wave components")
        d = self.data
        rg = float(env.rho_water) * float(env.gravity)
        omega = np.asarray(sea.omega, float)
        A = np.atleast_2d(sea.amplitude)  # (R, M): eta = Re A e^{i(k.x - omega t)}
        beta = np.arctan2(np.atleast_2d(sea.sin_th), np.atleast_2d(sea.cos_th))  # (R|1, M)
        hmin, hmax = float(d.exc_heading[0]), float(d.exc_heading[-1])
        if np.any(beta < hmin - 1e-9) or np.any(beta > hmax + 1e-9):
            bad = float(np.degrees(beta.ravel()[np.argmax((beta < hmin - 1e-9)
                                                          | (beta > hmax + 1e-9))]))  # fmt: skip
            raise CaseError(
                f"wave heading {bad:g} deg lies outside the WAMIT .3 headings "
                f"{math.degrees(hmin):g}..{math.degrees(hmax):g} deg (HydroDyn interpolates "
                "within the file's headings only)",
                field=f"{self._field}.wamit" if self._field else "wamit",
            )
        R = A.shape[0]
        X = np.zeros((max(R, beta.shape[0]), omega.size, 6), dtype=complex)
        for r in range(X.shape[0]):
            bt = beta[min(r, beta.shape[0] - 1)]
            for i in range(6):
                for part in (0, 1):
                    tab = d.excitation[:, :, i].real if part == 0 else d.excitation[:, :, i].imag
                    # frequency first, then heading (HydroDyn WAMIT_Init + WAMIT_Interp2D_Cplx:
                    # bilinear in Re/Im). Below the lowest .3 frequency the value of the lowest
                    # (HydroDyn copies it to the zero-frequency limit), above the highest zero
                    # (ref13: SeaState's components above 4 rad/s give no force)
                    per_h = np.array([np.interp(omega, d.exc_omega, tab[:, h], left=tab[0, h],
                                                right=0.0) for h in range(tab.shape[1])])  # fmt: skip
                    if per_h.shape[0] == 1:
                        val = per_h[0]
                    else:
                        val = np.array([np.interp(bt[m], d.exc_heading, per_h[:, m])
                                        for m in range(omega.size)])  # fmt: skip
                    X[r, :, i] += val if part == 0 else 1j * val
        c = rg * X * np.conj(A[:, :, None] if R == X.shape[0] else A[:1, :, None])
        out = (f64(omega), f64(c.real), f64(c.imag))
        self._cache[key] = out
        return out

    def drift_terms(self, env):
        """(mean (R, 6), n1 (R, M, 6), n2 (R, M, 6) complex) of the second-order force
        (:mod:`floatwind.loads.drift`): the mean drift ``sum |a|^2 Q``, and for Newman's
        approximation ``a sqrt(Q)`` where ``Q > 0`` (n1) and ``a sqrt(-Q)`` where ``Q < 0`` (n2),
        ``a`` the components' amplitudes in WAMIT's ``e^{+i omega t}`` form."""
        from floatwind.loads.drift import drift_coefficients

        key = self._key("drift", env.sea)
        if key in self._cache:
            return self._cache[key]
        w, _, _ = self.coefficients(env)
        sea = env.sea
        if w.size == 0:
            out = (np.zeros((1, 6)), np.zeros((1, 0, 6), complex), np.zeros((1, 0, 6), complex))
        else:
            A = np.conj(np.atleast_2d(sea.amplitude))
            beta = np.arctan2(np.atleast_2d(sea.sin_th), np.atleast_2d(sea.cos_th))
            Q = drift_coefficients(self.drift, w, A, beta,
                                   rho_g=float(env.rho_water) * float(env.gravity),
                                   ulen=self._ulen, cutoffs=self.qtf_cutoffs,
                                   field=f"{self._field}.qtf" if self._field else "qtf")  # fmt: skip
            A = A if A.shape[0] == Q.shape[0] else np.repeat(A[:1], Q.shape[0], axis=0)
            mean = np.sum(np.abs(A[:, :, None]) ** 2 * Q, axis=1)
            n1 = A[:, :, None] * np.sqrt(np.maximum(Q, 0.0))
            n2 = A[:, :, None] * np.sqrt(np.maximum(-Q, 0.0))
            out = (mean, n1, n2)
        self._cache[key] = out
        return out

    class Params(NamedTuple):
        body: int
        ref_b: np.ndarray
        omega: np.ndarray  # (M,)
        c_re: np.ndarray  # (R, M, 6)
        c_im: np.ndarray  # (R, M, 6)
        ph_t: np.ndarray  # (1,) the time of the phases kept (NaN: none), _kernels.potential._phases
        ph_cs: np.ndarray  # (M,) cos(omega t) at ph_t
        ph_sn: np.ndarray  # (M,) sin(omega t) at ph_t

    class DriftParams(NamedTuple):
        body: int
        ref_b: np.ndarray
        omega: np.ndarray  # (M,)
        c_re: np.ndarray  # (R, M, 6) first order
        c_im: np.ndarray
        mean: np.ndarray  # (R, 6) mean drift (zero with Newman: in its squares)
        newman: bool
        modes: np.ndarray  # (6,) modes the drift file gives
        n1_re: np.ndarray  # (R, M, 6) Newman terms (Q > 0)
        n1_im: np.ndarray
        n2_re: np.ndarray  # (R, M, 6) Newman terms (Q < 0)
        n2_im: np.ndarray
        active: np.ndarray  # (K,) int64: the components whose Newman terms are not all zero
        ph_t: np.ndarray  # (1,) phases kept, as Params
        ph_cs: np.ndarray
        ph_sn: np.ndarray

    class TableParams(NamedTuple):
        body: int
        ref_b: np.ndarray
        dt: float
        table: np.ndarray  # (R, N + 1, 6) first + second order at n dt, last row = first

    def tables(self, env):
        """(first (R, N + 1, 6), second (R, N + 1, 6)) order force at ``n time_step`` over the
        sea's repeat period (a whole number of steps: the smallest multiple of the period that
        is), the last row repeating the first: HydroDyn's ``WaveExctn`` (WAMIT_Init: the inverse
        FFT of ``X WaveElevC0`` on SeaState's grid) and WAMIT2's mean-drift / Newman series
        (``|IFFT(a sqrt(Q))|^2``), here by an inverse FFT over the components' harmonics."""
        key = self._key("table", env.sea)
        if key in self._cache:
            return self._cache[key]
        where = f"{self._field}.time_step" if self._field else "time_step"
        w, cr, ci = self.coefficients(env)
        sea = env.sea
        dt = self.time_step
        if w.size == 0:
            out = (np.zeros((1, 2, 6)), np.zeros((1, 2, 6)))
            self._cache[key] = out
            return out
        period = getattr(sea, "period", None)
        harm = getattr(sea, "harmonic", None)
        if period is None or harm is None:
            raise CaseError("time_step tabulates the wave force over the sea's repeat period: "
                            f"this sea ({type(sea).__name__}) has none", field=where)  # fmt: skip
        mult = next((m for m in range(1, 1001) if m * period / dt <= 2e6
                     and abs(m * period / dt - round(m * period / dt)) < 1e-9 * m * period / dt),
                    None)  # fmt: skip
        if mult is None:
            raise CaseError(f"the sea's repeat period {period:g} s is not a whole number of "
                            f"time_step {dt:g} s (nor a multiple of it within 2e6 steps)",
                            field=where)  # fmt: skip
        n = int(round(mult * period / dt))
        h = np.asarray(harm, dtype=np.int64) * mult
        if h.size and int(h.max()) >= n // 2:
            raise CaseError(f"components up to {float(w.max()):.4g} rad/s lie above the table's "
                            f"Nyquist frequency pi / time_step = {math.pi / dt:.4g} rad/s",
                            field=where)  # fmt: skip

        def series(coef):  # sum_m coef_m e^{i omega_m n dt}, (R, N, 6), complex
            spec = np.zeros((coef.shape[0], n, 6), dtype=complex)
            np.add.at(spec, (slice(None), h), coef)
            return np.fft.ifft(spec, axis=1) * n

        def closed(x):  # (R, N, 6) -> (R, N + 1, 6), the last row = the first
            return np.concatenate([x, x[:, :1]], axis=1)

        first = closed(series(cr + 1j * ci).real)
        second = np.zeros_like(first)
        if self.second_order is not None:
            mean, n1, n2 = self.drift_terms(env)
            R = max(first.shape[0], mean.shape[0])
            second = np.broadcast_to(mean[:, None, :], (mean.shape[0], n + 1, 6)).copy()
            if self.second_order == "newman":
                s = np.abs(series(n1)) ** 2 - np.abs(series(n2)) ** 2
                second = closed(s * self.drift.modes)
            if R != first.shape[0]:
                first = np.repeat(first, R, axis=0)
            if R != second.shape[0]:
                second = np.repeat(second, R, axis=0)
        out = (first, second)
        self._cache[key] = out
        return out

    def _params(self, env):
        key = self._key("params", env.sea)
        if key not in self._cache:  # immutable arrays: built once per sea
            self._cache[key] = self._build_params(env)
        return self._cache[key]

    def _build_params(self, env):
        if self.time_step is not None:
            first, second = self.tables(env)
            return self.TableParams(body=int(self.body), ref_b=f64(self.point_b),
                                    dt=float(self.time_step), table=f64(first + second))  # fmt: skip
        w, cr, ci = self.coefficients(env)
        if self.second_order is None:
            return self.Params(body=int(self.body), ref_b=f64(self.point_b), omega=w, c_re=cr,
                               c_im=ci, **_phase_memory(w))  # fmt: skip
        mean, n1, n2 = self.drift_terms(env)
        newman = self.second_order == "newman"
        if not newman:
            n1 = n2 = np.zeros((1, w.size, 6), complex)
        return self.DriftParams(
            body=int(self.body), ref_b=f64(self.point_b), omega=w, c_re=cr, c_im=ci,
            mean=f64(np.zeros_like(mean) if newman else mean), newman=newman,
            modes=np.ascontiguousarray(self.drift.modes), n1_re=f64(n1.real), n1_im=f64(n1.imag),
            n2_re=f64(n2.real), n2_im=f64(n2.imag),
            active=np.ascontiguousarray(np.flatnonzero(np.any((n1 != 0) | (n2 != 0), axis=(0, 2))),
                                        dtype=np.int64),
            **_phase_memory(w),
        )  # fmt: skip

    def _kernel(self):
        from floatwind._kernels import potential as kp

        if self.time_step is not None:
            return kp.excitation_table_kernel
        return kp.excitation_kernel if self.second_order is None else kp.excitation_drift_kernel

    def compiled(self, env, batch):
        return CompiledLoad(self._kernel(), self._params(env))

    def channel_info(self):
        if self.second_order is None:
            return {}
        out = {}
        for order, what in (("1", "first-order wave excitation"),
                            ("2", "second-order wave force (mean drift or Newman)")):  # fmt: skip
            for ax in "xyz":
                out[f"B1WvsF{order}{ax}i"] = ("N", f"{what} of load '{self.name}', earth {ax}, "
                                                   "at the WAMIT reference point")  # fmt: skip
                out[f"B1WvsM{order}{ax}i"] = ("N m", f"{what} of load '{self.name}': moment "
                                                     f"about the WAMIT reference point, earth {ax}")  # fmt: skip
        return out

    def _channels(self, t: float, env, batch: int) -> dict[str, np.ndarray]:
        """HydroDyn's B1WvsF1*/M1* (first order) and B1WvsF2*/M2* (second order) per member."""
        if self.time_step is not None:
            first, second = self.tables(env)
            n = first.shape[1] - 1
            x = t / self.time_step
            k = math.floor(x)
            i, w = k % n, x - k
            f1 = (1.0 - w) * first[:, i] + w * first[:, i + 1]
            f2 = (1.0 - w) * second[:, i] + w * second[:, i + 1]
            return self._channel_dict(f1, f2, batch)
        p = self._params(env)
        wt = p.omega * t
        e = np.exp(1j * wt)
        f1 = np.real(np.einsum("rmk,m->rk", p.c_re + 1j * p.c_im, e))
        f2 = p.mean.copy()
        if p.newman and p.omega.size:
            s1 = np.einsum("rmk,m->rk", p.n1_re + 1j * p.n1_im, e)
            s2 = np.einsum("rmk,m->rk", p.n2_re + 1j * p.n2_im, e)
            f2 = f2 + (np.abs(s1) ** 2 - np.abs(s2) ** 2) * p.modes
        return self._channel_dict(f1, f2, batch)

    @staticmethod
    def _channel_dict(f1, f2, batch: int) -> dict[str, np.ndarray]:
        out = {}
        for order, f in (("1", f1), ("2", f2)):
            f = np.broadcast_to(f, (batch, 6)) if f.shape[0] != batch else f
            for k, ax in enumerate("xyz"):
                out[f"B1WvsF{order}{ax}i"] = np.array(f[:, k])
                out[f"B1WvsM{order}{ax}i"] = np.array(f[:, 3 + k])
        return out

    def accepts_time_array(self, env) -> bool:  # the summed forms, not the table (time_step)
        return self.time_step is None

    def _wrench_times(self, t: np.ndarray, kin, env) -> Wrench:
        """:meth:`wrench` at per-member times ``t`` (T * B,), time-major (``System.evaluate_many``):
        one compiled call, each row the numbers of the call at its time (realization row % B)."""
        from floatwind._kernels import potential as kp

        t = f64(np.asarray(t, dtype=float).ravel())
        n, N = kin.batch, kin.n_bodies
        B = int(np.argmax(t != t[0])) or n  # members per time: the rows of the first time
        if n % B or np.any(t.reshape(-1, B) != t[::B, None]):
            raise ValueError("per-member times must be time-major blocks of equal times")
        force, moment = np.zeros((n, N, 3)), np.zeros((n, N, 3))
        kern = kp.excitation_times if self.second_order is None else kp.excitation_drift_times
        python_form(kern)(self._params(env), t, B, body_kinematics(kin), force, moment)
        if self.second_order is None:
            return Wrench(force, moment)
        per_time = [self._channels(float(tk), env, B) for tk in t[::B]]
        channels = {k: np.concatenate([c[k] for c in per_time]) for k in per_time[0]}
        return Wrench(force, moment, channels=channels)

    def wrench(self, t, kin, env):
        if np.ndim(t) > 0:
            return self._wrench_times(t, kin, env)
        B, N = kin.batch, kin.n_bodies
        force, moment = np.zeros((B, N, 3)), np.zeros((B, N, 3))
        fn = python_form(self._kernel())
        fn(self._params(env), float(t), body_kinematics(kin), np.empty((B, 0)), np.empty((B, 0)),
           force, moment, np.zeros((B, N, 6, 6)))  # fmt: skip
        if self.second_order is None:
            return Wrench(force, moment)
        return Wrench(force, moment, channels=self._channels(float(t), env, B))


class PotentialExcitationSS(PotentialExcitation):
    """First-order wave excitation as a state-space model driven by the wave elevation at the
    origin ahead of time (HydroDyn ``ExctnMod = 2``, SS_Excitation.f90):
    ``dx/dt = A x + B eta(t + Tc)``, ``F = C x`` at the reference point. The model is read from a
    HydroDyn ``.ssexctn`` file (``ss``) or fitted here to the ``.3`` data at one wave heading
    (:func:`floatwind.loads.radiation_fit.fit_excitation_state_space`: ``X_i(omega)
    e^{-i omega Tc}`` by vector fitting, ``Tc`` by default the delay that makes the impulse
    response causal to 1e-4 of its energy). Long-crested seas from that heading only; the states
    start at zero (as HydroDyn's), so the force builds up over the first ``Tc`` seconds or so."""

    accepts_time_array = Load.accepts_time_array  # states of its own: time_independent (False)

    def __init__(self, *, body: int, wamit, point_b=(0.0, 0.0, 0.0), ulen: float = 1.0,
                 heading_deg: float = 0.0, tc="auto", tolerance: float = 1e-2,
                 max_order: int = 40, ss=None, name: str | None = None, field: str = ""):  # fmt: skip
        super().__init__(body=body, wamit=wamit, point_b=point_b, ulen=ulen, name=name,
                         field=field, needs_excitation=ss is None)  # fmt: skip
        self.fits = []
        if ss is not None:  # dimensional, from a .ssexctn file
            self.heading = math.radians(float(ss.wave_dir_deg))
            self.tc = float(ss.tc)
            self._blocks = rf.blocks_from_matrices(ss.a, ss.b[:, None], ss.c)
            self.fit_error = float("nan")
            self.fit_report = (f"state-space excitation (.ssexctn file): wave direction "
                               f"{ss.wave_dir_deg:g} deg, Tc = {self.tc:g} s, "
                               f"{self._blocks.n_states} states")  # fmt: skip
        else:
            d = self.data
            self.heading = math.radians(float(heading_deg))
            hmin, hmax = float(d.exc_heading[0]), float(d.exc_heading[-1])
            if not hmin - 1e-9 <= self.heading <= hmax + 1e-9:
                raise CaseError(f"{heading_deg:g} deg lies outside the WAMIT .3 headings "
                                f"{math.degrees(hmin):g}..{math.degrees(hmax):g} deg",
                                field=f"{field}.heading_deg" if field else "heading_deg")  # fmt: skip
            x = np.array([[np.interp(self.heading, d.exc_heading, d.excitation[f, :, i].real)
                           + 1j * np.interp(self.heading, d.exc_heading, d.excitation[f, :, i].imag)
                           for i in range(6)] for f in range(len(d.exc_omega))])  # fmt: skip
            big = np.max(np.abs(x), axis=0)
            dofs = [i for i in range(6) if big[i] > 1e-9 * float(big.max())]
            self.tc = (max(rf.causal_delay(d.exc_omega, x[:, i]) for i in dofs)
                       if tc == "auto" else float(tc))  # fmt: skip
            self.fits = rf.fit_excitation_state_space(d.exc_omega, x, dofs, tc=self.tc,
                                                      tolerance=tolerance, max_order=max_order)  # fmt: skip
            self._blocks = None  # per unit rho g: scaled by the run's (_ss_params)
            self.fit_error = max((f.error for f in self.fits), default=0.0)
            missed = [f"X{f.i + 1}" for f in self.fits if not f.converged]
            self.fit_report = (
                f"state-space excitation (fdi): heading {heading_deg:g} deg, Tc = {self.tc:g} s, "
                f"{len(self.fits)} DOFs, orders {sorted({f.a.shape[0] for f in self.fits})}, "
                f"{sum(f.a.shape[0] for f in self.fits)} states, largest RMS |X e^(-i omega Tc)| "
                f"error {self.fit_error:.2e} of the DOF's peak (tolerance {tolerance:g})"
                + (f"; tolerance not reached for {', '.join(missed)}" if missed else "")
            )
        self.n_states = (self._blocks.n_states if self._blocks is not None
                         else sum(f.a.shape[0] for f in self.fits))  # fmt: skip
        self._by_rg: dict[float, rf.SSBlocks] = {}
        self._eta: dict[tuple, tuple] = {}
        logger.info(self.fit_report)

    def state_names(self):
        return [f"{self.name}_x{k + 1}" for k in range(self.n_states)]

    def state_info(self):
        return {n: ("1", f"state {k + 1} of the excitation state-space model of load "
                         f"'{self.name}' (the units of its realisation; force = C x)")
                for k, n in enumerate(self.state_names())}  # fmt: skip

    def blocks(self, rho_g: float) -> rf.SSBlocks:
        """The model's blocks in N and N m (a fit is per unit rho g)."""
        if self._blocks is not None:
            return self._blocks
        if rho_g not in self._by_rg:
            a, b, c, _ = rf.exctn_matrices_from_fits(self.fits)
            self._by_rg[rho_g] = rf.blocks_from_matrices(a, b[:, None], rho_g * c)
        return self._by_rg[rho_g]

    class SSParams(NamedTuple):
        body: int
        ref_b: np.ndarray
        omega: np.ndarray  # (M,) the sea's components
        e_re: np.ndarray  # (R, M) eta(0, t) = sum e_re cos(omega t) - e_im sin(omega t)
        e_im: np.ndarray
        tc: float
        orders: np.ndarray
        offsets: np.ndarray
        a: np.ndarray  # (P, n, n)
        b: np.ndarray  # (P, n, 1)
        c: np.ndarray  # (P, 6, n)
        b_used: np.ndarray  # (P, 1)
        c_used: np.ndarray  # (P, 6)
        state0: int

    def _elevation(self, env):
        """(omega, Re, Im) of the elevation at the origin in WAMIT's form ``Re A e^{i omega t}``,
        the sea checked to come from the model's heading."""
        sea = env.sea
        if not hasattr(sea, "amplitude"):  # still water
            return np.zeros(0), np.zeros((1, 0)), np.zeros((1, 0))
        if not all(hasattr(sea, a) for a in ("omega", "cos_th", "sin_th")):
            raise NoCompiledForm(f"the sea {type(sea).__name__} gives no wave components")
        beta = np.arctan2(np.atleast_2d(sea.sin_th), np.atleast_2d(sea.cos_th))
        off = np.abs(np.angle(np.exp(1j * (beta - self.heading))))
        if off.size and float(off.max()) > 1e-6:
            bad = float(np.degrees(beta.ravel()[int(np.argmax(off))]))
            where = "ss_file" if self._blocks is not None else "heading_deg"
            raise CaseError(
                f"the sea has waves from {bad:g} deg; the state-space excitation is for "
                f"{math.degrees(self.heading):g} deg only (long-crested seas from its heading)",
                field=f"{self._field}.{where}" if self._field else where,
            )  # fmt: skip
        A = np.conj(np.atleast_2d(sea.amplitude))  # WAMIT's e^{+i omega t} amplitude
        return f64(np.asarray(sea.omega, float)), f64(A.real), f64(A.imag)

    def _ss_params(self, env, state0: int):
        key = self._key("elevation", env.sea)
        if key not in self._eta:
            self._eta[key] = self._elevation(env)
        w, er, ei = self._eta[key]
        blk = self.blocks(float(env.rho_water) * float(env.gravity))
        return self.SSParams(body=int(self.body), ref_b=f64(self.point_b), omega=w, e_re=er,
                             e_im=ei, tc=float(self.tc), orders=blk.orders, offsets=blk.offsets,
                             a=f64(blk.a), b=f64(blk.b), c=f64(blk.c),
                             b_used=np.any(blk.b != 0.0, axis=1),
                             c_used=np.any(blk.c != 0.0, axis=2),
                             state0=int(state0))  # fmt: skip

    def compiled(self, env, batch):
        from floatwind._kernels import potential as kp

        return CompiledLoad(kp.excitation_ss_kernel, self._ss_params(env, -1))

    def wrench(self, t, kin, env):  # pragma: no cover - a load with states answers wrench_state
        return self.wrench_state(t, kin, env, None, None)[0]

    def wrench_state(self, t, kin, env, s, memory):
        from floatwind._kernels import potential as kp

        B, N = kin.batch, kin.n_bodies
        force, moment = np.zeros((B, N, 3)), np.zeros((B, N, 3))
        y = np.zeros((B, self.n_states)) if s is None else np.ascontiguousarray(s, dtype=float)
        dy = np.zeros_like(y)
        fn = python_form(kp.excitation_ss_kernel)
        fn(self._ss_params(env, 0), float(t), body_kinematics(kin), y, dy, force, moment,
           np.zeros((B, N, 6, 6)))  # fmt: skip
        return Wrench(force, moment), dy


class PotentialRadiationSS(PotentialRadiation):
    """Radiation with the memory as state-space models whose states are integrated with the
    bodies, so any integrator can run it: fitted to the same data as the convolution
    (:mod:`floatwind.loads.radiation_fit`, ``method`` ``fdi`` (frequency-domain identification,
    default) or ``era``), or read from a HydroDyn ``.ss`` file (``ss``: the model of
    ``RdtnMod = 2``, :func:`floatwind.loads.hydrodyn_ss.read_hydrodyn_ss`, dimensional).
    ``fit_report`` says the orders and the accuracy reached."""

    name = "potential_radiation"
    DEFAULT_TOLERANCE = {"fdi": 1e-3, "era": 3e-4}

    wrench_times = None  # states, no step memory: System.evaluate_many's per-state path

    def __init__(self, *, body: int, wamit, point_b=(0.0, 0.0, 0.0), ulen: float = 1.0,
                 t_max: float = 60.0, method: str = "fdi", tolerance: float | None = None,
                 max_order: int = 24, ss=None, name: str | None = None,
                 field: str = ""):  # fmt: skip
        super().__init__(body=body, wamit=wamit, point_b=point_b, ulen=ulen, t_max=t_max,
                         name=name, field=field)  # fmt: skip
        self.fits = []
        self._by_rho: dict[float, rf.SSBlocks] = {}
        if ss is not None:  # a HydroDyn .ss file: dimensional, force = C x
            self._blocks = rf.blocks_from_matrices(ss.a, ss.b, ss.c)
            self.fit_error = float("nan")
            self.fit_report = (
                f"state-space radiation (.ss file): {len(self._blocks.orders)} blocks, "
                f"{self._blocks.n_states} states"
            )
        else:
            tolerance = self.DEFAULT_TOLERANCE[method] if tolerance is None else float(tolerance)
            big = np.max(np.abs(self.data.damping), axis=0)  # the entries the convolution has
            pairs = np.argwhere(big > 1e-12 * max(float(big.max()), 1e-300))
            kernel = (radiation_kernel_table(self.data.omega, self.data.damping, self.t_max,
                                             0.0125) if method == "era" else None)  # fmt: skip
            self.fits = rf.fit_radiation_state_space(self.data, pairs, method=method,
                                                     tolerance=tolerance, max_order=max_order,
                                                     kernel=kernel, kernel_dt=0.0125)  # fmt: skip
            self._blocks = None  # per unit density: scaled by the run's rho (_ss_params)
            self.fit_error = max((f.error for f in self.fits), default=0.0)
            self.fit_report = rf.fit_report(self.fits, method, tolerance)
        self.n_states = (self._blocks.n_states if self._blocks is not None
                         else sum(f.a.shape[0] for f in self.fits))  # fmt: skip
        logger.info(self.fit_report)

    # a model with states, no step memory
    def memory(self, batch, t0, dt, n_steps):
        return None

    def after_step(self, t, kin, env, memory, s):
        return None

    def state_names(self):
        return [f"{self.name}_x{k + 1}" for k in range(self.n_states)]

    def state_info(self):
        return {n: ("1", f"state {k + 1} of the radiation state-space model of load "
                         f"'{self.name}' (the units of its realisation; force = C x)")
                for k, n in enumerate(self.state_names())}  # fmt: skip

    class SSParams(NamedTuple):
        body: int
        ref_b: np.ndarray
        a_inf: np.ndarray
        orders: np.ndarray  # (P,) states of each block
        offsets: np.ndarray  # (P,) first state of each, from state0
        a: np.ndarray  # (P, n, n)
        b: np.ndarray  # (P, n, 6)
        c: np.ndarray  # (P, 6, n): the memory force, signed, in N and N m
        b_used: np.ndarray  # (P, 6) columns of b that are not zero
        c_used: np.ndarray  # (P, 6) rows of c that are not zero
        state0: int

    def blocks(self, rho: float) -> rf.SSBlocks:
        """The model's blocks in N and N m (a fit is per unit density: ``c = -rho c_fit``)."""
        if self._blocks is not None:
            return self._blocks
        if rho not in self._by_rho:
            self._by_rho[rho] = rf.blocks_from_fits(self.fits, rho)
        return self._by_rho[rho]

    def _ss_params(self, env, state0: int):
        rho = float(getattr(env, "rho_water", 1025.0))
        blk = self.blocks(rho)
        return self.SSParams(body=int(self.body), ref_b=f64(self.point_b),
                             a_inf=f64(rho * self.data.added_mass_inf), orders=blk.orders,
                             offsets=blk.offsets, a=f64(blk.a), b=f64(blk.b), c=f64(blk.c),
                             b_used=np.any(blk.b != 0.0, axis=1),
                             c_used=np.any(blk.c != 0.0, axis=2),
                             state0=int(state0))  # fmt: skip

    def compiled(self, env, batch):
        from floatwind._kernels import potential as kp

        return CompiledLoad(kp.radiation_ss_kernel, self._ss_params(env, -1), adds_mass=True)

    def wrench_state(self, t, kin, env, s, memory):
        from floatwind._kernels import potential as kp

        B, N = kin.batch, kin.n_bodies
        force, moment = np.zeros((B, N, 3)), np.zeros((B, N, 3))
        added = np.zeros((B, N, 6, 6))
        y = np.zeros((B, self.n_states)) if s is None else np.ascontiguousarray(s, dtype=float)
        dy = np.zeros_like(y)
        fn = python_form(kp.radiation_ss_kernel)
        fn(self._ss_params(env, 0), float(t), body_kinematics(kin), y, dy, force, moment, added)
        return Wrench(force, moment, added_mass=added), dy
