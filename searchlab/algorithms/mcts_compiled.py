"""The compiled MCTS's public side: which games it runs on, and running a search on it.

One numba search (searchlab/algorithms/compiled/_mcts_engine.py, specialised per game like the
other compiled families) serves every game with two-player compiled primitives (tic-tac-toe,
Connect Four, Othello, Hex, the synthetic trees; searchlab.algorithms.compiled). ``run``
returns the reference's SearchResult (searchlab.algorithms.mcts.search_mcts) for the same seed:
the same root visits and values, nodes, leaves, per_ply and move (tests/algorithms/test_mcts.py,
also under NUMBA_DISABLE_JIT=1), with ``engine="compiled"``. The time budget is checked
between chunks of simulations, so a timed search may run up to one chunk longer.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from searchlab.algorithms import mcts
from searchlab.contracts.compiled import Primitives, compiled_game
from searchlab.algorithms.compiled import family
from searchlab.contracts.result import SearchResult

TEMPLATE = Path(family.__file__).with_name("_mcts_engine.py")
_NO_LIMIT = 2**62
CHUNK = 256                     # simulations between two looks at the clock (time budgets only)


class _View(NamedTuple):
    """A tree node of the compiled search as mcts.package reads it."""

    move: Any
    visits: int
    total: float
    solved: int
    children: tuple = ()


def supports(game: Any) -> bool:
    """True when the game has two-player compiled primitives."""
    return compiled_game(game) is not None


def module(prims: Primitives):
    """The compiled MCTS specialised for these primitives (compiled or loaded once)."""
    return family.engine(TEMPLATE, Primitives._fields, tuple(prims))


def run(game: Any, options: mcts.MCTSOptions = mcts.MCTSOptions(), *, max_nodes: int | None = None,
        max_time: float | None = None, seed: int = 0) -> SearchResult:
    """``mcts.search_mcts`` on the compiled twin (arguments validated the same way first)."""
    o = mcts.validate(game, options, max_nodes, max_time, seed)
    cg = compiled_game(game)
    E = module(cg.prims)
    root = game.initial_state()
    rows = cg.max_plies + 2
    S = np.zeros((rows, cg.state_size), np.uint64)
    S[0] = cg.encode(root)
    cap = max(1024, 8 * cg.max_moves)
    TI = np.zeros((cap, 6), np.int64)
    TF = np.zeros((cap, 3), np.float64)
    TI[0, E.CHILD] = TI[0, E.NCH] = -1
    path = np.zeros(rows, np.int64)
    cnt = np.zeros(E.N_COUNTERS, np.int64)
    cnt[E.NODES], cnt[E.USED] = 1, 1
    per_ply = np.zeros(rows, np.int64)
    per_ply[0] = 1
    M = np.zeros(cg.max_moves, np.int64)
    keys = np.zeros(cg.max_moves, np.float64)
    rng = np.array([mcts.rng_seed(seed)], np.uint64)
    prior = cg.orderings[o.prior] if o.prior is not None else -1
    horizon = o.rollout_depth if o.rollout == "horizon" else -1
    ip = np.array([int(o.solver), prior, horizon,
                   _NO_LIMIT if max_nodes is None else max_nodes,
                   _NO_LIMIT if o.simulations is None else o.simulations, _NO_LIMIT,
                   int(o.reward == "value")], np.int64)
    fp = np.array([o.exploration, o.prior_weight], np.float64)
    t0, c0 = time.perf_counter(), time.thread_time()
    while True:
        if max_time is not None:
            ip[E.I_CHUNK_END] = cnt[E.SIMS] + CHUNK
        with np.errstate(over="ignore"):
            code = E.run(S, TI, TF, path, cnt, per_ply, M, keys, rng, ip, fp, cg.max_moves)
        if code == E.FULL:
            TI = np.concatenate([TI, np.zeros_like(TI)])
            TF = np.concatenate([TF, np.zeros_like(TF)])
        elif code == E.CHUNK:
            if time.thread_time() - c0 >= max_time:
                break
        else:
            break
    wall = time.perf_counter() - t0
    first, k = int(TI[0, E.CHILD]), int(TI[0, E.NCH])
    children = [_View(cg.move_of(int(TI[i, E.MOVE])), int(TI[i, E.VIS]), float(TF[i, E.TOTAL]),
                      int(TI[i, E.SOLVED])) for i in range(first, first + k)]
    root_view = _View(None, int(TI[0, E.VIS]), float(TF[0, E.TOTAL]), int(TI[0, E.SOLVED]), tuple(children))
    sign = 1 if TI[0, E.FLAGS] & E.F_MAX else -1
    best = mcts.choose(children, sign, o.solver)
    return mcts.package(game, root, best, root_view, int(cnt[E.NODES]), int(cnt[E.SIMS]),
                        list(per_ply), wall, o, "compiled")

