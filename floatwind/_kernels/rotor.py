"""Compiled stages of the blade-element rotor (:class:`floatwind.loads.rotor_bem.BemRotor`).

The hub body (the rotor body, which spins about the shaft) carries the apex, the shaft axis and
each blade's element frame without pitch and twist; blade k's nodes are fixed in its own body
``blade_body[k]`` (the hub body itself, or a blade body on a pitch joint); all of them constants
of those bodies' frames (:class:`floatwind.loads.rotor_bem.BemRotor.Geometry`). Each
evaluation, for every batch member:

1. node positions and velocities from the blade bodies' rigid motion (``rotor_points``);
2. the undisturbed wind at every node (the caller: ``floatwind._kernels.wind.wind_velocity``);
3. the inputs of the blade-element momentum solve as AeroDyn's ``SetInputsForBEMT`` forms them
   for the legacy element frame (``BEM_Mod = 1``, AeroDyn.f90): the disk-averaged relative wind
   ``V_diskAvg`` (mean over all nodes of wind - node velocity), the disk axes (``x_hat_disk`` =
   the shaft, ``y_hat_disk`` along the negative in-plane part of ``V_diskAvg``, ``z_hat_disk =
   V_diskAvg x x_hat_disk / |.|``; the hub axes when there is no in-plane part), the skew angle
   ``chi0 = acos(V_diskAvg . x / |V_diskAvg|)``, each blade's azimuth ``psi = atan2(-z_root .
   y_disk, z_root . z_disk)``, and per node ``Vx``/``Vy`` = relative wind along the element
   frame's ``x`` (normal to the coned rotor plane) and ``y`` (in the plane), ``rLocal`` = the
   node's distance from the shaft axis, ``theta`` = twist + pitch, the pitch of blade k being
   the angle of its body's pitched x axis from the element frame's x about the pitch axis;
4. the element solve (:func:`floatwind._kernels.bemt.bemt_update_phi`), the quasi-steady
   inductions, filtered by the dynamic inflow when the rotor has it
   (:mod:`floatwind._kernels.dbemt`, whose states are the load's), and the element outputs
   (:func:`floatwind._kernels.bemt.bemt_outputs_from`);
5. the element loads per unit length ``X x_hat + Y y_hat`` with ``X = Cx q c``, ``Y = -Cy q c``,
   and the pitching moment ``Cm q c^2 z_hat`` (AeroDyn.f90 ``SetOutputsFromBEMT``), integrated
   along each blade as OpenFAST's Line2 mesh carries them: linear between nodes, lumped to the
   nodes by ``L/6 (2 f_j + f_j+1)`` and ``L/6 (f_j + 2 f_j+1)`` (exact for the force and its
   moment along a straight element), then summed as a force at each blade body's CM and a moment
   about it,
   and about the rotor apex in the hub frame for the ``RtAero*`` channels (AeroDyn_IO.f90).

One loop over batch members with the same operations for every member (bit-identical alone and
inside a batch).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from floatwind._kernels import bemt as kb
from floatwind._kernels import dbemt as kd
from floatwind._kernels import servo as ksv
from floatwind._kernels import wind as kwi
from floatwind._kernels.loads import _accumulate
from floatwind.jit import njit

__all__ = [
    "HUB_CHANNELS",
    "AeroHistory",
    "BladeNodes",
    "aero_history",
    "bem_rotor_kernel",
    "bem_rotor_step_kernel",
    "blade_root_structure",
    "pitch_change",
    "history_loads",
    "history_record",
    "nodal_wrench",
    "rotor_after_step",
    "rotor_points",
    "rotor_solve",
    "InflowStates",
    "rotor_step_after",
]

#: columns of the hub channel array of :func:`rotor_solve` (B, N_HUB): HUB_CHANNELS, then
#: DBEMT's tau1 (s; 0 without dynamic inflow), the aerodynamic blade-root moments of blades 1-3
#: about the coned root axes (RMXC: in-plane, about x_c; RMYC: out-of-plane, about y_c;
#: ElastoDyn's RootMxc/RootMyc axes), the moment about the apex (inertial, MTG) and blade 1's
#: coned pitch axis (inertial, B1G), the total aerodynamic force (inertial, FTG), the
#: measurements a controller library reads (issue 36)
(FXH, FYH, FZH, MXH, MYH, MZH, PWR, TSR, VXH, VYH, VZH, CP, CT, SKEW, OMEGA, TAU1) = range(16)
RMXC, RMYC, MTG, B1G, FTG, N_HUB = 16, 19, 22, 25, 28, 31
HUB_CHANNELS = ("RtAeroFxh", "RtAeroFyh", "RtAeroFzh", "RtAeroMxh", "RtAeroMyh", "RtAeroMzh",
                "RtAeroPwr", "RtTSR", "RtVAvgxh", "RtVAvgyh", "RtVAvgzh", "RtAeroCp", "RtAeroCt",
                "RtSkew", "RtSpeed")  # fmt: skip

#: element output columns after the solver's (``bemt.N_OUT``): the BEM inputs Vx, Vy
ELEM_VX = kb.N_OUT
ELEM_VY = kb.N_OUT + 1
N_ELEM = kb.N_OUT + 2


@njit(cache=True, fastmath=False)
def _rot(R, v, out):
    out[0] = R[0, 0] * v[0] + R[0, 1] * v[1] + R[0, 2] * v[2]
    out[1] = R[1, 0] * v[0] + R[1, 1] * v[1] + R[1, 2] * v[2]
    out[2] = R[2, 0] * v[0] + R[2, 1] * v[1] + R[2, 2] * v[2]


@njit(cache=True, fastmath=False)
def rotor_points(g, kin, dpitch=None):
    """Node positions and velocities (B, nb * nn, 3), inertial, of the rotor geometry ``g``
    (``BemRotor.Geometry``: blade k's nodes fixed in body ``g.blade_body[k]``) for the
    kinematics ``kin`` (``BodyKinematics``); the apex position (B, 3) (in the hub body) last.
    ``dpitch`` (B, nb): a commanded pitch change (:func:`pitch_change`), turning each node's
    offset from the pitch axis (BlCrvAC, BlSwpAC) about the coned pitch axis z_k (the pitched
    root frame x_p, y_p turned by the pitch, as ``BemRotor._build_geometry`` places them); the
    pitch rate moves no node (ElastoDyn's pitch is not a DOF)."""
    r_G, R_b2g, v_G, w_b, cm_b = kin.r_G, kin.R_b2g, kin.v_G, kin.w_b, kin.cm_b
    nodes = g.nodes_b
    nb, nn = nodes.shape[0], nodes.shape[1]
    B = r_G.shape[0]
    pos = np.empty((B, nb * nn, 3))
    vel = np.empty((B, nb * nn, 3))
    apex = np.empty((B, 3))
    d = np.empty(3)
    a = np.empty(3)
    zx = np.empty(3)
    for b in range(B):
        for k in range(nb):
            n = g.blade_body[k]
            R = R_b2g[b, n]
            w = w_b[b, n]
            cm = cm_b[n]
            dp = 0.0 if dpitch is None else dpitch[b, k]
            cd, sd = math.cos(dp), math.sin(dp)
            z = g.frames_b[k, 2]
            for j in range(nn):
                i = k * nn + j
                for c in range(3):
                    d[c] = nodes[k, j, c] - cm[c]
                if dp != 0.0:  # offset -> cos(dp) offset - sin(dp) z x offset
                    o = g.offsets_b[k, j]
                    zx[0] = z[1] * o[2] - z[2] * o[1]
                    zx[1] = z[2] * o[0] - z[0] * o[2]
                    zx[2] = z[0] * o[1] - z[1] * o[0]
                    for c in range(3):
                        d[c] += (cd - 1.0) * o[c] - sd * zx[c]
                _rot(R, d, a)
                for c in range(3):
                    pos[b, i, c] = r_G[b, n, c] + a[c]
                vel[b, i, 0] = v_G[b, n, 0] + (w[1] * a[2] - w[2] * a[1])
                vel[b, i, 1] = v_G[b, n, 1] + (w[2] * a[0] - w[0] * a[2])
                vel[b, i, 2] = v_G[b, n, 2] + (w[0] * a[1] - w[1] * a[0])
        h = g.body
        for c in range(3):
            d[c] = g.apex_b[c] - cm_b[h, c]
        _rot(R_b2g[b, h], d, a)
        for c in range(3):
            apex[b, c] = r_G[b, h, c] + a[c]
    return pos, vel, apex


@njit(cache=True, fastmath=False)
def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


class BladeNodes(NamedTuple):
    """The blade nodes of one evaluation of :func:`rotor_solve` (every member): where they
    are (:func:`rotor_points`), the wind there and the pitch change."""

    pos: np.ndarray  # (B, P, 3) node positions, blade after blade (inertial)
    vel: np.ndarray  # (B, P, 3) their velocities
    apex: np.ndarray  # (B, 3) the rotor apex
    wind: np.ndarray  # (B, P, 3) the undisturbed wind at the nodes
    dpitch: np.ndarray  # (B, nb) pitch change from the geometry's (rad; :func:`pitch_change`)


class InflowStates(NamedTuple):
    """The dynamic inflow of one evaluation of :func:`rotor_solve`: its parameters
    (:class:`floatwind._kernels.dbemt.DbemtParams`; mode 0: none), whose states are the columns
    ``s0 ..`` of ``y`` (B, n) and whose rates go to the same columns of ``dy``
    (:func:`floatwind._kernels.dbemt.dbemt_apply`)."""

    params: object  # DbemtParams
    y: np.ndarray  # (B, n) the load's states
    dy: np.ndarray  # (B, n) their rates (written)
    s0: int  # the first column of the dynamic inflow's states


@njit(cache=True, fastmath=False)
def rotor_solve(g, opt, af, kin, at, n_bodies, state, inflow_states, nodal=None, chain=0):
    """The element solve and loads of every member (module docstring, steps 3-5) at the
    blade nodes ``at`` (a :class:`BladeNodes`), the dynamic inflow ``inflow_states`` (an
    :class:`InflowStates`).

    Returns ``force``, ``moment`` (B, N, 3) on the blade bodies (moment about their CMs, inertial),
    the hub channels (B, N_HUB) (``HUB_CHANNELS``: loads about the apex in the hub frame, power,
    tip-speed ratio, disk-averaged relative wind, C_P, C_T, skew angle (rad), the hub's spin rate
    about the shaft), the element outputs (B, nb, nn, ``N_ELEM``: the solver's columns, then Vx,
    Vy) and the status bits of the element solves. ``nodal`` (B, P, 6), optional: the lumped
    nodal force and moment of every node (inertial), written. ``chain`` > 0: the rows are
    time-major blocks of ``chain`` members (outputs at several times); row ``b`` starts from the
    solve of row ``b - chain`` (the same member at the previous time) instead of ``state[b]``."""
    r_G, R_b2g, w_b = kin.r_G, kin.R_b2g, kin.w_b
    pos, vel, apex, wind, dpitch = at.pos, at.vel, at.apex, at.wind, at.dpitch
    dyn, y, dy, s0 = inflow_states.params, inflow_states.y, inflow_states.dy, inflow_states.s0
    body = g.body
    nb, nn = g.nodes_b.shape[0], g.nodes_b.shape[1]
    B = pos.shape[0]
    P = nb * nn
    force = np.zeros((B, n_bodies, 3))
    moment = np.zeros((B, n_bodies, 3))
    hub = np.zeros((B, N_HUB))
    elem = np.zeros((B, nb, nn, N_ELEM))
    status = 0
    ex = np.empty((nb, 3))  # element frame (no pitch, no twist) of each blade, inertial
    ey = np.empty((nb, 3))
    ez = np.empty((nb, 3))
    xh = np.empty(3)
    yh = np.empty(3)
    zh = np.empty(3)
    yd = np.empty(3)
    zd = np.empty(3)
    va = np.empty(3)
    rel = np.empty(3)
    tmp = np.empty(3)
    vx = np.empty((nb, nn))
    vy = np.empty((nb, nn))
    r_local = np.empty((nb, nn))
    psi = np.empty(nb)
    fl = np.empty((nn, 3))  # force per unit length at the nodes of one blade
    ml = np.empty((nn, 3))
    Fn = np.empty((nn, 3))  # lumped nodal loads
    Mn = np.empty((nn, 3))
    Ft = np.empty(3)
    Mt = np.empty(3)  # about the apex
    out = np.empty((nb, nn, kb.N_OUT))
    theta = np.empty((nb, nn))
    ind = np.empty((nb, nn, 2))
    xb = np.empty(3)
    Mr = np.empty(3)  # one blade's moment about its root
    xc = np.empty(3)
    for b in range(B):
        if chain > 0 and b >= chain:
            state.phi[b] = state.phi[b - chain]
            state.valid[b] = state.valid[b - chain]
            state.slope[b] = state.slope[b - chain]
            state.a[b] = state.a[b - chain]
            state.ap[b] = state.ap[b - chain]
            state.known[b] = state.known[b - chain]
        R = R_b2g[b, body]
        _rot(R, g.shaft_b, xh)
        _rot(R, g.hub_z_b, zh)
        yh[0] = zh[1] * xh[2] - zh[2] * xh[1]
        yh[1] = zh[2] * xh[0] - zh[0] * xh[2]
        yh[2] = zh[0] * xh[1] - zh[1] * xh[0]
        for k in range(nb):
            _rot(R, g.frames_b[k, 0], ex[k])
            _rot(R, g.frames_b[k, 1], ey[k])
            _rot(R, g.frames_b[k, 2], ez[k])
            # blade pitch: the blade body's pitched x axis against the unpitched element frame
            # (AeroDyn: -theta(3) of the root orientation relative to the hub, EulerExtract)
            _rot(R_b2g[b, g.blade_body[k]], g.xref_b[k], xb)
            # plus a commanded change (B, nb) (issue 36: a servodyn load's pitch, pitch_from)
            pitch = math.atan2(-_dot(xb, ey[k]), _dot(xb, ex[k])) + dpitch[b, k]
            for j in range(nn):
                theta[k, j] = g.twist[j] + pitch
        # disk-averaged relative wind (AeroDyn SetInputsForBEMT: V_diskAvg)
        va[0] = 0.0
        va[1] = 0.0
        va[2] = 0.0
        for i in range(P):
            for c in range(3):
                va[c] += wind[b, i, c] - vel[b, i, c]
        for c in range(3):
            va[c] = va[c] / P
        v_dot_x = _dot(va, xh)
        for c in range(3):
            tmp[c] = v_dot_x * xh[c] - va[c]
        tsz = math.sqrt(_dot(tmp, tmp))
        if kb.equal_real(tsz, 0.0):
            for c in range(3):
                yd[c] = yh[c]
                zd[c] = zh[c]
        else:
            for c in range(3):
                yd[c] = tmp[c] / tsz
            zd[0] = (va[1] * xh[2] - va[2] * xh[1]) / tsz
            zd[1] = (va[2] * xh[0] - va[0] * xh[2]) / tsz
            zd[2] = (va[0] * xh[1] - va[1] * xh[0]) / tsz
        vmag = math.sqrt(_dot(va, va))
        if kb.equal_real(vmag, 0.0):
            chi0 = 0.0
        else:
            chi0 = math.acos(max(-1.0, min(1.0, v_dot_x / vmag)))
        for k in range(nb):
            sy = -_dot(ez[k], yd)
            sz = _dot(ez[k], zd)
            if kb.equal_real(sy, 0.0) and kb.equal_real(sz, 0.0):
                psi[k] = 0.0
            else:
                psi[k] = math.atan2(sy, sz)
            for j in range(nn):
                i = k * nn + j
                for c in range(3):
                    rel[c] = wind[b, i, c] - vel[b, i, c]
                    tmp[c] = pos[b, i, c] - apex[b, c]
                vx[k, j] = _dot(rel, ex[k])
                vy[k, j] = _dot(rel, ey[k])
                r_local[k, j] = math.sqrt(_dot(tmp, yd) ** 2 + _dot(tmp, zd) ** 2)
        omega = _dot(w_b[b, body], xh)
        tsr = omega * g.r_max / v_dot_x if v_dot_x != 0.0 else 1e300  # AeroDyn u%TSR
        # ``state``: a batched ``bemt.BemtState`` (B, nb, nn): each member's previous solution
        # (the compiled stepping keeps it in its params; the NumPy path passes a fresh one)
        sb = kb.BemtState(state.phi[b], state.valid[b], state.slope[b], state.a[b], state.ap[b],
                          state.known[b])  # fmt: skip
        inflow = kb.Inflow(theta, r_local, vx, vy, chi0, psi, tsr)
        status |= kb.bemt_update_phi(opt, af, g, inflow, sb)
        kb.bemt_inductions(opt, af, g, inflow, sb, ind)
        if dyn.mode != 0:
            hub[b, TAU1] = kd.dbemt_apply(opt, g, dyn, inflow, v_dot_x, ind, y, dy, b, s0)
        kb.bemt_outputs_from(opt, af, g, inflow, ind, out)
        # element loads -> nodal loads (Line2 lumping) -> body and hub loads
        for c in range(3):
            Ft[c] = 0.0
            Mt[c] = 0.0
        for k in range(nb):
            for j in range(nn):
                X = out[k, j, kb.FX]
                Y = -out[k, j, kb.FY]
                Mz = out[k, j, kb.MM]
                for c in range(3):
                    fl[j, c] = X * ex[k, c] + Y * ey[k, c]
                    ml[j, c] = Mz * ez[k, c]
                    Fn[j, c] = 0.0
                    Mn[j, c] = 0.0
                for q in range(kb.N_OUT):
                    elem[b, k, j, q] = out[k, j, q]
                elem[b, k, j, ELEM_VX] = vx[k, j]
                elem[b, k, j, ELEM_VY] = vy[k, j]
            for j in range(nn - 1):
                L6 = g.seg_len[k, j] / 6.0
                for c in range(3):
                    Fn[j, c] += L6 * (2.0 * fl[j, c] + fl[j + 1, c])
                    Fn[j + 1, c] += L6 * (fl[j, c] + 2.0 * fl[j + 1, c])
                    Mn[j, c] += L6 * (2.0 * ml[j, c] + ml[j + 1, c])
                    Mn[j + 1, c] += L6 * (ml[j, c] + 2.0 * ml[j + 1, c])
            n = g.blade_body[k]
            for c in range(3):
                Mr[c] = 0.0
            for j in range(nn):
                i = k * nn + j
                # about the root: apex + z_hub e_z on the coned pitch axis (ElastoDyn's root)
                r0 = pos[b, i, 0] - apex[b, 0] - g.z_hub[k] * ez[k, 0]
                r1 = pos[b, i, 1] - apex[b, 1] - g.z_hub[k] * ez[k, 1]
                r2 = pos[b, i, 2] - apex[b, 2] - g.z_hub[k] * ez[k, 2]
                Mr[0] += r1 * Fn[j, 2] - r2 * Fn[j, 1] + Mn[j, 0]
                Mr[1] += r2 * Fn[j, 0] - r0 * Fn[j, 2] + Mn[j, 1]
                Mr[2] += r0 * Fn[j, 1] - r1 * Fn[j, 0] + Mn[j, 2]
                a0 = pos[b, i, 0] - r_G[b, n, 0]
                a1 = pos[b, i, 1] - r_G[b, n, 1]
                a2 = pos[b, i, 2] - r_G[b, n, 2]
                h0 = pos[b, i, 0] - apex[b, 0]
                h1 = pos[b, i, 1] - apex[b, 1]
                h2 = pos[b, i, 2] - apex[b, 2]
                f0, f1, f2 = Fn[j, 0], Fn[j, 1], Fn[j, 2]
                if nodal is not None:
                    for c in range(3):
                        nodal[b, i, c] = Fn[j, c]
                        nodal[b, i, 3 + c] = Mn[j, c]
                force[b, n, 0] += f0
                force[b, n, 1] += f1
                force[b, n, 2] += f2
                moment[b, n, 0] += a1 * f2 - a2 * f1 + Mn[j, 0]
                moment[b, n, 1] += a2 * f0 - a0 * f2 + Mn[j, 1]
                moment[b, n, 2] += a0 * f1 - a1 * f0 + Mn[j, 2]
                Ft[0] += f0
                Ft[1] += f1
                Ft[2] += f2
                Mt[0] += h1 * f2 - h2 * f1 + Mn[j, 0]
                Mt[1] += h2 * f0 - h0 * f2 + Mn[j, 1]
                Mt[2] += h0 * f1 - h1 * f0 + Mn[j, 2]
            if k < 3:  # RootMxc, RootMyc: x_c = the shaft normal to the blade, y_c = z_c x x_c
                d = _dot(xh, ez[k])
                for c in range(3):
                    xc[c] = xh[c] - d * ez[k, c]
                nx = math.sqrt(_dot(xc, xc))
                for c in range(3):
                    xc[c] = xc[c] / nx if nx > 0.0 else 0.0
                yc0 = ez[k, 1] * xc[2] - ez[k, 2] * xc[1]
                yc1 = ez[k, 2] * xc[0] - ez[k, 0] * xc[2]
                yc2 = ez[k, 0] * xc[1] - ez[k, 1] * xc[0]
                hub[b, RMXC + k] = _dot(Mr, xc)
                hub[b, RMYC + k] = Mr[0] * yc0 + Mr[1] * yc1 + Mr[2] * yc2
        for c in range(3):
            hub[b, MTG + c] = Mt[c]
            hub[b, B1G + c] = ez[0, c]
            hub[b, FTG + c] = Ft[c]
        # hub channels (AeroDyn_IO.f90: hub frame, power with the hub's absolute spin rate)
        hub[b, FXH] = _dot(Ft, xh)
        hub[b, FYH] = _dot(Ft, yh)
        hub[b, FZH] = _dot(Ft, zh)
        hub[b, MXH] = _dot(Mt, xh)
        hub[b, MYH] = _dot(Mt, yh)
        hub[b, MZH] = _dot(Mt, zh)
        hub[b, PWR] = omega * hub[b, MXH]
        hub[b, VXH] = v_dot_x
        hub[b, VYH] = _dot(va, yh)
        hub[b, VZH] = _dot(va, zh)
        hub[b, SKEW] = chi0
        hub[b, OMEGA] = omega
        if v_dot_x != 0.0:
            hub[b, TSR] = omega * g.r_max / v_dot_x
            qa = 0.5 * opt.rho * math.pi * g.r_max**2
            hub[b, CP] = hub[b, PWR] / (qa * v_dot_x**3)
            hub[b, CT] = hub[b, FXH] / (qa * v_dot_x**2)
    return force, moment, hub, elem, status


@njit(cache=True, fastmath=False)
def pitch_change(p, t, B):
    """(B, nb): the commanded blade pitch (:func:`floatwind._kernels.servo.blade_pitch` of the
    memory ``p.memory``, shared with the servodyn load that commands it) minus the geometry's
    pitch ``p.pitch_ref``; zeros without a command (a placeholder memory recording nothing)."""
    nb = p.pitch_ref.shape[0]
    out = np.zeros((B, nb))
    if p.memory.pitch0.shape[0] == 0:
        return out
    for b in range(B):
        for k in range(nb):
            out[b, k] = ksv.blade_pitch(p.memory, t, b, k) - p.pitch_ref[k]
    return out


@njit(cache=True, fastmath=False)
def blade_root_structure(g, kin, mass, gravity, m, k_step, hub):
    """The blades' weight and inertial loads added to the root moments ``hub[:, RMXC + k]``,
    ``hub[:, RMYC + k]`` (blades 1-3) at the accepted step ``k_step``: ElastoDyn's rigid blade,
    its mass a line of points on the coned pitch axis e from the root P (``ElastoDyn``
    ``Coeff``: the point masses of ``elastodyn_mass_properties``), ``mass[k]`` = (m, S1, S2), S1
    and S2 its first and second moments about the root along e. A mass element at P + s e of
    the rotor body (angular velocity w, acceleration alpha; P accelerating at a_P) has the
    acceleration a_P + alpha x s e + w x (w x s e), so the moment of the blade on the hub about P
    (d'Alembert: the weight less the inertial force of each element, Wang 5.28 on the blade) is

        M = S1 e x (g - a_P) - S2 [alpha - (alpha . e) e + (w . e) e x w],

    with a_P = a_G + alpha x (P - G) + w x (w x (P - G)) from the rotor body's CM acceleration.
    The accelerations are the backward difference of the rotor body's velocities over the last
    step (kept in the servodyn memory ``m.sense``, columns S_WR/S_VR; 0 at the first step), as
    the other accelerations of the record. ``gravity``: g (m/s^2) along -z."""
    h = g.body
    nb = min(g.frames_b.shape[0], 3)
    B = kin.w_b.shape[0]
    dt = m.dt
    ez = np.empty(3)
    xh = np.empty(3)
    xc = np.empty(3)
    yc = np.empty(3)
    d = np.empty(3)
    rr = np.empty(3)
    alp = np.empty(3)
    aP = np.empty(3)
    tmp = np.empty(3)
    tmp2 = np.empty(3)
    M = np.empty(3)
    for b in range(B):
        R = kin.R_b2g[b, h]
        w = kin.w_b[b, h]
        se = m.sense[b]
        prev = k_step > 0 and se[ksv.S_PREV] == 1.0
        aG = np.zeros(3)
        for c in range(3):
            alp[c] = (w[c] - se[ksv.S_WR + c]) / dt if prev else 0.0
            aG[c] = (kin.v_G[b, h, c] - se[ksv.S_VR + c]) / dt if prev else 0.0
        _rot(R, g.shaft_b, xh)
        for k in range(nb):
            m1, s1, s2 = mass[k, 0], mass[k, 1], mass[k, 2]
            if m1 == 0.0 and s1 == 0.0 and s2 == 0.0:
                continue
            _rot(R, g.frames_b[k, 2], ez)
            # the root P relative to the rotor body's CM
            for c in range(3):
                d[c] = g.apex_b[c] + g.z_hub[k] * g.frames_b[k, 2, c] - kin.cm_b[h, c]
            _rot(R, d, rr)
            # a_P = a_G + alpha x r + w x (w x r)
            tmp[0] = w[1] * rr[2] - w[2] * rr[1]
            tmp[1] = w[2] * rr[0] - w[0] * rr[2]
            tmp[2] = w[0] * rr[1] - w[1] * rr[0]
            aP[0] = aG[0] + alp[1] * rr[2] - alp[2] * rr[1] + w[1] * tmp[2] - w[2] * tmp[1]
            aP[1] = aG[1] + alp[2] * rr[0] - alp[0] * rr[2] + w[2] * tmp[0] - w[0] * tmp[2]
            aP[2] = aG[2] + alp[0] * rr[1] - alp[1] * rr[0] + w[0] * tmp[1] - w[1] * tmp[0]
            # g - a_P
            tmp[0] = -aP[0]
            tmp[1] = -aP[1]
            tmp[2] = -gravity - aP[2]
            we = _dot(w, ez)
            ae = _dot(alp, ez)
            tmp2[0] = ez[1] * w[2] - ez[2] * w[1]  # e x w
            tmp2[1] = ez[2] * w[0] - ez[0] * w[2]
            tmp2[2] = ez[0] * w[1] - ez[1] * w[0]
            M[0] = s1 * (ez[1] * tmp[2] - ez[2] * tmp[1])
            M[1] = s1 * (ez[2] * tmp[0] - ez[0] * tmp[2])
            M[2] = s1 * (ez[0] * tmp[1] - ez[1] * tmp[0])
            for c in range(3):
                M[c] -= s2 * (alp[c] - ae * ez[c] + we * tmp2[c])
            # ElastoDyn's coned root axes: x_c the shaft normal to e, y_c = e x x_c
            ksv._perp_unit(xh, ez, xc)
            yc[0] = ez[1] * xc[2] - ez[2] * xc[1]
            yc[1] = ez[2] * xc[0] - ez[0] * xc[2]
            yc[2] = ez[0] * xc[1] - ez[1] * xc[0]
            hub[b, RMXC + k] += _dot(M, xc)
            hub[b, RMYC + k] += _dot(M, yc)


@njit(cache=True, fastmath=False)
def rotor_after_step(p, t, kin, y):
    """At the accepted steps where the servodyn load whose memory this rotor reads calls a
    controller library (``memory.sense_every``), the rotor's measurements at that state into
    the memory (:func:`floatwind._kernels.servo.store_rotor_sense`: blade-root and apex
    moments, blade 1's axis, the wind at the apex); else nothing. The solve starts from the
    warm-start state of the stepping and leaves it as it was (the run's bits do not change)."""
    m = p.memory
    if m.sense_every[0] <= 0:
        return None
    k = int(round((t - m.t0) / m.dt))
    if k % m.sense_every[0] != 0:
        return None
    B = kin.w_b.shape[0]
    dp = pitch_change(p, t, B)
    pos, vel, apex = rotor_points(p.geometry, kin, dp)
    wv, st = kwi.wind_velocity(p.wind, t, pos)
    hp = np.empty((B, 1, 3))
    for b in range(B):
        for c in range(3):
            hp[b, 0, c] = apex[b, c]
    wh, st2 = kwi.wind_velocity(p.wind, t, hp)
    s = p.state
    keep = (s.phi.copy(), s.valid.copy(), s.slope.copy(), s.a.copy(), s.ap.copy(), s.known.copy())
    dy = np.zeros_like(y)
    _f, _m, hub, _e, _st = rotor_solve(p.geometry, p.options, p.airfoils, kin,
                                       BladeNodes(pos, vel, apex, wv, dp), kin.r_G.shape[1], s,
                                       InflowStates(p.dbemt, y, dy, p.state0))  # fmt: skip
    s.phi[:] = keep[0]
    s.valid[:] = keep[1]
    s.slope[:] = keep[2]
    s.a[:] = keep[3]
    s.ap[:] = keep[4]
    s.known[:] = keep[5]
    blade_root_structure(p.geometry, kin, p.blade_mass, p.gravity, m, k, hub)
    nb = min(p.geometry.nodes_b.shape[0], 3)
    ksv.store_rotor_sense(m, hub[:, MTG : MTG + 3], hub[:, B1G : B1G + 3],
                          hub[:, RMXC : RMXC + nb], hub[:, RMYC : RMYC + nb], wh[:, 0, :],
                          hub[:, FTG : FTG + 3], apex)  # fmt: skip
    return None


@njit(cache=True, fastmath=False)
def bem_rotor_kernel(p, t, kin, y, dy, force, moment, added):
    """:class:`floatwind.loads.rotor_bem.BemRotor`: the element loads of every blade as one
    wrench on the rotor body, wind from the field's table ``p.wind``
    (:func:`floatwind._kernels.wind.wind_velocity`; status ``WIND_OUTSIDE``: outside the compiled
    field, the NumPy path answers)."""
    dp = pitch_change(p, t, force.shape[0])
    pos, vel, apex = rotor_points(p.geometry, kin, dp)
    wv, st = kwi.wind_velocity(p.wind, t, pos)
    if st != 0:
        return st
    f, m, _hub, _elem, _st = rotor_solve(p.geometry, p.options, p.airfoils, kin,
                                         BladeNodes(pos, vel, apex, wv, dp), force.shape[1],
                                         p.state, InflowStates(p.dbemt, y, dy, p.state0))  # fmt: skip
    _accumulate(force, moment, f, m)
    return 0


# -- OpenFAST's coupling: the rotor solved once per step, its loads extrapolated in time -----------


class AeroHistory(NamedTuple):
    """The rotor's step memory for ``coupling: step`` (:class:`floatwind.loads.rotor_bem.BemRotor`):
    the lumped force and moment of every blade node (inertial axes) of the element solve at the
    last three accepted steps, as OpenFAST's glue code keeps ElastoDyn's inputs (the blade-node
    loads mapped from AeroDyn) at ``InterpOrder + 1`` input times (FAST_Subs.f90
    ``FAST_InitIOarrays``, ``ED%Input``/``ED%InputTimes``). Slot ``k % 3`` holds step ``k``
    (``stamp``: its step index, -1 empty), so recording a step again (a step handed back to the
    Python path) writes the same slot with the same index."""

    t0: float  # the run's first time (s)
    dt: float  # its step (s)
    order: int  # InterpOrder: 1 linear, 2 quadratic in time
    stamp: np.ndarray  # (3,) int64: the step index each slot holds (-1: none)
    bad: np.ndarray  # (1,) int64: a step whose solve the compiled wind could not give (-1: none)
    nodal: np.ndarray  # (3, B, P, 6) nodal force and moment of each node (blade after blade)
    #: the warm start's memory: the inflow angles of the solve before the last (B, nb, nn), and
    #: the steps (1,) they and the solve state's angles (``BemRotor.Params.state``) belong to
    phi_prev: np.ndarray
    k_prev: np.ndarray
    k_cur: np.ndarray


def aero_history(batch: int, n_blades: int, n_nodes: int, t0: float = 0.0, dt: float = 0.0,
                 order: int = 2):  # fmt: skip
    """An empty :class:`AeroHistory` for ``n_blades`` x ``n_nodes`` blade nodes (``dt`` = 0: a
    placeholder that never answers, the kernel then solves at every call)."""
    P = n_blades * n_nodes
    return AeroHistory(float(t0), float(dt), int(order), np.full(3, -1, dtype=np.int64),
                       np.full(1, -1, dtype=np.int64), np.zeros((3, batch, P, 6)),
                       np.zeros((batch, n_blades, n_nodes)), np.full(1, -1, dtype=np.int64),
                       np.full(1, -1, dtype=np.int64))  # fmt: skip


@njit(cache=True, fastmath=False)
def history_record(h, k, nodal):
    """Keep the nodal loads ``nodal`` (B, P, 6) of the accepted step ``k`` in the history ``h``
    (:class:`AeroHistory`)."""
    s = k % 3
    h.nodal[s] = nodal
    h.stamp[s] = k
    if h.bad[0] == k:
        h.bad[0] = -1


@njit(cache=True, fastmath=False, error_model="numpy")
def history_loads(h, t, out):
    """The nodal loads at time ``t`` from the history ``h`` into ``out`` (B, P, 6); False (``out``
    untouched) where the history cannot answer.

    At an accepted step's time with that step recorded: its loads (the solve at that state, as
    OpenFAST's ``CalcOutputs_And_SolveForInputs`` sets ElastoDyn's input at the new time). Inside
    the step (t_n, t_n+1] (the integrator's stages): the loads of steps n, n - 1, n - 2 extrapolated
    to ``t`` by the Lagrange polynomial of order ``h.order`` through them (OpenFAST's
    ``ED_Input_ExtrapInterp`` at the stage times of ElastoDyn's integrator, the newest input the
    predictor's extrapolation from the same three); before the run's first steps the missing
    earlier steps are copies of step 0 (``FAST_InitIOarrays``: the first step is then a
    zeroth-order, the second a first-order extrapolation)."""
    code, s0, s1, s2, w0, w1, w2 = _history_weights(h.t0, h.dt, h.order, h.stamp, h.bad, t)
    if code == 0:
        return False
    if code == 1:
        out[:] = h.nodal[s0]
        return True
    a0, a1, a2 = h.nodal[s0], h.nodal[s1], h.nodal[s2]
    for b in range(out.shape[0]):
        for i in range(out.shape[1]):
            for c in range(6):
                out[b, i, c] = w0 * a0[b, i, c] + w1 * a1[b, i, c] + w2 * a2[b, i, c]
    return True


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def _history_weights(t0, dt, order, stamp, bad, t):
    # history_loads' choice at time t: (0, ...) the history cannot answer; (1, slot, ...) an
    # accepted step's time with that step recorded in slot s0; (2, s0, s1, s2, w0, w1, w2): the
    # Lagrange extrapolation w0 a[s0] + w1 a[s1] + w2 a[s2] (history_loads' docstring)
    if dt <= 0.0:
        return 0, 0, 0, 0, 0.0, 0.0, 0.0
    tau = (t - t0) / dt
    m = int(round(tau))
    if abs(tau - m) <= 1e-6 and m >= 0 and stamp[m % 3] == m:
        return 1, m % 3, 0, 0, 1.0, 0.0, 0.0
    if abs(tau - m) <= 1e-6 and bad[0] == m:
        return 0, 0, 0, 0, 0.0, 0.0, 0.0  # the accepted state of a step the wind could not solve
    n0 = int(math.ceil(tau - 1e-6)) - 1  # t in (t_n0, t_n0+1]
    if n0 < 0 or stamp[n0 % 3] != n0:
        return 0, 0, 0, 0, 0.0, 0.0, 0.0
    n1 = max(n0 - 1, 0)
    n2 = max(n0 - 2, 0)
    if stamp[n1 % 3] != n1 or stamp[n2 % 3] != n2:
        return 0, 0, 0, 0, 0.0, 0.0, 0.0
    x = tau - n0  # (0, 1]: the time from t_n0 in steps
    if order == 1:
        w0 = 1.0 + x
        w1 = -x
        w2 = 0.0
    else:
        w0 = 0.5 * (x + 1.0) * (x + 2.0)
        w1 = -x * (x + 2.0)
        w2 = 0.5 * x * (x + 1.0)
    return 2, n0 % 3, n1 % 3, n2 % 3, w0, w1, w2


@njit(cache=True, fastmath=False, error_model="numpy")
def _history_wrench(h, t, nodes_b, blade_body, kin, force, moment):
    # history_loads then nodal_wrench in one pass (the stage kernel of coupling: step) on the
    # records' arrays taken once: no buffer, no call per node; each node's load is
    # history_loads' expression, its arm nodal_wrench's: the same bits. False (nothing added)
    # where the history (an AeroHistory) cannot answer.
    sel = _history_weights(h.t0, h.dt, h.order, h.stamp, h.bad, t)
    if sel[0] == 0:
        return False
    _wrench_of_nodes(h.nodal, sel, nodes_b, blade_body, kin.r_G, kin.R_b2g, kin.cm_b, force,
                     moment)  # fmt: skip
    return True


@njit(cache=True, fastmath=False, error_model="numpy")
def nodal_wrench(g, kin, nodal, force, moment):
    """Add the nodal loads ``nodal`` (B, P, 6) (force, moment; inertial) at the blade nodes where
    ``kin`` puts them (:func:`rotor_points`, no commanded pitch) to ``force``, ``moment``
    (B, N, 3): a force at each blade body's CM and its moment about it, as ElastoDyn applies its
    blade-node loads at its own node positions (the same operations as :func:`rotor_solve`).
    The node positions are :func:`rotor_points`'s operations inline, on the records' arrays
    taken once (no allocation, no record in a call: the same bits)."""
    _wrench_of_nodes(nodal.reshape((1,) + nodal.shape), (1, 0, 0, 0, 1.0, 0.0, 0.0), g.nodes_b,
                     g.blade_body, kin.r_G, kin.R_b2g, kin.cm_b, force, moment)  # fmt: skip


@njit(cache=True, fastmath=False, error_model="numpy")
def _wrench_of_nodes(hist, sel, nodes_b, blade_body, r_G, R_b2g, cm_b, force, moment):
    # the loads of every blade node added to force, moment (B, N, 3) on the plain arrays of the
    # geometry (nodes_b, blade_body) and of the kinematics (r_G, R_b2g, cm_b): the node load is
    # hist[s0] (code 1) or w0 hist[s0] + w1 hist[s1] + w2 hist[s2] (code 2; sel = (code, s0, s1,
    # s2, w0, w1, w2), _history_weights), applied at the node where rotor_points puts it
    code, s0, s1, s2, w0, w1, w2 = sel
    nb, nn = nodes_b.shape[0], nodes_b.shape[1]
    for b in range(force.shape[0]):
        for k in range(nb):
            n = blade_body[k]
            for j in range(nn):
                i = k * nn + j
                if code == 1:
                    f0, f1, f2 = hist[s0, b, i, 0], hist[s0, b, i, 1], hist[s0, b, i, 2]
                    m0, m1, m2 = hist[s0, b, i, 3], hist[s0, b, i, 4], hist[s0, b, i, 5]
                else:
                    f0 = w0 * hist[s0, b, i, 0] + w1 * hist[s1, b, i, 0] + w2 * hist[s2, b, i, 0]
                    f1 = w0 * hist[s0, b, i, 1] + w1 * hist[s1, b, i, 1] + w2 * hist[s2, b, i, 1]
                    f2 = w0 * hist[s0, b, i, 2] + w1 * hist[s1, b, i, 2] + w2 * hist[s2, b, i, 2]
                    m0 = w0 * hist[s0, b, i, 3] + w1 * hist[s1, b, i, 3] + w2 * hist[s2, b, i, 3]
                    m1 = w0 * hist[s0, b, i, 4] + w1 * hist[s1, b, i, 4] + w2 * hist[s2, b, i, 4]
                    m2 = w0 * hist[s0, b, i, 5] + w1 * hist[s1, b, i, 5] + w2 * hist[s2, b, i, 5]
                # rotor_points: d = node - cm, pos = r_G + R d; the arm pos - r_G
                d0 = nodes_b[k, j, 0] - cm_b[n, 0]
                d1 = nodes_b[k, j, 1] - cm_b[n, 1]
                d2 = nodes_b[k, j, 2] - cm_b[n, 2]
                p0 = r_G[b, n, 0] + (R_b2g[b, n, 0, 0] * d0 + R_b2g[b, n, 0, 1] * d1
                                     + R_b2g[b, n, 0, 2] * d2)  # fmt: skip
                p1 = r_G[b, n, 1] + (R_b2g[b, n, 1, 0] * d0 + R_b2g[b, n, 1, 1] * d1
                                     + R_b2g[b, n, 1, 2] * d2)  # fmt: skip
                p2 = r_G[b, n, 2] + (R_b2g[b, n, 2, 0] * d0 + R_b2g[b, n, 2, 1] * d1
                                     + R_b2g[b, n, 2, 2] * d2)  # fmt: skip
                a0 = p0 - r_G[b, n, 0]
                a1 = p1 - r_G[b, n, 1]
                a2 = p2 - r_G[b, n, 2]
                force[b, n, 0] += f0
                force[b, n, 1] += f1
                force[b, n, 2] += f2
                moment[b, n, 0] += a1 * f2 - a2 * f1 + m0
                moment[b, n, 1] += a2 * f0 - a0 * f2 + m1
                moment[b, n, 2] += a0 * f1 - a1 * f0 + m2


@njit(cache=True, fastmath=False)
def _solve_loads(p, t, kin, y, dy, n_bodies):
    """The element solve of every member at ``(t, kin)`` (no commanded pitch): force, moment
    (B, N, 3), the nodal loads (B, P, 6) and the wind status."""
    B = kin.r_G.shape[0]
    nb, nn = p.geometry.nodes_b.shape[0], p.geometry.nodes_b.shape[1]
    dp = np.zeros((B, nb))
    nodal = np.zeros((B, nb * nn, 6))
    pos, vel, apex = rotor_points(p.geometry, kin, dp)
    wv, st = kwi.wind_velocity(p.wind, t, pos)
    if st != 0:
        return np.zeros((B, n_bodies, 3)), np.zeros((B, n_bodies, 3)), nodal, st
    f, m, _hub, _elem, _st = rotor_solve(p.geometry, p.options, p.airfoils, kin,
                                         BladeNodes(pos, vel, apex, wv, dp), n_bodies, p.state,
                                         InflowStates(p.dbemt, y, dy, p.state0), nodal)  # fmt: skip
    return f, m, nodal, 0


@njit(cache=True, fastmath=False)
def bem_rotor_step_kernel(p, t, kin, y, dy, force, moment, added):
    """:class:`floatwind.loads.rotor_bem.BemRotor` with ``coupling: step`` (OpenFAST's): the nodal
    loads from the history ``p.memory`` (:class:`AeroHistory`, filled at the accepted steps by
    :func:`rotor_step_after`; :func:`history_loads`) at the nodes where the bodies are now
    (:func:`nodal_wrench`); the element solve of :func:`bem_rotor_kernel` where the history cannot
    answer (none: a placeholder memory)."""
    # (history_loads + nodal_wrench in one call on the records' arrays: _history_wrench)
    if p.memory.nodal.shape[1] == force.shape[0] and _history_wrench(
        p.memory, t, p.geometry.nodes_b, p.geometry.blade_body, kin, force, moment
    ):
        return 0
    f, m, _nodal, st = _solve_loads(p, t, kin, y, dy, force.shape[1])
    if st != 0:
        return st
    _accumulate(force, moment, f, m)
    return 0


@njit(cache=True, fastmath=False)
def rotor_step_after(p, t, kin, y):
    """The element solve at the accepted step ending at ``t`` (AeroDyn's ``UpdateStates`` and
    ``CalcOutput`` once per glue step), its nodal loads into the history ``p.memory``
    (:func:`history_record`); the solve warm-starts from the member's previous one (``p.state``).
    Wind outside the compiled field: the step is marked (``bad``), so the evaluation at that state
    solves, gets the status and hands the step to the NumPy path."""
    h = p.memory
    if h.dt <= 0.0:
        return None
    k = int(round((t - h.t0) / h.dt))
    # the warm start from the inflow angles extrapolated in time (2 phi_k-1 - phi_k-2) where the
    # last two solves were the fast path's (floatwind's, docs/rotor.md "Root finding"): the
    # secant's first point is then within ~1e-6 rad of the root (one or two residual
    # evaluations per node instead of three; the root is another point within IndToler)
    st_ = p.state
    last = st_.phi.copy()
    cont = h.k_cur[0] == k - 1
    if cont and h.k_prev[0] == k - 2:
        for b in range(last.shape[0]):
            for i in range(last.shape[1]):
                for j in range(last.shape[2]):
                    if st_.valid[b, i, j] and st_.slope[b, i, j] != 0.0 and h.phi_prev[b, i, j] != 0.0:
                        st_.phi[b, i, j] = 2.0 * last[b, i, j] - h.phi_prev[b, i, j]
    dy = np.zeros_like(y)
    _f, _m, nodal, st = _solve_loads(p, t, kin, y, dy, kin.r_G.shape[1])
    if cont:
        h.phi_prev[:] = last
        h.k_prev[0] = k - 1
    else:
        h.k_prev[0] = -1
    h.k_cur[0] = k
    if st != 0:
        h.bad[0] = k
        return None
    history_record(h, k, nodal)
    return None
