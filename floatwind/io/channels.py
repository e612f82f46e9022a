"""One table of output-variable attributes: every channel's units and long name (SI).

Channel names follow OpenFAST where one exists, the dissertation otherwise. Loads add their own
channels through ``Load.channel_info``.

A channel without units and a description is an error where it is *defined*, never a silent "1"
at run time: :func:`check_channel_info` checks a set of declared channels and is applied to this
table at import, to every load when it is constructed (``floatwind.loads.base.Load``; a fixed set
declared on a load class is checked when the class is created) and to an extra-channels function
declared with :func:`declare_channels`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

_TABLE: dict[str, tuple[str, str]] = {
    # OpenFAST platform channels at the platform reference point (PRP), SI units
    "PtfmSurge": ("m", "platform surge displacement of the reference point, inertial x"),
    "PtfmSway": ("m", "platform sway displacement of the reference point, inertial y"),
    "PtfmHeave": ("m", "platform heave displacement of the reference point, inertial z"),
    "PtfmRoll": ("rad", "platform roll (OpenFAST v5 Z-Y-X Tait-Bryan angle phi)"),
    "PtfmPitch": ("rad", "platform pitch (OpenFAST v5 Z-Y-X Tait-Bryan angle theta)"),
    "PtfmYaw": ("rad", "platform yaw (OpenFAST v5 Z-Y-X Tait-Bryan angle psi)"),
    "PtfmTVxi": ("m/s", "reference point velocity, inertial x"),
    "PtfmTVyi": ("m/s", "reference point velocity, inertial y"),
    "PtfmTVzi": ("m/s", "reference point velocity, inertial z"),
    "PtfmRVxi": ("rad/s", "platform angular velocity, inertial x"),
    "PtfmRVyi": ("rad/s", "platform angular velocity, inertial y"),
    "PtfmRVzi": ("rad/s", "platform angular velocity, inertial z"),
    "PtfmTAxi": ("m/s^2", "reference point acceleration, inertial x"),
    "PtfmTAyi": ("m/s^2", "reference point acceleration, inertial y"),
    "PtfmTAzi": ("m/s^2", "reference point acceleration, inertial z"),
    "PtfmRAxi": ("rad/s^2", "platform angular acceleration, inertial x"),
    "PtfmRAyi": ("rad/s^2", "platform angular acceleration, inertial y"),
    "PtfmRAzi": ("rad/s^2", "platform angular acceleration, inertial z"),
    # Wang's state (system CM and 1-2-3 Euler angles of the base body)
    "X1": ("m", "system CM G_s, inertial x (Wang X1)"),
    "X2": ("m", "system CM G_s, inertial y (Wang X2)"),
    "X3": ("m", "system CM G_s, inertial z (Wang X3)"),
    "X4": ("rad", "base body 1-2-3 Euler angle X4 (roll, Wang 3.13)"),
    "X5": ("rad", "base body 1-2-3 Euler angle X5 (pitch, Wang 3.13)"),
    "X6": ("rad", "base body 1-2-3 Euler angle X6 (yaw, Wang 3.13)"),
    "X1d": ("m/s", "rate of X1"),
    "X2d": ("m/s", "rate of X2"),
    "X3d": ("m/s", "rate of X3"),
    "X4d": ("rad/s", "rate of X4"),
    "X5d": ("rad/s", "rate of X5"),
    "X6d": ("rad/s", "rate of X6"),
    "X1b": ("m", "base body CM, inertial x (Wang X1b)"),
    "X2b": ("m", "base body CM, inertial y (Wang X2b)"),
    "X3b": ("m", "base body CM, inertial z (Wang X3b)"),
    # totals of external loads
    "ExtFx": ("N", "total external force incl. added-mass reaction, inertial x"),
    "ExtFy": ("N", "total external force, inertial y"),
    "ExtFz": ("N", "total external force, inertial z"),
    "ExtMx": ("N m", "total external moment about the system CM G_s, inertial x"),
    "ExtMy": ("N m", "total external moment about the system CM G_s, inertial y"),
    "ExtMz": ("N m", "total external moment about the system CM G_s, inertial z"),
    "HGsx": ("kg m^2/s", "angular momentum about G_s, C_s x (Wang 5.17)"),
    "HGsy": ("kg m^2/s", "angular momentum about G_s, C_s y (Wang 5.17)"),
    "HGsz": ("kg m^2/s", "angular momentum about G_s, C_s z (Wang 5.17)"),
}


# internal loads from inverse dynamics (floatwind.multibody.inverse), OpenFAST names
for _ax in "xyz":
    _TABLE[f"YawBrF{_ax}p"] = (
        "N", f"load of the RNA on the tower top (yaw bearing), force, platform {_ax} axis")
    _TABLE[f"YawBrM{_ax}p"] = (
        "N m",
        f"load of the RNA on the tower top (yaw bearing), moment about it, platform {_ax} axis")
    _TABLE[f"TwrBsF{_ax}t"] = (
        "N", f"load of the tower + RNA on the platform at the tower base, force, platform {_ax} axis")
    _TABLE[f"TwrBsM{_ax}t"] = (
        "N m", f"load of the tower + RNA on the platform at the tower base, moment about it, "
        f"platform {_ax} axis")
    for _k in (1, 2, 3):
        _TABLE[f"RootF{_ax}b{_k}"] = (
            "N", f"load of blade {_k} on the hub at its root, force, pitched blade-{_k} {_ax} axis")
        _TABLE[f"RootM{_ax}b{_k}"] = (
            "N m", f"load of blade {_k} on the hub at its root, moment about the root, pitched "
            f"blade-{_k} {_ax} axis")
for _ax in "ABC":
    _TABLE[f"Mgyro{_ax}"] = (
        "N m", f"gyroscopic moment of the spinning rotor on the tower top, nacelle axis {_ax} "
        "(Wang 3.28)")
    _TABLE[f"MRNA{_ax}"] = ("N m", f"RNA inertial moment on the tower top, nacelle axis {_ax} (Wang 3.27)")
del _ax, _k


class ChannelDefinitionError(TypeError):
    """A channel declared without units and a description (a programming error in the code that
    declares it, raised where it is declared: at import, class creation or construction)."""


def check_channel_info(info: Any, owner: str) -> dict[str, tuple[str, str]]:
    """``info`` (``{name: (units, description)}``) as a dict, each entry checked: a non-empty name
    and two non-empty strings (units ``"1"`` or ``"-"`` for a dimensionless channel). Otherwise
    :class:`ChannelDefinitionError` naming ``owner`` (the load, the table) and the channel."""
    if not isinstance(info, Mapping):
        raise ChannelDefinitionError(
            f"{owner}: channels are declared as {{name: (units, description)}}, got "
            f"{type(info).__name__}"
        )
    for name, attrs in info.items():
        if not isinstance(name, str) or not name:
            raise ChannelDefinitionError(f"{owner}: a channel name must be a non-empty string, "
                                         f"got {name!r}")  # fmt: skip
        if not (isinstance(attrs, (tuple, list)) and len(attrs) == 2
                and all(isinstance(a, str) and a.strip() for a in attrs)):  # fmt: skip
            raise ChannelDefinitionError(
                f"{owner}: output channel {name!r} has no units and description: declare it as "
                f"{name!r}: (units, description) ('1' or '-' for a dimensionless one), got "
                f"{attrs!r}"
            )
    return {name: (attrs[0], attrs[1]) for name, attrs in info.items()}


def declare_channels(info: Mapping[str, tuple[str, str]]) -> Callable:
    """Decorator of an extra-channels function (``simulate(..., extra_channels=f)``): checks
    ``info`` when the function is defined and attaches it as ``f.channel_info``."""

    def wrap(fn: Callable) -> Callable:
        fn.channel_info = check_channel_info(info, getattr(fn, "__qualname__", repr(fn)))
        return fn

    return wrap


check_channel_info(_TABLE, "floatwind.io.channels")

#: the table, read-only (issue 23: no module changes it at import or run time; a load declares
#: its own channels in ``channel_info()``, an extra-channels function in ``.channel_info``)
CHANNELS = MappingProxyType(_TABLE)


def channel_attrs(name: str, extra: dict[str, tuple[str, str]] | None = None) -> dict[str, str]:
    """``{'units': ..., 'long_name': ...}`` for ``name`` (KeyError if it is unknown)."""
    if extra and name in extra:
        units, long_name = extra[name]
    else:
        units, long_name = CHANNELS[name]
    return {"units": units, "long_name": long_name}
