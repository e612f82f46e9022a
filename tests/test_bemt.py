"""The BEMT element solve (``floatwind._kernels.bemt``, issue 35): analytic momentum relations,
special cases, the skewed-wake factor, convergence, invariants, bad input, and the reference:
OpenFAST v5's AeroDyn on ref09 (blade-node Alpha/AxInd/TnInd/Cl/Cd/Fx/Fy/Vrel)."""

from __future__ import annotations

import math
import pathlib

import numpy as np
import pytest
from conftest import ref09_airfoil_paths

from floatwind._kernels import bemt as K
from floatwind._kernels.status import BEMT_NOT_CONVERGED
from floatwind.errors import CaseError
from floatwind.io.aerodyn import read_airfoil, read_blade
from floatwind.rotor import (
    BladeGeometry,
    airfoil_tables,
    bemt_options,
    blade_resultant,
    pack_airfoils,
    performance,
    rotor_loads,
)

ROOT = pathlib.Path(__file__).resolve().parents[1]
REF09 = ROOT.parent / "shared" / "reference" / "openfast" / "ref09_aero_fixed_speed"

#: a thin-airfoil polar: Cl = 2 pi sin(alpha) cos(alpha), Cd = 0 (covers -180..180 deg)
_ALPHA = np.linspace(-180.0, 180.0, 3601)
_CL = 2.0 * np.pi * np.sin(np.radians(_ALPHA)) * np.cos(np.radians(_ALPHA))
_CD = 0.01 + 0.0 * _ALPHA
THIN = pack_airfoils([_ALPHA], [_CL], [_CD])


def _bemt_solve(opt, af, theta, chord, af_index, r_local, z_local, z_hub, vx, vy, chi0, psi, tsr,
                state, out):  # fmt: skip
    """``bemt_solve`` with its inputs given one by one (as the tests build them)."""
    sec = K.Sections(chord, af_index, z_local, z_hub)
    return K.bemt_solve(opt, af, sec, K.Inflow(theta, r_local, vx, vy, float(chi0), psi,
                                               float(tsr)), state, out)  # fmt: skip


def _ir(opt, af, *args):
    """``induction_residual`` with the node's inputs given one by one (``Node``'s order), then
    the angle."""
    return K.induction_residual(opt, af, K.Node(*args[:-1]), args[-1])


def _bemt_update_phi(opt, af, theta, chord, af_index, r_local, z_local, z_hub, vx, vy, state):
    sec = K.Sections(chord, af_index, z_local, z_hub)
    inflow = K.Inflow(theta, r_local, vx, vy, 0.0, np.zeros(theta.shape[0]), 10.0)
    return K.bemt_update_phi(opt, af, sec, inflow, state)


def _state(phi, valid):
    """A BEMT state sharing ``phi`` and ``valid`` (read after the call)."""
    return K.BemtState(phi=phi, valid=valid, slope=np.zeros_like(phi), a=np.zeros_like(phi),
                       ap=np.zeros_like(phi), known=np.zeros(phi.shape, dtype=np.bool_))  # fmt: skip


def _opt(**kw):
    base = dict(
        tip_loss=False, hub_loss=False, tan_ind=True, ai_drag=False, ti_drag=False, skew_mod=0
    )
    base.update(kw)
    return bemt_options(**base)


def _one_node(opt, af, *, vx, vy, theta=0.05, chord=2.0, r=20.0, z=None, z_hub=1.5, z_tip=40.0):
    """Inputs of one blade with three nodes (the middle one is looked at)."""
    zl = np.array([[z_hub, z if z is not None else r, z_tip]])
    return dict(
        opt=opt,
        af=af,
        theta=np.full((1, 3), theta),
        chord=np.full(3, chord),
        af_index=np.zeros(3, dtype=np.int64),
        r_local=np.array([[z_hub, r, z_tip]]),
        z_local=zl,
        z_hub=np.array([z_hub]),
        vx=np.full((1, 3), vx),
        vy=np.full((1, 3), vy),
    )


def _solve(inp, chi0=0.0, psi=0.0, tsr=10.0):
    nb, nn = inp["vx"].shape
    phi = np.zeros((nb, nn))
    valid = np.ones((nb, nn), dtype=np.bool_)
    out = np.empty((nb, nn, K.N_OUT))
    st = _bemt_solve(*inp.values(), chi0, np.full(nb, psi), tsr, _state(phi, valid), out)
    return out, phi, valid, st


# --- analytic momentum relations ------------------------------------------------------------


