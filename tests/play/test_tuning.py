"""The technique grid by name, and tuning then confirming on disjoint openings."""

from __future__ import annotations

import pytest

from searchlab import InvalidParameterError
from searchlab.algorithms.pruning import LateMoveReductions, NullMove
from searchlab.games.null_move import connect_four_with_null_move
from searchlab.play.match import Player
from searchlab.play.openings import random_openings
from searchlab.play.tuning import GRID, technique, tune_and_confirm


def test_the_grid_holds_the_named_settings():
    assert len(GRID) == 3 + 3 * 2
    assert technique("null_r3").null_move == NullMove(reduction=3)
    assert technique("null_adaptive").null_move.adaptive_depth == 6
    assert technique("lmr_after4_log").lmr == LateMoveReductions(after=4, schedule="log")
    with pytest.raises(InvalidParameterError, match="technique must be one of null_r2"):
        technique("null_r9")


def test_tune_picks_the_best_and_confirms_it_on_other_openings():
    g = connect_four_with_null_move("")
    ops = [o.state for o in random_openings(g, 4, 6, seed=2)]
    base = Player("alpha-beta", ordering="static")
    r = tune_and_confirm(g, ["null_r2", "lmr_after3_r1"], base, ops[:3], ops[3:],
                         tune_budget=300, confirm_budget=600)
    assert r.best == max(["null_r2", "lmr_after3_r1"], key=lambda n: r.tuning[n].score)
    assert all(len(m.pairs) == 3 and m.b == "alpha-beta" for m in r.tuning.values())
    assert r.tuning["null_r2"].a_play == "engine, 300 nodes/move, persist"
    assert r.confirmation.a == r.best and len(r.confirmation.pairs) == 3
    assert r.confirmation.a_play == "engine, 600 nodes/move, persist"
    with pytest.raises(InvalidParameterError, match="must be disjoint"):
        tune_and_confirm(g, ["null_r2"], base, ops[:3], ops[2:], tune_budget=100,
                         confirm_budget=100)
    with pytest.raises(InvalidParameterError, match="technique must be one of"):
        tune_and_confirm(g, ["nope"], base, ops[:3], ops[3:], tune_budget=100,
                         confirm_budget=100)
