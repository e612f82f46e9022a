"""Issue 23: a channel without units and description is an error where it is defined (the load's
class or its construction, an extra-channels function, the channel table), not a silent "1"
and not only when a run writes it."""

from __future__ import annotations

import pytest

from floatwind.io.channels import (
    CHANNELS,
    ChannelDefinitionError,
    check_channel_info,
    declare_channels,
)
from floatwind.loads.base import Load, Wrench


class _Quiet(Load):
    """A load that writes nothing; subclasses below only change their declared channels."""

    name = "quiet"

    def wrench(self, t, kin, env):  # pragma: no cover - never run here
        return Wrench.zeros(kin.batch, kin.n_bodies)


def test_a_load_whose_channel_has_no_units_fails_at_construction():
    class NoUnits(_Quiet):
        name = "nounits"

        def channel_info(self):
            return {"GoodFx": ("N", "a declared force"), "BadFx": ("", "a force without units")}

    with pytest.raises(ChannelDefinitionError, match=r"load .*NoUnits \(name 'nounits'\): "
                                                     r"output channel 'BadFx' has no units"):  # fmt: skip
        NoUnits()


@pytest.mark.parametrize("attrs", [None, "N", ("N",), ("N", ""), ("N", None), ("N", "x", "y")])
def test_every_malformed_declaration_is_refused(attrs):
    class Bad(_Quiet):
        def channel_info(self):
            return {"Chan": attrs}

    with pytest.raises(ChannelDefinitionError, match="'Chan' has no units and description"):
        Bad()


def test_a_fixed_channel_set_declared_on_the_class_fails_when_the_class_is_created():
    with pytest.raises(ChannelDefinitionError, match=r"load class .*Lazy: output channel 'LazyFx'"):

        class Lazy(_Quiet):  # noqa: F841 - never created: the class statement itself fails
            channel_info = {"LazyFx": "N"}

    class Fine(_Quiet):
        channel_info = {"FineFx": ("N", "a declared force")}

    assert Fine().channel_info() == {"FineFx": ("N", "a declared force")}


def test_state_channels_are_checked_too():
    class States(_Quiet):
        n_states = 1

        def state_info(self):
            return {n: ("", "") for n in self.state_names()}

    with pytest.raises(ChannelDefinitionError, match="'quiet_s1' has no units"):
        States()


def test_a_stateless_load_with_declared_channels_constructs():
    class Good(_Quiet):
        def channel_info(self):
            return {"GoodFx": ("N", "a declared force"), "GoodCt": ("-", "a coefficient")}

    assert set(Good().channel_info()) == {"GoodFx", "GoodCt"}


def test_an_extra_channels_function_is_checked_where_it_is_declared():
    with pytest.raises(ChannelDefinitionError, match="extra: output channel 'Mystery'"):

        @declare_channels({"Mystery": ("N", "")})
        def extra(ds):  # pragma: no cover - never created
            return {}

    @declare_channels({"Known": ("N", "a declared channel")})
    def fine(ds):  # pragma: no cover - not run here
        return {}

    assert fine.channel_info == {"Known": ("N", "a declared channel")}


def test_the_channel_table_and_every_shipped_load_declare_units():
    check_channel_info(CHANNELS, "table")
    assert check_channel_info({}, "empty") == {}
    with pytest.raises(ChannelDefinitionError, match="got list"):
        check_channel_info([("X", ("N", "x"))], "a list")
