"""The baseline controller's design on a rotor's own steady operating points (issue 36;
docs/control.md "Holding +-10 % over region 3" and "Wind estimate and peak shaving"): the
pitch-loop gain schedule and floating feedback (``scheduled_gains``), the rotor's C_P/C_T table
(``rotor_cp_ct_table``), the torque-balance wind estimator's keys (``wind_estimator``) and the
peak-shaving minimum pitch (``peak_shaving``). Plain functions of the design, no load: the presets
of :mod:`floatwind.loads.servo` are built from them."""

from __future__ import annotations

import math
import pathlib

import numpy as np

__all__ = [
    "NREL5MW_BEM_OPERATING_POINTS",
    "peak_shaving",
    "rotor_cp_ct_table",
    "scheduled_gains",
    "wind_estimator",
]

RPM = math.pi / 30.0
#: the NREL 5-MW BEM rotor of ref09 (AeroDyn v15's blade and polars, precone -2.5 deg, tilt 5
#: deg) at rated speed (12.1 rpm) and rated mechanical power (VS_RtPwr): the wind (m/s), the
#: pitch that holds rated power there (deg), the power's sensitivity to the pitch dP/dtheta
#: (MW/rad) and to the wind at that pitch dP/dU (MW/(m/s)); floatwind's steady BEM
#: (benchmarks/control_pitch_sensitivity.py; from 14 m/s up within 3 % of the sensitivity
#: ROSCO's NREL 5-MW gain schedule implies, docs/control.md). Rated wind 11.4 m/s at 0 deg
#: (Jonkman et al. 2009).
NREL5MW_BEM_OPERATING_POINTS = (
    (11.4, 0.0, -9.88, 1.253), (11.6, 1.527, -9.88, 1.253), (12.0, 3.481, -18.49, 1.223),
    (12.5, 5.097, -24.62, 1.218), (13.0, 6.392, -29.50, 1.232), (14.0, 8.536, -37.50, 1.275),
    (15.0, 10.357, -44.36, 1.328), (16.0, 11.992, -50.52, 1.377), (17.0, 13.495, -57.94, 1.439),
    (18.0, 14.877, -64.59, 1.510), (19.0, 16.182, -71.86, 1.596), (20.0, 17.431, -77.52, 1.659),
    (21.0, 18.640, -81.35, 1.695), (22.0, 19.817, -86.42, 1.739), (23.0, 20.951, -93.75, 1.824),
    (24.0, 22.048, -99.88, 1.882), (25.0, 23.112, -107.40, 1.964),
)  # fmt: skip


def scheduled_gains(omega, zeta: float, fl_fraction: float, *,
                    hold_below: float = 12.0, fl_hold_below: float = 12.0,
                    points=NREL5MW_BEM_OPERATING_POINTS) -> dict:  # fmt: skip
    """The baseline controller's schedules designed on a rotor's operating points (ROSCO's
    tuning, Abbas et al. 2022, WES 7, 53-73, sec. 3; Jonkman et al. 2009 sec. 7.4 for the PI
    form): the pitch loop a second-order system of natural frequency ``omega`` (rad/s; or a list
    of (wind, omega) pairs, interpolated on the wind and held beyond: ROSCO's omega_pc schedule)
    and damping ``zeta`` at every wind, KP = 2 J W0 zeta omega / (N |dP/dtheta|), KI = J W0 omega^2
    / (N |dP/dtheta|) (J = 4.3784e7 kg m^2 on the LSS, W0 = 12.1 rpm, N = 97), on the pitch of
    rated power (held below ``hold_below`` m/s, where |dP/dtheta| falls to zero at rated); the
    operating point's table (pitch -> wind); the floating feedback ``fl_fraction`` times ROSCO's
    gain as ROSCO applies it: its Fl_Kp = (dtau/dv) / (dtau/dbeta) N (Abbas et al. 2022 sec.
    3.3; here (dP/dU) / (dP/dtheta), negative) enters its pitch command as -Fl_Kp times the
    tower-top fore-aft velocity (ROSCO Controllers.f90 ``FloatingFeedback``; record 53,
    downwind positive), so floatwind's ``fl_kp`` (times the hub's downwind velocity) is
    -fl_fraction (dP/dU) / (dP/dtheta), positive: the blades pitch to feather as the hub moves
    downwind; scheduled on the wind (held below ``fl_hold_below``)."""
    j, w0, n = 4.3784e7, 12.1 * math.pi / 30.0, 97.0
    gs = [r for r in points if r[0] >= hold_below]
    if isinstance(omega, (int, float)):
        om = [float(omega)] * len(gs)
    else:
        uw = np.array(omega, dtype=float).reshape(-1, 2)
        om = [float(np.interp(r[0], uw[:, 0], uw[:, 1])) for r in gs]
    fl = [r for r in points if r[0] >= fl_hold_below]
    return {
        "pc_gs_pitch": [math.radians(r[1]) for r in gs],
        "pc_gs_kp": [2.0 * j * w0 * zeta * o / (n * abs(r[2]) * 1e6) for r, o in zip(gs, om)],
        "pc_gs_ki": [j * w0 * o**2 / (n * abs(r[2]) * 1e6) for r, o in zip(gs, om)],
        "op_pitch": [math.radians(r[1]) for r in points],
        "op_wind": [r[0] for r in points],
        "fl_wind": [r[0] for r in fl],
        "fl_kp": [-fl_fraction * r[3] / r[2] for r in fl],
    }


