"""Searching from any position: a view of a game whose initial state is a given state."""

from __future__ import annotations

import dataclasses
from typing import Any


def rooted(game: Any, state: Any) -> Any:
    """``state`` as the root of a search: a game whose states carry history relative to a root
    (chess: repetitions) provides ``search_root(state)``; any other state is returned as is."""
    root = getattr(game, "search_root", None)
    return state if root is None else root(state)


class FromState:
    """``game`` as seen from ``state``: the same rules, ``initial_state()`` returns ``state``.

    MAX stays the player MAX of the underlying game (values keep their point of view). For
    synthetic trees, whose states carry their absolute ply, ``default_depth`` is the depth left
    below ``state``. A game whose states carry history relative to a root (chess: repetitions)
    provides ``search_root(state)``, which makes ``state`` the root; it is applied here
    (``rooted``).
    """

    def __init__(self, game: Any, state: Any) -> None:
        self._game, self._state = game, rooted(game, state)
        self.name = f"{game.name} from a position"
        full = game.default_depth
        # compiled kernels search trees from their root only
        self.capabilities = dataclasses.replace(game.capabilities, kernel_model=None)
        ply = state[1] if game.capabilities.node_ids else 0
        self.default_depth = None if full is None else max(full - ply, 0)

    def initial_state(self) -> Any:
        return self._state

    def leaf_count(self, depth: int | None = None) -> int:
        depth = self.default_depth if depth is None else min(depth, self.default_depth)
        return self._game.b ** depth

    def __getattr__(self, item: str) -> Any:
        return getattr(self._game, item)
