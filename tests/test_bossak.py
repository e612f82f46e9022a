"""Bossak-Newmark (seed 002): oscillators against exact solutions, observed order, spectral
radius, the integrator contract, batching, body links (one body = two linked bodies, reactions =
inverse dynamics) and the OC3 free decay against RK4."""

import pathlib

import numpy as np
import pytest
import scipy.linalg
import yaml

from floatwind.case import load_case
from floatwind.case.loader import model_from_dict
from floatwind.errors import CaseError, SimulationError
from floatwind.integrate import Interrupted
from floatwind.integrate.bossak import (
    BETA_RULES,
    BossakNewmark,
    BossakParameters,
    spectral_radius,
    spectral_radius_infinity,
)
from floatwind.multibody.inverse import joint_loads
from floatwind.multibody.links import LinkedBodies, WeldLink, pack, unpack
from floatwind.rotation import exp_so3
from floatwind.rotation.vec import cross, matvec
from floatwind.simulate import simulate
from floatwind.simulate.bossak import _mcm_states, linked_bodies
from floatwind.simulate.equilibrium import static_equilibrium
from floatwind.simulate.system import System

CASE = pathlib.Path(__file__).resolve().parents[1] / "cases" / "oc3_platform_decay.yaml"


# ------------------------------------------------------------------ linear oscillators


class Linear:
    """x'' = -K x - C x' (mass-normalised) as a first-order rhs; ``direct`` offers the matrices."""

    def __init__(self, K, C, direct=True):
        self.K, self.C = np.atleast_2d(K)[None], np.atleast_2d(C)[None]
        if direct:
            self.bossak_linear = lambda: (self.K, self.C)

    def __call__(self, t, y):
        m = y.shape[1] // 2
        x, v = y[:, :m], y[:, m:]
        return np.concatenate([v, -matvec(self.K, x) - matvec(self.C, v)], axis=1)


def sdof_exact(t, w, z):
    wd = w * np.sqrt(1 - z * z)
    return np.exp(-z * w * t) * (np.cos(wd * t) + z * w / wd * np.sin(wd * t))


@pytest.mark.parametrize("rule", BETA_RULES)
@pytest.mark.parametrize("alpha", [0.0, -0.05, -0.1])
def test_sdof_damped_exact_solution_and_second_order(rule, alpha):
    w, z = 2.0, 0.05
    f = Linear([[w * w]], [[2 * z * w]])
    t_out = np.linspace(0, 5, 11)
    errs = []
    for h in (0.02, 0.01, 0.005):
        rec = BossakNewmark(h, alpha, rule).run(f, np.array([[1.0, 0.0]]), t_out)
        errs.append(np.abs(rec.y[:, 0, 0] - sdof_exact(t_out, w, z)).max())
    order = np.log2(np.array(errs[:-1]) / np.array(errs[1:]))
    assert errs[-1] < 1e-4
    assert np.all(np.abs(order - 2.0) < 0.05), order


def test_mdof_exact_modal_solution_direct_and_loads_loop_agree():
    M = np.diag([2.0, 1.0, 3.0])
    Kp = np.array([[6.0, -2.0, 0.0], [-2.0, 4.0, -2.0], [0.0, -2.0, 5.0]])
    w2, phi = scipy.linalg.eigh(Kp, M)  # phi^T M phi = I
    x0 = np.array([1.0, -0.5, 0.2])
    q0 = phi.T @ M @ x0
    t_out = np.linspace(0, 4, 9)
    exact = (phi @ (q0[:, None] * np.cos(np.sqrt(w2)[:, None] * t_out[None]))).T
    K = np.linalg.solve(M, Kp)
    y0 = np.concatenate([x0, np.zeros(3)])[None]
    errs = []
    for h in (0.01, 0.005):
        rec = BossakNewmark(h, -0.05, "textbook").run(Linear(K, 0 * K), y0, t_out)
        errs.append(np.abs(rec.y[:, 0, :3] - exact).max())
    assert errs[-1] < 2e-4
    assert abs(np.log2(errs[0] / errs[1]) - 2.0) < 0.05
    loop = BossakNewmark(0.005, -0.05, "textbook")
    rec2 = loop.run(Linear(K, 0 * K, direct=False), y0, t_out)
    np.testing.assert_allclose(rec2.y[:, 0, :3], rec.y[:, 0, :3], atol=1e-10)
    assert loop.stats.summary()["max"] <= 4


