"""MAP++ and MoorDyn input files read into floatwind's quasi-static ``mooring_catenary`` load
(MoorDyn files run MoorDyn's lumped-mass lines by default: :mod:`floatwind.case.openfast.moordyn`;
this reading is ``--mooring quasi-static``).

* MAP++ (``CompMooring = 1``): sections LINE DICTIONARY (``LineType Diam MassDenInAir EA CB
  CIntDamp Ca Cdn Cdt``), NODE PROPERTIES (``ID Attachment X Y Z M B FX FY FZ``; ``Z = depth``
  is the seabed), LINE PROPERTIES (``ID LineType UnstrLen NodeAnch NodeFair Flags``) and SOLVER
  OPTIONS (``repeat a1 a2 ..`` copies the lines rotated about z by the angles in degrees, as
  MAP++ ``mapinit.c``; numerical options of MAP++'s own solver are not needed by floatwind's
  line solver and are noted). The damping, added-mass and drag columns are not used by a
  quasi-static model (MAP++ ignores them too).
* MoorDyn v1 (LINE TYPES / CONNECTION PROPERTIES / LINE PROPERTIES / SOLVER OPTIONS) and v2
  (LINE TYPES / POINTS / LINES / OPTIONS), ``CompMooring = 3``: the file is read by the one
  MoorDyn reader (:mod:`floatwind.case.openfast.moordyn_file`, which the lumped-mass lines use
  too) and its line types, fixed and vessel points and lines go into the same quasi-static model; MoorDyn's lumped-mass
  dynamics (line inertia, drag, internal damping) are not represented, and the importer says so
  in one line (a note). Seabed friction: MoorDyn has none in the quasi-static sense (0).

A line runs between two of: a fixed point (anchor), a vessel point (fairlead) and a free point
(MAP++ ``connect`` node, MoorDyn ``Free``/``Connect`` point): free points become the load's
connect nodes (multi-segment lines, clump weights with their mass, buoys with their displaced
volume, bridles, delta connections), solved for static equilibrium at every evaluation; their
given position is the start of that solve. A line between two fixed or two vessel points is
refused in one line, as is a free point whose mass or buoyancy MAP++ would solve for (``#`` on
M or B). Every error is a :class:`floatwind.errors.CaseError` naming the file and the field
(``section row column``).
"""

from __future__ import annotations

import math
import pathlib
from typing import Any, NamedTuple

import numpy as np

from floatwind.case.openfast.moordyn_file import read_moordyn_file
from floatwind.case.openfast.mooring_tables import _data_rows, _find, _num, _read_text, _sections
from floatwind.case.openfast.reader import _vec, read_openfast_input
from floatwind.case.openfast.settings import Ctx, FileKind, I, M, N, R, same, show
from floatwind.environment.base import DEFAULT_WATER_DEPTH
from floatwind.errors import CaseError
from floatwind.validate import suggest

__all__ = [
    "FILE_KIND",
    "MooringInput",
    "catenary_load",
    "read_map",
    "read_moordyn",
    "read_mooring_file",
]


class MooringInput(NamedTuple):
    """What a MAP++ or MoorDyn file holds for the ``mooring_catenary`` load."""

    lines: list[dict]  # the load's ``lines`` (fairleads in the vessel frame, anchors inertial)
    connects: list[dict]  # the load's ``connects`` (free points; may be empty)
    notes: list[str]  # one-line notes on what was not needed or is approximated


#: attachment kinds in the order of a line's ends: the lower-ranked end is the A (anchor) end
_RANK = {"fix": 0, "connect": 1, "vessel": 2}


def _end(node: tuple[str, str, np.ndarray]):
    kind, name, xyz = node
    return name if kind == "connect" else [float(v) for v in xyz]


