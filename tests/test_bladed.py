"""The Bladed-style controller interface (issue 36; docs/control.md "A controller library").

Against a tiny controller compiled here from C (tests/data/control/test_law.c: torque K w^2, a
pitch ramp counting its own calls, a failure at a time read from its input file), so that the
interface is checked without ROSCO: the demands reach the drivetrain and the blades at DLL_DT
and are held between calls; each batch member has its own library state (a member alone and in
a batch give the same bits); compiled == NumPy; a failing controller stops the run after its
call with its message and keeps the partial record; bad input is refused in one line; the
library and its input file are inputs of the run (protected). With ROSCO installed (``pip
install -e ".[control]"``), its library runs the same drivetrain from our DISCON.IN.
"""

from __future__ import annotations

import pathlib
import shutil
import subprocess

import numpy as np
import pytest

from floatwind.errors import CaseError, SimulationError
from tests.test_servo import RATIO, _case, _run

HERE = pathlib.Path(__file__).parent
SOURCE = HERE / "data" / "control" / "test_law.c"
DISCON_IN = pathlib.Path(__file__).parents[1] / "cases" / "control" / "NREL5MW_ROSCO_DISCON.IN"
K = 0.5  # N m / (rad/s)^2 of the test law
#: the records the test law logs (tests/data/control/test_law.c), in its order
LOGGED = (4, 20, 21, 24, 27, 30, 31, 32, 37, 53, 54, 60, 69, 70, 71, 73, 74, 75, 76, 82, 83, 84,
          77, 78)  # fmt: skip
#: the drivetrain of tests.test_servo has no nacelle mass on its base body (records 77-78)
NO_NACELLE = {"mass": 0.0, "cm": [0.0, 0.0, 0.0]}


@pytest.fixture(scope="module")
def law(tmp_path_factory):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler to build the test controller")
    d = tmp_path_factory.mktemp("law")
    lib = d / "liblaw.so"
    subprocess.run([cc, "-shared", "-fPIC", "-O2", "-o", str(lib), str(SOURCE)], check=True)
    (d / "law.in").write_text(f"{K} 1e30\n")
    return lib, d / "law.in"


def _servo(lib, infile, dt=0.02, **kw):
    return {"pitch": {"initial": [0.0, 0.0, 0.0]}, "nacelle_mass": NO_NACELLE,
            "controller": {"kind": "dll", "library": str(lib), "input": str(infile), "dt": dt,
                           **kw}}  # fmt: skip


