"""Glue between the MBDM model objects and the compiled kernels (:mod:`floatwind._kernels.mbdm`).

:func:`structure` writes the joints of a :class:`~floatwind.multibody.mbdm.kinematics.System` as
rows of basic constraints (Table 1) — an integer table (type, body i, body j, extra) and a float
table of definition vectors — with the body pairs whose rows share a body (the non-zero pattern of
the Schur complement of eq. 67). :func:`member_params` stacks the numbers of one
:class:`~floatwind.multibody.mbdm.dynamics.DynamicSystem` per batch member (masses, inertia,
gravity, lines, constant body loads, coordinate force elements); :func:`kernels` is the kernel
module of a combination of coordinate force laws; :func:`run` calls the kernel for a batch.

Coordinate force elements (``forces.CoordinateForce``) bring their own numba functions (a law
f(x, v, p) and switches s(x, v, p)). Passed to the kernel as values, their types would differ
from process to process and the whole kernel would compile again in every run; instead, per
combination of laws (one per element, in order), a small module is written (cached on disk,
``floatwind._kernels.codegen``) whose ``_coord_forces`` and ``_coord_switches`` call them as
globals, one line per element, and which compiles the kernel functions that reach them
(``floatwind._kernels.mbdm.TEMPLATES``, their source written once in their home module). A
system without such elements runs the home module itself.
"""

from __future__ import annotations

import hashlib
import inspect

import numpy as np

from floatwind.errors import CaseError, SimulationError
from floatwind.multibody.mbdm.forces import BodyLoad, CoordinateForce

__all__ = ["kernels", "run", "structure", "why_not_compiled"]


def _rows_of_joint(jt) -> list[tuple[int, int, int, int, np.ndarray]]:
    """(type, bi, bj, extra, floats[RF_WIDTH]) per row, in the order of ``Joint.rows``."""
    from floatwind._kernels.mbdm import (
        DOT_AD,
        DOT_DD,
        EP,
        RDRV,
        RF_CONST,
        RF_RATE,
        RF_VEC1,
        RF_WIDTH,
        SS,
    )

    i, j = jt.bodies
    j = -1 if j is None else j
    g = jt._geo
    out = []

    def f(*parts, c=0.0, c2=0.0):
        """The row's floats: the definition vectors ``parts`` in RF_VEC1, RF_VEC2, RF_VEC3 (None:
        unused), ``c`` in RF_CONST and ``c2`` in RF_RATE."""
        v = np.zeros(RF_WIDTH)
        for k, p in enumerate(parts):
            if p is not None:
                v[RF_VEC1 + 3 * k : RF_VEC1 + 3 * k + 3] = np.asarray(p, dtype=float)
        v[RF_CONST], v[RF_RATE] = c, c2
        return v

    E = np.eye(3)

    def d1(bi, a, bj, b):
        out.append((DOT_DD, bi, bj, 0, f(a, b)))

    def d2(bi, a, si, bj, sj):  # a fixed in body bi, d = P_j - P_i (eq. 8)
        out.append((DOT_AD, bi, bj, 0, f(a, si, sj)))

    def s_rows(bi, si, bj, sj):  # eq. (10), components of d_ij in global axes
        for k in range(3):
            out.append((DOT_AD, bi, bj, 1, f(E[k], si, sj)))

    typ = jt.type
    if typ in ("ABX", "ABY", "ABZ"):  # eq. (15a): r_i[axis] = dist
        ax = "XYZ".index(typ[-1])
        out.append((DOT_AD, -1, i, 1, f(E[ax], None, None, c=float(jt.dist))))
    elif typ in ("ABA", "G"):
        if typ == "G":
            for k in range(3):
                out.append((DOT_AD, -1, i, 1, f(E[k], None, None, c=float(jt.p1[k]))))
        for k in range(3):  # eq. (15b): e_i = q1
            out.append((EP, i, -1, k + 1, f(c=float(jt.q1[k]))))
    elif typ == "S":  # eq. (18)
        s_rows(i, jt.p1, j, jt.p2)
    elif typ == "R":  # eq. (19)
        s_rows(i, jt.p1, j, jt.p2)
        d1(i, g["fi"], j, g["hj"])
        d1(i, g["gi"], j, g["hj"])
    elif typ in ("C", "T"):  # p1(h_i, h_j), p2(h_i, d_ij) (+ d1(f_i, f_j): eq. 21)
        d1(i, g["fi"], j, g["hj"])
        d1(i, g["gi"], j, g["hj"])
        d2(i, g["fi"], jt.p1, j, jt.p2)
        d2(i, g["gi"], jt.p1, j, jt.p2)
        if typ == "T":
            d1(i, g["fi"], j, g["fj"])
    elif typ == "U":
        s_rows(i, jt.p1, j, jt.p2)
        d1(i, g["hi"], j, g["hj"])
    elif typ == "RC":  # eq. (20): d1(h_i, h_j), p2 of h_j with d_ji (body j's frame)
        d1(i, g["hi"], j, g["hj"])
        d2(j, g["fj"], jt.p2, i, jt.p1)
        d2(j, g["gj"], jt.p2, i, jt.p1)
    elif typ == "DI":  # eq. (17) = (11)
        out.append((SS, i, j, 0, f(None, jt.p1, jt.p2, c=float(jt.dist) ** 2)))
    elif typ == "RDRV":  # eqs. (22)-(27)
        gi = np.cross(g["hi"], g["fi"])
        out.append((RDRV, i, j, 0, f(g["fi"], gi, g["fj"], c=float(jt.r1[0]), c2=float(jt.dist))))
    else:  # pragma: no cover - Joint validates the type
        raise CaseError(f"joint type {typ} has no compiled form", field=jt.name or typ)
    return out


