"""The compiled tree count (private): searchlab.algorithms.tree_count's count of a game's
depth-limited tree, in numba over the game's two-player primitives (the contract:
searchlab.algorithms.compiled), without evaluating anything.

This file is a template: ``searchlab.algorithms.compiled.family.engine`` imports, per game, a
copy whose marker block imports the game's primitives under the names below. The walk is
iterative (an explicit stack: numba's disk cache and recursion do not mix, kernels/_recursive.py);
every path is walked (no transpositions: the primitives have no exact state key), and the ply
above the horizon is counted from gen_moves's count (perft's bulk counting).
"""

from __future__ import annotations

from numba import njit

# <primitives>
gen_moves = play = is_terminal = None
# </primitives>

NODES, LEAVES, EXPANDED, ABORT = range(4)


@njit(cache=True)
def count(S, M, N, K, depth, max_expanded, out):
    """Nodes and leaves of the tree below the root row S[0] to ``depth`` plies into
    out[NODES], out[LEAVES] (a leaf: terminal or at the horizon; every node once per path).
    S: depth + 1 state rows; M: depth + 1 move buffers; N, K: each level's move count and next
    move. Past ``max_expanded`` expanded positions out[ABORT] = 1 and the counts are partial."""
    out[NODES] = 1
    out[LEAVES] = 0
    out[EXPANDED] = 0
    out[ABORT] = 0
    if depth == 0 or is_terminal(S[0]):
        out[LEAVES] = 1
        return
    N[0] = gen_moves(S[0], M[0])
    K[0] = 0
    out[EXPANDED] = 1
    if depth == 1:
        out[NODES] += N[0]
        out[LEAVES] += N[0]
        return
    level = 0
    while level >= 0:
        if K[level] == N[level]:
            level -= 1
            continue
        m = M[level, K[level]]
        K[level] += 1
        child = level + 1
        play(S[level], m, S[child])
        out[NODES] += 1
        if child == depth or is_terminal(S[child]):
            out[LEAVES] += 1
            continue
        n = gen_moves(S[child], M[child])
        out[EXPANDED] += 1
        if out[EXPANDED] > max_expanded:
            out[ABORT] = 1
            return
        if child == depth - 1:          # its children are all leaves
            out[NODES] += n
            out[LEAVES] += n
            continue
        N[child] = n
        K[child] = 0
        level = child
