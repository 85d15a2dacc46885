"""The compiled n-player engine for Rolit: max^n, shallow pruning, paranoid (alpha-beta and
plain minimax) and best-reply search over searchlab/games/rolit_compiled.py's primitives.

``run_compiled(game, algorithm, state, horizon, total, max_nodes)`` returns the same
MultiResult as searchlab.algorithms.multiplayer.search_multiplayer (engine "reference"), node
for node: value vector and value bit for bit, best move, nodes, leaves, interior, cutoffs,
per_ply, status (tests/games/test_rolit_compiled.py, also under NUMBA_DISABLE_JIT=1). The
search is one recursive function repeating multiplayer.py's maxn / maxn_shallow / paranoid /
brs step for step (natural move order only). It is compiled for one explicit signature, so
numba's on-disk cache holds it (kernels/_recursive.py). Positions live in a per-ply stack
``S`` (row ply = the node at that ply), value vectors in ``V`` (row ply = the vector the node
returns) and ``B`` (the node's best child vector so far): nothing is allocated per node.
"""

from __future__ import annotations

import math
import time

import numpy as np
from numba import njit, types

from searchlab.algorithms.kernels._recursive import ready
from searchlab.algorithms.result import MultiResult
from searchlab.errors import InvalidParameterError
from searchlab.games.rolit import Rolit
from searchlab.games.rolit_compiled import MOVER, encode, gen_moves_for, is_terminal, payoffs, play_for

ALG_MAXN, ALG_SHALLOW, ALG_PARANOID, ALG_PARANOID_MM, ALG_BRS = range(5)
ALGORITHMS = {"maxn": ALG_MAXN, "maxn-shallow": ALG_SHALLOW, "paranoid": ALG_PARANOID,
              "paranoid-minimax": ALG_PARANOID_MM, "brs": ALG_BRS}
NODES, LEAVES, CUTS, ABORT, BEST, BAD = range(6)
MAX_PLY = 64                 # Rolit lasts 60 plies; a row per ply plus the leaf's
MAX_MOVES = 192              # BRS's MIN node: every opponent's moves (3 x 60 at most)
INF = np.inf

_F, _I = types.float64, types.int64
_SIGNATURE = _F(types.uint64[:, :], _I, _F, _F, _F, _I, _I, _I, _I, _F, _I, types.int64[:],
                types.int64[:], types.int64[:, :], types.int64[:, :], types.float64[:, :],
                types.float64[:, :])


@njit(cache=True)          # compiled for _SIGNATURE by ready() on first use
def _rec(S, ply, alpha, beta, bound, algo, n, depth, root, total, max_nodes, cnt, per_ply, M, MP, V, B):
    """One node at ``ply`` (position S[ply]): its value vector into V[ply]; returns the root
    player's component (paranoid, BRS: the node's value; 0 after an abort)."""
    cnt[NODES] += 1
    if cnt[NODES] > max_nodes:
        cnt[ABORT] = 1
        return 0.0
    per_ply[ply] += 1
    s = S[ply]
    terminal = is_terminal(s)
    if terminal or ply >= depth:
        cnt[LEAVES] += 1
        payoffs(s, n, not terminal, V[ply])
        if algo == ALG_SHALLOW:
            acc = 0.0
            low = V[ply, 0]
            for i in range(n):
                acc += V[ply, i]
                low = min(low, V[ply, i])
            if low < 0 or acc != total:
                cnt[BAD] = 1
                cnt[ABORT] = 1
        return V[ply, root]
    child = S[ply + 1]
    best_m = -1
    if algo == ALG_MAXN or algo == ALG_SHALLOW:
        mover = np.int64(s[MOVER])
        k = gen_moves_for(s, mover, M[ply])
        for i in range(k):
            m = M[ply, i]
            play_for(s, mover, m, n, child)
            child_bound = total if best_m < 0 else total - B[ply, mover]
            _rec(S, ply + 1, alpha, beta, child_bound, algo, n, depth, root, total, max_nodes, cnt,
                 per_ply, M, MP, V, B)
            if cnt[ABORT]:
                return 0.0
            if best_m < 0 or V[ply + 1, mover] > B[ply, mover]:
                B[ply, :n] = V[ply + 1, :n]
                best_m = m
            if algo == ALG_SHALLOW and B[ply, mover] >= bound and i < k - 1:
                cnt[CUTS] += 1
                break
        if ply == 0:
            cnt[BEST] = best_m
        V[ply, :n] = B[ply, :n]
        return V[ply, root]
    # paranoid and BRS: (player, move) pairs, then fail-soft alpha-beta (multiplayer._two_sided)
    if algo == ALG_BRS:
        maximizing = ply % 2 == 0
        if maximizing:
            k = gen_moves_for(s, root, M[ply])
            MP[ply, :k] = root
        else:
            k = 0
            for j in range(1, n):
                p = (root + j) % n
                c = gen_moves_for(s, p, M[ply, k:])
                MP[ply, k:k + c] = p
                k += c
    else:
        mover = np.int64(s[MOVER])
        maximizing = mover == root
        k = gen_moves_for(s, mover, M[ply])
        MP[ply, :k] = mover
    prune = algo != ALG_PARANOID_MM
    best = -INF if maximizing else INF
    for i in range(k):
        m = M[ply, i]
        play_for(s, MP[ply, i], m, n, child)
        c = _rec(S, ply + 1, alpha, beta, 0.0, algo, n, depth, root, total, max_nodes, cnt, per_ply,
                 M, MP, V, B)
        if cnt[ABORT]:
            return 0.0
        if (c > best) if maximizing else (c < best):
            best = c
            B[ply, :n] = V[ply + 1, :n]
            best_m = m
        if prune:
            if maximizing:
                if best >= beta:
                    if i < k - 1:
                        cnt[CUTS] += 1
                    break
                alpha = max(alpha, best)
            else:
                if best <= alpha:
                    if i < k - 1:
                        cnt[CUTS] += 1
                    break
                beta = min(beta, best)
    if ply == 0:
        cnt[BEST] = best_m
    V[ply, :n] = B[ply, :n]
    return best