def test_no_losses_no_drag_solution_satisfies_momentum_and_blade_element_relations():
    """Without losses and drag (Cx = Cl cos phi), the solved node obeys
    a = 1 / (1 + 4 sin^2 phi / (sigma Cx)), a' = 1 / (4 sin phi cos phi / (sigma Cy) - 1) and
    tan phi = Vx (1 - a) / (Vy (1 + a')) (Ning 2014 eq. 16-18, 21)."""
    inp = _one_node(_opt(), THIN, vx=8.0, vy=40.0, theta=math.radians(2.0), chord=2.5, r=25.0)
    out, phi, valid, st = _solve(inp)
    assert st == 0 and valid[0, 1]
    o = out[0, 1]
    p = o[K.PHI]
    cl = o[K.CL]
    sigma = 3 * 2.5 / (2.0 * math.pi * 25.0)
    cx, cy = cl * math.cos(p), cl * math.sin(p)
    a = 1.0 / (1.0 + 4.0 * math.sin(p) ** 2 / (sigma * cx))
    ap = 1.0 / (4.0 * math.sin(p) * math.cos(p) / (sigma * cy) - 1.0)
    assert 0.05 < o[K.AXIND] < 0.4  # the momentum region
    assert o[K.AXIND] == pytest.approx(a, rel=2e-5)
    assert o[K.TNIND] == pytest.approx(ap, rel=2e-5)
    assert math.tan(p) == pytest.approx(
        8.0 * (1 - o[K.AXIND]) / (40.0 * (1 + o[K.TNIND])), rel=1e-12
    )
    assert o[K.ALPHA] == pytest.approx(p - math.radians(2.0), abs=1e-15)
    # Vrel, q, FX/FY from the documented definitions (drag always in CX, CY)
    vrel = math.hypot(8.0 * (1 - o[K.AXIND]), 40.0 * (1 + o[K.TNIND]))
    assert o[K.VREL] == pytest.approx(vrel, rel=1e-14)
    q = 0.5 * 1.225 * vrel**2
    cxd = cl * math.cos(p) + o[K.CD] * math.sin(p)
    cyd = cl * math.sin(p) - o[K.CD] * math.cos(p)
    assert o[K.FX] == pytest.approx(cxd * q * 2.5, rel=1e-13)
    assert o[K.FY] == pytest.approx(cyd * q * 2.5, rel=1e-13)
    assert o[K.RE] == pytest.approx(vrel * 2.5 / 1.464e-5, rel=1e-13)


def test_buhl_correction_continuous_at_a_04_and_above():
    """AeroDyn's high-induction branch (Buhl, with F) starts where momentum gives a = 0.4
    (k = 2/3), continuously, and its a solves C_T = 8/9 + (4F - 40/9) a + (50/9 - 4F) a^2 =
    4 a F k' ... written as Buhl: 4 F k (1 - a)^2 = 8/9 + (4F - 40/9) a + (50/9 - 4F) a^2."""
    opt = _opt(tan_ind=False)
    sigma = 3 * 2.0 / (2 * math.pi * 20.0)
    phi = math.radians(5.0)
    af_i = 0
    # choose Cx through the airfoil: evaluate the residual's a at a phi, compare with formula
    res, a, ap, valid, f = _ir(opt, THIN, af_i, 0.0, 2.0, 20.0, 1.0, 1.0, False, 8.0, 40.0, phi)
    cl = 2 * math.pi * math.sin(phi) * math.cos(phi)
    k = sigma * cl * math.cos(phi) / (4.0 * math.sin(phi) ** 2)
    assert k > 2.0 / 3.0 and valid
    ct_bem = 4.0 * k * (1.0 - a) ** 2
    ct_buhl = 8.0 / 9.0 + (4.0 - 40.0 / 9.0) * a + (50.0 / 9.0 - 4.0) * a * a
    assert ct_bem == pytest.approx(ct_buhl, rel=1e-10)
    assert 0.4 < a < 1.0
    # continuity at k = 2/3 of the two branches (g1, g2, g3 with F = 1)
    kk = 2.0 / 3.0
    temp = 2.0 * kk
    a_buhl = (temp - (10.0 / 9.0 - 1.0) - math.sqrt(temp - (4.0 / 3.0 - 1.0))) / (
        temp - (25.0 / 9.0 - 2.0)
    )
    assert a_buhl == pytest.approx(kk / (1.0 + kk), abs=1e-12)


def test_prandtl_tip_and_hub_loss_factor():
    """F = (2/pi) acos(exp(-B (R - r) / (2 r sin phi))) (2/pi) acos(exp(-B (r - Rh) / (2 Rh sin phi)))."""
    opt = _opt(tip_loss=True, hub_loss=True)
    phi = 0.2
    r, rh, rt = 30.0, 1.5, 63.0
    tip_c = 3 * (rt - r) / (2 * r)
    hub_c = 3 * (r - rh) / (2 * rh)
    _, _, _, _, f = _ir(opt, THIN, 0, 0.0, 2.0, r, tip_c, hub_c, False, 8.0, 40.0, phi)
    expect = (
        (2 / math.pi) ** 2
        * math.acos(math.exp(-tip_c / math.sin(phi)))
        * math.acos(math.exp(-hub_c / math.sin(phi)))
    )
    assert f == pytest.approx(expect, rel=1e-14)


# --- special cases -------------------------------------------------------------------------


def test_zero_axial_velocity_gives_phi_zero_and_no_induction():
    inp = _one_node(_opt(), THIN, vx=0.0, vy=30.0, theta=0.1)
    out, phi, valid, st = _solve(inp)
    o = out[0, 1]
    assert st == 0 and phi[0, 1] == 0.0
    assert o[K.AXIND] == 0.0 and o[K.TNIND] == 0.0
    assert o[K.ALPHA] == pytest.approx(-0.1, abs=1e-15)
    assert o[K.VREL] == pytest.approx(30.0, rel=1e-15)


