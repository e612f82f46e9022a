"""The linear model and its modes as an xarray Dataset, a printed table and a figure."""

from __future__ import annotations

import numpy as np
import xarray as xr

from floatwind.linear.matrices import PLATFORM_DOFS, Linearization, energy_shares
from floatwind.linear.modes import Modes

__all__ = ["modes_dataset", "modes_table", "modes_figure", "matrix_units"]

_UNIT_OF = {"m": 0, "rad": 1}


def matrix_units(units: list[str], kind: str) -> np.ndarray:
    """Units (n, n) of each entry of a mass, damping or stiffness matrix whose rows (force or
    moment) and columns (displacement) are the DOFs of ``units`` ('m' or 'rad')."""
    table = {
        "mass": (("kg", "kg m"), ("kg m", "kg m^2")),
        "damping": (("N s/m", "N s/rad"), ("N m s/m", "N m s/rad")),
        "stiffness": (("N/m", "N/rad"), ("N m/m", "N m/rad")),
    }[kind]
    return np.array([[table[_UNIT_OF[r]][_UNIT_OF[c]] for c in units] for r in units], dtype=object)


def modes_dataset(lin: Linearization, md: Modes) -> xr.Dataset:
    """Dataset of ``floatwind linearize`` (docs/linearization.md, "Output")."""
    n = lin.n
    coord = {"coordinate": list(lin.dof), "coordinate_2": list(lin.dof), "mode": np.arange(1, n + 1),
             "platform": list(PLATFORM_DOFS)}  # fmt: skip
    mm = ("coordinate", "coordinate_2")
    units = lin.units

    def mat(a, kind, what):
        return (mm, np.asarray(a, float),
                {"units": "SI per entry (variable " + kind + "_units)", "long_name": what})  # fmt: skip

    data = {
        "period": ("mode", md.period, {"units": "s", "long_name": "undamped natural period 2 pi / omega_n"}),
        "damped_period": ("mode", md.damped_period, {"units": "s", "long_name": "damped period 2 pi / omega_d (interval of upward zero crossings of a free decay)"}),
        "frequency": ("mode", md.omega_n / (2 * np.pi), {"units": "Hz", "long_name": "undamped natural frequency"}),
        "damping_ratio": ("mode", md.damping_ratio, {"units": "1", "long_name": "fraction of critical damping"}),
        "dof": ("mode", np.array(md.dof, dtype=object), {"long_name": "dominant degree of freedom (largest share of the kinetic energy)"}),
        "energy_share": (("mode", "coordinate"), np.array([energy_shares(s, lin.M, lin.cm_offset) for s in md.shape]), {"units": "1", "long_name": "share of each DOF in the mode's kinetic energy (platform DOFs about the system CM)"}),
        "iterations": ("mode", md.iterations, {"units": "1", "long_name": "fixed-point iterations of the potential-flow coefficients at the mode's frequency"}),
        "mode_shape": (("mode", "coordinate"), md.shape.real, {"units": "m or rad (coordinate_units) per unit largest entry", "long_name": "mode shape, real part"}),
        "mode_shape_imag": (("mode", "coordinate"), md.shape.imag, {"units": "m or rad (coordinate_units)", "long_name": "mode shape, imaginary part"}),
        "coordinate_units": ("coordinate", np.array(units, dtype=object), {"long_name": "units of each degree of freedom"}),
        "mass": mat(lin.M, "mass", "mass matrix incl. the loads' added mass (potential flow: A_inf)"),
        "damping": mat(lin.C, "damping", "damping matrix from the right-hand side (no radiation damping)"),
        "stiffness": mat(lin.K, "stiffness", "stiffness matrix (F = -K x)"),
        "mass_units": (mm, matrix_units(units, "mass"), {}),
        "damping_units": (mm, matrix_units(units, "damping"), {}),
        "stiffness_units": (mm, matrix_units(units, "stiffness"), {}),
        "added_mass_at_mode": (("mode",) + mm, md.added_mass, {"units": "SI per entry (mass_units)", "long_name": "potential-flow added mass used for the mode: A(omega) at its damped frequency (A_inf with --potential infinite)"}),
        "radiation_damping_at_mode": (("mode",) + mm, md.radiation_damping, {"units": "SI per entry (damping_units)", "long_name": "potential-flow radiation damping used for the mode: B(omega) at its damped frequency (0 with --potential infinite)"}),
        "operating_point": ("platform", lin.x0, {"units": "m (surge, sway, heave), rad (roll, pitch, yaw: rotation vector)", "long_name": "operating point of the platform reference point"}),
    }  # fmt: skip
    ds = xr.Dataset(data, coords=coord)
    if lin.mean_drift is not None:
        ds["mean_drift"] = ("platform", lin.mean_drift, {"units": "N (surge, sway, heave), N m (roll, pitch, yaw)", "long_name": "mean wave drift in the operating point, at the WAMIT reference point, earth axes"})  # fmt: skip
    ds.attrs.update({
        "title": f"floatwind linearization of {lin.model_name}",
        "operating_point": lin.at,
        "step_agreement_stiffness": lin.step_agreement["K"],
        "step_agreement_damping": lin.step_agreement["C"],
        "step_agreement_note": "largest change of an entry between the steps h and h/4, relative to sqrt(|K_ii K_jj|) (stiffness) and to the critical damping sqrt(c_i c_j), c_i = 2 sqrt(|K_ii| M_ii) (damping)",
        "potential_flow": _potential_note(lin, md),
        "conventions": "docs/linearization.md",
    })  # fmt: skip
    return ds


