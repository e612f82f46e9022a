"""Coefficients from a hull with Capytaine (issue 26, item 4): floatwind.bem and ``floatwind bem``.

The tests that solve use a coarse mesh (about 400 panels, 16 sides) and a few frequencies so that
they stay fast; validation/bem/oc3_capytaine.py holds the mesh study against the shared files.
"""

from __future__ import annotations

import math
import pathlib

import numpy as np
import pytest
import xarray as xr

from floatwind import bem
from floatwind.errors import CaseError
from floatwind.loads.wamit import read_wamit

ROOT = pathlib.Path(__file__).resolve().parents[1]
OC3 = ROOT / "cases" / "oc3_hywind.yaml"
SHARED = ROOT.parent / "shared" / "reference" / "openfast" / "ref07_potential_decay" / "HydroData"
RHO, G = 1025.0, 9.80665


def _synthetic(rng) -> xr.Dataset:
    """A coefficient dataset with random entries, shaped as compute_coefficients returns it."""
    w = np.array([0.3, 0.7, 1.9])
    heads = np.array([0.0, 30.0])
    A, B = rng.normal(size=(3, 6, 6)) * 1e6, rng.uniform(1.0, 2.0, (3, 6, 6)) * 1e5
    X = rng.normal(size=(3, 2, 6)) + 1j * rng.normal(size=(3, 2, 6))
    dof = ("influenced_dof", "radiating_dof")
    return xr.Dataset(
        {"added_mass": (("omega",) + dof, A), "radiation_damping": (("omega",) + dof, B),
         "excitation_re": (("omega", "wave_direction", "influenced_dof"), X.real * 1e6),
         "excitation_im": (("omega", "wave_direction", "influenced_dof"), X.imag * 1e6),
         "added_mass_inf": (dof, rng.normal(size=(6, 6)) * 1e6),
         "added_mass_zero": (dof, rng.normal(size=(6, 6)) * 1e6),
         "hydrostatic_stiffness": (dof, rng.normal(size=(6, 6)) * 1e8)},
        coords={"omega": w, "wave_direction": np.radians(heads),
                "influenced_dof": list(bem.solve.DOFS), "radiating_dof": list(bem.solve.DOFS)},
        attrs={"rho_kg_m3": RHO, "g_m_s2": G},
    )  # fmt: skip


def test_wamit_round_trip(tmp_path):
    """write_wamit -> read_wamit gives the dataset back (8 digits), in WAMIT's conventions."""
    ds = _synthetic(np.random.default_rng(5))
    files = bem.write_wamit(ds, tmp_path / "hull")
    assert [p.name for p in files] == ["hull.1", "hull.3", "hull.hst"]
    d = read_wamit(tmp_path / "hull", rho=RHO, gravity=G)
    np.testing.assert_allclose(d.omega, ds.omega.values, rtol=1e-8)
    for name, got in (("added_mass", d.added_mass), ("radiation_damping", d.damping),
                      ("added_mass_inf", d.added_mass_inf),
                      ("added_mass_zero", d.added_mass_zero),
                      ("hydrostatic_stiffness", d.hydrostatic)):  # fmt: skip
        np.testing.assert_allclose(got, ds[name].values, rtol=2e-8, atol=1e-7, err_msg=name)
    X = ds.excitation_re.values + 1j * ds.excitation_im.values
    np.testing.assert_allclose(d.excitation, X, rtol=2e-8, atol=1e-3)
    np.testing.assert_allclose(np.degrees(d.exc_heading), [0.0, 30.0])
    # PER = -1 (zero frequency) and PER = 0 (infinite) first, then increasing periods
    pers = [float(ln.split()[0]) for ln in (tmp_path / "hull.1").read_text().splitlines()]
    assert pers[0] == -1.0 and pers[36] == 0.0 and pers[72] < pers[-1]


