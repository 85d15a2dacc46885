"""Pig, the two-player dice game, as a chance game (searchlab.contracts.protocol.ChanceGame).

Why Pig: it is the smallest real dice game whose decisions matter (roll again and risk the
turn total, or bank it), its chance nodes have n = ``dice`` equiprobable outcomes, it has a
known evaluation scale (the payoff is win/loss, so an evaluation must estimate 2·P(win) − 1,
claim 003-i's point), and OpenSpiel ships the very same rules ("pig"), so every value can be
cross-checked against pyspiel (tests/games/test_openspiel.py).

Rules (OpenSpiel's pig, same parameter names)
    - Players 0 and 1; scores start at 0; ``winscore`` (default 100), a die with ``dice``
      faces (default 6), ``horizon`` (default 1000) decisions at most.
    - The player to move chooses *roll* (move 0) or *stop* (move 1). Roll leads to a chance
      node: face 1 ends the turn with nothing banked (turn total 0, the other player moves);
      faces 2..dice add the face to the turn total (outcome k = face k + 1, probability
      1/dice each). Stop banks the turn total; reaching ``winscore`` wins at once, else the
      other player moves. When score + turn total >= winscore only stop is legal.
    - After ``horizon`` decisions the game ends in a draw (a roll that is the last decision
      ends it before the die is cast).
    - Payoff (MAX = player 0 at the root): +1 win, -1 loss, 0 draw. ``value_bounds`` (-1, 1).

Evaluation (MAX's view, strictly inside (-1, 1)), an estimate of 2·P(win) - 1 from a race
model: a player needs T = remaining / mu more turns (mu = 8 points per turn, about what the
hold-at-20 strategy scores with a six-sided die; remaining = winscore - score, for the
player to move less its turn total); the player to move is half a turn ahead:
``e = tanh((T_other - T_mover + 0.5) / (1 + 0.5·sqrt(T_mover + T_other)))`` for the player
to move, negated for MAX when MIN is to move. The same function of (scores, turn total,
mover) applies to OpenSpiel's pig states (``evaluate_text``).

State: ``PigState(scores, turn_total, mover, rolling, decisions)``; rolling marks the chance
node after a roll.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from typing import Any, NamedTuple

from searchlab.errors import InvalidParameterError
from searchlab.games import pig_compiled
from searchlab.games.pig_compiled import POINTS_PER_TURN, ROLL, STOP
from searchlab.contracts.protocol import CHANCE
from searchlab.hashing import MASK64

__all__ = ["POINTS_PER_TURN", "ROLL", "STOP", "Pig", "PigState", "evaluate_text", "race_estimate"]


class PigState(NamedTuple):
    scores: tuple[int, int]
    turn_total: int
    mover: int
    rolling: bool
    decisions: int


def race_estimate(scores: tuple[int, int], turn_total: int, mover: int, winscore: int,
                  max_player: int = 0) -> float:
    """The evaluation above: estimated 2·P(max_player wins) - 1, in (-1, 1)."""
    other = 1 - mover
    t_m = max(0, winscore - scores[mover] - turn_total) / POINTS_PER_TURN
    t_o = max(0, winscore - scores[other]) / POINTS_PER_TURN
    e = math.tanh((t_o - t_m + 0.5) / (1.0 + 0.5 * math.sqrt(t_m + t_o)))
    return e if mover == max_player else -e


_TEXT = re.compile(r"Scores: (\d+) (\d+), Turn total: (\d+)\nCurrent player: (-?\d+)")


def evaluate_text(text: str, winscore: int, max_player: int = 0) -> float:
    """``race_estimate`` of an OpenSpiel pig state given as its ``str()``."""
    m = _TEXT.search(text)
    if m is None:
        raise InvalidParameterError(f"not an OpenSpiel pig state: {text!r}")
    s0, s1, tt, mover = (int(x) for x in m.groups())
    return race_estimate((s0, s1), tt, mover, winscore, max_player)


class Pig:
    """Pig as a ChanceGame; ``Pig(winscore=20, dice=6)`` etc. ``default_depth`` None (the
    game can last ``horizon`` decisions: give searches a depth)."""

    capabilities = replace(CHANCE, family_compiled=True)
    has_static = True
    value_bounds = (-1.0, 1.0)
    default_depth = None

    def __init__(self, winscore: int = 100, dice: int = 6, horizon: int = 1000,
                 root: PigState | None = None) -> None:
        for name, v, lo in (("winscore", winscore, 1), ("dice", dice, 2), ("horizon", horizon, 1)):
            if isinstance(v, bool) or not isinstance(v, int) or v < lo:
                raise InvalidParameterError(f"{name} must be an integer >= {lo}; got {v!r}")
        self.winscore, self.dice, self.horizon = winscore, dice, horizon
        self.root = PigState((0, 0), 0, 0, False, 0) if root is None else root
        self._outcomes = tuple((k, 1.0 / dice) for k in range(dice))

    @property
    def name(self) -> str:
        return f"pig(winscore={self.winscore}, dice={self.dice}, horizon={self.horizon})"

    def initial_state(self) -> PigState:
        return self.root

    def is_chance(self, s: PigState) -> bool:
        return s.rolling

    def chance_outcomes(self, s: PigState) -> tuple[tuple[int, float], ...]:
        return self._outcomes

    def max_to_move(self, s: PigState) -> bool:
        return s.mover == self.root.mover

    def legal_moves(self, s: PigState) -> list[int]:
        if self.is_terminal(s) or s.rolling:
            return []
        if s.scores[s.mover] + s.turn_total >= self.winscore:
            return [STOP]
        return [ROLL, STOP]

    def play(self, s: PigState, move: int) -> PigState:
        if s.rolling:                                   # a die outcome: face move + 1
            if move == 0:
                return PigState(s.scores, 0, 1 - s.mover, False, s.decisions)
            return PigState(s.scores, s.turn_total + move + 1, s.mover, False, s.decisions)
        if move == ROLL:
            return PigState(s.scores, s.turn_total, s.mover, True, s.decisions + 1)
        scores = list(s.scores)
        scores[s.mover] += s.turn_total
        nxt = s.mover if scores[s.mover] >= self.winscore else 1 - s.mover
        return PigState((scores[0], scores[1]), 0, nxt, False, s.decisions + 1)

    def is_terminal(self, s: PigState) -> bool:
        return max(s.scores) >= self.winscore or s.decisions >= self.horizon

    def utility(self, s: PigState) -> float:
        if max(s.scores) < self.winscore:
            return 0.0
        winner = 0 if s.scores[0] >= self.winscore else 1
        return 1.0 if winner == self.root.mover else -1.0

    def evaluate(self, s: PigState) -> float:
        return race_estimate(s.scores, s.turn_total, s.mover, self.winscore, self.root.mover)

    def hash_key(self, s: PigState) -> int:
        return hash(s) & MASK64

    def family_primitives(self) -> Any:
        """The compiled chance engine's primitives (searchlab.games.pig_compiled)."""
        return pig_compiled.compiled_chance_game(self)

    def __repr__(self) -> str:
        return self.name
