"""Seeded opening sets for matches: distinct positions after a few random moves, named by
their moves.

``random_openings(game, ply, n, seed, accept=...)`` plays ``ply`` uniformly random legal moves
from the game's start (numpy Generator from ``seed``; no global state), keeps a position only
if it is not terminal, not already in the set (by ``hash_key``) and ``accept(state)`` (e.g.
"balanced": a shallow search's value within a margin), and stops at ``n`` openings. Each
opening carries its moves as text, so a report can name the exact data set.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Hashable

import numpy as np

from searchlab.errors import InvalidParameterError
from searchlab.limits import check_int, check_seed

#: the most openings one call draws (the studies' match.openings cap), and the longest opening:
#: the draws' work is bounded before they start (``n`` = 10**9 ran for hours)
MAX_OPENINGS = 100_000
MAX_OPENING_PLY = 1_000


@dataclass(frozen=True)
class Opening:
    """An opening: the moves from the start (as the game's move values) and the position."""

    moves: tuple[Hashable, ...]
    state: Any

    @property
    def text(self) -> str:
        return " ".join(map(str, self.moves))


def random_openings(game: Any, ply: int, n: int, seed: int,
                    accept: Callable[[Any], bool] | None = None,
                    max_tries: int | None = None) -> list[Opening]:
    """``n`` distinct openings of ``ply`` random moves (the module docstring), in the order
    drawn. Raises InvalidParameterError when ``max_tries`` draws (default 50 n) do not yield
    ``n`` of them (too few distinct positions at that ply, or ``accept`` too strict), and when
    ``ply``, ``n`` or ``max_tries`` is not an integer in its range (MAX_OPENING_PLY,
    MAX_OPENINGS, 50 MAX_OPENINGS)."""
    ply = check_int("ply", ply, 0, MAX_OPENING_PLY)
    n = check_int("n", n, 1, MAX_OPENINGS)
    rng = np.random.default_rng(check_seed(seed))
    tries = check_int("max_tries", max_tries if max_tries is not None else 50 * n, 1,
                      50 * MAX_OPENINGS)
    ended = 0                           # draws whose game ended before ply moves
    out: list[Opening] = []
    seen: set[int] = set()
    for _ in range(tries):
        s, moves = game.initial_state(), []
        for _ in range(ply):
            if game.is_terminal(s):
                break
            legal = list(game.legal_moves(s))
            m = legal[int(rng.integers(len(legal)))]
            moves.append(m)
            s = game.play(s, m)
        if len(moves) < ply or game.is_terminal(s):
            ended += 1
            continue
        key = game.hash_key(s)
        if key in seen or (accept is not None and not accept(s)):
            continue
        seen.add(key)
        out.append(Opening(tuple(moves), s))
        if len(out) == n:
            return out
    if ended == tries:
        raise InvalidParameterError(
            f"ply={ply}: every one of {tries} random games ended before {ply} moves; an opening "
            f"must end before the game does")
    raise InvalidParameterError(
        f"only {len(out)} of {n} distinct accepted openings after {tries} random {ply}-ply "
        f"draws; lower the number of openings or loosen the filter")
