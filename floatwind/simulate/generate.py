"""Per-model compiled stepping, written as a small module and cached on disk.

numba compiles a function per combination of argument types; a kernel passed *as an argument*
(a first-class function value) makes the type of its caller differ from process to process, so
such a caller is compiled again in every run (tens of seconds). Here the model's load kernels are
instead *globals* of a generated module: for a list of :class:`~floatwind._kernels.contract.
CompiledLoad` the module defines

* ``_loads(params, t, kin, y, dy, force, moment, added)``: each load's kernel in turn on its
  params (``params[i]``), stopping at the first non-zero status; a load with candidates
  (``SelectLoad``) becomes a small function that runs each candidate and keeps it for the
  members that chose it;
* ``system_rhs``: the template of :func:`floatwind._kernels.fused.system_rhs` (its source,
  calling ``_loads``), compiled;
* ``after``: for a model whose loads keep a step memory (``CompiledLoad.after_step``), the
  template :func:`floatwind._kernels.fused.system_after_step` over a generated
  ``_after_steps`` that calls each load's ``after_step`` kernel; otherwise a function that does
  nothing;
* ``rk4_chunk``: the template of :func:`floatwind.integrate.compiled.rk4_chunk` against them.

The module's name is a hash of its text and of the kernel sources, so numba's cache (next to
it) is valid exactly as long as neither changes; it lives in ``FLOATWIND_KERNEL_DIR`` or the
user cache folder (``~/.cache/floatwind``), never in the source tree, and is written atomically
(concurrent study workers may generate the same one): :mod:`floatwind._kernels.codegen`.
"""

from __future__ import annotations

import functools
import inspect
import linecache
import os
import re
import types

from floatwind._kernels.codegen import load_module

__all__ = ["stepper"]


def _ref(fn) -> tuple[str, str]:
    py = getattr(fn, "py_func", fn)
    return py.__module__, py.__qualname__


def _emit(c, name: str, imports: list[str], defs: list[str]) -> None:
    """Make ``name`` a global of the module that computes load ``c``."""
    if not getattr(c, "children", ()):
        mod, qual = _ref(c.kernel)
        if "." in qual:
            raise ValueError(f"load kernel {mod}.{qual} must be a module-level function")
        imports.append(f"from {mod} import {qual} as {name}")
        return
    lines = [
        _GLUE,
        f"def {name}(p, t, kin, y, dy, force, moment, added):",
        "    B, N = force.shape[0], force.shape[1]",
    ]
    for j, child in enumerate(c.children):
        cname = f"{name}_{j}"
        _emit(child, cname, imports, defs)
        lines += [
            "    f = np.zeros((B, N, 3))",
            "    m = np.zeros((B, N, 3))",
            "    a = np.zeros((B, N, 6, 6))",
            f"    st = {cname}(p.candidates[{j}], t, kin, y, dy, f, m, a)",
            "    if st != 0:",
            "        return st",
            f"    select_add(p.choice, {j}, f, m, a, force, moment, added, p.adds_mass)",
        ]
    lines.append("    return 0")
    defs.append("\n".join(lines))


#: a flexible tower's stages in place of the joint-DOF ones: the same template otherwise
#: (they return the same; the flexible kinematics also take the run's table of the tree, p.rel)
_FLEX_STAGES = {"rhs_kinematics_dofs(": "rhs_kinematics_flex(p.rel, p.work, ",
                "rhs_dynamics_dofs(": "rhs_dynamics_flex(p.work, "}  # fmt: skip


@functools.cache
def _getsource(fn) -> str:
    """``inspect.getsource`` of a template, read once per process (the compile notice and the
    run both generate a model's text: reading and tokenising the templates was ~0.05-0.1 s a
    time), found without tokenising: the function's lines from its first (decorator) line to
    the last line its code covers (Python >= 3.11 records where each instruction's statement
    ends); inspect's answer where a comment follows the body, which its block would take in
    (tests/test_startup.py holds both equal on every function of the template modules)."""
    code = getattr(inspect.unwrap(fn), "__code__", None)
    lines = linecache.getlines(code.co_filename) if code is not None else []
    if not hasattr(code, "co_positions") or not lines:
        return inspect.getsource(fn)
    first, last = code.co_firstlineno, _last_line(code)
    head = lines[first - 1]
    after = next((ln for ln in lines[last : last + 50] if ln.strip()), "")
    if not head.lstrip().startswith(("def ", "@")) or (
        after.lstrip().startswith("#") and _indent(after) > _indent(head)
    ):
        return inspect.getsource(fn)
    return "".join(lines[first - 1 : last])


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _last_line(code) -> int:
    """The last source line of ``code`` and the functions defined in it."""
    ends = [end for _, end, _, _ in code.co_positions() if end is not None]
    ends += [_last_line(c) for c in code.co_consts if hasattr(c, "co_positions")]
    return max(ends)


def _template(fn, name: str) -> str:
    """The source of template ``fn`` defined under ``name``."""
    src = _getsource(fn)
    return src.replace(f"def {fn.__name__}(", f"def {name}(", 1)


