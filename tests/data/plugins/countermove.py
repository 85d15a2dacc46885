"""Two ordering components from outside the package (docs/extending.md, "An ordering component"):

- ``countermove``, a dynamic component: the countermove heuristic (the reply that last made a
  cut after the opponent's previous move is searched first);
- ``mobility``, a base order: the moves that leave the opponent the fewest replies first.

Importing the module registers both (``search.plugins: [countermove]`` in a config, or
``register_component`` from Python); an installed package would name them in entry points
instead (``[project.entry-points."searchlab.orderings"] countermove = "countermove:COUNTERMOVE"``).
Neither has a compiled twin: searches under them run on the reference engine.
"""

from __future__ import annotations

from typing import Any, Hashable, Optional

from searchlab.algorithms.ordering_registry import Component, register_component


class CounterMove:
    """One search's countermove table: (side to move, the opponent's previous move) -> the
    reply that last made a cut there.

    The hooks see a node's state, not the move that led to it, so the previous move is found
    from the path: in a depth-first search the node ordered last at ``ply - 1`` is the parent,
    and the previous move is the parent's move whose child equals the state (None at the root,
    or where no move of the parent leads to the state, as after a null move).
    """

    def __init__(self, game: Any) -> None:
        self.game = game
        self.path: dict[int, tuple[Any, list]] = {}   # ply -> (state, moves) ordered last there
        self.previous: dict[int, Optional[Hashable]] = {}   # ply -> the move into that state
        self.counter: dict[tuple[bool, Hashable], Hashable] = {}

    def _previous(self, state: Any, ply: int) -> Optional[Hashable]:
        parent = self.path.get(ply - 1)
        if parent is None:
            return None
        pstate, pmoves = parent
        return next((m for m in pmoves if self.game.play(pstate, m) == state), None)

    def order(self, state: Any, moves: list, ply: int) -> list:
        """The countermove of the previous move first; every other move as it came."""
        prev = self._previous(state, ply) if ply else None
        self.path[ply], self.previous[ply] = (state, list(moves)), prev
        if prev is None:
            return list(moves)
        reply = self.counter.get((self.game.max_to_move(state), prev))
        if reply is None or reply not in moves:
            return list(moves)
        return [reply] + [m for m in moves if m != reply]

    def on_cut(self, state: Any, move: Hashable, ply: int, depth_left: float) -> None:
        """``move`` refuted the previous move: remember it as that move's countermove."""
        prev = self.previous.get(ply)
        if prev is not None and self.path.get(ply, (None,))[0] == state:
            self.counter[(self.game.max_to_move(state), prev)] = move


def mobility(game: Any, state: Any, moves: list) -> list:
    """The moves leaving the opponent the fewest legal replies first (ties in natural order)."""
    replies = {m: len(game.legal_moves(game.play(state, m))) for m in moves}
    return sorted(moves, key=replies.__getitem__)


COUNTERMOVE = register_component(Component(
    "countermove", "dynamic", "the reply that last cut after the opponent's previous move",
    hooks=CounterMove))
MOBILITY = register_component(Component(
    "mobility", "base", "the moves leaving the opponent the fewest replies first", order=mobility))
