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
import pathlib
import re
import shutil
import stat

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
    with pytest.raises(CaseError, match="through a gear"):
        model_from_dict(d)
    d = _case({"generator": _SIG, "start_time": 1.0, "start_speed": 3.0})
    with pytest.raises(CaseError, match="start"):
        model_from_dict(d)
    d = _case({"generator": _SIG, "efficiency": 94.4})
    with pytest.raises(CaseError, match="efficiency"):
        model_from_dict(d)


# ------------------------------------------------------------------------------ deck import

REF = pathlib.Path(__file__).resolve().parents[1] / ".." / "shared" / "reference" / "openfast"


def _edit(path: pathlib.Path, edits: dict[str, str]) -> None:
    text = path.read_text(encoding="latin-1")
    for key, value in edits.items():
        text, n = re.subn(rf"(?m)^\s*\S+(\s+{re.escape(key)}\s)", rf"   {value}\1", text, count=1)
        assert n == 1, key
    path.write_text(text, encoding="latin-1")


def _gendof_deck(tmp_path: pathlib.Path, servo: dict[str, str]) -> pathlib.Path:
    src = REF / "ref03_yaw_spin"
    dst = tmp_path / "ref03_gen"
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("*.out", "*.outb", "*.sum"))
    for p in dst.rglob("*"):
        p.chmod(p.stat().st_mode | stat.S_IWUSR)
    _edit(dst / "ElastoDyn.dat", {"GenDOF": "True"})
    _edit(dst / "ServoDyn.dat", servo)
    sd = dst / "ServoDyn.dat"
    sd.write_text(sd.read_text(encoding="latin-1").replace(
        '"YawMom"', '"YawMom"\n"GenTq"\n"GenPwr"\n"HSSBrTq"'), encoding="latin-1")  # fmt: skip
    return dst / "ref03_yaw_spin.fst"


@pytest.mark.skipif(not (REF / "ref03_yaw_spin").is_dir(), reason="no shared reference decks")
def test_gendof_deck_with_induction_generator_runs_plainly(tmp_path, capsys):
    """ref03 (yaw drive, no aero) with GenDOF = True and ServoDyn's simple induction generator
    on line from t = 0 (GenEff 94.4 %): ``floatwind run DECK.fst`` runs it; the generator torque
    follows the SIG law at 97 x RotSpeed, slowing the rotor from 12.1 rpm toward the synchronous
    speed 1150 rpm / 97; a ServoDyn setting we cannot honour (VSContrl = 5) is refused in one
    line."""
    import xarray as xr

    from floatwind.cli import main

    fst = _gendof_deck(tmp_path, {"TimGenOn": "0", "SIG_SlPc": "1.5", "SIG_SySp": "1150",
                                  "SIG_RtTq": "43093.55", "SIG_PORt": "2"})  # fmt: skip
    out = tmp_path / "gen.nc"
    assert main(["run", str(fst), "--tmax", "4", "-o", str(out), "--no-progress"]) == 0
    ds = xr.open_dataset(out)
    w = ds["RotSpeed"].values
    tq = ds["GenTq"].values
    law, c = generator_law("induction", {"sync_speed": 1150 * RPM, "rated_slip": 0.015,
                                         "rated_torque": 43093.55, "pullout_ratio": 2.0})  # fmt: skip
    expect = np.array([_torque(law, c, 97.0 * x)[0] for x in w])
    assert np.allclose(tq, expect, rtol=1e-12, atol=1e-6)  # (joint rate vs body rates)
    assert tq[0] > 0.0 and w[-1] < w[0]
    mech = tq * 97.0 * w
    pwr = np.where(tq >= 0.0, mech * 0.944, mech / 0.944)
    assert np.allclose(ds["GenPwr"].values, pwr, rtol=1e-9, atol=1e-3)
    assert np.all(ds["HSSBrTq"].values == 0.0)
    _edit(fst.parent / "ServoDyn.dat", {"VSContrl": "5"})
    assert main(["run", str(fst), "--tmax", "1", "-o", str(tmp_path / "x.nc"),
                 "--no-progress"]) != 0  # fmt: skip
    err = capsys.readouterr().err
    assert "VSContrl = 5" in err


