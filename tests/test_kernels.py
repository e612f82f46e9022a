"""Compiled kernels (floatwind._kernels) against the NumPy reference, and batch bit-identity."""

from __future__ import annotations

import contextlib

import numpy as np
import pytest

from floatwind import _kernels
from floatwind.environment import Environment
from floatwind.environment.fastkin import ExpansionSea
from floatwind.environment.spectra import JonswapSpectrum
from floatwind.environment.waves import sea_from_spectrum, seeds_for
from floatwind.loads.base import Kinematics
from floatwind.loads.morison import MorisonMember, MorisonMembers
from floatwind.rotation import euler123_matrix

pytestmark = pytest.mark.skipif(not _kernels.AVAILABLE, reason="numba not installed")

RTOL = 1e-12


@contextlib.contextmanager
def jit(flag):
    old = _kernels.use_jit(flag)
    try:
        yield
    finally:
        _kernels.use_jit(old)


def both(fn):
    """fn() with the kernels and with NumPy."""
    with jit(True):
        a = fn()
    with jit(False):
        b = fn()
    return a, b


def close(a, b, rtol=RTOL):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape
    scale = max(np.abs(b).max(), 1e-300)
    assert np.abs(a - b).max() <= rtol * scale, np.abs(a - b).max() / scale


def _sea(n, stretching="wheeler", depth=320.0):
    return sea_from_spectrum(
        JonswapSpectrum(5.0, 10.0),
        duration=200.0,
        seeds=seeds_for(5, n),
        depth=depth,
        stretching=stretching,
    )


def _points():
    pts = np.zeros((6, 3))
    pts[:, 0] = [0.0, 0.0, 1.0, 1.0, -2.0, 3.0]
    pts[:, 2] = [-100.0, -40.0, -10.0, -3.0, -1.0, 0.5]
    return pts


@pytest.fixture(scope="module", params=["wheeler", "vertical", "none"])
def expansion(request):
    sea = _sea(3, request.param)
    return ExpansionSea(sea, _points(), max_order=16, tol=0.1)


def _fresh(fast):
    fast._t_cache = None  # the series are cached per time
    return fast


def _as_list(x):
    return list(x) if isinstance(x, tuple) else [x]


def test_expansion_sea_kernels_match_numpy(expansion):
    rng = np.random.default_rng(0)
    disp = _points()[None] + rng.normal(0.0, 2.0, (3, 6, 3))
    for t in (0.0, 13.37, 199.99):  # includes the wrap-around of the periodic table
        for fn in (
            lambda t=t: _fresh(expansion)._series(t),
            lambda t=t: _fresh(expansion).elevation(t, disp[..., :2]),
            lambda t=t: _fresh(expansion).kinematics(t, disp),
        ):
            a, b = both(fn)
            for x, y in zip(_as_list(a), _as_list(b), strict=True):
                close(x, y)


def test_expansion_sea_member_alone_equals_member_in_batch(expansion):
    disp = _points()[None] + np.random.default_rng(2).normal(0.0, 1.0, (3, 6, 3))
    single = ExpansionSea.__new__(ExpansionSea)  # realization 1 as the only one
    single.__dict__.update(expansion.__dict__)
    single.table = np.ascontiguousarray(expansion.table[:, 1:2])
    single.n_realizations = 1
    with jit(True):
        v3, a3 = _fresh(expansion).kinematics(3.3, disp)
        v1, a1 = _fresh(single).kinematics(3.3, disp[1:2])
        e3 = _fresh(expansion).elevation(3.3, disp[..., :2])
        e1 = _fresh(single).elevation(3.3, disp[1:2, :, :2])
    assert np.array_equal(v1[0], v3[1]) and np.array_equal(a1[0], a3[1])
    assert np.array_equal(e1[0], e3[1])


class _Airy:
    """Deep-water Airy wave along +x (fake sea)."""

    def __init__(self, amp=2.0, period=10.0, g=9.80665):
        self.a, self.w = amp, 2 * np.pi / period
        self.k = self.w**2 / g

    def elevation(self, t, xy):
        return self.a * np.cos(self.k * xy[..., 0] - self.w * t)

    def kinematics(self, t, p):
        ph = self.k * p[..., 0] - self.w * t
        ez = self.a * self.w * np.exp(self.k * np.minimum(p[..., 2], 0.0))
        zero = np.zeros_like(ph)
        vel = np.stack([ez * np.cos(ph), zero, ez * np.sin(ph)], axis=-1)
        acc = np.stack([ez * self.w * np.sin(ph), zero, -ez * self.w * np.cos(ph)], axis=-1)
        return vel, acc


def _members():
    def mem(a, b, da, db, n):
        return MorisonMember(
            end_a=np.array(a, float),
            end_b=np.array(b, float),
            diameter_a=da,
            diameter_b=db,
            cd=0.6,
            ca=1.0,
            cm=2.0,
            n_strips=n,
        )

    return [
        mem([0, 0, -120], [0, 0, -12], 9.4, 9.4, 9),
        mem([0, 0, -12], [0, 0, -4], 9.4, 6.5, 3),
        mem([0, 0, -4], [0, 0, 10], 6.5, 6.5, 5),
        mem([-20, 0, -15], [20, 5, -15], 2.0, 2.0, 4),  # horizontal brace (flat strips)
    ]


def _kin(B, rng):
    cm_b = np.array([[0.0, 0.0, -80.0]])
    ang = rng.normal(0.0, 0.1, (B, 3))
    R = euler123_matrix(ang)
    r_G = rng.normal(0.0, 2.0, (B, 3)) + np.array([0.0, 0.0, -80.0])
    v_G = rng.normal(0.0, 1.0, (B, 3))
    w = rng.normal(0.0, 0.05, (B, 3))
    return Kinematics(0.0, r_G[:, None], R[:, None], v_G[:, None], w[:, None], cm_b)


@pytest.mark.parametrize("axis", ["instantaneous", "undisplaced"])
@pytest.mark.parametrize("sea", ["airy", "expansion"])
def test_morison_kernel_matches_numpy(axis, sea, expansion):
    load = MorisonMembers(body=0, members=_members(), axis=axis, strip_outputs=[(0, 0.5), (2, 0.9)])
    B = 3
    env = Environment(rho_water=1025.0, sea=_Airy() if sea == "airy" else expansion.sea)
    if sea == "expansion":
        env.sea.kinematics_mode = "gridded"
    kin = _kin(B, np.random.default_rng(4))
    a, b = both(lambda: load.wrench(4.2, kin, env))
    close(a.force, b.force)
    close(a.moment, b.moment)
    close(a.added_mass, b.added_mass)
    assert set(a.channels) == set(b.channels)
    for key in b.channels:
        close(a.channels[key], b.channels[key])


def test_morison_kernel_member_alone_equals_member_in_batch():
    load = MorisonMembers(body=0, members=_members())
    env = Environment(rho_water=1025.0, sea=_Airy())
    kin = _kin(5, np.random.default_rng(9))
    with jit(True):
        full = load.wrench(1.0, kin, env)
        for b in (0, 3):
            one = Kinematics(
                0.0,
                kin.r_G_g[b : b + 1],
                kin.R_b2g[b : b + 1],
                kin.v_G_g[b : b + 1],
                kin.w_b_g[b : b + 1],
                kin.cm_b,
            )
            w1 = load.wrench(1.0, one, env)
            assert np.array_equal(w1.force[0], full.force[b])
            assert np.array_equal(w1.moment[0], full.moment[b])
            assert np.array_equal(w1.added_mass[0], full.added_mass[b])