@pytest.mark.parametrize("vx", [6.0, -6.0])
def test_zero_tangential_velocity_gives_phi_plus_minus_half_pi(vx):
    """Vy = 0 (a parked blade in axial wind): phi = sign(Vx) pi/2 (BEMT_UnCoupledSolve), no
    induction (BEMTU_InductionWithResidual)."""
    inp = _one_node(_opt(), THIN, vx=vx, vy=0.0, theta=0.3)
    out, phi, valid, st = _solve(inp)
    o = out[0, 1]
    assert phi[0, 1] == math.copysign(math.pi / 2, vx)
    assert o[K.AXIND] == 0.0 and o[K.TNIND] == 0.0
    assert o[K.PHI] == pytest.approx(math.copysign(math.pi / 2, vx), abs=1e-15)
    assert o[K.VREL] == pytest.approx(6.0, rel=1e-15)


def test_root_and_tip_nodes_have_fixed_induction_one():
    """A node where an active loss constant is zero (the tip, z = z_tip; the root, z = z_hub)
    has a = 1, a' = 0 (BEMT_SetParameters FixedInductions), so phi = 0 and alpha = -theta."""
    inp = _one_node(_opt(tip_loss=True, hub_loss=True), THIN, vx=8.0, vy=40.0, theta=0.07)
    out, *_ = _solve(inp)
    for j in (0, 2):
        assert out[0, j, K.AXIND] == 1.0 and out[0, j, K.TNIND] == 0.0
        assert out[0, j, K.PHI] == 0.0
        assert out[0, j, K.ALPHA] == pytest.approx(-0.07, abs=1e-15)
    # with the losses off they are ordinary nodes
    out, *_ = _solve(_one_node(_opt(), THIN, vx=8.0, vy=40.0, theta=0.07))
    assert 0.0 < out[0, 2, K.AXIND] < 0.5


def test_cylinder_nodes_get_no_induction_without_aidrag_and_some_with_it():
    """A cylinder (Cl = 0): Cx = Cy = 0 in the induction equations without AIDrag/TIDrag, so
    a = a' = 0 (ref09's Cylinder nodes); with AIDrag its drag induces."""
    cyl = pack_airfoils([[-180.0, 0.0, 180.0]], [[0.0, 0.0, 0.0]], [[0.5, 0.5, 0.5]])
    out, *_ = _solve(_one_node(_opt(), cyl, vx=8.0, vy=5.0, chord=3.5, r=4.0))
    assert out[0, 1, K.AXIND] == 0.0 and out[0, 1, K.TNIND] == 0.0
    assert out[0, 1, K.PHI] == pytest.approx(math.atan2(8.0, 5.0), abs=1e-15)
    out, *_ = _solve(
        _one_node(_opt(ai_drag=True, ti_drag=True), cyl, vx=8.0, vy=5.0, chord=3.5, r=4.0)
    )
    assert out[0, 1, K.AXIND] > 0.01


def test_wake_mod_0_gives_geometric_inflow():
    out, phi, valid, _ = _solve(_one_node(_opt(use_induction=False), THIN, vx=8.0, vy=40.0))
    assert np.all(out[0, :, K.AXIND] == 0.0) and np.all(out[0, :, K.TNIND] == 0.0)
    assert out[0, 1, K.PHI] == pytest.approx(math.atan2(8.0, 40.0), abs=1e-15)


def test_low_tsr_blends_induction_out():
    """check_turnOffBEMT: the inductions times (1 - cos(pi (TSR - 1))) / 2 for 1 < TSR < 2."""
    inp = _one_node(_opt(), THIN, vx=8.0, vy=40.0)
    full, *_ = _solve(inp, tsr=10.0)
    half, *_ = _solve(inp, tsr=1.5)
    none, *_ = _solve(inp, tsr=0.5)
    assert half[0, 1, K.AXIND] == pytest.approx(0.5 * full[0, 1, K.AXIND], rel=1e-14)
    assert half[0, 1, K.TNIND] == pytest.approx(0.5 * full[0, 1, K.TNIND], rel=1e-14)
    assert none[0, 1, K.AXIND] == 0.0


# --- the skewed-wake correction ------------------------------------------------------------


@pytest.mark.parametrize("chi0_deg, psi_deg", [(10.0, 90.0), (20.0, -30.0), (8.0, 200.0)])
def test_pitt_peters_factor(chi0_deg, psi_deg):
    """a_skew = a (1 + K tan(chi/2) r/R sin psi), chi = (1 + 0.6 a) chi0, R the largest r of the
    blade (ApplySkewedWakeCorrection, BEMMod_2D), a' unchanged."""
    chi0, psi = math.radians(chi0_deg), math.radians(psi_deg)
    inp0 = _one_node(_opt(skew_mod=0), THIN, vx=8.0, vy=40.0, r=25.0, z_tip=40.0)
    inp1 = _one_node(_opt(skew_mod=1), THIN, vx=8.0, vy=40.0, r=25.0, z_tip=40.0)
    o0, *_ = _solve(inp0, chi0=chi0, psi=psi)
    o1, *_ = _solve(inp1, chi0=chi0, psi=psi)
    a = o0[0, 1, K.AXIND]
    chi = (1.0 + 0.6 * a) * chi0
    factor = 1.0 + 15.0 * math.pi / 32.0 * math.tan(chi / 2.0) * (25.0 / 40.0) * math.sin(psi)
    assert o1[0, 1, K.AXIND] == pytest.approx(a * factor, rel=1e-14)
    assert o1[0, 1, K.TNIND] == o0[0, 1, K.TNIND]
    # phi is recomputed from the corrected induction
    assert math.tan(o1[0, 1, K.PHI]) == pytest.approx(
        8.0 * (1 - o1[0, 1, K.AXIND]) / (40.0 * (1 + o1[0, 1, K.TNIND])), rel=1e-12
    )


