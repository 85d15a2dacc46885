"""searchlab's compiled MCTS against OpenSpiel's C++ MCTSBot with random rollouts.

    .venv/bin/python benchmarks/mcts_vs_openspiel.py [--simulations 2000] [--repeat 3] [--seeds 3]

Both sides run UCT (exploration constant 2, OpenSpiel's default), one random rollout to the end
of the game per simulation, no solver, from the empty board of Hex 11x11 and of Connect Four,
the same number of simulations, interleaved in one process: OpenSpiel's
``pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, simulations, ...)``
``.mcts_search(state)`` (all C++), and searchlab's ``search(game, "mcts", engine="compiled",
mcts_options=MCTSOptions(simulations=..., exploration=2.0), seed=...)``. The figure is
simulations per CPU second (``time.process_time``), best of ``--repeat`` per seed, the median
over seeds; searchlab's engine is compiled (or loaded from numba's cache) before timing. The
machine is shared: read the ratio, not the rates. open-spiel is optional: without it the
script says so and exits 0.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from searchlab import search                                             # noqa: E402
from searchlab.algorithms.mcts import MCTSOptions                        # noqa: E402
from searchlab.games.connect4 import ConnectFour                          # noqa: E402
from searchlab.games.hex import Hex                                       # noqa: E402

C = 2.0


def _cpu(f) -> float:
    t = time.process_time()
    f()
    return time.process_time() - t


def measure(pyspiel, label: str, spiel_game, ours, sims: int, repeat: int, seeds: int) -> tuple:
    """(OpenSpiel sims/s, searchlab sims/s, searchlab's nodes per simulation)."""
    options = MCTSOptions(simulations=sims, exploration=C)
    search(ours, "mcts", engine="compiled", mcts_options=MCTSOptions(simulations=10), seed=0)  # compile/load
    theirs_rates, ours_rates, per_sim = [], [], []
    for seed in range(1, seeds + 1):
        best_t, best_o = float("inf"), float("inf")
        for _ in range(repeat):
            bot = pyspiel.MCTSBot(spiel_game, pyspiel.RandomRolloutEvaluator(1, seed), C, sims, 4000,
                                  False, seed, False)
            state = spiel_game.new_initial_state()
            best_t = min(best_t, _cpu(lambda: bot.mcts_search(state)))
            out = []
            best_o = min(best_o, _cpu(lambda: out.append(
                search(ours, "mcts", engine="compiled", mcts_options=options, seed=seed))))
            r = out[0]
            assert r.simulations == sims and sum(r.root_visits) == sims
        theirs_rates.append(sims / best_t)
        ours_rates.append(sims / best_o)
        per_sim.append(r.nodes / r.simulations)
    return statistics.median(theirs_rates), statistics.median(ours_rates), statistics.median(per_sim)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--simulations", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seeds", type=int, default=3)
    a = ap.parse_args(argv)
    try:
        import pyspiel
    except ImportError:
        print("open-spiel is not installed (pip install -e '.[test]'): nothing to compare")
        return 0
    games = [("Hex 11x11", pyspiel.load_game("hex", {"board_size": 11}), Hex(11)),
             ("Connect Four", pyspiel.load_game("connect_four"), ConnectFour())]
    print(f"UCT c={C}, one random rollout per simulation, {a.simulations} simulations from the empty "
          f"board; simulations per CPU second (best of {a.repeat}, median of {a.seeds} seeds)")
    print(f"{'game':<14}{'OpenSpiel C++':>15}{'searchlab':>12}{'ratio':>8}{'nodes/sim':>11}")
    for label, spiel_game, ours in games:
        theirs, mine, per_sim = measure(pyspiel, label, spiel_game, ours, a.simulations, a.repeat, a.seeds)
        print(f"{label:<14}{theirs:>15,.0f}{mine:>12,.0f}{mine / theirs:>7.2f}x{per_sim:>11.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