# ------------------------------------------------------------------------------ blade pitch


def _servo_memory(pitch, maneuvers=None, B=1, dt=0.1, n=40):
    from floatwind.loads.servo import ServoDyn

    ld = ServoDyn(rotor=0, nacelle=0, axis=(1.0, 0.0, 0.0), gearbox_ratio=1.0, pitch=pitch,
                  maneuvers=maneuvers)  # fmt: skip
    return ld, ld.memory(B, 0.0, dt, n)


def test_timed_pitch_maneuver_ramps_as_servodyn():
    """TPitManS = 0.25 s, 2 deg/s toward 5 deg from 1 deg (blade 2 only), dt = 0.1 s: the
    maneuver begins at the first step at or after TPitManS (0.3 s), from the pitch then, and
    ramps from TPitManS: pitch = 1 deg + 2 deg/s (t - 0.25 s) until 2.25 s, then 5 deg; the other
    blades keep their initial pitch."""
    from floatwind._kernels.contract import BodyKinematics

    p0 = np.radians([1.0, 1.0, 1.0])
    ld, m = _servo_memory(p0, [None, (0.25, math.radians(2.0), math.radians(5.0))])
    kin = BodyKinematics(np.zeros((1, 1, 3)), np.eye(3)[None, None].copy(), np.zeros((1, 1, 3)),
                         np.zeros((1, 1, 3)), np.zeros((1, 3)))  # fmt: skip
    fn = ks.blade_pitch.py_func
    par = ld._params(m, 9.80665)
    seen = []
    for k in range(31):
        t = 0.1 * k
        ks.servo_after_step.py_func(par, t, kin, np.empty((1, 0)))
        for tt in (t, t + 0.05):
            seen.append((tt, fn(m, tt, 0, 0), fn(m, tt, 0, 1)))
    for tt, b1, b2 in seen:
        assert b1 == p0[0]
        if tt < 0.3 - 1e-9:
            expect = p0[1]
        elif tt < 2.25:
            expect = p0[1] + math.radians(2.0) * (tt - 0.25)
        else:
            expect = math.radians(5.0)
        assert b2 == pytest.approx(expect, abs=1e-13), tt


def test_commanded_pitch_turns_the_bem_blades():
    """A bem_rotor at pitch 0 reading a servodyn load's collective command of 6 deg gives the
    rotor built at 6 deg to round-off (the nodes off the pitch axis turned with the blade);
    an individual command (2, 6, 10 deg) gives, blade by blade, the element solution of the
    rotor built at that pitch to 1e-3 (the blades meet only through the disk-averaged wind,
    which moves a little with the other blades' nodes)."""
    from tests.test_rotor_bem import env, make_rotor, spin_kin

    kin = spin_kin([0.3, 2.0])
    e = env(speed=11.0)
    rot = make_rotor(pitch_from="servodyn")

    def commanded(pitch):
        _ld, m = _servo_memory(pitch, B=2)
        m.last[0] = 0
        m.pitch_cmd[0, :, :] = pitch
        return rot.evaluate(0.0, kin, e, m)

    six = commanded(np.radians([6.0, 6.0, 6.0]))
    ref = make_rotor(pitch_deg=6.0).evaluate(0.0, kin, e)
    assert np.allclose(six[3], ref[3], rtol=1e-9, atol=1e-9)
    assert np.allclose(six[1], ref[1], rtol=1e-9, atol=1e-6)
    pitch = np.radians([2.0, 6.0, 10.0])
    elem = commanded(pitch)[3]
    for k in range(3):
        ref = make_rotor(pitch_deg=float(np.degrees(pitch[k]))).evaluate(0.0, kin, e)[3]
        scale = np.abs(ref[:, k]).max(axis=(0, 1))
        assert np.all(np.abs(elem[:, k] - ref[:, k]).max(axis=(0, 1)) <= 1e-3 * scale + 1e-9), k
    free = make_rotor().evaluate(0.0, kin, e)[3]
    assert not np.allclose(elem[:, 2], free[:, 2], rtol=1e-2)  # the command does change it


