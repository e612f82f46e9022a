"""The generated chunks without reference counting (docs/performance.md, "The rigid step
without glue"): which generated chunks are compiled with ``_nrt=False``, and a kernel first typed
from such a caller keeps its own reference counting (numba would let it inherit the caller's)."""

from __future__ import annotations

import numpy as np

from floatwind._kernels import loads as kl
from floatwind._kernels.contract import CompiledLoad
from floatwind.jit import njit
from floatwind.simulate.generate import _source


def _chunk_decorator(text: str) -> str:
    lines = text.splitlines()
    k = next(i for i, ln in enumerate(lines) if ln.startswith("def rk4_chunk("))
    return lines[k - 1]


def test_a_rigid_models_chunk_is_compiled_without_reference_counting():
    loads = [CompiledLoad(kl.gravity_kernel, None), CompiledLoad(kl.linear_matrices_kernel, None)]
    for dofs in (False, True, "flex"):  # rigid, joint DOFs, flexible tower: the run's scratch
        assert "_nrt=False" in _chunk_decorator(_source(loads, dofs))
    select = CompiledLoad(None, None, children=(loads[0],))  # its glue allocates
    assert "_nrt" not in _chunk_decorator(_source([select], False))


@njit(fastmath=False)
def _allocates(n):
    return np.zeros(n).sum() + 1.0


@njit(fastmath=False, _nrt=False)
def _caller_without_nrt(n):
    return _allocates(n)


def test_a_kernel_first_typed_from_a_caller_without_nrt_keeps_its_own():
    # numba's default would compile _allocates without the runtime here (and fail to type
    # np.zeros); floatwind.jit states _nrt=True for every kernel that does not say otherwise
    assert _caller_without_nrt(3) == 1.0
    assert _allocates(4) == 1.0


def test_a_flexible_models_stages_are_compiled_with_its_sizes():
    # docs/performance.md, "Flexible tower, sixth session": the module holds its own copies of
    # the flexible stages with ip's header (sizes, offsets into fp) as literals; the int arrays
    # after the header stay run-time reads
    from floatwind._kernels.flex import IP_HEAD

    loads = [CompiledLoad(kl.gravity_kernel, None)]
    header = (2, 0, 4, 4, 20, 0) + tuple(100 + k for k in range(IP_HEAD - 6))
    text = _source(loads, "flex:" + ",".join(map(str, header)))
    for name in ("node_sums", "flex_state_into", "flex_dynamics_into", "rhs_kinematics_flex",
                 "rhs_dynamics_flex"):  # fmt: skip
        assert text.count(f"\ndef {name}(") == 1
    assert text.count("N, nj, n, nf = 2, 0, 4, 4") == 3  # node_sums and the two stages
    assert "ip[IP_N]" not in text and "ip[6]" not in text
    assert "ip[i_fa + k]" in text  # is_fa: after the header
    assert "kfx.flex_state_into(" not in text
    assert "\ndef flex_state_into(" not in _source(loads, "flex")  # the shared kernels
