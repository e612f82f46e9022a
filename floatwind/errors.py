"""Exceptions raised by floatwind.

Two families, as DESIGN.md requires:

* :class:`CaseError` for bad input (case files, decks, wind files): it names the file,
  the field and the reason, so the CLI can print one clear line.
* :class:`SimulationError` for a run that diverges or whose equations become singular: it
  names the time and the offending state and carries whatever was recorded so far.
"""

from __future__ import annotations

from typing import Any


class FloatwindError(Exception):
    """Base class of every error floatwind raises on purpose."""


class CaseError(FloatwindError, ValueError):
    """Invalid input: names the file, the field (dotted path) and the reason.

    Parameters
    ----------
    reason : str
        What is wrong, in words a user understands.
    field : str, optional
        Dotted path of the offending field, e.g. ``bodies[0].mass``.
    file : str, optional
        The file the field came from.
    """

    def __init__(self, reason: str, *, field: str | None = None, file: str | None = None):
        self.reason = reason
        self.field = field
        self.file = file
        super().__init__(self._message())

    def _message(self) -> str:
        where = []
        if self.file:
            where.append(str(self.file))
        if self.field:
            # a command-line option ('--output', '-o') is named as such
            kind = "option" if str(self.field).startswith("-") else "field"
            where.append(f"{kind} '{self.field}'")
        prefix = ": ".join(where)
        return f"{prefix}: {self.reason}" if prefix else self.reason

    def with_file(self, file: str) -> CaseError:
        """Return a copy of this error that also names ``file`` (if it did not already)."""
        if self.file:
            return self
        err = type(self)(self.reason, field=self.field, file=file)
        err.__cause__ = self.__cause__
        return err


class SimulationError(FloatwindError, RuntimeError):
    """A run that failed while stepping (non-finite state, bound exceeded, singular equations).

    Attributes
    ----------
    time : float
        Simulation time (s) at which the failure was detected.
    state : numpy.ndarray or None
        The offending state (B, n) at ``time``.
    members : list of int
        Batch members that failed (all members of the batch share the failure time).
    partial : object or None
        What was recorded before the failure (set by the integrator: a ``Recording``).
    """

    def __init__(
        self,
        reason: str,
        *,
        time: float,
        state: Any = None,
        members: list[int] | None = None,
        partial: Any = None,
    ):
        self.reason = reason
        self.time = float(time)
        self.state = state
        self.members = list(members) if members is not None else []
        self.partial = partial
        who = f" (batch members {self.members})" if self.members else ""
        super().__init__(f"t = {self.time:.6g} s{who}: {reason}")
