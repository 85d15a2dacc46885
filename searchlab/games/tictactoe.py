"""Tic-tac-toe (3x3, X moves first) as a Game, and its compiled full-width search.

Board cells are numbered 0..8 row by row (0 = top left, 8 = bottom right). A state is an
immutable ``TicTacToeState(x, o)``: two 9-bit ints, bit i set when that player holds cell i;
the side to move follows from the stone counts (X when they are equal).

- Natural move order: the empty cells in increasing index, 0..8.
- The game ends when a player completes a row, column or diagonal, or the board is full.
- MAX is the player to move in the game's initial state (the protocol's definition): X for the
  empty board, which is the default. ``utility`` is +1 / 0 / -1 (win / draw / loss for MAX).
- ``evaluate`` (static value for MAX): (open lines of MAX - open lines of MIN) / 10, where a
  player's open line is one of the 8 lines holding none of the opponent's stones. It lies in
  [-0.8, 0.8], strictly inside the utility range, so a won position always ranks above a
  merely promising one.
- ``hash_key``: Zobrist, XOR of one fixed 64-bit key per (player, cell), plus a side key
  when O is to move. The table is derived from searchlab.hashing.mix64 with a fixed seed, so
  keys are the same in every process and run.
- Text format (``from_text`` / ``parse_moves``): the moves played from the empty board, as
  0-based cell indices separated by spaces and/or commas, X first, e.g. ``"4 0 8"``
  (X centre, O top left, X bottom right). An empty string is the empty board.

``kernel_search(position, algorithm)`` runs the compiled (numba) full minimax or fail-soft
alpha-beta in natural order from any position and returns a SearchResult counted like the
reference (searchlab/algorithms/reference.py): 549,946 nodes for minimax from the empty board,
18,297 for alpha-beta.
"""

from __future__ import annotations

import re
import time
from typing import Iterable, NamedTuple

import numpy as np

from searchlab.contracts.result import SearchResult
from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.games import tictactoe_kernel as kernel
from searchlab.contracts.protocol import Capabilities
from searchlab.games.svg import grid_svg
from searchlab.games.registry import GameEntry, LabBoard
from searchlab.games.tictactoe_compiled import ZOBRIST
from searchlab.games.tictactoe_compiled import compiled_game as _compiled_game

FULL = 0x1FF
LINES = (0b000000111, 0b000111000, 0b111000000,
         0b001001001, 0b010010010, 0b100100100,
         0b100010001, 0b001010100)

# _ZOBRIST[p * 9 + i]: player p (0 = X, 1 = O) on cell i; _ZOBRIST[18]: O to move (the keys
# live with the compiled primitives, which need them as constants).
_ZOBRIST = ZOBRIST


class TicTacToeState(NamedTuple):
    """Immutable position: ``x`` and ``o`` are 9-bit cell sets (bit i = cell i)."""

    x: int
    o: int

    @property
    def plies(self) -> int:
        return self.x.bit_count() + self.o.bit_count()

    @property
    def x_to_move(self) -> bool:
        return self.x.bit_count() == self.o.bit_count()


def _line_in(bits: int) -> bool:
    return any(bits & line == line for line in LINES)


# Lookup tables over all 512 cell sets: the reference search calls these at every node, and a
# tuple index is several times cheaper than testing eight lines.
_WIN = tuple(_line_in(b) for b in range(512))
_new_state = tuple.__new__          # NamedTuple's generated __new__ costs a Python call per node
_EMPTY = tuple(tuple(i for i in range(9) if not occ >> i & 1) for occ in range(512))


def _has_line(bits: int) -> bool:
    return _WIN[bits]


def _checked_state(state: TicTacToeState) -> TicTacToeState:
    """``state`` with plain ints, or InvalidParameterError when no game reaches it."""
    if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) and 0 <= v <= FULL
               for v in state):
        raise InvalidParameterError(f"not a tic-tac-toe position: {state!r}")
    x, o = int(state.x), int(state.o)
    if x & o or not 0 <= x.bit_count() - o.bit_count() <= 1 or (_has_line(x) and _has_line(o)):
        raise InvalidParameterError(f"not a reachable tic-tac-toe position: {state!r}")
    return TicTacToeState(x, o)


