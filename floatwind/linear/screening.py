"""Frequency-domain screening of the sea states of a DLC set (issue 40): every operating load
condition of a DLC file (``floatwind.dlc``) solved by the linear model in seconds instead of
hours of time-domain runs.

For each wind speed of the set, the case is linearised about its static equilibrium in a steady
wind of that speed at hub height with the site's shear (the mean thrust sets the mean offset
and pitch; the thrust's dependence on the relative wind is the aerodynamic damping); for each
load condition (sea state Hs, Tp, gamma from a heading) the RAOs at that heading give the
response spectra in the JONSWAP sea and the standard deviations and significant responses
(floatwind.linear.rao). Turbulence, second-order wave loads and the seeds are outside a linear
screen; parked DLCs (6.x) need the parked rotor that the DLC runner builds and are listed as
not screened.
"""

from __future__ import annotations

import numpy as np

from floatwind.environment.spectra import JonswapSpectrum
from floatwind.linear.matrices import linearize
from floatwind.linear.rao import raos, response_spectra

__all__ = ["screen"]


def screen(dlc, omega=None) -> tuple[list[dict], list[str]]:
    """(rows, skipped): one row per operating load condition of the DLC set ``dlc``
    (``floatwind.dlc.spec.DLCSet``) with its dlc, condition, wind speed, hs, tp, gamma, heading,
    ``std`` and ``significant`` (n,) per DOF and ``dof`` names; ``skipped`` names the load
    cases not screened."""
    import dataclasses

    from floatwind.case import load_case
    from floatwind.environment.wind import SteadyWind

    omega = np.linspace(0.02, 4.0, 400) if omega is None else np.asarray(omega, float)
    site = dlc.site
    cache: dict[float, object] = {}
    model = load_case(dlc.case)
    rows, skipped = [], []
    for lc in dlc.load_cases:
        groups = dlc.groups(lc)
        if not groups or groups[0]["rotor"] != "operating":
            skipped.append(f"DLC {lc.dlc} (parked rotor: not screened)")
            continue
        for g in groups:
            v = float(g["wind_speed"])
            if v not in cache:
                wind = SteadyWind(speed=v, ref_height=float(site["hub_height"]), shear="power",
                                  alpha=float(site["shear_exponent"]))  # fmt: skip
                env = dataclasses.replace(model.env, wind=wind)
                cache[v] = linearize(dataclasses.replace(model, env=env))
            lin = cache[v]
            sea = JonswapSpectrum(g["hs"], g["tp"], g["gamma"])
            beta = np.radians([g["wave_heading_deg"]])
            R = raos(lin, omega, beta, sea)
            _, sigma, sig = response_spectra(R, omega, sea(omega))
            rows.append({"dlc": lc.dlc, "condition": g["condition"], "wind_speed": v,
                         "hs": g["hs"], "tp": g["tp"], "gamma": g["gamma"],
                         "heading_deg": g["wave_heading_deg"], "std": sigma[0],
                         "significant": sig[0], "dof": list(lin.dof)})  # fmt: skip
    return rows, skipped