def _line_ends(a, b, file: str, field: str, what: str):
    """(anchor, fairlead) of a line between the nodes ``a`` and ``b`` ((kind, name, xyz))."""
    if a[0] == b[0] and a[0] != "connect":
        raise CaseError(
            f"a line must not join two {a[0]} {what}s ({a[1]} and {b[1]})", field=field, file=file
        )
    if a[1] == b[1]:
        raise CaseError(f"both ends of the line are {what} {a[1]}", field=field, file=file)
    lo, hi = (a, b) if _RANK[a[0]] <= _RANK[b[0]] else (b, a)
    return _end(lo), _end(hi)


def _connect(name: str, xyz, mass: float, volume: float, force, file: str, field: str) -> dict:
    for v, what in ((mass, "mass"), (volume, "volume")):
        if v < 0.0:
            raise CaseError(f"{what} must be >= 0, got {v:g}", field=f"{field} ({what})", file=file)
    return {
        "name": name,
        "position": [float(v) for v in xyz],
        "mass": float(mass),
        "volume": float(volume),
        "force": [float(v) for v in force],
    }


def _line_config(
    lt: dict, length: float, anchor, fairlead, file: str, field: str
) -> dict[str, Any]:
    if length <= 0.0:
        raise CaseError(f"unstretched length must be > 0, got {length:g} m", field=field, file=file)
    return {
        "fairlead": fairlead,
        "anchor": anchor,
        "length": float(length),
        "mass_per_length": lt["mass"],
        "diameter": lt["diam"],
        "ea": lt["ea"],
        "seabed_friction": lt["cb"],
    }


def _line_type(toks, n, file, section, cols: dict[str, int], cb_col: int | None):
    name = toks[0]
    need = max(list(cols.values()) + ([cb_col] if cb_col is not None else [])) + 1
    if len(toks) < need:
        raise CaseError(
            f"line type {name!r} has {len(toks)} columns, expected at least {need}",
            field=f"{section} line {n}",
            file=file,
        )
    lt = {key: _num(toks[c], file, f"{section} line {n} ({key})") for key, c in cols.items()}
    lt["cb"] = 0.0 if cb_col is None else _num(toks[cb_col], file, f"{section} line {n} (CB)")
    for key, what in (("diam", "Diam"), ("mass", "MassDen"), ("ea", "EA")):
        if lt[key] <= 0.0:
            raise CaseError(
                f"{what} of line type {name!r} must be > 0, got {lt[key]:g}",
                field=f"{section} line {n} ({what})",
                file=file,
            )
    if lt["cb"] < 0.0:
        raise CaseError(
            f"CB of line type {name!r} must be >= 0, got {lt['cb']:g}",
            field=f"{section} line {n} (CB)",
            file=file,
        )
    return name, lt


#: MAP++ line flags that only choose outputs (MAP++ User's Guide, "Line properties";
#: mapinit.c set_line_option_flags): read, nothing to do for floatwind
_MAP_OUTPUT_FLAGS = ("plot", "gx_pos", "gy_pos", "gz_pos", "gx_a_pos", "gy_a_pos", "gz_a_pos",
                     "gx_force", "gy_force", "gz_force", "h_fair", "h_anch", "v_fair", "v_anch",
                     "tension_fair", "tension_anch", "x_excursion", "z_excursion", "azimuth",
                     "altitude", "altitude_anch", "line_tension", "lay_length", "diagnostic")  # fmt: skip
#: MAP++ line flags that change the line's physics: not built, refused rather than dropped
_MAP_MODEL_FLAGS = {
    "omit_contact": "MAP++'s omit_contact (the line ignores the seabed) is not built: floatwind's "
    "catenary always rests on the seabed it reaches",
    "linear_spring": "MAP++'s linear_spring line model is not built (elastic catenary only)",
    "damage_time": "MAP++'s damage_time (a line that breaks during the run) is not built",
}


