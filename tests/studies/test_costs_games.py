"""Cost accounting in the game domains (studies/ordering/ordering_costs.py): static ordering's evaluations are
counted as cost, the game's own order costs none, and the positions are named."""

from __future__ import annotations

from searchlab.studies.ordering.ordering_costs import GAME_POLICIES, game_positions, measure_costs
from searchlab.games.connect4 import ConnectFour


def test_static_ordering_pays_for_its_evaluations_in_connect_four():
    g = ConnectFour("4453")
    nat, static, centre = (measure_costs(g, p, 4) for p in ("natural", "static", "centre"))
    assert nat["value"] == static["value"] == centre["value"]
    assert static["ordering_evaluations"] > 0 and static["cost"] == \
        static["nodes"] + static["ordering_evaluations"]
    assert static["nodes"] < nat["nodes"] and static["cost"] > static["nodes"]
    assert centre["ordering_evaluations"] == nat["ordering_evaluations"] == 0
    assert nat["evaluations"] == nat["leaves"] and nat["cost"] == nat["nodes"]
    tt = measure_costs(g, "id+tt", 4)
    assert tt["tt_probes"] > 0 and tt["value"] == nat["value"]


def test_game_domains_name_their_positions():
    doms = game_positions(small=True)
    assert [d[0] for d in doms] == ["Connect Four d=5 (Test_L2_R1 lines 1-3)",
                                    "Othello d=3 (random_position(12, seed) seeds 0-2)"]
    assert all(len(games) == 3 for _, games, _, _ in doms)
    assert {own for *_, own in doms} == {"centre", "corners"}
    assert all("{own}" not in p.format(own="centre") for p in GAME_POLICIES)