def parse_moves(text: str | Iterable[int]) -> TicTacToeState:
    """The state after the moves in ``text`` (see the module docstring for the format).

    Raises InvalidParameterError (a ValueError) naming the first bad token: not an integer in
    0..8, a cell already taken, or a move after the game ended.
    """
    if isinstance(text, str):
        tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    else:
        tokens = list(text)
    x = o = 0
    for k, tok in enumerate(tokens):
        try:
            if isinstance(tok, bool):
                raise ValueError
            cell = int(tok)
            if isinstance(tok, float) and tok != cell:
                raise ValueError
        except (TypeError, ValueError):
            raise InvalidParameterError(
                f"tic-tac-toe move {k + 1} is {tok!r}: moves are cell indices 0..8 "
                f"(row by row), separated by spaces or commas") from None
        if not 0 <= cell <= 8:
            raise InvalidParameterError(
                f"tic-tac-toe move {k + 1} is {tok!r}: cells are numbered 0..8 (row by row)")
        bit = 1 << cell
        if (x | o) & bit:
            raise InvalidParameterError(
                f"tic-tac-toe move {k + 1} is {tok!r}: cell {cell} is already taken")
        if _has_line(x) or _has_line(o):
            raise InvalidParameterError(
                f"tic-tac-toe move {k + 1} is {tok!r}: the game is already over")
        if k % 2 == 0:
            x |= bit
        else:
            o |= bit
    return TicTacToeState(x, o)


class TicTacToe:
    """Tic-tac-toe implementing the Game protocol (searchlab.contracts.protocol).

    ``TicTacToe()`` starts from the empty board (MAX = X); ``TicTacToe("4 0 8")``,
    ``TicTacToe([4, 0, 8])`` or ``TicTacToe.from_text("4 0 8")`` starts from the position
    after those moves, ``TicTacToe(state)`` from a TicTacToeState; MAX is then the player to
    move there.
    """

    name = "tictactoe"
    capabilities: Capabilities = Capabilities(static_values=True, compiled=True)
    default_depth = None
    #: small enough to search to the end without a depth or node budget (algorithms.search_api)
    solvable = True

    def __init__(self, moves: "str | Iterable[int] | TicTacToeState" = "") -> None:
        if isinstance(moves, TicTacToeState):
            self._root = _checked_state(moves)
            self.name = f"tictactoe[x={self._root.x:#05x},o={self._root.o:#05x}]"
        else:
            moves = moves if isinstance(moves, str) else list(moves)
            self._root = parse_moves(moves)
            shown = moves.strip() if isinstance(moves, str) else " ".join(map(str, moves))
            if shown:
                self.name = f"tictactoe[{shown}]"
        self._max_is_x = self._root.x_to_move

    @classmethod
    def from_text(cls, text: str) -> "TicTacToe":
        """The game rooted at the position after ``text``'s moves (format: module docstring)."""
        return cls(text)

    # --- the Game protocol ---------------------------------------------------------------
    def initial_state(self) -> TicTacToeState:
        return self._root

    def max_to_move(self, state: TicTacToeState) -> bool:
        return state.x_to_move == self._max_is_x

    def legal_moves(self, state: TicTacToeState) -> tuple[int, ...]:
        x, o = state
        if _WIN[x] or _WIN[o]:
            return ()
        return _EMPTY[x | o]

    def play(self, state: TicTacToeState, move: int) -> TicTacToeState:
        x, o = state
        if move not in _EMPTY[x | o] or _WIN[x] or _WIN[o]:
            raise InvalidParameterError(
                f"tic-tac-toe move must be an empty cell 0..8 of a game not over; got {move!r} in {state}")
        bit = 1 << move
        if x.bit_count() == o.bit_count():
            return _new_state(TicTacToeState, (x | bit, o))
        return _new_state(TicTacToeState, (x, o | bit))

    def is_terminal(self, state: TicTacToeState) -> bool:
        x, o = state
        return (x | o) == FULL or _WIN[x] or _WIN[o]

    def utility(self, state: TicTacToeState) -> float:
        x, o = state
        if _has_line(x):
            return 1.0 if self._max_is_x else -1.0
        if _has_line(o):
            return -1.0 if self._max_is_x else 1.0
        if (x | o) == FULL:
            return 0.0
        raise InvalidParameterError(f"utility of a non-terminal state {state}")

    def evaluate(self, state: TicTacToeState) -> float:
        x, o = state
        open_x = sum(1 for line in LINES if not o & line)
        open_o = sum(1 for line in LINES if not x & line)
        diff = (open_x - open_o) / 10
        return diff if self._max_is_x else -diff

    def hash_key(self, state: TicTacToeState) -> int:
        x, o = state
        key = 0
        for i in range(9):
            if x >> i & 1:
                key ^= _ZOBRIST[i]
            elif o >> i & 1:
                key ^= _ZOBRIST[9 + i]
        if not state.x_to_move:
            key ^= _ZOBRIST[18]
        return key

    def compiled_primitives(self):
        """The compiled engine's primitives (searchlab.games.tictactoe_compiled)."""
        return _compiled_game(self._max_is_x)

    # --- conveniences --------------------------------------------------------------------
    def render(self, state: TicTacToeState) -> str:
        """Three lines of X, O and '.'."""
        x, o = state
        cells = ["X" if x >> i & 1 else "O" if o >> i & 1 else "." for i in range(9)]
        return "\n".join("".join(cells[r * 3:r * 3 + 3]) for r in range(3))

    def __repr__(self) -> str:
        s = self._root
        plies = s.x.bit_count() + s.o.bit_count()
        return f"TicTacToe({self.name}: {plies} plies, {'X' if s.x_to_move else 'O'} to move)"

    def _repr_html_(self) -> str:
        """The root position as an SVG board (notebooks show it)."""
        s = self._root
        return grid_svg(self.render(s).split("\n"), "tictactoe",
                        caption=f"{self.name}, {'X' if s.x_to_move else 'O'} to move")


