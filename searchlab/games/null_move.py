"""Null move for games that have none of their own, with each game's zugzwang guard.

Null-move pruning (searchlab.algorithms.pruning.NullMove) rests on the *null-move
observation*: passing is never better than the best move. Where that fails (zugzwang: every
move makes things worse) the pass search overestimates the side to move and prunes wrongly, so
engines switch null move off where zugzwang is likely. Per game (docs/games.md, "Null move and
its guards"):

- Connect Four (``connect_four_with_null_move``): zugzwang decides many positions (the
  odd/even threat rule is a zugzwang argument). Guard: no null move when the side to move
  has fewer than ``NULL_MOVE_MIN_SAFE`` = 3 safe (non-losing) moves
  (``connect4.safe_moves``: Pons' possibleNonLosingMoves), i.e. where it is forced or
  nearly so and passing is most likely to be worth more than moving.
- Chess (the game's own ``null_move_allowed``): no null move in check or when the side to
  move has only king and pawns (pawn endings are where zugzwang lives); verified null move
  (``NullMove(verify=True)``) is available on top.
- Othello: no guard here and no null move offered: tempo and parity decide Othello endgames
  (a move can be forced to give up a corner), so zugzwang is common and no cheap test bounds
  it; the trade-off study's unguarded pass stays its measurement of exactly that failure.
- Hex: an extra stone never hurts its owner (the strategy-stealing argument), so passing is
  never better than the best move and the null-move observation holds in every position: no
  guard is needed (searchlab's Hex offers no null move).

``guard=False`` gives the unguarded pass (every position), for comparison.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from searchlab.contracts.compiled_stubs import null_move_always
from searchlab.errors import InvalidParameterError
from searchlab.games import connect4_compiled as c4_compiled
from searchlab.games.connect4 import ConnectFour, ConnectFourState, safe_moves

NULL_MOVE_MIN_SAFE = c4_compiled.NULL_MOVE_MIN_SAFE


def _c4_pass(state: ConnectFourState) -> ConnectFourState:
    """The side to move passes: the same stones, the other side to move."""
    return ConnectFourState(state.current ^ state.mask, state.mask, state.plies + 1)


def _c4_guard(state: ConnectFourState) -> bool:
    return safe_moves(state) >= NULL_MOVE_MIN_SAFE


def _always(state: Any) -> bool:
    return True


class WithGuardedNullMove:
    """``game`` plus ``null_move`` (a pass) and ``null_move_allowed`` (the guard, or always);
    everything else delegated. ``compiled_primitives`` hands the compiled engine the game's
    primitives with the compiled twins of both (one CompiledGame per object, kept: the engine
    keys its plans on it), so both engines prune alike."""

    def __init__(self, game: Any, null, allowed, compiled_null, compiled_allowed,
                 label: str) -> None:
        self._game, self._null, self._allowed = game, null, allowed
        self._cnull, self._callowed, self.label = compiled_null, compiled_allowed, label
        self.capabilities = dataclasses.replace(game.capabilities, null_move=True)
        self._cg = None

    @property
    def name(self) -> str:
        return f"{self._game.name} ({self.label})"

    def null_move(self, state: Any) -> Any:
        return self._null(state)

    def null_move_allowed(self, state: Any) -> bool:
        return self._allowed(state)

    def compiled_primitives(self):
        if self._cg is None:
            cg = self._game.compiled_primitives()
            prims = cg.prims._replace(null_move=self._cnull, null_move_allowed=self._callowed)
            self._cg = dataclasses.replace(cg, prims=prims)
        return self._cg

    def __getattr__(self, item: str) -> Any:
        if item.startswith("__") or item in ("_game",):
            raise AttributeError(item)
        return getattr(self._game, item)


def connect_four_with_null_move(moves: "str | ConnectFourState" = "",
                                guard: bool = True) -> WithGuardedNullMove:
    """Connect Four from ``moves`` (Pons' move string or a state) with a null move; with
    ``guard`` only where the side to move has >= NULL_MOVE_MIN_SAFE safe moves."""
    if not isinstance(guard, bool):
        raise InvalidParameterError(f"guard must be True or False; got {guard!r}")
    game = ConnectFour(moves)
    if guard:
        return WithGuardedNullMove(game, _c4_pass, _c4_guard, c4_compiled.pass_turn,
                                   c4_compiled.null_move_guard, "null move, guarded")
    return WithGuardedNullMove(game, _c4_pass, _always, c4_compiled.pass_turn,
                               null_move_always, "null move, unguarded")
