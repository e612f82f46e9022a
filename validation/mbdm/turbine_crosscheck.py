"""The 3-body floating turbine in two formulations (issue 19, item 7): the momentum cloud core
(Wang ch. V: ``floatwind.multibody.mcm`` on a ``three_body`` tree) and the constrained MBDM
formulation of Leble's note (seed 001) built from its joint library — tower + hull as the free
base body, the nacelle on a revolute joint R (eq. 19) with a revolute driver RDRV (eqs. 22-27,
constant yaw rate), the rotor on a revolute joint with a driver (constant spin)
(``floatwind.multibody.mbdm.tree_model``) — under the same loads through the Load contract on
both sides: gravity (``loads.simple.Gravity``), a linear spring-damper restoring wrench with a
buoyancy-like f0 on the base (``LinearMatrices``, 6x6 stiffness and damping about the platform
reference point) and a constant thrust at the rotor apex (``ConstantForce``).

Both integrate with classical RK4 at the same step (MCM: the 12 base states, Wang 5.26, angles
1-2-3; MBDM: Baumgarte with eq. (67), alpha = beta = 10 1/s, 21 coordinates and 15 constraint
rows); the base body's CM position and rotation matrix are compared at every output time.
Criterion: the base motion agrees to 1e-6 (m and rad) over 60 s.

    python validation/mbdm/turbine_crosscheck.py -o DIR [--quick] [--dt 0.01]

Writes a PNG of the base motion and the differences, and report.txt, into DIR; prints the checks;
exit status 1 when a check fails. ``--quick``: 10 s.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time
from types import SimpleNamespace

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from validation.seed_cases._common import Check, Outcome, figure  # noqa: E402

#: loads and motions of the comparison (OC3-like numbers)
GRAVITY = 9.81  # m/s^2
STIFFNESS = np.diag([4.0e4, 4.0e4, 3.3e5, 1.5e9, 1.5e9, 1.0e8])  # N/m, N m/rad (earth frame)
DAMPING = np.diag([1.0e5, 1.0e5, 1.3e5, 2.0e8, 2.0e8, 1.0e7])  # N s/m, N m s/rad (body frame)
THRUST = 8.0e5  # N, along +x (downwind), at the rotor apex
YAW_RATE = np.radians(0.5)  # rad/s, nacelle yaw from 0
SPIN_RATE = 12.1 * np.pi / 30.0  # rad/s, rotor speed (12.1 rpm)
#: initial offsets of the base: surge, sway, heave (m), roll, pitch, yaw (rad); rates
Q0 = np.array([2.0, -1.0, 0.5, 0.02, -0.05, 0.03])
QD0 = np.array([0.1, 0.05, -0.02, 0.005, 0.01, -0.004])


def build():
    """Tree, loads, environment and the tree's initial state (system CM, 1-2-3 angles)."""
    from floatwind.loads.simple import ConstantForce, Gravity, LinearMatrices
    from floatwind.multibody import ConstantRate, Tree, three_body
    from floatwind.multibody.mcm import system_state_from_base

    tree = Tree(*three_body(yaw=ConstantRate(0.0, YAW_RATE), spin=ConstantRate(0.0, SPIN_RATE)))
    rotor = tree.index("rotor")
    loads = (
        Gravity(masses=tree.mass),
        LinearMatrices(body=0, point_b=(0.0, 0.0, 0.0), stiffness=STIFFNESS, damping=DAMPING,
                       f0=(0.0, 0.0, tree.total_mass * GRAVITY, 0.0, 0.0, 0.0)),
        ConstantForce(body=rotor, point_b=(0.0, 0.0, 0.0), force=(THRUST, 0.0, 0.0)),
    )  # fmt: skip
    env = SimpleNamespace(gravity=GRAVITY)
    # the base reference point (PRP) at Q0[:3] with angles Q0[3:], rates QD0: base CM state
    from floatwind.rotation import euler123_matrix, omega_from_euler_rates

    R = euler123_matrix(Q0[None, 3:])[0]
    w = R @ omega_from_euler_rates(Q0[None, 3:], QD0[None, 3:])[0]
    r_cm = Q0[:3] + R @ tree.cm_b[0]
    v_cm = QD0[:3] + np.cross(w, R @ tree.cm_b[0])
    q, qd = system_state_from_base(tree, 0.0, r_cm[None], Q0[None, 3:], v_cm[None], QD0[None, 3:])
    return tree, loads, env, q[0], qd[0]


