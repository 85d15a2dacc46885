"""Synthetic tree models (docs/trees.md): implicit trees where a node is a key, memory O(d)."""

from __future__ import annotations

from typing import Any

from searchlab.errors import InvalidParameterError
from searchlab.limits import excerpt
from searchlab.trees.explicit import ExplicitTree
from searchlab.trees.iid import IIDTree
from searchlab.trees.incremental import IncrementalTree
from searchlab.trees.ordered import OrderedTree

TREE_MODELS = {
    "iid": IIDTree,
    "ordered": OrderedTree,
    "incremental": IncrementalTree,
    "explicit": ExplicitTree,
}


def make_tree(model: str, **params: Any):
    """Build a tree model by name: ``make_tree("iid", b=8, d=5, seed=1, levels=0)``.

    Raises InvalidParameterError for an unknown model or a bad parameter (naming it).
    """
    try:
        cls = TREE_MODELS[model]
    except KeyError:
        raise InvalidParameterError(
            f"tree model must be one of {', '.join(TREE_MODELS)}; got {excerpt(model)}") from None
    try:
        return cls(**params)
    except TypeError as e:
        raise InvalidParameterError(f"tree model {excerpt(model)}: {e}") from None


__all__ = ["ExplicitTree", "IIDTree", "IncrementalTree", "OrderedTree", "TREE_MODELS", "make_tree"]
