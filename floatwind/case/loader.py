"""Reading and validating case files (YAML) into :class:`floatwind.model.Model` objects.

Every problem raises :class:`floatwind.errors.CaseError` naming the file, the dotted field and the
reason. The format is documented key by key in ``docs/case_format.md``; :data:`SCHEMA` holds the
top-level keys with their units and defaults (``floatwind check`` prints them).
"""

from __future__ import annotations

import math
import pathlib
from typing import Any

import numpy as np

from floatwind.case.motions import motion_from_config
from floatwind.environment import Environment
from floatwind.environment.base import DEFAULT_GRAVITY, DEFAULT_RHO_WATER, DEFAULT_WATER_DEPTH
from floatwind.errors import CaseError
from floatwind.loads import registry
from floatwind.model import InitialConditions, Model, SimulationSettings
from floatwind.multibody.tree import Body, Joint, Tree
from floatwind.validate import Section, resolve_path, suggest

#: top-level keys: (units, default, meaning)
SCHEMA: dict[str, tuple[str, Any, str]] = {
    "name": ("-", "file stem", "case name"),
    "description": ("-", "", "free text"),
    "topology": (
        "-",
        None,
        "turbine topology built by a library function (see docs/case_format.md)",
    ),
    "bodies": ("-", "required", "list of rigid bodies: name, mass (kg), cm (m), inertia (kg m^2)"),
    "joints": ("-", [], "list of joints with prescribed rotation/slide"),
    "reference_point": ("m", [0, 0, 0], "platform reference point (PRP) in the base body frame"),
    "environment": ("-", "still water, no wind", "constants, waves and wind"),
    "loads": ("-", [], "list of loads, each with a 'type'"),
    "initial": (
        "m, rad, m/s, rad/s",
        "at rest",
        "initial reference-point displacement/angles/rates",
    ),
    "simulation": ("s", "t_max 600, dt 0.0125, dt_out 0.05, rk4", "run settings"),
    "formulation": ("-", "mcm", "equations of motion: mcm | euler313 (Wang ch. II, 2-body)"),
    "euler313": ("-", {}, "settings of formulation euler313 (docs/multibody.md)"),
    "flexible_tower": (
        "SI",
        None,
        "ElastoDyn tower bending modes as DOFs (docs/multibody.md, Flexible tower)",
    ),
}

BODY_KEYS = {"name", "mass", "cm", "inertia", "description"}
JOINT_KEYS = {
    "name",
    "parent",
    "child",
    "position_parent",
    "position_child",
    "axis",
    "orientation",
    "orientation_deg",
    "rotation",
    "slide",
    "drive",
    "gear",
}
#: the keys of each joint drive kind (docs/multibody.md, "Joint DOFs")
_INITIAL = {"initial", "initial_deg", "initial_rate", "initial_rate_deg", "initial_rate_rpm"}
DRIVE_KEYS = {
    "free": {"kind"} | _INITIAL,
    "spring_damper": {"kind", "stiffness", "damping"} | _INITIAL,
    "torque": {"kind", "torque", "rates", "torques", "rates_rpm"} | _INITIAL,
}
SIM_KEYS = {"t_max", "dt", "dt_out", "integrator", "rtol", "atol", "rho_inf", "bound", "bossak"}
BOSSAK_KEYS = {"alpha", "beta", "rotations", "aitken", "max_iter"}
INITIAL_KEYS = {
    "displacement",
    "angles",
    "angles_deg",
    "velocity",
    "rates",
    "rates_deg",
}
INTEGRATORS = ("rk4", "dop853", "rk45", "lie_generalized_alpha", "bossak_newmark")


