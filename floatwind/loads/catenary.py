"""Catenary mooring: quasi-static elastic catenary lines from body fairleads to fixed anchors.

Each line runs from a fairlead fixed in the body to an anchor fixed in the inertial frame. At
every evaluation the line is solved in the vertical plane through its two ends
(:mod:`floatwind.mooring.catenary`: the extensible catenary with seabed contact and friction of
Jonkman (2007) eqs. 2-58..2-61 / MAP++): from the horizontal distance ``l`` and the height ``h``
of the fairlead above the anchor it gives the horizontal and vertical fairlead tensions ``H``,
``V``. The load on the body is the line's pull at the displaced fairlead (MAP++ ``map.f90``):

    F = (-H cos psi, -H sin psi, -V),     psi = direction from the anchor to the fairlead,

and its moment about the body CM is ``(r_fair - r_G) x F``. Nothing is linearised: the lines
hold at any offset, and a slack line (part of it on the seabed, or ``H = 0``) is part of the
solution. A line whose anchor lies on the seabed (anchor ``z`` within 1 mm of ``-water_depth``)
can rest on it; otherwise it hangs free.

Connect nodes (MAP++ ``connect`` nodes, MoorDyn free points) join lines into multi-segment
lines, bridles and delta connections and carry clump weights or buoys: a line end given as the
*name* of a node instead of a position ends there, and at every evaluation the nodes' positions
are solved for static equilibrium (the line end forces, the node's weight ``-m g``, its buoyancy
``rho g V`` and an applied force sum to zero; Newton's method with the lines' analytic end
stiffnesses, MAP++'s outer solve), each from the node's given position. The wet weight per length is
``w = (mu - rho_water pi d^2/4) g`` from the mass per length in air ``mu`` and the diameter
``d`` (MAP++ line dictionary), or given directly.

The solve starts from the same initial guess at every call (no state): a batch member alone
and inside a batch get the same bits, and the compiled and NumPy paths run the same compiled
line solver.
"""

from __future__ import annotations

import logging
import math
import pathlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import NamedTuple

import numpy as np

from floatwind._kernels.contract import CompiledLoad, evaluate, f64
from floatwind.errors import CaseError, SimulationError
from floatwind.loads.base import Kinematics, Load, Wrench
from floatwind.rotation.vec import cross, matvec
from floatwind.validate import Section, check_body, suggest

logger = logging.getLogger(__name__)

__all__ = ["CatenaryLine", "CatenaryMooring", "ConnectNode"]

_LINE_KEYS = (
    "fairlead",
    "anchor",
    "length",
    "mass_per_length",
    "diameter",
    "wet_weight",
    "ea",
    "seabed_friction",
)

#: an anchor within this distance of the seabed (m) lies on it
SEABED_TOL = 1e-3
#: a line whose chord at rest exceeds its length by more than this strain cannot reach its anchor
MAX_REST_STRAIN = 0.1


@dataclass(frozen=True)
class CatenaryLine:
    """One catenary line (all SI).

    Attributes
    ----------
    fairlead : (3,) fairlead position in the body reference frame (m), or the name of the
        connect node the line's upper (B) end is attached to.
    anchor : (3,) anchor position in the inertial frame (m), or the name of the connect node
        the line's lower (A) end is attached to.
    length : unstretched length L (m).
    ea : axial stiffness EA (N); ``inf`` for an inextensible line.
    mass_per_length : mass per length in air mu (kg/m); with ``diameter`` gives the wet weight.
    diameter : volume-equivalent diameter d (m), or None when ``wet_weight`` is given.
    wet_weight : wet weight per length w (N/m), or None (then from mu and d).
    seabed_friction : seabed friction coefficient CB (-).
    """

    fairlead: np.ndarray | str
    anchor: np.ndarray | str
    length: float
    ea: float
    mass_per_length: float = 0.0
    diameter: float | None = None
    wet_weight: float | None = None
    seabed_friction: float = 0.0

    def weight(self, rho_water: float, gravity: float) -> float:
        """Wet weight per length (N/m): MAP++ ``omega = g (mu - rho pi d^2/4)``."""
        if self.wet_weight is not None:
            return float(self.wet_weight)
        return gravity * (self.mass_per_length - rho_water * math.pi * self.diameter**2 / 4.0)


