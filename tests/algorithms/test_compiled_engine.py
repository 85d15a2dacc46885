"""The compiled engine against the reference, node for node, on Connect Four, Othello and
tic-tac-toe: every algorithm, base order, dynamic composition, aspiration, TT size, node budget
and pruning technique, over seeded positions (a larger sweep under -m slow)."""

from __future__ import annotations

import pytest

from searchlab import IIDTree, IncrementalTree, OrderedTree, UnsupportedError, search
from searchlab.algorithms.pruning import (Beam, Futility, LateMoveReductions, NullMove, ProbCut,
                                          Pruning)
from searchlab.algorithms.calibration import fit_probcut, sample_states
from searchlab.algorithms.compiled_engine import supports
from searchlab.games.connect4 import ConnectFour
from searchlab.games.hex import Hex
from searchlab.games.othello import Othello
from searchlab.games.position import FromState
from tests.algorithms.compiled_cases import (ALGORITHMS, DEPTHS, ORDERINGS, TECHNIQUES, both,
                                             positions)
from tests.nojit import run_without_jit


def _check(game, algorithm, ordering, **kw):
    ref, com = both(game, algorithm, ordering, **kw)
    assert com == ref, (game.name, algorithm, ordering, kw)
    return ref


@pytest.mark.parametrize("name", sorted(ORDERINGS))
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_node_identical_on_every_ordering(name, algorithm):
    depth = DEPTHS[name]
    for k, game in enumerate(positions(name, 1, seed=11)):
        for ordering in ORDERINGS[name]:
            _check(game, algorithm, ordering, depth=depth, ordering_seed=k)


@pytest.mark.parametrize("name", ["connect4", "othello"])
def test_aspiration_small_tables_and_budgets(name):
    depth = DEPTHS[name]
    own = ORDERINGS[name][3]
    for game in positions(name, 2, seed=5):
        for algorithm in ("alphabeta", "pvs", "alphabeta-failhard", "mtdf"):
            _check(game, algorithm, f"id+tt+killer+history+{own}", depth=depth, aspiration=0.02)
            _check(game, algorithm, "tt+history", depth=depth, tt_size=16)
        full = _check(game, "pvs", "id+tt+killer", depth=depth, aspiration=0.01)
        for budget in (1, 7, full["nodes"] // 2, full["nodes"]):
            r = _check(game, "pvs", "id+tt+killer", depth=depth, max_nodes=budget,
                       aspiration=0.01)
            assert r["status"] == ("ok" if budget == full["nodes"] else "aborted")


@pytest.mark.parametrize("technique", sorted(TECHNIQUES))
def test_pruning_node_identical(technique):
    cfg = TECHNIQUES[technique]
    fired = 0
    for name, depth in (("connect4", 5), ("othello", 4)):
        for game in positions(name, 1, seed=3):
            for ordering in ("static", "id+tt+killer+history"):
                ref = _check(game, "alphabeta", ordering, depth=depth, pruning=cfg)
                fired += sum(ref["extra"]["pruned"].values())
    assert fired > 0 or technique.startswith("futility")


def test_full_tictactoe_and_auto_dispatch():
    """Tic-tac-toe to the end of the game, and engine='auto' choosing the compiled engine."""
    ref, com = both(ConnectFour("4455"), "alphabeta", "id+tt+killer+history+centre", depth=6)
    assert com == ref
    ttt = positions("tictactoe", 1, seed=0)[0]
    for algorithm in ALGORITHMS:
        _check(ttt, algorithm, "tt+killer")
    r = search(ConnectFour(), "alphabeta", "centre", depth=3)
    assert r.engine == "compiled"
    assert search(ConnectFour(), "alphabeta", "centre", depth=3, trace=None,
                  engine="reference").engine == "reference"


def test_unsupported_combinations_fall_back_or_raise():
    g = Othello()
    assert not supports(g, "alphabeta", "perfect")
    assert search(g, "alphabeta", "perfect", depth=1).engine == "reference"
    with pytest.raises(UnsupportedError, match="no compiled engine"):
        search(g, "alphabeta", "worst", depth=1, engine="compiled")
    # the reference engine's own errors, unchanged, before any work
    with pytest.raises(UnsupportedError, match="static ordering needs static values"):
        search(IIDTree(2, 3), "pvs", "static", engine="compiled")
    # the reference engine's own errors come first, unchanged
    with pytest.raises(UnsupportedError, match="null_move"):
        search(g, "alphabeta", "natural", depth=2, engine="compiled",
               pruning=Pruning(null_move=NullMove()))


def test_same_under_numba_disable_jit():
    """The compiled engine's code run as plain Python (NUMBA_DISABLE_JIT=1) gives the same
    counts: the JIT changes nothing but speed."""
    code = (
        "from tests.algorithms.compiled_cases import both, positions, TECHNIQUES\n"
        "for name, d, o in (('connect4', 3, 'id+tt+killer+history+centre'),"
        " ('othello', 2, 'tt+history+corners'), ('tictactoe', 4, 'random')):\n"
        "    for alg in ('alphabeta', 'pvs', 'mtdf', 'minimax'):\n"
        "        g = positions(name, 1, seed=2)[0]\n"
        "        ref, com = both(g, alg, o, depth=d)\n"
        "        assert ref == com, (name, alg)\n"
        "g = positions('connect4', 1, seed=4)[0]\n"
        "ref, com = both(g, 'alphabeta', 'static', depth=4, pruning=TECHNIQUES['all'])\n"
        "assert ref == com\n"
        "print('ok')\n")
    assert run_without_jit(code).strip() == "ok"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ORDERINGS))