def _staged(dofs, plain, with_dofs, name: str) -> str:
    """The source of the template for ``dofs`` under ``name``: False (none), True (joint DOFs)
    or "flex" (a flexible tower, its modes and any joint DOFs: the joint-DOF template with the
    flexible stages, :data:`_FLEX_STAGES`; "flex:" and the tower's sizes and offsets: the same
    with the stages' kernels of :func:`_sized_flex`)."""
    src = _template(with_dofs if dofs else plain, name)
    if isinstance(dofs, str) and dofs.startswith("flex"):
        for old, new in _FLEX_STAGES.items():
            src = src.replace(old, new)
    return src


def _flex_header(dofs) -> tuple[int, ...] | None:
    """The flexible tower's ``ip`` header (sizes and offsets, ``floatwind._kernels.flex.pack``)
    of a stepper kind "flex:h0,h1,..." (``floatwind.simulate.fused.stepper_kind``), else None."""
    if isinstance(dofs, str) and dofs.startswith("flex:"):
        return tuple(int(v) for v in dofs[5:].split(","))
    return None


#: the flexible stages' kernels a model's module holds its own copies of (:func:`_sized_flex`)
_SIZED = ("node_sums", "flex_state_into", "flex_dynamics_into", "rhs_kinematics_flex",
          "rhs_dynamics_flex")  # fmt: skip


def _sized_flex(header: tuple[int, ...]) -> tuple[list[str], list[str]]:
    """(imports, definitions): the flexible tower's stage kernels (``flex_nodes.node_sums``,
    ``flex.flex_state_into``, ``flex.flex_dynamics_into`` and the glue ``fused.
    rhs_kinematics_flex``, ``rhs_dynamics_flex`` that calls them) with every read of the
    header of ``ip`` (the sizes N, nj, n, nf, J and the offsets into ``fp``; ``flex.pack``)
    written as the model's literal: the loops over bodies, modes and 3-vectors get constant
    trip counts and the offsets constants, so LLVM unrolls them, keeps the small sums in
    registers and tells the scratch's regions apart (docs/performance.md, "Flexible tower,
    sixth session": ~2.4x on these stages). The same source otherwise: the same operations in
    the same order (the same bits as the shared kernels, which the output rows keep)."""
    from floatwind._kernels import flex, flex_nodes, fused

    consts = {k: v for m in (flex, flex_nodes) for k, v in vars(m).items()
              if k.startswith(("IP_", "_IP_")) and isinstance(v, int)}  # fmt: skip
    fns = (flex_nodes.node_sums, flex.flex_state_into, flex.flex_dynamics_into,
           fused.rhs_kinematics_flex, fused.rhs_dynamics_flex)  # fmt: skip
    imports: list[str] = []
    defs: list[str] = []
    for fn in fns:
        py = fn.py_func
        ns = dict(consts, t=flex_nodes.IP_TENSORS) if py.__name__ == "node_sums" else consts

        def literal(m, ns=ns):
            try:
                k = int(eval(m.group(1), {"__builtins__": {}}, ns))  # noqa: S307 - names of ns only
            except (NameError, SyntaxError, TypeError):
                return m.group(0)  # a run-time index (the int arrays after the header)
            return str(header[k]) if 0 <= k < len(header) else m.group(0)

        src = re.sub(r"\bip\[([^\[\]]+)\]", literal, _getsource(py))
        defs.append(src.replace("kfx.flex_", "flex_"))
        for name in py.__code__.co_names:
            v = py.__globals__.get(name)
            if name in _SIZED or v is None:
                continue
            if isinstance(v, types.ModuleType):
                imports.append(f"import {v.__name__} as {name}")
            else:
                imports.append(f"from {py.__module__} import {name}")
    return list(dict.fromkeys(imports)), defs


#: the decorator of the glue between the chunk templates and the load kernels (``_loads``, a
#: selection's walk, ``system_rhs``, ``after``, ...): inlined into the chunk that calls it at
#: numba's IR level, so that only the chunk (``rk4_chunk``, ``bossak_*_chunk``) is a compiled
#: library. numba links the code of every kernel a function calls into that function's library
#: and optimises and compiles the whole linked module again (LLVM O3 + machine code); with each
#: glue function a library of its own, every kernel went through that 4-5 times per model
#: (docs/performance.md, "First run"). Inlining changes no operation (fastmath=False): the same
#: bits.
_GLUE = '@njit(cache=True, fastmath=False, inline="always")'


