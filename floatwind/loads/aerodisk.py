"""OpenFAST's AeroDisk actuator disc (CompAero = 1): rotor loads from a coefficient table.

AeroDisk (OpenFAST ``modules/aerodisk``) is the bridge between floatwind's C_T disc
(:class:`floatwind.loads.thrust.RotorThrust`) and the blade-element rotor: a quasi-steady disc
whose 3 forces and 3 moments come from a table of coefficients over tip-speed ratio (or rotor
speed and normal wind), collective pitch and inflow skew, with the relative wind averaged over
the disc. The table and the file are read by :mod:`floatwind.io.aerodisk`; the computation (the
steps of ``ADsk_CalcOutput``, with the few places where we do the intended thing instead of what
the code read does) is in :mod:`floatwind._kernels.aerodisk`, the load's one implementation:

* the wind at 144 points on the circle of 70 % radius in the disc plane, averaged;
* the relative wind ``V = mean wind - hub velocity``, its normal part ``VRel_xd = |V . x_hat|``,
  the tip-speed ratio ``Omega R / VRel_xd``, the skew ``chi = acos(VRel_xd / |V|)``;
* the coefficients interpolated in the table (multilinear); without a Skew column all six are
  scaled by cos^2(chi);
* ``F = 0.5 rho pi R^2 VRel_xd^2 C_F``, ``M = 0.5 rho pi R^2 VRel_xd^2 R C_M`` along the disc axes
  ``x_hat`` (shaft, downwind), ``y_hat`` (against the in-plane relative wind) and ``z_hat =
  x_hat x y_hat``, applied at the hub.

A TSR (rotor speed, normal wind), pitch or skew beyond the table's ends (by more than 1e-4)
stops AeroDisk with an error; here too (:class:`floatwind.errors.SimulationError`, naming the
value and the table's range). The rotor speed is the rotor body's spin about the shaft relative
to its parent (the spinning rotor of a topology; a free rotor's speed when issue 17's rotor DOF
drives it), or a constant ``rotor_speed_rpm``; the pitch is a case value (constant for now).
"""

from __future__ import annotations

import math
import pathlib
from typing import NamedTuple

import numpy as np

from floatwind._kernels.contract import CompiledLoad, body_kinematics, f64, python_form
from floatwind.errors import CaseError, SimulationError
from floatwind.io.aerodisk import VARIABLES, AeroDiskTable, read_aerodisk
from floatwind.loads.base import Kinematics, Load, Wrench
from floatwind.validate import Section, check_body, check_positive, check_vector, resolve_path

__all__ = ["CHANNELS", "AeroDisk"]

#: AeroDisk's output channels in its order (AeroDisk_Output_Params.f90), SI units, descriptions
CHANNELS = {
    "ADSpeed": ("rad/s", "actuator disc rotational speed"),
    "ADTSR": ("-", "actuator disc tip-speed ratio"),
    "ADPitch": ("rad", "actuator disc collective blade pitch"),
    "ADVWindx": ("m/s", "disc-averaged wind along the disc x axis (shaft, downwind)"),
    "ADVWindy": ("m/s", "disc-averaged wind along the disc y axis"),
    "ADVWindz": ("m/s", "disc-averaged wind along the disc z axis"),
    "ADVWindxi": ("m/s", "disc-averaged wind, inertial x"),
    "ADVWindyi": ("m/s", "disc-averaged wind, inertial y"),
    "ADVWindzi": ("m/s", "disc-averaged wind, inertial z"),
    "ADSTVx": ("m/s", "hub structural translational velocity along the disc x axis"),
    "ADSTVy": ("m/s", "hub structural translational velocity along the disc y axis"),
    "ADSTVz": ("m/s", "hub structural translational velocity along the disc z axis"),
    "ADSTVxi": ("m/s", "hub structural translational velocity, inertial x"),
    "ADSTVyi": ("m/s", "hub structural translational velocity, inertial y"),
    "ADSTVzi": ("m/s", "hub structural translational velocity, inertial z"),
    "ADVRel": ("m/s", "disc-averaged relative wind speed |V|"),
    "ADSkew": ("rad", "inflow skew angle chi"),
    "ADYawErr": ("rad", "yaw error: from the shaft to the relative wind, horizontal, about z"),
    "ADCp": ("-", "power coefficient M_x Omega / (0.5 rho A VRel_xd^3)"),
    "ADCt": ("-", "thrust coefficient (C_Fx)"),
    "ADCq": ("-", "torque coefficient (C_Mx)"),
    "ADFx": ("N", "aerodynamic force along the disc x axis (thrust)"),
    "ADFy": ("N", "aerodynamic force along the disc y axis"),
    "ADFz": ("N", "aerodynamic force along the disc z axis"),
    "ADFxi": ("N", "aerodynamic force, inertial x"),
    "ADFyi": ("N", "aerodynamic force, inertial y"),
    "ADFzi": ("N", "aerodynamic force, inertial z"),
    "ADMx": ("N m", "aerodynamic moment about the disc x axis (torque)"),
    "ADMy": ("N m", "aerodynamic moment about the disc y axis"),
    "ADMz": ("N m", "aerodynamic moment about the disc z axis"),
    "ADMxi": ("N m", "aerodynamic moment at the hub, inertial x"),
    "ADMyi": ("N m", "aerodynamic moment at the hub, inertial y"),
    "ADMzi": ("N m", "aerodynamic moment at the hub, inertial z"),
    "ADPower": ("W", "aerodynamic power M_x Omega"),
}
_NAMES = tuple(CHANNELS)
_WHAT = {1: ("TSR", "grid_tsr", 1.0, ""), 2: ("rotor speed", "grid_rtspd", 30.0 / math.pi, " rpm"),
         3: ("VRel (normal relative wind)", "grid_vrel", 1.0, " m/s"),
         4: ("blade pitch", "grid_pitch", 180.0 / math.pi, " deg"),
         5: ("skew", "grid_skew", 180.0 / math.pi, " deg")}  # fmt: skip

