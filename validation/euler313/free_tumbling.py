"""Large angles: a free tumbling tower + spinning RNA (no loads), through vertical and upside down.

The RNA is yawed 90 deg so that the spin axis B stays near horizontal while the tower tumbles about
it (the RNA's own 3-1-3 angles are singular with B vertical); three batch members with different
initial angular velocities. Checks: angular momentum about the system CM conserved to 1e-9
(relative); tower angular velocity = the momentum cloud core's to 1e-6 rad/s; both 3-1-3 charts used;
batch member = the same run alone, bit for bit.

    python validation/euler313/free_tumbling.py [--quick] [--out DIR]
"""

from __future__ import annotations

import sys

import numpy as np

# the validation package is installed with floatwind (pyproject.toml)
from validation.euler313._common import (
    AXISYMMETRIC,
    Check,
    Outcome,
    case,
    cli,
    euler_angles,
    figure,
    model,
    run_both,
)

W0 = np.array([[0.5, 0.03, 0.02], [0.4, -0.05, 0.1], [-0.45, 0.02, -0.06]])  # rad/s, earth axes


def upright(w_g):
    from floatwind.multibody import euler313 as e3

    ch = np.ones(len(w_g), dtype=int)
    ang = e3.angles_from_matrix(np.broadcast_to(np.eye(3), (len(w_g), 3, 3)), ch)
    rates = e3.rates_from_omega(ang, np.einsum("bji,bj->bi", e3.xyz_frame(ang, ch), w_g))
    return np.concatenate([ang, rates], 1), ch


def run(out, quick: bool) -> Outcome:
    from floatwind.simulate import euler313 as s3

    res = Outcome("euler313 free tumbling (large angles)")
    T = 12.0 if quick else 60.0
    dt = 0.01
    t_out = np.arange(0.0, T + 1e-9, 0.1)
    m = model(case({"topology.rna.inertia": AXISYMMETRIC,
                    "topology.yaw": {"kind": "locked", "value_deg": 90.0}}, loads=False), "tumbling")  # fmt: skip
    y0, c0 = upright(W0)
    r = run_both(m, t_out, dt, y0, c0)
    sysm, rec, ch = r["system"], r["rec"], r["charts"]
    H = np.array([sysm.evaluate(t, rec.y[i], ch[i])[2].H_g for i, t in enumerate(t_out)])
    drift = float((np.abs(H - H[0]).max(axis=(0, 2)) / np.linalg.norm(H[0], axis=1)).max())
    res.checks.append(
        Check("angular momentum about the system CM is conserved",
              f"max |H(t) - H(0)| / |H(0)| over {T:g} s, dt {dt:g} s", drift, "< 1e-9", drift < 1e-9)
    )  # fmt: skip
    err = float(np.abs(r["w313"] - r["wmcm"]).max())
    res.checks.append(
        Check("the motion agrees with the momentum cloud core",
              "max |omega_313 - omega_MCM| (rad/s)", err, "< 1e-6", err < 1e-6)
    )  # fmt: skip
    n_sw = int(np.abs(np.diff(ch, axis=0)).sum())
    res.checks.append(
        Check("the tower passes through vertical and upside down (chart switches)",
              "chart switches (3 members)", n_sw, ">= 6", n_sw >= 6 and set(np.unique(ch)) == {0, 1})
    )  # fmt: skip
    rec1, ch1 = s3.integrate(sysm, y0[1:2], c0[1:2], t_out, dt)
    same = bool(np.array_equal(rec1.y[:, 0], rec.y[:, 1]) and np.array_equal(ch1[:, 0], ch[:, 1]))
    res.checks.append(
        Check("a batch member gives the same run alone", "bit-identical (1 = yes)", float(same), "= 1", same)
    )  # fmt: skip
    ang = euler_angles(r)[:, 0]
    res.lines.append(
        f"theta_1 of member 0 spans [{ang[:, 0].min():.3f}, {ang[:, 0].max():.3f}] rad"
    )
    res.figures.append(
        figure(out / "euler313_tumbling.png", t_out,
               [("theta_1 (rad)", [(ang[:, 0], "")]), ("theta_2 (rad)", [(ang[:, 1], "")]),
                ("chart", [(ch[:, 0], "")]),
                ("|H - H0| / |H0|", [(np.linalg.norm(H[:, 0] - H[0, 0], axis=1) / np.linalg.norm(H[0, 0]), "")])],
               "free tumbling tower + spinning RNA (member 0)")
    )  # fmt: skip
    return res


def main(argv=None) -> int:
    return cli(run, __doc__, argv)


if __name__ == "__main__":
    sys.exit(main())
