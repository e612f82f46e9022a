"""ElastoDyn's flexible tower from a deck: the tower file (``TwrFile``) and the tower DOF flags
(TwFADOF1/2, TwSSDOF1/2, TTDspFA/SS) into a :class:`floatwind.multibody.flex_tower.TowerModes`
(issue 37; docs/openfast_import.md, "Flexible tower").

Bad input is refused in one line naming the file and its line: mode-shape coefficients whose sum
is not 1 (phi(1) = 1 is what makes the modal coordinate the tower-top deflection; ElastoDyn
``ValidateTowerData`` allows 0.001), a non-positive stiffness, HtFract not increasing from 0 to 1.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from floatwind.case.openfast.reader import _bool, _find_table, _float, _int, _table_columns
from floatwind.errors import CaseError

if TYPE_CHECKING:  # imported where a deck has tower DOFs on (issue 41: a run's imports)
    from floatwind.multibody.flex_tower import TowerModes

__all__ = ["TOWER_DOF_FLAGS", "tower_dofs_on", "tower_modes"]

#: ElastoDyn's flags of the modes of MODE_NAMES, in that order
TOWER_DOF_FLAGS = ("TwFADOF1", "TwSSDOF1", "TwFADOF2", "TwSSDOF2")
_SHAPE_KEYS = ("TwFAM1Sh", "TwSSM1Sh", "TwFAM2Sh", "TwSSM2Sh")
_DAMP_KEYS = ("TwrFADmp(1)", "TwrSSDmp(1)", "TwrFADmp(2)", "TwrSSDmp(2)")
_TUNER_KEYS = ("FAStTunr(1)", "SSStTunr(1)", "FAStTunr(2)", "SSStTunr(2)")
#: ElastoDyn ValidateTowerData: |sum of the coefficients - 1| <= 0.001
SHAPE_SUM_TOL = 1e-3


def tower_dofs_on(deck: dict) -> bool:
    """Whether any tower bending DOF of the deck's ElastoDyn file is on."""
    ed = deck["ElastoDyn"]
    return any(_bool(ed, k, False) for k in TOWER_DOF_FLAGS)


def _lines(path: str) -> list[str]:
    return Path(path).read_text(encoding="latin-1").splitlines()


def _where(path: str, key: str) -> str:
    """``file:line`` of the keyed line ``key`` (the file alone when it is not found)."""
    for i, ln in enumerate(_lines(path), start=1):
        toks = ln.split()
        if key in toks:
            return f"{path}:{i}"
    return path


def _row_where(path: str, first_col: str, row: int) -> str:
    """``file:line`` of data row ``row`` (0-based) of the table headed by ``first_col``."""
    lines = _lines(path)
    for i, ln in enumerate(lines):
        toks = ln.split()
        if toks and toks[0] == first_col:
            j, k = i + 2, -1  # after the units line
            while j < len(lines):
                if lines[j].strip():
                    k += 1
                    if k == row:
                        return f"{path}:{j + 1}"
                j += 1
    return path


