"""HydroDyn: its settings (WAMIT body, additional matrices, Morison members), the refusal of what
floatwind does not model, its part of the settings table, and the case's HydroDyn loads
(``linear`` additional matrices, the WAMIT body's hydrostatics, radiation and excitation with
HydroDyn's state-space files, Morison members and their hydrostatics)."""

from __future__ import annotations

import math
import pathlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from floatwind.case.openfast.reader import (
    _DEG,
    DEFAULT,
    _find_table,
    _float,
    _int,
    _mat,
    _matrix,
    _raw,
    _table_columns,
    _vec,
)
from floatwind.case.openfast.seastate import sea_state
from floatwind.case.openfast.settings import (
    OUT,
    Ctx,
    FileKind,
    I,
    M,
    N,
    Ok,
    R,
    UnsupportedDeckError,
    each,
    eq,
    same,
)
from floatwind.environment.base import DEFAULT_RHO_WATER
from floatwind.errors import CaseError

__all__ = ["FILE_KIND", "case_loads", "hydrodyn_model"]


def _per_body(f: dict, key: str, nbody: int, default: float = 0.0) -> list[float]:
    v = _raw(f, key, default)
    vals = v if isinstance(v, list) else [v]
    out = []
    for x in vals[:nbody]:
        if isinstance(x, bool) or not isinstance(x, int | float):
            raise CaseError(f"expected numbers, got {v!r}", field=key, file=f["file"])
        out.append(float(x))
    if len(out) < nbody:
        raise CaseError(f"expected {nbody} values (NBody), got {v!r}", field=key, file=f["file"])
    return out


def hydrodyn_model(deck: dict) -> dict[str, Any] | None:
    """HydroDyn settings, SI; ``None`` when HydroDyn is off.

    Returns
    -------
    dict or None
        ``PotMod``, ``ExctnMod``, ``RdtnMod``, ``NBody``, ``PotFile`` (list of str),
        ``PtfmRefxt``/``yt``/``zt`` (m, lists, WAMIT reference point of each body),
        ``PtfmRefztRot`` (rad, list), ``PtfmVol0`` (m^3, list), ``AddF0`` (6,) (N, N m),
        ``AddCLin`` (6, 6), ``AddBLin`` (6, 6), ``AddBQuad`` (6, 6) as numpy arrays,
        ``WaveDisp``, ``AMMod``, ``HstMod``, ``axial_coefficients``, ``joints``,
        ``properties_cyl``, ``properties_rec``, ``simple_coefficients_cyl``,
        ``simple_coefficients_rec``, ``depth_coefficients_cyl``, ``member_coefficients_cyl``,
        ``members``, ``n_fill_groups``, ``n_marine_growth_depths``, ``outlist``.
        Tables are lists of dicts keyed by the OpenFAST column names (see docs).
    """
    hd = deck.get("HydroDyn")
    if hd is None:
        return None
    nbody = _int(hd, "NBody", 1)
    pot = _raw(hd, "PotFile", "unused")
    pot_files = pot if isinstance(pot, list) else [pot]
    n_add = 6 * nbody

    def rows(count_key: str | None, required: list[str], what: str) -> list[dict[str, Any]]:
        if count_key is not None and count_key in hd["values"] and _int(hd, count_key) == 0:
            return []
        try:
            tab = _find_table(hd, required, what)
        except CaseError:
            if count_key is None:
                return []
            raise
        cols = _table_columns(hd, tab, count_key, what)
        names = list(cols)
        return [{c: cols[c][k] for c in names} for k in range(len(tab["rows"]))]

    def matrix_or_zero(key: str, shape: tuple[int, ...]) -> np.ndarray:
        if key not in hd["values"]:
            return np.zeros(shape)
        return _matrix(hd, key, shape)

    return {
        "PotMod": _int(hd, "PotMod"),
        "ExctnMod": _int(hd, "ExctnMod", 0),
        "RdtnMod": _int(hd, "RdtnMod", 0),
        "NBody": nbody,
        "PotFile": [str(p) for p in pot_files],
        "PtfmRefxt": _per_body(hd, "PtfmRefxt", nbody),
        "PtfmRefyt": _per_body(hd, "PtfmRefyt", nbody),
        "PtfmRefzt": _per_body(hd, "PtfmRefzt", nbody),
        "PtfmRefztRot": [a * _DEG for a in _per_body(hd, "PtfmRefztRot", nbody)],
        "PtfmVol0": _per_body(hd, "PtfmVol0", nbody),
        "PtfmCOBxt": _per_body(hd, "PtfmCOBxt", nbody) if "PtfmCOBxt" in hd["values"] else [0.0],
        "PtfmCOByt": _per_body(hd, "PtfmCOByt", nbody) if "PtfmCOByt" in hd["values"] else [0.0],
        "WAMITULEN": _per_body(hd, "WAMITULEN", nbody) if "WAMITULEN" in hd["values"] else [1.0],
        "NAddDOF": _int(hd, "NAddDOF", 0),
        "NBodyMod": _int(hd, "NBodyMod", 1),
        "ExctnDisp": _int(hd, "ExctnDisp", 0),
        "PtfmYMod": _int(hd, "PtfmYMod", 0),
        "RdtnTMax": _float(hd, "RdtnTMax", 60.0),
        "RdtnDT": _raw(hd, "RdtnDT", DEFAULT),
        "AddF0": matrix_or_zero("AddF0", (n_add,)),
        "AddCLin": matrix_or_zero("AddCLin", (n_add, n_add)),
        "AddBLin": matrix_or_zero("AddBLin", (n_add, n_add)),
        "AddBQuad": matrix_or_zero("AddBQuad", (n_add, n_add)),
        "WaveDisp": _int(hd, "WaveDisp", 0),
        "AMMod": _int(hd, "AMMod", 0),
        "HstMod": _int(hd, "HstMod", 0),
        "axial_coefficients": rows("NAxCoef", ["AxCoefID", "AxCd"], "axial coefficient"),
        "joints": rows("NJoints", ["JointID", "Jointxi", "Jointyi", "Jointzi"], "joint"),
        "properties_cyl": rows(
            "NPropSetsCyl" if "NPropSetsCyl" in hd["values"] else "NPropSets",
            ["PropSetID", "PropD", "PropThck"],
            "cylindrical property set",
        ),
        "properties_rec": rows(
            "NPropSetsRec", ["PropSetID", "PropA", "PropB"], "rectangular property set"
        ),
        "simple_coefficients_cyl": rows(None, ["SimplCd", "SimplCa"], "simple coefficients"),
        "simple_coefficients_rec": rows(
            None, ["SimplCdA", "SimplCaA"], "simple rectangular coefficients"
        ),
        "depth_coefficients_cyl": rows(
            "NCoefDpthCyl" if "NCoefDpthCyl" in hd["values"] else "NCoefDpth",
            ["Dpth", "DpthCd"],
            "depth-based coefficients",
        ),
        "member_coefficients_cyl": rows(
            "NCoefMembersCyl" if "NCoefMembersCyl" in hd["values"] else "NCoefMembers",
            ["MemberID", "MemberCd1"],
            "member-based coefficients",
        ),
        "members": rows("NMembers", ["MemberID", "MJointID1", "MJointID2"], "member"),
        "n_fill_groups": _int(hd, "NFillGroups", 0),
        "n_marine_growth_depths": _int(hd, "NMGDepths", 0),
        "outlist": list(hd["outlists"].get("OutList", [])),
    }


