"""A flexible tower as ElastoDyn models it: up to two fore-aft and two side-side bending modes
(issue 37; docs/multibody.md, "Flexible tower").

The tower of flexible length L = TowerHt - TowerBsHt is cut into ``TwrNodes`` elements of length
DH = L / TwrNodes; node J (the element midpoint) sits at h_J = (J - 1/2) DH above the tower base
and carries the point mass m_J = AdjTwMa TMassDen(h_J / L) DH (no rotary inertia). A mode shape is
the polynomial phi(x) = sum_{i=2..6} c_i x^i of x = h / L (ElastoDyn ``SHP``), phi(1) = 1, so the
modal coordinate is the tower-top deflection. Everything below follows ElastoDyn's ``Coeff``
(ElastoDyn.f90), node by node (the midpoint rule on its own nodes):

* generalized mass        M_kk = TwrTpMass + sum_J m_J phi_k(h_J)^2
* generalized stiffness   K_kl = sqrt(tun_k tun_l) sum_J EI_J DH phi_k''(h_J) phi_l''(h_J)
* gravity term            KG_kk = -g sum_J TMssAbvNd_J DH phi_k'(h_J)^2, TMssAbvNd_J = the mass
  above node J per unit length as ElastoDyn accumulates it (half of element J, all elements
  above, and the tower-top mass) -- printed frequencies only: in the equations of motion the
  softening comes from the weight acting through the axial shortening (below)
* axial shortening        AxRed_kl(J) = sum of 0.5 DH phi_k' phi_l' over the element halves
  below node J (ElastoDyn's recurrence AxRed(J) = AxRd(J) + AxRed(J-1) + AxRd(J-1)), i.e.
  ~ int_0^h phi_k' phi_l' dh; the node rises by -1/2 sum_kl AxRed_kl(J) q_k q_l
* natural frequencies     f_k1 = sqrt(K_kk / (M_kk - TwrTpMass)) / 2 pi (no top mass, no
  gravity), f_k2 = sqrt((K_kk + KG_kk) / M_kk) / 2 pi
* modal damping           C_kl = 0.01 zeta_l K_kl / (pi f_l1)   (zeta in %).

The tower top (node "TTop", h = L) moves by the mode shapes' top values and turns by their top
slopes (ElastoDyn ``SetCoordSy``: fore-aft by -phi'(1) q about a3 = -y, side-side by phi'(1) q
about a1 = x).

Sign convention of floatwind's modal coordinates: q_FA along +x of the platform frame (as
ElastoDyn's QT(DOF_TFA1)), q_SS along +y (ElastoDyn's QT(DOF_TSS1) is along a3 = -y, so
q_SS = -QT(DOF_TSS1); ElastoDyn's TTDspSS output is our q_SS).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["MODE_NAMES", "TowerModes", "modal_integrals", "node_tensors", "shape_values"]

#: the four tower DOFs in floatwind's order (ElastoDyn's TwFADOF1, TwSSDOF1, TwFADOF2, TwSSDOF2
#: flags select them); direction 0 = fore-aft (x), 1 = side-side (y)
MODE_NAMES = ("TFA1", "TSS1", "TFA2", "TSS2")
MODE_DIRECTION = (0, 1, 0, 1)


def shape_values(coeffs, frac, flex_len: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(phi, phi', phi'') at the fractions ``frac`` of a polynomial shape sum_{i=2..6} c_i x^i
    (``coeffs`` = (c2..c6)); derivatives per metre of height (ElastoDyn ``SHP``)."""
    x = np.asarray(frac, dtype=float)
    c = np.asarray(coeffs, dtype=float)
    phi = np.zeros_like(x)
    d1 = np.zeros_like(x)
    d2 = np.zeros_like(x)
    for k, ck in enumerate(c):
        i = k + 2
        phi += ck * x**i
        d1 += i * ck * x ** (i - 1) / flex_len
        d2 += i * (i - 1) * ck * x ** (i - 2) / flex_len**2
    return phi, d1, d2


