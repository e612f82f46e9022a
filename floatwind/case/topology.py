"""Expansion of a case file's ``topology:`` section into explicit ``bodies:`` and ``joints:``.

Example (keys documented in docs/multibody.md)::

    topology:
      kind: three_body            # two_body | three_body | six_body
      platform: {mass: 5024000, cm: [0, 0, -63.7], inertia: [5.0e9, 5.0e9, 1.1e8]}
      tower: {mass: 249718, cm: [0, 0, 43.36], inertia: [1.19e8, 1.19e8, 1.0]}
      nacelle: {cm: [1.9, 0, 1.75]}
      yaw: {kind: constant_rate, rate_deg: 1.2}
      spin: {kind: constant_rate, rate_rpm: 12.1}
      pitch: {kind: locked, value_deg: 0}     # six_body; or a list of three motions
      yaw_drive: {kind: spring_damper, stiffness: 9.0e9, damping: 1.9e7}   # yaw as a DOF
      spin_drive: {kind: torque, torque: 0}   # the rotor as a DOF (yaw/spin: initial state)

Anything not given takes the OC3-Hywind / NREL 5-MW value of
:data:`floatwind.multibody.topologies.OC3_DEFAULTS`. Motions are passed through unchanged to the
loader's joint ``rotation`` (so they are validated there, with the joint's field path).
"""

from __future__ import annotations

import logging

import numpy as np

from floatwind.errors import CaseError
from floatwind.multibody import topologies as topo
from floatwind.rotation import euler123_from_matrix, euler123_matrix
from floatwind.validate import number, suggest

log = logging.getLogger(__name__)

TOPOLOGY_KEYS = {
    "kind",
    "platform",
    "tower",
    "tower_top",
    "tower_base",
    "nacelle",
    "rotor",
    "rna",
    "rna_on_axis",
    "small_inertia",
    "yaw",
    "spin",
    "pitch",
    "yaw_drive",
    "spin_drive",
}
PART_KEYS = {
    "platform": {"mass", "cm", "inertia"},
    "tower": {"mass", "cm", "inertia"},
    "rna": {"mass", "cm", "inertia"},
    "nacelle": {"mass", "cm", "inertia", "yaw_inertia"},
    "rotor": set(topo.OC3_DEFAULTS["rotor"]) | {"blade_axial_inertia"},
}
_POSITIVE = {"mass", "yaw_inertia", "hub_mass", "hub_inertia", "blade_mass", "hub_radius"}
_POSITIVE |= {"blade_first_moment", "blade_second_moment", "n_blades", "blade_axial_inertia"}


def _number(value, field: str, positive: bool = False) -> float:
    return number(value, field, positive=positive)


def _vector(value, field: str) -> list[float]:
    try:
        a = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise CaseError(f"expected 3 numbers, got {value!r}", field=field) from None
    if a.shape != (3,) or not np.all(np.isfinite(a)):
        raise CaseError(f"expected 3 finite numbers, got {value!r}", field=field)
    return a.tolist()


def _inertia(value, field: str) -> list:
    try:
        I = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise CaseError(f"expected 3 numbers or a 3x3 matrix, got {value!r}", field=field) from None
    if I.shape == (3,):
        I = np.diag(I)
    if I.shape != (3, 3) or not np.all(np.isfinite(I)):
        raise CaseError(f"expected 3 numbers or a 3x3 matrix, got {value!r}", field=field)
    if (
        not np.allclose(I, I.T, rtol=1e-9, atol=1e-9 * np.abs(I).max())
        or np.linalg.eigvalsh(I).min() <= 0
    ):
        raise CaseError("inertia must be symmetric positive definite", field=field)
    return I.tolist()


def _part(name: str, value) -> dict:
    field = f"topology.{name}"
    if not isinstance(value, dict):
        raise CaseError("expected a mapping", field=field)
    unknown = set(value) - PART_KEYS[name]
    if unknown:
        raise CaseError(
            f"unknown key '{min(unknown)}'{suggest(min(unknown), sorted(PART_KEYS[name]))}",
            field=f"{field}.{min(unknown)}",
        )
    out = {}
    for k, v in value.items():
        f = f"{field}.{k}"
        if k == "cm":
            out[k] = _vector(v, f)
        elif k == "inertia":
            out[k] = _inertia(v, f)
        else:
            out[k] = _number(v, f, positive=k in _POSITIVE)
    if name == "rna" and set(out) != {"mass", "cm", "inertia"}:
        raise CaseError("give mass, cm and inertia of the lumped RNA", field=field)
    return out