REF09 = REF / "ref09_aero_fixed_speed"


@pytest.mark.skipif(not REF09.is_dir(), reason="no shared reference decks")
def test_pitch_maneuver_of_a_bem_deck_turns_the_blades(tmp_path):
    """ref09 (BEM rotor at 9 rpm) with a timed pitch maneuver of all three blades (from 0 at
    2 deg/s from TPitManS = 1 s toward 4 deg): the deck imports a servodyn load commanding the
    pitch and the bem_rotor reads it (pitch_from); BldPitch1-3 and BlPitchC1-3 follow ServoDyn's
    ramp and the aerodynamic torque falls as the blades pitch to feather."""
    from floatwind.case.openfast import import_openfast, model_from_deck
    from floatwind.simulate.run import simulate

    dst = tmp_path / "ref09_pitch"
    shutil.copytree(REF09, dst, ignore=shutil.ignore_patterns("*.out", "*.outb", "*.sum"))
    for p in dst.rglob("*"):
        p.chmod(p.stat().st_mode | stat.S_IWUSR)
    edits = {}
    for k in (1, 2, 3):
        edits.update({f"TPitManS({k})": "1.0", f"PitManRat({k})": "2", f"BlPitchF({k})": "4"})
    _edit(dst / "ServoDyn.dat", edits)
    fst = dst / "ref09_aero_fixed_speed.fst"
    res = import_openfast(fst)
    loads = {ld["type"]: ld for ld in res["case"]["loads"]}
    assert loads["bem_rotor"]["pitch_from"] == "servodyn"
    assert "generator" not in loads["servodyn"]  # the generator stays off (TimGenOn > TMax)
    res["case"]["simulation"].update(t_max=3.2, dt_out=0.1)
    ds = simulate(model_from_deck(fst, result=res), progress=False)
    t = ds.time.values
    expect = np.clip(np.radians(2.0) * (t - 1.0), 0.0, np.radians(4.0))
    expect[t < 1.0 + 1e-9] = 0.0
    for k in (1, 2, 3):
        assert np.allclose(ds[f"BldPitch{k}"].values.ravel(), expect, atol=1e-12)
        assert np.allclose(ds[f"BlPitchC{k}"].values.ravel(), expect, atol=1e-12)
    q = ds["RtAeroMxh"].values.ravel()
    assert q[-1] < 0.8 * q[np.searchsorted(t, 0.9)]


# ------------------------------------------------------------------------------ controller

J_DRIVE = 38759236.0 + 97.0**2 * 534.116  # NREL 5-MW drivetrain about the LSS [J09]
OMEGA0 = 12.1 * RPM
DPDTH = -25.52e6  # W/rad: aerodynamic power sensitivity to pitch at zero pitch, rated [J09]


def test_baseline_gains_give_the_design_poles():
    """Jonkman et al. (2009) sec. 7.4: the onshore PI gains are those of a closed loop with
    natural frequency 0.6 rad/s and damping ratio 0.7 (KP = 2 J W0 zeta wn / (N (-dP/dtheta)),
    KI = J W0 wn^2 / (N (-dP/dtheta))); the OC3-Hywind gains put the pitch-loop frequency below
    the platform-pitch frequency (Jonkman 2010: 0.2 rad/s)."""
    from floatwind.loads.servo import CONTROLLER_PRESETS

    on = CONTROLLER_PRESETS["nrel5mw_onshore"]
    wn = math.sqrt(on["pc_ki"] * 97.0 * -DPDTH / (J_DRIVE * OMEGA0))
    zeta = on["pc_kp"] * 97.0 * -DPDTH / (2.0 * J_DRIVE * OMEGA0 * wn)
    assert wn == pytest.approx(0.6, rel=2e-3) and zeta == pytest.approx(0.7, rel=2e-3)
    off = CONTROLLER_PRESETS["oc3_hywind"]
    wn = math.sqrt(off["pc_ki"] * 97.0 * -DPDTH / (J_DRIVE * OMEGA0))
    assert wn == pytest.approx(0.2, rel=2e-3)
    assert off["pc_kp"] * 97.0 * -DPDTH / (2.0 * J_DRIVE * OMEGA0 * wn) == pytest.approx(
        0.7, rel=2e-3
    )


