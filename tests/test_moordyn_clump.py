"""Two-segment mooring lines (a chain from the anchor, a wire to the fairlead) joined at a free
point carrying a clump weight, as issue 38's held-back deck has them, in irregular waves.

``clump_deck`` writes such a deck into a temporary folder: ref10 (OC3-Hywind, MoorDyn v2) with
each 902.2 m line replaced by 550 m of chain and 380 m of wire joined at an 8 t / 1 m^3 clump
(a MoorDyn v2 ``Free`` point with M and V), HydroDyn's Morison members of ref05 (so that the
waves act on the spar), SeaState's JONSWAP sea (WaveMod 2, Hs 5 m, Tp 10 s, a seed) and an
AddF0 ballast that balances the new lines' vertical pull. Checked (docs/moordyn.md, "Two-segment
lines with a clump weight"): the lines relax from a clump placed 100 m above its rest to within
1.3 mm of the static equilibrium (MoorDyn-C 2.7's own static solve: 0.1 mm from floatwind's);
``floatwind run`` runs it sub-stepped and as states.
"""

from __future__ import annotations

import math
import pathlib
import shutil
from types import SimpleNamespace

import numpy as np
import pytest

from floatwind.records import Kinematics

ROOT = pathlib.Path(__file__).resolve().parents[1]
REFS = ROOT.parent / "shared" / "reference" / "openfast"
REF10, REF05 = REFS / "ref10_moordyn_decay", REFS / "ref05_morison_jonswap"
needs_refs = pytest.mark.skipif(not (REF10.is_dir() and REF05.is_dir()),
                                reason="reference decks ref10/ref05 not available")  # fmt: skip
ENV = SimpleNamespace(rho_water=1025.0, gravity=9.80665, water_depth=320.0)
ANCHORS = [(853.87, 0.0), (-426.935, 739.4731115), (-426.935, -739.4731115)]
FAIRLEADS = [(5.2, 0.0), (-2.6, 4.5033321), (-2.6, -4.5033321)]
REST = (305.637, -301.762)  # the clump of line 1 at rest (x, z): floatwind 305.6372, -301.7619


def clump_moordyn(path: pathlib.Path, *, misplaced: bool = False, tmax_ic: float = 300.0):
    """A MoorDyn v2 file: three chain + wire lines joined at free points with a clump weight,
    the clumps at rest (rounded to 0.1 m, as a user places them from a static solve) or
    ``misplaced`` 100 m above and 80 m off."""
    pts = [f"{i + 1}   fixed   {a[0]:.7f}  {a[1]:.7f}  -320.0   0   0   0   0"
           for i, a in enumerate(ANCHORS)]  # fmt: skip
    pts += [f"{i + 4}   vessel  {f[0]:.7f}  {f[1]:.7f}  -70.0   0   0   0   0"
            for i, f in enumerate(FAIRLEADS)]  # fmt: skip
    r, z = (387.1, -200.0) if misplaced else (REST[0], REST[1])
    for i in range(3):
        ang = 2.0 * math.pi * i / 3.0
        pts.append(f"{i + 7}   free    {r * math.cos(ang):.1f}  {r * math.sin(ang):.1f}  "
                   f"{z:.1f}   8000   1.0   1.0   0.5")  # fmt: skip
    lines = [f"{i + 1}   chain   {i + 1}   {i + 7}   550.0   14   -" for i in range(3)]
    lines += [f"{i + 4}   wire    {i + 7}   {i + 4}   380.0   10   -" for i in range(3)]
    path.write_text("\n".join([
        "--------------------- MoorDyn Input File ------------------------------------",
        "OC3-Hywind with chain + wire lines joined at clump weights (MoorDyn v2 input)",
        "FALSE    Echo      - echo the input file data (flag)",
        "----------------------- LINE TYPES ------------------------------------------",
        "TypeName     Diam      MassDen       EA    BA/-zeta    EI    Cd      Ca     CdAx   CaAx",
        "(-)       (m)      (kg/m)        (N)    (N-s/-)    (-)   (-)     (-)    (-)    (-)",
        "chain    0.14     110.0      5.5E8    -0.8       0.0   2.4     1.0    1.15   1.0",
        "wire     0.08     32.0       6.0E8    -0.8       0.0   1.2     1.0    0.008  0.0",
        "---------------------- POINTS --------------------------------",
        "ID     Attachment  X        Y         Z      M      V    CdA   CA",
        "(-)     (-)      (m)      (m)      (m)     (kg)  (m^3) (m^2)  (-)",
        *pts,
        "---------------------- LINES --------------------------------------",
        "ID      LineType   AttachA   AttachB  UnstrLen  NumSegs   LineOutputs",
        "(-)       (-)        (-)       (-)       (m)       (-)      (-)",
        *lines,
        "---------------------- SOLVER OPTIONS ---------------------------------------",
        "0.001    dtM       - time step to use in mooring integration (s)",
        "3.0e6    kbot      - bottom stiffness (Pa/m)",
        "3.0e5    cbot      - bottom damping (Pa-s/m)",
        "1.0      dtIC      - time interval for analyzing convergence during IC gen (s)",
        f"{tmax_ic:g}     TmaxIC    - max time for ic gen (s)",
        "4.0      CdScaleIC - factor by which to scale drag coefficients during relaxation (-)",
        "1.0e-5    threshIC  - threshold for IC convergence (-)",
        "------------------------ OUTPUTS --------------------------------------------",
        "FairTen4", "FairTen5", "FairTen6", "AnchTen1", "AnchTen2", "AnchTen3",
        "Point4FX", "Point4FZ", "Point7PX", "Point7PZ", "Point8PZ", "Point7FZ",
        "END",
        "------------------------- need this line --------------------------------------",
    ]) + "\n")  # fmt: skip
    return path


