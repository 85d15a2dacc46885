"""Othello (Reversi) 8x8 as a Game, with a compiled perft.

Squares and moves
    Square index i = 8 * (row - 1) + column, with columns a..h = 0..7 and rows 1..8 as in
    Othello notation (row 1 at the top): a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63.
    A move is that index (an int); the pass is the int ``PASS = 64`` (text "pass").
    ``square_name(i)`` / ``parse_square("f5")`` convert.

State
    An immutable ``OthelloState(black, white, black_to_move)``: two 64-bit bitboards (Python
    ints, bit i = square i) and the side to move. The standard start has d5 and e4 black,
    d4 and e5 white; Black moves first.

Rules as the Game protocol sees them
    - Natural move order: the legal squares in ascending index (a1, b1, ..., h1, a2, ...,
      h8), i.e. row by row from the top.
    - When the side to move has no legal square but the opponent has one, the only legal
      move is ``PASS``: a pass is an explicit move and a ply.
    - Terminal: neither side can move (board full or not).
    - MAX is the side to move in the game's initial state (Black from the standard start).
      ``utility`` is the final disc difference from MAX's point of view,
      (MAX's discs - MIN's discs), in [-64, 64]; empty squares count for nobody.
    - ``evaluate`` (static value for MAX of a non-terminal state), strictly inside (-1, 1):
      ``0.99 * e``, so that every won ending (a disc difference >= 1) outranks every heuristic
      estimate and every lost one ranks below it; with, from the point of view of one side (a = its, b = the
      opponent's; t = discs on the board / 64, the game phase):

          e = 0.30 * (1 - t) * (mob_a - mob_b) / (mob_a + mob_b)     mobility (0 if both 0)
            + 0.35 * (corners_a - corners_b) / 4                     corners
            + 0.15 * (stable_a - stable_b) / 28                      stability-lite
            + (0.05 + 0.45 * t) * (discs_a - discs_b) / (discs_a + discs_b)   disc count

      mob = number of legal squares; stable = discs in an unbroken run of one colour along
      an edge starting from a corner that colour holds (corners included; at most 28 squares
      in all); the weights sum to at most 1, so |e| <= 1. Mobility matters in the opening
      and fades out, disc count grows in weight towards the end.
    - ``hash_key``: Zobrist: XOR of one fixed 64-bit key per (colour, square), plus a side
      key when White is to move. The keys come from searchlab.hashing.mix64 with a fixed
      seed, so they are the same in every process and run.

Text format (``from_text`` / ``parse_moves``): the moves from the standard start as
coordinates, e.g. ``"f5d6c3"`` (case-insensitive; spaces, commas or dashes between moves are
allowed). A forced pass may be written ``pass`` (or ``ps``, ``--``) or left out: when the
side to move has no legal square, it passes automatically before the next move.

Roots: ``Othello()`` (standard start), ``Othello("f5d6c3")``, ``Othello(state)``;
``random_position(ply, seed)`` gives a reproducible non-terminal position after ``ply`` random
plies (numpy Generator from the seed, no global RNG). ``default_depth`` is None (the end of
the game, out of reach): give searches a ``depth``.

Move-ordering policy (``move_orderings()``): "corners": corners first, then the other edge
squares, then the rest, the X-squares (b2, g2, b7, g7) last; natural order within a class.

``othello_perft(depth)`` counts leaves from the standard start (or any position) with a
numba kernel (searchlab/games/othello_kernel.py), pass convention as in
tests/data/othello/README.md (Aart Bik's); ``perft(game, state, depth)`` does the same
through the Game protocol in pure Python (slow; a cross-check).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Callable, NamedTuple

import numpy as np

from searchlab.games import othello_kernel as kernel
from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.games.othello_compiled import (_CORNER_MASK, _EDGE_MASK, _X_MASK, PASS,
                                              ZOBRIST_KEYS)
from searchlab.games.othello_compiled import CORNERS  # noqa: F401 -- part of this module's API (games.rolit imports it from here)
from searchlab.games.othello_compiled import compiled_game as _compiled_game
from searchlab.contracts.protocol import Capabilities
from searchlab.games.svg import grid_svg
from searchlab.games.registry import GameEntry, LabBoard
from searchlab.hashing import MASK64

FULL = MASK64
MAX_PLIES = 120                               # no game is longer (passes included)
#: The largest ply random_position draws for every seed: a uniformly random game is still on
#: at ply 61 (passes count) in ~7% of games, at 62 in ~1.5%, at 63 in ~0.2% (3000 games), so
#: its 1000 restarts find a ply-61 position for any seed (missing one: ~1e-32), a ply-63
#: position for ~87% of seeds only. A longer game needs passes that random play rarely makes.
MAX_RANDOM_PLY = 61
_COLS = "abcdefgh"

START_BLACK = (1 << 35) | (1 << 28)          # d5 (3 + 8*4), e4 (4 + 8*3)
START_WHITE = (1 << 27) | (1 << 36)          # d4 (3 + 8*3), e5 (4 + 8*4)

# PASS, CORNERS (a1, h1, a8, h8), X_SQUARES (b2, g2, b7, g7) and their masks: imported from
# othello_compiled, whose primitives need them as constants.

# Ray masks for the generator: the opponent's discs along east/west and diagonal rays are
# restricted to files b..g, which stops rays from wrapping around the board's sides.
_INNER = 0x7E7E7E7E7E7E7E7E
_DIRS = ((1, _INNER), (8, FULL), (9, _INNER), (7, _INNER))


def square_name(move: int) -> str:
    """"a1".."h8" for 0..63, "pass" for PASS."""
    if move == PASS:
        return "pass"
    if isinstance(move, bool) or not isinstance(move, (int, np.integer)) or not 0 <= move < 64:
        raise InvalidParameterError(f"an Othello move is a square 0..63 or PASS (64); got {move!r}")
    return f"{_COLS[move % 8]}{move // 8 + 1}"


def parse_square(text: str) -> int:
    """The move for "a1".."h8" (case-insensitive) or "pass"/"ps"/"--"; ValueError otherwise."""
    t = text.strip().lower()
    if t in ("pass", "ps", "--"):
        return PASS
    if len(t) == 2 and t[0] in _COLS and t[1] in "12345678":
        return _COLS.index(t[0]) + 8 * (int(t[1]) - 1)
    raise InvalidParameterError(
        f"Othello move {text!r} is not a square a1..h8 (column a-h, row 1-8) or 'pass'")


# --- bitboard move generation (Python ints) ---------------------------------------------
@lru_cache(maxsize=1 << 16)
def legal_squares(p: int, o: int) -> int:
    """Bit set of the squares where the side to move (discs p) may play against discs o."""
    empty = ~(p | o) & FULL
    moves = 0
    for s, mask in _DIRS:
        om = o & mask
        x = (p << s) & om
        x |= (x << s) & om
        x |= (x << s) & om
        x |= (x << s) & om
        x |= (x << s) & om
        x |= (x << s) & om
        moves |= (x << s) & empty
        x = (p >> s) & om
        x |= (x >> s) & om
        x |= (x >> s) & om
        x |= (x >> s) & om
        x |= (x >> s) & om
        x |= (x >> s) & om
        moves |= (x >> s) & empty
    return moves


def flips(p: int, o: int, sq: int) -> int:
    """Discs of o turned over when the side to move (discs p) plays on square sq."""
    bit = 1 << sq
    f = 0
    for s, mask in _DIRS:
        om = o & mask
        x = (bit << s) & om
        x |= (x << s) & om
        x |= (x << s) & om
        x |= (x << s) & om
        x |= (x << s) & om
        x |= (x << s) & om
        if (x << s) & p:
            f |= x
        x = (bit >> s) & om
        x |= (x >> s) & om
        x |= (x >> s) & om
        x |= (x >> s) & om
        x |= (x >> s) & om
        x |= (x >> s) & om
        if (x >> s) & p:
            f |= x
    return f


def _squares(bits: int) -> list[int]:
    """The set bits of ``bits`` in ascending order."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def _edge_stable(own: int) -> int:
    """Stability-lite: own discs in an unbroken run along an edge from an owned corner."""
    stable = 0
    # (corner, step along the first edge, step along the second edge)
    for corner, s1, s2 in ((0, 1, 8), (7, -1, 8), (56, 1, -8), (63, -1, -8)):
        if not own >> corner & 1:
            continue
        stable |= 1 << corner
        for step in (s1, s2):
            sq = corner + step
            for _ in range(7):
                if not own >> sq & 1:
                    break
                stable |= 1 << sq
                sq += step
    return stable


