"""Build an :class:`~floatwind.environment.base.Environment` from a case's ``environment:`` dict.

The schema (every key, unit and default) is documented in ``docs/environment.md`` and mirrored
in :data:`DEFAULTS` (printed by ``floatwind check``). Unknown keys raise ``CaseError`` with a
"did you mean" suggestion; fields are named as dotted paths (``environment.waves.hs``).
"""

from __future__ import annotations

import logging
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from floatwind.environment.base import CONSTANT_DEFAULTS, Environment, NoWind, StillWater
from floatwind.errors import CaseError
from floatwind.validate import Section, integer, resolve_path

if TYPE_CHECKING:
    from floatwind.environment.wind import SteadyWind

# the sea and wind modules are imported where a case has waves or wind (a still-water, no-wind
# run imports neither: issue 41, a run's imports)

logger = logging.getLogger(__name__)

_REQ = ...  # marks a required key in DEFAULTS-like tables (floatwind.validate.Section defaults)

_CONSTANTS = dict(CONSTANT_DEFAULTS)

_WAVES = {
    "still": {"kind": "still"},
    "jonswap": {
        "kind": "jonswap",
        "hs": _REQ,
        "tp": _REQ,
        "gamma": None,
        "heading_deg": 0.0,
        "spreading_s": None,
        "random_amplitude": False,
        "omega_min": None,
        "omega_max": None,
        "repeat_period": None,
        "stretching": "wheeler",
        "kinematics": "auto",
        "seed": None,
    },
    "regular": {
        "kind": "regular",
        "height": _REQ,
        "period": _REQ,
        "phase_deg": 0.0,
        "heading_deg": 0.0,
        "stretching": "wheeler",
        "kinematics": "auto",
    },
    "elevation": {
        "kind": "elevation",
        "file": _REQ,
        "channel": None,
        "heading_deg": 0.0,
        "x": 0.0,
        "y": 0.0,
        "f_max": None,
        "period": "auto",
        "stretching": "wheeler",
        "kinematics": "auto",
    },
}
_WAVES["pierson_moskowitz"] = {k: v for k, v in _WAVES["jonswap"].items() if k != "gamma"} | {
    "kind": "pierson_moskowitz"
}

_SHEAR = {"shear": "power", "shear_exponent": 0.14, "roughness": 0.0002}
_STEADY = {"speed": _REQ, "ref_height": 90.0, "heading_deg": 0.0} | _SHEAR
_IEC = {
    "rotor_diameter": 126.0,
    "turbine_class": "I",
    "turbulence_class": "B",
    "start": 0.0,
}
_WIND = {
    "none": {"kind": "none"},
    "steady": {"kind": "steady"} | _STEADY,
    "iec_edc": {"kind": "iec_edc"} | _STEADY | _IEC | {"sign": 1, "base": None},
    "iec_eog": {"kind": "iec_eog"} | _STEADY | _IEC | {"base": None},
    "direction_shift": {"kind": "direction_shift"}
    | _STEADY
    | {"shift_deg": 45.0, "time": 100.0, "ramp": 0.0, "base": None},
    "turbsim": {
        "kind": "turbsim",
        "file": None,
        "files": None,
        "heading_deg": 0.0,
        "x_offset": None,
    },
    "kaimal": {
        "kind": "kaimal",
        "speed": _REQ,
        "hub_height": 90.0,
        "heading_deg": 0.0,
        "turbulence_class": "B",
        "shear_exponent": 0.2,
        "ny": 13,
        "nz": 13,
        "width": 150.0,
        "height": 150.0,
        "dt": 0.25,
        "coherence_vw": False,
        "seed": None,
        "write_bts": None,
    },
}


def _public(table: dict) -> dict:
    return {k: ("<required>" if v is _REQ else v) for k, v in table.items()}


#: Defaults of every key, for ``floatwind check`` ("<required>" where there is none).
DEFAULTS: dict[str, Any] = {
    **_CONSTANTS,
    "waves": {k: _public(v) for k, v in _WAVES.items()},
    "wind": {k: _public(v) for k, v in _WIND.items()},
}