def _inertia(value: Any, field: str) -> np.ndarray:
    if isinstance(value, dict):
        sec = Section(value, field, {"xx", "yy", "zz", "xy", "xz", "yz"})
        xx, yy, zz = (sec.number(k, kind="positive") for k in ("xx", "yy", "zz"))
        xy, xz, yz = (sec.number(k, 0.0) for k in ("xy", "xz", "yz"))
        I = np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
    else:
        try:
            I = np.asarray(value, dtype=float)
        except (TypeError, ValueError):
            raise CaseError(
                f"expected 3 numbers or a 3x3 matrix, got {value!r}", field=field
            ) from None
        if I.shape == (3,):
            I = np.diag(I)
        if I.shape != (3, 3):
            raise CaseError(f"expected 3 numbers or a 3x3 matrix, got shape {I.shape}", field=field)
    if not np.all(np.isfinite(I)):
        raise CaseError("inertia must be finite", field=field)
    if not np.allclose(I, I.T, rtol=1e-9, atol=1e-9 * np.abs(I).max()):
        raise CaseError("inertia matrix must be symmetric", field=field)
    ev = np.linalg.eigvalsh(I)
    if ev.min() <= 0:
        raise CaseError(
            f"inertia is not positive definite (eigenvalues {ev.min():.4g} .. {ev.max():.4g})",
            field=field,
        )
    return I


def _body(data: Any, field: str) -> Body:
    sec = Section(data, field, BODY_KEYS)
    name = sec.raw("name")
    if not isinstance(name, str) or not name:
        raise CaseError("body name must be a non-empty string", field=sec.path("name"))
    mass = sec.number("mass", kind="positive")
    cm = sec.vector("cm", [0.0, 0.0, 0.0])
    I = _inertia(sec.raw("inertia"), sec.path("inertia"))
    return Body(name=name, mass=mass, cm_b=cm, inertia_b=I)


def _rotation_from_cfg(sec: Section) -> np.ndarray:
    """Joint orientation offset: 1-2-3 Euler angles (rad or deg) of the child frame in the parent."""
    from floatwind.rotation import euler123_matrix

    if sec.has("orientation_deg"):
        return euler123_matrix(np.radians(sec.vector("orientation_deg")))
    return euler123_matrix(sec.vector("orientation", [0.0, 0.0, 0.0]))


def _drive(data: Any, field: str):
    """A joint drive (``multibody.drives``): ``{kind: free}``, ``{kind: spring_damper,
    stiffness: N m/rad, damping: N m s/rad}`` (toward the joint's ``rotation`` motion) or
    ``{kind: torque, torque: N m, rates (rad/s) | rates_rpm: [...], torques: [...]}``."""
    from floatwind.multibody import drives

    if data is None:
        return None
    kind, sec = Section.tagged(data, field, DRIVE_KEYS)
    initial = None
    if any(sec.has(k) for k in _INITIAL):  # (angle, rate) at t = 0 instead of the motion's
        if sec.has("initial_rate_deg") and sec.has("initial_rate_rpm"):
            raise sec.error("give one of 'initial_rate', 'initial_rate_deg', 'initial_rate_rpm'",
                            "initial_rate_rpm")  # fmt: skip
        rate = (
            sec.speed("initial_rate", 0.0)
            if sec.has("initial_rate_rpm")
            else sec.angle("initial_rate", 0.0)
        )
        initial = (sec.angle("initial", 0.0), rate)
    try:
        if kind == "free":
            return drives.FreeDrive(initial)
        if kind == "spring_damper":
            return drives.SpringDamperDrive(
                sec.number("stiffness", 0.0, kind="nonnegative"),
                sec.number("damping", 0.0, kind="nonnegative"),
                initial,
            )
        rates = ()
        if sec.has("rates") or sec.has("rates_rpm"):
            if sec.has("rates") and sec.has("rates_rpm"):
                raise sec.error("give either 'rates' or 'rates_rpm', not both", "rates_rpm")
            key = "rates" if sec.has("rates") else "rates_rpm"
            scale = 1.0 if key == "rates" else math.pi / 30.0
            rates = tuple(v * scale for v in sec.numbers(key))
            torques = tuple(sec.numbers("torques"))
        elif sec.has("torques"):
            raise sec.error("a torque table needs 'rates' (rad/s) or 'rates_rpm'", "torques")
        else:
            torques = ()
            if not sec.has("torque"):
                raise sec.error("give 'torque' (N m) and/or a table ('rates', 'torques')", "torque")
        return drives.TorqueDrive(sec.number("torque", 0.0), rates, torques, initial)
    except ValueError as exc:
        if isinstance(exc, CaseError):
            raise
        raise CaseError(str(exc), field=field) from None


