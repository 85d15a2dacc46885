"""The Python API refuses sizes, depths, seeds and table sizes beyond searchlab.limits with an
InvalidParameterError naming the limit, before any allocation; messages quote short excerpts."""

from __future__ import annotations

import pytest

from searchlab import ExplicitTree, IIDTree, InvalidParameterError, OrderedTree, search
from searchlab.errors import UnsupportedError
from searchlab.limits import MAX_BRANCHING, MAX_DEPTH, MAX_SEED, MAX_TT_SIZE, excerpt


def _nested(depth: int) -> list:
    t: list = [1]
    for _ in range(depth - 1):
        t = [t, 2]
    return t


@pytest.mark.parametrize("make,match", [
    (lambda: IIDTree(b=2**40, d=1), rf"b must be an integer in \[1, {MAX_BRANCHING}\]"),
    (lambda: IIDTree(b=2**70, d=1), rf"b must be an integer in \[1, {MAX_BRANCHING}\]"),
    (lambda: OrderedTree(b=2, d=2**63), rf"d must be an integer in \[0, {MAX_DEPTH}\]"),
    (lambda: IIDTree(b=2, d=2, seed=2**64), rf"seed must be an integer in \[0, {MAX_SEED}\]"),
    (lambda: ExplicitTree(_nested(1000)), f"nesting deeper than {MAX_DEPTH} levels"),
])
def test_tree_sizes_beyond_the_limits_are_refused(make, match):
    with pytest.raises(InvalidParameterError, match=match):
        make()


def test_seed_2_to_the_64_is_refused_not_reduced_to_zero():
    assert IIDTree(2, 3, seed=MAX_SEED).seed == MAX_SEED
    with pytest.raises(InvalidParameterError):
        IIDTree(2, 3, seed=MAX_SEED + 1)


def test_explicit_tree_at_the_stated_depth_is_built_and_searched_without_recursion_error():
    t = ExplicitTree(_nested(MAX_DEPTH))
    assert t.d == MAX_DEPTH and t.n_leaves == MAX_DEPTH
    assert search(t, "minimax").nodes == 2 * MAX_DEPTH
    assert len(t.name) < 100                       # never the whole tree's repr


@pytest.mark.parametrize("kwargs,match", [
    (dict(depth=2**70), rf"depth must be None or an integer in \[0, {MAX_DEPTH}\]"),
    (dict(ordering="tt", tt_size=2**40), rf"tt_size must be a power of two in \[1, {MAX_TT_SIZE}\]"),
    (dict(ordering_seed=2**64), rf"ordering_seed must be an integer in \[0, {MAX_SEED}\]"),
])
def test_search_arguments_beyond_the_limits_are_refused(kwargs, match):
    with pytest.raises(InvalidParameterError, match=match):
        search(IIDTree(2, 3), **kwargs)


def test_error_messages_quote_only_an_excerpt():
    big = [[float(i), float(i + 1)] for i in range(100_000)]
    big[-1][-1] = "oops"
    with pytest.raises(InvalidParameterError) as e:
        ExplicitTree(big)
    assert len(str(e.value)) < 200
    # an unsupported horizon on a huge explicit tree names the tree by an excerpt only
    tree = ExplicitTree([[float(i), float(i + 1)] for i in range(100_000)])
    with pytest.raises(UnsupportedError, match=r"iterative deepening \('id'\) evaluates shallower "
                                                r"horizons, but explicit\(\[\[0.0, 1.0\], .*\.\.\.\]\) has no "
                                                r"static values") as e2:
        search(tree, "alphabeta", "id")
    assert len(str(e2.value)) < 400
    assert len(excerpt("x" * 10_000)) <= 60 and len(excerpt(10 ** 5000)) <= 60
