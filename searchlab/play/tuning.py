"""A small grid of each unsound technique's parameters, by name, and tuning then confirming
the best setting on disjoint openings.

``GRID`` names every setting: null move R in {2, 3, adaptive} (adaptive = Heinz's adaptive
null move: R = 3 where more than 6 plies remain, else 2); late move reductions after
{2, 3, 4} moves x reduction {1, log} (``LateMoveReductions`` schedule "constant" with
reduction 1, or "log": max(1, floor(ln(depth) ln(i + 1) / 2))); futility pruning with a
frontier margin of 0.1, 0.3 or 1.0 (``FUTILITY_MARGINS``, in units of the domain's value
scale: ``technique(name, value_scale=...)`` multiplies); ProbCut with a threshold of 1.0, 1.5
or 2.0 residual standard deviations (``PROBCUT_THRESHOLDS``; the linear model is the domain's
own fit, ``technique(name, probcut=fitted)``). Each setting is one
``searchlab.algorithms.pruning.Technique`` record (``GRID[name]``, the record the trade-off
study plays); ``technique(name)`` gives its Pruning record,
so a player is configured by name: ``Player("null_r3", pruning=technique("null_r3"))``;
``family(name)`` the technique family (null_move, lmr, futility, probcut).

``tune_and_confirm`` plays every named setting against a baseline player on the *tuning*
openings at the tuning budget, picks the best by pentanomial score (``pick_best``; ties: the
first in the given order), and plays that one again on the *confirmation* openings, which must
share no position with the tuning ones (``check_disjoint``), at the confirmation budget (a
longer one, as engines confirm a tune at a longer time control). The confirmation match is
what may be reported (its pentanomial Elo and GSPRT:
``searchlab.analysis.stats.pentanomial_from_pairs(result.pairs)``, ``gsprt``): the tuning
matches chose the setting, so their own Elo is biased upwards (a winner's curse).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from searchlab.algorithms.pruning import (Futility, LateMoveReductions, NullMove, ProbCut,
                                          Pruning, Technique)
from searchlab.errors import InvalidParameterError
from searchlab.play.match import MatchResult, Player, run_match

#: futility's frontier margins (x the domain's value scale) and ProbCut's thresholds (residual
#: standard deviations) of the grid
FUTILITY_MARGINS = (0.1, 0.3, 1.0)
PROBCUT_THRESHOLDS = (1.0, 1.5, 2.0)

_SETTINGS = (
    Technique("null_r2", null_move=NullMove(reduction=2)),
    Technique("null_r3", null_move=NullMove(reduction=3)),
    Technique("null_adaptive", null_move=NullMove(reduction=2, adaptive_depth=6)),
    *(Technique(f"lmr_after{a}_{'r1' if s == 'constant' else 'log'}",
                lmr=LateMoveReductions(after=a, reduction=1, schedule=s))
      for a in (2, 3, 4) for s in ("constant", "log")),
    *(Technique(f"futility_{round(m * 10):02d}", futility=Futility(margin=m))
      for m in FUTILITY_MARGINS),
    *(Technique(f"probcut_t{round(t * 10):02d}", probcut=ProbCut(threshold=t))
      for t in PROBCUT_THRESHOLDS),
)
#: every grid setting by name: one pruning.Technique record each (name = label; its family
#: the one its field says), the same record the trade-off study's techniques are
GRID: dict[str, Technique] = {t.name: t for t in _SETTINGS}
#: the technique families of the grid (pruning.FAMILIES' names)
FAMILIES = ("null_move", "lmr", "futility", "probcut")


def technique(name: str, value_scale: float = 1.0, probcut: ProbCut | None = None) -> Pruning:
    """The Pruning record of a grid setting; InvalidParameterError naming the allowed ones.
    A futility margin is multiplied by ``value_scale`` (the domain's typical static-value
    swing; > 0); a ProbCut setting takes the fitted model ``probcut`` (shallow, deep, slope,
    intercept, sigma) with the setting's threshold, and is refused without one."""
    if name not in GRID:
        raise InvalidParameterError(f"technique must be one of {', '.join(GRID)}; got {name!r}")
    if isinstance(value_scale, bool) or not isinstance(value_scale, (int, float)) \
            or not 0 < value_scale < float("inf"):
        raise InvalidParameterError(f"value_scale must be a number > 0; got {value_scale!r}")
    rec = GRID[name]
    if rec.probcut is not None and not isinstance(probcut, ProbCut):
        raise InvalidParameterError(f"technique {name!r} needs probcut= the domain's fitted "
                                    f"ProbCut model (fit_probcut); got {probcut!r}")
    return rec.scaled(value_scale, probcut)


