"""Added mass from Morison moved to the inertia side of the MCM (coupled 6x6 solve).

A surface-piercing cylinder (D = 2 m, 20 m draft) with its CM at the centre of the wetted length,
a surge spring at the CM, still water, no drag, no gravity: surge decouples from pitch and
oscillates at omega = sqrt(k / (m + A11)), A11 = rho pi D^2/4 C_a L.
"""

import numpy as np

from floatwind.case import model_from_dict
from floatwind.simulate import simulate

RHO, D, L, CA = 1025.0, 2.0, 20.0, 1.0


def _case(ca: float, t_max: float = 30.0):
    m = 5.0e4
    k = 2.0e4
    K = np.zeros((6, 6))
    K[0, 0] = k
    K[4, 4] = 1e9  # keep pitch small
    K[3, 3] = 1e9
    return {
        "name": "cylinder_surge",
        "bodies": [{"name": "cyl", "mass": m, "cm": [0.0, 0.0, -L / 2], "inertia": [2e6, 2e6, 1e5]}],
        "reference_point": [0.0, 0.0, 0.0],
        "loads": [
            {"type": "linear", "body": "cyl", "point": [0.0, 0.0, -L / 2], "point0": [0.0, 0.0, -L / 2],
             "stiffness": K.tolist()},
            {"type": "morison", "body": "cyl", "cd": 0.0, "ca": ca, "cm": 1.0 + ca, "strip_length": 1.0,
             "members": [{"end_a": [0.0, 0.0, -L], "end_b": [0.0, 0.0, 5.0], "diameter": D}]},
        ],
        "initial": {"displacement": [0.5, 0.0, 0.0]},
        "simulation": {"t_max": t_max, "dt": 0.05, "dt_out": 0.1},
    }, m, k


def test_surge_period_includes_morison_added_mass():
    cfg, m, k = _case(CA)
    ds = simulate(model_from_dict(cfg))
    A11 = RHO * np.pi * D**2 / 4 * CA * L
    w = np.sqrt(k / (m + A11))
    x = ds.PtfmSurge.values
    np.testing.assert_allclose(x, 0.5 * np.cos(w * ds.time.values), atol=2e-3 * 0.5)
    # without added mass the period is visibly different (the test can fail)
    cfg0, _, _ = _case(0.0)
    x0 = simulate(model_from_dict(cfg0)).PtfmSurge.values
    assert np.abs(x0 - x).max() > 0.1
    np.testing.assert_allclose(x0, 0.5 * np.cos(np.sqrt(k / m) * ds.time.values), atol=1e-3)


def test_total_external_force_includes_added_mass_reaction():
    cfg, m, k = _case(CA, t_max=5.0)
    ds = simulate(model_from_dict(cfg))
    # Newton: (m) a = total external force, with the added-mass reaction included in ExtFx
    a = np.gradient(ds.X1d.values, ds.time.values)
    np.testing.assert_allclose(m * a[5:-5], ds.ExtFx.values[5:-5], rtol=0, atol=2e-3 * k * 0.5)
