"""The 64-bit key arithmetic of docs/trees.md on numba uint64 (mirrors searchlab/hashing.py).

The one compiled copy of SplitMix64's finaliser and the keys built on it: the synthetic-tree
kernel (_alphabeta.py), the compiled engine (its random order), the compiled trees' and games'
primitives and the parallel kernels import it from here. It is a layer of its own, below both
kernels and the compiled engines (docs/architecture.md), and imports nothing of searchlab.

Every constant is a numpy uint64 and every operand is cast explicitly, because in numba (and
numpy) uint64 combined with int64 silently becomes float64. Under NUMBA_DISABLE_JIT these functions run on numpy uint64
scalars, whose multiplications wrap (callers silence numpy's overflow warning with
``np.errstate(over="ignore")``). The key arithmetic is fixed by docs/trees.md: an edit here
would change every tree; even so the compiled engine's copies hash this file with the
primitives' sources (searchlab.algorithms.compiled.specialise), so an edit recompiles them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["GOLDEN", "NOISE_SALT", "ORDER_SALT", "TWO_POW_M53", "child_key", "mix64", "mix_row", "noise",
           "order_draw", "unit"]

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
ORDER_SALT = np.uint64(0xD1B54A32D192ED03)
NOISE_SALT = np.uint64(0x9FB21C651E98DF25)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S11 = np.uint64(11)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)
TWO_POW_M53 = 2.0**-53


@njit(cache=True)
def mix64(z):
    """SplitMix64's finaliser on a uint64 (wrapping arithmetic)."""
    z = z ^ (z >> _S30)
    z = z * _M1
    z = z ^ (z >> _S27)
    z = z * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def child_key(key, i):
    """Key of child i (natural index, an int64): mix64(key + (i + 1) * GOLDEN)."""
    return mix64(key + np.uint64(i + 1) * GOLDEN)


@njit(cache=True)
def unit(z):
    """A double in [0, 1) from the top 53 bits of the uint64 z."""
    return np.float64(z >> _S11) * TWO_POW_M53


@njit(cache=True)
def order_draw(key, j):
    """draw_j(key) of the ordered tree: unit(mix64((key ^ ORDER_SALT) + (j + 1) * GOLDEN))."""
    return unit(mix64((key ^ ORDER_SALT) + np.uint64(j + 1) * GOLDEN))


@njit(cache=True)
def noise(ck):
    """The incremental tree's per-node noise: 2 * unit(mix64(ck ^ NOISE_SALT)) - 1."""
    return 2.0 * unit(mix64(ck ^ NOISE_SALT)) - 1.0


@njit(cache=True)
def mix_row(s, n):
    """A 64-bit key of the first n words of a state row (any integer dtype): SplitMix64 over
    the words in turn (the compiled games' position keys)."""
    h = GOLDEN
    for k in range(n):
        h = mix64((h ^ np.uint64(s[k])) + GOLDEN)
    return h
