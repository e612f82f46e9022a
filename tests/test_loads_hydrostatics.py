"""Nonlinear hydrostatics (Wang 3.14-3.15): OC3 regression, exactness at large tilt, invariants."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import integrate

from floatwind.environment import Environment
from floatwind.errors import CaseError
from floatwind.loads.base import Kinematics
from floatwind.loads.hydrostatics import Hydrostatics
from floatwind.rotation import euler123_matrix

RHO, G = 1025.0, 9.80665
ENV = Environment(gravity=G, rho_water=RHO)
# OC3-Hywind spar (Jonkman 2010, NREL/TP-500-47535), body frame origin at the SWL point
OC3 = [
    dict(z_bottom=-4.0, z_top=10.0, diameter=6.5),
    dict(z_bottom=-12.0, z_top=-4.0, diameter_bottom=9.4, diameter_top=6.5),
    dict(z_bottom=-120.0, z_top=-12.0, diameter=9.4),
]
CM_B = np.array([0.0, 0.0, -89.9155])


def make_kin(R, origin, cm_b=CM_B):
    R = np.asarray(R, float).reshape(-1, 3, 3)
    origin = np.broadcast_to(np.asarray(origin, float), (R.shape[0], 3))
    r_G = origin + np.einsum("bij,j->bi", R, cm_b)
    z = np.zeros_like(r_G)
    return Kinematics(0.0, r_G[:, None], R[:, None], z[:, None], z[:, None], cm_b[None])


def hst_about_origin(load, R, origin):
    w = load.wrench(0.0, make_kin(R, origin), ENV)
    force = w.force[:, 0]
    moment = np.stack([w.channels[f"HstM{a}i"] for a in "xyz"], axis=-1)
    return force, moment


def direct_integration(member, R, origin):
    """Wetted volume and centroid (inertial) of one vertical member by dblquad over its section.

    For every point (rho, phi) of the section the axial wet length is found from the plane and
    the local radius; independent of the library's slicing and of (3.15).
    """
    z0, z1 = member["z_bottom"], member["z_top"]
    d0 = member.get("diameter", member.get("diameter_bottom"))
    d1 = member.get("diameter", member.get("diameter_top"))
    r0, r1 = d0 / 2, d1 / 2
    n = R[2]
    c = origin[2]

    def wet_range(rho, phi):
        # axial range where the section radius r(z) >= rho
        if r1 == r0:
            lo, hi = (z0, z1) if rho <= r0 else (0.0, 0.0)
        else:
            zr = z0 + (rho - r0) * (z1 - z0) / (r1 - r0)
            lo, hi = (max(z0, zr), z1) if r1 > r0 else (z0, min(z1, zr))
        if hi <= lo:
            return 0.0, 0.0
        # wet: c + n1 x + n2 y + n3 z < 0
        s = c + n[0] * rho * np.cos(phi) + n[1] * rho * np.sin(phi)
        if abs(n[2]) < 1e-14:
            return (lo, hi) if s < 0 else (0.0, 0.0)
        zs = -s / n[2]
        if n[2] > 0:
            hi = min(hi, zs)
        else:
            lo = max(lo, zs)
        return (lo, hi) if hi > lo else (0.0, 0.0)

    rmax = max(r0, r1)
    opts = dict(epsabs=1e-12, epsrel=1e-11)

    def integrand(k):
        def f(rho, phi):
            lo, hi = wet_range(rho, phi)
            ln = hi - lo
            if k == 0:
                val = ln
            elif k == 1:
                val = rho * np.cos(phi) * ln
            elif k == 2:
                val = rho * np.sin(phi) * ln
            else:
                val = 0.5 * (hi * hi - lo * lo)
            return val * rho

        return f

    vals = [integrate.dblquad(integrand(k), 0, 2 * np.pi, 0, rmax, **opts)[0] for k in range(4)]
    vol = vals[0]
    cen_b = np.array(vals[1:]) / vol if vol > 0 else np.zeros(3)
    return vol, origin + R @ cen_b


def slice_integration(member, R, origin):
    """Wetted volume and centroid (inertial) by adaptive quadrature over axial slices.

    Each slice is a disc of radius r(z) cut by the water line: area r^2 acos(-d/r) + d sqrt(r^2 -
    d^2) for the part xi < d. Used where the plane cuts end caps (dblquad is slow there).
    """
    z0, z1 = member["z_bottom"], member["z_top"]
    d0 = member.get("diameter", member.get("diameter_bottom"))
    d1 = member.get("diameter", member.get("diameter_top"))
    n = R[2]
    m = np.hypot(n[0], n[1])
    u = n[:2] / m if m > 0 else np.zeros(2)

    def radius(z):
        return 0.5 * (d0 + (d1 - d0) * (z - z0) / (z1 - z0))

    def parts(z):
        r = radius(z)
        level = origin[2] + n[2] * z
        d = -level / m if m > 0 else (np.inf if level < 0 else -np.inf)
        d = min(max(d, -r), r)
        area = r * r * np.arccos(-d / r) + d * np.sqrt(r * r - d * d)
        first = -(2.0 / 3.0) * (r * r - d * d) ** 1.5
        return area, first

    opts = dict(epsabs=1e-10, epsrel=1e-12, limit=400)
    vol = integrate.quad(lambda z: parts(z)[0], z0, z1, **opts)[0]
    if vol == 0.0:
        return 0.0, origin
    xi = integrate.quad(lambda z: parts(z)[1], z0, z1, **opts)[0] / vol
    zc = integrate.quad(lambda z: z * parts(z)[0], z0, z1, **opts)[0] / vol
    cen_b = np.array([u[0] * xi, u[1] * xi, zc])
    return vol, origin + R @ cen_b


def test_oc3_volume_and_tangent_stiffness():
    """Regression: C33, C44 = C55 of the OC3 definition (buoyancy part) by finite differences."""
    load = Hydrostatics(body=0, members=OC3)
    vol, _ = load.buoyancy(np.eye(3)[None], np.zeros((1, 3)))
    assert vol[0] == pytest.approx(8029.21, rel=2e-5)  # HydroDyn summary of ref04
    d = 1e-3
    I = np.eye(3)
    f_up, _ = hst_about_origin(load, I, [0, 0, d])
    f_dn, _ = hst_about_origin(load, I, [0, 0, -d])
    c33 = -(f_up[0, 2] - f_dn[0, 2]) / (2 * d)
    assert c33 == pytest.approx(332_941.0, rel=5e-3)
    for axis, i in {"roll": 0, "pitch": 1}.items():
        ang = np.zeros((2, 3))
        ang[0, i], ang[1, i] = d, -d
        _, m = hst_about_origin(load, euler123_matrix(ang), np.zeros(3))
        k = -(m[0, i] - m[1, i]) / (2 * d)
        assert k == pytest.approx(-4.999e9, rel=5e-3), axis
    # analytic: rho g (I_wp + V z_B), Jonkman's value is -4.99918e9
    _, cb = load.buoyancy(np.eye(3)[None], np.zeros((1, 3)))
    c44_exact = RHO * G * (np.pi * 3.25**4 / 4 + vol[0] * cb[0, 2])
    assert k == pytest.approx(c44_exact, rel=1e-6)


@pytest.mark.filterwarnings("ignore::scipy.integrate.IntegrationWarning")
@pytest.mark.parametrize("angles", [(0.4, 0.0, 0.0), (0.0, 0.4, 0.0), (0.3, 0.28, 0.7)])
def test_large_tilt_closed_form_matches_direct_integration(angles):
    """Wang (3.15) at the dissertation's 0.4 rad tilt vs direct integration, 1e-6 relative."""
    cyl = dict(z_bottom=-30.0, z_top=15.0, diameter=6.5)
    load = Hydrostatics(body=0, members=[cyl])
    R = euler123_matrix(np.array(angles))
    origin = np.array([3.0, -2.0, 1.7])
    vol, cb_b = load.buoyancy(R[None], origin[None])
    ref_vol, ref_cb = direct_integration(cyl, R, origin)
    assert vol[0] == pytest.approx(ref_vol, rel=1e-6)
    cb_g = origin + R @ cb_b[0]
    scale = np.linalg.norm(ref_cb - origin)
    assert np.max(np.abs(cb_g - ref_cb)) < 1e-6 * scale
    # Wang (3.14) in the dissertation's form: CM on the axis at depth rho_gm at equilibrium,
    # heave X3 of the CM, tilt about the CM, draft h0 at equilibrium
    rho_gm, h0, x3 = 20.0, 30.0, 1.3
    r_G = np.array([4.0, -1.0, -rho_gm + x3])
    origin_314 = r_G - R @ np.array([0.0, 0.0, -rho_gm])
    vol2, _ = load.buoyancy(R[None], origin_314[None])
    cos_t1 = np.cos(angles[0]) * np.cos(angles[1])  # Wang: cos(theta1) = cos X4 cos X5
    h1_314 = (rho_gm - x3) / cos_t1 - rho_gm + h0
    assert vol2[0] / (np.pi * 3.25**2) == pytest.approx(h1_314, rel=1e-12)


