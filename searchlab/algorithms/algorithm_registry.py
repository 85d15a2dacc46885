"""Search algorithms by name: the built-ins (``reference.ALGORITHMS``, which every engine
implements) and plug-ins declared outside the package.

A plug-in is an ``Algorithm`` record carrying its node-level reference code, ``node(state, ply,
alpha, beta, ctx) -> value`` in the reference algorithms' minimax form (values from MAX's point
of view; every node counted through ``ctx.visit``, cutoffs through ``ctx.cut``, children
searched through ``ctx.child``, the root's best move recorded in ``ctx.best_move``: see
searchlab/algorithms/reference.py). It is registered by ``register_algorithm`` (from a module a
config names in ``search.plugins``) or by the entry-point group ``searchlab.algorithms``, and is
then a value of ``search(algorithm=...)``, ``search.algorithm`` and ``sweep.algorithm``. It runs
on the reference engine only (the kernels and the compiled engine decline names they do not
know, so ``engine='auto'`` falls back to the reference engine), driven like alpha-beta: once at
the root with the full window, or under iterative deepening (with aspiration windows).
``sound`` is its own declaration, which ``searchlab.testing.check_algorithm`` holds it to (a
sound algorithm returns minimax's value and one of its best moves).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Mapping, Optional

from searchlab.algorithms.names import ALGORITHMS
from searchlab.errors import InvalidParameterError
from searchlab.limits import excerpt
from searchlab.plugin_entry_points import load_entry_points

#: the entry-point group of installed algorithm plug-ins
ENTRY_POINT_GROUP = "searchlab.algorithms"
#: names the search API reserves besides the built-ins (MCTS has its own entry point)
RESERVED = ("mcts",)


@dataclass(frozen=True)
class Algorithm:
    """A plug-in search algorithm: ``name`` (a word: letters, digits, ``-``, ``_``), ``node``
    its reference code (module docstring), ``sound`` whether it returns minimax's value at the
    same horizon, ``description`` one line for --help and the docs."""

    name: str
    node: Callable[..., float]
    sound: bool = True
    description: str = ""


_PLUGINS: dict[str, Algorithm] = {}
_PLUGIN_ERRORS: dict[str, str] = {}
_LOADED = False


def register_algorithm(a: Algorithm) -> Algorithm:
    """Add a plug-in algorithm; registering the same record again is a no-op. Raises
    InvalidParameterError for a record that is not an Algorithm, a name that is not a word,
    a name taken (a built-in's, ``mcts``, another plug-in's) or a node that is not callable."""
    _load()
    if not isinstance(a, Algorithm):
        raise InvalidParameterError(f"register_algorithm takes a searchlab Algorithm record; "
                                    f"got {excerpt(a)}")
    if _PLUGINS.get(a.name) is a:
        return a
    if not isinstance(a.name, str) or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]{0,39}", a.name):
        raise InvalidParameterError(f"an algorithm's name must be a word of letters, digits, - "
                                    f"and _ (at most 40, a letter first); got {excerpt(a.name)}")
    if a.name in ALGORITHMS or a.name in RESERVED or a.name in _PLUGINS:
        raise InvalidParameterError(f"algorithm {a.name!r} is registered already")
    if not callable(a.node):
        raise InvalidParameterError(f"algorithm {a.name!r}: node must be callable "
                                    f"(state, ply, alpha, beta, ctx) -> value; got {excerpt(a.node)}")
    if not isinstance(a.sound, bool):
        raise InvalidParameterError(f"algorithm {a.name!r}: sound must be true or false; "
                                    f"got {excerpt(a.sound)}")
    _PLUGINS[a.name] = a
    return a


def _load() -> None:
    """Read the entry points of ENTRY_POINT_GROUP once (a broken one is recorded, not raised)."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    load_entry_points(ENTRY_POINT_GROUP, lambda ep, a: register_algorithm(a), _PLUGIN_ERRORS)


def algorithm_names() -> tuple[str, ...]:
    """The algorithms search() and the configs accept: the built-ins, then the plug-ins in
    registration order."""
    _load()
    return (*ALGORITHMS, *_PLUGINS)


def plugin_names() -> tuple[str, ...]:
    """The registered plug-in algorithms' names, in registration order (no built-in)."""
    _load()
    return tuple(_PLUGINS)


def plugin_algorithm(name: str) -> Optional[Algorithm]:
    """The plug-in of that name, or None (a built-in or unknown name)."""
    _load()
    return _PLUGINS.get(name)


def plugin_errors() -> Mapping[str, str]:
    """Entry points of the ``searchlab.algorithms`` group that failed to load: name -> why."""
    _load()
    return dict(_PLUGIN_ERRORS)


def is_sound(name: str) -> bool:
    """Whether the algorithm returns minimax's value: every built-in does; a plug-in says."""
    p = plugin_algorithm(name)
    return True if p is None else p.sound


__all__ = ["Algorithm", "ENTRY_POINT_GROUP", "algorithm_names", "is_sound", "plugin_algorithm",
           "plugin_errors", "plugin_names", "register_algorithm"]

