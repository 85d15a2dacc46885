"""Harvest: a small n-player take-away game with scores (a MultiPlayerGame,
searchlab.contracts.protocol), the second real n-player game beside Rolit.

Why: the smallest game where max^n, shallow pruning, paranoid and best-reply search all apply
and differ (three or four players, non-negative constant-sum payoffs, a mover that can be
set), small enough to search to the end, with moves whose value depends on what the next
players can reach (emptying a pile earns a bonus, so leaving a pile small hands it on).

Rules
    - ``players`` players (2 to 4; default 3) move in turn, player 0 first, over piles of stones
      (default ``piles=(3, 4, 5)``, each 1 to 20 stones, at most 8 piles).
    - A move takes 1 to ``take`` (default 3, at most 8) stones from one pile; the mover scores a
      point per stone, plus ``bonus`` (default 2) for taking a pile's last stone.
    - The game ends when every pile is empty. Natural order: move id = pile · take + stones - 1,
      ascending (pile by pile, fewer stones first).

Payoffs (vectors, player 0 first; non-negative and constant-sum, as shallow pruning needs)
    - ``n · score_i + rest``, rest the points still on the table (each non-empty pile's stones
      plus its bonus), shared equally and scaled by n to stay integral: at the end (rest 0) the
      utility vector ``n · score_i``; at a horizon the evaluation vector. Every vector of a game
      sums to n · (its stones + bonus · piles), ``leaf_total`` at any depth.

State: ``HarvestState(piles, scores, mover)``. ``with_mover`` sets the mover (best-reply search).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from searchlab.errors import InvalidParameterError
from searchlab.limits import check_seed
from searchlab.games import harvest_compiled
from searchlab.games.harvest_compiled import MAX_PILES, MAX_STONES, MAX_TAKE
from searchlab.contracts.protocol import Capabilities
from searchlab.hashing import MASK64


class HarvestState(NamedTuple):
    piles: tuple[int, ...]
    scores: tuple[int, ...]
    mover: int


class Harvest:
    """Harvest for 2-4 players as a MultiPlayerGame; ``Harvest(players=3, piles=(3, 4, 5),
    take=3, bonus=2)``."""

    has_static = True
    default_depth = None
    capabilities = Capabilities(two_player=False, zero_sum=False, constant_sum=True, with_mover=True,
                                family_compiled=True)

    def __init__(self, players: int = 3, piles: tuple[int, ...] = (3, 4, 5), take: int = 3, bonus: int = 2,
                 root: HarvestState | None = None) -> None:
        for name, v, lo, hi in (("players", players, 2, 4), ("take", take, 1, MAX_TAKE), ("bonus", bonus, 0, 100)):
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise InvalidParameterError(f"{name} must be an integer in [{lo}, {hi}]; got {v!r}")
        try:
            piles = tuple(piles)
        except TypeError:
            raise InvalidParameterError(f"piles must be a sequence of integers; got {piles!r}") from None
        if not 1 <= len(piles) <= MAX_PILES or any(isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= MAX_STONES
                                                   for x in piles):
            raise InvalidParameterError(
                f"piles must hold 1 to {MAX_PILES} integers in [1, {MAX_STONES}]; got {piles!r}")
        self.n_players, self.take, self.bonus = players, take, bonus
        if root is None:
            root = HarvestState(piles, (0,) * players, 0)
        elif not (isinstance(root, HarvestState) and len(root.piles) == len(piles)
                  and all(isinstance(x, int) and 0 <= x <= MAX_STONES for x in root.piles)
                  and len(root.scores) == players and all(isinstance(x, int) and x >= 0 for x in root.scores)
                  and root.mover in range(players)):
            raise InvalidParameterError(
                f"root must be a HarvestState with {len(piles)} piles of 0-{MAX_STONES} stones, {players} scores >= 0 and "
                f"a mover in 0..{players - 1}; got {root!r}")
        self.root = root

    @property
    def name(self) -> str:
        return (f"harvest(players={self.n_players}, piles={self.root.piles}, take={self.take}, "
                f"bonus={self.bonus})")

    def random_root(self, plies: int, seed: int) -> "Harvest":
        """The same game rooted after ``plies`` uniformly random moves (fewer where it ends
        first); numpy Generator from ``seed``, no global state."""
        if isinstance(plies, bool) or not isinstance(plies, int) or plies < 0:
            raise InvalidParameterError(f"plies must be an integer >= 0; got {plies!r}")
        rng = np.random.default_rng(check_seed(seed))
        s = self.root
        for _ in range(plies):
            if self.is_terminal(s):
                break
            moves = self.legal_moves(s)
            s = self.play(s, moves[int(rng.integers(len(moves)))])
        return Harvest(self.n_players, self.root.piles, self.take, self.bonus, s)

    def initial_state(self) -> HarvestState:
        return self.root

    def to_move(self, state: HarvestState) -> int:
        return state.mover

    def with_mover(self, state: HarvestState, player: int) -> HarvestState:
        return HarvestState(state.piles, state.scores, player)

    def legal_moves(self, state: HarvestState) -> list[int]:
        return [i * self.take + j for i, x in enumerate(state.piles) for j in range(min(self.take, x))]

    def play(self, state: HarvestState, move: int) -> HarvestState:
        pile, stones = divmod(move, self.take)
        stones += 1
        piles = list(state.piles)
        piles[pile] -= stones
        scores = list(state.scores)
        scores[state.mover] += stones + (self.bonus if piles[pile] == 0 else 0)
        return HarvestState(tuple(piles), tuple(scores), (state.mover + 1) % self.n_players)

    def is_terminal(self, state: HarvestState) -> bool:
        return not any(state.piles)

    def _rest(self, state: HarvestState) -> int:
        return sum(x + self.bonus for x in state.piles if x > 0)

    def utility_vector(self, state: HarvestState) -> tuple[float, ...]:
        return tuple(float(self.n_players * x) for x in state.scores)

    def evaluate_vector(self, state: HarvestState) -> tuple[float, ...]:
        rest = self._rest(state)
        return tuple(float(self.n_players * x + rest) for x in state.scores)

    def leaf_total(self, state: HarvestState, depth: float) -> int:
        """n · (the points scored and still on the table): every leaf's sum, at any depth."""
        return self.n_players * (sum(state.scores) + self._rest(state))

    def hash_key(self, state: HarvestState) -> int:
        return hash(state) & MASK64

    def family_primitives(self) -> Any:
        """The compiled n-player engine's primitives (searchlab.games.harvest_compiled)."""
        return harvest_compiled.compiled_nplayer_game(self)

    def __repr__(self) -> str:
        return self.name
