"""Cases shared by the compiled-engine tests and their NUMBA_DISABLE_JIT subprocess: seeded
positions of each game with compiled primitives, and the policy x algorithm x technique grid."""

from __future__ import annotations

import numpy as np

from searchlab import search
from searchlab.algorithms.pruning import Beam, Futility, LateMoveReductions, ProbCut, Pruning
from searchlab.games.connect4 import ConnectFour
from searchlab.games.othello import Othello
from searchlab.games.position import FromState
from searchlab.games.tictactoe import TicTacToe

ALGORITHMS = ("minimax", "alphabeta", "alphabeta-failhard", "pvs", "mtdf")
# (ordering, aspiration): every base order, dynamic components in several priority orders
ORDERINGS = {
    "connect4": ("natural", "random", "static", "centre", "id+tt+killer+history+centre",
                 "killer+history+static", "history+tt+random", "tt+killer", "id", "id+tt+static"),
    "othello": ("natural", "random", "static", "corners", "id+tt+killer+history+corners",
                "killer+history", "tt+history+static", "id+killer+random"),
    "tictactoe": ("natural", "random", "static", "id+tt+killer+history", "history+killer+static",
                  "tt+random"),
}
DEPTHS = {"connect4": 5, "othello": 3, "tictactoe": 9}
TECHNIQUES = {
    "lmr": Pruning(lmr=LateMoveReductions(after=2, min_depth=2)),
    "lmr log": Pruning(lmr=LateMoveReductions(after=1, min_depth=2, schedule="log")),
    "futility+razoring": Pruning(futility=Futility(0.02, razor_margin=0.05, razor_depth=3)),
    "beam 3": Pruning(beam=Beam(3)),
    "beam per ply": Pruning(beam=Beam(widths=(5, 3, 2))),
    "probcut": Pruning(probcut=ProbCut(1, 3, 1.0, 0.0, 0.01, 1.0)),
    "all": Pruning(lmr=LateMoveReductions(after=2, min_depth=2), futility=Futility(0.02),
                   beam=Beam(4), probcut=ProbCut(1, 3, 0.9, 0.001, 0.02, 1.5)),
}


def positions(game: str, n: int, seed: int) -> list:
    """``n`` seeded non-terminal positions of ``game`` (random play from the start)."""
    rng = np.random.default_rng(seed)
    base = {"connect4": ConnectFour, "othello": Othello, "tictactoe": TicTacToe}[game]()
    plies = {"connect4": (0, 14), "othello": (0, 24), "tictactoe": (3, 6)}[game]
    out = []
    while len(out) < n:
        s = base.initial_state()
        for _ in range(int(rng.integers(*plies))):
            moves = list(base.legal_moves(s))
            if not moves:
                break
            s = base.play(s, moves[int(rng.integers(len(moves)))])
        if base.legal_moves(s):
            out.append(FromState(base, s))
    return out


def fingerprint(r) -> dict:
    """Everything a SearchResult counts (timing and engine name aside)."""
    d = r.counts()
    d.update(fail_highs=r.fail_highs, first_move_fail_highs=r.first_move_fail_highs,
             q_nodes=r.q_nodes, best_moves_complete=r.best_moves_complete, depth=r.depth,
             extra=r.extra)
    return d


def both(game, algorithm, ordering, **kw) -> tuple[dict, dict]:
    """(reference, compiled) fingerprints of one search."""
    ref = search(game, algorithm, ordering, engine="reference", **kw)
    com = search(game, algorithm, ordering, engine="compiled", **kw)
    assert com.engine == "compiled"
    return fingerprint(ref), fingerprint(com)
