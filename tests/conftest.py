"""Shared fixtures: synthetic result tables shaped like the engine's Parquet output (one row per task)."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from searchlab.analysis import theory as T

COLUMNS = ["experiment", "tree", "b", "d", "levels", "p", "decay", "correlation", "algorithm", "ordering",
           "instance", "seed", "ordering_seed", "value", "best_move", "nodes", "leaves", "interior", "cutoffs",
           "per_ply", "wall_seconds", "status", "config_hash", "version", "commit"]


def synthetic_table(bs=(2, 4, 8), depths=range(1, 7), instances=8, seed=0, abort_rate=0.02,
                    orderings=("perfect", "worst", "random"), with_minimax=True) -> pd.DataFrame:
    """Perfect = Knuth–Moore exactly, worst = 0.9·b^d, random = (b^(3/4))^d × lognormal noise."""
    rng = np.random.default_rng(seed)
    rows = []

    def row(b, d, i, algorithm, ordering, leaves, status="ok"):
        nodes = int(leaves * 1.3) + 1
        return dict(experiment="synthetic", tree="iid", b=b, d=d, levels=0, p=np.nan, decay=np.nan,
                    correlation=np.nan, algorithm=algorithm, ordering=ordering, instance=i, seed=1000 * b + i,
                    ordering_seed=0, value=0.5, best_move=0, nodes=nodes, leaves=int(leaves),
                    interior=nodes - int(leaves), cutoffs=3, per_ply=[1] * (d + 1), wall_seconds=0.001,
                    status=status, config_hash="cafe", version="0.1.0", commit="0" * 40)

    for b in bs:
        for d in depths:
            for i in range(instances):
                for o in orderings:
                    if o == "perfect":
                        lv = T.knuth_moore_leaves(b, d)
                    elif o == "worst":
                        lv = max(1, int(0.9 * b ** d))
                    else:
                        lv = max(1, int((b ** 0.75) ** d * rng.lognormal(0, 0.2)))
                    st = "aborted" if rng.random() < abort_rate else "ok"
                    rows.append(row(b, d, i, "alphabeta", o, lv, st))
                if with_minimax:
                    rows.append(row(b, d, i, "minimax", "natural", b ** d))
    return pd.DataFrame(rows, columns=COLUMNS)


@pytest.fixture
def table() -> pd.DataFrame:
    return synthetic_table()


#: one first search per compiled engine (and the chess move generator): what a fresh checkout
#: compiles before its tests can run warm
_WARM_UP = [
    "from searchlab import search\nfrom searchlab.trees.iid import IIDTree\n"
    "search(IIDTree(4, 4, seed=1), 'alphabeta', 'natural', engine='compiled')",
    "from searchlab import search\nfrom searchlab.games.chess_game import Chess\n"
    "search(Chess(), 'alphabeta', 'natural', depth=2, engine='compiled')",
    "from searchlab import search\nfrom searchlab.games.tictactoe import TicTacToe\n"
    "search(TicTacToe(), 'alphabeta', 'natural', depth=2, engine='compiled')",
    "from searchlab import search\nfrom searchlab.games.othello import Othello\n"
    "search(Othello(), 'alphabeta', 'natural', depth=2, engine='compiled')",
    "from searchlab import search\nfrom searchlab.games.connect4 import ConnectFour\n"
    "search(ConnectFour(), 'alphabeta', 'natural', depth=2, engine='compiled')",
    "from searchlab import search\nfrom searchlab.games.hex import Hex\n"
    "search(Hex(7), 'alphabeta', 'natural', depth=2, engine='compiled')",
    "from searchlab.games.chesskernel import perft\nperft('startpos', 3)",
    "from searchlab.algorithms.chance_search import search_chance\nfrom searchlab.games.pig import Pig\n"
    "search_chance(Pig(winscore=20), 'star2', 'static', depth=2, engine='compiled')",
    "from searchlab.algorithms.chance_search import search_chance\nfrom searchlab.games.dice_race import DiceRace\n"
    "search_chance(DiceRace(length=8), 'star2', 'static', depth=2, engine='compiled')",
    "from searchlab.algorithms.multiplayer import search_multiplayer\nfrom searchlab.games.rolit import Rolit\n"
    "search_multiplayer(Rolit.random(3, 20, 1), 'brs', depth=2, engine='compiled')",
    # the parallel simulator's kernel: one copy per tree model and game the tests simulate
    "from searchlab.parallel import simulate\nfrom searchlab.trees import IIDTree, OrderedTree, IncrementalTree\n"
    "for t in (IIDTree(2, 2), OrderedTree(2, 2), IncrementalTree(2, 2)): simulate(t, 'ybwc', 2)",
    "from searchlab.parallel import simulate\nfrom searchlab.games.connect4 import ConnectFour\n"
    "from searchlab.games.othello import Othello\nfrom searchlab.games.tictactoe import TicTacToe\n"
    "for g in (ConnectFour(), Othello(), TicTacToe()): simulate(g, 'ybwc', 2, depth=2)",
]


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    """Before the whole suite's test processes start (not for a chosen file, not in an xdist
    worker, not under NUMBA_DISABLE_JIT): compile every engine once onto the disk cache, two
    processes at a time. Without it each test process compiled what its tests met first, and
    two processes often compiled the same engine at once."""
    config = session.config
    if (hasattr(config, "workerinput") or config.invocation_params.args
            or os.environ.get("NUMBA_DISABLE_JIT") == "1"):
        return
    # a failed warm-up only leaves the tests to compile (and to report any error themselves)
    procs = [subprocess.Popen([sys.executable, "-c", "\n".join(_WARM_UP[i::2])],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for i in range(2)]
    for p in procs:
        p.wait()