def clump_deck(folder: pathlib.Path, *, tmax: float = 60.0, misplaced: bool = False,
               tmax_ic: float = 300.0) -> pathlib.Path:
    """The deck (module docstring) in ``folder`` (a temporary folder): returns its .fst."""
    for name in ("ElastoDyn_Blade.dat", "ElastoDyn_Tower.dat", "NullWAMIT"):
        src = REF10 / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, folder / name)
    for name in ("ElastoDyn.dat", "SeaState.dat"):  # at rest; JONSWAP Hs 5 m, Tp 10 s, seeded
        shutil.copy(REF05 / name, folder / name)
    sea = (folder / "SeaState.dat").read_text(encoding="latin-1")
    (folder / "SeaState.dat").write_text(
        sea.replace("         600   WaveTMax", f"{max(tmax, 60.0):12g}   WaveTMax"),
        encoding="latin-1")  # fmt: skip
    hd = (REF05 / "HydroDyn.dat").read_text(encoding="latin-1").splitlines()
    i0 = next(i for i, ln in enumerate(hd) if ln.split()[1:2] == ["AddF0"])
    hd[i0 + 2] = "  -7.43300000E+05"  # ballast: OC3's 1.607 MN preload less these lines' 0.864 MN
    for i in range(i0 + 6, i0 + 12):  # AddCLin (ref05's linear OC3 mooring) off
        hd[i] = "   " + "   ".join(["0.0"] * 6) + ("   AddCLin" if i == i0 + 6 else "")
    (folder / "HydroDyn.dat").write_text("\n".join(hd) + "\n", encoding="latin-1")
    clump_moordyn(folder / "MoorDyn.dat", misplaced=misplaced, tmax_ic=tmax_ic)
    fst = (REF10 / "ref10_moordyn_decay.fst").read_text(encoding="latin-1")
    fst = fst.replace("           300   TMax", f"{tmax:14g}   TMax")
    path = folder / "clump.fst"
    path.write_text(fst, encoding="latin-1")
    return path


def _lumped(path, **kw):
    from floatwind.case.openfast.moordyn import read_moordyn_lumped
    from floatwind.loads.moordyn import SubsteppedLumpedMooring

    cfg, _ = read_moordyn_lumped(path, depth=320.0, rho=1025.0, gravity=9.80665)
    ic = cfg["initial"]
    return SubsteppedLumpedMooring(body=0, line_types=cfg["line_types"], points=cfg["points"],
                                   lines=cfg["lines"], kbot=3.0e6, cbot=3.0e5,
                                   ic_tmax=ic["tmax"], ic_threshold=ic["threshold"],
                                   ic_cd_scale=ic["cd_scale"], ic_dt=ic["dt"], **kw)  # fmt: skip


def _kin(off=(0.0, 0.0, 0.0), vel=(0.0, 0.0, 0.0), t=0.0):
    return Kinematics(t, np.asarray(off, float)[None, None].copy(), np.eye(3)[None, None].copy(),
                      np.asarray(vel, float)[None, None].copy(), np.zeros((1, 1, 3)),
                      np.zeros((1, 3)))  # fmt: skip


