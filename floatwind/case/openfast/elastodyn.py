"""ElastoDyn (with its blade and tower files): DOF switches, initial conditions, the rigid-body
mass properties as ElastoDyn discretises them, the refusal of its flexible DOFs, and its part of
the settings table."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from floatwind.case.openfast.reader import (
    _DEG,
    _RPM,
    _bool,
    _ed,
    _find_table,
    _float,
    _int,
    _table_columns,
)
from floatwind.case.openfast.settings import CORE, OUT, FileKind, I, M, N, R, eq, same
from floatwind.errors import CaseError

__all__ = ["FILE_KIND", "elastodyn_mass_properties", "enabled_dofs", "initial_conditions"]


_DOF_KEYS = (
    "FlapDOF1",
    "FlapDOF2",
    "EdgeDOF",
    "PitchDOF",
    "TeetDOF",
    "DrTrDOF",
    "GenDOF",
    "YawDOF",
    "TwFADOF1",
    "TwFADOF2",
    "TwSSDOF1",
    "TwSSDOF2",
    "PtfmSgDOF",
    "PtfmSwDOF",
    "PtfmHvDOF",
    "PtfmRDOF",
    "PtfmPDOF",
    "PtfmYDOF",
)


def enabled_dofs(deck: dict) -> dict[str, bool]:
    """ElastoDyn DOF switches, ``{"FlapDOF1": False, ..., "PtfmYDOF": True}``.

    ``PitchDOF`` (added in OpenFAST 4) is ``False`` when the file has no such entry.
    """
    ed = _ed(deck)
    return {k: _bool(ed, k, False if k == "PitchDOF" else ...) for k in _DOF_KEYS}


def initial_conditions(deck: dict) -> dict[str, Any]:
    """ElastoDyn initial conditions, SI.

    Returns
    -------
    dict
        ``PtfmSurge``, ``PtfmSway``, ``PtfmHeave`` (m); ``PtfmRoll``, ``PtfmPitch``, ``PtfmYaw``
        (rad, ElastoDyn v5 Z-Y'-X'' Tait-Bryan angles); ``NacYaw`` (rad); ``Azimuth`` (rad, blade 1,
        in the ElastoDyn input convention, 0 = blade 1 at ``AzimB1Up``); ``AzimB1Up`` (rad);
        ``RotSpeed`` (rad/s); ``BlPitch`` (list, rad, one per blade); ``TeetDefl`` (rad);
        ``OoPDefl``, ``IPDefl``, ``TTDspFA``, ``TTDspSS`` (m).
    """
    ed = _ed(deck)
    nb = _int(ed, "NumBl")
    return {
        "PtfmSurge": _float(ed, "PtfmSurge"),
        "PtfmSway": _float(ed, "PtfmSway"),
        "PtfmHeave": _float(ed, "PtfmHeave"),
        "PtfmRoll": _float(ed, "PtfmRoll") * _DEG,
        "PtfmPitch": _float(ed, "PtfmPitch") * _DEG,
        "PtfmYaw": _float(ed, "PtfmYaw") * _DEG,
        "NacYaw": _float(ed, "NacYaw") * _DEG,
        "Azimuth": _float(ed, "Azimuth") * _DEG,
        "AzimB1Up": _float(ed, "AzimB1Up", 0.0) * _DEG,
        "RotSpeed": _float(ed, "RotSpeed") * _RPM,
        "BlPitch": [_float(ed, f"BlPitch({k})") * _DEG for k in range(1, nb + 1)],
        "TeetDefl": _float(ed, "TeetDefl", 0.0) * _DEG,
        "OoPDefl": _float(ed, "OoPDefl", 0.0),
        "IPDefl": _float(ed, "IPDefl", 0.0),
        "TTDspFA": _float(ed, "TTDspFA", 0.0),
        "TTDspSS": _float(ed, "TTDspSS", 0.0),
    }


# ------------------------------------------------------------------------------ dedicated checks

_FLEX_DOFS = {
    "FlapDOF1": "first flapwise blade mode",
    "FlapDOF2": "second flapwise blade mode",
    "EdgeDOF": "first edgewise blade mode",
    "PitchDOF": "blade-pitch actuator DOF",
    "DrTrDOF": "drivetrain torsional flexibility",
}
# (the tower modes TwFADOF1/2, TwSSDOF1/2 are degrees of freedom since issue 37)


def _refusals(deck: dict) -> list[str]:
    """Flexible DOFs (FlapDOF1/2, EdgeDOF, PitchDOF, DrTrDOF, TwFADOF1/2, TwSSDOF1/2; TeetDOF
    for a 2-bladed rotor), a 2-bladed rotor, Furling, yaw friction with YawDOF on (GenDOF with the
    generator connected is the servodyn load since issue 36: ServoDyn's file kind checks its
    laws)."""
    out: list[str] = []
    ed = _ed(deck)
    ed_name = Path(ed["file"]).name
    dofs = enabled_dofs(deck)
    for key, what in _FLEX_DOFS.items():
        if dofs[key]:
            out.append(f"{ed_name}: {key} = True ({what}): flexible DOFs are not supported")
    num_bl = _int(ed, "NumBl")
    if num_bl == 2:
        out.append(f"{ed_name}: NumBl = 2 (teetering two-bladed rotor geometry) is not supported")
        if dofs["TeetDOF"]:
            out.append(f"{ed_name}: TeetDOF = True (rotor teeter) is not supported")
    if _bool(ed, "Furling", False):
        out.append(f"{ed_name}: Furling = True (rotor/tail furl) is not supported")
    if dofs["YawDOF"] and _int(ed, "YawFrctMod", 0) != 0:
        out.append(
            f"{ed_name}: YawFrctMod = {_int(ed, 'YawFrctMod')} (yaw-bearing friction) is not "
            "supported"
        )
    return out


# --------------------------------------------------------------------------------------------------
# ElastoDyn mass properties
# --------------------------------------------------------------------------------------------------


def _point_inertia(m: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Inertia (3, 3) of point masses m (n,) at r (n, 3) about the origin: sum m (|r|^2 1 - r r^T)."""
    r2 = np.einsum("ni,ni->n", r, r)
    return np.einsum("n,ij->ij", m * r2, np.eye(3)) - np.einsum("n,ni,nj->ij", m, r, r)


