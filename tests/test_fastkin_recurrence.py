"""ExpansionSea nodes in quadratic-wavenumber runs: kernels (recurrences) against the NumPy
reference (per-node formula), and the degenerate runs (orders 0, 1, 2, arbitrary nodes)."""

from __future__ import annotations

import contextlib

import numpy as np
import pytest

from floatwind import _kernels
from floatwind.environment.fastkin import ExpansionSea, _chirp_nodes
from floatwind.environment.spectra import JonswapSpectrum
from floatwind.environment.waves import sea_from_spectrum, seeds_for

pytestmark = pytest.mark.skipif(not _kernels.AVAILABLE, reason="numba not installed")


@contextlib.contextmanager
def jit(flag):
    old = _kernels.use_jit(flag)
    try:
        yield
    finally:
        _kernels.use_jit(old)


def _rel(a, b):
    return np.abs(np.asarray(a) - np.asarray(b)).max() / max(np.abs(b).max(), 1e-300)


def _strips():
    pts = np.zeros((8, 3))
    pts[:, 0] = [0.0, 0.0, 1.0, 1.0, -2.0, 3.0, 0.0, 0.0]
    pts[:, 2] = [-110.0, -60.0, -20.0, -10.0, -4.0, -1.5, -0.5, 0.5]
    return pts


@pytest.mark.parametrize("depth", [320.0, np.inf])
@pytest.mark.parametrize("stretching", ["wheeler", "none"])
def test_kernels_match_reference_up_to_max_offset(depth, stretching):
    sea = sea_from_spectrum(
        JonswapSpectrum(5.0, 10.0),
        duration=300.0,
        seeds=seeds_for(7, 2),
        depth=depth,
        stretching=stretching,
    )
    pts = _strips()
    fast = ExpansionSea(sea, pts)
    assert fast.orders.max() > 10  # long runs: the recurrences are exercised
    rng = np.random.default_rng(4)
    ang = rng.uniform(0, 2 * np.pi, (2, 1))
    r = fast.max_offset * np.sqrt(rng.uniform(0.5, 1.0, (2, 1)))
    disp = pts[None].repeat(2, 0)
    disp[..., 0] += r * np.cos(ang)
    disp[..., 1] += r * np.sin(ang)
    disp[..., 2] += rng.uniform(-fast.max_dz, fast.max_dz, (2, pts.shape[0]))
    for t in (0.0, 17.3, 299.9):
        out = {}
        for flag in (True, False):
            fast._t_cache = None
            with jit(flag):
                out[flag] = (fast.elevation(t, disp[..., :2]), *fast.kinematics(t, disp))
        for a, b in zip(out[True], out[False], strict=True):
            assert _rel(a, b) < 1e-10