def test_mirrored_skew_gives_mirrored_loads():
    """The blade at psi and at pi - psi (mirror image about the skew plane) sees the same
    correction: the loads of a mirrored (yawed) rotor are the mirror image."""
    inp = _one_node(_opt(skew_mod=1), THIN, vx=8.0, vy=40.0)
    for psi in (0.3, 1.2, -0.7):
        a, *_ = _solve(inp, chi0=0.3, psi=psi)
        b, *_ = _solve(inp, chi0=0.3, psi=math.pi - psi)
        np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-13)


# --- convergence and invariants ------------------------------------------------------------


def _ref09_rotor():
    if not REF09.is_dir():
        pytest.skip(f"the ref09 reference deck is not at {REF09}")
    af = airfoil_tables([read_airfoil(p) for p in ref09_airfoil_paths(REF09)])
    blade = BladeGeometry.from_blade_file(read_blade(REF09 / "AeroDyn_blade.dat"), n_airfoils=8)
    return blade, af


def test_solution_converges_to_tolerance_and_warm_start_keeps_it():
    blade, af = _ref09_rotor()
    opt = bemt_options(ai_drag=False, ti_drag=False)
    r = rotor_loads(
        blade,
        af,
        opt,
        hub_radius=1.5,
        precone=math.radians(-2.5),
        wind_speed=8.0,
        omega=0.94,
        pitch=0.0,
    )
    assert r["status"] == 0
    z_local, z_hub = blade.loss_distances(1.5)
    z_tip = z_local[-1]
    phis = []
    for j in range(blade.n_nodes):
        tip_c = 3 * (z_tip - z_local[j]) / (2 * z_local[j])
        hub_c = 3 * (z_local[j] - z_hub) / (2 * z_hub)
        fixed = abs(tip_c) < 1e-12 or abs(hub_c) < 1e-12
        # the constraint state solves the residual: |f| < IndToler, or the bracket < 1e-6 rad
        inp = dict(vx=r["vx"][0, j], vy=r["vy"][0, j])
        phi = r["out"][0, j, K.PHI]  # after recomputation (no skew, no blend: the same root)
        res, *_ = _ir(
            opt,
            af,
            blade.af_index[j],
            blade.twist[j],
            blade.chord[j],
            r["r_local"][0, j],
            tip_c,
            hub_c,
            fixed,
            inp["vx"],
            inp["vy"],
            phi,
        )
        if not fixed:
            d = 1e-6
            r_lo, *_ = _ir(
                opt,
                af,
                blade.af_index[j],
                blade.twist[j],
                blade.chord[j],
                r["r_local"][0, j],
                tip_c,
                hub_c,
                False,
                inp["vx"],
                inp["vy"],
                phi - d,
            )
            r_hi, *_ = _ir(
                opt,
                af,
                blade.af_index[j],
                blade.twist[j],
                blade.chord[j],
                r["r_local"][0, j],
                tip_c,
                hub_c,
                False,
                inp["vx"],
                inp["vy"],
                phi + d,
            )
            assert abs(res) < 5e-10 or r_lo * r_hi <= 0.0
        phis.append(phi)
    # a previous solution that still satisfies the residual is kept (warm start)
    nn = blade.n_nodes
    args = (
        opt,
        af,
        blade.twist[None, :].copy(),
        blade.chord,
        blade.af_index,
        r["r_local"].copy(),
        z_local[None, :].copy(),
        np.array([z_hub]),
        r["vx"].copy(),
        r["vy"].copy(),
    )
    phi = np.zeros((1, nn))
    valid = np.ones((1, nn), dtype=np.bool_)
    _bemt_update_phi(*args, _state(phi, valid))
    first = phi.copy()
    _bemt_update_phi(*args, _state(phi, valid))
    np.testing.assert_array_equal(phi, first)


def test_no_wind_no_rotation_gives_no_load():
    blade, af = _ref09_rotor()
    opt = bemt_options()
    for p in (0.0, 0.5):
        r = rotor_loads(
            blade,
            af,
            opt,
            hub_radius=1.5,
            precone=math.radians(-2.5),
            wind_speed=0.0,
            omega=0.0,
            pitch=p,
        )
        assert r["thrust"] == 0.0 and r["torque"] == 0.0
        assert np.all(r["out"][..., [K.FX, K.FY, K.MM, K.AXIND, K.TNIND]] == 0.0)