@dataclass(frozen=True)
class ConnectNode:
    """A free connect node joining lines (MAP++ ``connect``, MoorDyn free point), all SI.

    Attributes
    ----------
    name : the name line ends refer to.
    position : (3,) position at rest in the inertial frame (m): the start of the node's
        equilibrium solve at every evaluation.
    mass : point mass of a clump weight (kg), >= 0.
    volume : displaced volume of a buoy (m^3), >= 0: buoyancy ``rho_water g volume``.
    force : (3,) applied force, inertial axes (N) (MAP++ FX, FY, FZ).
    """

    name: str
    position: np.ndarray
    mass: float = 0.0
    volume: float = 0.0
    force: np.ndarray = dc_field(default_factory=lambda: np.zeros(3))

    def net_force(self, rho_water: float, gravity: float) -> np.ndarray:
        """Weight, buoyancy and applied force on the node (N)."""
        f = np.array(self.force, dtype=float)
        f[2] += (rho_water * self.volume - self.mass) * gravity
        return f


class CatenaryMooring(Load, kind="mooring_catenary"):
    """Quasi-static catenary lines on one body (see the module docstring).

    Parameters
    ----------
    body : int
        Index of the body the fairleads belong to.
    lines : sequence of CatenaryLine or of mappings with its keys
        ``fairlead``, ``anchor``, ``length``, ``ea``, ``seabed_friction`` (default 0), and either
        ``mass_per_length`` + ``diameter`` or ``wet_weight``. ``fairlead`` or ``anchor`` may be
        the name of a connect node instead of a position.
    connects : sequence of ConnectNode or of mappings with its keys, optional
        ``name``, ``position``, ``mass`` (default 0), ``volume`` (default 0), ``force``
        (default 0).
    channel_prefix : str
        Prefix of the output channel names (to tell two mooring loads apart).
    name : str, optional
        Load name (default ``mooring_catenary``).

    Output channels (B,), i = 1..n lines, k = 1..K connect nodes
    ------------------------------------------------------------
    ``FAIRTENi``, ``ANCHTENi`` tension at the line's fairlead (B) and anchor (A) end (N);
    ``FAIRHi``, ``FAIRVi`` horizontal and vertical tension at the B end (N, V positive when the
    line pulls that end down); ``LAYLENi`` length resting on the seabed (m); ``PointkPx``,
    ``PointkPy``, ``PointkPz`` the equilibrium position of connect node k (m, inertial; MoorDyn's
    names); ``MoorFxi..MoorMzi`` the total mooring force and moment about the body reference
    point (inertial axes), as :class:`TautMooring`.
    """

    time_independent = True
    is_mooring = True
    name = "mooring_catenary"

    def __init__(
        self,
        *,
        body: int,
        lines: Sequence[CatenaryLine | Mapping],
        connects: Sequence[ConnectNode | Mapping] = (),
        channel_prefix: str = "",
        name: str | None = None,
        field: str = "",
    ):
        self.body = check_body(body, _f(field, "body"))
        if not isinstance(lines, (list, tuple)) or len(lines) == 0:
            raise CaseError("needs at least one line", field=_f(field, "lines"))
        if not isinstance(connects, (list, tuple)):
            raise CaseError("expected a list of connect nodes", field=_f(field, "connects"))
        self.connects = tuple(
            self._make_node(nd, f"{_f(field, 'connects')}[{k}]") for k, nd in enumerate(connects)
        )
        node_index: dict[str, int] = {}
        for k, nd in enumerate(self.connects):
            if nd.name in node_index:
                raise CaseError(
                    f"connect node name {nd.name!r} is used twice",
                    field=f"{_f(field, 'connects')}[{k}].name",
                )
            node_index[nd.name] = k
        self._node_index = node_index
        self.lines = tuple(
            self._make_line(ln, f"{_f(field, 'lines')}[{i}]", node_index)
            for i, ln in enumerate(lines)
        )
        self._fields = [f"{_f(field, 'lines')}[{i}]" for i in range(len(self.lines))]
        used = {e for ln in self.lines for e in (ln.fairlead, ln.anchor) if isinstance(e, str)}
        for k, nd in enumerate(self.connects):
            if nd.name not in used:
                raise CaseError(
                    f"connect node {nd.name!r} is not attached to any line",
                    field=f"{_f(field, 'connects')}[{k}].name",
                )
        if name is not None:
            self.name = str(name)
        self.channel_prefix = str(channel_prefix)

        def pos(e):
            return np.zeros(3) if isinstance(e, str) else np.asarray(e, float)

        def node(e):
            return node_index[e] if isinstance(e, str) else -1

        self.fairlead_b = np.array([pos(ln.fairlead) for ln in self.lines], dtype=float)
        self.anchor_g = np.array([pos(ln.anchor) for ln in self.lines], dtype=float)
        self.a_node = np.array([node(ln.anchor) for ln in self.lines], dtype=np.int64)
        self.b_node = np.array([node(ln.fairlead) for ln in self.lines], dtype=np.int64)
        if len(self.connects):
            self.node0 = np.array([nd.position for nd in self.connects], dtype=float)
        else:
            self.node0 = np.zeros((0, 3))
        self.length = np.array([ln.length for ln in self.lines], dtype=float)
        self.node_phi = _node_fractions(self.a_node, self.b_node, self.length, len(self.connects))
        self.inv_ea = np.array([0.0 if math.isinf(ln.ea) else 1.0 / ln.ea for ln in self.lines])
        self.friction = np.array([ln.seabed_friction for ln in self.lines], dtype=float)
        p = self.channel_prefix
        n = len(self.lines)
        self._names = [[f"{p}{c}{i + 1}" for i in range(n)] for c in _CHANNELS]
        self._node_names = [
            [f"{p}Point{k + 1}P{ax}" for ax in "xyz"] for k in range(len(self.connects))
        ]

    @staticmethod
    def _make_node(node: ConnectNode | Mapping, field: str) -> ConnectNode:
        if isinstance(node, ConnectNode):
            node = {k: getattr(node, k) for k in ("name", "position", "mass", "volume", "force")}
        sec = Section(node, field, ("name", "position", "mass", "volume", "force"))
        name = sec.raw("name")
        if not isinstance(name, str) or not name.strip():
            raise CaseError(f"expected a non-empty text, got {name!r}", field=sec.path("name"))
        return ConnectNode(
            name=name,
            position=sec.vector("position"),
            mass=float(sec.number("mass", 0.0, kind="nonnegative")),
            volume=float(sec.number("volume", 0.0, kind="nonnegative")),
            force=np.array(sec.vector("force", [0.0, 0.0, 0.0]), dtype=float),
        )

    @staticmethod
    def _make_line(
        line: CatenaryLine | Mapping, field: str, nodes: Mapping[str, int] | None = None
    ) -> CatenaryLine:
        nodes = nodes or {}
        if isinstance(line, CatenaryLine):
            line = {k: getattr(line, k) for k in _LINE_KEYS if getattr(line, k) is not None}
        sec = Section(line, field, _LINE_KEYS)

        def end(key):
            value = sec.raw(key)
            if isinstance(value, str):
                if value not in nodes:
                    known = f"; connect nodes are {sorted(nodes)}" if nodes else ""
                    raise CaseError(
                        f"{value!r} is not a connect node{suggest(value, nodes)}{known}",
                        field=sec.path(key),
                    )
                return value
            return sec.vector(key)

        fairlead = end("fairlead")
        anchor = end("anchor")
        if isinstance(fairlead, str) and isinstance(anchor, str) and fairlead == anchor:
            raise CaseError(
                f"both ends of the line are the connect node {fairlead!r}", field=sec.path("anchor")
            )
        length = sec.number("length")
        if length <= 0.0:
            raise CaseError(
                f"unstretched length must be > 0, got {length:g} m", field=sec.path("length")
            )
        raw_ea = sec.raw("ea")
        inextensible = isinstance(raw_ea, float) and raw_ea == math.inf
        ea = math.inf if inextensible else sec.number("ea", kind="positive")
        cb = sec.number("seabed_friction", 0.0, kind="nonnegative")
        if sec.has("wet_weight"):
            if sec.has("diameter"):
                raise CaseError(
                    "give either 'diameter' (with 'mass_per_length') or 'wet_weight', not both",
                    field=sec.path("diameter"),
                )
            wet = sec.number("wet_weight", kind="finite")
            mu = sec.number("mass_per_length", 0.0, kind="nonnegative")
            diameter = None
            if wet <= 0.0:
                raise CaseError(
                    f"wet weight must be > 0 (a buoyant line is not supported), got {wet:g} N/m",
                    field=sec.path("wet_weight"),
                )
        else:
            mu = sec.number("mass_per_length", kind="positive")
            diameter = sec.number("diameter", kind="positive")
            wet = None
        if not isinstance(fairlead, str) and not isinstance(anchor, str):
            chord = float(np.linalg.norm(anchor - fairlead))
            if chord > (1.0 + MAX_REST_STRAIN) * length:
                raise CaseError(
                    f"the line cannot reach its anchor: the fairlead-anchor distance at rest is "
                    f"{chord:.6g} m, its unstretched length {length:.6g} m",
                    field=sec.path("length"),
                )
        return CatenaryLine(
            fairlead=fairlead,
            anchor=anchor,
            length=float(length),
            ea=float(ea),
            mass_per_length=float(mu),
            diameter=diameter,
            wet_weight=wet,
            seabed_friction=float(cb),
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
    ) -> CatenaryMooring:
        """Build from ``{type: mooring_catenary, body: .., lines: [..], connects: [..]}``
        (docs/loads.md)."""
        sec = Section(cfg, field, ("type", "body", "lines", "connects", "channel_prefix", "name"))
        return cls(
            body=sec.body(body_index),
            lines=[item for _, item in sec.items("lines")],
            connects=[item for _, item in sec.items("connects", required=False)],
            channel_prefix=sec.raw("channel_prefix", ""),
            name=sec.raw("name", None),
            field=field,
        )

    # ----------------------------------------------------------------- environment-dependent
    def line_constants(self, env) -> tuple[np.ndarray, np.ndarray]:
        """Wet weights w (L,) (N/m) and seabed contact flags (L,) for the environment ``env``.

        Raises :class:`CaseError` for a line that is not heavier than water or an anchor below
        the seabed."""
        rho, g, depth = _env_constants(env)
        weight = np.array([ln.weight(rho, g) for ln in self.lines])
        for i, w in enumerate(weight):
            if not w > 0.0:
                raise CaseError(
                    f"wet weight {w:.6g} N/m is not positive (mass per length "
                    f"{self.lines[i].mass_per_length:g} kg/m, diameter {self.lines[i].diameter} m"
                    f", rho_water {rho:g}): a buoyant line is not supported",
                    field=f"{self._fields[i]}.mass_per_length",
                )
        seabed = -depth
        fixed = self.a_node < 0
        below = fixed & (self.anchor_g[:, 2] < seabed - SEABED_TOL)
        if np.any(below):
            i = int(np.argmax(below))
            raise CaseError(
                f"anchor z = {self.anchor_g[i, 2]:g} m lies below the seabed (water depth "
                f"{depth:g} m)",
                field=f"{self._fields[i]}.anchor",
            )
        contact = fixed & (self.anchor_g[:, 2] <= seabed + SEABED_TOL)
        return weight, contact

    def node_constants(self, env) -> tuple[np.ndarray, float, float]:
        """Net force on each connect node (K, 3) (weight, buoyancy, applied force), and the
        force and length scales of the node solve's tolerances."""
        rho, g, _ = _env_constants(env)
        weight, _ = self.line_constants(env)
        node_f = np.array([nd.net_force(rho, g) for nd in self.connects]).reshape(-1, 3)
        force_scale = float(np.sum(np.abs(weight) * self.length) + np.sum(np.abs(node_f)))
        return node_f, force_scale, float(np.max(self.length))

    def _params(self, env, batch: int):
        """The kernel's record (:class:`Params`) for ``env``, with scratch for ``batch`` members."""
        weight, contact = self.line_constants(env)
        node_f, fscale, lscale = self.node_constants(env)
        return self.Params(
            body=int(self.body),
            fairlead_b=f64(self.fairlead_b),
            anchor_g=f64(self.anchor_g),
            length=f64(self.length),
            weight=f64(weight),
            inv_ea=f64(self.inv_ea),
            friction=f64(self.friction),
            contact=np.ascontiguousarray(contact),
            a_node=np.ascontiguousarray(self.a_node),
            b_node=np.ascontiguousarray(self.b_node),
            node0=f64(self.node0),
            node_phi=f64(self.node_phi),
            node_force=f64(node_f),
            force_scale=fscale,
            length_scale=lscale,
            scratch=np.zeros((int(batch), len(self.lines), 5)),
            node_scratch=np.zeros((int(batch), len(self.connects), 3)),
        )

    # -------------------------------------------------------------------------------- wrench
    def solve(self, kin: Kinematics, env):
        """Force, moment (B, N, 3) of the lines, channels (B, L, 5) and connect node positions
        (B, K, 3) at ``kin``, by the load's kernel; raises :class:`SimulationError` when a solve
        does not converge."""
        from floatwind._kernels import catenary as kc

        p = self._params(env, kin.batch)
        status, force, moment, _ = evaluate(kc.catenary_kernel, p, 0.0, kin)  # static: no t
        if status:
            if len(self.connects):
                raise SimulationError(
                    "a catenary mooring line or the equilibrium of its connect nodes did not "
                    "converge (Newton, 100 iterations): check that each node's 'position' is "
                    "near where it hangs (the start of its solve)",
                    time=kin.t,
                )
            raise SimulationError(
                "a catenary mooring line did not converge (Newton, 100 iterations)", time=kin.t
            )
        return force, moment, p.scratch, p.node_scratch

    def wrench(self, t: float, kin: Kinematics, env) -> Wrench:
        """Line loads on the body at the fairleads (inertial axes, about the body CM)."""
        force, moment, ch, node_x = self.solve(kin, env)
        out = Wrench(force, moment)
        b = self.body
        arm = matvec(kin.R_b2g[:, b], kin.cm_b[b])  # body CM from the body reference point
        moment_ref = moment[:, b] + cross(arm, force[:, b])
        for c, names in enumerate(self._names):
            for i, nm in enumerate(names):
                out.channels[nm] = ch[:, i, c].copy()
        for k, names in enumerate(self._node_names):
            for c, nm in enumerate(names):
                out.channels[nm] = node_x[:, k, c].copy()
        p = self.channel_prefix
        for k, ax in enumerate("xyz"):
            out.channels[f"{p}MoorF{ax}i"] = force[:, b, k].copy()
            out.channels[f"{p}MoorM{ax}i"] = moment_ref[:, k]
        return out

    class Params(NamedTuple):
        body: int
        fairlead_b: np.ndarray  # (L, 3) body frame (unused rows where the B end is a node)
        anchor_g: np.ndarray  # (L, 3) inertial (unused rows where the A end is a node)
        length: np.ndarray  # (L,) unstretched
        weight: np.ndarray  # (L,) wet weight per length
        inv_ea: np.ndarray  # (L,) 1/EA (0: inextensible)
        friction: np.ndarray  # (L,) seabed friction coefficient
        contact: np.ndarray  # (L,) bool, anchor on the seabed
        a_node: np.ndarray  # (L,) int, connect node of the A end or -1
        b_node: np.ndarray  # (L,) int, connect node of the B end or -1
        node0: np.ndarray  # (K, 3) connect node positions at rest
        node_phi: np.ndarray  # (K,) share of the body's motion in the start of each node solve
        node_force: np.ndarray  # (K, 3) weight + buoyancy + applied force on each node
        force_scale: float  # of the node solve's tolerance (N)
        length_scale: float  # of the node solve's tolerance (m)
        scratch: np.ndarray  # (B, L, 5) channels of the last call
        node_scratch: np.ndarray  # (B, K, 3) connect node positions of the last call

    def compiled(self, env, batch):
        from floatwind._kernels import catenary as kc

        return CompiledLoad(kc.catenary_kernel, self._params(env, batch))

    def channel_info(self) -> dict[str, tuple[str, str]]:
        info: dict[str, tuple[str, str]] = {}
        what = {
            "FAIRTEN": ("N", "fairlead tension of mooring line {}"),
            "ANCHTEN": ("N", "anchor tension of mooring line {}"),
            "FAIRH": ("N", "horizontal fairlead tension of mooring line {}"),
            "FAIRV": ("N", "vertical fairlead tension of mooring line {} (downward pull)"),
            "LAYLEN": ("m", "length of mooring line {} resting on the seabed"),
        }
        for c, names in zip(_CHANNELS, self._names):
            units, long = what[c]
            for i, nm in enumerate(names):
                info[nm] = (units, long.format(i + 1))
        for k, names in enumerate(self._node_names):
            for ax, nm in zip("xyz", names):
                info[nm] = ("m", f"position of connect node {self.connects[k].name!r}, inertial {ax}")
        p = self.channel_prefix
        for ax in "xyz":
            info[f"{p}MoorF{ax}i"] = ("N", f"total mooring force, inertial {ax}")
            info[f"{p}MoorM{ax}i"] = (
                "N m",
                f"total mooring moment about the body reference point, inertial {ax}",
            )
        return info


