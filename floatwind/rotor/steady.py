"""Steady performance of a rigid rotor through the compiled BEMT kernel (``floatwind._kernels.bemt``).

The rotor turns at a constant speed in a steady wind along +x, uniform or with a power-law
shear, its shaft tilted by ``tilt`` (positive: the downwind end of the shaft lower, the rotor
facing up, ElastoDyn's ``ShftTilt = -tilt``), its blades coned by ``precone`` (negative:
upwind, as ElastoDyn's PreCone). The loads are averaged over ``n_sectors`` azimuths of a blade
(CCBlade's ``nSector`` averaging; one sector is exact for axial uniform inflow) and multiplied
by the number of blades.

The element inputs are built as AeroDyn's ``SetInputsForBEMT`` builds them (the kernel's
docstring lists them): the node's aerodynamic centre at ``(BlCrvAC, BlSwpAC, HubRad + BlSpn)``
in the coned root frame (x out of plane downwind, y towards the trailing edge, z along the
pitch axis), its velocity ``Omega x_shaft x r``, the relative wind projected on the root
frame's x and y axes, the skew angle and azimuths from the inflow averaged over all nodes.
The per-length loads vary linearly between the nodes and are integrated exactly along each
blade (element length = distance between its nodes), as AeroDyn's line-to-point load mapping
of the rotor loads does: the trapezoidal rule for the forces, the product of the linear
position and the linear force for their moment (checked against ref09's RtAeroFxh and
RtAeroMxh to 3e-7).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from floatwind._kernels import bemt as _k
from floatwind.errors import CaseError
from floatwind.rotor.airfoils import AirfoilTables
from floatwind.rotor.blade import BladeGeometry
from floatwind.rotor.options import BemtOptions

__all__ = ["Performance", "blade_resultant", "performance", "rotor_loads"]


class Performance(NamedTuple):
    """Rotor coefficients over a grid: arrays of shape (n_tsr, n_pitch) (ROSCO's layout:
    rows TSR, columns pitch)."""

    tsr: np.ndarray  # (n_tsr,)
    pitch: np.ndarray  # (n_pitch,) rad
    cp: np.ndarray  # power coefficient P / (rho/2 A V^3)
    ct: np.ndarray  # thrust coefficient T / (rho/2 A V^2) (T along the shaft)
    cq: np.ndarray  # torque coefficient Q / (rho/2 A V^2 R)
    status: np.ndarray  # (n_tsr, n_pitch) int: status bits of the kernel (0 ok)


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


def blade_resultant(
    pos: np.ndarray, force: np.ndarray, moment: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Resultant force and moment about the origin of per-length loads along blades, as
    AeroDyn's line-to-point load mapping gives them (its RtAero* channels).

    Parameters
    ----------
    pos : (nb, nn, 3) m
        Node positions (relative to the point the moment is taken about).
    force, moment : (nb, nn, 3) N/m, N m/m
        Per-length force and moment at the nodes, varying linearly along each element.

    Returns
    -------
    (nb, 3) force and (nb, 3) moment of each blade. The force is the trapezoidal rule with the
    element lengths ``|pos_j+1 - pos_j|``; the moment integrates the product of the linear
    position and the linear force exactly, ``L [p_a x f_a + (p_a x df + dp x f_a)/2 +
    dp x df/3]`` per element, plus the trapezoidal integral of ``moment`` (the trapezoidal rule
    on ``pos x force`` is 8e-4 off ref09's RtAeroMxh; this is 3e-7 off).
    """
    pa, pb = pos[:, :-1], pos[:, 1:]
    dp = pb - pa
    ds = np.linalg.norm(dp, axis=2)[..., None]
    fa, fb = force[:, :-1], force[:, 1:]
    df = fb - fa
    f_tot = np.sum(0.5 * (fa + fb) * ds, axis=1)
    m_f = np.cross(pa, fa) + 0.5 * (np.cross(pa, df) + np.cross(dp, fa)) + np.cross(dp, df) / 3.0
    m_tot = np.sum(ds * m_f, axis=1) + np.sum(0.5 * (moment[:, :-1] + moment[:, 1:]) * ds, axis=1)
    return f_tot, m_tot