def test_oc3_profile_mesh_volume_and_hydrostatics():
    """The OC3 profile of the case library, revolved as a polygon that keeps each section's
    area: 8,029.21 m^3 (OC3, Jonkman 2010), centre of buoyancy -62.066 m and the shared .hst."""
    for panels in (400, 1600):
        hull = bem.hull_from_case(OC3, panels=panels)
        assert hull.volume == pytest.approx(8029.21, abs=0.01)
        assert hull.centre_of_buoyancy_z == pytest.approx(-62.066, abs=1e-3)
        assert hull.n_sectors % 4 == 0 and abs(hull.n_panels - panels) < 0.1 * panels
        assert hull.n_lid_panels > 0 and np.allclose(hull.lid_vertices[:, 2], -bem.hull.LID_DEPTH)
    # the lid's rim stands one waterline panel (0.836 m at 1,600 panels) inside the waterline
    wl = np.abs(hull.vertices[:, 2]) < 1e-9
    rim = np.hypot(*hull.vertices[wl, :2].T).max() - np.hypot(*hull.lid_vertices[:, :2].T).max()
    assert rim == pytest.approx(-np.unique(hull.vertices[:, 2])[-2], rel=1e-9)
    assert rim == pytest.approx(0.836, abs=1e-3)
    C = bem.hydrostatic_stiffness(hull, RHO, G)
    assert C[2, 2] == pytest.approx(RHO * G * math.pi * 3.25**2, rel=1e-9)  # 333,550 N/m
    assert C[3, 3] == pytest.approx(-5.008401e9, rel=1e-4)  # the shared .hst
    assert C[3, 3] == pytest.approx(C[4, 4]) and abs(C[2, 4]) < 1e-6 * C[2, 2]
    # outward normals: the bottom panels face down
    p = hull.vertices[hull.faces]  # (F, 4, 3)
    n = np.cross(p[:, 2] - p[:, 0], p[:, 3] - p[:, 1])
    bottom = np.all(p[:, :, 2] == -120.0, axis=1)
    assert bottom.any() and np.all(n[bottom, 2] < 0.0)
    side = np.all(p[:, :, 2] > -119.0, axis=1)  # radial component outwards
    assert np.all(np.einsum("fk,fk->f", n[side, :2], p[side, :, :2].mean(axis=1)) > 0.0)
    assert bem.hull_from_case(OC3, panels=400, lid=False).n_lid_panels == 0


def test_profile_mesh_refines_self_similarly():
    """The mesh rule behind the convergence study (validation/bem/oc3_capytaine.py): the grading
    along the outline is a fixed shape times the largest panel length, so ``refine = (a, b)``
    gives ``a`` times the sides and exactly ``b`` times the panels of every outline piece, the
    coarse outline's points kept (nested meshes, the largest panel length divided by ``b``, the
    flat bottom's rings ``2 b``); the displaced volume is the circle's at every level (the radii
    keep each section's area, so refining does not change the hull)."""
    prof = bem.profile_from_members(
        [{"z_bottom": -120.0, "z_top": -12.0, "diameter": 9.4},
         {"z_bottom": -12.0, "z_top": -4.0, "diameter_bottom": 9.4, "diameter_top": 6.5},
         {"z_bottom": -4.0, "z_top": 10.0, "diameter": 6.5}])  # fmt: skip
    base = bem.hull_from_profile(prof, panels=400, n_sectors=16)
    outline = base.wedge[0][0::2]  # the profile points (angle 0)

    def lengths(pts):
        return np.hypot(np.hypot(pts[:, 0], pts[:, 1])[1:] - np.hypot(pts[:-1, 0], pts[:-1, 1]),
                        np.diff(pts[:, 2]))  # fmt: skip

    for m in (1, 2, 4):
        hull = bem.hull_from_profile(prof, panels=400, n_sectors=16, refine=(m, m))
        pts = hull.wedge[0][0::2]
        assert hull.n_sectors == 16 * m and hull.n_panels == m * m * base.n_panels
        nested = bem.hull_from_profile(prof, panels=400, n_sectors=16, refine=(1, m))
        np.testing.assert_allclose(nested.wedge[0][0::2][::m], outline, atol=1e-9)
        np.testing.assert_allclose(pts[::m, 2], outline[:, 2], atol=1e-9)
        assert lengths(nested.wedge[0][0::2]).max() == pytest.approx(lengths(outline).max() / m,
                                                                    rel=1e-6)  # fmt: skip
        assert np.sum(np.isclose(pts[:, 2], -120.0)) == 2 * m + 1  # centre + 2 m rings
        assert hull.volume == pytest.approx(8029.2092, rel=2e-7)  # OC3 8,029.21 m^3
        assert hull.centre_of_buoyancy_z == pytest.approx(-62.0657, abs=1e-4)
    along = bem.hull_from_profile(prof, panels=400, n_sectors=16, refine=(1, 2))
    assert along.n_sectors == 16 and along.n_lid_panels == base.n_lid_panels
    assert bem.hull_from_profile(prof, panels=400, refine=2).n_panels == 4 * bem.hull_from_profile(
        prof, panels=400).n_panels  # fmt: skip
    # the default is the shared files' layout: 32 sides x 50 along the outline = 1,600 panels
    default = bem.hull_from_profile(prof)
    assert (default.n_sectors, default.n_panels) == (32, 1600)
    for bad in (0, 1.5, (2, 0), (1, 2, 3)):
        with pytest.raises(CaseError, match="field 'refine'"):
            bem.hull_from_profile(prof, panels=400, refine=bad)


