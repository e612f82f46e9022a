"""Inverse dynamics (Wang 5.27-5.28), conservation and energy balance, topologies and case files."""

import pathlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from floatwind.case import load_case, model_from_dict
from floatwind.errors import CaseError
from floatwind.loads.base import Wrench
from floatwind.multibody import (
    ConstantRate,
    Tree,
    channels_for,
    gyro_moment,
    joint_loads,
    rna_moment,
    six_body,
    two_joint_loads,
)
from floatwind.multibody.inverse import body_inertial_wrench, external_wrench, joint_point
from floatwind.multibody.mcm import (
    body_kinematics,
    forward_dynamics,
    mass_distribution,
    relative_kinematics,
)
from floatwind.rotation.vec import cross, matvec

ROOT = pathlib.Path(__file__).resolve().parents[1]


class Ev:  # the parts of floatwind.simulate.system.Evaluation the inverse dynamics reads
    def __init__(self, tree, t, q, qd, wrench):
        self.rel = relative_kinematics(tree, t)
        md = mass_distribution(tree, self.rel)
        self.kin = body_kinematics(tree, t, self.rel, md, q, qd)
        self.acc = forward_dynamics(tree, self.rel, md, q, qd, wrench)
        self.wrench = wrench
        self.t, self.q, self.qd = t, q, qd


def _random_ev(seed, added=True):
    rng = np.random.default_rng(seed)
    r = rng.uniform(-1, 1, size=4)
    tree = Tree(
        *six_body(
            yaw=ConstantRate(r[0], 0.05),
            spin=ConstantRate(r[1], 1.27),
            pitch=ConstantRate(r[2], 0.02 * r[3]),
        )
    )
    B, N = 4, tree.n_bodies
    q = np.concatenate([rng.normal(size=(B, 3)), rng.uniform(-0.5, 0.5, size=(B, 3))], axis=1)
    qd = rng.normal(size=(B, 6)) * 0.2
    A = None
    if added:
        X = rng.normal(size=(B, N, 6, 6))
        A = X @ np.swapaxes(X, -1, -2) * 1e4
    w = Wrench(rng.normal(size=(B, N, 3)) * 1e5, rng.normal(size=(B, N, 3)) * 1e6, added_mass=A)
    return tree, Ev(tree, float(rng.uniform(0, 60)), q, qd, w)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), added=st.booleans())
def test_joint_loads_close_every_body_newton_euler_balance(seed, added):
    """Per body: m a = F_ext + joint forces, dH/dt = M_ext + joint moments (+ arms), to round-off."""
    tree, ev = _random_ev(seed, added)
    F, M = external_wrench(ev)
    ma, dH = body_inertial_wrench(tree, ev)
    Fj = F.copy()
    Mj = M.copy()
    for c, j in tree.joint_of.items():
        Fc, Mc = joint_loads(tree, ev, j.name, axes="inertial")  # child subtree on parent at J
        P = joint_point(tree, ev, j.name)
        p = j.parent
        Fj[:, p] += Fc
        Mj[:, p] += Mc + cross(P - ev.kin.r_G_g[:, p], Fc)
        Fj[:, c] -= Fc
        Mj[:, c] -= Mc + cross(P - ev.kin.r_G_g[:, c], Fc)
    sF = np.abs(ma).max() + np.abs(F).max()
    sM = np.abs(dH).max() + np.abs(M).max() + 100 * sF
    assert np.abs(Fj - ma).max() < 1e-10 * sF
    assert np.abs(Mj - dH).max() < 1e-10 * sM


def test_two_joint_case_matches_one_joint_cuts():
    tree, ev = _random_ev(3)
    for inner, outer in (("yaw", "spin"), ("spin", "pitch2"), ("yaw", "pitch1")):
        (Fi, Mi), (Fo, Mo) = two_joint_loads(tree, ev, inner, outer, axes="parent")
        for (F, M), name in (((Fi, Mi), inner), ((Fo, Mo), outer)):
            F1, M1 = joint_loads(tree, ev, name)
            assert np.allclose(F, F1, rtol=1e-12, atol=1e-9 * np.abs(F1).max())
            assert np.allclose(M, M1, rtol=1e-12, atol=1e-9 * np.abs(M1).max())
    with pytest.raises(ValueError):
        two_joint_loads(tree, ev, "pitch1", "yaw")


