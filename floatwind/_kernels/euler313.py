"""Compiled form of the 3-1-3 Euler formulation (Wang ch. II, floatwind.multibody.euler313).

Two kernels with a loop over the batch axis and the same operation order for every member (a
member gives the same bits alone and in a batch):

* :func:`kinematics`: the tower and RNA body kinematics for the loads (and a status per member:
  0 fine, ``SPIN_AXIS_VERTICAL`` (``floatwind._kernels.status``), where the NumPy path raises
  the clear error);
* :func:`accelerations`: the tower equations (2.19)-(2.24) with the RNA moments (2.27)-(2.29),
  (2.33) and the RNA forces (2.39), assembled from the residual at four trial accelerations as in
  :func:`floatwind.multibody.euler313.forward_dynamics`, solved by Cramer's rule.

The NumPy functions stay the reference (``FLOATWIND_NO_JIT=1``); tests hold the two to 1e-12.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from floatwind._kernels.status import SPIN_AXIS_VERTICAL
from floatwind.jit import njit


class Params(NamedTuple):
    """Frozen numbers of an :class:`~floatwind.multibody.euler313.Euler313Body`, read by name."""

    m_rna: float  # kg
    I_pivot: float  # tower tilt inertia about O_s (kg m^2)
    I_axial: float  # tower inertia about its axis (kg m^2)
    I_A: float  # RNA inertias (kg m^2)
    I_B: float
    I_C: float
    l_rna: float  # RNA CM above O_s (m)
    d_tower: float  # tower CM above O_s (m, negative)
    spin_axis: np.ndarray  # (3,) B in the tower frame at zero yaw
    rotor_torque: float  # M_windB (N m)
    pivot: np.ndarray  # (3,) O_s, inertial (m)
    rna_singular: float  # |sin(theta)| below which the RNA angles are singular
    R_ref: np.ndarray  # (2, 3, 3) chart reference frames
    exact: bool  # rna_equations "exact" (else Wang's 2.27-2.29)


@njit(cache=True, fastmath=False)
def _frames(ang, chart, yaw, R_ref):
    """(x, y, z) frame, tower matrix, nacelle matrix of one member."""
    th1, th2, eta = ang[0], ang[1], ang[2]
    c1, s1 = math.cos(th1), math.sin(th1)
    c2, s2 = math.cos(th2), math.sin(th2)
    # T_Z(theta_2) T_x(theta_1), Wang (2.41)
    M = np.empty((3, 3))
    M[0, 0], M[0, 1], M[0, 2] = c2, -c1 * s2, s1 * s2
    M[1, 0], M[1, 1], M[1, 2] = s2, c1 * c2, -c2 * s1
    M[2, 0], M[2, 1], M[2, 2] = 0.0, s1, c1
    Rx = np.empty((3, 3))
    for i in range(3):
        for j in range(3):
            Rx[i, j] = (
                R_ref[chart, i, 0] * M[0, j]
                + R_ref[chart, i, 1] * M[1, j]
                + R_ref[chart, i, 2] * M[2, j]
            )
    ce, se = math.cos(eta), math.sin(eta)
    Rt = np.empty((3, 3))
    for i in range(3):
        Rt[i, 0] = Rx[i, 0] * ce + Rx[i, 1] * se
        Rt[i, 1] = -Rx[i, 0] * se + Rx[i, 1] * ce
        Rt[i, 2] = Rx[i, 2]
    cg, sg = math.cos(yaw), math.sin(yaw)
    Rn = np.empty((3, 3))
    for i in range(3):
        Rn[i, 0] = Rt[i, 0] * cg + Rt[i, 1] * sg
        Rn[i, 1] = -Rt[i, 0] * sg + Rt[i, 1] * cg
        Rn[i, 2] = Rt[i, 2]
    return Rx, Rt, Rn


@njit(cache=True, fastmath=False)
def _cross(a, b):
    out = np.empty(3)
    out[0] = a[1] * b[2] - a[2] * b[1]
    out[1] = a[2] * b[0] - a[0] * b[2]
    out[2] = a[0] * b[1] - a[1] * b[0]
    return out


@njit(cache=True, fastmath=False)
def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@njit(cache=True, fastmath=False)
def _mv(M, v):
    out = np.empty(3)
    for i in range(3):
        out[i] = M[i, 0] * v[0] + M[i, 1] * v[1] + M[i, 2] * v[2]
    return out


@njit(cache=True, fastmath=False)
def _mtv(M, v):
    out = np.empty(3)
    for i in range(3):
        out[i] = M[0, i] * v[0] + M[1, i] * v[1] + M[2, i] * v[2]
    return out


@njit(cache=True, fastmath=False)
def kinematics(p, ang, rates, chart, yaw, yaw_rate, r_G, R_b2g, v_G, w_g, status):
    """Fill the body kinematics (B, 2, ...) of tower (0) and RNA (1); status
    ``SPIN_AXIS_VERTICAL`` where the spin axis is vertical."""
    for b in range(ang.shape[0]):
        Rx, Rt, Rn = _frames(ang[b], chart[b], yaw, p.R_ref)
        d1, d2, de = rates[b, 0], rates[b, 1], rates[b, 2]
        s1, c1 = math.sin(ang[b, 0]), math.cos(ang[b, 0])
        wl = np.empty(3)
        wl[0], wl[1], wl[2] = d1, d2 * s1, d2 * c1 + de  # Wang (2.18)
        wt = _mv(Rx, wl)
        z = np.empty(3)
        for i in range(3):
            z[i] = Rx[i, 2]
        rT = p.d_tower * z
        rR = p.l_rna * z
        vT = _cross(wt, rT)
        vR = _cross(wt, rR)
        for i in range(3):
            r_G[b, 0, i] = p.pivot[i] + rT[i]
            r_G[b, 1, i] = p.pivot[i] + rR[i]
            v_G[b, 0, i] = vT[i]
            v_G[b, 1, i] = vR[i]
            w_g[b, 0, i] = wt[i]
            w_g[b, 1, i] = wt[i] + yaw_rate * z[i]
            for j in range(3):
                R_b2g[b, 0, i, j] = Rt[i, j]
                R_b2g[b, 1, i, j] = Rn[i, j]
        Bx = Rn[0, 0] * p.spin_axis[0] + Rn[0, 1] * p.spin_axis[1] + Rn[0, 2] * p.spin_axis[2]
        By = Rn[1, 0] * p.spin_axis[0] + Rn[1, 1] * p.spin_axis[1] + Rn[1, 2] * p.spin_axis[2]
        status[b] = SPIN_AXIS_VERTICAL if math.hypot(Bx, By) < p.rna_singular else 0


@njit(cache=True, fastmath=False, inline="always")
def _cr(ax, ay, az, bx, by, bz):
    return ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx


@njit(cache=True, fastmath=False, inline="always")
def _nac(Rn, cx, cy, IA, IC, vx, vy, vz):
    """I_g v for the nacelle inertia I_A about z and I_C about c0 = (cx, cy, 0), body axes."""
    bx = Rn[0, 0] * vx + Rn[1, 0] * vy + Rn[2, 0] * vz
    by = Rn[0, 1] * vx + Rn[1, 1] * vy + Rn[2, 1] * vz
    bz = Rn[0, 2] * vx + Rn[1, 2] * vy + Rn[2, 2] * vz
    k = IC * (bx * cx + by * cy)
    ux, uy, uz = k * cx, k * cy, IA * bz
    return (
        Rn[0, 0] * ux + Rn[0, 1] * uy + Rn[0, 2] * uz,
        Rn[1, 0] * ux + Rn[1, 1] * uy + Rn[1, 2] * uz,
        Rn[2, 0] * ux + Rn[2, 1] * uy + Rn[2, 2] * uz,
    )


@njit(cache=True, fastmath=False)
def accelerations(p, ang, rates, chart, yaw, force, moment, added_mass, coupled, acc, status):
    """(theta_1, theta_2, eta)'' (B, 3) from the tower equations; ``yaw`` = (gamma, gamma_dot,
    gamma_ddot, Omega, Omega_dot) of this time; ``force``/``moment`` (B, 2, 3) on tower and RNA,
    inertial, about each CM; ``added_mass`` (B, 2, 6, 6) when ``coupled``. Scalar arithmetic
    (no allocation per member)."""
    m_R, I, Iz, IA, IB, IC = p.m_rna, p.I_pivot, p.I_axial, p.I_A, p.I_B, p.I_C
    lR, dT = p.l_rna, p.d_tower
    g, gd, gdd, Om, dOm = yaw[0], yaw[1], yaw[2], yaw[3], yaw[4]
    res = np.empty((4, 3))
    aT = np.empty(3)
    aR = np.empty(3)
    al = np.empty(3)
    aln = np.empty(3)
    for b in range(ang.shape[0]):
        Rx, Rt, Rn = _frames(ang[b], chart[b], g, p.R_ref)
        th1 = ang[b, 0]
        s1, c1 = math.sin(th1), math.cos(th1)
        d1, d2, de = rates[b, 0], rates[b, 1], rates[b, 2]
        # omega (2.18) and Omega in (x, y, z); Omega x omega
        wl0, wl1, wl2 = d1, d2 * s1, d2 * c1 + de
        W0, W1, W2 = d1, d2 * s1, d2 * c1
        X0, X1, X2 = _cr(W0, W1, W2, wl0, wl1, wl2)
        wtx = Rx[0, 0] * wl0 + Rx[0, 1] * wl1 + Rx[0, 2] * wl2
        wty = Rx[1, 0] * wl0 + Rx[1, 1] * wl1 + Rx[1, 2] * wl2
        wtz = Rx[2, 0] * wl0 + Rx[2, 1] * wl1 + Rx[2, 2] * wl2
        zx, zy, zz = Rx[0, 2], Rx[1, 2], Rx[2, 2]
        wnx, wny, wnz = wtx + gd * zx, wty + gd * zy, wtz + gd * zz
        Bx = Rn[0, 0] * p.spin_axis[0] + Rn[0, 1] * p.spin_axis[1] + Rn[0, 2] * p.spin_axis[2]
        By = Rn[1, 0] * p.spin_axis[0] + Rn[1, 1] * p.spin_axis[1] + Rn[1, 2] * p.spin_axis[2]
        Bz = Rn[2, 0] * p.spin_axis[0] + Rn[2, 1] * p.spin_axis[1] + Rn[2, 2] * p.spin_axis[2]
        rho = math.hypot(Bx, By)
        if rho < p.rna_singular:
            status[b] = SPIN_AXIS_VERTICAL
            acc[b, 0] = acc[b, 1] = acc[b, 2] = math.nan
            continue
        status[b] = 0
        phi = math.atan2(-Bx, By)
        sth, cth = -rho, Bz
        Cx, Cy, Cz = math.cos(phi), math.sin(phi), 0.0
        Ax, Ay, Az = _cr(Bx, By, Bz, Cx, Cy, Cz)
        phid = (wnx * Ax + wny * Ay + wnz * Az) / sth
        thd = wnx * Cx + wny * Cy + wnz * Cz
        wB = wtx * Bx + wty * By + wtz * Bz + Om
        Wax, Way, Waz = thd * Cx, thd * Cy, thd * Cz + phid
        dAx, dAy, dAz = _cr(Wax, Way, Waz, Ax, Ay, Az)
        dCx, dCy, dCz = _cr(Wax, Way, Waz, Cx, Cy, Cz)
        wn_dC = wnx * dCx + wny * dCy + wnz * dCz
        wn_dA = wnx * dAx + wny * dAy + wnz * dAz
        wzx, wzy, wzz = _cr(wtx, wty, wtz, zx, zy, zz)
        nBx, nBy, nBz = _cr(wnx, wny, wnz, Bx, By, Bz)
        wt_wnB = wtx * nBx + wty * nBy + wtz * nBz
        rTx, rTy, rTz = dT * zx, dT * zy, dT * zz
        rRx, rRy, rRz = lR * zx, lR * zy, lR * zz
        u = _cr(wtx, wty, wtz, rTx, rTy, rTz)
        cTx, cTy, cTz = _cr(wtx, wty, wtz, u[0], u[1], u[2])
        u = _cr(wtx, wty, wtz, rRx, rRy, rRz)
        cRx, cRy, cRz = _cr(wtx, wty, wtz, u[0], u[1], u[2])
        # exact RNA: nacelle (I_A, I_C) + axisymmetric rotor (I_B), velocity terms of dH/dt
        c0x, c0y = p.spin_axis[1], -p.spin_axis[0]  # spin_axis x z
        Hw = _nac(Rn, c0x, c0y, IA, IC, wnx, wny, wnz)
        gx, gy, gz = _cr(wnx, wny, wnz, Hw[0], Hw[1], Hw[2])
        gx, gy, gz = gx + IB * wB * nBx, gy + IB * wB * nBy, gz + IB * wB * nBz
        wz = d2 * c1 + de
        for k in range(4):
            a0 = 1.0 if k == 1 else 0.0
            a1 = 1.0 if k == 2 else 0.0
            a2 = 1.0 if k == 3 else 0.0
            q0 = a0 + X0
            q1 = a1 * s1 + d1 * d2 * c1 + X1
            q2 = a1 * c1 - d1 * d2 * s1 + a2 + X2
            for i in range(3):
                al[i] = Rx[i, 0] * q0 + Rx[i, 1] * q1 + Rx[i, 2] * q2
            aln[0] = al[0] + gdd * zx + gd * wzx
            aln[1] = al[1] + gdd * zy + gd * wzy
            aln[2] = al[2] + gdd * zz + gd * wzz
            thdd = aln[0] * Cx + aln[1] * Cy + aln[2] * Cz + wn_dC
            phidd = (aln[0] * Ax + aln[1] * Ay + aln[2] * Az + wn_dA - phid * cth * thd) / sth
            dwB = al[0] * Bx + al[1] * By + al[2] * Bz + wt_wnB + dOm
            if p.exact:
                Ia = _nac(Rn, c0x, c0y, IA, IC, aln[0], aln[1], aln[2])
                hx = Ia[0] + gx + IB * dwB * Bx
                hy = Ia[1] + gy + IB * dwB * By
                hz = Ia[2] + gz + IB * dwB * Bz
                MA = hx * Ax + hy * Ay + hz * Az
                MB = hx * Bx + hy * By + hz * Bz - p.rotor_torque
                MC = hx * Cx + hy * Cy + hz * Cz
            else:
                MA = IA * (phidd * sth + 2.0 * thd * phid * cth) - IB * thd * wB  # (2.27)
                MB = IB * dwB - p.rotor_torque  # (2.28)
                MC = IC * (thdd - phid * phid * sth * cth) + IB * phid * sth * wB  # (2.29)
            v = _cr(al[0], al[1], al[2], rRx, rRy, rRz)
            aR[0], aR[1], aR[2] = v[0] + cRx, v[1] + cRy, v[2] + cRz
            v = _cr(al[0], al[1], al[2], rTx, rTy, rTz)
            aT[0], aT[1], aT[2] = v[0] + cTx, v[1] + cTy, v[2] + cTz
            FT0, FT1, FT2 = force[b, 0, 0], force[b, 0, 1], force[b, 0, 2]
            FR0, FR1, FR2 = force[b, 1, 0], force[b, 1, 1], force[b, 1, 2]
            MT0, MT1, MT2 = moment[b, 0, 0], moment[b, 0, 1], moment[b, 0, 2]
            MR0, MR1, MR2 = moment[b, 1, 0], moment[b, 1, 1], moment[b, 1, 2]
            if coupled:
                r = np.zeros(12)
                for i in range(3):
                    for j in range(3):
                        r[i] += added_mass[b, 0, i, j] * aT[j] + added_mass[b, 0, i, 3 + j] * al[j]
                        r[3 + i] += (
                            added_mass[b, 1, i, j] * aR[j] + added_mass[b, 1, i, 3 + j] * aln[j]
                        )
                        r[6 + i] += (
                            added_mass[b, 0, 3 + i, j] * aT[j]
                            + added_mass[b, 0, 3 + i, 3 + j] * al[j]
                        )
                        r[9 + i] += (
                            added_mass[b, 1, 3 + i, j] * aR[j]
                            + added_mass[b, 1, 3 + i, 3 + j] * aln[j]
                        )
                FT0, FT1, FT2 = FT0 - r[0], FT1 - r[1], FT2 - r[2]
                FR0, FR1, FR2 = FR0 - r[3], FR1 - r[4], FR2 - r[5]
                MT0, MT1, MT2 = MT0 - r[6], MT1 - r[7], MT2 - r[8]
                MR0, MR1, MR2 = MR0 - r[9], MR1 - r[10], MR2 - r[11]
            e0, e1, e2 = _cr(
                rRx, rRy, rRz, FR0 - m_R * aR[0], FR1 - m_R * aR[1], FR2 - m_R * aR[2]
            )  # (2.39)
            f0, f1, f2 = _cr(rTx, rTy, rTz, FT0, FT1, FT2)
            # (2.33) RNA moments, (2.39) RNA forces, tower loads about O_s: (2.22)-(2.24)
            G0 = -(MA * Ax + MB * Bx + MC * Cx) + MR0 + e0 + MT0 + f0
            G1 = -(MA * Ay + MB * By + MC * Cy) + MR1 + e1 + MT1 + f1
            G2 = -(MA * Az + MB * Bz + MC * Cz) + MR2 + e2 + MT2 + f2
            Ms0 = Rx[0, 0] * G0 + Rx[1, 0] * G1 + Rx[2, 0] * G2
            Ms1 = Rx[0, 1] * G0 + Rx[1, 1] * G1 + Rx[2, 1] * G2
            Ms2 = Rx[0, 2] * G0 + Rx[1, 2] * G1 + Rx[2, 2] * G2
            res[k, 0] = I * (a0 - d2 * d2 * s1 * c1) + Iz * d2 * s1 * wz - Ms0  # (2.19)
            res[k, 1] = I * (a1 * s1 + 2.0 * d1 * d2 * c1) - Iz * d1 * wz - Ms1  # (2.20)
            res[k, 2] = Iz * (a2 + a1 * c1 - d1 * d2 * s1) - Ms2  # (2.21)
        # K columns = residual differences; Cramer's rule
        k00, k01, k02 = res[1, 0] - res[0, 0], res[2, 0] - res[0, 0], res[3, 0] - res[0, 0]
        k10, k11, k12 = res[1, 1] - res[0, 1], res[2, 1] - res[0, 1], res[3, 1] - res[0, 1]
        k20, k21, k22 = res[1, 2] - res[0, 2], res[2, 2] - res[0, 2], res[3, 2] - res[0, 2]
        r0, r1, r2 = -res[0, 0], -res[0, 1], -res[0, 2]
        c0 = _cr(k01, k11, k21, k02, k12, k22)
        c1_ = _cr(k02, k12, k22, k00, k10, k20)
        c2_ = _cr(k00, k10, k20, k01, k11, k21)
        det = k00 * c0[0] + k10 * c0[1] + k20 * c0[2]
        acc[b, 0] = (r0 * c0[0] + r1 * c0[1] + r2 * c0[2]) / det
        acc[b, 1] = (r0 * c1_[0] + r1 * c1_[1] + r2 * c1_[2]) / det
        acc[b, 2] = (r0 * c2_[0] + r1 * c2_[1] + r2 * c2_[2]) / det
