"""Compiled coverage (issue 16 item 3): Morison member-end (axial) loads and the IEC transient
winds (direction shift, EDC, EOG) run in the fused loop with the numbers of the Python path.
"""

from __future__ import annotations

import copy
import math
import pathlib

import numpy as np
import pytest
import yaml
from conftest import fused_and_python

pytest.importorskip("numba")

from floatwind import _kernels  # noqa: E402
from floatwind._kernels.contract import BodyKinematics, NoCompiledForm  # noqa: E402
from floatwind.case.loader import model_from_dict  # noqa: E402
from floatwind.environment.compiled import wind_params  # noqa: E402
from floatwind.environment.wind import (  # noqa: E402
    SteadyWind,
    TransientWind,
    direction_shift,
    iec_edc,
    iec_eog,
)
from floatwind.loads.base import Kinematics  # noqa: E402
from floatwind.loads.morison import MorisonMembers  # noqa: E402
from floatwind.simulate import fused as fz  # noqa: E402
from floatwind.simulate import simulate  # noqa: E402
from floatwind.simulate.system import System  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
BASE = yaml.safe_load((ROOT / "cases" / "oc3_platform_decay.yaml").read_text())
WAVES = {"kind": "jonswap", "hs": 6.0, "tp": 10.0, "heading_deg": 20.0, "seed": 3}
ANGLES = [[0.05, -0.08, 0.02], [0.0, 0.1, 0.0], [0.0, 0.12, -0.03]]

#: spar column with a heave plate at its keel, an end cap near the surface (wets and dries in
#: the waves) and a horizontal brace with plates at both ends (one end with C_a = 0)
MEMBERS = [
    {
        "end_a": [0.0, 0.0, -120.0],
        "end_b": [0.0, 0.0, -12.0],
        "diameter": 9.4,
        "axial_a": {"cd": 4.8, "ca": 1.0, "diameter": 20.0},
    },
    {
        "end_a": [0.0, 0.0, -12.0],
        "end_b": [0.5, 0.0, -1.0],
        "diameter": 6.5,
        "axial_b": {"cd": 1.0, "ca": 0.5},
    },
    {
        "end_a": [3.0, 0.0, -20.0],
        "end_b": [3.0, 4.0, -20.0],
        "diameter": 2.0,
        "axial_a": {"cd": 2.0, "ca": 0.3},
        "axial_b": {"cd": 1.5, "ca": 0.0, "diameter": 3.0},
    },
]


@pytest.fixture(autouse=True)
def _jit_on(compiled_on):
    """Every test here runs with the compiled kernels and the fused stepping on."""


def _case(
    *,
    waves=False,
    angles=(ANGLES[1],),
    axis="instantaneous",
    surface="wave",
    ends=True,
    wind=None,
    t_max=2.0,
):
    d = copy.deepcopy(BASE)
    d["simulation"].update(t_max=t_max, dt=0.05, dt_out=0.25)
    if waves:
        d["environment"]["waves"] = dict(WAVES)
    if wind is not None:
        d["environment"]["wind"] = wind
    d["initial"] = {"angles": [list(a) for a in angles] if len(angles) > 1 else list(angles[0])}
    members = copy.deepcopy(MEMBERS)
    if not ends:
        for m in members:
            m.pop("axial_a", None)
            m.pop("axial_b", None)
    d["loads"].append(
        {
            "type": "morison",
            "body": "platform",
            "strip_length": 6.0,
            "axis": axis,
            "surface": surface,
            "members": members,
        }
    )
    return d


def _model(**kw):
    return model_from_dict(_case(**kw), base_dir=ROOT / "cases")


def _both(**kw):
    """(fused Dataset, Python-path Dataset) of the same model."""
    return fused_and_python(lambda: _model(**kw))


def _assert_close(a, b, rtol=1e-9):
    for name in a.data_vars:
        x, y = a[name].values, b[name].values
        scale = max(np.nanmax(np.abs(y)), 1.0) if y.size else 1.0
        err = np.nanmax(np.abs(x - y)) if x.size else 0.0
        assert err <= rtol * scale, f"{name}: {err:.3g} (scale {scale:.3g})"


# --- Morison member ends --------------------------------------------------------------------


def _morison(model) -> MorisonMembers:
    (ld,) = [ld for ld in model.loads if isinstance(ld, MorisonMembers)]
    return ld


