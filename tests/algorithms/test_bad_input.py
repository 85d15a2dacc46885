"""Bad input: a clear error naming the parameter and what is allowed, before any search."""

from __future__ import annotations

import math

import pytest

from searchlab import (ExplicitTree, IIDTree, IncrementalTree, InvalidParameterError, OrderedTree,
                       TreeTooLargeError, UnsupportedError, make_tree, search)


@pytest.mark.parametrize("make,match", [
    (lambda: IIDTree(0, 3), r"b must be an integer in \[1, 65536\]"),
    (lambda: IIDTree(2.5, 3), "b must be an integer"),
    (lambda: IIDTree(2, -1), r"d must be an integer in \[0, 200\]"),
    (lambda: IIDTree(2, 3, levels=-2), r"levels must be an integer in \[0, "),
    (lambda: IIDTree(2, 3, seed=-1), r"seed must be an integer in \[0, 18446744073709551615\]"),
    (lambda: OrderedTree(2, 3, p=1.5), r"p must be in \[0.0, 1.0\]"),
    (lambda: OrderedTree(2, 3, p=math.nan), "p must be a number"),
    (lambda: IncrementalTree(2, 3, decay=0.0), r"decay must be in \(0.0, 1.0\]"),
    (lambda: IncrementalTree(2, 3, correlation=-0.1), "correlation must be in"),
    (lambda: ExplicitTree([[1, 2], []]), "node 1 is an empty list"),
    (lambda: ExplicitTree([[1, math.nan]]), "node 0.1 is nan"),
    (lambda: ExplicitTree([[1, "x"]]), "node 0.1 is 'x'"),
    (lambda: ExplicitTree([]), "the root is an empty list"),
    (lambda: make_tree("binary", b=2, d=2), "tree model must be one of iid"),
    (lambda: make_tree("iid", b=2, d=2, bogus=1), "unexpected keyword argument 'bogus'"),
])
def test_bad_tree_parameters(make, match):
    with pytest.raises(InvalidParameterError, match=match):
        make()


@pytest.mark.parametrize("kwargs,exc,match", [
    (dict(algorithm="negamax"), InvalidParameterError, "algorithm must be one of minimax"),
    (dict(ordering="best"), InvalidParameterError, "ordering component 'best' unknown: allowed natural"),
    (dict(ordering="random+perfect"), InvalidParameterError, "names 2 base orders"),
    (dict(ordering="killer+killer"), InvalidParameterError, "names a component twice"),
    (dict(aspiration=0.5), InvalidParameterError, "add 'id' to the ordering"),
    (dict(ordering="id", aspiration=-1.0), InvalidParameterError, "aspiration must be a number > 0"),
    (dict(ordering="tt", tt_size=1000), InvalidParameterError, "tt_size must be a power of two"),
    (dict(engine="gpu"), InvalidParameterError, "engine must be one of auto"),
    (dict(depth=-1), InvalidParameterError, r"depth must be None or an integer in \[0, 200\]"),
    (dict(max_nodes=0), InvalidParameterError, r"max_nodes must be None or an integer in \[1, "),
    (dict(ordering_seed=-3), InvalidParameterError, r"ordering_seed must be an integer in \[0, "),
    (dict(ordering="static"), UnsupportedError, "static ordering needs static values"),
    (dict(depth=2), UnsupportedError, "has no static values"),
    (dict(ordering="id"), UnsupportedError, "iterative deepening"),
])
def test_bad_search_arguments(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        search(IIDTree(3, 4, 1), **{"engine": "reference", **kwargs})


def test_oracle_refused_above_limit_before_any_work():
    with pytest.raises(TreeTooLargeError, match=r"2,097,152 leaves.*limit is 1,048,576"):
        search(IIDTree(2, 21, 1), "alphabeta", "perfect", engine="reference")
    with pytest.raises(TreeTooLargeError, match="limit is 100"):
        search(IIDTree(4, 4, 1), "alphabeta", "worst", engine="reference", oracle_limit=100)


def test_not_a_game():
    with pytest.raises(InvalidParameterError, match="Game protocol"):
        search([[1, 2], [3]])
