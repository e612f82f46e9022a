"""Wang ch. II sec. D.2: yaw of the RNA after a 45 deg wind shift, with irregular wind and waves (Figs. 10-11).

cases/euler313_wang_ch2.yaml plus: JONSWAP sea Hs 5.0 m, Tp 11.2 s along -Y; turbulent wind 18.2 m/s
along -Y turning by 45 deg (heading -90 -> -45 deg) at 100 s; Morison on the hull
(C_m 2.0, C_a 1.0, C_d 0.6, Wang 2.51; the added mass on the inertia side); thrust from the C_T curve
with the relative wind (2.38, 2.50) and the rated torque M_windB (2.28) from the thrust load. The yaw
control waits 10 s, accelerates for 10 s, turns at a constant rate and decelerates for 10 s, turning
the RNA by 45 deg from 110 s to 260 s (Wang: "active from 110 seconds to about 260 seconds").
Checks: the precession angle phi changes by about 0.8 rad over the yaw (Fig. 10); M_gyroA is not zero
when the spin axis tilts (Fig. 11); the gyroscopic moments (2.30)-(2.32) equal the momentum cloud
core's (3.28) at the same states to 1e-6 relative.

    python validation/euler313/d2_yaw.py [--quick] [--out DIR]
"""

from __future__ import annotations

import sys

import numpy as np

try:
    from validation.euler313._common import Check, Outcome, case, cli, figure, model
except ModuleNotFoundError:  # run as a script
    import pathlib

    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))
    from validation.euler313._common import Check, Outcome, case, cli, figure, model

HULL = [
    {"end_a": [0.0, 0.0, -84.4], "end_b": [0.0, 0.0, -12.0], "diameter": 9.4},
    {"end_a": [0.0, 0.0, -12.0], "end_b": [0.0, 0.0, -4.0], "diameter_a": 9.4, "diameter_b": 6.5},
    {"end_a": [0.0, 0.0, -4.0], "end_b": [0.0, 0.0, 10.0], "diameter": 6.5},
]


def yaw_table(
    t_start: float, t_end: float, angle: float, ramp: float = 10.0, dt: float = 0.05
) -> dict:
    """Trapezoidal yaw rate: accelerate for ``ramp`` s, constant, decelerate for ``ramp`` s."""
    r = angle / (t_end - t_start - ramp)
    t = np.arange(0.0, t_end + 50.0, dt)
    a = np.where((t >= t_start) & (t < t_start + ramp), r / ramp, 0.0)
    a = np.where((t >= t_end - ramp) & (t < t_end), -r / ramp, a)
    rate = np.clip(np.where(t < t_start, 0.0, np.minimum(r, r * (t - t_start) / ramp)), 0.0, None)
    rate = np.where(t > t_end - ramp, np.clip(r * (t_end - t) / ramp, 0.0, None), rate)
    val = np.concatenate([[0.0], np.cumsum(0.5 * (rate[1:] + rate[:-1]) * dt)])
    return {"kind": "table", "time": t.tolist(), "values": val.tolist(), "rates": rate.tolist(),
            "accelerations": a.tolist()}  # fmt: skip