def _kinematics(B, seed=7):
    rng = np.random.default_rng(seed)
    cm = np.array([[-0.017555, 0.0, -78.014007]])
    R = np.empty((B, 1, 3, 3))
    for b in range(B):
        a = rng.normal(scale=0.08, size=3)
        K = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
        # Rodrigues
        th = np.linalg.norm(a)
        R[b, 0] = np.eye(3) + math.sin(th) / th * K + (1 - math.cos(th)) / th**2 * K @ K
    origin = rng.normal(scale=[2.0, 2.0, 0.8], size=(B, 3))
    r_G = origin[:, None] + np.einsum("bnij,nj->bni", R, cm)
    v_G = rng.normal(scale=0.6, size=(B, 1, 3))
    w = rng.normal(scale=0.05, size=(B, 1, 3))
    return BodyKinematics(r_G, R, v_G, w, cm)


def _kernel_wrench(load, env, t, bkin):
    parts = load.compiled(env, bkin.r_G.shape[0])
    parts = parts if isinstance(parts, tuple) and not hasattr(parts, "_fields") else (parts,)
    B, N = bkin.r_G.shape[:2]
    force, moment, added = np.zeros((B, N, 3)), np.zeros((B, N, 3)), np.zeros((B, N, 6, 6))
    y = np.zeros((B, 12))
    for c in parts:  # the strips' kernel, then the member ends' kernel when there are ends
        st = c.kernel(c.params, t, bkin, y, np.zeros_like(y), force, moment, added)
        assert st == 0 and c.adds_mass
    return force, moment, added


@pytest.mark.parametrize(
    "waves, surface",
    [(False, "wave"), (True, "wave"), (True, "still")],
    ids=["still", "waves", "waves-still-surface"],
)
def test_morison_end_kernel_equals_numpy_reference(waves, surface):
    """The compiled Morison kernels with member ends (the sea's table) against ``wrench`` with
    the Python forms of the stages (``py_func``, the sea object), at times where the near-surface end cap is wet for some members and dry for
    others; B = 9 runs the lane kernels, each member alone the scalar ones: the same bits."""
    m = _model(waves=waves, surface=surface)
    load, env = _morison(m), m.env
    no_ends = _morison(_model(waves=waves, ends=False, surface=surface))
    assert load.end_pos_b.shape == (4, 3)
    bkin = _kinematics(9)
    for t in (0.0, 3.3, 7.9):
        f, mo, am = _kernel_wrench(load, env, t, bkin)
        old = _kernels.use_jit(False)
        try:
            ref = load.wrench(t, Kinematics(t, *bkin), env)
            ref0 = no_ends.wrench(t, Kinematics(t, *bkin), env)
        finally:
            _kernels.use_jit(old)
        for got, want in ((f, ref.force), (mo, ref.moment), (am, ref.added_mass)):
            scale = np.abs(want).max()
            assert np.abs(got - want).max() <= 1e-9 * scale
        # the ends do contribute: force, moment and the axial added mass
        assert np.abs(ref.force - ref0.force).max() > 1e-3 * np.abs(ref.force).max()
        assert np.abs(ref.added_mass - ref0.added_mass)[:, 0, 2, 2].min() > 1e5
        for b in (0, 4, 8):
            one = BodyKinematics(*(a[b : b + 1] for a in bkin[:4]), bkin.cm_b)
            f1, m1, a1 = _kernel_wrench(load, env, t, one)
            assert np.array_equal(f1[0], f[b]) and np.array_equal(m1[0], mo[b])
            assert np.array_equal(a1[0], am[b])


@pytest.mark.parametrize(
    "waves, axis",
    [(False, "instantaneous"), (True, "instantaneous"), (True, "undisplaced")],
    ids=["still", "waves", "waves-undisplaced"],
)
def test_morison_ends_run_fused_with_the_python_numbers(waves, axis):
    a, b = _both(waves=waves, axis=axis)
    _assert_close(a, b)
    assert float(np.abs(a["PtfmSurge"]).max()) > 1e-2


def test_morison_ends_member_alone_equals_member_in_batch():
    """One sea for all members (the single member's environment, broadcast over the batch):
    member 1 of a batch of 3 and the same member alone give the same bits."""
    alone_model = _model(waves=True, angles=ANGLES[1:2])
    batch_model = _model(waves=True, angles=ANGLES)
    batch_model.env = alone_model.env
    assert fz.fuse(System(batch_model))[0] is not None
    batch = simulate(batch_model, progress=False)
    alone = simulate(alone_model, progress=False)
    assert batch["PtfmPitch"].shape[0] == 3
    for name in ("PtfmSurge", "PtfmHeave", "PtfmPitch", "PtfmRoll", "MrsnFzi", "MrsnMyi"):
        assert np.array_equal(batch[name].values[1], alone[name].values), name


