"""Compiled kernels (floatwind._kernels) against the NumPy reference or, for the loads (whose
kernels are their one implementation), against their Python form (``py_func``, what runs with
the kernels off), and batch bit-identity."""

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
    """fn() with the kernels and with them off (NumPy, or a load kernel's Python form)."""
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


# --- MCM, small loads, wind and the RHS summation (floatwind._kernels.mcm / loads / wind) ---------


def _oc3_study(n):
    import pathlib

    from floatwind.studies import study_from_dict

    case = pathlib.Path(__file__).resolve().parents[1] / "cases" / "oc3_hywind.yaml"
    raw = {
        "name": "kernels",
        "designs": [{"name": "d", "case": str(case)}],
        "conditions": [{"name": "U17", "wind_speed": 17.0, "hs": 5.0, "tp": 12.0}],
        "variants": [{"name": "v", "loads": {"morison": {"strip_length": 4.0}}}],
        "realizations": n,
        "duration": 20.0,
        "simulation": {"dt": 0.05, "dt_out": 0.25},
        "waves": {"kind": "jonswap", "hs": 5.0, "tp": 12.0},
        "wind": {"kind": "kaimal", "speed": 17.0, "hub_height": 87.6, "ny": 5, "nz": 5},
    }
    return study_from_dict(raw, base_dir=case.parent)


@pytest.fixture(scope="module")
def oc3():
    from floatwind.simulate.system import System
    from floatwind.studies import build_batch_model

    study = _oc3_study(3)
    runs = study.runs()
    batch = System(build_batch_model(study, runs))
    alone = [System(build_batch_model(study, runs[k : k + 1])) for k in range(3)]
    y = batch.initial_state()
    y = y + 2e-2 * np.random.default_rng(3).standard_normal(y.shape)
    y[1, 2] += 7.0  # member 1 raised: the taper pierces the surface (sliced hydrostatics)
    y[2, 4] += 0.3  # member 2 pitched 17 deg
    return batch, alone, y


def _evaluation_arrays(ev):
    out = {
        "qdd": ev.acc.qdd,
        "a_G": ev.acc.a_G_g,
        "dw_b": ev.acc.dw_b_g,
        "H": ev.acc.angular_momentum_s,
        "r_G": ev.kin.r_G_g,
        "R_b2g": ev.kin.R_b2g,
        "v_G": ev.kin.v_G_g,
        "w_b": ev.kin.w_b_g,
        "force": ev.wrench.force,
        "moment": ev.wrench.moment,
    }
    for i, lw in enumerate(ev.per_load):
        out[f"{i}.force"] = lw.force
        out[f"{i}.moment"] = lw.moment
        for k, v in lw.channels.items():
            out[f"{i}.{k}"] = v
    for k, v in ev.wrench.channels.items():
        out[f"ch.{k}"] = v
    return out


def test_system_kernels_match_numpy(oc3):
    """Body kinematics, every load (hydrostatics incl. a sliced member, thrust + full-field wind,
    linear matrices, constant force, Morison), the sum and the coupled MCM solve."""
    import dataclasses

    from floatwind.multibody.mcm import forward_dynamics

    batch, _, y = oc3
    ej, en = both(lambda: batch.evaluate(3.0, y, keep_loads=True))
    aj, an = _evaluation_arrays(ej), _evaluation_arrays(en)
    assert sorted(aj) == sorted(an)
    for key in an:
        a, b = np.asarray(aj[key], float), np.asarray(an[key], float)
        assert np.array_equal(np.isnan(a), np.isnan(b)), key
        close(np.nan_to_num(a), np.nan_to_num(b))
    # the decoupled 3x3 + 3x3 path (no added mass)
    rel, md = batch._relative(3.0)
    w0 = dataclasses.replace(en.wrench, added_mass=None)
    q, qd = y[:, :6], y[:, 6:]
    fj, fn = both(lambda: forward_dynamics(batch.tree, rel, md, q, qd, w0))
    for f in ("qdd", "a_G_g", "dw_b_g", "angular_momentum_s"):
        close(getattr(fj, f), getattr(fn, f))


def test_system_member_alone_equals_member_in_batch(oc3):
    batch, alone, y = oc3
    with jit(True):
        full = _evaluation_arrays(batch.evaluate(3.0, y, keep_loads=True))
        rhs = batch.rhs(3.0, y)
        for k, sysk in enumerate(alone):
            one = _evaluation_arrays(sysk.evaluate(3.0, y[k : k + 1], keep_loads=True))
            for key, v in one.items():
                np.testing.assert_array_equal(v[0], full[key][k], err_msg=key)
            np.testing.assert_array_equal(sysk.rhs(3.0, y[k : k + 1])[0], rhs[k])


