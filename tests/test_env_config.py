"""build_environment: the environment: section of a case into an Environment."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from floatwind.environment import DEFAULTS, Environment, build_environment
from floatwind.environment.base import NoWind, StillWater
from floatwind.environment.waves import LinearSea
from floatwind.environment.wind import FullFieldWind, SteadyWind, TransientWind
from floatwind.errors import CaseError

DATA = Path(__file__).parent / "data" / "env"
REF_DIR = Path("/work/shared/reference/turbsim")


def test_defaults_and_empty():
    env = build_environment(None, duration=10.0)
    assert isinstance(env, Environment)
    assert isinstance(env.sea, StillWater) and isinstance(env.wind, NoWind)
    assert env.water_depth == DEFAULTS["water_depth"] == 320.0
    assert DEFAULTS["waves"]["jonswap"]["hs"] == "<required>"
    assert DEFAULTS["waves"]["jonswap"]["stretching"] == "wheeler"
    assert env.attrs()["wave_stretching"] == "none"


def test_jonswap_with_seeds_alone_equals_batch():
    seeds = np.random.SeedSequence(42).spawn(3)
    cfg = {"water_depth": 200.0, "waves": {"kind": "jonswap", "hs": 5.0, "tp": 10.0}}
    env = build_environment(cfg, n_realizations=3, seeds=seeds, duration=300.0)
    assert isinstance(env.sea, LinearSea) and env.sea.n_realizations == 3
    assert env.sea.period == 600.0 and env.sea.depth == 200.0
    assert seeds[0].n_children_spawned == 0  # the caller's seeds are not advanced
    alone = build_environment(cfg, n_realizations=1, seeds=[seeds[1]], duration=300.0)
    assert np.array_equal(alone.sea.amplitude[0], env.sea.amplitude[1])
    attrs = env.attrs()
    assert attrs["wave_stretching"] == "wheeler" and "JONSWAP" in attrs["sea"]
    assert all(isinstance(v, (str, int, float)) for v in attrs.values())
    gamma = float(env.sea.info["description"].split("gamma=")[1])
    assert gamma == pytest.approx(math.exp(5.75 - 1.15 * 10 / math.sqrt(5)), rel=1e-2)


def test_unknown_key_suggestion():
    with pytest.raises(CaseError, match="did you mean 'hs'") as info:
        build_environment(
            {"waves": {"kind": "jonswap", "Hs": 5, "tp": 10}}, duration=10.0, file="c.yaml"
        )
    assert info.value.field == "environment.waves.Hs" and info.value.file == "c.yaml"
    with pytest.raises(CaseError, match="did you mean 'water_depth'"):
        build_environment({"water_dept": 100}, duration=10.0)
    with pytest.raises(CaseError, match="did you mean 'jonswap'"):
        build_environment({"waves": {"kind": "jonswop"}}, duration=10.0)


@pytest.mark.parametrize(
    "cfg, field",
    [
        ({"waves": {"kind": "jonswap", "tp": 10}}, "environment.waves.hs"),
        ({"waves": {"kind": "jonswap", "hs": -1, "tp": 10}}, "environment.waves.hs"),
        ({"waves": {"kind": "jonswap", "hs": 5, "tp": "x"}}, "environment.waves.tp"),
        ({"waves": {"kind": "jonswap", "hs": 5, "tp": 10, "stretching": "wheel"}},
         "environment.waves.stretching"),
        ({"waves": {"kind": "jonswap", "hs": 5, "tp": 10, "repeat_period": 5}},
         "environment.waves.repeat_period"),
        ({"gravity": 0}, "environment.gravity"),
        ({"wind": {"kind": "steady"}}, "environment.wind.speed"),
        ({"wind": {"kind": "turbsim", "file": "nope.bts"}}, "environment.wind.file"),
    ],
)  # fmt: skip
def test_bad_values_name_the_field(cfg, field):
    with pytest.raises(CaseError) as info:
        build_environment(cfg, duration=10.0, base_dir=DATA)
    assert info.value.field == field


def test_wind_kinds(tmp_path):
    steady = build_environment(
        {"wind": {"kind": "steady", "speed": 11.4, "heading_deg": -90}}, duration=10.0
    ).wind
    assert isinstance(steady, SteadyWind) and steady.heading == pytest.approx(-math.pi / 2)
    shift = build_environment(
        {
            "wind": {
                "kind": "direction_shift",
                "speed": 18.2,
                "heading_deg": -90,
                "shift_deg": -45,
                "base": {"kind": "turbsim", "file": "small.bts", "heading_deg": -90},
            }
        },
        duration=60.0,
        base_dir=REF_DIR,
    ).wind
    assert isinstance(shift, TransientWind) and isinstance(shift.base, FullFieldWind)
    assert shift.direction_change(100.0) == pytest.approx(-math.pi / 4)
    with pytest.raises(CaseError, match="only up to"):
        build_environment(
            {"wind": {"kind": "turbsim", "file": "small.bts"}}, duration=600.0, base_dir=REF_DIR
        )
    for kind in ("iec_edc", "iec_eog"):
        w = build_environment({"wind": {"kind": kind, "speed": 12.0}}, duration=10.0).wind
        assert "IEC" in w.describe()
    kai = build_environment(
        {
            "wind": {
                "kind": "kaimal",
                "speed": 12.0,
                "ny": 3,
                "nz": 3,
                "width": 40.0,
                "height": 40.0,
                "dt": 0.5,
                "write_bts": "gen.bts",
            }
        },
        n_realizations=2,
        seeds=np.random.SeedSequence(1).spawn(2),
        duration=20.0,
        base_dir=tmp_path,
    ).wind
    assert kai.n_realizations == 2 and (tmp_path / "gen_1.bts").is_file()


def test_malformed_bts_becomes_case_error(tmp_path):
    bad = tmp_path / "bad.bts"
    bad.write_bytes((REF_DIR / "small.bts").read_bytes()[:1000])
    with pytest.raises(CaseError, match="truncated") as info:
        build_environment({"wind": {"kind": "turbsim", "file": "bad.bts"}}, duration=1.0,
                          base_dir=tmp_path, file="case.yaml")  # fmt: skip
    assert info.value.field == "environment.wind.file" and info.value.file == "case.yaml"


def test_elevation_input_from_openfast_out():
    env = build_environment(
        {"waves": {"kind": "elevation", "file": "elev.out", "heading_deg": 30.0}},
        duration=64.0,
        base_dir=DATA,
    )
    t = np.arange(0, 64, 0.5)
    expect = 0.8 * np.cos(2 * np.pi * t / 8) + 0.3 * np.sin(2 * np.pi * t / 5.333333333333333)
    got = np.array([env.sea.elevation(tt, np.zeros((1, 1, 2)))[0, 0] for tt in t])
    np.testing.assert_allclose(got, expect, atol=2e-6)
    with pytest.raises(CaseError, match="Wave2Elev"):
        build_environment(
            {"waves": {"kind": "elevation", "file": "elev.out", "channel": "Wave2Elev"}},
            duration=64.0,
            base_dir=DATA,
        )
