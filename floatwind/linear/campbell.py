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

A case with explicit ``joints`` (an imported deck, or a YAML tree) is swept by setting its shaft
joint's prescribed rate (:func:`spin_joint`); a flexible tower's modes (TwFADOF1, TwSSDOF1, ...)
are then lines of the diagram like the platform's. :func:`crossings` gives the rotor speeds at
which a mode's frequency meets an excitation line nP (the resonance speeds a designer reads off
the diagram).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from floatwind.linear.matrices import linearize
from floatwind.linear.modes import modes

__all__ = ["Campbell", "campbell", "crossings", "spin_joint"]


@dataclass
class Campbell:
    rpm: np.ndarray  # (R,)
    frequency: np.ndarray  # (R, n) Hz, undamped natural frequencies, columns = tracked modes
    damping_ratio: np.ndarray  # (R, n)
    dof: list[str]  # dominant DOF of each tracked mode at the first speed
    dof_at: list[list[str]]  # (R, n) dominant DOF at each speed
    #: (R, 6) platform operating point at each speed (m, rad; Linearization.x0)
    operating_point: np.ndarray | None = None


def spin_joint(case: dict, rate: float, joint: str = "shaft") -> dict:
    """The case dict (explicit ``joints``) with joint ``joint`` turning at the constant ``rate``
    (rad/s): its rotation a ``constant_rate`` motion, a ``drive`` (a free rotor) removed; a joint
    geared to it (the imported generator, ``gear.leader``) turns at ``ratio * rate``. The dict is
    changed in place and returned; ValueError names a missing joint."""
    joints = case.get("joints") or []
    names = [j.get("name") for j in joints if isinstance(j, dict)]
    if joint not in names:
        raise ValueError(
            f"no joint named '{joint}' (joints: {', '.join(map(str, names)) or 'none'})"
        )
    q0 = 0.0
    for j in joints:
        if j.get("name") == joint:
            rot = j.get("rotation") if isinstance(j.get("rotation"), dict) else {}
            q0 = float(rot.get("q0", math.radians(float(rot.get("q0_deg", 0.0)))))
            q0 = float((j.get("drive") or {}).get("initial", q0))  # a free rotor's start angle
            j.pop("drive", None)
            j["rotation"] = {"kind": "constant_rate", "q0": q0, "rate": float(rate)}
    for j in joints:
        gear = j.get("gear")
        if isinstance(gear, dict) and gear.get("leader") == joint:
            ratio = float(gear["ratio"])
            j.pop("gear")
            start = ratio * q0 + float(gear.get("offset", 0.0))  # theta = ratio theta_k + offset
            j["rotation"] = {"kind": "constant_rate", "q0": start, "rate": ratio * float(rate)}
    return case


def crossings(cd: Campbell, mult: float) -> np.ndarray:
    """Per tracked mode, the lowest rotor speed (rpm) of the sweep at which its natural
    frequency equals the excitation ``mult`` P (``mult * rpm / 60`` Hz), by linear
    interpolation between the swept speeds; NaN where the line does not cross it in the sweep."""
    out = np.full(cd.frequency.shape[1], np.nan)
    g = cd.frequency - mult * cd.rpm[:, None] / 60.0  # > 0 below the crossing
    for k in range(g.shape[1]):
        for i in range(len(cd.rpm) - 1):
            a, b = g[i, k], g[i + 1, k]
            if a == 0.0:
                out[k] = cd.rpm[i]
                break
            if a > 0.0 >= b:
                out[k] = cd.rpm[i] + (cd.rpm[i + 1] - cd.rpm[i]) * a / (a - b)
                break
    return out


def _mac(a, b, M):
    num = abs(np.vdot(a, M @ b)) ** 2
    den = abs(np.vdot(a, M @ a)) * abs(np.vdot(b, M @ b))
    return num / den if den > 0 else 0.0


def campbell(model_at: Callable[[float], object], rpm, at: str = "equilibrium") -> Campbell:
    """Modes at each rotor speed (rpm); ``model_at(rpm)`` builds the model spinning at it."""
    rpm = np.asarray(rpm, float)
    prev = None
    freq, zeta, names, x0 = [], [], [], []
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
        x0.append(lin.x0)
        prev = (md.shape[order], lin.M)
    return Campbell(rpm=rpm, frequency=np.array(freq), damping_ratio=np.array(zeta),
                    dof=list(names[0]), dof_at=names, operating_point=np.array(x0))  # fmt: skip


def campbell_figure(cd: Campbell, title: str, path, fmt: str = "png", n_blades: int = 3) -> None:
    """Natural frequencies against rotor speed with the 1P and nP excitation lines (a logarithmic
    frequency axis where the modes span more than a decade, e.g. platform and tower modes), and
    the damping ratios below."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax, az) = plt.subplots(2, 1, figsize=(8, 7), sharex=True, height_ratios=(2, 1))
    for k, name in enumerate(cd.dof):
        ax.plot(cd.rpm, cd.frequency[:, k], "o-", ms=3, label=name)
        az.plot(cd.rpm, cd.damping_ratio[:, k], "o-", ms=3)
    top = max(float(cd.frequency.max()) * 1.1, 1e-3)
    low = float(cd.frequency[cd.frequency > 0].min()) if np.any(cd.frequency > 0) else top
    rpm = np.linspace(float(cd.rpm[0]), float(cd.rpm[-1]), 200)
    for mult, style in ((1, "k--"), (n_blades, "k:")):
        ax.plot(rpm, mult * rpm / 60.0, style, lw=0.8, label=f"{mult}P")
        x = crossings(cd, float(mult))  # the resonance speeds in the sweep
        x = x[np.isfinite(x)]
        ax.plot(x, mult * x / 60.0, "kx", ms=7)
    if top / low > 20.0:
        ax.set_yscale("log")
        ax.set_ylim(low / 1.5, top * 1.5)
    else:
        ax.set_ylim(0, top)
    ax.set_ylabel("natural frequency (Hz)")
    az.set_xlabel("rotor speed (rpm)")
    az.set_ylabel("damping ratio (-)")
    for a in (ax, az):
        a.grid(True, alpha=0.3, which="both")
    ax.legend(fontsize=7, ncol=2)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, format=fmt, dpi=100)
    plt.close(fig)
