"""Hex on an n x n board (n = 1..11, no swap rule) as a Game.

Board and cells
    Cell (r, c), row r = 0..n-1 from the top, column c = 0..n-1 from the left, has index
    ``i = r * n + c``; a move is that int. Text names a cell by its column letter and 1-based
    row, as HexGui and HexWiki do: ``a1`` = 0 (top left), ``b1`` = 1, ..., ``a2`` = n.
    ``cell_name(i, n)`` / ``parse_cell("c3", n)`` convert. Each row is shifted half a cell to
    the right of the row above, so (r, c) touches (r, c-1), (r, c+1), (r-1, c), (r-1, c+1),
    (r+1, c-1), (r+1, c): a1 and the bottom-right cell are the acute corners (two
    neighbours), the other two corners obtuse (three).

Players
    X (HexWiki's Red, "Black" elsewhere) moves first and connects the top row to the bottom
    row; O connects the left column to the right column. No swap rule. A board cannot fill
    up without exactly one player connected (the Hex theorem), so there are no draws.

State
    An immutable ``HexState(x, o, n)``: two cell sets as ints (bit i = cell i) and the size.
    X is to move when both have as many stones.

Rules as the Game protocol sees them
    - Natural move order: the empty cells by ascending index (a1, b1, ..., row by row).
    - Terminal: the player who moved last has connected its two sides (only the last mover
      can have; a test by flood fill over bitboards, ``connected``).
    - MAX is the side to move in the game's initial state (X on the empty board).
      ``utility`` is +1 when MAX has connected, -1 when MIN has: win/loss only, as OpenSpiel's
      Hex, so node counts can be compared with it.
    - ``evaluate`` (non-terminal states, MAX's view) is a *shortest-path* difference:
      ``(d_MIN - d_MAX) / (n*n + 1)``, where d_p is the least number of empty cells p must
      still fill to connect its sides (a 0-1 breadth-first search: p's stones cost 0, empty
      cells 1, the opponent's stones are walls; ``distance``). 1 <= d_p <= n*n in a non-terminal
      position, so the value lies strictly inside (-1, 1) and every decided game (+-1)
      outranks every estimate. Why shortest path and not Anshelevich's resistance or
      Queenbee's two-distance: it is an exact small integer computed by a few bitboard
      operations, so the compiled primitives reproduce it bit for bit (a resistance needs a
      floating-point linear solve whose rounding differs between numpy and numba), and it is
      cheap enough for the pure-Python reference engine. It does not value the side to move.
    - ``hash_key``: Zobrist: XOR of one fixed 64-bit key per (player, cell) (cells 0..120),
      from searchlab.hashing.mix64 with a fixed seed: the same in every process. The side to
      move follows from the stone counts, so it needs no key.

Orderings (``move_orderings()``)
    ``adjacent``: the cells touching at least one stone (of either colour) first, those
    touching more stones before those touching fewer (contact fights first), ties in natural
    order; then every other empty cell in natural order. On the empty board it is the natural
    order. ``adjacent_key(state, move)`` is the sort key (0..5 for a cell touching 6..1
    stones, 6 for the rest), shared with the compiled primitives.

Text (``from_text`` / ``to_text``)
    - a move list: the size, then the moves from the empty board, X first, e.g.
      ``"5 c3 b4"`` (separators spaces or commas, case-insensitive; ``"5"`` alone is the
      empty 5x5 board);
    - a diagram: the rows top to bottom separated by ``/``, one character per cell, ``X``,
      ``O`` or ``.``, e.g. ``"..X/.O./..."`` (3x3; the size is the number of rows).
      ``to_text(state)`` writes this form; it names any position exactly.
    Bad input raises InvalidParameterError (a ValueError) with one line naming what is wrong:
    a size outside 1..11, a token that is not a cell, a taken cell, a move after the game
    ended, a diagram with rows of the wrong length, stone counts no game reaches, or a
    diagram in which the game ended before its last stone.

``random_position(n, ply, seed)`` gives a reproducible non-terminal position after ``ply``
uniformly random moves (numpy Generator from the seed, no global RNG).

``solve(position, all_moves=False)`` solves small boards exactly (a dedicated win/loss solver,
pure Python; the empty 4x4 board in seconds). The board arithmetic (masks, neighbours,
``connected``, ``distance``, Zobrist keys) lives in searchlab.games.hex_board, shared with the
numba primitives of searchlab.games.hex_compiled.
"""