def run_mcm(tree, loads, env, q0, qd0, t_end, dt, save_every):
    """RK4 on the momentum cloud core (Wang 5.26); base CM and rotation at the saved steps."""
    from floatwind.multibody.mcm import (
        body_kinematics,
        forward_dynamics,
        mass_distribution,
        relative_kinematics,
    )
    from floatwind.records import Wrench

    def kin_at(t, y):
        rel = relative_kinematics(tree, t)
        md = mass_distribution(tree, rel)
        return rel, md, body_kinematics(tree, t, rel, md, y[None, :6], y[None, 6:])

    def f(t, y):
        rel, md, kin = kin_at(t, y)
        w = Wrench.zeros(1, tree.n_bodies)
        for ld in loads:
            w += ld.wrench(t, kin, env)
        acc = forward_dynamics(tree, rel, md, y[None, :6], y[None, 6:], w)
        return np.concatenate([y[6:], acc.qdd[0]])

    n = int(round(t_end / dt))
    y = np.concatenate([q0, qd0])
    ts, rs, Rs = [], [], []
    for k in range(n + 1):
        t = k * dt
        if k % save_every == 0:
            kin = kin_at(t, y)[2]
            ts.append(t)
            rs.append(kin.r_G_g[0, 0].copy())
            Rs.append(kin.R_b2g[0, 0].copy())
        if k == n:
            break
        k1 = f(t, y)
        k2 = f(t + dt / 2, y + dt / 2 * k1)
        k3 = f(t + dt / 2, y + dt / 2 * k2)
        k4 = f(t + dt, y + dt * k3)
        y = y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return np.array(ts), np.array(rs), np.array(Rs)


def run_mbdm(tree, loads, env, q0, qd0, t_end, dt, save_every):
    """The same turbine from the MBDM joint library (R + RDRV per joint), Baumgarte/RK4, eq. (67)."""
    from floatwind.multibody.mbdm.coordinates import A_matrix
    from floatwind.multibody.mbdm.dynamics import dynamic_analysis
    from floatwind.multibody.mbdm.tree_model import initial_state, system_from_tree

    dsys = system_from_tree(tree, loads, env)
    q, qd = initial_state(dsys, tree, 0.0, q0, qd0)
    res = dynamic_analysis(dsys, q, qd, t_end, dt, method="baumgarte", form="omega",
                           save_every=save_every)  # fmt: skip
    return res.time, res.q[:, 0, :3], A_matrix(res.q[:, 0, 3:]), res


