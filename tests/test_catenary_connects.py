"""Connect nodes of the catenary mooring (multi-segment lines, clump weights, buoys, bridles):
node equilibrium against closed forms and MoorPy, the split-line invariant, batch bitwise and
compiled == Python, MAP++/MoorDyn free points, one-line errors."""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest
from conftest import fused_and_python
from test_loads_catenary import ENV, _decay_case, _kin, _model, oc3_lines

from floatwind.case.openfast.mooring import read_map, read_moordyn
from floatwind.environment import Environment
from floatwind.errors import CaseError
from floatwind.loads.catenary import CatenaryMooring
from floatwind.mooring.catenary import solve_lines

G, RHO = 9.80665, 1025.0
MU, D, EA = 77.7066, 0.09, 384.243e6
W = G * (MU - RHO * math.pi * D * D / 4)


def split_oc3(upper=300.0):
    """The OC3 lines, each cut into an upper segment of ``upper`` m and the rest, joined by a
    massless connect node started at 60 % of the chord from the anchor."""
    lines, nodes = [], []
    for i, ln in enumerate(oc3_lines()):
        up, lo = dict(ln), dict(ln)
        up["length"], lo["length"] = upper, ln["length"] - upper
        up["anchor"] = lo["fairlead"] = f"n{i}"
        a, f = np.array(ln["anchor"]), np.array(ln["fairlead"])
        nodes.append({"name": f"n{i}", "position": (a + 0.6 * (f - a)).tolist()})
        lines += [up, lo]
    return lines, nodes


DISP = np.array([[0, 0, 0], [30.0, 5.0, -2.0], [-40.0, 0.0, 8.0], [10.0, 0, 0], [0, 25, 0]])
ANG = np.array([[0, 0, 0], [0.0, 0.08, 0.1], [0.02, -0.1, 0.0], [0, 0.05, 0], [0, 0, 0.2]])


def test_a_massless_node_inside_a_line_changes_nothing():
    """Invariant (a line cut in two and joined again is the same line): wrench, tensions, laid
    length equal the uncut line's to 1e-10, and each node lies on the uncut line's shape."""
    one = CatenaryMooring(body=0, lines=oc3_lines())
    lines, nodes = split_oc3()
    two = CatenaryMooring(body=0, lines=lines, connects=nodes)
    kin = _kin(DISP, ANG)
    w1, w2 = one.wrench(0.0, kin, ENV), two.wrench(0.0, kin, ENV)
    np.testing.assert_allclose(w2.force, w1.force, rtol=0, atol=1e-10 * np.abs(w1.force).max())
    np.testing.assert_allclose(w2.moment, w1.moment, rtol=0, atol=1e-10 * np.abs(w1.moment).max())
    for i in range(3):
        for a, b in (("FAIRTEN", "FAIRTEN"), ("ANCHTEN", "ANCHTEN"), ("LAYLEN", "LAYLEN")):
            j = 2 * i + (1 if a == "FAIRTEN" else 2)
            np.testing.assert_allclose(
                w2.channels[f"{b}{j}"], w1.channels[f"{a}{i + 1}"], rtol=1e-10, atol=1e-8
            )
    # the node of line 1 in the undisplaced pose lies on the line's shape, 602.2 m from the anchor
    ln = oc3_lines()[0]
    r = solve_lines(853.87 - 5.2, 250.0, 902.2, W, EA, 0.001, True)
    xn, zn = _shape_at(float(r["H"]), float(r["V"]), 602.2)
    assert w2.channels["Point1Px"][0] == pytest.approx(ln["anchor"][0] + xn, abs=1e-7)
    assert w2.channels["Point1Pz"][0] == pytest.approx(-320.0 + zn, abs=1e-7)
    assert abs(w2.channels["Point1Py"][0]) < 1e-9


def _shape_at(H, V, s):
    """(x, z) from the anchor of the OC3 line at unstretched arc length s of its suspended
    part (Jonkman 2007 eqs. 2-64..2-67: seabed friction 0.001 shortens the laid part's stretch)."""
    Lb = 902.2 - V / W
    assert s > Lb
    vs = W * (s - Lb)
    cbw = 0.001 * W
    friction = -(cbw / (2 * EA)) * (Lb**2 - max(Lb - H / cbw, 0.0) ** 2)
    x = Lb + (H / W) * math.asinh(vs / H) + H * s / EA + friction
    z = (H / W) * (math.sqrt(1 + (vs / H) ** 2) - 1) + vs * vs / (2 * W * EA)
    return x, z


