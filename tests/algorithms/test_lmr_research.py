"""Late move reductions re-search as engines do: a reduced null-window search that fails high
is searched again at full depth and window, and every such re-search is counted."""

from __future__ import annotations

from searchlab.algorithms.search_api import search
from searchlab.algorithms.pruning import LateMoveReductions, Pruning
from searchlab.games.connect4 import ConnectFour
from searchlab.games.position import FromState


def test_reduced_searches_that_fail_high_are_re_searched_and_counted():
    g = ConnectFour()
    total = 0
    for moves in ("4453", "443322", "1234567"):
        v = FromState(g, ConnectFour(moves).initial_state())
        pr = Pruning(lmr=LateMoveReductions(after=2, min_depth=2))
        ref = search(v, "alphabeta", "natural", depth=7, engine="reference", pruning=pr)
        com = search(v, "alphabeta", "natural", depth=7, engine="compiled", pruning=pr)
        assert (ref.re_searches, ref.extra, ref.nodes) == (com.re_searches, com.extra, com.nodes)
        assert ref.re_searches <= ref.extra["pruned"]["lmr"]     # one per failed-high reduction
        total += ref.re_searches
        # no move late enough to reduce: plain alpha-beta, nothing re-searched
        none = search(v, "alphabeta", "natural", depth=7, engine="reference",
                      pruning=Pruning(lmr=LateMoveReductions(after=7)))
        plain = search(v, "alphabeta", "natural", depth=7, engine="reference")
        assert none.re_searches == 0 and (none.nodes, none.value) == (plain.nodes, plain.value)
    assert total > 0


def test_every_reduced_search_that_fails_high_is_re_searched_once(monkeypatch):
    """Count, around the reduced searches, those whose null window failed toward the side to
    move (the move may be better than the best so far): exactly these are re-searched."""
    from searchlab.algorithms import pruning as P
    g = ConnectFour()
    v = FromState(g, ConnectFour("4453").initial_state())
    seen = {"reduced": 0, "failed_high": 0}
    reduced = P._reduced

    def spy(ctx, r, child, ply, alpha, beta):
        c = reduced(ctx, r, child, ply, alpha, beta)
        seen["reduced"] += 1
        parent_max = not ctx.game.max_to_move(child)
        seen["failed_high"] += (c > alpha) if parent_max else (c < beta)
        return c
    monkeypatch.setattr(P, "_reduced", spy)
    pr = Pruning(lmr=LateMoveReductions(after=1, min_depth=2))
    r = search(v, "alphabeta", "centre", depth=6, engine="reference", pruning=pr)
    assert seen["reduced"] == r.extra["pruned"]["lmr"]
    assert 0 < seen["failed_high"] == r.re_searches < seen["reduced"]
