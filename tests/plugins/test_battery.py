"""searchlab.testing, the public conformance battery: it passes on every registered game and
on the worked example's plug-in, and it fails on games that break a convention."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from searchlab.algorithms import ordering_registry
from searchlab.algorithms.pruning import Beam, NullMove, Pruning, Technique
from searchlab.games.registry import registry
from searchlab.testing import ConformanceError, check_game, check_ordering, check_pruning
from searchlab.trees import IIDTree, IncrementalTree

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "data" / "plugins"))
from nim_game import Nim  # noqa: E402


@pytest.mark.parametrize("name", list(registry()))
def test_every_registered_game_conforms(name):
    game = registry()[name].start()
    rep = check_game(game, depth=2, playouts=3)
    assert rep.counts["positions"] > 0 and rep.counts["searches"] >= 13
    if game.capabilities.compiled:
        assert rep.counts["compiled searches"] > 0     # node for node against the reference


def test_the_plugin_example_conforms():
    rep = check_game(Nim((1, 2, 3)), depth=3)
    assert rep.counts["terminal positions"] == 8 and "compiled searches" not in rep.counts


class _Mutating(Nim):
    """play() changes the state it is given (a list, not a value)."""

    def initial_state(self):
        return [list(self.heaps), True]

    def play(self, state, move):
        state[0][move[0]] -= move[1]
        state[1] = not state[1]
        return state


class _BadKeys(Nim):
    def hash_key(self, state):
        return id(state) & 0xFFFF


class _WrongSign(Nim):
    def utility(self, state):
        return 1.0


class _MinFirst(Nim):
    def max_to_move(self, state):
        return not state[1]


@pytest.mark.parametrize("game, check", [
    (_Mutating((1, 2)), "states"),
    (_BadKeys((1, 2, 3)), "hash keys"),
    (_MinFirst((1, 2)), "conventions"),
])
def test_a_broken_game_fails_the_battery(game, check):
    with pytest.raises(ConformanceError, match=check):
        check_game(game, depth=2)


def test_a_wrong_utility_is_still_a_consistent_game():
    # a constant utility is a legal (if dull) game: the battery checks conventions it can
    # state, not the rules' intent
    check_game(_WrongSign((1, 2)), depth=2)


def test_sound_orderings_return_minimax_values():
    games = [IncrementalTree(3, 5, seed=s) for s in range(3)] + [Nim((1, 2, 3))]
    for o in ("natural", "random", "id+tt+killer+history", "static", "perfect"):
        assert check_ordering(o, games, depth=3).counts["searches"] == 16
    # an ordering the tree cannot take is a failure naming why
    with pytest.raises(ConformanceError, match="supported: .*no static values"):
        check_ordering("id+tt", [IIDTree(3, 4, seed=1)])


def test_pruning_checks():
    games = [IncrementalTree(3, 5, seed=s) for s in range(3)]
    assert check_pruning(Pruning(), games, depth=3, sound=True).counts["searches"] == 3
    check_pruning(Pruning(beam=Beam(width=2)), games, depth=3)      # unsound: it runs
    with pytest.raises(ConformanceError, match="sound"):   # a beam of one move is not sound
        check_pruning(Pruning(beam=Beam(width=1)), games, depth=4, sound=True)


def test_the_battery_reads_the_registries(monkeypatch):
    from searchlab.games.tictactoe import TicTacToe
    game = TicTacToe()
    rep = check_ordering("tt+killer+history", [game], depth=9)
    assert rep.counts["compiled searches"] == 2           # declared compiled: compared node for node
    assert "kernel searches" in check_ordering("random", [IncrementalTree(3, 4, seed=1)]).counts
    # a registry entry declaring a compiled twin that does not exist is caught
    fake = ordering_registry.Component("perfect", "base", "x", kernel="ORD_PERFECT",
                                       compiled="B_NATURAL", oracle=True)
    monkeypatch.setitem(ordering_registry.COMPONENTS, "perfect", fake)
    with pytest.raises(ConformanceError, match="registry|compiled engine"):
        check_ordering("perfect", [game], depth=9)


def test_check_pruning_takes_the_record():
    games = [IncrementalTree(3, 5, seed=s) for s in range(2)]
    assert check_pruning(Technique(), games).counts["searches"] == 2      # sound by its family
    check_pruning(Technique("null_r2", null_move=NullMove(2)), games)       # unsound: it runs
    with pytest.raises(ConformanceError, match="record"):
        check_pruning(Technique(label="x", family="beam", null_move=NullMove(2)), games)