def test_clump_weight_between_two_lines_closed_form():
    """A 10 t clump hanging from two fairleads 60 m apart on two 50 m lines (w = 100 N/m, EA
    1e9 N), started off-centre: by symmetry the node lies under the midpoint and each line's
    node end carries m g / 2, so V = m g / 2 + w L at the fairlead and H is the root of the
    extensible catenary's span equation l = 30 m (Jonkman 2007 eq. 2-58); the node depth is
    its height equation (2-59). To 1e-9."""
    from scipy.optimize import brentq

    w_, L, ea, m = 100.0, 50.0, 1e9, 1.0e4
    string = {"length": L, "wet_weight": w_, "ea": ea}
    lines = [
        {"fairlead": [-30.0, 0.0, 0.0], "anchor": "clump", **string},
        {"fairlead": [30.0, 0.0, 0.0], "anchor": "clump", **string},
    ]
    load = CatenaryMooring(
        body=0, lines=lines, connects=[{"name": "clump", "position": [5.0, 3.0, -20.0], "mass": m}]
    )
    env = Environment(gravity=G, rho_water=RHO, water_depth=1000.0)
    w = load.wrench(0.0, _kin([[0, 0, 0]], [[0, 0, 0]], cm_b=(0, 0, 0)), env)
    V = m * G / 2 + w_ * L
    Va = V - w_ * L

    def span(H):
        return (H / w_) * (math.asinh(V / H) - math.asinh(Va / H)) + H * L / ea - 30.0

    H = brentq(span, 1.0, 1e7, xtol=1e-12, rtol=1e-15)
    h = (H / w_) * (math.hypot(1, V / H) - math.hypot(1, Va / H)) + (V * L - w_ * L * L / 2) / ea
    for i in (1, 2):
        assert w.channels[f"FAIRTEN{i}"][0] == pytest.approx(math.hypot(H, V), rel=1e-9)
        assert w.channels[f"ANCHTEN{i}"][0] == pytest.approx(math.hypot(H, Va), rel=1e-9)
    assert w.channels["Point1Pz"][0] == pytest.approx(-h, abs=1e-8)
    assert abs(w.channels["Point1Px"][0]) < 1e-9 and abs(w.channels["Point1Py"][0]) < 1e-9
    # the body carries the clump and the lines: total vertical force -(m g + 2 w L)
    assert w.force[0, 0, 2] == pytest.approx(-(m * G + 2 * L * w_), rel=1e-10)


def bridle():
    """The bridle of validation/mooring/_oc3.py: two 60 m legs to a node with a 2 t clump and a
    0.5 m^3 buoy, an 850 m line to an anchor on the seabed."""
    from validation.mooring._oc3 import bridle_lines

    return bridle_lines()


def test_bridle_with_clump_against_moorpy():
    """Fairlead and anchor tensions and the node position of a bridle with a clump weight and
    buoyancy vs MoorPy's equilibrium of the same system over body offsets (surge -40..40 m,
    sway, heave): 1e-6 relative."""
    pytest.importorskip("moorpy")
    from validation.mooring._oc3 import moorpy_bridle

    lines, nodes = bridle()
    load = CatenaryMooring(body=0, lines=lines, connects=nodes)
    worst = 0.0
    for off in ([0, 0, 0], [-40.0, 0, 0], [40.0, 0, 0], [20.0, 15.0, -5.0], [-10.0, -20.0, 5.0]):
        off = np.asarray(off, float)
        w = load.wrench(0.0, _kin([off], [[0, 0, 0]], cm_b=(0, 0, 0)), ENV)
        ms = moorpy_bridle(off)
        for i, ml in enumerate(ms.lineList):
            worst = max(worst, abs(w.channels[f"FAIRTEN{i + 1}"][0] / ml.TB - 1))
            worst = max(worst, abs(w.channels[f"ANCHTEN{i + 1}"][0] / ml.TA - 1))
        r = ms.pointList[3].r
        for k, ax in enumerate("xyz"):
            assert w.channels[f"Point1P{ax}"][0] == pytest.approx(r[k], abs=1e-6)
    assert worst < 1e-6, worst


