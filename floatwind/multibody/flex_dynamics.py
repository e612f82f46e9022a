"""Tower bending modes as degrees of freedom of the momentum cloud (issue 37; docs/multibody.md,
"Flexible tower").

The tree's base body is the platform alone; the tower is ElastoDyn's chain of point masses
(:class:`~floatwind.multibody.flex_tower.TowerModes`), and every body hanging from the tower top
(nacelle, rotor, blades: the subtree of the tree's joints whose parent is the base body at the
tower top) rides on the deflected tower. With modal coordinates q (n,) and rates q':

* node J (height h_J):  r_J = b + h_J z + sum_k phi_k(h_J) q_k e_k - 1/2 sum_kl AxRed_kl(J)
  q_k q_l z  (ElastoDyn ``CalculatePositions``: rZT; e_k = x fore-aft, y side-side);
  partial velocity L_Jk = phi_k(h_J) e_k - sum_l AxRed_kl(J) q_l z, and with q'' = 0 its
  acceleration -sum_kl AxRed_kl(J) q_k' q_l' z (ElastoDyn ``PLinVelET``, ``LinAccETt``);
* the tower top T the same with the top values, turned by R_F = Rx(th_x) Ry(th_y),
  th_y = sum_FA phi_k'(L) q_k, th_x = -sum_SS phi_k'(L) q_k (ElastoDyn ``SetCoordSy``: fore-aft
  by -phi' q about a3 = -y, side-side by phi' QT about a1 with QT = -q); its angular velocity
  w_F = th_x' x + th_y' Rx y (exact for this parametrisation; ElastoDyn uses the small-angle
  sum, equal to first order), partial angular velocities E_k;
* a body i above the top: r_i = r_T + R_F s_i (s_i its rigid offset from the undeflected top),
  R_i = R_F R_i0, w_i = w_F + R_F w_i0, and the derivatives by the chain rule; its partials
  E_k and L_ik = L_Tk + E_k x (R_F s_i).

The equations are the joint-DOF rows of docs/multibody.md ("Joint DOFs") with these partial
velocities: Kane's form sum_i [v_ik . (m_i a_i - F_i) + w_ik . (dH_i/dt - M_i)] = Q_k with the
elastic and damping forces Q = -K q - C q' (ElastoDyn ``Coeff``: KTFA, CTFA); the weight of
the nodes and of the top mass enters through the axial-shortening part of the partial velocities
(the gravity softening, which ElastoDyn's KTFAGrav summarises for its printed frequencies);
the base rows get the modes in dQ (Wang 5.20) as for a joint.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from floatwind.multibody.flex_tower import MODE_DIRECTION, MODE_NAMES, TowerModes
from floatwind.multibody.mcm import (
    Accelerations,
    MassDistribution,
    RelativeKinematics,
)
from floatwind.rotation import euler123_matrix, re_vector, skew, t_omega
from floatwind.rotation.vec import cross

__all__ = ["FlexTower"]


def _mv(M, v):
    """M v for stacks of small matrices and vectors (the products summed in order)."""
    out = M[..., :, 0] * v[..., 0, None]
    for j in range(1, M.shape[-1]):
        out += M[..., :, j] * v[..., j, None]
    return out


def _rv(R, X):
    """R x for every point of a member: R (B, 3, 3), X (B, P, 3), one (P, 3) x (3, 3) product
    per member (X R^T)."""
    return np.matmul(X, np.swapaxes(R, -1, -2))


def _rm(R, X):
    """R X for every point of a member: R (B, 3, 3), X (B, P, 3, k), one (3, 3) x (3, P k)
    product per member."""
    B, P, _, k = X.shape
    Y = np.ascontiguousarray(np.swapaxes(X, 1, 2)).reshape(B, 3, P * k)
    return np.swapaxes((R @ Y).reshape(B, 3, P, k), 1, 2)


def _mm(A, B):
    """A @ B for stacks of small matrices, the k products summed in order element-wise over
    the stack (numpy's ``@`` calls BLAS once per matrix, ~0.35 us each: most of the output
    channels' time on (time, point) stacks; docs/performance.md, "Flexible tower")."""
    out = A[..., :, 0, None] * B[..., 0, None, :]
    for j in range(1, A.shape[-1]):
        out += A[..., :, j, None] * B[..., j, None, :]
    return out


@dataclass
class FlexTower:
    """The tower model prepared for a tree (see the module docstring)."""

    modes: TowerModes
    tree: object
    top_b: np.ndarray  # (3,) tower-top point in the base body's reference frame

    def __post_init__(self):
        tm, tree = self.modes, self.tree
        act = list(tm.active)
        self.n = len(act)
        self.names = [MODE_NAMES[k] for k in act]
        phi, d1, _d2 = tm.shapes()
        it = tm.integrals()
        J = tm.h.size
        self.J = J
        self.phi = phi[act]  # (n, J + 1), last = top
        # ElastoDyn CalculatePositions: the tower top moves by QT itself (rZO = (QT(TFA1) +
        # QT(TFA2)) a1 + ...), not by SHP(1) QT (the coefficients sum to 1 within 0.001)
        self.phi[:, J] = 1.0
        self.slope_top = d1[act, J]  # (n,)
        self.slope_nodes = d1[act, :J]  # (n, J): the gages' local frames
        self.axred = it["axred"][np.ix_(act, act)]  # (n, n, J + 1)
        K, C = tm.stiffness_damping()
        self.K = K[np.ix_(act, act)]
        self.C = C[np.ix_(act, act)]
        self.e = np.array([[1.0, 0.0, 0.0] if MODE_DIRECTION[k] == 0 else [0.0, 1.0, 0.0]
                           for k in act]).reshape(self.n, 3)  # fmt: skip
        self.is_fa = np.array([MODE_DIRECTION[k] == 0 for k in act], dtype=bool)
        cm0 = tree.cm_b[0]
        # undeflected node and top positions relative to the base CM (base frame C_1)
        self.node0 = tm.base[None, :] + tm.h[:, None] * np.array([0.0, 0.0, 1.0]) - cm0
        self.top0 = np.asarray(self.top_b, dtype=float) - cm0
        # the nodes, then the tower top as a massless point (its acceleration for the outputs)
        self.node0 = np.vstack([self.node0, self.top0[None]])
        self.node_mass = np.append(tm.mass, 0.0)
        # bodies riding on the tower top: all but the base
        self.riders = [i for i in range(tree.n_bodies) if i != 0]
        self.mass_ext = np.concatenate([tree.mass, self.node_mass])
        self.inertia_ext = np.concatenate([tree.inertia_b, np.zeros((J + 1, 3, 3))])
        self.total_mass = float(self.mass_ext.sum())
        self.gravity = tm.gravity

    # ------------------------------------------------------------------ kinematics
    def _top_frame(self, q, qd):
        """R_F, w_F, dw_F (q''=0) and E (B, 3, n) of the tower top, base frame."""
        B = q.shape[0]
        s = self.slope_top
        thy = (q * np.where(self.is_fa, s, 0.0)).sum(axis=1)
        thx = -(q * np.where(self.is_fa, 0.0, s)).sum(axis=1)
        thyd = (qd * np.where(self.is_fa, s, 0.0)).sum(axis=1)
        thxd = -(qd * np.where(self.is_fa, 0.0, s)).sum(axis=1)
        if self.modes.top_rotation == "elastodyn":
            return self._top_frame_elastodyn(thx, thy, thxd, thyd)
        cx, sx, cy, sy = np.cos(thx), np.sin(thx), np.cos(thy), np.sin(thy)
        Rx = np.zeros((B, 3, 3))
        Rx[:, 0, 0] = 1.0
        Rx[:, 1, 1], Rx[:, 1, 2], Rx[:, 2, 1], Rx[:, 2, 2] = cx, -sx, sx, cx
        Ry = np.zeros((B, 3, 3))
        Ry[:, 1, 1] = 1.0
        Ry[:, 0, 0], Ry[:, 0, 2], Ry[:, 2, 0], Ry[:, 2, 2] = cy, sy, -sy, cy
        RF = _mm(Rx, Ry)
        ex = np.broadcast_to(np.array([1.0, 0.0, 0.0]), (B, 3))
        ey_r = Rx[:, :, 1]  # Rx y
        E = np.zeros((B, 3, self.n))
        for k in range(self.n):
            if self.is_fa[k]:
                E[:, :, k] = s[k] * ey_r
            else:
                E[:, :, k] = -s[k] * ex
        w = thxd[:, None] * ex + thyd[:, None] * ey_r
        dw = (thxd * thyd)[:, None] * cross(ex, ey_r)
        return RF, w, dw, E, thx, thy

    def _top_frame_elastodyn(self, thx, thy, thxd, thyd):
        """ElastoDyn's tower top (``SetCoordSy``): R_F = SmllRotTrans(ThetaSS, 0, ThetaFA) (the
        orthonormalised small-angle matrix, NWTC_Num.f90), ThetaSS = th_x about a1 = x,
        ThetaFA = -th_y about a3 = -y; the angular velocity the linear sum of the slopes,
        w_F = th_x' x + th_y' y, with constant partials (``PAngVelEB``: dw_F|q''=0 = 0)."""
        B = thx.shape[0]
        t1, t3 = thx, -thy
        S = t1 * t1 + t3 * t3
        S_safe = np.where(S > 0.0, S, 1.0)
        sq = np.sqrt(1.0 + S)
        D = S_safe * sq
        t13 = t1 * t3 * (sq - 1.0)
        T = np.zeros((B, 3, 3))  # b_i = sum_j T_ij a_j (Theta2 = 0)
        T[:, 0, 0] = (t1 * t1 * sq + t3 * t3) / D
        T[:, 1, 1] = (t1 * t1 + t3 * t3) / D
        T[:, 2, 2] = (t1 * t1 + t3 * t3 * sq) / D
        T[:, 0, 1] = t3 * S / D
        T[:, 1, 0] = -t3 * S / D
        T[:, 0, 2] = t13 / D
        T[:, 2, 0] = t13 / D
        T[:, 1, 2] = t1 * S / D
        T[:, 2, 1] = -t1 * S / D
        T[S == 0.0] = np.eye(3)
        A = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])  # a1, a2, a3 in xyz
        b = np.einsum("bij,cj->bic", T, A)  # b_i in xyz (B, 3 vectors, 3)
        RF = np.stack([b[:, 0], -b[:, 2], b[:, 1]], axis=2)  # columns x_top, y_top, z_top
        s = self.slope_top
        E = np.zeros((B, 3, self.n))
        for k in range(self.n):
            if self.is_fa[k]:
                E[:, 1, k] = s[k]
            else:
                E[:, 0, k] = -s[k]
        w = np.zeros((B, 3))
        w[:, 0], w[:, 1] = thxd, thyd
        return RF, w, np.zeros((B, 3)), E, thx, thy

    def _points(self, q, qd):
        """Deflection d, velocity, acceleration (q''=0) (B, J + 1, 3) and partials L
        (B, J + 1, 3, n) of the nodes and (last) the top, base frame."""
        ax = self.axred  # (n, n, J + 1)
        axq = np.einsum("bl,klj->bkj", q, ax)  # sum_l AxRed_kl q_l
        d = np.einsum("bk,kj,kc->bjc", q, self.phi, self.e)
        d[..., 2] -= 0.5 * np.einsum("bkj,bk->bj", axq, q)
        L = np.einsum("kj,kc->jck", self.phi, self.e)[None].repeat(q.shape[0], axis=0)
        L[:, :, 2, :] -= np.swapaxes(axq, 1, 2)
        v = np.einsum("bjck,bk->bjc", L, qd)
        a = np.zeros_like(d)
        a[..., 2] = -np.einsum("bk,klj,bl->bj", qd, ax, qd)
        return d, v, a, L

    def relative(self, rel: RelativeKinematics, q, qd):
        """The deflected relative kinematics of the tree bodies and the extended (bodies +
        nodes) arrays: returns (rel_tree, ext) where ``ext`` holds r, dr, ddr (B, N+J, 3),
        R (B, N+J, 3, 3), dR, w, dw, and the mode partials E, L (B, N+J, 3, n) relative
        to G_1 (before the mean is removed), plus the top frame."""
        B = q.shape[0]
        N, J, n = self.tree.n_bodies, self.J, self.n
        RF, wF, dwF, EF, thx, thy = self._top_frame(q, qd)
        dP, vP, aP, LP = self._points(q, qd)
        dT, vT, aT, LT = dP[:, J], vP[:, J], aP[:, J], LP[:, J]
        r = np.array(np.broadcast_to(rel.r_G, (B, N, 3)))
        dr = np.array(np.broadcast_to(rel.dr_G, (B, N, 3)))
        ddr = np.array(np.broadcast_to(rel.ddr_G, (B, N, 3)))
        R = np.array(np.broadcast_to(rel.R_c2s, (B, N, 3, 3)))
        dR = np.array(np.broadcast_to(rel.dR_c2s, (B, N, 3, 3)))
        ddR = np.array(np.broadcast_to(rel.ddR_c2s, (B, N, 3, 3)))
        w = np.array(np.broadcast_to(rel.w_rel, (B, N, 3)))
        dw = np.array(np.broadcast_to(rel.dw_rel, (B, N, 3)))
        E = np.zeros((B, N + J + 1, 3, n))
        L = np.zeros((B, N + J + 1, 3, n))
        W = skew(wF)
        dW = skew(dwF)
        for i in self.riders:
            s = r[:, i] - self.top0
            Rs = _mv(RF, s)
            Rds = _mv(RF, dr[:, i])
            Rdds = _mv(RF, ddr[:, i])
            r[:, i] = self.top0 + dT + Rs
            dr[:, i] = vT + cross(wF, Rs) + Rds
            ddr[:, i] = (aT + cross(dwF, Rs) + cross(wF, cross(wF, Rs)) + 2.0 * cross(wF, Rds)
                         + Rdds)  # fmt: skip
            Rw = _mv(RF, w[:, i])
            Rdw = _mv(RF, dw[:, i])
            w[:, i] = wF + Rw
            dw[:, i] = dwF + cross(wF, Rw) + Rdw
            R0, dR0, ddR0 = R[:, i].copy(), dR[:, i].copy(), ddR[:, i].copy()
            RR = _mm(RF, R0)
            R[:, i] = RR
            RdR0 = _mm(RF, dR0)
            dR[:, i] = _mm(W, RR) + RdR0
            ddR[:, i] = _mm(dW + _mm(W, W), RR) + _mm(2.0 * W, RdR0) + _mm(RF, ddR0)
            E[:, i] = EF
            L[:, i] = LT + np.cross(EF, Rs[:, :, None], axis=1)
        J = J + 1  # the nodes and the top point
        rn = self.node0[None] + dP
        drn, ddrn = vP, aP
        L[:, N:] = LP
        eye = np.broadcast_to(np.eye(3), (B, J, 3, 3))
        zJ = np.zeros((B, J, 3))
        joint_q = rel.joint_q
        rel_tree = RelativeKinematics(R, dR, ddR, r, dr, ddr, w, dw, joint_q)
        ext = {
            "r": np.concatenate([r, rn], axis=1),
            "dr": np.concatenate([dr, drn], axis=1),
            "ddr": np.concatenate([ddr, ddrn], axis=1),
            "R": np.concatenate([R, eye], axis=1),
            "dR": np.concatenate([dR, np.zeros((B, J, 3, 3))], axis=1),
            "w": np.concatenate([w, zJ], axis=1),
            "dw": np.concatenate([dw, zJ], axis=1),
            "E": E,
            "L": L,
            "RF": RF,
            "thx": thx,
            "thy": thy,
            "dT": dT,
            "vT": vT,
            "dP": dP,  # the nodes' and the top's deflections (the gages' channels)
        }
        return rel_tree, ext

    def mass_distribution(self, ext) -> MassDistribution:
        """Wang (5.16)-(5.22) over the bodies and the tower nodes (the formulas of
        ``floatwind.multibody.mcm.mass_distribution``)."""
        m = self.mass_ext[None, :, None]
        M = self.total_mass
        r_s = (m * ext["r"]).sum(axis=1) / M
        dr_s = (m * ext["dr"]).sum(axis=1) / M
        ddr_s = (m * ext["ddr"]).sum(axis=1) / M
        rho = ext["r"] - r_s[:, None]
        drho = ext["dr"] - dr_s[:, None]
        ddrho = ext["ddr"] - ddr_s[:, None]
        # the rotational terms over the tree bodies only: the tower nodes are point masses
        # (no inertia, no rotation: their J, dJ are zero)
        N = self.tree.n_bodies
        I = self.inertia_ext[None, :N]
        R = ext["R"][:, :N]
        dR = ext["dR"][:, :N]
        Rt = np.swapaxes(R, -1, -2)
        RI = _mm(R, I)
        Jb = _mm(RI, Rt)
        dJ = _mm(_mm(dR, I), Rt) + _mm(RI, np.swapaxes(dR, -1, -2))
        Jm = np.zeros(ext["R"].shape)
        Jm[:, :N] = Jb
        wN, dwN = ext["w"][:, :N], ext["dw"][:, :N]
        P1 = Jb.sum(axis=1)
        # sum m rho_bar(rho) (Wang 4.12) = (sum m rho.rho) I - sum m rho rho^T, its derivative
        # (Wang 5.22) 2 (sum m rho.drho) I - X - X^T with X = sum m drho rho^T
        mw = self.mass_ext
        eye = np.eye(3)
        S = np.einsum("j,bjc,bjd->bcd", mw, rho, rho)
        P2 = np.trace(S, axis1=1, axis2=2)[:, None, None] * eye - S
        Q1 = _mv(Jb, wN).sum(axis=1)
        Q2 = (m * cross(rho, drho)).sum(axis=1)
        dP1 = dJ.sum(axis=1)
        X = np.einsum("j,bjc,bjd->bcd", mw, drho, rho)
        dP2 = 2.0 * np.trace(X, axis1=1, axis2=2)[:, None, None] * eye - X - np.swapaxes(X, 1, 2)
        dQ1 = (_mv(dJ, wN) + _mv(Jb, dwN)).sum(axis=1)
        dQ2 = (m * cross(rho, ddrho)).sum(axis=1)
        return MassDistribution(rho, drho, ddrho, r_s, P1 + P2, dP1 + dP2, Q1 + Q2, dQ1 + dQ2,
                                Jm, P1, P2)  # fmt: skip

    def tree_md(self, md_ext: MassDistribution) -> MassDistribution:
        """The tree bodies' part of the extended mass distribution (for the loads/outputs)."""
        N = self.tree.n_bodies
        return MassDistribution(
            md_ext.rho[:, :N], md_ext.drho[:, :N], md_ext.ddrho[:, :N], md_ext.r_s, md_ext.P,
            md_ext.dP, md_ext.Q, md_ext.dQ, md_ext.J[:, :N], md_ext.P1, md_ext.P2,
        )  # fmt: skip

    # ------------------------------------------------------------------ dynamics
    def partials(self, rel_tree, ext, md_ext):
        """E, L (B, N+J, 3, nf + n): the joint DOFs' partial velocities (as
        ``floatwind.multibody.mcm.dof_columns``, the joint point of a joint on the base body
        at the deflected tower top) then the modes', L with the mass-weighted mean removed
        over bodies and nodes (the base coordinates are those of G_s, Wang 5.16)."""
        tree = self.tree
        B = md_ext.rho.shape[0]
        N, J, n, nf = tree.n_bodies, self.J + 1, self.n, tree.n_dofs
        E = np.zeros((B, N + J, 3, nf + n))
        L = np.zeros((B, N + J, 3, nf + n))
        r_s = md_ext.r_s
        for c in tree.order[1:]:
            k = int(tree.dof_of[c])
            if k < 0:
                continue
            jt = tree.joint_of[c]
            p = jt.parent
            e = _mv(rel_tree.R_c2s[:, c], jt.axis) * tree.dof_ratio[c]
            if p == 0:
                pt = jt.r_J_p - tree.cm_b[0] - self.top0  # offset from the undeflected top
                rho_J = self.top0 + ext["dT"] + _mv(ext["RF"], np.broadcast_to(pt, e.shape)) - r_s
            else:
                rho_J = md_ext.rho[:, p] + _mv(rel_tree.R_c2s[:, p], jt.r_J_p - tree.cm_b[p])
            for i in tree.subtree(c):
                E[:, i, :, k] += e
                L[:, i, :, k] += cross(e, md_ext.rho[:, i] - rho_J)
        E[..., nf:] = ext["E"]
        L[..., nf:] = ext["L"]
        m = self.mass_ext[None, :, None, None]
        L = L - (m * L).sum(axis=1, keepdims=True) / self.total_mass
        return E, L

    def modal_forces(self, qm, qmd):
        """Q = -K q - C q' (B, n): the tower's elastic and structural-damping forces."""
        return -(qm @ self.K.T) - (qmd @ self.C.T)

    def forward_dynamics(self, rel_tree, ext, md_ext, q, qd, wrench, tau):
        """The coupled base + joint + mode solve (``floatwind.multibody.mcm.
        forward_dynamics_dofs`` over the bodies and the tower nodes): ``tau`` (B, nf + n) the
        joint drive torques then the modal forces; the nodes' weight is added here. Returns
        :class:`Accelerations` of the tree bodies, ``qdd_dof`` (B, nf + n), and the nodes'
        accelerations (B, J, 3) (inertial)."""
        tree = self.tree
        B = q.shape[0]
        N, J = tree.n_bodies, self.J + 1
        NE = N + J
        ndf = tree.n_dofs + self.n
        nn = 6 + ndf
        md = md_ext
        R_s2g = euler123_matrix(q[:, 3:6])
        R_g2s = np.swapaxes(R_s2g, -1, -2)
        ang, rates = q[:, 3:6], qd[:, 3:6]
        Tw = t_omega(ang)  # Wang (5.25)
        RE = re_vector(ang, rates)
        w = _mv(Tw, rates)  # Wang (3.7)
        P, dP, Q, dQ = md.P, md.dP, md.Q, md.dQ
        H = _mv(P, w) + Q  # Wang (5.17)
        force = np.zeros((B, NE, 3))
        moment = np.zeros((B, NE, 3))
        force[:, :N] = wrench.force
        moment[:, :N] = wrench.moment
        force[:, N:, 2] = -self.gravity * self.node_mass[None, :]  # node weight, inertial z
        rho_g = _rv(R_s2g, md.rho)
        F_tot = force.sum(axis=1)
        M_Gs_s = _mv(R_g2s, (moment + cross(rho_g, force)).sum(axis=1))
        rhs_rot = M_Gs_s - _mv(dP, w) - dQ - _mv(P, RE) - cross(w, H)  # Wang (5.26)
        c_a_s = (
            md.ddrho
            + 2.0 * cross(w[:, None], md.drho)
            + cross(w[:, None], cross(w[:, None], md.rho))
        )
        c_al_s = ext["dw"] + cross(w[:, None], ext["w"])
        E, L = self.partials(rel_tree, ext, md)
        Jb = np.zeros((B, NE, 6, nn))
        Jb[..., 0:3, 0:3] = np.eye(3)
        RTw = _mm(R_s2g, Tw)
        # -R [rho]x Tw = -[R rho]x R Tw: column c is (R Tw)_c x rho_g
        for c in range(3):
            Jb[..., 0:3, 3 + c] = cross(RTw[:, None, :, c], rho_g)
        Jb[..., 3:6, 3:6] = RTw[:, None]
        Jb[..., 0:3, 6:] = _rm(R_s2g, L)
        Jb[:, :N, 3:6, 6:] = _mm(R_s2g[:, None], E[:, :N])  # the nodes' E are zero
        cb = np.zeros((B, NE, 6))
        cb[..., 0:3] = _rv(R_s2g, c_a_s + cross(RE[:, None], md.rho))
        cb[..., 3:6] = _rv(R_s2g, RE[:, None] + c_al_s)
        K = np.zeros((B, nn, nn))
        r = np.zeros((B, nn))
        K[:, 0:3, 0:3] = self.total_mass * np.eye(3)
        K[:, 3:6, 3:6] = _mm(P, Tw)
        m = self.mass_ext[None, :, None]
        # the rotational terms over the tree bodies only: the tower nodes are point masses (no
        # inertia, no rotation, no added mass: their J, E, I_g, gyroscopic terms are zero)
        rL = cross(md.rho[:, :, None, :], np.swapaxes(L, -1, -2))  # rho x L_k (B, NE, nf, 3)
        D = _mm(md.J[:, :N], E[:, :N]).sum(axis=1) + np.swapaxes(
            (m[..., None] * rL).sum(axis=1), -1, -2
        )  # the DOF accelerations in dQ (Wang 5.20, 5.22)
        K[:, 3:6, 6:] = D
        r[:, 0:3] = F_tot
        r[:, 3:6] = rhs_rot
        R_b = _mm(R_s2g[:, None], ext["R"][:, :N])
        I_g = _mm(_mm(R_b, self.inertia_ext[None, :N]), np.swapaxes(R_b, -1, -2))
        w_b = _mv(R_s2g[:, None], w[:, None] + ext["w"][:, :N])
        Mi = np.zeros((B, N, 6, 6))
        Mi[..., 0:3, 0:3] = self.mass_ext[None, :N, None, None] * np.eye(3)
        Mi[..., 3:6, 3:6] = I_g
        gyro = np.zeros((B, N, 6))
        gyro[..., 3:6] = cross(w_b, _mv(I_g, w_b))
        W = np.concatenate([force[:, :N], moment[:, :N]], axis=-1)
        A = wrench.added_mass
        if A is not None:
            Ae = np.broadcast_to(A, (B, N, 6, 6))
            G = np.zeros((B, N, 6, 6))
            G[..., 0:3, 0:3] = np.eye(3)
            G[..., 3:6, 0:3] = _mm(R_g2s[:, None], skew(rho_g[:, :N]))
            G[..., 3:6, 3:6] = R_g2s[:, None]
            GA = _mm(G, Ae)
            K[:, 0:6, :] += _mm(GA, Jb[:, :N]).sum(axis=1)
            r[:, 0:6] -= _mv(GA, cb[:, :N]).sum(axis=1)
            Mi = Mi + Ae
        Jd = np.swapaxes(Jb[..., 6:], -1, -2)
        # Kane's rows (docs/multibody.md): the bodies, then the nodes (mass m_J, linear rows:
        # sum_J m_J (R L_J)^T Jb_J as one product over (node, component) per member)
        mn = self.node_mass[None, :, None]
        JbN = Jb[:, N:, 0:3]
        LN = np.ascontiguousarray(np.moveaxis(JbN[..., 6:], 3, 1)).reshape(B, ndf, 3 * J)
        K[:, 6:, :] = _mm(_mm(Jd[:, :N], Mi), Jb[:, :N]).sum(axis=1) + LN @ (
            mn[..., None] * JbN
        ).reshape(B, 3 * J, nn)
        r[:, 6:] = (
            tau
            + _mv(Jd[:, :N], W - gyro - _mv(Mi, cb[:, :N])).sum(axis=1)
            + (LN @ (force[:, N:] - mn * cb[:, N:, 0:3]).reshape(B, 3 * J, 1))[..., 0]
        )
        u = np.linalg.solve(K, r[..., None])[..., 0]
        # acc = Jb u + cb; the linear rows' first block is the identity, the angular rows' zero
        ua = u[:, None, 3:]
        a_lin = u[:, None, 0:3] + _mv(Jb[..., 0:3, 3:], ua) + cb[..., 0:3]
        al = _mv(Jb[:, :N, 3:6, 3:], ua) + cb[:, :N, 3:6]
        acc = Accelerations(u[:, 0:6], a_lin[:, :N], al, H, u[:, 6:])
        acc.node_acc = a_lin[:, N:]
        return acc

    def energy(self, ev) -> tuple[np.ndarray, np.ndarray]:
        """(kinetic, potential) energy (B,) of bodies + tower nodes at an evaluation: T =
        sum 1/2 m v^2 + 1/2 w . I w; V = sum m g z + 1/2 q . K q (the check of the equations:
        conserved without damping and other loads)."""
        ext, md_ext, qm, _qmd = ev.md.flex
        q, qd = ev.q, ev.qd
        Rg = euler123_matrix(q[:, 3:6])
        w = _mv(t_omega(q[:, 3:6]), qd[:, 3:6])
        v = qd[:, None, 0:3] + _mv(Rg[:, None], cross(w[:, None], md_ext.rho) + md_ext.drho)
        wb = _mv(Rg[:, None], w[:, None] + ext["w"])
        R_b = Rg[:, None] @ ext["R"]
        I_g = R_b @ self.inertia_ext[None] @ np.swapaxes(R_b, -1, -2)
        m = self.mass_ext[None, :]
        kin = 0.5 * (m * (v * v).sum(-1)).sum(-1) + 0.5 * (wb * _mv(I_g, wb)).sum(-1).sum(-1)
        z = q[:, None, 2] + _mv(Rg[:, None], md_ext.rho)[..., 2]
        pot = self.gravity * (m * z).sum(-1) + 0.5 * np.einsum("bk,kl,bl->b", qm, self.K, qm)
        return kin, pot

    # ------------------------------------------------------------------ outputs
    def channels(self, ev) -> dict:
        """ElastoDyn's tower channels at an evaluation (SI; see :data:`CHANNELS`): TTDsp*,
        YawBrTD/TV/TA*p of the tower top, and the inverse-dynamics loads YawBr*p (the bodies
        above the tower top on it, about the deflected top, tower-top axes) and TwrBs*t
        (bodies + tower nodes on the platform, about the tower base, platform axes), with
        the accelerations of the coupled solve (no numerical differentiation). The compiled
        output rows bring them computed (``acc.flex_channels``: floatwind._kernels.flex_chan)."""
        done = getattr(ev.acc, "flex_channels", None)
        if done is not None:
            return dict(done)
        ext, md_ext, qm, qmd = ev.md.flex
        q, qd = ev.q, ev.qd
        N, J = self.tree.n_bodies, self.J
        Rg = euler123_matrix(q[:, 3:6])
        w = _mv(t_omega(q[:, 3:6]), qd[:, 3:6])  # base angular velocity, C_s axes (Wang 3.7)
        RF = ext["RF"]
        dT = ext["dT"]
        Rp = Rg @ RF  # tower-top axes in inertial
        out = {}
        out["TTDspFA"], out["TTDspSS"], out["TTDspAx"] = dT[:, 0], dT[:, 1], dT[:, 2]
        out["TTDspPtch"], out["TTDspRoll"] = ext["thy"], ext["thx"]
        out["TTDspTwst"] = np.zeros_like(dT[:, 0])
        dTp = _mv(np.swapaxes(RF, -1, -2), dT)
        out["YawBrTDxp"], out["YawBrTDyp"], out["YawBrTDzp"] = dTp[:, 0], dTp[:, 1], dTp[:, 2]
        m = self.mass_ext[None, :, None]
        dr_s = (m * ext["dr"]).sum(axis=1) / self.total_mass
        iT = N + J  # the massless top point
        rho_T = md_ext.rho[:, iT]
        v = qd[:, 0:3] + _mv(Rg, cross(w, rho_T) + ext["dr"][:, iT] - dr_s)
        a = ev.acc.node_acc[:, J]
        vp = _mv(np.swapaxes(Rp, -1, -2), v)
        ap = _mv(np.swapaxes(Rp, -1, -2), a)
        for k, ax in enumerate("xyz"):
            out[f"YawBrTV{ax}p"] = vp[:, k]
            out[f"YawBrTA{ax}p"] = ap[:, k]
        # inverse dynamics (docs/multibody.md, Wang 5.27-5.28): the load of a subsystem on its
        # support = sum_i (F_i - m_i a_i), and about point P sum_i [M_i + (r_i - P) x (F_i -
        # m_i a_i) - I_i alpha_i - w_i x I_i w_i]
        F, M = ev.total_wrench()
        a_b, al_b = ev.acc.a_G_g, ev.acc.dw_b_g
        rho_g = _rv(Rg, md_ext.rho)
        R_b = Rg[:, None] @ ext["R"][:, :N]
        I_g = R_b @ self.tree.inertia_b[None] @ np.swapaxes(R_b, -1, -2)
        w_b = _mv(Rg[:, None], w[:, None] + ext["w"][:, :N])
        net = F - self.tree.mass[None, :, None] * a_b
        mom = M - _mv(I_g, al_b) - cross(w_b, _mv(I_g, w_b))
        rid = self.riders
        top_g = rho_g[:, iT]
        Fy = net[:, rid].sum(axis=1)
        My = (mom[:, rid] + cross(rho_g[:, rid] - top_g[:, None], net[:, rid])).sum(axis=1)
        Fyp = _mv(np.swapaxes(Rp, -1, -2), Fy)
        Myp = _mv(np.swapaxes(Rp, -1, -2), My)
        nm = self.node_mass[None, :J, None]
        fn = np.zeros((q.shape[0], J, 3))
        fn[..., 2] = -self.gravity * nm[..., 0]
        netn = fn - nm * ev.acc.node_acc[:, :J]
        base_g = _mv(Rg, self.modes.base - self.tree.cm_b[0] - md_ext.r_s)
        Fb = Fy + netn.sum(axis=1)
        Mb = (My + cross(top_g - base_g, Fy)
              + cross(rho_g[:, N : N + J] - base_g[:, None], netn).sum(axis=1))  # fmt: skip
        Fbt = _mv(np.swapaxes(Rg, -1, -2), Fb)
        Mbt = _mv(np.swapaxes(Rg, -1, -2), Mb)
        # tower gages (ElastoDyn TwHt#): deflection of node j in platform axes; the load of
        # everything above the gage (bodies, nodes above) on the tower below, about the node,
        # in the node's local axes (the slopes at the node, SmllRotTrans as at the top)
        dP = ext["dP"]
        for i, j in enumerate(self.modes.gages, start=1):
            for k, ax in enumerate("xyz"):
                out[f"TwHt{i}TD{ax}t"] = dP[:, j, k]
            P = rho_g[:, N + j]
            Mg = My + cross(top_g - P, Fy)
            Mg = Mg + cross(rho_g[:, N + j + 1 : N + J] - P[:, None], netn[:, j + 1 :]).sum(axis=1)
            Fg = Fy + netn[:, j + 1 :].sum(axis=1) + netn[:, j]
            thy = (qm * np.where(self.is_fa, self.slope_nodes[:, j], 0.0)).sum(axis=1)
            thx = -(qm * np.where(self.is_fa, 0.0, self.slope_nodes[:, j])).sum(axis=1)
            Rl = Rg @ self._top_frame_elastodyn(thx, thy, thx, thy)[0]
            Mloc = _mv(np.swapaxes(Rl, -1, -2), Mg)
            Floc = _mv(np.swapaxes(Rl, -1, -2), Fg)
            for k, ax in enumerate("xyz"):
                out[f"TwHt{i}ML{ax}t"] = Mloc[:, k]
                out[f"TwHt{i}FL{ax}t"] = Floc[:, k]
        for k, ax in enumerate("xyz"):
            out[f"YawBrF{ax}p"], out[f"YawBrM{ax}p"] = Fyp[:, k], Myp[:, k]
            out[f"TwrBsF{ax}t"], out[f"TwrBsM{ax}t"] = Fbt[:, k], Mbt[:, k]
        return out


