"""Wang sec. IV.D.2 (Figs. 30-31): 2-body vs 3-body free vibration of the truncated spar from
X4 = X5 = 0.4 rad with nacelle yaw 0.3 deg/s and spin 12.1 rpm.

Checks the dissertation's sentences
  "Figs. 30-31 show the significant influence of the unconstrained G_s on the global motion (only X6
   and X3t shown)" (quantitative: max |X6(3-body) - X6(2-body)| >= 10 % of max |X6(2-body)|, and the
   same for X3t, the heave of the tower CM G_t);
  "the overhang length of the rotor in the 3-body system was adjusted to make the CM of the topsides
   exactly on the top of the tower ... the general motion of the 3-body system matched the 2-body
   system perfectly" (quantitative: with the overhang moved so, the 3-body tree and a 2-body tree
   whose lumped RNA has the same mass properties agree to 1e-6 of the motion range, rotor locked:
   a 2-body tree has no spinning body; with spin the on-axis 3-body tree *is* Wang's 2-body EOMs,
   tests/test_multibody_crosscheck.py, 1e-9).
The "2-body" of the comparison is therefore the 3-body tree with the topside CM on the axis.

Model: cases/truncated_spar_84.yaml, restoring only (exact hydrostatics + the four taut lines; no
Morison, no wind), as the text ("the only externally applied forces are the restoring forces").

    python validation/seed_cases/iv_d2_two_vs_three_body.py [--out DIR] [--quick]
"""

from __future__ import annotations

import copy
import sys

import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))
from validation.seed_cases._common import Check, Outcome, build, cli, figure, read_case, run_model


def overhang_on_axis(data: dict) -> float:
    """Overhang (m) that puts the nacelle + rotor CM on the tower axis (Wang's adjustment)."""
    from floatwind.case.topology import topology_params
    from floatwind.multibody.topologies import OC3_DEFAULTS, _merge, rotor_geometry

    p = _merge(OC3_DEFAULTS, topology_params(data["topology"]))
    geo = rotor_geometry(p)
    rc = geo["apex_n"] + geo["R_s2n"] @ geo["rotor_cm_h"]
    n = p["nacelle"]
    x_cm = (n["mass"] * n["cm"][0] + geo["rotor_mass"] * rc[0]) / (n["mass"] + geo["rotor_mass"])
    # the rotor CM moves one-for-one with the (horizontal) overhang
    return float(
        p["rotor"]["overhang"] - x_cm * (n["mass"] + geo["rotor_mass"]) / geo["rotor_mass"]
    )


def free_case(on_axis: bool, spin: bool = True) -> dict:
    d = read_case("truncated_spar_84.yaml")
    d["loads"] = [
        ld for ld in d["loads"] if ld["type"] in ("gravity", "hydrostatics", "mooring_taut")
    ]
    d["topology"]["yaw"] = {"kind": "constant_rate", "rate_deg": 0.3}
    if not spin:
        d["topology"]["spin"] = {"kind": "locked", "value": 0.0}
    if on_axis:
        d["topology"]["rotor"] = dict(d["topology"]["rotor"], overhang=overhang_on_axis(d))
    d["initial"] = {"angles": [0.4, 0.4, 0.0]}
    return d


def lumped_two_body(d3: dict) -> dict:
    """The 2-body tree whose RNA is the nacelle + rotor of the on-axis 3-body tree (rotor locked)."""
    from floatwind.case.topology import topology_params
    from floatwind.multibody.topologies import _combine, layout

    bs, js = layout("three_body", topology_params(d3["topology"]))
    spin = js[1]
    R = spin.R0_c2p
    rot = bs[2]
    m, c, inertia = _combine(
        [
            (bs[1].mass, bs[1].cm, bs[1].inertia),
            (rot.mass, spin.position_parent + R @ rot.cm, R @ rot.inertia @ R.T),
        ]
    )
    d = copy.deepcopy(d3)
    topo = d["topology"]
    topo["kind"] = "two_body"
    topo.pop("spin", None)
    topo.pop("rotor", None)
    topo["rna"] = {
        "mass": float(m),
        "cm": np.asarray(c).tolist(),
        "inertia": np.asarray(inertia).tolist(),
    }
    topo["rna_on_axis"] = False
    return d


