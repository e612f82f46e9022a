"""Joints with their own degree of freedom (issue 17; docs/multibody.md, "Joint DOFs").

Analytic: spin-up of a rotor by a constant torque and by a linear damping torque on a (nearly)
fixed base, and with a geared generator (effective inertia J_r + r^2 J_g). Invariants: a free
joint without drive conserves the total angular momentum; the joint accelerations solved with
the base accelerations are consistent with the prescribed-motion core (Wang 5.26) and with its
inverse dynamics (5.28: the axial moment the subtree exerts equals minus the drive torque); a
stiff spring-damper drive converges to the prescribed motion. Compiled == NumPy, a batch member
== the same run alone bit for bit. Bad input names its field.
"""

from __future__ import annotations

import copy
import pathlib
from dataclasses import replace

import numpy as np
import pytest
import yaml

from floatwind.errors import CaseError
from floatwind.multibody import ConstantRate, Tree, six_body, three_body
from floatwind.multibody.drives import FreeDrive, SpringDamperDrive, TorqueDrive
from floatwind.multibody.inverse import joint_loads
from floatwind.multibody.mcm import (
    body_kinematics,
    forward_dynamics,
    forward_dynamics_dofs,
    mass_distribution,
    relative_kinematics,
    relative_kinematics_many,
)
from floatwind.multibody.motion import Motion, Ramp
from floatwind.records import Wrench

ROOT = pathlib.Path(__file__).resolve().parents[1]
CASES = ROOT / "cases"


class _Quadratic(Motion):
    """theta(t) = q + qd (t - t0) + qdd (t - t0)^2 / 2: the prescribed motion that has, at t0,
    the state and the solved acceleration of a free joint."""

    def __init__(self, q, qd, qdd, t0):
        self.q, self.qd, self.qdd, self.t0 = q, qd, qdd, t0

    def evaluate(self, t):
        d = t - self.t0
        return self.q + self.qd * d + 0.5 * self.qdd * d * d, self.qd + self.qdd * d, self.qdd


def _free(joints, drives):
    return [replace(j, drive=drives[j.name]) if j.name in drives else j for j in joints]


