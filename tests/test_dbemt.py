"""Dynamic inflow of the blade-element rotor (DBEMT_Mod 1, 2 as AeroDyn v5; issue 35).

Analytic: a step in wind on a rotor held at one pose (the quasi-steady induced velocity then
steps and stays) makes every node's filtered induced velocity follow the closed form of Øye's
two filters (AeroDyn DBEMT.f90 ``DBEMT_UpdateStates``, eq. 1.21/1.25 of its theory with a
constant input); a constant inflow keeps the quasi-steady BEM solution (zero rates, the same
loads). Invariants: a pitch step overshoots and relaxes towards the new quasi-steady loads
(the behaviour of Øye's model in the Tjæreborg pitch-step experiment, Snel & Schepers 1995);
tau1 of DBEMT_Mod 2 from the rotor; a member alone and in a batch give the same bits; the
compiled kernel equals its Python form. No OpenFAST reference run has DBEMT.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from floatwind._kernels import bemt as kb
from floatwind._kernels import dbemt as kd
from floatwind._kernels.contract import body_kinematics
from floatwind.errors import CaseError
from floatwind.loads.base import Kinematics
from tests.test_rotor_bem import REF09, env, make_rotor, spin_kin

pytestmark = pytest.mark.skipif(not REF09.is_dir(), reason="needs ../shared/reference/openfast")

ALL = list(range(1, 20))
OMEGA = 9.0 * 2.0 * math.pi / 60.0
#: an untilted rotor (shaft along the wind, x): no skew, so AxInd is the induction itself
ALIGNED = {"shaft_axis": [1.0, 0.0, 0.0], "blade1_axis": [0.0, 0.0, 1.0]}


def aligned_kin(azimuth, apex=(0.0, 0.0, 90.0)):
    """One rotor body (CM = apex) turned by ``azimuth`` about x, spinning at 9 rpm about x."""
    ca, sa = math.cos(azimuth), math.sin(azimuth)
    R = np.array([[[[1.0, 0.0, 0.0], [0.0, ca, -sa], [0.0, sa, ca]]]])
    w = np.array([[[OMEGA, 0.0, 0.0]]])
    return Kinematics(0.0, np.array([[apex]], float), R, np.zeros((1, 1, 3)), w, np.zeros((1, 3)))


def _rk4(rot, kin, e, s, dt, n):
    """``n`` RK4 steps of the load's states alone (the rotor held at ``kin``); the states at
    every step (n + 1, B, n_states)."""
    out = [s]
    for _ in range(n):
        k1 = rot.wrench_state(0.0, kin, e, s, None)[1]
        k2 = rot.wrench_state(0.0, kin, e, s + 0.5 * dt * k1, None)[1]
        k3 = rot.wrench_state(0.0, kin, e, s + 0.5 * dt * k2, None)[1]
        k4 = rot.wrench_state(0.0, kin, e, s + dt * k3, None)[1]
        s = s + dt / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
        out.append(s)
    return np.array(out)


def _cols(rot, c):
    """State columns of component ``c`` (kd.W_AX ...) as (nb, nn)."""
    nn = len(rot.blade.span)
    return (kd.N_NODE_STATES * np.arange(rot.n_blades * nn) + c).reshape(rot.n_blades, nn)


@pytest.mark.parametrize("mode", [1, 2])
def test_constant_inflow_stays_at_the_quasi_steady_solution(mode):
    qs = make_rotor(output_nodes=ALL, output_blades=3)
    dyn = make_rotor(output_nodes=ALL, output_blades=3,
                     options={"dbemt_mod": mode, "tau1_const": 2.0})  # fmt: skip
    assert dyn.n_states == 4 * 3 * 19 and dyn.stateful
    kin = spin_kin([0.2, 1.9])
    e = env(alpha=0.14)
    s0 = dyn.initial_states_at(0.0, kin, e)
    w, ds = dyn.wrench_state(0.0, kin, e, s0, None)
    scale = np.abs(s0).max()
    assert scale > 1.0
    assert np.abs(ds).max() <= 1e-13 * scale  # the filters' equilibrium
    w0 = qs.wrench(0.0, kin, e)
    for name in ("RtAeroFxh", "RtAeroMxh", "RtAeroPwr", "B2N7AxInd", "B3N12TnInd", "B1N9Alpha"):
        np.testing.assert_allclose(w.channels[name], w0.channels[name], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(w.force, w0.force, rtol=1e-12, atol=1e-6)
    # the states are the quasi-steady induced velocities (the tangential one a' Vy: the
    # axial output carries the skewed-wake correction of the tilted rotor)
    vy = np.array([[w0.channels[f"B{k + 1}N{j}Vy"] for j in ALL] for k in range(3)])
    ap = np.array([[w0.channels[f"B{k + 1}N{j}TnInd"] for j in ALL] for k in range(3)])
    got = np.moveaxis(s0[:, _cols(dyn, kd.V_TN)], 0, -1)
    np.testing.assert_allclose(got, ap * vy, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(s0[:, _cols(dyn, kd.W_AX)], 0.4 * s0[:, _cols(dyn, kd.V_AX)],
                               rtol=1e-15)  # fmt: skip


def test_step_in_wind_follows_the_two_filters():
    """8 -> 10 m/s on a rotor held at one pose (spin rate, no turning: the quasi-steady input
    vs steps once). Øye's filters (k = 0.6): ``v = vs1 + d (A e^(-t/tau1) + (1 - A) e^(-t/tau2))``,
    ``A = (1 - k) tau1 / (tau1 - tau2)``, ``d = vs0 - vs1`` (DBEMT_UpdateStates with B = 0)."""
    tau1 = 1.5
    rot = make_rotor(output_nodes=ALL, output_blades=3, **ALIGNED,
                     options={"dbemt_mod": 1, "tau1_const": tau1})  # fmt: skip
    kin = aligned_kin(0.4)
    s0 = rot.initial_states_at(0.0, kin, env(speed=8.0))
    e = env(speed=10.0)
    s1 = rot.initial_states_at(0.0, kin, e)  # the quasi-steady states at 10 m/s
    dt, n = 0.02, 200
    hist = _rk4(rot, kin, e, s0, dt, n)
    t = dt * np.arange(n + 1)[:, None, None]
    ratio = rot.geometry.span_ratio  # (nb, nn) r / R at initialisation
    tau2 = tau1 * (0.39 - 0.26 * ratio**2)
    A = 0.4 * tau1 / (tau1 - tau2)
    for c in (kd.V_AX, kd.V_TN):
        cols = _cols(rot, c)
        v0, v1 = s0[0, cols], s1[0, cols]
        d = v0 - v1
        exact = v1 + d * (A * np.exp(-t / tau1) + (1.0 - A) * np.exp(-t / tau2))
        got = hist[:, 0, cols]
        assert np.abs(got - exact).max() <= 1e-6 * np.abs(d).max()
        # the quasi-steady value is approached monotonically: within 7 % of the step after 4 s
        # (e^(-4 / 1.5) A, A <= 0.66; 1 - A > 0: no overshoot)
        gap = np.abs(got - v1)
        assert np.all(np.diff(gap, axis=0) <= 1e-12) and np.all(gap[-1] <= 0.07 * np.abs(d))
    # the loads of the last state: the induction from the filtered velocity, a = -v / Vx
    w = rot.wrench_state(0.0, kin, e, hist[-1], None)[0]
    for k, j in ((0, 5), (1, 10), (2, 16)):
        vx = w.channels[f"B{k + 1}N{j}Vx"][0]
        v = hist[-1, 0, _cols(rot, kd.V_AX)[k, j - 1]]
        assert w.channels[f"B{k + 1}N{j}AxInd"][0] == pytest.approx(-v / vx, rel=1e-12)


def test_tau1_from_the_rotor():
    """DBEMT_Mod 2: tau1 = 1.1 R / ((1 - 1.3 a_disk) Un), a_disk the mean quasi-steady axial
    induction of all nodes, R the largest node radius, Un the disk-averaged axial wind (an
    aligned rotor: no skew correction, so AxInd is the quasi-steady induction)."""
    rot = make_rotor(output_nodes=ALL, output_blades=3, **ALIGNED, options={"dbemt_mod": 2})
    kin = aligned_kin(0.7)
    e = env()
    s0 = rot.initial_states_at(0.0, kin, e)
    force, moment, hub, elem, _st = rot.evaluate(0.0, kin, e, None, s0)
    from floatwind._kernels import rotor as kr

    a_disk = elem[0, :, :, kb.AXIND].mean()
    r = rot.geometry.r_max
    expected = 1.1 * r / ((1.0 - 1.3 * a_disk) * hub[0, kr.VXH])
    assert hub[0, kr.TAU1] == pytest.approx(expected, rel=1e-9)
    w = rot.wrench_state(0.0, kin, e, s0, None)[0]
    assert w.channels["DBEMTau1"][0] == hub[0, kr.TAU1]
    # the limits: a_disk <= 0.5, Un >= 0.1 m/s, tau1 <= 100 s
    p = kd.dbemt_params(2, 0.0, np.zeros((3, 19)))
    fn = kd.dbemt_tau1.py_func
    assert fn(p, 0.9, 8.0, 63.0) == pytest.approx(1.1 * 63.0 / (0.35 * 8.0))
    assert fn(p, 0.2, 0.0, 63.0) == 100.0


def test_pitch_step_overshoots_and_relaxes():
    """Pitching to feather at constant wind: the thrust drops below its new quasi-steady value
    (the wake still carries the old, larger induction) and recovers towards it monotonically
    (Øye's model in the Tjæreborg pitch steps, Snel & Schepers 1995)."""
    opts = {"dbemt_mod": 2}
    before = make_rotor(options=opts)
    after = make_rotor(options=opts, pitch_deg=4.0)
    kin = spin_kin([0.3])
    e = env(speed=9.0)
    s = before.initial_states_at(0.0, kin, e)
    fx_qs = after.wrench(0.0, kin, e).channels["RtAeroFxh"][0]
    fx_before = before.wrench(0.0, kin, e).channels["RtAeroFxh"][0]
    hist = _rk4(after, kin, e, s, 0.25, 60)
    fx = np.array([after.wrench_state(0.0, kin, e, h, None)[0].channels["RtAeroFxh"][0]
                   for h in hist[::4]])  # fmt: skip
    assert fx_qs < fx_before
    assert fx[0] < fx_qs - 0.05 * (fx_before - fx_qs)  # the overshoot
    assert np.all(np.diff(fx) > 0.0)  # the relaxation
    assert fx_qs - fx[-1] < 0.2 * (fx_qs - fx[0])


def test_batch_bits_and_compiled_equals_python():
    rot = make_rotor(options={"dbemt_mod": 2})
    e = env(alpha=0.14)
    kin = spin_kin([0.0, 0.5, 2.0], v=(0.3, -0.2, 0.1))
    s = rot.initial_states_at(0.0, kin, e)
    s = s * (1.0 + 0.1 * np.sin(np.arange(s.size)).reshape(s.shape))  # off the equilibrium
    B, n = s.shape
    cl = rot.compiled(e, B)
    p = cl.params._replace(state0=2)
    y = np.zeros((B, n + 5))
    y[:, 2 : 2 + n] = s
    dy = np.full_like(y, 7.0)
    f = np.zeros((B, 1, 3))
    m = np.zeros((B, 1, 3))
    assert cl.kernel(p, 0.0, body_kinematics(kin), y, dy, f, m, np.zeros((B, 1, 0, 0))) == 0
    assert np.all(dy[:, :2] == 7.0) and np.all(dy[:, 2 + n :] == 7.0)
    w, ds = rot.wrench_state(0.0, kin, e, s, None)
    np.testing.assert_allclose(dy[:, 2 : 2 + n], ds, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(f, w.force, rtol=1e-12, atol=1e-6)
    for b in range(B):
        one = Kinematics(0.0, kin.r_G_g[b : b + 1], kin.R_b2g[b : b + 1], kin.v_G_g[b : b + 1],
                         kin.w_b_g[b : b + 1], kin.cm_b)  # fmt: skip
        c1 = rot.compiled(e, 1)
        y1 = np.ascontiguousarray(y[b : b + 1])
        dy1 = np.zeros_like(y1)
        f1 = np.zeros((1, 1, 3))
        m1 = np.zeros((1, 1, 3))
        c1.kernel(c1.params._replace(state0=2), 0.0, body_kinematics(one), y1, dy1, f1, m1,
                  np.zeros((1, 1, 0, 0)))  # fmt: skip
        np.testing.assert_array_equal(f1[0], f[b])
        np.testing.assert_array_equal(m1[0], m[b])
        np.testing.assert_array_equal(dy1[0, 2 : 2 + n], dy[b, 2 : 2 + n])


def test_no_dynamic_inflow_no_states_and_bad_settings():
    rot = make_rotor()
    assert rot.n_states == 0 and not rot.stateful and rot.state_names() == []
    assert make_rotor(options={"dbemt_mod": 1, "tau1_const": 1.0, "wake_mod": 0}).n_states == 0
    with pytest.raises(CaseError, match="tau1_const"):
        make_rotor(options={"dbemt_mod": 3})
    with pytest.raises(CaseError, match="tau1_const") as exc:
        make_rotor(options={"dbemt_mod": 1})
    assert exc.value.field == "loads[0].options.tau1_const"
    with pytest.raises(CaseError, match="DBEMT_Mod = 4") as exc:
        make_rotor(options={"dbemt_mod": 4, "tau1_const": 1.0})
    assert exc.value.field == "loads[0].options.dbemt_mod"
    with pytest.raises(CaseError) as exc:
        make_rotor(options={"dbemt_mod": 1, "tau1_const": -1.0})
    assert exc.value.field == "loads[0].options.tau1_const"
    names = make_rotor(options={"dbemt_mod": 2}).state_names()
    assert names[:4] == ["rotor_B1N1W1x", "rotor_B1N1Vx", "rotor_B1N1W1y", "rotor_B1N1Vy"]
    assert len(names) == len(set(names)) == 228


def test_ref09_with_dynamic_inflow_imports_and_runs(tmp_path):
    """ref09 with DBEMT_Mod = 2 (no OpenFAST reference run has DBEMT): the deck imports, the
    compiled run starts at the quasi-steady solution (the first samples equal the quasi-steady
    run's) and the DBEMT states lag the platform's surge (small differences later); tau1 as
    Øye's formula gives for this rotor (1.1 x 62.9 m / ((1 - 1.3 a_disk) 8 m/s): 15-19 s)."""
    from floatwind.case.openfast import model_from_deck
    from floatwind.simulate import simulate
    from tests.test_rotor_ref09 import _deck_copy

    chans = ["RtAeroFxh", "RtAeroMxh", "B1N5AxInd", "PtfmSurge"]
    out = {}
    for mode in ("0", "2"):
        fst = _deck_copy(tmp_path / mode, {"AeroDyn.dat": {"DBEMT_Mod": mode}})
        model = model_from_deck(fst, overrides={"simulation.t_max": 2.0})
        extra = ["DBEMTau1"] if mode == "2" else []
        out[mode] = simulate(model, progress=False, channels=chans + extra)
    qs, dyn = out["0"], out["2"]
    for name in chans:
        a, b = qs[name].values.ravel(), dyn[name].values.ravel()
        assert np.all(np.isfinite(b))
        assert b[0] == pytest.approx(a[0], rel=1e-9, abs=1e-12), name
        # the rotor loads within 2 %; a node's induction is smoothed over its turn through the
        # tilted inflow (quasi-steady 0.289 -> 0.311 in 2 s, DBEMT lags: ~5 %)
        tol = 0.1 if name.startswith("B1") else 0.02
        assert np.abs(b - a).max() <= tol * np.abs(a).max(), name
    fx_q, fx_d = qs["RtAeroFxh"].values.ravel(), dyn["RtAeroFxh"].values.ravel()
    assert np.abs(fx_d - fx_q).max() > 1e-6 * np.abs(fx_q).max()  # the states do act
    tau1 = dyn["DBEMTau1"].values.ravel()
    assert np.all((tau1 > 10.0) & (tau1 < 20.0))
