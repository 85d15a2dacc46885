"""Chess through python-chess: protocol, perft sanity, terminal values, evaluation, orderings,
EPD suites (WAC, Bratko-Kopec)."""

from __future__ import annotations

import csv
import pickle
import re
from pathlib import Path

import chess
import chess.polyglot
import pytest

from searchlab import search
from searchlab.games.chess_game import (MATE_VALUE, Chess, ChessState, capture_moves,
                                        captures_first, evaluate_white, parse_position, perft)
from searchlab.games.epd import EpdPosition, load_epd, parse_epd_line
from searchlab.games.protocol import Game

DATA = Path(__file__).resolve().parents[1] / "data" / "chess"
#: The EPD suites are package data (the studies read them): searchlab/data/chess/.
SUITES = Path(__file__).resolve().parents[2] / "searchlab" / "data" / "chess"
PERFT = list(csv.DictReader(open(DATA / "perft.csv")))
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"


def play_all(game, state, moves):
    for m in moves.split():
        state = game.play(state, m)
    return state


# --- protocol and moves ---------------------------------------------------------------------
def test_protocol_and_natural_order():
    g = Chess()
    assert isinstance(g, Game) and g.name == "chess"
    s = g.initial_state()
    assert isinstance(s, ChessState) and s.fen == chess.STARTING_FEN and g.max_to_move(s)
    moves = g.legal_moves(s)
    assert moves == [m.uci() for m in chess.Board().legal_moves]       # python-chess order
    assert len(moves) == 20 and moves[:3] == ["g1h3", "g1f3", "b1c3"]
    assert not g.is_terminal(s)


def test_play_copies_and_validates():
    g = Chess()
    s = g.initial_state()
    t = g.play(s, "e2e4")
    assert s.fen == chess.STARTING_FEN
    assert t.fen == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert not g.max_to_move(t)
    assert g.play(s, chess.Move.from_uci("e2e4")) == t
    with pytest.raises(ValueError, match="not legal"):
        g.play(s, "e2e5")
    with pytest.raises(ValueError):
        g.play(s, 12)
    with pytest.raises(AttributeError):
        t._board = None
    b = t.board()
    b.push_uci("e7e5")
    assert t.fen.endswith("b KQkq - 0 1")                           # the copy was mutated
    assert pickle.loads(pickle.dumps(t)) == t


