"""Morison strips in the frequency domain: wave-inertia excitation and the stochastic
linearization of drag (as RAFT does: Hall et al., "RAFT", *Wind Energy Science* 7, 2022; the
equivalent linear damping of Borgman, "Ocean wave simulation for engineering design", *J.
Waterways and Harbors Div.* 95, 1969).

Per strip j (centre p_j of its wetted part at the operating point, axis e_j, wetted length l_j,
diameter D_j, area A_j, coefficients C_m, C_d) and each of its two normal directions n:

* wave inertia (Froude-Krylov + diffraction): ``F = rho C_m A_j l_j (n.a_w) n``, ``a_w = i omega
  u_w`` the Airy wave acceleration per unit amplitude at p_j (WAMIT's phase convention: elevation
  ``Re{e^{i(omega t - k.x)}}``); the body's ``-rho C_a A l a_n`` is in M already;
* drag ``0.5 rho C_d D |v_r| v_r`` replaced by ``b (n.v_r) n``, ``b = sqrt(8/pi) sigma_r 0.5 rho
  C_d D_j l_j``, ``sigma_r`` the standard deviation of the normal relative velocity ``n.(u_w -
  xd)`` in the sea state (a Gaussian process: the expected-square-error-minimising linear
  coefficient). It adds ``b J^T n n^T J`` to the damping and ``b J^T n n^T u_w`` to the
  excitation; sigma_r depends on the response, so the solve is iterated.

The strips' wetted length is cut at the still-water level at the operating point (the time
domain's wetted length follows the free surface). Axial end loads (heave plates) are refused.
"""

from __future__ import annotations

import math

import numpy as np

from floatwind.errors import CaseError

__all__ = ["strip_data", "wave_velocity", "MorisonFD"]


def _skew(r: np.ndarray) -> np.ndarray:
    """[r]x for r (S, 3) -> (S, 3, 3)."""
    z = np.zeros(r.shape[0])
    return np.stack([np.stack([z, -r[:, 2], r[:, 1]], -1), np.stack([r[:, 2], z, -r[:, 0]], -1),
                     np.stack([-r[:, 1], r[:, 0], z], -1)], axis=1)  # fmt: skip