_TOP_KEYS = (
    "type",
    "name",
    "body",
    "rotor_centre",
    "shaft_axis",
    "aerodisk_file",
    "rotor_radius",
    "air_density",
    "rotor_speed",
    "rotor_speed_rpm",
    "pitch",
    "pitch_deg",
    "channel_prefix",
)


def _f(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key


def disc_points(centre_b, axis_b, radius: float, n: int = 144) -> np.ndarray:
    """AeroDisk's wind sample points (``SetDiskAvgPoints``) in the body frame (n, 3): on the
    circle of 0.7 R about ``centre_b`` in the plane normal to ``axis_b``, at azimuths pi + 2 pi
    i / n from the hub y axis towards z. The hub axes: y = normalise(e_z x n) (n x e_x for a
    shaft along e_z), z = n x y; for the shaft along e_x they are the body's y and z."""
    n_b = np.asarray(axis_b, dtype=float)
    yv = np.cross([0.0, 0.0, 1.0], n_b)
    if np.linalg.norm(yv) < 1e-9:
        yv = np.cross(n_b, [1.0, 0.0, 0.0])
    yv = yv / np.linalg.norm(yv)
    zv = np.cross(n_b, yv)
    theta = math.pi + np.arange(n) * (2.0 * math.pi / n)
    r = 0.7 * radius
    return np.asarray(centre_b, float) + r * (
        np.cos(theta)[:, None] * yv + np.sin(theta)[:, None] * zv
    )


class AeroDisk(Load, kind="aerodisk"):
    """OpenFAST AeroDisk: rotor forces and moments from a coefficient table (module docstring).

    Parameters
    ----------
    body : int
        Body carrying the disc (the spinning rotor, or a lumped RNA with ``rotor_speed``).
    rotor_centre : (3,)
        Hub centre in the body frame (m), where the loads act.
    shaft_axis : (3,)
        Downwind shaft axis (disc normal) in the body frame (normalised here).
    table : AeroDiskTable
        The coefficient table (:func:`floatwind.io.aerodisk.read_aerodisk`).
    rotor_radius : float
        R (m): the disc area pi R^2, the TSR, the moments' length and the sample circle.
    air_density : float or None
        rho (kg/m^3); None: the environment's ``rho_air`` (AeroDisk's "default").
    rotor_speed : float or None
        Constant rotor speed (rad/s); None: the body's spin about the shaft relative to
        ``spin_parent`` (from the kinematics).
    spin_parent : int
        The parent body of the spinning rotor (-1 with a constant ``rotor_speed``).
    pitch : float
        Collective blade pitch (rad).
    channel_prefix : str
        Prefix of the output channel names.

    Output channels (B,): AeroDisk's 34 (:data:`CHANNELS`), SI units.
    """

    name = "aerodisk"

    def __init__(self, *, body: int, rotor_centre, shaft_axis=(1.0, 0.0, 0.0),
                 table: AeroDiskTable, rotor_radius: float, air_density: float | None = None,
                 rotor_speed: float | None = None, spin_parent: int = -1, pitch: float = 0.0,
                 channel_prefix: str = "", name: str | None = None, field: str = ""):  # fmt: skip
        self.body = check_body(body, _f(field, "body"))
        self.rotor_centre_b = check_vector(rotor_centre, _f(field, "rotor_centre"))
        axis = check_vector(shaft_axis, _f(field, "shaft_axis"))
        norm = float(np.linalg.norm(axis))
        if norm == 0.0:
            raise CaseError("shaft axis must not be zero", field=_f(field, "shaft_axis"))
        self.shaft_axis_b = axis / norm
        if not isinstance(table, AeroDiskTable):
            raise CaseError("expected an AeroDiskTable", field=_f(field, "aerodisk_file"))
        self.table = table
        self.rotor_radius = check_positive(rotor_radius, _f(field, "rotor_radius"))
        self.air_density = (None if air_density is None
                            else check_positive(air_density, _f(field, "air_density")))  # fmt: skip
        if rotor_speed is None and spin_parent < 0:
            raise CaseError("give rotor_speed (or rotor_speed_rpm), or put the disc on a body "
                            "that spins about the shaft", field=_f(field, "rotor_speed"))  # fmt: skip
        self.rotor_speed = None if rotor_speed is None else float(rotor_speed)
        self.spin_parent = -1 if rotor_speed is not None else int(spin_parent)
        self.pitch = float(pitch)
        if not math.isfinite(self.pitch):
            raise CaseError("must be finite", field=_f(field, "pitch"))
        self.channel_prefix = str(channel_prefix)
        if name:
            self.name = str(name)

    @classmethod
    def from_config(cls, cfg: dict, *, body_index: dict[str, int], field: str,
                    base_dir: pathlib.Path | None = None, tree=None) -> AeroDisk:  # fmt: skip
        """Build from ``{type: aerodisk, body, rotor_centre, shaft_axis, aerodisk_file, ...}``
        (docs/loads.md, docs/case_format.md)."""
        sec = Section(cfg, field, _TOP_KEYS)
        path = resolve_path(sec.raw("aerodisk_file"), sec.path("aerodisk_file"), base_dir)
        adf = read_aerodisk(path)
        radius = sec.number("rotor_radius", None, kind="positive")
        if radius is None:
            if adf.rotor_radius is None:
                raise CaseError('the AeroDisk file gives RotorRad "default": give rotor_radius',
                                field=sec.path("rotor_radius"))  # fmt: skip
            radius = adf.rotor_radius
        rho = sec.number("air_density", None, kind="positive")
        if rho is None:
            rho = adf.air_density  # None: the environment's rho_air
        body = sec.body(body_index)
        axis = sec.vector("shaft_axis", (1.0, 0.0, 0.0))
        speed = sec.speed("rotor_speed", None, kind="positive")
        parent = -1
        if speed is None and tree is not None:
            joint = tree.joint_of.get(body) if hasattr(tree, "joint_of") else None
            a = np.asarray(axis, float)
            a = a / (np.linalg.norm(a) or 1.0)
            if joint is not None and abs(float(np.dot(joint.axis, a))) > 1.0 - 1e-9:
                parent = int(joint.parent)
        if speed is None and parent < 0:
            raise CaseError(f"body {sec.raw('body', '')!r} does not spin about the shaft axis: "
                            "give rotor_speed_rpm", field=sec.path("rotor_speed_rpm"))  # fmt: skip
        return cls(body=body, rotor_centre=sec.vector("rotor_centre"), shaft_axis=axis,
                   table=adf.table, rotor_radius=radius, air_density=rho, rotor_speed=speed,
                   spin_parent=parent, pitch=sec.angle("pitch", 0.0),
                   channel_prefix=sec.raw("channel_prefix", ""), name=sec.raw("name", None),
                   field=field)  # fmt: skip

    # ------------------------------------------------------------------ the record

    class Rotor(NamedTuple):
        """The disc's constants read by the stage kernels of :mod:`floatwind._kernels.aerodisk`."""

        body: int
        parent: int  # spin parent (-1: constant rotor_speed)
        centre_b: np.ndarray  # (3,) hub, body frame
        axis_b: np.ndarray  # (3,) shaft axis, body frame
        points_b: np.ndarray  # (144, 3) wind sample points, body frame
        rotor_speed: float  # rad/s (parent < 0)
        pitch: float  # rad
        radius: float  # m
        half_rho_a: float  # 0.5 rho pi R^2
        use_tsr: bool
        has_skew: bool
        grid_tsr: np.ndarray
        grid_rtspd: np.ndarray  # rad/s
        grid_vrel: np.ndarray  # m/s
        grid_pitch: np.ndarray  # rad
        grid_skew: np.ndarray  # rad
        coef: np.ndarray  # (6, nTSR, nRtSpd, nVRel, nPitch, nSkew)

    def _rotor(self, env) -> Rotor:
        rho = float(self.air_density if self.air_density is not None else env.rho_air)
        hit = self.__dict__.get("_rotor_cache")
        if hit is not None and hit[0] == rho:
            return hit[1]
        tab = self.table
        g = {v: f64(tab.values[v]) for v in VARIABLES}
        rotor = self.Rotor(
            body=int(self.body),
            parent=int(self.spin_parent),
            centre_b=f64(self.rotor_centre_b),
            axis_b=f64(self.shaft_axis_b),
            points_b=f64(disc_points(self.rotor_centre_b, self.shaft_axis_b, self.rotor_radius)),
            rotor_speed=0.0 if self.rotor_speed is None else float(self.rotor_speed),
            pitch=float(self.pitch),
            radius=float(self.rotor_radius),
            half_rho_a=0.5 * rho * math.pi * self.rotor_radius**2,
            use_tsr=bool(tab.use_tsr),
            has_skew=bool(tab.has_skew),
            grid_tsr=g["TSR"], grid_rtspd=g["RtSpd"], grid_vrel=g["VRel"],
            grid_pitch=g["Pitch"], grid_skew=g["Skew"],
            coef=f64(tab.coef),
        )  # fmt: skip
        self.__dict__["_rotor_cache"] = (rho, rotor)
        return rotor

    class Params(NamedTuple):
        rotor: tuple  # Rotor
        wind: tuple  # the wind field's table (floatwind.environment.compiled.WindParams)

    def compiled(self, env, batch):
        from floatwind._kernels import aerodisk as ka
        from floatwind.environment.compiled import wind_params

        p = self.Params(rotor=self._rotor(env), wind=wind_params(env.wind, batch))
        return CompiledLoad(ka.aerodisk_kernel, p)

    # ------------------------------------------------------------------ the contract

    def accepts_time_array(self, env) -> bool:
        """Per-member times reach only the wind query: True when the wind accepts them."""
        return bool(getattr(env.wind, "accepts_time_array", False))

    def disc_loads(self, t, kin: Kinematics, env):
        """Force, moment (B, N, 3) and channels (B, 34) at ``t`` by the load's stage kernels,
        the wind from ``env.wind`` between them; raises AeroDisk's error (SimulationError)."""
        from floatwind._kernels import aerodisk as ka

        rotor = self._rotor(env)
        pos, vel, x_g, pts, omega = python_form(ka.aerodisk_points)(rotor, body_kinematics(kin))
        wind = np.broadcast_to(env.wind.velocity(t, pts), pts.shape)
        force, moment, ch, code = python_form(ka.aerodisk_loads)(
            rotor, f64(kin.r_G_g), kin.n_bodies, pos, vel, x_g, omega, f64(wind)
        )
        if np.any(code):
            self._raise(t, kin, rotor, code, pos, vel, x_g, omega, wind)
        return force, moment, ch

    def _raise(self, t, kin, rotor, code, pos, vel, x_g, omega, wind):
        b = int(np.flatnonzero(code)[0])
        members = np.flatnonzero(code).tolist()
        c = int(code[b])
        time = float(np.ravel(t)[min(b, np.size(t) - 1)])
        if c == 6:
            reason = "the disc-averaged wind is vertical: the yaw error is undefined"
        elif c == 7:
            reason = "the rotor shaft points vertically: the yaw error is undefined"
        else:
            v = wind[b].mean(axis=0) - vel[b]
            vxd = abs(float(v @ x_g[b]))
            vrel = float(np.linalg.norm(v))
            q = {1: (0.0 if vxd == 0 else omega[b] * rotor.radius / vxd), 2: omega[b], 3: vxd,
                 4: rotor.pitch, 5: (0.0 if vrel == 0 else math.acos(min(vxd / vrel, 1.0)))}[c]  # fmt: skip
            what, grid, scale, unit = _WHAT[c]
            g = getattr(rotor, grid) * scale
            reason = (f"{what} {q * scale:.6g}{unit} is outside the AeroDisk table "
                      f"[{g[0]:.6g}, {g[-1]:.6g}]{unit} ({self.table.source or 'table'})")  # fmt: skip
        raise SimulationError(f"AeroDisk '{self.name}': {reason} (AeroDisk stops here)",
                              time=time, members=members)  # fmt: skip

    def wrench(self, t: float, kin: Kinematics, env) -> Wrench:
        """AeroDisk's forces and moments at the hub, about the body CM (inertial axes)."""
        force, moment, ch = self.disc_loads(t, kin, env)
        out = Wrench(force, moment)
        p = self.channel_prefix
        out.channels.update({f"{p}{n}": ch[:, k] for k, n in enumerate(_NAMES)})
        return out

    def channel_info(self) -> dict[str, tuple[str, str]]:
        p = self.channel_prefix
        return {f"{p}{n}": v for n, v in CHANNELS.items()}
