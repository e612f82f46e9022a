"""SeaState: the wave model (still water, regular waves with a phase, JONSWAP), the refusal of
the others, its part of the settings table, and the case's ``environment.waves``."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from floatwind.case.openfast.fst import environment
from floatwind.case.openfast.reader import _DEG, DEFAULT, _bool, _float, _int, _raw
from floatwind.case.openfast.settings import OUT, Ctx, FileKind, I, M, N, Ok, R, eq, same
from floatwind.errors import CaseError

__all__ = ["FILE_KIND", "case_waves", "regular_phase", "sea_state"]

#: SeaState WaveStMod -> floatwind's ``stretching`` (2, extrapolation stretching, is refused)
_STRETCHING = {0: "none", 1: "vertical", 3: "wheeler"}


def regular_phase(wave_mod) -> float | None:
    """The phase (deg) of SeaState's ``WaveMod = 1P#`` (regular wave with a given phase), else
    None."""
    if isinstance(wave_mod, str) and wave_mod.upper().startswith("1P"):
        try:
            return float(wave_mod[2:])
        except ValueError:
            return None
    return None


def _jonswap_default_gamma(hs: float, tp: float) -> float:
    """IEC 61400-3 peak-shape parameter used by SeaState for ``WavePkShp = DEFAULT``."""
    if hs <= 0.0:
        return 1.0
    r = tp / math.sqrt(hs)
    if r <= 3.6:
        return 5.0
    if r >= 5.0:
        return 1.0
    return math.exp(5.75 - 1.15 * r)


def sea_state(deck: dict) -> dict[str, Any] | None:
    """SeaState settings, SI; ``None`` when SeaState is off.

    ``DEFAULT`` water density, depth and MSL2SWL are taken from the ``.fst``; ``WavePkShp =
    DEFAULT`` becomes the IEC value (5 for Tp/sqrt(Hs) <= 3.6, 1 for >= 5, exp(5.75 - 1.15
    Tp/sqrt(Hs)) between).

    Returns
    -------
    dict or None
        ``WaveMod`` (int, or the string of ``1P#`` forms), ``WaveStMod``, ``WaveTMax`` (s),
        ``WaveDT`` (s), ``WaveHs`` (m), ``WaveTp`` (s), ``WavePkShp`` (-), ``WavePkShp_default``
        (bool), ``WvLowCOff``, ``WvHiCOff`` (rad/s), ``WaveDir`` (rad, propagation heading),
        ``WaveDirMod``, ``WaveSeed`` (list of two; the second may be the string ``"RanLux"``),
        ``WaveNDAmp`` (bool), ``WtrDens`` (kg/m^3), ``WtrDpth`` (m), ``MSL2SWL`` (m), ``CurrMod``,
        ``WvDiffQTF``, ``WvSumQTF`` (bool), ``WaveElev_points`` (list of (x, y), m),
        ``WaveKin_points`` (list of (x, y, z), m), ``outlist``.
    """
    ss = deck.get("SeaState")
    if ss is None:
        return None
    env = environment({"fst": deck["fst"]})
    wave_mod = _raw(ss, "WaveMod")
    hs = _float(ss, "WaveHs", 0.0)
    tp = _float(ss, "WaveTp", 0.0)
    pk = _raw(ss, "WavePkShp", DEFAULT)
    pk_default = pk == DEFAULT
    gamma = _jonswap_default_gamma(hs, tp) if pk_default else _float(ss, "WavePkShp")

    def fallback(key: str, env_key: str) -> float | None:
        v = _raw(ss, key, DEFAULT)
        if v == DEFAULT:
            return env[env_key]
        return _float(ss, key)

    def coords(key: str, count: int) -> list[float]:
        if count == 0:
            return []
        v = _raw(ss, key)
        vals = v if isinstance(v, list) else [v]
        if len(vals) < count or not all(isinstance(x, int | float) for x in vals[:count]):
            raise CaseError(f"expected {count} numbers, got {v!r}", field=key, file=ss["file"])
        return [float(x) for x in vals[:count]]

    n_elev = _int(ss, "NWaveElev", 0)
    n_kin = _int(ss, "NWaveKin", 0)
    ex, ey = coords("WaveElevxi", n_elev), coords("WaveElevyi", n_elev)
    kx, ky, kz = coords("WaveKinxi", n_kin), coords("WaveKinyi", n_kin), coords("WaveKinzi", n_kin)
    seeds = [_raw(ss, "WaveSeed(1)", 0), _raw(ss, "WaveSeed(2)", 0)]
    return {
        "WaveMod": wave_mod,
        "WaveStMod": _int(ss, "WaveStMod", 0),
        "WaveTMax": _float(ss, "WaveTMax"),
        "WaveDT": _float(ss, "WaveDT"),
        "WaveHs": hs,
        "WaveTp": tp,
        "WavePkShp": gamma,
        "WavePkShp_default": pk_default,
        "WvLowCOff": _float(ss, "WvLowCOff", 0.0),
        "WvHiCOff": _float(ss, "WvHiCOff", 500.0),
        "WaveDir": _float(ss, "WaveDir", 0.0) * _DEG,
        "WaveDirMod": _int(ss, "WaveDirMod", 0),
        "WaveSeed": seeds,
        "WaveNDAmp": _bool(ss, "WaveNDAmp", False),
        "WtrDens": fallback("WtrDens", "water_density"),
        "WtrDpth": fallback("WtrDpth", "water_depth"),
        "MSL2SWL": fallback("MSL2SWL", "msl2swl"),
        "CurrMod": _int(ss, "CurrMod", 0),
        "WvDiffQTF": _bool(ss, "WvDiffQTF", False),
        "WvSumQTF": _bool(ss, "WvSumQTF", False),
        "WaveElev_points": list(zip(ex, ey)),
        "WaveKin_points": list(zip(kx, ky, kz)),
        "outlist": list(ss["outlists"].get("OutList", [])),
    }


def case_waves(ss: dict | None, notes: list[str]) -> dict[str, Any]:
    """The case's sea (``environment.waves`` unless still) of :func:`sea_state`'s result; a
    JONSWAP sea adds a note."""
    sea: dict[str, Any] = {"kind": "still"}
    phase = regular_phase(ss["WaveMod"]) if ss is not None else None
    # SeaState's stretching of the incident-wave kinematics (unsupported modes are refused by
    # unsupported_settings): 0 none, 1 vertical, 3 Wheeler
    stretching = _STRETCHING.get(int(ss["WaveStMod"]), "none") if ss is not None else "none"
    if phase is not None:
        sea = {
            "kind": "regular",
            "height": float(ss["WaveHs"]),
            "period": float(ss["WaveTp"]),
            "phase_deg": phase,
            "heading_deg": math.degrees(ss["WaveDir"]),
            "stretching": stretching,
        }
    if ss is not None and ss["WaveMod"] == 2:
        sea = {
            "kind": "jonswap",
            "hs": float(ss["WaveHs"]),
            "tp": float(ss["WaveTp"]),
            "gamma": float(ss["WavePkShp"]),
            "heading_deg": math.degrees(ss["WaveDir"]),
            "stretching": stretching,
            "random_amplitude": bool(ss["WaveNDAmp"]),
        }
        notes.append(
            "SeaState JONSWAP imported by its parameters: floatwind's random phases differ from "
            "SeaState's (gfortran pRNG); compare.py reproduces the reference wave exactly from Wave1Elev"
        )
    return sea


# ------------------------------------------------------------------------------ dedicated checks


def _refusals(deck: dict) -> list[str]:
    """Wave models other than still water, regular waves with a phase (1P#) and
    JONSWAP/Pierson-Moskowitz, extrapolation stretching, directional spreading, currents,
    second-order waves."""
    out: list[str] = []
    ss = deck.get("SeaState")
    if ss is not None:
        ss_name = Path(ss["file"]).name
        wave_mod = _raw(ss, "WaveMod")
        if wave_mod == 1:
            out.append(
                f"{ss_name}: WaveMod = 1 (regular wave, phase from SeaState's seeds) is not "
                "supported; give the phase as 1P# (e.g. 1P0)"
            )
        elif wave_mod not in (0, 2) and regular_phase(wave_mod) is None:
            out.append(
                f"{ss_name}: WaveMod = {wave_mod}: only still water (0), regular waves with a "
                "phase (1P#) and JONSWAP/Pierson-Moskowitz spectra (2) are imported"
            )
        if wave_mod not in (0, "0") and _int(ss, "WaveStMod", 0) not in (0, 1, 3):
            out.append(
                f"{ss_name}: WaveStMod = {_int(ss, 'WaveStMod')} (extrapolation stretching) is "
                "not supported; floatwind has none (0), vertical (1) and Wheeler (3)"
            )
        if wave_mod == 2 and _int(ss, "WaveDirMod", 0) != 0:
            out.append(
                f"{ss_name}: WaveDirMod = {_int(ss, 'WaveDirMod')} (directional spreading) is not supported"
            )
        if _int(ss, "CurrMod", 0) != 0:
            out.append(f"{ss_name}: CurrMod = {_int(ss, 'CurrMod')} (currents) is not supported")
        for key in ("WvDiffQTF", "WvSumQTF"):
            if _bool(ss, key, False):
                out.append(f"{ss_name}: {key} = True (second-order waves) is not supported")
    return out


# ------------------------------------------------------------------ conditions between settings


def _sea(ctx: Ctx) -> dict | None:
    return ctx.cached("sea", lambda: sea_state(ctx.deck))


def _band(ctx: Ctx) -> tuple[float, float] | None:
    """floatwind's JONSWAP band (rad/s) for the deck's SeaState, or None (no JONSWAP)."""

    def make() -> tuple[float, float] | None:
        from floatwind.environment.spectra import JonswapSpectrum

        ss = _sea(ctx)
        if ss is None or not (ss["WaveMod"] in (2, "2") and ss["WaveHs"] > 0 and ss["WaveTp"] > 0):
            return None
        try:
            # the band is relative to the peak: the unnormalised spectrum gives it without the
            # quadrature of m0 (0.3-1 s of a run's start-up)
            spec = JonswapSpectrum(ss["WaveHs"], ss["WaveTp"], ss["WavePkShp"], normalize=False)
            return spec.band(1e-3)
        except ValueError:
            return None

    return ctx.cached("band", make)


def _waves(ctx: Ctx) -> bool:
    return ctx.v("SeaState", "WaveMod", 0) not in (0, "0")


def _jonswap(ctx: Ctx) -> bool:
    return ctx.v("SeaState", "WaveMod", 0) in (2, "2")


def _low_cut(v: Any, ctx: Ctx) -> bool:
    band = _band(ctx)
    return band is None or (isinstance(v, int | float) and float(v) <= band[0])


def _high_cut(v: Any, ctx: Ctx) -> bool:
    band = _band(ctx)
    return band is None or (isinstance(v, int | float) and float(v) >= band[1])


def _wave_dt(v: Any, ctx: Ctx) -> bool:
    band = _band(ctx)
    return band is None or (isinstance(v, int | float) and v > 0 and math.pi / float(v) >= band[1])


def _wave_tmax(v: Any, ctx: Ctx) -> bool:
    if regular_phase(ctx.v("SeaState", "WaveMod", 0)) is None:
        return True
    tp = ctx.num("SeaState", "WaveTp", 0.0)
    if not isinstance(v, int | float) or tp <= 0:
        return False
    n = float(v) / tp
    return n >= 1 and abs(n - round(n)) < 1e-6


def _fst_equal(env_key: str) -> Ok:
    return lambda v, ctx: v == "DEFAULT" or same(v, ctx.v("fst", env_key))


# ---------------------------------------------------------------------------------- the table

_CURRENT = "current parameter, used only with CurrMod != 0 (refused)"
_CREST = "constrained-wave parameter, used only with ConstWaveMod != 0 (refused)"
_QTF2 = "second-order wave cut-off, used only with WvDiffQTF/WvSumQTF = True (refused)"
_SPREAD = "directional-spreading parameter, used only with WaveDirMod != 0 (refused)"
_GRID = (
    "SeaState's interpolation grid of the wave kinematics (numerics); floatwind evaluates the "
    "wave kinematics at each point itself"
)

_SETTINGS = {
    "SeaState": {
        "Echo": N("echo of the input file"),
        "WtrDens": R(
            "WtrDens = DEFAULT or the .fst WtrDens (floatwind has one water density)",
            _fst_equal("WtrDens"),
            "1000",
        ),
        "WtrDpth": R(
            "WtrDpth = DEFAULT or the .fst WtrDpth (floatwind has one water depth)",
            _fst_equal("WtrDpth"),
            "200",
        ),
        "MSL2SWL": R(
            "MSL2SWL = DEFAULT or 0 (floatwind's still-water level is the mean sea level)",
            eq("DEFAULT", 0),
            "1.5",
        ),
        "X_HalfWidth": N(_GRID),
        "Y_HalfWidth": N(_GRID),
        "Z_Depth": N(_GRID),
        "NX": N(_GRID),
        "NY": N(_GRID),
        "NZ": N(_GRID),
        "WaveMod": M(
            "environment.waves.kind: 0 still, 1P# regular (phase_deg #), 2 jonswap",
            lambda v, ctx: (
                v in (0, 2, "0", "2") or (isinstance(v, str) and v.upper().startswith("1P"))
            ),
            "WaveMod = 0 (still water), 1P# (regular wave with phase # deg) or 2 (JONSWAP/PM)",
            "3",
        ),
        "WaveStMod": M(
            "environment.waves.stretching (0 none, 1 vertical, 3 wheeler)",
            lambda v, ctx: (not _waves(ctx)) or v in (0, 1, 3),
            "WaveStMod = 0, 1 or 3 (extrapolation stretching 2 is not in floatwind)",
            "2",
            deck="ref05_morison_jonswap",
        ),
        "WvCrntMod": R("WvCrntMod = 0 (no wave-current interaction)", eq(0), "1"),
        "WaveTMax": R(
            "for a regular wave (1P#) WaveTMax a whole multiple of WaveTp (SeaState rounds the "
            "wave frequency to a multiple of 2 pi/WaveTMax); for JONSWAP it is the repeat period "
            "of SeaState's own realisation, which floatwind redraws (see the JONSWAP note)",
            _wave_tmax,
            "605",
            deck="ref08_potential_regular",
        ),
        "WaveDT": R(
            "for JONSWAP, pi/WaveDT (SeaState's highest wave frequency) at or above floatwind's "
            "spectral band (energy below 1e-3 of the peak outside it); otherwise the sampling "
            "step of SeaState's kinematics (numerics)",
            _wave_dt,
            "2.0",
            deck="ref05_morison_jonswap",
        ),
        "WaveHs": M("environment.waves.height (regular) / hs (jonswap)"),
        "WaveTp": M("environment.waves.period (regular) / tp (jonswap)"),
        "WavePkShp": M("environment.waves.gamma (DEFAULT: the IEC value)"),
        "WvLowCOff": R(
            "for JONSWAP, WvLowCOff at or below floatwind's spectral band (a cut-off inside the "
            "band would remove wave energy floatwind keeps)",
            _low_cut,
            "0.6",
            deck="ref05_morison_jonswap",
        ),
        "WvHiCOff": R(
            "for JONSWAP, WvHiCOff at or above floatwind's spectral band",
            _high_cut,
            "0.7",
            deck="ref05_morison_jonswap",
        ),
        "WaveDir": M("environment.waves.heading_deg"),
        "WaveDirMod": R(
            "WaveDirMod = 0 for JONSWAP (no directional spreading)",
            lambda v, ctx: same(v, 0) or not _jonswap(ctx),
            "1",
            deck="ref05_morison_jonswap",
        ),
        "WaveDirSpread": I(_SPREAD),
        "WaveNDir": I(_SPREAD),
        "WaveDirRange": I(_SPREAD),
        "WaveSeed(k)": I(
            "SeaState's random seeds: floatwind draws its own phases for JONSWAP (the import notes "
            "it; compare.py reproduces the reference wave from Wave1Elev); a regular wave's phase "
            "is the # of 1P#"
        ),
        "WaveNDAmp": M("environment.waves.random_amplitude (jonswap)"),
        "WvKinFile": I("read only with WaveMod = 5 or 6 (refused)"),
        "WvDiffQTF": R("WvDiffQTF = False (first-order waves)", eq(False), "True"),
        "WvSumQTF": R("WvSumQTF = False (first-order waves)", eq(False), "True"),
        "WvLowCOffD": I(_QTF2),
        "WvHiCOffD": I(_QTF2),
        "WvLowCOffS": I(_QTF2),
        "WvHiCOffS": I(_QTF2),
        "ConstWaveMod": R("ConstWaveMod = 0 (no constrained wave)", eq(0), "1"),
        "CrestHmax": I(_CREST),
        "CrestTime": I(_CREST),
        "CrestXi": I(_CREST),
        "CrestYi": I(_CREST),
        "CurrMod": R("CurrMod = 0 (no current)", eq(0), "1"),
        "CurrSSV0": I(_CURRENT),
        "CurrSSDir": I(_CURRENT),
        "CurrNSRef": I(_CURRENT),
        "CurrNSV0": I(_CURRENT),
        "CurrNSDir": I(_CURRENT),
        "CurrDIV": I(_CURRENT),
        "CurrDIDir": I(_CURRENT),
        "MCFD": R("MCFD = 0 (no MacCamy-Fuchs diffraction correction)", eq(0), "9.4"),
        "SeaStSum": N(OUT),
        "OutSwtch": N(OUT),
        "OutFmt": N(OUT),
        "OutSFmt": N(OUT),
        "NWaveElev": N("wave-elevation output points"),
        "WaveElevxi": N("wave-elevation output points"),
        "WaveElevyi": N("wave-elevation output points"),
        "NWaveKin": N("wave-kinematics output points"),
        "WaveKinxi": N("wave-kinematics output points"),
        "WaveKinyi": N("wave-kinematics output points"),
        "WaveKinzi": N("wave-kinematics output points"),
    },
}

FILE_KIND = FileKind(
    "SeaState", __name__, settings=_SETTINGS, files={"SeaState": "SeaState"}, check=_refusals
)
