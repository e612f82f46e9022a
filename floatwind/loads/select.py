"""Per-member choice between loads of the same kind (a study's control variants in one batch)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from floatwind._kernels.contract import CompiledLoad, NoCompiledForm, i64
from floatwind.loads.base import Load, Wrench

__all__ = ["SelectLoad"]


class SelectLoad(Load):
    """Per-member choice between loads of the same kind (control variants in one batch).

    Every candidate is evaluated on the whole batch and member ``b`` takes the wrench and channels
    of ``loads[choice[b]]``; loads are batch-invariant, so each member gets exactly what it would
    get alone. No physics here.
    """

    def __init__(self, loads: list[Load], choice: np.ndarray):
        self.loads = list(loads)
        self.choice = np.asarray(choice, dtype=int)
        self.name = self.loads[0].name

    def accepts_time_array(self, env) -> bool:
        return all(ld.accepts_time_array(env) for ld in self.loads)

    def wrench(self, t, kin, env) -> Wrench:
        ws = [ld.wrench(t, kin, env) for ld in self.loads]
        out = ws[0]
        choice = self.choice
        if kin.batch != choice.size and kin.batch % choice.size == 0:
            # several times stacked on the batch axis, time-major (System.evaluate_many)
            choice = np.tile(choice, kin.batch // choice.size)
        for k, w in enumerate(ws[1:], start=1):
            m = choice == k
            if not m.any():
                continue
            out.force = np.where(m[:, None, None], w.force, out.force)
            out.moment = np.where(m[:, None, None], w.moment, out.moment)
            if w.added_mass is not None or out.added_mass is not None:
                a0 = out.added_mass if out.added_mass is not None else np.zeros_like(w.added_mass)
                a1 = w.added_mass if w.added_mass is not None else np.zeros_like(a0)
                out.added_mass = np.where(m[:, None, None, None], a1, a0)
            for name, val in w.channels.items():
                base = out.channels.get(name)
                if base is None:
                    continue
                shape = (-1,) + (1,) * (np.ndim(val) - 1)
                out.channels[name] = np.where(m.reshape(shape), val, base)
        return out

    class Params(NamedTuple):
        choice: np.ndarray  # (B,) candidate index per member
        candidates: tuple  # the params of each candidate's compiled form
        adds_mass: bool

    def compiled(self, env, batch):
        """The candidates' compiled forms as children: each runs on the whole batch and member
        ``b`` keeps candidate ``choice[b]`` (floatwind.simulate.generate)."""
        parts = []
        for ld in self.loads:
            c = ld.compiled(env, batch)
            if c is None:
                raise NoCompiledForm(
                    f"candidate {getattr(ld, 'name', '?')!r} ({type(ld).__name__}) has no "
                    "compiled form"
                )
            parts.append(c)
        adds = any(c.adds_mass for c in parts)
        p = self.Params(
            choice=i64(np.broadcast_to(self.choice, (batch,))),
            candidates=tuple(c.params for c in parts),
            adds_mass=adds,
        )
        return CompiledLoad(None, p, adds, tuple(parts))

    def channel_info(self):
        info = {}
        for ld in self.loads:
            info.update(ld.channel_info())
        return info
