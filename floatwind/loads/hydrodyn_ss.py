"""HydroDyn's state-space files, read and written: radiation ``<PotFile>.ss`` (``RdtnMod = 2``)
and wave excitation ``<PotFile>.ssexctn`` (``ExctnMod = 2``).

The formats are what HydroDyn's ``SS_Radiation.f90`` (``SS_Rad_Init``) and
``SS_Excitation.f90`` (``SS_Exc_Init``) read for one body (NBody = 1), each line with Fortran
list-directed reads (numbers separated by blanks or commas, text after the numbers ignored, as
SS_Fitting's comments on lines 2-4). ``.ss``:

1. a free header (title) line;
2. six flags 0/1: the enabled DOFs (surge, sway, heave, roll, pitch, yaw);
3. ``N``, the number of states;
4. six integers: the states per DOF (their sum is ``N``);

then ``N`` rows of ``A`` (``N`` numbers each), ``N`` rows of ``B`` (6 each) and 6 rows of ``C``
(``N`` each). Dimensional SI: ``dx/dt = A x + B qdot`` with ``qdot`` the translational and
angular velocity of the WAMIT reference point (inertial axes) and the radiation force and moment
``F = C x`` (HydroDyn adds ``C x`` to the loads: the sign is in ``C``). ``.ssexctn``:

1. a free header (title) line;
2. ``WaveDir``, the wave direction (deg) the model was made for (HydroDyn stops when it differs
   from SeaState's);
3. ``Tc``, the time offset (s; any sign);
4. ``N``, the number of states;
5. six integers: the states per DOF (their sum is ``N``);

then ``N`` rows of ``A`` (``N`` numbers each), ``N`` rows of ``B`` (one number each: ``B`` is a
column) and 6 rows of ``C`` (``N`` each). Dimensional SI: ``dx/dt = A x + B eta(t + Tc)`` with
``eta`` the first-order wave elevation at the platform origin (ExctnDisp = 0) and the excitation
force and moment ``F = C x`` at the WAMIT reference point. Every error is a
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

__all__ = [
    "HydroDynSS",
    "HydroDynSSExctn",
    "check_stable",
    "read_checked",
    "read_checked_exctn",
    "read_hydrodyn_ss",
    "read_hydrodyn_ssexctn",
    "write_hydrodyn_ss",
    "write_hydrodyn_ssexctn",
]

_DOFS = 6
_SPLIT = re.compile(r"\s*,\s*|\s+")
_INT = re.compile(r"[+-]?\d+")
_REAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eEdD][+-]?\d+)?|[+-]?(inf|infinity|nan)", re.I)
#: HydroDyn compares the file's WaveDir with SeaState's by EqualRealNos in single precision
#: (NWTC_Num.f90, EqualRealNos4: |a - b| <= 100 eps / 2 max(|a + b|, 1))
_DIR_TOL = 50.0 * float(np.finfo(np.float32).eps)


class HydroDynSS(NamedTuple):
    """A radiation state-space model as ``<PotFile>.ss`` holds it (SI units, see the module
    docstring)."""

    a: np.ndarray  # (n, n)  dx/dt = a x + b qdot
    b: np.ndarray  # (n, 6)
    c: np.ndarray  # (6, n)  radiation force/moment c x (N, N m)
    enabled: np.ndarray  # (6,) bool, the file's enabled DOFs
    states_per_dof: np.ndarray  # (6,) int, the file's states per DOF


class HydroDynSSExctn(NamedTuple):
    """A wave-excitation state-space model as ``<PotFile>.ssexctn`` holds it (SI units, see the
    module docstring)."""

    a: np.ndarray  # (n, n)  dx/dt = a x + b eta(t + tc)
    b: np.ndarray  # (n,)
    c: np.ndarray  # (6, n)  excitation force/moment c x (N, N m)
    wave_dir_deg: float  # the wave direction the model was made for
    tc: float  # s, time offset
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


def _lines(path: pathlib.Path, what: str, head: int, starts: str) -> list[str]:
    """The lines of ``path``, which holds at least its ``head`` leading lines (``starts`` says
    what they hold)."""
    if not path.is_file():
        raise CaseError(f"HydroDyn {what} file not found", file=str(path))
    lines = path.read_text(encoding="latin-1").splitlines()
    if len(lines) < head:
        raise CaseError(f"missing: the file ends after {len(lines)} line(s); it starts with a "
                        f"header and {starts}", field=f"line {len(lines) + 1}",
                        file=str(path))  # fmt: skip
    return lines


def _states(path: pathlib.Path, lines: list[str], n: int) -> tuple[int, list[int]]:
    """The number of states (line ``n``) and the states per DOF (line ``n + 1``)."""
    (N,) = _values(path, n, lines[n - 1], 1, "number of states", integer=True)
    if N <= 0:
        raise CaseError(f"number of states {N}: it must be positive", field=f"line {n}",
                        file=str(path))  # fmt: skip
    per_dof = _values(path, n + 1, lines[n], _DOFS, "states per DOF", integer=True)
    if min(per_dof) < 0 or sum(per_dof) != N:
        raise CaseError(f"the states per DOF {per_dof} must be >= 0 and sum to the number of "
                        f"states {N} (line {n})", field=f"line {n + 1}", file=str(path))  # fmt: skip
    return N, per_dof


def _matrices(path: pathlib.Path, lines: list[str], head: int, N: int,
              b_cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """``A`` (N x N), ``B`` (N x ``b_cols``) and ``C`` (6 x N), row by row after the ``head``
    leading lines, which end the file (blank lines aside)."""
    need = head + 2 * N + _DOFS
    if len(lines) < need:
        raise CaseError(f"missing: the file ends after {len(lines)} lines; {N} states need "
                        f"{need} ({N} rows of A, {N} of B, {_DOFS} of C after {head} lines)",
                        field=f"line {len(lines) + 1}", file=str(path))  # fmt: skip
    for n in range(need, len(lines)):
        if lines[n].strip():
            raise CaseError(f"extra line after the {_DOFS} rows of C (the model of {N} states "
                            f"ends at line {need})", field=f"line {n + 1}", file=str(path))  # fmt: skip

    def block(start: int, rows: int, cols: int, name: str) -> np.ndarray:
        return np.array([_values(path, start + k + 1, lines[start + k], cols,
                                 f"row {k + 1} of {name}") for k in range(rows)], dtype=float)  # fmt: skip

    return (block(head, N, N, "A"), block(head + N, N, b_cols, "B"),
            block(head + 2 * N, _DOFS, N, "C"))  # fmt: skip


def read_hydrodyn_ss(path) -> HydroDynSS:
    """``path`` (``<PotFile>.ss``) as HydroDyn's ``SS_Rad_Init`` reads it for one body."""
    path = pathlib.Path(path)
    lines = _lines(path, "state-space radiation (.ss)", 4,
                   "the enabled DOFs, number of states and states per DOF")  # fmt: skip
    flags = _values(path, 2, lines[1], _DOFS, "enabled DOFs", integer=True)
    for f in flags:
        if f not in (0, 1):
            raise CaseError(f"an enabled-DOF flag is 0 or 1, got {f}", field="line 2",
                            file=str(path))  # fmt: skip
    N, per_dof = _states(path, lines, 3)
    a, b, c = _matrices(path, lines, 4, N, _DOFS)
    return HydroDynSS(a=a, b=b, c=c, enabled=np.array(flags, dtype=bool),
                      states_per_dof=np.array(per_dof, dtype=int))  # fmt: skip