def _shift_to_cm(inertia_o: np.ndarray, mass: float, cm: np.ndarray) -> np.ndarray:
    """Parallel-axis theorem: inertia about the CM from the inertia about the origin."""
    return inertia_o - mass * (cm @ cm * np.eye(3) - np.outer(cm, cm))


def _distributed(
    f: dict, frac_col: str, dens_col: str, count_key: str, what: str
) -> tuple[np.ndarray, np.ndarray]:
    tab = _find_table(f, [frac_col, dens_col], what)
    cols = _table_columns(f, tab, count_key, what)
    frac = np.asarray(cols[frac_col], dtype=float)
    dens = np.asarray(cols[dens_col], dtype=float)
    if frac.size < 1:
        raise CaseError(f"the {what} table is empty", field=count_key, file=f["file"])
    if np.any(np.diff(frac) <= 0.0) or abs(frac[0]) > 1e-9 or abs(frac[-1] - 1.0) > 1e-9:
        from floatwind.case.openfast.tower import _row_where

        bad = [k for k in range(1, frac.size) if frac[k] <= frac[k - 1]]
        k = 0 if abs(frac[0]) > 1e-9 else (bad[0] if bad else frac.size - 1)
        raise CaseError(
            f"{frac_col} must increase from 0 to 1, row {k + 1} has {frac[k]:g} "
            f"(all: {frac.tolist()})",
            field=frac_col,
            file=_row_where(f["file"], frac_col, k),
        )
    if np.any(dens < 0.0):
        raise CaseError(f"negative {dens_col} in the {what} table", field=dens_col, file=f["file"])
    return frac, dens