@pytest.mark.parametrize("kind", ["three_body", "six_body"])
@pytest.mark.parametrize("added", [False, True])
def test_free_joints_agree_with_prescribed_core_and_inverse_dynamics(kind, added):
    """At random states, loads and torques: with the solved joint accelerations prescribed, the
    prescribed-motion MCM (5.26) gives the same base and body accelerations (1e-10 relative), and the
    inverse dynamics (5.28) of each subtree gives, about the joint axis, minus the drive torque
    (1e-9 relative)."""
    rng = np.random.default_rng(7 + added + 2 * (kind == "six_body"))
    if kind == "three_body":
        bodies, joints = three_body(yaw=ConstantRate(0.3, 0.05), spin=ConstantRate(0.2, 1.2))
        drives = {"yaw": SpringDamperDrive(1e9, 2e7), "spin": TorqueDrive(3e6)}
    else:
        bodies, joints = six_body(yaw=ConstantRate(0.3, 0.05), spin=ConstantRate(0.2, 1.2))
        drives = {"yaw": FreeDrive(), "spin": TorqueDrive(1e6), "pitch2": FreeDrive()}
        rng.normal(size=3)
    tree = Tree(bodies, _free(joints, drives))
    B, N, nf = 3, tree.n_bodies, tree.n_dofs
    q = np.concatenate([rng.normal(size=(B, 3)) * 5, rng.uniform(-0.3, 0.3, (B, 3))], axis=1)
    qd = np.concatenate([rng.normal(size=(B, 3)), rng.normal(size=(B, 3)) * 0.2], axis=1)
    th, thd = rng.normal(size=(B, nf)), rng.normal(size=(B, nf))
    # loads of the order of each body's weight and inertia (a blade's axial inertia is small)
    size = np.array([b.mass for b in bodies]) / tree.total_mass
    F = rng.normal(size=(B, N, 3)) * 1e6 * size[:, None]
    M = rng.normal(size=(B, N, 3)) * 1e7 * size[:, None]
    A = None
    if added:
        A = np.zeros((B, N, 6, 6))
        X = rng.normal(size=(B, 6, 6))
        A[:, 0] = X @ np.swapaxes(X, -1, -2) * 1e6
    t = 1.7
    rel = relative_kinematics_many(tree, np.full(B, t), (th, thd))
    md = mass_distribution(tree, rel)
    # torques of the order of each joint's inertia about its axis (the blade's is small)
    tau = rng.normal(size=(B, nf)) * np.array([1e2 if n.startswith("pitch") else 1e6
                                               for n in tree.dof_names])  # fmt: skip
    acc = forward_dynamics_dofs(tree, rel, md, q, qd, Wrench(F, M, A), tau)
    from floatwind.simulate.system import Evaluation

    for b in range(B):
        pres = {
            name: _Quadratic(th[b, k], thd[b, k], acc.qdd_dof[b, k], t)
            for k, name in enumerate(tree.dof_names)
        }
        tp = Tree(bodies, [replace(j, rotation=pres.get(j.name, j.rotation)) for j in joints])
        relp = relative_kinematics(tp, t)
        mdp = mass_distribution(tp, relp)
        wb = Wrench(F[b : b + 1], M[b : b + 1], None if A is None else A[b : b + 1])
        accp = forward_dynamics(tp, relp, mdp, q[b : b + 1], qd[b : b + 1], wb)
        scale = np.abs(accp.a_G_g).max()
        assert np.abs(accp.qdd - acc.qdd[b]).max() <= 1e-10 * max(1.0, np.abs(accp.qdd).max())
        assert np.abs(accp.a_G_g - acc.a_G_g[b]).max() <= 1e-10 * scale
        assert np.abs(accp.dw_b_g - acc.dw_b_g[b]).max() <= 1e-10 * np.abs(accp.dw_b_g).max()
        kin = body_kinematics(tp, t, relp, mdp, q[b : b + 1], qd[b : b + 1])
        ev = Evaluation(t, q[b : b + 1], qd[b : b + 1], relp, mdp, kin, wb, accp)
        for k, name in enumerate(tree.dof_names):
            c = tree.dofs[k]
            _, Mj = joint_loads(tp, ev, name, axes="inertial")
            e = kin.R_b2g[0, c] @ tp.joint_of[c].axis
            scale = max(np.abs(Mj).max(), abs(tau[b, k]))  # the moment's other components
            assert abs(float(Mj[0] @ e) + tau[b, k]) <= 1e-9 * scale, (name, Mj[0] @ e, tau[b, k])


def _case(**topology) -> dict:
    d = yaml.safe_load((CASES / "oc3_hywind.yaml").read_text())
    d["topology"].update(topology)
    d["environment"].pop("waves", None)
    d["environment"]["wind"] = {"kind": "steady", "speed": 12.0, "ref_height": 87.6}
    return d


def _run(d: dict, fused: bool = True):
    from floatwind.case.loader import model_from_dict
    from floatwind.simulate import fused as fz
    from floatwind.simulate.run import simulate

    old = fz.use_fused(fused)
    try:
        return simulate(model_from_dict(d, base_dir=CASES), progress=False)
    finally:
        fz.use_fused(old)


def _bodies_case(bodies, joints, t_max, dt) -> dict:
    return {
        "name": "joint_dof",
        "environment": {},
        "bodies": bodies,
        "joints": joints,
        "loads": [],
        "simulation": {"t_max": t_max, "dt": dt, "dt_out": dt, "integrator": "rk4"},
    }


_BASE = {"name": "base", "mass": 1.0e12, "cm": [0, 0, 0], "inertia": [1e18, 1e18, 1e18]}
_ROTOR = {"name": "rotor", "mass": 1000.0, "cm": [0, 0, 0], "inertia": [100.0, 200.0, 300.0]}


def _spin_joint(drive, parent="base", child="rotor", **extra):
    return {"name": f"{child}_joint", "parent": parent, "child": child,
            "position_parent": [0.0, 0.0, 5.0], "axis": [0.0, 0.0, 1.0],
            "rotation": {"kind": "constant_rate", "q0": 0.1, "rate": 2.0}, "drive": drive,
            **extra}  # fmt: skip