def rotor_loads(
    blade: BladeGeometry,
    airfoils: AirfoilTables,
    options: BemtOptions,
    *,
    hub_radius: float,
    precone: float,
    wind_speed: float,
    omega: float,
    pitch: float,
    tilt: float = 0.0,
    shear_exp: float = 0.0,
    hub_height: float = 90.0,
    n_sectors: int = 1,
) -> dict[str, Any]:
    """Thrust along the shaft (N), torque about it (N m), power (W) and the element outputs
    ``out`` (n_sectors, nn, N_OUT) of the rotor at one operating point: ``omega`` (rad/s,
    about the downwind shaft), collective ``pitch`` (rad), wind ``wind_speed`` at
    ``hub_height`` (m) with shear exponent ``shear_exp``."""
    if int(n_sectors) != n_sectors or n_sectors < 1:
        raise CaseError(f"n_sectors must be a positive integer, not {n_sectors}", field="n_sectors")
    ns, nn = int(n_sectors), blade.n_nodes
    st, ct = math.sin(tilt), math.cos(tilt)
    x_s = np.array([ct, 0.0, -st])  # shaft, downwind
    y_s = np.array([0.0, 1.0, 0.0])
    z_s = np.array([st, 0.0, ct])
    sb, cb = math.sin(precone), math.cos(precone)
    local = blade.root_frame_positions(hub_radius)
    pos = np.empty((ns, nn, 3))
    frames = np.empty((ns, 3, 3))  # rows: x_r, y_r, z_r of each sector's blade
    for i in range(ns):
        psi = 2.0 * math.pi * i / ns
        e_r = math.cos(psi) * z_s - math.sin(psi) * y_s
        x_r = cb * x_s - sb * e_r
        z_r = sb * x_s + cb * e_r
        y_r = np.cross(z_r, x_r)
        frames[i] = (x_r, y_r, z_r)
        pos[i] = local @ frames[i]
    height = hub_height + pos[..., 2]
    if shear_exp != 0.0 and np.any(height <= 0.0):
        raise CaseError("a blade node is below the ground for the sheared wind", field="hub_height")
    u = (
        wind_speed * (height / hub_height) ** shear_exp
        if shear_exp != 0.0
        else np.full(height.shape, wind_speed)
    )
    rel = np.zeros((ns, nn, 3))
    rel[..., 0] = u
    rel -= omega * np.cross(x_s, pos)
    vx = np.einsum("knc,kc->kn", rel, frames[:, 0])
    vy = np.einsum("knc,kc->kn", rel, frames[:, 1])
    r_local = np.linalg.norm(pos - (pos @ x_s)[..., None] * x_s, axis=2)
    # AeroDyn SetInputsForBEMT: disk-averaged inflow (the wind over the sectors' nodes, the
    # node velocities of the B-blade rotor), skew angle, azimuths, TSR
    centre = np.zeros(3)
    for k in range(options.n_blades):
        psi = 2.0 * math.pi * k / options.n_blades
        e_r = math.cos(psi) * z_s - math.sin(psi) * y_s
        x_r, z_r = cb * x_s - sb * e_r, sb * x_s + cb * e_r
        centre += (local @ np.array([x_r, np.cross(z_r, x_r), z_r])).mean(axis=0)
    centre /= options.n_blades
    v_disk = np.array([u.mean(), 0.0, 0.0]) - omega * np.cross(x_s, centre)
    un = float(v_disk @ x_s)
    v_norm = float(np.linalg.norm(v_disk))
    chi0 = math.acos(min(1.0, max(-1.0, un / v_norm))) if v_norm > 0.0 else 0.0
    inplane = un * x_s - v_disk
    if np.linalg.norm(inplane) > 1e-12 * max(v_norm, 1.0):
        y_disk = _unit(inplane)
        z_disk = np.cross(v_disk, x_s) / np.linalg.norm(inplane)
    else:
        y_disk, z_disk = y_s, z_s
    psi_s = np.array([math.atan2(-frames[i, 2] @ y_disk, frames[i, 2] @ z_disk) for i in range(ns)])
    tsr_ad = abs(omega) * float(np.max(r_local)) / un if un != 0.0 else 0.0
    z_local, z_hub = blade.loss_distances(hub_radius)
    state = _k.bemt_state(ns, nn)
    out = np.empty((ns, nn, _k.N_OUT))
    sec = _k.Sections(
        chord=blade.chord,
        af_index=blade.af_index,
        z_local=np.ascontiguousarray(np.broadcast_to(z_local, (ns, nn))),
        z_hub=np.full(ns, z_hub),
    )
    inflow = _k.Inflow(
        theta=np.ascontiguousarray(np.broadcast_to(blade.twist + pitch, (ns, nn))),
        r_local=np.ascontiguousarray(r_local),
        vx=np.ascontiguousarray(vx),
        vy=np.ascontiguousarray(vy),
        chi0=float(chi0),
        psi=psi_s,
        tsr=float(tsr_ad),
    )
    status = _k.bemt_solve(options, airfoils, sec, inflow, state, out)
    # per-length force and moment (AeroDyn SetOutputsFromBEMT): FX x_hat - FY y_hat, MM z_hat
    force = out[..., _k.FX, None] * frames[:, None, 0] - out[..., _k.FY, None] * frames[:, None, 1]
    moment = out[..., _k.MM, None] * frames[:, None, 2]
    f_b, m_b = blade_resultant(pos, force, moment)
    thrust = float(np.mean(f_b @ x_s))
    torque = float(np.mean(m_b @ x_s))
    n_b = options.n_blades
    return {
        "thrust": n_b * thrust,
        "torque": n_b * torque,
        "power": n_b * torque * omega,
        "out": out,
        "status": int(status),
        "vx": vx,
        "vy": vy,
        "r_local": r_local,
        "chi0": chi0,
        "psi": psi_s,
    }


