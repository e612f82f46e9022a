"""floatwind.model.spar: Table I platform weights exactly, OC3 CM and tilt inertia, hand checks."""

import math

import pytest

from floatwind.model.spar import OC3_PLATFORM, TABLE_I, build_spar, fit_oc3, table_i_design


@pytest.mark.parametrize("length", [72, 77, 85, 108])
def test_table_i_platform_weight_exact(length):
    p = table_i_design(length)
    assert p.mass == pytest.approx(TABLE_I[length]["platform_t"] * 1e3, rel=1e-12)
    assert p.draft == TABLE_I[length]["draft"]


def test_oc3_cm_and_inertia_within_3_percent():
    p = table_i_design(108)
    assert abs(p.cm_z / OC3_PLATFORM["cm_z"] - 1) < 0.03
    assert abs(p.inertia[0] / OC3_PLATFORM["tilt"] - 1) < 0.03
    assert p.displaced_volume == pytest.approx(8029.21, abs=0.01)  # OC3 [J10]
    # the yaw inertia is not fitted and is reported (docs/cases.md): thin shell + solid ballast
    assert 0.5 < p.inertia[2] / OC3_PLATFORM["yaw"] < 0.6


def test_fit_reproduces_the_stored_constants():
    mh, rho = fit_oc3()
    assert mh == pytest.approx(1_024_732.8, rel=1e-6)
    assert rho == pytest.approx(1_891.99, rel=1e-5)


def test_hand_check_uniform_cylinder():
    """No cone (uniform 9.4 m), ballast only: closed-form solid cylinder."""
    g = {"upper_diameter": 9.4, "z_top": 0.0}
    rho, m_b = 2000.0, 1.0e6
    p = build_spar(draft=100.0, hull_mass=1e-9, ballast_mass=m_b, ballast_density=rho, geometry=g)
    h = m_b / (rho * math.pi * 4.7**2)
    assert p.ballast_height == pytest.approx(h)
    assert p.cm_z == pytest.approx(-100 + h / 2, abs=1e-6)
    assert p.inertia[0] == pytest.approx(m_b * (4.7**2 / 4 + h**2 / 12), rel=1e-6)
    assert p.inertia[2] == pytest.approx(m_b * 4.7**2 / 2, rel=1e-6)
    assert p.displaced_volume == pytest.approx(math.pi * 4.7**2 * 100, rel=1e-12)


def test_thin_shell_hull():
    g = {"upper_diameter": 9.4, "z_top": 0.0}
    m = 1.0e6
    p = build_spar(draft=100.0, hull_mass=m, ballast_mass=0.0, ballast_density=1.0, geometry=g)
    assert p.cm_z == pytest.approx(-50.0, abs=1e-9)
    assert p.inertia[0] == pytest.approx(m * (4.7**2 / 2 + 100**2 / 12), rel=1e-6)
    assert p.inertia[2] == pytest.approx(m * 4.7**2, rel=1e-9)


def test_bad_input():
    with pytest.raises(ValueError):
        build_spar(draft=100.0, ballast_mass=1e6, ballast_density=2000.0)
    with pytest.raises(ValueError):
        build_spar(draft=30.0, hull_mass=1e6, ballast_mass=1e8, ballast_density=2000.0)