ALGORITHMS = ("minimax", "alphabeta")


def kernel_search(position: TicTacToe | TicTacToeState | str = "", algorithm: str = "minimax"):
    """Compiled full-depth search from ``position`` in natural order; returns a SearchResult.

    ``position``: a TicTacToe game (its initial state), a TicTacToeState, or a move string.
    ``algorithm``: "minimax" (every node) or "alphabeta" (fail-soft, root window (-inf, +inf)).
    Counting and values as in searchlab/algorithms/reference.py (MAX = the side to move at the
    root): nodes 549,946 (minimax) and 18,297 (alpha-beta) from the empty board, value 0.
    """
    if algorithm not in ALGORITHMS:
        raise InvalidParameterError(
            f"algorithm must be one of {', '.join(ALGORITHMS)}; got {algorithm!r}")
    if isinstance(position, TicTacToe):
        state = position.initial_state()
    elif isinstance(position, TicTacToeState):
        state = _checked_state(position)
    elif isinstance(position, str):
        state = parse_moves(position)
    else:
        raise UnsupportedError(
            "position must be a TicTacToe, a TicTacToeState or a move string; "
            f"got {type(position).__name__}")
    x, o = int(state.x), int(state.o)
    me, opp = (x, o) if state.x_to_move else (o, x)
    stats = np.zeros(kernel.STATS_LEN, dtype=np.int64)
    t0 = time.perf_counter()
    value, best, tied = kernel._root(me, opp, algorithm == "alphabeta", kernel.WIN, stats)
    wall = time.perf_counter() - t0
    per_ply = [int(v) for v in stats[3:]]
    top = max((i for i, v in enumerate(per_ply) if v), default=0)
    best_move = int(best) if best >= 0 else None
    if algorithm == "minimax":
        best_moves = tuple(i for i in range(9) if int(tied) >> i & 1)
        complete = True
    else:
        best_moves = (best_move,) if best_move is not None else ()
        complete = False
    nodes, leaves = int(stats[0]), int(stats[1])
    return SearchResult(
        value=float(value), best_move=best_move, best_moves=best_moves,
        best_moves_complete=complete, nodes=nodes, leaves=leaves, interior=nodes - leaves,
        cutoffs=int(stats[2]), per_ply=tuple(per_ply[:top + 1]), iterations=(nodes,),
        wall_time=wall, algorithm=algorithm, ordering="natural", engine="kernel", depth=top)


def _lab_cells(state: TicTacToeState) -> list[list[int]]:
    """The lab's board: rows top to bottom, 1 = X, 2 = O, 0 = empty."""
    return [[1 if state.x >> (3 * r + c) & 1 else 2 if state.o >> (3 * r + c) & 1 else 0
             for c in range(3)] for r in range(3)]


def _lab_after(position: str, game: "TicTacToe", move: int) -> str:
    # cells are written "4 0 8": a space between them, none before the first
    return position.strip() + (" " if position.strip() else "") + str(move)


#: how the lab draws it: positions are from_text's cell lists, moves the cells' numbers
LAB_BOARD = LabBoard(build=TicTacToe.from_text, after=_lab_after,
                     move_name=lambda game, move: str(move),
                     first_to_move=lambda state: state.x_to_move, cells=_lab_cells,
                     move_cell=lambda game, move: [move // 3, move % 3], pieces=("X", "O"), depth=9,
                     marks=True, numbered=True)

#: this game's declaration in the game registry (searchlab.games.registry)
GAME = GameEntry(name="tictactoe", make=TicTacToe, source_kind="start", sources=("start",),
                 nominal_b=5, label="Tic-tac-toe", at_state=TicTacToe, lab=True, lab_board=LAB_BOARD,
                 order=10,
                 # its engine's cold compile, CPU s (docs/compile-time.md, the warm-up row)
                 compile_seconds=23)
