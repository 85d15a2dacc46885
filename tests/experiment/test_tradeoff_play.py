"""The trade-off study's matches play as configured (match.play, match.persist_across_moves)
and its null move goes through each game's guard: the rows record how they were played, the
study's players are the match runner's engine-grade players, and the guards refuse where they
should (Connect Four: fewer than 3 safe moves; chess: in check, king and pawns only)."""

from __future__ import annotations

import dataclasses

import pytest

from searchlab.algorithms.search_api import search
from searchlab.algorithms.calibration import sample_states
from searchlab.algorithms.pruning import NullMove, Pruning, Technique
from searchlab.games.chess_game import Chess
from searchlab.games.connect4 import safe_moves
from searchlab.games.null_move import NULL_MOVE_MIN_SAFE
from searchlab.play.match import Player, play_game
from searchlab.play.openings import random_openings
from searchlab.studies.tradeoff.domains import Position
from searchlab.studies.tradeoff.tradeoff_config import DomainConf, MatchConf, null_move_guarded
from searchlab.studies.tradeoff.tradeoff_measure import match_game, run_match_task

NULL = Technique(label="null R=2", family="null_move", null_move=NullMove(2))


def _c4(play: str, persist: bool = True, guard: bool | None = None) -> DomainConf:
    return DomainConf(value_scale=0.1, null_move_guard=guard, match=MatchConf(
        enabled=True, openings=1, budget=400, ordering="static", techniques=[NULL.label],
        play=play, persist_across_moves=persist))


@pytest.mark.parametrize("play,persist", [("engine", True), ("engine", False),
                                          ("fresh-per-depth", True)])
def test_match_rows_record_the_play_mode_and_are_the_runners_games(play, persist):
    d = _c4(play, persist)
    game = match_game("connect4", d)
    ops = random_openings(game, 4, 1, 5)
    rows = run_match_task("connect4", d, NULL, {}, ops, 0, "t", 1)
    assert len(rows) == 2
    for r in rows:
        # what was in effect: nothing persists under fresh-per-depth
        assert (r["play"], r["persist_across_moves"], r["null_move_guard"]) == \
            (play, persist and play == "engine", True)
    # the study's game is the runner's game between players built by hand with these settings
    a = Player(NULL.label, "alphabeta", "static", Pruning(null_move=NullMove(2)), 400,
               play=play, persist=persist)
    b = Player("alpha-beta (sound)", "alphabeta", "static", None, 400, play=play,
               persist=persist)
    for r in rows:
        g = play_game(game, ops[0].state, a, b, r["a_is_max"], d.match.max_plies)
        assert (g.result, g.plies, sum(g.a_nodes) / len(g.a_nodes)) == \
            (r["result"], r["plies"], r["a_mean_nodes"])


def test_engine_play_is_not_fresh_per_depth_play():
    """The same opening and budget searched by the two modes spend different nodes per move
    (the engine's table and killers change the tree), so the mode reaches the players."""
    game = match_game("connect4", _c4("engine"))
    ops = random_openings(game, 4, 1, 5)
    eng = run_match_task("connect4", _c4("engine"), NULL, {}, ops, 0, "t", 1)
    fresh = run_match_task("connect4", _c4("fresh-per-depth"), NULL, {}, ops, 0, "t", 1)
    assert [r["a_mean_nodes"] for r in eng] != [r["a_mean_nodes"] for r in fresh]


def test_connect4_null_move_goes_through_the_guard_unless_switched_off():
    guarded = match_game("connect4", _c4("engine"))
    unguarded = match_game("connect4", _c4("engine", guard=False))
    pos = Position("connect4", "connect4", "p", 0, {"moves": "", "score": 0})
    states = [s for s in sample_states(guarded, 20, 300, 3) if not guarded.is_terminal(s)]
    refused = 0
    for s in states:
        want = safe_moves(s) >= NULL_MOVE_MIN_SAFE
        assert guarded.null_move_allowed(s) == want == pos.game(True).null_move_allowed(s)
        assert unguarded.null_move_allowed(s) and pos.game(False).null_move_allowed(s)
        refused += not want
    assert refused > 10
    assert null_move_guarded("connect4", DomainConf()) and \
        not null_move_guarded("connect4", DomainConf(null_move_guard=False))


def test_chess_null_move_guard_in_check_and_pawn_endings():
    """Chess's own guard (the study uses the game as it is): no null move in check or with
    only king and pawns for the side to move; allowed with a piece; and in a king-and-pawn
    ending a null-move search never prunes, node for node the sound search."""
    allowed = Chess("4k3/8/8/8/8/8/4P3/3NK3 w - - 0 1")       # a knight besides the pawn
    assert allowed.null_move_allowed(allowed.initial_state())
    checked = Chess("4k3/8/8/8/8/5n2/4P3/4K1N1 w - - 0 1")     # the knight on f3 checks
    assert checked.initial_state()._board.is_check()
    assert not checked.null_move_allowed(checked.initial_state())
    black_pawns_only = Chess("4k3/4p3/8/8/8/8/4P3/3NK3 b - - 0 1")
    assert not black_pawns_only.null_move_allowed(black_pawns_only.initial_state())
    assert null_move_guarded("chess", DomainConf())
    kp = Chess("8/4k3/4p3/8/8/4P3/4K3/8 w - - 0 1")
    plain = search(kp, "alphabeta", "captures", depth=5, engine="reference")
    nm = search(kp, "alphabeta", "captures", depth=5, engine="reference",
                pruning=Pruning(null_move=NullMove(1)))
    assert (nm.nodes, nm.value, nm.best_move) == (plain.nodes, plain.value, plain.best_move)
    assert sum(nm.extra.get("pruned", {}).values()) == 0
    # with a knight each the same search does prune: the guard, not the position, stops it
    kpn = Chess("8/4k3/4p3/8/2n5/4P3/4K3/6N1 w - - 0 1")
    nm2 = search(kpn, "alphabeta", "captures", depth=5, engine="reference",
                 pruning=Pruning(null_move=NullMove(1)))
    assert nm2.extra["pruned"]["null_move"] > 0


def test_othello_keeps_its_unguarded_pass():
    d = dataclasses.replace(_c4("engine"), null_move_guard=None)
    assert not null_move_guarded("othello", d)
    g = match_game("othello", d)
    assert all(g.null_move_allowed(s) for s in sample_states(g, 10, 20, 1))
