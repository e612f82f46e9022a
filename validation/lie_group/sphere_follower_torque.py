"""Giusti sec. 7.1 (Table 2, Fig. 3): sphere under a constant follower torque vs Romano (2008a).

Prints the error (38)-(39) over t_i in [0.42, 0.60] s (n_step = 10) for h = 1e-4 .. 1e-1 and
rho_inf = 1.0 and 0.6, the observed order over the asymptotic range, and saves the figures.
Exits non-zero if an order is outside 2 +- 0.15.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np
from _common import error_figure, parse_args, report_orders
from giusti_cases import SPHERE_WINDOW, observed_order, sphere_errors, sphere_trajectory


def main() -> int:
    args = parse_args(__doc__)
    hs = (
        np.array([1e-3, 2e-3, 5e-3, 1e-2])
        if args.quick
        else np.array([1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 1e-1])
    )
    errors = {f"rho_inf = {rho}": sphere_errors(hs, rho) for rho in (1.0, 0.6)}
    title = f"t_i = {SPHERE_WINDOW[0]} s, t_f = {SPHERE_WINDOW[-1]:.2f} s, n_step = {len(SPHERE_WINDOW)}"
    error_figure(args.out / "sphere_error.png", hs, errors, title, fit_max_h=1e-2)
    t = np.linspace(0.0, 0.6, 241)
    num, ref = sphere_trajectory(0.0025, 1.0, t)
    fig = plt.figure(figsize=(5, 5))
    ax = fig.add_subplot(projection="3d")
    ax.plot(*num.T, label="numerical solution")
    ax.plot(*ref.T, "--", label="analytic solution")
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    ax.set_zlabel("z [m]")
    ax.set_title("rho_inf = 1.0, h = 0.0025 s", fontsize=9)
    ax.legend(fontsize=8)
    fig.savefig(args.out / "sphere_trajectory.png", dpi=120)
    plt.close(fig)
    ok = report_orders("7.1 sphere", hs, errors, 1e-2, observed_order)
    print(
        f"trajectory (h = 0.0025 s): max |x_num - x_ref| = {np.max(np.linalg.norm(num - ref, axis=-1)):.2e} m"
    )
    print("figures:", args.out / "sphere_error.png", args.out / "sphere_trajectory.png")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
