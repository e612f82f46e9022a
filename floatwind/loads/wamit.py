"""WAMIT output files (``.1`` added mass and damping, ``.3`` wave excitation, ``.hst`` hydrostatic
stiffness) read into dimensional arrays for the ``potential_flow`` load.

WAMIT's nondimensional form (WAMIT User Manual, sec. 4; the reference READMEs of
``ref07_potential_decay``): with ``L`` = ULEN, ``rho`` the water density and ``g`` gravity,

* ``.1``: ``PER I J Abar [Bbar]``; ``A_ij = rho L^k Abar``, ``B_ij = rho omega L^k Bbar`` with
  ``k`` = 3 (both translations), 4 (one rotation), 5 (both rotations). ``PER = -1`` is the zero-
  and ``PER = 0`` the infinite-frequency limit (added mass only); other rows have the period
  ``PER`` (s), ``omega = 2 pi / PER``.
* ``.3``: ``PER BETA I |X| phase Re Im``; ``X_i = rho g L^m Xbar`` per unit wave amplitude,
  ``m`` = 2 (force) or 3 (moment), BETA the wave heading (deg), WAMIT's phase convention: for
  an elevation ``eta = Re{A e^{i omega t}}`` at the origin the force is ``Re{X A e^{i omega t}}``.
* ``.hst``: ``I J Cbar``; ``C_ij = rho g L^m Cbar``, ``m`` = 2 (both translations), 3 (one
  rotation), 4 (both rotations).

One body with six modes (indices 1..6); generalised modes and several bodies are refused in one
line. Every error is a :class:`floatwind.errors.CaseError` naming the file and the line.
"""

from __future__ import annotations

import math
import pathlib
import re
from dataclasses import dataclass

import numpy as np

from floatwind.errors import CaseError

__all__ = ["WamitData", "read_wamit"]


@dataclass(frozen=True)
class WamitData:
    """Dimensional potential-flow coefficients of one body about its WAMIT reference point
    (inertial axes of the undisplaced body), SI units.

    omega : (F,) frequencies of the ``.1`` file (rad/s, ascending, > 0)
    added_mass : (F, 6, 6) A(omega); ``damping`` (F, 6, 6) B(omega)
    added_mass_zero, added_mass_inf : (6, 6) the omega = 0 and omega = inf limits
    exc_omega : (E,) frequencies of the ``.3`` file (rad/s, ascending); ``exc_heading`` (H,)
        headings (rad, ascending); ``excitation`` (E, H, 6) complex X per unit amplitude (N/m,
        N m/m), WAMIT's phase convention; None without a ``.3`` file
    hydrostatic : (6, 6) C of the ``.hst`` file (N/m, N/rad, N m/rad)
    """

    omega: np.ndarray
    added_mass: np.ndarray
    damping: np.ndarray
    added_mass_zero: np.ndarray | None
    added_mass_inf: np.ndarray
    exc_omega: np.ndarray | None
    exc_heading: np.ndarray | None
    excitation: np.ndarray | None
    hydrostatic: np.ndarray


def _exponent(i: int, j: int, trans: int) -> int:
    """L exponent of entry (i, j) (1-based): ``trans`` for two translations, +1 per rotation."""
    return trans + (i > 3) + (j > 3)


_NUMBER_FORM = re.compile(r"[+-]?\d*(?:\.(\d*))?(?:[eEdD]([+-]?\d*))?")


def _form(tok: str) -> tuple[int, int]:
    """How a number is written: digits after the point, characters of the exponent."""
    m = _NUMBER_FORM.fullmatch(tok)
    if m is None:
        return (-1, -1)
    return (len(m.group(1) or ""), -1 if m.group(2) is None else len(m.group(2)))


def check_not_cut(path: pathlib.Path, text: str) -> None:
    """Refuse a file cut while it was written or copied (a full disk, a stopped transfer): it
    ends without a line end, and its last line has fewer columns than the line above or its
    last number is written with fewer digits (``2.5319`` below ``2.531995e-30``): the cut
    number would read as a plausible wrong value. A whole file ends with a line end (WAMIT's
    and floatwind's writers do); one without it whose last line looks like the one above is
    read."""
    if not text or text.endswith(("\n", "\r")):
        return
    rows = [(n, ln.split()) for n, ln in enumerate(text.splitlines(), start=1) if ln.strip()]
    if len(rows) < 2:
        return
    (n, last), (_, above) = rows[-1], rows[-2]
    if len(last) != len(above) or _form(last[-1]) != _form(above[-1]):
        raise CaseError(
            f"the file ends inside line {n} ({len(last)} columns, last {last[-1]!r}; the line "
            f"above: {len(above)} columns, last {above[-1]!r}): it looks truncated",
            field=f"line {n}", file=str(path),
        )  # fmt: skip


