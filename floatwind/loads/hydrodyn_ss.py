"""HydroDyn's state-space radiation file ``<PotFile>.ss`` (``RdtnMod = 2``), read and written.

The format is what HydroDyn's ``SS_Radiation.f90`` (``SS_Rad_Init``) reads for one body
(NBody = 1), each line with Fortran list-directed reads (numbers separated by blanks or commas,
text after the numbers ignored, as SS_Fitting's comments on lines 2-4):

1. a free header (title) line;
2. six flags 0/1: the enabled DOFs (surge, sway, heave, roll, pitch, yaw);
3. ``N``, the number of states;
4. six integers: the states per DOF (their sum is ``N``);

then ``N`` rows of ``A`` (``N`` numbers each), ``N`` rows of ``B`` (6 each) and 6 rows of ``C``
(``N`` each). Dimensional SI: ``dx/dt = A x + B qdot`` with ``qdot`` the translational and
angular velocity of the WAMIT reference point (inertial axes) and the radiation force and moment
``F = C x`` (HydroDyn adds ``C x`` to the loads: the sign is in ``C``). Every error is a
:class:`floatwind.errors.CaseError` naming the file and the line.
"""

from __future__ import annotations

import math
import pathlib
import re
from typing import NamedTuple

import numpy as np

from floatwind.errors import CaseError
from floatwind.io.safe import atomic_write

__all__ = ["HydroDynSS", "check_stable", "read_checked", "read_hydrodyn_ss", "write_hydrodyn_ss"]

_DOFS = 6
_SPLIT = re.compile(r"\s*,\s*|\s+")
_INT = re.compile(r"[+-]?\d+")
_REAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eEdD][+-]?\d+)?|[+-]?(inf|infinity|nan)", re.I)


class HydroDynSS(NamedTuple):
    """A radiation state-space model as ``<PotFile>.ss`` holds it (SI units, see the module
    docstring)."""

    a: np.ndarray  # (n, n)  dx/dt = a x + b qdot
    b: np.ndarray  # (n, 6)
    c: np.ndarray  # (6, n)  radiation force/moment c x (N, N m)
    enabled: np.ndarray  # (6,) bool, the file's enabled DOFs
    states_per_dof: np.ndarray  # (6,) int, the file's states per DOF


def _number(tok: str, integer: bool) -> float | int | None:
    if integer:
        return int(tok) if _INT.fullmatch(tok) else None
    return float(tok.replace("D", "E").replace("d", "e")) if _REAL.fullmatch(tok) else None


def _values(path: pathlib.Path, n: int, line: str, count: int, what: str, *,
            integer: bool = False) -> list:  # fmt: skip
    """The ``count`` leading numbers of line ``n``; text after them is a comment, a further
    number is refused (the line holds more values than ``what`` needs)."""
    toks = _SPLIT.split(line.strip())
    if toks == [""]:
        toks = []
    kind = ("integer" if integer else "number") + ("s" if count > 1 else "")
    vals = []
    for tok in toks[:count]:
        v = _number(tok, integer)
        if v is None:
            got = f"{len(vals)} before {tok!r}" if vals else repr(tok)
            raise CaseError(f"expected {count} {kind} ({what}), got {got}", field=f"line {n}",
                            file=str(path))  # fmt: skip
        if not math.isfinite(v):
            raise CaseError(f"not a finite number: {tok!r} ({what})", field=f"line {n}",
                            file=str(path))  # fmt: skip
        vals.append(v)
    if len(vals) < count:
        raise CaseError(f"expected {count} {kind} ({what}), got {len(vals)}", field=f"line {n}",
                        file=str(path))  # fmt: skip
    if len(toks) > count and _number(toks[count], integer) is not None:
        raise CaseError(f"more than {count} {kind} ({what})", field=f"line {n}", file=str(path))
    return vals


