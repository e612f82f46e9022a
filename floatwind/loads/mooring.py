"""Taut mooring: straight elastic lines from body fairleads to fixed anchors (Wang eq. 3.16).

Each line runs from a fairlead A fixed in the body to an anchor E fixed in the inertial frame.
Its tension is, with the instantaneous length ``l = |r_E - r_A|`` (Wang (3.16)),

    T = T0 + EA/L (l - L) + c dl/dt

where ``T0`` is the pretension (the tension at the reference length ``L``), ``EA/L`` the axial
stiffness and ``c`` an optional linear axial damping (N s/m). The force on the body acts at the
fairlead along the unit vector from fairlead to anchor, ``F = T (r_E - r_A)/l`` (3.16), and its
moment about the body CM is ``(r_A - r_G) x F``; both are computed from the exact positions, so the
load holds for any displacement and rotation (no stiffness matrix).

A line cannot push: by default a negative ``T`` (slack line) is set to zero. With
``allow_compression=True`` the line acts as a two-way linear spring (the spring-damper element of
the MBDM technical note, seed 001 sec. 6).
"""

from __future__ import annotations

import logging
import pathlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from floatwind._kernels.contract import CompiledLoad, evaluate, f64
from floatwind.errors import CaseError, SimulationError
from floatwind.loads.base import Kinematics, Load, Wrench
from floatwind.rotation.vec import cross, matvec
from floatwind.validate import (
    Section,
    check_body,
    check_finite,
    check_nonnegative,
    check_positive,
    check_vector,
)

logger = logging.getLogger(__name__)

__all__ = ["MooringLine", "TautMooring"]

_LINE_KEYS = (
    "fairlead",
    "anchor",
    "ea",
    "stiffness",
    "length",
    "pretension",
    "damping",
)


@dataclass(frozen=True)
class MooringLine:
    """One straight taut line (all SI).

    Attributes
    ----------
    fairlead : (3,) fairlead position in the body reference frame (m).
    anchor : (3,) anchor position in the inertial frame (m).
    stiffness : axial stiffness EA/L (N/m).
    length : reference length L at which the tension equals ``pretension`` (m).
    pretension : T0 (N).
    damping : linear axial damping c (N s/m).
    """

    fairlead: np.ndarray
    anchor: np.ndarray
    stiffness: float
    length: float
    pretension: float = 0.0
    damping: float = 0.0


