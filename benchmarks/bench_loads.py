"""Cost per load evaluation (``wrench``) for B = 1 and B = 256 (not part of the test run).

OC3-like platform: Morison with 60 strips (3 members), nonlinear hydrostatics (3 members),
4 taut lines, rotor thrust; a single Airy wave and a uniform wind, random poses near upright
(some strips and the tapered part cross the surface). Prints microseconds per call, per call and
batch member, and the B = 256 / B = 1 ratio of the per-member cost.

    python benchmarks/bench_loads.py [--repeat N]
"""

from __future__ import annotations

import argparse
import pathlib
import timeit

import numpy as np

from floatwind.environment import Environment
from floatwind.loads.base import Kinematics
from floatwind.loads.hydrostatics import Hydrostatics
from floatwind.loads.mooring import TautMooring
from floatwind.loads.morison import MorisonMember, MorisonMembers
from floatwind.loads.thrust import CTCurve, RotorThrust
from floatwind.rotation import euler123_matrix

ROOT = pathlib.Path(__file__).resolve().parents[1]


class AiryWave:
    n_realizations = 1

    def __init__(self, amplitude=2.0, period=10.0, g=9.80665):
        self.a, self.w = amplitude, 2 * np.pi / period
        self.k = self.w**2 / g

    def elevation(self, t, xy):
        return self.a * np.cos(self.k * xy[..., 0] - self.w * t)

    def kinematics(self, t, p):
        ph = self.k * p[..., 0] - self.w * t
        ez = np.exp(self.k * np.minimum(p[..., 2], 0.0)) * self.a * self.w
        vel = np.stack([ez * np.cos(ph), 0 * ph, ez * np.sin(ph)], axis=-1)
        acc = np.stack([ez * self.w * np.sin(ph), 0 * ph, -ez * self.w * np.cos(ph)], axis=-1)
        return vel, acc


class UniformWind:
    n_realizations = 1

    def velocity(self, t, p):
        v = np.zeros(np.shape(p))
        v[..., 0] = 18.2
        return v


def build_loads():
    def mem(za, zb, da, db, n):
        return MorisonMember(np.array([0, 0, za]), np.array([0, 0, zb]), da, db, n_strips=n)

    morison = MorisonMembers(
        body=0,
        members=[
            mem(-120, -12, 9.4, 9.4, 40),
            mem(-12, -4, 9.4, 6.5, 8),
            mem(-4, 10, 6.5, 6.5, 12),
        ],
    )
    assert morison.n_strips == 60
    hydro = Hydrostatics(
        body=0,
        members=[
            dict(z_bottom=-4.0, z_top=10.0, diameter=6.5),
            dict(z_bottom=-12.0, z_top=-4.0, diameter_bottom=9.4, diameter_top=6.5),
            dict(z_bottom=-120.0, z_top=-12.0, diameter=9.4),
        ],
    )
    lines = []
    for k in range(4):
        a = k * np.pi / 2
        lines.append(
            dict(
                fairlead=[5.2 * np.cos(a), 5.2 * np.sin(a), -70.0],
                anchor=[450 * np.cos(a), 450 * np.sin(a), -320.0],
                ea=3.84e8,
                pretension=1e6,
                damping=1e4,
            )
        )
    mooring = TautMooring(body=0, lines=lines)
    thrust = RotorThrust(
        body=0,
        rotor_centre=[-5.0, 0.0, 90.0],
        rotor_area=np.pi * 63.0**2,
        ct_curve=CTCurve.from_csv(ROOT / "cases" / "data" / "ct_curve_fig14.csv"),
        rated_power=5e6,
        rotor_speed=1.267,
    )
    return {
        "morison(60 strips)": morison,
        "hydrostatics": hydro,
        "mooring(4 lines)": mooring,
        "thrust": thrust,
    }


def kinematics(B, rng):
    ang = rng.normal(0.0, 0.1, size=(B, 3))
    R = euler123_matrix(ang)
    cm = np.array([0.0, 0.0, -89.9155])
    o = rng.normal(0.0, 1.0, size=(B, 3))
    r_G = o + np.einsum("bij,j->bi", R, cm)
    v = rng.normal(0.0, 0.3, size=(B, 3))
    w = rng.normal(0.0, 0.02, size=(B, 3))
    return Kinematics(0.0, r_G[:, None], R[:, None], v[:, None], w[:, None], cm[None])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    env = Environment(sea=AiryWave(), wind=UniformWind())
    loads = build_loads()
    kins = {B: kinematics(B, rng) for B in (1, 256)}
    print(
        f"{'load':22s} {'B=1 us/call':>12s} {'B=256 us/call':>14s} {'us/member':>10s} {'ratio':>7s}"
    )
    rows = list(loads.items()) + [("all four", None)]
    for name, load in rows:
        cost = {}
        for B, kin in kins.items():
            if load is None:
                fn = lambda kin=kin: [ld.wrench(1.0, kin, env) for ld in loads.values()]  # noqa: E731
            else:
                fn = lambda kin=kin, load=load: load.wrench(1.0, kin, env)  # noqa: E731
            number = 2000 if B == 1 else 50
            cost[B] = min(timeit.repeat(fn, number=number, repeat=args.repeat)) / number * 1e6
        per_member = cost[256] / 256
        print(
            f"{name:22s} {cost[1]:12.1f} {cost[256]:14.1f} {per_member:10.2f} "
            f"{cost[1] / per_member:7.1f}x"
        )


if __name__ == "__main__":
    main()
