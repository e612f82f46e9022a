"""Nonlinear hydrostatics of a composite of vertical axisymmetric members (Wang eq. 3.14-3.15, 4.15).

The body is a set of members, each a cylinder or a frustum (taper) whose axis is parallel to the
body z axis: axis at ``(x, y) = axis_xy`` in the body reference frame, from ``z_bottom`` to
``z_top`` with diameters ``diameter_bottom`` and ``diameter_top``. At every evaluation the still
water plane z_g = 0 is expressed in the body frame, ``o_z + n . p_b = 0`` with ``n = (t31, t32,
t33)`` the third row of T_{s->I} (3.13) and ``o_z`` the height of the body reference origin, and
each member is classified:

* **fully submerged**: its whole surface is below the plane. Its volume and centre of buoyancy are
  the fixed ones of the member (Wang, end of sec. III.C.3: "the center of buoyancy of fully
  submerged parts ... are not affected by pitch angle").
* **dry**: nothing.
* **surface-piercing cylinder whose end caps are not cut** (the dissertation's case): closed form.
  The submerged length along the axis is ``h1 = -(o_z + n1 x_a + n2 y_a)/n3 - z_bottom``, the
  general form of Wang (3.14) (it reduces to (3.14) for the dissertation's spar), the displaced
  volume is ``pi r^2 h1`` and the centre of buoyancy is Wang (3.15):
  ``x = x_a - t31 r^2/(4 t33 h1)``, ``y = y_a - t32 r^2/(4 t33 h1)``,
  ``z = z_bottom + h1/2 + r^2 (t31^2 + t32^2)/(8 t33^2 h1)``. These are exact for a cylinder cut
  by a plane.
* **anything else that pierces the surface** (a taper at the waterline, a plane that cuts an end
  cap at large tilt, an upside-down body): exact integration of the wetted volume by slices along
  the axis. Each slice is a disc of radius r(z) cut by a straight line; its wetted area and first
  moment are closed-form (circular segment), and the integral over z is done with Gauss-Legendre
  quadrature on the sub-intervals between the levels where the plane touches the rim, on which the
  integrand is analytic (after a sine change of variable that removes the (z - z_cut)^(3/2)
  behaviour at the touching levels), so the result is exact to about 1e-12.

The buoyancy force is ``rho g V e_z`` (inertial) at the centre of buoyancy; its moment about the
body CM follows from the exact positions (no stiffness matrix anywhere). The free surface used
here is the still water level: the wave's dynamic pressure belongs to the Froude-Krylov part of
the Morison load (``C_m``), the usual split (as HydroDyn).
"""

from __future__ import annotations

import logging
import pathlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from floatwind._kernels.contract import (
    BodyKinematics,
    CompiledLoad,
    body_kinematics,
    f64,
    python_form,
)
from floatwind.errors import CaseError
from floatwind.loads.base import Kinematics, Load, Wrench
from floatwind.validate import Section, check_body

logger = logging.getLogger(__name__)

__all__ = ["HydrostaticMember", "Hydrostatics", "frustum_volume_centroid"]

_MEMBER_KEYS = (
    "axis_xy",
    "z_bottom",
    "z_top",
    "diameter",
    "diameter_bottom",
    "diameter_top",
)
_N_GAUSS = 24
_GAUSS_X, _GAUSS_W = np.polynomial.legendre.leggauss(_N_GAUSS)
_SIN_X = np.sin(0.5 * np.pi * _GAUSS_X)
_SIN_W = _GAUSS_W * 0.5 * np.pi * np.cos(0.5 * np.pi * _GAUSS_X)


@dataclass(frozen=True)
class HydrostaticMember:
    """A vertical axisymmetric member in the body frame (m).

    Attributes
    ----------
    z_bottom, z_top : axial extent (m), ``z_top > z_bottom``.
    diameter_bottom, diameter_top : diameters at the two ends (m), > 0.
    axis_xy : (2,) position of the axis in the body x-y plane (m).
    """

    z_bottom: float
    z_top: float
    diameter_bottom: float
    diameter_top: float
    axis_xy: tuple[float, float] = (0.0, 0.0)


def frustum_volume_centroid(z0, z1, r0, r1):
    """Volume (m^3) and axial centroid (m) of a frustum from ``z0`` (radius r0) to ``z1`` (r1)."""
    h = z1 - z0
    s = r0 * r0 + r0 * r1 + r1 * r1
    volume = np.pi * h * s / 3.0
    zc = z0 + h * (r0 * r0 + 2.0 * r0 * r1 + 3.0 * r1 * r1) / (4.0 * s)
    return volume, zc


