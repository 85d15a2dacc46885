"""The reference algorithms on the textbook trees, the spec's table, and exact theory."""

from __future__ import annotations

import math

import pytest

from searchlab import ExplicitTree, IIDTree, OrderedTree, search
from searchlab.algorithms.trace import run_trace, trace_text

RN = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
RN_C_FIRST = [[2, 5, 14], [3, 12, 8], [2, 4, 6]]   # C (leaves 2, 5, 14), then A, then B


def km_leaves(b: int, d: int) -> int:
    return b ** math.ceil(d / 2) + b ** (d // 2) - 1


def pruned_leaf_values(events) -> list:
    return [v for e in events if e.kind == "cutoff" for _, v in e.pruned]


@pytest.mark.parametrize("algorithm", ["alphabeta", "alphabeta-failhard"])
def test_russell_norvig_tree(algorithm):
    r, events = run_trace(ExplicitTree(RN), algorithm)
    assert (r.value, r.best_move, r.leaves) == (3, 0, 7)
    assert pruned_leaf_values(events) == [4, 6]
    mm = search(ExplicitTree(RN), "minimax", engine="reference")
    assert (mm.value, mm.best_move, mm.best_moves, mm.leaves) == (3, 0, (0,), 9)


def test_c_first_does_not_change_the_count():
    """Background note 000 claims this order changes the count; it does not (7 leaves)."""
    r, events = run_trace(ExplicitTree(RN_C_FIRST), "alphabeta")
    assert (r.value, r.best_move, r.leaves) == (3, 1, 7)     # move 1 is branch A here
    assert pruned_leaf_values(events) == [4, 6]
    text = trace_text(ExplicitTree(RN_C_FIRST))
    # why: the first branch is always searched in full, and B still cuts after its first leaf
    assert "cutoff at root.2: pruned leaves root.2.1=4, root.2.2=6" in text
    assert "root.0 returns 2 (exact)" in text


def test_cut_node_returns_a_bound():
    """Claim 003-a: a cut node's value is a bound (B returns 2 meaning <= 2)."""
    _, events = run_trace(ExplicitTree(RN), "alphabeta")
    ret = {e.path: e for e in events if e.kind == "return"}
    assert (ret[(1,)].value, ret[(1,)].bound) == (2, "upper")
    assert ret[()].bound == "exact"
    _, hard = run_trace(ExplicitTree(RN), "alphabeta-failhard")
    hard_ret = {e.path: e for e in hard if e.kind == "return"}
    assert (hard_ret[(1,)].value, hard_ret[(1,)].bound) == (3, "upper")   # fail-hard: alpha


def test_note_003_tree():
    r = search(ExplicitTree([[3, 2, 1], [4, 8, 9], [5, 6, 7]]), "alphabeta", engine="reference")
    assert (r.value, r.leaves) == (5, 9)
    r = search(ExplicitTree([[5, 6, 7], [4, 8, 9], [3, 2, 1]]), "alphabeta", engine="reference")
    assert (r.value, r.leaves, r.best_move) == (5, 5, 0)


SPEC_TABLE = [  # docs/iid-tree-spec.md, "Reference numbers"
    (2, 10, 1, 0.36296098068608473, "natural", 368, 876),
    (2, 10, 1, 0.36296098068608473, "worst", 818, 1709),
    (2, 10, 1, 0.36296098068608473, "perfect", 63, 208),
    (8, 5, 1, 0.82032289361769672, "natural", 4309, 5382),
    (8, 5, 1, 0.82032289361769672, "worst", 29188, 33628),
    (8, 5, 1, 0.82032289361769672, "perfect", 575, 797),
]


@pytest.mark.parametrize("b,d,seed,value,order,leaves,nodes", SPEC_TABLE)
def test_spec_reference_table(b, d, seed, value, order, leaves, nodes):
    r = search(IIDTree(b, d, seed), "alphabeta", order, engine="reference")
    assert (r.value, r.leaves, r.nodes) == (value, leaves, nodes)
    assert r.interior == nodes - leaves and sum(r.per_ply) == nodes and r.per_ply[-1] == leaves


@pytest.mark.parametrize("levels", [0, 2, 5])
@pytest.mark.parametrize("b,d", [(2, 1), (2, 7), (3, 5), (3, 6), (4, 4), (5, 3), (6, 4), (1, 5)])
def test_knuth_moore_exact_on_iid(b, d, levels):
    for seed in range(3):
        r = search(IIDTree(b, d, seed, levels), "alphabeta", "perfect", engine="reference")
        assert r.leaves == km_leaves(b, d)


@pytest.mark.parametrize("b,d", [(10, 6), (3, 13), (40, 3)])
def test_knuth_moore_exact_on_ordered_tree(b, d):
    r = search(OrderedTree(b, d, seed=5, p=1.0), "alphabeta", "natural", engine="reference")
    assert r.leaves == km_leaves(b, d)
    r = search(OrderedTree(b, d, seed=5, p=0.3), "alphabeta", "perfect", engine="reference")
    assert r.leaves == km_leaves(b, d)


def test_worst_order_is_not_minimax():
    """The spec's note: worst-first order still cuts (inherited windows)."""
    r = search(IIDTree(8, 5, 1), "alphabeta", "worst", engine="reference")
    assert r.leaves < 8**5


def test_failhard_visits_the_same_nodes_as_failsoft():
    for seed in range(20):
        t = IIDTree(3, 6, seed, levels=4)
        soft = search(t, "alphabeta", "random", ordering_seed=seed, engine="reference")
        hard = search(t, "alphabeta-failhard", "random", ordering_seed=seed, engine="reference")
        assert (soft.value, soft.best_move, soft.nodes, soft.leaves, soft.cutoffs, soft.per_ply) == \
               (hard.value, hard.best_move, hard.nodes, hard.leaves, hard.cutoffs, hard.per_ply)


def test_random_order_is_reproducible_and_seeded():
    t = IIDTree(6, 5, 3)
    a = search(t, "alphabeta", "random", ordering_seed=11, engine="reference")
    b = search(t, "alphabeta", "random", ordering_seed=11, engine="reference")
    others = {search(t, "alphabeta", "random", ordering_seed=s, engine="reference").nodes
              for s in range(12, 20)}
    assert a.counts() == b.counts()
    assert len(others | {a.nodes}) > 1


def test_node_budget_aborts():
    r = search(IIDTree(4, 8, 1), "minimax", engine="reference", max_nodes=1000)
    assert r.status == "aborted" and r.value is None and r.nodes == 1001


def test_per_ply_counts_minimax():
    r = search(IIDTree(3, 4, 2), "minimax", engine="reference")
    assert r.per_ply == (1, 3, 9, 27, 81) and r.nodes == 121 and r.cutoffs == 0
