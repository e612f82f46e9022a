"""Catenary mooring checks: closed forms, MoorPy on the OC3 lines and on a bridle with a connect
node, OC3 linearised stiffness.

    python validation/mooring/catenary_checks.py OUT_DIR

Writes ``OUT_DIR/catenary_checks.md`` (the numbers and pass/fail) and two figures:
``catenary_moorpy_error.png`` (relative fairlead-tension difference to MoorPy over the offset
grid) and ``catenary_line_shapes.png`` (line 1 at surge -40..40 m). Checks (issue 18):

1. no seabed contact, closed forms: the inelastic textbook catenary (vertex at the anchor) and
   the elastic catenary (Jonkman 2007 eqs. 2-58/2-59 evaluated forward, solved back): <= 1e-10;
2. MoorPy (``moorpy.Catenary.catenary``, Tol 1e-12) on the three OC3 lines over surge
   -40..40 m, sway -40..40 m, heave -10..10 m: fairlead tensions <= 1e-6 relative;
3. the OC3 linearised stiffness at the static equilibrium of the ref06 model against the OC3
   definition (ref01 README: K11 = K22 = 41,180 N/m, K15 = -K24 = -2.821e6 N, K33 = 11,940 N/m,
   K44 = K55 = 3.111e8 N m/rad, K66 = 1.156e7 N m/rad): within 2 %;
4. connect nodes: a bridle (two 60 m legs from fairleads 6 m apart) on a node carrying a 2 t
   clump and a 0.5 m^3 buoy, with an 850 m line to an anchor on the seabed, against MoorPy's
   equilibrium of the same system (free point) over body offsets surge -40..40 m, sway
   -20..20 m: all fairlead and anchor tensions <= 1e-6 relative, node position <= 1e-6 m.

Exit status 1 when a check fails. Nothing is written outside OUT_DIR.
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

from validation.mooring._oc3 import (  # noqa: E402
    EA,
    K_OC3,
    LENGTH,
    RHO,
    WET,
    G,
    bridle_lines,
    moorpy_bridle,
    oc3_case,
    oc3_geometry,
)


def closed_form_errors() -> dict[str, float]:
    from floatwind.mooring.catenary import solve_lines

    worst_in, worst_el = 0.0, 0.0
    for a in (50.0, 200.0, 1000.0):
        for x in (20.0, 300.0, 850.0):
            s = a * math.sinh(x / a)
            y = a * (math.cosh(x / a) - 1.0)
            if s > 1e5:
                continue
            r = solve_lines(x, y, s, WET, np.inf, 0.0, False)
            worst_in = max(worst_in, abs(r["H"] / (WET * a) - 1), abs(r["V"] / (WET * s) - 1))
    for H in (1e4, 2e5, 7e5, 3e6):
        for V in (6.4e5, 8e5, 1.5e6):
            for ea in (np.inf, EA, 5e6):
                inv = 0.0 if np.isinf(ea) else 1 / ea
                va = V - WET * LENGTH
                l = (H / WET) * (np.arcsinh(V / H) - np.arcsinh(va / H)) + H * LENGTH * inv
                h = (H / WET) * (np.hypot(1, V / H) - np.hypot(1, va / H))
                h += (V * LENGTH - WET * LENGTH**2 / 2) * inv
                if np.isinf(ea) and math.hypot(l, h) > (1 - 1e-4) * LENGTH:
                    # an inextensible line pulled within 1e-4 of straight: its tension is
                    # ill-conditioned (rounding of l, h alone moves V by ~1e-10), not a check
                    continue
                r = solve_lines(l, h, LENGTH, WET, ea, 0.0, False)
                worst_el = max(worst_el, abs(r["H"] / H - 1), abs(r["V"] / V - 1))
    return {"inelastic": float(worst_in), "elastic": float(worst_el)}


def moorpy_grid():
    from moorpy.Catenary import catenary

    from floatwind.mooring.catenary import solve_lines

    surge = np.linspace(-40, 40, 17)
    sway = np.linspace(-40, 40, 9)
    heave = np.array([-10.0, 0.0, 10.0])
    err = np.zeros((surge.size, sway.size, heave.size))
    for i, sx in enumerate(surge):
        for j, sy in enumerate(sway):
            for k, sz in enumerate(heave):
                fair, anch = oc3_geometry(np.array([sx, sy, sz]))
                d = fair - anch
                lh = np.hypot(d[:, 0], d[:, 1])
                r = solve_lines(lh, d[:, 2], LENGTH, WET, EA, 0.001, True)
                for n in range(3):
                    _, _, hf, vf, _ = catenary(
                        lh[n], d[n, 2], LENGTH, EA, WET, CB=0.001, Tol=1e-12, MaxIter=500
                    )
                    err[i, j, k] = max(err[i, j, k], abs(r["T"][n] / math.hypot(hf, vf) - 1))
    return surge, sway, heave, err


def bridle_vs_moorpy():
    """Max relative tension and absolute node-position differences to MoorPy (check 4)."""
    from floatwind.environment import Environment
    from floatwind.loads.base import Kinematics
    from floatwind.loads.catenary import CatenaryMooring

    lines, connects = bridle_lines()
    load = CatenaryMooring(body=0, lines=lines, connects=connects)
    env = Environment(gravity=G, rho_water=RHO, water_depth=320.0)
    worst_t, worst_x = 0.0, 0.0
    for sx in np.linspace(-40.0, 40.0, 9):
        for sy in (-20.0, 0.0, 20.0):
            off = np.array([sx, sy, 0.0])
            z = np.zeros((1, 1, 3))
            kin = Kinematics(t=0.0, r_G_g=off[None, None], R_b2g=np.eye(3)[None, None],
                             v_G_g=z, w_b_g=z.copy(), cm_b=np.zeros((1, 3)))  # fmt: skip
            w = load.wrench(0.0, kin, env)
            ms = moorpy_bridle(off)
            for i, ml in enumerate(ms.lineList):
                worst_t = max(worst_t, abs(w.channels[f"FAIRTEN{i + 1}"][0] / ml.TB - 1),
                              abs(w.channels[f"ANCHTEN{i + 1}"][0] / ml.TA - 1))  # fmt: skip
            node = np.array([w.channels[f"Point1P{ax}"][0] for ax in "xyz"])
            worst_x = max(worst_x, float(np.max(np.abs(node - ms.pointList[3].r))))
    return worst_t, worst_x


def oc3_stiffness():
    from floatwind.case.loader import model_from_dict
    from floatwind.simulate import mooring as sm
    from floatwind.simulate.equilibrium import static_equilibrium
    from floatwind.simulate.system import System

    model = model_from_dict(oc3_case("catenary"))
    eq = static_equilibrium(model)
    system = System(model)
    y = system.initial_state()[:1].copy()
    y[0, :6] = eq["q"]
    y[:, 6:] = 0.0
    origin, R = sm.pose_of_state(model, system, y, 0)
    return sm.mooring_stiffness(model, origin, R), eq, model, origin, R


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out_dir", type=pathlib.Path, help="folder for the report and figures")
    args = p.parse_args(argv)
    out = args.out_dir
    out.mkdir(parents=True, exist_ok=True)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = []
    cf = closed_form_errors()
    rows.append(("closed form, inelastic, max rel. error of H, V", cf["inelastic"], 1e-10))
    rows.append(("closed form, elastic, max rel. error of H, V", cf["elastic"], 1e-10))
    surge, sway, heave, err = moorpy_grid()
    rows.append(("MoorPy OC3 grid, max rel. fairlead-tension difference", err.max(), 1e-6))
    K, eq, model, origin, R = oc3_stiffness()
    for (i, j), ref in K_OC3.items():
        rows.append((f"K{i + 1}{j + 1} at equilibrium / OC3 - 1", abs(K[i, j] / ref - 1), 0.02))
    bt, bx = bridle_vs_moorpy()
    rows.append(("MoorPy bridle + clump + buoy (connect node), max rel. tension difference", bt,
                 1e-6))  # fmt: skip
    rows.append(("MoorPy bridle + clump + buoy, max node position difference (m)", bx, 1e-6))

    fig, ax = plt.subplots(figsize=(6, 4))
    im = ax.pcolormesh(surge, sway, err.max(axis=2).T, shading="auto")
    fig.colorbar(im, label="max relative difference of the fairlead tension")
    ax.set_xlabel("surge (m)")
    ax.set_ylabel("sway (m)")
    ax.set_title("floatwind vs MoorPy, OC3 lines (heave -10..10 m)")
    fig.tight_layout()
    fig.savefig(out / "catenary_moorpy_error.png", dpi=100)
    plt.close(fig)

    from floatwind.mooring.catenary import line_shape, solve_lines

    fig, ax = plt.subplots(figsize=(7, 4))
    for sx in (-40.0, -20.0, 0.0, 20.0, 40.0):
        fair, anch = oc3_geometry(np.array([sx, 0.0, 0.0]))
        d = fair[0] - anch[0]
        lh = abs(d[0])
        r = solve_lines(lh, d[2], LENGTH, WET, EA, 0.001, True)
        x, z = line_shape(float(r["H"]), float(r["V"]), LENGTH, WET, EA, 0.001, True)
        ax.plot(anch[0, 0] - x * np.sign(anch[0, 0] - fair[0, 0]), z - 320.0,
                label=f"surge {sx:+g} m, T = {float(r['T']) / 1e3:.0f} kN")  # fmt: skip
    ax.set_xlabel("x (m)")
    ax.set_ylabel("z (m)")
    ax.legend(fontsize=8)
    ax.set_title("OC3 line 1 (anchor at -853.87 m)")
    fig.tight_layout()
    fig.savefig(out / "catenary_line_shapes.png", dpi=100)
    plt.close(fig)

    ok = all(v <= lim for _, v, lim in rows)
    lines = [
        "# Catenary mooring checks",
        "",
        "| check | value | limit | pass |",
        "|---|---|---|---|",
    ]
    lines += [f"| {n} | {v:.3e} | {lim:g} | {'yes' if v <= lim else 'NO'} |" for n, v, lim in rows]
    lines += ["", "Stiffness at the static equilibrium "
              f"(surge {eq['PtfmSurge']:.6f} m, heave {eq['PtfmHeave']:.6f} m, "
              f"pitch {math.degrees(eq['PtfmPitch']):.6f} deg):", "", "```"]  # fmt: skip
    lines += ["  ".join(f"{v:13.5e}" for v in row) for row in K]
    lines += ["```", "", "Figures: catenary_moorpy_error.png, catenary_line_shapes.png", ""]
    (out / "catenary_checks.md").write_text("\n".join(lines))
    print("\n".join(lines))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
