"""A lazy ``@njit``: kernels that import numba only when a call needs it (issue 41).

Every compiled function of floatwind is decorated with :func:`njit` from here instead of numba's.
The decorator returns a :class:`Kernel`: the Python function and its numba options, nothing
compiled and numba not imported. A call is served by

1. the ahead-of-time compiled module of this model (:mod:`floatwind._kernels.aot`), when one holds
   the kernel for exactly these argument types: no numba in the process at all; else
2. numba's dispatcher for the function, made on first use (``numba.njit(**options)``, its disk
   cache as before), the same dispatcher a plain ``@numba.njit`` would have made.

Inside compiled code a :class:`Kernel` is the dispatcher it stands for: numba types a global
``Kernel`` as that dispatcher (a ``typeof`` registration made when numba is first imported), and
its IR-level inliner reads ``targetoptions``/``py_func``, which a Kernel has without numba. The
results are those of the dispatcher, bit for bit (the ahead-of-time module is compiled from the
same source with the same options and the same CPU features; ``tests/test_aot.py``).

Attributes a Kernel does not have itself (``signatures``, ``overloads``, ``_cache``,
``inspect_llvm``, ...) are the dispatcher's: asking for one imports numba.
"""

from __future__ import annotations

import functools
import threading

__all__ = ["Kernel", "njit", "on_numba"]

_LOCK = threading.RLock()
_TYPEOF_REGISTERED: list[bool] = []
_ON_NUMBA: list = []

#: set by floatwind._kernels.aot: ``hook(kernel, args)`` -> a compiled callable or None
AOT_LOOKUP = None
#: set by floatwind._kernels.aot while a run records the calls it makes: ``hook(kernel, args)``
AOT_RECORD = None


def _register_typeof() -> None:
    """Teach numba that a Kernel global is its dispatcher, and import the modules that extend
    numba (:func:`on_numba`): once, when numba is first needed."""
    if _TYPEOF_REGISTERED:
        return
    with _LOCK:
        if _TYPEOF_REGISTERED:
            return
        from numba.extending import typeof_impl

        @typeof_impl.register(Kernel)
        def _typeof_kernel(val, c):
            return typeof_impl(val.dispatcher, c)

        _TYPEOF_REGISTERED.append(True)
        for register in _ON_NUMBA:
            register()


def on_numba(register) -> None:
    """Call ``register()`` (it imports a module that extends numba: overloads, intrinsics) when
    numba is first needed, or now if it has been."""
    if _TYPEOF_REGISTERED:
        register()
    elif register not in _ON_NUMBA:
        _ON_NUMBA.append(register)


class Kernel:
    """A function compiled by numba on first use (or served ahead of time); see the module."""

    def __init__(self, py_func, options: dict):
        functools.update_wrapper(self, py_func)
        self.py_func = py_func
        self._options = dict(options)
        self._dispatcher = None
        #: ``module.qualname``: the kernel's name in an ahead-of-time module's index
        self.qualid = f"{py_func.__module__}.{py_func.__qualname__}"

    @property
    def targetoptions(self) -> dict:
        """The options numba's dispatcher would report (its IR inliner reads ``inline``):
        the decorator's, less ``cache``, with ``nopython`` and ``boundscheck``."""
        own = {k: v for k, v in self._options.items() if k != "cache"}
        own.setdefault("nopython", True)
        own.setdefault("boundscheck", None)
        return own

    @property
    def dispatcher(self):
        """numba's dispatcher of this function (imports numba and makes it on first use)."""
        d = self._dispatcher
        if d is None:
            with _LOCK:
                d = self._dispatcher
                if d is None:
                    import numba

                    _register_typeof()
                    # reference counting on unless the decorator says otherwise, stated: numba
                    # lets a callee without the option inherit its caller's, so a kernel
                    # first typed from a caller compiled without it (a rigid model's
                    # rk4_chunk, floatwind.simulate.generate) would be compiled without it
                    # too, and that build served (and cached) for every later caller
                    d = numba.njit(**{"_nrt": True, **self._options})(self.py_func)
                    self._dispatcher = d
        return d

    def __getattr__(self, name):
        if name.startswith("__") or name in ("py_func", "_options", "_dispatcher", "qualid"):
            raise AttributeError(name)
        return getattr(self.dispatcher, name)

    def __call__(self, *args, **kwargs):
        if not kwargs:
            look = AOT_LOOKUP
            if look is not None:
                fn = look(self, args)
                if fn is not None:
                    return fn(*args)
            d = self._dispatcher
            if d is None:
                d = self.dispatcher
            out = d(*args)
            rec = AOT_RECORD
            if rec is not None:
                rec(self, args)
            return out
        return self.dispatcher(*args, **kwargs)

    def __reduce__(self):
        # by reference, as a module-level function: pickle finds it as module.qualname
        return self.py_func.__qualname__

    def __repr__(self) -> str:
        state = "numba dispatcher made" if self._dispatcher is not None else "not compiled yet"
        return f"<floatwind kernel {self.qualid} ({state})>"


def njit(*args, **options):
    """``@njit`` or ``@njit(cache=True, fastmath=False, ...)``: numba's options, applied when the
    function is first compiled (see the module)."""
    if args and callable(args[0]) and len(args) == 1 and not options:
        return Kernel(args[0], {})
    if args:
        raise TypeError("floatwind's njit takes numba's keyword options only (no signatures)")

    def decorate(fn):
        return Kernel(fn, options)

    return decorate
