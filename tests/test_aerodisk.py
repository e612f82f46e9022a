"""OpenFAST AeroDisk (CompAero = 1, issue 35 item 5): the input file, the load, its kernel.

Analytic checks (a constant-C_T disc in uniform wind, a tilted shaft, a rotor moving downwind,
the disc average of a sheared wind, the table's interpolation), invariants (mirrored yaw, a
batch member equals its run alone, the compiled kernel equals its Python form), bad input
(naming the file and the line) and a short compiled run of the OC3 model with the disc.
"""

from __future__ import annotations

import copy
import math
import pathlib

import numpy as np
import pytest

from floatwind._kernels import aerodisk as ka
from floatwind._kernels.contract import body_kinematics
from floatwind._kernels.status import AERODISK_OUTSIDE
from floatwind.environment import Environment
from floatwind.environment.wind import SteadyWind
from floatwind.errors import CaseError, SimulationError
from floatwind.io.aerodisk import aerodisk_table, read_aerodisk
from floatwind.loads.aerodisk import CHANNELS, AeroDisk, disc_points
from floatwind.loads.base import Kinematics

ROOT = pathlib.Path(__file__).resolve().parents[1]
RHO = 1.225
R = 63.0
AREA = math.pi * R**2
HUB = np.array([-5.0, 0.0, 90.0])
CM = np.array([0.0, 0.0, -78.0])

HEAD = """--- AERO DISK INPUT FILE -------
Sample actuator disk input file
--- SIMULATION CONTROL ---------
 FALSE        Echo            - Echo input data to "<RootName>.ADsk.ech" (flag)
  "default"   DT              - Integration time step (s)
--- ENVIRONMENTAL CONDITIONS ---
 {rho}   AirDens         - Air density (kg/m^3) (or "default")
--- ACTUATOR DISK PROPERTIES ---
 {radius}     RotorRad        - Rotor radius (m) (or "default")
"{names}"  InColNames      - Input column headers (string)
{dims}           InColDims       - Number of unique values in each column (-)
{header}  C_Fx   C_Fy   C_Fz   C_Mx   C_My   C_Mz
{units}  (-)    (-)    (-)    (-)    (-)    (-)
"""
TAIL = """--- OUTPUTS --------------------
              OutList         - The next line(s) contains a list of output parameters
"ADCt"
"ADFx, ADTSR"     - thrust
END of input file (the word "END" must appear in the first 3 columns of this last OutList line)
---------------------------------------
"""


def write_table(tmp_path, names, dims, rows, *, rho="1.225", radius="63.0", name="ad.dat",
                tail=TAIL):  # fmt: skip
    """An AeroDisk input file in AeroDisk's documented format (input_files.rst)."""
    units = {"TSR": "(-)", "RtSpd": "(rpm)", "VRel": "(m/s)", "Pitch": "(deg)", "Skew": "(deg)"}
    text = HEAD.format(rho=rho, radius=radius, names=",".join(names),
                       dims=",".join(str(d) for d in dims), header="  ".join(names),
                       units="  ".join(units.get(n, "(-)") for n in names))  # fmt: skip
    text += "".join("  " + "  ".join(f"{x:.10g}" for x in row) + "\n" for row in rows)
    path = tmp_path / name
    path.write_text(text + tail)
    return path


def tsr_pitch_rows(ct=0.8, cq=lambda tsr, pitch: 0.01 * tsr - 0.001 * pitch, tsrs=(2.0, 6.0, 12.0),
                   pitches=(0.0, 10.0)):  # fmt: skip
    return [[t, p, ct, 0.0, 0.0, cq(t, p), 0.0, 0.0] for p in pitches for t in tsrs]


def make_kin(R=None, r_G=CM, v_G=None, w=None, B=None):
    """Kinematics of one body (batch of the leading axis of ``R``)."""
    R = np.asarray(np.eye(3) if R is None else R, float).reshape(-1, 3, 3)
    B = R.shape[0] if B is None else B
    R = np.broadcast_to(R, (B, 3, 3))
    r_G = np.broadcast_to(np.asarray(r_G, float), (B, 3))
    v_G = np.zeros((B, 3)) if v_G is None else np.broadcast_to(np.asarray(v_G, float), (B, 3))
    w = np.zeros((B, 3)) if w is None else np.broadcast_to(np.asarray(w, float), (B, 3))
    return Kinematics(0.0, r_G[:, None].copy(), R[:, None].copy(), v_G[:, None].copy(),
                      w[:, None].copy(), CM[None] * 1.0)  # fmt: skip


def uniform(speed, heading=0.0):
    return Environment(rho_air=RHO, wind=SteadyWind(speed=speed, heading=heading, alpha=0.0))


def disc(path, **kw):
    """The disc at HUB (body frame = inertial frame at rest: make_kin puts the CM at cm_b)."""
    args = dict(body=0, rotor_centre=HUB, table=read_aerodisk(path).table, rotor_radius=R,
                rotor_speed=1.0)  # fmt: skip
    args.update(kw)
    return AeroDisk(**args)


