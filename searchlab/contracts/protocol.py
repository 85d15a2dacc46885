"""The Game protocol: what every search algorithm needs of a game or a synthetic tree.

States are immutable values (play returns a new state); moves are hashable and listed in a
documented, fixed *natural order*. Values are from MAX's point of view (MAX = the player to move
in the initial state). Synthetic trees (searchlab.trees) satisfy this protocol too, so every
algorithm runs on both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Hashable, Protocol, Sequence, runtime_checkable

from searchlab.errors import UnsupportedError


@dataclass(frozen=True)
class Capabilities:
    """What a game (or synthetic tree) is and what it offers beyond the Game protocol's core.

    Algorithms check the flags they rely on, never the presence of methods or class names.

    Kind of game (all True = the classical setting alpha-beta is defined for):
        two_player, zero_sum, deterministic, perfect_information.
    What it offers:
        static_values: ``evaluate(s)`` gives a heuristic value at non-terminal states (horizons
            below the end, static order, iterative deepening, the pruning techniques).
        own_orderings: ``move_orderings()`` returns the game's own static ordering policies by
            name (``centre``, ``corners``, ``captures``).
        null_move: ``null_move(s)`` (the side to move passes) and ``null_move_allowed(s)``.
        noisy_moves: ``noisy_moves(s)`` (captures and the like, for quiescence search).
        capture_gain: ``capture_gain(s, m)``, the best-case material a noisy move wins in
            static-value units (quiescence's delta pruning).
        noisy_test: ``is_noisy(s, m)``: moves the pruning techniques never reduce or prune
            (captures and the like).
        constant_sum: ``leaf_total(s, depth)`` (n players): the sum the leaves' payoffs share
            below s when they are non-negative and constant-sum (shallow pruning), else None.
        with_mover: ``with_mover(s, player)`` (n players): s with another player to move
            (best-reply search).
        exact_values: ``exact_value(s)``, the exact minimax value known by construction.
        node_ids: ``node_id(s)`` and ``leaf_count(depth)`` (implicit trees: the oracle memoises
            on node ids and knows its size before any work; states carry their ply at [1]).
        leaves_below: ``leaves_below(s)`` (explicit trees: step-by-step traces).
        compiled: ``compiled_primitives()`` returns the game's primitives for the compiled
            engine (a CompiledGame, searchlab.algorithms.compiled).
        family_compiled: ``family_primitives()`` returns the game's primitives for the compiled
            chance engine (a CompiledChanceGame, searchlab.contracts.compiled_chance) or the
            compiled n-player engine (a CompiledNPlayerGame, searchlab.contracts.compiled_nplayer).
        kernel_model: the synthetic tree model a compiled kernel implements node for node
            (``iid``, ``ordered``, ``incremental``); None = no compiled kernel.
    """

    two_player: bool = True
    zero_sum: bool = True
    deterministic: bool = True
    perfect_information: bool = True
    static_values: bool = False
    own_orderings: bool = False
    null_move: bool = False
    noisy_moves: bool = False
    capture_gain: bool = False
    noisy_test: bool = False
    constant_sum: bool = False
    with_mover: bool = False
    exact_values: bool = False
    node_ids: bool = False
    leaves_below: bool = False
    compiled: bool = False
    family_compiled: bool = False
    kernel_model: str | None = None

    def require_classical(self, what: str) -> None:
        """Raise UnsupportedError unless two-player, zero-sum, deterministic, perfect information."""
        missing = [name for name in ("two_player", "zero_sum", "deterministic", "perfect_information")
                   if not getattr(self, name)]
        if missing:
            raise UnsupportedError(
                f"{what} needs a two-player, zero-sum, deterministic game of perfect information; "
                f"this game is not: {', '.join(missing)} (chance games: "
                "searchlab.algorithms.chance_search.search_chance; n players: "
                "searchlab.algorithms.multiplayer.search_multiplayer)")


CLASSICAL = Capabilities()
#: a two-player zero-sum game of perfect information with chance nodes (dice)
CHANCE = Capabilities(deterministic=False)
#: a deterministic game of perfect information for three or more players
NPLAYER = Capabilities(two_player=False, zero_sum=False)


@runtime_checkable
class Game(Protocol):
    """A two-player game (or synthetic tree) as the search sees it.

    - ``initial_state()``: the root.
    - ``max_to_move(s)``: True when MAX is to move in s.
    - ``legal_moves(s)``: the moves in natural order; empty only in terminal states.
    - ``play(s, m)``: the state after move m (s is unchanged).
    - ``is_terminal(s)`` / ``utility(s)``: game over, and its value for MAX.
    - ``evaluate(s)``: heuristic (static) value for MAX of a non-terminal state; raises
      UnsupportedError where the game or tree has none (``capabilities.static_values`` is
      then False).
    - ``hash_key(s)``: a 64-bit key (Zobrist for board games, the node key for trees).
    - ``default_depth``: the depth a search uses when none is given (None: to the end).

    - ``capabilities``: what kind of game it is and which optional methods it offers (see
      Capabilities), e.g. ``move_orderings() -> dict[str, Callable[[state, moves], list]]``
      (``own_orderings``), the game's own static ordering policies by name ("centre" for
      Connect Four, "corners" for Othello, "captures" for chess), offered by the search under
      their names next to the generic policies.
    """

    name: str
    capabilities: Capabilities
    default_depth: int | None

    def initial_state(self) -> Any: ...
    def max_to_move(self, state: Any) -> bool: ...
    def legal_moves(self, state: Any) -> Sequence[Hashable]: ...
    def play(self, state: Any, move: Hashable) -> Any: ...
    def is_terminal(self, state: Any) -> bool: ...
    def utility(self, state: Any) -> float: ...
    def evaluate(self, state: Any) -> float: ...
    def hash_key(self, state: Any) -> int: ...


@runtime_checkable
class ChanceGame(Game, Protocol):
    """A two-player zero-sum game with chance nodes (searchlab.algorithms.chance_search).

    - ``is_chance(s)``: True at a chance node (neither player moves; ``max_to_move`` is then
      meaningless).
    - ``chance_outcomes(s)``: ``[(outcome, probability), ...]`` in natural order, every
      probability > 0, summing to 1; ``play(s, outcome)`` applies one.
    - ``value_bounds``: (L, U) with L <= every utility and evaluation <= U (Star1/Star2's bounds).
    """

    value_bounds: tuple[float, float]

    def is_chance(self, state: Any) -> bool: ...
    def chance_outcomes(self, state: Any) -> Sequence[tuple[Hashable, float]]: ...


@runtime_checkable
class MultiPlayerGame(Protocol):
    """A deterministic game of perfect information for n >= 2 players
    (searchlab.algorithms.multiplayer). Players are 0 .. n-1; values are vectors, player 0 first.

    - ``n_players``; ``to_move(s)``: the player to move in a non-terminal state.
    - ``legal_moves(s)`` / ``play(s, m)`` / ``is_terminal(s)`` as in Game.
    - ``utility_vector(s)``: the terminal payoffs, one per player; ``evaluate_vector(s)``
      the heuristic payoffs of a non-terminal state (UnsupportedError where there are none).
    - ``capabilities``: what it offers beyond these (Capabilities): ``constant_sum``, a
      ``leaf_total(state, depth)``: the sum every leaf's payoffs share in a search from
      ``state`` to ``depth`` when they are non-negative and constant-sum (what shallow pruning
      needs), else None; ``with_mover``, a ``with_mover(state, player)``: the state with
      another player to move (what best-reply search needs).
    """

    name: str
    n_players: int
    capabilities: Capabilities

    def initial_state(self) -> Any: ...
    def to_move(self, state: Any) -> int: ...
    def legal_moves(self, state: Any) -> Sequence[Hashable]: ...
    def play(self, state: Any, move: Hashable) -> Any: ...
    def is_terminal(self, state: Any) -> bool: ...
    def utility_vector(self, state: Any) -> tuple[float, ...]: ...
    def evaluate_vector(self, state: Any) -> tuple[float, ...]: ...