def run(out, quick: bool) -> Outcome:
    from floatwind.multibody import euler313 as e3
    from floatwind.multibody import mcm
    from floatwind.multibody.gyro import gyro_moment
    from floatwind.rotation import euler123_from_matrix, euler_rates_from_omega
    from floatwind.simulate import simulate

    res = Outcome("euler313 D.2 yaw after a 45 deg wind shift (Wang Figs. 10-11)")
    T, t_shift, t_yaw0, t_yaw1 = (80.0, 10.0, 20.0, 60.0) if quick else (320.0, 100.0, 110.0, 260.0)
    data = case(
        {
            "topology.yaw": yaw_table(t_yaw0, t_yaw1, np.pi / 4),
            "euler313.initial": {"angles": [0.0, 0.0, 0.0], "rates": [0.0, 0.0, 0.0]},
            "environment.waves": {"kind": "jonswap", "hs": 5.0, "tp": 11.2, "heading_deg": -90.0, "seed": 2013},
            "environment.wind": {
                "kind": "direction_shift", "speed": 18.2, "ref_height": 90.0, "heading_deg": -90.0,
                "shift_deg": 45.0, "time": t_shift, "ramp": 0.0,
                "base": {"kind": "kaimal", "speed": 18.2, "hub_height": 90.0, "heading_deg": -90.0,
                         "turbulence_class": "B", "ny": 5, "nz": 5, "width": 150.0, "height": 150.0,
                         "dt": 0.25, "seed": 2013},
            },
            "simulation": {"t_max": T, "dt": 0.05, "dt_out": 0.1, "integrator": "rk4"},
        }
    )  # fmt: skip
    data["loads"] += [
        {"type": "morison", "body": "tower", "cd": 0.6, "cm": 2.0, "ca": 1.0, "strip_length": 4.0,
         "members": HULL},
        {"type": "thrust_ct", "body": "rna", "rotor_centre": [0.0, 0.0, 2.4], "shaft_axis": [0.0, -1.0, 0.0],
         "rotor_radius": 63.0, "ct_curve": "data/ct_curve_fig14.csv", "ct_mode": "variable",
         "rated_power": 5.0e6, "rotor_speed_rpm": 12.1, "spin_direction": -1},
    ]  # fmt: skip
    m = model(data, "d2_yaw")
    ds = simulate(m, progress=False)
    t = ds.time.values
    phi = np.unwrap(ds.phi.values)
    before = phi[(t >= t_yaw0 - 10.0) & (t <= t_yaw0)].mean()
    after = phi[t >= t_yaw1].mean()
    dphi = float(after - before)
    res.checks.append(
        Check(f"precession angle changes from 0 to about 0.8 rad between {t_yaw0:g} s and {t_yaw1:g} s (Fig. 10)",
              "mean phi after the yaw - mean phi in the 10 s before (rad)", dphi, "0.8 +- 0.15",
              abs(dphi - 0.8) <= 0.15)
    )  # fmt: skip
    gA, gC = ds.Mgyro313A.values, ds.Mgyro313C.values
    ratio = float(np.abs(gA).max() / np.abs(gC).max())
    res.checks.append(
        Check("M_gyroA is not zero when the spin axis tilts (Fig. 11)",
              "max |M_gyroA| / max |M_gyroC|", ratio, "> 0.05", ratio > 0.05)
    )  # fmt: skip
    # (2.30)-(2.32) against the momentum cloud core's (3.28) at the recorded states
    body = m.euler313
    tree = e3.mcm_tree(body)
    rel_err = 0.0
    scale = max(np.abs(gA).max(), np.abs(gC).max())
    for i in range(0, len(t), 10):
        ang = np.array([[ds.theta_1.values[i], ds.theta_2.values[i], ds.eta.values[i]]])
        # the recorded state in the chart the run used, rates from the earth-frame angular velocity
        w_g = np.array([[ds.omega_X.values[i], ds.omega_Y.values[i], ds.omega_Z.values[i]]])
        ch = np.array([1 if np.sin(ang[0, 0]) < e3.SIN_LEAVE else 0])
        a_c, _ = e3.convert_chart(ang, np.zeros((1, 3)), np.zeros(1, dtype=int), ch)
        rates = e3.rates_from_omega(a_c, np.einsum("bji,bj->bi", e3.xyz_frame(a_c, ch), w_g))
        st = e3.tower_kinematics(body, float(t[i]), a_c, rates, ch)
        M313 = ds.Mgyro313A.values[i] * st.A + ds.Mgyro313C.values[i] * st.C
        rel = mcm.relative_kinematics(tree, float(t[i]))
        md = mcm.mass_distribution(tree, rel)
        a123 = euler123_from_matrix(st.R_t)
        r123 = euler_rates_from_omega(a123, np.einsum("bji,bj->bi", st.R_t, st.w_t))
        q = np.concatenate([body.pivot_g[None], a123], 1)
        qd = np.concatenate([np.zeros((1, 3)), r123], 1)

        class Ev:
            pass

        ev = Ev()
        ev.rel, ev.kin = rel, mcm.body_kinematics(tree, float(t[i]), rel, md, q, qd)
        Mmcm = np.einsum("bij,bj->bi", ev.kin.R_b2g[:, 1], gyro_moment(tree, ev))
        rel_err = max(rel_err, float(np.abs(M313 + Mmcm).max() / scale))
    res.checks.append(
        Check("gyroscopic moments (2.30)-(2.32) = the momentum cloud core's (3.28) (opposite sense: on the RNA)",
              "max |M_gyro,313 + M_gyro,MCM| / max |M_gyro|", rel_err, "< 1e-6", rel_err < 1e-6)
    )  # fmt: skip
    yaw = np.array([m.euler313.yaw.evaluate(float(x))[0] for x in t])
    res.lines.append(
        f"phi {before:.3f} -> {after:.3f} rad (yaw 0 -> {yaw[-1]:.3f} rad); theta_1 max "
        f"{ds.theta_1.values.max():.3f} rad; max |MgyroA| {np.abs(gA).max():.3g}, max |MgyroC| "
        f"{np.abs(gC).max():.3g} N m"
    )
    res.figures.append(
        figure(out / "euler313_fig10.png", t,
               [("phi (rad)", [(phi, "precession"), (yaw, "yaw")]), ("theta (rad)", [(ds.theta.values, "")])],
               "Wang Fig. 10: precession of the RNA")
    )  # fmt: skip
    res.figures.append(
        figure(out / "euler313_fig11.png", t,
               [("M_gyroA (N m)", [(gA, "")]), ("M_gyroC (N m)", [(gC, "")])],
               "Wang Fig. 11: gyroscopic moments on the RNA (2.30), (2.32)")
    )  # fmt: skip
    return res


def main(argv=None) -> int:
    return cli(run, __doc__, argv)


if __name__ == "__main__":
    sys.exit(main())
