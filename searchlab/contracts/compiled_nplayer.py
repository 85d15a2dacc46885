"""The compiled n-player engine's game interface: what an n-player game supplies (in the bottom layer, docs/architecture.md;
re-exported by searchlab.contracts.compiled_nplayer).

An n-player game (searchlab.contracts.protocol.MultiPlayerGame) opts in with
``Capabilities(family_compiled=True)`` and a method ``family_primitives(self) ->
CompiledNPlayerGame``. The engine (``_nplayer_engine.py``, a template specialised per game by
``family.engine``) runs max^n, shallow pruning, paranoid (alpha-beta and plain minimax) and
best-reply search over the primitives, node for node as searchlab.algorithms.multiplayer (the
public wrapper: searchlab.algorithms.multiplayer_compiled).

State and parameters
    A state is one row of a 2-D array of ``state_dtype``, layout private to the game;
    ``encode(state)`` turns the Python state into such a row. ``params`` is a 1-D array handed
    to every primitive as ``P``.

Primitives (``NPlayerPrimitives``: module-level ``@njit(cache=True)`` functions; ``out`` a row
or buffer the engine owns, never ``s``):

- ``is_terminal(s, P) -> bool``; it must not depend on who is to move (best-reply search
  asks it of the state with each opponent to move).
- ``to_move(s, P) -> int``: the player to move, 0..n-1.
- ``gen_moves_for(s, p, P, out) -> int``: the moves of the state with player p to move
  (``legal_moves(with_mover(s, p))``) into ``out[:k]`` in that order; moves are ints, the
  Python game's moves themselves.
- ``play_for(s, p, m, P, out) -> None``: the child ``play(with_mover(s, p), m)``.
- ``payoffs(s, P, horizon, out) -> None``: ``out[:n]`` = the utility vector (a terminal state)
  or, with ``horizon`` True, the evaluation vector, bit for bit the Python vectors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

import numpy as np


class NPlayerPrimitives(NamedTuple):
    """An n-player game's numba primitives (signatures: the module docstring)."""

    is_terminal: Any
    to_move: Any
    gen_moves_for: Any
    play_for: Any
    payoffs: Any


@dataclass(frozen=True)
class CompiledNPlayerGame:
    """What an n-player game hands the compiled n-player engine (the module docstring).

    - ``max_moves``: the most moves one player has at any state.
    - ``max_plies``: the most plies any game lasts from the root (the row stack's height at
      depth None).
    - ``static_values``: ``payoffs(s, P, True, out)`` is the evaluation vector; False (a
      synthetic tree): the engine runs only searches whose horizon lies at or beyond the
      game's ``default_depth``, where every leaf is terminal.
    - ``label``: the engine name its results carry ("kernel" for synthetic trees, "compiled"
      for games), which is also the ``engine=`` that asks for it.
    """

    prims: NPlayerPrimitives
    state_dtype: Any
    encode: Callable[[Any], np.ndarray]
    params: np.ndarray
    n_players: int
    max_moves: int
    max_plies: int
    static_values: bool = True
    label: str = "compiled"
