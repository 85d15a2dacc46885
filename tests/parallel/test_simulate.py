"""The parallel alpha-beta simulator (searchlab/parallel): every simulated search returns the
sequential minimax value; p = 1 is sequential alpha-beta node for node; same inputs, same
numbers; the compiled run equals the interpreted one (NUMBA_DISABLE_JIT=1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from searchlab.algorithms.search_api import search
from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.games.tictactoe import TicTacToe
from searchlab.parallel import ALGORITHMS, Costs, sequential_nodes, simulate
from searchlab.trees import IIDTree, IncrementalTree, OrderedTree
from tests.nojit import run_without_jit
from tests.parallel.rows import plain_row

ROOT = Path(__file__).resolve().parents[2]
FREE = Costs(split=0.0, message=0.0, tt=0.0)


def trees():
    """(tree, depth) pairs of every model: continuous and discrete i.i.d., ordered at several p,
    incremental searched below its depth."""
    out = []
    for seed in range(4):
        out += [(IIDTree(3, 4, seed=seed), None), (IIDTree(2, 7, seed=seed, levels=3), None),
                (OrderedTree(4, 4, seed=seed, p=0.3), None), (OrderedTree(3, 5, seed=seed, p=1.0), None),
                (IncrementalTree(4, 5, seed=seed), 4)]
    return out


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_value_is_minimax(algorithm):
    for tree, depth in trees():
        exact = search(tree, "minimax", depth=depth).value
        for p in (1, 2, 3, 7, 32):
            for costs, min_split in ((FREE, 1), (Costs(), 2)):
                r = simulate(tree, algorithm, p, depth=depth, costs=costs, min_split=min_split,
                             tt_bits=6)
                assert r.status == "ok"
                assert r.value == exact, (tree.name, algorithm, p, costs)
                assert sum(r.per_processor_nodes) == r.nodes
                # a processor visits at most one node per node_cost of time (visits at 0..time)
                assert r.nodes <= p * (r.time / costs.node + 1)
                assert 0.0 <= r.idle_fraction <= 1.0


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_p1_is_sequential_alphabeta(algorithm):
    for tree, depth in trees():
        ref = search(tree, "alphabeta", "natural", depth=depth)
        r = simulate(tree, algorithm, 1, depth=depth)
        assert (r.nodes, r.leaves, r.value, r.best_move) == (ref.nodes, ref.leaves, ref.value, ref.best_move)
        assert r.seq_nodes == ref.nodes == sequential_nodes(tree, depth)
        assert r.search_overhead == 0.0 and r.splits == 0 and r.idle == 0.0
        if algorithm in ("pv-split", "ybwc"):
            assert r.time == r.seq_time and r.speedup == 1.0
        else:
            # a probe and a store per interior node below the root; the stores of the last step
            # (plies depth-1..1, when the root's value becomes known) end after the search
            interior = ref.nodes - ref.leaves
            assert r.time == ref.nodes + Costs().tt * (2 * (interior - 1) - (r.depth - 1))


def test_reference_engine_agrees_on_p1():
    tree = IIDTree(3, 5, seed=9)
    ref = search(tree, "alphabeta", "natural", engine="reference")
    assert simulate(tree, "ybwc", 1).nodes == ref.nodes


def test_parallel_algorithms_do_their_parallel_work():
    tree = OrderedTree(6, 6, seed=1, p=0.8)
    seq = sequential_nodes(tree)
    for alg in ALGORITHMS:
        r = simulate(tree, alg, 8, seq_nodes=seq)
        assert r.speedup > 1.5, (alg, r.speedup)
    assert simulate(tree, "ybwc", 8).splits > simulate(tree, "pv-split", 8).splits > 0
    assert simulate(tree, "abdada", 8).deferred > 0
    assert simulate(tree, "lazy-smp", 8).tt_cutoffs > 0


def test_deterministic():
    tree = IIDTree(5, 6, seed=3)
    for alg in ALGORITHMS:
        a, b = simulate(tree, alg, 13), simulate(tree, alg, 13)
        assert a == b                    # wall_time is excluded from the comparison
        assert a.per_processor_nodes == b.per_processor_nodes


def test_costs_change_time_not_value():
    tree = IIDTree(4, 6, seed=2)
    cheap = simulate(tree, "ybwc", 8, costs=FREE)
    dear = simulate(tree, "ybwc", 8, costs=Costs(split=50.0, message=20.0))
    assert cheap.value == dear.value
    assert dear.time > cheap.time


def _rows(engine: str = "kernel") -> list[dict]:
    """Every algorithm on one small tree of each model, as plain rows (wall time dropped), by
    the compiled kernel or the readable reference simulator."""
    cases = [(IIDTree(3, 3, seed=1), None), (OrderedTree(3, 3, seed=2, p=0.5), None),
             (IncrementalTree(3, 4, seed=3), 3)]
    out = []
    for tree, depth in cases:
        for alg in ALGORITHMS:
            out.append(plain_row(simulate(tree, alg, 3, depth=depth, tt_bits=3, min_split=1,
                                          costs=Costs(split=3.0, message=1.0), engine=engine)))
    return out


def test_interpreted_equals_compiled():
    """The kernel run as plain Python (NUMBA_DISABLE_JIT=1) gives the compiled kernel's rows and
    the readable reference simulator's, field for field."""
    code = "import json, sys; from tests.parallel.test_simulate import _rows; json.dump(_rows(), sys.stdout)"
    interpreted = json.loads(run_without_jit(code, timeout=300))
    assert interpreted == json.loads(json.dumps(_rows()))
    assert interpreted == json.loads(json.dumps(_rows("reference")))
    assert len(interpreted) == 12


