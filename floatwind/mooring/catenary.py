"""Quasi-static elastic catenary of one mooring line, in the vertical plane of its two ends.

A line of unstretched length ``L``, wet weight ``w`` per unit length (N/m, > 0), axial stiffness
``EA`` (N; ``inf`` for an inextensible line) and seabed friction coefficient ``cb`` hangs from its
fairlead (upper end) to its anchor (lower end). With ``l`` the horizontal and ``h`` (>= 0) the
vertical distance from the anchor to the fairlead, the horizontal and vertical fairlead tensions
``H``, ``V`` solve (Jonkman (2007), NREL/TP-500-41958, eqs. 2-58..2-61, the equations of
MAP++'s ``residual.c`` and of FAST v7's ``Catenary``):

no seabed contact (``V >= w L``, or a lower end that is not on the seabed)::

    l = (H/w) [asinh(V/H) - asinh((V - w L)/H)] + H L/EA
    h = (H/w) [sqrt(1 + (V/H)^2) - sqrt(1 + ((V - w L)/H)^2)] + (V L - w L^2/2)/EA

seabed contact (``V < w L``, anchor on the seabed), laid length ``Lb = L - V/w``::

    l = Lb + (H/w) asinh(V/H) + H L/EA - (cb w/(2 EA)) [Lb^2 - max(Lb - H/(cb w), 0)^2]
    h = (H/w) [sqrt(1 + (V/H)^2) - 1] + V^2/(2 w EA)

Newton's method with the analytic Jacobian, from the initial guess of Peyrot & Goulois (1979)
(the one of FAST v7, MAP++ and MoorPy) or, for a taut elastic line (chord >= L), from the
tension of the straight line stretched to the chord; the step limited so that ``H`` stays
positive. Closed
forms cover the regimes where the equations degenerate: a vertical line (``l = 0``, ``H = 0``)
and a slack line whose seabed part is longer than the horizontal span (``H = 0``: the vertical
hanging part is ``Ls`` with ``h = Ls + w Ls^2/(2 EA)``). Taut straight lines are the limit
``H >> w L`` of the first pair and need nothing special.

Anchor end (MAP++ ``lineroutines.c``): with contact ``Ha = max(H - cb w Lb, 0)``, ``Va = 0``;
without, ``Ha = H``, ``Va = V - w L``.

The functions are scalar and compiled with numba: the load's kernel calls them per batch member
and line (the same operations whatever the batch), and the NumPy path calls the same compiled
functions through :func:`solve_lines` (one implementation of the equations).
"""

from __future__ import annotations

import math

import numpy as np

from floatwind.jit import njit

__all__ = [
    "SOLVED",
    "line_shape",
    "solve_line",
    "solve_line_from",
    "solve_lines",
    "STATUS_NOT_CONVERGED",
]

#: status of :func:`solve_line`
SOLVED = 0
STATUS_NOT_CONVERGED = 1

_MAX_ITER = 100
_RTOL = 1e-12  # on the Newton step, relative to the tension plus the line's weight
_RTOL_FLOOR = 1e-9  # a step below this that stops shrinking is round-off: converged


@njit(cache=True, fastmath=False)
def _residual(H, V, l, h, L, w, inv_ea, cb, contact, out):
    """Residuals (F1, F2) of the two equations and the Jacobian d(F1, F2)/d(H, V) into ``out``
    (6,): F1, F2, dF1/dH, dF1/dV, dF2/dH, dF2/dV. Jonkman (2007) eqs. 2-58..2-61."""
    vh = V / H
    sv = math.sqrt(1.0 + vh * vh)
    Va = V - w * L
    if contact and Va < 0.0:
        Lb = -Va / w  # = L - V/w
        fr = 0.0
        dfr_dH = 0.0
        dfr_dV = 0.0
        if cb > 0.0:
            x0 = Lb - H / (cb * w)
            if x0 > 0.0:  # friction reaches part of the laid length
                fr = -H * Lb * inv_ea + H * H * inv_ea / (2.0 * cb * w)
                dfr_dH = -Lb * inv_ea + H * inv_ea / (cb * w)
                dfr_dV = H * inv_ea / w
            else:  # friction over the whole laid length: anchor tension H - cb w Lb > 0
                fr = -0.5 * cb * w * Lb * Lb * inv_ea
                dfr_dV = cb * Lb * inv_ea
        out[0] = Lb + (H / w) * math.asinh(vh) + H * L * inv_ea + fr - l
        out[1] = (H / w) * (sv - 1.0) + V * V * inv_ea / (2.0 * w) - h
        out[2] = (math.asinh(vh) - vh / sv) / w + L * inv_ea + dfr_dH
        out[3] = (1.0 / sv - 1.0) / w + dfr_dV
        out[4] = (1.0 / sv - 1.0) / w
        out[5] = (vh / sv) / w + V * inv_ea / w
    else:
        ah = Va / H
        sa = math.sqrt(1.0 + ah * ah)
        out[0] = (H / w) * (math.asinh(vh) - math.asinh(ah)) + H * L * inv_ea - l
        out[1] = (H / w) * (sv - sa) + (V * L - 0.5 * w * L * L) * inv_ea - h
        out[2] = (math.asinh(vh) - math.asinh(ah) - (vh / sv - ah / sa)) / w + L * inv_ea
        out[3] = (1.0 / sv - 1.0 / sa) / w
        out[4] = out[3]
        out[5] = (vh / sv - ah / sa) / w + L * inv_ea


