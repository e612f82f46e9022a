"""Second-order wave drift of a WAMIT body from the mean-drift coefficients of WAMIT's ``.7``
(control surface), ``.8`` (momentum / far field) or ``.9`` (pressure integration) files, as
HydroDyn v5 applies them (WAMIT2.f90 MnDrift_InitCalc and NewmanApp_InitCalc):

* **mean drift** (``MnDrift``): ``F_k = sum_j |a_j|^2 Q_k(omega_j, beta_j)``, constant in time;
* **Newman's approximation** (``NewmanApp``; Newman 1974):
  ``F_k(t) = |sum_{Q_k > 0} a_j sqrt(Q_k) e^{i omega_j t}|^2
  - |sum_{Q_k < 0} a_j sqrt(-Q_k) e^{i omega_j t}|^2``, whose time average is the mean drift
  and whose slow part is the difference-frequency force with
  ``Q(omega_m, omega_n) ~ sign sqrt(Q(omega_m) Q(omega_n))``.

``a_j`` is the complex amplitude of wave component j (the sea's components: SeaState's one-
sided FFT amplitudes ``WaveElevC0 / (N/2)`` in HydroDyn), ``Q_k(omega, beta) = rho g L^m
Re Fbar_k(omega, beta, beta)`` with ``m`` = 1 (forces) or 2 (moments), ``Fbar`` linear in the
frequency and both headings between the file's entries (HydroDyn WAMIT_Interp3D_Cplx: the
(beta1, beta2) grid must be complete), zero outside the file's frequencies and outside the
first-order cut-offs ``WvLowCOff <= omega <= WvHiCOff``. The force acts at the WAMIT
reference point in earth axes (HydroDyn PtfmYMod = 0: the platform's heading is not followed).

File format (WAMIT User Manual, sec. 4.8): ``PER BETA1 BETA2 I |F| phase Re Im`` per line,
``Fbar = F / (rho g A^2 L^m)``, BETA in degrees, I = 1..6 the mode.
"""

from __future__ import annotations

import math
import pathlib
from dataclasses import dataclass

import numpy as np

from floatwind.errors import CaseError

__all__ = ["DriftData", "drift_coefficients", "read_mean_drift"]

#: HydroDyn's MnDrift / NewmanApp values that name a WAMIT mean-drift file
QTF_FILES = (7, 8, 9)


@dataclass(frozen=True)
class DriftData:
    """Nondimensional mean-drift coefficients of one body.

    omega : (F,) rad/s ascending; beta1, beta2 : (H1,), (H2,) rad ascending
    re : (F, H1, H2, 6) Re Fbar (zero for a mode the file does not give)
    modes : (6,) bool, the modes the file gives; path : the file
    """

    omega: np.ndarray
    beta1: np.ndarray
    beta2: np.ndarray
    re: np.ndarray
    modes: np.ndarray
    path: str


def read_mean_drift(path) -> DriftData:
    """Read a WAMIT ``.7``/``.8``/``.9`` file (module docstring). Errors name the file and line:
    a mode outside 1..6 (a file of several bodies or generalised modes: floatwind takes one body),
    a period <= 0, a repeated row, an incomplete (PER, BETA1, BETA2) grid."""
    from floatwind.loads.wamit import _rows

    path = pathlib.Path(path)
    fast = _fast_read(path)
    if fast is not None:
        return fast
    rows = _rows(path, 8, "mean-drift")  # the slow path: an error names its line
    seen: dict[tuple, int] = {}
    for n, v in rows:
        per, b1, b2, i = v[0], v[1], v[2], v[3]
        if i != int(i) or not 1 <= int(i) <= 6:
            raise CaseError(
                f"mode I = {i:g}: this mean-drift file is not for one body with modes 1..6 "
                "(several bodies or generalised modes; the WAMIT body here has 6)",
                field=f"line {n}", file=str(path),
            )  # fmt: skip
        if per <= 0.0:
            raise CaseError(f"period {per:g} s: mean-drift rows need a period > 0",
                            field=f"line {n}", file=str(path))  # fmt: skip
        key = (per, b1, b2, int(i))
        if key in seen:
            raise CaseError(f"repeats line {seen[key]} (PER {per:g}, BETA1 {b1:g}, BETA2 {b2:g}, "
                            f"I {int(i)}): not one body's file",
                            field=f"line {n}", file=str(path))  # fmt: skip
        seen[key] = n
    pers = sorted({k[0] for k in seen}, reverse=True)  # ascending frequency
    b1s = sorted({k[1] for k in seen})
    b2s = sorted({k[2] for k in seen})
    modes = sorted({k[3] for k in seen})
    fi = {p: j for j, p in enumerate(pers)}
    h1 = {b: j for j, b in enumerate(b1s)}
    h2 = {b: j for j, b in enumerate(b2s)}
    re = np.zeros((len(pers), len(b1s), len(b2s), 6))
    filled = np.zeros((len(pers), len(b1s), len(b2s), 6), dtype=bool)
    for _n, v in rows:
        a, b, c, i = fi[v[0]], h1[v[1]], h2[v[2]], int(v[3]) - 1
        re[a, b, c, i] = v[6]
        filled[a, b, c, i] = True
    for m in modes:
        missing = np.argwhere(~filled[..., m - 1])
        if missing.size:
            a, b, c = missing[0]
            raise CaseError(
                f"mode {m} has no row for PER {pers[a]:g} s, BETA1 {b1s[b]:g}, BETA2 {b2s[c]:g} deg: "
                "HydroDyn's interpolation needs every (period, BETA1, BETA2) of the grid "
                f"({len(pers)} x {len(b1s)} x {len(b2s)})",
                file=str(path),
            )  # fmt: skip
    mask = np.zeros(6, dtype=bool)
    mask[[m - 1 for m in modes]] = True
    return DriftData(omega=2.0 * math.pi / np.array(pers), beta1=np.radians(b1s),
                     beta2=np.radians(b2s), re=re, modes=mask, path=str(path))  # fmt: skip


