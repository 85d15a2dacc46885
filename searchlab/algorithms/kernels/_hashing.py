"""The 64-bit key arithmetic of docs/trees.md on numba uint64 (mirrors searchlab/hashing.py).

The functions are defined in _alphabeta.py, next to the kernel that calls them: numba's on-disk
cache only notices edits to the file that defines a cached function, so keeping every jitted
function in one file keeps the cache honest. This module re-exports them.
"""

from __future__ import annotations

from searchlab.algorithms.kernels._alphabeta import (GOLDEN, NOISE_SALT, ORDER_SALT, TWO_POW_M53,
                                                 child_key, mix64, noise, order_draw, unit)

__all__ = ["GOLDEN", "NOISE_SALT", "ORDER_SALT", "TWO_POW_M53", "child_key", "mix64", "noise",
           "order_draw", "unit"]
