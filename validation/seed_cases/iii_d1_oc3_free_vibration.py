"""Wang sec. III.D.1 (Figs. 15-17): OC3-Hywind 2-body free vibration with rotor spin, no yaw.

Checks the dissertation's sentences
  "In Fig. 15, the yaw motion results from excitation by the gyro moments along the centerline of
   the tower" (quantitative: the part of the yaw that the spin adds, yaw(12.1 rpm) - yaw(rotor locked),
   is at least 30 % of the yaw; the rest is the kinematic coupling of roll and pitch), and, for the gyro moments of (3.28), "The gyro moment in the C-direction results
   from the angular velocity of tilt motion" (quantitative: MgyroA/C equal I_B psi_dot w_nC and
   -I_B psi_dot w_nA (with the 5 deg shaft tilt: -w_n x I_B psi_dot e_spin) to 1 % of their range
   (rates by finite differences of the output), and MgyroC has the tilt motion's frequency).

Model: cases/oc3_hywind.yaml as Wang's 2-body (3-body tree with the topside CM on the tower axis,
which is Wang's 2-body EOMs with spin, docs/multibody.md), linear restoring: OC3 hydrostatic
stiffness [J10] C33 = 332,941 N/m, C44 = C55 = -4,999,180,000 N m/rad (buoyancy part; gravity from
the gravity load) and "two linear springs with stiffness equal to 5e4 N/m in the surge and sway
directions" (sec. III.D); the OC3 yaw stiffness K66 = 11,560,000 + 98,340,000 N m/rad [J10] (Wang's
restoring matrix must have had one: without it the yaw of a 1-2-3 rolling and pitching body drifts
by radians, not what Fig. 15 shows); a vertical force equal to the weight holds the undisplaced position; no
damping, no hydrodynamics, no aerodynamics (as the FAST run). Initial conditions: roll 0.1 rad,
pitch 0.1 rad, sway 0.5 m at the SWL reference point.

    python validation/seed_cases/iii_d1_oc3_free_vibration.py [--out DIR] [--quick]
"""

from __future__ import annotations

import sys

import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))
from validation.seed_cases._common import Check, Outcome, build, cli, figure, read_case, run_model

#: OC3 hydrostatic restoring (buoyancy part) [J10] + Wang's surge/sway springs (sec. III.D)
C_LINEAR = [
    [5.0e4, 0.0, 0.0, 0.0, 0.0, 0.0],
    [0.0, 5.0e4, 0.0, 0.0, 0.0, 0.0],
    [0.0, 0.0, 332941.0, 0.0, 0.0, 0.0],
    [0.0, 0.0, 0.0, -4.99918e9, 0.0, 0.0],
    [0.0, 0.0, 0.0, 0.0, -4.99918e9, 0.0],
    [0.0, 0.0, 0.0, 0.0, 0.0, 1.099e8],
]


def on_axis_nacelle(data: dict) -> dict:
    """Nacelle CM x that puts the topside (nacelle + rotor) CM on the tower axis (Wang IV.D.2)."""
    from floatwind.case.topology import topology_params
    from floatwind.multibody.topologies import OC3_DEFAULTS, _merge, rotor_geometry

    p = _merge(OC3_DEFAULTS, topology_params(data["topology"]))
    geo = rotor_geometry(p)
    rc = geo["apex_n"] + geo["R_s2n"] @ geo["rotor_cm_h"]
    n = dict(p["nacelle"])
    n["cm"] = [float(-geo["rotor_mass"] * rc[0] / n["mass"]), 0.0, float(n["cm"][2])]
    return {k: n[k] for k in ("mass", "cm", "yaw_inertia")}


def case(spin: bool) -> dict:
    d = read_case("oc3_hywind.yaml")
    d["environment"] = {k: v for k, v in d["environment"].items() if k not in ("waves", "wind")}
    d["topology"]["nacelle"] = on_axis_nacelle(d)
    d["topology"]["yaw"] = {"kind": "locked", "value_deg": 0.0}
    if not spin:
        d["topology"]["spin"] = {"kind": "locked", "value": 0.0}
    d["loads"] = [
        {"type": "gravity"},
        {
            "type": "linear",
            "name": "restoring",
            "body": "tower",
            "point": [0, 0, 0],
            "stiffness": C_LINEAR,
        },
    ]
    d["initial"] = {"angles": [0.1, 0.1, 0.0], "displacement": [0.0, 0.5, 0.0]}
    return d