def modal_integrals(
    dh: np.ndarray,
    mass_den: np.ndarray,
    stiff: np.ndarray,
    phi: np.ndarray,
    dphi: np.ndarray,
    ddphi: np.ndarray,
    top_mass: float,
    gravity: float,
    tuner: np.ndarray | None = None,
) -> dict:
    """ElastoDyn's ``Coeff`` integrals of n modes of one direction on the nodes.

    dh (J,) element lengths; mass_den, stiff (J,) mass per length and EI at the nodes;
    phi, dphi, ddphi (n, J) shape and derivatives at the nodes; top_mass the tower-top mass;
    tuner (n,) stiffness tuners. Returns M (n, n) (diagonal only, as ElastoDyn), K (n, n),
    KG (n, n) (diagonal), f1, f2 (n,) Hz, mass_above (J,) (TMssAbvNd, kg)."""
    n, J = phi.shape
    elm = mass_den * dh
    above = np.zeros(J)
    for j in range(J - 1, -1, -1):  # ElastoDyn: TMssAbvNd, nodes in reverse
        above[j] = 0.5 * elm[j] + (top_mass if j == J - 1 else 0.5 * elm[j + 1] + above[j + 1])
    M = np.zeros((n, n))
    K = np.zeros((n, n))
    KG = np.zeros((n, n))
    for k in range(n):
        M[k, k] = top_mass + float(np.sum(elm * phi[k] ** 2))
        KG[k, k] = float(np.sum(-above * dh * gravity * dphi[k] ** 2))
        for m in range(n):
            K[k, m] = float(np.sum(stiff * dh * ddphi[k] * ddphi[m]))
    if tuner is not None:
        tun = np.asarray(tuner, dtype=float)
        K = np.sqrt(np.outer(tun, tun)) * K
    f1 = np.array([math.sqrt(K[k, k] / (M[k, k] - top_mass)) / (2 * math.pi) for k in range(n)])
    f2 = np.array(
        [math.sqrt(max(K[k, k] + KG[k, k], 0.0) / M[k, k]) / (2 * math.pi) for k in range(n)]
    )
    return {"M": M, "K": K, "KG": KG, "f1": f1, "f2": f2, "mass_above": above}


def axial_reduction(dh: np.ndarray, dphi: np.ndarray, dphi_top: np.ndarray) -> np.ndarray:
    """AxRed (n, n, J + 1): ElastoDyn's axial-reduction integrals at the nodes and (last) at
    the tower top: AxRed_kl(J) = AxRd_kl(J) + AxRed_kl(J-1) + AxRd_kl(J-1), AxRd = 0.5 DH
    phi_k' phi_l' (ElastoDyn.f90 ``Coeff``), the top AxRed(N) + AxRd(N)."""
    n, J = dphi.shape
    out = np.zeros((n, n, J + 1))
    old = np.zeros((n, n))
    for j in range(J):
        ard = 0.5 * dh[j] * np.outer(dphi[:, j], dphi[:, j])
        out[:, :, j] = ard if j == 0 else ard + out[:, :, j - 1] + old
        old = ard
    out[:, :, J] = out[:, :, J - 1] + old
    del dphi_top  # the top value uses the last element's half, as ElastoDyn
    return out


def node_tensors(mass: np.ndarray, node0: np.ndarray, phi: np.ndarray, axred: np.ndarray) -> dict:
    """The nodes' mass-weighted sums of products of their shape data, taken once (the modal
    tensors of the compiled path, ``floatwind._kernels.flex_nodes``; docs/multibody.md
    "Flexible tower", *The nodes enter through modal tensors*): with <f g> = sum_J m_J f_J g_J
    over ElastoDyn's tower nodes (its midpoint rule, as ``Coeff`` sums its integrals),

        N00 = <n0 n0^T> (3, 3), N0p = <n0 phi_k> (3, n), N0a = <n0 AxRed_kl> (3, n, n),
        Npp = <phi_k phi_l> (n, n), Npa = <phi_m AxRed_kl> (n, n, n),
        Naa = <AxRed_kj AxRed_lm> (n, n, n, n), stored with j last ([k, l, m, j]),

    from mass (J,) the node masses, node0 (J, 3) their undeflected places, phi (n, J) the
    shapes and axred (n, n, J) the axial-reduction integrals (:func:`axial_reduction`) at the
    nodes, of the active modes."""
    m = np.asarray(mass, dtype=float)
    n0 = np.asarray(node0, dtype=float)
    ph = np.asarray(phi, dtype=float)
    ax = np.asarray(axred, dtype=float)
    return {
        "N00": np.einsum("j,ja,jb->ab", m, n0, n0),
        "N0p": np.einsum("j,ja,kj->ak", m, n0, ph),
        "N0a": np.einsum("j,ja,klj->akl", m, n0, ax),
        "Npp": np.einsum("j,kj,lj->kl", m, ph, ph),
        "Npa": np.einsum("j,mj,klj->mkl", m, ph, ax),
        "Naa": np.einsum("J,kjJ,lmJ->klmj", m, ax, ax),
    }


