"""Connect Four's null move and its zugzwang guard: the safe-move count against brute force,
the guard refusing null moves where it should inside a search, and both engines alike."""

from __future__ import annotations

import numpy as np
import pytest

from searchlab import InvalidParameterError
from searchlab.algorithms.search_api import search
from searchlab.algorithms.pruning import NullMove, Pruning
from searchlab.games import connect4_compiled as cc
from searchlab.games.connect4 import ConnectFour, safe_moves
from searchlab.games.null_move import NULL_MOVE_MIN_SAFE, connect_four_with_null_move
from searchlab.games.position import FromState


def _brute_safe(g, st) -> int:
    """Moves after which the opponent has no immediately winning reply."""
    n = 0
    for m in g.legal_moves(st):
        child = g.play(st, m)
        if g.is_terminal(child) or not any(
                g.is_terminal(g.play(child, r)) and g.utility(g.play(child, r)) != 0
                for r in g.legal_moves(child)):
            n += 1
    return n


def _random_states(g, n, seed):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        st = g.initial_state()
        while not g.is_terminal(st):
            out.append(st)
            st = g.play(st, int(rng.choice(g.legal_moves(st))))
    return out[:n]


def test_safe_moves_match_brute_force_and_the_compiled_count():
    g = ConnectFour()
    cg = g.compiled_primitives()
    few = 0
    for st in _random_states(g, 1500, 3):
        if any(g.is_terminal(g.play(st, m)) for m in g.legal_moves(st)):
            continue                    # an immediate win: the count ignores it (Pons' too)
        k = safe_moves(st)
        assert k == _brute_safe(g, st) == cc.safe_moves(cg.encode(st))
        few += k < NULL_MOVE_MIN_SAFE
    assert few > 20                     # the guard's case is common in random play


class _Counting:
    """The guarded game, counting the guard's refusals and the states refused."""

    def __init__(self, game):
        self.game, self.refused = game, []

    def __getattr__(self, item):
        return getattr(self.game, item)

    def null_move_allowed(self, st):
        ok = self.game.null_move_allowed(st)
        if not ok:
            self.refused.append(st)
        return ok


def test_the_guard_refuses_null_moves_in_a_search_and_changes_it():
    pr = Pruning(null_move=NullMove(2))
    refused = differ = 0
    for moves in ("4453", "44443322", "3344556"):
        g = _Counting(connect_four_with_null_move(moves))
        r = search(g, "alphabeta", "static", depth=7, engine="reference", pruning=pr)
        u = search(connect_four_with_null_move(moves, guard=False), "alphabeta", "static",
                   depth=7, engine="reference", pruning=pr)
        assert all(safe_moves(s) < NULL_MOVE_MIN_SAFE for s in g.refused)
        refused += len(g.refused)
        differ += (r.nodes, r.extra["pruned"]) != (u.nodes, u.extra["pruned"])
    assert refused > 0 and differ > 0


def test_guarded_null_move_compiled_equals_reference():
    pr = Pruning(null_move=NullMove(2))
    g = connect_four_with_null_move("")
    fired = 0
    for st in _random_states(g, 200, 5)[::25]:
        v = FromState(g, st)
        a = search(v, "alphabeta", "static", depth=6, engine="reference", pruning=pr)
        b = search(v, "alphabeta", "static", depth=6, engine="compiled", pruning=pr)
        assert (a.nodes, a.value, a.best_move, a.extra) == (b.nodes, b.value, b.best_move,
                                                            b.extra)
        fired += a.extra["pruned"].get("null_move", 0)
    assert fired > 0


def test_bad_guard():
    with pytest.raises(InvalidParameterError, match="guard must be True or False"):
        connect_four_with_null_move("", guard="yes")
