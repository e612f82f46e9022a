"""Campbell diagram: the modes of the linear model over rotor speeds.

The model is linearised (floatwind.linear.matrices) about its operating point at each rotor
speed, the rotor spinning at that constant rate (a prescribed ``constant_rate`` motion of the
spin joint): the rotor's gyroscopic coupling of the platform rotations (omega x I_spin Omega)
then appears in the damping matrix, and a rotor load's dependence on the rotor speed in C and
K. Modes are followed from one speed to the next by the modal assurance criterion
(Allemang, "The modal assurance criterion - twenty years of use and abuse", *Sound and
Vibration* 37, 2003), so a line of the diagram is one physical mode even where two cross.
With a lumped (axisymmetric) rotor the spinning system is time-invariant; with separate blade
bodies it is periodic and the snapshot at t = 0 is taken (multi-blade coordinates are not
implemented).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from floatwind.linear.matrices import linearize
from floatwind.linear.modes import modes

__all__ = ["Campbell", "campbell"]


@dataclass
class Campbell:
    rpm: np.ndarray  # (R,)
    frequency: np.ndarray  # (R, n) Hz, undamped natural frequencies, columns = tracked modes
    damping_ratio: np.ndarray  # (R, n)
    dof: list[str]  # dominant DOF of each tracked mode at the first speed
    dof_at: list[list[str]]  # (R, n) dominant DOF at each speed


def _mac(a, b, M):
    num = abs(np.vdot(a, M @ b)) ** 2
    den = abs(np.vdot(a, M @ a)) * abs(np.vdot(b, M @ b))
    return num / den if den > 0 else 0.0


def campbell(model_at: Callable[[float], object], rpm, at: str = "equilibrium") -> Campbell:
    """Modes at each rotor speed (rpm); ``model_at(rpm)`` builds the model spinning at it."""
    rpm = np.asarray(rpm, float)
    prev = None
    freq, zeta, names = [], [], []
    for r in rpm:
        lin = linearize(model_at(float(r)), at)
        md = modes(lin)
        n = lin.n
        order = list(range(n))
        if prev is not None:  # greedy assignment by the largest MAC
            shapes_prev, M = prev
            mac = np.array([[_mac(shapes_prev[i], md.shape[j], M) for j in range(n)]
                            for i in range(n)])  # fmt: skip
            order = [-1] * n
            for _ in range(n):
                i, j = np.unravel_index(np.argmax(mac), mac.shape)
                order[i] = int(j)
                mac[i, :] = -1.0
                mac[:, j] = -1.0
        f = md.omega_n[order] / (2 * np.pi)
        freq.append(f)
        zeta.append(md.damping_ratio[order])
        names.append([md.dof[j] for j in order])
        prev = (md.shape[order], lin.M)
    return Campbell(rpm=rpm, frequency=np.array(freq), damping_ratio=np.array(zeta),
                    dof=list(names[0]), dof_at=names)  # fmt: skip


def campbell_figure(cd: Campbell, title: str, path, fmt: str = "png", n_blades: int = 3) -> None:
    """Natural frequencies against rotor speed with the 1P and nP excitation lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5))
    for k, name in enumerate(cd.dof):
        ax.plot(cd.rpm, cd.frequency[:, k], "o-", ms=3, label=name)
    top = max(float(cd.frequency.max()) * 1.1, 1e-3)
    for mult, style in ((1, "k--"), (n_blades, "k:")):
        ax.plot(cd.rpm, mult * cd.rpm / 60.0, style, lw=0.8, label=f"{mult}P")
    ax.set_ylim(0, top)
    ax.set_xlabel("rotor speed (rpm)")
    ax.set_ylabel("natural frequency (Hz)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, format=fmt, dpi=100)
    plt.close(fig)