def _gear(data: Any, field: str):
    """``gear: {leader: JOINT, ratio: r, offset: rad}``: the angle follows a free joint."""
    from floatwind.multibody import drives

    if data is None:
        return None
    sec = Section(data, field, {"leader", "ratio", "offset", "offset_deg"})
    leader = sec.raw("leader")
    if not isinstance(leader, str):
        raise sec.error(f"expected the name of a joint with a drive, got {leader!r}", "leader")
    try:
        return drives.Gear(leader, sec.number("ratio"), sec.angle("offset", 0.0))
    except ValueError as exc:
        raise CaseError(str(exc), field=sec.path("ratio")) from None


def _joint(data: Any, field: str, index: dict[str, int], base_dir) -> Joint:
    sec = Section(data, field, JOINT_KEYS)
    name = str(sec.raw("name"))
    parent = sec.body(index, "parent")
    child = sec.body(index, "child")
    if child == 0:
        raise CaseError(
            "the base body (the first body) cannot be a joint's child", field=sec.path("child")
        )
    try:
        return Joint(
            name=name,
            parent=parent,
            child=child,
            r_J_p=sec.vector("position_parent"),
            r_J_c=sec.vector("position_child", [0.0, 0.0, 0.0]),
            axis=sec.vector("axis", [0.0, 0.0, 1.0]),
            R0_c2p=_rotation_from_cfg(sec),
            rotation=motion_from_config(sec.raw("rotation", None), sec.path("rotation"), base_dir, True),
            slide=motion_from_config(sec.raw("slide", None), sec.path("slide"), base_dir, False),
            drive=_drive(sec.raw("drive", None), sec.path("drive")),
            gear=_gear(sec.raw("gear", None), sec.path("gear")),
        )
    except ValueError as exc:
        if isinstance(exc, CaseError):
            raise
        raise CaseError(str(exc), field=field) from None


def _batched(sec: Section, key: str, deg: bool = False) -> np.ndarray | None:
    """A 3-vector or a list of 3-vectors (one per batch member) -> (B, 3)."""
    for k, scale in ((key, 1.0), (f"{key}_deg", math.pi / 180)):
        if not sec.has(k):
            continue
        if k != key and not deg:
            continue
        try:
            a = np.asarray(sec.raw(k), dtype=float)
        except (TypeError, ValueError):
            raise CaseError(
                f"expected 3 numbers or a list of 3-number rows, got {sec.raw(k)!r}",
                field=sec.path(k),
            ) from None
        if a.ndim == 1:
            a = a[None]
        if a.ndim != 2 or a.shape[1] != 3 or not np.all(np.isfinite(a)):
            raise CaseError(
                f"expected 3 numbers or a list of 3-number rows, got shape {a.shape}",
                field=sec.path(k),
            )
        if sec.has(key) and sec.has(f"{key}_deg") and deg:
            raise CaseError(f"give either '{key}' or '{key}_deg', not both", field=sec.path(k))
        return a * scale
    return None