def test_sweep_many_positions(name):
    depth = DEPTHS[name]
    for k, game in enumerate(positions(name, 12, seed=1000)):
        for algorithm in ALGORITHMS:
            for ordering in ORDERINGS[name]:
                _check(game, algorithm, ordering, depth=depth, ordering_seed=k)
        if name != "tictactoe":
            for cfg in TECHNIQUES.values():
                _check(game, "alphabeta", "id+tt+killer+history", depth=depth + 1, pruning=cfg)


TREE_TECHNIQUES = {
    "null_move R=2": Pruning(null_move=NullMove(2)),
    "null_move R=3 verified": Pruning(null_move=NullMove(3, verify=True)),
    "null_move adaptive": Pruning(null_move=NullMove(2, adaptive_depth=4)),
    "lmr log": Pruning(lmr=LateMoveReductions(after=1, schedule="log")),
    "futility+razoring": Pruning(futility=Futility(0.2, razor_margin=0.5)),
    "beam per ply": Pruning(beam=Beam(widths=(6, 4, 3, 2))),
    "probcut": Pruning(probcut=ProbCut(1, 3, 1.0, 0.0, 0.3, 1.0)),
}


@pytest.mark.parametrize("seed", [0, 1])
def test_incremental_tree_dynamic_policies_and_pruning(seed):
    """The incremental tree through the same interface: dynamic orders, every algorithm, and
    every technique including null move (the games here have none)."""
    t = IncrementalTree(5, 6, seed, decay=0.9, correlation=0.5)
    for algorithm in ALGORITHMS:
        for ordering in ("tt+killer+history+static", "id+tt", "killer+random"):
            _check(t, algorithm, ordering, ordering_seed=seed)
    for cfg in TREE_TECHNIQUES.values():
        for ordering in ("static", "id+tt+killer+history+static"):
            _check(t, "alphabeta", ordering, pruning=cfg)
    # from a position below the root (the row holds the absolute ply)
    view = FromState(t, t.play(t.play(t.initial_state(), 2), 1))
    _check(view, "pvs", "id+tt+killer+history", depth=4)
    # the kernel keeps the orders it has; the compiled engine takes the dynamic ones
    assert search(t, "alphabeta", "static").engine == "kernel"
    assert search(t, "alphabeta", "tt+static").engine == "compiled"


def test_iid_and_ordered_trees_dynamic_policies():
    trees = [IIDTree(4, 5, 1), IIDTree(3, 6, 2, levels=5), IIDTree(3, 6, 4, win_prob=0.4),
             OrderedTree(4, 5, 3, p=0.5),
             OrderedTree(5, 4, 5, p=0.1)]
    for t in trees:
        for algorithm in ALGORITHMS:
            for ordering in ("tt+killer+history", "history+tt+random"):
                _check(t, algorithm, ordering, ordering_seed=3)
        assert search(t, "pvs", "natural").engine == "compiled"
        assert search(t, "alphabeta", "natural").engine == "kernel"


def test_probcut_with_a_fitted_model():
    g = ConnectFour()
    pc = fit_probcut(g, sample_states(g, 8, 12, seed=3), 1, 3, threshold=1.0)
    fired = 0
    for s in sample_states(g, 6, 2, seed=9):
        ref = _check(FromState(g, s), "alphabeta", "id+tt+killer+history+centre", depth=6,
                     pruning=Pruning(probcut=pc))
        fired += ref["extra"]["pruned"].get("probcut", 0)
    assert fired > 0


def test_hex_through_the_same_interface():
    g = Hex(4)
    for s in sample_states(g, 2, 2, seed=4):
        for algorithm in ALGORITHMS:
            for ordering in ("adjacent", "id+tt+killer+history+adjacent", "random",
                             "id+tt+killer+history+static", "killer+history+static"):
                _check(FromState(g, s), algorithm, ordering, depth=4)