@pytest.mark.parametrize("preset", ["nrel5mw_onshore", "oc3_hywind"])
def test_pi_step_response_matches_closed_loop_poles(preset):
    """The compiled controller closing the loop on a rigid drivetrain J dW/dt = Q_aero(theta) -
    N Q_gen, Q_aero linear in pitch (dP/dtheta / W0), Q_gen constant (region 3 at constant
    torque), called every 1 ms, filter off: from a 0.05 % overspeed the speed error follows the
    second-order response of the closed-loop poles s = -zeta wn +- i wn sqrt(1 - zeta^2)
    (phi'' + 2 zeta wn phi' + wn^2 phi = 0, e = phi'), to 1 % of the initial error."""
    from floatwind.loads.servo import CONTROLLER_PRESETS, ServoDyn, controller_parameters

    dt = 0.001
    vals = {**CONTROLLER_PRESETS[preset], "corner_freq": 1.0e4, "pc_minpit": -0.3,
            "region3": "constant_torque"}  # fmt: skip
    ld = ServoDyn(rotor=0, nacelle=0, axis=(1.0, 0.0, 0.0), gearbox_ratio=97.0,
                  pitch=[0.0, 0.0, 0.0], controller=vals, controller_dt=dt)  # fmt: skip
    n = 20000
    m = ld.memory(1, 0.0, dt, n)
    par = ld._params(m, 9.80665)
    c = controller_parameters(vals)
    q_gen = c[ks.K_VS_RTPWR] / c[ks.K_PC_REFSPD]  # region 3, constant torque
    w_ref = c[ks.K_PC_REFSPD] / 97.0
    e0 = 5e-4 * w_ref
    w = w_ref + e0
    fn = ks.baseline_controller
    es = []
    for k in range(n):
        t = k * dt
        meas = m.pitch_cmd[k - 1, 0].copy() if k else np.zeros(3)
        if k:
            m.pitch_cmd[k, 0] = m.pitch_cmd[k - 1, 0]
            m.ctrl[k, 0] = m.ctrl[k - 1, 0]
        fn(par.ctrl, m, k, 0, t, 97.0 * w, meas, 0.0)
        assert m.ctrl[k, 0, ks.C_GENTQ] == pytest.approx(q_gen, rel=1e-12)
        th = m.pitch_cmd[k, 0, 0]
        es.append(w - w_ref)
        w += dt * (97.0 * q_gen + DPDTH / OMEGA0 * th - 97.0 * q_gen) / J_DRIVE
    es = np.array(es)
    t = np.arange(n) * dt
    wn = math.sqrt(vals["pc_ki"] * 97.0 * -DPDTH / (J_DRIVE * OMEGA0))
    zeta = vals["pc_kp"] * 97.0 * -DPDTH / (2.0 * J_DRIVE * OMEGA0 * wn)
    wd = wn * math.sqrt(1.0 - zeta**2)
    # e = phi' with phi(0) = 0, phi'(0) = e0
    expect = e0 * np.exp(-zeta * wn * t) * (np.cos(wd * t) - zeta * wn / wd * np.sin(wd * t))
    assert np.abs(es - expect).max() <= 0.01 * e0


