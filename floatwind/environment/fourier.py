"""The few Fourier-transform helpers of the sea tables and the radiation kernel, on NumPy alone.

``scipy.fft`` costs ~0.5 s of CPU to import (it imports ``scipy.special`` and SciPy's array-API
layer), more than the whole stepping of a 200-s potential-flow deck (issue 41, docs/performance.md
"The run path's own costs"). NumPy's ``numpy.fft`` is the same pocketfft C++ code as
``scipy.fft`` from NumPy 2.0 on: the same sizes give the same bits (tests/test_fourier.py holds
them equal over the sizes the tables use), so these helpers replace SciPy's without changing a
result. Under NumPy 1.x (its older C pocketfft rounds differently) they use ``scipy.fft``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["dct1", "fft", "irfft", "next_fast_len", "smooth_at_least"]

#: NumPy's FFT is pocketfft's C++ code, as SciPy's, from NumPy 2.0 on
_NUMPY_POCKETFFT_CXX = int(np.__version__.split(".")[0]) >= 2


def _backend():
    if _NUMPY_POCKETFFT_CXX:
        return np.fft
    import scipy.fft

    return scipy.fft


def fft(a: np.ndarray, axis: int = -1) -> np.ndarray:
    """The complex forward FFT along ``axis`` (``scipy.fft.fft``)."""
    return _backend().fft(a, axis=axis)


def irfft(a: np.ndarray, n: int, axis: int = -1) -> np.ndarray:
    """The inverse FFT of a Hermitian spectrum to ``n`` real points along ``axis``
    (``scipy.fft.irfft``)."""
    return _backend().irfft(a, n=n, axis=axis)


def smooth_at_least(n: int, primes: tuple[int, ...]) -> int:
    """Smallest integer ``>= max(n, 1)`` whose prime factors are all among ``primes``."""
    m = max(int(n), 1)
    while True:
        r = m
        for p in primes:
            while r % p == 0:
                r //= p
        if r == 1:
            return m
        m += 1


def next_fast_len(target: int) -> int:
    """``scipy.fft.next_fast_len(target)`` (complex transforms, ``real=False``): the smallest
    11-smooth integer ``>= target``, a length pocketfft transforms with its radix-2, 3, 4, 5,
    7 and 11 passes only (pocketfft ``good_size_cmplx``)."""
    if target < 0:
        raise ValueError(f"target must be >= 0, got {target}")
    if target == 0:
        return 0
    return smooth_at_least(target, (2, 3, 5, 7, 11))


def dct1(x: np.ndarray, axis: int = 0) -> np.ndarray:
    """Type-I discrete cosine transform of real ``x`` along ``axis``, unnormalised
    (``scipy.fft.dct(x, type=1, axis=axis)``): ``y_k = x_0 + (-1)^k x_{n-1} + 2 sum_{j=1}^{n-2}
    x_j cos(pi j k / (n - 1))``. As pocketfft computes it (``T_dct1``): the real FFT of the even
    extension ``x_0 .. x_{n-1}, x_{n-2} .. x_1`` (length ``2 (n - 1)``), whose real parts are
    the transform."""
    x = np.moveaxis(np.asarray(x, dtype=float), axis, 0)
    n = x.shape[0]
    if n < 2:
        raise ValueError(f"a type-I DCT needs at least 2 points, got {n}")
    if not _NUMPY_POCKETFFT_CXX:
        import scipy.fft

        return scipy.fft.dct(np.moveaxis(x, 0, axis), type=1, axis=axis)
    ext = np.concatenate([x, x[-2:0:-1]], axis=0)
    return np.ascontiguousarray(np.moveaxis(np.fft.rfft(ext, axis=0).real, 0, axis))
