"""Load kinds register themselves where the classes are defined (issue 34), and the status bits
of the compiled code are one ``enum.IntFlag`` with one meaning per bit."""

from __future__ import annotations

import pathlib
import re

import pytest

from floatwind.errors import CaseError
from floatwind.loads import registry
from floatwind.loads.base import Load, LoadKindError, Wrench

ROOT = pathlib.Path(__file__).resolve().parents[1]


class _Zero(Load):
    """A load that does nothing (the classes below differ only in their kinds)."""

    def wrench(self, t, kin, env):
        return Wrench.zeros(kin.batch, kin.n_bodies)

    @classmethod
    def from_config(cls, cfg, *, body_index, field, base_dir=None, tree=None):
        return cls()


class RegistryProbe(_Zero, kind="registry_probe"):
    name = "registry_probe"


def _shipped() -> dict[str, type]:
    return {k: c for k, c in registry.registered().items() if c.__module__.startswith("floatwind.")}


def test_every_kind_is_its_class_and_documented():
    """Each registered class says its kind; every kind floatwind ships is in the case format's
    table of loads (docs/case_format.md) and builds from a case mapping."""
    text = (ROOT / "docs" / "case_format.md").read_text()
    shipped = _shipped()
    assert shipped
    for kind, cls in registry.registered().items():
        assert cls.kind == kind and registry.load_class(kind) is cls
        assert cls.from_config.__func__ is not Load.from_config.__func__
    missing = [k for k in shipped if f"`{k}`" not in text]
    assert not missing, f"kinds not in docs/case_format.md: {missing}"
    assert registry.kinds() == sorted(registry.registered())


def test_a_kind_taken_twice_is_refused_naming_both_classes():
    with pytest.raises(LoadKindError) as err:

        class Again(_Zero, kind="registry_probe"):
            pass

    msg = str(err.value)
    assert "'registry_probe'" in msg
    where = f"{__name__}.test_a_kind_taken_twice_is_refused_naming_both_classes.<locals>"
    assert f"{where}.Again" in msg
    assert f"{__name__}.RegistryProbe" in msg
    assert registry.load_class("registry_probe") is RegistryProbe
    # a kind floatwind ships is refused the same way
    gravity = registry.load_class("gravity")
    with pytest.raises(LoadKindError, match=r"floatwind\.loads\.simple\.Gravity"):

        class MyGravity(_Zero, kind="gravity"):
            pass

    assert registry.load_class("gravity") is gravity


def test_bad_kinds_and_kinds_without_a_case_form_are_refused():
    for bad in ("Has-Dash", "", "1st", 3):
        with pytest.raises(LoadKindError, match="kind must be a name"):

            class Bad(_Zero, kind=bad):
                pass

    with pytest.raises(LoadKindError, match="must define from_config"):

        class NoConfig(Load, kind="registry_no_config"):
            def wrench(self, t, kin, env):
                return Wrench.zeros(kin.batch, kin.n_bodies)

    assert "registry_no_config" not in registry.kinds()


def test_a_subclass_inherits_the_kind_without_taking_it():
    from floatwind.loads.potential import PotentialRadiation, PotentialRadiationSS

    assert PotentialRadiationSS.kind == PotentialRadiation.kind
    assert registry.load_class(PotentialRadiation.kind) is PotentialRadiation

    class Quiet(_Zero):  # no kind: built in Python only, not in the table
        pass

    assert Quiet.kind is None and Quiet not in registry.registered().values()


def test_the_contract_answers_what_readers_need():
    """The mooring statics, the start-up checks and the case loader ask the loads, not their
    classes: the mooring kinds are the catenary, taut and lumped-mass lines, the Morison load samples the
    sea at its strips and ends, the potential-flow loads read WAMIT coefficients."""
    from floatwind.loads.catenary import CatenaryMooring
    from floatwind.loads.moordyn import LumpedMassMooring
    from floatwind.loads.mooring import TautMooring
    from floatwind.loads.potential import PotentialExcitation, PotentialRadiation

    moorings = {CatenaryMooring.kind, TautMooring.kind, LumpedMassMooring.kind}
    assert set(registry.kinds(lambda c: c.is_mooring)) == moorings
    assert set(registry.kinds(lambda c: c.reads_wamit)) == {
        PotentialRadiation.kind,
        PotentialExcitation.kind,
    }
    from floatwind.case import load_case

    m = load_case(ROOT / "cases" / "truncated_spar_84.yaml", {"simulation.t_max": 1.0})
    by_kind = {ld.kind: ld for ld in m.loads}
    mor = by_kind["morison"]
    assert mor.wave_points == len(mor.strip_centre_b) + len(mor.end_pos_b) > 0
    assert all(ld.wave_points == 0 for ld in m.loads if ld is not mor)
    from floatwind.simulate.mooring import mooring_loads, no_mooring_message

    assert mooring_loads(m) == [by_kind["mooring_taut"]]
    assert no_mooring_message() == (
        "the model has no mooring_catenary or mooring_lumped or mooring_taut load"
    )