@pytest.mark.parametrize("fused", [False, True])
def test_torque_drive_spin_up_matches_closed_form(fused):
    """A rotor (axial inertia J = 300 kg m^2) on a base 1e15 times heavier, from 2 rad/s: a
    constant torque gives theta = theta0 + w0 t + tau t^2 / (2 J) (RK4 exact for it: 1e-9); a
    torque table tau = -c w gives w = w0 exp(-c t / J) (1e-9)."""
    d = _bodies_case([_BASE, _ROTOR], [_spin_joint({"kind": "torque", "torque": 60.0})], 3.0, 0.01)
    ds = _run(d, fused)
    t = ds.time.values
    assert np.allclose(ds["Q_rotor_joint"].values, 0.1 + 2.0 * t + 0.1 * t**2, rtol=1e-9, atol=1e-9)
    assert np.allclose(ds["QD_rotor_joint"].values, 2.0 + 0.2 * t, rtol=1e-10, atol=1e-10)
    assert np.allclose(ds["QD2_rotor_joint"].values, 0.2, rtol=1e-10)
    c = 30.0
    drive = {"kind": "torque", "rates": [-100.0, 100.0], "torques": [100.0 * c, -100.0 * c]}
    ds = _run(_bodies_case([_BASE, _ROTOR], [_spin_joint(drive)], 3.0, 0.01), fused)
    w = 2.0 * np.exp(-c * ds.time.values / 300.0)
    assert np.abs(ds["QD_rotor_joint"].values - w).max() <= 1e-9 * 2.0


def test_geared_generator_adds_ratio_squared_inertia():
    """A generator geared to the rotor at ratio r = 97 (its own axial inertia J_g = 0.5): the
    spin-up of the pair under a torque is tau / (J_r + r^2 J_g), the generator turns r times as
    fast (ElastoDyn GBRatio, GenIner)."""
    gen = {"name": "gen", "mass": 10.0, "cm": [0, 0, 0], "inertia": [0.3, 0.3, 0.5]}
    joints = [
        _spin_joint({"kind": "torque", "torque": 60.0}),
        {"name": "gen_joint", "parent": "base", "child": "gen", "position_parent": [0, 0, 2.0],
         "axis": [0.0, 0.0, 1.0], "gear": {"leader": "rotor_joint", "ratio": 97.0}},
    ]  # fmt: skip
    ds = _run(_bodies_case([_BASE, _ROTOR, gen], joints, 2.0, 0.01))
    J = 300.0 + 97.0**2 * 0.5
    assert np.allclose(ds["QD2_rotor_joint"].values, 60.0 / J, rtol=1e-9)
    assert np.allclose(ds["QD_rotor_joint"].values, 2.0 + 60.0 / J * ds.time.values, rtol=1e-10)


def test_free_joints_conserve_angular_momentum():
    """Free yaw and free rotor (no drive), no loads, the platform tumbling slowly: the total
    angular momentum about the system CM (inertial axes) stays within 1e-9 of its value while
    the joints exchange it with the base."""
    from floatwind.rotation import euler123_matrix

    d = _case(
        yaw={"kind": "locked", "value_deg": 0.0},
        yaw_drive={"kind": "free", "initial_rate_deg": 3.0},
        spin_drive={"kind": "free"},
    )
    d["loads"] = []
    d["initial"] = {"rates_deg": [1.0, -2.0, 0.5]}
    d["simulation"].update(t_max=20.0, dt=0.005, dt_out=0.5)
    ds = _run(d)
    q = np.stack([ds[f"X{k}"].values for k in (4, 5, 6)], axis=1)
    H_s = np.stack([ds[f"HGs{a}"].values for a in "xyz"], axis=1)
    H = np.einsum("tij,tj->ti", euler123_matrix(q), H_s)
    assert np.ptp(ds["QD_yaw"].values) > 1e-3  # the yaw rate does change
    assert np.abs(H - H[0]).max() <= 1e-9 * np.linalg.norm(H[0])


