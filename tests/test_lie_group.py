"""Lie-group generalized-alpha integrator (Giusti Algorithm 1): the four cases of sec. 7 (fast)."""

import importlib.util
import pathlib

import numpy as np
import pytest

from floatwind.errors import SimulationError
from floatwind.integrate.lie_group import (
    LieGroupGeneralizedAlpha,
    RigidBodySpatial,
    generalized_alpha_parameters,
)
from floatwind.loads.spatial import FollowerTorque

_path = pathlib.Path(__file__).resolve().parents[1] / "validation" / "lie_group" / "giusti_cases.py"
_spec = importlib.util.spec_from_file_location("giusti_cases", _path)
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)

HS = np.array([4e-3, 2e-3, 1e-3])


def test_chung_hulbert_parameters():
    am, af, beta, gamma = generalized_alpha_parameters(1.0)
    assert (am, af, beta, gamma) == (0.5, 0.5, 0.25, 0.5)
    am, af, beta, gamma = generalized_alpha_parameters(0.6)
    assert np.isclose(gamma, 0.5 + af - am) and np.isclose(beta, 0.25 * (gamma + 0.5) ** 2)


@pytest.mark.parametrize("rho_inf", [1.0, 0.6])
def test_sphere_follower_torque_second_order(rho_inf):
    """Giusti 7.1 (Table 2) against Romano (2008a), window [0.42, 0.60] s, n_step = 10."""
    err = cases.sphere_errors(HS, rho_inf)
    order = cases.observed_order(HS, err)
    print(f"sphere rho_inf={rho_inf}: errors {err}, observed order {order:.3f}")
    assert abs(order - 2.0) < 0.15
    assert 1e-6 < err[-1] < 1e-4 and err[0] < 1e-3


@pytest.mark.parametrize(
    "factor,rho_inf",
    [(1.0, 0.6), (2.0, 1.0),  # the default run: each rho_inf and each initial velocity once
     pytest.param(1.0, 1.0, marks=pytest.mark.slow), pytest.param(2.0, 0.6, marks=pytest.mark.slow)],
)  # fmt: skip
def test_axisymmetric_body_second_order(rho_inf, factor):
    """Giusti 7.2 (Table 3, and the doubled initial velocity) against Romano (2008b), [0.82, 1.00] s.
    The other two combinations of rho_inf and velocity are `pytest -m slow`."""
    err = cases.axisym_errors(HS, rho_inf, velocity_factor=factor)
    order = cases.observed_order(HS, err)
    print(f"axisymmetric x{factor} rho_inf={rho_inf}: errors {err}, observed order {order:.3f}")
    assert abs(order - 2.0) < 0.15
    assert err[0] < 1e-3


@pytest.mark.parametrize("rho_inf", [1.0, 0.6])
def test_forced_damped_oscillator_second_order(rho_inf):
    """Giusti 7.3 (Table 4, (44)-(46)) with the A matrices, window [2, 18] s, n_step = 81."""
    hs = np.array([4e-2, 2e-2])
    err = cases.oscillator_errors(hs, rho_inf)
    order = cases.observed_order(hs, err)
    print(f"oscillator rho_inf={rho_inf}: errors {err}, observed order {order:.3f}")
    assert abs(order - 2.0) < 0.15
    assert 1e-5 < err[0] < 1e-3


def test_follower_loads_formulations_agree_with_each_other_and_rk():
    """Giusti 7.4 (Table 5, B matrices (48)-(50)): spatial, mixed and local vs DOP853."""
    t_out = np.linspace(0.0, 8.0, 161)
    ref = cases.follower_reference(t_out)
    runs = {f: cases.follower_run(f, t_out) for f in ("spatial", "mixed", "local")}
    for name, out in runs.items():
        dx = np.abs(out["r_G_g"][:, 0] - ref["r_G_g"]).max()
        dR = np.abs(out["R_b2g"][:, 0] - ref["R_b2g"]).max()
        dv = np.abs(out["v_G_g"][:, 0] - ref["v_G_g"]).max()
        dw = np.abs(out["w_b_g"][:, 0] - ref["w_b_g"]).max()
        print(f"{name}: |dx| {dx:.2e} m, |dR| {dR:.2e}, |dv| {dv:.2e} m/s, |dw| {dw:.2e} rad/s")
        assert dx < 2e-3 and dR < 1e-4 and dv < 5e-4 and dw < 1e-4
    for a, b in (("spatial", "mixed"), ("spatial", "local")):
        assert np.abs(runs[a]["r_G_g"] - runs[b]["r_G_g"]).max() < 3e-3
        assert np.abs(runs[a]["w_b_g"] - runs[b]["w_b_g"]).max() < 1e-4


def _spinner():
    return RigidBodySpatial(mass=1.0, J_b=np.diag([2.0, 2.0, 1.0]), loads=())