def test_batch_member_equals_alone_bitwise():
    lines, nodes = split_oc3()
    lines2, nodes2 = bridle()
    load = CatenaryMooring(body=0, lines=lines + lines2, connects=nodes + nodes2)
    wb = load.wrench(0.0, _kin(DISP, ANG), ENV)
    for b in range(DISP.shape[0]):
        wa = load.wrench(0.0, _kin(DISP[b : b + 1], ANG[b : b + 1]), ENV)
        assert np.array_equal(wa.force[0], wb.force[b])
        assert np.array_equal(wa.moment[0], wb.moment[b])
        for k, v in wa.channels.items():
            assert np.array_equal(v[0], wb.channels[k][b]), k


def _clumped_case():
    """ref06's model with line 1 cut 300 m below its fairlead and a 5 t clump at the cut."""
    case = _decay_case()
    lines = oc3_lines()
    up, lo = dict(lines[0]), dict(lines[0])
    up["length"], lo["length"] = 300.0, 602.2
    up["anchor"] = lo["fairlead"] = "clump"
    case["loads"][2]["lines"] = [up, lo, lines[1], lines[2]]
    case["loads"][2]["connects"] = [{"name": "clump", "position": [-350.0, 0.0, -220.0],
                                     "mass": 5000.0}]  # fmt: skip
    return case


def test_fused_equals_python_and_batch_invariance(compiled_on):
    """A model with a clump weight steps compiled, agrees with the Python path to 1e-9, and a
    batch member equals the same run alone bit for bit."""
    from floatwind.simulate import simulate

    case = _clumped_case()
    a, b = fused_and_python(lambda: _model(case))
    for name in ("PtfmSurge", "PtfmPitch", "PtfmHeave", "FAIRTEN1", "ANCHTEN2", "Point1Px"):
        x, y = a[name].values, b[name].values
        scale = max(np.max(np.abs(y)), 1e-12)
        assert np.max(np.abs(x - y)) <= 1e-9 * scale, name
    alone = _clumped_case()
    alone["initial"] = {"displacement": [-20.0, 5.0, 1.0], "angles": [0.01, 0.0, 0.1]}
    c = simulate(_model(alone), progress=False)
    for name in ("PtfmSurge", "PtfmYaw", "FAIRTEN1", "Point1Pz", "MoorFxi"):
        assert np.array_equal(a[name].values[1], c[name].values.reshape(-1)), name


MAP_CONNECT = """---------------------- LINE DICTIONARY ---------------------------------------
LineType     Diam     MassDenInAir    EA        CB    CIntDamp   Ca   Cdn   Cdt
(-)          (m)      (kg/m)         (N)       (-)     (Pa-s)    (-)  (-)   (-)
Material     0.09      77.7066      384.243E6   0.001   1.0E8    0.6  -1.0  0.05
---------------------- NODE PROPERTIES ---------------------------------------
ID Attachment       X     Y     Z     M     B     FX    FY    FZ
(-)  (-)       (m)   (m)   (m)   (kg)  (m^3)  (N)   (N)   (N)
1    fix     853.87   0    depth   0     0     #     #     #
2    connect #350     #0   #-220   5000  0     0     0     0
3    Vessel    5.2    0    -70.0   0     0     #     #     #
---------------------- LINE PROPERTIES ---------------------------------------
ID    LineType  UnstrLen    NodeAnch  NodeFair  Flags
(-)      (-)       (m)         (-)       (-)       (-)
1       Material   602.2        1         2        tension_fair
2       Material   300.0        2         3        tension_fair
---------------------- SOLVER OPTIONS-----------------------------------------
Option
(-)
repeat 240 120
"""


def test_map_connect_nodes_with_repeat(tmp_path):
    """A MAP++ file with a clump-weight connect node and 'repeat': three clumped lines, the
    copies' nodes renamed and rotated; the load equals the hand-written case."""
    f = tmp_path / "map.dat"
    f.write_text(MAP_CONNECT)
    lines, connects, notes = read_map(f, depth=320.0)
    assert len(lines) == 6 and len(connects) == 3 and notes == []
    assert [c["name"] for c in connects] == ["2", "2.r1", "2.r2"]
    assert connects[0] == {"name": "2", "position": [350.0, 0.0, -220.0], "mass": 5000.0,
                           "volume": 0.0, "force": [0.0, 0.0, 0.0]}  # fmt: skip
    assert lines[0]["anchor"] == [853.87, 0.0, -320.0] and lines[0]["fairlead"] == "2"
    assert lines[1]["anchor"] == "2" and lines[1]["fairlead"] == [5.2, 0.0, -70.0]
    assert lines[3]["anchor"] == "2.r1" and lines[2]["fairlead"] == "2.r1"
    load = CatenaryMooring(body=0, lines=lines, connects=connects)
    w = load.wrench(0.0, _kin([[0, 0, 0]], [[0, 0, 0]]), ENV)
    # symmetric spread at rest: no horizontal force, the three clumps hang alike (to the
    # 4-decimal coordinates of MAP++'s copies: 0.5 N of 2.6e6 N)
    assert abs(w.force[0, 0, 0]) < 1.0 and abs(w.force[0, 0, 1]) < 1.0
    for i in (3, 5):
        assert w.channels[f"FAIRTEN{i + 1}"][0] == pytest.approx(w.channels["FAIRTEN2"][0], 1e-6)


