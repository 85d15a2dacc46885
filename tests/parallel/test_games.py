"""The parallel simulator and the real threads on games (searchlab/parallel/game_simulation.py,
_sim_kernel.py, real_games.py): at p = 1 every algorithm is the compiled engine's alpha-beta
with the same ordering, node for node; every simulated or real parallel search returns the
sequential value; on a synthetic tree the policy route (split_plies = d) equals the natural
route; same inputs, same numbers; compiled = interpreted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from searchlab.algorithms.ordering_registry import describe
from searchlab.contracts.compiled import compiled_game
from searchlab.algorithms.compiled.specialise import cache_dir
from searchlab.algorithms.search_api import search
from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.games.connect4 import ConnectFour
from searchlab.games.othello import Othello
from searchlab.games.pig import Pig
from searchlab.games.tictactoe import TicTacToe
from searchlab.parallel import ALGORITHMS, Costs, simulate
from searchlab.parallel import game_simulation as GS
from searchlab.parallel.real_games import parallel_search
from searchlab.trees import IIDTree, OrderedTree
from tests.nojit import run_without_jit
from tests.parallel.rows import plain_row

ROOT = Path(__file__).resolve().parents[2]
FREE = Costs(split=0.0, message=0.0, tt=0.0)
#: (game, depth, orderings): the game's own order, random, static, killers/history, the table
CASES = [
    (ConnectFour(), 6, ("natural", "centre", "random", "centre+killer+history", "tt",
                        "centre+tt+killer+history", "history+static+tt")),
    (ConnectFour("4453"), 7, ("centre+tt+killer", "tt+history")),
    (Othello(), 5, ("natural", "corners", "corners+tt+killer+history", "static+tt")),
]


def _needs_tt(alg: str, ordering: str) -> bool:
    return alg in ("abdada", "lazy-smp") and not describe(ordering).has("tt")


@pytest.mark.parametrize("game,depth,orderings", CASES, ids=lambda x: getattr(x, "name", None))
def test_p1_is_the_compiled_alphabeta(game, depth, orderings):
    for ordering in orderings:
        ref = search(game, "alphabeta", ordering, depth=depth, engine="compiled", tt_size=1 << 12,
                     ordering_seed=3)
        for alg in ALGORITHMS:
            if _needs_tt(alg, ordering):
                continue
            r = simulate(game, alg, 1, depth=depth, ordering=ordering, tt_bits=12,
                         ordering_seed=3)
            assert (r.nodes, r.leaves, r.value, r.best_move) == \
                (ref.nodes, ref.leaves, ref.value, ref.best_move), (game.name, ordering, alg)
            assert r.seq_nodes == ref.nodes and r.search_overhead == 0.0 and r.splits == 0
            assert r.tt_probes == ref.tt_probes and r.tt_cutoffs == ref.tt_cutoffs
            assert r.speedup == 1.0 and r.idle == 0.0


@pytest.mark.parametrize("game,depth,orderings", CASES, ids=lambda x: getattr(x, "name", None))
def test_value_is_the_sequential_value(game, depth, orderings):
    exact = search(game, "minimax", depth=depth, engine="compiled").value
    for ordering in orderings[-2:]:
        for alg in ALGORITHMS:
            if _needs_tt(alg, ordering):
                continue
            for p in (2, 3, 8, 64):
                for costs, min_split, tt_bits in ((Costs(), 2, 12), (FREE, 1, 4)):
                    r = simulate(game, alg, p, depth=depth, ordering=ordering, costs=costs,
                                 min_split=min_split, tt_bits=tt_bits)
                    assert r.status == "ok" and r.value == exact, (game.name, ordering, alg, p)
                    assert sum(r.per_processor_nodes) == r.nodes
                    assert r.nodes <= p * (r.time / costs.node + 1)
                    assert 0.0 <= r.idle_fraction <= 1.0


def test_parallel_work_happens_on_games():
    g, d, o = ConnectFour(), 8, "centre+tt+killer+history"
    runs = {alg: simulate(g, alg, 8, depth=d, ordering=o) for alg in ALGORITHMS}
    assert all(r.speedup > 1.5 for r in runs.values()), {a: r.speedup for a, r in runs.items()}
    assert runs["ybwc"].splits > runs["pv-split"].splits > 0
    assert runs["abdada"].deferred > 0 and runs["lazy-smp"].tt_cutoffs > 0
    # YBWC splitting only at the top two plies: fewer split points, the same value
    top = simulate(g, "ybwc", 8, depth=d, ordering=o, split_plies=2)
    assert 0 < top.splits < runs["ybwc"].splits and top.value == runs["ybwc"].value


@pytest.mark.parametrize("trees", [
    [OrderedTree(4, 5, seed=2, p=0.6), OrderedTree(3, 6, seed=4, p=1.0)],
    pytest.param([IIDTree(3, 5, seed=1), IIDTree(2, 7, seed=3, levels=3)], marks=pytest.mark.slow)])
def test_policy_route_equals_natural_route(trees):
    """Natural order, no table: a tree run as a game under the policy "natural" (split_plies = d
    routes it there: game_simulation.policy) and run in natural order (plain_policy, the readable
    simulator's search) give the same result, field for field (one model by default: each
    model's primitives are one more compilation)."""
    for tree in trees:
        for alg in ("ybwc", "pv-split"):
            for p in (1, 2, 5, 32):
                for costs, min_split in ((Costs(), 2), (FREE, 1)):
                    a = simulate(tree, alg, p, costs=costs, min_split=min_split)
                    b = simulate(tree, alg, p, costs=costs, min_split=min_split,
                                 split_plies=tree.d)
                    assert a == b, (tree.name, alg, p)
                    assert a.per_processor_nodes == b.per_processor_nodes


def test_one_kernel_copy_per_game():
    """One simulator kernel, copied per game's primitives into the compiled engine's on-disk
    cache: two trees of one model share a copy, a game has its own."""
    a = GS.kernel(compiled_game(IIDTree(2, 3, seed=1)))
    b = GS.kernel(compiled_game(IIDTree(3, 2, seed=5, levels=2)))
    c = GS.kernel(compiled_game(TicTacToe()))
    assert a is b and a is not c
    assert Path(a.__file__).parent == cache_dir() == Path(c.__file__).parent
    assert a.play is compiled_game(IIDTree(2, 2)).prims.play


def test_trees_under_a_policy():
    tree = OrderedTree(4, 6, seed=5, p=0.5)
    exact = search(tree, "minimax").value
    for ordering in ("killer+history", "tt+random", "history+tt"):
        ref = search(tree, "alphabeta", ordering, engine="compiled", tt_size=1 << 10)
        for alg in ALGORITHMS:
            if _needs_tt(alg, ordering):
                continue
            r = simulate(tree, alg, 1, ordering=ordering, tt_bits=10)
            assert (r.nodes, r.value) == (ref.nodes, ref.value), (ordering, alg)
            assert simulate(tree, alg, 6, ordering=ordering).value == exact


def test_deterministic_on_games():
    g = Othello()
    for alg in ALGORITHMS:
        a = simulate(g, alg, 7, depth=4, ordering="corners+tt+killer+history")
        b = simulate(g, alg, 7, depth=4, ordering="corners+tt+killer+history")
        assert a == b and a.per_processor_nodes == b.per_processor_nodes


def _rows() -> list[dict]:
    """Every algorithm on tic-tac-toe (depth 4) at p = 3, as plain rows (wall time dropped)."""
    out = []
    g = TicTacToe()
    for alg in ALGORITHMS:
        out.append(plain_row(simulate(g, alg, 3, depth=4, ordering="tt+killer+history", tt_bits=5,
                                      min_split=1, costs=Costs(split=3.0, message=1.0))))
    return out


def test_interpreted_equals_compiled():
    code = "import json, sys; from tests.parallel.test_games import _rows; json.dump(_rows(), sys.stdout)"
    interpreted = json.loads(run_without_jit(code))
    assert interpreted == json.loads(json.dumps(_rows()))
    assert len(interpreted) == 4 and all(r["nodes"] > 0 for r in interpreted)


@pytest.mark.parametrize("game,depth,ordering", [
    (ConnectFour(), 8, "centre+tt+killer+history"), (ConnectFour("44"), 7, "centre+killer"),
    (Othello(), 6, "corners+tt+killer+history")], ids=lambda x: getattr(x, "name", None))
def test_real_threads(game, depth, ordering):
    ref = search(game, "alphabeta", ordering, depth=depth, engine="compiled", tt_size=1 << 14)
    for alg in ("ybwc", "lazy-smp", "abdada"):
        if _needs_tt(alg, ordering):
            continue
        one = parallel_search(game, alg, 1, depth=depth, ordering=ordering, tt_bits=14,
                              split_plies=3)
        assert (one.nodes, one.value, one.best_move) == (ref.nodes, ref.value, ref.best_move)
        for _ in range(2):
            two = parallel_search(game, alg, 2, depth=depth, ordering=ordering, split_plies=3)
            assert two.value == ref.value, (alg, two)
            assert sum(two.per_worker_nodes) == two.nodes > 0
            if alg == "ybwc":
                assert two.splits > 0 and two.best_move == ref.best_move


def test_bad_input_on_games():
    g = ConnectFour()
    with pytest.raises(InvalidParameterError, match="ordering must include tt"):
        simulate(g, "lazy-smp", 2, depth=4, ordering="centre")
    with pytest.raises(InvalidParameterError, match="depth must"):
        simulate(g, "ybwc", 2)
    with pytest.raises(InvalidParameterError, match="depth must"):
        simulate(g, "ybwc", 2, depth=43)
    with pytest.raises(UnsupportedError, match="'id'"):
        simulate(g, "ybwc", 2, depth=4, ordering="id+centre")
    with pytest.raises(UnsupportedError, match="perfect"):
        simulate(g, "ybwc", 2, depth=4, ordering="perfect")
    with pytest.raises(UnsupportedError, match="natural order only"):
        simulate(g, "ybwc", 2, depth=4, engine="reference")
    with pytest.raises(InvalidParameterError, match="split_plies"):
        simulate(g, "ybwc", 2, depth=4, split_plies=0)
    with pytest.raises(InvalidParameterError, match="ordering component"):
        simulate(g, "ybwc", 2, depth=4, ordering="corners")
    with pytest.raises(UnsupportedError, match="compiled primitives"):
        simulate(Pig(), "ybwc", 2, depth=4)
    with pytest.raises(InvalidParameterError, match="algorithm"):
        parallel_search(g, "pv-split", 2, depth=4)
    with pytest.raises(InvalidParameterError, match="workers"):
        parallel_search(g, "ybwc", 0, depth=4)
    with pytest.raises(InvalidParameterError, match="split_plies"):
        parallel_search(g, "ybwc", 2, depth=4, split_plies=5)
