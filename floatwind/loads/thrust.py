"""Rotor thrust from a C_T curve with the relative wind (Wang eq. 3.19-3.21, 4.16-4.17).

The rotor is lumped at its centre G_r, fixed in one body (the RNA / rotor body, or the single body
of a lumped model), with a shaft axis ``n`` fixed in that body. Here ``n`` points downwind along
the shaft (the direction the thrust pushes); Wang's B axis is ``-n``, so his ``F^R = (0, -F_b, 0)``
is ``F_b n`` here. Each evaluation:

* structural velocity of the rotor centre from rigid-body kinematics, ``V_Gr = v_G + w x r``;
* projections on the instantaneous shaft axis ``n_g = R_b2g n``: ``V_w = V_wind . n_g``,
  ``V_b = V_Gr . n_g``, relative wind ``V_rb = V_w - V_b`` (Wang, text above (3.20)). Tower pitch
  (which tilts ``n_g``) and yaw misalignment reduce ``V_w``; the rotor moving downwind reduces
  ``V_rb``;
* thrust ``F_b = 0.5 C_T rho_a A V_rb^2`` (3.19), along ``n_g`` at G_r (3.20)-(3.21), **only when
  V_rb > 0**. When the relative wind is zero or negative (no wind, or the rotor moving downwind
  faster than the wind) the thrust, the power and C_T outputs are zero: the C_T curve says
  nothing about a rotor in reversed flow (windmill brake state), and a thrust that pulls the
  rotor upwind would be unphysical for this model. The transition at V_rb = 0 is continuous
  (F_b ~ V_rb^2);
* aerodynamic torque ``Q = P_rated / Omega`` (constant, Wang: "rated power divided by rotor
  speed") about the shaft, ``spin_direction`` telling the sense of rotation about ``n_g``
  (+1: right-handed about the downwind axis, the OpenFAST convention for a clockwise rotor seen
  from upwind). It is applied whatever the wind, as in the dissertation;
* power output ``P = 0.5 C_p rho_a A V_rb^3`` with ``C_p = 0.7 C_T`` (Nielsen's proxy; see the
  shipped curve ``cases/data/ct_curve_fig14.csv``).

Two C_T strategies (Wang sec. III.E.2, "bounding blade-pitch control strategies"):

* ``variable``: C_T looked up in the table at the instantaneous V_rb (ideal instantaneous blade
  pitch). Above rated ``C_T V_rb^2`` falls with V_rb, so the aerodynamic damping is small or
  negative and the platform pitch has a larger standard deviation;
* ``fixed``: C_T looked up once at the mean wind speed (or given) and kept; the thrust still uses
  V_rb^2, so it adds positive aerodynamic damping ``C_T rho_a A V_rb``.

The table is interpolated linearly and held constant outside its range (no cut-in / cut-out
logic: a parked rotor is modelled by not including the load).
"""

from __future__ import annotations

import logging
import pathlib
from typing import NamedTuple

import numpy as np

from floatwind._kernels.contract import CompiledLoad, body_kinematics, f64, python_form
from floatwind.errors import CaseError
from floatwind.loads.base import Kinematics, Load, Wrench
from floatwind.validate import (
    Section,
    check_body,
    check_nonnegative,
    check_positive,
    check_vector,
    resolve_path,
)

logger = logging.getLogger(__name__)

__all__ = ["CTCurve", "RotorThrust"]

CT_MODES = ("variable", "fixed")
_EMPTY = np.zeros(1)

_TOP_KEYS = (
    "type",
    "body",
    "rotor_centre",
    "shaft_axis",
    "rotor_radius",
    "rotor_area",
    "ct_curve",
    "ct_table",
    "ct_mode",
    "mean_wind_speed",
    "ct_fixed",
    "ct_parked",
    "rated_power",
    "rotor_speed",
    "rotor_speed_rpm",
    "spin_direction",
    "cp_over_ct",
    "channel_prefix",
)


