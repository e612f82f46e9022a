"""Hull meshes for the BEM solver: an axisymmetric profile revolved as a polygon, or a mesh file.

Only numpy here (Capytaine is needed only to read mesh files), so the mesh and its displaced
volume can be checked without the optional extra.

Profile hulls (a case's ``hydrostatics`` members, or a list of ``(r, z)`` points) are revolved as
an ``n``-sided polygon whose radii are scaled by ``sqrt(2 pi / (n sin(2 pi / n)))`` so that each
section keeps the circle's area (so the displaced volume and the waterplane area are the
circle's); only the part below the still water level ``z = 0`` is meshed. The mesh is stored as
one wedge (``2 pi / n``) that Capytaine's ``RotationSymmetricMesh`` turns into the whole hull,
which makes the solve about ``n`` times cheaper (Capytaine 3 docs, "Symmetries"). Normals point
out of the body into the water (Capytaine's convention). The irregular-frequency lid is a disc
of the same polygon on the free surface (Capytaine docs, "Irregular frequencies removal"),
normals pointing down, its rim one waterline panel inside the hull (``LID_INSET``; the lid study
of docs/potential_flow.md).
"""

from __future__ import annotations

import math
import pathlib
from dataclasses import dataclass, field

import numpy as np

from floatwind.errors import CaseError

__all__ = [
    "Hull",
    "hull_from_case",
    "hull_from_mesh_file",
    "hull_from_profile",
    "profile_from_members",
]

#: depth of the irregular-frequency lid below the still water level (m): on it (Capytaine's
#: free-surface panels; 0.01 m below, the lid made spurious resonances at 3.2-4 rad/s)
LID_DEPTH = 0.0
#: the lid's rim stands this many lengths of the hull's waterline panels inside the waterline:
#: a lid that meets the hull (0) changed the damping at regular frequencies by several per cent
#: at 1,600 panels, the more the finer the lid (docs/potential_flow.md, "the lid")
LID_INSET = 1.0
#: axial / circumferential panel size of the revolved profile (slender hulls vary slowly along z)
ASPECT = 2.5
#: the panels grow from a quarter of the largest at the waterline to the largest over this
#: fraction of the outline's length (a fixed shape, so that refining is self-similar)
GRADED_FRACTION = 1.0 / 6.0


@dataclass(frozen=True)
class Hull:
    """A hull mesh below the still water level (m, inertial axes of the undisplaced body).

    vertices, faces : the whole hull, ``(V, 3)`` and ``(F, 4)`` (a triangle repeats a vertex)
    lid_vertices, lid_faces : the irregular-frequency lid (empty without a lid)
    n_sectors : the rotation order when the hull is ``n_sectors`` copies of its first wedge
        (the wedge's faces are the first ``F / n_sectors`` faces), else 0
    name : a name for the files written from it
    source : where the hull came from (a case file and field, or a mesh file)
    """

    vertices: np.ndarray
    faces: np.ndarray
    lid_vertices: np.ndarray
    lid_faces: np.ndarray
    n_sectors: int = 0
    name: str = "hull"
    source: str = ""
    wedge: tuple = field(default=(), repr=False)  # (vertices, faces, lid_vertices, lid_faces)

    @property
    def n_panels(self) -> int:
        return int(len(self.faces))

    @property
    def n_lid_panels(self) -> int:
        return int(len(self.lid_faces))

    @property
    def volume(self) -> float:
        """Displaced volume (m^3): ``int z n_z dS`` over the hull (divergence theorem; the
        waterplane z = 0 adds nothing), exact for flat panels."""
        return float(np.sum(_triangle_integrals(self.vertices, self.faces)[0]))

    @property
    def centre_of_buoyancy_z(self) -> float:
        vol, zmom = _triangle_integrals(self.vertices, self.faces)
        return float(np.sum(zmom) / np.sum(vol))


def _triangle_integrals(vertices, faces):
    """Per triangle ``int z n_z dS`` and ``int z^2/2 n_z dS`` (quads split in two)."""
    tris = np.concatenate([faces[:, [0, 1, 2]], faces[:, [0, 2, 3]]])
    p = vertices[tris]  # (T, 3, 3)
    nz_area = 0.5 * np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])[:, 2]
    z = p[:, :, 2]
    zbar = z.mean(axis=1)
    z2 = (z[:, 0] ** 2 + z[:, 1] ** 2 + z[:, 2] ** 2 + z[:, 0] * z[:, 1] + z[:, 1] * z[:, 2]
          + z[:, 0] * z[:, 2]) / 6.0  # mean of z^2 over a triangle  # fmt: skip
    return zbar * nz_area, 0.5 * z2 * nz_area


