"""Mixed and local formulations of the rigid body (Giusti sec. 2.3-2.4), for the comparison of sec. 7.4.

Both use the Newton loop and the generalized-alpha update of
:class:`floatwind.integrate.lie_group.LieGroupGeneralizedAlpha`; only the group, the composition
rule and the velocity variables differ (Brüls & Cardona 2010; Sonneville 2015):

* mixed, R3 x SO(3) with left translation: v = [v_G (inertial); W (body axes)],
  x_{n+1} = x_n + y_x, R_{n+1} = R_n exp(~y_rot); the equations are Newton's law in the inertial
  basis and Euler's equations J W' + W x J W = T^M in the body basis;
* local, SE(3): v = [R^T v_G; W] (both body axes), H_{n+1} = H_n exp_SE3(y), i.e.
  R_{n+1} = R_n exp(~theta), x_{n+1} = x_n + R_n T(theta)^T u for y = [u; theta];
  the translational equation is m (v' + W x v) = F^M.

The loads are the same :class:`floatwind.loads.spatial.SpatialLoad` objects: the formulation maps
its variables to the inertial ones (w = R W, dw = R W', a_G = R (v' + W x v)), evaluates the
inertial residual (1) and writes it in its own basis. This is the same set of equations, so the
three integrators differ only in their discretisation. The iteration matrix is the
finite-difference Jacobian of :class:`floatwind.integrate.lie_group.Formulation`.
"""

from __future__ import annotations

import numpy as np

from floatwind.integrate.lie_group import Formulation
from floatwind.rotation import exp_so3, tangent

__all__ = ["LocalFormulation", "MixedFormulation"]


def _mv(A, x):
    return np.einsum("...ij,...j->...i", A, x)


def _RT(R):
    return np.swapaxes(R, -1, -2)


class MixedFormulation(Formulation):
    """R3 x SO(3) with left translation (Giusti sec. 2.3): v = [v_G inertial; W body axes]."""

    name = "mixed"

    def compose(self, r_G_g, R_b2g, y):
        return r_G_g + y[:, :3], R_b2g @ exp_so3(y[:, 3:])

    def to_spatial(self, R_b2g, v, vdot):
        v_s = np.concatenate([v[:, :3], _mv(R_b2g, v[:, 3:])], -1)
        vdot_s = np.concatenate([vdot[:, :3], _mv(R_b2g, vdot[:, 3:])], -1)  # dw = R W'
        return v_s, vdot_s

    def from_spatial(self, R_b2g, v_s):
        return np.concatenate([v_s[:, :3], _mv(_RT(R_b2g), v_s[:, 3:])], -1)

    def project(self, R_b2g, r_s):
        return np.concatenate([r_s[:, :3], _mv(_RT(R_b2g), r_s[:, 3:])], -1)


class LocalFormulation(Formulation):
    """SE(3) (Giusti sec. 2.4): v = [R^T v_G; W], both in body axes."""

    name = "local"

    def compose(self, r_G_g, R_b2g, y):
        u, theta = y[:, :3], y[:, 3:]
        # exp_SE3([u; theta]) = (exp(~theta), T(theta)^T u), composed on the right of (R_n, x_n)
        step = _mv(_RT(tangent(theta)), u)
        return r_G_g + _mv(R_b2g, step), R_b2g @ exp_so3(theta)

    def to_spatial(self, R_b2g, v, vdot):
        v_b, W = v[:, :3], v[:, 3:]
        v_s = np.concatenate([_mv(R_b2g, v_b), _mv(R_b2g, W)], -1)
        a_s = _mv(R_b2g, vdot[:, :3] + np.cross(W, v_b))  # a_G = R (v' + W x v)
        return v_s, np.concatenate([a_s, _mv(R_b2g, vdot[:, 3:])], -1)

    def from_spatial(self, R_b2g, v_s):
        RT = _RT(R_b2g)
        return np.concatenate([_mv(RT, v_s[:, :3]), _mv(RT, v_s[:, 3:])], -1)

    def project(self, R_b2g, r_s):
        RT = _RT(R_b2g)
        return np.concatenate([_mv(RT, r_s[:, :3]), _mv(RT, r_s[:, 3:])], -1)
