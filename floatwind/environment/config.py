"""Build an :class:`~floatwind.environment.base.Environment` from a case's ``environment:`` dict.

The schema (every key, unit and default) is documented in ``docs/environment.md`` and mirrored
in :data:`DEFAULTS` (printed by ``floatwind check``). Unknown keys raise ``CaseError`` with a
"did you mean" suggestion; fields are named as dotted paths (``environment.waves.hs``).
"""

from __future__ import annotations

import copy
import difflib
import logging
import math
from pathlib import Path
from typing import Any

import numpy as np

import turbsim_io
from floatwind.environment.base import CONSTANT_DEFAULTS, Environment, NoWind, StillWater
from floatwind.environment.spectra import JonswapSpectrum, PiersonMoskowitzSpectrum
from floatwind.environment.waves import (
    read_elevation_file,
    sea_from_elevation,
    sea_from_spectrum,
)
from floatwind.environment.wind import (
    FullFieldWind,
    SteadyWind,
    direction_shift,
    iec_edc,
    iec_eog,
)
from floatwind.errors import CaseError
from floatwind.validate import number, rename_deprecated, suggest

logger = logging.getLogger(__name__)

_REQ = object()  # marks a required key in DEFAULTS-like tables

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


def _suggest(word: str, options) -> str:
    """ "; did you mean 'x'?" for the closest option (case-insensitive), or ""."""
    lower = {str(o).lower(): o for o in options}
    close = difflib.get_close_matches(str(word).lower(), list(lower), n=1, cutoff=0.6)
    return f"; did you mean '{lower[close[0]]}'?" if close else ""


def _check_keys(cfg: dict, allowed: dict, where: str, file: str | None) -> dict:
    cfg = rename_deprecated(cfg, allowed, where, file)
    if not isinstance(cfg, dict):
        raise CaseError(f"expected a mapping, got {type(cfg).__name__}", field=where, file=file)
    out = {}
    for key, val in cfg.items():
        if key not in allowed:  # the one message style (floatwind.validate.Section)
            raise CaseError(f"unknown key '{key}'{suggest(str(key), sorted(allowed))}",
                            field=f"{where}.{key}", file=file)  # fmt: skip
        out[key] = val
    for key, default in allowed.items():
        if key not in out:
            if default is _REQ:
                raise CaseError("required key missing", field=f"{where}.{key}", file=file)
            out[key] = copy.deepcopy(default)
    return out


def _num(cfg: dict, key: str, where: str, file, *, positive=False, allow_none=False, lo=None):
    val = cfg[key]
    if val is None and allow_none:
        return None
    return number(val, f"{where}.{key}", file=file, positive=positive, lo=lo)


def _choice(cfg: dict, key: str, options, where: str, file) -> str:
    val = cfg[key]
    if val not in options:
        hint = _suggest(val, options)
        raise CaseError(
            f"'{val}' is not one of {', '.join(options)}{hint}", field=f"{where}.{key}", file=file
        )
    return val


def _path(val, base_dir: Path | None, where: str, file) -> Path:
    if not isinstance(val, (str, Path)):
        raise CaseError(f"must be a file path, got {val!r}", field=where, file=file)
    p = Path(val)
    if not p.is_absolute() and base_dir is not None:
        p = Path(base_dir) / p
    if not p.is_file():
        raise CaseError(f"file not found: {p}", field=where, file=file)
    return p


def _seeds(master, seeds, n: int, where: str, file) -> list[np.random.SeedSequence]:
    if master is not None:
        if isinstance(master, bool) or not isinstance(master, int) or master < 0:
            raise CaseError(
                f"must be a non-negative integer, got {master!r}", field=where, file=file
            )
        return np.random.SeedSequence(master).spawn(n)
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
    where = "environment.waves"
    if cfg is None:
        return StillWater()
    if not isinstance(cfg, dict):
        raise CaseError("expected a mapping", field=where, file=file)
    kind = _choice({"kind": cfg.get("kind", "still")}, "kind", list(_WAVES), where, file)
    c = _check_keys(cfg, _WAVES[kind], where, file)
    if kind == "still":
        return StillWater()
    stretching = _choice(c, "stretching", ["wheeler", "vertical", "none"], where, file)
    mode = _choice(c, "kinematics", ["auto", "direct", "gridded"], where, file)
    sea = _build_sea(kind, c, g=g, depth=depth, n=n, seeds=seeds, duration=duration,
                     base_dir=base_dir, file=file, stretching=stretching)  # fmt: skip
    sea.kinematics_mode = mode
    return sea


