"""The OpenFAST internal-load channels of a tree (YawBr*, TwrBs*, Root*b1..b3, Wang's gyroscopic and
RNA moments) as an ``extra_channels`` function: built on the inverse dynamics of
:mod:`floatwind.multibody.inverse` and the moments of :mod:`floatwind.multibody.gyro` (which
itself uses the inverse dynamics, so this module sits above both)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from floatwind.multibody import gyro
from floatwind.multibody.inverse import joint_loads, wrench_parts
from floatwind.multibody.tree import Tree

__all__ = ["channels_for"]


def channels_for(
    tree: Tree, spec: dict | None = None, skip: tuple[str, ...] = ()
) -> Callable[[object], dict[str, np.ndarray]]:
    """An ``extra_channels`` function for :func:`floatwind.simulate.simulate`.

    ``spec`` maps a channel prefix to a joint; the default picks the OpenFAST channels where the
    tree has the joints of :mod:`floatwind.multibody.topologies`:

    * ``tower_base`` (or ``tower``) joint -> ``TwrBsFxt..TwrBsMzt`` (parent = platform axes);
    * ``yaw`` joint -> ``YawBrFxp..YawBrMzp`` (parent = tower axes) and, with a ``spin`` joint,
      the gyroscopic/RNA moments ``MgyroA..C``, ``MRNAA..C`` (Wang 3.27-3.28);
    * ``pitch1`` joint -> ``RootFxb1..RootMzb1`` (child = pitched blade-1 axes), and likewise
      ``pitch2``, ``pitch3`` -> ``Root*b2``, ``Root*b3`` (spec keys ``Root2``, ``Root3``).

    Extra entries ``{prefix: (joint, axes)}`` give channels ``{prefix}F{x,y,z}`` and
    ``{prefix}M{x,y,z}`` (their units in the returned function's ``channel_info``). ``skip``
    leaves prefixes of the default out (a flexible tower writes its own YawBr*, TwrBs*:
    ``floatwind.simulate.outputs.default_extra_channels``).
    """
    names = {j.name for j in tree.joint_of.values()}
    items: list[tuple[str, str, str, str]] = []  # (kind, joint, axes, suffix-pattern)
    info: dict[str, tuple[str, str]] = {}  # units of the channels outside the table
    if spec is None:
        spec = {}
        if "yaw" in names:
            spec["YawBr"] = ("yaw", "parent")
        # the tower on a joint of its own: topology tower_base, or an imported --split deck
        for base in ("tower_base", "tower"):
            if base in names:
                spec["TwrBs"] = (base, "parent")
                break
        if "pitch1" in names:
            spec["Root"] = ("pitch1", "child")
        for k in (2, 3):  # blades 2 and 3 on pitch joints of their own (six_body)
            if f"pitch{k}" in names:
                spec[f"Root{k}"] = (f"pitch{k}", "child")
        for prefix in skip:
            spec.pop(prefix, None)
    for prefix, (joint, axes) in spec.items():
        if prefix == "YawBr":
            items.append((prefix, joint, axes, "{p}{q}{ax}p"))
        elif prefix == "TwrBs":
            items.append((prefix, joint, axes, "{p}{q}{ax}t"))
        elif prefix == "Root":
            items.append((prefix, joint, axes, "{p}{q}{ax}b1"))
        elif prefix in ("Root2", "Root3"):
            items.append(("Root", joint, axes, "{p}{q}{ax}b" + prefix[-1]))
        else:
            items.append((prefix, joint, axes, "{p}{q}{ax}"))
            for q, u in (("F", "N"), ("M", "N m")):
                for ax in "xyz":
                    info[f"{prefix}{q}{ax}"] = (u, f"load at joint {joint}, {axes} {ax} axis")
    gyro_on = "yaw" in names and "spin" in names

    def extra(ev) -> dict[str, np.ndarray]:
        out = {}
        # shared by every joint's balance and the RNA moment (the same numbers, once)
        parts = wrench_parts(tree, ev) if items or gyro_on else None
        for prefix, joint, axes, pat in items:
            F, M = joint_loads(tree, ev, joint, axes=axes, parts=parts)
            for k, ax in enumerate("xyz"):
                out[pat.format(p=prefix, q="F", ax=ax)] = F[:, k]
                out[pat.format(p=prefix, q="M", ax=ax)] = M[:, k]
        if gyro_on:
            out.update(gyro.gyro_channels(tree, ev, parts=parts))
        return out

    extra.channel_info = info  # read by floatwind.simulate.outputs.to_dataset
    return extra
