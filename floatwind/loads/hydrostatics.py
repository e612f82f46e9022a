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

from floatwind import _kernels
from floatwind._kernels.contract import CompiledLoad, f64
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
_TINY = 1e-12


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


def _segment(d, r):
    """Area and first moment (along the cut normal) of the part ``xi < d`` of a disc of radius r."""
    dc = np.clip(d, -r, r)
    root = np.sqrt(np.maximum(r * r - dc * dc, 0.0))
    ratio = np.clip(dc / np.where(r > 0, r, 1.0), -1.0, 1.0)
    area = np.pi * r * r - r * r * np.arccos(ratio) + dc * root
    moment = -(2.0 / 3.0) * root**3
    return area, moment


def wetted_volume_by_slices(c, n3, m, z0, z1, r0, r1):
    """Wetted volume and centroid of frustums cut by a plane, by exact slice integration.

    In member coordinates (axis along z, origin on the axis), a point ``(xi, eta, z)`` is wet when
    ``c + m xi + n3 z < 0`` (``xi`` along the horizontal projection of the plane normal).

    Parameters
    ----------
    c, n3, m : (K,) plane offset (m) and normal components (m >= 0).
    z0, z1, r0, r1 : (K,) member ends (m) and radii (m).

    Returns
    -------
    volume : (K,) wetted volume (m^3).
    xi_c, z_c : (K,) centroid along ``xi`` and along the axis (m).
    """
    k = (r1 - r0) / (z1 - z0)
    # levels where the cut line touches the rim, d(z) = +-r(z): analytic pieces in between
    cuts = []
    for sgn in (1.0, -1.0):
        den = n3 + sgn * m * k
        num = -c - sgn * m * (r0 - k * z0)
        ok = np.abs(den) > _TINY
        zc = np.where(ok, num / np.where(ok, den, 1.0), z0)
        cuts.append(np.clip(zc, z0, z1))
    edges = np.sort(np.stack([z0, cuts[0], cuts[1], z1], axis=-1), axis=-1)  # (K, 4)
    lo, hi = edges[:, :-1], edges[:, 1:]  # (K, 3)
    half = 0.5 * (hi - lo)
    # z = mid + half sin(pi s / 2): the (z - z_cut)^(3/2) behaviour at the touching levels becomes
    # analytic in s, so Gauss-Legendre converges exponentially
    z = 0.5 * (hi + lo)[..., None] + half[..., None] * _SIN_X  # (K, 3, G)
    w = half[..., None] * _SIN_W
    r = r0[:, None, None] + k[:, None, None] * (z - z0[:, None, None])
    level = c[:, None, None] + n3[:, None, None] * z
    vertical = m <= _TINY
    m_safe = np.where(vertical, 1.0, m)[:, None, None]
    big = 10.0 * (np.abs(r) + 1.0)
    d = np.where(vertical[:, None, None], np.where(level < 0.0, big, -big), -level / m_safe)
    area, first = _segment(d, r)
    volume = np.sum(w * area, axis=(1, 2))
    safe = np.where(volume > 0.0, volume, 1.0)
    xi_c = np.sum(w * first, axis=(1, 2)) / safe
    z_c = np.sum(w * area * z, axis=(1, 2)) / safe
    return volume, xi_c, z_c


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
        """Displaced volume and centre of buoyancy for a body pose.

        Parameters
        ----------
        R_b2g : (B, 3, 3) body-to-inertial rotation.
        origin_g : (B, 3) position of the body reference origin (m, inertial).

        Returns
        -------
        volume : (B,) displaced volume (m^3).
        cb_b : (B, 3) centre of buoyancy in the body frame (m); the body origin where volume = 0.
        """
        n = R_b2g[:, 2, :]  # (t31, t32, t33), Wang (3.13)
        n12 = n[:, :2]
        n3 = n[:, 2:3]  # (B, 1)
        m = np.linalg.norm(n12, axis=-1)[:, None]  # (B, 1)
        c = origin_g[:, 2:3] + n12 @ self.axis_xy.T  # (B, M): height of the axis point z_b = 0
        zc0 = c + n3 * self.z0
        zc1 = c + n3 * self.z1
        zmax = np.maximum(zc0 + m * self.r0, zc1 + m * self.r1)
        zmin = np.minimum(zc0 - m * self.r0, zc1 - m * self.r1)
        full = zmax <= 0.0
        pierce = ~full & (zmin < 0.0)

        vol = np.where(full, self.full_volume, 0.0)
        cen = np.where(full[..., None], self.full_centroid, 0.0)  # (B, M, 3)

        # Wang (3.14)-(3.15): surface-piercing cylinder, end caps not cut
        closed = (
            pierce
            & self.is_cylinder
            & (n3 > _TINY)
            & (zc0 + m * self.r0 <= 0.0)
            & (zc1 - m * self.r1 >= 0.0)
        )
        if np.any(closed):
            n3s = np.where(closed, n3, 1.0)
            h1 = np.where(closed, -c / n3s - self.z0, 1.0)  # general form of (3.14)
            h1 = np.where(h1 > 0.0, h1, 1.0)
            r2 = self.r0 * self.r0
            v_c = np.pi * r2 * h1
            x_c = self.axis_xy[:, 0] - n[:, 0:1] * r2 / (4.0 * n3s * h1)
            y_c = self.axis_xy[:, 1] - n[:, 1:2] * r2 / (4.0 * n3s * h1)
            z_c = self.z0 + h1 / 2.0 + r2 * m * m / (8.0 * n3s * n3s * h1)
            vol = np.where(closed, v_c, vol)
            cen = np.where(closed[..., None], np.stack([x_c, y_c, z_c], axis=-1), cen)

        sliced = pierce & ~closed
        if np.any(sliced):
            bi, mi = np.nonzero(sliced)
            v_s, xi_s, z_s = wetted_volume_by_slices(
                c[bi, mi], n3[bi, 0], m[bi, 0], self.z0[mi], self.z1[mi], self.r0[mi], self.r1[mi]
            )
            m_b = m[bi, 0]
            u = np.where(
                (m_b > _TINY)[:, None], n12[bi] / np.where(m_b > _TINY, m_b, 1.0)[:, None], 0.0
            )
            vol[bi, mi] = v_s
            cen[bi, mi, 0] = self.axis_xy[mi, 0] + u[:, 0] * xi_s
            cen[bi, mi, 1] = self.axis_xy[mi, 1] + u[:, 1] * xi_s
            cen[bi, mi, 2] = z_s

        volume = vol.sum(axis=1)
        safe = np.where(volume > 0.0, volume, 1.0)
        cb_b = np.einsum("bm,bmi->bi", vol, cen) / safe[:, None]
        return volume, cb_b

    def wrench(self, t: float, kin: Kinematics, env) -> Wrench:
        """Buoyancy force and its moment about the body CM (inertial axes).

        Parameters
        ----------
        t : float
            Time (s), unused (still water level).
        kin : Kinematics
            Batched kinematics.
        env : Environment
            Uses ``rho_water`` (kg/m^3) and ``gravity`` (m/s^2).
        """
        if _kernels.enabled():
            return self._wrench_jit(kin, env)
        R = kin.R_b2g[:, self.body]
        r_G = kin.r_G_g[:, self.body]
        origin = r_G - np.einsum("bij,j->bi", R, kin.cm_b[self.body])
        volume, cb_b = self.buoyancy(R, origin)
        r_B = origin + np.einsum("bij,bj->bi", R, cb_b)
        out = Wrench.zeros(kin.batch, kin.n_bodies)
        force = np.zeros((kin.batch, 3))
        force[:, 2] = env.rho_water * env.gravity * volume
        out.force[:, self.body] = force
        out.moment[:, self.body] = np.cross(r_B - r_G, force)
        moment_ref = np.cross(r_B - origin, force)
        p = self.channel_prefix
        for k, ax in enumerate("xyz"):
            out.channels[f"{p}HstF{ax}i"] = force[:, k]
            out.channels[f"{p}HstM{ax}i"] = moment_ref[:, k]
            out.channels[f"{p}HstCB{ax}i"] = np.where(volume > 0.0, r_B[:, k], np.nan)
        out.channels[f"{p}HstVol"] = volume
        return out

    def _wrench_jit(self, kin: Kinematics, env) -> Wrench:
        """:meth:`wrench` with the compiled kernels (floatwind._kernels.loads), the sliced
        (tapered / cap-cutting) members by ``hydrostatics_slices``, the compiled
        :func:`wetted_volume_by_slices`."""
        from floatwind._kernels import loads as kl

        origin, vol, cen, sliced, c, n, m = kl.hydrostatics_classify(
            _kernels.f64(kin.R_b2g),
            _kernels.f64(kin.r_G_g),
            _kernels.f64(kin.cm_b),
            self.body,
            self.z0,
            self.z1,
            self.r0,
            self.r1,
            self.axis_xy,
            self.is_cylinder,
            self.full_volume,
            self.full_centroid,
        )
        if sliced.any():  # the compiled slice integration (wetted_volume_by_slices)
            kl.hydrostatics_slices(
                vol, cen, sliced, c, n, m, self.z0, self.z1, self.r0, self.r1, self.axis_xy,
                _SIN_X, _SIN_W,
            )  # fmt: skip
        force, moment, volume, r_B, m_ref = kl.hydrostatics_wrench(
            _kernels.f64(kin.R_b2g),
            _kernels.f64(kin.r_G_g),
            self.body,
            kin.n_bodies,
            origin,
            vol,
            cen,
            env.rho_water * env.gravity,
        )
        out = Wrench(force, moment)
        f = force[:, self.body]
        p = self.channel_prefix
        wet = volume > 0.0
        for k, ax in enumerate("xyz"):
            out.channels[f"{p}HstF{ax}i"] = f[:, k]
            out.channels[f"{p}HstM{ax}i"] = m_ref[:, k]
            out.channels[f"{p}HstCB{ax}i"] = np.where(wet, r_B[:, k], np.nan)
        out.channels[f"{p}HstVol"] = volume
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

    def compiled(self, env, batch):
        from floatwind._kernels import loads as kl

        p = self.Params(
            int(self.body), f64(self.z0), f64(self.z1), f64(self.r0), f64(self.r1),
            f64(self.axis_xy), np.ascontiguousarray(self.is_cylinder, dtype=np.bool_),
            f64(self.full_volume), f64(self.full_centroid),
            float(env.rho_water) * float(env.gravity), f64(_SIN_X), f64(_SIN_W),
        )  # fmt: skip
        return CompiledLoad(kl.hydrostatics_kernel, p)


def _f(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key