def test_stiff_yaw_drive_converges_to_prescribed_motion():
    """A yaw spring-damper (damping ratio 0.7) toward a smooth yaw motion: the platform yaw and
    the nacelle yaw approach the prescribed-motion run as the stiffness grows, the error falling
    by about the stiffness ratio (first order in 1/K)."""
    cmd = {"kind": "table", "time": [0, 2, 4, 6, 8, 10], "values_deg": [0, 0, 3, 6, 6, 6]}
    cmd = {"kind": "table", "time": list(np.linspace(0, 10, 41)),
           "values": list(np.radians(6.0) * 0.5 * (1 - np.cos(np.pi * np.clip(np.linspace(0, 10, 41) / 8, 0, 1))))}  # fmt: skip
    base = _case(yaw=cmd)
    base["simulation"].update(t_max=10.0, dt=0.002, dt_out=0.1)
    ref = _run(base)
    J = 4.0e7  # about the yaw axis: nacelle + rotor (order of magnitude)
    errs = []
    for K in (1e8, 1e9, 1e10):
        d = copy.deepcopy(base)
        d["topology"]["yaw_drive"] = {"kind": "spring_damper", "stiffness": K,
                                      "damping": 2 * 0.7 * np.sqrt(K * J)}  # fmt: skip
        ds = _run(d)
        e_nac = np.abs(ds["Q_yaw"].values - np.interp(ds.time.values, *_cmd_xy(cmd))).max()
        e_ptfm = np.abs(ds["PtfmYaw"].values - ref["PtfmYaw"].values).max()
        errs.append((e_nac, e_ptfm))
    errs = np.array(errs)
    assert np.all(np.diff(errs[:, 1]) < 0) and np.all(np.diff(errs[:, 0]) < 0)
    rates = errs[:-1, 1] / errs[1:, 1]
    assert np.all(rates > 5.0), rates  # ~10x per decade of stiffness
    assert errs[-1, 1] < 2e-3 * np.abs(ref["PtfmYaw"].values).max()


def _cmd_xy(cmd):
    return np.asarray(cmd["time"]), np.asarray(cmd["values"])


def test_compiled_equals_numpy_and_batch_member_equals_alone():
    """The yaw-drive OC3 case (stiff spring toward a yaw ramp, torque-driven rotor) with three
    initial platform attitudes: the compiled stepping equals the NumPy path to 1e-9 relative,
    and member 1 run alone equals member 1 of the batch bit for bit."""
    d = _case(
        yaw={"kind": "ramp", "rate_deg": 1.2, "t_start": 0.0, "final_deg": 3.0},
        yaw_drive={"kind": "spring_damper", "stiffness": 9.02832e9, "damping": 1.916e7,
                   "initial": 0.0, "initial_rate": 0.0},
        spin_drive={"kind": "torque", "torque": 2.0e5, "rates_rpm": [0.0, 20.0],
                    "torques": [0.0, -6.0e5]},
    )  # fmt: skip
    d["simulation"].update(t_max=1.0, dt=0.0025, dt_out=0.05)
    angles = [[1.0, 2.0, 0.0], [0.5, -1.0, 2.0], [0.0, 3.0, -1.0]]
    d["initial"] = {"angles_deg": angles}
    fast, slow = _run(d, True), _run(d, False)
    for ch in ("PtfmPitch", "PtfmYaw", "Q_yaw", "QD_yaw", "QD2_yaw", "QD_spin", "YawBrMzp"):
        a, b = fast[ch].values, slow[ch].values
        assert np.abs(a - b).max() <= 1e-9 * np.abs(b).max(), ch
    one = copy.deepcopy(d)
    one["initial"] = {"angles_deg": angles[1]}
    alone = _run(one, True)
    for ch in ("PtfmPitch", "PtfmYaw", "Q_yaw", "QD_spin", "YawBrMzp"):
        assert np.array_equal(alone[ch].values, fast[ch].values[1]), ch


