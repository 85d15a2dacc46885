"""Chess on the compiled engine (searchlab.games.chess_compiled) against the reference engine
on python-chess, node for node (tests.algorithms.compiled_cases.fingerprint: value bit for bit,
best move, every counter, per-ply counts, fired techniques), over algorithms, orderings and
techniques (null move, quiescence, LMR, futility, budgets) on WAC, BK and perft-suite
positions, with MAX White and MAX Black."""

from __future__ import annotations

from pathlib import Path

import pytest

from searchlab.algorithms.pruning import (Futility, LateMoveReductions, NullMove, Pruning,
                                          Quiescence)
from searchlab.games.chess_game import Chess
from tests.algorithms.compiled_cases import both
from tests.games.chess_kernel_cases import suite_fens
from tests.nojit import run_without_jit

ROOT = Path(__file__).resolve().parents[2]
SUITES = ROOT / "searchlab" / "data" / "chess"
WAC = [line.strip() for line in open(SUITES / "wac.epd") if line.strip()]
BK = [line.strip() for line in open(SUITES / "bk.epd") if line.strip()]
#: WAC.001, 051, ..., BK.01, BK.13 and perft-suite positions: both colours to move, checks,
#: en passant, castling, promotions.
POSITIONS = WAC[::50] + BK[::12] + suite_fens()[1:60:12]


def _check(fen: str, algorithm: str, ordering: str, **kw) -> dict:
    ref, com = both(Chess(fen), algorithm, ordering, **kw)
    assert com == ref, (fen, algorithm, ordering, kw)
    return ref


@pytest.mark.parametrize("algorithm, ordering, depth", [
    ("minimax", "natural", 2),
    ("alphabeta", "natural", 3),
    ("alphabeta-failhard", "captures", 3),
    ("pvs", "id+tt+killer+history+captures", 3),
    ("mtdf", "tt+captures", 3),
    ("alphabeta", "history+killer+natural", 3),
    ("alphabeta", "random", 3),
])
def test_searches_node_for_node(algorithm, ordering, depth):
    for k, fen in enumerate(POSITIONS):
        _check(fen, algorithm, ordering, depth=depth, ordering_seed=k)


@pytest.mark.parametrize("pruning, depth", [
    (Pruning(quiescence=Quiescence()), 3),
    (Pruning(null_move=NullMove(), quiescence=Quiescence()), 3),
    (Pruning(null_move=NullMove(reduction=1, adaptive_depth=2, verify=True)), 4),
    (Pruning(lmr=LateMoveReductions(after=2, min_depth=2)), 3),
    (Pruning(futility=Futility(margin=150.0, razor_margin=300.0)), 3),
], ids=["quiescence", "null+q", "null adaptive verified", "lmr", "futility"])
def test_pruned_searches_node_for_node(pruning, depth):
    fired = q_nodes = 0
    for fen in POSITIONS:
        ref = _check(fen, "alphabeta", "id+tt+killer+history+captures", depth=depth,
                     pruning=pruning)
        fired += sum(ref["extra"].get("pruned", {}).values())
        q_nodes += ref["q_nodes"]
    assert fired + q_nodes > 0               # the technique did something


def test_node_budget_aborts_identically():
    ref = _check(WAC[0], "alphabeta", "id+tt+captures", depth=4, max_nodes=1500)
    assert ref["status"] == "aborted"


def test_pure_python_engine_matches():
    """The compiled engine with chess's primitives under NUMBA_DISABLE_JIT=1 (a subprocess)."""
    script = (
        "from searchlab.algorithms.pruning import Pruning, Quiescence\n"
        "from searchlab.games.chess_game import Chess\n"
        "from tests.algorithms.compiled_cases import both\n"
        "fen = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1'\n"
        "ref, com = both(Chess(fen), 'alphabeta', 'id+tt+killer+history+captures', depth=2,\n"
        "                pruning=Pruning(quiescence=Quiescence(max_depth=2)))\n"
        "assert com == ref, (ref, com)\n"
        "print('ok')\n")
    assert run_without_jit(script).strip() == "ok"
