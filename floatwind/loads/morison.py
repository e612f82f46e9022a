"""Morison strip theory on leaning cylinders with an added-mass matrix (Wang eq. 3.22-3.26, 4.18-4.19).

Members are straight (possibly tapered) cylinders given by their end points ``end_a``, ``end_b`` in
the body reference frame and the diameters there. Each member is cut into strips. At every
evaluation, for every strip (all batch members and strips at once):

* the instantaneous axis ``e = R_b2g e_b`` (``axis="instantaneous"``, Wang) or the undisplaced
  one ``e_b`` (``axis="undisplaced"``, as HydroDyn does without displaced-position wave kinematics);
* the wetted part of the strip: the free surface is the wave elevation at the strip's horizontal
  position (``env.sea.elevation``); the strip that crosses it keeps only the length below the
  surface, and its loads are evaluated at, and applied to, the middle of that wetted part. The
  wetted length is a continuous function of the motion, so the load has no jumps as strips
  emerge and submerge;
* structural velocity and acceleration from rigid-body kinematics, no small angles (4.18)-(4.19):
  ``v_s = v_G + w x r``, ``a_s = a_G + dw x r + w x (w x r)``;
* the Morison force per unit length, Wang (3.22), with normal components ``()_n = v - (v.e) e``
  (Wang: ``e x (v x e)``)::

      f_n = C_m rho A a_n(wave) - C_a rho A a_n(structure) + 0.5 rho C_d D |v_rn| v_rn

  with ``v_rn`` the normal wave velocity relative to the strip. ``C_m`` (Froude-Krylov plus
  diffraction; HydroDyn's ``1 + C_a`` for ``C_p = 1``) multiplies the wave acceleration.

The ``C_a`` term is split in two. The part that is known from the state, ``w x (w x r)``, stays in
the force. The part linear in the unknown body accelerations ``[a_G; dw]`` is returned as a 6x6
added-mass matrix about the body CM in inertial axes (load contract rule 3): for a strip of
added mass ``m = rho C_a A l_wet``, normal projector ``P = I - e e^T`` and arm ``r`` from the CM,

    A = sum m [[P, -P [r]x], [[r]x P, -[r]x P [r]x]]

which is symmetric positive semi-definite and changes with the orientation and the wetted length.

Optional axial loads at member ends (heave plates, end caps): axial drag
``0.5 rho C_d,ax A_p |v_ra| v_ra`` on the axial relative velocity, and axial added mass
``rho C_a,ax (2/3) pi R_p^3`` (HydroDyn's reference volume of a half sphere) along the axis, with
the matching axial wave-acceleration (diffraction) force. The axial Froude-Krylov force from the
dynamic pressure on the end is not included (Wang: dynamic pressures along the axis are
neglected). An end acts only while it is below the free surface.
"""

from __future__ import annotations

import logging
import math
import pathlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from floatwind._kernels.contract import CompiledLoad, NoCompiledForm, f64, i64, python_form
from floatwind.errors import CaseError
from floatwind.loads.base import Kinematics, Load, Wrench
from floatwind.validate import (
    Section,
    check_body,
    check_finite,
    check_nonnegative,
)

logger = logging.getLogger(__name__)

__all__ = ["AxialEnd", "MorisonMember", "MorisonMembers"]

AXIS_MODES = ("instantaneous", "undisplaced")
SURFACE_MODES = ("wave", "still")
_MEMBER_KEYS = (
    "end_a",
    "end_b",
    "diameter",
    "diameter_a",
    "diameter_b",
    "cd",
    "ca",
    "cm",
    "n_strips",
    "strip_length",
    "axial_a",
    "axial_b",
)
_AXIAL_KEYS = ("cd", "ca", "diameter")
_TOP_KEYS = (
    "type",
    "body",
    "members",
    "cd",
    "ca",
    "cm",
    "strip_length",
    "axis",
    "surface",
    "strip_outputs",
    "channel_prefix",
)


@dataclass(frozen=True)
class AxialEnd:
    """Axial (heave-plate / end) coefficients at one member end.

    Attributes
    ----------
    cd : axial drag coefficient (-) on the plate area ``pi D^2 / 4``.
    ca : axial added-mass coefficient (-) on the half-sphere volume ``(2/3) pi (D/2)^3``.
    diameter : plate diameter D (m); None for the member diameter at that end.
    """

    cd: float = 0.0
    ca: float = 0.0
    diameter: float | None = None