def fixed_poses(system, q0s, qdot0s) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """Bodies held by a G joint (eq. 15: r_i = p1, e_i = q1) that every member starts at rest
    in that pose (to 1e-12): body -> (r, A, q). Such a body is the ground in another frame; the
    compiled path writes its joints' vectors in global axes and leaves its rows out."""
    from floatwind.multibody.mbdm.coordinates import A_matrix

    out = {}
    for jt in system.joints:
        if jt.type != "G":
            continue
        k = jt.bodies[0]
        e = np.asarray(jt.q1, dtype=float)
        s = 1.0 - e @ e
        if not s >= 0.0:
            continue
        ok = True
        for q0, qd0 in zip(q0s, qdot0s):
            e0 = np.copysign(np.sqrt(s), q0[k, 3])
            pose = np.concatenate([np.asarray(jt.p1, dtype=float), [e0], e])
            if np.max(np.abs(q0[k] - pose)) > 1e-12 or np.max(np.abs(qd0[k])) > 1e-12:
                ok = False
        if ok:
            out[k] = (pose[:3].copy(), A_matrix(pose[3:]), pose)
    return out


def _move_to_ground(rows, fixed) -> list:
    """Rows with the fixed bodies' vectors in global axes (body index -1); rows left with no
    body are dropped (they are the G joints' own rows)."""
    from floatwind._kernels.mbdm import DOT_AD, DOT_DD, EP, RDRV, RF_VEC1, RF_VEC2, RF_VEC3, SS

    vec1, vec2, vec3 = (slice(c, c + 3) for c in (RF_VEC1, RF_VEC2, RF_VEC3))
    out = []
    for typ, bi, bj, ex, v in rows:
        v = v.copy()
        if typ == EP:
            if bi in fixed:
                continue
        elif typ == DOT_DD or typ == RDRV:
            vec_j = vec2 if typ == DOT_DD else vec3  # DOT_DD: a_j; RDRV: f_j
            if bi in fixed:
                A = fixed[bi][1]
                v[vec1] = A @ v[vec1]
                if typ == RDRV:
                    v[vec2] = A @ v[vec2]
                bi = -1
            if bj in fixed:
                v[vec_j] = fixed[bj][1] @ v[vec_j]
                bj = -1
        elif typ in (DOT_AD, SS):
            if bi in fixed:
                r, A, _ = fixed[bi]
                v[vec2] = r + A @ v[vec2]
                if typ == DOT_AD and ex == 0:
                    v[vec1] = A @ v[vec1]
                    ex = 1
                bi = -1
            if bj in fixed:
                r, A, _ = fixed[bj]
                v[vec3] = r + A @ v[vec3]
                bj = -1
        if bi < 0 and bj < 0:
            continue
        out.append((typ, bi, bj, ex, v))
    return out


