"""The tower nodes' sums of the compiled flexible tower (issue 37; docs/multibody.md,
"Flexible tower", *The nodes enter through modal tensors*), from precomputed modal tensors.

The 20 tower nodes are point masses whose place, velocity, acceleration at q'' = 0 and partial
velocities are polynomials in the modal coordinates with node-wise coefficients (ElastoDyn rZT,
PLinVelET, LinAccETt; docs/multibody.md "Flexible tower", Kinematics), in the base frame
relative to the base CM:

    u_J  = n0_J + d_J - 1/2 s_J z,     d_J = sum_k phi_k(h_J) q_k e_k,  s_J = q . w_J
    u_J' = d'_J - t_J z,               d'_J = sum_k phi_k(h_J) q_k' e_k, t_J = q' . w_J
    u_J''|q''=0 = -p_J z,              p_J = q'^T AxRed(J) q'
    L_Jk = phi_k(h_J) e_k - w_Jk z,    w_J = AxRed(J) q

So every mass-weighted sum over the nodes that the coupled solve needs (P, dP, Q, dQ of Wang
4.12, 5.16-5.22 and the sums nm1, nL, nD, nLL, nLr, nLv, nLa of
:func:`floatwind._kernels.flex.flex_state`) is a contraction of the node sums
<f g> = sum_J m_J f(h_J) g(h_J) of products of 1, n0, phi and AxRed, computed once at assembly
(``floatwind.multibody.flex_tower.node_tensors``: ElastoDyn's midpoint rule on its own nodes):

    N00 = <n0 n0^T> (3, 3), N0p = <n0 phi_k> (3, n), N0a = <n0 AxRed_kl> (3, n, n),
    Npp = <phi_k phi_l> (n, n), Npa = <phi_m AxRed_kl> (n, n, n),
    Naa = <AxRed_kj AxRed_lm> (n, n, n, n), stored [k, l, m, j]

with the first moments c0 = <n0>, pm = <phi_k>, am = <AxRed_kl> and M_n = <1>. Per right-hand
side: the contractions with q (<n0 w_k>, <phi_m w_k>, <w_k AxRed_lm> (n^4 = 256 products),
<w_k w_l>), then the second moments about the system CM G_s by the parallel-axis shift
(<r X^T> = <u X^T> - ...), no loop over the nodes. The same sums as the per-node assembly in
another order: equal to it to round-off.
"""

from __future__ import annotations

from floatwind.jit import njit

__all__ = ["FP_TENSORS", "IP_TENSORS", "node_sums", "nsum_size", "xlay"]

#: the modal tensors' names in ``fp`` (their offsets in ``ip`` from :data:`IP_TENSORS` on;
#: ``floatwind._kernels.flex.pack``)
FP_TENSORS = ("N00", "N0p", "N0a", "Npp", "Npa", "Naa")
#: ip index of N00's offset (after the 6 sizes, 21 float and 5 int array offsets of flex.pack)
IP_TENSORS = 32
# ip indices of the arrays read here (floatwind._kernels.flex._FP_FIELDS order)
_IP_E, _IP_C0, _IP_SC = 8, 22, 26


@njit(cache=True, fastmath=False, inline="always")
def xlay(N, nf):
    """Offsets of one member's row of the flexible state (:func:`floatwind._kernels.flex.
    flex_state`) and its size (the last): rho, drho, ddrho (N, 3) of the bodies about G_s (C_1),
    R (N, 3, 3), w, dw (N, 3), P, dP (3, 3), Q, dQ (3,) of bodies + nodes, the partials E, L
    (N, 3, nf), and the node sums nm1 (3,), nL, nD (3, nf), nLL (nf, nf), nLr (nf, 3, 3), nLv
    (3, nf), nLa (nf,)."""
    oRho = 0
    oDrho = 3 * N
    oDdrho = 6 * N
    oR = 9 * N
    oW = 18 * N
    oDw = 21 * N
    oP = 24 * N
    odP = oP + 9
    oQ = odP + 9
    odQ = oQ + 3
    oE = odQ + 3
    oL = oE + 3 * N * nf
    onm1 = oL + 3 * N * nf
    onL = onm1 + 3
    onD = onL + 3 * nf
    onLL = onD + 3 * nf
    onLr = onLL + nf * nf
    onLv = onLr + 9 * nf
    onLa = onLv + 3 * nf
    size = onLa + nf
    return (oRho, oDrho, oDdrho, oR, oW, oDw, oP, odP, oQ, odQ, oE, oL, onm1, onL, onD, onLL,
            onLr, onLv, onLa, size)  # fmt: skip


