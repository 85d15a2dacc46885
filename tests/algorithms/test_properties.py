"""Property tests: every sound algorithm/ordering agrees with minimax on thousands of trees."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from searchlab import ExplicitTree, IIDTree, IncrementalTree, search

SOUND = [("alphabeta", o) for o in ("natural", "random", "perfect", "worst")] + \
        [("alphabeta-failhard", o) for o in ("natural", "random", "perfect", "worst")] + \
        [("minimax", "random"), ("minimax", "perfect")]


def nested_trees(values):
    """Ragged nested lists up to depth 4 with the given leaf strategy."""
    return st.recursive(values, lambda children: st.lists(children, min_size=1, max_size=4),
                        max_leaves=40)


def check_sound(tree, ordering_seed=0, **kw):
    mm = search(tree, "minimax", engine="reference", **kw)
    for algorithm, ordering in SOUND:
        r = search(tree, algorithm, ordering, ordering_seed=ordering_seed, engine="reference", **kw)
        assert r.value == mm.value, (algorithm, ordering)
        assert r.best_move in mm.best_moves or mm.best_move is None, (algorithm, ordering)
        assert r.leaves <= mm.leaves and r.nodes <= mm.nodes, (algorithm, ordering)
    return mm


@settings(max_examples=600, deadline=None)
@given(nested_trees(st.integers(0, 3)), st.integers(0, 2**64 - 1))
def test_sound_on_discrete_ragged_trees(nested, seed):
    """Few distinct values: many ties."""
    check_sound(ExplicitTree(nested), ordering_seed=seed)


@settings(max_examples=400, deadline=None)
@given(nested_trees(st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)),
       st.integers(0, 2**64 - 1))
def test_sound_on_continuous_ragged_trees(nested, seed):
    check_sound(ExplicitTree(nested), ordering_seed=seed)


def test_sound_on_iid_trees():
    n = 0
    for b in (1, 2, 3, 4):
        for d in (0, 1, 2, 3, 4, 5):
            if b**d > 300:
                continue
            for levels in (0, 2, 3):
                for seed in range(12):
                    check_sound(IIDTree(b, d, seed, levels), ordering_seed=seed)
                    n += 1
    assert n > 500


def test_sound_on_incremental_trees_with_horizon():
    for seed in range(60):
        t = IncrementalTree(3, 5, seed, decay=0.7, correlation=(seed % 5) / 4)
        for depth in (2, 3, 5):
            mm = check_sound(t, ordering_seed=seed, depth=depth)
            st_ = search(t, "alphabeta", "static", depth=depth, engine="reference")
            assert st_.value == mm.value and st_.best_move in mm.best_moves


@settings(max_examples=300, deadline=None)
@given(nested_trees(st.sampled_from([1, 2, 3, 4])))
def test_order_preserving_relabel_changes_nothing(nested):
    """Claim 003-c: 1->1, 2->20, 3->30, 4->400 keeps minimax/alpha-beta moves and counts."""
    relabel = {1: 1, 2: 20, 3: 30, 4: 400}

    def apply(n):
        return [apply(c) for c in n] if isinstance(n, list) else relabel[n]

    for algorithm in ("minimax", "alphabeta", "alphabeta-failhard"):
        a = search(ExplicitTree(nested), algorithm, engine="reference")
        b = search(ExplicitTree(apply(nested)), algorithm, engine="reference")
        assert relabel[a.value] == b.value
        assert (a.best_move, a.best_moves, a.nodes, a.leaves, a.cutoffs) == \
               (b.best_move, b.best_moves, b.nodes, b.leaves, b.cutoffs)