def _rows(path: pathlib.Path, ncols: int, what: str):
    if not path.is_file():
        raise CaseError(f"WAMIT {what} file not found", file=str(path))
    out = []
    text = path.read_text(encoding="latin-1")
    check_not_cut(path, text)
    for n, line in enumerate(text.splitlines(), start=1):
        toks = line.split()
        if not toks:
            continue
        if len(toks) < ncols:
            raise CaseError(
                f"expected at least {ncols} columns, got {len(toks)}", field=f"line {n}",
                file=str(path),
            )  # fmt: skip
        vals = []
        for t in toks:
            try:
                v = float(t.replace("D", "E").replace("d", "e"))
            except ValueError:
                raise CaseError(f"expected a number, got {t!r}", field=f"line {n}",
                                file=str(path)) from None  # fmt: skip
            if not math.isfinite(v):
                raise CaseError(f"not a finite number: {t!r}", field=f"line {n}", file=str(path))
            vals.append(v)
        out.append((n, vals))
    if not out:
        raise CaseError(f"the WAMIT {what} file holds no data", file=str(path))
    return out


def _index(v: float, n: int, path: pathlib.Path, col: str) -> int:
    i = int(round(v))
    if i != v or not 1 <= i <= 6:
        raise CaseError(
            f"mode index {col} = {v:g}: floatwind reads one body with modes 1..6 (several "
            "bodies or generalised modes are not supported)",
            field=f"line {n}", file=str(path),
        )  # fmt: skip
    return i


def _once(rows: dict, key, value, n: int, line_of: dict, path: pathlib.Path, what: str) -> None:
    """Enter ``rows[key] = value`` read at line ``n``; the same entry given again with another
    value is corrupt data (which one would HydroDyn use?): refused naming both lines."""
    if key in rows and rows[key] != value:
        raise CaseError(
            f"{what} is given twice with different values (lines {line_of[id(rows), key]} and "
            f"{n})", field=f"line {n}", file=str(path),
        )  # fmt: skip
    rows[key] = value
    line_of[id(rows), key] = n


def _complete(groups: dict, line_of: dict, path: pathlib.Path, what: str, items: str) -> None:
    """Every group (a period, or a period and heading) must give the same entries: one that
    lacks some that the others give is a truncated or damaged file (the missing entries would
    silently read as zero)."""
    if len(groups) < 2:
        return
    every = set().union(*(set(r) for r in groups.values()))
    for key, rows in groups.items():
        missing = every - set(rows)
        if missing:
            last = max(line_of[id(rows), k] for k in rows)
            label = (f"{key[0]:g} s, {key[1]:g} deg" if isinstance(key, tuple)
                     else {0.0: "0 (infinite frequency)", -1.0: "-1 (zero frequency)"}.get(
                         key, f"{key:g} s"))  # fmt: skip
            raise CaseError(
                f"{what} {label} lacks {len(missing)} of the {items} the others give (e.g. "
                f"{sorted(missing)[0]}); the file looks truncated or damaged",
                field=f"line {last}", file=str(path),
            )  # fmt: skip


_READ: dict = {}  # read_wamit's results by the files' contents and the scaling (a deck reads
# the same files for its hydrostatics, radiation and excitation: ~0.2 s each for a spar's)


def _copy(d: WamitData, excitation: bool) -> WamitData:
    """A copy of ``d`` (arrays copied: a caller may change its own), without the ``.3`` part
    when ``excitation`` is False."""
    import dataclasses

    c = {f.name: (None if v is None else np.array(v, copy=True))
         for f in dataclasses.fields(d) for v in (getattr(d, f.name),)}  # fmt: skip
    if not excitation:
        c.update(exc_omega=None, exc_heading=None, excitation=None)
    return WamitData(**c)


def read_wamit(root, *, rho: float, gravity: float, ulen: float = 1.0,
               excitation: bool = True) -> WamitData:  # fmt: skip
    """``root.1``, ``root.hst`` and (when ``excitation``) ``root.3``, dimensional (see the module
    docstring). A second read of files with the same contents (a digest of their bytes) and the
    same scaling returns a copy of the first result."""
    import hashlib

    root = pathlib.Path(root)
    try:
        h = hashlib.blake2b(digest_size=16)
        for ext in (".1", ".hst", ".3"):
            f = root.with_name(root.name + ext)
            if ext != ".3" or f.is_file():
                h.update(ext.encode() + f.read_bytes())
        key = (h.hexdigest(), float(rho), float(gravity), float(ulen))
    except OSError:
        key = None  # the reading below names the missing file
    hit = _READ.get(key) if key is not None else None
    if hit is not None and (hit.excitation is not None or not excitation):
        return _copy(hit, excitation)
    d = _read_wamit(root, rho=rho, gravity=gravity, ulen=ulen, excitation=excitation)
    if key is not None:
        if len(_READ) > 16:
            _READ.clear()
        _READ[key] = d
    return _copy(d, excitation)