@njit(cache=True, fastmath=False)
def _hanging_length(h, w, inv_ea):
    """Length Ls of a vertical line hanging over the height h with no tension at its foot:
    h = Ls + w Ls^2 inv_ea / 2 (elastic stretch under its own weight)."""
    if inv_ea == 0.0:
        return h
    a = 0.5 * w * inv_ea
    return 2.0 * h / (1.0 + math.sqrt(1.0 + 4.0 * a * h))  # root of a Ls^2 + Ls - h, stable form


@njit(cache=True, fastmath=False)
def solve_line(l, h, L, w, inv_ea, cb, contact, out):
    """Fairlead and anchor forces of one line: :func:`solve_line_from` from the initial guess
    of Peyrot & Goulois (1979)."""
    return solve_line_from(l, h, L, w, inv_ea, cb, contact, 0.0, 0.0, out)


@njit(cache=True, fastmath=False)
def solve_line_from(l, h, L, w, inv_ea, cb, contact, H0, V0, out):
    """Fairlead and anchor forces of one line, Newton's method from ``(H0, V0)`` when
    ``H0 > 0`` (a nearby solution: the connect-node iterations), else from the initial guess of
    Peyrot & Goulois (1979).

    Parameters
    ----------
    l, h : horizontal (>= 0) and vertical (>= 0) distance from the anchor to the fairlead (m).
    L : unstretched length (m); w : wet weight per length (N/m, > 0);
    inv_ea : 1/EA (1/N, 0 for an inextensible line); cb : seabed friction coefficient (>= 0);
    contact : whether the anchor lies on the seabed (the laid part is possible).
    out : (6,) float array receiving H, V (fairlead, N), Ha, Va (anchor, N), Lb (laid length, m)
        and the number of Newton iterations.

    Returns
    -------
    int : :data:`SOLVED` or :data:`STATUS_NOT_CONVERGED`.
    """
    wl = w * L
    # vertical line (Jonkman 2007: the catenary equations are singular at H = 0)
    if l <= 1e-12 * L:
        Ls = _hanging_length(h, w, inv_ea)
        if contact and Ls <= L:
            out[0], out[1], out[2], out[3], out[4], out[5] = 0.0, w * Ls, 0.0, 0.0, L - Ls, 0.0
        else:  # fully suspended: h = L + (V L - w L^2/2)/EA (straight, stretched)
            if inv_ea == 0.0:
                V = wl
            else:
                V = (h - L) / (L * inv_ea) + 0.5 * wl
            out[0], out[1], out[2], out[3], out[4], out[5] = 0.0, V, 0.0, V - wl, 0.0, 0.0
        return SOLVED
    # slack: a vertical hanging part plus a laid part longer than the span carries no H
    if contact:
        Ls = _hanging_length(h, w, inv_ea)
        if Ls <= L and l <= L - Ls:
            out[0], out[1], out[2], out[3], out[4], out[5] = 0.0, w * Ls, 0.0, 0.0, L - Ls, 0.0
            return SOLVED
    chord = math.sqrt(l * l + h * h)
    if H0 > 0.0:
        H, V = H0, V0
    elif L <= chord and inv_ea > 0.0:
        # taut: the tension of the straight line stretched to the chord, along the chord, plus
        # half the weight (Peyrot & Goulois' lam = 0.2 can leave Newton far from a short, stiff
        # taut line: a 60 m chain stretched by 0.03 % did not converge in 100 iterations)
        T = (chord / L - 1.0) / inv_ea
        H = max(T * l / chord, 1e-6 * wl)
        V = T * h / chord + 0.5 * wl
    else:  # initial guess, Peyrot & Goulois (1979)
        if L <= chord:
            lam = 0.2
        else:
            lam = math.sqrt(3.0 * ((L * L - h * h) / (l * l) - 1.0))
        H = max(abs(0.5 * w * l / lam), 1e-6 * wl)
        V = 0.5 * w * (h / math.tanh(lam) + L)
    r = np.empty(6)
    status = STATUS_NOT_CONVERGED
    it = 0
    last = math.inf
    while it < _MAX_ITER:
        it += 1
        _residual(H, V, l, h, L, w, inv_ea, cb, contact, r)
        det = r[2] * r[5] - r[3] * r[4]
        dH = -(r[5] * r[0] - r[3] * r[1]) / det
        dV = -(r[2] * r[1] - r[4] * r[0]) / det
        if not (math.isfinite(dH) and math.isfinite(dV)):
            break
        if H + dH < 0.1 * H:  # keep H > 0 (MAP++/MoorPy limit the step the same way)
            s = 0.9 * H / -dH
            dH *= s
            dV *= s
        H += dH
        V += dV
        step = max(abs(dH) / (H + wl), abs(dV) / (abs(V) + wl))
        if step <= _RTOL:
            status = SOLVED
            break
        if step <= _RTOL_FLOOR and step >= last:
            # a step that no longer shrinks at 1e-9 is round-off: a short, stiff, taut line's
            # span equation subtracts two asinh terms scaled by H/w, its noise times EA/L
            # reaches 1e-12 of the tension
            status = SOLVED
            break
        last = step
    if status != SOLVED:
        out[0], out[1], out[2], out[3], out[4], out[5] = H, V, math.nan, math.nan, math.nan, it
        return status
    Va = V - wl
    if contact and Va < 0.0:
        Lb = -Va / w
        out[2] = max(H - cb * w * Lb, 0.0)
        out[3] = 0.0
        out[4] = Lb
    else:
        out[2] = H
        out[3] = Va
        out[4] = 0.0
    out[0] = H
    out[1] = V
    out[5] = it
    return SOLVED


