"""A few lines that read the AeroDyn blade and airfoil files of ref09 for the BEMT tests.

Stand-ins for ``floatwind.io.aerodyn.read_blade`` / ``read_airfoil`` (piece B of issue 35),
returning objects with the same attribute names; replace them with that reader when it lands.
"""

from __future__ import annotations

import pathlib
from types import SimpleNamespace

import numpy as np


def _lines(path: pathlib.Path) -> list[str]:
    return path.read_text().splitlines()


def read_blade_simple(path: str | pathlib.Path) -> SimpleNamespace:
    """BlSpn, BlCrvAC, BlSwpAC, BlCrvAng, BlTwist, BlChord, BlAFID of an AeroDyn blade file."""
    path = pathlib.Path(path)
    lines = _lines(path)
    i = next(k for k, ln in enumerate(lines) if "NumBlNds" in ln)
    n = int(lines[i].split()[0])
    rows = np.array([[float(v) for v in ln.split()[:7]] for ln in lines[i + 3 : i + 3 + n]])
    return SimpleNamespace(
        path=str(path),
        span=rows[:, 0],
        crv_ac=rows[:, 1],
        swp_ac=rows[:, 2],
        crv_ang_deg=rows[:, 3],
        twist_deg=rows[:, 4],
        chord=rows[:, 5],
        af_id=rows[:, 6].astype(int),
    )


def read_airfoil_simple(path: str | pathlib.Path) -> SimpleNamespace:
    """The first table (alpha deg, Cl, Cd, Cm) of an AirfoilInfo v1.01 file."""
    path = pathlib.Path(path)
    lines = _lines(path)
    i = next(k for k, ln in enumerate(lines) if "NumAlf" in ln)
    n = int(lines[i].split()[0])
    rows = []
    k = i + 1
    while len(rows) < n:
        ln = lines[k].strip()
        k += 1
        if not ln or ln.startswith("!"):
            continue
        rows.append([float(v) for v in ln.split()[:4]])
    t = np.array(rows)
    cm = t[:, 3] if t.shape[1] > 3 else None
    table = SimpleNamespace(
        re=0.0, user_prop=0.0, alpha_deg=t[:, 0], cl=t[:, 1], cd=t[:, 2], cm=cm, cpmin=None
    )
    return SimpleNamespace(path=str(path), interp_ord=1, non_dim_area=1.0, tables=(table,))


def ref09_airfoil_paths(deck_dir: pathlib.Path) -> list[pathlib.Path]:
    """The airfoil files of the deck's AeroDyn.dat, in NumAFfiles order."""
    lines = _lines(deck_dir / "AeroDyn.dat")
    i = next(k for k, ln in enumerate(lines) if "NumAFfiles" in ln)
    n = int(lines[i].split()[0])
    names = [ln.split()[0].strip('"') for ln in lines[i + 1 : i + 1 + n]]
    return [deck_dir / nm for nm in names]