@dataclass(frozen=True)
class MorisonMember:
    """One Morison member in the body frame (SI).

    Attributes
    ----------
    end_a, end_b : (3,) end points in the body reference frame (m).
    diameter_a, diameter_b : diameters at the ends (m); linear taper in between.
    cd, ca, cm : drag, added-mass and inertia coefficients (-); ``cm`` None means ``1 + ca``.
    n_strips : number of strips (equal length).
    axial_a, axial_b : optional :class:`AxialEnd` loads at the ends.
    """

    end_a: np.ndarray
    end_b: np.ndarray
    diameter_a: float
    diameter_b: float
    cd: float = 0.6
    ca: float = 1.0
    cm: float | None = None
    n_strips: int = 20
    axial_a: AxialEnd | None = None
    axial_b: AxialEnd | None = None


class MorisonMembers(Load, kind="morison"):
    """Morison loads on the members of one body, with the added-mass matrix (Wang (3.22)-(3.26)).

    Parameters
    ----------
    body : int
        Index of the body the members belong to.
    members : sequence of MorisonMember
        The members (see :meth:`from_config` for the case-file form).
    axis : {"instantaneous", "undisplaced"}
        Strip axis, wetting and wave-kinematics positions from the displaced body (Wang, default)
        or from the undisplaced body (body frame on the inertial frame, as HydroDyn without
        displaced-position wave kinematics; loads are still applied at the displaced strips with
        the true structural velocity).
    strip_outputs : sequence of (int, float)
        Per-strip outputs: ``(member index from 0, location along the member from 0 at end_a to
        1 at end_b)``; the strip containing that location is reported.
    channel_prefix : str
        Prefix of the output channel names.

    Output channels (B,)
    --------------------
    ``MrsnFxi..MrsnFzi`` total Morison force (N, inertial, without the added-mass part
    ``-A [a_G; dw]``), ``MrsnMxi..MrsnMzi`` its moment about the body reference point (N m).
    For each strip output k = 1, 2, ... (HydroDyn member-output style, one node): ``MkN1FDxi..``
    drag and ``MkN1FIxi..`` wave-inertia force per unit wetted length (N/m), ``MkN1Vxi..`` wave
    velocity and ``MkN1STVxi..`` structural velocity (m/s), ``MkN1Wet`` wetted fraction (-).
    """

    name = "morison"

    def __init__(
        self,
        *,
        body: int,
        members: Sequence[MorisonMember],
        axis: str = "instantaneous",
        surface: str = "wave",
        strip_outputs: Sequence[tuple[int, float]] = (),
        channel_prefix: str = "",
        field: str = "",
    ):
        self.body = check_body(body, _f(field, "body"))
        if axis not in AXIS_MODES:
            raise CaseError(
                f"expected one of {list(AXIS_MODES)}, got {axis!r}", field=_f(field, "axis")
            )
        self.axis = axis
        if surface not in SURFACE_MODES:
            raise CaseError(
                f"expected one of {list(SURFACE_MODES)}, got {surface!r}",
                field=_f(field, "surface"),
            )
        # "wave": strips are wetted up to the instantaneous wave elevation (Wang); "still": up to
        # the still water level, as HydroDyn without wave stretching (WaveStMod = 0)
        self.surface = surface
        if not isinstance(members, (list, tuple)) or len(members) == 0:
            raise CaseError("needs at least one member", field=_f(field, "members"))
        for i, mb in enumerate(members):
            _validate_member(mb, f"{_f(field, 'members')}[{i}]")
        self.members = tuple(members)
        self.channel_prefix = str(channel_prefix)
        self._build_strips()
        self._build_ends()
        self._strip_out = []
        for k, item in enumerate(strip_outputs):
            fld = f"{_f(field, 'strip_outputs')}[{k}]"
            try:
                member, loc = item
            except (TypeError, ValueError):
                raise CaseError("expected (member, location)", field=fld) from None
            if not isinstance(member, (int, np.integer)) or not 0 <= member < len(self.members):
                raise CaseError(
                    f"member index must be 0..{len(self.members) - 1}, got {member!r}", field=fld
                )
            loc = check_finite(loc, fld)
            if not 0.0 <= loc <= 1.0:
                raise CaseError(f"location must be in [0, 1], got {loc:g}", field=fld)
            n = self.members[member].n_strips
            j = self._first_strip[member] + min(int(loc * n), n - 1)
            self._strip_out.append(j)

    # ------------------------------------------------------------------ construction
    def _build_strips(self):
        centres, axes, lengths, ends_a, ends_b = [], [], [], [], []
        diam, area, cd, ca, cm, first = [], [], [], [], [], []
        count = 0
        for mb in self.members:
            a = np.asarray(mb.end_a, float)
            b = np.asarray(mb.end_b, float)
            n = int(mb.n_strips)
            first.append(count)
            count += n
            s = np.linspace(0.0, 1.0, n + 1)
            pts = a + s[:, None] * (b - a)
            d_nodes = mb.diameter_a + s * (mb.diameter_b - mb.diameter_a)
            length = float(np.linalg.norm(b - a))
            ends_a.append(pts[:-1])
            ends_b.append(pts[1:])
            centres.append(0.5 * (pts[:-1] + pts[1:]))
            axes.append(np.broadcast_to((b - a) / length, (n, 3)))
            lengths.append(np.full(n, length / n))
            d1, d2 = d_nodes[:-1], d_nodes[1:]
            diam.append(0.5 * (d1 + d2))
            # exact mean of pi D^2 / 4 over a linearly tapered strip
            area.append(np.pi / 4.0 * (d1 * d1 + d1 * d2 + d2 * d2) / 3.0)
            cd.append(np.full(n, mb.cd))
            ca.append(np.full(n, mb.ca))
            cm.append(np.full(n, 1.0 + mb.ca if mb.cm is None else mb.cm))
        self._first_strip = first
        self.strip_a_b = np.concatenate(ends_a)  # (S, 3)
        self.strip_b_b = np.concatenate(ends_b)
        self.strip_centre_b = np.concatenate(centres)
        self.strip_axis_b = np.concatenate(axes)
        self.strip_length = np.concatenate(lengths)
        self.strip_diameter = np.concatenate(diam)
        self.strip_area = np.concatenate(area)
        self.strip_cd = np.concatenate(cd)
        self.strip_ca = np.concatenate(ca)
        self.strip_cm = np.concatenate(cm)

    def _build_ends(self):
        pos, axis, area, vref, cd, ca = [], [], [], [], [], []
        for mb in self.members:
            a = np.asarray(mb.end_a, float)
            b = np.asarray(mb.end_b, float)
            e = (b - a) / np.linalg.norm(b - a)
            for end, p, d in ((mb.axial_a, a, mb.diameter_a), (mb.axial_b, b, mb.diameter_b)):
                if end is None or (end.cd == 0.0 and end.ca == 0.0):
                    continue
                dp = d if end.diameter is None else end.diameter
                pos.append(p)
                axis.append(e)
                area.append(np.pi * dp * dp / 4.0)
                vref.append(2.0 / 3.0 * np.pi * (dp / 2.0) ** 3)
                cd.append(end.cd)
                ca.append(end.ca)
        self.end_pos_b = np.array(pos, float).reshape(-1, 3)
        self.end_axis_b = np.array(axis, float).reshape(-1, 3)
        self.end_area = np.array(area, float)
        self.end_vref = np.array(vref, float)
        self.end_cd = np.array(cd, float)
        self.end_ca = np.array(ca, float)

    @property
    def n_strips(self) -> int:
        return self.strip_length.size

    @property
    def wave_points(self) -> int:
        """The strip centres and member ends, where the sea's kinematics are sampled."""
        return len(self.strip_centre_b) + len(self.end_pos_b)

    @classmethod
    def from_config(
        cls,
        cfg: dict,
        *,
        body_index: dict[str, int],
        field: str,
        base_dir: pathlib.Path | None = None,
        tree=None,
    ) -> MorisonMembers:
        """Build from ``{type: morison, body: .., members: [..], ...}`` (see ``docs/loads.md``)."""
        sec = Section(cfg, field, _TOP_KEYS)
        body = sec.body(body_index)
        cd0 = sec.number("cd", 0.6, kind="nonnegative")
        ca0 = sec.number("ca", 1.0, kind="nonnegative")
        cm0 = sec.number("cm", None, kind="nonnegative")
        strip_len0 = sec.number("strip_length", 1.0, kind="positive")
        members = []
        for path, item in sec.items("members"):
            m = Section(item, path, _MEMBER_KEYS)
            end_a = m.vector("end_a")
            end_b = m.vector("end_b")
            da, db = m.diameters("diameter_a", "diameter_b")
            length = float(np.linalg.norm(end_b - end_a))
            if length == 0.0:
                raise CaseError("end_a and end_b coincide (zero-length member)", field=path)
            if m.has("n_strips") and m.has("strip_length"):
                raise CaseError(
                    "give either 'n_strips' or 'strip_length', not both", field=m.path("n_strips")
                )
            if m.has("n_strips"):
                n = m.raw("n_strips")
                if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                    raise CaseError(
                        f"expected an integer >= 1, got {n!r}", field=m.path("n_strips")
                    )
            else:
                dl = m.number("strip_length", strip_len0, kind="positive")
                n = max(1, math.ceil(length / dl - 1e-9))
            ca = m.number("ca", ca0, kind="nonnegative")
            members.append(
                MorisonMember(
                    end_a=end_a,
                    end_b=end_b,
                    diameter_a=da,
                    diameter_b=db,
                    cd=m.number("cd", cd0, kind="nonnegative"),
                    ca=ca,
                    cm=m.number("cm", cm0, kind="nonnegative"),
                    n_strips=n,
                    axial_a=_axial_from_config(m, "axial_a"),
                    axial_b=_axial_from_config(m, "axial_b"),
                )
            )
        outputs = []
        for path, item in sec.items("strip_outputs", required=False):
            o = Section(item, path, ("member", "location"))
            member = o.raw("member")
            if isinstance(member, bool) or not isinstance(member, int):
                raise CaseError(f"expected a member index, got {member!r}", field=o.path("member"))
            outputs.append((member, o.number("location", 0.5)))
        return cls(
            body=body,
            members=members,
            axis=sec.choice("axis", AXIS_MODES, "instantaneous"),
            surface=sec.choice("surface", SURFACE_MODES, "wave"),
            strip_outputs=outputs,
            channel_prefix=sec.raw("channel_prefix", ""),
            field=field,
        )

    # ------------------------------------------------------------------ evaluation
    def _sea(self, env, key: str, ref_points: np.ndarray):
        """The sea to query for the strips (key "strips") or member ends ("ends").

        A sea with an ``evaluator`` method (``LinearSea``) is asked once per sea for a fast
        evaluator at the undisplaced points (``environment.waves.kinematics``, see
        docs/environment.md); other seas are used as they are.
        """
        sea = env.sea
        make = getattr(sea, "evaluator", None)
        if make is None:
            return sea
        cache = self.__dict__.setdefault("_sea_cache", {})
        hit = cache.get(key)
        if hit is None or hit[0] is not sea:
            hit = (sea, make(ref_points))
            cache[key] = hit
        return hit[1]

    def accepts_time_array(self, env) -> bool:
        """Per-member times reach only the sea queries: True when the seas used accept them."""
        seas = [self._sea(env, "strips", self.strip_centre_b)]
        if self.end_pos_b.size:
            seas.append(self._sea(env, "ends", self.end_pos_b))
        return all(getattr(sea, "accepts_time_array", False) for sea in seas)

    def _surface(self, t, sea, xy, shape) -> np.ndarray:
        """Free-surface height (B, P) the wetting is measured against (``surface`` option)."""
        if self.surface == "still":
            return np.zeros(shape)
        return np.broadcast_to(sea.elevation(t, xy), shape)

    def wrench(self, t: float, kin: Kinematics, env) -> Wrench:
        """Morison force, moment about the body CM and added-mass matrix (inertial axes).

        Computed by the stages of the load's kernels (:mod:`floatwind._kernels.morison`,
        compiled, or their Python forms with ``FLOATWIND_NO_JIT=1``), with the sea object
        queried between them (any sea; the compiled stepping queries the sea's table instead).

        Parameters
        ----------
        t : float
            Time (s).
        kin : Kinematics
            Batched kinematics; accelerations are not used (rule 3 of the load contract).
        env : Environment
            ``rho_water`` (kg/m^3), ``sea.elevation`` and ``sea.kinematics``.

        Returns
        -------
        Wrench
            ``force``/``moment`` (B, N, 3) without the acceleration-dependent part,
            ``added_mass`` (B, N, 6, 6) with it (zero blocks for the other bodies).
        """
        from floatwind._kernels import morison as km

        B = kin.batch
        body = self.body
        R = f64(kin.R_b2g[:, body])
        r_G = f64(kin.r_G_g[:, body])
        v_G = f64(kin.v_G_g[:, body])
        w = f64(kin.w_b_g[:, body])
        cm = f64(kin.cm_b[body])
        inst = self.axis == "instantaneous"
        strips, ends = self._records(float(env.rho_water))
        sea = self._sea(env, "strips", self.strip_centre_b)
        p1, p2, e, cxy, zz = python_form(km.strip_geometry)(strips, R, r_G, cm, inst)
        eta = _as_field(self._surface(t, sea, cxy, cxy.shape[:-1]), (B, self.n_strips))
        frac, x_g, arm, x_k = python_form(km.strip_points)(strips, p1, p2, zz, eta, r_G, inst)
        u, du = sea.kinematics(t, x_k)
        u = _as_field(u, x_g.shape)
        du = _as_field(du, x_g.shape)
        force, moment, added, f_drag, f_inert, v_s = python_form(km.strip_loads)(
            strips, u, du, e, arm, frac, v_G, w
        )
        if ends is not None:
            x_g, x_k, e = python_form(km.end_points)(ends, R, r_G, cm, inst)
            sea = self._sea(env, "ends", self.end_pos_b)
            eta_e = _as_field(self._surface(t, sea, x_k[..., :2], x_g.shape[:-1]), x_g.shape[:-1])
            ue, due = sea.kinematics(t, x_k)
            f_end, m_end, a_end = python_form(km.end_sums)(
                ends, x_g, x_k, e, eta_e, _as_field(ue, x_g.shape), _as_field(due, x_g.shape), r_G,
                v_G, w,
            )  # fmt: skip
            force = force + f_end
            moment = moment + m_end
            added = added + a_end
        return self._output(kin, force, moment, added, f_drag, f_inert, u, v_s, frac)

    def _output(self, kin, force, moment, added, f_drag, f_inert, u, v_s, frac):
        """The Wrench with its output channels from the Morison results of :meth:`wrench`."""
        body = self.body
        R = f64(kin.R_b2g[:, body])
        r_G = f64(kin.r_G_g[:, body])
        cm = f64(kin.cm_b[body])
        out = Wrench.zeros(kin.batch, kin.n_bodies)
        out.force[:, body] = force
        out.moment[:, body] = moment
        out.added_mass = np.zeros((kin.batch, kin.n_bodies, 6, 6))
        out.added_mass[:, body] = added

        origin = r_G - R @ cm
        moment_ref = moment + _cross(r_G - origin, force)
        p = self.channel_prefix
        for k, ax in enumerate("xyz"):
            out.channels[f"{p}MrsnF{ax}i"] = force[:, k]
            out.channels[f"{p}MrsnM{ax}i"] = moment_ref[:, k]
        for k, j in enumerate(self._strip_out, start=1):
            name = f"{p}M{k}N1"
            for c, ax in enumerate("xyz"):
                out.channels[f"{name}FD{ax}i"] = f_drag[:, j, c] * (frac[:, j] > 0)
                out.channels[f"{name}FI{ax}i"] = f_inert[:, j, c] * (frac[:, j] > 0)
                out.channels[f"{name}V{ax}i"] = np.array(u[:, j, c])
                out.channels[f"{name}STV{ax}i"] = v_s[:, j, c]
            out.channels[f"{name}Wet"] = frac[:, j]
        return out

    def _records(self, rho: float):
        """The strips' and the member ends' constants (:class:`Strips`, :class:`EndSet`, None
        without ends) for the water density ``rho``, kept for the next call."""
        hit = self.__dict__.get("_record_cache")
        if hit is None or hit[0] != rho:
            strips = self.Strips(
                rho=rho,
                a_b=f64(self.strip_a_b),
                b_b=f64(self.strip_b_b),
                axis_b=f64(self.strip_axis_b),
                cd_d=f64(self.strip_cd * self.strip_diameter),
                cm_a=f64(self.strip_cm * self.strip_area),
                rca=f64(rho * self.strip_ca * self.strip_area),
                length=f64(np.broadcast_to(self.strip_length, (self.n_strips,))),
            )
            ends = None
            if self.end_pos_b.size:
                n = self.end_pos_b.shape[0]
                ends = self.EndSet(
                    rho=rho,
                    pos_b=f64(self.end_pos_b, (n, 3)),
                    axis_b=f64(self.end_axis_b, (n, 3)),
                    cd=f64(self.end_cd),
                    ca=f64(self.end_ca),
                    area=f64(self.end_area),
                    vref=f64(self.end_vref),
                )
            hit = (rho, strips, ends)
            self.__dict__["_record_cache"] = hit
        return hit[1], hit[2]

    class Scratch(NamedTuple):
        """Per-run cache of the compiled form: the expansion series at time ``t[0]``."""

        t: np.ndarray  # (1,)
        z: np.ndarray  # (R, C) complex
        zr: np.ndarray  # (C, R) real parts, members contiguous (lane kernels)
        zi: np.ndarray  # (C, R) imaginary parts

    class Strips(NamedTuple):
        """The strips' constants read by the stage kernels (``_kernels.morison.strip_*``)."""

        rho: float
        a_b: np.ndarray  # (S, 3) strip ends, body frame
        b_b: np.ndarray
        axis_b: np.ndarray  # (S, 3)
        cd_d: np.ndarray  # (S,) C_d D
        cm_a: np.ndarray  # (S,) C_m A
        rca: np.ndarray  # (S,) rho C_a A
        length: np.ndarray  # (S,)

    class EndSet(NamedTuple):
        """The member ends' (axial loads, ``_build_ends``) constants read by the stage kernels
        ``_kernels.morison.end_points`` and ``end_sums``."""

        rho: float
        pos_b: np.ndarray  # (E, 3) end positions, body frame
        axis_b: np.ndarray  # (E, 3) member axes
        cd: np.ndarray  # (E,) axial C_d
        ca: np.ndarray  # (E,) axial C_a
        area: np.ndarray  # (E,) plate area
        vref: np.ndarray  # (E,) reference volume (half sphere)

    class Params(NamedTuple):
        body: int
        instantaneous: bool  # axis "instantaneous" (else the undisplaced one)
        still_surface: bool  # wetting against the still water level
        strips: tuple  # Strips
        chain_start: np.ndarray  # chains of equally spaced strips (straight members)
        chain_count: np.ndarray
        sea: tuple  # floatwind.environment.compiled.SeaTable
        scratch: tuple  # Scratch

    class Ends(NamedTuple):
        """Member-end (axial) loads of the compiled form: a second kernel of this load, present
        only when it has ends (a record the kernel does not use still costs reference counting
        on every call)."""

        body: int
        instantaneous: bool
        still_surface: bool
        ends: tuple  # EndSet
        sea: tuple  # SeaTable of the sea queried at the ends
        scratch: tuple  # Scratch of that table

    @classmethod
    def _scratch(cls, table):
        R, C = table.table.shape[1], table.table.shape[2]
        return cls.Scratch(
            t=np.array([np.nan]), z=np.zeros((R, C), dtype=np.complex128), zr=np.zeros((C, R)),
            zi=np.zeros((C, R)),
        )  # fmt: skip

    def _compiled_ends(self, env, batch):
        from floatwind.environment.compiled import sea_table

        n = self.end_pos_b.shape[0]
        sea = self._sea(env, "ends", self.end_pos_b)
        if getattr(sea, "n_points", n) != n:
            raise NoCompiledForm("Morison sea evaluator for other points (member ends)")
        table = sea_table(sea, batch)
        return self.Ends(
            body=int(self.body),
            instantaneous=self.axis == "instantaneous",
            still_surface=self.surface == "still",
            ends=self._records(float(env.rho_water))[1],
            sea=table,
            scratch=self._scratch(table),
        )

    def compiled(self, env, batch):
        """The strips' kernel, and the member ends' kernel when the load has ends."""
        from floatwind._kernels import morison as kmor
        from floatwind.environment.compiled import sea_table

        sea = self._sea(env, "strips", self.strip_centre_b)
        if getattr(sea, "n_points", self.n_strips) != self.n_strips:
            raise NoCompiledForm("Morison sea evaluator for other points")
        table = sea_table(sea, batch)
        scratch = self._scratch(table)
        rho = float(env.rho_water)
        start, count = _strip_chains(
            self.strip_a_b, self.strip_b_b, table.grp if table.active else None
        )
        p = self.Params(
            body=int(self.body),
            instantaneous=self.axis == "instantaneous",
            still_surface=self.surface == "still",
            strips=self._records(rho)[0],
            chain_start=start,
            chain_count=count,
            sea=table,
            scratch=scratch,
        )
        strips = CompiledLoad(kmor.morison_kernel, p, adds_mass=True)
        if not self.end_pos_b.size:
            return strips
        ends = CompiledLoad(kmor.morison_ends_kernel, self._compiled_ends(env, batch), True)
        return (strips, ends)

    def channel_info(self) -> dict[str, tuple[str, str]]:
        p = self.channel_prefix
        info = {}
        for ax in "xyz":
            info[f"{p}MrsnF{ax}i"] = ("N", f"Morison force without added mass, inertial {ax}")
            info[f"{p}MrsnM{ax}i"] = (
                "N m",
                f"Morison moment about the body reference point, inertial {ax}",
            )
        for k, _ in enumerate(self._strip_out, start=1):
            name = f"{p}M{k}N1"
            for ax in "xyz":
                info[f"{name}FD{ax}i"] = ("N/m", f"strip output {k}: drag per wetted length, {ax}")
                info[f"{name}FI{ax}i"] = (
                    "N/m",
                    f"strip output {k}: wave inertia per wetted length, {ax}",
                )
                info[f"{name}V{ax}i"] = ("m/s", f"strip output {k}: wave velocity, {ax}")
                info[f"{name}STV{ax}i"] = ("m/s", f"strip output {k}: structural velocity, {ax}")
            info[f"{name}Wet"] = ("-", f"strip output {k}: wetted fraction")
        return info


