"""One compiled home per load (issue 16): every load's compiled form is its ``compiled()``
method (a named params record and one kernel with the one signature), the fused loop is generated
from them, and every shipped case and every imported OpenFAST reference deck steps compiled with
the numbers of the Python path.
"""

from __future__ import annotations

import pathlib
import re
from typing import NamedTuple

import numpy as np
import pytest
from conftest import fused_and_python

pytest.importorskip("numba")
from numba import njit  # noqa: E402

from floatwind._kernels.contract import CompiledLoad  # noqa: E402
from floatwind.loads.base import Load, Wrench  # noqa: E402
from floatwind.simulate import fused as fz  # noqa: E402
from floatwind.simulate import simulate  # noqa: E402
from floatwind.simulate.system import System  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
REF = ROOT.parent / "shared" / "reference" / "openfast"
CASES = sorted((ROOT / "cases").glob("*.yaml")) + sorted((ROOT / "cases" / "spar_family").glob("*.yaml"))
DECKS = sorted(REF.glob("ref0[1-6]*/*.fst")) if REF.is_dir() else []


@pytest.fixture(autouse=True)
def _jit_on(compiled_on):
    """Every test here runs with the compiled kernels and the fused stepping on."""


# --- a toy load: a linear spring-damper on the base body's heave, written only as a NumPy
# wrench and a kernel + params: it runs compiled without being registered anywhere else; its
# class keyword ``kind`` makes it a case-file ``type`` (floatwind.loads.registry) as soon as this
# module is imported


@njit(cache=True)
def toy_heave_kernel(p, t, kin, y, dy, force, moment, added):
    for b in range(force.shape[0]):
        force[b, p.body, 2] += -p.k * (kin.r_G[b, p.body, 2] - p.z0) - p.c * kin.v_G[b, p.body, 2]
    return 0


class ToyHeaveSpring(Load, kind="toy_heave"):
    name = "toy_heave"

    class Params(NamedTuple):
        body: int
        k: float
        c: float
        z0: float

    def __init__(self, body=0, k=2e5, c=5e4, z0=0.0, name=None):
        self.p = self.Params(body=body, k=k, c=c, z0=z0)
        if name:
            self.name = name

    @classmethod
    def from_config(cls, cfg, *, body_index, field, base_dir=None, tree=None):
        from floatwind.validate import Section

        sec = Section(cfg, field, {"type", "body", "k", "c", "z0", "name"})
        return cls(sec.body(body_index), sec.number("k", 2e5), sec.number("c", 5e4),
                   sec.number("z0", 0.0), sec.raw("name", None))  # fmt: skip

    def wrench(self, t, kin, env):
        w = Wrench.zeros(kin.batch, kin.n_bodies)
        b = self.p.body
        w.force[:, b, 2] = -self.p.k * (kin.r_G_g[:, b, 2] - self.p.z0) - self.p.c * kin.v_G_g[:, b, 2]
        return w

    def compiled(self, env, batch):
        return CompiledLoad(toy_heave_kernel, self.p)


def _close(a, b, rtol=1e-9):
    for name in ("PtfmSurge", "PtfmHeave", "PtfmPitch", "PtfmYaw", "PtfmRVyi"):
        if name in a:
            x, y = a[name].values, b[name].values
            # floor: a motion that stays at round-off (ref06's yaw, ~1e-19 rad from MAP++'s
            # 4-decimal node coordinates) is judged by an absolute 1e-15
            scale = max(float(np.max(np.abs(y))), 1e-6)
            assert np.max(np.abs(x - y)) <= rtol * scale, (name, np.max(np.abs(x - y)) / scale)


def test_toy_load_runs_compiled_with_the_python_numbers():
    from floatwind.case import load_case

    def model():
        m = load_case(ROOT / "cases" / "oc3_platform_decay.yaml", {"simulation.t_max": 5.0})
        m.loads = list(m.loads) + [ToyHeaveSpring(), ToyHeaveSpring(k=1e5, c=0.0, z0=-1.0)]
        return m

    fused, why = fz.fuse(System(model()))
    assert fused is not None, why
    assert len(fused.compiled) == len(model().loads)  # two loads of one kind: both there
    a, b = fused_and_python(model)
    _close(a, b)
    # the toy spring acts: heave differs from the model without it

    c = simulate(
        load_case(ROOT / "cases" / "oc3_platform_decay.yaml", {"simulation.t_max": 5.0}),
        progress=False,
    )
    assert np.max(np.abs(a.PtfmHeave.values - c.PtfmHeave.values)) > 1e-6