def _seeds(master, seeds, n: int, where: str, file) -> list[np.random.SeedSequence]:
    if master is not None:
        return np.random.SeedSequence(integer(master, where, file=file, minimum=0)).spawn(n)
    if seeds is not None:
        if len(seeds) != n:
            raise ValueError(f"build_environment: {len(seeds)} seeds for {n} realizations")
        return list(seeds)
    logger.info("%s not given: using master seed 0", where)
    return np.random.SeedSequence(0).spawn(n)


def _subseeds(seeds: list[np.random.SeedSequence], key: int) -> list[np.random.SeedSequence]:
    """Independent streams per part (waves 0, wind 1) without advancing the caller's seeds."""
    return [
        np.random.SeedSequence(entropy=s.entropy, spawn_key=tuple(s.spawn_key) + (key,))
        for s in seeds
    ]


def _build_waves(cfg, *, g, depth, n, seeds, duration, base_dir, file):
    if cfg is None:
        return StillWater()
    kind, c = Section.tagged(cfg, "environment.waves", _WAVES, default="still", file=file,
                             defaults=True)  # fmt: skip
    if kind == "still":
        return StillWater()
    stretching = c.choice("stretching", ["wheeler", "vertical", "none"])
    mode = c.choice("kinematics", ["auto", "direct", "gridded"])
    sea = _build_sea(kind, c, g=g, depth=depth, n=n, seeds=seeds, duration=duration,
                     base_dir=base_dir, file=file, stretching=stretching)  # fmt: skip
    sea.kinematics_mode = mode
    return sea


def _build_sea(kind, c: Section, *, g, depth, n, seeds, duration, base_dir, file, stretching):
    from floatwind.environment.spectra import JonswapSpectrum, PiersonMoskowitzSpectrum
    from floatwind.environment.waves import (
        read_elevation_file,
        sea_from_elevation,
        sea_from_spectrum,
    )

    heading = math.radians(c.number("heading_deg"))
    if kind == "elevation":
        path = c.path_to("file", base_dir)
        f_max = c.number("f_max", kind="positive")
        # the record's repeat period (waves.sea_from_elevation): "auto" drops a last sample that
        # repeats the first (SeaState's WaveTMax-periodic series), else seconds
        period = c.raw("period", "auto")
        if period != "auto":
            period = c.number("period", kind="positive")
        try:
            t, eta = read_elevation_file(path, c.raw("channel"))
            return sea_from_elevation(
                t,
                eta,
                heading=heading,
                location=(c.number("x"), c.number("y")),
                f_max=f_max,
                depth=depth,
                gravity=g,
                stretching=stretching,
                source=str(path),
                period=period,
            )
        except ValueError as exc:
            raise c.error(str(exc), "file") from exc
    if kind == "regular":
        # one component: eta(0, t) = H/2 cos(omega t + phase) (OpenFAST's WaveMod = 1P#)
        from floatwind.environment.waves import LinearSea

        height = c.number("height", kind="positive")
        period = c.number("period", kind="positive")
        phase = math.radians(c.number("phase_deg"))
        w = 2.0 * math.pi / period
        return LinearSea(
            omega=np.array([w]),
            amplitude=np.array([[0.5 * height * complex(math.cos(phase), -math.sin(phase))]]),
            heading=np.array([[heading]]),
            depth=depth,
            gravity=g,
            stretching=stretching,
            period=period,  # one harmonic of its own period: the compiled expansion applies
            info={"waves": "regular", "height_m": height, "period_s": period,
                  "phase_deg": math.degrees(phase)},
        )  # fmt: skip
    hs = c.number("hs", kind="positive")
    tp = c.number("tp", kind="positive")
    try:
        if kind == "jonswap":
            spec = JonswapSpectrum(hs, tp, c.number("gamma"))
        else:
            spec = PiersonMoskowitzSpectrum(hs, tp)
    except ValueError as exc:
        raise c.error(str(exc)) from exc
    band = spec.band(1e-3)
    wmin = c.number("omega_min", kind="positive")
    wmax = c.number("omega_max", kind="positive")
    band = (wmin or band[0], wmax or band[1])
    if band[1] <= band[0]:
        raise c.error("omega_max must exceed omega_min", "omega_max")
    period = c.number("repeat_period", kind="positive")
    if period is not None and period < duration:
        raise c.error(
            f"repeat period {period:g} s is shorter than the run ({duration:g} s): the sea "
            "would repeat",
            "repeat_period",
        )
    spreading = c.number("spreading_s", kind="positive")
    sq = _seeds(c.raw("seed"), seeds, n, c.path("seed"), file)
    if c.raw("seed") is None:
        sq = _subseeds(sq, 0)
    return sea_from_spectrum(
        spec,
        duration=duration,
        seeds=sq,
        heading=heading,
        spreading_s=spreading,
        random_amplitude=bool(c.raw("random_amplitude")),
        band=band,
        period=period,
        depth=depth,
        gravity=g,
        stretching=stretching,
    )


