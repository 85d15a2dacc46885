"""Connect Four (7 columns x 6 rows) as a Game, Pons' tutorial solvers, and an exact solver.

Bitboards in Pascal Pons' layout: column c (0 = leftmost) is bits 7c .. 7c+5 from the bottom
up; bit 7c+6 is an always-empty sentinel. A state is an immutable
``ConnectFourState(current, mask, plies)``: the stones of the side to move, all stones, and the
number of stones played (as Pons stores a position).

- Moves: columns 0..6; natural order left to right (the non-full columns, none once the game
  is over).
- Text format (``from_text`` / ``parse_moves``): Pons' move strings, one digit 1..7 per stone
  (1 = leftmost column), first player first, e.g. ``"4455"``; an empty string is the empty
  board. Surrounding whitespace is ignored. A bad digit, a full column or a move after four in
  a row raises InvalidParameterError (a ValueError) naming the move's position and character.
  A string may end in a won position (the state is then terminal).
- Values follow the benchmark files (searchlab/data/README.md): a win with one's k-th stone is worth
  22 - k, a draw 0. The protocol wants MAX's view, and MAX is the side to move in the game's
  initial state (the loaded position), so ``utility`` of a terminal state is +(22 - k) when
  MAX won, -(22 - k) when MIN won, 0 for a draw; a full minimax from the root therefore
  returns exactly the README's score of the loaded position.
- ``evaluate`` (static value for MAX, non-terminal states): (4 * (T_max - T_min) +
  (W_max - W_min)) / 240, where T_p is the number of empty cells that would complete four in a
  row for player p (threats, playable now or not) and W_p the number of the 69 four-cell
  windows holding at least one stone of p and none of the opponent. |4T| <= 168 and
  |W| <= 69, so the value lies strictly inside (-1, 1): below any proven win (>= 1) and above
  any proven loss.
- ``hash_key``: mix64(current + mask). Pons' key ``current + mask`` is unique per position
  (49 bits); mix64 is a bijection on 64-bit ints, so the key is collision-free and its low bits
  are well spread for table indexing.

Compiled searches (numba; docs/games.md):
- ``pons_tutorial(moves, variant)``: the five solvers of Pons' tutorial exactly as the README
  spells them out, returning (score, nodes); node counts match the published Test_L3_R1 means.
- ``solve(moves, weak=False, table="upper")``: negamax alpha-beta with null-window iterative
  narrowing of the score, a transposition table, threat-aware centre-first ordering (Pons'
  parts 7-10; ``table="bounds"``: also lower bounds in the table, as Pons' current solver;
  ``table="dual"``: both bounds per entry and the cut-off move first);
  returns SolveResult(score, nodes, seconds), score relative to the side to move.
"""

from __future__ import annotations

import re

import time
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple, Sequence

import numpy as np

from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.limits import SOLVABLE_EMPTY
from searchlab.games.connect4_compiled import CENTRE_FIRST
from searchlab.games.connect4_compiled import compiled_game as _compiled_game
from searchlab.games import connect4_kernel as kernel
from searchlab.data import path as data_path
from searchlab.games.registry import GameEntry, LabBoard
from searchlab.contracts.protocol import Capabilities
from searchlab.games.svg import grid_svg
from searchlab.hashing import mix64

WIDTH, HEIGHT, CELLS = 7, 6, 42
BOTTOM = sum(1 << (7 * c) for c in range(WIDTH))
BOARD = BOTTOM * ((1 << HEIGHT) - 1)
COLUMN = (1 << HEIGHT) - 1
TOP = tuple(1 << (7 * c + HEIGHT - 1) for c in range(WIDTH))      # each column's top cell
TOP_ROW = sum(TOP)
BOTTOM_CELL = tuple(1 << (7 * c) for c in range(WIDTH))           # each column's bottom cell
#: the open columns in natural order for each pattern of full columns (``mask & TOP_ROW``)
OPEN_COLUMNS = {sum(TOP[c] for c in range(WIDTH) if full >> c & 1):
                [c for c in range(WIDTH) if not full >> c & 1] for full in range(1 << WIDTH)}