def topology_params(section: dict) -> dict:
    """Validated parameter dict (overrides of ``OC3_DEFAULTS``) from a ``topology:`` section."""
    params: dict = {}
    for name in PART_KEYS:
        if name == "tower" and name in section and section[name] is None:
            params[name] = None  # tower lumped into 'platform' (tower + hull as one set of numbers)
        elif name in section:
            params[name] = _part(name, section[name])
    if "tower_top" in section:
        params["tower_top"] = _number(section["tower_top"], "topology.tower_top")
    if section.get("tower_base") is not None:
        if section.get("tower", True) is None:
            raise CaseError("tower_base needs the tower's own mass properties (topology.tower)",
                            field="topology.tower_base")  # fmt: skip
        params["tower_base"] = _number(section["tower_base"], "topology.tower_base", True)
    if "small_inertia" in section:
        params["small_inertia"] = _number(section["small_inertia"], "topology.small_inertia", True)
    if "rna_on_axis" in section:
        if not isinstance(section["rna_on_axis"], bool):
            raise CaseError("expected true or false", field="topology.rna_on_axis")
        params["rna_on_axis"] = section["rna_on_axis"]
    return params


def expand_topology(data: dict) -> dict:
    """Return a copy of the case dict with ``topology`` replaced by ``bodies`` and ``joints``.

    Raises
    ------
    CaseError
        On a bad ``topology`` section (the field names the offending key).
    """
    section = data.get("topology")
    if not isinstance(section, dict):
        raise CaseError("expected a mapping with a 'kind'", field="topology")
    unknown = set(section) - TOPOLOGY_KEYS
    if unknown:
        raise CaseError(
            f"unknown key '{min(unknown)}'{suggest(min(unknown), sorted(TOPOLOGY_KEYS))}",
            field=f"topology.{min(unknown)}",
        )
    if "bodies" in data or "joints" in data:
        raise CaseError(
            "give either 'topology' or explicit 'bodies'/'joints', not both", field="topology"
        )
    kind = section.get("kind")
    if kind not in topo.KINDS:
        raise CaseError(
            f"unknown topology kind {kind!r}; known: {list(topo.KINDS)}", field="topology.kind"
        )
    if kind == "two_body" and section.get("spin") not in (None, 0, 0.0):
        raise CaseError(
            "two_body has no spinning body; use three_body (with the RNA CM on the tower axis it "
            "reproduces the 2-body model, Wang sec. IV.D.2)",
            field="topology.spin",
        )
    if kind != "six_body" and section.get("pitch") is not None:
        raise CaseError("blade pitch needs kind six_body", field="topology.pitch")
    params = topology_params(section)
    try:
        bspecs, jspecs = topo.layout(kind, params)
    except (ValueError, KeyError) as exc:
        raise CaseError(f"cannot build {kind}: {exc}", field="topology") from None
    pitch = section.get("pitch")
    if isinstance(pitch, list):
        if len(pitch) != 3:
            raise CaseError(
                f"expected one motion or a list of 3, got {len(pitch)}", field="topology.pitch"
            )
        pitches = pitch
    else:
        pitches = [pitch] * 3
    motions = {"yaw": section.get("yaw"), "spin": section.get("spin")}
    for k in range(3):
        motions[f"pitch{k + 1}"] = pitches[k]
    bodies = [
        {
            "name": b.name,
            "mass": float(b.mass),
            "cm": np.asarray(b.cm).tolist(),
            "inertia": np.asarray(b.inertia).tolist(),
        }
        for b in bspecs
    ]
    joints = []
    for j in jspecs:
        ang = euler123_from_matrix(j.R0_c2p)
        if not np.allclose(euler123_matrix(ang), j.R0_c2p, atol=1e-13):  # pragma: no cover
            raise CaseError(f"joint {j.name}: orientation is not representable", field="topology")
        item = {
            "name": j.name,
            "parent": j.parent,
            "child": j.child,
            "position_parent": np.asarray(j.position_parent).tolist(),
            "position_child": np.asarray(j.position_child).tolist(),
            "axis": np.asarray(j.axis).tolist(),
            "orientation": np.asarray(ang).tolist(),
        }
        if motions.get(j.motion) is not None:
            item["rotation"] = motions[j.motion]
        drive = section.get(f"{j.motion}_drive")
        if drive is not None and j.motion in ("yaw", "spin"):
            item["drive"] = drive  # a joint DOF (docs/multibody.md, "Joint DOFs")
        joints.append(item)
    out = {k: v for k, v in data.items() if k != "topology"}
    out["bodies"] = bodies
    out["joints"] = joints
    log.debug("topology %s expanded to %d bodies, %d joints", kind, len(bodies), len(joints))
    return out
