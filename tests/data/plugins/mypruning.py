"""Pruning families as a searchlab plug-in: defined outside the package (docs/extending.md,
"A pruning technique", from outside the package).

A plug-in family is a ``searchlab.algorithms.pruning.Family`` whose logic is a ``skip`` hook:
``skip(params, game, state, move, depth_left, alpha, beta, index) -> bool``, asked by the
reference engine's ``pruned_alphabeta`` for every move after a node's first; True = the move
is not searched. ``sound`` is the family's own declaration, which
``searchlab.testing.check_pruning`` holds it to (a sound family must return minimax's value).

A config names a family by ``module:ATTR`` (``family: mypruning:LATE_CUT`` with this folder on
``PYTHONPATH``), an installed package by the entry-point group ``searchlab.pruning``, Python
code by ``searchlab.algorithms.pruning.register_family``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from searchlab.algorithms.pruning import Family


@dataclass(frozen=True)
class LateCutParams:
    """``keep``: moves searched at a node within ``depth`` plies of the horizon (the rest are
    cut); ``depth``: how close to the horizon (remaining depth <= depth)."""

    keep: int = 2
    depth: int = 1

    def check(self) -> None:
        """Called by searchlab when the config is read: a ValueError names the parameter."""
        for name in ("keep", "depth"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError(f"{name} must be an integer >= 1; got {v!r}")


def late_cut(params: LateCutParams, game: Any, state: Any, move: Any, depth_left: int,
             alpha: float, beta: float, index: int) -> bool:
    """Near the horizon, search only the first ``keep`` moves (a move-count forward pruning:
    unsound, it can cut the best move)."""
    return depth_left <= params.depth and index >= params.keep


#: the family as its author declares it: unsound (it can cut the best move)
LATE_CUT = Family("late_cut", None, False, "late move cut near the horizon", skip=late_cut,
                  params=LateCutParams)

#: the same rule declared sound: a wrong declaration, which the battery must refuse
LATE_CUT_CLAIMED_SOUND = Family("late_cut_claimed_sound", None, True,
                                "late move cut, wrongly declared sound", skip=late_cut,
                                params=LateCutParams)


def equal_heaps(params: Any, game: Any, state: Any, move: Any, depth_left: int, alpha: float,
                beta: float, index: int) -> bool:
    """Nim (tests/data/plugins/nim_game.py): a move on heap i when an earlier heap has i's size
    leads to the position a move on that earlier heap gives, up to the heaps' order, which
    changes neither the game's value nor its static value: skip it. Sound (the earliest heap
    of each size is never skipped, so one of the equal moves is always searched)."""
    heaps = state[0]
    return heaps[move[0]] in heaps[:move[0]]


#: a sound family (checked so by the battery), without parameters (``params`` a plain mapping)
EQUAL_HEAPS = Family("equal_heaps", None, True, "Nim: skip moves on a heap equal to an earlier one",
                     skip=equal_heaps)
