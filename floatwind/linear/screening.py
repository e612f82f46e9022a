"""Frequency-domain screening of the sea states of a DLC set (issue 40): every operating load
condition of a DLC file (``floatwind.dlc``) solved by the linear model in seconds instead of
hours of time-domain runs.

For each wind speed of the set, the case is linearised about its static equilibrium in a steady
wind of that speed at hub height with the site's shear (the mean thrust sets the mean offset
and pitch; the thrust's dependence on the relative wind is the aerodynamic damping); for each
load condition (sea state Hs, Tp, gamma from a heading) the RAOs at that heading give the
response spectra in the JONSWAP sea and the standard deviations and significant responses
(floatwind.linear.rao). Where the case has a mean-drift load (a potential-flow excitation with
``second_order: mean_drift`` or ``newman``), each sea state adds its own mean wave drift to the
operating point, as ``floatwind linearize --at mean`` does for the case's own sea: ``F_k = 2
int S(omega) Q_k(omega, beta) domega`` over the drift file's frequencies (trapezoidal weights on
``n_drift`` points; HydroDyn WAMIT2.f90 ``MnDrift_InitCalc`` sums the same ``|a_j|^2 Q_k`` over a
sea's components, ``|a_j|^2 = 2 S(omega_j) domega``), so each condition is linearised about its
own mean offset (the mooring's stiffness there). The spectrum's variance outside the drift
file's frequencies carries no drift (HydroDyn takes zero there) and is reported per condition.
Turbulence, the slowly varying (difference-frequency) drift and the seeds are outside a linear
screen. Parked DLCs (6.1, 6.3) are linearised with the parked rotor the DLC runner builds for
them (:meth:`floatwind.dlc.spec.DLCSet.parked_rotor`: spin locked, blades feathered or the C_T
disc's parked thrust coefficient) in each condition's steady extreme wind and yaw misalignment.
"""

from __future__ import annotations

import numpy as np

from floatwind.environment.spectra import JonswapSpectrum
from floatwind.linear.matrices import linearize
from floatwind.linear.rao import raos, response_spectra

__all__ = ["screen", "sea_state_sea"]


def _drift_loads(model) -> list:
    """The potential-flow excitation loads of ``model`` with a mean drift (MnDrift / Newman)."""
    return [ld for ld in model.loads if getattr(ld, "second_order", None) is not None
            and getattr(ld, "drift", None) is not None]  # fmt: skip


def sea_state_sea(model, hs: float, tp: float, gamma, heading_deg: float, n_drift: int = 400):
    """(sea, left_out): a unidirectional first-order sea (``LinearSea``) of the JONSWAP spectrum
    (hs, tp, gamma) from ``heading_deg`` whose components carry the spectrum's variance over the
    common frequency range of the drift files of ``model`` (``|a_j|^2 = 2 S(omega_j) w_j``, w_j
    trapezoidal weights on ``n_drift`` points): its mean drift ``sum_j |a_j|^2 Q(omega_j)`` is
    ``2 int S Q domega`` (module docstring). ``left_out``: the fraction of the spectrum's variance
    outside that range (it carries no drift, as in HydroDyn)."""
    from floatwind.environment.waves import LinearSea

    loads = _drift_loads(model)
    if not loads:
        raise ValueError("the model has no mean-drift load")
    lo = max(float(ld.drift.omega[0]) for ld in loads)
    hi = min(float(ld.drift.omega[-1]) for ld in loads)
    spec = JonswapSpectrum(hs, tp, gamma)
    w = np.linspace(lo, hi, int(n_drift))
    wt = np.full(w.size, w[1] - w[0])
    wt[[0, -1]] *= 0.5
    S = np.asarray(spec(w), float)
    dense = np.linspace(1e-3, max(10.0, 3.0 * hi), 20001)
    Sd = np.asarray(spec(dense), float)
    total = np.trapezoid(Sd, dense)
    inside = np.trapezoid(np.where((dense >= lo) & (dense <= hi), Sd, 0.0), dense)
    env = model.env
    sea = LinearSea(omega=w, amplitude=np.sqrt(2.0 * S * wt)[None, :],
                    heading=np.full((1, w.size), np.radians(heading_deg)),
                    depth=float(env.water_depth), gravity=float(env.gravity),
                    info={"spectrum": "jonswap", "hs": hs, "tp": tp, "gamma": gamma})  # fmt: skip
    return sea, float(max(0.0, 1.0 - inside / total)) if total > 0 else 0.0