def test_static_tower_top_and_blade_root_loads():
    """At rest under gravity with the weight supported at the PRP (no motion): YawBrFzp = -m_RNA g
    (OpenFAST README: -3426.3 kN), YawBrMyp = m_RNA g x_RNA; Root loads = blade weight."""
    tree = Tree(*six_body())
    B, N, g = 1, tree.n_bodies, 9.80665
    F = np.zeros((B, N, 3))
    F[..., 2] = -tree.mass * g
    F[:, 0, 2] += tree.total_mass * g
    M = np.zeros((B, N, 3))
    M[:, 0] = -cross(np.zeros(3), F[:, 0])
    q = np.zeros((B, 6))
    # moment balance: put the support where the system CM is (no net moment)
    ev0 = Ev(tree, 0.0, q, q, Wrench(F, M))
    arm = ev0.kin.r_G_g[:, 0] - q[:, 0:3]
    M[:, 0] = cross(-arm, np.array([0, 0, tree.total_mass * g]))
    ev = Ev(tree, 0.0, q, q, Wrench(F, M))
    assert np.abs(ev.acc.qdd).max() < 1e-12
    Fy, My = joint_loads(tree, ev, "yaw")
    m_rna = tree.mass[1:].sum()
    assert Fy[0, 2] == pytest.approx(-m_rna * g, rel=1e-12)
    assert Fy[0, 2] / 1e3 == pytest.approx(-3426.3, abs=0.1)
    x_rna = (ev.kin.r_G_g[0, 1:, 0] * tree.mass[1:]).sum() / m_rna - joint_point(tree, ev, "yaw")[
        0, 0
    ]
    assert My[0, 1] == pytest.approx(m_rna * g * x_rna, rel=1e-10)
    assert x_rna == pytest.approx(-0.405238, abs=1e-5)  # RNA CM (README)
    Fr, Mr = joint_loads(tree, ev, "pitch1", axes="child")
    mb = tree.mass[3]
    R = ev.kin.R_b2g[0, 3]
    assert np.allclose(Fr[0], R.T @ np.array([0, 0, -mb * g]), atol=1e-6)
    assert Mr[0, 2] == pytest.approx(0.0, abs=1e-6)  # blade mass on the pitch axis (RootMzb1 = 0)
    for k in (2, 3):  # blades 2 and 3 (Root*b2, Root*b3): their weight in their pitched axes
        Fk, Mk = joint_loads(tree, ev, f"pitch{k}", axes="child")
        Rk = ev.kin.R_b2g[0, 2 + k]
        assert tree.mass[2 + k] == pytest.approx(mb, rel=1e-12)
        assert np.allclose(Fk[0], Rk.T @ np.array([0, 0, -mb * g]), atol=1e-6)
        assert Mk[0, 2] == pytest.approx(0.0, abs=1e-6)


def test_gyro_moment_is_wang_3_28_and_part_of_rna_moment():
    """Mgyro = (I_B psi' w_C, 0, -I_B psi' w_A) in (A, B, C) without shaft tilt (3.28), and the RNA
    moment (3.27) minus the gyro moment is the rigid-RNA Euler moment -(I_R dw_n + w_n x I_R w_n)."""
    tree = Tree(
        *six_body(
            {"rotor": {"shaft_tilt_deg": 0.0, "precone_deg": 0.0}},
            yaw=ConstantRate(0.2, 0.03),
            spin=ConstantRate(0, 1.27),
        )
    )
    _, ev = _random_ev(5)
    ev = Ev(tree, 3.0, ev.q, ev.qd, Wrench(ev.wrench.force, ev.wrench.moment))
    Mg = gyro_moment(tree, ev)  # nacelle axes
    Rn = ev.kin.R_b2g[:, 1]
    w_n = matvec(np.swapaxes(Rn, -1, -2), ev.kin.w_b_g[:, 1])
    I_sp = sum(
        b.inertia_b[0, 0]
        if b.name == "hub"
        else b.inertia_b[0, 0] + b.mass * (1.5 + b.cm_b[2]) ** 2
        for b in tree.bodies[2:]
    )
    wA, wC = -w_n[:, 1], w_n[:, 2]
    MgA, MgB, MgC = -Mg[:, 1], Mg[:, 0], Mg[:, 2]
    assert np.allclose(MgA, I_sp * 1.27 * wC, rtol=1e-9)
    assert np.allclose(MgB, 0.0, atol=1e-9 * np.abs(MgA).max())
    assert np.allclose(MgC, -I_sp * 1.27 * wA, rtol=1e-9)
    # rigid RNA part: lumped inertia (axisymmetric rotor, constant in nacelle axes) about G_R
    idx = [1, 2, 3, 4, 5]
    m = tree.mass[idx]
    r = ev.kin.r_G_g[:, idx]
    G = (m[None, :, None] * r).sum(1) / m.sum()
    I = np.zeros((ev.q.shape[0], 3, 3))
    for k, i in enumerate(idx):
        R = ev.kin.R_b2g[:, i]
        d = r[:, k] - G
        I += R @ tree.inertia_b[i] @ np.swapaxes(R, -1, -2) + m[k] * (
            np.einsum("bi,bi->b", d, d)[:, None, None] * np.eye(3) - d[:, :, None] * d[:, None, :]
        )
    # remove the spin momentum: the hub+blades inertia about the shaft is spinning, the rest is rigid
    w = ev.kin.w_b_g[:, 1]
    dw = ev.acc.dw_b_g[:, 1]
    rigid = -(matvec(I, dw) + cross(w, matvec(I, w)))
    total = matvec(Rn, rna_moment(tree, ev))
    assert np.allclose(total - matvec(Rn, Mg), rigid, rtol=1e-8, atol=1e-8 * np.abs(rigid).max())


