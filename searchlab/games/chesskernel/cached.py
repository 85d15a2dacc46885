"""The kernel's functions that Python calls, compiled once and cached on disk.

The kernel's modules are plain ``@njit`` (numba's own cache would not notice an edit to a
module a cached function calls). ``kernel()`` returns a module with one ``cache=True``
function per name below, the same parameters, calling the kernel's function: a generated copy
through searchlab.algorithms.compiled.specialise.cached, whose file name hashes every source
the compiled code depends on, so an edit compiles afresh and a warm process loads the
compiled code from disk (milliseconds) instead of compiling the move generator (seconds).

Names: ``perft_kernel``, ``divide_kernel`` (perft.py), ``generate``, ``has_legal_move``
(movegen.py), ``count_moves`` (count.py), ``make_move``, ``full_key``, ``in_check``,
``repetitions`` (position.py) and the compiled game's primitives that tests and tools call one
by one (game.py). Under NUMBA_DISABLE_JIT=1 they run as plain Python.
"""

from __future__ import annotations

import types

from searchlab.algorithms.compiled.specialise import cached
from searchlab.games.chesskernel import game
from searchlab.games.chesskernel.count import count_moves
from searchlab.games.chesskernel.movegen import generate, has_legal_move
from searchlab.games.chesskernel.perft import divide_kernel, perft_kernel
from searchlab.games.chesskernel.position_row import full_key, in_check, make_move, repetitions

FUNCTIONS = (perft_kernel, divide_kernel, generate, has_legal_move, count_moves, make_move,
             full_key, in_check, repetitions,
             game.max_to_move, game.gen_moves, game.play, game.is_terminal, game.utility,
             game.evaluate, game.hash_key, game.order_key, game.is_noisy, game.null_move,
             game.null_move_allowed, game.noisy_moves, game.capture_gain, game.repetition_draw)


def kernel() -> types.ModuleType:
    """The cached module (loaded once per process)."""
    return cached(FUNCTIONS)