@dataclass(frozen=True)
class TowerModes:
    """The flexible tower (ElastoDyn's model) with its active modes.

    Heights from the tower base; the base sits at ``base`` (3,) in the platform frame
    (the frame of the base body's reference, PRP). ``active`` lists the indices into
    :data:`MODE_NAMES` of the modes that are degrees of freedom, in state order."""

    flex_len: float  # L = TowerHt - TowerBsHt
    base: np.ndarray  # (3,) tower-base point in the platform frame
    h: np.ndarray  # (J,) node heights above the base
    dh: np.ndarray  # (J,) element lengths
    mass: np.ndarray  # (J,) node masses (kg)
    mass_den: np.ndarray  # (J,) kg/m
    stiff: np.ndarray  # (2, J) EI fore-aft, side-side (N m^2), adjusted
    coeffs: np.ndarray  # (4, 5) polynomial coefficients of TFA1, TSS1, TFA2, TSS2
    tuner: np.ndarray  # (4,)
    damping_pct: np.ndarray  # (4,) zeta (%)
    top_mass: float  # TwrTpMass
    gravity: float
    active: tuple  # indices into MODE_NAMES
    initial: np.ndarray  # (n_active,) initial modal coordinates (m)
    #: the tower-top rotation by the slopes: "elastodyn" (SmllRotTrans, angular velocity the
    #: linear sum of the slope rates, as ElastoDyn) or "exact" (R = Rx Ry, its exact angular
    #: velocity: the equations conserve energy exactly); equal to first order in the slopes
    top_rotation: str = "elastodyn"
    #: tower nodes with strain gages (0-based; ElastoDyn TwrGagNd - 1): channels TwHt#*
    gages: tuple = ()

    @property
    def n(self) -> int:
        return len(self.active)

    def shapes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(phi, phi', phi'') (4, J + 1) of the four modes at the nodes and (last) the top."""
        frac = np.append(self.h / self.flex_len, 1.0)
        out = [shape_values(self.coeffs[k], frac, self.flex_len) for k in range(4)]
        return tuple(np.array([o[d] for o in out]) for d in range(3))

    def integrals(self) -> dict:
        """Per direction (0 fore-aft, 1 side-side) the ElastoDyn integrals of its two modes
        (:func:`modal_integrals`), and ``axred`` (4, 4, J + 1) coupling the modes of the same
        direction (zero across directions)."""
        phi, d1, d2 = self.shapes()
        J = self.h.size
        res = {}
        axred = np.zeros((4, 4, J + 1))
        for dirn in (0, 1):
            idx = [k for k in range(4) if MODE_DIRECTION[k] == dirn]
            res[dirn] = modal_integrals(
                self.dh, self.mass_den, self.stiff[dirn], phi[idx, :J], d1[idx, :J],
                d2[idx, :J], self.top_mass, self.gravity, self.tuner[idx],
            )  # fmt: skip
            ax = axial_reduction(self.dh, d1[idx, :J], d1[idx, J])
            for a, ka in enumerate(idx):
                for b, kb in enumerate(idx):
                    axred[ka, kb] = ax[a, b]
        res["axred"] = axred
        return res

    def frequencies(self) -> dict[str, tuple[float, float]]:
        """{mode name: (f without top mass and gravity, f with both)} (Hz), ElastoDyn's
        FreqTFA / FreqTSS."""
        it = self.integrals()
        out = {}
        for k, name in enumerate(MODE_NAMES):
            dirn, i = MODE_DIRECTION[k], k // 2
            out[name] = (float(it[dirn]["f1"][i]), float(it[dirn]["f2"][i]))
        return out

    def stiffness_damping(self) -> tuple[np.ndarray, np.ndarray]:
        """(K, C) (4, 4) in MODE_NAMES order (zero across directions), C_kl = 0.01 zeta_l
        K_kl / (pi f_l1) (ElastoDyn ``Coeff``)."""
        it = self.integrals()
        K = np.zeros((4, 4))
        C = np.zeros((4, 4))
        for dirn in (0, 1):
            idx = [k for k in range(4) if MODE_DIRECTION[k] == dirn]
            Kd, f1 = it[dirn]["K"], it[dirn]["f1"]
            for a, ka in enumerate(idx):
                for b, kb in enumerate(idx):
                    K[ka, kb] = Kd[a, b]
                    C[ka, kb] = 0.01 * self.damping_pct[kb] * Kd[a, b] / (math.pi * f1[b])
        return K, C


_ARRAY_FIELDS = ("base", "h", "dh", "mass", "mass_den", "stiff", "coeffs", "tuner", "damping_pct",
                 "initial")  # fmt: skip


def tower_to_dict(tm: TowerModes, top) -> dict:
    """The case-file form (key ``flexible_tower``) of a tower and its top point (base frame)."""
    out = {"flex_length": float(tm.flex_len), "top_mass": float(tm.top_mass),
           "gravity": float(tm.gravity), "modes": [MODE_NAMES[k] for k in tm.active],
           "top": [float(v) for v in np.asarray(top, dtype=float)],
           "top_rotation": tm.top_rotation, "gages": [int(g) for g in tm.gages]}  # fmt: skip
    for f in _ARRAY_FIELDS:
        out[f] = np.asarray(getattr(tm, f), dtype=float).tolist()
    return out


def tower_from_dict(d: dict) -> tuple[TowerModes, np.ndarray]:
    """:func:`tower_to_dict` read back (ValueError naming the key on a bad entry)."""
    if not isinstance(d, dict):
        raise ValueError("flexible_tower must be a mapping")
    missing = [k for k in (*_ARRAY_FIELDS, "flex_length", "top_mass", "gravity", "modes", "top")
               if k not in d]  # fmt: skip
    if missing:
        raise ValueError(f"flexible_tower: missing {missing}")
    modes = list(d["modes"])
    bad = [m for m in modes if m not in MODE_NAMES]
    if bad or len(set(modes)) != len(modes) or not modes:
        raise ValueError(f"flexible_tower.modes: a non-empty subset of {list(MODE_NAMES)}")
    arr = {f: np.asarray(d[f], dtype=float) for f in _ARRAY_FIELDS}
    J = arr["h"].size
    if arr["stiff"].shape != (2, J) or arr["coeffs"].shape != (4, 5) or np.any(arr["stiff"] <= 0):
        raise ValueError("flexible_tower: stiff must be (2, nodes) and positive, coeffs (4, 5)")
    rot = d.get("top_rotation", "elastodyn")
    if rot not in ("elastodyn", "exact"):
        raise ValueError(f"flexible_tower.top_rotation: 'elastodyn' or 'exact', got {rot!r}")
    gages = tuple(int(g) for g in d.get("gages", []) or [])
    if any(g < 0 or g >= arr["h"].size for g in gages):
        raise ValueError(f"flexible_tower.gages: node indices 0 .. {arr['h'].size - 1}")
    active = tuple(sorted(MODE_NAMES.index(m) for m in modes))
    if arr["initial"].size != len(active):
        raise ValueError("flexible_tower.initial: one value per mode")
    tm = TowerModes(
        flex_len=float(d["flex_length"]), base=arr["base"], h=arr["h"], dh=arr["dh"],
        mass=arr["mass"], mass_den=arr["mass_den"], stiff=arr["stiff"], coeffs=arr["coeffs"],
        tuner=arr["tuner"], damping_pct=arr["damping_pct"], top_mass=float(d["top_mass"]),
        gravity=float(d["gravity"]), active=active, initial=arr["initial"], top_rotation=rot,
        gages=gages,
    )  # fmt: skip
    return tm, np.asarray(d["top"], dtype=float)