def _controlled_ref09(
    tmp_path, *, wind: float, pitch_deg: float, preset: str, platform_pitch_deg: float = 0.0,
    rpm: float = 12.1
) -> tuple:  # fmt: skip
    """ref09 (OC3-Hywind spar, BEM rotor) with GenDOF on, the rotor at ``rpm`` and the blades at
    ``pitch_deg`` in a steady ``wind``, closed by the compiled baseline controller (``preset``)."""
    from floatwind.case.openfast import import_openfast

    dst = tmp_path / f"ref09_{preset}"
    shutil.copytree(REF09, dst, ignore=shutil.ignore_patterns("*.out", "*.outb", "*.sum"))
    for p in dst.rglob("*"):
        p.chmod(p.stat().st_mode | stat.S_IWUSR)
    ed = {"GenDOF": "True", "RotSpeed": f"{rpm}", "PtfmPitch": f"{platform_pitch_deg}"}
    ed.update({f"BlPitch({k})": f"{pitch_deg}" for k in (1, 2, 3)})
    _edit(dst / "ElastoDyn.dat", ed)
    _edit(dst / "InflowWind.dat", {"HWindSpeed": f"{wind}"})
    fst = dst / "ref09_aero_fixed_speed.fst"
    res = import_openfast(fst)
    case = res["case"]
    for ld in case["loads"]:
        if ld["type"] == "bem_rotor":
            ld["pitch_from"] = "servodyn"
            ld["coupling"] = "stage"  # a commanded pitch needs the per-stage solve
    case["loads"].append({"type": "servodyn", "joint": "shaft", "gearbox_ratio": 97.0,
                          "efficiency": 0.944, "pitch": {"initial_deg": [pitch_deg] * 3},
                          "controller": {"preset": preset, "dt": case["simulation"]["dt"]}})  # fmt: skip
    return fst, res


@pytest.mark.skipif(not REF09.is_dir(), reason="no shared reference decks")
def test_baseline_controller_regulates_the_spar_above_rated(tmp_path):
    """OC3-Hywind spar + BEM rotor in 18 m/s, GenDOF, the detuned (oc3_hywind) baseline
    controller: the rotor speed stays within 10 % of rated (12.1 rpm) over 30 s from a 15 deg
    start (the steady pitch at 18 m/s is near 15 deg [J09]), the pitch moves to hold it, the generator torque is region 3's constant torque and the
    electrical power near 5 MW."""
    from floatwind.case.openfast import model_from_deck
    from floatwind.simulate.run import simulate

    fst, res = _controlled_ref09(tmp_path, wind=18.0, pitch_deg=15.0, preset="oc3_hywind")
    res["case"]["simulation"].update(t_max=30.0, dt_out=0.25)
    ds = simulate(model_from_deck(fst, result=res), progress=False)
    w = ds["QD_shaft"].values.ravel() / OMEGA0
    assert np.all(np.abs(w - 1.0) < 0.10), (w.min(), w.max())
    assert np.allclose(ds["GenSpeed"].values.ravel(), 97.0 * OMEGA0 * w, rtol=1e-6)
    pitch = np.degrees(ds["BldPitch1"].values.ravel())
    assert np.ptp(pitch) > 0.5 and pitch.min() > 0.0
    tq = ds["GenTq"].values.ravel()
    assert np.allclose(tq[4:], 5296610.0 / (1173.7 * RPM), rtol=1e-6)  # 43,093.5 N m
    pwr = ds["GenPwr"].values.ravel()[-40:]
    assert np.all(np.abs(pwr / 5.0e6 - 1.0) < 0.12)
    print(
        f"rotor speed {w.min():.4f} .. {w.max():.4f} of rated, pitch {pitch.min():.2f} .. "
        f"{pitch.max():.2f} deg, power {pwr.min() / 1e6:.3f} .. {pwr.max() / 1e6:.3f} MW"
    )


