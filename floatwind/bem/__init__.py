"""Linear potential-flow coefficients of a hull computed with Capytaine (issue 26, item 4).

    floatwind bem cases/oc3_hywind.yaml -o oc3_bem     # WAMIT .1/.3/.hst + netCDF

A hull is a case's axisymmetric profile (its ``hydrostatics`` members, revolved) or a mesh file
Capytaine reads; :func:`compute_coefficients` solves radiation (6 DOFs) and diffraction with an
irregular-frequency lid and caches the result by the hull's fingerprint; :func:`write_wamit`
writes the files the ``potential_radiation`` / ``potential_excitation`` loads read. Capytaine is
an optional extra: ``pip install -e ".[bem]"``. See docs/potential_flow.md, "Coefficients from a
hull".
"""

from __future__ import annotations

import math
import pathlib
from dataclasses import dataclass

from floatwind.bem.hull import (
    Hull,
    hull_from_case,
    hull_from_mesh_file,
    hull_from_profile,
    profile_from_members,
)
from floatwind.bem.solve import (
    DEFAULT_HEADINGS_DEG,
    DEFAULT_OMEGA,
    compute_coefficients,
    default_cache_dir,
    fingerprint,
    hydrostatic_stiffness,
    require_capytaine,
)
from floatwind.bem.wamit_files import write_netcdf, write_wamit
from floatwind.errors import CaseError

__all__ = [
    "DEFAULT_HEADINGS_DEG",
    "DEFAULT_OMEGA",
    "BemRun",
    "Hull",
    "compute_coefficients",
    "default_cache_dir",
    "fingerprint",
    "hull_from_case",
    "hull_from_mesh_file",
    "hull_from_profile",
    "hydrostatic_stiffness",
    "load_hull",
    "parse_values",
    "profile_from_members",
    "require_capytaine",
    "run_bem",
    "summary",
    "write_netcdf",
    "write_wamit",
]

_CASE_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class BemRun:
    """What :func:`run_bem` wrote: ``root`` (the WAMIT file root, no extension), the files, the
    dataset and the hull."""

    root: pathlib.Path
    files: tuple
    dataset: object
    hull: Hull


def load_hull(source, *, panels: int = 1600, lid: bool = True) -> Hull:
    """A case file (``.yaml``: its hydrostatics members) or a mesh file (anything else)."""
    path = pathlib.Path(source)
    if path.suffix.lower() in _CASE_SUFFIXES:
        return hull_from_case(path, panels=panels, lid=lid)
    return hull_from_mesh_file(path, lid=lid)


def case_environment(source) -> dict:
    """``rho_water``, ``gravity`` and ``water_depth`` of a case file's environment (those it
    gives), else {}."""
    path = pathlib.Path(source)
    if path.suffix.lower() not in _CASE_SUFFIXES or not path.is_file():
        return {}
    from floatwind.io.safe import load_yaml, read_text

    try:
        data = load_yaml(read_text(path), file=str(path))
    except CaseError:
        return {}  # load_hull reports the file
    env = data.get("environment") if isinstance(data, dict) else None
    if not isinstance(env, dict):
        return {}
    return {k: env[k] for k in ("rho_water", "gravity", "water_depth")
            if isinstance(env.get(k), (int, float))}  # fmt: skip