# ------------------------------------------------------------------ numerical damping


@pytest.mark.parametrize("alpha", [0.0, -0.05, -0.1])
def test_spectral_radius_against_theory(alpha):
    tb = BossakParameters.from_alpha(alpha, "textbook")
    # Wood-Bossak-Zienkiewicz: rho_inf = (1 + alpha) / (1 - alpha)
    assert abs(spectral_radius(tb, 1e6) - (1 + alpha) / (1 - alpha)) < 1e-6
    # (a double eigenvalue there: its numerical value is good to ~sqrt(eps))
    assert abs(spectral_radius_infinity(tb) - (1 + alpha) / (1 - alpha)) < 1e-7
    assert np.all(spectral_radius(tb, np.logspace(-3, 4, 200)) <= 1 + 1e-12)
    # the same from an actual run: x'' + w^2 x = 0 with w h = 1e4; the high-frequency mode
    # is a 2-term recurrence (a double eigenvalue for the textbook beta), so the Hankel
    # determinant D_k = v_k v_{k+2} - v_{k+1}^2 scales by rho^2 per step, whatever the phase
    w, h = 1e4, 1.0
    integ = BossakNewmark(h, alpha, "textbook")
    rec = integ.run(Linear([[w * w]], [[0.0]]), np.array([[1.0, 0.0]]), np.arange(0, 61.0))
    v = rec.y[:, 0, 1]
    D = v[:-2] * v[2:] - v[1:-1] ** 2
    rho_obs = np.sqrt(np.abs(D[41] / D[40]))
    assert abs(rho_obs - spectral_radius(tb, w * h)) < 1e-6, rho_obs
    assert abs(rho_obs - (1 + alpha) / (1 - alpha)) < 1e-4, rho_obs
    # the chapter's beta = Gamma/2 + alpha/40 is below (1 - alpha)^2/4 for alpha < 0:
    sf = BossakParameters.from_alpha(alpha, "seafem")
    rho = spectral_radius_infinity(sf)
    assert abs(spectral_radius(sf, 1e6) - rho) < 1e-6
    if alpha < 0:
        assert rho > 1.0  # amplifies the highest frequencies (conditionally stable)
        assert spectral_radius(sf, 1.0) < 1.0  # but damps w h = 1 (the spar's range)
    # the chapter's (7-3)-(7-4) read literally (Gamma, beta on the old acceleration) amplify
    if alpha < 0:
        assert spectral_radius(tb, 0.5, literal=True) > 1.0


def test_bad_parameters_are_one_line_errors(tmp_path):
    with pytest.raises(ValueError, match="alpha"):
        BossakParameters.from_alpha(-0.2)
    with pytest.raises(ValueError, match="beta_rule"):
        BossakParameters.from_alpha(-0.05, "other")
    for override, field in (
        ({"simulation.bossak": {"alpha": -0.2}}, "simulation.bossak.alpha"),
        ({"simulation.bossak": {"alpha": 0.05}}, "simulation.bossak.alpha"),
        ({"simulation.bossak": {"beta": "wbz"}}, "simulation.bossak.beta"),
        ({"simulation.bossak": {"rotations": "huge"}}, "simulation.bossak.rotations"),
        ({"simulation.bossak": {"alpha_x": 0}}, "simulation.bossak.alpha_x"),
    ):
        with pytest.raises(CaseError) as info:
            load_case(CASE, {"simulation.integrator": "bossak_newmark", **override})
        assert info.value.field == field
        assert "\n" not in str(info.value)


# ------------------------------------------------------------------ the contract


def duffing(t, y):
    return np.concatenate(
        [y[:, 1:], -4.0 * y[:, :1] - 2.0 * y[:, :1] ** 3 - 0.1 * y[:, 1:]], axis=1
    )


def test_batch_member_equals_single_run_bit_for_bit():
    y0 = np.random.default_rng(3).normal(size=(5, 2))
    t_out = np.linspace(0, 3, 31)
    batch = BossakNewmark(0.01, -0.05).run(duffing, y0, t_out)
    for b in range(5):
        single = BossakNewmark(0.01, -0.05).run(duffing, y0[b : b + 1], t_out)
        np.testing.assert_array_equal(batch.y[:, b], single.y[:, 0])


