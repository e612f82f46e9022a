"""MoorDyn v1 and v2 input files read into floatwind's lumped-mass ``mooring_lumped`` load, and
the deck's choice of mooring model (``--mooring``).

The file is read by :mod:`floatwind.case.openfast.moordyn_file` (the one MoorDyn reader, which
the quasi-static reading of :mod:`floatwind.case.openfast.mooring` uses too); this module keeps
what the lumped-mass lines take from it: line types, fixed/coupled/free points, lines, and the
options dtM, kbot, cbot, dtIC, TmaxIC, CdScaleIC, threshIC. A v1 point force, WaterKin/Currents
other than 0 and seabed friction are refused in one line (not built), as is a dtM that MoorDyn's
RK2 cannot keep stable.

Every error is a :class:`floatwind.errors.CaseError` naming the file and the line
(``LINES line 23 (NumSegs)``).
"""

from __future__ import annotations

import math
import pathlib

import numpy as np

from floatwind.case.openfast.moordyn_file import OPTION_KEYS, read_moordyn_file
from floatwind.case.openfast.mooring import catenary_load
from floatwind.environment.base import DEFAULT_WATER_DEPTH
from floatwind.errors import CaseError

__all__ = ["MOORING_MODELS", "mooring_load", "read_moordyn_lumped"]

#: MoorDyn's defaults of the options a file may leave out (MoorDyn-F MD_Init: kBot, cBot,
#: dtIC, TMaxIC, CdScaleIC, threshIC)
_DEFAULTS = {"kbot": 3.0e6, "cbot": 3.0e5, "dtic": 2.0, "tmaxic": 60.0, "cdscaleic": 4.0,
             "threshic": 0.01}  # fmt: skip


def read_moordyn_lumped(path, *, depth: float, rho: float, gravity: float):
    """The ``mooring_lumped`` mapping of a MoorDyn v1/v2 file (coupled points relative to the
    platform reference point, as in the file) and its notes: the file read by
    :func:`floatwind.case.openfast.moordyn_file.read_moordyn_file`, and what the lumped-mass
    lines cannot honour refused in one line (a v1 point force, wave and current kinematics,
    seabed friction, a missing or unstable dtM).

    Parameters
    ----------
    path : the MoorDyn input file.
    depth, rho, gravity : the deck's water depth (m), water density and gravity.
    """
    md = read_moordyn_file(path, depth=depth, rho=rho, gravity=gravity)
    file = md.file
    fsec = md.point_section
    for p in md.points:
        for c, f in zip(("FX", "FY", "FZ"), p["force"]):
            if f != 0.0:
                raise CaseError(f"{c} = {f:g}: an external force on a point is not "
                                "supported by the lumped-mass model",
                                field=f"{fsec} line {p['_line']} ({c})", file=file)  # fmt: skip
    for low, (val, n, key) in md.options.items():
        fld = f"OPTIONS line {n} ({key})"
        if low in ("wavekin", "waterkin", "currents", "current") and val != 0.0:
            raise CaseError(f"{key} = {val:g}: wave and current kinematics on the lines "
                            "are not built (lines in still water: 0)", field=fld,
                            file=file)  # fmt: skip
        if low in ("mu_kt", "mu_ka", "mu_st", "mu_sa", "frictioncoefficient") and val != 0.0:
            raise CaseError(f"{key} = {val:g}: seabed friction is not built (0)",
                            field=fld, file=file)  # fmt: skip
    opts = {k: v[0] for k, v in md.options.items() if k in OPTION_KEYS}
    if "dtm" not in opts:
        raise CaseError("dtM is required (MoorDyn's time step)", field="OPTIONS (dtM)", file=file)
    get = {k: opts.get(k, v) for k, v in _DEFAULTS.items()}
    points = [{k: v for k, v in p.items() if k not in ("_line", "force")} for p in md.points]
    cfg = {
        "type": "mooring_lumped",
        "body": "platform",
        "line_types": md.line_types,
        "points": points,
        "lines": [{k: v for k, v in ln.items() if k not in ("_line", "outputs")}
                  for ln in md.lines],  # fmt: skip
        "node_channels": _node_channels(md),
        "seabed": {"kbot": get["kbot"], "cbot": get["cbot"]},
        "dt_m": opts["dtm"],
        "initial": {"tmax": get["tmaxic"], "threshold": get["threshic"],
                    "cd_scale": get["cdscaleic"], "dt": get["dtic"]},
    }  # fmt: skip
    _check_dtm(cfg, rho, opts["dtm"], file, md.options["dtm"][1])
    return cfg, list(md.notes)