def _strip_chains(a_b, b_b, grp) -> tuple[np.ndarray, np.ndarray]:
    """Runs of consecutive strips whose centres are equally spaced in the body frame and share
    an elevation group (the strips of a straight member): (first strip, count) per chain, for
    ``waves.expansion_eta_chains``. Equal spacing to 1e-9 of the spacing (strips laid out by the
    member discretisation agree to round-off)."""
    cen = 0.5 * (np.asarray(a_b, float) + np.asarray(b_b, float))
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
    return i64(starts), i64(counts)


def _as_field(a, shape: tuple) -> np.ndarray:
    """A sea's answer as a C-contiguous float array of ``shape`` (for the compiled kernels)."""
    a = np.asarray(a, dtype=float)
    if a.shape != shape:
        a = np.broadcast_to(a, shape)
    return np.ascontiguousarray(a)


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cross product over the last axis (broadcasting), cheaper than np.cross on small arrays."""
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    return np.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)


def _axial_from_config(sec: Section, key: str) -> AxialEnd | None:
    if not sec.has(key):
        return None
    a = Section(sec.raw(key), sec.path(key), _AXIAL_KEYS)
    return AxialEnd(
        cd=a.number("cd", 0.0, kind="nonnegative"),
        ca=a.number("ca", 0.0, kind="nonnegative"),
        diameter=a.number("diameter", None, kind="positive"),
    )


def _validate_member(mb, field: str):
    if not isinstance(mb, MorisonMember):
        raise CaseError(f"expected a MorisonMember, got {type(mb).__name__}", field=field)
    a = np.asarray(mb.end_a, float)
    b = np.asarray(mb.end_b, float)
    if (
        a.shape != (3,)
        or b.shape != (3,)
        or not (np.all(np.isfinite(a)) and np.all(np.isfinite(b)))
    ):
        raise CaseError("end points must be finite 3-vectors", field=field)
    if np.linalg.norm(b - a) == 0.0:
        raise CaseError("end_a and end_b coincide (zero-length member)", field=field)
    for key in ("diameter_a", "diameter_b"):
        if check_finite(getattr(mb, key), f"{field}.{key}") <= 0.0:
            raise CaseError(f"must be > 0, got {getattr(mb, key)!r}", field=f"{field}.{key}")
    for key in ("cd", "ca"):
        check_nonnegative(getattr(mb, key), f"{field}.{key}")
    if mb.cm is not None:
        check_nonnegative(mb.cm, f"{field}.cm")
    n = mb.n_strips
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise CaseError(f"expected an integer >= 1, got {n!r}", field=f"{field}.n_strips")
    for key in ("axial_a", "axial_b"):
        end = getattr(mb, key)
        if end is not None:
            check_nonnegative(end.cd, f"{field}.{key}.cd")
            check_nonnegative(end.ca, f"{field}.{key}.ca")
            if (
                end.diameter is not None
                and check_finite(end.diameter, f"{field}.{key}.diameter") <= 0
            ):
                raise CaseError("must be > 0", field=f"{field}.{key}.diameter")


def _f(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key