TUTORIAL_VARIANTS = ("negamax", "alphabeta-lr-strong", "alphabeta-lr-weak",
                     "alphabeta-centre-strong", "alphabeta-centre-weak")


def _windows() -> tuple[int, ...]:
    """The 69 sets of four aligned cells, as bitboards."""
    out = []
    for c in range(WIDTH):
        for r in range(HEIGHT):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + k * dc, r + k * dr) for k in range(4)]
                if all(0 <= cc < WIDTH and 0 <= rr < HEIGHT for cc, rr in cells):
                    out.append(sum(1 << (7 * cc + rr) for cc, rr in cells))
    return tuple(out)


WINDOWS = _windows()
assert len(WINDOWS) == 69


def alignment(pos: int) -> bool:
    """True when the stones ``pos`` contain four in a row (Pons' alignment test)."""
    for shift in (7, 6, 8, 1):        # horizontal, diagonal \, diagonal /, vertical
        m = pos & (pos >> shift)
        if m & (m >> (2 * shift)):
            return True
    return False


# A search asks "is it won?" of every node in is_terminal, again in legal_moves and in play
# for each child, and the answer depends on the last mover's stones only, which many
# positions share: remembering recent answers turns most of these tests into a dictionary
# look-up (over 95% of them in a depth-9 alpha-beta search).
_won = lru_cache(maxsize=1 << 14)(alignment)


def winning_cells(pos: int, mask: int) -> int:
    """Empty cells where the owner of ``pos`` would complete four in a row."""
    r = (pos << 1) & (pos << 2) & (pos << 3)
    for s in (7, 8, 6):
        p = (pos << s) & (pos << 2 * s)
        r |= p & (pos << 3 * s)
        r |= p & (pos >> s)
        p = (pos >> s) & (pos >> 2 * s)
        r |= p & (pos << s)
        r |= p & (pos >> 3 * s)
    return r & (BOARD ^ mask)


def safe_moves(state: "ConnectFourState") -> int:
    """The number of the side to move's non-losing moves (Pons' possibleNonLosingMoves): the
    playable cells; only the blocking cell when the opponent threatens to win on a playable
    cell (none when on two); minus the cells right below a cell where the opponent would win
    (playing there hands the opponent that cell). The null-move guard's count
    (searchlab.games.null_move)."""
    cur, mask, _ = state
    possible = (mask + BOTTOM) & BOARD
    opp_win = winning_cells(cur ^ mask, mask)
    forced = possible & opp_win
    if forced:
        if forced & (forced - 1):
            return 0
        possible = forced
    return (possible & ~(opp_win >> 1)).bit_count()


class ConnectFourState(NamedTuple):
    """Immutable position: ``current`` = stones of the side to move, ``mask`` = all stones,
    ``plies`` = stones played. Pons' layout (module docstring)."""

    current: int
    mask: int
    plies: int

    @property
    def key(self) -> int:
        """Pons' unique 49-bit key."""
        return self.current + self.mask

    @property
    def first_player_to_move(self) -> bool:
        return self.plies % 2 == 0

    def won_by_last_mover(self) -> bool:
        return _won(self.current ^ self.mask)


def _can_play(mask: int, col: int) -> bool:
    return not mask & TOP[col]


def _play(state: ConnectFourState, col: int) -> ConnectFourState:
    cur, mask, n = state
    return ConnectFourState(cur ^ mask, mask | (mask + BOTTOM_CELL[col]), n + 1)


# ConnectFourState(...) without the generated __new__'s Python-level call (ConnectFour.play)
_new_state = tuple.__new__


def parse_moves(text: str) -> ConnectFourState:
    """The state after Pons' 1-based move string ``text`` (module docstring)."""
    if not isinstance(text, str):
        raise InvalidParameterError(
            f"Connect Four moves must be a string of digits 1..7; got {type(text).__name__}")
    state = ConnectFourState(0, 0, 0)
    for k, ch in enumerate(text.strip()):
        if ch not in "1234567":
            raise InvalidParameterError(
                f"Connect Four move {k + 1} is {ch!r}: moves are the digits 1..7 "
                "(1 = leftmost column)")
        if state.won_by_last_mover():
            raise InvalidParameterError(
                f"Connect Four move {k + 1} is {ch!r}: the game is already over (four in a row)")
        col = int(ch) - 1
        if not _can_play(state.mask, col):
            raise InvalidParameterError(
                f"Connect Four move {k + 1} is {ch!r}: column {ch} is full")
        state = _play(state, col)
    return state