def _initial(data: Any) -> InitialConditions:
    sec = Section(data or {}, "initial", INITIAL_KEYS)
    ic = InitialConditions()
    for key, deg in (
        ("displacement", False),
        ("angles", True),
        ("velocity", False),
        ("rates", True),
    ):
        val = _batched(sec, key, deg)
        if val is not None:
            setattr(ic, key, val)
    sizes = {getattr(ic, k).shape[0] for k in ("displacement", "angles", "velocity", "rates")}
    if len(sizes - {1}) > 1:
        raise CaseError(
            f"batched initial conditions must have equal lengths, got {sorted(sizes)}",
            field="initial",
        )
    from floatwind.rotation import EULER_PITCH_GUARD

    if np.any(np.abs(ic.angles[:, 1]) >= EULER_PITCH_GUARD):
        raise CaseError(
            f"initial pitch must lie within +-{np.degrees(EULER_PITCH_GUARD):g} deg: 1-2-3 Euler "
            "angles are singular at +-90 deg",
            field="initial.angles",
        )
    return ic


def _settings(data: Any) -> SimulationSettings:
    sec = Section(data or {}, "simulation", SIM_KEYS)
    s = SimulationSettings()
    s.t_max = sec.number("t_max", s.t_max, kind="positive")
    s.dt = sec.number("dt", s.dt, kind="positive")
    s.dt_out = sec.number("dt_out", s.dt_out, kind="positive")
    s.integrator = sec.choice("integrator", INTEGRATORS, s.integrator)
    s.rtol = sec.number("rtol", s.rtol, kind="positive")
    s.atol = sec.number("atol", s.atol, kind="positive")
    s.rho_inf = sec.number("rho_inf", s.rho_inf, kind="nonnegative")
    if s.rho_inf > 1:
        raise CaseError(f"must be in [0, 1], got {s.rho_inf:g}", field="simulation.rho_inf")
    s.bound = sec.number("bound", s.bound, kind="positive")
    if sec.has("bossak"):
        _bossak_settings(Section(sec.raw("bossak"), "simulation.bossak", BOSSAK_KEYS), s)
    if s.dt > s.t_max:
        raise CaseError(f"dt = {s.dt:g} s exceeds t_max = {s.t_max:g} s", field="simulation.dt")
    return s


def _bossak_settings(sec: Section, s: SimulationSettings) -> None:
    """``simulation.bossak``: alpha in [-0.1, 0], beta rule, rotations, Aitken (docs/bossak.md)."""
    s.bossak_alpha = sec.number("alpha", s.bossak_alpha)
    if not -0.1 <= s.bossak_alpha <= 0.0:
        raise CaseError(f"must lie in [-0.1, 0], got {s.bossak_alpha:g}", field=sec.path("alpha"))
    s.bossak_beta = sec.choice("beta", ("seafem", "textbook"), s.bossak_beta)
    s.bossak_rotations = sec.choice("rotations", ("small", "large"), s.bossak_rotations)
    s.bossak_aitken = sec.boolean("aitken", s.bossak_aitken)
    n = sec.number("max_iter", s.bossak_max_iter, kind="positive")
    if n != int(n):
        raise CaseError(f"must be a positive integer, got {n!r}", field=sec.path("max_iter"))
    s.bossak_max_iter = int(n)


# ---------------------------------------------------------------- loads


BEM_KEYS = {"panels", "lid", "frequencies", "headings_deg", "water_depth", "mesh"}


