"""One floating rigid body through the full pipeline (case -> model -> run -> Dataset)."""

import copy
import pathlib

import numpy as np
import pytest
import yaml

from floatwind.case import load_case, model_from_dict
from floatwind.integrate import RK4
from floatwind.simulate import System, simulate

ROOT = pathlib.Path(__file__).resolve().parents[1]


def giusti_oscillator_case(dt: float, t_max: float = 20.0) -> dict:
    """Giusti sec. 7.3, Table 4: m = 1, omega_n = pi, nu = 0.3, F = sin(2 omega_n t), no gravity."""
    wn, nu, m = np.pi, 0.3, 1.0
    K = np.zeros((6, 6))
    K[0, 0] = m * wn**2
    C = np.zeros(6)
    C[0] = 2 * nu * wn * m
    return {
        "name": "giusti_7_3",
        "bodies": [{"name": "body", "mass": m, "inertia": [1.0, 1.0, 1.0]}],
        "loads": [
            {"type": "linear", "body": "body", "stiffness": K.tolist(), "damping": C.tolist()},
            {"type": "harmonic_force", "body": "body", "amplitude": [1, 0, 0, 0, 0, 0], "omega": 2 * wn},
        ],
        "simulation": {"t_max": t_max, "dt": dt, "dt_out": dt},
    }


def giusti_exact(t):
    """Giusti (44)-(46)."""
    wn, nu, m, F = np.pi, 0.3, 1.0, 1.0
    w = 2 * wn
    K = m * wn**2
    alpha = w / wn
    xs = F / (K * np.sqrt((1 - alpha**2) ** 2 + 4 * nu**2 * alpha**2))
    psi = np.arctan2(2 * nu * alpha, 1 - alpha**2)
    wd = wn * np.sqrt(1 - nu**2)
    return xs * np.sin(w * t - psi) - np.exp(-nu * wn * t) * xs * (
        np.sin(-psi) * np.cos(wd * t) + (w * np.cos(-psi) + nu * wn * np.sin(-psi)) / wd * np.sin(wd * t)
    )


def test_giusti_forced_damped_oscillator_mae_and_order():
    """Mean absolute error < 1e-6 m at h = 0.0025 s, and RK4 order 4 (Giusti 7.3, eq. 38, 44-46)."""
    ds = simulate(model_from_dict(giusti_oscillator_case(0.0025)))
    x = ds["PtfmSurge"].values
    mae = np.mean(np.abs(x - giusti_exact(ds.time.values)))
    assert mae < 1e-6, mae
    for ch in ("PtfmSway", "PtfmHeave", "PtfmRoll", "PtfmPitch", "PtfmYaw"):
        assert np.abs(ds[ch].values).max() < 1e-12
    errs = []
    for h in (0.1, 0.05, 0.025):
        d = simulate(model_from_dict(giusti_oscillator_case(h, t_max=10.0)))
        errs.append(np.mean(np.abs(d["PtfmSurge"].values - giusti_exact(d.time.values))))
    order = np.log2(np.array(errs[:-1]) / np.array(errs[1:]))
    assert np.all(np.abs(order - 4) < 0.3), order


def _oc3_dict():
    return yaml.safe_load((ROOT / "cases" / "oc3_platform_decay.yaml").read_text())


def test_oc3_heave_decay_matches_closed_form():
    """Pure heave of the lumped OC3 body (CM on the axis) with C33 and B33: m z'' + B z' + C z = 0."""
    d = _oc3_dict()
    d["bodies"][0]["cm"] = [0.0, 0.0, -78.014007]
    d["bodies"][0]["inertia"] = {"xx": 1.89e10, "yy": 1.89e10, "zz": 1.9e8}
    m = d["bodies"][0]["mass"]
    g = 9.80665
    # balance weight exactly so the equilibrium is z = 0
    d["loads"][1]["force"] = [0.0, 0.0, m * g]
    d["initial"] = {"displacement": [0.0, 0.0, 1.0]}
    d["simulation"].update({"t_max": 60.0, "dt": 0.05, "dt_out": 0.5})
    ds = simulate(model_from_dict(d))
    C, B = 344881.0, 130000.0
    wn = np.sqrt(C / m)
    z = B / (2 * m * wn)
    wd = wn * np.sqrt(1 - z**2)
    t = ds.time.values
    exact = np.exp(-z * wn * t) * (np.cos(wd * t) + z * wn / wd * np.sin(wd * t))
    np.testing.assert_allclose(ds["PtfmHeave"].values, exact, atol=1e-8)
    assert np.abs(ds["PtfmPitch"].values).max() < 1e-12


def _spinning_body_case(batch_ic=None):
    d = {
        "name": "free_spin",
        "bodies": [
            {"name": "b", "mass": 3.0, "cm": [0.1, -0.2, 0.3],
             "inertia": {"xx": 1.0, "yy": 2.0, "zz": 3.0, "xy": 0.1, "xz": -0.05, "yz": 0.02}}
        ],
        "loads": [],
        "initial": {"rates": [0.05, 0.03, 1.0], "velocity": [0.1, 0.0, -0.05]},
        "simulation": {"t_max": 100.0, "dt": 0.005, "dt_out": 1.0},
    }
    if batch_ic is not None:
        d["initial"] = batch_ic
    return d


