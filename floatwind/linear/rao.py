"""Frequency-domain response of a linear model: RAOs, response spectra, significant responses.

For a wave of unit amplitude ``eta = Re{e^{i omega t}}`` at the origin from heading beta (WAMIT's
convention, floatwind.loads.wamit), the steady response ``x = Re{xi e^{i omega t}}`` solves

    [-omega^2 (M - A_inf + A(omega)) + i omega (C + B(omega)) + K] xi = J^T rho g X(omega, beta)

(the linear equations of motion in the frequency domain, e.g. Faltinsen, *Sea Loads on Ships
and Offshore Structures*, 1990, eq. 3.2; RAFT solves the same system), ``M, C, K`` about the
operating point (:func:`floatwind.linear.matrices.linearize`), ``A, B`` the potential-flow
coefficients, ``X`` the excitation per unit amplitude of the case's ``potential_excitation``
load (linear in frequency between the ``.3`` frequencies and zero outside them, linear in
heading within the file's headings: what HydroDyn applies in the time domain), ``J`` the
Jacobian of the WAMIT point's motion with respect to the DOFs. RAO = ``xi`` (m/m, rad/m).

In a sea of one-sided spectrum ``S(omega)`` from one heading the response spectrum is
``S_x(omega) = |xi(omega)|^2 S(omega)``, its variance ``m0 = int S_x d omega`` and the
significant response (double amplitude, as ``Hs = 4 sqrt(m0)`` for the waves)
``4 sqrt(m0)``; the standard deviation is ``sqrt(m0)``.
"""

from __future__ import annotations

import math

import numpy as np

from floatwind.errors import CaseError
from floatwind.linear.matrices import Linearization, wamit_at

__all__ = ["excitation", "raos", "response_spectra"]


def _wamit_table(data, omega: np.ndarray):
    """A(omega), B(omega) (F, 6, 6), vectorised :func:`wamit_at`."""
    return (np.stack([wamit_at(data, w)[0] for w in omega]),
            np.stack([wamit_at(data, w)[1] for w in omega]))  # fmt: skip


def excitation(lin: Linearization, omega: np.ndarray, headings: np.ndarray) -> np.ndarray:
    """Potential-flow excitation per unit wave amplitude (F, H, n), complex, x coordinates
    (zero without a potential_excitation load)."""
    F = np.zeros((omega.size, headings.size, lin.n), complex)
    for data, rg, J, field in lin.excitation:
        hd = np.asarray(data.exc_heading, float)
        lo, hi = float(hd[0]), float(hd[-1])
        bad = (headings < lo - 1e-9) | (headings > hi + 1e-9)
        if np.any(bad):
            raise CaseError(
                f"wave heading {math.degrees(float(headings[np.argmax(bad)])):g} deg lies outside "
                f"the WAMIT .3 headings {math.degrees(lo):g}..{math.degrees(hi):g} deg",
                field=field,
            )
        ex = np.asarray(data.excitation)  # (E, Hf, 6)
        # frequency first (zero outside the file's range), then heading: as the time domain
        per = np.empty((omega.size, hd.size, 6), complex)
        for h in range(hd.size):
            for i in range(6):
                per[:, h, i] = np.interp(omega, data.exc_omega, ex[:, h, i].real, 0.0, 0.0) + (
                    1j * np.interp(omega, data.exc_omega, ex[:, h, i].imag, 0.0, 0.0)
                )
        if hd.size == 1:
            X = np.repeat(per, headings.size, axis=1)
        else:
            k = np.clip(np.searchsorted(hd, headings) - 1, 0, hd.size - 2)
            f = ((headings - hd[k]) / (hd[k + 1] - hd[k]))[None, :, None]
            X = (1 - f) * per[:, k] + f * per[:, k + 1]
        F += rg * np.einsum("ji,fhj->fhi", J, X)
    return F


def impedance(lin: Linearization, omega: np.ndarray) -> np.ndarray:
    """Z(omega) = -omega^2 (M - A_inf + A) + i omega (C + B) + K, (F, n, n)."""
    n = lin.n
    Mw = np.broadcast_to(lin.M - lin.added_mass_inf(), (omega.size, n, n)).copy()
    Cw = np.broadcast_to(lin.C, (omega.size, n, n)).copy()
    for data, rho, J in lin.radiation:
        A, B = _wamit_table(data, omega)
        Mw += rho * np.einsum("ki,fkl,lj->fij", J, A, J)
        Cw += rho * np.einsum("ki,fkl,lj->fij", J, B, J)
    w = omega[:, None, None]
    return -(w**2) * Mw + 1j * w * Cw + lin.K[None]


