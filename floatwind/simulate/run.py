"""Run one model (a batch of B members in lockstep): the scheme of its formulation and integrator,
looked up in :mod:`floatwind.simulate.schemes`, steps it and returns the xarray Dataset."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from floatwind.io.result import Result
from floatwind.model import Model
from floatwind.simulate.outputs import LIGHT, check_channel_names, output_times
from floatwind.simulate.sanity import check_step_count
from floatwind.simulate.schemes import progress_bar, scheme_for
from floatwind.simulate.system import Evaluation

if TYPE_CHECKING:
    import xarray as xr


def simulate(
    model: Model,
    *,
    y0: np.ndarray | None = None,
    progress: bool | None = None,
    extra_channels: Callable[[Evaluation], dict[str, np.ndarray]] | None = None,
    channels: list[str] | None = None,
    light: bool = False,
) -> xr.Dataset | Result:
    """Run ``model`` and return the result Dataset.

    Parameters
    ----------
    model : Model
    y0 : (B, 12) or (B, n_y), optional
        Initial state [q, qd] overriding the model's initial conditions (the loads' own states,
        when not given, start at their ``initial_states``).
    progress : bool, optional
        Show a tqdm bar (default: when stderr is a terminal).
    extra_channels : callable, optional
        ``fn(Evaluation) -> {name: (B,) array}`` adding output channels; by default, for a model
        with more than one body, the inverse-dynamics channels of
        :func:`floatwind.multibody.channels_for` (YawBr*, Root*b1, MgyroA..C, MRNAA..C).
        Channels outside the channel table need units and a description: the function's
        attribute ``channel_info = {name: (units, long_name)}``; a channel without them is an
        error (never a silent unit "1").
    channels : list of str, optional
        Keep only these output channels (those the model has); when they need neither the
        accelerations nor other loads, the outputs skip them
        (:func:`floatwind.simulate.outputs.to_dataset`). A name that is no channel at all
        (:func:`floatwind.simulate.outputs.known_channels`) is a ``CaseError`` with the closest
        names.

    The scheme of the model's formulation and integrator (:func:`~floatwind.simulate.schemes.
    scheme_for`) checks what it cannot run, then steps.

    Raises
    ------
    CaseError
        An unknown channel name or formulation; what the scheme refuses (``Scheme.check``).
    SimulationError
        An unknown integrator (at time 0). When the run diverges; its ``dataset`` attribute holds the outputs up to the last good
        output time (the CLI writes them).
    """
    if channels is not None:
        if isinstance(channels, str) or not all(isinstance(c, str) for c in channels):
            raise ValueError(
                f"simulate: 'channels' must be a list of channel names, got {channels!r}"
            )
        channels = list(channels)
        check_channel_names(model, channels)
    scheme = scheme_for(model)
    scheme.check(model, y0=y0, extra_channels=extra_channels)
    check_step_count(model)
    t_out = output_times(model.settings.t_max, model.settings.dt_out)
    bar = progress_bar(model, progress)
    token = LIGHT.set(bool(light))
    try:
        return scheme.run(
            model, t_out, y0=y0, progress=bar, extra_channels=extra_channels, channels=channels
        )
    finally:
        LIGHT.reset(token)
        if bar is not None:
            bar.close()
