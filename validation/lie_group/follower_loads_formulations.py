"""Giusti sec. 7.4 (Table 5, (47)-(50), Fig. 6-7): follower loads, spatial vs mixed vs local.

Runs the three formulations with rho_inf = 0.9, h = 0.05 s from q0 = [1 2 3 0 0 0],
v0 = [1.5 1 0.5 0.1 0.2 0.1] and compares them with each other and with an independent DOP853
solution of the same Newton-Euler ODE. Plots the CM trajectory, the rotation vector (wrapped
and unwrapped, sec. 7.4.1) and the velocities. Exits non-zero if the agreement is worse than the
thresholds printed.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np
from _common import parse_args
from giusti_cases import follower_reference, follower_run

T_END = 40.0
TOL = {"r_G_g": 5e-3, "R_b2g": 2e-4, "v_G_g": 5e-4, "w_b_g": 5e-5}


def main() -> int:
    args = parse_args(__doc__)
    t_end = 10.0 if args.quick else T_END
    t = np.linspace(0.0, t_end, int(round(t_end / 0.05)) + 1)
    ref = follower_reference(t)
    runs = {f: follower_run(f, t) for f in ("spatial", "mixed", "local")}
    ok = True
    print(
        f"7.4 follower loads, t in [0, {t_end:g}] s, h = 0.05 s, rho_inf = 0.9 (max abs differences)"
    )
    for name, out in runs.items():
        for key, tol in TOL.items():
            d = np.abs(out[key][:, 0] - ref[key]).max()
            good = d <= tol
            ok &= good
            print(
                f"  {name:8s} vs DOP853  {key:6s} {d:.2e}  (<= {tol:.0e}) [{'ok' if good else 'FAIL'}]"
            )
    for a, b in (("spatial", "mixed"), ("spatial", "local"), ("mixed", "local")):
        d = {k: np.abs(runs[a][k] - runs[b][k]).max() for k in TOL}
        print(f"  {a} vs {b}: " + ", ".join(f"{k} {v:.2e}" for k, v in d.items()))
    psi = runs["spatial"]["psi"][:, 0]
    print(f"  largest |psi| (unwrapped) {np.max(np.linalg.norm(psi, axis=-1)):.3f} rad")

    styles = {"spatial": "-", "mixed": "--", "local": ":"}
    fig, axs = plt.subplots(2, 2, figsize=(10, 7))
    for name, out in runs.items():
        ax = fig.add_subplot(2, 2, 1, projection="3d") if name == "spatial" else fig.axes[-1]
        if name == "spatial":
            axs[0, 0].remove()
        ax.plot(*out["r_G_g"][:, 0].T, styles[name], label=name)
        for i in range(3):
            axs[0, 1].plot(t, out["psi_wrapped"][:, 0, i], styles[name], color=f"C{i}")
            axs[1, 0].plot(t, out["psi"][:, 0, i], styles[name], color=f"C{i}")
            axs[1, 1].plot(t, out["w_b_g"][:, 0, i], styles[name], color=f"C{i}")
    fig.axes[-1].set_xlabel("x [m]")
    fig.axes[-1].set_ylabel("y [m]")
    fig.axes[-1].set_zlabel("z [m]")
    fig.axes[-1].legend(fontsize=8)
    axs[0, 1].set_title("rotation vector (log map, |psi| <= pi)", fontsize=9)
    axs[1, 0].set_title("rotation vector, unwrapped (sec. 7.4.1)", fontsize=9)
    axs[1, 1].set_title("angular velocity (inertial axes)", fontsize=9)
    for ax, lab in ((axs[0, 1], "psi [rad]"), (axs[1, 0], "psi [rad]"), (axs[1, 1], "w [rad/s]")):
        ax.set_xlabel("time [s]")
        ax.set_ylabel(lab)
    fig.suptitle(
        "q0 = [1 2 3 0 0 0], v0 = [1.5 1 0.5 0.1 0.2 0.1], rho = 0.9, h = 0.05 s (solid spatial, dashed mixed, dotted local)",
        fontsize=9,
    )
    fig.tight_layout()
    fig.savefig(args.out / "follower_configuration.png", dpi=120)
    plt.close(fig)

    fig, axs = plt.subplots(1, 2, figsize=(10, 3.8))
    for name, out in runs.items():
        for i in range(3):
            axs[0].plot(t, out["v_G_g"][:, 0, i], styles[name], color=f"C{i}")
            axs[1].plot(t, out["w_b_g"][:, 0, i], styles[name], color=f"C{i}")
    for i in range(3):
        axs[0].plot(t[::20], ref["v_G_g"][::20, i], "k.", ms=3)
        axs[1].plot(t[::20], ref["w_b_g"][::20, i], "k.", ms=3)
    axs[0].set_ylabel("velocity of the CM [m/s]")
    axs[1].set_ylabel("angular velocity [rad/s]")
    for ax in axs:
        ax.set_xlabel("time [s]")
    fig.suptitle("lines: spatial / mixed / local; dots: DOP853 reference", fontsize=9)
    fig.tight_layout()
    fig.savefig(args.out / "follower_velocity.png", dpi=120)
    plt.close(fig)
    print("figures:", args.out / "follower_configuration.png", args.out / "follower_velocity.png")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
