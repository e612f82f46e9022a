"""Steady performance of a rigid rotor in uniform axial inflow through the compiled BEMT kernel.

The rotor has precone but no tilt, no yaw and no shear, so the inflow is axial (the skew angle
is zero) and every blade sees the same flow: one blade is solved and the loads are multiplied by
the number of blades. The element inputs are built as AeroDyn's ``SetInputsForBEMT`` builds them
(``floatwind._kernels.bemt`` documents them): the node's aerodynamic centre at
``(BlCrvAC, BlSwpAC, HubRad + BlSpn)`` in the coned root frame, its velocity ``Omega x r``, the
relative wind projected on the root frame's x (normal) and y (towards the trailing edge) axes.
The per-length loads are integrated along the blade by the trapezoidal rule between the nodes
(the length of each element is the distance between its nodes), as AeroDyn's line-to-point
load mapping of the blade mesh does for the rotor loads.
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

__all__ = ["Performance", "performance", "rotor_loads"]


class Performance(NamedTuple):
    """Rotor coefficients over a grid: arrays of shape (n_tsr, n_pitch) (ROSCO's layout:
    rows TSR, columns pitch)."""

    tsr: np.ndarray  # (n_tsr,)
    pitch: np.ndarray  # (n_pitch,) rad
    cp: np.ndarray  # power coefficient P / (rho/2 A V^3)
    ct: np.ndarray  # thrust coefficient T / (rho/2 A V^2)
    cq: np.ndarray  # torque coefficient Q / (rho/2 A V^2 R)
    status: np.ndarray  # (n_tsr, n_pitch) int: status bits of the kernel (0 ok)


def _element_inputs(
    blade: BladeGeometry, hub_radius: float, precone: float, wind_speed: float, omega: float
):
    """Hub-frame node positions and the kernel inputs of one blade at azimuth 0 (pointing up),
    the rotor turning about +x (downwind) at ``omega``."""
    sb, cb = math.sin(precone), math.cos(precone)
    # coned root frame in the hub frame (x downwind along the shaft, z up for blade 1)
    x_r = np.array([cb, 0.0, -sb])
    y_r = np.array([0.0, 1.0, 0.0])
    z_r = np.array([sb, 0.0, cb])
    local = blade.root_frame_positions(hub_radius)
    pos = local[:, :1] * x_r + local[:, 1:2] * y_r + local[:, 2:3] * z_r
    vel_node = omega * np.cross(np.array([1.0, 0.0, 0.0]), pos)
    rel = np.array([wind_speed, 0.0, 0.0]) - vel_node
    vx = rel @ x_r
    vy = rel @ y_r
    r_local = np.hypot(pos[:, 1], pos[:, 2])
    return pos, (x_r, y_r, z_r), vx, vy, r_local


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
) -> dict[str, Any]:
    """Thrust (N), torque (N m), power (W) and the element outputs ``out`` (1, nn, N_OUT) of
    the rotor at one operating point (``omega`` rad/s about the downwind shaft, ``pitch`` rad)."""
    pos, (x_r, y_r, z_r), vx, vy, r_local = _element_inputs(
        blade, hub_radius, precone, wind_speed, omega
    )
    nn = blade.n_nodes
    z_local, z_hub = blade.loss_distances(hub_radius)
    theta = (blade.twist + pitch)[None, :]
    # AeroDyn u%TSR = Omega rTipFix / Un_disk (Un_disk: the wind along the shaft)
    un_disk = wind_speed
    tsr_ad = abs(omega) * float(np.max(r_local)) / un_disk if un_disk != 0.0 else 0.0
    phi = np.zeros((1, nn))
    valid = np.ones((1, nn), dtype=np.bool_)
    out = np.empty((1, nn, _k.N_OUT))
    status = _k.bemt_solve(
        options,
        airfoils,
        np.ascontiguousarray(theta),
        blade.chord,
        blade.af_index,
        r_local[None, :],
        z_local[None, :],
        np.array([z_hub]),
        vx[None, :],
        vy[None, :],
        0.0,
        np.zeros(1),
        tsr_ad,
        phi,
        valid,
        out,
    )
    o = out[0]
    # per-length force and moment in the hub frame (AeroDyn SetOutputsFromBEMT)
    force = o[:, _k.FX, None] * x_r - o[:, _k.FY, None] * y_r
    moment = o[:, _k.MM, None] * z_r
    thrust_pl = force[:, 0]
    torque_pl = np.cross(pos, force)[:, 0] + moment[:, 0]
    ds = np.linalg.norm(np.diff(pos, axis=0), axis=1)
    n_b = options.n_blades
    thrust = n_b * float(np.sum(0.5 * (thrust_pl[1:] + thrust_pl[:-1]) * ds))
    torque = n_b * float(np.sum(0.5 * (torque_pl[1:] + torque_pl[:-1]) * ds))
    return {
        "thrust": thrust,
        "torque": torque,
        "power": torque * omega,
        "out": out,
        "status": int(status),
        "vx": vx,
        "vy": vy,
        "r_local": r_local,
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
) -> Performance:
    """C_P, C_T and C_Q of a rigid rotor in uniform axial wind over a grid of tip-speed ratios
    and collective pitch angles (rad), through the same kernel as the time-domain rotor.

    The reference radius is the tip radius ``R = hub_radius + span[-1]`` (AeroDyn's TipRad):
    ``tsr = Omega R / V`` and the swept area ``pi R^2`` (ROSCO's Cp_Ct_Cq tables use the same).
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
            )
            ct[i, j] = r["thrust"] / q_v
            cq[i, j] = r["torque"] / (q_v * radius)
            cp[i, j] = r["power"] / (q_v * wind_speed)
            st[i, j] = r["status"]
    return Performance(tsrs, pitches, cp, ct, cq, st)
