"""The compiled chance engine's game interface: what a chance game supplies (in the bottom layer, docs/architecture.md;
re-exported by searchlab.contracts.compiled_chance).

A chance game (searchlab.contracts.protocol.ChanceGame) opts in with ``Capabilities(family_compiled
=True)`` and a method ``family_primitives(self) -> CompiledChanceGame``. The engine
(``_chance_engine.py``, a template specialised per game by ``family.engine``) runs
expectiminimax, alphabeta-emm, Star1 and Star2 over the primitives, node for node as
searchlab.algorithms.chance_search (the public wrapper: searchlab.algorithms.chance_compiled).

State and parameters
    A state is one row of a 2-D array of ``state_dtype`` (int64 or uint64), layout private to
    the game; ``encode(state)`` turns the Python state into such a row. ``params`` is a 1-D
    array (any dtype) handed to every primitive as ``P``: the game's constants (a die's faces,
    who MAX is, bounds of the leaf values).

Primitives (``ChancePrimitives``: module-level ``@njit(cache=True)`` functions; ``s`` a row,
``out`` a row or buffer the engine owns, never the same row as ``s``; values from MAX's view):

- ``is_terminal(s, P) -> bool``; ``utility(s, P) -> float64`` (terminal states only).
- ``is_chance(s, P) -> bool``: a chance node (called on non-terminal states).
- ``max_to_move(s, P) -> bool`` (decision nodes).
- ``evaluate(s, P) -> float64``: the static value of a non-terminal state, bit for bit the
  Python ``evaluate`` (a game without static values: a stub, never called).
- ``gen_moves(s, P, out) -> int``: the decision moves into ``out[:n]`` in ``legal_moves``'s
  order; a move is an int, the Python game's move itself, in ``[0, n_move_ids)``.
- ``outcomes(s, P, probs) -> int``: the number n of chance outcomes, their probabilities into
  ``probs[:n]`` in ``chance_outcomes``'s order (the same floats); outcome i is the int i.
- ``play(s, m, P, out) -> None``: the child after decision move m, or after outcome i at a
  chance node.
- ``hash_key(s, P) -> uint64``: a key of the position (Star2 keeps its probes' results under
  (key, ply, decisions), as the reference keeps them under ``hash_key``): equal positions equal
  keys, different positions different keys (up to 64-bit collisions).

Shape rules the engine relies on: an outcome of a chance node is never a chance node (so a
static value needs one level of expectation), and between two decisions there is at most one
chance node (so ``2·decisions + 2`` rows hold any path).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

import numpy as np


class ChancePrimitives(NamedTuple):
    """A chance game's numba primitives (signatures: the module docstring)."""

    is_terminal: Any
    is_chance: Any
    max_to_move: Any
    utility: Any
    evaluate: Any
    gen_moves: Any
    outcomes: Any
    play: Any
    hash_key: Any


@dataclass(frozen=True)
class CompiledChanceGame:
    """What a chance game hands the compiled chance engine (the module docstring).

    - ``max_moves``, ``max_outcomes``: the most decision moves / outcomes at any node.
    - ``n_move_ids``: moves lie in [0, n_move_ids).
    - ``max_decisions``: the most decisions any game lasts (the row stack's height at
      depth None).
    - ``orderings``: the move orderings the engine runs on it ("natural", and "static" where
      the game has static values).
    - ``label``: the engine name its results carry ("kernel" for synthetic trees, "compiled"
      for games), which is also the ``engine=`` that asks for it.
    """

    prims: ChancePrimitives
    state_dtype: Any
    encode: Callable[[Any], np.ndarray]
    params: np.ndarray
    max_moves: int
    max_outcomes: int
    n_move_ids: int
    max_decisions: int
    orderings: tuple[str, ...] = ("natural",)
    label: str = "compiled"
