"""The aerodynamic power's sensitivity to collective pitch above rated on the BEM rotor of the
controlled ref09 model, against the plant the baseline controller's gains were designed for
(issue 36, docs/control.md "Why 20 %").

Jonkman et al. (2009, NREL/TP-500-38060, sec. 7.4) design the baseline pitch loop on a linear fit
of FAST's sensitivity, dP/dtheta = dP/dtheta(0) (1 + theta / theta_K) with dP/dtheta(0) =
-25.52e6 W/rad and theta_K = PC_KK = 6.302336 deg; the gains are KP = 2 J W0 zeta w_n / (N
|dP/dtheta(0)|), KI = J W0 w_n^2 / (N |dP/dtheta(0)|), scheduled by GK = 1 / (1 + theta / PC_KK)
(J = 4.3784e7 kg m^2 the drivetrain inertia on the LSS, W0 = 12.1 rpm, N = 97; the OC3-Hywind
detuning: w_n = 0.2 rad/s, zeta = 0.7). This script evaluates floatwind's steady BEM rotor (the
same kernel as the time-domain rotor: ref09's blade and polars, precone -2.5 deg, tilt 5 deg,
rated speed) at each wind speed's rated-power pitch, prints dP/dtheta there against that fit and
against the sensitivity implied by ROSCO's NREL 5-MW gain schedule (cases/control/
NREL5MW_ROSCO_DISCON.IN: KI = J w^2 / (N |dQ/dtheta|) with ROSCO's w = 0.6 rad/s, from its
CCBlade C_P surface), fits Jonkman's form to floatwind's values and prints the gains the same
design gives on this plant, and the closed-loop frequency and damping the published gains have
on it.

    PYTHONPATH=$PWD python benchmarks/control_pitch_sensitivity.py
"""

from __future__ import annotations

import math
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
REF09 = ROOT.parent / "shared" / "reference" / "openfast" / "ref09_aero_fixed_speed"
DISCON_IN = ROOT / "cases" / "control" / "NREL5MW_ROSCO_DISCON.IN"
W0 = 12.1 * math.pi / 30.0  # rad/s, rated rotor speed
P_RATED = 5296610.0  # W, VS_RtPwr (mechanical)
J, N = 4.3784e7, 97.0  # kg m^2 (Jonkman 2009 sec. 7.4), gearbox ratio
DPDT0, THETA_K = -25.52e6, math.radians(6.302336)  # Jonkman 2009's fit
OMEGA_ROSCO = 0.6  # rad/s: ROSCO's NREL 5-MW pitch-loop design frequency


def sensitivity(speeds):
    """(pitch (rad) at rated power, dP/dtheta (W/rad)) per wind speed at rated rotor speed."""
    sys.path.insert(0, str(ROOT / "tests"))
    from conftest import ref09_airfoil_paths

    from floatwind.io.aerodyn import read_airfoil, read_blade
    from floatwind.rotor import BladeGeometry, airfoil_tables, bemt_options, performance

    af = airfoil_tables([read_airfoil(p) for p in ref09_airfoil_paths(REF09)])
    blade = BladeGeometry.from_blade_file(read_blade(REF09 / "AeroDyn_blade.dat"), n_airfoils=8)
    radius = 1.5 + float(blade.span[-1])
    opt = bemt_options(ai_drag=True, ti_drag=True)

    def power(u, pitch):
        perf = performance(blade, af, opt, hub_radius=1.5, precone=math.radians(-2.5),
                           wind_speed=u, tsr=[W0 * radius / u], pitch=np.atleast_1d(pitch),
                           tilt=math.radians(5.0))  # fmt: skip
        return perf.cp[0] * 0.5 * opt.rho * math.pi * radius**2 * u**3

    out = []
    for u in speeds:
        grid = np.radians(np.arange(0.0, 30.0, 0.5))
        p = power(u, grid)
        i = np.where((p[:-1] >= P_RATED) & (p[1:] < P_RATED))[0]
        if not len(i):
            continue
        lo, hi = grid[i[0]], grid[i[0] + 1]
        for _ in range(40):  # bisection on the pitch of rated power
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if power(u, mid)[0] >= P_RATED else (lo, mid)
        th = 0.5 * (lo + hi)
        h = math.radians(0.1)
        pm, pp = power(u, [th - h, th + h])
        du = 0.05  # m/s: the wind at fixed pitch and rotor speed (the platform's relative wind)
        dpdu = (power(u + du, th)[0] - power(u - du, th)[0]) / (2.0 * du)
        out.append((u, th, (pp - pm) / (2.0 * h), dpdu))
    return out


