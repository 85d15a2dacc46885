"""The size of a game's depth-limited tree, counted without searching it (perft-like).

``count_tree(game, depth)`` returns the nodes and leaves that plain minimax visits from the
game's root to ``depth`` plies: a node is counted once per path that reaches it (as a search
does), a leaf is a terminal position or one at the horizon (``SearchContext.visit``'s
definition). It evaluates nothing and counts transpositions once: the count of a position with
k plies to go is the same on every path, so it is kept by the exact state (no hash key, hence
no collision) and the one ply above the horizon is counted from the number of legal moves
(perft's bulk counting).

Games with compiled primitives (searchlab.algorithms.compiled) are counted by a numba walk of
every path instead (``_count_engine.py``, specialised per game like the engine; it evaluates
nothing and counts the ply above the horizon in bulk): Connect Four to 10 plies from the start,
314,060,245 nodes, or Hex 7x7 to 5 plies, in seconds, where minimax itself takes a minute. Both
ways give the same numbers (tests/algorithms/test_tree_count.py).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np

from searchlab.contracts.compiled import compiled_game
from searchlab.algorithms.compiled import family
from searchlab.errors import InvalidParameterError, SearchAborted

TEMPLATE = Path(family.__file__).with_name("_count_engine.py")
FIELDS = ("gen_moves", "play", "is_terminal")
#: the compiled walk's positions expanded per second, about (its time limit in positions)
_COMPILED_RATE = 20_000_000

#: how many positions are expanded between two looks at the clock
_CLOCK_EVERY = 4096


def count_tree(game: Any, depth: int, max_seconds: float | None = None,
               engine: str = "auto") -> tuple[int, int]:
    """(nodes, leaves) of ``game``'s tree from its initial state to ``depth`` plies, equal to
    ``search(game, "minimax", depth=depth)``'s nodes and leaves. Raises SearchAborted past
    ``max_seconds`` (None: no limit; the compiled walk's limit is in positions, about
    max_seconds' worth, its compile not counted). ``engine``: "auto" (compiled where the game
    has compiled primitives), "compiled" or "python" (the states must be hashable; every
    game of the package's is)."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise InvalidParameterError(f"depth must be an integer >= 0; got {depth!r}")
    if max_seconds is not None and not max_seconds > 0:
        raise InvalidParameterError(f"max_seconds must be > 0 or None; got {max_seconds!r}")
    if engine not in ("auto", "compiled", "python"):
        raise InvalidParameterError(f"engine must be one of auto, compiled, python; got {engine!r}")
    cg = compiled_game(game) if engine != "python" else None
    if engine == "compiled" and cg is None:
        raise InvalidParameterError(f"engine compiled: {type(game).__name__} has no compiled "
                                    "primitives")
    if cg is not None:
        return _count_compiled(game, cg, depth, max_seconds)
    return _count_python(game, depth, max_seconds)


def _count_compiled(game: Any, cg: Any, depth: int, max_seconds: float | None) -> tuple[int, int]:
    mod = family.engine(TEMPLATE, FIELDS, (cg.prims.gen_moves, cg.prims.play,
                                           cg.prims.is_terminal))
    root = cg.encode(game.initial_state())
    S = np.zeros((depth + 1, cg.state_size), dtype=np.uint64)
    S[0, :] = root
    M = np.zeros((depth + 1, cg.max_moves), dtype=np.int64)
    N = np.zeros(depth + 1, dtype=np.int64)
    K = np.zeros(depth + 1, dtype=np.int64)
    out = np.zeros(4, dtype=np.int64)
    limit = np.iinfo(np.int64).max if max_seconds is None else int(max_seconds * _COMPILED_RATE)
    mod.count(S, M, N, K, depth, limit, out)
    if out[3]:
        raise SearchAborted(f"the tree was not counted within {max_seconds:g} s "
                            f"({limit:,} positions expanded)")
    return int(out[0]), int(out[1])


def _count_python(game: Any, depth: int, max_seconds: float | None) -> tuple[int, int]:
    deadline = None if max_seconds is None else time.monotonic() + max_seconds
    legal, play, terminal = game.legal_moves, game.play, game.is_terminal
    memo: dict[tuple[Any, int], tuple[int, int]] = {}
    expanded = 0

    def count(state: Any, k: int) -> tuple[int, int]:
        nonlocal expanded
        if k == 0 or terminal(state):
            return 1, 1
        got = memo.get((state, k))
        if got is not None:
            return got
        expanded += 1
        if deadline is not None and expanded % _CLOCK_EVERY == 0 and time.monotonic() > deadline:
            raise SearchAborted(f"the tree was not counted within {max_seconds:g} s")
        moves = list(legal(state))
        if k == 1:                       # every child is a leaf, terminal or at the horizon
            out = (1 + len(moves), len(moves))
        else:
            nodes, leaves = 1, 0
            for m in moves:
                n, f = count(play(state, m), k - 1)
                nodes += n
                leaves += f
            out = (nodes, leaves)
        memo[(state, k)] = out
        return out

    return count(game.initial_state(), depth)