def crosscheck(t_end: float, dt: float = 0.01, save_every: int = 10) -> dict:
    """Both runs and their differences: base CM position (m) and rotation (rad, the angle of
    R_mcm^T R_mbdm), largest over the saved times."""
    tree, loads, env, q0, qd0 = build()
    t0 = time.perf_counter()
    t_a, r_a, R_a = run_mcm(tree, loads, env, q0, qd0, t_end, dt, save_every)
    wall_mcm = time.perf_counter() - t0
    t0 = time.perf_counter()
    t_b, r_b, R_b, res = run_mbdm(tree, loads, env, q0, qd0, t_end, dt, save_every)
    wall_mbdm = time.perf_counter() - t0
    assert np.allclose(t_a, t_b, rtol=0, atol=1e-9)
    dR = np.einsum("tji,tjk->tik", R_a, R_b)
    ang = np.arccos(np.clip((np.trace(dR, axis1=1, axis2=2) - 1.0) / 2.0, -1.0, 1.0))
    # small angles: the skew part is more precise than arccos near 0
    skew = 0.5 * np.stack([dR[:, 2, 1] - dR[:, 1, 2], dR[:, 0, 2] - dR[:, 2, 0],
                           dR[:, 1, 0] - dR[:, 0, 1]], 1)  # fmt: skip
    ang = np.where(ang < 1e-3, np.linalg.norm(skew, axis=1), ang)
    return {
        "time": t_a, "r_mcm": r_a, "r_mbdm": r_b, "R_mcm": R_a, "R_mbdm": R_b,
        "err_position": float(np.max(np.abs(r_a - r_b))),
        "err_rotation": float(np.max(ang)),
        "drift_position": float(np.max(res.drift_position)),
        "drift_velocity": float(np.max(res.drift_velocity)),
        "range_position": float(np.max(np.abs(r_a - r_a[0]))),
        "wall_mcm": wall_mcm, "wall_mbdm": wall_mbdm,
    }  # fmt: skip


def run(out: pathlib.Path, quick: bool, dt: float = 0.01) -> Outcome:
    t_end = 10.0 if quick else 60.0
    res = Outcome("3-body turbine: MBDM joint library vs momentum cloud core"
                  + (" (quick)" if quick else ""))  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)
    c = crosscheck(t_end, dt)
    res.lines += [
        f"{t_end:g} s at dt = {dt:g} s (RK4 both); yaw {np.degrees(YAW_RATE):g} deg/s, spin "
        f"{SPIN_RATE * 30 / np.pi:g} rpm, thrust {THRUST:g} N; base CM moves "
        f"{c['range_position']:.3g} m",
        f"wall: MCM {c['wall_mcm']:.1f} s, MBDM (NumPy path, Load contract) {c['wall_mbdm']:.1f} s; "
        f"MBDM drift |Phi| {c['drift_position']:.2g}, |Phi_q qdot - nu| {c['drift_velocity']:.2g}",
    ]  # fmt: skip
    res.checks.append(Check("the base CM follows the same path in both formulations",
                            "max |r_mcm - r_mbdm| (m)", c["err_position"], "< 1e-6",
                            c["err_position"] < 1e-6))  # fmt: skip
    res.checks.append(Check("the base body turns the same way in both formulations",
                            "max angle of R_mcm^T R_mbdm (rad)", c["err_rotation"], "< 1e-6",
                            c["err_rotation"] < 1e-6))  # fmt: skip
    t = c["time"]
    res.figures.append(figure(out / "turbine_crosscheck.png", t, [
        ("base CM (m)", [(c["r_mcm"][:, i], f"{'xyz'[i]} MCM") for i in range(3)]
         + [(c["r_mbdm"][:, i], f"{'xyz'[i]} MBDM") for i in range(3)]),
        ("MBDM - MCM (m)", [(c["r_mbdm"][:, i] - c["r_mcm"][:, i], "xyz"[i]) for i in range(3)]),
    ], "3-body turbine: base motion, MBDM joint library vs momentum cloud core"))  # fmt: skip
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    ap.add_argument("-o", "--out", required=True, help="folder for the figure and report.txt")
    ap.add_argument("--quick", action="store_true", help="10 s instead of 60 s")
    ap.add_argument("--dt", type=float, default=0.01)
    args = ap.parse_args(argv)
    out = pathlib.Path(args.out)
    t0 = time.perf_counter()
    res = run(out, args.quick, args.dt)
    res.wall_s = time.perf_counter() - t0
    text = res.summary()
    print(text)
    (out / "report.txt").write_text(text + "\n")
    print(f"report and figure in {out}")
    return 0 if res.ok else 1


if __name__ == "__main__":
    sys.exit(main())