def structure(system, fixed=None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(rint (m, 4), rf (m, 16), rb (m, 2) body of each Jacobian slot, pairs (P, 4)) of the
    joint rows (normalisation rows (28) left out, as in eq. 67); ``fixed``: see
    :func:`fixed_poses`."""
    rows = [r for jt in system.joints for r in _rows_of_joint(jt)]
    if fixed:
        rows = _move_to_ground(rows, fixed)
    from floatwind._kernels.mbdm import DOT_AD, RF_VEC2, RF_VEC3, RF_WIDTH

    m = len(rows)
    rint = np.zeros((m, 4), dtype=np.int64)
    rf = np.zeros((m, RF_WIDTH))
    for k, (typ, bi, bj, ex, v) in enumerate(rows):
        rint[k] = (typ, bi, bj, ex)
        rf[k] = v
        if (k > 0 and typ == DOT_AD and rint[k - 1, 0] == DOT_AD and rint[k - 1, 1] == bi
                and rint[k - 1, 2] == bj and np.array_equal(rf[k - 1, RF_VEC2 : RF_VEC3 + 3], v[RF_VEC2 : RF_VEC3 + 3])):  # fmt: skip
            rint[k, 3] |= 2  # the same d_ij as the row before (spherical rows, p2 pairs)
    rb = rint[:, 1:3].copy()
    pairs = [(a, sa, b, sb) for a in range(m) for b in range(a + 1) for sa in range(2)
             for sb in range(2) if rb[a, sa] >= 0 and rb[a, sa] == rb[b, sb]]  # fmt: skip
    return rint, rf, rb, np.array(pairs, dtype=np.int64).reshape(-1, 4)


def why_not_compiled(dsys, method: str, form: str, switches) -> str | None:
    """The reason a run cannot take the compiled path, or None."""
    from floatwind import _kernels

    if not _kernels.enabled():
        return ("the numba kernels are off (FLOATWIND_NO_JIT set, or numba not importable); "
                "run with compiled=False")  # fmt: skip
    if method != "baumgarte":
        return "the compiled path integrates the Baumgarte form (method='baumgarte')"
    if form != "omega":
        return "the compiled path solves eq. (67) (form='omega')"
    if dsys.applied is not None:
        return ("an 'applied' callable is Python; give forces as compiled elements "
                "(forces=(BodyLoad, CoordinateForce subclasses))")  # fmt: skip
    if switches is not None:
        return "a 'switches' callable is Python (a CoordinateForce brings its own switches)"
    if dsys.floatwind_loads:
        return "floatwind Load objects are evaluated on the Python path"
    for fe in dsys.forces:
        if not isinstance(fe, (BodyLoad, CoordinateForce)):
            return f"force element {type(fe).__name__} has no compiled form"
        if isinstance(fe, CoordinateForce):
            for fn in (type(fe).law, *type(fe).switch_laws):
                if not hasattr(fn, "targetoptions") or "." in fn.py_func.__qualname__:
                    return (f"force element {type(fe).__name__}: its law and switches must be "
                            "module-level numba functions (@njit)")  # fmt: skip
    return None


def _laws(dsys) -> tuple:
    """(law, switch_laws) of each coordinate force element, in order: the key of the kernel
    module."""
    return tuple((type(fe).law, tuple(type(fe).switch_laws)) for fe in dsys.forces
                 if isinstance(fe, CoordinateForce))  # fmt: skip


def _source(laws: tuple) -> str:
    """The text of the kernel module of the coordinate force laws ``laws``."""
    from floatwind._kernels import codegen
    from floatwind._kernels import mbdm as km

    skip = set(km.TEMPLATES) | {"_coord_forces", "_coord_switches", "_N_SWITCHES"}
    shared = sorted(n for n, v in vars(km).items() if n not in skip and (
        isinstance(v, (int, float)) or getattr(getattr(v, "py_func", v), "__module__", "") == km.__name__))
    imports = ["import math", "import numpy as np", "from floatwind.jit import njit",
               "from floatwind._kernels.mbdm import (" + ", ".join(shared) + ")"]  # fmt: skip
    names: dict = {}
    sources = []

    def ref(fn, name):
        if fn not in names:
            py = fn.py_func
            names[fn] = f"{name}"
            imports.append(f"from {py.__module__} import {py.__qualname__} as {name}")
            sources.append(inspect.getsource(py))
        return names[fn]

    opts = "cache=True, inline='always', error_model='numpy', _nrt=False"
    force = [f"@njit({opts})", "def _coord_forces(q, qd, cf, cfp, f):"]
    switch = ["@njit(cache=True, error_model='numpy', _nrt=False)",
              "def _coord_switches(x, nb, cf, cfp, out):", "    n = 7 * nb"]  # fmt: skip
    n_sw = 0
    for e, (law, sws) in enumerate(laws):
        nm = ref(law, f"_law{len(names)}")
        force += [f"    k, ax = cf[{e}, 0], cf[{e}, 1]",
                  f"    f[k, ax] += {nm}(q[7 * k + ax], qd[7 * k + ax], cfp[{e}])"]  # fmt: skip
        switch.append(f"    k, ax = cf[{e}, 0], cf[{e}, 1]")
        for sw in sws:
            sn = ref(sw, f"_law{len(names)}")
            switch.append(f"    out[{n_sw}] = {sn}(x[7 * k + ax], x[n + 7 * k + ax], cfp[{e}])")
            n_sw += 1
    force.append("    return None")
    switch.append("    return None")
    digest = codegen.sources_digest()
    law_digest = hashlib.sha1("".join(sources).encode()).hexdigest()
    head = ('"""Generated by floatwind.multibody.mbdm.compiled (do not edit): the MBDM kernels for '
            f'{len(laws)} coordinate force element(s); kernel sources {digest[:12]}, laws '
            f'{law_digest[:12]}."""')  # fmt: skip
    defs = ["\n".join(force), "\n".join(switch), f"_N_SWITCHES = {n_sw}"]
    defs += [codegen.template(getattr(km, t)) for t in km.TEMPLATES]
    return "\n\n\n".join([head, "\n".join(imports)] + defs) + "\n"


