"""Compiled MBDM dynamic analysis (issue 19, Leble seed 001 sec. 2-6, 10.1, 10.3): the numba
kernels (floatwind._kernels.mbdm) against the NumPy reference — every joint type's rows (Table 1,
eq. 67), the body on a spring and the slider-crank with the gas force (94) over whole runs to
1e-9 (relative) — and batch invariance (a member of a batch equals the same run alone, bit for
bit). No timings here: benchmarks/bench_mbdm.py."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from floatwind.errors import CaseError
from floatwind.multibody.mbdm import (
    BodyLoad,
    DynamicSystem,
    G_matrix,
    SpringDamper,
    System,
    dynamic_analysis,
    dynamic_analysis_batch,
    omega_body,
    pdot_from_omega,
)
from floatwind.multibody.mbdm.compiled import structure
from tests.test_mbdm_dynamics import TORQUE, _gas_switches, _slider_crank
from tests.test_mbdm_kinematics import CASES, _random_joint, _random_q, _system
from validation.mbdm.forces import GasForce94

KW = dict(method="baumgarte", form="omega")


def _rel(a, b):
    return np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-300)


@pytest.mark.parametrize("typ,ground", CASES)
def test_compiled_rows_match_table1(typ, ground):
    """Phi, Phi_q qdot, nu, gamma and Phi_pi' = 1/2 Phi_p G^T (eq. 67) of every joint type
    against System.evaluate at random states (also off the constraint manifold)."""
    from floatwind._kernels import mbdm as km

    rng = np.random.default_rng(zlib.crc32(f"compiled-{typ}-{ground}".encode()))
    for _ in range(3):
        sys_ = _system(_random_joint(typ, rng, ground))
        q = _random_q(rng)
        q[:, 3:] *= 1.0 + 1e-3 * rng.normal(size=(3, 1))  # unnormalised p, as under Baumgarte
        qd = rng.normal(size=(3, 7))
        t = 0.37
        ref = sys_.evaluate(q, qd, t)
        nb = 3
        mj = ref.phi.size - nb  # the joint rows (normalisation rows left out in eq. 67)
        rint, rf, rb, _ = structure(sys_)
        assert rint.shape[0] == mj
        ws = km._workspace(nb, mj, 0)[0]
        A, G, wg, wb, pn, phi = ws.A, ws.G, ws.wg, ws.wb, ws.pn, ws.phi
        nu, gam, rate, Jb = ws.nu, ws.gam, ws.rate, ws.Jb
        x = np.concatenate([q.ravel(), qd.ravel()])
        km._states(x[:21], x[21:], nb, A, G, wg, wb, pn)
        km.rows(rint, rf, x[:21], x[21:], t, ws)
        scale = max(1.0, np.max(np.abs(ref.J)))
        assert np.max(np.abs(phi - ref.phi[:mj])) < 1e-12 * scale
        assert np.max(np.abs(rate - ref.rate[:mj])) < 1e-12 * max(1.0, np.max(np.abs(ref.rate)))
        assert np.array_equal(nu, ref.nu[:mj])
        Gq = G_matrix(q[:, 3:])
        w = omega_body(q[:, 3:], qd[:, 3:])
        J6 = np.zeros((mj, nb, 6))
        g2 = ref.gamma[:mj].copy()
        for k in range(nb):
            Jp = ref.J[:mj, 7 * k + 3 : 7 * k + 7]
            J6[:, k, :3] = ref.J[:mj, 7 * k : 7 * k + 3]
            J6[:, k, 3:] = 0.5 * Jp @ Gq[k].T
            g2 += 0.25 * (w[k] @ w[k]) * (Jp @ q[k, 3:])
        Jc = np.zeros((mj, nb, 6))
        for r in range(mj):
            for s in range(2):
                if rb[r, s] >= 0:
                    Jc[r, rb[r, s]] += Jb[r, s]
        assert np.max(np.abs(Jc - J6)) < 1e-12 * scale
        assert np.max(np.abs(gam - g2)) < 1e-11 * max(1.0, np.max(np.abs(g2)))


def _spring(k=10000.0, b=0.0):
    J = np.array([[10.0, 1.0, 0.5], [1.0, 14.0, -0.8], [0.5, -0.8, 8.0]])
    line = SpringDamper(0, anchor=(0.0, 0.0, 2.0), fairlead=(0.3, -0.2, 0.5), l0=1.5, k=k, b=b)
    return DynamicSystem(System(("body",), ()), [60.0], [J], gravity=(0, 0, -9.81),
                         lines=(line,))  # fmt: skip


def _spring_ic(rng=None, B=None):
    q0 = np.array([[0.0, 0, 0, 1, 0, 0, 0]])
    w = np.array([1.0, -2.0, 3.0])
    qd0 = np.concatenate([[0.1, 0, 0], pdot_from_omega(q0[0, 3:], w)])[None]
    if B is None:
        return q0, qd0
    q = np.repeat(q0[None], B, axis=0)
    q[:, 0, :3] += rng.normal(size=(B, 3)) * 0.05
    qd = np.repeat(qd0[None], B, axis=0)
    qd[:, 0, :3] += rng.normal(size=(B, 3)) * 0.1
    qd[:, 0, 3:] = pdot_from_omega(q[:, 0, 3:], rng.normal(size=(B, 3)))
    return q, qd


def _check_same(rc, rp, tol=1e-9):
    assert np.array_equal(rc.time, rp.time)
    for k in ("q", "qdot", "qddot"):
        assert _rel(getattr(rc, k), getattr(rp, k)) < tol, k
    for k in ("drift_position", "drift_velocity"):
        assert np.max(np.abs(getattr(rc, k) - getattr(rp, k))) < 1e-12


def test_body_on_spring_compiled_equals_python():
    """Sec. 10.1 with an offset fairlead, a full inertia matrix, damping and an initial spin
    (rotation and translation coupled), 0.3 s at dt = 1e-3 s (300 steps: the NumPy run is what
    costs; 1 s measured 3e-15 relative too)."""
    ds = _spring(b=40.0)
    q0, qd0 = _spring_ic()
    rp = dynamic_analysis(ds, q0, qd0, 0.3, 1e-3, save_every=5, **KW)
    rc = dynamic_analysis(ds, q0, qd0, 0.3, 1e-3, save_every=5, compiled=True, **KW)
    _check_same(rc, rp)


def _crank_forces(ds, torque=TORQUE):
    return DynamicSystem(ds.system, ds.mass, ds.inertia, gravity=ds.gravity,
                         forces=(BodyLoad(0, moment=(0.0, 0.0, torque)), GasForce94(2, 0)))  # fmt: skip


def test_force_elements_equal_the_applied_callable():
    """BodyLoad + GasForce94 (with their own switches) on the NumPy path give exactly the run of
    the applied callable with explicit switches (tests/test_mbdm_dynamics.py)."""
    ds0, q0, qd0 = _slider_crank()
    a = dynamic_analysis(ds0, q0, qd0, 0.1, 1e-3, switches=_gas_switches, **KW)
    b = dynamic_analysis(_crank_forces(ds0), q0, qd0, 0.1, 1e-3, **KW)
    assert np.array_equal(a.q, b.q) and np.array_equal(a.qdot, b.qdot)


def test_slider_crank_compiled_equals_python():
    """Sec. 10.3 (torque, gravity along x, gas force (94) with its step splitting at xdot3 = 0 and
    x3 = 5 m), 0.3 s at dt = 1e-3 s (a compression stroke and the valve opening): 4e-14
    relative; the ground body (G joint) stays exactly at rest."""
    ds0, q0, qd0 = _slider_crank()
    ds = _crank_forces(ds0)
    rp = dynamic_analysis(ds, q0, qd0, 0.3, 1e-3, **KW)
    rc = dynamic_analysis(ds, q0, qd0, 0.3, 1e-3, compiled=True, **KW)
    assert np.max(rp.q[:, 2, 0]) > 5.0  # the valve opened (the x3 = 5 m switch was crossed)
    _check_same(rc, rp)
    assert np.all(rc.q[:, 3] == q0[3]) and np.all(rc.qdot[:, 3] == 0.0)


def test_batch_member_equals_alone_bit_for_bit():
    """64 body-on-spring variants (stiffness 5,000-20,000 N/m, damping, initial conditions) in
    one call: each member is bit for bit the same run alone; and 3 slider-crank variants
    (torques) likewise."""
    rng = np.random.default_rng(64)
    B = 64
    ks = np.linspace(5000.0, 20000.0, B)
    members = [_spring(k, b=10.0 * (i % 3)) for i, k in enumerate(ks)]
    q0, qd0 = _spring_ic(rng, B)
    batch = dynamic_analysis_batch(members, q0, qd0, 0.2, 1e-3, save_every=10, **KW)
    assert batch.q.shape == (B, 21, 1, 7)
    for b in (0, 17, 63):
        alone = dynamic_analysis(members[b], q0[b], qd0[b], 0.2, 1e-3, save_every=10,
                                 compiled=True, **KW)  # fmt: skip
        for k in ("q", "qdot", "qddot", "drift_position", "drift_velocity"):
            assert np.array_equal(getattr(batch.member(b), k), getattr(alone, k)), (b, k)
    assert not np.array_equal(batch.q[0], batch.q[1])  # the members differ
    ds0, q0c, qd0c = _slider_crank()
    crank = [_crank_forces(ds0, T) for T in (TORQUE, 0.9 * TORQUE, 1.1 * TORQUE)]
    bc = dynamic_analysis_batch(crank, np.stack([q0c] * 3), np.stack([qd0c] * 3), 0.2, 1e-3,
                                **KW)  # fmt: skip
    alone = dynamic_analysis(crank[2], q0c, qd0c, 0.2, 1e-3, compiled=True, **KW)
    assert np.array_equal(bc.q[2], alone.q) and np.array_equal(bc.qddot[2], alone.qddot)
    ref = dynamic_analysis_batch(crank[:1], q0c[None], qd0c[None], 0.2, 1e-3, compiled=False,
                                 **KW)  # fmt: skip
    assert _rel(bc.q[0], ref.q[0]) < 1e-9


def test_compiled_refuses_what_it_cannot_run():
    ds0, q0, qd0 = _slider_crank()
    with pytest.raises(CaseError, match="applied"):
        dynamic_analysis(ds0, q0, qd0, 0.01, 1e-3, compiled=True, **KW)
    ds = _crank_forces(ds0)
    with pytest.raises(CaseError, match="baumgarte"):
        dynamic_analysis(ds, q0, qd0, 0.01, 1e-3, compiled=True)  # partitioning
    with pytest.raises(CaseError, match="67"):
        dynamic_analysis(ds, q0, qd0, 0.01, 1e-3, method="baumgarte", form="p", compiled=True)
    with pytest.raises(CaseError, match="switches"):
        dynamic_analysis(ds, q0, qd0, 0.01, 1e-3, switches=_gas_switches, compiled=True, **KW)
    from floatwind import _kernels

    old = _kernels.use_jit(False)
    try:
        with pytest.raises(CaseError, match="kernels are off"):
            dynamic_analysis(ds, q0, qd0, 0.01, 1e-3, compiled=True, **KW)
    finally:
        _kernels.use_jit(old)
