"""Cases shared by the MCTS tests and their NUMBA_DISABLE_JIT subprocess: seeded searches on
every game with two-player compiled primitives, and the fingerprint both engines must share."""

from __future__ import annotations

from searchlab.algorithms.mcts import MCTSOptions
from searchlab.games.connect4 import ConnectFour
from searchlab.games.hex import Hex
from searchlab.games.othello import Othello
from searchlab.games.tictactoe import TicTacToe
from searchlab.trees.iid import IIDTree
from searchlab.trees.incremental import IncrementalTree

GAMES = {
    "tictactoe": TicTacToe,
    "connect4": ConnectFour,
    "othello": Othello,
    "hex3": lambda: Hex(3),
    "hex5": lambda: Hex(5),
    "hex7": lambda: Hex(7, "d4"),
    "iid": lambda: IIDTree(4, 6, seed=3),
    "incremental": lambda: IncrementalTree(3, 7, seed=5),
}
PRIORS = {"connect4": "centre", "othello": "corners", "hex5": "adjacent", "hex7": "adjacent"}
STATIC = ("tictactoe", "connect4", "othello", "hex5", "hex7", "incremental")


def cases() -> list[tuple[str, str, MCTSOptions, int]]:
    """(game, label, options, seed): random rollouts; the solver; the game's prior; horizon
    rollouts scored by the evaluation; a small exploration constant."""
    out = []
    for name in GAMES:
        out.append((name, "random", MCTSOptions(simulations=150), 1))
        out.append((name, "solver", MCTSOptions(simulations=150, solver=True), 2))
        out.append((name, "c=0.3", MCTSOptions(simulations=120, exploration=0.3), 3))
        if name == "iid":
            out.append((name, "value", MCTSOptions(simulations=150, reward="value"), 6))
        if name in PRIORS:
            out.append((name, "prior", MCTSOptions(simulations=150, prior=PRIORS[name], prior_weight=2.0), 4))
        if name in STATIC:
            out.append((name, "horizon", MCTSOptions(simulations=150, rollout="horizon", rollout_depth=3,
                                                     solver=True), 5))
    return out


def fingerprint(r) -> dict:
    """Everything an MCTS result counts (timing and the engine's name aside); nan as text."""
    d = r.counts()
    d.update(root_moves=r.root_moves, root_visits=r.root_visits,
             root_values=tuple(repr(v) for v in r.root_values), simulations=r.simulations,
             value=repr(r.value), depth=r.depth, proven=r.extra["proven"])
    return d
