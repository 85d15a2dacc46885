"""The exact worst case over all orderings, against brute-force enumeration of every ordering."""

import itertools

import numpy as np
import pytest

from searchlab import IIDTree, search
from searchlab.studies.rigor import worstcase as W
from searchlab.errors import InvalidParameterError


def _brute_force_max(vals, b, d):
    nodes = [(ply, i) for ply in range(d) for i in range(b ** ply)]
    perms = list(itertools.permutations(range(b)))
    return max(W.leaves_with_orders(vals, b, d, dict(zip(nodes, choice)))
               for choice in itertools.product(perms, repeat=len(nodes)))


@pytest.mark.parametrize("b, d, seed", [(2, 2, 1), (2, 3, 2), (2, 3, 3), (3, 2, 4), (2, 4, 5)])
def test_exact_maximum_equals_brute_force(b, d, seed):
    vals = W.leaf_values(IIDTree(b, d, seed))
    assert W.max_leaves_exact(vals, b, d) == _brute_force_max(vals, b, d)


def test_exact_maximum_on_hand_made_trees():
    # d = 1: every leaf always; d = 2 textbook tree: ordering C(2), B(2), A(3)... any MIN child
    # searched after a better one cuts unless its minimum comes last: the maximum is all 9
    assert W.max_leaves_exact(np.array([5.0, 1.0, 3.0]), 3, 1) == 3
    assert W.max_leaves_exact(np.array([3, 12, 8, 2, 4, 6, 14, 5, 2], float), 3, 2) == 9
    # a tree where even the worst ordering prunes: found by the exact search at b=3, d=4
    vals = W.leaf_values(IIDTree(3, 4, 1))
    mx = W.max_leaves_exact(vals, 3, 4)
    assert mx < 81
    start, climbed = W.adversarial_leaves(vals, 3, 4, steps=300, seed=0)
    assert start <= climbed <= mx       # the hill climb is a lower bound on the exact maximum
    with pytest.raises(InvalidParameterError):
        W.max_leaves_exact(vals[:10], 3, 4)


@pytest.mark.parametrize("b, d, seed", [(2, 6, 1), (3, 4, 2), (4, 3, 3)])
def test_worst_first_orders_match_the_engine(b, d, seed):
    tree = IIDTree(b, d, seed)
    vals = W.leaf_values(tree)
    got = W.leaves_with_orders(vals, b, d, W.worst_first_orders(vals, b, d))
    assert got == search(tree, "alphabeta", "worst", engine="reference").leaves
    assert W.leaves_with_orders(vals, b, d, {}) == search(tree, "alphabeta", "natural").leaves


@pytest.mark.parametrize("b,d", [(2, 1), (2, 4), (2, 7), (3, 3), (3, 5), (4, 4), (5, 3), (8, 3), (35, 2)])
def test_no_cutoff_tree_makes_alphabeta_examine_every_leaf(b, d):
    from searchlab.algorithms.search_api import search
    from searchlab.studies.rigor.worstcase import no_cutoff_tree
    from searchlab.trees import ExplicitTree

    tree = ExplicitTree(no_cutoff_tree(b, d))
    mm = search(tree, "minimax", engine="reference")
    assert mm.leaves == b ** d
    for alg in ("alphabeta", "alphabeta-failhard", "pvs"):
        r = search(tree, alg, engine="reference")
        if alg == "pvs":            # PVS re-searches: at least every leaf once
            assert r.value == mm.value and r.leaves >= b ** d
            continue
        assert (r.leaves, r.nodes, r.cutoffs, r.value) == (b ** d, mm.nodes, 0, mm.value)


def test_no_cutoff_tree_rejects_bad_sizes():
    from searchlab.studies.rigor.worstcase import no_cutoff_tree

    with pytest.raises(InvalidParameterError, match="b >= 2"):
        no_cutoff_tree(1, 3)
    with pytest.raises(InvalidParameterError, match="exceeds 10"):
        no_cutoff_tree(2, 21)


def test_attained_study_and_section():
    from searchlab.studies.rigor.worstcase import attained_section, attained_study

    cells = attained_study(((2, 3), (3, 2)))
    assert [(c.leaves, c.nodes, c.cutoffs) for c in cells] == [(8, 15, 0)] * 2 + [(9, 13, 0)] * 2
    text = attained_section(cells)
    assert "4 of 4 searches" in text and "| 3 | 2 | alphabeta-failhard | 9 | 9 | 13 / 13 | 0 | yes |" in text
