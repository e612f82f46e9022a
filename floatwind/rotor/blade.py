"""Blade geometry of an AeroDyn blade file, checked, in SI units and radians."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from floatwind.errors import CaseError

__all__ = ["BladeGeometry"]


def _array(values: Any, name: str, file: str | None) -> np.ndarray:
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise CaseError(f"{name} must be numbers ({exc})", field=name, file=file) from None
    if arr.ndim != 1:
        raise CaseError(f"{name} must be a list of numbers, one per node", field=name, file=file)
    if not np.all(np.isfinite(arr)):
        raise CaseError(f"{name} has a value that is not a finite number", field=name, file=file)
    return arr


@dataclass(frozen=True)
class BladeGeometry:
    """The nodes of one blade (AeroDyn blade file columns, SI and radians).

    Attributes
    ----------
    span : (nn,) m
        BlSpn: distance along the (coned) pitch axis from the blade root; starts at 0 and
        increases.
    crv_ac, swp_ac : (nn,) m
        BlCrvAC (out of plane, positive downwind) and BlSwpAC (in plane, positive towards the
        trailing edge) offsets of the aerodynamic centre.
    crv_ang : (nn,) rad
        BlCrvAng.
    twist : (nn,) rad
        BlTwist (positive to feather, AeroDyn's theta without pitch).
    chord : (nn,) m
        BlChord, > 0.
    af_index : (nn,) int64
        0-based airfoil of each node (BlAFID - 1).
    file : str or None
        The blade file, named in errors.
    """

    span: np.ndarray
    crv_ac: np.ndarray
    swp_ac: np.ndarray
    crv_ang: np.ndarray
    twist: np.ndarray
    chord: np.ndarray
    af_index: np.ndarray
    file: str | None = None

    @classmethod
    def from_arrays(
        cls,
        *,
        span: Any,
        chord: Any,
        twist: Any,
        af_index: Any,
        crv_ac: Any = None,
        swp_ac: Any = None,
        crv_ang: Any = None,
        n_airfoils: int | None = None,
        file: str | None = None,
    ) -> BladeGeometry:
        """Checked geometry (``twist`` and ``crv_ang`` in radians, ``af_index`` 0-based).
        Raises :class:`~floatwind.errors.CaseError` naming the field."""
        s = _array(span, "BlSpn", file)
        n = s.size
        if n < 2:
            raise CaseError("a blade needs at least two nodes", field="NumBlNds", file=file)

        def col(v: Any, name: str) -> np.ndarray:
            if v is None:
                return np.zeros(n)
            arr = _array(v, name, file)
            if arr.size != n:
                raise CaseError(
                    f"{name} has {arr.size} values for {n} nodes", field=name, file=file
                )
            return arr

        c = col(chord, "BlChord")
        tw = col(twist, "BlTwist")
        crv = col(crv_ac, "BlCrvAC")
        swp = col(swp_ac, "BlSwpAC")
        ang = col(crv_ang, "BlCrvAng")
        idx_f = col(af_index, "BlAFID")
        if np.any(idx_f != np.round(idx_f)):
            raise CaseError("airfoil IDs must be integers", field="BlAFID", file=file)
        idx = idx_f.astype(np.int64)
        if abs(s[0]) > 1e-12:
            raise CaseError(f"the span must start at 0 m, not {s[0]:g}", field="BlSpn", file=file)
        steps = np.diff(s)
        if np.any(steps <= 0.0):
            k = int(np.argmax(steps <= 0.0))
            raise CaseError(
                f"the span must increase: node {k + 2} ({s[k + 1]:g} m) follows {s[k]:g} m",
                field="BlSpn",
                file=file,
            )
        if np.any(c <= 0.0):
            k = int(np.argmax(c <= 0.0))
            raise CaseError(f"the chord of node {k + 1} must be > 0", field="BlChord", file=file)
        if np.any(idx < 0) or (n_airfoils is not None and np.any(idx >= n_airfoils)):
            k = int(np.argmax((idx < 0) | (idx >= (n_airfoils or 1 << 62))))
            hi = f"1..{n_airfoils}" if n_airfoils is not None else ">= 1"
            raise CaseError(
                f"node {k + 1}: airfoil ID {idx[k] + 1} is outside {hi} (NumAFfiles)",
                field="BlAFID",
                file=file,
            )
        return cls(s, crv, swp, ang, tw, c, idx, file)

    @classmethod
    def from_blade_file(cls, blade: Any, *, n_airfoils: int | None = None) -> BladeGeometry:
        """From a blade file as read by ``floatwind.io.aerodyn.read_blade`` (``span``,
        ``crv_ac``, ``swp_ac``, ``crv_ang_deg``, ``twist_deg``, ``chord``, ``af_id`` 1-based)."""
        return cls.from_arrays(
            span=blade.span,
            crv_ac=blade.crv_ac,
            swp_ac=blade.swp_ac,
            crv_ang=np.radians(np.asarray(blade.crv_ang_deg, dtype=float)),
            twist=np.radians(np.asarray(blade.twist_deg, dtype=float)),
            chord=blade.chord,
            af_index=np.asarray(blade.af_id) - 1,
            n_airfoils=n_airfoils,
            file=str(getattr(blade, "path", "")) or None,
        )

    @property
    def n_nodes(self) -> int:
        return int(self.span.size)

    def root_frame_positions(self, hub_radius: float) -> np.ndarray:
        """(nn, 3) node positions (aerodynamic centres) from the hub centre in the blade's
        coned root frame (x out of plane downwind, y towards the trailing edge, z along the
        pitch axis): ``(BlCrvAC, BlSwpAC, HubRad + BlSpn)`` (AeroDyn ``Init_u``)."""
        return np.column_stack((self.crv_ac, self.swp_ac, hub_radius + self.span))

    def loss_distances(self, hub_radius: float) -> tuple[np.ndarray, float]:
        """``(z_local, z_hub)`` of the tip/hub losses (AeroDyn ``Init_BEMTmodule``):
        ``z_hub`` = HubRad, ``z_local`` the curvilinear distance from the hub centre through
        the root and along the nodes' aerodynamic centres."""
        if not hub_radius > 0.0:
            raise CaseError(
                f"the hub radius must be > 0 (AeroDyn's zHub), not {hub_radius}", field="HubRad"
            )
        p = self.root_frame_positions(hub_radius)
        root = np.array([0.0, 0.0, hub_radius])
        z = np.empty(self.n_nodes)
        z[0] = hub_radius + np.linalg.norm(p[0] - root)
        z[1:] = z[0] + np.cumsum(np.linalg.norm(np.diff(p, axis=0), axis=1))
        return z, float(hub_radius)
