"""Turbine topologies as trees of rigid bodies: 2-body (ch. III), 3-body (ch. IV), 6-body (sec. V.D).

Each topology is first laid out as plain numbers (:func:`layout`: body mass properties and joint
placements, no motions) and then built into :class:`~floatwind.multibody.tree.Body` /
:class:`~floatwind.multibody.tree.Joint` objects with the prescribed motions
(:func:`two_body`, :func:`three_body`, :func:`six_body`). The case-file expansion
(:mod:`floatwind.case.topology`) uses the same :func:`layout`, so the library and the case files
cannot drift apart.

Frames (the same as OpenFAST/ElastoDyn, see docs/multibody.md):

* base body ``tower`` (tower + hull, Wang's body 1): the platform frame, origin at the platform
  reference point (PRP) on the SWL, z up along the tower axis, x downwind.
* ``nacelle`` (and the lumped ``rna`` of the 2-body model): origin at the yaw bearing (tower top),
  axes = platform axes yawed by the nacelle yaw angle about z (ElastoDyn's x_n, y_n, z_n).
* ``rotor`` / ``hub``: origin at the rotor apex, x along the shaft (ElastoDyn's c1, tilted by
  ShftTilt, downwind), z = c2 (blade 1 up at zero azimuth), y = -c3; the spin angle is ElastoDyn's
  azimuth (positive about +c1).
* ``blade1..3``: origin at the blade root, axes = ElastoDyn's pitched blade frame (j1, j2, j3),
  j3 along the coned blade axis; the pitch joint rotates about -j3 by the blade pitch angle.

Default numbers are the rigid OC3-Hywind / NREL 5-MW assembly of the OpenFAST reference cases
(``shared/reference/openfast/README.md``, ``ref01_pitch_decay/mass_properties.json`` and
``ElastoDyn.dat``). Axes that ElastoDyn gives no rotary inertia (point masses) get
``small_inertia`` (1 kg m^2) so that every body inertia is positive definite.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field

import numpy as np

from floatwind.multibody.motion import Locked, Motion
from floatwind.multibody.tree import Body, Joint

KINDS = ("two_body", "three_body", "six_body")

#: OC3-Hywind + NREL 5-MW defaults (SI). Sources in the comments.
OC3_DEFAULTS: dict = {
    # platform alone [J10], ref01 mass_properties.json
    "platform": {
        "mass": 7466330.0,
        "cm": [0.0, 0.0, -89.9155],
        "inertia": [4.22923e9, 4.22923e9, 1.6423e8],
    },
    # tower [J09]/ED.sum: mass 249,718.0028 kg, CM 43.3615 m above SWL. ElastoDyn's tower is point
    # masses on the axis; its tilt inertia about its own CM is not printed: 1.19049e8 kg m^2 makes
    # the six_body assembly reproduce the ElastoDyn assembly inertia about the CM
    # (mass_properties.json) to 3e-8 relative (CM to 1e-9 m; tests/test_multibody_topology.py).
    "tower": {
        "mass": 249718.0028,
        "cm": [0.0, 0.0, 43.361529],
        "inertia": [1.19049e8, 1.19049e8, 1.0],
    },
    "tower_top": 87.6,  # TowerHt (m above SWL) = yaw bearing
    # nacelle: NacMass 240,000 kg, NacCM (1.9, 0, 1.75) m from the tower top, yaw inertia about
    # its own CM Nacd2Iner = NacYIner - m (x^2 + y^2) = 1,741,490 kg m^2 (ElastoDyn.dat, README)
    "nacelle": {"mass": 240000.0, "cm": [1.9, 0.0, 1.75], "yaw_inertia": 1741490.0},
    # rotor geometry (ElastoDyn.dat): ShftTilt -5 deg, PreCone -2.5 deg, OverHang -5.0191 m,
    # Twr2Shft 1.96256 m, HubRad 1.5 m, HubCM 0
    "rotor": {
        "shaft_tilt_deg": -5.0,
        "precone_deg": -2.5,
        "overhang": -5.0191,
        "twr2shft": 1.96256,
        "hub_radius": 1.5,
        "hub_mass": 56780.0,
        "hub_inertia": 115926.0,  # HubIner about the shaft
        # blade (ED.sum): mass, first/second mass moment about the root (point masses on the
        # pitch axis, ElastoDyn discretisation)
        "blade_mass": 17536.61413935029,
        "blade_first_moment": 362132.65281824785,
        "blade_second_moment": 11752352.2646788,
        "n_blades": 3,
    },
    "small_inertia": 1.0,
}


@dataclass
class BodySpec:
    name: str
    mass: float
    cm: np.ndarray
    inertia: np.ndarray


@dataclass
class JointSpec:
    """``motion`` names which prescribed motion drives it: 'yaw', 'spin', 'pitch1'..'pitch3'."""

    name: str
    parent: str
    child: str
    position_parent: np.ndarray
    position_child: np.ndarray
    axis: np.ndarray
    R0_c2p: np.ndarray = field(default_factory=lambda: np.eye(3))
    motion: str = ""


def _merge(base: dict, over: dict | None) -> dict:
    out = copy.deepcopy(base)
    for k, v in (over or {}).items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def _inertia(value) -> np.ndarray:
    I = np.asarray(value, dtype=float)
    return np.diag(I) if I.shape == (3,) else I.reshape(3, 3)


def _rot_y(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def _combine(parts: list[tuple[float, np.ndarray, np.ndarray]]):
    """Mass, CM and inertia about the CM of rigidly joined parts (mass, cm, inertia about own CM)."""
    m = sum(p[0] for p in parts)
    c = sum(p[0] * np.asarray(p[1]) for p in parts) / m
    I = np.zeros((3, 3))
    for mi, ci, Ii in parts:
        d = np.asarray(ci) - c
        I += Ii + mi * (d @ d * np.eye(3) - np.outer(d, d))  # parallel-axis theorem
    return m, c, I


def rotor_geometry(p: dict) -> dict:
    """Shaft axis, apex, blade frames and lumped rotor properties from the parameter dict.

    Returns a dict with ``R_s2n`` (rotor/hub frame at zero azimuth in nacelle axes), ``apex_n``,
    ``blade_R0`` (blade frames (i1, i2, i3) at zero pitch in hub axes), ``root_h`` (blade-root
    points in hub axes), ``blade_cm`` (blade CM from the root along j3), ``blade_inertia``,
    ``rotor_mass``, ``rotor_cm_h``, ``rotor_inertia`` (about its CM, hub axes, axisymmetric).
    """
    r = p["rotor"]
    small = float(p.get("small_inertia", 1.0))
    tilt = math.radians(r["shaft_tilt_deg"])
    pc = math.radians(r["precone_deg"])
    R_s2n = _rot_y(-tilt)  # x_h = c1 = cos(tilt) x_n + sin(tilt) z_n
    apex_n = np.array([0.0, 0.0, r["twr2shft"]]) + r["overhang"] * R_s2n[:, 0]
    n = int(r.get("n_blades", 3))
    mb, S1, S2 = r["blade_mass"], r["blade_first_moment"], r["blade_second_moment"]
    rcm = S1 / mb  # blade CM from the root
    I_flap = S2 - mb * rcm**2  # about the blade CM, perpendicular to the blade axis
    blade_inertia = np.diag([I_flap, I_flap, float(r.get("blade_axial_inertia", small))])
    R0s, roots = [], []
    for k in range(n):
        a = 2.0 * math.pi * k / n
        sa, ca = math.sin(a), math.cos(a)
        # ElastoDyn: g3 = cos(a) c2 + sin(a) c3, g2 = g3 x c1, i1..i3 with precone (README)
        i1 = np.array([math.cos(pc), math.sin(pc) * sa, -math.sin(pc) * ca])
        i2 = np.array([0.0, ca, sa])
        i3 = np.array([math.sin(pc), -math.cos(pc) * sa, math.cos(pc) * ca])
        R0s.append(np.column_stack([i1, i2, i3]))
        roots.append(r["hub_radius"] * i3)
    hub_I = np.diag([r["hub_inertia"], small, small])
    parts = [(r["hub_mass"], np.zeros(3), hub_I)]
    for R0, root in zip(R0s, roots):
        parts.append((mb, root + rcm * R0[:, 2], R0 @ blade_inertia @ R0.T))
    m_rot, c_rot, I_rot = _combine(parts)
    return {
        "R_s2n": R_s2n,
        "apex_n": apex_n,
        "blade_R0": R0s,
        "root_h": roots,
        "blade_cm": rcm,
        "blade_inertia": blade_inertia,
        "hub_inertia": hub_I,
        "rotor_mass": m_rot,
        "rotor_cm_h": c_rot,
        "rotor_inertia": I_rot,
    }


def _base_body(p: dict) -> BodySpec:
    parts = []
    for key in ("platform", "tower"):
        if p.get(key):
            b = p[key]
            parts.append(
                (
                    float(b["mass"]),
                    np.asarray(b.get("cm", [0, 0, 0]), float),
                    _inertia(b["inertia"]),
                )
            )
    m, c, I = _combine(parts)
    return BodySpec("tower", m, c, I)


def _nacelle_body(p: dict) -> BodySpec:
    n = p["nacelle"]
    small = float(p.get("small_inertia", 1.0))
    if "inertia" in n:
        I = _inertia(n["inertia"])
    else:
        I = np.diag([small, small, float(n["yaw_inertia"])])
    return BodySpec("nacelle", float(n["mass"]), np.asarray(n["cm"], float), I)


def layout(kind: str, params: dict | None = None) -> tuple[list[BodySpec], list[JointSpec]]:
    """Bodies and joints (numbers only) of a topology ``kind`` in :data:`KINDS`.

    ``params`` overrides :data:`OC3_DEFAULTS` key by key (nested dicts merge). Extra keys:
    ``rna_on_axis`` (2-body: put the lumped RNA CM on the tower axis, Wang sec. III.C.1;
    default True), ``rna`` (2-body: give the lumped RNA mass/cm/inertia directly).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown topology {kind!r}; known: {KINDS}")
    p = _merge(OC3_DEFAULTS, params)
    top = np.array([0.0, 0.0, float(p["tower_top"])])
    geo = rotor_geometry(p)
    z = np.array([0.0, 0.0, 1.0])
    x = np.array([1.0, 0.0, 0.0])
    split: list = []
    if p.get("tower_base") is not None:
        # the tower as a body of its own on a locked joint at the tower base, so that inverse
        # dynamics gives the tower-base loads (TwrBs*t); the base body keeps the name "tower"
        # (the hull loads of a case stay on it) and holds the platform alone
        zb = float(p["tower_base"])
        if not 0.0 < zb < top[2]:
            raise ValueError(f"tower_base {zb:g} m must lie between 0 and the tower top {top[2]:g} m")
        t = p["tower"]
        base_pt = np.array([0.0, 0.0, zb])
        shaft = BodySpec("tower_shaft", float(t["mass"]),
                         np.asarray(t.get("cm", [0, 0, 0]), float) - base_pt, _inertia(t["inertia"]))
        base = _base_body({"platform": p["platform"]})
        split = [shaft, JointSpec("tower_base", "tower", "tower_shaft", base_pt, np.zeros(3), z)]
        yaw = JointSpec("yaw", "tower_shaft", "nacelle", top - base_pt, np.zeros(3), z, motion="yaw")
    else:
        base = _base_body(p)
        yaw = JointSpec("yaw", "tower", "nacelle", top, np.zeros(3), z, motion="yaw")
    if kind == "two_body":
        nac = _nacelle_body(p)
        if p.get("rna"):
            r = p["rna"]
            m, c, I = float(r["mass"]), np.asarray(r["cm"], float), _inertia(r["inertia"])
        else:
            rot_cm_n = geo["apex_n"] + geo["R_s2n"] @ geo["rotor_cm_h"]
            rot_I_n = geo["R_s2n"] @ geo["rotor_inertia"] @ geo["R_s2n"].T
            m, c, I = _combine(
                [(nac.mass, nac.cm, nac.inertia), (geo["rotor_mass"], rot_cm_n, rot_I_n)]
            )
        if p.get("rna_on_axis", True):
            c = np.array([0.0, 0.0, c[2]])
        yaw.child = "rna"
        return [base, *split[:1], BodySpec("rna", m, c, I)], [*split[1:], yaw]
    bodies = [base, *split[:1], _nacelle_body(p)]
    joints = [*split[1:], yaw]
    if kind == "three_body":
        bodies.append(BodySpec("rotor", geo["rotor_mass"], geo["rotor_cm_h"], geo["rotor_inertia"]))
        joints.append(
            JointSpec(
                "spin", "nacelle", "rotor", geo["apex_n"], np.zeros(3), x, geo["R_s2n"], "spin"
            )
        )
        return bodies, joints
    r = p["rotor"]
    bodies.append(BodySpec("hub", float(r["hub_mass"]), np.zeros(3), geo["hub_inertia"]))
    joints.append(
        JointSpec("spin", "nacelle", "hub", geo["apex_n"], np.zeros(3), x, geo["R_s2n"], "spin")
    )
    for k, (R0, root) in enumerate(zip(geo["blade_R0"], geo["root_h"]), start=1):
        cm = np.array([0.0, 0.0, geo["blade_cm"]])
        bodies.append(BodySpec(f"blade{k}", float(r["blade_mass"]), cm, geo["blade_inertia"]))
        # pitch: j1 = cos(b) i1 - sin(b) i2 is a rotation by b about -i3 (ElastoDyn.f90:6164-6266)
        joints.append(
            JointSpec(f"pitch{k}", "hub", f"blade{k}", root, np.zeros(3), -z, R0, f"pitch{k}")
        )
    return bodies, joints


