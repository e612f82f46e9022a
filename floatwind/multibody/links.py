"""Free rigid bodies joined by body links (Lagrange multipliers), SeaFEM (seed 002).

Every body i has its own Newton and Euler equations (7-5), (7-6) about its CM in a local frame
parallel to the inertial axes, with the instantaneous inertia tensor I_i = R_i I_b,i R_i^T:

    m_i a_i = f_i,        I_i alpha_i = m_i - w_i x (I_i w_i)

Body links are nonlinear constraints f_l(X) = b_l (7-8), linearised at each iteration (7-9),
(7-10) and imposed with Lagrange multipliers in the saddle-point system (7-19); with the
Bossak-Newmark scheme (7-21)-(7-23) the unknowns are (1 - alpha) u and lambda, where
u = [a_1, alpha_1, ..., a_N, alpha_N] and c comes from (7-18). Reactions: R = -A^T lambda (7-20).

The positions X of a body are its CM and its orientation; the orientation increments are
rotation vectors in inertial axes (R_{n+1} = exp(theta) R_n, theta the Newmark increment (7-11)
of the angular velocity), so the scheme holds for large rotations.

Equation numbers: docs/bossak.md numbers the chapter's displayed equations (7-1) .. (7-23).

A :class:`LinkedBodies` is, at the same time,

* a first-order right-hand side ``rhs(t, y)`` (index-1 form: the links at acceleration level,
  A u = -(dA/dt) v) for RK4 and for the recording's dense output, and
* a problem that the Bossak-Newmark integrator steps with the nested loops of the chapter
  (:meth:`LinkedBodies.bossak_step`): a loads loop (loads re-evaluated at the iterate, Aitken
  relaxed) around a body-dynamics loop (loads fixed; inertia, gyroscopic term and the
  linearised links updated until the links hold to ``link_tol``).

The flat state of B members is ``y = [r (N 3), R (N 9), v (N 3), w (N 3)]`` (B, 18 N): CM
positions, body-to-inertial matrices (row-major), CM velocities, angular velocities (inertial).
Loads come from ``forces(t, r_G_g, R_b2g, v_G_g, w_b_g) -> (F, M, A)``: forces and moments about
each CM (B, N, 3), inertial axes, and the added-mass matrices (B, N, 6, 6) or None.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from floatwind.errors import SimulationError
from floatwind.integrate.bossak import _rowdot  # batch-invariant row dot product
from floatwind.rotation.rotvec import exp_so3, log_so3, skew
from floatwind.rotation.vec import cross, matvec

__all__ = ["LinkedBodies", "WeldLink", "unpack", "pack"]


@dataclass(frozen=True)
class WeldLink:
    """Rigid link of body ``b`` to body ``a`` at a point: six constraints (7-8).

    ``p_a`` / ``p_b``: the link point relative to each body's CM in that body's frame; ``C0``:
    the relative orientation R_a^T R_b that the link keeps. Residual f - b: the gap between the
    two material points (3) and the rotation vector of R_a C0 R_b^T (3), inertial axes.
    """

    a: int
    b: int
    p_a: np.ndarray
    p_b: np.ndarray
    C0: np.ndarray
    name: str = "link"

    n_eq = 6

    def arms(self, R: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return matvec(R[:, self.a], self.p_a), matvec(R[:, self.b], self.p_b)

    def residual(self, r: np.ndarray, R: np.ndarray) -> np.ndarray:
        """f(X) - b (B, 6) (7-8)."""
        ra, rb = self.arms(R)
        gap = r[:, self.a] + ra - r[:, self.b] - rb
        E = R[:, self.a] @ self.C0 @ np.swapaxes(R[:, self.b], -1, -2)
        return np.concatenate([gap, log_so3(E)], axis=1)

    def jacobian(self, R: np.ndarray, n_bodies: int) -> np.ndarray:
        """A (B, 6, 6 N): d(f)/d(X) for CM displacements and inertial rotation increments (7-16)."""
        B = R.shape[0]
        ra, rb = self.arms(R)
        A = np.zeros((B, 6, 6 * n_bodies))
        eye = np.eye(3)
        ia, ib = 6 * self.a, 6 * self.b
        A[:, 0:3, ia : ia + 3] = eye
        A[:, 0:3, ia + 3 : ia + 6] = -skew(ra)  # d(theta x ra) = -~ra dtheta
        A[:, 0:3, ib : ib + 3] = -eye
        A[:, 0:3, ib + 3 : ib + 6] = skew(rb)
        A[:, 3:6, ia + 3 : ia + 6] = eye  # log(exp(da) E exp(-db)) ~ da - db near E = I
        A[:, 3:6, ib + 3 : ib + 6] = -eye
        return A

    def bias(self, R: np.ndarray, w: np.ndarray) -> np.ndarray:
        """(dA/dt) v (B, 6): the velocity terms of the links' second time derivative."""
        ra, rb = self.arms(R)
        wa, wb = w[:, self.a], w[:, self.b]
        pos = cross(wa, cross(wa, ra)) - cross(wb, cross(wb, rb))
        return np.concatenate([pos, np.zeros_like(pos)], axis=1)


