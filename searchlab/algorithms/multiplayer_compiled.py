"""The compiled n-player engine's public side: which searches it runs, and running one.

One numba search (searchlab/algorithms/compiled/_nplayer_engine.py) serves every n-player game
that supplies compiled primitives (the contract: searchlab.contracts.compiled_nplayer): the
NPlayerTree (engine "kernel"), Rolit and Harvest (engine "compiled"). ``run_compiled`` returns
the same MultiResult as searchlab.algorithms.multiplayer.search_multiplayer (engine
"reference"), node for node: value vector and value bit for bit, best move, nodes, leaves,
interior, cutoffs, per_ply, status (tests/algorithms/test_nplayer_engine.py, also under
NUMBA_DISABLE_JIT=1). Natural move order only.
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

import numpy as np

from searchlab.algorithms.compiled import family
from searchlab.contracts.compiled_nplayer import CompiledNPlayerGame, NPlayerPrimitives
from searchlab.algorithms.kernels._recursive import ready
from searchlab.contracts.result import MultiResult
from searchlab.errors import InvalidParameterError

TEMPLATE = Path(family.__file__).with_name("_nplayer_engine.py")
ALGORITHMS = {"maxn": 0, "maxn-shallow": 1, "paranoid": 2, "paranoid-minimax": 3, "brs": 4}
NODES, LEAVES, CUTS, ABORT, BEST, BAD = range(6)
INF = np.inf


def compiled_nplayer_game(game: Any) -> CompiledNPlayerGame | None:
    """The game's n-player primitives, or None where it has none."""
    caps = getattr(game, "capabilities", None)
    if caps is None or not getattr(caps, "family_compiled", False):
        return None
    cg = game.family_primitives()
    return cg if isinstance(cg, CompiledNPlayerGame) else None


def supports(game: Any, algorithm: str, ordering: str, engine: str, horizon: float) -> bool:
    """Whether the compiled engine runs this search for ``engine`` ("kernel", "compiled" or
    "auto"): a game with n-player primitives whose label is that engine (any label for
    "auto"), any of the n-player algorithms, natural move order; for a game without static
    values a horizon at or beyond its ``default_depth``."""
    cg = compiled_nplayer_game(game)
    if cg is None or engine not in (cg.label, "auto") or algorithm not in ALGORITHMS or ordering != "natural":
        return False
    return cg.static_values or (game.default_depth is not None and horizon >= game.default_depth)


def module(cg: CompiledNPlayerGame):
    """The n-player engine specialised for ``cg``'s primitives (compiled or loaded once)."""
    return family.engine(TEMPLATE, NPlayerPrimitives._fields, tuple(cg.prims))


def run_compiled(game: Any, algorithm: str, state: Any, horizon: float, total: float | None,
                 max_nodes: int | None) -> MultiResult:
    """Search ``state`` to ``horizon`` plies (math.inf: to the end) with the compiled engine;
    ``total`` is shallow pruning's constant sum (validated by search_multiplayer). Raises
    InvalidParameterError when a leaf breaks the constant sum, as the reference does."""
    cg = compiled_nplayer_game(game)
    E = module(cg)
    n = cg.n_players
    plies = cg.max_plies if not math.isfinite(horizon) else min(int(horizon), cg.max_plies)
    row = cg.encode(state)
    S = np.zeros((plies + 2, row.shape[0]), cg.state_dtype)
    S[0] = row
    P = cg.params
    cnt = np.zeros(E.N_COUNTERS, np.int64)
    cnt[BEST] = -1                         # no move: a root at the horizon
    per_ply = np.zeros(plies + 2, np.int64)
    width = cg.max_moves * max(1, n - 1)   # best-reply search's MIN node: every opponent's moves
    M = np.zeros((plies + 2, width), np.int64)
    MP = np.zeros((plies + 2, width), np.int64)
    V = np.zeros((plies + 2, n))
    B = np.zeros((plies + 2, n))
    depth = np.int64(2**62) if not math.isfinite(horizon) else np.int64(horizon)
    limit = np.int64(2**62) if max_nodes is None else np.int64(max_nodes)
    root = int(game.to_move(state))
    rec = ready(E._rec, E.signature(S, P))
    t0 = time.perf_counter()
    with np.errstate(over="ignore"):
        value = rec(S, 0, -INF, INF, float(total or 0.0), ALGORITHMS[algorithm], n, depth, root, float(total or 0.0),
                    limit, P, cnt, per_ply, M, MP, V, B)
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
        status="ok" if ok else "aborted", engine=cg.label)
