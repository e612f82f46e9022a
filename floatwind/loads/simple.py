"""Gravity, constant forces (OpenFAST AddF0), linear 6x6 restoring and damping about a reference
point (HydroDyn AddCLin / AddBLin) and time-dependent forces (table or harmonic).

These are the loads of the foundation; the large-motion loads live in their own modules.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from floatwind._kernels.contract import CompiledLoad, body_kinematics, evaluate, f64, python_form
from floatwind.errors import CaseError
from floatwind.loads.base import Kinematics, Load, Wrench
from floatwind.validate import Section, check_vector, resolve_path

#: the keys every point load's case mapping reads
_POINT_KEYS = {"type", "body", "point", "name"}


def _mat6(value, field: str) -> np.ndarray:
    try:
        a = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise CaseError(f"expected a 6x6 matrix, got {value!r}", field=field) from None
    if a.shape == (6,):
        a = np.diag(a)
    if a.shape != (6, 6):
        raise CaseError(
            f"expected a 6x6 matrix (or 6 diagonal values), got shape {a.shape}", field=field
        )
    if not np.all(np.isfinite(a)):
        raise CaseError("values must be finite", field=field)
    return a


class Gravity(Load, kind="gravity"):
    """Weight of every body, -m_i g e_z at each CM."""

    time_independent = True

    name = "gravity"

    def __init__(self, *, masses: np.ndarray):
        self.masses = np.asarray(masses, dtype=float)

    @classmethod
    def from_config(cls, cfg, *, body_index, field, base_dir=None, tree=None) -> Gravity:
        """``{type: gravity}``: the weight of every body of ``tree``."""
        Section(cfg, field, {"type", "name"})
        return cls(masses=tree.mass)

    def wrench(self, t, kin: Kinematics, env) -> Wrench:
        from floatwind._kernels import loads as kl

        # time-independent: t may be the members' times (System.evaluate_many)
        _, force, moment, _ = evaluate(kl.gravity_kernel, self._params(env), 0.0, kin)
        return Wrench(force, moment)

    class Params(NamedTuple):
        weights: np.ndarray  # (N,) m_i g (N)

    def _params(self, env) -> Params:
        return self.Params(weights=f64(self.masses * env.gravity))

    def compiled(self, env, batch):
        from floatwind._kernels import loads as kl

        return CompiledLoad(kl.gravity_kernel, self._params(env))


class ConstantForce(Load, kind="constant_force"):
    """Constant force and moment at a body point, fixed inertial directions (like OpenFAST AddF0).

    Parameters
    ----------
    body : int
    point_b : (3,) application point in the body reference frame (m); the moment is about it.
    force : (3,) N, inertial axes.  moment : (3,) N m, inertial axes.
    """

    time_independent = True

    name = "constant_force"

    def __init__(
        self, *, body: int, point_b, force, moment=(0.0, 0.0, 0.0), name: str | None = None
    ):
        self.body = int(body)
        self.point_b = check_vector(point_b, "point", 3)
        self.force = check_vector(force, "force", 3)
        self.moment = check_vector(moment, "moment", 3)
        if name:
            self.name = name

    @classmethod
    def from_config(cls, cfg, *, body_index, field, base_dir=None, tree=None) -> ConstantForce:
        """``{type: constant_force, body, point, force, moment, name}``."""
        sec = Section(cfg, field, _POINT_KEYS | {"force", "moment"})
        return cls(
            body=sec.body(body_index),
            point_b=sec.vector("point", [0.0, 0.0, 0.0]),
            force=sec.vector("force"),
            moment=sec.vector("moment", [0.0, 0.0, 0.0]),
            name=sec.raw("name", None),
        )

    def wrench(self, t, kin, env):
        from floatwind._kernels import loads as kl

        f, m = python_form(kl.constant_force)(self._params(), body_kinematics(kin))
        return Wrench(f, m)

    class Params(NamedTuple):
        body: int
        point_b: np.ndarray  # (3,) m, body frame
        force: np.ndarray  # (3,) N, inertial
        moment: np.ndarray  # (3,) N m, inertial

    def _params(self) -> Params:
        return self.Params(
            body=self.body, point_b=f64(self.point_b), force=f64(self.force),
            moment=f64(self.moment),
        )  # fmt: skip

    def compiled(self, env, batch):
        from floatwind._kernels import loads as kl

        return CompiledLoad(kl.constant_force_kernel, self._params())


class LinearMatrices(Load, kind="linear"):
    """Linear restoring and damping about a body reference point, as HydroDyn's AddCLin/AddBLin.

    For finite rotations we apply exactly HydroDyn v5's formula (HydroDyn.f90, see
    docs/conventions.md):

        F = F0 - C q - Rb2g B Rg2b qdot,
        q    = [displacement of the point from its undisplaced position (inertial);
                (phi, theta, psi) = Z-Y-X Euler angles of the body (EulerExtractZYX)],
        qdot = [velocity of the point (inertial); angular velocity (inertial)],
        Rb2g = blockdiag(R, R),

    applied at the displaced point (moments about it). C is in the earth frame and B in the
    body frame, as HydroDyn documents. ``F0`` (AddF0) is optional. With ``yawed`` the part
    ``F0 - C q`` acts in the frame yawed by psi (rotated by Rz(psi), forces and moments), as
    HydroDyn v5 applies the WAMIT hydrostatics: with it ref07's accelerations at t = 0 (0.03 rad
    yaw, 0.06 rad pitch) equal OpenFAST's to 7 digits, without it the roll acceleration is 4x off.
    """

    time_independent = True

    name = "linear"

    def __init__(
        self,
        *,
        body: int,
        point_b=(0.0, 0.0, 0.0),
        stiffness=None,
        damping=None,
        f0=None,
        point0_g=None,
        yawed: bool = False,
        name: str | None = None,
        openfast_channels: str | None = None,
    ):
        self.body = int(body)
        if openfast_channels is not None:
            if not (isinstance(openfast_channels, str) and openfast_channels.isalnum()):
                raise CaseError(
                    f"must be a channel prefix of letters and digits such as B1HdS, got "
                    f"{openfast_channels!r}", field="openfast_channels",
                )  # fmt: skip
            self.openfast_wrench = openfast_channels
        self.point_b = check_vector(point_b, "point", 3)
        self.yawed = bool(yawed)
        self.C = np.zeros((6, 6)) if stiffness is None else _mat6(stiffness, "stiffness")
        self.Bd = np.zeros((6, 6)) if damping is None else _mat6(damping, "damping")
        self.f0 = np.zeros(6) if f0 is None else check_vector(f0, "f0", 6)
        # undisplaced position of the point; by default the point itself (body frame = inertial)
        self.point0_g = (
            self.point_b.copy() if point0_g is None else check_vector(point0_g, "point0", 3)
        )
        if name:
            self.name = name

    @classmethod
    def from_config(cls, cfg, *, body_index, field, base_dir=None, tree=None) -> LinearMatrices:
        """``{type: linear, body, point, stiffness, damping, f0, point0, yawed, name,
        openfast_channels}``."""
        keys = {"stiffness", "damping", "f0", "point0", "yawed", "openfast_channels"}
        sec = Section(cfg, field, _POINT_KEYS | keys)
        try:
            return cls(
                body=sec.body(body_index),
                point_b=sec.vector("point", [0.0, 0.0, 0.0]),
                stiffness=sec.raw("stiffness", None),
                damping=sec.raw("damping", None),
                f0=sec.raw("f0", None),
                point0_g=sec.vector("point0", None),
                yawed=bool(sec.raw("yawed", False)),
                name=sec.raw("name", None),
                openfast_channels=sec.raw("openfast_channels", None),
            )
        except CaseError as exc:
            raise CaseError(exc.reason, field=f"{field}.{exc.field}") from None

    def wrench(self, t, kin, env):
        from floatwind._kernels import loads as kl

        f, m = python_form(kl.linear_matrices)(self._params(), body_kinematics(kin))
        return Wrench(f, m)

    class Params(NamedTuple):
        body: int
        point_b: np.ndarray  # (3,) body frame
        point0_g: np.ndarray  # (3,) undisplaced position, inertial
        C: np.ndarray  # (6, 6) earth frame
        Bd: np.ndarray  # (6, 6) body frame
        f0: np.ndarray  # (6,)
        yawed: bool  # (f0 - C q) in the frame yawed by the body's yaw (WAMIT hydrostatics)
        work: np.ndarray  # (6, 6) scratch of the compiled kernel (one run's)

    def _params(self) -> Params:
        return self.Params(
            body=self.body, point_b=f64(self.point_b), point0_g=f64(self.point0_g), C=f64(self.C),
            Bd=f64(self.Bd), f0=f64(self.f0), yawed=bool(self.yawed), work=np.zeros((6, 6)),
        )  # fmt: skip

    def compiled(self, env, batch):
        from floatwind._kernels import loads as kl

        return CompiledLoad(kl.linear_matrices_kernel, self._params())


class TimeSeriesForce(Load, kind="time_series_force"):
    """Force and moment at a body point from a table of time (non-follower, inertial axes).

    ``table`` has columns t, Fx, Fy, Fz, Mx, My, Mz (linear interpolation; zero outside the
    table unless ``hold=True``, which holds the end values).
    """

    name = "time_series_force"

    def __init__(self, *, body: int, point_b, table, hold: bool = False, name: str | None = None):
        self.body = int(body)
        self.point_b = check_vector(point_b, "point", 3)
        tab = np.asarray(table, dtype=float)
        if tab.ndim != 2 or tab.shape[1] != 7 or tab.shape[0] < 2:
            raise CaseError(
                f"table needs at least 2 rows of 7 columns (t, Fx, Fy, Fz, Mx, My, Mz), got shape {tab.shape}",
                field="table",
            )
        if np.any(np.diff(tab[:, 0]) <= 0):
            raise CaseError("table time column must be strictly increasing", field="table")
        self.table = tab
        self.hold = bool(hold)
        if name:
            self.name = name

    @classmethod
    def from_config(cls, cfg, *, body_index, field, base_dir=None, tree=None) -> TimeSeriesForce:
        """``{type: time_series_force, body, point, table | file, hold, name}``."""
        sec = Section(cfg, field, _POINT_KEYS | {"table", "file", "hold"})
        if sec.has("file"):
            path = resolve_path(sec.raw("file"), sec.path("file"), base_dir)
            try:
                table = np.loadtxt(path, comments="#", ndmin=2)
            except ValueError as exc:
                raise CaseError(f"cannot read {path}: {exc}", field=sec.path("file")) from None
        else:
            table = sec.raw("table")
        try:
            return cls(
                body=sec.body(body_index),
                point_b=sec.vector("point", [0.0, 0.0, 0.0]),
                table=table,
                hold=sec.boolean("hold", False),
                name=sec.raw("name", None),
            )
        except CaseError as exc:
            raise CaseError(exc.reason, field=f"{field}.{exc.field}") from None

    def values(self, t: float) -> np.ndarray:
        tab = self.table
        if not self.hold and (t < tab[0, 0] or t > tab[-1, 0]):
            return np.zeros(6)
        return np.array([np.interp(t, tab[:, 0], tab[:, k]) for k in range(1, 7)])

    def wrench(self, t, kin, env):
        from floatwind._kernels import loads as kl

        _, force, moment, _ = evaluate(kl.time_series_force_kernel, self._params(), t, kin)
        return Wrench(force, moment)

    class Params(NamedTuple):
        body: int
        point_b: np.ndarray  # (3,)
        time: np.ndarray  # (K,) table times
        values: np.ndarray  # (6, K) Fx .. Mz
        hold: bool

    def _params(self) -> Params:
        tab = self.table
        return self.Params(
            body=self.body, point_b=f64(self.point_b), time=f64(tab[:, 0]),
            values=f64(tab[:, 1:].T), hold=self.hold,
        )  # fmt: skip

    def compiled(self, env, batch):
        from floatwind._kernels import loads as kl

        return CompiledLoad(kl.time_series_force_kernel, self._params())


class HarmonicForce(Load, kind="harmonic_force"):
    """Force and moment amplitude * sin(omega t + phase) at a body point (inertial axes)."""

    name = "harmonic_force"

    def __init__(
        self, *, body: int, point_b, amplitude, omega: float, phase: float = 0.0, name=None
    ):
        self.body = int(body)
        self.point_b = check_vector(point_b, "point", 3)
        self.amplitude = check_vector(amplitude, "amplitude", 6)
        if not np.isfinite(omega):
            raise CaseError("omega must be finite", field="omega")
        self.omega = float(omega)
        self.phase = float(phase)
        if name:
            self.name = name

    @classmethod
    def from_config(cls, cfg, *, body_index, field, base_dir=None, tree=None) -> HarmonicForce:
        """``{type: harmonic_force, body, point, amplitude, omega | period, phase, name}``."""
        sec = Section(cfg, field, _POINT_KEYS | {"amplitude", "omega", "phase", "period"})
        if sec.has("omega") == sec.has("period"):
            raise CaseError(
                "give exactly one of 'omega' (rad/s) or 'period' (s)", field=sec.path("omega")
            )
        omega = (
            sec.number("omega")
            if sec.has("omega")
            else 2 * math.pi / sec.number("period", kind="positive")
        )
        return cls(
            body=sec.body(body_index),
            point_b=sec.vector("point", [0.0, 0.0, 0.0]),
            amplitude=sec.vector("amplitude", size=6),
            omega=omega,
            phase=sec.number("phase", 0.0),
            name=sec.raw("name", None),
        )

    def wrench(self, t, kin, env):
        from floatwind._kernels import loads as kl

        _, force, moment, _ = evaluate(kl.harmonic_force_kernel, self._params(), t, kin)
        return Wrench(force, moment)

    class Params(NamedTuple):
        body: int
        point_b: np.ndarray  # (3,)
        amplitude: np.ndarray  # (6,)
        omega: float
        phase: float

    def _params(self) -> Params:
        return self.Params(
            body=self.body, point_b=f64(self.point_b), amplitude=f64(self.amplitude),
            omega=self.omega, phase=self.phase,
        )  # fmt: skip

    def compiled(self, env, batch):
        from floatwind._kernels import loads as kl

        return CompiledLoad(kl.harmonic_force_kernel, self._params())
