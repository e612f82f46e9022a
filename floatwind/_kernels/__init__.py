"""Compiled (numba) kernels for the hot path, with the pure-NumPy code as the reference.

The kernels are loops over the batch axis and the strips / channels, written so that every batch
member goes through the same operations in the same order whatever the batch size (no reductions
across members): a realization alone and inside a batch give bit-identical results.

Selection: the kernels are used when :mod:`numba` imports and the environment variable
``FLOATWIND_NO_JIT`` is not set to a true value (``1``, ``true``, ``yes``) when this package is first
imported. :data:`ENABLED` says which; :func:`use_jit` switches at run time (tests and benchmarks).
The callers keep their NumPy code and dispatch on :func:`enabled`. See docs/performance.md.
"""

from __future__ import annotations

import importlib.util
import logging
import os

logger = logging.getLogger(__name__)

__all__ = ["AVAILABLE", "ENABLED", "enabled", "f64", "use_jit"]


def _env_disabled() -> bool:
    return os.environ.get("FLOATWIND_NO_JIT", "").strip().lower() in ("1", "true", "yes", "on")


# numba is imported only when a kernel call needs it (floatwind.jit): a run served by an
# ahead-of-time compiled module (floatwind._kernels.aot) never imports it
AVAILABLE = importlib.util.find_spec("numba") is not None

#: True when the compiled kernels are used (numba present and FLOATWIND_NO_JIT unset)
ENABLED = AVAILABLE and not _env_disabled()
if AVAILABLE and not ENABLED:
    logger.info("FLOATWIND_NO_JIT set: using the NumPy reference implementations")
elif not AVAILABLE:
    logger.info("numba not importable: using the NumPy reference implementations")


def _install_aot() -> None:
    from floatwind._kernels import aot

    aot.install(ENABLED)


def enabled() -> bool:
    """Whether the compiled kernels are in use now."""
    return ENABLED


def f64(a):
    """``a`` as a C-contiguous float64 array (no copy when it already is one), so that every
    kernel is compiled for one array type only."""
    import numpy as np

    return np.ascontiguousarray(a, dtype=np.float64)


def use_jit(flag: bool) -> bool:
    """Switch the compiled kernels on (if numba is available) or off; returns the previous state."""
    global ENABLED
    old = ENABLED
    ENABLED = bool(flag) and AVAILABLE
    _install_aot()
    return old


_install_aot()
