"""A game's compiled primitives as a Python Game over state rows, and exact values from rows.

``RowGame(game)`` plays a game that supplies compiled primitives (searchlab.algorithms.compiled:
Connect Four, Othello, Hex, chess, tic-tac-toe) through those primitives instead of its Python
rules: a state is the engine's row (a 1-D uint64 array, ``cg.encode`` of the Python state), a
move is the engine's move id (an int; ``move_of`` gives the Python game's move). It implements
the Game protocol, so the reference algorithms (reference.py, pruning.py) run on it node for
node as on the Python game: the primitives are the Python rules bit for bit (their contract,
tested per game), and a numba call per primitive costs microseconds where python-chess costs
a hundred. Chess rows carry the history for repetitions as ChessState does.

``RowGame.exact(row, depth, ordering, pruning)`` is the exact depth-limited value (MAX's view)
of a row: one fail-soft alpha-beta search with the full window on the compiled engine, no
transposition table (the ordering, any policy without ``tt``/``id``, changes the cost, never
the value), with the quiescence of ``pruning`` at the horizon; with the root's best move.
Its nodes are not counted anywhere.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Hashable

import numpy as np

from searchlab.algorithms import compiled_engine
from searchlab.contracts.compiled import CompiledGame, compiled_game
from searchlab.errors import UnsupportedError


class RowGame:
    """``game`` played on the compiled engine's state rows (the module docstring).

    Raises UnsupportedError for a game without compiled primitives."""

    def __init__(self, game: Any) -> None:
        cg = compiled_game(game)
        if cg is None:
            raise UnsupportedError(f"{game.name} has no compiled primitives (RowGame needs them)")
        self.game, self.cg, self.prims = game, cg, cg.prims
        self.name = f"{game.name} (compiled rows)"
        self.capabilities = dataclasses.replace(game.capabilities, kernel_model=None)
        self.default_depth = game.default_depth
        # the engine searches a row given as the root: encoding is the identity
        self._rows_cg = CompiledGame(cg.prims, cg.state_size, cg.max_moves, cg.n_move_ids,
                                     cg.max_plies, _identity, _identity, _identity,
                                     dict(cg.orderings))
        self._buf = np.zeros(cg.max_moves, np.int64)
        self._root: np.ndarray = self.encode(game.initial_state())

    def encode(self, state: Any) -> np.ndarray:
        """The row of one of the Python game's states."""
        return np.ascontiguousarray(self.cg.encode(state), dtype=np.uint64)

    def move_of(self, move_id: int) -> Hashable:
        """The Python game's move of a move id."""
        return self.cg.move_of(move_id)

    # --- the Game protocol ---------------------------------------------------------------
    def initial_state(self) -> np.ndarray:
        return self._root

    def max_to_move(self, state: np.ndarray) -> bool:
        return bool(self.prims.max_to_move(state))

    def legal_moves(self, state: np.ndarray) -> list[int]:
        n = self.prims.gen_moves(state, self._buf)
        return self._buf[:n].tolist()

    def play(self, state: np.ndarray, move: int) -> np.ndarray:
        out = np.empty(self.cg.state_size, np.uint64)
        self.prims.play(state, np.int64(move), out)
        return out

    def is_terminal(self, state: np.ndarray) -> bool:
        return bool(self.prims.is_terminal(state))

    def utility(self, state: np.ndarray) -> float:
        return float(self.prims.utility(state))

    def evaluate(self, state: np.ndarray) -> float:
        return float(self.prims.evaluate(state))

    def hash_key(self, state: np.ndarray) -> int:
        return int(self.prims.hash_key(state))

    def move_orderings(self) -> dict:
        """The game's own orderings by name (the engine runs them by code; the names count)."""
        return self.game.move_orderings()

    def noisy_moves(self, state: np.ndarray) -> list[int]:
        n = self.prims.noisy_moves(state, self._buf)
        return self._buf[:n].tolist()

    def is_noisy(self, state: np.ndarray, move: int) -> bool:
        return bool(self.prims.is_noisy(state, np.int64(move)))

    def compiled_primitives(self) -> CompiledGame:
        """The game's primitives with rows as states (``encode`` the identity)."""
        return self._rows_cg

    # --- exact values ----------------------------------------------------------------------
    def exact(self, row: np.ndarray, depth: int, ordering: str,
              pruning: Any = None, max_nodes: int | None = None) -> tuple[float | None, int | None]:
        """(exact value, the root's best move id or None) of ``row`` searched to ``depth``
        plies (>= 0; at 0 the static value, or the quiescence value with ``pruning``'s
        quiescence) by full-window alpha-beta on the compiled engine; (None, None) when the
        search exceeded ``max_nodes``. Raises UnsupportedError when the engine does not run
        ``ordering`` with ``pruning`` on this game."""
        view = _RowRoot(self, row)
        if not compiled_engine.supports(view, "alphabeta", ordering, pruning, depth):
            raise UnsupportedError(f"the compiled engine does not run alphabeta/{ordering} "
                                   f"with {pruning} on {self.game.name}")
        r = compiled_engine.run(view, "alphabeta", ordering, depth, pruning=pruning,
                                max_nodes=max_nodes)
        if r.status != "ok":
            return None, None
        return float(r.value), r.best_move


def _identity(x: Any) -> Any:
    return x


class _RowRoot:
    """A RowGame seen from one row (what compiled_engine.run asks of a game)."""

    def __init__(self, rows: RowGame, row: np.ndarray) -> None:
        self._rows, self._row = rows, row
        self.name, self.capabilities = rows.name, rows.capabilities
        self.default_depth = None

    def initial_state(self) -> np.ndarray:
        return self._row

    def compiled_primitives(self) -> CompiledGame:
        return self._rows._rows_cg

    def __getattr__(self, item: str) -> Any:
        return getattr(self._rows, item)

