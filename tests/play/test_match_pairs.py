"""Game pairs: pair ids and colours, threefold repetition, the root repetition rule, openings,
and the trade-off wrapper's null move on the compiled engine."""

from __future__ import annotations

import pytest

from searchlab import InvalidParameterError
from searchlab.algorithms.search_api import search
from searchlab.algorithms.calibration import sample_states
from searchlab.algorithms.pruning import NullMove, Pruning
from searchlab.studies.tradeoff.domains import connect4_game
from searchlab.games.chess_game import Chess
from searchlab.games.position import FromState
from searchlab.games.tictactoe import TicTacToe
from searchlab.play.match import (MoveChoice, Player, avoid_repetition, play_game, play_pairs)
from searchlab.play.openings import random_openings


def test_pairs_carry_their_ids_and_swap_colours():
    g = TicTacToe()
    ops = random_openings(g, 2, 3, seed=5)
    a, b = Player("a", budget=400), Player("b", budget=20)
    recs = play_pairs(g, a, b, [o.state for o in ops], first_pair=7, engine="reference")
    assert [(r.opening, r.a_is_max) for r in recs] == [(7, True), (7, False), (8, True),
                                                       (8, False), (9, True), (9, False)]
    assert all(r.ending == "terminal" and r.result in (0, 0.5, 1) for r in recs)
    assert all(len(r.a_nodes) == len(r.a_depths) and max(r.a_nodes) <= 400 for r in recs)


def test_openings_are_distinct_reproducible_and_refused_when_too_few():
    g = TicTacToe()
    a, b = random_openings(g, 2, 20, seed=1), random_openings(g, 2, 20, seed=1)
    assert [o.moves for o in a] == [o.moves for o in b]
    assert len({g.hash_key(o.state) for o in a}) == 20
    assert all(len(o.moves) == 2 for o in a) and a[0].text == " ".join(map(str, a[0].moves))
    with pytest.raises(InvalidParameterError, match="distinct accepted openings"):
        random_openings(g, 1, 10, seed=1)            # only 9 positions after one move
    with pytest.raises(InvalidParameterError, match="distinct accepted openings"):
        random_openings(g, 2, 2, seed=1, accept=lambda s: False)


KQ_VS_K = "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1"


def test_a_player_ahead_does_not_walk_into_a_repetition():
    g = Chess(KQ_VS_K)
    s = g.initial_state()
    p = Player("p", "alphabeta", "captures", budget=300)
    c = MoveChoice(g.legal_moves(s)[0], 2, 10, 900.0)        # White (MAX) judges itself ahead
    third = {g.hash_key(g.play(s, c.move))}
    alt = avoid_repetition(g, s, c, p, third, engine="reference")
    assert alt.move != c.move and g.hash_key(g.play(s, alt.move)) not in third
    assert alt.nodes > c.nodes and alt.value is not None
    # not ahead: the repetition (a draw) is kept
    even = MoveChoice(c.move, 2, 10, 0.0)
    assert avoid_repetition(g, s, even, p, third, engine="reference") is even
    # not a repetition: unchanged
    assert avoid_repetition(g, s, c, p, set(), engine="reference") is c


def test_threefold_repetition_ends_a_game_as_a_draw():
    # two kings shuffling: a weak budget; max_plies high, so only repetition can end it
    g = Chess("8/8/4k3/8/8/4K3/8/8 w - - 0 1")
    p = Player("p", "alphabeta", "natural", budget=30)
    r = play_game(g, g.initial_state(), p, p, True, max_plies=200, engine="reference")
    assert r.ending in ("repetition", "terminal") and r.result == 0.5
    assert r.ending == "repetition" or r.plies < 200


def test_max_plies_adjudicates_a_draw():
    g = Chess()
    p = Player("p", "alphabeta", "natural", budget=25)
    r = play_game(g, g.initial_state(), p, p, True, max_plies=4, engine="reference")
    assert (r.ending, r.plies, r.result) == ("max_plies", 4, 0.5)


def test_bad_pairs_input():
    g = TicTacToe()
    with pytest.raises(InvalidParameterError, match="at least one opening"):
        play_pairs(g, Player("a"), Player("b"), [])


def test_trade_off_null_move_runs_compiled_node_for_node():
    """The pass the trade-off study adds to Connect Four reaches the compiled engine: the same
    nodes, value, move and null-move count as the reference (it used to be refused there)."""
    g = connect4_game("")
    pr = Pruning(null_move=NullMove(2))
    fired = 0
    for st in [x for x in sample_states(g, 6, 4, 11) if not g.is_terminal(x)]:
        v = FromState(g, st)
        a = search(v, "alphabeta", "static", depth=6, engine="reference", pruning=pr)
        b = search(v, "alphabeta", "static", depth=6, engine="compiled", pruning=pr)
        assert (a.nodes, a.value, a.best_move, a.extra.get("pruned")) == \
            (b.nodes, b.value, b.best_move, b.extra.get("pruned"))
        fired += a.extra["pruned"]["null_move"]
    assert fired > 0


@pytest.mark.parametrize("preset", ["unsound_matches", "chess_matches"])
def test_every_match_player_of_the_presets_runs_on_the_compiled_engine(preset):
    """engine="auto" picks the compiled engine for both players of every pairing (checked by
    compiled_engine.supports, which api.search consults, on the ordering the engine session
    searches with; nothing is compiled here); both presets play engine-grade."""
    from searchlab.algorithms import compiled_engine
    from searchlab.algorithms.engine_session import engine_ordering
    from searchlab.algorithms.pruning import ProbCut
    from searchlab.experiment import api
    from searchlab.studies.tradeoff.tradeoff_config import selected_domains
    from searchlab.studies.tradeoff.tradeoff_measure import match_game, match_players

    cfg = api.tradeoff_config(api.compose(preset))
    by_label = {t.label: t for t in cfg.techniques}
    checked = 0
    for d in selected_domains(cfg):
        dconf = getattr(cfg.domains, d)
        game = match_game(d, dconf)
        view = FromState(game, game.initial_state())
        for label in dconf.match.techniques:
            a, b = match_players(d, dconf, by_label[label], {(d, d): ProbCut()})
            for p in (a, b):
                assert (p.play, p.persist) == ("engine", True)
                order = engine_ordering(p.ordering, game)
                assert compiled_engine.supports(view, p.algorithm, order, p.pruning, 3), \
                    (d, label, p.name)
                checked += 1
    assert checked == 2 * (11 if preset == "unsound_matches" else 2)


def test_a_chess_game_ends_at_the_third_occurrence_not_at_a_twofold_one(monkeypatch):
    # chess states carry their history; the game loop re-roots them as they are played, so the
    # start position's second occurrence (ply 4) does not end the game, its third (ply 8) does
    g = Chess()
    script = iter(["g1f3", "g8f6", "f3g1", "f6g8"] * 2 + ["e2e4"])
    monkeypatch.setattr("searchlab.play.match.choose_move",
                        lambda game, state, player, engine="auto": MoveChoice(next(script), 1, 1, 0.0))
    start = g.initial_state()
    twice = start
    for m in ["g1f3", "g8f6", "f3g1", "f6g8"]:
        twice = g.play(twice, m)
    assert g.is_terminal(twice)                      # twofold since the (unrooted) start: a draw
    a, b = Player("a", play="fresh-per-depth"), Player("b", play="fresh-per-depth")
    rec = play_game(g, start, a, b, a_is_max=True)
    assert (rec.plies, rec.ending, rec.result) == (8, "repetition", 0.5)