_CP_CT_FILE = pathlib.Path(__file__).resolve().parents[1] / "data" / "nrel5mw_bem_cp_ct.txt"


def rotor_cp_ct_table(path=_CP_CT_FILE):
    """The C_P and C_T of ref09's NREL 5-MW BEM rotor over tip-speed ratio and collective pitch
    (``floatwind/data/nrel5mw_bem_cp_ct.txt``, written by benchmarks/control_rotor_table.py from
    floatwind's steady BEM; R = 63 m, area pi R^2): (tsr, pitch (rad), C_P, C_T), the tables one
    row per tip-speed ratio."""
    rows = [ln for ln in pathlib.Path(path).read_text().splitlines()
            if ln.strip() and not ln.startswith("#")]  # fmt: skip
    tsr = np.array(rows[0].split(), dtype=float)
    pitch = np.radians(np.array(rows[1].split(), dtype=float))
    n = len(tsr)
    cp = np.array([r.split() for r in rows[2:2 + n]], dtype=float)
    ct = np.array([r.split() for r in rows[2 + n:2 + 2 * n]], dtype=float)
    return tsr, pitch, cp, ct


def wind_estimator(gamma: float, *, path=_CP_CT_FILE) -> dict:
    """The torque-balance wind estimator's keys (ROSCO WE_Mode 1, Abbas et al. 2022 sec. 2.4.1)
    on this rotor's C_P table, adaptation gain ``gamma`` (m/s per rad/s of rotor speed; the
    estimate's error decays at gamma (dQ/dU) / J, dQ/dU ~ 1.0e6 N m s/m on this rotor from
    rated to 14 m/s: gamma 40 ~ 0.9 rad/s)."""
    tsr, pitch, cp, _ct = rotor_cp_ct_table(path)
    return {"we_gamma": float(gamma), "we_tsr": [float(x) for x in tsr],
            "we_pitch": [float(x) for x in pitch], "we_cp": [[float(x) for x in r] for r in cp],
            "we_radius": 63.0, "we_rho": 1.225, "op_pitch": None, "op_wind": None}  # fmt: skip


def peak_shaving(fraction: float, *, winds=None, tsr_opt: float = 7.5,
                 speed_min: float = 670.0 / 97.0 * RPM, path=_CP_CT_FILE,
                 points=NREL5MW_BEM_OPERATING_POINTS) -> dict:  # fmt: skip
    """The peak-shaving minimum pitch (ROSCO's PS_Mode; its toolbox's ``min_pitch_saturation``,
    Abbas et al. 2022 sec. 2.5) designed on this rotor's steady operating points: at each wind U
    the rotor at its operating speed (the tip-speed ratio ``tsr_opt`` of region 2 within
    ``speed_min`` .. 12.1 rpm) and pitch (0 below rated, the rated-power pitch of ``points``
    above), its thrust T(U) = 1/2 rho pi R^2 U^2 C_T(lambda, theta) from the C_T table; the
    thrust is capped at ``fraction`` of its largest value over the winds, and where T(U) exceeds
    the cap the minimum pitch is the pitch at which C_T at that tip-speed ratio falls to the cap;
    elsewhere the same construction gives a pitch below the operating one (inactive in steady
    wind, as ROSCO's curve), held at >= 0. Returns ``ps_wind``, ``ps_minpit`` (rad) and, for the record, ``thrust``
    (N, uncapped)."""
    tsr, pitch, _cp, ct = rotor_cp_ct_table(path)
    r, rho = 63.0, 1.225
    q = 0.5 * rho * math.pi * r * r
    ops = np.array(points, dtype=float)
    if winds is None:
        winds = [5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 10.5, 11.0] + [float(u) for u in ops[:, 0]]
    winds = np.array(winds, dtype=float)
    fine = np.radians(np.arange(-2.0, 30.0001, 0.01))

    def ct_at(lam, th):
        col = np.array([np.interp(lam, tsr, ct[:, j]) for j in range(len(pitch))])
        return np.interp(th, pitch, col)

    w0 = 12.1 * RPM
    lam = np.array([min(max(tsr_opt * u / r, speed_min), w0) * r / u for u in winds])
    th = np.radians(np.interp(winds, ops[:, 0], ops[:, 1], left=0.0))
    thrust = np.array([q * u * u * ct_at(lm, t) for u, lm, t in zip(winds, lam, th)])
    cap = fraction * thrust.max()
    minpit = []
    for u, lm in zip(winds, lam):
        below = np.where(ct_at(lm, fine) * q * u * u <= cap)[0]
        minpit.append(max(0.0, float(fine[below[0]])))
    return {"ps_wind": [float(u) for u in winds], "ps_minpit": minpit,
            "thrust": [float(x) for x in thrust]}  # fmt: skip
