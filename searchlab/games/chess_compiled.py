"""Chess's compiled primitives (the contract: searchlab.contracts.compiled).

The primitives are searchlab.games.chesskernel.game's (numba, bitboards; their module
docstring states what each repeats of searchlab.games.chess_game). State row: the kernel's
position row, MAX's colour in its spare word. Move id: ``from + 64 * to + 4096 * promotion``,
one-to-one with the UCI strings the Python game lists, in the same (python-chess's) order.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from searchlab.contracts.compiled import CompiledGame, Primitives
from searchlab.games.chesskernel import game as cg
from searchlab.games.chesskernel.movegen import MAX_MOVES

PRIMITIVES = Primitives(cg.max_to_move, cg.gen_moves, cg.play, cg.is_terminal, cg.utility,
                        cg.evaluate, cg.hash_key, cg.order_key, cg.is_noisy, cg.null_move,
                        cg.null_move_allowed, cg.noisy_moves, cg.capture_gain)


@lru_cache(maxsize=None)       # one per argument: the engine looks it up on every search
def compiled_game(max_white: bool) -> CompiledGame:
    """The CompiledGame of a chess game whose MAX is White (max_white) or Black."""

    def encode(state) -> np.ndarray:
        return cg.encode_state(state, max_white)

    return CompiledGame(PRIMITIVES, cg.STATE_SIZE, MAX_MOVES, cg.N_MOVE_IDS, cg.MAX_PLIES,
                        encode, cg.move_of, cg.id_of, dict(cg.ORDERINGS))