_CENTRE_RANK = {c: i for i, c in enumerate(CENTRE_FIRST)}


def _centre_first(state, moves):
    return sorted(moves, key=_CENTRE_RANK.__getitem__)


class ConnectFour:
    """Connect Four 7x6 implementing the Game protocol (searchlab.contracts.protocol).

    ``ConnectFour()`` starts from the empty board; ``ConnectFour("4455")`` or
    ``ConnectFour.from_text("4455")`` from the position after those moves, ``ConnectFour(state)``
    from a ConnectFourState. MAX is the side to move in that initial state, and values are
    Pons' scores from MAX's view.
    """

    name = "connect4"
    capabilities: Capabilities = Capabilities(static_values=True, own_orderings=True,
                                              compiled=True)
    default_depth = None

    def __init__(self, moves: "str | ConnectFourState" = "") -> None:
        if isinstance(moves, ConnectFourState):
            self._root = _state_of(moves)
            self.moves = None
            self.name = f"connect4[key={self._root.key:#x}]"
        else:
            self._root = parse_moves(moves)
            self.moves = moves.strip()
            if self.moves:
                self.name = f"connect4[{self.moves}]"
        self._max_parity = self._root.plies % 2          # MAX moves at plies of this parity

    @classmethod
    def from_text(cls, text: str) -> "ConnectFour":
        """The game rooted at the position after Pons' move string ``text``."""
        return cls(text)

    # --- the Game protocol ---------------------------------------------------------------
    @property
    def solvable(self) -> bool:
        """Whether the root is small enough to search to the end without a depth or a node
        budget (algorithms.search_api.SOLVABLE_EMPTY empty cells at most)."""
        return WIDTH * HEIGHT - self._root.plies <= SOLVABLE_EMPTY

    def initial_state(self) -> ConnectFourState:
        return self._root

    def max_to_move(self, state: ConnectFourState) -> bool:
        return state.plies % 2 == self._max_parity

    def legal_moves(self, state: ConnectFourState) -> list[int]:
        if state.plies >= CELLS or _won(state.current ^ state.mask):
            return []
        return OPEN_COLUMNS[state.mask & TOP_ROW].copy()

    def play(self, state: ConnectFourState, move: int) -> ConnectFourState:
        # a column is an int or a numpy integer, never a bool (type(True) is bool, not int);
        # the checks and _play are spelt out inline because the reference search calls this
        # once per node
        col = move if type(move) is int else int(move) if isinstance(move, np.integer) else -1
        if not 0 <= col < WIDTH:
            raise InvalidParameterError(f"Connect Four move must be a column 0..6; got {move!r}")
        cur, mask, n = state
        if mask & TOP[col] or _won(cur ^ mask):
            raise InvalidParameterError(f"column {move} is not playable in {state}")
        return _new_state(ConnectFourState, (cur ^ mask, mask | (mask + BOTTOM_CELL[col]), n + 1))

    def is_terminal(self, state: ConnectFourState) -> bool:
        return state.plies >= CELLS or _won(state.current ^ state.mask)

    def utility(self, state: ConnectFourState) -> float:
        if state.won_by_last_mover():
            score = 22 - (state.plies + 1) // 2        # the winner's stone count
            # the last mover won; MAX is the last mover when MIN is to move now
            return float(-score if self.max_to_move(state) else score)
        if state.plies >= CELLS:
            return 0.0
        raise InvalidParameterError(f"utility of a non-terminal state {state}")

    def evaluate(self, state: ConnectFourState) -> float:
        cur, mask, _ = state
        opp = cur ^ mask
        t = winning_cells(cur, mask).bit_count() - winning_cells(opp, mask).bit_count()
        w = 0
        for win in WINDOWS:
            a, b = cur & win, opp & win
            if a and not b:
                w += 1
            elif b and not a:
                w -= 1
        v = (4 * t + w) / 240
        return v if self.max_to_move(state) else -v

    def hash_key(self, state: ConnectFourState) -> int:
        return mix64(state.current + state.mask)

    def compiled_primitives(self):
        """The compiled engine's primitives (searchlab.games.connect4_compiled)."""
        return _compiled_game(self._root.plies)

    def move_orderings(self) -> dict:
        """The game's own static orderings: "centre", Pons' centre-first column order
        3, 2, 4, 1, 5, 0, 6 (0-based columns)."""
        return {"centre": _centre_first}

    # --- conveniences --------------------------------------------------------------------
    def render(self, state: ConnectFourState) -> str:
        """Six lines, top row first: 'X' first player, 'O' second player, '.' empty."""
        first = state.current if state.first_player_to_move else state.current ^ state.mask
        rows = []
        for r in range(HEIGHT - 1, -1, -1):
            row = ""
            for c in range(WIDTH):
                bit = 1 << (7 * c + r)
                row += "." if not state.mask & bit else ("X" if first & bit else "O")
            rows.append(row)
        return "\n".join(rows)

    def __repr__(self) -> str:
        s = self._root
        return (f"ConnectFour({self.moves!r}: {s.plies} stones, "
                f"{'X (first player)' if s.first_player_to_move else 'O (second player)'} to move)")

    def _repr_html_(self) -> str:
        """The root position as an SVG board (notebooks show it): X the first player's discs."""
        s = self._root
        return grid_svg(self.render(s).split("\n"), "connect4", col_labels="1234567",
                        caption=f"{s.plies} stones, {'X' if s.first_player_to_move else 'O'} to move")


