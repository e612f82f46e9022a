"""All loads in one model: built from one YAML section, summed, total wrench about the system CM."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest
import yaml

from floatwind.environment import Environment
from floatwind.loads.base import Kinematics, Wrench
from floatwind.loads.hydrostatics import Hydrostatics
from floatwind.loads.mooring import TautMooring
from floatwind.loads.morison import MorisonMembers
from floatwind.loads.thrust import RotorThrust
from floatwind.rotation import euler123_matrix

DATA = pathlib.Path(__file__).resolve().parents[1] / "cases" / "data"
CASE = """
loads:
  - type: hydrostatics
    body: platform
    members:
      - {z_bottom: -4.0, z_top: 10.0, diameter: 6.5}
      - {z_bottom: -12.0, z_top: -4.0, diameter_bottom: 9.4, diameter_top: 6.5}
      - {z_bottom: -120.0, z_top: -12.0, diameter: 9.4}
  - type: morison
    body: platform
    strip_length: 2.0
    members:
      - {end_a: [0, 0, -120], end_b: [0, 0, -12], diameter: 9.4}
      - {end_a: [0, 0, -12], end_b: [0, 0, -4], diameter_a: 9.4, diameter_b: 6.5}
      - {end_a: [0, 0, -4], end_b: [0, 0, 10], diameter: 6.5}
  - type: mooring_taut
    body: platform
    lines:
      - {fairlead: [5.2, 0, -70], anchor: [450, 0, -320], ea: 3.84e8, pretension: 1.0e6}
      - {fairlead: [-2.6, 4.5, -70], anchor: [-225, 389.7, -320], ea: 3.84e8, pretension: 1.0e6}
      - {fairlead: [-2.6, -4.5, -70], anchor: [-225, -389.7, -320], ea: 3.84e8, pretension: 1.0e6}
  - type: thrust_ct
    body: rna
    rotor_centre: [-5.0, 0.0, 0.0]
    rotor_radius: 63.0
    ct_curve: ct_curve_fig14.csv
    rated_power: 5.0e6
    rotor_speed_rpm: 12.1
"""
BUILDERS = {
    "hydrostatics": Hydrostatics,
    "morison": MorisonMembers,
    "mooring_taut": TautMooring,
    "thrust_ct": RotorThrust,
}


class Current:
    n_realizations = 1

    def elevation(self, t, xy):
        return 0.3 * np.ones(np.shape(xy)[:-1])

    def kinematics(self, t, p):
        v = np.zeros(np.shape(p))
        v[..., 0] = 0.5
        return v, np.zeros(np.shape(p))


class Wind:
    n_realizations = 1

    def velocity(self, t, p):
        v = np.zeros(np.shape(p))
        v[..., 0] = 14.0
        return v


def total_about(kin: Kinematics, wrench: Wrench, point: np.ndarray):
    """Resultant force and moment about ``point`` (B, 3) of all bodies' loads."""
    force = wrench.force.sum(axis=1)
    moment = (wrench.moment + np.cross(kin.r_G_g - point[:, None], wrench.force)).sum(axis=1)
    return force, moment


def test_all_loads_compose_in_one_model():
    cfg = yaml.safe_load(CASE)
    body_index = {"platform": 0, "rna": 1}
    loads = [
        BUILDERS[sec["type"]].from_config(
            sec, body_index=body_index, field=f"loads[{i}]", base_dir=DATA
        )
        for i, sec in enumerate(cfg["loads"])
    ]
    B = 4
    ang = np.array([[0, 0, 0], [0.05, 0.1, 0.0], [0.0, 0.4, 0.2], [-0.1, 0.2, 0.5]])
    R = euler123_matrix(ang)
    o = np.array([[0, 0, 0], [3.0, 1.0, -0.5], [10.0, -2.0, 1.0], [0.0, 0.0, 0.4]])
    cm_b = np.array([[0.0, 0.0, -89.9155], [-0.4, 0.0, 1.9]])
    rna_origin_b = np.array([0.0, 0.0, 87.6])  # RNA frame origin in the platform frame
    r_G = np.stack(
        [
            o + np.einsum("bij,j->bi", R, cm_b[0]),
            o + np.einsum("bij,j->bi", R, rna_origin_b + cm_b[1]),
        ],
        axis=1,
    )
    Rs = np.stack([R, R], axis=1)
    v = np.zeros((B, 2, 3))
    w = np.zeros((B, 2, 3))
    w[:, :, 1] = 0.01
    v[:, 0] = np.cross(w[:, 0], r_G[:, 0] - o)
    v[:, 1] = np.cross(w[:, 0], r_G[:, 1] - o)
    kin = Kinematics(0.0, r_G, Rs, v, w, cm_b)
    env = Environment(sea=Current(), wind=Wind())

    total = Wrench.zeros(B, 2)
    parts = []
    names = set()
    for load in loads:
        part = load.wrench(0.0, kin, env)
        assert not (names & set(part.channels)), "channel names must not collide"
        names |= set(part.channels)
        assert set(part.channels) == set(load.channel_info())
        parts.append(part)
        total += part
    assert total.added_mass.shape == (B, 2, 6, 6)
    assert np.all(total.added_mass[:, 1] == 0.0)
    # total external force and moment about the system CM
    masses = np.array([7.466e6, 3.5e5])
    r_S = np.einsum("n,bni->bi", masses, r_G) / masses.sum()
    force, moment = total_about(kin, total, r_S)
    f_ref = sum(p.force.sum(axis=1) for p in parts)
    m_ref = sum(total_about(kin, p, r_S)[1] for p in parts)
    assert np.allclose(force, f_ref) and np.allclose(moment, m_ref, rtol=1e-10, atol=1e-3)
    # upright, still: buoyancy - mooring pretension (vertical) dominates, thrust pushes downwind
    assert force[0, 2] > 0 and force[0, 0] > 0
    assert total.channels["RtAeroFxh"][0] > 0
    assert total.channels["HstVol"][0] == pytest.approx(8029.21 + np.pi * 3.25**2 * 0.0, rel=1e-4)
