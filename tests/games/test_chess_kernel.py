"""The compiled chess kernel (searchlab.games.chesskernel) against python-chess: attack tables,
perft on the standard suites, move lists in python-chess's order, Polyglot keys, board state,
check, half-move clock and repetitions along seeded random games, and bad input.

Default run: perft entries of at most PERFT_FAST leaves and a few hundred random-game
positions; ``-m slow`` runs every perft entry up to 10^8 leaves and thousands of positions.
"""

from __future__ import annotations

import random

import chess
import chess.polyglot
import numpy as np
import pytest
from numba import njit

from searchlab.errors import InvalidParameterError, SearchlabError
from searchlab.games.chess_game import Chess
from searchlab.games.chesskernel import CompiledBoard, perft
from searchlab.games.chesskernel.attacks import bishop_attacks, rook_attacks
from searchlab.games.chesskernel.cached import kernel
from searchlab.games.chesskernel.movegen import MAX_MOVES
from searchlab.games.chesskernel.position_row import ROW, row_from_board
from searchlab.games.chesskernel.tables import BISHOP_RAYS, ROOK_RAYS
from tests.games.chess_kernel_cases import perft_cases, perft_fens, random_game, suite_fens
from tests.nojit import run_without_jit

# the kernel's functions as the wrapper calls them: compiled code loaded from the disk cache
_K = kernel()
count_moves, generate, has_legal_move, make_move = (_K.count_moves, _K.generate, _K.has_legal_move,
                                                    _K.make_move)
PERFT_FAST = 3_000_000
PERFT_SLOW = 100_000_000
CASES = perft_cases()
FAST = [c for c in CASES if c[3] <= PERFT_FAST]
SLOW = [c for c in CASES if PERFT_FAST < c[3] <= PERFT_SLOW]


def test_data_is_complete():
    # 813 entries: 770 from perftsuite.epd (128 lines, 127 distinct positions: one repeats),
    # 43 from perft.csv (start, Kiwipete and position 3, also in the suite; CPW positions 4, 4
    # mirrored, 5 and 6, not in it).
    assert len(CASES) == 813 and len(suite_fens()) == 127 and len(perft_fens()) == 131
    assert len(FAST) == 729 and len(FAST) + len(SLOW) == 783


def test_slider_attacks_equal_python_chess():
    rng = random.Random(13)
    for _ in range(4000):
        occ = rng.getrandbits(64) & rng.getrandbits(64)
        sq = rng.randrange(64)
        rook = (chess.BB_RANK_ATTACKS[sq][occ & chess.BB_RANK_MASKS[sq]]
                | chess.BB_FILE_ATTACKS[sq][occ & chess.BB_FILE_MASKS[sq]])
        bishop = chess.BB_DIAG_ATTACKS[sq][occ & chess.BB_DIAG_MASKS[sq]]
        assert int(rook_attacks(sq, np.uint64(occ))) == rook
        assert int(bishop_attacks(sq, np.uint64(occ))) == bishop
    for sq in range(64):        # the rays count.py filters with: attacks on an empty board
        assert int(ROOK_RAYS[sq]) == chess.BB_RANK_ATTACKS[sq][0] | chess.BB_FILE_ATTACKS[sq][0]
        assert int(BISHOP_RAYS[sq]) == chess.BB_DIAG_ATTACKS[sq][0]


def _run_perft(case):
    name, fen, depth, nodes = case
    assert perft(fen, depth) == nodes, f"{name} {fen} depth {depth}"


def test_perft_fast_entries():
    """Every entry of at most PERFT_FAST leaves (729 of 813)."""
    for case in FAST:
        _run_perft(case)


@pytest.mark.slow
@pytest.mark.parametrize("case", SLOW, ids=[f"{c[0]}-d{c[2]}" for c in SLOW])
def test_perft_slow_entries(case):
    _run_perft(case)


def test_divide_sums_to_perft_and_follows_python_chess_order():
    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    board = CompiledBoard(kiwipete)
    div = board.divide(3)
    assert list(div) == [m.uci() for m in chess.Board(kiwipete).legal_moves]
    assert sum(div.values()) == 97862 == board.perft(3)


