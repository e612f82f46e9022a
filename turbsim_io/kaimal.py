"""Kaimal turbulence with the IEC exponential coherence model, on a TurbSim grid.

References: IEC 61400-1 ed. 3 (2005), section 6.3.1.3 (normal turbulence model, NTM) and Annex B
(Kaimal spectra, table B.1, and the exponential coherence model, eq. B.3); TurbSim User's Guide
v2, section on the IECKAI model (the IEC spectra and coherence are evaluated with the hub-height
mean speed and turbulence for every grid point).

Method (the spectral-representation method TurbSim uses): for each Fourier frequency
``f_m = m / T`` the complex amplitudes of the ``u`` component at the ``ny * nz`` grid points are
``sqrt(S_u(f_m) df) * L(f_m) xi``, with ``L L^T`` the IEC coherence matrix and ``xi`` complex
standard normal; ``v`` and ``w`` use independent Kaimal spectra per point (uncorrelated, as
TurbSim's default ``SCMod2 = SCMod3 = NONE`` for IEC models) unless ``coherence_vw`` is set.
An inverse real FFT gives a field that is periodic with period ``T = nt * dt``.
"""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import xarray as xr

logger = logging.getLogger(__name__)

#: IEC 61400-1 reference turbulence intensity I_ref by turbulence category (ed. 3, table 1;
#: ed. 4 adds A+).
IREF = {"A+": 0.18, "A": 0.16, "B": 0.14, "C": 0.12}

#: Kaimal length-scale factors L_k / Lambda_1 and standard-deviation ratios sigma_k / sigma_1
#: (IEC 61400-1 ed. 3, table B.1).
_KAIMAL_L = {"u": 8.1, "v": 2.7, "w": 0.66}
_KAIMAL_SIGMA = {"u": 1.0, "v": 0.8, "w": 0.5}


def iec_length_scale(zhub: float) -> float:
    """Longitudinal turbulence scale parameter Lambda_1 (m), IEC 61400-1 ed. 3 eq. (5)."""
    return 0.7 * zhub if zhub <= 60.0 else 42.0


def ntm_sigma1(uhub: float, turbulence_class: str | float) -> float:
    """Longitudinal standard deviation sigma_1 (m/s) of the NTM, IEC 61400-1 ed. 3 eq. (11).

    Parameters
    ----------
    uhub : float
        Hub-height mean wind speed (m/s).
    turbulence_class : {"A+", "A", "B", "C"} or float
        IEC turbulence category, or the turbulence intensity itself (fraction, e.g. 0.12).

    Returns
    -------
    float
        ``sigma_1 = I_ref (0.75 V_hub + 5.6)`` (m/s), or ``I * V_hub`` for a numeric intensity.
    """
    if isinstance(turbulence_class, str):
        key = turbulence_class.strip().upper()
        if key not in IREF:
            raise ValueError(
                f"turbulence class '{turbulence_class}' unknown; use one of {sorted(IREF)} "
                "or a number (intensity)"
            )
        return IREF[key] * (0.75 * uhub + 5.6)
    ti = float(turbulence_class)
    if not 0.0 <= ti < 1.0:
        raise ValueError(f"turbulence intensity {ti} must be a fraction in [0, 1)")
    return ti * uhub


def kaimal_spectrum(
    f: np.ndarray, component: str, uhub: float, sigma1: float, zhub: float
) -> np.ndarray:
    """One-sided Kaimal spectrum S_k(f) (m^2/s^2/Hz), IEC 61400-1 ed. 3 eq. (B.1).

    ``S_k(f) = 4 sigma_k^2 L_k / V_hub / (1 + 6 f L_k / V_hub)^(5/3)``.

    Parameters
    ----------
    f : array (Hz)
    component : {"u", "v", "w"}
    uhub : float, hub-height mean speed (m/s)
    sigma1 : float, longitudinal standard deviation (m/s)
    zhub : float, hub height (m) (sets Lambda_1)
    """
    lk = _KAIMAL_L[component] * iec_length_scale(zhub)
    sk = _KAIMAL_SIGMA[component] * sigma1
    f = np.asarray(f, dtype=float)
    return 4.0 * sk**2 * lk / uhub / (1.0 + 6.0 * f * lk / uhub) ** (5.0 / 3.0)


def iec_coherence(f: np.ndarray, r: np.ndarray, uhub: float, zhub: float) -> np.ndarray:
    """IEC exponential coherence of the u component, IEC 61400-1 ed. 3 eq. (B.3).

    ``Coh(r, f) = exp(-12 sqrt((f r / V_hub)^2 + (0.12 r / L_c)^2))``, ``L_c = 8.1 Lambda_1``.

    Parameters
    ----------
    f : array (Hz), broadcast against ``r``
    r : array (m), separation normal to the mean wind
    """
    lc = 8.1 * iec_length_scale(zhub)
    f = np.asarray(f, dtype=float)
    r = np.asarray(r, dtype=float)
    return np.exp(-12.0 * np.sqrt((f * r / uhub) ** 2 + (0.12 * r / lc) ** 2))


