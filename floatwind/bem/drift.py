"""Mean wave drift of a hull held fixed, from Capytaine's far-field (momentum) formulation,
written as a WAMIT ``.8`` file (issue 39; ``floatwind bem --drift``).

For each frequency the diffraction problems of every heading are solved and their Kochin
functions ``H(theta)`` computed on ``theta`` = 0..2 pi (Capytaine ``compute_kochin``); the mean
drift (surge, sway, yaw) per unit wave amplitude squared is Capytaine's
``far_field_mean_drift_force`` (Maruo 1960, Newman 1967: the momentum the scattered waves carry
away through a control surface at infinity) with the motion RAO set to zero: the drift of the
**restrained** body, all headings pairs (BETA1, BETA2). A floating body's drift needs its motion
RAO (mass, mooring and damping of the whole system), which this command does not build: it is
refused by not being offered.

For a bottom-mounted vertical cylinder of radius ``a`` in depth ``h`` the closed form (MacCamy
and Fuchs 1954 diffraction; Maruo's far-field formula) is
``F/(rho g A^2 a) = (1 + 2kh/sinh 2kh) / (2 pi ka) int_0^{2 pi} |S(theta)|^2 (1 - cos theta)
dtheta``, ``S(theta) = sum_n eps_n (-J_n'(ka) / H_n'(ka)) cos n theta`` (the scattered
far-field amplitude; ``eps_0 = 1``, ``eps_n = 2``): :func:`cylinder_mean_drift`. Its short-wave
limit is ``2/3`` (total reflection by a circle).

File: ``PER BETA1 BETA2 I |F| phase Re Im`` per line (WAMIT User Manual 4.8), ``Fbar = F /
(rho g A^2 L^m)``, ``L`` = 1 m, ``m`` = 1 (forces), 2 (yaw moment), WAMIT's phase convention
(``e^{+i omega t}``: Capytaine's off-diagonal values conjugated), modes 1, 2, 6.
"""

from __future__ import annotations

import logging
import math
import pathlib

import numpy as np

from floatwind.bem.hull import Hull, require_capytaine
from floatwind.bem.solve import _capytaine_body, _check_inputs

logger = logging.getLogger(__name__)

__all__ = ["cylinder_mean_drift", "fixed_body_mean_drift", "write_mean_drift"]

#: Capytaine's far-field drift components and their WAMIT modes
_COMPONENTS = (("drift_force_surge", 1), ("drift_force_sway", 2), ("drift_force_yaw", 6))


def cylinder_mean_drift(ka, kh=math.inf, n_terms: int | None = None) -> np.ndarray:
    """``F / (rho g A^2 a)`` of a bottom-mounted vertical cylinder (module docstring) at ``ka``
    (array) and ``kh`` (scalar or per ``ka``; ``inf``: deep water)."""
    from scipy.special import h1vp, jvp

    ka = np.atleast_1d(np.asarray(ka, dtype=float))
    khs = np.broadcast_to(np.asarray(kh, dtype=float), ka.shape)
    th = np.linspace(0.0, 2.0 * math.pi, 4097)
    out = np.empty(ka.size)
    for i, x in enumerate(ka):
        n_max = n_terms or int(x + 12.0 * x ** (1.0 / 3.0) + 12)
        S = np.zeros(th.size, dtype=complex)
        for n in range(n_max + 1):
            S += (1.0 if n == 0 else 2.0) * (-jvp(n, x) / h1vp(n, x)) * np.cos(n * th)
        f = np.abs(S) ** 2 * (1.0 - np.cos(th))
        integral = float(np.sum(0.5 * (f[1:] + f[:-1]) * np.diff(th)))
        q = float(khs[i])
        depth = 1.0 if not math.isfinite(q) else 1.0 + 2.0 * q / math.sinh(2.0 * q)
        out[i] = depth * integral / (2.0 * math.pi * x)
    return out


