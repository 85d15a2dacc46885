"""searchlab: measure how efficiently game-tree search works.

Public API (stable names)::

    from searchlab import ExplicitTree, IIDTree, OrderedTree, IncrementalTree, search, load
    r = search(IIDTree(b=8, d=5, seed=1), algorithm="alphabeta", ordering="natural")
"""

from __future__ import annotations

# first: numba's cache of every cache=True function below keys on its callees' sources too
from searchlab import numba_cache as _numba_cache  # noqa: F401
from searchlab.errors import (InvalidParameterError, SearchlabError, TreeTooLargeError,
                              UnsupportedError)
from searchlab.algorithms.search_api import ALGORITHMS, search
from searchlab.algorithms.ordering import ORDERINGS
from searchlab.algorithms.result import SearchResult
from searchlab.trees import ExplicitTree, IIDTree, IncrementalTree, OrderedTree, make_tree
from searchlab.experiment.store import load

__version__ = "0.1.0"

__all__ = [
    "ALGORITHMS", "ORDERINGS", "ExplicitTree", "IIDTree", "IncrementalTree", "OrderedTree",
    "InvalidParameterError", "SearchResult", "SearchlabError", "TreeTooLargeError",
    "UnsupportedError", "load", "make_tree", "search", "__version__",
]