def test_demands_reach_the_drivetrain_at_dll_dt(law):
    """GenTq = K w^2 of the generator speed at the last call (every DLL_DT = 2 steps), held in
    between; GenPwr = GenEff GenTq w; the collective pitch is the library's (0.01 + 0.001 n
    DLL_DT after its n-th call)."""
    lib, infile = law
    d = _case({**_servo(lib, infile), "efficiency": 0.9}, t_max=1.0)
    ds = _run(d)
    t = ds["time"].values
    w = ds["GenSpeed"].values
    tq = ds["GenTq"].values
    k = np.rint(t / 0.01).astype(int)
    call = (k // 2) * 2  # the step of the last call
    w_call = np.interp(call * 0.01, t, w)
    assert np.allclose(tq, np.float32(K * w_call**2), rtol=1e-6)  # single-precision record
    assert np.ptp(tq) > 1.0  # the speed, hence the torque, changes
    assert np.allclose(ds["GenPwr"].values, 0.9 * tq * w, rtol=1e-12)
    pitch = ds["BlPitchC1"].values
    n = call // 2 + 1  # calls made up to t (the first at t = 0)
    assert np.allclose(pitch, np.float32(0.01 + 0.001 * n * 0.02), rtol=1e-6)
    assert np.array_equal(ds["BldPitch3"].values, pitch)
    assert np.allclose(ds["GenSpeed"].values, RATIO * ds["QD_shaft"].values, rtol=1e-12)


def test_each_member_has_its_own_library_state_and_numpy_agrees(law):
    """A batch of 3 loads 3 copies: a member equals the run alone bit for bit (with one shared
    copy the call counter, hence the pitch ramp, would run 3 times as fast); the NumPy stepping
    gives the same record."""
    lib, infile = law
    d = _case(_servo(lib, infile), t_max=0.5)
    one = _run(d)
    many = _run(d, batch=3)
    for ch in ("GenTq", "BlPitchC1", "QD_shaft"):
        assert many[ch].values.shape[0] == 3
        for b in range(3):
            assert np.array_equal(many[ch].values[b], one[ch].values), ch
    numpy = _run(d, fused=False)
    for ch in ("GenTq", "BlPitchC1", "QD_shaft"):
        assert np.allclose(numpy[ch].values, one[ch].values, rtol=1e-12, atol=1e-12), ch


def test_a_failing_controller_stops_the_run_with_its_message(law, tmp_path):
    lib, _ = law
    infile = tmp_path / "fail.in"
    infile.write_text(f"{K} 0.3\n")  # fails at its call at t = 0.3
    d = _case(_servo(lib, infile, dt=0.05), t_max=1.0)
    with pytest.raises(SimulationError) as info:
        _run(d)
    err = info.value
    msg = str(err)
    assert "test law: told to fail at t = 0.3" in msg and "aviFAIL = -1" in msg
    assert "\n" not in err.reason and err.time == pytest.approx(0.3)
    assert err.partial is not None
    ds = err.dataset
    assert ds["time"].values[-1] == pytest.approx(0.3) and ds.sizes["time"] == 31
    assert np.isfinite(ds["GenTq"].values).all()


def test_the_cli_keeps_the_partial_record(law, tmp_path, capsys):
    import yaml

    from floatwind.cli import main

    lib, _ = law
    infile = tmp_path / "fail.in"
    infile.write_text(f"{K} 0.2\n")
    case = tmp_path / "c.yaml"
    case.write_text(yaml.safe_dump(_case(_servo(lib, infile, dt=0.05), t_max=1.0)))
    out = tmp_path / "r.nc"
    assert main(["run", str(case), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "told to fail at t = 0.2" in err and out.is_file()
    import xarray as xr

    with xr.open_dataset(out) as ds:
        assert ds["time"].values[-1] == pytest.approx(0.2)


def test_bad_input_is_refused_in_one_line(law, tmp_path):
    lib, infile = law
    text = tmp_path / "libnot.so"
    text.write_text("not a library\n")
    cases = [
        ({"library": str(tmp_path / "missing.so")}, "controller.library", "not found"),
        ({"library": str(text)}, "controller.library", "cannot be loaded"),
        ({"input": str(tmp_path / "missing.in")}, "controller.input", "not found"),
        ({"proc": "NOPE"}, "controller.proc", "has no procedure 'NOPE'"),
        ({"pitch_control": "cyclic"}, "controller.pitch_control", "collective"),
        ({"oops": 1}, "controller", "oops"),
    ]
    for edit, field, words in cases:
        s = _servo(lib, infile)
        s["controller"].update(edit)
        with pytest.raises(CaseError) as info:
            _run(_case(s, t_max=0.1))
        assert field in str(info.value) and words in str(info.value), (edit, str(info.value))
        assert "\n" not in str(info.value)
    s = _servo(lib, infile, dt=0.015)  # not a multiple of the 0.01 s step
    with pytest.raises(CaseError, match="not a multiple"):
        _run(_case(s, t_max=0.1))
    s = {**_servo(lib, infile), "generator": {"model": "induction", "sync_speed_rpm": 1200.0,
                                               "rated_slip": 0.02, "rated_torque": 2e3,
                                               "pullout_ratio": 2.0}}  # fmt: skip
    with pytest.raises(CaseError, match="commands the generator torque"):
        _run(_case(s, t_max=0.1))


def test_the_library_and_its_input_are_protected(law, tmp_path, capsys):
    import yaml

    from floatwind.cli import main
    from floatwind.io.safe import input_files

    lib, infile = law
    case = tmp_path / "c.yaml"
    case.write_text(yaml.safe_dump(_case(_servo(lib, infile), t_max=0.1)))
    names = {p.name for p in input_files(case)}
    assert {lib.name, infile.name} <= names
    before = lib.read_bytes()
    assert main(["run", str(case), "-o", str(lib), "--overwrite"]) == 2
    assert "is an input of this run" in capsys.readouterr().err
    assert lib.read_bytes() == before


def test_rosco_runs_the_drivetrain():
    """ROSCO's own library (the optional extra) with our NREL 5-MW DISCON.IN on the rigid
    drivetrain: it initialises, commands a positive torque below its maximum and a pitch within
    its limits, and a batch member equals the run alone (one ROSCO state per member)."""
    from floatwind.loads.bladed import rosco_library

    if rosco_library() is None:
        pytest.skip("rosco is not installed (pip install -e '.[control]')")
    s = {"pitch": {"initial": [0.0, 0.0, 0.0]}, "nacelle_mass": NO_NACELLE,
         "controller": {"kind": "dll", "library": "rosco", "input": str(DISCON_IN),
                        "dt": 0.01}}  # fmt: skip
    d = _case(s, q_aero=4.2e6, t_max=0.5, w0=1.2)
    one = _run(d)
    tq = one["GenTq"].values
    assert (tq[1:] > 0.0).all() and (tq <= 47402.91 * 1.0001).all()
    pitch = one["BlPitchC1"].values
    assert (pitch >= -1e-6).all() and (pitch <= np.pi / 2).all()
    two = _run(d, batch=2)
    assert np.array_equal(two["GenTq"].values[1], tq)


def test_a_gendof_deck_with_a_library_runs_plainly(law, tmp_path, capsys):
    """ref03 (yaw drive, no aero) with GenDOF = True and PCMode = VSContrl = 5 pointing at the
    test law (DLL_DT 0.05 s, relative names as ServoDyn resolves them): ``floatwind run
    DECK.fst`` runs it, GenTq is the library's K w^2 of the last call; PCMode = 5 without
    VSContrl = 5, DLL_Ramp = True are refused in one line each."""
    import xarray as xr

    from floatwind.cli import main
    from tests.test_servo import REF, _edit, _gendof_deck

    if not (REF / "ref03_yaw_spin").is_dir():
        pytest.skip("no shared reference decks")
    lib, _ = law
    fst = _gendof_deck(tmp_path, {"TimGenOn": "0", "VSContrl": "5", "PCMode": "5",
                                  "DLL_FileName": '"ctrl/liblaw.so"',
                                  "DLL_InFile": '"ctrl/law.in"', "DLL_DT": "0.05"})  # fmt: skip
    (fst.parent / "ctrl").mkdir()
    shutil.copyfile(lib, fst.parent / "ctrl" / "liblaw.so")
    (fst.parent / "ctrl" / "law.in").write_text(f"{K} 1e30\n")
    out = tmp_path / "gen.nc"
    assert main(["run", str(fst), "--tmax", "1", "-o", str(out), "--no-progress"]) == 0
    with xr.open_dataset(out) as ds:
        t = ds["time"].values
        w_gen = 97.0 * ds["RotSpeed"].values * np.pi / 30.0 if ds["RotSpeed"].attrs.get(
            "units") == "rpm" else 97.0 * ds["RotSpeed"].values  # fmt: skip
        call = np.floor(t / 0.05 + 1e-9) * 0.05
        expect = np.float32(K * np.interp(call, t, w_gen) ** 2)
        assert np.allclose(ds["GenTq"].values, expect, rtol=1e-5)
    for edits, words in (({"VSContrl": "0"}, "PCMode = 5"), ({"DLL_Ramp": "True"}, "DLL_Ramp")):
        _edit(fst.parent / "ServoDyn.dat", edits)
        assert main(["run", str(fst), "--tmax", "1", "-o", str(tmp_path / "x.nc"),
                     "--no-progress"]) == 2  # fmt: skip
        err = capsys.readouterr().err
        assert words in err
        _edit(fst.parent / "ServoDyn.dat", {"VSContrl": "5", "DLL_Ramp": "False"})


def test_the_library_receives_the_rotor_and_nacelle_measurements(law, tmp_path):
    """ref09 (OC3-Hywind spar, BEM rotor, GenDOF, 2 deg platform pitch) in a uniform wind from 8
    deg with an operating gust (time-varying), the test law called every 0.025 s echoing what it
    receives: record 27 is the horizontal wind at the hub at the call (HorWindV, not the mean),
    24 and 37 the yaw error and yaw; 30-32 and 69-71 the blade-root moments of the rotor's own
    channels, 73-76 the hub moments (rotating and fixed: the same magnitude; the aerodynamic
    channels plus the rotor's weight and inertia in closed form: overhang weight, gyroscopic
    moments of the platform's pitch and yaw rates), 77-78 the yaw-bearing moments (the hub
    point's load carried to the yaw bearing plus the nacelle's weight, ElastoDyn's point
    nacelle), 60 the azimuth advancing with the shaft joint, 53 the tower-top fore-aft
    acceleration (the platform's translation and pitch accelerations carried to the yaw
    bearing, to the step's backward difference); a batch member's records, all of them, are
    the run alone's bit for bit."""
    import math

    from floatwind.case.openfast import model_from_deck
    from floatwind.environment.wind import OperatingGust, SteadyWind, TransientWind
    from floatwind.simulate.run import simulate
    from tests.test_servo import REF09, _controlled_ref09

    if not REF09.is_dir():
        pytest.skip("no shared reference decks")
    lib, _ = law
    fst, res = _controlled_ref09(tmp_path, wind=14.0, pitch_deg=8.0, preset="oc3_hywind",
                                 platform_pitch_deg=2.0)  # fmt: skip
    from floatwind.case.openfast.elastodyn import elastodyn_mass_properties

    mp = elastodyn_mass_properties(res["deck"])
    nac_cm = np.asarray(mp["nacelle"]["cm"]) + np.asarray(mp["geometry"]["platform_reference"])
    nacelle = {"mass": float(mp["nacelle"]["mass"]), "cm": [float(c) for c in nac_cm],
               "yaw_inertia": float(mp["nacelle"]["yaw_inertia_cm"])}  # fmt: skip
    log = tmp_path / "received.txt"
    infile = tmp_path / "echo.in"
    infile.write_text(f"2.332287 1e30 {log}\n")
    for ld in res["case"]["loads"]:
        if ld["type"] == "servodyn":
            ld["controller"] = {"kind": "dll", "library": str(lib), "input": str(infile),
                                "dt": 0.025}  # fmt: skip
            ld["tower_top"] = [0.0, 0.0, 87.6]  # the yaw bearing: ElastoDyn's TowerHt
            ld["nacelle_mass"] = nacelle  # ElastoDyn's point nacelle, as the importer sets it
    res["case"]["simulation"].update(t_max=1.0, dt_out=0.0125)
    model = model_from_deck(fst, result=res)
    heading = math.radians(8.0)
    base = SteadyWind(speed=14.0, heading=heading, ref_height=90.0, alpha=0.0)
    model.env.wind = TransientWind(base, gust=OperatingGust(start=0.0, vgust=4.0, period=1.0))
    ds = simulate(model, progress=False)
    rec = np.loadtxt(log)
    assert np.allclose(rec[:, 0], np.arange(41) * 0.025, atol=1e-6)  # every DLL_DT from t0
    t = np.arange(41) * 0.025  # (record 2 is single precision)
    r = {n: rec[:, i + 1] for i, n in enumerate(LOGGED)}
    tt = ds["time"].values
    idx = np.rint(t / 0.0125).astype(int)
    assert np.allclose(tt[idx], t, atol=1e-9)

    def ch(name):
        key = next(k for k in ds.data_vars if k.endswith(name))
        return ds[key].values.ravel()[idx]

    # record 27: the instantaneous horizontal wind at the hub (uniform field: anywhere)
    u = np.array([model.env.wind.velocity(float(x), np.array([[[0.0, 0.0, 90.0]]]))[0, 0]
                  for x in t])  # fmt: skip
    hor = np.hypot(u[:, 0], u[:, 1])
    assert np.ptp(hor) > 1.0  # the gust: the wind does vary
    assert np.allclose(r[27], hor, rtol=1e-6)
    # 24, 37: yaw error and yaw (the shaft's heading: the platform's small yaw)
    assert np.allclose(r[24] + r[37], heading, atol=1e-6)
    assert np.allclose(r[37], ch("PtfmYaw"), atol=2e-3)
    # speeds, pitch (as before)
    assert np.allclose(r[20], ch("GenSpeed"), rtol=1e-6)
    # blade-root moments: the rotor's channels (after the first call, which moves the pitch)
    for k in range(3):
        for rr, name in ((30 + k, f"RtAeroRootMyc{k + 1}"), (69 + k, f"RtAeroRootMxc{k + 1}")):
            c = ch(name)
            err = np.abs(r[rr][1:] - c[1:]).max() / np.ptp(c[1:])
            assert err < 1e-3, (name, err)
    assert r[30][1:].mean() > 1e6  # out-of-plane: the thrust's, millions of N m
    # hub moments (73-76): the rotor's aerodynamic moment (its hub-frame channels, rotating with
    # blade 1: the fixed frame turned by the azimuth) plus its weight and inertia (ElastoDyn's
    # LSSTip moments): the rotor's CM d = 0.4647 m upwind of the hub point on the shaft, tilted
    # 5 deg + the platform pitch: -m g d cos(tilt) about y_s; the spin axis carried by the
    # platform's pitch and yaw rates q, r (and their accelerations, records 83-84): -J_t dq/dt
    # - J_x W r about y_s, J_x W q - J_t dr/dt about z_s (J_x, J_t about and across the shaft)
    assert np.allclose(np.hypot(r[73], r[74]), np.hypot(r[75], r[76]), rtol=1e-5)
    psi = r[60]
    may, maz = ch("RtAeroMyh"), ch("RtAeroMzh")
    cp, sp = np.cos(psi), np.sin(psi)
    rotor = model.tree.bodies[1]
    shaft = np.array([math.cos(math.radians(5.0)), 0.0, -math.sin(math.radians(5.0))])
    jx, jt = shaft @ rotor.inertia_b @ shaft, rotor.inertia_b[1, 1]
    d_cm, m_r, g = rotor.cm_b @ shaft, rotor.mass, 9.80665
    w_rot, q, rr = r[21], ch("PtfmRVyi"), ch("PtfmRVzi")
    tilt = math.radians(5.0) + ch("PtfmPitch")
    my_s = d_cm * m_r * g * np.cos(tilt) - jt * r[83] - jx * w_rot * rr
    mz_s = jx * w_rot * q - jt * r[84]
    assert -d_cm * m_r * g > 4.9e5  # the overhang's weight: ~0.5 MN m
    assert np.abs(jx * w_rot * rr).max() > 0.15 * abs(d_cm) * m_r * g  # the yaw rate's gyro
    for rec_, aero, ref in ((r[75], may * cp - maz * sp, my_s), (r[76], may * sp + maz * cp, mz_s)):
        assert np.abs(rec_ - aero - ref)[1:].max() < 0.02 * abs(d_cm) * m_r * g
    # yaw-bearing moments (77-78): the hub point's load (moment: records 75-76 and the shaft
    # torque, aerodynamic less J_x dW/dt; force: aerodynamic plus the rotor's weight less its
    # inertia) carried to the yaw bearing B (87.6 m, the hub point P at (-5, 0, 90) m) plus the
    # nacelle's weight and inertia, on the platform (nacelle) axes
    th = ch("PtfmPitch")
    g_p = np.stack([g * np.sin(th), 0.0 * th, -g * np.cos(th)], 1)  # gravity, platform axes
    zs = np.array([-shaft[2], 0.0, shaft[0]])
    ys = np.array([0.0, 1.0, 0.0])
    ya, za = np.outer(cp, ys) + np.outer(sp, zs), np.outer(cp, zs) - np.outer(sp, ys)
    f_aero = (np.outer(ch("RtAeroFxh"), shaft) + ch("RtAeroFyh")[:, None] * ya
              + ch("RtAeroFzh")[:, None] * za)  # fmt: skip
    spin_up = np.r_[0.0, np.diff(w_rot) / 0.025]
    m_p = (np.outer(ch("RtAeroMxh") - jx * spin_up, shaft) + np.outer(r[75], ys)
           + np.outer(r[76], zs))  # fmt: skip
    p_b = np.array([-5.0, 0.0, 2.4])  # P - B
    a_b = np.stack([r[53], r[54], 0.0 * th], 1)  # the yaw bearing's acceleration
    a_g = a_b + np.outer(r[83], np.cross(ys, p_b + d_cm * shaft))  # the rotor's CM's
    f_p = f_aero + m_r * (g_p - a_g)
    m_b = m_p + np.cross(p_b, f_p)
    c_n = nac_cm - np.array([0.0, 0.0, 87.6])
    a_n = a_b + np.outer(r[83], np.cross(ys, c_n))
    m_b += np.cross(c_n, nacelle["mass"] * (g_p - a_n))
    scale = nacelle["mass"] * g * c_n[0]  # the nacelle's weight about the yaw bearing
    assert scale > 4e6
    assert np.abs(r[77] - m_b[:, 1])[1:].max() < 0.02 * scale, np.abs(r[77] - m_b[:, 1]).max()
    assert np.abs(r[78] - m_b[:, 2])[1:].max() < 0.02 * scale, np.abs(r[78] - m_b[:, 2]).max()
    # azimuth: advances with the shaft joint
    dq = np.diff(ch("Q_shaft"))
    daz = np.mod(np.diff(r[60]) + np.pi, 2 * np.pi) - np.pi
    assert np.allclose(daz, dq, atol=1e-5)
    # tower-top fore-aft acceleration: platform surge + pitch accelerations at the yaw bearing
    h = 87.6  # m above the PRP (ElastoDyn TowerHt of ref09)
    a_tt = ch("PtfmTAxi") + h * ch("PtfmRAyi")
    v_all = (ds["PtfmTVxi"].values + h * ds["PtfmRVyi"].values).ravel()
    bd = (v_all[idx[1:]] - v_all[idx[1:] - 1]) / 0.0125  # the step's backward difference
    assert np.abs(r[53][1:] - bd).max() < 1e-2 * np.ptp(a_tt)
    assert np.abs(r[53][1:] - a_tt[1:]).max() < 5e-2 * np.ptp(a_tt)
    # a batch of two (the second 1.5 m surged): each member measures its own motion; the first
    # is the run alone bit for bit, its records too (the copies log in member order per call)
    log.unlink()
    res["case"]["initial"]["displacement"] = [res["case"]["initial"]["displacement"],
                                              [1.5, 0.0, 0.0]]  # fmt: skip
    model2 = model_from_deck(fst, result=res)
    model2.env.wind = model.env.wind
    two = simulate(model2, progress=False)
    for name in ("GenTq", "BlPitchC1", "QD_shaft", "PtfmSurge", "RtAeroRootMyc1"):
        key = next(k for k in ds.data_vars if k.endswith(name))
        assert np.array_equal(two[key].values[0], ds[key].values.ravel()), name
    rec2 = np.loadtxt(log)
    assert np.array_equal(rec2[0::2], rec)  # member 0: the same records
    assert not np.allclose(rec2[1::2, 10], rec[:, 10])  # member 1: its own accelerations
    # the NumPy stepping sends the same records (single precision)
    from floatwind.simulate import fused as fz

    log.unlink()
    res["case"]["initial"]["displacement"] = res["case"]["initial"]["displacement"][0]
    model3 = model_from_deck(fst, result=res)
    model3.env.wind = model.env.wind
    old = fz.use_fused(False)
    try:
        simulate(model3, progress=False)
    finally:
        fz.use_fused(old)
    rec3 = np.loadtxt(log)
    assert np.allclose(rec3, rec, rtol=1e-5, atol=1e-3)
    # the blades' weight and inertia (blade_mass, as the importer sets it from ElastoDyn for a
    # deck with a library): the same run (the test law reads no root moment), records 30-32 and
    # 69-71 now the aerodynamic moments plus ElastoDyn's rigid blades' weight and inertial loads:
    # in-plane -S1 g.y_c ~ S1 g cos(7 deg) sin(psi_k), out-of-plane S1 g.x_c ~ S1 g (cos(pc)
    # sin(7 deg) + sin(pc) cos(7 deg) cos(psi_k)) with the 5 deg shaft tilt and the 2 deg platform
    # pitch, plus the centrifugal -(S2 + S1 R_h) W^2 sin(pc) cos(pc) (psi_k: blade k's azimuth,
    # record 60; W the rotor speed, record 21), the rotor's spin-up -(S2 + S1 R_h) dW/dt cos(pc)
    # in-plane (the test law's pitch step from 8 to 0.6 deg: ~0.08 rad/s^2) and the hub's
    # fore-aft acceleration -S1 cos(pc) a (record 53: ~1 m/s^2 after that step) and the
    # nacelle's nodding and yaw accelerations -S2 (a83 cos(psi_k) + a84 sin(psi_k)) and the
    # gyroscopic 2 S2 W (q sin(psi_k) - r cos(psi_k)) (q, r the platform's pitch and yaw rates)
    # out of plane
    from floatwind.case.openfast.elastodyn import elastodyn_mass_properties

    log.unlink()
    blades = elastodyn_mass_properties(res["deck"])["blades"]
    for ld in res["case"]["loads"]:
        if ld["type"] == "bem_rotor":
            ld["blade_mass"] = {k: [float(b[k]) for b in blades]
                                for k in ("mass", "first_moment", "second_moment")}  # fmt: skip
    model4 = model_from_deck(fst, result=res)
    model4.env.wind = model.env.wind
    simulate(model4, progress=False)
    rec4 = np.loadtxt(log)
    moved = [6, 7, 8, 13, 14, 15]  # the columns of records 30-32, 69-71
    rest = [i for i in range(rec.shape[1]) if i not in moved]
    assert np.array_equal(rec4[:, rest], rec[:, rest])
    s1, s2 = blades[0]["first_moment"], blades[0]["second_moment"]
    pc, tau, rh = math.radians(-2.5), math.radians(7.0), 1.5
    sg = s1 * 9.80665
    spin_up = np.gradient(r[21], 0.025)
    spin_up[0] = 0.0  # (no accelerations at the first call)
    for k in range(3):
        psi = r[60] + 2.0 * math.pi * k / 3.0
        mx = rec4[:, 13 + k] - rec[:, 13 + k]
        my = rec4[:, 6 + k] - rec[:, 6 + k]
        cf = -(s2 + s1 * rh) * r[21] ** 2 * math.sin(pc) * math.cos(pc)
        inplane = sg * math.cos(tau) * np.sin(psi) - (s2 + s1 * rh) * spin_up * math.cos(pc)
        assert np.abs(mx - inplane).max() < 0.03 * sg, k
        oop = sg * (math.cos(pc) * math.sin(tau) + math.sin(pc) * math.cos(tau) * np.cos(psi))
        nod = -s2 * (r[83] * np.cos(psi) + r[84] * np.sin(psi))  # the nacelle's nodding, yaw
        gyro = 2.0 * s2 * r[21] * (ch("PtfmRVyi") * np.sin(psi) - ch("PtfmRVzi") * np.cos(psi))
        assert np.abs(my - oop - cf + s1 * math.cos(pc) * r[53] - nod - gyro).max() < 0.02 * sg, k
        assert np.ptp(mx) > 0.5 * sg  # the blade's weight turns with it: 72 deg in 1 s


def test_a_split_deck_with_a_library_is_refused_in_one_line(law, tmp_path):
    """The blade bodies of a split deck turn on prescribed pitch joints: a library's pitch
    demand cannot drive them, so PCMode = 5 on a split import of an AeroDyn deck is refused in
    one line (a case file's bem_rotor with blade bodies refuses pitch_from the same way)."""
    import stat

    from floatwind.case.openfast import import_openfast
    from tests.test_servo import REF09, _edit

    if not REF09.is_dir():
        pytest.skip("no shared reference decks")
    lib, infile = law
    dst = tmp_path / "ref09"
    shutil.copytree(REF09, dst, ignore=shutil.ignore_patterns("*.out", "*.outb", "*.sum"))
    for p in dst.rglob("*"):
        p.chmod(p.stat().st_mode | stat.S_IWUSR)
    _edit(dst / "ElastoDyn.dat", {"GenDOF": "True"})
    _edit(dst / "ServoDyn.dat", {"GenTiStr": "True", "TimGenOn": "0", "VSContrl": "5",
                                 "PCMode": "5", "DLL_FileName": f'"{lib}"',
                                 "DLL_InFile": f'"{infile}"'})  # fmt: skip
    fst = dst / "ref09_aero_fixed_speed.fst"
    assert import_openfast(fst)["case"]  # unsplit: imported
    with pytest.raises(CaseError) as info:
        import_openfast(fst, split=True)
    msg = str(info.value)
    assert "split" in msg and "PCMode" in msg and "\n" not in msg