@pytest.mark.parametrize(
    "angles, z0",
    [
        ((0.0, 0.0, 0.0), 0.0),
        ((0.4, 0.0, 0.0), -3.0),  # taper pierces the surface
        ((1.2, 0.3, 0.0), 5.0),  # plane cuts the end caps
        ((0.2, 2.9, 0.0), -60.0),  # nearly upside down
        ((np.pi / 2, 0.0, 0.3), -2.0),  # lying on its side
    ],
)
def test_force_is_rho_g_times_wetted_volume_any_pose(angles, z0):
    """Invariant: buoyancy = rho g V and acts through the centre of buoyancy (independent V)."""
    members = [
        dict(z_bottom=-4.0, z_top=10.0, diameter=6.5),
        dict(z_bottom=-12.0, z_top=-4.0, diameter_bottom=9.4, diameter_top=6.5),
        dict(z_bottom=-40.0, z_top=-12.0, diameter=9.4),
    ]
    load = Hydrostatics(body=0, members=members)
    R = euler123_matrix(np.array(angles))
    origin = np.array([1.0, 2.0, z0])
    force, moment = hst_about_origin(load, R, origin)
    vols, firsts = 0.0, np.zeros(3)
    for mb in members:
        v, c = slice_integration(mb, R, origin)
        vols += v
        firsts += v * c
    assert force[0, 2] == pytest.approx(RHO * G * vols, rel=1e-7, abs=1e-3)
    assert np.allclose(force[0, :2], 0.0)
    if vols > 0:
        cb = firsts / vols
        expected = np.cross(cb - origin, np.array([0, 0, RHO * G * vols]))
        assert np.allclose(moment[0], expected, rtol=1e-6, atol=1e-6 * RHO * G * vols * 10)