@njit(cache=True, fastmath=False)
def _solve_many(l, h, L, w, inv_ea, cb, contact, out):
    status = 0
    r = np.empty(6)
    for i in range(l.shape[0]):
        st = solve_line(l[i], h[i], L[i], w[i], inv_ea[i], cb[i], contact[i], r)
        for k in range(6):
            out[i, k] = r[k]
        status |= st
    return status


def solve_lines(l, h, L, w, ea, cb=0.0, contact=True) -> dict[str, np.ndarray]:
    """:func:`solve_line` over arrays (broadcast together): ``H, V, Ha, Va, Lb, iterations``
    and ``T`` = fairlead tension, ``Ta`` = anchor tension, ``status``.

    Parameters
    ----------
    l, h : horizontal and vertical distance from the anchor to the fairlead (m), ``h >= 0``.
    L : unstretched length (m); w : wet weight (N/m); ea : EA (N, ``inf`` inextensible);
    cb : seabed friction coefficient; contact : anchor on the seabed.
    """
    arrs = np.broadcast_arrays(
        *(np.asarray(a, dtype=float) for a in (l, h, L, w, ea, cb)), np.asarray(contact, bool)
    )
    shape = arrs[0].shape
    flat = [np.ascontiguousarray(a.ravel()) for a in arrs]
    inv_ea = np.where(np.isinf(flat[4]), 0.0, 1.0 / flat[4])
    out = np.empty((flat[0].size, 6))
    _solve_many(flat[0], flat[1], flat[2], flat[3], inv_ea, flat[5], flat[6], out)
    res = {k: out[:, i].reshape(shape) for i, k in enumerate(("H", "V", "Ha", "Va", "Lb"))}
    res["iterations"] = out[:, 5].reshape(shape)
    res["T"] = np.hypot(res["H"], res["V"])
    res["Ta"] = np.hypot(res["Ha"], res["Va"])
    res["status"] = np.isnan(res["Ha"])
    return res


def line_shape(H, V, L, w, ea, cb=0.0, contact=True, n=101) -> tuple[np.ndarray, np.ndarray]:
    """Points (x, z) of the stretched line, from the anchor (0, 0), for plots (Jonkman 2007
    eqs. 2-64..2-67 in the form of MAP++): ``n`` points along the unstretched length."""
    inv_ea = 0.0 if np.isinf(ea) else 1.0 / ea
    s = np.linspace(0.0, L, n)
    Va = V - w * L
    if H <= 0.0:
        Lb = L - V / w if contact else 0.0
        x = np.minimum(s, Lb)
        z = np.where(s > Lb, (s - Lb) + w * (s - Lb) ** 2 * inv_ea / 2.0, 0.0)
        return x, z
    if contact and Va < 0.0:
        Lb = L - V / w
        vs = w * (s - Lb)
        sus = s > Lb
        xs = Lb + (H / w) * np.arcsinh(np.where(sus, vs, 0.0) / H) + H * s * inv_ea
        zs = (H / w) * (np.sqrt(1.0 + (np.where(sus, vs, 0.0) / H) ** 2) - 1.0)
        zs = zs + np.where(sus, vs, 0.0) ** 2 * inv_ea / (2.0 * w)
        x = np.where(sus, xs, s + H * s * inv_ea)
        return x, np.where(sus, zs, 0.0)
    vs = Va + w * s
    x = (H / w) * (np.arcsinh(vs / H) - np.arcsinh(Va / H)) + H * s * inv_ea
    z = (H / w) * (np.sqrt(1 + (vs / H) ** 2) - np.sqrt(1 + (Va / H) ** 2))
    z = z + (Va * s + 0.5 * w * s**2) * inv_ea
    return x, z
