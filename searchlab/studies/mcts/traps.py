"""Search traps: how often alpha-beta and MCTS find the minimax move at equal node budgets
(Ramanujan, Sabharwal & Selman 2010: UCT is fooled where a shallow refutation hides among
many good-looking lines; alpha-beta is fooled beyond its horizon).

Synthetic trees (``models``: "iid", "incremental"; b in ``bs``, d in ``ds``, ``trees`` seeded
trees per cell, only cells with b^d <= ``max_leaves``): the minimax moves are the root moves
whose exact value (a minimax search, every root move proved) equals the root's. At each node
budget N of ``budgets``:

- alpha-beta: on the incremental tree (static values) iterative deepening, each depth a fresh
  search, the move of the deepest depth completed within N nodes (play/match.choose_move,
  ordering "static"); on the i.i.d. tree (no static values, no horizon below the leaves) one
  full-depth search aborted at N nodes, so no move when it does not finish ("found" is then
  False);
- MCTS: ``search(tree, "mcts", max_nodes=N, seed=...)`` with ``reward="value"`` (the leaves'
  values, not their signs) and random rollouts to the leaves.

Hex positions with a shallow win (``hex_sizes``, ``hex_positions`` seeded random positions per
size, ``hex_ply`` stones played, kept when the side to move wins within 3 plies: alpha-beta to
depth 3 scores +1 from its side, and not within 1): "found" means the move played keeps that
win (the child's depth-2 value is the win). Alpha-beta plays as in matches (play/match.py,
engine-grade, Hex's "adjacent" order); MCTS with random rollouts and the solver.

Rows: model, b, d, budget, family, trials, found (count), rate. Randomness: tree seeds, positions
and MCTS streams derive from ``seed`` (experiment.seeds.derive_seed).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
from tqdm import tqdm

from searchlab.algorithms.mcts import MCTSOptions
from searchlab.algorithms.search_api import search
from searchlab.errors import InvalidParameterError
from searchlab.experiment.seeds import derive_seed
from searchlab.games.hex import Hex
from searchlab.contracts.position import FromState
from searchlab.limits import check_int
from searchlab.play.match import Player, choose_move
from searchlab.algorithms.engine_session import EngineSession
from searchlab.trees.iid import IIDTree
from searchlab.trees.incremental import IncrementalTree


@dataclass(frozen=True)
class TrapsConfig:
    """The traps study's size (the module docstring); defaults: the full study."""

    models: tuple[str, ...] = ("iid", "incremental")
    bs: tuple[int, ...] = (2, 4, 8, 16)
    ds: tuple[int, ...] = (4, 6, 8, 10)
    budgets: tuple[int, ...] = (1_000, 10_000)
    trees: int = 50
    max_leaves: int = 2_000_000
    hex_sizes: tuple[int, ...] = (5, 7, 9)
    hex_positions: int = 30
    hex_ply: int = 10
    seed: int = 2026


TINY = TrapsConfig(bs=(2, 4), ds=(4,), budgets=(100,), trees=3, hex_sizes=(5,), hex_positions=2)


def validate(cfg: TrapsConfig) -> TrapsConfig:
    for m in cfg.models:
        if m not in ("iid", "incremental"):
            raise InvalidParameterError(f"models must list iid and/or incremental; got {m!r}")
    for b in cfg.bs:
        check_int("bs[]", b, 2, 64)
    for d in cfg.ds:
        check_int("ds[]", d, 1, 30)
    for n in cfg.budgets:
        check_int("budgets[]", n, 1, 10**9)
    for n in cfg.hex_sizes:
        check_int("hex_sizes[]", n, 3, 11)
    check_int("trees", cfg.trees, 1, 10**5)
    check_int("hex_positions", cfg.hex_positions, 0, 10**4)
    check_int("hex_ply", cfg.hex_ply, 0, 100)
    return cfg


def _tree(model: str, b: int, d: int, seed: int):
    return IIDTree(b, d, seed=seed) if model == "iid" else IncrementalTree(b, d, seed=seed)


def _alphabeta_move(tree, model: str, budget: int):
    if model == "iid":
        r = search(tree, "alphabeta", max_nodes=budget)
        return r.best_move if r.status == "ok" else None
    return choose_move(tree, tree.initial_state(), Player("ab", "alphabeta", "static", budget=budget,
                                                            play="fresh-per-depth")).move