# --- the state ------------------------------------------------------------------------------
class OthelloState(NamedTuple):
    """Immutable position: bitboards of Black and White (bit i = square i), side to move."""

    black: int
    white: int
    black_to_move: bool = True

    @property
    def mover(self) -> tuple[int, int]:
        """(discs of the side to move, discs of the opponent)."""
        return (self.black, self.white) if self.black_to_move else (self.white, self.black)

    @property
    def discs(self) -> int:
        return (self.black | self.white).bit_count()


START = OthelloState(START_BLACK, START_WHITE, True)


def _check_state(state: object) -> OthelloState:
    if not isinstance(state, OthelloState):
        raise InvalidParameterError(f"not an OthelloState: {state!r}")
    b, w = state.black, state.white
    if not (isinstance(b, int) and isinstance(w, int) and 0 <= b <= FULL and 0 <= w <= FULL) \
            or b & w:
        raise InvalidParameterError(f"not an Othello position (bitboards overlap or out of range): {state!r}")
    return state


def _play(state: OthelloState, move: int) -> OthelloState:
    """The state after a legal move (no checking)."""
    p, o = state.mover
    if move == PASS:
        return OthelloState(state.black, state.white, not state.black_to_move)
    f = flips(p, o, move)
    p |= f | (1 << move)
    o ^= f
    if state.black_to_move:
        return OthelloState(p, o, False)
    return OthelloState(o, p, True)


