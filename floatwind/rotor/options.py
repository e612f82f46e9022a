"""The settings of the BEMT solve (AeroDyn v5's BEM keys), read by the compiled kernel by name."""

from __future__ import annotations

import math
from typing import NamedTuple

from floatwind.errors import CaseError

__all__ = ["BemtOptions", "bemt_options"]


class BemtOptions(NamedTuple):
    """AeroDyn v5 BEM settings (``floatwind._kernels.bemt`` reads the fields by name).

    Build it with :func:`bemt_options`, which checks the values and refuses what is not built.
    """

    n_blades: int
    tip_loss: bool  # TipLoss: Prandtl tip loss
    hub_loss: bool  # HubLoss: Prandtl hub loss
    tan_ind: bool  # TanInd: tangential induction
    ai_drag: bool  # AIDrag: drag in the axial-induction equation
    ti_drag: bool  # TIDrag: drag in the tangential-induction equation
    skew_mod: int  # Skew_Mod: 0 none, 1 Pitt/Peters redistribution of the axial induction
    skew_redistr_factor: float  # SkewRedistrFactor (AeroDyn default 15 pi / 32)
    skew_mom_corr: bool  # SkewMomCorr (only False is built)
    bem_mod: int  # BEM_Mod (only 1, the legacy element frame, is built)
    max_iter: int  # MaxIter: most residual evaluations of Brent's method
    tolerance: float  # IndToler: residual tolerance
    use_cm: bool  # UseBlCm: pitching moment in the blade loads
    rho: float  # air density (kg/m^3)
    kin_visc: float  # kinematic viscosity (m^2/s)
    use_induction: bool  # Wake_Mod /= 0


def bemt_options(
    *,
    n_blades: int = 3,
    tip_loss: bool = True,
    hub_loss: bool = True,
    tan_ind: bool = True,
    ai_drag: bool = True,
    ti_drag: bool = True,
    skew_mod: int = 1,
    skew_redistr_factor: float = 15.0 * math.pi / 32.0,
    skew_mom_corr: bool = False,
    bem_mod: int = 1,
    max_iter: int = 100,
    tolerance: float = 5.0e-10,
    use_cm: bool = True,
    rho: float = 1.225,
    kin_visc: float = 1.464e-5,
    use_induction: bool = True,
) -> BemtOptions:
    """Checked :class:`BemtOptions` (defaults: AeroDyn v5's, IndToler's double-precision
    default 5e-10). A setting that is not built is refused in one line
    (:class:`~floatwind.errors.CaseError` naming the AeroDyn key)."""
    if int(n_blades) != n_blades or n_blades < 1:
        raise CaseError(
            f"the number of blades must be a positive integer, not {n_blades}", field="NumBl"
        )
    if bem_mod != 1:
        raise CaseError(
            f"BEM_Mod = {bem_mod} is not supported; use 1 (legacy BEM, NoSweepPitchTwist)",
            field="BEM_Mod",
        )
    if skew_mod not in (0, 1):
        raise CaseError(
            f"Skew_Mod = {skew_mod} is not supported; use 0 (none) or 1 (Pitt/Peters skewed wake)",
            field="Skew_Mod",
        )
    if skew_mom_corr:
        raise CaseError("SkewMomCorr = True is not supported; use False", field="SkewMomCorr")
    if int(max_iter) != max_iter or max_iter < 1:
        raise CaseError(f"MaxIter must be a positive integer, not {max_iter}", field="MaxIter")
    if not (tolerance > 0.0 and math.isfinite(tolerance)):
        raise CaseError(f"IndToler must be greater than 0, not {tolerance}", field="IndToler")
    if not (rho > 0.0 and math.isfinite(rho)):
        raise CaseError(f"the air density must be greater than 0, not {rho}", field="AirDens")
    if not (kin_visc > 0.0 and math.isfinite(kin_visc)):
        raise CaseError(f"KinVisc must be greater than 0, not {kin_visc}", field="KinVisc")
    if not math.isfinite(skew_redistr_factor):
        raise CaseError("SkewRedistrFactor must be a number", field="SkewRedistrFactor")
    return BemtOptions(
        n_blades=int(n_blades),
        tip_loss=bool(tip_loss),
        hub_loss=bool(hub_loss),
        tan_ind=bool(tan_ind),
        ai_drag=bool(ai_drag),
        ti_drag=bool(ti_drag),
        skew_mod=int(skew_mod),
        skew_redistr_factor=float(skew_redistr_factor),
        skew_mom_corr=False,
        bem_mod=1,
        max_iter=int(max_iter),
        tolerance=float(tolerance),
        use_cm=bool(use_cm),
        rho=float(rho),
        kin_visc=float(kin_visc),
        use_induction=bool(use_induction),
    )
