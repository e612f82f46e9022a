"""State-space models of the radiation memory (Cummins' kernel), fitted to the potential-flow
data, and their arrangement as the compiled load's blocks.

The memory force of Cummins' equation, ``mu_i(t) = sum_j int_0^t K_ij(t - tau) v_j(tau) dtau``,
is the output of a linear system whose transfer function is the Fourier transform of the kernel
(Ogilvie 1964; Perez & Fossen, *Time- vs. frequency-domain identification of parametric
radiation force models for marine structures at zero speed*, MIC 29(1), 2008):

    K_ij(i omega) = int_0^inf K_ij(t) e^{-i omega t} dt = B_ij(omega) + i omega (A_ij(omega) - A_ij,inf).

Its properties fix the model's structure: ``K(i omega) -> 0`` as omega -> 0 (a zero at s = 0)
and as omega -> inf, relative degree one (``K(0+) = (2/pi) int B d omega`` is finite), stable.
Each non-zero entry (i, j) gets a model ``K_ij(s) ~ c (s I - A)^-1 b`` by one of two methods:

* ``fdi`` (default), frequency-domain identification: the entry's data ``K_ij(i omega_k)`` at
  the ``.1`` file frequencies (both ``B`` and ``A - A_inf``, nothing interpolated) is fitted by
  a strictly proper rational function with the zero at s = 0 imposed, by vector fitting
  (Gustavsen & Semlyen, *Rational approximation of frequency domain responses by vector
  fitting*, IEEE Trans. Power Delivery 14(3), 1999: iterated pole relocation, the poles of the
  weighting function's zeros, unstable poles reflected into the left half-plane at every
  iteration, then the residues by linear least squares with the constraint ``K(0) = 0``);
* ``era``, time-domain identification: the eigensystem realisation (Kung / Juang-Pappa, a
  Hankel SVD) of the kernel's samples every 0.1 s, HydroDyn's kernel as the convolution uses it.

The order is the smallest even one (2, 4, .. ``max_order``) whose model is stable and reaches
the stated tolerance (``fdi``: RMS of ``|K_fit(i omega) - K(i omega)|`` over the file
frequencies relative to the entry's largest ``|K(i omega)|``; ``era``: RMS of the kernel
samples relative to their peak), else the most accurate stable one (and the report says so).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from floatwind.errors import CaseError

__all__ = [
    "EntryFit",
    "SSBlocks",
    "blocks_from_fits",
    "blocks_from_matrices",
    "fit_radiation_state_space",
    "fit_report",
    "hydrodyn_ss_from_fits",
    "kernel_frequency_response",
    "realised_kernel",
    "realised_response",
]

METHODS = ("fdi", "era")


class EntryFit(NamedTuple):
    """One kernel entry's model, per unit water density: ``K_ij(s) ~ c (s I - a)^-1 b``."""

    i: int
    j: int
    a: np.ndarray  # (n, n)
    b: np.ndarray  # (n,)
    c: np.ndarray  # (n,)
    error: float  # the method's fit error (module docstring), relative
    converged: bool  # the tolerance was reached


class SSBlocks(NamedTuple):
    """Independent state-space blocks of the compiled radiation load, dimensional:
    ``dx_q/dt = a_q x_q + b_q v``, memory force ``F += c_q x_q`` (``v`` the reference point's
    six velocities; the force already signed, ``c = -rho c_fit`` for a fit)."""

    orders: np.ndarray  # (P,) states of each block
    offsets: np.ndarray  # (P,) first state of each
    a: np.ndarray  # (P, n, n), padded to the largest order
    b: np.ndarray  # (P, n, 6), or (P, n, 1) for the excitation (input: the wave elevation)
    c: np.ndarray  # (P, 6, n)
    n_states: int


def kernel_frequency_response(omega, added_mass, damping, added_mass_inf) -> np.ndarray:
    """``K(i omega) = B(omega) + i omega (A(omega) - A_inf)`` (F, 6, 6) at the data frequencies."""
    w = np.asarray(omega, dtype=float)[:, None, None]
    return np.asarray(damping) + 1j * w * (np.asarray(added_mass) - np.asarray(added_mass_inf))


def realised_response(a, b, c, omega) -> np.ndarray:
    """``c (i omega I - a)^-1 b`` at each ``omega`` (SISO model)."""
    n = a.shape[0]
    eye = np.eye(n)
    return np.array([c @ np.linalg.solve(1j * w * eye - a, b) for w in np.asarray(omega)])


