"""MCTS players in the match runner: colours swapped, node and time budgets applied, replayable."""

from __future__ import annotations

import pytest

from searchlab import InvalidParameterError
from searchlab.algorithms.mcts import MCTSOptions
from searchlab.games.hex import Hex
from searchlab.play.match import Player, choose_mcts, mcts_seed, run_match
from searchlab.play.openings import random_openings

AB = Player("ab", "alphabeta", "id+tt+killer+history+adjacent", budget=400)
MC = Player("mcts", "mcts", budget=400, mcts=MCTSOptions(), seed=5)


def test_mcts_player_against_alphabeta_swaps_colours_and_keeps_its_budget():
    g = Hex(4)
    openings = [o.state for o in random_openings(g, 1, 2, seed=1)]
    r = run_match(g, AB, MC, openings)
    assert r.games == 4 and [rec.a_is_max for rec in r.records] == [True, False, True, False]
    assert [rec.opening for rec in r.records] == [0, 0, 1, 1]
    assert r.b_play == "mcts, 400 nodes/move"
    # every MCTS move: within the budget plus less than one playout (at most 16 cells on 4x4)
    assert all(400 <= n < 400 + 16 for rec in r.records for n in rec.b_nodes)
    assert all(n <= 400 for rec in r.records for n in rec.a_nodes)
    again = run_match(g, AB, MC, openings)
    assert again.pairs == r.pairs and [x.b_nodes for x in again.records] == [x.b_nodes for x in r.records]


def test_mcts_move_seed_differs_by_pair_colour_and_ply():
    seeds = {mcts_seed(5, p, c, k) for p in range(3) for c in (True, False) for k in range(4)}
    assert len(seeds) == 24 and all(0 <= s < 2**63 for s in seeds)


def test_mcts_time_budget_per_move():
    g = Hex(7)
    p = Player("mcts-cpu", "mcts", budget=10**7, budget_mode="cpu", cpu_seconds=0.05)
    c = choose_mcts(g, g.initial_state(), p, seed=1)
    assert 0 < c.nodes < 10**7
    assert p.describe() == "mcts, 0.05 s CPU/move (thread time), cap 10000000 nodes"


@pytest.mark.parametrize("player,match", [
    (Player("m", "mcts", mcts=MCTSOptions(exploration=-1.0)), r"player m: exploration must be"),
    (Player("m", "mcts", budget_mode="cpu"), "player m: an MCTS player's budget_mode"),
    (Player("m", "alphabeta", mcts=MCTSOptions()), "mcts options need algorithm='mcts'"),
])
def test_bad_mcts_player(player, match):
    g = Hex(3)
    with pytest.raises(InvalidParameterError, match=match):
        run_match(g, player, AB, [g.initial_state()])