def _fast_read(path: pathlib.Path) -> DriftData | None:
    """The whole file with NumPy when it is well formed (a 169-heading-pair file has 59,319 rows);
    None when anything is off, so that :func:`read_mean_drift`'s line-by-line reading reports it."""
    import warnings

    try:
        text = path.read_text(encoding="latin-1")
    except OSError:
        return None
    from floatwind.loads.wamit import check_not_cut

    check_not_cut(path, text)  # a cut last number would pass the NumPy reading
    lines = [ln for ln in text.splitlines() if ln.strip()]
    ncol = len(lines[0].split()) if lines else 0
    if ncol < 8 or any(len(ln.split()) != ncol for ln in lines):
        return None  # a short, long or empty row: the line-by-line reader names it
    # NumPy's C text parser (strtod: correctly rounded, the same floats as the line-by-line
    # reader's float()): 0.25 s for 59,319 rows, without importing pandas (0.6 s)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            v = np.fromstring(text, sep=" ")
        except (ValueError, DeprecationWarning):
            return None
    if v.size != ncol * len(lines) or not np.all(np.isfinite(v)):
        return None
    v = v.reshape(len(lines), ncol)
    per, b1, b2, i = v[:, 0], v[:, 1], v[:, 2], v[:, 3]
    if np.any(per <= 0.0) or np.any(i != np.rint(i)) or np.any((i < 1) | (i > 6)):
        return None
    up, ip = np.unique(-per, return_inverse=True)  # ascending frequency
    u1, i1 = np.unique(b1, return_inverse=True)
    u2, i2 = np.unique(b2, return_inverse=True)
    mode = i.astype(np.int64) - 1
    modes = np.unique(mode)
    flat = ((ip * u1.size + i1) * u2.size + i2) * 6 + mode
    if np.unique(flat).size != flat.size or flat.size != up.size * u1.size * u2.size * modes.size:
        return None  # a repeated row or a hole in the grid
    re = np.zeros(up.size * u1.size * u2.size * 6)
    re[flat] = v[:, 6]
    mask = np.zeros(6, dtype=bool)
    mask[modes] = True
    return DriftData(omega=2.0 * math.pi / -up, beta1=np.radians(u1), beta2=np.radians(u2),
                     re=re.reshape(up.size, u1.size, u2.size, 6), modes=mask, path=str(path))  # fmt: skip


def _bracket(x: float, grid: np.ndarray) -> tuple[int, int, float]:
    """Lower and upper index and weight of the upper one (linear; one point: weight 0)."""
    if grid.size == 1:
        return 0, 0, 0.0
    j = int(np.clip(np.searchsorted(grid, x, side="right") - 1, 0, grid.size - 2))
    w = (x - grid[j]) / (grid[j + 1] - grid[j])
    return j, j + 1, float(min(max(w, 0.0), 1.0))