def elastodyn_mass_properties(
    deck: dict, *, nac_yaw: float | None = None, azimuth: float | None = None
) -> dict[str, Any]:
    """Rigid-body mass properties of the turbine, discretised as ElastoDyn does.

    ElastoDyn lumps the tower and each blade into point masses at equally spaced analysis nodes:
    tower node J at height ``TowerBsHt + (J - 1/2) DHNodes`` (``DHNodes = (TowerHt - TowerBsHt) /
    TwrNodes``) with mass ``AdjTwMa TMassDen(HNodesNorm) DHNodes``; blade node J at ``(J - 1/2)
    DRNodes`` from the root (``DRNodes = (TipRad - HubRad) / BldNodes``) along the coned pitch axis
    with mass ``AdjBlMs BMassDen(RNodesNorm) DRNodes`` (linear interpolation of the input stations,
    held constant outside them) plus ``TipMass`` at the tip. The nacelle is a point mass at
    (NacCMxn, NacCMyn, NacCMzn) from the tower top with only a yaw inertia ``NacYIner - NacMass
    (NacCMxn^2 + NacCMyn^2)`` about the vertical through its CM; the hub a point mass at ``HubCM``
    along the shaft from the rotor apex with only ``HubIner`` about the shaft; the generator is
    massless with ``GenIner`` about the shaft; the yaw bearing a point mass at the tower top; the
    platform a rigid body (PtfmMass, PtfmCM*, PtfmRIner/PIner/YIner, PtfmXYIner/YZIner/XZIner =
    -int(x y dm) ...). Rotor apex = tower top + Twr2Shft z_n + OverHang c1; shaft axis
    c1 = cos(ShftTilt) x_n + sin(ShftTilt) z_n; blade k azimuth = Azimuth - AzimB1Up +
    2 pi (k-1)/NumBl from the upward c2 = -sin(ShftTilt) x_n + cos(ShftTilt) z_n towards
    c3 = c1 x c2; coned blade axis i3 = sin(PreCone) c1 + cos(PreCone) (cos a c2 + sin a c3).

    Parameters
    ----------
    deck : dict
        From :func:`read_fst`.
    nac_yaw : float, optional
        Nacelle yaw (rad) of the configuration (default: the ElastoDyn initial NacYaw).
    azimuth : float, optional
        ElastoDyn ``Azimuth`` input value (rad; blade 1 is up when it equals AzimB1Up) of the
        configuration (default: the ElastoDyn initial Azimuth).

    Returns
    -------
    dict
        Platform frame, undisplaced, origin at the platform reference point (PRP); see
        ``docs/openfast_import.md`` for every key. Main entries: ``platform``, ``tower``,
        ``yaw_bearing``, ``nacelle``, ``hub``, ``generator``, ``blades`` (list), ``rotor``, ``rna``,
        ``total`` (``mass``, ``cm``, ``inertia_prp``, ``inertia_cm``), ``geometry``.

    Raises
    ------
    CaseError
        Missing or invalid ElastoDyn entries (negative masses, nacelle yaw inertia smaller than
        NacMass times the squared horizontal CM offset, tables that do not match their counts).
    """
    ed = _ed(deck)
    nb = _int(ed, "NumBl")
    ic = initial_conditions(deck)
    yaw = ic["NacYaw"] if nac_yaw is None else float(nac_yaw)
    az_in = ic["Azimuth"] if azimuth is None else float(azimuth)
    az1 = az_in - ic["AzimB1Up"]

    def nonneg(key: str, default: Any = ...) -> float:
        v = _float(ed, key, default)
        if v < 0.0:
            raise CaseError(f"must not be negative, got {v:g}", field=key, file=ed["file"])
        return v

    tip_rad = _float(ed, "TipRad")
    hub_rad = _float(ed, "HubRad")
    bld_flex = tip_rad - hub_rad
    if bld_flex <= 0.0:
        raise CaseError(
            f"TipRad ({tip_rad:g} m) must exceed HubRad ({hub_rad:g} m)",
            field="TipRad",
            file=ed["file"],
        )
    tower_ht = _float(ed, "TowerHt")
    tower_bs = _float(ed, "TowerBsHt")
    twr_flex = tower_ht - tower_bs
    if twr_flex <= 0.0:
        raise CaseError(
            f"TowerHt ({tower_ht:g} m) must exceed TowerBsHt ({tower_bs:g} m)",
            field="TowerHt",
            file=ed["file"],
        )
    bld_nodes = _int(ed, "BldNodes")
    twr_nodes = _int(ed, "TwrNodes")
    if bld_nodes < 1 or twr_nodes < 1:
        raise CaseError(
            "BldNodes and TwrNodes must be at least 1", field="BldNodes", file=ed["file"]
        )
    tilt = _float(ed, "ShftTilt") * _DEG
    precone = [_float(ed, f"PreCone({k})") * _DEG for k in range(1, nb + 1)]
    overhang = _float(ed, "OverHang")
    twr2shft = _float(ed, "Twr2Shft")
    hub_cm_d = _float(ed, "HubCM")
    nac_cm_n = np.array([_float(ed, "NacCMxn"), _float(ed, "NacCMyn"), _float(ed, "NacCMzn")])
    ref = np.array(
        [_float(ed, "PtfmRefxt", 0.0), _float(ed, "PtfmRefyt", 0.0), _float(ed, "PtfmRefzt")]
    )
    tip_mass = [nonneg(f"TipMass({k})") for k in range(1, nb + 1)]
    hub_mass = nonneg("HubMass")
    hub_iner = nonneg("HubIner")
    gen_iner = nonneg("GenIner")
    nac_mass = nonneg("NacMass")
    nac_yiner = nonneg("NacYIner")
    yaw_br_mass = nonneg("YawBrMass", 0.0)
    ptfm_mass = nonneg("PtfmMass")
    gb_ratio = _float(ed, "GBRatio")
    ptfm_iner = np.array(
        [
            [nonneg("PtfmRIner"), _float(ed, "PtfmXYIner", 0.0), _float(ed, "PtfmXZIner", 0.0)],
            [_float(ed, "PtfmXYIner", 0.0), nonneg("PtfmPIner"), _float(ed, "PtfmYZIner", 0.0)],
            [_float(ed, "PtfmXZIner", 0.0), _float(ed, "PtfmYZIner", 0.0), nonneg("PtfmYIner")],
        ]
    )
    nac_d2_iner = nac_yiner - nac_mass * (nac_cm_n[0] ** 2 + nac_cm_n[1] ** 2)
    if nac_d2_iner < 0.0:
        raise CaseError(
            f"NacYIner ({nac_yiner:g} kg m^2) must be at least NacMass*(NacCMxn^2 + NacCMyn^2) = "
            f"{nac_yiner - nac_d2_iner:g} kg m^2",
            field="NacYIner",
            file=ed["file"],
        )

    # frames (platform axes t; nacelle n = t yawed by NacYaw about z_t)
    cy, sy = math.cos(yaw), math.sin(yaw)
    x_n = np.array([cy, sy, 0.0])
    y_n = np.array([-sy, cy, 0.0])
    z_n = np.array([0.0, 0.0, 1.0])
    c1 = math.cos(tilt) * x_n + math.sin(tilt) * z_n
    c2 = -math.sin(tilt) * x_n + math.cos(tilt) * z_n
    c3 = np.cross(c1, c2)

    # key points, relative to the PRP
    tower_top = np.array([0.0, 0.0, tower_ht]) - ref
    tower_base = np.array([0.0, 0.0, tower_bs]) - ref
    apex = tower_top + twr2shft * z_n + overhang * c1
    nac_cm = tower_top + nac_cm_n[0] * x_n + nac_cm_n[1] * y_n + nac_cm_n[2] * z_n
    hub_cm = apex + hub_cm_d * c1

    # tower
    twr = deck["ElastoDyn_tower"]
    adj_tw = _float(twr, "AdjTwMa", 1.0)
    h_frac, t_dens = _distributed(twr, "HtFract", "TMassDen", "NTwInpSt", "distributed tower")
    dh = twr_flex / twr_nodes
    h_nodes = dh * (np.arange(twr_nodes) + 0.5)
    m_twr = adj_tw * np.interp(h_nodes / twr_flex, h_frac, t_dens) * dh
    r_twr = tower_base + np.outer(h_nodes, z_n)
    twr_mass = float(m_twr.sum())
    twr_cm = (m_twr @ r_twr) / twr_mass if twr_mass > 0.0 else tower_base + 0.5 * twr_flex * z_n
    twr_iner_cm = _point_inertia(m_twr, r_twr - twr_cm)

    # blades
    dr = bld_flex / bld_nodes
    r_nodes = dr * (np.arange(bld_nodes) + 0.5)
    blades = []
    rot_iner = hub_iner  # ElastoDyn Hubg1Iner = HubIner for a 3-bladed rotor
    rot_mass = hub_mass
    for k in range(nb):
        bf = deck["ElastoDyn_blades"][k]
        adj_bl = _float(bf, "AdjBlMs", 1.0)
        b_frac, b_dens = _distributed(bf, "BlFract", "BMassDen", "NBlInpSt", "distributed blade")
        m_nodes = adj_bl * np.interp(r_nodes / bld_flex, b_frac, b_dens) * dr
        s = np.append(r_nodes, bld_flex)  # tip mass at the tip
        m = np.append(m_nodes, tip_mass[k])
        mass = float(m.sum())
        first = float(m @ s)
        second = float(m @ (s * s))
        cg = first / mass if mass > 0.0 else 0.0
        a_k = az1 + 2.0 * math.pi * k / nb
        g3 = math.cos(a_k) * c2 + math.sin(a_k) * c3
        i3 = math.sin(precone[k]) * c1 + math.cos(precone[k]) * g3
        root = apex + hub_rad * i3
        pts = root + np.outer(s, i3)
        i_t = second - mass * cg * cg
        cm = root + cg * i3
        rot_mass += mass
        rot_iner += (second + mass * hub_rad * (2.0 * cg + hub_rad)) * math.cos(precone[k]) ** 2
        blades.append(
            {
                "mass": mass,
                "first_moment": first,
                "second_moment": second,
                "cm_from_root": cg,
                "cm_blade_frame": np.array([0.0, 0.0, cg]),
                "inertia_cm_blade_frame": np.diag([i_t, i_t, 0.0]),
                "precone": precone[k],
                "azimuth": a_k,
                "root": root,
                "axis": i3,
                "cm": cm,
                "inertia_cm": i_t * (np.eye(3) - np.outer(i3, i3)),
                "node_radius": s,
                "node_mass": m,
                "_points": pts,
            }
        )

    rna_mass = rot_mass + nac_mass + yaw_br_mass
    # every lumped mass of the assembly, relative to the PRP
    pts_all = [r_twr, tower_top[None], nac_cm[None], hub_cm[None]]
    m_all = [m_twr, np.array([yaw_br_mass]), np.array([nac_mass]), np.array([hub_mass])]
    for b in blades:
        pts_all.append(b["_points"])
        m_all.append(b["node_mass"])
    ptfm_cm = (
        np.array([_float(ed, "PtfmCMxt", 0.0), _float(ed, "PtfmCMyt", 0.0), _float(ed, "PtfmCMzt")])
        - ref
    )
    r_pts = np.vstack(pts_all)
    m_pts = np.concatenate(m_all)
    nac_iner_cm = nac_d2_iner * np.outer(z_n, z_n)
    hub_iner_cm = hub_iner * np.outer(c1, c1)
    gen_iner_t = gen_iner * np.outer(c1, c1)

    total_mass = float(m_pts.sum() + ptfm_mass)
    total_cm = (m_pts @ r_pts + ptfm_mass * ptfm_cm) / total_mass
    inertia_prp = (
        _point_inertia(m_pts, r_pts)
        + _point_inertia(np.array([ptfm_mass]), ptfm_cm[None])
        + ptfm_iner
        + nac_iner_cm
        + hub_iner_cm
        + gen_iner_t
    )
    inertia_prp = 0.5 * (inertia_prp + inertia_prp.T)  # exact symmetry (round-off otherwise)
    inertia_cm = _shift_to_cm(inertia_prp, total_mass, total_cm)
    inertia_cm = 0.5 * (inertia_cm + inertia_cm.T)

    rna_pts = np.vstack(pts_all[1:])
    rna_m = np.concatenate(m_all[1:])
    rna_cm = (rna_m @ rna_pts) / rna_mass if rna_mass > 0.0 else tower_top
    rot_pts = np.vstack([hub_cm[None], *[b["_points"] for b in blades]])
    rot_m = np.concatenate([[hub_mass], *[b["node_mass"] for b in blades]])
    rot_cm = (rot_m @ rot_pts) / rot_mass if rot_mass > 0.0 else apex
    for b in blades:
        del b["_points"]

    return {
        "frame": "platform axes, undisplaced, origin at the platform reference point (PRP)",
        "configuration": {"nac_yaw": yaw, "azimuth": az_in},
        "platform": {"mass": ptfm_mass, "cm": ptfm_cm, "inertia_cm": ptfm_iner},
        "tower": {
            "mass": twr_mass,
            "cm": twr_cm,
            "inertia_cm": twr_iner_cm,
            "base": tower_base,
            "top": tower_top,
            "node_height": h_nodes,
            "node_mass": m_twr,
        },
        "yaw_bearing": {"mass": yaw_br_mass, "cm": tower_top.copy()},
        "nacelle": {
            "mass": nac_mass,
            "cm": nac_cm,
            "yaw_inertia_cm": nac_d2_iner,
            "yaw_inertia_tower_axis": nac_yiner,
            "inertia_cm": nac_iner_cm,
        },
        "hub": {
            "mass": hub_mass,
            "cm": hub_cm,
            "inertia_shaft": hub_iner,
            "inertia_cm": hub_iner_cm,
        },
        "generator": {"inertia_hss": gen_iner, "gearbox_ratio": gb_ratio, "inertia": gen_iner_t},
        "blades": blades,
        "rotor": {
            "mass": rot_mass,
            "inertia_shaft": rot_iner,
            "cm": rot_cm,
            "apex": apex,
            "shaft_axis": c1,
            "spin_momentum_coefficient": rot_iner + gb_ratio * gen_iner,
        },
        "rna": {"mass": rna_mass, "cm": rna_cm},
        "total": {
            "mass": total_mass,
            "cm": total_cm,
            "inertia_prp": inertia_prp,
            "inertia_cm": inertia_cm,
        },
        "geometry": {
            "hub_height": tower_ht + twr2shft + overhang * math.sin(tilt),
            "tower_flexible_length": twr_flex,
            "blade_flexible_length": bld_flex,
            "shaft_tilt": tilt,
            "precone": precone,
            "overhang": overhang,
            "twr2shft": twr2shft,
            "hub_radius": hub_rad,
            "tip_radius": tip_rad,
            "platform_reference": ref,
        },
    }