def test_unwrapped_rotation_vector_keeps_the_true_history():
    """Sec. 7.4.1: the log map wraps at pi, the unwrapped channel adds 2 pi."""
    body = _spinner()
    ga = LieGroupGeneralizedAlpha(rho_inf=1.0)
    s0 = ga.initial_state(
        body, 0.0, r_G_g=[0, 0, 0], R_b2g=np.eye(3), v_G_g=[0, 0, 0], w_b_g=[0, 0, 1.0]
    )
    t = np.linspace(0.0, 10.0, 21)
    out = ga.integrate(body, s0, t, 0.05)
    np.testing.assert_allclose(out["psi"][:, 0, 2], t, atol=1e-9)
    assert np.all(np.linalg.norm(out["psi_wrapped"][:, 0], axis=-1) <= np.pi + 1e-12)


def test_batch_members_are_independent():
    body = RigidBodySpatial(
        mass=1.0, J_b=np.diag([20.0, 20.0, 7.0]), loads=(FollowerTorque(torque=[0, 0, 30.0]),)
    )
    ga = LieGroupGeneralizedAlpha(rho_inf=0.8)
    w = np.array([[1.0, 2.0, 3.0], [2.0, -1.0, 0.5]])
    t = np.linspace(0.0, 0.5, 6)
    s0 = ga.initial_state(body, 0.0, r_G_g=np.zeros(3), R_b2g=np.eye(3), v_G_g=np.zeros(3), w_b_g=w)
    both = ga.integrate(body, s0, t, 0.01)
    for b in range(2):
        sb = ga.initial_state(
            body, 0.0, r_G_g=np.zeros(3), R_b2g=np.eye(3), v_G_g=np.zeros(3), w_b_g=w[b]
        )
        one = ga.integrate(body, sb, t, 0.01)
        np.testing.assert_allclose(both["R_b2g"][:, b], one["R_b2g"][:, 0], atol=1e-12)


def test_non_convergence_raises_simulation_error_with_partial_output():
    body = RigidBodySpatial(
        mass=1.0, J_b=3.0 * np.eye(3), loads=(FollowerTorque(torque=[0, 0, 30.0]),)
    )
    ga = LieGroupGeneralizedAlpha(rho_inf=0.9, tol=1e-15, max_iter=1)
    s0 = ga.initial_state(
        body, 0.0, r_G_g=[0, 0, 0], R_b2g=np.eye(3), v_G_g=[0, 0, 0], w_b_g=[10, 15, 20]
    )
    with pytest.raises(SimulationError, match="did not converge") as info:
        ga.integrate(body, s0, np.linspace(0.0, 0.1, 11), 0.05)
    assert info.value.time == pytest.approx(0.05)
    assert info.value.members == [0]
    assert info.value.partial["t"].tolist() == [0.0]


def test_returns_the_shared_recording_and_errors_carry_it():
    """Issue 23 item 2: the Lie-group integrator honours the integrator contract: it returns the
    shared Recording (t, y (T, B, 12), n) with the named fields, and its error carries one."""
    from floatwind.integrate import Recording
    from floatwind.integrate.lie_group import LIE_STATE, LieRecording

    body = _spinner()
    ga = LieGroupGeneralizedAlpha(rho_inf=1.0)
    s0 = ga.initial_state(
        body, 0.0, r_G_g=[0, 0, 0], R_b2g=np.eye(3), v_G_g=[0, 0, 0], w_b_g=[0, 0, 1.0]
    )
    t = np.linspace(0.0, 0.2, 5)
    out = ga.integrate(body, s0, t, 0.05)
    assert isinstance(out, Recording) and isinstance(out, LieRecording) and out.complete
    assert out.y.shape == (5, 1, 12) and LIE_STATE == ("r_G_g", "psi", "v_G_g", "w_b_g")
    np.testing.assert_array_equal(out.y[..., 3:6], out["psi"])
    np.testing.assert_array_equal(out.y[..., 9:12], out["w_b_g"])
    # a failing run: the error's partial is a Recording too, incomplete, with the first row
    stiff = RigidBodySpatial(mass=1.0, J_b=3.0 * np.eye(3), loads=(FollowerTorque(torque=[0, 0, 30.0]),))
    ga2 = LieGroupGeneralizedAlpha(rho_inf=0.9, tol=1e-15, max_iter=1)
    s2 = ga2.initial_state(stiff, 0.0, r_G_g=[0, 0, 0], R_b2g=np.eye(3), v_G_g=[0, 0, 0],
                           w_b_g=[10, 15, 20])  # fmt: skip
    with pytest.raises(SimulationError) as info:
        ga2.integrate(stiff, s2, np.linspace(0.0, 0.1, 11), 0.05)
    part = info.value.partial
    assert isinstance(part, Recording) and part.n == 1 and not part.complete
    assert part.valid().y.shape == (1, 1, 12) and np.isfinite(part.valid().y).all()
