"""Validation of the lab's requests: every field checked, with its caps, before any work.

A bad request raises ``LabError`` (HTTP 400, or 413/422 where stated) with one line naming the
field and what is allowed. The caps keep every request bounded: a tree's size, a search's depth
and node budget (the compiled engine's and the reference engine's), and the wall-clock cap the
app puts around each request.
"""

from __future__ import annotations

import math
from numbers import Integral, Real
from typing import Any

from searchlab.limits import excerpt

#: an explicit tree the page draws and steps through
MAX_TREE_LEAVES = 4096
MAX_TREE_DEPTH = 8
MAX_TREE_BRANCHING = 16
MAX_TREE_VALUE = 1_000_000
#: searches on games: horizon and node budgets (compiled engine, reference engine)
MAX_GAME_DEPTH = 20
MAX_NODES_COMPILED = 50_000_000
MAX_NODES_REFERENCE = 300_000
#: minimax in "Compare": its node budget (above it minimax is reported infeasible)
MINIMAX_BUDGET = 2_000_000
#: minimax in "Compare" past its budget: the depth-limited tree is counted instead
#: (searchlab.algorithms.tree_count), within this many seconds
COUNT_SECONDS = 10.0
#: the perfect/worst oracles (reference engine only): their leaf limit in "Compare"
ORACLE_LIMIT = 3_000
#: the perfect-ordering row of "Compare" (the position's minimal tree): the largest tree it is
#: tried on (Knuth and Moore's leaf count for the root's b and the depth; about 10 s of work on
#: the 2-core machine the lab was built on) and its time limit (seconds)
MINIMAL_TREE_LEAVES = 50_000
MINIMAL_TREE_SECONDS = 15.0
#: the engine's principal variation is at most this long
MAX_PV = 12
#: wall-clock cap per request (seconds) and searches run at once
WALL_CLOCK_CAP = 20.0
MAX_CONCURRENT = 2
MAX_BODY_BYTES = 200_000


class LabError(ValueError):
    """A request the lab refuses; ``status`` is its HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def body_dict(body: Any) -> dict:
    if not isinstance(body, dict):
        raise LabError(f"the request body must be a JSON object; got {excerpt(body)}")
    return body


def choice(body: dict, name: str, allowed: tuple[str, ...], default: str | None = None) -> str:
    value = body.get(name, default)
    if value not in allowed:
        raise LabError(f"{name} must be one of {', '.join(allowed)}; got {excerpt(value)}")
    return value


def integer(body: dict, name: str, lo: int, hi: int, default: int | None = None,
            optional: bool = False) -> int | None:
    value = body.get(name, default)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, Integral) or not lo <= value <= hi:
        raise LabError(f"{name} must be an integer in [{lo}, {hi}]; got {excerpt(value)}")
    return int(value)


def text(body: dict, name: str, default: str = "", limit: int = 2000) -> str:
    value = body.get(name, default)
    if not isinstance(value, str) or len(value) > limit:
        raise LabError(f"{name} must be a string of at most {limit} characters; got {excerpt(value)}")
    return value


def number(value: Any, name: str, bound: float = MAX_TREE_VALUE) -> float | int:
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value) \
            or abs(value) > bound:
        raise LabError(f"{name} must be a finite number in [-{bound:g}, {bound:g}]; "
                       f"got {excerpt(value)}")
    return value