# ---------------------------------------------------------------------------------- the table

_TEETER = "used only for a two-bladed teetering rotor (NumBl = 2 is refused)"
_FLEX_BLADE = (
    "blade structural stiffness/damping/mode shape: acts only through the flexible blade DOFs "
    "(FlapDOF1/2, EdgeDOF), which are refused; floatwind's blades are rigid"
)
_FLEX_TOWER = (
    "tower structural stiffness/damping/mode shape: the tower modes (TwFADOF1/2, TwSSDOF1/2) "
    "as DOFs (floatwind.case.openfast.tower)"
)
_YAWFRIC = (
    "yaw-bearing friction coefficient, used only with YawFrctMod != 0 (refused with YawDOF on)"
)
_RIGID_SHAPE = _FLEX_BLADE

_SETTINGS = {
    "ElastoDyn": {
        "Echo": N("echo of the input file"),
        "Method": N(
            "ElastoDyn's own time integrator (RK4/AB4/ABM4); floatwind uses RK4 (simulation.integrator)"
        ),
        "DT": N("ElastoDyn's own time step; floatwind steps with simulation.dt"),
        "Gravity": M("environment.gravity (decks before OpenFAST 3.5)"),
        "FlapDOF1": R("FlapDOF1 = False (rigid blades)", eq(False), "True"),
        "FlapDOF2": R("FlapDOF2 = False (rigid blades)", eq(False), "True"),
        "EdgeDOF": R("EdgeDOF = False (rigid blades)", eq(False), "True"),
        "PitchDOF": R("PitchDOF = False (no blade-pitch actuator DOF)", eq(False), "True"),
        "TeetDOF": I(_TEETER),
        "DrTrDOF": R("DrTrDOF = False (rigid drivetrain)", eq(False), "True"),
        "GenDOF": CORE(),
        "YawDOF": CORE(),
        "TwFADOF1": M("tower bending mode as a DOF (issue 37, floatwind.multibody.flex_dynamics)"),
        "TwFADOF2": M("tower bending mode as a DOF (issue 37, floatwind.multibody.flex_dynamics)"),
        "TwSSDOF1": M("tower bending mode as a DOF (issue 37, floatwind.multibody.flex_dynamics)"),
        "TwSSDOF2": M("tower bending mode as a DOF (issue 37, floatwind.multibody.flex_dynamics)"),
        **{
            k: R(
                f"{k} = True (floatwind's base body has six free DOFs)",
                eq(True),
                "False",
                checked_by="importer._screen",
            )
            for k in ("PtfmSgDOF", "PtfmSwDOF", "PtfmHvDOF", "PtfmRDOF", "PtfmPDOF", "PtfmYDOF")
        },
        "OoPDefl": R("OoPDefl = 0 (rigid blades: no initial deflection)", eq(0), "1.5"),
        "IPDefl": R("IPDefl = 0 (rigid blades: no initial deflection)", eq(0), "1.5"),
        "BlPitch(k)": M(
            "initial blade pitch: joint pitch1 of blade 1 (--split) and info.blade_pitch0; the "
            "blade masses lie on the pitch axes, so the pitch of blades 2.. moves no mass"
        ),
        "TeetDefl": I(_TEETER),
        "Azimuth": M("initial rotor azimuth: shaft joint q0 (or the locked rotor's mass layout)"),
        "RotSpeed": M("shaft joint constant_rate (and the generator joint at GBRatio times it)"),
        "NacYaw": M("yaw joint q0 (or the locked nacelle's mass layout)"),
        "TTDspFA": M("initial fore-aft tower-top deflection: the first fore-aft mode's coordinate"),
        "TTDspSS": M("initial side-side tower-top deflection: the first side-side mode's one"),
        "PtfmSurge": M("initial.displacement[0]"),
        "PtfmSway": M("initial.displacement[1]"),
        "PtfmHeave": M("initial.displacement[2]"),
        "PtfmRoll": M("initial.angles (Z-Y-X converted to 1-2-3 through the rotation matrix)"),
        "PtfmPitch": M("initial.angles (Z-Y-X converted to 1-2-3 through the rotation matrix)"),
        "PtfmYaw": M("initial.angles (Z-Y-X converted to 1-2-3 through the rotation matrix)"),
        "NumBl": M("number of blade bodies / lumped blade masses", eq(3), "NumBl = 3", "2"),
        "TipRad": M("blade length (mass discretisation, geometry)"),
        "HubRad": M("blade-root position (mass discretisation, geometry)"),
        "PreCone(k)": M("blade axes (mass distribution, pitch-joint orientation)"),
        "HubCM": M("hub point-mass position"),
        "UndSling": I(_TEETER),
        "Delta3": I(_TEETER),
        "AzimB1Up": M("azimuth reference of blade 1 (shaft joint q0)"),
        "OverHang": M("rotor apex position"),
        "ShftGagL": N("shaft strain-gage location (output)"),
        "ShftTilt": M("shaft axis c1 (rotor/generator joints, mass layout)"),
        "NacCMxn": M("nacelle point-mass position"),
        "NacCMyn": M("nacelle point-mass position"),
        "NacCMzn": M("nacelle point-mass position"),
        "NcIMUxn": N("nacelle IMU location (output)"),
        "NcIMUyn": N("nacelle IMU location (output)"),
        "NcIMUzn": N("nacelle IMU location (output)"),
        "Twr2Shft": M("rotor apex height above the tower top"),
        "TowerHt": M("tower-top height (yaw joint position, tower masses)"),
        "TowerBsHt": M("tower-base height (tower masses, tower joint with --split)"),
        "PtfmCMxt": M("platform CM"),
        "PtfmCMyt": M("platform CM"),
        "PtfmCMzt": M("platform CM"),
        "PtfmRefxt": M("reference_point (PRP)"),
        "PtfmRefyt": M("reference_point (PRP)"),
        "PtfmRefzt": M("reference_point (PRP)"),
        "TipMass(k)": M("blade tip point mass"),
        "PBrIner(k)": R(
            "PBrIner = 0 (floatwind's blades have no inertia about their pitch axis)", eq(0), "100"
        ),
        "BlPIner(k)": R(
            "BlPIner = 0 (floatwind's blades have no inertia about their pitch axis)", eq(0), "100"
        ),
        "HubMass": M("hub point mass (rotor body)"),
        "HubIner": M("hub inertia about the shaft (rotor body)"),
        "HubIner_Teeter": I(_TEETER),
        "GenIner": CORE(),
        "NacMass": M("nacelle point mass"),
        "NacYIner": M("nacelle yaw inertia"),
        "YawBrMass": M("yaw-bearing point mass at the tower top"),
        "PtfmMass": M("platform mass"),
        "PtfmRIner": M("platform inertia"),
        "PtfmPIner": M("platform inertia"),
        "PtfmYIner": M("platform inertia"),
        "PtfmXYIner": M("platform inertia"),
        "PtfmYZIner": M("platform inertia"),
        "PtfmXZIner": M("platform inertia"),
        "BldNodes": M("blade mass discretisation (ElastoDyn's lumped nodes)"),
        "BldFile(k)": M("blade file read: blade masses"),
        "TeetMod": I(_TEETER),
        "TeetDmpP": I(_TEETER),
        "TeetDmp": I(_TEETER),
        "TeetCDmp": I(_TEETER),
        "TeetSStP": I(_TEETER),
        "TeetHStP": I(_TEETER),
        "TeetSSSp": I(_TEETER),
        "TeetHSSp": I(_TEETER),
        "YawFrctMod": R(
            "YawFrctMod = 0 when YawDOF = True (no yaw-bearing friction)",
            lambda v, ctx: same(v, 0) or not ctx.v("ElastoDyn", "YawDOF", False),
            "1",
            deck="ref03_yaw_spin",
        ),
        "M_CSmax": I(_YAWFRIC),
        "M_FCSmax": I(_YAWFRIC),
        "M_MCSmax": I(_YAWFRIC),
        "M_CD": I(_YAWFRIC),
        "M_FCD": I(_YAWFRIC),
        "M_MCD": I(_YAWFRIC),
        "sig_v": I(_YAWFRIC),
        "sig_v2": I(_YAWFRIC),
        "OmgCut": I(_YAWFRIC),
        "GBoxEff": CORE(),
        "GBRatio": CORE(),
        "DTTorSpr": CORE(),
        "DTTorDmp": CORE(),
        "Furling": R("Furling = False", eq(False), "True"),
        "FurlFile": I("read only with Furling = True (refused)"),
        "TwrNodes": M("tower mass discretisation (ElastoDyn's lumped nodes)"),
        "TwrFile": M("tower file read: tower masses"),
        "SumPrint": N(OUT),
        "OutFile": N(OUT),
        "TabDelim": N(OUT),
        "OutFmt": N(OUT),
        "TStart": N("start time of the tabular output"),
        "DecFact": N(OUT),
        "NTwGages": M("tower strain gages: TwHt# channels of a flexible tower (issue 37)"),
        "TwrGagNd": M("tower strain gage nodes: TwHt# channels of a flexible tower"),
        "NBlGages": N("blade strain gages (output)"),
        "BldGagNd": N("blade strain gages (output)"),
        "BldNd_BladesOut": N("nodal output"),
        "BldNd_BlOutNd": N("nodal output"),
    },
    "ElastoDyn_blade": {
        "NBlInpSt": M("rows of the distributed blade table (blade masses)"),
        "BldFlDmp(k)": I(_FLEX_BLADE),
        "BldEdDmp(k)": I(_FLEX_BLADE),
        "FlStTunr(k)": I(_FLEX_BLADE),
        "AdjBlMs": M("blade mass factor (blade masses)"),
        "AdjFlSt": I(_FLEX_BLADE),
        "AdjEdSt": I(_FLEX_BLADE),
        "BldFl1Sh(k)": I(_RIGID_SHAPE),
        "BldFl2Sh(k)": I(_RIGID_SHAPE),
        "BldEdgSh(k)": I(_RIGID_SHAPE),
    },
    "ElastoDyn_tower": {
        "NTwInpSt": M("rows of the distributed tower table (tower masses)"),
        "TwrFADmp(k)": M(_FLEX_TOWER),
        "TwrSSDmp(k)": M(_FLEX_TOWER),
        "FAStTunr(k)": M(_FLEX_TOWER),
        "SSStTunr(k)": M(_FLEX_TOWER),
        "AdjTwMa": M("tower mass factor (tower masses)"),
        "AdjFASt": M(_FLEX_TOWER),
        "AdjSSSt": M(_FLEX_TOWER),
        "TwFAM1Sh(k)": M(_FLEX_TOWER),
        "TwFAM2Sh(k)": M(_FLEX_TOWER),
        "TwSSM1Sh(k)": M(_FLEX_TOWER),
        "TwSSM2Sh(k)": M(_FLEX_TOWER),
    },
}

