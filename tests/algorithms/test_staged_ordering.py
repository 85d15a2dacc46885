"""The staged order of chess engines (ordering component ``tactical``, shorthand ``staged`` =
tt+tactical+killer+history): what it parses to and refuses, the order it gives a node (table
move, captures by MVV-LVA, killers, quiet moves by history), and the compiled engine against
the reference node for node on WAC, BK and perft-suite positions."""

from __future__ import annotations

import pytest

from searchlab import search
from searchlab.algorithms.ordering import DynamicOrdering, make_ordering, parse_ordering
from searchlab.algorithms.pruning import LateMoveReductions, NullMove, Pruning, Quiescence
from searchlab.algorithms.tt import TranspositionTable
from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.games.chess_game import Chess
from searchlab.games.connect4 import ConnectFour
from tests.algorithms.compiled_cases import both
from tests.games.test_chess_compiled import POSITIONS, WAC


def test_staged_is_the_four_stages():
    g = Chess()
    assert parse_ordering("staged", g) == ("tt", "tactical", "killer", "history")
    assert parse_ordering("staged+captures", g) == ("tt", "tactical", "killer", "history",
                                                    "captures")
    assert parse_ordering("id+staged", g) == ("id", "tt", "tactical", "killer", "history")
    with pytest.raises(InvalidParameterError, match="twice"):
        parse_ordering("staged+tt", g)


@pytest.mark.parametrize("game, name", [(ConnectFour(), "connect4"), (None, "synthetic")])
def test_refused_without_tactical_moves(game, name):
    with pytest.raises(UnsupportedError) as e:
        parse_ordering("staged", game)
    msg = str(e.value)
    assert "\n" not in msg and "'staged'" in msg and "tactical" in msg
    if game is not None:
        assert game.name in msg
    with pytest.raises(UnsupportedError):
        search(ConnectFour(), "alphabeta", "tt+tactical", depth=3)


def test_config_validation_refuses_staged_on_connect_four():
    from searchlab.experiment.validation import _ordering
    assert _ordering("sweep.ordering", "staged", Chess()) == "staged"
    with pytest.raises(Exception) as e:
        _ordering("sweep.ordering", "staged", ConnectFour())
    assert "sweep.ordering" in str(e.value) and "connect4" in str(e.value)


def test_node_order_is_table_captures_killers_history():
    fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
    g = Chess(fen)
    s = g.initial_state()
    moves = list(g.legal_moves(s))
    caps = list(g.noisy_moves(s))
    # four pawn captures: the bishop's first (least valuable attacker), then the queen's
    assert caps == ["c4f7", "h5h7", "h5f7", "h5e5"]
    table = TranspositionTable(64, values=True)
    order = make_ordering("staged", g, 3, table=table)
    assert isinstance(order, DynamicOrdering)
    quiet = [m for m in moves if m not in caps]
    killer, hist = quiet[5], quiet[7]
    order.killers[0] = [killer]
    order.history[(g.max_to_move(s), hist)] = 9
    tt_move = quiet[3]
    table.store(g.hash_key(s), 3, 0.0, -1e9, 1e9, tt_move)
    got = order.order(s, moves, 0)
    rest = [m for m in quiet if m not in (tt_move, killer, hist)]
    assert got == [tt_move] + caps + [killer, hist] + rest
    # the old composition sorts every move by history first: the captures only break ties
    old = make_ordering("killer+history+captures", g, 3)
    old.killers[0] = [killer]
    old.history[(g.max_to_move(s), hist)] = 9
    assert old.order(s, moves, 0)[:3] == [killer, hist] + caps[:1]
    assert old.order(s, moves, 0)[3:7] == caps[1:] + [m for m in quiet if m not in (killer, hist)][:1]


@pytest.mark.parametrize("algorithm, ordering, depth", [
    ("alphabeta", "staged", 3),
    ("pvs", "id+staged", 3),
    ("alphabeta-failhard", "staged+captures", 3),
    ("mtdf", "staged", 3),
    ("alphabeta", "tactical+history", 3),
])
def test_compiled_matches_reference(algorithm, ordering, depth):
    for k, fen in enumerate(POSITIONS):
        ref, com = both(Chess(fen), algorithm, ordering, depth=depth, ordering_seed=k)
        assert com == ref, (fen, algorithm, ordering)


@pytest.mark.parametrize("pruning", [
    Pruning(null_move=NullMove(), quiescence=Quiescence()),
    Pruning(lmr=LateMoveReductions(after=2, min_depth=2), quiescence=Quiescence(max_depth=4)),
], ids=["null+q", "lmr+q"])
def test_compiled_matches_reference_pruned(pruning):
    for fen in POSITIONS[:6]:
        ref, com = both(Chess(fen), "alphabeta", "id+staged", depth=3, pruning=pruning)
        assert com == ref, fen


def test_budget_aborts_identically():
    ref, com = both(Chess(WAC[0]), "alphabeta", "id+staged", depth=5, max_nodes=2000)
    assert ref["status"] == "aborted" and com == ref