def _nodes_note(cfg: dict) -> str:
    """The part of the mooring-model note that says which node channels a run writes."""
    return (f"; the lines' node channels written: {len(cfg['node_channels'])} (those its OUTPUTS "
            "and LineOutputs ask for, as OpenFAST + MoorDyn; node_channels: all writes every "
            "node's)")  # fmt: skip


def _node_channels(md) -> list[str]:
    """The line nodes' channels a deck run writes, as OpenFAST + MoorDyn writes them: those the
    OUTPUTS section names (``L1N5PX``, ``L1S5T``), and every node's positions, velocities or
    tensions of a line whose LineOutputs flags hold ``p``, ``v`` or ``t`` (MoorDyn writes those
    to its line file; floatwind to the run's output). ref10: none (its lines' flags are ``-``)."""
    from floatwind.loads.moordyn import node_channel_name

    out = [c for c in (node_channel_name(n) for n in md.outputs) if c is not None]
    for j, ln in enumerate(md.lines):
        flags = str(ln.get("outputs", "-"))
        for q, names in (("p", ("PX", "PY", "PZ")), ("v", ("VX", "VY", "VZ")), ("t", ("T",))):
            if q in flags:  # MoorDyn's lower-case flags (upper-case D, U are other outputs)
                out += [f"L{j + 1}N{i}{x}" for i in range(ln["segments"] + 1) for x in names]
    return list(dict.fromkeys(out))


def _check_dtm(cfg: dict, rho: float, dtm: float, file: str, line: int | None) -> None:
    """Refuse a dtM that MoorDyn's RK2 cannot keep stable for the lines (one line, naming the
    dtM line of the file)."""
    from floatwind.loads.moordyn import RK2_BOUND, fastest_rate, line_ba, stable_step

    worst, which = 0.0, None
    for ln in cfg["lines"]:
        t = cfg["line_types"][ln["type"]]
        seg = ln["length"] / ln["segments"]
        ba = line_ba(t.get("ba", 0.0), ln["length"], ln["segments"], t["ea"],
                     t["mass_per_length"])  # fmt: skip
        rate = fastest_rate(seg, t["ea"], ba, t["mass_per_length"], t["diameter"],
                            t.get("can", 0.0), rho, cfg["seabed"]["kbot"],
                            cfg["seabed"]["cbot"])  # fmt: skip
        if rate > worst:
            worst, which = rate, ln["name"]
    limit = stable_step(worst, RK2_BOUND)
    if dtm > limit:
        raise CaseError(
            f"dtM = {dtm:g} s cannot be stable: line {which}'s fastest mode ({worst:.4g} 1/s, "
            f"axial stiffness and damping of its segments or seabed contact) needs dtM <= "
            f"{limit:.3g} s", field=f"OPTIONS line {line} (dtM)" if line else "OPTIONS (dtM)",
            file=file,
        )  # fmt: skip


def lumped_run_step(cfg: dict, rho: float, dt: float) -> tuple[float, int]:
    """The run's step for the deck's ``dt``: ``dt / k`` with the smallest whole ``k`` that keeps
    RK4 stable for the lines' fastest mode; ``(step, k)``."""
    from floatwind.loads.moordyn import RK4_BOUND, fastest_rate, line_ba, stable_step

    worst = 0.0
    for ln in cfg["lines"]:
        t = cfg["line_types"][ln["type"]]
        ba = line_ba(t.get("ba", 0.0), ln["length"], ln["segments"], t["ea"],
                     t["mass_per_length"])  # fmt: skip
        worst = max(
            worst,
            fastest_rate(
                ln["length"] / ln["segments"],
                t["ea"],
                ba,
                t["mass_per_length"],
                t["diameter"],
                t.get("can", 0.0),
                rho,
                cfg["seabed"]["kbot"],
                cfg["seabed"]["cbot"],
            ),
        )
    limit = stable_step(worst, RK4_BOUND)
    k = max(1, int(math.ceil(dt / limit - 1e-9)))
    return dt / k, k


