"""Why the OC3 spar's roll/pitch frequency differs from the published one (issue 40).

Jonkman (2010), NREL/TP-500-47535 ("Definition of the Floating System for Phase IV of OC3"),
publishes the full-system natural frequencies of OC3-Hywind from an eigen-analysis of FAST's
linearised model: surge/sway 0.0080 Hz, heave 0.0324 Hz, roll 0.0342 Hz, pitch 0.0343 Hz,
yaw 0.1210 Hz. floatwind's linearization of the shared rigid deck (ref07: OC3 spar and NREL
5 MW, Capytaine-made WAMIT coefficients, the OC3 linearised mooring and yaw spring) gives
roll/pitch 0.0335 Hz, as OpenFAST's own free decay of that deck does.

This study measures, one at a time and then together, what each difference between the
published model and the shared deck does to the roll and pitch frequencies:

* (a) the added mass: A(omega) at the mode's own frequency (floatwind's default) against the
  infinite-frequency limit without radiation damping (``modes(..., potential="infinite")``,
  what FAST v7's eigen-analysis of 2010 could use: HydroDyn's radiation memory was first
  linearised in OpenFAST in 2020, OpenFAST pull request #350), the sensitivity of the
  frequency to a uniform scale of A_inf, and the mesh-converged A_inf of the OC3 hull
  (Capytaine, the shared files' 1,600-panel layout refined around and along and extrapolated:
  :func:`converged_added_mass`; the original WAMIT files of the OC3 hull are not in the shared
  data, so their A is not known here);
* (b) the flexible tower: ElastoDyn's first and second fore-aft and side-to-side tower modes
  (TwFADOF1/2, TwSSDOF1/2) switched on in a copy of the deck (blade and drivetrain
  flexibility are not modelled in floatwind; more degrees of freedom can only lower the
  undamped frequencies of a conservative system: Rayleigh's interlacing theorem);
* (c) the mass and inertia: the deck's rigid-body mass matrix against the OC3 definition's
  totals (8,066,048 kg, CM 78.00 m below the SWL: the sum of the published platform, tower,
  nacelle and rotor);
* (d) the mooring: the deck's linear stiffness is the report's Eq. 5-3 matrix and yaw spring;
  the fairlead-offset terms (K15 = -2.821e6 N/rad) are switched off to show their size;
* (e) the hydrostatics: the report's C33 = 332,941 N/m, C44 = C55 = -4,999,180,000 N m/rad
  (Eq. 4-3) in place of Capytaine's 333,550 N/m and -5.008401e9 N m/rad.

    python validation/linear/oc3_published.py

Prints one table (frequencies in Hz, the change against the published model's convention);
docs/linearization.md ("Published OC3 values") holds its numbers. Takes about 8 minutes on the
loaded 2-core machine (two linearizations, five Capytaine solves of up to 7,500 panels, ~1 GB).
"""

from __future__ import annotations

import dataclasses
import pathlib
import re
import shutil
import sys
import tempfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
REF07 = ROOT / "../shared/reference/openfast/ref07_potential_decay"
DECK = "ref07_potential_decay.fst"
FILES = ("ElastoDyn.dat", "ElastoDyn_Blade.dat", "ElastoDyn_Tower.dat", "HydroData",
         "HydroDyn.dat", "SeaState.dat", DECK)  # fmt: skip

#: Jonkman (2010) NREL/TP-500-47535, full-system natural frequencies (Hz), FAST column
PUBLISHED = {"PtfmSurge": 0.0080, "PtfmSway": 0.0080, "PtfmHeave": 0.0324,
             "PtfmRoll": 0.0342, "PtfmPitch": 0.0343, "PtfmYaw": 0.1210}  # fmt: skip
#: the report's hydrostatics (Eq. 4-3) and the shared deck's Capytaine .hst (README of ref07)
C_OC3 = {2: 332941.0, 3: -4999180000.0, 4: -4999180000.0}
C_CAPYTAINE = {2: 333550.0, 3: -5.008401e9, 4: -5.008401e9}
#: the OC3 definition's masses (kg) and CM heights above the SWL (m): platform, tower (CM
#: 43.4 m), nacelle (1.75 m above the 87.6 m tower top, NacCMzn), rotor (at the 90 m hub height)
OC3_MASSES = ((7466330.0, -89.9155), (249718.0, 43.4), (240000.0, 87.6 + 1.75), (110000.0, 90.0))
OC3_TOTAL_MASS = sum(m for m, _ in OC3_MASSES)
OC3_TOTAL_CM_Z = sum(m * z for m, z in OC3_MASSES) / OC3_TOTAL_MASS