def _bem_to_wamit(data: dict, items: list, field: str, base_dir, env: dict) -> dict:
    """A potential-flow load's ``bem: {...}``: the coefficients of the case's hull (its
    hydrostatics profile, or ``mesh``) computed with Capytaine (floatwind.bem, cached by the
    hull's fingerprint: the first load of the case solves, later ones read the cache), written
    once as WAMIT files in the cache; the load then reads them as with ``wamit:``."""
    import math

    from floatwind import bem

    if "wamit" in data:
        raise CaseError("give either 'wamit' (files) or 'bem' (a hull), not both",
                        field=f"{field}.bem")  # fmt: skip
    sec = Section(data["bem"] if data["bem"] is not None else {}, f"{field}.bem", BEM_KEYS)
    panels = int(sec.number("panels", 1600, kind="positive"))
    lid = bool(sec.raw("lid", True))
    omega = [float(x) for x in sec.raw("frequencies", list(bem.DEFAULT_OMEGA))]
    heads = [float(x) for x in sec.raw("headings_deg", list(bem.DEFAULT_HEADINGS_DEG))]
    depth = sec.raw("water_depth", "inf")
    depth = math.inf if depth == "inf" else float(env.get("water_depth", DEFAULT_WATER_DEPTH)) \
        if depth == "case" else sec.number("water_depth", kind="positive")  # fmt: skip
    rho = float(env.get("rho_water", DEFAULT_RHO_WATER))
    g = float(env.get("gravity", DEFAULT_GRAVITY))
    if sec.has("mesh"):
        mesh = resolve_path(sec.raw("mesh"), sec.path("mesh"), base_dir)
        hull = bem.load_hull(mesh, lid=lid)
    else:
        from floatwind.loads.hydrostatics import Hydrostatics

        hyd = next((ld for ld in items if isinstance(ld, dict)
                    and ld.get("type") == Hydrostatics.kind), None)  # fmt: skip
        if hyd is None:
            raise CaseError("'bem' needs the hull: a hydrostatics load with its axisymmetric "
                            "members in the case, or 'mesh'", field=f"{field}.bem")  # fmt: skip
        from floatwind.bem.hull import hull_from_profile, profile_from_members

        prof = profile_from_members(hyd.get("members"), f"{field}.bem (hydrostatics members)")
        hull = hull_from_profile(prof, panels=panels, lid=lid, name="hull", field=f"{field}.bem")
    ds = bem.compute_coefficients(hull, omega=omega, headings_deg=heads, water_depth=depth,
                                  rho=rho, g=g)  # fmt: skip
    # the files are the dataset's: named by its fingerprint (the whole mesh with its lid, the
    # frequencies, headings, depth, rho, g and the Capytaine version)
    key = str(ds.attrs["fingerprint"])[:16]
    root = bem.default_cache_dir() / "wamit" / key / "hull"
    if not all(root.with_suffix(ext).is_file() for ext in (".1", ".3", ".hst")):
        root.parent.mkdir(parents=True, exist_ok=True)
        bem.write_wamit(ds, root)
    out = {k: v for k, v in data.items() if k != "bem"}
    out["wamit"] = str(root)
    return out


def _loads(items: list, index: dict[str, int], tree: Tree, base_dir, env: dict | None = None) -> list:
    env = env or {}
    if items is None:
        return []
    if not isinstance(items, list):
        raise CaseError("expected a list of loads", field="loads")
    kinds = registry.kinds()
    out = []
    for i, data in enumerate(items):
        field = f"loads[{i}]"
        if not isinstance(data, dict):
            raise CaseError("each load must be a mapping with a 'type'", field=field)
        kind = data.get("type")
        if kind is None:
            raise CaseError("required key is missing", field=f"{field}.type")
        if kind not in kinds:
            raise CaseError(
                f"unknown load type {kind!r}{suggest(str(kind), kinds)}; known: {kinds}",
                field=f"{field}.type",
            )
        cls = registry.load_class(kind)
        if cls.reads_wamit and "bem" in data:
            data = _bem_to_wamit(data, items, field, base_dir, env)
        out.append(
            cls.from_config(data, body_index=index, field=field, base_dir=base_dir, tree=tree)
        )
    seen: dict[str, int] = {}
    for i, load in enumerate(out):
        if load.name in seen:
            raise CaseError(
                f"load name {load.name!r} is already used by loads[{seen[load.name]}]; give each "
                "load of the same type its own 'name' (output channels are named after it)",
                field=f"loads[{i}].name",
            )
        seen[load.name] = i
    return out


