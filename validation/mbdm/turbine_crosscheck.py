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

Free-yaw variant (issue 19, last criterion): the nacelle yaw is a degree of freedom of its own
(docs/multibody.md "Joint DOFs": ``SpringDamperDrive``, OC3 ServoDyn YawSpr = 9.02832e9 N m/rad,
YawDamp = 1.916e7 N m s/rad) pulled toward a yaw ramp command (1.2 deg/s from t = 1 s to 6 deg),
the rotor at constant speed. MCM: the 12 base states plus the yaw angle and rate
(``mcm.forward_dynamics_dofs``); MBDM: the yaw joint R (eq. 19) without its driver and a
``RotationalSpringDamper`` between tower and nacelle (14 joint rows + 3 normalisation rows), at
dt = 0.0025 s for the 3 Hz yaw spring. Criterion: base motion 1e-6 m / rad and yaw angle 1e-6 rad
over 60 s.

    python validation/mbdm/turbine_crosscheck.py -o DIR [--quick] [--dt 0.01] [--free-dt 0.0025]

Writes a PNG of the base motion and the differences (and one of the free-yaw run), and
report.txt, into DIR; prints the checks; exit status 1 when a check fails. ``--quick``: 10 s.
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

from validation.seed_cases._common import Check, Outcome, figure, run_and_report  # noqa: E402

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
#: free-yaw variant: OC3 ServoDyn yaw spring and damper, yaw ramp command, time step
YAW_SPRING = 9.02832e9  # N m/rad (YawSpr)
YAW_DAMPER = 1.916e7  # N m s/rad (YawDamp)
YAW_CMD_RATE = np.radians(1.2)  # rad/s
YAW_CMD_START = 1.0  # s
YAW_CMD_FINAL = np.radians(6.0)  # rad
FREE_DT = 0.0025  # s


def yaw_command():
    """The free yaw's command theta_c(t): hold 0, 1.2 deg/s from t = 1 s, hold at 6 deg."""
    from floatwind.multibody.motion import Ramp

    return Ramp(q0=0.0, rate=YAW_CMD_RATE, t_start=YAW_CMD_START, q_final=YAW_CMD_FINAL)