from __future__ import annotations

import re
import time
from functools import lru_cache
from typing import Callable, Iterable, NamedTuple

import numpy as np

from searchlab.limits import SOLVABLE_EMPTY
from searchlab.errors import InvalidParameterError
from searchlab.games.hex_board import (MAX_SIZE, MIN_SIZE, check_size, connected, distance,
                                       masks, neighbours, zobrist)
from searchlab.games.hex_compiled import compiled_game as _compiled_game
from searchlab.contracts.protocol import Capabilities
from searchlab.games.svg import hex_svg
from searchlab.games.registry import GameEntry, LabBoard

_COLS = "abcdefghijk"


def cell_name(cell: int, n: int) -> str:
    """"a1" .. for a cell index of the n x n board."""
    n = check_size(n)
    if isinstance(cell, bool) or not isinstance(cell, (int, np.integer)) or not 0 <= cell < n * n:
        raise InvalidParameterError(f"a Hex cell of the {n}x{n} board is an int 0..{n * n - 1}; "
                                    f"got {cell!r}")
    return f"{_COLS[cell % n]}{cell // n + 1}"


def parse_cell(text: str, n: int) -> int:
    """The cell index of "a1".."k11" (case-insensitive) on the n x n board."""
    m = re.fullmatch(r"([a-k])(\d{1,2})", text.strip().lower()) if isinstance(text, str) else None
    if m:
        c, r = _COLS.index(m[1]), int(m[2]) - 1
        if c < n and 0 <= r < n:
            return r * n + c
    raise InvalidParameterError(
        f"Hex cell {text!r} is not on the {n}x{n} board (column a..{_COLS[n - 1]}, row 1..{n})")


# --- the state ------------------------------------------------------------------------------
class HexState(NamedTuple):
    """Immutable position: ``x`` and ``o`` are cell sets (bit i = cell i), ``n`` the size."""

    x: int
    o: int
    n: int

    @property
    def x_to_move(self) -> bool:
        return self.x.bit_count() == self.o.bit_count()

    @property
    def plies(self) -> int:
        return self.x.bit_count() + self.o.bit_count()

    def winner(self) -> str | None:
        """"X" or "O" when that player has connected its sides (only the last mover can have
        in a position reached by play), else None."""
        if self.x_to_move:
            return "O" if connected(self.o, self.n, False) else None
        return "X" if connected(self.x, self.n, True) else None


@lru_cache(maxsize=1 << 16)
def _empty_cells(occupied: int, n: int) -> tuple[int, ...]:
    return tuple(_bits(masks(n).board & ~occupied))


def _play(state: HexState, cell: int) -> HexState:
    bit = 1 << cell
    if state.x_to_move:
        return HexState(state.x | bit, state.o, state.n)
    return HexState(state.x, state.o | bit, state.n)


def check_state(state: object) -> HexState:
    """``state`` with plain ints, or InvalidParameterError when no game of Hex reaches it."""
    if not isinstance(state, HexState):
        raise InvalidParameterError(f"not a HexState: {state!r}")
    n = check_size(state.n)
    board = masks(n).board
    for v in (state.x, state.o):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= v <= board:
            raise InvalidParameterError(f"not a {n}x{n} Hex position (cells outside the board): "
                                        f"{state!r}")
    x, o = int(state.x), int(state.o)
    if x & o:
        raise InvalidParameterError(f"not a Hex position (a cell holds both colours): {state!r}")
    s = HexState(x, o, n)
    if not 0 <= x.bit_count() - o.bit_count() <= 1:
        raise InvalidParameterError(
            f"no Hex game reaches {x.bit_count()} X and {o.bit_count()} O stones (X moves first, "
            "so X has as many stones as O or one more)")
    last, vertical = (o, False) if s.x_to_move else (x, True)
    other = x if s.x_to_move else o
    if connected(other, n, not vertical):
        raise InvalidParameterError(
            "no Hex game reaches this position: the player to move has already connected")
    if connected(last, n, vertical) and all(connected(last & ~(1 << c), n, vertical)
                                            for c in _bits(last)):
        raise InvalidParameterError(
            "no Hex game reaches this position: the game was already won before the last stone")
    return s