def test_refining_converges_monotonically_in_each_direction():
    """Coarse OC3 meshes (16 sides x 13 panels along the outline) refined around and along by 2
    and 4: the surge added mass falls with the sides at first order (Capytaine's constant
    panels: the 32-side layout of the shared files is ~4 % above the converged value,
    docs/potential_flow.md) and hardly moves along the outline; the heave added mass falls
    with the panels along the outline (the flat bottom) and hardly moves with the sides; each
    family converges (each change smaller than the one before)."""
    pytest.importorskip("capytaine")
    prof = bem.profile_from_members(
        [{"z_bottom": -120.0, "z_top": -12.0, "diameter": 9.4},
         {"z_bottom": -12.0, "z_top": -4.0, "diameter_bottom": 9.4, "diameter_top": 6.5},
         {"z_bottom": -4.0, "z_top": 10.0, "diameter": 6.5}])  # fmt: skip

    def limits(refine):
        hull = bem.hull_from_profile(prof, panels=16 * 13, n_sectors=16, refine=refine)
        ds = bem.compute_coefficients(hull, omega=[1.0], headings_deg=[0.0], cache_dir=False)
        return np.array([ds.added_mass_inf.values[0, 0], ds.added_mass_inf.values[2, 2]])

    around = np.array([limits((m, 1)) for m in (1, 2, 4)])
    d = np.diff(around, axis=0)  # (2, 2) changes of A11, A33
    assert np.all(d[:, 0] < 0.0) and 0.8 < math.log2(d[0, 0] / d[1, 0]) < 1.4  # first order
    assert np.all(np.abs(around[:, 1] / around[0, 1] - 1.0) < 0.01)
    along = np.array([limits((1, m)) for m in (1, 2, 4)])
    d = np.diff(along, axis=0)
    assert np.all(d[:, 1] < 0.0) and abs(d[1, 1]) < 0.8 * abs(d[0, 1])
    assert np.all(np.abs(along[:, 0] / along[0, 0] - 1.0) < 0.01)