def test_divergence_keeps_partial_record():
    def blowup(t, y):  # x'' = 6 x^2 ... x = 1/(1 - t)^2 blows up at t = 1
        return np.concatenate([y[:, 1:], 6.0 * y[:, :1] ** 2], axis=1)

    t_out = np.linspace(0, 2, 41)
    with pytest.raises(SimulationError) as info:
        BossakNewmark(0.01, 0.0, max_iter=200).run(blowup, np.array([[1.0, 2.0]]), t_out, bound=1e3)
    err = info.value
    assert 0.8 < err.time < 1.05
    rec = err.partial
    assert rec.n >= 17 and rec.complete
    early = rec.t < 0.5
    np.testing.assert_allclose(rec.y[early, 0, 0], 1 / (1 - rec.t[early]) ** 2, rtol=1e-3)


def test_no_convergence_is_a_simulation_error():
    stiff = Linear([[1e6]], [[0.0]], direct=False)  # beta h^2 K = 25 > 1: fixed point diverges
    with pytest.raises(SimulationError, match="did not converge") as info:
        BossakNewmark(0.01, 0.0, max_iter=5, aitken=False).run(
            stiff, np.array([[1.0, 0.0]]), np.linspace(0, 1, 11)
        )
    assert info.value.partial.n >= 1


def test_keyboard_interrupt_keeps_partial():
    def f(t, y):
        if t > 0.55:
            raise KeyboardInterrupt
        return np.concatenate([y[:, 1:], -y[:, :1]], axis=1)

    with pytest.raises(Interrupted) as info:
        BossakNewmark(0.05).run(f, np.ones((1, 2)), np.linspace(0, 1, 11))
    assert info.value.partial.n >= 6


def test_aitken_needs_fewer_iterations():
    # beta h^2 K ~ 0.6: plain fixed-point iteration converges slowly, Aitken fast
    f = Linear([[2.0e3, -500.0], [-500.0, 1.5e3]], [[5.0, 0.0], [0.0, 5.0]], direct=False)
    y0 = np.array([[1.0, 0.0, 0.0, 0.0]])
    t_out = np.linspace(0, 1, 11)
    counts = {}
    for aitken in (True, False):
        integ = BossakNewmark(0.02, -0.05, "textbook", aitken=aitken, max_iter=500)
        rec = integ.run(f, y0, t_out)
        counts[aitken] = integ.stats.summary()["mean"]
        ref = BossakNewmark(0.02, -0.05, "textbook").run(Linear(f.K[0], f.C[0]), y0, t_out)
        np.testing.assert_allclose(rec.y, ref.y, atol=1e-8)
    assert counts[True] < 0.5 * counts[False], counts


# ------------------------------------------------------------------ body links

M2 = np.array([7.5e6, 0.6e6])
I2 = np.array([np.diag([4.2e9, 4.2e9, 1.6e8]), np.diag([3e8, 3e8, 1e6])])
RG0 = np.array([[0.0, 0.0, -80.0], [0.2, 0.0, 40.0]])
LINK_P = np.array([0.0, 0.0, 10.0])


def hull_tower_forces(t, r, R, v, w):
    """A mooring-like spring and damper on the hull, a moment spring, a periodic force on the
    tower (inertial axes, moments about the CMs)."""
    B = r.shape[0]
    F, M = np.zeros((B, 2, 3)), np.zeros((B, 2, 3))
    F[:, 0] = -4e4 * (r[:, 0] - RG0[0]) - 1e5 * v[:, 0]
    E = R[:, 0]
    th = 0.5 * np.stack(
        [E[:, 2, 1] - E[:, 1, 2], E[:, 0, 2] - E[:, 2, 0], E[:, 1, 0] - E[:, 0, 1]], 1
    )
    M[:, 0] = -4.7e9 * th - 5e7 * w[:, 0]
    F[:, 1, 0] = 1e6 * np.sin(0.3 * t)
    return F, M, None