def test_blade_alone_equals_blade_in_a_batch_bit_for_bit():
    """Each blade's numbers depend on its own inputs only (the skew R_tip is per blade)."""
    blade, af = _ref09_rotor()
    opt = bemt_options(skew_mod=1)
    nn = blade.n_nodes
    rng = np.random.default_rng(3)
    nb = 3
    vx = 8.0 + rng.normal(0.0, 0.5, (nb, nn))
    r_loc = np.broadcast_to(1.5 + blade.span, (nb, nn)) * (1.0 + 0.001 * np.arange(nb))[:, None]
    vy = 0.94 * r_loc + rng.normal(0.0, 0.5, (nb, nn))
    z_local, z_hub = blade.loss_distances(1.5)
    theta = np.broadcast_to(blade.twist, (nb, nn)) + np.array([0.0, 0.02, -0.01])[:, None]
    psi = np.array([0.1, 2.2, 4.3])

    def run(sel):
        n = len(sel)
        out = np.empty((n, nn, K.N_OUT))
        phi = np.zeros((n, nn))
        valid = np.ones((n, nn), dtype=np.bool_)
        st = _bemt_solve(
            opt,
            af,
            np.ascontiguousarray(theta[sel]),
            blade.chord,
            blade.af_index,
            np.ascontiguousarray(r_loc[sel]),
            np.ascontiguousarray(np.broadcast_to(z_local, (n, nn))),
            np.full(n, z_hub),
            np.ascontiguousarray(vx[sel]),
            np.ascontiguousarray(vy[sel]),
            0.12,
            psi[sel],
            7.0,
            _state(phi, valid),
            out,
        )
        return out, st

    together, st = run([0, 1, 2])
    assert st == 0
    for k in range(nb):
        alone, _ = run([k])
        np.testing.assert_array_equal(alone[0], together[k])


def test_no_valid_solution_is_flagged_and_uses_geometric_inflow():
    """An airfoil whose lift makes the momentum equations unsolvable in every region gets the
    geometric phi and zero induction (as AeroDyn), and the status says so."""
    crazy = pack_airfoils([[-180.0, 0.0, 180.0]], [[-40.0, -40.0, -40.0]], [[0.0, 0.0, 0.0]])
    out, phi, valid, st = _solve(_one_node(_opt(), crazy, vx=8.0, vy=8.0, chord=6.0, r=3.0))
    if valid[0, 1]:
        pytest.skip("this polar found a solution")  # pragma: no cover
    assert st & BEMT_NOT_CONVERGED
    assert out[0, 1, K.AXIND] == 0.0
    assert out[0, 1, K.PHI] == pytest.approx(math.pi / 4, abs=1e-15)


# --- the reference: AeroDyn v5 on ref09 ----------------------------------------------------


def _read_out(path: pathlib.Path):
    lines = path.read_text().splitlines()
    hi = next(i for i, ln in enumerate(lines) if ln.startswith("Time"))
    names = lines[hi].split()
    data = np.array([[float(v) for v in ln.split()] for ln in lines[hi + 2 :] if ln.strip()])
    return {n: data[:, i] for i, n in enumerate(names)}


def test_element_solve_reproduces_aerodyn_ref09_blade_nodes():
    """OpenFAST v5 (AeroDyn, BEM_Mod 1, Skew_Mod 1, tip/hub loss, TanInd, no drag in the
    inductions) at steady state of ref09 (t >= 200 s): from each output node's Vrel, Alpha,
    AxInd and TnInd the inflow Vx = Vrel sin(phi)/(1-a), Vy = Vrel cos(phi)/(1+a') (phi =
    Alpha + twist) is rebuilt; the skew angle is RtSkew and the azimuth atan2(RtVAvgzh,
    -RtVAvgyh) (hub frame, blade 1); the kernel's solve from those inputs reproduces Alpha,
    AxInd, TnInd, Cl, Cd, Fx, Fy and Vrel to 2e-5 of each channel's largest magnitude (measured
    5.3e-6; without the skew correction AxInd is off by 14 %, with psi reversed by 28 %)."""
    blade, af = _ref09_rotor()
    d = _read_out(REF09 / "ref09_aero_fixed_speed.out")
    opt = bemt_options(
        ai_drag=False, ti_drag=False, skew_mod=1, use_cm=True, rho=1.225, kin_visc=1.464e-5
    )
    beta = math.radians(-2.5)
    pos = blade.root_frame_positions(1.5)
    # radius from the shaft of the coned blade (x_r = (cos b, 0, -sin b), y_r = y, z_r = (sin b, 0, cos b))
    r_local = np.hypot(pos[:, 1], pos[:, 0] * -math.sin(beta) + pos[:, 2] * math.cos(beta))
    z_local, z_hub = blade.loss_distances(1.5)
    nodes = np.arange(1, 18, 2)  # BlOutNd 2, 4, ..., 18
    rows = np.where(d["Time"] >= 200.0)[0][::97]
    worst = {}
    nn = blade.n_nodes
    for row in rows:

        def g(q, row=row):
            return np.array([d[f"B1N{i + 1}{q}"][row] for i in range(9)])

        phi_o = np.radians(g("Alpha")) + blade.twist[nodes]
        vx_n = g("Vrel") * np.sin(phi_o) / (1.0 - g("AxInd"))
        vy_n = g("Vrel") * np.cos(phi_o) / (1.0 + g("TnInd"))
        idx = np.arange(nn)
        vx = np.interp(idx, nodes, vx_n)[None, :]
        vy = np.interp(idx, nodes, vy_n)[None, :]
        psi = np.array([math.atan2(d["RtVAvgzh"][row], -d["RtVAvgyh"][row])])
        out = np.empty((1, nn, K.N_OUT))
        st = _bemt_solve(
            opt,
            af,
            blade.twist[None, :].copy(),
            blade.chord,
            blade.af_index,
            r_local[None, :],
            z_local[None, :],
            np.array([z_hub]),
            vx,
            vy,
            math.radians(d["RtSkew"][row]),
            psi,
            d["RtTSR"][row],
            _state(np.zeros((1, nn)), np.ones((1, nn), dtype=np.bool_)),
            out,
        )
        assert st == 0
        o = out[0, nodes]
        mine = {
            "Alpha": np.degrees(o[:, K.ALPHA]),
            "AxInd": o[:, K.AXIND],
            "TnInd": o[:, K.TNIND],
            "Cl": o[:, K.CL],
            "Cd": o[:, K.CD],
            "Fx": o[:, K.FX],
            "Fy": o[:, K.FY],
            "Vrel": o[:, K.VREL],
        }
        for q, v in mine.items():
            ref = g(q)
            worst[q] = max(worst.get(q, 0.0), float(np.max(np.abs(v - ref)) / np.max(np.abs(ref))))
    assert max(worst.values()) < 2e-5, worst


