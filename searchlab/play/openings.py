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
from searchlab.limits import check_seed


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
    ``n`` of them (too few distinct positions at that ply, or ``accept`` too strict)."""
    if ply < 0 or n < 1:
        raise InvalidParameterError(f"random_openings needs ply >= 0 and n >= 1; got {ply}, {n}")
    rng = np.random.default_rng(check_seed(seed))
    tries = max_tries if max_tries is not None else 50 * n
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
            continue
        key = game.hash_key(s)
        if key in seen or (accept is not None and not accept(s)):
            continue
        seen.add(key)
        out.append(Opening(tuple(moves), s))
        if len(out) == n:
            return out
    raise InvalidParameterError(
        f"only {len(out)} of {n} distinct accepted openings after {tries} random {ply}-ply "
        f"draws; lower the number of openings or loosen the filter")
