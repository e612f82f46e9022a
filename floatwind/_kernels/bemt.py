"""Compiled blade-element momentum (BEM) solve of one rotor, as AeroDyn v5's BEMT computes it.

Quasi-steady BEM (``Wake_Mod = 1``, ``DBEMT_Mod = 0``, ``UA_Mod = 0``) with the legacy
element frame (``BEM_Mod = 1``, AeroDyn's ``BEMMod_2D``). Each step follows the routine of
AeroDyn named in its comment (OpenFAST ``modules/aerodyn/src``: ``BEMT.f90``,
``BEMTUncoupled.f90``, ``mod_root1dim.f90``, ``AirfoilInfo.f90``; theory: Ning (2014),
"A simple solution method for the blade element momentum equations with guaranteed
convergence", Wind Energy 17, doi:10.1002/we.1636; AeroDyn theory manual, OpenFAST docs).

Inputs (what AeroDyn's ``SetInputsForBEMT`` computes for ``BEM_Mod = 1``; the caller, the
rotor load, computes them the same way):

* ``vx[k, j]``, ``vy[k, j]`` (m/s): the relative inflow ``V = U_wind - v_node`` (wind at the node
  minus the node's own translational velocity, without induction) projected on the element's
  legacy axes ``x_hat`` and ``y_hat``: the rows 1 and 2 of the blade node's orientation with
  the pitch and twist (and live sweep) taken out, i.e. of
  ``R_WithoutSweepPitchTwist = EulerConstruct((0, theta_2, 0)) @ R_root_nopitch``.
  ``x_hat`` is normal to the (coned) plane of rotation, pointing downwind; ``y_hat`` is
  tangential, pointing to the trailing edge (against the blade's motion for a rotor turning
  as designed), so ``vy = Omega r + ...`` is positive for the operating rotor; ``z_hat`` runs
  along the span.
* ``theta[k, j]`` (rad): the local twist + pitch (AeroDyn ``u%theta``: minus the third Euler
  angle of the node orientation relative to the no-pitch root); ``alpha = phi - theta``.
* ``r_local[k, j]`` (m): the node's distance from the rotor axis: the displaced node position
  relative to the hub centre projected on the disk plane (``sqrt((d . y_disk)^2 +
  (d . z_disk)^2)``). ``R_tip`` of the skew correction is, per blade, the largest
  ``r_local`` of that blade at this time (``BEMT.f90 GetRTip``): computed here.
* ``z_local[k, j]``, ``z_hub[k]`` (m): the tip/hub-loss distances of ``BEMT_SetParameters``
  (fixed at initialisation from the reference geometry, ``AeroDyn.f90 Init_BEMTmodule``):
  ``z_hub`` = distance blade root - hub centre (= HubRad); ``z_local[0] = z_hub + |P_0 - root|``
  and ``z_local[j] = z_local[j-1] + |P_j - P_(j-1)|`` along the nodes' aerodynamic-centre
  positions ``P_j`` (curvilinear length, the BlCrvAC/BlSwpAC offsets included);
  ``z_tip = z_local[-1]`` (read here from the last node). Tip-loss constant
  ``B (z_tip - z) / (2 z)``, hub-loss constant ``B (z - z_hub) / (2 z_hub)``; a node where an
  active one is zero (the root and tip nodes) has fixed inductions a = 1, a' = 0.
* ``chi0`` (rad): the skew angle, ``acos(V_disk . x_disk / |V_disk|)`` with ``V_disk`` the
  average over all blade nodes of ``U_wind - v_node`` and ``x_disk`` the hub's x axis
  (0 when ``|V_disk| = 0``).
* ``psi[k]`` (rad): blade k's azimuth for the skew correction:
  ``atan2(-z_root . y_disk, z_root . z_disk)`` with ``z_root`` the blade root's z axis,
  ``y_disk = (V_disk.x_disk x_disk - V_disk)/|...|`` (the in-plane wind direction reversed),
  ``z_disk = (V_disk x x_disk)/|...|`` (hub y and z axes when the in-plane wind is zero).
* ``tsr``: ``Omega R / Un_disk`` as AeroDyn's ``u%TSR`` (rotor speed about ``x_disk``, the
  largest r_local at initialisation, ``Un_disk = V_disk . x_disk``); induction is blended
  out below TSR 2 (``check_turnOffBEMT``). Pass a large value to never blend.
* ``phi[k, j]``, ``valid[k, j]``: AeroDyn's constraint state ``z%phi`` and ``ValidPhi``
  (in: the previous solution, start with 0 and True; out: the new solution), used as
  ``BEMT_UnCoupledSolve`` uses them (a previous root that still solves the residual is kept;
  its bracket is narrowed with it).

Outputs ``out[k, j, c]`` (columns the constants below), as ``BEMT_CalcOutput`` and
``SetOutputsFromBEMT``: the inductions after the limits, the skew correction and the low-TSR
blend; ``PHI`` recomputed from them; ``ALPHA = PHI - theta``; ``CL, CD, CM`` (and ``CPM``,
the Cpmin column) at ALPHA; ``CX = Cl cos phi + Cd sin phi``, ``CY = Cl sin phi - Cd cos phi``
(drag always included here); ``VREL = |(vx (1 - a), vy (1 + a'))|``; ``RE = VREL c / nu``;
``FX = CX q c`` (N/m) along ``+x_hat`` (normal to the plane, downwind),
``FY = CY q c`` (N/m) along ``-y_hat`` (tangential, in the blade's direction of motion: a
driving force is positive; AeroDyn's mesh force component on ``y_hat`` is ``-FY``; its
channel ``BxNyFy`` is ``FY``, checked on ref09), ``MM = CM q c^2`` (N m/m) about ``+z_hat`` (span, zero
unless ``use_cm``); ``q = rho VREL^2 / 2``. The per-length force on the blade in global axes
is ``FX x_hat - FY y_hat`` and the moment ``MM z_hat``, with ``x_hat, y_hat, z_hat`` the
rows of ``R_WithoutSweepPitchTwist`` (AeroDyn ``y%BladeLoad = matmul(force, R)``).

The return value is 0, or :data:`floatwind._kernels.status.BEMT_NOT_CONVERGED` when a node has
no valid BEM solution (AeroDyn's "no valid value of phi" message: the geometric inflow angle
and zero induction are used, as AeroDyn does) or Brent's method ran out of ``max_iter``.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from floatwind._kernels.status import BEMT_NOT_CONVERGED
from floatwind.jit import njit

__all__ = [
    "ALPHA",
    "AXIND",
    "CD",
    "CL",
    "CM",
    "CPM",
    "CX",
    "CY",
    "FX",
    "FY",
    "MM",
    "N_OUT",
    "Node",
    "PHI",
    "RE",
    "TNIND",
    "VREL",
    "airfoil_coefs",
    "bemt_inductions",
    "bemt_outputs",
    "bemt_outputs_from",
    "bemt_solve",
    "bemt_update_phi",
    "equal_real",
    "induction_residual",
]

# output columns of ``out``
PHI = 0
AXIND = 1
TNIND = 2
ALPHA = 3
CL = 4
CD = 5
CM = 6
CX = 7
CY = 8
CPM = 9
VREL = 10
FX = 11
FY = 12
MM = 13
RE = 14
N_OUT = 15

_EPS = np.finfo(np.float64).eps
#: NWTC_Num EqualRealNos (R8Ki): |a - b| <= max(|a + b|, 1) * 100 eps / 2
_EQ_TOL = 100.0 * _EPS / 2.0
#: BEMTUncoupled BEMT_epsilon2 = 10 sqrt(eps): distance of the solve regions from phi = 0, pi/2
_EPSILON2 = 10.0 * math.sqrt(_EPS)
#: BEMTUncoupled BEMT_MaxInduction / BEMT_MinInduction
_A_MAX, _A_MIN = 1.5, -1.0
_AP_MAX, _AP_MIN = 1.0, -1.0
#: BEMTUncoupled BEMT_lowerBoundTSR, BEMT_upperBoundTSR (check_turnOffBEMT)
_TSR_LOW, _TSR_HIGH = 1.0, 2.0
#: inductionFactors0 InductionLimit
_IND_LIMIT = 1.0e6
#: mod_root1dim xtoler_def (rad)
_XTOLER = 1.0e-6
#: BEMT_UnCoupledSolve MsgLimit (rad): no message within this of 0 or +-pi/2
_MSG_LIMIT = 0.07
_PI = math.pi
_PI_2 = 0.5 * math.pi

# Reference counts: a call of a compiled function that holds arrays counts their references
# (an atomic increment and decrement each) wherever numba's pruning cannot prove them unneeded,
# which is the case on any path that can raise (a float division by zero under Python's error
# model, an error passed up from a call). The solve of one node therefore reads its polar from
# plain arrays (``xs``, ``cls``, ``cds`` and its rows ``i0``, ``n``: the records' arrays taken
# once per rotor, never a record in the per-node calls), everything it calls is inlined
# (``inline="always"``: no call that could pass an error up), and the functions of the solve use
# NumPy's error model (``error_model="numpy"``: a division by zero would give inf instead of
# raising; every division here is guarded, so no result changes). No reference is counted per
# residual evaluation any more, three per node remain (the polar's arrays handed to the inlined
# fast path) (ref09: ~40 % of the process CPU before; docs/performance.md); the same
# operations, the same bits.


class Sections(NamedTuple):
    """The blade sections of a rotor, read by name (the rotor load's ``Geometry`` has these
    fields and is passed as it is): ``chord`` (nn,) m, ``af_index`` (nn,) int64 0-based,
    ``z_local`` (nb, nn) and ``z_hub`` (nb,) m, the tip/hub-loss distances (module docstring)."""

    chord: np.ndarray
    af_index: np.ndarray
    z_local: np.ndarray
    z_hub: np.ndarray


class Inflow(NamedTuple):
    """The element inputs of one evaluation (module docstring): ``theta``, ``r_local``, ``vx``,
    ``vy`` (nb, nn), the skew angle ``chi0``, each blade's azimuth ``psi`` (nb,) and ``tsr``."""

    theta: np.ndarray
    r_local: np.ndarray
    vx: np.ndarray
    vy: np.ndarray
    chi0: float
    psi: np.ndarray
    tsr: float