#: columns of the distributed blade and tower properties
_COLUMNS = {
    "ElastoDyn_blade": {
        "BlFract": M("stations of the blade mass distribution"),
        "BMassDen": M("blade mass per length (lumped blade masses)"),
        "StrcTwst": I(_FLEX_BLADE),
        "FlpStff": I(_FLEX_BLADE),
        "EdgStff": I(_FLEX_BLADE),
        "PitchAxis": I(
            "position of the pitch axis on the chord: used by AeroDyn/BeamDyn only; ElastoDyn's blade masses lie on the pitch axis"
        ),
        "FlpIner": I(_FLEX_BLADE),
        "EdgIner": I(_FLEX_BLADE),
        "PrecrvRef": I(_FLEX_BLADE),
        "PreswpRef": I(_FLEX_BLADE),
        "FlpcgOf": I(_FLEX_BLADE),
        "EdgcgOf": I(_FLEX_BLADE),
        "FlpEAOf": I(_FLEX_BLADE),
        "EdgEAOf": I(_FLEX_BLADE),
    },
    "ElastoDyn_tower": {
        "HtFract": M("stations of the tower mass distribution"),
        "TMassDen": M("tower mass per length (lumped tower masses)"),
        "TwFAStif": M(_FLEX_TOWER),
        "TwSSStif": M(_FLEX_TOWER),
        "TwGJStif": M(_FLEX_TOWER),
        "TwEAStif": M(_FLEX_TOWER),
        "TwFAIner": M(_FLEX_TOWER),
        "TwSSIner": M(_FLEX_TOWER),
        "TwFAcgOf": M(_FLEX_TOWER),
        "TwSScgOf": M(_FLEX_TOWER),
    },
}

FILE_KIND = FileKind(
    "ElastoDyn",
    __name__,
    settings=_SETTINGS,
    columns=_COLUMNS,
    files={
        "ElastoDyn": "ElastoDyn",
        "ElastoDyn_blades": "ElastoDyn_blade",
        "ElastoDyn_tower": "ElastoDyn_tower",
    },
    check=_refusals,
)