def _free_case(kind="six_body", t_max=20.0, dt=0.02):
    topo = {
        "kind": kind,
        "yaw": {"kind": "constant_rate", "rate_deg": 1.2},
        "spin": {"kind": "constant_rate", "rate_rpm": 12.1},
    }
    if kind == "six_body":
        topo["pitch"] = {"kind": "constant_rate", "rate_deg": 1.2}
    return {
        "name": "free",
        "topology": topo,
        "initial": {
            "angles": [0.1, 0.2, 0.0],
            "rates": [0.02, -0.01, 0.01],
            "velocity": [0.3, 0, 0.1],
        },
        "simulation": {"t_max": t_max, "dt": dt, "dt_out": 0.1},
    }


def _momenta(tree, ev):
    kin = ev.kin
    m = tree.mass[None, :, None]
    P = (m * kin.v_G_g).sum(1)
    G = (m * kin.r_G_g).sum(1) / tree.total_mass
    R = kin.R_b2g
    Iw = matvec(R @ tree.inertia_b[None] @ np.swapaxes(R, -1, -2), kin.w_b_g)
    H = (Iw + cross(kin.r_G_g - G[:, None], m * kin.v_G_g)).sum(1)
    T = 0.5 * (m[..., 0] * (kin.v_G_g**2).sum(-1)).sum(1) + 0.5 * (kin.w_b_g * Iw).sum(-1).sum(1)
    power = np.zeros(kin.r_G_g.shape[0])
    for c, j in tree.joint_of.items():
        F, M = joint_loads(tree, ev, j.name, axes="inertial")
        ax = matvec(kin.R_b2g[:, c], j.axis)
        _, thd, _, _, sd, _ = ev.rel.joint_q[j.name]
        power += -(M * ax).sum(-1) * thd - (F * ax).sum(-1) * sd  # drive load of parent on child
    return (
        {f"P{k}": P[:, k] for k in range(3)}
        | {f"H{k}": H[:, k] for k in range(3)}
        | {"T": T, "Pdrive": power}
    )


def test_momentum_and_energy_with_yaw_spin_pitch():
    """No loads: linear and angular momentum about the system CM (from body velocities) conserved
    to 1e-9 relative; kinetic energy change = work of the constant-rate joint drives."""
    from floatwind.simulate import simulate

    model = model_from_dict(_free_case())
    tree = model.tree
    def extra(ev):
        return _momenta(tree, ev)

    # every channel has units and a description (an extra-channels function declares its own)
    extra.channel_info = {f"P{k}": ("kg m/s", "linear momentum") for k in range(3)} | {
        f"H{k}": ("kg m^2/s", "angular momentum about the system CM") for k in range(3)
    } | {"T": ("J", "kinetic energy"), "Pdrive": ("W", "power of the joint drives")}
    ds = simulate(model, extra_channels=extra)
    H = np.stack([ds[f"H{k}"].values for k in range(3)], -1)
    P = np.stack([ds[f"P{k}"].values for k in range(3)], -1)
    assert np.abs(H - H[0]).max() < 1e-9 * np.linalg.norm(H[0])
    assert np.abs(P - P[0]).max() < 1e-9 * np.linalg.norm(P[0])
    from scipy.integrate import cumulative_simpson

    t = ds.time.values
    work = cumulative_simpson(ds["Pdrive"].values, x=t, initial=0.0)
    dT = ds["T"].values - ds["T"].values[0]
    assert np.abs(dT).max() > 1e3
    assert np.abs(dT - work).max() < 1e-6 * np.abs(ds["T"].values).max()


