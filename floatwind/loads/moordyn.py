"""Dynamic mooring lines: MoorDyn v2's lumped-mass model as a load with states of its own.

The physics are :mod:`floatwind._kernels.lumped` (MoorDyn-F's Line_GetStateDeriv, the points of
MoorDyn_Point.f90; Hall & Goupee 2015). The nodes of the lines and the free points are
**continuous load states** (docs/architecture.md, "Load states"): columns of the state vector
integrated with the bodies by the run's integrator, recorded with them and written as channels
(``L1N5PX``, ``POINT7VZ``, ...), so every output time sees its own line shape. The run's step
must resolve the lines' fastest mode (axial waves with internal damping, seabed contact):
:func:`fastest_rate` gives it, and the OpenFAST import divides the deck's DT until RK4 is stable
(docs/moordyn.md explains why states and not sub-steps at dtM).

Initial conditions as MoorDyn makes them (MoorDyn-F MD_Init and Line_Initialize): each line
starts on the quasi-static catenary between its ends (straight when it has none), then the
lines relax dynamically with the body held at its initial pose, drag scaled by ``cd_scale``
(CdScaleIC), with MoorDyn's RK2 (at 0.8 of its stable step for the lines' fastest mode, never
below ``dt_m``; ``initial.step: dt_m`` keeps MoorDyn-F's dtM), until the end-B tensions of the
last ten checks (every ``ic_dt/10``) agree within ``ic_threshold`` (threshIC), or ``ic_tmax``
(TmaxIC) has passed.

Case mapping (``type: mooring_lumped``, docs/moordyn.md)::

    type: mooring_lumped
    body: platform
    line_types: {main: {diameter: 0.09, mass_per_length: 77.7066, ea: 384.243e6,
                        ba: -0.8, ei: 0, cdn: 1.6, can: 1.0, cdt: 0.1, cat: 0.0}}
    points: [{name: "1", kind: fixed, position: [853.87, 0, -320]},
             {name: "4", kind: coupled, position: [5.2, 0, -70]}, ...]
    lines: [{type: main, end_a: "1", end_b: "4", length: 902.2, segments: 20}, ...]
    seabed: {kbot: 3.0e6, cbot: 3.0e5}
    dt_m: 0.001
    initial: {tmax: 300, threshold: 1.0e-5, cd_scale: 4, dt: 1.0, start: catenary,
              step: stable}

``initial.start: static`` starts the relaxation from the lines at rest (:meth:`static_states`)
instead of MoorDyn's catenary shape: the relaxation then converges at once (docs/moordyn.md).
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np

from floatwind._kernels.contract import CompiledLoad, body_kinematics, f64, i64, python_form
from floatwind.errors import CaseError, SimulationError
from floatwind.loads.base import Kinematics, Load, Wrench
from floatwind.validate import Section, suggest

logger = logging.getLogger(__name__)

__all__ = ["LumpedMassMooring", "fastest_rate", "line_ba", "stable_step"]

_TYPE_KEYS = ("diameter", "mass_per_length", "ea", "ba", "ei", "cdn", "can", "cdt", "cat")
_POINT_KEYS = ("name", "kind", "position", "mass", "volume", "cda", "ca")
_LINE_KEYS = ("name", "type", "end_a", "end_b", "length", "segments")
_KINDS = {"fixed": 0, "coupled": 1, "free": 2}
#: RK4's stability bound on |lambda dt| (2.78 on the negative real axis, 2.83 on the imaginary
#: one), with a margin
RK4_BOUND = 2.5
#: the explicit midpoint rule's (MoorDyn's RK2) bound on the negative real axis
RK2_BOUND = 2.0
#: the dynamic relaxation's step as a fraction of RK2's stable step (``initial.step: stable``)
RELAX_MARGIN = 0.8
#: the most a line may be stretched between its ends at rest (as the catenary load)
MAX_REST_STRAIN = 0.1


def line_ba(ba: float, length: float, segments: int, ea: float, mass_den: float) -> float:
    """MoorDyn's internal damping coefficient BA (N s): a negative input is a damping ratio
    ``zeta`` of a segment's axial mode, ``BA = zeta (L/N) sqrt(EA w)`` (MoorDyn-F SetupLine)."""
    if ba < 0.0:
        return -ba * length / segments * math.sqrt(ea * mass_den)
    return ba


def _quad_rate(a: float, b: float) -> float:
    """Largest |s| of s^2 + a s + b = 0 (a, b >= 0)."""
    disc = a * a - 4.0 * b
    if disc >= 0.0:
        return 0.5 * (a + math.sqrt(disc))
    return math.sqrt(b)


def fastest_rate(seg_len, ea, ba, mass_den, diam, can, rho, kbot, cbot) -> float:
    """Fastest eigenvalue magnitude (1/s) of a line's nodes: the highest axial mode of a chain of
    segments (stiffness ``4 EA/l`` and damping ``4 BA/l`` on a node mass ``w l``: adjacent
    nodes out of phase, MoorDyn's docs/troubleshooting.rst) and a node resting on the seabed (``kbot d l``,
    ``cbot d l`` on the node mass with its normal added mass)."""
    m = mass_den * seg_len
    axial = _quad_rate(4.0 * ba / seg_len / m, 4.0 * ea / seg_len / m)
    mn = (mass_den + rho * 0.25 * math.pi * diam * diam * can) * seg_len
    seabed = _quad_rate(cbot * diam * seg_len / mn, kbot * diam * seg_len / mn)
    return max(axial, seabed)


_NODE_CHANNEL = re.compile(r"L(\d+)[NS](\d+)(P[XYZ]|V[XYZ]|T)", re.IGNORECASE)


def node_channel_name(name: str) -> str | None:
    """MoorDyn's name of a line node's channel in floatwind's form (``L1N5PX``; MoorDyn-F reads
    ``L<line><N|S><node><quantity>``, so ``l1s5t`` is ``L1N5T``), or None for another name."""
    m = _NODE_CHANNEL.fullmatch(str(name).strip())
    return None if m is None else f"L{int(m[1])}N{int(m[2])}{m[3].upper()}"


def _node_channel_set(value, field: str, file) -> frozenset | None:
    """``node_channels``: "all" (None) or a list of node channel names (a set of them)."""
    if isinstance(value, str) and value.lower() == "all":
        return None
    if not isinstance(value, (list, tuple)):
        raise CaseError(f"expected 'all' or a list of node channel names (L1N5PX), got {value!r}",
                        field=field, file=file)  # fmt: skip
    out = set()
    for i, name in enumerate(value):
        canon = node_channel_name(name)
        if canon is None:
            raise CaseError(f"{name!r} is not a line node channel (L<line>N<node>PX|PY|PZ|VX|VY|"
                            "VZ|T)", field=f"{field}[{i}]", file=file)  # fmt: skip
        out.add(canon)
    return frozenset(out)