@pytest.mark.skipif(not REF09.is_dir(), reason="no shared reference decks")
def test_baseline_controller_below_rated_is_in_its_region(tmp_path):
    """Below rated, a few seconds each (the whole sweep from cut-in to cut-out, 150 s per wind,
    is benchmarks/control_sweep.py, docs/control.md "Cut-in to cut-out"): at 5 m/s the
    controller is in region 1 1/2 (GenTq on DISCON's line from VS_CtInSp, 670 rpm, to the
    region-2 curve at VS_Rgn2Sp, 871 rpm), at 9 m/s in region 2 (GenTq = VS_Rgn2K w_f^2), each
    to 0.1 % of the law at DISCON's filtered speed (rebuilt from the output at every step), the
    blades held at 0 deg, the rotor within 10 % of its start (7.3 and 10.3 rpm) and the power
    positive. The same compiled model as the region-3 test above."""
    from floatwind.case.openfast import model_from_deck
    from floatwind.simulate.run import simulate

    k2 = 2.332287
    ctin, rgn2 = 670.0 * RPM, 871.0 * RPM
    slope15 = k2 * rgn2 * rgn2 / (rgn2 - ctin)
    for wind, rpm, law in ((5.0, 7.3, lambda w: slope15 * (w - ctin)),
                           (9.0, 10.3, lambda w: k2 * w * w)):  # fmt: skip
        d = tmp_path / f"u{wind:g}"
        d.mkdir()
        fst, res = _controlled_ref09(d, wind=wind, pitch_deg=0.0, preset="oc3_hywind", rpm=rpm)
        dt = res["case"]["simulation"]["dt"]
        res["case"]["simulation"].update(t_max=4.0, dt_out=dt)
        ds = simulate(model_from_deck(fst, result=res), progress=False)
        wg = ds["GenSpeed"].values.ravel()
        tq = ds["GenTq"].values.ravel()
        # DISCON's filtered speed (0.25 Hz single pole, from the first speed), every step
        a = math.exp(-dt * 1.570796)
        wf = wg.copy()
        for k in range(1, wf.size):
            wf[k] = (1.0 - a) * wg[k] + a * wf[k - 1]
        late = slice(40, None)
        assert np.all((wf[late] > ctin) & (wf[late] < rgn2 if wind < 6 else wf[late] > rgn2))
        err = tq[late] / law(wf[late]) - 1.0
        assert np.abs(err).max() < 1e-3, (wind, np.abs(err).max())
        assert np.all(ds["BldPitch1"].values == 0.0)
        w = ds["QD_shaft"].values.ravel() / RPM
        assert np.abs(w - rpm).max() < 0.1 * rpm, (wind, w.min(), w.max())  # (the platform's
        # start from rest dips it by up to 6 %; the 300-s sweep settles at 7.49 and 10.25 rpm)
        assert ds["GenPwr"].values.ravel()[4:].min() > 0.0


@pytest.mark.skipif(not REF09.is_dir(), reason="no shared reference decks")
def test_onshore_gains_damp_the_platform_pitch_negatively(tmp_path):
    """The known result (Jonkman 2010; Larsen and Hanson 2007), in steady 18 m/s from a 4 deg
    platform pitch offset: with the detuned OC3-Hywind gains the platform-pitch oscillation
    decays, with the onshore gains (a pitch loop faster than the platform pitch) it grows."""
    from floatwind.case.openfast import model_from_deck
    from floatwind.simulate.run import simulate

    amp = {}
    for preset in ("oc3_hywind", "nrel5mw_onshore"):
        fst, res = _controlled_ref09(tmp_path, wind=18.0, pitch_deg=15.0, preset=preset,
                                     platform_pitch_deg=4.0)  # fmt: skip
        res["case"]["simulation"].update(t_max=90.0, dt_out=0.25)
        ds = simulate(model_from_deck(fst, result=res), progress=False,
                      channels=["PtfmPitch"])  # fmt: skip
        t = ds["time"].values
        p = np.degrees(ds["PtfmPitch"].values.ravel())
        early = np.ptp(p[(t >= 10.0) & (t < 40.0)])
        late = np.ptp(p[t >= 60.0])
        amp[preset] = (early, late)
    print(amp)
    assert amp["oc3_hywind"][1] < 0.7 * amp["oc3_hywind"][0]
    assert amp["nrel5mw_onshore"][1] > 1.3 * amp["nrel5mw_onshore"][0]