def test_fully_submerged_parts_have_fixed_centres_and_batch():
    load = Hydrostatics(body=0, members=OC3)
    ang = np.array([[0.0, 0.0, 0.0], [0.4, 0.0, 0.0], [0.1, -0.2, 1.0], [0.0, 0.4, 0.0]])
    R = euler123_matrix(ang)
    origin = np.array([[0, 0, 0], [0, 0, -1], [5, 5, 0.5], [0, 0, 2]], float)
    vol, cb = load.buoyancy(R, origin)
    for b in range(4):
        v1, c1 = load.buoyancy(R[b : b + 1], origin[b : b + 1])
        assert vol[b] == v1[0] and np.array_equal(cb[b], c1[0])
    # dry body: no force
    v, _ = load.buoyancy(np.eye(3)[None], np.array([[0, 0, 200.0]]))
    assert v[0] == 0.0
    # deep: full volume at the fixed centroid
    v, c = load.buoyancy(euler123_matrix(np.array([[0.7, 0.2, 0.1]])), np.array([[0, 0, -500.0]]))
    assert v[0] == pytest.approx(np.sum(load.full_volume))


def test_from_config_and_bad_input():
    load = Hydrostatics.from_config(
        {"type": "hydrostatics", "body": "platform", "members": OC3},
        body_index={"platform": 0},
        field="loads[1]",
    )
    assert len(load.members) == 3
    with pytest.raises(CaseError, match="did you mean 'diameter'") as err:
        Hydrostatics.from_config(
            {"members": [dict(z_bottom=-1, z_top=1, diamter=2)]},
            body_index={"p": 0},
            field="loads[1]",
        )
    assert err.value.field == "loads[1].members[0].diamter"
    with pytest.raises(CaseError, match="above z_bottom") as err:
        Hydrostatics(body=0, members=[dict(z_bottom=1, z_top=-1, diameter=2)], field="x")
    assert err.value.field == "x.members[0].z_top"
    with pytest.raises(CaseError, match="> 0"):
        Hydrostatics(body=0, members=[dict(z_bottom=-1, z_top=1, diameter=-2)])
    with pytest.raises(CaseError, match="at least one"):
        Hydrostatics(body=0, members=[])
    with pytest.raises(CaseError, match="unknown body 'platfrom'.*did you mean 'platform'"):
        Hydrostatics.from_config(
            {"body": "platfrom", "members": OC3}, body_index={"platform": 0, "rna": 1}, field="l"
        )