class Hydrostatics(Load, kind="hydrostatics"):
    """Nonlinear buoyancy of a composite of vertical axisymmetric members on one body.

    Parameters
    ----------
    body : int
        Index of the body.
    members : sequence of HydrostaticMember or mappings
        Members in the body frame (keys of :class:`HydrostaticMember`; a mapping may give
        ``diameter`` for a cylinder).
    channel_prefix : str
        Prefix of the output channel names.

    Output channels (B,)
    --------------------
    ``HstFxi..HstFzi`` buoyancy (N, inertial), ``HstMxi..HstMzi`` its moment about the body
    reference point (N m, inertial axes), ``HstVol`` displaced volume (m^3),
    ``HstCBxi, HstCByi, HstCBzi`` centre of buoyancy (m, inertial).
    """

    time_independent = True

    name = "hydrostatics"

    def __init__(
        self,
        *,
        body: int,
        members: Sequence[HydrostaticMember | Mapping],
        channel_prefix: str = "",
        field: str = "",
    ):
        self.body = check_body(body, _f(field, "body"))
        if not isinstance(members, (list, tuple)) or len(members) == 0:
            raise CaseError("needs at least one member", field=_f(field, "members"))
        self.members = tuple(
            self._make_member(mb, f"{_f(field, 'members')}[{i}]") for i, mb in enumerate(members)
        )
        self.channel_prefix = str(channel_prefix)
        mb = self.members
        self.z0 = np.array([m.z_bottom for m in mb])
        self.z1 = np.array([m.z_top for m in mb])
        self.r0 = np.array([m.diameter_bottom for m in mb]) / 2.0
        self.r1 = np.array([m.diameter_top for m in mb]) / 2.0
        self.axis_xy = np.array([m.axis_xy for m in mb], dtype=float)  # (M, 2)
        self.is_cylinder = self.r0 == self.r1
        self.full_volume, zc = frustum_volume_centroid(self.z0, self.z1, self.r0, self.r1)
        self.full_centroid = np.column_stack([self.axis_xy, zc])  # (M, 3)

    @staticmethod
    def _make_member(member, field: str) -> HydrostaticMember:
        if isinstance(member, HydrostaticMember):
            member = {
                "z_bottom": member.z_bottom,
                "z_top": member.z_top,
                "diameter_bottom": member.diameter_bottom,
                "diameter_top": member.diameter_top,
                "axis_xy": list(member.axis_xy),
            }
        sec = Section(member, field, _MEMBER_KEYS)
        z_bottom = sec.number("z_bottom")
        z_top = sec.number("z_top")
        if z_top <= z_bottom:
            raise CaseError(
                f"z_top = {z_top:g} m must be above z_bottom = {z_bottom:g} m",
                field=sec.path("z_top"),
            )
        d_bottom, d_top = sec.diameters("diameter_bottom", "diameter_top")
        axis_xy = sec.vector("axis_xy", np.zeros(2), size=2)
        return HydrostaticMember(
            z_bottom=z_bottom,
            z_top=z_top,
            diameter_bottom=d_bottom,
            diameter_top=d_top,
            axis_xy=(float(axis_xy[0]), float(axis_xy[1])),
        )

    @classmethod
    def from_config(
        cls,
        cfg: dict,
        *,
        body_index: dict[str, int],
        field: str,
        base_dir: pathlib.Path | None = None,
        tree=None,
    ) -> Hydrostatics:
        """Build from ``{type: hydrostatics, body: .., members: [..]}`` (see ``docs/loads.md``)."""
        sec = Section(cfg, field, ("type", "body", "members", "channel_prefix"))
        return cls(
            body=sec.body(body_index),
            members=[item for _, item in sec.items("members")],
            channel_prefix=sec.raw("channel_prefix", ""),
            field=field,
        )

    def buoyancy(self, R_b2g: np.ndarray, origin_g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Displaced volume and centre of buoyancy for a body pose (the load's kernel stages).

        Parameters
        ----------
        R_b2g : (B, 3, 3) body-to-inertial rotation.
        origin_g : (B, 3) position of the body reference origin (m, inertial).

        Returns
        -------
        volume : (B,) displaced volume (m^3).
        cb_b : (B, 3) centre of buoyancy in the body frame (m); the body origin where volume = 0.
        """
        B = R_b2g.shape[0]
        kin = BodyKinematics(
            r_G=f64(origin_g).reshape(B, 1, 3),
            R_b2g=f64(R_b2g).reshape(B, 1, 3, 3),
            v_G=np.zeros((B, 1, 3)),
            w_b=np.zeros((B, 1, 3)),
            cm_b=np.zeros((1, 3)),
        )
        _, vol, cen = self._volumes(self._params(0.0)._replace(body=0), kin)
        volume = vol.sum(axis=1)
        safe = np.where(volume > 0.0, volume, 1.0)
        cb_b = np.einsum("bm,bmi->bi", vol, cen) / safe[:, None]
        return volume, cb_b

    @staticmethod
    def _volumes(p, kin):
        """Body origin (B, 3), wetted volume (B, M) and centroid (B, M, 3, body frame) of each
        member: ``hydrostatics_classify`` and ``hydrostatics_slices`` (compiled, or their Python
        forms with FLOATWIND_NO_JIT=1)."""
        from floatwind._kernels import loads as kl

        origin, vol, cen, sliced, c, n, m = python_form(kl.hydrostatics_classify)(p, kin)
        if sliced.any():  # the tapered / cap-cutting members
            python_form(kl.hydrostatics_slices)(p, vol, cen, sliced, c, n, m)
        return origin, vol, cen

    def wrench(self, t: float, kin: Kinematics, env) -> Wrench:
        """Buoyancy force and its moment about the body CM (inertial axes), by the stages of the
        load's kernel (:mod:`floatwind._kernels.loads`).

        Parameters
        ----------
        t : float
            Time (s), unused (still water level).
        kin : Kinematics
            Batched kinematics.
        env : Environment
            Uses ``rho_water`` (kg/m^3) and ``gravity`` (m/s^2).
        """
        from floatwind._kernels import loads as kl

        p = self._params(float(env.rho_water) * float(env.gravity))
        bk = body_kinematics(kin)
        origin, vol, cen = self._volumes(p, bk)
        force, moment, volume, r_B, m_ref = python_form(kl.hydrostatics_wrench)(
            p, bk, origin, vol, cen
        )
        out = Wrench(force, moment)
        f = force[:, self.body]
        pre = self.channel_prefix
        wet = volume > 0.0
        for k, ax in enumerate("xyz"):
            out.channels[f"{pre}HstF{ax}i"] = f[:, k]
            out.channels[f"{pre}HstM{ax}i"] = m_ref[:, k]
            out.channels[f"{pre}HstCB{ax}i"] = np.where(wet, r_B[:, k], np.nan)
        out.channels[f"{pre}HstVol"] = volume
        return out

    def channel_info(self) -> dict[str, tuple[str, str]]:
        p = self.channel_prefix
        info = {f"{p}HstVol": ("m^3", "displaced volume")}
        for ax in "xyz":
            info[f"{p}HstF{ax}i"] = ("N", f"buoyancy force, inertial {ax}")
            info[f"{p}HstM{ax}i"] = (
                "N m",
                f"buoyancy moment about the body reference point, inertial {ax}",
            )
            info[f"{p}HstCB{ax}i"] = ("m", f"centre of buoyancy, inertial {ax} (NaN when dry)")
        return info


    class Params(NamedTuple):
        body: int
        z0: np.ndarray  # (M,) member bottom / top along the body z axis
        z1: np.ndarray
        r0: np.ndarray  # (M,) radii at z0 / z1
        r1: np.ndarray
        axis_xy: np.ndarray  # (M, 2)
        is_cylinder: np.ndarray  # (M,) bool
        full_volume: np.ndarray  # (M,)
        full_centroid: np.ndarray  # (M, 3)
        rho_g: float
        slice_x: np.ndarray  # the slice integration's Gauss rule (_SIN_X, _SIN_W)
        slice_w: np.ndarray

    def _params(self, rho_g: float) -> Params:
        """The kernel's record for the buoyancy per volume ``rho_g`` (N/m^3), kept for the
        next calls."""
        cache = self.__dict__.setdefault("_params_cache", {})
        if rho_g in cache:
            return cache[rho_g]
        p = self.Params(
            body=int(self.body),
            z0=f64(self.z0),
            z1=f64(self.z1),
            r0=f64(self.r0),
            r1=f64(self.r1),
            axis_xy=f64(self.axis_xy),
            is_cylinder=np.ascontiguousarray(self.is_cylinder, dtype=np.bool_),
            full_volume=f64(self.full_volume),
            full_centroid=f64(self.full_centroid),
            rho_g=rho_g,
            slice_x=f64(_SIN_X),
            slice_w=f64(_SIN_W),
        )
        cache[rho_g] = p
        return p

    def compiled(self, env, batch):
        from floatwind._kernels import loads as kl

        return CompiledLoad(
            kl.hydrostatics_kernel, self._params(float(env.rho_water) * float(env.gravity))
        )


def _f(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key