def test_small_solve_matches_lapack():
    from floatwind._kernels.mcm import solve_small

    rng = np.random.default_rng(7)
    scale = np.array([8e6, 8e6, 8e6, 4e10, 4e10, 2e8])
    for n in (3, 6):
        for _ in range(50):
            A = rng.standard_normal((n, n)) + 3.0 * np.eye(n)
            A = A * np.sqrt(np.outer(scale[:n], scale[:n]))
            b = rng.standard_normal(n) * scale[:n]
            x = np.empty(n)
            solve_small(A.copy(), b.copy(), x)
            ref = np.linalg.solve(A, b)
            assert np.abs(x - ref).max() <= 1e-12 * np.abs(ref).max()


def test_thrust_kernel_fixed_ct_and_reversed_flow():
    """Fixed C_T, steady wind, and a rotor moving downwind faster than the wind (no thrust)."""
    from floatwind.environment.wind import SteadyWind
    from floatwind.loads.thrust import CTCurve, RotorThrust

    curve = CTCurve([3.0, 11.0, 25.0], [0.9, 0.8, 0.1])
    env = Environment(wind=SteadyWind(speed=12.0, ref_height=90.0))
    rng = np.random.default_rng(2)
    B = 4
    R = euler123_matrix(0.1 * rng.standard_normal((B, 3)))
    r_G = rng.standard_normal((B, 3)) + [0.0, 0.0, 90.0]
    v_G = rng.standard_normal((B, 3))
    v_G[0, 0] = 30.0  # faster than the wind
    w = 0.1 * rng.standard_normal((B, 3))
    kin = Kinematics(0.0, r_G[:, None], R[:, None], v_G[:, None], w[:, None], np.zeros((1, 3)))
    for mode in ({"ct_mode": "variable"}, {"ct_mode": "fixed", "mean_wind_speed": 11.0}):
        load = RotorThrust(
            body=0,
            rotor_centre=[-5.0, 0.0, 2.0],
            shaft_axis=[1.0, 0.0, 0.1],
            rotor_area=12000.0,
            ct_curve=curve,
            rated_power=5e6,
            rotor_speed=1.2,
            **mode,
        )
        a, b = both(lambda ld=load: ld.wrench(1.0, kin, env))
        close(a.force, b.force)
        close(a.moment, b.moment)
        assert sorted(a.channels) == sorted(b.channels)
        for k in b.channels:
            close(a.channels[k], b.channels[k])
        assert a.channels["RtAeroFxh"][0] == 0.0


_TINY = 1e-12
_GAUSS_X, _GAUSS_W = np.polynomial.legendre.leggauss(24)  # the rule of hydrostatics._SIN_X/_W
_SIN_X = np.sin(0.5 * np.pi * _GAUSS_X)
_SIN_W = _GAUSS_W * 0.5 * np.pi * np.cos(0.5 * np.pi * _GAUSS_X)


def _segment(d, r):
    """Area and first moment (along the cut normal) of the part ``xi < d`` of a disc of radius r."""
    dc = np.clip(d, -r, r)
    root = np.sqrt(np.maximum(r * r - dc * dc, 0.0))
    ratio = np.clip(dc / np.where(r > 0, r, 1.0), -1.0, 1.0)
    area = np.pi * r * r - r * r * np.arccos(ratio) + dc * root
    moment = -(2.0 / 3.0) * root**3
    return area, moment