def _build_sea(kind, c, *, g, depth, n, seeds, duration, base_dir, file, stretching):
    where = "environment.waves"
    heading = math.radians(_num(c, "heading_deg", where, file))
    if kind == "elevation":
        path = _path(c["file"], base_dir, f"{where}.file", file)
        f_max = _num(c, "f_max", where, file, positive=True, allow_none=True)
        try:
            t, eta = read_elevation_file(path, c["channel"])
            return sea_from_elevation(
                t,
                eta,
                heading=heading,
                location=(_num(c, "x", where, file), _num(c, "y", where, file)),
                f_max=f_max,
                depth=depth,
                gravity=g,
                stretching=stretching,
                source=str(path),
            )
        except ValueError as exc:
            raise CaseError(str(exc), field=f"{where}.file", file=file) from exc
    if kind == "regular":
        # one component: eta(0, t) = H/2 cos(omega t + phase) (OpenFAST's WaveMod = 1P#)
        from floatwind.environment.waves import LinearSea

        height = _num(c, "height", where, file, positive=True)
        period = _num(c, "period", where, file, positive=True)
        phase = math.radians(_num(c, "phase_deg", where, file))
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
    hs = _num(c, "hs", where, file, positive=True)
    tp = _num(c, "tp", where, file, positive=True)
    try:
        if kind == "jonswap":
            gamma = _num(c, "gamma", where, file, allow_none=True)
            spec = JonswapSpectrum(hs, tp, gamma)
        else:
            spec = PiersonMoskowitzSpectrum(hs, tp)
    except ValueError as exc:
        raise CaseError(str(exc), field=where, file=file) from exc
    band = spec.band(1e-3)
    wmin = _num(c, "omega_min", where, file, positive=True, allow_none=True)
    wmax = _num(c, "omega_max", where, file, positive=True, allow_none=True)
    band = (wmin or band[0], wmax or band[1])
    if band[1] <= band[0]:
        raise CaseError("omega_max must exceed omega_min", field=f"{where}.omega_max", file=file)
    period = _num(c, "repeat_period", where, file, positive=True, allow_none=True)
    if period is not None and period < duration:
        raise CaseError(
            f"repeat period {period:g} s is shorter than the run ({duration:g} s): the sea "
            "would repeat",
            field=f"{where}.repeat_period",
            file=file,
        )
    spreading = _num(c, "spreading_s", where, file, positive=True, allow_none=True)
    sq = _seeds(c["seed"], seeds, n, f"{where}.seed", file)
    if c["seed"] is None:
        sq = _subseeds(sq, 0)
    return sea_from_spectrum(
        spec,
        duration=duration,
        seeds=sq,
        heading=heading,
        spreading_s=spreading,
        random_amplitude=bool(c["random_amplitude"]),
        band=band,
        period=period,
        depth=depth,
        gravity=g,
        stretching=stretching,
    )


def _steady(c, where, file) -> SteadyWind:
    shear = _choice(c, "shear", ["power", "log"], where, file)
    return SteadyWind(
        speed=_num(c, "speed", where, file, lo=0.0),
        heading=math.radians(_num(c, "heading_deg", where, file)),
        ref_height=_num(c, "ref_height", where, file, positive=True),
        shear=shear,
        alpha=_num(c, "shear_exponent", where, file),
        roughness=_num(c, "roughness", where, file, positive=True),
    )


def _load_bts(path: Path, where: str, file):
    try:
        return turbsim_io.read_bts(path)
    except turbsim_io.BtsFormatError as exc:
        raise CaseError(exc.reason, field=where, file=str(path) if file is None else file) from exc


