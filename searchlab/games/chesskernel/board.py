"""The public face of the compiled chess kernel: validated positions, moves, perft.

``CompiledBoard(text)`` parses a FEN or EPD line with python-chess, refuses positions the kernel
cannot play (searchlab.games.chess_fen.check_position, shared with the Python game) and keeps the position and every later one in a stack of
rows (position.py), so repetitions over the game are seen. Its compiled calls go through
cached.kernel(), loaded from disk in a warm process. Moves in and out are UCI strings in
python-chess's order (movegen.py).

Errors: ``InvalidParameterError`` (a SearchlabError) naming the position and the offending FEN
field, raised before any work.
"""

from __future__ import annotations

import chess
import numpy as np

from searchlab.errors import InvalidParameterError
from searchlab.games.chess_fen import check_position, parse_board
from searchlab.games.chesskernel.cached import kernel
from searchlab.games.chesskernel.movegen import MAX_MOVES
from searchlab.games.chesskernel.position_row import (CASTLE, EP, FULL, HALF, KEY, NO_SQUARE, ROW,
                                                  STM, row_from_board, uci)

#: The largest perft depth the wrapper accepts (a guard against typos, not a limit of the kernel).
MAX_PERFT_DEPTH = 12


class CompiledBoard:
    """A chess game on the compiled kernel, from a validated position.

    Keeps every position since the start (``push``), so ``repetitions`` counts over the game
    as python-chess's ``is_repetition`` does. Plain values in and out (UCI strings, ints).
    """

    def __init__(self, text: str | chess.Board = "startpos", max_plies: int = 1024) -> None:
        if isinstance(text, chess.Board):
            check_position(text)
            board = text
        else:
            board = parse_board(text)
        self._stack = np.zeros((max_plies + 1, ROW), dtype=np.uint64)
        self._stack[0] = row_from_board(board)
        self._buffer = np.zeros(MAX_MOVES, dtype=np.int64)
        self._ply = 0

    # --- views ---------------------------------------------------------------------------
    @property
    def row(self) -> np.ndarray:
        """The current position row (a view; do not modify)."""
        return self._stack[self._ply]

    @property
    def ply(self) -> int:
        return self._ply

    def moves_encoded(self) -> np.ndarray:
        """The legal moves as the kernel encodes them (movegen.py), python-chess's order."""
        with np.errstate(over="ignore"):       # the slider arithmetic wraps by design
            n = kernel().generate(self.row, self._buffer)
        return self._buffer[:n].copy()

    def legal_moves(self) -> list[str]:
        """The legal moves as UCI strings, in python-chess's order."""
        return [uci(int(m)) for m in self.moves_encoded()]

    def key(self) -> int:
        """The Polyglot Zobrist key (== chess.polyglot.zobrist_hash)."""
        return int(self.row[KEY])

    def recomputed_key(self) -> int:
        """The key computed from scratch (tests compare it with the incremental one)."""
        with np.errstate(over="ignore"):
            return int(kernel().full_key(self.row))

    def is_check(self) -> bool:
        with np.errstate(over="ignore"):
            return bool(kernel().in_check(self.row))

    def halfmove_clock(self) -> int:
        return int(self.row[HALF])

    def repetitions(self) -> int:
        """Earlier positions of this game equal to the current one (python-chess's
        ``is_repetition(count)`` is ``repetitions() >= count - 1``)."""
        return int(kernel().repetitions(self._stack, self._ply, 0))

    def to_board(self) -> chess.Board:
        """The position as a python-chess board (no move stack)."""
        return board_from_row(self.row)

    # --- moves ---------------------------------------------------------------------------
    def push(self, move: str) -> None:
        """Play a legal move given in UCI; InvalidParameterError for anything else."""
        if self._ply + 1 >= self._stack.shape[0]:
            raise InvalidParameterError(f"max_plies={self._stack.shape[0] - 1} moves already played")
        moves = self.moves_encoded()
        for m in moves:
            if uci(int(m)) == move:
                with np.errstate(over="ignore"):
                    kernel().make_move(self._stack[self._ply], self._stack[self._ply + 1], m)
                self._ply += 1
                return
        raise InvalidParameterError(
            f"move {move!r} is not a legal UCI move in {self.to_board().fen()!r}")

    def pop(self) -> None:
        """Take the last move back."""
        if self._ply == 0:
            raise InvalidParameterError("no move to take back")
        self._ply -= 1

    # --- perft ---------------------------------------------------------------------------
    def perft(self, depth: int) -> int:
        """Legal move paths of exactly ``depth`` plies from the current position."""
        depth = _check_depth(depth)
        stack, moves = self._scratch(depth)
        with np.errstate(over="ignore"):
            return int(kernel().perft_kernel(stack, 0, depth, moves))

    def divide(self, depth: int) -> dict[str, int]:
        """Perft below each legal move (depth >= 1), in python-chess's order."""
        depth = _check_depth(depth)
        if depth < 1:
            raise InvalidParameterError(f"divide needs depth >= 1; got {depth}")
        stack, moves = self._scratch(depth)
        counts = np.zeros(MAX_MOVES, dtype=np.int64)
        with np.errstate(over="ignore"):
            n = kernel().divide_kernel(stack, 0, depth, moves, counts)
        return {uci(int(moves[0, i])): int(counts[i]) for i in range(n)}

    def _scratch(self, depth: int) -> tuple[np.ndarray, np.ndarray]:
        stack = np.zeros((depth + 1, ROW), dtype=np.uint64)
        stack[0] = self.row
        return stack, np.zeros((depth + 1, MAX_MOVES), dtype=np.int64)


def _check_depth(depth: int) -> int:
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or not 0 <= depth <= MAX_PERFT_DEPTH:
        raise InvalidParameterError(f"depth must be an int in 0..{MAX_PERFT_DEPTH}; got {depth!r}")
    return int(depth)


def perft(text: str, depth: int) -> int:
    """Perft of a FEN/EPD position (see CompiledBoard.perft)."""
    return CompiledBoard(text, max_plies=0).perft(depth)


def board_from_row(row: np.ndarray) -> chess.Board:
    """A python-chess board holding a kernel row's position (pieces, side, rights, ep square,
    counters)."""
    board = chess.Board.empty()
    for c, color in enumerate((chess.WHITE, chess.BLACK)):
        for pt in range(1, 7):
            for sq in chess.scan_forward(int(row[c * 6 + pt - 1])):
                board.set_piece_at(sq, chess.Piece(pt, color))
    board.turn = chess.WHITE if int(row[STM]) == 0 else chess.BLACK
    rights = int(row[CASTLE])
    mask = 0
    for bit, sq in ((1, chess.H1), (2, chess.A1), (4, chess.H8), (8, chess.A8)):
        if rights & bit:
            mask |= chess.BB_SQUARES[sq]
    board.castling_rights = mask
    ep = int(row[EP])
    board.ep_square = None if ep == NO_SQUARE else ep
    board.halfmove_clock = int(row[HALF])
    board.fullmove_number = int(row[FULL])
    return board