def profile_from_members(members, field: str = "members") -> np.ndarray:
    """The hull's ``(r, z)`` outline below z = 0, from the bottom's centre up to the waterline,
    from ``hydrostatics`` members (mappings with ``z_bottom``, ``z_top`` and ``diameter`` or
    ``diameter_bottom``/``diameter_top``, optional ``axis_xy`` = [0, 0])."""
    from floatwind.loads.hydrostatics import Hydrostatics

    if not isinstance(members, (list, tuple)) or not members:
        raise CaseError("expected a list of axisymmetric members (z_bottom, z_top, diameter)",
                        field=field)  # fmt: skip
    parsed = [Hydrostatics._make_member(m, f"{field}[{i}]") for i, m in enumerate(members)]
    for i, m in enumerate(parsed):
        if np.hypot(*m.axis_xy) > 1e-9:
            raise CaseError(
                f"axis at ({m.axis_xy[0]:g}, {m.axis_xy[1]:g}) m: a hull profile must be "
                "axisymmetric about z (several columns need a mesh file)",
                field=f"{field}[{i}].axis_xy",
            )
    order = sorted(range(len(parsed)), key=lambda i: parsed[i].z_bottom)
    wet = [(i, parsed[i]) for i in order if parsed[i].z_bottom < 0.0]
    if not wet:
        raise CaseError("no member lies below the still water level z = 0", field=field)
    i_top, top = wet[-1]
    if top.z_top < 0.0:
        raise CaseError(
            f"the hull's top z_top = {top.z_top:g} m lies below the still water level: a BEM "
            "hull must pierce the free surface", field=f"{field}[{i_top}].z_top",
        )  # fmt: skip
    pts = [(0.0, wet[0][1].z_bottom)]
    prev_top = None
    for i, m in wet:
        if prev_top is not None and abs(m.z_bottom - prev_top) > 1e-6:
            raise CaseError(
                f"z_bottom = {m.z_bottom:g} m does not meet the member below (z_top = "
                f"{prev_top:g} m): a hull profile must be one continuous column",
                field=f"{field}[{i}].z_bottom",
            )  # fmt: skip
        r0, r1 = m.diameter_bottom / 2.0, m.diameter_top / 2.0
        z1 = min(m.z_top, 0.0)
        r_top = r0 + (r1 - r0) * (z1 - m.z_bottom) / (m.z_top - m.z_bottom)
        pts.append((r0, m.z_bottom))
        pts.append((r_top, z1))
        prev_top = m.z_top
    out = [pts[0]]
    for p in pts[1:]:
        if abs(p[0] - out[-1][0]) > 1e-12 or abs(p[1] - out[-1][1]) > 1e-12:
            out.append(p)
    return np.array(out, dtype=float)


def _split(profile: np.ndarray, n_target: float, refine: int = 1) -> np.ndarray:
    """Points along the outline, about ``n_target`` panels graded from the waterline down: the
    panel length is ``h f(d)`` at the distance ``d`` along the outline from the waterline, with
    ``f = min(1, 1/4 + 3/4 d / L)`` and ``L = GRADED_FRACTION`` of the outline's length (waves
    decay as e^{kz}, so the radiated waves come from the top few metres: the damping near its
    peak needs fine panels there; docs/potential_flow.md has the mesh study). ``f`` does not
    depend on ``h``, so meshes of more panels are the same layout refined everywhere by the
    same factor (a self-similar family, as a convergence study needs); ``refine`` multiplies
    every piece's panel count of the ``n_target`` layout exactly. Every corner of the outline
    is a mesh point; a horizontal piece (a flat bottom) has two panels at least (the heave
    added mass comes from it)."""
    seg = np.hypot(*np.diff(profile, axis=0).T)
    s_edges = np.concatenate([[0.0], np.cumsum(seg)])
    total = s_edges[-1]
    fine = np.linspace(0.0, total, 4001)
    shape = np.minimum(1.0, 0.25 + 0.75 * (total - fine) / (GRADED_FRACTION * total))
    # panels per metre / (1 / h), integrated from the bottom's centre: n(s) = cum(s) / h
    cum = np.concatenate([[0.0], np.cumsum(0.5 * (1.0 / shape[1:] + 1.0 / shape[:-1])
                                           * np.diff(fine))])  # fmt: skip
    h = cum[-1] / n_target  # the largest panel length that gives n_target panels
    cum = cum / h
    out = [profile[0]]
    for a, b, s0, s1 in zip(profile[:-1], profile[1:], s_edges[:-1], s_edges[1:]):
        c0, c1 = np.interp([s0, s1], fine, cum)
        n = max(2 if abs(b[1] - a[1]) < 1e-9 else 1, round(c1 - c0))  # a flat bottom: 2 rings
        n *= int(refine)
        for k in range(1, n + 1):
            s_k = np.interp(c0 + (c1 - c0) * k / n, cum, fine)
            out.append(a + (b - a) * (s_k - s0) / (s1 - s0))
    return np.array(out)


