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


def _minimal_leaves(g, state, ply: int, depth: int, kind: str, bound: float, root_player: int,
                    values: dict) -> tuple[int, float]:
    """(leaves, value) of the minimal proof tree of paranoid with the movers *as played*
    (a hop chain keeps the mover), written independently of the engine: "pv" proves the exact
    value (first child pv, the others the bound it sets), "le" proves value <= bound (MAX: every
    child, MIN: its best child), "ge" proves value >= bound (MAX: its best child, MIN: every
    child). ``values`` memoises exact paranoid values; children are taken best-first for the
    mover, stably, like ordering="perfect"."""
    def value(s, p):
        key = (g.hash_key(s), p)
        if key not in values:
            if g.is_terminal(s) or p >= depth:
                v = (g.utility_vector(s) if g.is_terminal(s) else g.evaluate_vector(s))[root_player]
            else:
                vs = [value(g.play(s, m), p + 1) for m in g.legal_moves(s)]
                v = max(vs) if g.to_move(s) == root_player else min(vs)
            values[key] = v
        return values[key]

    if g.is_terminal(state) or ply >= depth:
        return 1, value(state, ply)
    is_max = g.to_move(state) == root_player
    kids = sorted((g.play(state, m) for m in g.legal_moves(state)),
                  key=lambda c: -value(c, ply + 1) if is_max else value(c, ply + 1))
    if kind == "pv":
        n, v = _minimal_leaves(g, kids[0], ply + 1, depth, "pv", 0, root_player, values)
        rest = "le" if is_max else "ge"
        return n + sum(_minimal_leaves(g, c, ply + 1, depth, rest, v, root_player, values)[0]
                       for c in kids[1:]), v
    every = (kind == "le") == is_max          # MAX proving <= / MIN proving >=: every child
    sub = kids if every else kids[:1]
    return sum(_minimal_leaves(g, c, ply + 1, depth, kind, bound, root_player, values)[0] for c in sub), value(state, ply)


@pytest.mark.parametrize("depth", [2, pytest.param(3, marks=pytest.mark.slow)])
def test_perfect_paranoid_below_b1_b2_is_a_hop_chain_not_a_defect(depth):
    """000-q: perfect-order paranoid examines fewer leaves at depth 3 than "b1·b2" (under the
    root's first move a MIN node with alpha = -inf cannot cut, nor can its MIN children, so at
    least b1·b2 leaves; at depth 2 at least b1 + b - 1). That floor assumes the mover changes at
    ply 1. In OpenSpiel's chinese_checkers a hop is one action and the chain continues with the
    same player, so the best root move often keeps the turn: the first child is a MAX node with
    only the chain's few continuations (hop on or "Pass"), and every other root move is refuted by
    one leaf. The engine's count equals the minimal proof tree with the movers as played (an
    independent recursion), and lies below the floor only where the best root move keeps the turn."""
    g = OpenSpielChineseCheckers.random(3, 30, 15 * 1000 + 0)       # the study's position 0 (seed 15)
    root = g.initial_state()
    r = search_multiplayer(g, "paranoid", depth=depth, ordering="perfect")
    want, _ = _minimal_leaves(g, root, 0, depth, "pv", 0, g.to_move(root), {})
    assert r.leaves == want
    b = len(g.legal_moves(root))
    first = g.play(root, r.best_move)
    assert g.to_move(first) == g.to_move(root) and len(g.legal_moves(first)) <= 3    # hop on or pass
    # the floor had the best root move passed the turn (as the argument assumes): below a MIN
    # child c with alpha = -inf every move is searched, and at depth 3 every move of each of its
    # MIN children too
    c = next(g.play(root, m) for m in g.legal_moves(root) if g.to_move(g.play(root, m)) != g.to_move(root))
    floor = (len(g.legal_moves(c)) + b - 1 if depth == 2 else
             sum(len(g.legal_moves(g.play(c, m))) for m in g.legal_moves(c)))
    assert r.leaves < floor