def _moves_of(state: OthelloState) -> list[int]:
    p, o = state.mover
    sq = legal_squares(p, o)
    if sq:
        return _squares(sq)
    if legal_squares(o, p):
        return [PASS]
    return []


def parse_moves(text: str, start: OthelloState = START) -> OthelloState:
    """The state after the moves in ``text`` from ``start`` (format: module docstring).

    Raises InvalidParameterError (a ValueError) naming the first bad token: not a square,
    an illegal move there, a pass while a move exists, or a move after the game ended.
    """
    if not isinstance(text, str):
        raise InvalidParameterError(f"Othello moves must be a string like 'f5d6c3'; got {text!r}")
    compact = re.sub(r"[\s,;]+", "", text.lower())
    tokens = [t for t in re.findall(r"pass|ps|--|[a-z][0-9]|-|.", compact) if t != "-"]
    state = start
    for k, tok in enumerate(tokens):
        try:
            move = parse_square(tok)
        except InvalidParameterError:
            raise InvalidParameterError(
                f"Othello move {k + 1} is {tok!r}: not a square a1..h8 or 'pass' "
                f"(format: coordinates like 'f5d6c3')") from None
        moves = _moves_of(state)
        if not moves:
            raise InvalidParameterError(
                f"Othello move {k + 1} is {tok!r}: the game is already over")
        if moves == [PASS] and move != PASS:
            state = _play(state, PASS)                     # implicit forced pass
            moves = _moves_of(state)
        if move not in moves:
            side = "Black" if state.black_to_move else "White"
            allowed = " ".join(square_name(m) for m in moves)
            raise InvalidParameterError(
                f"Othello move {k + 1} is {tok!r}: not legal for {side} here "
                f"(legal: {allowed})")
        state = _play(state, move)
    return state