def hull_from_profile(profile, *, panels: int = 1600, lid: bool = True, name: str = "hull",
                      source: str = "", field: str = "profile", n_sectors: int | None = None,
                      refine=1, lid_depth: float = LID_DEPTH, lid_rings: int | None = None,
                      lid_inset: float = LID_INSET) -> Hull:  # fmt: skip
    """Revolve an ``(r, z)`` outline (from the bottom's centre, r = 0, up to the waterline z = 0)
    into a polygonal hull of about ``panels`` panels (module docstring).

    The number of sides is a multiple of 4 chosen so that the panels are about ``ASPECT`` times
    longer along the outline than around it (at the largest radius), unless ``n_sectors`` is
    given (then ``panels / n_sectors`` sets the panel count along the outline).

    ``refine`` (an integer, or a pair ``(around, along)``) refines that layout by whole factors:
    ``around`` times the sides (and the lid's rings as for that many sides), every piece of the
    outline ``along`` times its panels, with the same grading (a self-similar family of meshes
    for a convergence study: ``refine = 2`` has 4 times the panels).

    The irregular-frequency lid is a disc of the same polygon ``lid_depth`` below the free
    surface (``0 <= lid_depth`` < the depth of the hull's first vertex below the waterline: a
    deeper lid leaves irregular frequencies in the range and cuts the hull's top panels), its
    rim ``lid_inset`` times the length of the hull's waterline panels (along the outline) inside
    the hull (at most half the radius; 0: a lid that meets the hull), in ``lid_rings`` rings of
    equal width (default: as many as make the lid's panels about ``ASPECT`` times longer
    radially than around at the hull's waterline; ``refine``'s ``around`` multiplies them).
    The defaults are what ``floatwind bem`` uses; the other values are for the lid study of
    docs/potential_flow.md."""
    pair = (refine, refine) if np.ndim(refine) == 0 else tuple(np.ravel(refine))
    if len(pair) != 2 or any(int(m) != m or m < 1 for m in pair):
        raise CaseError(f"refine {refine!r}: a whole factor >= 1 or a pair (around, along)",
                        field="refine")  # fmt: skip
    m_around, m_along = pair
    m_around, m_along = int(m_around), int(m_along)
    prof = np.asarray(profile, dtype=float)
    if prof.ndim != 2 or prof.shape[1] != 2 or len(prof) < 2:
        raise CaseError("expected (r, z) points", field=field)
    if abs(prof[-1, 1]) > 1e-9 or prof[-1, 0] <= 0.0:
        raise CaseError("the outline must end on the still water level z = 0 with r > 0",
                        field=field)  # fmt: skip
    if int(panels) < 32:
        raise CaseError(f"{panels} panels: at least 32", field="panels")
    seg = np.hypot(*np.diff(prof, axis=0).T)
    length, r_max = float(seg.sum()), float(prof[:, 0].max())
    n = max(8, 4 * round(math.sqrt(2 * math.pi * r_max * ASPECT * panels / length) / 4))
    if n_sectors is not None:
        if int(n_sectors) < 3:
            raise CaseError(f"{n_sectors} sectors: at least 3", field="n_sectors")
        n = int(n_sectors)
    pts = _split(prof, panels / n, m_along)
    n *= m_around
    scale = math.sqrt(2.0 * math.pi / (n * math.sin(2.0 * math.pi / n)))
    wv, wf = _revolve_wedge(pts, n, scale)
    lv = lf = np.zeros((0, 3))
    if lid:
        depth = float(lid_depth)
        if not 0.0 <= depth < -float(pts[-2, 1]):
            raise CaseError(f"lid_depth {lid_depth!r}: between 0 and {-float(pts[-2, 1]):.4g} m (the "
                            "hull's first vertex below the waterline)", field="lid_depth")  # fmt: skip
        if not (math.isfinite(float(lid_inset)) and float(lid_inset) >= 0.0):
            raise CaseError(f"lid_inset {lid_inset!r}: >= 0 (waterline panel lengths)",
                            field="lid_inset")  # fmt: skip
        r_wall = float(np.interp(-depth, prof[1:, 1], prof[1:, 0]))
        h_wl = float(np.hypot(*(pts[-1] - pts[-2])))  # the hull's waterline panel, along the outline
        r_lid = r_wall - min(float(lid_inset) * h_wl / scale, 0.5 * r_wall)
        if lid_rings is None:  # the lid's panels shaped as the hull's
            n_rings = max(1, math.ceil(n / (2.0 * math.pi * ASPECT) - 1e-9))
        elif int(lid_rings) != lid_rings or lid_rings < 1:
            raise CaseError(f"lid_rings {lid_rings!r}: a whole number >= 1", field="lid_rings")
        else:
            n_rings = int(lid_rings) * m_around
        disc = np.column_stack([np.linspace(0.0, r_lid, n_rings + 1),
                                np.full(n_rings + 1, -depth)])  # fmt: skip
        lv, lf = _revolve_wedge(disc, n, scale)  # outward from the axis: normals down
    V, F = _rotate_copies(wv, wf, n)
    LV, LF = _rotate_copies(lv, lf.astype(int), n) if lid else (np.zeros((0, 3)),
                                                                 np.zeros((0, 4), int))  # fmt: skip
    return Hull(V, F, LV, LF, n_sectors=n, name=name, source=source,
                wedge=(wv, wf, lv, lf.astype(int) if lid else np.zeros((0, 4), int)))  # fmt: skip


