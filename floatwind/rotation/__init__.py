"""Rotations: 1-2-3 Euler angles (Wang), rotation vectors (Giusti), Euler parameters (Leble).

Everything is batched: arrays carry any number of leading axes (typically ``(B, ...)``) and the
trailing axis or axes hold the 3-vector or the 3x3 matrix. Names say what they map:
``R_b2g`` is body-to-inertial (global).
"""

from floatwind.rotation.euler import (
    EULER_PITCH_GUARD,
    EULER_SINGULARITY_TOL,
    euler123_from_matrix,
    euler123_matrix,
    euler_rates_from_omega,
    euler_zyx_from_matrix,
    euler_zyx_matrix,
    omega_from_euler_rates,
    re_vector,
    rot_x,
    rot_y,
    rot_z,
    t_omega,
)
from floatwind.rotation.quaternion import matrix_from_quaternion, quaternion_from_matrix
from floatwind.rotation.rotvec import (
    axis_angle_matrix,
    exp_so3,
    log_so3,
    skew,
    tangent,
    tangent_inv,
    unskew,
    unwrap_rotvec,
)

__all__ = [
    "EULER_PITCH_GUARD",
    "EULER_SINGULARITY_TOL",
    "axis_angle_matrix",
    "euler123_from_matrix",
    "euler123_matrix",
    "euler_rates_from_omega",
    "euler_zyx_from_matrix",
    "euler_zyx_matrix",
    "exp_so3",
    "log_so3",
    "matrix_from_quaternion",
    "omega_from_euler_rates",
    "quaternion_from_matrix",
    "re_vector",
    "rot_x",
    "rot_y",
    "rot_z",
    "skew",
    "t_omega",
    "tangent",
    "tangent_inv",
    "unskew",
    "unwrap_rotvec",
]