# --- bad input -----------------------------------------------------------------------------


def test_polar_not_covering_the_circle_is_refused_naming_the_file():
    with pytest.raises(CaseError, match=r"foil\.dat.*cover -180\.\.180"):
        pack_airfoils([[-170.0, 0.0, 180.0]], [[0, 0, 0]], [[0, 0, 0]], files=["foil.dat"])


def test_non_increasing_alpha_is_refused_with_its_row():
    with pytest.raises(CaseError, match=r"must increase: 0 deg follows 10 deg \(row 3"):
        pack_airfoils([[-180.0, 10.0, 0.0, 180.0]], [[0] * 4], [[0] * 4], files=["foil.dat"])


def test_polar_column_of_another_length_is_refused():
    with pytest.raises(CaseError, match="Cd has 2 values for 3 angles"):
        pack_airfoils([[-180.0, 0.0, 180.0]], [[0, 0, 0]], [[0, 0]])


def test_unsupported_airfoil_settings_are_refused():
    from types import SimpleNamespace

    t = SimpleNamespace(alpha_deg=[-180.0, 180.0], cl=[0, 0], cd=[0, 0], cm=None, cpmin=None)
    with pytest.raises(CaseError, match="InterpOrd = 3"):
        airfoil_tables([SimpleNamespace(path="a.dat", interp_ord=3, tables=(t,))])
    with pytest.raises(CaseError, match="AFTabMod = 2"):
        airfoil_tables([SimpleNamespace(path="a.dat", interp_ord=1, tables=(t,))], af_tab_mod=2)


@pytest.mark.parametrize(
    "kw, match",
    [
        (dict(bem_mod=2), "BEM_Mod = 2"),
        (dict(skew_mod=2), "Skew_Mod = 2"),
        (dict(skew_mom_corr=True), "SkewMomCorr"),
        (dict(max_iter=0), "MaxIter"),
        (dict(tolerance=0.0), "IndToler"),
        (dict(kin_visc=-1.0), "KinVisc"),
    ],
)
def test_unsupported_or_bad_bem_settings_are_refused(kw, match):
    with pytest.raises(CaseError, match=match):
        bemt_options(**kw)


@pytest.mark.parametrize(
    "kw, match",
    [
        (dict(span=[0.0, 2.0, 1.0]), r"span must increase: node 3"),
        (dict(span=[0.5, 1.0, 2.0]), "must start at 0"),
        (dict(chord=[1.0, 0.0, 1.0]), "chord of node 2"),
        (dict(af_index=[0, 1, 8]), r"node 3: airfoil ID 9 is outside 1\.\.8"),
        (dict(twist=[0.0, 0.1]), "BlTwist has 2 values for 3 nodes"),
    ],
)
def test_bad_blade_geometry_is_refused_naming_file_and_field(kw, match):
    base = dict(
        span=[0.0, 1.0, 2.0], chord=[1.0, 1.0, 1.0], twist=[0.0, 0.0, 0.0], af_index=[0, 0, 0]
    )
    base.update(kw)
    with pytest.raises(CaseError, match=match) as e:
        BladeGeometry.from_arrays(**base, n_airfoils=8, file="blade.dat")
    assert "blade.dat" in str(e.value)


# --- steady performance --------------------------------------------------------------------


def test_performance_coefficients_are_consistent_and_density_free():
    blade, af = _ref09_rotor()
    kw = dict(
        hub_radius=1.5,
        precone=math.radians(-2.5),
        wind_speed=9.0,
        tsr=[5.0, 7.5],
        pitch=[0.0, 0.05],
    )
    p1 = performance(blade, af, bemt_options(rho=1.225), **kw)
    p2 = performance(blade, af, bemt_options(rho=1.0), **kw)
    np.testing.assert_allclose(p1.cp, p1.cq * np.asarray(kw["tsr"])[:, None], rtol=1e-13)
    np.testing.assert_allclose(p1.cp, p2.cp, rtol=1e-12)
    np.testing.assert_allclose(p1.ct, p2.ct, rtol=1e-12)
    assert np.all(p1.status == 0)
    # the NREL 5 MW near its design point: C_P about 0.48, C_T about 0.8 (no drag in induction)
    assert 0.44 < p1.cp[1, 0] < 0.52 and 0.7 < p1.ct[1, 0] < 0.9