def _map_flags(flags: list[str], file: str, field: str) -> None:
    """Refuse a MAP++ line flag that changes the physics or that MAP++ does not define;
    ``seg_size N`` (segments of MAP++'s plots) and the output flags are read."""
    k = 0
    while k < len(flags):
        low = flags[k].lower()
        if low in _MAP_MODEL_FLAGS:
            raise CaseError(_MAP_MODEL_FLAGS[low], field=field, file=file)
        if low == "seg_size":
            k += 2  # its number of plot segments
            continue
        if low not in _MAP_OUTPUT_FLAGS:
            known = [*_MAP_OUTPUT_FLAGS, "seg_size", *_MAP_MODEL_FLAGS]
            raise CaseError(f"unknown MAP++ line flag {flags[k]!r}{suggest(low, known)}",
                            field=field, file=file)  # fmt: skip
        k += 1


def read_map(path: str | pathlib.Path, *, depth: float) -> MooringInput:
    """Lines and connect nodes of a MAP++ input file as ``mooring_catenary`` mappings, and notes.

    Parameters
    ----------
    path : MAP++ input file.
    depth : water depth (m), for ``Z = depth`` nodes.
    """
    path = pathlib.Path(path)
    file = str(path)
    secs = _sections(_read_text(path))
    notes: list[str] = []
    types: dict[str, dict] = {}
    for n, toks in _data_rows(_find(secs, ("LINE DICTIONARY",), file), 1):
        name, lt = _line_type(
            toks, n, file, "LINE DICTIONARY", {"diam": 1, "mass": 2, "ea": 3}, cb_col=4
        )
        types[name] = lt
    nodes: dict[str, tuple[str, str, np.ndarray]] = {}
    connects: list[dict] = []
    for n, toks in _data_rows(_find(secs, ("NODE PROPERTIES",), file), 2):
        fld = f"NODE PROPERTIES line {n}"
        if len(toks) < 5:
            raise CaseError("a node needs ID, Attachment, X, Y, Z", field=fld, file=file)
        kind = toks[1].lower()
        if kind not in ("fix", "vessel", "connect"):
            raise CaseError(
                f"unknown node attachment {toks[1]!r} (fix, vessel or connect)",
                field=f"{fld} (Attachment)",
                file=file,
            )
        # '#' marks a value MAP++ iterates on: for a connect node's X, Y, Z the given value is
        # the start of the node's equilibrium solve, as in floatwind
        xyz = np.array(
            [_num(t.lstrip("#") if kind == "connect" else t, file, f"{fld} ({c})", depth=depth)
             for t, c in zip(toks[2:5], "XYZ")]
        )  # fmt: skip
        if kind == "fix" and xyz[2] < -depth - 1e-3:
            raise CaseError(
                f"fix node z = {xyz[2]:g} m lies below the seabed (depth {depth:g} m)",
                field=f"{fld} (Z)",
                file=file,
            )
        if toks[0] in nodes:
            raise CaseError(f"node {toks[0]!r} is defined twice", field=f"{fld} (ID)", file=file)
        nodes[toks[0]] = (kind, toks[0], xyz)
        if kind == "connect":
            vals = []
            for col, c in zip(range(5, 10), ("M", "B", "FX", "FY", "FZ")):
                tok = toks[col] if len(toks) > col else "0"
                if tok.startswith("#"):
                    raise CaseError(
                        f"{c} = {tok!r} asks MAP++ to solve for it; floatwind solves a connect "
                        "node's position for given mass, buoyancy and force",
                        field=f"{fld} ({c})",
                        file=file,
                    )
                vals.append(_num(tok, file, f"{fld} ({c})"))
            connects.append(_connect(toks[0], xyz, vals[0], vals[1], vals[2:], file, fld))
    lines: list[dict] = []
    for n, toks in _data_rows(_find(secs, ("LINE PROPERTIES",), file), 2):
        fld = f"LINE PROPERTIES line {n}"
        if len(toks) < 5:
            raise CaseError(
                "a line needs ID, LineType, UnstrLen, NodeAnch, NodeFair", field=fld, file=file
            )
        if toks[1] not in types:
            raise CaseError(
                f"line type {toks[1]!r} is not in the LINE DICTIONARY ({sorted(types)})",
                field=f"{fld} (LineType)",
                file=file,
            )
        length = _num(toks[2], file, f"{fld} (UnstrLen)")
        ends = []
        for tok, what in ((toks[3], "NodeAnch"), (toks[4], "NodeFair")):
            if tok not in nodes:
                raise CaseError(f"node {tok!r} is not defined", field=f"{fld} ({what})", file=file)
            ends.append(nodes[tok])
        anchor, fair = _line_ends(ends[0], ends[1], file, fld, "node")
        _map_flags(toks[5:], file, f"{fld} (Flags)")
        lines.append(_line_config(types[toks[1]], length, anchor, fair, file, f"{fld} (UnstrLen)"))
    if not lines:
        raise CaseError("no lines defined", field="LINE PROPERTIES", file=file)
    for n, toks in _find(secs, ("SOLVER OPTIONS",), file, required=False):
        key = toks[0].lower()
        if key == "option" or key.startswith("("):
            continue
        if key == "repeat":
            angles = [_num(t, file, f"SOLVER OPTIONS line {n} (repeat)") for t in toks[1:]]
            base = list(lines)
            base_nodes = list(connects)
            for r, ang in enumerate(angles, start=1):
                # MAP++ mapinit.c: the copy is rotated by -angle about z and its node
                # coordinates are kept to 4 decimals (ref06 README: repeat 240 puts line 2 at
                # (-426.9350, 739.4731)); copied connect nodes get new names
                c, s = math.cos(math.radians(ang)), math.sin(math.radians(ang))

                def rot(xyz, c=c, s=s):
                    x, y, z = xyz
                    return [round(c * x + s * y, 4), round(-s * x + c * y, 4), z]

                def rename(end, r=r):
                    return f"{end}.r{r}" if isinstance(end, str) else end

                for ln in base:
                    new = dict(ln)
                    for k in ("fairlead", "anchor"):
                        new[k] = rename(ln[k]) if isinstance(ln[k], str) else rot(ln[k])
                    lines.append(new)
                for nd in base_nodes:
                    new = dict(nd)
                    new["name"] = rename(nd["name"])
                    new["position"] = rot(nd["position"])
                    new["force"] = rot(nd["force"])
                    connects.append(new)
        elif key not in _SETTINGS["MAP"]:  # a misspelled option must not pass as "not needed"
            raise CaseError(
                f"unknown MAP++ solver option {toks[0]!r}{suggest(key, list(_SETTINGS['MAP']))}",
                field=f"SOLVER OPTIONS line {n}", file=file,
            )  # fmt: skip
        else:
            notes.append(
                f"{path.name}: MAP++ solver option {toks[0]!r} not needed by floatwind's line "
                "solver (ignored)"
            )
    return MooringInput(lines, connects, notes)


