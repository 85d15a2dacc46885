"""Repetition draws in chess search: the history a ChessState and a compiled chess
row carry, the rule (a position recurring once from the root on, or twice in all, is a draw)
against python-chess's ``is_repetition``, and a perpetual check that both engines score as a
draw node for node, where a search without repetitions reports a win for the other side."""

from __future__ import annotations

import pickle
import random

import chess
import pytest

from searchlab.algorithms.search_api import search
from searchlab.algorithms.pruning import Pruning, Quiescence
from searchlab.errors import InvalidParameterError
from searchlab.games.chess_game import Chess, ChessState
from searchlab.games.chesskernel import game as cg
from searchlab.games.position import FromState

SHUFFLE = ("g1f3", "g8f6", "f3g1", "f6g8")
# White (a queen against three rooks) draws by perpetual check: Qe8+ Kh7 Qh5+ Kg8 and again.
PERPETUAL = "6k1/6p1/8/7Q/8/7K/rr6/r7 w - - 0 1"
# Sparse endings where random play repeats positions.
ENDINGS = ["8/8/4k3/8/8/3K4/8/R6N w - - 0 1", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
           "8/2n5/8/4k3/8/8/3NK3/8 w - - 0 1", "6k1/5ppp/8/8/8/8/5PPP/3QR1K1 w - - 0 1"]


class NoRepetitions(Chess):
    """Chess as it was before repetitions were detected (only python-chess's outcome)."""

    def is_terminal(self, state):
        return state.outcome() is not None


def test_rule_matches_python_chess_along_random_games():
    """From the game's start, every position played is on the search path (the root
    included), so the draw is python-chess's twofold ``is_repetition(2)``; the same position
    with its history all before the root (``rooted``) is a draw at threefold
    ``is_repetition(3)``. The kernel's row says the same, and its repetition key is the
    Python one. The games often take back their side's last move, so positions recur."""
    rng = random.Random(13)
    seen = {"twofold": 0, "threefold": 0, "positions": 0}
    for fen in ENDINGS:
        for _ in range(6):
            game, board = Chess(fen), chess.Board(fen)
            state = game.initial_state()
            for _ in range(60):
                if board.is_game_over(claim_draw=False):
                    break
                mv = rng.choice(list(board.legal_moves))
                if len(board.move_stack) >= 2 and rng.random() < 0.6:
                    back = board.move_stack[-2]      # often undo our last move: repetitions
                    back = chess.Move(back.to_square, back.from_square)
                    if board.is_legal(back):
                        mv = back
                state = game.play(state, mv.uci())
                board.push(mv)
                two, three = board.is_repetition(2), board.is_repetition(3)
                rooted = state.rooted()
                assert state.is_repetition_draw() == two, board.fen()
                assert rooted.is_repetition_draw() == three, board.fen()
                assert ChessState.from_board(board).is_repetition_draw() == three
                row = cg.encode_state(state, True)
                assert int(row[cg.REP_KEY]) == state.rep_key()
                assert bool(cg.repetition_draw(row)) == two
                assert bool(cg.repetition_draw(cg.encode_state(rooted, True))) == three
                seen["positions"] += 1
                seen["twofold"] += two
                seen["threefold"] += three
    # the comparisons above would be vacuous if no game repeated a position
    assert seen["positions"] > 1000 and seen["twofold"] > 50 and seen["threefold"] > 10, seen


def test_history_from_moves_and_the_root():
    game = Chess("startpos moves " + " ".join(SHUFFLE))      # the start position, twice
    root = game.initial_state()
    assert root.fen.split()[0] == chess.STARTING_FEN.split()[0]
    assert len(root.history) == 4 and root.n_before == 4
    assert not game.is_terminal(root)                       # twofold before the root: play on
    s = root
    for uci in SHUFFLE:
        s = game.play(s, uci)
    assert game.is_terminal(s) and game.utility(s) == 0.0   # recurs after the root (and 3x)
    three = Chess("startpos moves " + " ".join(SHUFFLE * 2))
    assert three.is_terminal(three.initial_state())         # threefold: a draw at the root
    # a search from a played state makes it the root (FromState applies search_root)
    view = FromState(game, game.play(game.play(root, "g1f3"), "g8f6"))
    assert view.initial_state().n_before == len(view.initial_state().history) == 6
    # a pawn move or capture empties the history; a null move too
    assert game.play(root, "e2e4").history == ()
    assert game.null_move(game.play(root, "g1f3")).history == ()
    # pickling keeps the history
    back = pickle.loads(pickle.dumps(s))
    assert back.history == s.history and back.n_before == s.n_before and game.is_terminal(back)


@pytest.mark.parametrize("ordering", ["id+tt", "id+tt+killer+history+captures"])
def test_perpetual_check_is_a_draw_in_both_engines(ordering):
    """White, three rooks against a queen, has only the perpetual check. Both engines score
    it 0 (the position recurs 4 plies down) node for node, with the transposition table and
    quiescence on; without repetitions the same search reports Black winning by a rook."""
    q = Pruning(quiescence=Quiescence())
    game = Chess(PERPETUAL)
    for depth in (4, 5):
        r = search(game, "alphabeta", ordering, depth=depth, engine="reference", pruning=q)
        c = search(game, "alphabeta", ordering, depth=depth, engine="compiled", pruning=q)
        assert (r.value, r.best_move) == (0.0, "h5e8")
        assert (c.value, c.best_move, c.nodes, c.q_nodes, c.leaves, c.cutoffs, c.per_ply,
                c.tt_hits, c.tt_cutoffs) == (r.value, r.best_move, r.nodes, r.q_nodes, r.leaves,
                                             r.cutoffs, r.per_ply, r.tt_hits, r.tt_cutoffs)
    blind = search(NoRepetitions(PERPETUAL), "alphabeta", ordering, depth=4, engine="reference",
                   pruning=q)
    assert blind.value <= -500


@pytest.mark.parametrize("text, what", [
    ("startpos moves e2e5", "move 1 'e2e5'"),
    ("startpos moves e2e4 e2e4", "move 2 'e2e4'"),
    ("startpos moves e2e4 zz", "move 2 'zz'"),
    ("startpos moves 0000", "move 1 '0000'"),
    ("startpos moves", "no move after 'moves'"),
])
def test_bad_moves_name_the_position_and_the_move(text, what):
    with pytest.raises(InvalidParameterError, match="moves field") as e:
        Chess(text)
    assert what in str(e.value) and repr(text) in str(e.value)