class TautMooring(Load, kind="mooring_taut"):
    """Several straight elastic lines on one body (Wang (3.16)).

    Parameters
    ----------
    body : int
        Index of the body the fairleads belong to.
    lines : sequence of MooringLine or of mappings
        The lines; a mapping takes the keys of :class:`MooringLine` and, instead of
        ``stiffness``, ``ea`` (N) to give ``stiffness = ea / length``. ``length`` defaults to the
        fairlead-anchor distance with the body at rest (body frame on the inertial frame).
    allow_compression : bool
        If False (default) a line whose tension would be negative carries nothing; if True it
        pushes (linear spring both ways).
    channel_prefix : str
        Prefix of the output channel names (to tell two mooring loads apart).

    Output channels (B,)
    --------------------
    ``FAIRTEN1..n`` line tension (N, MAP++/MoorDyn name; a massless straight line has the same
    tension at both ends); ``MoorFxi, MoorFyi, MoorFzi`` total mooring force (N, inertial) and
    ``MoorMxi, MoorMyi, MoorMzi`` its moment (N m, inertial axes) about the body reference point
    (the platform reference point at SWL for the platform), as OpenFAST's ``HydroFxi`` convention.
    """

    time_independent = True
    is_mooring = True

    name = "mooring"

    def __init__(
        self,
        *,
        body: int,
        lines: Sequence[MooringLine | Mapping],
        allow_compression: bool = False,
        channel_prefix: str = "",
        field: str = "",
    ):
        self.body = check_body(body, _f(field, "body"))
        if not isinstance(lines, (list, tuple)) or len(lines) == 0:
            raise CaseError("needs at least one line", field=_f(field, "lines"))
        parsed = [
            self._make_line(line, f"{_f(field, 'lines')}[{i}]") for i, line in enumerate(lines)
        ]
        self.lines = tuple(parsed)
        self.allow_compression = bool(allow_compression)
        self.channel_prefix = str(channel_prefix)
        self.fairlead_b = np.array([ln.fairlead for ln in parsed])  # (L, 3)
        self.anchor_g = np.array([ln.anchor for ln in parsed])  # (L, 3)
        self.stiffness = np.array([ln.stiffness for ln in parsed])
        self.length = np.array([ln.length for ln in parsed])
        self.pretension = np.array([ln.pretension for ln in parsed])
        self.damping = np.array([ln.damping for ln in parsed])
        self._names = [f"{self.channel_prefix}FAIRTEN{i + 1}" for i in range(len(parsed))]

    @staticmethod
    def _make_line(line: MooringLine | Mapping, field: str) -> MooringLine:
        if isinstance(line, MooringLine):
            line = {
                "fairlead": line.fairlead,
                "anchor": line.anchor,
                "stiffness": line.stiffness,
                "length": line.length,
                "pretension": line.pretension,
                "damping": line.damping,
            }
        sec = Section(line, field, _LINE_KEYS)
        fairlead = sec.vector("fairlead")
        anchor = sec.vector("anchor")
        rest = float(np.linalg.norm(anchor - fairlead))
        if rest == 0.0:
            raise CaseError("fairlead and anchor coincide (zero-length line)", field=field)
        if anchor[2] >= fairlead[2]:
            raise CaseError(
                f"anchor z = {anchor[2]:g} m is not below the fairlead z = {fairlead[2]:g} m "
                "(a taut line needs its anchor below its fairlead)",
                field=sec.path("anchor"),
            )
        length = sec.number("length", rest)
        if length <= 0.0:
            raise CaseError(f"line length must be > 0, got {length:g} m", field=sec.path("length"))
        if sec.has("ea") and sec.has("stiffness"):
            raise CaseError("give either 'ea' or 'stiffness', not both", field=sec.path("ea"))
        if sec.has("ea"):
            stiffness = check_positive(sec.raw("ea"), sec.path("ea")) / length
        else:
            stiffness = check_positive(sec.raw("stiffness"), sec.path("stiffness"))
        pretension = check_finite(sec.raw("pretension", 0.0), sec.path("pretension"))
        damping = check_nonnegative(sec.raw("damping", 0.0), sec.path("damping"))
        return MooringLine(
            fairlead=check_vector(fairlead, sec.path("fairlead")),
            anchor=anchor,
            stiffness=stiffness,
            length=length,
            pretension=pretension,
            damping=damping,
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
    ) -> TautMooring:
        """Build from a case-file section ``{type: mooring_taut, body: .., lines: [..]}``.

        See ``docs/loads.md`` for the keys and units.
        """
        sec = Section(cfg, field, ("type", "body", "lines", "allow_compression", "channel_prefix"))
        body = sec.body(body_index)
        lines = [item for _, item in sec.items("lines")]
        return cls(
            body=body,
            lines=lines,
            allow_compression=sec.boolean("allow_compression", False),
            channel_prefix=sec.raw("channel_prefix", ""),
            field=field,
        )

    def _params(self, batch: int):
        """The kernel's record (:class:`Params`), with the tensions of ``batch`` members."""
        return self.Params(
            body=int(self.body),
            fairlead_b=f64(self.fairlead_b),
            anchor_g=f64(self.anchor_g),
            stiffness=f64(self.stiffness),
            length=f64(self.length),
            pretension=f64(self.pretension),
            damping=f64(self.damping),
            allow_compression=bool(self.allow_compression),
            tension=np.zeros((int(batch), len(self.length))),
        )

    def tensions(self, kin: Kinematics) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Force, moment (B, N, 3) and line tensions (B, L) (N, >= 0 unless
        ``allow_compression``) at the kinematics ``kin``, by the load's kernel.

        Raises :class:`SimulationError` if a fairlead reaches its anchor.
        """
        from floatwind._kernels import loads as kl

        p = self._params(kin.batch)
        status, force, moment, _ = evaluate(kl.taut_kernel, p, 0.0, kin)  # static: no t
        if status:
            r_A_g, _ = kin.points(self.body, self.fairlead_b)
            zero = np.linalg.norm(self.anchor_g[None] - r_A_g, axis=-1) == 0.0
            raise SimulationError(
                "a mooring fairlead reached its anchor (zero line length)",
                time=kin.t,
                members=sorted(set(np.nonzero(zero)[0].tolist())),
            )
        return force, moment, p.tension

    def wrench(self, t: float, kin: Kinematics, env) -> Wrench:
        """Mooring force and moment about the body CM (inertial axes), Wang (3.16)-(3.18).

        Parameters
        ----------
        t : float
            Time (s), unused (the lines have no state).
        kin : Kinematics
            Batched kinematics (B bodies-states).
        env : Environment
            Unused.
        """
        force, moment, tension = self.tensions(kin)
        out = Wrench(force, moment)
        b = self.body
        arm = matvec(kin.R_b2g[:, b], kin.cm_b[b])  # body CM from the body reference point
        moment_ref = moment[:, b] + cross(arm, force[:, b])
        p = self.channel_prefix
        for i, name in enumerate(self._names):
            out.channels[name] = tension[:, i]
        for k, ax in enumerate("xyz"):
            out.channels[f"{p}MoorF{ax}i"] = force[:, b, k].copy()
            out.channels[f"{p}MoorM{ax}i"] = moment_ref[:, k]
        return out

    class Params(NamedTuple):
        body: int
        fairlead_b: np.ndarray  # (L, 3) body frame
        anchor_g: np.ndarray  # (L, 3) inertial
        stiffness: np.ndarray  # (L,) EA / L
        length: np.ndarray  # (L,) unstretched
        pretension: np.ndarray  # (L,)
        damping: np.ndarray  # (L,) axial
        allow_compression: bool
        tension: np.ndarray  # (B, L) line tensions of the last call

    def compiled(self, env, batch):
        from floatwind._kernels import loads as kl

        return CompiledLoad(kl.taut_kernel, self._params(batch))

    def channel_info(self) -> dict[str, tuple[str, str]]:
        info = {
            name: ("N", f"tension of mooring line {i + 1}") for i, name in enumerate(self._names)
        }
        p = self.channel_prefix
        for ax in "xyz":
            info[f"{p}MoorF{ax}i"] = ("N", f"total mooring force, inertial {ax}")
            info[f"{p}MoorM{ax}i"] = (
                "N m",
                f"total mooring moment about the body reference point, inertial {ax}",
            )
        return info


def _f(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key