# ------------------------------------------------------------------------------------------
# Compiled searches (public wrappers over searchlab.games.connect4_kernel).

def _state_of(position: "str | ConnectFour | ConnectFourState") -> ConnectFourState:
    if isinstance(position, str):
        return parse_moves(position)
    if isinstance(position, ConnectFour):
        return position.initial_state()
    if isinstance(position, ConnectFourState):
        cur, mask, n = (int(v) for v in position)
        if (cur & ~mask or mask & ~BOARD or mask.bit_count() != n or (mask + BOTTOM) & mask
                or cur.bit_count() != n // 2):
            raise InvalidParameterError(f"not a valid Connect Four position: {position!r}")
        return ConnectFourState(cur, mask, n)
    raise UnsupportedError(
        "position must be a move string, a ConnectFour or a ConnectFourState; "
        f"got {type(position).__name__}")


def _require_open(state: ConnectFourState, what: str) -> None:
    if state.won_by_last_mover() or state.plies >= CELLS:
        raise InvalidParameterError(f"{what} needs a position where the game is not over")


def _check_variant(variant: str) -> int:
    if variant not in kernel.VARIANTS:
        raise InvalidParameterError(
            f"variant must be one of {', '.join(TUTORIAL_VARIANTS)}; got {variant!r}")
    return kernel.VARIANTS[variant]


def _arrays(states: Sequence[ConnectFourState]):
    curs = np.array([s.current for s in states], dtype=np.int64)
    masks = np.array([s.mask for s in states], dtype=np.int64)
    ns = np.array([s.plies for s in states], dtype=np.int64)
    return curs, masks, ns


def pons_tutorial(moves: "str | ConnectFour | ConnectFourState", variant: str) -> tuple[int, int]:
    """(score, nodes) of Pons' tutorial solver ``variant`` on a non-terminal position.

    Variants: "negamax" (no pruning), "alphabeta-lr-strong", "alphabeta-lr-weak",
    "alphabeta-centre-strong", "alphabeta-centre-weak" (columns left to right or centre
    first; root window [-21, 21] or [-1, 1]). The score is relative to the side to move; weak
    variants give a value whose sign is the outcome's. nodes counts every call, root included.
    """
    scores, nodes = pons_tutorial_many([moves], variant)
    return int(scores[0]), int(nodes[0])


def pons_tutorial_many(positions: Sequence, variant: str) -> tuple[np.ndarray, np.ndarray]:
    """``pons_tutorial`` over many positions in one compiled call: (scores, nodes) arrays."""
    v = _check_variant(variant)
    states = [_state_of(p) for p in positions]
    for s in states:
        _require_open(s, "pons_tutorial")
    curs, masks, ns = _arrays(states)
    scores = np.zeros(len(states), dtype=np.int64)
    nodes = np.zeros(len(states), dtype=np.int64)
    if states:
        kernel._tutorial_many(curs, masks, ns, v, scores, nodes)
    return scores, nodes


@dataclass(frozen=True)
class SolveResult:
    """Exact score (relative to the side to move; README convention; with ``weak`` only its
    sign, -1/0/+1), negamax calls over all null-window probes, and wall time in seconds."""

    score: int
    nodes: int
    seconds: float


class _SolverTables:
    """One solver table's transposition table and scratch space, allocated once per process."""

    def __init__(self, slots: int) -> None:
        # the slots + the epoch; written once now so that no solve pays page faults
        self.tt = np.empty(slots + 1, dtype=np.int64)
        self.tt.fill(0)
        self.buf = np.zeros((CELLS + 1, 24), dtype=np.int64)


#: solver tables (docs/games.md, "The solver"): "upper" is Pons' tutorial part 10 (upper bounds,
#: 8,388,593 slots), "bounds" his current solver without its opening book (a lower or an upper
#: bound per entry, 16,777,259 slots), "dual" the same table with both bounds per entry and
#: the cut-off move searched first (searchlab's)
SOLVER_TABLES = ("upper", "bounds", "dual")
_TABLES: dict[str, _SolverTables] = {}


def _check_table(table: str) -> str:
    if table not in SOLVER_TABLES:
        raise InvalidParameterError(
            f"table must be one of {', '.join(SOLVER_TABLES)}; got {table!r}")
    return table


def _tables(table: str = "upper") -> _SolverTables:
    if table not in _TABLES:
        _TABLES[table] = _SolverTables(kernel.TT_SIZE if table == "upper" else kernel.BTT_SIZE)
    return _TABLES[table]


def _run_solve(table: str, state: ConnectFourState, weak: bool) -> tuple[int, int]:
    tb = _tables(table)
    if table == "upper":
        return kernel._solve(state.current, state.mask, state.plies, weak, tb.tt, tb.buf)
    return kernel._bounds_solve(state.current, state.mask, state.plies, weak,
                                int(table == "dual"), tb.tt, tb.buf)


def _terminal_score(state: ConnectFourState) -> int:
    """README score of a finished game, relative to the side to move (who did not win)."""
    if state.won_by_last_mover():
        return (state.plies + 1) // 2 - 22
    return 0


def solve(moves: "str | ConnectFour | ConnectFourState", weak: bool = False,
          table: str = "upper") -> SolveResult:
    """Solve a Connect Four position exactly (docs/games.md, "The solver").

    Returns SolveResult(score, nodes, seconds); the score is relative to the side to move, as
    in the benchmark files. A finished game returns its final score with nodes = 0. Each call
    starts from an empty transposition table, so nodes are reproducible. ``table`` (one of
    SOLVER_TABLES) picks the transposition table: "upper" stores upper bounds only (Pons'
    tutorial, part 10), "bounds" lower and upper bounds in a table twice as large (Pons'
    current solver, without an opening book), "dual" keeps both bounds of a position and its
    cut-off move (searched first). All give the same score; on Pons' benchmark sets "bounds"
    takes fewer nodes than "upper" and "dual" no more than "bounds". An unknown ``table``
    raises InvalidParameterError. Not thread-safe (one table of each kind per process). Meant
    for late positions (Pons' benchmark sets); openings take minutes or more (no opening book).
    """
    _check_table(table)
    state = _state_of(moves)
    t0 = time.perf_counter()
    if state.won_by_last_mover() or state.plies >= CELLS:
        s = _terminal_score(state)
        return SolveResult(int(np.sign(s)) if weak else s, 0, time.perf_counter() - t0)
    score, nodes = _run_solve(table, state, bool(weak))
    return SolveResult(int(score), int(nodes), time.perf_counter() - t0)


def solve_many(positions: Sequence, weak: bool = False,
               table: str = "upper") -> tuple[np.ndarray, np.ndarray]:
    """``solve`` over many non-terminal positions in one compiled call: (scores, nodes).
    A finished game raises InvalidParameterError, as does an unknown ``table``."""
    _check_table(table)
    states = [_state_of(p) for p in positions]
    for s in states:
        _require_open(s, "solve_many")
    curs, masks, ns = _arrays(states)
    tb = _tables(table)
    scores = np.zeros(len(states), dtype=np.int64)
    nodes = np.zeros(len(states), dtype=np.int64)
    if states:
        if table == "upper":
            kernel._solve_many(curs, masks, ns, bool(weak), tb.tt, tb.buf, scores, nodes)
        else:
            kernel._bounds_solve_many(curs, masks, ns, bool(weak), int(table == "dual"), tb.tt,
                                      tb.buf, scores, nodes)
    return scores, nodes


def load_benchmark(path) -> list[tuple[str, int]]:
    """Read one of Pons' benchmark files: a list of (moves, score) pairs. Raises
    InvalidParameterError naming the file (and line) for a line that is not ``<moves>
    <score>``, a file that is not text, and a file without a position."""
    out = []
    with open(path, encoding="ascii") as fh:
        try:
            lines = list(fh)
        except UnicodeDecodeError as e:
            raise InvalidParameterError(f"{path}: not a benchmark text file (byte {e.start} is "
                                        "not ASCII)") from None
    for lineno, line in enumerate(lines, 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 2 or not parts[0].isdigit() or not re.fullmatch(r"-?\d+", parts[1]):
            raise InvalidParameterError(
                f"{path}:{lineno}: expected '<moves> <score>' (column digits 1-7, an integer "
                f"score), got {line.strip()[:80]!r}")
        out.append((parts[0], int(parts[1])))
    if not out:
        raise InvalidParameterError(f"{path}: no position (the benchmark file is empty)")
    return out


def _benchmark_positions(source: str) -> list[tuple[str, str, str]]:
    """A Pons benchmark file shipped in searchlab/data/connect4/ as (id, moves, "") triples."""
    return [(m, m, "") for m, _ in load_benchmark(data_path("connect4", source))]


def _lab_cells(state: ConnectFourState) -> list[list[int]]:
    """The lab's board: rows top to bottom, 1 = the first player's disc, 2 = the second's."""
    first = state.current if state.plies % 2 == 0 else state.current ^ state.mask
    return [[(1 if first >> (7 * c + r) & 1 else 2) if state.mask >> (7 * c + r) & 1 else 0
             for c in range(7)] for r in range(5, -1, -1)]


#: how the lab draws it: positions are from_text's column lists "4455" (1 = leftmost); a move
#: is named by its column, and fills the column's lowest empty cell (the page finds it)
LAB_BOARD = LabBoard(build=ConnectFour.from_text,
                     after=lambda position, game, move: position.strip() + str(move + 1),
                     move_name=lambda game, move: str(move + 1),
                     first_to_move=lambda state: state.first_player_to_move, cells=_lab_cells,
                     pieces=("Red", "Yellow"), depth=10, score=True, layout="columns",
                     colours=("#d62828", "#f6c90e"))

#: this game's declaration in the game registry (searchlab.games.registry)
GAME = GameEntry(name="connect4", make=ConnectFour, source_kind="file",
                 sources=("Test_L1_R1", "Test_L2_R1", "Test_L3_R1"), nominal_b=7,
                 label="Connect Four", load_positions=_benchmark_positions,
                 from_text=ConnectFour, own_ordering="centre", at_state=ConnectFour, lab=True,
                 lab_board=LAB_BOARD, order=20, sides=("first", "second"), max_plies=CELLS,
                 proven_bound=1.0,
                 # its engine's cold compile, CPU s (docs/compile-time.md, the warm-up row)
                 compile_seconds=27)
