"""The compiled chess game primitives (searchlab.games.chesskernel.game) against the Python
chess game (searchlab.games.chess_game) state by state: natural order, play, null move,
terminal test, utility and evaluation bit for bit, keys, the "captures" order, noisy moves and
the null-move guard, with MAX White and MAX Black."""

from __future__ import annotations

import math
import struct

import chess
import numpy as np
import pytest

from searchlab.games.chess_game import Chess, captures_first
from searchlab.games.chesskernel import game as cg
from searchlab.games.chesskernel.cached import kernel
from searchlab.games.chesskernel.movegen import MAX_MOVES
from tests.games.chess_kernel_cases import random_game, suite_fens

K = kernel()        # the primitives, compiled code loaded from the disk cache
TERMINAL = [
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",   # fool's mate: White mated
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",                                  # stalemate
    "8/8/4k3/8/8/3K4/8/8 w - - 0 1",                                   # bare kings
    "8/8/4k3/8/8/3KN3/8/8 b - - 0 1",                                  # K+N v K
    "8/8/4k3/8/8/3KB3/8/2b5 w - - 0 1",                                # bishops, one colour
    "8/8/4k3/8/8/3K4/8/R7 w - - 150 120",                              # 75-move rule
]
NOT_TERMINAL = [
    "8/8/4k3/8/8/3KB3/8/3b4 w - - 0 1",                                # bishops, both colours
    "8/8/4k3/8/8/3K4/8/R7 w - - 149 120",
]


def _bits(x: float) -> bytes:
    return struct.pack("<d", x)


def _used(row: np.ndarray) -> np.ndarray:
    """The words of a state row in use: the position and its history (the slots past the
    history are stale in a reused buffer and never read)."""
    return row[:cg.HIST0 + int(row[cg.N_HIST])]


def _check_state(game: Chess, state, max_white: bool, buf: np.ndarray, out: np.ndarray,
                 seen: dict) -> None:
    row = cg.encode_state(state, max_white)
    assert bool(K.max_to_move(row)) == game.max_to_move(state)
    assert int(K.hash_key(row)) == game.hash_key(state)
    terminal = game.is_terminal(state)
    assert bool(K.is_terminal(row)) == terminal, state.fen
    if terminal:
        seen["terminal"] += 1
        seen["repetition"] += state.is_repetition_draw()
        assert _bits(K.utility(row)) == _bits(game.utility(state)), state.fen
        return
    assert _bits(K.evaluate(row)) == _bits(game.evaluate(state)), state.fen
    n = K.gen_moves(row, buf)
    ids = [int(m) for m in buf[:n]]
    moves = game.legal_moves(state)
    assert [cg.move_of(m) for m in ids] == moves and [cg.id_of(m) for m in moves] == ids
    by_key = sorted(ids, key=lambda m: K.order_key(row, m, cg.ORDER_CAPTURES))
    assert [cg.move_of(m) for m in by_key] == captures_first(state, moves)
    k = K.noisy_moves(row, buf)
    assert [cg.move_of(int(m)) for m in buf[:k]] == game.noisy_moves(state)
    seen["captures"] += k
    for m, uci in zip(ids, moves):
        assert bool(K.is_noisy(row, m)) == game.is_noisy(state, uci)
        K.play(row, m, out)
        assert np.array_equal(_used(out), _used(cg.encode_state(game.play(state, uci), max_white))), uci
    assert bool(K.null_move_allowed(row)) == game.null_move_allowed(state)
    seen["null_refused"] += not game.null_move_allowed(state)
    K.null_move(row, out)
    assert np.array_equal(_used(out), _used(cg.encode_state(game.null_move(state), max_white)))
    seen["states"] += 1


def _run(fens: list[str], plies: int, seed: int) -> dict:
    buf = np.zeros(MAX_MOVES, dtype=np.int64)
    out = np.zeros(cg.STATE_SIZE, dtype=np.uint64)
    seen = {"states": 0, "terminal": 0, "captures": 0, "null_refused": 0, "repetition": 0}
    for i, fen in enumerate(fens):
        game = Chess(fen)
        max_white = game.initial_state().turn == chess.WHITE
        state = game.initial_state()
        _check_state(game, state, max_white, buf, out, seen)
        for uci in random_game(fen, seed + i, plies):
            state = game.play(state, uci)
            _check_state(game, state, max_white, buf, out, seen)
            if game.is_terminal(state):
                break
    return seen


def test_terminal_positions():
    seen = _run(TERMINAL + NOT_TERMINAL, plies=0, seed=0)
    assert seen["terminal"] == len(TERMINAL) and seen["states"] == len(NOT_TERMINAL)
    mated = cg.encode_state(Chess(TERMINAL[0]).initial_state(), max_white=True)
    assert K.utility(mated) == -cg.MATE_VALUE
    mated[cg.MAX_COLOR] = np.uint64(1)
    assert K.utility(mated) == cg.MATE_VALUE


def test_level_evaluation_is_negative_zero_for_black_max():
    """Python negates float(0) to -0.0 when MAX is Black; the kernel must too (bit for bit)."""
    row = cg.encode_state(Chess("4k3/8/8/8/8/8/8/4K3 b - - 0 1").initial_state(), max_white=False)
    assert math.copysign(1.0, K.evaluate(row)) == -1.0


def test_primitives_match_the_python_game_along_random_games():
    """Both colours as MAX (games from White-to-move and Black-to-move positions)."""
    fens = [chess.STARTING_FEN] + suite_fens()[::6]
    seen = _run(fens, plies=25, seed=3)
    assert seen["states"] > 300 and seen["captures"] > 100 and seen["null_refused"] > 0


@pytest.mark.slow
def test_primitives_match_the_python_game_many_positions():
    seen = _run([chess.STARTING_FEN] + suite_fens(), plies=80, seed=4)
    assert seen["states"] > 5000 and seen["terminal"] > 0
