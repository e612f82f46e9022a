"""The OC3-Hywind rigid model of the ref06 reference (OC3 platform + turbine as one body, buoyancy
and hydrostatic stiffness as HydroDyn's AddF0/AddCLin, additional damping) with either the
three catenary lines + the yaw spring, or the OC3 linearised mooring matrix + vertical preload
(Jonkman 2010, as cases/oc3_platform_decay.yaml)."""

from __future__ import annotations

import math

import numpy as np

G, RHO = 9.80665, 1025.0
LENGTH, EA = 902.2, 384.243e6
WET = G * (77.7066 - RHO * math.pi * 0.09**2 / 4)

#: OC3 definition (Jonkman 2010), quoted in ref01's README (F = -K q about the PRP)
K_OC3 = {(0, 0): 41180.0, (1, 1): 41180.0, (0, 4): -2.821e6, (1, 3): 2.821e6, (2, 2): 11940.0,
         (3, 3): 3.111e8, (4, 4): 3.111e8, (5, 5): 1.156e7}  # fmt: skip


def oc3_geometry(offset=(0.0, 0.0, 0.0)):
    """Fairleads (displaced by ``offset``) and anchors (3, 3) of the lines at 180/60/300 deg."""
    ang = np.radians([180.0, 60.0, 300.0])
    fair = np.stack([5.2 * np.cos(ang), 5.2 * np.sin(ang), np.full(3, -70.0)], 1)
    anch = np.stack([853.87 * np.cos(ang), 853.87 * np.sin(ang), np.full(3, -320.0)], 1)
    return fair + np.asarray(offset, dtype=float), anch


def oc3_case(mooring: str, *, displacement=(0.0, 0.0, 0.0), angles=(0.0, 0.0, 0.0),
             t_max: float = 10.0, dt: float = 0.05, dt_out: float = 0.25) -> dict:  # fmt: skip
    """Case dict: ``mooring`` = "catenary" or "matrix"."""
    fair, anch = oc3_geometry()
    hydro_k = np.diag([0.0, 0.0, 332941.0, -4.99918e9, -4.99918e9, 9.834e7])
    loads: list[dict] = [{"type": "gravity"}]
    if mooring == "catenary":
        f0 = 80708143.6  # buoyancy (ref06 README)
        k = hydro_k
    elif mooring == "matrix":
        f0 = 80708143.6 - 1607000.0  # buoyancy minus the OC3 vertical mooring preload
        k = hydro_k.copy()
        for (i, j), v in K_OC3.items():
            k[i, j] += v
            if i != j:
                k[j, i] += v
    else:
        raise ValueError(mooring)
    loads.append(
        {"type": "linear", "name": "hydro", "body": "platform", "point": [0.0, 0.0, 0.0],
         "f0": [0.0, 0.0, f0, 0.0, 0.0, 0.0], "stiffness": k.tolist(),
         "damping": [1e5, 1e5, 1.3e5, 0.0, 0.0, 1.3e7]}
    )  # fmt: skip
    if mooring == "catenary":
        loads.append(
            {"type": "mooring_catenary", "body": "platform",
             "lines": [{"fairlead": fair[i].tolist(), "anchor": anch[i].tolist(),
                        "length": LENGTH, "mass_per_length": 77.7066, "diameter": 0.09,
                        "ea": EA, "seabed_friction": 0.001} for i in range(3)]}
        )  # fmt: skip
    return {
        "name": f"oc3_rigid_{mooring}",
        "environment": {"gravity": G, "rho_water": RHO, "water_depth": 320.0},
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
        "loads": loads,
        "initial": {
            "displacement": [list(map(float, d)) for d in np.atleast_2d(displacement)],
            "angles": [list(map(float, a)) for a in np.atleast_2d(angles)],
        },  # fmt: skip
        "simulation": {"t_max": t_max, "dt": dt, "dt_out": dt_out, "integrator": "rk4"},
    }


#: the connect-node check: two 60 m bridle legs from fairleads 6 m apart to a node carrying a
#: 2 t clump and a 0.5 m^3 buoy, and an 850 m line from the node to an anchor on the seabed
BRIDLE_FAIRLEADS = ([5.0, 3.0, -70.0], [5.0, -3.0, -70.0])
BRIDLE_ANCHOR = [853.87, 0.0, -320.0]
BRIDLE_NODE = {"name": "yoke", "position": [60.0, 0.0, -100.0], "mass": 2000.0, "volume": 0.5}


def bridle_lines(mass: float = 2000.0, volume: float = 0.5):
    """(lines, connects) of the bridle for ``mooring_catenary`` (OC3 chain properties)."""
    chain = {"mass_per_length": 77.7066, "diameter": 0.09, "ea": EA}
    fa, fb = BRIDLE_FAIRLEADS
    lines = [
        {"fairlead": list(fa), "anchor": "yoke", "length": 60.0, **chain},
        {"fairlead": list(fb), "anchor": "yoke", "length": 60.0, **chain},
        {"fairlead": "yoke", "anchor": list(BRIDLE_ANCHOR), "length": 850.0, **chain,
         "seabed_friction": 0.0},
    ]  # fmt: skip
    return lines, [dict(BRIDLE_NODE) | {"mass": mass, "volume": volume}]


def moorpy_bridle(offset):
    """MoorPy's equilibrium of the bridle with the fairleads moved by ``offset`` (m): the
    system (lines in the order of :func:`bridle_lines`, the node is point 4)."""
    import moorpy as mp

    d, mu = 0.09, 77.7066
    ms = mp.System(depth=320.0, rho=RHO, g=G)
    ms.lineTypes["c"] = {"name": "c", "d_vol": d, "m": mu, "EA": EA, "w": WET, "MBL": 0,
                         "cost": 0, "material": "chain", "input_d": d, "input_type": {}}  # fmt: skip
    off = np.asarray(offset, dtype=float)
    for fair in BRIDLE_FAIRLEADS:
        ms.addPoint(1, np.array(fair) + off)
    ms.addPoint(1, np.array(BRIDLE_ANCHOR))
    ms.addPoint(0, np.array(BRIDLE_NODE["position"]), m=BRIDLE_NODE["mass"],
                v=BRIDLE_NODE["volume"])  # fmt: skip
    ms.addLine(60.0, "c", pointA=4, pointB=1)
    ms.addLine(60.0, "c", pointA=4, pointB=2)
    ms.addLine(850.0, "c", pointA=3, pointB=4)
    ms.initialize()
    ms.solveEquilibrium(tol=1e-10, maxIter=2000)
    return ms