def strip_data(load, kin, J_cm: np.ndarray, field: str) -> dict:
    """Wetted strips of a Morison load at the operating point: centres (S, 3), axes (S, 3),
    normals (S, 2, 3), lengths, diameters, areas, cm, cd (S,) and the Jacobians (S, 3, n) of
    the centres' translation w.r.t. x (from ``J_cm`` (6, n): the body CM's translation and the
    body's rotation)."""
    b = int(load.body)
    R = kin.R_b2g[0, b]
    cm_g = kin.r_G_g[0, b]
    cm_b = kin.cm_b[b]
    pa = cm_g + (load.strip_a_b - cm_b) @ R.T
    pb = cm_g + (load.strip_b_b - cm_b) @ R.T
    za, zb = pa[:, 2], pb[:, 2]
    lo, hi = np.minimum(za, zb), np.maximum(za, zb)
    with np.errstate(divide="ignore", invalid="ignore"):
        frac = np.where(hi <= 0.0, 1.0, np.where(lo >= 0.0, 0.0, (0.0 - lo) / (hi - lo)))
    wet = frac > 0
    # centre of the wetted part: from the lower end up to the surface
    low = np.where((za <= zb)[:, None], pa, pb)
    high = np.where((za <= zb)[:, None], pb, pa)
    centre = low + 0.5 * frac[:, None] * (high - low)
    e = load.strip_axis_b @ R.T
    ref = np.where(np.abs(e[:, 2:3]) < 0.9, np.array([0.0, 0.0, 1.0]), np.array([1.0, 0.0, 0.0]))
    n1 = np.cross(e, ref)
    n1 /= np.linalg.norm(n1, axis=1, keepdims=True)
    n2 = np.cross(e, n1)
    r = centre - cm_g
    J = J_cm[None, :3, :] - _skew(r) @ J_cm[None, 3:, :]  # u_p = u_G + theta x r
    return {
        "field": field,
        "ends": int(getattr(load, "end_pos_b", np.zeros((0, 3))).size // 3),
        "p": centre[wet],
        "n": np.stack([n1, n2], axis=1)[wet],
        "l": (frac * load.strip_length)[wet],
        "D": np.asarray(load.strip_diameter)[wet],
        "A": np.asarray(load.strip_area)[wet],
        "cm": np.asarray(load.strip_cm)[wet],
        "cd": np.asarray(load.strip_cd)[wet],
        "J": J[wet],
    }


def wave_velocity(omega, heading: float, p: np.ndarray, depth: float, g: float) -> np.ndarray:
    """Airy wave velocity (F, S, 3) per unit amplitude at points p (S, 3), z <= 0, for waves
    travelling toward ``heading`` (rad): ``u = omega c(z) (cos b, sin b) E``, ``w = i omega
    s(z) E``, ``E = e^{-i k (x cos b + y sin b)}``, c, s the cosh/sinh depth ratios."""
    from floatwind.environment.dispersion import wavenumber

    w = np.asarray(omega, float)
    k = wavenumber(w, depth, g)[:, None]
    z = np.minimum(p[None, :, 2], 0.0)
    if math.isfinite(depth):
        h = float(depth)
        den = 1.0 - np.exp(-2.0 * k * h)
        c = (np.exp(k * z) + np.exp(-k * (z + 2.0 * h))) / den
        s = (np.exp(k * z) - np.exp(-k * (z + 2.0 * h))) / den
    else:
        c = s = np.exp(k * z)
    cb, sb = math.cos(heading), math.sin(heading)
    E = np.exp(-1j * k * (p[None, :, 0] * cb + p[None, :, 1] * sb))
    u = np.empty((w.size, p.shape[0], 3), complex)
    u[..., 0] = w[:, None] * c * cb * E
    u[..., 1] = w[:, None] * c * sb * E
    u[..., 2] = 1j * w[:, None] * s * E
    return u


class MorisonFD:
    """The Morison strips of a linear model in one sea state from one heading."""

    def __init__(self, strips: list[dict], rho: float, depth: float, g: float, n: int):
        for st in strips:
            if st["ends"]:
                raise CaseError(
                    "Morison axial end loads (heave plates, end caps) are not in the "
                    "frequency-domain model",
                    field=st["field"],
                )
        self.strips = strips
        self.rho, self.depth, self.g, self.n = float(rho), float(depth), float(g), int(n)

    @property
    def has_drag(self) -> bool:
        return any(np.any(st["cd"] > 0) for st in self.strips)

    def excitation_inertia(self, omega, heading: float) -> np.ndarray:
        """Wave-inertia excitation (F, n) per unit amplitude."""
        out = np.zeros((np.size(omega), self.n), complex)
        for st in self.strips:
            u = wave_velocity(omega, heading, st["p"], self.depth, self.g)
            a = 1j * np.asarray(omega, float)[:, None, None] * u
            an = np.einsum("fsk,sdk->fsd", a, st["n"])  # normal components
            f = self.rho * (st["cm"] * st["A"] * st["l"])[None, :, None] * an
            F = np.einsum("fsd,sdk->fsk", f, st["n"])
            out += np.einsum("skn,fsk->fn", st["J"], F)
        return out

    def drag(self, omega, heading: float, sigma: list[np.ndarray]):
        """(damping (n, n), drag excitation (F, n)) for the relative-velocity standard
        deviations ``sigma`` (per load: (S, 2))."""
        C = np.zeros((self.n, self.n))
        X = np.zeros((np.size(omega), self.n), complex)
        for st, sg in zip(self.strips, sigma):
            b = (
                math.sqrt(8.0 / math.pi)
                * sg
                * (0.5 * self.rho * st["cd"] * st["D"] * st["l"])[:, None]
            )
            Jn = np.einsum("sdk,skn->sdn", st["n"], st["J"])  # (S, 2, n)
            C += np.einsum("sd,sdi,sdj->ij", b, Jn, Jn)
            u = wave_velocity(omega, heading, st["p"], self.depth, self.g)
            un = np.einsum("fsk,sdk->fsd", u, st["n"])
            X += np.einsum("sd,sdn,fsd->fn", b, Jn, un)
        return C, X

    def relative_sigma(self, omega, heading: float, xi: np.ndarray, S: np.ndarray):
        """sigma of the normal relative velocity per strip and direction from the response
        xi (F, n) in the sea spectrum S (F,)."""
        w = np.asarray(omega, float)
        out = []
        for st in self.strips:
            u = wave_velocity(w, heading, st["p"], self.depth, self.g)
            v = 1j * w[:, None, None] * np.einsum("skn,fn->fsk", st["J"], xi)
            vr = np.einsum("fsk,sdk->fsd", u - v, st["n"])
            out.append(np.sqrt(np.trapezoid(np.abs(vr) ** 2 * S[:, None, None], w, axis=0)))
        return out
