"""OpenSpiel's perfect-information games under searchlab's reference engine.

``OpenSpielGame("tic_tac_toe")``, ``OpenSpielGame("pig", winscore=20)``,
``OpenSpielGame("chinese_checkers", players=3)``: any sequential, perfect-information
OpenSpiel game, deterministic or with explicit chance nodes, two or more players. Needs the
optional extra ``openspiel`` (``pip install -e '.[openspiel]'``); without it the constructor
raises UnsupportedError saying so.

What the adapter provides, by the game's GameType:

- two players, zero-sum (or constant-sum): the Game protocol (``searchlab.search``, values
  from MAX's view = the player to move at the root: ``utility`` is that player's return);
  with explicit chance nodes also the ChanceGame protocol (``search_chance``);
- any number of players: the MultiPlayerGame protocol (``search_multiplayer``):
  ``utility_vector`` the returns, player 0 first; ``with_mover`` is not available (OpenSpiel
  states cannot change the player to move), so best-reply search is refused.

``capabilities`` come from the GameType (two_player = 2 players, zero_sum = zero- or
constant-sum utility, deterministic = no chance nodes, perfect_information). States are
pyspiel states, never mutated (``play`` clones). The position text is OpenSpiel's own
serialisation: ``position_text(state)`` = ``state.serialize()``, ``from_text(text)``
deserialises. ``hash_key`` is a stable 64-bit digest of that text. Moves are OpenSpiel action
ids in ``legal_actions()`` order (the natural order); chance outcomes are in
``chance_outcomes()`` order.

An evaluation for depth-limited search is optional: ``evaluation=f`` with f(pyspiel_state)
returning the value for the root player (two players) or a payoff vector (n players);
without one, ``has_static`` is False and searches must reach terminal states.
``value_bounds`` defaults to (min_utility, max_utility) and can be given as ``bounds``.
``history``: OpenSpiel actions (chance outcomes included) applied from the initial state to
reach the root; MAX is the player to move there.
"""

from __future__ import annotations

import hashlib
from typing import Any, Callable, Sequence

from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.contracts.protocol import Capabilities


def available() -> bool:
    """True when open-spiel (the optional extra) can be imported."""
    try:
        import pyspiel  # noqa: F401 -- imported only to learn whether OpenSpiel is installed
    except ImportError:
        return False
    return True


def _pyspiel():
    try:
        import pyspiel
    except ImportError:
        raise UnsupportedError("OpenSpielGame needs open-spiel: pip install -e '.[openspiel]'") from None
    return pyspiel


