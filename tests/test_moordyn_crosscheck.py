"""floatwind's lumped-mass lines against MoorDyn itself (issue 38): MoorDyn-C v2 through its
Python bindings (``pip install -e ".[moordyn]"``; skipped without them).

The same MoorDyn input file (ref10's three OC3 lines of 20 segments, with MoorDyn-C's options for
gravity, density and depth), the fairleads moved together along a smooth prescribed path (surge
``5 (1 - cos(w t))`` m and half of it in heave, period 20 s, from rest) for 10 s: the positions
of every node of line 1 and the end-B segment tensions of the three lines within 1e-3 of their
range. MoorDyn-C integrates with its RK2 at dtM and extrapolates each coupled point linearly over
a step of 0.0125 s; floatwind integrates the states with RK4 at 0.00625 s on the exact path. Both
start at rest: MoorDyn-C from its own initial-condition solver (TmaxIC 300 s), floatwind from its
static solve. Measured (moordyn 2.7.2): node positions <= 1.2e-4 of their range (at least 1 mm),
end-B segment tensions <= 7.9e-4.
"""

from __future__ import annotations

import math
import pathlib
from types import SimpleNamespace

import numpy as np
import pytest

moordyn = pytest.importorskip("moordyn")

ROOT = pathlib.Path(__file__).resolve().parents[1]
REF10 = ROOT.parent / "shared" / "reference" / "openfast" / "ref10_moordyn_decay"
ENV = SimpleNamespace(rho_water=1025.0, gravity=9.80665, water_depth=320.0)
A, W, T_END, DT = 5.0, 2.0 * math.pi / 20.0, 10.0, 0.0125


def _path(t):
    off = np.array([A * (1 - math.cos(W * t)), 0.0, 0.5 * A * (1 - math.cos(W * t))])
    vel = np.array([A * W * math.sin(W * t), 0.0, 0.5 * A * W * math.sin(W * t)])
    return off, vel


@pytest.mark.skipif(not REF10.is_dir(), reason="reference ref10 not available")
def test_lines_follow_moordyn_c_along_a_prescribed_fairlead_path(tmp_path):
    from floatwind._kernels import lumped as kl
    from floatwind._kernels.contract import body_kinematics
    from floatwind.case.openfast.moordyn import read_moordyn_lumped
    from floatwind.loads.moordyn import LumpedMassMooring
    from floatwind.records import Kinematics

    src = (REF10 / "MoorDyn.dat").read_text(encoding="latin-1")
    src = src.replace(
        "---------------------- SOLVER OPTIONS ---------------------------------------",
        "---------------------- OPTIONS ----------------------------------------\n"
        "9.80665  g  - gravity\n1025.0   rhoW - water density\n320.0    WtrDpth - water depth",
    )
    path = tmp_path / "md.dat"
    path.write_text(src, encoding="latin-1")
    fair = np.array([[5.2, 0, -70], [-2.6, 4.5033321, -70], [-2.6, -4.5033321, -70]])

    # MoorDyn-C: positions and velocities of the coupled points at the start of each step
    md = moordyn.Create(str(path))
    moordyn.Init(md, fair.ravel().tolist(), [0.0] * 9)
    lines = [moordyn.GetLine(md, i) for i in (1, 2, 3)]
    n_steps = int(round(T_END / DT))
    ref_pos, ref_ten = [], []
    t = 0.0
    for _ in range(n_steps):
        off, vel = _path(t)
        moordyn.Step(md, (fair + off).ravel().tolist(), np.tile(vel, 3).tolist(), t, DT)
        t += DT
        ref_pos.append([moordyn.GetLineNodePos(lines[0], i) for i in range(21)])
        ref_ten.append([moordyn.GetLineFairTen(ln) for ln in lines])
    moordyn.Close(md)

    # floatwind: the same file, the exact path, RK4 at DT/2
    cfg, _ = read_moordyn_lumped(path, depth=320.0, rho=1025.0, gravity=9.80665)
    ld = LumpedMassMooring(body=0, line_types=cfg["line_types"], points=cfg["points"],
                           lines=cfg["lines"], kbot=3.0e6, cbot=3.0e5)  # fmt: skip

    def kin(t):
        off, vel = _path(t)
        return Kinematics(t, off[None, None].copy(), np.eye(3)[None, None].copy(),
                          vel[None, None].copy(), np.zeros((1, 1, 3)), np.zeros((1, 3)))  # fmt: skip

    p = ld._params(ENV, 1)
    f, m, a = np.zeros((1, 1, 3)), np.zeros((1, 1, 3)), np.zeros((1, 1, 6, 6))

    def rate(t, y):
        dy = np.zeros_like(y)
        kl.lumped_kernel(p, t, body_kinematics(kin(t)), y, dy, f, m, a)
        return dy

    y = ld.static_states(kin(0.0), ENV)
    h = DT / 2
    pos, ten = [], []
    t = 0.0
    for _ in range(n_steps):
        for _ in range(2):
            k1 = rate(t, y)
            k2 = rate(t + h / 2, y + h / 2 * k1)
            k3 = rate(t + h / 2, y + h / 2 * k2)
            k4 = rate(t + h, y + h * k3)
            y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
            t += h
        rate(t, y)  # the node data of (t, y) in the params' scratch
        pos.append(p.scratch_r[0, :21].copy())
        # MoorDyn-C's GetLineFairTen: the magnitude of the last segment's T + Td
        ten.append([abs(p.scratch_seg[0, int(ld.seg0[j]) + 19, 1]) for j in range(3)])
    pos, ref_pos = np.array(pos), np.array(ref_pos)
    ten, ref_ten = np.array(ten), np.array(ref_ten)

    def nrmse(a, b, floor):
        """RMS difference over the range (at least ``floor``, as compare.py's RANGE_FLOOR: the
        nodes resting on the seabed move by microns)."""
        return float(np.sqrt(np.mean((a - b) ** 2)) / max(float(np.ptp(b)), floor))

    per_node = {(i, c): nrmse(pos[:, i, c], ref_pos[:, i, c], 1e-3) for i in range(1, 20)
                for c in (0, 2)}  # fmt: skip
    worst_pos = max(per_node.values())
    worst_ten = max(nrmse(ten[:, j], ref_ten[:, j], 1.0) for j in range(3))
    print(f"node positions NRMSE <= {worst_pos:.2e}, end-B tensions NRMSE <= {worst_ten:.2e}")
    assert worst_pos < 1e-3 and worst_ten < 1e-3, (worst_pos, worst_ten)
    assert np.ptp(ref_ten[:, 0]) > 1e5  # the path loads the lines