def tower_modes(deck: dict, gravity: float, top_mass: float) -> TowerModes:
    """The deck's flexible tower (all four modes' data; the active ones from the DOF flags).

    ``top_mass`` = ElastoDyn's TwrTpMass (rotor + nacelle + yaw bearing), ``gravity`` (m/s^2)."""
    from floatwind.multibody.flex_tower import TowerModes

    ed = deck["ElastoDyn"]
    twr = deck["ElastoDyn_tower"]
    tf = twr["file"]
    tower_ht = _float(ed, "TowerHt")
    tower_bs = _float(ed, "TowerBsHt")
    flex = tower_ht - tower_bs
    if flex <= 0.0:
        raise CaseError(
            f"TowerHt ({tower_ht:g} m) must exceed TowerBsHt ({tower_bs:g} m)",
            field="TowerHt",
            file=_where(ed["file"], "TowerHt"),
        )
    nodes = _int(ed, "TwrNodes")
    if nodes < 1:
        raise CaseError("must be at least 1", field="TwrNodes", file=_where(ed["file"], "TwrNodes"))
    cols_req = ["HtFract", "TMassDen", "TwFAStif", "TwSSStif"]
    tab = _find_table(twr, cols_req, "distributed tower")
    cols = _table_columns(twr, tab, "NTwInpSt", "distributed tower")
    frac = np.asarray(cols["HtFract"], dtype=float)
    for k in range(frac.size):
        bad = (k == 0 and abs(frac[0]) > 1e-9) or (k > 0 and frac[k] <= frac[k - 1])
        bad = bad or (k == frac.size - 1 and abs(frac[-1] - 1.0) > 1e-9)
        if bad:
            raise CaseError(
                f"HtFract must increase from 0 to 1, row {k + 1} has {frac[k]:g}",
                field="HtFract",
                file=_row_where(tf, "HtFract", k),
            )
    dens = np.asarray(cols["TMassDen"], dtype=float)
    stiff_in = {c: np.asarray(cols[c], dtype=float) for c in ("TwFAStif", "TwSSStif")}
    for k in range(frac.size):
        if not dens[k] >= 0.0:
            raise CaseError(
                f"must not be negative, row {k + 1} has {dens[k]:g}",
                field="TMassDen",
                file=_row_where(tf, "HtFract", k),
            )
        for c, v in stiff_in.items():
            if not v[k] > 0.0:
                raise CaseError(
                    f"must be positive, row {k + 1} has {v[k]:g}",
                    field=c,
                    file=_row_where(tf, "HtFract", k),
                )

    def positive(key: str, default: Any = ...) -> float:
        v = _float(twr, key, default)
        if not v > 0.0:
            raise CaseError(f"must be positive, got {v:g}", field=key, file=_where(tf, key))
        return v

    adj_ma = positive("AdjTwMa", 1.0)
    adj_fa = positive("AdjFASt", 1.0)
    adj_ss = positive("AdjSSSt", 1.0)
    tuner = np.array([positive(k, 1.0) for k in _TUNER_KEYS])
    damp = np.empty(4)
    for i, k in enumerate(_DAMP_KEYS):
        damp[i] = _float(twr, k, 0.0)
        if damp[i] < 0.0:
            raise CaseError(f"must not be negative, got {damp[i]:g}", field=k, file=_where(tf, k))
    coeffs = np.zeros((4, 5))
    for m, key in enumerate(_SHAPE_KEYS):
        for i in range(2, 7):
            coeffs[m, i - 2] = _float(twr, f"{key}({i})")
        s = float(coeffs[m].sum())
        if abs(s - 1.0) > SHAPE_SUM_TOL:
            raise CaseError(
                f"the coefficients {key}(2..6) sum to {s:.6g}, not 1 (the mode shape must be 1 "
                "at the tower top)",
                field=f"{key}(2)",
                file=_where(tf, f"{key}(2)"),
            )
    dh = flex / nodes
    h = dh * (np.arange(nodes) + 0.5)
    x = h / flex
    mass_den = adj_ma * np.interp(x, frac, dens)  # ElastoDyn InterpStp: linear, ends held
    stiff = np.array(
        [
            adj_fa * np.interp(x, frac, stiff_in["TwFAStif"]),
            adj_ss * np.interp(x, frac, stiff_in["TwSSStif"]),
        ]
    )
    flags = [_bool(ed, k, False) for k in TOWER_DOF_FLAGS]
    active = tuple(k for k in range(4) if flags[k])
    fa0 = _float(ed, "TTDspFA", 0.0)
    ss0 = _float(ed, "TTDspSS", 0.0)
    # ElastoDyn.f90 Init_ContStates: the initial deflection goes entirely into the first mode
    # of each direction (QT(DOF_TFA1) = TTDspFA, QT(DOF_TSS1) = -TTDspSS along a3 = -y, i.e. our
    # q_SS = +TTDspSS); it is refused when that mode is off (it would be silently lost)
    for key, val, mode in (("TTDspFA", fa0, 0), ("TTDspSS", ss0, 1)):
        if val != 0.0 and not flags[mode]:
            raise CaseError(
                f"= {val:g} m needs {TOWER_DOF_FLAGS[mode]} = True (the initial deflection is "
                "put in that mode)",
                field=key,
                file=_where(ed["file"], key),
            )
    n_g = _int(ed, "NTwGages", 0)
    raw = ed["values"].get("TwrGagNd", [])
    nodes_g = [raw] if isinstance(raw, int | float) else list(raw or [])
    if not 0 <= n_g <= 9 or len(nodes_g) < n_g:
        raise CaseError(
            f"NTwGages = {n_g} needs 0 .. 9 nodes in TwrGagNd, found {len(nodes_g)}",
            field="NTwGages",
            file=_where(ed["file"], "NTwGages"),
        )
    gages = []
    for v in nodes_g[:n_g]:
        if isinstance(v, bool) or not isinstance(v, int | float) or int(v) != v:
            raise CaseError(f"expected node numbers, got {v!r}", field="TwrGagNd",
                            file=_where(ed["file"], "TwrGagNd"))  # fmt: skip
        if not 1 <= int(v) <= nodes:
            raise CaseError(
                f"node {int(v)} is not in 1 .. TwrNodes = {nodes}",
                field="TwrGagNd",
                file=_where(ed["file"], "TwrGagNd"),
            )
        gages.append(int(v) - 1)
    init = {0: fa0, 1: ss0}
    initial = np.array([init.get(k, 0.0) for k in active])
    return TowerModes(
        flex_len=flex,
        base=np.array([0.0, 0.0, tower_bs - _float(ed, "PtfmRefzt", 0.0)]),
        h=h,
        dh=np.full(nodes, dh),
        mass=mass_den * dh,
        mass_den=mass_den,
        stiff=stiff,
        coeffs=coeffs,
        tuner=tuner,
        damping_pct=damp,
        top_mass=float(top_mass),
        gravity=float(gravity),
        active=active,
        initial=initial,
        gages=tuple(gages),
    )


def describe(tm: TowerModes) -> str:
    """One line: the active modes and their frequencies (Hz, with top mass and gravity)."""
    from floatwind.multibody.flex_tower import MODE_NAMES

    f = tm.frequencies()
    parts = [f"{MODE_NAMES[k]} {f[MODE_NAMES[k]][1]:.4f} Hz" for k in tm.active]
    return "flexible tower: " + ", ".join(parts)
