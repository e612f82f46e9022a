"""RAOs with tower modes (issue 40 item 2 with issue 37's flexible tower): ref13 (OC3 spar,
WAMIT A(w), B(w), X(w)) imported with TwFADOF1 + TwSSDOF1 gives the tower-top deflection per
unit wave amplitude; a stiffened tower converges to the rigid deck's platform RAOs. NumPy
right-hand side (no compile); ~5 s."""

from __future__ import annotations

import copy
import pathlib

import numpy as np
import pytest

from floatwind.linear.matrices import linearize
from floatwind.linear.rao import raos

ROOT = pathlib.Path(__file__).resolve().parents[1]
REF13 = ROOT / "../shared/reference/openfast/ref13_potential_irregular"
DECK = REF13 / "ref13_potential_irregular.fst"

pytestmark = pytest.mark.skipif(not REF13.is_dir(), reason="OpenFAST reference decks not available")


def test_tower_mode_raos_and_the_stiff_tower_limit():
    """Invariants: the tower-mode RAOs exist (TwFADOF1 ~0.08 m of top deflection per m of wave
    near 0.6-0.9 rad/s), the side-to-side mode is not excited by waves from 0 deg (symmetry:
    < 1e-12 of the FA response) but is from 30 deg. Limit: multiplying the tower's stiffness
    (ElastoDyn's FAStTunr/SSStTunr, ``flexible_tower.tuner``) by 1e4 gives the rigid deck's
    platform RAOs (tower mass in the platform body) to 1e-4 of each DOF's peak (measured
    1.5e-5), and the difference falls as 1/stiffness (x100 stiffer: 100x smaller)."""
    from floatwind.case.loader import model_from_dict
    from floatwind.case.openfast.fst import read_fst
    from floatwind.case.openfast.importer import case_from_deck
    from floatwind.cli._case import load_model

    deck = read_fst(DECK)
    ed = deck["ElastoDyn"]["values"]
    ed["TwFADOF1"], ed["TwSSDOF1"] = True, True
    case = case_from_deck(deck)["case"]
    w = np.linspace(0.2, 2.0, 91)
    hd = np.radians([0.0, 30.0])
    rigid = raos(linearize(load_model(str(DECK)), "equilibrium"), w, hd)
    peak = np.abs(rigid).max(axis=(0, 1))
    err = {}
    for tuner in (1.0, 1e2, 1e4):
        c = copy.deepcopy(case)
        c["flexible_tower"]["tuner"] = [tuner] * 4
        lin = linearize(model_from_dict(c, base_dir=DECK.parent), "equilibrium")
        assert lin.dof[6:] == ["TwFADOF1", "TwSSDOF1"]
        r = raos(lin, w, hd)
        err[tuner] = np.abs(r[:, :, :6] - rigid).max(axis=(0, 1)) / peak
        if tuner == 1.0:
            fa, ss = np.abs(r[:, :, 6]), np.abs(r[:, :, 7])
            assert 0.05 < fa[(w > 0.6) & (w < 0.9), 0].max() < 0.12
            assert ss[:, 0].max() < 1e-12 * fa[:, 0].max()
            assert ss[:, 1].max() > 0.1 * fa[:, 1].max()
            assert err[tuner].max() > 0.05  # the flexible tower changes the platform's RAOs
    assert err[1e4].max() < 1e-4
    ratio = err[1e2] / err[1e4]
    assert np.all((ratio > 80) & (ratio < 120)), ratio