class Node(NamedTuple):
    """One blade node's inputs of the inflow-angle solve (the residual's arguments besides the
    settings, the airfoils and the angle): ``i_af`` the airfoil index (0-based), ``theta`` twist +
    pitch (rad), ``chord`` (m), ``r_local`` (m), ``tip_c``, ``hub_c`` the Prandtl loss constants
    (``_loss_constants``), ``fixed`` whether the node has AeroDyn's fixed inductions (a = 1,
    a' = 0), ``vx``, ``vy`` (m/s) the relative inflow (module docstring)."""

    i_af: int
    theta: float
    chord: float
    r_local: float
    tip_c: float
    hub_c: float
    fixed: bool
    vx: float
    vy: float


class BemtState(NamedTuple):
    """The solve's memory of one rotor (nb, nn) between calls (AeroDyn's constraint state and
    what the fast path keeps): ``phi`` the inflow angles and ``valid`` whether they solve the
    BEM equations (read as the previous solution, overwritten); ``slope`` d(residual)/d(phi) at
    the last root (0: unknown), the first step of the next solve; ``a``, ``ap``, ``known``: the
    inductions the last residual evaluation gave at ``phi`` (the outputs use them instead of
    evaluating the same residual again: the same numbers)."""

    phi: np.ndarray
    valid: np.ndarray
    slope: np.ndarray
    a: np.ndarray
    ap: np.ndarray
    known: np.ndarray


