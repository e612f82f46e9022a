"""The compiled form of :func:`floatwind._kernels.bladed.discon_call`: a direct call of the
controller library's function pointer (numba's extension API). Imported when numba is first needed
(:func:`floatwind.jit.on_numba`), so that importing the controller kernels does not import
numba."""

from __future__ import annotations

from numba import types
from numba.extending import intrinsic, overload


@intrinsic
def _call_pointer(typingctx, addr, a, b, c, d, e):
    """void (*addr)(char*, char*, char*, char*, char*) called with the five addresses."""
    sig = types.void(types.int64, types.intp, types.intp, types.intp, types.intp, types.intp)

    def codegen(context, builder, signature, args):
        from llvmlite import ir

        i8p = ir.IntType(8).as_pointer()
        fnty = ir.FunctionType(ir.VoidType(), [i8p] * 5)
        fn = builder.inttoptr(args[0], fnty.as_pointer())
        builder.call(fn, [builder.inttoptr(x, i8p) for x in args[1:]])
        return context.get_dummy_value()

    return sig, codegen


def _discon_call_compiled(addr, swap, fail, infile, outname, msg):
    def impl(addr, swap, fail, infile, outname, msg):
        _call_pointer(addr, swap, fail, infile, outname, msg)

    return impl


def register(discon_call) -> None:
    """Give ``discon_call`` (floatwind._kernels.bladed) its compiled form."""
    overload(discon_call)(_discon_call_compiled)
