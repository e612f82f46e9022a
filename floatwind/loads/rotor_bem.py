"""The blade-element momentum rotor: AeroDyn v5's quasi-steady BEM on every element of the moving
rotor (issue 35).

The blades are fixed in one body of the tree, the rotor body (hub + blades), which spins about the
shaft through its joint (a prescribed speed, or a free rotor driven by this load's torque). The
node positions and the element frames are constants of that body's frame, built here the way
AeroDyn places its blade nodes (AeroDyn.f90 ``Init_u``): the root of blade k at ``hub_radius``
along its coned pitch axis ``z_k = sin(precone) c1 + cos(precone) (cos a_k c2 + sin a_k c3)``
(ElastoDyn's blade axis; ``a_k = 2 pi (k - 1) / n_blades``, ``c1`` the downwind shaft axis,
``c2`` blade 1's unconed pitch axis, ``c3 = c1 x c2``), node j at
``root + BlCrvAC x_p + BlSwpAC y_p + BlSpn z_k`` in the pitched root frame (``x_p, y_p``: the
coned frame ``x_k = cos(precone) c1 - sin(precone) g_k``, ``y_k = z_k x x_k`` turned by the pitch
about ``z_k``). The element frame of the solve is the coned frame without pitch and twist
(AeroDyn's legacy ``WithoutSweepPitchTwist``, ``BEM_Mod = 1``), ``theta = twist + pitch``.

Every evaluation (:mod:`floatwind._kernels.rotor`, the load's one implementation): node
kinematics from the rotor body's motion (platform, yaw, spin), the wind at every node from any
floatwind wind, the inputs of the BEM solve as AeroDyn forms them, the element solve
(:mod:`floatwind._kernels.bemt`), the element loads integrated along each blade as OpenFAST's
Line2 mesh carries them, and their sum as one wrench on the rotor body: inverse dynamics then
gives shaft and blade-root loads, and the aerodynamic torque drives a free rotor.

The blade pitch is ``pitch_deg``, a pitch joint's angle for a blade on a body of its own, or the
pitch a ``servodyn`` load commands (``pitch_from: NAME``, issue 36: its initial pitch, timed
maneuvers or a controller's demand), read from that load's step memory, which the run shares
with this load (``Load.memory_of``; docs/architecture.md, "Controller inputs").
"""

from __future__ import annotations

import math
import pathlib
from typing import NamedTuple

import numpy as np

from floatwind._kernels.contract import CompiledLoad, body_kinematics, f64, i64, python_form
from floatwind.errors import CaseError
from floatwind.loads.base import Kinematics, Load, Wrench
from floatwind.rotor import bemt_options
from floatwind.validate import Section, check_body, check_vector, resolve_path

__all__ = ["BemRotor", "NODE_CHANNELS"]

#: element outputs written as channels ``B{k}N{i}{name}`` (AeroDyn's names): (column of the
#: element output, units, description)
NODE_CHANNELS = {
    "Alpha": ("ALPHA", "rad", "angle of attack (inflow angle - twist - pitch)"),
    "Phi": ("PHI", "rad", "inflow angle"),
    "AxInd": ("AXIND", "-", "axial induction factor a"),
    "TnInd": ("TNIND", "-", "tangential induction factor a'"),
    "Cl": ("CL", "-", "lift coefficient"),
    "Cd": ("CD", "-", "drag coefficient"),
    "Cm": ("CM", "-", "pitching-moment coefficient"),
    "Vrel": ("VREL", "m/s", "relative speed in the element plane"),
    "Fx": ("FX", "N/m", "force per unit length normal to the rotor plane (downwind)"),
    "Fy": ("FY", "N/m", "force per unit length in the plane, positive driving the rotor"),
    "Mm": ("MM", "N m/m", "pitching moment per unit length"),
    "Vx": ("ELEM_VX", "m/s", "relative wind normal to the plane at the node (BEM input)"),
    "Vy": ("ELEM_VY", "m/s", "relative wind in the plane at the node (BEM input)"),
}

_HUB_INFO = {
    "RtAeroFxh": ("N", "rotor aerodynamic force along the shaft (hub frame x: thrust)"),
    "RtAeroFyh": ("N", "rotor aerodynamic force, hub frame y (rotates with the rotor)"),
    "RtAeroFzh": ("N", "rotor aerodynamic force, hub frame z (rotates with the rotor)"),
    "RtAeroMxh": ("N m", "rotor aerodynamic moment about the shaft at the apex (torque)"),
    "RtAeroMyh": ("N m", "rotor aerodynamic moment at the apex, hub frame y"),
    "RtAeroMzh": ("N m", "rotor aerodynamic moment at the apex, hub frame z"),
    "RtAeroPwr": ("W", "aerodynamic power: torque x the hub's spin rate about the shaft"),
    "RtTSR": ("-", "tip-speed ratio: spin rate x largest in-plane radius / RtVAvgxh"),
    "RtVAvgxh": ("m/s", "relative wind averaged over all nodes, hub frame x"),
    "RtVAvgyh": ("m/s", "relative wind averaged over all nodes, hub frame y"),
    "RtVAvgzh": ("m/s", "relative wind averaged over all nodes, hub frame z"),
    "RtAeroCp": ("-", "power coefficient (swept area of the largest in-plane radius)"),
    "RtAeroCt": ("-", "thrust coefficient (swept area of the largest in-plane radius)"),
    "RtSkew": ("rad", "skew angle of the disk-averaged relative wind to the shaft"),
    "RtSpeed": ("rad/s", "spin rate of the hub about the shaft (absolute)"),
}

