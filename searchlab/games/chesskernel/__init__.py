"""Compiled chess (numba, bitboards): positions, legal moves, keys, repetitions, perft.

A second implementation of chess rules beside searchlab.games.chess_game (python-chess), for
speed; python-chess parses FEN/EPD and is the checker (tests/games/test_chess_kernel.py).

Modules, one job each:
    tables      precomputed attack tables, castling masks, Polyglot Zobrist numbers (numpy)
    bits        msb / lsb / popcount, one instruction compiled, plain Python uncompiled
    attacks     slider and leaper attack sets (hyperbola quintessence; why: tables.py)
    position    the position row, copy-make of moves (with or without keys) and null moves,
                keys, repetitions
    movegen     legal moves in python-chess's exact order
    count       the number of legal moves without listing them (perft's last ply)
    perft       perft with bulk counting
    board       the public wrapper: CompiledBoard (validated by searchlab.games.chess_fen), perft
    game        chess as a game of the compiled search engine (its primitives)

The kernel's functions compile on first use in a process (a few seconds; no on-disk cache of
their own, because numba's cache would not notice edits to the modules a cached function
calls). Loading a position (position.row_from_board) is plain Python, so a process whose
searches run from the compiled engine's disk cache (searchlab.algorithms.compiled.specialise,
which hashes every file the primitives depend on) compiles nothing for chess.
``NUMBA_DISABLE_JIT=1`` runs the same code as plain Python.
"""

from searchlab.games.chesskernel.board import CompiledBoard, board_from_row, perft, uci
from searchlab.games.chesskernel.movegen import MAX_MOVES

__all__ = ["CompiledBoard", "board_from_row", "perft", "uci", "MAX_MOVES"]