def shift_coupled(cfg: dict, ref: np.ndarray) -> dict:
    """Coupled points' coordinates from relative to the platform reference point to the
    platform frame (the catenary import's convention)."""
    for p in cfg["points"]:
        if p["kind"] == "coupled":
            p["position"] = [float(v) for v in np.asarray(p["position"], float) + ref]
    return cfg


#: ``dynamic``: the lumped-mass lines sub-stepped inside the deck's DT (the default, faster:
#: docs/moordyn.md, "States"); ``dynamic-states``: their nodes as states of the run at DT/k
MOORING_MODELS = ("auto", "dynamic", "dynamic-states", "quasi-static")


def mooring_load(moor: dict, env: dict, ref: np.ndarray, notes: list[str], model: str,
                 dt: float, dt_out=None) -> tuple[dict, float | None]:  # fmt: skip
    """The deck's mooring load and the run step it needs (None: the deck's DT). ``model``:
    "auto" (MoorDyn -> lumped-mass lines, MAP++ -> quasi-static catenary), "dynamic" (the
    lumped-mass lines sub-stepped inside DT), "dynamic-states" (their nodes as states of the run,
    at DT/k) or "quasi-static"; a one-line note says which model runs and how to choose the
    other."""
    if model not in MOORING_MODELS:
        raise CaseError(f"unknown mooring model {model!r}; one of {', '.join(MOORING_MODELS)}",
                        field="--mooring")  # fmt: skip
    name = pathlib.Path(moor["file"]).name
    if moor["kind"] == "map" or model == "quasi-static":
        if moor["kind"] == "map" and model.startswith("dynamic"):
            raise CaseError("MAP++ (CompMooring = 1) is a quasi-static model; the lumped-mass "
                            "lines read MoorDyn files (CompMooring = 3)", field="--mooring",
                            file=moor["file"])  # fmt: skip
        load = catenary_load(moor, env, ref, notes)
        if moor["kind"] == "map":
            notes.append(f"{name}: mooring model: MAP++ quasi-static catenary (mooring_catenary)")
        else:
            notes[:] = [n for n in notes if "read into floatwind's quasi-static" not in n]
            notes.append(f"{name}: mooring model: quasi-static catenary (--mooring quasi-static; "
                         "MoorDyn's line inertia, drag and damping not represented; --mooring "
                         "dynamic runs the lumped-mass lines)")  # fmt: skip
        return load, None
    depth = float(env["water_depth"] or DEFAULT_WATER_DEPTH)
    rho = float(env["water_density"] or 1025.0)
    cfg, more = read_moordyn_lumped(moor["file"], depth=depth, rho=rho,
                                    gravity=float(env["gravity"]))  # fmt: skip
    shift_coupled(cfg, ref)
    notes.extend(more)
    try:
        k_out = float(dt_out) / dt
    except (TypeError, ValueError):  # "default": DT
        k_out = 1.0
    if model != "dynamic-states" and abs(k_out - round(k_out)) > 1e-6 * k_out:
        notes.append(f"{name}: DT_Out is not a multiple of DT: the lines run as states of the run "
                     "(sub-stepped lines are kept at the step times only)")  # fmt: skip
        model = "dynamic-states"
    if model != "dynamic-states":
        cfg["integration"] = "substep"
        notes.append(
            f"{name}: mooring model: MoorDyn lumped-mass lines (mooring_lumped), sub-stepped "
            "with MoorDyn's RK2 inside each step of DT (--mooring dynamic-states integrates "
            "their nodes with the bodies; --mooring quasi-static runs the quasi-static catenary)"
            + _nodes_note(cfg)
        )
        return cfg, None
    step, k = lumped_run_step(cfg, rho, dt)
    cfg["integration"] = "states"
    notes.append(
        f"{name}: mooring model: MoorDyn lumped-mass lines (mooring_lumped), their nodes "
        "states of the run (--mooring dynamic sub-steps them inside DT; --mooring quasi-static "
        "runs the quasi-static catenary)"
        + (f"; run step DT/{k} = {step:.6g} s for the lines' fastest mode" if k > 1 else "")
        + _nodes_note(cfg)
    )
    return cfg, (step if k > 1 else None)