def bemt_state(n_blades: int, n_nodes: int, batch: int | None = None) -> BemtState:
    """A fresh :class:`BemtState` (AeroDyn's start: phi = 0, valid), for one rotor or, with
    ``batch``, with a leading batch axis (index it per member)."""
    shape = (n_blades, n_nodes) if batch is None else (batch, n_blades, n_nodes)
    return BemtState(phi=np.zeros(shape), valid=np.ones(shape, dtype=np.bool_),
                     slope=np.zeros(shape), a=np.zeros(shape), ap=np.zeros(shape),
                     known=np.zeros(shape, dtype=np.bool_))  # fmt: skip


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def equal_real(a, b):
    """NWTC_Num ``EqualRealNos`` for double precision."""
    return abs(a - b) <= max(abs(a + b), 1.0) * _EQ_TOL


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def _velocity_is_zero(v):
    # BEMTUncoupled VelocityIsZero: |v| < 0.001 m/s
    return abs(v) < 0.001


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def _mpi2pi(angle):
    # NWTC_Num MPi2Pi: angle in (-pi, pi]
    angle = angle - 2.0 * _PI * math.floor(angle / (2.0 * _PI))
    if angle > _PI:
        angle -= 2.0 * _PI
    return angle


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def _locate(x, xs, i0, n):
    # the row lo of xs[i0 : i0 + n] with xs[lo] <= x < xs[lo + 1]; -1 below the first angle,
    # -2 at or above the last (NWTC_Num InterpStp holds the end values there)
    if x <= xs[i0]:
        return -1
    if x >= xs[i0 + n - 1]:
        return -2
    lo, hi = i0, i0 + n - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if xs[mid] <= x:
            lo = mid
        else:
            hi = mid
    return lo


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def _at(x, xs, ys, lo, i0, n):
    # NWTC_Num InterpStp: y(lo) + (y(lo+1) - y(lo)) (x - x(lo)) / (x(lo+1) - x(lo))
    if lo == -1:
        return ys[i0]
    if lo == -2:
        return ys[i0 + n - 1]
    return ys[lo] + (ys[lo + 1] - ys[lo]) * (x - xs[lo]) / (xs[lo + 1] - xs[lo])


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def _polar_cl_cd(alpha, xs, cls, cds, i0, n):
    # Cl, Cd of the table rows i0 .. i0 + n - 1 at alpha (rad) (AFI_ComputeAirfoilCoefs1D,
    # linear, angle in [-pi, pi)); plain arrays, not the record (no reference counts per call)
    a = _mpi2pi(alpha)
    lo = _locate(a, xs, i0, n)
    return _at(a, xs, cls, lo, i0, n), _at(a, xs, cds, lo, i0, n)


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def _polar_coefs(alpha, xs, cls, cds, cms, cps, i0, n):
    # Cl, Cd, Cm, Cpmin of the table rows i0 .. i0 + n - 1 at alpha (rad) (airfoil_coefs)
    a = _mpi2pi(alpha)
    lo = _locate(a, xs, i0, n)
    return (
        _at(a, xs, cls, lo, i0, n),
        _at(a, xs, cds, lo, i0, n),
        _at(a, xs, cms, lo, i0, n),
        _at(a, xs, cps, lo, i0, n),
    )


@njit(cache=True, fastmath=False)
def airfoil_coefs(af, i_af, alpha):
    """Cl, Cd, Cm, Cpmin of airfoil ``i_af`` at ``alpha`` (rad): AirfoilInfo
    ``AFI_ComputeAirfoilCoefs1D`` with one table (AFTabMod 1) and linear interpolation
    (InterpOrd 1) in the angle brought to [-pi, pi)."""
    return _polar_coefs(alpha, af.alpha, af.cl, af.cd, af.cm, af.cpmin, af.start[i_af],
                        af.count[i_af])  # fmt: skip


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def _loss_factor(opt, tip_const, hub_const, phi):
    # BEMTUncoupled getHubTipLossCorrection (BEMMod_2D): Prandtl,
    # F = 2/pi acos(exp(-B (R - r) / (2 r |sin phi|))) (Ning 2014 eq. 12-14)
    sphi = abs(math.sin(phi))
    f_tip = 1.0
    f_hub = 1.0
    if not equal_real(sphi, 0.0):
        # (beyond an exponent of 40 the factor rounds to exactly 1: exp(-40) < 2^-57)
        if opt.tip_loss and tip_const < 40.0 * sphi:
            f_tip = 2.0 / _PI * math.acos(min(1.0, math.exp(-tip_const / sphi)))
        if opt.hub_loss and hub_const < 40.0 * sphi:
            f_hub = 2.0 / _PI * math.acos(min(1.0, math.exp(-hub_const / sphi)))
    return f_tip * f_hub


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def _tangential_induction(a, cphi, sphi, vx, f, sigma, cy):
    # BEMTUncoupled getTangentialInduction (no momentum correction, H = 1):
    # kp = sigma Cy / (4 F sin phi cos phi), a' = kp / (1 - kp) (Ning 2014 eq. 21)
    if equal_real(cphi, 0.0):
        ap = -1.0
        kp = math.copysign(_IND_LIMIT, cy * sphi) * math.copysign(1.0, vx)
    else:
        kp = sigma * cy / (4.0 * f * sphi * cphi)
        if vx < 0.0:
            kp = -kp
        if equal_real(kp, 1.0):
            ap = math.copysign(_IND_LIMIT, 1.0 - kp)
        else:
            ap = kp / (1.0 - kp)
    return ap, kp