_TOP_KEYS = (
    "type",
    "body",
    "apex",
    "shaft_axis",
    "blade1_axis",
    "n_blades",
    "blade_bodies",
    "hub_radius",
    "precone",
    "precone_deg",
    "pitch",
    "pitch_deg",
    "blade_file",
    "blade",
    "airfoils",
    "airfoil_columns",
    "options",
    "air_density",
    "kin_visc",
    "output_nodes",
    "output_blades",
    "channel_prefix",
    "pitch_from",
    "blade_mass",
    "coupling",
    "interp_order",
)

#: keys of ``blade_mass`` (issue 36: the blades' weight and inertia in a controller's root moments)
_MASS_KEYS = ("mass", "first_moment", "second_moment")

_BLADE_KEYS = ("span", "crv_ac", "swp_ac", "crv_ang_deg", "twist_deg", "chord", "af_id")

#: the BEM switches of ``options`` given to ``floatwind.rotor.bemt_options``
_BEMT_KEYS = ("tip_loss", "hub_loss", "tan_ind", "ai_drag", "ti_drag", "skew_mod",
              "skew_redistr_factor", "skew_mom_corr", "bem_mod", "max_iter", "tolerance",
              "use_cm")  # fmt: skip
_OPTION_KEYS = (*_BEMT_KEYS, "af_tab_mod", "wake_mod", "dbemt_mod", "tau1_const")
#: AeroDyn key named by bemt_options' errors -> the case key
_OPTION_OF_KEY = {"BEM_Mod": "bem_mod", "Skew_Mod": "skew_mod", "SkewMomCorr": "skew_mom_corr",
                  "MaxIter": "max_iter", "IndToler": "tolerance",
                  "SkewRedistrFactor": "skew_redistr_factor"}  # fmt: skip


