"""The quasi-static elastic catenary (floatwind.mooring.catenary): closed forms, invariants,
MAP++'s static solution of ref06 and MoorPy on the OC3 lines."""

import math

import numpy as np
import pytest

from floatwind.mooring.catenary import _residual, solve_lines

# OC3-Hywind line (Jonkman 2010; ref06 README)
G, RHO = 9.80665, 1025.0
MU, D, EA, L = 77.7066, 0.09, 384.243e6, 902.2
W = G * (MU - RHO * math.pi * D**2 / 4)
CB = 0.001


def _forward_suspended(H, V, L, w, ea):
    """(l, h) of a fully suspended line from its fairlead tensions (Jonkman 2007 eq. 2-58/59)."""
    inv = 0.0 if np.isinf(ea) else 1.0 / ea
    va = V - w * L
    l = (H / w) * (np.arcsinh(V / H) - np.arcsinh(va / H)) + H * L * inv
    h = (H / w) * (np.hypot(1, V / H) - np.hypot(1, va / H)) + (V * L - w * L**2 / 2) * inv
    return l, h


def test_inelastic_catenary_textbook():
    """y = a (cosh(x/a) - 1), s = a sinh(x/a) with the vertex at the anchor: H = w a, V = w s."""
    for a, x in [(100.0, 300.0), (1000.0, 850.0), (50.0, 20.0)]:
        s = a * math.sinh(x / a)
        y = a * (math.cosh(x / a) - 1.0)
        # no contact allowed: the vertex sits at the anchor, Va = 0
        r = solve_lines(x, y, s, W, np.inf, 0.0, False)
        assert r["H"] == pytest.approx(W * a, rel=1e-10)
        assert r["V"] == pytest.approx(W * s, rel=1e-10)


@pytest.mark.parametrize("ea", [np.inf, EA, 5e6])
@pytest.mark.parametrize("H,V", [(7e5, 8e5), (2e5, 7e5), (3e6, 1e6), (1e4, 6.4e5)])
def test_elastic_suspended_closed_form(ea, H, V):
    """Fairlead tensions recovered from the closed-form geometry to 1e-10 (no seabed contact)."""
    l, h = _forward_suspended(H, V, L, W, ea)
    r = solve_lines(l, h, L, W, ea, 0.0, False)
    assert r["status"] == 0
    assert r["H"] == pytest.approx(H, rel=1e-10)
    assert r["V"] == pytest.approx(V, rel=1e-10)
    assert r["Va"] == pytest.approx(V - W * L, rel=1e-10, abs=1e-10 * V)


@pytest.mark.parametrize("cb", [0.0, 0.001, 0.5, 5.0])
def test_seabed_contact_closed_form(cb):
    """Laid length and tensions recovered from the contact equations (with friction)."""
    H, V = 5e5, 0.6 * W * L
    Lb = L - V / W
    x0 = Lb - (H / (cb * W) if cb > 0 else np.inf)
    fr = -(cb * W / (2 * EA)) * (Lb**2 - max(x0, 0.0) ** 2)
    l = Lb + (H / W) * math.asinh(V / H) + H * L / EA + fr
    h = (H / W) * (math.hypot(1, V / H) - 1) + V**2 / (2 * W * EA)
    r = solve_lines(l, h, L, W, EA, cb, True)
    assert r["H"] == pytest.approx(H, rel=1e-10)
    assert r["V"] == pytest.approx(V, rel=1e-10)
    assert r["Lb"] == pytest.approx(Lb, rel=1e-10)
    assert r["Ha"] == pytest.approx(max(H - cb * W * Lb, 0.0), rel=1e-9, abs=1e-6)


@pytest.mark.parametrize(
    "H,V,contact", [(7e5, 5e5, True), (7e5, 8e5, True), (1e3, 3e5, True), (7e5, 2e5, False)]
)
@pytest.mark.parametrize("cb", [0.0, 0.001, 1.0])
def test_analytic_jacobian(H, V, contact, cb):
    """The Newton Jacobian is the derivative of the residuals (central differences)."""
    out = np.empty(6)
    _residual(H, V, 800.0, 250.0, L, W, 1 / EA, cb, contact, out)
    jac = out[2:].reshape(2, 2)
    num = np.empty((2, 2))
    for j, (dh, dv) in enumerate([(1e-3 * H, 0.0), (0.0, 1e-3 * V)]):
        p, m = np.empty(6), np.empty(6)
        _residual(H + dh, V + dv, 800.0, 250.0, L, W, 1 / EA, cb, contact, p)
        _residual(H - dh, V - dv, 800.0, 250.0, L, W, 1 / EA, cb, contact, m)
        num[:, j] = (p[:2] - m[:2]) / (2 * (dh + dv))
    np.testing.assert_allclose(jac, num, rtol=1e-5, atol=1e-12)


def test_map_static_solution_ref06():
    """MAP++'s initialisation of the OC3 lines (ref06 README table): H, V, T_a, Lb."""
    r = solve_lines(853.87 - 5.2, 320.0 - 70.0, L, W, EA, CB, True)
    assert r["H"] == pytest.approx(736939.290, rel=1e-8)
    assert r["V"] == pytest.approx(535727.992, rel=1e-8)
    assert r["T"] == pytest.approx(911089.457, rel=1e-8)
    assert r["Ta"] == pytest.approx(736845.198, rel=1e-8)
    assert r["Lb"] == pytest.approx(134.7853, abs=1e-4)