def fixed_body_mean_drift(hull: Hull, *, omega, headings_deg, water_depth: float = math.inf,
                          rho: float = 1025.0, g: float = 9.80665,
                          n_theta: int = 180):  # fmt: skip
    """Mean drift of the restrained hull (module docstring): an xarray Dataset with
    ``drift_force_surge``, ``drift_force_sway`` (N/m^2), ``drift_force_yaw`` (N m/m^2) over
    (omega, wave_direction_k, wave_direction_l), Capytaine's convention."""
    import xarray as xr
    from capytaine.post_pro.kochin import compute_kochin
    from capytaine.post_pro.mean_drift_force import far_field_mean_drift_force

    cpt = require_capytaine()
    omega, heads, depth = _check_inputs(omega, headings_deg, water_depth, g)
    body = _capytaine_body(cpt, hull)
    solver = cpt.BEMSolver()
    wd = depth if math.isfinite(depth) else np.inf
    beta = np.radians(heads)
    d = 2.0 * math.pi / int(n_theta)
    theta = np.arange(-2, int(n_theta) + 3) * d  # past 0 and 2 pi: Capytaine needs beta inside
    quiet = logging.getLogger("capytaine")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        kd = np.zeros((omega.size, beta.size, theta.size), dtype=complex)
        k = np.zeros(omega.size)
        for f, w in enumerate(omega):
            probs = [cpt.DiffractionProblem(body=body, omega=w, wave_direction=b, rho=rho, g=g,
                                            water_depth=wd) for b in beta]  # fmt: skip
            for j, res in enumerate(solver.solve_all(probs, progress_bar=False)):
                kd[f, j] = compute_kochin(res, theta)
                k[f] = res.wavenumber
    finally:
        quiet.setLevel(level)
    dset = xr.Dataset(
        {
            "kochin_diffraction": (("omega", "wave_direction", "theta"), kd),
            "kochin_radiation": (("omega", "radiating_dof", "theta"),
                                 np.zeros((omega.size, 1, theta.size), dtype=complex)),
            "wavenumber": (("omega",), k),
        },
        coords={"omega": omega, "wave_direction": beta, "theta": theta, "radiating_dof": ["Surge"],
                "water_depth": wd, "rho": rho, "g": g},
    )  # fmt: skip
    X = xr.DataArray(np.zeros((omega.size, beta.size, 1), dtype=complex),
                     dims=("omega", "wave_direction", "radiating_dof"),
                     coords={"omega": omega, "wave_direction": beta, "radiating_dof": ["Surge"]})  # fmt: skip
    return far_field_mean_drift_force(X, dset)


def write_mean_drift(drift, root, *, rho: float = 1025.0, g: float = 9.80665) -> pathlib.Path:
    """``<root>.8`` from :func:`fixed_body_mean_drift` (module docstring); all (BETA1, BETA2)
    pairs, as HydroDyn's reader needs."""
    path = pathlib.Path(str(root) + ".8")
    path.parent.mkdir(parents=True, exist_ok=True)
    omega = np.asarray(drift["omega"].values, dtype=float)
    bk = np.degrees(np.asarray(drift["wave_direction_k"].values, dtype=float))
    bl = np.degrees(np.asarray(drift["wave_direction_l"].values, dtype=float))
    lines = []
    for f in np.argsort(2.0 * math.pi / omega):  # increasing period, as the shared spar.8
        per = 2.0 * math.pi / omega[f]
        for i, b1 in enumerate(bk):
            for j, b2 in enumerate(bl):
                for name, mode in _COMPONENTS:
                    v = np.conj(complex(drift[name].values[f, i, j])) / (rho * g)
                    lines.append(f"{per:14.7e} {b1:10.4f} {b2:10.4f} {mode:3d} {abs(v):14.7e} "
                                 f"{math.degrees(math.atan2(v.imag, v.real)):10.4f} "
                                 f"{v.real:14.7e} {v.imag:14.7e}\n")  # fmt: skip
    path.write_text("".join(lines))
    return path
