"""The stepping contract of :func:`floatwind.simulate.simulate` and the lookup of schemes.

A *scheme* runs one model: a formulation of the equations of motion (``Model.formulation``) stepped
by an integrator (``simulation.integrator``). ``simulate`` looks the scheme up here
(:func:`scheme_for`) instead of choosing it in an if-chain, and every scheme meets the same
contract (:class:`Scheme`). Each one is defined, and registers itself (:func:`register`), in the
module of its formulation, imported when a model first asks for it (:data:`SHIPPED`):

============  =====================================  ==========================================
formulation   integrators                            module
============  =====================================  ==========================================
mcm           rk4, dop853, rk45                      :mod:`floatwind.simulate.first_order`
mcm           lie_generalized_alpha                  :mod:`floatwind.simulate.lie`
mcm           bossak_newmark                         :mod:`floatwind.simulate.bossak`
euler313      (its own RK4: ``rk4``; refuses others)  :mod:`floatwind.simulate.euler313`
============  =====================================  ==========================================

The pieces every scheme shares live below them and import none of them: the output channels and
the Dataset (:mod:`floatwind.simulate.outputs`), the progress bar, the note of a run on the Python
path and the Euler-pitch guard of the MCM state (here).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from floatwind.errors import CaseError, SimulationError
from floatwind.integrate.base import StateGuard
from floatwind.model import Model
from floatwind.rotation import EULER_PITCH_GUARD

if TYPE_CHECKING:
    import xarray as xr

log = logging.getLogger(__name__)

#: ``Scheme.integrators`` of a formulation that steps itself: it is found for every integrator
#: name and refuses the ones it does not run in :meth:`Scheme.check`
ANY = ("*",)

#: The state index 4 is Wang's X5 (base-body 1-2-3 pitch): the run stops where |X5| reaches
#: :data:`floatwind.rotation.EULER_PITCH_GUARD` (89.5 deg), before the Euler-rate singularity.
PITCH_GUARD = StateGuard(
    index=4,
    limit=EULER_PITCH_GUARD,
    what="base pitch X5",
    why=(
        f"the Euler-singularity guard |X5| >= {np.degrees(EULER_PITCH_GUARD):g} deg (1-2-3 "
        "Euler-angle rates are singular at +-90 deg; use the Lie-group integrator for such motions)"
    ),
    scale=180.0 / np.pi,
    unit=" deg",
)


class Scheme:
    """One formulation with its integrator(s), as ``simulate`` runs it.

    Rules for a scheme:

    1. ``formulation`` and ``integrators`` (the case file's names, lower case; :data:`ANY` for a
       formulation that steps itself) are its keys in the lookup; :func:`register` it in the
       module that defines it.
    2. :meth:`check` refuses, before anything is computed, what the scheme cannot run, as one
       line (``CaseError`` naming the field): joint degrees of freedom it does not integrate,
       load states, an initial state ``y0`` or ``extra_channels`` it does not use; what only the
       assembled system shows (Bossak-Newmark: load states, the links' spectral radius) is
       refused the same way at the start of :meth:`run`, before the first step. A scheme never
       ignores an argument silently.
    3. :meth:`run` steps the model and returns the Dataset of
       :func:`floatwind.simulate.outputs.to_dataset` (the outputs evaluated on the recorded
       states), plus the scheme's own channels. ``progress`` is None or a function of the
       simulated time (the caller opens and closes the bar); ``channels``: at least those of
       them the model writes. On divergence it raises ``SimulationError`` with ``dataset`` set
       to the outputs up to the last good output time.
    4. ``fixed_step``: it steps with ``simulation.dt`` (the sanity checks of the step apply);
       ``compiled``: its steps run in compiled chunks when the model's loads compile
       (:mod:`floatwind.simulate.fused`; the compile notice applies); ``joint_dofs``: it
       integrates joints with their own degree of freedom.
    """

    formulation: ClassVar[str] = "mcm"
    integrators: ClassVar[tuple[str, ...]] = ()
    fixed_step: ClassVar[bool] = True
    compiled: ClassVar[bool] = False
    joint_dofs: ClassVar[bool] = False

    def check(self, model: Model, *, y0: np.ndarray | None, extra_channels) -> None:
        """Refuse (``CaseError``) what this scheme cannot run (rule 2)."""
        if (model.tree.n_dofs or getattr(model, "tower", None) is not None) and not self.joint_dofs:
            refuse_joint_dofs(model)  # (a flexible tower's modes are such DOFs, issue 37)

    def run(
        self,
        model: Model,
        t_out: np.ndarray,
        *,
        y0: np.ndarray | None,
        progress: Callable[[float], None] | None,
        extra_channels,
        channels: list[str] | None,
    ) -> xr.Dataset:
        """Step ``model`` to the output times ``t_out`` and return the Dataset (rule 3)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.formulation}: {', '.join(self.integrators)})"


#: the schemes floatwind ships, in the order they register: (formulation, integrator) -> the
#: module of :mod:`floatwind.simulate` that defines and registers it
SHIPPED = {
    ("mcm", "bossak_newmark"): "bossak",
    ("euler313", ANY[0]): "euler313",
    ("mcm", "rk4"): "first_order",
    ("mcm", "dop853"): "first_order",
    ("mcm", "rk45"): "first_order",
    ("mcm", "lie_generalized_alpha"): "lie",
}


#: module name -> its import, for the modules of :data:`SHIPPED`: filled by the package
#: ``floatwind.simulate`` (the scheme modules import this one, so it cannot import them)
IMPORT: dict[str, Callable[[], object]] = {}


def _import_shipped(key) -> None:
    """Import the module of shipped scheme ``key`` if it has not registered yet."""
    module = SHIPPED.get(key)
    if module is not None and not dict.__contains__(SCHEMES, key):
        IMPORT[module]()


