import math

import pytest

from searchlab.analysis import theory as T


def test_pearl_r2_is_golden_ratio():
    assert T.pearl_rb(2) == pytest.approx((1 + math.sqrt(5)) / 2, rel=1e-12)


def test_pearl_xi_solves_its_equation():
    for b in (2, 3, 5, 8, 35, 250):
        x = T.pearl_xi(b)
        assert 0 < x < 1
        assert x ** b + x - 1 == pytest.approx(0, abs=1e-12)


@pytest.mark.parametrize("b", [2, 3, 4, 5, 6, 8, 12, 16, 24, 32, 64, 128])
def test_pearl_below_three_quarters_for_small_b(b):
    assert T.pearl_rb(b) < b ** 0.75
    assert T.pearl_rb(b) > math.sqrt(b)


def test_pearl_eventually_exceeds_three_quarters():
    assert T.pearl_rb(10_000) > 10_000 ** 0.75


def test_knuth_moore_matches_spec_reference_numbers():
    # docs/iid-tree-spec.md: perfect order, b=2 d=10: 63 leaves, 208 nodes; b=8 d=5: 575, 797
    assert T.knuth_moore_leaves(2, 10) == 63 and T.knuth_moore_nodes(2, 10) == 208
    assert T.knuth_moore_leaves(8, 5) == 575 and T.knuth_moore_nodes(8, 5) == 797
    assert T.knuth_moore_leaves(5, 0) == 1 and T.knuth_moore_leaves(5, 1) == 5


def test_full_tree_counts():
    assert T.minimax_leaves(3, 4) == 81
    assert T.minimax_nodes(3, 4) == 1 + 3 + 9 + 27 + 81


def test_depth_reachable_background_example():
    assert T.depth_reachable(1e9, 35, "minimax") == pytest.approx(5.8, abs=0.05)
    assert T.depth_reachable(1e9, 35, "random") == pytest.approx(7.8, abs=0.05)
    assert T.depth_reachable(1e9, 35, "perfect") == pytest.approx(11.7, abs=0.05)
    assert T.depth_reachable_exact(1e9, 35, "minimax") == 5
    assert T.depth_reachable_exact(1e9, 35, "perfect") == 10


def test_chess_arithmetic_is_computed():
    figs = {(f.claim, f.what): f.value for f in T.chess_arithmetic()}
    assert figs[("000-h", "full tree 35^8")] == 35 ** 8
    assert figs[("001-g", "minimax to depth 10: 35^10")] == 35 ** 10
    assert figs[("003-f", "perfect-order effective branching factor √35")] == pytest.approx(math.sqrt(35))
    claims = {f.claim for f in T.chess_arithmetic()}
    assert claims == {"000-h", "001-g", "000-o", "000-p", "003-f", "003-g"}
