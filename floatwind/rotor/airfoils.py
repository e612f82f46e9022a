"""Airfoil polars packed for the compiled BEMT kernel (``floatwind._kernels.bemt``).

AeroDyn reads each airfoil file with AirfoilInfo; with ``AFTabMod = 1`` it uses the first table
of a file, interpolated linearly in the angle of attack (``InterpOrd = 1``) over -180..180 deg
(``AFI_ComputeAirfoilCoefs1D``). :func:`pack_airfoils` concatenates one table per airfoil into
the flat arrays of :class:`AirfoilTables` (radians), which the kernel reads by name.

Whether a node gets induction is not a property of the airfoil in AeroDyn: a cylinder's table
has Cl = 0 at every angle, so without ``AIDrag``/``TIDrag`` its Cx and Cy in the induction
equations are zero and so are a and a' (``BEMTU_InductionWithResidual``); with AIDrag its drag
does induce. The kernel computes exactly that; there is no per-airfoil switch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from floatwind.errors import CaseError

__all__ = ["AirfoilTables", "airfoil_tables", "pack_airfoils"]

#: how far (deg) the first and last angle may be from -180 and 180
_COVER_TOL_DEG = 1e-6


class AirfoilTables(NamedTuple):
    """Airfoil tables of a rotor, concatenated (read by ``floatwind._kernels.bemt`` by name)."""

    alpha: np.ndarray  # (M,) rad, each table strictly increasing and covering [-pi, pi]
    cl: np.ndarray  # (M,)
    cd: np.ndarray  # (M,)
    cm: np.ndarray  # (M,) zeros where the file has no Cm column
    cpmin: np.ndarray  # (M,) zeros where the file has no Cpmin column
    start: np.ndarray  # (n_af,) int64 first row of airfoil i (0-based)
    count: np.ndarray  # (n_af,) int64 rows of airfoil i


def _column(values: Any, n: int, what: str, file: str | None, name: str) -> np.ndarray:
    if values is None:
        return np.zeros(n)
    arr = np.asarray(values, dtype=float)
    if arr.shape != (n,):
        raise CaseError(f"{name} has {arr.size} values for {n} angles", field=what, file=file)
    if not np.all(np.isfinite(arr)):
        raise CaseError(f"{name} has a value that is not a finite number", field=what, file=file)
    return arr


def pack_airfoils(
    alpha_deg: Sequence[Any],
    cl: Sequence[Any],
    cd: Sequence[Any],
    cm: Sequence[Any] | None = None,
    cpmin: Sequence[Any] | None = None,
    *,
    files: Sequence[str | None] | None = None,
) -> AirfoilTables:
    """Pack one polar per airfoil (angles in degrees, as in the files) into
    :class:`AirfoilTables`.

    Parameters
    ----------
    alpha_deg, cl, cd : sequences of 1-D arrays
        One array per airfoil: angle of attack (deg, strictly increasing, from -180 to 180),
        lift and drag coefficients.
    cm, cpmin : sequences of 1-D arrays or None, optional
        Pitching-moment and minimum-pressure coefficients (an entry of None, or None for all,
        gives zeros).
    files : sequence of str, optional
        The file of each airfoil, named in errors.

    Raises
    ------
    CaseError
        A polar that does not cover -180..180 deg, a non-increasing angle column, a column of
        another length or a value that is not finite (one line naming the file).
    """
    n_af = len(alpha_deg)
    if n_af == 0:
        raise CaseError("no airfoil tables", field="airfoils")
    if len(cl) != n_af or len(cd) != n_af:
        raise CaseError("alpha, cl and cd need one table per airfoil", field="airfoils")
    files = list(files) if files is not None else [None] * n_af
    cms = list(cm) if cm is not None else [None] * n_af
    cps = list(cpmin) if cpmin is not None else [None] * n_af
    parts: list[tuple[np.ndarray, ...]] = []
    for i in range(n_af):
        file = files[i]
        what = f"airfoils[{i}]"
        a = np.asarray(alpha_deg[i], dtype=float)
        if a.ndim != 1 or a.size < 2:
            raise CaseError("an airfoil table needs at least two angles", field=what, file=file)
        if not np.all(np.isfinite(a)):
            raise CaseError("an angle of attack is not a finite number", field=what, file=file)
        steps = np.diff(a)
        if np.any(steps <= 0.0):
            k = int(np.argmax(steps <= 0.0))
            raise CaseError(
                f"the angle-of-attack column must increase: {a[k + 1]:g} deg follows {a[k]:g} deg"
                f" (row {k + 2} of the table)",
                field=what,
                file=file,
            )
        if abs(a[0] + 180.0) > _COVER_TOL_DEG or abs(a[-1] - 180.0) > _COVER_TOL_DEG:
            raise CaseError(
                f"the polar must cover -180..180 deg (AeroDyn); it covers {a[0]:g}..{a[-1]:g} deg",
                field=what,
                file=file,
            )
        n = a.size
        parts.append(
            (
                np.radians(a),
                _column(cl[i], n, what, file, "Cl"),
                _column(cd[i], n, what, file, "Cd"),
                _column(cms[i], n, what, file, "Cm"),
                _column(cps[i], n, what, file, "Cpmin"),
            )
        )
    count = np.array([p[0].size for p in parts], dtype=np.int64)
    start = np.concatenate(([0], np.cumsum(count)[:-1])).astype(np.int64)
    cols = [np.ascontiguousarray(np.concatenate([p[c] for p in parts])) for c in range(5)]
    return AirfoilTables(cols[0], cols[1], cols[2], cols[3], cols[4], start, count)


def airfoil_tables(airfoil_files: Sequence[Any], *, af_tab_mod: int = 1) -> AirfoilTables:
    """:class:`AirfoilTables` from airfoil files as read by ``floatwind.io.aerodyn.read_airfoil``
    (objects with ``path``, ``interp_ord`` and ``tables``, each table with ``alpha_deg``, ``cl``,
    ``cd``, ``cm`` and ``cpmin``, None where absent).

    ``AFTabMod = 1`` (AeroDyn's default): the first table of each file. Cubic interpolation
    (``InterpOrd = 3``) and the multi-table modes (AFTabMod 2, 3) are refused in one line.
    """
    if af_tab_mod != 1:
        raise CaseError(
            f"AFTabMod = {af_tab_mod} (interpolation between airfoil tables) is not supported;"
            " use 1 (first table)",
            field="AFTabMod",
        )
    alpha, cl, cd, cm, cpmin, files = [], [], [], [], [], []
    for f in airfoil_files:
        path = str(getattr(f, "path", "")) or None
        interp = getattr(f, "interp_ord", 1)
        if interp not in (1, None):
            raise CaseError(
                f"InterpOrd = {interp} (cubic-spline polar interpolation) is not supported; use 1",
                field="InterpOrd",
                file=path,
            )
        tables = getattr(f, "tables", ())
        if not tables:
            raise CaseError("the airfoil file has no table", field="NumTabs", file=path)
        t = tables[0]
        alpha.append(t.alpha_deg)
        cl.append(t.cl)
        cd.append(t.cd)
        cm.append(getattr(t, "cm", None))
        cpmin.append(getattr(t, "cpmin", None))
        files.append(path)
    return pack_airfoils(alpha, cl, cd, cm, cpmin, files=files)
