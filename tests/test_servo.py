"""ServoDyn's generator laws, start/stop and HSS brake on a rotor joint DOF (issue 36;
docs/control.md).

Analytic: each torque law at its region boundaries (the closed forms of ServoDyn's
SrvD_SetParameters / CalculateTorque), the Thevenin circuit against a complex-number solution of
the equivalent circuit; the drivetrain balance (J_r + r^2 J_g) dW/dt = Q - r GenTq to round-off
on a spinning rotor with a geared generator; start/stop and the brake ramp at their times.
Invariants: compiled == NumPy, a batch member == the same run alone, bit for bit. Bad input
names its field.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from floatwind._kernels import servo as ks
from floatwind.errors import CaseError
from floatwind.loads.servo import generator_law

RPM = 2.0 * math.pi / 60.0


def _torque(law, coef, w, eff=1.0):
    return ks.generator_torque.py_func(law, coef, eff, w)


def test_induction_generator_regions():
    """SIG: zero at synchronous speed, rated torque at the rated slip, the pull-out torque from
    |slip| = SIG_POSl on (continuous there), sign-symmetric."""
    sy, s, rt, po = 1200 * RPM, 0.02, 4.0e4, 2.0
    law, c = generator_law("induction", {"sync_speed": sy, "rated_slip": s, "rated_torque": rt,
                                         "pullout_ratio": po})  # fmt: skip
    rt_sp = sy * (1 + s)
    posl = po * (rt_sp - sy)
    assert _torque(law, c, sy)[0] == 0.0
    assert _torque(law, c, rt_sp)[0] == pytest.approx(rt, rel=1e-12)
    assert _torque(law, c, sy + posl)[0] == pytest.approx(rt * po, rel=1e-12)
    assert _torque(law, c, sy + posl * (1 + 1e-9))[0] == rt * po
    assert _torque(law, c, sy - posl * (1 + 1e-9))[0] == -rt * po
    assert _torque(law, c, sy + 10 * posl)[0] == rt * po
    tq, pwr = _torque(law, c, rt_sp, 0.944)
    assert pwr == pytest.approx(tq * rt_sp * 0.944, rel=1e-14)  # generating: times GenEff
    tq, pwr = _torque(law, c, 0.99 * sy, 0.944)
    assert tq < 0 and pwr == pytest.approx(tq * 0.99 * sy / 0.944, rel=1e-14)  # motoring


def test_variable_speed_regions():
    """Simple VS: k w^2 below VS_TrGnSp, the line VS_Slope (w - VS_SySp) up to VS_RtGnSp (both
    meet at VS_TrGnSp, the line reaches VS_RtTq at VS_RtGnSp), VS_RtTq above; VS_TrGnSp the
    smaller root of k w^2 = VS_Slope (w - VS_SySp)."""
    rt_sp, rt_tq, k2, s = 1173.7 * RPM, 43093.55, 2.332287, 0.1
    law, c = generator_law("variable_speed", {"rated_speed": rt_sp, "rated_torque": rt_tq,
                                              "region2_k": k2, "rated_slip": s})  # fmt: skip
    sy = rt_sp / (1 + s)
    slope = rt_tq / (rt_sp - sy)
    tr = (slope - math.sqrt(slope * (slope - 4 * k2 * sy))) / (2 * k2)
    assert c[3] == pytest.approx(tr, rel=1e-14)
    assert k2 * tr**2 == pytest.approx(slope * (tr - sy), rel=1e-10)  # the regions meet
    assert _torque(law, c, 0.5 * tr)[0] == pytest.approx(k2 * (0.5 * tr) ** 2, rel=1e-14)
    assert _torque(law, c, tr)[0] == pytest.approx(slope * (tr - sy), rel=1e-14)
    assert _torque(law, c, rt_sp * (1 - 1e-12))[0] == pytest.approx(rt_tq, rel=1e-9)
    assert _torque(law, c, rt_sp)[0] == rt_tq
    assert _torque(law, c, 2 * rt_sp)[0] == rt_tq
    assert _torque(law, c, rt_sp, 0.944)[1] == pytest.approx(rt_tq * rt_sp * 0.944, rel=1e-14)
    # no slip: region 2 up to the rated speed; flat region 2 (k = 0): transition at VS_SySp
    law, c = generator_law("variable_speed", {"rated_speed": rt_sp, "rated_torque": rt_tq,
                                              "region2_k": k2, "rated_slip": 0.0})  # fmt: skip
    assert c[3] == rt_sp
    law, c = generator_law("variable_speed", {"rated_speed": rt_sp, "rated_torque": rt_tq,
                                              "region2_k": 0.0, "rated_slip": s})  # fmt: skip
    assert c[3] == pytest.approx(sy, rel=1e-15)


def test_thevenin_generator_against_the_circuit():
    """GenModel 2: the torque and electrical power of the equivalent circuit solved with complex
    numbers (stator R1 + jX1, magnetising jXm, rotor R2/s + jX2; torque = -3 |I2|^2 R2 / (s
    w_sync), power = mechanical power - 3 |I1|^2 R1 - 3 |I2|^2 R2), zero torque at synchronous
    speed."""
    p = dict(frequency=60.0, poles=4.0, stator_resistance=0.0185, rotor_resistance=0.017,
             line_voltage=480.0, stator_reactance=0.0851, rotor_reactance=0.0851,
             magnetizing_reactance=3.0)  # fmt: skip
    law, c = generator_law("thevenin", p)
    wsyn = 4 * math.pi * 60 / 4
    assert _torque(law, c, wsyn)[0] == 0.0
    for w in (wsyn * 1.01, wsyn * 1.03, wsyn * 0.98):
        s_gen = (w - wsyn) / wsyn  # ServoDyn's slip ratio (generating > 0)
        s = -s_gen  # motor convention of the circuit
        z2 = p["rotor_resistance"] / s + 1j * p["rotor_reactance"]
        zm = 1j * p["magnetizing_reactance"]
        z1 = p["stator_resistance"] + 1j * p["stator_reactance"]
        v = p["line_voltage"] / math.sqrt(3)
        i1 = v / (z1 + zm * z2 / (zm + z2))
        i2 = i1 * zm / (zm + z2)
        p_air = 3 * abs(i2) ** 2 * p["rotor_resistance"] / s
        tq_circ = -p_air / wsyn  # generator torque (resisting) = -electromagnetic torque
        tq, pwr = _torque(law, c, w)
        assert tq == pytest.approx(tq_circ, rel=1e-9)
        loss_r = 3 * abs(i2) ** 2 * p["rotor_resistance"]
        loss = 3 * abs(i1) ** 2 * p["stator_resistance"] + loss_r
        # ServoDyn takes the magnetising current from the Thevenin source voltage (-j V1a / Xm),
        # not from the terminal: its stator loss, hence its power, is close to the circuit's
        # (here to 0.2 %), the rotor loss exact
        assert pwr == pytest.approx(tq * w - loss, rel=5e-3)
        assert 0.0 < tq * w - pwr - loss_r < 3 * abs(i1) ** 2 * p["stator_resistance"] * 1.2


# ------------------------------------------------------------------------------ on a rotor

_BASE = {"name": "base", "mass": 1.0e12, "cm": [0, 0, 0], "inertia": [1e18, 1e18, 1e18]}
_ROTOR = {"name": "rotor", "mass": 1000.0, "cm": [0, 0, 0], "inertia": [100.0, 200.0, 3.0e4]}
_GEN = {"name": "gen", "mass": 10.0, "cm": [0, 0, 0], "inertia": [0.3, 0.3, 0.5]}
RATIO = 97.0
J = 3.0e4 + RATIO**2 * 0.5


def _case(servo: dict, q_aero: float = 2.0e5, t_max=4.0, dt=0.01, w0=1.2) -> dict:
    joints = [
        {"name": "shaft", "parent": "base", "child": "rotor", "position_parent": [0, 0, 5.0],
         "axis": [0.0, 0.0, 1.0], "drive": {"kind": "torque", "torque": q_aero,
                                              "initial": 0.0, "initial_rate": w0}},
        {"name": "hss", "parent": "base", "child": "gen", "position_parent": [0, 0, 2.0],
         "axis": [0.0, 0.0, 1.0], "gear": {"leader": "shaft", "ratio": RATIO}},
    ]  # fmt: skip
    return {
        "name": "servo",
        "environment": {},
        "bodies": [_BASE, _ROTOR, _GEN],
        "joints": joints,
        "loads": [{"type": "servodyn", "joint": "shaft", "gearbox_ratio": RATIO, **servo}],
        "simulation": {"t_max": t_max, "dt": dt, "dt_out": dt, "integrator": "rk4"},
    }


_SIG = {"model": "induction", "sync_speed_rpm": 1200.0, "rated_slip": 0.02,
        "rated_torque": 2000.0, "pullout_ratio": 2.0}  # fmt: skip


def _run(d: dict, fused: bool = True, batch: int | None = None):
    from floatwind.case.loader import model_from_dict
    from floatwind.simulate import fused as fz
    from floatwind.simulate.run import simulate

    old = fz.use_fused(fused)
    try:
        if batch:  # identical members
            d = {**d, "initial": {"displacement": [[0.0, 0.0, 0.0]] * batch}}
        return simulate(model_from_dict(d), progress=False)
    finally:
        fz.use_fused(old)


@pytest.mark.parametrize("fused", [False, True])
def test_drivetrain_balance_to_round_off(fused):
    """A rotor driven by a constant torque Q against the induction generator through the
    gearbox: at every output time (J_r + r^2 J_g) dW/dt = Q - r GenTq to round-off, and GenSpeed
    = r RotSpeed; the rotor settles where r GenTq = Q."""
    d = _case({"generator": _SIG, "efficiency": 0.944}, t_max=6.0)
    ds = _run(d, fused)
    w = ds["QD_shaft"].values
    lhs = J * ds["QD2_shaft"].values
    rhs = 2.0e5 - RATIO * ds["GenTq"].values
    assert np.abs(lhs - rhs).max() <= 1e-9 * 2.0e5
    assert np.allclose(ds["GenSpeed"].values, RATIO * w, rtol=1e-12)
    tq = ds["GenTq"].values
    mech = tq * RATIO * w  # generating: times GenEff; motoring (the start): divided by it
    assert np.allclose(ds["GenPwr"].values, np.where(tq >= 0, mech * 0.944, mech / 0.944),
                       rtol=1e-12)  # fmt: skip
    assert tq[0] < 0.0 and tq[-1] == pytest.approx(2.0e5 / RATIO, rel=1e-9)
    assert np.ptp(ds["GenTq"].values) > 100.0  # the torque does change with the speed


def test_compiled_equals_numpy_and_batch_member_bits():
    d = _case({"generator": _SIG, "brake": {"start_time": 1.0, "ramp_time": 0.5,
                                            "torque": 500.0}}, t_max=2.0)  # fmt: skip
    a = _run(d, fused=False)
    b = _run(d, fused=True)
    for ch in ("QD_shaft", "GenTq", "HSSBrTq", "GenPwr"):
        assert np.allclose(a[ch].values, b[ch].values, rtol=1e-9, atol=1e-9 * 2000.0), ch
    c = _run(d, fused=True, batch=3)
    for ch in ("QD_shaft", "GenTq", "HSSBrTq"):
        vals = c[ch].values
        assert vals.shape[0] == 3
        assert np.array_equal(vals[1], b[ch].values), ch


def test_timed_start_stop_and_brake_ramp():
    """GenTiStr: no torque before TimGenOn, on line from the first step at or after it; GenTiStp:
    none from TimGenOf; the brake ramps linearly from THSSBrDp over HSSBrDT, resisting."""
    d = _case({"generator": _SIG, "start_time": 1.0, "stop_time": 2.0,
               "brake": {"start_time": 2.5, "ramp_time": 0.5, "torque": 300.0}},
              q_aero=0.0, t_max=3.5)  # fmt: skip
    ds = _run(d)
    t = ds.time.values
    tq = ds["GenTq"].values
    assert np.all(tq[t < 1.0 - 1e-9] == 0.0)
    assert np.all(tq[(t > 1.0 + 1e-9) & (t < 2.0 - 1e-9)] != 0.0)
    assert np.all(tq[t >= 2.0 - 1e-9] == 0.0)
    br = ds["HSSBrTq"].values
    assert np.all(br[t <= 2.5] == 0.0)
    ramp = (t > 2.5) & (t < 3.0)
    assert np.allclose(br[ramp], 300.0 * (t[ramp] - 2.5) / 0.5, rtol=1e-12)
    assert np.allclose(br[t >= 3.0], 300.0)
    # the rotor decelerates under the brake alone: J dW/dt = -r HSSBrTq
    sel = t > 2.5
    assert np.allclose(J * ds["QD2_shaft"].values[sel], -RATIO * br[sel], rtol=1e-9, atol=1e-6)


def test_speed_start_and_stop_on_power():
    """GenTiStr = False: on line from the step where the HSS speed reaches SpdGenOn (spinning
    up under Q; below the synchronous speed it would motor and, with GenTiStp = False, go off);
    GenTiStp = False: off for good when the power falls to <= 0 (Q reversed below sync)."""
    sy = 1200 * RPM
    w0 = 0.9 * sy / RATIO
    d = _case({"generator": _SIG, "start_speed": sy * 1.01, "stop_on_power": True},
              q_aero=4.0e4, t_max=3.0, w0=w0)  # fmt: skip
    ds = _run(d)
    hss = ds["GenSpeed"].values
    tq = ds["GenTq"].values
    first = int(np.argmax(tq != 0.0))
    assert first > 0 and hss[first] >= sy * 1.01 > hss[first - 1]
    assert np.all(tq[first:] > 0.0)  # generating from then on
    d = _case({"generator": _SIG, "stop_on_power": True}, q_aero=-1.0e4, t_max=3.0,
              w0=1.001 * sy / RATIO)  # fmt: skip
    ds = _run(d)
    tq = ds["GenTq"].values
    assert tq[0] > 0.0 and tq[-1] == 0.0
    k = int(np.argmax(tq <= 0.0))
    assert np.all(tq[k:] == 0.0)  # off for good


def test_bad_input_names_the_field():
    from floatwind.case.loader import model_from_dict

    d = _case({"generator": {**_SIG, "rated_slip": -0.1}})
    with pytest.raises(CaseError, match="rated_slip"):
        model_from_dict(d)
    d = _case({"generator": {"model": "magic"}})
    with pytest.raises(CaseError, match="model"):
        model_from_dict(d)
    d = _case({"generator": _SIG, "joint": "hss"})
    with pytest.raises(CaseError, match="not a degree of freedom"):
        model_from_dict(d)
    d = _case({"generator": _SIG, "start_time": 1.0, "start_speed": 3.0})
    with pytest.raises(CaseError, match="start"):
        model_from_dict(d)
    d = _case({"generator": _SIG, "efficiency": 94.4})
    with pytest.raises(CaseError, match="efficiency"):
        model_from_dict(d)