def lumped():
    mt = M2.sum()
    G = (M2[:, None] * RG0).sum(0) / mt
    It = sum(
        I2[i] + M2[i] * ((RG0[i] - G) @ (RG0[i] - G) * np.eye(3) - np.outer(RG0[i] - G, RG0[i] - G))
        for i in range(2)
    )

    def forces(t, r, R, v, w):
        arms = np.stack([matvec(R[:, 0], RG0[i] - G) for i in range(2)], 1)
        r2 = r + arms
        v2 = v + cross(w, arms)
        F, M, _ = hull_tower_forces(t, r2, np.repeat(R, 2, 1), v2, np.repeat(w, 2, 1))
        return F.sum(1)[:, None], (M + cross(arms, F)).sum(1)[:, None], None

    return LinkedBodies([mt], It[None], [], forces), G


def rigid_states(theta, w0, G=None):
    """Two-body and (with G) one-body flat states of one rigid motion."""
    R0 = exp_so3(np.asarray(theta, dtype=float))
    w0 = np.asarray(w0, dtype=float)
    pts = RG0 if G is None else G[None]
    r = np.stack([R0 @ p for p in pts])[None]
    v = np.stack([cross(w0, R0 @ p) for p in pts])[None]
    n = len(pts)
    return pack(r, np.repeat(R0[None, None], n, 1), v, np.repeat(w0[None, None], n, 1))


def two_linked(**kw):
    link = WeldLink(0, 1, LINK_P - RG0[0], LINK_P - RG0[1], np.eye(3), "tower_base")
    return LinkedBodies(M2, I2, [link], hull_tower_forces, **kw), link


@pytest.mark.parametrize("aitken", [True, False])
def test_two_linked_bodies_move_as_one_body(aitken):
    two, link = two_linked()
    one, G = lumped()
    theta, w0 = [0.0, 0.05, 0.0], [0.0, 0.01, 0.003]
    t_out = np.linspace(0, 10, 21)
    diffs = []
    for h in (0.05, 0.025):
        i2 = BossakNewmark(h, -0.05, "textbook", aitken=aitken)
        rec2 = i2.run(two, rigid_states(theta, w0), t_out)
        rec1 = BossakNewmark(h, -0.05, "textbook", aitken=aitken).run(
            one, rigid_states(theta, w0, G), t_out
        )
        r2, R2, _, _ = unpack(rec2.y[:, 0], 2)
        r1, R1, _, _ = unpack(rec1.y[:, 0], 1)
        cm = (M2[None, :, None] * r2).sum(1) / M2.sum()
        diffs.append(max(np.abs(cm - r1[:, 0]).max(), 100 * np.abs(R2[:, 0] - R1[:, 0]).max()))
        # the link holds at every step: gap and relative rotation
        res = link.residual(r2, R2)
        assert np.abs(res).max() < 1e-10
        np.testing.assert_allclose(R2[:, 1], R2[:, 0], atol=1e-12)
    # the same motion up to the (second-order) discretisation: two Newmark schemes on
    # different coordinates
    # (positions in m, rotations times a 100 m lever; the motion is ~5 m): 1.2e-6 at h = 0.025
    assert diffs[-1] < 2e-6
    assert np.log2(diffs[0] / diffs[1]) > 1.9


def test_aitken_reduces_linked_iterations():
    two, _ = two_linked()
    t_out = np.linspace(0, 5, 11)
    y0 = rigid_states([0.0, 0.05, 0.0], [0.0, 0.01, 0.003])
    n = {}
    for aitken in (True, False):
        integ = BossakNewmark(0.05, -0.05, "textbook", aitken=aitken)
        integ.run(two, y0, t_out)
        n[aitken] = integ.stats.summary()
    assert n[True]["mean"] < n[False]["mean"], n


def test_linked_batch_bit_for_bit():
    two, _ = two_linked()
    y0 = np.concatenate(
        [rigid_states([0.0, a, 0.01], [0.0, 0.0, 0.002]) for a in (0.02, 0.05, -0.03)]
    )
    t_out = np.linspace(0, 2, 5)
    batch = BossakNewmark(0.05, -0.05, "textbook").run(two, y0, t_out)
    for b in range(3):
        single = BossakNewmark(0.05, -0.05, "textbook").run(two, y0[b : b + 1], t_out)
        np.testing.assert_array_equal(batch.y[:, b], single.y[:, 0])


# ------------------------------------------------------------------ floatwind models


