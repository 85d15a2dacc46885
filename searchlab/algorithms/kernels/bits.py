"""Bit tricks on 64-bit boards that run both compiled and as plain Python.

Each helper is a plain Python function (used as is under ``NUMBA_DISABLE_JIT=1``) with a numba
``overload`` that compiles it to one machine instruction (LLVM ``ctlz``/``cttz``/``ctpop``):
numba has no bit-scan of its own that also runs uncompiled. Arguments are non-zero numpy
uint64 (``msb``/``lsb``) or any uint64 (``popcount``); results are int64. Used by the compiled
chess kernel (searchlab.games.chesskernel) and Othello's (games/othello_kernel.py, othello_compiled).
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.core.extending import intrinsic, overload
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros


def msb(x: np.uint64) -> int:
    """Index of the highest set bit of a non-zero board (python-chess's ``msb``)."""
    return int(x).bit_length() - 1


def lsb(x: np.uint64) -> int:
    """Index of the lowest set bit of a non-zero board."""
    v = int(x)
    return (v & -v).bit_length() - 1


def popcount(x: np.uint64) -> int:
    """Number of set bits."""
    return int(x).bit_count()


@intrinsic
def _ctpop(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return sig, codegen


@overload(msb)
def _msb_jit(x):
    def impl(x):
        return 63 - np.int64(leading_zeros(x))
    return impl


@overload(lsb)
def _lsb_jit(x):
    def impl(x):
        return np.int64(trailing_zeros(x))
    return impl


@overload(popcount)
def _popcount_jit(x):
    def impl(x):
        return np.int64(_ctpop(x))
    return impl
