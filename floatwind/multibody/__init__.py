"""Rigid multibody trees with prescribed joints: model, MCM forward dynamics (Wang ch. V),
inverse dynamics (internal loads), gyroscopic moments, turbine topologies and an independent
Newton-Euler cross-check. See docs/multibody.md."""

from floatwind.multibody.gyro import gyro_channels, gyro_moment, rna_moment, spin_inertia
from floatwind.multibody.inverse import (
    CHANNELS,
    joint_loads,
    joint_point,
    subsystem_loads,
    two_joint_loads,
)
from floatwind.multibody.load_channels import channels_for
from floatwind.multibody.mcm import (
    body_kinematics,
    forward_dynamics,
    mass_distribution,
    relative_kinematics,
    system_state_from_base,
)
from floatwind.multibody.motion import ConstantRate, Locked, Motion, Ramp, Table
from floatwind.multibody.newton_euler import NEResult, forward_dynamics_ne
from floatwind.multibody.topologies import OC3_DEFAULTS, layout, six_body, three_body, two_body
from floatwind.multibody.tree import Body, Joint, Tree

__all__ = [
    "CHANNELS",
    "OC3_DEFAULTS",
    "Body",
    "ConstantRate",
    "Joint",
    "Locked",
    "Motion",
    "NEResult",
    "Ramp",
    "Table",
    "Tree",
    "body_kinematics",
    "channels_for",
    "forward_dynamics",
    "forward_dynamics_ne",
    "gyro_channels",
    "gyro_moment",
    "joint_loads",
    "joint_point",
    "layout",
    "mass_distribution",
    "relative_kinematics",
    "rna_moment",
    "six_body",
    "spin_inertia",
    "subsystem_loads",
    "system_state_from_base",
    "three_body",
    "two_body",
    "two_joint_loads",
]