def read_hydrodyn_ssexctn(path) -> HydroDynSSExctn:
    """``path`` (``<PotFile>.ssexctn``) as HydroDyn's ``SS_Exc_Init`` reads it for one body."""
    path = pathlib.Path(path)
    lines = _lines(path, "state-space wave-excitation (.ssexctn)", 5,
                   "the wave direction, time offset, number of states and states per DOF")  # fmt: skip
    (wave_dir,) = _values(path, 2, lines[1], 1, "wave direction WaveDir")
    (tc,) = _values(path, 3, lines[2], 1, "time offset Tc")
    N, per_dof = _states(path, lines, 4)
    a, b, c = _matrices(path, lines, 5, N, 1)
    return HydroDynSSExctn(a=a, b=b[:, 0], c=c, wave_dir_deg=wave_dir, tc=tc,
                           states_per_dof=np.array(per_dof, dtype=int))  # fmt: skip


def _write(path, header: str, head: list[str], *blocks: np.ndarray) -> pathlib.Path:
    """``header``, the lines ``head`` and the rows of ``blocks`` (atomic replace); every number
    as ``repr``, so that the readers give back the same bits."""
    if "\n" in header or "\r" in header:
        raise ValueError("the header is one line")
    if not all(np.isfinite(m).all() for m in blocks):
        raise ValueError("the state-space matrices hold non-finite numbers")
    rows = [" ".join(repr(float(v)) for v in row) for m in blocks for row in m]
    text = "\n".join([header, *head, *rows]) + "\n"
    return atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def _consistent(ss, b_tail: tuple[int, ...], ok: bool = True):
    """``ss``'s ``A``, ``B``, ``C`` as float arrays and its states per DOF; ValueError unless
    they fit together (``B`` of shape ``(n, *b_tail)``) and ``ok``."""
    a, b, c = (np.asarray(m, dtype=float) for m in (ss.a, ss.b, ss.c))
    n = a.shape[0]
    per_dof = [int(k) for k in np.asarray(ss.states_per_dof).ravel()]
    if (not ok or a.shape != (n, n) or b.shape != (n, *b_tail) or c.shape != (_DOFS, n) or n == 0
            or len(per_dof) != _DOFS or sum(per_dof) != n):  # fmt: skip
        raise ValueError(f"inconsistent state-space model: A {a.shape}, B {b.shape}, C {c.shape}, "
                         f"states per DOF {per_dof}")  # fmt: skip
    return a, b, c, per_dof


