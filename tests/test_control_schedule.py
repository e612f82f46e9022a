"""The baseline controller's schedules (issue 36, docs/control.md "Scheduled gains and floating
feedback"): the pitch-loop gains scheduled on the pitch, the operating point (the pitch-based
wind estimate) and the floating-feedback gain scheduled on it (ROSCO's form, Abbas et al.
2022, WES 7, 53-73).

Fast checks: the table interpolation at and between its breakpoints, the design (the closed
loop on a rigid drivetrain has the designed poles at any operating point of the schedule), the
estimator's steady state on a steady wind, refusals, and on the controlled ref09 spar a batch
member equals its run alone bit for bit.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from floatwind._kernels import servo as ks
from floatwind.errors import CaseError
from floatwind.loads.servo import (
    CONTROLLER_PRESETS,
    NREL5MW_BEM_OPERATING_POINTS,
    ServoDyn,
    controller_parameters,
    peak_shaving,
    scheduled_gains,
)
from tests.test_servo import REF09, _controlled_ref09

RPM = math.pi / 30.0
OMEGA0 = 12.1 * RPM
J_DRIVE = 38759236.0 + 97.0**2 * 534.116  # NREL 5-MW drivetrain about the LSS [J09]


def _params(vals: dict) -> np.ndarray:
    return controller_parameters({**CONTROLLER_PRESETS["oc3_hywind"], **vals})


def test_schedule_interpolates_at_and_between_its_breakpoints():
    """``schedule`` returns each breakpoint's value at the breakpoint, the straight line between
    two, and holds the end values outside the table (ROSCO's interp1d)."""
    c = _params(scheduled_gains(0.4, 0.7, 1.0))
    n = int(c[ks.K_GS_N])
    x = c[ks.K_GS_PITCH : ks.K_GS_PITCH + n]
    y = c[ks.K_GS_KP : ks.K_GS_KP + n]
    assert n == sum(r[0] >= 12.0 for r in NREL5MW_BEM_OPERATING_POINTS)
    for i in range(n):
        assert ks.schedule(c, ks.K_GS_PITCH, ks.K_GS_KP, n, x[i]) == y[i]
    for i in range(n - 1):
        xm = 0.25 * x[i] + 0.75 * x[i + 1]
        assert ks.schedule(c, ks.K_GS_PITCH, ks.K_GS_KP, n, xm) == pytest.approx(
            0.25 * y[i] + 0.75 * y[i + 1], rel=1e-12
        )
    assert ks.schedule(c, ks.K_GS_PITCH, ks.K_GS_KP, n, x[0] - 0.1) == y[0]
    assert ks.schedule(c, ks.K_GS_PITCH, ks.K_GS_KP, n, x[-1] + 0.1) == y[-1]
    # the design: KP, KI of a second-order loop at each operating point
    for r, kp, ki in zip(
        [r for r in NREL5MW_BEM_OPERATING_POINTS if r[0] >= 12.0],
        y,
        c[ks.K_GS_KI : ks.K_GS_KI + n],
    ):
        b = 97.0 * abs(r[2]) * 1e6 / (J_DRIVE * OMEGA0)  # rad/s^2 of rotor per rad of pitch
        assert math.sqrt(ki * b) == pytest.approx(0.4, rel=1e-3)
        assert kp * b / (2.0 * 0.4) == pytest.approx(0.7, rel=1e-3)
    # the floating-feedback schedule: (dP/dU) / (dP/dtheta) on the wind, the estimator's table
    nf = int(c[ks.K_FL_N])
    assert c[ks.K_FL_KP] == 0.0 and nf == n
    st = np.zeros(ks.N_CTRL)
    st[ks.C_WIND] = 18.0
    # ROSCO's sign (its pitch adds -Fl_Kp times the downwind velocity): to feather downwind
    assert ks.fl_gain(c, st) == pytest.approx(-1.510 / -64.59, rel=1e-12)
    st[ks.C_WIND] = 5.0  # held below the table
    assert ks.fl_gain(c, st) == pytest.approx(-1.223 / -18.49, rel=1e-12)


def _rigid_loop(vals: dict, theta0: float, dpdth: float, *, n: int, dt: float = 0.01,
                e0: float = 5e-4):  # fmt: skip
    """The compiled controller on a rigid drivetrain J dW/dt = Q_aero - N Q_gen, the
    aerodynamic torque linear in pitch about ``theta0`` (dP/dtheta / W0), region 3 at constant
    torque, filter off, from an overspeed ``e0`` of rated at ``theta0``; returns the speed errors
    and the controller's states."""
    vals = {**CONTROLLER_PRESETS["oc3_hywind"], **vals, "corner_freq": 1.0e4}
    ld = ServoDyn(rotor=0, nacelle=0, axis=(1.0, 0.0, 0.0), gearbox_ratio=97.0,
                  pitch=[theta0] * 3, controller=vals, controller_dt=dt)  # fmt: skip
    m = ld.memory(1, 0.0, dt, n)
    par = ld._params(m, 9.80665)
    c = controller_parameters(vals)
    w_ref = c[ks.K_PC_REFSPD] / 97.0
    w = w_ref * (1.0 + e0)
    es = []
    for k in range(n):
        meas = m.pitch_cmd[k - 1, 0].copy() if k else np.full(3, theta0)
        if k:
            m.pitch_cmd[k, 0] = m.pitch_cmd[k - 1, 0]
            m.ctrl[k, 0] = m.ctrl[k - 1, 0]
        ks.baseline_controller(par.ctrl, m, k, 0, k * dt, 97.0 * w, meas, 0.0)
        es.append(w - w_ref)
        th = m.pitch_cmd[k, 0, 0]
        w += dt * (dpdth / OMEGA0 * (th - theta0)) / J_DRIVE
    return np.array(es), m.ctrl[:, 0], m.pitch_cmd[:, 0, 0]


@pytest.mark.parametrize("wind", [14.0, 18.0, 22.0])
def test_scheduled_loop_has_the_designed_poles_at_each_operating_point(wind):
    """At each operating point the scheduled PI loop on the rotor's own sensitivity there is the
    designed second-order system (0.4 rad/s, 0.7): the speed error from a 0.05 % overspeed
    follows e0 exp(-zeta wn t) (cos wd t - zeta wn / wd sin wd t) to 2 % of e0 (the gains move a
    little with the pitch during the response)."""
    r = next(r for r in NREL5MW_BEM_OPERATING_POINTS if r[0] == wind)
    theta0, dpdth = math.radians(r[1]), r[2] * 1e6
    dt, n = 0.005, 8000
    es, _, _ = _rigid_loop(scheduled_gains(0.4, 0.7, 0.0), theta0, dpdth, n=n, dt=dt)
    t = np.arange(n) * dt
    wn, zeta = 0.4, 0.7
    wd = wn * math.sqrt(1.0 - zeta**2)
    e0 = es[0]
    expect = e0 * np.exp(-zeta * wn * t) * (np.cos(wd * t) - zeta * wn / wd * np.sin(wd * t))
    assert np.abs(es - expect).max() <= 0.02 * abs(e0)


def test_estimator_steady_state_is_the_wind():
    """The operating point's estimate settles at the wind whose rated-power pitch the loop holds:
    on a rigid drivetrain at 16 m/s's operating point (the aerodynamic torque balancing rated at
    its pitch), started 3 deg below it, after 120 s the pitch is that wind's and the estimate
    is 16 m/s to 1e-3 m/s; with the low-pass of ``op_corner_freq`` in between."""
    r = next(r for r in NREL5MW_BEM_OPERATING_POINTS if r[0] == 16.0)
    theta_u, dpdth = math.radians(r[1]), r[2] * 1e6
    vals = scheduled_gains(0.4, 0.7, 0.0)
    ld_vals = {**CONTROLLER_PRESETS["oc3_hywind"], **vals, "corner_freq": 1.0e4}
    dt, n = 0.01, 12000
    ld = ServoDyn(rotor=0, nacelle=0, axis=(1.0, 0.0, 0.0), gearbox_ratio=97.0,
                  pitch=[theta_u - math.radians(3.0)] * 3, controller=ld_vals,
                  controller_dt=dt)  # fmt: skip
    m = ld.memory(1, 0.0, dt, n)
    par = ld._params(m, 9.80665)
    c = controller_parameters(ld_vals)
    w_ref = c[ks.K_PC_REFSPD] / 97.0
    w = w_ref
    wind = []
    for k in range(n):
        meas = m.pitch_cmd[k - 1, 0].copy() if k else np.full(3, theta_u - math.radians(3.0))
        if k:
            m.pitch_cmd[k, 0] = m.pitch_cmd[k - 1, 0]
            m.ctrl[k, 0] = m.ctrl[k - 1, 0]
        ks.baseline_controller(par.ctrl, m, k, 0, k * dt, 97.0 * w, meas, 0.0)
        wind.append(m.ctrl[k, 0, ks.C_WIND])
        th = m.pitch_cmd[k, 0, 0]
        w += dt * (dpdth / OMEGA0 * (th - theta_u)) / J_DRIVE
    assert wind[0] == pytest.approx(np.interp(theta_u - math.radians(3.0),
                                              np.radians([q[1] for q in NREL5MW_BEM_OPERATING_POINTS]),
                                              [q[0] for q in NREL5MW_BEM_OPERATING_POINTS]))  # fmt: skip
    assert wind[-1] == pytest.approx(16.0, abs=1e-3)
    assert m.pitch_cmd[n - 1, 0, 0] == pytest.approx(theta_u, abs=1e-5)


def test_schedule_refusals():
    """A schedule with a missing column, unequal lengths, a pitch that does not increase, more
    than N_TAB entries, or a feedback schedule without its operating point is refused in one
    line naming the field."""
    base = scheduled_gains(0.4, 0.7, 1.0)
    bad = [
        ({**base, "pc_gs_ki": None}, "pc_gs_ki"),
        ({**base, "pc_gs_kp": base["pc_gs_kp"][:-1]}, "pc_gs_kp"),
        ({**base, "pc_gs_pitch": base["pc_gs_pitch"][::-1]}, "pc_gs_pitch"),
        ({**base, "op_pitch": None, "op_wind": None}, "fl_wind"),
        ({**base, "fl_kp": 0.01}, "fl_kp"),
        ({**base, "pc_gs_pitch": list(np.linspace(0, 0.4, 40)), "pc_gs_kp": [0.01] * 40,
          "pc_gs_ki": [0.001] * 40}, "pc_gs_pitch"),
    ]  # fmt: skip
    for vals, field in bad:
        with pytest.raises(CaseError) as exc:
            _params(vals)
        assert field in str(exc.value) and "\n" not in str(exc.value)


def _model(tmp_path, *, batch_pitch: list[float] | None, t_max: float, wind: float = 18.0,
           preset: str = "oc3_hywind_scheduled"):  # fmt: skip
    """test_servo's controlled ref09 (GenDOF, 12.1 rpm, blades at 15 deg) with the
    ``preset`` (``oc3_hywind_scheduled``), batched over the platform's initial pitch offsets
    ``batch_pitch`` (deg)."""
    from floatwind.case.openfast import model_from_deck

    fst, res = _controlled_ref09(tmp_path / f"b{len(batch_pitch or [])}", wind=wind,
                                 pitch_deg=15.0, preset=preset)  # fmt: skip
    case = res["case"]
    case["simulation"].update(t_max=t_max, dt_out=0.25)
    if batch_pitch:
        d0 = list(case.get("initial", {}).get("displacement", [0.0, 0.0, 0.0]))
        case.setdefault("initial", {})["displacement"] = [d0] * len(batch_pitch)
        ini = case["initial"]
        a0 = [math.radians(v) for v in ini.pop("angles_deg", [0.0, 0.0, 0.0])]
        a0 = list(ini.get("angles", a0))
        ini["angles"] = [[a0[0], a0[1] + math.radians(p), a0[2]] for p in batch_pitch]
    return model_from_deck(fst, result=res)


@pytest.mark.skipif(not REF09.is_dir(), reason="no shared reference decks")
def _assert_first_member_is_the_run_alone(alone, both) -> None:
    """Every batched variable of ``both`` (a batch of 2) at member 0 equals ``alone`` bit for bit
    (at least 4 such variables)."""
    n = 0
    for name in alone.data_vars:
        a = np.asarray(alone[name].values)
        b = both[name]
        bdim = [d for d in b.dims if d != "time" and b.sizes[d] == 2]
        if not bdim:
            continue
        b = np.asarray(b.isel({bdim[0]: 0}).values)
        assert np.array_equal(a.reshape(b.shape), b, equal_nan=True), name
        n += 1
    assert n >= 4


def test_scheduled_controller_on_the_spar_batch_member_is_the_run_alone(tmp_path):
    """The controlled ref09 spar (BEM rotor, GenDOF) in a steady 18 m/s with the
    ``oc3_hywind_scheduled`` preset (every schedule on: gains on the pitch, the operating point,
    ROSCO's floating feedback scheduled on it and low-passed, region-3 torque feedback): a
    batch of two (the platform level and pitched 3 deg) gives member 0 bit for bit
    the run alone, every channel; the rotor speed stays within 10 % of rated; the pitch settles
    toward the rated-power pitch of 18 m/s, so the estimate reads 18 m/s within 0.5 m/s."""
    from floatwind.simulate.run import simulate

    alone = simulate(_model(tmp_path, batch_pitch=None, t_max=20.0), progress=False)
    both = simulate(_model(tmp_path, batch_pitch=[0.0, 3.0], t_max=20.0), progress=False)
    _assert_first_member_is_the_run_alone(alone, both)
    w = alone["QD_shaft"].values.ravel() / OMEGA0
    assert np.all(np.abs(w - 1.0) < 0.10)
    pitch = np.degrees(alone["BldPitch1"].values.ravel())
    ops = NREL5MW_BEM_OPERATING_POINTS
    est = np.interp(pitch[-20:].mean(), [r[1] for r in ops], [r[0] for r in ops])
    assert est == pytest.approx(18.0, abs=0.5)


def test_region3_torque_feedback_at_its_limits():
    """``vs_rgn3_kp``: in region 3 the torque is rated plus the gain times the filtered HSS speed
    error, within +-(VS_MaxTq - rated) of rated; 0 leaves region 3's constant torque exactly."""
    kp = 700.0
    for gain in (0.0, kp):
        vals = {**CONTROLLER_PRESETS["oc3_hywind"], "corner_freq": 1.0e4, "vs_rgn3_kp": gain}
        c = controller_parameters(vals)
        q0 = c[ks.K_VS_RTPWR] / c[ks.K_PC_REFSPD]
        for rel in (1.02, 0.97, 1.2, 0.8):
            ld = ServoDyn(rotor=0, nacelle=0, axis=(1.0, 0.0, 0.0), gearbox_ratio=97.0,
                          pitch=[0.2] * 3, controller=vals, controller_dt=0.01)  # fmt: skip
            m = ld.memory(1, 0.0, 0.01, 2)
            par = ld._params(m, 9.80665)
            w = rel * c[ks.K_PC_REFSPD]
            ks.baseline_controller(par.ctrl, m, 0, 0, 0.0, w, np.full(3, 0.2), 0.0)
            tq = m.ctrl[0, 0, ks.C_GENTQ]
            want = q0 + gain * (w - c[ks.K_PC_REFSPD])
            want = min(max(want, 2.0 * q0 - c[ks.K_VS_MAXTQ]), c[ks.K_VS_MAXTQ])
            assert tq == pytest.approx(want, rel=1e-12)
            if gain == 0.0:
                assert tq == q0


def test_floating_feedback_lowpass_is_the_second_order_filter():
    """``fl_corner_freq``/``fl_damping``: the hub velocity through ROSCO's second-order low-pass
    (bilinear): DC gain 1, and at its natural frequency with damping 1 the gain 1 / (2 zeta) =
    0.5 and a phase lag of 90 deg (to 1 % and 1 deg, 100 calls a period)."""
    wn = 0.2325
    c = _params({"fl_corner_freq": wn, "fl_damping": 1.0})
    assert c[ks.K_FL_LPF_W] == wn and c[ks.K_FL_LPF_Z] == 1.0
    st = np.zeros(ks.N_CTRL)
    assert ks._fl_lowpass(c, st, 0.7, 0.1, True) == 0.7
    for _ in range(50):
        y = ks._fl_lowpass(c, st, 0.7, 0.1, False)
    assert y == pytest.approx(0.7, rel=1e-12)
    dt = 2.0 * math.pi / wn / 100.0
    t = np.arange(4000) * dt
    x = np.sin(wn * t)
    y = np.empty_like(x)
    y[0] = ks._fl_lowpass(c, st, x[0], dt, True)
    for i in range(1, len(t)):
        y[i] = ks._fl_lowpass(c, st, x[i], dt, False)
    tail = slice(2000, None)  # settled
    amp = np.abs(np.fft.rfft(y[tail]))[20] / np.abs(np.fft.rfft(x[tail]))[20]
    ph = np.angle(np.fft.rfft(y[tail])[20] / np.fft.rfft(x[tail])[20])
    assert amp == pytest.approx(0.5, rel=0.01)
    assert math.degrees(ph) == pytest.approx(-90.0, abs=1.0)
    with pytest.raises(CaseError, match="fl_corner_freq"):
        _params({"fl_corner_freq": -1.0})


def test_omega_scheduled_on_the_wind():
    """``scheduled_gains`` with omega a list of (wind, omega): the loop frequency interpolated on
    the wind and held beyond (0.3 rad/s up to 14 m/s, 0.6 from 18 m/s: 0.45 at 16 m/s), KI as
    omega^2 and KP as omega against the constant design."""
    a = scheduled_gains([(14.0, 0.3), (18.0, 0.6)], 0.7, 1.0)
    b = scheduled_gains(0.6, 0.7, 1.0)
    winds = [r[0] for r in NREL5MW_BEM_OPERATING_POINTS if r[0] >= 12.0]
    for u, ka, kb, pa, pb in zip(winds, a["pc_gs_ki"], b["pc_gs_ki"], a["pc_gs_kp"], b["pc_gs_kp"]):
        om = float(np.interp(u, [14.0, 18.0], [0.3, 0.6]))
        assert ka / kb == pytest.approx((om / 0.6) ** 2, rel=1e-12)
        assert pa / pb == pytest.approx(om / 0.6, rel=1e-12)
    assert a["fl_kp"] == b["fl_kp"] and a["op_wind"] == b["op_wind"]


# --- the torque-balance wind estimator and peak shaving (ROSCO WE_Mode 1, PS_Mode) ---


def _ps_params(**over) -> np.ndarray:
    return controller_parameters({**CONTROLLER_PRESETS["oc3_hywind_peak_shaving"], **over},
                                 gearbox_ratio=97.0)  # fmt: skip


def test_torque_balance_estimator_converges_at_its_designed_rate():
    """ROSCO's immersion-and-invariance estimator (``_wind_estimate``) at a frozen operating
    point (rotor speed, pitch and generator torque held; the generator torque balancing the
    table's aerodynamic torque at 16 m/s): started high, the estimate falls back to 16 m/s
    as exp(-gamma (dQ/dU) / J t) (the linearised invariance, to 2 % of the error at one time
    constant), and ends at the torque balance's wind to 1e-6 m/s."""
    c = _ps_params()
    om = OMEGA0
    th = math.radians(11.992)
    q = ks.aero_torque(c, om, 16.0, th)
    assert ks.balance_wind(c, om, th, q) == pytest.approx(16.0, abs=1e-9)
    dq = (ks.aero_torque(c, om, 16.01, th) - ks.aero_torque(c, om, 15.99, th)) / 0.02
    rate = c[ks.K_WE_GAMMA] * dq / c[ks.K_WE_J]
    st = np.zeros(ks.N_CTRL)
    ks._wind_estimate(c, st, om, th, q, 0.0, True)
    assert st[ks.C_WEV] == pytest.approx(16.0, abs=1e-9)
    st[ks.C_WEVI] += 0.05  # a small error: the linearised rate
    st[ks.C_WEV] += 0.05
    dt = 0.001
    n_tau = int(round(1.0 / rate / dt))
    for _ in range(n_tau):
        ks._wind_estimate(c, st, om, th, q, dt, False)
    assert st[ks.C_WEV] - 16.0 == pytest.approx(0.05 * math.exp(-1.0), rel=0.02)
    st[ks.C_WEVI] += 2.0  # a large one
    st[ks.C_WEV] += 2.0
    for _ in range(20 * n_tau):
        ks._wind_estimate(c, st, om, th, q, dt, False)
    assert st[ks.C_WEV] == pytest.approx(16.0, abs=1e-6)


@pytest.mark.parametrize("wind", [11.0, 16.0])
def test_estimator_and_peak_shaving_on_a_rigid_drivetrain(wind):
    """The compiled controller (``oc3_hywind_peak_shaving``) closing a rigid drivetrain J dW/dt =
    Q_aero(W, U, theta) - N Q_gen whose aerodynamic torque is the estimator's own C_P table, in a
    steady wind: the estimate (raw and low-passed) settles at the wind to 1e-3 m/s; at 16 m/s
    the pitch at the table's pitch of rated speed and torque, above the peak-shaving limit;
    at 11 m/s (below rated, where the rotor's thrust peaks) the pitch on the peak-shaving
    minimum at the estimate, 2.3 deg, instead of 0."""
    c = _ps_params()
    dt, n = 0.0125, int(240.0 / 0.0125)
    theta0 = math.radians(9.0 if wind > 12.0 else 0.0)
    ld = ServoDyn(rotor=0, nacelle=0, axis=(1.0, 0.0, 0.0), gearbox_ratio=97.0,
                  pitch=[theta0] * 3, controller=CONTROLLER_PRESETS["oc3_hywind_peak_shaving"],
                  controller_dt=dt)  # fmt: skip
    m = ld.memory(1, 0.0, dt, n)
    par = ld._params(m, 9.80665)
    assert np.array_equal(par.ctrl, c)
    om = OMEGA0
    for k in range(n):
        meas = m.pitch_cmd[k - 1, 0].copy() if k else np.full(3, theta0)
        if k:
            m.pitch_cmd[k, 0] = m.pitch_cmd[k - 1, 0]
            m.ctrl[k, 0] = m.ctrl[k - 1, 0]
        ks.baseline_controller(c, m, k, 0, k * dt, 97.0 * om, meas, 0.0)
        qa = ks.aero_torque(c, om, wind, m.pitch_cmd[k, 0, 0])
        om += dt * (qa - 97.0 * m.ctrl[k, 0, ks.C_GENTQ]) / c[ks.K_WE_J]
    st = m.ctrl[n - 1, 0]
    th = m.pitch_cmd[n - 1, 0, 0]
    assert st[ks.C_WEV] == pytest.approx(wind, abs=1e-3)
    assert st[ks.C_WIND] == pytest.approx(wind, abs=1e-3)
    ps = peak_shaving(0.8)
    floor = float(np.interp(wind, ps["ps_wind"], ps["ps_minpit"]))
    assert st[ks.C_PSMIN] == pytest.approx(floor, abs=1e-4)
    if wind > 12.0:
        assert om == pytest.approx(OMEGA0, rel=1e-4)
        q0 = c[ks.K_VS_RTPWR] / c[ks.K_PC_REFSPD]
        assert ks.aero_torque(c, om, wind, th) == pytest.approx(97.0 * q0, rel=1e-4)
        assert th > floor + math.radians(2.0)
    else:
        assert math.degrees(th) == pytest.approx(2.28, abs=0.02)
        assert th == pytest.approx(floor, abs=1e-9)
        assert om < OMEGA0


def test_peak_shaving_schedule_at_its_breakpoints_and_its_design():
    """``min_pitch`` is the schedule's value at each breakpoint, linear between, held at the
    ends, never below ``pc_minpit``; without a schedule it is ``pc_minpit``. The design
    (``peak_shaving``): where the rotor's steady thrust exceeds 80 % of its largest (around
    rated, 11.4 m/s), C_T at the operating tip-speed ratio and the minimum pitch gives the cap
    (to the 0.01 deg search step); elsewhere the minimum pitch is below the operating pitch."""
    c = _ps_params()
    ps = peak_shaving(0.8)
    for u, p in zip(ps["ps_wind"], ps["ps_minpit"]):
        assert ks.min_pitch(c, u) == p
    u = ps["ps_wind"]
    p = ps["ps_minpit"]
    for i in range(len(u) - 1):
        assert ks.min_pitch(c, 0.5 * (u[i] + u[i + 1])) == pytest.approx(0.5 * (p[i] + p[i + 1]),
                                                                          rel=1e-12, abs=1e-15)
    assert ks.min_pitch(c, 0.0) == p[0] and ks.min_pitch(c, 40.0) == p[-1]
    c2 = _ps_params(pc_minpit=math.radians(5.0))
    assert ks.min_pitch(c2, 11.4) == math.radians(5.0)
    assert ks.min_pitch(c2, 20.0) == pytest.approx(max(math.radians(5.0), np.interp(20.0, u, p)))
    assert ks.min_pitch(_params({}), 11.4) == 0.0
    thrust = np.array(ps["thrust"])
    cap = 0.8 * thrust.max()
    assert u[int(np.argmax(thrust))] == 11.4
    from floatwind.loads.servo import rotor_cp_ct_table

    tsr, pitch, _cp, ct = rotor_cp_ct_table()
    ops = NREL5MW_BEM_OPERATING_POINTS
    for ui, pi, ti in zip(u, p, thrust):
        lam = min(max(7.5 * ui / 63.0, 670.0 / 97.0 * RPM), OMEGA0) * 63.0 / ui
        col = [np.interp(lam, tsr, ct[:, j]) for j in range(len(pitch))]
        t_at = 0.5 * 1.225 * math.pi * 63.0**2 * ui**2 * np.interp(pi, pitch, col)
        op = math.radians(np.interp(ui, [r[0] for r in ops], [r[1] for r in ops], left=0.0))
        if ti > cap:
            assert t_at == pytest.approx(cap, rel=0.003) and pi > op
        elif pi > 0.0:
            assert pi < op + 1e-12 or t_at == pytest.approx(cap, rel=0.003)


def test_estimator_and_peak_shaving_refusals():
    """The estimator without its table, the table without the estimator, peak shaving without
    the estimator, both wind estimates at once, a C_P table of the wrong shape, too many pitch
    entries, a negative gain: each refused in one line naming the field."""
    base = dict(CONTROLLER_PRESETS["oc3_hywind_peak_shaving"])
    plain = {**CONTROLLER_PRESETS["oc3_hywind"]}
    bad = [
        ({**base, "we_cp": None}, "we_cp"),
        ({**base, "we_tsr": None}, "we_tsr"),
        ({**plain, "we_tsr": base["we_tsr"], "we_pitch": base["we_pitch"],
          "we_cp": base["we_cp"]}, "we_gamma"),
        ({**plain, "ps_wind": base["ps_wind"], "ps_minpit": base["ps_minpit"]}, "ps_wind"),
        ({**base, "op_pitch": [0.0, 0.1], "op_wind": [11.4, 13.0]}, "op_pitch"),
        ({**base, "we_cp": base["we_cp"][:-1]}, "we_cp"),
        ({**base, "we_cp": [r[:-1] for r in base["we_cp"]]}, "we_cp"),
        ({**base, "we_pitch": list(np.linspace(0.0, 0.5, 49)),
          "we_cp": [[0.4] * 49 for _ in base["we_tsr"]]}, "we_pitch"),
        ({**base, "we_gamma": -1.0}, "we_gamma"),
        ({**base, "we_inertia": 0.0}, "we_inertia"),
        ({**base, "ps_minpit": base["ps_minpit"][:-1]}, "ps_minpit"),
    ]  # fmt: skip
    for vals, field in bad:
        with pytest.raises(CaseError) as exc:
            controller_parameters(vals, gearbox_ratio=97.0)
        assert field in str(exc.value) and "\n" not in str(exc.value), (field, str(exc.value))


@pytest.mark.skipif(not REF09.is_dir(), reason="no shared reference decks")
def test_peak_shaving_controller_on_the_spar_batch_member_is_the_run_alone(tmp_path):
    """The controlled ref09 spar in a steady 14 m/s with ``oc3_hywind_peak_shaving`` (the
    torque-balance estimate, peak shaving, the scheduled floating feedback on that estimate): a
    batch of two (the platform level and pitched 3 deg) gives member 0 bit for bit the run
    alone, every channel; the rotor speed stays within 10 % of rated."""
    from floatwind.simulate.run import simulate

    kw = dict(t_max=10.0, wind=14.0, preset="oc3_hywind_peak_shaving")
    alone = simulate(_model(tmp_path, batch_pitch=None, **kw), progress=False)
    both = simulate(_model(tmp_path, batch_pitch=[0.0, 3.0], **kw), progress=False)
    _assert_first_member_is_the_run_alone(alone, both)
    w = alone["QD_shaft"].values.ravel() / OMEGA0
    assert np.all(np.abs(w - 1.0) < 0.10)
