"""Primitives for what a game does not have (the contract: searchlab.contracts.compiled).

The engine calls them only where the Python game lacks the matching method, which the
reference engine's validation refuses first; they exist so that every game hands the engine
the same tuple of primitives.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def no_order_key(s, m, code):
    """No own orderings: every move ties (natural order)."""
    return 0.0


@njit(cache=True)
def never_noisy(s, m):
    return False


@njit(cache=True)
def no_null_move(s, out):
    for k in range(s.shape[0]):
        out[k] = s[k]


@njit(cache=True)
def null_move_never(s):
    return False


@njit(cache=True)
def no_noisy_moves(s, out):
    return 0


@njit(cache=True)
def no_capture_gain(s, m):
    """No capture gains: the engine refuses delta pruning for the game (compiled_engine.supports)."""
    return 0.0


@njit(cache=True)
def null_move_always(s):
    """A null move allowed everywhere (a game wrapper's pass, e.g. the trade-off study's)."""
    return True