def _build_wind(cfg, *, n, seeds, duration, dt_hint, base_dir, file, where="environment.wind"):
    if cfg is None:
        return NoWind()
    if not isinstance(cfg, dict):
        raise CaseError("expected a mapping", field=where, file=file)
    kind = _choice({"kind": cfg.get("kind", "none")}, "kind", list(_WIND), where, file)
    c = _check_keys(cfg, _WIND[kind], where, file)
    if kind == "none":
        return NoWind()
    if kind == "steady":
        return _steady(c, where, file)
    if kind in ("iec_edc", "iec_eog", "direction_shift"):
        if c["base"] is not None:
            base = _build_wind(
                c["base"],
                n=n,
                seeds=seeds,
                duration=duration,
                dt_hint=dt_hint,
                base_dir=base_dir,
                file=file,
                where=f"{where}.base",
            )
        else:
            base = _steady(c, where, file)
        if kind == "direction_shift":
            return direction_shift(
                base,
                shift=math.radians(_num(c, "shift_deg", where, file)),
                time=_num(c, "time", where, file),
                ramp=_num(c, "ramp", where, file, lo=0.0),
            )
        kw = dict(
            uhub=_num(c, "speed", where, file, positive=True),
            zhub=_num(c, "ref_height", where, file, positive=True),
            rotor_diameter=_num(c, "rotor_diameter", where, file, positive=True),
            turbine_class=c["turbine_class"],
            turbulence_class=c["turbulence_class"],
            start=_num(c, "start", where, file),
        )
        try:
            if kind == "iec_edc":
                return iec_edc(base, sign=_num(c, "sign", where, file), **kw)
            return iec_eog(base, **kw)
        except ValueError as exc:
            raise CaseError(str(exc), field=where, file=file) from exc
    heading = math.radians(_num(c, "heading_deg", where, file))
    if kind == "turbsim":
        if (c["file"] is None) == (c["files"] is None):
            raise CaseError("give exactly one of 'file' or 'files'", field=where, file=file)
        if c["file"] is not None:
            paths = [_path(c["file"], base_dir, f"{where}.file", file)]
        else:
            if not isinstance(c["files"], list) or not c["files"]:
                raise CaseError("must be a non-empty list", field=f"{where}.files", file=file)
            paths = [
                _path(p, base_dir, f"{where}.files[{i}]", file) for i, p in enumerate(c["files"])
            ]
        if len(paths) not in (1, n):
            raise CaseError(
                f"{len(paths)} files for {n} realizations (give 1 or {n})",
                field=f"{where}.files",
                file=file,
            )
        fields = [_load_bts(p, f"{where}.files", file) for p in paths]
        x_off = _num(c, "x_offset", where, file, allow_none=True)
        try:
            wind = FullFieldWind(fields, heading=heading, x_offset=x_off)
        except ValueError as exc:
            raise CaseError(str(exc), field=where, file=file) from exc
        if wind.last_time() < duration:
            raise CaseError(
                f"the non-periodic file covers the run only up to {wind.last_time():.4g} s "
                f"(run is {duration:g} s)",
                field=where,
                file=file,
            )
        return wind
    # kaimal: generated in memory (one field per realization)
    sq = _seeds(c["seed"], seeds, n, f"{where}.seed", file)
    if c["seed"] is None:
        sq = _subseeds(sq, 1)
    dt = _num(c, "dt", where, file, positive=True)
    width = _num(c, "width", where, file, positive=True)
    uhub = _num(c, "speed", where, file, positive=True)
    nt = int(math.ceil((duration + width / uhub) / dt)) + 2
    nt += nt % 2
    try:
        # one call for the batch: the realizations share the coherence factorizations
        fields = turbsim_io.generate_kaimal_many(
            seeds=list(sq),
            uhub=uhub,
            zhub=_num(c, "hub_height", where, file, positive=True),
            ny=int(c["ny"]),
            nz=int(c["nz"]),
            width=width,
            height=_num(c, "height", where, file, positive=True),
            dt=dt,
            nt=nt,
            turbulence_class=c["turbulence_class"],
            shear_exponent=_num(c, "shear_exponent", where, file),
            coherence_vw=bool(c["coherence_vw"]),
        )
    except ValueError as exc:
        raise CaseError(str(exc), field=where, file=file) from exc
    if c["write_bts"] is not None:
        out = Path(c["write_bts"])
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
    allowed = dict(_CONSTANTS) | {"waves": None, "wind": None}
    c = _check_keys(cfg, allowed, "environment", file)
    g = _num(c, "gravity", "environment", file, positive=True)
    depth = _num(c, "water_depth", "environment", file, positive=True)
    rho_w = _num(c, "rho_water", "environment", file, positive=True)
    rho_a = _num(c, "rho_air", "environment", file, positive=True)
    if n_realizations < 1:
        raise ValueError("n_realizations must be >= 1")
    sea = _build_waves(
        c["waves"],
        g=g,
        depth=depth,
        n=n_realizations,
        seeds=seeds,
        duration=duration,
        base_dir=base_dir,
        file=file,
    )
    wind = _build_wind(
        c["wind"],
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
