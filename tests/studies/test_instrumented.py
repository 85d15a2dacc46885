"""The instrumented alpha-beta against the reference engine and Knuth–Moore's minimal tree."""

import random

import pytest

from searchlab import IIDTree, search
from searchlab.algorithms.ordering import base_order
from searchlab.studies.rigor import instrumented as I
from searchlab.analysis.theory import knuth_moore_leaves
from searchlab.errors import InvalidParameterError


def _cases():
    rng = random.Random(7)
    for _ in range(40):
        b, d = rng.randint(1, 4), rng.randint(0, 5)
        tree = IIDTree(b, d, rng.randint(0, 10**6), levels=rng.choice((0, 0, 2, 3)))
        yield tree, rng.choice(("natural", "random", "perfect", "worst")), rng.randint(0, 99)


@pytest.mark.parametrize("tree, ordering, oseed", list(_cases()))
def test_ties_cut_rule_equals_the_reference_engine(tree, ordering, oseed):
    r = search(tree, "alphabeta", ordering, ordering_seed=oseed, engine="reference")
    got = I.instrumented_alphabeta(tree, order=base_order(ordering, tree, tree.d, oseed))
    assert (got.value, got.nodes, got.leaves, got.cutoffs, got.cut_events) == \
        (r.value, r.nodes, r.leaves, r.cutoffs, r.fail_highs)
    assert sum(got.by_ply_type.values()) == r.nodes
    assert [sum(got.by_ply_type[(k, t)] for t in I.TYPES) for k in range(tree.d + 1)] == list(r.per_ply)
    strict = I.instrumented_alphabeta(tree, order=base_order(ordering, tree, tree.d, oseed), cut_rule=">")
    assert strict.value == r.value                 # the strict rule is still exact ...
    assert strict.leaves >= got.leaves             # ... and never prunes more
    assert strict.tie_cuts == 0
    if tree.levels == 0:                           # continuous values: no ties, same search
        assert (strict.leaves, got.tie_cuts) == (got.leaves, 0)


@pytest.mark.parametrize("b, d", [(2, 7), (3, 5), (5, 4), (8, 3)])
def test_perfect_order_visits_exactly_the_minimal_tree_by_type(b, d):
    tree = IIDTree(b, d, 11)
    got = I.instrumented_alphabeta(tree, order=base_order("perfect", tree, d))
    km = I.minimal_tree_types(b, d)
    for t in I.TYPES:
        assert got.per_ply(t, d) == km[t], t
    assert got.leaves == knuth_moore_leaves(b, d)
    # every CUT node is refuted by its first move; no ALL node cuts
    assert got.first_move_cuts[I.CUT] == got.cut_nodes[I.CUT] == got.interior[I.CUT]
    assert got.cut_nodes[I.ALL] == 0


def test_minimal_tree_types_known_answer():
    # b = 3: ply 1 has 1 PV + 2 CUT; ply 2: 1 PV + 2 CUT + 2 ALL; ply 3: PV 1, CUT 2 + 3*2, ALL 2
    km = I.minimal_tree_types(3, 3)
    assert km == {"PV": [1, 1, 1, 1], "CUT": [0, 2, 2, 8], "ALL": [0, 0, 2, 2]}
    for d in range(8):
        assert sum(v[d] for v in I.minimal_tree_types(4, 8).values()) == knuth_moore_leaves(4, d)


def test_bad_cut_rule():
    with pytest.raises(InvalidParameterError, match="cut_rule"):
        I.instrumented_alphabeta(IIDTree(2, 2, 1), cut_rule="=>")


def test_node_type_study_small():
    from searchlab.studies.rigor import nodetypes as N
    cells = N.study(small=True)
    perfect = [c for c in cells if c.ordering == "perfect"]
    assert perfect and all(c.per_ply[t] == tuple(map(float, c.minimal[t])) for c in perfect for t in I.TYPES)
    worst = [c for c in cells if c.ordering == "worst"]
    assert all(c.cut_rate[I.CUT] < 0.5 for c in worst)
    assert "reproduces the minimal tree type by type" in N.section(cells)