def test_floating_feedback_adds_to_the_pitch_command():
    """ROSCO's Fl_Mode as the baseline's option: at the rated speed (no speed error) the first
    call holds the measured pitch (DISCON's initialisation), plus fl_kp times the hub's fore-aft
    velocity when given."""
    from floatwind.loads.servo import CONTROLLER_PRESETS, ServoDyn

    out = []
    for v in (0.0, 0.5):
        vals = {**CONTROLLER_PRESETS["oc3_hywind"], "fl_kp": 0.002}
        ld = ServoDyn(rotor=0, nacelle=0, axis=(1.0, 0.0, 0.0), gearbox_ratio=97.0,
                      pitch=[0.2, 0.2, 0.2], controller=vals, controller_dt=0.0125)  # fmt: skip
        m = ld.memory(1, 0.0, 0.0125, 4)
        p = ld._params(m, 9.80665)
        ks.baseline_controller(p.ctrl, m, 0, 0, 0.0, vals["pc_refspd"], np.full(3, 0.2), v)
        out.append(m.pitch_cmd[0, 0].copy())
    assert np.allclose(out[0], 0.2, rtol=1e-12)
    assert np.allclose(out[1] - out[0], 0.002 * 0.5, rtol=1e-9)


@pytest.mark.parametrize("region3", ["constant_torque", "constant_power"])
def test_region3_torque_against_the_closed_form(region3):
    """Region 3 of the baseline: constant torque VS_RtPwr / PC_RefSpd = 5,296,610 W / 1173.7 rpm
    = 43,093.5 N m, Jonkman 2010's rated torque (OC3-Hywind DISCON; it was VS_RtPwr /
    VS_RtGnSp = 43,529 N m, 1 % high), or constant power VS_RtPwr / w_f (Jonkman 2009 sec. 7.2:
    the mechanical power 5.29661 MW, 5 MW electrical at GenEff 94.4 %), at and above rated."""
    from floatwind.loads.servo import CONTROLLER_PRESETS, ServoDyn

    for w in (1173.7 * RPM, 1.05 * 1173.7 * RPM):
        vals = {**CONTROLLER_PRESETS["oc3_hywind"], "region3": region3}
        ld = ServoDyn(rotor=0, nacelle=0, axis=(1.0, 0.0, 0.0), gearbox_ratio=97.0,
                      pitch=[0.2, 0.2, 0.2], controller=vals, controller_dt=0.0125)  # fmt: skip
        m = ld.memory(1, 0.0, 0.0125, 4)
        p = ld._params(m, 9.80665)
        ks.baseline_controller(p.ctrl, m, 0, 0, 0.0, w, np.full(3, 0.2), 0.0)
        tq = m.ctrl[0, 0, ks.C_GENTQ]
        if region3 == "constant_torque":
            assert tq == pytest.approx(43093.55, rel=2e-6)  # Jonkman 2010's 43,093.55 N m
        else:
            assert tq == pytest.approx(5296610.0 / w, rel=1e-12)
            assert tq * w * 0.944 == pytest.approx(5.0e6, rel=1e-6)  # 5 MW electrical


def test_y0_with_more_rows_than_the_model_batch_sizes_the_step_memory():
    """simulate(model, y0=...) with 3 rows on a model of batch 1: the step memories get a row per
    member (they were sized by the model's batch, and the compiled kernels wrote past them), and
    each member equals the run alone bit for bit."""
    from floatwind.case.loader import model_from_dict
    from floatwind.simulate.run import simulate
    from floatwind.simulate.system import System

    d = _case({"generator": _SIG, "brake": {"start_time": 0.5, "ramp_time": 0.5,
                                            "torque": 500.0}}, t_max=1.0)  # fmt: skip
    one = _run(d, fused=True)
    m = model_from_dict(d)
    y0 = np.repeat(System(m).initial_state(), 3, axis=0)
    three = simulate(m, y0=y0, progress=False)
    for ch in ("QD_shaft", "GenTq", "HSSBrTq"):
        assert three[ch].values.shape[0] == 3
        for k in range(3):
            assert np.array_equal(three[ch].values[k], one[ch].values.reshape(-1)), ch