#: units and descriptions of :meth:`FlexTower.channels` (the YawBr*/TwrBs* loads are in
#: floatwind.io.channels)
CHANNELS = {
    "TTDspFA": ("m", "tower-top fore-aft deflection (platform x)"),
    "TTDspSS": ("m", "tower-top side-to-side deflection (platform y)"),
    "TTDspAx": ("m", "tower-top axial deflection (shortening, platform z)"),
    "TTDspPtch": ("rad", "tower-top rotation from bending about platform y (fore-aft slope)"),
    "TTDspRoll": ("rad", "tower-top rotation from bending about platform x (side-side slope)"),
    "TTDspTwst": ("rad", "tower-top torsion (no torsion DOF: 0)"),
    **{f"YawBrTD{a}p": ("m", f"tower-top deflection, deflected tower-top {a} axis") for a in "xyz"},
    **{f"YawBrTV{a}p": ("m/s", f"tower-top absolute velocity, tower-top {a} axis") for a in "xyz"},
    **{f"YawBrTA{a}p": ("m/s^2", f"tower-top absolute acceleration, tower-top {a} axis")
       for a in "xyz"},
    **{f"TwHt{i}TD{a}t": ("m", f"tower gage {i}: deflection, platform {a} axis")
       for i in range(1, 10) for a in "xyz"},
    **{f"TwHt{i}ML{a}t": ("N m", f"tower gage {i}: moment of the tower above (and the RNA) on "
                          f"the tower below, about the gage, local {a} axis")
       for i in range(1, 10) for a in "xyz"},
    **{f"TwHt{i}FL{a}t": ("N", f"tower gage {i}: force of the tower above (and the RNA) on "
                          f"the tower below, local {a} axis")
       for i in range(1, 10) for a in "xyz"},
}  # fmt: skip
