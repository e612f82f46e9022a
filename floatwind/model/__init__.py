"""The turbine model assembled from a case: bodies and joints (a Tree), loads, environment,
initial conditions and run settings. Plain data; ``floatwind.case`` builds it from files and
``floatwind.simulate`` runs it."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from floatwind.environment import Environment
from floatwind.loads.base import Load
from floatwind.multibody.drives import SpringDamperDrive
from floatwind.multibody.tree import Tree


@dataclass
class InitialConditions:
    """Initial state of the base body, batched (B, 3) each.

    ``displacement``: reference-point displacement (surge, sway, heave) from its undisplaced
    position (m, inertial); ``angles``: 1-2-3 Euler angles X4, X5, X6 (rad, Wang 3.13);
    ``velocity``: reference-point velocity (m/s, inertial); ``rates``: Euler-angle rates (rad/s).
    """

    displacement: np.ndarray = field(default_factory=lambda: np.zeros((1, 3)))
    angles: np.ndarray = field(default_factory=lambda: np.zeros((1, 3)))
    velocity: np.ndarray = field(default_factory=lambda: np.zeros((1, 3)))
    rates: np.ndarray = field(default_factory=lambda: np.zeros((1, 3)))

    @property
    def batch(self) -> int:
        return max(a.shape[0] for a in (self.displacement, self.angles, self.velocity, self.rates))


@dataclass
class SimulationSettings:
    """Run settings: end time, step, output step (s), integrator and its options, divergence bound."""

    t_max: float = 600.0
    dt: float = 0.0125
    dt_out: float = 0.05
    integrator: str = "rk4"  # rk4 | dop853 | rk45 | lie_generalized_alpha | bossak_newmark
    rtol: float = 1e-8
    atol: float = 1e-10
    rho_inf: float = 0.8
    bound: float | None = 1e6
    # bossak_newmark (docs/bossak.md): alpha in [-0.1, 0], beta rule seafem | textbook,
    # rotations small | large, Aitken relaxation of the loads loop, its iteration limit
    bossak_alpha: float = -0.1
    bossak_beta: str = "seafem"
    bossak_rotations: str = "large"
    bossak_aitken: bool = True
    bossak_max_iter: int = 50


@dataclass
class Model:
    """Everything a run needs. ``ref_point_b`` is the base-body reference point (PRP) in the base
    body reference frame, whose undisplaced inertial position is ``ref_point0_g``."""

    name: str
    tree: Tree
    loads: list[Load]
    env: Environment
    initial: InitialConditions = field(default_factory=InitialConditions)
    settings: SimulationSettings = field(default_factory=SimulationSettings)
    ref_point_b: np.ndarray = field(default_factory=lambda: np.zeros(3))
    ref_point0_g: np.ndarray = field(default_factory=lambda: np.zeros(3))
    description: str = ""
    source: str = ""
    source_text: str = ""
    #: equations of motion: "mcm" (momentum cloud core) or "euler313" (Wang ch. II,
    #: floatwind.multibody.euler313; then ``euler313`` holds its Euler313Body and
    #: ``euler313_initial`` the optional 3-1-3 initial (angles, rates))
    formulation: str = "mcm"
    #: a flexible tower (issue 37): floatwind.multibody.flex_tower.TowerModes, and the tower-top
    #: point in the base body's reference frame (the bodies other than the base ride on it)
    tower: object = None
    tower_top_b: object = None
    euler313: object = None
    euler313_initial: object = None

    @property
    def batch(self) -> int:
        return max(
            self.initial.batch,
            getattr(self.env.sea, "n_realizations", 1),
            getattr(self.env.wind, "n_realizations", 1),
        )

    def summary(self) -> str:
        """A short human-readable description of the model (for ``floatwind check``)."""
        lines = [f"model '{self.name}'" + (f": {self.description}" if self.description else "")]
        t = self.tree
        word = "body" if t.n_bodies == 1 else "bodies"
        lines.append(f"  {t.n_bodies} {word}, total mass {t.total_mass:,.1f} kg:")
        for i, b in enumerate(t.bodies):
            I = np.diag(b.inertia_b)
            # positions below 1e-9 m are round-off of the assembly: shown as 0
            cm = [0.0 if abs(c) < 1e-9 else float(c) + 0.0 for c in b.cm_b]
            lines.append(
                f"    [{i}] {b.name:<12s} m = {b.mass:>14,.1f} kg  CM = "
                f"({cm[0]:.4g}, {cm[1]:.4g}, {cm[2]:.4g}) m  "
                f"I_diag = ({I[0]:.4g}, {I[1]:.4g}, {I[2]:.4g}) kg m^2"
            )
        for c in t.order[1:]:
            j = t.joint_of[c]
            if j.free:  # a joint DOF (docs/multibody.md, "Joint DOFs")
                what = f"degree of freedom, drive {j.drive.describe()}"
                if isinstance(j.drive, SpringDamperDrive):
                    what += f" toward {j.rotation.describe('rad')}"
            elif j.gear is not None:
                what = f"geared to {j.gear.leader} (ratio {j.gear.ratio:g})"
            else:
                what = f"rotation {j.rotation.describe('rad')}"
            lines.append(
                f"    joint {j.name}: {t.bodies[j.parent].name} -> {t.bodies[j.child].name}, {what}"
            )
        if self.tower is not None:  # issue 37
            tw = self.tower
            f = tw.frequencies()
            from floatwind.multibody.flex_tower import MODE_NAMES

            modes = ", ".join(
                f"{MODE_NAMES[k]} (fixed base {f[MODE_NAMES[k]][1]:.4f} Hz)" for k in tw.active
            )
            lines.append(
                f"  flexible tower: {tw.h.size} nodes, {tw.mass.sum():,.1f} kg, modes {modes}"
            )
        lines.append(f"  loads: {', '.join(ld.name for ld in self.loads) or 'none'}")
        for ld in self.loads:  # a fitted model says how well it fits (potential_radiation)
            if getattr(ld, "fit_report", None):
                lines.append(f"    {ld.name}: {ld.fit_report}")
        lines.append(f"  sea: {self.env.sea.describe()}; wind: {self.env.wind.describe()}")
        s = self.settings
        lines.append(
            f"  run: t_max = {s.t_max:g} s, dt = {s.dt:g} s, dt_out = {s.dt_out:g} s, "
            f"integrator {s.integrator}, batch {self.batch}"
        )
        if self.formulation != "mcm":
            lines.append(f"  formulation: {self.formulation} (docs/multibody.md)")
        return "\n".join(lines)