def _correlated(
    xis: list[np.ndarray],
    f: np.ndarray,
    dist: np.ndarray | None,
    uhub: float,
    zhub: float,
    chunk: int,
) -> list[np.ndarray]:
    """Complex standard-normal vectors (nf, np), one array per realization, correlated by the IEC
    coherence per frequency. The coherence matrix and its Cholesky factor depend on the frequency
    and the grid only, so they are formed once for all realizations; each realization's product
    is the same operation as for a realization alone (a batch member equals the field alone)."""
    if dist is None:
        return xis
    npts = dist.shape[0]
    outs = [np.empty_like(xi) for xi in xis]
    eye = np.eye(npts) * 1e-10
    # Coherence depends on f only through a(f) = sqrt((f/V)^2 + (0.12/L_c)^2) times the distance:
    # where its largest off-diagonal value exp(-12 a r_min) is below 1e-17 the matrix is the
    # identity (plus the jitter) in float64, and so is its Cholesky factor: skip the factorization
    # (exact to round-off).
    r_min = float(dist[dist > 0].min()) if np.any(dist > 0) else np.inf
    off_max = iec_coherence(f, r_min, uhub, zhub)
    n_full = int(np.count_nonzero(off_max >= 1e-17))  # coherence decreases with f
    diag = np.sqrt(1.0 + 1e-10)
    for i0 in range(0, n_full, chunk):
        i1 = min(i0 + chunk, n_full)
        fc = f[i0:i1, None, None]
        coh = iec_coherence(fc, dist[None], uhub, zhub) + eye
        chol = np.linalg.cholesky(coh)
        for xi, out in zip(xis, outs):
            x = xi[i0:i1]
            # real factor times complex vectors as two real batched products (BLAS)
            out[i0:i1] = (chol @ x.real[..., None])[..., 0] + 1j * (chol @ x.imag[..., None])[
                ..., 0
            ]
    for xi, out in zip(xis, outs):
        out[n_full:] = diag * xi[n_full:]
    return outs


def generate_kaimal(*, seed: int | np.random.SeedSequence | None = None, **kwargs) -> xr.Dataset:
    """Generate a full-field Kaimal/IEC turbulent wind on a TurbSim grid (one realization);
    the keywords are those of :func:`generate_kaimal_many`, ``seed`` for ``seeds=[seed]``."""
    return generate_kaimal_many(seeds=[seed], **kwargs)[0]


def kaimal_memory_bytes(ny: int, nz: int, nt: int, n: int = 1) -> int:
    """Peak memory of :func:`generate_kaimal_many` (bytes, an estimate from its arrays): the
    (ny nz)^2 point distances and their temporaries and one coherence matrix with its Cholesky
    factor, then per realization the complex spectra and the three float fields."""
    p = ny * nz
    pairs = 8 * p * p * 3 + 16 * p * p * 2
    series = nt * p * (16 + 8)  # the spectrum buffer and one component's series
    per_member = nt * p * (16 + 8 + 4 + 4)  # the draws and the fields u (float64), v, w
    return int(pairs + series + n * per_member)


