"""Status bits of the compiled code: one :class:`enum.IntFlag`, every bit with one meaning.

A compiled load kernel, the compiled right-hand side or a compiled stepping chunk returns 0, or
the bits of the reasons it cannot do an evaluation or a step; the step is then done by the
NumPy path, which computes it or raises the proper error (``floatwind.integrate.base``,
"One stepping driver" in docs/architecture.md). The full-field wind sampling and the
Euler 3-1-3 kinematics report their own conditions with bits of the same flag.

numba reads plain ints: the kernels use the module-level constants below (``NOT_FINITE``,
...), which numba treats as compile-time constants; Python code uses :class:`Status` and
:func:`describe` for messages::

    >>> describe(Status.NOT_FINITE | Status.FAIRLEAD_AT_ANCHOR)
    'mooring fairlead at its anchor, non-finite state'

Function-level return codes that never leave their function's caller (the catenary line
solve's ``SOLVED`` / ``STATUS_NOT_CONVERGED`` of ``floatwind.mooring.catenary``, turned into
:attr:`Status.CATENARY_NOT_CONVERGED` by the catenary kernel) are not status bits.
"""

from __future__ import annotations

import enum

__all__ = [
    "BEMT_NOT_CONVERGED",
    "BOSSAK_NOT_CONVERGED",
    "CONTROLLER_FAILED",
    "CATENARY_NOT_CONVERGED",
    "EULER_SINGULAR",
    "FAIRLEAD_AT_ANCHOR",
    "NOT_FINITE",
    "OK",
    "SPIN_AXIS_VERTICAL",
    "AERODISK_OUTSIDE",
    "Status",
    "WIND_EDGE",
    "WIND_OUTSIDE",
    "describe",
]


class Status(enum.IntFlag):
    """Why compiled code hands an evaluation or a step back to the NumPy path (one bit each)."""

    #: a full-field wind point outside the grid: the edge value is used (the NumPy path warns
    #: once); a note of the wind sampling, never a reason to hand a step back
    WIND_EDGE = 1
    #: wind the compiled field cannot give: a point below the grid of a file with a tower line,
    #: or a time outside a non-periodic file
    WIND_OUTSIDE = 2
    #: the 1-2-3 Euler angles of the base body near their singularity (pitch near +-90 deg)
    EULER_SINGULAR = 4
    #: a taut mooring line's fairlead at its anchor (the line direction is undefined)
    FAIRLEAD_AT_ANCHOR = 8
    #: a step whose new state is not finite (set by the compiled stepping)
    NOT_FINITE = 16
    #: a catenary mooring line solve (or the equilibrium of its connect nodes) not converged
    CATENARY_NOT_CONVERGED = 32
    #: the loads loop of a compiled Bossak-Newmark step of linked bodies not converged
    BOSSAK_NOT_CONVERGED = 64
    #: the Euler 3-1-3 formulation's RNA spin axis vertical (its chart is singular)
    SPIN_AXIS_VERTICAL = 128
    #: a blade element without a valid BEM solution (the geometric inflow angle and zero
    #: induction are used, as AeroDyn does after its "no valid value of phi" message) or whose
    #: root finding ran out of MaxIter; a note of the BEMT kernel, never a reason to hand a
    #: step back
    BEMT_NOT_CONVERGED = 256
    #: an AeroDisk rotor outside its coefficient table (TSR, rotor speed, VRel, pitch or skew
    #: beyond the table's ends), or its wind or shaft vertical: AeroDisk stops there; the NumPy
    #: path raises the error naming the value. (512, not 256: the BEM solver of issue 35 may
    #: take 256 for its own bit.)
    AERODISK_OUTSIDE = 512
    #: a controller library reported failure (aviFAIL < 0) or returned a demand ServoDyn
    #: refuses (issue 36, floatwind._kernels.bladed): the NumPy path stops the run with the
    #: controller's message. (8192: clear of the bits other issues may take next.)
    CONTROLLER_FAILED = 8192

    def describe(self) -> str:
        """The meaning of the set bits, comma-separated (``"ok"`` for none)."""
        return describe(int(self))


_MEANING = {
    Status.WIND_EDGE: "wind point outside the full-field grid (edge value)",
    Status.WIND_OUTSIDE: "wind outside the compiled field",
    Status.EULER_SINGULAR: "Euler-angle singularity",
    Status.FAIRLEAD_AT_ANCHOR: "mooring fairlead at its anchor",
    Status.NOT_FINITE: "non-finite state",
    Status.CATENARY_NOT_CONVERGED: "catenary mooring line solve not converged",
    Status.BOSSAK_NOT_CONVERGED: "Bossak-Newmark loads loop not converged",
    Status.SPIN_AXIS_VERTICAL: "Euler 3-1-3 spin axis vertical",
    Status.BEMT_NOT_CONVERGED: "BEM element without a valid solution (geometric inflow used)",
    Status.AERODISK_OUTSIDE: "AeroDisk rotor outside its coefficient table (or vertical)",
    Status.CONTROLLER_FAILED: "controller library failed",
}


def describe(status: int) -> str:
    """The meaning of the bits set in ``status`` (an int from compiled code), lowest bit first,
    comma-separated; ``"ok"`` for 0; bits without a meaning are named as such."""
    status = int(status)
    if status == 0:
        return "ok"
    parts = [text for bit, text in _MEANING.items() if status & bit]
    unknown = status & ~sum(_MEANING)
    if unknown:
        parts.append(f"unknown status bits {unknown:#x}")
    return ", ".join(parts)


# --- the bits as plain ints, for numba (compile-time constants of the kernels) ---------------

OK = 0
WIND_EDGE = int(Status.WIND_EDGE)
WIND_OUTSIDE = int(Status.WIND_OUTSIDE)
EULER_SINGULAR = int(Status.EULER_SINGULAR)
FAIRLEAD_AT_ANCHOR = int(Status.FAIRLEAD_AT_ANCHOR)
NOT_FINITE = int(Status.NOT_FINITE)
CATENARY_NOT_CONVERGED = int(Status.CATENARY_NOT_CONVERGED)
BOSSAK_NOT_CONVERGED = int(Status.BOSSAK_NOT_CONVERGED)
SPIN_AXIS_VERTICAL = int(Status.SPIN_AXIS_VERTICAL)
BEMT_NOT_CONVERGED = int(Status.BEMT_NOT_CONVERGED)
AERODISK_OUTSIDE = int(Status.AERODISK_OUTSIDE)
CONTROLLER_FAILED = int(Status.CONTROLLER_FAILED)
