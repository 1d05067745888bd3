"""How regelmotor's play functions are compiled: numba's decorators, each function cached on disk in
``numba_cache.cache_dir()`` (never by a process-wide setting), and the two intrinsics the search needs
(``unowned``, ``prefetch_row``). Where numba is missing the functions run as plain Python, so an install
without a compiler plays the same game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from regelmotor.numba_cache import cached

F = TypeVar("F", bound=Callable[..., Any])
A = TypeVar("A")


try:  # pragma: no branch - numba is a dependency; the fallback keeps the play rules importable without it
    from numba import config as _config
    from numba import njit as _njit

    def jit(function: F) -> F:
        """Compiled by numba (cached on disk in ``numba_cache.cache_dir()``, the GIL released); plain Python where
        numba is missing."""
        return cached(cast(F, _njit(nogil=True)(function)))

    def jit_inlined(function: F) -> F:
        """``jit``, compiled into each of its callers (numba's ``inline="always"``): for a function called
        once a node of a search, whose call (a dozen arrays passed field by field) costs more than its body.
        Only where a caller is few: each caller compiles the whole body again."""
        return cached(cast(F, _njit(nogil=True, inline="always")(function)))

    def jit_uncounted(function: F) -> F:
        """``jit`` with no reference counting of arrays at all (numba's ``_nrt=False``), and so every function it
        calls that does not say otherwise: for the search's loop, which passes rows to small functions at
        every node and makes no array (counting them was a call into numba's runtime for each array passed,
        twice, even where the count is a null pointer's). A function it calls that makes an array must be
        ``jit_counted``; numba refuses one that is not (a compile error, never a leak)."""
        return cached(cast(F, cast(Any, _njit)(nogil=True, _nrt=False)(function)))

    def jit_counted(function: F) -> F:
        """``jit`` that counts references even where its caller is ``jit_uncounted``: for a function that makes
        an array of its own (and lets go of it before it returns)."""
        return cached(cast(F, cast(Any, _njit)(nogil=True, _nrt=True)(function)))

    JIT = not getattr(_config, "DISABLE_JIT", False)
    """Whether the play functions are compiled (not under ``NUMBA_DISABLE_JIT=1``)."""

    from llvmlite import ir as _ir
    from numba import types as _types
    from numba.core import cgutils as _cgutils
    from numba.extending import intrinsic as _intrinsic

    @_intrinsic
    def _unowned(typingctx: Any, array: Any) -> Any:
        if not isinstance(array, _types.Array):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            view = context.make_array(signature.args[0])(context, builder, value=args[0])
            view.meminfo = _cgutils.get_null_value(view.meminfo.type)  # type: ignore[no-untyped-call]
            return view._getvalue()

        return array(array), codegen

    def unowned(array: A) -> A:
        """``array`` as a view that keeps no count of its references, for a search's hot loop.

        Compiled code counts every array it passes or slices (an atomic add to the array's owner, and
        another to give it back): in the solver's search that was most of a node's time. A view with no
        owner makes each count a test of a null pointer. Only a compiled function's own parameters are
        made unowned, as views for the length of the call, while its caller holds the arrays (a local
        array may be freed after its last use while a view of it is still read); a view is never returned."""
        return array

    @_intrinsic
    def _prefetch_row(typingctx: Any, table: Any, row: Any) -> Any:
        if not isinstance(table, _types.Array) or table.ndim != 2 or not isinstance(row, _types.Integer):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            array = context.make_array(signature.args[0])(context, builder, value=args[0])
            zero = context.get_constant(_types.intp, 0)
            index = context.cast(builder, args[1], signature.args[1], _types.intp)
            pointer = _cgutils.get_item_pointer(  # type: ignore[no-untyped-call]
                context, builder, signature.args[0], array, [index, zero], wraparound=False
            )
            byte = _ir.IntType(8).as_pointer()
            i32 = _ir.IntType(32)
            function = builder.module.declare_intrinsic(
                "llvm.prefetch", fnty=_ir.FunctionType(_ir.VoidType(), [byte, i32, i32, i32])
            )
            builder.call(function, [builder.bitcast(pointer, byte), i32(0), i32(3), i32(1)])
            return context.get_dummy_value()

        return _types.void(table, row), codegen

    def prefetch_row(table: npt.NDArray[np.int64], row: int) -> None:
        """Asks the processor to bring ``table[row]`` into its cache now, without waiting for it: for a walk
        along a chain whose next rows are known before they are read (a miss costs more than a node's work)."""

    @_intrinsic
    def _popcount(typingctx: Any, mask: Any) -> Any:
        if not isinstance(mask, _types.Integer):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctpop(args[0])

        return mask(mask), codegen

    @_intrinsic
    def _trailing_zeros(typingctx: Any, mask: Any) -> Any:
        if not isinstance(mask, _types.Integer):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.cttz(args[0], _ir.Constant(_ir.IntType(1), 0))

        return mask(mask), codegen

    ones: Any = _popcount
    """The set bits of a 64-bit mask: the processor's own instruction (popcnt), as LLVM's intrinsic."""
    zeros_below: Any = _trailing_zeros
    """The index of a non-empty mask's lowest set bit (tzcnt)."""

    if JIT:
        unowned = _unowned  # type: ignore[assignment]
        prefetch_row = _prefetch_row  # type: ignore[assignment]
except ImportError:  # pragma: no cover

    def jit(function: F) -> F:
        return function

    def jit_inlined(function: F) -> F:
        return function

    def jit_uncounted(function: F) -> F:
        return function

    def jit_counted(function: F) -> F:
        return function

    def unowned(array: A) -> A:
        return array

    def prefetch_row(table: npt.NDArray[np.int64], row: int) -> None:
        pass

    ones = zeros_below = None
    JIT = False