def interpolate(d: DriftData, omega: float, beta: float) -> np.ndarray:
    """``Re Fbar(omega, beta, beta)`` (6,): trilinear (HydroDyn WAMIT_Interp3D_Cplx), zero
    outside the file's frequencies."""
    if not d.omega[0] * (1.0 - 1e-6) <= omega <= d.omega[-1] * (1.0 + 1e-6):
        return np.zeros(6)  # (the files' periods have 7 or 8 digits)
    a0, a1, wa = _bracket(omega, d.omega)
    b0, b1, wb = _bracket(beta, d.beta1)
    c0, c1, wc = _bracket(beta, d.beta2)
    out = np.zeros(6)
    for ia, fa in ((a0, 1.0 - wa), (a1, wa)):
        for ib, fb in ((b0, 1.0 - wb), (b1, wb)):
            for ic, fc in ((c0, 1.0 - wc), (c1, wc)):
                f = fa * fb * fc
                if f != 0.0:
                    out += f * d.re[ia, ib, ic]
    return out


def drift_coefficients(d: DriftData, omega, amplitude, beta, *, rho_g: float, ulen: float,
                       cutoffs=(0.0, math.inf), field: str = "") -> np.ndarray:  # fmt: skip
    """Dimensional ``Q`` (R, M, 6) (N/m^2, N m/m^2) at the sea's components ``omega`` (M,),
    ``beta`` (R|1, M) rad; ``amplitude`` (R, M) only to check that the file covers the sea: a
    heading outside its BETA1/BETA2 range is refused (HydroDyn's check), and so is a sea with more
    than 0.1 % of its variance (within the cut-offs) at frequencies outside the file's (HydroDyn
    would take zero there)."""
    omega = np.asarray(omega, float)
    beta = np.atleast_2d(beta)
    amp2 = np.abs(np.atleast_2d(amplitude)) ** 2
    lo, hi = float(cutoffs[0]), float(cutoffs[1])
    inside = (omega >= lo) & (omega <= hi)
    tol = 1e-9
    for grid, name in ((d.beta1, "BETA1"), (d.beta2, "BETA2")):
        bad = inside[None, :] & (amp2 > 0.0) & ((beta < grid[0] - tol) | (beta > grid[-1] + tol))
        if np.any(bad):
            b = float(np.degrees(beta[np.nonzero(bad)][0]))
            raise CaseError(
                f"wave heading {b:g} deg lies outside the {name} headings of {d.path} "
                f"({math.degrees(grid[0]):g}..{math.degrees(grid[-1]):g} deg)",
                field=field or None,
            )  # fmt: skip
    used = amp2 * inside[None, :]
    out_f = (omega < d.omega[0] * (1.0 - 1e-6)) | (omega > d.omega[-1] * (1.0 + 1e-6))
    total = used.sum(axis=1)
    outside = (used * out_f[None, :]).sum(axis=1)
    if np.any(outside > 1e-3 * np.maximum(total, 1e-300)):
        r = int(np.argmax(outside / np.maximum(total, 1e-300)))
        raise CaseError(
            f"{100.0 * outside[r] / total[r]:.2g} % of the sea's variance lies outside the "
            f"frequencies of {d.path} ({d.omega[0]:.4g}..{d.omega[-1]:.4g} rad/s): the drift "
            "file must cover the sea's frequencies",
            field=field or None,
        )  # fmt: skip
    scale = rho_g * np.array([ulen, ulen, ulen, ulen**2, ulen**2, ulen**2])
    R = max(beta.shape[0], amp2.shape[0])
    Q = np.zeros((R, omega.size, 6))
    use = inside & ~out_f
    if not np.any(use):
        return Q
    a0, a1, wa = _brackets(omega[use], d.omega)
    for r in range(R):
        bt = beta[min(r, beta.shape[0] - 1)][use]
        b0, b1, wb = _brackets(bt, d.beta1)
        c0, c1, wc = _brackets(bt, d.beta2)
        acc = np.zeros((bt.size, 6))
        for ia, fa in ((a0, 1.0 - wa), (a1, wa)):  # trilinear, as interpolate()
            for ib, fb in ((b0, 1.0 - wb), (b1, wb)):
                for ic, fc in ((c0, 1.0 - wc), (c1, wc)):
                    acc += (fa * fb * fc)[:, None] * d.re[ia, ib, ic]
        Q[r, use] = scale * acc
    return Q


def _brackets(x: np.ndarray, grid: np.ndarray):
    """:func:`_bracket` for an array of points."""
    x = np.asarray(x, dtype=float)
    if grid.size == 1:
        z = np.zeros(x.size, dtype=np.int64)
        return z, z, np.zeros(x.size)
    j = np.clip(np.searchsorted(grid, x, side="right") - 1, 0, grid.size - 2)
    w = np.clip((x - grid[j]) / (grid[j + 1] - grid[j]), 0.0, 1.0)
    return j, j + 1, w
