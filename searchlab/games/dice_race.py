"""The dice race: a small two-player race game with captures and binomial dice (a chance game,
searchlab.contracts.protocol.ChanceGame), in the spirit of the Royal Game of Ur.

Why: a second real chance game beside Pig whose chance nodes have *unequal* probabilities (so
ordering outcomes by probability differs from the natural order), whose decisions interact
(a capture sends an opponent back), and which is small enough for the reference engine to
search a few turns deep.

Rules
    - Two players (0 and 1), each with ``tokens`` tokens (default 2) on a track of squares
      0..``length`` (default 8); every token starts on square 0, square ``length`` is home.
    - A turn: the player to move throws ``coins`` two-sided dice (default 4, as Ur's
      tetrahedral dice): the roll is the number of marked sides, k with probability
      C(coins, k) / 2^coins (the chance node; outcome k = a roll of k).
    - Then the player moves one token forward by exactly the roll (move i = token i); a token
      may move when it is not home and does not overshoot home. With a roll of 0, or when no
      token can move, the only move is the pass (move ``tokens``). Tokens of one player may
      share a square.
    - A token landing on a square strictly between 0 and home sends every opponent token on
      that square back to square 0 (a capture).
    - The game ends when a player has every token home (that player wins) or after
      ``horizon`` decisions (default 40; a draw).
    - Payoff (MAX = the player to move at the root): +1 win, -1 loss, 0 draw. ``value_bounds``
      (-1, 1).

Evaluation (MAX's view, inside (-1, 1)): ``tanh((need_MIN - need_MAX) / (2 · length))``, need_p
the squares player p's tokens still have to travel.

State: ``DiceRaceState(tokens, mover, roll, decisions)``: tokens a pair of tuples of squares
(player 0's, player 1's), roll -1 at the chance node before the throw. ``hash_key``: the
compiled primitives' key of the position (SplitMix64 over its encoded row), the same in both.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, NamedTuple

import numpy as np

from searchlab.errors import InvalidParameterError
from searchlab.limits import check_seed
from searchlab.games import dice_race_compiled
from searchlab.games.dice_race_compiled import MAX_COINS, MAX_TOKENS
from searchlab.contracts.protocol import CHANCE
from searchlab.hashing import GOLDEN, MASK64, mix64


class DiceRaceState(NamedTuple):
    tokens: tuple[tuple[int, ...], tuple[int, ...]]
    mover: int
    roll: int
    decisions: int


class DiceRace:
    """The dice race as a ChanceGame; ``DiceRace(length=8, tokens=2, coins=4, horizon=40)``.
    ``default_depth`` None (give searches a depth: a full game is far too big to search)."""

    capabilities = replace(CHANCE, family_compiled=True)
    has_static = True
    value_bounds = (-1.0, 1.0)
    default_depth = None

    def __init__(self, length: int = 8, tokens: int = 2, coins: int = 4, horizon: int = 40,
                 root: DiceRaceState | None = None) -> None:
        for name, v, lo, hi in (("length", length, 2, 10**6), ("tokens", tokens, 1, MAX_TOKENS),
                                ("coins", coins, 1, MAX_COINS), ("horizon", horizon, 1, 10**6)):
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise InvalidParameterError(f"{name} must be an integer in [{lo}, {hi}]; got {v!r}")
        self.length, self.tokens, self.coins, self.horizon = length, tokens, coins, horizon
        if root is None:
            root = DiceRaceState(((0,) * tokens, (0,) * tokens), 0, -1, 0)
        self._check_state(root)
        self.root = root
        self._outcomes = tuple((k, math.comb(coins, k) / 2.0 ** coins) for k in range(coins + 1))

    def _check_state(self, s: Any) -> None:
        ok = (isinstance(s, DiceRaceState) and len(s.tokens) == 2
              and all(len(side) == self.tokens and all(isinstance(x, int) and 0 <= x <= self.length for x in side)
                      for side in s.tokens)
              and s.mover in (0, 1) and isinstance(s.roll, int) and -1 <= s.roll <= self.coins
              and isinstance(s.decisions, int) and s.decisions >= 0)
        if not ok:
            raise InvalidParameterError(
                f"root must be a DiceRaceState with {self.tokens} squares in [0, {self.length}] per player, "
                f"mover 0 or 1, roll in [-1, {self.coins}] and decisions >= 0; got {s!r}")

    def random_root(self, plies: int, seed: int) -> "DiceRace":
        """The same game rooted after ``plies`` uniformly random moves and outcomes from its
        root (fewer where the game ends first); numpy Generator from ``seed``, no global state."""
        if isinstance(plies, bool) or not isinstance(plies, int) or plies < 0:
            raise InvalidParameterError(f"plies must be an integer >= 0; got {plies!r}")
        rng = np.random.default_rng(check_seed(seed))
        s = self.root
        for _ in range(plies):
            if self.is_terminal(s):
                break
            options = [o for o, _ in self._outcomes] if self.is_chance(s) else self.legal_moves(s)
            s = self.play(s, options[int(rng.integers(len(options)))])
        return DiceRace(self.length, self.tokens, self.coins, self.horizon, s)

    @property
    def name(self) -> str:
        return f"dice-race(length={self.length}, tokens={self.tokens}, coins={self.coins}, horizon={self.horizon})"

    def initial_state(self) -> DiceRaceState:
        return self.root

    def _home(self, s: DiceRaceState, p: int) -> bool:
        return all(x == self.length for x in s.tokens[p])

    def is_terminal(self, s: DiceRaceState) -> bool:
        return self._home(s, 0) or self._home(s, 1) or s.decisions >= self.horizon

    def is_chance(self, s: DiceRaceState) -> bool:
        return s.roll < 0

    def chance_outcomes(self, s: DiceRaceState) -> tuple[tuple[int, float], ...]:
        return self._outcomes

    def max_to_move(self, s: DiceRaceState) -> bool:
        return s.mover == self.root.mover

    def legal_moves(self, s: DiceRaceState) -> list[int]:
        if self.is_terminal(s) or s.roll < 0:
            return []
        moves = [] if s.roll == 0 else [
            i for i, x in enumerate(s.tokens[s.mover]) if x < self.length and x + s.roll <= self.length]
        return moves or [self.tokens]

    def play(self, s: DiceRaceState, move: int) -> DiceRaceState:
        if s.roll < 0:                                  # the throw: a roll of ``move``
            return DiceRaceState(s.tokens, s.mover, move, s.decisions)
        p = s.mover
        sides = [list(s.tokens[0]), list(s.tokens[1])]
        if move < self.tokens:
            dest = sides[p][move] + s.roll
            sides[p][move] = dest
            if 0 < dest < self.length:
                sides[1 - p] = [0 if x == dest else x for x in sides[1 - p]]
        return DiceRaceState((tuple(sides[0]), tuple(sides[1])), 1 - p, -1, s.decisions + 1)

    def utility(self, s: DiceRaceState) -> float:
        me = self.root.mover
        if self._home(s, me):
            return 1.0
        if self._home(s, 1 - me):
            return -1.0
        return 0.0

    def evaluate(self, s: DiceRaceState) -> float:
        me = self.root.mover
        need_max = sum(self.length - x for x in s.tokens[me])
        need_min = sum(self.length - x for x in s.tokens[1 - me])
        return math.tanh((need_min - need_max) / (2.0 * self.length))

    def hash_key(self, s: DiceRaceState) -> int:
        """SplitMix64 over the encoded row (kernels.hashing_compiled.mix_row's arithmetic)."""
        h = GOLDEN
        for w in (*s.tokens[0], *s.tokens[1], s.mover, s.roll + 1, s.decisions):
            h = mix64(((h ^ w) + GOLDEN) & MASK64)
        return h

    def family_primitives(self) -> Any:
        """The compiled chance engine's primitives (searchlab.games.dice_race_compiled)."""
        return dice_race_compiled.compiled_chance_game(self)

    def __repr__(self) -> str:
        return self.name