def _steady(c: Section) -> SteadyWind:
    from floatwind.environment.wind import SteadyWind

    shear = c.choice("shear", ["power", "log"])
    return SteadyWind(
        speed=c.number("speed", lo=0.0),
        heading=math.radians(c.number("heading_deg")),
        ref_height=c.number("ref_height", kind="positive"),
        shear=shear,
        alpha=c.number("shear_exponent"),
        roughness=c.number("roughness", kind="positive"),
    )


def _load_bts(path: Path, where: str, file):
    import turbsim_io  # here, not at the top: it imports xarray (and pandas), ~1 s of CPU

    try:
        return turbsim_io.read_bts(path)
    except turbsim_io.BtsFormatError as exc:
        reason = exc.reason if file is None else f"{path}: {exc.reason}"  # the .bts named too
        raise CaseError(reason, field=where, file=str(path) if file is None else file) from exc


def _build_wind(cfg, *, n, seeds, duration, dt_hint, base_dir, file, where="environment.wind"):
    if cfg is None:
        return NoWind()
    kind, c = Section.tagged(cfg, where, _WIND, default="none", file=file, defaults=True)
    if kind == "none":
        return NoWind()
    if kind == "steady":
        return _steady(c)
    from floatwind.environment.wind import FullFieldWind, direction_shift, iec_edc, iec_eog

    if kind in ("iec_edc", "iec_eog", "direction_shift"):
        if c.has("base"):
            base = _build_wind(
                c.raw("base"),
                n=n,
                seeds=seeds,
                duration=duration,
                dt_hint=dt_hint,
                base_dir=base_dir,
                file=file,
                where=f"{where}.base",
            )
        else:
            base = _steady(c)
        if kind == "direction_shift":
            return direction_shift(
                base,
                shift=math.radians(c.number("shift_deg")),
                time=c.number("time"),
                ramp=c.number("ramp", lo=0.0),
            )
        kw = dict(
            uhub=c.number("speed", kind="positive"),
            zhub=c.number("ref_height", kind="positive"),
            rotor_diameter=c.number("rotor_diameter", kind="positive"),
            turbine_class=c.raw("turbine_class"),
            turbulence_class=c.raw("turbulence_class"),
            start=c.number("start"),
        )
        try:
            if kind == "iec_edc":
                return iec_edc(base, sign=c.number("sign"), **kw)
            return iec_eog(base, **kw)
        except ValueError as exc:
            raise c.error(str(exc)) from exc
    heading = math.radians(c.number("heading_deg"))
    if kind == "turbsim":
        if c.has("file") == c.has("files"):
            raise c.error("give exactly one of 'file' or 'files'")
        if c.has("file"):
            paths = [c.path_to("file", base_dir)]
        else:
            paths = [resolve_path(p, f, base_dir, file=file) for f, p in c.items("files")]
        if len(paths) not in (1, n):
            raise c.error(f"{len(paths)} files for {n} realizations (give 1 or {n})", "files")
        where = [c.path("file")] if c.has("file") else [f"{c.path('files')}[{i}]"
                                                         for i in range(len(paths))]  # fmt: skip
        fields = [_load_bts(p, w, file) for p, w in zip(paths, where, strict=True)]
        try:
            wind = FullFieldWind(fields, heading=heading, x_offset=c.number("x_offset"))
        except ValueError as exc:
            raise c.error(str(exc)) from exc
        if wind.last_time() < duration:
            raise c.error(
                f"the non-periodic file covers the run only up to {wind.last_time():.4g} s "
                f"(run is {duration:g} s)"
            )
        return wind
    # kaimal: generated in memory (one field per realization)
    sq = _seeds(c.raw("seed"), seeds, n, c.path("seed"), file)
    if c.raw("seed") is None:
        sq = _subseeds(sq, 1)
    dt = c.number("dt", kind="positive")
    width = c.number("width", kind="positive")
    uhub = c.number("speed", kind="positive")
    nt = int(math.ceil((duration + width / uhub) / dt)) + 2
    nt += nt % 2
    import turbsim_io

    try:
        # one call for the batch: the realizations share the coherence factorizations
        fields = turbsim_io.generate_kaimal_many(
            seeds=list(sq),
            uhub=uhub,
            zhub=c.number("hub_height", kind="positive"),
            ny=int(c.raw("ny")),
            nz=int(c.raw("nz")),
            width=width,
            height=c.number("height", kind="positive"),
            dt=dt,
            nt=nt,
            turbulence_class=c.raw("turbulence_class"),
            shear_exponent=c.number("shear_exponent"),
            coherence_vw=bool(c.raw("coherence_vw")),
        )
    except ValueError as exc:
        raise c.error(str(exc)) from exc
    if c.has("write_bts"):
        out = Path(c.raw("write_bts"))
        out = out if out.is_absolute() or base_dir is None else Path(base_dir) / out
        for i, ds in enumerate(fields):
            target = out if len(fields) == 1 else out.with_name(f"{out.stem}_{i}{out.suffix}")
            turbsim_io.write_bts(target, ds)
    return FullFieldWind(fields, heading=heading)