@njit(cache=True, fastmath=False, inline="always")
def nsum_size(n):
    """Scratch of :func:`node_sums` for n modes."""
    return 3 * n + 3 * n * n + n * n * n + 18 * n + 36


@njit(cache=True, fastmath=False, inline="always")
def node_sums(fp, ip, X, x, ws, w):
    """Add the nodes' P, dP, Q, dQ to one member's row ``X[x:]`` (:func:`xlay`) and write its
    node sums nm1, nL, nD, nLL, nLr, nLv, nLa (docs/multibody.md "Flexible tower").

    ``w`` the offsets in ``ws``: (q, q', r_s, r_s', r_s'' (G_s and its derivatives, 3 each),
    <u> - c0, <u'>, <u''> (3 each, ``flex._deflect`` on pm, am), <L_k> (3, n), the mean
    partial Lb (3, nf), the scratch (:func:`nsum_size`))."""
    wq, wqd, wrs, wdrs, wddrs, wrn, wvn, wan, wLs, wLb, o = w
    N, nj, n, nf = ip[0], ip[1], ip[2], ip[3]
    (oRho, oDrho, oDdrho, oR, oW, oDw, oP, odP, oQ, odQ, oE, oL, onm1, onL, onD, onLL, onLr,
     onLv, onLa, S) = xlay(N, nf)  # fmt: skip
    o_e, o_c0 = ip[_IP_E], ip[_IP_C0]
    Mn = fp[ip[_IP_SC] + 2]
    t = IP_TENSORS
    o00, o0p, o0a, opp, opa, oaa = ip[t], ip[t + 1], ip[t + 2], ip[t + 3], ip[t + 4], ip[t + 5]
    nn = n * n
    # scratch: W0 = <n0 w_k> (3, n), Wp = <phi_m w_k> (n, n), Aw = <w_k AxRed_lm> (n, n, n),
    # Ww = <w_k w_l> (n, n); ps, pt, pp = <phi_m s>, <phi_m t>, <phi_m p>; wS, wT, wP = <w_k s>,
    # <w_k t>, <w_k p>; Up, Uw, Vp, Vw = <u phi_k>, <u w_k>, <u' phi_k>, <u' w_k> (3, n); then
    # 3-vectors and 3x3 blocks
    oW0 = o
    oWp = oW0 + 3 * n
    oAw = oWp + nn
    oWw = oAw + nn * n
    ops, opt, opp_, owS, owT, owP = (oWw + nn, oWw + nn + n, oWw + nn + 2 * n, oWw + nn + 3 * n,
                                     oWw + nn + 4 * n, oWw + nn + 5 * n)  # fmt: skip
    oUp = owP + n
    oUw = oUp + 3 * n
    oVp = oUw + 3 * n
    oVw = oVp + 3 * n
    v = oVw + 3 * n
    on0s, on0t, on0p, ouS, ouT, ouP = v, v + 3, v + 6, v + 9, v + 12, v + 15
    oSa, oSb = v + 18, v + 27  # 3x3: <u u^T>, <u d'^T>
    oD2 = v + 36  # q' q'^T (n, n)
    # contractions with q: w_J = AxRed(J) q; D2 = q' q'^T
    for c in range(3):
        for k in range(n):
            a = 0.0
            for m in range(n):
                a += fp[o0a + (c * n + k) * n + m] * ws[wq + m]
            ws[oW0 + c * n + k] = a
    for mm in range(n):
        for k in range(n):
            a = 0.0
            for m in range(n):
                a += fp[opa + (mm * n + k) * n + m] * ws[wq + m]
            ws[oWp + mm * n + k] = a
    # Aw[k, l, m] = <w_k AxRed_lm> = sum_j Naa[k, l, m, j] q_j (Naa stored j last)
    for klm in range(nn * n):
        a = 0.0
        for j in range(n):
            a += fp[oaa + klm * n + j] * ws[wq + j]
        ws[oAw + klm] = a
    for kl in range(nn):
        a = 0.0
        for m in range(n):
            a += ws[oAw + kl * n + m] * ws[wq + m]
        ws[oWw + kl] = a
    for k in range(n):
        for m in range(n):
            ws[oD2 + k * n + m] = ws[wqd + k] * ws[wqd + m]
    # the scalar fields s = q . w, t = q' . w, p = q'^T AxRed q' against n0, phi_m, w_k
    for c in range(3):
        a = 0.0
        b = 0.0
        d = 0.0
        for k in range(n):
            a += ws[oW0 + c * n + k] * ws[wq + k]
            b += ws[oW0 + c * n + k] * ws[wqd + k]
        for km in range(nn):
            d += fp[o0a + c * nn + km] * ws[oD2 + km]
        ws[on0s + c] = a
        ws[on0t + c] = b
        ws[on0p + c] = d
    for mm in range(n):
        a = 0.0
        b = 0.0
        cs = 0.0
        ct = 0.0
        for k in range(n):
            a += ws[oWp + mm * n + k] * ws[wq + k]
            b += ws[oWp + mm * n + k] * ws[wqd + k]
            cs += ws[oWw + mm * n + k] * ws[wq + k]
            ct += ws[oWw + mm * n + k] * ws[wqd + k]
        d = 0.0
        d2 = 0.0
        for km in range(nn):
            d += fp[opa + mm * nn + km] * ws[oD2 + km]
            d2 += ws[oAw + mm * nn + km] * ws[oD2 + km]
        ws[ops + mm] = a
        ws[opt + mm] = b
        ws[opp_ + mm] = d
        ws[owS + mm] = cs
        ws[owT + mm] = ct
        ws[owP + mm] = d2
    ss = 0.0
    st = 0.0
    sp = 0.0
    for k in range(n):
        ss += ws[wq + k] * ws[owS + k]
        st += ws[wq + k] * ws[owT + k]
        sp += ws[wq + k] * ws[owP + k]
    # <u s>, <u t>, <u p> and <u phi_k>, <u w_k>, <u' phi_k>, <u' w_k> (3-vectors)
    for c in range(3):
        ws[ouS + c] = ws[on0s + c]
        ws[ouT + c] = ws[on0t + c]
        ws[ouP + c] = ws[on0p + c]
    for k in range(n):
        qk = ws[wq + k]
        for c in range(3):
            ek = fp[o_e + 3 * k + c]
            ws[ouS + c] += ws[ops + k] * qk * ek
            ws[ouT + c] += ws[opt + k] * qk * ek
            ws[ouP + c] += ws[opp_ + k] * qk * ek
    ws[ouS + 2] -= 0.5 * ss
    ws[ouT + 2] -= 0.5 * st
    ws[ouP + 2] -= 0.5 * sp
    for k in range(n):
        for c in range(3):
            a = fp[o0p + c * n + k]
            b = ws[oW0 + c * n + k]
            d = 0.0
            e = 0.0
            for m in range(n):
                em = fp[o_e + 3 * m + c]
                a += fp[opp + k * n + m] * ws[wq + m] * em
                b += ws[oWp + m * n + k] * ws[wq + m] * em
                d += fp[opp + k * n + m] * ws[wqd + m] * em
                e += ws[oWp + m * n + k] * ws[wqd + m] * em
            ws[oUp + c * n + k] = a
            ws[oUw + c * n + k] = b
            ws[oVp + c * n + k] = d
            ws[oVw + c * n + k] = e
        ws[oUp + 2 * n + k] -= 0.5 * ws[ops + k]
        ws[oUw + 2 * n + k] -= 0.5 * ws[owS + k]
        ws[oVp + 2 * n + k] -= ws[opt + k]
        ws[oVw + 2 * n + k] -= ws[owT + k]
    # about G_s: r = u - r_s, nm1 = <r> = <u> - M_n r_s; <u'> - M_n r_s', <u''> - M_n r_s''
    rs0, rs1, rs2 = ws[wrs], ws[wrs + 1], ws[wrs + 2]
    dr0, dr1, dr2 = ws[wdrs], ws[wdrs + 1], ws[wdrs + 2]
    U0 = fp[o_c0] + ws[wrn]
    U1 = fp[o_c0 + 1] + ws[wrn + 1]
    U2 = fp[o_c0 + 2] + ws[wrn + 2]
    m0 = U0 - Mn * rs0
    m1 = U1 - Mn * rs1
    m2 = U2 - Mn * rs2
    V0, V1, V2 = ws[wvn], ws[wvn + 1], ws[wvn + 2]
    Vm0 = V0 - Mn * dr0
    Vm1 = V1 - Mn * dr1
    Vm2 = V2 - Mn * dr2
    A0, A1, A2 = ws[wan], ws[wan + 1], ws[wan + 2]
    Am0 = A0 - Mn * ws[wddrs]
    Am1 = A1 - Mn * ws[wddrs + 1]
    Am2 = A2 - Mn * ws[wddrs + 2]
    X[x + onm1] = m0
    X[x + onm1 + 1] = m1
    X[x + onm1 + 2] = m2
    # P = <|r|^2 1 - r r^T> (Wang 4.12): <u u^T> = <u n0^T> + <u d^T> - 1/2 <u s> z^T, then
    # <r r^T> = <u u^T> - <u> r_s^T - r_s nm1^T (the upper triangle: P symmetric)
    for a in range(3):
        for b in range(a, 3):
            s_ = fp[o00 + 3 * a + b]
            for k in range(n):
                s_ += ws[wq + k] * (fp[o_e + 3 * k + a] * fp[o0p + b * n + k]
                                    + ws[oUp + a * n + k] * fp[o_e + 3 * k + b])  # fmt: skip
            if a == 2:
                s_ -= 0.5 * ws[on0s + b]
            if b == 2:
                s_ -= 0.5 * ws[ouS + a]
            ws[oSa + 3 * a + b] = s_
    S00 = ws[oSa] - U0 * rs0 - rs0 * m0
    S01 = ws[oSa + 1] - U0 * rs1 - rs0 * m1
    S02 = ws[oSa + 2] - U0 * rs2 - rs0 * m2
    S11 = ws[oSa + 4] - U1 * rs1 - rs1 * m1
    S12 = ws[oSa + 5] - U1 * rs2 - rs1 * m2
    S22 = ws[oSa + 8] - U2 * rs2 - rs2 * m2
    tr = S00 + S11 + S22
    xP = x + oP
    X[xP] += tr - S00
    X[xP + 4] += tr - S11
    X[xP + 8] += tr - S22
    X[xP + 1] -= S01
    X[xP + 3] -= S01
    X[xP + 2] -= S02
    X[xP + 6] -= S02
    X[xP + 5] -= S12
    X[xP + 7] -= S12
    # <r r'^T> = <u d'^T> - <u t> z^T - nm1 r_s'^T - r_s <u'>^T: dP, Q (Wang 5.16-5.22)
    for a in range(3):
        for b in range(3):
            s_ = 0.0
            for k in range(n):
                s_ += ws[wqd + k] * ws[oUp + a * n + k] * fp[o_e + 3 * k + b]
            ws[oSb + 3 * a + b] = s_
    S00 = ws[oSb] - m0 * dr0 - rs0 * V0
    S01 = ws[oSb + 1] - m0 * dr1 - rs0 * V1
    S02 = ws[oSb + 2] - ws[ouT] - m0 * dr2 - rs0 * V2
    S10 = ws[oSb + 3] - m1 * dr0 - rs1 * V0
    S11 = ws[oSb + 4] - m1 * dr1 - rs1 * V1
    S12 = ws[oSb + 5] - ws[ouT + 1] - m1 * dr2 - rs1 * V2
    S20 = ws[oSb + 6] - m2 * dr0 - rs2 * V0
    S21 = ws[oSb + 7] - m2 * dr1 - rs2 * V1
    S22 = ws[oSb + 8] - ws[ouT + 2] - m2 * dr2 - rs2 * V2
    tr2 = 2.0 * (S00 + S11 + S22)
    xdP = x + odP
    X[xdP] += tr2 - (S00 + S00)
    X[xdP + 4] += tr2 - (S11 + S11)
    X[xdP + 8] += tr2 - (S22 + S22)
    X[xdP + 1] -= S01 + S10
    X[xdP + 3] -= S10 + S01
    X[xdP + 2] -= S02 + S20
    X[xdP + 6] -= S20 + S02
    X[xdP + 5] -= S12 + S21
    X[xdP + 7] -= S21 + S12
    X[x + oQ] += S12 - S21
    X[x + oQ + 1] += S20 - S02
    X[x + oQ + 2] += S01 - S10
    # <r r''^T> = -<u p> z^T - nm1 r_s''^T - r_s <u''>^T: dQ (Wang 5.20)
    dd0, dd1, dd2 = ws[wddrs], ws[wddrs + 1], ws[wddrs + 2]
    X[x + odQ] += (-m1 * dd2 - rs1 * A2 - ws[ouP + 1]) - (-m2 * dd1 - rs2 * A1)
    X[x + odQ + 1] += (-m2 * dd0 - rs2 * A0) - (-m0 * dd2 - rs0 * A2 - ws[ouP])
    X[x + odQ + 2] += (-m0 * dd1 - rs0 * A1) - (-m1 * dd0 - rs1 * A0)
    # per DOF column j (a mode k = j - nj: L_Jk; a joint: 0), Lc_j = L_j - Lb_j:
    # nL_j = <L_j> - M_n Lb_j; <r Lc_j^T> = <u L_j^T> - nm1 Lb_j^T - r_s <L_j>^T (nD, nLr);
    # <r' Lc_j^T> = <u' L_j^T> - (<u'> - M_n r_s') Lb_j^T - r_s' <L_j>^T (nLv);
    # nLa_j = <L_j . u''> - <L_j> . r_s'' - Lb_j . (<u''> - M_n r_s''), <L_k . u''> =
    # <w_k p> - (e_k . z) <phi_k p>
    for j in range(nf):
        k = j - nj
        b0, b1, b2 = ws[wLb + j], ws[wLb + nf + j], ws[wLb + 2 * nf + j]
        if k >= 0:
            l0, l1, l2 = ws[wLs + k], ws[wLs + n + k], ws[wLs + 2 * n + k]
            e0, e1, e2 = fp[o_e + 3 * k], fp[o_e + 3 * k + 1], fp[o_e + 3 * k + 2]
            p0, p1, p2 = ws[oUp + k], ws[oUp + n + k], ws[oUp + 2 * n + k]
            w0, w1, w2 = ws[oUw + k], ws[oUw + n + k], ws[oUw + 2 * n + k]
            g0, g1, g2 = ws[oVp + k], ws[oVp + n + k], ws[oVp + 2 * n + k]
            h0, h1 = ws[oVw + k], ws[oVw + n + k]
            la = ws[owP + k] - e2 * ws[opp_ + k]
        else:
            l0 = l1 = l2 = e0 = e1 = e2 = p0 = p1 = p2 = w0 = w1 = w2 = 0.0
            g0 = g1 = g2 = h0 = h1 = la = 0.0
        X[x + onL + j] = l0 - Mn * b0
        X[x + onL + nf + j] = l1 - Mn * b1
        X[x + onL + 2 * nf + j] = l2 - Mn * b2
        # <r Lc^T>_ab = p_a e_b - w_a z_b - nm1_a Lb_b - r_s,a <L>_b
        S00 = p0 * e0 - m0 * b0 - rs0 * l0
        S01 = p0 * e1 - m0 * b1 - rs0 * l1
        S02 = p0 * e2 - w0 - m0 * b2 - rs0 * l2
        S10 = p1 * e0 - m1 * b0 - rs1 * l0
        S11 = p1 * e1 - m1 * b1 - rs1 * l1
        S12 = p1 * e2 - w1 - m1 * b2 - rs1 * l2
        S20 = p2 * e0 - m2 * b0 - rs2 * l0
        S21 = p2 * e1 - m2 * b1 - rs2 * l1
        S22 = p2 * e2 - w2 - m2 * b2 - rs2 * l2
        X[x + onD + j] = S12 - S21
        X[x + onD + nf + j] = S20 - S02
        X[x + onD + 2 * nf + j] = S01 - S10
        oj = x + onLr + 9 * j
        X[oj] = S00
        X[oj + 1] = S10
        X[oj + 2] = S20
        X[oj + 3] = S01
        X[oj + 4] = S11
        X[oj + 5] = S21
        X[oj + 6] = S02
        X[oj + 7] = S12
        X[oj + 8] = S22
        # <r' Lc^T>_ab = g_a e_b - h_a z_b - (<u'> - M_n r_s')_a Lb_b - r_s',a <L>_b: nLv
        S01 = g0 * e1 - Vm0 * b1 - dr0 * l1
        S02 = g0 * e2 - h0 - Vm0 * b2 - dr0 * l2
        S10 = g1 * e0 - Vm1 * b0 - dr1 * l0
        S12 = g1 * e2 - h1 - Vm1 * b2 - dr1 * l2
        S20 = g2 * e0 - Vm2 * b0 - dr2 * l0
        S21 = g2 * e1 - Vm2 * b1 - dr2 * l1
        X[x + onLv + j] = S12 - S21
        X[x + onLv + nf + j] = S20 - S02
        X[x + onLv + 2 * nf + j] = S01 - S10
        X[x + onLa + j] = la - (l0 * dd0 + l1 * dd1 + l2 * dd2) - (b0 * Am0 + b1 * Am1 + b2 * Am2)
    # nLL_ij = <L_i . L_j> - <L_i> . Lb_j - Lb_i . nL_j (symmetric: i <= j, mirrored),
    # <L_k . L_l> = (e_k . e_l) <phi_k phi_l> - (e_k . z) <phi_k w_l> - (e_l . z) <phi_l w_k>
    # + <w_k w_l>
    for j in range(nf):
        l = j - nj
        c0_ = X[x + onL + j]
        c1_ = X[x + onL + nf + j]
        c2_ = X[x + onL + 2 * nf + j]
        bj0, bj1, bj2 = ws[wLb + j], ws[wLb + nf + j], ws[wLb + 2 * nf + j]
        for i in range(j + 1):
            k = i - nj
            a = 0.0
            if k >= 0:
                a = (
                    (fp[o_e + 3 * k] * fp[o_e + 3 * l] + fp[o_e + 3 * k + 1] * fp[o_e + 3 * l + 1]
                     + fp[o_e + 3 * k + 2] * fp[o_e + 3 * l + 2]) * fp[opp + k * n + l]
                    - fp[o_e + 3 * k + 2] * ws[oWp + k * n + l]
                    - fp[o_e + 3 * l + 2] * ws[oWp + l * n + k]
                    + ws[oWw + k * n + l]
                    - (ws[wLs + k] * bj0 + ws[wLs + n + k] * bj1 + ws[wLs + 2 * n + k] * bj2)
                )  # fmt: skip
            a -= ws[wLb + i] * c0_ + ws[wLb + nf + i] * c1_ + ws[wLb + 2 * nf + i] * c2_
            X[x + onLL + i * nf + j] = a
            X[x + onLL + j * nf + i] = a