def _served_once(kernel, args):
    """``kernel`` (a compiled kernel, or its Python form) as the function that serves calls
    with the argument types of ``args``: the ahead-of-time module's, looked up once for a loop
    of many calls with the same types (each call through the kernel looks it up again, ~0.1 ms
    for a params record of ~30 arrays: the statics' hundreds of calls), else the kernel."""
    from floatwind import jit

    look = jit.AOT_LOOKUP
    if look is None or not isinstance(kernel, jit.Kernel):
        return kernel
    fn = look(kernel, tuple(args))
    return kernel if fn is None else fn


def stable_step(rate: float, bound: float = RK4_BOUND) -> float:
    """The largest step an explicit scheme with stability ``bound`` takes at ``rate``."""
    return bound / rate if rate > 0.0 else math.inf


class LumpedMassMooring(Load, kind="mooring_lumped"):
    """MoorDyn v2's lumped-mass lines between fixed, coupled (body) and free points (module
    docstring). Parameters as the case mapping; ``field`` names the case entry in errors."""

    def __init__(self, *, body: int, line_types: Mapping, points, lines, kbot: float = 3.0e6,
                 cbot: float = 3.0e5, dt_m: float = 0.001, ic_tmax: float = 0.0,
                 ic_threshold: float = 0.01, ic_cd_scale: float = 1.0, ic_dt: float = 1.0,
                 ic_start: str = "catenary", ic_step: str = "stable",
                 channel_prefix: str = "", name: str | None = None, field: str = "",
                 file: str | None = None, node_channels="all"):  # fmt: skip
        self.body = int(body)
        self.name = name or "moordyn"
        self.channel_prefix = channel_prefix
        self._field = field
        self._file = file
        f = lambda k: f"{field}.{k}" if field else k  # noqa: E731
        #: the per-node channels a run writes (``L#N#PX..``, ``L#N#VX..``, ``L#N#T``): None =
        #: all; else the set of names (upper case, without the prefix); the statics
        #: (``floatwind mooring``) always have every node
        self.node_channels = _node_channel_set(node_channels, f("node_channels"), file)
        if not isinstance(line_types, Mapping) or not line_types:
            raise CaseError("expected a non-empty mapping of line types", field=f("line_types"),
                            file=file)  # fmt: skip
        types = {}
        for tname, t in line_types.items():
            sec = Section(t, f(f"line_types.{tname}"), _TYPE_KEYS, file=file)
            types[str(tname)] = dict(
                diameter=sec.number("diameter", kind="positive"),
                mass_per_length=sec.number("mass_per_length", kind="positive"),
                ea=sec.number("ea", kind="positive"),
                ba=sec.number("ba", 0.0),
                ei=sec.number("ei", 0.0, kind="nonnegative"),
                cdn=sec.number("cdn", 0.0, kind="nonnegative"),
                can=sec.number("can", 0.0, kind="nonnegative"),
                cdt=sec.number("cdt", 0.0, kind="nonnegative"),
                cat=sec.number("cat", 0.0, kind="nonnegative"),
            )
        pts = []
        index: dict[str, int] = {}
        for i, pt in enumerate(points):
            sec = Section(pt, f(f"points[{i}]"), _POINT_KEYS, file=file)
            pname = str(sec.raw("name", str(i + 1)))
            if pname in index:
                raise sec.error(f"point {pname!r} is defined twice", "name")
            index[pname] = i
            pts.append(dict(
                name=pname, kind=_KINDS[sec.choice("kind", list(_KINDS))],
                position=np.asarray(sec.vector("position"), float),
                mass=sec.number("mass", 0.0, kind="nonnegative"),
                volume=sec.number("volume", 0.0, kind="nonnegative"),
                cda=sec.number("cda", 0.0, kind="nonnegative"),
                ca=sec.number("ca", 0.0, kind="nonnegative"),
            ))  # fmt: skip
        if not pts:
            raise CaseError("no points defined", field=f("points"), file=file)
        lns = []
        for i, ln in enumerate(lines):
            sec = Section(ln, f(f"lines[{i}]"), _LINE_KEYS, file=file)
            tname = str(sec.raw("type"))
            if tname not in types:
                raise sec.error(f"unknown line type {tname!r}{suggest(tname, types)}; line types "
                                f"are {sorted(types)}", "type")  # fmt: skip
            ends = []
            for key in ("end_a", "end_b"):
                pname = str(sec.raw(key))
                if pname not in index:
                    raise sec.error(f"point {pname!r} is not defined{suggest(pname, index)}", key)
                ends.append(index[pname])
            if ends[0] == ends[1]:
                raise sec.error("both ends of the line are the same point", "end_b")
            length = sec.number("length", kind="positive")
            nseg = sec.integer("segments", minimum=1)
            lns.append(dict(name=str(sec.raw("name", str(i + 1))), type=tname, a=ends[0],
                            b=ends[1], length=length, segments=nseg, field=sec.field))  # fmt: skip
        if not lns:
            raise CaseError("no lines defined", field=f("lines"), file=file)
        attached = {k for ln in lns for k in (ln["a"], ln["b"])}
        for k, pt in enumerate(pts):
            if pt["kind"] == 2 and k not in attached:
                raise CaseError(f"free point {pt['name']!r} has no line",
                                field=f(f"points[{k}]"), file=file)  # fmt: skip
        self.types, self.points, self.lines = types, pts, lns
        self.kbot = float(kbot)
        self.cbot = float(cbot)
        if not self.kbot >= 0.0 or not self.cbot >= 0.0:
            raise CaseError("kbot and cbot must be >= 0", field=f("seabed"), file=file)
        self.dt_m = float(dt_m)
        if not self.dt_m > 0.0:
            raise CaseError(f"must be > 0, got {dt_m!r}", field=f("dt_m"), file=file)
        self.ic_tmax, self.ic_threshold = float(ic_tmax), float(ic_threshold)
        self.ic_cd_scale, self.ic_dt = float(ic_cd_scale), float(ic_dt)
        if ic_start not in ("catenary", "static"):
            raise CaseError(f"unknown initial start {ic_start!r}; one of catenary, static",
                            field=f("initial.start"), file=file)  # fmt: skip
        self.ic_start = ic_start
        if ic_step not in ("stable", "dt_m"):
            raise CaseError(f"unknown initial step {ic_step!r}; one of stable, dt_m",
                            field=f("initial.step"), file=file)  # fmt: skip
        self.ic_step = ic_step
        # reach: a line between two fixed points must be able to span them
        for ln in lns:
            pa, pb = pts[ln["a"]], pts[ln["b"]]
            if pa["kind"] == 0 and pb["kind"] == 0:
                chord = float(np.linalg.norm(pa["position"] - pb["position"]))
                if chord > (1.0 + MAX_REST_STRAIN) * ln["length"]:
                    raise CaseError(f"the line cannot reach its ends: they are {chord:.6g} m "
                                    f"apart, its unstretched length is {ln['length']:.6g} m",
                                    field=f"{ln['field']}.length", file=file)  # fmt: skip
        self._layout()
        self._ic_cache: dict = {}
        self.ic_time: float | None = None

    # ------------------------------------------------------------------ layout
    def _layout(self) -> None:
        L = len(self.lines)
        self.nseg = np.array([ln["segments"] for ln in self.lines], dtype=np.int64)
        self.node0 = np.concatenate([[0], np.cumsum(self.nseg + 1)[:-1]]).astype(np.int64)
        self.seg0 = np.concatenate([[0], np.cumsum(self.nseg)[:-1]]).astype(np.int64)
        self.line_state = (
            np.concatenate([[0], np.cumsum(6 * (self.nseg - 1))[:-1]]).astype(np.int64)
            if L
            else np.zeros(0, np.int64)
        )
        col = int(np.sum(6 * (self.nseg - 1)))
        self.pt_state = np.full(len(self.points), -1, dtype=np.int64)
        for k, pt in enumerate(self.points):
            if pt["kind"] == 2:
                self.pt_state[k] = col
                col += 6
        self.n_states = col
        self.n_line = col  # the line states per member (the memory's width when sub-stepped)
        self.n_nodes = int(np.sum(self.nseg + 1))

    def line_property(self, key: str) -> np.ndarray:
        return np.array([self.types[ln["type"]][key] for ln in self.lines], dtype=float)

    def ba_values(self) -> np.ndarray:
        return np.array([line_ba(self.types[ln["type"]]["ba"], ln["length"], ln["segments"],
                                 self.types[ln["type"]]["ea"],
                                 self.types[ln["type"]]["mass_per_length"])
                         for ln in self.lines])  # fmt: skip

    def fastest_rate(self, env) -> float:
        """The lines' fastest eigenvalue magnitude (1/s), :func:`fastest_rate` over the lines."""
        rho = float(getattr(env, "rho_water", 1025.0))
        ba = self.ba_values()
        return max(
            fastest_rate(ln["length"] / ln["segments"], self.types[ln["type"]]["ea"], ba[j],
                         self.types[ln["type"]]["mass_per_length"],
                         self.types[ln["type"]]["diameter"], self.types[ln["type"]]["can"], rho,
                         self.kbot, self.cbot)
            for j, ln in enumerate(self.lines)
        )  # fmt: skip

    # ------------------------------------------------------------------ from a case
    @classmethod
    def from_config(cls, cfg, *, body_index, field, base_dir=None, tree=None):
        sec = Section(cfg, field, ("type", "body", "line_types", "points", "lines", "seabed",
                                   "dt_m", "initial", "channel_prefix", "name",
                                   "integration", "node_channels"))  # fmt: skip
        sb = sec.section("seabed", ("kbot", "cbot"))
        ic = sec.section("initial", ("tmax", "threshold", "cd_scale", "dt", "start", "step"))
        types = sec.raw("line_types")
        integration = sec.choice("integration", ("states", "substep"), "states")
        klass = SubsteppedLumpedMooring if integration == "substep" else cls
        return klass(
            body=sec.body(body_index), line_types=types,
            points=[item for _, item in sec.items("points")],
            lines=[item for _, item in sec.items("lines")],
            kbot=sb.number("kbot", 3.0e6, kind="nonnegative"),
            cbot=sb.number("cbot", 3.0e5, kind="nonnegative"),
            dt_m=sec.number("dt_m", 0.001, kind="positive"),
            ic_tmax=ic.number("tmax", 0.0, kind="nonnegative"),
            ic_threshold=ic.number("threshold", 0.01, kind="positive"),
            ic_cd_scale=ic.number("cd_scale", 1.0, kind="positive"),
            ic_dt=ic.number("dt", 1.0, kind="positive"),
            ic_start=ic.choice("start", ("catenary", "static"), "catenary"),
            ic_step=ic.choice("step", ("stable", "dt_m"), "stable"),
            channel_prefix=sec.raw("channel_prefix", ""), name=sec.raw("name", None), field=field,
            node_channels=sec.raw("node_channels", "all"),
        )  # fmt: skip

    # ------------------------------------------------------------------ params
    class Params(NamedTuple):
        body: int
        state0: int
        n_states: int
        rho: float
        gravity: float
        depth: float
        kbot: float
        cbot: float
        scratch_rp: np.ndarray  # (B, P, 3) point positions of the last call
        scratch_vp: np.ndarray  # (B, P, 3)
        scratch_r: np.ndarray  # (B, n_nodes, 3) node positions
        scratch_v: np.ndarray  # (B, n_nodes, 3)
        scratch_f: np.ndarray  # (B, n_nodes, 3) node net forces
        scratch_m: np.ndarray  # (B, n_nodes, 3, 3) end nodes' mass matrices (interior: unused)
        scratch_seg: np.ndarray  # (B, n_segments, 2) stretched length, |T + Td|
        scratch_pf: np.ndarray  # (B, P, 3) point net forces
        scratch_pm: np.ndarray  # (B, P, 3, 3) point mass matrices
        # work space of the kernels (shared by the members, which run one after the other)
        work_S: np.ndarray  # (3, 3) a free point's inverse mass matrix
        work_v: np.ndarray  # (2, 3) a point's position and velocity
        work_pm: np.ndarray  # (3, 3, 3) a coupled point's added-mass products
        # the lines' and points' tables packed in a few arrays (a record passed to a function
        # that numba does not inline is reference-counted array by array on every call: the
        # kernels take these out once and pass them to their inner loops)
        lint: np.ndarray  # (L, 6) segments, first node, first segment, first state column
        #                   (from state0), end A point, end B point
        lflt: np.ndarray  # (L, 10) segment length, diameter, mass per length, EA, BA (damping
        #                   ratios converted), EI, Can, Cat, Cdn, Cdt
        pint: np.ndarray  # (P, 2) kind (0 fixed, 1 coupled, 2 free), first state column of a
        #                   free point (from state0) or -1
        pflt: np.ndarray  # (P, 4) mass, volume, CdA, Ca
        pt_pos: np.ndarray  # (P, 3) fixed: inertial; coupled: body frame; free: start
        work_line: np.ndarray  # (13, Nmax + 1) a line's segments and interior node masses
        memory: object = None  # the step memory of sub-stepped lines (LineMemory), else None

    def _params(self, env, batch: int, state0: int = 0, memory=None) -> Params:
        B = int(batch)
        P = len(self.points)
        nn = self.n_nodes
        nmax = int(np.max(self.nseg))
        rho = float(getattr(env, "rho_water", 1025.0))
        g = float(getattr(env, "gravity", 9.80665))
        depth = float(getattr(env, "water_depth", 320.0))
        ends = [[ln["a"], ln["b"]] for ln in self.lines]
        lint = np.column_stack([self.nseg, self.node0, self.seg0, self.line_state,
                                np.reshape(ends, (-1, 2))]).astype(np.int64)  # fmt: skip
        lflt = np.column_stack([[ln["length"] / ln["segments"] for ln in self.lines]]
                               + [self.line_property(k) for k in ("diameter", "mass_per_length",
                                  "ea")] + [self.ba_values()] + [self.line_property(k) for k in
                                  ("ei", "can", "cat", "cdn", "cdt")]).astype(np.float64)  # fmt: skip
        pint = np.column_stack([[pt["kind"] for pt in self.points], self.pt_state]).astype(np.int64)
        pflt = np.array([[pt[k] for k in ("mass", "volume", "cda", "ca")] for pt in self.points],
                        dtype=np.float64).reshape(P, 4)  # fmt: skip
        return self.Params(
            body=self.body, state0=int(state0), n_states=int(self.n_line),
            rho=rho, gravity=g, depth=depth, kbot=self.kbot, cbot=self.cbot,
            scratch_rp=np.zeros((B, P, 3)), scratch_vp=np.zeros((B, P, 3)),
            scratch_r=np.zeros((B, nn, 3)), scratch_v=np.zeros((B, nn, 3)),
            scratch_f=np.zeros((B, nn, 3)), scratch_m=np.zeros((B, nn, 3, 3)),
            scratch_seg=np.zeros((B, int(np.sum(self.nseg)), 2)),
            scratch_pf=np.zeros((B, P, 3)), scratch_pm=np.zeros((B, P, 3, 3)),
            work_S=np.zeros((3, 3)), work_v=np.zeros((2, 3)), work_pm=np.zeros((3, 3, 3)),
            lint=i64(lint), lflt=f64(lflt), pint=i64(pint), pflt=f64(pflt),
            work_line=np.zeros((13, nmax + 1)),
            pt_pos=f64(np.array([pt["position"] for pt in self.points]).reshape(P, 3)),
            memory=memory,
        )  # fmt: skip

    def compiled(self, env, batch):
        from floatwind._kernels import lumped as kl

        return CompiledLoad(kl.lumped_kernel, self._params(env, batch), adds_mass=True)

    # ------------------------------------------------------------------ initial conditions
    def check_dt_m(self, env) -> None:
        """Refuse a dtM that MoorDyn's RK2 cannot keep stable for these lines (one line)."""
        rate = self.fastest_rate(env)
        limit = stable_step(rate, RK2_BOUND)
        if self.dt_m > limit:
            raise CaseError(
                f"dtM = {self.dt_m:g} s cannot be stable: the lines' fastest mode "
                f"({rate:.4g} 1/s, axial stiffness and damping or seabed contact) needs "
                f"dtM <= {limit:.3g} s", field=f"{self._field}.dt_m" if self._field else "dt_m",
                file=self._file,
            )  # fmt: skip

    def start_shape(self, rp: np.ndarray, env, y: np.ndarray) -> None:
        """The lines' start (Line_Initialize): node positions on the quasi-static elastic
        catenary between the ends ``rp`` (P, 3) (straight where it has none), velocities 0;
        free points at ``rp``. Writes ``y`` (n_states,)."""
        from floatwind.mooring.catenary import line_shape, solve_lines

        rho = float(getattr(env, "rho_water", 1025.0))
        g = float(getattr(env, "gravity", 9.80665))
        depth = float(getattr(env, "water_depth", 320.0))
        y[:] = 0.0
        for j, ln in enumerate(self.lines):
            t = self.types[ln["type"]]
            n = ln["segments"]
            a, b = rp[ln["a"]], rp[ln["b"]]
            lo, hi = (a, b) if a[2] <= b[2] else (b, a)
            w = (t["mass_per_length"] - rho * 0.25 * math.pi * t["diameter"] ** 2) * g
            dx = hi[:2] - lo[:2]
            lh = float(np.hypot(dx[0], dx[1]))
            h = float(hi[2] - lo[2])
            nodes = None
            if w > 0.0 and lh > 1e-9:
                contact = bool(lo[2] <= -depth + 1e-3)
                sol = solve_lines(lh, h, ln["length"], w, t["ea"], 0.0, contact)
                if not bool(sol["status"]):
                    xs, zs = line_shape(float(sol["H"]), float(sol["V"]), ln["length"], w,
                                        t["ea"], 0.0, contact, n=n + 1)  # fmt: skip
                    u = dx / lh
                    nodes = np.stack([lo[0] + xs * u[0], lo[1] + xs * u[1], lo[2] + zs], axis=1)
                    if not np.all(np.isfinite(nodes)):
                        nodes = None
            if nodes is None:  # MoorDyn's fallback: straight between the ends
                s = np.linspace(0.0, 1.0, n + 1)[:, None]
                nodes = lo + s * (hi - lo)
            if lo is not a:  # the catenary runs from the lower end: back to A -> B order
                nodes = nodes[::-1]
            o = int(self.line_state[j])
            for i in range(1, n):
                y[o + 6 * (i - 1) : o + 6 * (i - 1) + 3] = nodes[i]
        for k, pt in enumerate(self.points):
            if pt["kind"] == 2:
                o = int(self.pt_state[k])
                y[o : o + 3] = rp[k]

    def relax_step(self, env) -> tuple[float, int]:
        """(step, steps per check) of the dynamic relaxation: ``dtIC/10`` cut into whole steps
        of at most ``dt_m`` (MoorDyn-F MD_Init, ``initial.step: dt_m``) or, by default
        (``stable``), of at most :data:`RELAX_MARGIN` of the midpoint rule's stable step for
        the lines' fastest mode (never below ``dt_m``): the same RK2 and the same convergence
        test, with fewer steps where ``dt_m`` is far below what the lines need (ref10: 0.005 s
        for dtM 0.001 s; docs/moordyn.md)."""
        dtic = self.ic_dt / 10.0
        h = self.dt_m
        if self.ic_step == "stable":
            h = max(h, RELAX_MARGIN * stable_step(self.fastest_rate(env), RK2_BOUND))
        n = int(math.ceil(dtic / h - 1e-12))
        return dtic / n, n

    def initial_states_at(self, t, kin: Kinematics, env) -> np.ndarray:
        """Each member's lines on the catenary, then relaxed as MoorDyn does (module
        docstring) with the body held at its pose in ``kin``."""
        from floatwind._kernels import lumped as kl

        bk = body_kinematics(kin)
        key = (bk.r_G.tobytes(), bk.R_b2g.tobytes(), getattr(env, "rho_water", None),
               getattr(env, "water_depth", None), getattr(env, "gravity", None))  # fmt: skip
        if key in self._ic_cache:
            return self._ic_cache[key].copy()
        self.check_dt_m(env)
        B = kin.batch
        p = self._params(env, B)
        y = np.zeros((B, self.n_line))
        relax = python_form(kl.relax)
        pstate = python_form(kl.point_state)
        times = []
        # the start: MoorDyn's catenary shape, or the lines at rest (a relaxation converged)
        ys = self.static_states(kin, env) if self.ic_start == "static" else None
        for b in range(B):
            rp = np.zeros((len(self.points), 3))
            vp = np.zeros((len(self.points), 3))
            pstate(p, b, y, 0, bk.r_G[b, self.body], bk.R_b2g[b, self.body],
                   np.zeros(3), np.zeros(3), bk.cm_b[self.body], rp, vp)  # fmt: skip
            for k, pt in enumerate(self.points):  # free points: their given position
                if pt["kind"] == 2:
                    rp[k] = pt["position"]
            self.start_shape(rp, env, y[b])
            if ys is not None:
                y[b] = ys[b]
            if self.ic_tmax > 0.0:
                dtic = self.ic_dt / 10.0  # MD_Init: checks every dtIC/10
                dt, n_check = self.relax_step(env)
                n_max = int(math.ceil(self.ic_tmax / dtic - 1e-12))
                hist = np.zeros((len(self.lines), 10))
                ic = kl.Relaxation(dt=dt, n_check=n_check, n_max=n_max,
                                   thresh=self.ic_threshold, cd_scale=self.ic_cd_scale)  # fmt: skip
                tt = relax(p, b, y, 0, rp, vp, ic, kl.member_nodes.py_func(p, b), hist)
                if not np.all(np.isfinite(y[b])):
                    raise SimulationError(
                        f"{self.name}: the lines' initial relaxation diverged (step {dt:g} s, "
                        f"dtM = {self.dt_m:g} s)", time=0.0)  # fmt: skip
                if tt < 0.0:
                    logger.warning(
                        "%s: the line tensions did not converge to %g within TmaxIC = %g s",
                        self.name,
                        self.ic_threshold,
                        self.ic_tmax,
                    )
                times.append(abs(tt))
        self.ic_time = max(times) if times else 0.0
        self._ic_cache[key] = y.copy()
        return y

    def static_states(self, kin: Kinematics, env, tol: float = 1e-10,
                      warm: bool = False) -> np.ndarray:
        """The lines at rest for the body pose ``kin`` (B, n_states): the node positions (and
        free points) where every net force vanishes, velocities 0 (Levenberg-Marquardt,
        ``scipy.optimize.root``, on the nodes' accelerations from the catenary start shape;
        where that start is too far, from the lines dynamically relaxed first; ``tol``
        relative). The static
        equilibrium of the same discrete model the run integrates (``floatwind mooring``, the
        statics, the refinement test). With free points Newton's method has the whole Jacobian;
        ``warm`` (the statics' many nearby poses, :meth:`states_at_rest`) starts it from the
        last rest found (lines with or without free points; each batch member from the one
        before): the result then depends on the calls before to within ``tol``, so a run's
        states (``initial.start: static``) never use it."""
        from floatwind._kernels import lumped as kl

        bk = body_kinematics(kin)
        B = kin.batch
        p = self._params(env, 1)
        y = np.zeros((B, self.n_line))
        pos = np.zeros(self.n_line, dtype=bool)  # the position columns
        for j in range(len(self.lines)):
            o = int(self.line_state[j])
            for i in range(1, int(self.nseg[j])):
                pos[o + 6 * (i - 1) : o + 6 * (i - 1) + 3] = True
        for k in np.flatnonzero(self.pt_state >= 0):
            pos[int(self.pt_state[k]) : int(self.pt_state[k]) + 3] = True
        acc = np.roll(pos, 3)  # the acceleration columns of the rates
        rhs = python_form(kl.member_rhs)
        pstate = python_form(kl.point_state)
        free_points = python_form(kl._free_points)
        many = python_form(kl.rest_residuals)
        nodes = kl.member_nodes.py_func(p, 0)  # views of the record's scratch rows
        ipos, iacc = np.flatnonzero(pos), np.flatnonzero(acc)  # the same entries as the masks
        free = bool(np.any(self.pt_state >= 0))
        for b in range(B):
            rp = np.zeros((len(self.points), 3))
            vp = np.zeros((len(self.points), 3))
            one = np.zeros((1, self.n_line))
            pstate(p, 0, one, 0, bk.r_G[b, self.body], bk.R_b2g[b, self.body], np.zeros(3),
                   np.zeros(3), bk.cm_b[self.body], rp, vp)  # fmt: skip
            for k, pt in enumerate(self.points):
                if pt["kind"] == 2:
                    rp[k] = pt["position"]
            dy = np.zeros_like(one)
            rpf, vpf = rp.copy(), vp.copy()
            served = None

            def residual(x, one=one, dy=dy, rp=rp, vp=vp, rpf=rpf, vpf=vpf):
                one[0, ipos] = x
                free_points(p, 0, one, 0, rp, vp, rpf, vpf)
                rhs(p, 0, one, 0, rpf, vpf, dy, 1.0, nodes)
                return dy[0, iacc]

            def residuals(X, one=one, dy=dy, rp=rp, vp=vp, rpf=rpf, vpf=vpf):
                # residual() of each row of X in one compiled call (the same bits)
                nonlocal served
                X = np.ascontiguousarray(X, dtype=float)
                out = np.empty((X.shape[0], iacc.size))
                args = (p, X, ipos, iacc, one, rp, vp, rpf, vpf, dy, out)
                if served is None:  # the same argument types at every call of this solve
                    served = _served_once(many, args)
                served(*args)
                return out

            g = float(getattr(env, "gravity", 9.80665))
            x = None
            last = getattr(self, "_rest_warm", None)
            if warm and last is not None and last.shape == (ipos.size,):
                # from the last rest found (the statics' nearby poses: the pre-run check's 52
                # solves, the members of its Jacobians 1 cm or 1e-4 rad apart, an
                # equilibrium's iterations, a sweep): 3 Newton iterations instead of 4-7
                x = self._newton_rest(residuals, last.copy(), tol)
            if x is None:  # from the catenary start
                self.start_shape(rp, env, one[0])
                start = one[0, pos].copy()
                x = self._newton_rest(residuals, start.copy(), tol)
            if x is None and free:
                # free points (clump weights, buoys) given where a user guessed them: Newton
                # from the lines relaxed dynamically first (as below), its dense Jacobian a few
                # milliseconds, instead of Levenberg-Marquardt's seconds per solve
                self._relax_for_statics(p, one, rp, vp, env)
                one[0, ~pos] = 0.0
                x = self._newton_rest(residuals, one[0, pos].copy(), tol)
            if x is not None:  # the fast path
                self._rest_warm = x.copy()
                one[0, pos] = x
                y[b] = one[0]
                continue
            # scipy.optimize only here: ~0.8 s of a run's start-up the Newton path never needs
            from scipy.optimize import root

            one[0, pos] = start  # Levenberg-Marquardt from the same start
            sol = root(residual, one[0, pos].copy(), method="lm",
                       options={"xtol": tol, "ftol": tol})  # fmt: skip
            # a start far from rest leaves accelerations >> g (a node at the seabed's contact
            # kink may keep one of order g: a stiff seabed, not a failed solve)
            if not sol.success or np.max(np.abs(sol.fun)) > 10.0 * g:
                # a start far from rest (a free point's given position, a taut guess): relax
                # the lines dynamically first (MoorDyn's relaxation, drag x 4, 120 s at most),
                # then polish
                self._relax_for_statics(p, one, rp, vp, env)
                one[0, ~pos] = 0.0
                sol = root(residual, one[0, pos].copy(), method="lm",
                           options={"xtol": tol, "ftol": tol})  # fmt: skip
            if not sol.success or np.max(np.abs(sol.fun)) > 10.0 * g:
                raise SimulationError(f"{self.name}: the lines' static equilibrium was not found "
                                      f"({sol.message})", time=kin.t)  # fmt: skip
            one[0, pos] = sol.x
            self._rest_warm = sol.x.copy()
            y[b] = one[0]
        return y

    def _relax_for_statics(self, p, one, rp, vp, env) -> None:
        """The lines of ``one`` (1, n_states) from the catenary start relaxed dynamically
        (MoorDyn's relaxation, drag x 4, 120 s at most): a start for the static solve where the
        given one is far from rest (a free point's given position, a taut guess)."""
        from floatwind._kernels import lumped as kl

        self.start_shape(rp, env, one[0])
        dtic = 0.1  # the step: dtM, or what RK2 needs for these lines (statics only)
        dt = min(self.dt_m, 0.5 * stable_step(self.fastest_rate(env), RK2_BOUND))
        n_check = int(math.ceil(dtic / dt - 1e-12))
        ic = kl.Relaxation(dt=dtic / n_check, n_check=n_check, n_max=1200,
                           thresh=1e-6, cd_scale=max(self.ic_cd_scale, 4.0))  # fmt: skip
        python_form(kl.relax)(p, 0, one, 0, rp, vp, ic, kl.member_nodes.py_func(p, 0),
                              np.zeros((len(self.lines), 10)))  # fmt: skip

    def _rest_plan(self, n: int):
        """The structure of the static solve's Jacobian for ``n`` unknowns, kept by the load
        (:func:`floatwind.loads.moordyn_rest.rest_plan`)."""
        from floatwind.loads.moordyn_rest import rest_plan

        return rest_plan(self, n)

    def _newton_rest(self, residuals, x, tol, max_iter=20):
        """The lines' nodes at rest by Newton's method, or None
        (:func:`floatwind.loads.moordyn_rest.newton_rest`)."""
        from floatwind.loads.moordyn_rest import newton_rest

        return newton_rest(self, residuals, x, tol, max_iter)

    # ------------------------------------------------------------------ wrench and channels
    def _evaluate(self, kin, env, s, rates: bool = False):
        """The lines at the states ``s`` (B, n_line): their node data (a ``RowsOut``), the
        wrench on the body and, with ``rates``, the states' rates (``lumped_kernel`` over a
        record of B members), else None (``line_rows``: row by row in a record of one member,
        the same bits without the rates' work and memory)."""
        from floatwind._kernels import lumped as kl

        B, N = kin.batch, kin.n_bodies
        force, moment = np.zeros((B, N, 3)), np.zeros((B, N, 3))
        added = np.zeros((B, N, 6, 6))
        y = np.ascontiguousarray(s, dtype=float)
        if rates:
            p = self._params(env, B)
            dy = np.zeros_like(y)
            status = python_form(kl.lumped_kernel)(p, 0.0, body_kinematics(kin), y, dy, force,
                                                   moment, added)  # fmt: skip
            nodes = kl.RowsOut(p.scratch_r, p.scratch_f, p.scratch_seg, p.scratch_pf,
                               p.scratch_rp)  # fmt: skip
        else:
            P, nn, ns = len(self.points), self.n_nodes, int(np.sum(self.nseg))
            dy = None
            nodes = kl.RowsOut(np.empty((B, nn, 3)), np.empty((B, nn, 3)), np.empty((B, ns, 2)),
                               np.empty((B, P, 3)), np.empty((B, P, 3)))  # fmt: skip
            status = python_form(kl.line_rows)(self._params(env, 1), body_kinematics(kin), y,
                                               force, moment, added, nodes)  # fmt: skip
        if status:
            raise SimulationError(f"{self.name}: non-finite line state", time=kin.t)
        return nodes, force, moment, added, dy

    #: still water: the kernel does not read ``t`` (outputs are evaluated for many times at once)
    time_independent = True

    #: the lines at rest follow the body's pose alone (:meth:`wrench`): the mooring statics
    #: (``floatwind mooring``) evaluate the dynamic model's static equilibrium
    is_mooring = True

    def states_at_rest(self, t, kin, env):
        """The lines at rest at ``kin``'s pose (:meth:`static_states`), for static equilibria."""
        return self.static_states(kin, env, warm=True)

    def wrench(self, t, kin, env):
        """Without states (statics, start-up checks): the lines at rest at ``kin``
        (:meth:`static_states`), with the interior nodes' positions as channels too (the
        shapes ``floatwind mooring`` draws)."""
        s = self.static_states(kin, env, warm=True)
        out = self._wrench_of(kin, env, s)[0]  # every node (node_channels: a run's outputs)
        for n, name in enumerate(LumpedMassMooring.state_names(self)):
            if name[-2] == "P":
                out.channels[name] = s[:, n].copy()
        return out

    def wrench_state(self, t, kin, env, s, memory):
        return self._wrench_of(kin, env, s, run=True, rates=True)

    def _keep(self, name: str) -> bool:
        """Whether a run writes the channel ``name`` (without the prefix): every channel but
        the line nodes' not in ``node_channels``."""
        return (self.node_channels is None or name in self.node_channels
                or not name.startswith("L") or node_channel_name(name) is None)  # fmt: skip

    def _wrench_of(self, kin, env, s, run: bool = False, rates: bool = False):
        """The wrench, channels and (``rates``, else None) state rates of the line states ``s``
        (B, n_line); a run's (``run``) per-node channels only those of ``node_channels``."""
        nd, force, moment, added, dy = self._evaluate(kin, env, s, rates)
        out = Wrench(force, moment, added_mass=added)
        pre = self.channel_prefix
        keep = self._keep if run else (lambda name: True)
        for j in range(len(self.lines)):
            o, n = int(self.node0[j]), int(self.nseg[j])
            so = int(self.seg0[j])
            fa = nd.fnet[:, o]
            fb = nd.fnet[:, o + n]
            out.channels[f"{pre}FAIRTEN{j + 1}"] = np.sqrt(np.sum(fb * fb, axis=1))
            out.channels[f"{pre}ANCHTEN{j + 1}"] = np.sqrt(np.sum(fa * fa, axis=1))
            # MoorDyn v2's line-object names of the same two values (FairTen[n] = L[n]TenB)
            out.channels[f"{pre}L{j + 1}TENA"] = out.channels[f"{pre}ANCHTEN{j + 1}"].copy()
            out.channels[f"{pre}L{j + 1}TENB"] = out.channels[f"{pre}FAIRTEN{j + 1}"].copy()
            for i in range(n + 1):
                node = f"L{j + 1}N{i}"
                if i in (0, n):
                    f = nd.fnet[:, o + i]
                    for c, ax in enumerate("XYZ"):
                        if keep(f"{node}P{ax}"):
                            out.channels[f"{pre}{node}P{ax}"] = nd.r[:, o + i, c].copy()
                    if keep(f"{node}T"):
                        out.channels[f"{pre}{node}T"] = np.sqrt(np.sum(f * f, axis=1))
                elif keep(f"{node}T"):
                    out.channels[f"{pre}{node}T"] = 0.5 * (np.abs(nd.seg[:, so + i - 1, 1])
                                                           + np.abs(nd.seg[:, so + i, 1]))  # fmt: skip
        for k, pt in enumerate(self.points):
            for c, ax in enumerate("XYZ"):
                out.channels[f"{pre}POINT{k + 1}F{ax}"] = nd.pf[:, k, c].copy()
                if pt["kind"] != 2:
                    out.channels[f"{pre}POINT{k + 1}P{ax}"] = nd.rp[:, k, c].copy()
        b = self.body
        for c, ax in enumerate("xyz"):
            out.channels[f"{pre}MoorF{ax}i"] = force[:, b, c].copy()
        return out, dy

    def channel_info(self) -> dict[str, tuple[str, str]]:
        pre = self.channel_prefix
        info: dict[str, tuple[str, str]] = {}
        for j, ln in enumerate(self.lines):
            n = ln["segments"]
            info[f"{pre}FAIRTEN{j + 1}"] = ("N", f"end-B tension of line {j + 1} (|net force "
                                            "on its last node|, MoorDyn FairTen)")  # fmt: skip
            info[f"{pre}ANCHTEN{j + 1}"] = ("N", f"end-A tension of line {j + 1} (|net force "
                                            "on its first node|, MoorDyn AnchTen)")  # fmt: skip
            info[f"{pre}L{j + 1}TENA"] = ("N", f"net force on end A of line {j + 1} (= "
                                          f"ANCHTEN{j + 1}, MoorDyn's L#TenA)")  # fmt: skip
            info[f"{pre}L{j + 1}TENB"] = ("N", f"net force on end B of line {j + 1} (= "
                                          f"FAIRTEN{j + 1}, MoorDyn's L#TenB)")  # fmt: skip
            for i in range(n + 1):
                if i in (0, n):
                    for ax in "XYZ":
                        info[f"{pre}L{j + 1}N{i}P{ax}"] = (
                            "m",
                            f"line {j + 1} node {i} position, inertial {ax.lower()}",
                        )
                info[f"{pre}L{j + 1}N{i}T"] = ("N", f"line {j + 1} tension at node {i}")
        for k, pt in enumerate(self.points):
            for ax in "XYZ":
                info[f"{pre}POINT{k + 1}F{ax}"] = (
                    "N",
                    f"net force of the lines (and its own weight) on point {pt['name']}, {ax}",
                )
                if pt["kind"] != 2:
                    info[f"{pre}POINT{k + 1}P{ax}"] = (
                        "m",
                        f"position of point {pt['name']}, inertial {ax.lower()}",
                    )
        for ax in "xyz":
            info[f"{pre}MoorF{ax}i"] = ("N", f"total mooring force on the body, inertial {ax}")
        return info

    def state_names(self) -> list[str]:
        pre = self.channel_prefix
        names = []
        for j, ln in enumerate(self.lines):
            for i in range(1, ln["segments"]):
                names += [f"{pre}L{j + 1}N{i}{q}{ax}" for q in "PV" for ax in "XYZ"]
        for k, pt in enumerate(self.points):
            if pt["kind"] == 2:
                names += [f"{pre}POINT{k + 1}{q}{ax}" for q in "PV" for ax in "XYZ"]
        return names

    def state_info(self) -> dict[str, tuple[str, str]]:
        return {n: ("m" if n[-2] == "P" else "m/s",
                    f"{'position' if n[-2] == 'P' else 'velocity'} of mooring node "
                    f"{n[len(self.channel_prefix):-2]}, inertial {n[-1].lower()}")
                for n in self.state_names()}  # fmt: skip