def test_the_lid_removes_the_irregular_frequency_and_leaves_regular_ones_alone():
    """The irregular-frequency lid (extended boundary integral equation) must not change the
    solution at a regular frequency once discretised finely enough, and must remove the
    irregular frequency of the 3.25 m waterline near 2.7 rad/s (docs/potential_flow.md, "the
    lid"). It lies on the free surface with its rim one waterline panel inside the hull: a lid
    that meets the hull (``lid_inset=0``) changes the heave damping several times more and breaks
    Haskind's relation between the heave damping and excitation."""
    pytest.importorskip("capytaine")
    prof = bem.profile_from_members(
        [{"z_bottom": -120.0, "z_top": -12.0, "diameter": 9.4},
         {"z_bottom": -12.0, "z_top": -4.0, "diameter_bottom": 9.4, "diameter_top": 6.5},
         {"z_bottom": -4.0, "z_top": 10.0, "diameter": 6.5}])  # fmt: skip

    def damping(refine, **lid):  # B11, B33 at the regular 1.4 rad/s (B33 half its peak)
        hull = bem.hull_from_profile(prof, panels=16 * 13, n_sectors=16, refine=refine, **lid)
        ds = bem.compute_coefficients(hull, omega=[1.4], headings_deg=[0.0], cache_dir=False)
        return ds.radiation_damping.values[0, [0, 2], [0, 2]]

    effect, rings = [], []
    for m in (1, 2, 4):
        none = damping(m, lid=False)
        effect.append(damping(m) / none - 1.0)
        if m < 4:
            rings.append(damping(m, lid_rings=4) / none - 1.0)
    effect, rings = np.abs(effect), np.abs(rings)  # (3, 2), (2, 2): B11, B33
    # the lid's effect is small and shrinks with the mesh (1.5 %, 0.06 %, 0.04 % for B33) ...
    assert np.all(effect[0] < 0.02) and np.all(effect[1:] < 0.5 * effect[0])
    assert np.all(effect[2] < 0.003)
    # ... and hardly depends on the lid's own rings (3 and 2 by the rule here, or 4 and 8)
    assert np.all(np.abs(rings - effect[:2]) < 0.005)
    # a lid meeting the hull: B33 10 % above the no-lid value at the coarsest level
    meeting = damping(1, lid_inset=0.0) / damping(1, lid=False) - 1.0
    assert meeting[1] > 4.0 * effect[0, 1]

    # the shared files' layout (32 sides, 1,600 panels): the heave excitation peaks at 2.7 rad/s
    # without a lid, not with it; with it B33 = omega^3 |X3|^2 / (2 rho g^3) (Haskind) within 2 %
    # (1.1 %) at 1.78 rad/s, the top of B33's significant band (11 % for a lid meeting the hull)
    omega = [1.78, 2.6, 2.7, 2.8]
    x3 = {}
    for key, lid in (("none", {"lid": False}), ("lid", {}), ("meeting", {"lid_inset": 0.0})):
        ds = bem.compute_coefficients(bem.hull_from_profile(prof, **lid), omega=omega,
                                      headings_deg=[0.0], cache_dir=False)  # fmt: skip
        x3[key] = np.hypot(ds.excitation_re.values[:, 0, 2], ds.excitation_im.values[:, 0, 2])
        haskind = omega[0] ** 3 * x3[key][0] ** 2 / (2.0 * 1025.0 * 9.80665**3)
        x3[key + " B33/Haskind"] = ds.radiation_damping.values[0, 2, 2] / haskind - 1.0
    assert x3["none"][2] > 3.0 * max(x3["none"][1], x3["none"][3])
    assert x3["lid"][1] > x3["lid"][2] > x3["lid"][3] and x3["lid"][2] < 0.2 * x3["none"][2]
    assert abs(x3["lid B33/Haskind"]) < 0.02 < x3["meeting B33/Haskind"]


