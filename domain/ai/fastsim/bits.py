"""Bit counts of a 64-bit mask as single processor instructions (popcount, count trailing zeros).

The kernel's hands and legal cards are bit masks; asking how many cards a mask holds and
where its lowest card is happens at every play. numba has no builtin for either, so these
are LLVM's own intrinsics (``llvm.ctpop``, ``llvm.cttz``), which compile to one instruction
on processors that have it. Without numba they are plain Python with the same results.
"""

from __future__ import annotations

from typing import Any, Callable, cast

try:
    from numba.core import cgutils, types
    from numba.core.extending import intrinsic

    @intrinsic
    def _ctpop(typingctx: Any, mask: Any) -> Any:
        """Return how many bits of the int64 ``mask`` are set."""
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctpop(args[0])

        return types.int64(types.int64), codegen

    @intrinsic
    def _cttz(typingctx: Any, mask: Any) -> Any:
        """Return the index of the lowest set bit of the int64 ``mask`` (64 for an empty mask)."""
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.cttz(args[0], cgutils.false_bit)

        return types.int64(types.int64), codegen

    popcount = cast(Callable[[int], int], _ctpop)
    lowest_bit = cast(Callable[[int], int], _cttz)
except ImportError:  # pragma: no cover - numba is a dependency; this keeps the domain importable
    def popcount(mask: int) -> int:
        """Return how many bits of ``mask`` are set."""
        return (mask & 0xFFFFFFFFFFFFFFFF).bit_count()

    def lowest_bit(mask: int) -> int:
        """Return the index of the lowest set bit of ``mask`` (64 for an empty mask)."""
        return ((mask & -mask) & 0xFFFFFFFFFFFFFFFF).bit_length() - 1 if mask else 64