def _rot(axis: int, a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    if axis == 0:
        return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])
    if axis == 1:
        return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def test_element_inputs_from_platform_kinematics_reproduce_aerodyn_ref09():
    """The element inputs built from ref09's rigid-body kinematics as docs/rotor.md defines them
    (platform pose and velocities of the output, shaft tilted 5 deg, rotor apex at TowerHt +
    Twr2Shft and OverHang along the shaft, blade k at Azimuth + 120 k deg turning about the
    downwind shaft, precone -2.5 deg, nodes at the aerodynamic centres, wind 8 m/s): Vx and Vy
    agree with those rebuilt from AeroDyn's node outputs to 1e-6 (measured 8e-8), chi0 with
    RtSkew, and the kernel's solve reproduces AeroDyn's Alpha, AxInd, TnInd, Fx, Fy, Vrel to
    1e-5 of each channel's largest value (measured 3.3e-6); the three blades' loads, integrated
    by ``blade_resultant``, give RtAeroFxh, RtAeroMxh and RtAeroPwr (torque times the hub's
    angular velocity about the shaft, platform rate included) to 1e-5 (measured 4e-7)."""
    blade, af = _ref09_rotor()
    d = _read_out(REF09 / "ref09_aero_fixed_speed.out")
    opt = bemt_options(ai_drag=False, ti_drag=False)
    tilt, beta = math.radians(5.0), math.radians(-2.5)
    z_local, z_hub = blade.loss_distances(1.5)
    local = blade.root_frame_positions(1.5)
    nodes = np.arange(1, 18, 2)
    nn = blade.n_nodes
    worst: dict[str, float] = {}
    for row in np.where(d["Time"] >= 200.0)[0][::250]:
        rot = (
            _rot(2, math.radians(d["PtfmYaw"][row]))
            @ _rot(1, math.radians(d["PtfmPitch"][row]))
            @ _rot(0, math.radians(d["PtfmRoll"][row]))
        )
        ref = np.array([d["PtfmSurge"][row], d["PtfmSway"][row], d["PtfmHeave"][row]])
        v_ref = np.array([d["PtfmTVxi"][row], d["PtfmTVyi"][row], d["PtfmTVzi"][row]])
        w_p = np.radians([d["PtfmRVxi"][row], d["PtfmRVyi"][row], d["PtfmRVzi"][row]])
        shaft = np.array([math.cos(tilt), 0.0, -math.sin(tilt)])
        x_s, y_s, z_s = (
            rot @ shaft,
            rot @ np.array([0.0, 1.0, 0.0]),
            rot @ np.array([math.sin(tilt), 0.0, math.cos(tilt)]),
        )
        apex = ref + rot @ (np.array([0.0, 0.0, 87.6 + 1.96256]) - 5.0191 * shaft)
        omega = d["RotSpeed"][row] * math.pi / 30.0
        pos = np.empty((3, nn, 3))
        frames = np.empty((3, 3, 3))
        for k in range(3):
            psi = math.radians(d["Azimuth"][row]) + 2.0 * math.pi * k / 3.0
            e_r = math.cos(psi) * z_s - math.sin(psi) * y_s
            x_r = math.cos(beta) * x_s - math.sin(beta) * e_r
            z_r = math.sin(beta) * x_s + math.cos(beta) * e_r
            frames[k] = (x_r, np.cross(z_r, x_r), z_r)
            pos[k] = apex + local @ frames[k]
        rel = np.array([8.0, 0.0, 0.0]) - (
            v_ref + np.cross(w_p, pos - ref) + omega * np.cross(x_s, pos - apex)
        )
        vx = np.ascontiguousarray(np.einsum("knc,kc->kn", rel, frames[:, 0]))
        vy = np.ascontiguousarray(np.einsum("knc,kc->kn", rel, frames[:, 1]))
        d_apex = pos - apex
        r_local = np.linalg.norm(d_apex - (d_apex @ x_s)[..., None] * x_s, axis=2)
        v_disk = rel.reshape(-1, 3).mean(axis=0)
        un = float(v_disk @ x_s)
        chi0 = math.acos(un / np.linalg.norm(v_disk))
        inplane = un * x_s - v_disk
        y_disk = inplane / np.linalg.norm(inplane)
        z_disk = np.cross(v_disk, x_s) / np.linalg.norm(inplane)
        psi_s = np.array(
            [math.atan2(-frames[k, 2] @ y_disk, frames[k, 2] @ z_disk) for k in range(3)]
        )
        assert math.degrees(chi0) == pytest.approx(d["RtSkew"][row], abs=1e-5)
        out = np.empty((3, nn, K.N_OUT))
        st = _bemt_solve(
            opt,
            af,
            np.ascontiguousarray(np.broadcast_to(blade.twist, (3, nn))),
            blade.chord,
            blade.af_index,
            r_local,
            np.ascontiguousarray(np.broadcast_to(z_local, (3, nn))),
            np.full(3, z_hub),
            vx,
            vy,
            chi0,
            psi_s,
            omega * r_local.max() / un,
            _state(np.zeros((3, nn)), np.ones((3, nn), dtype=np.bool_)),
            out,
        )
        assert st == 0

        def g(q, row=row):
            return np.array([d[f"B1N{i + 1}{q}"][row] for i in range(9)])

        phi_o = np.radians(g("Alpha")) + blade.twist[nodes]
        vx_o = g("Vrel") * np.sin(phi_o) / (1.0 - g("AxInd"))
        vy_o = g("Vrel") * np.cos(phi_o) / (1.0 + g("TnInd"))
        np.testing.assert_allclose(vx[0, nodes], vx_o, rtol=0, atol=1e-6 * np.max(np.abs(vx_o)))
        np.testing.assert_allclose(vy[0, nodes], vy_o, rtol=0, atol=1e-6 * np.max(np.abs(vy_o)))
        o = out[0, nodes]
        mine = {
            "Alpha": np.degrees(o[:, K.ALPHA]),
            "AxInd": o[:, K.AXIND],
            "TnInd": o[:, K.TNIND],
            "Fx": o[:, K.FX],
            "Fy": o[:, K.FY],
            "Vrel": o[:, K.VREL],
        }
        for q, v in mine.items():
            worst[q] = max(
                worst.get(q, 0.0), float(np.max(np.abs(v - g(q))) / np.max(np.abs(g(q))))
            )
        # the rotor loads about the apex (AeroDyn's line-to-point mapping): RtAeroFxh, RtAeroMxh
        force = (
            out[..., K.FX, None] * frames[:, None, 0] - out[..., K.FY, None] * frames[:, None, 1]
        )
        moment = out[..., K.MM, None] * frames[:, None, 2]
        f_b, m_b = blade_resultant(pos - apex, force, moment)
        fxh = float(f_b.sum(axis=0) @ x_s)
        mxh = float(m_b.sum(axis=0) @ x_s)
        worst["RtAeroFxh"] = max(worst.get("RtAeroFxh", 0.0), abs(fxh / d["RtAeroFxh"][row] - 1.0))
        worst["RtAeroMxh"] = max(worst.get("RtAeroMxh", 0.0), abs(mxh / d["RtAeroMxh"][row] - 1.0))
        worst["RtAeroPwr"] = max(
            worst.get("RtAeroPwr", 0.0), abs(mxh * (omega + w_p @ x_s) / d["RtAeroPwr"][row] - 1.0)
        )
    assert max(worst.values()) < 1e-5, worst