@njit
def _walk_has_legal_move(stack, ply, depth, moves, counts):
    """Every node of the tree below row ply: counts[0] nodes, counts[1] nodes without a legal
    move, counts[2] disagreements of has_legal_move with generate, counts[3] disagreements of
    count_moves (perft's bulk count) with generate's number of moves."""
    n = generate(stack[ply], moves[ply])
    counts[0] += 1
    counts[1] += n == 0
    counts[2] += has_legal_move(stack[ply]) != (n > 0)
    counts[3] += count_moves(stack[ply]) != n
    if depth > 0:
        for i in range(n):
            make_move(stack[ply], stack[ply + 1], moves[ply, i])
            _walk_has_legal_move(stack, ply + 1, depth - 1, moves, counts)


def _has_legal_move_on_trees(depth: int) -> np.ndarray:
    counts = np.zeros(4, dtype=np.int64)
    for fen in perft_fens():
        stack = np.zeros((depth + 1, ROW), dtype=np.uint64)
        stack[0] = row_from_board(chess.Board(fen))
        _walk_has_legal_move(stack, 0, depth, np.zeros((depth + 1, MAX_MOVES), np.int64), counts)
    return counts


def test_has_legal_move_and_count_agree_with_generation_on_the_perft_trees():
    """has_legal_move (bitboards only, used by the compiled game's terminal test) and
    count_moves (perft's count at the last ply) against the move generator at every node of the
    perft positions' trees to depth 3 (690 k nodes, 435 without a move)."""
    nodes, without, wrong, miscounted = _has_legal_move_on_trees(3)
    assert wrong == 0 and miscounted == 0 and nodes > 400_000 and without > 100


@pytest.mark.slow
def test_has_legal_move_and_count_agree_with_generation_deeper():
    nodes, without, wrong, miscounted = _has_legal_move_on_trees(4)
    assert wrong == 0 and miscounted == 0 and nodes > 10_000_000 and without > 1000


def _compare(kb: CompiledBoard, board: chess.Board, stats: dict) -> None:
    fen = board.fen()
    assert kb.legal_moves() == [m.uci() for m in board.legal_moves], fen
    key = chess.polyglot.zobrist_hash(board)
    assert kb.key() == key == kb.recomputed_key(), fen
    mine = kb.to_board()
    assert mine.board_fen() == board.board_fen(), fen
    assert (mine.turn, mine.clean_castling_rights(), mine.ep_square) == (
        board.turn, board.clean_castling_rights(), board.ep_square), fen
    assert (mine.halfmove_clock, mine.fullmove_number) == (board.halfmove_clock,
                                                          board.fullmove_number), fen
    assert kb.is_check() == board.is_check(), fen
    assert bool(has_legal_move(kb.row)) == any(board.legal_moves), fen
    assert count_moves(kb.row) == board.legal_moves.count(), fen
    # The row after the moves equals the row loaded from the FEN: no path-dependent word.
    assert np.array_equal(kb.row, row_from_board(board)), fen
    assert kb.halfmove_clock() == board.halfmove_clock
    reps = kb.repetitions()
    assert (reps >= 1) == board.is_repetition(2), fen
    assert (reps >= 2) == board.is_repetition(3), fen
    stats["positions"] += 1
    stats["repeated"] += reps >= 1
    stats["threefold"] += reps >= 2
    stats["check"] += board.is_check()
    stats["no_move"] += not any(board.legal_moves)
    stats["fifty"] += board.halfmove_clock >= 100
    for m in board.legal_moves:
        stats["ep"] += board.is_en_passant(m)
        stats["castle"] += board.is_castling(m)
        stats["promotion"] += m.promotion is not None


def _play_games(starts: list[str], games_per_start: int, plies: int, seed: int) -> dict:
    stats = dict.fromkeys(("positions", "repeated", "threefold", "check", "no_move", "fifty",
                           "ep", "castle", "promotion"), 0)
    for i, fen in enumerate(starts):
        for g in range(games_per_start):
            line = random_game(fen, seed * 1_000_003 + i * 101 + g, plies)
            board = chess.Board(fen)
            kb = CompiledBoard(fen, max_plies=plies)
            _compare(kb, board, stats)
            for uci in line:
                board.push_uci(uci)
                kb.push(uci)
                _compare(kb, board, stats)
    return stats