def read_moordyn(path: str | pathlib.Path, *, depth: float) -> MooringInput:
    """Lines and free points of a MoorDyn v1 or v2 input file as ``mooring_catenary`` mappings,
    and notes (the first says that MoorDyn's dynamics are replaced by the quasi-static
    catenary). The file is read by the one MoorDyn reader
    (:func:`floatwind.case.openfast.moordyn_file.read_moordyn_file`, which the lumped-mass lines
    use too); free points (v2 ``Free``, v1 ``Connect``) become connect nodes with their mass and
    volume (v1: and the applied force FX FY FZ)."""
    md = read_moordyn_file(path, depth=depth)
    file = md.file
    notes = [
        f"{pathlib.Path(file).name}: MoorDyn lines read into floatwind's quasi-static catenary "
        "(line inertia, drag and internal damping of MoorDyn's lumped-mass model are not "
        "represented)",
        *md.notes,
    ]
    rank = {"fixed": "fix", "coupled": "vessel", "free": "connect"}
    points: dict[str, tuple[str, str, np.ndarray]] = {}
    connects: list[dict] = []
    for p in md.points:
        kind = rank[p["kind"]]
        points[p["name"]] = (kind, p["name"], np.asarray(p["position"], float))
        if kind == "connect":
            fld = f"{md.point_section} line {p['_line']}"
            connects.append(
                _connect(p["name"], p["position"], p["mass"], p["volume"], p["force"], file, fld)
            )
    lines: list[dict] = []
    for ln in md.lines:
        fld = f"LINES line {ln['_line']}"
        t = md.line_types[ln["type"]]
        lt = {"diam": t["diameter"], "mass": t["mass_per_length"], "ea": t["ea"], "cb": 0.0}
        anchor, fair = _line_ends(points[ln["end_a"]], points[ln["end_b"]], file, fld, "point")
        lines.append(_line_config(lt, ln["length"], anchor, fair, file, f"{fld} (UnstrLen)"))
    return MooringInput(lines, connects, notes)