def oc3_two_body(**sim):
    """The OC3 spar split into hull and tower+RNA joined by a locked joint at z = 10 m."""
    data = yaml.safe_load(CASE.read_text())
    data["bodies"] = [
        {
            "name": "hull",
            "mass": 7466330.0,
            "cm": [0, 0, -89.9155],
            "inertia": {"xx": 4.22923e9, "yy": 4.22923e9, "zz": 1.6423e8},
        },
        {
            "name": "top",
            "mass": 599718.0,
            "cm": [-0.2, 0, 60.3],
            "inertia": {"xx": 4.8e8, "yy": 4.8e8, "zz": 3.5e7},
        },
    ]
    data["joints"] = [
        {"name": "tower_base", "parent": "hull", "child": "top", "position_parent": [0, 0, 10.0]}
    ]
    for ld in data["loads"]:
        if "body" in ld:
            ld["body"] = "hull"
    data["initial"] = {"angles": [0.0, 0.05, 0.02], "rates": [0.0, 0.0, 0.01]}
    data["simulation"] = {"t_max": 5.0, "dt": 0.0125, "dt_out": 0.05, **sim}
    return model_from_dict(data)


def test_link_reactions_equal_inverse_dynamics_and_motion_equals_mcm():
    bossak = {"integrator": "bossak_newmark", "bossak": {"alpha": -0.05, "beta": "textbook"}}
    ds = simulate(oc3_two_body(**bossak), progress=False)
    model = oc3_two_body()
    rk = simulate(model, progress=False)
    for ch in ("PtfmSurge", "PtfmHeave", "PtfmPitch", "PtfmYaw"):
        assert np.abs(ds[ch] - rk[ch]).max() < 1e-5 * max(1.0, float(np.abs(rk[ch]).max())), ch
    # the reaction channels against inverse dynamics of the MCM at the recorded states
    system = System(model)
    lb, y0 = linked_bodies(model, system, system.initial_state())
    integ = BossakNewmark(0.0125, -0.05, "textbook", keep_multipliers=True)
    t_out = np.arange(0, 5.0001, 0.25)
    rec = integ.run(lb, y0, t_out)
    Y = _mcm_states(model, t_out, rec.y)
    err_post, err_step = 0.0, 0.0
    for k in range(1, len(t_out)):
        ev = system.evaluate(t_out[k], Y[k])
        F, M = joint_loads(model.tree, ev, "tower_base", axes="inertial")
        _, lam = lb.accelerations(t_out[k], rec.y[k])
        lam_step = integ.stats.info[20 * k - 1]["lam"]
        for got, err in ((-lam, "post"), (-lam_step, "step")):
            e = max(
                np.abs(got[:, :3] - F).max() / np.abs(F).max(),
                np.abs(got[:, 3:] - M).max() / np.abs(M).max(),
            )
            if err == "post":
                err_post = max(err_post, e)
            else:
                err_step = max(err_step, e)
    assert err_post < 1e-6, err_post  # (7-19)-(7-20) at the recorded state = inverse dynamics
    assert err_step < 1e-4, err_step  # the step's (7-23) multipliers: discretisation error
    # the dataset's channels are the former
    assert "LinkFx_tower_base" in ds and ds["LinkMy_tower_base"].attrs["units"] == "N m"
    assert "BossakIterLoads" in ds and float(ds.BossakIterLoads[1:].max()) <= 10


def test_seafem_beta_with_links_is_refused():
    with pytest.raises(CaseError) as info:
        simulate(
            oc3_two_body(integrator="bossak_newmark", bossak={"alpha": -0.1, "beta": "seafem"}),
            progress=False,
        )
    assert info.value.field == "simulation.bossak.beta"


def _decay(integrator, amp, t_max=30.0, **bossak):
    model = load_case(CASE, {"simulation.t_max": t_max, "simulation.integrator": integrator})
    for k, v in bossak.items():
        setattr(model.settings, f"bossak_{k}", v)
    q_eq = static_equilibrium(model)["q"]
    y0 = np.concatenate([q_eq, np.zeros(6)])[None]
    y0[0, 4] += amp
    return simulate(model, y0=y0, progress=False)


