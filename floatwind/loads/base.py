"""The Load contract (DESIGN.md, "Loads interface").

Every load is an object with parameters frozen at construction and one method,

    wrench(t, kin, env) -> Wrench

that returns, for every body of the model, the force (B, N, 3) in the inertial frame and the moment
(B, N, 3) about that body's CM in the inertial frame. Bodies a load does not act on get zeros.
The dynamics core (``floatwind.multibody``) transfers these to the system CM and into the C_s frame.

Rules for a new load (the same idea as scipy's ``OdeSolver`` contract):

1. Subclass :class:`Load`; take every parameter as a keyword in ``__init__``, validate it there and
   raise :class:`floatwind.errors.CaseError` naming the field.
2. Implement :meth:`Load.wrench` for batched kinematics (leading axis B); never loop over B.
3. A load that depends on structural acceleration (Morison added mass) does **not** use an
   acceleration from the previous step: it returns ``Wrench.added_mass`` (B, N, 6, 6) such that its
   acceleration-dependent part is ``-added_mass @ [a_G; alpha]`` (inertial frame, about the body CM),
   and leaves that part out of ``force``/``moment``. The core moves it to the inertia side.
4. Output channels (line tensions, thrust, ...) go in ``Wrench.channels`` as arrays with leading
   axis B; :meth:`Load.channel_info` gives their units and long names. A channel without them is
   an error when the load is constructed (or, for a fixed ``channel_info`` mapping declared on the
   class, when the class is created), naming the load and the channel
   (``floatwind.io.channels.ChannelDefinitionError``).
5. No integration and no state inside a load object: a load with states of its own makes them
   explicit and the run owns them ("Load states" in docs/architecture.md). Continuous states
   (``n_states`` per member, e.g. radiation state-space states) are columns of the state vector
   after the 12 rigid-body ones, integrated with the bodies and recorded with them; the load gives
   their rates from :meth:`Load.wrench_state`. A step memory (:meth:`Load.memory`, e.g. the
   velocity history of a radiation convolution) is a structure of arrays the run allocates and
   the load updates in place once per accepted step (:meth:`Load.after_step`); it must let the
   outputs be evaluated again at any earlier recorded time (keep the sampled history).
6. A load becomes fast by giving its compiled form in :meth:`Load.compiled` (next to its NumPy
   definition): a ``NamedTuple`` of parameters read by name and one kernel with the signature of
   ``floatwind._kernels.contract``; nothing else registers it.
7. A load that a case file names declares its kind (the ``type`` of its mapping under ``loads:``)
   where it is defined, with a class keyword, and builds itself from that mapping in
   :meth:`Load.from_config`::

       class MorisonMembers(Load, kind="morison"):
           @classmethod
           def from_config(cls, cfg, *, body_index, field, base_dir=None, tree=None): ...

   The class is entered in the table of kinds when it is created; a kind already taken by another
   class is refused naming both (:class:`LoadKindError`). :mod:`floatwind.loads.registry` finds
   the class of a kind; no other module keeps a list of kinds. What readers of a model need to
   know about a load, they ask through the contract (:attr:`Load.is_mooring`,
   :attr:`Load.wave_points`, :attr:`Load.reads_wamit`), not by its class or its private
   attributes.
"""

from __future__ import annotations

import abc
import re
from collections.abc import Mapping
from types import MappingProxyType

import numpy as np

from floatwind._kernels.contract import CompiledLoad
from floatwind.io.channels import ChannelDefinitionError, check_channel_info
from floatwind.records import Kinematics, Wrench  # the contract's records (issue 23)


class _LoadType(abc.ABCMeta):
    """Checks a load's declared channels when it is constructed (contract rule 4): every channel
    of :meth:`Load.channel_info` (and of :meth:`Load.state_info` for a load with states) has
    units and a description, or the construction fails naming the load and the channel."""

    def __call__(cls, *args, **kwargs):
        load = super().__call__(*args, **kwargs)
        owner = f"load {cls.__qualname__} (name {load.name!r})"
        check_channel_info(load.channel_info(), owner)
        if load.n_states:
            check_channel_info(load.state_info(), owner)
        return load


class LoadKindError(TypeError):
    """A load class's case-file kind cannot be registered (taken by another class, not a valid
    name, or the class cannot build itself from a case mapping)."""


#: the case-file kinds: kind -> load class, filled when the classes are created (contract rule 7)
_KINDS: dict[str, type] = {}
#: read-only view of the table (``floatwind.loads.registry`` answers from it)
KINDS = MappingProxyType(_KINDS)
#: floatwind's own case-file kinds -> the module of floatwind.loads that defines the class, which
#: ``floatwind.loads.registry`` imports when a case names the kind (issue 41: a run imports the
#: load modules its case uses); a class of another module cannot take one of these kinds
SHIPPED = MappingProxyType({
    "aerodisk": "aerodisk",
    "bem_rotor": "rotor_bem",
    "constant_force": "simple",
    "gravity": "simple",
    "harmonic_force": "simple",
    "hydrostatics": "hydrostatics",
    "linear": "simple",
    "mooring_catenary": "catenary",
    "mooring_lumped": "moordyn",
    "mooring_taut": "mooring",
    "morison": "morison",
    "potential_excitation": "potential",
    "potential_radiation": "potential",
    "servodyn": "servo",
    "thrust_ct": "thrust",
    "time_series_force": "simple",
})  # fmt: skip

