"""``formulation: euler313`` in a case file (Wang ch. II, docs/multibody.md).

Example::

    formulation: euler313
    topology: {kind: two_body, platform: {...}, tower: null, rna: {...}, yaw: {...}}
    euler313:
      spin: {kind: constant_rate, rate_rpm: 12.1}   # rotor speed about B, relative to the nacelle
      spin_axis: [0.0, 1.0, 0.0]   # B in the tower frame at zero yaw (horizontal; wind along -B)
      rotor_torque: 0.0            # M_windB (N m), Wang (2.28)
      rna_equations: wang          # wang: (2.27)-(2.29) as printed; exact: nacelle I_A, I_C + rotor I_B
      initial: {angles: [0.1, 0.0, 0.0], rates: [0.0, 0.0, 0.0]}   # theta_1, theta_2, eta (rad)

The bodies come from the 2-body tree (tower + hull, lumped RNA, joint ``yaw`` about the tower
axis); both CMs must lie on the tower axis and the tower must be axisymmetric (Wang: I_x = I_y).
Without ``euler313.initial`` the 1-2-3 ``initial.angles``/``rates`` are converted; the initial
displacement and velocity must be zero (translations locked).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from floatwind.case.motions import motion_from_config
from floatwind.errors import CaseError
from floatwind.validate import Section

FORMULATIONS = ("mcm", "euler313")
KEYS = {"spin", "spin_axis", "rotor_torque", "initial", "rna_equations"}
INITIAL_KEYS = {"angles", "angles_deg", "rates", "rates_deg"}


def _require(ok: bool, reason: str, field: str) -> None:
    if not ok:
        raise CaseError(reason, field=field)


def build(model, section: Any, base_dir=None):
    """Attach the :class:`~floatwind.multibody.euler313.Euler313Body` (``model.euler313``) and
    the 3-1-3 initial state (``model.euler313_initial``) to ``model``; CaseError naming the field
    on anything the formulation cannot represent."""
    from floatwind.multibody.euler313 import RNA_EQUATIONS, Euler313Body

    sec = Section(section or {}, "euler313", KEYS)
    tree = model.tree
    _require(
        tree.n_bodies == 2 and 1 in tree.joint_of,
        f"formulation euler313 needs the 2-body topology (tower + hull, rna), got "
        f"{tree.n_bodies} bodies",
        "topology.kind",
    )
    j = tree.joint_of[1]
    tower, rna = tree.bodies
    tol = 1e-9
    _require(
        np.allclose(j.axis, [0.0, 0.0, 1.0], atol=tol)
        and np.allclose(j.R0_c2p, np.eye(3), atol=tol),
        "the RNA must yaw about the tower axis (joint axis z, no orientation offset)",
        f"joints.{j.name}",
    )
    _require(
        j.slide.is_constant and j.slide.evaluate(0.0)[0] == 0.0,
        "the yaw joint may not slide",
        f"joints.{j.name}.slide",
    )
    p_rna = j.r_J_p + (rna.cm_b - j.r_J_c)
    _require(
        abs(tower.cm_b[0]) < tol and abs(tower.cm_b[1]) < tol,
        f"the tower CM must lie on the tower axis, got {tower.cm_b.tolist()}",
        "topology.platform.cm",
    )
    _require(
        abs(p_rna[0]) < tol and abs(p_rna[1]) < tol,
        f"the RNA CM must lie on the tower axis (rna_on_axis), got {p_rna.tolist()}",
        "topology.rna.cm",
    )
    It = tower.inertia_b
    _require(
        abs(It[0, 0] - It[1, 1]) <= 1e-9 * It[0, 0]
        and np.allclose(It, np.diag(np.diag(It)), atol=1e-9 * It.max()),
        "the tower inertia must be diagonal with I_x = I_y (Wang 2.19-2.21)",
        "topology.platform.inertia",
    )
    b0 = sec.vector("spin_axis", [0.0, 1.0, 0.0])
    n = float(np.linalg.norm(b0))
    _require(
        abs(b0[2]) < 1e-12 and n > 0, "must be a horizontal non-zero vector", "euler313.spin_axis"
    )
    b0 = np.asarray(b0, dtype=float) / n
    z = np.array([0.0, 0.0, 1.0])
    c0 = np.cross(b0, z)
    E = np.stack([c0, b0, z])  # rows: C, B, A (up to sign) at zero yaw
    Ir = E @ rna.inertia_b @ E.T
    _require(
        np.allclose(Ir, np.diag(np.diag(Ir)), atol=1e-9 * Ir.max()),
        "the RNA inertia must be diagonal in (C, B, A) = (spin_axis x z, spin_axis, z)",
        "topology.rna.inertia",
    )
    spin = motion_from_config(sec.raw("spin", None), "euler313.spin", base_dir, angular=True)
    ic = model.initial
    _require(
        not np.any(ic.displacement) and not np.any(ic.velocity),
        "translations are locked in the euler313 formulation: displacement and velocity must be 0",
        "initial",
    )
    body = Euler313Body(
        m_tower=tower.mass,
        z_tower=float(tower.cm_b[2]),
        I_tilt=float(It[0, 0]),
        I_axial=float(It[2, 2]),
        m_rna=rna.mass,
        z_rna=float(p_rna[2]),
        I_A=float(Ir[2, 2]),
        I_B=float(Ir[1, 1]),
        I_C=float(Ir[0, 0]),
        spin_axis=tuple(b0),
        yaw=j.rotation,
        spin=spin,
        rotor_torque=sec.number("rotor_torque", 0.0),
        origin_g=tuple(model.ref_point0_g - model.ref_point_b),
        rna_equations=sec.choice("rna_equations", RNA_EQUATIONS, "wang"),
    )
    initial = None
    if sec.has("initial"):
        isec = Section(sec.raw("initial"), "euler313.initial", INITIAL_KEYS)
        ang = _angles(isec, "angles")
        rates = _angles(isec, "rates")
        _require(
            0.0 <= ang[0] <= np.pi,
            f"theta_1 must lie in [0, pi] (the 3-1-3 nutation), got {ang[0]:g}",
            "euler313.initial.angles",
        )
        initial = (ang, rates)
    model.formulation = "euler313"
    model.euler313 = body
    model.euler313_initial = initial
    return model


def _angles(sec: Section, key: str) -> np.ndarray:
    if sec.has(key) and sec.has(f"{key}_deg"):
        raise CaseError(f"give either '{key}' or '{key}_deg', not both", field=sec.path(key))
    if sec.has(f"{key}_deg"):
        return np.radians(sec.vector(f"{key}_deg"))
    return np.asarray(sec.vector(key, [0.0, 0.0, 0.0]), dtype=float)
