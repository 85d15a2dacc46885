"""Delta pruning in quiescence (searchlab.algorithms.pruning.Quiescence.delta): the compiled
engine node for node against the reference on chess (value bit for bit, best move, every
counter, per-ply counts, the "delta" counter), a hand-checked position where it fires and
where it must not, delta off identical to quiescence without it, only quiescence nodes pruned,
the capture-gain primitive equal to the Python method, and bad input."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import chess
import numpy as np
import pytest

from searchlab import InvalidParameterError, UnsupportedError, search
from searchlab.algorithms import compiled_engine
from searchlab.contracts.compiled_stubs import no_capture_gain
from searchlab.algorithms.pruning import (Futility, LateMoveReductions, NullMove, Pruning,
                                          Quiescence)
from searchlab.experiment import api, grid
from searchlab.experiment.schema import ConfigError
from searchlab.games.chess_game import Chess
from searchlab.games.chesskernel import game as cg
from searchlab.games.protocol import Capabilities
from tests.algorithms.compiled_cases import both
from tests.games.chess_kernel_cases import random_game, suite_fens
from tests.nojit import run_without_jit

ROOT = Path(__file__).resolve().parents[2]
SUITES = ROOT / "searchlab" / "data" / "chess"
WAC = [line.strip() for line in open(SUITES / "wac.epd") if line.strip()]
BK = [line.strip() for line in open(SUITES / "bk.epd") if line.strip()]
#: seeded random-play positions from the start, with their move history (repetitions count)
RANDOM = ["startpos moves " + " ".join(random_game(chess.STARTING_FEN, seed, 10 + 6 * seed))
          for seed in range(8)]
POSITIONS = WAC[::50] + BK[::12] + RANDOM[::2]
DELTA = Pruning(quiescence=Quiescence(8, 200.0))
PLAIN = Pruning(quiescence=Quiescence(8))
POLICIES = ("natural", "captures", "id+tt+killer+history+captures")

#: 1.Bb2 axb2: White's stand-pat is -595 and its one capture, Kxb2, wins a pawn; the root's
#: alpha is -235 (1.Kd3, searched first), so -595 + 100 + 200 = -295 <= -235: Kxb2 is skipped.
HAND = "2k5/8/8/8/r7/p1K5/8/B7 w - - 0 1"


def _check(fen: str, ordering: str, depth: int, pruning: Pruning = DELTA, **kw) -> dict:
    ref, com = both(Chess(fen), "alphabeta", ordering, depth=depth, pruning=pruning, **kw)
    assert com == ref, (fen, ordering, depth, pruning)
    return ref


def _fired(r: dict) -> int:
    return r["extra"]["pruned"].get("delta", 0)


@pytest.mark.parametrize("ordering, depths, positions", [
    ("natural", (1, 2), POSITIONS[::2]),
    ("captures", (1, 2, 3), POSITIONS),
    ("id+tt+killer+history+captures", (1, 2, 3), POSITIONS),
    ("captures", (1,), WAC[5::10] + BK + RANDOM),
])
def test_compiled_engine_node_for_node(ordering, depths, positions):
    fired = saved = 0
    for fen in positions:
        for d in depths:
            on = _check(fen, ordering, d)
            off = search(Chess(fen), "alphabeta", ordering, depth=d, engine="compiled",
                         pruning=PLAIN)         # (equal to the reference: test_chess_compiled)
            fired += _fired(on)
            saved += off.q_nodes - on["q_nodes"]
    assert fired > 0 and saved > 0         # it fires, and it saves quiescence nodes overall


def test_with_null_move_lmr_futility_and_a_node_budget():
    """Delta pruning beside the other techniques (razoring runs quiescence at interior nodes),
    and a budget that runs out inside quiescence, identically."""
    allp = Pruning(null_move=NullMove(), lmr=LateMoveReductions(after=2, min_depth=2),
                   futility=Futility(150.0, razor_margin=300.0), quiescence=Quiescence(8, 200.0))
    fired = 0
    for fen in POSITIONS:
        fired += _fired(_check(fen, "id+tt+killer+history+captures", 3, allp))
    assert fired > 0
    aborted = _check(WAC[1], "captures", 3, max_nodes=300)
    assert aborted["status"] == "aborted"


def test_hand_checked_position_fires_once():
    g = Chess(HAND)
    after = g.play(g.play(g.initial_state(), "a1b2"), "a3b2")
    assert g.evaluate(after) == -595.0 and g.noisy_moves(after) == ["c3b2"]
    assert g.capture_gain(after, "c3b2") == 100.0
    on = _check(HAND, "captures", 1)
    off = _check(HAND, "captures", 1, PLAIN)
    assert _fired(on) == 1 and "delta" not in off["extra"]["pruned"]
    assert (off["q_nodes"], on["q_nodes"]) == (2, 1)           # Kxb2 is not made
    assert on["value"] == off["value"] == -235.0 and on["best_move"] == off["best_move"] == "c3d3"
    # the bound ties alpha at delta = 260 (pruned: -595 + 100 + 260 = -235 <= -235) and
    # exceeds it just above: then the search is the one without delta pruning, count for count
    at = _check(HAND, "captures", 1, Pruning(quiescence=Quiescence(8, 260.0)))
    above = _check(HAND, "captures", 1, Pruning(quiescence=Quiescence(8, 260.5)))
    assert _fired(at) == 1
    assert above == off


def test_hand_checked_position_where_it_must_not_fire():
    """HAND with a knight for the pawn: after 1.Bb2 Nxb2, White's stand-pat is -745 and Kxb2
    wins a knight: -745 + 320 + 200 = -225 > alpha = -450 (1.Kd4, searched first), so the
    capture is made; every count equals the search without delta pruning."""
    fen = "2k5/8/8/8/r1n5/2K5/8/B7 w - - 0 1"
    g = Chess(fen)
    after = g.play(g.play(g.initial_state(), "a1b2"), "c4b2")
    assert g.evaluate(after) == -745.0 and g.capture_gain(after, "c3b2") == 320.0
    for ordering in POLICIES:
        on = _check(fen, ordering, 1)
        assert on == _check(fen, ordering, 1, PLAIN) and on["q_nodes"] == 4
        assert on["value"] == -450.0 and on["best_move"] == "c3d4"


def test_delta_off_is_quiescence_as_before():
    """delta=None never consults capture gains; a finite margin too large to ever prune runs
    the delta test on every quiescence move and changes no count."""
    class NoGains(Chess):
        def capture_gain(self, state, move):
            raise AssertionError("capture_gain called with delta off")

    huge = Pruning(quiescence=Quiescence(8, 1e12))
    for fen in POSITIONS[1:4]:
        for ordering in POLICIES:
            off = _check(fen, ordering, 2, PLAIN)
            assert _check(fen, ordering, 2, huge) == off
        spied = search(NoGains(fen), "alphabeta", ordering, depth=2, engine="reference",
                       pruning=PLAIN)
        assert spied.q_nodes == off["q_nodes"] and spied.nodes == off["nodes"]


def test_only_quiescence_nodes_are_delta_pruned():
    """Every delta test is made at a position at or below the horizon (a quiescence node),
    never in the main search, whose moves are all made."""
    depth = 2
    plies = []

    class Spy(Chess):
        def capture_gain(self, state, move):
            board = state.board()
            plies.append(2 * (board.fullmove_number - root.fullmove_number)
                         + (board.turn != root.turn))
            return super().capture_gain(state, move)

    fired = 0
    for fen in POSITIONS[:6]:
        root = Chess(fen).initial_state().board()
        r = search(Spy(fen), "alphabeta", "captures", depth=depth, engine="reference",
                   pruning=DELTA)
        fired += r.extra["pruned"].get("delta", 0)
    assert fired > 0 and min(plies) >= depth
    # at depth 1 the root's moves are all searched, captures of a pawn included
    on = _check(HAND, "natural", 1)
    assert on["per_ply"][1] == len(Chess(HAND).legal_moves(Chess(HAND).initial_state())) == 5


def test_capture_gain_primitive_equals_the_python_method():
    """On every legal move of many positions (en passant, promotions, capture-promotions)."""
    fens = suite_fens() + WAC[::20] + [
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",   # e5xf6 e.p.
        "r3k2r/1P6/8/8/8/8/6p1/R3K2R w KQkq - 0 1"]                      # b7xa8=Q, b7b8=N
    buf = np.zeros(256, np.int64)
    seen_ep = seen_promo = 0
    for fen in fens:
        g = Chess(fen)
        s = g.initial_state()
        row, board = cg.encode_state(s, True), s.board()
        for m in g.legal_moves(s):
            py = g.capture_gain(s, m)
            assert cg.capture_gain(row, cg.id_of(m)) == py, (fen, m)
            assert (py > 0) == g.is_noisy(s, m), (fen, m)
            mv = chess.Move.from_uci(m)
            seen_ep += board.is_en_passant(mv)
            seen_promo += mv.promotion is not None and board.is_capture(mv)
        n = cg.noisy_moves(row, buf)
        assert n == len(g.noisy_moves(s))
    assert seen_ep and seen_promo
    g = Chess(fens[-1])
    assert g.capture_gain(g.initial_state(), "b7a8q") == 500.0 + 800.0
    assert g.capture_gain(g.initial_state(), "b7b8n") == 220.0


def test_pure_python_engine_matches():
    """The compiled engine with delta pruning under NUMBA_DISABLE_JIT=1 (a subprocess)."""
    script = (
        "from searchlab.algorithms.pruning import Pruning, Quiescence\n"
        "from searchlab.games.chess_game import Chess\n"
        "from tests.algorithms.compiled_cases import both\n"
        f"for fen in {[HAND, WAC[0]]!r}:\n"
        "    ref, com = both(Chess(fen), 'alphabeta', 'id+tt+killer+history+captures',\n"
        "                    depth=2, pruning=Pruning(quiescence=Quiescence(3, 200.0)))\n"
        "    assert com == ref, (ref, com)\n"
        "    assert ref['extra']['pruned'].get('delta', 0) > 0\n"
        "print('ok')\n")
    assert run_without_jit(script).strip() == "ok"


@pytest.mark.parametrize("delta", [-1.0, math.inf, math.nan, True, "200"])
def test_bad_delta_is_refused_naming_it(delta):
    with pytest.raises(InvalidParameterError, match=r"^quiescence.delta must be a finite number >= 0"):
        search(Chess(HAND), "alphabeta", depth=1, pruning=Pruning(quiescence=Quiescence(8, delta)))


def test_a_game_without_capture_gains_is_refused():
    class NoGains(Chess):
        capabilities = dataclasses.replace(Chess.capabilities, capture_gain=False)

    with pytest.raises(UnsupportedError, match="delta pruning needs game.capture_gain"):
        search(NoGains(HAND), "alphabeta", depth=1, pruning=DELTA)
    assert not Capabilities().capture_gain
    # a game with the Python method but no compiled primitive: the compiled engine declines
    compiled = Chess(HAND).compiled_primitives()

    class NoPrimitive(Chess):
        def compiled_primitives(self):
            return dataclasses.replace(compiled, prims=compiled.prims._replace(
                capture_gain=no_capture_gain))

    g = NoPrimitive(HAND)
    assert compiled_engine.supports(g, "alphabeta", "captures", PLAIN, 1)
    assert not compiled_engine.supports(g, "alphabeta", "captures", DELTA, 1)
    with pytest.raises(UnsupportedError):
        search(g, "alphabeta", "captures", depth=1, engine="compiled", pruning=DELTA)
    assert search(g, "alphabeta", "captures", depth=1, pruning=DELTA).engine == "reference"


CHESS = ["game=chess", "game.sample=2", "sweep.d=[1]", "ordering=captures", "runner.n_jobs=1",
         "runner.progress=false", "runner.report=false"]


def test_preset_and_config_errors():
    s = api.validate(api.compose(None, [*CHESS, "pruning=quiescence_8_delta"]))
    assert s.prunings[0][1] == Pruning(quiescence=Quiescence(max_depth=8, delta=200))
    assert "delta" in s.science()["pruning"][0][1]["quiescence"]
    plain = api.validate(api.compose(None, [*CHESS, "pruning=quiescence_8"]))
    # delta off leaves the config hash of studies from before delta pruning unchanged
    assert plain.science()["pruning"][0][1]["quiescence"] == {"max_depth": 8}
    with pytest.raises(ConfigError, match="quiescence.delta must be"):
        grid.plan(api.validate(api.compose(None, [*CHESS, "pruning=quiescence_8_delta",
                                                  "pruning.quiescence.delta=-5"])))
    with pytest.raises(ConfigError, match="quiescence needs game.noisy_moves"):
        grid.plan(api.validate(api.compose(None, ["game=connect4", "game.sample=2",
                                                  "sweep.d=[2]", "pruning=quiescence_8_delta"])))


@pytest.mark.slow
@pytest.mark.parametrize("ordering", POLICIES)
def test_compiled_engine_node_for_node_wide(ordering):
    """The first 50 WAC and every BK position and 8 random-play ones, depths 1-3."""
    fired = 0
    for fen in WAC[:50] + BK + RANDOM:
        for d in (1, 2, 3):
            fired += _fired(_check(fen, ordering, d))
    assert fired > 0
