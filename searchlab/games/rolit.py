"""Rolit: Othello for three or four players, on Othello's bitboards (searchlab.games.othello).

Rules as implemented (Schadd & Winands 2011's description of Rolit)
    - 8x8 board, squares numbered as in Othello (a1 = 0, ..., h8 = 63). Four colours 0..3;
      the start has colour 0 on d4, 1 on e4, 2 on e5, 3 on d5. With 3 players colour 3 belongs
      to nobody (neutral discs: they can be captured, never placed).
    - Players 0, 1, ..., n-1 move in turn; player i places discs of colour i.
    - A *capturing* move places a disc so that one or more straight lines of discs of other
      colours (any mix, neutral included) lie between it and a disc of the mover's colour;
      those discs become the mover's. If the mover has a capturing move, it must capture;
      otherwise it may place a disc on any empty square 8-adjacent to a disc. A player thus
      always has a move until the board is full: the game lasts exactly 60 plies, no passes.
    - Natural move order: ascending square index.

Payoffs (vectors, player 0 first; non-negative and constant-sum, as shallow pruning needs)
    - terminal (board full): ``n · discs_i + neutral`` (the neutral discs shared equally,
      scaled by n to stay integral); they sum to 64 n. The winner is the player with most discs.
    - evaluation at a horizon: the same plus a corner term ``C · (n · corners_i + free)``,
      C = 4, with corners_i the corners player i holds and free the corners no player holds
      (empty or neutral); the vector sums to n · discs + 4 C n.
    ``leaf_total(state, depth)`` is the sum every leaf of a search from ``state`` to ``depth``
    shares (all its leaves are terminal, or all at the horizon with the same disc count).

State: ``RolitState(discs, mover)``, discs a 4-tuple of bitboards by colour.
``random_position(players, plies, seed)``: after that many uniformly random moves (numpy
Generator from the seed, no global state).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from searchlab.errors import InvalidParameterError
from searchlab.limits import check_seed
from searchlab.games import rolit_compiled
from searchlab.games.othello import CORNERS, _squares, flips, legal_squares
from searchlab.contracts.protocol import Capabilities
from searchlab.games.rolit_compiled import CORNER_WEIGHT
from searchlab.hashing import MASK64

__all__ = ["CORNER_WEIGHT", "Rolit", "RolitState"]
FULL = MASK64
_START = (1 << 27, 1 << 28, 1 << 36, 1 << 35)      # d4, e4, e5, d5
_NEIGHBOURS = []
for _sq in range(64):
    _r, _c = divmod(_sq, 8)
    _NEIGHBOURS.append(sum(1 << (8 * (_r + dr) + _c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                           if (dr or dc) and 0 <= _r + dr < 8 and 0 <= _c + dc < 8))


class RolitState(NamedTuple):
    discs: tuple[int, int, int, int]
    mover: int


def _adjacent(occupied: int) -> int:
    """Empty squares 8-adjacent to an occupied one (shifts masked against wrap-around)."""
    not_a, not_h = 0xFEFEFEFEFEFEFEFE, 0x7F7F7F7F7F7F7F7F
    o = occupied
    n = ((o << 1) & not_a) | ((o >> 1) & not_h) | (o << 8) | (o >> 8) \
        | ((o << 9) & not_a) | ((o << 7) & not_h) | ((o >> 7) & not_a) | ((o >> 9) & not_h)
    return n & ~occupied & FULL


class Rolit:
    """Rolit for 3 or 4 players as a MultiPlayerGame (searchlab.contracts.protocol)."""

    has_static = True
    default_depth = None
    capabilities = Capabilities(two_player=False, zero_sum=False, constant_sum=True, with_mover=True,
                                family_compiled=True)

    def __init__(self, players: int = 4, root: RolitState | None = None) -> None:
        if isinstance(players, bool) or players not in (3, 4):
            raise InvalidParameterError(f"players must be 3 or 4; got {players!r}")
        self.n_players = players
        self.root = RolitState(_START, 0) if root is None else root

    @property
    def name(self) -> str:
        return f"rolit(players={self.n_players})"

    @classmethod
    def random(cls, players: int, plies: int, seed: int) -> "Rolit":
        """A game rooted after ``plies`` random moves from the start (0 <= plies < 60)."""
        if isinstance(plies, bool) or not isinstance(plies, int) or not 0 <= plies < 60:
            raise InvalidParameterError(f"plies must be an integer in [0, 59]; got {plies!r}")
        g = cls(players)
        rng = np.random.default_rng(check_seed(seed))
        s = g.root
        for _ in range(plies):
            moves = g.legal_moves(s)
            s = g.play(s, moves[int(rng.integers(len(moves)))])
        return cls(players, s)

    def initial_state(self) -> RolitState:
        return self.root

    def to_move(self, state: RolitState) -> int:
        return state.mover

    def with_mover(self, state: RolitState, player: int) -> RolitState:
        return RolitState(state.discs, player)

    def legal_moves(self, state: RolitState) -> list[int]:
        discs = state.discs
        own = discs[state.mover]
        occupied = discs[0] | discs[1] | discs[2] | discs[3]
        captures = legal_squares(own, occupied & ~own)
        return _squares(captures if captures else _adjacent(occupied))

    def play(self, state: RolitState, move: int) -> RolitState:
        discs, p = state.discs, state.mover
        own = discs[p]
        occupied = discs[0] | discs[1] | discs[2] | discs[3]
        f = flips(own, occupied & ~own, move)
        new = tuple((d | f | (1 << move)) if c == p else (d & ~f) for c, d in enumerate(discs))
        return RolitState(new, (p + 1) % self.n_players)

    def is_terminal(self, state: RolitState) -> bool:
        d = state.discs
        return (d[0] | d[1] | d[2] | d[3]) == FULL

    def _base(self, state: RolitState) -> list[int]:
        n = self.n_players
        neutral = state.discs[3].bit_count() if n == 3 else 0
        return [n * state.discs[i].bit_count() + neutral for i in range(n)]

    def utility_vector(self, state: RolitState) -> tuple[float, ...]:
        return tuple(float(x) for x in self._base(state))

    def evaluate_vector(self, state: RolitState) -> tuple[float, ...]:
        n = self.n_players
        held = [sum(state.discs[i] >> c & 1 for c in CORNERS) for i in range(n)]
        free = 4 - sum(held)
        return tuple(float(x + CORNER_WEIGHT * (n * h + free)) for x, h in zip(self._base(state), held))

    def leaf_total(self, state: RolitState, depth: float) -> int:
        discs = sum(d.bit_count() for d in state.discs)
        n = self.n_players
        if discs + depth >= 64:
            return 64 * n
        return n * (discs + int(depth)) + 4 * CORNER_WEIGHT * n

    def winners(self, state: RolitState) -> list[int]:
        """The players with the most discs (several on a tie)."""
        counts = [state.discs[i].bit_count() for i in range(self.n_players)]
        top = max(counts)
        return [i for i, c in enumerate(counts) if c == top]

    def hash_key(self, state: RolitState) -> int:
        return hash((state.discs, state.mover)) & MASK64

    def family_primitives(self) -> Any:
        """The compiled n-player engine's primitives (searchlab.games.rolit_compiled)."""
        return rolit_compiled.compiled_nplayer_game(self)

    def render(self, state: RolitState) -> str:
        rows = []
        for r in range(8):
            row = ""
            for c in range(8):
                sq = 8 * r + c
                row += next((str(i) for i in range(4) if state.discs[i] >> sq & 1), ".")
            rows.append(row)
        return "\n".join(rows) + f"\nplayer {state.mover} to move"

    def __repr__(self) -> str:
        return self.name