# ------------------------------------------------------------------------------------ the case


def case_loads(
    hd: dict, deck: dict, env: dict, ss: dict | None, *, morison: bool, morison_axis: str,
    notes: list[str],
) -> list[dict]:  # fmt: skip
    """HydroDyn's loads of the case: ``AddF0``/``AddCLin``/``AddBLin`` as a ``linear`` load at
    the WAMIT reference point (HydroDyn.f90:1498-1547), the WAMIT body (PotMod = 1) and the
    Morison members (``morison``: the deck has members), in that order."""
    loads: list[dict] = []
    p_hd = np.array([hd["PtfmRefxt"][0], hd["PtfmRefyt"][0], hd["PtfmRefzt"][0]], dtype=float)
    f0 = np.asarray(hd["AddF0"], float).ravel()[:6]
    C = np.asarray(hd["AddCLin"], float)[:6, :6]
    Bl = np.asarray(hd["AddBLin"], float)[:6, :6]
    if np.any(f0) or np.any(C) or np.any(Bl):
        loads.append(
            {
                "type": "linear",
                "name": "hydrodyn_additional",
                "body": "platform",
                "point": _vec(p_hd),
                "point0": _vec(p_hd),
                "f0": _vec(f0),
                "stiffness": _mat(C),
                "damping": _mat(Bl),
            }
        )
    if hd["PotMod"] == 1:
        loads.extend(_wamit_loads(hd, deck, p_hd, env, ss, notes))
    if morison:
        loads.extend(_morison_loads(hd, deck, morison_axis, notes))
    return loads


