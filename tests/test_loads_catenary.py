"""The catenary mooring load (floatwind.loads.catenary): wrench geometry, channels, compiled
stepping equal to the Python path, batch invariance, case-file errors."""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest
from conftest import fused_and_python

from floatwind.environment import Environment
from floatwind.errors import CaseError
from floatwind.loads.base import Kinematics
from floatwind.loads.catenary import CatenaryMooring
from floatwind.mooring.catenary import solve_lines
from floatwind.rotation import euler123_matrix

ENV = Environment(gravity=9.80665, rho_water=1025.0, water_depth=320.0)


def oc3_lines():
    """The OC3-Hywind lines (Jonkman 2010; ref06 README), platform frame / inertial."""
    out = []
    for deg in (180.0, 60.0, 300.0):
        a = math.radians(deg)
        c, s = math.cos(a), math.sin(a)
        out.append(
            {
                "fairlead": [5.2 * c, 5.2 * s, -70.0],
                "anchor": [853.87 * c, 853.87 * s, -320.0],
                "length": 902.2,
                "mass_per_length": 77.7066,
                "diameter": 0.09,
                "ea": 384.243e6,
                "seabed_friction": 0.001,
            }
        )
    return out


def _kin(disp, angles, cm_b=(0.0, 0.0, -78.0)):
    disp = np.atleast_2d(np.asarray(disp, float))
    angles = np.atleast_2d(np.asarray(angles, float))
    B = disp.shape[0]
    R = np.stack([euler123_matrix(a) for a in angles])[:, None]
    cm = np.array([cm_b])
    r_G = disp[:, None] + np.einsum("bnij,nj->bni", R, cm)
    z = np.zeros((B, 1, 3))
    return Kinematics(t=0.0, r_G_g=r_G, R_b2g=R, v_G_g=z, w_b_g=z.copy(), cm_b=cm)


def test_wrench_is_the_lines_pull_at_the_fairleads():
    """Force = sum of (-H u, -V) per line from the line solver; moment = arm x force."""
    load = CatenaryMooring(body=0, lines=oc3_lines())
    disp = np.array([[12.0, -3.0, 1.0]])
    ang = np.array([[0.01, 0.05, -0.02]])
    kin = _kin(disp, ang)
    w = load.wrench(0.0, kin, ENV)
    R = kin.R_b2g[0, 0]
    f_tot = np.zeros(3)
    m_tot = np.zeros(3)
    wet = 9.80665 * (77.7066 - 1025 * math.pi * 0.09**2 / 4)
    for i, ln in enumerate(oc3_lines()):
        pos = disp[0] + R @ np.asarray(ln["fairlead"])
        d = pos - np.asarray(ln["anchor"])
        lh = math.hypot(d[0], d[1])
        r = solve_lines(lh, d[2], 902.2, wet, 384.243e6, 0.001, True)
        f = np.array([-r["H"] * d[0] / lh, -r["H"] * d[1] / lh, -r["V"]]).ravel()
        f_tot += f
        m_tot += np.cross(pos - kin.r_G_g[0, 0], f)
        assert w.channels[f"FAIRTEN{i + 1}"][0] == pytest.approx(float(r["T"]), rel=1e-14)
        assert w.channels[f"ANCHTEN{i + 1}"][0] == pytest.approx(float(r["Ta"]), rel=1e-14)
        assert w.channels[f"LAYLEN{i + 1}"][0] == pytest.approx(float(r["Lb"]), rel=1e-14)
    np.testing.assert_allclose(w.force[0, 0], f_tot, rtol=1e-13)
    np.testing.assert_allclose(w.moment[0, 0], m_tot, rtol=1e-12)


def test_symmetric_spread_at_rest_and_map_vertical_load():
    """At rest the three lines cancel horizontally; each carries MAP++'s V of line 1 (ref06
    README; MAP++'s lines 2 and 3 differ by 0.15 N because of its 4-decimal node coordinates)."""
    load = CatenaryMooring(body=0, lines=oc3_lines())
    w = load.wrench(0.0, _kin([[0, 0, 0]], [[0, 0, 0]]), ENV)
    assert w.force[0, 0, 2] == pytest.approx(-3 * 535727.992, rel=1e-8)
    assert abs(w.force[0, 0, 0]) < 1e-6 and abs(w.force[0, 0, 1]) < 1e-6
    for i in range(3):
        assert w.channels[f"FAIRTEN{i + 1}"][0] == pytest.approx(911089.457, rel=1e-8)


def test_fairlead_below_anchor_and_frame_invariance():
    """A line whose 'anchor' is above the fairlead hangs from it (no seabed); the NumPy and
    compiled routes and a line defined from its other end give equal and opposite forces."""
    line = {"fairlead": [0, 0, -50.0], "anchor": [100.0, 0, 0.0], "length": 130.0,
            "wet_weight": 500.0, "ea": 1e9}  # fmt: skip
    load = CatenaryMooring(body=0, lines=[line])
    kin = _kin([[0, 0, 0]], [[0, 0, 0]], cm_b=(0.0, 0.0, 0.0))
    w = load.wrench(0.0, kin, ENV)
    r = solve_lines(100.0, 50.0, 130.0, 500.0, 1e9, 0.0, False)
    # the body end is the lower end: pulled towards the upper end by Ha, upwards by Va
    np.testing.assert_allclose(w.force[0, 0], [float(r["Ha"]), 0.0, float(r["Va"])], rtol=1e-13)


