"""Exact ground truth for judging unsound searches: every root move's value, the best moves."""

from __future__ import annotations

from typing import Any, Hashable

from searchlab.algorithms.search_api import search
from searchlab.contracts.position import FromState


def root_move_values(game: Any, depth: int | None = None, ordering: str = "natural",
                     **search_kwargs: Any) -> dict[Hashable, float]:
    """The exact value (MAX's view) of every root move of ``game``, at the same nominal depth:
    one sound alpha-beta search per move, to ``depth - 1`` below the move."""
    root = game.initial_state()
    values = {}
    for m in game.legal_moves(root):
        child = game.play(root, m)
        if game.is_terminal(child):
            values[m] = game.utility(child)
            continue
        sub = FromState(game, child)
        d = None if depth is None else depth - 1
        if d == 0:
            values[m] = game.evaluate(child)
            continue
        values[m] = search(sub, "alphabeta", ordering, depth=d, **search_kwargs).value
    return values


def exact_best_moves(game: Any, depth: int | None = None, **kw: Any) -> tuple[float, tuple]:
    """(root value, every root move achieving it) from ``root_move_values``."""
    values = root_move_values(game, depth, **kw)
    pick = max if game.max_to_move(game.initial_state()) else min
    v = pick(values.values())
    return v, tuple(m for m, x in values.items() if x == v)