def run_bem(source, out_dir, *, omega=DEFAULT_OMEGA, headings_deg=DEFAULT_HEADINGS_DEG,
            panels: int = 1600, lid: bool = True, water_depth: float | str = math.inf,
            rho: float | None = None, g: float | None = None, cache_dir=None,
            progress: bool = False, name: str | None = None,
            drift: bool = False, overwrite: bool = True) -> BemRun:  # fmt: skip
    """Coefficients of the hull of ``source`` (case or mesh file) written to ``out_dir`` as
    ``NAME.1``, ``NAME.3``, ``NAME.hst`` and ``NAME.nc`` (NAME: the source's stem).

    ``water_depth``: a number (m), ``inf`` (deep water, the default, as the shared OC3 data) or
    ``"case"`` (the case's ``environment.water_depth``). ``rho`` and ``g`` default to the case's
    environment, else 1025 kg/m^3 and 9.80665 m/s^2. ``drift``: also ``NAME.8``, the mean drift
    of the restrained hull from Capytaine's far-field formulation (:mod:`floatwind.bem.drift`).
    ``overwrite=False`` refuses existing files of those names before anything is computed (the
    ``floatwind bem`` command without ``--overwrite``); a file the source reads (a WAMIT root the
    case names) is never replaced (:func:`floatwind.io.safe.check_output`)."""
    env = case_environment(source)
    if isinstance(water_depth, str):
        if water_depth == "case":
            if "water_depth" not in env:
                raise CaseError("the source gives no environment.water_depth",
                                field="water_depth")  # fmt: skip
            water_depth = float(env["water_depth"])
        else:
            try:
                water_depth = float(water_depth)
            except ValueError:
                raise CaseError(f"expected a depth in m, 'inf' or 'case', got {water_depth!r}",
                                field="water_depth") from None  # fmt: skip
    rho = float(env.get("rho_water", 1025.0)) if rho is None else float(rho)
    g = float(env.get("gravity", 9.80665)) if g is None else float(g)
    hull = load_hull(source, panels=panels, lid=lid)
    out = pathlib.Path(out_dir)
    root = out / (name or hull.name)
    _check_outputs(source, root, drift=drift, overwrite=overwrite)
    ds = compute_coefficients(hull, omega=omega, headings_deg=headings_deg,
                              water_depth=float(water_depth), rho=rho, g=g, cache_dir=cache_dir,
                              progress=progress)  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)
    files = tuple(write_wamit(ds, root)) + (write_netcdf(ds, root.with_name(root.name + ".nc")),)
    if drift:
        from floatwind.bem.drift import fixed_body_mean_drift, write_mean_drift

        md = fixed_body_mean_drift(hull, omega=omega, headings_deg=headings_deg,
                                   water_depth=float(water_depth), rho=rho, g=g)  # fmt: skip
        files += (write_mean_drift(md, root, rho=rho, g=g),)
    return BemRun(root, files, ds, hull)


def _check_outputs(source, root: pathlib.Path, *, drift: bool, overwrite: bool) -> None:
    """The files :func:`run_bem` writes (``root.1/.3/.hst/.nc``, ``.8`` with ``drift``) checked
    before the solve: none may be an input of the source, an existing one needs ``overwrite``."""
    from floatwind.io.safe import check_output, input_files

    if not root.parent.is_dir():
        return  # a new folder: nothing in it to replace (created after the solve)
    inputs = input_files(source)
    for ext in (".1", ".3", ".hst", ".nc") + ((".8",) if drift else ()):
        check_output(root.with_name(root.name + ext), inputs=inputs, overwrite=overwrite,
                     option="--output")  # fmt: skip


def parse_values(tokens, field: str, default):
    """Numbers from command-line tokens: plain values or ``START:STOP:STEP`` ranges (STOP
    included when the steps reach it); ``default`` when ``tokens`` is empty."""
    import numpy as np

    if not tokens:
        return np.asarray(default, dtype=float)
    out = []
    for tok in tokens:
        for part in str(tok).replace(",", " ").split():
            try:
                if ":" in part:
                    a, b, c = (float(x) for x in part.split(":"))
                    if not c > 0.0 or b < a:
                        raise ValueError
                    n = int(math.floor((b - a) / c + 1e-9))
                    out.extend(a + c * np.arange(n + 1))
                else:
                    out.append(float(part))
            except ValueError:
                raise CaseError(f"expected numbers or START:STOP:STEP with STEP > 0, got "
                                f"{part!r}", field=field) from None  # fmt: skip
    return np.round(np.asarray(out, dtype=float), 12)


def summary(run: BemRun) -> str:
    """What the CLI prints after :func:`run_bem`."""
    ds, hull = run.dataset, run.hull
    depth = ds.attrs["water_depth_m"]
    hit = ds.attrs.get("cache") == "hit"
    lines = [
        f"{hull.source or hull.name}: {hull.n_panels} panels"
        + (f" ({hull.n_sectors} sides)" if hull.n_sectors else "")
        + f", lid {hull.n_lid_panels}, displaced volume {hull.volume:.6g} m^3",
        f"{ds.sizes['omega']} frequencies {float(ds.omega[0]):g}-{float(ds.omega[-1]):g} rad/s, "
        f"{ds.sizes['wave_direction']} headings, depth "
        + ("infinite" if depth == math.inf else f"{depth:g} m")
        + (", from the cache" if hit else
           f", {ds.attrs['seconds_per_frequency']:.2f} s per frequency (Capytaine "
           f"{ds.attrs['capytaine_version']})"),
    ]  # fmt: skip
    lines += [f"wrote {p}" for p in run.files]
    lines.append(f"in a case: potential_radiation / potential_excitation with wamit: {run.root}")
    return "\n".join(lines)