def build(free_yaw: bool = False, yaw_initial=None):
    """Tree, loads, environment and the tree's initial state (system CM, 1-2-3 angles).
    ``free_yaw``: the yaw joint on its spring-damper drive toward :func:`yaw_command`, starting
    at ``yaw_initial`` = (angle, rate) (None: the command at 0)."""
    from dataclasses import replace

    from floatwind.loads.simple import ConstantForce, Gravity, LinearMatrices
    from floatwind.multibody import ConstantRate, Tree, three_body
    from floatwind.multibody.drives import SpringDamperDrive
    from floatwind.multibody.mcm import system_state_from_base

    if free_yaw:
        bodies, joints = three_body(yaw=yaw_command(), spin=ConstantRate(0.0, SPIN_RATE))
        init = None if yaw_initial is None else tuple(yaw_initial)
        drive = SpringDamperDrive(stiffness=YAW_SPRING, damping=YAW_DAMPER, initial=init)
        joints = [replace(j, drive=drive) if j.name == "yaw" else j for j in joints]
        tree = Tree(bodies, joints)
    else:
        tree = Tree(*three_body(yaw=ConstantRate(0.0, YAW_RATE),
                                spin=ConstantRate(0.0, SPIN_RATE)))  # fmt: skip
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
    """RK4 on the momentum cloud core (Wang 5.26); base CM and rotation at the saved steps, and
    (a tree with joint DOFs: the 12 base states, then the joint angles and rates, forward dynamics
    ``mcm.forward_dynamics_dofs`` with the drive torques) the joint angles. The step and stage
    times are those of ``mbdm.dynamic_analysis`` (t0 = k dt, h = (k + 1) dt - k dt), so a
    command's corner falls on the same side of a stage time in both runs."""
    from floatwind.multibody.drives import initial_state as drive_initial
    from floatwind.multibody.mcm import (
        body_kinematics,
        forward_dynamics,
        forward_dynamics_dofs,
        mass_distribution,
        relative_kinematics,
    )
    from floatwind.records import Wrench

    nf = tree.n_dofs
    joints = [tree.joint_of[c] for c in tree.dofs]

    def kin_at(t, y):
        dofs = (y[None, 12 : 12 + nf], y[None, 12 + nf :]) if nf else None
        rel = relative_kinematics(tree, t, dofs) if nf else relative_kinematics(tree, t)
        md = mass_distribution(tree, rel)
        return rel, md, body_kinematics(tree, t, rel, md, y[None, :6], y[None, 6:12])

    def f(t, y):
        rel, md, kin = kin_at(t, y)
        w = Wrench.zeros(1, tree.n_bodies)
        for ld in loads:
            w += ld.wrench(t, kin, env)
        if not nf:
            acc = forward_dynamics(tree, rel, md, y[None, :6], y[None, 6:12], w)
            return np.concatenate([y[6:], acc.qdd[0]])
        tau = np.zeros((1, nf))
        for k, j in enumerate(joints):  # the drive law (multibody.drives) toward the command
            th_c, thd_c, _ = j.rotation.evaluate(float(t))
            tau[:, k] = j.drive.torque(y[None, 12 + k], y[None, 12 + nf + k], (th_c, thd_c))
        acc = forward_dynamics_dofs(tree, rel, md, y[None, :6], y[None, 6:12], w, tau)
        return np.concatenate([y[6:12], acc.qdd[0], y[12 + nf :], acc.qdd_dof[0]])

    n = int(round(t_end / dt))
    init = [drive_initial(j.drive, j.rotation) for j in joints]
    y = np.concatenate([q0, qd0, [v[0] for v in init], [v[1] for v in init]])
    ts, rs, Rs, ths = [], [], [], []
    for k in range(n + 1):
        t = k * dt
        if k % save_every == 0 or k == n:
            kin = kin_at(t, y)[2]
            ts.append(t)
            rs.append(kin.r_G_g[0, 0].copy())
            Rs.append(kin.R_b2g[0, 0].copy())
            ths.append(y[12:].copy())
        if k == n:
            break
        h = (k + 1) * dt - t
        k1 = f(t, y)
        k2 = f(t + h / 2, y + h / 2 * k1)
        k3 = f(t + h / 2, y + h / 2 * k2)
        k4 = f(t + h, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return np.array(ts), np.array(rs), np.array(Rs), np.array(ths)


def run_mbdm(tree, loads, env, q0, qd0, t_end, dt, save_every):
    """The same turbine from the MBDM joint library (R + RDRV per joint), Baumgarte/RK4, eq. (67)."""
    from floatwind.multibody.mbdm.coordinates import A_matrix
    from floatwind.multibody.mbdm.dynamics import dynamic_analysis
    from floatwind.multibody.mbdm.tree_model import initial_state, joint_angles, system_from_tree

    dsys = system_from_tree(tree, loads, env)
    q, qd = initial_state(dsys, tree, 0.0, q0, qd0)
    res = dynamic_analysis(dsys, q, qd, t_end, dt, method="baumgarte", form="omega",
                           save_every=save_every)  # fmt: skip
    # the free joints' angles and rates (the RDRV angle of their spring-damper elements)
    ths = [joint_angles(dsys, qq, qqd) for qq, qqd in zip(res.q, res.qdot)]
    names = [tree.joint_of[c].name for c in tree.dofs]
    th = np.array([[a[nm][0] for nm in names] + [a[nm][1] for nm in names] for a in ths])
    return res.time, res.q[:, 0, :3], A_matrix(res.q[:, 0, 3:]), res, th.reshape(len(ths), -1)


def crosscheck(t_end: float, dt: float = 0.01, save_every: int = 10, *, free_yaw: bool = False,
               yaw_initial=None) -> dict:  # fmt: skip
    """Both runs and their differences: base CM position (m) and rotation (rad, the angle of
    R_mcm^T R_mbdm), largest over the saved times; ``free_yaw`` (see :func:`build`): also the
    yaw angle (rad) and rate (rad/s) of both."""
    tree, loads, env, q0, qd0 = build(free_yaw, yaw_initial)
    t0 = time.perf_counter()
    t_a, r_a, R_a, th_a = run_mcm(tree, loads, env, q0, qd0, t_end, dt, save_every)
    wall_mcm = time.perf_counter() - t0
    t0 = time.perf_counter()
    t_b, r_b, R_b, res, th_b = run_mbdm(tree, loads, env, q0, qd0, t_end, dt, save_every)
    wall_mbdm = time.perf_counter() - t0
    assert np.allclose(t_a, t_b, rtol=0, atol=1e-9)
    dR = np.einsum("tji,tjk->tik", R_a, R_b)
    ang = np.arccos(np.clip((np.trace(dR, axis1=1, axis2=2) - 1.0) / 2.0, -1.0, 1.0))
    # small angles: the skew part is more precise than arccos near 0
    skew = 0.5 * np.stack([dR[:, 2, 1] - dR[:, 1, 2], dR[:, 0, 2] - dR[:, 2, 0],
                           dR[:, 1, 0] - dR[:, 0, 1]], 1)  # fmt: skip
    ang = np.where(ang < 1e-3, np.linalg.norm(skew, axis=1), ang)
    out = {
        "time": t_a, "r_mcm": r_a, "r_mbdm": r_b, "R_mcm": R_a, "R_mbdm": R_b,
        "err_position": float(np.max(np.abs(r_a - r_b))),
        "err_rotation": float(np.max(ang)),
        "drift_position": float(np.max(res.drift_position)),
        "drift_velocity": float(np.max(res.drift_velocity)),
        "range_position": float(np.max(np.abs(r_a - r_a[0]))),
        "range_rotation": float(np.max(np.abs(np.arccos(np.clip(
            (np.trace(np.einsum("ji,tjk->tik", R_a[0], R_a), axis1=1, axis2=2) - 1) / 2,
            -1.0, 1.0))))),
        "wall_mcm": wall_mcm, "wall_mbdm": wall_mbdm,
    }  # fmt: skip
    if free_yaw:  # yaw angle (column 0) and rate (column 1); angles wrapped to (-pi, pi]
        d_th = (th_b[:, 0] - th_a[:, 0] + np.pi) % (2 * np.pi) - np.pi
        cmd = np.array([yaw_command().evaluate(float(t))[0] for t in t_a])
        out.update({
            "yaw_mcm": th_a[:, 0], "yaw_mbdm": th_b[:, 0], "yaw_command": cmd,
            "err_yaw": float(np.max(np.abs(d_th))),
            "err_yaw_rate": float(np.max(np.abs(th_b[:, 1] - th_a[:, 1]))),
            "range_yaw": float(np.max(np.abs(th_a[:, 0]))),
            "lag_yaw": float(np.max(np.abs(th_a[:, 0] - cmd))),
        })  # fmt: skip
    return out


def _base_checks(c: dict, prefix: str) -> list:
    """The base body's path and rotation agree between the formulations (1e-6)."""
    return [Check(f"{prefix}the base CM follows the same path in both formulations",
                  "max |r_mcm - r_mbdm| (m)", c["err_position"], "< 1e-6",
                  c["err_position"] < 1e-6),
            Check(f"{prefix}the base body turns the same way in both formulations",
                  "max angle of R_mcm^T R_mbdm (rad)", c["err_rotation"], "< 1e-6",
                  c["err_rotation"] < 1e-6)]  # fmt: skip


def run(out: pathlib.Path, quick: bool, dt: float = 0.01, free_dt: float = FREE_DT) -> Outcome:
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
    res.checks += _base_checks(c, "")
    t = c["time"]
    res.figures.append(figure(out / "turbine_crosscheck.png", t, [
        ("base CM (m)", [(c["r_mcm"][:, i], f"{'xyz'[i]} MCM") for i in range(3)]
         + [(c["r_mbdm"][:, i], f"{'xyz'[i]} MBDM") for i in range(3)]),
        ("MBDM - MCM (m)", [(c["r_mbdm"][:, i] - c["r_mcm"][:, i], "xyz"[i]) for i in range(3)]),
    ], "3-body turbine: base motion, MBDM joint library vs momentum cloud core"))  # fmt: skip

    # free yaw on the ServoDyn spring-damper toward the yaw ramp
    save = max(1, int(round(0.1 / free_dt)))
    f = crosscheck(t_end, free_dt, save, free_yaw=True)
    res.lines += [
        f"free yaw: {t_end:g} s at dt = {free_dt:g} s; spring {YAW_SPRING:g} N m/rad, damper "
        f"{YAW_DAMPER:g} N m s/rad toward a ramp of {np.degrees(YAW_CMD_RATE):g} deg/s from "
        f"t = {YAW_CMD_START:g} s to {np.degrees(YAW_CMD_FINAL):g} deg; yaw reaches "
        f"{np.degrees(f['range_yaw']):.3g} deg (largest lag behind the command "
        f"{np.degrees(f['lag_yaw']):.2g} deg); base CM moves {f['range_position']:.3g} m, "
        f"turns {f['range_rotation']:.3g} rad",
        f"free yaw wall: MCM {f['wall_mcm']:.1f} s, MBDM {f['wall_mbdm']:.1f} s; MBDM drift "
        f"|Phi| {f['drift_position']:.2g}, |Phi_q qdot - nu| {f['drift_velocity']:.2g}; "
        f"yaw rate difference {f['err_yaw_rate']:.2g} rad/s",
    ]  # fmt: skip
    res.checks += _base_checks(f, "free yaw: ")
    res.checks.append(Check("free yaw: the yaw angle is the same in both formulations",
                            "max |theta_mcm - theta_mbdm| (rad)", f["err_yaw"], "< 1e-6",
                            f["err_yaw"] < 1e-6))  # fmt: skip
    tf = f["time"]
    res.figures.append(figure(out / "turbine_crosscheck_free_yaw.png", tf, [
        ("yaw (deg)", [(np.degrees(f["yaw_mcm"]), "MCM"), (np.degrees(f["yaw_mbdm"]), "MBDM"),
                       (np.degrees(f["yaw_command"]), "command")]),
        ("yaw MBDM - MCM (rad)", [(f["yaw_mbdm"] - f["yaw_mcm"], "yaw")]),
        ("base CM MBDM - MCM (m)",
         [(f["r_mbdm"][:, i] - f["r_mcm"][:, i], "xyz"[i]) for i in range(3)]),
    ], "3-body turbine, free yaw on a spring-damper: MBDM vs momentum cloud core"))  # fmt: skip
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    ap.add_argument("-o", "--out", required=True, help="folder for the figure and report.txt")
    ap.add_argument("--quick", action="store_true", help="10 s instead of 60 s")
    ap.add_argument("--dt", type=float, default=0.01)
    ap.add_argument("--free-dt", type=float, default=FREE_DT, help="time step of the free-yaw run")
    args = ap.parse_args(argv)
    out = pathlib.Path(args.out)
    return run_and_report(lambda: run(out, args.quick, args.dt, args.free_dt), out)


if __name__ == "__main__":
    sys.exit(main())