def test_every_inflow_direction_gives_finite_outputs_and_true_roots():
    """Axial and tangential inflow of either sign (windmill, propeller brake, reversed flow, a
    parked or feathered blade): every output is finite, the inductions within AeroDyn's limits,
    and a node reported valid sits on a root of the residual (|f| < IndToler or a sign change
    within Brent's 1e-6 rad)."""
    blade, af = _ref09_rotor()
    opt = bemt_options(ai_drag=True, ti_drag=True, skew_mod=0)
    nn = blade.n_nodes
    z_local, z_hub = blade.loss_distances(1.5)
    z_tip = z_local[-1]
    r_local = 1.5 + blade.span
    for vx0 in (-9.0, -2.0, 0.0005, 3.0, 11.0):
        for vy_tip in (-70.0, -5.0, 0.0, 4.0, 30.0, 80.0):
            for pitch in (0.0, math.radians(90.0)):
                vy = vy_tip * r_local / r_local[-1]
                vx = np.full(nn, vx0)
                theta = blade.twist + pitch
                out = np.empty((1, nn, K.N_OUT))
                phi = np.zeros((1, nn))
                valid = np.ones((1, nn), dtype=np.bool_)
                _bemt_solve(
                    opt,
                    af,
                    theta[None, :].copy(),
                    blade.chord,
                    blade.af_index,
                    r_local[None, :].copy(),
                    z_local[None, :].copy(),
                    np.array([z_hub]),
                    vx[None, :].copy(),
                    vy[None, :].copy(),
                    0.0,
                    np.zeros(1),
                    10.0,
                    _state(phi, valid),
                    out,
                )
                assert np.all(np.isfinite(out)), (vx0, vy_tip, pitch)
                assert np.all(out[0, :, K.AXIND] <= 1.5) and np.all(out[0, :, K.AXIND] >= -1.0)
                assert np.all(np.abs(out[0, :, K.TNIND]) <= 1.0)
                for j in range(1, nn - 1):
                    if not valid[0, j] or abs(vx[j]) < 0.001 or abs(vy[j]) < 0.001:
                        continue
                    tip_c = 3 * (z_tip - z_local[j]) / (2 * z_local[j])
                    hub_c = 3 * (z_local[j] - z_hub) / (2 * z_hub)
                    args = (
                        opt,
                        af,
                        blade.af_index[j],
                        theta[j],
                        blade.chord[j],
                        r_local[j],
                        tip_c,
                        hub_c,
                        False,
                        vx[j],
                        vy[j],
                    )
                    f0 = _ir(*args, phi[0, j])[0]
                    f_lo = _ir(*args, phi[0, j] - 2e-6)[0]
                    f_hi = _ir(*args, phi[0, j] + 2e-6)[0]
                    assert abs(f0) < 5e-10 or f_lo * f_hi <= 0.0, (vx0, vy_tip, pitch, j)