_KIND_NAME = re.compile(r"[a-z][a-z0-9_]*")


def _qualified(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _register_kind(cls: type, kind: str) -> None:
    if not isinstance(kind, str) or not _KIND_NAME.fullmatch(kind):
        raise LoadKindError(
            f"load class {_qualified(cls)}: kind must be a name of lower-case letters, digits "
            f"and '_', got {kind!r}"
        )
    if cls.from_config.__func__ is Load.from_config.__func__:
        raise LoadKindError(
            f"load class {_qualified(cls)} (kind {kind!r}) must define from_config (contract "
            "rule 7): a case file's mapping is built through it"
        )
    home = SHIPPED.get(kind)
    if kind not in _KINDS and home is not None and cls.__module__ != f"floatwind.loads.{home}":
        # a kind floatwind ships, whose module is not imported yet (it is on use)
        raise LoadKindError(
            f"load kind {kind!r} of {_qualified(cls)} is floatwind's own (floatwind.loads."
            f"{home}); give the new class a kind of its own"
        )
    old = _KINDS.get(kind)
    # the same class defined again (its module reloaded) replaces itself
    if old is not None and _qualified(old) != _qualified(cls):
        raise LoadKindError(
            f"load kind {kind!r} of {_qualified(cls)} is already registered by "
            f"{_qualified(old)}; give the new class a kind of its own"
        )
    _KINDS[kind] = cls


class Load(abc.ABC, metaclass=_LoadType):
    """Base class of every load module (see the module docstring for the contract)."""

    def __init_subclass__(cls, kind: str | None = None, **kwargs):
        """A load class with a case-file kind (``class X(Load, kind="x")``, contract rule 7) is
        entered in the table of kinds (refused, naming both classes, when another class has
        it). A load class may declare a fixed set of channels as a mapping (``channel_info =
        {name: (units, description)}``): it is checked here, when the class is created, and
        becomes the method."""
        super().__init_subclass__(**kwargs)
        for attr in ("channel_info", "state_info"):
            declared = cls.__dict__.get(attr)
            if isinstance(declared, Mapping):
                fixed = check_channel_info(declared, f"load class {cls.__qualname__}")
                setattr(cls, attr, lambda self, _fixed=fixed: dict(_fixed))
            elif declared is not None and not callable(declared):
                raise ChannelDefinitionError(
                    f"load class {cls.__qualname__}: {attr} must be a method or a mapping "
                    f"{{name: (units, description)}}, got {type(declared).__name__}"
                )
        if kind is not None:
            _register_kind(cls, kind)
            cls.kind = kind

    #: the case-file ``type`` that builds this class (a subclass inherits its parent's), or None
    #: for a load that is only built in Python (contract rule 7)
    kind: str | None = None

    #: short name used to prefix output channels and in messages
    name: str = "load"

    @classmethod
    def from_config(cls, cfg: Mapping, *, body_index: dict[str, int], field: str,
                    base_dir=None, tree=None) -> Load:  # fmt: skip
        """Build the load from its case-file mapping ``cfg`` (``{type: KIND, ...}``, read with
        :class:`floatwind.validate.Section`; errors are :class:`floatwind.errors.CaseError`
        naming ``field``). ``body_index`` maps body names to indices, ``base_dir`` is the folder
        that relative file names start from, ``tree`` the model's
        :class:`floatwind.multibody.tree.Tree`. Every class with a kind defines it."""
        raise NotImplementedError(f"load class {cls.__qualname__} is not built from a case file")

    #: whether this is a mooring load: it acts on the one body ``self.body`` and depends on that
    #: body's pose alone, so the mooring statics (``floatwind.simulate.mooring``, ``floatwind
    #: mooring``) evaluate it at prescribed poses
    is_mooring: bool = False

    #: whether the case mapping names WAMIT hull coefficients (``wamit``): the case loader may
    #: then compute them from the hull instead (``bem``, ``floatwind.bem``)
    reads_wamit: bool = False

    @property
    def wave_points(self) -> int:
        """How many points this load samples the sea's wave kinematics at (what sizes the
        gridded wave-kinematics table, ``environment.waves.kinematics``); 0 by default."""
        return 0

    @abc.abstractmethod
    def wrench(self, t: float, kin: Kinematics, env) -> Wrench:
        """Force and moment on every body at time ``t`` for kinematics ``kin`` and environment ``env``."""

    #: OpenFAST channel prefix of this load's wrench at its own point ``point_b`` (e.g. HydroDyn's
    #: ``B1Rdt`` gives ``B1RdtFxi..B1RdtMzi``: force and moment about the displaced point,
    #: inertial axes), written besides ``{name}_F*i``; None: no such channels
    openfast_wrench: str | None = None

    #: whether :meth:`wrench` ignores ``t`` (set by loads without time dependence)
    time_independent: bool = False

    def accepts_time_array(self, env) -> bool:
        """Whether :meth:`wrench` may be called with ``t`` a (B,) array of per-member times
        (outputs evaluated at many times at once, ``System.evaluate_many``). True for loads that
        ignore ``t``; a load that uses ``t`` says True only when the environment objects it
        queries accept such arrays (``accepts_time_array`` attribute of a sea or wind)."""
        return self.time_independent

    def channel_info(self) -> dict[str, tuple[str, str]]:
        """Output channels this load writes: ``{name: (units, long_name)}``."""
        return {}

    # -- states of its own (contract rule 5) -------------------------------------------------

    #: continuous states per batch member owned by this load (columns of the state vector)
    n_states: int = 0

    def initial_states(self, batch: int) -> np.ndarray:
        """Initial values (B, n_states) of this load's continuous states (default zeros)."""
        return np.zeros((batch, self.n_states))

    def initial_states_at(self, t: float, kin: Kinematics, env) -> np.ndarray:
        """Initial values (B, n_states) of the continuous states for the bodies' initial
        kinematics ``kin`` (what the run calls; a load whose states start from the initial pose,
        e.g. mooring lines relaxed to rest at the displaced fairleads, overrides it). The
        default is :meth:`initial_states`."""
        return self.initial_states(kin.batch)

    def states_at_rest(self, t: float, kin: Kinematics, env) -> np.ndarray:
        """The continuous states (B, n_states) with every body held still at ``kin``'s pose, for
        static equilibria (``floatwind.simulate.equilibrium``); default
        :meth:`initial_states_at`. Mooring lines at rest override it with their static
        solution."""
        return self.initial_states_at(t, kin, env)

    def state_names(self) -> list[str]:
        """Names of the continuous states (output channels of the state vector)."""
        return [f"{self.name}_s{i + 1}" for i in range(self.n_states)]

    def state_info(self) -> dict[str, tuple[str, str]]:
        """Units and description of each state channel (:meth:`state_names`); a load whose
        states have physical units says so by overriding this."""
        return {n: ("1", f"continuous state {k + 1} of load '{self.name}'")
                for k, n in enumerate(self.state_names())}  # fmt: skip

    def memory(self, batch: int, t0: float, dt: float, n_steps: int):
        """A new step memory for one run (a NamedTuple of arrays, batch axis first) or None (the
        default: no memory). ``t0``, ``dt`` and ``n_steps`` describe the run's steps
        (``dt`` = 0 when the integrator has no fixed step)."""
        return None

    #: the name of another load whose step memory this load reads (read-only), or None: the
    #: run hands that load's memory to this one's ``wrench_state`` and compiled params (a rotor
    #: reading the blade pitch a ``servodyn`` load commands, issue 36)
    memory_of: str | None = None

    def after_step(self, t: float, kin: Kinematics, env, memory, s: np.ndarray | None) -> None:
        """Update ``memory`` in place after an accepted step ending at ``t`` (new kinematics
        ``kin`` and states ``s`` (B, n_states) or None). Default: nothing."""
        return None

    def wrench_state(self, t, kin: Kinematics, env, s: np.ndarray | None, memory):
        """Wrench and state rates ``(Wrench, ds/dt (B, n_states) or None)`` of a load with states
        or a memory (called instead of :meth:`wrench`); ``s`` (B, n_states) or None; ``memory``
        is None outside a run (statics, start-up checks): the load then answers as with an
        empty history. The default is the stateless ``(self.wrench(t, kin, env), None)``."""
        return self.wrench(t, kin, env), None

    @property
    def stateful(self) -> bool:
        """Whether the load has continuous states or a step memory (type-level: a load that
        overrides :meth:`memory` is treated as having one)."""
        return self.n_states > 0 or type(self).memory is not Load.memory

    def compiled(self, env, batch: int) -> CompiledLoad | None:
        """This load's compiled form (``floatwind._kernels.contract``): a kernel with the one
        signature every load kernel has, and a NamedTuple of named parameters. ``None`` (the
        default): the load has none, and a model with it steps on the NumPy path. A load whose
        compiled form does not cover its configuration raises :class:`NoCompiledForm` naming
        what is missing. A load made of parts that are not always there may return a tuple of
        ``CompiledLoad`` (Morison strips, and member ends only when it has ends): a params record
        pays reference counting for every array it holds on every call, used or not.

        A load with continuous states has an int field ``state0`` in its params (the run sets
        it to the load's first column of the state vector); a load with a memory has a field
        ``memory`` (the run sets it to the very object :meth:`memory` returned, shared with the
        NumPy path) and an ``after_step`` kernel (``CompiledLoad.after_step``)."""
        return None
