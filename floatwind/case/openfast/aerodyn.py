"""AeroDyn v5 (CompAero = 2): the main file, its blade and airfoil files, their part of the
settings table, the refusals, and the AeroDyn part of the ``bem_rotor`` case entry.

:func:`read_aerodyn_files` (called by :func:`floatwind.case.openfast.read_fst` when ``CompAero =
2``) reads the main file with the generic reader
(:func:`floatwind.case.openfast.reader.read_openfast_input`: the ``AFNames`` list, the tower
table whose header ends in a comment, ``OutList_Nodal``, each key's line), each ``ADBlFile(k)``
and each
``AFNames`` file (:mod:`floatwind.io.aerodyn`), and checks every ``BlAFID`` against
``NumAFfiles``. Keys are read by name, so the v4 forms AeroDyn v5 itself still accepts read too
(``WakeMod``, ``AFAeroMod``, ``SkewMod``, ``SkewModFactor``, ``UAMod``, ``FrozenWake``,
``Buoyancy``; missing ``BEM_Mod`` / ``Skew_Mod`` / ``SkewMomCorr`` / ``SkewRedistr_Mod`` /
``SectAvg`` take the values AeroDyn_IO.f90 ``ParsePrimaryInput`` gives them) and :func:`options`
turns them into the v5 settings as that routine does.

Every refusal (a setting with a supported set, ``ok``) names the file, the key, its value and its
line (:func:`_refusals`, which the generic walk leaves them to: ``checked_by``).
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from floatwind.case.openfast.reader import (
    DEFAULT,
    _tokens,
    read_openfast_input,
)
from floatwind.case.openfast.settings import OUT, Ctx, FileKind, I, M, N, R, Setting, eq, show
from floatwind.case.openfast.settings import same as same_value
from floatwind.errors import CaseError

if TYPE_CHECKING:  # the readers are imported where a deck has AeroDyn files (issue 41)
    from floatwind.io.aerodyn import AirfoilFile, BladeFile

__all__ = [
    "FILE_KIND",
    "GIVEN_CHANNELS",
    "key_line",
    "line_refusals",
    "options",
    "read_aerodyn_files",
    "rotor_config",
]

_REF = "ref09_aero_fixed_speed"

# ------------------------------------------------------------------------------ the main file


def key_line(f: dict, key: str) -> int | None:
    """The line of ``key`` in the parsed file ``f`` (from its ``lines``, else by scanning it)."""
    if key in f.get("lines", {}):
        return f["lines"][key]
    try:
        text = Path(f["file"]).read_text(encoding="latin-1").splitlines()
    except OSError:
        return None
    for n, line in enumerate(text, start=1):
        toks = _tokens(re.split(r"\s!", line)[0])
        j = 0
        while j < len(toks) and toks[j].is_value:
            j += 1
        if 0 < j < len(toks) and toks[j].text == key:
            return n
    return None


def _resolve(owner_file: str, name: Any, key: str, line: int | None, why: str = "") -> Path:
    fld = f"line {line} ({key})" if line else key
    if not isinstance(name, str) or name.strip().lower() in ("", "unused", "none"):
        raise CaseError(f"{why}expected a file name, got {name!r}", field=fld, file=owner_file)
    target = (Path(owner_file).parent / name).resolve()
    if not target.is_file():
        raise CaseError(f"{why}referenced file not found: {target}", field=fld, file=owner_file)
    return target


def _columns(ad: dict) -> tuple[int, int, int, int, int]:
    cols = []
    for key, default in (("InCol_Alfa", 1), ("InCol_Cl", 2), ("InCol_Cd", 3), ("InCol_Cm", 4),
                         ("InCol_Cpmin", 0)):  # fmt: skip
        v = ad["values"].get(key, default)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise CaseError(f"expected a column number >= 0, got {v!r}",
                            field=f"line {key_line(ad, key)} ({key})", file=ad["file"])  # fmt: skip
        cols.append(v)
    return tuple(cols)  # type: ignore[return-value]


def _generic_airfoil(af: AirfoilFile) -> dict[str, Any]:
    return {"file": af.path, "title": "", "values": dict(af.values), "tables": {},
            "outlists": {}, "sections": [], "lines": dict(af.lines)}  # fmt: skip


def read_aerodyn_files(fst: dict, num_bl: int) -> dict[str, Any]:
    """The deck entries of AeroDyn: ``AeroDyn`` (main file), ``AeroDyn_blades`` (one per blade,
    generic layout), ``AeroDyn_airfoils`` (one per ``AFNames`` entry, generic layout) and
    ``AeroDyn_model`` (``{"blades": [BladeFile], "airfoils": [AirfoilFile]}``, typed).

    Raises
    ------
    CaseError
        A file missing or malformed (naming file and line), an airfoil ID beyond ``NumAFfiles``.
    """
    from floatwind.io.aerodyn import check_af_ids, read_airfoil, read_blade

    why = "CompAero = 2 reads the AeroDyn file: "
    ad_path = _resolve(fst["file"], fst["values"].get("AeroFile"), "AeroFile",
                       key_line(fst, "AeroFile"), why)  # fmt: skip
    ad = read_openfast_input(ad_path)
    cols = _columns(ad)
    names = ad["values"].get("AFNames") or []
    airfoils = [read_airfoil(_resolve(ad["file"], n, "AFNames", ad["lines"].get("AFNames")),
                             columns=cols) for n in names]  # fmt: skip
    blades: list[BladeFile] = []
    generic: list[dict] = []
    cache: dict[Path, tuple[BladeFile, dict]] = {}
    for k in range(1, num_bl + 1):
        key = f"ADBlFile({k})"
        target = _resolve(ad["file"], ad["values"].get(key), key, ad["lines"].get(key))
        if target not in cache:
            blade = read_blade(target)
            check_af_ids(blade, len(names), main_file=ad["file"])
            cache[target] = (blade, read_openfast_input(target))
        blades.append(cache[target][0])
        generic.append(cache[target][1])
    return {
        "AeroDyn": ad,
        "AeroDyn_blades": generic,
        "AeroDyn_airfoils": [_generic_airfoil(a) for a in airfoils],
        "AeroDyn_model": {"blades": blades, "airfoils": airfoils},
    }


# ------------------------------------------------------------------------------ the options


def _v(ad: dict, key: str, default: Any = None) -> Any:
    return ad["values"].get(key, default)


def options(ad: dict) -> dict[str, Any]:
    """The v5 settings of the main file ``ad`` (v4 keys converted as AeroDyn_IO.f90
    ``ParsePrimaryInput`` converts them; missing v5 keys take the values it gives them)."""
    v = ad["values"]
    wake_mod = v.get("Wake_Mod")
    dbemt = v.get("DBEMT_Mod", 0)
    if wake_mod is None:  # v4: WakeMod 0/1/3 as is, 2 = BEMT with DBEMT (DBEMT_Mod else unused)
        old = v.get("WakeMod", 1)
        wake_mod = 1 if old == 2 else old
        dbemt = (dbemt or 1) if old == 2 else 0
    if v.get("FrozenWake") is True:  # v4: frozen wake (linearisation) = DBEMT_Mod -1
        dbemt = -1
    ua_mod = v.get("UA_Mod")
    if ua_mod is None:  # v4: AFAeroMod 1 = steady; 2 = UAMod
        ua_mod = 0 if v.get("AFAeroMod", 1) == 1 else v.get("UAMod", 0)
    skew_mod = v.get("Skew_Mod")
    if skew_mod is None:  # v4 SkewMod 0 -> -1, 1 -> 0, >= 2 -> 1; missing -> 1
        old = v.get("SkewMod")
        skew_mod = 1 if old is None else (-1 if old == 0 else (0 if old == 1 else 1))
    factor = v.get("SkewRedistrFactor", v.get("SkewModFactor", DEFAULT))
    tol = v.get("IndToler", DEFAULT)
    return {
        "wake_mod": wake_mod,
        "bem_mod": v.get("BEM_Mod", 1),
        "dbemt_mod": dbemt,
        "tau1_const": v.get("tau1_const"),
        "ua_mod": ua_mod,
        "aoa34": bool(v.get("AoA34", False)),
        "skew_mod": skew_mod,
        "skew_mom_corr": bool(v.get("SkewMomCorr", False)),
        "skew_redistr_mod": 1
        if v.get("SkewRedistr_Mod", DEFAULT) == DEFAULT
        else v["SkewRedistr_Mod"],
        # AeroDyn's default: 15 pi / 32 (Pitt & Peters 1981, as AeroDyn's BEMT applies it)
        "skew_redistr_factor": 15.0 * math.pi / 32.0 if factor == DEFAULT else float(factor),
        "tip_loss": bool(v.get("TipLoss", True)),
        "hub_loss": bool(v.get("HubLoss", True)),
        "tan_ind": bool(v.get("TanInd", True)),
        "ai_drag": bool(v.get("AIDrag", True)),
        "ti_drag": bool(v.get("TIDrag", True)),
        # AeroDyn's default tolerance in double precision (ParsePrimaryInput, ReKi = R8Ki)
        "tolerance": 5e-10 if tol == DEFAULT else float(tol),
        "max_iter": int(v.get("MaxIter", 100)),
        "sect_avg": bool(v.get("SectAvg", False)),
        "use_cm": bool(v.get("UseBlCm", True)),
        "af_tab_mod": v.get("AFTabMod", 1),
    }


# ---------------------------------------------------------------------------- rotor_config

#: channels of AeroDyn's OutList the bem_rotor load gives (B#N# with # digits)
GIVEN_CHANNELS = re.compile(
    r"^(RtAero[FM][xyz]h|RtAeroPwr|RtTSR|RtAeroCp|RtAeroCt|RtVAvg[xyz]h|RtSkew|"
    r"B[1-3]N[1-9](Alpha|AxInd|TnInd|Cl|Cd|Fx|Fy|Vrel|Phi))$",
    re.IGNORECASE,
)


def _default_or(ad: dict, key: str, fallback: float | None) -> float | None:
    v = _v(ad, key, DEFAULT)
    if v == DEFAULT:
        return fallback
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise CaseError(f"expected a number or DEFAULT, got {v!r}",
                        field=f"line {key_line(ad, key)} ({key})", file=ad["file"])  # fmt: skip
    return float(v)


def _fst_num(deck: dict, key: str) -> float | None:
    v = deck["fst"]["values"].get(key)
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None


def rotor_config(deck: dict) -> dict[str, Any]:
    """The AeroDyn part of the deck's ``bem_rotor`` load entry (docs/openfast_import.md).

    Returns
    -------
    dict
        ``blade_file`` (absolute path; blade 1's, the other blades must have the same geometry:
        otherwise ``blade_files``, one per blade), ``airfoils`` (absolute paths, ``af_id`` 1-based
        into it), ``airfoil_columns`` (InCol_Alfa/Cl/Cd/Cm/Cpmin), ``options`` (:func:`options`,
        the subset BemtOptions takes plus ``bem_mod``, ``af_tab_mod``, ``wake_mod``,
        ``dbemt_mod``), ``air_density`` and ``kin_visc`` (AeroDyn's ``AirDens``/``KinVisc``,
        ``DEFAULT`` = the ``.fst``'s), ``output_nodes`` (``BlOutNd[:NBlOuts]``, 1-based),
        ``output_blades`` (the highest blade number of the OutList's ``B#N#`` channels),
        ``channels`` (the OutList channels the load gives, in order) and ``channels_not_given``.

    Raises
    ------
    CaseError
        The deck has no AeroDyn file (``CompAero != 2``).
    """
    ad = deck.get("AeroDyn")
    model = deck.get("AeroDyn_model")
    if ad is None or model is None:
        raise CaseError("the deck has no AeroDyn file (CompAero = 2 with an AeroFile)",
                        field="AeroFile", file=deck.get("file"))  # fmt: skip
    opt = options(ad)
    blades: list[BladeFile] = model["blades"]
    same = all(_same_blade(blades[0], b) for b in blades[1:])
    n_out = int(_v(ad, "NBlOuts", 0) or 0)
    nodes = _v(ad, "BlOutNd", [])
    nodes = [nodes] if not isinstance(nodes, list) else nodes
    nodes = [int(x) for x in nodes[:n_out]]
    nn = blades[0].span.size
    bad = [x for x in nodes if not 1 <= x <= nn]
    if bad:
        raise CaseError(f"output node(s) {bad} outside 1..NumBlNds = {nn}",
                        field=f"line {key_line(ad, 'BlOutNd')} (BlOutNd)", file=ad["file"])  # fmt: skip
    chans = ad["outlists"].get("OutList", [])
    given = [c for c in chans if GIVEN_CHANNELS.match(c)]
    blades_out = [int(m.group(1)) for c in given if (m := re.match(r"^B(\d)N", c, re.I))]
    out: dict[str, Any] = {
        "airfoils": [a.path for a in model["airfoils"]],
        "airfoil_columns": list(_columns(ad)),
        "options": {
            k: opt[k]
            for k in (
                "tip_loss",
                "hub_loss",
                "tan_ind",
                "ai_drag",
                "ti_drag",
                "skew_mod",
                "skew_redistr_factor",
                "skew_mom_corr",
                "max_iter",
                "tolerance",
                "use_cm",
                "bem_mod",
                "af_tab_mod",
                "wake_mod",
                "dbemt_mod",
            )
        },  # fmt: skip
        "air_density": _default_or(ad, "AirDens", _fst_num(deck, "AirDens")),
        "kin_visc": _default_or(ad, "KinVisc", _fst_num(deck, "KinVisc")),
        "output_nodes": nodes,
        "output_blades": max(blades_out, default=0),
        "channels": given,
        "channels_not_given": [c for c in chans if not GIVEN_CHANNELS.match(c)],
    }
    if opt["dbemt_mod"] in (1, 3):  # DBEMT's constant tau1 (checked by the load: > 0)
        out["options"]["tau1_const"] = opt["tau1_const"]
    if same:
        out["blade_file"] = blades[0].path
    else:
        out["blade_files"] = [b.path for b in blades]
    return out


def _same_blade(a: BladeFile, b: BladeFile) -> bool:
    import numpy as np

    return a.path == b.path or (
        a.span.shape == b.span.shape
        and all(np.array_equal(getattr(a, f), getattr(b, f)) for f in (
            "span", "crv_ac", "swp_ac", "crv_ang_deg", "twist_deg", "chord", "af_id"))
    )  # fmt: skip


# ------------------------------------------------------------------------------ dedicated checks


def line_refusals(deck: dict, files: list[tuple[dict[str, Setting], dict]]) -> list[str]:
    """One line per present key of ``files`` (``(its table, parsed file)``) whose value the
    table's ``ok`` refuses, naming the file, the key, the value and the line (the refusals of
    the ``checked_by`` rows of AeroDyn and InflowWind)."""
    out: list[str] = []
    ctx = Ctx(deck)
    seen: set[str] = set()
    for table, f in files:
        if f["file"] in seen:
            continue
        seen.add(f["file"])
        name = Path(f["file"]).name
        for key, value in f["values"].items():
            s = table.get(key) or table.get(re.sub(r"\(\d+\)$", "(k)", key))
            if s is None or s.ok is None or s.ok(value, ctx):
                continue
            line = key_line(f, key)
            at = f" (line {line})" if line else ""
            out.append(f"{name}: {key} = {show(value)}{at} is not supported; floatwind "
                       f"supports {s.supported}")  # fmt: skip
    return out


def _refusals(deck: dict) -> list[str]:
    """Every AeroDyn setting (main and airfoil files) with a supported set that the deck breaks,
    the v4 keys by their converted v5 setting, and blades of different geometry: one line each
    naming the file, the key, its value and its line."""
    files: list[tuple[dict[str, Setting], dict]] = []
    if deck.get("AeroDyn") is not None:
        files.append((_SETTINGS["AeroDyn"], deck["AeroDyn"]))
    files += [(_SETTINGS["AeroDyn_airfoil"], f) for f in deck.get("AeroDyn_airfoils") or []]
    out = line_refusals(deck, files)
    ad = deck.get("AeroDyn")
    if ad is not None:
        out += _legacy_refusals(ad)
    model = deck.get("AeroDyn_model")
    if ad is not None and model is not None:
        blades = model["blades"]
        if not all(_same_blade(blades[0], b) for b in blades[1:]):
            out.append(f"{Path(ad['file']).name}: ADBlFile(2) = {show(_v(ad, 'ADBlFile(2)'))} "
                       f"(line {key_line(ad, 'ADBlFile(2)')}): blades of different geometry are "
                       "not supported; floatwind's rotor has one blade geometry")  # fmt: skip
    return out


#: v4 key -> (ok(converted v5 options, value), the values floatwind supports)
_LEGACY = {
    "WakeMod": (lambda o, v: o["wake_mod"] in (0, 1) and o["dbemt_mod"] in (0, 1, 2, 3),
                "WakeMod = 0, 1 or 2 (BEM with DBEMT_Mod 1-3; 3 = free vortex wake is not "
                "built)"),
    "FrozenWake": (lambda o, v: o["dbemt_mod"] >= 0,
                   "FrozenWake = False (a frozen wake is for linearisation)"),
    "AFAeroMod": (lambda o, v: o["ua_mod"] == 0,
                  "AFAeroMod = 1 (steady airfoil tables; unsteady aerodynamics is not built)"),
    "SkewMod": (lambda o, v: o["skew_mod"] in (0, 1),
                "SkewMod = 1 (none) or >= 2 (skewed wake: Skew_Mod = 1)"),
    "Buoyancy": (lambda o, v: v in (False, 0), "Buoyancy = False (MHK buoyancy)"),
}  # fmt: skip


def _legacy_refusals(ad: dict) -> list[str]:
    """The v4 keys of the main file, refused by the v5 setting they convert to (:func:`options`)."""
    out: list[str] = []
    opt = options(ad)
    name = Path(ad["file"]).name
    for key, (ok, supported) in _LEGACY.items():
        if key in ad["values"] and not ok(opt, ad["values"][key]):
            out.append(f"{name}: {key} = {show(ad['values'][key])} (line {key_line(ad, key)}) "
                       f"is not supported; floatwind supports {supported}")  # fmt: skip
    return out


# ---------------------------------------------------------------------------------- the table


def _R(supported: str, ok, bad: str) -> Setting:
    return R(supported, ok, bad, deck=_REF, checked_by="aerodyn._refusals")


def _M(text: str, ok=None, supported: str = "", bad: str | None = None) -> Setting:
    return M(text, ok, supported, bad, deck=_REF, checked_by="aerodyn._refusals" if ok else None)


def _dt_ok(v: Any, ctx: Ctx) -> bool:
    return v == DEFAULT or (isinstance(v, int | float) and float(v) == ctx.num("fst", "DT", -1.0))


def _dbemt_ok(v: Any, ctx: Ctx) -> bool:
    """DBEMT_Mod = 0, 1, 2 or 3 (-1, the frozen wake of linearisation, is refused); a v4 file
    uses it only with WakeMod = 2 (checked by WakeMod's line)."""
    wake_mod = ctx.v("AeroDyn", "WakeMod")
    return (
        same_value(v, 0)
        or same_value(v, 1)
        or same_value(v, 2)
        or same_value(v, 3)
        or (wake_mod is not None and "Wake_Mod" not in ctx.deck["AeroDyn"]["values"])
    )


_BEM = "bem_rotor options"
_V4 = "the converted v5 setting is checked by aerodyn._refusals"
_UA = "unsteady airfoil aerodynamics setting, used only with UA_Mod != 0 (refused)"
_TWR = "tower influence/drag input, used only with TwrPotent, TwrShadow or TwrAero (refused)"
_MHK = "buoyancy/added-mass input, used only for MHK turbines (MHK != 0 is refused)"
_NAC = "nacelle drag input, used only with NacelleDrag = True (refused)"
_SECT = "sector averaging input, used only with SectAvg = True (refused)"

_SETTINGS: dict[str, dict[str, Setting]] = {
    "AeroDyn": {
        "Echo": N("echo of the input file"),
        "DTAero": _M("AeroDyn's time step: DEFAULT or the .fst DT (the rotor load is evaluated at "
                     "every step)", _dt_ok, "DTAero = DEFAULT or the .fst's DT", "0.1"),
        "Wake_Mod": _R("Wake_Mod = 0 (no induction) or 1 (BEM)", eq(0, 1), "3"),
        "WakeMod": _M(f"v4 form of Wake_Mod/DBEMT_Mod, converted as AeroDyn v5 does ({_V4})"),
        "AFAeroMod": _M(f"v4 form of UA_Mod (1 = steady), converted as AeroDyn v5 does ({_V4})"),
        "TwrPotent": _R("TwrPotent = 0 (no tower potential flow)", eq(0), "1"),
        "TwrShadow": _R("TwrShadow = 0 (no tower shadow)", eq(0), "1"),
        "TwrAero": _R("TwrAero = False (no tower drag)", eq(False), "True"),
        "FrozenWake": _M(f"v4 form of DBEMT_Mod = -1 (frozen wake), converted as AeroDyn v5 does "
                         f"({_V4})"),
        "CavitCheck": _R("CavitCheck = False (no cavitation check)", eq(False), "True"),
        "Buoyancy": _M(f"v4 MHK buoyancy switch ({_V4}: True is refused)"),
        "NacelleDrag": _R("NacelleDrag = False (no nacelle drag)", eq(False), "True"),
        "CompAA": _R("CompAA = False (no aeroacoustics)", eq(False), "True"),
        "AA_InputFile": I("aeroacoustics input, used only with CompAA = True (refused)"),
        "AirDens": _M("bem_rotor air_density (DEFAULT: the .fst's AirDens)"),
        "KinVisc": _M("bem_rotor kin_visc, the Reynolds number (DEFAULT: the .fst's KinVisc)"),
        "SpdSound": I("speed of sound: Mach number of unsteady aerodynamics and aeroacoustics, "
                      "both refused"),
        "Patm": I("used only for the cavitation check (refused)"),
        "Pvap": I("used only for the cavitation check (refused)"),
        "FluidDepth": I("used only for MHK turbines (refused)"),
        "BEM_Mod": _R("BEM_Mod = 1 (legacy NoSweepPitchTwist BEM)", eq(1), "2"),
        "Skew_Mod": _R("Skew_Mod = 0 (none) or 1 (Pitt/Peters skewed wake)", eq(0, 1), "-1"),
        "SkewMod": _M(f"v4 form of Skew_Mod (0 -> -1, 1 -> 0, >= 2 -> 1), converted as AeroDyn "
                      f"v5 does ({_V4})"),
        "SkewMomCorr": _R("SkewMomCorr = False (no skew momentum correction)", eq(False), "True"),
        "SkewRedistr_Mod": _R("SkewRedistr_Mod = 1 (Glauert/Pitt/Peters) or DEFAULT",
                              eq(1, DEFAULT), "2"),
        "SkewRedistrFactor": _M(f"{_BEM}.skew_redistr_factor (DEFAULT 15 pi/32)"),
        "SkewModFactor": _M(f"{_BEM}.skew_redistr_factor (v4 name)"),
        "TipLoss": _M(f"{_BEM}.tip_loss"),
        "HubLoss": _M(f"{_BEM}.hub_loss"),
        "TanInd": _M(f"{_BEM}.tan_ind"),
        "AIDrag": _M(f"{_BEM}.ai_drag"),
        "TIDrag": _M(f"{_BEM}.ti_drag"),
        "IndToler": _M(f"{_BEM}.tolerance (DEFAULT 5e-10)"),
        "MaxIter": _M(f"{_BEM}.max_iter"),
        "SectAvg": _R("SectAvg = False (no sector averaging)", eq(False), "True"),
        "SectAvgWeighting": I(_SECT),
        "SectAvgNPoints": I(_SECT),
        "SectAvgPsiBwd": I(_SECT),
        "SectAvgPsiFwd": I(_SECT),
        "DBEMT_Mod": _R("DBEMT_Mod = 0 (quasi-steady induction), 1 or 3 (dynamic inflow, "
                        "constant tau1) or 2 (tau1 from the rotor): bem_rotor options.dbemt_mod",
                        _dbemt_ok, "-1"),
        "tau1_const": _M(f"{_BEM}.tau1_const (DBEMT's tau1, used with DBEMT_Mod = 1 or 3)"),
        "OLAFInputFileName": I("free vortex wake input, used only with Wake_Mod = 3 (refused)"),
        "AoA34": _R("AoA34 = False (angle of attack at the aerodynamic centre; the 3/4-chord "
                    "sampling is not built)", eq(False), "True"),
        "UA_Mod": _R("UA_Mod = 0 (quasi-steady airfoil tables)", eq(0), "3"),
        "UAMod": _M(f"v4 form of UA_Mod, used with AFAeroMod = 2 ({_V4})"),
        "FLookup": I(_UA),
        "IntegrationMethod": I(_UA),
        "UAStartRad": I(_UA),
        "UAEndRad": I(_UA),
        "AFTabMod": _R("AFTabMod = 1 (first table of each airfoil file; interpolation in Re or "
                       "UserProp is not built)", eq(1), "2"),
        "InCol_Alfa": _M("bem_rotor airfoil_columns (angle of attack)"),
        "InCol_Cl": _M("bem_rotor airfoil_columns (Cl)"),
        "InCol_Cd": _M("bem_rotor airfoil_columns (Cd)"),
        "InCol_Cm": _M("bem_rotor airfoil_columns (Cm; 0 = no Cm)"),
        "InCol_Cpmin": I("Cpmin is used only by the cavitation check (refused)"),
        "NumAFfiles": _M("bem_rotor airfoils (count; BlAFID checked against it)"),
        "AFNames": _M("bem_rotor airfoils (files read and checked)"),
        "UseBlCm": _M(f"{_BEM}.use_cm"),
        "ADBlFile(k)": _M("bem_rotor blade_file (blades of different geometry are refused)"),
        "VolHub": I(_MHK),
        "HubCenBx": I(_MHK),
        "VolNac": I(_MHK),
        "NacCenB": I(_MHK),
        "NacArea": I(_NAC),
        "NacCd": I(_NAC),
        "NacDragAC": I(_NAC),
        "TFinAero": _R("TFinAero = False (no tail fin)", eq(False), "True"),
        "TFinFile": I("tail fin input, used only with TFinAero = True (refused)"),
        "NumTwrNds": I(_TWR),
        "SumPrint": N(OUT),
        "NBlOuts": _M("bem_rotor output_nodes (count)"),
        "BlOutNd": _M("bem_rotor output_nodes (B#N# channels)"),
        "NTwOuts": N(OUT),
        "TwOutNd": N(OUT),
        "BldNd_BladesOut": N(OUT),
        "BldNd_BlOutNd": N(OUT),
    },
    "AeroDyn_blade": {
        "NumBlNds": M("bem_rotor blade (number of elements)", deck=_REF),
    },
    "AeroDyn_airfoil": {
        "InterpOrd": _R("InterpOrd = 1 or DEFAULT (linear table lookup; cubic splines are not "
                        "built)", eq(1, DEFAULT), "3"),
        "RelThickness": I("relative thickness, used only by unsteady aerodynamics (refused)"),
        "NonDimArea": I(_MHK),
        "NumCoords": I("airfoil shape coordinates: visualisation and aeroacoustics only"),
        "BL_file": I("boundary-layer file, used only by aeroacoustics (CompAA, refused)"),
        "NumTabs": _M("airfoil tables read (AFTabMod = 1 uses the first)"),
        "Re": _M("Reynolds number of a table (AFTabMod = 1 uses the first table whatever Re)"),
        "UserProp": I("user property of a table, used only with AFTabMod = 3 (refused)"),
        "Ctrl": I("user property of a table (older name), used only with AFTabMod = 3 (refused)"),
        "InclUAdata": I(_UA),
        "NumAlf": _M("rows of a table (Cl, Cd, Cm over -180..180 deg)"),
        **{k: I(_UA) for k in (
            "alpha0", "alpha1", "alpha2", "alphaUpper", "alphaLower", "eta_e", "C_nalpha",
            "C_lalpha", "T_f0", "T_V0", "T_p", "T_VL", "b1", "b2", "b5", "A1", "A2", "A5", "S1",
            "S2", "S3", "S4", "Cn1", "Cn2", "St_sh", "Cd0", "Cm0", "k0", "k1", "k2", "k3",
            "k1_hat", "x_cp_bar", "UACutout", "UACutout_delta", "UACutout_blend", "filtCutOff")},
    },
}  # fmt: skip

_COLUMNS = {
    "AeroDyn": {c: I(_TWR) for c in ("TwrElev", "TwrDiam", "TwrCd", "TwrTI", "TwrCb", "TwrCp",
                                     "TwrCa")},  # fmt: skip
    "AeroDyn_blade": {
        "BlSpn": M("bem_rotor blade span (node positions along the pitch axis)"),
        "BlCrvAC": M("bem_rotor blade crv_ac (out-of-plane offset of the aerodynamic centre)"),
        "BlSwpAC": M("bem_rotor blade swp_ac (in-plane offset of the aerodynamic centre)"),
        "BlCrvAng": M("bem_rotor blade crv_ang (curvature angle)"),
        "BlTwist": M("bem_rotor blade twist"),
        "BlChord": M("bem_rotor blade chord"),
        "BlAFID": M("bem_rotor blade af_id (checked against NumAFfiles)"),
        "t_c": I("relative thickness, used only by unsteady aerodynamics (refused)"),
        **{c: I(_MHK) for c in ("BlCb", "BlCenBn", "BlCenBt", "BlCpn", "BlCpt", "BlCan", "BlCat",
                                "BlCam")},
    },
}  # fmt: skip

FILE_KIND = FileKind(
    "AeroDyn",
    __name__,
    settings=_SETTINGS,
    columns=_COLUMNS,
    files={
        "AeroDyn": "AeroDyn",
        "AeroDyn_blades": "AeroDyn_blade",
        "AeroDyn_airfoils": "AeroDyn_airfoil",
    },  # fmt: skip
    check=_refusals,
)
