"""The floatwind command: run writes a netCDF with the documented channels, check prints a summary."""

import pathlib

import numpy as np
import pytest
import xarray as xr

from floatwind.cli import main
from floatwind.io.openfast import read_out

ROOT = pathlib.Path(__file__).resolve().parents[1]
CASE = str(ROOT / "cases" / "oc3_platform_decay.yaml")


def test_run_writes_netcdf_with_platform_channels(tmp_path, capsys):
    out = tmp_path / "r.nc"
    assert main(["run", CASE, "--tmax", "5", "--dt", "0.025", "-o", str(out), "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "PtfmPitch" in printed and str(out) in printed
    with xr.open_dataset(out) as ds:
        assert ds.time.attrs["units"] == "s"
        assert float(ds.time[-1]) == 5.0
        for name, units in [("PtfmSurge", "m"), ("PtfmSway", "m"), ("PtfmHeave", "m"),
                            ("PtfmRoll", "rad"), ("PtfmPitch", "rad"), ("PtfmYaw", "rad")]:
            assert ds[name].attrs["units"] == units
            assert ds[name].dims == ("time",)
        assert abs(float(ds.PtfmPitch[0]) - 0.1) < 1e-12
        assert float(ds.PtfmPitch[-1]) < 0.1


def test_run_writes_openfast_text_output(tmp_path):
    out = tmp_path / "r.out"
    assert main(["run", CASE, "--tmax", "2", "--format", "out", "-o", str(out), "--no-progress"]) == 0
    ds = read_out(out)
    assert ds.PtfmPitch.attrs["units"] == "deg"  # FAST units in .out files
    np.testing.assert_allclose(float(ds.PtfmPitch[0]), np.degrees(0.1), rtol=1e-6)


def test_check_prints_model_summary(capsys):
    assert main(["check", CASE]) == 0
    out = capsys.readouterr().out
    assert "OK" in out and "8,065,437.8 kg" in out and "hydrostatics_mooring" in out


def test_help_and_no_command(capsys):
    assert main([]) == 2
    assert "run" in capsys.readouterr().out


def test_summaries_print_clean_numbers():
    """Issue 24 item 6: no '-0', round-off noise as 0, plurals right, joint rates with units."""
    import numpy as np
    import xarray as xr

    from floatwind.cli._results import summary
    from floatwind.multibody.motion import ConstantRate, Locked, Ramp

    t = np.arange(3.0)
    ds = xr.Dataset(
        {n: ("time", v, {"units": "m"}) for n, v in (
            ("PtfmSurge", [0.0, -0.0, 2.5]), ("PtfmSway", [0.0, 3e-17, 1.0]),
            ("PtfmHeave", [-0.0, -0.0, -0.0]), ("PtfmRoll", [0.0, 0.1, 0.2]),
            ("PtfmPitch", [-0.0, 0.5, 0.25]), ("PtfmYaw", [1.0, 2.0, 3.0]))},
        coords={"time": t},
    )  # fmt: skip
    text = summary(ds)
    assert "-0 " not in text + " " and "e-17" not in text, text
    assert ConstantRate(rate=1.2671, q0=0.0).describe("rad") == (
        "constant rate 1.2671 rad/s (12.1 rpm) from 0 rad"
    )
    assert Locked(value=-0.0).describe("rad") == "locked at 0 rad"
    assert "rad/s" in Ramp(q0=0.0, rate=0.1, t_start=1.0, q_final=0.5).describe("rad")


CHEAP = {"check", "import-openfast", "mooring", "linearize"}  # and 'study ... --list'


@pytest.mark.parametrize(
    "cmd",
    ["check", "import-openfast", "mooring", "study", "dlc", "plot", "report", "warmup", "bem",
     "linearize", "rao", "campbell"],  # fmt: skip
)
def test_every_subcommand_help_has_runnable_examples(cmd, tmp_path, monkeypatch, capsys):
    """Issue 24 item 4: each subcommand's --help shows examples; the cheap ones run from the
    repository root's paths (outputs into a temporary folder)."""
    import pathlib
    import shlex

    from floatwind.cli import main

    root = pathlib.Path(__file__).resolve().parents[1]
    with pytest.raises(SystemExit) as exc:
        main([cmd, "--help"])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    assert "examples:" in text, text
    examples = [ln.strip() for ln in text.split("examples:", 1)[1].splitlines()
                if ln.startswith("  floatwind ")]  # fmt: skip
    assert examples and all(shlex.split(e)[1] == cmd for e in examples), examples
    monkeypatch.chdir(tmp_path)
    for ex in examples:
        argv = shlex.split(ex)[1:]
        if not (cmd in CHEAP or "--list" in argv) or any(
            a.split(".")[0].isupper() for a in argv if "." in a
        ):
            continue  # expensive, or a placeholder such as DECK.fst
        paths = [str(root / a) if a.startswith(("cases/", "../shared/")) else a for a in argv]
        if any(a.startswith(("cases/", "../shared/")) and not (root / a).exists() for a in argv):
            continue  # the shared reference data is not beside the checkout
        assert main(paths) == 0, ex


def test_run_and_check_with_an_environment_file(tmp_path, capsys):
    """Issue 24 item 3: cases/environments/*.yaml are usable directly, `--env FILE:NAME`; a
    file with conditions needs the name (listed), an unknown one gets a did-you-mean, one line."""
    env = ROOT / "cases" / "environments" / "nielsen.yaml"
    case = str(ROOT / "cases" / "oc3_hywind.yaml")
    assert main(["check", case, "--env", f"{env}:U08"]) == 0
    out = capsys.readouterr().out
    assert "Hs=3 m" in out and "uhub=8 m/s" in out, out
    for spec, needle in ((f"{env}:U8", "did you mean 'U08'"), (str(env), "add ':NAME'"),
                         (f"{tmp_path}/none.yaml", "not found")):  # fmt: skip
        assert main(["check", case, "--env", spec]) == 2
        err = capsys.readouterr().err
        assert "--env" in err and needle in err and err.count("\n") == 1, err
    out_nc = tmp_path / "u25.nc"
    assert main(["run", case, "--env", f"{env}:U25", "--tmax", "1", "-o", str(out_nc)]) == 0
    ds = xr.open_dataset(out_nc)
    assert "Hs=14 m" in ds.attrs["env_sea"] and "uhub=25 m/s" in ds.attrs["env_wind"]
    assert ds.attrs["environment_override"] == f"--env {env}:U25"


def test_warmup_compiles_ahead_and_says_so(capsys):
    """Issue 24 item 2: `floatwind warmup CASE` runs what compiles the case's stepping, one
    line per case ('compiled in .. s' or 'already compiled'); a second call finds it compiled."""
    assert main(["warmup", CASE]) == 0
    assert main(["warmup", CASE]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2 and lines[1] == f"{CASE}: already compiled", lines
