"""OpenSpiel's chinese_checkers as the multi-player study's second domain
(searchlab/games/openspiel_chinese_checkers.py, analysis/multiplayer_study.cc_rows).

Skipped with a message where the optional extra 'openspiel' (open-spiel) is not installed;
tests/studies/test_multiplayer_cc.py covers the study without it."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel", reason="open-spiel not installed (pip install -e '.[openspiel]')")

from searchlab.algorithms.multiplayer import search_multiplayer  # noqa: E402
from searchlab.studies.multiplayer import multiplayer_study as MS  # noqa: E402
from searchlab.errors import InvalidParameterError, UnsupportedError  # noqa: E402
from searchlab.games.openspiel import OpenSpielGame  # noqa: E402
from searchlab.games.openspiel_chinese_checkers import OpenSpielChineseCheckers, in_hop_chain  # noqa: E402


def test_progress_evaluation_is_non_negative_and_constant_sum():
    g = OpenSpielChineseCheckers(3)
    s = g.initial_state()
    assert g.progress(s) == (0, 0, 0) and g.evaluate_vector(s) == (240.0, 240.0, 240.0)
    assert g.leaf_total(s, 3) == 720.0 and g.n_players == 3
    # player 0 (home at the top) steps 9 -> 18: one step nearer its target apex
    step = [a for a in g.legal_moves(s) if s.action_to_string(a) == "9->18"][0]
    assert g.progress(g.play(s, step)) == (1, 0, 0)
    for seed in range(4):
        r = OpenSpielChineseCheckers.random(3, 40, seed)
        st = r.initial_state()
        v = r.evaluate_vector(st)
        assert min(v) >= 0 and sum(v) == 720 and all(0 <= p <= 120 for p in r.progress(st))
    # seed 15001's 30 random actions end inside a hop chain: the root is moved on to the turn's end
    g1 = OpenSpielChineseCheckers.random(3, 30, 15001)
    h = g1.root.history()
    assert len(h) > 30 and not in_hop_chain(g1.root)
    assert in_hop_chain(OpenSpielChineseCheckers(3, history=h[:30]).root)
    assert "Pass" not in [g1.root.action_to_string(a) for a in g1.root.legal_actions()]


def test_returns_are_mapped_to_the_same_constant_sum():
    g = OpenSpielChineseCheckers(3)

    class Ended:                                   # OpenSpiel's returns: the winner n-1, others -1
        def returns(self):
            return [-1.0, 2.0, -1.0]
    assert g.utility_vector(Ended()) == (0.0, 720.0, 0.0)
    with pytest.raises(InvalidParameterError, match="players"):
        OpenSpielChineseCheckers(5)


def test_shallow_pruning_conditions_fail_for_openspiel_returns_and_hold_after_the_map():
    raw = OpenSpielGame("chinese_checkers", players=3, evaluation=lambda st: (0.0, 0.0, 0.0))
    assert raw.leaf_total(raw.initial_state(), 2) is None       # returns in [-1, 2], sum 0
    with pytest.raises(UnsupportedError, match="constant-sum"):
        search_multiplayer(raw, "maxn-shallow", depth=1)
    g = OpenSpielChineseCheckers.random(3, 20, 1)
    a = search_multiplayer(g, "maxn", depth=2)
    b = search_multiplayer(g, "maxn-shallow", depth=2)
    assert (a.values, a.best_move, a.nodes, a.leaves) == (b.values, b.best_move, b.nodes, b.leaves)


def test_cc_rows_depths_within_the_budget():
    rows = MS.cc_rows(0, 3, 20, 15, 600)
    by = {(r["algorithm"], r["d"]): r for r in rows}
    b = rows[0]["branching"]
    assert by[("maxn", 1)]["leaves"] == b and by[("maxn", 1)]["nodes"] == b + 1
    assert all(r["nodes"] <= 600 for r in rows if r["algorithm"] != "paranoid-perfect")
    assert max(d for a, d in by if a == "paranoid-perfect") == max(d for a, d in by if a == "maxn")
    for (alg, d), r in by.items():
        if alg == "paranoid-perfect":
            assert r["leaves"] <= by[("paranoid", d)]["leaves"] <= by[("maxn", d)]["leaves"]
    # the next depth of max^n does not fit: the budget, not a cap, ended it
    d = max(d for a, d in by if a == "maxn")
    g = OpenSpielChineseCheckers.random(3, 20, 15 * 1000)
    assert search_multiplayer(g, "maxn", depth=d + 1, max_nodes=600).status == "aborted"