def _revolve_wedge(pts: np.ndarray, n: int, scale: float):
    """Quads between the angles 0 and 2 pi / n of the revolved points (r, z): vertices
    ``2k`` (angle 0) and ``2k + 1``; normals out of the body when the points go up the hull."""
    th = 2.0 * math.pi / n
    r, z = pts[:, 0] * scale, pts[:, 1]
    V = np.empty((2 * len(pts), 3))
    V[0::2] = np.column_stack([r, np.zeros_like(r), z])
    V[1::2] = np.column_stack([r * math.cos(th), r * math.sin(th), z])
    k = np.arange(len(pts) - 1)
    # a point on the axis makes its two vertices coincide: that quad is a triangle (Capytaine
    # merges the vertices when it cleans the mesh; the volume integrals see a zero-area half)
    F = np.column_stack([2 * k, 2 * k + 1, 2 * k + 3, 2 * k + 2])
    return V, F


def _rotate_copies(V: np.ndarray, F: np.ndarray, n: int):
    out_v, out_f = [], []
    for s in range(n):
        c, si = math.cos(2 * math.pi * s / n), math.sin(2 * math.pi * s / n)
        R = np.array([[c, -si, 0.0], [si, c, 0.0], [0.0, 0.0, 1.0]])
        out_v.append(V @ R.T)
        out_f.append(F + s * len(V))
    return np.concatenate(out_v), np.concatenate(out_f).astype(np.int64)


def hull_from_case(path, *, panels: int = 1600, lid: bool = True, load: int | None = None) -> Hull:
    """The hull of a case file: the members of its (first, or ``load``-th) ``hydrostatics``
    load, revolved (:func:`hull_from_profile`). The members are in the body frame, which is the
    inertial frame of the undisplaced platform (z = 0 the still water level)."""

    from floatwind.io.safe import load_yaml, read_text
    from floatwind.loads.hydrostatics import Hydrostatics

    path = pathlib.Path(path)
    if not path.is_file():
        raise CaseError("case file not found", file=str(path))
    data = load_yaml(read_text(path), file=str(path))
    loads = data.get("loads") if isinstance(data, dict) else None
    if not isinstance(loads, list):
        raise CaseError("the case has no 'loads' list with a hydrostatics load (the hull's "
                        "axisymmetric members)", field="loads", file=str(path))  # fmt: skip
    candidates = [i for i, ld in enumerate(loads) if isinstance(ld, dict)
                  and ld.get("type") == Hydrostatics.kind]  # fmt: skip
    if load is not None:
        candidates = [i for i in candidates if i == load]
    if not candidates:
        raise CaseError(f"no '{Hydrostatics.kind}' load with the hull's axisymmetric members "
                        "(give a mesh file instead)", field="loads", file=str(path))  # fmt: skip
    i = min(candidates)  # the first hydrostatics load
    fld = f"loads[{i}].members"
    try:
        prof = profile_from_members(loads[i].get("members"), fld)
        return hull_from_profile(prof, panels=panels, lid=lid, name=path.stem,
                                 source=f"{path}:{fld}", field=fld)  # fmt: skip
    except CaseError as exc:
        raise exc.with_file(str(path)) from None