# --- IEC transient winds --------------------------------------------------------------------


def _steady(**kw):
    return SteadyWind(speed=11.4, heading=math.radians(-30.0), ref_height=90.0, **kw)


TRANSIENTS = {
    "shift-ramp": lambda base: direction_shift(base, shift=math.radians(-45.0), time=2.0, ramp=3.0),
    "shift-step": lambda base: direction_shift(base, shift=math.radians(30.0), time=2.0, ramp=0.0),
    "edc": lambda base: iec_edc(base, uhub=11.4, zhub=90.0, rotor_diameter=126.0, start=2.0),
    "edc-neg": lambda base: iec_edc(
        base, uhub=11.4, zhub=90.0, rotor_diameter=126.0, start=2.0, sign=-1, turbulence_class="A"
    ),
    "eog": lambda base: iec_eog(base, uhub=11.4, zhub=90.0, rotor_diameter=126.0, start=2.0),
}


@pytest.mark.parametrize("shear", ["power", "log"])
@pytest.mark.parametrize("kind", list(TRANSIENTS))
def test_transient_wind_compiled_velocity_equals_python(kind, shear):
    from floatwind._kernels.wind import wind_velocity

    wind = TRANSIENTS[kind](_steady(shear=shear))
    rng = np.random.default_rng(3)
    B, P = 3, 40
    pts = np.ascontiguousarray(rng.uniform([-80, -80, -20], [80, 80, 160], size=(B, P, 3)))
    pts[:, :3, 2] = [0.0, -1.0, 1e-12]  # at, below and just above the SWL
    p = wind_params(wind, B)
    assert p.dir_kind != 0 or p.gust_kind != 0
    times = np.concatenate([np.linspace(0.0, 15.0, 301), [2.0, 5.0, 8.0, 12.5, 2.0 + 1e-12]])
    for t in times:
        got, st = wind_velocity(p, float(t), pts)
        want = wind.velocity(float(t), pts)
        assert st == 0
        assert np.abs(got - want).max() <= 1e-12 * max(np.abs(want).max(), 1.0), t
    # the transient acts
    v0 = wind.velocity(0.0, pts)
    assert np.abs(wind.velocity(7.0, pts) - v0).max() > 0.1


def test_transient_on_no_wind_and_callables():
    from floatwind._kernels.wind import wind_velocity
    from floatwind.environment.base import NoWind

    pts = np.array([[[0.0, 0.0, 90.0], [1.0, 2.0, -3.0]]])
    wind = iec_eog(NoWind(), uhub=11.4, zhub=90.0, rotor_diameter=126.0, start=0.0)
    for t in (0.0, 1.0, 5.0, 10.0):
        got, _ = wind_velocity(wind_params(wind, 1), t, pts)
        np.testing.assert_allclose(got, wind.velocity(t, pts), rtol=1e-12, atol=1e-14)
    # arbitrary Python callables keep the NumPy path, and say why
    with pytest.raises(NoCompiledForm, match="direction change given as a Python function"):
        wind_params(TransientWind(_steady(), direction=lambda t: 0.1 * t), 1)
    with pytest.raises(NoCompiledForm, match="gust given as a Python function"):
        wind_params(TransientWind(_steady(), gust=lambda t, z: np.zeros(np.shape(z))), 1)
    with pytest.raises(NoCompiledForm, match="transient wind on a transient"):
        wind_params(direction_shift(TRANSIENTS["eog"](_steady()), shift=0.1), 1)


THRUST = {
    "type": "thrust_ct",
    "body": "platform",
    "rotor_centre": [-5.0, 0.0, 90.0],
    "shaft_axis": [1.0, 0.0, 0.0],
    "rotor_radius": 63.0,
    "ct_curve": "data/ct_curve_fig14.csv",
    "ct_mode": "variable",
    "rated_power": 5.0e6,
    "rotor_speed_rpm": 12.1,
}
_IEC_KW = {"speed": 11.4, "ref_height": 90.0, "heading_deg": 10.0, "start": 0.3}
WIND_CASES = {
    "direction_shift": {
        "kind": "direction_shift",
        "speed": 11.4,
        "ref_height": 90.0,
        "heading_deg": 10.0,
        "shift_deg": -45.0,
        "time": 0.5,
        "ramp": 1.0,
    },  # fmt: skip
    "iec_edc": {"kind": "iec_edc", **_IEC_KW},
    "iec_eog": {"kind": "iec_eog", **_IEC_KW},
}