class CTCurve:
    """Thrust coefficient as a function of relative wind speed, linear interpolation.

    Parameters
    ----------
    wind_speed : (K,) strictly increasing wind speeds (m/s), K >= 2.
    ct : (K,) thrust coefficients (-), >= 0.
    source : str
        Where the table came from (for messages).
    """

    def __init__(self, wind_speed, ct, *, source: str = "", field: str = "ct_table"):
        try:
            v = np.asarray(wind_speed, dtype=float).ravel()
            c = np.asarray(ct, dtype=float).ravel()
        except (TypeError, ValueError):
            raise CaseError("wind_speed and ct must be lists of numbers", field=field) from None
        if v.size < 2 or v.size != c.size:
            raise CaseError(
                f"needs at least 2 (wind_speed, ct) pairs of equal length, got {v.size} and {c.size}",
                field=field,
                file=source or None,
            )
        if not (np.all(np.isfinite(v)) and np.all(np.isfinite(c))):
            raise CaseError("table values must be finite", field=field, file=source or None)
        if np.any(np.diff(v) <= 0.0):
            raise CaseError(
                "wind speeds must be strictly increasing", field=field, file=source or None
            )
        if np.any(c < 0.0):
            raise CaseError("thrust coefficients must be >= 0", field=field, file=source or None)
        self.wind_speed = v
        self.ct = c
        self.source = source

    def __call__(self, speed: np.ndarray) -> np.ndarray:
        """C_T at ``speed`` (m/s), any shape; constant beyond the table ends."""
        return np.interp(speed, self.wind_speed, self.ct)

    @classmethod
    def from_csv(cls, path: str | pathlib.Path, *, field: str = "ct_curve") -> CTCurve:
        """Read a two-column CSV (wind speed m/s, C_T); lines starting with ``#`` are comments,
        one optional non-numeric header line is skipped."""
        path = pathlib.Path(path)
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise CaseError(f"cannot read C_T curve: {exc}", field=field, file=str(path)) from None
        except UnicodeDecodeError as exc:  # the same words as floatwind.io.safe.read_text
            data = path.read_bytes()
            line = data.count(b"\n", 0, exc.start) + 1
            raise CaseError(
                f"not UTF-8 text: byte 0x{data[exc.start]:02x} at line {line} (byte offset "
                f"{exc.start}); save the file as UTF-8",
                field=field,
                file=str(path),
            ) from None
        rows = []
        for k, line in enumerate(lines, start=1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            parts = [p.strip() for p in text.split(",")]
            try:
                rows.append([float(p) for p in parts[:2]])
            except ValueError:
                if rows:
                    raise CaseError(
                        f"line {k}: expected two numbers, got {line!r}", field=field, file=str(path)
                    ) from None
                continue  # header line
            if len(parts) < 2:
                raise CaseError(
                    f"line {k}: expected two numbers, got {line!r}", field=field, file=str(path)
                )
        if not rows:
            raise CaseError("no data rows", field=field, file=str(path))
        arr = np.array(rows)
        return cls(arr[:, 0], arr[:, 1], source=str(path), field=field)


class RotorThrust(Load, kind="thrust_ct"):
    """Lumped rotor thrust and torque from a C_T curve and the relative wind.

    Parameters
    ----------
    body : int
        Body carrying the rotor.
    rotor_centre : (3,) array
        Rotor centre G_r in the body reference frame (m).
    shaft_axis : (3,) array
        Downwind shaft direction in the body frame (normalised here; may be tilted).
    rotor_area : float
        Swept area A (m^2).
    ct_curve : CTCurve or None
        C_T table; needed for ``variable`` and for ``fixed`` with ``mean_wind_speed``.
    ct_mode : {"variable", "fixed"}
        C_T strategy (module docstring).
    mean_wind_speed : float, optional
        For ``fixed``: wind speed (m/s) at which C_T is read from the curve.
    ct_fixed : float, optional
        For ``fixed``: the C_T itself (instead of ``mean_wind_speed``).
    rated_power : float
        Rated power (W) for the constant aerodynamic torque; 0 for none.
    rotor_speed : float
        Rotor speed (rad/s) for the torque; > 0 when ``rated_power`` > 0.
    spin_direction : {+1, -1}
        Sense of rotation about the downwind shaft axis.
    cp_over_ct : float
        C_p / C_T for the power output (0.7, Nielsen).
    channel_prefix : str
        Prefix of the output channel names.

    Output channels (B,)
    --------------------
    ``RtAeroFxh`` thrust (N), ``RtAeroMxh`` aerodynamic torque (N m), ``RtAeroPwr`` power (W),
    ``RtAeroCt``, ``RtAeroCp`` (-), ``RtVAvgxh`` wind speed along the shaft V_w (m/s), ``RtVRel``
    relative wind V_rb (m/s), ``RtAeroFxi, RtAeroFyi, RtAeroFzi`` thrust vector (N, inertial).
    """

    name = "thrust"

    def __init__(
        self,
        *,
        body: int,
        rotor_centre,
        shaft_axis=(1.0, 0.0, 0.0),
        rotor_area: float,
        ct_curve: CTCurve | None = None,
        ct_mode: str = "variable",
        mean_wind_speed: float | None = None,
        ct_fixed: float | None = None,
        rated_power: float = 0.0,
        rotor_speed: float | None = None,
        spin_direction: int = 1,
        cp_over_ct: float = 0.7,
        channel_prefix: str = "",
        field: str = "",
    ):
        self.body = check_body(body, _f(field, "body"))
        self.rotor_centre_b = check_vector(rotor_centre, _f(field, "rotor_centre"))
        axis = check_vector(shaft_axis, _f(field, "shaft_axis"))
        norm = float(np.linalg.norm(axis))
        if norm == 0.0:
            raise CaseError("shaft axis must not be zero", field=_f(field, "shaft_axis"))
        self.shaft_axis_b = axis / norm
        self.rotor_area = check_positive(rotor_area, _f(field, "rotor_area"))
        if ct_mode not in CT_MODES:
            raise CaseError(
                f"expected one of {list(CT_MODES)}, got {ct_mode!r}", field=_f(field, "ct_mode")
            )
        self.ct_mode = ct_mode
        if ct_curve is not None and not isinstance(ct_curve, CTCurve):
            raise CaseError("expected a CTCurve", field=_f(field, "ct_curve"))
        self.ct_curve = ct_curve
        self.ct_fixed = None
        if ct_mode == "variable":
            if ct_curve is None:
                raise CaseError("variable C_T needs a C_T curve", field=_f(field, "ct_curve"))
            if mean_wind_speed is not None or ct_fixed is not None:
                raise CaseError(
                    "mean_wind_speed / ct_fixed apply to ct_mode 'fixed' only",
                    field=_f(field, "ct_mode"),
                )
        else:
            if (mean_wind_speed is None) == (ct_fixed is None):
                raise CaseError(
                    "fixed C_T needs exactly one of 'mean_wind_speed' (with a curve) or 'ct_fixed'",
                    field=_f(field, "ct_mode"),
                )
            if ct_fixed is not None:
                self.ct_fixed = check_nonnegative(ct_fixed, _f(field, "ct_fixed"))
            else:
                v = check_nonnegative(mean_wind_speed, _f(field, "mean_wind_speed"))
                if ct_curve is None:
                    raise CaseError(
                        "mean_wind_speed needs a C_T curve", field=_f(field, "ct_curve")
                    )
                self.ct_fixed = float(ct_curve(v))
                logger.info("fixed C_T = %.4f from the curve at %.3g m/s", self.ct_fixed, v)
        self.rated_power = check_nonnegative(rated_power, _f(field, "rated_power"))
        if self.rated_power > 0.0:
            if rotor_speed is None:
                raise CaseError(
                    "rotor_speed is needed for the aerodynamic torque (rated_power > 0)",
                    field=_f(field, "rotor_speed"),
                )
            self.rotor_speed = check_positive(rotor_speed, _f(field, "rotor_speed"))
            self.torque = self.rated_power / self.rotor_speed
        else:
            self.rotor_speed = (
                None
                if rotor_speed is None
                else check_positive(rotor_speed, _f(field, "rotor_speed"))
            )
            self.torque = 0.0
        if spin_direction not in (1, -1):
            raise CaseError(
                f"expected +1 or -1, got {spin_direction!r}", field=_f(field, "spin_direction")
            )
        self.spin_direction = int(spin_direction)
        self.cp_over_ct = check_nonnegative(cp_over_ct, _f(field, "cp_over_ct"))
        self.channel_prefix = str(channel_prefix)

    @classmethod
    def from_config(
        cls,
        cfg: dict,
        *,
        body_index: dict[str, int],
        field: str,
        base_dir: pathlib.Path | None = None,
        tree=None,
    ) -> RotorThrust:
        """Build from ``{type: thrust_ct, body: .., rotor_centre: .., ...}`` (``docs/loads.md``)."""
        sec = Section(cfg, field, _TOP_KEYS)
        if sec.has("rotor_radius") == sec.has("rotor_area"):
            raise CaseError(
                "give exactly one of 'rotor_radius' or 'rotor_area'", field=sec.path("rotor_radius")
            )
        if sec.has("rotor_radius"):
            area = np.pi * sec.number("rotor_radius", kind="positive") ** 2
        else:
            area = sec.number("rotor_area", kind="positive")
        if sec.has("ct_curve") and sec.has("ct_table"):
            raise CaseError(
                "give either 'ct_curve' or 'ct_table', not both", field=sec.path("ct_table")
            )
        curve = None
        if sec.has("ct_curve"):
            path = resolve_path(sec.raw("ct_curve"), sec.path("ct_curve"), base_dir)
            curve = CTCurve.from_csv(path, field=sec.path("ct_curve"))
        elif sec.has("ct_table"):
            tab = Section(sec.raw("ct_table"), sec.path("ct_table"), ("wind_speed", "ct"))
            curve = CTCurve(tab.raw("wind_speed"), tab.raw("ct"), field=sec.path("ct_table"))
        spin = sec.raw("spin_direction", 1)
        # the parked-rotor C_T is read by the parked DLCs (floatwind.dlc: 6.1, 6.3), not in operation
        ct_parked = sec.number("ct_parked", None, kind="nonnegative")
        load = cls(
            body=sec.body(body_index),
            rotor_centre=sec.vector("rotor_centre"),
            shaft_axis=sec.vector("shaft_axis", (1.0, 0.0, 0.0)),
            rotor_area=area,
            ct_curve=curve,
            ct_mode=sec.choice("ct_mode", CT_MODES, "variable"),
            mean_wind_speed=sec.number("mean_wind_speed", None, kind="nonnegative"),
            ct_fixed=sec.number("ct_fixed", None, kind="nonnegative"),
            rated_power=sec.number("rated_power", 0.0, kind="nonnegative"),
            rotor_speed=sec.speed("rotor_speed", None, kind="positive"),
            spin_direction=spin,
            cp_over_ct=sec.number("cp_over_ct", 0.7, kind="nonnegative"),
            channel_prefix=sec.raw("channel_prefix", ""),
            field=field,
        )
        load.ct_parked = ct_parked
        return load

    def accepts_time_array(self, env) -> bool:
        """Per-member times reach only the wind query: True when the wind accepts them."""
        return bool(getattr(env.wind, "accepts_time_array", False))

    def wrench(self, t: float, kin: Kinematics, env) -> Wrench:
        """Thrust at the rotor centre and aerodynamic torque, about the body CM (inertial axes).

        Parameters
        ----------
        t : float
            Time (s).
        kin : Kinematics
            Batched kinematics.
        env : Environment
            ``rho_air`` (kg/m^3) and ``wind.velocity``.
        """
        from floatwind._kernels import loads as kl

        rotor = self._rotor(env)
        pos, vel, n_g = python_form(kl.thrust_point)(rotor, body_kinematics(kin))
        wind = np.broadcast_to(env.wind.velocity(t, pos[:, None]), (kin.batch, 1, 3))[:, 0]
        force, moment, ch = python_form(kl.thrust_loads)(
            rotor, f64(kin.r_G_g), kin.n_bodies, pos, vel, n_g, f64(wind)
        )
        out = Wrench(force, moment)
        p = self.channel_prefix
        out.channels.update(
            {
                f"{p}RtAeroFxh": ch[:, 0],
                f"{p}RtAeroMxh": np.full(kin.batch, rotor.torque),
                f"{p}RtAeroPwr": ch[:, 1],
                f"{p}RtAeroCt": ch[:, 2],
                f"{p}RtAeroCp": ch[:, 3],
                f"{p}RtVAvgxh": ch[:, 4],
                f"{p}RtVRel": ch[:, 5],
                f"{p}RtAeroFxi": ch[:, 6],
                f"{p}RtAeroFyi": ch[:, 7],
                f"{p}RtAeroFzi": ch[:, 8],
            }
        )
        return out

    class Rotor(NamedTuple):
        """The rotor's constants read by the stage kernels ``_kernels.loads.thrust_point`` and
        ``thrust_loads``."""

        body: int
        centre_b: np.ndarray  # (3,) rotor centre, body frame
        axis_b: np.ndarray  # (3,) downwind shaft axis, body frame
        variable: bool  # C_T from the curve (else ct_fixed)
        ct_speed: np.ndarray  # (K,) curve wind speeds
        ct_value: np.ndarray  # (K,) curve C_T
        ct_fixed: float
        q_area: float  # 0.5 rho_air A
        torque: float  # signed shaft torque
        cp_over_ct: float

    def _rotor(self, env) -> Rotor:
        """The :class:`Rotor` record for ``env`` (its air density), kept for the next call."""
        rho = float(env.rho_air)
        hit = self.__dict__.get("_rotor_cache")
        if hit is not None and hit[0] == rho:
            return hit[1]
        variable = self.ct_mode == "variable"
        curve = self.ct_curve if variable else None
        rotor = self.Rotor(
            body=int(self.body),
            centre_b=f64(self.rotor_centre_b),
            axis_b=f64(self.shaft_axis_b),
            variable=variable,
            ct_speed=f64(curve.wind_speed if variable else _EMPTY),
            ct_value=f64(curve.ct if variable else _EMPTY),
            ct_fixed=0.0 if self.ct_fixed is None else float(self.ct_fixed),
            q_area=0.5 * rho * self.rotor_area,
            torque=float(self.spin_direction * self.torque),
            cp_over_ct=float(self.cp_over_ct),
        )
        self.__dict__["_rotor_cache"] = (rho, rotor)
        return rotor

    class Params(NamedTuple):
        rotor: tuple  # Rotor
        wind: tuple  # the wind field's table (floatwind.environment.compiled.WindParams)

    def compiled(self, env, batch):
        from floatwind._kernels import loads as kl
        from floatwind.environment.compiled import wind_params

        p = self.Params(rotor=self._rotor(env), wind=wind_params(env.wind, batch))
        return CompiledLoad(kl.thrust_kernel, p)

    def channel_info(self) -> dict[str, tuple[str, str]]:
        p = self.channel_prefix
        info = {
            f"{p}RtAeroFxh": ("N", "rotor thrust along the shaft"),
            f"{p}RtAeroMxh": ("N m", "aerodynamic torque about the shaft (rated power / speed)"),
            f"{p}RtAeroPwr": ("W", "aerodynamic power 0.5 C_p rho_a A V_rb^3"),
            f"{p}RtAeroCt": ("-", "thrust coefficient C_T"),
            f"{p}RtAeroCp": ("-", "power coefficient C_p"),
            f"{p}RtVAvgxh": ("m/s", "wind speed along the shaft at the rotor centre, V_w"),
            f"{p}RtVRel": ("m/s", "relative wind along the shaft, V_rb = V_w - V_b"),
        }
        for ax in "xyz":
            info[f"{p}RtAeroF{ax}i"] = ("N", f"thrust vector, inertial {ax}")
        return info


def _f(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key