def kernels(laws: tuple = ()):
    """The kernel module (``run_baumgarte``) of the coordinate force laws ``laws`` (see
    :func:`_laws`): :mod:`floatwind._kernels.mbdm` itself when there are none, else a generated
    module, compiled on its first call and then loaded from numba's cache."""
    from floatwind._kernels import codegen
    from floatwind._kernels import mbdm as km

    if not laws:
        return km
    return codegen.load_module(_source(laws), prefix="floatwind_mbdm")


def member_params(dsys) -> dict:
    """Numbers of one member (arrays with no batch axis)."""
    from floatwind._kernels import mbdm as km

    nb = dsys.nb
    lpar = np.zeros((len(dsys.lines), km.LP_WIDTH))
    for n, ln in enumerate(dsys.lines):
        lpar[n, km.LP_ANCHOR : km.LP_ANCHOR + 3] = ln.anchor
        lpar[n, km.LP_FAIRLEAD : km.LP_FAIRLEAD + 3] = ln.fairlead
        lpar[n, km.LP_L0], lpar[n, km.LP_K], lpar[n, km.LP_B] = ln.l0, ln.k, ln.b
    bl = [fe for fe in dsys.forces if isinstance(fe, BodyLoad)]
    ce = [fe for fe in dsys.forces if isinstance(fe, CoordinateForce)]
    cfp = np.zeros((len(ce), max([len(fe.params) for fe in ce], default=0)))
    for n, fe in enumerate(ce):
        cfp[n, : len(fe.params)] = fe.params
    cpar = np.zeros((len(bl), km.CP_WIDTH))
    for n, fe in enumerate(bl):
        cpar[n, km.CP_FORCE : km.CP_FORCE + 3] = fe.force
        cpar[n, km.CP_MOMENT : km.CP_MOMENT + 3] = fe.moment
    return {
        "mass": np.asarray(dsys.mass, dtype=float).reshape(nb),
        "Jin": np.asarray(dsys.inertia, dtype=float).reshape(nb, 3, 3),
        "Jinv": np.linalg.inv(np.asarray(dsys.inertia, dtype=float).reshape(nb, 3, 3)),
        "grav": np.asarray(dsys.gravity, dtype=float).reshape(3),
        "lpar": lpar,
        "cpar": cpar,
        "lbody": np.array([ln.body for ln in dsys.lines], dtype=np.int64),
        "cbody": np.array([fe.body for fe in bl], dtype=np.int64),
        "cf": np.array([[fe.body, fe.axis] for fe in ce], dtype=np.int64).reshape(-1, 2),
        "cfp": cfp,
    }


