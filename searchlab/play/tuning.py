"""A small grid of each unsound technique's parameters, by name, and tuning then confirming
the best setting on disjoint openings.

``GRID`` names every setting: null move R in {2, 3, adaptive} (adaptive = Heinz's adaptive
null move: R = 3 where more than 6 plies remain, else 2) and late move reductions after
{2, 3, 4} moves x reduction {1, log} (``LateMoveReductions`` schedule "constant" with
reduction 1, or "log": max(1, floor(ln(depth) ln(i + 1) / 2))). ``technique(name)`` gives the
Pruning record, so a player is configured by name:
``Player("null_r3", pruning=technique("null_r3"))``.

``tune_and_confirm`` plays every named setting against a baseline player on the *tuning*
openings at the tuning budget, picks the best by pentanomial score (ties: the first in the
given order), and plays that one again on the *confirmation* openings, which must share no
position with the tuning ones, at the confirmation budget (a longer one, as engines confirm a
tune at a longer time control). The confirmation match is what may be reported (its
pentanomial Elo and GSPRT: ``searchlab.analysis.stats.pentanomial_from_pairs(result.pairs)``,
``gsprt``): the tuning matches chose the setting, so their own Elo is biased upwards (a
winner's curse).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Sequence

from searchlab.algorithms.pruning import LateMoveReductions, NullMove, Pruning
from searchlab.errors import InvalidParameterError
from searchlab.play.match import MatchResult, Player, run_match

GRID: dict[str, Pruning] = {
    "null_r2": Pruning(null_move=NullMove(reduction=2)),
    "null_r3": Pruning(null_move=NullMove(reduction=3)),
    "null_adaptive": Pruning(null_move=NullMove(reduction=2, adaptive_depth=6)),
    **{f"lmr_after{a}_{'r1' if s == 'constant' else 'log'}":
       Pruning(lmr=LateMoveReductions(after=a, reduction=1, schedule=s))
       for a in (2, 3, 4) for s in ("constant", "log")},
}


def technique(name: str) -> Pruning:
    """The Pruning record of a grid setting; InvalidParameterError naming the allowed ones."""
    if name not in GRID:
        raise InvalidParameterError(f"technique must be one of {', '.join(GRID)}; got {name!r}")
    return GRID[name]


@dataclass(frozen=True)
class TuneResult:
    """Every setting's tuning match (name -> MatchResult, A = the setting), the best
    setting's name (highest score of A) and its confirmation match (A = that setting)."""

    tuning: dict[str, MatchResult]
    best: str
    confirmation: MatchResult


def tune_and_confirm(game: Any, names: Sequence[str], baseline: Player,
                     tune_openings: list, confirm_openings: list, *, tune_budget: int,
                     confirm_budget: int, engine: str = "auto"
                     ) -> TuneResult:
    """Tune on ``tune_openings`` at ``tune_budget`` nodes per move, confirm the best on
    ``confirm_openings`` at ``confirm_budget`` (the module docstring). Each setting plays
    as ``baseline`` does (ordering, play and budget mode) with its technique switched on; the
    baseline plays at the same budget. Raises InvalidParameterError for an unknown name, no
    names, or openings shared between the two sets (by ``game.hash_key``)."""
    if not names:
        raise InvalidParameterError("names must list at least one grid setting")
    for n in names:
        technique(n)
    shared = {game.hash_key(s) for s in tune_openings} & \
        {game.hash_key(s) for s in confirm_openings}
    if shared:
        raise InvalidParameterError(f"tune_openings and confirm_openings must be disjoint; "
                                    f"{len(shared)} position(s) are in both")

    def player(name: str | None, budget: int) -> Player:
        if name is None:
            return dataclasses.replace(baseline, budget=budget)
        return dataclasses.replace(baseline, name=name, pruning=technique(name), budget=budget)

    tuning = {n: run_match(game, player(n, tune_budget), player(None, tune_budget),
                           tune_openings, engine=engine) for n in names}
    best = max(names, key=lambda n: tuning[n].score)        # max keeps the first of ties
    conf = run_match(game, player(best, confirm_budget), player(None, confirm_budget),
                     confirm_openings, engine=engine)
    return TuneResult(tuning, best, conf)