class BemRotor(Load, kind="bem_rotor"):
    """Blade-element momentum rotor on a spinning body (module docstring).

    Parameters
    ----------
    body : int
        The rotor body (hub + blades).
    apex : (3,)
        Rotor apex (hub centre) in the body frame (m).
    shaft_axis : (3,)
        Downwind shaft axis c1 in the body frame (normalised here).
    blade1_axis : (3,)
        Blade 1's pitch axis before precone, body frame (its part perpendicular to the shaft is
        used, normalised).
    n_blades : int
    blade_bodies : sequence of int, optional
        The body each blade is fixed in (default: all in ``body``). A blade on a body of its own
        (a pitch joint's child, as the importer's split topology makes blade 1) has that body's
        frame as its pitched root frame: origin at the blade root, z along the pitch axis, x out
        of the rotor plane (downwind at zero pitch), y = z x x; its pitch is then read from the
        bodies' orientations at every evaluation (AeroDyn's way), ``pitch`` applies to the blades
        fixed in ``body``.
    hub_radius : float
        Blade root distance from the apex along the coned pitch axis (m).
    precone : float
        Precone (rad), ElastoDyn's sign: negative tilts the blades upwind.
    pitch : float
        Collective blade pitch (rad).
    blade : floatwind.rotor.BladeGeometry
        The AeroDyn blade table (span along the pitch axis from the root, offsets, twist, chord,
        airfoil index of each node).
    airfoils : floatwind.rotor.AirfoilTables
    options : floatwind.rotor.BemtOptions
        The BEM switches; its ``rho`` is the air density (taken from the environment when the
        case leaves ``air_density`` out).
    output_nodes : sequence of int
        1-based nodes written as ``B{k}N{i}*`` channels (AeroDyn's BlOutNd), for blades
        ``1..output_blades``.
    dbemt_mod : int
        Dynamic inflow (AeroDyn's DBEMT_Mod): 0 quasi-steady, 1 Øye's filters with a constant
        ``tau1_const`` (3: the same, AeroDyn's continuous form), 2 with tau1 from the rotor's
        state (:mod:`floatwind._kernels.dbemt`);
        its states (four per node) are the load's continuous states. Ignored (0) without
        induction (``options.use_induction`` off, Wake_Mod = 0).
    tau1_const : float, optional
        DBEMT's time constant tau1 (s) for ``dbemt_mod`` 1 and 3.
    blade_mass : dict, optional
        ``{mass, first_moment, second_moment}`` of each blade (kg, kg m, kg m^2; moments about
        its root along the coned pitch axis, ElastoDyn's rigid blade; a number for all blades or
        one per blade): the blades' weight and inertial loads in the root moments a controller
        library receives (:func:`floatwind._kernels.rotor.blade_root_structure`); without it
        those moments are aerodynamic only.
    coupling : {"stage", "step"}
        ``"stage"`` (the default): the element solve at every right-hand-side evaluation, each
        integrator stage with its own inputs. ``"step"``: OpenFAST's coupling, which the deck
        importer selects: the solve once per step at the accepted state (AeroDyn's
        ``UpdateStates``/``CalcOutput`` once per glue step), the integrator's stages taking the
        loads of the last steps extrapolated in time (:class:`floatwind._kernels.rotor.
        AeroHistory`, docs/rotor.md "Coupling"); needs a fixed step, and is not built with
        dynamic inflow or a commanded pitch (refused).
    interp_order : {1, 2}
        With ``coupling: step``: the order of the extrapolation in time (OpenFAST's
        ``InterpOrder``), default 2.
    """

    name = "rotor"

    def __init__(
        self,
        *,
        body: int,
        apex,
        shaft_axis=(1.0, 0.0, 0.0),
        blade1_axis=(0.0, 0.0, 1.0),
        n_blades: int = 3,
        blade_bodies=None,
        hub_radius: float,
        precone: float = 0.0,
        pitch: float = 0.0,
        blade,
        airfoils,
        options,
        air_density: float | None = None,
        output_nodes=(),
        output_blades: int = 1,
        channel_prefix: str = "",
        pitch_from: str | None = None,
        dbemt_mod: int = 0,
        tau1_const: float | None = None,
        blade_mass=None,
        coupling: str = "stage",
        interp_order: int = 2,
        field: str = "",
    ):
        self.body = check_body(body, _f(field, "body"))
        self.apex_b = check_vector(apex, _f(field, "apex"))
        c1 = check_vector(shaft_axis, _f(field, "shaft_axis"))
        if np.linalg.norm(c1) == 0.0:
            raise CaseError("shaft axis must not be zero", field=_f(field, "shaft_axis"))
        c1 = c1 / np.linalg.norm(c1)
        c2 = check_vector(blade1_axis, _f(field, "blade1_axis"))
        c2 = c2 - (c2 @ c1) * c1
        if np.linalg.norm(c2) < 1e-9:
            raise CaseError(
                "blade 1's axis must not be parallel to the shaft", field=_f(field, "blade1_axis")
            )
        self.shaft_b = c1
        self.hub_z_b = c2 / np.linalg.norm(c2)
        if not isinstance(n_blades, (int, np.integer)) or n_blades < 1:
            raise CaseError(f"expected a positive integer, got {n_blades!r}",
                            field=_f(field, "n_blades"))  # fmt: skip
        self.n_blades = int(n_blades)
        if blade_bodies is None:
            blade_bodies = [self.body] * self.n_blades
        if len(blade_bodies) != self.n_blades:
            raise CaseError(f"expected {self.n_blades} bodies, one per blade, got "
                            f"{len(blade_bodies)}", field=_f(field, "blade_bodies"))  # fmt: skip
        self.blade_bodies = tuple(
            check_body(b, f"{_f(field, 'blade_bodies')}[{k}]") for k, b in enumerate(blade_bodies)
        )
        if not (math.isfinite(hub_radius) and hub_radius >= 0.0):
            raise CaseError(f"expected >= 0, got {hub_radius!r}", field=_f(field, "hub_radius"))
        self.hub_radius = float(hub_radius)
        self.precone = float(precone)
        self.pitch = float(pitch)
        if np.any(np.asarray(blade.crv_ang) != 0.0):
            raise CaseError(
                "BlCrvAng != 0 (curved element frames) is not built yet; set it to 0",
                field=_f(field, "blade.crv_ang_deg"),
            )
        n_af = int(len(airfoils.start))
        outside = (blade.af_index >= n_af) | (blade.af_index < 0)
        if np.any(outside):
            k = int(np.argmax(outside))
            raise CaseError(
                f"node {k + 1}: airfoil ID {int(blade.af_index[k]) + 1} is beyond the {n_af} "
                "airfoil files given",
                field=_f(field, "blade.af_id"),
                file=getattr(blade, "file", None),
            )
        self.blade = blade
        self.airfoils = airfoils
        self.options = options
        self.air_density = None if air_density is None else float(air_density)
        nn = len(blade.span)
        nodes = [int(n) for n in output_nodes]
        for n in nodes:
            if not 1 <= n <= nn:
                raise CaseError(f"output node {n} is outside the blade's 1..{nn} nodes",
                                field=_f(field, "output_nodes"))  # fmt: skip
        if not 0 <= int(output_blades) <= self.n_blades:
            raise CaseError(f"expected 0..{self.n_blades}, got {output_blades!r}",
                            field=_f(field, "output_blades"))  # fmt: skip
        self.output_nodes = tuple(nodes)
        self.output_blades = int(output_blades)
        self.channel_prefix = str(channel_prefix)
        self.memory_of = None if pitch_from is None else str(pitch_from)
        if self.memory_of is not None:
            if any(b != self.body for b in self.blade_bodies):
                raise CaseError(
                    "a commanded pitch (pitch_from) needs every blade fixed in the rotor body; a "
                    "blade on a body of its own takes its pitch from its joint",
                    field=_f(field, "pitch_from"),
                )  # fmt: skip
        self._geometry = self._build_geometry()
        self.blade_mass = _blade_mass(blade_mass, self.n_blades, _f(field, "blade_mass"))
        if dbemt_mod not in (0, 1, 2, 3):
            raise CaseError(f"DBEMT_Mod = {dbemt_mod!r} is not supported; use 0 (quasi-steady), "
                            "1 or 3 (constant tau1) or 2 (tau1 from the rotor)",
                            field=_f(field, "options.dbemt_mod"))  # fmt: skip
        if dbemt_mod in (1, 3) and not (tau1_const is not None and math.isfinite(tau1_const)
                                   and tau1_const > 0.0):  # fmt: skip
            raise CaseError(f"DBEMT_Mod = {dbemt_mod} needs tau1_const > 0 (s), got {tau1_const!r}",
                            field=_f(field, "options.tau1_const"))  # fmt: skip
        self.dbemt_mod = int(dbemt_mod) if options.use_induction else 0
        self.tau1_const = 0.0 if tau1_const is None else float(tau1_const)
        # the compiled BEM/DBEMT kernels are imported when a rotor is built, not with the load
        # registry: a run without a BEM rotor never loads their ~25 dispatchers (issue 41)
        from floatwind._kernels import dbemt as kd

        self.n_states = (kd.N_NODE_STATES * self.n_blades * nn) if self.dbemt_mod else 0
        if coupling not in ("stage", "step"):
            raise CaseError(f"expected 'stage' or 'step', got {coupling!r}",
                            field=_f(field, "coupling"))  # fmt: skip
        if coupling == "step" and self.dbemt_mod:
            raise CaseError("coupling: step with dynamic inflow (DBEMT_Mod != 0) is not built yet; "
                            "use coupling: stage", field=_f(field, "coupling"))  # fmt: skip
        if coupling == "step" and self.memory_of is not None:
            raise CaseError("coupling: step with a commanded pitch (pitch_from) is not built yet; "
                            "use coupling: stage", field=_f(field, "coupling"))  # fmt: skip
        if interp_order not in (1, 2):
            raise CaseError(f"expected 1 or 2 (InterpOrder), got {interp_order!r}",
                            field=_f(field, "interp_order"))  # fmt: skip
        self.coupling = str(coupling)
        self.interp_order = int(interp_order)
        #: the outputs' last solves (time, members, BemtState arrays): ``wrench_times``' chain
        self._out_chain = None

    # -- geometry --------------------------------------------------------------------------

    class Geometry(NamedTuple):
        """The rotor's constants in the rotor body's frame, read by :mod:`floatwind._kernels.rotor`."""

        body: int
        apex_b: np.ndarray  # (3,)
        shaft_b: np.ndarray  # (3,) hub x
        hub_z_b: np.ndarray  # (3,) hub z (blade 1's unconed axis)
        blade_body: np.ndarray  # (nb,) int64: the body each blade's nodes are fixed in
        nodes_b: np.ndarray  # (nb, nn, 3) node positions, in the frame of blade_body[k]
        xref_b: np.ndarray  # (nb, 3) blade k's pitched x axis, in the frame of blade_body[k]
        frames_b: (
            np.ndarray
        )  # (nb, 3, 3) rows: element x, y, z of each blade (no pitch/twist), hub body frame
        twist: np.ndarray  # (nn,) rad
        chord: np.ndarray  # (nn,)
        af_index: np.ndarray  # (nn,) int64, 0-based
        seg_len: np.ndarray  # (nb, nn - 1) lengths of the Line2 elements
        z_local: np.ndarray  # (nb, nn) curvilinear distance of each node from the apex (losses)
        z_hub: np.ndarray  # (nb,) root distance from the apex (hub loss)
        hub_radius: float
        r_max: float  # largest in-plane node radius (RtTSR, RtAeroCp/Ct)
        offsets_b: np.ndarray  # (nb, nn, 3) BlCrvAC x_p + BlSwpAC y_p of each node (hub frame)
        span_ratio: np.ndarray  # (nb, nn) in-plane radius of each node / the largest (DBEMT)

    def _build_geometry(self) -> Geometry:
        bl = self.blade
        c1, c2 = self.shaft_b, self.hub_z_b
        c3 = np.cross(c1, c2)
        nb, nn = self.n_blades, len(bl.span)
        cp, sp = math.cos(self.precone), math.sin(self.precone)
        ct, st = math.cos(self.pitch), math.sin(self.pitch)
        nodes = np.empty((nb, nn, 3))
        frames = np.empty((nb, 3, 3))
        xref = np.empty((nb, 3))
        offsets = np.zeros((nb, nn, 3))
        for k in range(nb):
            a = 2.0 * math.pi * k / nb
            g = math.cos(a) * c2 + math.sin(a) * c3
            z = sp * c1 + cp * g
            x = cp * c1 - sp * g
            y = np.cross(z, x)
            frames[k] = (x, y, z)
            xp = ct * x - st * y  # the root frame turned by the pitch about z (AeroDyn/ElastoDyn)
            yp = st * x + ct * y
            root = self.apex_b + self.hub_radius * z
            offsets[k] = np.outer(bl.crv_ac, xp) + np.outer(bl.swp_ac, yp)
            nodes[k] = root + offsets[k] + np.outer(bl.span, z)
            xref[k] = xp
        seg = np.linalg.norm(np.diff(nodes, axis=1), axis=2)
        # tip/hub-loss distances (AeroDyn Init_BEMTmodule): from the root along the nodes
        roots = self.apex_b + self.hub_radius * frames[:, 2]
        first = np.linalg.norm(nodes[:, 0] - roots, axis=1)
        z_local = self.hub_radius + np.concatenate(
            [first[:, None], first[:, None] + np.cumsum(seg, axis=1)], axis=1
        )
        rel = nodes - self.apex_b
        inplane = rel - (rel @ c1)[..., None] * c1
        r_in = np.linalg.norm(inplane, axis=2)
        r_max = float(r_in.max())
        # a blade on a body of its own: that body's frame is the pitched root frame (origin at
        # the root, x_p, y_p, z_k), so its nodes there are (BlCrvAC, BlSwpAC, BlSpn)
        local = np.column_stack([bl.crv_ac, bl.swp_ac, bl.span])
        for k in range(nb):
            if self.blade_bodies[k] != self.body:
                nodes[k] = local
                xref[k] = (1.0, 0.0, 0.0)
        return self.Geometry(
            body=int(self.body),
            apex_b=f64(self.apex_b),
            shaft_b=f64(c1),
            hub_z_b=f64(c2),
            blade_body=i64(self.blade_bodies),
            nodes_b=f64(nodes),
            xref_b=f64(xref),
            frames_b=f64(frames),
            twist=f64(bl.twist),
            chord=f64(bl.chord),
            af_index=i64(bl.af_index),
            seg_len=f64(seg),
            z_local=f64(z_local),
            z_hub=f64(np.full(nb, self.hub_radius)),
            hub_radius=float(self.hub_radius),
            r_max=r_max,
            offsets_b=f64(offsets),
            span_ratio=f64(r_in / r_max if r_max > 0.0 else r_in),
        )

    @property
    def geometry(self) -> Geometry:
        return self._geometry

    def _options(self, env):
        rho = float(env.rho_air) if self.air_density is None else self.air_density
        return self.options._replace(rho=rho)

    # -- the contract ------------------------------------------------------------------------

    def accepts_time_array(self, env) -> bool:
        """Per-member times reach only the wind query: True when the wind accepts them (and the
        pitch is not commanded: the commanding load's memory is read member by member)."""
        return self.memory_of is None and bool(getattr(env.wind, "accepts_time_array", False))

    def _dbemt(self, init: bool = False):
        from floatwind._kernels import dbemt as kd

        return kd.dbemt_params(self.dbemt_mod, self.tau1_const, self._geometry.span_ratio, init)

    def evaluate(self, t, kin: Kinematics, env, memory=None, s=None):
        """``(force, moment, hub (B, N_HUB), elements (B, nb, nn, N_OUT), status)`` through the
        kernels' Python forms (the reference; compiled while the kernels are on); ``memory``:
        the commanding servodyn load's step memory (None: the geometry's pitch); ``s``
        (B, n_states): the dynamic inflow's states (None: their quasi-steady start)."""
        return self._evaluate(t, kin, env, memory, s)[:5]

    def _evaluate(self, t, kin: Kinematics, env, memory, s, nodal=None, chain=0):
        """:meth:`evaluate` and the states used (B, n_states) and their rates."""
        from floatwind._kernels import rotor as kr
        from floatwind._kernels.bemt import bemt_state

        g = self._geometry
        bk = body_kinematics(kin)
        # (one time: a rotor with a commanded pitch takes no per-member times)
        dp = python_form(kr.pitch_change)(self._pitch_params(memory), float(np.max(t)),
                                          kin.batch)  # fmt: skip
        pos, vel, apex = python_form(kr.rotor_points)(g, bk, dp)
        if np.ndim(t) and not getattr(env.wind, "accepts_time_array", False):
            # per-row times (``wrench_times``) with a wind that takes one time a call
            tt = np.asarray(t, dtype=float)
            wind = np.empty(pos.shape)
            for tv in np.unique(tt):
                rows = tt == tv
                wind[rows] = np.broadcast_to(env.wind.velocity(float(tv), pos[rows]),
                                             pos[rows].shape)  # fmt: skip
        else:
            wind = np.broadcast_to(env.wind.velocity(t, pos), pos.shape)
        fresh = bemt_state(self.n_blades, len(self.blade.span), batch=kin.batch)
        if chain:
            # outputs at successive times (``wrench_times``): the first time's rows continue the
            # previous block's last solves (each member's chain of solves is then the same
            # whatever the blocks, alone or in a batch)
            prev = self._out_chain
            if prev is not None and prev[1] == chain and float(np.min(t)) > prev[0]:
                for name, last in zip(fresh._fields, prev[2]):
                    getattr(fresh, name)[:chain] = last
        y = np.zeros((kin.batch, self.n_states))
        if s is not None:
            y[:] = s
        dy = np.zeros_like(y)
        at = kr.BladeNodes(pos=pos, vel=vel, apex=apex, wind=f64(wind), dpitch=dp)
        out = python_form(kr.rotor_solve)(g, self._options(env), self.airfoils, bk, at,
                                          kin.n_bodies, fresh,
                                          kr.InflowStates(self._dbemt(init=s is None), y, dy, 0),
                                          nodal, chain)  # fmt: skip
        if chain:
            self._out_chain = (float(np.max(t)), chain,
                               tuple(np.array(a[-chain:]) for a in fresh))  # fmt: skip
        return (*out, y, dy)

    def after_step(self, t, kin: Kinematics, env, memory, s) -> None:
        """At a controller library's call steps, the rotor's measurements at the accepted state
        into the servodyn load's memory it reads (:func:`floatwind._kernels.rotor.
        rotor_after_step`, whose NumPy form this is); with ``coupling: step`` the element solve at
        the accepted state into the history (:func:`floatwind._kernels.rotor.rotor_step_after`)."""
        if self.coupling == "step":
            if memory is not None and memory.dt > 0.0:
                from floatwind._kernels import rotor as kr

                nodal = np.zeros((kin.batch, self.n_blades * len(self.blade.span), 6))
                self._evaluate(t, kin, env, None, None, nodal)
                k = int(round((float(t) - memory.t0) / memory.dt))
                python_form(kr.history_record)(memory, k, nodal)
            return
        if self.memory_of is None or memory is None or int(memory.sense_every[0]) <= 0:
            return
        k = int(round((float(t) - memory.t0) / memory.dt))
        if k % int(memory.sense_every[0]):
            return
        from floatwind._kernels import rotor as kr
        from floatwind._kernels import servo as ksv

        hub = self._evaluate(t, kin, env, memory, s)[2]
        dp = python_form(kr.pitch_change)(self._pitch_params(memory), float(t), kin.batch)
        apex = python_form(kr.rotor_points)(self._geometry, body_kinematics(kin), dp)[2]
        wind = np.broadcast_to(env.wind.velocity(t, apex[:, None, :]), (kin.batch, 1, 3))
        python_form(kr.blade_root_structure)(self._geometry, body_kinematics(kin),
                                             self.blade_mass, float(env.gravity), memory, k,
                                             hub)  # fmt: skip
        nb = min(self.n_blades, 3)
        python_form(ksv.store_rotor_sense)(
            memory,
            hub[:, kr.MTG : kr.MTG + 3],
            hub[:, kr.B1G : kr.B1G + 3],
            hub[:, kr.RMXC : kr.RMXC + nb],
            hub[:, kr.RMYC : kr.RMYC + nb],
            f64(wind[:, 0, :]),
            hub[:, kr.FTG : kr.FTG + 3],
            f64(apex),
        )

    class PitchParams(NamedTuple):
        pitch_ref: np.ndarray  # (nb,) the geometry's pitch of each blade
        memory: tuple  # floatwind._kernels.servo.ServoMemory (a placeholder without pitch_from)

    def _pitch_params(self, memory) -> PitchParams:
        from floatwind._kernels.servo import placeholder_memory

        if memory is None:
            memory = placeholder_memory()
        return self.PitchParams(pitch_ref=np.full(self.n_blades, self.pitch), memory=memory)

    @property
    def stateful(self) -> bool:
        """A rotor with dynamic inflow has states; one whose pitch a servodyn load commands reads
        that load's step memory; one coupled per step keeps its loads of the last steps."""
        return self.n_states > 0 or self.memory_of is not None or self.coupling == "step"

    # -- OpenFAST's coupling (coupling: step) ---------------------------------------------------

    @property
    def keeps_memory(self) -> bool:
        """Whether this rotor keeps a step memory (``coupling: step``: the loads of the last
        accepted steps, :class:`floatwind._kernels.rotor.AeroHistory`)."""
        return self.coupling == "step"

    def memory(self, batch: int, t0: float, dt: float, n_steps: int):
        """``coupling: step``: an empty history of the rotor's loads for a run from ``t0`` in steps
        of ``dt``; None otherwise."""
        if self.coupling != "step":
            return None
        if not dt > 0.0:
            raise CaseError("the rotor's coupling: step needs a fixed time step: use integrator "
                            "rk4 (or coupling: stage)", field="simulation.integrator")  # fmt: skip
        from floatwind._kernels import rotor as kr

        return kr.aero_history(batch, self.n_blades, len(self.blade.span), t0, dt,
                               self.interp_order)  # fmt: skip

    # -- the dynamic inflow's states (DBEMT; floatwind._kernels.dbemt) ------------------------

    _STATE_INFO = (("W1x", "reduced intermediate axial induced velocity (w = v1 - 0.6 vs)"),
                   ("Vx", "filtered axial induced velocity (-a Vx)"),
                   ("W1y", "reduced intermediate tangential induced velocity"),
                   ("Vy", "filtered tangential induced velocity (a' Vy)"))  # fmt: skip

    def state_names(self) -> list[str]:
        """``{name}_B{k}N{j}{W1x, Vx, W1y, Vy}`` per blade k and node j (1-based)."""
        nn = len(self.blade.span)
        return [f"{self.name}_B{k + 1}N{j + 1}{c}" for k in range(self.n_blades)
                for j in range(nn) for c, _ in self._STATE_INFO] if self.n_states else []  # fmt: skip

    def state_info(self) -> dict[str, tuple[str, str]]:
        names = self.state_names()
        n = len(self._STATE_INFO)
        return {nm: ("m/s", f"DBEMT state: {self._STATE_INFO[i % n][1]}")
                for i, nm in enumerate(names)}  # fmt: skip

    def initial_states_at(self, t, kin: Kinematics, env) -> np.ndarray:
        """The quasi-steady induced velocities of the rotor at ``kin`` (DBEMT_InitStates): a run
        starts in the equilibrium of the filters."""
        if not self.n_states:
            return np.zeros((kin.batch, 0))
        return self._evaluate(t, kin, env, None, None)[5]

    def wrench_state(self, t, kin: Kinematics, env, s, memory):
        if self.coupling == "step":
            if memory is not None:
                from floatwind._kernels import rotor as kr

                nodal = np.zeros((kin.batch, self.n_blades * len(self.blade.span), 6))
                if memory.nodal.shape[1] == kin.batch and python_form(kr.history_loads)(
                    memory, float(np.max(t)), nodal
                ):
                    w = Wrench.zeros(kin.batch, kin.n_bodies)
                    python_form(kr.nodal_wrench)(self._geometry, body_kinematics(kin), nodal,
                                                 w.force, w.moment)  # fmt: skip
                    return w, None
            return self._wrench(t, kin, env, None, None)[0], None
        w, dy = self._wrench(t, kin, env, memory, s)
        return w, (dy if self.n_states else None)

    def wrench_times(self, t, B: int, kin: Kinematics, env, memory) -> Wrench:
        """The outputs' evaluation (``System.evaluate_many``) of a rotor with ``coupling: step``:
        the element solve at each row's state, with the channels (the history is the stepping's).
        The rows are time-major (``B`` members per time): each member's solve starts from its
        solve at the previous output time (``rotor_solve``'s ``chain``), the first time from a
        fresh state."""
        return self._wrench(t, kin, env, None, None, chain=B)[0]

    def wrench(self, t: float, kin: Kinematics, env) -> Wrench:
        """The rotor's aerodynamic force at the body CM and moment about it (inertial axes),
        with the hub and blade-node channels (the dynamic inflow at its quasi-steady start)."""
        return self._wrench(t, kin, env, None, None)[0]

    def _wrench(self, t, kin: Kinematics, env, memory, s, chain=0):
        from floatwind._kernels import bemt as kb
        from floatwind._kernels import rotor as kr

        force, moment, hub, elem, _status, _y, dy = self._evaluate(t, kin, env, memory, s,
                                                                   chain=chain)  # fmt: skip
        out = Wrench(force, moment)
        p = self.channel_prefix
        for i, name in enumerate(kr.HUB_CHANNELS):
            out.channels[f"{p}{name}"] = hub[:, i]
        if self.dbemt_mod:
            out.channels[f"{p}DBEMTau1"] = hub[:, kr.TAU1]
        for k in range(min(self.n_blades, 3)):  # issue 36: what a controller library reads
            out.channels[f"{p}RtAeroRootMxc{k + 1}"] = hub[:, kr.RMXC + k]
            out.channels[f"{p}RtAeroRootMyc{k + 1}"] = hub[:, kr.RMYC + k]
        for k in range(self.output_blades):
            for n, node in enumerate(self.output_nodes):
                for suffix, (col, _u, _d) in NODE_CHANNELS.items():
                    c = getattr(kr, col) if col.startswith("ELEM_") else getattr(kb, col)
                    out.channels[f"{p}B{k + 1}N{n + 1}{suffix}"] = elem[:, k, node - 1, c]
        return out, dy

    class Params(NamedTuple):
        geometry: tuple  # Geometry
        options: tuple  # floatwind.rotor BemtOptions
        airfoils: tuple  # floatwind.rotor AirfoilTables
        wind: tuple  # the wind field's table (floatwind.environment.compiled.WindParams)
        state: tuple  # bemt.BemtState (B, nb, nn) scratch: each member's last solve (warm start)
        pitch_ref: np.ndarray  # (nb,) the geometry's pitch
        memory: tuple  # the commanding servodyn load's ServoMemory (placeholder: none)
        dbemt: tuple  # floatwind._kernels.dbemt.DbemtParams (mode 0: quasi-steady)
        state0: int  # first column of the dynamic inflow's states (set by the run)
        blade_mass: np.ndarray  # (nb, 3) each blade's mass, first and second moments (root)
        gravity: float  # m/s^2

    def compiled(self, env, batch):
        from floatwind._kernels import rotor as kr
        from floatwind._kernels.bemt import bemt_state
        from floatwind.environment.compiled import wind_params

        state = bemt_state(self.n_blades, len(self.blade.span), batch=batch)
        pp = self._pitch_params(None)
        p = self.Params(geometry=self._geometry, options=self._options(env),
                        airfoils=self.airfoils, wind=wind_params(env.wind, batch),
                        state=state, pitch_ref=pp.pitch_ref, memory=pp.memory,
                        dbemt=self._dbemt(), state0=-1, blade_mass=self.blade_mass,
                        gravity=float(env.gravity))  # fmt: skip
        if self.coupling == "step":  # the run binds its history (memory) in place of this one
            p = p._replace(memory=kr.aero_history(batch, self.n_blades, len(self.blade.span)))
            return CompiledLoad(kr.bem_rotor_step_kernel, p, after_step=kr.rotor_step_after)
        if self.memory_of is None:
            return CompiledLoad(kr.bem_rotor_kernel, p)
        return CompiledLoad(
            kr.bem_rotor_kernel, p, after_step=kr.rotor_after_step, reads_memory=True
        )

    def channel_info(self) -> dict[str, tuple[str, str]]:
        p = self.channel_prefix
        info = {f"{p}{k}": v for k, v in _HUB_INFO.items()}
        if self.dbemt_mod:
            info[f"{p}DBEMTau1"] = ("s", "DBEMT time constant tau1 (dynamic inflow)")
        for k in range(1, min(self.n_blades, 3) + 1):
            info[f"{p}RtAeroRootMxc{k}"] = (
                "N m", f"blade {k} aerodynamic root moment, in-plane (about x_c, ElastoDyn RootMxc "
                "axes)")  # fmt: skip
            info[f"{p}RtAeroRootMyc{k}"] = (
                "N m", f"blade {k} aerodynamic root moment, out-of-plane (about y_c, ElastoDyn "
                "RootMyc axes)")  # fmt: skip
        for k in range(self.output_blades):
            for n, node in enumerate(self.output_nodes):
                for suffix, (_c, units, desc) in NODE_CHANNELS.items():
                    info[f"{p}B{k + 1}N{n + 1}{suffix}"] = (
                        units, f"blade {k + 1} node {node}: {desc}")  # fmt: skip
        return info

    # -- case file ---------------------------------------------------------------------------

    @classmethod
    def from_config(
        cls,
        cfg: dict,
        *,
        body_index: dict[str, int],
        field: str,
        base_dir: pathlib.Path | None = None,
        tree=None,
    ) -> BemRotor:
        """Build from ``{type: bem_rotor, body: .., apex: .., blade_file: .., airfoils: [..],
        ...}`` (docs/rotor.md)."""
        from floatwind.io.aerodyn import read_airfoil, read_blade
        from floatwind.rotor import BladeGeometry, airfoil_tables

        sec = Section(cfg, field, _TOP_KEYS)
        files = sec.raw("airfoils")
        if not isinstance(files, list) or not files:
            raise CaseError("expected a list of airfoil files", field=sec.path("airfoils"))
        columns = tuple(int(c) for c in sec.raw("airfoil_columns", (1, 2, 3, 4, 0)))
        afs = [read_airfoil(resolve_path(f, f"{sec.path('airfoils')}[{i}]", base_dir),
                            columns=columns) for i, f in enumerate(files)]  # fmt: skip
        if sec.has("blade_file") == sec.has("blade"):
            raise CaseError("give exactly one of 'blade_file' or 'blade'",
                            field=sec.path("blade_file"))  # fmt: skip
        # (airfoil IDs against the files given: checked once, by the constructor)
        if sec.has("blade_file"):
            path = resolve_path(sec.raw("blade_file"), sec.path("blade_file"), base_dir)
            blade = BladeGeometry.from_blade_file(read_blade(path))
        else:
            tab = Section(sec.raw("blade"), sec.path("blade"), _BLADE_KEYS)
            blade = BladeGeometry.from_arrays(
                span=tab.raw("span"),
                chord=tab.raw("chord"),
                twist=np.radians(np.asarray(tab.raw("twist_deg"), dtype=float)),
                af_index=np.asarray(tab.raw("af_id")) - 1,
                crv_ac=tab.raw("crv_ac", None),
                swp_ac=tab.raw("swp_ac", None),
                crv_ang=np.radians(np.asarray(tab.raw("crv_ang_deg", 0.0), dtype=float))
                * np.ones(len(tab.raw("span"))),
            )
        opt = Section(sec.raw("options", {}) or {}, sec.path("options"), _OPTION_KEYS)
        af_tab_mod = opt.integer("af_tab_mod", 1)
        try:
            airfoils = airfoil_tables(afs, af_tab_mod=af_tab_mod)
        except CaseError as exc:
            where = opt.path("af_tab_mod") if exc.field == "AFTabMod" else sec.path("airfoils")
            raise CaseError(exc.reason, field=where,
                            file=exc.file) from None  # fmt: skip
        dbemt_mod = opt.integer("dbemt_mod", 0)
        if dbemt_mod not in (0, 1, 2, 3):
            raise CaseError(f"DBEMT_Mod = {dbemt_mod} is not supported; use 0 (quasi-steady), 1 "
                            "or 3 (constant tau1) or 2 (tau1 from the rotor)",
                            field=opt.path("dbemt_mod"))  # fmt: skip
        tau1 = opt.number("tau1_const", None, kind="positive")
        if dbemt_mod in (1, 3) and tau1 is None:
            raise CaseError(f"DBEMT_Mod = {dbemt_mod} needs tau1_const (s)",
                            field=opt.path("tau1_const"))  # fmt: skip
        wake = opt.integer("wake_mod", 1)
        if wake not in (0, 1):
            raise CaseError(f"Wake_Mod = {wake} is not supported; use 0 (none) or 1 (BEM)",
                            field=opt.path("wake_mod"))  # fmt: skip
        kw = {k: opt.raw(k) for k in _BEMT_KEYS if opt.has(k)}
        try:
            options = bemt_options(
                n_blades=sec.integer("n_blades", 3, minimum=1),
                use_induction=wake == 1,
                kin_visc=sec.number("kin_visc", 1.464e-5, kind="positive"),
                **kw,
            )
        except CaseError as exc:
            key = _OPTION_OF_KEY.get(exc.field or "")
            where = opt.path(key) if key else sec.path("options")
            raise CaseError(exc.reason, field=where) from None
        return cls(
            body=sec.body(body_index),
            apex=sec.vector("apex"),
            shaft_axis=sec.vector("shaft_axis", (1.0, 0.0, 0.0)),
            blade1_axis=sec.vector("blade1_axis", (0.0, 0.0, 1.0)),
            n_blades=sec.integer("n_blades", 3),
            blade_bodies=_blade_bodies(sec, body_index),
            hub_radius=sec.number("hub_radius", kind="nonnegative"),
            precone=sec.angle("precone", 0.0),
            pitch=sec.angle("pitch", 0.0),
            blade=blade,
            airfoils=airfoils,
            options=options,
            air_density=sec.number("air_density", None, kind="positive"),
            output_nodes=sec.raw("output_nodes", []) or [],
            output_blades=sec.integer("output_blades", 1),
            channel_prefix=sec.raw("channel_prefix", ""),
            pitch_from=sec.raw("pitch_from", None),
            dbemt_mod=dbemt_mod,
            tau1_const=tau1,
            blade_mass=_mass_config(sec),
            coupling=sec.raw("coupling", "stage"),
            interp_order=sec.integer("interp_order", 2),
            field=field,
        )