def _morison_loads(hd: dict, deck: dict, axis: str, notes: list[str]) -> list[dict]:
    """HydroDyn Morison members (simple coefficients, model 1) -> floatwind morison (+ hydrostatics)."""
    joints = {
        j["JointID"]: np.array([j["Jointxi"], j["Jointyi"], j["Jointzi"]], float)
        for j in hd["joints"]
    }
    props = {p["PropSetID"]: float(p["PropD"]) for p in hd["properties_cyl"]}
    coef = hd["simple_coefficients_cyl"] or {}
    if isinstance(coef, list):
        coef = coef[0] if coef else {}
    hd_name = pathlib.Path(deck["HydroDyn"]["file"]).name
    members = []
    hst_members = []
    n_pot = n_full = 0
    for mb in hd["members"]:
        if mb.get("MCoefMod", 1) != 1:
            raise UnsupportedDeckError(
                [
                    f"{hd_name}: member {mb['MemberID']}: MCoefMod = {mb['MCoefMod']} (only simple coefficients, 1)"
                ]
            )
        a, b = joints[mb["MJointID1"]], joints[mb["MJointID2"]]
        da, db = props[mb["MPropSetID1"]], props[mb["MPropSetID2"]]
        ca = float(coef.get("SimplCa", 1.0))
        cp = float(coef.get("SimplCp", 1.0))
        # PropPot = True: the member is part of the WAMIT body, whose potential flow carries its
        # wave inertia, added mass and hydrostatics; HydroDyn keeps only its viscous drag
        pot = bool(mb.get("PropPot", False))
        members.append(
            {
                "end_a": _vec(a),
                "end_b": _vec(b),
                "diameter_a": da,
                "diameter_b": db,
                "cd": float(coef.get("SimplCd", 0.6)),
                "ca": 0.0 if pot else ca,
                "cm": 0.0 if pot else ca + cp,
                "strip_length": float(mb.get("MDivSize", 1.0)),
            }
        )
        if pot:
            n_pot += 1
            continue
        n_full += 1
        if abs(a[0] - b[0]) < 1e-9 and abs(a[1] - b[1]) < 1e-9:
            lo, hi = (a, b) if a[2] < b[2] else (b, a)
            dlo, dhi = (da, db) if a[2] < b[2] else (db, da)
            hst_members.append(
                {
                    "axis_xy": _vec(a[:2]),
                    "z_bottom": float(lo[2]),
                    "z_top": float(hi[2]),
                    "diameter_bottom": dlo,
                    "diameter_top": dhi,
                }
            )
    # HydroDyn without wave stretching (WaveStMod = 0) computes Morison loads at the nodes below
    # the still water level only: wet the strips up to the SWL, not up to the wave elevation
    try:
        stretch = int(sea_state(deck).get("WaveStMod", 0) or 0)
    except (KeyError, TypeError, ValueError):
        stretch = 0
    surface = "still" if stretch == 0 else "wave"
    notes.append(
        f"Morison strips wetted up to the {'still water level' if surface == 'still' else 'wave elevation'} "
        f"(SeaState WaveStMod = {stretch})"
    )
    out = [
        {
            "type": "morison",
            "body": "platform",
            "axis": axis,
            "surface": surface,
            "members": members,
        }
    ]
    if n_pot:
        notes.append(
            f"{hd_name}: {n_pot} member(s) with PropPot = True carry only viscous drag (cm = ca "
            "= 0, no member hydrostatics): the WAMIT body gives their inertia and buoyancy"
        )
    if hst_members and len(hst_members) == n_full:
        out.append({"type": "hydrostatics", "body": "platform", "members": hst_members})
        notes.append(
            "HydroDyn member hydrostatics (MHstLMod) imported as floatwind's exact nonlinear "
            "hydrostatics of the vertical members"
        )
    return out


def _wamit_loads(hd: dict, deck: dict, p_hd, env: dict, ss, notes: list[str]) -> list[dict]:
    """HydroDyn's WAMIT body (PotMod = 1) as floatwind loads: ``linear`` hydrostatics (rho g
    PtfmVol0 at the centre of buoyancy's x, y, and the ``.hst`` stiffness, at the reference
    point, as HydroDyn), ``potential_radiation`` (infinite-frequency added mass + memory: the
    convolution when RdtnMod = 1, the state-space model of ``<PotFile>.ss`` when RdtnMod = 2)
    and ``potential_excitation`` with waves (ExctnMod = 1: the ``.3`` data; ExctnMod = 2: the
    state-space model of ``<PotFile>.ssexctn``, HydroDyn then reads no ``.3``). A null body
    (PtfmVol0 = 0 and all-zero files, the usual switch for AddF0/AddCLin) gives none."""
    from floatwind.loads.hydrodyn_ss import read_checked, read_checked_exctn
    from floatwind.loads.wamit import read_wamit

    hd_file = deck["HydroDyn"]["file"]
    root = pathlib.Path(hd_file).parent / hd["PotFile"][0]
    waves = ss is not None and ss["WaveMod"] not in (0, "0")
    ss_file = exctn_file = None
    if hd["RdtnMod"] == 2:
        ss_file = _hydrodyn_ss_file(root, hd_file, "RdtnMod", read_checked)
    if hd["ExctnMod"] == 2:  # SS_Exc_Init opens the file with or without waves; SeaState's
        # WaveDir (which it must match) is unused without them
        wave_dir = math.degrees(ss["WaveDir"]) if waves else None
        exctn_file = _hydrodyn_ss_file(root, hd_file, "ExctnMod",
                                       lambda p: read_checked_exctn(p, wave_dir_deg=wave_dir))  # fmt: skip
    ulen = float(hd["WAMITULEN"][0])
    data = read_wamit(root, rho=1.0, gravity=1.0, ulen=ulen,
                      excitation=hd["ExctnMod"] == 1)  # fmt: skip
    vol = float(hd["PtfmVol0"][0])
    null = (vol == 0.0 and not np.any(data.hydrostatic) and not np.any(data.added_mass_inf)
            and not np.any(data.damping)
            and (data.excitation is None or not np.any(data.excitation)))  # fmt: skip
    if null:
        return []
    rho = float(env["water_density"] or DEFAULT_RHO_WATER)
    g = float(env["gravity"])
    buoy = rho * g * vol
    f0 = [0.0, 0.0, buoy, buoy * float(hd["PtfmCOByt"][0]), -buoy * float(hd["PtfmCOBxt"][0]),
          0.0]  # fmt: skip
    wamit = str(root)
    radiation = {"type": "potential_radiation", "name": "hydrodyn_wamit_radiation",
                 "body": "platform", "wamit": wamit, "ulen": ulen, "point": _vec(p_hd)}  # fmt: skip
    if ss_file is None:
        radiation.update(rdtn_tmax=float(hd["RdtnTMax"]), memory=hd["RdtnMod"] == 1)
    else:  # the state-space model refuses the convolution's keys
        radiation.update(model="state_space", ss_file=ss_file)
    out: list[dict] = [
        {"type": "linear", "name": "hydrodyn_wamit_hydrostatics", "body": "platform",
         "point": _vec(p_hd), "point0": _vec(p_hd), "f0": f0,
         "stiffness": _mat(rho * g * data.hydrostatic), "yawed": True,
         "openfast_channels": "B1HdS"},
        radiation,
    ]  # fmt: skip
    if hd["ExctnMod"] in (1, 2) and waves:
        excitation = {"type": "potential_excitation", "name": "hydrodyn_wamit_excitation",
                      "body": "platform", "wamit": wamit, "ulen": ulen, "point": _vec(p_hd)}  # fmt: skip
        if exctn_file is not None:
            excitation.update(model="state_space", ss_file=exctn_file)
        # (no time_step: HydroDyn's WaveDT tabulation was 1e-5 further from OpenFAST than the
        # exact sum on ref08 and ref13, docs/potential_flow.md)
        mn, nw = _int(deck["HydroDyn"], "MnDrift", 0), _int(deck["HydroDyn"], "NewmanApp", 0)
        if mn or nw:  # HydroDyn WAMIT2: at the reference point, first-order cut-offs
            excitation.update(second_order="mean_drift" if mn else "newman", qtf=mn or nw,
                              qtf_cutoffs=[float(ss["WvLowCOff"]), float(ss["WvHiCOff"])])  # fmt: skip
            notes.append(f"{pathlib.Path(hd_file).name}: {'MnDrift' if mn else 'NewmanApp'} = "
                         f"{mn or nw}: second-order {'mean drift' if mn else 'slow drift (Newman)'} "
                         f"from {hd['PotFile'][0]}.{mn or nw} in potential_excitation")  # fmt: skip
        out.append(excitation)
    memory = {1: ", radiation memory", 2: ", radiation memory as state-space (.ss file)"}
    exciting = {1: ", potential_excitation", 2: ", state-space potential_excitation (.ssexctn)"}
    notes.append(
        f"{pathlib.Path(hd_file).name}: WAMIT body {hd['PotFile'][0]} (PotMod = 1) as potential_radiation"
        f" (infinite-frequency added mass{memory.get(hd['RdtnMod'], '')})"
        f"{exciting[hd['ExctnMod']] if len(out) > 2 else ''} and linear hydrostatics (rho g "
        "PtfmVol0 + .hst)"
    )
    return out