def run(out, quick: bool) -> Outcome:
    res = Outcome("III.D.1 OC3-Hywind 2-body free vibration (Figs. 15-17)")
    t_max, dt = (40.0, 0.05) if quick else (200.0, 0.025)
    sets = {"t_max": t_max, "dt": dt, "dt_out": 0.1}
    runs = {}
    for spin in (True, False):
        d = case(spin)
        m = build(d, f"iii_d1_{'spin' if spin else 'nospin'}", **sets)
        # weight held at the undisplaced position (linear restoring about it)
        w = float(m.tree.total_mass) * 9.80665
        d["loads"].append(
            {
                "type": "constant_force",
                "name": "buoyancy",
                "body": "tower",
                "point": [0, 0, 0],
                "force": [0, 0, w],
            }
        )
        m = build(d, m.name, **sets)
        runs[spin] = (m, run_model(m))
    m, ds = runs[True]
    _, ds0 = runs[False]
    t = ds.time.values
    yaw, yaw0 = ds.PtfmYaw.values, ds0.PtfmYaw.values
    ratio = float(np.abs(yaw - yaw0).max() / np.abs(yaw).max())
    res.checks.append(
        Check(
            "the yaw motion results from excitation by the gyro moments",
            "max |yaw(spin) - yaw(locked)| / max |yaw(spin)|",
            ratio,
            ">= 0.3",
            bool(ratio >= 0.3),
        )
    )
    # gyro moments (3.28) vs the nacelle angular velocity
    i_spin = float(m.tree.bodies[2].inertia_b[0, 0])
    psi = 12.1 * np.pi / 30
    from floatwind.rotation import t_omega

    ang = np.stack([ds.X4.values, ds.X5.values, ds.X6.values], axis=-1)
    rates = np.gradient(ang, t, axis=0)
    w_t = np.einsum("nij,nj->ni", t_omega(ang), rates)  # body axes (tower = nacelle at yaw 0)
    from floatwind.multibody.topologies import OC3_DEFAULTS, rotor_geometry

    e_spin = rotor_geometry(OC3_DEFAULTS)["R_s2n"][:, 0]  # shaft axis in nacelle (= tower) axes
    m_g = -np.cross(w_t, i_spin * psi * e_spin)
    exp_a, exp_c = -m_g[:, 1], m_g[:, 2]  # A = -y_n, C = z_n
    k = slice(5, -5)  # finite-difference rates: skip the ends
    err = max(
        np.abs(ds.MgyroA.values[k] - exp_a[k]).max() / (np.ptp(exp_a[k]) + 1e-9 * i_spin),
        np.abs(ds.MgyroC.values[k] - exp_c[k]).max() / np.ptp(exp_c[k]),
    )
    res.checks.append(
        Check(
            "gyro moments (3.28): (I_B psi_dot w_nC, 0, -I_B psi_dot w_nA)",
            "max error / range (rates by finite differences)",
            float(err),
            "< 1e-2",
            bool(err < 1e-2),
        )
    )
    f_c, f_t = dominant_frequency_pair(t, ds.MgyroC.values, ds.PtfmPitch.values)
    df = 1.0 / (t[-1] - t[0])
    res.checks.append(
        Check(
            "MgyroC results from the angular velocity of tilt motion (same frequency)",
            "dominant frequency MgyroC - tilt (Hz)",
            float(f_c - f_t),
            f"|.| <= {1.5 * df:.3g} (one FFT bin)",
            bool(abs(f_c - f_t) <= 1.5 * df),
        )
    )
    res.lines.append(
        f"tilt period {1 / f_t:.2f} s; max |yaw| {np.abs(yaw).max():.3e} rad (rotor locked {np.abs(yaw0).max():.3e}); "
        f"MgyroA range {np.ptp(ds.MgyroA.values) / 1e3:.1f} kN m, MgyroC range {np.ptp(ds.MgyroC.values) / 1e3:.1f} kN m; "
        f"I_spin {i_spin:.4g} kg m^2"
    )
    res.figures.append(
        figure(
            out / "iii_d1_rotation.png",
            t,
            [
                ("roll (deg)", [(np.degrees(ds.PtfmRoll.values), "")]),
                ("pitch (deg)", [(np.degrees(ds.PtfmPitch.values), "")]),
                ("yaw (deg)", [(np.degrees(yaw), "spin 12.1 rpm"), (np.degrees(yaw0), "no spin")]),
            ],
            "Wang Fig. 15: OC3-Hywind 2-body free vibration, rotations",
        )
    )
    res.figures.append(
        figure(
            out / "iii_d1_translation.png",
            t,
            [
                ("surge (m)", [(ds.PtfmSurge.values, "")]),
                ("sway (m)", [(ds.PtfmSway.values, "")]),
                ("heave (m)", [(ds.PtfmHeave.values, "")]),
            ],
            "Wang Fig. 16: translations of the SWL reference point",
        )
    )
    res.figures.append(
        figure(
            out / "iii_d1_rna_moments.png",
            t,
            [
                (
                    "MRNA_A (kN m)",
                    [(ds.MRNAA.values / 1e3, "RNA"), (ds.MgyroA.values / 1e3, "gyro")],
                ),
                (
                    "MRNA_B (kN m)",
                    [(ds.MRNAB.values / 1e3, "RNA"), (ds.MgyroB.values / 1e3, "gyro")],
                ),
                (
                    "MRNA_C (kN m)",
                    [(ds.MRNAC.values / 1e3, "RNA"), (ds.MgyroC.values / 1e3, "gyro")],
                ),
            ],
            "Wang Fig. 17: RNA moments on the tower top (A, B, C)",
        )
    )
    return res


def dominant_frequency_pair(t, a, b):
    from validation.seed_cases._common import dominant_frequency

    return dominant_frequency(t, a), dominant_frequency(t, b)


def main(argv=None) -> int:
    return cli(run, __doc__, argv)


if __name__ == "__main__":
    sys.exit(main())
