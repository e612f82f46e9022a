"""Read and write TurbSim binary full-field files (``.bts``).

Layout, as TurbSim writes it (TurbSim User's Guide v2, Appendix "binary full-field file";
TurbSim ``TS_FileIO.f90``, subroutine ``WrBinTURBSIM``), little-endian, no record markers:

=========  ========  ===========================================================
type       name      meaning
=========  ========  ===========================================================
int16      id        7 = not periodic, 8 = periodic
int32      nz        grid points vertically
int32      ny        grid points laterally
int32      ntwr      tower points (below the grid, 0 if none)
int32      nt        time steps
float32    dz, dy    grid spacing (m)
float32    dt        time step (s)
float32    uhub      mean wind speed at hub height (m/s)
float32    zhub      hub height (m)
float32    zbottom   height of the lowest grid row above the ground (m)
float32    slope, offset for u, then v, then w (6 values)
int32      nchar     length of the ASCII description
nchar x    int8      description
=========  ========  ===========================================================

then, for every time step, int16 triplets (u, v, w) for every grid point, ``iy`` varying fastest
(point index ``(iz - 1) * ny + iy``, ``iz = 1`` at the bottom, ``iy = 1`` at ``y = -width/2``),
followed by the ``ntwr`` tower points. A velocity is ``(int16 - offset) / slope``. The first tower
point is the bottom-centre grid point (top of the tower, ``z = zbottom``); the others go down with
the grid spacing, ``z_tower[i] = zbottom - i * dz``.
"""

from __future__ import annotations

import logging
import os
import struct
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import xarray as xr

logger = logging.getLogger(__name__)

_HEADER = struct.Struct("<h4i12fi")  # 70 bytes
_INT_MIN, _INT_MAX = -32768.0, 32767.0
_COMPONENTS = ("u", "v", "w")


class BtsFormatError(ValueError):
    """A ``.bts`` file that is truncated or does not follow TurbSim's layout.

    Attributes
    ----------
    path : str
        The file.
    reason : str
        What is wrong with it.
    """

    def __init__(self, path: str | os.PathLike, reason: str):
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{self.path}: not a valid TurbSim .bts file: {reason}")


def _parse_header(path, raw: bytes) -> dict:
    if len(raw) < _HEADER.size:
        raise BtsFormatError(
            path, f"file is {len(raw)} bytes, shorter than the {_HEADER.size}-byte header"
        )
    vals = _HEADER.unpack_from(raw, 0)
    file_id, nz, ny, ntwr, nt = vals[:5]
    dz, dy, dt, uhub, zhub, zbottom = vals[5:11]
    scal = vals[11:17]
    nchar = vals[17]
    if file_id not in (7, 8):
        raise BtsFormatError(
            path, f"file id is {file_id}; TurbSim writes 7 (not periodic) or 8 (periodic)"
        )
    for name, v in (("nz", nz), ("ny", ny), ("nt", nt)):
        if v <= 0:
            raise BtsFormatError(path, f"header {name} = {v}, must be positive")
    if ntwr < 0:
        raise BtsFormatError(path, f"header ntwr = {ntwr}, must be >= 0")
    for name, v in (("dz", dz), ("dy", dy), ("dt", dt)):
        if not (np.isfinite(v) and v > 0):
            raise BtsFormatError(path, f"header {name} = {v}, must be positive")
    # the mean speed carries the field past the turbine (Taylor's frozen turbulence, as
    # InflowWind's full-field wind uses it): it must be a positive speed
    if not (np.isfinite(uhub) and uhub > 0):
        raise BtsFormatError(path, f"header uhub (mean wind speed) = {uhub:g} m/s, must be positive")
    if not (np.isfinite(zhub) and np.isfinite(zbottom)):
        raise BtsFormatError(path, f"header zhub = {zhub:g} m, zbottom = {zbottom:g} m, must be finite")
    if not all(np.isfinite(scal)) or any(scal[i] == 0 for i in (0, 2, 4)):
        raise BtsFormatError(path, f"invalid int16 scaling (slope, offset) = {scal}")
    if nchar < 0 or nchar > len(raw):
        raise BtsFormatError(path, f"description length {nchar} is impossible")
    return dict(
        file_id=file_id,
        nz=nz,
        ny=ny,
        ntwr=ntwr,
        nt=nt,
        dz=dz,
        dy=dy,
        dt=dt,
        uhub=uhub,
        zhub=zhub,
        zbottom=zbottom,
        slope=np.array(scal[0::2], dtype=np.float32),
        offset=np.array(scal[1::2], dtype=np.float32),
        nchar=nchar,
    )


