"""The compiled half of the load contract: one kernel signature for every load.

A load that has a compiled form returns, from ``Load.compiled(env, batch)``, a
:class:`CompiledLoad`: a numba-compiled ``kernel`` and its ``params``, a ``typing.NamedTuple``
whose fields the kernel reads by name. Every kernel has the signature

    status = kernel(params, t, kin, y, dy, force, moment, added_mass)

* ``t`` the time (s); ``kin`` a :class:`BodyKinematics` of all N bodies (batch axis first);
* ``y`` (B, n) the full state, ``dy`` (B, n) its derivative: the 12 rigid-body entries belong
  to the dynamics core; a load with continuous states of its own (``Load.n_states``: radiation
  state-space states, ...) has an int field ``state0`` in its params, which the run sets to its
  first column, reads ``y[:, state0 : state0 + n]`` and writes their rates into the same columns
  of ``dy``;
* ``force``, ``moment`` (B, N, 3): the load *adds* its force and moment about each body CM
  (inertial axes); ``added_mass`` (B, N, 6, 6): the load adds its acceleration-dependent part
  (contract rule 3 of ``floatwind.loads.base``);
* the return value is 0, or bits of :class:`floatwind._kernels.status.Status` when this step
  needs the NumPy path (which computes it or raises the proper error).

Params may hold scratch arrays the kernel updates in place (a per-time cache): they belong to
one run. A load with a step memory (``Load.memory``: a convolution's velocity history) has a field
``memory`` in its params, which the run replaces with the very object the NumPy path uses, and an
``after_step(params, t, kin, y)`` kernel (:attr:`CompiledLoad.after_step`) that the compiled
stepping calls once per accepted step, at the new time and state, before the slope there.

Every batch member goes through the same operations in the same order whatever B (no sums
across members), so a member alone and inside a batch give the same bits.

Seas and wind fields expose their compiled tables the same way
(:mod:`floatwind.environment.compiled`): ``SeaTable`` and ``WindParams``, NamedTuples of named
arrays read by the Morison and thrust kernels.

Kernels must be module-level numba functions: :mod:`floatwind.simulate.generate` imports them
by name into the generated per-model module.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

__all__ = [
    "BodyKinematics",
    "CompiledLoad",
    "NoCompiledForm",
    "body_kinematics",
    "evaluate",
    "f64",
    "i64",
    "python_form",
]


class BodyKinematics(NamedTuple):
    """Batched kinematics of all bodies (inertial frame), as :class:`floatwind.loads.base.Kinematics`."""

    r_G: np.ndarray  # (B, N, 3) CM positions
    R_b2g: np.ndarray  # (B, N, 3, 3) body-to-inertial rotations
    v_G: np.ndarray  # (B, N, 3) CM velocities
    w_b: np.ndarray  # (B, N, 3) angular velocities, inertial axes
    cm_b: np.ndarray  # (N, 3) CM in each body's reference frame


class CompiledLoad(NamedTuple):
    """A load's compiled form: ``kernel(params, t, kin, y, dy, force, moment, added_mass)``."""

    kernel: Any  # a module-level numba function (None for a load made of children)
    params: Any
    adds_mass: bool = False  # writes added_mass (the core then solves the coupled 6x6)
    #: candidates of a per-member choice (SelectLoad): ``params.candidates[j]`` are the params
    #: of ``children[j]``, ``params.choice`` (B,) the candidate of each member
    children: tuple = ()
    #: ``after_step(params, t, kin, y)``: module-level numba function updating ``params.memory``
    #: after each accepted step (None: the load has no step memory)
    after_step: Any = None
    #: the load reads another load's step memory (Load.memory_of) and measures for it in its
    #: after_step: the run calls it before the others (the rotor before its servodyn load)
    reads_memory: bool = False


class NoCompiledForm(Exception):
    """A load (or sea, or wind) in a configuration its compiled form does not cover; the message
    says which, and the run uses the NumPy path."""


def f64(a, shape=None) -> np.ndarray:
    """C-contiguous float64 copy/view (for params records)."""
    a = np.ascontiguousarray(a, dtype=np.float64)
    return a if shape is None else a.reshape(shape)


def i64(a) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.int64)


def body_kinematics(kin) -> BodyKinematics:
    """The :class:`BodyKinematics` of a :class:`floatwind.loads.base.Kinematics` (C-contiguous
    float64 arrays)."""
    return BodyKinematics(r_G=f64(kin.r_G_g), R_b2g=f64(kin.R_b2g), v_G=f64(kin.v_G_g),
                          w_b=f64(kin.w_b_g), cm_b=f64(kin.cm_b))  # fmt: skip


def python_form(fn):
    """``fn``, a numba function, compiled while the kernels are on, else its Python form
    (``fn.py_func``, ``FLOATWIND_NO_JIT=1``): the reference the tests hold the compiled one to."""
    from floatwind import _kernels

    return fn if _kernels.enabled() else fn.py_func


def evaluate(kernel, params, t: float, kin, *, adds_mass: bool = False):
    """One call of a load kernel (the contract signature) outside the compiled stepping, for a
    load's ``wrench``: ``(status, force, moment, added_mass)`` with ``force``, ``moment``
    (B, N, 3) and ``added_mass`` (B, N, 6, 6) (None unless ``adds_mass``) added to zeros. The
    load has no states of its own (empty ``y``, ``dy``). ``kin`` is a
    :class:`floatwind.loads.base.Kinematics`; ``t`` a float (a time-independent load, whose
    ``wrench`` may get the members' times as an array, passes 0.0)."""
    B, N = kin.batch, kin.n_bodies
    force = np.zeros((B, N, 3))
    moment = np.zeros((B, N, 3))
    added = np.zeros((B, N, 6, 6) if adds_mass else (B, N, 0, 0))
    y = np.empty((B, 0))
    status = python_form(kernel)(params, float(t), body_kinematics(kin), y, y, force, moment,
                                 added)  # fmt: skip
    return status, force, moment, (added if adds_mass else None)