def test_toy_load_from_a_case_file_runs_compiled_and_batched():
    """The toy load's kind is a case-file ``type`` (no other file names it): a case with two of
    them steps compiled with the Python path's numbers, and each member of a batch of two gives
    its run alone bit for bit."""
    import copy

    import yaml

    from floatwind.case.loader import model_from_dict
    from floatwind.loads import registry

    assert registry.load_class("toy_heave") is ToyHeaveSpring
    path = ROOT / "cases" / "oc3_platform_decay.yaml"
    base = yaml.safe_load(path.read_text())
    base["simulation"]["t_max"] = 5.0
    base["loads"] += [
        {"type": "toy_heave", "body": "platform"},
        {"type": "toy_heave", "name": "toy_heave_2", "body": "platform", "k": 1e5, "c": 0.0,
         "z0": -1.0},
    ]  # fmt: skip
    rows = [[0.0, 0.0, 0.0], [0.0, 0.0, 0.5]]

    def model(displacement):
        data = copy.deepcopy(base)
        data["initial"]["displacement"] = displacement
        return model_from_dict(data, base_dir=path.parent, name="toy")

    m = model(rows)
    assert [type(ld) for ld in m.loads[-2:]] == [ToyHeaveSpring, ToyHeaveSpring]
    assert m.loads[-1].p == ToyHeaveSpring.Params(0, 1e5, 0.0, -1.0) and m.batch == 2
    a, b = fused_and_python(lambda: model(rows))
    _close(a, b)
    for k, row in enumerate(rows):
        alone = simulate(model([row]), progress=False)
        for name in ("PtfmSurge", "PtfmHeave", "PtfmPitch"):
            np.testing.assert_array_equal(a[name].values[k], alone[name].values)


def test_a_load_without_compiled_form_falls_back_and_says_so(caplog):
    from floatwind.case import load_case

    class NoKernel(Load):
        name = "no_kernel_load"

        def wrench(self, t, kin, env):
            return Wrench.zeros(kin.batch, kin.n_bodies)

    m = load_case(ROOT / "cases" / "oc3_platform_decay.yaml", {"simulation.t_max": 0.5})
    m.loads = list(m.loads) + [NoKernel()]
    fused, why = fz.fuse(System(m))
    assert fused is None and "no_kernel_load" in why
    with caplog.at_level("WARNING"):
        simulate(m, progress=False)
        simulate(m, progress=False)
    said = [r for r in caplog.records if "Python path" in r.getMessage()]
    assert len(said) == 1 and "no_kernel_load" in said[0].getMessage()


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_every_shipped_case_steps_compiled(case):
    """No shipped case falls back to the Python path, and the compiled steps give the Python
    path's numbers (short window)."""
    from floatwind.case import load_case

    _close(*fused_and_python(lambda: load_case(case, {"simulation.t_max": 1.0})))


@pytest.mark.skipif(not DECKS, reason="OpenFAST references not available")
@pytest.mark.parametrize("deck", DECKS, ids=lambda p: p.stem)
def test_every_reference_deck_steps_compiled(deck):
    from floatwind.case.openfast import model_from_deck

    _close(*fused_and_python(lambda: model_from_deck(deck, overrides={"simulation.t_max": 1.0})))


def test_no_numbered_tuple_indexing_of_load_or_sea_parameters():
    """Params are read by name: no ``sea[17]``, ``mor[7]``, ``hyd[1]`` ... in the package."""
    pat = re.compile(r"\b(sea|mor|hyd|taut|thr|wind|cf|lin|grav|ld)\[\d+\]")
    hits = []
    for f in (ROOT / "floatwind").rglob("*.py"):
        for k, line in enumerate(f.read_text().splitlines(), 1):
            if pat.search(line):
                hits.append(f"{f.relative_to(ROOT)}:{k}: {line.strip()}")
    assert not hits, "\n".join(hits)


def test_several_morison_and_mooring_loads_in_one_model():
    """No limit of one load per kind: a model with two Morison loads and two taut moorings (each
    a copy, so the loads double) steps compiled with the Python path's numbers."""
    import copy

    from floatwind.case import load_case

    def model():
        m = load_case(ROOT / "cases" / "truncated_spar_84.yaml", {"simulation.t_max": 2.0})
        extra = [
            copy.deepcopy(ld)
            for ld in m.loads
            if type(ld).__name__ in ("MorisonMembers", "TautMooring")
        ]
        assert len(extra) == 2
        m.loads = list(m.loads) + extra
        return m

    fused, why = fz.fuse(System(model()))
    assert fused is not None, why
    kinds = [type(c.params).__qualname__ for c in fused.compiled]
    assert kinds.count("MorisonMembers.Params") == 2 and kinds.count("TautMooring.Params") == 2
    _close(*fused_and_python(model))