@pytest.mark.parametrize(
    "ramp",
    [
        Ramp(0.0, 0.020943951023931952, 0.0, 4.71238898038469, True),  # ref03's yaw command
        Ramp(-0.0, 0.0349, 9999.9, -0.0, False),
        Ramp(1.0, -0.3, 2.0, None, False),
        Ramp(1.0, -0.3, 2.0, -2.0, True),
        Ramp(0.5, 0.0, 1.0, 2.0),
    ],
)
def test_ramp_on_many_times_equals_one_time_at_a_time(ramp):
    """Ramp.evaluate_many (whole arrays: the drive commands of every chunk) gives the bits of
    evaluate at each time, signed zeros included, at the corners and the ends too."""
    t = np.concatenate([np.arange(0.0, 300.0001, 0.00125), [1.0, 2.0, 12.0, 225.0],
                        np.random.default_rng(0).uniform(-5.0, 400.0, 500)])  # fmt: skip
    slow = Motion.evaluate_many(ramp, t)  # the base class: one evaluate per time
    for a, b in zip(ramp.evaluate_many(t), slow):
        assert np.array_equal(a, b) and np.array_equal(np.signbit(a), np.signbit(b))


@pytest.mark.parametrize(
    "drive, field, words",
    [
        ({"kind": "spring"}, "drive.kind", "spring_damper"),
        ({"kind": "spring_damper", "stiffness": -1.0}, "drive.stiffness", ">= 0"),
        ({"kind": "spring_damper", "stiffnes": 1.0}, "drive.stiffnes", "stiffness"),
        ({"kind": "torque", "rates": [0, 2, 1], "torques": [0, 1, 2]}, "drive", "increasing"),
        ({"kind": "torque", "rates": [0, 1], "torques": [0, 1, 2]}, "drive", "same length"),
        ({"kind": "torque", "torques": [0, 1]}, "drive.torques", "rates"),
        ({"kind": "torque"}, "drive.torque", "torque"),
    ],
)
def test_bad_drive_names_its_field(drive, field, words):
    from floatwind.case.loader import model_from_dict

    d = _case()
    d["topology"]["yaw_drive"] = drive
    with pytest.raises(CaseError, match=words) as err:
        model_from_dict(d, base_dir=CASES)
    assert field in str(err.value)


def test_bad_gear_and_unsupported_integrator_are_refused():
    from floatwind.case.loader import model_from_dict
    from floatwind.simulate.run import simulate

    d = _bodies_case([_BASE, _ROTOR], [_spin_joint(None, gear={"leader": "nope", "ratio": 2.0})],
                     1.0, 0.01)  # fmt: skip
    del d["joints"][0]["drive"]
    with pytest.raises(CaseError, match="gear leader 'nope'"):
        model_from_dict(d)
    d = _bodies_case([_BASE, _ROTOR], [_spin_joint({"kind": "free"})], 1.0, 0.01)
    d["simulation"]["integrator"] = "bossak_newmark"
    with pytest.raises(CaseError, match="simulation.integrator") as err:
        simulate(model_from_dict(d), progress=False)
    assert "rotor_joint" in str(err.value)


def test_import_maps_the_yaw_drive_of_ref03():
    """ElastoDyn YawDOF with ServoDyn YawSpr/YawDamp and the override maneuver becomes a
    spring-damper yaw joint toward the ramp from YawNeut (held at TYawManS itself), starting at
    NacYaw at rest."""
    from floatwind.case.openfast import import_openfast

    ref = pathlib.Path(__file__).resolve().parents[2] / "shared/reference/openfast/ref03_yaw_spin"
    if not ref.exists():
        pytest.skip("shared reference data not present")
    res = import_openfast(ref / "ref03_yaw_spin.fst")
    yaw = next(j for j in res["case"]["joints"] if j["name"] == "yaw")
    assert yaw["drive"] == {"kind": "spring_damper", "stiffness": 9.02832e9, "damping": 1.916e7,
                            "initial": 0.0, "initial_rate": 0.0}  # fmt: skip
    rot = yaw["rotation"]
    assert rot["kind"] == "ramp" and rot["hold_at_start"] and rot["q0"] == 0.0
    assert rot["rate"] == pytest.approx(np.radians(1.2)) and rot["final"] == pytest.approx(np.radians(270))
    assert res["info"]["decisions"]["yaw"] == "drive"