@pytest.mark.skipif(not REF09.is_dir(), reason="no shared reference decks")
def test_a_pitch_demand_no_rotor_reads_is_refused(tmp_path):
    """A controller's blade pitch must reach the blades (issue 36): a bem_rotor that does not
    read the servodyn load (no pitch_from) is refused in one line before the run, and a
    bem_rotor whose blades sit on bodies of their own refuses pitch_from in one line (their
    pitch is their joints' prescribed motion)."""
    from floatwind.case.openfast import model_from_deck
    from floatwind.simulate.run import simulate

    fst, res = _controlled_ref09(tmp_path, wind=14.0, pitch_deg=8.0, preset="oc3_hywind")
    rotor = next(ld for ld in res["case"]["loads"] if ld["type"] == "bem_rotor")
    del rotor["pitch_from"]
    res["case"]["simulation"].update(t_max=0.05)
    with pytest.raises(CaseError) as info:
        simulate(model_from_deck(fst, result=res), progress=False)
    msg = str(info.value)
    assert "commands the blade pitch" in msg and "pitch_from" in msg and "\n" not in msg
    from floatwind.loads.rotor_bem import BemRotor
    from tests.test_rotor_bem import rotor_cfg

    cfg = rotor_cfg(pitch_from="servodyn", blade_bodies=["rotor", "b2", "b3"])
    with pytest.raises(CaseError, match="every blade fixed in the rotor body"):
        BemRotor.from_config(cfg, body_index={"rotor": 0, "b2": 1, "b3": 2}, field="loads[0]")


@pytest.mark.skipif(not REF09.is_dir(), reason="no shared reference decks")
def test_a_bem_deck_with_a_generator_law_holds_the_blade_pitch(tmp_path):
    """A BEM deck with GenDOF and simple variable-speed torque (VSContrl = 1, no pitch control):
    the import holds ElastoDyn's BlPitch in the servodyn load and the rotor reads it, so a run
    writes BldPitch1-3 as OpenFAST does (import only: checked by hand to give the same bits as
    the rotor's own pitch, docs/control.md)."""
    from floatwind.case.openfast import import_openfast

    dst = tmp_path / "ref09_vs"
    shutil.copytree(REF09, dst, ignore=shutil.ignore_patterns("*.out", "*.outb", "*.sum"))
    for p in dst.rglob("*"):
        p.chmod(p.stat().st_mode | stat.S_IWUSR)
    _edit(dst / "ElastoDyn.dat", {"GenDOF": "True", "RotSpeed": "10.0", "BlPitch(1)": "2.0",
                                  "BlPitch(2)": "2.0", "BlPitch(3)": "2.0"})  # fmt: skip
    _edit(dst / "ServoDyn.dat", {"VSContrl": "1", "TimGenOn": "0.0", "VS_RtGnSp": "1161.963",
                                 "VS_RtTq": "43093.55", "VS_Rgn2K": "0.0255764",
                                 "VS_SlPc": "10.0"})  # fmt: skip
    loads = {ld["type"]: ld for ld in import_openfast(dst / "ref09_aero_fixed_speed.fst")
             ["case"]["loads"]}  # fmt: skip
    srv = loads["servodyn"]
    assert srv["generator"]["model"] == "variable_speed" and "controller" not in srv
    assert np.allclose(srv["pitch"]["initial"], np.radians(2.0)) and "maneuvers" not in srv["pitch"]
    assert loads["bem_rotor"]["pitch_from"] == "servodyn"
    assert loads["bem_rotor"]["pitch_deg"] == pytest.approx(2.0)
    assert "blade_mass" not in loads["bem_rotor"]  # (a library's measurement only)
