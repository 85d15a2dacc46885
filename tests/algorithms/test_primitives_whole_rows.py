"""Every compiled copy-make writes the whole child row: ``play``, ``null_move`` and the
trade-off study's passes give the same row over a row of garbage as over a row of zeros
(chess: the words its state uses, the position and its N_HIST repetition keys; the slots
beyond are never read).

The engine reuses its rows (S[ply + 1] holds the previous child until the next one is
written), so a word a primitive leaves unwritten carries another position's data into the
search. Othello's pass_turn once left both legal-move sets behind: null-move searches on
Othello then differed from the reference."""

from __future__ import annotations

import numpy as np
import pytest

from searchlab.algorithms.calibration import sample_states
from searchlab.contracts.compiled import compiled_game
from searchlab.contracts.compiled_stubs import no_null_move
from searchlab.studies.tradeoff import domains
from searchlab.games.chesskernel.game import HIST0, N_HIST
from searchlab.games.chess_game import Chess
from searchlab.games.hex import Hex
from searchlab.games.tictactoe import TicTacToe
from searchlab.trees.incremental import IncrementalTree
from searchlab.trees.iid import IIDTree
from searchlab.trees.ordered import OrderedTree

GAMES = {
    "tictactoe": (TicTacToe, 3),
    "connect4 (with the study's pass)": (domains.connect4_game, 10),
    "othello (with the study's pass)": (domains.othello_game, 12),
    "hex 5x5": (lambda: Hex(5), 6),
    "hex 9x9": (lambda: Hex(9), 20),
    "chess": (Chess, 12),
    "incremental tree": (lambda: IncrementalTree(4, 6, 3), 3),
    "iid tree": (lambda: IIDTree(4, 6, 3), 3),
    "ordered tree": (lambda: OrderedTree(4, 6, 3), 3),
}


def _children(make_child, size: int, chess: bool) -> tuple[np.ndarray, np.ndarray]:
    garbage = np.full(size, np.uint64(0xA5A5_A5A5_A5A5_A5A5), dtype=np.uint64)
    zeros = np.zeros(size, np.uint64)
    with np.errstate(over="ignore"):        # uint64 wrap-around under NUMBA_DISABLE_JIT
        make_child(garbage)
        make_child(zeros)
    used = HIST0 + int(zeros[N_HIST]) if chess else size
    return garbage[:used], zeros[:used]


@pytest.mark.parametrize("name", GAMES)
def test_copy_make_writes_the_whole_row(name):
    make, plies = GAMES[name]
    game = make()
    cg = compiled_game(game)
    p = cg.prims
    chess = isinstance(game, Chess)
    checked = 0
    for state in sample_states(game, plies, 12, seed=7):
        if game.is_terminal(state):
            continue
        row = np.asarray(cg.encode(state), dtype=np.uint64)
        buf = np.zeros(cg.max_moves, np.int64)
        for m in buf[:p.gen_moves(row, buf)]:
            got, want = _children(lambda out: p.play(row, m, out), cg.state_size, chess)
            assert (got == want).all(), f"play({cg.move_of(int(m))}) leaves words unwritten"
            checked += 1
        if p.null_move is not no_null_move and p.null_move_allowed(row):
            got, want = _children(lambda out: p.null_move(row, out), cg.state_size, chess)
            assert (got == want).all(), "null_move leaves words unwritten"
    assert checked >= 12