def write_hydrodyn_ss(path, ss: HydroDynSS, header: str) -> pathlib.Path:
    """Write ``ss`` as HydroDyn's ``.ss`` file (atomic replace); every number as ``repr``, so
    :func:`read_hydrodyn_ss` gives back the same bits."""
    flags = [int(bool(f)) for f in np.asarray(ss.enabled).ravel()]
    a, b, c, per_dof = _consistent(ss, (_DOFS,), len(flags) == _DOFS)
    return _write(path, header,
                  [" ".join(map(str, flags)) + "   !Enabled DOFs", f"{len(a)}   !Radiation states",
                   " ".join(map(str, per_dof)) + "   !Radiation states per DOF"],
                  a, b, c)  # fmt: skip


def write_hydrodyn_ssexctn(path, ss: HydroDynSSExctn, header: str) -> pathlib.Path:
    """Write ``ss`` as HydroDyn's ``.ssexctn`` file (atomic replace); every number as ``repr``,
    so :func:`read_hydrodyn_ssexctn` gives back the same bits."""
    a, b, c, per_dof = _consistent(ss, ())
    wave_dir, tc = float(ss.wave_dir_deg), float(ss.tc)
    if not (math.isfinite(wave_dir) and math.isfinite(tc)):
        raise ValueError(f"non-finite wave direction {wave_dir} or Tc {tc}")
    return _write(path, header,
                  [f"{wave_dir!r}   !Wave direction (deg)", f"{tc!r}   !Time offset Tc (s)",
                   f"{len(a)}   !Excitation states",
                   " ".join(map(str, per_dof)) + "   !Excitation states per DOF"],
                  a, b[:, None], c)  # fmt: skip


def check_stable(ss, path, what: str = "radiation") -> None:
    """Refuse a model (anything with the matrix ``a``) whose ``A`` has an eigenvalue with real
    part >= 0: its states would grow without bound (or never decay) instead of fading."""
    eig = np.linalg.eigvals(np.asarray(ss.a, dtype=float))
    worst = eig[int(np.argmax(eig.real))]
    if worst.real >= 0.0:
        raise CaseError(
            f"unstable state-space {what} model: A has the eigenvalue {worst:.6g} (real part "
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


def read_checked_exctn(path, wave_dir_deg: float | None = None) -> HydroDynSSExctn:
    """:func:`read_hydrodyn_ssexctn` of a model floatwind runs: stable (:func:`check_stable`)
    and, when ``wave_dir_deg`` is given (SeaState's WaveDir), made for that wave direction
    (SS_Exc_Init stops on a file whose WaveDir differs, compared as :data:`_DIR_TOL` says)."""
    ss = read_hydrodyn_ssexctn(path)
    if wave_dir_deg is not None:
        a, b = float(ss.wave_dir_deg), float(wave_dir_deg)
        if abs(a - b) > _DIR_TOL * max(abs(a + b), 1.0):
            raise CaseError(f"wave direction {a:.9g} deg, but SeaState's WaveDir is {b:.9g} deg: "
                            "HydroDyn needs the model made for the simulated wave direction",
                            field="line 2", file=str(path))  # fmt: skip
    check_stable(ss, path, "wave-excitation")
    return ss