def rosco_sensitivity(theta):
    """|dP/dtheta| implied by ROSCO's KI schedule at ``theta`` (rad)."""
    rows = {}
    for line in DISCON_IN.read_text().splitlines():
        parts = line.split("!")
        if len(parts) > 1 and parts[1].strip().split(" ")[0] in ("PC_GS_angles", "PC_GS_KI"):
            rows[parts[1].strip().split(" ")[0]] = np.array(parts[0].split(), float)
    ki = np.interp(theta, rows["PC_GS_angles"], np.abs(rows["PC_GS_KI"]))
    return W0 * J * OMEGA_ROSCO**2 / (N * ki)


def main() -> int:
    rows = sensitivity(np.arange(12.0, 25.5, 1.0))
    print(" U m/s  pitch deg   floatwind dP/dth   Jonkman fit   ratio   ROSCO-implied  ratio")
    for u, th, d, _ in rows:
        jf = DPDT0 * (1.0 + th / THETA_K)
        ro = -rosco_sensitivity(th)
        print(f"{u:6.1f} {math.degrees(th):9.2f} {d / 1e6:14.1f} MW/rad {jf / 1e6:9.1f} "
              f"{d / jf:8.3f} {ro / 1e6:12.1f} {d / ro:8.3f}")  # fmt: skip
    th = np.array([r[1] for r in rows])
    d = np.array([r[2] for r in rows])
    # least-squares fit of Jonkman's form: dP/dtheta = a + b theta, theta_K = a / b
    b, a = np.polyfit(th, d, 1)
    kk = a / b
    print(f"fit: dP/dtheta(0) = {a / 1e6:.2f} MW/rad, theta_K = {math.degrees(kk):.3f} deg "
          f"(Jonkman: {DPDT0 / 1e6:.2f} MW/rad, {math.degrees(THETA_K):.3f} deg)")  # fmt: skip
    for name, wn, zeta, kp, ki in (("oc3_hywind", 0.2, 0.7, 0.006275604, 0.0008965149),
                                   ("nrel5mw_onshore", 0.6, 0.7, 0.01882681, 0.008068634)):  # fmt: skip
        kp_new = 2.0 * J * W0 * zeta * wn / (N * abs(a))
        ki_new = J * W0 * wn**2 / (N * abs(a))
        print(f"{name}: the same design on this plant: pc_kp={kp_new:.6g} pc_ki={ki_new:.6g} "
              f"pc_kk_deg={math.degrees(kk):.4f}")  # fmt: skip
        for u, t, dd, _ in rows:
            if u in (14.0, 18.0, 22.0):
                gk = 1.0 / (1.0 + t / THETA_K)
                # the published gains on this plant: w^2 = N KI GK |dP/dth| / (J W0)
                w = math.sqrt(N * ki * gk * abs(dd) / (J * W0))
                z = N * kp * gk * abs(dd) / (2.0 * J * W0 * w)
                print(f"   {u:4.0f} m/s: published gains give w_n = {w:.3f} rad/s, zeta = "
                      f"{z:.3f} (design {wn}, {zeta})")  # fmt: skip
    # floating feedback that holds the aerodynamic torque when the rotor moves fore-aft at
    # fixed rotor speed (ROSCO's Fl_Mode tuning, Fl_Kp = (dQ/dU) / (dQ/dtheta)): in floatwind's
    # sign (fl_kp times the hub's downwind velocity, docs/control.md) fl_kp = dP/dU / dP/dtheta
    print("  U m/s   dP/dU MW/(m/s)   fl_kp holding the torque (rad per m/s)")
    for u, _, dd, dpdu in rows:
        print(f"{u:6.1f} {dpdu / 1e6:14.3f} {dpdu / dd:20.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
