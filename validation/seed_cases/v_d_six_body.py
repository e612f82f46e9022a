"""Wang sec. V.D (Figs. 38-43): 6-body truncated spar, free vibration from rest with nacelle yaw
1.2 deg/s, hub spin 12.1 rpm and blade pitch 1.2 deg/s: global motion (forward dynamics) and the
internal loads nacelle-on-tower and hub-on-blade (inverse dynamics).

Checks the dissertation's sentences
  "both pitch and surge are minimized (zero crossing) when the nacelle yaw angle is 90 deg (at 75
   sec), while roll and sway are maximized" (quantitative, as IV.D.1: the moving mean over one free
   period of pitch and surge changes sign within 10 s of yaw = 90 deg; full run only);
  "the nearly constant internal force along the tower axis due to the topsides weight" (quantitative:
   mean YawBrFzp = -m_topside g to 0.5 %);
  "The natural frequency of tower pitch shown in Fig. 38 dominates the time histories of internal
   forces" (qualitative: dominant frequency of YawBrFxp within 20 % of that of pitch).

Model: the IV.D.1 linear restoring case cases/truncated_spar_iv_d1.yaml with the 6-body topology.

    python validation/seed_cases/v_d_six_body.py [--out DIR] [--quick]
"""

from __future__ import annotations

import sys

import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))
from validation.seed_cases._common import (
    Check,
    Outcome,
    build,
    cli,
    dominant_frequency,
    figure,
    joint_angle,
    read_case,
    run_model,
)
from validation.seed_cases.iv_d1_yaw_cm_shift import crossing_near, dominant_period, smooth


def run(out, quick: bool) -> Outcome:
    res = Outcome(
        "V.D 6-body free vibration, yaw 1.2 deg/s, spin 12.1 rpm, pitch 1.2 deg/s (Figs. 38-43)"
    )
    d = read_case("truncated_spar_iv_d1.yaml")
    d["topology"]["kind"] = "six_body"
    d["topology"]["pitch"] = {"kind": "constant_rate", "rate_deg": 1.2}
    sets = (
        {"t_max": 20.0, "dt": 0.05, "dt_out": 0.1}
        if quick
        else {"t_max": 150.0, "dt": 0.05, "dt_out": 0.1}
    )
    m = build(d, "v_d_six_body", **sets)
    ds = run_model(m)
    t = ds.time.values
    yaw = np.degrees(joint_angle(m, "yaw", t))
    if not quick:
        t90 = float(np.interp(90.0, yaw, t))
        for ch in ("PtfmPitch", "PtfmSurge"):
            x = ds[ch].values
            tc = crossing_near(t, smooth(t, x, dominant_period(t, x)), t90)
            dt_c = float("inf") if tc is None else abs(tc - t90)
            res.checks.append(
                Check(
                    f"{ch} mean crosses zero when the yaw passes 90 deg",
                    "|t_cross - t(yaw = 90)| (s)",
                    dt_c,
                    "<= 10",
                    dt_c <= 10.0,
                )
            )
    m_top = float(sum(b.mass for b in m.tree.bodies[1:]))
    fz = float(ds.YawBrFzp.values.mean())
    rel = abs(fz / (-m_top * 9.80665) - 1.0)
    res.checks.append(
        Check(
            "nearly constant axial tower-top force = topsides weight",
            "|mean YawBrFzp / (-m g) - 1|",
            rel,
            "<= 0.005",
            rel <= 0.005,
        )
    )
    ff, fp = dominant_frequency(t, ds.YawBrFxp.values), dominant_frequency(t, ds.PtfmPitch.values)
    r = abs(ff - fp) / fp
    res.checks.append(
        Check(
            "tower pitch frequency dominates the internal forces",
            "|f(YawBrFxp) - f(pitch)| / f(pitch)",
            r,
            "<= 0.2",
            r <= 0.2,
            False,
        )
    )
    res.lines.append(
        f"topside mass {m_top:,.1f} kg; mean YawBrFzp {fz / 1e3:,.1f} kN; max |RootMyb1| {np.abs(ds.RootMyb1.values).max() / 1e3:,.1f} kN m"
    )
    res.figures.append(
        figure(
            out / "v_d_rotation.png",
            t,
            [
                ("roll (deg)", [(np.degrees(ds.PtfmRoll.values), "")]),
                ("pitch (deg)", [(np.degrees(ds.PtfmPitch.values), "")]),
                ("yaw (deg)", [(np.degrees(ds.PtfmYaw.values), "")]),
            ],
            "Wang Fig. 38: rotation (6-body)",
        )
    )
    res.figures.append(
        figure(
            out / "v_d_translation.png",
            t,
            [(f"{c} (m)", [(ds[c].values, "")]) for c in ("PtfmSurge", "PtfmSway", "PtfmHeave")],
            "Wang Fig. 39: translation of the SWL reference point (6-body)",
        )
    )
    res.figures.append(
        figure(
            out / "v_d_nacelle_on_tower.png",
            t,
            [
                (
                    "force (kN)",
                    [(ds.YawBrFxp.values / 1e3, "Fx"), (ds.YawBrFyp.values / 1e3, "Fy")],
                ),
                ("moment (kN m)", [(ds[f"YawBrM{a}p"].values / 1e3, f"M{a}") for a in "xyz"]),
            ],
            "Wang Figs. 40-41: loads of the nacelle on the tower (tower axes; Fz = weight not shown)",
        )
    )
    res.figures.append(
        figure(
            out / "v_d_hub_on_blade.png",
            t,
            [
                ("force (kN)", [(ds[f"RootF{a}b1"].values / 1e3, f"F{a}") for a in "xyz"]),
                ("moment (kN m)", [(ds[f"RootM{a}b1"].values / 1e3, f"M{a}") for a in "xyz"]),
            ],
            "Wang Figs. 42-43: loads at the root of blade 1 (blade axes)",
        )
    )
    return res


def main(argv=None) -> int:
    return cli(run, __doc__, argv)


if __name__ == "__main__":
    sys.exit(main())
