"""The compiled chance engine's public side: which searches it runs, and running one.

One numba search (searchlab/algorithms/compiled/_chance_engine.py) serves every chance game
that supplies compiled primitives (the contract: searchlab.contracts.compiled_chance): the
ChanceTree (engine "kernel"), Pig and the dice race (engine "compiled"). ``run_compiled``
returns the same SearchResult as searchlab.algorithms.chance_search.search_chance (engine
"reference", not iterative), node for node: value bit for bit, best move(s), nodes, leaves,
chance_nodes, cutoffs, per_ply and extra's chance_cutoffs, probes, probe_cutoffs, probe_reuses
(tests/algorithms/test_chance_engine.py, also under NUMBA_DISABLE_JIT=1).
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

import numpy as np

from searchlab.algorithms.compiled import family
from searchlab.contracts.compiled_chance import ChancePrimitives, CompiledChanceGame
from searchlab.algorithms.kernels._recursive import ready
from searchlab.contracts.result import SearchResult
from searchlab.errors import InvalidParameterError

TEMPLATE = Path(family.__file__).with_name("_chance_engine.py")
ALGORITHMS = {"expectiminimax": 0, "alphabeta-emm": 1, "star1": 2, "star2": 3}
NODES, LEAVES, CHANCE, CUTS, CHANCE_CUTS, PROBES, PROBE_CUTS, REUSES, ABORT, BAD, BEST = range(11)
INF = np.inf


def compiled_chance_game(game: Any) -> CompiledChanceGame | None:
    """The game's chance primitives, or None where it has none."""
    caps = getattr(game, "capabilities", None)
    if caps is None or not getattr(caps, "family_compiled", False):
        return None
    cg = game.family_primitives()
    return cg if isinstance(cg, CompiledChanceGame) else None


def supports(game: Any, algorithm: str, ordering: str, iterative: bool, engine: str) -> bool:
    """Whether the compiled engine runs this search for ``engine`` ("kernel", "compiled" or
    "auto"): a game with chance primitives whose label is that engine (any label for "auto"),
    one of the four algorithms, an ordering the game's engine covers, not iterative."""
    cg = compiled_chance_game(game)
    return (cg is not None and engine in (cg.label, "auto") and algorithm in ALGORITHMS
            and ordering in cg.orderings and not iterative)


def module(cg: CompiledChanceGame):
    """The chance engine specialised for ``cg``'s primitives (compiled or loaded once)."""
    return family.engine(TEMPLATE, ChancePrimitives._fields, tuple(cg.prims))


def run_compiled(game: Any, algorithm: str, ordering: str, horizon: float, low: float, high: float,
                 outcome_order: str, max_nodes: int | None) -> SearchResult:
    """Search ``game`` from its initial state with the compiled engine (arguments validated by
    search_chance; ``supports`` true). Raises InvalidParameterError for a leaf outside
    [L, U], with the reference's message."""
    cg = compiled_chance_game(game)
    E = module(cg)
    decisions = cg.max_decisions if not math.isfinite(horizon) else min(int(horizon), cg.max_decisions)
    rows = 2 * decisions + 4                 # every path, plus the static order's scratch rows
    row = cg.encode(game.initial_state())
    S = np.zeros((rows + 2, row.shape[0]), cg.state_dtype)
    S[0] = row
    P = cg.params
    tol = 1e-9 * max(1.0, abs(low), abs(high))
    cnt = np.zeros(E.N_COUNTERS, np.int64)
    cnt[BEST] = -1
    per_ply = np.zeros(rows + 2, np.int64)
    memo_v, memo_k = E.new_memos()
    root_vals = np.full(cg.n_move_ids, np.nan)
    width = cg.max_outcomes
    s_lo, s_hi = np.empty((rows + 2, width)), np.empty((rows + 2, width))
    s_done, s_vals = np.zeros((rows + 2, width), np.bool_), np.empty((rows + 2, width))
    PR, O = np.zeros((rows + 2, width)), np.zeros((rows + 2, width), np.int64)
    M = np.zeros((rows + 2, cg.max_moves), np.int64)
    keys = np.zeros(cg.max_moves)
    bad = np.zeros(1)
    by_prob = np.array([outcome_order == "probability"], np.int64)      # outcomes by probability (0/1)
    depth = np.int64(2**62) if not math.isfinite(horizon) else np.int64(horizon)
    limit = np.int64(2**62) if max_nodes is None else np.int64(max_nodes)
    static = ordering == "static"
    rec = ready(E._rec, E.signature(S, P))
    t0 = time.perf_counter()
    with np.errstate(over="ignore"):
        value = rec(S, 0, 0, -INF, INF, ALGORITHMS[algorithm], depth, low, high, tol, static, P, cnt, limit,
                    per_ply, memo_v, memo_k, root_vals, s_lo, s_hi, s_done, s_vals, M, PR, O, by_prob, keys, bad)
    wall = time.perf_counter() - t0
    if cnt[BAD]:
        raise InvalidParameterError(
            f"bounds: a leaf value {float(bad[0])!r} lies outside [L, U] = [{low}, {high}]; "
            "give bounds that contain every utility and evaluation")
    ok = not cnt[ABORT]
    best = int(cnt[BEST]) if ok and cnt[BEST] >= 0 else None
    complete = ok and algorithm == "expectiminimax" and not np.isnan(root_vals).all()
    if complete:
        with np.errstate(over="ignore"):
            k = E.order_moves(S, 0, P, static, M, PR, keys)
        best_moves = tuple(int(M[0, i]) for i in range(k) if root_vals[M[0, i]] == value)
    else:
        best_moves = (best,) if best is not None else ()
    top = max((k for k, c in enumerate(per_ply) if c), default=0)
    nodes = int(cnt[NODES])
    return SearchResult(
        value=float(value) if ok else None, best_move=best, best_moves=best_moves,
        best_moves_complete=complete, nodes=nodes, leaves=int(cnt[LEAVES]), interior=nodes - int(cnt[LEAVES]),
        cutoffs=int(cnt[CUTS]), per_ply=tuple(int(x) for x in per_ply[:top + 1]), iterations=(nodes,),
        wall_time=wall, algorithm=algorithm, ordering=ordering, engine=cg.label,
        depth=int(horizon) if math.isfinite(horizon) else -1, status="ok" if ok else "aborted",
        chance_nodes=int(cnt[CHANCE]),
        extra={"chance_cutoffs": int(cnt[CHANCE_CUTS]), "probes": int(cnt[PROBES]),
               "probe_cutoffs": int(cnt[PROBE_CUTS]), "probe_reuses": int(cnt[REUSES]),
               "bounds": (low, high), "outcome_order": outcome_order})