def _momenta(model, ds_or_y, t):
    """Linear and angular momentum about the CM and kinetic energy, from body velocities."""
    system = System(model)
    ev = system.evaluate(t, ds_or_y)
    kin = ev.kin
    body = model.tree.bodies[0]
    R = kin.R_b2g[:, 0]
    I_g = R @ body.inertia_b @ np.swapaxes(R, -1, -2)
    w = kin.w_b_g[:, 0]
    H = np.einsum("bij,bj->bi", I_g, w)
    v = kin.v_G_g[:, 0]
    E = 0.5 * body.mass * (v * v).sum(1) + 0.5 * (w * H).sum(1)
    return body.mass * v, H, E


def test_spinning_asymmetric_body_conserves_momentum_and_energy():
    model = model_from_dict(_spinning_body_case())
    system = System(model)
    y0 = system.initial_state()
    t_out = np.linspace(0, 100, 11)
    rec = RK4(model.settings.dt).run(system.rhs, y0, t_out)
    L0, H0, E0 = _momenta(model, rec.y[0], 0.0)
    for k in range(1, len(t_out)):
        L, H, E = _momenta(model, rec.y[k], t_out[k])
        assert np.linalg.norm(H - H0) / np.linalg.norm(H0) < 1e-8
        assert np.linalg.norm(L - L0) / np.linalg.norm(L0) < 1e-12
        assert abs(E - E0) / E0 < 1e-8


def test_batch_of_eight_equals_eight_single_runs():
    rng = np.random.default_rng(7)
    ic = {
        "displacement": rng.normal(0, 0.5, (8, 3)).tolist(),
        "angles": rng.normal(0, 0.05, (8, 3)).tolist(),
        "velocity": rng.normal(0, 0.1, (8, 3)).tolist(),
        "rates": rng.normal(0, 0.01, (8, 3)).tolist(),
    }
    d = _oc3_dict()
    d["initial"] = ic
    d["simulation"].update({"t_max": 20.0, "dt": 0.05, "dt_out": 1.0})
    batch = simulate(model_from_dict(d))
    assert batch.sizes["realization"] == 8
    for b in range(8):
        single = copy.deepcopy(d)
        single["initial"] = {k: v[b] for k, v in ic.items()}
        ds = simulate(model_from_dict(single))
        for ch in ("PtfmSurge", "PtfmHeave", "PtfmPitch", "PtfmYaw", "X1", "X5"):
            np.testing.assert_array_equal(batch[ch].values[b], ds[ch].values)


def test_dataset_has_units_names_and_attrs(tmp_path):
    from floatwind.io.netcdf import read_netcdf, write_netcdf

    model = load_case(ROOT / "cases" / "oc3_platform_decay.yaml", {"simulation.t_max": 2.0})
    ds = simulate(model)
    for name, var in ds.variables.items():
        assert "units" in var.attrs and "long_name" in var.attrs, name
    assert ds.time.attrs["units"] == "s"
    assert ds.PtfmPitch.attrs["units"] == "rad" and ds.PtfmSurge.attrs["units"] == "m"
    assert ds.attrs["floatwind_version"] and "oc3" in ds.attrs["case_text"].lower()
    assert ds.PtfmPitch.values[0] == pytest.approx(0.1, abs=1e-15)
    back = read_netcdf(write_netcdf(ds, tmp_path / "r.nc"))
    import xarray as xr

    xr.testing.assert_identical(back, ds)


def test_oc3_lumped_body_static_equilibrium_matches_hand_calculation():
    """The 17.6 mm CM offset of the assembly pitches the body; the equilibrium from the full
    nonlinear model matches the linear hand calculation (weight moment vs C55, C15 coupling)."""
    from floatwind.simulate.equilibrium import static_equilibrium

    model = load_case(ROOT / "cases" / "oc3_platform_decay.yaml", {"initial": {}})
    eq = static_equilibrium(model)
    W = 8065437.845 * 9.80665
    xc, zc = -0.017555, -78.014007
    C11, C15, C55, C33 = 41180.0, -2821000.0, -4688080000.0, 344881.0
    # F_x = -C11 x - C15 th = 0 ; M_y = W (xc + zc th) - C51 x - C55 th = 0
    A = np.array([[C11, C15], [C15 - 0.0, C55 - W * zc]])
    x, th = np.linalg.solve(A, [0.0, W * xc])
    assert eq["PtfmPitch"] == pytest.approx(th, rel=2e-3)
    assert eq["PtfmSurge"] == pytest.approx(x, rel=2e-3)
    heave = (79101143.6 - W) / C33
    assert eq["PtfmHeave"] == pytest.approx(heave, rel=0.05)
    assert abs(eq["PtfmRoll"]) < 1e-12 and abs(eq["PtfmYaw"]) < 1e-12


def test_time_series_force_table_reproduces_harmonic_force():
    """The tabulated force (linear interpolation on a fine table) gives the harmonic answer."""
    d = giusti_oscillator_case(0.01, t_max=10.0)
    t = np.arange(0.0, 10.0 + 1e-9, 0.001)
    table = np.zeros((len(t), 7))
    table[:, 0] = t
    table[:, 1] = np.sin(2 * np.pi * t)
    d["loads"][1] = {"type": "time_series_force", "body": "body", "table": table.tolist()}
    ds = simulate(model_from_dict(d))
    assert np.mean(np.abs(ds["PtfmSurge"].values - giusti_exact(ds.time.values))) < 1e-6
    # outside the table the force is zero unless hold: true
    from floatwind.loads.simple import TimeSeriesForce

    ld = TimeSeriesForce(body=0, point_b=[0, 0, 0], table=table[:3])
    assert np.all(ld.values(5.0) == 0.0)
    ld_hold = TimeSeriesForce(body=0, point_b=[0, 0, 0], table=table[:3], hold=True)
    assert ld_hold.values(5.0)[0] == pytest.approx(table[2, 1])