def performance(
    blade: BladeGeometry,
    airfoils: AirfoilTables,
    options: BemtOptions,
    *,
    hub_radius: float,
    precone: float,
    wind_speed: float,
    tsr: Any,
    pitch: Any,
    tilt: float = 0.0,
    shear_exp: float = 0.0,
    hub_height: float = 90.0,
    n_sectors: int = 1,
) -> Performance:
    """C_P, C_T and C_Q of a rigid rotor over a grid of tip-speed ratios and collective pitch
    angles (rad), through the same kernel as the time-domain rotor (see :func:`rotor_loads`).

    The reference radius is the tip radius ``R = hub_radius + span[-1]`` (AeroDyn's TipRad):
    ``tsr = Omega R / V`` (V at hub height) and the swept area ``pi R^2``. (CCBlade, and so
    ROSCO's Cp_Ct_Cq tables, take ``tsr`` with the same R but the area with
    ``R cos(precone)``.)
    """
    if not (wind_speed > 0.0 and math.isfinite(wind_speed)):
        raise CaseError(f"the wind speed must be > 0, not {wind_speed}", field="wind_speed")
    if np.any(blade.crv_ang != 0.0):
        raise CaseError(
            "BlCrvAng other than 0 is not supported by the steady rotor performance",
            field="BlCrvAng",
            file=blade.file,
        )
    tsrs = np.atleast_1d(np.asarray(tsr, dtype=float))
    pitches = np.atleast_1d(np.asarray(pitch, dtype=float))
    radius = hub_radius + float(blade.span[-1])
    area = math.pi * radius * radius
    q_v = 0.5 * options.rho * area * wind_speed * wind_speed
    cp = np.empty((tsrs.size, pitches.size))
    ct = np.empty_like(cp)
    cq = np.empty_like(cp)
    st = np.zeros(cp.shape, dtype=np.int64)
    for i, lam in enumerate(tsrs):
        omega = lam * wind_speed / radius
        for j, p in enumerate(pitches):
            r = rotor_loads(
                blade,
                airfoils,
                options,
                hub_radius=hub_radius,
                precone=precone,
                wind_speed=wind_speed,
                omega=omega,
                pitch=float(p),
                tilt=tilt,
                shear_exp=shear_exp,
                hub_height=hub_height,
                n_sectors=n_sectors,
            )
            ct[i, j] = r["thrust"] / q_v
            cq[i, j] = r["torque"] / (q_v * radius)
            cp[i, j] = r["power"] / (q_v * wind_speed)
            st[i, j] = r["status"]
    return Performance(tsrs, pitches, cp, ct, cq, st)