def read_mooring_file(path, *, kind: str, depth: float) -> MooringInput:
    """``kind`` = "map" or "moordyn": :func:`read_map` / :func:`read_moordyn`."""
    if kind == "map":
        return read_map(path, depth=depth)
    if kind == "moordyn":
        return read_moordyn(path, depth=depth)
    raise ValueError(kind)


# ------------------------------------------------------------------------------------ the case


def catenary_load(moor: dict, env: dict, ref: np.ndarray, notes: list[str]) -> dict:
    """The ``mooring_catenary`` load of the deck's mooring file (``deck["Mooring"]``); ``ref``
    is the platform reference point (MAP++/MoorDyn vessel points are relative to it)."""
    depth = float(env["water_depth"] or DEFAULT_WATER_DEPTH)
    mfile = read_mooring_file(moor["file"], kind=moor["kind"], depth=depth)
    for ln in mfile.lines:  # MAP++/MoorDyn vessel points are relative to the platform ref.
        if not isinstance(ln["fairlead"], str):
            ln["fairlead"] = _vec(np.asarray(ln["fairlead"], float) + ref)
    mload = {"type": "mooring_catenary", "body": "platform", "lines": mfile.lines}
    if mfile.connects:
        mload["connects"] = mfile.connects
    notes.extend(mfile.notes)
    return mload


# ------------------------------------------------------------------------------ dedicated checks


def _moordyn_options(deck: dict, ctx: Ctx) -> list[tuple[str, str, str]]:
    """MoorDyn's options with a supported set (its tables are read, and refused where
    unreadable, by :func:`read_moordyn`)."""
    out: list[tuple[str, str, str]] = []
    moor = deck.get("Mooring")
    if moor is not None and moor.get("kind") == "moordyn":
        values = read_openfast_input(moor["file"], strict=False)["values"]  # its own reader judges
        name = pathlib.Path(moor["file"]).name
        for key, s in _SETTINGS["MoorDyn"].items():
            if s.ok is not None and key in values and not s.ok(values[key], ctx):
                out.append((name, key, f"{name}: {key} = {show(values[key])} is not supported; "
                            f"floatwind supports {s.supported}"))  # fmt: skip
    return out


# ---------------------------------------------------------------------------------- the table

_MOORDYN_DYN = (
    "MoorDyn lumped-mass dynamics (line inertia, drag, internal damping, seabed contact "
    "stiffness/damping): read into mooring_lumped (floatwind.case.openfast.moordyn, the default "
    "for CompMooring = 3); with --mooring quasi-static the catenary lies on a rigid seabed and "
    "the import notes that MoorDyn's dynamics are not represented"
)

_LINE_OUTPUTS = (
    "MoorDyn output flags of the line: p, v, t write its nodes' positions, velocities, "
    "tensions (mooring_lumped node_channels; with the OUTPUTS section's node names)"
)

