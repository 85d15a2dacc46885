"""The kernel's exact-value oracle for perfect/worst ordering on IIDTree and IncrementalTree.

One natural-order minimax pass of the search kernel in *build* mode stores the value of every
interior node in per-ply tables indexed by level-order index (root 0, child i of j is j*b + i):
``oracle[off[t] + index]`` for ply t < depth; leaves are not stored (they are recomputed from
their keys). Memory: one float64 per interior node, (b^depth - 1)/(b - 1) of them.
"""

from __future__ import annotations

import numpy as np

from searchlab.errors import TreeTooLargeError

#: The kernel oracle refuses trees with more leaves than this (docs/trees.md).
ORACLE_MAX_LEAVES = 2**26


def check_oracle_size(b: int, d: int, depth: int, what: str) -> None:
    """Raise TreeTooLargeError when b**depth exceeds ORACLE_MAX_LEAVES (before any work)."""
    leaves = b**depth
    if leaves > ORACLE_MAX_LEAVES:
        raise TreeTooLargeError(
            f"{what} ordering needs an exact-value oracle over b^depth = {b}^{depth} = "
            f"{leaves:,} leaves (tree b={b}, d={d}); the kernel oracle's limit is "
            f"{ORACLE_MAX_LEAVES:,} = 2^26 leaves (use a smaller tree, or the ordered tree model, "
            "whose perfect/worst orders need no oracle)")


def oracle_offsets(b: int, depth: int) -> np.ndarray:
    """off[t] = number of nodes above ply t (sum of b^s for s < t), t = 0..depth."""
    off = np.zeros(depth + 1, np.int64)
    for t in range(1, depth + 1):
        off[t] = off[t - 1] + b ** (t - 1)
    return off