def _deck_copy(tmp_path, case: str, edits: dict[str, tuple[str, str]]) -> pathlib.Path:
    """A writable copy of a shared reference deck with ``{key: (file, value)}`` edited."""
    import re
    import shutil
    import stat

    ref = pathlib.Path(__file__).resolve().parents[2] / "shared/reference/openfast" / case
    if not ref.exists():
        pytest.skip("shared reference data not present")
    dst = tmp_path / case
    shutil.copytree(ref, dst, ignore=shutil.ignore_patterns("*.out", "*.outb", "*.sum"))
    for p in dst.rglob("*"):
        p.chmod(p.stat().st_mode | stat.S_IWUSR)
    for key, (fname, value) in edits.items():
        path = dst / fname
        text = path.read_text(encoding="latin-1")
        text, n = re.subn(rf"(?m)^\s*\S+(\s+{key}\s)", rf"   {value}\1", text, count=1)
        assert n == 1, key
        path.write_text(text, encoding="latin-1")
    return dst / f"{case}.fst"


def test_gendof_without_generator_torque_is_a_free_rotor(tmp_path):
    """ElastoDyn GenDOF = True on a deck without ServoDyn (no generator torque): the rotor is a
    free joint starting at RotSpeed and the generator follows it at GBRatio r. With no torque the
    rotor's generalized momentum about the shaft, (J_r + r^2 J_g) W + (J_r + r J_g) w_a (w_a the
    platform's angular velocity about the shaft axis), is constant (1e-8 of its value), while the
    rotor speed itself changes by about 1 % with the platform roll. A deck whose generator is
    connected is refused in one line."""
    from floatwind.case.openfast import import_openfast, model_from_deck
    from floatwind.rotation import euler_zyx_matrix
    from floatwind.simulate.run import simulate

    fst = _deck_copy(tmp_path, "ref02_seed_free_vibration", {"GenDOF": ("ElastoDyn.dat", "True")})
    res = import_openfast(fst)
    joints = {j["name"]: j for j in res["case"]["joints"]}
    assert joints["shaft"]["drive"]["kind"] == "free"
    assert joints["shaft"]["drive"]["initial_rate"] == pytest.approx(12.1 * np.pi / 30)
    assert joints["hss"]["gear"]["leader"] == "shaft" and joints["hss"]["gear"]["ratio"] == 97.0
    res["case"]["simulation"].update(t_max=20.0, dt_out=0.5)
    model = model_from_deck(fst, result=res)
    ds = simulate(model, progress=False)
    tree = model.tree
    c1 = np.asarray(joints["shaft"]["axis"], dtype=float)
    J_r = c1 @ tree.inertia_b[tree.index("rotor")] @ c1
    J_g = c1 @ tree.inertia_b[tree.index("generator")] @ c1
    R = euler_zyx_matrix(np.stack([ds[f"Ptfm{a}"].values for a in ("Roll", "Pitch", "Yaw")], 1))
    w_a = np.einsum("ti,ti->t", R @ c1, np.stack([ds[f"PtfmRV{a}i"].values for a in "xyz"], 1))
    W = ds["QD_shaft"].values
    p = (J_r + 97.0**2 * J_g) * W + (J_r + 97.0 * J_g) * w_a
    assert np.abs(W / W[0] - 1).max() > 1e-3  # the rotor speed does change
    assert np.abs(p - p[0]).max() <= 1e-8 * abs(p[0])
    on = _deck_copy(
        tmp_path / "c",
        "ref03_yaw_spin",
        {"GenDOF": ("ElastoDyn.dat", "True"), "TimGenOn": ("ServoDyn.dat", "0")},
    )
    # with the generator connected the rotor is turned by ServoDyn's generator (issue 36:
    # tests/test_servo.py)
    loads = import_openfast(on)["case"]["loads"]
    assert [ld for ld in loads if ld["type"] == "servodyn"][0]["joint"] == "shaft"
