"""count_tree: the depth-limited tree's nodes and leaves, equal to plain minimax's, counted."""

from __future__ import annotations

import pytest

from searchlab import search
from searchlab.algorithms.tree_count import count_tree
from searchlab.errors import InvalidParameterError, SearchAborted
from searchlab.games.connect4 import ConnectFour
from searchlab.games.hex import Hex
from searchlab.games.othello import Othello
from searchlab.games.tictactoe import TicTacToe


@pytest.mark.parametrize("game, depth", [
    (TicTacToe(""), 9), (TicTacToe("4 0 8"), 3), (TicTacToe("0 3 1 4 2"), 4),  # over: one leaf
    (ConnectFour(""), 6), (ConnectFour("4455443"), 5),       # wins inside the horizon
    (Othello(""), 5), (Othello.from_text("f5d6c3d3c4f4f6f3e6e7d7c5b6"), 4),
    (Hex.from_text("3"), 9), (Hex.from_text("5 c3"), 3),
])
def test_count_equals_minimax(game, depth):
    ref = search(game, "minimax", "natural", depth=depth, engine="reference")
    assert count_tree(game, depth, engine="python") == (ref.nodes, ref.leaves)
    assert count_tree(game, depth, engine="compiled") == (ref.nodes, ref.leaves)


@pytest.mark.parametrize("game, depth", [(ConnectFour(""), 8), (Hex.from_text("7"), 3),
                                         (Othello(""), 7)])
def test_compiled_walk_equals_the_python_count_and_the_compiled_minimax(game, depth):
    # the sizes Compare counts, scaled down: each way agrees node for node
    counted = count_tree(game, depth, engine="compiled")
    assert counted == count_tree(game, depth, engine="python")
    ref = search(game, "minimax", "natural", depth=depth, max_nodes=50_000_000)
    assert ref.status == "ok" and counted == (ref.nodes, ref.leaves)


def test_depth_zero_and_bad_input():
    assert count_tree(TicTacToe(""), 0) == (1, 1)
    with pytest.raises(InvalidParameterError, match="depth"):
        count_tree(TicTacToe(""), -1)
    with pytest.raises(InvalidParameterError, match="max_seconds"):
        count_tree(TicTacToe(""), 2, max_seconds=0)


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_time_limit(engine):
    with pytest.raises(SearchAborted, match="not counted within"):
        count_tree(ConnectFour(""), 14, max_seconds=0.01, engine=engine)
    with pytest.raises(InvalidParameterError, match="engine must be"):
        count_tree(ConnectFour(""), 2, engine="fast")
