"""Compiled chess (numba, bitboards): positions, legal moves, keys, repetitions, perft.

A second implementation of chess rules beside searchlab.games.chess_game (python-chess), for
speed; python-chess parses FEN/EPD and is the checker (tests/games/test_chess_kernel.py).

Modules, one job each:
    tables      precomputed attack tables, castling masks, Polyglot Zobrist numbers (numpy)
    bits        msb / lsb / popcount, one instruction compiled, plain Python uncompiled
    attacks     slider and leaper attack sets (hyperbola quintessence; why: tables.py)
    position    the position row, copy-make of moves and null moves, keys, repetitions
    movegen     legal moves in python-chess's exact order
    perft       perft with bulk counting
    board       the public wrapper: CompiledBoard (validated by searchlab.games.chess_fen), perft
    game        chess as a game of the compiled search engine (its primitives)

Everything compiles on first use in a process (a few seconds; no on-disk cache, because
numba's cache would not notice edits to the modules a cached function calls).
``NUMBA_DISABLE_JIT=1`` runs the same code as plain Python.
"""

from searchlab.games.chesskernel.board import CompiledBoard, board_from_row, perft, uci
from searchlab.games.chesskernel.movegen import MAX_MOVES

__all__ = ["CompiledBoard", "board_from_row", "perft", "uci", "MAX_MOVES"]