class LineMemory(NamedTuple):
    """Step memory of :class:`SubsteppedLumpedMooring` (one run; ``_kernels.lumped``)."""

    hist: np.ndarray  # (n_steps + 1, B, n) the line states at the step times
    vcp: np.ndarray  # (n_steps + 1, B, P, 3) the points' velocities at the step times
    stage: np.ndarray  # (3, B, n) the line states at t_k, t_k + dt/2, t_k + dt (k = last)
    work: np.ndarray  # (3, B, n) a sub-step's state, midpoint state and rates
    pw: np.ndarray  # (B, 5, P, 3) predicted acceleration, points' positions and velocities
    none: np.ndarray  # (B, 0) "no rates" for member_rhs
    t0: float
    dt: float
    n_sub: np.ndarray  # (1,) RK2 sub-steps per step (even: RK4's stage times are sub-step times)
    last: np.ndarray  # (1,) index of the last recorded step


class SubsteppedLumpedMooring(LumpedMassMooring):
    """:class:`LumpedMassMooring` with the lines sub-stepped inside each step of the run
    (``integration: substep``) instead of integrated with the bodies as states: MoorDyn's loose
    coupling (``_kernels.lumped``, "Sub-stepped lines"). The lines are MoorDyn's RK2 at the
    largest even division of the run's step that keeps it stable for their fastest mode; the
    bodies step at the run's step (RK4), the lines' force on them taken at each stage time with
    the fairleads where the stage puts them. The line states of every step are kept in the step
    memory (channels ``L1N5PX``.. as the states' names), so outputs at step times only. Needs a
    fixed step (rk4); docs/moordyn.md, "States"."""

    #: output rows per block (floatwind.simulate.outputs.output_block): the lines' arrays of
    #: 2048 rows overflow the cache (ref10's outputs 0.36-0.57 -> 0.22-0.28 s, the same bits)
    output_block = 512

    def __init__(self, **kw):
        super().__init__(**kw)
        self.n_states = 0

    def memory(self, batch: int, t0: float, dt: float, n_steps: int):
        if dt <= 0.0:
            raise CaseError(
                "sub-stepped mooring lines need a fixed time step (integrator rk4)",
                field=f"{self._field}.integration" if self._field else "integration",
            )
        n, P, B = self.n_line, len(self.points), int(batch)
        return LineMemory(hist=np.zeros((n_steps + 1, B, n)), vcp=np.zeros((n_steps + 1, B, P, 3)),
                          stage=np.zeros((3, B, n)), work=np.zeros((3, B, n)),
                          pw=np.zeros((B, 5, P, 3)), none=np.zeros((B, 0)), t0=float(t0),
                          dt=float(dt), n_sub=np.zeros(1, dtype=np.int64),
                          last=np.full(1, -1, dtype=np.int64))  # fmt: skip

    def n_sub(self, env, dt: float) -> int:
        """RK2 sub-steps per step of ``dt``: the smallest even number that keeps MoorDyn's RK2
        stable for the lines' fastest mode (|lambda| h <= 2)."""
        limit = stable_step(self.fastest_rate(env), RK2_BOUND)
        return 2 * max(1, int(math.ceil(dt / (2.0 * limit) - 1e-9)))

    def compiled(self, env, batch):
        from floatwind._kernels import lumped as kl

        return CompiledLoad(kl.substep_kernel, self._params(env, batch), adds_mass=True,
                            after_step=kl.substep_after_step)  # fmt: skip

    def after_step(self, t, kin, env, memory, s):
        from floatwind._kernels import lumped as kl

        k = int(round((t - memory.t0) / memory.dt))
        if k == 0 and memory.last[0] < 0:  # the lines' initial conditions (MoorDyn's MD_Init)
            memory.hist[0] = self.initial_states_at(t, kin, env)
            memory.n_sub[0] = self.n_sub(env, memory.dt)
        python_form(kl.substep_after_step)(
            self._params(env, kin.batch, memory=memory),
            float(t),
            body_kinematics(kin),
            np.empty((kin.batch, 0)),
        )

    def _states_at(self, times, batch: int, memory) -> np.ndarray:
        """The line states (len(times), n) of rows ``times`` (member ``i % batch``) from the
        memory as ``substep_kernel`` takes them: a step time up to the last recorded, or the
        current step's middle or end (the RK4 stages of the Python path)."""
        times = np.asarray(times, float)
        x2 = (times - memory.t0) / (0.5 * memory.dt)
        i2 = np.rint(x2).astype(np.int64)
        last = int(memory.last[0])
        mid, end = i2 == 2 * last + 1, i2 == 2 * last + 2
        step = (i2 % 2 == 0) & (i2 >= 0) & (i2 <= 2 * last)
        bad = (np.abs(x2 - i2) > 1e-6) | ~(step | mid | end)
        if np.any(bad):
            t_bad = float(times[np.argmax(bad)])
            raise SimulationError(f"{self.name}: sub-stepped lines are kept at the run's step "
                                  f"times only (t = {t_bad:g} s is not one: outputs on the step "
                                  "grid, or integration: states)", time=t_bad)  # fmt: skip
        member = np.arange(times.size) % batch
        out = memory.hist[np.where(step, i2 // 2, 0), member]
        out[mid] = memory.stage[1, member[mid]]
        out[end] = memory.stage[2, member[end]]
        return out

    def wrench_state(self, t, kin, env, s, memory):
        if memory is None:  # statics and start-up checks: the lines at rest at kin
            s = self.static_states(kin, env, warm=True)
        else:
            s = self._states_at(np.full(kin.batch, float(t)), kin.batch, memory)
            if not np.all(np.isfinite(s)):
                raise SimulationError(f"{self.name}: non-finite line state of the sub-stepped "
                                      "lines (MoorDyn's RK2 at its stable step for the linear "
                                      "modes; violent drag can exceed it): integration: states "
                                      "or --mooring dynamic-states", time=float(t))  # fmt: skip
        return self._with_nodes(self._wrench_of(kin, env, s, run=True)[0], s), None

    def wrench_times(self, times, batch: int, kin, env, memory) -> Wrench:
        """:meth:`wrench_state` of a stack of (time, member) rows in one call (the same
        numbers per row; ``System.evaluate_many``)."""
        if memory is None:
            s = self.static_states(kin, env, warm=True)
        else:
            s = self._states_at(times, batch, memory)
        return self._with_nodes(self._wrench_of(kin, env, s, run=True)[0], s)

    def _with_nodes(self, out, s):
        """The interior nodes' positions and velocities of ``s`` as channels (those of
        ``node_channels``)."""
        kept = self.__dict__.get("_kept_names")
        if kept is None:  # the state columns written, once per load
            pre = len(self.channel_prefix)
            kept = [(n, name) for n, name in enumerate(self._line_names())
                    if self._keep(name[pre:])]  # fmt: skip
            self._kept_names = kept
        for n, name in kept:
            out.channels[name] = s[:, n].copy()
        return out

    def _line_names(self) -> list[str]:
        return LumpedMassMooring.state_names(self)

    def state_names(self) -> list[str]:
        return []

    def channel_info(self) -> dict[str, tuple[str, str]]:
        info = super().channel_info()
        names = self._line_names()
        for n in names:
            info[n] = ("m" if n[-2] == "P" else "m/s",
                       f"{'position' if n[-2] == 'P' else 'velocity'} of mooring node "
                       f"{n[len(self.channel_prefix):-2]}, inertial {n[-1].lower()}")  # fmt: skip
        return info