def supports(game, algorithm: str, ordering: str = "natural") -> bool:
    """Whether the compiled engine covers this search: Rolit (itself, not a wrapper), any of
    the n-player algorithms, natural move order."""
    return type(game) is Rolit and algorithm in ALGORITHMS and ordering == "natural"


def run_compiled(game: Rolit, algorithm: str, state, horizon: float, total: float | None,
                 max_nodes: int | None) -> MultiResult:
    """Search ``state`` of a Rolit game to ``horizon`` plies (math.inf: to the end) with the
    compiled engine; ``total`` is shallow pruning's constant sum (validated by the caller,
    search_multiplayer). Raises InvalidParameterError when a leaf breaks the constant sum,
    as the reference does."""
    n = game.n_players
    S = np.zeros((MAX_PLY + 1, 5), np.uint64)
    S[0] = encode(state)
    cnt = np.zeros(6, np.int64)
    cnt[BEST] = -1                         # no move: a root at the horizon
    per_ply = np.zeros(MAX_PLY + 1, np.int64)
    M = np.zeros((MAX_PLY + 1, MAX_MOVES), np.int64)
    MP = np.zeros((MAX_PLY + 1, MAX_MOVES), np.int64)
    V = np.zeros((MAX_PLY + 1, 4))
    B = np.zeros((MAX_PLY + 1, 4))
    depth = MAX_PLY if not math.isfinite(horizon) else int(horizon)
    limit = np.int64(2**62) if max_nodes is None else np.int64(max_nodes)
    root = state.mover
    t0 = time.perf_counter()
    value = ready(_rec, _SIGNATURE)(S, 0, -INF, INF, float(total or 0.0), ALGORITHMS[algorithm], n, depth, root,
                 float(total or 0.0), limit, cnt, per_ply, M, MP, V, B)
    wall = time.perf_counter() - t0
    if cnt[BAD]:
        raise InvalidParameterError(f"shallow pruning needs non-negative payoffs summing to total={total}; "
                                    "a leaf breaks that")
    ok = not cnt[ABORT]
    vec = tuple(float(x) for x in V[0, :n]) if ok else None
    top = max((k for k, c in enumerate(per_ply) if c), default=0)
    nodes = int(cnt[NODES])
    return MultiResult(
        values=vec, value=(vec[root] if algorithm.startswith("maxn") else float(value)) if ok else None,
        best_move=int(cnt[BEST]) if ok and cnt[BEST] >= 0 else None, nodes=nodes,
        leaves=int(cnt[LEAVES]), interior=nodes - int(cnt[LEAVES]), cutoffs=int(cnt[CUTS]),
        per_ply=tuple(int(x) for x in per_ply[:top + 1]), algorithm=algorithm, n_players=n,
        root_player=root, depth=int(horizon) if math.isfinite(horizon) else -1, wall_time=wall,
        status="ok" if ok else "aborted", engine="compiled")
