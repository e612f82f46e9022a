"""The power and thrust coefficients of the controlled ref09 model's BEM rotor over tip-speed
ratio and collective pitch (issue 36, docs/control.md "Wind estimate and peak shaving"): the
table the baseline controller's torque-balance wind-speed estimator reads (C_P, as ROSCO's
``Cp_Ct_Cq`` file, Abbas et al. 2022 sec. 2.4) and the peak-shaving design reads (C_T,
ROSCO's toolbox ``min_pitch_saturation``), from floatwind's steady BEM (the same kernel as the
time-domain rotor: ref09's blade and polars, precone -2.5 deg, tilt 5 deg; the swept area pi
R^2 with R the tip radius, 63 m).

    PYTHONPATH=$PWD python benchmarks/control_rotor_table.py [--out floatwind/data/nrel5mw_bem_cp_ct.txt]
"""

from __future__ import annotations

import argparse
import math
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
REF09 = ROOT.parent / "shared" / "reference" / "openfast" / "ref09_aero_fixed_speed"
TSR = np.arange(2.0, 13.01, 0.5)
PITCH_DEG = np.arange(-2.0, 30.01, 1.0)


def table():
    sys.path.insert(0, str(ROOT / "tests"))
    from conftest import ref09_airfoil_paths

    from floatwind.io.aerodyn import read_airfoil, read_blade
    from floatwind.rotor import BladeGeometry, airfoil_tables, bemt_options, performance

    af = airfoil_tables([read_airfoil(p) for p in ref09_airfoil_paths(REF09)])
    blade = BladeGeometry.from_blade_file(read_blade(REF09 / "AeroDyn_blade.dat"), n_airfoils=8)
    opt = bemt_options(ai_drag=True, ti_drag=True)
    perf = performance(blade, af, opt, hub_radius=1.5, precone=math.radians(-2.5),
                       wind_speed=11.4, tsr=TSR, pitch=np.radians(PITCH_DEG),
                       tilt=math.radians(5.0))  # fmt: skip
    return perf.cp, perf.ct


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=pathlib.Path, default=ROOT / "floatwind/data/nrel5mw_bem_cp_ct.txt")
    args = ap.parse_args(argv)
    cp, ct = table()
    with open(args.out, "w") as f:
        f.write("# NREL 5-MW BEM rotor of ref09 (floatwind steady BEM, benchmarks/control_rotor_table.py):\n")
        f.write("# R = 63 m (tip), area pi R^2, precone -2.5 deg, tilt 5 deg, rho 1.225, at 11.4 m/s\n")
        f.write("# tip-speed ratios\n" + " ".join(f"{x:g}" for x in TSR) + "\n")
        f.write("# pitch (deg)\n" + " ".join(f"{x:g}" for x in PITCH_DEG) + "\n")
        f.write("# C_P: one row per tip-speed ratio, one column per pitch\n")
        for row in cp:
            f.write(" ".join(f"{x:.6f}" for x in row) + "\n")
        f.write("# C_T: the same layout\n")
        for row in ct:
            f.write(" ".join(f"{x:.6f}" for x in row) + "\n")
    print(args.out, cp.shape, float(cp.max()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