#: HydroDyn's state-space files: switch (= 2) -> suffix of ``<PotFile>``, what the file holds
_SS_FILES = {"RdtnMod": (".ss", "state-space radiation"),
             "ExctnMod": (".ssexctn", "state-space wave excitation")}  # fmt: skip


def _hydrodyn_ss_file(root: pathlib.Path, hd_file, key: str,
                      check: Callable[[pathlib.Path], Any]) -> str:  # fmt: skip
    """``<PotFile>.ss`` of RdtnMod = 2 or ``<PotFile>.ssexctn`` of ExctnMod = 2 (``key``), read
    and checked here by ``check`` so that a missing, malformed or unstable file (or, for
    ``.ssexctn``, one made for another wave direction) stops the import (one line naming the
    file and the line). HydroDyn (``SS_Radiation.f90``, ``SS_Rad_Init``) enables all six DOFs
    and reports a ``.ss`` file that does not enable them all as an error, which floatwind
    refuses (``read_checked``). ``SS_Excitation.f90`` (``SS_Exc_Init``) stops on a ``.ssexctn``
    whose WaveDir is not SeaState's."""
    suffix, what = _SS_FILES[key]
    path = root.with_name(root.name + suffix)
    if not path.is_file():
        raise CaseError(f"{key} = 2 ({what}) reads {path}, which does not exist",
                        field=key, file=str(hd_file))  # fmt: skip
    check(path)
    return str(path)


# ------------------------------------------------------------------------------ dedicated checks


def _wamit_nonzero(path: Path, first_value_col: int) -> bool | None:
    """True if any coefficient in a WAMIT file is non-zero; None if the file does not exist."""
    if not path.is_file():
        return None
    for line in path.read_text(encoding="latin-1").splitlines():
        toks = line.split()
        for tok in toks[first_value_col:]:
            try:
                if float(tok.replace("D", "E").replace("d", "e")) != 0.0:
                    return True
            except ValueError:
                continue
    return False