def _wetted_volume_by_slices(c, n3, m, z0, z1, r0, r1):
    """Wetted volume and centroid of frustums cut by a plane, by exact slice integration.

    In member coordinates (axis along z, origin on the axis), a point ``(xi, eta, z)`` is wet when
    ``c + m xi + n3 z < 0`` (``xi`` along the horizontal projection of the plane normal).

    Parameters
    ----------
    c, n3, m : (K,) plane offset (m) and normal components (m >= 0).
    z0, z1, r0, r1 : (K,) member ends (m) and radii (m).

    Returns
    -------
    volume : (K,) wetted volume (m^3).
    xi_c, z_c : (K,) centroid along ``xi`` and along the axis (m).
    """
    k = (r1 - r0) / (z1 - z0)
    # levels where the cut line touches the rim, d(z) = +-r(z): analytic pieces in between
    cuts = []
    for sgn in (1.0, -1.0):
        den = n3 + sgn * m * k
        num = -c - sgn * m * (r0 - k * z0)
        ok = np.abs(den) > _TINY
        zc = np.where(ok, num / np.where(ok, den, 1.0), z0)
        cuts.append(np.clip(zc, z0, z1))
    edges = np.sort(np.stack([z0, cuts[0], cuts[1], z1], axis=-1), axis=-1)  # (K, 4)
    lo, hi = edges[:, :-1], edges[:, 1:]  # (K, 3)
    half = 0.5 * (hi - lo)
    # z = mid + half sin(pi s / 2): the (z - z_cut)^(3/2) behaviour at the touching levels becomes
    # analytic in s, so Gauss-Legendre converges exponentially
    z = 0.5 * (hi + lo)[..., None] + half[..., None] * _SIN_X  # (K, 3, G)
    w = half[..., None] * _SIN_W
    r = r0[:, None, None] + k[:, None, None] * (z - z0[:, None, None])
    level = c[:, None, None] + n3[:, None, None] * z
    vertical = m <= _TINY
    m_safe = np.where(vertical, 1.0, m)[:, None, None]
    big = 10.0 * (np.abs(r) + 1.0)
    d = np.where(vertical[:, None, None], np.where(level < 0.0, big, -big), -level / m_safe)
    area, first = _segment(d, r)
    volume = np.sum(w * area, axis=(1, 2))
    safe = np.where(volume > 0.0, volume, 1.0)
    xi_c = np.sum(w * first, axis=(1, 2)) / safe
    z_c = np.sum(w * area * z, axis=(1, 2)) / safe
    return volume, xi_c, z_c


def test_hydrostatic_slice_kernel_matches_numpy_slices():
    """The compiled slice integration (the load's one implementation for tapered members and
    planes through an end cap) against an independent NumPy slice integration
    (``_wetted_volume_by_slices`` above, vectorised over the entries): random cut planes through
    random frustums, vertical ones too."""
    from floatwind._kernels import loads as kl
    from floatwind.loads.hydrostatics import Hydrostatics

    rng = np.random.default_rng(5)
    B, M = 40, 3
    z0 = np.array([-12.0, -4.0, -40.0])
    z1 = np.array([-4.0, 10.0, -12.0])
    r0 = np.array([4.7, 3.25, 4.7])
    r1 = np.array([3.25, 3.25, 4.7])
    axis_xy = rng.normal(size=(M, 2))
    n = rng.normal(size=(B, 3))
    n[:, 2] = np.abs(n[:, 2]) + 0.2
    n[:4, :2] = 0.0  # vertical normal: the horizontal-plane branch
    n /= np.linalg.norm(n, axis=1, keepdims=True)
    m = np.hypot(n[:, 0], n[:, 1])
    c = rng.uniform(-8.0, 8.0, size=(B, M))
    sliced = rng.random((B, M)) < 0.8
    vol = np.full((B, M), -1.0)
    cen = np.full((B, M, 3), -1.0)
    p = Hydrostatics.Params(
        body=0, z0=z0, z1=z1, r0=r0, r1=r1, axis_xy=axis_xy, is_cylinder=np.zeros(M, bool),
        full_volume=np.zeros(M), full_centroid=np.zeros((M, 3)), rho_g=1.0, slice_x=_SIN_X,
        slice_w=_SIN_W,
    )  # fmt: skip
    kl.hydrostatics_slices(p, vol, cen, sliced, c, n, m)
    bi, mi = np.nonzero(sliced)
    v, xi, zc = _wetted_volume_by_slices(c[bi, mi], n[bi, 2], m[bi], z0[mi], z1[mi], r0[mi], r1[mi])
    np.testing.assert_allclose(vol[bi, mi], v, rtol=1e-12, atol=1e-9)
    u = np.where((m[bi] > 1e-12)[:, None], n[bi, :2] / np.maximum(m[bi], 1e-300)[:, None], 0.0)
    wet = v > 0
    np.testing.assert_allclose(cen[bi, mi, 2][wet], zc[wet], rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(
        cen[bi, mi, :2][wet], (axis_xy[mi] + u * xi[:, None])[wet], rtol=1e-12, atol=1e-9
    )
    assert np.all(vol[~sliced] == -1.0)  # entries not flagged are left alone
    assert 0 < wet.sum() < wet.size