def _mass_config(sec: Section):
    """``blade_mass: {mass, first_moment, second_moment}`` (kg, kg m, kg m^2; each a number for
    every blade or a list, one per blade), or None."""
    if not sec.has("blade_mass"):
        return None
    ms = Section(sec.raw("blade_mass"), sec.path("blade_mass"), _MASS_KEYS)
    return {k: ms.raw(k) for k in _MASS_KEYS if ms.has(k)}


def _blade_mass(cfg, nb: int, field: str) -> np.ndarray:
    """(nb, 3): each blade's mass m, first moment S1 and second moment S2 about its root along
    the coned pitch axis (ElastoDyn's rigid blade: point masses on that axis); zeros without."""
    out = np.zeros((nb, 3))
    if cfg is None:
        return out
    for i, key in enumerate(_MASS_KEYS):
        if key not in cfg:
            raise CaseError(f"missing '{key}' (give mass, first_moment, second_moment)",
                            field=f"{field}.{key}")  # fmt: skip
        v = np.asarray(cfg[key], dtype=float)
        if v.ndim == 0:
            v = np.full(nb, float(v))
        if v.shape != (nb,) or not np.all(np.isfinite(v)) or np.any(v < 0.0):
            raise CaseError(f"expected a number >= 0 or {nb} of them, one per blade, got "
                            f"{cfg[key]!r}", field=f"{field}.{key}")  # fmt: skip
        out[:, i] = v
    # Cauchy-Schwarz on the mass line: S1^2 <= m S2 (a first moment no mass can have)
    bad = out[:, 1] ** 2 > out[:, 0] * out[:, 2] * (1.0 + 1e-9)
    if np.any(bad):
        k = int(np.argmax(bad))
        raise CaseError(f"blade {k + 1}: first_moment^2 > mass x second_moment, which no mass on "
                        "the blade axis gives", field=f"{field}.first_moment")  # fmt: skip
    return out


def _blade_bodies(sec: Section, body_index: dict[str, int]) -> list[int] | None:
    if not sec.has("blade_bodies"):
        return None
    names = sec.strings("blade_bodies")
    out = []
    for k, name in enumerate(names):
        if name not in body_index:
            raise CaseError(f"unknown body {name!r} (bodies: {', '.join(body_index)})",
                            field=f"{sec.path('blade_bodies')}[{k}]")  # fmt: skip
        out.append(body_index[name])
    return out


def _f(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key