def rot_y(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def rot_z(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


# --------------------------------------------------------------------------- the file


def test_reader_reads_the_documented_format(tmp_path):
    path = write_table(tmp_path, ["TSR", "Pitch"], [3, 2], tsr_pitch_rows())
    f = read_aerodisk(path)
    assert f.echo is False and f.dt is None and f.air_density == 1.225 and f.rotor_radius == 63.0
    assert f.outlist == ("ADCt", "ADFx", "ADTSR")
    tab = f.table
    assert tab.use_tsr and not tab.has_skew
    np.testing.assert_array_equal(tab.values["TSR"], [2.0, 6.0, 12.0])
    np.testing.assert_allclose(tab.values["Pitch"], [0.0, math.radians(10.0)], rtol=1e-15)
    assert tab.values["RtSpd"].size == tab.values["VRel"].size == tab.values["Skew"].size == 0
    assert tab.coef.shape == (6, 3, 1, 1, 2, 1)
    assert tab.coef[3, 2, 0, 0, 1, 0] == pytest.approx(0.01 * 12 - 0.01)
    # "default" air density and radius
    g = read_aerodisk(write_table(tmp_path, ["TSR"], [2], [[1, .8, 0, 0, 0, 0, 0],
                                                          [9, .8, 0, 0, 0, 0, 0]],
                                  rho='"default"', radius="default", name="d.dat"))  # fmt: skip
    assert g.air_density is None and g.rotor_radius is None


def test_rows_in_any_order_are_sorted_as_aerodisk_does(tmp_path):
    rows = tsr_pitch_rows()
    shuffled = [rows[k] for k in (4, 0, 5, 2, 1, 3)]
    a = read_aerodisk(write_table(tmp_path, ["TSR", "Pitch"], [3, 2], rows, name="a.dat")).table
    b = read_aerodisk(write_table(tmp_path, ["TSR", "Pitch"], [3, 2], shuffled, name="b.dat"))
    np.testing.assert_array_equal(a.coef, b.table.coef)
    np.testing.assert_array_equal(a.values["TSR"], b.table.values["TSR"])


def test_rtspd_vrel_table_in_si(tmp_path):
    rows = [[rpm, v, 0.2 + 0.05 * v, 0, 0, 0.001 * rpm, 0, 0] for v in (9.0, 12.0)
            for rpm in (3.0, 6.0, 12.0)]  # fmt: skip
    tab = read_aerodisk(write_table(tmp_path, ["RtSpd", "VRel"], [3, 2], rows)).table
    assert not tab.use_tsr
    np.testing.assert_allclose(tab.values["RtSpd"], np.array([3.0, 6.0, 12.0]) * math.pi / 30)
    np.testing.assert_array_equal(tab.values["VRel"], [9.0, 12.0])


def test_channels_in_openfast_units_as_aerodisk_writes_them():
    import xarray as xr

    from floatwind.io.openfast import to_fast_units

    ds = xr.Dataset({n: ("time", np.ones(2), {"units": u}) for n, (u, _) in CHANNELS.items()})
    fast = to_fast_units(ds)
    units = {n: fast[n].attrs["units"] for n in ("ADSpeed", "ADPitch", "ADSkew", "ADFx", "ADMx",
                                                 "ADPower", "ADTSR")}  # fmt: skip
    assert units == {"ADSpeed": "rpm", "ADPitch": "deg", "ADSkew": "deg", "ADFx": "kN",
                     "ADMx": "kN-m", "ADPower": "kW", "ADTSR": "-"}  # fmt: skip
    assert float(fast["ADSpeed"][0]) == pytest.approx(30.0 / math.pi)


def _line_of(path, text):
    return next(k for k, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_a_row_with_a_missing_column_names_the_file_and_line(tmp_path):
    rows = tsr_pitch_rows()
    path = write_table(tmp_path, ["TSR", "Pitch"], [3, 2], rows)
    lines = path.read_text().splitlines()
    k = _line_of(path, "  6  10  0.8")
    lines[k - 1] = "  6  10  0.8  0  0  0.05  0"  # one coefficient short
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(CaseError, match=rf"ad.dat: line {k}: could not read table row 5"):
        read_aerodisk(path)


@pytest.mark.parametrize(
    "change, message",
    [
        (("TSR,Pitch", "TSR,Pitchh"), r"line 17: more table rows than the product of InColDims"),
        (("TSR,Pitch", "Foo,Bar"), r"line 10: InColNames names none of the columns"),
        (("3,2 ", "3,x "), r"line 11: could not read the count of column 2"),
        (("RotorRad", "RotRad"), r"line 9: expected the variable 'RotorRad'"),
        ((" 1.225   AirDens", " abc   AirDens"), r"line 7: AirDens must be a number"),
        (("\n  12  10  ", "\n  13  10  "), r"expecting 3 unique TSR entries .* found 4"),
        (("3,2 ", "4,2 "), r"line 20: could not read table row 7: expecting 8 rows"),
    ],
)
def test_bad_files_name_file_and_line(tmp_path, change, message):
    path = write_table(tmp_path, ["TSR", "Pitch"], [3, 2], tsr_pitch_rows())
    path.write_text(path.read_text().replace(*change, 1))
    with pytest.raises(CaseError, match=message) as err:
        read_aerodisk(path)
    assert str(path) in str(err.value)


def test_duplicate_row_and_invalid_values_are_refused(tmp_path):
    rows = tsr_pitch_rows()
    rows[5] = list(rows[4])  # (6, 10) twice, (12, 10) missing: not monotonic in the grid
    rows[5][0] = 6.0
    rows[5][1] = 10.0
    rows[2][0] = 12.0
    path = write_table(tmp_path, ["TSR", "Pitch"], [3, 2], rows)
    first, second = [k for k, line in enumerate(path.read_text().splitlines(), 1)
                     if line.startswith("  6  10")]  # fmt: skip
    with pytest.raises(CaseError, match=rf"line {second}: duplicate table entry .*line {first}"):
        read_aerodisk(path)
    bad = [[t - 2.0, *r[1:]] for t, r in zip((2.0, 6.0, 12.0) * 2, tsr_pitch_rows())]
    with pytest.raises(CaseError, match="TSR values in the table must be positive"):
        read_aerodisk(write_table(tmp_path, ["TSR", "Pitch"], [3, 2], bad, name="neg.dat"))
    with pytest.raises(CaseError, match="along with RtSpd or VRel"):
        aerodisk_table(["TSR", "VRel"], [2, 2], [[t, v, 1, 0, 0, 0, 0, 0] for t in (1, 2)
                                                  for v in (5, 9)])  # fmt: skip
    with pytest.raises(CaseError, match="neither TSR"):
        aerodisk_table(["Pitch"], [2], [[0, 1, 0, 0, 0, 0, 0], [5, 1, 0, 0, 0, 0, 0]])


# --------------------------------------------------------------------------- analytic


def test_constant_ct_disc_in_uniform_wind(tmp_path):
    """0.5 rho A V^2 C_T along the shaft at the hub; torque from C_Mx interpolated linearly in
    TSR; power M_x Omega; every channel declared."""
    path = write_table(tmp_path, ["TSR", "Pitch"], [3, 2], tsr_pitch_rows())
    omega, v = 0.9, 10.0
    load = disc(path, rotor_speed=omega, pitch=math.radians(4.0))
    out = load.wrench(0.0, make_kin(), uniform(v))
    q = 0.5 * RHO * AREA * v**2
    thrust = q * 0.8
    np.testing.assert_allclose(out.force[0, 0], [thrust, 0, 0], rtol=1e-13, atol=1e-6)
    tsr = omega * R / v
    cq = 0.01 * tsr - 0.001 * 4.0  # bilinear of a bilinear function: exact
    torque = q * R * cq
    arm = HUB - CM
    np.testing.assert_allclose(out.moment[0, 0], np.cross(arm, [thrust, 0, 0]) + [torque, 0, 0],
                               rtol=1e-12)  # fmt: skip
    ch = out.channels
    assert set(ch) == set(load.channel_info()) == set(CHANNELS)
    assert ch["ADFx"][0] == pytest.approx(thrust, rel=1e-13)
    assert ch["ADCt"][0] == pytest.approx(0.8, rel=1e-14)
    assert ch["ADTSR"][0] == pytest.approx(tsr, rel=1e-14)
    assert ch["ADCq"][0] == pytest.approx(cq, rel=1e-12)
    assert ch["ADPower"][0] == pytest.approx(torque * omega, rel=1e-12)
    assert ch["ADCp"][0] == pytest.approx(cq * tsr, rel=1e-12)
    assert ch["ADSpeed"][0] == omega and ch["ADPitch"][0] == pytest.approx(math.radians(4.0))
    assert ch["ADSkew"][0] == 0.0 and ch["ADYawErr"][0] == 0.0 and ch["ADVRel"][0] == v
    assert ch["ADVWindx"][0] == pytest.approx(v) and ch["ADFxi"][0] == pytest.approx(thrust)
    assert ch["ADMxi"][0] == pytest.approx(torque)


def test_tilted_shaft_sees_the_projected_wind(tmp_path):
    """Shaft tilted by theta: VRel_xd = U cos theta, skew theta, and without a Skew column every
    coefficient times cos^2 theta: thrust 0.5 rho A U^2 cos^4(theta) C_T along the tilted shaft."""
    path = write_table(tmp_path, ["TSR", "Pitch"], [3, 2], tsr_pitch_rows(cq=lambda t, p: 0.0))
    u, tilt = 11.0, math.radians(8.0)
    Rb = rot_y(-tilt)  # the shaft x axis tilted up by theta
    load = disc(path, rotor_speed=0.8)
    out = load.wrench(0.0, make_kin(R=Rb), uniform(u))
    x_hat = Rb @ [1.0, 0.0, 0.0]
    thrust = 0.5 * RHO * AREA * (u * math.cos(tilt)) ** 2 * 0.8 * math.cos(tilt) ** 2
    np.testing.assert_allclose(out.force[0, 0], thrust * x_hat, rtol=1e-12)
    ch = out.channels
    assert ch["ADSkew"][0] == pytest.approx(tilt, rel=1e-12)
    assert ch["ADTSR"][0] == pytest.approx(0.8 * R / (u * math.cos(tilt)), rel=1e-12)
    assert ch["ADCt"][0] == pytest.approx(0.8 * math.cos(tilt) ** 2, rel=1e-12)
    # the in-plane wind: against y_hat, no z_hat part
    assert ch["ADVWindy"][0] == pytest.approx(-u * math.sin(tilt), rel=1e-12)
    assert abs(ch["ADVWindz"][0]) < 1e-12


def test_rotor_moving_downwind_sees_less_wind(tmp_path):
    path = write_table(tmp_path, ["TSR", "Pitch"], [3, 2], tsr_pitch_rows())
    load = disc(path, rotor_speed=0.8)
    u, vb = 10.0, 1.5
    still = load.wrench(0.0, make_kin(), uniform(u)).channels
    moving = load.wrench(0.0, make_kin(v_G=[vb, 0.0, 0.0]), uniform(u)).channels
    assert moving["ADFx"][0] == pytest.approx(0.5 * RHO * AREA * (u - vb) ** 2 * 0.8, rel=1e-13)
    assert moving["ADFx"][0] < still["ADFx"][0]
    assert moving["ADSTVx"][0] == vb and moving["ADTSR"][0] == pytest.approx(0.8 * R / (u - vb))
    # pitching about the CM moves the hub (above the CM) downwind too
    w = 0.005
    pitching = load.wrench(0.0, make_kin(w=[0.0, w, 0.0]), uniform(u)).channels
    vhub = np.cross([0.0, w, 0.0], HUB - CM)  # (w 168, 0, 5 w): a little skew from the 5 w
    np.testing.assert_allclose([pitching[f"ADSTV{a}i"][0] for a in "xyz"], vhub, rtol=1e-13)
    cos2 = (u - vhub[0]) ** 2 / ((u - vhub[0]) ** 2 + vhub[2] ** 2)
    assert pitching["ADFx"][0] == pytest.approx(0.5 * RHO * AREA * (u - vhub[0]) ** 2 * 0.8 * cos2,
                                                rel=1e-12)  # fmt: skip


def test_disc_average_of_a_sheared_wind(tmp_path):
    """The wind is AeroDisk's mean over 144 points at 0.7 R, not the hub's: for a power law it
    differs from the hub speed and equals the mean of the field at those points."""
    path = write_table(tmp_path, ["TSR", "Pitch"], [3, 2], tsr_pitch_rows())
    wind = SteadyWind(speed=10.0, ref_height=90.0, alpha=0.2)
    env = Environment(rho_air=RHO, wind=wind)
    load = disc(path, rotor_speed=0.8)
    ch = load.wrench(0.0, make_kin(), env).channels
    pts = disc_points(HUB, [1.0, 0.0, 0.0], R)
    assert pts.shape == (144, 3)
    np.testing.assert_allclose(np.linalg.norm(pts - HUB, axis=1), 0.7 * R, rtol=1e-14)
    assert pts[0] == pytest.approx(HUB + [0.0, -0.7 * R, 0.0])  # azimuth pi from hub y
    mean = wind.velocity(0.0, pts[None])[0].mean(axis=0)
    assert ch["ADVWindxi"][0] == pytest.approx(mean[0], rel=1e-14)
    assert abs(ch["ADVWindxi"][0] - 10.0) > 1e-3  # not the hub speed


def test_interpolation_in_vrel_and_skew(tmp_path):
    """RtSpd/VRel table: linear in VRel; Skew column: interpolated in chi, no cos^2 factor."""
    rows = [[rpm, v, sk, 0.1 * v + 0.2 * sk / 30, 0, 0, 0, 0, 0.01 * sk / 30]
            for sk in (0.0, 30.0) for v in (5.0, 15.0) for rpm in (6.0, 12.0)]  # fmt: skip
    path = write_table(tmp_path, ["RtSpd", "VRel", "Skew"], [2, 2, 2], rows)
    load = disc(path, rotor_speed=9.0 * math.pi / 30)
    yaw = math.radians(20.0)
    u = 12.0
    ch = load.wrench(0.0, make_kin(R=rot_z(yaw)), uniform(u)).channels
    vxd = u * math.cos(yaw)
    assert ch["ADSkew"][0] == pytest.approx(yaw, rel=1e-12)
    c_fx = 0.1 * vxd + 0.2 * 20.0 / 30
    assert ch["ADCt"][0] == pytest.approx(c_fx, rel=1e-12)
    assert ch["ADFx"][0] == pytest.approx(0.5 * RHO * AREA * vxd**2 * c_fx, rel=1e-12)
    assert ch["ADMz"][0] == pytest.approx(0.5 * RHO * AREA * vxd**2 * R * 0.01 * 20 / 30, 1e-12)
    # the yaw error: from the shaft to the wind, about +z
    assert ch["ADYawErr"][0] == pytest.approx(-yaw, rel=1e-12)


def test_rotor_speed_is_the_spinning_body_s(tmp_path):
    """Without rotor_speed, the disc reads its body's spin about the shaft relative to its parent
    (two bodies: nacelle yawing, rotor spinning)."""
    path = write_table(tmp_path, ["TSR", "Pitch"], [3, 2], tsr_pitch_rows())
    table = read_aerodisk(path).table
    load = AeroDisk(body=1, rotor_centre=[0, 0, 0], table=table, rotor_radius=R, spin_parent=0)
    B, omega, yaw_rate = 1, 1.2, 0.03
    r_G = np.array([[[0.0, 0.0, 85.0], [-5.0, 0.0, 90.0]]])
    w = np.array([[[0.0, 0.0, yaw_rate], [omega, 0.0, yaw_rate]]])
    kin = Kinematics(0.0, r_G, np.tile(np.eye(3), (B, 2, 1, 1)), np.zeros((B, 2, 3)), w,
                     np.zeros((2, 3)))  # fmt: skip
    out = load.wrench(0.0, kin, uniform(10.0))
    assert out.channels["ADSpeed"][0] == pytest.approx(omega, rel=1e-15)
    assert np.all(out.force[:, 0] == 0.0) and out.force[0, 1, 0] > 0.0


# --------------------------------------------------------------------------- errors at run time


def test_table_not_covering_the_tsr_stops_as_aerodisk_does(tmp_path):
    path = write_table(tmp_path, ["TSR", "Pitch"], [3, 2], tsr_pitch_rows())
    load = disc(path, rotor_speed=2.5)  # TSR 2.5 * 63 / 10 = 15.75 > 12
    env = uniform(10.0)
    with pytest.raises(
        SimulationError, match=r"TSR 15\.75 is outside the AeroDisk table \[2, 12\]"
    ):
        load.wrench(0.0, make_kin(), env)
    # within AeroDisk's tolerance 1e-4 of the end: the end value
    ok = disc(path, rotor_speed=(12.0 + 5e-5) * 10.0 / R).wrench(0.0, make_kin(), env)
    assert ok.channels["ADTSR"][0] == pytest.approx(12.0 + 5e-5)
    # pitch beyond the table, and no wind (TSR 0): AeroDisk's errors too
    with pytest.raises(SimulationError, match=r"blade pitch 11 deg is outside"):
        disc(path, pitch=math.radians(11.0)).wrench(0.0, make_kin(), env)
    with pytest.raises(SimulationError, match="TSR 0 is outside"):
        disc(path).wrench(0.0, make_kin(), Environment(rho_air=RHO))
    # the compiled kernel hands the step back with the status bit
    kern = load.compiled(env, 1)
    status = kern.kernel(kern.params, 0.0, body_kinematics(make_kin()), np.empty((1, 0)),
                         np.empty((1, 0)), np.zeros((1, 1, 3)), np.zeros((1, 1, 3)),
                         np.zeros((1, 1, 0, 0)))  # fmt: skip
    assert status == AERODISK_OUTSIDE


# --------------------------------------------------------------------------- invariants


def _skew_table(tmp_path):
    rows = [[t, sk, 0.8 - 0.1 * sk / 40, 0.05 * sk / 40, 0.0, 0.0, 0.0, 0.02 * sk / 40]
            for sk in (0.0, 60.0) for t in (2.0, 12.0)]  # fmt: skip
    return write_table(tmp_path, ["TSR", "Skew"], [2, 2], rows, name="skew.dat")


def test_mirrored_yaw_gives_mirrored_loads(tmp_path):
    """Yaw +g and -g (hub at y and -y): the force mirrors (Fx, -Fy, Fz), the moment as an axial
    vector (-Mx, My, -Mz), for coefficients C_Fx, C_Fy (in the plane of the inflow) and C_Mz
    (about the normal of that plane); C_Fz, C_Mx, C_My carry the rotor's sense of rotation,
    which a mirror does not keep (docs/loads.md)."""
    load = disc(_skew_table(tmp_path), rotor_speed=0.8)
    env = uniform(10.0)
    mirror = np.diag([1.0, -1.0, 1.0])
    for g in (math.radians(15.0), math.radians(30.0)):
        a = load.wrench(0.0, make_kin(R=rot_z(g), r_G=[1.0, 2.0, -78.0]), env)
        b = load.wrench(0.0, make_kin(R=rot_z(-g), r_G=[1.0, -2.0, -78.0]), env)
        np.testing.assert_allclose(b.force[0, 0], mirror @ a.force[0, 0], rtol=1e-12, atol=1e-6)
        np.testing.assert_allclose(b.moment[0, 0], -(mirror @ a.moment[0, 0]), rtol=1e-12,
                                   atol=1e-4)  # fmt: skip
        for name in ("ADFx", "ADFy", "ADMz", "ADSkew", "ADTSR", "ADCt"):
            assert b.channels[name][0] == pytest.approx(a.channels[name][0], rel=1e-13)
        assert b.channels["ADYawErr"][0] == pytest.approx(-a.channels["ADYawErr"][0], rel=1e-13)
        assert a.channels["ADFy"][0] != 0.0 and a.channels["ADMz"][0] != 0.0


def _batch_kin(B=3):
    rng = np.random.default_rng(7)
    Rs = np.stack([rot_z(a) @ rot_y(b) for a, b in rng.uniform(-0.3, 0.3, (B, 2))])
    r_G = CM + rng.uniform(-2, 2, (B, 3))
    v = rng.uniform(-1, 1, (B, 3))
    w = rng.uniform(-0.004, 0.004, (B, 3))
    return Kinematics(0.0, r_G[:, None], Rs[:, None], v[:, None], w[:, None], CM[None] * 1.0)


def _one(kin, b):
    return Kinematics(kin.t, kin.r_G_g[b : b + 1], kin.R_b2g[b : b + 1], kin.v_G_g[b : b + 1],
                      kin.w_b_g[b : b + 1], kin.cm_b)  # fmt: skip


def test_batch_member_equals_its_run_alone_and_compiled_equals_python(tmp_path):
    load = disc(_skew_table(tmp_path), rotor_speed=0.8)
    env = Environment(rho_air=RHO, wind=SteadyWind(speed=11.0, alpha=0.14, ref_height=90.0))
    kin = _batch_kin()
    B = kin.batch
    whole = load.wrench(0.0, kin, env)
    for b in range(B):
        alone = load.wrench(0.0, _one(kin, b), env)
        np.testing.assert_array_equal(alone.force[0], whole.force[b])
        np.testing.assert_array_equal(alone.moment[0], whole.moment[b])
        for name, v in alone.channels.items():
            assert v[0] == whole.channels[name][b] or (np.isnan(v[0]) and np.isnan(
                whole.channels[name][b]))  # fmt: skip

    def run(kernel, kin_):
        k = load.compiled(env, kin_.batch)
        n = kin_.batch
        f, m = np.zeros((n, 1, 3)), np.zeros((n, 1, 3))
        st = kernel(k.params, 0.0, body_kinematics(kin_), np.empty((n, 0)), np.empty((n, 0)), f,
                    m, np.zeros((n, 1, 0, 0)))  # fmt: skip
        assert st == 0
        return f, m

    fc, mc = run(ka.aerodisk_kernel, kin)
    fp, mp = run(ka.aerodisk_kernel.py_func, kin)
    # compiled (fastmath off) = its Python form (equal bits here; 1e-12 as tests/test_kernels.py
    # allows for another libm)
    np.testing.assert_allclose(fc, fp, rtol=1e-12, atol=1e-6)
    np.testing.assert_allclose(mc, mp, rtol=1e-12, atol=1e-4)
    assert np.max(np.abs(fc)) > 1e5
    np.testing.assert_allclose(fc, whole.force, rtol=1e-13, atol=1e-7)
    for b in range(B):  # compiled: a member alone gives the batch's bits
        f1, m1 = run(ka.aerodisk_kernel, _one(kin, b))
        np.testing.assert_array_equal(f1[0], fc[b])
        np.testing.assert_array_equal(m1[0], mc[b])


# --------------------------------------------------------------------------- case file and run


def _oc3_with_disc(tmp_path, **entry):
    import yaml

    path = ROOT / "cases" / "oc3_hywind.yaml"
    data = yaml.safe_load(path.read_text())
    table = write_table(tmp_path, ["TSR", "Pitch"], [3, 2], tsr_pitch_rows())
    data["loads"] = [ld for ld in data["loads"] if ld["type"] != "thrust_ct"]
    ad = {"type": "aerodisk", "body": "rotor", "rotor_centre": [0.0, 0.0, 0.0],
          "shaft_axis": [1.0, 0.0, 0.0], "aerodisk_file": str(table)}  # fmt: skip
    ad.update(entry)
    data["loads"].append(ad)
    data["simulation"]["t_max"] = 1.0
    data["environment"].pop("waves", None)
    return data, path


def test_case_entry_and_its_errors(tmp_path):
    from floatwind.case.loader import model_from_dict

    data, path = _oc3_with_disc(tmp_path)
    m = model_from_dict(copy.deepcopy(data), base_dir=path.parent, name="ad")
    load = m.loads[-1]
    assert isinstance(load, AeroDisk) and load.spin_parent >= 0 and load.rotor_speed is None
    assert load.air_density == 1.225 and load.rotor_radius == 63.0
    bad = copy.deepcopy(data)
    bad["loads"][-1]["body"] = "tower"
    with pytest.raises(CaseError, match="does not spin about the shaft axis"):
        model_from_dict(bad, base_dir=path.parent, name="ad")
    bad = copy.deepcopy(data)
    bad["loads"][-1]["aerodisk_file"] = str(tmp_path / "none.dat")
    with pytest.raises(CaseError, match="aerodisk_file"):
        model_from_dict(bad, base_dir=path.parent, name="ad")
    bad = copy.deepcopy(data)
    bad["loads"][-1]["ct_mode"] = "fixed"
    with pytest.raises(CaseError, match="ct_mode"):
        model_from_dict(bad, base_dir=path.parent, name="ad")


def test_oc3_with_the_disc_runs_compiled_and_batched(tmp_path, compiled_on):
    """The OC3 model with the AeroDisk disc on its spinning rotor steps compiled with the Python
    path's numbers; a batch of two members (two pitch settings through the initial pitch of the
    platform) gives each member's run alone bit for bit."""
    from conftest import fused_and_python

    from floatwind.case.loader import model_from_dict
    from floatwind.simulate import simulate

    data, path = _oc3_with_disc(tmp_path)
    channels = ["PtfmSurge", "PtfmPitch", "ADFx", "ADTSR", "ADSpeed"]

    def model(rows=None):
        d = copy.deepcopy(data)
        if rows is not None:
            d["initial"] = {"displacement": rows}
        return model_from_dict(d, base_dir=path.parent, name="ad")

    a, b = fused_and_python(model)
    for name in ("PtfmSurge", "PtfmPitch", "ADFx"):
        x, y = a[name].values, b[name].values
        scale = max(float(np.max(np.abs(y))), 1e-6)
        assert np.max(np.abs(x - y)) <= 1e-9 * scale, name
    assert float(a["ADSpeed"].values[-1]) == pytest.approx(12.1 * math.pi / 30, rel=1e-9)
    assert float(a["ADFx"].values[0]) > 1e5
    rows = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]
    both = simulate(model(rows), progress=False, channels=channels)
    for k, row in enumerate(rows):
        alone = simulate(model([row]), progress=False, channels=channels)
        for name in channels:
            np.testing.assert_array_equal(both[name].values[k], alone[name].values)


# --------------------------------------------------------------------------- deck import


REF = ROOT.parent / "shared" / "reference" / "openfast"


def test_settings_rows_cover_the_file_and_the_checks_refuse(tmp_path):
    """Every key and table column of an AeroDisk file has a row of the AeroDisk file kind (none
    refusable by value: AeroDisk's own rules are the reader's); the dedicated checks refuse a
    rotor at rest and an OutList name AeroDisk does not write."""
    from floatwind.case.openfast import aerodisk as oad
    from floatwind.case.openfast.reader import read_openfast_input

    path = write_table(tmp_path, ["TSR", "Pitch"], [3, 2], tsr_pitch_rows())
    f = read_openfast_input(path)
    rows = oad.FILE_KIND.settings["AeroDisk"]
    cols = oad.FILE_KIND.columns["AeroDisk"]
    assert set(f["values"]) <= set(rows)
    for tab in f["tables"].values():
        assert set(tab["columns"]) <= set(cols)
    for s in [*rows.values(), *cols.values()]:
        assert s.text.strip() and s.ok is None
    rpm = read_openfast_input(write_table(tmp_path, ["RtSpd", "VRel", "Skew"], [2, 2, 2], [
        [r, v, k, 1, 0, 0, 0, 0, 0] for k in (0, 9) for v in (5, 9) for r in (6, 9)],
        name="rpm.dat"))  # fmt: skip
    for tab in rpm["tables"].values():
        assert set(tab["columns"]) <= set(cols)
    assert oad.outlist_problems(["ADCt", "-ADFx", "madmz", "ADPower", "RtAeroFxh"]) == ["RtAeroFxh"]
    ed = {"file": "ElastoDyn.dat", "values": {"RotSpeed": 0.0, "GenDOF": False}}
    fst = {"file": "deck.fst", "values": {"CompInflow": 0}}
    deck = {"AeroDisk": {**f, "outlists": {"OutList": ["ADCt", "ADFoo"]}}, "ElastoDyn": ed,
            "fst": fst}  # fmt: skip
    lines = oad.FILE_KIND.check(deck)
    assert len(lines) == 3 and "CompInflow = 0" in lines[0] and "rotor at rest" in lines[1]
    assert "ADFoo" in lines[2]
    assert all(line.startswith("ad.dat: ") for line in lines)
    assert oad.FILE_KIND.check({"ElastoDyn": ed}) == []


@pytest.mark.skipif(not (REF / "ref03_yaw_spin").is_dir(), reason="reference decks not available")
def test_deck_with_aerodisk_builds_the_load_on_the_spinning_rotor(tmp_path):
    """The wiring the importer does for CompAero = 1: the deck's AeroDisk file -> the aerodisk
    load on the ``rotor`` body (apex, tilted shaft c1, TipRad for RotorRad "default", the .fst
    AirDens for "default", BlPitch(1)); a short run gives the disc's thrust and the shaft joint's
    rotor speed."""
    from floatwind.case.loader import model_from_dict
    from floatwind.case.openfast import aerodisk as oad
    from floatwind.case.openfast import case_from_deck, read_fst
    from floatwind.case.openfast.reader import read_openfast_input
    from floatwind.simulate import fused, simulate

    fst = REF / "ref03_yaw_spin" / "ref03_yaw_spin.fst"
    deck = read_fst(fst)
    path = write_table(tmp_path, ["TSR", "Pitch"], [3, 2], tsr_pitch_rows(), rho='"default"',
                       radius='"default"')  # fmt: skip
    deck["AeroDisk"] = read_openfast_input(path)
    assert oad.FILE_KIND.check(deck) == [
        "ad.dat: AeroDisk with CompInflow = 0 is not supported: "
        "AeroDisk samples the InflowWind flow field (CompInflow "
        "= 1); without it AeroDisk stops at initialisation"
    ]
    deck["fst"]["values"]["CompInflow"] = 1  # (the InflowWind file: helper b's reader)
    assert oad.FILE_KIND.check(deck) == []
    res = case_from_deck(deck)
    c1 = list(res["info"]["mass_properties"]["rotor"]["shaft_axis"])
    entry = oad.aerodisk_case_load(deck, body="rotor", shaft_axis=c1)
    assert entry["rotor_radius"] == 63.0 and entry["air_density"] == pytest.approx(1.225)
    assert entry["pitch"] == 0.0  # ElastoDyn's shaft tilted by 5 deg (ShftTilt = -5)
    assert abs(entry["shaft_axis"][2]) == pytest.approx(math.sin(math.radians(5.0)), rel=1e-9)
    case = copy.deepcopy(res["case"])
    # the importer itself puts the deck's AeroDisk load on the spinning rotor
    assert [ld["type"] for ld in case["loads"]].count("aerodisk") == 1
    assert case["loads"][-1] == entry
    case["environment"]["wind"] = {"kind": "steady", "speed": 10.0, "ref_height": 90.0,
                                   "shear": "power", "shear_exponent": 0.0}  # fmt: skip
    case["simulation"].update({"t_max": 0.1})
    model = model_from_dict(case, base_dir=fst.parent, name="ref03_aerodisk")
    load = model.loads[-1]
    assert isinstance(load, AeroDisk) and load.spin_parent >= 0
    old = fused.use_fused(False)
    try:
        ds = simulate(model, progress=False, channels=["ADFx", "ADSpeed", "ADSkew", "PtfmPitch"])
    finally:
        fused.use_fused(old)
    assert float(ds["ADSpeed"].values[0]) == pytest.approx(12.1 * math.pi / 30, rel=1e-9)
    tilt = math.atan2(c1[2], c1[0])
    assert float(ds["ADSkew"].values[0]) == pytest.approx(abs(tilt), abs=2e-3)
    cos = math.cos(float(ds["ADSkew"].values[0]))
    expect = 0.5 * 1.225 * AREA * 100.0 * cos**4 * 0.8  # hub at rest at t = 0
    assert float(ds["ADFx"].values[0]) == pytest.approx(expect, rel=1e-3)


# --------------------------------------------------------------------------- the bridge


def _rosco_table():
    """ROSCO's NREL 5 MW Cp_Ct_Cq table (the ``rosco`` package) as (pitch deg, tsr, cp, ct, cq)."""
    md = pytest.importorskip("importlib.metadata")
    try:
        files = md.files("rosco") or []
    except md.PackageNotFoundError:
        pytest.skip("rosco not installed")
    hit = [f for f in files if str(f).endswith("NREL-5MW/Cp_Ct_Cq.NREL5MW.txt")]
    if not hit:
        pytest.skip("ROSCO's NREL 5 MW table not in the installed rosco")
    blocks, cur = {}, None
    for line in pathlib.Path(hit[0].locate()).read_text().splitlines():
        s = line.strip()
        if s.startswith("#"):
            low = s.lower()
            cur = next((k for k in ("pitch", "tsr", "wind", "power", "thrust", "torque")
                        if k in low.split("-")[0] or low.startswith(f"# {k}")), None)  # fmt: skip
            continue
        if s and cur:
            blocks.setdefault(cur, []).append([float(x) for x in s.split()])
    pitch, tsr = np.array(blocks["pitch"][0]), np.array(blocks["tsr"][0])
    cp, ct, cq = (np.array(blocks[k]) for k in ("power", "thrust", "torque"))
    assert cp.shape == ct.shape == cq.shape == (tsr.size, pitch.size)
    return pitch, tsr, cp, ct, cq


def test_a_rosco_performance_table_as_an_aerodisk_disc(tmp_path):
    """The bridge between the C_T disc and BEM: a rotor-performance table over TSR and pitch
    (ROSCO's NREL 5 MW, from CCBlade) written as an AeroDisk file; the disc then gives the
    table's C_T and C_Q at any (TSR, pitch) by bilinear interpolation, and C_P = C_Q TSR."""
    from scipy.interpolate import RegularGridInterpolator

    from floatwind.io.aerodisk import write_aerodisk

    pitch, tsr, cp, ct, cq = _rosco_table()
    path = write_aerodisk(tmp_path / "nrel5mw_aerodisk.dat", tsr=tsr, pitch_deg=pitch, ct=ct,
                          cq=cq, rotor_radius=R)  # fmt: skip
    f = read_aerodisk(path)
    assert f.rotor_radius == R and f.air_density is None
    np.testing.assert_allclose(f.table.coef[0, :, 0, 0, :, 0], ct, rtol=1e-8)
    u = 8.0
    for lam, pit in ((7.5, 0.0), (7.3, 1.5), (4.2, 9.7)):
        load = disc(path, rotor_speed=lam * u / R, pitch=math.radians(pit))
        ch = load.wrench(0.0, make_kin(), uniform(u)).channels
        at = (lam, pit)
        want_ct = float(RegularGridInterpolator((tsr, pitch), ct)([at])[0])
        want_cq = float(RegularGridInterpolator((tsr, pitch), cq)([at])[0])
        assert ch["ADCt"][0] == pytest.approx(want_ct, rel=1e-9, abs=1e-12)
        assert ch["ADCq"][0] == pytest.approx(want_cq, rel=1e-9, abs=1e-12)
        assert ch["ADCp"][0] == pytest.approx(want_cq * lam, rel=1e-9, abs=1e-12)
        assert ch["ADFx"][0] == pytest.approx(0.5 * RHO * AREA * u**2 * want_ct, rel=1e-9)
    # on a grid point, C_Q TSR is ROSCO's own C_P (to the table's printed digits)
    i, j = int(np.argmin(abs(tsr - 7.5))), int(np.argmin(abs(pitch - 0.0)))
    assert cq[i, j] * tsr[i] == pytest.approx(cp[i, j], abs=2e-3)


def test_the_ct_disc_and_aerodisk_agree_in_axial_inflow(tmp_path):
    """floatwind's C_T disc (thrust_ct, fixed C_T) and AeroDisk with a constant C_Fx give the
    same thrust for a rotor moving in uniform axial wind; with the shaft tilted AeroDisk's skew
    factor cos^2(chi) (no Skew column) comes on top of the C_T disc's projected wind."""
    from floatwind.loads.thrust import RotorThrust

    path = write_table(tmp_path, ["TSR", "Pitch"], [3, 2], tsr_pitch_rows())
    ad = disc(path, rotor_speed=0.8)
    ctd = RotorThrust(body=0, rotor_centre=HUB, rotor_area=AREA, ct_mode="fixed", ct_fixed=0.8)
    env = uniform(11.0)
    kin = make_kin(v_G=[0.7, 0.0, 0.0])
    a, b = ad.wrench(0.0, kin, env), ctd.wrench(0.0, kin, env)
    np.testing.assert_allclose(a.force, b.force, rtol=1e-13)
    np.testing.assert_allclose(
        a.moment[..., 1:], b.moment[..., 1:], rtol=1e-12
    )  # no torque in y, z
    tilt = math.radians(6.0)
    kin = make_kin(R=rot_y(-tilt))
    a, b = ad.wrench(0.0, kin, env), ctd.wrench(0.0, kin, env)
    np.testing.assert_allclose(a.force, b.force * math.cos(tilt) ** 2, rtol=1e-12)