def build_environment(
    cfg: dict | None,
    *,
    n_realizations: int = 1,
    seeds: list[np.random.SeedSequence] | None = None,
    duration: float,
    dt_hint: float = 0.05,
    base_dir: Path | None = None,
    file: str | None = None,
) -> Environment:
    """Turn a case's ``environment:`` mapping into an :class:`Environment`.

    Parameters
    ----------
    cfg : dict or None
        The parsed ``environment:`` section (None: defaults, still water, no wind).
    n_realizations : int
        R, the number of random realizations (sea and generated wind get R).
    seeds : list of numpy.random.SeedSequence, optional
        One per realization (from the case's master seed); waves and wind draw independent
        child streams from each. A ``seed`` key inside ``waves``/``wind`` overrides them.
    duration : float
        Run length (s): sets the wave repeat period and checks wind files cover the run.
    dt_hint : float
        The run's time step (s) (used for storage steps where relevant).
    base_dir : pathlib.Path, optional
        Directory that relative paths are resolved against (the case file's folder).
    file : str, optional
        The case file, named in errors.

    Raises
    ------
    CaseError
        Unknown keys (with a suggestion), bad values, missing or malformed files.
    """
    cfg = {} if cfg is None else cfg
    c = Section(cfg, "environment", set(_CONSTANTS) | {"waves", "wind"}, file=file,
                defaults=_CONSTANTS)  # fmt: skip
    g = c.number("gravity", kind="positive")
    depth = c.number("water_depth", kind="positive")
    rho_w = c.number("rho_water", kind="positive")
    rho_a = c.number("rho_air", kind="positive")
    if n_realizations < 1:
        raise ValueError("n_realizations must be >= 1")
    sea = _build_waves(
        c.raw("waves", None),
        g=g,
        depth=depth,
        n=n_realizations,
        seeds=seeds,
        duration=duration,
        base_dir=base_dir,
        file=file,
    )
    wind = _build_wind(
        c.raw("wind", None),
        n=n_realizations,
        seeds=seeds,
        duration=duration,
        dt_hint=dt_hint,
        base_dir=base_dir,
        file=file,
    )
    return Environment(
        gravity=g, rho_water=rho_w, rho_air=rho_a, water_depth=depth, sea=sea, wind=wind
    )
