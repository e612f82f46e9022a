"""Bad input: malformed case files give a CaseError naming file and field, and the CLI exits 2
with one clear line (no traceback)."""

import pathlib
import subprocess
import sys

import pytest
import yaml

from floatwind.case import load_case
from floatwind.cli import main
from floatwind.errors import CaseError

ROOT = pathlib.Path(__file__).resolve().parents[1]
GOOD = yaml.safe_load((ROOT / "cases" / "oc3_platform_decay.yaml").read_text())


def _mutate(fn):
    import copy

    d = copy.deepcopy(GOOD)
    fn(d)
    return d


def _del(path):
    def f(d):
        *head, last = path
        for k in head:
            d = d[k]
        del d[last]

    return f


def _set(path, value):
    def f(d):
        *head, last = path
        for k in head:
            d = d[k]
        d[last] = value

    return f


# (description, mutation, expected field, expected words in the reason)
CASES = [
    ("missing mass", _del(["bodies", 0, "mass"]), "bodies[0].mass", "missing"),
    ("mass not a number", _set(["bodies", 0, "mass"], "heavy"), "bodies[0].mass", "number"),
    ("negative mass", _set(["bodies", 0, "mass"], -5.0), "bodies[0].mass", "> 0"),
    ("inertia not positive definite", _set(["bodies", 0, "inertia"], [1.0, -2.0, 3.0]), "bodies[0].inertia", "positive definite"),
    ("inertia not symmetric", _set(["bodies", 0, "inertia"], [[1, 0.5, 0], [0, 1, 0], [0, 0, 1]]), "bodies[0].inertia", "symmetric"),
    ("unknown top-level key", _set(["simulaton"], {"t_max": 5}), "simulaton", "did you mean 'simulation'"),
    ("unknown body key", _set(["bodies", 0, "masss"], 1.0), "bodies[0].masss", "did you mean 'mass'"),
    ("unknown load type", _set(["loads", 0, "type"], "gravty"), "loads[0].type", "did you mean 'gravity'"),
    ("stiffness wrong shape", _set(["loads", 2, "stiffness"], [[1, 2], [3, 4]]), "loads[2].stiffness", "6x6"),
    ("unknown body in load", _set(["loads", 1, "body"], "hull"), "loads[1].body", "unknown body"),
    ("negative time step", _set(["simulation", "dt"], -0.01), "simulation.dt", "> 0"),
    ("cm wrong length", _set(["bodies", 0, "cm"], [0.0, 1.0]), "bodies[0].cm", "3 numbers"),
    ("initial angles wrong shape", _set(["initial", "angles"], [0.1, 0.2]), "initial.angles", "3 numbers"),
    ("integrator unknown", _set(["simulation", "integrator"], "rk5"), "simulation.integrator", "one of"),
    ("no bodies", _set(["bodies"], []), "bodies", "non-empty"),
    ("body is not a mapping", _set(["bodies", 0], 42), "bodies[0]", "mapping"),
]


@pytest.mark.parametrize("desc,mutation,field,reason", CASES, ids=[c[0] for c in CASES])
def test_malformed_case_names_file_and_field(tmp_path, capsys, desc, mutation, field, reason):
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(_mutate(mutation)))
    with pytest.raises(CaseError) as info:
        load_case(path)
    err = info.value
    assert err.field == field, (desc, err.field)
    assert err.file == str(path)
    assert reason in str(err), str(err)
    # through the CLI: exit status 2 and exactly one line on stderr, for both commands
    for cmd in (["check", str(path)], ["run", str(path), "--tmax", "1"]):
        rc = main(cmd)
        out = capsys.readouterr()
        assert rc == 2
        lines = out.err.strip().splitlines()
        assert len(lines) == 1 and field in lines[0] and "Traceback" not in out.err


def test_not_yaml_and_missing_file(tmp_path, capsys):
    bad = tmp_path / "broken.yaml"
    bad.write_text("bodies: [\n  - name: a\n mass: : 3\n")
    with pytest.raises(CaseError, match="not valid YAML at line"):
        load_case(bad)
    assert main(["check", str(tmp_path / "nope.yaml")]) == 2
    assert "not found" in capsys.readouterr().err
    scalar = tmp_path / "scalar.yaml"
    scalar.write_text("42\n")
    with pytest.raises(CaseError, match="mapping"):
        load_case(scalar)


def test_cli_overrides_are_validated(capsys):
    rc = main(["run", str(ROOT / "cases" / "oc3_platform_decay.yaml"), "--tmax", "-3"])
    assert rc == 2
    assert "--tmax" in capsys.readouterr().err


def test_cli_subprocess_has_no_traceback(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(_mutate(_set(["bodies", 0, "mass"], -1))))
    proc = subprocess.run(
        [sys.executable, "-m", "floatwind", "check", str(path)], capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