@njit(cache=True, fastmath=False)
def induction_residual(opt, af, node, phi):
    """The residual of Ning's one-equation BEM at the inflow angle ``phi`` for the blade node
    ``node`` (:class:`Node`) and the inductions it implies: ``(residual, a, a', valid, F)``. AeroDyn ``BEMTU_InductionWithResidual`` with
    ``inductionFactors0`` (``BEM_Mod = 1``). ``valid`` is False where the momentum equations
    have no solution (k < -1 in the momentum region, k <= 1 in the propeller-brake region)."""
    i = node.i_af
    return _residual_tab(opt, node, phi, af.alpha, af.cl, af.cd, af.start[i], af.count[i])


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def _residual_tab(opt, node, phi, xs, cls, cds, i0, n):
    # induction_residual with the node's polar as plain arrays (xs, cls, cds: the tables' alpha,
    # Cl, Cd columns, its rows i0 .. i0 + n - 1): the records of arrays stay out of the solve's
    # calls (each call would count their arrays' references, more than its arithmetic)
    theta, chord, r_local = node.theta, node.chord, node.r_local
    tip_const, hub_const, fixed, vx, vy = node.tip_c, node.hub_c, node.fixed, node.vx, node.vy
    if fixed:
        # tip or hub node with an active zero loss constant: a = 1, a' = 0, residual 0
        return 0.0, 1.0, 0.0, True, 1.0
    if equal_real(phi, 0.0) or _velocity_is_zero(vx) or _velocity_is_zero(vy):
        return 0.0, 0.0, 0.0, True, 1.0
    cl, cd = _polar_cl_cd(phi - theta, xs, cls, cds, i0, n)
    sphi = math.sin(phi)
    cphi = math.cos(phi)
    # Transform_ClCd_to_CxCy: drag in the inductions only with AIDrag/TIDrag
    cx = cl * cphi + cd * sphi if opt.ai_drag else cl * cphi
    cy = cl * sphi - cd * cphi if opt.ti_drag else cl * sphi
    f = max(_loss_factor(opt, tip_const, hub_const, phi), 0.0001)
    # inductionFactors0: k = sigma' Cx / (4 F sin^2 phi) (Ning 2014 eq. 16-17)
    sigma = opt.n_blades * chord / (2.0 * _PI * r_local)
    k = sigma * cx / 4.0 / f / sphi / sphi
    valid = True
    momentum = (phi > 0.0 and vx >= 0.0) or (phi < 0.0 and vx < 0.0)
    if momentum:
        if k <= 2.0 / 3.0:
            # momentum region, a < 0.4: a = k / (1 + k) (Ning 2014 eq. 18)
            if equal_real(k, -1.0):
                a = -math.copysign(_IND_LIMIT, 1.0 + k)
            else:
                a = k / (1.0 + k)
            if k < -1.0:
                valid = False
        else:
            # Buhl's empirical high-induction correction, 0.4 < a < 1 (Buhl 2005;
            # Ning 2014 eq. 19, with F)
            temp = 2.0 * f * k
            g1 = temp - (10.0 / 9.0 - f)
            g2 = temp - (4.0 / 3.0 - f) * f
            g3 = temp - (25.0 / 9.0 - 2.0 * f)
            if abs(g3) < 1e-6:
                a = 1.0 - 0.5 / math.sqrt(g2)
            else:
                a = (g1 - math.sqrt(abs(g2))) / g3
    else:
        # propeller brake region: a = k / (k - 1) (Ning 2014 eq. 20)
        if equal_real(k, 1.0):
            valid = False
            a = _IND_LIMIT
        else:
            a = k / (k - 1.0)
        if k <= 1.0:
            valid = False
    if opt.tan_ind:
        ap, kp = _tangential_induction(a, cphi, sphi, vx, f, sigma, cy)
    else:
        ap, kp = 0.0, 0.0
    # residual (Ning 2014 eq. 22-23), lambda_r = Vy / Vx
    lambda_r = vy / vx
    if momentum:
        if equal_real(a, 1.0):
            res = -cphi / lambda_r * (1.0 - kp)
        else:
            res = sphi / (1.0 - a) - cphi / lambda_r * (1.0 - kp)
    else:
        res = sphi * (1.0 - k) - cphi / lambda_r * (1.0 - kp)
    return res, a, ap, valid, f


@njit(cache=True, fastmath=False, error_model="numpy")
def _residual(opt, node, phi, xs, cls, cds, i0, n):
    res, _, _, valid, _ = _residual_tab(opt, node, phi, xs, cls, cds, i0, n)
    return res, valid