def read_bts(path: str | os.PathLike) -> xr.Dataset:
    """Read a TurbSim binary full-field file.

    Parameters
    ----------
    path : str or path-like
        The ``.bts`` file.

    Returns
    -------
    xarray.Dataset
        Data variables ``u``, ``v``, ``w`` (m/s, float32) on dims (``time``, ``y``, ``z``)
        -- ``time`` (s) from 0, ``y`` (m) lateral, centred on the hub, positive to the left
        looking downwind, ``z`` (m) height above the ground as TurbSim gives it. When the file
        has tower points: ``u_tower``, ``v_tower``, ``w_tower`` on (``time``, ``z_tower``), with
        ``z_tower`` going down from the grid bottom. Attributes ``uhub`` (m/s), ``zhub`` (m),
        ``description``, ``periodic`` (1 or 0), ``file_id``, ``zbottom``, ``dz``, ``dy``, ``dt``
        and the int16 scaling ``slope_u`` ... ``offset_w``.

    Raises
    ------
    BtsFormatError
        Truncated file, wrong file id, impossible header values.
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise BtsFormatError(path, f"cannot read it ({exc.strerror})") from exc
    h = _parse_header(path, raw)
    start = _HEADER.size + h["nchar"]
    npts = h["nz"] * h["ny"] + h["ntwr"]
    need = start + h["nt"] * npts * 3 * 2
    if len(raw) < need:
        n_full = max(len(raw) - start, 0) // (npts * 6)
        raise BtsFormatError(
            path,
            f"truncated: header announces {h['nt']} time steps of {npts} points "
            f"({need} bytes) but the file has {len(raw)} bytes ({n_full} complete steps)",
        )
    if len(raw) > need:
        raise BtsFormatError(
            path, f"{len(raw) - need} unexpected bytes after the last time step (header mismatch?)"
        )
    desc = raw[_HEADER.size : start].decode("ascii", errors="replace").strip()
    data = np.frombuffer(raw, dtype="<i2", count=h["nt"] * npts * 3, offset=start)
    data = data.reshape(h["nt"], npts, 3)
    slope, offset = h["slope"], h["offset"]
    ngrid = h["nz"] * h["ny"]
    time = np.arange(h["nt"]) * np.float64(h["dt"])
    y = (np.arange(h["ny"]) - (h["ny"] - 1) / 2.0) * np.float64(h["dy"])
    z = np.float64(h["zbottom"]) + np.arange(h["nz"]) * np.float64(h["dz"])
    coords = {
        "time": ("time", time, {"units": "s", "long_name": "time"}),
        "y": ("y", y, {"units": "m", "long_name": "lateral position, left looking downwind"}),
        "z": ("z", z, {"units": "m", "long_name": "height above the ground"}),
    }
    variables = {}
    names = {"u": "longitudinal", "v": "lateral", "w": "vertical"}
    for k, c in enumerate(_COMPONENTS):
        grid = data[:, :ngrid, k].reshape(h["nt"], h["nz"], h["ny"])
        vals = ((grid.astype(np.float32) - offset[k]) / slope[k]).transpose(0, 2, 1)
        variables[c] = (
            ("time", "y", "z"),
            vals,
            {"units": "m/s", "long_name": f"{names[c]} wind velocity"},
        )
    if h["ntwr"] > 0:
        coords["z_tower"] = (
            "z_tower",
            np.float64(h["zbottom"]) - np.arange(h["ntwr"]) * np.float64(h["dz"]),
            {"units": "m", "long_name": "tower point height above the ground"},
        )
        for k, c in enumerate(_COMPONENTS):
            vals = (data[:, ngrid:, k].astype(np.float32) - offset[k]) / slope[k]
            variables[f"{c}_tower"] = (
                ("time", "z_tower"),
                vals,
                {"units": "m/s", "long_name": f"{names[c]} wind velocity on the tower line"},
            )
    attrs = {
        "uhub": float(h["uhub"]),
        "zhub": float(h["zhub"]),
        "description": desc,
        "periodic": int(h["file_id"] == 8),
        "file_id": int(h["file_id"]),
        "zbottom": float(h["zbottom"]),
        "dz": float(h["dz"]),
        "dy": float(h["dy"]),
        "dt": float(h["dt"]),
        "source": str(path),
    }
    for k, c in enumerate(_COMPONENTS):
        attrs[f"slope_{c}"] = float(slope[k])
        attrs[f"offset_{c}"] = float(offset[k])
    logger.debug("read %s: nt=%d nz=%d ny=%d ntwr=%d", path, h["nt"], h["nz"], h["ny"], h["ntwr"])
    import xarray as xr  # here: importing turbsim_io must not import xarray (and pandas)

    return xr.Dataset(variables, coords=coords, attrs=attrs)


def _uniform_step(values: np.ndarray, name: str) -> float:
    values = np.asarray(values, dtype=float)
    if values.size < 2:
        raise ValueError(f"write_bts: coordinate '{name}' needs at least 2 values")
    d = np.diff(values)
    if not np.allclose(d, d[0], rtol=1e-5, atol=1e-9) or d[0] <= 0:
        raise ValueError(f"write_bts: coordinate '{name}' must be increasing and uniform")
    return float(d[0])


def write_bts(
    path: str | os.PathLike,
    ds: xr.Dataset,
    *,
    description: str | None = None,
    periodic: bool | None = None,
) -> None:
    """Write a full-field wind ``Dataset`` as a TurbSim ``.bts`` file.

    Parameters
    ----------
    path : str or path-like
        Output file.
    ds : xarray.Dataset
        As returned by :func:`read_bts`: ``u``, ``v``, ``w`` (m/s) on (``time``, ``y``, ``z``)
        (any order of those dims), uniform coordinates, ``y`` centred on 0; optional
        ``u_tower``, ``v_tower``, ``w_tower`` on (``time``, ``z_tower``), whose first point must be
        the grid bottom and spacing ``dz`` downwards. Attributes ``uhub`` and ``zhub`` are
        required.
    description : str, optional
        Overrides ``ds.attrs["description"]`` (ASCII, at most 200 characters kept).
    periodic : bool, optional
        Overrides ``ds.attrs["periodic"]``; file id 8 when periodic, 7 otherwise.

    Notes
    -----
    Scaling follows TurbSim: per component, the full int16 range spans the component's minimum
    to maximum over grid and tower points, so values are recovered to within half a count.
    """
    for c in _COMPONENTS:
        if c not in ds:
            raise ValueError(f"write_bts: dataset has no variable '{c}'")
    for key in ("uhub", "zhub"):
        if key not in ds.attrs:
            raise ValueError(f"write_bts: dataset attrs lack '{key}'")
    grid = [np.asarray(ds[c].transpose("time", "z", "y").values, dtype=np.float64) for c in "uvw"]
    nt, nz, ny = grid[0].shape
    dt = _uniform_step(ds["time"].values, "time")
    dz = _uniform_step(ds["z"].values, "z")
    dy = _uniform_step(ds["y"].values, "y")
    y = np.asarray(ds["y"].values, dtype=float)
    if abs(y[0] + y[-1]) > 1e-6 * max(1.0, abs(y[0])):
        raise ValueError("write_bts: 'y' must be centred on 0 as TurbSim lays it out")
    zbottom = float(ds["z"].values[0])
    tower = None
    if "u_tower" in ds:
        tower = [
            np.asarray(ds[f"{c}_tower"].transpose("time", "z_tower").values, dtype=np.float64)
            for c in _COMPONENTS
        ]
        zt = np.asarray(ds["z_tower"].values, dtype=float)
        expect = zbottom - np.arange(zt.size) * dz
        if not np.allclose(zt, expect, atol=1e-4):
            raise ValueError(
                "write_bts: z_tower must start at the grid bottom and go down by dz "
                "(TurbSim's layout)"
            )
    ntwr = 0 if tower is None else tower[0].shape[1]
    if periodic is None:
        periodic = bool(ds.attrs.get("periodic", 0))
    desc = description if description is not None else str(ds.attrs.get("description", ""))
    desc_b = desc.encode("ascii", errors="replace")[:200]

    slope = np.empty(3, dtype=np.float32)
    offset = np.empty(3, dtype=np.float32)
    ints = []
    for k in range(3):
        allv = grid[k] if tower is None else np.concatenate([grid[k].ravel(), tower[k].ravel()])
        vmin, vmax = float(np.min(allv)), float(np.max(allv))
        if not (np.isfinite(vmin) and np.isfinite(vmax)):
            raise ValueError(f"write_bts: component {_COMPONENTS[k]} has non-finite values")
        slope[k] = np.float32(1.0 if vmax == vmin else (_INT_MAX - _INT_MIN) / (vmax - vmin))
        offset[k] = np.float32(_INT_MIN - slope[k] * np.float32(vmin))
    for k in range(3):
        parts = [grid[k].reshape(nt, nz * ny)]
        if tower is not None:
            parts.append(tower[k])
        vals = np.concatenate(parts, axis=1) * np.float64(slope[k]) + np.float64(offset[k])
        ints.append(np.rint(np.clip(vals, _INT_MIN, _INT_MAX)).astype("<i2"))
    body = np.stack(ints, axis=-1)  # (nt, npts, 3)
    header = _HEADER.pack(
        8 if periodic else 7,
        nz,
        ny,
        ntwr,
        nt,
        dz,
        dy,
        dt,
        float(ds.attrs["uhub"]),
        float(ds.attrs["zhub"]),
        zbottom,
        slope[0],
        offset[0],
        slope[1],
        offset[1],
        slope[2],
        offset[2],
        len(desc_b),
    )
    with open(path, "wb") as fh:
        fh.write(header)
        fh.write(desc_b)
        fh.write(np.ascontiguousarray(body).tobytes())
    logger.debug("wrote %s: nt=%d nz=%d ny=%d ntwr=%d", path, nt, nz, ny, ntwr)
