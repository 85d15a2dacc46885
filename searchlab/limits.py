"""Numeric limits of searchlab's inputs, checked before any arithmetic or allocation.

Every size, depth, seed and table size that reaches searchlab (Python API or config) is an
integer within these bounds, or the caller gets an InvalidParameterError naming the parameter
and the limit. They are far above anything that can finish (a uniform tree with b = 2 and
d = 200 has 2^200 leaves) and exist so that a mistyped value fails in one line instead of
allocating terabytes, overflowing a float or looping for ever.

- ``MAX_BRANCHING``: branching factor b of a synthetic tree (moves are indices 0..b-1).
- ``MAX_DEPTH``: depth d of a synthetic tree, a search horizon, a sweep depth, and the nesting
  depth of an ExplicitTree (the readable reference search recurses once per ply; Python's
  default recursion limit is 1000 frames).
- ``MAX_SEED``: seeds are unsigned 64-bit integers (0 .. 2^64 - 1); larger ones are refused,
  never reduced modulo 2^64.
- ``MAX_TT_SIZE``: transposition-table entries (a power of two).
- ``MAX_LEVELS``: distinct leaf values K of a discrete i.i.d. tree.
- ``MAX_EXPLICIT_NODES``: nodes of an ExplicitTree (it is held in memory as nested lists).
- ``MAX_COUNT``: node counts, budgets and estimates; estimates above it saturate to it.
- ``MAX_VALUE``: the magnitude of a leaf value, margin or other real parameter (2^53: every
  integer up to it is exact in a float64, the kernels' value type); NaN and infinities are
  refused.
"""

from __future__ import annotations

import math
import reprlib
from numbers import Integral, Real
from typing import Any

from searchlab.errors import InvalidParameterError

MAX_BRANCHING = 1 << 16
MAX_DEPTH = 200
MAX_SEED = (1 << 64) - 1
MAX_TT_SIZE = 1 << 26
MAX_LEVELS = 1 << 32
MAX_EXPLICIT_NODES = 10_000_000
MAX_COUNT = 1 << 62
MAX_VALUE = float(1 << 53)
#: Tree instances (or positions) per grid point, and tasks of one study.
MAX_INSTANCES = 1_000_000
MAX_TASKS = 50_000_000
#: Grid points (tree x b x d x algorithm x ordering x pruning) of one study: each is estimated
#: when the grid is planned, so the count is checked from the sweep's sizes first.
MAX_GRID_POINTS = 200_000
#: Empty cells up to which a Connect Four or Hex position is searched to the end without a
#: depth or node budget (``game.solvable``); tic-tac-toe always is (549,946 minimax nodes).
SOLVABLE_EMPTY = 12
#: Longest experiment name (it names a folder); most workers of a run.
MAX_NAME = 100
MAX_WORKERS = 4096

_REPR = reprlib.Repr()
_REPR.maxlevel = 3
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = 4
_REPR.maxstring = _REPR.maxother = _REPR.maxlong = 40


def excerpt(value: Any, limit: int = 60) -> str:
    """A short repr of value for an error message: nesting, long lists, strings and integers
    are elided (never a whole tree's repr); at most ``limit`` characters."""
    if isinstance(value, Integral) and not isinstance(value, bool) \
            and abs(int(value)).bit_length() > 128:
        return f"an integer of {int(value).bit_length()} bits"
    text = _REPR.repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def check_seed(seed: Any, name: str = "seed") -> int:
    """A random generator's seed as an int in [0, MAX_SEED] (what numpy's default_rng takes),
    else InvalidParameterError naming ``name``: the one check of every ``random``
    constructor's seed (numpy's own error for -1 is a traceback about SeedSequence)."""
    return check_int(name, seed, 0, MAX_SEED)


def check_int(name: str, value: Any, minimum: int, maximum: int,
              error: type[Exception] = InvalidParameterError, or_none: bool = False) -> int:
    """value as an int in [minimum, maximum], else ``error`` naming the parameter and range
    (``or_none``: the message says None is allowed too; the caller handles None)."""
    if isinstance(value, bool) or not isinstance(value, Integral) \
            or not minimum <= value <= maximum:
        raise error(f"{name} must be {'None or ' if or_none else ''}an integer in "
                    f"[{minimum}, {maximum}]; got {excerpt(value)}")
    return int(value)


def check_number(name: str, value: Any, minimum: float = -MAX_VALUE, maximum: float = MAX_VALUE,
                 error: type[Exception] = InvalidParameterError) -> float:
    """value as a finite float in [minimum, maximum] (at most MAX_VALUE in magnitude), else
    ``error`` naming the parameter and range. An integer too large for a float (10**400) is
    refused by its size, never converted (no OverflowError)."""
    ok = isinstance(value, Real) and not isinstance(value, bool)
    if ok and isinstance(value, Integral):
        ok = abs(int(value)) <= MAX_VALUE and minimum <= int(value) <= maximum
    elif ok:
        ok = math.isfinite(float(value)) and minimum <= float(value) <= maximum
    if not ok:
        raise error(f"{name} must be a finite number in [{minimum:g}, {maximum:g}]; got "
                    f"{excerpt(value)}")
    return float(value)


def saturate(log_value: float) -> int:
    """exp(log_value) as an int, or MAX_COUNT when it is at least that large (no overflow)."""
    if not log_value < math.log(MAX_COUNT):
        return MAX_COUNT
    return min(MAX_COUNT, math.ceil(math.exp(log_value)))