def raos(lin: Linearization, omega, headings, spectrum=None, *, tol: float = 1e-6,
         max_iter: int = 100) -> np.ndarray:  # fmt: skip
    """RAOs (F, H, n) complex: response per unit wave amplitude at ``omega`` (rad/s) from
    ``headings`` (rad) (module docstring). Morison strips add their wave-inertia excitation;
    their drag is linearised stochastically in the sea of ``spectrum`` (a callable S(omega),
    m^2 s/rad) from each heading, iterated until the relative-velocity standard deviations
    change by less than ``tol`` (floatwind.linear.morison)."""
    from floatwind.linear.morison import MorisonFD

    omega = np.asarray(omega, float)
    headings = np.atleast_1d(np.asarray(headings, float))
    mor = None
    if lin.morison:
        rho, g, depth = lin.water
        mor = MorisonFD(lin.morison, rho, depth, g, lin.n)
    if not lin.excitation and mor is None:
        raise CaseError(
            "the case has neither a potential_excitation load (WAMIT .3 file) nor Morison "
            "members: no wave excitation",
            field="loads",
        )
    X = excitation(lin, omega, headings)
    Z = impedance(lin, omega)
    if mor is None:
        return np.linalg.solve(Z, np.transpose(X, (0, 2, 1))).transpose(0, 2, 1)
    if mor.has_drag and spectrum is None:
        raise CaseError("Morison drag is linearised in a sea state: give --hs and --tp (or a "
                        "case with a JONSWAP sea)", field="--hs")  # fmt: skip
    out = np.empty((omega.size, headings.size, lin.n), complex)
    if mor.has_drag:  # the sea's band, for the standard deviations
        lo, hi = spectrum.band(1e-6)
        wq = np.linspace(lo, hi, 400)
        Sq = spectrum(wq)
        Zq = impedance(lin, wq)
        Xq = excitation(lin, wq, headings)
    for h, beta in enumerate(headings):
        Xh = X[:, h] + mor.excitation_inertia(omega, beta)
        if not mor.has_drag:
            out[:, h] = np.linalg.solve(Z, Xh[..., None])[..., 0]
            continue
        Xqh = Xq[:, h] + mor.excitation_inertia(wq, beta)
        sigma = mor.relative_sigma(wq, beta, np.zeros((wq.size, lin.n)), Sq)
        for _ in range(max_iter):
            Cd, Xd = mor.drag(wq, beta, sigma)
            xi = np.linalg.solve(Zq + 1j * wq[:, None, None] * Cd[None], (Xqh + Xd)[..., None])
            new = mor.relative_sigma(wq, beta, xi[..., 0], Sq)
            change = max(
                float(np.max(np.abs(a - b) / np.maximum(a, 1e-12))) for a, b in zip(new, sigma)
            )
            sigma = new
            if change < tol:
                break
        else:
            raise CaseError(f"the stochastic linearization of Morison drag does not settle in "
                            f"{max_iter} iterations", field="loads")  # fmt: skip
        Cd, Xd = mor.drag(omega, beta, sigma)
        Zh = Z + 1j * omega[:, None, None] * Cd[None]
        out[:, h] = np.linalg.solve(Zh, (Xh + Xd)[..., None])[..., 0]
    return out


def response_spectra(rao: np.ndarray, omega: np.ndarray, spectrum: np.ndarray):
    """(S_x (F, H, n), standard deviation (H, n), significant response 4 sigma (H, n)) of the
    RAOs in a sea of one-sided spectrum ``spectrum`` (F,) (m^2 s/rad) from each heading."""
    Sx = np.abs(rao) ** 2 * np.asarray(spectrum, float)[:, None, None]
    m0 = (
        np.trapezoid(Sx, omega, axis=0) if hasattr(np, "trapezoid") else np.trapz(Sx, omega, axis=0)
    )
    sigma = np.sqrt(m0)
    return Sx, sigma, 4.0 * sigma