def family(name: str) -> str:
    """The technique family of a grid setting (one of FAMILIES)."""
    technique_record = GRID.get(name)
    if technique_record is None:
        raise InvalidParameterError(f"technique must be one of {', '.join(GRID)}; got {name!r}")
    return technique_record.family


def check_disjoint(game: Any, tune_openings: Sequence, confirm_openings: Sequence) -> None:
    """InvalidParameterError when a position (by ``game.hash_key``) is in both opening sets."""
    shared = {game.hash_key(s) for s in tune_openings} & \
        {game.hash_key(s) for s in confirm_openings}
    if shared:
        raise InvalidParameterError(f"tune_openings and confirm_openings must be disjoint; "
                                    f"{len(shared)} position(s) are in both")


def pick_best(scores: Mapping[str, float], order: Sequence[str]) -> str:
    """The setting of ``order`` with the highest score in ``scores`` (ties: the first in
    ``order``); settings missing from ``scores`` are skipped. InvalidParameterError when none
    of ``order`` has a score, or a score is not a number in [0, 1]."""
    have = [n for n in order if n in scores]
    if not have:
        raise InvalidParameterError(f"pick_best: no score for any of {list(order)}")
    for n in have:
        v = scores[n]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 1:
            raise InvalidParameterError(f"pick_best: score of {n!r} must be in [0, 1]; got {v!r}")
    return max(have, key=lambda n: scores[n])          # max keeps the first of ties


@dataclass(frozen=True)
class TuneResult:
    """Every setting's tuning match (name -> MatchResult, A = the setting), the best
    setting's name (highest score of A) and its confirmation match (A = that setting)."""

    tuning: dict[str, MatchResult]
    best: str
    confirmation: MatchResult


def tune_and_confirm(game: Any, names: Sequence[str], baseline: Player,
                     tune_openings: list, confirm_openings: list, *, tune_budget: int,
                     confirm_budget: int, engine: str = "auto", value_scale: float = 1.0,
                     probcut: ProbCut | None = None) -> TuneResult:
    """Tune on ``tune_openings`` at ``tune_budget`` nodes per move, confirm the best on
    ``confirm_openings`` at ``confirm_budget`` (the module docstring). Each setting plays
    as ``baseline`` does (ordering, play and budget mode) with its technique switched on; the
    baseline plays at the same budget. Raises InvalidParameterError for an unknown name, no
    names, or openings shared between the two sets (by ``game.hash_key``). ``value_scale``
    and ``probcut``: as ``technique`` (futility margins, ProbCut's fitted model)."""
    if not names:
        raise InvalidParameterError("names must list at least one grid setting")
    for n in names:
        technique(n, value_scale, probcut)
    check_disjoint(game, tune_openings, confirm_openings)

    def player(name: str | None, budget: int) -> Player:
        if name is None:
            return dataclasses.replace(baseline, budget=budget)
        return dataclasses.replace(baseline, name=name, pruning=technique(name, value_scale, probcut),
                                   budget=budget)

    tuning = {n: run_match(game, player(n, tune_budget), player(None, tune_budget),
                           tune_openings, engine=engine) for n in names}
    best = pick_best({n: tuning[n].score for n in names}, names)
    conf = run_match(game, player(best, confirm_budget), player(None, confirm_budget),
                     confirm_openings, engine=engine)
    return TuneResult(tuning, best, conf)
