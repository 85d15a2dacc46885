"""The compiled-game contract: what a game or tree model supplies to run on the compiled
two-player engine (searchlab.algorithms.compiled_engine). It sits in the bottom layer with the
other contracts (docs/architecture.md), so that games and trees implement it without importing
the engines; ``searchlab.algorithms.compiled`` re-exports it for code written against the old
place. The chance and n-player families' contracts: ``compiled_chance`` and
``compiled_nplayer`` beside this module.

A game opts in with one optional Game-protocol method, ``compiled_primitives(self) ->
CompiledGame`` (below), and the flag ``Capabilities(compiled=True)``. It is called on the game object the search was given (a
``FromState`` view forwards it to its game, which is right: MAX stays the game's MAX), so
``encode`` may close over the game's root (e.g. who MAX is).

State layout
    A state is one row of a 2-D ``uint64`` array: ``state_size`` words, layout private to the
    game (bitboards, counters, a "MAX is X" flag, ...). The engine owns a stack of rows, one per
    ply; it never interprets a row. ``encode(state)`` (Python) turns the Python game's state
    into such a row (a 1-D uint64 numpy array of length ``state_size``). Variable-size games
    (chess) pick the largest size they need.

Moves
    Moves are ``int64`` move ids in ``[0, n_move_ids)`` (the history table has one slot per
    (side, id)). ``move_of(id)`` (Python) gives the Python game's move, ``id_of(move)`` the
    id back; ids must map one-to-one onto the moves the Python game lists.

Primitives (``Primitives``, a namedtuple of numba ``@njit(cache=True)`` functions defined at
the top level of a module, so that the engine can import them by module and name (see
``specialise``); ``s`` is a state row, ``out`` a row or a move buffer the engine owns; every
value is from MAX's point of view):

- ``max_to_move(s) -> bool``
- ``gen_moves(s, out) -> int``: the legal moves' ids into ``out[:n]`` in the game's *natural
  order* (exactly ``legal_moves``'s order), returns n; called only on non-terminal states.
  ``out`` has ``max_moves`` slots.
- ``play(s, m, out) -> None``: copy-make; writes the child of ``s`` after move ``m`` into the
  row ``out`` (never the same row as ``s``).
- ``is_terminal(s) -> bool``, ``utility(s) -> float64`` (terminal states only).
- ``evaluate(s) -> float64``: the static value of a non-terminal state, *bit for bit* the
  Python ``evaluate`` (same float operations in the same order).
- ``hash_key(s) -> uint64``: the Python ``hash_key`` (the transposition table's slot is
  ``key % tt_size`` and the random order ranks ``mix64(hash_key(child) ^ salt)``, so it must
  be equal, not merely as good).
- ``order_key(s, m, code) -> float64``: the game's own orderings (``orderings`` maps each
  name of ``move_orderings()`` to a code): moves are searched by ascending key, ties in
  natural order (a stable sort), e.g. Connect Four "centre" = the rank of the column in
  3, 2, 4, 1, 5, 0, 6.
- ``is_noisy(s, m) -> bool``: moves never reduced or pruned (captures); False where the
  Python game has no ``is_noisy``.
- ``null_move(s, out) -> None`` and ``null_move_allowed(s) -> bool``: the same position with
  the other side to move, and the guard, as the Python methods (only called when
  ``capabilities.null_move``).
- ``noisy_moves(s, out) -> int``: quiescence moves in the Python ``noisy_moves`` order (only
  called when ``capabilities.noisy_moves``).
- ``capture_gain(s, m) -> float64``: the Python ``capture_gain`` (quiescence's delta
  pruning), bit for bit. Optional: it defaults to the stub ``no_capture_gain``, and the engine
  runs delta pruning only for a game that supplies its own.

Stubs for what a game lacks live in ``searchlab.contracts.compiled_stubs`` (``no_order_key``,
``never_noisy``, ``no_null_move``, ``null_move_never``, ``no_noisy_moves``,
``no_capture_gain``). Conventions: in
numba, mixing uint64 and int64 gives float64, so keep bitboard arithmetic in uint64
(``np.uint64`` constants) and convert explicitly; every primitive must also run under
``NUMBA_DISABLE_JIT=1`` (numpy scalars), which the tests use. The engine is compiled without
numba's reference counting (``_nrt=False``, for speed), and numba compiles the primitives it
calls the same way: a primitive must not allocate or return arrays (no slice assignment
``out[:] = s``, no ``np.zeros``; loops over elements instead; ``s.view(np.float64)`` to read
float words is fine).

``CompiledGame`` also states ``max_plies``: an upper bound on a game's length from any
state (the row stack's height when the search has no horizon).
"""


from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, NamedTuple

import numpy as np

from searchlab.contracts.compiled_stubs import no_capture_gain


class Primitives(NamedTuple):
    """A game's numba primitives (signatures: the module docstring)."""

    max_to_move: Any
    gen_moves: Any
    play: Any
    is_terminal: Any
    utility: Any
    evaluate: Any
    hash_key: Any
    order_key: Any
    is_noisy: Any
    null_move: Any
    null_move_allowed: Any
    noisy_moves: Any
    capture_gain: Any = no_capture_gain     # last, with a default: older games' tuples stand


@dataclass(frozen=True)
class CompiledGame:
    """What a game hands the compiled engine (the contract: the module docstring)."""

    prims: Primitives
    state_size: int
    max_moves: int
    n_move_ids: int
    max_plies: int
    encode: Callable[[Any], np.ndarray]
    move_of: Callable[[int], Hashable]
    id_of: Callable[[Hashable], int]
    orderings: dict[str, int] = field(default_factory=dict)


def compiled_game(game: Any) -> CompiledGame | None:
    """The game's compiled primitives, or None where it has none."""
    caps = getattr(game, "capabilities", None)
    return game.compiled_primitives() if caps is not None and caps.compiled else None


__all__ = ["Primitives", "CompiledGame", "compiled_game"]