def build(
    kind: str,
    params: dict | None = None,
    *,
    yaw: Motion | None = None,
    spin: Motion | None = None,
    pitch: Motion | list[Motion] | None = None,
) -> tuple[list[Body], list[Joint]]:
    """Bodies and joints of topology ``kind`` with prescribed yaw, spin and blade pitch motions.

    For ``two_body`` a spin motion is rejected: the lumped RNA of Wang's ch. III has no separate
    spinning body in a tree; use ``three_body`` with the RNA CM on the tower axis instead (which
    reproduces the 2-body EOMs, Wang sec. IV.D.2).
    """
    bspecs, jspecs = layout(kind, params)
    if kind == "two_body" and spin is not None and not isinstance(spin, Locked):
        raise ValueError("two_body has no spinning body; use three_body for rotor spin")
    pitches = pitch if isinstance(pitch, (list, tuple)) else [pitch] * 3
    motions = {"yaw": yaw, "spin": spin}
    for k in range(3):
        motions[f"pitch{k + 1}"] = pitches[k]
    index = {b.name: i for i, b in enumerate(bspecs)}
    bodies = [Body(b.name, b.mass, b.cm, b.inertia) for b in bspecs]
    joints = [
        Joint(
            name=j.name,
            parent=index[j.parent],
            child=index[j.child],
            r_J_p=j.position_parent,
            r_J_c=j.position_child,
            axis=j.axis,
            R0_c2p=j.R0_c2p,
            rotation=motions.get(j.motion) or Locked(),
        )
        for j in jspecs
    ]
    return bodies, joints


def two_body(params: dict | None = None, *, yaw: Motion | None = None):
    """Tower + hull and lumped RNA yawing at the tower top (Wang ch. III)."""
    return build("two_body", params, yaw=yaw)


def three_body(
    params: dict | None = None, *, yaw: Motion | None = None, spin: Motion | None = None
):
    """Tower + hull, nacelle (yaw) and rotor (spin, CM off the tower axis) (Wang ch. IV)."""
    return build("three_body", params, yaw=yaw, spin=spin)


def six_body(
    params: dict | None = None,
    *,
    yaw: Motion | None = None,
    spin: Motion | None = None,
    pitch: Motion | list[Motion] | None = None,
):
    """Tower + hull, nacelle, hub and three blades with pitch joints (Wang sec. V.D)."""
    return build("six_body", params, yaw=yaw, spin=spin, pitch=pitch)