def _read_wamit(root: pathlib.Path, *, rho: float, gravity: float, ulen: float,
                excitation: bool) -> WamitData:  # fmt: skip
    L = float(ulen)
    p1 = root.with_name(root.name + ".1")
    per_rows: dict[float, dict[tuple[int, int], tuple[float, float | None]]] = {}
    line_of: dict = {}
    for n, (per, i, j, *ab) in _rows(p1, 4, "added-mass (.1)"):
        i, j = _index(i, n, p1, "I"), _index(j, n, p1, "J")
        if per < 0.0 and per != -1.0:
            raise CaseError(f"PER = {per:g}: a period is > 0, or -1 (zero frequency) or 0 "
                            "(infinite frequency)", field=f"line {n}", file=str(p1))  # fmt: skip
        if per > 0.0 and len(ab) < 2:
            raise CaseError("a finite-frequency row needs Abar and Bbar", field=f"line {n}",
                            file=str(p1))  # fmt: skip
        value = (ab[0], ab[1] if per > 0.0 else None)
        _once(per_rows.setdefault(per, {}), (i, j), value, n, line_of, p1,
              f"period {per:g} s, entry ({i}, {j})")  # fmt: skip
    # the zero- and infinite-frequency rows give the same entries as the periods (WAMIT leaves
    # out only what the body's symmetry makes zero, at every frequency alike)
    _complete(per_rows, line_of, p1, "period", "entries")
    if 0.0 not in per_rows:
        raise CaseError(
            "no infinite-frequency added mass (PER = 0 rows): HydroDyn and floatwind need it",
            file=str(p1),
        )
    scale = np.array([[rho * L ** _exponent(i, j, 3) for j in range(1, 7)]
                      for i in range(1, 7)])  # fmt: skip

    def matrix(entries, col):
        m = np.zeros((6, 6))
        for (i, j), v in entries.items():
            m[i - 1, j - 1] = v[col]
        return m

    a_inf = matrix(per_rows[0.0], 0) * scale
    a_zero = matrix(per_rows[-1.0], 0) * scale if -1.0 in per_rows else None
    periods = sorted((p for p in per_rows if p > 0.0), reverse=True)  # ascending frequency
    if not periods:
        raise CaseError("no finite-frequency rows (PER > 0)", file=str(p1))
    omega = np.array([2.0 * math.pi / p for p in periods])
    A = np.array([matrix(per_rows[p], 0) * scale for p in periods])
    B = np.array([matrix(per_rows[p], 1) * scale * w for p, w in zip(periods, omega)])
    # .hst
    ph = root.with_name(root.name + ".hst")
    C = np.zeros((6, 6))
    hst: dict[tuple[int, int], float] = {}
    last = 0
    for n, (i, j, c, *_) in _rows(ph, 3, "hydrostatic (.hst)"):
        i, j = _index(i, n, ph, "I"), _index(j, n, ph, "J")
        _once(hst, (i, j), c, n, line_of, ph, f"entry ({i}, {j})")
        C[i - 1, j - 1] = rho * gravity * L ** (2 + (i > 3) + (j > 3)) * c
        last = n
    every = [(i, j) for i in range(1, 7) for j in range(1, 7)]
    if 0 < len(hst) < 36 and list(hst) == every[: len(hst)]:
        # WAMIT writes the 36 entries row by row: a file that stops partway through them (cut
        # at a line end) would read its missing stiffness as zero
        i, j = every[len(hst)]
        raise CaseError(
            f"the file gives the first {len(hst)} of the 36 entries in order and stops before "
            f"({i}, {j}): it looks truncated", field=f"line {last}", file=str(ph),
        )  # fmt: skip
    exc_omega = exc_heading = X = None
    if excitation:
        p3 = root.with_name(root.name + ".3")
        rows3: dict[tuple[float, float], dict[int, complex]] = {}
        for n, (per, beta, i, _mod, _ph, re, im, *_) in _rows(p3, 7, "excitation (.3)"):
            i = _index(i, n, p3, "I")
            if per <= 0.0:
                raise CaseError(f"period {per:g} s: excitation needs PER > 0", field=f"line {n}",
                                file=str(p3))  # fmt: skip
            _once(rows3.setdefault((per, beta), {}), i, complex(re, im), n, line_of, p3,
                  f"period {per:g} s, heading {beta:g} deg, mode {i}")  # fmt: skip
        _complete(rows3, line_of, p3, "period and heading", "modes")
        pers = sorted({k[0] for k in rows3}, reverse=True)
        betas = sorted({k[1] for k in rows3})
        X = np.zeros((len(pers), len(betas), 6), dtype=complex)
        for a, per in enumerate(pers):
            for b, beta in enumerate(betas):
                if (per, beta) not in rows3:
                    raise CaseError(
                        f"no rows for period {per:g} s and heading {beta:g} deg (the .3 file must "
                        "hold every heading at every period)", file=str(p3),
                    )  # fmt: skip
                for i, x in rows3[(per, beta)].items():
                    X[a, b, i - 1] = rho * gravity * L ** (2 + (i > 3)) * x
        exc_omega = np.array([2.0 * math.pi / p for p in pers])
        exc_heading = np.radians(betas)
    return WamitData(omega, A, B, a_zero, a_inf, exc_omega, exc_heading, X, C)
