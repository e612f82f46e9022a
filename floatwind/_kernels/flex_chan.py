"""The flexible tower's output channels on the compiled path (issues 37 and 41): the bodies'
and the tower nodes' accelerations from the coupled solve's solution, then ElastoDyn's tower
channels (TTDsp*, YawBrTD/TV/TA*p, YawBrF/M*p, TwrBsF/M*t, TwHt#*) by inverse dynamics, every
output row of a block in one call.

The NumPy reference is the accelerations of
:meth:`floatwind.multibody.flex_dynamics.FlexTower.forward_dynamics` and
:meth:`~floatwind.multibody.flex_dynamics.FlexTower.channels` (the same formulas, docs/
multibody.md "Flexible tower"; Wang (5.24)-(5.28) for the base and the inverse dynamics,
ElastoDyn ``SmllRotTrans`` for the gages' local axes); this kernel reads the deflected tree and
the mass distribution over bodies + nodes of the rows' flexible state and the tower nodes'
pass (:func:`floatwind._kernels.flex_tree.node_rows`) and the solution ``u`` of
:func:`floatwind._kernels.flex.flex_dynamics`, called by
:func:`floatwind._kernels.flex_tree.out_rows`. Each row goes through the same operations
whatever the block (bit-identical alone and in a batch); another summation order than NumPy's
stacks, so the two agree to rounding (tests/test_flex_tower.py).
"""

from __future__ import annotations

import math

import numpy as np

from floatwind._kernels.flex import _euler123, _t_omega, _top_frame
from floatwind._kernels.mcm import _cross as _x
from floatwind.jit import njit

__all__ = ["channel_names", "flex_channels", "params"]


def channel_names(n_gages: int) -> list[str]:
    """The columns of :func:`flex_channels`'s channel table, in ``FlexTower.channels``'s
    order."""
    names = ["TTDspFA", "TTDspSS", "TTDspAx", "TTDspPtch", "TTDspRoll", "TTDspTwst"]
    names += [f"YawBrTD{a}p" for a in "xyz"]
    for a in "xyz":
        names += [f"YawBrTV{a}p", f"YawBrTA{a}p"]
    for i in range(1, n_gages + 1):
        names += [f"TwHt{i}TD{a}t" for a in "xyz"]
        for a in "xyz":
            names += [f"TwHt{i}ML{a}t", f"TwHt{i}FL{a}t"]
    for a in "xyz":
        names += [f"YawBrF{a}p", f"YawBrM{a}p", f"TwrBsF{a}t", f"TwrBsM{a}t"]
    return names


@njit(cache=True, fastmath=False, inline="always")
def _rt(R, v, out):
    """out = R^T v (R 3x3 row-major flat)."""
    for i in range(3):
        out[i] = R[i] * v[0] + R[3 + i] * v[1] + R[6 + i] * v[2]


@njit(cache=True, fastmath=False, inline="always")
def _r(R, v, out):
    """out = R v (R 3x3 row-major flat)."""
    for i in range(3):
        out[i] = R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2]


