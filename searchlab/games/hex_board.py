"""Hex's board arithmetic on cell sets (Python ints, bit i = cell i = r * n + c), shared by the
Game (searchlab.games.hex, where the rules are documented) and its compiled primitives
(searchlab.games.hex_compiled): sizes, masks, the six neighbour directions, the flood-fill win
test, the shortest-path distance and the Zobrist keys.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from searchlab.errors import InvalidParameterError
from searchlab.hashing import GOLDEN, MASK64, mix64

MIN_SIZE, MAX_SIZE = 1, 11
MAX_CELLS = MAX_SIZE * MAX_SIZE


def check_size(n: object) -> int:
    """``n`` as an int, or InvalidParameterError unless it is an integer in 1..11."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not MIN_SIZE <= n <= MAX_SIZE:
        raise InvalidParameterError(f"Hex board size n must be an integer in {MIN_SIZE}..{MAX_SIZE}; "
                                    f"got {n!r}")
    return int(n)


class Masks(NamedTuple):
    """Bit masks of one board size (bit i = cell i)."""

    n: int
    board: int
    top: int
    bottom: int
    left: int
    right: int
    not_first_col: int
    not_last_col: int


@lru_cache(maxsize=None)
def masks(n: int) -> Masks:
    """The bit masks of the n x n board."""
    board = (1 << (n * n)) - 1
    top = (1 << n) - 1
    left = sum(1 << (r * n) for r in range(n))
    right = left << (n - 1)
    return Masks(n, board, top, top << (n * (n - 1)), left, right, board & ~left, board & ~right)


def neighbours(cells: int, m: Masks) -> int:
    """The cells touching at least one cell of ``cells`` (module docstring's six directions)."""
    n = m.n
    a = cells & m.not_last_col          # cells with a right-hand neighbour
    b = cells & m.not_first_col         # cells with a left-hand neighbour
    return ((a << 1) | (b >> 1) | (cells << n) | (cells >> n)
            | (a >> (n - 1)) | (b << (n - 1))) & m.board


def _sides(m: Masks, vertical: bool) -> tuple[int, int]:
    return (m.top, m.bottom) if vertical else (m.left, m.right)


@lru_cache(maxsize=1 << 18)
def connected(stones: int, n: int, vertical: bool) -> bool:
    """True when ``stones`` hold a chain joining the top and bottom rows (``vertical``, X's
    goal) or the left and right columns (O's goal): flood fill from the first side."""
    m = masks(n)
    start, goal = _sides(m, vertical)
    reached = stones & start
    while reached:
        if reached & goal:
            return True
        grown = (reached | neighbours(reached, m)) & stones
        if grown == reached:
            return False
        reached = grown
    return False


def _fill(cells: int, own: int, m: Masks) -> int:
    """``cells`` grown through ``own``'s stones until nothing changes."""
    while True:
        grown = cells | (neighbours(cells, m) & own)
        if grown == cells:
            return cells
        cells = grown


def distance(own: int, opp: int, n: int, vertical: bool) -> int:
    """The least number of empty cells ``own`` must fill to join its two sides, through its
    own stones (cost 0) and empty cells (cost 1), never the opponent's: a 0-1 breadth-first
    search over bitboards (layer k = the cells reachable at cost <= k). 0 when already
    connected; n*n when the opponent's stones wall it off (the opponent has then won)."""
    m = masks(n)
    start, goal = _sides(m, vertical)
    empty = m.board & ~(own | opp)
    reached = _fill(own & start, own, m)
    k = 0
    while not reached & goal:
        grown = _fill(reached | ((neighbours(reached, m) | start) & empty), own, m)
        if grown == reached:
            return n * n
        reached = grown
        k += 1
    return k



_ZOBRIST_SEED = 0x6865_785F_6865_7821           # "hex_hex!"
#: ZOBRIST[p * 121 + i]: player p (0 = X, 1 = O) on cell i.
ZOBRIST = tuple(mix64((_ZOBRIST_SEED + (k + 1) * GOLDEN) & MASK64) for k in range(2 * MAX_CELLS))


def _byte_tables(offset: int) -> tuple[tuple[int, ...], ...]:
    """T[j][v]: XOR of the keys of player ``offset`` on the cells set in byte j = v."""
    tables = []
    for j in range(16):
        row = [0] * 256
        for v in range(1, 256):
            low = v & -v
            cell = 8 * j + low.bit_length() - 1
            row[v] = row[v ^ low] ^ (ZOBRIST[offset + cell] if cell < MAX_CELLS else 0)
        tables.append(tuple(row))
    return tuple(tables)


_ZX, _ZO = _byte_tables(0), _byte_tables(MAX_CELLS)


def zobrist(state) -> int:
    """XOR of ZOBRIST[cell] for X's stones and ZOBRIST[121 + cell] for O's, of a position
    (x, o, ...) such as a HexState."""
    x, o, key = state[0], state[1], 0
    j = 0
    while x | o:
        key ^= _ZX[j][x & 0xFF] ^ _ZO[j][o & 0xFF]
        x >>= 8
        o >>= 8
        j += 1
    return key