_CHANNELS = ("FAIRTEN", "ANCHTEN", "FAIRH", "FAIRV", "LAYLEN")


def _node_fractions(a_node, b_node, length, n_nodes: int) -> np.ndarray:
    """For each connect node, the share of the body's motion it follows at the start of its
    solve: ``d_A / (d_A + d_B)`` with ``d_A``, ``d_B`` the shortest unstretched length along the
    lines to a fixed anchor and to a body fairlead (a node of a line cut in two starts on the
    chord between the anchor and the displaced fairlead)."""

    def dist(fixed_end):
        d = np.full(n_nodes, np.inf)
        for i in range(len(length)):  # lines from a fixed end (anchor or fairlead) to a node
            end, other = (a_node, b_node) if fixed_end == "A" else (b_node, a_node)
            if end[i] < 0 and other[i] >= 0:
                d[other[i]] = min(d[other[i]], length[i])
        for _ in range(n_nodes):  # Bellman-Ford over node-node lines
            for i in range(len(length)):
                j, k = a_node[i], b_node[i]
                if j >= 0 and k >= 0:
                    d[j] = min(d[j], d[k] + length[i])
                    d[k] = min(d[k], d[j] + length[i])
        return d

    da, db = dist("A"), dist("B")
    phi = np.empty(n_nodes)
    for k in range(n_nodes):
        phi[k] = 0.0 if math.isinf(db[k]) else 1.0 if math.isinf(da[k]) else da[k] / (da[k] + db[k])
    return phi


def _env_constants(env) -> tuple[float, float, float]:
    """rho_water, gravity, water depth of ``env`` (the defaults of Environment where absent)."""
    rho = float(getattr(env, "rho_water", 1025.0))
    g = float(getattr(env, "gravity", 9.80665))
    depth = float(getattr(env, "water_depth", 320.0))
    return rho, g, depth


def _f(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key
