"""The compiled tables of seas and wind fields (``floatwind._kernels.contract``).

A sea exposes its table as a :class:`SeaTable` (named fields, read by name in the Morison
kernel); a wind field as ``(kernel, params)`` with ``(vel (B, P, 3), status) = kernel(params,
t, points (B, P, 3))``. :func:`sea_table` and :func:`wind_kernel` are the one place that knows
which sea and wind classes have a compiled form; anything else raises
:class:`~floatwind._kernels.contract.NoCompiledForm` with the reason.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from floatwind._kernels.contract import NoCompiledForm, f64

__all__ = ["SeaTable", "WindParams", "sea_table", "wind_params"]


class SeaTable(NamedTuple):
    """An :class:`~floatwind.environment.fastkin.ExpansionSea`'s compiled table (or still water,
    ``active`` False): the fields of its kernels in ``floatwind._kernels.waves``."""

    active: bool
    table: np.ndarray  # (M, R, C) complex64 series on the time step dt
    dt: float
    cos: float  # heading
    sin: float
    mode: int  # stretching: 0 none, 1 vertical, 2 Wheeler
    h: float  # depth (0: deep water)
    hw: float  # depth for Wheeler stretching (1e6: deep water)
    s_eta_p: np.ndarray  # elevation reference offsets per point
    grp: np.ndarray  # elevation group per point
    k_eta: np.ndarray  # elevation node wavenumbers
    q_eta: int  # first kinematics column of the table
    starts: np.ndarray  # first node per point
    orders: np.ndarray  # nodes per point
    k_q: np.ndarray  # node wavenumbers
    sref_q: np.ndarray  # node reference offsets
    w_q: np.ndarray  # node weights
    eta_runs: tuple  # waves.node_runs of the elevation nodes
    point_runs: tuple  # waves.point_runs of the kinematics nodes


_E1 = np.zeros(0)
_I0 = np.zeros(0, dtype=np.int64)
_NO_RUNS = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros((0, 3)))


def _still() -> SeaTable:
    return SeaTable(
        active=False,
        table=np.zeros((1, 1, 1), dtype=np.complex64),
        dt=1.0,
        cos=1.0,
        sin=0.0,
        mode=0,
        h=0.0,
        hw=1e6,
        s_eta_p=_E1,
        grp=_I0,
        k_eta=_E1,
        q_eta=0,
        starts=_I0,
        orders=_I0,
        k_q=_E1,
        sref_q=_E1,
        w_q=_E1,
        eta_runs=_NO_RUNS,
        point_runs=_NO_RUNS + (np.zeros(1, dtype=np.int64),),
    )


def sea_table(sea, batch: int) -> SeaTable:
    """The compiled table of ``sea`` for a batch of ``batch`` members."""
    from floatwind.environment.base import StillWater
    from floatwind.environment.fastkin import ExpansionSea

    if sea is None or isinstance(sea, StillWater):
        return _still()
    if not isinstance(sea, ExpansionSea):
        raise NoCompiledForm(f"sea kinematics by {type(sea).__name__} (needs the expansion table)")
    if sea.orders.min() <= 0:
        raise NoCompiledForm("an expansion point without interpolation nodes")
    if sea.n_realizations not in (1, batch):
        raise NoCompiledForm("sea realizations do not match the batch")
    c = sea._jit_consts()
    h = sea._h if sea._h is not None else 0.0
    hw = sea._h if sea._h is not None else 1e6
    return SeaTable(
        active=True,
        table=sea.table,
        dt=float(sea.dt),
        cos=float(sea.cos),
        sin=float(sea.sin),
        mode=int(c["mode"]),
        h=float(h),
        hw=float(hw),
        s_eta_p=c["s_eta_p"],
        grp=c["grp"],
        k_eta=c["k_eta"],
        q_eta=int(sea._q_eta),
        starts=c["starts"],
        orders=c["orders"],
        k_q=c["k_q"],
        sref_q=c["sref_q"],
        w_q=c["w_q"],
        eta_runs=c["eta_runs"],
        point_runs=c["point_runs"],
    )


class WindParams(NamedTuple):
    """A wind field's compiled table (``floatwind._kernels.wind.wind_velocity``): ``kind`` 0 no
    wind, 1 steady power law, 2 steady log law, 3 full field (TurbSim grid); an IEC transient
    (``TransientWind`` from ``direction_shift``, ``iec_edc``, ``iec_eog``) on that base field
    adds a direction change ``dir_kind`` (0 none, 1 shift, 2 EDC: ``RampedDirection``) and a
    gust ``gust_kind`` (0 none, 1 EOG: ``OperatingGust``)."""

    kind: int
    speed: float  # steady: speed at ref_height
    cos: float  # heading
    sin: float
    ref_height: float
    alpha: float
    roughness: float
    grid: np.ndarray  # full field: (R, T, Ny, Nz, 3)
    y: np.ndarray
    z: np.ndarray
    x_offset: float
    uhub: float
    dt: float
    periodic: bool
    has_tower: bool
    # transient (TransientWind) on the base field above
    base_heading: float  # the base field's heading (the gust's direction before the change)
    dir_kind: int
    dir_start: float
    dir_amplitude: float
    dir_duration: float
    gust_kind: int
    gust_start: float
    gust_amplitude: float  # V_gust
    gust_period: float


_NO_GRID = np.zeros((1, 2, 2, 2, 3))
#: no wind; the other fields' values where a kind does not use them (the same types for every
#: kind, so the kernels are compiled once)
_NO_WIND = WindParams(
    kind=0,
    speed=0.0,
    cos=1.0,
    sin=0.0,
    ref_height=1.0,
    alpha=0.0,
    roughness=1.0,
    grid=_NO_GRID,
    y=_E1,
    z=_E1,
    x_offset=0.0,
    uhub=1.0,
    dt=1.0,
    periodic=False,
    has_tower=False,
    base_heading=0.0,
    dir_kind=0,
    dir_start=0.0,
    dir_amplitude=0.0,
    dir_duration=0.0,
    gust_kind=0,
    gust_start=0.0,
    gust_amplitude=0.0,
    gust_period=1.0,
)


def wind_params(wind, batch: int) -> WindParams:
    """The compiled table of a wind field for a batch of ``batch`` members."""
    from floatwind.environment.base import NoWind
    from floatwind.environment.wind import (
        FullFieldWind,
        OperatingGust,
        RampedDirection,
        SteadyWind,
        TransientWind,
    )

    if wind is None or isinstance(wind, NoWind):
        return _NO_WIND
    if type(wind) is SteadyWind:
        return _NO_WIND._replace(
            kind=1 if wind.shear == "power" else 2,
            speed=float(wind.speed),
            cos=float(np.cos(wind.heading)),
            sin=float(np.sin(wind.heading)),
            ref_height=float(wind.ref_height),
            alpha=float(wind.alpha),
            roughness=float(wind.roughness),
        )
    if type(wind) is FullFieldWind:
        if wind.n_realizations not in (1, batch):
            raise NoCompiledForm("wind realizations do not match the batch")
        return _NO_WIND._replace(
            kind=3,
            cos=float(np.cos(wind.heading)),
            sin=float(np.sin(wind.heading)),
            grid=f64(wind.grid),
            y=f64(wind.y),
            z=f64(wind.z),
            x_offset=float(wind.x_offset),
            uhub=float(wind.uhub),
            dt=float(wind.dt),
            periodic=bool(wind.periodic),
            has_tower=wind.tower is not None,
        )
    if type(wind) is TransientWind:
        base = wind_params(wind.base, batch)
        if base.dir_kind or base.gust_kind:
            raise NoCompiledForm("a transient wind on a transient wind")
        direction, gust = wind._direction, wind._gust
        if direction is None:
            d = (0, 0.0, 0.0, 0.0)
        elif type(direction) is RampedDirection:
            d = direction.spec()
        else:
            raise NoCompiledForm(
                "transient wind with a direction change given as a Python function (the ones "
                "of direction_shift and iec_edc are compiled)"
            )
        if gust is None:
            g = (0, 0.0, 0.0, 1.0)
        elif type(gust) is OperatingGust:
            g = gust.spec()
        else:
            raise NoCompiledForm(
                "transient wind with a gust given as a Python function (the one of iec_eog is "
                "compiled)"
            )
        heading = float(getattr(wind.base, "heading", 0.0))
        return base._replace(
            base_heading=heading,
            dir_kind=int(d[0]),
            dir_start=float(d[1]),
            dir_amplitude=float(d[2]),
            dir_duration=float(d[3]),
            gust_kind=int(g[0]),
            gust_start=float(g[1]),
            gust_amplitude=float(g[2]),
            gust_period=float(g[3]),
        )
    raise NoCompiledForm(f"wind of type {type(wind).__name__}")