MD_FREE = """--------------------- MoorDyn Input File ------------------------------------
clumped OC3 line (v2)
----------------------- LINE TYPES ------------------------------------------
TypeName   Diam    Mass/m     EA     BA/-zeta  EI  Cd   Ca   CdAx  CaAx
(name)     (m)     (kg/m)     (N)    (N-s/-)  (-) (-)  (-)   (-)   (-)
main       0.09    77.7066    384.243E6  -1    0   1.6  1.0  0.1   0.0
---------------------- POINTS --------------------------------
ID   Attachment   X        Y         Z      Mass   Volume  CdA   CA
(-)  (-)         (m)      (m)       (m)     (kg)   (mˆ3)   (m^2) (-)
1    Fixed     853.87     0.0       -320.0   0     0      0     0
2    Free      350.0      0.0       -220.0   5000  1.0    0     0
3    Vessel      5.2      0.0       -70.0    0     0      0     0
---------------------- LINES --------------------------------------
ID   LineType  AttachA  AttachB  UnstrLen  NumSegs   Outputs
(-)  (-)       (-)      (-)      (m)       (-)       (-)
1    main      1        2        602.2     20        -
2    main      3        2        300.0     20        -
---------------------- OPTIONS -----------------------------------------
0.002    dtM       - time step to use in mooring integration (s)
------------------------- need this line -------------------------------------
"""


def test_moordyn_free_point(tmp_path):
    """A MoorDyn v2 free point becomes a connect node with its mass and volume; a line given
    vessel-first is turned so that its A end is the free point."""
    f = tmp_path / "md.dat"
    f.write_text(MD_FREE, encoding="utf-8")
    lines, connects, notes = read_moordyn(f, depth=320.0)
    assert connects == [{"name": "2", "position": [350.0, 0.0, -220.0], "mass": 5000.0,
                         "volume": 1.0, "force": [0.0, 0.0, 0.0]}]  # fmt: skip
    assert lines[0]["anchor"] == [853.87, 0.0, -320.0] and lines[0]["fairlead"] == "2"
    assert lines[1]["anchor"] == "2" and lines[1]["fairlead"] == [5.2, 0.0, -70.0]
    assert "quasi-static" in notes[0]
    CatenaryMooring(body=0, lines=lines, connects=connects).wrench(
        0.0, _kin([[0, 0, 0]], [[0, 0, 0]]), ENV
    )


BAD = [
    ("anchor", "clumb", "lines[0].anchor", "did you mean"),
    ("name", "other", "connects[1].name", "not attached"),
    ("mass", -1.0, "connects[0].mass", ">= 0"),
    ("position", [1.0, 2.0], "connects[0].position", ""),
    ("both", "clump", "lines[1].anchor", "both ends"),
    ("twice", None, "connects[1].name", "used twice"),
    ("colour", "red", "connects[0].colour", "unknown key"),
]


@pytest.mark.parametrize("key,value,field,text", BAD)
def test_connect_errors_name_the_field(key, value, field, text):
    case = _clumped_case()
    cfg = case["loads"][2]
    if key == "anchor":
        cfg["lines"][0]["anchor"] = value
    elif key == "both":
        cfg["lines"][1]["anchor"] = value
    elif key == "twice":
        cfg["connects"].append(copy.deepcopy(cfg["connects"][0]))
    elif key == "name":
        cfg["connects"].append({"name": value, "position": [0.0, 0.0, -100.0]})
    else:
        cfg["connects"][0][key] = value
    with pytest.raises(CaseError) as exc:
        _model(case)
    msg = str(exc.value)
    assert f"loads[2].{field}" in msg and "\n" not in msg and text in msg, msg