def _bits(v: int) -> list[int]:
    """The set bits of ``v`` in ascending order."""
    out = []
    while v:
        low = v & -v
        out.append(low.bit_length() - 1)
        v ^= low
    return out


# --- text -------------------------------------------------------------------------------------
def parse_moves(text: "str | Iterable[int]", n: int) -> HexState:
    """The state after the moves in ``text`` (cell names or indices) from the empty n x n
    board; InvalidParameterError names the first bad move."""
    n = check_size(n)
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t] if isinstance(text, str) \
        else list(text)
    state = HexState(0, 0, n)
    for k, tok in enumerate(tokens):
        if isinstance(tok, str):
            try:
                cell = parse_cell(tok, n)
            except InvalidParameterError as e:
                raise InvalidParameterError(f"Hex move {k + 1}: {e}") from None
        elif isinstance(tok, (int, np.integer)) and not isinstance(tok, bool) \
                and 0 <= tok < n * n:
            cell = int(tok)
        else:
            raise InvalidParameterError(
                f"Hex move {k + 1} is {tok!r}: a cell name like 'c3' or an index 0..{n * n - 1}")
        if state.winner():
            raise InvalidParameterError(
                f"Hex move {k + 1} ({cell_name(cell, n)}): the game is already over "
                f"({state.winner()} has connected)")
        if (state.x | state.o) >> cell & 1:
            raise InvalidParameterError(
                f"Hex move {k + 1} ({cell_name(cell, n)}): the cell is already taken")
        state = _play(state, cell)
    return state


def parse_diagram(text: str) -> HexState:
    """The state drawn by a diagram "..X/.O./..." (module docstring), validated."""
    rows = [r.strip() for r in text.strip().split("/")]
    n = len(rows)
    if not MIN_SIZE <= n <= MAX_SIZE:
        raise InvalidParameterError(
            f"a Hex diagram has 1..11 rows separated by '/'; got {n} rows in {text!r}")
    x = o = 0
    for r, row in enumerate(rows):
        if len(row) != n or set(row.upper()) - set("XO."):
            raise InvalidParameterError(
                f"Hex diagram row {r + 1} is {row!r}: each of the {n} rows needs {n} characters "
                "from X, O and '.'")
        for c, ch in enumerate(row.upper()):
            if ch == "X":
                x |= 1 << (r * n + c)
            elif ch == "O":
                o |= 1 << (r * n + c)
    return check_state(HexState(x, o, n))


def parse_text(text: str) -> HexState:
    """A diagram (contains '/') or a move list "n moves..." (module docstring)."""
    if not isinstance(text, str):
        raise InvalidParameterError(f"Hex position text must be a string; got {text!r}")
    if "/" in text or re.fullmatch(r"[XO.]", text.strip().upper()):     # a 1x1 diagram has no '/'
        return parse_diagram(text)
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    if not tokens or not tokens[0].isdigit():
        raise InvalidParameterError(
            f"Hex position text {text!r}: a diagram like '..X/.O./...' or the board size followed "
            "by moves, like '5 c3 b4'")
    return parse_moves(tokens[1:], check_size(int(tokens[0])))


def to_text(state: HexState) -> str:
    """The diagram of ``state``: rows top to bottom joined by '/', X, O and '.'."""
    n = state.n
    return "/".join("".join("X" if state.x >> (r * n + c) & 1 else "O" if state.o >> (r * n + c) & 1
                            else "." for c in range(n)) for r in range(n))