class OpenSpielGame:
    """An OpenSpiel game as a searchlab Game / ChanceGame / MultiPlayerGame (module doc)."""

    def __init__(self, game_name: str, *, evaluation: Callable[[Any], Any] | None = None,
                 bounds: tuple[float, float] | None = None, history: Sequence[int] = (),
                 **params: Any) -> None:
        pyspiel = _pyspiel()
        if not isinstance(game_name, str):
            raise InvalidParameterError(f"game_name must be an OpenSpiel game name; got {game_name!r}")
        if game_name not in pyspiel.registered_names():
            raise InvalidParameterError(f"game_name {game_name!r} is not an OpenSpiel game "
                                        "(pyspiel.registered_names() lists them)")
        try:
            self.game = pyspiel.load_game(game_name, params)
        except Exception as e:  # noqa: BLE001 -- pyspiel raises its own error types on bad parameters
            raise InvalidParameterError(f"OpenSpiel game {game_name!r} refused parameters {params}: {e}") from None
        t = self.game.get_type()
        if t.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
            raise UnsupportedError(f"{game_name} is not a sequential game (dynamics {t.dynamics})")
        if t.information != pyspiel.GameType.Information.PERFECT_INFORMATION:
            raise UnsupportedError(f"{game_name} is not a game of perfect information")
        if t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
            raise UnsupportedError(f"{game_name} samples its chance outcomes; explicit chance nodes are needed")
        self.game_name, self.params = game_name, dict(params)
        self.n_players = self.game.num_players()
        zero = t.utility in (pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.Utility.CONSTANT_SUM)
        self.capabilities = Capabilities(
            two_player=self.n_players == 2, zero_sum=zero,
            deterministic=t.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC,
            perfect_information=True, constant_sum=True, static_values=evaluation is not None)
        self._constant_sum = self.game.utility_sum() if zero else None
        self.evaluation = evaluation
        self.has_static = evaluation is not None
        self.default_depth = None
        # searched to the end without a depth or node budget (algorithms.search_api) only when the
        # whole game is at most as long as tic-tac-toe's (9 plies; 549,946 minimax nodes)
        self.solvable = self.game.max_game_length() - len(history) <= 9
        #: a bound on any playout from the root (MCTS's random playouts need one)
        self.max_game_length = int(self.game.max_game_length())
        self.value_bounds = (float(self.game.min_utility()), float(self.game.max_utility())) \
            if bounds is None else bounds
        self.root = self.game.new_initial_state()
        for k, a in enumerate(history):
            if self.root.is_terminal() or a not in (
                    [o for o, _ in self.root.chance_outcomes()] if self.root.is_chance_node()
                    else self.root.legal_actions()):
                raise InvalidParameterError(f"history: action {k + 1} ({a!r}) is not legal in {game_name}")
            self.root.apply_action(a)
        # MAX = the player to move at the root (player 0 when the root is a chance node)
        self.max_player = max(self.root.current_player(), 0)

    @property
    def name(self) -> str:
        args = ", ".join(f"{k}={v}" for k, v in self.params.items())
        return f"openspiel:{self.game_name}({args})"

    def leaf_total(self, state: Any, depth: float) -> float | None:
        """OpenSpiel's utility sum when the game is constant-sum with non-negative payoffs
        (shallow pruning's conditions), else None."""
        if self._constant_sum is not None and self.game.min_utility() >= 0:
            return float(self._constant_sum)
        return None

    # --- states and text -------------------------------------------------------------
    def initial_state(self) -> Any:
        return self.root

    def position_text(self, state: Any) -> str:
        return state.serialize()

    def from_text(self, text: str) -> Any:
        try:
            return self.game.deserialize_state(text)
        except Exception as e:  # noqa: BLE001 -- pyspiel raises its own error types on a bad state
            raise InvalidParameterError(f"not a serialised {self.game_name} state: {e}") from None

    # --- the protocols ---------------------------------------------------------------
    def legal_moves(self, state: Any) -> list[int]:
        return [] if state.is_terminal() or state.is_chance_node() else state.legal_actions()

    def play(self, state: Any, move: int) -> Any:
        child = state.clone()
        child.apply_action(move)
        return child

    def is_terminal(self, state: Any) -> bool:
        return state.is_terminal()

    def is_chance(self, state: Any) -> bool:
        return state.is_chance_node()

    def chance_outcomes(self, state: Any) -> list[tuple[int, float]]:
        return state.chance_outcomes()

    def max_to_move(self, state: Any) -> bool:
        return state.current_player() == self.max_player

    def to_move(self, state: Any) -> int:
        return state.current_player()

    def utility(self, state: Any) -> float:
        return float(state.returns()[self.max_player])

    def utility_vector(self, state: Any) -> tuple[float, ...]:
        return tuple(float(x) for x in state.returns())

    def evaluate(self, state: Any) -> float:
        if self.evaluation is None:
            raise UnsupportedError(f"{self.name} has no evaluation: give OpenSpielGame(..., evaluation=f) "
                                   "or search to terminal states")
        return float(self.evaluation(state))

    def evaluate_vector(self, state: Any) -> tuple[float, ...]:
        if self.evaluation is None:
            raise UnsupportedError(f"{self.name} has no evaluation: give OpenSpielGame(..., evaluation=f)")
        return tuple(float(x) for x in self.evaluation(state))

    def hash_key(self, state: Any) -> int:
        return int.from_bytes(hashlib.blake2b(state.serialize().encode(), digest_size=8).digest(), "little")

    def with_root(self, state: Any) -> "OpenSpielGame":
        """This game rooted at ``state`` (MAX = the player to move there): the random positions
        of a config-driven study (searchlab.games.registry.random_play)."""
        return OpenSpielGame(self.game_name, evaluation=self.evaluation,
                             bounds=self.value_bounds, history=state.history(), **self.params)

    def __repr__(self) -> str:
        return self.name


def config_game(game_name: str, horizon_value: float | None = None,
                **params: Any) -> OpenSpielGame:
    """An OpenSpiel game for a config-driven sweep (``game=openspiel game.name=NAME``): the
    two-player engine's kind of game only, refused otherwise with one line naming why.
    ``horizon_value``: the value of every position at the search's horizon (OpenSpiel has no
    evaluation of its own: a constant, e.g. 0 = "a draw", lets searches stop short of the end;
    None: searches must reach terminal states)."""
    evaluation = None if horizon_value is None else (lambda _s, v=float(horizon_value): v)
    g = OpenSpielGame(game_name, evaluation=evaluation, **params)
    c = g.capabilities
    why = [w for w, bad in (("it has chance nodes", not c.deterministic),
                            (f"it has {g.n_players} players", not c.two_player),
                            ("it is not zero-sum", not c.zero_sum)) if bad]
    if why:
        raise UnsupportedError(f"OpenSpiel's {game_name} cannot be searched by the two-player "
                               f"engine: {', '.join(why)} (search_chance / search_multiplayer "
                               "take it from Python)")
    return g