def realised_kernel(a, b, c, t) -> np.ndarray:
    """The model's impulse response ``c exp(a t) b`` at times ``t`` (SISO model)."""
    w, V = np.linalg.eig(a)
    coef = (c @ V) * np.linalg.solve(V, b)
    return np.real(np.exp(np.outer(np.asarray(t, dtype=float), w)) @ coef)


# -- frequency-domain identification (vector fitting) -------------------------------------------


def _split(poles: np.ndarray):
    """Real poles and the upper members of complex pairs (a root list closed under conjugation)."""
    tol = 1e-9 * max(float(np.max(np.abs(poles))), 1e-300)
    real = np.sort(poles[np.abs(poles.imag) <= tol].real)
    upper = poles[poles.imag > tol]
    return real, upper[np.argsort(upper.imag)]


def _basis(s: np.ndarray, real: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """Vector fitting's real basis at ``s`` (K, n): ``1/(s - p)`` per real pole, and
    ``1/(s - p) + 1/(s - p*)``, ``i/(s - p) - i/(s - p*)`` per complex pair."""
    cols = [1.0 / (s - p) for p in real]
    for p in upper:
        g, h = 1.0 / (s - p), 1.0 / (s - np.conj(p))
        cols += [g + h, 1j * g - 1j * h]
    return np.stack(cols, axis=1)


def _companion(real: np.ndarray, upper: np.ndarray):
    """The basis as a state-space model ``(A, b)`` with ``phi(s) = (s I - A)^-1 b`` per column
    pair: a real pole ``[p], [1]``; a pair ``p = x + i y``: ``[[x, y], [-y, x]], [2, 0]``."""
    n = len(real) + 2 * len(upper)
    A, b = np.zeros((n, n)), np.zeros(n)
    k = 0
    for p in real:
        A[k, k], b[k] = p, 1.0
        k += 1
    for p in upper:
        A[k : k + 2, k : k + 2] = [[p.real, p.imag], [-p.imag, p.real]]
        b[k] = 2.0
        k += 2
    return A, b


def _stable(poles: np.ndarray) -> np.ndarray:
    """Unstable poles reflected into the left half-plane (Gustavsen & Semlyen 1999, sec. 3)."""
    out = poles.copy()
    out.real = -np.abs(out.real)
    small = out.real > -1e-6 * np.abs(out)
    out[small] = -1e-6 * np.abs(out[small]) + 1j * out[small].imag  # no pole on the axis
    return out


def _fdi(omega: np.ndarray, h: np.ndarray, order: int, iterations: int = 30,
         zero_at_origin: bool = True):
    """Vector fitting of ``h`` (complex, at ``s = i omega``) with ``order`` poles (even), no
    constant term and (``zero_at_origin``, a radiation kernel) the zero at s = 0 imposed.
    Frequencies scaled by their largest value. Returns ``(A, b, c, rel_error)`` of
    ``h(s) ~ c (s I - A)^-1 b`` in unscaled s."""
    w0 = float(np.max(omega))
    s = 1j * omega / w0
    beta = np.linspace(float(np.min(omega)) / w0, 1.0, order // 2)
    poles = np.concatenate([-beta / 100 + 1j * beta, -beta / 100 - 1j * beta])
    hr = np.concatenate([h.real, h.imag])
    for _ in range(iterations):
        real, upper = _split(poles)
        phi = _basis(s, real, upper)
        M = np.concatenate([phi, -h[:, None] * phi], axis=1)  # phi c - h phi c_sigma = h
        Mr = np.concatenate([M.real, M.imag])
        scale = np.linalg.norm(Mr, axis=0)
        scale[scale == 0] = 1.0
        x = np.linalg.lstsq(Mr / scale, hr, rcond=None)[0] / scale
        A, bv = _companion(real, upper)
        new = np.linalg.eigvals(A - np.outer(bv, x[phi.shape[1] :]))  # the zeros of sigma
        poles = _stable(new)  # _split keeps the real ones and one of each conjugate pair
    real, upper = _split(poles)
    phi = _basis(s, real, upper)
    # residues; with K(0) = 0: phi(0) c = 0 (phi(0) is real), by elimination (null space)
    phi0 = _basis(np.array([0.0 + 0.0j]), real, upper)[0].real
    Q = (np.linalg.svd(phi0[None, :])[2][1:].T if zero_at_origin
         else np.eye(phi.shape[1]))  # (n, n-1): a basis of {c : phi0 . c = 0}  # fmt: skip
    Pr = np.concatenate([phi.real, phi.imag]) @ Q
    scale = np.linalg.norm(Pr, axis=0)
    scale[scale == 0] = 1.0
    c = Q @ (np.linalg.lstsq(Pr / scale, hr, rcond=None)[0] / scale)
    A, bv = _companion(real, upper)
    fit = phi @ c
    err = float(np.sqrt(np.mean(np.abs(fit - h) ** 2)) / max(float(np.max(np.abs(h))), 1e-300))
    # s = w0 s~: c (s I - w0 A~)^-1 (w0 b~) = c (s~ I - A~)^-1 b~
    return w0 * A, w0 * bv, c, err


# -- time-domain identification (eigensystem realisation) ---------------------------------------


def _era(h: np.ndarray, order: int):
    """Eigensystem realisation (Kung / Juang-Pappa) of the impulse response samples ``h[1:]``:
    discrete ``(Ad, Bd, Cd)`` of ``order`` with ``h[k] = Cd Ad^(k-1) Bd``."""
    n = (len(h) - 2) // 2
    H0 = np.array([h[i + 1 : i + 1 + n] for i in range(n)])
    H1 = np.array([h[i + 2 : i + 2 + n] for i in range(n)])
    U, S, Vt = np.linalg.svd(H0)
    U, S, Vt = U[:, :order], S[:order], Vt[:order]
    sq, isq = np.sqrt(S), 1.0 / np.sqrt(S)
    Ad = (isq[:, None] * (U.T @ H1 @ Vt.T)) * isq[None, :]
    return Ad, (sq[:, None] * Vt)[:, 0], (U * sq[None, :])[0, :]


def _era_fit(h: np.ndarray, ds: float, order: int):
    """ERA of the samples ``h`` (every ``ds``) made continuous, or None when unstable:
    ``A = logm(Ad)/ds``, ``b = Ad^-1 Bd``, ``c = Cd``; with the RMS error of the samples."""
    from scipy.linalg import logm

    Ad, Bd, Cd = _era(h, order)
    if np.max(np.abs(np.linalg.eigvals(Ad))) >= 1.0:
        return None
    x = Bd.copy()
    pred = np.empty(len(h) - 1)
    for k in range(len(h) - 1):
        pred[k] = Cd @ x
        x = Ad @ x
    err = float(np.sqrt(np.mean((pred - h[1:]) ** 2)) / (float(np.max(np.abs(h))) or 1.0))
    A = logm(Ad) / ds
    if np.max(np.abs(np.imag(A))) > 1e-9 * max(np.max(np.abs(A)), 1.0):
        return None  # a real negative discrete pole has no continuous counterpart
    return np.real(A), np.linalg.solve(Ad, Bd), Cd.copy(), err


def fit_radiation_state_space(data, pairs, *, method: str = "fdi", tolerance: float = 1e-2,
                              max_order: int = 20, kernel=None, kernel_dt: float = 0.0125,
                              sample_dt: float = 0.1) -> list[EntryFit]:  # fmt: skip
    """State-space models of the kernel entries ``pairs`` ((i, j), 0-based) of one WAMIT body
    (``data``: :class:`floatwind.loads.wamit.WamitData`, per unit density or dimensional; the
    models follow it). ``fdi`` fits ``K(i omega)`` from ``data``; ``era`` realises ``kernel``
    ((N, 6, 6) samples every ``kernel_dt``, HydroDyn's kernel table) every ``sample_dt``."""
    if method not in METHODS:
        raise CaseError(f"state-space fit method {method!r}: expected one of {METHODS}")
    if method == "fdi":
        H = kernel_frequency_response(data.omega, data.added_mass, data.damping,
                                      data.added_mass_inf)  # fmt: skip
    else:
        step = max(1, int(round(sample_dt / kernel_dt)))
        ds = step * kernel_dt
    w = np.asarray(data.omega, dtype=float)
    out = []
    for i, j in pairs:
        if method == "fdi":
            orders = range(2, min(max_order, len(w) - 1) + 1, 2)
            best = _smallest_order((_stable_or_none(_fdi(w, H[:, i, j], m)) for m in orders),
                                   tolerance)  # fmt: skip
        else:
            h = kernel[::step, i, j]
            orders = range(2, min(max_order, (len(h) - 2) // 2 - 1) + 1, 2)
            best = _smallest_order((_era_fit(h, ds, m) for m in orders), tolerance)
        if best is None:
            raise CaseError(f"no stable state-space fit of the radiation kernel K{i + 1}{j + 1}")
        A, b, c, err = best
        out.append(EntryFit(int(i), int(j), A, b, c, err, err <= tolerance))
    return out


def _stable_or_none(fit):
    """A continuous fit ``(A, b, c, err)``, or None when ``A`` has a pole with real part >= 0."""
    return fit if np.max(np.linalg.eigvals(fit[0]).real) < 0.0 else None


def _smallest_order(fits, tolerance: float):
    """The first of ``fits`` (by increasing order; None = unstable) whose error reaches
    ``tolerance``, else the most accurate; None when none is stable."""
    best = None
    for fit in fits:
        if fit is None:
            continue
        if best is None or fit[3] < best[3]:
            best = fit
        if fit[3] <= tolerance:
            break
    return best


def fit_report(fits: list[EntryFit], method: str, tolerance: float) -> str:
    """One line: entries, orders, states and the largest error against the tolerance."""
    orders = sorted({f.a.shape[0] for f in fits})
    worst = max((f.error for f in fits), default=0.0)
    what = ("RMS |K(i omega)| error over the file frequencies" if method == "fdi"
            else "RMS kernel error")  # fmt: skip
    missed = [f"K{f.i + 1}{f.j + 1}" for f in fits if not f.converged]
    return (
        f"state-space radiation ({method}): {len(fits)} kernel entries, orders {orders}, "
        f"{sum(f.a.shape[0] for f in fits)} states, largest {what} {worst:.2e} of the entry's "
        f"peak (tolerance {tolerance:g})"
        + (f"; tolerance not reached for {', '.join(missed)}" if missed else "")
    )


# -- blocks of the compiled load ---------------------------------------------------------------


def _pack(blocks: list[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> SSBlocks:
    P = len(blocks)
    nmax = max((blk[0].shape[0] for blk in blocks), default=1)
    n_in = blocks[0][1].shape[1] if blocks else 6
    a, b, c = np.zeros((P, nmax, nmax)), np.zeros((P, nmax, n_in)), np.zeros((P, 6, nmax))
    orders, offsets = np.zeros(P, dtype=np.int64), np.zeros(P, dtype=np.int64)
    off = 0
    for q, (A, B, C) in enumerate(blocks):
        n = A.shape[0]
        a[q, :n, :n], b[q, :n], c[q, :, :n] = A, B, C
        orders[q], offsets[q] = n, off
        off += n
    return SSBlocks(orders, offsets, a, b, c, off)


def blocks_from_fits(fits: list[EntryFit], rho: float) -> SSBlocks:
    """The fitted entries (input ``v_j``, output ``F_i -= rho c x``) as the compiled load's
    blocks: the model :func:`hydrodyn_ss_from_fits` writes, split as a ``.ss`` file is."""
    ss = hydrodyn_ss_from_fits(fits, rho)
    return blocks_from_matrices(ss.a, ss.b, ss.c)


def blocks_from_matrices(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> SSBlocks:
    """A whole model ``dx/dt = a x + b u``, ``F = c x`` (a HydroDyn ``.ss`` file, ``u`` the six
    velocities, or ``.ssexctn``, ``b`` (n, 1) and ``u`` the wave elevation) split into its
    independent blocks: the connected groups of states of ``a``'s coupling pattern."""
    from scipy.sparse.csgraph import connected_components

    n_comp, label = connected_components((a != 0) | (a.T != 0), directed=False)
    blocks = []
    for q in range(n_comp):
        idx = np.flatnonzero(label == q)
        blocks.append((a[np.ix_(idx, idx)], b[idx], c[:, idx]))
    return _pack(blocks)


def hydrodyn_ss_from_fits(fits: list[EntryFit], rho: float):
    """The fitted entries as one HydroDyn ``.ss`` model (dimensional, ``F = C x``), states
    grouped by the DOF whose velocity drives them (the file's "states per DOF"; HydroDyn drops
    a disabled DOF's states, whose input is then zero), all six DOFs enabled."""
    from floatwind.loads.hydrodyn_ss import HydroDynSS

    fits = sorted(fits, key=lambda f: (f.j, f.i))
    n = sum(f.a.shape[0] for f in fits)
    a, b, c = np.zeros((n, n)), np.zeros((n, 6)), np.zeros((6, n))
    per_dof = np.zeros(6, dtype=np.int64)
    k = 0
    for f in fits:
        m = f.a.shape[0]
        a[k : k + m, k : k + m] = f.a
        b[k : k + m, f.j] = f.b
        c[f.i, k : k + m] = -rho * f.c
        per_dof[f.j] += m
        k += m
    return HydroDynSS(a, b, c, np.ones(6, dtype=bool), per_dof)


# -- wave excitation ----------------------------------------------------------------------------


def excitation_irf(omega, x, t) -> np.ndarray:
    """The excitation impulse response ``k(t) = (1/pi) int_0^inf Re[X(omega) e^{i omega t}]
    d omega`` (``F(t) = int k(tau) eta(t - tau) d tau`` with WAMIT's ``eta = Re A e^{i omega t}``)
    of ``x`` (F,) given at ``omega`` (F,), linear between them, the first value held down to
    omega = 0 (a long wave's force), zero above the last, at ``t``; it is not causal (the wave
    reaches the hull's far side after the origin)."""
    w = np.asarray(omega, dtype=float)
    grid = np.linspace(0.0, float(w[-1]), 4096)
    xr = np.interp(grid, w, np.real(x))
    xi = np.interp(grid, w, np.imag(x))
    ph = np.outer(np.asarray(t, dtype=float), grid)
    f = xr[None, :] * np.cos(ph) - xi[None, :] * np.sin(ph)
    return np.trapezoid(f, grid, axis=1) / np.pi


def causal_delay(omega, x, fraction: float = 1e-4, t_max: float = 60.0) -> float:
    """The smallest delay ``Tc`` (s, steps of 0.05 s) for which the part of the excitation impulse
    response before ``-Tc`` holds at most ``fraction`` of its energy (``int k^2``); the model
    then runs on the elevation at ``t + Tc`` (HydroDyn's ``Tc``)."""
    t = np.arange(-t_max, t_max + 1e-9, 0.05)
    e = excitation_irf(omega, x, t) ** 2
    before = np.cumsum(e) / np.sum(e)  # energy before t[k]
    k = int(np.searchsorted(before, fraction))
    return max(0.0, round(-float(t[min(k, len(t) - 1)]), 9))


def fit_excitation_state_space(omega, x, dofs, *, tc: float, tolerance: float = 1e-2,
                               max_order: int = 24) -> list[EntryFit]:  # fmt: skip
    """State-space models of the excitation ``x`` (F, 6) (per unit amplitude, one heading) for
    the DOFs ``dofs``: ``X_i(omega) e^{-i omega Tc} ~ c (i omega I - A)^-1 b`` (the delayed,
    nearly causal response; driven by the elevation at ``t + Tc``), by vector fitting without the
    zero at s = 0 (``X(0)`` is the hydrostatic force of a long wave); entries ``(i, -1)``."""
    w = np.asarray(omega, dtype=float)
    orders = range(2, min(max_order, len(w) - 1) + 1, 2)
    out = []
    for i in dofs:
        h = np.asarray(x[:, i]) * np.exp(-1j * w * tc)
        best = _smallest_order((_stable_or_none(_fdi(w, h, m, zero_at_origin=False))
                                for m in orders), tolerance)  # fmt: skip
        if best is None:
            raise CaseError(f"no stable state-space fit of the wave excitation X{i + 1}")
        A, b, c, err = best
        out.append(EntryFit(int(i), -1, A, b, c, err, err <= tolerance))
    return out


def exctn_matrices_from_fits(fits: list[EntryFit]):
    """The excitation fits as one model ``(a (n, n), b (n,), c (6, n), states per DOF)``, states
    grouped by the force they give (``.ssexctn``'s "states per DOF")."""
    fits = sorted(fits, key=lambda f: f.i)
    n = sum(f.a.shape[0] for f in fits)
    a, b, c = np.zeros((n, n)), np.zeros(n), np.zeros((6, n))
    per_dof = np.zeros(6, dtype=np.int64)
    k = 0
    for f in fits:
        m = f.a.shape[0]
        a[k : k + m, k : k + m], b[k : k + m], c[f.i, k : k + m] = f.a, f.b, f.c
        per_dof[f.i] += m
        k += m
    return a, b, c, per_dof
