"""Othello's compiled primitives against the Python game on random positions: legal moves,
terminal test, evaluation bit for bit, Zobrist key, the table-driven edge stability, and the
trade-off study's pass (null move) on its own and in a search."""

from __future__ import annotations

import random

import numpy as np

from searchlab.algorithms.search_api import search
from searchlab.algorithms.calibration import sample_states
from searchlab.algorithms.pruning import NullMove, Pruning
from searchlab.studies.tradeoff.domains import othello_game
from searchlab.games import othello as O
from searchlab.games import othello_compiled as C
from searchlab.games.othello import Othello
from searchlab.games.position import FromState


def test_edge_stability_by_table_equals_the_python_walk():
    rng = random.Random(1)
    boards = [0, (1 << 64) - 1, 0xFF000000000000FF, 0x8181818181818181]
    boards += [rng.getrandbits(64) | rng.getrandbits(64) for _ in range(3000)]
    for own in boards:
        corners = bin(own & C._CORNER_MASK).count("1")          # counted twice by _edge_runs
        assert C._edge_runs(np.uint64(own)) - corners == bin(O._edge_stable(own)).count("1"), \
            hex(own)


def test_primitives_equal_the_python_game_along_random_games():
    rng = random.Random(2)
    checked = passes = 0
    for max_black in (True, False):
        game = Othello() if max_black else Othello("f5")          # MAX: the side to move
        cg = game.compiled_primitives()
        P = cg.prims
        for _ in range(12):
            s = game.initial_state()
            row = cg.encode(s)
            out, moves = np.zeros(C.STATE_SIZE, np.uint64), np.zeros(cg.max_moves, np.int64)
            while True:
                assert P.is_terminal(row) == game.is_terminal(s)
                assert P.max_to_move(row) == game.max_to_move(s)
                assert int(P.hash_key(row)) == game.hash_key(s)
                if game.is_terminal(s):
                    assert P.utility(row) == game.utility(s)
                    break
                assert P.evaluate(row) == game.evaluate(s)            # bit for bit
                n = P.gen_moves(row, moves)
                legal = list(game.legal_moves(s))
                assert [cg.move_of(int(m)) for m in moves[:n]] == legal
                m = legal[rng.randrange(len(legal))]
                passes += m == C.PASS
                P.play(row, cg.id_of(m), out)
                s = game.play(s, m)
                assert np.array_equal(out, cg.encode(s))              # the cached move sets too
                row = out.copy()
                checked += 1
    assert checked > 1000 and passes > 0


def test_pass_turn_is_the_python_pass_into_a_used_row():
    """The trade-off study's null move: the whole row of the passed state, whatever ``out``
    held before (the engine passes into a row of its stack that another state used)."""
    game = othello_game()
    cg = game.compiled_primitives()
    for s in sample_states(Othello(), 10, 20, seed=4):
        out = np.full(C.STATE_SIZE, 0x5A5A5A5A5A5A5A5A, dtype=np.uint64)
        cg.prims.null_move(cg.encode(s), out)
        assert np.array_equal(out, cg.encode(game.null_move(s)))


def test_null_move_search_equals_the_reference():
    """Null-move pruning with the pass as the null move, compiled against reference, counts."""
    game = othello_game()
    pruning = Pruning(null_move=NullMove())
    for s in sample_states(Othello(), 8, 3, seed=2):
        v = FromState(game, s)
        ref, com = (search(v, "alphabeta", "id+tt+killer+history+corners", depth=5,
                           pruning=pruning, engine=e) for e in ("reference", "compiled"))
        assert com.engine == "compiled" and com.counts() == ref.counts()
        assert (com.value, com.best_move) == (ref.value, ref.best_move)
