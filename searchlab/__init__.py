"""searchlab: measure how efficiently game-tree search works.

Public API (stable names)::

    from searchlab import ExplicitTree, IIDTree, OrderedTree, IncrementalTree, search, load
    r = search(IIDTree(b=8, d=5, seed=1), algorithm="alphabeta", ordering="natural")

The names are imported at their first use (PEP 562), so that ``searchlab --version``, ``--help``
and shell-completion queries do not pay for numba, pandas and the engines
(benchmarks/startup.py measures them).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from typing import Any

__version__ = "0.1.0"

#: public name -> the module that defines it
_PUBLIC = {
    "InvalidParameterError": "searchlab.errors", "SearchlabError": "searchlab.errors",
    "TreeTooLargeError": "searchlab.errors", "UnsupportedError": "searchlab.errors",
    "ALGORITHMS": "searchlab.algorithms.search_api", "search": "searchlab.algorithms.search_api",
    "ORDERINGS": "searchlab.algorithms.ordering",
    "SearchResult": "searchlab.contracts.result",
    "ExplicitTree": "searchlab.trees", "IIDTree": "searchlab.trees",
    "IncrementalTree": "searchlab.trees", "OrderedTree": "searchlab.trees",
    "make_tree": "searchlab.trees",
    "load": "searchlab.experiment.store",
}

__all__ = sorted(_PUBLIC) + ["__version__"]


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'searchlab' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC))


class _NumbaCacheFirst(importlib.abc.MetaPathFinder):
    """Imports searchlab.numba_cache right after numba itself, whoever imports numba first:
    numba's cache of every ``cache=True`` function must find numba_cache's locator installed
    when the function is defined (searchlab/numba_cache.py), and every module defining one
    imports numba before it does."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "numba":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec("numba")
        if spec is None or spec.loader is None:
            return spec
        run = spec.loader.exec_module

        def exec_module(module: Any) -> None:
            run(module)
            importlib.import_module("searchlab.numba_cache")

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


if "numba" in sys.modules:
    from searchlab import numba_cache as _numba_cache  # noqa: F401
elif not any(isinstance(f, _NumbaCacheFirst) for f in sys.meta_path):
    sys.meta_path.insert(0, _NumbaCacheFirst())