def test_batch_member_equals_alone_bitwise():
    load = CatenaryMooring(body=0, lines=oc3_lines())
    disp = np.array([[0, 0, 0], [30.0, 5.0, -2.0], [-40.0, 0.0, 8.0], [10.0, 0, 0]])
    ang = np.array([[0, 0, 0], [0.0, 0.08, 0.1], [0.02, -0.1, 0.0], [0, 0.05, 0]])
    wb = load.wrench(0.0, _kin(disp, ang), ENV)
    for b in range(4):
        wa = load.wrench(0.0, _kin(disp[b : b + 1], ang[b : b + 1]), ENV)
        assert np.array_equal(wa.force[0], wb.force[b])
        assert np.array_equal(wa.moment[0], wb.moment[b])
        for k, v in wa.channels.items():
            assert np.array_equal(v[0], wb.channels[k][b]), k


def _decay_case(**over):
    """The ref06 model: OC3-Hywind rigid, buoyancy AddF0, hydrostatic AddCLin + yaw spring,
    additional damping, catenary lines; batched initial offsets."""
    case = {
        "name": "cat",
        "environment": {"gravity": 9.80665, "rho_water": 1025.0, "water_depth": 320.0},
        "bodies": [
            {
                "name": "platform",
                "mass": 8065437.845,
                "cm": [-0.017555, 0.0, -78.014007],
                "inertia": {
                    "xx": 1.8935226e10,
                    "yy": 1.8920154e10,
                    "zz": 1.8957737e8,
                    "xz": 2.2429255e7,
                },
            }
        ],  # fmt: skip
        "reference_point": [0.0, 0.0, 0.0],
        "loads": [
            {"type": "gravity"},
            {
                "type": "linear",
                "name": "hydro",
                "body": "platform",
                "point": [0.0, 0.0, 0.0],
                "f0": [0.0, 0.0, 80708143.6, 0.0, 0.0, 0.0],
                "stiffness": np.diag([0, 0, 332941.0, -4.99918e9, -4.99918e9, 9.834e7]).tolist(),
                "damping": [1e5, 1e5, 1.3e5, 0.0, 0.0, 1.3e7],
            },
            {"type": "mooring_catenary", "body": "platform", "lines": oc3_lines()},
        ],
        "initial": {
            "displacement": [[10.0, 0.0, 0.0], [-20.0, 5.0, 1.0], [40.0, 0.0, 0.0]],
            "angles": [[0.0, 0.05, 0.0], [0.01, 0.0, 0.1], [0.0, -0.05, 0.0]],
        },
        "simulation": {"t_max": 8.0, "dt": 0.05, "dt_out": 0.5, "integrator": "rk4"},
    }
    case.update(over)
    return case


def _model(case):
    from floatwind.case.loader import model_from_dict

    return model_from_dict(copy.deepcopy(case))


def test_fused_equals_python_and_batch_invariance(compiled_on):
    """The compiled stepping agrees with the Python path to 1e-9 over the run; a member of the
    batch equals the same run alone bit for bit."""
    from floatwind.simulate import simulate

    case = _decay_case()
    a, b = fused_and_python(lambda: _model(case))
    for name in ("PtfmSurge", "PtfmPitch", "PtfmHeave", "FAIRTEN1", "ANCHTEN2", "LAYLEN3"):
        x, y = a[name].values, b[name].values
        scale = max(np.max(np.abs(y)), 1e-12)
        assert np.max(np.abs(x - y)) <= 1e-9 * scale, name
    alone = _decay_case()
    alone["initial"] = {"displacement": [-20.0, 5.0, 1.0], "angles": [0.01, 0.0, 0.1]}
    c = simulate(_model(alone), progress=False)
    for name in ("PtfmSurge", "PtfmYaw", "FAIRTEN1", "MoorFxi"):
        assert np.array_equal(a[name].values[1], c[name].values.reshape(-1)), name


BAD = [
    ("lines", [], "lines"),
    ("length", -5.0, "lines[0].length"),
    ("length", 100.0, "lines[0].length"),  # cannot reach its anchor
    ("ea", -1.0, "lines[0].ea"),
    ("seabed_friction", -0.1, "lines[0].seabed_friction"),
    ("diameter", None, "lines[0].diameter"),  # missing
    ("wet_weight", 600.0, "lines[0].diameter"),  # both
    ("colour", "red", "lines[0].colour"),  # unknown key
    ("fairlead", [1.0, 2.0], "lines[0].fairlead"),
]


@pytest.mark.parametrize("key,value,field", BAD)
def test_case_file_errors_name_the_field(key, value, field):
    case = _decay_case()
    cfg = case["loads"][2]
    if key == "lines":
        cfg["lines"] = value
    elif value is None:
        del cfg["lines"][0][key]
    else:
        cfg["lines"][0][key] = value
    with pytest.raises(CaseError) as exc:
        _model(case)
    msg = str(exc.value)
    assert f"loads[2].{field}" in msg and "\n" not in msg, msg


def test_buoyant_line_and_anchor_below_seabed_refused():
    lines = oc3_lines()
    lines[1]["mass_per_length"] = 5.0  # lighter than the water it displaces
    with pytest.raises(CaseError, match=r"lines\[1\].mass_per_length"):
        CatenaryMooring(body=0, lines=lines, field="loads[2]").line_constants(ENV)
    lines = oc3_lines()
    lines[2]["anchor"][2] = -330.0
    with pytest.raises(CaseError, match=r"lines\[2\].anchor"):
        CatenaryMooring(body=0, lines=lines, field="loads[2]").line_constants(ENV)