def read_hydrodyn_ss(path) -> HydroDynSS:
    """``path`` (``<PotFile>.ss``) as HydroDyn's ``SS_Rad_Init`` reads it for one body."""
    path = pathlib.Path(path)
    if not path.is_file():
        raise CaseError("HydroDyn state-space radiation (.ss) file not found", file=str(path))
    lines = path.read_text(encoding="latin-1").splitlines()
    if len(lines) < 4:
        raise CaseError(f"missing: the file ends after {len(lines)} line(s); it starts with a "
                        "header and the enabled DOFs, number of states and states per DOF",
                        field=f"line {len(lines) + 1}", file=str(path))  # fmt: skip
    flags = _values(path, 2, lines[1], _DOFS, "enabled DOFs", integer=True)
    for f in flags:
        if f not in (0, 1):
            raise CaseError(f"an enabled-DOF flag is 0 or 1, got {f}", field="line 2",
                            file=str(path))  # fmt: skip
    (N,) = _values(path, 3, lines[2], 1, "number of states", integer=True)
    if N <= 0:
        raise CaseError(f"number of states {N}: it must be positive", field="line 3",
                        file=str(path))  # fmt: skip
    per_dof = _values(path, 4, lines[3], _DOFS, "states per DOF", integer=True)
    if min(per_dof) < 0 or sum(per_dof) != N:
        raise CaseError(f"the states per DOF {per_dof} must be >= 0 and sum to the number of "
                        f"states {N} (line 3)", field="line 4", file=str(path))  # fmt: skip
    need = 4 + 2 * N + _DOFS
    if len(lines) < need:
        raise CaseError(f"missing: the file ends after {len(lines)} lines; {N} states need "
                        f"{need} ({N} rows of A, {N} of B, {_DOFS} of C after 4 lines)",
                        field=f"line {len(lines) + 1}", file=str(path))  # fmt: skip
    for n in range(need, len(lines)):
        if lines[n].strip():
            raise CaseError(f"extra line after the {_DOFS} rows of C (the model of {N} states "
                            f"ends at line {need})", field=f"line {n + 1}", file=str(path))  # fmt: skip

    def block(start: int, rows: int, cols: int, name: str) -> np.ndarray:
        return np.array([_values(path, start + k + 1, lines[start + k], cols,
                                 f"row {k + 1} of {name}") for k in range(rows)], dtype=float)  # fmt: skip

    return HydroDynSS(
        a=block(4, N, N, "A"),
        b=block(4 + N, N, _DOFS, "B"),
        c=block(4 + 2 * N, _DOFS, N, "C"),
        enabled=np.array(flags, dtype=bool),
        states_per_dof=np.array(per_dof, dtype=int),
    )


def write_hydrodyn_ss(path, ss: HydroDynSS, header: str) -> pathlib.Path:
    """Write ``ss`` as HydroDyn's ``.ss`` file (atomic replace); every number as ``repr``, so
    :func:`read_hydrodyn_ss` gives back the same bits."""
    a, b, c = (np.asarray(m, dtype=float) for m in (ss.a, ss.b, ss.c))
    n = a.shape[0]
    per_dof = [int(k) for k in np.asarray(ss.states_per_dof).ravel()]
    flags = [int(bool(f)) for f in np.asarray(ss.enabled).ravel()]
    if "\n" in header or "\r" in header:
        raise ValueError("the header is one line")
    if (a.shape != (n, n) or b.shape != (n, _DOFS) or c.shape != (_DOFS, n) or n == 0
            or len(flags) != _DOFS or len(per_dof) != _DOFS or sum(per_dof) != n):  # fmt: skip
        raise ValueError(f"inconsistent state-space model: A {a.shape}, B {b.shape}, C {c.shape}, "
                         f"states per DOF {per_dof}")  # fmt: skip
    if not (np.isfinite(a).all() and np.isfinite(b).all() and np.isfinite(c).all()):
        raise ValueError("the state-space matrices hold non-finite numbers")

    def rows(m: np.ndarray) -> list[str]:
        return [" ".join(repr(float(v)) for v in row) for row in m]

    text = "\n".join([header,
                      " ".join(map(str, flags)) + "   !Enabled DOFs",
                      f"{n}   !Radiation states",
                      " ".join(map(str, per_dof)) + "   !Radiation states per DOF",
                      *rows(a), *rows(b), *rows(c)]) + "\n"  # fmt: skip
    return atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def check_stable(ss: HydroDynSS, path) -> None:
    """Refuse a model whose ``A`` has an eigenvalue with real part >= 0: its states would grow
    without bound (or never decay) instead of representing a radiation memory that fades."""
    eig = np.linalg.eigvals(np.asarray(ss.a, dtype=float))
    worst = eig[int(np.argmax(eig.real))]
    if worst.real >= 0.0:
        raise CaseError(
            f"unstable state-space radiation model: A has the eigenvalue {worst:.6g} (real part "
            ">= 0), its states would not decay; refit it with stable poles",
            file=str(path),
        )  # fmt: skip


def read_checked(path) -> HydroDynSS:
    """:func:`read_hydrodyn_ss` of a model floatwind runs: all six DOFs enabled (HydroDyn
    enables the six platform DOFs and reports a file that does not as an error, SS_Rad_Init)
    and stable (:func:`check_stable`)."""
    ss = read_hydrodyn_ss(path)
    if not ss.enabled.all():
        raise CaseError(f"enabled DOFs {ss.enabled.astype(int).tolist()}: HydroDyn needs all six "
                        "enabled (1 1 1 1 1 1)", field="line 2", file=str(path))  # fmt: skip
    check_stable(ss, path)
    return ss
