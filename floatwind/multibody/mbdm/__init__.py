"""Constrained multibody formulation with a joint library (MBDM), Leble (seed 001) sec. 1-3.

Bodies carry [r, p] (position + Euler parameters, eq. 29); joints of Table 11 are built from the
basic constraints of Table 1 (``constraints``); a fully driven system is solved for position,
velocity and acceleration (``kinematics``, sec. 3); the equations of motion (67)/(69) are
integrated by coordinate partitioning or Baumgarte with RK4 (``dynamics``, sec. 4-5) with
spring-damper lines (``lines``, sec. 6) and force elements (``forces``). The input files of
sec. 7 and 10 are read by :mod:`floatwind.case.mbdm_files` (with the other readers) and run by
:mod:`floatwind.simulate.mbdm` (``floatwind mbdm``). A sibling of the momentum-cloud core: it
shares ``floatwind.rotation`` (A(p), 1-2-3 angles). See docs/mbdm.md.
"""

from floatwind.multibody.mbdm.constraints import (
    JOINT_TYPES,
    Joint,
    Rows,
    basic_d1,
    basic_d2,
    basic_p1,
    basic_p2,
    basic_s,
    basic_ss,
    body_states,
)
from floatwind.multibody.mbdm.coordinates import (
    A_matrix,
    E_matrix,
    G_matrix,
    normalisation,
    omega_body,
    omega_global,
    pddot_from_omega,
    pdot_from_omega,
    quaternion_from_angles123,
    split,
)
from floatwind.multibody.mbdm.dynamics import (
    BatchDynamicResult,
    DynamicResult,
    DynamicSystem,
    accelerations,
    assemble,
    dynamic_analysis,
    dynamic_analysis_batch,
    energy,
    partition,
)
from floatwind.multibody.mbdm.forces import (
    BodyLoad,
    CoordinateForce,
    RotationalSpringDamper,
    contract_loads,
    load_kinematics,
)
from floatwind.multibody.mbdm.kinematics import (
    KinematicResult,
    System,
    kinematic_analysis,
    solve_acceleration,
    solve_position,
    solve_velocity,
)
from floatwind.multibody.mbdm.lines import SpringDamper, line_loads

__all__ = [
    "JOINT_TYPES",
    "A_matrix",
    "BatchDynamicResult",
    "BodyLoad",
    "CoordinateForce",
    "DynamicResult",
    "DynamicSystem",
    "E_matrix",
    "G_matrix",
    "Joint",
    "KinematicResult",
    "RotationalSpringDamper",
    "Rows",
    "SpringDamper",
    "accelerations",
    "assemble",
    "System",
    "basic_d1",
    "basic_d2",
    "basic_p1",
    "basic_p2",
    "basic_s",
    "basic_ss",
    "body_states",
    "contract_loads",
    "dynamic_analysis",
    "dynamic_analysis_batch",
    "energy",
    "kinematic_analysis",
    "line_loads",
    "load_kinematics",
    "normalisation",
    "omega_body",
    "omega_global",
    "partition",
    "pddot_from_omega",
    "pdot_from_omega",
    "quaternion_from_angles123",
    "solve_acceleration",
    "solve_position",
    "solve_velocity",
    "split",
]