def test_bad_input():
    tree = IIDTree(2, 3)
    with pytest.raises(InvalidParameterError, match="algorithm"):
        simulate(tree, "dts", 2)
    for p in (0, 257, 2.0, True):
        with pytest.raises(InvalidParameterError, match="p must"):
            simulate(tree, "ybwc", p)
    with pytest.raises(InvalidParameterError, match="costs.split"):
        Costs(split=-1.0)
    with pytest.raises(InvalidParameterError, match="costs.node"):
        Costs(node=0.0)
    with pytest.raises(InvalidParameterError, match="tt_bits"):
        simulate(tree, "lazy-smp", 2, tt_bits=0)
    with pytest.raises(UnsupportedError, match="static values"):
        simulate(tree, "ybwc", 2, depth=2)
    with pytest.raises(InvalidParameterError, match="depth must"):     # required on games
        simulate(TicTacToe(), "ybwc", 2)


def test_node_budget():
    tree = IIDTree(4, 7, seed=1)
    r = simulate(tree, "lazy-smp", 4, max_nodes=500)
    assert r.status == "aborted" and r.value is None and r.nodes >= 500


def test_real_lazy_smp_threads():
    from searchlab.parallel.real import lazy_smp_threads
    for seed in range(3):
        tree = OrderedTree(5, 5, seed=seed, p=0.6)
        exact = search(tree, "minimax").value
        one = lazy_smp_threads(tree, 1, tt_bits=10)
        assert (one.value, one.nodes) == (exact, sequential_nodes(tree))
        two = lazy_smp_threads(tree, 2, tt_bits=10)
        assert two.value == exact and two.winner in (0, 1)
        assert sum(two.per_worker_nodes) == two.nodes and two.nodes >= one.nodes / 2
    with pytest.raises(InvalidParameterError, match="workers"):
        lazy_smp_threads(tree, 0)


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_readable_reference_equals_kernel(algorithm):
    """The readable simulator (searchlab/parallel/reference_simulator.py) and the compiled one agree on
    every field, every processor's node count included; small tables force collisions."""
    cases = [(IIDTree(3, 4, seed=1), None), (OrderedTree(4, 5, seed=2, p=0.5), None),
             (IncrementalTree(3, 6, seed=3), 5), (IIDTree(2, 7, seed=4, levels=3), None)]
    for tree, depth in cases:
        for p in (1, 2, 3, 8, 33):
            for costs, min_split in ((Costs(), 2), (FREE, 1)):
                kw = dict(depth=depth, costs=costs, tt_bits=4, min_split=min_split)
                a = simulate(tree, algorithm, p, **kw)
                b = simulate(tree, algorithm, p, engine="reference", **kw)
                assert a == b, (tree.name, p, costs)
                assert a.per_processor_nodes == b.per_processor_nodes