@njit(cache=True, fastmath=False)
def flex_channels(st, pts, mats, centred, consts, ci, cv, ch):
    """Accelerations and channels of every row b (B rows).

    ``st`` = (q, qd, u, qm, Qv, r_s, thxy), ``pts`` = (rho, drho, ddrho, dP, wN, dwN, force,
    moment, Pm, RF), ``mats`` = (E, L, RN, A). Rows: ``q``, ``qd`` (B, 6) the base state, ``u`` (B, 6 + nf) the solve's base and
    joint/modal accelerations, ``qm`` (B, n) the modal coordinates; over bodies + nodes + top
    (P = N + J + 1 points): ``rho``, ``drho``, ddrho (B, P, 3) relative to G_s, ``E``, ``L``
    (B, P, 3, nf) the partial velocities (``centred``: L's mass-weighted mean already removed,
    ``FlexTower.partials``; else removed here); over the N bodies ``wN``, ``dwN`` (B, N, 3),
    ``RN`` (B, N, 3, 3) the relative kinematics of the deflected tree; ``Pm`` (B, 3, 3), ``Qv``
    (B, 3) Wang (5.17)'s P and Q, ``r_s`` (B, 3) G_s in the base body's frame; ``RF`` (B, 3, 3) the top frame, ``dP`` (B, J + 1, 3) the
    deflections, ``thxy`` (B, 2) the top's (th_x, th_y); ``force``, ``moment`` (B, N, 3) the
    loads about the CMs (inertial), ``A`` (B, N, 6, 6) their added mass or (0, N, 6, 6).
    Constants: ``consts`` = [g, M_total, base - cm_b0 (3), mass_ext (P), inertia_b (N 9),
    slope_nodes (n J), is_fa (n)], ``ci`` = [N, J, n, nf, n_riders, n_gages, riders...,
    gages...].

    Out: ``cv`` (B, P * 3 + N * 3 + 3): a_G (bodies + points, inertial), the bodies' angular
    accelerations, H (Wang 5.17); ``ch`` (B, len(channel_names)) the channels."""
    q, qd, u, qm, Qv, rs, thxy = st
    rho, drho, ddrho, dP, wN, dwN, force, moment, Pm, RF = pts
    E, L, RN, A = mats
    B = q.shape[0]
    N, J, n, nf, nr, ng = ci[0], ci[1], ci[2], ci[3], ci[4], ci[5]
    Pn = N + J + 1
    g, Mt = consts[0], consts[1]
    om, oI, osl, ofa = 5, 5 + Pn, 5 + Pn + 9 * N, 5 + Pn + 9 * N + n * J
    coupled = A.shape[0] > 0
    Rg = np.empty(9)
    Tw = np.empty(9)
    Rp = np.empty(9)
    Rl = np.empty(9)
    RFl = np.empty(9)
    w = np.empty(3)
    wa = np.empty(3)
    RE = np.empty(3)
    t1 = np.empty(3)
    t2 = np.empty(3)
    t3 = np.empty(3)
    vec3 = np.empty(3)
    Lm = np.empty((3, nf))
    alin = np.empty((Pn, 3))
    rg = np.empty((Pn, 3))
    net = np.empty((N, 3))
    netn = np.empty((J, 3))
    Fy = np.empty(3)
    My = np.empty(3)
    Fb = np.empty(3)
    Mb = np.empty(3)
    Fg = np.empty(3)
    Mg = np.empty(3)
    Ib = np.empty(9)
    Ig = np.empty(9)
    Rb = np.empty(9)
    wb = np.empty(3)
    for b in range(B):
        a4, a5, a6 = q[b, 3], q[b, 4], q[b, 5]
        _euler123(a4, a5, a6, Rg, 0)
        _t_omega(a5, a6, Tw, 0)
        # Wang (3.7), (5.24)-(5.25): w = T_w X', the solved part T_w u_a, RE
        for i in range(3):
            w[i] = Tw[3 * i] * qd[b, 3] + Tw[3 * i + 1] * qd[b, 4] + Tw[3 * i + 2] * qd[b, 5]
            wa[i] = Tw[3 * i] * u[b, 3] + Tw[3 * i + 1] * u[b, 4] + Tw[3 * i + 2] * u[b, 5]
        c5, c6, s5, s6 = math.cos(a5), math.cos(a6), math.sin(a5), math.sin(a6)
        d4, d5, d6 = qd[b, 3], qd[b, 4], qd[b, 5]
        RE[0] = -d4 * d5 * s5 * c6 - d4 * d6 * c5 * s6 + d5 * d6 * c6
        RE[1] = d4 * d5 * s5 * s6 - d4 * d6 * c5 * c6 - d5 * d6 * s6
        RE[2] = d4 * d5 * c5
        # the partials' mass-weighted mean (Wang 5.16: the base coordinates are G_s's)
        for c in range(3):
            for k in range(nf):
                Lm[c, k] = 0.0
        if not centred:
            for p in range(Pn):
                m = consts[om + p]
                for c in range(3):
                    for k in range(nf):
                        Lm[c, k] += m * L[b, p, c, k]
            for c in range(3):
                for k in range(nf):
                    Lm[c, k] = Lm[c, k] / Mt
        # acc = Jb u + cb: R [(T_w u_a) x rho + L u_d + ddrho + 2 w x drho + w x (w x rho)
        # + RE x rho] + u_l (FlexTower.forward_dynamics)
        for p in range(Pn):
            rp = rho[b, p]
            _x(wa, rp, t1)
            for c in range(3):
                s = 0.0
                for k in range(nf):
                    s += (L[b, p, c, k] - Lm[c, k]) * u[b, 6 + k]
                vec3[c] = t1[c] + s + ddrho[b, p, c]
            _x(w, drho[b, p], t1)
            _x(w, rp, t2)
            _x(w, t2, t3)
            _x(RE, rp, t2)
            for c in range(3):
                vec3[c] = vec3[c] + 2.0 * t1[c] + t3[c] + t2[c]
            _r(Rg, vec3, t1)
            _r(Rg, rp, t2)
            for c in range(3):
                alin[p, c] = u[b, c] + t1[c]
                cv[b, 3 * p + c] = alin[p, c]
                rg[p, c] = t2[c]
        oa = 3 * Pn
        for i in range(N):
            _x(w, wN[b, i], t1)
            for c in range(3):
                s = 0.0
                for k in range(nf):
                    s += E[b, i, c, k] * u[b, 6 + k]
                vec3[c] = wa[c] + s + RE[c] + dwN[b, i, c] + t1[c]
            _r(Rg, vec3, t2)
            for c in range(3):
                cv[b, oa + 3 * i + c] = t2[c]
        for c in range(3):  # H = P w + Q (Wang 5.17)
            cv[b, oa + 3 * N + c] = (Pm[b, c, 0] * w[0] + Pm[b, c, 1] * w[1]
                                     + Pm[b, c, 2] * w[2] + Qv[b, c])  # fmt: skip
        # the tower top: deflections, velocity, acceleration in its axes
        RFb = RF[b].ravel()
        for i in range(3):
            for j in range(3):
                s = 0.0
                for k in range(3):
                    s += Rg[3 * i + k] * RFb[3 * k + j]
                Rp[3 * i + j] = s
        iT = N + J
        for c in range(3):
            ch[b, c] = dP[b, J, c]
        ch[b, 3], ch[b, 4], ch[b, 5] = thxy[b, 1], thxy[b, 0], 0.0
        _rt(RFb, dP[b, J], t1)
        for c in range(3):
            ch[b, 6 + c] = t1[c]
        _x(w, rho[b, iT], t1)
        for c in range(3):
            t1[c] = t1[c] + drho[b, iT, c]
        _r(Rg, t1, t2)
        for c in range(3):
            t2[c] = qd[b, c] + t2[c]
        _rt(Rp, t2, t1)
        _rt(Rp, alin[iT], t3)
        for c in range(3):
            ch[b, 9 + 2 * c] = t1[c]
            ch[b, 10 + 2 * c] = t3[c]
        # inverse dynamics (Wang 5.27-5.28; FlexTower.channels): sum_i (F_i - m_i a_i) and
        # sum_i [M_i + (r_i - P) x (F_i - m_i a_i) - I_i alpha_i - w_i x I_i w_i]
        for c in range(3):
            Fy[c] = 0.0
            My[c] = 0.0
        for r in range(nr):
            i = ci[6 + r]
            for c in range(9):
                Ib[c] = consts[oI + 9 * i + c]
            RNi = RN[b, i].ravel()
            for ii in range(3):  # R_b = Rg R_i
                for jj in range(3):
                    Rb[3 * ii + jj] = (Rg[3 * ii] * RNi[jj] + Rg[3 * ii + 1] * RNi[3 + jj]
                                       + Rg[3 * ii + 2] * RNi[6 + jj])  # fmt: skip
            for ii in range(3):  # I_g = R_b I R_b^T
                for jj in range(3):
                    s = 0.0
                    for k in range(3):
                        s += (Rb[3 * ii] * Ib[k] + Rb[3 * ii + 1] * Ib[3 + k]
                              + Rb[3 * ii + 2] * Ib[6 + k]) * Rb[3 * jj + k]  # fmt: skip
                    Ig[3 * ii + jj] = s
            for c in range(3):
                t1[c] = w[c] + wN[b, i, c]
            _r(Rg, t1, wb)
            mi = consts[om + i]
            fx, fy, fz = force[b, i, 0], force[b, i, 1], force[b, i, 2]
            mx, my, mz = moment[b, i, 0], moment[b, i, 1], moment[b, i, 2]
            oal = oa + 3 * i
            if coupled:  # the added mass's reaction -A [a_G; alpha] (System.total_wrench)
                for c in range(6):
                    s = 0.0
                    for k in range(6):
                        s += A[b, i, c, k] * (alin[i, k] if k < 3 else cv[b, oal + k - 3])
                    if c == 0:
                        fx = fx - s
                    elif c == 1:
                        fy = fy - s
                    elif c == 2:
                        fz = fz - s
                    elif c == 3:
                        mx = mx - s
                    elif c == 4:
                        my = my - s
                    else:
                        mz = mz - s
            net[i, 0] = fx - mi * alin[i, 0]
            net[i, 1] = fy - mi * alin[i, 1]
            net[i, 2] = fz - mi * alin[i, 2]
            for c in range(3):
                t1[c] = (Ig[3 * c] * cv[b, oal] + Ig[3 * c + 1] * cv[b, oal + 1]
                         + Ig[3 * c + 2] * cv[b, oal + 2])  # fmt: skip
                t2[c] = Ig[3 * c] * wb[0] + Ig[3 * c + 1] * wb[1] + Ig[3 * c + 2] * wb[2]
            _x(wb, t2, t3)
            vec3[0] = mx - t1[0] - t3[0]
            vec3[1] = my - t1[1] - t3[1]
            vec3[2] = mz - t1[2] - t3[2]
            for c in range(3):
                t1[c] = rg[i, c] - rg[iT, c]
            _x(t1, net[i], t2)
            for c in range(3):
                Fy[c] += net[i, c]
                My[c] += vec3[c] + t2[c]
        _rt(Rp, Fy, t1)
        _rt(Rp, My, t2)
        ob = 15 + 9 * ng
        for c in range(3):
            ch[b, ob + 4 * c] = t1[c]
            ch[b, ob + 4 * c + 1] = t2[c]
        for j in range(J):
            mj = consts[om + N + j]
            netn[j, 0] = 0.0 - mj * alin[N + j, 0]
            netn[j, 1] = 0.0 - mj * alin[N + j, 1]
            netn[j, 2] = -g * mj - mj * alin[N + j, 2]
        # the tower base: everything above it on the platform, about the base, platform axes
        for c in range(3):
            Fb[c] = Fy[c]
            Mb[c] = My[c]
            t1[c] = consts[2 + c] - rs[b, c]
        _r(Rg, t1, t2)  # base_g = Rg (base - cm_b0 - r_s)
        for c in range(3):
            t1[c] = rg[iT, c] - t2[c]
        _x(t1, Fy, t3)
        for c in range(3):
            Mb[c] += t3[c]
        for j in range(J):
            for c in range(3):
                Fb[c] += netn[j, c]
                t1[c] = rg[N + j, c] - t2[c]
            _x(t1, netn[j], t3)
            for c in range(3):
                Mb[c] += t3[c]
        _rt(Rg, Fb, t1)
        _rt(Rg, Mb, t3)
        for c in range(3):
            ch[b, ob + 4 * c + 2] = t1[c]
            ch[b, ob + 4 * c + 3] = t3[c]
        # the gages (ElastoDyn TwHt#): the load of everything above node j on the tower
        # below, about the node, in its local axes (SmllRotTrans of the slopes at the node)
        for gi in range(ng):
            j = ci[6 + nr + gi]
            og = 15 + 9 * gi
            for c in range(3):
                ch[b, og + c] = dP[b, j, c]
                t1[c] = rg[iT, c] - rg[N + j, c]
            _x(t1, Fy, t3)
            for c in range(3):
                Mg[c] = My[c] + t3[c]
                Fg[c] = Fy[c]
            for jj in range(j + 1, J):
                for c in range(3):
                    t1[c] = rg[N + jj, c] - rg[N + j, c]
                    Fg[c] += netn[jj, c]
                _x(t1, netn[jj], t3)
                for c in range(3):
                    Mg[c] += t3[c]
            for c in range(3):
                Fg[c] += netn[j, c]
            thy = 0.0
            thx = 0.0
            for k in range(n):
                sl = consts[osl + k * J + j]
                if consts[ofa + k] != 0.0:
                    thy += qm[b, k] * sl
                else:
                    thx -= qm[b, k] * sl
            _top_frame(thx, -thy, RFl, 0)
            for ii in range(3):
                for jj in range(3):
                    Rl[3 * ii + jj] = (Rg[3 * ii] * RFl[jj] + Rg[3 * ii + 1] * RFl[3 + jj]
                                       + Rg[3 * ii + 2] * RFl[6 + jj])  # fmt: skip
            _rt(Rl, Mg, t1)
            _rt(Rl, Fg, t3)
            for c in range(3):
                ch[b, og + 3 + 2 * c] = t1[c]
                ch[b, og + 4 + 2 * c] = t3[c]


def params(flex) -> tuple[np.ndarray, np.ndarray]:
    """(consts, ci) of :func:`flex_channels` for a ``FlexTower``."""
    tree = flex.tree
    consts = np.concatenate([
        [flex.gravity, flex.total_mass], flex.modes.base - tree.cm_b[0], flex.mass_ext,
        np.asarray(tree.inertia_b, np.float64).reshape(-1), flex.slope_nodes.reshape(-1),
        flex.is_fa.astype(np.float64),
    ]).astype(np.float64)  # fmt: skip
    gages = list(flex.modes.gages)
    ci = np.array([tree.n_bodies, flex.J, flex.n, tree.n_dofs + flex.n, len(flex.riders),
                   len(gages), *flex.riders, *gages], np.int64)  # fmt: skip
    return consts, ci