def tower_deck(folder: pathlib.Path) -> pathlib.Path:
    """A copy of ref07 in ``folder`` with the four tower modes switched on."""
    for name in FILES:
        src = REF07 / name
        if src.is_dir():
            shutil.copytree(src, folder / name, dirs_exist_ok=True)
        else:
            shutil.copy(src, folder / name)
    ed = folder / "ElastoDyn.dat"
    text = ed.read_text()
    for key in ("TwFADOF1", "TwFADOF2", "TwSSDOF1", "TwSSDOF2"):
        text, n = re.subn(rf"^(\s*)False(\s+{key}\b)", r"\1True \2", text, flags=re.M)
        assert n == 1, key
    ed.write_text(text)
    return folder / DECK


def roll_pitch(md) -> tuple[float, ...]:
    """Roll, pitch, surge, heave, yaw frequencies (Hz)."""
    f = dict(zip(md.dof, md.omega_n / (2 * np.pi)))
    return tuple(float(f[d]) for d in ("PtfmRoll", "PtfmPitch", "PtfmSurge", "PtfmHeave",
                                        "PtfmYaw"))  # fmt: skip


def with_K(lin, dK: dict) -> object:
    K = lin.K.copy()
    for (i, j), v in dK.items():
        K[i, j] += v
    return dataclasses.replace(lin, K=K)


def with_added_mass_scale(lin, s: float):
    """A_inf scaled by (1 + s) in M (A(omega) is not used with ``potential="infinite"``)."""
    return dataclasses.replace(lin, M=lin.M + s * lin.added_mass_inf())


def rigid_mass(lin) -> tuple[float, float]:
    """Total structural mass and CM height of the linearised model (M less A_inf)."""
    M = lin.M - lin.added_mass_inf()
    m = M[0, 0]
    return float(m), float(M[0, 4] / m)  # M_15 = m z_G about the PRP


def converged_added_mass(tmp: pathlib.Path) -> tuple[np.ndarray, np.ndarray, str]:
    """A_inf (6, 6, SI, about the origin) of the OC3 hull at the shared files' layout (32 sides x
    50 panels) and Richardson-extrapolated to a converged mesh: the layout refined around (64,
    128 sides) and along (100, 200 panels) by whole factors (``hull_from_profile(...,
    refine=)``, validation/bem/oc3_capytaine.py), each family's first-order error (observed
    order within 0.5-2, else 1) extrapolated and the two added (independent leading errors)."""
    from floatwind.bem import compute_coefficients, hull_from_profile

    sys.path.insert(0, str(ROOT / "validation" / "bem"))
    import oc3_capytaine as oc3  # the same hull profile, order rule and extrapolation

    prof = oc3._profile()
    A, log = {}, []
    for lv in ((1, 1), (2, 1), (4, 1), (1, 2), (1, 4)):
        hull = hull_from_profile(prof, panels=oc3.PANELS, n_sectors=32, refine=lv, name="oc3")
        ds = compute_coefficients(hull, omega=[0.2], headings_deg=[0.0], rho=oc3.RHO, g=oc3.G,
                                  cache_dir=tmp / "cache")  # fmt: skip
        A[lv] = np.asarray(ds.added_mass_inf.values, float)
        log.append(f"{lv}: {hull.n_panels} panels, A11 {A[lv][0, 0]:.5e}, A33 {A[lv][2, 2]:.5e}, "
                   f"A55 {A[lv][4, 4]:.5e}, A15 {A[lv][0, 4]:.5e}")  # fmt: skip
    base = A[(1, 1)]
    out = base.copy()
    for fam in (((1, 1), (2, 1), (4, 1)), ((1, 1), (1, 2), (1, 4))):
        f1, f2, f3 = (A[lv] for lv in fam)
        for i in range(6):
            for j in range(6):
                if abs(base[i, j]) > 1e-6 * abs(base).max():
                    out[i, j] += oc3.observed_order(f1[i, j], f2[i, j], f3[i, j])[2] - f3[i, j]
                    out[i, j] += f3[i, j] - base[i, j]
    return base, out, "\n".join(log)