def _refusals(deck: dict) -> list[str]:
    """Potential flow floatwind does not model: PotMod = 2, several WAMIT bodies, generalised
    modes, excitation/radiation models other than 0-2, ExctnDisp, PtfmYMod, a rotated WAMIT
    body, RdtnDT != DT, second-order forces."""
    out: list[str] = []
    hd = deck.get("HydroDyn")
    if hd is not None:
        hd_name = Path(hd["file"]).name
        pot_mod = _int(hd, "PotMod")
        if pot_mod == 2:
            out.append(f"{hd_name}: PotMod = 2 (fluid-impulse theory) is not supported")
        if pot_mod == 1:
            model = hydrodyn_model(deck)
            for root in model["PotFile"]:
                base = Path(hd["file"]).parent / root
                if _wamit_nonzero(base.with_name(base.name + ".hst"), 2) is None:
                    raise CaseError(
                        f"PotMod = 1 but the WAMIT file {base}.hst does not exist",
                        field="PotFile",
                        file=hd["file"],
                    )
            if model["NBody"] != 1:
                out.append(f"{hd_name}: NBody = {model['NBody']} (several WAMIT bodies) is not "
                           "supported")  # fmt: skip
            if model["NAddDOF"] != 0:
                out.append(f"{hd_name}: NAddDOF = {model['NAddDOF']} (generalised WAMIT modes) "
                           "is not supported")  # fmt: skip
            if model["ExctnMod"] not in (0, 1, 2):
                out.append(f"{hd_name}: ExctnMod = {model['ExctnMod']} is not supported; use 0 "
                           "(no excitation), 1 (DFT) or 2 (state-space, <PotFile>.ssexctn)")  # fmt: skip
            if model["RdtnMod"] not in (0, 1, 2):
                out.append(f"{hd_name}: RdtnMod = {model['RdtnMod']} is not supported; use 0 "
                           "(no memory), 1 (convolution) or 2 (state-space, <PotFile>.ss)")  # fmt: skip
            if model["ExctnMod"] in (1, 2) and model["ExctnDisp"] != 0:
                out.append(f"{hd_name}: ExctnDisp = {model['ExctnDisp']} (excitation at the "
                           "displaced position) is not supported; use 0")  # fmt: skip
            if model["PtfmYMod"] != 0:
                out.append(f"{hd_name}: PtfmYMod = {model['PtfmYMod']} (large yaw offset) is not "
                           "supported")  # fmt: skip
            if any(a != 0.0 for a in model["PtfmRefztRot"]):
                rot = ", ".join(f"{math.degrees(a):g}" for a in model["PtfmRefztRot"])
                out.append(f"{hd_name}: PtfmRefztRot = {rot} deg (rotated WAMIT body) is not "
                           "supported; use 0")  # fmt: skip
            dt_r = model["RdtnDT"]
            dt = _float(deck["fst"], "DT")
            if model["RdtnMod"] == 1 and dt_r != DEFAULT and abs(float(dt_r) - dt) > 1e-9 * dt:
                out.append(f"{hd_name}: RdtnDT = {float(dt_r):g} s differs from DT = {dt:g} s: "
                           "floatwind samples the radiation memory at every step")  # fmt: skip
            out.extend(_second_order_refusals(hd, hd_name, model))
        else:
            for key in ("MnDrift", "NewmanApp", "DiffQTF", "SumQTF"):
                if _int(hd, key, 0) != 0:  # HydroDyn's second-order forces are WAMIT2's
                    raise CaseError(f"{key} = {_int(hd, key)} needs PotMod = 1 (the WAMIT body's "
                                    f"second-order forces); PotMod = {pot_mod}",
                                    field=key, file=hd["file"])  # fmt: skip
    return out


def _second_order_refusals(hd: dict, hd_name: str, model: dict) -> list[str]:
    """HydroDyn's WAMIT2 settings floatwind does not model: the full QTFs (DiffQTF, SumQTF),
    mean drift / Newman from the .10d-.12d files, more than one method, drift with an
    excitation other than ExctnMod = 1 (floatwind.loads.drift)."""
    out = []
    vals = {k: _int(hd, k, 0) for k in ("MnDrift", "NewmanApp", "DiffQTF", "SumQTF")}
    if vals["SumQTF"] != 0:
        out.append(f"{hd_name}: SumQTF = {vals['SumQTF']} (sum-frequency QTF forces) is not "
                   "supported")  # fmt: skip
    if vals["DiffQTF"] != 0:
        out.append(f"{hd_name}: DiffQTF = {vals['DiffQTF']} (full difference-frequency QTF) is "
                   "not supported; use NewmanApp = 7, 8 or 9")  # fmt: skip
    for key in ("MnDrift", "NewmanApp"):
        if vals[key] not in (0, 7, 8, 9):
            out.append(f"{hd_name}: {key} = {vals[key]} is not supported; use 7, 8 or 9 (the "
                       "WAMIT .7/.8/.9 mean-drift files)")  # fmt: skip
    if sum(v != 0 for k, v in vals.items() if k != "SumQTF") > 1:
        out.append(f"{hd_name}: only one of MnDrift, NewmanApp, DiffQTF may be non-zero "
                   "(HydroDyn's rule)")  # fmt: skip
    if (vals["MnDrift"] or vals["NewmanApp"]) and model["ExctnMod"] != 1:
        out.append(f"{hd_name}: second-order drift with ExctnMod = {model['ExctnMod']} is not "
                   "supported; use ExctnMod = 1")  # fmt: skip
    return out


# ------------------------------------------------------------------ conditions between settings


def _zero_matrix(v: Any, ctx: Ctx) -> bool:
    flat: list[Any] = []
    stack = [v]
    while stack:
        x = stack.pop()
        if isinstance(x, list):
            stack.extend(x)
        else:
            flat.append(x)
    return all(isinstance(x, int | float) and not isinstance(x, bool) and x == 0 for x in flat)


def _members(ctx: Ctx) -> bool:
    return ctx.num("HydroDyn", "NMembers", 0.0) > 0


def _member_col(pred: Ok) -> Ok:
    """A member-coefficient column, checked only when the deck has Morison members."""
    return lambda vals, ctx: (not _members(ctx)) or all(pred(x, ctx) for x in vals)