class _Table(dict):
    """(formulation, integrator) -> scheme, filled by :func:`register`. A scheme's module is
    imported when it is first asked for (an RK4 run imports no Bossak, Lie-group or Euler 3-1-3
    code: issue 41, a run's fixed cost): a key read imports the module of that key, a read of
    the whole table (iterating it, its length) every shipped module, after which the table is
    in the order :data:`SHIPPED` gives, as if all had registered at once."""

    _whole = False

    def _fill(self) -> None:
        if not self._whole:
            self._whole = True
            for key in SHIPPED:
                _import_shipped(key)
            entries = dict(dict.items(self))
            ordered = {k: entries.pop(k) for k in SHIPPED if k in entries} | entries
            dict.clear(self)
            dict.update(self, ordered)

    def __getitem__(self, key):
        _import_shipped(key)
        return dict.__getitem__(self, key)

    def get(self, key, default=None):
        _import_shipped(key)
        return dict.get(self, key, default)

    def __contains__(self, key) -> bool:
        _import_shipped(key)
        return dict.__contains__(self, key)

    def __iter__(self):
        self._fill()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._fill()
        return dict.__len__(self)

    def keys(self):
        self._fill()
        return dict.keys(self)

    def values(self):
        self._fill()
        return dict.values(self)

    def items(self):
        self._fill()
        return dict.items(self)


#: (formulation, integrator) -> scheme; filled by :func:`register` (see :class:`_Table`)
SCHEMES: dict[tuple[str, str], Scheme] = _Table()


def register(scheme: Scheme) -> Scheme:
    """Add ``scheme`` to the lookup under each of its (formulation, integrator) keys."""
    for name in scheme.integrators:
        key = (scheme.formulation, name)
        old = dict.get(SCHEMES, key)
        if old is not None and type(old) is not type(scheme):
            raise ValueError(f"scheme {key} registered twice: {old!r} and {scheme!r}")
        dict.__setitem__(SCHEMES, key, scheme)
    return scheme


def formulations() -> list[str]:
    """The formulations some scheme runs."""
    return sorted({f for f, _ in SCHEMES})


def integrators(formulation: str = "mcm") -> list[str]:
    """The integrator names of ``formulation``'s schemes, in the order they were registered."""
    return [i for f, i in SCHEMES if f == formulation and (f, i) != (f, ANY[0])]


def lookup(model: Model) -> Scheme | None:
    """The scheme of ``model`` (its formulation and integrator), or None."""
    f, name = model.formulation, model.settings.integrator.lower()
    return SCHEMES.get((f, name)) or SCHEMES.get((f, ANY[0]))


def scheme_for(model: Model) -> Scheme:
    """The scheme that runs ``model``; an unknown formulation is a ``CaseError``, an unknown
    integrator a ``SimulationError`` at time 0."""
    scheme = lookup(model)
    if scheme is not None:
        return scheme
    if model.formulation not in formulations():
        raise CaseError(
            f"unknown formulation {model.formulation!r}; one of {', '.join(formulations())}",
            field="formulation",
        )
    raise SimulationError(f"unknown integrator {model.settings.integrator!r}", time=0.0)


def refuse_joint_dofs(model: Model) -> None:
    """The one-line refusal of joint degrees of freedom by a scheme that does not integrate
    them: the formulations and integrators that do, from the lookup."""
    names = list(model.tree.dof_names)
    if getattr(model, "tower", None) is not None:
        from floatwind.multibody.flex_tower import MODE_NAMES

        names += [f"tower mode {MODE_NAMES[k]}" for k in model.tower.active]
    names = ", ".join(names)
    able = [s for s in SCHEMES.values() if s.joint_dofs]
    if not any(s.formulation == model.formulation for s in able):
        raise CaseError(
            f"joint degrees of freedom ({names}) need the momentum cloud formulation (mcm), "
            f"not {model.formulation}",
            field="formulation",
        )
    runs = [i for (f, i), s in SCHEMES.items() if f == model.formulation and s.joint_dofs]
    integ = model.settings.integrator.lower()
    raise CaseError(
        f"joint degrees of freedom ({names}) run with {', '.join(runs[:-1])} or {runs[-1]}; "
        f"{integ} integrates prescribed joints only",
        field="simulation.integrator",
    )


class ProgressBar:
    """A tqdm bar of the simulated time (``model.name``, to ``t_max``), opened at the first
    report and moved at least every 1 % of the run; called with the simulated time."""

    def __init__(self, model: Model):
        self.name = model.name
        self.t_max = model.settings.t_max
        self.bar = None
        self.last = 0.0

    def __call__(self, t: float) -> None:
        if self.bar is None:
            from tqdm import tqdm

            self.bar = tqdm(total=self.t_max, unit="s sim", desc=self.name, leave=False)
        if t - self.last >= 0.01 * self.t_max or t >= self.t_max:
            self.bar.update(t - self.last)
            self.last = t

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def progress_bar(model: Model, enabled: bool | None) -> ProgressBar | None:
    """The progress bar of a run (default: when stderr is a terminal), or None."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    return ProgressBar(model) if enabled else None


def say_python_path(model: Model, why: str) -> None:
    """One line, once per model, when a run steps on the NumPy path instead of the compiled one
    (``FLOATWIND_NO_FUSED`` / ``FLOATWIND_NO_JIT`` asked for it: debug level only)."""
    if getattr(model, "_python_path_said", False):
        return
    level = logging.DEBUG if "switched off" in why or "kernels off" in why else logging.WARNING
    log.log(level, "%s: stepping on the Python path (slower): %s", model.name, why)
    try:
        model._python_path_said = True
    except AttributeError:  # a frozen model: say it every time
        pass