@njit(cache=True, fastmath=False, error_model="numpy")
def _brent(opt, node, a, b, fa, fb, xs, cls, cds, i0, n):
    # mod_root1dim sub_brent (Brent 1973, "zero"): tolerance 2 eps |x| + xtoler on the
    # bracket, |f| < IndToler on the residual, at most MaxIter evaluations.
    # Returns (phi, valid, converged).
    valid = True
    if math.copysign(1.0, fb) == math.copysign(1.0, fa):
        # root not bracketed: the better end point
        if abs(fa) < abs(fb):
            _, valid = _residual(opt, node, a, xs, cls, cds, i0, n)
            return a, valid, True
        _, valid = _residual(opt, node, b, xs, cls, cds, i0, n)
        return b, valid, True
    c = a
    fc = fa
    e = b - a
    d = e
    for it in range(opt.max_iter):
        if it == 0 or (fb > 0.0 and fc > 0.0) or (fb <= 0.0 and fc <= 0.0):
            c = a
            fc = fa
            e = b - a
            d = e
        if abs(fc) < abs(fb):
            a = b
            b = c
            c = a
            fa = fb
            fb = fc
            fc = fa
        tol = 2.0 * _EPS * abs(b) + _XTOLER
        m = 0.5 * (c - b)
        if abs(m) <= tol or fb == 0.0:
            return b, valid, True
        if abs(e) >= tol and abs(fa) > abs(fb):
            s = fb / fa
            if a != c:
                # inverse quadratic interpolation
                q = fa / fc
                r = fb / fc
                p = s * (2.0 * m * q * (q - r) - (b - a) * (r - 1.0))
                q = (q - 1.0) * (r - 1.0) * (s - 1.0)
            else:
                # secant
                p = 2.0 * m * s
                q = 1.0 - s
            if p <= 0.0:
                p = -p
            else:
                q = -q
            s = e
            e = d
            if 2.0 * p >= 3.0 * m * q - abs(tol * q) or p >= abs(0.5 * s * q):
                e = m
                d = m
            else:
                d = p / q
        else:
            e = m
            d = m
        a = b
        fa = fb
        if abs(d) <= tol:
            if m > 0.0:
                b = b + tol
            else:
                b = b - tol
        else:
            b = b + d
        fb, valid = _residual(opt, node, b, xs, cls, cds, i0, n)
        if abs(fb) < opt.tolerance:
            return b, valid, True
    return b, valid, False


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def _secant(opt, node, x0, slope0, xs, cls, cds, i0, n):
    """The fast path of the inflow-angle solve: a secant iteration on the same residual from
    ``x0`` (the previous solution, or the angle of a = 1/3), the first step with ``slope0``
    (the residual's slope at the previous root; a 1e-3 rad probe when unknown), kept inside
    AeroDyn's first solve region (0, pi/2) (its mirror for vx < 0) with steps of at most 0.1 rad,
    accepted when |residual| < IndToler at a valid point, as AeroDyn accepts a root. Returns
    (phi, ok, slope, a, a'); not ok (no convergence in 8 steps, a step out of the region, an
    invalid point): AeroDyn's bracketed search decides. Where the residual has more than one
    root in the first region the two may find different ones (docs/rotor.md)."""
    vx = node.vx
    lo = _EPSILON2 if vx > 0.0 else -_PI_2 + _EPSILON2
    hi = _PI_2 - _EPSILON2 if vx > 0.0 else -_EPSILON2
    if not (lo < x0 < hi):
        return x0, False, 0.0, 0.0, 0.0
    f0, a, ap, v0, _ = _residual_tab(opt, node, x0, xs, cls, cds, i0, n)
    if abs(f0) < opt.tolerance and v0:
        return x0, True, slope0, a, ap
    if slope0 != 0.0:
        x1 = x0 - max(-0.1, min(0.1, f0 / slope0))
    else:
        x1 = x0 - 1e-3 if (f0 > 0.0) == (vx > 0.0) else x0 + 1e-3
    slope = slope0
    for _ in range(8):
        if not (lo < x1 < hi) or x1 == x0:
            return x1, False, 0.0, 0.0, 0.0
        f1, a, ap, v1, _ = _residual_tab(opt, node, x1, xs, cls, cds, i0, n)
        if f1 != f0:
            slope = (f1 - f0) / (x1 - x0)
        if abs(f1) < opt.tolerance:
            return x1, v1, slope, a, ap
        if f1 == f0:
            return x1, False, 0.0, 0.0, 0.0
        step = max(-0.1, min(0.1, f1 / slope))
        x0 = x1
        f0 = f1
        x1 = x1 - step
    return x1, False, 0.0, 0.0, 0.0


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def _solve_node_fast(opt, node, prev, valid_prev, slope_prev, xs, cls, cds, i0, n):
    """The fast path of one node's inflow angle (:class:`Node` ``node``; its polar the rows
    i0 .. i0 + n - 1 of the plain arrays ``xs``, ``cls``, ``cds``): :func:`_secant` from the
    previous solution ``prev`` (``valid_prev``, ``slope_prev``: the state's) or the angle of
    a = 1/3. Returns (phi, slope, a, a', ok); not ok: the caller runs AeroDyn's solve
    (:func:`_solve_node`). Everything it calls is inlined (no call whose error path would keep
    the arrays' reference counts: none per node)."""
    vx, vy = node.vx, node.vy
    if not node.fixed and not _velocity_is_zero(vx) and not _velocity_is_zero(vy):
        warm = valid_prev and not equal_real(prev, 0.0)
        start = prev if warm else _phi_from_inductions(vx, vy, 1.0 / 3.0, 0.0)
        slope0 = slope_prev if warm else 0.0
        root, ok, slope, a, ap = _secant(opt, node, start, slope0, xs, cls, cds, i0, n)
        if ok:
            return root, slope, a, ap, True
    return prev, 0.0, 0.0, 0.0, False