def test_regimes_continuous():
    """Vertical, slack, touch-down, suspended and taut regimes join continuously."""
    l = np.linspace(0.0, 905.0, 3001)
    r = solve_lines(l, 250.0, L, W, EA, CB, True)
    assert not r["status"].any()
    T = r["T"]
    assert np.all(np.diff(T) >= -1e-6 * T[1:])  # monotone in the span
    # slack: no H, the hanging part carries its weight
    ls = r["V"][0] / W  # hanging part: h = Ls + w Ls^2/(2 EA)
    assert r["H"][0] == 0.0 and ls + W * ls**2 / (2 * EA) == pytest.approx(250.0, rel=1e-14)
    assert np.all(r["Lb"][l > 860] == 0.0) and np.all(r["Lb"][l < 800] > 0)
    # the jumps between neighbouring samples stay small (no branch discontinuity)
    assert np.max(np.abs(np.diff(r["H"]))) < 0.02 * r["H"].max()
    # vertical suspended line, stretched: h = L + (V L - w L^2/2)/EA
    v = solve_lines(0.0, L + 0.1, L, W, EA, CB, False)
    assert v["V"] == pytest.approx(0.1 * EA / L + W * L / 2, rel=1e-12)


def test_taut_straight_line_limit():
    """A taut line far beyond its length: the tension tends to EA (chord - L)/L plus weight."""
    l, h = 900.0, 250.0
    chord = math.hypot(l, h)
    r = solve_lines(l, h, L * 0.95, 1.0, EA, 0.0, True)  # 1 N/m: sag negligible
    # the fairlead carries half the line's weight along the chord in addition (~115 N)
    assert r["T"] == pytest.approx(EA * (chord - 0.95 * L) / (0.95 * L), rel=1e-5)


def _oc3_fairleads(offset):
    ang = np.radians([0.0, 120.0, 240.0])
    fair = np.stack([5.2 * np.cos(ang), 5.2 * np.sin(ang), np.full(3, -70.0)], 1)
    anch = np.stack([853.87 * np.cos(ang), 853.87 * np.sin(ang), np.full(3, -320.0)], 1)
    return fair + offset, anch


def test_moorpy_oc3_grid():
    """Fairlead tensions of the three OC3 lines vs MoorPy's catenary over surge -40..40 m,
    heave -10..10 m and sway: 1e-6 relative."""
    catenary = pytest.importorskip("moorpy.Catenary").catenary
    worst = 0.0
    for sx in np.linspace(-40.0, 40.0, 9):
        for sz in (-10.0, 0.0, 10.0):
            for sy in (0.0, 15.0):
                fair, anch = _oc3_fairleads(np.array([sx, sy, sz]))
                d = fair - anch
                l = np.hypot(d[:, 0], d[:, 1])
                h = d[:, 2]
                r = solve_lines(l, h, L, W, EA, CB, True)
                for i in range(3):
                    _, _, hf, vf, _ = catenary(l[i], h[i], L, EA, W, CB=CB, Tol=1e-12, MaxIter=500)
                    t_mp = math.hypot(hf, vf)
                    worst = max(worst, abs(r["T"][i] / t_mp - 1))
    assert worst < 1e-6, worst


def test_short_stiff_taut_lines_converge():
    """3000 taut 60 m chains (strain 1e-5..3e-3, any slope and heading, the chord from two
    points as the load computes it) all converge, to a solution whose span and height residuals
    are at round-off (1e-9 m). Newton from Peyrot-Goulois' lam = 0.2 could stall there, and a
    step of 1e-12 of the tension is below the round-off of the span equation for such a line
    (~2 in 3000 never converged: a bridle leg of the connect-node tests)."""
    from floatwind.mooring.catenary import solve_line

    rng = np.random.default_rng(1)
    w = 9.80665 * (77.7066 - 1025 * math.pi * 0.09**2 / 4)
    inv_ea = 1 / 384.243e6
    out = np.empty(6)
    r = np.empty(6)
    for _ in range(3000):
        ang, strain = rng.uniform(0.05, 1.5), 10 ** rng.uniform(-5, -2.5)
        chord = 60.0 * (1 + strain)
        p = np.array([rng.uniform(-50, 50), rng.uniform(-50, 50), -100.0])
        az = rng.uniform(0, 2 * math.pi)
        q = p + chord * np.array(
            [math.cos(ang) * math.cos(az), math.cos(ang) * math.sin(az), math.sin(ang)]
        )
        dx, dy = q[0] - p[0], q[1] - p[1]
        lh, h = math.sqrt(dx * dx + dy * dy), q[2] - p[2]
        assert solve_line(lh, h, 60.0, w, inv_ea, 0.0, False, out) == 0, (lh, h)
        _residual(out[0], out[1], lh, h, 60.0, w, inv_ea, 0.0, False, r)
        assert abs(r[0]) < 1e-9 and abs(r[1]) < 1e-9
