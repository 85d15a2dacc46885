"""Depth 0 for every ordering on both engines: one search of the root, which is a horizon node,
so one node (two for MTD(f), whose two null-window passes each visit the root) and the root's
static value. Iterative deepening ("id") to depth 0 has no shallower horizon to deepen from: its
one iteration is the depth-0 search (it used to run no iteration: 0 nodes, value 0.0)."""

from __future__ import annotations

import pytest

from searchlab import search
from searchlab.algorithms import compiled_engine
from searchlab.algorithms.chance_search import search_chance
from searchlab.algorithms.ordering import BASE_ORDERINGS, DYNAMIC_COMPONENTS, SHORTHANDS
from searchlab.games.chess_game import Chess
from searchlab.games.pig import Pig

#: white a queen up: a root static value far from 0.0, what the broken "id" returned
FEN = "rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3"
GAME = Chess(FEN)
ORDERINGS = sorted({*BASE_ORDERINGS, *DYNAMIC_COMPONENTS, *SHORTHANDS, *GAME.move_orderings(),
                    *(f"id+{c}" for c in (*BASE_ORDERINGS, *DYNAMIC_COMPONENTS[1:], "captures")),
                    "id+tt+killer+history+captures", "staged+captures"})


@pytest.mark.parametrize("algorithm", ["alphabeta", "minimax", "pvs", "mtdf"])
@pytest.mark.parametrize("ordering", ORDERINGS)
def test_depth_zero_is_one_node_and_the_static_value_on_both_engines(ordering, algorithm):
    static = GAME.evaluate(GAME.initial_state())
    assert static > 500                                          # the queen: not 0.0
    ref = search(GAME, algorithm, ordering, depth=0, engine="reference")
    one = 2 if algorithm == "mtdf" else 1
    assert (ref.status, ref.value, ref.nodes, ref.leaves, ref.iterations) == \
        ("ok", static, one, one, (one,)), ordering
    if compiled_engine.supports(GAME, algorithm, ordering, None, 0):
        got = search(GAME, algorithm, ordering, depth=0, engine="compiled")
        assert got.counts() == ref.counts() and got.value == ref.value
        assert got.iterations == ref.iterations
    elif "id" in ordering and ordering != "id+perfect" and ordering != "id+worst":
        pytest.fail(f"the compiled engine does not run {ordering}: the test would miss it")


@pytest.mark.parametrize("aspiration", [None, 25.0])
def test_iterative_deepening_to_depth_zero_then_one(aspiration):
    """Depth 1 with "id" is unchanged (one iteration, to depth 1), and a depth-0 search with
    an aspiration window needs no window (no previous iteration)."""
    for depth in (0, 1):
        ref = search(GAME, "alphabeta", "id+tt", depth=depth, engine="reference", aspiration=aspiration)
        plain = search(GAME, "alphabeta", "tt", depth=depth, engine="reference")
        assert ref.value == plain.value and len(ref.iterations) == 1
        got = search(GAME, "alphabeta", "id+tt", depth=depth, engine="compiled", aspiration=aspiration)
        assert got.counts() == ref.counts() and got.value == ref.value


def test_chance_search_deepens_to_depth_zero_as_one_search():
    g = Pig(winscore=20)
    plain = search_chance(g, "star2", "natural", depth=0)
    deep = search_chance(g, "star2", "natural", depth=0, iterative=True)
    assert deep.nodes == plain.nodes == 1 and deep.value == plain.value