def _parked_models(dlc, lc) -> dict:
    """{condition: model} of a parked DLC (6.x): the DLC runner's own case of each condition
    (``DLCSet.study``: the spin joint locked, the BEM rotor feathered or the C_T disc's parked
    thrust coefficient, ServoDyn parked) in its steady extreme wind with its yaw misalignment,
    in still water (the sea enters the frequency-domain solve)."""
    from floatwind.case.loader import model_from_dict

    study = dlc.study(lc)
    out: dict = {}
    for run in study.runs():
        if run.condition in out:
            continue
        data = study.case_dict(run)
        env = dict(data.get("environment") or {})
        env.pop("waves", None)
        data["environment"] = env
        case = study.case_path(run.design_index)
        out[run.condition] = model_from_dict(data, base_dir=case.parent, name=run.id,
                                             source=str(case), text="")  # fmt: skip
    return out


def screen(dlc, omega=None) -> tuple[list[dict], list[str]]:
    """(rows, skipped): one row per operating load condition of the DLC set ``dlc``
    (``floatwind.dlc.spec.DLCSet``) with its dlc, condition, wind speed, hs, tp, gamma, heading,
    ``std`` and ``significant`` (n,) per DOF and ``dof`` names, ``offset`` (6,) the operating
    point's platform offset (m, rad) and ``mean_drift`` (6,) the sea state's mean drift (N, N m;
    zeros without a drift load), ``drift_left_out`` the spectrum's variance fraction outside
    the drift file; ``skipped`` names the load cases not screened."""
    import dataclasses

    from floatwind.case import load_case
    from floatwind.environment.wind import SteadyWind

    omega = np.linspace(0.02, 4.0, 400) if omega is None else np.asarray(omega, float)
    site = dlc.site
    cache: dict = {}  # linearizations by wind speed (operating) or condition (parked)
    models: dict = {}
    model = load_case(dlc.case)
    drifting = bool(_drift_loads(model))
    rows, skipped = [], []
    for lc in dlc.load_cases:
        groups = dlc.groups(lc)
        if not groups:
            skipped.append(f"DLC {lc.dlc} (no load condition)")
            continue
        parked = _parked_models(dlc, lc) if groups[0]["rotor"] != "operating" else None
        for g in groups:
            v = float(g["wind_speed"])
            if parked is not None:  # the DLC runner's parked rotor in the condition's own wind
                key = ("parked", g["condition"])
                if key not in models:
                    models[key] = parked[g["condition"]]
            else:
                key = v
                if key not in models:
                    wind = SteadyWind(speed=v, ref_height=float(site["hub_height"]),
                                      shear="power", alpha=float(site["shear_exponent"]))  # fmt: skip
                    models[key] = dataclasses.replace(
                        model, env=dataclasses.replace(model.env, wind=wind)
                    )
            base, left_out = models[key], 0.0
            if drifting:  # the operating point under this sea state's own mean drift
                wave_sea, left_out = sea_state_sea(base, g["hs"], g["tp"], g["gamma"],
                                                   g["wave_heading_deg"])  # fmt: skip
                env = dataclasses.replace(base.env, sea=wave_sea)
                lin = linearize(dataclasses.replace(base, env=env), at="mean")
            else:
                if key not in cache:
                    cache[key] = linearize(base)
                lin = cache[key]
            sea = JonswapSpectrum(g["hs"], g["tp"], g["gamma"])
            beta = np.radians([g["wave_heading_deg"]])
            R = raos(lin, omega, beta, sea)
            _, sigma, sig = response_spectra(R, omega, sea(omega))
            rows.append({"dlc": lc.dlc, "condition": g["condition"], "wind_speed": v,
                         "rotor": g["rotor"], "yaw_misalignment_deg": g["yaw_misalignment_deg"],
                         "hs": g["hs"], "tp": g["tp"], "gamma": g["gamma"],
                         "heading_deg": g["wave_heading_deg"], "std": sigma[0],
                         "significant": sig[0], "dof": list(lin.dof), "offset": np.asarray(lin.x0, float),
                         "mean_drift": (np.zeros(6) if lin.mean_drift is None
                                        else np.asarray(lin.mean_drift, float)),
                         "drift_left_out": left_out})  # fmt: skip
    return rows, skipped