def test_bad_input_one_line_errors(tmp_path, monkeypatch):
    """No axisymmetric hull, an off-axis member, a hull under water, Capytaine missing: one line
    naming the field."""
    with pytest.raises(CaseError, match=r"field 'loads'.*hydrostatics"):
        bem.hull_from_case(ROOT / "cases" / "oc3_platform_decay.yaml")
    members = [{"z_bottom": -20.0, "z_top": 5.0, "diameter": 10.0, "axis_xy": [30.0, 0.0]}]
    with pytest.raises(CaseError, match=r"members\[0\]\.axis_xy.*axisymmetric"):
        bem.profile_from_members(members)
    with pytest.raises(CaseError, match=r"members\[0\]\.z_top.*free surface"):
        bem.profile_from_members([{"z_bottom": -20.0, "z_top": -5.0, "diameter": 10.0}])
    with pytest.raises(CaseError, match=r"members\[1\]\.z_bottom.*continuous"):
        bem.profile_from_members([{"z_bottom": -20.0, "z_top": -10.0, "diameter": 10.0},
                                  {"z_bottom": -8.0, "z_top": 5.0, "diameter": 8.0}])  # fmt: skip
    with pytest.raises(CaseError, match="diameter"):
        bem.profile_from_members([{"z_bottom": -20.0, "z_top": 5.0}])
    with pytest.raises(CaseError, match="--frequencies"):
        bem.parse_values(["0.1:x:2"], "--frequencies", [1.0])
    np.testing.assert_allclose(bem.parse_values(["0.2:1.0:0.2", "1.5"], "f", [1.0]),
                               [0.2, 0.4, 0.6, 0.8, 1.0, 1.5])  # fmt: skip
    import builtins

    real_import = builtins.__import__

    def no_capytaine(name, *args, **kwargs):
        if name == "capytaine" or name.startswith("capytaine."):
            raise ImportError("No module named 'capytaine'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_capytaine)
    hull = bem.hull_from_case(OC3, panels=100)  # meshing needs no Capytaine
    with pytest.raises(CaseError) as exc:
        bem.compute_coefficients(hull, omega=[1.0], cache_dir=False)
    msg = str(exc.value)
    assert "\n" not in msg and "pip install -e '.[bem]'" in msg and "field 'bem'" in msg
    from floatwind.cli import main

    assert main(["bem", str(OC3), "-o", str(tmp_path / "x"), "--frequencies", "1"]) == 2


def test_frequency_and_depth_checks():
    pytest.importorskip("capytaine")
    hull = bem.hull_from_case(OC3, panels=100)
    with pytest.raises(CaseError, match="field 'frequencies'"):
        bem.compute_coefficients(hull, omega=[1.0, 0.5], cache_dir=False)
    with pytest.raises(CaseError, match="field 'frequencies'.*k h >= 0.1"):
        bem.compute_coefficients(hull, omega=[0.001], water_depth=320.0, cache_dir=False)
    with pytest.raises(CaseError, match="field 'headings'"):
        bem.compute_coefficients(hull, omega=[1.0], headings_deg=[30.0, 0.0], cache_dir=False)


def test_finite_depth_from_the_case(tmp_path):
    """``--depth case``: the case's 320 m; Capytaine solves omega = inf but not omega = 0 in
    finite depth, so the .1 file has no PER = -1 rows (read_wamit takes it)."""
    pytest.importorskip("capytaine")
    run = bem.run_bem(OC3, tmp_path, panels=100, omega=[1.0], headings_deg=[0.0],
                      water_depth="case", cache_dir=False)  # fmt: skip
    assert run.dataset.attrs["water_depth_m"] == 320.0 and "added_mass_zero" not in run.dataset
    d = read_wamit(run.root, rho=RHO, gravity=G)
    assert d.added_mass_zero is None and d.added_mass_inf[2, 2] > 0.0
    with pytest.raises(CaseError, match="field 'water_depth'.*'case'"):
        bem.run_bem(OC3, tmp_path, water_depth="deep", cache_dir=False)


def test_coarse_oc3_against_the_shared_files_and_the_cache(tmp_path, monkeypatch):
    """A 416-panel (16-sided) OC3 hull at three frequencies: added mass, damping and excitation
    against the shared WAMIT files (Capytaine 3.0.0, 1,600 panels, 32 sides) within a loose
    tolerance (the coarse mesh's surge/pitch entries are ~5 % high; validation/bem shows the
    mesh study); the WAMIT files written by ``floatwind bem`` read back; a second call is a
    cache hit that does not call the solver."""
    pytest.importorskip("capytaine")
    if not (SHARED / "spar.1").is_file():
        pytest.skip("the shared reference data is not beside the checkout")
    from floatwind.cli import main

    ref = read_wamit(SHARED / "spar", rho=RHO, gravity=G)
    cache = tmp_path / "cache"
    monkeypatch.setenv("FLOATWIND_BEM_CACHE", str(cache))
    out = tmp_path / "out"
    argv = ["bem", str(OC3), "-o", str(out), "--panels", "400", "--frequencies", "0.5", "1.0",
            "1.5", "--headings", "0", "30", "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    d = read_wamit(out / "oc3_hywind", rho=RHO, gravity=G)
    assert (out / "oc3_hywind.nc").is_file()
    k = [int(np.argmin(abs(ref.omega - w))) for w in d.omega]
    np.testing.assert_allclose(ref.omega[k], [0.5, 1.0, 1.5], atol=1e-6)
    for i, j in ((0, 0), (2, 2), (4, 4), (0, 4)):
        np.testing.assert_allclose(d.added_mass[:, i, j], ref.added_mass[k, i, j], rtol=0.08)
    Bmax = np.abs(ref.damping[k]).max(axis=0)
    for i, j in ((0, 0), (4, 4), (0, 4)):  # heave damping is insignificant below 1.5 rad/s
        np.testing.assert_allclose(d.damping[:, i, j], ref.damping[k, i, j], rtol=0.1,
                                   atol=0.05 * Bmax[i, j])  # fmt: skip
    np.testing.assert_allclose(d.added_mass_inf[2, 2], ref.added_mass_inf[2, 2], rtol=0.08)
    np.testing.assert_allclose(d.added_mass_zero[0, 0], ref.added_mass_zero[0, 0], rtol=0.08)
    np.testing.assert_allclose(d.hydrostatic, ref.hydrostatic, rtol=1e-4, atol=1e-3 * 3.3e5)
    # excitation (WAMIT's phase convention): headings 0 and 30 deg are in both files
    X = d.excitation
    Xr = ref.excitation[[int(np.argmin(abs(ref.exc_omega - w))) for w in d.exc_omega]][:, [0, 2]]
    for i in (0, 2, 4):
        np.testing.assert_allclose(X[..., i], Xr[..., i], rtol=0.08,
                                   atol=0.02 * np.abs(Xr[..., i]).max())  # fmt: skip
    # second call: from the cache, the solver is not called
    from floatwind.bem import solve as bsolve

    def boom(*a, **k):
        raise AssertionError("the solver was called despite the cache")

    monkeypatch.setattr(bsolve, "_solve", boom)
    hull = bem.hull_from_case(OC3, panels=400)
    ds = bem.compute_coefficients(hull, omega=[0.5, 1.0, 1.5], headings_deg=[0.0, 30.0])
    assert ds.attrs["cache"] == "hit" and len(list(cache.iterdir())) == 1
    # another frequency set is another fingerprint
    fp = bem.fingerprint(hull, [0.5, 1.0], [0.0, 30.0], math.inf, RHO, G, "3.0.0")
    assert fp != bem.fingerprint(hull, [0.5, 1.1], [0.0, 30.0], math.inf, RHO, G, "3.0.0")
    assert fp != bem.fingerprint(bem.hull_from_case(OC3, panels=800), [0.5, 1.0], [0.0, 30.0],
                                 math.inf, RHO, G, "3.0.0")  # fmt: skip


def test_mesh_file_hull(tmp_path, monkeypatch):
    """The OC3 hull written as a WAMIT .gdf mesh file and read back through Capytaine: the same
    volume, a lid under its waterline, and the profile hull's coefficients (the lids differ a
    little); several waterlines are refused in one line."""
    pytest.importorskip("capytaine")
    hull = bem.hull_from_case(OC3, panels=400)

    def gdf(path, V, F):
        lines = ["floatwind test", "1.0 9.80665", "0 0", str(len(F))]
        lines += [" ".join(f"{x:.9f}" for x in V[v]) for f in F for v in f]
        path.write_text("\n".join(lines) + "\n")

    gdf(tmp_path / "oc3.gdf", hull.vertices, hull.faces)
    mesh = bem.load_hull(tmp_path / "oc3.gdf")
    assert mesh.n_panels == hull.n_panels and mesh.n_sectors == 0
    assert mesh.volume == pytest.approx(8029.21, abs=0.01) and mesh.n_lid_panels > 0
    assert np.allclose(mesh.lid_vertices[:, 2], -bem.hull.LID_DEPTH)
    kw = {"omega": [0.8], "headings_deg": [0.0], "cache_dir": False}
    a = bem.compute_coefficients(mesh, **kw)
    b = bem.compute_coefficients(hull, **kw)
    for name in ("added_mass", "radiation_damping"):
        np.testing.assert_allclose(a[name].values, b[name].values, rtol=2e-3,
                                   atol=1e-6 * float(np.abs(b[name].values).max()))  # fmt: skip
    two = np.concatenate([hull.vertices, hull.vertices + [30.0, 0.0, 0.0]])
    gdf(tmp_path / "two.gdf", two, np.concatenate([hull.faces, hull.faces + len(hull.vertices)]))
    with pytest.raises(CaseError, match="several waterlines.*--no-lid"):
        bem.load_hull(tmp_path / "two.gdf")
    assert bem.load_hull(tmp_path / "two.gdf", lid=False).volume == pytest.approx(2 * 8029.21,
                                                                                 abs=0.02)  # fmt: skip
    with pytest.raises(CaseError, match="mesh file not found"):
        bem.load_hull(tmp_path / "none.gdf")


def test_an_interrupted_run_keeps_its_finished_frequencies(tmp_path, monkeypatch):
    """Ctrl-C during the third frequency: the next call solves only the frequencies left."""
    cpt = pytest.importorskip("capytaine")
    hull = bem.hull_from_case(OC3, panels=100)
    kw = {"omega": [0.5, 1.0, 1.5, 2.0], "headings_deg": [0.0], "cache_dir": tmp_path}
    real = cpt.BEMSolver.solve_all
    calls = []

    def interrupted(self, problems, **k):
        calls.append(problems[0].omega)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(self, problems, **k)

    monkeypatch.setattr(cpt.BEMSolver, "solve_all", interrupted)
    with pytest.raises(KeyboardInterrupt):
        bem.compute_coefficients(hull, **kw)
    assert len(list(tmp_path.rglob("partial/*.npz"))) == 2
    calls.clear()
    monkeypatch.setattr(cpt.BEMSolver, "solve_all", lambda self, p, **k: (calls.append(
        p[0].omega), real(self, p, **k))[1])  # fmt: skip
    ds = bem.compute_coefficients(hull, **kw)
    assert calls[:2] == [1.5, 2.0] and len(calls) == 4  # + the two limits
    assert not list(tmp_path.rglob("partial")) and ds.attrs["cache"] == "miss"
    ref = bem.compute_coefficients(hull, **(kw | {"cache_dir": False}))
    np.testing.assert_allclose(ds.radiation_damping.values, ref.radiation_damping.values,
                               rtol=1e-12)  # fmt: skip


def test_a_case_can_name_a_hull_instead_of_files(tmp_path, monkeypatch):
    """Issue 26 item 4: `potential_radiation: {bem: {...}}` computes the coefficients of the
    case's own hull (its hydrostatics profile) through the cache and the load reads them as it
    reads WAMIT files; loading the case again does not solve again."""
    pytest.importorskip("capytaine")
    import yaml

    import floatwind.bem.solve as bsolve
    from floatwind.case.loader import model_from_dict

    monkeypatch.setenv("FLOATWIND_BEM_CACHE", str(tmp_path / "cache"))
    case = yaml.safe_load(OC3.read_text())
    spec = {"panels": 200, "frequencies": [0.2, 0.6, 1.0, 1.4, 1.8], "headings_deg": [0.0]}
    case["loads"].append({"type": "potential_radiation", "body": "tower", "bem": spec})
    m1 = model_from_dict(case, base_dir=OC3.parent)
    assert any(type(ld).__name__ == "PotentialRadiation" for ld in m1.loads)
    roots = list((tmp_path / "cache" / "wamit").glob("*/hull.1"))
    assert len(roots) == 1
    hull = bem.hull_from_profile(bem.profile_from_members(case["loads"][1]["members"]),
                                 panels=200, name="hull")  # fmt: skip
    direct = bem.compute_coefficients(hull, omega=spec["frequencies"], headings_deg=[0.0])
    data = read_wamit(roots[0].with_suffix(""), rho=1025.0, gravity=9.80665)
    np.testing.assert_allclose(data.added_mass_inf, direct["added_mass_inf"].values, rtol=1e-5,
                               atol=1e-9 * float(np.abs(direct["added_mass_inf"]).max()))  # fmt: skip

    def never(*a, **k):
        raise AssertionError("solved again")

    monkeypatch.setattr(bsolve, "_solve", never)
    model_from_dict(case, base_dir=OC3.parent)  # from the cache
    case["loads"][-1]["wamit"] = "x"
    with pytest.raises(CaseError, match="either 'wamit'"):
        model_from_dict(case, base_dir=OC3.parent)
