"""Giusti sec. 7.3 (Table 4, (44)-(46), Fig. 5): forced damped oscillator through the 6-DOF body.

Stiffness and damping are the non-follower linear transformations A (23)-(25), the forcing a
non-follower force. Error on x_G over t_i in [2, 18] s (n_step = 81), rho_inf = 1.0 and 0.6.
Exits non-zero if an order is outside 2 +- 0.15.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np
from _common import error_figure, parse_args, report_orders
from giusti_cases import (
    OSC_WINDOW,
    _run,
    observed_order,
    oscillator_body,
    oscillator_errors,
    oscillator_exact,
)


def main() -> int:
    args = parse_args(__doc__)
    hs = (
        np.array([5e-3, 1e-2, 2e-2, 5e-2])
        if args.quick
        else np.array([1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 1e-1])
    )
    errors = {f"rho_inf = {rho}": oscillator_errors(hs, rho) for rho in (1.0, 0.6)}
    title = f"t_i = {OSC_WINDOW[0]} s, t_f = {OSC_WINDOW[-1]} s, n_step = {len(OSC_WINDOW)}"
    error_figure(args.out / "oscillator_error.png", hs, errors, title, fit_max_h=5e-2)
    t = np.linspace(0.0, 10.0, 1001)
    out = _run(oscillator_body(), np.zeros(3), t[1:], 0.0025, 1.0)
    ex = oscillator_exact(t)
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(t, out["r_G_g"][:, 0, 0], label="numerical solution")
    ax.plot(t, ex["x"], "--", label="analytic solution")
    ax.plot(t, ex["x_particular"], ":", label="particular integral")
    ax.set_xlabel("time [s]")
    ax.set_ylabel("x_G,1 [m]")
    ax.set_title("x0 = 0.0 m, v0 = 0.0 m/s, rho_inf = 1.0, h = 0.0025 s", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out / "oscillator_trajectory.png", dpi=120)
    plt.close(fig)
    ok = report_orders("7.3 oscillator", hs, errors, 5e-2, observed_order)
    print("figures:", args.out / "oscillator_error.png", args.out / "oscillator_trajectory.png")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
