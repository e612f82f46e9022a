"""InflowWind (CompInflow = 1 with AeroDyn): the deck's wind as floatwind's ``environment.wind``,
the wind-speed channels, and InflowWind's part of the settings table.

:func:`floatwind.case.openfast.read_fst` reads the InflowWind file (generic reader) when
``CompInflow = 1`` and ``CompAero != 0``: without aerodynamics the wind acts on nothing, and such
decks import as before (the file is not read). :func:`wind_config` maps

* ``WindType = 1`` (steady): ``{"kind": "steady", "speed": HWindSpeed, "ref_height": RefHt,
  "shear": "power", "shear_exponent": PLExp, "heading_deg": -PropagationDir}``: InflowWind's
  power law ``U (z / RefHt)^PLExp`` (z above the still-water level, MSL2SWL = 0) is floatwind's;
  InflowWind's PropagationDir turns from +x towards -y (meteorological), floatwind's heading from
  +x towards +y;
* ``WindType = 3`` (binary TurbSim full field): ``{"kind": "turbsim", "file": FileName_BTS,
  "heading_deg": -PropagationDir}``: floatwind's full-field wind (Taylor's frozen turbulence with
  InflowWind's default x offset, linear in time, bilinear in y, z).

Other WindTypes (uniform wind file, Bladed, HAWC, user, native Bladed, point) are refused in one
line, and so are ``VFlowAng != 0`` and cubic interpolation in time (``VelInterpCubic``).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from floatwind.case.openfast.aerodyn import line_refusals
from floatwind.case.openfast.reader import _float, _int, _str
from floatwind.case.openfast.settings import OUT, FileKind, I, M, N, R, Setting, eq

__all__ = ["FILE_KIND", "turbsim_covers", "wind_channels", "wind_config"]

_REF = "ref09_aero_fixed_speed"


def _plexp(f: dict) -> float:
    for key in ("PLExp", "PLexp", "PLEXP"):
        if key in f["values"]:
            return _float(f, key)
    return _float(f, "PLExp")  # raises naming the key


def wind_config(deck: dict) -> dict[str, Any] | None:
    """The deck's wind as a floatwind ``environment.wind`` mapping (docs/environment.md);
    ``None`` when the deck has no InflowWind file (still air).

    Raises
    ------
    CaseError
        A key missing or of the wrong type (the refusals of unsupported WindTypes and settings
        are :data:`FILE_KIND`'s, reported by ``unsupported_settings``).
    """
    ifw = deck.get("InflowWind")
    if ifw is None:
        return None
    wind_type = _int(ifw, "WindType")
    heading = -_float(ifw, "PropagationDir", 0.0)
    heading = heading + 0.0  # no -0.0 in the case file
    if wind_type == 1:
        return {
            "kind": "steady",
            "speed": _float(ifw, "HWindSpeed"),
            "ref_height": _float(ifw, "RefHt"),
            "heading_deg": heading,
            "shear": "power",
            "shear_exponent": _plexp(ifw),
        }
    if wind_type == 3:
        name = _str(ifw, "FileName_BTS")
        target = (Path(ifw["file"]).parent / name).resolve()
        return {"kind": "turbsim", "file": str(target), "heading_deg": heading}
    from floatwind.errors import CaseError

    raise CaseError(
        f"WindType = {wind_type} is not supported (1 steady, 3 TurbSim full field)",
        field="WindType",
        file=ifw["file"],
    )


def _list(v: Any) -> list[float]:
    return [float(x) for x in (v if isinstance(v, list) else [v])]


def wind_channels(deck: dict) -> dict[str, tuple[tuple[float, float, float], int]]:
    """InflowWind's ``Wind#VelX/Y/Z`` channels of the OutList: name -> (point (m, inertial),
    component 0/1/2), the points from ``WindVxiList/WindVyiList/WindVziList`` (``NWindVel`` of
    them). Other InflowWind channels are left out (the importer lists what it does not give)."""
    ifw = deck.get("InflowWind")
    if ifw is None:
        return {}
    n = _int(ifw, "NWindVel", 0)
    xs, ys, zs = (_list(ifw["values"].get(k, [])) for k in ("WindVxiList", "WindVyiList",
                                                            "WindVziList"))  # fmt: skip
    points = list(zip(xs, ys, zs, strict=False))[:n]
    out: dict[str, tuple[tuple[float, float, float], int]] = {}
    for names in ifw["outlists"].values():
        for name in names:
            up = name.upper()
            if up.startswith("WIND") and up[-4:-1] == "VEL" and up[-1] in "XYZ":
                try:
                    k = int(up[4:-4])
                except ValueError:
                    continue
                if 1 <= k <= len(points):
                    out[name] = (points[k - 1], "XYZ".index(up[-1]))
    return out


def turbsim_covers(grid: Any, points: np.ndarray, *, heading_deg: float = 0.0) -> np.ndarray:
    """Which ``points`` (P, 3) (inertial, m) lie inside the TurbSim grid's (y, z) rectangle.

    ``grid`` is a :func:`turbsim_io.read_bts` dataset (or any mapping with ``y`` and ``z``
    coordinate arrays); the lateral coordinate of a point is the one floatwind's full-field wind
    uses: ``y_w = -sin(h) x + cos(h) y`` with ``h`` the heading. Returns a (P,) bool array
    (InflowWind refuses a rotor outside its grid; floatwind's wind takes the nearest edge value).
    """
    y = np.asarray(grid["y"], dtype=float)
    z = np.asarray(grid["z"], dtype=float)
    p = np.atleast_2d(np.asarray(points, dtype=float))
    h = math.radians(heading_deg)
    yw = -math.sin(h) * p[:, 0] + math.cos(h) * p[:, 1]
    tol = 1e-9 * max(1.0, float(np.max(np.abs(y))), float(np.max(np.abs(z))))
    return (
        (yw >= y.min() - tol) & (yw <= y.max() + tol) & (p[:, 2] >= z.min() - tol)
        & (p[:, 2] <= z.max() + tol)
    )  # fmt: skip


# ------------------------------------------------------------------------------ dedicated checks


def _refusals(deck: dict) -> list[str]:
    """CompInflow = 2 (external inflow) with aerodynamics: floatwind takes the wind from
    InflowWind or still air only."""
    out: list[str] = []
    fst = deck["fst"]
    v = fst["values"]
    if v.get("CompAero", 0) not in (0, None) and v.get("CompInflow", 0) not in (0, 1):
        name = Path(fst["file"]).name
        out.append(f"{name}: CompInflow = {v['CompInflow']} (external inflow) is not supported; "
                   "floatwind supports CompInflow = 0 (still air) or 1 (InflowWind)")  # fmt: skip
    if deck.get("InflowWind") is not None:
        out += line_refusals(deck, [(_SETTINGS["InflowWind"], deck["InflowWind"])])
    return out


# ---------------------------------------------------------------------------------- the table


def _R(supported: str, ok, bad: str) -> Setting:
    return R(supported, ok, bad, deck=_REF, checked_by="inflowwind._refusals")


_UNI = "uniform wind file input, used only with WindType = 2 (refused)"
_BLD = "Bladed-style full-field input, used only with WindType = 4 or 7 (refused)"
_HAWC = "HAWC full-field input, used only with WindType = 5 (refused)"
_LIDAR = "lidar measurement setting: a sensor output, it changes no load"

_SETTINGS = {
    "InflowWind": {
        "Echo": N("echo of the input file"),
        "WindType": _R("WindType = 1 (steady) or 3 (binary TurbSim full field)", eq(1, 3), "2"),
        "PropagationDir": M("environment.wind.heading_deg = -PropagationDir", deck=_REF),
        "VFlowAng": _R("VFlowAng = 0 (horizontal wind)", eq(0), "5"),
        "VelInterpCubic": _R("VelInterpCubic = False (floatwind interpolates wind files "
                             "linearly in time)", eq(False), "True"),
        "NWindVel": M("points of the Wind#VelX/Y/Z channels", deck=_REF),
        "WindVxiList": M("x of the Wind#Vel points", deck=_REF),
        "WindVyiList": M("y of the Wind#Vel points", deck=_REF),
        "WindVziList": M("z of the Wind#Vel points", deck=_REF),
        "HWindSpeed": M("environment.wind.speed (WindType = 1)", deck=_REF),
        "RefHt": M("environment.wind.ref_height (WindType = 1)", deck=_REF),
        "PLExp": M("environment.wind.shear_exponent, power law (WindType = 1)", deck=_REF),
        "PLexp": M("environment.wind.shear_exponent, power law (WindType = 1)", deck=_REF),
        "Filename_Uni": I(_UNI),
        "FileName_Uni": I(_UNI),
        "RefHt_Uni": I(_UNI),
        "RefLength": I(_UNI),
        "FileName_BTS": M("environment.wind.file (WindType = 3, kind turbsim)", deck=_REF),
        "FileNameRoot": I(_BLD),
        "TowerFile": I(_BLD),
        **{k: I(_HAWC) for k in (
            "FileName_u", "FileName_v", "FileName_w", "nx", "ny", "nz", "dx", "dy", "dz",
            "RefHt_Hawc", "ScaleMethod", "SFx", "SFy", "SFz", "SigmaFx", "SigmaFy", "SigmaFz",
            "URef", "WindProfile", "PLExp_Hawc", "Z0", "XOffset")},
        **{k: N(_LIDAR) for k in (
            "SensorType", "NumPulseGate", "PulseSpacing", "NumBeam", "FocalDistanceX",
            "FocalDistanceY", "FocalDistanceZ", "RotorApexOffsetPos", "URefLid",
            "MeasurementInterval", "LidRadialVel", "ConsiderHubMotion")},
        "SumPrint": N(OUT),
    },
}  # fmt: skip

FILE_KIND = FileKind(
    "InflowWind",
    __name__,
    settings=_SETTINGS,
    files={"InflowWind": "InflowWind"},
    check=_refusals,
)