def test_oc3_free_decay_against_rk4_small_and_large_rotations():
    errs = {}
    for amp in (0.01, 0.1):
        rk = _decay("rk4", amp).X5.values
        for rot in ("small", "large"):
            b = _decay("bossak_newmark", amp, rotations=rot).X5.values
            errs[rot, amp] = np.abs(b - rk).max() / amp
    assert errs["small", 0.01] < 1e-4 and errs["large", 0.01] < 1e-4, errs
    # the linear (small-rotation) model departs from the nonlinear one with the amplitude
    assert errs["small", 0.1] > 20 * errs["small", 0.01], errs
    assert errs["large", 0.1] < 1e-4, errs


# ------------------------------------------------------------------ compiled paths


def _fused(model):
    from floatwind.simulate.fused import fuse

    system = System(model)
    fused, why = fuse(system)
    if fused is None:
        pytest.skip(f"no compiled path here: {why}")
    return system, fused


def test_compiled_small_rotations_match_python_and_batch_bit_for_bit():
    from floatwind.simulate.bossak import linearize

    model = load_case(CASE)
    system, fused = _fused(model)
    x0 = static_equilibrium(model)["q"]
    y0 = np.repeat(system.initial_state(), 3, axis=0)
    y0[:, 4] += [0.0, 0.01, -0.02]
    # the last step is a partial one, taken by the Python step after the compiled chunks: the
    # algorithmic acceleration passes from one to the other
    t_out = np.append(np.arange(0, 20.0001, 0.05), 20.006)
    lin = linearize(system, x0, 3)
    ref = BossakNewmark(0.0125, -0.1).run(lin, y0, t_out)
    lin.fused, lin.bossak_chunk = fused, lin._chunk
    got = BossakNewmark(0.0125, -0.1).run(lin, y0, t_out)
    np.testing.assert_allclose(got.y, ref.y, rtol=0, atol=1e-12 * np.abs(ref.y).max())
    one = linearize(system, x0, 1)
    one.fused, one.bossak_chunk = fused, one._chunk
    for b in range(3):
        single = BossakNewmark(0.0125, -0.1).run(one, y0[b : b + 1], t_out)
        np.testing.assert_array_equal(single.y[:, 0], got.y[:, b])


def test_compiled_linked_bodies_match_python_and_batch_bit_for_bit():
    from floatwind.simulate.bossak import compiled_linked_chunk

    model = oc3_two_body()
    system, fused = _fused(model)
    y12 = np.repeat(system.initial_state(), 3, axis=0)
    y12[:, 4] += [0.0, 0.01, -0.02]
    lb, y0 = linked_bodies(model, system, y12)
    t_out = np.arange(0, 3.0001, 0.05)
    py = BossakNewmark(0.0125, -0.05, "textbook")
    ref = py.run(lb, y0, t_out)
    lb.bossak_chunk = compiled_linked_chunk(lb, fused)
    co = BossakNewmark(0.0125, -0.05, "textbook")
    got = co.run(lb, y0, t_out)
    np.testing.assert_allclose(got.y, ref.y, rtol=0, atol=1e-9)
    assert co.stats.summary() == py.stats.summary()
    for b in range(3):
        single = BossakNewmark(0.0125, -0.05, "textbook").run(lb, y0[b : b + 1], t_out)
        np.testing.assert_array_equal(single.y[:, 0], got.y[:, b])


@pytest.mark.parametrize("rotations", ["small", "large"])
def test_compiled_path_hands_back_a_failing_step_with_the_partial_record(rotations):
    model = load_case(CASE, {"simulation.t_max": 5.0, "simulation.integrator": "bossak_newmark"})
    _fused(model)
    model.settings.bossak_rotations = rotations
    y0 = System(model).initial_state()
    if rotations == "small":
        y0[:, 10] = 3.0  # pitch rate 3 rad/s: X5 reaches the Euler guard (89.5 deg) at ~0.5 s
        match, (lo, hi) = "Euler-singularity guard", (0.3, 0.7)
    else:
        model.settings.bound = 150.0
        y0[:, 6] = 100.0  # surge 100 m/s: the CM passes x = 150 m at ~1.5 s
        match, (lo, hi) = "bound", (1.2, 1.8)
    with pytest.raises(SimulationError, match=match) as info:
        simulate(model, y0=y0, progress=False)
    err = info.value
    assert lo < err.time < hi, err.time
    ds = err.dataset
    assert ds is not None and ds.sizes["time"] >= 5 and ds.attrs["status"] == str(err)