def _potential_note(lin: Linearization, md: Modes) -> str:
    if not lin.radiation:
        return "none"
    if md.potential == "infinite":
        return "infinite-frequency added mass A_inf, no radiation damping (--potential infinite)"
    return "A(omega), B(omega) at each mode's frequency"


def modes_table(lin: Linearization, md: Modes) -> str:
    """The modes as printed by ``floatwind linearize``."""
    lines = [f"{'mode':>4s}  {'dof':<14s} {'period (s)':>11s} {'damped (s)':>11s} "
             f"{'freq (Hz)':>10s} {'zeta (-)':>9s}"]  # fmt: skip
    for k in range(lin.n):
        lines.append(
            f"{k + 1:4d}  {md.dof[k]:<14s} {md.period[k]:11.4f} {md.damped_period[k]:11.4f} "
            f"{md.omega_n[k] / (2 * np.pi):10.5f} {md.damping_ratio[k]:9.4f}"
        )
    return "\n".join(lines)


def modes_figure(lin: Linearization, md: Modes, path, fmt: str = "png") -> None:
    """Each mode's kinetic-energy share per DOF (about the system CM, :func:`energy_shares`) as
    bars, one panel per mode; the shapes themselves are in the netCDF."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = lin.n
    cols = min(n, 3)
    rows = int(np.ceil(n / cols))
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 2.8 * rows), squeeze=False)
    for k in range(rows * cols):
        ax = axes[k // cols][k % cols]
        if k >= n:
            ax.axis("off")
            continue
        share = energy_shares(md.shape[k], lin.M, lin.cm_offset)
        ax.bar(range(n), share, color="C0")
        ax.set_xticks(range(n))
        ax.set_xticklabels([d.replace("Ptfm", "") for d in lin.dof], rotation=45, fontsize=8)
        ax.set_ylim(0, 1.05)
        ax.set_title(f"mode {k + 1}: {md.dof[k]}, T = {md.period[k]:.2f} s, "
                     f"zeta = {md.damping_ratio[k]:.3f}", fontsize=9)  # fmt: skip
        ax.grid(True, alpha=0.3)
    fig.suptitle(f"{lin.model_name}: modes about the {lin.at} operating point "
                 "(share of each DOF in the kinetic energy, about the system CM)")  # fmt: skip
    fig.tight_layout()
    fig.savefig(path, format=fmt, dpi=100)
    plt.close(fig)