# Sparse endings where random play repeats positions and runs the half-move clock up.
ENDINGS = ["8/8/4k3/8/8/3K4/8/R6N w - - 0 1", "6k1/8/8/8/8/8/2Q5/1K6 b - - 90 1",
           "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "8/2n5/8/4k3/8/8/3NK3/8 w - - 0 1"]


def test_random_games_match_python_chess():
    """~600 positions: from the start, from 20 perft-suite positions, and sparse endings."""
    starts = [chess.STARTING_FEN] + suite_fens()[::7][:20] + ENDINGS
    stats = _play_games(starts, games_per_start=1, plies=40, seed=1)
    assert stats["positions"] > 500
    # The checks above would be vacuous if the games never met the rules they test.
    for what in ("repeated", "threefold", "check", "ep", "castle", "promotion"):
        assert stats[what] > 0, (what, stats)


@pytest.mark.slow
def test_many_random_games_match_python_chess():
    """Thousands of positions: several games from every perft-suite position."""
    starts = [chess.STARTING_FEN] + suite_fens() + ENDINGS
    stats = _play_games(starts, games_per_start=3, plies=120, seed=2)
    assert stats["positions"] > 20_000
    for what in ("repeated", "threefold", "check", "no_move", "fifty", "ep", "castle",
                 "promotion"):
        assert stats[what] > 0, (what, stats)


@pytest.mark.parametrize("fen, illegal", [
    # Horizontal pin: capturing en passant removes both pawns from the king's rank.
    ("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1", "e4d3"),
    ("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", "e5d6"),
    # Diagonal pin of the capturing pawn.
    ("k7/8/8/8/3Pp3/8/8/4K2B b - d3 0 1", "e4d3"),
])
def test_en_passant_pins(fen, illegal):
    kb = CompiledBoard(fen)
    assert kb.legal_moves() == [m.uci() for m in chess.Board(fen).legal_moves]
    assert illegal not in kb.legal_moves()
    assert chess.Move.from_uci(illegal) in chess.Board(fen).pseudo_legal_moves


def test_en_passant_evades_a_pawn_check():
    fen = "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1"         # d4 gives check; exd3 removes it
    kb = CompiledBoard(fen)
    assert kb.is_check() and "e4d3" in kb.legal_moves()
    assert kb.legal_moves() == [m.uci() for m in chess.Board(fen).legal_moves]


@pytest.mark.parametrize("black_rook, castles", [
    ("h7", {"e1g1", "e1c1"}),
    ("e2", set()),                 # the king is in check
    ("f2", {"e1c1"}),              # f1, crossed on the king side, is attacked
    ("g2", {"e1c1"}),              # g1, the king's target, is attacked
    ("d2", {"e1g1"}),              # d1 crossed on the queen side
    ("c2", {"e1g1"}),              # c1, the king's target
    ("b2", {"e1g1", "e1c1"}),      # b1 must be empty, not safe
])
def test_castling_through_check(black_rook, castles):
    board = chess.Board("r3k3/7p/8/8/8/8/8/R3K2R w KQq - 0 1")
    board.set_piece_at(chess.parse_square(black_rook), chess.Piece(chess.ROOK, chess.BLACK))
    moves = CompiledBoard(board.fen()).legal_moves()
    assert {"e1g1", "e1c1"} & set(moves) == castles
    assert moves == [m.uci() for m in board.legal_moves]


def test_castling_rights_lost_by_moves_and_captures():
    board = CompiledBoard("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    board.push("h1h8")                                   # rook takes rook: both h-rights gone
    assert board.to_board().clean_castling_rights() == chess.BB_A1 | chess.BB_A8
    board.push("e8d7")                                   # the king moves: Black's last right gone
    assert board.to_board().clean_castling_rights() == chess.BB_A1
    assert board.key() == chess.polyglot.zobrist_hash(board.to_board())


def test_promotions_to_every_piece():
    kb = CompiledBoard("1n5k/P7/8/8/8/8/8/K7 w - - 0 1")
    assert kb.legal_moves()[-8:] == ["a7b8q", "a7b8r", "a7b8b", "a7b8n",
                                     "a7a8q", "a7a8r", "a7a8b", "a7a8n"]


def test_repetition_by_knight_shuffle():
    kb = CompiledBoard()
    board = chess.Board()
    counts = []
    for _ in range(2):
        for uci in ("g1f3", "g8f6", "f3g1", "f6g8"):
            kb.push(uci)
            board.push_uci(uci)
            counts.append(kb.repetitions())
    assert counts == [0, 0, 0, 1, 1, 1, 1, 2]
    assert board.is_repetition(3) and kb.repetitions() == 2
    kb.pop()
    assert kb.repetitions() == 1


@pytest.mark.parametrize("fen, field", [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "turn part of fen"),
    ("4k3/8/8/8/8/8/8/4K2R b K - 0 1", None),                        # legal: no error
    ("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "side to move"),             # Black, not to move, in check
    ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling"),
    ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "piece placement"),
    ("4k3/8/8/8/8/8/8/8 w - - 0 1", "piece placement"),
    ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "en passant"),
])
@pytest.mark.parametrize("make", [CompiledBoard, Chess])
def test_bad_positions_name_the_field(fen, field, make):
    """The compiled board and the Python game refuse the same positions, naming the field."""
    if field is None:        # a legal position: both read it as python-chess does
        board = chess.Board(fen)
        got = make(fen)
        if make is Chess:
            assert got.initial_state().fen == board.fen()
            assert sorted(got.legal_moves(got.initial_state())) == sorted(m.uci() for m in board.legal_moves)
        else:
            assert got.to_board().fen() == board.fen()
        return
    with pytest.raises(InvalidParameterError, match=field) as e:
        make(fen)
    assert fen.split()[0] in str(e.value) and isinstance(e.value, SearchlabError)


