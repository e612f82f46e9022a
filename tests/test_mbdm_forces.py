"""Issue 34: the MBDM forces file's element types register themselves (``CoordinateForce``
subclasses, ``kind=``); types of other packages are found through the entry-point group
``floatwind.mbdm_forces`` (the slider-crank's gas force (94) lives in ``validation/mbdm/``), so
floatwind never imports ``validation``. The entry points are faked here (the installed metadata
is rebuilt only by ``pip install -e .``)."""

from __future__ import annotations

import importlib.metadata as md
import pathlib
import textwrap

import numpy as np
import pytest

from floatwind.case.mbdm_files import read_mbdm
from floatwind.errors import CaseError
from floatwind.multibody.mbdm import forces

DYNAMIC = pathlib.Path(__file__).resolve().parents[1] / "cases" / "mbdm" / "slider_crank_dynamic"

PLUGIN = '''
from numba import njit

from floatwind.multibody.mbdm.forces import CoordinateForce


@njit(cache=False)
def drag(x, v, p):
    return -p[0] * v * abs(v) if v != 0.0 else 0.0


@njit(cache=False)
def at_rest(x, v, p):
    return v


class QuadraticDrag(CoordinateForce, kind="Quadratic  DRAG"):
    law = drag
    switch_laws = (at_rest,)
'''


def _fake_entry_points(monkeypatch, values):
    """The installed entry points of the group, replaced by ``values`` (name, module)."""
    eps = [md.EntryPoint(name=n, value=v, group=forces.GROUP) for n, v in values]
    real = md.entry_points

    def entry_points(**params):
        return eps if params.get("group") == forces.GROUP else real(**params)

    monkeypatch.setattr(md, "entry_points", entry_points)
    monkeypatch.setattr(forces, "FORCE_KINDS", {})
    monkeypatch.setattr(forces, "_PLUGINS_LOADED", [])


def _case(tmp_path, typ="Quadratic drag"):
    (tmp_path / "mbdm").write_text((DYNAMIC / "mbdm").read_text())
    text = (DYNAMIC / "mbdm.expert.forces").read_text()
    assert "type: gas force (94)" in text
    (tmp_path / "mbdm.expert.forces").write_text(text.replace("type: gas force (94)", f"type: {typ}"))
    return tmp_path / "mbdm"


def test_a_plugin_force_type_is_found_through_its_entry_point(tmp_path, monkeypatch):
    """A forces file names a type that an installed plugin's module registers: the reader finds
    it through the entry point (imported on first need) and builds the plugin's element, whose
    NumPy path calls the law's Python form."""
    (tmp_path / "plugin").mkdir()
    (tmp_path / "plugin" / "h7_fake_forces.py").write_text(textwrap.dedent(PLUGIN))
    monkeypatch.syspath_prepend(str(tmp_path / "plugin"))
    _fake_entry_points(monkeypatch, [("drag", "h7_fake_forces")])
    model = read_mbdm(_case(tmp_path))
    fe = model.force_elements()[1]
    assert type(fe).__name__ == "QuadraticDrag" and (fe.body, fe.axis) == (2, 0)
    assert forces.force_kind("quadratic drag") is type(fe)
    cls = type(fe)
    el = cls(2, 0, params=(3.0,))
    q, qd = np.zeros((4, 7)), np.zeros((4, 7))
    qd[2, 0] = 2.0
    F, n = el.evaluate(0.0, q, qd)
    assert F[2, 0] == -12.0 and np.count_nonzero(F) == 1 and not n.any()
    assert el.switches(0.0, q, qd) == [2.0]


def test_a_force_type_no_plugin_provides_is_refused_in_one_line(tmp_path, monkeypatch):
    """No installed plugin provides the type (or the plugin is broken): one line naming the
    file, the line, the type and the entry-point group."""
    _fake_entry_points(monkeypatch, [("broken", "h7_no_such_module_anywhere")])
    path = _case(tmp_path, "gas force (95)")
    with pytest.raises(CaseError) as err:
        read_mbdm(path)
    msg = str(err.value)
    assert "\n" not in msg and "mbdm.expert.forces" in msg and "line 10 (Load 2.type)" in msg
    assert "'gas force (95)'" in msg and forces.GROUP in msg


def test_the_gas_force_is_found_through_the_shipped_entry_point():
    """pyproject.toml's entry point ``gas94`` names ``validation.mbdm.forces``, whose
    ``GasForce94`` registers 'gas force (94)' (floatwind itself does not define it)."""
    import tomllib

    root = DYNAMIC.parents[2]
    groups = tomllib.loads((root / "pyproject.toml").read_text())["project"]["entry-points"]
    assert list(groups[forces.GROUP].items()) == [("gas94", "validation.mbdm.forces")]
    mod = md.EntryPoint(name="gas94", value="validation.mbdm.forces", group=forces.GROUP).load()
    assert mod.GasForce94.kind == "gas force (94)"
    assert forces.force_kind("Gas  Force (94)") is mod.GasForce94
    assert not any(c.__module__.startswith("floatwind") for c in forces.FORCE_KINDS.values()
                   if c.kind == "gas force (94)")  # fmt: skip


def test_a_kind_registered_twice_is_refused():
    class One(forces.CoordinateForce, kind="h7 twice"):
        law = staticmethod(lambda x, v, p: 0.0)

    try:
        with pytest.raises(ValueError, match="registered twice"):
            type("Two", (forces.CoordinateForce,), {"law": One.law}, kind="H7  twice")
    finally:
        forces.FORCE_KINDS.pop("h7 twice", None)