def _environment(data: Any, batch: int, duration: float, dt: float, base_dir, file) -> Environment:
    from floatwind.environment.config import build_environment

    return build_environment(
        data, n_realizations=batch, duration=duration, dt_hint=dt, base_dir=base_dir, file=file
    )


TOP_KEYS = set(SCHEMA)


def model_from_dict(
    data: Any,
    *,
    base_dir: pathlib.Path | None = None,
    name: str = "case",
    source: str = "",
    text: str = "",
) -> Model:
    """Build a :class:`Model` from a parsed case dict (errors name fields, not the file)."""
    top = Section(data, "", TOP_KEYS)
    if top.has("topology"):
        from floatwind.case.topology import expand_topology

        data = expand_topology(dict(data))
        top = Section(data, "", TOP_KEYS)
    bodies_cfg = top.items("bodies")
    bodies = [_body(item, f) for f, item in bodies_cfg]
    names = [b.name for b in bodies]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise CaseError(f"duplicate body names {sorted(dup)}", field="bodies")
    index = {b.name: i for i, b in enumerate(bodies)}
    joints = [_joint(item, f, index, base_dir) for f, item in top.items("joints", required=False)]
    try:
        tree = Tree(bodies, joints)
    except ValueError as exc:
        raise CaseError(str(exc), field="joints") from None
    settings = _settings(top.raw("simulation", None))
    initial = _initial(top.raw("initial", None))
    from floatwind.case.budget import check_run_memory

    check_run_memory(settings, initial.batch, top.raw("environment", None))
    env = _environment(
        top.raw("environment", None), initial.batch, settings.t_max, settings.dt, base_dir, source
    )
    env_data = top.raw("environment", {}) or {}
    loads = _loads(top.raw("loads", []), index, tree, base_dir,
                   env_data if isinstance(env_data, dict) else {})  # fmt: skip
    desc = top.raw("description", "")
    model = Model(
        name=str(top.raw("name", name)),
        tree=tree,
        loads=loads,
        env=env,
        initial=initial,
        settings=settings,
        ref_point_b=top.vector("reference_point", [0.0, 0.0, 0.0]),
        ref_point0_g=top.vector("reference_point", [0.0, 0.0, 0.0]),
        description=str(desc).strip(),
        source=source,
        source_text=text,
    )
    if top.has("flexible_tower"):
        from floatwind.multibody.flex_tower import tower_from_dict

        try:
            model.tower, model.tower_top_b = tower_from_dict(top.raw("flexible_tower"))
        except ValueError as exc:
            raise CaseError(str(exc), field="flexible_tower") from None
    from floatwind.case.euler313 import FORMULATIONS, build

    if top.choice("formulation", FORMULATIONS, "mcm") == "euler313":
        build(model, top.raw("euler313", None), base_dir)
    elif top.has("euler313"):
        raise CaseError("only read with 'formulation: euler313'", field="euler313")
    return model


def load_case(path: str | pathlib.Path, overrides: dict | None = None) -> Model:
    """Read, validate and build the model of a YAML case file.

    ``overrides`` maps dotted keys (``simulation.t_max``) to values applied before validation.

    Raises
    ------
    CaseError
        Naming the file, the field and the reason.
    """
    path = pathlib.Path(path)
    if not path.is_file():
        raise CaseError("case file not found", file=str(path))
    from floatwind.io.safe import load_yaml, read_text

    text = read_text(path)
    data = load_yaml(text, file=str(path))
    if not isinstance(data, dict):
        raise CaseError("a case file must be a YAML mapping of keys", file=str(path))
    for key, val in (overrides or {}).items():
        d = data
        parts = key.split(".")
        for p in parts[:-1]:
            d = d.setdefault(p, {})
        d[parts[-1]] = val
    try:
        return model_from_dict(
            data, base_dir=path.parent, name=path.stem, source=str(path), text=text
        )
    except CaseError as exc:
        raise exc.with_file(str(path)) from None
