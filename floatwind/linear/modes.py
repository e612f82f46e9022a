"""Eigen-analysis of a linear model: natural periods, damping ratios, mode shapes.

``M xdd + C xd + K x = 0`` as the first-order system ``z' = S z``, ``S = [[0, I], [-M^-1 K,
-M^-1 C]]`` (e.g. Meirovitch, *Fundamentals of Vibrations*, 2001, sec. 7.16); an underdamped
mode is a pair ``lambda = -zeta omega_n +- i omega_n sqrt(1 - zeta^2)``: natural period
``2 pi / omega_n``, damped period ``2 pi / omega_d`` (``omega_d = Im lambda``, the interval of
upward zero crossings of a free decay), damping ratio ``zeta = -Re lambda / |lambda|``.

Potential flow: the matrices of :func:`~floatwind.linear.matrices.linearize` hold the
infinite-frequency added mass; mode k is solved with ``M - A_inf + A(omega_k)`` and ``C +
B(omega_k)`` at its own damped frequency, iterated to a fixed point (the mode followed by the
modal assurance criterion; RAFT and the OC3 definition take the same frequency-dependent
coefficients, Jonkman 2010 sec. 3). ``potential="infinite"`` keeps the infinite-frequency added
mass and no radiation damping instead: the eigen-analysis FAST v7 could make of a WAMIT hull
(its linearization had no radiation memory; HydroDyn's was first linearised in OpenFAST in
2020, pull request #350), i.e. the convention of the natural frequencies published for OC3
(Jonkman 2010, NREL/TP-500-47535); docs/linearization.md, "Published OC3 values".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from floatwind.errors import CaseError
from floatwind.linear.matrices import Linearization, dominant_dof

__all__ = ["Modes", "modes", "eigen"]


@dataclass
class Modes:
    """Modes sorted by natural frequency (one per DOF)."""

    omega_n: np.ndarray  # (n,) rad/s, undamped natural frequency |lambda|
    omega_d: np.ndarray  # (n,) rad/s, damped frequency Im lambda (0: overdamped)
    damping_ratio: np.ndarray  # (n,)
    shape: np.ndarray  # (n, n) complex: row k = mode k, normalised to 1 at its largest entry
    dof: list[str]  # dominant DOF per mode
    added_mass: np.ndarray  # (n, n, n) potential-flow A(omega_k) used for mode k
    radiation_damping: np.ndarray  # (n, n, n) B(omega_k) used for mode k
    iterations: np.ndarray  # (n,) fixed-point iterations per mode
    #: potential-flow convention: 'at_mode' (A, B at each mode's frequency) or 'infinite'
    potential: str = "at_mode"

    @property
    def period(self) -> np.ndarray:
        with np.errstate(divide="ignore"):
            return np.where(self.omega_n > 0, 2 * np.pi / self.omega_n, np.inf)

    @property
    def damped_period(self) -> np.ndarray:
        with np.errstate(divide="ignore"):
            return np.where(self.omega_d > 0, 2 * np.pi / self.omega_d, np.inf)


def eigen(M, C, K):
    """The n modes of M, C, K as (omega_n, zeta, omega_d, displacement vector), sorted by
    omega_n: for each underdamped pair the root with Im > 0; for an overdamped mode its two real
    roots (paired by their vectors) merged into omega_n = sqrt(l1 l2), zeta = -(l1 + l2) /
    (2 omega_n), omega_d = 0; a root pair of opposite signs (negative stiffness) gives a
    negative omega_n."""
    n = M.shape[0]
    Minv = np.linalg.inv(M)
    S = np.zeros((2 * n, 2 * n))
    S[:n, n:] = np.eye(n)
    S[n:, :n] = -Minv @ K
    S[n:, n:] = -Minv @ C
    lam, V = np.linalg.eig(S)
    tol = 1e-9 * max(float(np.max(np.abs(lam))), 1e-12)
    modes = []
    cplx = np.nonzero(lam.imag > tol)[0]
    for i in cplx:
        w = abs(lam[i])
        modes.append((w, -lam[i].real / w if w > 0 else np.nan, lam[i].imag, V[:n, i]))
    real = [i for i in range(2 * n) if abs(lam[i].imag) <= tol]
    # pair the real roots by the similarity of their displacement vectors
    real.sort(key=lambda i: lam[i].real)
    used = set()
    for a in real:
        if a in used:
            continue
        used.add(a)
        best, mac = None, -1.0
        va = V[:n, a]
        for b in real:
            if b in used:
                continue
            vb = V[:n, b]
            m = abs(np.vdot(va, vb)) ** 2 / max(np.vdot(va, va).real * np.vdot(vb, vb).real, 1e-300)
            if m > mac:
                best, mac = b, m
        if best is None:
            modes.append((0.0, np.nan, 0.0, va))
            continue
        used.add(best)
        l1, l2 = lam[a].real, lam[best].real
        prod = l1 * l2
        if prod < 0:  # one root positive: unstable (negative stiffness)
            w = -math.sqrt(-prod)
        else:
            w = math.sqrt(prod)
        z = -(l1 + l2) / (2 * w) if w > 0 else np.nan
        modes.append((w, z, 0.0, va))
    modes.sort(key=lambda m: m[0])
    return modes


def _normalise(v: np.ndarray) -> np.ndarray:
    k = int(np.argmax(np.abs(v)))
    return v / v[k] if v[k] != 0 else v


def _mac(a: np.ndarray, b: np.ndarray, M: np.ndarray) -> float:
    num = abs(np.vdot(a, M @ b)) ** 2
    den = abs(np.vdot(a, M @ a)) * abs(np.vdot(b, M @ b))
    return float(num / den) if den > 0 else 0.0


def check_stability(lin: Linearization) -> None:
    """One line naming the DOF of an unstable equilibrium (a mode with negative stiffness)."""
    M, K = lin.M, lin.K
    lam, V = np.linalg.eig(np.linalg.solve(M, K))
    k = int(np.argmin(lam.real))
    if lam[k].real < -1e-9 * max(float(np.max(np.abs(lam))), 1e-300):
        v = V[:, k]
        dof = dominant_dof(v, M, lin.dof, lin.cm_offset)
        i = lin.dof.index(dof)
        unit = "N/m" if lin.units[i] == "m" else "N m/rad"
        raise CaseError(
            f"unstable equilibrium: negative stiffness in {dof} (K_{dof} = {K[i, i]:.4g} {unit}, "
            f"omega^2 = {lam[k].real:.3g} 1/s^2 for the mode it dominates)",
            field="--at",
        )


#: how potential-flow radiation enters the modes (module docstring)
POTENTIAL = ("at_mode", "infinite")


def modes(lin: Linearization, *, tol: float = 1e-10, max_iter: int = 100,
          potential: str = "at_mode") -> Modes:  # fmt: skip
    """Modes of a linear model, potential flow at each mode's own frequency (``at_mode``) or
    the infinite-frequency added mass without radiation damping (``infinite``; module
    docstring)."""
    if potential not in POTENTIAL:
        raise CaseError(f"unknown potential-flow convention {potential!r}; one of "
                        f"{', '.join(POTENTIAL)}", field="--potential")  # fmt: skip
    check_stability(lin)
    n = lin.n
    A_inf = lin.added_mass_inf()
    M0 = lin.M - A_inf
    base = eigen(lin.M, lin.C, lin.K)
    wn, wd, zeta = np.zeros(n), np.zeros(n), np.zeros(n)
    shapes = np.zeros((n, n), complex)
    Am, Bm = np.zeros((n, n, n)), np.zeros((n, n, n))
    its = np.zeros(n, dtype=int)
    for k, (w, z, w_d, v) in enumerate(base):
        if not lin.radiation or potential == "infinite":
            wn[k], zeta[k], wd[k], shapes[k] = w, z, w_d, _normalise(v)
            Am[k] = A_inf
            continue
        omega, shape, it, done = (w_d if w_d > 0 else w), v, 0, False
        while not done:
            it += 1
            if it > max_iter:
                raise CaseError(
                    f"the potential-flow coefficients at the frequency of the mode near "
                    f"{2 * np.pi / omega:.4g} s do not settle in {max_iter} iterations",
                    field="loads",
                )
            A, B = lin.radiation_at(omega)
            cand = eigen(M0 + A, lin.C + B, lin.K)
            j = int(np.argmax([_mac(shape, c[3], lin.M) for c in cand]))
            w2, z2, wd2, v2 = cand[j]
            new = wd2 if wd2 > 0 else w2
            done = abs(new - omega) <= tol * max(abs(omega), 1e-12)
            omega, shape = new, v2
        Am[k], Bm[k] = lin.radiation_at(omega)
        wn[k], zeta[k], wd[k], shapes[k], its[k] = w2, z2, wd2, _normalise(v2), it
    order = np.argsort(wn)
    zeta = np.where(np.abs(zeta) < 1e-10, 0.0, zeta)  # round-off of an undamped mode
    shapes = shapes[order]
    dofs = [dominant_dof(s, lin.M, lin.dof, lin.cm_offset) for s in shapes]
    return Modes(omega_n=wn[order], omega_d=wd[order], damping_ratio=zeta[order], shape=shapes,
                 dof=dofs, added_mass=Am[order], radiation_damping=Bm[order],
                 iterations=its[order], potential=potential)  # fmt: skip
