"""Radiation and diffraction of a hull with Capytaine, cached by the hull's fingerprint.

Capytaine (https://capytaine.org, Ancellin & Dias 2019; the 3.0 API: ``FloatingBody(mesh,
dofs, lid_mesh=...)``, ``RadiationProblem``/``DiffractionProblem``, ``BEMSolver.solve_all``,
``assemble_dataset``) solves the linear potential-flow problems; this module turns its results
into one :class:`xarray.Dataset` in SI units about the WAMIT reference point (the origin, on the
still water level) with the excitation in WAMIT's phase convention, so that
:func:`floatwind.bem.wamit_files.write_wamit` only formats numbers.

Conventions: Capytaine's complex amplitudes are for ``Re{F e^{-i omega t}}`` (Capytaine docs,
"Conventions"); WAMIT's for ``Re{X e^{+i omega t}}`` with the elevation ``Re{A e^{i omega t}}`` at
the origin (WAMIT User Manual, sec. 4.2), so ``X = conj(F)``. Added mass and damping need no
conversion. The zero- and infinite-frequency limits of the added mass are Capytaine's
``omega = 0`` and ``omega = inf`` radiation problems (infinite depth; in finite depth Capytaine
evaluates ``omega = inf`` only, so the zero-frequency limit is left out).
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import pathlib
import time

import numpy as np
import xarray as xr

from floatwind.bem.hull import Hull, require_capytaine
from floatwind.errors import CaseError

logger = logging.getLogger(__name__)

__all__ = [
    "DEFAULT_HEADINGS_DEG",
    "DEFAULT_OMEGA",
    "DOFS",
    "compute_coefficients",
    "default_cache_dir",
    "fingerprint",
    "hydrostatic_stiffness",
    "require_capytaine",
]

DOFS = ("Surge", "Sway", "Heave", "Roll", "Pitch", "Yaw")
#: the frequencies of the shared ref07/ref08 WAMIT files: 0.02-1.50 rad/s every 0.02, 1.54-4.00
#: every 0.06 (117)
DEFAULT_OMEGA = np.round(np.concatenate([np.arange(1, 76) * 0.02, 1.48 + np.arange(1, 43) * 0.06]),
                         10)  # fmt: skip
DEFAULT_HEADINGS_DEG = (0.0, 15.0, 30.0, 45.0)
#: bump when the dataset layout changes (part of the fingerprint)
_LAYOUT = "floatwind-bem-1"


def default_cache_dir() -> pathlib.Path:
    """``$FLOATWIND_BEM_CACHE``, else ``$XDG_CACHE_HOME/floatwind/bem`` (``~/.cache``)."""
    env = os.environ.get("FLOATWIND_BEM_CACHE")
    if env:
        return pathlib.Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(pathlib.Path.home() / ".cache")
    return pathlib.Path(base) / "floatwind" / "bem"


def fingerprint(hull: Hull, omega, headings_deg, water_depth: float, rho: float, g: float,
                version: str) -> str:  # fmt: skip
    """sha256 of everything the coefficients depend on: the mesh (vertices, faces, lid, its
    symmetry), frequencies, headings, depth, rho, g and the Capytaine version."""
    h = hashlib.sha256()
    for arr in (hull.vertices, hull.lid_vertices, np.asarray(omega, float),
                np.asarray(headings_deg, float)):  # fmt: skip
        h.update(np.ascontiguousarray(np.round(arr, 10), dtype="<f8").tobytes())
    for arr in (hull.faces, hull.lid_faces):
        h.update(np.ascontiguousarray(arr, dtype="<i8").tobytes())
    h.update(repr((int(hull.n_sectors), float(water_depth), float(rho), float(g), str(version),
                   _LAYOUT)).encode())  # fmt: skip
    return h.hexdigest()


def hydrostatic_stiffness(hull: Hull, rho: float, g: float) -> np.ndarray:
    """Buoyancy part of the hydrostatic stiffness (6, 6) about the origin (the WAMIT reference
    point on the still water level): waterplane integrals and the displaced volume's moments
    (WAMIT User Manual, sec. 3.1, without the body's weight; as the shared ``.hst`` files).

    The waterplane integrals are ``int_wp f dA = -int_hull f n_z dS`` and the volume moments
    ``int x_k dV = int_hull x_k^2 / 2 n_k dS`` (divergence theorem), exact on flat panels with
    the edge-midpoint rule."""
    V, F = hull.vertices, hull.faces
    tris = np.concatenate([F[:, [0, 1, 2]], F[:, [0, 2, 3]]])
    p = V[tris]
    n_area = 0.5 * np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])  # (T, 3) n dS
    mids = 0.5 * (p + p[:, [1, 2, 0]])  # edge midpoints: exact for quadratics

    def surf(f, k):  # int f n_k dS
        return float(np.sum(np.mean(f(mids), axis=1) * n_area[:, k]))

    awp = -surf(lambda q: np.ones(q.shape[:-1]), 2)
    sx, sy = -surf(lambda q: q[..., 0], 2), -surf(lambda q: q[..., 1], 2)
    ixx = -surf(lambda q: q[..., 1] ** 2, 2)  # int y^2 dA
    iyy = -surf(lambda q: q[..., 0] ** 2, 2)
    ixy = -surf(lambda q: q[..., 0] * q[..., 1], 2)
    vol = surf(lambda q: q[..., 2], 2)
    xb, yb, zb = (surf(lambda q, k=k: 0.5 * q[..., k] ** 2, k) / vol for k in range(3))
    C = np.zeros((6, 6))
    C[2, 2] = awp
    C[2, 3] = C[3, 2] = sy
    C[2, 4] = C[4, 2] = -sx
    C[3, 3] = ixx + vol * zb
    C[4, 4] = iyy + vol * zb
    C[3, 4] = C[4, 3] = -ixy
    C[3, 5] = -vol * xb
    C[4, 5] = -vol * yb
    return rho * g * C


def _capytaine_body(cpt, hull: Hull):
    if hull.n_sectors and hull.wedge:
        wv, wf, lv, lf = hull.wedge
        mesh = cpt.RotationSymmetricMesh(cpt.Mesh(wv, wf), hull.n_sectors)
        lid = cpt.RotationSymmetricMesh(cpt.Mesh(lv, lf), hull.n_sectors) if len(lf) else None
    else:
        mesh = cpt.Mesh(hull.vertices, hull.faces)
        lid = cpt.Mesh(hull.lid_vertices, hull.lid_faces) if len(hull.lid_faces) else None
    return cpt.FloatingBody(mesh, dofs=cpt.rigid_body_dofs(rotation_center=(0.0, 0.0, 0.0)),
                            lid_mesh=lid, name=hull.name)  # fmt: skip


def _check_inputs(omega, headings_deg, water_depth, g):
    omega = np.asarray(omega, dtype=float).ravel()
    if omega.size == 0 or not np.all(np.isfinite(omega)) or np.any(omega <= 0.0):
        raise CaseError("expected positive finite frequencies (rad/s)", field="frequencies")
    if np.any(np.diff(omega) <= 0.0):
        raise CaseError("frequencies must increase", field="frequencies")
    heads = np.asarray(headings_deg, dtype=float).ravel()
    if heads.size == 0 or not np.all(np.isfinite(heads)) or np.any(np.diff(heads) <= 0.0):
        raise CaseError("expected increasing wave headings (deg)", field="headings")
    depth = float(water_depth)
    if not depth > 0.0:
        raise CaseError(f"water depth {depth:g} m: expected > 0 (or inf)", field="water_depth")
    if math.isfinite(depth):
        # Capytaine's finite-depth Green function needs k h >= 0.1 (its own error otherwise)
        k = 0.1 / depth
        w_min = math.sqrt(g * k * math.tanh(k * depth))
        if omega[0] < w_min:
            raise CaseError(
                f"{omega[0]:g} rad/s is below {w_min:.4g} rad/s, the lowest frequency "
                f"Capytaine solves in {depth:g} m of water (k h >= 0.1); raise the lowest "
                "frequency or use infinite depth", field="frequencies",
            )  # fmt: skip
    return omega, heads, depth


def compute_coefficients(hull: Hull, *, omega=DEFAULT_OMEGA, headings_deg=DEFAULT_HEADINGS_DEG,
                         water_depth: float = math.inf, rho: float = 1025.0,
                         g: float = 9.80665, cache_dir=None, progress: bool = False,
                         n_threads: int | None = None) -> xr.Dataset:  # fmt: skip
    """Added mass, radiation damping (6 DOFs), excitation and the added-mass limits of a hull.

    Parameters
    ----------
    hull : :class:`floatwind.bem.hull.Hull`
    omega : (F,) increasing frequencies (rad/s)
    headings_deg : (H,) increasing wave headings (deg, propagation direction from +x)
    water_depth : m, ``inf`` for deep water
    rho, g : water density (kg/m^3), gravity (m/s^2)
    cache_dir : folder of the cache (:func:`default_cache_dir` when None; ``False``: none)
    progress : a tqdm bar over the frequencies
    n_threads : threads per solve (Capytaine's ``n_threads``; None: its default)

    Returns
    -------
    xarray.Dataset with ``added_mass``, ``radiation_damping`` (omega, influenced_dof,
    radiating_dof), ``excitation_re``/``excitation_im`` (omega, wave_direction, influenced_dof;
    WAMIT's convention, per unit wave amplitude), ``added_mass_inf``, ``added_mass_zero`` (infinite
    depth only), ``hydrostatic_stiffness``; SI units about the origin; attrs: fingerprint,
    Capytaine version, panels, depth, rho, g, ``cache`` ("hit" or "miss"), seconds per frequency.
    """
    cpt = require_capytaine()
    omega, heads, depth = _check_inputs(omega, headings_deg, water_depth, g)
    fp = fingerprint(hull, omega, heads, depth, rho, g, cpt.__version__)
    cache = None
    if cache_dir is not False:
        cache = pathlib.Path(cache_dir) if cache_dir is not None else default_cache_dir()
        path = cache / fp[:32] / "coefficients.nc"
        if path.is_file():
            with xr.open_dataset(path) as ds:
                out = ds.load()
            if out.attrs.get("fingerprint") == fp:
                out.attrs["cache"] = "hit"
                logger.info("BEM coefficients from the cache %s", path)
                return out
    partial = None if cache is None else cache / fp[:32] / "partial"
    ds = _solve(cpt, hull, omega, heads, depth, rho, g, progress, n_threads, partial)
    ds.attrs["fingerprint"] = fp
    if cache is not None:
        import shutil

        from floatwind.io.safe import atomic_write

        path = cache / fp[:32] / "coefficients.nc"
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, lambda tmp: ds.to_netcdf(tmp, format="NETCDF4"))
        shutil.rmtree(partial, ignore_errors=True)
        logger.info("BEM coefficients cached in %s", path)
    ds.attrs["cache"] = "miss"
    return ds


def _solve(cpt, hull, omega, heads, depth, rho, g, progress, n_threads, partial=None):
    quiet = logging.getLogger("capytaine")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # its per-problem warnings: summarised below in one line
    try:
        return _solve_quiet(cpt, hull, omega, heads, depth, rho, g, progress, n_threads, partial)
    finally:
        quiet.setLevel(level)


def _solve_quiet(cpt, hull, omega, heads, depth, rho, g, progress, n_threads, partial):
    """Each frequency's result is kept in ``partial`` (when given) as soon as it is solved, so
    an interrupted run (Ctrl-C) resumes where it stopped."""
    from tqdm import tqdm

    from floatwind.io.safe import atomic_write

    if partial is not None:
        partial.mkdir(parents=True, exist_ok=True)

    body = _capytaine_body(cpt, hull)
    # Capytaine's rule of thumb: panels smaller than an eighth of the wave length
    radius = float(np.max(np.asarray(body.mesh_including_lid.faces_radiuses)))
    coarse = omega[2.0 * math.pi * g / omega**2 < 8.0 * radius]
    if coarse.size:
        logger.warning("the mesh is coarse for %d frequencies from %.3g rad/s (largest panel "
                       "radius %.3g m > wave length / 8)", coarse.size, coarse[0], radius)  # fmt: skip
    solver = cpt.BEMSolver()
    wd = depth if math.isfinite(depth) else np.inf
    beta = np.radians(heads)
    kw = {"rho": rho, "g": g, "water_depth": wd}
    opts = {"progress_bar": False, "_check_wavelength": False}
    if n_threads:
        opts["n_threads"] = n_threads
    F, H = omega.size, beta.size
    A, B = np.zeros((F, 6, 6)), np.zeros((F, 6, 6))
    X = np.zeros((F, H, 6), dtype=complex)
    t0, n_solved = time.perf_counter(), 0
    for f, w in enumerate(tqdm(omega, desc="BEM", unit="freq", disable=not progress)):
        done = partial / f"{f:05d}.npz" if partial is not None else None
        if done is not None and done.is_file():
            with np.load(done) as z:
                A[f], B[f], X[f] = z["A"], z["B"], z["X"]
            continue
        probs = [cpt.RadiationProblem(body=body, omega=w, radiating_dof=d, **kw) for d in DOFS]
        probs += [cpt.DiffractionProblem(body=body, omega=w, wave_direction=b, **kw)
                  for b in beta]  # fmt: skip
        res = cpt.assemble_dataset(solver.solve_all(probs, **opts), hydrostatics=False)
        A[f] = res["added_mass"].sel(influenced_dof=list(DOFS), radiating_dof=list(DOFS)) \
            .isel(omega=0).values  # fmt: skip
        B[f] = res["radiation_damping"].sel(influenced_dof=list(DOFS),
                                            radiating_dof=list(DOFS)).isel(omega=0).values  # fmt: skip
        exc = res["excitation_force"].sel(influenced_dof=list(DOFS)).isel(omega=0)
        X[f] = np.conj(exc.sel(wave_direction=beta, method="nearest").transpose(
            "wave_direction", "influenced_dof").values)  # e^{-i w t} -> WAMIT's e^{+i w t}  # fmt: skip
        n_solved += 1
        if done is not None:
            atomic_write(done, lambda tmp, f=f: _save_npz(tmp, A=A[f], B=B[f], X=X[f]))
    per_freq = (time.perf_counter() - t0) / max(n_solved, 1)
    limits = {}
    for name, w in (("added_mass_inf", np.inf), ("added_mass_zero", 0.0)):
        if w == 0.0 and math.isfinite(depth):
            continue  # Capytaine: omega = 0 only in infinite depth
        probs = [cpt.RadiationProblem(body=body, omega=w, radiating_dof=d, **kw) for d in DOFS]
        res = cpt.assemble_dataset(solver.solve_all(probs, **opts), hydrostatics=False)
        limits[name] = res["added_mass"].sel(influenced_dof=list(DOFS),
                                             radiating_dof=list(DOFS)).isel(omega=0).values  # fmt: skip
    return _dataset(hull, omega=omega, heads=heads, depth=depth, rho=rho, g=g, A=A, B=B, X=X,
                    limits=limits, C=hydrostatic_stiffness(hull, rho, g),
                    version=cpt.__version__, per_freq=per_freq)  # fmt: skip


def _save_npz(path, **arrays) -> None:
    with open(path, "wb") as fh:  # a file object: numpy adds no .npz suffix
        np.savez(fh, **arrays)


def _lid_text(hull: Hull) -> str:
    """The lid's panels, depth and how far its rim stands inside the waterline (m)."""
    if not hull.n_lid_panels:
        return "none"
    depth = round(-float(np.max(hull.lid_vertices[:, 2])), 10) + 0.0
    text = f"{hull.n_lid_panels} panels {depth:g} m below the free surface"
    if hull.n_sectors:  # a revolved profile: the lid and the waterline are coaxial polygons
        wl = np.abs(hull.vertices[:, 2]) < 1e-9
        gap = float(np.hypot(*hull.vertices[wl, :2].T).max()
                    - np.hypot(*hull.lid_vertices[:, :2].T).max())  # fmt: skip
        text += f", its rim {gap:.3g} m inside the waterline"
    return text


_UNITS = "kg, kg m, kg m^2 (translation-translation, -rotation, rotation-rotation)"


def _dataset(hull, *, omega, heads, depth, rho, g, A, B, X, limits, C, version, per_freq):
    from floatwind import __version__

    dof = ("influenced_dof", "radiating_dof")
    coords = {"omega": ("omega", omega, {"units": "rad/s", "long_name": "wave frequency"}),
              "wave_direction": ("wave_direction", np.radians(heads),
                                 {"units": "rad", "long_name": "wave heading (propagation "
                                  "direction from +x)"}),
              "influenced_dof": ("influenced_dof", list(DOFS)),
              "radiating_dof": ("radiating_dof", list(DOFS))}  # fmt: skip
    data = {
        "added_mass": (("omega",) + dof, A, {"units": _UNITS, "long_name": "added mass A(omega)"}),
        "radiation_damping": (("omega",) + dof, B, {
            "units": "kg/s, kg m/s, kg m^2/s", "long_name": "radiation damping B(omega)"}),
        "excitation_re": (("omega", "wave_direction", "influenced_dof"), X.real, {
            "units": "N/m, N m/m", "long_name": "wave excitation per unit amplitude, real part "
            "(WAMIT convention: Re{X A e^{i omega t}})"}),
        "excitation_im": (("omega", "wave_direction", "influenced_dof"), X.imag, {
            "units": "N/m, N m/m", "long_name": "wave excitation per unit amplitude, imaginary "
            "part (WAMIT convention)"}),
        "hydrostatic_stiffness": (dof, C, {"units": "N/m, N, N m/rad", "long_name":
                                           "hydrostatic stiffness, buoyancy part only"}),
    }  # fmt: skip
    for name, val in limits.items():
        which = "infinite" if name.endswith("inf") else "zero"
        data[name] = (dof, val, {"units": _UNITS, "long_name": f"{which}-frequency added mass"})
    return xr.Dataset(data, coords=coords, attrs={
        "title": f"linear potential-flow coefficients of {hull.name}",
        "source": hull.source, "capytaine_version": version, "floatwind_version": __version__,
        "panels": hull.n_panels, "lid_panels": hull.n_lid_panels,
        "rotation_order": int(hull.n_sectors), "displaced_volume_m3": hull.volume,
        "water_depth_m": float(depth), "rho_kg_m3": float(rho), "g_m_s2": float(g),
        "reference_point": "origin on the still water level (WAMIT reference point), inertial axes",
        "seconds_per_frequency": float(per_freq),
        "solver": "capytaine.BEMSolver() defaults (Delhommeau Green function, indirect method)",
        "lid": _lid_text(hull),
        "excitation_convention": "WAMIT: elevation Re{A e^{i omega t}} at the origin, force "
                                 "Re{X A e^{i omega t}} (Capytaine's values conjugated)",
    })  # fmt: skip
