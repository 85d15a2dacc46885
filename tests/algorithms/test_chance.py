"""Chance search (searchlab/algorithms/chance_search.py): Star1/Star2 = expectiminimax, counts, errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from searchlab.algorithms.chance_search import search_chance
from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.games.pig import Pig
from searchlab.trees.chance_tree import ChanceTree, ExplicitChanceTree, ludo_example

PRUNING = ("alphabeta-emm", "star1", "star2")
CASES = [  # b, n, d, levels, probs, (low, high)
    (2, 2, 3, 0, None, (0.0, 1.0)),
    (3, 2, 2, 0, None, (-1.0, 1.0)),
    (2, 3, 3, 3, None, (0.0, 1.0)),
    (3, 3, 2, 2, None, (-2.0, 5.0)),
    (2, 2, 4, 2, (0.25, 0.75), (0.0, 1.0)),
    (2, 3, 3, 0, (0.5, 0.3, 0.2), (0.0, 1.0)),
    (4, 2, 2, 5, (0.9, 0.1), (10.0, 20.0)),
]


@pytest.mark.parametrize("b,n,d,levels,probs,lh", CASES)
def test_star1_star2_equal_expectiminimax_bit_for_bit(b, n, d, levels, probs, lh):
    """Property: over many random chance trees (continuous and discrete values, so ties too),
    every pruning algorithm returns expectiminimax's value exactly and one of its best moves,
    with the tree's bounds and with looser ones, in either outcome order."""
    for seed in range(12):
        tree = ChanceTree(b, n, d, seed=seed, levels=levels, probs=probs, low=lh[0], high=lh[1])
        e = search_chance(tree, "expectiminimax")
        assert e.leaves == tree.leaf_count() and e.best_moves_complete
        for alg in PRUNING:
            for oo in ("natural", "probability"):
                for bounds in (None, (lh[0] - 1.5, lh[1] + 0.5)):
                    r = search_chance(tree, alg, outcome_order=oo, bounds=bounds)
                    assert r.value == e.value, (tree, alg, oo, bounds)
                    assert r.best_move in e.best_moves
                    assert r.nodes <= e.nodes or alg == "star2"


def test_counts_of_expectiminimax_are_the_full_tree():
    t = ChanceTree(3, 2, 3, seed=5)
    r = search_chance(t, "expectiminimax")
    # levels: MAX, chance, MIN, chance, ...: nodes at level k = prod of branchings above
    widths = [1]
    for k in range(6):
        widths.append(widths[-1] * (3 if k % 2 == 0 else 2))
    assert r.per_ply == tuple(widths)
    assert r.nodes == sum(widths) and r.leaves == 6 ** 3
    assert r.chance_nodes == widths[1] + widths[3] + widths[5]
    assert r.interior == r.nodes - r.leaves and r.cutoffs == 0


def test_star_pruning_saves_nodes_on_average_and_star2_probes():
    tot = {"expectiminimax": 0, "star1": 0, "star2": 0}
    probes = 0
    for seed in range(10):
        t = ChanceTree(3, 3, 3, seed=seed)
        for alg in tot:
            r = search_chance(t, alg)
            tot[alg] += r.nodes
            probes += r.extra["probes"]
    assert tot["star2"] < tot["star1"] < tot["expectiminimax"]
    assert probes > 0


def test_alphabeta_without_star_prunes_nothing_when_every_move_meets_chance():
    """Alternating MAX/chance/MIN/chance: a window never passes a chance node, so plain
    alpha-beta at the decision nodes has nothing to cut (claim 003-i's baseline)."""
    t = ChanceTree(3, 2, 3, seed=1)
    assert search_chance(t, "alphabeta-emm").nodes == search_chance(t, "expectiminimax").nodes


def test_ludo_example_values_and_move():
    g = ludo_example()
    r = search_chance(g, "expectiminimax")
    assert r.value == 4.0 and r.best_move == 0 and g.move_names[r.best_move] == "safe"
    race = search_chance(ExplicitChanceTree(("max", [g.spec[1][1]])), "expectiminimax")
    assert race.value == 3.8000000000000007      # 0.0 + 0.8*6 + 0.2*(-5) in doubles
    for alg in PRUNING:
        assert search_chance(g, alg).value == 4.0