def rao_dataset(lin: Linearization, omega, headings_deg, rao, spectrum=None, resp=None):
    """Dataset of ``floatwind rao`` (docs/linearization.md, "Output")."""
    import xarray as xr

    from floatwind.linear.dataset import matrix_units

    units = [f"{u}/m" for u in lin.units]
    dims = ("omega", "heading", "coordinate")
    data = {
        "rao_amplitude": (dims, np.abs(rao), {"units": "m/m or rad/m (coordinate_units)", "long_name": "response amplitude per unit wave amplitude"}),
        "rao_phase": (dims, np.degrees(np.angle(rao)), {"units": "deg", "long_name": "phase of the response relative to the wave elevation at the origin (Re{xi e^{i omega t}})"}),
        "rao_real": (dims, rao.real, {"units": "m/m or rad/m"}),
        "rao_imag": (dims, rao.imag, {"units": "m/m or rad/m"}),
        "coordinate_units": ("coordinate", np.array(units, dtype=object), {"long_name": "units of each RAO"}),
        "mass": (("coordinate", "coordinate_2"), lin.M, {"units": "SI per entry (mass_units)"}),
        "mass_units": (("coordinate", "coordinate_2"), matrix_units(lin.units, "mass"), {}),
        "damping": (("coordinate", "coordinate_2"), lin.C, {"units": "SI per entry (damping_units)"}),
        "damping_units": (("coordinate", "coordinate_2"), matrix_units(lin.units, "damping"), {}),
        "stiffness": (("coordinate", "coordinate_2"), lin.K, {"units": "SI per entry (stiffness_units)"}),
        "stiffness_units": (("coordinate", "coordinate_2"), matrix_units(lin.units, "stiffness"), {}),
    }  # fmt: skip
    if spectrum is not None and resp is not None:
        Sx, sigma, sig = resp
        data["wave_spectrum"] = ("omega", spectrum(np.asarray(omega)), {"units": "m^2 s/rad", "long_name": spectrum.describe()})  # fmt: skip
        data["response_spectrum"] = (dims, Sx, {"units": "m^2 s/rad or rad^2 s/rad", "long_name": "one-sided response spectrum |RAO|^2 S"})  # fmt: skip
        data["response_std"] = (("heading", "coordinate"), sigma, {"units": "m or rad", "long_name": "standard deviation sqrt(m0)"})  # fmt: skip
        data["significant_response"] = (("heading", "coordinate"), sig, {"units": "m or rad", "long_name": "significant response 4 sqrt(m0) (double amplitude)"})  # fmt: skip
    ds = xr.Dataset(data, coords={
        "omega": ("omega", np.asarray(omega, float), {"units": "rad/s"}),
        "heading": ("heading", np.asarray(headings_deg, float), {"units": "deg", "long_name": "wave propagation heading"}),
        "coordinate": list(lin.dof), "coordinate_2": list(lin.dof)})  # fmt: skip
    ds.attrs.update({"title": f"floatwind RAOs of {lin.model_name}", "operating_point": lin.at,
                     "conventions": "docs/linearization.md"})  # fmt: skip
    return ds


def rao_figure(lin: Linearization, omega, headings_deg, rao, path, fmt: str = "png") -> None:
    """|RAO| per DOF, one line per heading."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = lin.n
    cols = 3
    rows = int(np.ceil(n / cols))
    fig, axes = plt.subplots(rows, cols, figsize=(12, 3 * rows), squeeze=False)
    for i in range(rows * cols):
        ax = axes[i // cols][i % cols]
        if i >= n:
            ax.axis("off")
            continue
        scale = 1.0 if lin.units[i] == "m" else 180 / np.pi
        for h, hd in enumerate(headings_deg):
            ax.plot(omega, np.abs(rao[:, h, i]) * scale, label=f"{hd:g} deg")
        ax.set_title(lin.dof[i], fontsize=9)
        ax.set_xlabel("omega (rad/s)")
        ax.set_ylabel("m/m" if lin.units[i] == "m" else "deg/m")
        ax.grid(True, alpha=0.3)
    axes[0][0].legend(fontsize=7)
    fig.suptitle(f"{lin.model_name}: RAOs about the {lin.at} operating point")
    fig.tight_layout()
    fig.savefig(path, format=fmt, dpi=100)
    plt.close(fig)