@njit(cache=True, fastmath=False, error_model="numpy")
def _solve_node(opt, node, phi, valid_phi, xs, cls, cds, i0, n):
    # BEMT.f90 BEMT_UnCoupledSolve (with GetSolveRegionOrdering and FindTestRegion) for the
    # blade node ``node`` (Node). Returns (phi, valid, ok) where ok is False when AeroDyn would
    # print its message.
    vx, vy = node.vx, node.vy
    if _velocity_is_zero(vx):
        return 0.0, True, True
    if _velocity_is_zero(vy):
        return (_PI_2 if vx > 0.0 else -_PI_2), True, True
    phi_valid_in = False
    f_in = 0.0
    if valid_phi and not equal_real(phi, 0.0) and not equal_real(abs(phi), _PI_2):
        # does the previous solution still solve the residual?
        f_in, phi_valid_in = _residual(opt, node, phi, xs, cls, cds, i0, n)
        if abs(f_in) < opt.tolerance and phi_valid_in:
            return phi, True, True
    phi_in = phi
    lower = np.empty(3)
    upper = np.empty(3)
    # GetSolveRegionOrdering
    if vx > 0.0:
        lower[0], upper[0] = _EPSILON2, _PI_2 - _EPSILON2
        if -_PI / 4.0 < phi_in < _PI / 4.0:
            lower[1], upper[1] = -_PI / 4.0, -_EPSILON2
            lower[2], upper[2] = _PI_2 + _EPSILON2, _PI - _EPSILON2
        else:
            lower[2], upper[2] = -_PI / 4.0, -_EPSILON2
            lower[1], upper[1] = _PI_2 + _EPSILON2, _PI - _EPSILON2
    else:
        lower[0], upper[0] = -_EPSILON2, -_PI_2 + _EPSILON2
        if -_PI / 4.0 < phi_in < _PI / 4.0:
            lower[1], upper[1] = _PI / 4.0, _EPSILON2
            lower[2], upper[2] = -_PI_2 - _EPSILON2, -_PI + _EPSILON2
        else:
            lower[2], upper[2] = _PI / 4.0, _EPSILON2
            lower[1], upper[1] = -_PI_2 - _EPSILON2, -_PI + _EPSILON2
    converged = True
    for i in range(3):
        lo = lower[i]
        hi = upper[i]
        # FindTestRegion
        f1, v1 = _residual(opt, node, lo, xs, cls, cds, i0, n)
        f2, v2 = _residual(opt, node, hi, xs, cls, cds, i0, n)
        if equal_real(f1, 0.0) and equal_real(f2, 0.0) and v1 and v2:
            # both ends zero: the one nearer 0 ... as AeroDyn: lower if it is > 0
            return (lo if lo > 0.0 else hi), True, True
        if abs(f1) < opt.tolerance:
            if abs(f2) < abs(f1) and v2:
                return hi, True, True
            elif v1:
                return lo, True, True
        elif abs(f2) < opt.tolerance and v2:
            return hi, True, True
        if math.copysign(1.0, f1) != math.copysign(1.0, f2):
            if phi_valid_in and ((lo < phi_in < hi) or (hi < phi_in < lo)):
                # the previous solution narrows the bracket
                if math.copysign(1.0, f1) != math.copysign(1.0, f_in):
                    hi = phi_in
                    f2 = f_in
                else:
                    lo = phi_in
                    f1 = f_in
            root, valid, conv = _brent(opt, node, lo, hi, f1, f2, xs, cls, cds, i0, n)
            if not conv:
                converged = False
            if valid:
                return root, True, converged
    # no valid solution: the geometric inflow angle (ComputePhiWithInduction with a = a' = 0)
    phi_geo = _phi_from_inductions(vx, vy, 0.0, 0.0)
    ok = converged and not (abs(phi_geo) > _MSG_LIMIT and abs(abs(phi_geo) - _PI_2) > _MSG_LIMIT)
    return phi_geo, False, ok


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def _phi_from_inductions(vx, vy, a, ap):
    # BEMT.f90 ComputePhiWithInduction (no cant, no xVelCorr)
    x = vx * (1.0 - a)
    y = vy * (1.0 + ap)
    if equal_real(y, 0.0) and equal_real(x, 0.0):
        return 0.0
    return math.atan2(x, y)


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def _loss_constants(n_blades, z, z_hub, z_tip):
    # BEMT.f90 BEMT_SetParameters
    tip_c = n_blades * (z_tip - z) / (2.0 * z)
    hub_c = n_blades * (z - z_hub) / (2.0 * z_hub)
    return tip_c, hub_c


@njit(cache=True, fastmath=False, inline="always", error_model="numpy")
def _is_fixed(opt, tip_c, hub_c):
    # BEMT_SetParameters FixedInductions
    return (opt.tip_loss and equal_real(tip_c, 0.0)) or (opt.hub_loss and equal_real(hub_c, 0.0))


@njit(cache=True, fastmath=False, error_model="numpy")
def _update_phi_fast(opt, af, sec, inflow, state):
    # the fast path (_solve_node_fast) of every node, on the records' arrays taken once, with no
    # call inside (so no reference is counted per node): state.known True where it solved the
    # node (its state written), False where AeroDyn's solve must decide (the state left as it was)
    theta, r_local, vx, vy = inflow.theta, inflow.r_local, inflow.vx, inflow.vy
    chord, af_index, z_local, z_hub = sec.chord, sec.af_index, sec.z_local, sec.z_hub
    xs, cls, cds, start, count = af.alpha, af.cl, af.cd, af.start, af.count
    s_phi, s_valid, s_slope, s_a, s_ap, s_known = (state.phi, state.valid, state.slope, state.a,
                                                   state.ap, state.known)  # fmt: skip
    nb, nn = vx.shape[0], vx.shape[1]
    for k in range(nb):
        z_tip = z_local[k, nn - 1]
        for j in range(nn):
            tip_c, hub_c = _loss_constants(opt.n_blades, z_local[k, j], z_hub[k], z_tip)
            fixed = _is_fixed(opt, tip_c, hub_c)
            i_af = af_index[j]
            node = Node(i_af, theta[k, j], chord[j], r_local[k, j], tip_c, hub_c, fixed,
                        vx[k, j], vy[k, j])  # fmt: skip
            p, sl, a, ap, fast = _solve_node_fast(opt, node, s_phi[k, j], s_valid[k, j],
                                                  s_slope[k, j], xs, cls, cds, start[i_af],
                                                  count[i_af])  # fmt: skip
            if fast:
                s_phi[k, j] = p
                s_valid[k, j] = True
                s_slope[k, j] = sl
                s_a[k, j] = a
                s_ap[k, j] = ap
            s_known[k, j] = fast