def test_order_preserving_relabelling_changes_expectiminimax_move():
    spec = ("max", [("chance", [(0.9, 2), (0.1, 3)]), ("chance", [(0.9, 1), (0.1, 4)])])
    t = ExplicitChanceTree(spec)
    before = search_chance(t, "expectiminimax")
    after = search_chance(t.relabel({1: 1, 2: 20, 3: 30, 4: 400}), "expectiminimax")
    assert before.best_move == 0 and after.best_move == 1
    affine = search_chance(t.relabel(lambda v: 3 * v + 7), "expectiminimax")
    assert affine.best_move == 0


def test_pig_static_ordering_and_iterative_deepening_keep_the_value():
    g = Pig(winscore=12)
    base = search_chance(g, "expectiminimax", depth=4)
    for alg in ("star1", "star2"):
        for ordering in ("natural", "static"):
            r = search_chance(g, alg, ordering, depth=4)
            assert r.value == base.value
        idr = search_chance(g, alg, "static", depth=4, iterative=True)
        assert idr.value == base.value and len(idr.iterations) == 4
        assert sum(idr.iterations) == idr.nodes


def test_node_budget_aborts():
    r = search_chance(ChanceTree(3, 3, 3, seed=1), "star1", max_nodes=50)
    assert r.status == "aborted" and r.value is None and r.nodes == 51


@pytest.mark.parametrize("kwargs,match", [
    (dict(algorithm="alphabeta"), "algorithm must be one of"),
    (dict(ordering="best"), "ordering must be one of"),
    (dict(outcome_order="random"), "outcome_order must be one of"),
    (dict(bounds=(1.0, 0.0)), "bounds must be finite with L < U"),
    (dict(bounds="x"), "bounds must be a pair"),
    (dict(depth=-1), "depth must be"),
    (dict(max_nodes=0), "max_nodes must be"),
])
def test_bad_input(kwargs, match):
    with pytest.raises(InvalidParameterError, match=match):
        search_chance(ChanceTree(2, 2, 2), **kwargs)


def test_bounds_that_miss_a_leaf_are_reported():
    with pytest.raises(InvalidParameterError, match="outside"):
        search_chance(ChanceTree(2, 2, 2, seed=1), "star1", bounds=(0.0, 0.01))


def test_depth_below_a_tree_without_static_values_is_refused():
    with pytest.raises(UnsupportedError, match="no static"):
        search_chance(ChanceTree(2, 2, 3), depth=2)
    with pytest.raises(UnsupportedError):
        search_chance(ChanceTree(2, 2, 3), ordering="static")


@st.composite
def _chance_trees(draw):
    b, n, d = draw(st.integers(1, 3)), draw(st.integers(1, 4)), draw(st.integers(1, 3))
    raw = draw(st.lists(st.integers(1, 9), min_size=n, max_size=n))
    probs = None if draw(st.booleans()) else tuple(x / sum(raw) for x in raw)
    low = draw(st.sampled_from([0.0, -1.0, 2.5]))
    tree = ChanceTree(b, n, d, seed=draw(st.integers(0, 2**32)), levels=draw(st.sampled_from([0, 2, 3, 5])),
                      low=low, high=low + draw(st.sampled_from([1.0, 3.0, 0.1])), probs=probs)
    return tree, draw(st.sampled_from([0.0, 0.5, 10.0]))


@settings(max_examples=150, deadline=None)
@given(_chance_trees(), st.sampled_from(["natural", "probability"]))
def test_property_star_equals_expectiminimax(case, outcome_order):
    """Random shapes, probabilities (not dyadic: rounding everywhere), discrete values (ties)
    and bounds looser than the values: Star1/Star2 return expectiminimax's value bit for bit."""
    tree, widen = case
    e = search_chance(tree, "expectiminimax")
    lo, hi = tree.value_bounds
    for alg in ("star1", "star2"):
        r = search_chance(tree, alg, outcome_order=outcome_order, bounds=(lo - widen, hi + widen))
        assert r.value == e.value and r.best_move in e.best_moves