def test_chirp_nodes_are_exact_quadratic_runs():
    for split in (False, True):
        for n in (1, 2, 3, 5, 12, 25):
            if split and n < 4:
                continue
            k, w, _ = _chirp_nodes(0.3, 2.7, n, 320.0, 9.80665, split)
            assert k.size == n and np.all(np.diff(k) > 0) and np.all(np.diff(w) > 0)
            runs = [k] if not split else [k[: (n + 1) // 2], k[(n + 1) // 2 :]]
            for run in runs:  # second differences constant, exactly
                if run.size > 2:
                    d2 = np.diff(run, 2)
                    assert np.all(d2 == d2[0])


def _direct(z, points, cos, sin, h, k_eta, q_eta, starts, orders, k_q, sref_q, w_q):
    """Per-node reference of expansion_kinematics for mode 0 (no stretching)."""
    b, p = points.shape[:2]
    vel, acc = np.zeros((b, p, 3)), np.zeros((b, p, 3))
    for i in range(b):
        r = 0 if z.shape[0] == 1 else i
        for j in range(p):
            x, y, zc = points[i, j]
            if zc > 0.0:
                continue
            s = x * cos + y * sin
            sl = slice(starts[j], starts[j] + orders[j])
            kq = k_q[sl]
            zk = z[r, q_eta + starts[j] : q_eta + starts[j] + orders[j]] * np.exp(
                1j * kq * (s - sref_q[sl])
            )
            ekz = np.exp(kq * zc)
            emz = np.exp(-kq * (zc + 2 * h)) if h > 0 else 0.0
            u = zk * (ekz + emz)
            v = zk * (ekz - emz) if h > 0 else zk * ekz
            uh, ah = u.sum().real, (u * w_q[sl]).sum().imag
            uz, az = v.sum().imag, -(v * w_q[sl]).sum().real
            vel[i, j] = uh * cos, uh * sin, uz
            acc[i, j] = ah * cos, ah * sin, az
    return vel, acc


@pytest.mark.parametrize("h", [320.0, 0.0])
def test_recurrence_degenerate_runs(h):
    """Orders 0, 1, 2, 3, a two-run point, and arbitrary (Chebyshev) nodes, fed to the kernel with
    the ExpansionSea signature; the elevation with one node and with none."""
    from floatwind._kernels import waves as kw

    rng = np.random.default_rng(1)
    runs = [
        np.zeros(0),
        np.array([0.05]),
        np.array([0.02, 0.09]),
        np.array([0.01, 0.03, 0.08]),
        np.concatenate([0.01 + 0.004 * np.arange(5) ** 2, 0.2 - 0.003 * np.arange(4)[::-1] ** 2]),
        0.3 + 0.25 * np.cos((2 * np.arange(9) + 1) * np.pi / 18),  # no quadratic structure
        0.01 + 0.02 * np.arange(7),  # arithmetic (d2 = 0)
    ]
    orders = np.array([r.size for r in runs], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(orders)[:-1]]).astype(np.int64)
    k_q = np.concatenate(runs)
    w_q = np.sqrt(9.80665 * k_q)
    p = len(runs)
    sref_q = np.repeat(rng.uniform(-5, 5, p), orders)
    k_eta = np.array([0.04])
    q_eta = 1
    z = rng.normal(size=(2, q_eta + k_q.size)) + 1j * rng.normal(size=(2, q_eta + k_q.size))
    pts = np.zeros((2, p, 3))
    pts[..., 0] = rng.uniform(-15, 15, (2, p))
    pts[..., 1] = rng.uniform(-15, 15, (2, p))
    pts[..., 2] = rng.uniform(-60, -1, (2, p))
    cos, sin = np.cos(0.3), np.sin(0.3)
    sea = kw.expansion(cos=cos, sin=sin, mode=0, h=h, hw=1e6, s_eta_p=np.zeros(p),
                       grp=np.zeros(p, dtype=np.int64), k_eta=k_eta, q_eta=q_eta, starts=starts,
                       orders=orders, k_q=k_q, sref_q=sref_q, w_q=w_q)  # fmt: skip
    vel, acc = kw.expansion_kinematics(z, pts, sea)
    rv, ra = _direct(z, pts, cos, sin, h, k_eta, q_eta, starts, orders, k_q, sref_q, w_q)
    assert np.all(vel[:, 0] == 0.0) and np.all(acc[:, 0] == 0.0)  # order 0: nothing
    assert _rel(vel, rv) < 1e-12 and _rel(acc, ra) < 1e-12
    xy = np.ascontiguousarray(pts[..., :2])
    eta = kw.expansion_eta(z, xy, cos, sin, np.zeros(p), np.zeros(p, dtype=np.int64), k_eta)
    ref = (z[:, :1] * np.exp(1j * k_eta[0] * (xy[..., 0] * cos + xy[..., 1] * sin))).real
    assert _rel(eta, ref) < 1e-13
    empty = kw.expansion_eta(z, xy, cos, sin, np.zeros(p), np.zeros(p, dtype=np.int64), k_eta[:0])
    assert np.all(empty == 0.0)


def test_exp_kernels_accurate_and_lanes_equal_scalar():
    """The vectorisable e^x of the kinematics kernels: < 1 ulp against libm over the range the
    depth factors use, the lanes loop equal to the scalar twin to the bit, libm beyond 700."""
    from floatwind._kernels import waves as kw

    rng = np.random.default_rng(3)
    x = np.concatenate(
        [
            rng.uniform(-700.0, 700.0, 20_000),
            rng.uniform(-40.0, 0.0, 20_000),
            [0.0, -0.0, 1e-300, -1e-17, 0.5 * np.log(2.0), 700.0, -700.0],
            [709.0, -740.0, -np.inf, np.nan],  # the libm path
        ]
    )
    out = np.empty_like(x)
    kw._exp_lanes(x, out, np.empty_like(x))
    scalar = np.array([kw._exp(v) for v in x])
    assert np.array_equal(out, scalar, equal_nan=True)
    ref = np.exp(x)
    ok = np.isfinite(ref) & (ref > 0)
    ulp = np.abs(out[ok] - ref[ok]) / np.spacing(ref[ok])
    assert ulp.max() <= 1.0
    assert out[x == 0.0].tolist() == [1.0, 1.0]
    assert np.isnan(out[-1]) and out[-2] == 0.0


def test_table_synthesis_same_bits_compiled_or_numpy_and_order_choice_reused():
    """The compiled store of the synthesised series (tiled transpose) gives the NumPy
    assignment's bits; a second ExpansionSea of the same sea state reuses the order choices
    (same nodes, same table) and another sea state does not."""
    from floatwind.environment import fastkin

    def make(seed, hs=5.0):
        sea = sea_from_spectrum(
            JonswapSpectrum(hs, 10.0), duration=200.0, seeds=seeds_for(seed, 2), depth=320.0
        )
        return ExpansionSea(sea, _strips())

    fastkin._CHOICES.clear()  # (bounded LRU: start empty so that the counts below are exact)
    with jit(False):
        ref = make(3)
    n_cached = len(fastkin._CHOICES)
    with jit(True):
        fast = make(3)
    assert np.array_equal(fast.table, ref.table)
    assert len(fastkin._CHOICES) == n_cached  # every choice came from the cache
    assert np.array_equal(fast.orders, ref.orders) and np.array_equal(fast._k_q, ref._k_q)
    with jit(True):
        other = make(3, hs=7.0)  # other energies: searched again (new entries)
    assert len(fastkin._CHOICES) > n_cached
    assert not np.array_equal(other.table, fast.table)