def _potmod1(ctx: Ctx) -> bool:
    return ctx.v("HydroDyn", "PotMod", 0) == 1


def _slanted_hydrostatic_members(ctx: Ctx) -> list[Any]:
    """IDs of the members whose hydrostatics floatwind would model (PropPot = False) that are
    not vertical: floatwind's member hydrostatics take vertical members only."""
    hd = hydrodyn_model(ctx.deck)
    if hd is None or not hd["members"]:
        return []
    joints = {j["JointID"]: (j["Jointxi"], j["Jointyi"]) for j in hd["joints"]}
    out = []
    for m in hd["members"]:
        if m.get("PropPot", False):
            continue
        a, b = joints.get(m["MJointID1"]), joints.get(m["MJointID2"])
        if a is None or b is None or abs(a[0] - b[0]) > 1e-9 or abs(a[1] - b[1]) > 1e-9:
            out.append(m["MemberID"])
    return out


# ---------------------------------------------------------------------------------- the table

_MG = "marine-growth coefficient, used only with marine growth (NMGDepths > 0 is refused)"
_REC = "rectangular-member data, used only by members with MSecGeom = 2 (refused)"
_MODEL2 = "depth-based coefficient (model 2), used only by members with MCoefMod = 2 (refused)"
_MODEL3 = "member-based coefficient (model 3), used only by members with MCoefMod = 3 (refused)"
_FILL = "filled-member data, used only with NFillGroups > 0 (refused)"

_SETTINGS = {
    "HydroDyn": {
        "Echo": N("echo of the input file"),
        "PotMod": M(
            "WAMIT body -> linear hydrostatics, potential_radiation, potential_excitation",
            eq(0, 1),
            "PotMod = 0 or 1 (WAMIT)",
            "2",
        ),
        "ExctnMod": M(
            "potential_excitation with waves: 0 none, 1 the .3 data (DFT), 2 model: state_space "
            "with ss_file: <PotFile>.ssexctn (HydroDyn's state-space file, its WaveDir checked "
            "against SeaState's; states integrated with the bodies)",
            lambda v, ctx: (not _potmod1(ctx)) or v in (0, 1, 2),
            "ExctnMod = 0, 1 (DFT) or 2 (state-space, <PotFile>.ssexctn)",
            "3",
        ),
        "ExctnDisp": R(
            "ExctnDisp = 0 with wave excitation (excitation at the undisplaced position)",
            lambda v, ctx: (
                same(v, 0) or not _potmod1(ctx) or ctx.v("HydroDyn", "ExctnMod") not in (1, 2)
            ),
            "1",
            deck="ref07_potential_decay",
        ),
        "ExctnCutOff": I(
            "low-pass filter of the displaced position, used only with ExctnDisp = 2 (refused)"
        ),
        "PtfmYMod": R(
            "PtfmYMod = 0 (no large-yaw model)",
            lambda v, ctx: same(v, 0) or not _potmod1(ctx),
            "1",
        ),
        "PtfmRefY": R("PtfmRefY = 0 (WAMIT body not yawed)", eq(0), "10"),
        "PtfmYCutOff": I("large-yaw filter, used only with PtfmYMod = 1 (refused)"),
        "NExctnHdg": I(
            "excitation headings of the large-yaw model, used only with PtfmYMod = 1 (refused)"
        ),
        "RdtnMod": M(
            "potential_radiation: 0 memory: false, 1 convolution, 2 model: state_space with "
            "ss_file: <PotFile>.ss (HydroDyn's state-space file; states integrated with the bodies)",
            lambda v, ctx: (not _potmod1(ctx)) or v in (0, 1, 2),
            "RdtnMod = 0, 1 (convolution) or 2 (state-space, <PotFile>.ss)",
            "3",
        ),
        "RdtnTMax": M("potential_radiation.rdtn_tmax (RdtnMod = 1; unused with the .ss model)"),
        "RdtnDT": R(
            "RdtnDT = DEFAULT or DT with RdtnMod = 1 (floatwind samples the memory every step); any "
            "with RdtnMod = 2 (HydroDyn integrates the .ss and .ssexctn states at RdtnDT, "
            "floatwind with the bodies at the run's step)",
            lambda v, ctx: (
                not _potmod1(ctx)
                or ctx.v("HydroDyn", "RdtnMod") != 1
                or v == "DEFAULT"
                or (
                    isinstance(v, int | float)
                    and abs(float(v) - ctx.num("fst", "DT")) <= 1e-9 * ctx.num("fst", "DT")
                )
            ),
            "0.025",
            deck="ref07_potential_decay",
        ),
        "NBody": R("NBody = 1 (one WAMIT body)", eq(1), "2", checked_by="importer._screen"),
        "NBodyMod": I("how several WAMIT bodies couple; only NBody = 1 is imported"),
        "PotFile": M("potential_radiation/potential_excitation wamit root, .hst hydrostatics"),
        "WAMITULEN": M("potential_radiation/potential_excitation ulen"),
        "PtfmRefxt": M("point of the HydroDyn loads (WAMIT reference point)"),
        "PtfmRefyt": M("point of the HydroDyn loads (WAMIT reference point)"),
        "PtfmRefzt": M("point of the HydroDyn loads (WAMIT reference point)"),
        "PtfmRefztRot": R(
            "PtfmRefztRot = 0 (WAMIT body not rotated)",
            lambda v, ctx: _zero_matrix(v, ctx) or not _potmod1(ctx),
            "10",
        ),
        "PtfmVol0": M("hydrodyn_wamit_hydrostatics f0 (rho g PtfmVol0)"),
        "PtfmCOBxt": M("hydrodyn_wamit_hydrostatics f0 (buoyancy moment)"),
        "PtfmCOByt": M("hydrodyn_wamit_hydrostatics f0 (buoyancy moment)"),
        "NAddDOF": R(
            "NAddDOF = 0 (no generalised WAMIT modes)",
            lambda v, ctx: same(v, 0) or not _potmod1(ctx),
            "1",
        ),
        "MnDrift": M(
            "potential_excitation second_order: mean_drift, qtf: 7/8/9 (<PotFile>.7/.8/.9)",
            lambda v, ctx: v in (0, 7, 8, 9) and (v == 0 or _potmod1(ctx)),
            "MnDrift = 0, 7, 8 or 9 with PotMod = 1",
            "10",
        ),
        "NewmanApp": M(
            "potential_excitation second_order: newman, qtf: 7/8/9 (<PotFile>.7/.8/.9)",
            lambda v, ctx: v in (0, 7, 8, 9) and (v == 0 or _potmod1(ctx)),
            "NewmanApp = 0, 7, 8 or 9 with PotMod = 1",
            "10",
        ),
        "DiffQTF": R("DiffQTF = 0 (no full difference-frequency QTF)", eq(0), "12"),
        "SumQTF": R("SumQTF = 0 (no sum-frequency forces)", eq(0), "12"),
        "AddF0": M("hydrodyn_additional f0"),
        "AddCLin": M("hydrodyn_additional stiffness"),
        "AddBLin": M("hydrodyn_additional damping"),
        "AddBQuad": R(
            "AddBQuad = 0 (no quadratic additional damping)",
            _zero_matrix,
            "100000 0 0 0 0 0",
            checked_by="importer._screen",
        ),
        "WaveDisp": R(
            "WaveDisp = 0 (wave kinematics at the undisplaced members, as --morison-axis "
            "undisplaced)",
            eq(0),
            "1",
        ),
        "AMMod": R("AMMod = 0 (member added mass below the still water level)", eq(0), "1"),
        "HstMod": R("HstMod = 0 (member hydrostatics up to the still water level)", eq(0), "1"),
        "NAxCoef": M("rows of the axial-coefficient table (their coefficients must be zero)"),
        "NJoints": M("rows of the joint table (morison member ends)"),
        "NPropSetsCyl": M("rows of the cylindrical property table (morison diameters)"),
        "NPropSets": M("rows of the cylindrical property table (morison diameters; older decks)"),
        "NPropSetsRec": I(_REC),
        "NCoefDpthCyl": I(_MODEL2),
        "NCoefDpthRec": I(_MODEL2),
        "NCoefMembersCyl": I(_MODEL3),
        "NCoefMembersRec": I(_MODEL3),
        "NMembers": M("rows of the member table (morison members, member hydrostatics)"),
        "NFillGroups": R("NFillGroups = 0 (no filled members)", eq(0), "1"),
        "NMGDepths": R("NMGDepths = 0 (no marine growth)", eq(0), "1"),
        "NMOutputs": N("member output list"),
        "NJOutputs": N("joint output list"),
        "JOutLst": N("joint output list"),
        "HDSum": N(OUT),
        "OutAll": N(OUT),
        "OutSwtch": N(OUT),
        "OutFmt": N(OUT),
        "OutSFmt": N(OUT),
    },
}

