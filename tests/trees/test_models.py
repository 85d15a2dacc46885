"""The tree models follow docs/trees.md exactly."""

from __future__ import annotations

import math

import pytest

from searchlab import IIDTree, IncrementalTree, OrderedTree, search
from searchlab.hashing import GOLDEN, GOOD_SALT, MASK64, NOISE_SALT, mix64, root_key, unit


def walk(tree, path):
    s = tree.initial_state()
    for m in path:
        s = tree.play(s, m)
    return s


def test_iid_keys_follow_the_spec():
    t = IIDTree(3, 4, seed=9)
    key = mix64((9 + GOLDEN) & MASK64)
    for i in (2, 0, 1):
        key = mix64((key + (i + 1) * GOLDEN) & MASK64)
    s = walk(t, (2, 0, 1))
    assert s[0] == key and s[1] == 3 and s[2] == (2 * 3 + 0) * 3 + 1
    leaf = walk(t, (2, 0, 1, 1))
    assert t.utility(leaf) == (leaf[0] >> 11) * 2.0**-53
    assert IIDTree(3, 4, 9, levels=7).utility(leaf) == float(leaf[0] % 7)


def test_ordered_tree_values_are_exact_minimax_values():
    for p in (0.0, 0.2, 0.5, 1.0):
        for seed in range(5):
            t = OrderedTree(4, 5, seed, p)
            r = search(t, "minimax", engine="reference")
            assert r.value == 0.0                      # the root's assigned value
            root = t.initial_state()
            for m in range(4):
                child = t.play(root, m)
                sub = search(_Subtree(t, child), "minimax", engine="reference")
                assert sub.value == t.exact_value(child)


class _Subtree:
    """The subtree of a synthetic tree below one node, as a Game."""

    def __init__(self, tree, state):
        self.t, self.s = tree, state
        self.name, self.capabilities = "sub", tree.capabilities
        self.default_depth = tree.d

    def initial_state(self):
        return self.s

    def __getattr__(self, item):
        return getattr(self.t, item)


def test_ordered_tree_best_first_probability_is_p():
    b = 5
    for p, lo, hi in ((0.0, 0.0, 0.0), (0.2, 0.16, 0.24), (0.6, 0.55, 0.65), (1.0, 1.0, 1.0)):
        first = 0
        n = 2000
        for seed in range(n):
            t = OrderedTree(b, 1, seed, p)
            root = t.initial_state()
            first += t.play(root, 0)[4] == 0           # rank 0 = best child
        assert lo <= first / n <= hi, p
    t = OrderedTree(b, 1, 3, 0.0)
    values = [t.exact_value(t.play(t.initial_state(), m)) for m in range(b)]
    assert values == sorted(values)                    # p = 0: worst first at a MAX node


def test_incremental_static_values_follow_the_definition():
    t = IncrementalTree(3, 4, seed=2, decay=0.6, correlation=0.3)
    rk = root_key(2)
    path = (1, 2, 0, 2)
    key, static = rk, 0.0
    for ply, i in enumerate(path):
        ck = mix64((key + (i + 1) * GOLDEN) & MASK64)
        good = 2.0 * unit(mix64(((rk ^ GOOD_SALT) + (ply * 3 + i + 1) * GOLDEN) & MASK64)) - 1.0
        noise = 2.0 * unit(mix64(ck ^ NOISE_SALT)) - 1.0
        sign = 1.0 if ply % 2 == 0 else -1.0
        static = static + sign * 0.6**ply * (math.sqrt(0.3) * good + math.sqrt(0.7) * noise)
        key = ck
        assert t.evaluate(walk(t, path[:ply + 1])) == static
    assert t.utility(walk(t, path)) == static


def test_incremental_correlation_one_makes_move_index_consistent():
    """At correlation 1 every node of a ply ranks its moves the same way (killer heaven)."""
    t = IncrementalTree(4, 3, seed=5, decay=1.0, correlation=1.0)
    for path in ((0,), (1,), (3,)):
        s = walk(t, path)
        edges = [t.evaluate(t.play(s, m)) - t.evaluate(s) for m in range(4)]
        assert min(range(4), key=edges.__getitem__) == min(range(4), key=lambda i: -t.good[1][i])


def test_small_decay_makes_static_order_nearly_perfect():
    b, d = 4, 6
    km = b**3 + b**3 - 1
    leaves = [search(IncrementalTree(b, d, s, decay=0.1, correlation=0.0), "alphabeta", "static",
                     engine="reference").leaves for s in range(10)]
    natural = [search(IncrementalTree(b, d, s, decay=0.1, correlation=0.0), "alphabeta",
                      engine="reference").leaves for s in range(10)]
    assert sum(leaves) / 10 < 1.1 * km < sum(natural) / 10


def test_iid_win_prob_leaves():
    """win_prob = q: a leaf is 1.0 (MAX wins) when key >> 11 < round(q * 2^53), else 0.0;
    trees without it keep the shared specification's values and name."""
    import math

    from searchlab.errors import InvalidParameterError
    t = IIDTree(2, 12, 3, win_prob=0.3)
    assert t.win_threshold == round(0.3 * 2**53)
    leaves = []

    def walk(state):
        if t.is_terminal(state):
            leaves.append((state[0], t.utility(state)))
            return
        for m in t.legal_moves(state):
            walk(t.play(state, m))
    walk(t.initial_state())
    assert all(v == (1.0 if k >> 11 < t.win_threshold else 0.0) for k, v in leaves)
    share = sum(v for _, v in leaves) / len(leaves)
    assert abs(share - 0.3) < 4 * math.sqrt(0.3 * 0.7 / len(leaves))
    plain = IIDTree(2, 12, 3)
    assert plain.win_prob is None and "win_prob" not in plain.name and "win_prob=0.3" in t.name
    assert IIDTree(2, 3, 1, win_prob=0.0).utility((1 << 63, 3, 0)) == 0.0
    assert IIDTree(2, 3, 1, win_prob=1.0).utility((2**64 - 1, 3, 0)) == 1.0
    with pytest.raises(InvalidParameterError, match="win_prob"):
        IIDTree(2, 3, 1, win_prob=1.5)
    with pytest.raises(InvalidParameterError, match="levels=0"):
        IIDTree(2, 3, 1, levels=2, win_prob=0.5)
