"""searchlab against OpenSpiel as its Python users run it, on identical alpha-beta work.

    .venv/bin/python benchmarks/openspiel_compare.py [--repeat 3] [--depth 9] [--positions 12]

OpenSpiel's side is ``open_spiel.python.algorithms.minimax.alpha_beta_search`` over pyspiel's
C++ game states (pyspiel exposes no C++ alpha-beta), its nodes counted as calls of its
recursive ``_alpha_beta`` (root, horizon and terminal nodes included: searchlab's definition).
searchlab's side is fail-soft alpha-beta (``search(game, "alphabeta")``, natural move order) in
its reference engine and its compiled engine, on the same game, positions, depth and values:

- tic-tac-toe: the full tree from the empty board (values +1 / -1 / 0, as both define them);
- Connect Four, win/loss only: OpenSpiel's terminal returns (+1 / -1 / 0) and 0 at the horizon
  (its ``value_function``); searchlab's Connect Four scores wins by stone count and evaluates
  heuristically, so the benchmark searches ``WinLossConnectFour`` (below): the same game with
  OpenSpiel's values, in both engines. Positions: the first ``--positions`` of Pons'
  Test_L2_R1 (middle game, shipped in searchlab/data/connect4), ``--depth`` plies each.

Node counts, values and best moves must agree position by position (the script fails
otherwise) before any speed is printed; then nodes/s of each engine and the ratios, from this
one run (best of ``--repeat`` per engine). open-spiel is optional (``pip install -e
'.[openspiel]'``): without it the script says so and exits 0.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from searchlab import search                                             # noqa: E402
from searchlab.data import path as data_path                             # noqa: E402
from searchlab.games import connect4_compiled as C4                      # noqa: E402
from searchlab.games.connect4 import ConnectFour, load_benchmark          # noqa: E402
from searchlab.games.tictactoe import TicTacToe                          # noqa: E402

OPENSPIEL_CPP = {"tic-tac-toe": 13.2e6, "Connect Four": 1.26e6}    # C++ alpha-beta from source (the issue)


@njit(cache=True)
def _winloss_utility(s):
    """+1 if MAX has four in a row, -1 if MIN has, 0 for a draw (connect4_compiled's rows)."""
    if C4._aligned(np.int64(s[0] ^ s[1])):
        return -1.0 if C4.max_to_move(s) else 1.0
    return 0.0


@njit(cache=True)
def _zero(s):
    return 0.0


class WinLossConnectFour(ConnectFour):
    """Connect Four with OpenSpiel's values: +1 / -1 / 0 at the end (MAX's view), 0 at the
    horizon; the same moves, order and positions as ConnectFour, in both engines."""

    def utility(self, state) -> float:
        if state.won_by_last_mover():
            return -1.0 if self.max_to_move(state) else 1.0
        return super().utility(state)

    def evaluate(self, state) -> float:
        return 0.0

    def compiled_primitives(self):
        cg = super().compiled_primitives()
        return dataclasses.replace(cg, prims=cg.prims._replace(utility=_winloss_utility, evaluate=_zero))


def _counted_openspiel():
    """OpenSpiel's alpha_beta_search with its recursive calls counted (a list cell)."""
    from open_spiel.python.algorithms import minimax      # optional dependency
    count = [0]
    inner = minimax._alpha_beta

    def counted(*args, **kwargs):
        count[0] += 1
        return inner(*args, **kwargs)
    minimax._alpha_beta = counted        # the recursion calls the module-level name
    return minimax.alpha_beta_search, count


def _best(fn, repeat: int):
    best, out = None, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return out, best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per engine and position; the fastest counts")
    ap.add_argument("--depth", type=int, default=9, help="Connect Four search depth (plies)")
    ap.add_argument("--positions", type=int, default=12, help="Connect Four positions from Test_L2_R1")
    args = ap.parse_args()
    try:
        import pyspiel                                    # optional dependency
    except ImportError:
        print("open-spiel is not installed (pip install -e '.[openspiel]'): benchmark skipped")
        return 0
    alpha_beta_search, count = _counted_openspiel()

    cases = [("tic-tac-toe", TicTacToe(), pyspiel.load_game("tic_tac_toe"), [], None, None)]
    c4 = pyspiel.load_game("connect_four")
    for moves, _ in load_benchmark(data_path("connect4", "Test_L2_R1"))[:args.positions]:
        cases.append(("Connect Four", WinLossConnectFour(moves), c4, [int(ch) - 1 for ch in moves],
                      args.depth, lambda s: 0.0))
    totals: dict[str, dict[str, list[float]]] = {}
    for name, game, osp_game, actions, depth, value_fn in cases:
        state = osp_game.new_initial_state()
        for a in actions:
            state.apply_action(a)
        kw = {"maximum_depth": depth, "value_function": value_fn} if depth else {"maximum_depth": 100}

        def osp():
            count[0] = 0
            return alpha_beta_search(osp_game, state=state, **kw), count[0]
        (osp_out, osp_nodes), osp_s = _best(osp, args.repeat)
        ref, ref_s = _best(lambda: search(game, "alphabeta", depth=depth, engine="reference"), args.repeat)
        search(game, "alphabeta", depth=depth, engine="compiled")                 # compile / load
        com, com_s = _best(lambda: search(game, "alphabeta", depth=depth, engine="compiled"), args.repeat)
        assert com.engine == "compiled", com.engine
        same = (osp_nodes == ref.nodes == com.nodes and osp_out[0] == ref.value == com.value
                and osp_out[1] == ref.best_move == com.best_move)
        if not same:
            print(f"{name} {actions}: OpenSpiel {osp_nodes} nodes {osp_out}, reference {ref.nodes} "
                  f"{ref.value} {ref.best_move}, compiled {com.nodes} {com.value} {com.best_move}: "
                  "NOT THE SAME WORK", file=sys.stderr)
            return 1
        t = totals.setdefault(name, {"nodes": [0], "openspiel": [0.0], "reference": [0.0], "compiled": [0.0],
                                     "positions": [0]})
        t["nodes"][0] += com.nodes
        t["positions"][0] += 1
        for k, s in (("openspiel", osp_s), ("reference", ref_s), ("compiled", com_s)):
            t[k][0] += s
    print(f"alpha-beta, identical work (node counts, values and best moves equal position by position; "
          f"best of {args.repeat}; one run)")
    print("| game | positions | nodes | OpenSpiel Python nodes/s | searchlab reference nodes/s | "
          "searchlab compiled nodes/s | reference / OpenSpiel | compiled / OpenSpiel | "
          "compiled / OpenSpiel C++ (issue's figure) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, t in totals.items():
        n = t["nodes"][0]
        o, r, c = (n / t[k][0] for k in ("openspiel", "reference", "compiled"))
        print(f"| {name} | {t['positions'][0]} | {n:,} | {o:,.0f} | {r:,.0f} | {c:,.0f} | {r / o:.2f}x | "
              f"{c / o:.0f}x | {c / OPENSPIEL_CPP[name]:.2f}x |")
    print(f"(Connect Four: depth {args.depth}, win/loss only; tic-tac-toe: the full tree)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