def _physical_memory() -> int:
    """This machine's physical memory (bytes); 0 where the system does not say."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        return 0


def generate_kaimal_many(
    *,
    seeds: list,
    uhub: float,
    zhub: float,
    ny: int,
    nz: int,
    width: float,
    height: float,
    dt: float,
    nt: int,
    turbulence_class: str | float = "B",
    shear_exponent: float = 0.2,
    coherence_vw: bool = False,
    chunk: int = 64,
) -> list[xr.Dataset]:
    """Generate full-field Kaimal/IEC turbulent winds on a TurbSim grid, one per seed.

    The realizations share the coherence matrices and their Cholesky factors (the dominant cost,
    which depends on the grid and the frequency only); each field is the one
    :func:`generate_kaimal` gives for its seed alone, to the bit.

    Parameters
    ----------
    seeds : list of int, numpy.random.SeedSequence or None
        One seed of the ``numpy.random.Generator`` per realization.
    uhub : float
        Mean wind speed at hub height (m/s).
    zhub : float
        Hub height (m); the grid is centred on it, as TurbSim lays it out.
    ny, nz : int
        Grid points laterally and vertically (>= 2).
    width, height : float
        Grid width and height (m); the grid bottom ``zhub - height/2`` must be above the ground.
    dt : float
        Time step (s).
    nt : int
        Number of time steps; the field is periodic with period ``nt * dt``.
    turbulence_class : {"A+", "A", "B", "C"} or float
        IEC category for the NTM, or the turbulence intensity (fraction).
    shear_exponent : float
        Power-law exponent of the mean profile (IEC NTM: 0.2).
    coherence_vw : bool
        Also correlate ``v`` and ``w`` with the IEC coherence model (default: uncorrelated).
    chunk : int
        Frequencies per batched Cholesky factorization (memory ~ chunk * (ny nz)^2).

    Returns
    -------
    list of xarray.Dataset
        Same layout as :func:`turbsim_io.read_bts` (``u``, ``v``, ``w`` on (time, y, z)),
        attrs ``uhub``, ``zhub``, ``description``, ``periodic`` = 1, ``sigma1``.

    Notes
    -----
    Cost is dominated by one Cholesky factorization of an (ny nz)^2 matrix per frequency
    (``nt / 2`` of them, ``(ny nz)^3 / 3`` flops each), skipped where the coherence is the identity
    to round-off (high frequencies). Measured figures (3x3 ... 15x15, extrapolated to 31x31) are in
    ``docs/environment.md`` (``benchmarks/bench_environment.py``): a 31 x 31 grid over 3 h at
    0.05 s takes hours, as it does in TurbSim.
    """
    if ny < 2 or nz < 2 or nt < 8:
        raise ValueError("generate_kaimal: need ny >= 2, nz >= 2 and nt >= 8")
    if min(uhub, zhub, width, height, dt) <= 0:
        raise ValueError("generate_kaimal: uhub, zhub, width, height and dt must be positive")
    zbottom = zhub - height / 2.0
    if zbottom <= 0:
        raise ValueError(f"generate_kaimal: grid bottom {zbottom:g} m is not above the ground")
    need = kaimal_memory_bytes(ny, nz, nt, len(seeds))
    have = _physical_memory()
    if have and need > have:
        raise ValueError(
            f"a {ny} x {nz} grid over {nt} time steps for {len(seeds)} realization(s) needs about "
            f"{need / 1e9:.3g} GB, more than this machine's {have / 1e9:.3g} GB; use a coarser "
            "grid, fewer realizations per batch or a TurbSim file"
        )
    sigma1 = ntm_sigma1(uhub, turbulence_class)
    rngs = [np.random.default_rng(seed) for seed in seeds]
    y = np.linspace(-width / 2.0, width / 2.0, ny)
    z = np.linspace(zbottom, zbottom + height, nz)
    zz, yy = np.meshgrid(z, y, indexing="ij")  # (nz, ny), iy fastest as in the file
    pts = np.stack([yy.ravel(), zz.ravel()], axis=1)
    dist = np.linalg.norm(pts[:, None, :] - pts[None, :, :], axis=-1)
    nf = (nt - 1) // 2  # positive frequencies below Nyquist
    df = 1.0 / (nt * dt)
    f = np.arange(1, nf + 1) * df
    fields = [{} for _ in rngs]
    for comp in ("u", "v", "w"):
        use_coh = comp == "u" or coherence_vw
        # each generator draws u, v, w in this order, as for a realization alone
        xis = []
        for rng in rngs:
            gauss = rng.standard_normal((nf, pts.shape[0], 2))
            xis.append((gauss[..., 0] + 1j * gauss[..., 1]) / np.sqrt(2.0))
        xis = _correlated(xis, f, dist if use_coh else None, uhub, zhub, chunk)
        amp = np.sqrt(kaimal_spectrum(f, comp, uhub, sigma1, zhub) * df)
        scale = (amp * np.sqrt(2.0))[:, None]
        # one spectrum buffer for the realizations: rows 0 and above nf stay zero
        spec = np.zeros((nt // 2 + 1, pts.shape[0]), dtype=complex)
        for r, xi in enumerate(xis):
            # x_j = Re sum_m c_m e^{2 pi i m j / nt}, c = amp * sqrt(2) * xi (E|c|^2 = 2 S df)
            spec[1 : nf + 1] = scale * xi * (nt / 2.0)
            import scipy.fft  # lazy (import cost when no field is generated)

            series = scipy.fft.irfft(spec, n=nt, axis=0)  # (nt, npts)
            grid = series.reshape(nt, nz, ny).transpose(0, 2, 1)
            # u keeps float64 until the mean profile is added (one rounding to float32)
            fields[r][comp] = grid if comp == "u" else grid.astype(np.float32)
        del xis
    shear = (uhub * (z / zhub) ** shear_exponent)[None, None, :]
    desc = (
        f"floatwind turbsim_io Kaimal/IEC field: uhub={uhub:g} m/s zhub={zhub:g} m "
        f"class={turbulence_class} sigma1={sigma1:.4g} m/s alpha={shear_exponent:g}"
    )
    import xarray as xr  # here: importing turbsim_io must not import xarray (and pandas)

    out = []
    for fld in fields:
        u = (fld["u"] + shear).astype(np.float32)
        ds = xr.Dataset(
            {
                c: (("time", "y", "z"), u if c == "u" else fld[c], {"units": "m/s"})
                for c in "uvw"
            },
            coords={
                "time": ("time", np.arange(nt) * dt, {"units": "s"}),
                "y": ("y", y, {"units": "m"}),
                "z": ("z", z, {"units": "m"}),
            },
            attrs={
                "uhub": float(uhub),
                "zhub": float(zhub),
                "description": desc,
                "periodic": 1,
                "sigma1": float(sigma1),
                "turbulence_class": str(turbulence_class),
                "shear_exponent": float(shear_exponent),
            },
        )
        out.append(ds)
    logger.debug("generated %d Kaimal field(s) %s", len(out), desc)
    return out