def _source(loads: list, dofs: bool | str = False) -> str:
    from floatwind._kernels import aot, fused
    from floatwind.integrate import base, compiled, compiled_bossak

    imports = [
        "import math",
        "import numpy as np",
        "from floatwind.jit import njit",
        "from floatwind._kernels.fused import rhs_dynamics, rhs_kinematics, select_add, zeroed_wrench",
        "from floatwind._kernels.fused import rhs_dynamics_dofs, rhs_kinematics_dofs",
        "from floatwind._kernels.fused import rhs_dynamics_flex, rhs_kinematics_flex",
        "from floatwind.integrate.compiled_bossak import BodyState, Predicted, StepLoads",
        "from floatwind.integrate.compiled_bossak import linked_body_loop, linked_state, make_kin",
        "from floatwind._kernels.status import BOSSAK_NOT_CONVERGED, NOT_FINITE",
    ]
    defs: list[str] = []
    names = []
    header = _flex_header(dofs)
    if header is not None:  # the flexible stages with the model's sizes as literals
        more, sized = _sized_flex(header)
        imports += more
        defs += sized
    for i, c in enumerate(loads):
        nm = f"_load{i}"
        _emit(c, nm, imports, defs)
        names.append(nm)
    body = [_GLUE, "def _loads(p, t, kin, y, dy, force, moment, added):"]
    for i, nm in enumerate(names):
        body += [
            f"    st = {nm}(p[{i}], t, kin, y, dy, force, moment, added)",
            "    if st != 0:",
            "        return st",
        ]
    body.append("    return 0")
    defs.append("\n".join(body))
    jit = "@njit(cache=True, fastmath=False)\n"
    glue = _GLUE + "\n"
    defs.append(glue + _getsource(base.rk4_stage_times))
    defs.append(glue + _staged(dofs, fused.system_rhs, fused.system_rhs_dofs, "system_rhs"))
    defs.append("rhs = system_rhs")
    after = [(i, c) for i, c in enumerate(loads) if getattr(c, "after_step", None) is not None]
    # loads that measure for the load whose memory they read go first (issue 36: a rotor's
    # measurements before its servodyn load's controller call); stable otherwise
    after.sort(key=lambda ic: not getattr(ic[1], "reads_memory", False))
    if after:
        walk = [glue + "def _after_steps(p, t, kin, y):"]
        for i, c in after:
            mod, qual = _ref(c.after_step)
            if "." in qual:
                raise ValueError(f"after_step kernel {mod}.{qual} must be a module-level function")
            imports.append(f"from {mod} import {qual} as _after{i}")
            walk.append(f"    _after{i}(p[{i}], t, kin, y)")
        defs.append("\n".join(walk))
        defs.append(glue + _staged(dofs, fused.system_after_step, fused.system_after_step_dofs,
                                  "system_after_step"))  # fmt: skip
        defs.append("after = system_after_step")
    else:
        defs.append(glue + "def after(p, t, y, g):\n    return None")
    # a model's chunk allocates nothing (the run's scratch, p.work: RigidWork, WrenchWork with
    # joint DOFs, FlexWork with a flexible tower) and hands only views and records of the run's
    # arrays to its stages: compiled without reference counting (_nrt=False), it pays no atomic
    # increment and decrement of each array of each record it takes, per stage
    # (docs/performance.md, "The rigid step without glue"). Not with a load with candidates
    # (its glue allocates).
    plain = not any(getattr(c, "children", ()) for c in loads)
    chunk = _getsource(compiled.rk4_chunk)
    if not plain:  # stage arrays of its own (as before the run's scratch: the same speed)
        chunk = chunk.replace("    stages = p.work.stages\n", "    stages = np.empty((4, B, m))\n")
    chunk_jit = "@njit(cache=True, fastmath=False, _nrt=False)\n" if plain else jit
    defs.append(chunk_jit + chunk)
    defs.append(jit + _getsource(compiled_bossak.bossak_linear_chunk))
    defs.append(jit + _getsource(compiled_bossak.bossak_linked_chunk))
    head = (
        '"""Generated by floatwind.simulate.generate (do not edit): compiled stepping for '
        f'the load kernels {", ".join(names) or "(none)"}; kernel sources {aot.sources_digest()[:12]}."""'
    )
    return "\n\n\n".join([head, "\n".join(imports)] + defs) + "\n"


def is_compiled(loads: list, dofs: bool | str = False) -> bool:
    """Whether the stepping module of ``loads`` (``dofs``: a model with joint degrees of
    freedom) is in numba's disk cache already (else the first call compiles it: tens of
    seconds).

    numba is asked where it keeps the cache of the module's ``rk4_chunk`` (beside the module,
    or under ``NUMBA_CACHE_DIR`` on clusters, containers and read-only installations), so the
    answer does not depend on where the cache lives, and whether it would use the index there.
    Loading the module compiles nothing: numba compiles on the first call."""
    mod = stepper(loads, dofs)
    from floatwind._kernels import aot

    if aot.has_module(mod.__name__):  # compiled ahead of time: numba not even imported
        return True
    try:
        cache = mod.rk4_chunk._cache._cache_file
        index = cache._index_path
        if not os.path.exists(index):
            return False
        # numba's own reading of its index: empty when numba would not use it (made by another
        # numba version, e.g. a NUMBA_CACHE_DIR kept across an upgrade, or for another text)
        return bool(cache._load_index())
    except Exception:  # noqa: BLE001 - another numba cache layout: say "compiling", never lie
        return False


def stepper(loads: list, dofs: bool | str = False):
    """The generated module (``system_rhs``, ``rk4_chunk``) for the load list ``loads``; with
    ``dofs`` the right-hand side of a model with joint degrees of freedom (``"flex"``: with a
    flexible tower; ``"flex:..."`` with its stages sized, :func:`_sized_flex`)."""
    return load_module(_source(loads, dofs))
