"""The technique grid by name, and tuning then confirming on disjoint openings."""

from __future__ import annotations

import pytest

from searchlab import InvalidParameterError
from searchlab.algorithms.pruning import Futility, LateMoveReductions, NullMove, ProbCut
from searchlab.games.null_move import connect_four_with_null_move
from searchlab.play.match import Player
from searchlab.play.openings import random_openings
from searchlab.play.tuning import (GRID, check_disjoint, family, pick_best, technique,
                                   tune_and_confirm)


def test_the_grid_holds_the_named_settings():
    assert len(GRID) == 3 + 3 * 2 + 3 + 3
    assert list(GRID)[-6:] == ["futility_01", "futility_03", "futility_10", "probcut_t10",
                               "probcut_t15", "probcut_t20"]
    assert technique("null_r3").null_move == NullMove(reduction=3)
    assert technique("null_adaptive").null_move.adaptive_depth == 6
    assert technique("lmr_after4_log").lmr == LateMoveReductions(after=4, schedule="log")
    assert [family(n) for n in ("null_adaptive", "lmr_after2_r1", "futility_10", "probcut_t20")] \
        == ["null_move", "lmr", "futility", "probcut"]
    with pytest.raises(InvalidParameterError, match="technique must be one of null_r2"):
        technique("null_r9")
    with pytest.raises(InvalidParameterError, match="technique must be one of"):
        family("futility_05")


def test_futility_margins_scale_and_probcut_takes_the_fitted_model():
    assert technique("futility_03").futility == Futility(margin=0.3)
    assert technique("futility_10", value_scale=300).futility == Futility(margin=300.0)
    assert technique("futility_01", value_scale=0.3).futility.margin == pytest.approx(0.03)
    fitted = ProbCut(shallow=1, deep=3, slope=0.6, intercept=0.02, sigma=0.03, threshold=9.0)
    assert technique("probcut_t15", probcut=fitted).probcut == ProbCut(1, 3, 0.6, 0.02, 0.03, 1.5)
    with pytest.raises(InvalidParameterError, match="needs probcut= the domain's fitted"):
        technique("probcut_t10")
    with pytest.raises(InvalidParameterError, match="value_scale must be a number > 0"):
        technique("futility_03", value_scale=0)


def test_pick_best_takes_the_highest_score_and_the_first_of_ties():
    order = ["null_r2", "null_r3", "null_adaptive"]
    assert pick_best({"null_r2": 0.4, "null_r3": 0.6, "null_adaptive": 0.5}, order) == "null_r3"
    assert pick_best({"null_r2": 0.5, "null_r3": 0.6, "null_adaptive": 0.6}, order) == "null_r3"
    assert pick_best({"null_adaptive": 0.6, "null_r3": 0.6}, order[::-1]) == "null_adaptive"
    assert pick_best({"null_r3": 0.1}, order) == "null_r3"          # missing ones skipped
    with pytest.raises(InvalidParameterError, match="no score for any"):
        pick_best({"lmr_after2_r1": 0.5}, order)
    with pytest.raises(InvalidParameterError, match="must be in \\[0, 1\\]"):
        pick_best({"null_r2": 1.5}, order)


def test_openings_shared_between_the_sets_are_refused():
    g = connect_four_with_null_move("")
    ops = [o.state for o in random_openings(g, 4, 4, seed=3)]
    check_disjoint(g, ops[:2], ops[2:])
    with pytest.raises(InvalidParameterError, match="must be disjoint; 1 position"):
        check_disjoint(g, ops[:2], ops[1:])


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