def require_capytaine():
    """The ``capytaine`` module, or a one-line :class:`CaseError` saying how to install it."""
    try:
        import capytaine
    except ImportError:
        raise CaseError("computing coefficients from a hull needs Capytaine: pip install -e "
                        "'.[bem]'", field="bem") from None  # fmt: skip
    return capytaine


def hull_from_mesh_file(path, *, lid: bool = True) -> Hull:
    """A hull from a mesh file Capytaine reads (``.gdf``, ``.dat``, ``.pnl``, ``.msh``, ...,
    Capytaine docs "Mesh formats"), clipped at z = 0; the lid rings of its waterline
    (:func:`_star_lid`; Capytaine's ``generate_lid`` finds none under vertical walls)."""
    cpt = require_capytaine()
    path = pathlib.Path(path)
    if not path.is_file():
        raise CaseError("mesh file not found", file=str(path))
    try:
        mesh = cpt.load_mesh(str(path))
    except Exception as exc:  # Capytaine raises several kinds for unreadable files
        raise CaseError(f"Capytaine cannot read this mesh: {exc}", file=str(path)) from None
    if hasattr(mesh, "merged"):
        mesh = mesh.merged()
    mesh = mesh.immersed_part()
    V = np.asarray(mesh.vertices, float)
    F = _as_quads(mesh.faces)
    if len(F) == 0:
        raise CaseError("no panel below the still water level z = 0", file=str(path))
    size = float(np.ptp(V, axis=0).max())
    F = F[~np.all(V[F][:, :, 2] > -1e-9 * size, axis=1)]  # a panel in the waterplane is no hull
    LV, LF = np.zeros((0, 3)), np.zeros((0, 4), int)
    if lid:
        LV, LF = _star_lid(V, F, size, str(path))
    return Hull(V, F, LV, LF, n_sectors=0, name=path.stem, source=str(path))


def _star_lid(V, F, size: float, file: str):
    """A lid under a single waterline that is star-shaped about its centroid: rings of the
    waterline polygon shrunk towards the centroid, ``LID_DEPTH`` below the free surface, the
    outer ring ``LID_INSET`` times the mean height of the waterline panels inside the waterline
    (as :func:`hull_from_profile`'s), normals down. (Capytaine's ``generate_lid`` finds no lid
    under vertical walls.)"""
    on = np.abs(V[:, 2]) < 1e-6 * size
    edges = set()
    heights = []
    for f in F:
        ring = [int(v) for v in f]
        touches = False
        for a, b in zip(ring, ring[1:] + ring[:1]):
            if a != b and on[a] and on[b]:
                edges.add((min(a, b), max(a, b)))
                touches = True
        if touches:
            heights.append(-float(V[ring, 2].min()))
    if not edges:
        raise CaseError("the hull has no waterline at z = 0 for a lid (use --no-lid)", file=file)
    parent = {v: v for e in edges for v in e}

    def root(v):
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for a, b in edges:
        parent[root(a)] = root(b)
    if len({root(v) for v in parent}) != 1:
        raise CaseError("the hull has several waterlines (columns): floatwind builds a lid under "
                        "one waterline only (use --no-lid)", file=file)  # fmt: skip
    pts = V[sorted(parent)][:, :2]
    c = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    poly = pts[np.argsort(ang)]
    n = len(poly)
    radius = np.hypot(*(poly - c).T)
    step = 2.0 * math.pi * float(radius.mean()) / n
    m = max(1, math.ceil(float(radius.max()) / (ASPECT * step) - 1e-9))
    outer = 1.0 - min(LID_INSET * float(np.mean(heights)) / float(radius.mean()), 0.5)
    verts = [np.array([c[0], c[1], -LID_DEPTH])]
    for t in outer * np.arange(1, m + 1) / m:
        verts.extend(np.column_stack([c + t * (poly - c), np.full(n, -LID_DEPTH)]))
    LV = np.array(verts)
    faces = []
    for k in range(n):  # centre triangles, then quads between the rings
        faces.append([0, 1 + (k + 1) % n, 1 + k, 1 + k])
    for r in range(m - 1):
        a0, a1 = 1 + r * n, 1 + (r + 1) * n
        for k in range(n):
            k1 = (k + 1) % n
            faces.append([a0 + k, a0 + k1, a1 + k1, a1 + k])
    LF = np.array(faces, dtype=np.int64)
    p = LV[LF]
    if np.mean(np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])[:, 2]) > 0.0:
        LF = LF[:, ::-1].copy()  # normals down
    return LV, LF


def _as_quads(faces) -> np.ndarray:
    rows = [list(f) + [f[-1]] * (4 - len(f)) if len(f) < 4 else list(f) for f in faces]
    return np.array(rows, dtype=np.int64).reshape(-1, 4)