@pytest.mark.parametrize("kind", list(WIND_CASES))
def test_transient_wind_model_runs_fused_with_the_python_numbers(kind):
    def model():
        d = copy.deepcopy(BASE)
        d["simulation"].update(t_max=2.5, dt=0.05, dt_out=0.25)
        d["environment"]["wind"] = dict(WIND_CASES[kind])
        d["loads"].append(dict(THRUST))
        return model_from_dict(d, base_dir=ROOT / "cases")

    a, b = fused_and_python(model)
    _assert_close(a, b)
    # the transient shows in the rotor-averaged wind along the shaft
    v = a["RtVAvgxh"].values.ravel()
    assert np.ptp(v) > 0.05


#: the dissertation's shift on a small Kaimal full field (cases/environments/wang_forced_wind_shift.yaml)
FULL_FIELD_SHIFT = {
    "kind": "direction_shift",
    "speed": 11.4,
    "ref_height": 90.0,
    "heading_deg": -90.0,
    "shift_deg": -45.0,
    "time": 0.6,
    "ramp": 0.0,
    "base": {
        "kind": "kaimal", "speed": 11.4, "hub_height": 90.0, "heading_deg": -90.0, "ny": 5,
        "nz": 5, "width": 150.0, "height": 150.0, "dt": 0.25, "seed": 2013,
    },
}  # fmt: skip


def test_transient_on_full_field_wind_compiled_and_fused():
    from floatwind._kernels.wind import wind_velocity
    from floatwind.environment.config import build_environment

    env = build_environment({"wind": FULL_FIELD_SHIFT}, duration=4.0, base_dir=ROOT / "cases")
    wind = env.wind
    assert isinstance(wind, TransientWind) and wind_params(wind, 1).kind == 3
    rng = np.random.default_rng(5)
    pts = np.ascontiguousarray(rng.uniform([-40, -40, 30], [40, 40, 140], size=(2, 25, 3)))
    p = wind_params(wind, 2)
    for t in np.linspace(0.0, 2.0, 41):
        got, st = wind_velocity(p, float(t), pts)
        want = wind.velocity(float(t), pts)
        assert st == 0
        assert np.abs(got - want).max() <= 1e-12 * np.abs(want).max(), t

    def model():
        d = copy.deepcopy(BASE)
        d["simulation"].update(t_max=1.5, dt=0.05, dt_out=0.25)
        d["environment"]["wind"] = copy.deepcopy(FULL_FIELD_SHIFT)
        thrust = dict(THRUST, shaft_axis=[0.0, -1.0, 0.0])
        d["loads"].append(thrust)
        return model_from_dict(d, base_dir=ROOT / "cases")

    a, b = fused_and_python(model)
    _assert_close(a, b)


def test_regular_wave_morison_runs_compiled_like_direct_summation():
    """A regular wave (``kind: regular``, one component) is periodic with its own period, so
    the compiled expansion kinematics applies: a Morison spar in it steps compiled (it used to
    fall back to the Python path), its motions agree with the Python path to 1e-9, and with the
    exact direct summation (``kinematics: direct``) to 1e-4 of their range (the expansion's
    interpolation; measured 4e-6..9e-6 on ref08's hull over 100 s)."""
    waves = {"kind": "regular", "height": 6.0, "period": 10.0, "phase_deg": 30.0,
             "heading_deg": 20.0}  # fmt: skip

    def make(kinematics="auto"):
        d = _case(t_max=20.0, ends=False)
        d["environment"]["waves"] = dict(waves, kinematics=kinematics)
        return model_from_dict(d, base_dir=ROOT / "cases")

    a, b = fused_and_python(make)
    _assert_close(a, b)
    direct = simulate(make("direct"), progress=False)
    for name in ("PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmPitch"):
        x, y = np.ravel(a[name].values), np.ravel(direct[name].values)
        assert np.abs(x - y).max() <= 1e-4 * np.ptp(y), name
    assert np.ptp(direct["PtfmSurge"].values) > 0.05  # the wave does move the spar