def test_a_registered_kind_is_read_from_a_case_file_with_did_you_mean():
    import copy

    import yaml

    from floatwind.case.loader import model_from_dict

    good = yaml.safe_load((ROOT / "cases" / "oc3_platform_decay.yaml").read_text())
    data = copy.deepcopy(good)
    data["loads"].append({"type": "registry_probe"})
    assert isinstance(model_from_dict(data).loads[-1], RegistryProbe)
    data["loads"][-1]["type"] = "registry_prob"
    with pytest.raises(CaseError) as err:
        model_from_dict(data)
    assert err.value.field == f"loads[{len(data['loads']) - 1}].type"
    assert "did you mean 'registry_probe'" in str(err.value)
    assert "gravity" in str(err.value)  # the known kinds are listed


def test_no_list_of_load_kinds_outside_the_registry():
    """The modules that used to keep lists of kinds (or test the classes of loads) ask the
    registry and the Load contract instead: none of them spells a kind (but "gravity" is also
    the name of an environment constant)."""
    from floatwind.environment.base import CONSTANT_DEFAULTS

    kinds = [k for k in _shipped() if k not in CONSTANT_DEFAULTS]
    pat = re.compile("|".join(rf"[\"']{re.escape(k)}[\"']" for k in kinds))
    readers = ["case/loader.py", "simulate/mooring.py", "simulate/sanity.py",
               "studies/execute.py", "studies/spec.py", "dlc/spec.py", "bem/hull.py"]  # fmt: skip
    hits = []
    for rel in readers:
        for k, line in enumerate((ROOT / "floatwind" / rel).read_text().splitlines(), 1):
            if pat.search(line) or "isinstance(ld, (" in line or "getattr(ld, " in line:
                hits.append(f"floatwind/{rel}:{k}: {line.strip()}")
    assert not hits, "\n".join(hits)


# --- status bits --------------------------------------------------------------------------


def test_status_bits_are_distinct_single_bits_with_a_meaning():
    from floatwind._kernels import status as st

    members = list(st.Status)
    values = [int(m) for m in members]
    assert len(set(values)) == len(values)
    assert all(v > 0 and v & (v - 1) == 0 for v in values)  # one bit each
    for m in members:
        # the plain-int constant the kernels read is the flag's value
        assert getattr(st, m.name) == int(m) and type(getattr(st, m.name)) is int
        assert st.describe(m) != "ok" and "unknown" not in st.describe(m)
    assert st.OK == 0 and st.describe(0) == "ok"


def test_status_decodes_into_names():
    from floatwind._kernels.status import Status, describe

    both = Status.CATENARY_NOT_CONVERGED | Status.NOT_FINITE
    assert describe(both) == "non-finite state, catenary mooring line solve not converged"
    assert Status(int(both)).describe() == describe(int(both))
    assert Status.CATENARY_NOT_CONVERGED != Status.BOSSAK_NOT_CONVERGED  # 32 twice before
    assert describe(int(Status.WIND_OUTSIDE) | 1 << 20) == (
        "wind outside the compiled field, unknown status bits 0x100000"
    )


def test_numba_reads_the_status_constants():
    pytest.importorskip("numba")
    from numba import njit

    from floatwind._kernels.status import FAIRLEAD_AT_ANCHOR, Status

    @njit
    def flag(x):
        return FAIRLEAD_AT_ANCHOR if x > 0 else 0

    assert flag(1) == Status.FAIRLEAD_AT_ANCHOR and flag(-1) == 0