def run(dsystems, x0, t_start, dt, n_steps, save_every, alpha, beta):
    """Compiled Baumgarte/RK4 run of a batch: ``x0`` (B, 14 nb). Returns
    (x (B, nt, 14 nb), qddot (B, nt, 7 nb), drift_position (B, nt), drift_velocity (B, nt))."""
    from floatwind._kernels import mbdm as km

    system = dsystems[0].system
    nb = dsystems[0].nb
    q0s = np.asarray(x0)[:, : 7 * nb].reshape(-1, nb, 7)
    qd0s = np.asarray(x0)[:, 7 * nb :].reshape(-1, nb, 7)
    fixed = fixed_poses(system, q0s, qd0s)
    st = structure(system, fixed)
    for d in dsystems[1:]:
        if d.system is not system and not all(
                np.array_equal(a, b) for a, b in zip(structure(d.system, fixed), st)):  # fmt: skip
            raise CaseError("the members of a compiled batch must have the same joints",
                            field="batch")  # fmt: skip
    rint, _rf, _rb, pairs = st
    m = rint.shape[0]
    first = np.array([pairs[pairs[:, 0] == a, 2].min() for a in range(m)], dtype=np.int64)
    is_fixed = np.array([k in fixed for k in range(nb)], dtype=np.int64)
    x0 = np.array(x0, dtype=float)
    for k, (_, _, pose) in fixed.items():  # exactly at rest in the pose of its G joint
        x0[:, 7 * k : 7 * k + 7] = pose
        x0[:, 7 * nb + 7 * k : 7 * nb + 7 * k + 7] = 0.0
    ps = [member_params(d) for d in dsystems]
    laws = _laws(dsystems[0])
    for key in ("lbody", "cbody", "cf"):
        if any(not np.array_equal(p[key], ps[0][key]) for p in ps) or any(
                _laws(d) != laws or p["cfp"].shape != ps[0]["cfp"].shape
                for d, p in zip(dsystems, ps)):  # fmt: skip
            raise CaseError("the members of a compiled batch need the same lines, body loads and "
                            "coordinate force elements (their numbers may differ)",
                            field="batch")  # fmt: skip
    B = len(dsystems)
    nt = len(range(0, n_steps + 1, save_every)) + (0 if n_steps % save_every == 0 else 1)

    def stack(key):
        return np.ascontiguousarray(np.stack([p[key] for p in ps]), dtype=float)

    out_x = np.zeros((B, nt, 14 * nb))
    out_a = np.zeros((B, nt, 7 * nb))
    out_dp = np.zeros((B, nt))
    out_dv = np.zeros((B, nt))
    status = np.zeros(B, dtype=np.int64)
    t_fail = np.zeros(B)
    kernels(laws).run_baumgarte(
        km.Structure(*st, fixed=is_fixed, first=first),
        km.Members(mass=stack("mass"), Jin=stack("Jin"), Jinv=stack("Jinv"), grav=stack("grav"),
                   lbody=ps[0]["lbody"], lpar=stack("lpar"), cbody=ps[0]["cbody"],
                   cpar=stack("cpar"), cf=ps[0]["cf"], cfp=stack("cfp")),
        np.ascontiguousarray(x0, dtype=float),
        km.Steps(t_start=float(t_start), dt=float(dt), n_steps=int(n_steps),
                 save_every=int(save_every)),
        float(alpha), float(beta),
        km.Output(x=out_x, a=out_a, dp=out_dp, dv=out_dv, status=status, t_fail=t_fail),
    )  # fmt: skip
    bad = np.nonzero(status)[0]
    if bad.size:
        b = int(bad[np.argmin(t_fail[bad])])
        s, t = int(status[b]), float(t_fail[b])
        if s == 3:
            raise CaseError("line length is zero: its direction is undefined (eq. 83)",
                            field="lines")  # fmt: skip
        msg = ("non-finite state" if s == 1 else "the equations of motion (67)/(69) are singular "
               "(redundant constraints or a body without inertia)")  # fmt: skip
        raise SimulationError(msg + (f" (batch member {b})" if B > 1 else ""), time=t)
    return out_x, out_a, out_dp, out_dv