#: columns of the member tables (the rectangular members' own entry: same names, another use)
_COLUMNS = {
    "HydroDyn": {
        # axial coefficients (joint end loads)
        "AxCoefID": N("identifier"),
        "AxCd": R(
            "AxCd = 0 (no axial drag at member joints)",
            _member_col(eq(0)),
            "1.0",
            deck="ref04_morison_decay",
        ),
        "AxCa": R(
            "AxCa = 0 (no axial added mass at member joints)",
            _member_col(eq(0)),
            "1.0",
            deck="ref04_morison_decay",
        ),
        "AxCp": R(
            "AxCp = 0 (no axial pressure load at member joints)",
            _member_col(eq(0)),
            "1.0",
            deck="ref04_morison_decay",
        ),
        "AxFDMod": I("model of the axial joint loads, whose coefficients AxCd/AxCa/AxCp must be 0"),
        "AxVnCOff": I("cut-off of the axial joint loads, whose coefficients must be 0"),
        "AxFDLoFSc": I("scaling of the axial joint loads, whose coefficients must be 0"),
        # joints
        "JointID": M("member end lookup"),
        "Jointxi": M("morison end_a/end_b, hydrostatics axis_xy"),
        "Jointyi": M("morison end_a/end_b, hydrostatics axis_xy"),
        "Jointzi": M("morison end_a/end_b, hydrostatics z_bottom/z_top"),
        "JointAxID": I("names an axial-coefficient row, whose coefficients must be 0"),
        "JointOvrlp": R(
            "JointOvrlp = 0 (no super-member overlap removal)",
            _member_col(eq(0)),
            "1",
            deck="ref04_morison_decay",
        ),
        # properties
        "PropSetID": M("member diameter lookup"),
        "PropD": M("morison diameter_a/diameter_b, hydrostatics diameters"),
        "PropThck": I(
            "wall thickness, used only by filled members (NFillGroups > 0 is refused) and marine growth"
        ),
        # simple coefficients (model 1)
        "SimplCd": M("morison cd"),
        "SimplCa": M("morison ca (0 for PropPot members)"),
        "SimplCp": M("morison cm = ca + cp (0 for PropPot members)"),
        "SimplCdMG": I(_MG),
        "SimplCaMG": I(_MG),
        "SimplCpMG": I(_MG),
        "SimplAxCd": R(
            "SimplAxCd = 0 (no axial drag on members)",
            _member_col(eq(0)),
            "1.0",
            deck="ref04_morison_decay",
        ),
        "SimplAxCa": R(
            "SimplAxCa = 0 (no axial added mass on members)",
            _member_col(eq(0)),
            "1.0",
            deck="ref04_morison_decay",
        ),
        "SimplAxCp": R(
            "SimplAxCp = 0 (no axial pressure load on members)",
            _member_col(eq(0)),
            "1.0",
            deck="ref04_morison_decay",
        ),
        "SimplAxCdMG": I(_MG),
        "SimplAxCaMG": I(_MG),
        "SimplAxCpMG": I(_MG),
        "SimplCb": R(
            "SimplCb = 1 (member buoyancy not scaled)",
            _member_col(eq(1)),
            "0.5",
            deck="ref04_morison_decay",
        ),
        "SimplCbMG": I(_MG),
        # depth-based (model 2) and member-based (model 3) coefficients
        **{
            k: I(_MODEL2)
            for k in (
                "Dpth",
                "DpthCd",
                "DpthCdMG",
                "DpthCa",
                "DpthCaMG",
                "DpthCp",
                "DpthCpMG",
                "DpthAxCd",
                "DpthAxCdMG",
                "DpthAxCa",
                "DpthAxCaMG",
                "DpthAxCp",
                "DpthAxCpMG",
                "DpthCb",
                "DpthCbMG",
            )
        },  # fmt: skip
        **{
            f"Member{c}{e}": I(_MODEL3)
            for c in (
                "Cd",
                "CdMG",
                "Ca",
                "CaMG",
                "Cp",
                "CpMG",
                "AxCd",
                "AxCdMG",
                "AxCa",
                "AxCaMG",
                "AxCp",
                "AxCpMG",
                "Cb",
                "CbMG",
            )
            for e in ("1", "2")
        },  # fmt: skip
        # members
        "MemberID": M("member identifier (member table, output list)"),
        "MJointID1": M("morison end_a"),
        "MJointID2": M("morison end_b"),
        "MPropSetID1": M("morison diameter_a"),
        "MPropSetID2": M("morison diameter_b"),
        "MSecGeom": R(
            "MSecGeom = 1 (cylindrical members)", each(eq(1)), "2", deck="ref04_morison_decay"
        ),
        "MSpinOrient": I(
            "spin orientation of a member's cross-section: only rectangular members (refused) depend on it"
        ),
        "MDivSize": M("morison strip_length"),
        "MCoefMod": R(
            "MCoefMod = 1 (simple coefficients)", each(eq(1)), "2", deck="ref04_morison_decay"
        ),
        "MHstLMod": R(
            "MHstLMod = 1 on vertical members (member hydrostatics, imported as floatwind's exact "
            "hydrostatics of vertical members; a slanted member would lose them)",
            lambda cells, ctx: (
                all(same(c, 1) for c in cells) and not _slanted_hydrostatic_members(ctx)
            ),
            "2",
            deck="ref04_morison_decay",
        ),
        "PropPot": M("PropPot members: viscous drag only (cm = ca = 0, no member hydrostatics)"),
        # filled members, marine growth
        "FillNumM": I(_FILL),
        "FillMList": I(_FILL),
        "FillFSLoc": I(_FILL),
        "FillDens": I(_FILL),
        "MGDpth": I(_MG),
        "MGThck": I(_MG),
        "MGDens": I(_MG),
        # member output list
        "NOutLoc": N("member output list"),
        "NodeLocs": N("member output list"),
    },
    # every column of HydroDyn's rectangular-member tables (property sets, coefficient models 1-3)
    "HydroDyn_rectangular": {
        k: I(_REC)
        for k in (
            "PropSetID",
            "PropA",
            "PropB",
            "PropThck",
            "Dpth",
            "MemberID",
            *(
                f"{p}{c}{m}"
                for p in ("Simpl", "Dpth")
                for c in ("CdA", "CdB", "CaA", "CaB", "Cp", "AxCd", "AxCa", "AxCp", "Cb")
                for m in ("", "MG")
            ),
            *(
                f"Member{c}{m}{e}"
                for c in ("CdA", "CdB", "CaA", "CaB", "Cp", "AxCd", "AxCa", "AxCp", "Cb")
                for m in ("", "MG")
                for e in ("1", "2")
            ),
        )
    },  # fmt: skip
}


def _column_table(title: str) -> str:
    return "HydroDyn_rectangular" if "RECTANGULAR" in title.upper() else "HydroDyn"


FILE_KIND = FileKind(
    "HydroDyn",
    __name__,
    settings=_SETTINGS,
    columns=_COLUMNS,
    files={"HydroDyn": "HydroDyn"},
    check=_refusals,
    column_table=_column_table,
)
