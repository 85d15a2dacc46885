"""Compiled chess (numba, bitboards): positions, legal moves, keys, repetitions, perft.

A second implementation of chess rules beside searchlab.games.chess_game (python-chess), for
speed; python-chess parses FEN/EPD and is the checker (tests/games/test_chess_kernel.py).

Modules, one job each:
    tables      precomputed attack tables, castling masks, Polyglot Zobrist numbers (numpy)
    bits        msb / lsb / popcount, one instruction compiled, plain Python uncompiled
    attacks     slider and leaper attack sets (hyperbola quintessence; why: tables.py)
    position_row the position row, copy-make of moves (with or without keys) and null moves,
                keys, repetitions
    movegen     legal moves in python-chess's exact order
    count       the number of legal moves without listing them (perft's last ply)
    perft       perft with bulk counting
    board       the public wrapper: CompiledBoard (validated by searchlab.games.chess_fen), perft
    game        chess as a game of the compiled search engine (its primitives)
    cached      the functions Python calls, cached on disk (compiled once, loaded afterwards)

The kernel's modules are plain ``@njit`` without numba's cache, which would not notice edits
to the modules a cached function calls. What Python calls goes through cached.kernel(): a
generated module of ``cache=True`` functions calling the kernel's, named by a hash of every
source their compiled code depends on (searchlab.algorithms.compiled.specialise.cached), so a
warm process loads them from disk. Loading a position is plain Python, and the compiled
engine's searches run from its own cached per-game copy.
``NUMBA_DISABLE_JIT=1`` runs the same code as plain Python.
"""

from searchlab.games.chesskernel.board import CompiledBoard, board_from_row, perft, uci
from searchlab.games.chesskernel.movegen import MAX_MOVES

__all__ = ["CompiledBoard", "board_from_row", "perft", "uci", "MAX_MOVES"]
