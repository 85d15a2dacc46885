"""OpenSpiel's chinese_checkers for the n-player engine: an evaluation and payoffs that meet
shallow pruning's conditions (the second domain of the multi-player study, claim 000-q).

``OpenSpielChineseCheckers(players=3, history=())`` is ``OpenSpielGame("chinese_checkers",
players=players)`` (the adapter: OpenSpiel's rules, moves = OpenSpiel action ids, plies =
OpenSpiel actions) with two additions:

- ``evaluate_vector``: relative progress. A player's progress P_p = 140 - (the summed hex
  distance of its ten pieces to the apex of its target triangle, the triangle opposite its
  home); 140 is that sum at the start, and every cell outside the home triangle is nearer the
  target apex than any home cell, so 0 <= P_p <= 120. The vector is
  v_p = n·P_p - sum_j P_j + (n-1)·120: integers >= 0 summing to n(n-1)·120 in every state
  (n·v_p is the player's progress minus the mean progress, shifted).
- ``utility_vector``: OpenSpiel's returns r (winner n-1, others -1; all 0 when max_moves ends
  the game) mapped by r -> (r + 1)·(n-1)·120: a win is worth n(n-1)·120, more than any
  evaluation; the sum is n(n-1)·120 as well.

OpenSpiel's own returns are zero-sum with negative values, so Korf's conditions for shallow
pruning (payoffs >= 0, constant sum) do not hold for them as given (the plain adapter's
``leaf_total`` is None and ``maxn-shallow`` is refused there); they hold for the map above, a
positive affine map of every component, which changes no max^n or paranoid decision.
``leaf_total`` is n(n-1)·120.

Geometry comes from OpenSpiel's own rendering (``str(state)``: cells row by row at doubled
column coordinates), not a copied table. A hop chain is several OpenSpiel actions of the same
player (continuation hops, then "Pass" or the chain's end), so the player to move does not
rotate at every ply. Best-reply search is not available (OpenSpiel states cannot change the
player to move). Needs open-spiel (UnsupportedError otherwise, from the adapter).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from searchlab.errors import InvalidParameterError
from searchlab.limits import check_seed
from searchlab.games.openspiel import OpenSpielGame

HOME_SUM = 140          # summed distance of a home triangle's pieces to the target apex
MAX_PROGRESS = 120      # HOME_SUM - 20 (the target triangle's own sum)


def _cells(text: str) -> tuple[list[tuple[int, int]], list[str]]:
    """((row, doubled column) per cell in OpenSpiel's cell order, occupant character per cell)
    of a rendered chinese_checkers state."""
    coords, occ = [], []
    for r, line in enumerate(text.split("\nPlayer")[0].split("\n")):
        for c, ch in enumerate(line):
            if ch != " ":
                coords.append((r, c))
                occ.append(ch)
    return coords, occ


def _hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Steps between two cells in doubled coordinates (a row step moves the column by 1)."""
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    return dr + max(0, (dc - dr) // 2)


def in_hop_chain(state: Any) -> bool:
    """True when the player to move is in the middle of a hop chain (OpenSpiel's rendering
    says "(hopping from <cell>)"): its moves are continuation hops and "Pass"."""
    return "(hopping from" in str(state)


class OpenSpielChineseCheckers(OpenSpielGame):
    """OpenSpiel's chinese_checkers with the progress evaluation and mapped payoffs (module doc)."""

    def __init__(self, players: int = 3, history: Sequence[int] = ()) -> None:
        if isinstance(players, bool) or players not in (2, 3, 4, 6):
            raise InvalidParameterError(f"players must be 2, 3, 4 or 6 (OpenSpiel's chinese_checkers); got {players!r}")
        super().__init__("chinese_checkers", history=history, players=players)
        self.evaluation = self._progress_vector
        self.has_static = True
        coords, occ = _cells(str(self.game.new_initial_state()))
        n = self.n_players
        self.total = n * (n - 1) * MAX_PROGRESS
        self.value_bounds = (0.0, float(self.total))
        centre = (coords[-1][0] // 2, max(c for _, c in coords) // 2)
        # distance[p][cell] = steps from the cell to the apex of player p's target triangle
        self._distance = np.zeros((n, len(coords)), dtype=np.int64)
        for p in range(n):
            home = [coords[i] for i, ch in enumerate(occ) if ch == str(p + 1)]
            apex = max(home, key=lambda rc: _hex_distance(rc, centre))
            target = (2 * centre[0] - apex[0], 2 * centre[1] - apex[1])
            self._distance[p] = [_hex_distance(rc, target) for rc in coords]
        if any(int(self._distance[p][[i for i, ch in enumerate(occ) if ch == str(p + 1)]].sum()) != HOME_SUM
               for p in range(n)):
            raise RuntimeError("unexpected chinese_checkers board: home triangles do not sum to 140")

    @property
    def name(self) -> str:
        return f"openspiel:chinese_checkers(players={self.n_players}, progress evaluation)"

    def progress(self, state: Any) -> tuple[int, ...]:
        """P_p per player (module doc): 0 at the start, 120 with every piece home."""
        _, occ = _cells(str(state))
        out = []
        for p in range(self.n_players):
            mine = [i for i, ch in enumerate(occ) if ch == str(p + 1)]
            out.append(HOME_SUM - int(self._distance[p][mine].sum()))
        return tuple(out)

    def _progress_vector(self, state: Any) -> tuple[int, ...]:
        prog = self.progress(state)
        n, s = self.n_players, sum(prog)
        return tuple(n * p - s + (n - 1) * MAX_PROGRESS for p in prog)

    def utility_vector(self, state: Any) -> tuple[float, ...]:
        k = (self.n_players - 1) * MAX_PROGRESS
        return tuple((float(r) + 1.0) * k for r in state.returns())

    def utility(self, state: Any) -> float:
        return self.utility_vector(state)[self.max_player]

    def leaf_total(self, state: Any, depth: float) -> float:
        return float(self.total)

    @classmethod
    def random(cls, players: int, plies: int, seed: int) -> "OpenSpielChineseCheckers":
        """The game rooted after ``plies`` uniformly random OpenSpiel actions from the start
        (numpy default_rng(seed)), continued while a hop chain is unfinished, so the root is
        the start of a player's turn; fewer if the game would end (never a terminal root)."""
        g = cls(players)
        rng = np.random.default_rng(check_seed(seed))
        s, hist = g.initial_state().clone(), []
        k = 0
        while k < plies or in_hop_chain(s):
            k += 1
            acts = s.legal_actions()
            a = acts[int(rng.integers(len(acts)))]
            child = s.clone()
            child.apply_action(a)
            if child.is_terminal():
                break
            s, hist = child, hist + [a]
        return cls(players, history=hist)