@njit(cache=True, fastmath=False, error_model="numpy")
def bemt_update_phi(opt, af, sec, inflow, state):
    """Solve the inflow angle of every node (AeroDyn ``UpdatePhi``) into ``state``
    (:class:`BemtState`: the previous solution in, the new one out) for the sections ``sec``
    (:class:`Sections`) and the inputs ``inflow`` (:class:`Inflow`). With ``use_induction``
    off, the geometric angle. Returns the status bits. Each node on its own: the fast path of
    every node first (:func:`_update_phi_fast`), then AeroDyn's solve where it did not solve."""
    # the arrays of the records once (plain arrays in the loops: no reference counting per node)
    theta, r_local, vx, vy = inflow.theta, inflow.r_local, inflow.vx, inflow.vy
    chord, af_index, z_local, z_hub = sec.chord, sec.af_index, sec.z_local, sec.z_hub
    xs, cls, cds, start, count = af.alpha, af.cl, af.cd, af.start, af.count
    s_phi, s_valid, s_slope, s_known = state.phi, state.valid, state.slope, state.known
    nb, nn = vx.shape[0], vx.shape[1]
    status = 0
    if not opt.use_induction:
        for k in range(nb):
            for j in range(nn):
                s_phi[k, j] = _phi_from_inductions(vx[k, j], vy[k, j], 0.0, 0.0)
                s_valid[k, j] = False
                s_known[k, j] = False
        return status
    _update_phi_fast(opt, af, sec, inflow, state)
    for k in range(nb):
        z_tip = z_local[k, nn - 1]
        for j in range(nn):
            if s_known[k, j]:
                continue
            tip_c, hub_c = _loss_constants(opt.n_blades, z_local[k, j], z_hub[k], z_tip)
            fixed = _is_fixed(opt, tip_c, hub_c)
            i_af = af_index[j]
            node = Node(i_af, theta[k, j], chord[j], r_local[k, j], tip_c, hub_c, fixed,
                        vx[k, j], vy[k, j])  # fmt: skip
            p, v, ok = _solve_node(opt, node, s_phi[k, j], s_valid[k, j], xs, cls, cds,
                                   start[i_af], count[i_af])  # fmt: skip
            s_phi[k, j] = p
            s_valid[k, j] = v
            s_slope[k, j] = 0.0
            if not ok:
                status |= BEMT_NOT_CONVERGED
    return status


@njit(cache=True, fastmath=False, error_model="numpy")
def bemt_inductions(opt, af, sec, inflow, state, ind):
    """The quasi-steady inductions at the solved inflow angles (AeroDyn
    ``calculate_Inductions_from_BEMT``: limited, zero where the angle is not a BEM solution),
    before the skewed-wake correction and the low-TSR blend: ``ind[k, j, 0]`` = a,
    ``ind[k, j, 1]`` = a' (nb, nn, 2); zeros with ``use_induction`` off. The inputs of the
    dynamic inflow filter (:mod:`floatwind._kernels.dbemt`)."""
    theta, r_local, vx, vy = inflow.theta, inflow.r_local, inflow.vx, inflow.vy
    chord, af_index, z_local, z_hub = sec.chord, sec.af_index, sec.z_local, sec.z_hub
    xs, cls, cds, start, count = af.alpha, af.cl, af.cd, af.start, af.count
    s_phi, s_valid, s_a, s_ap, s_known = state.phi, state.valid, state.a, state.ap, state.known
    nb, nn = vx.shape[0], vx.shape[1]
    for k in range(nb):
        z_tip = z_local[k, nn - 1]
        for j in range(nn):
            a = 0.0
            ap = 0.0
            if opt.use_induction:
                if s_valid[k, j] and s_known[k, j]:
                    # the inductions of the solve's last evaluation, at this very phi
                    a = min(max(s_a[k, j], _A_MIN), _A_MAX)
                    ap = min(max(s_ap[k, j], _AP_MIN), _AP_MAX)
                elif s_valid[k, j]:
                    tip_c, hub_c = _loss_constants(opt.n_blades, z_local[k, j], z_hub[k], z_tip)
                    fixed = _is_fixed(opt, tip_c, hub_c)
                    node = Node(af_index[j], theta[k, j], chord[j], r_local[k, j], tip_c, hub_c,
                                fixed, vx[k, j], vy[k, j])  # fmt: skip
                    i_af = af_index[j]
                    _, a, ap, ok, f = _residual_tab(opt, node, s_phi[k, j], xs, cls, cds,
                                                    start[i_af], count[i_af])  # fmt: skip
                    if not ok:
                        a = 0.0
                        ap = 0.0
                    else:
                        # limitInductionFactors
                        a = min(max(a, _A_MIN), _A_MAX)
                        ap = min(max(ap, _AP_MIN), _AP_MAX)
            ind[k, j, 0] = a
            ind[k, j, 1] = ap


