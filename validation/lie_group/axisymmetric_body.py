"""Giusti sec. 7.2 (Table 3, Fig. 4): axisymmetric body under a constant axial torque vs Romano (2008b).

Error (38)-(39) over t_i in [0.82, 1.00] s (n_step = 10), h = 1e-4 .. 1e-1, rho_inf = 1.0 and
0.6, for the initial velocity of Table 3 and doubled. Exits non-zero if an order is outside
2 +- 0.15.
"""

import sys

import numpy as np
from _common import error_figure, parse_args, report_orders
from giusti_cases import AXISYM_WINDOW, axisym_errors, observed_order


def main() -> int:
    args = parse_args(__doc__)
    hs = (
        np.array([1e-3, 2e-3, 5e-3, 1e-2])
        if args.quick
        else np.array([1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 1e-1])
    )
    title = f"t_i = {AXISYM_WINDOW[0]} s, t_f = {AXISYM_WINDOW[-1]:.2f} s, n_step = {len(AXISYM_WINDOW)}"
    ok = True
    for factor, tag in (
        (1.0, "axisymmetric_error.png"),
        (2.0, "axisymmetric_error_doubled_velocity.png"),
    ):
        errors = {
            f"rho_inf = {rho}": axisym_errors(hs, rho, velocity_factor=factor) for rho in (1.0, 0.6)
        }
        label = "" if factor == 1.0 else ", initial velocity doubled"
        error_figure(args.out / tag, hs, errors, title + label, fit_max_h=1e-2)
        ok &= report_orders(f"7.2 axisymmetric (w0 x {factor:g})", hs, errors, 1e-2, observed_order)
        print("figure:", args.out / tag)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