def test_channels_in_simulation_and_case_errors():
    from floatwind.simulate import simulate

    d = _free_case(t_max=1.0, dt=0.05)
    model = model_from_dict(d)
    ds = simulate(model, extra_channels=channels_for(model.tree))
    for name in ("YawBrFxp", "YawBrMzp", "RootFzb1", "RootMyb1", "RootFxb2", "RootMzb3", "MgyroA",
                 "MRNAC"):  # fmt: skip
        assert name in ds and ds[name].attrs["units"] in ("N", "N m")
    bad = [
        ({"kind": "four_body"}, "topology.kind"),
        ({"kind": "three_body", "nacelle": {"mass": -1}}, "topology.nacelle.mass"),
        ({"kind": "three_body", "tower": {"inertia": [1, -1, 1]}}, "topology.tower.inertia"),
        ({"kind": "three_body", "rotor": {"blade_colour": 1}}, "topology.rotor.blade_colour"),
        ({"kind": "three_body", "pitch": 0.1}, "topology.pitch"),
        (
            {"kind": "two_body", "spin": {"kind": "constant_rate", "rate_rpm": 12.1}},
            "topology.spin",
        ),
        ({"kind": "six_body", "pitch": [0.1, 0.2]}, "topology.pitch"),
    ]
    for topo, field in bad:
        with pytest.raises(CaseError) as exc:
            model_from_dict({"topology": topo})
        assert exc.value.field == field, (topo, exc.value)
    with pytest.raises(CaseError) as exc:
        model_from_dict({"topology": {"kind": "three_body", "yaw": {"kind": "spinning"}}})
    assert exc.value.field.startswith("joints[0].rotation")


def test_topology_mass_properties_match_openfast_assembly():
    """Every topology gives the ElastoDyn assembly mass and CM; the 2-body lumped RNA on the axis."""
    import json

    mp = json.loads(
        (
            ROOT.parent / "shared/reference/openfast/ref01_pitch_decay/mass_properties.json"
        ).read_text()
    )
    for kind in ("two_body", "three_body", "six_body"):
        d = {
            "topology": {"kind": kind, "rna_on_axis": False}
            if kind == "two_body"
            else {"kind": kind}
        }
        tree = model_from_dict(d).tree
        ev = Ev(tree, 0.0, np.zeros((1, 6)), np.zeros((1, 6)), Wrench.zeros(1, tree.n_bodies))
        # place the system CM: body positions relative to the base reference frame
        r = ev.kin.r_G_g[0] - ev.kin.r_G_g[0, 0] + tree.cm_b[0]
        c = (tree.mass[:, None] * r).sum(0) / tree.total_mass
        assert tree.total_mass == pytest.approx(mp["total_mass_kg"], rel=1e-12)
        assert np.allclose(c, mp["cm_m"], atol=2e-9)
        I = sum(
            ev.kin.R_b2g[0, i] @ tree.inertia_b[i] @ ev.kin.R_b2g[0, i].T
            + tree.mass[i] * ((r[i] - c) @ (r[i] - c) * np.eye(3) - np.outer(r[i] - c, r[i] - c))
            for i in range(tree.n_bodies)
        )
        assert np.allclose(I, mp["inertia_about_CM_kgm2"], rtol=0, atol=3e-8 * 1.9e10)


def test_truncated_spar_case_loads_and_runs():
    model = load_case(ROOT / "cases" / "truncated_spar_iv_d1.yaml", {"simulation.t_max": 2.0})
    assert [b.name for b in model.tree.bodies] == ["tower", "nacelle", "rotor"]
    from floatwind.simulate import simulate

    ds = simulate(model, extra_channels=channels_for(model.tree))
    assert np.isfinite(ds["PtfmPitch"].values).all()