@njit(cache=True, fastmath=False, error_model="numpy")
def bemt_outputs_from(opt, af, sec, inflow, ind, out):
    """The element outputs for the inductions ``ind`` (nb, nn, 2) (:func:`bemt_inductions`,
    or the dynamic inflow's, :mod:`floatwind._kernels.dbemt`): AeroDyn's skewed-wake correction
    and low-TSR blend (``BEMT_CalcOutput_Inductions``), then ``BEMT_CalcOutput`` and
    ``SetOutputsFromBEMT``, written to ``out`` (nb, nn, N_OUT); the module docstring gives the
    inputs and columns."""
    theta, r_local, vx, vy = inflow.theta, inflow.r_local, inflow.vx, inflow.vy
    chi0, psi, tsr = inflow.chi0, inflow.psi, inflow.tsr
    chord, af_index, z_local, z_hub = sec.chord, sec.af_index, sec.z_local, sec.z_hub
    xs, cls, cds, cms, cps = af.alpha, af.cl, af.cd, af.cm, af.cpmin
    start, count = af.start, af.count
    nb, nn = vx.shape[0], vx.shape[1]
    # check_turnOffBEMT: BlendCosine between TSR 1 and 2
    t = abs(tsr)
    if t >= _TSR_HIGH:
        weight = 1.0
    elif t > _TSR_LOW:
        weight = 0.5 * (1.0 - math.cos(_PI * (t - _TSR_LOW) / (_TSR_HIGH - _TSR_LOW)))
    else:
        weight = 0.0
    for k in range(nb):
        z_tip = z_local[k, nn - 1]
        r_tip = r_local[k, 0]  # GetRTip: largest r_local of the blade now
        for j in range(1, nn):
            r_tip = max(r_tip, r_local[k, j])
        for j in range(nn):
            o = out[k, j]
            i_af = af_index[j]
            a = ind[k, j, 0]
            ap = ind[k, j, 1]
            if opt.use_induction:
                tip_c, hub_c = _loss_constants(opt.n_blades, z_local[k, j], z_hub[k], z_tip)
                fixed = _is_fixed(opt, tip_c, hub_c)
                if opt.skew_mod == 1 and not fixed:
                    # ApplySkewedWakeCorrection (BEMMod_2D): Pitt/Peters redistribution,
                    # a (1 + 15 pi/32 tan(chi/2) r/R sin psi), chi = (1 + 0.6 a) chi0
                    # (AeroDyn theory manual, skewed-wake correction; Pitt & Peters 1981)
                    chi = _mpi2pi((0.6 * a + 1.0) * chi0)
                    if abs(chi) > _PI_2:
                        yaw_tan = math.copysign(1.0, chi)
                    else:
                        yaw_tan = math.tan(chi / 2.0)
                    a = a * (
                        1.0
                        + opt.skew_redistr_factor
                        * yaw_tan
                        * (r_local[k, j] / r_tip)
                        * math.sin(psi[k])
                    )
                a = a * weight
                ap = ap * weight
            # SetInputs_for_UA_AllNodes: phi consistent with the inductions
            p = _phi_from_inductions(vx[k, j], vy[k, j], a, ap)
            alpha = p - theta[k, j]
            ux = vx[k, j] * (1.0 - a)
            uy = vy[k, j] * (1.0 + ap)
            vrel = math.sqrt(ux * ux + uy * uy)
            re = vrel * chord[j] / opt.kin_visc
            if re <= 0.001:
                re = 0.001
            cl, cd, cm, cpmin = _polar_coefs(alpha, xs, cls, cds, cms, cps, start[i_af],
                                             count[i_af])  # fmt: skip
            if not opt.use_cm:
                cm = 0.0
            sp = math.sin(p)
            cp = math.cos(p)
            cx = cl * cp + cd * sp
            cy = cl * sp - cd * cp
            q = 0.5 * opt.rho * vrel * vrel
            o[PHI] = p
            o[AXIND] = a
            o[TNIND] = ap
            o[ALPHA] = alpha
            o[CL] = cl
            o[CD] = cd
            o[CM] = cm
            o[CX] = cx
            o[CY] = cy
            o[CPM] = cpmin
            o[VREL] = vrel
            o[FX] = cx * q * chord[j]
            o[FY] = cy * q * chord[j]
            o[MM] = cm * q * chord[j] * chord[j]
            o[RE] = re


@njit(cache=True, fastmath=False)
def bemt_outputs(opt, af, sec, inflow, state, out):
    """The element outputs at the solved inflow angles (AeroDyn ``BEMT_CalcOutput`` with
    ``BEMT_CalcOutput_Inductions`` and ``SetOutputsFromBEMT``), written to ``out``
    (nb, nn, N_OUT): :func:`bemt_inductions`, then :func:`bemt_outputs_from`; see the module
    docstring for the inputs and columns."""
    ind = np.empty((inflow.vx.shape[0], inflow.vx.shape[1], 2))
    bemt_inductions(opt, af, sec, inflow, state, ind)
    bemt_outputs_from(opt, af, sec, inflow, ind, out)


@njit(cache=True, fastmath=False)
def bemt_solve(opt, af, sec, inflow, state, out):
    """Solve the inflow angles (:func:`bemt_update_phi`) into ``state`` (:class:`BemtState`)
    and write the element outputs (:func:`bemt_outputs`) for the sections ``sec``
    (:class:`Sections`) and the inputs ``inflow`` (:class:`Inflow`). Returns the status bits."""
    status = bemt_update_phi(opt, af, sec, inflow, state)
    bemt_outputs(opt, af, sec, inflow, state, out)
    return status