def test_from_text():
    assert Chess.from_text("startpos").initial_state() == Chess().initial_state()
    k = Chess.from_text(KIWIPETE)
    assert k.initial_state().fen == KIWIPETE + " 0 1"
    epd = Chess('2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";')
    assert epd.initial_state().fen == "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1"
    black = Chess("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    assert black.max_to_move(black.initial_state())                 # MAX = Black here
    with pytest.raises(ValueError, match="not a FEN or EPD"):
        Chess.from_text("not a position")
    with pytest.raises(ValueError, match="invalid chess position"):
        Chess.from_text("8/8/8/8/8/8/8/8 w - - 0 1")                 # no kings
    with pytest.raises(ValueError):
        parse_position(42)


# --- perft: sanity that the data is read right and the protocol is complete ------------------
def test_perft_start_and_kiwipete():
    rows = {(r["position"], int(r["depth"])): r for r in PERFT}
    g = Chess()
    for d in (1, 2, 3):
        assert perft(g, g.initial_state(), d) == int(rows["startpos", d]["nodes"]) \
            == (20, 400, 8902)[d - 1]
    k = Chess(rows["kiwipete", 1]["fen"])
    for d in (1, 2):
        assert perft(k, k.initial_state(), d) == int(rows["kiwipete", d]["nodes"]) \
            == (48, 2039)[d - 1]
    p3 = Chess(rows["cpw_position3", 1]["fen"])
    for d in (1, 2, 3):
        assert perft(p3, p3.initial_state(), d) == int(rows["cpw_position3", d]["nodes"])


def test_perftsuite_shallow():
    lines = [ln for ln in open(DATA / "perftsuite.epd") if ln.strip()]
    assert len(lines) == 128
    checked = 0
    for line in lines:
        fen, _, rest = line.partition(";")
        counts = {int(d): int(n) for d, n in re.findall(r"D(\d+)\s+(\d+)", rest)}
        g = Chess(fen.strip())
        assert perft(g, g.initial_state(), 1) == counts[1], fen
        if counts[2] <= 400:
            assert perft(g, g.initial_state(), 2) == counts[2], fen
            checked += 1
    assert checked > 30


# --- terminal positions and utility ----------------------------------------------------------
def test_checkmate_utility_is_from_max_view():
    g = Chess()
    mate = play_all(g, g.initial_state(), "f2f3 e7e5 g2g4 d8h4")      # fool's mate
    assert g.is_terminal(mate) and g.legal_moves(mate) == []
    assert g.utility(mate) == -MATE_VALUE                           # MAX = White, mated
    rooted_black = Chess("rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1")
    assert rooted_black.utility(mate) == MATE_VALUE
    with pytest.raises(ValueError):
        g.utility(g.initial_state())


@pytest.mark.parametrize("fen, moves_left", [
    ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", False),                      # stalemate
    ("8/8/8/8/8/8/8/K6k w - - 0 1", True),                          # insufficient material
    ("8/8/8/4k3/8/8/3R4/4K3 w - - 150 120", True),                  # 75-move rule
])
def test_draws(fen, moves_left):
    g = Chess(fen)
    s = g.initial_state()
    assert g.is_terminal(s) and g.utility(s) == 0.0
    assert bool(g.legal_moves(s)) == moves_left


# --- evaluation and hashing -----------------------------------------------------------------
def test_evaluate():
    g = Chess()
    s = g.initial_state()
    assert g.evaluate(s) == 0.0
    t = g.play(s, "e2e4")
    assert g.evaluate(t) == 40.0                    # pawn table: e2 -20 -> e4 +20
    assert Chess(t.fen).evaluate(t) == -40.0        # rooted at Black to move: MAX = Black
    no_queen = Chess("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1")
    assert no_queen.evaluate(no_queen.initial_state()) == -(900 - 5)   # Qd1 stood on -5
    for fen in (KIWIPETE, "r1bq1rk1/pp2ppbp/2np2p1/2n5/P3PP2/N1P2N2/1PB3PP/R1B1QRK1 b - -"):
        b = chess.Board(fen)
        assert evaluate_white(b.mirror()) == -evaluate_white(b)
        assert abs(evaluate_white(b)) < MATE_VALUE / 10


def test_endgame_king_table():
    # K+Q vs K: end game, the king is drawn to the centre
    centre = chess.Board("8/8/8/3k4/8/8/8/3QK3 w - - 0 1")
    assert evaluate_white(centre) == 900 - 5 - 30 - 40               # Qd1 -5, Ke1 -30, kd5 +40
    middle = chess.Board("r3k3/8/8/8/8/8/8/R2QK3 w - - 0 1")           # White has Q and R
    assert evaluate_white(middle) == (500 + 0) + (900 - 5) + 0 - (500 + 0) - 0


def test_hash_key_is_polyglot():
    g = Chess()
    s = g.initial_state()
    assert g.hash_key(s) == 0x463B96181691FC9C                      # the Polyglot start key
    t = play_all(g, s, "g1f3 g8f6 f3g1 f6g8")
    assert g.hash_key(t) == g.hash_key(s) and t != s               # clocks differ, key equal
    assert g.hash_key(g.play(s, "e2e4")) == chess.polyglot.zobrist_hash(g.play(s, "e2e4").board())


# --- orderings ------------------------------------------------------------------------------
def test_captures_ordering_mvv_lva():
    g = Chess(KIWIPETE)
    s = g.initial_state()
    policy = g.move_orderings()["captures"]
    assert policy is captures_first
    moves = g.legal_moves(s)
    ordered = policy(s, moves)
    assert sorted(ordered) == sorted(moves)
    caps = ["e2a6", "f3f6", "d5e6", "g2h3", "e5f7", "e5d7", "e5g6", "f3h3"]
    assert ordered[:8] == caps
    assert capture_moves(s) == caps
    assert ordered[8:] == [m for m in moves if m not in caps]       # quiet moves, natural order


def test_promotions_and_en_passant():
    g = Chess("1n5k/P7/8/8/8/8/8/7K w - - 0 1")
    s = g.initial_state()
    ordered = captures_first(s, g.legal_moves(s))
    assert ordered[:8] == ["a7b8q", "a7b8r", "a7b8b", "a7b8n", "a7a8q", "a7a8r", "a7a8b", "a7a8n"]
    assert capture_moves(s) == ["a7b8q", "a7b8r", "a7b8b", "a7b8n"]
    ep = Chess("4k2q/8/8/3pP3/8/8/8/4K3 w - d6 0 2")
    assert capture_moves(ep.initial_state()) == ["e5d6"]            # en passant takes a pawn
    assert g.capture_moves(s) == capture_moves(s)


# --- EPD suites -----------------------------------------------------------------------------
@pytest.mark.parametrize("name, count, prefix", [("wac.epd", 300, "WAC."), ("bk.epd", 24, "BK.")])
def test_epd_suites_load(name, count, prefix):
    positions = load_epd(SUITES / name)
    raw = [ln for ln in open(SUITES / name) if ln.strip()]
    assert len(positions) == len(raw) == count
    width = 3 if prefix == "WAC." else 2
    assert [p.id for p in positions] == [f"{prefix}{i:0{width}d}" for i in range(1, count + 1)]
    for pos, line in zip(positions, raw):
        assert isinstance(pos, EpdPosition) and pos.bm
        board = chess.Board(pos.fen)
        assert board.is_valid()
        legal = {m.uci() for m in board.legal_moves}
        assert set(pos.bm_uci) <= legal and len(pos.bm) == len(pos.bm_uci)
        # every SAN token as written in the file parses to the same legal move
        tokens = re.search(r"\bbm ([^;]+);", line).group(1).split()
        assert [board.parse_san(t).uci() for t in tokens] == pos.bm_uci
        assert [board.parse_san(t).uci() for t in pos.bm] == pos.bm_uci
        assert pos.is_solution(pos.bm_uci[0])
        Chess(pos.fen)                                              # roots a game


def test_epd_avoid_move_and_errors(tmp_path):
    wac = {p.id: p for p in load_epd(SUITES / "wac.epd")}
    p = wac["WAC.274"]
    assert p.bm == ["Rb6", "Rg5+"] and p.am == ["Rd6"]
    assert p.is_solution("g6b6") and not p.is_solution("g6d6")
    assert wac["WAC.022"].bm == ["Ba2", "Nxf7"]
    bad = tmp_path / "bad.epd"
    bad.write_text("# comment\n\n" + p.epd + "\n8/8/8/8/8/8/8/K6k w - - bm Qh1; id \"x\";\n")
    with pytest.raises(ValueError, match=r"bad\.epd:4"):
        load_epd(bad)
    noid = parse_epd_line("8/8/8/8/8/8/8/K6k w - - bm Kb1;", default_id="f:1")
    assert noid.id == "f:1" and noid.bm == ["Kb1"]


def test_search_finds_wac_001():
    pos = load_epd(SUITES / "wac.epd")[0]
    g = Chess(pos.fen, name=pos.id)
    r = search(g, "alphabeta", "captures", depth=3, engine="reference")
    assert r.value == MATE_VALUE and pos.is_solution(r.best_move)


def test_quiescence_and_null_move_hooks():
    from searchlab import search
    from searchlab.algorithms.pruning import NullMove, Pruning, Quiescence
    g = Chess("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    s = g.initial_state()
    assert g.null_move_allowed(s) and not g.max_to_move(g.null_move(s))
    assert set(g.noisy_moves(s)) == {m for m in g.legal_moves(s) if g.is_noisy(s, m)}
    plain = search(g, "alphabeta", "captures", depth=2, engine="reference")
    q = search(g, "alphabeta", "captures", depth=2, engine="reference",
               pruning=Pruning(quiescence=Quiescence(max_depth=6)))
    # quiescence nodes lie beyond the horizon and are counted apart from the main tree's
    assert q.q_nodes > 0 and plain.q_nodes == 0 and len(q.per_ply) == 3 == len(plain.per_ply)
    assert sum(q.per_ply) == q.nodes
    nm = search(g, "alphabeta", "captures", depth=3, engine="reference",
                pruning=Pruning(null_move=NullMove(1)))
    assert nm.value is not None
    pawns_only = Chess("8/4k3/4p3/8/8/4P3/4K3/8 w - - 0 1")
    assert not pawns_only.null_move_allowed(pawns_only.initial_state())
