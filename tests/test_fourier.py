"""floatwind.environment.fourier: the sea tables' and the radiation kernel's transforms without
importing scipy.fft (issue 41), bit for bit what scipy.fft gave (the results of every deck with
waves or potential flow must not move)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.fft

from floatwind.environment import fourier


def test_next_fast_len_is_scipys():
    """Every target up to 20,000 and some large ones: the same length as scipy.fft's."""
    targets = list(range(0, 20001)) + [65537, 100003, 262145, 1_000_001]
    assert [fourier.next_fast_len(t) for t in targets] == [
        scipy.fft.next_fast_len(t) for t in targets
    ]
    with pytest.raises(ValueError, match=">= 0"):
        fourier.next_fast_len(-1)


def test_next_fast_len_is_11_smooth_and_least():
    """Invariant: the result's prime factors are <= 11 and nothing smaller above the target is."""
    for t in (97, 1009, 4801, 48001):
        m = fourier.next_fast_len(t)
        r = m
        for p in (2, 3, 5, 7, 11):
            while r % p == 0:
                r //= p
        assert r == 1 and m >= t
        assert all(fourier.smooth_at_least(k, (2, 3, 5, 7, 11)) == m for k in range(t, m + 1))


@pytest.mark.parametrize("n", [2, 3, 4, 5, 17, 64, 101, 4801, 2 * 2401 + 1, 9601, 16001])
def test_dct1_is_scipys(n):
    """The radiation kernel's DCT-I of (n, 6, 6) along axis 0 (and along a last axis): the same
    bits as scipy.fft.dct(type=1)."""
    x = np.random.default_rng(n).standard_normal((n, 6, 6))
    assert np.array_equal(fourier.dct1(x, axis=0), scipy.fft.dct(x, type=1, axis=0))
    y = np.moveaxis(x, 0, -1)
    assert np.array_equal(fourier.dct1(y, axis=-1), scipy.fft.dct(y, type=1, axis=-1))
    with pytest.raises(ValueError, match="at least 2"):
        fourier.dct1(np.ones((1, 3)))


def test_dct1_analytic():
    """A constant c over n points: y_0 = 2 (n - 1) c, the rest 0 (to rounding); a cosine
    x_j = cos(pi j m / (n - 1)) gives (n - 1) at k = m."""
    n, c = 33, 1.5
    y = fourier.dct1(np.full(n, c))
    assert y[0] == pytest.approx(2 * (n - 1) * c)
    assert np.max(np.abs(y[1:])) < 1e-12
    m = 5
    x = np.cos(math.pi * np.arange(n) * m / (n - 1))
    y = fourier.dct1(x)
    assert y[m] == pytest.approx(n - 1)
    assert np.max(np.abs(np.delete(y, m))) < 1e-12


@pytest.mark.parametrize("m", [6, 30, 210, 1024, 3000, 6144, 27720, 48000])
def test_fft_and_irfft_are_scipys(m):
    """The sea tables' transforms at lengths next_fast_len gives: irfft of (points, m/2 + 1)
    spectra to m samples and complex FFTs of (64, m) blocks, the same bits as scipy.fft."""
    rng = np.random.default_rng(m)
    spec = rng.standard_normal((7, m // 2 + 1)) + 1j * rng.standard_normal((7, m // 2 + 1))
    assert np.array_equal(fourier.irfft(spec, n=m, axis=-1), scipy.fft.irfft(spec, n=m, axis=-1))
    block = rng.standard_normal((64, m)) + 1j * rng.standard_normal((64, m))
    assert np.array_equal(fourier.fft(block[:40], axis=-1), scipy.fft.fft(block[:40], axis=-1))