def main(argv=None) -> int:
    from floatwind.cli._case import load_model
    from floatwind.linear.matrices import linearize
    from floatwind.linear.modes import modes

    rows = []

    def row(name, rp, ref=None):
        rows.append((name, rp, ref))

    lin = linearize(load_model(str(REF07 / DECK)), "equilibrium")
    md_w = modes(lin)
    md_inf = modes(lin, potential="infinite")
    base = roll_pitch(md_inf)
    row("(a) A(omega) at the mode's frequency (floatwind default)", roll_pitch(md_w), base)
    row("(a) A_inf, no radiation damping (the published convention)", base, base)
    row("    ... without any damping (C = 0)",
        roll_pitch(modes(dataclasses.replace(lin, C=0 * lin.C), potential="infinite")), base)  # fmt: skip
    dC = {(k, k): C_OC3[k] - C_CAPYTAINE[k] for k in C_OC3}
    row("(e) the report's C33, C44, C55 (Eq. 4-3)",
        roll_pitch(modes(with_K(lin, dC), potential="infinite")), base)  # fmt: skip
    k15 = {(0, 4): -lin.K[0, 4], (4, 0): -lin.K[4, 0], (1, 3): -lin.K[1, 3], (3, 1): -lin.K[3, 1]}
    row("(d) mooring without its fairlead-offset terms K15, K24",
        roll_pitch(modes(with_K(lin, k15), potential="infinite")), base)  # fmt: skip
    m, zg = rigid_mass(lin)
    print(f"(c) mass of the deck {m:,.1f} kg (OC3 {OC3_TOTAL_MASS:,.0f} kg), CM z {zg:.3f} m "
          f"(OC3 {OC3_TOTAL_CM_Z:.3f} m)")  # fmt: skip
    # the deck's mass and CM height put exactly on the OC3 definition's totals: M of a rigid
    # body moved by dm at the CM (translation block and the m z coupling; inertia unchanged)
    dm = OC3_TOTAL_MASS - m
    dM = np.zeros_like(lin.M)
    dM[0, 0] = dM[1, 1] = dM[2, 2] = dm
    dmz = OC3_TOTAL_MASS * OC3_TOTAL_CM_Z - m * zg
    dM[0, 4] = dM[4, 0] = dmz
    dM[1, 3] = dM[3, 1] = -dmz
    dK = np.zeros_like(lin.K)  # gravity's -g (m z_G) restoring in roll and pitch
    dK[3, 3] = dK[4, 4] = -lin.water[1] * dmz
    lin_c = dataclasses.replace(lin, M=lin.M + dM, K=lin.K + dK)
    row("(c) mass and CM height on the OC3 totals", roll_pitch(modes(lin_c, potential="infinite")),
        base)  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        a_base, a_conv, log = converged_added_mass(pathlib.Path(tmp))
    print("(a) Capytaine A_inf of the OC3 hull by refinement level (around, along):\n" + log)
    d = {(i, j): f"{100 * (a_conv[i, j] / a_base[i, j] - 1):+.2f} %" for i, j in
         ((0, 0), (2, 2), (4, 4), (0, 4))}  # fmt: skip
    print(f"(a) mesh-converged A_inf against the 1,600-panel layout: A11 {d[0, 0]}, A33 {d[2, 2]}, "
          f"A55 {d[4, 4]}, A15 {d[0, 4]}")  # fmt: skip
    data, rho, J = lin.radiation[0]
    shared = rho * np.asarray(data.added_mass_inf, float)
    print(f"    the shared file's A11 {shared[0, 0]:.5e} against the 1,600-panel layout's "
          f"{a_base[0, 0]:.5e}")  # fmt: skip
    dM = J.T @ (a_conv - shared) @ J
    lin_a = dataclasses.replace(lin, M=lin.M + dM)
    row("(a) A_inf mesh-converged (Richardson) instead of the shared 1,600-panel file",
        roll_pitch(modes(lin_a, potential="infinite")), base)  # fmt: skip
    keep = a_conv.copy()
    keep[0, 0], keep[1, 1] = shared[0, 0], shared[1, 1]
    lin_k = with_K(dataclasses.replace(lin, M=lin.M + J.T @ (keep - shared) @ J), dC)
    row("(a) + (e), converged A_inf but A11 = A22 as the shared file",
        roll_pitch(modes(lin_k, potential="infinite")), base)  # fmt: skip
    lin_ae = with_K(lin_a, dC)
    md_ae = modes(lin_ae, potential="infinite")
    row("(a) + (e): converged A_inf and the report's hydrostatics", roll_pitch(md_ae), base)
    print("    (a) + (e), all platform modes: " + ", ".join(
        f"{dd} {v:.5f}" for dd, v in zip(md_ae.dof, md_ae.omega_n / (2 * np.pi))))  # fmt: skip
    for s in (0.99, 0.997):  # the surge added mass alone (A11, A22)
        dA = np.zeros((6, 6))
        dA[0, 0] = dA[1, 1] = (s - 1.0) * shared[0, 0]
        row(f"(a) A11 = A22 x {s:g} alone",
            roll_pitch(modes(dataclasses.replace(lin, M=lin.M + J.T @ dA @ J),
                             potential="infinite")), base)  # fmt: skip
    for s in (-0.02, 0.02):
        row(f"(a) A_inf scaled by {1 + s:g}",
            roll_pitch(modes(with_added_mass_scale(lin, s), potential="infinite")), base)  # fmt: skip
    # the A_inf scale that would give the published pitch frequency (secant on the scale)
    f0 = base[1]
    f1 = roll_pitch(modes(with_added_mass_scale(lin, -0.02), potential="infinite"))[1]
    s_needed = -0.02 * (PUBLISHED["PtfmPitch"] - f0) / (f1 - f0)
    print(f"(a) A_inf would have to be {100 * s_needed:+.2f} % (all entries) for pitch 0.0343 Hz")
    with tempfile.TemporaryDirectory() as tmp:
        flex = linearize(load_model(str(tower_deck(pathlib.Path(tmp)))), "equilibrium")
        md_f = modes(flex, potential="infinite")
        row("(b) + tower modes TwFA1/2, TwSS1/2 (A_inf)", roll_pitch(md_f), base)
        row("(b) + tower modes, A(omega) at the mode's frequency", roll_pitch(modes(flex)), base)
        Jf = flex.radiation[0][2]
        dMf = Jf.T @ (a_conv - shared) @ Jf
        flex_ae = dataclasses.replace(with_K(flex, dC), M=flex.M + dMf)
        row("(a) + (b) + (e): converged A_inf, tower modes, the report's hydrostatics",
            roll_pitch(modes(flex_ae, potential="infinite")), base)  # fmt: skip
        both = with_K(flex, dC)
        row("(b) + (e): tower modes and the report's hydrostatics (A_inf)",
            roll_pitch(modes(both, potential="infinite")), base)  # fmt: skip
        g0 = roll_pitch(modes(both, potential="infinite"))[1]
        g1 = roll_pitch(modes(with_added_mass_scale(both, -0.02), potential="infinite"))[1]
        s2 = -0.02 * (PUBLISHED["PtfmPitch"] - g0) / (g1 - g0)
        print(f"(b) + (e): A_inf would have to be {100 * s2:+.2f} % (all entries) for pitch "
              "0.0343 Hz")  # fmt: skip
        ft = md_f.omega_n / (2 * np.pi)
        print("    tower model, all modes (Hz, A_inf): " + ", ".join(
            f"{d} {f:.5f}" for d, f in zip(md_f.dof, ft)))  # fmt: skip
    print(f"{'':66s} {'roll Hz':>9s} {'pitch Hz':>9s} {'d roll':>8s} {'d pitch':>8s} "
          f"{'surge':>8s} {'heave':>8s} {'yaw':>8s}")  # fmt: skip
    pub = [PUBLISHED[d] for d in ("PtfmRoll", "PtfmPitch", "PtfmSurge", "PtfmHeave", "PtfmYaw")]
    print(f"{'published (Jonkman 2010)':66s} {pub[0]:9.4f} {pub[1]:9.4f} {'':17s} "
          f"{pub[2]:8.4f} {pub[3]:8.4f} {pub[4]:8.4f}")  # fmt: skip
    for name, f, ref in rows:
        dr = f"{100 * (f[0] / ref[0] - 1):+7.2f}%" if ref else ""
        dp = f"{100 * (f[1] / ref[1] - 1):+7.2f}%" if ref else ""
        print(f"{name:66s} {f[0]:9.5f} {f[1]:9.5f} {dr:>8s} {dp:>8s} {f[2]:8.5f} {f[3]:8.5f} "
              f"{f[4]:8.5f}")  # fmt: skip
    f = md_inf.omega_n / (2 * np.pi)
    print("published convention, all platform modes: " + ", ".join(
        f"{d} {v:.5f} (published {PUBLISHED[d]:.4f})" for d, v in zip(md_inf.dof, f)))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