_SETTINGS = {
    # MAP++ SOLVER OPTIONS (first word of each option row); read by read_map
    "MAP": {
        "repeat": M("copies of the lines rotated about z (mooring_catenary lines)"),
        **{
            k: N(
                "MAP++'s own solver option; floatwind solves the lines with its own solver (noted)"
            )
            for k in (
                "help",
                "inner_ftol",
                "inner_gtol",
                "inner_xtol",
                "inner_max_its",
                "outer_max_its",
                "outer_tol",
                "outer_epsilon",
                "outer_bd",
                "outer_cd",
                "outer_fd",
                "pg_cooked",
                "integration_dt",
                "kb_default",
                "cb_default",
                "wave_kinematics",
                "lm_model",
                "ref_position",
                "krylov_accelerator",
                "powell",
            )
        },  # fmt: skip
    },
    # MoorDyn v1/v2 keys and OPTIONS (read by read_moordyn; the whole lumped-mass
    # model is replaced by the quasi-static catenary, which the import notes in one line)
    "MoorDyn": {
        "Echo": N("echo of the input file"),
        "NTypes": M("rows of LINE TYPES"),
        "NConnects": M("rows of CONNECTION PROPERTIES"),
        "NLines": M("rows of LINE PROPERTIES"),
        "dtM": N("MoorDyn's own integration step; the quasi-static catenary has no time step"),
        "kbot": I(_MOORDYN_DYN),
        "cbot": I(_MOORDYN_DYN),
        "dtIC": N("MoorDyn's initial-condition solve (numerics)"),
        "TmaxIC": N("MoorDyn's initial-condition solve (numerics)"),
        "CdScaleIC": N("MoorDyn's initial-condition solve (numerics)"),
        "threshIC": N("MoorDyn's initial-condition solve (numerics)"),
        "WtrDpth": R(
            "MoorDyn WtrDpth = the .fst WtrDpth (floatwind's seabed is at the deck's water depth)",
            lambda v, ctx: (
                isinstance(v, int | float)
                and (float(v) == -999 or same(v, ctx.v("fst", "WtrDpth")))
            ),
            "300",
        ),  # fmt: skip
        "WtrDnsty": R(
            "MoorDyn WtrDnsty = the .fst WtrDens (one water density)",
            lambda v, ctx: same(v, ctx.v("fst", "WtrDens")),
            "1000",
        ),
        "rhoW": R(
            "MoorDyn rhoW = the .fst WtrDens (one water density)",
            lambda v, ctx: same(v, ctx.v("fst", "WtrDens")),
            "1000",
        ),
        "g": R(
            "MoorDyn g = the .fst Gravity (one gravity)",
            lambda v, ctx: same(v, ctx.v("fst", "Gravity")),
            "9.7",
        ),
        # MoorDyn-F/-C's other options (issue 42; moordyn_file.read_moordyn_file checks them:
        # the other spellings like their names, features not built refused unless 0)
        "rho": N("MoorDyn-F's spelling of rhoW: must equal the .fst WtrDens"),
        "WaterDepth": N("MoorDyn-F's spelling of WtrDpth: must equal the .fst WtrDpth"),
        "kb": I(_MOORDYN_DYN),
        "cb": I(_MOORDYN_DYN),
        **{
            k: N("MoorDyn's output, log or numerics setting (noted where it is set)")
            for k in (
                "writeLog",
                "WriteUnits",
                "dtOut",
                "OutSwitch",
                "disableOutput",
                "disableOutTime",
                "tScheme",
                "CFL",
                "ICgenDynamic",
                "inertialF",
                "inertialF_rampT",
            )
        },
        **{
            k: N("water kinematics on the lines: refused unless 0 (not built)")
            for k in (
                "WaterKin",
                "WaveKin",
                "Currents",
                "dtWave",
                "waveKin_rampT",
                "UnifyCurrentGrid",
                "SeafloorFile",
            )
        },
        **{
            k: N("seabed friction: refused unless 0 (not built); its constants are read")
            for k in (
                "FrictionCoefficient",
                "mu_kT",
                "mu_kA",
                "mc",
                "cv",
                "FricDamp",
                "StatDynFricScale",
            )
        },
    },
}