def test_bad_moves_and_depths():
    kb = CompiledBoard()
    for move in ("e2e5", "e7e5", "zz", "e1g1"):
        with pytest.raises(InvalidParameterError, match="not a legal UCI move"):
            kb.push(move)
    for depth in (-1, 13, 2.0, True):
        with pytest.raises(InvalidParameterError, match="depth"):
            kb.perft(depth)
    with pytest.raises(InvalidParameterError, match="no move to take back"):
        kb.pop()


def test_pure_python_kernel_matches(tmp_path):
    """The very same code with NUMBA_DISABLE_JIT=1 (a subprocess): perft, a random game, and
    the compiled game's primitives against the Python game, a repetition draw in a row."""
    script = (
        "import chess, chess.polyglot\n"
        "from searchlab.games.chesskernel import CompiledBoard, perft\n"
        "from tests.games.chess_kernel_cases import random_game\n"
        "assert perft('startpos', 3) == 8902\n"
        "assert perft('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -', 2) == 2039\n"
        "fen = '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1'\n"
        "kb, board = CompiledBoard(fen), chess.Board(fen)\n"
        "for uci in random_game(fen, 5, 30):\n"
        "    assert kb.legal_moves() == [m.uci() for m in board.legal_moves]\n"
        "    assert kb.key() == chess.polyglot.zobrist_hash(board)\n"
        "    kb.push(uci); board.push_uci(uci)\n"
        "import numpy as np\n"
        "from tests.games.test_chess_kernel_game import _run\n"
        "with np.errstate(over='ignore'):        # the engine, not a wrapper, calls these\n"
        "    assert _run([fen], plies=8, seed=1)['states'] >= 5\n"
        "from searchlab.games.chess_game import Chess\n"
        "from searchlab.games.chesskernel import game as cg\n"
        "g = Chess('startpos moves g1f3 g8f6 f3g1 f6g8')\n"
        "row, out = cg.encode_state(g.initial_state(), True), np.zeros(cg.STATE_SIZE, np.uint64)\n"
        "with np.errstate(over='ignore'):\n"
        "    assert not cg.is_terminal(row)\n"
        "    for uci in ('g1f3', 'g8f6', 'f3g1', 'f6g8'):\n"
        "        cg.play(row, cg.id_of(uci), out); row = out.copy()\n"
        "    assert cg.repetition_draw(row) and cg.is_terminal(row) and cg.utility(row) == 0.0\n"
        "print('ok')\n")
    assert run_without_jit(script, timeout=300, flags=("-W", "error::RuntimeWarning")).strip() == "ok"
