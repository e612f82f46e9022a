"""Bossak-Newmark (seed 002) on linear oscillators: errors against the exact solutions, observed
order, and the numerical damping (spectral radius) against theory, for both beta rules.

    python validation/bossak/oscillators.py [--quick]

Prints tables; writes nothing. Exit status 1 when a check fails.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
import scipy.linalg
from scipy.optimize import brentq

from floatwind.integrate.bossak import (
    BETA_RULES,
    BossakNewmark,
    BossakParameters,
    spectral_radius,
    spectral_radius_infinity,
)
from floatwind.rotation.vec import matvec


class Linear:
    def __init__(self, K, C):
        self.K, self.C = np.atleast_2d(K)[None], np.atleast_2d(C)[None]

    def __call__(self, t, y):
        m = y.shape[1] // 2
        return np.concatenate(
            [y[:, m:], -matvec(self.K, y[:, :m]) - matvec(self.C, y[:, m:])], axis=1
        )

    def bossak_linear(self):
        return self.K, self.C


def sdof(hs, alpha, rule):
    w, z = 2.0, 0.05
    wd = w * np.sqrt(1 - z * z)
    t = np.linspace(0, 10, 21)
    exact = np.exp(-z * w * t) * (np.cos(wd * t) + z * w / wd * np.sin(wd * t))
    errs = []
    for h in hs:
        rec = BossakNewmark(h, alpha, rule).run(
            Linear([[w * w]], [[2 * z * w]]), np.array([[1.0, 0.0]]), t
        )
        errs.append(np.abs(rec.y[:, 0, 0] - exact).max())
    return np.array(errs)


def mdof(hs, alpha, rule):
    M = np.diag([2.0, 1.0, 3.0])
    Kp = np.array([[6.0, -2.0, 0.0], [-2.0, 4.0, -2.0], [0.0, -2.0, 5.0]])
    w2, phi = scipy.linalg.eigh(Kp, M)
    x0 = np.array([1.0, -0.5, 0.2])
    q0 = phi.T @ M @ x0
    t = np.linspace(0, 10, 21)
    exact = (phi @ (q0[:, None] * np.cos(np.sqrt(w2)[:, None] * t[None]))).T
    K = np.linalg.solve(M, Kp)
    y0 = np.concatenate([x0, np.zeros(3)])[None]
    errs = []
    for h in hs:
        rec = BossakNewmark(h, alpha, rule).run(Linear(K, 0 * K), y0, t)
        errs.append(np.abs(rec.y[:, 0, :3] - exact).max())
    return np.array(errs)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    args = p.parse_args()
    hs = np.array([0.04, 0.02, 0.01] if args.quick else [0.08, 0.04, 0.02, 0.01, 0.005])
    ok = True
    print("== errors against the exact solutions, observed order (log2 of successive ratios)")
    print(
        f"{'problem':6} {'beta':9} {'alpha':>6} " + " ".join(f"h={h:<8g}" for h in hs) + " orders"
    )
    for name, fn in (("SDOF", sdof), ("3-DOF", mdof)):
        for rule in BETA_RULES:
            for alpha in (0.0, -0.05, -0.1):
                e = fn(hs, alpha, rule)
                orders = np.log2(e[:-1] / e[1:])
                ok &= bool(np.all(np.abs(orders[-2:] - 2) < 0.1))
                print(
                    f"{name:6} {rule:9} {alpha:6.2f} "
                    + " ".join(f"{x:10.3e}" for x in e)
                    + "  "
                    + " ".join(f"{o:.3f}" for o in orders)
                )
    print("\n== spectral radius: rho(w h) of the amplification matrix, rho_inf in closed form")
    Wh = [0.1, 1.0, 10.0, 100.0, 1e4]
    print(f"{'beta':9} {'alpha':>6} {'beta value':>10} " + " ".join(f"wh={w:<7g}" for w in Wh)
          + "   rho_inf   (1+a)/(1-a)  wh_crit")  # fmt: skip
    for rule in BETA_RULES:
        for alpha in (0.0, -0.01, -0.05, -0.1):
            prm = BossakParameters.from_alpha(alpha, rule)
            rho = [float(spectral_radius(prm, w)) for w in Wh]
            rinf = spectral_radius_infinity(prm)
            crit = "-"
            if rinf > 1 + 1e-9:
                grid = np.logspace(-2, 5, 3000)
                r = spectral_radius(prm, grid)
                i = int(np.argmax(r > 1 + 1e-12))
                w_c = brentq(
                    lambda w, q=prm: spectral_radius(q, w) - 1 - 1e-13, grid[i - 1], grid[i]
                )
                crit = f"{w_c:.2f}"
            if rule == "textbook":
                ok &= abs(rinf - (1 + alpha) / (1 - alpha)) < 1e-7
            print(
                f"{rule:9} {alpha:6.2f} {prm.beta:10.5f} "
                + " ".join(f"{x:9.6f}" for x in rho)
                + f"  {rinf:9.6f}  {(1 + alpha) / (1 - alpha):9.6f}   {crit}"
            )
    prm = BossakParameters.from_alpha(-0.1, "textbook")
    print(
        "\nthe chapter's (7-3)-(7-4) read literally (Gamma, beta weighting the old acceleration),"
        f" alpha = -0.1: rho(w h = 0.5) = {float(spectral_radius(prm, 0.5, literal=True)):.4f} > 1"
    )
    print("\nOK" if ok else "\nFAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