def tree_cells(cfg: TrapsConfig) -> list[tuple[str, int, int]]:
    """The synthetic-tree cells (model, b, d) within ``max_leaves``."""
    return [(m, b, d) for m in cfg.models for b in cfg.bs for d in cfg.ds if b ** d <= cfg.max_leaves]


def cell_rows(cfg: TrapsConfig, model: str, b: int, d: int) -> list[dict]:
    """One synthetic-tree cell's rows, one per budget and family (the module docstring)."""
    found = {(n, f): 0 for n in cfg.budgets for f in ("alpha-beta", "mcts")}
    for t in range(cfg.trees):
        seed = derive_seed(cfg.seed, f"traps/{model}/{b}/{d}/{t}") >> 1
        tree = _tree(model, b, d, seed)
        best = set(search(tree, "minimax").best_moves)
        for n in cfg.budgets:
            found[(n, "alpha-beta")] += _alphabeta_move(tree, model, n) in best
            r = search(tree, "mcts", max_nodes=n, seed=seed, mcts_options=MCTSOptions(reward="value"))
            found[(n, "mcts")] += r.best_move in best
    return [dict(model=model, b=b, d=d, budget=n, family=f, trials=cfg.trees, found=k, rate=k / cfg.trees)
            for (n, f), k in found.items()]


def tree_rows(cfg: TrapsConfig, progress: bool = False) -> list[dict]:
    """The synthetic-tree cells' rows."""
    return [r for m, b, d in tqdm(tree_cells(cfg), disable=not progress, desc="traps: trees")
            for r in cell_rows(cfg, m, b, d)]


def shallow_wins(n: int, count: int, ply: int, seed: int, max_tries: int = 2000) -> list[Hex]:
    """``count`` seeded random Hex n x n positions after ``ply`` stones where the side to move
    wins within 3 plies but not in 1 (alpha-beta to depths 3 and 1)."""
    out = []
    for k in range(max_tries):
        if len(out) == count:
            break
        g = Hex.random(n, ply, derive_seed(seed, f"traps/hex{n}/{k}") >> 1)
        if g.is_terminal(g.initial_state()):
            continue
        if search(g, "alphabeta", "adjacent", depth=3).value == 1.0 and \
                search(g, "alphabeta", "adjacent", depth=1).value != 1.0:
            out.append(g)
    return out


def keeps_win(g: Hex, move) -> bool:
    child = FromState(g, g.play(g.initial_state(), move))
    return child.is_terminal(child.initial_state()) or \
        search(child, "alphabeta", "adjacent", depth=2).value == 1.0


def hex_cell_rows(cfg: TrapsConfig, n: int) -> list[dict]:
    """One Hex size's rows (model "hex", b = the empty cells, d = 3: the win's depth)."""
    rows = []
    games = shallow_wins(n, cfg.hex_positions, cfg.hex_ply, cfg.seed)
    for budget in cfg.budgets:
        found = {"alpha-beta": 0, "mcts": 0}
        for i, g in enumerate(games):
            session = EngineSession(g, Player("ab", "alphabeta", "adjacent", budget=budget).session_config())
            found["alpha-beta"] += keeps_win(g, session.choose(g.initial_state()).move)
            r = search(g, "mcts", max_nodes=budget, seed=derive_seed(cfg.seed, f"traps/hex{n}/mcts/{i}") >> 1,
                       mcts_options=MCTSOptions(solver=True))
            found["mcts"] += keeps_win(g, r.best_move)
        for f, k in found.items():
            rows.append(dict(model="hex", b=n * n - cfg.hex_ply, d=3, budget=budget, family=f,
                             trials=len(games), found=k, rate=k / len(games) if games else float("nan")))
    return rows


def hex_rows(cfg: TrapsConfig, progress: bool = False) -> list[dict]:
    """The Hex cells' rows."""
    return [r for n in tqdm(cfg.hex_sizes, disable=not progress, desc="traps: hex") for r in hex_cell_rows(cfg, n)]


def run(cfg: TrapsConfig, progress: bool = True) -> pd.DataFrame:
    """Every cell's rows (synthetic trees, then Hex)."""
    validate(cfg)
    return pd.DataFrame(tree_rows(cfg, progress) + hex_rows(cfg, progress))