def unpack(y: np.ndarray, N: int):
    """(r, R, v, w) from the flat state (B, 18 N)."""
    B = y.shape[0]
    r = y[:, : 3 * N].reshape(B, N, 3)
    R = y[:, 3 * N : 12 * N].reshape(B, N, 3, 3)
    v = y[:, 12 * N : 15 * N].reshape(B, N, 3)
    w = y[:, 15 * N : 18 * N].reshape(B, N, 3)
    return r, R, v, w


def pack(r, R, v, w) -> np.ndarray:
    B = r.shape[0]
    return np.concatenate(
        [r.reshape(B, -1), R.reshape(B, -1), v.reshape(B, -1), w.reshape(B, -1)], axis=1
    )


def _rowmax(a: np.ndarray) -> np.ndarray:
    return np.abs(a).max(axis=1) if a.shape[1] else np.zeros(a.shape[0])


@dataclass
class LinkedBodies:
    """N free rigid bodies (masses (N,), inertias about the CMs in body axes (N, 3, 3)), body
    links and a loads function; see the module docstring."""

    mass: np.ndarray
    inertia_b: np.ndarray
    links: list
    forces: Callable
    link_tol: float = 1e-12
    max_inner: int = 20

    def __post_init__(self):
        self.mass = np.asarray(self.mass, dtype=float)
        self.inertia_b = np.asarray(self.inertia_b, dtype=float)
        self.N = len(self.mass)
        self.n_c = sum(lk.n_eq for lk in self.links)
        self.n_y = 18 * self.N

    # ------------------------------------------------------------ pieces of (7-19) / (7-23)
    def _mass_rhs(self, R, w, F, Mo, A_add):
        """Block mass matrix (B, 6N, 6N) with the instantaneous inertia and the added mass, and
        the generalized load (B, 6N): [f_i; m_i - w_i x (I_i w_i)] (7-5), (7-6)."""
        B, N = R.shape[0], self.N
        I_g = R @ self.inertia_b[None] @ np.swapaxes(R, -1, -2)  # instantaneous inertia, (7-6)
        gyro = cross(w, matvec(I_g, w))
        Mb = np.zeros((B, N, 6, 6))
        Mb[..., 0:3, 0:3] = self.mass[None, :, None, None] * np.eye(3)
        Mb[..., 3:6, 3:6] = I_g
        if A_add is not None:
            Mb = Mb + A_add
        M = np.zeros((B, 6 * N, 6 * N))
        for i in range(N):
            M[:, 6 * i : 6 * i + 6, 6 * i : 6 * i + 6] = Mb[:, i]
        Fg = np.concatenate([F, Mo - gyro], axis=2).reshape(B, 6 * N)
        return M, Fg

    def _links(self, r, R):
        if not self.links:
            B = r.shape[0]
            return np.zeros((B, 0, 6 * self.N)), np.zeros((B, 0))
        A = np.concatenate([lk.jacobian(R, self.N) for lk in self.links], axis=1)
        res = np.concatenate([lk.residual(r, R) for lk in self.links], axis=1)
        return A, res

    def _saddle(self, M, A, rhs_top, rhs_bot):
        """Solve [[M, A^T], [A, 0]] [z; lam] = [rhs_top; rhs_bot] (7-19), (7-23).

        The matrix mixes masses (1e6 kg), inertias (1e10 kg m^2) and lever arms: it is solved
        equilibrated, D K D (D z_s, ...) with D = diag(M)^-1/2 on the bodies' rows and the
        inverse row norms of A D on the links' rows, so that round-off does not limit the
        iterations."""
        n, nc = M.shape[1], A.shape[1]
        B = M.shape[0]
        d = 1.0 / np.sqrt(np.einsum("bii->bi", M))
        AD = A * d[:, None, :]
        if nc:
            s = 1.0 / np.sqrt((AD * AD).sum(axis=2))
        else:
            s = np.zeros((B, 0))
        SAD = AD * s[:, :, None]
        K = np.zeros((B, n + nc, n + nc))
        K[:, :n, :n] = M * d[:, :, None] * d[:, None, :]
        K[:, :n, n:] = np.swapaxes(SAD, -1, -2)
        K[:, n:, :n] = SAD
        rhs = np.concatenate([rhs_top * d, rhs_bot * s], axis=1)
        sol = np.linalg.solve(K, rhs[..., None])[..., 0]
        return sol[:, :n] * d, sol[:, n:] * s

    # ------------------------------------------------------------ first-order form
    def accelerations(self, t, y):
        """(u, lam): accelerations (B, 6N) and multipliers from (7-19) with the links at
        acceleration level (A u = -(dA/dt) v): the index-1 form used by :meth:`rhs`."""
        r, R, v, w = unpack(y, self.N)
        F, Mo, A_add = self.forces(t, r, R, v, w)
        M, Fg = self._mass_rhs(R, w, F, Mo, A_add)
        A, _ = self._links(r, R)
        if self.links:
            bias = np.concatenate([lk.bias(R, w) for lk in self.links], axis=1)
        else:
            bias = np.zeros((y.shape[0], 0))
        return self._saddle(M, A, Fg, -bias)

    def rhs(self, t, y):
        u, _ = self.accelerations(t, y)
        return self._rate(y, u)

    __call__ = rhs

    def _rate(self, y, u):
        r, R, v, w = unpack(y, self.N)
        B = y.shape[0]
        u = u.reshape(B, self.N, 6)
        dR = skew(w) @ R
        return pack(v, dR, u[..., 0:3], u[..., 3:6])

    def acceleration_part(self, f: np.ndarray) -> np.ndarray:
        """u (B, 6N) from a state rate f = rhs(t, y)."""
        B = f.shape[0]
        a = f[:, 12 * self.N : 15 * self.N].reshape(B, self.N, 3)
        al = f[:, 15 * self.N :].reshape(B, self.N, 3)
        return np.concatenate([a, al], axis=2).reshape(B, 6 * self.N)

    def reactions(self, lam: np.ndarray, A: np.ndarray) -> np.ndarray:
        """R = -A^T lambda (B, N, 6): force and moment about each CM, inertial axes (7-20)."""
        B = lam.shape[0]
        return -matvec(np.swapaxes(A, -1, -2), lam).reshape(B, self.N, 6)

    # ------------------------------------------------------------ Bossak-Newmark step
    def bossak_step(self, t, y, a_n, h, params, *, rtol, atol, max_iter, aitken):
        """One Bossak-Newmark step from (t, y) with the algorithmic acceleration ``a_n`` (B, 6N).

        Nested loops (chapter, "Body dynamics iterative solver"): the loads loop re-evaluates the
        loads at the iterate and relaxes the iterate with Aitken's method; inside it the
        body-dynamics loop keeps the loads, updates the instantaneous inertia, the gyroscopic
        term and the linearised links (7-9) and solves (7-23) until the links hold.

        Returns (a_new, y_new, f_new, info) with info: 'outer' (B,) loads-loop and 'inner' (B,)
        body-loop iteration counts, 'lam' (B, n_c) multipliers of (7-23), 'u_eff' the
        acceleration (1 - alpha) a_new + alpha a_n that balances F + R (7-21).
        """
        al, ga, be = params.alpha, params.gamma, params.beta
        N, B = self.N, y.shape[0]
        r, R, v, w = unpack(y, N)
        an = a_n.reshape(B, N, 6)
        bh2, gh = be * h * h, ga * h
        # Newmark predictors (7-11): the parts known at t_n
        r_p = r + h * v + (h * h * (0.5 - be)) * an[..., 0:3]
        th_p = h * w + (h * h * (0.5 - be)) * an[..., 3:6]
        v_p = v + (h * (1.0 - ga)) * an[..., 0:3]
        w_p = w + (h * (1.0 - ga)) * an[..., 3:6]
        t1 = t + h

        def state(u):
            uu = u.reshape(B, N, 6)
            r1 = r_p + bh2 * uu[..., 0:3]
            R1 = exp_so3(th_p + bh2 * uu[..., 3:6]) @ R  # large rotations: inertial increment
            return r1, R1, v_p + gh * uu[..., 0:3], w_p + gh * uu[..., 3:6]

        # the acceleration resolution that the positions' round-off allows: c of (7-18) divides
        # the links' residual (~ eps |X|) by beta h^2, so no criterion may ask for less
        floor = 16.0 * np.finfo(float).eps * (_rowmax(r.reshape(B, -1)) + 1.0) / bh2
        u = a_n.copy()
        active = np.ones(B, dtype=bool)
        outer = np.zeros(B, dtype=int)
        inner = np.zeros(B, dtype=int)
        omega = np.ones(B)
        res_prev = None
        out_u = np.empty_like(u)
        out_lam = np.empty((B, self.n_c))
        out_y = np.empty_like(y)
        out_f = np.empty_like(y)
        for k in range(max_iter):
            s = state(u)
            F, Mo, A_add = self.forces(t1, *s)  # loads loop: loads at the iterate
            # body-dynamics loop: loads fixed
            ui = u.copy()
            inner_active = active.copy()
            for _j in range(self.max_inner):
                r1, R1, v1, w1 = state(ui)
                M, Fg = self._mass_rhs(R1, w1, F, Mo, A_add)
                A, res = self._links(r1, R1)
                Ma_n = matvec(M, a_n)  # alpha M a_n of (7-22), instantaneous M
                c = -res / bh2 + matvec(A, ui)  # (7-18)
                z, lam = self._saddle(M, A, Fg - al * Ma_n, (1.0 - al) * c)  # (7-23)
                u_new = z / (1.0 - al)
                du = _rowmax(u_new - ui)
                inner[inner_active] += 1
                ui = np.where(inner_active[:, None], u_new, ui)
                ok = (du <= atol + floor + rtol * _rowmax(u_new)) & (_rowmax(res) <= self.link_tol)
                inner_active &= ~ok
                if not inner_active.any():
                    break
            r_k = ui - u  # loads-loop residual
            outer[active] = k + 1
            tol = atol + floor + rtol * _rowmax(ui)
            done = active & (_rowmax(r_k) <= tol)
            if done.any():
                s1 = state(ui)
                y1 = pack(*s1)
                out_u[done], out_y[done] = ui[done], y1[done]
                out_lam[done] = lam[done]
                ueff = (1.0 - al) * ui + al * a_n
                out_f[done] = self._rate(y1, ueff)[done]
                active &= ~done
            if not active.any():
                ueff = (1.0 - al) * out_u + al * a_n
                info = {"outer": outer, "inner": inner, "lam": out_lam, "u_eff": ueff}
                return out_u, out_y, out_f, info
            if aitken and res_prev is not None:
                d = r_k - res_prev
                dd = _rowdot(d, d)
                okd = dd > 0.0
                omega = np.where(okd, -omega * _rowdot(res_prev, d) / np.where(okd, dd, 1.0), omega)
            u = np.where(active[:, None], u + omega[:, None] * r_k, u)
            res_prev = r_k
        raise SimulationError(
            f"Bossak-Newmark loads loop of the linked bodies did not converge in {max_iter} "
            "iterations",
            time=t1,
            state=y,
            members=np.nonzero(active)[0].tolist(),
        )
