"""``floatwind run DECK.fst`` writes the channels of the deck's OutLists that floatwind computes, in
OpenFAST's names, and lists the others in one line (issue 17 item 2;
floatwind/case/openfast/outputs.py)."""

from __future__ import annotations

import pathlib
import sys

import numpy as np
import pytest
import xarray as xr

from floatwind.case.openfast.outputs import deck_outlist, needs_split, not_computed
from floatwind.cli import main

ROOT = pathlib.Path(__file__).resolve().parents[1]
REF = ROOT.parent / "shared" / "reference" / "openfast"
sys.path.insert(0, str(ROOT))


def test_outlist_helpers_are_case_insensitive():
    deck = {"ElastoDyn": {"outlists": {"OutList": ["PtfmSurge", "TwrBsMyt"], "OutList_2": []}},
            "HydroDyn": {"outlists": {"OutList": ["HYDROFXI", "ptfmsurge"]}}, "fst": {}}  # fmt: skip
    names = deck_outlist(deck)
    assert names == ["PtfmSurge", "TwrBsMyt", "HYDROFXI"]
    assert needs_split(names) and not needs_split(["YawBrMyp", "PtfmPitch"])
    assert needs_split(["rootmyb1"])
    ds = xr.Dataset({"PtfmSurge": ("time", [0.0]), "HydroFxi": ("time", [0.0])})
    assert not_computed(names, ds) == ["TwrBsMyt"]


@pytest.mark.skipif(not (REF / "ref01_pitch_decay").is_dir(), reason="no shared reference decks")
def test_plain_deck_run_writes_the_outlist_as_openfast_does(tmp_path, capsys):
    """ref01 run plainly (nothing taken from OpenFAST's outputs): every OutList channel is
    written, in OpenFAST's names, and equals OpenFAST's over the first 30 s to 1e-6 of range."""
    from validation.openfast.compare import _si, read_reference

    deck = REF / "ref01_pitch_decay" / "ref01_pitch_decay.fst"
    out = tmp_path / "r1.nc"
    assert main(["run", str(deck), "--tmax", "30", "-o", str(out), "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "OutList channel(s)" not in printed  # ref01 asks for nothing floatwind lacks
    ds = xr.open_dataset(out)
    from floatwind.case import openfast as od

    names = deck_outlist(od.read_fst(deck))
    assert not not_computed(names, ds)
    ref, _ = read_reference({"out": None, "outb": REF / "ref01_pitch_decay" / "ref01_pitch_decay.outb"})
    t = ds["time"].values
    checked = 0
    for name in names:
        r, _ = _si(ref, name)
        r = np.interp(t, ref["time"].values, r)
        s = ds[name].values
        rng = float(np.ptp(r))
        if name == "Azimuth":
            d = np.angle(np.exp(1j * (s - r)))
            assert float(np.abs(d).max()) < 1e-9, name
            continue
        if rng < 1e-6 * max(float(np.abs(r).max()), 1.0):
            assert float(np.abs(s - r).max()) <= 1e-6 * max(float(np.abs(r).max()), 1.0), name
            continue
        nrmse = float(np.sqrt(np.mean((s - r) ** 2)) / rng)
        assert nrmse < 1e-6, (name, nrmse)
        checked += 1
    assert checked >= 20  # the others have no range (sway, roll, yaw ... of a pitch decay)


@pytest.mark.skipif(not (REF / "ref03_yaw_spin").is_dir(), reason="no shared reference decks")
def test_deck_run_lists_what_it_cannot_compute_in_one_line(tmp_path, capsys):
    deck = REF / "ref03_yaw_spin" / "ref03_yaw_spin.fst"
    out = tmp_path / "r3.nc"
    assert main(["run", str(deck), "--tmax", "2", "-o", str(out), "--no-progress"]) == 0
    lines = [ln for ln in capsys.readouterr().out.splitlines() if "OutList" in ln]
    assert lines == ["1 OutList channel(s) of the deck not computed by floatwind: BlPitchC1"]
    ds = xr.open_dataset(out)
    for name in ("RootMyb1", "TwrBsMyt", "YawBrMyp", "HydroFxi", "NacYaw", "NacYawV", "RotSpeed",
                 "Azimuth", "BldPitch1", "YawMom"):  # fmt: skip
        assert name in ds, name
    # the yaw is a degree of freedom: ServoDyn's YawMom is minus the drive moment on the nacelle,
    # which is the yaw-bearing moment about z (ref03 README) up to the nacelle's own inertia
    assert ds["YawMom"].attrs["units"] == "N m"
    assert ds["RotSpeed"].attrs["units"] == "rad/s"
    assert float(ds["RotSpeed"][0]) == pytest.approx(12.1 * np.pi / 30, rel=1e-12)
