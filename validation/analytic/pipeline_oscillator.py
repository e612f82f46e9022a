"""Damped heave oscillator through the full floatwind pipeline, against its closed form.

A single rigid body (m = 2e5 kg, CM at the reference point) on a ``linear`` load (heave stiffness
k, damping c; gravity off) released from a heave offset ``z0`` is the textbook oscillator
``z(t) = e^{-zeta wn t} (z0 cos wd t + z0 zeta wn / wd sin wd t)``. It goes through the case dict,
:func:`floatwind.case.loader.model_from_dict`, :func:`floatwind.simulate.simulate` (RK4) and the
output channels (PtfmHeave, PtfmTVzi, PtfmTAzi), so the check covers loader, loads, kinematics,
integrator and output evaluation at once. Checks:

* the error of PtfmHeave at dt = 0.0125 s is below 5e-8 of z0 (measured 2.4e-8 over 10 s);
* the observed order of the RK4 integrator (log2 of successive error ratios at dt, dt/2, dt/4)
  is 4 +- 0.3;
* PtfmTAzi equals -(k z + c zdot)/m to round-off (output evaluation consistent with the load).

``python validation/analytic/pipeline_oscillator.py [--quick]`` prints the numbers; exit status 1
when a check fails.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

MASS = 2.0e5  # kg
K_HEAVE = 8.0e5  # N/m  -> wn = 2 rad/s
ZETA = 0.05
Z0 = 0.5  # m
C_HEAVE = 2.0 * ZETA * math.sqrt(K_HEAVE * MASS)


def case_dict(t_max: float, dt: float) -> dict:
    stiff = np.zeros((6, 6))
    damp = np.zeros((6, 6))
    stiff[2, 2] = K_HEAVE
    damp[2, 2] = C_HEAVE
    return {
        "name": "analytic_heave_oscillator",
        "environment": {"gravity": 9.80665},
        "bodies": [
            {
                "name": "body",
                "mass": MASS,
                "cm": [0.0, 0.0, 0.0],
                "inertia": {"xx": 1.0e7, "yy": 1.0e7, "zz": 2.0e6},
            }
        ],
        "reference_point": [0.0, 0.0, 0.0],
        "loads": [
            {
                "type": "linear",
                "name": "spring_damper",
                "body": "body",
                "point": [0.0, 0.0, 0.0],
                "stiffness": stiff.tolist(),
                "damping": damp.tolist(),
            }
        ],
        "initial": {"displacement": [0.0, 0.0, Z0], "angles": [0.0, 0.0, 0.0]},
        "simulation": {"t_max": t_max, "dt": dt, "dt_out": 0.1, "integrator": "rk4"},
    }


def exact(t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    wn = math.sqrt(K_HEAVE / MASS)
    wd = wn * math.sqrt(1.0 - ZETA**2)
    e = np.exp(-ZETA * wn * t)
    z = e * (Z0 * np.cos(wd * t) + Z0 * ZETA * wn / wd * np.sin(wd * t))
    zd = -e * Z0 * wn**2 / wd * np.sin(wd * t)
    return z, zd


def run_once(t_max: float, dt: float):
    from floatwind.case.loader import model_from_dict
    from floatwind.simulate import simulate

    model = model_from_dict(case_dict(t_max, dt), name="analytic_heave_oscillator")
    ds = simulate(model, progress=False)
    t = np.asarray(ds.time.values)
    z = np.ravel(ds["PtfmHeave"].values)
    zd = np.ravel(ds["PtfmTVzi"].values)
    za = np.ravel(ds["PtfmTAzi"].values)
    return t, z, zd, za


def evaluate(quick: bool = True) -> dict:
    """Run the oscillator at dt, dt/2, dt/4; returns the checks, errors and series."""
    t_max = 10.0 if quick else 40.0
    dts = [0.1, 0.05, 0.025]
    errs = []
    series = None
    acc_err = 0.0
    for dt in dts:
        t, z, zd, za = run_once(t_max, dt)
        ze, _ = exact(t)
        errs.append(float(np.max(np.abs(z - ze))))
        acc_err = max(
            acc_err,
            float(np.max(np.abs(za + (K_HEAVE * z + C_HEAVE * zd) / MASS))) / (K_HEAVE * Z0 / MASS),
        )
        if series is None:
            series = (t, ze, z)
    orders = [math.log2(errs[i] / errs[i + 1]) for i in range(len(errs) - 1)]
    t_ref, z_ref, z_sim = series
    # a fine-step run for the absolute accuracy check
    t, z, _, _ = run_once(t_max, 0.0125)
    fine_err = float(np.max(np.abs(z - exact(t)[0]))) / Z0
    checks = [
        {
            "metric": "PtfmHeave max error / z0 at dt = 0.0125 s",
            "value": fine_err,
            "criterion": "<= 5e-8",
            "passed": bool(fine_err <= 5e-8),
        },
        {
            "metric": "RK4 observed order (dt 0.1 -> 0.05 s)",
            "value": orders[0],
            "criterion": "4 +- 0.3",
            "passed": bool(abs(orders[0] - 4.0) <= 0.3),
        },
        {
            "metric": "RK4 observed order (dt 0.05 -> 0.025 s)",
            "value": orders[1],
            "criterion": "4 +- 0.3",
            "passed": bool(abs(orders[1] - 4.0) <= 0.3),
        },
        {
            "metric": "PtfmTAzi vs -(k z + c zdot)/m, max / (k z0 / m)",
            "value": acc_err,
            "criterion": "<= 1e-12",
            "passed": bool(acc_err <= 1e-12),
        },
    ]
    return {
        "checks": checks,
        "errors": dict(zip(dts, errs, strict=True)),
        "series": (t_ref, z_ref, z_sim),
    }


def section(quick: bool = True):
    """Report section for ``validation/registry.py``."""
    from floatwind.report import ReportSection, overlay_figure

    res = evaluate(quick)
    sec = ReportSection(title="Analytic: damped heave oscillator through the full pipeline (RK4)")
    sec.notes.append(
        f"m = {MASS:g} kg, k = {K_HEAVE:g} N/m, zeta = {ZETA:g}, z0 = {Z0:g} m; max |error| of "
        "PtfmHeave: " + ", ".join(f"dt {dt:g} s: {e:.3e} m" for dt, e in res["errors"].items())
    )
    sec.table = [{"case": "analytic_oscillator", **c} for c in res["checks"]]
    t, ze, z = res["series"]
    sec.figures.append(
        overlay_figure(
            t,
            ze,
            z,
            title="heave oscillator, dt 0.1 s: floatwind vs closed form",
            units="m",
            ref_label="closed form",
        )
    )
    return sec


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="10 s instead of 40 s")
    args = p.parse_args(argv)
    res = evaluate(args.quick)
    for c in res["checks"]:
        print(
            f"{'ok  ' if c['passed'] else 'FAIL'} {c['metric']}: {c['value']:.4g} ({c['criterion']})"
        )
    return 0 if all(c["passed"] for c in res["checks"]) else 1


if __name__ == "__main__":
    sys.exit(main())