_COLUMNS = {
    # MAP++ sections LINE DICTIONARY / NODE PROPERTIES / LINE PROPERTIES (read_map)
    "MAP": {
        "LineType": M("line type lookup"),
        "Diam": M("mooring_catenary lines[].diameter"),
        "MassDenInAir": M(
            "mooring_catenary lines[].mass_per_length (submerged weight with rho, d)"
        ),
        "EA": M("mooring_catenary lines[].ea"),
        "CB": M("mooring_catenary lines[].seabed_friction"),
        "CIntDamp": I("internal damping: not used by a quasi-static line (MAP++ ignores it too)"),
        "Ca": I("added mass: not used by a quasi-static line (MAP++ ignores it too)"),
        "Cdn": I("normal drag: not used by a quasi-static line (MAP++ ignores it too)"),
        "Cdt": I("tangential drag: not used by a quasi-static line (MAP++ ignores it too)"),
        "ID": M("node/line identifier"),
        "Attachment": M("anchor (fix), fairlead (vessel) or connect node"),
        "X": M("node position (anchor, fairlead, connect start)"),
        "Y": M("node position (anchor, fairlead, connect start)"),
        "Z": M("node position (anchor, fairlead, connect start)"),
        "M": M("connect node point mass"),
        "B": M("connect node displaced volume"),
        "FX": M("connect node external force"),
        "FY": M("connect node external force"),
        "FZ": M("connect node external force"),
        "UnstrLen": M("mooring_catenary lines[].length"),
        "NodeAnch": M("line end A"),
        "NodeFair": M("line end B"),
        "Flags": N("MAP++ output flags of the line"),
        "Option": N("header of MAP++'s option list"),
    },
    # MoorDyn v1 (LINE TYPES / CONNECTION PROPERTIES / LINE PROPERTIES) and v2 (LINE TYPES /
    # POINTS / LINES) columns
    "MoorDyn": {
        "Name": M("line type lookup"),
        "TypeName": M("line type lookup"),
        "Diam": M("mooring_catenary lines[].diameter"),
        "MassDen": M("mooring_catenary lines[].mass_per_length"),
        "Mass/m": M("mooring_catenary lines[].mass_per_length"),
        "EA": M("mooring_catenary lines[].ea (a nonlinear EA table is refused)"),
        **{
            k: I(_MOORDYN_DYN)
            for k in (
                "BA/-zeta",
                "EI",
                "Can",
                "Cat",
                "Cdn",
                "Cdt",
                "Cd",
                "Ca",
                "CdAx",
                "CaAx",
                "CdA",
                "CA",
            )
        },
        "Node": M("point identifier"),
        "ID": M("point/line identifier"),
        "Type": M("anchor (fixed), fairlead (vessel) or free (connect) point"),
        "Attachment": M("anchor (fixed), fairlead (vessel) or free (connect) point"),
        "X": M("point position"),
        "Y": M("point position"),
        "Z": M("point position"),
        "M": M("free point mass"),
        "Mass": M("free point mass"),
        "V": M("free point volume"),
        "Volume": M("free point volume"),
        "FX": M("free point force (v1)"),
        "FY": M("free point force (v1)"),
        "FZ": M("free point force (v1)"),
        "Line": M("line identifier"),
        "LineType": M("line type of the line"),
        "UnstrLen": M("mooring_catenary lines[].length"),
        "NumSegs": N("MoorDyn's segments of a line (discretisation of its lumped-mass model)"),
        "NodeAnch": M("line end A"),
        "NodeFair": M("line end B"),
        "AttachA": M("line end A"),
        "AttachB": M("line end B"),
        "Flags/Outputs": M(_LINE_OUTPUTS),
        "Outputs": M(_LINE_OUTPUTS),
        "LineOutputs": M(_LINE_OUTPUTS),
    },  # fmt: skip
}

FILE_KIND = FileKind(
    "MAP++/MoorDyn", __name__, settings=_SETTINGS, columns=_COLUMNS, more=_moordyn_options
)