def x3t(ds, model) -> np.ndarray:
    """Heave of the tower CM G_t from the reference-point motion (rigid tower)."""
    from floatwind.rotation import euler123_matrix

    cm = np.asarray(model.tree.bodies[0].cm_b, float)
    ang = np.stack([ds.X4.values, ds.X5.values, ds.X6.values], axis=-1)
    R = euler123_matrix(ang)
    return ds.PtfmHeave.values + (R @ cm)[:, 2] - cm[2]


def run(out, quick: bool) -> Outcome:
    res = Outcome("IV.D.2 2-body vs 3-body, X4 = X5 = 0.4 rad, yaw 0.3 deg/s (Figs. 30-31)")
    sets = (
        {"t_max": 15.0, "dt": 0.05, "dt_out": 0.1}
        if quick
        else {"t_max": 200.0, "dt": 0.025, "dt_out": 0.1}
    )
    m3 = build(free_case(False), "iv_d2_3body", **sets)
    m2 = build(free_case(True), "iv_d2_2body", **sets)
    ds3, ds2 = run_model(m3), run_model(m2)
    t = ds3.time.values
    x6_3, x6_2 = ds3.X6.values, ds2.X6.values
    z3, z2 = x3t(ds3, m3), x3t(ds2, m2)
    d6 = float(np.abs(x6_3 - x6_2).max() / np.abs(x6_2).max())
    dz = float(np.abs(z3 - z2).max() / np.abs(z2).max())
    for lab, v in (("X6", d6), ("X3t", dz)):
        res.checks.append(
            Check(
                f"the unconstrained G_s changes {lab}",
                f"max|d{lab}| / max|{lab} 2-body|",
                v,
                ">= 1e-4",
                v >= 1e-4,
            )
        )
        res.checks.append(
            Check(
                f"... significantly ({lab})",
                f"max|d{lab}| / max|{lab} 2-body|",
                v,
                ">= 0.1",
                v >= 0.1,
                False,
            )
        )
    # degenerate 3-body (topside CM on the axis) vs a genuine 2-body tree, rotor locked
    d3 = free_case(True, spin=False)
    short = dict(sets, t_max=min(sets["t_max"], 30.0))
    dsa = run_model(build(d3, "iv_d2_3body_axis_locked", **short))
    dsb = run_model(build(lumped_two_body(d3), "iv_d2_2body_locked", **short))
    err = max(
        float(np.abs(dsa[c].values - dsb[c].values).max() / max(np.ptp(dsb[c].values), 1e-6))
        for c in ("X1", "X2", "X3", "X4", "X5", "X6")
    )
    res.checks.append(
        Check(
            "3-body with the topside CM on the tower axis matches the 2-body system",
            "max error / range (6 DOF)",
            err,
            "< 1e-6",
            err < 1e-6,
        )
    )
    res.lines.append(
        f"overhang for the on-axis topside CM: {overhang_on_axis(read_case('truncated_spar_84.yaml')):.4f} m (ElastoDyn -5.0191 m)"
    )
    res.figures.append(
        figure(
            out / "iv_d2_rotation.png",
            t,
            [
                ("X6 (deg)", [(np.degrees(x6_2), "2-body"), (np.degrees(x6_3), "3-body")]),
                (
                    "X4 (deg)",
                    [(np.degrees(ds2.X4.values), "2-body"), (np.degrees(ds3.X4.values), "3-body")],
                ),
            ],
            "Wang Fig. 30: rotation, 2-body vs 3-body",
        )
    )
    res.figures.append(
        figure(
            out / "iv_d2_translation.png",
            t,
            [
                ("X3t (m)", [(z2, "2-body"), (z3, "3-body")]),
            ],
            "Wang Fig. 31: heave of the tower CM, 2-body vs 3-body",
        )
    )
    return res


def main(argv=None) -> int:
    return cli(run, __doc__, argv)


if __name__ == "__main__":
    sys.exit(main())