def random_position(ply: int, seed: int) -> OthelloState:
    """The position after ``ply`` uniformly random legal moves (passes count) from the start.

    Reproducible: the moves are drawn from ``numpy.random.default_rng(seed)`` only (no global
    RNG). If a game ends before ``ply``, play restarts from the start with the same
    generator's next draws (so the result is still a function of (ply, seed)); after 1000
    such restarts InvalidParameterError is raised. ``ply`` is in 0..MAX_RANDOM_PLY (61), the
    plies every seed reaches (InvalidParameterError otherwise). The returned state is never
    terminal.
    """
    if isinstance(ply, bool) or not isinstance(ply, (int, np.integer)) or ply < 0:
        raise InvalidParameterError(f"ply must be an integer >= 0; got {ply!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InvalidParameterError(f"seed must be an integer >= 0; got {seed!r}")
    if ply > MAX_RANDOM_PLY:
        raise InvalidParameterError(
            f"ply must be an integer in 0..{MAX_RANDOM_PLY} (a random game is over by then: "
            f"60 squares, passes count; at ply 63 only 0.2% of random games are still on); "
            f"got {ply}")
    rng = np.random.default_rng(int(seed))
    for _ in range(1000):
        state = START
        for _ in range(int(ply)):
            moves = _moves_of(state)
            if not moves:
                break
            state = _play(state, moves[int(rng.integers(len(moves)))])
        else:
            if _moves_of(state):
                return state
    raise InvalidParameterError(
        f"no random Othello game of seed {seed} lasted {ply} plies in 1000 tries: ply too large")


# --- Zobrist keys ---------------------------------------------------------------------------
# The keys (ZOBRIST_KEYS[colour * 64 + square], [128] White to move) live with the compiled
# primitives, which need them as constants.
_KEYS = ZOBRIST_KEYS
_SIDE_KEY = _KEYS[128]                             # White to move


def _byte_tables(offset: int) -> list[list[int]]:
    """_T[j][v]: XOR of the keys of colour ``offset`` on the squares set in byte j = v."""
    tables = []
    for j in range(8):
        row = [0] * 256
        for v in range(1, 256):
            low = v & -v
            row[v] = row[v ^ low] ^ _KEYS[offset + 8 * j + low.bit_length() - 1]
        tables.append(row)
    return tables


_ZB = _byte_tables(0)      # black
_ZW = _byte_tables(64)     # white


def zobrist(state: OthelloState) -> int:
    """The Zobrist key of a state (see the module docstring)."""
    b, w = state.black, state.white
    key = 0 if state.black_to_move else _SIDE_KEY
    for j in range(8):
        key ^= _ZB[j][(b >> (8 * j)) & 0xFF] ^ _ZW[j][(w >> (8 * j)) & 0xFF]
    return key


# --- orderings ------------------------------------------------------------------------------
def square_class(move: int) -> int:
    """0 corner, 1 other edge square, 2 interior, 3 X-square (b2, g2, b7, g7); PASS: 2."""
    if move == PASS:
        return 2
    bit = 1 << move
    if bit & _CORNER_MASK:
        return 0
    if bit & _EDGE_MASK:
        return 1
    if bit & _X_MASK:
        return 3
    return 2


def corners_first(state: OthelloState, moves: list[int]) -> list[int]:
    """The "corners" policy: corners, edges, the rest, X-squares; stable within a class."""
    return sorted(moves, key=square_class)


# --- the game -------------------------------------------------------------------------------
class Othello:
    """Othello 8x8 implementing the Game protocol (searchlab.contracts.protocol).

    ``Othello()`` starts from the standard position (MAX = Black); ``Othello("f5d6c3")`` or
    ``Othello.from_text("f5d6c3")`` from the position after those moves;
    ``Othello(state)`` from any OthelloState, e.g. ``Othello(random_position(20, seed=7))``.
    MAX is the side to move in the root position. See the module docstring for the rules.
    """

    name = "othello"
    capabilities: Capabilities = Capabilities(static_values=True, own_orderings=True,
                                              compiled=True)
    default_depth = None

    def __init__(self, root: str | OthelloState = "") -> None:
        if isinstance(root, OthelloState):
            self._root = _check_state(OthelloState(int(root.black), int(root.white),
                                                   bool(root.black_to_move)))
            if self._root != START:
                self.name = f"othello[{self._root.black:#x},{self._root.white:#x}," \
                            f"{'b' if self._root.black_to_move else 'w'}]"
        elif isinstance(root, str):
            self._root = parse_moves(root)
            if root.strip():
                self.name = f"othello[{root.strip()}]"
        else:
            raise InvalidParameterError(
                f"Othello root must be a move string like 'f5d6c3' or an OthelloState; got {root!r}")
        self._max_is_black = self._root.black_to_move

    @classmethod
    def from_text(cls, text: str) -> "Othello":
        """The game rooted at the position after ``text``'s moves (format: module docstring)."""
        return cls(text)

    @classmethod
    def random(cls, ply: int, seed: int) -> "Othello":
        """The game rooted at ``random_position(ply, seed)``."""
        return cls(random_position(ply, seed))

    random_position = staticmethod(random_position)

    # --- the Game protocol ---------------------------------------------------------------
    def initial_state(self) -> OthelloState:
        return self._root

    def max_to_move(self, state: OthelloState) -> bool:
        return state.black_to_move == self._max_is_black

    def legal_moves(self, state: OthelloState) -> list[int]:
        return _moves_of(state)

    def play(self, state: OthelloState, move: int) -> OthelloState:
        if isinstance(move, bool) or not isinstance(move, (int, np.integer)):
            raise InvalidParameterError(f"an Othello move is a square 0..63 or PASS (64); got {move!r}")
        move = int(move)
        if move not in _moves_of(state):
            raise InvalidParameterError(
                f"move {move} ({square_name(move) if 0 <= move <= 64 else '?'}) is not legal in {state}")
        return _play(state, move)

    def is_terminal(self, state: OthelloState) -> bool:
        p, o = state.mover
        return not legal_squares(p, o) and not legal_squares(o, p)

    def utility(self, state: OthelloState) -> float:
        if not self.is_terminal(state):
            raise InvalidParameterError(f"utility of a non-terminal state {state}")
        diff = state.black.bit_count() - state.white.bit_count()
        return float(diff if self._max_is_black else -diff)

    def evaluate(self, state: OthelloState) -> float:
        b, w = state.black, state.white
        e = _evaluate_black(b, w)
        return 0.99 * (e if self._max_is_black else -e)

    def hash_key(self, state: OthelloState) -> int:
        return zobrist(state)

    def compiled_primitives(self):
        """The compiled engine's primitives (searchlab.games.othello_compiled)."""
        return _compiled_game(self._max_is_black)

    def move_orderings(self) -> dict[str, Callable[[OthelloState, list], list]]:
        """The game's own static ordering policies: {"corners": corners_first}."""
        return {"corners": corners_first}

    # --- conveniences --------------------------------------------------------------------
    def render(self, state: OthelloState) -> str:
        """Eight rows, row 1 at the top: X = Black, O = White, '.' empty."""
        rows = []
        for r in range(8):
            cells = []
            for c in range(8):
                i = 8 * r + c
                cells.append("X" if state.black >> i & 1 else "O" if state.white >> i & 1 else ".")
            rows.append(f"{r + 1} {''.join(cells)}")
        return "  abcdefgh\n" + "\n".join(rows)

    def __repr__(self) -> str:
        s = self._root
        return (f"Othello({self.name}: {s.black.bit_count()} black, {s.white.bit_count()} white, "
                f"{'Black' if s.black_to_move else 'White'} to move)")

    def _repr_html_(self) -> str:
        """The root position as an SVG board (notebooks show it): X Black, O White."""
        s = self._root
        rows = [line.split(" ", 1)[1] for line in self.render(s).split("\n")[1:]]
        return grid_svg(rows, "othello", col_labels="abcdefgh", row_labels=[str(r) for r in range(1, 9)],
                        caption=f"{'Black' if s.black_to_move else 'White'} to move")


def _evaluate_black(b: int, w: int) -> float:
    """The evaluation e in [-1, 1] from Black's point of view (formula: module docstring)."""
    t = (b | w).bit_count() / 64.0
    mb, mw = legal_squares(b, w).bit_count(), legal_squares(w, b).bit_count()
    mob = (mb - mw) / (mb + mw) if mb + mw else 0.0
    corners = ((b & _CORNER_MASK).bit_count() - (w & _CORNER_MASK).bit_count()) / 4.0
    stable = (_edge_stable(b).bit_count() - _edge_stable(w).bit_count()) / 28.0
    db, dw = b.bit_count(), w.bit_count()
    discs = (db - dw) / (db + dw) if db + dw else 0.0
    return (0.30 * (1.0 - t) * mob + 0.35 * corners + 0.15 * stable
            + (0.05 + 0.45 * t) * discs)


# --- perft ----------------------------------------------------------------------------------
def perft(game: Othello, state: OthelloState, depth: int) -> int:
    """Leaf count through the Game protocol (pure Python; the kernel's cross-check).

    A terminal position counts as one leaf where it occurs; a pass is a move and a ply. This
    equals Bik's convention (the kernel), which detects game over one ply later.
    """
    if depth == 0 or game.is_terminal(state):
        return 1
    return sum(perft(game, game.play(state, m), depth - 1) for m in game.legal_moves(state))


def othello_perft(depth: int, state: OthelloState | None = None, *, bulk: bool = True) -> int:
    """Perft from ``state`` (default: the standard start) with the compiled kernel.

    Pass convention of tests/data/othello/README.md (Aart Bik's). ``bulk=True`` counts
    depth-1 nodes by a popcount of the move set (same count, faster). The first call of a
    process compiles the kernel or loads it from numba's cache.
    """
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 0:
        raise InvalidParameterError(f"depth must be an integer >= 0; got {depth!r}")
    if depth > 30:
        raise UnsupportedError(f"depth {depth} would not finish: perft grows ~10x per ply")
    state = START if state is None else _check_state(state)
    p, o = state.mover
    with np.errstate(over="ignore"):          # wrapping uint64 products under NUMBA_DISABLE_JIT
        return int(kernel.perft(np.uint64(p), np.uint64(o), int(depth), bool(bulk)))


def _move_text(move: Any) -> str:
    try:
        return square_name(int(move))
    except Exception:  # noqa: BLE001 -- a pass or an unexpected move: its plain text
        return str(move)


def _lab_cells(state: OthelloState) -> list[list[int]]:
    """The lab's board: rows top to bottom, 1 = Black, 2 = White, 0 = empty."""
    return [[1 if state.black >> (8 * r + c) & 1 else 2 if state.white >> (8 * r + c) & 1
             else 0 for c in range(8)] for r in range(8)]


#: how the lab draws it: positions are from_text's square lists "f5d6c3"; a pass has no cell
LAB_BOARD = LabBoard(build=Othello.from_text,
                     after=lambda position, game, move: position.strip() + square_name(move),
                     move_name=lambda game, move: square_name(move),
                     first_to_move=lambda state: state.black_to_move, cells=_lab_cells,
                     move_cell=lambda game, move: None if move == PASS else [move // 8, move % 8],
                     depth=8, score=True, colours=("#111", "#fff"), cell_size=46,
                     square="#2e7d32", coordinates=True, hints=True, passes=True)

#: this game's declaration in the game registry (searchlab.games.registry)
GAME = GameEntry(name="othello", make=Othello, source_kind="random", sources=("random",),
                 nominal_b=10, label="Othello",
                 random_position=lambda source, ply, seed: Othello.random(ply, seed),
                 max_ply=lambda source: MAX_RANDOM_PLY, format_move=_move_text, own_ordering="corners",
                 at_state=Othello, lab=True, lab_board=LAB_BOARD, order=30, sides=("black", "white"),
                 max_plies=MAX_PLIES, proven_bound=1.0,
                 # its engine's cold compile, CPU s (docs/compile-time.md, the warm-up row)
                 compile_seconds=28)