def test_clump_lines_relax_to_rest_and_run_substepped_in_wave_motion(tmp_path):
    """Lines only: from a clump placed 100 m above its rest, MoorDyn's relaxation (TmaxIC 300 s,
    the file's options) ends at the static equilibrium (measured 1.3 mm; MoorDyn-C 2.7's own
    static solve puts the clump 0.1 mm from floatwind's); then the fairleads move along an
    irregular wave-frequency path (surge up to ~4 m, heave 0.4 of it) for 20 s, the lines
    stepped as ``floatwind run`` sub-steps them (MoorDyn's RK2, the smallest stable even number
    of sub-steps of DT): finite, tensions positive and the clump near its rest."""
    from floatwind._kernels import lumped as kl
    from floatwind._kernels.contract import body_kinematics

    ld = _lumped(clump_moordyn(tmp_path / "md.dat", misplaced=True))
    y = ld.initial_states_at(0.0, _kin(), ENV)
    rest = ld.static_states(_kin(), ENV)
    cols = [int(ld.pt_state[k]) for k, pt in enumerate(ld.points) if pt["kind"] == 2]
    assert len(cols) == 3
    for c in cols:
        assert np.linalg.norm(y[0, c : c + 3] - rest[0, c : c + 3]) < 0.01
    np.testing.assert_allclose(rest[0, cols[0] : cols[0] + 3], [REST[0], 0.0, REST[1]], atol=2e-3)

    waves = [(1.2, 9.0, 0.3), (0.8, 11.0, 1.7), (0.6, 13.5, 4.0), (0.4, 7.5, 2.2)]

    def path(t):  # ramped in over 5 s from rest
        off, vel = np.zeros(3), np.zeros(3)
        ramp, dramp = min(t / 5.0, 1.0), (0.2 if t < 5.0 else 0.0)
        for a, T, ph in waves:
            w = 2.0 * math.pi / T
            s, c = a * (math.sin(w * t + ph) - math.sin(ph)), a * w * math.cos(w * t + ph)
            off[[0, 2]] += (ramp * s) * np.array([1.0, 0.4])
            vel[[0, 2]] += (ramp * c + dramp * s) * np.array([1.0, 0.4])
        return off, vel

    p = ld._params(ENV, 1)
    f, m, a = np.zeros((1, 1, 3)), np.zeros((1, 1, 3)), np.zeros((1, 1, 6, 6))

    def rate(t, yy):
        dy = np.zeros_like(yy)
        kl.lumped_kernel(p, t, body_kinematics(_kin(*path(t), t=t)), yy, dy, f, m, a)
        return dy

    DT = 0.0125
    n = ld.n_sub(ENV, DT)
    assert n == 4  # the chain's segments are shorter than ref10's (2 per DT there)
    h, t = DT / n, 0.0
    ten, clump = [], []
    for _ in range(int(round(20.0 / DT))):
        for _ in range(n):  # MoorDyn's RK2 (the midpoint rule)
            k1 = rate(t, y)
            y = y + h * rate(t + h / 2, y + h / 2 * k1)
            t += h
        rate(t, y)
        ten.append([abs(p.scratch_seg[0, int(ld.seg0[j]) + int(ld.nseg[j]) - 1, 1])
                    for j in (3, 4, 5)])  # fmt: skip
        clump.append(y[0, cols[0] : cols[0] + 3].copy())
    ten, clump = np.array(ten), np.array(clump)
    assert np.all(np.isfinite(y)) and np.all(ten > 1e5), ten.min()
    assert np.ptp(ten[:, 0]) > 5e4  # the motion loads the lines (measured ~1.1e5 N)
    assert np.max(np.linalg.norm(clump - rest[0, cols[0] : cols[0] + 3], axis=1)) < 10.0


@needs_refs
@pytest.mark.parametrize("mooring", ["auto", "dynamic-states"])
def test_clump_deck_in_irregular_waves_runs_plainly(tmp_path, mooring):
    """The whole deck (``floatwind run DECK.fst``'s import) over 2 s in irregular waves, the
    lines sub-stepped (default) and as states: it runs, the clump starts at rest and the
    MoorDyn channels are sensible (tensions of the order of the static ones)."""
    from floatwind.cli._case import load_model
    from floatwind.simulate import simulate

    fst = clump_deck(tmp_path, tmax=2.0)
    res = simulate(load_model(str(fst), mooring=mooring), progress=False)
    fair = np.ravel(res["FAIRTEN4"].values)
    px, pz = np.ravel(res["POINT7PX"].values), np.ravel(res["POINT7PZ"].values)
    assert np.all(np.isfinite(fair)) and 3e5 < fair.min() and fair.max() < 2e6, fair
    assert abs(px[0] - REST[0]) < 0.05 and abs(pz[0] - REST[1]) < 0.05, (px[0], pz[0])
    assert np.ptp(np.ravel(res["PtfmSurge"].values)) < 2.0