def random_position(n: int, ply: int, seed: int) -> HexState:
    """The position after ``ply`` uniformly random moves from the empty n x n board.

    The moves are drawn from ``numpy.random.default_rng(seed)`` only. A game that ends before
    ``ply`` is replayed with the generator's next draws (the result depends on (n, ply, seed)
    alone); the returned state is never terminal. InvalidParameterError after 1000 tries.
    """
    n = check_size(n)
    if isinstance(ply, bool) or not isinstance(ply, (int, np.integer)) or not 0 <= ply < n * n:
        raise InvalidParameterError(f"ply must be an integer in 0..{n * n - 1} on the {n}x{n} "
                                    f"board; got {ply!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InvalidParameterError(f"seed must be an integer >= 0; got {seed!r}")
    rng = np.random.default_rng(int(seed))
    for _ in range(1000):
        state = HexState(0, 0, n)
        for _ in range(int(ply)):
            cells = _empty_cells(state.x | state.o, n)
            state = _play(state, cells[int(rng.integers(len(cells)))])
            if state.winner():
                break
        else:
            return state
    raise InvalidParameterError(
        f"no random {n}x{n} Hex game of seed {seed} lasted {ply} plies in 1000 tries")


# --- the ordering ------------------------------------------------------------------------------

def adjacent_key(state: HexState, cell: int) -> int:
    """The "adjacent" order's key of an empty cell: 6 - (stones touching it) when it touches
    at least one stone (0..5), else 6. Sorting stably by it gives the order."""
    m = masks(state.n)
    touching = (neighbours(1 << cell, m) & (state.x | state.o)).bit_count()
    return 6 - touching if touching else 6


def adjacent_first(state: HexState, moves: list[int]) -> list[int]:
    """The "adjacent" policy (module docstring): stable sort by ``adjacent_key``."""
    return sorted(moves, key=lambda c: adjacent_key(state, c))


# --- the game ---------------------------------------------------------------------------------
class Hex:
    """Hex on the n x n board implementing the Game protocol (searchlab.contracts.protocol).

    ``Hex(n)`` starts from the empty board (MAX = X); ``Hex(n, "c3 b4")`` or
    ``Hex(n, [12, 16])`` after those moves; ``Hex.from_text("5 c3 b4")`` or
    ``Hex.from_text("..X/.O./...")`` from a position text; ``Hex.from_state(state)`` from a
    HexState. MAX is the side to move in the root position. Rules: module docstring.
    """

    capabilities: Capabilities = Capabilities(static_values=True, own_orderings=True,
                                              compiled=True)
    default_depth = None

    def __init__(self, n: int, moves: "str | Iterable[int]" = "") -> None:
        self.n = check_size(n)
        self._root = parse_moves(moves, self.n)
        self._set_root()

    def _set_root(self) -> None:
        self._max_is_x = self._root.x_to_move
        self.name = f"hex{self.n}" if not self._root.plies else f"hex{self.n}[{to_text(self._root)}]"

    @classmethod
    def from_state(cls, state: HexState) -> "Hex":
        """The game rooted at ``state`` (validated: a position some game reaches)."""
        state = check_state(state)
        game = cls(state.n)
        game._root = state
        game._set_root()
        return game

    @classmethod
    def from_text(cls, text: str) -> "Hex":
        """The game rooted at a position text (a diagram or "n moves...": module docstring)."""
        return cls.from_state(parse_text(text))

    @classmethod
    def random(cls, n: int, ply: int, seed: int) -> "Hex":
        """The game rooted at ``random_position(n, ply, seed)``."""
        return cls.from_state(random_position(n, ply, seed))

    to_text = staticmethod(to_text)

    # --- the Game protocol ---------------------------------------------------------------
    @property
    def solvable(self) -> bool:
        """Whether the root is small enough to search to the end without a depth or a node
        budget (searchlab.limits.SOLVABLE_EMPTY empty cells at most)."""
        return self.n * self.n - self._root.plies <= SOLVABLE_EMPTY

    def initial_state(self) -> HexState:
        return self._root

    def max_to_move(self, state: HexState) -> bool:
        return state.x_to_move == self._max_is_x

    def legal_moves(self, state: HexState) -> tuple[int, ...]:
        if state.winner():
            return ()
        return _empty_cells(state.x | state.o, state.n)

    def play(self, state: HexState, move: int) -> HexState:
        if state.n != self.n:
            raise InvalidParameterError(f"a {state.n}x{state.n} state is not a position of {self.name}")
        if isinstance(move, bool) or not isinstance(move, (int, np.integer)) \
                or not 0 <= move < self.n * self.n:
            raise InvalidParameterError(
                f"a Hex move on the {self.n}x{self.n} board is a cell index 0..{self.n ** 2 - 1}; "
                f"got {move!r}")
        move = int(move)
        if (state.x | state.o) >> move & 1:
            raise InvalidParameterError(f"Hex cell {cell_name(move, self.n)} is already taken")
        if state.winner():
            raise InvalidParameterError(f"no Hex move after the game is over ({state.winner()} "
                                        "has connected)")
        return _play(state, move)

    def is_terminal(self, state: HexState) -> bool:
        return state.winner() is not None

    def utility(self, state: HexState) -> float:
        w = state.winner()
        if w is None:
            raise InvalidParameterError(f"utility of a non-terminal state {to_text(state)}")
        return 1.0 if (w == "X") == self._max_is_x else -1.0

    def evaluate(self, state: HexState) -> float:
        x, o, n = state
        dx, do = distance(x, o, n, True), distance(o, x, n, False)
        e = (do - dx) / (n * n + 1)
        return e if self._max_is_x else -e

    def hash_key(self, state: HexState) -> int:
        return zobrist(state)

    def compiled_primitives(self):
        """The compiled engine's primitives (searchlab.games.hex_compiled)."""
        return _compiled_game(self.n, self._max_is_x)

    def move_orderings(self) -> dict[str, Callable[[HexState, list], list]]:
        """The game's own static ordering: {"adjacent": adjacent_first}."""
        return {"adjacent": adjacent_first}

    # --- conveniences --------------------------------------------------------------------
    def render(self, state: HexState) -> str:
        """The board as a rhombus: each row indented one more space, X, O and '.'."""
        rows = to_text(state).split("/")
        head = "  " + " ".join(_COLS[:state.n])
        return head + "\n" + "\n".join(f"{r + 1:>2}{' ' * r} {' '.join(row)}"
                                       for r, row in enumerate(rows))

    def __repr__(self) -> str:
        s = self._root
        return f"Hex({self.name}: {s.n}x{s.n}, {s.plies} stones, {'X' if s.x_to_move else 'O'} to move)"

    def _repr_html_(self) -> str:
        """The root position as an SVG board (notebooks show it): X joins top and bottom (red),
        O left and right (blue)."""
        s = self._root
        return hex_svg(to_text(s).split("/"), caption=f"{s.n}x{s.n}, {'X' if s.x_to_move else 'O'} to move")


# --- a small exact solver ---------------------------------------------------------------------
class SolveResult(NamedTuple):
    """Whether the side to move wins with perfect play, the moves that win for it (in natural
    order; only from ``winning_moves``), the positions expanded, and the wall time."""

    mover_wins: bool
    winning_moves: tuple[int, ...]
    nodes: int
    seconds: float


class _Solver:
    """Win/loss negamax with a memo of every position solved (a dict, no replacement).

    At each position, in this order: a move that connects at once wins; if the opponent has
    two or more cells that would connect it at once, the position is lost (one stone blocks
    one of them); if it has one, that cell is the only move worth trying; otherwise every
    empty cell is tried, sorted by the shortest-path difference after it
    (``distance`` of the mover minus the opponent's, smallest first; ties in natural order).
    ``nodes`` counts the positions expanded (memo misses, the root included).
    """

    def __init__(self, n: int) -> None:
        self.n, self.memo, self.nodes = n, {}, 0

    def wins(self, own: int, opp: int, vertical: bool) -> bool:
        """True when the side to move (stones ``own``, joining top and bottom if
        ``vertical``) wins against ``opp``, neither having connected yet."""
        key = (own, opp)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        n = self.n
        cells = _empty_cells(own | opp, n)
        if any(connected(own | 1 << c, n, vertical) for c in cells):
            self.memo[key] = True
            return True
        threats = [c for c in cells if connected(opp | 1 << c, n, not vertical)]
        result = False
        if len(threats) < 2:
            for c in self.candidates(own, opp, vertical, threats or cells):
                if not self.wins(opp, own | 1 << c, not vertical):
                    result = True
                    break
        self.memo[key] = result
        return result

    def candidates(self, own: int, opp: int, vertical: bool, cells) -> list[int]:
        n = self.n

        def gap(c: int) -> int:
            mine = own | 1 << c
            return distance(mine, opp, n, vertical) - distance(opp, mine, n, not vertical)
        return sorted(cells, key=gap)


def _open_state(position: "Hex | HexState | str") -> HexState:
    if isinstance(position, Hex):
        state = position.initial_state()
    elif isinstance(position, HexState):
        state = check_state(position)
    elif isinstance(position, str):
        state = parse_text(position)
    else:
        raise InvalidParameterError(
            f"position must be a Hex game, a HexState or a position text; got {type(position).__name__}")
    if state.winner():
        raise InvalidParameterError(f"solving needs a position where the game is not over; "
                                    f"{to_text(state)} is won by {state.winner()}")
    return state


def solve(position: "Hex | HexState | str", *, all_moves: bool = False) -> SolveResult:
    """Solve a Hex position exactly with the dedicated solver (``_Solver``).

    ``position``: a Hex game (its root), a HexState or a position text, not over. Returns
    SolveResult: ``mover_wins`` for the side to move; with ``all_moves`` also every winning
    move (each first move solved, one shared memo), else ``winning_moves`` is empty. Exponential:
    the empty 4x4 board takes a few seconds in pure Python, 5x5 minutes or more.
    """
    state = _open_state(position)
    t0 = time.perf_counter()
    solver = _Solver(state.n)
    x_moves = state.x_to_move
    own, opp = (state.x, state.o) if x_moves else (state.o, state.x)
    if not all_moves:
        win = solver.wins(own, opp, x_moves)
        return SolveResult(win, (), solver.nodes, time.perf_counter() - t0)
    winning = []
    for c in _empty_cells(own | opp, state.n):
        mine = own | 1 << c
        if connected(mine, state.n, x_moves) or not solver.wins(opp, mine, not x_moves):
            winning.append(c)
    return SolveResult(bool(winning), tuple(winning), solver.nodes, time.perf_counter() - t0)


def board_size(source: str) -> int:
    """The board size n of a hex position source ``"NxN"``."""
    return int(source.split("x")[0])


def _lab_build(position: str) -> "Hex":
    # an empty position is the lab's default board, 7x7
    return Hex.from_text(position if position.strip() else "7")


def _lab_cells(state: HexState) -> list[list[int]]:
    """The lab's board: rows top to bottom, 1 = X, 2 = O, 0 = empty."""
    n = state.n
    return [[1 if state.x >> (r * n + c) & 1 else 2 if state.o >> (r * n + c) & 1 else 0
             for c in range(n)] for r in range(n)]


def _lab_after(position: str, game: "Hex", move: int) -> str:
    """The position after ``move`` in ``position``'s format: a diagram stays a diagram, a
    size and moves "7 d4 c5" gets the move's name appended."""
    name = cell_name(move, game.n)
    if "/" in position or not position.strip():
        state = game.play(game.initial_state(), move)
        return to_text(state) if "/" in position else f"{game.n} {name}"
    return f"{position.strip()} {name}"


#: how the lab draws it: positions are from_text's "7 d4 c5" or a diagram "..X/.O./..."
LAB_BOARD = LabBoard(build=_lab_build, after=_lab_after,
                     move_name=lambda game, move: cell_name(move, game.n),
                     first_to_move=lambda state: state.x_to_move, cells=_lab_cells,
                     move_cell=lambda game, move: [move // game.n, move % game.n],
                     pieces=("X (top-bottom)", "O (left-right)"), depth=5,
                     extra=lambda game: {"n": game.n}, layout="hexagons",
                     sizes=tuple(range(MIN_SIZE, MAX_SIZE + 1)), size=7)

#: this game's declaration in the game registry (searchlab.games.registry)
GAME = GameEntry(name="hex", make=lambda: Hex(7), source_kind="random",
                 sources=tuple(f"{n}x{n}" for n in range(1, 12)), nominal_b=40, label="Hex",
                 random_position=lambda source, ply, seed: Hex.random(board_size(source), ply, seed),
                 max_ply=lambda source: board_size(source) ** 2 - 1, own_ordering="adjacent",
                 lab=True, lab_board=LAB_BOARD, order=50,
                 # its engine's cold compile, CPU s (docs/compile-time.md, the warm-up row)
                 compile_seconds=23)
